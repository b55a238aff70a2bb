//! Seeded random edits, sent as ranged changes (insertions and deletions of characters and
//! lines, some of whose positions fall inside a surrogate pair or past a line's end), never
//! crash the server, and it ends with the diagnostics `pddlc check` gives on the final text:
//! on the fixtures, and on corpus files (../shared/corpus).

use crate::client::{Client, pddl_files, uri};
use crate::common::shared;
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The byte offset the protocol's (line, UTF-16 character) names in `text`, by the server's
/// documented rule: a character past the line's end is its end (before `\r\n`), one inside a
/// surrogate pair is that character's start, a line past the end is the end of the text.
fn offset(text: &str, line: usize, character: usize) -> usize {
    let mut start = 0;
    for _ in 0..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let content = text[start..end]
        .strip_suffix('\r')
        .unwrap_or(&text[start..end]);
    let mut units = 0;
    for (i, c) in content.char_indices() {
        if units + c.len_utf16() > character {
            return start + i;
        }
        units += c.len_utf16();
    }
    start + content.len()
}

/// A random (line, character): mostly inside the text, sometimes past a line or the text.
fn random_position(rng: &mut Rng, text: &str) -> (usize, usize) {
    let lines: Vec<&str> = text.split('\n').collect();
    let line = rng.below(lines.len() + 1);
    let width = lines.get(line).map_or(0, |l| l.encode_utf16().count());
    (line, rng.below(width + 3))
}

const INSERTS: &[&str] = &[
    "(", ")", " ", "\n", "?x", "é", "𝔞", "😀", "(and", ":action", "- ", ";", "\r\n", "p",
];

fn pddlc_check(text: &str, dir: &Path) -> Vec<(String, usize, usize)> {
    let file = dir.join("final.pddl");
    std::fs::write(&file, text).expect("write the final text");
    let output = Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .args(["check", "--format", "json"])
        .arg(&file)
        .output()
        .expect("pddlc check runs");
    let document: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out: Vec<(String, usize, usize)> = document["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            let line = d["line"].as_u64().unwrap_or(1) as usize - 1;
            // JSON columns count characters from 1; the protocol counts UTF-16 units from 0.
            let column = d["column"].as_u64().unwrap_or(1) as usize - 1;
            let units = lines
                .get(line)
                .map_or(0, |l| l.chars().take(column).map(char::len_utf16).sum());
            (
                d["code"].as_str().unwrap_or_default().to_string(),
                line,
                units,
            )
        })
        .collect();
    out.sort();
    out
}

/// One random edit of `text`: the range it replaces (line, UTF-16 character, both ends) and
/// the text put there. Mostly a random range (often empty) replaced by a random insert (often
/// nothing); sometimes a whole line deleted, or a line of the text copied in before another.
fn random_edit(rng: &mut Rng, text: &str) -> ((usize, usize), (usize, usize), String) {
    let lines: Vec<&str> = text.split('\n').collect();
    match rng.below(10) {
        0 => {
            let line = rng.below(lines.len());
            ((line, 0), (line + 1, 0), String::new())
        }
        1 => {
            let (line, copied) = (rng.below(lines.len()), rng.below(lines.len()));
            ((line, 0), (line, 0), format!("{}\n", lines[copied]))
        }
        _ => {
            let start = random_position(rng, text);
            let end = if rng.below(2) == 0 {
                start
            } else {
                random_position(rng, text)
            };
            let inserted = if rng.below(3) == 0 {
                ""
            } else {
                INSERTS[rng.below(INSERTS.len())]
            };
            (start, end, inserted.to_string())
        }
    }
}

/// `edits` seeded edits of `start` (named `name` in a failure's message).
fn run(name: &str, seed: u64, start: &str, edits: usize) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("edited.pddl");
    let mut text = start.to_string();
    let mut client = Client::start(dir.path());
    client.open_text(&path, &text);
    let mut rng = Rng(seed);
    for version in 2..edits as i32 + 2 {
        let ((l1, c1), (l2, c2), inserted) = random_edit(&mut rng, &text);
        let (a, b) = (offset(&text, l1, c1), offset(&text, l2, c2));
        text.replace_range(a.min(b)..a.max(b), &inserted);
        client.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri(&path), "version": version},
                "contentChanges": [{
                    "range": {"start": {"line": l1, "character": c1},
                              "end": {"line": l2, "character": c2}},
                    "text": inserted,
                }],
            }),
        );
        // Every request the server answers, now and then, on the text as it is: none fails.
        if version % 23 == 0 {
            let (line, character) = random_position(&mut rng, &text);
            let document = json!({"uri": uri(&path)});
            let position = json!({"line": line, "character": character});
            let at = json!({"textDocument": document, "position": position});
            let range = json!({"start": position, "end": position});
            let requests = [
                ("textDocument/hover", at.clone()),
                ("textDocument/definition", at.clone()),
                ("textDocument/completion", at.clone()),
                ("textDocument/documentHighlight", at.clone()),
                ("textDocument/prepareRename", at.clone()),
                (
                    "textDocument/semanticTokens/full",
                    json!({"textDocument": document}),
                ),
                (
                    "textDocument/foldingRange",
                    json!({"textDocument": document}),
                ),
                (
                    "textDocument/documentSymbol",
                    json!({"textDocument": document}),
                ),
                (
                    "textDocument/formatting",
                    json!({"textDocument": document, "options": {"tabSize": 2, "insertSpaces": true}}),
                ),
                (
                    "textDocument/codeAction",
                    json!({"textDocument": document, "range": range,
                    "context": {"diagnostics": client.diagnostics(&path)}}),
                ),
            ];
            for (method, params) in requests {
                let response = client.request_raw(method, params);
                assert!(
                    response.get("error").is_none(),
                    "{method}: {response}\n{text}"
                );
            }
        }
    }
    let found = client.diagnostics(&path);
    let mut got: Vec<(String, usize, usize)> = found
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or_default().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap_or(0) as usize,
                d["range"]["start"]["character"].as_u64().unwrap_or(0) as usize,
            )
        })
        .collect();
    got.sort();
    assert_eq!(
        got,
        pddlc_check(&text, dir.path()),
        "{name}, seed {seed}, final text:\n{text}"
    );
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn thousands_of_random_edits_end_with_check_s_diagnostics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let starts = [
        "fixtures/lsp/broken/domain.pddl",
        "fixtures/lsp/delivery/domain.pddl",
        "domains/blocksworld/domain.pddl",
    ];
    for (i, start) in starts.iter().enumerate() {
        let text = std::fs::read_to_string(root.join(start)).expect("the starting text");
        run(start, 0x5EED + i as u64, &text, 2_000);
    }
}

#[test]
fn thousands_of_random_edits_on_corpus_files_end_with_check_s_diagnostics() {
    let Some(shared) = shared("thousands_of_random_edits_on_corpus_files") else {
        return;
    };
    // Domains and problems of 3–12 KB, so that the checks along the way stay quick; three
    // of them, picked by a seeded draw from the sorted list.
    let mut files = pddl_files(&shared.join("corpus"));
    files.retain(|p| {
        let size = std::fs::metadata(p).map_or(0, |m| m.len());
        (3_000..12_000).contains(&size)
    });
    files.sort();
    assert!(!files.is_empty(), "no corpus file of 3-12 KB");
    let mut rng = Rng(0xC0_4905);
    for i in 0..3 {
        let path = &files[rng.below(files.len())];
        let text = std::fs::read_to_string(path).expect("a corpus file");
        run(&path.display().to_string(), 0xC0_4905 + i, &text, 1_500);
    }
}
