//! The library's `Diagnostic` values as LSP diagnostics: the same codes, messages and help as
//! `pddlc check`, located in UTF-16, with secondary labels as related information.

use super::state::{Source, State};
use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Uri,
};
use pddlc::ast::PddlFile;
use pddlc::check;
use pddlc::diagnostics::{Code, Diagnostic, FileId, Severity, TaskFiles};
use pddlc::validate::ValidateOptions;
use serde_json::Value;
use std::str::FromStr;
use std::sync::Arc;

/// The diagnostics of one document: its parse, then the checks of a domain on its own or of a
/// problem against its domain (found as [`State::domain_of`] says). A problem whose domain is
/// not found gets its parse diagnostics only, as `pddlc check` given the problem alone.
pub fn of(state: &mut State, source: &Arc<Source>) -> Vec<lsp_types::Diagnostic> {
    if source.plan {
        return of_plan(state, source);
    }
    if source.bddl {
        return of_bddl(source);
    }
    let parsed = source.parsed();
    let mut found: Vec<Diagnostic> = parsed.diagnostics.clone();
    let mut domain_source = None;
    match &parsed.value {
        Some(PddlFile::Domain(domain)) => found.extend(check::domain(domain, FileId(0))),
        Some(PddlFile::Problem(problem)) => {
            if let Some(domain) = state.domain_of(source)
                && let Some(tree) = domain.domain()
            {
                let files = TaskFiles {
                    domain: FileId(1),
                    problem: FileId(0),
                    ..TaskFiles::default()
                };
                found.extend(check::problem(tree, problem, files));
                domain_source = Some(domain);
            }
        }
        None => {}
    }
    pddlc::diagnostics::sort(&mut found);
    let sources: Vec<&Source> = std::iter::once(source.as_ref())
        .chain(domain_source.as_deref())
        .collect();
    found.iter().map(|d| convert(d, &sources)).collect()
}

/// A BDDL file's diagnostics, as `pddlc check` gives them for the file alone (through the
/// same `bddl::check_file`): a problem against the shipped iGibson domain and taxonomy.
fn of_bddl(source: &Source) -> Vec<lsp_types::Diagnostic> {
    let parsed = source.bddl_parsed();
    let mut found = parsed.diagnostics.clone();
    if let Some(file) = &parsed.value {
        let path = source
            .path
            .as_ref()
            .map(|p| p.to_string_lossy().into_owned());
        found.extend(pddlc::bddl::check_file(file, &[], None, path.as_deref()).0);
    }
    pddlc::diagnostics::sort(&mut found);
    found.iter().map(|d| convert(d, &[source])).collect()
}

/// A plan's diagnostics, as `pddlc validate` gives them: the task's errors when its domain or
/// problem cannot be used (located in those files, so shown at the plan's start with their
/// place as related information), else the validator's failures. A plan whose domain and
/// problem are not found gets none.
fn of_plan(state: &mut State, plan: &Arc<Source>) -> Vec<lsp_types::Diagnostic> {
    let Some((domain_source, problem_source)) = state.task_of(plan) else {
        return Vec::new();
    };
    let files = TaskFiles {
        plan: FileId(0),
        domain: FileId(1),
        problem: FileId(2),
    };
    // The task layer decides, as for `pddlc validate`: the task's errors, or the plan's failures.
    let checked = pddlc::task::check_parsed(
        Some(domain_source.parsed()),
        Some(problem_source.parsed()),
        files,
    );
    let found: Vec<Diagnostic> = match checked.usable() {
        Some((domain, problem)) => {
            let options = ValidateOptions {
                files,
                ..ValidateOptions::default()
            };
            let report = pddlc::validate::validate(domain, problem, &plan.text, &options);
            report.diagnostics().cloned().collect()
        }
        None => checked.errors().cloned().collect(),
    };
    let mut found = found;
    pddlc::diagnostics::sort(&mut found);
    let sources = [
        plan.as_ref(),
        domain_source.as_ref(),
        problem_source.as_ref(),
    ];
    found.iter().map(|d| convert(d, &sources)).collect()
}

/// One diagnostic, whose labels point into `sources` by `FileId`; the first source is the
/// document the diagnostic is published for.
pub fn convert(diagnostic: &Diagnostic, sources: &[&Source]) -> lsp_types::Diagnostic {
    let source_of = |file: FileId| sources.get(file.0 as usize).copied();
    let document = sources[0];
    let range = match diagnostic.primary() {
        Some(label) if label.file == FileId(0) => document.index().range(label.span),
        _ => lsp_types::Range::default(),
    };
    let mut related = Vec::new();
    for (i, label) in diagnostic.labels.iter().enumerate() {
        // The primary label is the diagnostic's own range, unless it points elsewhere.
        if i == 0 && label.file == FileId(0) {
            continue;
        }
        let Some(source) = source_of(label.file) else {
            continue;
        };
        related.push(DiagnosticRelatedInformation {
            location: Location::new(source.uri.clone(), source.index().range(label.span)),
            message: label.message.clone().unwrap_or_else(|| "here".to_string()),
        });
    }
    let mut message = diagnostic.message.clone();
    // The primary label's text adds what the message does not say already (a V306's message
    // names its step; its label, `step 3`, would only repeat it).
    if let Some(primary) = diagnostic.primary().and_then(|l| l.message.as_ref())
        && !message.contains(primary.as_str())
    {
        message.push_str(&format!(": {primary}"));
    }
    if let Some(help) = &diagnostic.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    lsp_types::Diagnostic {
        range,
        severity: Some(match diagnostic.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Advice => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(diagnostic.code.as_str().to_string())),
        code_description: code_description(diagnostic.code),
        source: Some("pddlc".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: fix_data(diagnostic),
    }
}

/// What the quick fixes need, read here once from the diagnostic's help (so that a code
/// action reads the `data` the client hands back, never the message it echoes): the name a
/// "did you mean" suggests (`replace`), the requirement flag to add (`requirement`), and that
/// an undeclared predicate may be declared (`declare`).
fn fix_data(diagnostic: &Diagnostic) -> Option<Value> {
    let mut data = serde_json::Map::new();
    if let Some(help) = &diagnostic.help {
        if let Some(name) = suggested(help) {
            data.insert("replace".into(), name.into());
        }
        if diagnostic.code == Code::MissingRequirement
            && let Some(flag) = quoted_flag(help)
        {
            data.insert("requirement".into(), flag.into());
        }
    }
    if diagnostic.code == Code::UndeclaredPredicate {
        data.insert("declare".into(), true.into());
    }
    (!data.is_empty()).then_some(Value::Object(data))
}

/// The name a help suggests: "did you mean `X`?" or "… if `X` was meant, use `X`".
fn suggested(help: &str) -> Option<&str> {
    let rest = help
        .split_once("did you mean `")
        .or_else(|| help.split_once("if `"))?
        .1;
    rest.split_once('`').map(|(name, _)| name)
}

/// The first flag quoted in a help such as "add `:typing` to `(:requirements …)`".
fn quoted_flag(help: &str) -> Option<&str> {
    let rest = help.split_once("`:")?.1;
    let flag = &help[help.len() - rest.len() - 1..];
    flag.split_once('`').map(|(flag, _)| flag)
}

/// The link to the code's section of docs/diagnostics.md, in the source tree this binary was
/// built from (the binary knows no other copy of the docs).
fn code_description(code: pddlc::diagnostics::Code) -> Option<CodeDescription> {
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/diagnostics.md");
    let base = super::state::uri_of(&docs)?;
    let anchor = format!("{}-{}", code.as_str().to_lowercase(), code.name());
    let href = Uri::from_str(&format!("{}#{anchor}", base.as_str())).ok()?;
    Some(CodeDescription { href })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pddlc::ast::Span;

    /// The editor's message: the diagnostic's, with its primary label's text when that says more.
    #[test]
    fn a_label_the_message_says_already_is_not_repeated() {
        let uri = Uri::from_str("file:///tmp/a.plan").expect("a URI");
        let source = Source::new(uri, "(unstack a b)\n(unstack b c)\n".into());
        let message = |diagnostic: &Diagnostic| convert(diagnostic, &[&source]).message;
        let repeated = Diagnostic::new(
            Code::PreconditionUnsatisfied,
            "(unstack b c) has an unsatisfied precondition at step 2".to_string(),
            Span::new(14, 27),
        )
        .with_primary_message("step 2");
        assert_eq!(
            message(&repeated),
            "(unstack b c) has an unsatisfied precondition at step 2"
        );
        let more = Diagnostic::new(
            Code::UnknownAction,
            "no such action".to_string(),
            Span::new(0, 13),
        )
        .with_primary_message("`unstack` is not declared");
        assert_eq!(message(&more), "no such action: `unstack` is not declared");
    }
}
