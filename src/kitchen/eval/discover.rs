//! Where `kitchen eval` finds things in a run folder, as rules over names: the front ends list
//! and read the folders (the library does no I/O) and ask these which names count.

use std::path::Path;

/// A run folder given as `RUN_DIR[:LABEL]`, and its label (the folder's name unless given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunFolder {
    pub dir: String,
    pub label: String,
}

impl RunFolder {
    /// `RUN_DIR[:LABEL]`: the label is what follows the last `:` when the whole text is not
    /// itself a folder (`is_dir`, which the caller looked up).
    pub fn parse(text: &str, is_dir: bool) -> RunFolder {
        match text.rsplit_once(':') {
            Some((dir, label)) if !is_dir && !label.is_empty() && !label.contains('/') => {
                RunFolder {
                    dir: dir.to_string(),
                    label: label.to_string(),
                }
            }
            _ => RunFolder::unlabelled(text),
        }
    }

    /// A folder labelled with its own name.
    pub fn unlabelled(dir: &str) -> RunFolder {
        let label = Path::new(dir).file_name().map_or_else(
            || dir.to_string(),
            |name| name.to_string_lossy().into_owned(),
        );
        RunFolder {
            dir: dir.to_string(),
            label,
        }
    }
}

/// Whether a file of a task folder is one of its plans: a `*.txt` but Simmer's task text
/// (`task_NNN.txt`). Simmer's result files are plans by name; running them tells them apart.
pub fn is_plan_file(name: &str) -> bool {
    Path::new(name).extension().is_some_and(|x| x == "txt") && !name.starts_with("task_")
}

/// A task folder's plans among the names of its files (not folders), in order.
pub fn plan_files(mut names: Vec<String>) -> Vec<String> {
    names.retain(|name| is_plan_file(name));
    names.sort_by_key(|name| plan_order(name));
    names
}

/// The order of a task's plans: as numbers when their names hold digits (`2.txt` before
/// `10.txt`), else as text.
pub fn plan_order(name: &str) -> (u64, String) {
    let stem = Path::new(name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let digits: String = stem.chars().filter(char::is_ascii_digit).collect();
    (digits.parse().unwrap_or(u64::MAX), stem)
}

/// The environment file of task `task` as Simmer lays runs out: `env_NNN.json`.
pub fn env_file_name(task: &str) -> String {
    format!("env_{task}.json")
}

/// Task `task`'s own environment file among the names of its folder's files (not folders),
/// when it is listed. A listed file that cannot be read is reported when it is read, not
/// replaced by the built-in task.
pub fn own_env_file(task: &str, listed: &[String]) -> Option<String> {
    let file = env_file_name(task);
    listed.contains(&file).then_some(file)
}

/// The name of a plan's annotated result file: `result_NNN.txt` for `plan_NNN.txt`,
/// `N.result.txt` for `N.txt`.
pub fn result_file_name(plan: &str) -> String {
    match plan
        .strip_prefix("plan_")
        .and_then(|n| n.strip_suffix(".txt"))
    {
        Some(number) => format!("result_{number}.txt"),
        None => format!("{}.result.txt", plan.trim_end_matches(".txt")),
    }
}

/// Why a task folder has no environment.
pub fn missing_env_message(task: &str) -> String {
    format!(
        "task {task}: no env_{task}.json in its folder, and no built-in task {task} (or give Simmer's benchmark with --simmer)"
    )
}

/// Why a run folder gives nothing to evaluate.
pub fn no_task_folder_message(dir: &str) -> String {
    format!("{dir}: no task folder with plans (RUN/NNN/plan_NNN.txt)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_decide_plans_their_order_and_their_result_files() {
        assert!(is_plan_file("plan_004.txt") && is_plan_file("1.result.txt"));
        assert!(!is_plan_file("task_004.txt") && !is_plan_file("env_004.json"));
        // A hidden file named `.txt` has no extension.
        assert!(!is_plan_file(".txt"));
        let names = [
            "10.txt",
            "task_1.txt",
            "2.txt",
            "b.txt",
            "a.txt",
            "env_1.json",
        ];
        let plans = plan_files(names.map(String::from).to_vec());
        assert_eq!(plans, ["2.txt", "10.txt", "a.txt", "b.txt"]);
        assert_eq!(result_file_name("plan_004.txt"), "result_004.txt");
        assert_eq!(result_file_name("7.txt"), "7.result.txt");
        let run = RunFolder::parse("runs/a:before", false);
        assert_eq!((run.dir.as_str(), run.label.as_str()), ("runs/a", "before"));
        assert_eq!(RunFolder::parse("runs/a:b", true).label, "a:b");
        assert_eq!(RunFolder::parse("runs/dev", false).label, "dev");
    }
}
