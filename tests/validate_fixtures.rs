//! Runs every fixture under fixtures/validate: `plan.txt`, against the directory's own
//! `domain.pddl` and `problem.pddl` or else the shipped blocks world. A directory named after a
//! code must report it; one named `valid_…` must be valid. The JSON report and the rendered
//! diagnostics are snapshotted.

mod common;

use pddlc::ast::PddlFile;
use pddlc::diagnostics::SourceFile;
use pddlc::diagnostics::render::{self, HumanOptions, Sources};
use pddlc::validate::{ValidateOptions, validate};
use std::path::Path;

fn read(dir: &Path, name: &str) -> String {
    let own = dir.join(name);
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("domains/blocksworld")
        .join(name);
    std::fs::read_to_string(if own.exists() { own } else { shipped }).expect("task file")
}

#[test]
fn validate_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/validate");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("fixtures/validate")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 10);
    let cases = dirs.into_iter().map(|dir| {
        let name = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        (name, dir)
    });
    common::run_each(cases, |name, dir| {
        let Some(PddlFile::Domain(domain)) = pddlc::parse::file(&read(&dir, "domain.pddl")).value
        else {
            panic!("{name}: domain");
        };
        let Some(PddlFile::Problem(problem)) =
            pddlc::parse::file(&read(&dir, "problem.pddl")).value
        else {
            panic!("{name}: problem");
        };
        let plan = std::fs::read_to_string(dir.join("plan.txt")).expect("plan.txt");
        let report = validate(&domain, &problem, &plan, &ValidateOptions::default());
        if name.starts_with("valid_") {
            assert_eq!(report.valid, Some(true), "{name}: {report:?}");
        } else {
            let code = name.split('_').next().unwrap_or_default();
            assert!(
                report.diagnostics().any(|d| d.code.as_str() == code),
                "{name}: expected {code}, got {report:?}"
            );
            assert_ne!(report.valid, Some(true), "{name}");
        }
        let sources = [
            SourceFile::new("domain.pddl", read(&dir, "domain.pddl")),
            SourceFile::new("problem.pddl", read(&dir, "problem.pddl")),
            SourceFile::new("plan.txt", plan.clone()),
        ];
        let diagnostics: Vec<_> = report.diagnostics().cloned().collect();
        let sources = Sources::new(&sources);
        let human = render::human(&diagnostics, &sources, &HumanOptions::default());
        let gcc = render::gcc(&diagnostics, &sources);
        let json = serde_json::to_string_pretty(&report).expect("report serialises");
        insta::with_settings!({
            snapshot_path => "snapshots/validate",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name, format!("{json}\n{gcc}\n{human}"));
        });
    });
}

#[test]
fn keep_going_applies_the_effects_of_a_failed_step() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("domains/blocksworld");
    let Some(PddlFile::Domain(domain)) = pddlc::parse::file(&read(&root, "domain.pddl")).value
    else {
        panic!("domain");
    };
    let Some(PddlFile::Problem(problem)) = pddlc::parse::file(&read(&root, "problem.pddl")).value
    else {
        panic!("problem");
    };
    // `(unstack b c)` fails (`b` is not clear); applied anyway, it leaves `b` held, so
    // `(stack b a)` then succeeds. Only the first step and the goal fail.
    let plan = "(unstack b c)\n(stack b a)\n";
    let options = ValidateOptions {
        keep_going: true,
        ..ValidateOptions::default()
    };
    let report = validate(&domain, &problem, plan, &options);
    let failed: Vec<(Option<usize>, &str)> =
        report.failures.iter().map(|f| (f.step, f.kind())).collect();
    assert_eq!(failed, vec![(Some(1), "precondition"), (None, "goal")]);
    assert_eq!(report.failed_step, Some(1));
    // Without --continue the plan stops at step 1.
    let report = validate(&domain, &problem, plan, &ValidateOptions::default());
    assert_eq!(report.failures.len(), 1);
}
