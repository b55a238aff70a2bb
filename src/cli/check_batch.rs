//! `pddlc check --batch LIST`: many checks in one process, one JSON line each.
//!
//! Each line of LIST names one input: `FILE`, or `KIND<TAB>FILE[<TAB>DOMAIN]` as
//! `../shared/perf/perf.py` writes it (`KIND` is `domain` or `problem`, and is only a label: the
//! content decides). A problem with a DOMAIN is checked against it. Blank lines are skipped.
//! Every input is read, parsed and checked as one `pddlc check` process would, with one
//! exception a caller checking many problems in one process also makes: the problems of one
//! DOMAIN file, and that file's own items, share one reading of it (its parse, its own
//! diagnostics and its preparation for checking problems, `check::ProblemChecker`), as Loki's
//! side of `perf.py` shares its parsed domain. Rows come out in the list's order.

use super::input::{display_name, read_bytes};
use super::{Outcome, pool};
use pddlc::ast::PddlFile;
use pddlc::check;
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
    // The problems of one DOMAIN, and the DOMAIN's own items, share its reading and its
    // preparation for checking problems; on several threads a large group is cut so that the
    // threads share it.
    let largest_group = if pool.current_num_threads() > 1 {
        GROUP_ON_MANY_THREADS
    } else {
        usize::MAX
    };
    let mut groups: indexmap::IndexMap<&str, Vec<(usize, &Item)>> = indexmap::IndexMap::new();
    for (position, item) in items.iter().enumerate() {
        let domain = item.domain.as_deref().unwrap_or(&item.file);
        groups.entry(domain).or_default().push((position, item));
    }
    let groups: Vec<&[(usize, &Item)]> = groups
        .values()
        .flat_map(|group| group.chunks(largest_group.min(group.len()).max(1)))
        .collect();
    let mut rows: Vec<(usize, (bool, String))> = pool.install(|| {
        groups
            .par_iter()
            .flat_map_iter(|group| check_group(group, deny_warnings))
            .collect::<Vec<_>>()
    });
    rows.sort_unstable_by_key(|(position, _)| *position);
    let rows: Vec<(bool, String)> = rows.into_iter().map(|(_, row)| row).collect();
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

/// The most items of one domain checked in a row on one thread, when there are several.
const GROUP_ON_MANY_THREADS: usize = 8;

/// Checks a group of items, each with its position in the list: problems of one DOMAIN and
/// the DOMAIN's own items (which name no domain), or a single item. The domain is read,
/// parsed, checked and prepared for its problems once.
fn check_group(group: &[(usize, &Item)], deny_warnings: bool) -> Vec<(usize, (bool, String))> {
    let path = match group {
        [(position, item)] if item.domain.is_none() => {
            return vec![(*position, check_one(item, None, deny_warnings))];
        }
        [(_, item), ..] => item.domain.as_deref().unwrap_or(&item.file),
        [] => return Vec::new(),
    };
    let mut domain = CachedDomain::load(path);
    let checker = match &domain.file {
        Some(PddlFile::Domain(tree)) => {
            let (checker, found) = check::ProblemChecker::with_domain_diagnostics(tree, FileId(1));
            domain.diagnostics.extend(found);
            Some(checker)
        }
        _ => None,
    };
    let kind = match &domain.file {
        Some(PddlFile::Domain(_)) => Some("domain"),
        Some(PddlFile::Problem(_)) => Some("problem"),
        None => None,
    };
    let with_domain = Some((&domain, checker.as_ref()));
    group
        .iter()
        .map(|(position, item)| {
            // The DOMAIN's own item, naming no domain or itself (as perf.py writes a domain's
            // line): its row is what reading, parsing and checking it found.
            let own = item.domain.is_none() || (item.file == path && kind == Some("domain"));
            let row = match own {
                false => check_one(item, with_domain, deny_warnings),
                true => row(
                    item,
                    &domain.diagnostics,
                    domain.error.clone(),
                    kind,
                    deny_warnings,
                ),
            };
            (*position, row)
        })
        .collect()
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
fn check_one(
    item: &Item,
    domain: Option<(&CachedDomain, Option<&check::ProblemChecker>)>,
    deny_warnings: bool,
) -> (bool, String) {
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    let mut error: Option<String> = None;
    let text = read(&item.file, &mut error);
    let main = match (&text, domain) {
        // A problem with its domain is checked as it is read (`check::problem_source`).
        (Some(text), Some((domain, checker))) if pddlc::parse::problem_domain(text).is_some() => {
            let (parsed, found) = match checker {
                Some(checker) => checker.problem_source(text, FileId(0)),
                None => (pddlc::parse::file(text), None),
            };
            diagnostics.extend(parsed.diagnostics.into_iter().map(|d| d.in_file(FileId(0))));
            domain.report(&mut diagnostics, &mut error);
            diagnostics.extend(found.unwrap_or_default());
            parsed.value
        }
        (Some(text), domain) => {
            let parsed = pddlc::parse::file(text);
            diagnostics.extend(parsed.diagnostics.into_iter().map(|d| d.in_file(FileId(0))));
            match (&parsed.value, domain) {
                (Some(PddlFile::Domain(domain)), _) => {
                    diagnostics.extend(check::domain(domain, FileId(0)));
                }
                (Some(PddlFile::Problem(problem)), Some((domain, checker))) => {
                    domain.report(&mut diagnostics, &mut error);
                    if let Some(checker) = checker {
                        diagnostics.extend(checker.problem(problem, FileId(0)));
                    }
                }
                _ => {}
            }
            parsed.value
        }
        (None, _) => None,
    };
    let kind = match &main {
        Some(PddlFile::Domain(_)) => Some("domain"),
        Some(PddlFile::Problem(_)) => Some("problem"),
        None => None,
    };
    row(item, &diagnostics, error, kind, deny_warnings)
}

/// An item's JSON row from what reading, parsing and checking it found; `kind` is what its
/// content turned out to be, `None` when it could not be read or parsed.
fn row(
    item: &Item,
    diagnostics: &[Diagnostic],
    error: Option<String>,
    kind: Option<&str>,
    deny_warnings: bool,
) -> (bool, String) {
    let errors: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.is_error()).collect();
    let warnings = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    let mut codes: Vec<&str> = errors.iter().map(|d| d.code.as_str()).collect();
    codes.sort_unstable();
    codes.dedup();
    let ok =
        error.is_none() && errors.is_empty() && kind.is_some() && !(deny_warnings && warnings > 0);
    let error = error.or_else(|| errors.first().map(|d| d.message.clone()));
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

/// A DOMAIN file read for a run of problems: its parse, and the diagnostics of reading,
/// parsing and checking it (in `FileId(1)`, where a problem's row puts its domain).
struct CachedDomain {
    file: Option<PddlFile>,
    diagnostics: Vec<Diagnostic>,
    error: Option<String>,
}

impl CachedDomain {
    /// Adds what reading, parsing and checking the domain found to a problem's row.
    fn report(&self, diagnostics: &mut Vec<Diagnostic>, error: &mut Option<String>) {
        diagnostics.extend(self.diagnostics.iter().cloned());
        if let Some(message) = &self.error {
            error.get_or_insert_with(|| message.clone());
        }
    }

    /// Reads and parses the DOMAIN file; its check is the caller's (with its preparation for
    /// problems, `check::ProblemChecker::with_domain_diagnostics`).
    fn load(path: &str) -> CachedDomain {
        let mut diagnostics = Vec::new();
        let mut error = None;
        let file = read(path, &mut error).and_then(|text| {
            let parsed = pddlc::parse::file(&text);
            diagnostics.extend(parsed.diagnostics.into_iter().map(|d| d.in_file(FileId(1))));
            parsed.value
        });
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
