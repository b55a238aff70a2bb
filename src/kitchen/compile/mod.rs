//! The kitchen world lowered to PDDL: a domain from the action tables and one problem per task
//! environment, its goal the task's intended result plus the end-of-plan audits.
//!
//! Nothing here knows an action by name: each action's PDDL is read off its checks (the
//! precondition) and its effect primitives (the effect, regressed in order, see `ir`).
//! docs/kitchen.md describes the encoding and the two flavours.

pub mod goal;
pub mod ir;
pub mod translate;

use super::model::SkipRuleDef;
use super::simmer::Env;
use super::world::{Action, Creation, Primitive, Role, Test, World};
use crate::ast::{
    Action as PAction, AtomicSkeleton, Derived, Domain, Init, InitKind, Problem, Structure, Type,
    Typed,
};
use ir::{F, T, Write, and, atom, eq, exists, not, or};
use std::collections::{BTreeMap, BTreeSet};

pub use goal::TaskGoal;
pub use translate::{from_pddl_plan, plan_phantoms, plan_spares, to_pddl_plan};

/// What the compilation is for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Flavour {
    /// Faithful to Simmer's executor: preconditions are the checks, effects are the primitives;
    /// with `validate --continue` it reports what `kitchen run` reports.
    #[default]
    Audit,
    /// Tightened so that a planner cannot exploit the executor's gaps (docs/kitchen.md).
    Planning,
}

/// An object that a plan may create, declared in the problem ahead (a spare).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Spare {
    /// Simmer's id, `lettuce_chunks_1`.
    pub id: String,
    /// The class name, `lettuce_chunks`.
    pub name: String,
    /// The object it is derived from and the kind (`chunks`), for derivatives.
    pub parent: Option<(String, String)>,
}

/// The PDDL object standing for an id that a plan names and that never exists: `missing-lid_1`.
/// Simmer's ids have no `-`, so it names no real object.
pub fn phantom_name(id: &str) -> String {
    format!("missing-{id}")
}

/// How to compile a problem.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub flavour: Flavour,
    /// Objects created during a plan, declared in the problem besides the default pool.
    pub spares: Vec<Spare>,
    /// Ids a plan names that never exist (Simmer's ids, `lid_1`): declared as objects that are
    /// not `present`, named by [`phantom_name`], so that the audit flavour can run the step
    /// as Simmer does (quirk Q6).
    pub phantoms: Vec<String>,
}

pub const OBJ: &str = "obj";
pub const PLACE: &str = "place";
pub const PROPERTY: &str = "property";
pub const STATUS: &str = "status";

/// The PDDL constant of a property.
pub fn prop(p: &str) -> T {
    T::Const(format!("p-{p}"))
}

/// The PDDL constant of a state.
pub fn status(s: &str) -> T {
    T::Const(format!("s-{s}"))
}

/// The literal places the primitives write (`counter`, `trash`).
const LITERAL_PLACES: &[&str] = &["counter", "trash"];

/// Audit flavour: `(in x c)`, `(in-2 x c)` … `(in-5 x c)` say that `x` is at least once,
/// twice … five times in the contents of `c` (Simmer's contents are lists). A sixth copy is
/// not counted; the dev plans reach four.
const IN_LEVELS: &[&str] = &["in", "in-2", "in-3", "in-4", "in-5"];

/// The properties and states the world can mention: classes, actions and audits.
pub struct Vocabulary {
    pub properties: BTreeSet<String>,
    pub states: BTreeSet<String>,
    /// Texts tested against ids: (`contains` or `starts`, text).
    pub id_tests: BTreeSet<(String, String)>,
}

fn collect_test(t: &Test, v: &mut Vocabulary) {
    match t {
        Test::HasProperty(_, p) => {
            v.properties.insert(p.clone());
        }
        Test::HasAnyProperty(_, ps) => v.properties.extend(ps.iter().cloned()),
        Test::HasState(_, s) => {
            v.states.insert(s.clone());
        }
        Test::IdContains(_, x) | Test::ContentsIdContains(_, x) => {
            v.id_tests.insert(("contains".into(), x.clone()));
        }
        Test::IdStartsWith(_, x) => {
            v.id_tests.insert(("starts".into(), x.clone()));
        }
        Test::Any(ts) => ts.iter().for_each(|t| collect_test(t, v)),
        _ => {}
    }
}

impl Vocabulary {
    pub fn of(world: &World) -> Vocabulary {
        let mut v = Vocabulary {
            properties: BTreeSet::new(),
            states: BTreeSet::new(),
            id_tests: BTreeSet::new(),
        };
        for c in world.classes.values() {
            v.properties.extend(c.properties.iter().cloned());
            v.states.extend(c.states.iter().cloned());
        }
        for a in world.actions.values() {
            for c in &a.checks {
                collect_test(&c.test, &mut v);
            }
            for e in &a.effects {
                if let Some(t) = &e.condition {
                    collect_test(t, &mut v);
                }
                use Primitive as P;
                match &e.primitive {
                    P::AddState(_, s) | P::RemoveState(_, s) => {
                        v.states.insert(s.clone());
                    }
                    P::ReplaceState(_, a, b) => {
                        v.states.insert(a.clone());
                        v.states.insert(b.clone());
                    }
                    P::SetStates(_, ss) => v.states.extend(ss.iter().cloned()),
                    P::Derive(_, c)
                    | P::Byproduct(_, c)
                    | P::Product(_, c)
                    | P::CombineAs(_, _, c)
                    | P::GrateInto(_, _, c) => {
                        v.properties.extend(c.properties.iter().cloned());
                        v.properties.extend(c.inherit.iter().cloned());
                        v.states.extend(c.states.iter().cloned());
                        if c.states.is_empty() {
                            v.states.insert(c.value.clone());
                        }
                    }
                    _ => {}
                }
            }
        }
        let cfg = &world.config;
        v.properties
            .extend(cfg.contamination.source_properties.iter().cloned());
        v.states
            .extend(cfg.contamination.source_states.iter().cloned());
        for rule in &cfg.food_audit.skip {
            v.properties.extend(rule.any_property.iter().cloned());
            v.properties.extend(rule.no_property.iter().cloned());
            v.properties.extend(rule.only_properties.iter().cloned());
        }
        v.states
            .extend(cfg.food_audit.cooked_states.iter().cloned());
        for h in &cfg.appliance_audit.hazards {
            v.states.insert(h.state.clone());
        }
        for s in [
            "dirty", "cooked", "raw", "served", "empty", "filled", "disposed",
        ] {
            v.states.insert(s.to_string());
        }
        for p in ["receptacle", "pourable", "protein", "surface", "heatsource"] {
            v.properties.insert(p.to_string());
        }
        v
    }
}

/// The 0-ary predicate of an environment flag.
fn flag(f: &str) -> String {
    format!("flag-{f}")
}

fn id_test_predicate(kind: &str, text: &str) -> String {
    match kind {
        "starts" => format!("id-starts-with-{text}"),
        _ => format!("id-contains-{text}"),
    }
}

fn obj_var(v: &str) -> (String, String) {
    (v.to_string(), OBJ.to_string())
}

/// Fresh variable names within one action.
struct Fresh(usize);

impl Fresh {
    fn next(&mut self, base: &str) -> String {
        self.0 += 1;
        format!("{base}{}", self.0)
    }
}

/// The compiler of one action variant: the roles bound, the writes so far.
struct Lowering<'w> {
    world: &'w World,
    /// The PDDL term of each role, `None` when unbound or a value role.
    roles: Vec<Option<T>>,
    writes: Vec<Write>,
    fresh: Fresh,
    /// The parameter of the object the action creates, if any.
    new: Option<T>,
    flavour: Flavour,
}

impl Lowering<'_> {
    fn r(&self, role: Role) -> Option<T> {
        self.roles.get(role).cloned().flatten()
    }

    /// `is_source` of the semantics, as a formula.
    fn source(&self, x: &T) -> F {
        let c = &self.world.config.contamination;
        let mut parts: Vec<F> = c
            .source_properties
            .iter()
            .map(|p| atom("has", vec![x.clone(), prop(p)]))
            .collect();
        parts.extend(
            c.source_states
                .iter()
                .map(|s| atom("is", vec![x.clone(), status(s)])),
        );
        parts.push(not(atom("source-excluded", vec![x.clone()])));
        and(parts)
    }

    fn holding_nothing(&mut self) -> F {
        let y = self.fresh.next("h");
        not(exists(vec![obj_var(&y)], atom("held", vec![T::Var(y)])))
    }

    fn located_on(&mut self, x: &T, property: &str) -> F {
        let p = self.fresh.next("p");
        let k = self.fresh.next("k");
        exists(
            vec![(p.clone(), PLACE.into()), obj_var(&k)],
            and(vec![
                atom("loc", vec![x.clone(), T::Var(p.clone())]),
                atom("resolves", vec![T::Var(p), T::Var(k.clone())]),
                atom("has", vec![T::Var(k), prop(property)]),
            ]),
        )
    }

    /// A test as a formula over the state (before any write).
    fn test(&mut self, t: &Test) -> F {
        match t {
            Test::HoldingNothing => self.holding_nothing(),
            Test::Holds(r) => match self.r(*r) {
                Some(x) => atom("held", vec![x]),
                None => self.holding_nothing(),
            },
            Test::HasProperty(r, p) => self
                .r(*r)
                .map_or(F::False, |x| atom("has", vec![x, prop(p)])),
            Test::HasAnyProperty(r, ps) => match self.r(*r) {
                Some(x) => or(ps
                    .iter()
                    .map(|p| atom("has", vec![x.clone(), prop(p)]))
                    .collect()),
                None => F::False,
            },
            Test::HasState(r, s) => self
                .r(*r)
                .map_or(F::False, |x| atom("is", vec![x, status(s)])),
            Test::IdContains(r, v) => self
                .r(*r)
                .map_or(F::False, |x| atom(&id_test_predicate("contains", v), &[x])),
            Test::IdStartsWith(r, v) => self
                .r(*r)
                .map_or(F::False, |x| atom(&id_test_predicate("starts", v), &[x])),
            Test::Contains(c, x) => match (self.r(*c), self.r(*x)) {
                (Some(c), Some(x)) => atom("in", vec![x, c]),
                _ => F::False,
            },
            Test::HasContents(c) => match self.r(*c) {
                Some(c) => {
                    let i = self.fresh.next("i");
                    exists(vec![obj_var(&i)], atom("in", vec![T::Var(i), c]))
                }
                None => F::False,
            },
            Test::ContentsIdContains(c, v) => match self.r(*c) {
                Some(c) => {
                    let i = self.fresh.next("i");
                    exists(
                        vec![obj_var(&i)],
                        and(vec![
                            atom("in", vec![T::Var(i.clone()), c]),
                            atom(&id_test_predicate("contains", v), &[T::Var(i)]),
                        ]),
                    )
                }
                None => F::False,
            },
            Test::OnSurface(x, s) => match (self.r(*x), self.r(*s)) {
                (Some(x), Some(s)) => atom("loc", vec![x, s]),
                _ => F::False,
            },
            Test::OnAnySurface(x) => match self.r(*x) {
                Some(x) => self.located_on(&x, "surface"),
                None => F::False,
            },
            Test::OnHeatsource(x, _) => match self.r(*x) {
                Some(x) => self.located_on(&x, "heatsource"),
                None => F::False,
            },
            Test::HasLiquid(v) => match self.r(*v) {
                Some(v) => {
                    let i = self.fresh.next("i");
                    let iv = T::Var(i.clone());
                    or(vec![
                        exists(
                            vec![obj_var(&i)],
                            and(vec![
                                atom("in", vec![iv.clone(), v.clone()]),
                                or(vec![
                                    atom("has", vec![iv.clone(), prop("pourable")]),
                                    atom("has", vec![iv, prop("fillable_source")]),
                                ]),
                            ]),
                        ),
                        atom("is", vec![v, status("filled")]),
                    ])
                }
                None => F::False,
            },
            Test::InAnyContainer(x) => match self.r(*x) {
                Some(x) => {
                    let c = self.fresh.next("c");
                    exists(vec![obj_var(&c)], atom("in", vec![x, T::Var(c)]))
                }
                None => F::False,
            },
            Test::RecepOrOpen(x) => match self.r(*x) {
                Some(x) => or(vec![
                    atom("has", vec![x.clone(), prop("receptacle")]),
                    and(vec![
                        atom("has", vec![x.clone(), prop("container")]),
                        atom("is", vec![x, status("open")]),
                    ]),
                ]),
                None => F::False,
            },
            Test::Flag(f) => atom(&flag(f), &[]),
            Test::Any(ts) => {
                let parts = ts.iter().map(|t| self.test(t)).collect();
                or(parts)
            }
        }
    }

    /// The current value of a formula: regressed through the writes so far.
    fn now(&self, f: &F) -> F {
        ir::regress(f, &self.writes)
    }

    fn write(
        &mut self,
        vars: Vec<(String, String)>,
        condition: F,
        p: &str,
        args: Vec<T>,
        add: bool,
    ) {
        if condition == F::False {
            return;
        }
        // Planning flavour: contamination is only ever carried from a possible source (a
        // protein object of the task or a COMBINE product), so a write quantified over the
        // source is restricted to those; the grounder then drops every other instance.
        let condition = match (self.flavour, p, args.get(1)) {
            (Flavour::Planning, "contam", Some(T::Var(s))) if vars.iter().any(|(v, _)| v == s) => {
                and(vec![atom("may-source", vec![T::Var(s.clone())]), condition])
            }
            _ => condition,
        };
        // Audit flavour: Simmer changes only objects that exist. The object itself of a
        // state, property, location or contamination, the container of a content: a write on
        // an id that does not exist (a plan's hallucinated object, quirk Q6) does nothing.
        // (Holding it and entering contents do happen: those are written on the agent and on
        // the container.)
        let owner = match p {
            "is" | "has" | "loc" | "contam" => args.first(),
            "in" => args.get(1),
            _ => None,
        };
        let condition = match owner {
            Some(x) if self.flavour == Flavour::Audit => {
                and(vec![self.now(&atom("present", vec![x.clone()])), condition])
            }
            _ => condition,
        };
        // Audit flavour: contents are lists in Simmer, so an id can be in a container more
        // than once (POUR of a non-receptacle, FILL from the same tap twice). Entering adds a
        // copy; leaving by this write removes every copy.
        if self.flavour == Flavour::Audit && p == "in" {
            if add {
                let levels = self.copies(args.clone());
                for (k, level) in IN_LEVELS.iter().enumerate().skip(1) {
                    let cond = and(vec![condition.clone(), levels[k - 1].clone()]);
                    self.push(vars.clone(), cond, level, args.clone(), true);
                }
            } else {
                for level in &IN_LEVELS[1..] {
                    self.push(vars.clone(), condition.clone(), level, args.clone(), false);
                }
            }
        }
        self.push(vars, condition, p, args, add);
    }

    /// "At least once, twice …": the current value of each of `IN_LEVELS` for these args.
    fn copies(&self, args: Vec<T>) -> Vec<F> {
        IN_LEVELS
            .iter()
            .map(|l| self.now(&atom(l, args.clone())))
            .collect()
    }

    fn push(
        &mut self,
        vars: Vec<(String, String)>,
        condition: F,
        p: &str,
        args: Vec<T>,
        add: bool,
    ) {
        if condition == F::False {
            return;
        }
        self.writes.push(Write {
            vars,
            condition,
            predicate: p.to_string(),
            args,
            add,
        });
    }

    /// Removes one copy of `x` from the contents of `c` (Simmer's `list.remove`). The planning
    /// flavour keeps contents as sets.
    fn remove_copy(&mut self, vars: Vec<(String, String)>, condition: F, x: &T, c: &T) {
        let args = vec![x.clone(), c.clone()];
        if self.flavour == Flavour::Planning {
            self.write(vars, condition, "in", args, false);
            return;
        }
        let present = self.now(&atom("present", vec![c.clone()]));
        let levels = self.copies(args.clone());
        for (k, level) in IN_LEVELS.iter().enumerate() {
            let top = match levels.get(k + 1) {
                Some(next) => and(vec![levels[k].clone(), not(next.clone())]),
                None => levels[k].clone(),
            };
            let cond = and(vec![condition.clone(), present.clone(), top]);
            self.push(vars.clone(), cond, level, args.clone(), false);
        }
    }

    fn add(&mut self, p: &str, args: Vec<T>) {
        self.write(Vec::new(), F::True, p, args, true);
    }

    fn del(&mut self, p: &str, args: Vec<T>) {
        self.write(Vec::new(), F::True, p, args, false);
    }

    /// Deletes `p(x, ?v)` for every `?v`, under a condition on `x`.
    fn del_all(&mut self, p: &str, x: &T, ty: &str, condition: F, extra: Vec<(String, String)>) {
        let v = self.fresh.next("v");
        let mut vars = extra;
        vars.push((v.clone(), ty.to_string()));
        self.write(vars, condition, p, vec![x.clone(), T::Var(v)], false);
    }

    /// Semantics §5 detach: out of the contents of the place the location names.
    fn detach(&mut self, x: &T) {
        let p = self.fresh.next("p");
        let k = self.fresh.next("k");
        let cond = self.now(&and(vec![
            atom("loc", vec![x.clone(), T::Var(p.clone())]),
            atom("resolves", vec![T::Var(p.clone()), T::Var(k.clone())]),
        ]));
        self.remove_copy(vec![(p, PLACE.into()), obj_var(&k)], cond, x, &T::Var(k));
    }

    fn set_location(&mut self, x: &T, place: T, condition: F, extra: Vec<(String, String)>) {
        self.del_all("loc", x, PLACE, condition.clone(), extra.clone());
        self.write(extra, condition, "loc", vec![x.clone(), place], true);
    }

    fn cook(&mut self, x: &T, condition: F, extra: Vec<(String, String)>) {
        self.write(
            extra.clone(),
            condition.clone(),
            "is",
            vec![x.clone(), status("raw")],
            false,
        );
        self.write(
            extra.clone(),
            condition.clone(),
            "is",
            vec![x.clone(), status("cooked")],
            true,
        );
        self.del_all("contam", x, OBJ, condition, extra);
    }

    /// Moves every content of `s` to `t` (semantics §5 move_contents).
    fn move_contents(&mut self, s: &T, t: &T) {
        let i = self.fresh.next("i");
        let iv = T::Var(i.clone());
        let cond = self.now(&atom("in", vec![iv.clone(), s.clone()]));
        let vars = vec![obj_var(&i)];
        if self.flavour == Flavour::Audit {
            // Every copy moves: the target's count becomes the sum (up to the top level).
            let from = self.copies(vec![iv.clone(), s.clone()]);
            self.write(
                vars.clone(),
                cond.clone(),
                "in",
                vec![iv.clone(), s.clone()],
                false,
            );
            // Read after the source is emptied: the target may be the source.
            let to = self.copies(vec![iv.clone(), t.clone()]);
            let present = self.now(&atom("present", vec![t.clone()]));
            for (k, level) in IN_LEVELS.iter().enumerate() {
                // At least k+1 copies: a+1 in the target and k-a in the source.
                let mut ways = vec![to[k].clone(), from[k].clone()];
                for a in 0..k {
                    ways.push(and(vec![to[a].clone(), from[k - 1 - a].clone()]));
                }
                let c = and(vec![present.clone(), or(ways)]);
                self.push(vars.clone(), c, level, vec![iv.clone(), t.clone()], true);
            }
        } else {
            self.write(
                vars.clone(),
                cond.clone(),
                "in",
                vec![iv.clone(), s.clone()],
                false,
            );
            self.write(
                vars.clone(),
                cond.clone(),
                "in",
                vec![iv.clone(), t.clone()],
                true,
            );
        }
        self.set_location(&iv, t.clone(), cond, vars);
    }

    fn create(&mut self, x: Option<&T>, how: &Creation, at_parent: bool) -> Option<T> {
        let new = self.new.clone()?;
        self.add("present", vec![new.clone()]);
        for p in &how.properties {
            self.add("has", vec![new.clone(), prop(p)]);
        }
        if let Some(x) = x {
            for p in &how.inherit {
                let cond = self.now(&atom("has", vec![x.clone(), prop(p)]));
                self.write(Vec::new(), cond, "has", vec![new.clone(), prop(p)], true);
            }
        }
        let states = if how.states.is_empty() {
            vec![how.value.clone()]
        } else {
            how.states.clone()
        };
        for s in &states {
            self.add("is", vec![new.clone(), status(s)]);
        }
        match x {
            Some(x) if at_parent => {
                let p = self.fresh.next("p");
                let cond = self.now(&atom("loc", vec![x.clone(), T::Var(p.clone())]));
                self.write(
                    vec![(p.clone(), PLACE.into())],
                    cond,
                    "loc",
                    vec![new.clone(), T::Var(p)],
                    true,
                );
            }
            _ => self.add("loc", vec![new.clone(), T::c("counter")]),
        }
        Some(new)
    }

    fn primitive(&mut self, primitive: &Primitive) {
        use Primitive as P;
        match primitive {
            P::AddState(r, s) => {
                if let Some(x) = self.r(*r) {
                    self.add("is", vec![x, status(s)]);
                }
            }
            P::RemoveState(r, s) => {
                if let Some(x) = self.r(*r) {
                    self.del("is", vec![x, status(s)]);
                }
            }
            P::ReplaceState(r, a, b) => {
                if let Some(x) = self.r(*r) {
                    self.del("is", vec![x.clone(), status(a)]);
                    self.add("is", vec![x, status(b)]);
                }
            }
            // States carrying a bare value (`at_350F`) are read by nothing: not modelled.
            P::AddValueState(..) | P::SetAgentLocation(_) => {}
            P::SetStates(r, ss) => {
                if let Some(x) = self.r(*r) {
                    self.del_all("is", &x, STATUS, F::True, Vec::new());
                    for s in ss {
                        self.add("is", vec![x.clone(), status(s)]);
                    }
                }
            }
            P::SetHeld(r) => {
                self.release();
                if let Some(x) = self.r(*r) {
                    self.add("held", vec![x]);
                }
            }
            P::Release => self.release(),
            P::ReleaseIfHeld(r) => {
                if let Some(x) = self.r(*r) {
                    self.del("held", vec![x]);
                }
            }
            P::SetFlag(f) => self.add(&flag(f), Vec::new()),
            P::ClearFlag(f) => self.del(&flag(f), Vec::new()),
            P::MoveInto(x, c) => {
                if let (Some(x), Some(c)) = (self.r(*x), self.r(*c)) {
                    self.detach(&x);
                    self.add("in", vec![x.clone(), c.clone()]);
                    self.set_location(&x, c.clone(), F::True, Vec::new());
                    self.del("is", vec![c, status("empty")]);
                }
            }
            P::PlaceOn(x, s) => {
                if let (Some(x), Some(s)) = (self.r(*x), self.r(*s)) {
                    self.detach(&x);
                    self.set_location(&x, s, F::True, Vec::new());
                }
            }
            P::RemoveFrom(x, c) => {
                if let (Some(x), Some(c)) = (self.r(*x), self.r(*c)) {
                    self.remove_copy(Vec::new(), F::True, &x, &c);
                    self.set_location(&x, T::c("counter"), F::True, Vec::new());
                }
            }
            P::PourInto(s, t) => {
                if let (Some(s), Some(t)) = (self.r(*s), self.r(*t)) {
                    let receptacle = self.now(&atom("has", vec![s.clone(), prop("receptacle")]));
                    let before = self.writes.len();
                    self.move_contents(&s, &t);
                    for w in &mut self.writes[before..] {
                        w.condition = and(vec![receptacle.clone(), w.condition.clone()]);
                    }
                    self.write(
                        Vec::new(),
                        receptacle.clone(),
                        "is",
                        vec![s.clone(), status("empty")],
                        true,
                    );
                    self.write(Vec::new(), not(receptacle), "in", vec![s, t.clone()], true);
                    self.del("is", vec![t, status("empty")]);
                }
            }
            P::MoveContents(s, t) => {
                if let (Some(s), Some(t)) = (self.r(*s), self.r(*t)) {
                    self.move_contents(&s, &t);
                }
            }
            P::Fill(v, s) => {
                if let (Some(v), Some(s)) = (self.r(*v), self.r(*s)) {
                    self.add("in", vec![s, v.clone()]);
                    self.del("is", vec![v.clone(), status("empty")]);
                    self.add("is", vec![v, status("filled")]);
                }
            }
            P::Drain(v) => {
                if let Some(v) = self.r(*v) {
                    let i = self.fresh.next("i");
                    let iv = T::Var(i.clone());
                    let cond = self.now(&and(vec![
                        atom("in", vec![iv.clone(), v.clone()]),
                        atom("has", vec![iv.clone(), prop("pourable")]),
                    ]));
                    let vars = vec![obj_var(&i)];
                    self.write(
                        vars.clone(),
                        cond.clone(),
                        "in",
                        vec![iv.clone(), v.clone()],
                        false,
                    );
                    self.del_all("loc", &iv, PLACE, cond, vars);
                    self.add("is", vec![v, status("drained")]);
                }
            }
            P::Dispose(x) => {
                if let Some(x) = self.r(*x) {
                    self.set_location(&x, T::c("trash"), F::True, Vec::new());
                    self.del_all("is", &x, STATUS, F::True, Vec::new());
                    self.add("is", vec![x, status("disposed")]);
                }
                self.release();
            }
            P::Cook(x) => {
                if let Some(x) = self.r(*x) {
                    self.cook(&x, F::True, Vec::new());
                }
            }
            P::Sterilise(v) => {
                if let Some(v) = self.r(*v) {
                    let i = self.fresh.next("i");
                    let iv = T::Var(i.clone());
                    let cond = self.now(&atom("in", vec![iv.clone(), v.clone()]));
                    self.del_all("contam", &v, OBJ, F::True, Vec::new());
                    self.cook(&iv, cond, vec![obj_var(&i)]);
                }
            }
            P::ClearContam(x) => {
                if let Some(x) = self.r(*x) {
                    self.del_all("contam", &x, OBJ, F::True, Vec::new());
                }
            }
            P::ClearHands => {
                let v = self.fresh.next("v");
                self.write(vec![obj_var(&v)], F::True, "hands", vec![T::Var(v)], false);
            }
            P::Derive(x, how) => {
                if let Some(x) = self.r(*x) {
                    self.create(Some(&x), how, true);
                }
            }
            P::Byproduct(x, how) => {
                if let Some(x) = self.r(*x) {
                    self.create(Some(&x), how, false);
                }
            }
            P::Product(c, how) => {
                if let Some(c) = self.r(*c)
                    && let Some(new) = self.create(None, how, false)
                {
                    self.del_all("loc", &new, PLACE, F::True, Vec::new());
                    self.add("loc", vec![new.clone(), c.clone()]);
                    self.add("in", vec![new, c]);
                }
            }
            P::CombineAs(c, pid, how) => {
                if let (Some(c), Some(pid)) = (self.r(*c), self.r(*pid)) {
                    self.combine(&c, &pid, how);
                }
            }
            P::GrateInto(x, t, how) => {
                if let Some(x) = self.r(*x)
                    && let Some(new) = self.create(Some(&x), how, true)
                    && let Some(t) = self.r(*t)
                {
                    self.add("in", vec![new.clone(), t.clone()]);
                    self.set_location(&new, t, F::True, Vec::new());
                }
            }
            P::ContaminateHands(x) => {
                if let Some(x) = self.r(*x) {
                    let cond = self.now(&self.source(&x));
                    self.write(Vec::new(), cond, "hands", vec![x], true);
                }
            }
            P::SpreadFromHands(t) => {
                if let Some(t) = self.r(*t) {
                    let s = self.fresh.next("s");
                    let sv = T::Var(s.clone());
                    let cond = self.now(&and(vec![
                        atom("hands", vec![sv.clone()]),
                        not(atom("hands", vec![t.clone()])),
                        atom("present", vec![t.clone()]),
                    ]));
                    self.write(vec![obj_var(&s)], cond, "contam", vec![t, sv], true);
                }
            }
            P::SpreadContam(a, b) => {
                if let (Some(a), Some(b)) = (self.r(*a), self.r(*b)) {
                    let s = self.fresh.next("s");
                    let sv = T::Var(s.clone());
                    let cond = self.now(&and(vec![
                        atom("contam", vec![a, sv.clone()]),
                        atom("present", vec![b.clone()]),
                    ]));
                    self.write(vec![obj_var(&s)], cond, "contam", vec![b, sv], true);
                }
            }
            P::MarkSource(x, c) => {
                if let (Some(x), Some(c)) = (self.r(*x), self.r(*c)) {
                    let cond = self.now(&and(vec![
                        self.source(&x),
                        atom("present", vec![c.clone()]),
                    ]));
                    self.write(Vec::new(), cond, "contam", vec![c, x], true);
                }
            }
        }
    }

    fn release(&mut self) {
        let v = self.fresh.next("v");
        self.write(vec![obj_var(&v)], F::True, "held", vec![T::Var(v)], false);
    }

    /// Semantics §5, COMBINE: the product unites its ingredients, and overwrites an earlier
    /// product of the same id.
    fn combine(&mut self, c: &T, pid: &T, how: &Creation) {
        let i = self.fresh.next("i");
        let iv = T::Var(i.clone());
        let inside = atom("in", vec![iv.clone(), c.clone()]);
        let v = self.fresh.next("v");
        let vv = T::Var(v.clone());
        // Read everything first: the ingredients as they are before the product exists.
        let props_from = self.now(&and(vec![
            inside.clone(),
            atom("has", vec![iv.clone(), vv.clone()]),
        ]));
        // Planning flavour: being served does not pass from an ingredient to the product (a
        // planner served the oil, then combined it into the dish it had to serve).
        let mut not_inherited = vec![not(eq(&vv, &status("dirty")))];
        // Nor do the states the goal asks of the dish itself (`baked`): those it gets by
        // acting on the product, not by baking the egg before combining.
        if self.flavour == Flavour::Planning {
            not_inherited.push(not(eq(&vv, &status("served"))));
            not_inherited.push(not(atom("own-state", vec![vv.clone()])));
        }
        let states_from = self.now(&and([
            vec![inside.clone(), atom("is", vec![iv.clone(), vv.clone()])],
            not_inherited,
        ]
        .concat()));
        let contam_from = self.now(&and(vec![
            inside.clone(),
            atom("contam", vec![iv.clone(), vv.clone()]),
        ]));
        let parts_from = self.now(&and(vec![
            inside.clone(),
            atom("has", vec![iv.clone(), prop("grabbable")]),
        ]));
        let dirty = self.now(&exists(
            vec![obj_var(&i)],
            and(vec![
                inside.clone(),
                atom("present", vec![iv.clone()]),
                atom("is", vec![iv.clone(), status("dirty")]),
                not(and(vec![
                    atom("is", vec![iv.clone(), status("cooked")]),
                    atom("has", vec![iv.clone(), prop("protein")]),
                ])),
            ]),
        ));
        let container_states: Vec<(String, F)> = how
            .states
            .iter()
            .map(|s| (s.clone(), self.now(&atom("is", vec![c.clone(), status(s)]))))
            .collect();
        // The overwrite: the earlier record is gone (in the planning flavour the product does
        // not exist yet, so there is none).
        let overwrite = if self.flavour == Flavour::Planning {
            &[][..]
        } else {
            &[
                ("has", PROPERTY),
                ("is", STATUS),
                ("contam", OBJ),
                ("loc", PLACE),
            ][..]
        };
        for &(p, ty) in overwrite {
            self.del_all(p, pid, ty, F::True, Vec::new());
        }
        self.add("present", vec![pid.clone()]);
        let both = vec![obj_var(&i), (v.clone(), PROPERTY.into())];
        self.write(both, props_from, "has", vec![pid.clone(), vv.clone()], true);
        let both = vec![obj_var(&i), (v.clone(), STATUS.into())];
        self.write(both, states_from, "is", vec![pid.clone(), vv.clone()], true);
        let both = vec![obj_var(&i), obj_var(&v)];
        self.write(both, contam_from, "contam", vec![pid.clone(), vv], true);
        // Planning flavour: what the product is made of (what one can carry: not the tap a
        // FILL left in the contents), for the goal's dish; those are not touched again.
        if self.flavour == Flavour::Planning {
            self.write(
                vec![obj_var(&i)],
                parts_from,
                "part-of",
                vec![iv.clone(), pid.clone()],
                true,
            );
        }
        self.write(
            Vec::new(),
            dirty,
            "is",
            vec![pid.clone(), status("dirty")],
            true,
        );
        for p in &how.properties {
            self.add("has", vec![pid.clone(), prop(p)]);
        }
        for (s, cond) in container_states {
            self.write(Vec::new(), cond, "is", vec![pid.clone(), status(&s)], true);
        }
        self.add("loc", vec![pid.clone(), c.clone()]);
        self.add("in", vec![pid.clone(), c.clone()]);
    }
}

/// The roles an action's PDDL parameters stand for, in order, and whether each variant binds
/// each optional role: one variant per subset of the optional roles left unbound.
pub fn variants(action: &Action) -> Vec<Vec<bool>> {
    let optional: Vec<usize> = (0..action.roles.len())
        .filter(|&i| action.roles[i].optional)
        .collect();
    let mut out = Vec::new();
    for mask in 0..(1usize << optional.len()) {
        let mut bound = vec![true; action.roles.len()];
        for (bit, &i) in optional.iter().enumerate() {
            if mask & (1 << bit) != 0 {
                bound[i] = false;
            }
        }
        out.push(bound);
    }
    out
}

/// The PDDL name of an action variant: the action, then `-without-<role>` for unbound roles.
pub fn variant_name(action: &Action, bound: &[bool]) -> String {
    let mut name = action.name.clone();
    for (role, &b) in action.roles.iter().zip(bound) {
        if !b {
            name.push_str("-without-");
            name.push_str(&role.name);
        }
    }
    name
}

/// Whether the action creates an object through a primitive that needs a spare parameter.
pub fn creates(action: &Action) -> bool {
    action.effects.iter().any(|e| {
        matches!(
            e.primitive,
            Primitive::Derive(..)
                | Primitive::Byproduct(..)
                | Primitive::Product(..)
                | Primitive::GrateInto(..)
        )
    })
}

/// The kind of derivative an action makes (`chunks`), if any.
pub fn derivative_kind(action: &Action) -> Option<&str> {
    action.effects.iter().find_map(|e| match &e.primitive {
        Primitive::Derive(_, c) | Primitive::Byproduct(_, c) | Primitive::GrateInto(_, _, c) => {
            Some(c.value.as_str())
        }
        Primitive::Product(_, c) => Some(c.value.as_str()),
        _ => None,
    })
}

/// The roles of the planning flavour's "tool-like" roles that must not be dirty.
const CLEAN_ROLES: &[&str] = &["cutting_board", "tool", "receptacle", "container", "pot"];

/// What fills a role in the planning flavour, by the role's name: an object with the property
/// (`tool`), or an object of the class, its id's class being the name or ending in `_name`
/// (`cutting_board`, `steamer`). Simmer only checks some of these (or none: STEAM's steamer and
/// pot are only tested for containment), which leaves a grounder every object for every role.
/// Roles not listed (`object`, `target`, `source`, `appliance` …) take any object.
pub const ROLE_FILTERS: &[(&str, RoleFilter)] = &[
    ("tool", RoleFilter::Property),
    ("receptacle", RoleFilter::Property),
    ("heatsource", RoleFilter::Property),
    ("container", RoleFilter::Property),
    ("surface", RoleFilter::Property),
    ("filter", RoleFilter::Property),
    ("covering", RoleFilter::Property),
    ("wrap_material", RoleFilter::Property),
    ("cutting_board", RoleFilter::Class),
    ("steamer", RoleFilter::Class),
    ("pot", RoleFilter::Class),
    ("grinder", RoleFilter::Class),
    ("coffee_machine", RoleFilter::Class),
    ("coffee_beans", RoleFilter::Class),
    ("water", RoleFilter::Class),
    ("fridge", RoleFilter::Class),
    ("freezer", RoleFilter::Class),
];

/// How a role of `ROLE_FILTERS` restricts its objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoleFilter {
    Property,
    Class,
}

/// The static predicate of a class-filtered role.
fn class_predicate(role: &str) -> String {
    format!("class-{role}")
}

/// Whether an object of the class fills a class-filtered role.
fn class_fits(class: &str, role: &str) -> bool {
    class == role || class.ends_with(&format!("_{role}"))
}

fn role_filter(role: &str) -> Option<RoleFilter> {
    ROLE_FILTERS
        .iter()
        .find(|(r, _)| *r == role)
        .map(|(_, f)| *f)
}

fn lower_action(world: &World, action: &Action, bound: &[bool], flavour: Flavour) -> PAction {
    let mut roles = Vec::new();
    let mut params = Vec::new();
    for (role, &b) in action.roles.iter().zip(bound) {
        if b && !world.is_value_role(&role.name) {
            roles.push(Some(T::var(&role.name)));
            params.push(obj_var(&role.name));
        } else {
            roles.push(None);
        }
    }
    let new = creates(action).then(|| T::var("new"));
    if new.is_some() {
        params.push(obj_var("new"));
    }
    let mut l = Lowering {
        world,
        roles,
        writes: Vec::new(),
        fresh: Fresh(0),
        new,
        flavour,
    };
    let mut pre = Vec::new();
    if flavour == Flavour::Audit {
        pre.extend(syntax_preconditions(world, action, &l));
    }
    for check in &action.checks {
        if check.when.is_some_and(|r| !bound[r]) || check.unless.is_some_and(|r| bound[r]) {
            continue;
        }
        pre.push(l.test(&check.test));
    }
    if flavour == Flavour::Planning {
        pre.extend(planning_preconditions(world, action, &l));
        pre = pre.into_iter().map(has_contents_axiom).collect();
    }
    for effect in &action.effects {
        if effect.when.is_some_and(|r| !bound[r]) {
            continue;
        }
        match &effect.condition {
            Some(t) => {
                let cond = l.test(t);
                let cond = l.now(&cond);
                let before = l.writes.len();
                l.primitive(&effect.primitive);
                for w in &mut l.writes[before..] {
                    w.condition = and(vec![cond.clone(), w.condition.clone()]);
                }
            }
            None => l.primitive(&effect.primitive),
        }
    }
    let effects = ir::effects(&l.writes);
    PAction {
        name: ir::name(&variant_name(action, bound)),
        parameters: ir::typed_vars(&params),
        vars: Vec::new(),
        precondition: Some(ir::gd(&and(pre))),
        effect: Some(ir::effect(crate::ast::EffectKind::And { args: effects })),
        span: ir::span(),
    }
}

/// Planning flavour: `(exists (?i) (in ?i c))` in a precondition becomes the derived
/// `(has-contents c)`. Fast Downward grounds an existential precondition as one more parameter,
/// which made one copy of SQUEEZE (and its conditional effects) per possible content.
fn has_contents_axiom(f: F) -> F {
    match f {
        F::Exists(vars, body) => match (vars.as_slice(), body.as_ref()) {
            ([(i, ty)], F::Atom(p, args))
                if ty == OBJ
                    && p == "in"
                    && matches!(&args[..], [T::Var(x), c] if x == i && *c != T::Var(i.clone())) =>
            {
                atom("has-contents", vec![args[1].clone()])
            }
            _ => F::Exists(vars, Box::new(has_contents_axiom(*body))),
        },
        F::Not(x) => F::Not(Box::new(has_contents_axiom(*x))),
        F::And(xs) => F::And(xs.into_iter().map(has_contents_axiom).collect()),
        F::Or(xs) => F::Or(xs.into_iter().map(has_contents_axiom).collect()),
        F::Forall(vars, body) => F::Forall(vars, Box::new(has_contents_axiom(*body))),
        other => other,
    }
}

/// Audit flavour: Simmer's syntax checks on the bound objects, which record a failure and
/// still run the handler (quirk Q6): every object named exists (value and name roles aside),
/// and no object is bound to two roles (value roles aside).
fn syntax_preconditions(world: &World, action: &Action, l: &Lowering) -> Vec<F> {
    let bound: Vec<(usize, T)> = (0..action.roles.len())
        .filter_map(|i| l.r(i).map(|t| (i, t)))
        .collect();
    let mut out = Vec::new();
    for (i, t) in &bound {
        if !world.is_name_role(&action.roles[*i].name) {
            out.push(atom("present", vec![t.clone()]));
        }
    }
    for (n, (_, t)) in bound.iter().enumerate() {
        for (_, u) in &bound[n + 1..] {
            out.push(not(eq(t, u)));
        }
    }
    out
}

/// Whether an unsatisfied precondition that `validate` reports is one of
/// [`syntax_preconditions`]: `(present x)` or `(not (= x y))`. Simmer reports these as syntax
/// failures, the others as immediate ones.
pub fn is_syntax_condition(condition: &str) -> bool {
    condition.starts_with("(present ") || condition.starts_with("(not (= ")
}

/// The tightenings of the planning flavour (docs/kitchen.md lists and explains each).
fn planning_preconditions(world: &World, action: &Action, l: &Lowering) -> Vec<F> {
    let bound: Vec<(usize, T)> = (0..action.roles.len())
        .filter_map(|i| l.r(i).map(|t| (i, t)))
        .collect();
    let name_role = |i: usize| world.is_name_role(&action.roles[i].name);
    // 1, 2. Every object named exists (a product name must not exist yet, see 6), and no two
    // roles name the same object: Simmer's syntax checks, preconditions in both flavours.
    let mut out = syntax_preconditions(world, action, l);
    for (i, t) in &bound {
        // 3. Nothing served is touched again: serving is final.
        out.push(not(atom("is", vec![t.clone(), status("served")])));
        // Nothing inside a closed container is touched: the fridge is opened first (Simmer
        // lets one grab the lettuce through the closed fridge door).
        if !name_role(*i) {
            out.push(not(atom("enclosed", vec![t.clone()])));
            // What went into a dish is not touched again: the egg is broken before it is
            // combined, not after.
            out.push(not(atom("combined", vec![t.clone()])));
        }
        // 4. Boards, tools and vessels are used clean; uncontaminated too, unless the action
        // sterilises them (the pan the raw sausage is fried in).
        let sterilised = action.effects.iter().any(
            |e| matches!(e.primitive, Primitive::Sterilise(r) | Primitive::ClearContam(r) if r == *i),
        );
        if CLEAN_ROLES.contains(&action.roles[*i].name.as_str()) {
            out.push(not(atom("is", vec![t.clone(), status("dirty")])));
        }
        if CLEAN_ROLES.contains(&action.roles[*i].name.as_str()) && !sterilised {
            let s = format!("s{i}");
            out.push(not(exists(
                vec![obj_var(&s)],
                atom("contam", vec![t.clone(), T::Var(s.clone())]),
            )));
        }
        // 5. Roles that name a kind of object take only objects of that kind.
        let role = action.roles[*i].name.as_str();
        match role_filter(role) {
            // A `container` role (COMBINE's, TAKE_OUT's) takes any vessel: COMBINE is done
            // in bowls and pans, which are receptacles.
            Some(RoleFilter::Property) if role == "container" => out.push(or(vec![
                atom("has", vec![t.clone(), prop("receptacle")]),
                atom("has", vec![t.clone(), prop("container")]),
            ])),
            Some(RoleFilter::Property) => out.push(atom("has", vec![t.clone(), prop(role)])),
            Some(RoleFilter::Class) => out.push(atom(&class_predicate(role), vec![t.clone()])),
            None => {}
        }
        // 6. A COMBINE product is a spare that does not exist yet.
        if name_role(*i) {
            out.push(atom("spare", vec![t.clone()]));
            out.push(not(atom("present", vec![t.clone()])));
            // The goal's dish is made in the container the goal names.
            let container = action.effects.iter().find_map(|e| match &e.primitive {
                Primitive::CombineAs(c, _, _) => l.r(*c),
                _ => None,
            });
            if let Some(c) = container {
                out.push(or(vec![
                    not(atom("dish", vec![t.clone()])),
                    atom("dish-in", vec![t.clone(), c]),
                ]));
            }
        }
    }
    // 7. A created object is a spare made for this parent and kind, not yet used.
    if let Some(new) = &l.new {
        out.push(not(atom("present", vec![new.clone()])));
        let parent = action.effects.iter().find_map(|e| match &e.primitive {
            Primitive::Derive(x, _)
            | Primitive::Byproduct(x, _)
            | Primitive::GrateInto(x, _, _) => l.r(*x),
            _ => None,
        });
        let kind = derivative_kind(action).unwrap_or_default();
        match parent {
            Some(p) => out.push(atom("spare-of", vec![new.clone(), p, kind_const(kind)])),
            None => out.push(atom("spare-product", vec![new.clone(), kind_const(kind)])),
        }
    }
    // 8. Only vessels (receptacles, containers) take contents: DRIZZLE, PRESS, POUR and the
    // like put nothing into a potato. Simmer lets DRIZZLE give any object contents, which
    // left every object a possible SQUEEZE source for the grounder.
    for e in &action.effects {
        let vessel = match &e.primitive {
            Primitive::MoveInto(_, c)
            | Primitive::PourInto(_, c)
            | Primitive::MoveContents(_, c)
            | Primitive::Fill(c, _) => l.r(*c),
            _ => None,
        };
        if let Some(v) = vessel {
            // … and is open, if it opens (Simmer lets PUT_IN go through the oven door).
            out.push(not(atom("is", vec![v.clone(), status("closed")])));
            // Storage (the pantry, the fridge) takes what is put in, not what is poured.
            if !matches!(e.primitive, Primitive::MoveInto(..)) {
                out.push(not(atom("storage", vec![v.clone()])));
            }
            out.push(or(vec![
                atom("has", vec![v.clone(), prop("receptacle")]),
                atom("has", vec![v, prop("container")]),
            ]));
        }
    }
    // 9. Fixtures stay put and are no workbench: what an action places or moves into
    // something, what contents are poured out of, and the COMBINE container are grabbable (no
    // cabinet carried onto the stove to boil a potato in it, no fridge emptied into a bowl,
    // nothing combined in the pantry).
    for e in &action.effects {
        if let Primitive::PlaceOn(x, _)
        | Primitive::MoveInto(x, _)
        | Primitive::PourInto(x, _)
        | Primitive::MoveContents(x, _)
        | Primitive::CombineAs(x, _, _) = &e.primitive
            && let Some(x) = l.r(*x)
        {
            out.push(atom("has", vec![x, prop("grabbable")]));
        }
        // FILL draws from a tap or a vessel, not from the sink (which would enter the contents
        // and pass its states to a COMBINE product).
        if let Primitive::Fill(_, x) = &e.primitive
            && let Some(x) = l.r(*x)
        {
            out.push(or(vec![
                atom("has", vec![x.clone(), prop("fillable_source")]),
                atom("has", vec![x, prop("grabbable")]),
            ]));
        }
        // What is poured, drizzled or pressed into something is a liquid or a vessel (whose
        // contents go): a solid "drizzled" or "pressed" into a bowl would enter its contents
        // while staying where it lies.
        if let Primitive::PourInto(x, _) = &e.primitive
            && let Some(x) = l.r(*x)
        {
            // … and is held: PRESS, which holds its tool, moves nothing into a target.
            out.push(atom("held", vec![x.clone()]));
            out.push(or(vec![
                atom("has", vec![x.clone(), prop("pourable")]),
                atom("has", vec![x, prop("receptacle")]),
            ]));
        }
        // What FILL fills is a vessel one can carry (a pot, a glass), not a fixture: no
        // bowl "poured" into the fridge to stand in it.
        if let Primitive::Fill(v, _) = &e.primitive
            && let Some(v) = l.r(*v)
        {
            out.push(atom("has", vec![v, prop("grabbable")]));
        }
    }
    // A dish is made of food: no knife or bowl put into the container (to free the hand)
    // ends up combined into the product.
    for e in &action.effects {
        if let Primitive::CombineAs(c, _, _) = &e.primitive
            && let Some(c) = l.r(*c)
        {
            let i = T::var("i");
            out.push(not(exists(
                vec![obj_var("i")],
                and(vec![
                    atom("in", vec![i.clone(), c]),
                    or(["tool", "receptacle", "container"]
                        .iter()
                        .map(|p| atom("has", vec![i.clone(), prop(p)]))
                        .collect()),
                ]),
            )));
        }
    }
    // 10. Appliances do what they are for: an `appliance` role takes something switched on and
    // off (no baking in the fridge, which Simmer counts as "on"), and a cooking action's
    // appliance is a heat source (an oven, not a blender).
    for (i, t) in &bound {
        if action.roles[*i].name == "appliance" {
            out.push(atom("has", vec![t.clone(), prop("switchable")]));
            if action.transforms.as_deref() == Some("cooking") {
                out.push(atom("has", vec![t.clone(), prop("heatsource")]));
            }
        }
    }
    // 11. Food is served onto a dish one can carry (a plate, a bowl) or a surface that is not
    // a heat source (the counter): not into the cabinet or onto the stove.
    let served: Vec<usize> = action
        .effects
        .iter()
        .filter_map(|e| match &e.primitive {
            Primitive::AddState(x, s) if s == "served" => Some(*x),
            _ => None,
        })
        .collect();
    // 12. Only what the task serves is served (no ingredient "served" to put it down).
    for x in &served {
        if let Some(x) = l.r(*x) {
            out.push(atom("to-serve", vec![x]));
        }
    }
    for e in &action.effects {
        if let Primitive::PlaceOn(x, t) = &e.primitive
            && served.contains(x)
            && let Some(t) = l.r(*t)
        {
            out.push(or(vec![
                atom("has", vec![t.clone(), prop("grabbable")]),
                and(vec![
                    atom("has", vec![t.clone(), prop("surface")]),
                    not(atom("has", vec![t, prop("heatsource")])),
                ]),
            ]));
        }
    }
    out
}

/// The objects a plan may create that may become contamination sources: COMBINE products and
/// creations without a parent (they unite their ingredients' properties), and derivatives too
/// when some creation can give one a source property.
pub fn spares_that_may_be_sources<'s>(world: &World, spares: &'s [Spare]) -> Vec<&'s Spare> {
    let source_properties = &world.config.contamination.source_properties;
    let derivatives = world.actions.values().any(|a| {
        a.effects.iter().any(|e| match &e.primitive {
            Primitive::Derive(_, c)
            | Primitive::Byproduct(_, c)
            | Primitive::Product(_, c)
            | Primitive::GrateInto(_, _, c) => source_properties
                .iter()
                .any(|p| c.properties.contains(p) || c.inherit.contains(p)),
            _ => false,
        })
    });
    spares
        .iter()
        .filter(|s| s.parent.is_none() || derivatives)
        .collect()
}

/// The constant naming a kind of derivative or product.
pub fn kind_const(kind: &str) -> T {
    T::Const(format!("k-{kind}"))
}

fn skeleton(name: &str, params: &[(&str, &str)]) -> AtomicSkeleton {
    AtomicSkeleton {
        name: ir::name(name),
        parameters: params
            .iter()
            .map(|(v, t)| Typed {
                item: ir::var(v),
                ty: Some(Type::Name(ir::name(t))),
            })
            .collect(),
        span: ir::span(),
    }
}

fn typed_names(names: &[String], ty: &str) -> Vec<Typed<crate::ast::Name>> {
    names
        .iter()
        .map(|n| Typed {
            item: ir::name(n),
            ty: Some(Type::Name(ir::name(ty))),
        })
        .collect()
}

/// Every kind of derivative or product the actions make.
fn kinds(world: &World) -> BTreeSet<String> {
    world
        .actions
        .values()
        .filter_map(|a| derivative_kind(a).map(str::to_string))
        .collect()
}

/// The food audit's object filter (semantics §8.1) as a formula on `?o`. In the planning
/// flavour the storage rule does not hide contamination (`storage` false).
fn skipped(rule: &SkipRuleDef, o: &T, storage: bool) -> F {
    let mut parts = Vec::new();
    if !rule.any_property.is_empty() {
        parts.push(or(rule
            .any_property
            .iter()
            .map(|p| atom("has", vec![o.clone(), prop(p)]))
            .collect()));
    }
    if !rule.no_property.is_empty() {
        parts.push(not(or(rule
            .no_property
            .iter()
            .map(|p| atom("has", vec![o.clone(), prop(p)]))
            .collect())));
    }
    if !rule.only_properties.is_empty() {
        let p = T::var("p");
        parts.push(F::Forall(
            vec![("p".into(), PROPERTY.into())],
            Box::new(or(vec![
                not(atom("has", vec![o.clone(), p.clone()])),
                or(rule
                    .only_properties
                    .iter()
                    .map(|q| eq(&p, &prop(q)))
                    .collect()),
            ])),
        ));
    }
    if !rule.located_in.is_empty() {
        if !storage {
            return F::False;
        }
        parts.push(exists(
            vec![("l".into(), PLACE.into())],
            and(vec![
                atom("loc", vec![o.clone(), T::var("l")]),
                atom("storage", vec![T::var("l")]),
            ]),
        ));
    }
    and(parts)
}

fn derived(name: &str, params: &[(&str, &str)], body: F) -> Structure {
    Structure::Derived(Derived {
        predicate: skeleton(name, params),
        body: ir::gd(&body),
        span: ir::span(),
    })
}

/// The audit's derived predicates: `audited`, `cooked-like`, `contaminated`, `unwashed`.
fn audit_rules(world: &World, flavour: Flavour) -> Vec<Structure> {
    let fa = &world.config.food_audit;
    let o = T::var("o");
    let rules = |storage: bool| {
        and(vec![
            atom("present", vec![o.clone()]),
            not(or(fa
                .skip
                .iter()
                .map(|r| skipped(r, &o, storage))
                .collect())),
        ])
    };
    let cooked_like = or(fa
        .cooked_states
        .iter()
        .map(|s| atom("is", vec![o.clone(), status(s)]))
        .collect());
    let planning = flavour == Flavour::Planning;
    vec![
        derived("audited", &[("o", OBJ)], rules(true)),
        derived("audited-anywhere", &[("o", OBJ)], rules(!planning)),
        derived("cooked-like", &[("o", OBJ)], cooked_like),
        derived(
            "contaminated",
            &[("o", OBJ), ("s", OBJ)],
            and(vec![
                atom("audited-anywhere", vec![o.clone()]),
                atom("contam", vec![o.clone(), T::var("s")]),
                not(eq(&o, &T::var("s"))),
                not(atom("cooked-like", vec![o.clone()])),
            ]),
        ),
        derived(
            "unwashed",
            &[("o", OBJ)],
            and(vec![
                atom("audited", vec![o.clone()]),
                atom("is", vec![o.clone(), status("dirty")]),
                not(and(vec![
                    atom("is", vec![o.clone(), status("cooked")]),
                    atom("has", vec![o.clone(), prop("protein")]),
                ])),
            ]),
        ),
    ]
}

/// The domain: types, the vocabulary as constants, predicates, the audit's derived predicates
/// and one action per action variant.
pub fn domain(world: &World, flavour: Flavour) -> Domain {
    let v = Vocabulary::of(world);
    let mut requirements: Vec<crate::ast::Name> = [
        ":strips",
        ":typing",
        ":negative-preconditions",
        ":equality",
        ":disjunctive-preconditions",
        ":existential-preconditions",
        ":universal-preconditions",
        ":conditional-effects",
        ":derived-predicates",
    ]
    .iter()
    .map(|r| ir::name(r))
    .collect();
    requirements.dedup();
    let types = vec![
        Typed {
            item: ir::name(OBJ),
            ty: Some(Type::Name(ir::name(PLACE))),
        },
        Typed {
            item: ir::name(PLACE),
            ty: None,
        },
        Typed {
            item: ir::name(PROPERTY),
            ty: None,
        },
        Typed {
            item: ir::name(STATUS),
            ty: None,
        },
        Typed {
            item: ir::name("kind"),
            ty: None,
        },
    ];
    let mut constants = typed_names(
        &v.properties
            .iter()
            .map(|p| format!("p-{p}"))
            .collect::<Vec<_>>(),
        PROPERTY,
    );
    constants.extend(typed_names(
        &v.states
            .iter()
            .map(|s| format!("s-{s}"))
            .collect::<Vec<_>>(),
        STATUS,
    ));
    constants.extend(typed_names(
        &LITERAL_PLACES
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
        PLACE,
    ));
    constants.extend(typed_names(
        &kinds(world)
            .iter()
            .map(|k| format!("k-{k}"))
            .collect::<Vec<_>>(),
        "kind",
    ));
    let mut predicates = vec![
        skeleton("present", &[("o", OBJ)]),
        skeleton("has", &[("o", OBJ), ("p", PROPERTY)]),
        skeleton("is", &[("o", OBJ), ("s", STATUS)]),
        skeleton("loc", &[("o", OBJ), ("l", PLACE)]),
        skeleton("in", &[("o", OBJ), ("c", OBJ)]),
        skeleton("held", &[("o", OBJ)]),
        skeleton("hands", &[("s", OBJ)]),
        skeleton("contam", &[("o", OBJ), ("s", OBJ)]),
        skeleton("resolves", &[("l", PLACE), ("o", OBJ)]),
        skeleton("storage", &[("l", PLACE)]),
        skeleton("source-excluded", &[("o", OBJ)]),
        skeleton("spare", &[("o", OBJ)]),
        skeleton("spare-of", &[("o", OBJ), ("x", OBJ), ("k", "kind")]),
        skeleton("spare-product", &[("o", OBJ), ("k", "kind")]),
        skeleton("audited", &[("o", OBJ)]),
        skeleton("audited-anywhere", &[("o", OBJ)]),
        skeleton("cooked-like", &[("o", OBJ)]),
        skeleton("contaminated", &[("o", OBJ), ("s", OBJ)]),
        skeleton("unwashed", &[("o", OBJ)]),
    ];
    for f in &world.config.agent.flags {
        predicates.push(skeleton(&flag(f), &[]));
    }
    if flavour == Flavour::Planning {
        predicates.push(skeleton("may-source", &[("o", OBJ)]));
        predicates.push(skeleton("has-contents", &[("c", OBJ)]));
        predicates.push(skeleton("enclosed", &[("o", OBJ)]));
        predicates.push(skeleton("combined", &[("o", OBJ)]));
        predicates.push(skeleton("dish", &[("o", OBJ)]));
        predicates.push(skeleton("dish-in", &[("o", OBJ), ("c", OBJ)]));
        predicates.push(skeleton("part-of", &[("i", OBJ), ("p", OBJ)]));
        predicates.push(skeleton("own-state", &[("s", STATUS)]));
        predicates.push(skeleton("to-serve", &[("o", OBJ)]));
        for (role, filter) in ROLE_FILTERS {
            if *filter == RoleFilter::Class {
                predicates.push(skeleton(&class_predicate(role), &[("o", OBJ)]));
            }
        }
    }
    for (kind, text) in &v.id_tests {
        predicates.push(skeleton(&id_test_predicate(kind, text), &[("o", OBJ)]));
    }
    let mut structures = Vec::new();
    for action in world.actions.values().filter(|a| a.handled) {
        for bound in variants(action) {
            structures.push(Structure::Action(lower_action(
                world, action, &bound, flavour,
            )));
        }
    }
    if flavour == Flavour::Audit {
        for level in &IN_LEVELS[1..] {
            predicates.push(skeleton(level, &[("o", OBJ), ("c", OBJ)]));
        }
        // The stand-in for a plan step the domain cannot express: it always fails.
        predicates.push(skeleton("expressible-step", &[]));
        structures.push(Structure::Action(PAction {
            name: ir::name(translate::UNEXPRESSIBLE),
            parameters: Vec::new(),
            vars: Vec::new(),
            precondition: Some(ir::gd(&atom("expressible-step", vec![]))),
            effect: Some(ir::effect(crate::ast::EffectKind::And { args: Vec::new() })),
            span: ir::span(),
        }));
    }
    structures.extend(audit_rules(world, flavour));
    if flavour == Flavour::Planning {
        structures.push(derived(
            "has-contents",
            &[("c", OBJ)],
            exists(
                vec![obj_var("i")],
                atom("in", vec![T::var("i"), T::var("c")]),
            ),
        ));
        structures.push(derived(
            "combined",
            &[("o", OBJ)],
            exists(
                vec![obj_var("p")],
                atom("part-of", vec![T::var("o"), T::var("p")]),
            ),
        ));
        structures.push(derived(
            "enclosed",
            &[("o", OBJ)],
            exists(
                vec![obj_var("c")],
                and(vec![
                    atom("in", vec![T::var("o"), T::var("c")]),
                    atom("is", vec![T::var("c"), status("closed")]),
                ]),
            ),
        ));
    }
    Domain {
        name: ir::name(match flavour {
            Flavour::Audit => "kitchen-audit",
            Flavour::Planning => "kitchen-planning",
        }),
        requirements,
        types,
        constants,
        predicates,
        functions: Vec::new(),
        constraints: None,
        structures,
        span: ir::span(),
    }
}

/// The default pool of spares for a task: one derivative per cuttable object and cutting kind,
/// one peel and one grated per object with those properties, one of each product, and the
/// COMBINE products the goal names.
pub fn default_spares(world: &World, env: &Env, goal: Option<&TaskGoal>) -> Vec<Spare> {
    let mut out: Vec<Spare> = Vec::new();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut push = |out: &mut Vec<Spare>, base: String, parent: Option<(String, String)>| {
        let n = counts.entry(base.clone()).or_insert(0);
        *n += 1;
        out.push(Spare {
            id: format!("{base}_{n}"),
            name: base,
            parent,
        });
    };
    let needed: BTreeSet<(String, String)> = goal
        .map(|g| g.derivatives_in(world))
        .unwrap_or_default()
        .into_iter()
        .collect();
    for o in &env.objects {
        for action in world.actions.values() {
            if !creates(action) {
                continue;
            }
            let Some(kind) = derivative_kind(action) else {
                continue;
            };
            let is_product = action
                .effects
                .iter()
                .any(|e| matches!(e.primitive, Primitive::Product(..)));
            if is_product {
                continue;
            }
            if needed.contains(&(o.id.clone(), action.name.clone())) {
                push(
                    &mut out,
                    format!("{}_{kind}", o.name),
                    Some((o.id.clone(), kind.to_string())),
                );
            }
        }
    }
    if let Some(g) = goal {
        for d in g.products() {
            out.push(Spare {
                id: d.clone(),
                name: goal::class_of(&d),
                parent: None,
            });
        }
    }
    out
}

/// The planning flavour's environment: the objects the goal names, the tools to work them
/// (heat sources that are surfaces, heatable receptacles, the tap and sink, a board and sharp
/// tools when the goal needs a derivative, the counter) and, transitively, the objects they are
/// stored in. Other objects stay where they are in Simmer's run, untouched by the plan.
pub fn relevant_env(world: &World, env: &Env, goal: &TaskGoal) -> Env {
    let has = |o: &super::simmer::EnvObject, p: &str| o.properties.iter().any(|x| x == p);
    let mut keep: BTreeSet<String> = goal.objects().into_iter().collect();
    let storage: Vec<&String> = world
        .config
        .food_audit
        .skip
        .iter()
        .flat_map(|r| r.located_in.iter())
        .collect();
    let hazards = &world.config.appliance_audit.hazards;
    // What the actions that give the goal's states need in a vessel's contents: the oil FRY
    // tests for when the goal asks for something fried.
    let wanted: BTreeSet<&String> = goal
        .ingredient
        .iter()
        .chain(&goal.states)
        .flat_map(|i| &i.states)
        .chain(goal.dish.iter().flat_map(|d| &d.states))
        .collect();
    let giving: Vec<&Action> = world
        .actions
        .values()
        .filter(|a| {
            a.effects
                .iter()
                .any(|e| matches!(&e.primitive, Primitive::AddState(_, s) if wanted.contains(s)))
        })
        .collect();
    // A board and knives when the goal names a derivative or a state only cutting gives
    // (`chopped`).
    let cutting = !goal.derivatives_in(world).is_empty()
        || giving
            .iter()
            .any(|a| a.transforms.as_deref() == Some("cutting"));
    let needed: BTreeSet<&str> = giving
        .iter()
        .flat_map(|a| &a.checks)
        .filter_map(|c| match &c.test {
            Test::ContentsIdContains(_, v) => Some(v.as_str()),
            _ => None,
        })
        .collect();
    for o in &env.objects {
        let tool = (has(o, "heatsource") && has(o, "surface"))
            || needed.iter().any(|v| class_fits(&o.name, v))
            || (has(o, "receptacle") && has(o, "heatable"))
            || class_fits(&o.name, "water")
            || o.name == "sink"
            || o.name == "counter"
            || (cutting && (o.name == "cutting_board" || has(o, "sharp")));
        // Objects that fail the audits as they stand (dirty food out of storage, such as the
        // two potatoes beside the one the recipe names, or an appliance left on): the plan
        // must deal with them too.
        let in_storage = o
            .location
            .as_deref()
            .is_some_and(|l| storage.iter().any(|s| s.as_str() == strip_number(l)));
        let fails_audit = (!in_storage && o.states.iter().any(|s| s == "dirty"))
            || hazards
                .iter()
                .any(|h| h.names.contains(&o.name) && o.states.contains(&h.state));
        if tool || fails_audit {
            keep.insert(o.id.clone());
        }
    }
    let ids: BTreeSet<&str> = env.objects.iter().map(|o| o.id.as_str()).collect();
    loop {
        let before = keep.len();
        for o in &env.objects {
            if !keep.contains(&o.id) {
                continue;
            }
            if let Some(l) = &o.location {
                for c in [l.clone(), format!("{l}_1")] {
                    if ids.contains(c.as_str()) {
                        keep.insert(c);
                    }
                }
            }
        }
        if keep.len() == before {
            break;
        }
    }
    Env {
        objects: env
            .objects
            .iter()
            .filter(|o| keep.contains(&o.id))
            .cloned()
            .collect(),
    }
}

/// The static id-test atoms (`(id-contains-oil x)`) of the object named `name` in PDDL whose
/// Simmer id is `id`.
fn id_test_atoms(v: &Vocabulary, name: &str, id: &str) -> Vec<Init> {
    v.id_tests
        .iter()
        .filter(|(kind, text)| match kind.as_str() {
            "starts" => id.starts_with(text.as_str()),
            _ => id.contains(text.as_str()),
        })
        .map(|(kind, text)| init_atom(&id_test_predicate(kind, text), &[name]))
        .collect()
}

fn init_atom(p: &str, args: &[&str]) -> Init {
    Init {
        kind: InitKind::Atom(ir::ast_atom(
            p,
            &args.iter().map(|a| T::c(a)).collect::<Vec<_>>(),
        )),
        span: ir::span(),
    }
}

fn strip_number(place: &str) -> &str {
    place.trim_end_matches(|c: char| c == '_' || c.is_ascii_digit())
}

/// The problem of a task: the environment's objects and spares, the initial state, and the goal
/// (the task's goal when given, and the audits).
pub fn problem(
    world: &World,
    env: &Env,
    goal: Option<&TaskGoal>,
    name: &str,
    options: &Options,
) -> Problem {
    let relevant;
    let env = match (options.flavour, goal) {
        (Flavour::Planning, Some(g)) => {
            relevant = relevant_env(world, env, g);
            &relevant
        }
        _ => env,
    };
    let v = Vocabulary::of(world);
    let mut spares = default_spares(world, env, goal);
    for s in &options.spares {
        if !spares.iter().any(|x| x.id == s.id) {
            spares.push(s.clone());
        }
    }
    let ids: BTreeSet<&str> = env.objects.iter().map(|o| o.id.as_str()).collect();
    spares.retain(|s| !ids.contains(s.id.as_str()));
    let mut places: BTreeSet<String> = BTreeSet::new();
    for o in &env.objects {
        if let Some(l) = &o.location
            && !ids.contains(l.as_str())
            && !LITERAL_PLACES.contains(&l.as_str())
        {
            places.insert(l.clone());
        }
    }
    let mut extra_props: BTreeSet<String> = BTreeSet::new();
    let mut extra_states: BTreeSet<String> = BTreeSet::new();
    for o in &env.objects {
        extra_props.extend(
            o.properties
                .iter()
                .filter(|p| !v.properties.contains(*p))
                .cloned(),
        );
        extra_states.extend(o.states.iter().filter(|s| !v.states.contains(*s)).cloned());
    }
    let mut objects = typed_names(
        &env.objects.iter().map(|o| o.id.clone()).collect::<Vec<_>>(),
        OBJ,
    );
    objects.extend(typed_names(
        &spares.iter().map(|s| s.id.clone()).collect::<Vec<_>>(),
        OBJ,
    ));
    let phantoms: Vec<&String> = options
        .phantoms
        .iter()
        .filter(|id| !ids.contains(id.as_str()) && !spares.iter().any(|s| &s.id == *id))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    objects.extend(typed_names(
        &phantoms
            .iter()
            .map(|id| phantom_name(id))
            .collect::<Vec<_>>(),
        OBJ,
    ));
    objects.extend(typed_names(
        &places.iter().cloned().collect::<Vec<_>>(),
        PLACE,
    ));
    objects.extend(typed_names(
        &extra_props
            .iter()
            .map(|p| format!("p-{p}"))
            .collect::<Vec<_>>(),
        PROPERTY,
    ));
    objects.extend(typed_names(
        &extra_states
            .iter()
            .map(|s| format!("s-{s}"))
            .collect::<Vec<_>>(),
        STATUS,
    ));
    let mut init = Vec::new();
    let excluded = &world.config.contamination.source_names_excluded;
    let storage: Vec<String> = world
        .config
        .food_audit
        .skip
        .iter()
        .flat_map(|r| r.located_in.iter().cloned())
        .collect();
    let all_ids: Vec<(String, String)> = env
        .objects
        .iter()
        .map(|o| (o.id.clone(), o.name.clone()))
        .chain(spares.iter().map(|s| (s.id.clone(), s.name.clone())))
        .collect();
    let board_in_kitchen = env
        .objects
        .iter()
        .any(|o| class_fits(&o.name, "cutting_board"));
    for (id, name) in &all_ids {
        if excluded.contains(name) {
            init.push(init_atom("source-excluded", &[id]));
        }
        init.extend(id_test_atoms(&v, id, id));
        if options.flavour == Flavour::Planning {
            for (role, filter) in ROLE_FILTERS {
                if *filter == RoleFilter::Class && class_fits(name, role) {
                    init.push(init_atom(&class_predicate(role), &[id]));
                }
            }
            // A kitchen without a cutting board cuts on the counter (Simmer only asks for the
            // object to lie on what the role names).
            if !board_in_kitchen
                && env.objects.iter().any(|o| {
                    &o.id == id
                        && o.properties.iter().any(|p| p == "surface")
                        && !o
                            .properties
                            .iter()
                            .any(|p| p == "heatsource" || p == "grabbable")
                })
            {
                init.push(init_atom(&class_predicate("cutting_board"), &[id]));
            }
        }
        // An object resolves to itself; `storage` by its id without trailing digits.
        init.push(init_atom("resolves", &[id, id]));
        if storage.iter().any(|s| s == strip_number(id)) {
            init.push(init_atom("storage", &[id]));
        }
    }
    // A phantom never exists: it has no properties or states, and the location it names
    // resolves as a place's does (`bowl` to `bowl_1`).
    for id in &phantoms {
        let name = phantom_name(id);
        init.extend(id_test_atoms(&v, &name, id));
        let target = format!("{id}_1");
        if all_ids.iter().any(|(i, _)| *i == target) {
            init.push(init_atom("resolves", &[&name, &target]));
        }
        if storage.iter().any(|s| s == strip_number(id)) {
            init.push(init_atom("storage", &[&name]));
        }
    }
    for place in places
        .iter()
        .map(String::as_str)
        .chain(LITERAL_PLACES.iter().copied())
    {
        let target = format!("{place}_1");
        if ids.contains(target.as_str()) {
            init.push(init_atom("resolves", &[place, &target]));
        }
        if storage.iter().any(|s| s == strip_number(place)) {
            init.push(init_atom("storage", &[place]));
        }
    }
    for o in &env.objects {
        init.push(init_atom("present", &[&o.id]));
        for p in &o.properties {
            init.push(init_atom("has", &[&o.id, &format!("p-{p}")]));
        }
        for s in &o.states {
            init.push(init_atom("is", &[&o.id, &format!("s-{s}")]));
        }
        if let Some(l) = &o.location {
            init.push(init_atom("loc", &[&o.id, l]));
            let c = format!("{l}_1");
            if c != o.id && ids.contains(c.as_str()) {
                init.push(init_atom("in", &[&o.id, &c]));
            }
        }
    }
    if options.flavour == Flavour::Planning {
        // The possible contamination sources: the task's protein objects that are not
        // excluded, and the COMBINE products (a product unites its ingredients' properties);
        // derivatives too when some creation can give them a source property.
        let source_properties = &world.config.contamination.source_properties;
        for o in &env.objects {
            if source_properties.iter().all(|p| o.properties.contains(p))
                && !excluded.contains(&o.name)
            {
                init.push(init_atom("may-source", &[&o.id]));
            }
        }
        for s in spares_that_may_be_sources(world, &spares) {
            init.push(init_atom("may-source", &[&s.id]));
        }
    }
    for s in &spares {
        init.push(init_atom("spare", &[&s.id]));
        if let Some((p, k)) = &s.parent {
            init.push(init_atom("spare-of", &[&s.id, p, &format!("k-{k}")]));
        }
    }
    // Dedup the init (an object may be its own place).
    let mut seen = BTreeSet::new();
    init.retain(|i| seen.insert(format!("{i:?}")));
    if options.flavour == Flavour::Planning
        && let Some(d) = goal.and_then(|g| g.dish.as_ref())
    {
        init.push(init_atom("dish", &[&d.name]));
        init.push(init_atom("dish-in", &[&d.name, &d.container]));
        for s in &d.states {
            init.push(init_atom("own-state", &[&format!("s-{s}")]));
        }
    }
    if options.flavour == Flavour::Planning
        && let Some(g) = goal
    {
        for o in g.dish.iter().map(|d| &d.name).chain(&g.serve) {
            init.push(init_atom("to-serve", &[o]));
        }
    }
    let goal_formula = goal::formula(world, env, goal, &spares, options.flavour);
    Problem {
        name: ir::name(name),
        domain: Some(ir::name(match options.flavour {
            Flavour::Audit => "kitchen-audit",
            Flavour::Planning => "kitchen-planning",
        })),
        requirements: Vec::new(),
        objects,
        init,
        goal: Some(ir::gd(&goal_formula)),
        constraints: None,
        metric: None,
        length: None,
        span: ir::span(),
    }
}
