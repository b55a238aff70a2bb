//! `pddlc score --functional`: the time limit's clock, the counterexample files (one pair, or a
//! subfolder per row of a batch) and the human format's section.

use pddlc::score::functional::{Functional, Options};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The CPU time the calling thread has used: the clock `--time-limit` counts. A pair is
/// compared on one thread from start to end, so this is its own time; the process's CPU time
/// would also count the pairs other threads score meanwhile.
fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the struct we pass and reads nothing else.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(
        now.tv_sec.max(0) as u64,
        now.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

/// The options of `--time-limit SECONDS`, or why the number is refused.
pub fn options(time_limit: Option<f64>, no_sample: bool) -> Result<Options, String> {
    let time_limit = match time_limit {
        None => None,
        Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s)),
        Some(s) => return Err(format!("--time-limit must be a positive number, not {s}")),
    };
    Ok(Options {
        time_limit,
        clock: Some(thread_cpu_time),
        no_sample,
    })
}

/// Creates `dir` and writes every file, each into the folder its path names (created if need
/// be); nothing is created or written when a file exists already and `force` is not given.
fn write_files(dir: &Path, files: &[(PathBuf, &str)], force: bool) -> Result<(), String> {
    if !force && let Some((path, _)) = files.iter().find(|(path, _)| path.exists()) {
        return Err(format!(
            "{} exists: give --force to overwrite it, or another --counterexamples directory",
            path.display()
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for (path, text) in files {
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder)
                .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
        }
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Each counterexample file of `functional`, in `dir`.
fn files_in<'a>(functional: &'a Functional, dir: &Path) -> Vec<(PathBuf, &'a str)> {
    functional
        .counterexamples
        .iter()
        .flat_map(|example| example.files())
        .map(|(name, text)| (dir.join(name), text))
        .collect()
}

/// Writes one pair's counterexamples into `dir`.
pub fn write_counterexamples(
    functional: &Functional,
    dir: &Path,
    force: bool,
) -> Result<(), String> {
    write_files(dir, &files_in(functional, dir), force)
}

/// The subfolder of DIR a batch row's counterexamples go into: its `id` (a string or a number;
/// characters other than letters, digits, `-`, `_` and `.` become `_`), else its line number.
pub fn folder_name(line: usize, id: Option<&Value>) -> String {
    let written = match id {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    };
    let safe: String = written
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.is_empty() || safe.chars().all(|c| c == '.') {
        line.to_string()
    } else {
        safe
    }
}

/// One batch row's part in `--counterexamples`: its line, its subfolder and its comparison.
pub struct Written<'a> {
    pub line: usize,
    pub folder: &'a str,
    pub functional: &'a Functional,
}

/// Writes the counterexamples of a batch, each row's into its subfolder of `dir`. Every file
/// is checked before any is written: two rows that would share a subfolder, or (without
/// `force`) a file that exists, refuse the whole batch.
pub fn write_batch(rows: &[Written], dir: &Path, force: bool) -> Result<(), String> {
    let mut owner: HashMap<&str, usize> = HashMap::new();
    let mut files = Vec::new();
    for row in rows
        .iter()
        .filter(|r| !r.functional.counterexamples.is_empty())
    {
        if let Some(first) = owner.insert(row.folder, row.line) {
            return Err(format!(
                "lines {first} and {} would both write into {}: give the rows distinct ids",
                row.line,
                dir.join(row.folder).display()
            ));
        }
        files.extend(files_in(row.functional, &dir.join(row.folder)));
    }
    write_files(dir, &files, force)
}

/// The human format's section on behaviour, after the metrics.
pub fn section(functional: &Functional) -> String {
    let verdict = serde_json::to_value(functional.verdict).unwrap_or(Value::Null);
    let mut out = format!("\nfunctional: {}", verdict.as_str().unwrap_or_default());
    if let Some(reason) = &functional.reason {
        out.push_str(&format!(" ({reason})"));
    }
    out.push('\n');
    let alignment = &functional.alignment;
    for (what, map) in [
        ("predicate", &alignment.predicates),
        ("action", &alignment.actions),
        ("type", &alignment.types),
        ("constant", &alignment.constants),
    ] {
        for (gold, pred) in map {
            out.push_str(&format!("  aligned {what} `{gold}` with `{pred}`\n"));
        }
    }
    for action in &functional.actions {
        let name = action
            .gold
            .as_ref()
            .or(action.pred.as_ref())
            .cloned()
            .unwrap_or_default();
        let verdict = serde_json::to_value(action.verdict).unwrap_or(Value::Null);
        out.push_str(&format!(
            "  {name:<24} {}",
            verdict.as_str().unwrap_or_default()
        ));
        if let Some(reason) = &action.reason {
            out.push_str(&format!(" ({reason})"));
        }
        out.push('\n');
    }
    for example in &functional.counterexamples {
        out.push_str(&format!("  counterexample: {}\n", example.explanation));
    }
    for note in &functional.notes {
        out.push_str(&format!("  note: {note}\n"));
    }
    out
}
