//! The fast path for a problem's flat lists (`src/parse/flat.rs`) builds exactly what pest's
//! route builds: the same tree, spans included, and the same diagnostics, on the fixtures of
//! `fixtures/flat/` (named `read_*` where the fast path must read a list, `pest_*` where it must
//! leave every list to pest) and on every corpus file, one test per corpus family.

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

per_corpus_family! {
    /// Both routes agree on every file of the family, and the fast path reads most of them.
    both_routes_agree_on_every_corpus_file => routes_agree
}

/// The fewest files of each corpus family the fast path must read: most corpus files are
/// problems in the shapes it reads. About two thirds of each family, as the single test over
/// the whole corpus asked (2,000 files); what it read when this was written is in the comments.
fn fast_path_reads_at_least(family: &str) -> usize {
    match family {
        "potassco" => 1_250,        // 1,795 of 1,805
        "ipc2023-classical" => 210, // 311 of 311
        "ipc2023-numeric" => 280,   // 416 of 420
        "pddl-plus-domains" => 290, // 426 of 448
        _ => panic!("{family}: not a corpus family"),
    }
}

/// The test of `family`: the fast route and pest's agree on every file.
fn routes_agree(family: &str) {
    let Some((_, files)) = corpus_family(family, &format!("flat lists of corpus {family}")) else {
        return;
    };
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
    let minimum = fast_path_reads_at_least(family);
    assert!(
        read >= minimum,
        "the fast path read only {read} files of {family}, at least {minimum} expected"
    );
    progress(&format!(
        "flat lists of corpus {family}: {} files, both routes agree; the fast path read {}",
        thousands(files.len()),
        thousands(read)
    ));
}
