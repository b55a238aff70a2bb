//! The problem of a task: the objects it declares (the environment's, spares, phantoms, bare
//! places), the initial state, and the goal.

use super::domain::domain_name;
use super::flavour::Flavour;
use super::goal;
use super::ir::{self, Term};
use super::planning::{class_predicate, class_roles};
use super::relevant::relevant_env;
use super::spares::{self, Spare, default_spares, spares_that_may_be_sources};
use super::task::TaskGoal;
use super::translate::{plan_phantoms, plan_spares};
use super::vocabulary::{
    OBJECT, PROPERTY, SITE, STATUS, Vocabulary, class_affords_predicate, literal_places,
    may_afford_predicate, phantom_name, typed_names,
};
use crate::ast::{Init, InitKind, Name, Problem, Typed};
use crate::diagnostics::Diagnostic;
use crate::kitchen::data::model::is_of_kind;
use crate::kitchen::data::simmer::Env;
use crate::kitchen::data::simmer_id::SimmerId;
use crate::kitchen::data::world::World;
use std::collections::BTreeSet;

/// How to compile a problem.
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    pub flavour: Flavour,
    /// Objects created during a plan, declared in the problem besides the default pool.
    pub spares: Vec<Spare>,
    /// Ids a plan names that never exist (Simmer's ids, `lid_1`): declared as objects that are
    /// not `present`, named by [`phantom_name`], so that the audit flavour can run the step
    /// as Simmer does (quirk Q6).
    pub phantoms: Vec<String>,
}

impl CompileOptions {
    /// The options of a flavour for a problem that a Simmer plan must validate against: the
    /// objects the plan creates as spares, the ids it names that never exist as phantoms.
    pub fn for_plan(flavour: Flavour, world: &World, env: &Env, simmer_plan: &str) -> Self {
        CompileOptions {
            flavour,
            spares: plan_spares(world, env, simmer_plan),
            phantoms: plan_phantoms(world, env, simmer_plan),
        }
    }
}

/// What a problem declares, and what its initial state is built from.
struct Declared<'a> {
    world: &'a World,
    env: &'a Env,
    vocabulary: Vocabulary,
    flavour: Flavour,
    spares: Vec<Spare>,
    /// The ids a plan names that never exist, not declared otherwise, sorted.
    phantoms: Vec<&'a String>,
    /// The bare places objects are located at (`fridge`), besides the literal ones.
    places: BTreeSet<String>,
    /// Every object's id and class: the environment's, then the spares.
    objects: Vec<(String, String)>,
    /// The environment's ids.
    ids: BTreeSet<&'a str>,
    /// The places the food audit counts as storage (`fridge`).
    storage: Vec<String>,
}

impl Declared<'_> {
    fn is_env_id(&self, id: &str) -> bool {
        self.ids.contains(id)
    }

    fn is_storage(&self, place: &str) -> bool {
        self.storage
            .iter()
            .any(|s| s == SimmerId::parse(place).place())
    }
}

/// One atom of the initial state.
fn init_atom(predicate: &str, args: &[&str]) -> Init {
    Init {
        kind: InitKind::Atom(ir::ast_atom(
            predicate,
            &args.iter().map(|a| Term::constant(a)).collect::<Vec<_>>(),
        )),
        span: ir::span(),
    }
}

/// The static id-test atoms (`(id-contains-oil x)`) of the object named `name` in PDDL whose
/// Simmer id is `id`.
fn id_test_atoms(vocabulary: &Vocabulary, name: &str, id: &str) -> Vec<Init> {
    vocabulary
        .id_tests
        .iter()
        .filter(|test| test.holds_of(id))
        .map(|test| init_atom(&test.predicate(), &[name]))
        .collect()
}

/// The problem of a task, as `kitchen compile` and Python's `kitchen.compile` make it: the
/// `K410` warning instead when the goal says why no plan can reach it (located at that reason in
/// the goal file), else [`problem`].
pub fn compile_task(
    world: &World,
    env: &Env,
    goal: Option<&TaskGoal>,
    name: &str,
    options: &CompileOptions,
) -> Result<Problem, Diagnostic> {
    if let Some(unsolvable) = goal.and_then(TaskGoal::unsolvable_diagnostic) {
        return Err(unsolvable);
    }
    Ok(problem(world, env, goal, name, options))
}

/// The problem of a task: the environment's objects and spares, the initial state, and the goal
/// (the task's goal when given, and the audits).
pub fn problem(
    world: &World,
    env: &Env,
    goal: Option<&TaskGoal>,
    name: &str,
    options: &CompileOptions,
) -> Problem {
    let relevant;
    let env = match (options.flavour, goal) {
        (Flavour::Planning, Some(goal)) => {
            relevant = relevant_env(world, env, goal);
            &relevant
        }
        _ => env,
    };
    let declared = declare(world, env, goal, options);
    let mut init = Vec::new();
    init.extend(object_atoms(&declared));
    init.extend(phantom_and_place_atoms(&declared));
    init.extend(env_atoms(&declared));
    if options.flavour == Flavour::Planning {
        init.extend(possible_source_atoms(&declared));
    }
    // What the `product` primitive makes (JUICE's juice) has no parent: its spare names its kind.
    let product_kinds = spares::product_kinds(world);
    for spare in &declared.spares {
        match &spare.parent {
            Some((parent, kind)) => init.push(init_atom(
                "spare-of",
                &[&spare.id, parent, &format!("k-{kind}")],
            )),
            // Only a spare without a parent is one a COMBINE may name: a derivative kept for
            // CHOP is no product (otherwise the grounder takes the chopped onion for a
            // possible tool or vessel, since a product takes its ingredients' properties).
            // A product's spare is no `spare` either: COMBINE, which takes any, must not name
            // its product after it (the mocha's coffee made of cocoa).
            None if product_kinds.contains(spare.name.as_str()) => {
                let kind = format!("k-{}", spare.name);
                init.push(init_atom("spare-product", &[&spare.id, &kind]));
            }
            None => init.push(init_atom("spare", &[&spare.id])),
        }
    }
    // Dedup the init (an object may be its own place).
    let mut seen = BTreeSet::new();
    init.retain(|i| seen.insert(format!("{i:?}")));
    if options.flavour == Flavour::Planning
        && let Some(goal) = goal
    {
        init.extend(goal_atoms(goal));
    }
    let goal_formula = goal::formula(world, env, goal, &declared.spares, options.flavour);
    Problem {
        name: ir::name(name),
        domain: Some(domain_name(options.flavour)),
        requirements: Vec::new(),
        objects: object_declarations(&declared),
        init,
        goal: Some(ir::gd(&goal_formula)),
        constraints: None,
        metric: None,
        length: None,
        span: ir::span(),
    }
}

/// Collects what the problem declares: the spares (the default pool and the plan's), the
/// phantoms, the bare places.
fn declare<'a>(
    world: &'a World,
    env: &'a Env,
    goal: Option<&TaskGoal>,
    options: &'a CompileOptions,
) -> Declared<'a> {
    let mut spares = default_spares(world, env, goal);
    for spare in &options.spares {
        if !spares.iter().any(|x| x.id == spare.id) {
            spares.push(spare.clone());
        }
    }
    let ids: BTreeSet<&str> = env.objects.iter().map(|o| o.id.as_str()).collect();
    spares.retain(|s| !ids.contains(s.id.as_str()));
    let mut places: BTreeSet<String> = BTreeSet::new();
    for object in &env.objects {
        if let Some(location) = &object.location
            && !ids.contains(location.as_str())
            && !literal_places(world).contains(&location.as_str())
        {
            places.insert(location.clone());
        }
    }
    let phantoms: Vec<&String> = options
        .phantoms
        .iter()
        .filter(|id| !ids.contains(id.as_str()) && !spares.iter().any(|s| &s.id == *id))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let objects = env
        .objects
        .iter()
        .map(|o| (o.id.clone(), o.name.clone()))
        .chain(spares.iter().map(|s| (s.id.clone(), s.name.clone())))
        .collect();
    let storage = world
        .config
        .food_audit
        .skip
        .iter()
        .flat_map(|r| r.located_in.iter().cloned())
        .collect();
    Declared {
        world,
        env,
        vocabulary: Vocabulary::of(world),
        flavour: options.flavour,
        spares,
        phantoms,
        places,
        objects,
        ids,
        storage,
    }
}

/// The `:objects` section: the environment's objects, the spares, the phantoms, the bare
/// places, and the properties and states only the environment names.
fn object_declarations(declared: &Declared) -> Vec<Typed<Name>> {
    let env = declared.env;
    let vocabulary = &declared.vocabulary;
    let mut extra_properties: BTreeSet<String> = BTreeSet::new();
    let mut extra_states: BTreeSet<String> = BTreeSet::new();
    for object in &env.objects {
        extra_properties.extend(
            object
                .properties
                .iter()
                .filter(|p| !vocabulary.properties.contains(*p))
                .cloned(),
        );
        extra_states.extend(
            object
                .states
                .iter()
                .filter(|s| !vocabulary.states.contains(*s))
                .cloned(),
        );
    }
    let mut objects = typed_names(env.objects.iter().map(|o| &o.id), OBJECT);
    objects.extend(typed_names(declared.spares.iter().map(|s| &s.id), OBJECT));
    objects.extend(typed_names(
        declared.phantoms.iter().map(|id| phantom_name(id)),
        OBJECT,
    ));
    objects.extend(typed_names(&declared.places, SITE));
    objects.extend(typed_names(
        extra_properties.iter().map(|p| format!("p-{p}")),
        PROPERTY,
    ));
    objects.extend(typed_names(
        extra_states.iter().map(|s| format!("s-{s}")),
        STATUS,
    ));
    objects
}

/// The static atoms of every object and spare: excluded sources, id tests, the planning
/// flavour's class roles, `resolves` to itself and `storage`.
fn object_atoms(declared: &Declared) -> Vec<Init> {
    let excluded = &declared.world.config.contamination.source_names_excluded;
    let cutting_board = &declared.world.config.planning.cutting_board;
    let board_in_kitchen = declared
        .env
        .objects
        .iter()
        .any(|o| is_of_kind(&o.name, cutting_board));
    let mut init = Vec::new();
    for (id, name) in &declared.objects {
        if excluded.contains(name) {
            init.push(init_atom("source-excluded", &[id]));
        }
        if declared.flavour == Flavour::Planning {
            // Strict mode reads Simmer's id tests as tests of the class.
            init.extend(
                declared
                    .vocabulary
                    .id_tests
                    .iter()
                    .filter(|test| test.holds_of_class(name))
                    .map(|test| init_atom(&test.predicate(), &[id])),
            );
            let properties = declared
                .env
                .objects
                .iter()
                .find(|o| o.id == *id)
                .map(|o| o.properties.as_slice());
            for use_ in &declared.vocabulary.affordances {
                let Some(affordance) = declared.world.config.affordances.get(use_) else {
                    continue;
                };
                if affordance.fits_class(name) {
                    init.push(init_atom(&class_affords_predicate(use_), &[id]));
                }
                // The environment's objects keep their properties; a spare's come from the plan.
                let may = properties.is_none_or(|properties| {
                    affordance.fits_class(name)
                        || affordance.properties.iter().any(|p| properties.contains(p))
                });
                if may {
                    init.push(init_atom(&may_afford_predicate(use_), &[id]));
                }
            }
        } else {
            init.extend(id_test_atoms(&declared.vocabulary, id, id));
        }
        if declared.flavour == Flavour::Planning {
            for role in class_roles(declared.world) {
                if is_of_kind(name, role) {
                    init.push(init_atom(&class_predicate(role), &[id]));
                }
            }
            // A kitchen without a cutting board cuts on the counter (Simmer only asks for the
            // object to lie on what the role names).
            if !board_in_kitchen && is_fixed_surface(declared.env, id) {
                init.push(init_atom(&class_predicate(cutting_board), &[id]));
            }
        }
        // An object resolves to itself; `storage` by its id without trailing digits.
        init.push(init_atom("resolves", &[id, id]));
        if declared.is_storage(id) {
            init.push(init_atom("storage", &[id]));
        }
    }
    init
}

/// Whether the environment's object is a surface one cannot carry that is no heat source (the
/// counter).
fn is_fixed_surface(env: &Env, id: &str) -> bool {
    env.objects.iter().any(|o| {
        o.id == id
            && o.properties.iter().any(|p| p == "surface")
            && !o
                .properties
                .iter()
                .any(|p| p == "heatsource" || p == "grabbable")
    })
}

/// The static atoms of the phantoms and the bare places. A phantom never exists: it has no
/// properties or states, and the location it names resolves as a place's does (`bowl` to
/// `bowl_1`).
fn phantom_and_place_atoms(declared: &Declared) -> Vec<Init> {
    let mut init = Vec::new();
    for id in &declared.phantoms {
        let name = phantom_name(id);
        init.extend(id_test_atoms(&declared.vocabulary, &name, id));
        let target = format!("{id}_1");
        if declared.objects.iter().any(|(i, _)| *i == target) {
            init.push(init_atom("resolves", &[&name, &target]));
        }
        if declared.is_storage(id) {
            init.push(init_atom("storage", &[&name]));
        }
    }
    for place in declared
        .places
        .iter()
        .map(String::as_str)
        .chain(literal_places(declared.world))
    {
        let target = format!("{place}_1");
        if declared.is_env_id(&target) {
            init.push(init_atom("resolves", &[place, &target]));
        }
        if declared.is_storage(place) {
            init.push(init_atom("storage", &[place]));
        }
    }
    init
}

/// The environment's objects as they start: present, their properties, states, location and
/// the container their location names.
fn env_atoms(declared: &Declared) -> Vec<Init> {
    let mut init = Vec::new();
    for object in &declared.env.objects {
        init.push(init_atom("present", &[&object.id]));
        for p in &object.properties {
            init.push(init_atom("has", &[&object.id, &format!("p-{p}")]));
        }
        for s in &object.states {
            init.push(init_atom("is", &[&object.id, &format!("s-{s}")]));
        }
        if let Some(location) = &object.location {
            init.push(init_atom("loc", &[&object.id, location]));
            // Strict mode's audit lets an object stay unwashed where it is stored, not where
            // it was moved to.
            if declared.flavour == Flavour::Planning && declared.is_storage(location) {
                init.push(init_atom("home", &[&object.id, location]));
            }
            let container = format!("{location}_1");
            if container != object.id && declared.is_env_id(&container) {
                init.push(init_atom("in", &[&object.id, &container]));
            }
        }
    }
    init
}

/// Planning flavour: the possible contamination sources. The task's protein objects that are
/// not excluded, and the COMBINE products (a product unites its ingredients' properties);
/// derivatives too when some creation can give them a source property.
fn possible_source_atoms(declared: &Declared) -> Vec<Init> {
    let contamination = &declared.world.config.contamination;
    let mut init = Vec::new();
    for object in &declared.env.objects {
        if contamination
            .source_properties
            .iter()
            .all(|p| object.properties.contains(p))
            && !contamination.source_names_excluded.contains(&object.name)
        {
            init.push(init_atom("may-source", &[&object.id]));
        }
    }
    for spare in spares_that_may_be_sources(declared.world, &declared.spares) {
        init.push(init_atom("may-source", &[&spare.id]));
    }
    init
}

/// Planning flavour: the goal's dish, the container it is made in, the states asked of the
/// dish itself, and what is to be served.
fn goal_atoms(goal: &TaskGoal) -> Vec<Init> {
    let mut init = Vec::new();
    if let Some(dish) = &goal.dish {
        init.push(init_atom("dish", &[&dish.name]));
        init.push(init_atom("dish-in", &[&dish.name, &dish.container]));
        for s in &dish.states {
            init.push(init_atom("own-state", &[&format!("s-{s}")]));
        }
    }
    for served in goal.dish.iter().map(|d| &d.name).chain(&goal.serve) {
        init.push(init_atom("to-serve", &[served]));
    }
    init
}
