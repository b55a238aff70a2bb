//! `check` on the IPC corpora in ../shared/corpus: every domain on its own, every problem
//! against its domain. Files with genuine errors are listed, with the reason, in
//! fixtures/corpus/check-known-invalid.txt; every other file must check without errors. One test
//! per corpus family, so that libtest runs them in parallel and each says what it checked.

mod common;

use common::*;
use pddlc::ast::{Domain, PddlFile, Problem};
use pddlc::check;
use pddlc::diagnostics::FileId;
use pddlc::diagnostics::TaskFiles;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().to_lowercase())
        .unwrap_or_default()
}

fn number(stem: &str) -> String {
    stem.chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect()
}

/// The directory a benchmark's files hang off: a problem's directory, or its parent when that is
/// an `instances` folder; domains may also sit in a `domains` folder below it.
fn root(path: &Path) -> PathBuf {
    let dir = path.parent().unwrap_or(Path::new("."));
    match dir.file_name().and_then(|n| n.to_str()) {
        Some("instances") | Some("domains") => dir.parent().unwrap_or(dir).to_path_buf(),
        _ => dir.to_path_buf(),
    }
}

/// The domain file of `problem`: per-instance domains (a `domains` folder) only by number, else
/// among same-named domains of its benchmark the longest common file-name prefix.
fn pair<'a>(
    problem: (&Path, &Problem),
    domains: &'a [(PathBuf, Domain)],
) -> Option<&'a (PathBuf, Domain)> {
    let (path, p) = problem;
    let root = root(path);
    let candidates: Vec<&(PathBuf, Domain)> = domains
        .iter()
        .filter(|(d, domain)| {
            root_of_domain(d) == root && p.domain.as_ref().is_none_or(|n| *n == domain.name)
        })
        .collect();
    let n = number(&stem(path));
    if let Some(same) = candidates
        .iter()
        .find(|(d, _)| !n.is_empty() && number(&stem(d)) == n)
    {
        return Some(same);
    }
    let per_instance =
        candidates.len() > 1 && candidates.iter().all(|(d, _)| !number(&stem(d)).is_empty());
    if per_instance {
        return None;
    }
    candidates.into_iter().max_by_key(|(d, _)| {
        stem(d)
            .chars()
            .zip(stem(path).chars())
            .take_while(|(a, b)| a == b)
            .count()
    })
}

fn root_of_domain(path: &Path) -> PathBuf {
    root(path)
}

per_corpus_family! {
    /// Every file of the family checks without errors but those listed with their codes.
    every_file_checks_without_errors_but_the_listed_ones => checks_as_listed
}

/// The test of `family`: its domains on their own and its problems against their domain (a
/// problem's domain is always in its own family) have the errors
/// fixtures/corpus/check-known-invalid.txt lists for them under `family/`, and no others.
fn checks_as_listed(family: &str) {
    let Some((corpus, files)) = corpus_family(family, &format!("check corpus {family}")) else {
        return;
    };
    let parsed: Vec<(PathBuf, Option<PddlFile>)> = files
        .par_iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).expect("readable corpus file");
            (path.clone(), pddlc::parse::file(&text).value)
        })
        .collect();
    let mut domains: Vec<(PathBuf, Domain)> = Vec::new();
    let mut problems: Vec<(PathBuf, Problem)> = Vec::new();
    for (path, file) in parsed {
        match file {
            Some(PddlFile::Domain(d)) => domains.push((path, d)),
            Some(PddlFile::Problem(p)) => problems.push((path, p)),
            None => {}
        }
    }
    let relative = |p: &Path| p.strip_prefix(&corpus).unwrap_or(p).display().to_string();
    // File → the sorted codes of its errors.
    let mut errors: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let domain_errors: Vec<(String, BTreeSet<String>)> = domains
        .par_iter()
        .map(|(path, d)| {
            let codes = check::domain(d, FileId(0))
                .iter()
                .filter(|x| x.is_error())
                .map(|x| x.code.as_str().to_string())
                .collect();
            (relative(path), codes)
        })
        .collect();
    let skipped = std::sync::atomic::AtomicUsize::new(0);
    let streaming_differs = std::sync::Mutex::new(Vec::new());
    let problem_errors: Vec<(String, BTreeSet<String>)> = problems
        .par_iter()
        .filter_map(|(path, p)| {
            let Some((_, domain)) = pair((path, p), &domains) else {
                skipped.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                return None;
            };
            let whole = check::problem(domain, p, TaskFiles::default());
            // The check that runs while the text is read, dropping facts and goal as it goes,
            // finds exactly what the check of the whole tree finds.
            let text = std::fs::read_to_string(path).expect("readable corpus file");
            let (_, streamed) = check::problem_source(domain, &text, TaskFiles::default());
            if streamed.as_deref() != Some(&whole[..]) {
                streaming_differs
                    .lock()
                    .expect("no panic holds the lock")
                    .push(relative(path));
            }
            let codes = whole
                .iter()
                .filter(|x| x.is_error())
                .map(|x| x.code.as_str().to_string())
                .collect();
            Some((relative(path), codes))
        })
        .collect();
    for (path, codes) in domain_errors.into_iter().chain(problem_errors) {
        if !codes.is_empty() {
            errors.insert(path, codes);
        }
    }
    let skipped = skipped.into_inner();
    let streaming_differs = streaming_differs
        .into_inner()
        .expect("no panic holds the lock");
    assert!(
        streaming_differs.is_empty(),
        "check::problem_source differs from check::problem on:\n{}",
        streaming_differs.join("\n")
    );
    assert!(
        skipped < problems.len() / 5,
        "too many problems without a domain: {skipped}"
    );

    let listed: BTreeMap<String, BTreeSet<String>> = table(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/corpus/check-known-invalid.txt"),
    )
    .into_iter()
    // The table lists the whole corpus; this test answers for its family's files only.
    .filter(|(path, _, _)| path.starts_with(&format!("{family}/")))
    .map(|(path, codes, _)| {
        (
            path,
            codes.split(',').map(|c| c.trim().to_string()).collect(),
        )
    })
    .collect();
    let mut wrong = Vec::new();
    for (path, codes) in &errors {
        if listed.get(path) != Some(codes) {
            wrong.push(format!(
                "{path} | {}",
                codes.iter().cloned().collect::<Vec<_>>().join(",")
            ));
        }
    }
    for path in listed.keys() {
        if !errors.contains_key(path) {
            wrong.push(format!("{path}: listed but checks clean"));
        }
    }
    assert!(
        wrong.is_empty(),
        "files whose errors differ from the list:\n{}",
        wrong.join("\n")
    );
    progress(&format!(
        "check corpus {family}: {} domains and {} problems checked, {} with their listed errors; \
         {skipped} problems skipped: their per-instance domain is not in the corpus",
        thousands(domains.len()),
        thousands(problems.len() - skipped),
        listed.len()
    ));
}
