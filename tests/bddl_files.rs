//! BDDL files (`pddlc::parse::bddl`, `pddlc::fmt::bddl`): every DEV activity definition and
//! domain of BEHAVIOR-100 and ActPlan-1K parses without an error, as the reference reader
//! parses all of them (`reference/load.jsonl`), and the printer round-trips each one: the tree
//! read back from the printed text is the tree, spans aside, and printing is idempotent.

mod common;

use pddlc::ast::bddl::BddlFile;
use pddlc::fmt::PrintOptions;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn dev_files() -> Option<Vec<PathBuf>> {
    let root = common::shared_part("bddl", "bddl_files")?;
    let files = common::files_with_extension(&root, "bddl");
    // 100 BEHAVIOR-100 problems, 169 ActPlan-1K problems and the two in its annotation
    // folder, two domain files.
    assert_eq!(files.len(), 273, "BDDL files under {}", root.display());
    Some(files)
}

fn without_spans(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("span");
            map.values_mut().for_each(without_spans);
        }
        Value::Array(items) => items.iter_mut().for_each(without_spans),
        _ => {}
    }
}

fn tree(file: &BddlFile) -> Value {
    let mut value = serde_json::to_value(file).expect("the tree serialises");
    without_spans(&mut value);
    value
}

fn print(file: &BddlFile, source: &str) -> String {
    let options = PrintOptions {
        width: 80,
        comments_from: Some(source),
    };
    pddlc::fmt::bddl(file, &options)
}

fn parse(path: &Path, text: &str) -> BddlFile {
    let parsed = pddlc::parse::bddl(text);
    let errors: Vec<_> = parsed.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
    parsed
        .value
        .unwrap_or_else(|| panic!("{}: no tree", path.display()))
}

#[test]
fn every_dev_file_parses_and_round_trips() {
    let Some(files) = dev_files() else { return };
    let (mut problems, mut domains) = (0, 0);
    for path in &files {
        let source = std::fs::read_to_string(path).expect("readable");
        let file = parse(path, &source);
        match &file {
            BddlFile::Problem(_) => problems += 1,
            BddlFile::Domain(_) => domains += 1,
        }
        let printed = print(&file, &source);
        let again = parse(path, &printed);
        assert_eq!(
            tree(&file),
            tree(&again),
            "{}: printed\n{printed}",
            path.display()
        );
        assert_eq!(
            print(&again, &printed),
            printed,
            "{}: not idempotent",
            path.display()
        );
    }
    assert_eq!((problems, domains), (271, 2));
}

#[test]
fn text_that_is_not_bddl_gets_the_located_diagnostic_the_reference_failure_corresponds_to() {
    let deep = format!(
        "(define (problem p) (:goal {}(cooked a){}))",
        "(not ".repeat(300),
        ")".repeat(300)
    );
    let cases: &[(&str, &str)] = &[
        ("", "P009"),
        ("; only a comment\n", "P009"),
        ("(define (problem p) (:goal (cooked a))", "P001"),
        ("(define (problem p) (:goal (cooked a))))", "P003"),
        ("(define (problem p)) (extra)", "P004"),
        ("(problem p)", "P005"),
        (
            "(define (problem p) (:objects a -) (:goal (cooked a)))",
            "P005",
        ),
        (
            "(define (problem p) (:goal (forall (?x apple.n.01) (cooked ?x))))",
            "P005",
        ),
        ("(define (problem p) (:goal (cooked (a))))", "P005"),
        (&deep, "P006"),
    ];
    for (text, code) in cases {
        let parsed = pddlc::parse::bddl(text);
        let codes: Vec<&str> = parsed.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert!(
            codes.contains(code),
            "{text:.60}: {codes:?}, expected {code}"
        );
        let error = parsed.diagnostics.iter().find(|d| d.code.as_str() == *code);
        assert!(
            error.is_some_and(|d| d.is_error()),
            "{text:.60}: {code} is an error"
        );
        let located = error
            .and_then(|d| d.primary())
            .is_some_and(|l| l.span.end <= text.len());
        assert!(located, "{text:.60}: located inside the text");
    }
    // The reference skips an unknown section: a warning, and the tree keeps it.
    let text = "(define (problem p) (:foo 1) (:goal (cooked a)))";
    let parsed = pddlc::parse::bddl(text);
    assert_eq!(parsed.diagnostics.len(), 1);
    assert_eq!(parsed.diagnostics[0].code.as_str(), "P011");
    assert!(!parsed.diagnostics[0].is_error());
    let printed = print(parsed.value.as_ref().expect("a tree"), text);
    assert!(printed.contains("(:foo 1)"), "{printed}");
}

#[test]
fn comments_are_carried_over() {
    let text = "; an activity\n(define (problem p) ; its name\n  (:domain igibson)\n  (:objects a.n.01_1 - a.n.01) ; one object\n  (:init (cooked a.n.01_1) ; cooked\n  )\n  (:goal (and ; both\n    (cooked a.n.01_1)\n    ; the second\n    (not (burnt a.n.01_1)))))\n; after\n";
    let file = parse(Path::new("comments.bddl"), text);
    let printed = print(&file, text);
    for comment in [
        "; an activity",
        "; its name",
        "; one object",
        "; cooked",
        "; both",
        "; the second",
        "; after",
    ] {
        assert_eq!(
            printed.matches(comment).count(),
            1,
            "{comment} in\n{printed}"
        );
    }
    let again = parse(Path::new("printed.bddl"), &printed);
    assert_eq!(tree(&file), tree(&again));
    assert_eq!(print(&again, &printed), printed);
}
