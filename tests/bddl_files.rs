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
