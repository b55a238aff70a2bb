//! The views of a run: Simmer's JSON of a verdict and of the final state, the tallies of
//! failure records (semantics §9), and the summary over many plans in the shape
//! of the Simmer paper's Table 3 (§10).

use super::data::plan::physical_lines;
use super::execute::{Failure, FailureType, Name, Object, Outcome};
use serde::Serialize;

/// Tallies of a plan's failures, as in the reference verdicts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub any: usize,
    pub syntax: usize,
    pub immediate: usize,
    pub latent: usize,
    pub irreversible: usize,
    pub reversible: usize,
}

impl Counts {
    pub fn of(failures: &[Failure]) -> Counts {
        let mut c = Counts {
            any: failures.len(),
            ..Counts::default()
        };
        for f in failures {
            match f.failure_type() {
                FailureType::Syntax => c.syntax += 1,
                FailureType::Immediate => c.immediate += 1,
                FailureType::Latent => c.latent += 1,
            }
            if f.reversible {
                c.reversible += 1;
            } else {
                c.irreversible += 1;
            }
        }
        c
    }
}

/// The summary over many plans: how many plans have each kind of failure, their shares, and
/// failures per plan (the paper's Table 3).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    pub plans: usize,
    pub with_any: usize,
    pub with_syntax: usize,
    pub with_immediate: usize,
    pub with_latent: usize,
    pub with_irreversible: usize,
    pub with_none: usize,
    pub share_any: f64,
    pub share_syntax: f64,
    pub share_immediate: f64,
    pub share_latent: f64,
    pub share_irreversible: f64,
    pub failures: Counts,
    pub failures_per_plan: f64,
}

/// Summarises the counts of many plans.
pub fn summarise(counts: &[Counts]) -> Summary {
    let n = counts.len();
    let plans_with = |f: &dyn Fn(&Counts) -> usize| counts.iter().filter(|c| f(c) > 0).count();
    let share = |k: usize| if n == 0 { 0.0 } else { k as f64 / n as f64 };
    let mut total = Counts::default();
    for c in counts {
        total.any += c.any;
        total.syntax += c.syntax;
        total.immediate += c.immediate;
        total.latent += c.latent;
        total.irreversible += c.irreversible;
        total.reversible += c.reversible;
    }
    let with_any = plans_with(&|c| c.any);
    let with_syntax = plans_with(&|c| c.syntax);
    let with_immediate = plans_with(&|c| c.immediate);
    let with_latent = plans_with(&|c| c.latent);
    let with_irreversible = plans_with(&|c| c.irreversible);
    Summary {
        plans: n,
        with_any,
        with_syntax,
        with_immediate,
        with_latent,
        with_irreversible,
        with_none: n - with_any,
        share_any: share(with_any),
        share_syntax: share(with_syntax),
        share_immediate: share(with_immediate),
        share_latent: share(with_latent),
        share_irreversible: share(with_irreversible),
        failures: total,
        failures_per_plan: share(total.any),
    }
}

/// Failures grouped by reason text, in order of first occurrence (Simmer's deduplicated report).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Group {
    pub reason: String,
    pub failure_type: FailureType,
    pub reversible: bool,
    pub count: usize,
    pub steps: Vec<usize>,
    pub first_action: String,
}

impl Group {
    /// `Step 3` for a group of one, `Steps 3,7 (x2)` for more, as Simmer's reports name a
    /// group's steps.
    fn steps_text(&self) -> String {
        if self.count == 1 {
            format!("Step {}", self.steps[0])
        } else {
            let steps: Vec<String> = self.steps.iter().map(usize::to_string).collect();
            format!("Steps {} (x{})", steps.join(","), self.count)
        }
    }
}

pub fn deduplicate(failures: &[Failure]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for f in failures {
        match groups.iter_mut().find(|g| g.reason == f.reason) {
            Some(g) => {
                g.count += 1;
                g.steps.push(f.step);
            }
            None => groups.push(Group {
                reason: f.reason.clone(),
                failure_type: f.failure_type(),
                reversible: f.reversible,
                count: 1,
                steps: vec![f.step],
                first_action: f.action.clone(),
            }),
        }
    }
    groups
}

/// The per-task metrics of a run (semantics §10.1), from the deduplicated failure groups:
/// `immediate` counts groups that are not latent (syntax included), `latent` the latent groups,
/// `irreversible` the groups that are not reversible; `total` is immediate + latent and `clean`
/// is 1 when it is 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TaskMetrics {
    pub immediate: usize,
    pub latent: usize,
    pub irreversible: usize,
    pub total: usize,
    pub clean: usize,
}

impl TaskMetrics {
    pub fn of(failures: &[Failure]) -> TaskMetrics {
        let groups = deduplicate(failures);
        let latent = groups
            .iter()
            .filter(|g| g.failure_type == FailureType::Latent)
            .count();
        let immediate = groups.len() - latent;
        TaskMetrics {
            immediate,
            latent,
            irreversible: groups.iter().filter(|g| !g.reversible).count(),
            total: immediate + latent,
            clean: usize::from(groups.is_empty()),
        }
    }
}

/// `[TYPE/REV]`, as the result file tags a failure or a group.
fn tag(failure_type: FailureType, reversible: bool) -> String {
    format!(
        "[{}/{}]",
        failure_type.as_str().to_uppercase(),
        if reversible {
            "REVERSIBLE"
        } else {
            "IRREVERSIBLE"
        }
    )
}

/// The annotated result file Simmer's `evaluate_plans.py` writes for a plan (semantics §9.3):
/// the header with the task's title line (the first line of `task_NNN.txt` when it starts with
/// `Task:`), the plan's path, the failure counts and the deduplicated summary, then the plan's
/// physical lines, each followed by the failures whose step number equals its line number
/// (Simmer's own mismatch of steps and lines is kept), then the audits' failures.
pub fn result_file(
    task_line: &str,
    plan_path: &str,
    plan_text: &str,
    failures: &[Failure],
) -> String {
    let imm_raw = failures
        .iter()
        .filter(|f| f.failure_type() != FailureType::Latent && f.step != 0)
        .count();
    let groups = deduplicate(failures);
    let (mut latent_groups, mut other_groups): (Vec<&Group>, Vec<&Group>) = groups
        .iter()
        .partition(|g| g.failure_type == FailureType::Latent);
    other_groups.sort_by_key(|g| std::cmp::Reverse(g.count));
    latent_groups.sort_by_key(|g| std::cmp::Reverse(g.count));
    let latent = failures
        .iter()
        .filter(|f| f.failure_type() == FailureType::Latent)
        .count();
    let irreversible = failures.iter().filter(|f| !f.reversible).count();
    let title = if task_line.starts_with("Task:") {
        task_line
    } else {
        ""
    };
    let mut out = format!(
        "# {title}\n# Plan: {plan_path}\n# Immediate failures: {imm_raw} raw, {} unique (all reversible)\n# Latent failures: {latent} ({irreversible} irreversible, {} reversible)\n#\n",
        other_groups.len(),
        latent.saturating_sub(irreversible)
    );
    if !failures.is_empty() {
        out.push_str("# === Failure Summary ===\n");
        for g in other_groups.iter().chain(&latent_groups) {
            let tag = tag(g.failure_type, g.reversible);
            out.push_str(&format!("#   {tag} {}: {}\n", g.steps_text(), g.reason));
        }
        out.push_str("#\n");
    }
    out.push_str("# === Annotated Plan ===\n\n");
    for (i, line) in physical_lines(plan_text).into_iter().enumerate() {
        out.push_str(line.trim_end());
        out.push('\n');
        for f in failures.iter().filter(|f| f.step == i + 1) {
            out.push_str(&format!(
                "  >> {} {}\n",
                tag(f.failure_type(), f.reversible),
                f.reason
            ));
        }
    }
    let audits: Vec<&Failure> = failures.iter().filter(|f| f.step == 0).collect();
    if !audits.is_empty() {
        out.push_str("\n# === Post-Execution Audit ===\n");
        for f in audits {
            out.push_str(&format!(
                "  >> {} {}\n",
                tag(FailureType::Latent, f.reversible),
                f.reason
            ));
        }
    }
    out
}

/// The summary over many plans (the paper's Table 3).
pub fn summary(outcomes: &[Outcome]) -> Summary {
    let counts: Vec<Counts> = outcomes.iter().map(Outcome::counts).collect();
    summarise(&counts)
}

/// One object's mutable fields, as `states.jsonl` records them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ObjectState {
    pub states: Vec<Name>,
    pub location: Option<Name>,
    pub contents: Vec<Name>,
    pub contaminated_by: Vec<Name>,
}

/// The final world state in the shape of `plans/dev/states.jsonl`: the agent, the flags, the
/// initial objects whose mutable fields changed, and every created object in creation order.
pub fn final_state_json(outcome: &Outcome) -> serde_json::Value {
    let fields = |o: &Object| ObjectState {
        states: o.states.clone(),
        location: o.location.clone(),
        contents: o.contents.clone(),
        contaminated_by: o.contam.iter().cloned().collect(),
    };
    let mut objects = serde_json::Map::new();
    for (now, before) in outcome.state.initial.iter().zip(&outcome.initial.initial) {
        if fields(now) != fields(before) {
            objects.insert(
                now.id.to_string(),
                serde_json::to_value(fields(now)).unwrap_or_default(),
            );
        }
    }
    let created: Vec<serde_json::Value> = outcome
        .state
        .created
        .iter()
        .map(|o| {
            serde_json::json!({
                "id": o.id, "name": o.name, "properties": o.properties, "states": o.states,
                "location": o.location, "contents": o.contents,
                "contaminated_by": o.contam.iter().collect::<Vec<_>>(),
            })
        })
        .collect();
    let flags: serde_json::Map<String, serde_json::Value> = outcome
        .state
        .flags
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::Value::Bool(*v)))
        .collect();
    serde_json::json!({
        "agent": {
            "location": outcome.state.agent_location,
            "holding": outcome.state.held,
            "contaminated": outcome.state.hands.iter().collect::<Vec<_>>(),
        },
        "env": flags,
        "objects": objects,
        "created_objects": created,
    })
}

/// The JSON of one plan's verdict (a contract, see docs/kitchen.md).
pub fn plan_json(plan: &str, outcome: &Outcome) -> serde_json::Value {
    serde_json::json!({
        "plan": plan,
        "steps": outcome.steps,
        "failures": outcome.failures,
        "counts": outcome.counts(),
        "irreversible_actions": outcome.irreversible_actions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_group_by_reason_in_order_of_first_occurrence() {
        let failure = |step, reason: &str| {
            Failure::new(
                step,
                FailureType::Immediate,
                &format!("[A{step}]"),
                reason.into(),
            )
        };
        let failures = [failure(3, "b"), failure(4, "a"), failure(5, "a")];
        // §9.2: groups by reason in order of first occurrence.
        let groups = deduplicate(&failures);
        let named: Vec<(String, &str, &str)> = groups
            .iter()
            .map(|g| (g.steps_text(), g.reason.as_str(), g.first_action.as_str()))
            .collect();
        assert_eq!(
            named,
            [
                ("Step 3".to_string(), "b", "[A3]"),
                ("Steps 4,5 (x2)".to_string(), "a", "[A4]")
            ]
        );
        assert!(deduplicate(&[]).is_empty());
        let metrics = TaskMetrics::of(&failures);
        assert_eq!((metrics.immediate, metrics.total, metrics.clean), (2, 2, 0));
    }
}
