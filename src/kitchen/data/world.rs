//! The resolved kitchen world: our TOML files (or Simmer's JSON roles with our behaviour)
//! checked and turned into tests and primitives over role indexes, ready for the engine.

use super::model::{ActionsFile, ClassDef, ClassesFile, TestDef, WorldFile};
use super::resolve::{ModelError, resolve_action, role_spec};
use crate::ast::Span;
use crate::diagnostics::{Code, Diagnostic, FileId};
use std::collections::{BTreeMap, BTreeSet};

/// The embedded world files, in `FileId` order: actions, world, classes.
pub const ACTIONS_TOML: &str = include_str!("../../../domains/kitchen/actions.toml");
pub const WORLD_TOML: &str = include_str!("../../../domains/kitchen/world.toml");
pub const CLASSES_TOML: &str = include_str!("../../../domains/kitchen/classes.toml");

/// The actions and `world.toml` in binary form (postcard), written by build.rs.
const EMBEDDED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/kitchen_world.postcard"));
/// `classes.toml` in binary form, written by build.rs.
const EMBEDDED_CLASSES: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/kitchen_classes.postcard"));

/// An index into an action's role list.
pub type Role = usize;

/// A test of the fixed vocabulary (semantics §4 and plain property, state and holding tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Test {
    /// The agent holds nothing.
    HoldingNothing,
    /// The agent holds the role's id (both may be none).
    Holds(Role),
    HasProperty(Role, String),
    HasAnyProperty(Role, Vec<String>),
    HasState(Role, String),
    IdContains(Role, String),
    IdStartsWith(Role, String),
    /// The second role's id is in the first role's contents.
    Contains(Role, Role),
    HasContents(Role),
    /// Some id in the role's contents contains the text.
    ContentsIdContains(Role, String),
    /// The object's location is exactly the second role's id.
    OnSurface(Role, Role),
    OnAnySurface(Role),
    /// The object stands on (or in) something with property `heatsource`; in strict mode, on
    /// the second role's object.
    OnHeatsource(Role, Role),
    HasLiquid(Role),
    InAnyContainer(Role),
    RecepOrOpen(Role),
    /// An environment flag is set.
    Flag(String),
    Any(Vec<Test>),
    /// None of the tests holds.
    None(Vec<Test>),
    /// The object exists and affords the use (`world.toml`'s `[affordances]`).
    Affords(Role, String),
    /// Something in the role's contents affords the use.
    ContentsAfford(Role, String),
    /// Some object in the kitchen affords the use (a colander to drain into).
    KitchenAffords(String),
}

/// A precondition, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub test: Test,
    pub when: Option<Role>,
    pub unless: Option<Role>,
    pub reason: String,
    /// Evaluated in strict mode only (the cook's semantics).
    pub strict: bool,
}

/// What a created object is made of.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Creation {
    /// The kind suffix of a derivative, or the product name.
    pub value: String,
    pub properties: Vec<String>,
    pub inherit: Vec<String>,
    pub states: Vec<String>,
}

/// An effect primitive of semantics §5 and §6, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Primitive {
    AddState(Role, String),
    RemoveState(Role, String),
    ReplaceState(Role, String, String),
    /// Adds `<prefix><value of the second role>`.
    AddValueState(Role, Role, String),
    /// Replaces every state of the object by the one given.
    SetStates(Role, Vec<String>),
    SetHeld(Role),
    Release,
    ReleaseIfHeld(Role),
    SetAgentLocation(Role),
    SetFlag(String),
    ClearFlag(String),
    MoveInto(Role, Role),
    PlaceOn(Role, Role),
    RemoveFrom(Role, Role),
    PourInto(Role, Role),
    MoveContents(Role, Role),
    Fill(Role, Role),
    Drain(Role),
    Dispose(Role),
    Cook(Role),
    Sterilise(Role),
    ClearContam(Role),
    ClearHands,
    Derive(Role, Creation),
    Byproduct(Role, Creation),
    Product(Role, Creation),
    CombineAs(Role, Role, Creation),
    GrateInto(Role, Role, Creation),
    ContaminateHands(Role),
    SpreadFromHands(Role),
    SpreadContam(Role, Role),
    MarkSource(Role, Role),
}

/// The four families of primitives, which the engine and the compiler each handle in one
/// place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrimitiveFamily {
    /// An object's states, the hand, the agent's place and the flags.
    State,
    /// Moving objects and contents.
    Placement,
    /// Cooking and contamination.
    Contamination,
    /// Creating objects.
    Creation,
}

impl Primitive {
    pub fn family(&self) -> PrimitiveFamily {
        use Primitive as P;
        match self {
            P::AddState(..)
            | P::RemoveState(..)
            | P::ReplaceState(..)
            | P::AddValueState(..)
            | P::SetAgentLocation(_)
            | P::SetStates(..)
            | P::SetHeld(_)
            | P::Release
            | P::ReleaseIfHeld(_)
            | P::SetFlag(_)
            | P::ClearFlag(_) => PrimitiveFamily::State,
            P::MoveInto(..)
            | P::PlaceOn(..)
            | P::RemoveFrom(..)
            | P::PourInto(..)
            | P::MoveContents(..)
            | P::Fill(..)
            | P::Drain(_)
            | P::Dispose(_) => PrimitiveFamily::Placement,
            P::Cook(_)
            | P::Sterilise(_)
            | P::ClearContam(_)
            | P::ClearHands
            | P::ContaminateHands(_)
            | P::SpreadFromHands(_)
            | P::SpreadContam(..)
            | P::MarkSource(..) => PrimitiveFamily::Contamination,
            P::Derive(..)
            | P::Byproduct(..)
            | P::Product(..)
            | P::CombineAs(..)
            | P::GrateInto(..) => PrimitiveFamily::Creation,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effect {
    pub primitive: Primitive,
    pub when: Option<Role>,
    pub condition: Option<Test>,
    /// Applied in strict mode only (a departure from Simmer's world).
    pub strict: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoleSpec {
    pub name: String,
    pub optional: bool,
}

/// One action, resolved. `handled` is false for an action whose roles come from Simmer's
/// `action_def.json` but for which our model has no behaviour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub name: String,
    pub doc: String,
    pub roles: Vec<RoleSpec>,
    pub checks: Vec<Check>,
    pub effects: Vec<Effect>,
    pub transforms: Option<String>,
    pub handled: bool,
}

impl Action {
    pub fn required(&self) -> usize {
        self.roles.iter().filter(|r| !r.optional).count()
    }

    /// The roles whose objects the action's effects mark `served`.
    pub fn served_roles(&self) -> Vec<Role> {
        self.effects
            .iter()
            .filter_map(|e| match &e.primitive {
                Primitive::AddState(x, s) if s == "served" => Some(*x),
                _ => None,
            })
            .collect()
    }
}

/// The object classes of a world, decoded from the embedded bytes when first asked for:
/// running plans never reads them (the task environment copies what it needs), so a
/// `kitchen run` does not pay for them.
#[derive(Clone, Debug)]
pub struct Classes {
    embedded: &'static [u8],
    decoded: std::sync::OnceLock<BTreeMap<String, ClassDef>>,
}

impl Classes {
    fn decoded(classes: BTreeMap<String, ClassDef>) -> Classes {
        Classes {
            embedded: &[],
            decoded: std::sync::OnceLock::from(classes),
        }
    }

    /// The classes by name.
    pub fn get(&self) -> &BTreeMap<String, ClassDef> {
        self.decoded.get_or_init(|| {
            // Invariant: build.rs wrote these bytes with the same type (tests/kitchen.rs).
            postcard::from_bytes::<ClassesFile>(self.embedded)
                .map(|file| file.class)
                .unwrap_or_default()
        })
    }
}

impl PartialEq for Classes {
    fn eq(&self, other: &Classes) -> bool {
        self.get() == other.get()
    }
}

impl Eq for Classes {}

/// The kitchen world: actions, object classes and the rest of the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct World {
    pub actions: BTreeMap<String, Action>,
    classes: Classes,
    pub config: WorldFile,
    /// The action tables as written, kept to re-resolve them against other role lists.
    pub defs: ActionsFile,
}

/// The byte span of the first `needle` at or after `from`, or an empty span at `from`.
fn find(text: &str, needle: &str, from: usize) -> Span {
    let from = from.min(text.len());
    match text.get(from..).and_then(|rest| rest.find(needle)) {
        Some(i) => Span::new(from + i, from + i + needle.len()),
        None => Span::new(0, 0),
    }
}

/// A TOML parse or schema error as a diagnostic located where the parser stopped.
pub(crate) fn toml_error(code: Code, error: &toml::de::Error, file: FileId) -> Diagnostic {
    let message = error.message().trim().to_string();
    match error.span() {
        Some(range) => {
            Diagnostic::new(code, message, Span::new(range.start, range.end)).in_file(file)
        }
        None => Diagnostic::unlocated(code, message),
    }
}

/// The errors of `world.toml`'s `[places]` and `[planning]` that the file's syntax does not
/// rule out, each with the header of its table: a role no action has, a class `classes.toml`
/// does not define, a property no class has, an empty place name, and a cutting-board role that
/// is not a class role.
fn config_errors(
    config: &WorldFile,
    defs: &ActionsFile,
    classes: &ClassesFile,
) -> Vec<(&'static str, ModelError)> {
    let mut out = Vec::new();
    let at = |word: &str, message: String, help: &str| ModelError {
        message,
        at: Some(format!("\"{word}\"")),
        help: Some(help.to_string()),
    };
    let places = &config.places;
    for (key, place) in [("drop", &places.drop), ("disposal", &places.disposal)] {
        if place.is_empty() {
            out.push((
                "[places]",
                ModelError::new(format!("`places.{key}` names no place")),
            ));
        }
    }
    let planning = &config.planning;
    let roles: BTreeSet<String> = defs
        .values()
        .flat_map(|def| def.roles.iter().map(|r| role_spec(r).name))
        .collect();
    let named_roles = planning
        .role_properties
        .keys()
        .chain(&planning.class_roles)
        .chain(&planning.clean_roles);
    for role in named_roles {
        if !roles.contains(role) {
            let message = format!("`planning` names role `{role}`, which no action has");
            out.push((
                "[planning]",
                at(role, message, "name a role of actions.toml"),
            ));
        }
    }
    let named_classes = planning.class_roles.iter().chain([
        &planning.water_source,
        &planning.sink,
        &planning.work_surface,
    ]);
    for class in named_classes {
        if !classes.class.contains_key(class) {
            let message = format!("`planning` names class `{class}`, which is not defined");
            out.push((
                "[planning]",
                at(class, message, "name a class of classes.toml"),
            ));
        }
    }
    let properties: BTreeSet<&String> =
        classes.class.values().flat_map(|c| &c.properties).collect();
    for property in planning.role_properties.values().flatten() {
        if !properties.contains(property) {
            let message = format!("`planning` names property `{property}`, which no class has");
            out.push((
                "[planning]",
                at(property, message, "name a property of classes.toml"),
            ));
        }
    }
    for name in affordances_named(defs) {
        if !config.affordances.contains_key(name) {
            let message = format!("a strict check names affordance `{name}`, which is not defined");
            out.push((
                "[affordances]",
                at(name, message, "define it in world.toml's `[affordances]`"),
            ));
        }
    }
    for (name, affordance) in &config.affordances {
        for class in &affordance.classes {
            if !classes.class.keys().any(|c| affordance.fits_class(c)) {
                let message =
                    format!("affordance `{name}` names class `{class}`, which no class fits");
                out.push((
                    "[affordances]",
                    at(class, message, "name a class of classes.toml"),
                ));
            }
        }
    }
    if !planning.class_roles.contains(&planning.cutting_board) {
        let board = &planning.cutting_board;
        let message =
            format!("`planning.cutting_board` names `{board}`, which is not a class role");
        out.push((
            "[planning]",
            at(board, message, "list it in `planning.class_roles`"),
        ));
    }
    out
}

/// The affordances the actions' tests name, sorted.
fn affordances_named(defs: &ActionsFile) -> BTreeSet<&str> {
    fn walk<'a>(test: &'a TestDef, out: &mut BTreeSet<&'a str>) {
        if matches!(
            test.test.as_str(),
            "affords" | "contents_afford" | "kitchen_affords"
        ) && let Some(value) = &test.value
        {
            out.insert(value);
        }
        for alternative in &test.any {
            walk(alternative, out);
        }
    }
    let mut out = BTreeSet::new();
    for def in defs.values() {
        for check in &def.checks {
            if matches!(
                check.test.as_str(),
                "affords" | "contents_afford" | "kitchen_affords"
            ) && let Some(value) = &check.value
            {
                out.insert(value.as_str());
            }
            for alternative in &check.any {
                walk(alternative, &mut out);
            }
        }
    }
    out
}

/// The span of an action's table header (`[name]`) or of its key in a JSON object.
fn action_span(text: &str, name: &str, json: bool) -> Span {
    let needle = if json {
        format!("\"{name}\"")
    } else {
        format!("[{name}]")
    };
    find(text, &needle, 0)
}

fn located(code: Code, message: String, span: Span, file: FileId) -> Diagnostic {
    if span.is_empty() {
        Diagnostic::unlocated(code, message)
    } else {
        Diagnostic::new(code, message, span).in_file(file)
    }
}

/// An error in the model's tables as a diagnostic, at its word if found after the table's start.
fn model_error_diagnostic(text: &str, table: Span, error: ModelError, file: FileId) -> Diagnostic {
    let span = error
        .at
        .as_deref()
        .map(|needle| find(text, needle, table.start))
        .filter(|s| !s.is_empty() && !table.is_empty())
        .unwrap_or(table);
    let mut d = located(Code::KitchenWorldInvalid, error.message, span, file);
    if let Some(help) = error.help {
        d = d.with_help(help);
    }
    d
}

impl World {
    /// The world shipped in `domains/kitchen/`, compiled into the binary: build.rs reads the
    /// TOML files at build time and embeds them in binary form, so nothing is parsed here.
    pub fn embedded() -> World {
        // Invariant: build.rs wrote the bytes from domains/kitchen/ with these very types, and
        // tests/kitchen.rs checks that they give the world `from_toml` gives, so they cannot
        // fail to load at run time.
        let (defs, config): (ActionsFile, WorldFile) =
            postcard::from_bytes(EMBEDDED).expect("the embedded kitchen world is valid (tested)");
        let actions = defs
            .iter()
            .map(|(name, def)| {
                // Invariant: as above, the embedded actions resolve (tested).
                let action = resolve_action(name, def)
                    .expect("the embedded kitchen world is valid (tested)");
                (name.clone(), action)
            })
            .collect();
        World {
            actions,
            classes: Classes {
                embedded: EMBEDDED_CLASSES,
                decoded: std::sync::OnceLock::new(),
            },
            config,
            defs,
        }
    }

    /// Our format: `actions.toml` (FileId 0), `world.toml` (1) and `classes.toml` (2).
    pub fn from_toml(actions: &str, world: &str, classes: &str) -> Result<World, Vec<Diagnostic>> {
        let code = Code::KitchenWorldInvalid;
        let mut errors = Vec::new();
        let defs: Option<ActionsFile> = toml::from_str(actions)
            .map_err(|e| errors.push(toml_error(code, &e, FileId(0))))
            .ok();
        let config: Option<WorldFile> = toml::from_str(world)
            .map_err(|e| errors.push(toml_error(code, &e, FileId(1))))
            .ok();
        let classes: Option<ClassesFile> = toml::from_str(classes)
            .map_err(|e| errors.push(toml_error(code, &e, FileId(2))))
            .ok();
        let (Some(defs), Some(config), Some(classes)) = (defs, config, classes) else {
            return Err(errors);
        };
        let mut resolved = BTreeMap::new();
        for (name, def) in &defs {
            match resolve_action(name, def) {
                Ok(action) => {
                    resolved.insert(name.clone(), action);
                }
                Err(errors_found) => {
                    let span = action_span(actions, name, false);
                    errors.extend(
                        errors_found
                            .into_iter()
                            .map(|p| model_error_diagnostic(actions, span, p, FileId(0))),
                    );
                }
            }
        }
        for (table, error) in config_errors(&config, &defs, &classes) {
            let span = find(world, table, 0);
            errors.push(model_error_diagnostic(world, span, error, FileId(1)));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(World {
            actions: resolved,
            classes: Classes::decoded(classes.class),
            config,
            defs,
        })
    }

    /// Simmer's own files: the role lists of `action_def.json` (FileId 0) and, when given, the
    /// classes of `object_def.json` (FileId 1). The behaviour of each action (Simmer's handler)
    /// comes from `behaviour`, matched by action name; Simmer never reads anything else from
    /// `action_def.json`.
    pub fn from_simmer(
        action_def: &str,
        object_def: Option<&str>,
        behaviour: &World,
    ) -> Result<World, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let roles = super::simmer::action_roles(action_def).map_err(|e| errors.extend(e));
        let classes = match object_def {
            Some(text) => super::simmer::object_classes(text)
                .map_err(|e| errors.extend(e))
                .ok(),
            None => Some(behaviour.classes().clone()),
        };
        let (Ok(roles), Some(classes)) = (roles, classes) else {
            return Err(errors);
        };
        let mut actions = BTreeMap::new();
        let mut defs = ActionsFile::new();
        for (name, role_list) in roles {
            let action = match behaviour.defs.get(&name) {
                Some(def) => {
                    let mut def = def.clone();
                    def.roles = role_list;
                    match resolve_action(&name, &def) {
                        Ok(action) => {
                            defs.insert(name.clone(), def);
                            action
                        }
                        Err(errors_found) => {
                            let span = action_span(action_def, &name, true);
                            errors.extend(errors_found.into_iter().map(|mut p| {
                                // Simmer's file has only the roles: point at the action.
                                p.at = None;
                                model_error_diagnostic(action_def, span, p, FileId(0))
                            }));
                            continue;
                        }
                    }
                }
                None => Action {
                    name: name.clone(),
                    doc: String::new(),
                    roles: role_list.iter().map(|r| role_spec(r)).collect(),
                    checks: Vec::new(),
                    effects: Vec::new(),
                    transforms: None,
                    handled: false,
                },
            };
            actions.insert(name, action);
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(World {
            actions,
            classes: Classes::decoded(classes),
            config: behaviour.config.clone(),
            defs,
        })
    }

    /// The object classes by name (`classes.toml`, or Simmer's `object_def.json`).
    pub fn classes(&self) -> &BTreeMap<String, ClassDef> {
        self.classes.get()
    }

    pub fn action(&self, name: &str) -> Option<&Action> {
        self.actions.get(name)
    }

    pub fn is_value_role(&self, role: &str) -> bool {
        self.config.roles.value.iter().any(|r| r == role)
    }

    pub fn is_name_role(&self, role: &str) -> bool {
        self.config.roles.name.iter().any(|r| r == role)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_with(world_toml: &str) -> Result<World, Vec<Diagnostic>> {
        World::from_toml(ACTIONS_TOML, world_toml, CLASSES_TOML)
    }

    fn messages(result: Result<World, Vec<Diagnostic>>) -> Vec<String> {
        result
            .err()
            .unwrap_or_default()
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    #[test]
    fn the_compiler_reads_its_classes_and_places_from_world_toml() {
        let world = World::embedded();
        let planning = &world.config.planning;
        assert_eq!(planning.water_source, "water");
        assert_eq!(planning.cutting_board, "cutting_board");
        assert_eq!(world.config.places.drop, "counter");
        assert_eq!(world.config.places.disposal, "trash");
    }

    #[test]
    fn planning_names_only_roles_classes_and_properties_the_world_has() {
        let unknown_role = WORLD_TOML.replace(
            "clean_roles = [\"cutting_board\",",
            "clean_roles = [\"chopping_block\", \"cutting_board\",",
        );
        let found = messages(load_with(&unknown_role));
        assert!(
            found.iter().any(|m| m.contains("role `chopping_block`")),
            "{found:?}"
        );
        let unknown_class = WORLD_TOML.replace("sink = \"sink\"", "sink = \"basin\"");
        let found = messages(load_with(&unknown_class));
        assert!(
            found.iter().any(|m| m.contains("class `basin`")),
            "{found:?}"
        );
        let unknown_property = WORLD_TOML.replace("tool = [\"tool\"]", "tool = [\"tools\"]");
        let found = messages(load_with(&unknown_property));
        assert!(
            found.iter().any(|m| m.contains("property `tools`")),
            "{found:?}"
        );
        let board_not_a_class_role = WORLD_TOML.replace(
            "cutting_board = \"cutting_board\"",
            "cutting_board = \"pot_holder\"",
        );
        let found = messages(load_with(&board_not_a_class_role));
        assert!(
            found.iter().any(|m| m.contains("not a class role")),
            "{found:?}"
        );
        let no_places = WORLD_TOML.replace("drop = \"counter\"", "drop = \"\"");
        let found = messages(load_with(&no_places));
        assert!(
            found.iter().any(|m| m.contains("`places.drop`")),
            "{found:?}"
        );
    }

    #[test]
    fn a_world_without_the_planning_table_does_not_load() {
        let start = WORLD_TOML.find("[planning]").expect("the planning table");
        let end = WORLD_TOML
            .find("[[irreversible]]")
            .expect("the irreversible rules");
        let without = format!("{}{}", &WORLD_TOML[..start], &WORLD_TOML[end..]);
        let found = messages(load_with(&without));
        assert!(found.iter().any(|m| m.contains("planning")), "{found:?}");
    }
}
