//! The interpreter of checks and primitives: the per-step pipeline of semantics §2.3, driven
//! entirely by the resolved world's data.

use super::Mode;
use super::failure::{Failure, FailureType};
use super::state::{Binding, Name, Object, State, joined, names};
use crate::kitchen::data::model::is_of_kind;
use crate::kitchen::data::plan::{Plan, Step};
use crate::kitchen::data::simmer::Env;
use crate::kitchen::data::simmer_id::SimmerId;
use crate::kitchen::data::world::{
    Action, Creation, Primitive, PrimitiveFamily, Role, Test, World,
};
use std::collections::BTreeSet;

/// The interpreter: the world it runs in, the mode, the state and the failures so far.
pub struct Engine<'w> {
    pub world: &'w World,
    pub mode: Mode,
    pub state: State,
    pub failures: Vec<Failure>,
    /// Transforming steps that ran with a failed precondition (`detect_irreversible.py`).
    pub flags: Vec<super::irreversible::Flag>,
}

fn arg(binding: &Binding, role: Role) -> Option<&str> {
    binding.get(role).and_then(|b| b.as_deref())
}

/// Why a step has the wrong number of arguments for its action, if it has.
fn arity_failure(action: &Action, given: usize) -> Option<String> {
    let name = &action.name;
    let required = action.required();
    let total = action.roles.len();
    if given < required {
        return Some(format!(
            "Too few arguments for '{name}': expected at least {required}, got {given}"
        ));
    }
    (given > total)
        .then(|| format!("Too many arguments for '{name}': expected at most {total}, got {given}"))
}

impl<'w> Engine<'w> {
    pub fn new(world: &'w World, env: &Env, mode: Mode) -> Engine<'w> {
        Engine::starting_from(world, State::load(world, env), mode)
    }

    /// An engine whose world starts as `state` (an environment's, loaded once).
    pub fn starting_from(world: &'w World, state: State, mode: Mode) -> Engine<'w> {
        Engine {
            world,
            mode,
            state,
            failures: Vec::new(),
            flags: Vec::new(),
        }
    }

    fn record(&mut self, step: usize, kind: FailureType, action: &str, reason: String) {
        self.failures.push(Failure::new(step, kind, action, reason));
    }

    /// Runs every step of the plan (the audits are separate: `audit::run`).
    pub fn run_plan(&mut self, plan: &Plan) {
        for step in &plan.steps {
            let before = self.failures.len();
            let Some(binding) = self.run_step(step) else {
                continue;
            };
            let Some(action) = self.world.action(&step.action) else {
                continue;
            };
            if let Some(flag) = super::irreversible::detect(
                self.world,
                &self.state,
                action,
                &binding,
                &self.failures[before..],
                step.number,
            ) {
                self.flags.push(flag);
            }
        }
    }

    /// Binds the arguments to the roles (semantics §2.2).
    fn bind(&self, action: &Action, step: &Step) -> Binding {
        let total = action.roles.len();
        let given = step.args.len();
        let skip = if given < total {
            let leading = action.roles.iter().take_while(|r| r.optional).count();
            leading.min(total - given)
        } else {
            0
        };
        let mut pairs = step.args.iter();
        action
            .roles
            .iter()
            .enumerate()
            .map(|(i, role)| {
                if i < skip {
                    return None;
                }
                let pair = pairs.next()?;
                Some(
                    if self.world.is_value_role(&role.name) || pair.id.is_empty() {
                        pair.name.clone()
                    } else {
                        joined(&pair.name, &pair.id)
                    },
                )
            })
            .collect()
    }

    /// One step of semantics §2.3; the binding when the handler ran.
    pub fn run_step(&mut self, step: &Step) -> Option<Binding> {
        // Simmer's rendering of the step is made only for the failures that record it.
        let text = std::cell::OnceCell::new();
        let text = || text.get_or_init(|| step.text()).as_str();
        let k = step.number;
        let name = step.action.as_str();
        let Some(action) = self.world.action(name) else {
            // Simmer calls an unknown action immediate (Q5); it is a syntax error of the plan.
            let kind = match self.mode {
                Mode::Simmer => FailureType::Immediate,
                Mode::Strict => FailureType::Syntax,
            };
            self.record(k, kind, text(), format!("Unknown action: {name}"));
            return None;
        };
        if let Some(reason) = arity_failure(action, step.args.len()) {
            self.record(k, FailureType::Syntax, text(), reason);
            return None;
        }
        let binding = self.bind(action, step);
        let bad_arguments = self.argument_failures(action, &binding);
        let bad = !bad_arguments.is_empty();
        for reason in bad_arguments {
            self.record(k, FailureType::Syntax, text(), reason);
        }
        // Simmer runs the handler on ids that do not exist (Q6); strict mode stops the step.
        if self.mode == Mode::Strict && bad {
            return None;
        }
        if !action.handled {
            let mut failure = Failure::new(
                k,
                FailureType::Immediate,
                text(),
                format!("No handler for action: {name}"),
            );
            failure.severity = 0;
            self.failures.push(failure);
            return None;
        }
        let failed_checks = self.failed_checks(action, &binding);
        let failed = !failed_checks.is_empty();
        for reason in failed_checks {
            self.record(k, FailureType::Immediate, text(), reason);
        }
        // Simmer applies the effects even when checks failed (Q7); strict mode does not.
        if failed && self.mode == Mode::Strict {
            return Some(binding);
        }
        self.apply_effects(action, &binding);
        Some(binding)
    }

    /// The syntax failures of a step's arguments: objects that do not exist, in role order,
    /// then objects bound to more than one role.
    fn argument_failures(&self, action: &Action, binding: &Binding) -> Vec<String> {
        let mut reasons = Vec::new();
        for (role, value) in action.roles.iter().zip(binding) {
            let Some(id) = value else { continue };
            if self.world.is_value_role(&role.name) || self.world.is_name_role(&role.name) {
                continue;
            }
            if !self.state.exists(id) {
                reasons.push(format!(
                    "Object not found: '{id}' (bound to role '{}')",
                    role.name
                ));
            }
        }
        let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
        for (role, value) in action.roles.iter().zip(binding) {
            let Some(id) = value else { continue };
            if self.world.is_value_role(&role.name) {
                continue;
            }
            match groups.iter_mut().find(|(g, _)| g == id) {
                Some((_, roles)) => roles.push(&role.name),
                None => groups.push((id, vec![&role.name])),
            }
        }
        reasons.extend(
            groups
                .iter()
                .filter(|(_, roles)| roles.len() > 1)
                .map(|(id, roles)| {
                    format!(
                        "Duplicate object '{id}' bound to multiple roles: {}",
                        roles.join(", ")
                    )
                }),
        );
        reasons
    }

    /// The reasons of the step's failed checks, in order, then (strict mode) the cook's rules
    /// it breaks (the planning flavour's tightenings).
    fn failed_checks(&self, action: &Action, binding: &Binding) -> Vec<String> {
        let mut reasons = Vec::new();
        for check in &action.checks {
            if check.strict && self.mode == Mode::Simmer {
                continue;
            }
            if check.when.is_some_and(|r| arg(binding, r).is_none())
                || check.unless.is_some_and(|r| arg(binding, r).is_some())
            {
                continue;
            }
            if !self.test(&check.test, binding, 0) {
                reasons.push(format!("Precondition failed: {}", check.reason));
            }
        }
        if self.mode == Mode::Strict {
            for reason in super::cook::broken_rules(self.world, &self.state, action, binding) {
                reasons.push(format!("Precondition failed: {reason}"));
            }
        }
        reasons
    }

    /// Applies the step's effects in order, each when its role is bound and its condition holds
    /// at that point.
    fn apply_effects(&mut self, action: &Action, binding: &Binding) {
        for effect in &action.effects {
            if effect.when.is_some_and(|r| arg(binding, r).is_none())
                || (effect.strict && self.mode == Mode::Simmer)
            {
                continue;
            }
            if let Some(condition) = &effect.condition
                && !self.test(condition, binding, 0)
            {
                continue;
            }
            self.apply(&effect.primitive, binding);
        }
    }

    /// Whether the object is a contamination source (semantics §4, is_source).
    pub fn is_source(&self, id: Option<&str>) -> bool {
        let Some(o) = id.and_then(|id| self.state.get(id)) else {
            return false;
        };
        let c = &self.world.config.contamination;
        c.source_properties.iter().all(|p| o.has_property(p))
            && c.source_states.iter().all(|s| o.has_state(s))
            && !c.source_names_excluded.iter().any(|x| *x == o.name)
    }

    /// Strict mode's reading of Simmer's substring tests on ids: an existing object whose class
    /// is `kind` or ends in `_kind` (`olive_oil` is oil, `aluminum_foil` is not).
    fn is_kind(&self, id: Option<&str>, kind: &str) -> bool {
        id.and_then(|id| self.state.get(id))
            .is_some_and(|o| is_of_kind(&o.name, kind))
    }

    /// Whether the object exists and affords the use (`world.toml`'s `[affordances]`): by its
    /// class or one of its properties.
    fn affords(&self, id: Option<&str>, use_: &str) -> bool {
        let Some(affordance) = self.world.config.affordances.get(use_) else {
            return false;
        };
        id.and_then(|id| self.state.get(id)).is_some_and(|o| {
            affordance.fits_class(&o.name)
                || affordance.properties.iter().any(|p| o.has_property(p))
        })
    }

    /// Evaluates a test under a binding. `depth` bounds the nesting of `any`.
    pub fn test(&self, test: &Test, b: &Binding, depth: usize) -> bool {
        let s = &self.state;
        match test {
            Test::HoldingNothing => s.held.is_none(),
            Test::Holds(r) => s.held.as_deref() == arg(b, *r),
            Test::HasProperty(r, p) => s.props(arg(b, *r)).iter().any(|x| x == p),
            Test::HasAnyProperty(r, ps) => s
                .props(arg(b, *r))
                .iter()
                .any(|p| ps.iter().any(|x| x == p)),
            Test::HasState(r, v) => s.states(arg(b, *r)).iter().any(|x| x == v),
            Test::IdContains(r, v) => match self.mode {
                Mode::Simmer => arg(b, *r).is_some_and(|id| id.contains(v.as_str())),
                Mode::Strict => self.is_kind(arg(b, *r), v),
            },
            Test::IdStartsWith(r, v) => match self.mode {
                Mode::Simmer => arg(b, *r).is_some_and(|id| id.starts_with(v.as_str())),
                Mode::Strict => self.is_kind(arg(b, *r), v),
            },
            Test::Contains(c, x) => {
                arg(b, *x).is_some_and(|x| s.contents(arg(b, *c)).iter().any(|i| i == x))
            }
            Test::HasContents(c) => !s.contents(arg(b, *c)).is_empty(),
            Test::ContentsIdContains(c, v) => match self.mode {
                Mode::Simmer => s
                    .contents(arg(b, *c))
                    .iter()
                    .any(|i| i.contains(v.as_str())),
                Mode::Strict => s
                    .contents(arg(b, *c))
                    .iter()
                    .any(|i| self.is_kind(Some(i), v)),
            },
            Test::OnSurface(x, place) => arg(b, *x)
                .and_then(|x| s.get(x))
                .is_some_and(|o| o.location.as_deref() == arg(b, *place)),
            Test::OnAnySurface(x) => s.resolve_location_has(arg(b, *x), "surface"),
            Test::OnHeatsource(x, h) => {
                s.resolve_location_has(arg(b, *x), "heatsource")
                    && (self.mode == Mode::Simmer || s.located_at(arg(b, *x), arg(b, *h)))
            }
            Test::HasLiquid(v) => {
                s.contents(arg(b, *v)).iter().any(|i| {
                    s.get(i).is_some_and(|o| {
                        o.has_property("pourable") || o.has_property("fillable_source")
                    })
                }) || s.states(arg(b, *v)).iter().any(|x| x == "filled")
            }
            Test::InAnyContainer(x) => arg(b, *x).is_some_and(|x| s.in_any_container(x)),
            Test::RecepOrOpen(x) => {
                let props = s.props(arg(b, *x));
                props.iter().any(|p| p == "receptacle")
                    || (props.iter().any(|p| p == "container")
                        && s.states(arg(b, *x)).iter().any(|x| x == "open"))
            }
            Test::Flag(name) => s.flag(name),
            Test::Any(tests) => depth < 16 && tests.iter().any(|t| self.test(t, b, depth + 1)),
            Test::None(tests) => depth < 16 && !tests.iter().any(|t| self.test(t, b, depth + 1)),
            Test::Affords(x, use_) => self.affords(arg(b, *x), use_),
            Test::ContentsAfford(c, use_) => s
                .contents(arg(b, *c))
                .iter()
                .any(|i| self.affords(Some(i), use_)),
            Test::KitchenAffords(use_) => s
                .initial
                .iter()
                .chain(&s.created)
                .any(|o| self.affords(Some(&o.id), use_)),
        }
    }

    fn add_state(&mut self, id: Option<&str>, state: &str) {
        if let Some(o) = id.and_then(|id| self.state.get_mut(id)) {
            o.add_state(state);
        }
    }

    fn remove_state(&mut self, id: Option<&str>, state: &str) {
        if let Some(o) = id.and_then(|id| self.state.get_mut(id)) {
            o.remove_state(state);
        }
    }

    fn spread(&mut self, from: &str, to: &str) {
        let Some(set) = self.state.get(from).map(|o| o.contam.clone()) else {
            return;
        };
        if let Some(o) = self.state.get_mut(to) {
            o.contam.extend(set);
        }
    }

    fn clear_contam(&mut self, id: Option<&str>) {
        if let Some(o) = id.and_then(|id| self.state.get_mut(id)) {
            o.contam.clear();
        }
    }

    fn cook(&mut self, id: Option<&str>) {
        if let Some(o) = id.and_then(|id| self.state.get_mut(id)) {
            o.remove_state("raw");
            o.add_state("cooked");
            o.contam.clear();
        }
    }

    /// The class-like base of an object for derivatives: its name, or the id before its last `_`.
    fn base(&self, id: &str) -> Name {
        match self.state.get(id) {
            Some(o) => o.name.clone(),
            None => Name::from(SimmerId::parse(id).stem()),
        }
    }

    fn derive(&mut self, id: &str, how: &Creation, at_parent: bool) -> Name {
        let base = joined(&self.base(id), &how.value);
        let new_id = self.state.unique_id(&base);
        let parent = self.state.get(id);
        let mut properties = names(&how.properties);
        if let Some(p) = parent {
            for inherited in &how.inherit {
                if p.has_property(inherited) && !properties.iter().any(|x| x == inherited) {
                    properties.push(Name::from(inherited));
                }
            }
        }
        let location = match parent {
            Some(p) if at_parent => p.location.clone(),
            _ => Some(Name::from(&self.world.config.places.drop)),
        };
        let mut states = names(&how.states);
        if states.is_empty() {
            states.push(Name::from(&how.value));
        }
        self.state.store_created(Object {
            id: new_id.clone(),
            name: base,
            properties,
            states,
            location,
            contents: Vec::new(),
            contam: BTreeSet::new(),
        });
        new_id
    }

    fn combine(&mut self, container: &str, pid: &str, how: &Creation) {
        let name = Name::from(SimmerId::parse(pid).class());
        let items: Vec<Name> = self.state.contents(Some(container)).to_vec();
        let mut properties: BTreeSet<Name> = BTreeSet::new();
        let mut states: BTreeSet<Name> = BTreeSet::new();
        let mut contam: BTreeSet<Name> = BTreeSet::new();
        let mut keep_dirty = false;
        for item in &items {
            if let Some(o) = self.state.get(item) {
                properties.extend(o.properties.iter().cloned());
                states.extend(o.states.iter().cloned());
                contam.extend(o.contam.iter().cloned());
                if o.has_state("dirty") && !(o.has_state("cooked") && o.has_property("protein")) {
                    keep_dirty = true;
                }
            }
        }
        properties.extend(how.properties.iter().map(Name::from));
        for s in self.state.states(Some(container)) {
            if how.states.iter().any(|x| x == s) {
                states.insert(s.clone());
            }
        }
        if !keep_dirty {
            states.remove("dirty");
        }
        self.state.store_created(Object {
            id: Name::from(pid),
            name,
            properties: properties.into_iter().collect(),
            states: states.into_iter().collect(),
            location: Some(Name::from(container)),
            contents: Vec::new(),
            contam,
        });
        if let Some(c) = self.state.get_mut(container) {
            c.contents.push(Name::from(pid));
        }
    }

    /// Applies one primitive (semantics §5 and §6) under a binding.
    fn apply(&mut self, primitive: &Primitive, b: &Binding) {
        match primitive.family() {
            PrimitiveFamily::State => self.apply_state(primitive, b),
            PrimitiveFamily::Placement => self.apply_placement(primitive, b),
            PrimitiveFamily::Contamination => self.apply_contamination(primitive, b),
            PrimitiveFamily::Creation => self.apply_creation(primitive, b),
        }
    }

    /// The primitives on an object's states, the hand, the agent's place and the flags.
    fn apply_state(&mut self, primitive: &Primitive, b: &Binding) {
        use Primitive as P;
        match primitive {
            P::AddState(r, v) => self.add_state(arg(b, *r), v),
            P::RemoveState(r, v) => self.remove_state(arg(b, *r), v),
            P::ReplaceState(r, from, to) => {
                self.remove_state(arg(b, *r), from);
                self.add_state(arg(b, *r), to);
            }
            P::AddValueState(r, v, prefix) => {
                let value = arg(b, *v).unwrap_or("None");
                self.add_state(arg(b, *r), &format!("{prefix}{value}"));
            }
            P::SetStates(r, states) => {
                if let Some(o) = arg(b, *r).and_then(|id| self.state.get_mut(id)) {
                    o.states = names(states);
                }
            }
            P::SetHeld(r) => self.state.held = arg(b, *r).map(Name::from),
            P::Release => self.state.held = None,
            P::ReleaseIfHeld(r) if self.state.held.as_deref() == arg(b, *r) => {
                self.state.held = None;
            }
            P::SetAgentLocation(r) => {
                if let Some(place) = arg(b, *r) {
                    self.state.agent_location = Name::from(place);
                }
            }
            P::SetFlag(f) => {
                self.state.flags.insert(Name::from(f), true);
            }
            P::ClearFlag(f) => {
                self.state.flags.insert(Name::from(f), false);
            }
            _ => {}
        }
    }

    /// The primitives that move objects and contents (semantics §5).
    fn apply_placement(&mut self, primitive: &Primitive, b: &Binding) {
        use Primitive as P;
        match primitive {
            P::MoveInto(x, c) => {
                let (Some(x), Some(c)) = (arg(b, *x), arg(b, *c)) else {
                    return;
                };
                self.state.detach(x);
                if let Some(container) = self.state.get_mut(c) {
                    container.contents.push(Name::from(x));
                }
                self.state.set_location(x, Some(Name::from(c)));
                self.remove_state(Some(c), "empty");
            }
            P::PlaceOn(x, s) => {
                let (Some(x), Some(s)) = (arg(b, *x), arg(b, *s)) else {
                    return;
                };
                self.state.detach(x);
                self.state.set_location(x, Some(Name::from(s)));
            }
            P::RemoveFrom(x, c) => {
                let (Some(x), Some(c)) = (arg(b, *x), arg(b, *c)) else {
                    return;
                };
                if let Some(container) = self.state.get_mut(c)
                    && let Some(i) = container.contents.iter().position(|i| i == x)
                {
                    container.contents.remove(i);
                }
                let drop = Name::from(&self.world.config.places.drop);
                self.state.set_location(x, Some(drop));
            }
            P::PourInto(src, tgt) => {
                let (Some(src), Some(tgt)) = (arg(b, *src), arg(b, *tgt)) else {
                    return;
                };
                let receptacle = self
                    .state
                    .get(src)
                    .is_some_and(|o| o.has_property("receptacle"));
                if receptacle {
                    self.state.move_contents(src, tgt);
                    self.add_state(Some(src), "empty");
                } else if let Some(t) = self.state.get_mut(tgt) {
                    t.contents.push(Name::from(src));
                }
                self.remove_state(Some(tgt), "empty");
            }
            P::MoveContents(src, tgt) => {
                let (Some(src), Some(tgt)) = (arg(b, *src), arg(b, *tgt)) else {
                    return;
                };
                self.state.move_contents(src, tgt);
            }
            P::Fill(v, src) => {
                let (Some(v), Some(src)) = (arg(b, *v), arg(b, *src)) else {
                    return;
                };
                if let Some(o) = self.state.get_mut(v) {
                    o.contents.push(Name::from(src));
                    o.remove_state("empty");
                    o.add_state("filled");
                }
            }
            P::Drain(v) => {
                let Some(v) = arg(b, *v) else { return };
                let Some(items) = self.state.get(v).map(|o| o.contents.clone()) else {
                    return;
                };
                let mut kept = Vec::new();
                for item in items {
                    if self
                        .state
                        .get(&item)
                        .is_some_and(|o| o.has_property("pourable"))
                    {
                        self.state.set_location(&item, None);
                    } else {
                        kept.push(item);
                    }
                }
                if let Some(o) = self.state.get_mut(v) {
                    o.contents = kept;
                    o.add_state("drained");
                }
            }
            P::Dispose(x) => {
                if let Some(o) = arg(b, *x).and_then(|id| self.state.get_mut(id)) {
                    o.location = Some(Name::from(&self.world.config.places.disposal));
                    o.states = vec![Name::const_new("disposed")];
                }
                self.state.held = None;
            }
            _ => {}
        }
    }

    /// The primitives that create objects: derivatives, by-products, products and COMBINE.
    fn apply_creation(&mut self, primitive: &Primitive, b: &Binding) {
        use Primitive as P;
        match primitive {
            P::Derive(x, how) => {
                if let Some(x) = arg(b, *x) {
                    self.derive(x, how, true);
                }
            }
            P::Byproduct(x, how) => {
                if let Some(x) = arg(b, *x) {
                    self.derive(x, how, false);
                }
            }
            P::Product(c, how) => {
                let Some(c) = arg(b, *c) else { return };
                let id = self.state.unique_id(&how.value);
                self.state.store_created(Object {
                    id: id.clone(),
                    name: Name::from(&how.value),
                    properties: names(&how.properties),
                    states: names(&how.states),
                    location: Some(Name::from(c)),
                    contents: Vec::new(),
                    contam: BTreeSet::new(),
                });
                if let Some(o) = self.state.get_mut(c) {
                    o.contents.push(id);
                }
            }
            P::CombineAs(c, pid, how) => {
                if let (Some(c), Some(pid)) = (arg(b, *c), arg(b, *pid)) {
                    self.combine(c, pid, how);
                }
            }
            P::GrateInto(x, t, how) => {
                let Some(x) = arg(b, *x) else { return };
                let prefix = format!("{}_{}", self.base(x), how.value);
                self.derive(x, how, true);
                let Some(t) = arg(b, *t) else { return };
                let Some(first) = self
                    .state
                    .created
                    .iter()
                    .find(|o| o.id.starts_with(&prefix))
                    .map(|o| o.id.clone())
                else {
                    return;
                };
                if let Some(o) = self.state.get_mut(t) {
                    o.contents.push(first.clone());
                }
                self.state.set_location(&first, Some(Name::from(t)));
            }
            _ => {}
        }
    }

    /// The primitives of cooking and contamination (semantics §6).
    fn apply_contamination(&mut self, primitive: &Primitive, b: &Binding) {
        use Primitive as P;
        match primitive {
            P::Cook(x) => self.cook(arg(b, *x)),
            P::Sterilise(v) => {
                let Some(items) = arg(b, *v).and_then(|v| self.state.get_mut(v)).map(|o| {
                    o.contam.clear();
                    o.contents.clone()
                }) else {
                    return;
                };
                for item in items {
                    self.cook(Some(&item));
                }
            }
            P::ClearContam(x) => self.clear_contam(arg(b, *x)),
            P::ClearHands => self.state.hands.clear(),
            P::ContaminateHands(x) => {
                if let Some(x) = arg(b, *x)
                    && self.is_source(Some(x))
                {
                    self.state.hands.insert(Name::from(x));
                }
            }
            P::SpreadFromHands(t) => {
                let Some(t) = arg(b, *t) else { return };
                if self.state.hands.is_empty() || self.state.hands.contains(t) {
                    return;
                }
                let hands = self.state.hands.clone();
                if let Some(o) = self.state.get_mut(t) {
                    o.contam.extend(hands);
                }
            }
            P::SpreadContam(from, to) => {
                if let (Some(from), Some(to)) = (arg(b, *from), arg(b, *to)) {
                    self.spread(from, to);
                }
            }
            P::MarkSource(x, carrier) => {
                let (Some(x), Some(carrier)) = (arg(b, *x), arg(b, *carrier)) else {
                    return;
                };
                if self.is_source(Some(x))
                    && let Some(o) = self.state.get_mut(carrier)
                {
                    o.contam.insert(Name::from(x));
                }
            }
            _ => {}
        }
    }
}
