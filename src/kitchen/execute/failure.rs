//! One failure of a plan in the kitchen (semantics §9): a [`Diagnostic`] (its code is the
//! failure type, `K404` syntax, `K405` immediate, `K406` latent) with the step data of Simmer's
//! `Failure` record. Simmer's JSON and result files are views of it, as the validator's
//! failures are views of theirs (src/validate/failure.rs).

use crate::diagnostics::{Code, Diagnostic, FileId, Label};
use crate::kitchen::data::plan::Step;
use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};

/// Simmer's three kinds of failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FailureType {
    Syntax,
    Immediate,
    Latent,
}

impl FailureType {
    pub fn as_str(self) -> &'static str {
        match self {
            FailureType::Syntax => "syntax",
            FailureType::Immediate => "immediate",
            FailureType::Latent => "latent",
        }
    }

    /// The diagnostic code of a failure of this type.
    fn code(self) -> Code {
        match self {
            FailureType::Syntax => Code::KitchenSyntaxFailure,
            FailureType::Immediate => Code::KitchenImmediateFailure,
            FailureType::Latent => Code::KitchenLatentFailure,
        }
    }
}

/// The help of a failure that cannot be undone.
const IRREVERSIBLE_HELP: &str =
    "irreversible: food that is unsafe cannot be made safe again; change the plan before this step";

/// One failure: its diagnostic, and the fields of Simmer's `Failure` record that the
/// diagnostic does not hold. Serialises as Simmer's record (`step`, `failure_type`, `action`,
/// `reason`, `severity`, `reversible`).
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// 1-based parsed step, or 0 for the post-execution audits.
    pub step: usize,
    /// The executor's rendering of the step, or the audit's name.
    pub action: String,
    pub reason: String,
    /// 1 for syntax and immediate failures, 2 for latent ones (0 for a step without handler).
    pub severity: u8,
    /// False only for food-safety failures.
    pub reversible: bool,
    /// The failure in the plan text (file 0): its code is its type; labelled on the step's
    /// line once [`Failure::located`] has been given the plan's steps (none for the audits).
    pub diagnostic: Diagnostic,
}

impl Failure {
    pub fn new(step: usize, failure_type: FailureType, action: &str, reason: String) -> Failure {
        let diagnostic = Diagnostic::unlocated(
            failure_type.code(),
            message(step, failure_type, action, &reason),
        );
        Failure {
            step,
            action: action.to_string(),
            reason,
            severity: if failure_type == FailureType::Latent {
                2
            } else {
                1
            },
            reversible: true,
            diagnostic,
        }
    }

    /// The failure marked as one that cannot be undone (food safety), with the help that says so.
    pub fn irreversible(mut self) -> Failure {
        self.reversible = false;
        self.diagnostic = self.diagnostic.with_help(IRREVERSIBLE_HELP);
        self
    }

    /// The failure with its diagnostic labelled on its step's line in the plan text; the
    /// audits' failures (step 0) stay unlocated.
    pub fn located(mut self, steps: &[Step]) -> Failure {
        if let Some(step) = self.step.checked_sub(1).and_then(|index| steps.get(index)) {
            self.diagnostic.labels = vec![Label {
                file: FileId::default(),
                span: step.span,
                message: Some(format!("step {}", step.number)),
            }];
        }
        self
    }

    /// The failure's type, which its diagnostic's code is.
    pub fn failure_type(&self) -> FailureType {
        match self.diagnostic.code {
            Code::KitchenSyntaxFailure => FailureType::Syntax,
            Code::KitchenImmediateFailure => FailureType::Immediate,
            _ => FailureType::Latent,
        }
    }

    /// Simmer's one-line form: `[Step k] (type) reason  |  action: text`.
    pub fn line(&self) -> String {
        format!(
            "[Step {}] ({}) {}  |  action: {}",
            self.step,
            self.failure_type().as_str(),
            self.reason,
            self.action
        )
    }
}

/// The diagnostic's message: the step and why it failed, or the hazard an audit found.
fn message(step: usize, failure_type: FailureType, action: &str, reason: &str) -> String {
    let action = action.trim_end();
    match failure_type {
        FailureType::Syntax => format!("`{action}` is not a valid step: {reason}"),
        FailureType::Immediate => format!("`{action}` cannot run: {reason}"),
        FailureType::Latent if step == 0 => {
            format!("the plan leaves a hazard ({action}): {reason}")
        }
        FailureType::Latent => format!("`{action}` leaves a hazard: {reason}"),
    }
}

impl Serialize for Failure {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Failure", 6)?;
        out.serialize_field("step", &self.step)?;
        out.serialize_field("failure_type", &self.failure_type())?;
        out.serialize_field("action", &self.action)?;
        out.serialize_field("reason", &self.reason)?;
        out.serialize_field("severity", &self.severity)?;
        out.serialize_field("reversible", &self.reversible)?;
        out.end()
    }
}
