//! The library on tasks nobody checked: seeded mutations of real tasks (a name dropped,
//! doubled or renamed, an undefined variable, a malformed `=`, a declaration removed) go
//! straight to `validate::validate`, `validate::applicable` and `solve::solve`, as an embedding caller
//! might send them.
//! Whatever they are, the answer is a report with diagnostics, never a panic.

mod common;

use pddlc::ast::{Domain, PddlFile, Problem};
use pddlc::solve;
use pddlc::validate::{self, ValidateOptions};
use serde_json::Value;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

/// A small deterministic generator (xorshift64*), so every run tries the same mutations.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The byte ranges of the words of `text` that are not `:keywords`: names, variables, numbers.
fn words(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b';' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let word = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'?' | b':');
        if word(bytes[i]) {
            let start = i;
            while i < bytes.len() && word(bytes[i]) {
                i += 1;
            }
            if bytes[start] != b':' {
                out.push((start, i));
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The `(…)` form opening at `open`, as a byte range, if it closes.
fn form_at(text: &str, open: usize) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    for (i, b) in text.bytes().enumerate().skip(open) {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some((open, i + 1));
                }
            }
            _ => {}
        }
    }
    None
}

/// One mutation of `text`, and what it was.
fn mutate(text: &str, random: &mut Seeded) -> (String, String) {
    let words = words(text);
    let (start, end) = words[random.below(words.len())];
    let word = &text[start..end];
    let splice = |with: &str| format!("{}{with}{}", &text[..start], &text[end..]);
    match random.below(7) {
        0 => (splice(""), format!("dropped `{word}` at {start}")),
        1 => (
            splice(&format!("{word} {word}")),
            format!("doubled `{word}` at {start}"),
        ),
        2 => (
            splice("undeclared-name"),
            format!("renamed `{word}` at {start}"),
        ),
        3 => (
            splice("?undefined"),
            format!("`{word}` at {start} became an undefined variable"),
        ),
        4 | 5 => {
            let equality =
                ["(= ?x)", "(=)", "(= ?a ?b ?c)", "(= undeclared-name ?x)"][random.below(4)];
            let ands: Vec<usize> = text.match_indices("(and").map(|(i, _)| i + 4).collect();
            match ands.get(random.below(ands.len())) {
                Some(&at) => (
                    format!("{} {equality}{}", &text[..at], &text[at..]),
                    format!("inserted `{equality}` at {at}"),
                ),
                None => (splice(equality), format!("`{word}` became `{equality}`")),
            }
        }
        _ => {
            let opens: Vec<usize> = text.match_indices('(').map(|(i, _)| i).skip(2).collect();
            let open = opens.get(random.below(opens.len())).copied().unwrap_or(0);
            match form_at(text, open) {
                Some((from, to)) => (
                    format!("{}{}", &text[..from], &text[to..]),
                    format!("removed the form at {from}"),
                ),
                None => (splice(""), format!("dropped `{word}` at {start}")),
            }
        }
    }
}

fn domain_of(text: &str) -> Option<Domain> {
    match pddlc::parse::file(text).value {
        Some(PddlFile::Domain(domain)) => Some(domain),
        _ => None,
    }
}

fn problem_of(text: &str) -> Option<Problem> {
    match pddlc::parse::file(text).value {
        Some(PddlFile::Problem(problem)) => Some(problem),
        _ => None,
    }
}

/// An upper bound on the ground actions `applicable` enumerates: objects to the power of the
/// parameters, summed over actions.
fn groundings(domain: &Domain, problem: &Problem) -> u128 {
    let objects = (domain.constants.len() + problem.objects.len()) as u128;
    domain
        .actions()
        .map(|a| objects.saturating_pow(a.parameters.len() as u32))
        .fold(0u128, u128::saturating_add)
}

/// A task to mutate: its texts, its plan, and whether listing applicable actions is cheap.
struct Task {
    name: String,
    domain: String,
    problem: String,
    plan: String,
    small: bool,
}

/// Runs validate (stopping and going on) and, for small tasks, applicable on every mutation of
/// `task`; returns what panicked.
fn try_mutations(task: &Task, random: &mut Seeded, rounds: usize) -> Vec<String> {
    let mut panics = Vec::new();
    let mut tried = 0;
    for _ in 0..rounds {
        let in_domain = random.below(2) == 0;
        let (domain_text, problem_text, what) = if in_domain {
            let (text, what) = mutate(&task.domain, random);
            (text, task.problem.clone(), format!("domain: {what}"))
        } else {
            let (text, what) = mutate(&task.problem, random);
            (task.domain.clone(), text, format!("problem: {what}"))
        };
        let (Some(domain), Some(problem)) = (domain_of(&domain_text), problem_of(&problem_text))
        else {
            continue;
        };
        tried += 1;
        if std::env::var_os("TRACE_MUTATIONS").is_some() {
            eprintln!("{}: {what}", task.name);
        }
        let run = catch_unwind(AssertUnwindSafe(|| {
            let keep_going = ValidateOptions {
                keep_going: true,
                ..ValidateOptions::default()
            };
            for options in [ValidateOptions::default(), keep_going] {
                let report = validate::validate(&domain, &problem, &task.plan, &options);
                // A verdict other than "valid" always comes with a diagnostic saying why.
                if report.valid != Some(true) {
                    assert!(report.diagnostics().next().is_some(), "no diagnostic");
                }
            }
            // `applicable` enumerates every binding of every action: only where that is cheap.
            if task.small && groundings(&domain, &problem) <= 200_000 {
                let _ = validate::applicable(&domain, &problem, "");
                // The planner on the same task, within a small budget: an answer or the
                // diagnostics that say why there is none, never a panic.
                let options = solve::Options {
                    time_limit: Some(std::time::Duration::from_millis(50)),
                    memory_limit: Some(64 << 20),
                    ..solve::Options::default()
                };
                if let Err(diagnostics) = solve::solve(&domain, &problem, &options, &mut |_| {}) {
                    assert!(!diagnostics.is_empty(), "no answer and no diagnostic");
                }
            }
        }));
        if let Err(payload) = run {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panics.push(format!("{}: {what}: {message}", task.name));
        }
    }
    assert!(
        tried > rounds / 4,
        "{}: too few mutations parse ({tried} of {rounds})",
        task.name
    );
    panics
}

fn shipped_blocks_world() -> Task {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("domains/blocksworld");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).expect("shipped file");
    Task {
        name: "domains/blocksworld".into(),
        domain: read("domain.pddl"),
        problem: read("problem.pddl"),
        plan: "(unstack b c)\n(put-down b)\n(pick-up a)\n(stack a b)\n".into(),
        small: true,
    }
}

#[test]
fn mutations_of_the_shipped_task_never_panic() {
    let mut random = Seeded(0x5eed_0001);
    let panics = try_mutations(&shipped_blocks_world(), &mut random, 600);
    assert!(panics.is_empty(), "panics:\n{}", panics.join("\n"));
}

/// One planner plan per domain of ../shared/plans and ../shared/plans-temporal (every feature
/// the validator reads: typing, constants, quantifiers, conditional effects, derived
/// predicates, numeric fluents, costs, durative actions, timed initial literals).
#[test]
fn mutations_of_corpus_tasks_never_panic() {
    let test = "mutations_of_corpus_tasks_never_panic";
    let Some(shared) = common::shared_with(&["plans", "plans-temporal", "corpus"], test) else {
        return;
    };
    // The temporal plans too: durative actions, timed initial literals.
    let mut index = String::new();
    for set in ["plans", "plans-temporal"] {
        index.push_str(
            &std::fs::read_to_string(shared.join(set).join("index.jsonl")).expect("index.jsonl"),
        );
    }
    let mut seen_domains = std::collections::HashSet::new();
    let mut tasks = Vec::new();
    for line in index.lines() {
        let row: Value = serde_json::from_str(line).expect("index row");
        if row["kind"] != "planner" {
            continue;
        }
        let domain_path = row["domain"].as_str().unwrap_or_default();
        let family = domain_path.rsplit_once('/').map_or(domain_path, |(d, _)| d);
        if !seen_domains.insert(family.to_string()) {
            continue;
        }
        let read = |field: &str| {
            std::fs::read_to_string(shared.join(row[field].as_str().unwrap_or_default()))
                .unwrap_or_default()
        };
        let problem = read("problem");
        // Bound the work: small problems, short plans.
        if problem.len() > 12_000 {
            continue;
        }
        tasks.push(Task {
            name: row["id"].as_str().unwrap_or_default().to_string(),
            domain: read("domain"),
            small: problem.len() < 3_000,
            problem,
            plan: read("plan"),
        });
    }
    // The two indexes give 70 such tasks; an emptied or truncated index must not pass.
    assert!(tasks.len() >= 65, "only {} tasks", tasks.len());
    let mut random = Seeded(0x5eed_0002);
    let mut panics = Vec::new();
    for task in &tasks {
        panics.extend(try_mutations(task, &mut random, 40));
    }
    assert!(
        panics.is_empty(),
        "{} panics over {} tasks:\n{}",
        panics.len(),
        tasks.len(),
        panics.join("\n")
    );
}
