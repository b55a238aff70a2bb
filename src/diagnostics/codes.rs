//! The registry of diagnostic codes: stable code, kebab-case name, default severity, summary.
//!
//! Codes are grouped by stage (`P0xx` parse, `C1xx` domain, `C2xx` problem, `V3xx` plan,
//! `K4xx` kitchen) and never reused. Each has a section in `docs/diagnostics.md` and a fixture
//! named after it; a test enforces both.

use super::Severity;
use serde::{Serialize, Serializer};
use std::fmt;

macro_rules! codes {
    ($($variant:ident, $code:literal, $name:literal, $severity:ident, $summary:literal;)*) => {
        /// A registered diagnostic code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $(#[doc = $summary] $variant,)*
        }

        impl Code {
            /// Every registered code, in code order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable code, such as `P001`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $code,)*
                }
            }

            /// The kebab-case name, such as `unclosed-form`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            pub fn default_severity(self) -> Severity {
                match self {
                    $(Code::$variant => Severity::$severity,)*
                }
            }

            /// One sentence on what the code reports.
            pub fn summary(self) -> &'static str {
                match self {
                    $(Code::$variant => $summary,)*
                }
            }
        }
    };
}

codes! {
    InternalError, "P000", "internal-error", Error, "the parser met a shape its grammar should have ruled out (a bug in pddlc)";
    UnclosedForm, "P001", "unclosed-form", Error, "a `(` is never closed";
    UnmatchedClose, "P002", "unmatched-close", Error, "a `)` closes nothing";
    SurplusClose, "P003", "surplus-close", Warning, "one or more `)` after the end of the definition";
    ContentAfterDefinition, "P004", "content-after-definition", Error, "forms after the `)` that ends the definition";
    SyntaxError, "P005", "syntax-error", Error, "the text does not match the PDDL grammar here";
    NestingTooDeep, "P006", "nesting-too-deep", Error, "parentheses nest deeper than pddlc reads";
    InvalidUtf8, "P007", "invalid-utf8", Error, "the input is not valid UTF-8";
    BinaryInput, "P008", "binary-input", Error, "the input contains NUL bytes: it is not a text file";
    EmptyInput, "P009", "empty-input", Error, "the input has no definition in it";
    LispPreamble, "P010", "lisp-preamble", Warning, "a Lisp `(in-package …)` form before the definition, ignored";
    UnknownSection, "P011", "unknown-section", Error, "a section that PDDL does not define";
    DuplicateSection, "P012", "duplicate-section", Error, "a section that may appear once appears again";
    RepeatedSection, "P013", "repeated-section", Warning, "a list section appears again; its contents are merged";
    DuplicatePart, "P014", "duplicate-part", Error, "a part of an action appears twice";
    UnknownPart, "P015", "unknown-part", Error, "a `:keyword` that the enclosing definition does not have";
    MissingValue, "P016", "missing-value", Error, "a `:keyword` without its value";
    OperatorArity, "P017", "operator-arity", Error, "an arithmetic operator with the wrong number of arguments";
    TarskiRejects, "C150", "tarski-rejects", Error, "tarski 0.8.2, Text2World's executability check, rejects this domain";
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}
