//! A plan's verdict: its failures, each one a [`Diagnostic`] with the step and ground atoms it
//! is about, and the fields of the validator's JSON contract.

use crate::diagnostics::render::{self, DiagnosticRow, Sources};
use crate::diagnostics::{Code, Diagnostic};
use serde::ser::{Serialize, SerializeStruct, Serializer};

/// One failure of a plan. Its kind is its diagnostic's code (`V3xx`).
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// 1-based index of the step in the plan as written; `None` for the goal or the whole plan.
    pub step: Option<usize>,
    /// The ground atoms or conditions involved (unsatisfied preconditions, unmet goals).
    pub atoms: Vec<String>,
    /// In a temporal plan, which part of the step failed: `start`, `end` (its conditions at
    /// that point), `invariant` (its `over all` condition between two happenings) or `duration`.
    pub part: Option<&'static str>,
    /// In a temporal plan, the time of the happening where the failure was found.
    pub time: Option<f64>,
    pub diagnostic: Diagnostic,
}

impl Failure {
    pub fn new(step: Option<usize>, atoms: Vec<String>, diagnostic: Diagnostic) -> Failure {
        Failure {
            step,
            atoms,
            part: None,
            time: None,
            diagnostic,
        }
    }

    /// The failure with the part of a temporal step it is about, and the happening's time.
    pub fn at(mut self, part: Option<&'static str>, time: f64) -> Failure {
        self.part = part;
        self.time = Some(time);
        self
    }

    pub fn code(&self) -> Code {
        self.diagnostic.code
    }

    /// The failure's `kind` in the JSON contract, a name fixed per code.
    pub fn kind(&self) -> &'static str {
        match self.diagnostic.code {
            Code::PlanSyntax => "syntax",
            Code::UnknownAction => "unknown_action",
            Code::StepArity => "wrong_argument_count",
            Code::UnknownObject => "unknown_object",
            Code::StepTypeMismatch => "type_mismatch",
            Code::PreconditionUnsatisfied => "precondition",
            Code::MutexSteps => "mutex",
            Code::EvaluationFailed => "evaluation",
            Code::GoalUnsatisfied => "goal",
            Code::ValidateUnsupported => "unsupported",
            Code::InvariantViolated => "invariant",
            Code::DurationConstraint => "duration",
            Code::StepBeforeZero => "negative_time",
            Code::ConstraintViolated => "constraint",
            Code::StateConstraintViolated => "state_constraint",
            Code::EventCascade => "event_cascade",
            other => other.name(),
        }
    }
}

impl Serialize for Failure {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let timed = self.time.is_some();
        let fields = if timed { 7 } else { 5 };
        let mut out = serializer.serialize_struct("Failure", fields)?;
        out.serialize_field("step", &self.step)?;
        out.serialize_field("kind", self.kind())?;
        out.serialize_field("code", self.code().as_str())?;
        out.serialize_field("atoms", &self.atoms)?;
        // Only temporal plans have happenings' times and parts of steps.
        if timed {
            out.serialize_field("part", &self.part)?;
            out.serialize_field("time", &self.time)?;
        }
        out.serialize_field("message", &self.diagnostic.message)?;
        out.end()
    }
}

/// The verdict on a plan.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Report {
    /// `Some(true)` valid, `Some(false)` invalid, `None` when the validator cannot say.
    pub valid: Option<bool>,
    /// The number of steps in the plan.
    pub steps: usize,
    /// The first step that could not be executed, 1-based.
    pub failed_step: Option<usize>,
    /// The ground preconditions of the first failed step that do not hold.
    pub unsatisfied: Vec<String>,
    pub unmet_goals: Vec<String>,
    /// The metric's value after a valid plan; the number of steps when the problem has no
    /// metric, as VAL reports.
    pub metric: Option<f64>,
    /// Every failure, in the order found.
    pub failures: Vec<Failure>,
}

impl Report {
    pub(crate) fn new(steps: usize) -> Report {
        Report {
            valid: None,
            steps,
            failed_step: None,
            unsatisfied: Vec::new(),
            unmet_goals: Vec::new(),
            metric: None,
            failures: Vec::new(),
        }
    }

    /// The failures' diagnostics, in the order found.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.failures.iter().map(|f| &f.diagnostic)
    }

    /// Whether a failure other than an unmet goal was found.
    pub fn has_step_failures(&self) -> bool {
        self.failures
            .iter()
            .any(|f| f.code() != Code::GoalUnsatisfied)
    }

    pub(super) fn fail(&mut self, failure: Failure) {
        if self.failed_step.is_none() && failure.code() != Code::GoalUnsatisfied {
            self.failed_step = failure.step;
            if failure.code() == Code::PreconditionUnsatisfied {
                self.unsatisfied = failure.atoms.clone();
            }
        }
        self.failures.push(failure);
    }

    /// No verdict. The diagnostic has no label: it is about the task as a whole.
    pub(super) fn unsupported(mut self, what: String) -> Report {
        self.no_verdict(what);
        self
    }

    /// [`Report::unsupported`] in place.
    pub(super) fn no_verdict(&mut self, what: String) {
        self.valid = None;
        self.failures.push(Failure::new(
            None,
            Vec::new(),
            Diagnostic::unlocated(Code::ValidateUnsupported, what).with_help(
                "pddlc validates sequential and temporal plans of classical and numeric tasks \
                 (durative actions, timed initial literals, PDDL+ with polynomial change); this \
                 is its limit, not the plan's",
            ),
        ));
    }
}

/// The verdict's fields when nothing was validated (the task or the plan could not be used).
static NOT_VALIDATED: Report = Report {
    valid: None,
    steps: 0,
    failed_step: None,
    unsatisfied: Vec::new(),
    unmet_goals: Vec::new(),
    metric: None,
    failures: Vec::new(),
};

/// One plan's row of `pddlc validate --format json` (docs/cli.md), typed: the plan's name, the
/// verdict's fields, and the diagnostics located. The CLI prints it and the Python binding's
/// `PlanReport.to_dict` is it, so the two cannot differ.
#[derive(Debug, serde::Serialize)]
pub struct PlanRow<'a> {
    pub plan: &'a str,
    #[serde(flatten)]
    pub report: &'a Report,
    pub diagnostics: Vec<DiagnosticRow<'a>>,
}

impl<'a> PlanRow<'a> {
    /// The row of `plan` (its shown name): `report`'s fields, or null and empty ones when
    /// nothing was validated, and `diagnostics` located in `sources`.
    pub fn new(
        plan: &'a str,
        report: Option<&'a Report>,
        diagnostics: &'a [Diagnostic],
        sources: &'a Sources,
    ) -> PlanRow<'a> {
        PlanRow {
            plan,
            report: report.unwrap_or(&NOT_VALIDATED),
            diagnostics: render::rows(diagnostics, sources),
        }
    }
}
