//! What domains and problems share: repeated and single sections, requirements, typed list
//! sections, goal sections, and sections that did not parse.

use super::{Lower, P, R, Seen, describe_form, list_keywords, next};
use crate::ast::*;
use crate::diagnostics::{Code, Diagnostic};
use crate::parse::DOMAIN_SECTIONS;
use crate::parse::errors::locate;
use crate::parse::grammar::Rule;

#[derive(Clone, Copy)]
pub(super) enum Definition {
    Domain,
    Problem,
}

impl Definition {
    fn as_str(self) -> &'static str {
        match self {
            Definition::Domain => "domain",
            Definition::Problem => "problem",
        }
    }

    fn other(self) -> &'static str {
        match self {
            Definition::Domain => "problem",
            Definition::Problem => "domain",
        }
    }
}

const PROBLEM_SECTIONS: &[&str] = &[
    ":domain",
    ":requirements",
    ":objects",
    ":init",
    ":goal",
    ":constraints",
    ":metric",
    ":length",
];

impl<'s> Lower<'s> {
    /// Records a list section; a second one is merged, with a warning.
    pub(super) fn repeated(&mut self, seen: &mut Seen, keyword: &str, at: Span) {
        if let Some(earlier) = seen.first(keyword, at) {
            self.diagnostics.push(
                Diagnostic::new(
                    Code::RepeatedSection,
                    format!("`{keyword}` appears again; its contents are merged with the first"),
                    at,
                )
                .with_label(earlier, "first here")
                .with_help("merge the two sections into one"),
            );
        }
    }

    /// Records a section that holds one value; returns false (after an error) for a second one.
    pub(super) fn single(&mut self, seen: &mut Seen, keyword: &str, at: Span) -> bool {
        match seen.first(keyword, at) {
            None => true,
            Some(earlier) => {
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::DuplicateSection,
                        format!("`{keyword}` appears twice; the second is ignored"),
                        at,
                    )
                    .with_label(earlier, "first here")
                    .with_help("keep one of them"),
                );
                false
            }
        }
    }

    pub(super) fn requirements(&self, section: P) -> Vec<Name> {
        section
            .into_inner()
            .filter(|p| p.as_rule() == Rule::requirement)
            .map(|p| self.name(&p))
            .collect()
    }

    /// `(:types …)`, `(:constants …)`, `(:objects …)`: a keyword and a typed list of names.
    pub(super) fn list_section(&self, section: P) -> R<Vec<Typed<Name>>> {
        let at = self.span(&section);
        let mut inner = section.into_inner();
        next(&mut inner, at, "a section keyword")?;
        self.typed_names(next(&mut inner, at, "a typed list")?)
    }

    /// A section holding one goal description: `(:constraints gd)`, `(:goal gd)`.
    pub(super) fn slot_section(&mut self, section: P<'s>) -> Option<Gd> {
        let value = section.into_inner().nth(1)?;
        self.gd_slot(value)
    }

    /// A section that did not parse: unknown, in the wrong kind of file, or malformed.
    pub(super) fn bad_section(&mut self, pair: &P, definition: Definition) {
        let at = self.span(pair);
        let text = pair.as_str();
        let head = text
            .strip_prefix('(')
            .map(|rest| {
                rest.trim_start()
                    .split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ';')
                    .next()
                    .unwrap_or("")
            })
            .unwrap_or("");
        let head_lower = head.to_ascii_lowercase();
        let (own, other, exact) = match definition {
            Definition::Domain => (
                DOMAIN_SECTIONS,
                PROBLEM_SECTIONS,
                Rule::domain_section_exact,
            ),
            Definition::Problem => (
                PROBLEM_SECTIONS,
                DOMAIN_SECTIONS,
                Rule::problem_section_exact,
            ),
        };
        let what = definition.as_str();
        if own.contains(&head_lower.as_str()) {
            self.diagnostics
                .push(locate(self.source, at, exact, &format!("`{head}` section")));
            return;
        }
        let head_span = Span::new(
            at.start + text.find(head).unwrap_or(0),
            at.start + text.find(head).unwrap_or(0) + head.len(),
        );
        if !head.starts_with(':') {
            self.diagnostics.push(
                Diagnostic::new(
                    Code::SyntaxError,
                    format!(
                        "expected a section such as `(:{} …)`, found {}",
                        own[0].trim_start_matches(':'),
                        describe_form(text)
                    ),
                    at,
                )
                .with_help(format!(
                    "a {what} holds the sections {}",
                    list_keywords(own)
                )),
            );
            return;
        }
        let mut diagnostic = Diagnostic::new(
            Code::UnknownSection,
            if other.contains(&head_lower.as_str()) {
                format!(
                    "`{head}` is a section of a {}, not of a {what}",
                    definition.other()
                )
            } else {
                format!("a {what} has no section `{head}`")
            },
            head_span,
        );
        let suggestion = own
            .iter()
            .map(|k| (strsim::jaro_winkler(&head_lower, k), k))
            .filter(|(score, _)| *score > 0.85)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        diagnostic = match suggestion {
            Some((_, k)) => diagnostic.with_help(format!("did you mean `{k}`?")),
            None => diagnostic.with_help(format!(
                "a {what} holds the sections {}",
                list_keywords(own)
            )),
        };
        self.diagnostics.push(diagnostic);
    }
}
