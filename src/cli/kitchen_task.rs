//! Where the kitchen subcommands find a task: its environment (`--env FILE`, else `--task NNN`'s
//! from Simmer's benchmark with `--simmer`, else the built-in copy) and its goal (`--goal FILE`,
//! else `--tasks-dir`'s `NNN.toml`, else the built-in goal). Every subcommand that reads a task
//! reads it here, so that they cannot disagree on where it comes from.

use super::input::display_name;
use super::kitchen::Report;
use pddlc::kitchen::{self, EmbeddedTask, Env, World};
use std::path::{Path, PathBuf};

/// Where a task's environment comes from.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct EnvSources {
    /// A task shipped with pddlc, `001` (000 to 099): its environment and goal are built in.
    #[arg(long)]
    pub task: Option<String>,
    /// A task environment file: Simmer's `env_NNN.json` or ours (`domains/kitchen/envs/NNN.toml`),
    /// instead of the task's built-in one.
    #[arg(long)]
    pub env: Option<PathBuf>,
    /// Simmer's benchmark directory: a task's environment is read from its
    /// `tasks/NNN/env_NNN.json` instead of the built-in copy.
    #[arg(long, value_name = "DIR")]
    pub simmer: Option<PathBuf>,
}

/// Where a task's goal comes from, besides its environment.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct GoalSources {
    /// The task goal file (default: the task's built-in goal, or `--tasks-dir`'s `NNN.toml`).
    #[arg(long)]
    pub goal: Option<PathBuf>,
    /// A directory of task goals (`NNN.toml`) to use instead of the built-in ones.
    #[arg(long, value_name = "DIR")]
    pub tasks_dir: Option<PathBuf>,
}

/// A task's environment: a file, or a built-in task's.
#[derive(Clone, Debug)]
pub enum EnvSource {
    File(PathBuf),
    Builtin(&'static EmbeddedTask),
}

/// A task's goal as read: the goal, the file's name and its text.
pub struct Goal {
    pub goal: kitchen::TaskGoal,
    pub name: String,
    pub text: String,
}

/// The message for a task number pddlc does not ship.
fn unknown_task(task: &str) -> String {
    format!(
        "no built-in kitchen task `{task}` ({}): give its environment with --env FILE, or Simmer's benchmark with --simmer DIR",
        kitchen::embedded_task_range()
    )
}

impl EnvSource {
    /// The environment, or `None` after its diagnostics.
    pub fn load(&self, world: &World, report: &mut Report) -> Option<Env> {
        let (name, text) = match self {
            EnvSource::File(path) => (display_name(path), report.read(path)?),
            EnvSource::Builtin(task) => (task.env_name(), task.env.to_string()),
        };
        Env::from_text(&text, world.classes())
            .map_err(|diagnostics| report.add_one(name, text, diagnostics))
            .ok()
    }

    /// The task's title line as Simmer shows it (`Task: How to make fresh churros`): the first
    /// line of `task_NNN.txt` beside `env_NNN.json`, or the built-in goal's title.
    pub fn title_line(&self) -> Option<String> {
        match self {
            EnvSource::File(path) => {
                let name = path.file_name()?.to_str()?;
                let number = name.strip_prefix("env_")?.strip_suffix(".json")?;
                let bytes =
                    std::fs::read(path.with_file_name(format!("task_{number}.txt"))).ok()?;
                let text = String::from_utf8_lossy(&bytes).into_owned();
                Some(text.lines().next()?.trim().to_string())
            }
            EnvSource::Builtin(task) => task.title_line(),
        }
    }
}

impl EnvSources {
    /// The environment of the one task these options name: `--env`, else `--task`'s; `Ok(None)`
    /// when neither is given, `Err` with the message for an unknown task.
    pub fn source(&self) -> Result<Option<EnvSource>, String> {
        match (&self.env, &self.task) {
            (Some(path), _) => Ok(Some(EnvSource::File(path.clone()))),
            (None, Some(task)) => self.for_task(task).map(Some),
            (None, None) => Ok(None),
        }
    }

    /// The environment of `task`: `--env` if given, else Simmer's file under `--simmer`, else
    /// the built-in one.
    pub fn for_task(&self, task: &str) -> Result<EnvSource, String> {
        if let Some(path) = &self.env {
            return Ok(EnvSource::File(path.clone()));
        }
        if let Some(dir) = &self.simmer {
            return Ok(EnvSource::File(
                dir.join(format!("tasks/{task}/env_{task}.json")),
            ));
        }
        kitchen::embedded_task(task)
            .map(EnvSource::Builtin)
            .ok_or_else(|| unknown_task(task))
    }
}

impl GoalSources {
    /// The goal of `task`: `--goal` (which must be there), else `--tasks-dir`'s `NNN.toml` if
    /// there is one, else the built-in goal if there is one. `Some(None)` means no goal; `None`,
    /// that the goal could not be read or loaded (after its diagnostic).
    pub fn load(&self, task: &str, report: &mut Report) -> Option<Option<Goal>> {
        let (name, text) = match (&self.goal, &self.tasks_dir) {
            (Some(path), _) => (display_name(path), report.read(path)?),
            (None, Some(dir)) => {
                let path = dir.join(format!("{task}.toml"));
                if !path.exists() {
                    return Some(None);
                }
                (display_name(&path), report.read(&path)?)
            }
            (None, None) => match kitchen::embedded_task(task) {
                Some(
                    builtin @ EmbeddedTask {
                        goal: Some(goal), ..
                    },
                ) => (builtin.goal_name(), goal.to_string()),
                _ => return Some(None),
            },
        };
        match kitchen::TaskGoal::from_toml(&text) {
            Ok(goal) => Some(Some(Goal { goal, name, text })),
            Err(diagnostics) => {
                report.add_one(name, text, diagnostics);
                None
            }
        }
    }

    /// Every task with a goal: those of `--tasks-dir`, else the built-in tasks that have one,
    /// sorted; `None` after a `P090` when the directory cannot be listed or holds no goal.
    pub fn tasks(&self, report: &mut Report) -> Option<Vec<String>> {
        match &self.tasks_dir {
            Some(dir) => goal_files(dir, report),
            None => Some(
                kitchen::embedded_tasks()
                    .iter()
                    .filter(|task| task.goal.is_some())
                    .map(|task| task.id.to_string())
                    .collect(),
            ),
        }
    }
}

/// The tasks `kitchen compile` and `kitchen solve` work on: `--task`, else the environment
/// file's (`env_004.json` is task 004), else every task with a goal; `None` after a `P090` when
/// the tasks directory cannot be listed or holds no goal.
pub fn task_names(
    sources: &EnvSources,
    goals: &GoalSources,
    report: &mut Report,
) -> Option<Vec<String>> {
    if let Some(task) = &sources.task {
        return Some(vec![task.clone()]);
    }
    if let Some(env) = &sources.env {
        let stem = env.file_stem().map(|s| s.to_string_lossy().into_owned());
        let stem = stem.unwrap_or_else(|| "env".to_string());
        return Some(vec![kitchen::task_of_env_file(&stem).to_string()]);
    }
    goals.tasks(report)
}

/// The tasks with a goal file (`NNN.toml`) in `dir`, sorted; `None` after a `P090` when the
/// directory cannot be listed or holds no goal.
fn goal_files(dir: &Path, report: &mut Report) -> Option<Vec<String>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            report.io_error(dir, format!("{}: {e}", dir.display()));
            return None;
        }
    };
    let mut tasks: Vec<String> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|x| x == "toml"))
        .filter_map(|path| Some(path.file_stem()?.to_string_lossy().into_owned()))
        .collect();
    tasks.sort();
    if tasks.is_empty() {
        report.io_error(
            dir,
            format!(
                "{}: no task goal (NNN.toml) in this directory",
                dir.display()
            ),
        );
        return None;
    }
    Some(tasks)
}
