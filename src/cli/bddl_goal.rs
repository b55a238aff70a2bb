//! `pddlc bddl goal`: a BDDL problem's goal evaluated on states, with the reference's semantics
//! or the intended ones (docs/bddl.md). One state (`--state FILE`, one atom a line) prints the
//! verdict; many (`--states FILE.jsonl`) print a JSON line each, the goal compiled once.

use super::Outcome;
use super::input::display_name;
use super::kitchen::{KitchenFormat, Report};
use pddlc::ast::Span;
use pddlc::ast::bddl::BddlFile;
use pddlc::bddl::{self, CompiledGoal, Forn, GoalSemantics, Pairs, State};
use pddlc::diagnostics::render::{JSON_VERSION, Sources, json_diagnostics};
use pddlc::diagnostics::{Code, Diagnostic, LineIndex, SourceFile};
use serde_json::{Value, json};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct GoalArgs {
    /// The problem (an activity definition, `.bddl`).
    problem: PathBuf,
    /// A state: one ground atom `(predicate argument …)` a line, every other atom false.
    #[arg(long, required_unless_present = "states", conflicts_with = "states")]
    state: Option<PathBuf>,
    /// Many states, one JSON object a line: `{"id": …, "true": ["(pred a b)", …]}`; prints one
    /// JSON line each.
    #[arg(long, value_name = "FILE.jsonl")]
    states: Option<PathBuf>,
    /// `reference`: bddl's forpairs/fornpairs (enough rows and column positions hit);
    /// `matching`: one-to-one pairs.
    #[arg(long, default_value = "reference", value_parser = super::choice::<Pairs>())]
    pairs: Pairs,
    /// `exactly`: bddl's forn (exactly N bindings); `at-least`: N or more.
    #[arg(long, default_value = "exactly", value_parser = super::choice::<Forn>())]
    forn: Forn,
}

pub fn run(args: &GoalArgs, format: KitchenFormat, mut report: Report) -> Outcome {
    let semantics = GoalSemantics {
        pairs: args.pairs,
        forn: args.forn,
    };
    let name = display_name(&args.problem);
    let Some(text) = report.read(&args.problem) else {
        return finish(&report, format, None, None);
    };
    let parsed = pddlc::parse::bddl(&text);
    let mut diagnostics = parsed.diagnostics;
    let goal = match (&parsed.value, diagnostics.iter().any(Diagnostic::is_error)) {
        (Some(BddlFile::Problem(problem)), false) => {
            let (goal, found) = bddl::compile_problem_goal(problem, semantics);
            diagnostics.extend(found);
            goal
        }
        (Some(BddlFile::Domain(domain)), false) => {
            let message = "a domain has no goal: give a problem (an activity definition)";
            diagnostics.push(Diagnostic::new(Code::SyntaxError, message, domain.span));
            None
        }
        _ => None,
    };
    report.add_one(name, text.clone(), diagnostics);
    let Some(goal) = goal else {
        return finish(&report, format, None, None);
    };
    match (&args.state, &args.states) {
        (Some(path), _) => {
            let Some(state_text) = report.read(path) else {
                return finish(&report, format, None, None);
            };
            let (state, found) = State::read(&state_text);
            // A state with a line that could not be read gets no verdict: that line may be
            // the atom that decides it.
            let readable = !found.iter().any(Diagnostic::is_error);
            report.add_one(display_name(path), state_text, found);
            let verdict = readable.then(|| goal.evaluate(&state));
            finish(&report, format, verdict.as_ref(), Some((&goal, &text)))
        }
        (None, Some(path)) => many(&goal, path, report),
        (None, None) => finish(&report, format, None, None),
    }
}

/// The verdict (or `null` when there is none) in the run's format; in the human format each
/// conjunct with the first line of its text (`shown`: the goal and the problem's text).
fn finish(
    report: &Report,
    format: KitchenFormat,
    verdict: Option<&bddl::GoalVerdict>,
    shown: Option<(&CompiledGoal, &str)>,
) -> Outcome {
    if format == KitchenFormat::Json {
        let document = json!({
            "version": JSON_VERSION,
            "satisfied": verdict.map(|v| v.satisfied),
            "conjuncts": verdict.map_or_else(Vec::new, |v| v.conjuncts.clone()),
        });
        return report.finish_document(Some(document));
    }
    eprint!("{}", report.rendered());
    if let (Some(verdict), Some((goal, text))) = (verdict, shown) {
        println!(
            "{}",
            if verdict.satisfied {
                "satisfied"
            } else {
                "not satisfied"
            }
        );
        let lines = LineIndex::new(text);
        for (index, (value, span)) in verdict
            .conjuncts
            .iter()
            .zip(goal.conjunct_spans())
            .enumerate()
        {
            let first_line = text[span.range()].lines().next().unwrap_or_default();
            let verdict = if *value { "true " } else { "false" };
            println!(
                "  {:>2}  {verdict}  line {:>3}: {first_line}",
                index + 1,
                lines.line(span.start)
            );
        }
    }
    report.outcome()
}

/// Each line of a JSONL file of states: one JSON line out, the goal compiled once.
fn many(goal: &CompiledGoal, path: &std::path::Path, mut report: Report) -> Outcome {
    let Some(text) = report.read(path) else {
        return finish(&report, KitchenFormat::Json, None, None);
    };
    let source = [SourceFile::new(display_name(path), text.clone())];
    let mut failed = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        if line.trim().is_empty() {
            continue;
        }
        let span = Span::new(start, start + line.trim_end().len());
        let (id, verdict, diagnostics) = match state_of_line(line, span) {
            Ok((id, state)) => (id, Some(goal.evaluate(&state)), Vec::new()),
            Err(diagnostic) => (Value::Null, None, vec![diagnostic]),
        };
        failed |= verdict.is_none();
        let row = json!({
            "version": JSON_VERSION,
            "id": id,
            "diagnostics": json_diagnostics(&diagnostics, &Sources::new(&source)),
            "satisfied": verdict.as_ref().map(|v| v.satisfied),
            "conjuncts": verdict.map_or_else(Vec::new, |v| v.conjuncts),
        });
        println!("{row}");
    }
    eprint!("{}", report.rendered());
    if failed {
        report.outcome().max(Outcome::InputErrors)
    } else {
        report.outcome()
    }
}

/// `{"id": …, "true": [atom, …]}` → the id and the state.
fn state_of_line(line: &str, span: Span) -> Result<(Value, State), Diagnostic> {
    let invalid = |message: String| {
        Diagnostic::new(Code::BddlStateInvalid, message, span)
            .with_help("write `{\"id\": …, \"true\": [\"(pred a b)\", …]}`")
    };
    let value: Value = serde_json::from_str(line).map_err(|e| invalid(format!("not JSON: {e}")))?;
    let atoms = value
        .get("true")
        .and_then(Value::as_array)
        .ok_or_else(|| invalid("no `true` list of atoms".into()))?;
    let atoms: Option<Vec<&str>> = atoms.iter().map(Value::as_str).collect();
    let atoms =
        atoms.ok_or_else(|| invalid("`true` holds something other than a string".into()))?;
    let state = State::from_atoms(atoms).map_err(invalid)?;
    Ok((value.get("id").cloned().unwrap_or(Value::Null), state))
}
