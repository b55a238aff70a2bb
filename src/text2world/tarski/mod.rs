//! tarski 0.8.2's verdict on a domain (`check --profile tarski`): accept and reject exactly what
//! it accepts, which is what the Text2World benchmark calls executability (EXEC).
//!
//! tarski lexes with the ANTLR lexer of its `fstrips.g4`, parses from the `domain` rule (so
//! text after the domain's closing `)` is never parsed, though its first token is lexed), stops
//! at the first syntax error, then builds its first-order language with a visitor that raises on
//! the first semantic error. The modules follow those stages: [`lexer`], [`parser`] (into
//! [`syntax`]), [`semantics`]. For an accepted domain, `text2world::strings` writes what
//! Text2World's F1 metrics read from tarski's language.

mod lexer;
mod parser;
mod semantics;
pub(crate) mod syntax;

use crate::ast::Span;
use crate::diagnostics::{Code, Diagnostic};
use std::borrow::Cow;

/// Why tarski rejects a domain: the first error it would raise.
#[derive(Clone, Debug)]
struct Rejection {
    message: String,
    span: Span,
    help: Option<String>,
}

impl Rejection {
    fn new(message: impl Into<String>, span: Span) -> Rejection {
        Rejection {
            message: message.into(),
            span,
            help: None,
        }
    }

    fn help(mut self, help: impl Into<String>) -> Rejection {
        self.help = Some(help.into());
        self
    }

    fn into_diagnostic(self) -> Diagnostic {
        let diagnostic = Diagnostic::new(Code::TarskiRejects, self.message, self.span);
        match self.help {
            Some(help) => diagnostic.with_help(help),
            None => diagnostic,
        }
    }
}

/// `text` as a message quotes it: a name of more than [`SHOWN_CHARS`] characters is cut short
/// with `…`, so that a hostile input does not make a message of megabytes.
fn shown(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((cut, _)) => Cow::Owned(format!("{}…", &text[..cut])),
        None => Cow::Borrowed(text),
    }
}

/// How many characters of a name a message quotes.
const SHOWN_CHARS: usize = 60;

/// The reasons tarski 0.8.2 would reject `text` as a domain; empty when it accepts it.
pub fn check(text: &str) -> Vec<Diagnostic> {
    // The parser and the visitor recurse at most `parser::MAX_DEPTH` forms deep; a stack of
    // its own keeps that safe on any caller's thread.
    match crate::parse::with_stack(|| verdict(text)) {
        Ok(_) => Vec::new(),
        Err(rejection) => vec![rejection.into_diagnostic()],
    }
}

/// The domain tarski 0.8.2 reads from `text`, or the first error it raises. Recursive: run it
/// on a stack of its own ([`crate::parse::with_stack`]).
pub(crate) fn read(text: &str) -> Result<syntax::Domain<'_>, Diagnostic> {
    verdict(text).map_err(Rejection::into_diagnostic)
}

fn verdict(text: &str) -> Result<syntax::Domain<'_>, Rejection> {
    let domain = parser::Parser::new(text).domain()?;
    semantics::check(&domain)?;
    Ok(domain)
}
