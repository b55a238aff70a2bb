//! Reading inputs: files, `-` for standard input, directories of `.pddl` files, decoded and
//! parsed. A file that cannot be read is a `P090 io-error` diagnostic, so that it is reported in
//! the format asked for next to the other inputs' results.

use pddlc::ast::PddlFile;
use pddlc::check::Profile;
use pddlc::diagnostics::{Diagnostic, FileId, SourceFile};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// The name standard input goes by in diagnostics and reports.
pub const STDIN_NAME: &str = "<stdin>";

/// Whether `path` is `-`, standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The name an input is shown under.
pub fn display_name(path: &Path) -> String {
    if is_stdin(path) {
        STDIN_NAME.to_string()
    } else {
        path.display().to_string()
    }
}

static STDIN_TAKEN: AtomicBool = AtomicBool::new(false);

/// The bytes of `path`, or of standard input for `-` (which can be read once per run).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    if is_stdin(path) {
        if STDIN_TAKEN.swap(true, Ordering::SeqCst) {
            return Err(format!(
                "{STDIN_NAME}: standard input (`-`) can be read only once"
            ));
        }
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("{STDIN_NAME}: {e}"))?;
        return Ok(bytes);
    }
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The text of `path` (or `-`), invalid UTF-8 replaced.
pub fn read_text(path: &Path) -> Result<String, String> {
    read_bytes(path).map(|bytes| {
        String::from_utf8(bytes)
            .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
    })
}

/// The `P090 io-error` diagnostic of input `id`, located at its start (its source is empty).
pub fn io_error(message: &str, id: FileId) -> Diagnostic {
    Diagnostic::io_error(message).in_file(id)
}

/// One input after expansion: a path, and why it cannot be read when that is known already (a
/// directory without `.pddl` files, or one that cannot be listed).
pub type Expanded = (PathBuf, Option<String>);

/// Expands directories into the `.pddl` files below them, sorted; files (and `-`) are kept as
/// given. A directory that yields nothing is kept with the reason, which [`load_expanded`] turns
/// into a `P090` diagnostic.
pub fn expand(paths: &[PathBuf]) -> Vec<Expanded> {
    let mut out = Vec::new();
    for path in paths {
        if !is_stdin(path) && path.is_dir() {
            let mut found = Vec::new();
            if let Err(e) = walk(path, &mut found) {
                out.push((path.clone(), Some(format!("{}: {e}", path.display()))));
                continue;
            }
            found.sort();
            if found.is_empty() {
                let message = format!(
                    "{}: no .pddl or .bddl files in this directory",
                    path.display()
                );
                out.push((path.clone(), Some(message)));
            }
            out.extend(found.into_iter().map(|p| (p, None)));
        } else {
            out.push((path.clone(), None));
        }
    }
    out
}

/// [`load`] for an expanded input.
pub fn load_expanded(input: &Expanded, id: FileId) -> Loaded {
    load_expanded_extracting(input, id, None)
}

/// [`load_expanded`], taking the PDDL out of a chat answer first when `extract` is set
/// (`parse::extract_answer`: any fence, prose, CRLF); the rest of the answer is blanked, so
/// labels name the answer's own lines and columns.
pub fn load_expanded_extracting(input: &Expanded, id: FileId, extract: Option<Profile>) -> Loaded {
    match read_expanded_extracting(input, id, extract) {
        ReadInput::Text(source) => parse_source(source, id),
        ReadInput::Failed(loaded) => *loaded,
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pddl") || e.eq_ignore_ascii_case("bddl"))
        {
            out.push(path);
        }
    }
    Ok(())
}

/// One input after reading and parsing.
pub struct Loaded {
    pub source: SourceFile,
    pub file: Option<PddlFile>,
    pub diagnostics: Vec<Diagnostic>,
    /// Whether the input could not be read at all (its diagnostic is a `P090`).
    pub unreadable: bool,
}

/// Reads and parses `path` as input number `id`. Unreadable and undecodable inputs yield
/// diagnostics, never an error.
pub fn load(path: &Path, id: FileId) -> Loaded {
    load_extracting(path, id, None)
}

fn load_extracting(path: &Path, id: FileId, extract: Option<Profile>) -> Loaded {
    match read_extracting(path, id, extract) {
        ReadInput::Text(source) => parse_source(source, id),
        ReadInput::Failed(loaded) => *loaded,
    }
}

/// An input read and decoded, not parsed yet; or what reading it found.
pub enum ReadInput {
    /// The source whose text is to be parsed (the extracted text when extracting).
    Text(SourceFile),
    /// An input that cannot be read or decoded, with its diagnostic.
    Failed(Box<Loaded>),
}

/// [`load_expanded_extracting`] without the parse.
pub fn read_expanded_extracting(
    input: &Expanded,
    id: FileId,
    extract: Option<Profile>,
) -> ReadInput {
    match &input.1 {
        None => read_extracting(&input.0, id, extract),
        Some(message) => ReadInput::Failed(Box::new(Loaded {
            source: SourceFile::new(display_name(&input.0), String::new()),
            file: None,
            diagnostics: vec![io_error(message, id)],
            unreadable: true,
        })),
    }
}

fn read_extracting(path: &Path, id: FileId, extract: Option<Profile>) -> ReadInput {
    let name = display_name(path);
    let bytes = match read_bytes(path) {
        Ok(bytes) => bytes,
        Err(message) => {
            return ReadInput::Failed(Box::new(Loaded {
                source: SourceFile::new(name, String::new()),
                file: None,
                diagnostics: vec![io_error(&message, id)],
                unreadable: true,
            }));
        }
    };
    if let Err(diagnostic) = pddlc::parse::decode(&bytes) {
        return ReadInput::Failed(Box::new(Loaded {
            // The renderers show lines of the text; keep what decodes so labels still land.
            source: SourceFile::new(name, String::from_utf8_lossy(&bytes).replace('\0', " ")),
            file: None,
            diagnostics: vec![diagnostic.in_file(id)],
            unreadable: false,
        }));
    }
    // The bytes are the text: keep them rather than a copy of a large file.
    let text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    // The profile says how an answer is read (`Profile::extract_answer`).
    let text = match extract {
        Some(profile) => profile.extract_answer(&text),
        None => text,
    };
    ReadInput::Text(SourceFile::new(name, text))
}

/// The source of `path` as input `id`, read and decoded but not parsed, and the diagnostic that
/// says why it cannot be used when it cannot be read or decoded (then its text is not PDDL to
/// parse).
pub fn read_source(path: &Path, id: FileId) -> (SourceFile, Vec<Diagnostic>) {
    match read_extracting(path, id, None) {
        ReadInput::Text(source) => (source, Vec::new()),
        ReadInput::Failed(loaded) => (loaded.source, loaded.diagnostics),
    }
}

/// Parses a source that was read, as input number `id`.
pub fn parse_source(source: SourceFile, id: FileId) -> Loaded {
    let parsed = pddlc::parse::file(&source.text);
    Loaded {
        source,
        file: parsed.value,
        diagnostics: parsed
            .diagnostics
            .into_iter()
            .map(|d| d.in_file(id))
            .collect(),
        unreadable: false,
    }
}

/// Whether `output` may be written: it must not be one of `inputs` (a report written over the
/// plan it reports on would lose what the user gave), nor a directory.
pub fn check_output(output: &Path, inputs: &[&Path]) -> Result<(), String> {
    if output.is_dir() {
        return Err(format!("{} is a directory", output.display()));
    }
    let same = |input: &Path| match (output.canonicalize(), input.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => output == input,
    };
    if let Some(input) = inputs.iter().find(|input| same(input)) {
        return Err(format!(
            "{} is an input of this command; the page is not written over it",
            input.display()
        ));
    }
    Ok(())
}
