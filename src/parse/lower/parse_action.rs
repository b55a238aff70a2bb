//! Actions, processes, events, durative actions, ENHSP constraints and derived predicates:
//! their parts, once each, and parts that did not parse.

use super::{Lower, P, R, Seen, describe_form, list_keywords, next, unexpected};
use crate::ast::*;
use crate::diagnostics::{Code, Diagnostic};
use crate::parse::errors::locate;
use crate::parse::grammar::{PddlParser, Rule};
use pest::Parser;

impl<'s> Lower<'s> {
    pub(super) fn action(&mut self, pair: P<'s>, kind: &'static str) -> R<Action> {
        let at = self.span(&pair);
        let mut inner = pair.into_inner();
        next(&mut inner, at, "a keyword")?;
        let name = self.name(&next(&mut inner, at, "a name")?);
        let mut action = Action {
            name,
            parameters: Vec::new(),
            vars: Vec::new(),
            precondition: None,
            effect: None,
            span: at,
        };
        let mut seen = Seen::default();
        for part in inner {
            let part_span = self.span(&part);
            match part.as_rule() {
                Rule::parameters_part => {
                    let parameters = self.parameters(part)?;
                    if self.part_once(&mut seen, ":parameters", part_span, kind) {
                        action.parameters = parameters;
                    }
                }
                Rule::vars_part => {
                    let vars = self.parameters(part)?;
                    if self.part_once(&mut seen, ":vars", part_span, kind) {
                        action.vars = vars;
                    }
                }
                Rule::precondition_part => {
                    let gd = self.part_gd(part);
                    if self.part_once(&mut seen, ":precondition", part_span, kind) {
                        action.precondition = gd;
                    }
                }
                Rule::effect_part => {
                    let effect = self.part_effect(part);
                    if self.part_once(&mut seen, ":effect", part_span, kind) {
                        action.effect = effect;
                    }
                }
                Rule::bad_part => {
                    if action.parameters.is_empty() {
                        action.parameters = self.misspelled_parameters(&part).unwrap_or_default();
                    }
                    self.bad_part(
                        &part,
                        kind,
                        &[":parameters", ":vars", ":precondition", ":effect"],
                    )
                }
                _ => return unexpected(&part, "an action part"),
            }
        }
        Ok(action)
    }

    pub(super) fn durative_action(&mut self, pair: P<'s>) -> R<DurativeAction> {
        let at = self.span(&pair);
        let mut inner = pair.into_inner();
        next(&mut inner, at, "`:durative-action`")?;
        let name = self.name(&next(&mut inner, at, "a name")?);
        let mut action = DurativeAction {
            name,
            parameters: Vec::new(),
            duration: None,
            condition: None,
            effect: None,
            span: at,
        };
        let kind = "durative action";
        let mut seen = Seen::default();
        for part in inner {
            let part_span = self.span(&part);
            match part.as_rule() {
                Rule::parameters_part => {
                    let parameters = self.parameters(part)?;
                    if self.part_once(&mut seen, ":parameters", part_span, kind) {
                        action.parameters = parameters;
                    }
                }
                Rule::duration_part => {
                    let gd = self.part_gd(part);
                    if self.part_once(&mut seen, ":duration", part_span, kind) {
                        action.duration = gd;
                    }
                }
                Rule::condition_part => {
                    let gd = self.part_gd(part);
                    if self.part_once(&mut seen, ":condition", part_span, kind) {
                        action.condition = gd;
                    }
                }
                Rule::effect_part => {
                    let effect = self.part_effect(part);
                    if self.part_once(&mut seen, ":effect", part_span, kind) {
                        action.effect = effect;
                    }
                }
                Rule::bad_part => {
                    if action.parameters.is_empty() {
                        action.parameters = self.misspelled_parameters(&part).unwrap_or_default();
                    }
                    self.bad_part(
                        &part,
                        kind,
                        &[":parameters", ":duration", ":condition", ":effect"],
                    )
                }
                _ => return unexpected(&part, "a durative action part"),
            }
        }
        Ok(action)
    }

    pub(super) fn global_constraint(&mut self, pair: P<'s>) -> R<GlobalConstraint> {
        let at = self.span(&pair);
        let mut inner = pair.into_inner();
        next(&mut inner, at, "`:constraint`")?;
        let name = self.name(&next(&mut inner, at, "a name")?);
        let mut constraint = GlobalConstraint {
            name,
            parameters: Vec::new(),
            condition: None,
            span: at,
        };
        let kind = "constraint";
        let mut seen = Seen::default();
        for part in inner {
            let part_span = self.span(&part);
            match part.as_rule() {
                Rule::parameters_part => {
                    let parameters = self.parameters(part)?;
                    if self.part_once(&mut seen, ":parameters", part_span, kind) {
                        constraint.parameters = parameters;
                    }
                }
                Rule::condition_part => {
                    let gd = self.part_gd(part);
                    if self.part_once(&mut seen, ":condition", part_span, kind) {
                        constraint.condition = gd;
                    }
                }
                Rule::bad_part => self.bad_part(&part, kind, &[":parameters", ":condition"]),
                _ => return unexpected(&part, "a constraint part"),
            }
        }
        Ok(constraint)
    }

    pub(super) fn derived(&mut self, pair: P<'s>) -> R<Option<Derived>> {
        let at = self.span(&pair);
        let mut inner = pair.into_inner();
        next(&mut inner, at, "`:derived`")?;
        let predicate = self.skeleton(next(&mut inner, at, "a predicate")?)?;
        let body = self.gd_slot(next(&mut inner, at, "a goal description")?);
        Ok(body.map(|body| Derived {
            predicate,
            body,
            span: at,
        }))
    }

    /// Records a part of an action-like definition; false (after an error) for a second one.
    fn part_once(&mut self, seen: &mut Seen, keyword: &str, at: Span, kind: &str) -> bool {
        match seen.first(keyword, at) {
            None => true,
            Some(earlier) => {
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::DuplicatePart,
                        format!("this {kind} has `{keyword}` twice; the second is ignored"),
                        at,
                    )
                    .with_label(earlier, "first here")
                    .with_help(format!("keep one `{keyword}`")),
                );
                false
            }
        }
    }

    fn parameters(&self, part: P) -> R<Vec<Typed<Variable>>> {
        let at = self.span(&part);
        let mut inner = part.into_inner();
        next(&mut inner, at, "`:parameters`")?;
        self.typed_variables(next(&mut inner, at, "a list of variables")?)
    }

    /// The list of a misspelled `:parameters` (`:parameter (?x)`, `:params (?x)`), read so that
    /// its variables are not reported as undefined at every use; the part itself is still an
    /// error (P015, "did you mean `:parameters`?"). The value is parsed in a copy of the source
    /// that is blank but for `:parameters` and the value, so its offsets stay the source's.
    fn misspelled_parameters(&self, part: &P) -> Option<Vec<Typed<Variable>>> {
        const KEYWORD: &str = ":parameters";
        let mut inner = part.clone().into_inner();
        let keyword = inner
            .next()
            .filter(|p| p.as_rule() == Rule::keyword_token)?;
        let text = keyword.as_str().to_ascii_lowercase();
        if text == KEYWORD || strsim::jaro_winkler(&text, KEYWORD) <= 0.8 {
            return None;
        }
        let value = self.span(&inner.next()?);
        let before = value.start.checked_sub(KEYWORD.len())?;
        let mut probe = String::with_capacity(self.source.len());
        probe.extend(std::iter::repeat_n(' ', before));
        probe.push_str(KEYWORD);
        probe.push_str(self.source.get(value.start..value.end)?);
        probe.extend(std::iter::repeat_n(' ', self.source.len() - value.end));
        let pair = PddlParser::parse(Rule::parameters_exact, &probe)
            .ok()?
            .next()?;
        self.parameters(pair).ok()
    }

    fn part_gd(&mut self, part: P<'s>) -> Option<Gd> {
        let value = part.into_inner().nth(1)?;
        self.gd_slot(value)
    }

    fn part_effect(&mut self, part: P<'s>) -> Option<Effect> {
        let value = part.into_inner().nth(1)?;
        self.effect_slot(value)
    }

    /// A part that did not parse: a keyword without a value, an unknown keyword, a value that
    /// is not what the keyword takes, or a form without a keyword.
    fn bad_part(&mut self, part: &P, kind: &str, known: &[&str]) {
        let at = self.span(part);
        let mut inner = part.clone().into_inner();
        let first = inner.next();
        let keyword = first
            .as_ref()
            .filter(|p| p.as_rule() == Rule::keyword_token);
        let Some(keyword) = keyword else {
            self.diagnostics.push(
                Diagnostic::new(
                    Code::SyntaxError,
                    format!(
                        "expected a `:keyword` in this {kind}, found {}",
                        describe_form(part.as_str())
                    ),
                    at,
                )
                .with_help(format!(
                    "{} has the parts {}",
                    with_article(kind),
                    list_keywords(known)
                )),
            );
            return;
        };
        let text = keyword.as_str();
        let key_span = self.span(keyword);
        let has_value = inner.next().is_some();
        if known.iter().any(|k| k.eq_ignore_ascii_case(text)) {
            if !has_value {
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::MissingValue,
                        format!("`{text}` has no value"),
                        key_span,
                    )
                    .with_help(if text.eq_ignore_ascii_case(":parameters") {
                        "write `:parameters ()` for an action without parameters".to_string()
                    } else {
                        format!("give `{text}` a value, or remove it")
                    }),
                );
            } else if text.eq_ignore_ascii_case(":parameters") {
                self.diagnostics.push(locate(
                    self.source,
                    at,
                    Rule::parameters_exact,
                    "parameter list",
                ));
            } else {
                // Other parts take any form and recover inside it, so only a keyword where the
                // value should be ends up here; that is handled above.
                self.diagnostics.push(Diagnostic::new(
                    Code::SyntaxError,
                    format!("`{text}` has no valid value"),
                    at,
                ));
            }
            return;
        }
        let mut diagnostic = Diagnostic::new(
            Code::UnknownPart,
            format!("{} has no part `{text}`", with_article(kind)),
            key_span,
        );
        let suggestion = known
            .iter()
            .map(|k| (strsim::jaro_winkler(&text.to_ascii_lowercase(), k), k))
            .filter(|(score, _)| *score > 0.8)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        diagnostic = match suggestion {
            Some((_, k)) => diagnostic.with_help(format!("did you mean `{k}`?")),
            None => diagnostic.with_help(format!(
                "{} has the parts {}",
                with_article(kind),
                list_keywords(known)
            )),
        };
        self.diagnostics.push(diagnostic);
    }
}

/// "an action", "a process".
fn with_article(noun: &str) -> String {
    let vowel = noun.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {noun}", if vowel { "an" } else { "a" })
}
