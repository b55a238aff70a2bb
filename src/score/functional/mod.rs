//! `score --functional`: whether a predicted domain behaves like the gold one, action by action.
//!
//! 1. **Alignment** (`align`): predicates, actions, types and constants are paired by their
//!    case-folded names first; the rest are paired within signature-compatible groups
//!    (predicates of one arity, actions of one parameter count) by how many of their uses agree,
//!    exhaustively over groups of at most six and greedily beyond.
//! 2. **Decision** (`decide`, `lift`, `logic`): for each aligned action pair, parameters
//!    correspond by position. For every partition of the terms (the parameters and the
//!    constants either action mentions) into objects that types allow (PDDL lets distinct
//!    parameters take the same object; two constants are distinct objects), both actions are
//!    lifted to propositional formulas over the atoms one instance can read or write, and a
//!    satisfying assignment is sought for "one precondition holds and the other does not" and
//!    for "both hold and a written atom ends differently" (an add wins over a delete, as in VAL).
//!    The search is Shannon expansion with constant folding under a budget of 200,000 splits
//!    per action; at most 8 terms have their equalities enumerated. `equivalent` is only said
//!    when every check is proved unsatisfiable. Quantified conditions become free propositions
//!    named by their canonical text, and quantified and numeric effects are compared as text:
//!    equal texts prove nothing is lost, and a difference found with them is reported only
//!    when the validator confirms it. Numeric conditions, derived predicates and temporal
//!    constructs give `unknown`.
//! 3. **Counterexamples** (`witness`): a difference becomes a one-step problem and plan for
//!    each domain, kept only when pddlc's validator accepts the plan under one domain and
//!    rejects it under the other; an unconfirmed one is dropped and named in `notes`.

mod align;
mod decide;
mod lift;
mod logic;
mod sample;
mod witness;

pub use sample::Sampled;

use crate::ast::{Action, Domain, Structure};
use crate::diagnostics::{Diagnostic, FileId};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

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

/// Compares two domain texts; a domain that does not parse or check gives `unknown`.
pub fn compare_texts(gold: &str, pred: &str) -> Functional {
    crate::parse::with_stack(|| {
        let gold = match checked(gold) {
            Ok(d) => d,
            Err(e) => return Functional::unknown(format!("the gold domain {e}")),
        };
        match checked(pred) {
            Ok(pred) => compare(&gold, &pred),
            Err(e) => Functional::unknown(format!("the predicted domain {e}")),
        }
    })
}

fn checked(text: &str) -> Result<Domain, String> {
    let parsed = crate::parse::domain(text);
    let first = |d: &Diagnostic| format!("{}: {}", d.code, d.message);
    if let Some(error) = parsed.diagnostics.iter().find(|d| d.is_error()) {
        return Err(format!("does not parse ({})", first(error)));
    }
    let domain = parsed.value.ok_or("does not parse")?;
    let errors = crate::check::domain(&domain, FileId(0));
    match errors.iter().find(|d| d.is_error()) {
        Some(error) => Err(format!("has errors ({})", first(error))),
        None => Ok(domain),
    }
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

/// Compares two checked domains: the decision, then the sample.
pub fn compare(gold: &Domain, pred: &Domain) -> Functional {
    crate::parse::with_stack(|| {
        let aligned = align::align(gold, pred);
        let mut out = compare_here(gold, pred, &aligned);
        match sample::sample(gold, pred, &aligned) {
            Ok(sampled) => out.sampled = Some(sampled),
            Err(reason) => out.not_sampled = Some(reason),
        }
        out
    })
}

fn compare_here(gold: &Domain, pred: &Domain, aligned: &align::Aligned) -> Functional {
    let alignment = renamed(aligned, gold, pred);
    for (side, domain) in [("gold", gold), ("predicted", pred)] {
        if let Some(what) = unsupported(domain) {
            let mut out = Functional::unknown(format!("the {side} domain has {what}"));
            out.alignment = alignment;
            return out;
        }
    }
    let context = Context::new(gold, pred, aligned);
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
    for (g, gold_action) in gold_actions.iter().enumerate() {
        let Some(at) = aligned.actions.iter().position(|pair| pair.0 == g) else {
            out.actions.push(ActionResult {
                gold: Some(gold_action.name.text.to_string()),
                pred: None,
                verdict: ActionVerdict::Missing,
                reason: None,
            });
            continue;
        };
        let (p, order) = (aligned.actions[at].1, &aligned.orders[at]);
        let result = context.action(gold_action, pred_actions[p], order, &mut out);
        out.actions.push(result);
    }
    for (p, pred_action) in pred_actions.iter().enumerate() {
        if !aligned.actions.iter().any(|pair| pair.1 == p) {
            out.actions.push(ActionResult {
                gold: None,
                pred: Some(pred_action.name.text.to_string()),
                verdict: ActionVerdict::Extra,
                reason: None,
            });
        }
    }
    out.verdict = domain_verdict(&out.actions);
    out
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
    /// Why equivalence cannot be proved for any action, if the domains differ beyond them.
    doubt: Option<String>,
    spellings: (Spellings, Spellings),
}

/// One side's spelling maps (predicates, types, constants), keyed by the shared keys.
type Spellings = [HashMap<String, String>; 3];

mod context;

#[cfg(test)]
mod tests;
