//! The serde types of our declarative kitchen world (`domains/kitchen/*.toml`), as written.
//!
//! These types mirror the files one to one; `world.rs` checks them and turns them into the
//! resolved form the engine runs. `build.rs` includes this file too: it reads the shipped TOML
//! into these types at build time and embeds them in binary form (`World::embedded`), so this
//! file depends on serde alone.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `actions.toml`: one table per action, keyed by the action's lower-case name.
pub type ActionsFile = BTreeMap<String, ActionDef>;

/// One action: its roles in Simmer's order, its checks in order, its effects in order.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ActionDef {
    /// What the action means, in a sentence (for `describe` and the PDDL compiler's comments).
    #[serde(default)]
    pub doc: String,
    /// Role names in Simmer's order; a trailing `?` marks an optional role.
    pub roles: Vec<String>,
    #[serde(default)]
    pub checks: Vec<CheckDef>,
    #[serde(default)]
    pub effects: Vec<EffectDef>,
    /// The family `detect_irreversible.py` puts the action in (cooking, cutting, mixing,
    /// transform, combine), when it is one of the transforming actions.
    #[serde(default)]
    pub transforms: Option<String>,
}

/// A test on the world: a name from the fixed vocabulary, its role arguments and its constants.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TestDef {
    pub test: String,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub value: Option<String>,
    #[serde(default)]
    pub values: Vec<String>,
    /// The alternatives of an `any` test.
    #[serde(default)]
    pub any: Vec<TestDef>,
}

/// A precondition: a test, the reason text recorded when it is false, and an optional guard.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CheckDef {
    pub test: String,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub value: Option<String>,
    #[serde(default)]
    pub values: Vec<String>,
    #[serde(default)]
    pub any: Vec<TestDef>,
    /// Evaluate the check only when this role is bound.
    #[serde(default)]
    pub when: Option<String>,
    /// Evaluate the check only when this role is unbound.
    #[serde(default)]
    pub unless: Option<String>,
    /// Recorded as `Precondition failed: <reason>`.
    pub reason: String,
    /// A rule of the cook's semantics: evaluated in strict mode (and compiled into the planning
    /// flavour) only; Simmer mode skips it.
    #[serde(default)]
    pub strict: bool,
}

impl CheckDef {
    pub fn as_test(&self) -> TestDef {
        TestDef {
            test: self.test.clone(),
            args: self.args.clone(),
            value: self.value.clone(),
            values: self.values.clone(),
            any: self.any.clone(),
        }
    }
}

/// An effect: a named primitive, its role arguments, its constants and an optional guard.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EffectDef {
    #[serde(rename = "do")]
    pub primitive: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// A state, a flag, a kind of derivative or a product name, depending on the primitive.
    #[serde(default)]
    pub value: Option<String>,
    /// `replace_state`: the state removed.
    #[serde(default)]
    pub from: Option<String>,
    /// `replace_state`: the state added.
    #[serde(default)]
    pub to: Option<String>,
    /// Properties a created object starts with.
    #[serde(default)]
    pub properties: Vec<String>,
    /// Properties a created object takes from its parent when the parent has them.
    #[serde(default)]
    pub inherit: Vec<String>,
    /// States a created object starts with, or the container states a COMBINE product takes.
    #[serde(default)]
    pub states: Vec<String>,
    /// Apply the effect only when this role is bound.
    #[serde(default)]
    pub when: Option<String>,
    /// Apply the effect only when this test holds.
    #[serde(default, rename = "if")]
    pub condition: Option<TestDef>,
    /// An effect of the cook's semantics (a departure from Simmer's world): applied in strict
    /// mode and compiled into the planning flavour only.
    #[serde(default)]
    pub strict: bool,
}

/// `world.toml`: everything that is not an action or a class.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WorldFile {
    pub roles: RolesDef,
    pub agent: AgentDef,
    pub places: PlacesDef,
    pub contamination: ContaminationDef,
    pub food_audit: FoodAuditDef,
    pub appliance_audit: ApplianceAuditDef,
    pub planning: PlanningDef,
    /// What tools, vessels and substances afford, for strict mode's checks (`affords`): by
    /// affordance name.
    #[serde(default)]
    pub affordances: BTreeMap<String, AffordanceDef>,
    /// The rules of Simmer's `detect_irreversible.py`, in order.
    #[serde(default)]
    pub irreversible: Vec<IrreversibleRuleDef>,
}

/// What affords one use: objects of these classes (the class named, or one ending in
/// `_<class>`), or with one of these properties.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AffordanceDef {
    /// What the affordance means, in a sentence.
    #[serde(default)]
    pub doc: String,
    #[serde(default)]
    pub classes: Vec<String>,
    #[serde(default)]
    pub properties: Vec<String>,
    /// A tool or vessel the planning flavour keeps among a goal's relevant objects when an
    /// action giving a goal state asks for it: every object with one of the properties, and
    /// the objects of the first listed class the kitchen has.
    #[serde(default)]
    pub keep: bool,
}

impl AffordanceDef {
    /// Whether an object of the class affords it by its class.
    pub fn fits_class(&self, class: &str) -> bool {
        self.classes.iter().any(|c| is_of_kind(class, c))
    }
}

/// Whether a class name is of a kind: the kind itself, or a name ending in `_kind`
/// (`olive_oil` is oil, `aluminum_foil` is not): how strict mode and the compiler read Simmer's
/// substring tests on names.
pub fn is_of_kind(class: &str, kind: &str) -> bool {
    class == kind
        || class
            .strip_suffix(kind)
            .is_some_and(|head| head.ends_with('_'))
}

/// One rule of the transforming-step detector (see `world.toml`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct IrreversibleRuleDef {
    pub family: String,
    pub category: String,
    pub roles: Vec<String>,
    pub states: Vec<String>,
    pub detail: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RolesDef {
    /// Roles that take a bare value (`<5_minutes>`): no existence and no duplicate check.
    pub value: Vec<String>,
    /// Roles that name something to create (`product_name`): no existence check.
    pub name: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AgentDef {
    /// Where the agent starts.
    pub location: String,
    /// The environment flags, all false at the start.
    pub flags: Vec<String>,
}

/// The bare places the primitives put objects in: names, not objects (an object `<name>_1`
/// stands for one when the task has it).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PlacesDef {
    /// Where `remove_from` puts what it takes out, and `byproduct` (or a `derive` whose parent
    /// is missing) what it makes: `counter`.
    pub drop: String,
    /// Where `dispose` puts an object: `trash`.
    pub disposal: String,
}

/// The PDDL compiler's planning flavour: which roles take which objects, and which objects
/// every task keeps (docs/kitchen.md, "The two flavours" and "Solvability").
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PlanningDef {
    /// Roles that take only objects with one of the properties: `tool = ["tool"]`.
    pub role_properties: BTreeMap<String, Vec<String>>,
    /// Roles that take only objects of the class named like the role, or of a class ending in
    /// `_<role>`, in the order their static predicates are declared.
    pub class_roles: Vec<String>,
    /// Roles whose object (a board, a tool, a vessel) must be clean when used, and
    /// uncontaminated unless the action sterilises it.
    pub clean_roles: Vec<String>,
    /// The class role of cutting boards: a board is kept, with the sharp tools, when the goal
    /// needs cutting; a kitchen without one cuts on a surface one cannot carry that is no heat
    /// source, which then takes this role.
    pub cutting_board: String,
    /// The class of the tap, kept in every task with the classes ending in `_<name>`.
    pub water_source: String,
    /// The class of the sink, kept in every task.
    pub sink: String,
    /// The class of the work surface, kept in every task.
    pub work_surface: String,
}

/// Which objects are sources of contamination: `is_source` of the semantics.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ContaminationDef {
    pub source_properties: Vec<String>,
    pub source_states: Vec<String>,
    pub source_names_excluded: Vec<String>,
}

/// One rule of the food audit's object filter: the object is skipped when every given part holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SkipRuleDef {
    /// Has at least one of these properties.
    #[serde(default)]
    pub any_property: Vec<String>,
    /// Has none of these properties.
    #[serde(default)]
    pub no_property: Vec<String>,
    /// Has only properties from this list (no properties at all counts).
    #[serde(default)]
    pub only_properties: Vec<String>,
    /// Lies in one of these places, also after trailing `_` and digits are removed.
    #[serde(default)]
    pub located_in: Vec<String>,
    /// Strict mode: the rule hides nothing from the contamination check, and hides an object
    /// from the unwashed check only while it is still where it started (nothing moved into a
    /// drawer escapes the audit).
    #[serde(default)]
    pub strict_unmoved: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FoodAuditDef {
    pub action: String,
    pub skip: Vec<SkipRuleDef>,
    /// States under which contamination no longer matters.
    pub cooked_states: Vec<String>,
    /// `{object}` and `{source}` are replaced by class names.
    pub contaminated: String,
    pub unwashed_raw: String,
    pub unwashed: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ApplianceAuditDef {
    pub action: String,
    pub hazards: Vec<HazardDef>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HazardDef {
    /// Class names flagged when left in `state`.
    pub names: Vec<String>,
    pub state: String,
    /// `{name}` is replaced by the class name.
    pub reason: String,
}

/// `classes.toml`: the object classes, keyed by class name.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ClassesFile {
    pub class: BTreeMap<String, ClassDef>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ClassDef {
    pub properties: Vec<String>,
    pub states: Vec<String>,
    pub location: String,
}
