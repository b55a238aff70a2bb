//! The fast path for a problem's flat lists (`src/parse/flat.rs`) builds exactly what pest's
//! route builds: the same tree, spans included, and the same diagnostics, on the fixtures of
//! `fixtures/flat/` (named `read_*` where the fast path must read a list, `pest_*` where it must
//! leave every list to pest) and on every corpus file.

mod common;

use common::*;
use pddlc::parse;
use rayon::prelude::*;
use std::path::Path;

/// The differences between the two routes on `text`, or `None` when they agree.
fn differences(text: &str) -> Option<String> {
    let fast = parse::file(text);
    let pest = parse::file_through_pest_only(text);
    let fast_tree = serde_json::to_string(&fast.value).expect("serialisable tree");
    let pest_tree = serde_json::to_string(&pest.value).expect("serialisable tree");
    let fast_diagnostics = format!("{:?}", fast.diagnostics);
    let pest_diagnostics = format!("{:?}", pest.diagnostics);
    if fast_tree == pest_tree && fast_diagnostics == pest_diagnostics {
        return None;
    }
    Some(format!(
        "fast route:\n{fast_tree}\n{fast_diagnostics}\npest route:\n{pest_tree}\n{pest_diagnostics}"
    ))
}

#[test]
fn both_routes_agree_on_every_fixture_and_the_fast_path_reads_where_named() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/flat");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures/flat")
        .map(|entry| entry.expect("entry").path())
        .collect();
    names.sort();
    assert!(names.len() >= 10, "only {} fixtures", names.len());
    let cases = names.into_iter().map(|path| {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        (name, path)
    });
    run_each(cases, |name, path| {
        let text = std::fs::read_to_string(&path).expect("readable fixture");
        if let Some(diff) = differences(&text) {
            panic!("the routes differ\n{diff}");
        }
        let reads = parse::reads_flat_lists(&text);
        let expected = name.starts_with("read_");
        assert_eq!(
            reads,
            expected,
            "the fast path read {} list; the name says it must{} read one",
            if reads { "a" } else { "no" },
            if expected { "" } else { " not" }
        );
    });
}

#[test]
fn both_routes_agree_on_every_corpus_file() {
    let Some(shared) = shared("both_routes_agree_on_every_corpus_file") else {
        return;
    };
    let files = pddl_files(&shared.join("corpus"));
    assert!(
        files.len() > 2900,
        "found only {} corpus files",
        files.len()
    );
    let outcomes: Vec<(bool, Option<String>)> = files
        .par_iter()
        .map(|path| {
            let bytes = std::fs::read(path).expect("readable corpus file");
            let text = parse::decode(&bytes).expect("corpus files are UTF-8");
            let diff = differences(text).map(|d| format!("{}: {}", path.display(), d));
            (parse::reads_flat_lists(text), diff)
        })
        .collect();
    let read = outcomes.iter().filter(|(read, _)| *read).count();
    let failures: Vec<&String> = outcomes.iter().filter_map(|(_, d)| d.as_ref()).collect();
    assert!(
        failures.is_empty(),
        "{} files differ; the first:\n{}",
        failures.len(),
        failures[0].chars().take(4000).collect::<String>()
    );
    // Most corpus files are problems in the shapes the fast path reads.
    assert!(read > 2000, "the fast path read only {read} files");
}
