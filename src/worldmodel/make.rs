//! Evaluation items for LLM world models, generated from a task and a reference plan: next-state
//! items, verification items (the plan's suffixes, and mutations of them labelled by running
//! them), proposal items (the sets a model's top K is scored against) and planning items. Every
//! label comes from stepping the task in [`Env`], never from what a mutation is assumed to do.

use super::env::{Change, Env, Snapshot};
use crate::ast::{Domain, Problem, Span};
use crate::diagnostics::{Code, Diagnostic};
use crate::kitchen::SplitMix64;
use crate::solve::{self, Outcome};
use crate::validate::{TaskFiles, text};
use serde::Serialize;
use std::time::Duration;

/// How to make items.
#[derive(Clone, Debug)]
pub struct MakeOptions {
    /// Seeds every random choice (which step a mutation changes, which alternative action).
    pub seed: u64,
    /// The fractions ρ of the plan that verification and planning items leave to the model
    /// (the paper's 0.25, 0.5, 0.75 and 1.0).
    pub fractions: Vec<f64>,
    /// Proposal items need an optimal search from every state on the plan and from every
    /// successor of it: off, they are not made.
    pub proposals: bool,
    /// The time one search (`solve`) may take; a search that runs out leaves the sets it
    /// serves marked incomplete.
    pub search_time: Duration,
    /// The clock searches are timed on (the CLI passes CPU time); `None`: wall time.
    pub clock: Option<fn() -> Duration>,
}

impl Default for MakeOptions {
    fn default() -> Self {
        MakeOptions {
            seed: 0,
            fractions: vec![0.25, 0.5, 0.75, 1.0],
            proposals: true,
            search_time: Duration::from_secs(10),
            clock: None,
        }
    }
}

/// One item. `prefix` is always the reference plan's steps taken from the initial state to
/// the item's state, so the state can be rebuilt (`pddlc validate` on `prefix` reaches it);
/// `state` lists its true atoms.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Item {
    /// What `action` changes in `state`.
    NextState {
        id: String,
        prefix: Vec<String>,
        state: Vec<String>,
        action: String,
        /// Whether the action is the reference plan's next step (else an applicable
        /// alternative).
        on_plan: bool,
        change: Change,
    },
    /// Does `actions`, from `state`, reach the goal? `label` says what running them does.
    Verification {
        id: String,
        fraction: f64,
        prefix: Vec<String>,
        state: Vec<String>,
        actions: Vec<String>,
        /// `None` for the reference suffix, else the mutation and what it changed.
        mutation: Option<Mutation>,
        label: Label,
    },
    /// The sets a model's proposed actions in `state` are scored against.
    Proposal {
        id: String,
        prefix: Vec<String>,
        state: Vec<String>,
        reference: String,
        applicable: Vec<String>,
        /// Applicable actions after which the goal can still be reached; `None` when a search
        /// ran out of time.
        keeps_goal_reachable: Option<Vec<String>>,
        /// Applicable actions that start a plan of least cost from `state`; `None` when a
        /// search ran out of time.
        on_optimal_plan: Option<Vec<String>>,
        /// The least cost of a plan from `state`.
        optimal_cost: Option<u64>,
    },
    /// Plan from `state` (reached by `prefix`) to the goal.
    Planning {
        id: String,
        fraction: f64,
        prefix: Vec<String>,
        state: Vec<String>,
        unmet_goals: Vec<String>,
        /// The reference plan's remaining steps.
        reference: Vec<String>,
    },
}

/// How a verification item's actions were changed from the reference suffix.
#[derive(Clone, Debug, Serialize)]
pub struct Mutation {
    /// `drop_step`, `swap_steps`, `wrong_argument`, `hallucinated_object` or `dead_end`.
    pub kind: &'static str,
    /// What was changed, in words.
    pub detail: String,
}

/// What running a verification item's actions from its state does.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Label {
    /// Whether every action applies and the goal holds after the last.
    pub valid: bool,
    /// The first action (1-based among `actions`) that cannot be applied.
    pub failed_step: Option<usize>,
    /// The same step counted in the whole plan, `prefix` then `actions` (as `pddlc validate`
    /// numbers it).
    pub plan_step: Option<usize>,
    /// The code of why: the step's `V3xx`, or `V307` when every action applies and the goal
    /// does not hold.
    pub code: Option<Code>,
    pub reason: Option<String>,
    /// For a `dead_end` mutation: the action after which the goal cannot be reached any more.
    pub dead_end_step: Option<usize>,
}

/// The items of `domain` and `problem` around `plan` (IPC plan text), or a plan the built-in
/// planner finds when `plan` is `None`. Errors: the task cannot be an environment, the plan
/// does not reach the goal, no plan was found.
pub fn make(
    domain: &Domain,
    problem: &Problem,
    plan: Option<&str>,
    options: &MakeOptions,
) -> Result<Vec<Item>, Vec<Diagnostic>> {
    crate::parse::with_stack(|| {
        let mut env = Env::new(domain, problem).map_err(|d| vec![d])?;
        let plan = match plan {
            Some(text) => read_plan(&mut env, text)?,
            None => find_plan(domain, problem, options)?,
        };
        // The state after each of the plan's prefixes, saved once: items go back to them often.
        let mut on_plan = vec![env.snapshot()];
        for action in &plan {
            env.step(action);
            on_plan.push(env.snapshot());
        }
        let mut maker = Maker {
            domain,
            problem,
            env,
            plan,
            on_plan,
            options,
            rng: SplitMix64::new(options.seed),
            items: Vec::new(),
            session: std::cell::OnceCell::new(),
        };
        maker.next_state_items();
        maker.verification_items();
        maker.planning_items();
        if options.proposals {
            maker.proposal_items();
        }
        Ok(maker.items)
    })
}

/// The steps of a reference plan, checked to reach the goal step by step.
fn read_plan(env: &mut Env, text: &str) -> Result<Vec<String>, Vec<Diagnostic>> {
    let (steps, syntax) = text::parse(text);
    if !syntax.is_empty() {
        return Err(syntax
            .into_iter()
            .map(|d| d.in_file(TaskFiles::default().plan))
            .collect());
    }
    let mut plan = Vec::new();
    for step in &steps {
        let t = env.step(&text[step.span.start..step.span.end]);
        if let Some(d) = t.diagnostic {
            let message = format!(
                "the reference plan fails at step {}: {}",
                plan.len() + 1,
                d.message
            );
            let at = Span::new(step.span.start, step.span.end);
            return Err(vec![no_plan(message, Some(at)), d.shifted(step.span.start)]);
        }
        plan.push(t.action.unwrap_or_default());
    }
    if !env.goal_reached() {
        let message = format!(
            "the reference plan ends without reaching the goal: {} still false",
            env.unmet_goals().join(" and ")
        );
        return Err(vec![no_plan(
            message,
            Some(Span::new(text.len(), text.len())),
        )]);
    }
    env.reset();
    Ok(plan)
}

/// `W801`, located in the plan file when there is one.
fn no_plan(message: String, at: Option<Span>) -> Diagnostic {
    let diagnostic = match at {
        Some(span) => Diagnostic::new(Code::WorldmodelNoPlan, message, span)
            .in_file(TaskFiles::default().plan),
        None => Diagnostic::unlocated(Code::WorldmodelNoPlan, message),
    };
    diagnostic.with_help(
        "give a plan that reaches the goal (`pddlc validate` says where it fails), or none for the built-in planner's",
    )
}

fn find_plan(
    domain: &Domain,
    problem: &Problem,
    options: &MakeOptions,
) -> Result<Vec<String>, Vec<Diagnostic>> {
    let solve_options = solve::Options {
        time_limit: Some(options.search_time),
        clock: options.clock,
        ..solve::Options::default()
    };
    let answer = solve::solve(domain, problem, &solve_options, &mut |_| {})?;
    match answer.outcome {
        Outcome::Solved { plan, .. } => Ok(plan),
        Outcome::Unsolvable(_) => Err(vec![no_plan(
            "the task is unsolvable (`pddlc solve` proves it): nothing to verify".into(),
            None,
        )]),
        Outcome::Unknown(_) => Err(vec![no_plan(
            format!(
                "the built-in planner found no plan within {} s",
                options.search_time.as_secs_f64()
            ),
            None,
        )]),
    }
}

struct Maker<'t, 'o> {
    domain: &'t Domain,
    problem: &'t Problem,
    env: Env<'t>,
    plan: Vec<String>,
    /// `on_plan[k]`: the state after the plan's first `k` steps.
    on_plan: Vec<Snapshot>,
    options: &'o MakeOptions,
    rng: SplitMix64,
    items: Vec<Item>,
    /// The task grounded once for every search (`None`: the planner cannot take it).
    session: std::cell::OnceCell<Option<solve::Session<'t>>>,
}

impl Maker<'_, '_> {
    /// Puts the environment in the state after the plan's first `k` steps.
    fn go_to(&mut self, k: usize) {
        self.env.restore(&self.on_plan[k]);
    }

    fn next_state_items(&mut self) {
        for i in 0..self.plan.len() {
            self.go_to(i);
            let state = self.env.atoms();
            let prefix = self.plan[..i].to_vec();
            let alternatives: Vec<String> = self
                .env
                .applicable()
                .into_iter()
                .filter(|a| *a != self.plan[i])
                .collect();
            let saved = self.env.snapshot();
            let on_plan = self.env.step(&self.plan[i]).change;
            self.items.push(Item::NextState {
                id: format!("next-{i}"),
                prefix: prefix.clone(),
                state: state.clone(),
                action: self.plan[i].clone(),
                on_plan: true,
                change: on_plan,
            });
            if !alternatives.is_empty() {
                let action = alternatives[self.rng.below(alternatives.len())].clone();
                self.env.restore(&saved);
                let change = self.env.step(&action).change;
                self.items.push(Item::NextState {
                    id: format!("next-{i}-alt"),
                    prefix,
                    state,
                    action,
                    on_plan: false,
                    change,
                });
            }
        }
    }

    /// Where the suffix of fraction `rho` starts (at least one step is left to the model).
    fn suffix_start(&self, rho: f64) -> usize {
        let n = self.plan.len();
        let left = ((rho * n as f64).ceil() as usize).clamp(1.min(n), n);
        n - left
    }

    fn verification_items(&mut self) {
        let fractions = self.options.fractions.clone();
        for rho in fractions {
            let start = self.suffix_start(rho);
            let suffix = self.plan[start..].to_vec();
            let mut candidates: Vec<(Option<Mutation>, Vec<String>, Option<usize>)> =
                vec![(None, suffix.clone(), None)];
            candidates.extend(self.mutations(start, &suffix));
            for (n, (mutation, actions, dead_end_step)) in candidates.into_iter().enumerate() {
                let mut label = self.run_from(start, &actions);
                label.dead_end_step = dead_end_step;
                self.go_to(start);
                let kind = mutation.as_ref().map_or("reference", |m| m.kind);
                self.items.push(Item::Verification {
                    id: format!("verify-{rho}-{n}-{kind}"),
                    fraction: rho,
                    prefix: self.plan[..start].to_vec(),
                    state: self.env.atoms(),
                    actions,
                    mutation,
                    label,
                });
            }
        }
    }

    /// Runs `actions` from the state after the plan's first `start` steps.
    fn run_from(&mut self, start: usize, actions: &[String]) -> Label {
        self.go_to(start);
        for (i, action) in actions.iter().enumerate() {
            let t = self.env.step(action);
            if let Some(d) = t.diagnostic {
                return Label {
                    valid: false,
                    failed_step: Some(i + 1),
                    plan_step: Some(start + i + 1),
                    code: Some(d.code),
                    reason: Some(d.message),
                    dead_end_step: None,
                };
            }
        }
        let reached = self.env.goal_reached();
        Label {
            valid: reached,
            failed_step: None,
            plan_step: None,
            code: (!reached).then_some(Code::GoalUnsatisfied),
            reason: (!reached).then(|| {
                format!(
                    "the goal is not satisfied: {} must be true at the end",
                    self.env.unmet_goals().join(" and ")
                )
            }),
            dead_end_step: None,
        }
    }

    /// The mutations of `suffix` (which starts after step `start` of the plan): one of each
    /// kind that applies, with the dead end's step.
    fn mutations(
        &mut self,
        start: usize,
        suffix: &[String],
    ) -> Vec<(Option<Mutation>, Vec<String>, Option<usize>)> {
        let mut out = Vec::new();
        let mutation = |kind, detail| Some(Mutation { kind, detail });
        if !suffix.is_empty() {
            let i = self.rng.below(suffix.len());
            let mut actions = suffix.to_vec();
            let dropped = actions.remove(i);
            out.push((
                mutation("drop_step", format!("dropped step {} {dropped}", i + 1)),
                actions,
                None,
            ));
        }
        let swappable: Vec<usize> = (1..suffix.len())
            .filter(|&i| suffix[i - 1] != suffix[i])
            .collect();
        if !swappable.is_empty() {
            let i = swappable[self.rng.below(swappable.len())];
            let mut actions = suffix.to_vec();
            actions.swap(i - 1, i);
            out.push((
                mutation("swap_steps", format!("swapped steps {i} and {}", i + 1)),
                actions,
                None,
            ));
        }
        if let Some((actions, detail)) = self.replace_argument(suffix, false) {
            out.push((mutation("wrong_argument", detail), actions, None));
        }
        if let Some((actions, detail)) = self.replace_argument(suffix, true) {
            out.push((mutation("hallucinated_object", detail), actions, None));
        }
        if let Some((actions, detail, step)) = self.dead_end(start, suffix) {
            out.push((mutation("dead_end", detail), actions, Some(step)));
        }
        out
    }

    /// A step of `suffix` with one argument replaced: by another object of the task, or
    /// (`hallucinated`) by a name the task does not have.
    fn replace_argument(
        &mut self,
        suffix: &[String],
        hallucinated: bool,
    ) -> Option<(Vec<String>, String)> {
        let with_args: Vec<usize> = (0..suffix.len())
            .filter(|&i| suffix[i].split_whitespace().count() > 1)
            .collect();
        if with_args.is_empty() {
            return None;
        }
        let i = with_args[self.rng.below(with_args.len())];
        let inner = suffix[i].trim_start_matches('(').trim_end_matches(')');
        let mut words: Vec<String> = inner.split_whitespace().map(str::to_string).collect();
        let at = 1 + self.rng.below(words.len() - 1);
        let old = words[at].clone();
        let new = if hallucinated {
            let objects = self.env.objects();
            let mut name = format!("{old}-2");
            while objects.iter().any(|o| o.eq_ignore_ascii_case(&name)) {
                name.push('x');
            }
            name
        } else {
            let others: Vec<String> = self
                .env
                .objects()
                .iter()
                .filter(|o| !o.eq_ignore_ascii_case(&old))
                .cloned()
                .collect();
            if others.is_empty() {
                return None;
            }
            others[self.rng.below(others.len())].clone()
        };
        words[at] = new.clone();
        let mut actions = suffix.to_vec();
        actions[i] = format!("({})", words.join(" "));
        let detail = format!("step {}: argument {at} `{old}` replaced by `{new}`", i + 1);
        Some((actions, detail))
    }

    /// An applicable action, at a state along `suffix`, after which the goal cannot be reached
    /// (proved by the planner), inserted there; the suffix's remaining steps follow it.
    fn dead_end(
        &mut self,
        start: usize,
        suffix: &[String],
    ) -> Option<(Vec<String>, String, usize)> {
        let first = self.rng.below(suffix.len().max(1));
        // A few states and actions are tried, each proof given at most a second: a dead end
        // is usually proved at once (a goal atom no relaxed plan reaches), or not at all.
        for offset in 0..suffix.len().min(3) {
            let i = (first + offset) % suffix.len();
            self.go_to(start + i);
            let mut options = self.env.applicable();
            options.retain(|a| *a != suffix[i]);
            for _ in 0..options.len().min(3) {
                let action = options.swap_remove(self.rng.below(options.len()));
                let mut prefix = self.plan[..start + i].to_vec();
                prefix.push(action.clone());
                if self.search(&prefix, false, Duration::from_secs(1), false) == Search::Unsolvable
                {
                    let mut actions = suffix.to_vec();
                    actions.insert(i, action.clone());
                    let detail = format!(
                        "inserted {action} before step {}: the goal cannot be reached after it",
                        i + 1
                    );
                    return Some((actions, detail, i + 1));
                }
            }
        }
        None
    }

    fn planning_items(&mut self) {
        let fractions = self.options.fractions.clone();
        for rho in fractions {
            let start = self.suffix_start(rho);
            self.go_to(start);
            self.items.push(Item::Planning {
                id: format!("plan-{rho}"),
                fraction: rho,
                prefix: self.plan[..start].to_vec(),
                state: self.env.atoms(),
                unmet_goals: self.env.unmet_goals(),
                reference: self.plan[start..].to_vec(),
            });
        }
    }

    fn proposal_items(&mut self) {
        for i in 0..self.plan.len() {
            let prefix = self.plan[..i].to_vec();
            self.go_to(i);
            let state = self.env.atoms();
            let applicable = self.env.applicable();
            let best = self.search(&prefix, true, self.options.search_time, true);
            let mut keeps = Some(Vec::new());
            let mut optimal = Some(Vec::new());
            for action in &applicable {
                let mut next = prefix.clone();
                next.push(action.clone());
                let cost = self.action_cost(i, action);
                match self.search(&next, true, self.options.search_time, true) {
                    Search::Solved(c) => {
                        if let Some(keeps) = &mut keeps {
                            keeps.push(action.clone());
                        }
                        if let (Some(optimal), Search::Solved(b)) = (&mut optimal, best)
                            && cost + c == b
                        {
                            optimal.push(action.clone());
                        }
                    }
                    Search::Unsolvable => {}
                    Search::Unknown => {
                        keeps = None;
                        optimal = None;
                    }
                }
            }
            if !matches!(best, Search::Solved(_)) {
                optimal = None;
            }
            self.items.push(Item::Proposal {
                id: format!("propose-{i}"),
                prefix,
                state,
                reference: self.plan[i].clone(),
                applicable,
                keeps_goal_reachable: keeps,
                on_optimal_plan: optimal,
                optimal_cost: match best {
                    Search::Solved(c) => Some(c),
                    _ => None,
                },
            });
        }
    }

    /// What `action` costs after the plan's first `i` steps: the change of `(total-cost)`, or
    /// 1 in a task without action costs.
    fn action_cost(&mut self, i: usize, action: &str) -> u64 {
        self.go_to(i);
        let change = self.env.step(action).change;
        match change.numeric.iter().find(|c| c.fluent == "(total-cost)") {
            Some(c) if self.has_action_costs() => {
                (c.after - c.before.unwrap_or(0.0)).round() as u64
            }
            _ if self.has_action_costs() => 0,
            _ => 1,
        }
    }

    fn has_action_costs(&self) -> bool {
        self.problem.metric.is_some()
            && self
                .domain
                .functions
                .iter()
                .any(|f| f.name.text.eq_ignore_ascii_case("total-cost"))
    }

    /// The planner from the state `prefix` reaches: optimal (A*) or not, for at most `limit`
    /// (and never longer than the options' search time); `check`: the plan found is validated.
    fn search(&self, prefix: &[String], optimal: bool, limit: Duration, check: bool) -> Search {
        let session = self.session.get_or_init(|| {
            let options = solve::Options {
                time_limit: Some(self.options.search_time),
                clock: self.options.clock,
                ..solve::Options::default()
            };
            solve::Session::new(self.domain, self.problem, &options).ok()
        });
        let Some(session) = session else {
            return Search::Unknown;
        };
        match session.search(prefix, optimal, limit.min(self.options.search_time), check) {
            Ok(answer) => match answer.outcome {
                Outcome::Solved { cost, .. } => Search::Solved(cost),
                Outcome::Unsolvable(_) => Search::Unsolvable,
                Outcome::Unknown(_) => Search::Unknown,
            },
            Err(_) => Search::Unknown,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Search {
    Solved(u64),
    Unsolvable,
    Unknown,
}
