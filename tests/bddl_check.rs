//! `check` for BDDL (`pddlc::bddl::check`) on the DEV data: every defect of the survey
//! (`reference/findings.jsonl`, semantics.md §10) is reported at its line with the matching
//! code, and nothing else is reported.

mod common;

use pddlc::bddl::{Checked, check_file};
use pddlc::diagnostics::{Diagnostic, LineIndex};
use std::collections::BTreeMap;

/// The survey's codes and ours.
const CODES: &[(&str, &str)] = &[
    ("predicate-not-in-domain", "B702"),
    ("problem-name", "B703"),
    ("goal-undeclared-object", "B704"),
    ("init-undeclared-object", "B704"),
    ("quantified-variable-unused", "B705"),
    ("unused-object", "B706"),
    ("duplicate-goal-conjunct", "B707"),
    ("instance-category-mismatch", "B708"),
    ("goal-extra-expression", "B709"),
    ("unknown-synset", "B710"),
    ("synset-without-model", "B711"),
    ("predicate-not-in-simulator", "B712"),
    ("predicate-unknown", "B713"),
    ("variable-shadowed", "B714"),
    ("goal-unbound-category", "B715"),
    ("quantifier-variable-name", "B716"),
    ("instance-numbering", "B717"),
];

/// (file, line, code) → how many times; the problem name's line is not compared (the survey
/// puts it on line 1, pddlc on the name).
type Found = BTreeMap<(String, usize, String), usize>;

fn key(file: &str, line: usize, code: &str) -> (String, usize, String) {
    let line = if code == "B703" { 0 } else { line };
    (file.to_string(), line, code.to_string())
}

fn checked(root: &std::path::Path, file: &str) -> Vec<(usize, Diagnostic)> {
    let text = std::fs::read_to_string(root.join(file)).expect("readable");
    let parsed = pddlc::parse::bddl(&text);
    let tree = parsed.value.expect("a tree");
    let lines = LineIndex::new(&text);
    // Through the front door the CLI, the language server and Python use.
    let (found, against) = check_file(&tree, &[], None, Some(file));
    assert_eq!(against, Checked::default(), "{file}: checked in full");
    found
        .into_iter()
        .chain(parsed.diagnostics)
        .map(|d| (lines.line(d.primary().map_or(0, |l| l.span.start)), d))
        .collect()
}

#[test]
fn every_surveyed_defect_is_reported_and_nothing_else() {
    let Some(root) = common::shared_part("bddl", "bddl_check") else {
        return;
    };
    let findings =
        std::fs::read_to_string(root.join("reference/findings.jsonl")).expect("findings");
    let mut expected = Found::new();
    for line in findings.lines() {
        let row: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let code = row["code"].as_str().expect("code");
        let ours = CODES
            .iter()
            .find(|(theirs, _)| *theirs == code)
            .map(|(_, ours)| *ours);
        let ours = ours.unwrap_or_else(|| panic!("no code for {code}"));
        let file = row["file"].as_str().expect("file");
        let line = row["line"].as_u64().expect("line") as usize;
        *expected.entry(key(file, line, ours)).or_default() += 1;
    }
    assert!(expected.values().sum::<usize>() >= 2087);
    let mut found = Found::new();
    let mut files = 0;
    for path in common::files_with_extension(&root, "bddl") {
        let file = path
            .strip_prefix(&root)
            .expect("below root")
            .to_string_lossy()
            .to_string();
        if file.contains("annotation/") || !file.contains("/problem") {
            continue;
        }
        files += 1;
        for (line, diagnostic) in checked(&root, &file) {
            *found
                .entry(key(&file, line, diagnostic.code.as_str()))
                .or_default() += 1;
        }
    }
    assert_eq!(files, 269);
    let show = |rows: Vec<(&(String, usize, String), &usize)>| {
        let mut by_code: BTreeMap<&str, usize> = BTreeMap::new();
        for ((_, _, code), _) in &rows {
            *by_code.entry(code.as_str()).or_default() += 1;
        }
        let first: Vec<String> = rows
            .iter()
            .take(30)
            .map(|((file, line, code), n)| format!("{file}:{line} {code} x{n}"))
            .collect();
        format!("{} {by_code:?}\n{}", rows.len(), first.join("\n"))
    };
    let missing: Vec<_> = expected
        .iter()
        .filter(|(k, n)| found.get(*k) != Some(*n))
        .collect();
    let extra: Vec<_> = found
        .iter()
        .filter(|(k, n)| expected.get(*k) != Some(*n))
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing or miscounted {}\nextra or miscounted {}",
        show(missing),
        show(extra)
    );
}
