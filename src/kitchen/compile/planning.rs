//! The planning flavour's tightenings: preconditions that close the executor's gaps (each
//! listed and explained in docs/kitchen.md), role filters, and the derived predicates they use.

use super::action::ActionLowering;
use super::audit::syntax_preconditions;
use super::ir::{Formula, Term, and, atom, exists, not, or};
use super::variants::derivative_kind;
use super::vocabulary::{
    NOT_IN_A_DISH, OBJECT, STATUS, Vocabulary, affords_predicate, class_affords_predicate, derived,
    holds_affording_predicate, holds_id_predicate, kind_constant, kitchen_affords_predicate,
    object_variable, property, skeleton, status,
};
use crate::ast::{AtomicSkeleton, Structure};
use crate::kitchen::data::world::{Action, Primitive, Role, World};
use std::collections::BTreeSet;

/// The class-filtered roles (`world.toml`'s `planning.class_roles`), in order. Roles take objects
/// by their names: an object with a property (`tool`), or an object of a class, its id's class
/// being the name or ending in `_name` (`cutting_board`, `steamer`). Simmer only checks some of
/// these (or none: STEAM's steamer and pot are only tested for containment), which leaves a
/// grounder every object for every role. Roles not listed (`object`, `target`, `source`,
/// `appliance` …) take any object.
pub fn class_roles(world: &World) -> impl Iterator<Item = &str> {
    world.config.planning.class_roles.iter().map(String::as_str)
}

/// The static predicate of a class-filtered role.
pub fn class_predicate(role: &str) -> String {
    format!("class-{role}")
}

/// The predicates only the planning flavour declares.
pub fn predicates(world: &World) -> Vec<AtomicSkeleton> {
    let mut predicates = vec![
        skeleton("may-source", &[("o", OBJECT)]),
        skeleton("has-contents", &[("c", OBJECT)]),
        skeleton("enclosed", &[("o", OBJECT)]),
        skeleton("combined", &[("o", OBJECT)]),
        skeleton("dish", &[("o", OBJECT)]),
        skeleton("dish-in", &[("o", OBJECT), ("c", OBJECT)]),
        skeleton("part-of", &[("i", OBJECT), ("p", OBJECT)]),
        skeleton("own-state", &[("s", STATUS)]),
        skeleton("to-serve", &[("o", OBJECT)]),
    ];
    for role in class_roles(world) {
        predicates.push(skeleton(&class_predicate(role), &[("o", OBJECT)]));
    }
    predicates
}

/// The planning flavour's derived predicates: `has-contents`, `combined`, `enclosed`.
pub fn derived_predicates() -> Vec<Structure> {
    vec![
        derived(
            "has-contents",
            &[("c", OBJECT)],
            exists(
                vec![object_variable("i")],
                atom("in", vec![Term::var("i"), Term::var("c")]),
            ),
        ),
        derived(
            "combined",
            &[("o", OBJECT)],
            exists(
                vec![object_variable("p")],
                atom("part-of", vec![Term::var("o"), Term::var("p")]),
            ),
        ),
        derived(
            "enclosed",
            &[("o", OBJECT)],
            exists(
                vec![object_variable("c")],
                and(vec![
                    atom("in", vec![Term::var("o"), Term::var("c")]),
                    atom("is", vec![Term::var("c"), status("closed")]),
                ]),
            ),
        ),
    ]
}

/// The planning flavour's derived predicates of contents: `(has-liquid ?v)` (§4's has_liquid)
/// and `(holds-id-contains-oil ?c)` per id test.
pub fn contents_predicates(vocabulary: &Vocabulary) -> (Vec<AtomicSkeleton>, Vec<Structure>) {
    let v = Term::var("v");
    let i = Term::var("i");
    let mut skeletons = vec![skeleton("has-liquid", &[("v", OBJECT)])];
    let mut structures = vec![derived(
        "has-liquid",
        &[("v", OBJECT)],
        or(vec![
            exists(
                vec![object_variable("i")],
                and(vec![
                    atom("in", vec![i.clone(), v.clone()]),
                    or(vec![
                        atom("has", vec![i.clone(), property("pourable")]),
                        atom("has", vec![i.clone(), property("fillable_source")]),
                    ]),
                ]),
            ),
            atom("is", vec![v.clone(), status("filled")]),
        ]),
    )];
    for test in &vocabulary.id_tests {
        let name = holds_id_predicate(test);
        skeletons.push(skeleton(&name, &[("v", OBJECT)]));
        structures.push(derived(
            &name,
            &[("v", OBJECT)],
            exists(
                vec![object_variable("i")],
                and(vec![
                    atom("in", vec![i.clone(), v.clone()]),
                    atom(&test.predicate(), std::slice::from_ref(&i)),
                ]),
            ),
        ));
    }
    (skeletons, structures)
}

/// The derived predicates of the affordances strict checks name: `(affords-USE ?o)` by class
/// or property, `(holds-USE ?c)` for a vessel holding such a thing, `(kitchen-USE)` when some
/// object in the kitchen affords it.
pub fn affordance_predicates(world: &World, vocabulary: &Vocabulary) -> Vec<Structure> {
    let mut out = Vec::new();
    for use_ in &vocabulary.affordances {
        let o = Term::var("o");
        let mut by = vec![atom(
            &class_affords_predicate(use_),
            std::slice::from_ref(&o),
        )];
        if let Some(affordance) = world.config.affordances.get(use_) {
            by.extend(
                affordance
                    .properties
                    .iter()
                    .map(|p| atom("has", vec![o.clone(), property(p)])),
            );
        }
        out.push(derived(&affords_predicate(use_), &[("o", OBJECT)], or(by)));
        out.push(derived(
            &holds_affording_predicate(use_),
            &[("c", OBJECT)],
            exists(
                vec![object_variable("i")],
                and(vec![
                    atom("in", vec![Term::var("i"), Term::var("c")]),
                    atom("present", vec![Term::var("i")]),
                    atom(&affords_predicate(use_), &[Term::var("i")]),
                ]),
            ),
        ));
        out.push(derived(
            &kitchen_affords_predicate(use_),
            &[],
            exists(
                vec![object_variable("k")],
                and(vec![
                    atom("present", vec![Term::var("k")]),
                    atom(&affords_predicate(use_), &[Term::var("k")]),
                ]),
            ),
        ));
    }
    out
}

/// Whether a precondition asks the hand to hold two things, which it never does: every write
/// of `held` releases the hand first (as strict mode's state holds one object at most), no
/// task starts with anything held, and the syntax check keeps two roles apart. PRESS into a
/// target is one such action (it holds its tool, and what is pressed into something must be
/// held too, rule 9): the planning flavour leaves it out rather than have the grounder try
/// every object, tool and target for it.
pub fn holds_two(precondition: &[Formula]) -> bool {
    fn held<'f>(formula: &'f Formula, out: &mut BTreeSet<&'f Term>) {
        match formula {
            Formula::Atom(predicate, args) if predicate == "held" => out.extend(args.first()),
            Formula::And(parts) => parts.iter().for_each(|part| held(part, out)),
            _ => {}
        }
    }
    let mut terms = BTreeSet::new();
    precondition.iter().for_each(|f| held(f, &mut terms));
    terms.len() > 1
}

/// Planning flavour: `(exists (?i) (in ?i c))` in a precondition becomes the derived
/// `(has-contents c)`. Fast Downward grounds an existential precondition as one more parameter,
/// which made one copy of SQUEEZE (and its conditional effects) per possible content.
pub fn has_contents_axiom(formula: Formula) -> Formula {
    match formula {
        Formula::Exists(vars, body) => match (vars.as_slice(), body.as_ref()) {
            ([(item, ty)], Formula::Atom(predicate, args))
                if ty == OBJECT && predicate == "in" && is_in_other(args, item) =>
            {
                atom("has-contents", vec![args[1].clone()])
            }
            _ => Formula::Exists(vars, Box::new(has_contents_axiom(*body))),
        },
        Formula::Not(x) => Formula::Not(Box::new(has_contents_axiom(*x))),
        Formula::And(xs) => Formula::And(xs.into_iter().map(has_contents_axiom).collect()),
        Formula::Or(xs) => Formula::Or(xs.into_iter().map(has_contents_axiom).collect()),
        Formula::Forall(vars, body) => Formula::Forall(vars, Box::new(has_contents_axiom(*body))),
        other => other,
    }
}

/// Whether the arguments of an `in` atom are the variable `item` and something else.
fn is_in_other(args: &[Term], item: &str) -> bool {
    matches!(args, [Term::Var(x), container] if x == item && *container != Term::var(item))
}

/// The tightenings of the planning flavour (docs/kitchen.md lists and explains each), in
/// order: Simmer's syntax checks, the rules on each bound role, on the created object, on
/// vessels and fixtures, on a dish's ingredients, on appliances and on serving.
pub fn preconditions(world: &World, action: &Action, lowering: &ActionLowering) -> Vec<Formula> {
    // 1, 2. Every object named exists (a product name must not exist yet, see 6), and no two
    // roles name the same object: Simmer's syntax checks, preconditions in both flavours.
    let mut out = syntax_preconditions(world, action, lowering);
    for (role, term) in lowering.bound_roles() {
        out.extend(bound_role_rules(world, action, lowering, role, &term));
    }
    out.extend(created_object_rules(action, lowering));
    out.extend(vessel_rules(action, lowering));
    out.extend(fixture_rules(action, lowering));
    out.extend(dish_of_food_rules(action, lowering));
    out.extend(appliance_rules(action, lowering));
    out.extend(serving_rules(action, lowering));
    out
}

/// Rules 3 to 6, on one bound role.
fn bound_role_rules(
    world: &World,
    action: &Action,
    lowering: &ActionLowering,
    role: Role,
    term: &Term,
) -> Vec<Formula> {
    let mut out = Vec::new();
    let is_name_role = world.is_name_role(&action.roles[role].name);
    // 3. Nothing served is touched again: serving is final.
    out.push(not(atom("is", vec![term.clone(), status("served")])));
    // Nothing inside a closed container is touched: the fridge is opened first (Simmer
    // lets one grab the lettuce through the closed fridge door).
    if !is_name_role {
        out.push(not(atom("enclosed", vec![term.clone()])));
        // What went into a dish is not touched again: the egg is broken before it is
        // combined, not after.
        out.push(not(atom("combined", vec![term.clone()])));
    }
    // 4. Boards, tools and vessels are used clean; uncontaminated too, unless the action
    // sterilises them (the pan the raw sausage is fried in).
    let sterilised = action.effects.iter().any(
        |e| matches!(e.primitive, Primitive::Sterilise(r) | Primitive::ClearContam(r) if r == role),
    );
    let role_name = action.roles[role].name.as_str();
    let planning = &world.config.planning;
    let is_clean_role = planning.clean_roles.iter().any(|r| r == role_name);
    if is_clean_role {
        out.push(not(atom("is", vec![term.clone(), status("dirty")])));
    }
    if is_clean_role && !sterilised {
        let source = format!("s{role}");
        out.push(not(exists(
            vec![object_variable(&source)],
            atom("contam", vec![term.clone(), Term::Var(source.clone())]),
        )));
    }
    // 5. Roles that name a kind of object take only objects of that kind: with one of the
    // role's properties, or of the role's class.
    if let Some(properties) = planning.role_properties.get(role_name) {
        out.push(or(properties
            .iter()
            .map(|p| atom("has", vec![term.clone(), property(p)]))
            .collect()));
    }
    if class_roles(world).any(|r| r == role_name) {
        out.push(atom(&class_predicate(role_name), vec![term.clone()]));
    }
    // 6. A COMBINE product is a spare that does not exist yet.
    if is_name_role {
        out.push(atom("spare", vec![term.clone()]));
        out.push(not(atom("present", vec![term.clone()])));
        // The goal's dish is made in the container the goal names.
        let container = action.effects.iter().find_map(|e| match &e.primitive {
            Primitive::CombineAs(c, _, _) => lowering.role(*c),
            _ => None,
        });
        if let Some(container) = container {
            out.push(or(vec![
                not(atom("dish", vec![term.clone()])),
                atom("dish-in", vec![term.clone(), container]),
            ]));
        }
    }
    out
}

/// Rule 7: a created object is a spare made for this parent and kind, not yet used.
fn created_object_rules(action: &Action, lowering: &ActionLowering) -> Vec<Formula> {
    let Some(created) = &lowering.created else {
        return Vec::new();
    };
    let mut out = vec![not(atom("present", vec![created.clone()]))];
    let parent = action.effects.iter().find_map(|e| match &e.primitive {
        Primitive::Derive(x, _) | Primitive::Byproduct(x, _) | Primitive::GrateInto(x, _, _) => {
            lowering.role(*x)
        }
        _ => None,
    });
    let kind = kind_constant(derivative_kind(action).unwrap_or_default());
    match parent {
        Some(parent) => out.push(atom("spare-of", vec![created.clone(), parent, kind])),
        None => out.push(atom("spare-product", vec![created.clone(), kind])),
    }
    out
}

/// Rule 8: only vessels (receptacles, containers) take contents: DRIZZLE, PRESS, POUR and the
/// like put nothing into a potato. Simmer lets DRIZZLE give any object contents, which
/// left every object a possible SQUEEZE source for the grounder.
fn vessel_rules(action: &Action, lowering: &ActionLowering) -> Vec<Formula> {
    let mut out = Vec::new();
    for e in &action.effects {
        let vessel = match &e.primitive {
            Primitive::MoveInto(_, c)
            | Primitive::PourInto(_, c)
            | Primitive::MoveContents(_, c)
            | Primitive::Fill(c, _) => lowering.role(*c),
            _ => None,
        };
        if let Some(vessel) = vessel {
            // … and is open, if it opens (Simmer lets PUT_IN go through the oven door).
            out.push(not(atom("is", vec![vessel.clone(), status("closed")])));
            // Storage (the pantry, the fridge) takes what is put in, not what is poured.
            if !matches!(e.primitive, Primitive::MoveInto(..)) {
                out.push(not(atom("storage", vec![vessel.clone()])));
            }
            out.push(or(vec![
                atom("has", vec![vessel.clone(), property("receptacle")]),
                atom("has", vec![vessel, property("container")]),
            ]));
        }
    }
    out
}

/// Rule 9: fixtures stay put and are no workbench: what an action places or moves into
/// something, what contents are poured out of, and the COMBINE container are grabbable (no
/// cabinet carried onto the stove to boil a potato in it, no fridge emptied into a bowl,
/// nothing combined in the pantry).
fn fixture_rules(action: &Action, lowering: &ActionLowering) -> Vec<Formula> {
    let mut out = Vec::new();
    for e in &action.effects {
        if let Primitive::PlaceOn(x, _)
        | Primitive::MoveInto(x, _)
        | Primitive::PourInto(x, _)
        | Primitive::MoveContents(x, _)
        | Primitive::CombineAs(x, _, _) = &e.primitive
            && let Some(x) = lowering.role(*x)
        {
            out.push(atom("has", vec![x, property("grabbable")]));
        }
        // FILL draws from a tap or a vessel, not from the sink (which would enter the contents
        // and pass its states to a COMBINE product).
        if let Primitive::Fill(_, x) = &e.primitive
            && let Some(x) = lowering.role(*x)
        {
            out.push(or(vec![
                atom("has", vec![x.clone(), property("fillable_source")]),
                atom("has", vec![x, property("grabbable")]),
            ]));
        }
        // What is poured, drizzled or pressed into something is a liquid or a vessel (whose
        // contents go): a solid "drizzled" or "pressed" into a bowl would enter its contents
        // while staying where it lies.
        if let Primitive::PourInto(x, _) = &e.primitive
            && let Some(x) = lowering.role(*x)
        {
            // … and is held: PRESS, which holds its tool, moves nothing into a target.
            out.push(atom("held", vec![x.clone()]));
            out.push(or(vec![
                atom("has", vec![x.clone(), property("pourable")]),
                atom("has", vec![x, property("receptacle")]),
            ]));
        }
        // What FILL fills is a vessel one can carry (a pot, a glass), not a fixture: no
        // bowl "poured" into the fridge to stand in it.
        if let Primitive::Fill(v, _) = &e.primitive
            && let Some(v) = lowering.role(*v)
        {
            out.push(atom("has", vec![v, property("grabbable")]));
        }
    }
    out
}

/// A dish is made of food: no knife or bowl put into the container (to free the hand) ends
/// up combined into the product.
fn dish_of_food_rules(action: &Action, lowering: &ActionLowering) -> Vec<Formula> {
    let mut out = Vec::new();
    for e in &action.effects {
        if let Primitive::CombineAs(c, _, _) = &e.primitive
            && let Some(container) = lowering.role(*c)
        {
            let ingredient = Term::var("i");
            out.push(not(exists(
                vec![object_variable("i")],
                and(vec![
                    atom("in", vec![ingredient.clone(), container]),
                    or(NOT_IN_A_DISH
                        .iter()
                        .map(|p| atom("has", vec![ingredient.clone(), property(p)]))
                        .collect()),
                ]),
            )));
        }
    }
    out
}

/// Rule 10: appliances do what they are for: an `appliance` role takes something switched on and
/// off (no baking in the fridge, which Simmer counts as "on"), and a cooking action's
/// appliance is a heat source (an oven, not a blender).
fn appliance_rules(action: &Action, lowering: &ActionLowering) -> Vec<Formula> {
    let mut out = Vec::new();
    for (role, term) in lowering.bound_roles() {
        if action.roles[role].name == "appliance" {
            out.push(atom("has", vec![term.clone(), property("switchable")]));
            if action.transforms.as_deref() == Some("cooking") {
                out.push(atom("has", vec![term, property("heatsource")]));
            }
        }
    }
    out
}

/// Rule 11: food is served onto a dish one can carry (a plate, a bowl) or a surface that is not a
/// heat source (the counter): not into the cabinet or onto the stove. 12. Only what the task
/// serves is served (no ingredient "served" to put it down).
fn serving_rules(action: &Action, lowering: &ActionLowering) -> Vec<Formula> {
    let mut out = Vec::new();
    let served = action.served_roles();
    for x in &served {
        if let Some(x) = lowering.role(*x) {
            out.push(atom("to-serve", vec![x]));
        }
    }
    for e in &action.effects {
        if let Primitive::PlaceOn(x, target) = &e.primitive
            && served.contains(x)
            && let Some(target) = lowering.role(*target)
        {
            out.push(or(vec![
                atom("has", vec![target.clone(), property("grabbable")]),
                and(vec![
                    atom("has", vec![target.clone(), property("surface")]),
                    not(atom("has", vec![target, property("heatsource")])),
                ]),
            ]));
        }
    }
    out
}
