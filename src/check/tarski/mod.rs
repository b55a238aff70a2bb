//! `--profile tarski`: accept and reject exactly what tarski 0.8.2 accepts as a domain, which
//! is what the Text2World benchmark calls executability (EXEC).
//!
//! tarski lexes with the ANTLR lexer of its `fstrips.g4`, parses from the `domain` rule (so
//! text after the domain's closing `)` is never parsed, though its first token is lexed), stops
//! at the first syntax error, then builds its first-order language with a visitor that raises on
//! the first semantic error. The modules follow those stages: [`lexer`], [`parser`] (into
//! [`syntax`]), [`semantics`]. For an accepted domain, [`strings`] writes what Text2World's F1
//! metrics read: tarski's `str()` of each action's precondition and effects.

pub mod extract;
mod lexer;
mod parser;
mod semantics;
pub(crate) mod strings;
mod syntax;

pub use extract::extract_response;

use crate::ast::Span;
use crate::diagnostics::{Code, Diagnostic};

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

/// The reasons tarski 0.8.2 would reject `text` as a domain; empty when it accepts it.
pub fn check(text: &str) -> Vec<Diagnostic> {
    // The parser and the visitor recurse at most `parser::MAX_DEPTH` forms deep; a stack of
    // its own keeps that safe on any caller's thread.
    match crate::parse::with_stack(|| verdict(text)) {
        Ok(()) => Vec::new(),
        Err(rejection) => vec![rejection.into_diagnostic()],
    }
}

fn verdict(text: &str) -> Result<(), Rejection> {
    let tokens = lexer::tokens(text);
    let domain = parser::Parser::new(text, &tokens).domain()?;
    semantics::check(&domain)
}
