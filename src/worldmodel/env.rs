//! [`Env`]: a task as an environment an agent steps through, one ground action at a time, with
//! the validator's semantics (`validate::validate` runs the same functions on a plan).

use crate::ast::Span;
use crate::ast::{Domain, Problem};
use crate::diagnostics::{Code, Diagnostic};
use crate::semantics::{Binding, Changes, Fact, Record, State, World};
use crate::validate::{self, Report, TaskFiles, text};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// A classical or numeric task as an environment: a state, the actions applicable in it, the
/// successor of an action, the goal test. Built once per task; stepping costs what validating
/// one step costs. An action that cannot be applied leaves the state unchanged and says why.
pub struct Env<'t> {
    problem: &'t Problem,
    world: World<'t>,
    initial: State,
    state: State,
    constraints: Vec<validate::StateConstraint>,
    operators: Vec<&'t crate::ast::Action>,
    /// Whether the domain has derived predicates (applying a step may then fail).
    has_derived: bool,
    steps: usize,
    /// Whether the goal holds in `state`: evaluated once per change of state.
    reached: bool,
    files: TaskFiles,
}

/// A state of an [`Env`], saved to come back to: [`Env::snapshot`], [`Env::restore`].
#[derive(Clone, Debug)]
pub struct Snapshot {
    state: State,
    steps: usize,
    reached: bool,
}

/// What one step did.
#[derive(Clone, Debug, Serialize)]
pub struct Transition {
    /// The ground action as `(name arg…)`, lower-case, when the text named one.
    pub action: Option<String>,
    /// Whether the action was applied; when not, the state is unchanged and `diagnostic` says
    /// why.
    pub applied: bool,
    /// Why the action was not applied: a `V3xx` diagnostic located in the action text (file
    /// `plan`) and, for a precondition, on the domain's condition.
    pub diagnostic: Option<Diagnostic>,
    /// The ground preconditions that are false, when that is why.
    pub unsatisfied: Vec<String>,
    /// What changed (nothing when not applied).
    pub change: Change,
    /// Whether the goal holds in the state after the step.
    pub goal_reached: bool,
}

/// The difference between two states: atoms made true and false, and fluents whose value
/// changed (`before` is `None` for a fluent that had no value). Derived atoms are not listed:
/// they follow from the others.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Change {
    pub added: Vec<String>,
    pub deleted: Vec<String>,
    pub numeric: Vec<NumericChange>,
}

impl Change {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.deleted.is_empty() && self.numeric.is_empty()
    }
}

/// A fluent's value before and after a step.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NumericChange {
    pub fluent: String,
    pub before: Option<f64>,
    pub after: f64,
}

impl<'t> Env<'t> {
    /// The environment of a task that `task::load` accepted (the front ends load it so).
    /// Temporal tasks (durative actions, processes, events, timed initial literals) and
    /// trajectory constraints are `V310`: an environment of single steps cannot run them.
    pub fn new(domain: &'t Domain, problem: &'t Problem) -> Result<Env<'t>, Diagnostic> {
        let unsupported = |what: &str| {
            Diagnostic::unlocated(
                Code::ValidateUnsupported,
                format!("the environment steps one action at a time; this task has {what}"),
            )
            .with_help("`pddlc validate` runs temporal plans and judges trajectory constraints")
        };
        if validate::is_temporal(domain, problem) {
            return Err(unsupported(
                "durative actions, processes, events or timed initial literals",
            ));
        }
        if problem.constraints.is_some() {
            return Err(unsupported(
                "trajectory constraints (`:constraints`), which judge whole plans",
            ));
        }
        let mut world = World::new(domain, problem);
        world.warm();
        let initial = world.initial_state().map_err(|e| {
            Diagnostic::unlocated(
                Code::EvaluationFailed,
                format!("the initial state cannot be built: {e}"),
            )
        })?;
        let mut env = Env {
            problem,
            world,
            state: initial.clone(),
            initial,
            constraints: validate::state_constraints(domain),
            operators: domain.actions().collect(),
            has_derived: domain
                .structures
                .iter()
                .any(|s| matches!(s, crate::ast::Structure::Derived(_))),
            steps: 0,
            reached: false,
            files: TaskFiles::default(),
        };
        env.reached = env.evaluate_goal();
        if let Some(diagnostic) = env.violated_constraint(None) {
            return Err(diagnostic);
        }
        Ok(env)
    }

    /// Sets which inputs the diagnostics' labels point into (the action text is `files.plan`).
    pub fn with_files(mut self, files: TaskFiles) -> Env<'t> {
        self.files = files;
        self
    }

    /// Back to the initial state.
    pub fn reset(&mut self) {
        self.state = self.initial.clone();
        self.steps = 0;
        self.reached = self.evaluate_goal();
    }

    /// The task's objects (and the domain's constants), as named in actions.
    pub fn objects(&self) -> &[String] {
        &self.world.objects
    }

    /// Actions applied since the last reset.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// The current state, to come back to.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            state: self.state.clone(),
            steps: self.steps,
            reached: self.reached,
        }
    }

    /// Goes back to a state saved by [`Env::snapshot`] of this environment.
    pub fn restore(&mut self, snapshot: &Snapshot) {
        self.state = snapshot.state.clone();
        self.steps = snapshot.steps;
        self.reached = snapshot.reached;
    }

    /// Applies `action`, written as a plan step (`(unstack a b)`; the parentheses may be left
    /// out). When it cannot be applied (unreadable, unknown, wrong arguments, a precondition
    /// false, a state constraint broken after it), the state stays as it was.
    pub fn step(&mut self, action: &str) -> Transition {
        let (step, changes) = match self.successor(action) {
            Ok(found) => found,
            Err(refusal) => {
                let (name, diagnostic, unsatisfied) = *refusal;
                return self.refused(name, diagnostic, unsatisfied);
            }
        };
        // Applying can fail only where values, derived atoms or state constraints are read
        // after the change: only then is the state kept to go back to.
        let fallible =
            !changes.updates.is_empty() || self.has_derived || !self.constraints.is_empty();
        let backup = fallible.then(|| self.state.clone());
        let prior = Prior::of(&self.state, &changes);
        let number = self.steps + 1;
        let refusal = match self.world.apply(&changes, &mut self.state) {
            Err(e) => Some(
                validate::evaluation_failure(&step, number, &e, self.files)
                    .diagnostic
                    .with_help("give the fluent a value in the problem's `:init`"),
            ),
            Ok(()) => self.violated_constraint(Some(&step)),
        };
        let name = step.text();
        if let Some(diagnostic) = refusal {
            if let Some(state) = backup {
                self.state = state;
            }
            return self.refused(Some(name), diagnostic, Vec::new());
        }
        self.steps += 1;
        self.reached = self.evaluate_goal();
        let change = self.difference(&prior, &changes);
        Transition {
            action: Some(name),
            applied: true,
            diagnostic: None,
            unsatisfied: Vec::new(),
            change,
            goal_reached: self.goal_reached(),
        }
    }

    fn refused(
        &self,
        action: Option<String>,
        diagnostic: Diagnostic,
        unsatisfied: Vec<String>,
    ) -> Transition {
        Transition {
            action,
            applied: false,
            diagnostic: Some(diagnostic),
            unsatisfied,
            change: Change::default(),
            goal_reached: self.goal_reached(),
        }
    }

    /// The ground action `text` names and the changes it makes in the current state, or why it
    /// cannot be applied (with the action's name when it has one, and the false preconditions).
    fn successor(&self, text: &str) -> Result<(text::Step, Changes), Refusal> {
        let step = self
            .read_step(text)
            .map_err(|d| Box::new((None, d, Vec::new())))?;
        let name = step.text();
        // Diagnostics number the step as the episode's next one.
        let number = self.steps + 1;
        let mut report = Report::new(1);
        let Some((action, objects)) =
            validate::ground(&self.world, &step, number, self.files, &mut report)
        else {
            return Err(Box::new((Some(name), first_diagnostic(report), Vec::new())));
        };
        let (mut binding, holds) = validate::bind_step(&self.world, action, &objects, &self.state);
        match holds {
            Ok(true) => {}
            Ok(false) => {
                let mut unmet = Vec::new();
                if let Some(pre) = &action.precondition {
                    self.world
                        .unsatisfied(pre, &mut binding, &self.state, &mut unmet);
                }
                let failure = validate::precondition_failure(&step, number, unmet, self.files);
                let atoms = failure.atoms.clone();
                return Err(Box::new((Some(name), failure.diagnostic, atoms)));
            }
            Err(e) => {
                let failure = validate::evaluation_failure(&step, number, &e, self.files);
                return Err(Box::new((Some(name), failure.diagnostic, Vec::new())));
            }
        }
        let mut record = Record::default();
        if let Some(effect) = &action.effect
            && let Err(e) = self
                .world
                .record(effect, &mut binding, &self.state, &mut record)
        {
            let failure = validate::evaluation_failure(&step, number, &e, self.files);
            return Err(Box::new((Some(name), failure.diagnostic, Vec::new())));
        }
        let mut changes = Changes::default();
        record.changes(&mut changes);
        Ok((step, changes))
    }

    /// One step of plan text; a text without `(` is read as if in parentheses.
    fn read_step(&self, text: &str) -> Result<text::Step, Diagnostic> {
        let bare = !text.contains('(');
        let wrapped;
        let source = if bare {
            wrapped = format!("({text})");
            wrapped.as_str()
        } else {
            text
        };
        let (mut steps, syntax) = text::parse(source);
        let plan = self.files.plan;
        let located = |d: Diagnostic| {
            let d = d.in_file(plan);
            if bare { unwrap_spans(d, text.len()) } else { d }
        };
        if let Some(first) = syntax.into_iter().next() {
            return Err(located(first));
        }
        match steps.len() {
            1 => {
                let mut step = steps.remove(0);
                if bare {
                    let back = |span: Span| {
                        let start = span.start.saturating_sub(1).min(text.len());
                        Span::new(start, span.end.saturating_sub(1).clamp(start, text.len()))
                    };
                    step.span = back(step.span);
                    step.action.span = back(step.action.span);
                    for arg in &mut step.args {
                        arg.span = back(arg.span);
                    }
                }
                Ok(step)
            }
            n => Err(Diagnostic::new(
                Code::PlanSyntax,
                if n == 0 {
                    "no action: an action is one `(name argument…)`".to_string()
                } else {
                    format!("{n} actions where one was expected")
                },
                Span::new(0, text.len()),
            )
            .in_file(plan)
            .with_help("step one action at a time, as `(name argument…)`")),
        }
    }

    /// The first state constraint of the domain the current state breaks, as a diagnostic.
    fn violated_constraint(&self, after: Option<&text::Step>) -> Option<Diagnostic> {
        if self.constraints.is_empty() {
            return None;
        }
        let mut report = Report::new(1);
        let at = after.map(|s| (self.steps + 1, s));
        let holds = validate::check_state_constraints(
            &self.world,
            &self.constraints,
            &self.state,
            at,
            self.files,
            &mut report,
        );
        (!holds || !report.failures.is_empty()).then(|| first_diagnostic(report))
    }

    /// Whether the goal holds now (a goal that cannot be evaluated does not).
    pub fn goal_reached(&self) -> bool {
        self.reached
    }

    fn evaluate_goal(&self) -> bool {
        match &self.problem.goal {
            None => true,
            Some(goal) => self
                .world
                .holds(goal, &mut Binding::default(), &self.state)
                .unwrap_or(false),
        }
    }

    /// The goal's atoms that are false now (none when the goal holds).
    pub fn unmet_goals(&self) -> Vec<String> {
        let Some(goal) = &self.problem.goal else {
            return Vec::new();
        };
        if self.goal_reached() {
            return Vec::new();
        }
        let mut unmet = Vec::new();
        self.world
            .unsatisfied(goal, &mut Binding::default(), &self.state, &mut unmet);
        unmet.into_iter().map(|(atom, _)| atom).collect()
    }

    /// The true atoms of the current state (derived ones excluded), as `(on a b)`, sorted.
    pub fn atoms(&self) -> Vec<String> {
        self.show_facts(&self.state.facts)
    }

    /// The true derived atoms of the current state, sorted.
    pub fn derived_atoms(&self) -> Vec<String> {
        self.show_facts(&self.state.derived)
    }

    fn show_facts<'f>(&self, facts: impl IntoIterator<Item = &'f Fact>) -> Vec<String> {
        let mut out: Vec<String> = facts.into_iter().map(|f| self.world.show_atom(f)).collect();
        out.sort();
        out
    }

    /// The fluents that have a value, as `(fuel t1)` → value, in order.
    pub fn fluents(&self) -> BTreeMap<String, f64> {
        self.state
            .values
            .iter()
            .map(|(f, v)| (self.world.show_value(f), *v))
            .collect()
    }

    /// The ground actions applicable now, as `(name arg…)`, sorted: their precondition holds
    /// and, in a domain with state constraints, the state after them keeps those. The same
    /// enumeration as `validate::applicable` (parameters bound one at a time, pruned by the
    /// precondition's atoms), so the cost follows the applicable actions rather than every
    /// combination of objects.
    pub fn applicable(&mut self) -> Vec<String> {
        let operators: Vec<validate::Operator> = self
            .operators
            .iter()
            .map(|action| validate::Operator::of_action(action))
            .collect();
        let mut found = validate::applicable_in(&mut self.world, &operators, &self.state);
        if !self.constraints.is_empty() {
            let saved = self.snapshot();
            found.retain(|action| {
                let applied = self.step(action).applied;
                self.restore(&saved);
                applied
            });
        }
        found.into_iter().collect()
    }

    /// What `changes` did, given what held before them.
    fn difference(&self, prior: &Prior, changes: &Changes) -> Change {
        let mut added: BTreeSet<String> = BTreeSet::new();
        let mut deleted: BTreeSet<String> = BTreeSet::new();
        let facts = changes.adds.iter().chain(&changes.deletes);
        for (fact, &was) in facts.zip(&prior.facts) {
            let is = self.state.facts.contains(fact);
            if is && !was {
                added.insert(self.world.show_atom(fact));
            } else if was && !is {
                deleted.insert(self.world.show_atom(fact));
            }
        }
        let mut numeric: BTreeMap<String, NumericChange> = BTreeMap::new();
        for ((_, fact, _), &was) in changes.updates.iter().zip(&prior.values) {
            let Some(&is) = self.state.values.get(fact) else {
                continue;
            };
            let fluent = self.world.show_value(fact);
            // A fluent updated twice keeps its first value before and its last after.
            let before = numeric.get(&fluent).map_or(was, |c| c.before);
            numeric.insert(
                fluent.clone(),
                NumericChange {
                    fluent,
                    before,
                    after: is,
                },
            );
        }
        numeric.retain(|_, c| c.before != Some(c.after));
        Change {
            added: added.into_iter().collect(),
            deleted: deleted.into_iter().collect(),
            numeric: numeric.into_values().collect(),
        }
    }
}

/// What held before a step of the facts and fluents its changes touch, in their order.
struct Prior {
    facts: Vec<bool>,
    values: Vec<Option<f64>>,
}

impl Prior {
    fn of(state: &State, changes: &Changes) -> Prior {
        Prior {
            facts: changes
                .adds
                .iter()
                .chain(&changes.deletes)
                .map(|f| state.facts.contains(f))
                .collect(),
            values: changes
                .updates
                .iter()
                .map(|(_, f, _)| state.values.get(f).copied())
                .collect(),
        }
    }
}

/// Why a step was refused: the action's name (when the text named one), the diagnostic, the
/// false preconditions.
type Refusal = Box<(Option<String>, Diagnostic, Vec<String>)>;

/// The first failure's diagnostic of a one-step report (one is always there when called).
fn first_diagnostic(report: Report) -> Diagnostic {
    report
        .failures
        .into_iter()
        .next()
        .map(|f| f.diagnostic)
        .unwrap_or_else(|| {
            Diagnostic::unlocated(Code::InternalError, "a step was refused without a reason")
        })
}

/// Labels in the action text of a diagnostic read from the text put in parentheses, moved back
/// onto the text as given (`len` bytes).
fn unwrap_spans(mut diagnostic: Diagnostic, len: usize) -> Diagnostic {
    for label in &mut diagnostic.labels {
        let start = label.span.start.saturating_sub(1).min(len);
        let end = label.span.end.saturating_sub(1).clamp(start, len);
        label.span = Span::new(start, end);
    }
    diagnostic
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOMAIN: &str = "(define (domain b) (:requirements :strips)
      (:predicates (on ?x ?y) (clear ?x) (table ?x) (holding ?x) (empty))
      (:action pick :parameters (?x) :precondition (and (clear ?x) (table ?x) (empty))
        :effect (and (holding ?x) (not (clear ?x)) (not (table ?x)) (not (empty))))
      (:action put :parameters (?x ?y) :precondition (and (holding ?x) (clear ?y))
        :effect (and (on ?x ?y) (clear ?x) (empty) (not (holding ?x)) (not (clear ?y)))))";
    const PROBLEM: &str = "(define (problem p) (:domain b) (:objects a c)
      (:init (clear a) (clear c) (table a) (table c) (empty)) (:goal (on a c)))";

    fn task() -> crate::task::Task {
        match crate::task::load(Some(DOMAIN), Some(PROBLEM), TaskFiles::default()) {
            Ok(task) => task,
            Err(d) => panic!("{d:?}"),
        }
    }

    #[test]
    fn steps_reach_the_goal_and_refusals_keep_the_state() {
        let task = task();
        let Ok(mut env) = Env::new(&task.domain, &task.problem) else {
            panic!("no env")
        };
        assert_eq!(env.applicable(), ["(pick a)", "(pick c)"]);
        let refused = env.step("(put a c)");
        assert!(!refused.applied);
        assert_eq!(refused.unsatisfied, ["(holding a)"]);
        assert_eq!(
            refused.diagnostic.map(|d| d.code),
            Some(Code::PreconditionUnsatisfied)
        );
        assert_eq!(env.steps(), 0);
        let picked = env.step("PICK a");
        assert!(picked.applied && !picked.goal_reached);
        assert_eq!(picked.change.added, ["(holding a)"]);
        assert_eq!(picked.change.deleted, ["(clear a)", "(empty)", "(table a)"]);
        let saved = env.snapshot();
        let put = env.step("(put a c)");
        assert!(put.applied && put.goal_reached && env.goal_reached());
        env.restore(&saved);
        assert_eq!(env.unmet_goals(), ["(on a c)"]);
        assert_eq!(env.steps(), 1);
        let unknown = env.step("(drop a)");
        assert_eq!(
            unknown.diagnostic.map(|d| d.code),
            Some(Code::UnknownAction)
        );
        let object = env.step("put a x");
        let diagnostic = object.diagnostic.expect("a diagnostic");
        assert_eq!(diagnostic.code, Code::UnknownObject);
        assert_eq!(diagnostic.labels[0].span, Span::new(6, 7));
        assert_eq!(
            env.step("").diagnostic.map(|d| d.code),
            Some(Code::PlanSyntax)
        );
        assert_eq!(
            env.step("(pick a) (pick c)").diagnostic.map(|d| d.code),
            Some(Code::PlanSyntax)
        );
        env.reset();
        assert_eq!(
            env.atoms(),
            [
                "(clear a)",
                "(clear c)",
                "(empty)",
                "(table a)",
                "(table c)"
            ]
        );
    }
}
