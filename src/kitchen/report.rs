//! Failure records (semantics §9), their tallies, and the summary over many plans in the shape
//! of the Simmer paper's Table 3 (§10).

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FailureType {
    Syntax,
    Immediate,
    Latent,
}

impl FailureType {
    pub fn as_str(self) -> &'static str {
        match self {
            FailureType::Syntax => "syntax",
            FailureType::Immediate => "immediate",
            FailureType::Latent => "latent",
        }
    }
}

/// One failure, with the field names and meanings of Simmer's `Failure` record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// 1-based parsed step, or 0 for the post-execution audits.
    pub step: usize,
    pub failure_type: FailureType,
    /// The executor's rendering of the step, or the audit's name.
    pub action: String,
    pub reason: String,
    /// 1 for syntax and immediate failures, 2 for latent ones.
    pub severity: u8,
    /// False only for food-safety failures.
    pub reversible: bool,
}

impl Failure {
    pub fn new(step: usize, failure_type: FailureType, action: &str, reason: String) -> Failure {
        Failure {
            step,
            failure_type,
            action: action.to_string(),
            reason,
            severity: if failure_type == FailureType::Latent {
                2
            } else {
                1
            },
            reversible: true,
        }
    }

    pub fn irreversible(mut self) -> Failure {
        self.reversible = false;
        self
    }

    /// Simmer's one-line form: `[Step k] (type) reason  |  action: text`.
    pub fn line(&self) -> String {
        format!(
            "[Step {}] ({}) {}  |  action: {}",
            self.step,
            self.failure_type.as_str(),
            self.reason,
            self.action
        )
    }
}

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
            match f.failure_type {
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
    /// `Step 3` for a group of one, `Steps 3,7 (x2)` for more, as both of Simmer's reports
    /// name a group's steps.
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
                failure_type: f.failure_type,
                reversible: f.reversible,
                count: 1,
                steps: vec![f.step],
                first_action: f.action.clone(),
            }),
        }
    }
    groups
}

/// Simmer's human deduplicated report (semantics §9.2).
pub fn deduplicated_text(failures: &[Failure]) -> String {
    if failures.is_empty() {
        return "No failures.\n".to_string();
    }
    let mut groups = deduplicate(failures);
    let mut out = format!(
        "Failures: {} raw, {} unique reasons\n\n",
        failures.len(),
        groups.len()
    );
    groups.sort_by_key(|g| std::cmp::Reverse(g.count));
    for g in groups {
        let first = if g.count == 1 { "" } else { "first: " };
        out.push_str(&format!(
            "  {}: {}\n    {first}{}\n",
            g.steps_text(),
            g.reason,
            g.first_action
        ));
    }
    out
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
        .filter(|f| f.failure_type != FailureType::Latent && f.step != 0)
        .count();
    let groups = deduplicate(failures);
    let (mut latent_groups, mut other_groups): (Vec<&Group>, Vec<&Group>) = groups
        .iter()
        .partition(|g| g.failure_type == FailureType::Latent);
    other_groups.sort_by_key(|g| std::cmp::Reverse(g.count));
    latent_groups.sort_by_key(|g| std::cmp::Reverse(g.count));
    let latent = failures
        .iter()
        .filter(|f| f.failure_type == FailureType::Latent)
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
    for (i, line) in super::plan::physical_lines(plan_text)
        .into_iter()
        .enumerate()
    {
        out.push_str(line.trim_end());
        out.push('\n');
        for f in failures.iter().filter(|f| f.step == i + 1) {
            out.push_str(&format!(
                "  >> {} {}\n",
                tag(f.failure_type, f.reversible),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deduplicated_report_groups_by_reason_most_frequent_first() {
        let failure = |step, reason: &str| {
            Failure::new(
                step,
                FailureType::Immediate,
                &format!("[A{step}]"),
                reason.into(),
            )
        };
        let failures = [failure(3, "b"), failure(4, "a"), failure(5, "a")];
        // §9.2: groups by reason in order of first occurrence, then sorted by count (stable).
        assert_eq!(
            deduplicated_text(&failures),
            "Failures: 3 raw, 2 unique reasons\n\n  Steps 4,5 (x2): a\n    first: [A4]\n  Step 3: b\n    [A3]\n"
        );
        assert_eq!(deduplicated_text(&[]), "No failures.\n");
        let metrics = TaskMetrics::of(&failures);
        assert_eq!((metrics.immediate, metrics.total, metrics.clean), (2, 2, 0));
    }
}
