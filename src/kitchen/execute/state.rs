//! The world state of a run (semantics §3): both object tables, the agent and the
//! environment flags, loaded from a task environment, and the queries and updates the engine
//! makes on them.

use crate::kitchen::data::simmer::Env;
use crate::kitchen::data::world::World;
use compact_str::CompactString;
use foldhash::{HashMap, HashMapExt};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// An id, a class name, a property, a state or a flag: names are short (almost all under 24
/// bytes), so a `CompactString` holds them inline, and copying the state of an environment into
/// a run, or an id into a list of contents, allocates nothing.
pub type Name = CompactString;

/// `{a}_{b}`, built without the formatting machinery (ids are made this way on every step).
pub fn joined(a: &str, b: &str) -> Name {
    let mut id = Name::with_capacity(a.len() + 1 + b.len());
    id.push_str(a);
    id.push('_');
    id.push_str(b);
    id
}

/// One object, initial or created (semantics §3.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Object {
    pub id: Name,
    pub name: Name,
    pub properties: Vec<Name>,
    pub states: Vec<Name>,
    pub location: Option<Name>,
    pub contents: Vec<Name>,
    #[serde(rename = "contaminated_by")]
    pub contam: BTreeSet<Name>,
}

impl Object {
    pub fn has_property(&self, p: &str) -> bool {
        self.properties.iter().any(|x| x == p)
    }

    pub fn has_state(&self, s: &str) -> bool {
        self.states.iter().any(|x| x == s)
    }

    pub(super) fn add_state(&mut self, s: &str) {
        if !self.has_state(s) {
            self.states.push(Name::from(s));
        }
    }

    pub(super) fn remove_state(&mut self, s: &str) {
        if let Some(i) = self.states.iter().position(|x| x == s) {
            self.states.remove(i);
        }
    }
}

/// Which table an object lives in, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Initial(usize),
    Created(usize),
}

/// The whole world state: both object tables, the agent and the environment flags.
#[derive(Clone, Debug, Default)]
pub struct State {
    pub initial: Vec<Object>,
    initial_index: HashMap<Name, usize>,
    /// Created objects in creation order (COMBINE overwrites in place).
    pub created: Vec<Object>,
    created_index: HashMap<Name, usize>,
    pub agent_location: Name,
    pub held: Option<Name>,
    pub hands: BTreeSet<Name>,
    pub flags: BTreeMap<Name, bool>,
    /// Where each initial object started, by its position in `initial` (strict mode's audit
    /// tells an object left in storage from one moved there).
    pub homes: Vec<Option<Name>>,
}

impl PartialEq for State {
    /// The indexes follow from the tables, so they are not compared.
    fn eq(&self, other: &State) -> bool {
        self.initial == other.initial
            && self.created == other.created
            && self.agent_location == other.agent_location
            && self.held == other.held
            && self.hands == other.hands
            && self.flags == other.flags
    }
}

impl Eq for State {}

impl State {
    /// The state right after loading (semantics §1.2 and §3.2).
    pub fn load(world: &World, env: &Env) -> State {
        let names = |list: &[String]| list.iter().map(Name::from).collect::<Vec<Name>>();
        let mut state = State {
            initial: Vec::with_capacity(env.objects.len()),
            initial_index: HashMap::with_capacity(env.objects.len()),
            agent_location: Name::from(&world.config.agent.location),
            flags: world
                .config
                .agent
                .flags
                .iter()
                .map(|f| (Name::from(f), false))
                .collect(),
            ..State::default()
        };
        for o in &env.objects {
            state
                .initial_index
                .insert(Name::from(&o.id), state.initial.len());
            state.initial.push(Object {
                id: Name::from(&o.id),
                name: Name::from(&o.name),
                properties: names(&o.properties),
                states: names(&o.states),
                location: o.location.as_ref().map(Name::from),
                contents: Vec::new(),
                contam: BTreeSet::new(),
            });
            state.homes.push(o.location.as_ref().map(Name::from));
        }
        for i in 0..state.initial.len() {
            let Some(location) = &state.initial[i].location else {
                continue;
            };
            let container = joined(location, "1");
            if container != state.initial[i].id
                && let Some(&c) = state.initial_index.get(&container)
            {
                let id = state.initial[i].id.clone();
                state.initial[c].contents.push(id);
            }
        }
        state
    }

    fn slot(&self, id: &str) -> Option<Slot> {
        if let Some(&i) = self.initial_index.get(id) {
            return Some(Slot::Initial(i));
        }
        self.created_index.get(id).map(|&i| Slot::Created(i))
    }

    /// The object with this id: the initial table first, then the created one.
    /// Whether the object is an initial one still where it started (a created object never is).
    pub fn is_unmoved(&self, object: &Object) -> bool {
        self.initial_index
            .get(&object.id)
            .and_then(|&i| self.initial.get(i).zip(self.homes.get(i)))
            .is_some_and(|(initial, home)| {
                std::ptr::eq(initial, object) && initial.location == *home
            })
    }

    pub fn get(&self, id: &str) -> Option<&Object> {
        match self.slot(id)? {
            Slot::Initial(i) => self.initial.get(i),
            Slot::Created(i) => self.created.get(i),
        }
    }

    pub(super) fn get_mut(&mut self, id: &str) -> Option<&mut Object> {
        match self.slot(id)? {
            Slot::Initial(i) => self.initial.get_mut(i),
            Slot::Created(i) => self.created.get_mut(i),
        }
    }

    pub fn exists(&self, id: &str) -> bool {
        self.slot(id).is_some()
    }

    pub fn flag(&self, name: &str) -> bool {
        self.flags.get(name).copied().unwrap_or(false)
    }

    /// Objects in audit order: initial objects, each replaced by a created object of the same
    /// id, then the other created objects in creation order.
    pub fn audit_order(&self) -> Vec<&Object> {
        let mut out: Vec<&Object> = self
            .initial
            .iter()
            .map(|o| match self.created_index.get(&o.id) {
                Some(&c) => &self.created[c],
                None => o,
            })
            .collect();
        out.extend(
            self.created
                .iter()
                .filter(|c| !self.initial_index.contains_key(&c.id)),
        );
        out
    }

    /// The first `base_n`, n = 1, 2, …, in neither table.
    pub(super) fn unique_id(&self, base: &str) -> Name {
        (1..)
            .map(|n: u32| joined(base, &n.to_string()))
            .find(|id| !self.exists(id))
            .unwrap_or_default()
    }

    /// Stores a created object under its id: overwriting in place, or appending.
    pub(super) fn store_created(&mut self, object: Object) {
        match self.created_index.get(&object.id) {
            Some(&i) => self.created[i] = object,
            None => {
                self.created_index
                    .insert(object.id.clone(), self.created.len());
                self.created.push(object);
            }
        }
    }

    pub(super) fn props(&self, id: Option<&str>) -> &[Name] {
        id.and_then(|id| self.get(id))
            .map_or(&[][..], |o| &o.properties[..])
    }

    pub(super) fn states(&self, id: Option<&str>) -> &[Name] {
        id.and_then(|id| self.get(id))
            .map_or(&[][..], |o| &o.states[..])
    }

    pub(super) fn contents(&self, id: Option<&str>) -> &[Name] {
        id.and_then(|id| self.get(id))
            .map_or(&[][..], |o| &o.contents[..])
    }

    /// The object with id `place`, else `place_1` (semantics §4, resolve).
    pub(super) fn resolve(&self, place: &str) -> Option<&Object> {
        self.get(place).or_else(|| self.get(&joined(place, "1")))
    }

    pub(super) fn resolve_location_has(&self, id: Option<&str>, property: &str) -> bool {
        id.and_then(|id| self.get(id))
            .and_then(|o| o.location.as_deref())
            .and_then(|l| self.resolve(l))
            .is_some_and(|p| p.has_property(property))
    }

    /// Whether the object's location resolves to the place named (strict `on_heatsource`).
    pub(super) fn located_at(&self, id: Option<&str>, place: Option<&str>) -> bool {
        let (Some(id), Some(place)) = (id, place) else {
            return false;
        };
        self.get(id)
            .and_then(|o| o.location.as_deref())
            .and_then(|l| self.resolve(l))
            .is_some_and(|p| p.id == place)
    }

    pub(super) fn in_any_container(&self, id: &str) -> bool {
        self.initial
            .iter()
            .chain(self.created.iter())
            .any(|o| o.contents.iter().any(|c| c == id))
    }

    /// Removes the object from the contents of the place its location names (§5, detach).
    pub(super) fn detach(&mut self, id: &str) {
        let Some(location) = self.get(id).and_then(|o| o.location.clone()) else {
            return;
        };
        if location.is_empty() {
            return;
        }
        let container = if self.exists(&location) {
            location
        } else {
            joined(&location, "1")
        };
        if let Some(c) = self.get_mut(&container)
            && let Some(i) = c.contents.iter().position(|x| x == id)
        {
            c.contents.remove(i);
        }
    }

    pub(super) fn set_location(&mut self, id: &str, location: Option<Name>) {
        if let Some(o) = self.get_mut(id) {
            o.location = location;
        }
    }

    /// Moves every id of the source's contents, in order, to the end of the target's.
    pub(super) fn move_contents(&mut self, source: &str, target: &str) {
        let items = match self.get_mut(source) {
            Some(s) => std::mem::take(&mut s.contents),
            None => return,
        };
        for item in &items {
            self.set_location(item, Some(Name::from(target)));
        }
        if let Some(t) = self.get_mut(target) {
            t.contents.extend(items);
        }
    }
}

/// The names of a list, as the state holds them.
pub(super) fn names(list: &[String]) -> Vec<Name> {
    list.iter().map(Name::from).collect()
}

/// The bound value of each role of a step (none for unbound roles).
pub type Binding = Vec<Option<Name>>;
