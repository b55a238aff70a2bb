//! `--mode text2world`: the official Text2World scorer's values, quirks included.
//!
//! This reproduces `Evaluator.eval(gt, pred)` of github.com/Aaron617/text2world (commit 9440ff7)
//! with tarski 0.8.2 and python-Levenshtein 0.25.1, value for value:
//!
//! - EXEC: tarski accepts `pred` as it is ([`crate::text2world::tarski::check`]).
//! - SIM: [`sim::text2world_sim`].
//!
//! [`Prepared`] holds what `eval` reads from one domain, so that a gold read once scores many
//! predictions ([`score_prepared`]); [`score`] prepares both.
//! - F1_PRED: F1 of the sets `name_arity` of the two languages' predicates (`=` and `!=`
//!   dropped, the arithmetic comparisons of `:action-costs`/`:numeric-fluents` kept); 0 when
//!   either text, `.strip()`ped, fails tarski.
//! - F1_PARAM, F1_PRECOND, F1_EFF: per gold action (matched by exact name), F1 of parameter
//!   names, of tarski's precondition string cut by `[1:-1].split('and')`, and of tarski's effect
//!   strings, all through `_preprocess`; the plain mean over gold actions. Any exception (either
//!   parse failing, a gold action missing from pred, an empty string in `_preprocess`) makes all
//!   three 0. A gold without actions makes `eval` itself raise.
//! - Each value is reported as `round(x * 100, 1)`.

use super::{Metrics, Side, sim};
use crate::diagnostics::Diagnostic;
use crate::text2world::python;
use crate::text2world::strings::{ActionStrings, DomainStrings, StrList, domain_strings};
use crate::text2world::tarski::check;
use serde::Serialize;
use std::fmt;

/// The official scorer's result for one (gold, prediction) pair, with notes on how the F1
/// values came about.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Text2WorldScore {
    /// The values before rounding (EXEC is 1.0 or 0.0).
    pub raw: Metrics,
    /// The values `eval` returns: `round(x * 100, 1)` of each raw value.
    pub official: Metrics,
    /// Set when `Evaluator.eval` itself raises (a gold without actions that parses, with a
    /// prediction that parses): the official scorer then has no values, and `raw` and
    /// `official` are all 0 here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eval_error: Option<EvalError>,
    /// Why tarski rejects the prediction as given, which makes EXEC 0: a `C150` diagnostic
    /// whose spans point into `pred`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exec_rejection: Option<Diagnostic>,
    /// Why tarski rejects the `.strip()`ped gold, which zeroes every F1 value (spans into
    /// `gold`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gold_rejection: Option<Diagnostic>,
    /// Why tarski rejects the `.strip()`ped prediction, which zeroes every F1 value (spans into
    /// `pred`). The same reason as `exec_rejection` unless stripping changes the verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pred_rejection: Option<Diagnostic>,
    /// Gold actions the prediction lacks (by exact name): the action metrics become 0.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing_gold_actions: Vec<String>,
    /// Prediction actions that are not in the gold: ignored, but still preprocessed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra_pred_actions: Vec<String>,
    /// An empty string met by `_preprocess` (Python's `IndexError`): the action metrics
    /// become 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preprocess_error: Option<PreprocessError>,
}

/// Why `Evaluator.eval` raises instead of returning values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EvalError {
    /// The gold has no action: `_mean([])` raises `ZeroDivisionError` inside `action_f1`, and
    /// `eval` fails on the value its handler returns.
    GoldWithoutActions,
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::GoldWithoutActions => f.write_str(
                "ZeroDivisionError in _mean: the gold domain has no action, so \
                 Evaluator.eval raises (AttributeError: 'int' object has no attribute 'items')",
            ),
        }
    }
}

/// The action whose lists `_preprocess` cannot handle: one of them holds an empty string.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PreprocessError {
    pub side: Side,
    pub action: String,
}

impl fmt::Display for PreprocessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = match self.side {
            Side::Gold => "gold",
            Side::Pred => "predicted",
        };
        write!(f, "{side} action `{}`: empty string", self.action)
    }
}

/// Scores `pred` (the domain text as passed to `eval`: already extracted from a response)
/// against `gold` as the official Text2World scorer does.
pub fn score(gold: &str, pred: &str) -> Text2WorldScore {
    score_prepared(&Prepared::new(gold), pred)
}

/// A domain text as `eval` reads it, prepared once: tarski's view of the stripped text with
/// the action lists `_preprocess`ed, and the code points SIM compares. A gold prepared once
/// scores any number of predictions.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// What tarski reads from the stripped text, or why it rejects it (spans into the text as
    /// given).
    view: Result<View, Diagnostic>,
    squeezed: sim::Squeezed,
}

#[derive(Clone, Debug)]
struct View {
    /// The `name_arity` keys of the predicates, sorted.
    predicates: StrList,
    /// The action names in the order they are defined (unique: tarski rejects duplicates).
    names: Vec<String>,
    /// The positions in `names`, in the order of the names, to look names up.
    by_name: Vec<usize>,
    /// Each action's three `_preprocess`ed lists (params, preconds, effect), in the order of
    /// `names`, or the name of the first action `_preprocess` raises on.
    lists: Result<Vec<[StrList; 3]>, String>,
}

impl View {
    fn new(strings: DomainStrings) -> View {
        let mut predicates = strings.predicates;
        predicates.sort();
        let mut actions = strings.actions;
        let names: Vec<String> = actions
            .iter_mut()
            .map(|a| std::mem::take(&mut a.name))
            .collect();
        let mut by_name: Vec<usize> = (0..names.len()).collect();
        by_name.sort_unstable_by(|&x, &y| names[x].cmp(&names[y]));
        let lists = preprocess_actions(actions).map_err(|at| names[at].clone());
        View {
            predicates,
            names,
            by_name,
            lists,
        }
    }

    /// Where the action called `name` is.
    fn position(&self, name: &str) -> Option<usize> {
        self.by_name
            .binary_search_by(|&i| self.names[i].as_str().cmp(name))
            .ok()
            .map(|found| self.by_name[found])
    }
}

impl Prepared {
    pub fn new(text: &str) -> Prepared {
        Prepared {
            view: stripped_domain_strings(text).map(View::new),
            squeezed: sim::Squeezed::new(text),
        }
    }
}

/// [`score`] with the gold prepared.
pub fn score_prepared(gold: &Prepared, pred: &str) -> Text2WorldScore {
    let mut out = Text2WorldScore::default();
    let pred_strings = stripped_domain_strings(pred);
    out.exec_rejection = exec_rejection(pred, &pred_strings);
    let pred = Prepared {
        view: pred_strings.map(View::new),
        squeezed: sim::Squeezed::new(pred),
    };
    out.gold_rejection = gold.view.as_ref().err().cloned();
    out.pred_rejection = pred.view.as_ref().err().cloned();
    let (gold_view, pred_view) = (gold.view.as_ref().ok(), pred.view.as_ref().ok());
    if let (Some(gold_view), Some(pred_view)) = (gold_view, pred_view) {
        out.missing_gold_actions = gold_view
            .names
            .iter()
            .filter(|name| pred_view.position(name).is_none())
            .cloned()
            .collect();
        out.extra_pred_actions = pred_view
            .names
            .iter()
            .filter(|name| gold_view.position(name).is_none())
            .cloned()
            .collect();
    }
    // `eval` computes the action metrics first; when they raise (a gold without actions), the
    // predicate metric is never computed and `eval` fails.
    let actions = match action_f1(gold_view, pred_view, &mut out.preprocess_error) {
        Ok(actions) => actions,
        Err(error) => {
            out.eval_error = Some(error);
            return out;
        }
    };
    let f1_pred = match (gold_view, pred_view) {
        (Some(gold_view), Some(pred_view)) => {
            compute_f1_score(&pred_view.predicates, &gold_view.predicates)
        }
        _ => 0.0,
    };
    out.raw = Metrics {
        exec: if out.exec_rejection.is_none() {
            1.0
        } else {
            0.0
        },
        sim: sim::squeezed_ratio(&gold.squeezed, &pred.squeezed),
        f1_pred,
        f1_param: actions[0],
        f1_precond: actions[1],
        f1_eff: actions[2],
    };
    out.official = Metrics {
        exec: official(out.raw.exec),
        sim: official(out.raw.sim),
        f1_pred: official(out.raw.f1_pred),
        f1_param: official(out.raw.f1_param),
        f1_precond: official(out.raw.f1_precond),
        f1_eff: official(out.raw.f1_eff),
    };
    out
}

/// Why tarski rejects `pred` as given (EXEC), from the F1 parse of `pred.strip()` when that
/// parse decides it: when what `strip` removed is whitespace to tarski's lexer as well (space,
/// tab, CR, LF), both texts lex to the same tokens but for the stripped text's last one (a final
/// comment loses its line feed), so an acceptance, or a rejection located before the stripped
/// text's end, is the verdict on `pred` too. Otherwise tarski reads `pred` again.
fn exec_rejection(
    pred: &str,
    stripped_view: &Result<DomainStrings, Diagnostic>,
) -> Option<Diagnostic> {
    let leading = pred.len() - pred.trim_start_matches(python::isspace).len();
    let end = leading + python::strip(pred).len();
    let tarski_whitespace = |part: &str| part.bytes().all(|b| b" \t\r\n".contains(&b));
    if tarski_whitespace(&pred[..leading]) && tarski_whitespace(&pred[end..]) {
        match stripped_view {
            Ok(_) => return None,
            Err(rejection)
                if end == pred.len()
                    || rejection
                        .primary()
                        .is_some_and(|label| label.span.end < end) =>
            {
                return Some(rejection.clone());
            }
            Err(_) => {}
        }
    }
    check(pred).into_iter().next()
}

/// What `eval` parses: tarski's reading of `text.strip()`. A rejection's spans are moved to
/// point into `text`.
fn stripped_domain_strings(text: &str) -> Result<DomainStrings, Diagnostic> {
    let leading = text.len() - text.trim_start_matches(python::isspace).len();
    domain_strings(python::strip(text)).map_err(|rejection| rejection.shifted(leading))
}

/// `action_f1`: the means over gold actions of the three F1 values, `[params, preconds,
/// effect]`; `[0, 0, 0]` on any exception inside its `try`; an error when the gold has no
/// action (`_mean([])` raises outside the `try`).
fn action_f1(
    gold: Option<&View>,
    pred: Option<&View>,
    preprocess_error: &mut Option<PreprocessError>,
) -> Result<[f64; 3], EvalError> {
    let zero = Ok([0.0; 3]);
    let Some(gold) = gold else { return zero };
    let gold_lists = match &gold.lists {
        Ok(lists) => lists,
        Err(action) => {
            *preprocess_error = Some(PreprocessError {
                side: Side::Gold,
                action: action.clone(),
            });
            return zero;
        }
    };
    let Some(pred) = pred else { return zero };
    let pred_lists = match &pred.lists {
        Ok(lists) => lists,
        Err(action) => {
            *preprocess_error = Some(PreprocessError {
                side: Side::Pred,
                action: action.clone(),
            });
            return zero;
        }
    };
    let mut sums = [0.0f64; 3];
    for (name, gold_action) in gold.names.iter().zip(gold_lists) {
        let Some(pred_action) = pred.position(name).map(|at| &pred_lists[at]) else {
            // KeyError: all three metrics of the domain become 0.
            return zero;
        };
        for (sum, (p, g)) in sums.iter_mut().zip(pred_action.iter().zip(gold_action)) {
            *sum += compute_f1_score(p, g);
        }
    }
    if gold_lists.is_empty() {
        return Err(EvalError::GoldWithoutActions);
    }
    let count = gold_lists.len() as f64;
    Ok(sums.map(|sum| sum / count))
}

/// The dictionary comprehension over a domain's actions: each action's three `_preprocess`ed
/// lists; the position of the first action whose lists `_preprocess` cannot handle.
fn preprocess_actions(actions: Vec<ActionStrings>) -> Result<Vec<[StrList; 3]>, usize> {
    actions
        .into_iter()
        .enumerate()
        .map(|(at, action)| {
            let preconds = precondition_parts(&action.precondition);
            let (Some(params), Some(preconds), Some(effects)) = (
                preprocess(action.params),
                preprocess(preconds),
                preprocess(action.effects),
            ) else {
                return Err(at);
            };
            Ok([params, preconds, effects])
        })
        .collect()
}

/// `[x.strip() for x in str(precondition)[1:-1].split('and')]`: the substring `and` cuts
/// inside names too.
fn precondition_parts(precondition: &str) -> StrList {
    let mut parts = StrList::with_capacity(8, precondition.len());
    for part in python::slice_inner(precondition).split("and") {
        parts.push(python::strip(part));
    }
    parts
}

/// `Evaluator._preprocess`: sort; put the disjuncts of each `(… or …)` element in order; sort
/// again. `None` where Python raises `IndexError` (`l[i][0]` of an empty string).
fn preprocess(mut list: StrList) -> Option<StrList> {
    list.sort();
    for i in 0..list.len() {
        let element = list.get(i);
        let first = element.chars().next()?;
        if first == '(' && element.contains(" or ") {
            let inner = python::strip(python::slice_inner(element));
            let mut parts: Vec<&str> = inner.split(" or ").map(python::strip).collect();
            parts.sort();
            let joined = format!("({})", parts.join(" or "));
            list.replace_with(i, |out| out.push_str(&joined));
        }
    }
    list.sort();
    Some(list)
}

/// `Evaluator.compute_f1_score(prediction, reference)`, on the sets of the two lists, which
/// come sorted (as `_preprocess` leaves them), so the sets are counted in one merge.
fn compute_f1_score(prediction: &StrList, reference: &StrList) -> f64 {
    if prediction.is_empty() && reference.is_empty() {
        return 1.0;
    }
    let distinct = |list: &StrList| -> usize {
        let mut previous = None;
        list.bytes()
            .filter(|&item| previous.replace(item) != Some(item))
            .count()
    };
    let (mut p, mut g) = (prediction.bytes().peekable(), reference.bytes().peekable());
    let mut true_positives = 0;
    while let (Some(&x), Some(&y)) = (p.peek(), g.peek()) {
        match x.cmp(y) {
            std::cmp::Ordering::Less => {
                p.next();
            }
            std::cmp::Ordering::Greater => {
                g.next();
            }
            std::cmp::Ordering::Equal => {
                true_positives += 1;
                // Past every copy of the element on both sides.
                while p.next_if_eq(&x).is_some() {}
                while g.next_if_eq(&x).is_some() {}
            }
        }
    }
    let false_positives = distinct(prediction) - true_positives;
    let false_negatives = distinct(reference) - true_positives;
    let precision = if true_positives + false_positives > 0 {
        true_positives as f64 / (true_positives + false_positives) as f64
    } else {
        0.0
    };
    let recall = if true_positives + false_negatives > 0 {
        true_positives as f64 / (true_positives + false_negatives) as f64
    } else {
        0.0
    };
    if precision + recall > 0.0 {
        2.0 * (precision * recall) / (precision + recall)
    } else {
        0.0
    }
}

/// The value `eval` reports: `round(x * 100, 1)`.
pub fn official(x: f64) -> f64 {
    python::round1(x * 100.0)
}

/// The dataset score of `summerize_result.py`: for each metric, the sum of the per-domain
/// official values in the given order, divided by their number, then `round(·, 1)`. Domains
/// with EXEC = 0 count like any other. An empty list (a division by zero in Python) gives 0.
pub fn summary(per_domain_official: &[Metrics]) -> Metrics {
    if per_domain_official.is_empty() {
        return Metrics::default();
    }
    let count = per_domain_official.len() as f64;
    let mean = |field: fn(&Metrics) -> f64| -> f64 {
        let sum = per_domain_official
            .iter()
            .fold(0.0, |sum, m| sum + field(m));
        python::round1(sum / count)
    };
    Metrics {
        exec: mean(|m| m.exec),
        sim: mean(|m| m.sim),
        f1_pred: mean(|m| m.f1_pred),
        f1_param: mean(|m| m.f1_param),
        f1_precond: mean(|m| m.f1_precond),
        f1_eff: mean(|m| m.f1_eff),
    }
}

#[cfg(test)]
mod tests {
    use super::{StrList, compute_f1_score, precondition_parts, preprocess, score};

    fn strings(items: &[&str]) -> StrList {
        let mut list = StrList::default();
        for item in items {
            list.push(item);
        }
        list
    }

    #[test]
    fn preprocess_quirks() {
        assert_eq!(
            precondition_parts("(handempty(?h) and at(?x))"),
            strings(&["h", "empty(?h)", "at(?x)"])
        );
        assert_eq!(precondition_parts("is-at(?m)"), strings(&["s-at(?m"]));
        assert_eq!(precondition_parts("T"), strings(&[""]));
        assert_eq!(preprocess(strings(&["b", ""])), None);
        assert_eq!(
            preprocess(strings(&["(q() or p())", "a"])),
            Some(strings(&["(p() or q())", "a"]))
        );
    }

    #[test]
    fn f1_on_sets() {
        assert_eq!(compute_f1_score(&strings(&[]), &strings(&[])), 1.0);
        assert_eq!(compute_f1_score(&strings(&["a"]), &strings(&[])), 0.0);
        assert_eq!(
            compute_f1_score(&strings(&["a", "b", "b"]), &strings(&["a", "c"])),
            0.5
        );
        assert_eq!(
            compute_f1_score(
                &strings(&["a", "a", "b", "d"]),
                &strings(&["a", "b", "b", "c"])
            ),
            2.0 * (2.0 / 3.0 * (2.0 / 3.0)) / (2.0 / 3.0 + 2.0 / 3.0)
        );
        assert_eq!(
            compute_f1_score(&strings(&["x", "x"]), &strings(&["x"])),
            1.0
        );
    }

    #[test]
    fn damaged_and_deep_inputs_score_without_panicking() {
        let deep = |n: usize| {
            format!(
                "(define (domain d) (:predicates (p)) (:action a :parameters () \
                 :precondition {}(p){} :effect (p)))",
                "(not ".repeat(n),
                ")".repeat(n)
            )
        };
        for text in [
            "",
            "(",
            ")",
            "\u{a0}",
            "band",
            &"(".repeat(100_000),
            &deep(200),
        ] {
            let result = score(text, text);
            assert!(result.official.sim >= 0.0);
        }
        assert_eq!(score(&deep(200), &deep(200)).official.f1_precond, 100.0);
        assert_eq!(score(&deep(300), &deep(300)).official.exec, 0.0);
    }

    #[test]
    fn rejections_are_diagnostics_located_in_the_given_text() {
        let gold = "(define (domain d) (:predicates (p)) (:action a :parameters () \
                    :precondition (p) :effect (not (p))))";
        // Without `:precondition`: tarski rejects it, stripped or not, at the same place.
        let pred = "\n  (define (domain d) (:predicates (p)) (:action a :parameters () \
                    :effect (not (p))))";
        let result = score(gold, pred);
        assert_eq!(result.official.exec, 0.0);
        let exec = result.exec_rejection.expect("EXEC 0 has a reason");
        let stripped = result.pred_rejection.expect("the F1 parse fails too");
        assert_eq!(exec.code.as_str(), "C150");
        assert_eq!(exec.primary(), stripped.primary());
        let at = exec.primary().map_or(0, |label| label.span.start);
        assert!(pred[at..].starts_with(":effect"), "{exec:?}");
        assert!(result.gold_rejection.is_none());
        let accepted = score(gold, gold);
        assert_eq!(accepted.official.exec, 100.0);
        assert!(accepted.exec_rejection.is_none());
    }

    #[test]
    fn exec_from_the_stripped_parse_is_tarskis_verdict_on_the_text_as_given() {
        use crate::text2world::tarski::check;
        let domain = "(define (domain d) (:predicates (p)) (:action a :parameters () \
                      :precondition (p) :effect (not (p))))";
        let broken = domain.replace(":precondition (p) ", "");
        let variants = [
            String::new(),
            "\n".to_string(),
            " \t\r\n".to_string(),
            "\u{a0}".to_string(),
            "\u{3000}\n".to_string(),
            "\u{b}".to_string(),
            "; last line\n".to_string(),
            "\n; last line\n".to_string(),
            " ; last line\n\n".to_string(),
        ];
        for body in [domain.to_string(), broken, "(define (domain d)".to_string()] {
            for before in &variants {
                for after in &variants {
                    let pred = format!("{before}{body}{after}");
                    let ours = score(domain, &pred).exec_rejection;
                    let tarski = check(&pred).into_iter().next();
                    assert_eq!(ours, tarski, "{pred:?}");
                }
            }
        }
    }

    #[test]
    fn a_gold_without_actions_is_an_eval_error() {
        let domain = "(define (domain d) (:predicates (p)))";
        assert!(score(domain, domain).eval_error.is_some());
        assert!(score(domain, "(define").eval_error.is_none());
    }
}
