//! Helpers shared by the test runners.
#![allow(dead_code)]

pub mod fast_downward;
pub mod plancraft_runs;

use pddlc::diagnostics::{Diagnostic, LineIndex};
use std::path::{Path, PathBuf};

/// Whether the tests run under CI (`CI` set and not empty), where nothing may be skipped.
pub fn under_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

/// Says that `test` skips for want of `what`; under CI, where a skipped test would pass while
/// doing nothing, fails instead.
///
/// The message is written to the process's standard error handle, not with `eprintln!`:
/// libtest captures what `print!` and `eprint!` write while a test runs and shows it only for
/// tests that fail, but it does not capture the handle, so `cargo test` shows the line without
/// `--nocapture` (tests/corpus.rs runs a skipping test to check it).
pub fn skip(test: &str, what: &str) {
    if under_ci() {
        panic!("{test} cannot run: {what}; under CI nothing may be skipped");
    }
    progress(&format!(
        "skipping {test}: {what}; it checked nothing (README, \"`../shared`: the reference data\")"
    ));
}

/// Writes `line` where `cargo test` shows it as the test runs, past libtest's capture (see
/// `skip`), so that a long test says what it has done when it finishes.
pub fn progress(line: &str) {
    use std::io::Write;
    // One write, so that the line is not cut by libtest's own lines from other threads.
    let _ = std::io::stderr().write_all(format!("{line}\n").as_bytes());
}

/// `n` with a comma between each group of three digits (`1,805`), as the progress lines show it.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// The families of ../shared/corpus (its folders), each with the fewest `.pddl` files a test
/// must find in it: what the folder held when this list was written (in the comment), rounded
/// down a little, so that an emptied or truncated folder fails instead of passing on nothing.
/// `per_corpus_family!` writes one test per family; tests/corpus.rs checks that this list names
/// every folder.
pub const CORPUS_FAMILIES: [(&str, usize); 4] = [
    ("potassco", 1_780),        // 1,805 files
    ("ipc2023-classical", 300), // 311 files
    ("ipc2023-numeric", 410),   // 420 files
    ("pddl-plus-domains", 440), // 448 files
];

/// The corpus (`../shared/corpus`) and the `.pddl` files of its folder `family`, sorted, or
/// `None` with a message naming `test` when the folder is absent. Fails when the folder holds
/// fewer files than `CORPUS_FAMILIES` asks for.
pub fn corpus_family(family: &str, test: &str) -> Option<(PathBuf, Vec<PathBuf>)> {
    let Some(&(_, minimum)) = CORPUS_FAMILIES.iter().find(|(name, _)| *name == family) else {
        panic!("{family} is not one of the corpus families: {CORPUS_FAMILIES:?}");
    };
    let corpus = shared_with(&[&format!("corpus/{family}")], test)?.join("corpus");
    let files = pddl_files(&corpus.join(family));
    assert!(
        files.len() >= minimum,
        "corpus {family}: found only {} files, at least {minimum} expected",
        files.len()
    );
    Some((corpus, files))
}

/// Writes a module `$module` with one `#[test]` per corpus family (`$module::potassco`, …), each
/// calling `$run(family)`, so that libtest runs the families in parallel and each reports as it
/// finishes. The families are those of `CORPUS_FAMILIES`.
#[macro_export]
macro_rules! per_corpus_family {
    ($(#[$attribute:meta])* $module:ident => $run:ident) => {
        $(#[$attribute])*
        mod $module {
            $crate::per_corpus_family!(@tests $run:
                potassco "potassco",
                ipc2023_classical "ipc2023-classical",
                ipc2023_numeric "ipc2023-numeric",
                pddl_plus_domains "pddl-plus-domains"
            );
        }
    };
    (@tests $run:ident: $($test:ident $family:literal),*) => {
        $(
            #[test]
            fn $test() {
                super::$run($family)
            }
        )*
    };
}

/// The reference data: the directory `PDDLC_SHARED` names, else `../shared` beside the crate.
pub fn shared_root() -> PathBuf {
    match std::env::var_os("PDDLC_SHARED") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    }
}

/// The reference data, when it holds every one of `parts` (`"corpus"`, `"kitchen/plans"`);
/// otherwise `None`, after saying which parts are absent (under CI, a failure). The parts a
/// user can assemble from public sources (scripts/fetch-shared.sh) and those only the team's
/// copy has are asked for separately, so that each test runs on what it needs.
pub fn shared_with(parts: &[&str], test: &str) -> Option<PathBuf> {
    let root = shared_root();
    // Named as the user knows it: `../shared`, or the path `PDDLC_SHARED` gave.
    let shown = match std::env::var_os("PDDLC_SHARED") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from("../shared"),
    };
    let absent: Vec<String> = parts
        .iter()
        .filter(|part| !root.join(part).exists())
        .map(|part| shown.join(part).display().to_string())
        .collect();
    match absent.as_slice() {
        [] => Some(root),
        [one] => {
            skip(test, &format!("{one} is absent"));
            None
        }
        several => {
            skip(test, &format!("{} are absent", several.join(" and ")));
            None
        }
    }
}

/// `../shared` beside the crate when it holds the corpus, or `None` (with a message) when it
/// does not, so the crate still tests on its own; under CI its absence fails the test.
pub fn shared(test: &str) -> Option<PathBuf> {
    shared_with(&["corpus"], test)
}

/// `../shared/<part>`, or `None` (with a message naming `test`) when it is absent, so the crate
/// still tests on its own; under CI its absence fails the test.
pub fn shared_part(part: &str, test: &str) -> Option<PathBuf> {
    shared_with(&[part], test).map(|root| root.join(part))
}

/// `../shared/<part>` when it holds every one of `needs` (paths inside it), or `None` with a
/// message naming `test`.
pub fn shared_part_with(part: &str, needs: &[&str], test: &str) -> Option<PathBuf> {
    let parts: Vec<String> = needs.iter().map(|need| format!("{part}/{need}")).collect();
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    shared_with(&parts, test).map(|root| root.join(part))
}

/// Every `.pddl` file below `dir`, sorted.
pub fn pddl_files(dir: &Path) -> Vec<PathBuf> {
    files_with_extension(dir, "pddl")
}

/// Every file below `dir` whose name ends in `.{extension}`, sorted.
pub fn files_with_extension(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable corpus directory") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == extension) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// `code@line:column` of a diagnostic's primary label.
pub fn located(diagnostic: &Diagnostic, text: &str) -> String {
    let offset = diagnostic.primary().map(|l| l.span.start).unwrap_or(0);
    let at = LineIndex::new(text).line_col(text, offset);
    format!("{}@{}:{}", diagnostic.code, at.line, at.column)
}

/// The AST as JSON with every `span` value blanked, for comparing trees while ignoring
/// positions. Streamed to a string and blanked in place: building a `serde_json::Value` of
/// every corpus tree was most of the corpus tests' time.
pub fn without_spans<T: serde::Serialize>(value: &T) -> String {
    const FIELD: &str = "\"span\":{";
    let json = serde_json::to_string(value).expect("the AST serialises");
    let mut out = String::with_capacity(json.len());
    let mut rest = json.as_str();
    while let Some(at) = rest.find(FIELD) {
        // A span is `{"start":N,"end":M}`: no nested braces, and names hold no quotes.
        let close = rest[at..].find('}').expect("a span object closes") + at;
        out.push_str(&rest[..at]);
        out.push_str("\"span\":_");
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The `;` comments of a text, trimmed, sorted: what formatting must keep.
pub fn comment_texts(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .lines()
        .filter_map(|line| line.find(';').map(|i| line[i..].trim_end().to_string()))
        .collect();
    out.sort();
    out
}

/// Reads a `path | code@line:col | reason` table, skipping `#` comments.
pub fn table(path: &Path) -> Vec<(String, String, String)> {
    std::fs::read_to_string(path)
        .expect("fixture table")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.splitn(3, " | ");
            let path = parts.next().unwrap_or_default().to_string();
            let at = parts.next().unwrap_or_default().to_string();
            let reason = parts.next().unwrap_or_default().to_string();
            (path, at, reason)
        })
        .collect()
}

/// Runs `run` on every named case, catching its panics (a failed assert, a snapshot that
/// differs), and fails once at the end listing every case that failed, so one broken fixture
/// does not hide the next. Each failure's full message is printed above the list as it happens.
pub fn run_each<T>(cases: impl IntoIterator<Item = (String, T)>, mut run: impl FnMut(&str, T)) {
    let mut failed = Vec::new();
    let mut total = 0;
    for (name, case) in cases {
        total += 1;
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&name, case)));
        if let Err(payload) = outcome {
            let message = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("panicked");
            let first_line = message.lines().next().unwrap_or_default();
            failed.push(format!("{name}: {first_line}"));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {total} cases failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// The fewest dev plans a test over ../shared/kitchen/plans/dev (`verdicts.jsonl`,
/// `states.jsonl`) must find: the dev set holds 642, so an empty or truncated file fails.
pub const DEV_PLANS_AT_LEAST: usize = 640;

/// The records of a `../shared` index file, one JSON object a line (`plans/index.jsonl`,
/// `plans-temporal/index.jsonl`).
pub fn index_records(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).expect("index line"))
        .collect()
}

/// Every domain and problem the records name (`domain`, `problem`: paths in `shared`), each
/// parsed once; `None` for a file that cannot be read or yields no tree.
pub fn parsed_tasks(
    shared: &Path,
    rows: &[serde_json::Value],
) -> std::collections::HashMap<String, Option<pddlc::ast::PddlFile>> {
    let mut tasks = std::collections::HashMap::new();
    for row in rows {
        for key in ["domain", "problem"] {
            let path = row[key].as_str().unwrap_or_default().to_string();
            tasks.entry(path.clone()).or_insert_with(|| {
                let text = std::fs::read_to_string(shared.join(&path)).ok()?;
                pddlc::parse::file(&text).value
            });
        }
    }
    tasks
}
