//! `score --functional`: whether a predicted domain behaves like the gold one, action by action.
//!
//! 1. **Alignment** (`align`): predicates, actions, types and constants are paired by their
//!    case-folded names first; the rest are paired within signature-compatible groups
//!    (predicates of one arity, actions of one parameter count) by how many of their uses agree,
//!    exhaustively over groups of at most six and greedily beyond.
//! 2. **Decision** (`decide`, `partition`, `lift`, `logic`): for each aligned action pair,
//!    parameters correspond by position. Each case is an equality partition of the terms (the
//!    parameters and the constants either action mentions; PDDL lets distinct parameters take
//!    one object, two constants are distinct objects): all of them when there are at most
//!    20,000, else the ones that make some atoms coincide. In each case the objects are the
//!    blocks, plus, when an action quantifies, one fresh object per quantified variable and
//!    every constant no term names; quantifiers are expanded over them. In typed domains each
//!    object's declared type is a choice (exactly one of the types a problem of both domains can
//!    declare) and the initial state is well typed on both sides. Both actions are lifted to
//!    propositional formulas over the case's atoms, and a satisfying assignment is sought for
//!    "one precondition holds and the other does not" and for "both hold and a written atom
//!    ends differently" (an add wins over a delete, as in VAL), by splitting with unit
//!    propagation under a budget of 200,000 splits per action. `equivalent` is only said when
//!    every check is proved unsatisfiable and the expansion is complete (no quantifier inside
//!    another, no `=` on a quantified variable beside unnamed constants); otherwise finding
//!    nothing gives `unknown` with the bound named. Increases of `total-cost` are the plan's
//!    metric, not the state: compared apart and reported. Other numeric effects are compared
//!    as text; numeric conditions, derived predicates and temporal constructs give `unknown`.
//! 3. **Counterexamples** (`witness`): a difference becomes a one-step problem and plan for
//!    each domain, kept only when pddlc's validator accepts the plan under one domain and
//!    rejects it under the other; an unconfirmed one is dropped and named in `notes`.
//!
//! [`Options::time_limit`] bounds one comparison: it is read between actions, between
//! partitions and during the search, and once it is reached the actions not yet decided are
//! `unknown`, and so is the domain unless a confirmed difference already makes it `different`.

mod align;
mod decide;
mod lift;
mod logic;
mod partition;
mod sample;
mod witness;

pub use sample::Sampled;

use crate::ast::{Action, Domain, Structure};
use crate::diagnostics::{Code, Diagnostic, FileId};
use crate::solve::Deadline;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

/// How to compare: the limits of one comparison.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Stop with `unknown` for the actions not decided after this long (parsing included).
    pub time_limit: Option<Duration>,
    /// The clock `time_limit` is measured on: a function returning a time that only grows,
    /// such as the CPU time of the thread comparing, which the CLI passes. `None`: wall time.
    pub clock: Option<fn() -> Duration>,
    /// Leave out the sampled applicability (`Functional::sampled`), which costs more than the
    /// decision on large domains.
    pub no_sample: bool,
}

/// A running comparison's time limit: when it ends, and how long it was (for the reason).
#[derive(Clone, Copy, Debug)]
pub struct TimeLimit {
    limit: Duration,
    deadline: Deadline,
}

impl TimeLimit {
    /// The limit of `options`, starting now; `None` without one.
    pub fn start(options: &Options) -> Option<TimeLimit> {
        let limit = options.time_limit?;
        Some(TimeLimit {
            limit,
            deadline: Deadline::after(limit, options.clock),
        })
    }

    pub fn reached(&self) -> bool {
        self.deadline.passed()
    }

    /// Why a comparison stopped: "the time limit (2 s) was reached".
    pub fn reason(&self) -> String {
        format!(
            "the time limit ({} s) was reached",
            self.limit.as_secs_f64()
        )
    }
}

/// The verdict for the whole domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Every gold action is proved equivalent to its predicted one, and none is extra.
    Equivalent,
    /// An action is missing or extra, or a difference was confirmed by the validator.
    Different,
    Unknown,
}

/// The verdict for one action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActionVerdict {
    Equivalent,
    /// The predicted action is applicable in fewer states.
    StrongerPrecondition,
    /// The predicted action is applicable in more states.
    WeakerPrecondition,
    /// Each is applicable in a state where the other is not.
    DifferentPrecondition,
    DifferentEffects,
    /// The actions take different numbers of parameters.
    DifferentParameters,
    Missing,
    Extra,
    Unknown,
}

/// One gold action's verdict (or one extra predicted action's).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ActionResult {
    /// The gold action (`None` for an extra predicted action).
    pub gold: Option<String>,
    pub pred: Option<String>,
    pub verdict: ActionVerdict,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Renamed names, `{gold: pred}`; a name both domains spell alike is not listed.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Alignment {
    pub predicates: BTreeMap<String, String>,
    pub actions: BTreeMap<String, String>,
    pub types: BTreeMap<String, String>,
    pub constants: BTreeMap<String, String>,
    /// Per gold action whose parameters the prediction reorders, for each predicted parameter
    /// the position of the gold parameter it stands for.
    pub parameters: BTreeMap<String, Vec<usize>>,
}

impl Alignment {
    pub fn renames_anything(&self) -> bool {
        !(self.predicates.is_empty()
            && self.actions.is_empty()
            && self.types.is_empty()
            && self.constants.is_empty()
            && self.parameters.is_empty())
    }
}

/// A confirmed difference: a problem and a one-step plan that one domain accepts and the other
/// rejects. It serializes as the file names (`problem`, `plan`, and `pred_problem`,
/// `pred_plan` when the prediction spells anything differently) and the explanation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Counterexample {
    pub action: String,
    pub verdict: ActionVerdict,
    pub problem: String,
    pub plan: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pred_problem: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pred_plan: Option<String>,
    pub explanation: String,
    /// The texts for the gold domain.
    #[serde(skip)]
    pub gold_texts: (String, String),
    /// The texts in the prediction's names, when they differ from the gold's.
    #[serde(skip)]
    pub pred_texts: Option<(String, String)>,
}

impl Counterexample {
    /// Each file name with its text.
    pub fn files(&self) -> Vec<(&str, &str)> {
        let mut files = vec![
            (self.problem.as_str(), self.gold_texts.0.as_str()),
            (self.plan.as_str(), self.gold_texts.1.as_str()),
        ];
        if let (Some(problem), Some(plan), Some(texts)) =
            (&self.pred_problem, &self.pred_plan, &self.pred_texts)
        {
            files.push((problem, texts.0.as_str()));
            files.push((plan, texts.1.as_str()));
        }
        files
    }
}

/// The functional comparison of a predicted domain with a gold one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Functional {
    pub verdict: Verdict,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub alignment: Alignment,
    pub actions: Vec<ActionResult>,
    pub counterexamples: Vec<Counterexample>,
    /// Differences the decision found that the validator did not confirm (a bug in one of
    /// them), and other remarks.
    pub notes: Vec<String>,
    /// Applicability precision and recall over sampled states (`sample`); `None` when the
    /// domains cannot be sampled, and `not_sampled` says why.
    pub sampled: Option<Sampled>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_sampled: Option<String>,
}

impl Functional {
    fn unknown(reason: String) -> Functional {
        Functional {
            verdict: Verdict::Unknown,
            reason: Some(reason),
            alignment: Alignment::default(),
            actions: Vec::new(),
            counterexamples: Vec::new(),
            notes: Vec::new(),
            sampled: None,
            not_sampled: None,
        }
    }
}

/// The verdicts of many comparisons counted: domains by verdict, and actions by verdict
/// (every verdict listed, with 0 when none has it), for a batch's summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tally {
    pub verdicts: BTreeMap<String, usize>,
    pub actions: BTreeMap<String, usize>,
}

/// A verdict's name as it is serialized (`weaker-precondition`).
fn verdict_name(verdict: impl Serialize) -> String {
    match serde_json::to_value(verdict) {
        Ok(serde_json::Value::String(name)) => name,
        _ => String::new(),
    }
}

/// Counts the verdicts of `results`.
pub fn tally<'a>(results: impl IntoIterator<Item = &'a Functional>) -> Tally {
    use ActionVerdict as A;
    let zero = |names: Vec<String>| names.into_iter().map(|name| (name, 0)).collect();
    let mut tally = Tally {
        verdicts: zero(
            [Verdict::Equivalent, Verdict::Different, Verdict::Unknown]
                .map(verdict_name)
                .to_vec(),
        ),
        actions: zero(
            [
                A::Equivalent,
                A::StrongerPrecondition,
                A::WeakerPrecondition,
                A::DifferentPrecondition,
                A::DifferentEffects,
                A::DifferentParameters,
                A::Missing,
                A::Extra,
                A::Unknown,
            ]
            .map(verdict_name)
            .to_vec(),
        ),
    };
    for result in results {
        *tally
            .verdicts
            .entry(verdict_name(result.verdict))
            .or_default() += 1;
        for action in &result.actions {
            *tally
                .actions
                .entry(verdict_name(action.verdict))
                .or_default() += 1;
        }
    }
    tally
}

/// Compares two domain texts with the default options (no time limit); a domain that does
/// not parse or check gives `unknown`.
pub fn compare_texts(gold: &str, pred: &str) -> Functional {
    compare_texts_with(gold, pred, &Options::default())
}

/// Compares two domain texts within `options`' limits; a domain that does not parse or check
/// gives `unknown`.
pub fn compare_texts_with(gold: &str, pred: &str, options: &Options) -> Functional {
    let time_limit = TimeLimit::start(options);
    crate::parse::with_stack(|| {
        let (gold, gold_note) = match checked(gold) {
            Ok(d) => d,
            Err(e) => return Functional::unknown(format!("the gold domain {e}")),
        };
        let (pred, pred_note) = match checked(pred) {
            Ok(d) => d,
            Err(e) => return Functional::unknown(format!("the predicted domain {e}")),
        };
        let mut out = compare_checked(&gold, &pred, options, time_limit);
        let notes = [("gold", gold_note), ("predicted", pred_note)];
        for (side, note) in notes.into_iter().filter_map(|(s, n)| Some((s, n?))) {
            out.notes.insert(0, format!("the {side} {note}"));
        }
        out
    })
}

/// The domain a text defines, and a note when prose or Markdown around the definition (P018,
/// as in a chat answer saved as a file) was left out: what is compared is the definition, and
/// the note says the file is not valid PDDL as it stands. Any other error makes it unreadable.
fn checked(text: &str) -> Result<(Domain, Option<String>), String> {
    let parsed = crate::parse::domain(text);
    let first = |d: &Diagnostic| format!("{}: {}", d.code, d.message);
    let (around, other): (Vec<&Diagnostic>, Vec<&Diagnostic>) = (parsed.diagnostics.iter())
        .filter(|d| d.is_error())
        .partition(|d| d.code == Code::TextAroundDefinition);
    if let Some(error) = other.first() {
        return Err(format!("does not parse ({})", first(error)));
    }
    let domain = parsed.value.ok_or("does not parse")?;
    let errors = crate::check::domain(&domain, FileId(0));
    if let Some(error) = errors.iter().find(|d| d.is_error()) {
        return Err(format!("has errors ({})", first(error)));
    }
    let note = around.first().map(|d| {
        format!(
            "file is not PDDL as it stands ({}: {}); the definition inside it is what was compared",
            d.code, d.message
        )
    });
    Ok((domain, note))
}

/// What the decision cannot read, if either domain has it.
fn unsupported(domain: &Domain) -> Option<&'static str> {
    domain.structures.iter().find_map(|s| match s {
        Structure::Action(_) => None,
        Structure::DurativeAction(_) => Some("durative actions"),
        Structure::Process(_) | Structure::Event(_) => Some("processes or events"),
        Structure::Derived(_) => Some("derived predicates"),
        Structure::Constraint(_) => Some("global constraints"),
    })
}

/// Compares two checked domains with the default options.
pub fn compare(gold: &Domain, pred: &Domain) -> Functional {
    compare_with(gold, pred, &Options::default())
}

/// Compares two checked domains within `options`' limits: the decision, then (unless
/// `options.no_sample`) the sample.
pub fn compare_with(gold: &Domain, pred: &Domain, options: &Options) -> Functional {
    let time_limit = TimeLimit::start(options);
    crate::parse::with_stack(|| compare_checked(gold, pred, options, time_limit))
}

fn compare_checked(
    gold: &Domain,
    pred: &Domain,
    options: &Options,
    time_limit: Option<TimeLimit>,
) -> Functional {
    let aligned = align::align(gold, pred);
    let mut out = compare_here(gold, pred, &aligned, time_limit);
    if options.no_sample {
        return out;
    }
    match sample::sample(gold, pred, &aligned) {
        Ok(sampled) => out.sampled = Some(sampled),
        Err(reason) => out.not_sampled = Some(reason),
    }
    out
}

fn compare_here(
    gold: &Domain,
    pred: &Domain,
    aligned: &align::Aligned,
    time_limit: Option<TimeLimit>,
) -> Functional {
    let alignment = renamed(aligned, gold, pred);
    for (side, domain) in [("gold", gold), ("predicted", pred)] {
        if let Some(what) = unsupported(domain) {
            let mut out = Functional::unknown(format!("the {side} domain has {what}"));
            out.alignment = alignment;
            return out;
        }
    }
    let mut context = Context::new(gold, pred, aligned);
    context.time_limit = time_limit;
    let gold_actions: Vec<&Action> = gold.actions().collect();
    let pred_actions: Vec<&Action> = pred.actions().collect();
    let mut out = Functional {
        verdict: Verdict::Unknown,
        reason: None,
        alignment,
        actions: Vec::new(),
        counterexamples: Vec::new(),
        notes: Vec::new(),
        sampled: None,
        not_sampled: None,
    };
    let gold_paired: HashMap<usize, usize> = (aligned.actions.iter().enumerate())
        .map(|(at, pair)| (pair.0, at))
        .collect();
    for (g, gold_action) in gold_actions.iter().enumerate() {
        let Some(&at) = gold_paired.get(&g) else {
            if time_limit.is_none_or(|limit| !limit.reached()) {
                one_sided(&context, (gold_action, true), (pred, "predicted"), &mut out);
            }
            out.actions.push(ActionResult {
                gold: Some(gold_action.name.text.to_string()),
                pred: None,
                verdict: ActionVerdict::Missing,
                reason: None,
            });
            continue;
        };
        let (p, order) = (aligned.actions[at].1, &aligned.orders[at]);
        let result = match time_limit.filter(TimeLimit::reached) {
            // The actions after the limit are not looked at: each is `unknown`, and says why.
            Some(limit) => ActionResult {
                gold: Some(gold_action.name.text.to_string()),
                pred: Some(pred_actions[p].name.text.to_string()),
                verdict: ActionVerdict::Unknown,
                reason: Some(limit.reason()),
            },
            None => context.action(gold_action, pred_actions[p], order, &mut out),
        };
        out.actions.push(result);
    }
    let pred_paired: std::collections::HashSet<usize> =
        aligned.actions.iter().map(|pair| pair.1).collect();
    for (p, pred_action) in pred_actions.iter().enumerate() {
        if !pred_paired.contains(&p) {
            if time_limit.is_none_or(|limit| !limit.reached()) {
                one_sided(&context, (pred_action, false), (gold, "gold"), &mut out);
            }
            out.actions.push(ActionResult {
                gold: None,
                pred: Some(pred_action.name.text.to_string()),
                verdict: ActionVerdict::Extra,
                reason: None,
            });
        }
    }
    out.verdict = domain_verdict(&out.actions);
    // An action the limit stopped is `unknown`, which makes the domain `unknown` unless a
    // confirmed difference already makes it `different`; either way the reason says why not
    // every action was decided.
    if let Some(limit) = time_limit {
        let reason = limit.reason();
        if out
            .actions
            .iter()
            .any(|a| a.reason.as_ref() == Some(&reason))
        {
            out.reason = Some(reason);
        }
    }
    out
}

/// A counterexample for an action the `other` domain lacks, whose step names an action that
/// domain does not have. None when it has one of the name (with another number of parameters,
/// paired with another action): a step with the wrong number of arguments is one VAL cannot
/// judge (it crashes on too few and ignores too many), so no such counterexample is reported.
fn one_sided(
    context: &Context,
    (action, gold_side): (&Action, bool),
    (other, side): (&Domain, &str),
    out: &mut Functional,
) {
    if other.actions().any(|a| a.name.is(&action.name.text)) {
        return;
    }
    let verdict = if gold_side {
        ActionVerdict::Missing
    } else {
        ActionVerdict::Extra
    };
    let why = format!("the {side} domain has no action `{}`", action.name.text);
    context.one_sided(action, gold_side, (verdict, &why), out);
}

fn domain_verdict(actions: &[ActionResult]) -> Verdict {
    use ActionVerdict as A;
    if actions.iter().all(|a| a.verdict == A::Equivalent) {
        Verdict::Equivalent
    } else if actions
        .iter()
        .any(|a| !matches!(a.verdict, A::Equivalent | A::Unknown))
    {
        Verdict::Different
    } else {
        Verdict::Unknown
    }
}

/// The renamed pairs of an alignment, as written.
fn renamed(aligned: &align::Aligned, gold: &Domain, pred: &Domain) -> Alignment {
    let differing = |pairs: &[(String, String)]| -> BTreeMap<String, String> {
        pairs
            .iter()
            .filter(|(g, p)| g.to_lowercase() != p.to_lowercase())
            .cloned()
            .collect()
    };
    let gold_actions: Vec<&Action> = gold.actions().collect();
    let pred_actions: Vec<&Action> = pred.actions().collect();
    let actions: Vec<(String, String)> = aligned
        .actions
        .iter()
        .map(|&(g, p)| {
            (
                gold_actions[g].name.text.to_string(),
                pred_actions[p].name.text.to_string(),
            )
        })
        .collect();
    let parameters = aligned
        .actions
        .iter()
        .zip(&aligned.orders)
        .filter(|(_, order)| order.iter().enumerate().any(|(j, &i)| i != j))
        .map(|(&(g, _), order)| (gold_actions[g].name.text.to_string(), order.clone()))
        .collect();
    Alignment {
        parameters,
        predicates: differing(&aligned.predicates),
        actions: differing(&actions),
        types: differing(&aligned.types),
        constants: differing(&aligned.constants),
    }
}

/// What every action pair of two domains shares: how each side names things, the gold's type
/// hierarchy, and whether the two hierarchies agree.
struct Context<'a> {
    gold: &'a Domain,
    pred: &'a Domain,
    /// Folded gold type → itself and its ancestors.
    ancestors: HashMap<String, Vec<String>>,
    /// Predicted folded type → gold folded type.
    pred_types: HashMap<String, String>,
    predicates: (HashMap<String, String>, HashMap<String, String>),
    pred_constants: HashMap<String, String>,
    constant_types: HashMap<String, Vec<String>>,
    /// Every constant (its term label) with its declared types (shared keys) on each side.
    constants: Vec<(String, [Vec<String>; 2])>,
    /// Each side's folded type → its shared key.
    type_keys: [HashMap<String, String>; 2],
    typing: Option<lift::Typing>,
    /// Per side, each predicate (shared key) → its parameters' declared types (shared keys).
    predicate_types: [HashMap<String, Vec<Vec<String>>>; 2],
    /// Whether the type hierarchies or the constants' types differ.
    types_differ: bool,
    /// When to stop deciding.
    time_limit: Option<TimeLimit>,
    spellings: (Spellings, Spellings),
}

/// One side's spelling maps (predicates, types, constants), keyed by the shared keys.
type Spellings = [HashMap<String, String>; 3];

mod context;
mod identical;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod time_limit_tests {
    use super::{ActionVerdict, Options, Verdict, compare_texts_with, tally};
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::Duration;

    const BLOCKS: &str = include_str!("../../../domains/blocksworld/domain.pddl");

    /// A clock that advances a second at every reading, so that a limit of 2.5 s is reached
    /// after three readings, long before the last action, whatever the machine's speed.
    fn ticking() -> Duration {
        static READINGS: AtomicU64 = AtomicU64::new(0);
        Duration::from_secs(READINGS.fetch_add(1, Ordering::Relaxed))
    }

    #[test]
    fn a_limit_reached_leaves_the_actions_not_decided_unknown_with_the_reason() {
        let dropped = BLOCKS.replace(
            "(and (on ?x ?y) (clear ?x) (arm-empty))",
            "(and (on ?x ?y) (arm-empty))",
        );
        let options = Options {
            time_limit: Some(Duration::from_millis(2500)),
            clock: Some(ticking),
            no_sample: true,
        };
        let limited = compare_texts_with(BLOCKS, &dropped, &options);
        let reason = "the time limit (2.5 s) was reached";
        assert_eq!(limited.verdict, Verdict::Unknown, "{limited:#?}");
        assert_eq!(limited.reason.as_deref(), Some(reason));
        // `unstack`, the one that differs, comes last: the limit is reached before it.
        let last = limited.actions.last().expect("four actions");
        assert_eq!(last.verdict, ActionVerdict::Unknown);
        assert_eq!(last.reason.as_deref(), Some(reason));
        assert!(limited.counterexamples.is_empty());
        let free = compare_texts_with(BLOCKS, &dropped, &Options::default());
        assert_eq!(free.verdict, Verdict::Different);
        let counts = tally([&limited, &free]);
        assert_eq!(counts.verdicts["unknown"], 1);
        assert_eq!(counts.verdicts["different"], 1);
        assert_eq!(counts.verdicts["equivalent"], 0);
        assert_eq!(counts.actions["weaker-precondition"], 1);
    }
}
