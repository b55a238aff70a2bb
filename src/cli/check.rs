//! `pddlc check`: parse every input and report its diagnostics.

use super::check_bddl::{BddlInput, check_all};
use super::input::{Loaded, ReadInput, expand, parse_source, read_expanded_extracting};
use super::{Color, Format, Outcome, outcome_of};
use pddlc::ast::{Domain, PddlFile};
use pddlc::bddl::{Dialect, Synsets};
use pddlc::check::{self, Profile};
use pddlc::diagnostics::render::Sources;
use pddlc::diagnostics::{Diagnostic, FileId, Severity, SourceFile, TaskFiles};
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
    /// Output format: `human` by default (miette's report on a terminal, `gcc` lines
    /// otherwise).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Colour in the human format.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// `pddl`: what PDDL requires. `tarski`: accept and reject exactly what tarski 0.8.2 does
    /// (Text2World's executability), for domains.
    #[arg(long, default_value = "pddl", value_parser = super::choice::<Profile>())]
    profile: Profile,
    /// `auto`: BDDL for a .bddl file, PDDL otherwise. `bddl` or `pddl`: every input in that
    /// language (standard input included).
    #[arg(long, default_value = "auto", value_parser = super::choice::<Dialect>())]
    dialect: Dialect,
    /// A synset taxonomy in bddl's `hierarchy_*.json` format to check BDDL categories against,
    /// instead of the shipped BEHAVIOR-100 one.
    #[arg(long, value_name = "FILE")]
    hierarchy: Option<PathBuf>,
    /// Exit 1 on warnings too.
    #[arg(long)]
    deny_warnings: bool,
    /// Each input is an LLM's answer: check the PDDL in it, as `score --response` reads it in
    /// clean mode: the fenced block holding `(define` (any fence, ``` or ~~~, any info string
    /// such as pddl or lisp, any case), else the longest block, else the text without the prose
    /// around the definition; positions are the answer's own lines and columns. With `--profile
    /// tarski`, as Text2World extracts it (the longest ```pddl block, else the longest ```
    /// block, else the whole text), positions in the extracted text.
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
    // Problems wait for the domains, so that each is checked as it is read (`Deferred`).
    let mut deferred: Vec<Deferred> = Vec::new();
    let mut bddl_inputs: Vec<BddlInput> = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        let id = FileId(i as u32);
        let extract = args.extract.then_some(args.profile);
        let read = read_expanded_extracting(input, id, extract);
        if args.dialect.is_bddl(&input.0.to_string_lossy())
            && let ReadInput::Text(source) = read
        {
            let parsed = pddlc::parse::bddl(&source.text);
            diagnostics.extend(parsed.diagnostics.into_iter().map(|d| d.in_file(id)));
            checked.push(Checked {
                kind: parsed.value.as_ref().map(bddl_kind),
                domain: None,
                note: None,
            });
            bddl_inputs.push(BddlInput {
                index: i,
                file: parsed.value,
            });
            sources.push(source);
            files.push(None);
            continue;
        }
        // `Some` for a text that looks like a problem: the domain its `(:domain …)` names.
        let looks_like_problem = match &read {
            ReadInput::Text(source) if args.profile == Profile::Pddl && inputs.len() > 1 => {
                pddlc::parse::problem_domain(&source.text).map(|named| named.map(str::to_string))
            }
            _ => None,
        };
        let loaded = match (read, looks_like_problem) {
            (ReadInput::Text(source), Some(named)) => {
                deferred.push(Deferred { index: i, named });
                checked.push(Checked {
                    kind: Some("problem"),
                    domain: None,
                    note: None,
                });
                sources.push(source);
                files.push(None);
                continue;
            }
            (ReadInput::Text(source), None) => parse_source(source, id),
            (ReadInput::Failed(loaded), _) => *loaded,
        };
        let kind = match &loaded.file {
            Some(PddlFile::Domain(_)) => Some("domain"),
            Some(PddlFile::Problem(_)) => Some("problem"),
            None => None,
        };
        let mut note = None;
        if args.profile == Profile::Tarski && !loaded.unreadable {
            let (found, skipped) = tarski(&loaded, kind, id);
            diagnostics.extend(found);
            note = skipped;
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
        let clean = check_domains(&files, &mut diagnostics);
        let streamed = check_deferred(
            &deferred,
            &sources,
            &files,
            &paths,
            &clean,
            &mut diagnostics,
        );
        let mut done = vec![false; files.len()];
        for (index, file, against) in streamed {
            done[index] = against.is_some();
            checked[index].kind = match &file {
                Some(PddlFile::Domain(_)) => Some("domain"),
                Some(PddlFile::Problem(_)) => Some("problem"),
                None => None,
            };
            checked[index].domain = against;
            files[index] = file;
        }
        diagnostics.extend(semantics(&files, &paths, &clean, &done, &mut checked));
    }
    if !bddl_inputs.is_empty() {
        bddl_checks(args, &bddl_inputs, &sources, &mut diagnostics, &mut checked);
    }
    pddlc::diagnostics::sort(&mut diagnostics);
    report(args, &diagnostics, &sources, &checked);
    outcome_of(&diagnostics, args.deny_warnings)
}

/// The BDDL inputs' checks (`check_bddl`), unless `--hierarchy` cannot be read.
fn bddl_checks(
    args: &Args,
    inputs: &[BddlInput],
    sources: &[SourceFile],
    diagnostics: &mut Vec<Diagnostic>,
    checked: &mut [Checked],
) {
    let hierarchy = match args.hierarchy.as_deref().map(read_hierarchy) {
        Some(Err(diagnostic)) => {
            diagnostics.push(diagnostic);
            return;
        }
        Some(Ok(synsets)) => Some(synsets),
        None => None,
    };
    for done in check_all(inputs, sources, hierarchy.as_ref(), diagnostics) {
        checked[done.index].domain = done.domain;
        checked[done.index].note = done.note;
    }
}

fn bddl_kind(file: &pddlc::ast::bddl::BddlFile) -> &'static str {
    match file {
        pddlc::ast::bddl::BddlFile::Domain(_) => "domain",
        pddlc::ast::bddl::BddlFile::Problem(_) => "problem",
    }
}

/// The taxonomy `--hierarchy` names, in bddl's JSON format.
fn read_hierarchy(path: &Path) -> Result<Synsets, Diagnostic> {
    let text = super::input::read_text(path)
        .map_err(|message| Diagnostic::io_error(format!("{}: {message}", path.display())))?;
    Synsets::from_hierarchy_json(&text, None).map_err(|d| Diagnostic {
        message: format!("{}: {}", path.display(), d.message),
        ..d
    })
}

/// An input under the tarski profile: tarski's verdict on a domain's text (it reads the text
/// its own way, so our parse does not decide), the decoding errors of an input that is not
/// text, or the note that a problem is skipped.
fn tarski(loaded: &Loaded, kind: Option<&str>, id: FileId) -> (Vec<Diagnostic>, Option<String>) {
    let undecodable = loaded
        .diagnostics
        .iter()
        .any(|d| matches!(d.code.as_str(), "P007" | "P008"));
    if undecodable {
        (loaded.diagnostics.clone(), None)
    } else if kind == Some("problem") {
        let note = "a problem file: the tarski profile checks domains only, skipped";
        (Vec::new(), Some(note.into()))
    } else {
        let found = pddlc::text2world::tarski::check(&loaded.source.text);
        (found.into_iter().map(|d| d.in_file(id)).collect(), None)
    }
}

/// Prints the diagnostics in the format asked for; on a terminal's formats, the notes of what
/// each input was checked against on stderr, and a count line after a human report.
fn report(args: &Args, diagnostics: &[Diagnostic], sources: &[SourceFile], checked: &[Checked]) {
    let format = Format::or_default(args.format);
    let sources_view = Sources::new(sources);
    let color = args.color.enabled();
    let output = if format == Format::Json {
        json(diagnostics, &sources_view, sources, checked)
    } else {
        super::render_diagnostics(format, diagnostics, &sources_view, color)
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
            sources.len(),
            plural(sources.len()),
            errors,
            plural(errors),
            count(Severity::Warning),
            plural(count(Severity::Warning)),
        );
    }
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
pub(super) fn affinity(domain: &Path, problem: &Path) -> (bool, usize, bool) {
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

/// An input that looks like a problem, read but not parsed until the domains are.
struct Deferred {
    index: usize,
    /// The domain its `(:domain …)` names, read from the bytes (`parse::problem_domain`).
    named: Option<String>,
}

/// Every domain's own diagnostics; returns whether each input is a domain without errors.
fn check_domains(files: &[Option<PddlFile>], diagnostics: &mut Vec<Diagnostic>) -> Vec<bool> {
    files
        .iter()
        .enumerate()
        .map(|(i, file)| match file {
            Some(PddlFile::Domain(domain)) => {
                let found = check::domain(domain, FileId(i as u32));
                let clean = !found.iter().any(Diagnostic::is_error);
                diagnostics.extend(found);
                clean
            }
            _ => false,
        })
        .collect()
}

/// The domain a problem is checked against: among the domains given, the one its
/// `(:domain …)` names (`named`) with the best [`affinity`], or the only domain given. A domain
/// with errors of its own is picked only when no clean domain of that name was given.
fn choose<'f>(
    named: Option<&str>,
    problem: &Path,
    files: &'f [Option<PddlFile>],
    paths: &[PathBuf],
    clean: &[bool],
) -> Option<(usize, &'f Domain)> {
    let domains: Vec<(usize, &Domain)> = files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| match f {
            Some(PddlFile::Domain(d)) => Some((i, d)),
            _ => None,
        })
        .collect();
    domains
        .iter()
        .filter(|(_, d)| named.is_some_and(|n| d.name.is(n)))
        .max_by_key(|(d, _)| (clean[*d], affinity(&paths[*d], problem)))
        .copied()
        .or(match domains.as_slice() {
            [only] => Some(*only),
            _ => None,
        })
}

/// Parses and checks each deferred problem against its domain in one pass over its text
/// (`check::problem_source`), so that its facts and goal are never all in memory. Returns, for
/// each, its tree and the domain it was checked against; `None` when it was only parsed (no
/// domain, or the parse disagrees with the lexical look that chose the domain), for
/// [`semantics`] to check.
fn check_deferred(
    deferred: &[Deferred],
    sources: &[SourceFile],
    files: &[Option<PddlFile>],
    paths: &[PathBuf],
    clean: &[bool],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<(usize, Option<PddlFile>, Option<usize>)> {
    let mut out = Vec::new();
    // Each domain is prepared once for all of its problems.
    let mut checkers: Vec<Option<check::ProblemChecker>> = files.iter().map(|_| None).collect();
    for Deferred { index, named } in deferred {
        let index = *index;
        let id = FileId(index as u32);
        let text = &sources[index].text;
        let named = named.as_deref();
        if let Some((d, domain)) = choose(named, &paths[index], files, paths, clean) {
            let against = TaskFiles {
                domain: FileId(d as u32),
                problem: id,
                ..TaskFiles::default()
            };
            let checker = checkers[d]
                .get_or_insert_with(|| check::ProblemChecker::new(domain, against.domain));
            let (parsed, found) = checker.problem_source(text, against.problem);
            let agrees = match &parsed.value {
                Some(PddlFile::Problem(problem)) => {
                    problem.domain.as_ref().map(|n| n.text.as_str()) == named
                }
                _ => false,
            };
            if agrees && let Some(found) = found {
                diagnostics.extend(parsed.diagnostics.into_iter().map(|x| x.in_file(id)));
                diagnostics.extend(found);
                out.push((index, parsed.value, Some(d)));
                continue;
            }
        }
        let parsed = pddlc::parse::file(text);
        diagnostics.extend(parsed.diagnostics.into_iter().map(|x| x.in_file(id)));
        out.push((index, parsed.value, None));
    }
    out
}

/// Checks every problem not checked yet (`done`) against its domain ([`choose`]).
fn semantics(
    files: &[Option<PddlFile>],
    paths: &[PathBuf],
    clean: &[bool],
    done: &[bool],
    checked: &mut [Checked],
) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let Some(PddlFile::Problem(problem)) = file else {
            continue;
        };
        if done[i] {
            continue;
        }
        let named = problem.domain.as_ref().map(|n| n.text.as_str());
        match choose(named, &paths[i], files, paths, clean) {
            Some((d, domain)) => {
                let files = TaskFiles {
                    domain: FileId(d as u32),
                    problem: FileId(i as u32),
                    ..TaskFiles::default()
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
