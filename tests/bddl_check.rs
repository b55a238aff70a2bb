//! `check` for BDDL (`pddlc::bddl::check`) on the DEV data: every defect of the survey
//! (`reference/findings.jsonl`, semantics.md §10) is reported at its line with the matching
//! code, and nothing else is reported.

mod common;

use pddlc::ast::bddl::BddlFile;
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

/// Probes the reference loads although pddlc reports an error, each a deliberate difference
/// (docs/bddl.md): the reference changes the activity's meaning without a word.
const STRICTER: &[(&str, &str)] = &[
    (
        "goal-two-exprs",
        "B709: the second goal formula is silently dropped",
    ),
    (
        "variable-named-like-object",
        "B708: an object named `x`, not `<category>_<n>`",
    ),
    (
        "repeated-category-line",
        "B720: the first line's instances are lost",
    ),
    (
        "mismatched-instance-name",
        "B708: an instance named after another category",
    ),
];

#[test]
fn every_probe_the_reference_fails_to_load_is_an_error_and_the_others_are_not() {
    let Some(root) = common::shared_part("bddl", "bddl_check") else {
        return;
    };
    let probes = std::fs::read_to_string(root.join("reference/probes.jsonl")).expect("probes");
    // The probes ran with bddl 1.0.1 simulating iGibson: its domain file.
    let domain_text =
        std::fs::read_to_string(root.join("behavior-100/activity_definitions/domain_igibson.bddl"))
            .expect("the iGibson domain");
    let Some(BddlFile::Domain(domain)) = pddlc::parse::bddl(&domain_text).value else {
        panic!("the iGibson domain parses");
    };
    let mut stricter = Vec::new();
    let mut count = 0;
    for line in probes.lines() {
        let probe: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let id = probe["id"].as_str().expect("id");
        let text = probe["bddl"].as_str().expect("bddl text");
        let parsed = pddlc::parse::bddl(text);
        let mut diagnostics = parsed.diagnostics.clone();
        if let Some(tree) = &parsed.value {
            diagnostics.extend(check_file(tree, &[&domain], None, None).0);
        }
        let errors: Vec<&str> = diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.code.as_str())
            .collect();
        let fails = probe["load"] != "ok" || probe["init"] != "ok";
        if fails {
            assert!(
                !errors.is_empty(),
                "{id}: the reference fails ({}), pddlc finds no error",
                probe["load"]
            );
        } else if !errors.is_empty() {
            stricter.push((id.to_string(), errors.join(" ")));
        }
        count += 1;
    }
    assert_eq!(count, 48);
    let ids: Vec<&str> = stricter.iter().map(|(id, _)| id.as_str()).collect();
    let expected: Vec<&str> = STRICTER.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, expected, "{stricter:?}");
}
