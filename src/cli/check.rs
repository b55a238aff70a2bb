//! `pddlc check`: parse every input and report its diagnostics.

use super::input::{expand, load_expanded_extracting};
use super::{Color, Format, Outcome, outcome_of};
use pddlc::ast::{Domain, PddlFile};
use pddlc::check::{self, Files};
use pddlc::diagnostics::render::Sources;
use pddlc::diagnostics::{Diagnostic, FileId, Severity, SourceFile};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// Domain and problem files (`-` reads one from standard input), or directories to search
    /// for .pddl files.
    #[arg(required_unless_present = "batch")]
    files: Vec<PathBuf>,
    /// Check every input listed in LIST (one a line: `FILE`, or `KIND<TAB>FILE[<TAB>DOMAIN]`)
    /// in one process, printing one JSON line each and a summary line.
    #[arg(
        long,
        value_name = "LIST",
        conflicts_with_all = ["files", "format", "profile", "extract"]
    )]
    batch: Option<PathBuf>,
    /// Threads for `--batch` (all cores by default).
    #[arg(long, requires = "batch")]
    jobs: Option<usize>,
    /// Output format; `human` on a terminal, `gcc` otherwise.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Colour in the human format.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// `pddl`: what PDDL requires. `tarski`: accept and reject exactly what tarski 0.8.2 does
    /// (Text2World's executability), for domains.
    #[arg(long, value_enum, default_value_t = Profile::Pddl)]
    profile: Profile,
    /// Exit 1 on warnings too.
    #[arg(long)]
    deny_warnings: bool,
    /// Each input is an LLM's answer: check the PDDL in its longest ```pddl block (else any
    /// fenced block, else the whole text), as `score --response` and Text2World read it.
    #[arg(long)]
    extract: bool,
}

/// What was done with one input: its kind, the domain a problem was checked against, and a
/// note when it was not checked in full. Shown on stderr, and in the JSON's `files`.
struct Checked {
    kind: Option<&'static str>,
    domain: Option<usize>,
    note: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Profile {
    Pddl,
    Tarski,
}

pub fn run(args: &Args) -> Outcome {
    if let Some(list) = &args.batch {
        return super::check_batch::run(list, args.jobs, args.deny_warnings);
    }
    let inputs = expand(&args.files);
    let paths: Vec<PathBuf> = inputs.iter().map(|(path, _)| path.clone()).collect();
    let mut sources: Vec<SourceFile> = Vec::new();
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    let mut files: Vec<Option<PddlFile>> = Vec::new();
    let mut checked: Vec<Checked> = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        let loaded = load_expanded_extracting(input, FileId(i as u32), args.extract);
        let kind = match &loaded.file {
            Some(PddlFile::Domain(_)) => Some("domain"),
            Some(PddlFile::Problem(_)) => Some("problem"),
            None => None,
        };
        let mut note = None;
        if args.profile == Profile::Tarski && !loaded.unreadable {
            let undecodable = loaded
                .diagnostics
                .iter()
                .any(|d| matches!(d.code.as_str(), "P007" | "P008"));
            if undecodable {
                diagnostics.extend(loaded.diagnostics);
            } else if kind == Some("problem") {
                note =
                    Some("a problem file: the tarski profile checks domains only, skipped".into());
            } else {
                // tarski reads the text its own way; our parse does not decide here.
                let tarski = pddlc::text2world::tarski::check(&loaded.source.text);
                diagnostics.extend(tarski.into_iter().map(|d| d.in_file(FileId(i as u32))));
            }
        } else {
            diagnostics.extend(loaded.diagnostics);
        }
        checked.push(Checked {
            kind,
            domain: None,
            note,
        });
        sources.push(loaded.source);
        files.push(loaded.file);
    }
    if args.profile == Profile::Pddl {
        diagnostics.extend(semantics(&files, &paths, &mut checked));
    }
    pddlc::diagnostics::sort(&mut diagnostics);
    let terminal = std::io::stdout().is_terminal();
    let format = args
        .format
        .unwrap_or(if terminal { Format::Human } else { Format::Gcc });
    let sources_view = Sources::new(&sources);
    let color = args.color.enabled();
    let output = if format == Format::Json {
        json(&diagnostics, &sources_view, &sources, &checked)
    } else {
        super::render_diagnostics(format, &diagnostics, &sources_view, color)
    };
    print!("{output}");
    if format != Format::Json {
        for (i, c) in checked.iter().enumerate() {
            let name = &sources[i].name;
            match (&c.note, c.domain) {
                (Some(note), _) => eprintln!("note: {name}: {note}"),
                (None, Some(d)) => eprintln!("note: {name}: checked against {}", sources[d].name),
                (None, None) => {}
            }
        }
    }
    let count = |severity| {
        diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    };
    let errors = count(Severity::Error);
    if format == Format::Human {
        eprintln!(
            "checked {} file{}: {} error{}, {} warning{}",
            paths.len(),
            plural(paths.len()),
            errors,
            plural(errors),
            count(Severity::Warning),
            plural(count(Severity::Warning)),
        );
    }
    outcome_of(&diagnostics, args.deny_warnings)
}

/// The versioned envelope with, after `diagnostics`, one entry per input: its kind, the domain
/// a problem was checked against, and why it was not checked in full.
fn json(
    diagnostics: &[Diagnostic],
    view: &Sources,
    sources: &[SourceFile],
    checked: &[Checked],
) -> String {
    let files: Vec<serde_json::Value> = checked
        .iter()
        .enumerate()
        .map(|(i, c)| {
            serde_json::json!({
                "file": sources[i].name,
                "kind": c.kind,
                "checked_against": c.domain.map(|d| sources[d].name.clone()),
                "note": c.note,
            })
        })
        .collect();
    let document = serde_json::json!({
        "version": pddlc::diagnostics::render::JSON_VERSION,
        "diagnostics": pddlc::diagnostics::render::json_diagnostics(diagnostics, view),
        "files": files,
    });
    serde_json::to_string_pretty(&document).unwrap_or_default() + "\n"
}

/// How likely `domain` is the domain file of `problem`, among domains of the right name: the
/// same trailing number (`domain-22.pddl` for `instance-22.pddl`, as per-instance IPC domains
/// are named), then the longest common file-name prefix (`AT51_domain` for `AT51.1.instance`),
/// then the same directory.
fn affinity(domain: &Path, problem: &Path) -> (bool, usize, bool) {
    let stem = |p: &Path| {
        p.file_stem()
            .map(|s| s.to_string_lossy().to_lowercase())
            .unwrap_or_default()
    };
    let (d, p) = (stem(domain), stem(problem));
    let number = |s: &str| {
        s.chars()
            .rev()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
    };
    let same_number = !number(&p).is_empty() && number(&d) == number(&p);
    let prefix = d.chars().zip(p.chars()).take_while(|(a, b)| a == b).count();
    (same_number, prefix, domain.parent() == problem.parent())
}

/// Checks every domain, and every problem against its domain: among the domains given, the one
/// the problem's `(:domain …)` names with the best [`affinity`], or the only domain given.
///
/// A domain with errors of its own is picked only when no clean domain of that name was given.
fn semantics(
    files: &[Option<PddlFile>],
    paths: &[PathBuf],
    checked: &mut [Checked],
) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let domains: Vec<(usize, &Domain)> = files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| match f {
            Some(PddlFile::Domain(d)) => Some((i, d)),
            _ => None,
        })
        .collect();
    let mut clean = vec![true; files.len()];
    for &(i, domain) in &domains {
        let found = check::domain(domain, FileId(i as u32));
        clean[i] = !found.iter().any(Diagnostic::is_error);
        diagnostics.extend(found);
    }
    for (i, file) in files.iter().enumerate() {
        let Some(PddlFile::Problem(problem)) = file else {
            continue;
        };
        let named: Vec<&(usize, &Domain)> = domains
            .iter()
            .filter(|(_, d)| problem.domain.as_ref().is_some_and(|n| *n == d.name))
            .collect();
        let chosen = named
            .iter()
            .max_by_key(|(d, _)| (clean[*d], affinity(&paths[*d], &paths[i])))
            .map(|(d, domain)| (*d, *domain))
            .or(match domains.as_slice() {
                [only] => Some(*only),
                _ => None,
            });
        match chosen {
            Some((d, domain)) => {
                let files = Files {
                    domain: FileId(d as u32),
                    problem: FileId(i as u32),
                };
                diagnostics.extend(check::problem(domain, problem, files));
                checked[i].domain = Some(d);
            }
            // Not a diagnostic of the input, which may be fine: say what was not checked.
            None => {
                checked[i].note =
                    Some("no domain given for this problem, so only its syntax was checked".into())
            }
        }
    }
    diagnostics
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
