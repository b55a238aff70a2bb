//! `pddlc check --batch LIST`: many checks in one process, one JSON line each.
//!
//! Each line of LIST names one input: `FILE`, or `KIND<TAB>FILE[<TAB>DOMAIN]` as
//! `../shared/perf/perf.py` writes it (`KIND` is `domain` or `problem`, and is only a label: the
//! content decides). A problem with a DOMAIN is checked against it. Blank lines are skipped.
//! Every input is read, parsed and checked as one `pddlc check` process would, with one
//! exception a caller checking many problems in one process also makes: consecutive problems
//! of the same DOMAIN file share one reading of it (its parse and its own diagnostics), as
//! Loki's side of `perf.py` shares its parsed domain.

use super::input::{display_name, read_bytes};
use super::{Outcome, pool};
use pddlc::ast::PddlFile;
use pddlc::check::{self, Files};
use pddlc::diagnostics::{Diagnostic, FileId, Severity};
use rayon::prelude::*;
use serde_json::json;
use std::io::Write;
use std::path::Path;

/// One line of the list.
struct Item {
    line: usize,
    file: String,
    domain: Option<String>,
}

pub fn run(list: &Path, jobs: Option<usize>, deny_warnings: bool) -> Outcome {
    let text = match super::input::read_text(list) {
        Ok(text) => text,
        Err(message) => {
            eprintln!("error: {message}");
            return Outcome::Failure;
        }
    };
    let items: Vec<Item> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| item(i + 1, line))
        .collect();
    let pool = match pool(jobs) {
        Ok(pool) => pool,
        Err(outcome) => return outcome,
    };
    let rows: Vec<(bool, String)> = pool.install(|| {
        items
            .par_iter()
            .map_init(DomainCache::default, |cache, item| {
                check_one(item, cache, deny_warnings)
            })
            .collect::<Vec<_>>()
    });
    let mut out = std::io::stdout().lock();
    let mut failed = 0;
    for (ok, row) in &rows {
        failed += usize::from(!ok);
        if writeln!(out, "{row}").is_err() {
            return Outcome::Failure;
        }
    }
    let summary = json!({
        "version": 1,
        "summary": true,
        "items": rows.len(),
        "failed": failed,
    });
    if writeln!(out, "{summary}").is_err() {
        return Outcome::Failure;
    }
    if failed > 0 {
        Outcome::InputErrors
    } else {
        Outcome::Clean
    }
}

fn item(line: usize, text: &str) -> Item {
    let fields: Vec<&str> = text.split('\t').collect();
    let (file, domain) = match fields.as_slice() {
        [kind, file, rest @ ..] if matches!(*kind, "domain" | "problem") => {
            (*file, rest.first().copied())
        }
        [file, domain, ..] => (*file, Some(*domain)),
        _ => (text, None),
    };
    Item {
        line,
        file: file.to_string(),
        domain: domain.filter(|d| !d.is_empty()).map(str::to_string),
    }
}

/// Parses and checks one item: `(ok, JSON row)`. `ok` is false when the input or its domain
/// cannot be read or has errors (or, with `deny_warnings`, warnings).
fn check_one(item: &Item, cache: &mut DomainCache, deny_warnings: bool) -> (bool, String) {
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    let mut error: Option<String> = None;
    let text = read(&item.file, &mut error);
    let against = Files {
        domain: FileId(1),
        problem: FileId(0),
    };
    let main = match (&text, &item.domain) {
        // A problem with its domain is checked as it is read (`check::problem_source`).
        (Some(text), Some(domain_path)) if pddlc::parse::problem_domain(text).is_some() => {
            let domain = cache.get(domain_path);
            let (parsed, found) = match &domain.file {
                Some(PddlFile::Domain(tree)) => check::problem_source(tree, text, against),
                _ => (pddlc::parse::file(text), None),
            };
            diagnostics.extend(parsed.diagnostics.into_iter().map(|d| d.in_file(FileId(0))));
            domain.report(&mut diagnostics, &mut error);
            diagnostics.extend(found.unwrap_or_default());
            parsed.value
        }
        (Some(text), domain_path) => {
            let parsed = pddlc::parse::file(text);
            diagnostics.extend(parsed.diagnostics.into_iter().map(|d| d.in_file(FileId(0))));
            match (&parsed.value, domain_path) {
                (Some(PddlFile::Domain(domain)), _) => {
                    diagnostics.extend(check::domain(domain, FileId(0)));
                }
                (Some(PddlFile::Problem(problem)), Some(domain_path)) => {
                    let domain = cache.get(domain_path);
                    domain.report(&mut diagnostics, &mut error);
                    if let Some(PddlFile::Domain(tree)) = &domain.file {
                        diagnostics.extend(check::problem(tree, problem, against));
                    }
                }
                _ => {}
            }
            parsed.value
        }
        (None, _) => None,
    };
    let errors: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.is_error()).collect();
    let warnings = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    let mut codes: Vec<&str> = errors.iter().map(|d| d.code.as_str()).collect();
    codes.sort_unstable();
    codes.dedup();
    let ok =
        error.is_none() && errors.is_empty() && main.is_some() && !(deny_warnings && warnings > 0);
    let error = error.or_else(|| errors.first().map(|d| d.message.clone()));
    let kind = match &main {
        Some(PddlFile::Domain(_)) => Some("domain"),
        Some(PddlFile::Problem(_)) => Some("problem"),
        None => None,
    };
    let row = json!({
        "version": 1,
        "line": item.line,
        "file": item.file,
        "domain": item.domain,
        "kind": kind,
        "ok": ok,
        "errors": errors.len(),
        "warnings": warnings,
        "codes": codes,
        "error": error,
    });
    (ok, row.to_string())
}

/// The last DOMAIN file read on this thread: its parse, and the diagnostics of reading,
/// parsing and checking it (in `FileId(1)`, where a problem's row puts its domain).
#[derive(Default)]
struct DomainCache {
    last: Option<(String, CachedDomain)>,
}

struct CachedDomain {
    file: Option<PddlFile>,
    diagnostics: Vec<Diagnostic>,
    error: Option<String>,
}

impl DomainCache {
    fn get(&mut self, path: &str) -> &CachedDomain {
        let entry = match self.last.take() {
            Some((last, domain)) if last == path => (last, domain),
            _ => (path.to_string(), CachedDomain::load(path)),
        };
        &self.last.insert(entry).1
    }
}

impl CachedDomain {
    /// Adds what reading, parsing and checking the domain found to a problem's row.
    fn report(&self, diagnostics: &mut Vec<Diagnostic>, error: &mut Option<String>) {
        diagnostics.extend(self.diagnostics.iter().cloned());
        if let Some(message) = &self.error {
            error.get_or_insert_with(|| message.clone());
        }
    }

    fn load(path: &str) -> CachedDomain {
        let mut diagnostics = Vec::new();
        let mut error = None;
        let file = read(path, &mut error).and_then(|text| {
            let parsed = pddlc::parse::file(&text);
            diagnostics.extend(parsed.diagnostics.into_iter().map(|d| d.in_file(FileId(1))));
            parsed.value
        });
        if let Some(PddlFile::Domain(domain)) = &file {
            diagnostics.extend(check::domain(domain, FileId(1)));
        }
        CachedDomain {
            file,
            diagnostics,
            error,
        }
    }
}

/// The decoded text of one file; an unreadable or undecodable file sets `error`.
fn read(path: &str, error: &mut Option<String>) -> Option<String> {
    let path = Path::new(path);
    let bytes = match read_bytes(path) {
        Ok(bytes) => bytes,
        Err(message) => {
            error.get_or_insert(message);
            return None;
        }
    };
    if let Err(diagnostic) = pddlc::parse::decode(&bytes) {
        error.get_or_insert(format!("{}: {}", display_name(path), diagnostic.message));
        return None;
    }
    String::from_utf8(bytes).ok()
}
