//! Resolving the model's action tables as written (`model`) into the executor's and the
//! compiler's vocabulary (`world`): role names to indices, test and primitive names to their
//! variants, each error reported with the word to point at.

use super::model::{ActionDef, CheckDef, EffectDef, TestDef};
use super::world::{Action, Check, Creation, Effect, Primitive, Role, RoleSpec, Test};

/// The arity and constants each test name takes: (roles, needs `value`, needs `values`).
fn test_shape(name: &str) -> Option<(usize, bool, bool)> {
    Some(match name {
        "holding_nothing" => (0, false, false),
        "holds" | "has_contents" | "on_any_surface" | "has_liquid" | "in_any_container"
        | "recep_or_open" => (1, false, false),
        "has_property"
        | "has_state"
        | "id_contains"
        | "id_starts_with"
        | "contents_id_contains" => (1, true, false),
        "has_any_property" => (1, false, true),
        "contains" | "on_surface" | "on_heatsource" => (2, false, false),
        "flag" | "kitchen_affords" => (0, true, false),
        "affords" | "contents_afford" => (1, true, false),
        "any" | "none" => (0, false, false),
        _ => return None,
    })
}

/// The test names of the vocabulary, for messages.
pub const TESTS: &[&str] = &[
    "holding_nothing",
    "holds",
    "has_property",
    "has_any_property",
    "has_state",
    "id_contains",
    "id_starts_with",
    "contains",
    "has_contents",
    "contents_id_contains",
    "on_surface",
    "on_any_surface",
    "on_heatsource",
    "has_liquid",
    "in_any_container",
    "recep_or_open",
    "flag",
    "any",
    "none",
    "affords",
    "contents_afford",
    "kitchen_affords",
];

/// The primitive names of the vocabulary, for messages.
pub const PRIMITIVES: &[&str] = &[
    "add_state",
    "remove_state",
    "replace_state",
    "add_value_state",
    "set_states",
    "set_held",
    "release",
    "release_if_held",
    "set_agent_location",
    "set_flag",
    "clear_flag",
    "move_into",
    "place_on",
    "remove_from",
    "pour_into",
    "move_contents",
    "fill",
    "drain",
    "dispose",
    "cook",
    "sterilise",
    "clear_contam",
    "clear_hands",
    "derive",
    "byproduct",
    "product",
    "combine_as",
    "grate_into",
    "contaminate_hands",
    "spread_from_hands",
    "spread_contam",
    "mark_source",
];

/// Resolves the tables of one action against its role list, reporting errors into `errors`.
struct Resolver<'a> {
    action: &'a str,
    roles: &'a [RoleSpec],
    errors: Vec<ModelError>,
}

/// An error in the model's tables (an action table or the world configuration): the
/// message, the text to point at, and the fix. A `K401` diagnostic once located.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelError {
    pub message: String,
    /// A quoted word of the table to locate the error by (`"is_grabbable"`).
    pub at: Option<String>,
    pub help: Option<String>,
}

impl ModelError {
    pub(super) fn new(message: String) -> ModelError {
        ModelError {
            message,
            at: None,
            help: None,
        }
    }
}

impl Resolver<'_> {
    fn role(&mut self, name: &str) -> Role {
        match self.roles.iter().position(|r| r.name == name) {
            Some(i) => i,
            None => {
                let known: Vec<&str> = self.roles.iter().map(|r| r.name.as_str()).collect();
                self.errors.push(ModelError {
                    message: format!(
                        "action `{}` uses role `{name}`, which is not one of its roles",
                        self.action
                    ),
                    at: Some(format!("\"{name}\"")),
                    help: Some(format!("its roles are: {}", known.join(", "))),
                });
                0
            }
        }
    }

    fn args(&mut self, what: &str, args: &[String], count: usize) -> Vec<Role> {
        if args.len() != count {
            self.errors.push(ModelError::new(format!(
                "`{what}` in action `{}` takes {count} role argument(s), got {}",
                self.action,
                args.len()
            )));
        }
        let mut out: Vec<Role> = args.iter().map(|a| self.role(a)).collect();
        out.resize(count, 0);
        out
    }

    fn value(&mut self, what: &str, value: &Option<String>) -> String {
        match value {
            Some(v) => v.clone(),
            None => {
                self.errors.push(ModelError::new(format!(
                    "`{what}` in action `{}` needs a `value`",
                    self.action
                )));
                String::new()
            }
        }
    }

    fn test(&mut self, def: &TestDef, depth: usize) -> Test {
        let name = def.test.as_str();
        let Some((arity, needs_value, needs_values)) = test_shape(name) else {
            self.errors.push(ModelError {
                message: format!("unknown test `{name}` in action `{}`", self.action),
                at: Some(format!("\"{name}\"")),
                help: Some(format!("known tests: {}", TESTS.join(", "))),
            });
            return Test::HoldingNothing;
        };
        let roles = self.args(name, &def.args, arity);
        let value = if needs_value {
            self.value(name, &def.value)
        } else {
            String::new()
        };
        if needs_values && def.values.is_empty() {
            self.errors.push(ModelError::new(format!(
                "`{name}` in action `{}` needs `values`",
                self.action
            )));
        }
        match name {
            "holding_nothing" => Test::HoldingNothing,
            "holds" => Test::Holds(roles[0]),
            "has_property" => Test::HasProperty(roles[0], value),
            "has_any_property" => Test::HasAnyProperty(roles[0], def.values.clone()),
            "has_state" => Test::HasState(roles[0], value),
            "id_contains" => Test::IdContains(roles[0], value),
            "id_starts_with" => Test::IdStartsWith(roles[0], value),
            "contains" => Test::Contains(roles[0], roles[1]),
            "has_contents" => Test::HasContents(roles[0]),
            "contents_id_contains" => Test::ContentsIdContains(roles[0], value),
            "on_surface" => Test::OnSurface(roles[0], roles[1]),
            "on_any_surface" => Test::OnAnySurface(roles[0]),
            "on_heatsource" => Test::OnHeatsource(roles[0], roles[1]),
            "has_liquid" => Test::HasLiquid(roles[0]),
            "in_any_container" => Test::InAnyContainer(roles[0]),
            "recep_or_open" => Test::RecepOrOpen(roles[0]),
            "flag" => Test::Flag(value),
            "affords" => Test::Affords(roles[0], value),
            "contents_afford" => Test::ContentsAfford(roles[0], value),
            "kitchen_affords" => Test::KitchenAffords(value),
            _ => {
                if def.any.is_empty() {
                    self.errors.push(ModelError::new(format!(
                        "`{name}` in action `{}` needs alternatives in `any`",
                        self.action
                    )));
                }
                if depth > 8 {
                    self.errors.push(ModelError::new(format!(
                        "tests in action `{}` are nested too deeply",
                        self.action
                    )));
                    return Test::Any(Vec::new());
                }
                let tests = def.any.iter().map(|t| self.test(t, depth + 1)).collect();
                if name == "none" {
                    Test::None(tests)
                } else {
                    Test::Any(tests)
                }
            }
        }
    }

    fn guard(&mut self, role: &Option<String>) -> Option<Role> {
        role.as_ref().map(|r| self.role(r))
    }

    fn check(&mut self, def: &CheckDef) -> Check {
        Check {
            test: self.test(&def.as_test(), 0),
            when: self.guard(&def.when),
            unless: self.guard(&def.unless),
            reason: def.reason.clone(),
            strict: def.strict,
        }
    }

    fn effect(&mut self, def: &EffectDef) -> Effect {
        let name = def.primitive.as_str();
        let primitive = match name {
            "add_state" | "remove_state" | "replace_state" | "add_value_state" | "set_states"
            | "set_flag" | "clear_flag" => self.state_primitive(name, def),
            "set_held" | "release" | "release_if_held" | "set_agent_location" | "clear_hands" => {
                self.agent_primitive(name, def)
            }
            "derive" | "byproduct" | "product" | "combine_as" | "grate_into" => {
                self.creation_primitive(name, def)
            }
            _ => self.object_primitive(name, def),
        };
        Effect {
            primitive,
            when: self.guard(&def.when),
            condition: def.condition.as_ref().map(|t| self.test(t, 0)),
            strict: def.strict,
        }
    }

    /// The primitives on an object's states and the flags.
    fn state_primitive(&mut self, name: &str, def: &EffectDef) -> Primitive {
        match name {
            "add_state" | "remove_state" => {
                let r = self.args(name, &def.args, 1);
                let v = self.value(name, &def.value);
                if name == "add_state" {
                    Primitive::AddState(r[0], v)
                } else {
                    Primitive::RemoveState(r[0], v)
                }
            }
            "replace_state" => {
                let r = self.args(name, &def.args, 1);
                let from = self.value("replace_state` `from", &def.from);
                let to = self.value("replace_state` `to", &def.to);
                Primitive::ReplaceState(r[0], from, to)
            }
            "add_value_state" => {
                let r = self.args(name, &def.args, 2);
                Primitive::AddValueState(r[0], r[1], def.value.clone().unwrap_or_default())
            }
            "set_states" => {
                let r = self.args(name, &def.args, 1);
                Primitive::SetStates(r[0], def.states.clone())
            }
            "set_flag" | "clear_flag" => {
                self.args(name, &def.args, 0);
                let v = self.value(name, &def.value);
                if name == "set_flag" {
                    Primitive::SetFlag(v)
                } else {
                    Primitive::ClearFlag(v)
                }
            }
            _ => self.unknown_primitive(name),
        }
    }

    /// The primitives on the hand and the agent.
    fn agent_primitive(&mut self, name: &str, def: &EffectDef) -> Primitive {
        match name {
            "set_held" => Primitive::SetHeld(self.args(name, &def.args, 1)[0]),
            "release" => {
                self.args(name, &def.args, 0);
                Primitive::Release
            }
            "release_if_held" => Primitive::ReleaseIfHeld(self.args(name, &def.args, 1)[0]),
            "set_agent_location" => Primitive::SetAgentLocation(self.args(name, &def.args, 1)[0]),
            "clear_hands" => {
                self.args(name, &def.args, 0);
                Primitive::ClearHands
            }
            _ => self.unknown_primitive(name),
        }
    }

    /// The primitives on one or two objects: moves, cooking, contamination.
    fn object_primitive(&mut self, name: &str, def: &EffectDef) -> Primitive {
        match name {
            "move_into" | "place_on" | "remove_from" | "pour_into" | "move_contents" | "fill"
            | "spread_contam" | "mark_source" => {
                let r = self.args(name, &def.args, 2);
                match name {
                    "move_into" => Primitive::MoveInto(r[0], r[1]),
                    "place_on" => Primitive::PlaceOn(r[0], r[1]),
                    "remove_from" => Primitive::RemoveFrom(r[0], r[1]),
                    "pour_into" => Primitive::PourInto(r[0], r[1]),
                    "move_contents" => Primitive::MoveContents(r[0], r[1]),
                    "fill" => Primitive::Fill(r[0], r[1]),
                    "spread_contam" => Primitive::SpreadContam(r[0], r[1]),
                    _ => Primitive::MarkSource(r[0], r[1]),
                }
            }
            "drain" | "dispose" | "cook" | "sterilise" | "clear_contam" | "contaminate_hands"
            | "spread_from_hands" => {
                let r = self.args(name, &def.args, 1)[0];
                match name {
                    "drain" => Primitive::Drain(r),
                    "dispose" => Primitive::Dispose(r),
                    "cook" => Primitive::Cook(r),
                    "sterilise" => Primitive::Sterilise(r),
                    "clear_contam" => Primitive::ClearContam(r),
                    "contaminate_hands" => Primitive::ContaminateHands(r),
                    _ => Primitive::SpreadFromHands(r),
                }
            }
            _ => self.unknown_primitive(name),
        }
    }

    /// The primitives that create objects.
    fn creation_primitive(&mut self, name: &str, def: &EffectDef) -> Primitive {
        let creation = |value: String| Creation {
            value,
            properties: def.properties.clone(),
            inherit: def.inherit.clone(),
            states: def.states.clone(),
        };
        match name {
            "derive" | "byproduct" | "product" => {
                let r = self.args(name, &def.args, 1)[0];
                let v = self.value(name, &def.value);
                match name {
                    "derive" => Primitive::Derive(r, creation(v)),
                    "byproduct" => Primitive::Byproduct(r, creation(v)),
                    _ => Primitive::Product(r, creation(v)),
                }
            }
            "combine_as" => {
                let r = self.args(name, &def.args, 2);
                Primitive::CombineAs(r[0], r[1], creation(String::new()))
            }
            "grate_into" => {
                let r = self.args(name, &def.args, 2);
                let v = self.value(name, &def.value);
                Primitive::GrateInto(r[0], r[1], creation(v))
            }
            _ => self.unknown_primitive(name),
        }
    }

    /// A primitive the model does not know, reported (a `release` stands in for it).
    fn unknown_primitive(&mut self, name: &str) -> Primitive {
        self.errors.push(ModelError {
            message: format!(
                "unknown effect primitive `{name}` in action `{}`",
                self.action
            ),
            at: Some(format!("\"{name}\"")),
            help: Some(format!("known primitives: {}", PRIMITIVES.join(", "))),
        });
        Primitive::Release
    }
}

/// Splits `object?` into its name and optional mark.
pub fn role_spec(text: &str) -> RoleSpec {
    match text.strip_suffix('?') {
        Some(name) => RoleSpec {
            name: name.to_string(),
            optional: true,
        },
        None => RoleSpec {
            name: text.to_string(),
            optional: false,
        },
    }
}

/// Resolves one action table; the error texts say what is wrong.
pub fn resolve_action(name: &str, def: &ActionDef) -> Result<Action, Vec<ModelError>> {
    let roles: Vec<RoleSpec> = def.roles.iter().map(|r| role_spec(r)).collect();
    let mut resolver = Resolver {
        action: name,
        roles: &roles,
        errors: Vec::new(),
    };
    for (i, role) in roles.iter().enumerate() {
        if role.name.is_empty() || roles[..i].iter().any(|r| r.name == role.name) {
            resolver.errors.push(ModelError::new(format!(
                "action `{name}` has an empty or repeated role `{}`",
                role.name
            )));
        }
    }
    let checks: Vec<Check> = def.checks.iter().map(|c| resolver.check(c)).collect();
    let effects: Vec<Effect> = def.effects.iter().map(|e| resolver.effect(e)).collect();
    if !resolver.errors.is_empty() {
        return Err(resolver.errors);
    }
    Ok(Action {
        name: name.to_string(),
        doc: def.doc.clone(),
        roles,
        checks,
        effects,
        transforms: def.transforms.clone(),
        handled: true,
    })
}
