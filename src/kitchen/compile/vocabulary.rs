//! The PDDL vocabulary the world yields: types, constants (properties, states, kinds, bare
//! places) and every predicate the compiled domain declares.

use super::ir::{self, Formula, Term};
use crate::ast::{AtomicSkeleton, Derived, Name, Structure, Type, Typed};
use crate::kitchen::data::model::is_of_kind;
use crate::kitchen::data::world::{Primitive, Test, World};
use std::collections::BTreeSet;

/// The type of objects, which are also places.
pub const OBJECT: &str = "obj";
/// The type of places: objects, and bare places such as `fridge` or `counter`.
pub const PLACE: &str = "place";
/// The type of the bare places, the places that are no object (`fridge`, `counter`): a
/// quantifier over them alone is a few values, not one per object.
pub const SITE: &str = "site";
pub const PROPERTY: &str = "property";
pub const STATUS: &str = "status";
/// The type of the kinds of derivatives and products (`k-chunks`).
pub const KIND: &str = "kind";

/// Audit flavour: `(in x c)`, `(in-2 x c)` … `(in-5 x c)` say that `x` is at least once,
/// twice … five times in the contents of `c` (Simmer's contents are lists). A sixth copy is
/// not counted; the dev plans reach four.
pub const IN_LEVELS: &[&str] = &["in", "in-2", "in-3", "in-4", "in-5"];

/// The PDDL constant of a property.
pub fn property(name: &str) -> Term {
    Term::Const(format!("p-{name}"))
}

/// The PDDL constant of a state.
pub fn status(name: &str) -> Term {
    Term::Const(format!("s-{name}"))
}

/// The constant naming a kind of derivative or product.
pub fn kind_constant(kind: &str) -> Term {
    Term::Const(format!("k-{kind}"))
}

/// The 0-ary predicate of an environment flag.
pub fn flag_predicate(flag: &str) -> String {
    format!("flag-{flag}")
}

/// A variable of type object, as quantifiers and parameters take it.
pub fn object_variable(name: &str) -> (String, String) {
    (name.to_string(), OBJECT.to_string())
}

/// The bare places the primitives write, as `world.toml` names them: where `remove_from` and
/// the creations without a place put an object (`counter`), where `dispose` does (`trash`).
pub fn literal_places(world: &World) -> [&str; 2] {
    let places = &world.config.places;
    [places.drop.as_str(), places.disposal.as_str()]
}

/// A test on an object's id, compiled to a static predicate of the object.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum IdTest {
    /// The id contains the text (`id-contains-oil`).
    Contains(String),
    /// The id starts with the text (`id-starts-with-water`).
    StartsWith(String),
}

impl IdTest {
    pub fn predicate(&self) -> String {
        match self {
            IdTest::Contains(text) => format!("id-contains-{text}"),
            IdTest::StartsWith(text) => format!("id-starts-with-{text}"),
        }
    }

    /// Whether the test holds of a Simmer id.
    pub fn holds_of(&self, id: &str) -> bool {
        match self {
            IdTest::Contains(text) => id.contains(text.as_str()),
            IdTest::StartsWith(text) => id.starts_with(text.as_str()),
        }
    }

    /// Whether the test holds, as strict mode reads it, of an object of the class: the class
    /// is the text or ends in `_text` (`olive_oil` is oil, `aluminum_foil` is not).
    pub fn holds_of_class(&self, class: &str) -> bool {
        let (IdTest::Contains(text) | IdTest::StartsWith(text)) = self;
        is_of_kind(class, text)
    }
}

/// The derived predicate of the objects that afford a use (`affords-brush`): by class (the
/// static `class-affords-brush`) or by a property.
pub fn affords_predicate(use_: &str) -> String {
    format!("affords-{use_}")
}

/// The static predicate of the objects whose class affords a use (`class-affords-brush`).
pub fn class_affords_predicate(use_: &str) -> String {
    format!("class-affords-{use_}")
}

/// The static predicate of the objects that may ever afford a use (`may-afford-food`): the
/// environment's objects that afford it, and every spare (whose properties a plan decides).
/// Preconditions test it beside the derived `affords-…`, so that the grounder drops the
/// others before instantiating.
pub fn may_afford_predicate(use_: &str) -> String {
    format!("may-afford-{use_}")
}

/// The derived predicate of the vessels holding something that affords a use
/// (`holds-coating`).
pub fn holds_affording_predicate(use_: &str) -> String {
    format!("holds-{use_}")
}

/// The derived nullary predicate: some object in the kitchen affords the use
/// (`kitchen-colander`).
pub fn kitchen_affords_predicate(use_: &str) -> String {
    format!("kitchen-{use_}")
}

/// The properties and states the world can mention: classes, actions and audits.
pub struct Vocabulary {
    pub properties: BTreeSet<String>,
    pub states: BTreeSet<String>,
    /// The texts tested against ids.
    pub id_tests: BTreeSet<IdTest>,
    /// The affordances strict checks name.
    pub affordances: BTreeSet<String>,
}

impl Vocabulary {
    pub fn of(world: &World) -> Vocabulary {
        let mut vocabulary = Vocabulary {
            properties: BTreeSet::new(),
            states: BTreeSet::new(),
            id_tests: BTreeSet::new(),
            affordances: BTreeSet::new(),
        };
        for class in world.classes().values() {
            vocabulary
                .properties
                .extend(class.properties.iter().cloned());
            vocabulary.states.extend(class.states.iter().cloned());
        }
        for action in world.actions.values() {
            for check in &action.checks {
                vocabulary.collect_test(&check.test);
            }
            for effect in &action.effects {
                if let Some(test) = &effect.condition {
                    vocabulary.collect_test(test);
                }
                vocabulary.collect_primitive(&effect.primitive);
            }
        }
        vocabulary.collect_config(world);
        for use_ in &vocabulary.affordances {
            if let Some(affordance) = world.config.affordances.get(use_) {
                vocabulary
                    .properties
                    .extend(affordance.properties.iter().cloned());
            }
        }
        // What the primitives and the compiler's own rules name.
        for state in [
            "dirty", "cooked", "raw", "served", "empty", "filled", "disposed",
        ] {
            vocabulary.states.insert(state.to_string());
        }
        for property in ["receptacle", "pourable", "protein", "surface", "heatsource"] {
            vocabulary.properties.insert(property.to_string());
        }
        vocabulary
    }

    fn collect_test(&mut self, test: &Test) {
        match test {
            Test::HasProperty(_, p) => {
                self.properties.insert(p.clone());
            }
            Test::HasAnyProperty(_, ps) => self.properties.extend(ps.iter().cloned()),
            Test::HasState(_, s) => {
                self.states.insert(s.clone());
            }
            Test::IdContains(_, text) | Test::ContentsIdContains(_, text) => {
                self.id_tests.insert(IdTest::Contains(text.clone()));
            }
            Test::IdStartsWith(_, text) => {
                self.id_tests.insert(IdTest::StartsWith(text.clone()));
            }
            Test::Any(tests) | Test::None(tests) => tests.iter().for_each(|t| self.collect_test(t)),
            Test::Affords(_, use_) | Test::ContentsAfford(_, use_) | Test::KitchenAffords(use_) => {
                self.affordances.insert(use_.clone());
            }
            _ => {}
        }
    }

    fn collect_primitive(&mut self, primitive: &Primitive) {
        use Primitive as P;
        match primitive {
            P::AddState(_, s) | P::RemoveState(_, s) => {
                self.states.insert(s.clone());
            }
            P::ReplaceState(_, from, to) => {
                self.states.insert(from.clone());
                self.states.insert(to.clone());
            }
            P::SetStates(_, states) => self.states.extend(states.iter().cloned()),
            P::Derive(_, creation)
            | P::Byproduct(_, creation)
            | P::Product(_, creation)
            | P::CombineAs(_, _, creation)
            | P::GrateInto(_, _, creation) => {
                self.properties.extend(creation.properties.iter().cloned());
                self.properties.extend(creation.inherit.iter().cloned());
                self.states.extend(creation.states.iter().cloned());
                if creation.states.is_empty() {
                    self.states.insert(creation.value.clone());
                }
            }
            _ => {}
        }
    }

    /// What the contamination rule and the audits name.
    fn collect_config(&mut self, world: &World) {
        let config = &world.config;
        let contamination = &config.contamination;
        self.properties
            .extend(contamination.source_properties.iter().cloned());
        self.states
            .extend(contamination.source_states.iter().cloned());
        for rule in &config.food_audit.skip {
            self.properties.extend(rule.any_property.iter().cloned());
            self.properties.extend(rule.no_property.iter().cloned());
            self.properties.extend(rule.only_properties.iter().cloned());
        }
        self.states
            .extend(config.food_audit.cooked_states.iter().cloned());
        for hazard in &config.appliance_audit.hazards {
            self.states.insert(hazard.state.clone());
        }
    }
}

/// Every kind of derivative or product the actions make.
pub fn kinds(world: &World) -> BTreeSet<String> {
    world
        .actions
        .values()
        .filter_map(|a| super::variants::derivative_kind(a).map(str::to_string))
        .collect()
}

/// A predicate declaration: its name and its typed parameters.
pub fn skeleton(name: &str, params: &[(&str, &str)]) -> AtomicSkeleton {
    AtomicSkeleton {
        name: ir::name(name),
        parameters: params
            .iter()
            .map(|(variable, ty)| Typed {
                item: ir::var(variable),
                ty: Some(Type::Name(ir::name(ty))),
            })
            .collect(),
        span: ir::span(),
    }
}

/// Names declared with one type, as constants or objects.
pub fn typed_names<S: AsRef<str>>(
    names: impl IntoIterator<Item = S>,
    ty: &str,
) -> Vec<Typed<Name>> {
    names
        .into_iter()
        .map(|n| Typed {
            item: ir::name(n.as_ref()),
            ty: Some(Type::Name(ir::name(ty))),
        })
        .collect()
}

/// The domain's types: objects are places; properties, states and kinds are constants.
pub fn types() -> Vec<Typed<Name>> {
    let typed = |name: &str, parent: Option<&str>| Typed {
        item: ir::name(name),
        ty: parent.map(|p| Type::Name(ir::name(p))),
    };
    vec![
        typed(OBJECT, Some(PLACE)),
        typed(SITE, Some(PLACE)),
        typed(PLACE, None),
        typed(PROPERTY, None),
        typed(STATUS, None),
        typed(KIND, None),
    ]
}

/// The domain's constants: every property and state, the literal places and the kinds.
pub fn constants(world: &World, vocabulary: &Vocabulary) -> Vec<Typed<Name>> {
    let mut constants = typed_names(
        vocabulary.properties.iter().map(|p| format!("p-{p}")),
        PROPERTY,
    );
    constants.extend(typed_names(
        vocabulary.states.iter().map(|s| format!("s-{s}")),
        STATUS,
    ));
    constants.extend(typed_names(literal_places(world), SITE));
    constants.extend(typed_names(
        kinds(world).iter().map(|k| format!("k-{k}")),
        KIND,
    ));
    constants
}

/// A derived predicate: its declaration and its body.
pub fn derived(name: &str, params: &[(&str, &str)], body: Formula) -> Structure {
    Structure::Derived(Derived {
        predicate: skeleton(name, params),
        body: ir::gd(&body),
        span: ir::span(),
    })
}

/// The derived predicate of the vessels holding something the id test holds of
/// (`holds-id-contains-oil`).
pub fn holds_id_predicate(test: &IdTest) -> String {
    format!("holds-{}", test.predicate())
}

/// The properties of what a dish is not made of: a tool or a vessel put into the container
/// (to free the hand). COMBINE's product never takes them (see `dish_of_food_rules`).
pub const NOT_IN_A_DISH: [&str; 3] = ["tool", "receptacle", "container"];

/// The PDDL action written for a step whose handler Simmer does not run (an unknown action, a
/// wrong number of arguments), or whose missing object has no PDDL name.
pub const UNEXPRESSIBLE: &str = "simmer-syntax-error";

/// The PDDL object standing for an id that a plan names and that never exists: `missing-lid_1`.
/// Simmer's ids have no `-`, so it names no real object.
pub fn phantom_name(id: &str) -> String {
    format!("missing-{id}")
}
