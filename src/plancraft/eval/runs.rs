//! Runs found and read: a folder's every `*.json` below it (Plancraft's
//! `outputs/<run>/<split>/<generation>/<id>.json`, each generation folder a seed), or a file of
//! episodes (`.jsonl`: one a line). The front end supplies the file access (`RunFiles`), so
//! the CLI and Python find, read and label runs by these same rules, with no I/O here.

use super::MethodInput;
use super::record::{EpisodeFile, EpisodeRecord, read_episodes};
use crate::diagnostics::{Diagnostic, FileId, SourceFile};
use std::path::{Path, PathBuf};

/// The file access reading runs needs: the front end's I/O.
pub trait RunFiles {
    /// A folder's entries, each with whether it is a folder.
    fn list(&self, folder: &Path) -> Result<Vec<(PathBuf, bool)>, String>;
    /// A file's text (invalid UTF-8 replaced), or why it cannot be read.
    fn read(&self, file: &Path) -> Result<String, String>;
    fn is_dir(&self, path: &Path) -> bool;
    /// How a file is named in diagnostics.
    fn shown(&self, path: &Path) -> String {
        path.display().to_string()
    }
}

/// Every `*.json` file below `dir`, sorted, with its generation folder (its folder's path
/// relative to `dir`).
pub fn result_files(dir: &Path, files: &impl RunFiles) -> Result<Vec<(PathBuf, String)>, String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for (path, is_dir) in files.list(&folder)? {
            if is_dir {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "json") {
                let seed = folder
                    .strip_prefix(dir)
                    .map(|p| p.to_string_lossy().into_owned())
                    .unwrap_or_default();
                found.push((path, seed));
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Every file read, in the order read (`FileId(i)` is the i-th, so the episodes' locations
/// and the diagnostics about them share one numbering), and the diagnostics.
#[derive(Default)]
pub struct RunReader {
    pub files: Vec<SourceFile>,
    pub diagnostics: Vec<Diagnostic>,
    /// Keep each episode's messages ([`EpisodeRecord::messages`]), for a page that replays
    /// them; off, only what the metrics need is kept.
    pub keep_messages: bool,
}

impl RunReader {
    /// A run's label and episodes. Without `label`, a run is labelled with its folder's or
    /// file's name (a `.jsonl` file's less the extension). A run that cannot be listed or
    /// read, or a folder without an episode file, is a `P090`.
    pub fn read_run(
        &mut self,
        files: &impl RunFiles,
        run: &Path,
        label: Option<&str>,
    ) -> MethodInput {
        let lines = run.extension().is_some_and(|x| x == "jsonl");
        let is_dir = files.is_dir(run);
        let name = if lines && !is_dir {
            run.file_stem()
        } else {
            run.file_name()
        };
        let label = label.map(str::to_string).unwrap_or_else(|| {
            name.map_or_else(
                || run.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        });
        let shown = files.shown(run);
        let episodes = if is_dir {
            match result_files(run, files) {
                Ok(found) if found.is_empty() => {
                    let message = format!("{shown}: no episode file (`*.json`) in the run");
                    self.unreadable(shown, message);
                    Vec::new()
                }
                Ok(found) => found
                    .iter()
                    .flat_map(|(file, seed)| self.read(files, file, EpisodeFile::Json, seed))
                    .collect(),
                Err(message) => {
                    self.unreadable(shown, message);
                    Vec::new()
                }
            }
        } else {
            let shape = if lines {
                EpisodeFile::JsonLines
            } else {
                EpisodeFile::Json
            };
            self.read(files, run, shape, "")
        };
        MethodInput { label, episodes }
    }

    /// Reads one file of a run and its episodes.
    fn read(
        &mut self,
        files: &impl RunFiles,
        path: &Path,
        shape: EpisodeFile,
        seed: &str,
    ) -> Vec<EpisodeRecord> {
        let id = FileId(self.files.len() as u32);
        let name = files.shown(path);
        match files.read(path) {
            Ok(text) => {
                let (episodes, diagnostics) =
                    read_episodes(&text, shape, id, seed, self.keep_messages);
                self.files.push(SourceFile::new(name, text));
                self.diagnostics.extend(diagnostics);
                episodes
            }
            Err(message) => {
                self.unreadable(name, message);
                Vec::new()
            }
        }
    }

    fn unreadable(&mut self, name: String, message: String) {
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile::new(name, String::new()));
        self.diagnostics
            .push(Diagnostic::io_error(message).in_file(id));
    }
}
