//! `validate` on hand-written plans for the PDDL+ domains of ../shared/corpus: each plan's
//! verdict is reasoned out from the PDDL+ semantics in fixtures/plans/pddl-plus-corpus.txt (a
//! valid plan with its value, or the code of its first failure and a phrase of its message,
//! `V310` where the change is not polynomial).

mod common;

use pddlc::ast::PddlFile;
use pddlc::validate::{ValidateOptions, validate};
use std::path::Path;

fn load(path: &Path) -> PddlFile {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    pddlc::parse::file(&text)
        .value
        .unwrap_or_else(|| panic!("{} does not parse", path.display()))
}

#[test]
fn pddl_plus_corpus_plans_get_their_reasoned_verdicts() {
    let Some(shared) = common::shared_with(
        &["corpus/pddl-plus-domains"],
        "pddl_plus_corpus_plans_get_their_reasoned_verdicts",
    ) else {
        return;
    };
    let corpus = shared.join("corpus/pddl-plus-domains");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/plans");
    let table = std::fs::read_to_string(fixtures.join("pddl-plus-corpus.txt")).expect("table");
    let rows: Vec<Vec<String>> = table
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split(" | ").map(|c| c.trim().to_string()).collect())
        .collect();
    assert!(rows.len() >= 9, "only {} plans", rows.len());
    let cases = rows
        .into_iter()
        .map(|row| (row.get(2).cloned().unwrap_or_default(), row));
    common::run_each(cases, |name, row| {
        let [domain, problem, plan, expected, detail] = row.as_slice() else {
            panic!("{name}: a row has five columns: {row:?}");
        };
        let (PddlFile::Domain(domain), PddlFile::Problem(problem)) =
            (load(&corpus.join(domain)), load(&corpus.join(problem)))
        else {
            panic!("{name}: not a domain and a problem");
        };
        let plan = std::fs::read_to_string(fixtures.join("pddl-plus").join(plan)).expect("plan");
        let report = validate(&domain, &problem, &plan, &ValidateOptions::default());
        if expected == "valid" {
            assert_eq!(report.valid, Some(true), "{name}: {report:#?}");
            let value: f64 = detail.parse().expect("the plan's value");
            let metric = report.metric.expect("a value");
            assert!((metric - value).abs() < 1e-6, "{name}: value {metric}");
        } else {
            let first = report.failures.first().expect("a failure");
            assert_eq!(first.code().as_str(), expected, "{name}: {report:#?}");
            assert!(
                first.diagnostic.message.contains(detail.as_str()),
                "{name}: {}",
                first.diagnostic.message
            );
            let verdict = if expected == "V310" {
                None
            } else {
                Some(false)
            };
            assert_eq!(report.valid, verdict, "{name}");
        }
    });
}
