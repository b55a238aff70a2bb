//! The docs' examples run: every `console` block of README.md and docs/*.md, and every example
//! in `--help`, against the shipped files, with the output they show (docs/cli.md, "Examples
//! in the docs").

use crate::code;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One `$ pddlc …` line of a `console` block and the output shown under it.
#[derive(Debug)]
struct Example {
    /// The Markdown file and the line of the command in it.
    place: String,
    /// The command as written, without `$ ` and with continuation lines joined.
    command: String,
    /// The output lines shown, without the exit marker; `…` elides as docs/cli.md says.
    shown: Vec<String>,
    /// The exit code shown by `[exit N]`, 0 without one.
    exit: i32,
}

/// The examples of one `console` block, which run in one fresh copy of the shipped files.
#[derive(Debug)]
struct Block {
    examples: Vec<Example>,
}

/// The blocks of `text`: fenced with ```` ```console ````; an error for a block whose lines do
/// not follow the convention.
fn console_blocks(file: &str, text: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        if lines[index].trim_end() != "```console" {
            index += 1;
            continue;
        }
        let start = index + 1;
        let end = (start..lines.len())
            .find(|&i| lines[i].trim_end() == "```")
            .ok_or_else(|| format!("{file}:{index}: a `console` block is never closed"))?;
        blocks.push(Block {
            examples: examples_of(file, start, &lines[start..end])?,
        });
        index = end + 1;
    }
    Ok(blocks)
}

/// The examples of a block's lines, `first` being the number (from 0) of its first line.
fn examples_of(file: &str, first: usize, lines: &[&str]) -> Result<Vec<Example>, String> {
    let mut examples = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let place = format!("{file}:{}", first + index + 1);
        let Some(command) = lines[index].strip_prefix("$ ") else {
            return Err(format!(
                "{place}: a `console` block holds `$ ` commands and their output, not `{}`",
                lines[index]
            ));
        };
        let mut command = command.trim_end().to_string();
        while let Some(head) = command.strip_suffix('\\') {
            index += 1;
            let next = lines
                .get(index)
                .ok_or_else(|| format!("{place}: `\\` at the end of the block"))?;
            command = format!("{} {}", head.trim_end(), next.trim());
        }
        index += 1;
        let mut shown: Vec<String> = Vec::new();
        while index < lines.len() && !lines[index].starts_with("$ ") {
            shown.push(lines[index].trim_end().to_string());
            index += 1;
        }
        let trim = |shown: &mut Vec<String>| {
            while shown.last().is_some_and(|l| l.is_empty()) {
                shown.pop();
            }
        };
        trim(&mut shown);
        let exit = match shown.last().and_then(|l| exit_marker(l)) {
            Some(code) => {
                shown.pop();
                trim(&mut shown);
                code
            }
            None => 0,
        };
        examples.push(Example {
            place,
            command,
            shown,
            exit,
        });
    }
    Ok(examples)
}

/// The code of an `[exit N]` line.
fn exit_marker(line: &str) -> Option<i32> {
    line.trim()
        .strip_prefix("[exit ")?
        .strip_suffix(']')?
        .parse()
        .ok()
}

/// A command's arguments, after `pddlc`, and its redirections.
#[derive(Debug, PartialEq)]
struct Invocation {
    args: Vec<String>,
    /// The file a `< FILE` gives as standard input.
    stdin: Option<String>,
    /// The file a `> FILE` writes standard output to.
    stdout: Option<String>,
}

/// A command's words, split as a shell splits them (blanks, and '…' or "…" quoting), with
/// `< FILE` and `> FILE` at its end.
fn words(command: &str) -> Result<Invocation, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, '|' | ';' | '&' | '*' | '$' | '`') => {
                return Err(format!("`{c}` is shell syntax the examples do not use"));
            }
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return Err("an unclosed quote".to_string());
    }
    words.extend(word);
    let mut invocation = Invocation {
        args: Vec::new(),
        stdin: None,
        stdout: None,
    };
    while words.len() >= 2 && ["<", ">"].contains(&words[words.len() - 2].as_str()) {
        let file = words.pop();
        match words.pop().as_deref() {
            Some("<") => invocation.stdin = file,
            _ => invocation.stdout = file,
        }
    }
    if words.iter().any(|w| w == "<" || w == ">") {
        return Err("`< FILE` and `> FILE` come last".to_string());
    }
    if words.first().map(String::as_str) != Some("pddlc") {
        return Err("a command starts with `pddlc`".to_string());
    }
    words.remove(0);
    invocation.args = words;
    Ok(invocation)
}

/// A fresh copy of the shipped files (domains/ and fixtures/) in a temporary directory, so that
/// a command that writes (`fmt --write`, `--out`, `--plan-file`) never touches the repository.
fn shipped_copy() -> tempfile::TempDir {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temporary directory");
    for part in ["domains", "fixtures"] {
        copy_tree(&root.join(part), &dir.path().join(part));
    }
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a directory in the copy");
    for entry in std::fs::read_dir(from).expect("a shipped directory") {
        let path = entry.expect("an entry").path();
        let target = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("a shipped file copied");
        }
    }
}

/// Runs `pddlc` in `dir` as the docs' examples run (no terminal, `NO_COLOR`): what it shows,
/// its standard output (unless redirected to a file) then its standard error, line by line
/// with trailing blanks cut, and the exit code.
fn run_in(dir: &Path, invocation: &Invocation) -> Result<(Vec<String>, i32), String> {
    let input = match &invocation.stdin {
        Some(file) => Stdio::from(
            std::fs::File::open(dir.join(file)).map_err(|e| format!("`< {file}`: {e}"))?,
        ),
        None => Stdio::null(),
    };
    let output = match &invocation.stdout {
        Some(file) => Stdio::from(
            std::fs::File::create(dir.join(file)).map_err(|e| format!("`> {file}`: {e}"))?,
        ),
        None => Stdio::piped(),
    };
    let output = Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .args(&invocation.args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("TERM", "dumb")
        .stdin(input)
        .stdout(output)
        .output()
        .expect("pddlc runs");
    let text = String::from_utf8_lossy(&output.stdout).to_string()
        + &String::from_utf8_lossy(&output.stderr);
    let mut lines: Vec<String> = text.lines().map(|l| l.trim_end().to_string()).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    Ok((lines, code(&output)))
}

/// Whether a shown line stands for a printed one: equal, or equal where each `…` inside it
/// stands for any text.
fn line_matches(shown: &str, printed: &str) -> bool {
    let mut parts = shown.split('…');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = printed.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Why the printed output is not what is shown, or `None`: every shown line must match the
/// printed one at its place, up to a line that is `…` alone, which elides the rest; without
/// one, nothing more may be printed.
fn mismatch(shown: &[String], printed: &[String]) -> Option<String> {
    for (index, line) in shown.iter().enumerate() {
        if line.trim() == "…" {
            return None;
        }
        match printed.get(index) {
            Some(got) if line_matches(line, got) => {}
            Some(got) => {
                return Some(format!(
                    "output line {}:\n  shown:   {line}\n  printed: {got}",
                    index + 1
                ));
            }
            None => {
                return Some(format!(
                    "output line {}: shown `{line}`, but the output ends before it",
                    index + 1
                ));
            }
        }
    }
    printed.get(shown.len()).map(|extra| {
        format!(
            "{} more line(s) printed than shown (end the output with `…` to elide them), \
             the first: {extra}",
            printed.len() - shown.len()
        )
    })
}

/// The Markdown files whose examples are run: README.md and docs/*.md.
fn doc_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    files.insert(0, root.join("README.md"));
    files
}

/// What went wrong with one example, or `None` when it printed what it shows.
fn check_example(dir: &Path, example: &Example) -> Option<String> {
    let failure = |why: String| Some(format!("{}: $ {}\n{why}", example.place, example.command));
    let invocation = match words(&example.command) {
        Ok(invocation) => invocation,
        Err(why) => return failure(why),
    };
    let (printed, exit) = match run_in(dir, &invocation) {
        Ok(result) => result,
        Err(why) => return failure(why),
    };
    if exit != example.exit {
        return failure(format!(
            "exit {exit}, shown {}; printed:\n{}",
            example.exit,
            printed.join("\n")
        ));
    }
    let why = mismatch(&example.shown, &printed)?;
    failure(format!("{why}\nprinted in full:\n{}", printed.join("\n")))
}

/// The acceptance of issue 29: every `console` example of README.md and docs/*.md runs from a
/// copy of the shipped files and prints what it shows (every shown line and the exit code).
#[test]
fn every_console_example_of_the_docs_prints_what_it_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut failures = Vec::new();
    let mut commands = 0;
    for path in doc_files() {
        let name = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let text = std::fs::read_to_string(&path).expect("a Markdown file");
        let blocks = match console_blocks(&name, &text) {
            Ok(blocks) => blocks,
            Err(why) => {
                failures.push(why);
                continue;
            }
        };
        for block in &blocks {
            let dir = shipped_copy();
            for example in &block.examples {
                commands += 1;
                failures.extend(check_example(dir.path(), example));
            }
        }
    }
    assert!(commands >= 60, "only {commands} examples found in the docs");
    assert!(
        failures.is_empty(),
        "{} of {commands} examples do not print what the docs show:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The subcommands, read from the help's `Commands:` list, `kitchen`'s included.
fn subcommands(prefix: &[&str]) -> Vec<Vec<String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let args: Vec<String> = prefix.iter().map(|s| s.to_string()).collect();
    let help = [args.clone(), vec!["--help".to_string()]].concat();
    let (lines, exit) = run_in(dir, &help_of(help)).expect("help runs");
    assert_eq!(exit, 0, "{}", lines.join("\n"));
    let mut found = vec![args.clone()];
    let names = lines
        .iter()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help");
    for name in names {
        let mut path: Vec<&str> = prefix.to_vec();
        path.push(name);
        found.extend(subcommands(&path));
    }
    found
}

fn help_of(args: Vec<String>) -> Invocation {
    Invocation {
        args,
        stdin: None,
        stdout: None,
    }
}

/// An example in a help text is a line `$ pddlc …` (indented); it must run from a copy of the
/// shipped files and exit 0. A help line that names a file after `pddlc` without the marker is
/// an example that would not be run, and is refused.
#[test]
fn every_help_example_runs_on_the_shipped_files() {
    let commands = subcommands(&[]);
    assert!(commands.len() >= 15, "only {} subcommands", commands.len());
    let dir = shipped_copy();
    let mut failures = Vec::new();
    let mut examples = 0;
    for command in &commands {
        let help = [command.clone(), vec!["--help".to_string()]].concat();
        let (lines, _) = run_in(dir.path(), &help_of(help)).expect("help runs");
        let shown = format!("pddlc {} --help", command.join(" "));
        for line in &lines {
            if let Some(example) = line.trim().strip_prefix("$ ") {
                examples += 1;
                let example = Example {
                    place: shown.clone(),
                    command: example.to_string(),
                    shown: vec!["…".to_string()],
                    exit: 0,
                };
                failures.extend(check_example(dir.path(), &example));
            } else if names_a_file_after_pddlc(line) {
                failures.push(format!("{shown}: an example without `$ `: {line}"));
            }
        }
    }
    assert!(examples >= 2, "only {examples} examples in the help texts");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Whether a help line shows `pddlc` followed, on the same line, by a file name.
fn names_a_file_after_pddlc(line: &str) -> bool {
    let Some(at) = line.find("pddlc ") else {
        return false;
    };
    line[at..].split_whitespace().any(|word| {
        let word = word.trim_matches(|c: char| "`'\"(),.;:".contains(c));
        [".pddl", ".plan", ".txt", ".json", ".jsonl", ".toml", ".md"]
            .iter()
            .any(|extension| word.ends_with(extension))
    })
}

/// The runner can fail: a block read by the convention, and an output that differs from the
/// one shown is a mismatch (issue 29 asks that a shown output cannot drift).
#[test]
fn the_example_runner_reads_the_convention_and_sees_a_drift() {
    let text = "```console\n$ pddlc check a.pddl \\\n    b.pddl\nline one\nline two\n\n[exit 1]\n\
                $ pddlc fmt - < a.pddl\n(define …)\n…\n```\n";
    let blocks = console_blocks("x.md", text).expect("a block");
    let examples = &blocks[0].examples;
    assert_eq!(examples.len(), 2);
    assert_eq!(examples[0].command, "pddlc check a.pddl b.pddl");
    assert_eq!(examples[0].shown, ["line one", "line two"]);
    assert_eq!(examples[0].exit, 1);
    assert_eq!(examples[1].exit, 0);
    assert_eq!(examples[0].place, "x.md:2");
    assert_eq!(examples[1].place, "x.md:8");
    let invocation = words(&examples[1].command).expect("words");
    assert_eq!(invocation.args, ["fmt", "-"]);
    assert_eq!(invocation.stdin.as_deref(), Some("a.pddl"));
    let invocation = words("pddlc solve 'd p.pddl' p.pddl > p.plan").expect("words");
    assert_eq!(invocation.args, ["solve", "d p.pddl", "p.pddl"]);
    assert_eq!(invocation.stdout.as_deref(), Some("p.plan"));
    let printed = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    let shown = &examples[1].shown;
    assert_eq!(
        mismatch(shown, &printed(&["(define (domain d))", "more"])),
        None
    );
    assert!(mismatch(shown, &printed(&["(defined)"])).is_some());
    assert!(mismatch(&examples[0].shown, &printed(&["line one", "line 2"])).is_some());
    assert!(
        mismatch(
            &examples[0].shown,
            &printed(&["line one", "line two", "three"])
        )
        .is_some()
    );
    assert!(mismatch(&examples[0].shown, &printed(&["line one"])).is_some());
    assert!(words("pddlc check a.pddl | head").is_err());
    assert!(console_blocks("x.md", "```console\nprose\n```\n").is_err());
}
