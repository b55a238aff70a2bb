//! Continuous change in `validate`: PDDL+ processes and events (Fox & Long 2006) and the `#t`
//! effects of running durative actions, between the happenings of a temporal plan.
//!
//! Between two happenings every ground process whose precondition holds is active, and each of
//! its `(increase f (* #t rate))` effects adds `rate` to the derivative of `f`. A rate may read
//! values that other effects change (`(d)` grows with `(v)`, which grows with `(a)`): when those
//! dependencies have no cycle, every value is a polynomial in time, computed exactly. A rate
//! that depends on its own value (exponential growth), a cycle of them (rotation), or a function
//! such as `cos` of a changing value is not linear: it is named in a "no verdict" (V310) rather
//! than approximated.
//!
//! The interval is cut where any watched numeric comparison changes its truth: the roots of
//! `lhs - rhs` of the preconditions of every ground process and event and of the conditions that
//! must hold throughout (running steps' `over all`, the domain's `:constraint`s). On each piece
//! the truth of every watched condition is constant, so it is read once, at the piece's middle.
//! Comparisons hold within VAL's tolerance (0.0001), so a crossing is where a difference
//! passes that far from zero. An event fires at the first moment its precondition holds (at a crossing, or at the start of
//! a piece on which it holds), events triggered together fire together, and firing continues
//! until none is triggered; one ground event firing twice at the same moment is a cascade
//! (V316). A process whose precondition stops holding stops at the crossing.

mod rates;

use super::temporal::show_time;
use super::{Failure, TaskFiles};
use crate::ast::{Action, Domain, Effect, Expr, ExprKind, Gd, GdKind, Span, Structure};
use crate::diagnostics::{Code, Diagnostic};
use crate::semantics::{Binding, Changes, EvalError, Record, State, World};
use rates::{Flows, Rate, collect_rates, comparisons, flows};
use std::collections::HashSet;
use std::rc::Rc;

/// Crossings closer to the start of a piece than this are taken to be at its start.
const CLOSE: f64 = 1e-9;
/// More pieces than this in one interval between happenings is taken as a Zeno run.
const MAX_PIECES: usize = 100_000;
/// More ground processes and events than this are not simulated.
const MAX_INSTANCES: usize = 200_000;

/// A state constraint of the domain (`:constraint`, as ENHSP writes them), its parameters
/// quantified: its condition, name and where it is declared.
pub(crate) type Constraint = (Gd, String, Span);

/// The domain's state constraints, each one's parameters quantified universally.
pub(super) fn state_constraints(domain: &Domain) -> Vec<Constraint> {
    let mut constraints = Vec::new();
    for structure in &domain.structures {
        let Structure::Constraint(c) = structure else {
            continue;
        };
        let Some(condition) = &c.condition else {
            continue;
        };
        let gd = if c.parameters.is_empty() {
            condition.clone()
        } else {
            Gd {
                kind: GdKind::Forall {
                    variables: c.parameters.clone(),
                    body: Box::new(condition.clone()),
                },
                span: condition.span,
            }
        };
        constraints.push((gd, c.name.text.to_string(), c.span));
    }
    constraints
}

/// State constraints as invariants.
pub(super) fn invariants(constraints: &[Constraint]) -> impl Iterator<Item = Invariant<'_>> {
    constraints.iter().map(|(gd, name, span)| Invariant {
        owner: Owner::Constraint(name.clone(), *span),
        condition: gd,
        binding: Binding::default(),
    })
}

/// A state constraint that does not hold at `from` (when `to == from`) or between the two.
pub(super) fn constraint_failure(
    name: &str,
    span: Span,
    from: f64,
    to: f64,
    unmet: Vec<(String, Span)>,
    files: TaskFiles,
) -> Failure {
    let when = if from == to {
        format!("at time {}", show_time(from))
    } else {
        format!("between time {} and {}", show_time(from), show_time(to))
    };
    let atoms: Vec<String> = unmet.iter().map(|(atom, _)| atom.clone()).collect();
    let help = format!(
        "change the plan so that {} stays true, before time {}",
        atoms.join(" and "),
        show_time(from)
    );
    constraint_diagnostic(name, span, &when, help, unmet, files).at(None, from)
}

/// A state constraint that does not hold in a state of a run, said `when` (`at time 2`, `after
/// step 3 (move a b)`), with its `help`; no step or time set.
pub(super) fn constraint_diagnostic(
    name: &str,
    span: Span,
    when: &str,
    help: String,
    unmet: Vec<(String, Span)>,
    files: TaskFiles,
) -> Failure {
    let atoms: Vec<String> = unmet.iter().map(|(atom, _)| atom.clone()).collect();
    let message = format!(
        "the state constraint `{name}` of the domain does not hold {when}: {} must hold at every moment",
        atoms.join(" and ")
    );
    let mut diagnostic = Diagnostic::new(Code::StateConstraintViolated, message, span)
        .in_file(files.domain)
        .with_primary_message(format!("`{name}` is declared here"))
        .with_help(help);
    for (atom, span) in &unmet {
        diagnostic = diagnostic.with_label_in(files.domain, *span, format!("{atom} is false"));
    }
    Failure::new(None, atoms, diagnostic)
}

/// A ground event that fires twice at the same moment.
pub(super) fn cascade_failure(event: &str, span: Span, time: f64, files: TaskFiles) -> Failure {
    let message = format!(
        "the event {event} fires again at time {} right after it fired: its effect leaves its \
         precondition true, an endless cascade of events",
        show_time(time)
    );
    let diagnostic = Diagnostic::new(Code::EventCascade, message, span)
        .in_file(files.domain)
        .with_primary_message("the event")
        .with_help(
            "an event must make its own precondition false; change the plan so that it is not \
             triggered, or the domain so that its effect falsifies its precondition",
        );
    Failure::new(None, vec![event.to_string()], diagnostic).at(None, time)
}

/// A ground process or event.
struct Instance<'a> {
    action: &'a Action,
    binding: Binding,
    objects: Vec<u32>,
}

/// A continuous effect of a running durative step.
pub(super) struct Source<'e> {
    /// How the step is named in messages.
    pub name: String,
    pub effect: &'e Effect,
    pub binding: Binding,
}

/// What must hold at every moment of an interval: a running step's `over all` condition, or a
/// domain's state constraint (`:constraint`, as ENHSP writes them).
pub(super) struct Invariant<'e> {
    pub owner: Owner,
    pub condition: &'e Gd,
    pub binding: Binding,
}

#[derive(Clone, Debug)]
pub(super) enum Owner {
    /// The index of the durative step.
    Step(usize),
    /// The state constraint's name and where it is declared.
    Constraint(String, Span),
}

/// Why the simulation stopped.
pub(super) enum Broken {
    /// An invariant does not hold on the open interval `(from, to)`, or at the moment `from`
    /// when `to == from`; the conditions that fail there, with their values.
    Invariant {
        owner: Owner,
        from: f64,
        to: f64,
        unmet: Vec<(String, Span)>,
    },
    /// A ground event fired twice at the same moment.
    Cascade {
        event: String,
        span: Span,
        time: f64,
    },
    /// Change that is not interpreted: no verdict.
    Unsupported(String),
    /// A value could not be evaluated.
    Evaluation(EvalError, f64),
}

type Outcome<T> = Result<T, Broken>;

/// Whether a domain has processes or events.
pub(super) fn has_processes(domain: &Domain) -> bool {
    domain
        .structures
        .iter()
        .any(|s| matches!(s, Structure::Process(_) | Structure::Event(_)))
}

/// Whether an expression reads `#t`.
pub(super) fn uses_time(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Time => true,
        ExprKind::Op { args, .. } | ExprKind::Call { args, .. } => args.iter().any(uses_time),
        _ => false,
    }
}

/// The simulator of a run: the ground processes and events, and the events fired at the
/// current moment.
pub(super) struct Continuous<'a> {
    processes: Vec<Instance<'a>>,
    events: Vec<Instance<'a>>,
    constraints: Rc<Vec<Constraint>>,
    fired_at: f64,
    fired: HashSet<usize>,
    /// Every event fired, with its time, in order: `(time, "(event obj…)")`.
    pub log: Vec<(f64, String)>,
}

impl<'a> Continuous<'a> {
    /// Grounds the domain's processes and events over the problem's objects.
    pub fn new(domain: &'a Domain, world: &mut World<'a>) -> Outcome<Continuous<'a>> {
        let mut processes = Vec::new();
        let mut events = Vec::new();
        for structure in &domain.structures {
            let (action, is_process) = match structure {
                Structure::Process(a) => (a, true),
                Structure::Event(a) => (a, false),
                _ => continue,
            };
            let domains: Vec<Vec<u32>> = action
                .parameters
                .iter()
                .map(|p| world.members(&p.ty))
                .collect();
            if domains.iter().any(Vec::is_empty) {
                continue;
            }
            let mut index = vec![0usize; domains.len()];
            loop {
                if processes.len() + events.len() >= MAX_INSTANCES {
                    return Err(Broken::Unsupported(format!(
                        "more than {MAX_INSTANCES} ground processes and events"
                    )));
                }
                let mut binding = Binding::default();
                let mut objects = Vec::new();
                for ((param, list), &k) in action.parameters.iter().zip(&domains).zip(&index) {
                    if let Some(&o) = list.get(k) {
                        binding.push(&param.item, o);
                        objects.push(o);
                    }
                }
                let instance = Instance {
                    action,
                    binding,
                    objects,
                };
                if is_process {
                    processes.push(instance);
                } else {
                    events.push(instance);
                }
                if !super::next_combination(&mut index, &domains) {
                    break;
                }
            }
        }
        Ok(Continuous {
            processes,
            events,
            constraints: Rc::new(state_constraints(domain)),
            fired_at: f64::NAN,
            fired: HashSet::new(),
            log: Vec::new(),
        })
    }

    /// The domain's state constraints.
    pub fn constraints(&self) -> Rc<Vec<Constraint>> {
        Rc::clone(&self.constraints)
    }

    /// Fires the events triggered at `time`, then checks the state constraints there.
    pub fn settle_and_check(
        &mut self,
        world: &mut World,
        state: &mut State,
        time: f64,
    ) -> Outcome<()> {
        self.settle(world, state, time)?;
        let constraints = self.constraints();
        for invariant in invariants(&constraints) {
            check(world, &invariant, state, time, time)?;
        }
        Ok(())
    }

    fn name(&self, world: &World, instance: &Instance) -> String {
        let mut text = format!("({}", instance.action.name.text);
        for &o in &instance.objects {
            text.push(' ');
            text.push_str(world.objects.get(o as usize).map_or("?", String::as_str));
        }
        text.push(')');
        text
    }

    /// The instances of `list` whose precondition holds in `state`.
    fn holding(world: &World, list: &[Instance], state: &State, time: f64) -> Outcome<Vec<usize>> {
        let mut out = Vec::new();
        for (i, instance) in list.iter().enumerate() {
            let holds = match &instance.action.precondition {
                None => true,
                Some(gd) => world
                    .holds(gd, &mut instance.binding.clone(), state)
                    .map_err(|e| Broken::Evaluation(e, time))?,
            };
            if holds {
                out.push(i);
            }
        }
        Ok(out)
    }

    /// Fires the events triggered in `state` at `time`, until none is.
    pub fn settle(&mut self, world: &mut World, state: &mut State, time: f64) -> Outcome<()> {
        loop {
            let triggered = Self::holding(world, &self.events, state, time)?;
            if triggered.is_empty() {
                return Ok(());
            }
            self.fire(world, state, time, &triggered)?;
        }
    }

    /// Fires events together: their effects are computed in the same state.
    fn fire(
        &mut self,
        world: &mut World,
        state: &mut State,
        time: f64,
        triggered: &[usize],
    ) -> Outcome<()> {
        if self.fired_at != time {
            self.fired_at = time;
            self.fired.clear();
        }
        let mut all = Changes::default();
        for &i in triggered {
            let Some(instance) = self.events.get(i) else {
                continue;
            };
            let name = self.name(world, instance);
            if !self.fired.insert(i) {
                return Err(Broken::Cascade {
                    event: name,
                    span: instance.action.span,
                    time,
                });
            }
            self.log.push((time, name));
            if let Some(effect) = &instance.action.effect {
                let mut record = Record::default();
                world
                    .record(effect, &mut instance.binding.clone(), state, &mut record)
                    .map_err(|e| Broken::Evaluation(e, time))?;
                record.changes(&mut all);
            }
        }
        world
            .apply(&all, state)
            .map_err(|e| Broken::Evaluation(e, time))
    }

    /// Lets time run from `from` to `to` (both happenings' times) with the processes that are
    /// active and the continuous effects of `sources`, firing events as they trigger and
    /// checking `invariants` at every moment strictly between the two, then fires the events
    /// triggered at `to`.
    pub fn advance(
        &mut self,
        world: &mut World,
        state: &mut State,
        from: f64,
        to: f64,
        sources: &[Source],
        invariants: &[Invariant],
    ) -> Outcome<()> {
        let mut now = from;
        let mut pieces = 0;
        while to - now > CLOSE {
            pieces += 1;
            if pieces > MAX_PIECES {
                return Err(Broken::Unsupported(format!(
                    "more than {MAX_PIECES} changes of the active processes or events between \
                     time {} and {} (a Zeno run)",
                    show_time(from),
                    show_time(to)
                )));
            }
            let horizon = to - now;
            // The processes active on the piece that starts now: those whose precondition
            // holds just after now. A precondition that holds at now but not after (a value
            // leaving a closed bound) or the reverse is settled by reading it at the middle.
            let mut active = Self::holding(world, &self.processes, state, now)?;
            let mut tries = 0;
            let piece = loop {
                let rates = self.rates(world, &active, sources, now)?;
                if rates.is_empty() {
                    break None;
                }
                let flows = flows(world, state, &rates, now)?;
                let length = self.next_crossing(world, state, &flows, horizon, invariants, now)?;
                let middle = at(world, state, &flows, length / 2.0, now)?;
                let after = Self::holding(world, &self.processes, &middle, now)?;
                if after == active {
                    break Some((flows, length, middle));
                }
                // A process on its threshold (a value left exactly at a bound by the process
                // itself) holds or not by rounding alone: it stays off.
                let common: Vec<usize> = active
                    .iter()
                    .filter(|i| after.contains(i))
                    .copied()
                    .collect();
                if tries > 0 && common == active {
                    break Some((flows, length, middle));
                }
                tries += 1;
                if tries > 4 {
                    return Err(Broken::Unsupported(format!(
                        "processes that switch each other on and off at time {}",
                        show_time(now)
                    )));
                }
                active = if tries > 1 { common } else { after };
            };
            // Nothing changes: the state stays as it is until `to`.
            let Some((flows, length, middle)) = piece else {
                break;
            };
            // Events whose precondition holds just after now fire now.
            let events = Self::holding(world, &self.events, &middle, now)?;
            if !events.is_empty() {
                self.fire(world, state, now, &events)?;
                self.settle(world, state, now)?;
                continue;
            }
            for invariant in invariants {
                check(world, invariant, &middle, now, now + length)?;
            }
            *state = at(world, state, &flows, length, now)?;
            now = if to - (now + length) <= CLOSE {
                to
            } else {
                now + length
            };
            if now < to {
                for invariant in invariants {
                    check(world, invariant, state, now, now)?;
                }
                self.settle(world, state, now)?;
            }
        }
        self.settle(world, state, to)
    }

    /// The ground continuous effects of the active processes and of `sources`.
    fn rates(
        &self,
        world: &World,
        active: &[usize],
        sources: &[Source],
        time: f64,
    ) -> Outcome<Vec<Rate>> {
        let mut out = Vec::new();
        for &i in active {
            let Some(instance) = self.processes.get(i) else {
                continue;
            };
            if let Some(effect) = &instance.action.effect {
                let name = self.name(world, instance);
                collect_rates(
                    world,
                    effect,
                    &mut instance.binding.clone(),
                    &name,
                    time,
                    &mut out,
                )?;
            }
        }
        for source in sources {
            collect_rates(
                world,
                source.effect,
                &mut source.binding.clone(),
                &source.name,
                time,
                &mut out,
            )?;
        }
        Ok(out)
    }

    /// The length of the piece from now: the first crossing of a watched comparison after now,
    /// or the horizon.
    fn next_crossing(
        &self,
        world: &World,
        state: &State,
        flows: &Flows,
        horizon: f64,
        invariants: &[Invariant],
        time: f64,
    ) -> Outcome<f64> {
        let mut differences = Vec::new();
        for instance in self.processes.iter().chain(&self.events) {
            if let Some(gd) = &instance.action.precondition {
                comparisons(
                    world,
                    gd,
                    &mut instance.binding.clone(),
                    state,
                    flows,
                    time,
                    &mut differences,
                )?;
            }
        }
        for invariant in invariants {
            comparisons(
                world,
                invariant.condition,
                &mut invariant.binding.clone(),
                state,
                flows,
                time,
                &mut differences,
            )?;
        }
        let mut next = horizon;
        for difference in &differences {
            if let Some(&root) = difference.roots(CLOSE, next).first() {
                next = next.min(root);
            }
        }
        Ok(next)
    }
}

/// Checks one invariant in `state`, which holds from `from` to `to`.
fn check(world: &World, invariant: &Invariant, state: &State, from: f64, to: f64) -> Outcome<()> {
    let mut binding = invariant.binding.clone();
    match world.holds(invariant.condition, &mut binding, state) {
        Ok(true) => Ok(()),
        Ok(false) => {
            let mut unmet = Vec::new();
            world.unsatisfied(invariant.condition, &mut binding, state, &mut unmet);
            Err(Broken::Invariant {
                owner: invariant.owner.clone(),
                from,
                to,
                unmet,
            })
        }
        Err(e) => Err(Broken::Evaluation(e, from)),
    }
}

/// The state `tau` after the start of a piece: every changing value at its polynomial's value.
fn at(world: &mut World, state: &State, flows: &Flows, tau: f64, time: f64) -> Outcome<State> {
    let mut out = state.clone();
    for (fact, polynomial) in flows {
        out.values.insert(fact.clone(), polynomial.value(tau));
    }
    world
        .derive(&mut out)
        .map_err(|e| Broken::Evaluation(e, time + tau))?;
    Ok(out)
}
