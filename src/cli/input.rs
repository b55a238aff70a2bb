//! Reading inputs: files and directories of `.pddl` files, decoded and parsed.

use pddlc::ast::PddlFile;
use pddlc::diagnostics::{Diagnostic, FileId, SourceFile};
use std::path::{Path, PathBuf};

/// One input after reading and parsing.
pub struct Loaded {
    pub source: SourceFile,
    pub file: Option<PddlFile>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Expands directories into the `.pddl` files below them, sorted; files are kept as given.
pub fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            walk(path, &mut found).map_err(|e| format!("{}: {e}", path.display()))?;
            found.sort();
            if found.is_empty() {
                return Err(format!(
                    "{}: no .pddl files in this directory",
                    path.display()
                ));
            }
            out.extend(found);
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pddl"))
        {
            out.push(path);
        }
    }
    Ok(())
}

/// Reads and parses `path` as input number `id`. An I/O failure is an `Err` (exit code 2);
/// undecodable bytes are a diagnostic (exit code 1).
pub fn load(path: &Path, id: FileId) -> Result<Loaded, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let name = path.display().to_string();
    match pddlc::parse::decode(&bytes) {
        Err(diagnostic) => Ok(Loaded {
            // The renderers show lines of the text; keep what decodes so labels still land.
            source: SourceFile::new(name, String::from_utf8_lossy(&bytes).replace('\0', " ")),
            file: None,
            diagnostics: vec![diagnostic.in_file(id)],
        }),
        Ok(text) => {
            let parsed = pddlc::parse::file(text);
            Ok(Loaded {
                source: SourceFile::new(name, text),
                file: parsed.value,
                diagnostics: parsed
                    .diagnostics
                    .into_iter()
                    .map(|d| d.in_file(id))
                    .collect(),
            })
        }
    }
}

/// Loads one file on its own and prints its diagnostics to stderr, one line each: what `fmt`
/// and `parse` do first. An I/O failure is reported and becomes exit code 2.
pub fn load_reported(path: &Path) -> Result<Loaded, super::Outcome> {
    let loaded = load(path, FileId(0)).map_err(|message| {
        eprintln!("error: {message}");
        super::Outcome::Failure
    })?;
    if !loaded.diagnostics.is_empty() {
        let sources = [loaded.source.clone()];
        let view = pddlc::diagnostics::render::Sources::new(&sources);
        eprint!(
            "{}",
            pddlc::diagnostics::render::gcc(&loaded.diagnostics, &view)
        );
    }
    Ok(loaded)
}
