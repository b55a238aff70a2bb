//! `worldmodel score`: a model's predictions against the items `make` wrote (docs/worldmodel.md,
//! "Scoring"). Each item is judged on its own (next state: exact change and atom F1;
//! verification: the verdict against the label; proposal: the first K actions against the
//! reference action, the actions on some optimal plan and the actions that keep the goal
//! reachable; planning: the plan run from the item's state in [`Env`]), then summarised per task
//! and overall with bootstrap intervals. An item without a prediction, or with one that cannot
//! be read, scores 0 and is counted apart; each unreadable prediction is a located `W802`.

use super::env::Env;
use super::items::{Items, Kind, ScoredItem, Truth, json_lines};
use super::read::{self, Vocabulary, canonical};
use crate::ast::{Domain, Problem, Span};
use crate::diagnostics::{Code, Diagnostic, FileId};
use crate::kitchen::{Estimate, SplitMix64, estimate_of, resample_statistics};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};

/// How to score.
#[derive(Clone, Debug)]
pub struct ScoreOptions {
    /// The K of top-K proposal accuracy (the model's first K actions, in its order).
    pub top_k: Vec<usize>,
    /// Bootstrap resamples per interval.
    pub samples: usize,
    /// Seeds the bootstrap's generator (SplitMix64), set once before any resampling.
    pub seed: u64,
    /// The input the predictions' diagnostics point into.
    pub predictions_file: FileId,
}

impl Default for ScoreOptions {
    fn default() -> Self {
        ScoreOptions {
            top_k: vec![1, 3, 5],
            samples: 10_000,
            seed: 42,
            predictions_file: FileId(1),
        }
    }
}

/// The tasks items refer to, by name, as the front end loaded them.
pub type Tasks<'t> = BTreeMap<String, (&'t Domain, &'t Problem)>;

/// Everything `score` found.
#[derive(Clone, Debug, Serialize)]
pub struct Scores {
    pub overall: Summary,
    pub tasks: Vec<TaskSummary>,
    /// Every item's result, in the items file's order.
    pub items: Vec<ItemScore>,
    #[serde(skip)]
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TaskSummary {
    pub task: String,
    pub summary: Summary,
}

/// The metrics of a set of items, by kind.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub next_state: NextStateSummary,
    pub verification: VerificationSummary,
    pub proposal: ProposalSummary,
    pub planning: PlanningSummary,
}

/// How many items there are, how many had a prediction, and how many of those could not be
/// read. Unanswered and unreadable items score 0 in every accuracy.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Answered {
    pub items: usize,
    pub predicted: usize,
    pub unreadable: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct NextStateSummary {
    #[serde(flatten)]
    pub answered: Answered,
    /// The share of items whose predicted change is the true one (atoms and fluents).
    pub exact: Estimate,
    /// The mean over items of the F1 of predicted against true changes (an added atom, a
    /// deleted atom and a fluent's new value are each one element).
    pub atom_f1: Estimate,
}

#[derive(Clone, Debug, Serialize)]
pub struct VerificationSummary {
    #[serde(flatten)]
    pub answered: Answered,
    pub accuracy: Estimate,
    /// Among the items whose actions do not reach the goal and whose verdict was read: the
    /// share the model called valid.
    pub false_positive_rate: Estimate,
    /// Among the items whose actions reach the goal and whose verdict was read: the share the
    /// model called invalid.
    pub false_negative_rate: Estimate,
}

#[derive(Clone, Debug, Serialize)]
pub struct ProposalSummary {
    #[serde(flatten)]
    pub answered: Answered,
    pub top_k: Vec<TopK>,
}

/// Top-K accuracy against each set: the share of items where one of the model's first K
/// actions is in it. An item whose set is unknown (its search ran out of time) is left out of
/// that set's share.
#[derive(Clone, Debug, Serialize)]
pub struct TopK {
    pub k: usize,
    pub reference: Estimate,
    pub on_optimal_plan: Estimate,
    pub keeps_goal_reachable: Estimate,
}

#[derive(Clone, Debug, Serialize)]
pub struct PlanningSummary {
    #[serde(flatten)]
    pub answered: Answered,
    /// The share of items whose plan, run from the item's state, reaches the goal.
    pub success: Estimate,
}

/// One item's result.
#[derive(Clone, Debug, Serialize)]
pub struct ItemScore {
    pub task: String,
    pub id: String,
    pub kind: Kind,
    /// `scored`, `unanswered` or `unreadable`.
    pub status: &'static str,
    /// For a verification item: whether its actions reach the goal (its label).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<bool>,
    /// What was read from the prediction, canonical (`(name arg…)`).
    #[serde(skip_serializing_if = "Value::is_null")]
    pub read: Value,
    /// The item's values (`exact`, `atom_f1`, `correct`, `top_1`…, `success`), 0 when the item
    /// was not answered or not read.
    pub values: BTreeMap<String, f64>,
    /// Why a plan failed, or what could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Scores {
    /// The document `worldmodel score --format json` writes (and Python's
    /// `worldmodel.score` returns): `version`, `overall`, `tasks`, `items`; the front end adds
    /// `diagnostics`.
    pub fn document(&self) -> Value {
        serde_json::json!({
            "version": 1,
            "overall": self.overall,
            "tasks": self.tasks,
            "items": self.items,
        })
    }
}

/// A prediction line: its object and where it is.
struct Prediction {
    fields: serde_json::Map<String, Value>,
    span: Span,
}

/// Scores `predictions` (JSON lines, one object with `"id"` each) against `items`. Items whose
/// task is not in `tasks` are left out, with a `W803` per task.
pub fn score(items: &Items, tasks: &Tasks, predictions: &str, options: &ScoreOptions) -> Scores {
    let mut diagnostics = Vec::new();
    let by_item = read_predictions(
        items,
        predictions,
        options.predictions_file,
        &mut diagnostics,
    );
    let mut judge = Judge::new(tasks, options);
    let mut missing_tasks = HashSet::new();
    let mut results = Vec::new();
    for (index, item) in items.items.iter().enumerate() {
        let Some(&(domain, problem)) = tasks.get(&item.task) else {
            if missing_tasks.insert(item.task.clone()) {
                diagnostics.push(
                    Diagnostic::new(
                        Code::WorldmodelBadItems,
                        format!(
                            "task `{}` has no usable task record: its items are not scored",
                            item.task
                        ),
                        item.span,
                    )
                    .in_file(FileId(0))
                    .with_help("the items file names each task's domain and problem in a `\"kind\": \"task\"` line"),
                );
            }
            continue;
        };
        let prediction = by_item.get(&index);
        let mut result = judge.item(item, (domain, problem), prediction.map(|p| &p.fields));
        if let (Some(p), Some(note)) = (prediction, &result.note)
            && result.status == "unreadable"
        {
            diagnostics.push(
                Diagnostic::new(
                    Code::WorldmodelUnreadablePrediction,
                    format!("prediction for `{}`: {note}", item.id),
                    p.span,
                )
                .in_file(options.predictions_file)
                .with_help("docs/worldmodel.md, \"How answers are read\", lists what is read"),
            );
        }
        if prediction.is_none() {
            result.note = None;
        }
        results.push(result);
    }
    crate::diagnostics::sort(&mut diagnostics);
    let mut rng = SplitMix64::new(options.seed);
    let overall = summarise(&results, &options.top_k, options.samples, &mut rng);
    let mut names: Vec<&str> = Vec::new();
    for r in &results {
        if !names.contains(&r.task.as_str()) {
            names.push(&r.task);
        }
    }
    let per_task = names
        .iter()
        .map(|name| {
            let own: Vec<ItemScore> = results
                .iter()
                .filter(|r| r.task == *name)
                .cloned()
                .collect();
            TaskSummary {
                task: name.to_string(),
                summary: summarise(&own, &options.top_k, options.samples, &mut rng),
            }
        })
        .collect();
    Scores {
        overall,
        tasks: per_task,
        items: results,
        diagnostics,
    }
}

/// The predictions by the index of the item they answer; a line that is not a JSON object with
/// an `id`, an id no item has, and a second answer to an item are `W804` (the first is kept).
fn read_predictions(
    items: &Items,
    text: &str,
    file: FileId,
    diagnostics: &mut Vec<Diagnostic>,
) -> HashMap<usize, Prediction> {
    let mut by_id: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, item) in items.items.iter().enumerate() {
        by_id.entry(&item.id).or_default().push(i);
    }
    let mut out: HashMap<usize, Prediction> = HashMap::new();
    for (span, trimmed) in json_lines(text) {
        let unmatched = |message: String| {
            Diagnostic::new(Code::WorldmodelUnmatchedPrediction, message, span).in_file(file)
        };
        let fields = match serde_json::from_str::<Value>(trimmed) {
            Ok(Value::Object(fields)) => fields,
            Ok(_) => {
                diagnostics.push(unmatched(
                    "a prediction is a JSON object with \"id\"".into(),
                ));
                continue;
            }
            Err(e) => {
                diagnostics.push(unmatched(format!("this line is not JSON: {e}")));
                continue;
            }
        };
        let Some(id) = fields.get("id").and_then(id_text) else {
            diagnostics.push(unmatched("this prediction has no \"id\"".into()));
            continue;
        };
        let task = fields.get("task").and_then(Value::as_str);
        let candidates: Vec<usize> = by_id
            .get(id.as_str())
            .map(|c| {
                c.iter()
                    .copied()
                    .filter(|&i| task.is_none_or(|t| items.items[i].task == t))
                    .collect()
            })
            .unwrap_or_default();
        let index = match candidates.as_slice() {
            [one] => *one,
            [] => {
                diagnostics.push(unmatched(format!("no item has id `{id}`")));
                continue;
            }
            _ => {
                diagnostics.push(
                    unmatched(format!("`{id}` is an item of several tasks"))
                        .with_help("add \"task\" to the prediction"),
                );
                continue;
            }
        };
        if out.contains_key(&index) {
            diagnostics.push(unmatched(format!(
                "`{id}` is answered twice; the first answer is kept"
            )));
            continue;
        }
        out.insert(index, Prediction { fields, span });
    }
    out
}

fn id_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Judges items one at a time, with each task's vocabularies and environment built once.
struct Judge<'t, 'o> {
    tasks: &'t Tasks<'t>,
    options: &'o ScoreOptions,
    vocabularies: HashMap<String, (Vocabulary, Vocabulary)>,
    envs: HashMap<String, Result<Env<'t>, String>>,
}

impl<'t, 'o> Judge<'t, 'o> {
    fn new(tasks: &'t Tasks<'t>, options: &'o ScoreOptions) -> Self {
        Judge {
            tasks,
            options,
            vocabularies: HashMap::new(),
            envs: HashMap::new(),
        }
    }

    fn item(
        &mut self,
        item: &ScoredItem,
        (domain, _): (&Domain, &Problem),
        prediction: Option<&serde_json::Map<String, Value>>,
    ) -> ItemScore {
        let (actions, atoms) = self
            .vocabularies
            .entry(item.task.clone())
            .or_insert_with(|| vocabularies(domain))
            .clone();
        let mut result = ItemScore {
            task: item.task.clone(),
            id: item.id.clone(),
            kind: item.truth.kind(),
            status: "unanswered",
            expected: match &item.truth {
                Truth::Verification { valid } => Some(*valid),
                _ => None,
            },
            read: Value::Null,
            values: zeros(&item.truth, &self.options.top_k),
            note: None,
        };
        let Some(fields) = prediction else {
            return result;
        };
        let judged = match &item.truth {
            Truth::NextState { .. } => next_state(&item.truth, fields, &atoms),
            Truth::Verification { valid } => verification(*valid, fields),
            Truth::Proposal { .. } => proposal(&item.truth, fields, &actions, &self.options.top_k),
            Truth::Planning { prefix } => {
                let env = self.env(&item.task);
                planning(env, prefix, fields, &actions)
            }
        };
        match judged {
            Ok((read, values, note)) => {
                result.status = "scored";
                result.read = read;
                result.values.extend(values);
                result.note = note;
            }
            Err(why) => {
                result.status = "unreadable";
                result.note = Some(why);
            }
        }
        result
    }

    fn env(&mut self, task: &str) -> Result<&mut Env<'t>, String> {
        let tasks = self.tasks;
        let env = self.envs.entry(task.to_string()).or_insert_with(|| {
            // `score` judges only the items whose task is in `tasks`.
            let &(domain, problem) = tasks.get(task).ok_or("the task is not loaded")?;
            Env::new(domain, problem).map_err(|d| d.message.clone())
        });
        env.as_mut().map_err(|why| why.clone())
    }
}

/// The action names and the predicate names (with fluents, for numeric changes) of a domain.
fn vocabularies(domain: &Domain) -> (Vocabulary, Vocabulary) {
    let actions = Vocabulary::new(
        domain
            .actions()
            .map(|a| (a.name.as_str(), a.parameters.len())),
    );
    let atoms = Vocabulary::new(
        domain
            .predicates
            .iter()
            .map(|p| (p.name.as_str(), p.parameters.len()))
            .chain(
                domain
                    .functions
                    .iter()
                    .map(|f| (f.name.as_str(), f.parameters.len())),
            ),
    );
    (actions, atoms)
}

/// The values an item has, all 0 (what an unanswered or unreadable item scores).
fn zeros(truth: &Truth, top_k: &[usize]) -> BTreeMap<String, f64> {
    let names: Vec<String> = match truth {
        Truth::NextState { .. } => vec!["exact".into(), "atom_f1".into()],
        Truth::Verification { .. } => vec!["correct".into()],
        Truth::Proposal {
            keeps_goal_reachable,
            on_optimal_plan,
            ..
        } => top_k
            .iter()
            .flat_map(|k| {
                let mut sets = vec![format!("top_{k}_reference")];
                if on_optimal_plan.is_some() {
                    sets.push(format!("top_{k}_on_optimal_plan"));
                }
                if keeps_goal_reachable.is_some() {
                    sets.push(format!("top_{k}_keeps_goal_reachable"));
                }
                sets
            })
            .collect(),
        Truth::Planning { .. } => vec!["success".into()],
    };
    names.into_iter().map(|n| (n, 0.0)).collect()
}

type Judged = Result<(Value, Vec<(String, f64)>, Option<String>), String>;

/// The first field of `names` the prediction has.
fn field<'p>(fields: &'p serde_json::Map<String, Value>, names: &[&str]) -> Option<&'p Value> {
    names.iter().find_map(|n| fields.get(*n))
}

/// A list of terms, as a JSON array of strings or as text.
fn terms(value: &Value, vocabulary: &Vocabulary) -> Result<Vec<String>, String> {
    match value {
        Value::Array(entries) => {
            let mut out = Vec::new();
            for entry in entries {
                let text = entry.as_str().ok_or("a list entry is not a string")?;
                out.push(read::term(text, vocabulary).ok_or(format!("`{text}` is not an atom"))?);
            }
            Ok(out)
        }
        Value::String(text) => {
            let (read, _) = read::actions(text, vocabulary);
            Ok(read)
        }
        Value::Null => Ok(Vec::new()),
        _ => Err("a list of atoms is an array of strings or a text".into()),
    }
}

fn next_state(
    truth: &Truth,
    fields: &serde_json::Map<String, Value>,
    atoms: &Vocabulary,
) -> Judged {
    let Truth::NextState {
        state,
        added,
        deleted,
        numeric,
    } = truth
    else {
        return Err("not a next-state item".into());
    };
    let change = fields
        .get("change")
        .and_then(Value::as_object)
        .unwrap_or(fields);
    let (p_added, p_deleted) = if change.contains_key("added") || change.contains_key("deleted") {
        (
            terms(change.get("added").unwrap_or(&Value::Null), atoms)?,
            terms(change.get("deleted").unwrap_or(&Value::Null), atoms)?,
        )
    } else if let Some(next) = field(fields, &["state", "next_state"]) {
        let next: HashSet<String> = terms(next, atoms)?.into_iter().collect();
        let now: HashSet<String> = state.iter().map(|a| canonical(a)).collect();
        let mut a: Vec<String> = next.difference(&now).cloned().collect();
        let mut d: Vec<String> = now.difference(&next).cloned().collect();
        a.sort();
        d.sort();
        (a, d)
    } else if let Some(text) = field(fields, &["answer", "text", "output"]).and_then(Value::as_str)
    {
        read::change(text, atoms).ok_or("the answer says neither what is added nor deleted")?
    } else {
        return Err("no \"added\"/\"deleted\", \"state\" or \"answer\"".into());
    };
    let p_numeric = predicted_numeric(change.get("numeric"), atoms)?;
    let mut predicted: HashSet<String> = HashSet::new();
    predicted.extend(p_added.iter().map(|a| format!("+{a}")));
    predicted.extend(p_deleted.iter().map(|a| format!("-{a}")));
    let mut truth_set: HashSet<String> = HashSet::new();
    truth_set.extend(added.iter().map(|a| format!("+{}", canonical(a))));
    truth_set.extend(deleted.iter().map(|a| format!("-{}", canonical(a))));
    let mut common = predicted.intersection(&truth_set).count();
    let true_numeric: Vec<(String, f64)> =
        numeric.iter().map(|(f, v)| (canonical(f), *v)).collect();
    for (fluent, value) in &true_numeric {
        if p_numeric
            .iter()
            .any(|(f, v)| f == fluent && (v - value).abs() <= 1e-4 * value.abs().max(1.0))
        {
            common += 1;
        }
    }
    let n_predicted = predicted.len() + p_numeric.len();
    let n_true = truth_set.len() + true_numeric.len();
    let exact = common == n_predicted && common == n_true;
    let f1 = if n_predicted + n_true == 0 {
        1.0
    } else {
        2.0 * common as f64 / (n_predicted + n_true) as f64
    };
    let read = serde_json::json!({"added": p_added, "deleted": p_deleted});
    Ok((
        read,
        vec![
            ("exact".into(), f64::from(u8::from(exact))),
            ("atom_f1".into(), f1),
        ],
        None,
    ))
}

/// Fluent values as `{"(fuel t1)": 5}` or `[{"fluent": "(fuel t1)", "after": 5}]`.
fn predicted_numeric(
    value: Option<&Value>,
    atoms: &Vocabulary,
) -> Result<Vec<(String, f64)>, String> {
    let bad =
        || "\"numeric\" is {\"(fluent args)\": value} or [{\"fluent\", \"after\"}]".to_string();
    let fluent = |text: &str| read::term(text, atoms).ok_or(format!("`{text}` is not a fluent"));
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| Ok((fluent(k)?, v.as_f64().ok_or_else(bad)?)))
            .collect(),
        Some(Value::Array(entries)) => entries
            .iter()
            .map(|e| {
                let name = e.get("fluent").and_then(Value::as_str).ok_or_else(bad)?;
                let after = e.get("after").and_then(Value::as_f64).ok_or_else(bad)?;
                Ok((fluent(name)?, after))
            })
            .collect(),
        Some(_) => Err(bad()),
    }
}

fn verification(valid: bool, fields: &serde_json::Map<String, Value>) -> Judged {
    let value = field(fields, &["verdict", "valid", "answer", "text", "output"])
        .ok_or("no \"verdict\" or \"answer\"")?;
    let said = match value {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => n
            .as_f64()
            .filter(|v| *v == 0.0 || *v == 1.0)
            .map(|v| v == 1.0),
        Value::String(text) => read::verdict(text),
        _ => None,
    }
    .ok_or("the verdict is neither valid nor invalid (yes/no, true/false, valid/invalid)")?;
    Ok((
        Value::Bool(said),
        vec![("correct".into(), f64::from(u8::from(said == valid)))],
        None,
    ))
}

fn proposal(
    truth: &Truth,
    fields: &serde_json::Map<String, Value>,
    actions: &Vocabulary,
    top_k: &[usize],
) -> Judged {
    let Truth::Proposal {
        reference,
        keeps_goal_reachable,
        on_optimal_plan,
    } = truth
    else {
        return Err("not a proposal item".into());
    };
    let value = field(
        fields,
        &["actions", "top_k", "proposals", "answer", "text", "output"],
    )
    .ok_or("no \"actions\" or \"answer\"")?;
    let (proposed, unread) = action_list(value, actions)?;
    if proposed.is_empty() {
        return Err(match unread.first() {
            Some(line) => format!("no action is read (`{line}`…)"),
            None => "no action is proposed".into(),
        });
    }
    let mut ranked: Vec<String> = Vec::new();
    for action in proposed {
        if !ranked.contains(&action) {
            ranked.push(action);
        }
    }
    let as_set =
        |list: &Vec<String>| -> HashSet<String> { list.iter().map(|a| canonical(a)).collect() };
    let reference: HashSet<String> = [canonical(reference)].into();
    let optimal = on_optimal_plan.as_ref().map(as_set);
    let keeping = keeps_goal_reachable.as_ref().map(as_set);
    let mut values = Vec::new();
    for &k in top_k {
        let first = &ranked[..k.min(ranked.len())];
        let hit =
            |set: &HashSet<String>| f64::from(u8::from(first.iter().any(|a| set.contains(a))));
        values.push((format!("top_{k}_reference"), hit(&reference)));
        if let Some(set) = &optimal {
            values.push((format!("top_{k}_on_optimal_plan"), hit(set)));
        }
        if let Some(set) = &keeping {
            values.push((format!("top_{k}_keeps_goal_reachable"), hit(set)));
        }
    }
    let note =
        (!unread.is_empty()).then(|| format!("lines not read as actions: {}", unread.join(" | ")));
    Ok((serde_json::json!(ranked), values, note))
}

/// Actions as a JSON array (each entry one action) or as text (one a line, prose skipped); the
/// entries or lines not read.
fn action_list(value: &Value, actions: &Vocabulary) -> Result<(Vec<String>, Vec<String>), String> {
    match value {
        Value::Array(entries) => {
            let mut read = Vec::new();
            let mut unread = Vec::new();
            for entry in entries {
                let text = entry.as_str().ok_or("a list entry is not a string")?;
                match read::term(text, actions) {
                    Some(action) => read.push(action),
                    None => unread.push(text.to_string()),
                }
            }
            Ok((read, unread))
        }
        Value::String(text) => Ok(read::actions(text, actions)),
        _ => Err("actions are an array of strings or a text".into()),
    }
}

fn planning(
    env: Result<&mut Env, String>,
    prefix: &[String],
    fields: &serde_json::Map<String, Value>,
    actions: &Vocabulary,
) -> Judged {
    let value = field(fields, &["plan", "actions", "answer", "text", "output"])
        .ok_or("no \"plan\" or \"answer\"")?;
    let (plan, unread) = action_list(value, actions)?;
    // In a plan, a line that looks like an action but does not read is a lost step.
    if let Some(line) = unread.iter().find(|l| l.contains('(')) {
        return Err(format!("`{line}` is not an action"));
    }
    if matches!(value, Value::Array(_))
        && let Some(entry) = unread.first()
    {
        return Err(format!("`{entry}` is not an action"));
    }
    let env = env?;
    env.reset();
    for (i, step) in prefix.iter().enumerate() {
        if !env.step(step).applied {
            return Err(format!(
                "the item's prefix fails at step {} `{step}`",
                i + 1
            ));
        }
    }
    let mut note = None;
    for (i, step) in plan.iter().enumerate() {
        let transition = env.step(step);
        if !transition.applied {
            let why = transition.diagnostic.map(|d| d.message).unwrap_or_default();
            note = Some(format!("step {} `{step}` cannot be applied: {why}", i + 1));
            break;
        }
    }
    let success = note.is_none() && env.goal_reached();
    if note.is_none() && !success {
        note = Some(format!(
            "the goal does not hold after the {} steps",
            plan.len()
        ));
    }
    Ok((
        serde_json::json!(plan),
        vec![("success".into(), f64::from(u8::from(success)))],
        note,
    ))
}

/// The summary of items' results.
fn summarise(
    results: &[ItemScore],
    top_k: &[usize],
    samples: usize,
    rng: &mut SplitMix64,
) -> Summary {
    let of =
        |kind: Kind| -> Vec<&ItemScore> { results.iter().filter(|r| r.kind == kind).collect() };
    let answered = |list: &[&ItemScore]| Answered {
        items: list.len(),
        predicted: list.iter().filter(|r| r.status != "unanswered").count(),
        unreadable: list.iter().filter(|r| r.status == "unreadable").count(),
    };
    let mut metric = |groups: Vec<Vec<f64>>| estimate(&groups, samples, rng);
    let next = of(Kind::NextState);
    let verify = of(Kind::Verification);
    let propose = of(Kind::Proposal);
    let plan = of(Kind::Planning);
    Summary {
        next_state: NextStateSummary {
            answered: answered(&next),
            exact: metric(grouped(&next, "exact")),
            atom_f1: metric(grouped(&next, "atom_f1")),
        },
        verification: VerificationSummary {
            answered: answered(&verify),
            accuracy: metric(grouped(&verify, "correct")),
            false_positive_rate: metric(rate(&verify, false)),
            false_negative_rate: metric(rate(&verify, true)),
        },
        proposal: ProposalSummary {
            answered: answered(&propose),
            top_k: top_k
                .iter()
                .map(|k| TopK {
                    k: *k,
                    reference: metric(grouped(&propose, &format!("top_{k}_reference"))),
                    on_optimal_plan: metric(grouped(&propose, &format!("top_{k}_on_optimal_plan"))),
                    keeps_goal_reachable: metric(grouped(
                        &propose,
                        &format!("top_{k}_keeps_goal_reachable"),
                    )),
                })
                .collect(),
        },
        planning: PlanningSummary {
            answered: answered(&plan),
            success: metric(grouped(&plan, "success")),
        },
    }
}

/// The false positive rate (`truly_valid` false: the share of invalid items called valid) or
/// the false negative rate (true: the share of valid items called invalid), over the items
/// whose verdict was read.
fn rate(list: &[&ItemScore], truly_valid: bool) -> Vec<Vec<f64>> {
    let mut groups: Vec<Vec<f64>> = Vec::new();
    let mut tasks: Vec<&str> = Vec::new();
    for r in list {
        let (Some(said), Some(valid)) = (r.read.as_bool(), r.expected) else {
            continue;
        };
        if valid != truly_valid {
            continue;
        }
        let wrong = f64::from(u8::from(said != valid));
        match tasks.iter().position(|t| *t == r.task) {
            Some(at) => groups[at].push(wrong),
            None => {
                tasks.push(&r.task);
                groups.push(vec![wrong]);
            }
        }
    }
    groups
}

/// The values of metric `name` of the items, grouped by task in order.
fn grouped(list: &[&ItemScore], name: &str) -> Vec<Vec<f64>> {
    let mut tasks: Vec<&str> = Vec::new();
    let mut groups: Vec<Vec<f64>> = Vec::new();
    for r in list {
        let Some(value) = r.values.get(name) else {
            continue;
        };
        match tasks.iter().position(|t| *t == r.task) {
            Some(at) => groups[at].push(*value),
            None => {
                tasks.push(&r.task);
                groups.push(vec![*value]);
            }
        }
    }
    groups
}

/// Why a metric over no item has no value.
const NO_ITEM: &str = "no item";
/// Why a metric over one item has no interval.
const ONE_ITEM: &str = "no interval below 2 items";

/// The mean of the values with its bootstrap 95% interval: tasks are resampled when there are
/// two or more (items of one task are not independent), else the one task's items.
fn estimate(groups: &[Vec<f64>], samples: usize, rng: &mut SplitMix64) -> Estimate {
    let n: usize = groups.iter().map(Vec::len).sum();
    let sum: f64 = groups.iter().flatten().sum();
    let value = (n > 0).then(|| sum / n as f64);
    let [resampled] = if groups.len() >= 2 {
        let totals: Vec<(f64, usize)> = groups.iter().map(|g| (g.iter().sum(), g.len())).collect();
        resample_statistics(groups.len(), samples, rng, |drawn| {
            let (s, c) = drawn
                .iter()
                .fold((0.0, 0), |(s, c), &i| (s + totals[i].0, c + totals[i].1));
            [(c > 0).then(|| s / c as f64)]
        })
    } else {
        let values: Vec<f64> = groups.iter().flatten().copied().collect();
        resample_statistics(values.len(), samples, rng, |drawn| {
            [Some(
                drawn.iter().map(|&i| values[i]).sum::<f64>() / drawn.len() as f64,
            )]
        })
    };
    estimate_of(value, n, &resampled, (NO_ITEM, ONE_ITEM))
}
