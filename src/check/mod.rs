//! Semantic checks of domains and problems.
//!
//! `check::domain` and `check::problem` take parsed ASTs and return diagnostics; they never
//! fail. Severities follow the PDDL definition and the IPC corpora's practice: every corpus file
//! checks without errors (see docs/diagnostics.md for each decision).

mod declarations;
mod domain;
mod effects;
mod expressions;
mod goals;
mod objects;
mod problem;
mod requirements;
pub(crate) mod suggest;
pub mod types;
mod usage;

use crate::ast::{Domain, PddlFile, Problem};

/// The checker's maps and sets: foldhash, several times faster than the standard SipHash on the
/// short names a task is made of, and seeded per map so hostile names cannot force collisions.
type Map<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
type Set<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;
use crate::diagnostics::{Diagnostic, FileId, TaskFiles};
use domain::Checker;

/// The candidate closest to `name`, when it is close enough to be a likely typo.
pub fn suggest_name<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    suggest::closest(name, candidates.iter().copied())
}

/// Every flag `flag` (such as `:adl`) implies, directly or through others, sorted; empty for a
/// flag that implies nothing or is unknown.
pub fn requirement_implies(flag: &str) -> Vec<String> {
    let lower = flag.to_ascii_lowercase();
    let closure = requirements::Requirements::new([lower.as_str()]);
    requirements::KNOWN
        .iter()
        .filter(|k| **k != lower && closure.allows(k))
        .map(|k| k.to_string())
        .collect()
}

/// Every requirement flag pddlc knows, with its colon (`:strips`, `:typing`, …).
pub fn known_requirements() -> &'static [&'static str] {
    requirements::KNOWN
}

/// Whether `flag` (such as `:adl`) is a requirement flag pddlc knows.
pub fn is_known_requirement(flag: &str) -> bool {
    requirements::is_known(flag)
}

/// Which rules a domain is checked by: PDDL's (this module), or exactly tarski 0.8.2's verdict
/// (`text2world::tarski::check`, Text2World's EXEC), which checks domains only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    Pddl,
    Tarski,
}

impl Profile {
    /// The PDDL in an LLM's answer, as this profile reads answers: PDDL's profile as a person
    /// reads it (`parse::extract_answer`, the answer's own positions kept), tarski's as the
    /// Text2World benchmark extracts it (`text2world::extract_response`), whose EXEC it is.
    pub fn extract_answer(self, answer: &str) -> String {
        match self {
            Profile::Pddl => crate::parse::extract_answer(answer),
            Profile::Tarski => crate::text2world::extract_response(answer),
        }
    }
}

crate::choice::choice!(Profile, "profile", {
    "pddl" => Profile::Pddl: "what PDDL requires: every check of `pddlc check`",
    "tarski" => Profile::Tarski: "exactly tarski 0.8.2's verdict (Text2World's EXEC), for domains",
});

/// Checks a domain on its own: names, arities, types, variables, requirements, duplicates, and
/// warnings for what is declared but unused.
pub fn domain(domain: &Domain, file: FileId) -> Vec<Diagnostic> {
    crate::parse::with_stack(|| domain_report(walked(domain, file)))
}

/// A checker of `domain` that walked its structures (actions, derived predicates, constraints).
fn walked(domain: &Domain, file: FileId) -> Checker<'_> {
    let mut checker = Checker::new(domain, file);
    checker.structures();
    checker
}

/// What a domain's walk found, with its requirements and unused declarations.
fn domain_report(mut checker: Checker) -> Vec<Diagnostic> {
    let declared = checker.requirements.clone();
    let declares_any = checker.declares_requirements;
    checker.requirement_diagnostics(&declared, declares_any, false);
    checker.unused();
    checker.diagnostics.finish()
}

/// Checks a problem against its domain. Returns only the problem's diagnostics; check the
/// domain itself with [`domain`]. To check several problems of one domain, make a
/// [`ProblemChecker`] once.
pub fn problem(domain: &Domain, problem: &Problem, files: TaskFiles) -> Vec<Diagnostic> {
    ProblemChecker::new(domain, files.domain).problem(problem, files.problem)
}

/// Parses a problem and checks it against `domain` in one pass over its text: when the fast
/// path reads the objects, the initial facts and the goal, each is checked as it is read; the
/// facts and the goal are dropped and the objects kept by the check alone, so a problem of
/// millions of facts is never held in memory and its objects are held once. Returns the parse,
/// whose tree holds everything but those objects, facts and goal, and the problem's diagnostics
/// (those of [`problem`], not the parse's), or `None` when the text is not a problem.
///
/// The diagnostics equal those of [`problem`] on the whole tree (`tests/check_corpus.rs`
/// compares both on every corpus problem).
pub fn problem_source(
    domain: &Domain,
    source: &str,
    files: TaskFiles,
) -> (
    crate::parse::Parsed<Option<PddlFile>>,
    Option<Vec<Diagnostic>>,
) {
    ProblemChecker::new(domain, files.domain).problem_source(source, files.problem)
}

/// A domain made ready, once, for checking problems against it: its symbol tables, and what
/// its actions' effects add and delete (a walk over every action). [`problem`] and
/// [`problem_source`] make one per call; a caller with many problems of one domain (a batch,
/// an editor) makes it once and checks each problem at the cost of the problem alone.
pub struct ProblemChecker<'d> {
    domain: &'d Domain,
    template: problem::ProblemCheck<'d>,
}

impl<'d> ProblemChecker<'d> {
    /// Prepares `domain`, whose labels point into `domain_file`.
    pub fn new(domain: &'d Domain, domain_file: FileId) -> ProblemChecker<'d> {
        let files = TaskFiles {
            domain: domain_file,
            problem: domain_file,
            ..TaskFiles::default()
        };
        let template = crate::parse::with_stack(|| {
            problem::ProblemCheck::from_walked(domain, files, walked(domain, domain_file))
        });
        ProblemChecker { domain, template }
    }

    /// [`ProblemChecker::new`] and [`domain`]'s diagnostics at the cost of one walk over the
    /// domain, for a caller that reports both.
    pub fn with_domain_diagnostics(
        domain: &'d Domain,
        domain_file: FileId,
    ) -> (ProblemChecker<'d>, Vec<Diagnostic>) {
        let files = TaskFiles {
            domain: domain_file,
            problem: domain_file,
            ..TaskFiles::default()
        };
        crate::parse::with_stack(|| {
            let checker = walked(domain, domain_file);
            let template = problem::ProblemCheck::from_walked(domain, files, checker.clone());
            (ProblemChecker { domain, template }, domain_report(checker))
        })
    }

    /// [`problem`]: the diagnostics of `problem`, in `problem_file`, against this domain.
    pub fn problem(&self, problem: &Problem, problem_file: FileId) -> Vec<Diagnostic> {
        let check = self.template.for_problem(problem_file);
        // Nothing was taken out of the tree, so the tree decides every goal literal.
        crate::parse::with_stack(|| check.finish(problem).unwrap_or_default())
    }

    /// [`problem_source`]: parses `source` and checks it against this domain as it is read.
    pub fn problem_source(
        &self,
        source: &str,
        problem_file: FileId,
    ) -> (
        crate::parse::Parsed<Option<PddlFile>>,
        Option<Vec<Diagnostic>>,
    ) {
        crate::parse::with_stack(|| {
            let mut check = self.template.for_problem(problem_file);
            let parsed = crate::parse::file_streaming(source, &mut check);
            let Some(PddlFile::Problem(tree)) = &parsed.value else {
                return (parsed, None);
            };
            if let Some(diagnostics) = check.finish(tree) {
                return (parsed, Some(diagnostics));
            }
            // A goal literal that only the initial state decides, and the facts went by: check
            // the whole tree.
            let parsed = crate::parse::file(source);
            let diagnostics = match &parsed.value {
                Some(PddlFile::Problem(tree)) => Some(self.problem(tree, problem_file)),
                _ => None,
            };
            (parsed, diagnostics)
        })
    }

    /// The domain this checker was made for.
    pub fn domain(&self) -> &'d Domain {
        self.domain
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostics::Code;

    fn codes(domain: &str) -> Vec<(Code, usize)> {
        let parsed = crate::parse::domain(domain);
        let domain = parsed.value.expect("the domain parses");
        super::domain(&domain, crate::diagnostics::FileId(0))
            .iter()
            .map(|d| (d.code, d.labels.len()))
            .collect()
    }

    #[test]
    fn one_undeclared_type_is_one_error_with_a_label_per_use() {
        let domain = "(define (domain d) (:requirements :typing) (:types t)
            (:predicates (p ?x - t) (q ?x ?y - foo))
            (:action a :parameters (?x ?y - foo) :precondition (q ?x ?y) :effect (p ?x)))";
        let found = codes(domain);
        let c107: Vec<_> = found
            .iter()
            .filter(|(c, _)| *c == Code::UndefinedType)
            .collect();
        assert_eq!(c107, [&(Code::UndefinedType, 2)], "{found:?}");
    }

    #[test]
    fn a_streamed_problem_keeps_its_objects_in_the_check_alone() {
        let domain = "(define (domain d) (:requirements :typing) (:types t)
            (:predicates (p ?x - t) (q ?x - t))
            (:action a :parameters (?x - t) :precondition (q ?x) :effect (and (p ?x) (not (q ?x)))))";
        let domain = crate::parse::domain(domain)
            .value
            .expect("the domain parses");
        let problem = "(define (problem q) (:domain d)
            (:objects a b - t c a - t)
            (:init (q a) (q b) (q c) (q zz))
            (:goal (and (p a) (p b))))";
        let files = crate::diagnostics::TaskFiles::default();
        let (parsed, streamed) = super::problem_source(&domain, problem, files);
        let Some(crate::ast::PddlFile::Problem(tree)) = parsed.value else {
            panic!("not a problem: {:?}", parsed.diagnostics);
        };
        // The check had the objects, facts and goal; the tree has none of them.
        assert!(tree.objects.is_empty() && tree.init.is_empty() && tree.goal.is_none());
        let streamed = streamed.expect("the problem was checked");
        let mut codes: Vec<Code> = streamed.iter().map(|d| d.code).collect();
        codes.sort_by_key(|c| c.as_str());
        // `a` again (C105), `zz` (C110).
        assert_eq!(
            codes,
            [Code::DuplicateDefinition, Code::UndeclaredConstant],
            "{streamed:?}"
        );
        let whole = crate::parse::problem(problem)
            .value
            .expect("the problem parses");
        assert_eq!(streamed, super::problem(&domain, &whole, files));
    }
}
