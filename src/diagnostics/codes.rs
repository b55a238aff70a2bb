//! The registry of diagnostic codes: stable code, kebab-case name, default severity, summary.
//!
//! Codes are grouped by stage (`P0xx` parse, `C1xx` domain, `C2xx` problem, `V3xx` plan,
//! `K4xx` kitchen, `S5xx` solve, `M6xx` Plancraft, `B7xx` BDDL and ActPlan-1K, `W8xx` world-model items) and never reused. Each has a section in `docs/diagnostics.md` and a fixture
//! named after it; a test enforces both.

use super::Severity;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
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
    TextAroundDefinition, "P018", "text-around-definition", Error, "Markdown or prose around the definition, as in a chat answer";
    TooManyDiagnostics, "P019", "too-many-diagnostics", Advice, "more diagnostics than pddlc reports for one input: the rest are counted in one note";
    UndeclaredPredicate, "C101", "undeclared-predicate", Error, "an atom uses a predicate the domain does not declare";
    ArityMismatch, "C102", "arity-mismatch", Error, "a predicate or function is used with the wrong number of arguments";
    UndefinedVariable, "C103", "undefined-variable", Error, "a variable that is neither a parameter nor bound by a quantifier";
    MissingRequirement, "C104", "missing-requirement", Warning, "a feature is used without the requirement that allows it";
    DuplicateDefinition, "C105", "duplicate-definition", Error, "a predicate, action, type, constant, function, object or parameter is defined twice";
    UnknownRequirement, "C106", "unknown-requirement", Error, "a requirement flag that no PDDL version defines";
    UndefinedType, "C107", "undefined-type", Error, "a type that is not declared";
    TypeCycle, "C108", "type-cycle", Error, "the type hierarchy has a cycle";
    TypeMismatch, "C109", "type-mismatch", Error, "an argument's type is not the parameter's type or a subtype of it";
    UndeclaredConstant, "C110", "undeclared-constant", Error, "a name used as an argument is neither a constant nor an object";
    NameClash, "C111", "name-clash", Warning, "a name is used for two kinds of symbol where PDDL forbids it";
    UndeclaredFunction, "C112", "undeclared-function", Error, "a numeric expression uses a function the domain does not declare";
    NonNumericFluent, "C113", "non-numeric-fluent", Error, "an object-valued function or a predicate where a number is expected";
    MisplacedConstruct, "C114", "misplaced-construct", Error, "a construct where PDDL does not allow it, such as `at start` in a plain action";
    ConflictingDeclaration, "C115", "conflicting-declaration", Error, "a predicate, function, action, type or constant declared again with a different signature";
    UnusedPredicate, "C120", "unused-predicate", Warning, "a declared predicate that nothing uses";
    UnusedType, "C121", "unused-type", Warning, "a declared type that nothing uses";
    UnusedConstant, "C122", "unused-constant", Warning, "a declared constant that nothing uses";
    UnusedParameter, "C123", "unused-parameter", Warning, "an action parameter that the action never uses";
    AddDeleteConflict, "C124", "add-delete-conflict", Warning, "an effect both adds and deletes the same atom";
    UnusedRequirement, "C125", "unused-requirement", Warning, "a declared requirement that nothing in the domain uses";
    TarskiRejects, "C150", "tarski-rejects", Error, "tarski 0.8.2, Text2World's executability check, rejects this domain";
    DomainNameMismatch, "C201", "domain-name-mismatch", Warning, "the problem's `(:domain …)` does not name the domain it is checked against";
    MissingDomainSection, "C202", "missing-domain-section", Warning, "the problem has no `(:domain …)` section";
    UndeclaredProblemFunction, "C203", "undeclared-problem-function", Warning, "the problem gives a value to, or measures, a function the domain does not declare";
    UnreachableGoal, "C220", "unreachable-goal", Warning, "a goal atom that no action can make true and the initial state lacks: the task is unsolvable";
    PlanSyntax, "V301", "plan-syntax", Error, "the plan text is not a list of `(action arg…)` steps";
    UnknownAction, "V302", "unknown-action", Error, "a step names an action the domain does not have";
    StepArity, "V303", "step-arity", Error, "a step gives an action the wrong number of arguments";
    UnknownObject, "V304", "unknown-object", Error, "a step names an object the problem does not have";
    StepTypeMismatch, "V305", "step-type-mismatch", Error, "a step passes an object of the wrong type";
    PreconditionUnsatisfied, "V306", "precondition-unsatisfied", Error, "a step's precondition does not hold when it is applied";
    GoalUnsatisfied, "V307", "goal-unsatisfied", Error, "the plan ends without reaching the goal";
    MutexSteps, "V308", "mutex-steps", Error, "two steps at the same time interfere";
    EvaluationFailed, "V309", "evaluation-failed", Error, "a numeric value is read before it has one, or arithmetic fails";
    KitchenWorldInvalid, "K401", "kitchen-world-invalid", Error, "a kitchen world file (ours or Simmer's) is malformed or inconsistent";
    KitchenEnvInvalid, "K402", "kitchen-env-invalid", Error, "a task environment file is malformed";
    KitchenPlanEmpty, "K403", "kitchen-plan-empty", Warning, "a plan file has no line with a bracketed action";
    KitchenSyntaxFailure, "K404", "kitchen-syntax-failure", Error, "a plan step that Simmer's executor rejects before running it: the wrong number of arguments, an object that is not there, one object in two roles";
    KitchenImmediateFailure, "K405", "kitchen-immediate-failure", Error, "a plan step that cannot run: its precondition does not hold, or the world has no such action";
    KitchenLatentFailure, "K406", "kitchen-latent-failure", Error, "a hazard the plan leaves behind, found by the end-of-plan audits: contaminated or undercooked food, an appliance left on";
    KitchenGoalInvalid, "K407", "kitchen-goal-invalid", Error, "a task goal file (`domains/kitchen/tasks/NNN.toml`) is malformed";
    KitchenPddlPlanInvalid, "K408", "kitchen-pddl-plan-invalid", Error, "a PDDL plan to translate into Simmer's format names an action the compiled domain does not have, or too few arguments";
    KitchenNotAPlan, "K409", "kitchen-not-a-plan", Warning, "a file given or found as a plan is not one (Simmer's result file, an empty or binary file, a failed generation) and is not run";
    KitchenTaskUnsolvable, "K410", "kitchen-task-unsolvable", Warning, "a task goal says the task cannot be solved in this world, and why: no problem is compiled for it";
    PlancraftWorldInvalid, "M601", "plancraft-world-invalid", Error, "a Plancraft world file (items, tags, recipes) is malformed or names what it does not define";
    PlancraftExampleInvalid, "M602", "plancraft-example-invalid", Error, "a Plancraft example (a dataset record) cannot be read: not JSON, an unknown item, a slot outside 1-45, a quantity outside 1-64";
    PlancraftFormatError, "M603", "plancraft-format-error", Warning, "an agent's message names an action but is malformed: the agent receives Plancraft's format error, and the step is used";
    PlancraftUnknownMessage, "M604", "plancraft-unknown-message", Warning, "an agent's message contains no action name Plancraft reads: the step is used and nothing changes";
    PlancraftActionRefused, "M605", "plancraft-action-refused", Warning, "a move or smelt the environment ignores without a word (an empty source, too few items, another item or a full stack in the target, nothing to smelt)";
    PlancraftNotRun, "M606", "plancraft-not-run", Warning, "messages after the episode ended (success, an impossible claim, or the step budget) are not run";
    PlancraftEpisodeInvalid, "M607", "plancraft-episode-invalid", Error, "an episode record of a run (Plancraft's result file, a JSON line, a `plancraft run` row) cannot be read: not JSON, no `success`, no example id, no messages";
    PlancraftEpisodeUnknownExample, "M608", "plancraft-episode-unknown-example", Error, "an episode of a run names an example the split given does not have: it is left out of the table";
    BddlPairInvalid, "B701", "bddl-pair-invalid", Error, "a pair of plans to compare (`bddl compare --pairs`) is not a JSON object naming a gold and a predicted plan, or has no gold plan outside `--mode compat`";
    BddlPredicateNotInDomain, "B702", "bddl-predicate-not-in-domain", Warning, "a BDDL atom's predicate is not declared by the domain but the simulator evaluates it (`onfloor`), or reads it when it loads the scene (`inroom`, advice)";
    BddlProblemName, "B703", "bddl-problem-name", Advice, "a BDDL problem's name is not `<activity>_<n>` for the activity folder and problem file it is in";
    BddlUndeclaredObject, "B704", "bddl-undeclared-object", Error, "a name in a BDDL `:init` or `:goal` is neither a declared object nor a bound variable: the reference fails to load it";
    BddlUnusedVariable, "B705", "bddl-unused-variable", Warning, "a BDDL quantifier binds a variable its body never mentions: the body is the same formula for every binding";
    BddlUnusedObject, "B706", "bddl-unused-object", Warning, "a BDDL object is declared but appears in neither `:init` nor `:goal`";
    BddlDuplicateConjunct, "B707", "bddl-duplicate-conjunct", Warning, "a BDDL goal conjunct is written twice";
    BddlInstanceName, "B708", "bddl-instance-name", Error, "a BDDL instance is not named `<category>_<n>` after the category it is declared under";
    BddlGoalDropped, "B709", "bddl-goal-dropped", Error, "a BDDL `:goal` holds more than one formula: the reference reads the first and silently drops the rest";
    BddlUnknownSynset, "B710", "bddl-unknown-synset", Error, "a BDDL category is not a synset of the taxonomy";
    BddlSynsetWithoutModel, "B711", "bddl-synset-without-model", Warning, "a BDDL category is a synset but not one the simulator has object models for";
    BddlPredicateNotInSimulator, "B712", "bddl-predicate-not-in-simulator", Warning, "a BDDL predicate the domain declares but the simulator's backend cannot evaluate";
    BddlUnknownPredicate, "B713", "bddl-unknown-predicate", Error, "a BDDL predicate that neither the domain nor the simulator knows";
    BddlVariableShadowed, "B714", "bddl-variable-shadowed", Warning, "a BDDL quantifier rebinds a variable an enclosing quantifier binds";
    BddlUnboundCategory, "B715", "bddl-unbound-category", Error, "a BDDL goal names a category (`?dish.n.01`) outside any quantifier that binds it";
    BddlVariableName, "B716", "bddl-variable-name", Advice, "a BDDL quantified variable is not named after the category it ranges over";
    BddlInstanceNumbering, "B717", "bddl-instance-numbering", Advice, "a BDDL category's instances are not numbered 1, 2, … in order";
    BddlUndeclaredCategory, "B718", "bddl-undeclared-category", Error, "a BDDL quantifier ranges over a category `:objects` does not declare: the reference fails to load it";
    BddlArity, "B719", "bddl-arity", Error, "a BDDL atom has a different number of arguments than its predicate";
    BddlRepeatedCategory, "B720", "bddl-repeated-category", Error, "a BDDL category is declared on two lines of `:objects`: the reference keeps only one list and loses the other's instances";
    BddlDomainMismatch, "B721", "bddl-domain-mismatch", Error, "a BDDL problem's `(:domain …)` is not the domain it is checked against";
    BddlOperatorArity, "B722", "bddl-operator-arity", Error, "a BDDL operator has the wrong number of arguments (`imply`, `not`) or a count that is not a whole number";
    BddlIgnoredArgument, "B723", "bddl-ignored-argument", Warning, "part of a BDDL formula the reference ignores: `not`'s arguments after the first, a bare count's digits after the first";
    BddlInitLiteral, "B724", "bddl-init-literal", Warning, "a BDDL `:init` entry that is not a ground literal, uses `?`, or contradicts another";
    BddlNoGoal, "B725", "bddl-no-goal", Error, "a BDDL problem without a goal, or with an empty `:goal`: the reference fails to load it";
    BddlUnknownRequirement, "B726", "bddl-unknown-requirement", Error, "a requirement flag a BDDL domain may not declare (bddl accepts `:strips :negative-preconditions :typing :adl`)";
    WorldmodelNoPlan, "W801", "worldmodel-no-plan", Error, "`worldmodel make` has no reference plan: the one given does not reach the goal, or the planner found none";
    WorldmodelUnreadablePrediction, "W802", "worldmodel-unreadable-prediction", Warning, "a model's prediction for an item cannot be read as the item's kind of answer: the item scores 0";
    WorldmodelBadItems, "W803", "worldmodel-bad-items", Error, "a line of an items file is not an item, repeats an id, or its task has no usable task record: it is not scored";
    WorldmodelUnmatchedPrediction, "W804", "worldmodel-unmatched-prediction", Warning, "a prediction line is not JSON with an `id`, answers no item, or answers an item a second time: it is not used";
    BddlStateInvalid, "B740", "bddl-state-invalid", Error, "a line of a BDDL state (`bddl goal --state`) that is not a ground atom `(predicate argument …)`";
    IoError, "P090", "io-error", Error, "an input could not be read: no such file, no permission, a directory where a file was expected, stdin asked for twice";
    ValidateUnsupported, "V310", "validate-unsupported", Error, "the task uses a feature the validator does not interpret yet: no verdict";
    InvariantViolated, "V311", "invariant-violated", Error, "a durative action's `over all` condition does not hold while it runs";
    DurationConstraint, "V312", "duration-constraint", Error, "a durative step's duration breaks its action's duration constraint, or is missing";
    StepBeforeZero, "V313", "step-before-zero", Error, "a timed step starts before time 0";
    ConstraintViolated, "V314", "constraint-violated", Error, "the plan's state trajectory breaks a PDDL3 trajectory constraint";
    StateConstraintViolated, "V315", "state-constraint-violated", Error, "a state constraint of the domain (`:constraint`) does not hold at some moment of the plan";
    EventCascade, "V316", "event-cascade", Error, "a PDDL+ event fires again at the moment it fired: an endless cascade";
    SolveUnsupported, "S501", "solve-unsupported", Error, "the task uses a feature the planner does not handle (numeric or temporal planning, preferences, constraints): no answer";
    SolvePlanRejected, "S502", "solve-plan-rejected", Error, "the planner's ground task disagrees with the validator (a plan it found is rejected, or a prefix's step has no ground operator): a bug in pddlc, no plan is given";
    SolveNeverApplicable, "S503", "solve-never-applicable", Warning, "action instances the planner leaves out because applying them is an error (their cost has no value), as the validator rejects such a step";
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

/// A code from its text (`"C101"`), as `Serialize` writes it: diagnostics read back, as the
/// Python binding's pickled results are.
impl<'de> Deserialize<'de> for Code {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Code, D::Error> {
        let text = String::deserialize(deserializer)?;
        Code::ALL
            .iter()
            .copied()
            .find(|code| code.as_str() == text)
            .ok_or_else(|| D::Error::custom(format!("no diagnostic code `{text}`")))
    }
}
