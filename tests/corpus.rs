//! The IPC corpora in ../shared/corpus: every file parses (the known-invalid ones with their
//! located error), and printing is lossless. One test per corpus family and check, so that
//! libtest runs them in parallel and each says what it checked when it finishes.

mod common;

use common::*;
use pddlc::fmt::{PrintOptions, file_with};
use pddlc::parse;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/corpus")
        .join(name)
}

per_corpus_family! {
    /// Every file of the family parses (the known-invalid ones with their located error).
    every_file_parses_and_the_invalid_ones_are_located => parses_and_locates_the_invalid_ones
}

per_corpus_family! {
    /// Printing every file of the family is lossless and keeps its comments.
    printing_every_file_is_lossless_and_keeps_its_comments => prints_losslessly
}

/// A folder of ../shared/corpus that `CORPUS_FAMILIES` does not name would be tested by nothing.
#[test]
fn the_corpus_families_are_the_folders_of_the_corpus() {
    let Some(shared) = shared("the_corpus_families_are_the_folders_of_the_corpus") else {
        return;
    };
    let mut folders: Vec<String> = std::fs::read_dir(shared.join("corpus"))
        .expect("readable corpus directory")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.is_dir())
        .filter_map(|path| Some(path.file_name()?.to_string_lossy().into_owned()))
        .collect();
    folders.sort();
    let mut families: Vec<&str> = CORPUS_FAMILIES.iter().map(|(name, _)| *name).collect();
    families.sort();
    assert_eq!(folders, families);
}

/// The test of `family` that every file parses and that the files of fixtures/corpus's
/// known-invalid.txt and warnings.txt (those under `family/`) have their listed diagnostic.
fn parses_and_locates_the_invalid_ones(family: &str) {
    let Some((corpus, files)) = corpus_family(family, &format!("corpus {family}")) else {
        return;
    };
    // For every file with diagnostics: the first error (or, without errors, the first warning).
    let findings: BTreeMap<String, (bool, String, String)> = files
        .par_iter()
        .filter_map(|path| {
            let bytes = std::fs::read(path).expect("readable corpus file");
            let text = parse::decode(&bytes).expect("corpus files are UTF-8");
            let parsed = parse::file(text);
            let relative = path.strip_prefix(&corpus).ok()?.display().to_string();
            let first = parsed
                .diagnostics
                .iter()
                .find(|d| d.is_error())
                .or(parsed.diagnostics.first())?;
            let has_errors = parsed.has_errors();
            assert!(parsed.value.is_some(), "{relative}: no tree was built");
            Some((
                relative,
                (has_errors, located(first, text), first.message.clone()),
            ))
        })
        .collect();
    let invalid = table(&fixture("known-invalid.txt"));
    let warnings = table(&fixture("warnings.txt"));
    let mut expected: BTreeMap<String, (bool, String)> = BTreeMap::new();
    for (path, at, _) in &invalid {
        expected.insert(path.clone(), (true, at.clone()));
    }
    for (path, at, _) in &warnings {
        expected.insert(path.clone(), (false, at.clone()));
    }
    // The tables list the whole corpus; this test answers for its family's files only.
    expected.retain(|path, _| path.starts_with(&format!("{family}/")));
    let actual: BTreeMap<String, (bool, String)> = findings
        .iter()
        .map(|(path, (errors, at, _))| (path.clone(), (*errors, at.clone())))
        .collect();
    let unexpected: Vec<String> = findings
        .iter()
        .filter(|(path, (errors, at, _))| expected.get(*path) != Some(&(*errors, at.clone())))
        .map(|(path, (errors, at, message))| {
            format!(
                "{path}: {} {at} {message}",
                if *errors { "error" } else { "warning" }
            )
        })
        .collect();
    assert!(
        unexpected.is_empty(),
        "unexpected diagnostics:\n{}",
        unexpected.join("\n")
    );
    let missing: Vec<&String> = expected
        .keys()
        .filter(|p| !actual.contains_key(*p))
        .collect();
    assert!(
        missing.is_empty(),
        "listed files without their diagnostic: {missing:?}"
    );
    progress(&format!(
        "corpus {family}: {} files parsed, {} with their listed diagnostic",
        thousands(files.len()),
        expected.len()
    ));
}

/// The test of `family` that printing every file is lossless, keeps its comments and is
/// idempotent.
fn prints_losslessly(family: &str) {
    let Some((_, files)) = corpus_family(family, &format!("printing corpus {family}")) else {
        return;
    };
    let failures: Vec<String> = files
        .par_iter()
        .filter_map(|path| {
            let bytes = std::fs::read(path).expect("readable corpus file");
            let text = parse::decode(&bytes).expect("corpus files are UTF-8");
            let file = parse::file(text).value?;
            let options = PrintOptions {
                comments_from: Some(text),
                ..PrintOptions::default()
            };
            let printed = file_with(&file, &options);
            let reparsed = parse::file(&printed);
            let name = path.display();
            if reparsed.has_errors() {
                return Some(format!(
                    "{name}: printed text does not parse: {:?}",
                    reparsed.diagnostics[0]
                ));
            }
            let Some(again) = reparsed.value else {
                return Some(format!("{name}: printed text has no definition"));
            };
            if without_spans(&again) != without_spans(&file) {
                return Some(format!("{name}: the tree changed through printing"));
            }
            if comment_texts(&printed) != comment_texts(text) {
                return Some(format!("{name}: comments changed through printing"));
            }
            let options = PrintOptions {
                comments_from: Some(&printed),
                ..PrintOptions::default()
            };
            if file_with(&again, &options) != printed {
                return Some(format!("{name}: printing is not idempotent"));
            }
            None
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} files:\n{}",
        failures.len(),
        files.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    progress(&format!(
        "corpus {family}: {} files printed, round trip equal",
        thousands(files.len())
    ));
}

/// A test that needs ../shared and does not find it says so where `cargo test` shows it, without
/// `--nocapture`, and passes; under CI it fails. Runs this test program again, as `cargo test`
/// runs it (output captured), on the corpus test with `PDDLC_SHARED` naming an empty directory.
#[test]
fn a_test_without_shared_says_so_visibly_and_fails_under_ci() {
    let empty = tempfile::tempdir().expect("temporary directory");
    let probe = "every_file_parses_and_the_invalid_ones_are_located::potassco";
    let run = |ci: Option<&str>| {
        let mut command = std::process::Command::new(std::env::current_exe().expect("this test"));
        command
            .args(["--exact", probe, "--test-threads", "1"])
            .env("PDDLC_SHARED", empty.path())
            .env_remove("CI");
        if let Some(ci) = ci {
            command.env("CI", ci);
        }
        command.output().expect("the test program runs")
    };
    let out = run(None);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("1 passed"), "{stdout}");
    let expected = format!(
        "skipping corpus potassco: {}/corpus/potassco is absent",
        empty.path().display()
    );
    assert!(stderr.contains(&expected), "not shown:\n{stderr}");
    let out = run(Some("true"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains("under CI nothing may be skipped"),
        "{stdout}"
    );
}
