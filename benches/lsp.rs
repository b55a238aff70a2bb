//! Language server latency: `pddlc lsp` driven over JSON-RPC as an editor drives it.
//!
//! `taskset -c 0 cargo bench --bench lsp` (one core for the server and this client). For each
//! domain of 90–110 KB in ../shared/corpus it reports the time from sending a change (the whole
//! text, as editors using full sync do) to receiving that version's diagnostics, for an edit
//! that keeps the domain clean and one that introduces an error (which sends the parse down the
//! slower route), and the round trip of hover and definition. Then, on the corpus's 4 MB domain,
//! how long hover takes while the check of a new text is in progress on the worker thread.
//! There is no other PDDL language server to run beside it.
//!
//! `cargo bench` builds the server with the bench profile (`opt-level = 1`, Cargo.toml); to
//! measure the release build, as users run it, name it: `cargo build --release &&
//! PDDLC_LSP_SERVER=target/release/pddlc taskset -c 0 cargo bench --bench lsp`.

#[allow(dead_code)]
#[path = "../tests/lsp/client.rs"]
mod client;

use client::{Client, pddl_files, server, uri};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const ROUNDS: usize = 40;

fn main() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !shared.exists() {
        println!("skipping the lsp benchmark: ../shared/corpus is absent");
        return;
    }
    let mut files = pddl_files(&shared);
    files.sort();
    let mut domains: Vec<(PathBuf, String)> = Vec::new();
    for path in &files {
        let size = std::fs::metadata(path).map_or(0, |m| m.len());
        if !(90_000..=110_000).contains(&size) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let is_domain = pddlc::parse::problem_domain(&text).is_none() && text.contains(":action");
        if is_domain && !domains.iter().any(|(_, t)| *t == text) {
            domains.push((path.clone(), text));
        }
    }
    println!("server: {}", server().display());
    println!(
        "{:<72} {:>8} {:>22} {:>22} {:>16} {:>16}",
        "domain (90-110 KB)",
        "bytes",
        "clean edit: med/max",
        "error edit: med/max",
        "hover: med/max",
        "definition"
    );
    for (path, text) in &domains {
        let name = path.strip_prefix(&shared).unwrap_or(path).display();
        let (clean, broken, hover, definition) = small_domain(path, text);
        println!(
            "{:<72} {:>8} {:>22} {:>22} {:>16} {:>16}",
            name.to_string(),
            text.len(),
            summary(&clean),
            summary(&broken),
            summary(&hover),
            summary(&definition)
        );
    }
    let large =
        shared.join("potassco/ipc-2006/domains/tpp-propositional-strips/domains/domain-22.pddl");
    if let Ok(text) = std::fs::read_to_string(&large) {
        large_domain(&large, &text);
    }
}

/// The text with the first predicate of the first precondition misspelt (an undeclared
/// predicate), and the (line, UTF-16 character) of that predicate's name in the original.
fn misspelt(text: &str) -> (String, Value) {
    let at = text.find(":precondition").unwrap_or(0);
    let mut name = at;
    for (i, _) in text[at..].match_indices('(') {
        let rest = text[at + i + 1..].trim_start();
        let and = rest.get(..3).is_some_and(|w| w.eq_ignore_ascii_case("and"));
        if !and && !rest.starts_with('(') {
            name = text.len() - rest.len();
            break;
        }
    }
    let mut broken = text.to_string();
    broken.insert_str(name, "zz");
    let line = text[..name].matches('\n').count();
    let start = text[..name].rfind('\n').map_or(0, |i| i + 1);
    let character = text[start..name].encode_utf16().count() + 1;
    (broken, json!({"line": line, "character": character}))
}

fn small_domain(
    path: &Path,
    text: &str,
) -> (Vec<Duration>, Vec<Duration>, Vec<Duration>, Vec<Duration>) {
    let root = path.parent().unwrap_or(path);
    let mut client = Client::start(root);
    client.open_text(path, text);
    client.wait_diagnostics(path, 1);
    let (broken, position) = misspelt(text);
    let commented = format!("{text}\n; an edit\n");
    let (mut clean, mut error) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let version = 2 + round as i64;
        let (edited, into) = match round % 3 {
            0 => (broken.as_str(), &mut error),
            1 => (text, &mut clean),
            _ => (commented.as_str(), &mut clean),
        };
        let start = Instant::now();
        client.change(path, version as i32, edited);
        client.wait_diagnostics(path, version);
        into.push(start.elapsed());
    }
    // Back to the clean text for the requests.
    client.change(path, 1000, text);
    client.wait_diagnostics(path, 1000);
    let at = json!({"textDocument": {"uri": uri(path)}, "position": position});
    let mut timed = |method: &str| -> Vec<Duration> {
        (0..ROUNDS * 5)
            .map(|_| {
                let start = Instant::now();
                let answer = client.request(method, at.clone());
                assert!(!answer.is_null(), "{method} found nothing");
                start.elapsed()
            })
            .collect()
    };
    let hover = timed("textDocument/hover");
    let definition = timed("textDocument/definition");
    client.shutdown();
    (clean, error, hover, definition)
}

/// Hover on the 4 MB domain while the check of a new, broken text is in progress.
fn large_domain(path: &Path, text: &str) {
    let mut client = Client::start(path.parent().unwrap_or(path));
    let start = Instant::now();
    client.open_text(path, text);
    client.wait_diagnostics(path, 1);
    let opened = start.elapsed();
    let (broken, position) = misspelt(text);
    let at = json!({"textDocument": {"uri": uri(path)}, "position": position});
    let mut hovers = Vec::new();
    let mut checks = Vec::new();
    for round in 0..5 {
        let version = 2 + round;
        let edited = if round % 2 == 0 {
            broken.as_str()
        } else {
            text
        };
        let start = Instant::now();
        client.change(path, version as i32, edited);
        // Requests sent while the worker checks the new text: answered from the last parsed
        // text, not after the check.
        for _ in 0..10 {
            let asked = Instant::now();
            client.request("textDocument/hover", at.clone());
            hovers.push(asked.elapsed());
        }
        client.wait_diagnostics(path, version);
        checks.push(start.elapsed());
    }
    client.shutdown();
    println!(
        "\n{} ({} bytes): first diagnostics {:.0} ms; after an edit, diagnostics {} and hover \
         meanwhile {} (median/max)",
        path.file_name().unwrap_or_default().to_string_lossy(),
        text.len(),
        opened.as_secs_f64() * 1e3,
        summary(&checks),
        summary(&hovers)
    );
}

fn summary(times: &[Duration]) -> String {
    let mut ms: Vec<f64> = times.iter().map(|t| t.as_secs_f64() * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    if ms.is_empty() {
        return "-".into();
    }
    format!("{:.1}/{:.1} ms", ms[ms.len() / 2], ms[ms.len() - 1])
}
