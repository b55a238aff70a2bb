//! `worldmodel::score`: the hand-worked fixture (fixtures/worldmodel/score: sloppy answers of
//! every kind, worked out by hand in docs/worldmodel.md's terms) gives its values; items `make`
//! writes around the reference plans of ../shared/plans score 1 everywhere with the truth as the
//! prediction, and 0 where the truth is turned around; the W80x fixtures give their codes.

mod common;

use pddlc::diagnostics::{Code, FileId};
use pddlc::kitchen::Estimate;
use pddlc::task::{Task, TaskFiles};
use pddlc::worldmodel::{
    Item, MakeOptions, ScoreOptions, Scores, TaskRecord, Tasks, items_jsonl, make, read_items,
    score,
};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn load(domain: &Path, problem: &Path) -> Task {
    let read = |p: &Path| std::fs::read_to_string(p).expect("task file");
    pddlc::task::load(
        Some(&read(domain)),
        Some(&read(problem)),
        TaskFiles::default(),
    )
    .unwrap_or_else(|d| panic!("{}: {d:?}", domain.display()))
}

/// Scores a fixture folder's `items.jsonl` and `predictions.jsonl`, its task records' paths
/// taken from the folder.
fn score_fixture(name: &str, top_k: &[usize]) -> (Scores, Vec<Code>) {
    let dir = root().join("fixtures/worldmodel").join(name);
    let items_text = std::fs::read_to_string(dir.join("items.jsonl")).expect("items");
    let predictions = std::fs::read_to_string(dir.join("predictions.jsonl")).expect("predictions");
    let items = read_items(&items_text, FileId(0));
    let loaded: Vec<(String, Task)> = items
        .tasks
        .iter()
        .map(|r| {
            let task = load(&dir.join(&r.domain), &dir.join(&r.problem));
            (r.task.clone(), task)
        })
        .collect();
    let tasks: Tasks = loaded
        .iter()
        .map(|(n, t)| (n.clone(), (&t.domain, &t.problem)))
        .collect();
    let options = ScoreOptions {
        top_k: top_k.to_vec(),
        samples: 200,
        ..ScoreOptions::default()
    };
    let scores = score(&items, &tasks, &predictions, &options);
    let codes = items
        .diagnostics
        .iter()
        .chain(&scores.diagnostics)
        .map(|d| d.code)
        .collect();
    (scores, codes)
}

fn value(e: &Estimate) -> f64 {
    e.value.expect("a value")
}

fn close(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() < 1e-9, "{what}: {got} ≠ {want}");
}

#[test]
fn the_hand_worked_fixture_gives_its_values() {
    let (scores, codes) = score_fixture("score", &[1, 3]);
    let s = &scores.overall;
    // next-0 misses the deletion of (clear a): 4 of 5 elements, F1 = 8/9; next-1 gives the
    // whole next state, read case-insensitively and in call style: exact.
    close(value(&s.next_state.exact), 0.5, "exact");
    close(
        value(&s.next_state.atom_f1),
        (8.0 / 9.0 + 1.0) / 2.0,
        "atom F1",
    );
    // "Yes, …" right; "not valid" right; `true` on an invalid plan wrong (a false positive);
    // "Hmm, hard to say." unreadable, 0.
    close(value(&s.verification.accuracy), 0.5, "accuracy");
    close(value(&s.verification.false_positive_rate), 0.5, "FP rate");
    assert_eq!(s.verification.false_positive_rate.n, 2);
    close(value(&s.verification.false_negative_rate), 0.0, "FN rate");
    assert_eq!(s.verification.answered.unreadable, 1);
    // propose-0 "1. Unstack(A, B)" first; propose-1 proposes (stack a b), which keeps the goal
    // reachable but is neither the reference nor on an optimal plan, then (put-down a).
    let [top1, top3] = &s.proposal.top_k[..] else {
        panic!("two K")
    };
    close(value(&top1.reference), 0.5, "top-1 reference");
    close(value(&top1.on_optimal_plan), 0.5, "top-1 optimal");
    close(value(&top1.keeps_goal_reachable), 1.0, "top-1 keeps");
    for e in [
        &top3.reference,
        &top3.on_optimal_plan,
        &top3.keeps_goal_reachable,
    ] {
        close(value(e), 1.0, "top-3");
    }
    // plan-half's fenced plan after prose reaches the goal; plan-quarter is not answered.
    close(value(&s.planning.success), 0.5, "success");
    assert_eq!(s.planning.answered.predicted, 1);
    let status: Vec<(&str, &str)> = scores
        .items
        .iter()
        .map(|i| (i.id.as_str(), i.status))
        .collect();
    assert!(status.contains(&("verify-neg-3", "unreadable")));
    assert!(status.contains(&("plan-quarter", "unanswered")));
    assert_eq!(
        scores
            .items
            .iter()
            .find(|i| i.id == "propose-0")
            .map(|i| &i.read),
        Some(&json!(["(unstack a b)", "(pick-up c)"]))
    );
    assert_eq!(
        codes,
        [
            Code::WorldmodelUnreadablePrediction,
            Code::WorldmodelUnmatchedPrediction,
            Code::WorldmodelUnmatchedPrediction
        ]
    );
    assert_eq!(scores.tasks.len(), 1);
}

#[test]
fn the_fixtures_give_their_codes() {
    for (name, code) in [
        (
            "W802_unreadable_prediction",
            Code::WorldmodelUnreadablePrediction,
        ),
        ("W803_bad_items", Code::WorldmodelBadItems),
        (
            "W804_unmatched_prediction",
            Code::WorldmodelUnmatchedPrediction,
        ),
    ] {
        let (_, codes) = score_fixture(name, &[1]);
        assert!(
            !codes.is_empty() && codes.iter().all(|c| *c == code),
            "{name}: {codes:?}"
        );
    }
    // The bad line and the repeated item are left out; the first item is still scored.
    let (scores, _) = score_fixture("W803_bad_items", &[1]);
    assert_eq!(scores.items.len(), 1);
    close(value(&scores.overall.next_state.exact), 1.0, "W803 exact");
}

/// What a model that knows the truth answers, item by item; `turned` answers the opposite where
/// it can (verdicts inverted, the plan's last step dropped, the change's atoms swapped).
fn answers(items: &[Value], turned: bool) -> String {
    let mut out = String::new();
    for item in items {
        let id = &item["id"];
        let line = match item["kind"].as_str().unwrap_or_default() {
            "next_state" if turned => json!({"id": id,
                "added": item["change"]["deleted"], "deleted": item["change"]["added"]}),
            "next_state" => json!({"id": id,
                "added": item["change"]["added"], "deleted": item["change"]["deleted"]}),
            "verification" => {
                let valid = item["label"]["valid"].as_bool().expect("label");
                json!({"id": id, "verdict": valid != turned})
            }
            "planning" => {
                let mut plan: Vec<Value> =
                    item["reference"].as_array().cloned().unwrap_or_default();
                if turned {
                    plan.pop();
                }
                json!({"id": id, "plan": plan})
            }
            _ => continue,
        };
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

#[test]
fn items_of_reference_plans_score_one_for_the_truth_and_zero_for_its_opposite() {
    let Some(shared) = common::shared_with(&["plans", "corpus"], "worldmodel_score_reference")
    else {
        return;
    };
    let rows: Vec<Value> = common::index_records(&shared.join("plans/index.jsonl"));
    let mut text = String::new();
    let mut loaded: Vec<(String, Task)> = Vec::new();
    let mut families = std::collections::HashSet::new();
    for row in rows.iter().filter(|r| {
        r["kind"] == "planner"
            && r["val"]["category"] == "valid"
            && r["features"].as_array().is_some_and(|f| {
                f.iter().all(|x| {
                    ["typing", "constants", "negative-preconditions", "equality"]
                        .contains(&x.as_str().unwrap_or_default())
                })
            })
    }) {
        let path = |key: &str| -> PathBuf { shared.join(row[key].as_str().unwrap_or_default()) };
        let name = row["id"].as_str().unwrap_or_default().to_string();
        // One task per domain, twelve at most, keep the test short; all their items are scored.
        let family = path("domain").parent().map(Path::to_path_buf);
        if !families.insert(family) || loaded.len() == 12 {
            continue;
        }
        let task = load(&path("domain"), &path("problem"));
        let plan = std::fs::read_to_string(path("plan")).expect("plan");
        let options = MakeOptions {
            proposals: false,
            ..MakeOptions::default()
        };
        let items: Vec<Item> = make(&task.domain, &task.problem, Some(&plan), &options)
            .unwrap_or_else(|d| panic!("{name}: {d:?}"));
        let record = TaskRecord {
            task: name.clone(),
            domain: path("domain").display().to_string(),
            problem: path("problem").display().to_string(),
        };
        text.push_str(&items_jsonl(&record, &items));
        loaded.push((name, task));
    }
    assert!(loaded.len() >= 10, "{} tasks", loaded.len());
    let items = read_items(&text, FileId(0));
    assert!(items.diagnostics.is_empty(), "{:?}", items.diagnostics);
    assert!(items.len() >= 300, "{} items", items.len());
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("item line"))
        .filter(|v: &Value| v["kind"] != "task")
        .collect();
    let tasks: Tasks = loaded
        .iter()
        .map(|(n, t)| (n.clone(), (&t.domain, &t.problem)))
        .collect();
    let options = ScoreOptions {
        samples: 100,
        ..ScoreOptions::default()
    };
    // Items of several tasks share ids: predictions name their task.
    let tagged = |answers: String| -> String {
        answers
            .lines()
            .zip(records.iter().filter(|r| r["kind"] != "proposal"))
            .map(|(line, item)| {
                let mut v: Value = serde_json::from_str(line).expect("answer");
                v["task"] = item["task"].clone();
                v.to_string() + "\n"
            })
            .collect()
    };
    let truth = score(&items, &tasks, &tagged(answers(&records, false)), &options);
    assert!(truth.diagnostics.is_empty(), "{:?}", truth.diagnostics);
    let s = &truth.overall;
    for (what, e) in [
        ("exact", &s.next_state.exact),
        ("F1", &s.next_state.atom_f1),
        ("accuracy", &s.verification.accuracy),
        ("success", &s.planning.success),
    ] {
        close(value(e), 1.0, what);
    }
    close(value(&s.verification.false_positive_rate), 0.0, "FP");
    assert_eq!(truth.tasks.len(), loaded.len());
    let opposite = score(&items, &tasks, &tagged(answers(&records, true)), &options);
    let s = &opposite.overall;
    close(value(&s.verification.accuracy), 0.0, "turned accuracy");
    close(value(&s.verification.false_positive_rate), 1.0, "turned FP");
    close(value(&s.verification.false_negative_rate), 1.0, "turned FN");
    close(value(&s.planning.success), 0.0, "turned success");
    // Only a change that is empty stays the same turned around.
    let next: Vec<&Value> = records
        .iter()
        .filter(|r| r["kind"] == "next_state")
        .collect();
    let empty = next
        .iter()
        .filter(|r| r["change"]["added"] == json!([]) && r["change"]["deleted"] == json!([]))
        .count();
    close(
        value(&s.next_state.exact),
        empty as f64 / next.len() as f64,
        "turned exact",
    );
    eprintln!(
        "{} items of {} tasks: truth scores 1, its opposite 0",
        items.len(),
        loaded.len()
    );
}
