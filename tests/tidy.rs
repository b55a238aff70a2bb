//! Tidy checks inside `cargo test`, after rust-analyzer's: sizes of files and functions, and
//! import circles among the files of a module folder. Each failure names its offenders.

mod common;

use petgraph::algo::tarjan_scc;
use petgraph::graph::DiGraph;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The most lines a source file may have.
const MAX_FILE_LINES: usize = 1_000;

/// The most lines a function may have outside test modules, from its `fn` line to its closing
/// brace.
const MAX_FUNCTION_LINES: usize = 120;

/// The module folders whose files must not import each other in a circle.
const ACYCLIC_FOLDERS: &[&str] = &["src/kitchen/compile"];

/// The folders of Rust sources the size checks read.
const SOURCE_ROOTS: &[&str] = &["src", "python/src"];

fn crate_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    common::files_with_extension(dir, "rs")
}

fn sources() -> Vec<(String, String)> {
    let root = crate_root();
    let mut out = Vec::new();
    for dir in SOURCE_ROOTS {
        for path in rust_files(&root.join(dir)) {
            let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let name = path
                .strip_prefix(&root)
                .unwrap_or(&path)
                .display()
                .to_string();
            out.push((name, text));
        }
    }
    assert!(out.len() >= 100, "only {} source files found", out.len());
    out
}

// ---------------------------------------------------------------------------------------------
// Reading Rust text

/// The text with comments, string literals and character literals blanked to spaces (line
/// breaks kept), so that braces, `fn` and paths are read only where they are code.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let start = i;
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i = block_comment_end(&chars, i);
        } else if let Some(end) = string_end(&chars, i) {
            i = end;
        } else if c == '\'' {
            i = char_literal_end(&chars, i).unwrap_or(i + 1);
            if i == start + 1 {
                // A lifetime's quote is code.
                out.push(c);
                continue;
            }
        } else {
            out.push(c);
            i += 1;
            continue;
        }
        out.extend(chars[start..i].iter().map(|&c| blank(c)));
    }
    out
}

/// Where the (nested) block comment opening at `i` ends.
fn block_comment_end(chars: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < chars.len() {
        if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
            depth += 1;
            i += 2;
        } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// Where the string literal opening at `i` ends (plain, byte, C and raw strings), or `None` when
/// no string opens there.
fn string_end(chars: &[char], i: usize) -> Option<usize> {
    // A prefix letter belongs to a literal only when it does not end an identifier.
    let prefixed = chars[i] != '"';
    if prefixed && i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_') {
        return None;
    }
    let mut j = i;
    if matches!(chars[j], 'b' | 'c') {
        j += 1;
    }
    if chars.get(j) == Some(&'r') {
        let mut k = j + 1;
        while chars.get(k) == Some(&'#') {
            k += 1;
        }
        if chars.get(k) != Some(&'"') {
            return None;
        }
        let hashes = k - j - 1;
        k += 1;
        while k < chars.len() {
            if chars[k] == '"' && (1..=hashes).all(|h| chars.get(k + h) == Some(&'#')) {
                return Some(k + 1 + hashes);
            }
            k += 1;
        }
        return Some(k);
    }
    if chars.get(j) != Some(&'"') {
        return None;
    }
    let mut k = j + 1;
    while k < chars.len() {
        match chars[k] {
            '\\' => k += 2,
            '"' => return Some(k + 1),
            _ => k += 1,
        }
    }
    Some(k)
}

/// Where the character literal opening at `i` ends, or `None` for a lifetime.
fn char_literal_end(chars: &[char], i: usize) -> Option<usize> {
    if chars.get(i + 1) == Some(&'\\') {
        let mut k = i + 2;
        while k < chars.len() && chars[k] != '\'' && chars[k] != '\n' {
            k += 1;
        }
        return Some(k + 1);
    }
    (chars.get(i + 2) == Some(&'\'')).then_some(i + 3)
}

/// The line ranges (0-based, inclusive) of the items behind a `#[cfg(test)]` attribute: test
/// modules and test-only functions. `code` is [`code_only`]'s output.
fn test_regions(code: &str) -> Vec<(usize, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        if line.trim() != "#[cfg(test)]" {
            continue;
        }
        if let Some(end) = item_end(&lines, at + 1) {
            out.push((at, end));
        }
    }
    out
}

/// The last line of the item starting on line `start`: the line where the braces its first `{`
/// opens balance again, or the line of a `;` that comes before any brace (outside brackets, so
/// that `[u8; 4]` in a signature is not its end).
fn item_end(lines: &[&str], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut brackets = 0usize;
    let mut opened = false;
    for (at, line) in lines.iter().enumerate().skip(start) {
        for c in line.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth = depth.saturating_sub(1),
                '(' | '[' => brackets += 1,
                ')' | ']' => brackets = brackets.saturating_sub(1),
                ';' if !opened && brackets == 0 => return Some(at),
                _ => {}
            }
            if opened && depth == 0 {
                return Some(at);
            }
        }
    }
    None
}

/// The name of the function a line of code declares, when it declares one: `fn` after nothing
/// but visibility and qualifiers.
fn declared_function(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    loop {
        if let Some(after) = rest.strip_prefix("fn ") {
            let name = after.trim_start();
            let end = name
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(name.len());
            return (end > 0).then(|| &name[..end]);
        }
        let word_end = rest.find(char::is_whitespace)?;
        let word = &rest[..word_end];
        let qualifier = matches!(
            word,
            "pub" | "const" | "async" | "unsafe" | "extern" | "default"
        ) || word.starts_with("pub(")
            || word.starts_with('"');
        if !qualifier {
            return None;
        }
        rest = rest[word_end..].trim_start();
    }
}

/// Every function with a body outside test regions: `(name, first line (1-based), lines)`.
fn function_lengths(text: &str) -> Vec<(String, usize, usize)> {
    let code = code_only(text);
    let lines: Vec<&str> = code.lines().collect();
    let tests = test_regions(&code);
    let mut out = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        if tests.iter().any(|&(from, to)| (from..=to).contains(&at)) {
            continue;
        }
        let Some(name) = declared_function(line) else {
            continue;
        };
        let Some(end) = item_end(&lines, at) else {
            continue;
        };
        let has_body = lines[at..=end].iter().any(|l| l.contains('{'));
        if has_body {
            out.push((name.to_string(), at + 1, end - at + 1));
        }
    }
    out
}

/// The sibling modules a file of a module folder refers to: `super::x`, `use super::{x, y}`,
/// and `crate::<folder>::x`, where `x` is one of `siblings`. `code` is [`code_only`]'s output
/// with the test regions removed.
fn sibling_references(code: &str, crate_path: &str, siblings: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for prefix in ["super::", crate_path] {
        let mut from = 0;
        while let Some(found) = code[from..].find(prefix) {
            let at = from + found;
            from = at + prefix.len();
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            for name in path_heads(&code[from..]) {
                if siblings.contains(&name) && !out.contains(&name) {
                    out.push(name);
                }
            }
        }
    }
    out
}

/// The first segments of what follows a path prefix: `x` for `x::…`, and each item's first
/// segment for a `{x, y::z, …}` group.
fn path_heads(rest: &str) -> Vec<String> {
    let identifier = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let rest = rest.trim_start();
    let Some(group) = rest.strip_prefix('{') else {
        return vec![identifier(rest)];
    };
    let mut heads = Vec::new();
    let mut depth = 0usize;
    let mut item_start = true;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => item_start = true,
            c if c.is_whitespace() => {}
            _ if item_start && depth == 0 => {
                heads.push(identifier(&group[i..]));
                item_start = false;
            }
            _ => {}
        }
    }
    heads
}

/// The files of a module folder, each as `(module name, text)`: `x.rs` and the files of `x/` are
/// module `x`; the folder's `mod.rs` is the parent and not a node.
fn folder_modules(folder: &Path) -> BTreeMap<String, String> {
    let mut modules: BTreeMap<String, String> = BTreeMap::new();
    for path in rust_files(folder) {
        let relative = path.strip_prefix(folder).expect("a file inside the folder");
        let first = relative.components().next().expect("a relative path");
        let name = Path::new(first.as_os_str())
            .file_stem()
            .expect("a file name")
            .to_string_lossy()
            .to_string();
        if relative == Path::new("mod.rs") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        modules.entry(name).or_default().push_str(&text);
    }
    modules
}

/// The import circles among the given modules (module name → text): each circle's modules,
/// sorted.
fn import_circles(modules: &BTreeMap<String, String>, crate_path: &str) -> Vec<Vec<String>> {
    let names: Vec<String> = modules.keys().cloned().collect();
    let mut graph = DiGraph::<String, ()>::new();
    let nodes: Vec<_> = names.iter().map(|n| graph.add_node(n.clone())).collect();
    for (from, text) in modules.values().enumerate() {
        let code = without_tests(&code_only(text));
        for target in sibling_references(&code, crate_path, &names) {
            let to = names.iter().position(|n| *n == target).expect("a sibling");
            if to != from {
                graph.add_edge(nodes[from], nodes[to], ());
            }
        }
    }
    let mut circles: Vec<Vec<String>> = tarjan_scc(&graph)
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            let mut members: Vec<String> = component.iter().map(|&n| graph[n].clone()).collect();
            members.sort();
            members
        })
        .collect();
    circles.sort();
    circles
}

/// Code with its test regions blanked.
fn without_tests(code: &str) -> String {
    let regions = test_regions(code);
    code.lines()
        .enumerate()
        .map(|(at, line)| {
            if regions.iter().any(|&(from, to)| (from..=to).contains(&at)) {
                ""
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

// ---------------------------------------------------------------------------------------------
// The checks

#[test]
fn no_source_file_is_over_the_line_limit() {
    let offenders: Vec<String> = sources()
        .iter()
        .map(|(name, text)| (name, text.lines().count()))
        .filter(|&(_, lines)| lines > MAX_FILE_LINES)
        .map(|(name, lines)| format!("{name}: {lines} lines"))
        .collect();
    assert!(
        offenders.is_empty(),
        "files over {MAX_FILE_LINES} lines (split them by concern):\n{}",
        offenders.join("\n")
    );
}

#[test]
fn no_function_is_over_the_line_limit() {
    let mut offenders = Vec::new();
    let mut functions = 0;
    for (name, text) in sources() {
        for (function, line, lines) in function_lengths(&text) {
            functions += 1;
            if lines > MAX_FUNCTION_LINES {
                offenders.push(format!("{name}:{line}: `{function}` is {lines} lines"));
            }
        }
    }
    assert!(functions >= 1_000, "only {functions} functions found");
    assert!(
        offenders.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines outside test modules (make their steps \
         named functions):\n{}",
        offenders.join("\n")
    );
}

#[test]
fn no_module_folder_imports_in_a_circle() {
    let root = crate_root();
    let mut offenders = Vec::new();
    for folder in ACYCLIC_FOLDERS {
        let modules = folder_modules(&root.join(folder));
        assert!(
            modules.len() >= 2,
            "{folder}: only {} modules",
            modules.len()
        );
        let crate_path = format!(
            "crate::{}::",
            folder.trim_start_matches("src/").replace('/', "::")
        );
        for circle in import_circles(&modules, &crate_path) {
            offenders.push(format!("{folder}: {}", circle.join(", ")));
        }
    }
    assert!(
        offenders.is_empty(),
        "module files that import each other in a circle (move what they share into a file \
         of its own):\n{}",
        offenders.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// The checks' reading, on small samples

#[test]
fn code_only_blanks_comments_strings_and_characters() {
    let text = "let a = \"}{\"; // }\nlet b = '}'; /* { /* } */ */ let c: &'a str = r#\"\"}\"#;\n";
    let code = code_only(text);
    assert_eq!(code.lines().count(), 2);
    assert!(!code.contains('{') && !code.contains('}'), "{code:?}");
    assert!(code.contains("&'a str"), "a lifetime is code: {code:?}");
    assert_eq!(code.len(), text.len());
    assert_eq!(
        code_only("x = b'{'; y = '\\u{7b}';"),
        "x = b   ; y =         ;"
    );
}

#[test]
fn function_lengths_count_from_fn_to_the_closing_brace() {
    let text = "\
pub(crate) fn one(bytes: [u8; 4]) {
    let s = \"fn fake() {\";
}

fn declared_only();

impl X {
    pub const unsafe fn two<T>(t: T)
    where
        T: Copy,
    {
        // }
        if true {
            let _ = '{';
        }
    }
}

#[cfg(test)]
mod tests {
    fn long_test() {
        a();
        b();
    }
}

#[cfg(test)]
fn test_helper() {}

fn after_tests() {}
";
    assert_eq!(
        function_lengths(text),
        vec![
            ("one".to_string(), 1, 3),
            ("two".to_string(), 8, 9),
            ("after_tests".to_string(), 30, 1),
        ]
    );
}

#[test]
fn import_circles_are_found_through_every_kind_of_reference() {
    let module = |text: &str| text.to_string();
    let mut modules = BTreeMap::new();
    modules.insert("a".to_string(), module("use super::{b::{self, X}, Y};\n"));
    modules.insert("b".to_string(), module("fn f() { crate::m::c::g() }\n"));
    modules.insert(
        "c".to_string(),
        module("// super::d\nfn g() { super::a::h(); }\n#[cfg(test)]\nmod tests { use super::super::d; }\n"),
    );
    modules.insert(
        "d".to_string(),
        module("use super::super::a;\nuse super::c;\n"),
    );
    // a → b → c → a is a circle; d's references are to c only (`super::super::a` leaves the
    // folder), and c's to d are in a comment and a test module.
    assert_eq!(
        import_circles(&modules, "crate::m::"),
        vec![vec!["a".to_string(), "b".to_string(), "c".to_string()]]
    );
    modules.insert("b".to_string(), module("fn f() {}\n"));
    assert!(import_circles(&modules, "crate::m::").is_empty());
}

/// The rows of the stage table (`| stage | module | entry points | … |`) in a Markdown text or a
/// `//!` doc: each row's cells, the header and rule left out.
fn stage_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|l| l.trim_start_matches("//!").trim())
        .filter(|l| l.starts_with('|') && !l.starts_with("|---") && !l.starts_with("| stage |"))
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// ARCHITECTURE.md's stage table is lib.rs's, row for row, and names every module lib.rs
/// declares, each with an entry point that exists in it.
#[test]
fn the_stage_table_names_every_module_and_matches_lib_rs() {
    let root = crate_root();
    let lib = fs::read_to_string(root.join("src/lib.rs")).expect("src/lib.rs");
    let architecture =
        fs::read_to_string(root.join("docs/ARCHITECTURE.md")).expect("docs/ARCHITECTURE.md");
    let section = architecture
        .split("## Stages")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("a `## Stages` section in docs/ARCHITECTURE.md");
    let in_lib = stage_rows(&lib);
    assert_eq!(
        stage_rows(section),
        in_lib,
        "ARCHITECTURE.md's stage table differs from lib.rs's"
    );
    let declared: Vec<String> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';').to_string())
        .collect();
    assert!(
        declared.len() >= 10,
        "only {} modules in lib.rs",
        declared.len()
    );
    let tabled: Vec<String> = in_lib
        .iter()
        .map(|row| row[1].trim_matches('`').to_string())
        .collect();
    assert_eq!(
        tabled, declared,
        "the table's modules, in order, are lib.rs's declarations"
    );
    let mut missing = Vec::new();
    for row in &in_lib {
        let module = row[1].trim_matches('`');
        let folder = root.join("src").join(module);
        let code = if folder.is_dir() {
            rust_files(&folder)
                .iter()
                .map(|f| fs::read_to_string(f).unwrap_or_default())
                .collect::<String>()
        } else {
            fs::read_to_string(root.join("src").join(format!("{module}.rs"))).unwrap_or_default()
        };
        // The first entry point named in the row is declared in the module's files.
        let entry = row[2].split('`').nth(1).unwrap_or_default();
        let name = entry
            .rsplit("::")
            .next()
            .unwrap_or_default()
            .trim_end_matches(|c: char| !c.is_alphanumeric() && c != '_');
        let declared = [format!("fn {name}"), format!("struct {name}"), format!("enum {name}"), format!("trait {name}")]
            .iter()
            .any(|d| code.contains(d.as_str()))
            || code.contains(&format!(" {name},")) // a re-export
            || code.contains(&format!("as {name}"));
        if !declared {
            missing.push(format!("{module}: `{entry}`"));
        }
    }
    assert!(
        missing.is_empty(),
        "entry points not found in their modules: {missing:?}"
    );
}
