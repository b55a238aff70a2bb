//! Checks of a problem against its domain: the domain's name, objects, initial state, goal,
//! constraints and metric, and goals that provably cannot be reached.

use super::Set;
use super::domain::{At, Checker, GdPlace, Scope};
use super::objects::Objects;
use super::requirements::{self, Requirements};
use super::suggest;
use crate::ast::*;
use crate::diagnostics::TaskFiles;
use crate::diagnostics::{Code, Diagnostic, FileId};
use crate::parse::FactSink;

/// A problem's checks, fed piece by piece: its objects, then its initial facts and its goal
/// (whole, or conjunct by conjunct as `parse::file_streaming` hands them over), then the rest of
/// the problem at [`ProblemCheck::finish`]. `check::ProblemChecker::problem` feeds it a whole tree; a caller that
/// streams a large problem keeps neither its facts nor its goal.
#[derive(Clone)]
pub(crate) struct ProblemCheck<'d> {
    domain: &'d Domain,
    files: TaskFiles,
    checker: Checker<'d>,
    objects: Objects,
    objects_seen: bool,
    /// The goal's scope, shared by conjuncts fed one at a time.
    scope: Scope,
    /// Whether initial facts were fed here, so that the tree `finish` gets lacks them.
    facts_taken: bool,
    /// Goal literals that only the initial state decides (see [`unreachable`]).
    undecided: Vec<(Atom, bool)>,
}

impl<'d> ProblemCheck<'d> {
    /// A check against `domain`, from a checker that walked its structures (for what its
    /// effects add and delete; their diagnostics belong to `check::domain`, not here).
    pub fn from_walked(
        domain: &'d Domain,
        files: TaskFiles,
        mut checker: Checker<'d>,
    ) -> ProblemCheck<'d> {
        checker.clear_diagnostics();
        checker.needs.clear();
        checker.track_usage = false;
        ProblemCheck {
            domain,
            files,
            checker,
            objects: Objects::default(),
            objects_seen: false,
            scope: Scope::default(),
            facts_taken: false,
            undecided: Vec::new(),
        }
    }

    /// A copy of this check, not fed anything yet, for a problem in `problem_file`.
    pub fn for_problem(&self, problem_file: FileId) -> ProblemCheck<'d> {
        let mut check = self.clone();
        check.files.problem = problem_file;
        check
    }

    /// The problem's objects from its tree; before any fact or goal.
    fn add_objects(&mut self, objects: &[Typed<Name>]) {
        self.objects_seen = true;
        self.objects
            .add_list(objects, &mut self.checker, self.files.problem);
    }

    fn check_fact(&mut self, fact: &Init) {
        let at = At {
            file: self.files.problem,
            objects: Some(&self.objects),
        };
        init(&mut self.checker, fact, at);
    }

    fn check_goal(&mut self, goal: &Gd) {
        let at = At {
            file: self.files.problem,
            objects: Some(&self.objects),
        };
        self.checker.gd(goal, GdPlace::Goal, &mut self.scope, at);
        self.undecided.extend(undecided(&self.checker, goal));
    }

    /// The rest of `problem`, which holds what was not fed here: the problem's diagnostics, or
    /// `None` when they depend on initial facts that were fed here and are gone (a goal literal
    /// of a predicate no action changes), so the caller checks the whole tree instead.
    pub fn finish(mut self, problem: &Problem) -> Option<Vec<Diagnostic>> {
        let files = self.files;
        let domain = self.domain;
        let pf = files.problem;
        if !self.objects_seen {
            self.add_objects(&problem.objects);
        }
        for fact in &problem.init {
            self.check_fact(fact);
        }
        if let Some(goal) = &problem.goal {
            self.check_goal(goal);
        }
        if self.facts_taken && !self.undecided.is_empty() {
            return None;
        }
        let checker = &mut self.checker;
        for diagnostic in header(domain, problem, files) {
            checker.diagnostics.push(diagnostic);
        }
        let at = At {
            file: pf,
            objects: Some(&self.objects),
        };
        if let Some(constraints) = &problem.constraints {
            checker.need(
                &[":constraints"],
                pf,
                constraints.span,
                "trajectory constraints",
            );
            checker.gd(constraints, GdPlace::Constraint, &mut Scope::default(), at);
        }
        if let Some(metric) = &problem.metric
            && !undeclared_value(checker, &metric.expr, at, "measures")
        {
            checker.expr(&metric.expr, &mut Scope::default(), at);
        }
        let flags = domain
            .requirements
            .iter()
            .chain(&problem.requirements)
            .map(|r| r.text.as_str());
        let declared = Requirements::new(flags);
        let declares_any = !domain.requirements.is_empty() || !problem.requirements.is_empty();
        checker.requirement_diagnostics(&declared, declares_any, true);
        unreachable(checker, &self.undecided, &problem.init, files);
        Some(std::mem::take(&mut self.checker.diagnostics).finish())
    }
}

/// What `parse::file_streaming` hands over is checked as it comes and dropped.
impl FactSink for ProblemCheck<'_> {
    fn object(&mut self, name: Name) {
        // `objects_end` marks the objects seen: it always follows the names, before any fact.
        self.objects.add(&name);
    }

    fn object_type(&mut self, ty: Type) {
        self.objects
            .end_run(Some(&ty), &mut self.checker, self.files.problem);
    }

    fn objects_end(&mut self) {
        self.objects_seen = true;
        self.objects
            .end_run(None, &mut self.checker, self.files.problem);
    }

    fn fact(&mut self, fact: Init) {
        self.facts_taken = true;
        self.check_fact(&fact);
    }

    fn goal(&mut self, goal: Gd) {
        self.check_goal(&goal);
    }

    fn discard(&mut self) {
        let walked = super::walked(self.domain, self.files.domain);
        *self = ProblemCheck::from_walked(self.domain, self.files, walked);
    }
}

/// What the problem's header says wrong: the domain it names, its requirement flags.
fn header(domain: &Domain, problem: &Problem, files: TaskFiles) -> Vec<Diagnostic> {
    let pf = files.problem;
    let mut diagnostics = Vec::new();
    match &problem.domain {
        Some(name) if !name.is(&domain.name.text) => diagnostics.push(
            Diagnostic::new(
                Code::DomainNameMismatch,
                format!(
                    "the problem is for domain `{}`, not `{}`",
                    name.text, domain.name.text
                ),
                name.span,
            )
            .in_file(pf)
            .with_label_in(files.domain, domain.name.span, "the domain is named here")
            .with_help(format!(
                "write `(:domain {})`, or check against the right domain",
                domain.name.text
            )),
        ),
        Some(_) => {}
        None => diagnostics.push(
            Diagnostic::new(
                Code::MissingDomainSection,
                "the problem does not say which domain it is for".to_string(),
                problem.name.span,
            )
            .in_file(pf)
            .with_help(format!("add `(:domain {})`", domain.name.text)),
        ),
    }
    for flag in &problem.requirements {
        if !requirements::is_known(&flag.text) {
            let help = suggest::help(&flag.text, requirements::KNOWN, || {
                "see the list of PDDL requirement flags".to_string()
            });
            diagnostics.push(
                Diagnostic::new(
                    Code::UnknownRequirement,
                    format!("unknown requirement `{}`", flag.text),
                    flag.span,
                )
                .in_file(pf)
                .with_help(help),
            );
        }
    }
    diagnostics
}

fn init(checker: &mut Checker, fact: &Init, at: At) {
    let mut scope = Scope::default();
    match &fact.kind {
        InitKind::Atom(atom) | InitKind::Not { atom } => checker.atom(atom, &mut scope, at),
        InitKind::Assign { target, value } => {
            if !undeclared_value(checker, target, at, "gives a value to") {
                checker.expr(target, &mut scope, at);
            }
            checker.expr(value, &mut scope, at);
        }
        InitKind::At { fact, .. } => {
            checker.need(
                &[":timed-initial-literals"],
                at.file,
                fact.span,
                "timed initial literals",
            );
            init(checker, fact, at);
        }
    }
}

/// Reports a function term the domain does not declare, in a problem's initial values or
/// metric: planners ignore those, so it is a warning. Returns whether it reported.
fn undeclared_value(checker: &mut Checker, target: &Expr, at: At, verb: &str) -> bool {
    let name = match &target.kind {
        ExprKind::Function(f) => &f.name,
        ExprKind::Term {
            term: Term::Name(n),
        } => n,
        _ => return false,
    };
    if checker.is_function(name) || checker.predicates.contains_key(&name.key()) {
        return false;
    }
    checker.diagnostics.push(
        Diagnostic::new(
            Code::UndeclaredProblemFunction,
            format!(
                "the problem {verb} function `{}`, which the domain does not declare",
                name.text
            ),
            name.span,
        )
        .in_file(at.file)
        .with_help("declare it in the domain's `(:functions …)`, or remove it; planners ignore it"),
    );
    true
}

/// A ground atom's identity: predicate and arguments, case-folded.
fn key(atom: &Atom) -> Option<(String, Vec<String>)> {
    let args = atom
        .args
        .iter()
        .map(|a| match a {
            Term::Name(n) => Some(n.key()),
            Term::Variable(_) => None,
        })
        .collect::<Option<Vec<_>>>()?;
    Some((atom.predicate.key(), args))
}

/// The literals of `goal`'s top-level conjunction that no action changes in their direction:
/// whether they can be reached depends on the initial state alone. On most tasks there are
/// none, and the initial state is not indexed at all.
fn undecided(checker: &Checker, goal: &Gd) -> Vec<(Atom, bool)> {
    let mut literals: Vec<(&Atom, bool)> = Vec::new();
    let mut stack = vec![goal];
    while let Some(g) = stack.pop() {
        match &g.kind {
            GdKind::And { args } => stack.extend(args.iter().rev()),
            GdKind::Atom(atom) => literals.push((atom, true)),
            GdKind::Not { arg } => {
                if let GdKind::Atom(atom) = &arg.kind {
                    literals.push((atom, false));
                }
            }
            _ => {}
        }
    }
    literals
        .into_iter()
        .filter(|(atom, positive)| {
            let predicate = atom.predicate.folded();
            let changes = if *positive {
                checker.added.contains(predicate.as_ref())
            } else {
                checker.deleted.contains(predicate.as_ref())
            };
            !changes && predicate != "=" && checker.predicates.contains_key(predicate.as_ref())
        })
        .map(|(atom, positive)| (atom.clone(), positive))
        .collect()
}

/// Goal literals that no action can make true: a positive atom of a predicate no effect adds
/// and the initial state lacks, or a negative one of a predicate no effect deletes and the
/// initial state has. `literals` are the goal's [`undecided`] ones.
fn unreachable(checker: &mut Checker, literals: &[(Atom, bool)], init: &[Init], files: TaskFiles) {
    if literals.is_empty() {
        return;
    }
    let needed: Set<String> = literals.iter().map(|(a, _)| a.predicate.key()).collect();
    let initial: Set<(String, Vec<String>)> = init
        .iter()
        .filter_map(|i| match &i.kind {
            InitKind::Atom(atom) if needed.contains(atom.predicate.folded().as_ref()) => key(atom),
            _ => None,
        })
        .collect();
    for (atom, positive) in literals {
        let positive = *positive;
        let predicate = atom.predicate.key();
        if predicate == "=" || !checker.predicates.contains_key(&predicate) {
            continue;
        }
        let Some(ground) = key(atom) else {
            continue;
        };
        let holds = initial.contains(&ground);
        let (changes, verb) = if positive {
            (checker.added.contains(&predicate), "adds")
        } else {
            (checker.deleted.contains(&predicate), "deletes")
        };
        // Reachable when some effect changes it, or when the initial state already satisfies it.
        if changes || holds == positive {
            continue;
        }
        let state = if positive {
            "the initial state lacks it"
        } else {
            "the initial state has it"
        };
        checker.diagnostics.push(
            Diagnostic::new(
                Code::UnreachableGoal,
                format!(
                    "goal {} can never be reached: no action {verb} `{}` and {state}, so the task is unsolvable",
                    if positive { "atom" } else { "literal" },
                    atom.predicate.text
                ),
                atom.span,
            )
            .in_file(files.problem)
            .with_help(if positive {
                "add the atom to `:init`, or give some action an effect that adds it"
            } else {
                "remove the atom from `:init`, or give some action an effect that deletes it"
            }),
        );
    }
}
