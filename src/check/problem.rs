//! Checks of a problem against its domain: the domain's name, objects, initial state, goal,
//! constraints and metric, and goals that provably cannot be reached.

use super::Files;
use super::Set;
use super::domain::{At, Checker, GdPlace, Objects, Scope, type_names};
use super::requirements::{self, Requirements};
use super::suggest;
use crate::ast::*;
use crate::diagnostics::{Code, Diagnostic};
use std::rc::Rc;

pub(super) fn check(domain: &Domain, problem: &Problem, files: Files) -> Vec<Diagnostic> {
    let pf = files.problem;
    let mut checker = Checker::new(domain, files.domain);
    // Walk the domain for what its effects add and delete; its own diagnostics belong to
    // `check::domain`, not here.
    checker.structures();
    checker.clear_diagnostics();
    checker.needs.clear();

    match &problem.domain {
        Some(name) if !name.is(&domain.name.text) => checker.diagnostics.push(
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
        None => checker.diagnostics.push(
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
            checker.diagnostics.push(
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

    let mut objects: Objects =
        Objects::with_capacity_and_hasher(problem.objects.len(), Default::default());
    // Objects come in runs of one type: the run shares one list of type names.
    let mut run: Option<(&Option<Type>, Rc<[String]>)> = None;
    for o in &problem.objects {
        if let Some(ty) = &o.ty {
            checker.check_type(ty, pf, true);
        }
        let key = o.item.folded();
        if let Some((types, first)) = objects.get_mut(&key) {
            // An object listed again keeps every type it is given: IPC 2000 miconic and IPC 2011
            // machine shop give one object several types on purpose.
            let new: Vec<String> = type_names(&o.ty)
                .into_iter()
                .filter(|t| !types.contains(t))
                .collect();
            let message = if new.is_empty() {
                format!("object `{}` is declared twice", o.item.text)
            } else {
                format!(
                    "object `{}` is declared again with another type; it has both",
                    o.item.text
                )
            };
            let first = *first;
            *types = types.iter().cloned().chain(new).collect();
            checker.diagnostics.push(
                Diagnostic::new(Code::DuplicateDefinition, message, o.item.span)
                    .with_severity(crate::diagnostics::Severity::Warning)
                    .in_file(pf)
                    .with_label(first, "first declared here")
                    .with_help("declare each object once; for an object of two types, give it a type below both"),
            );
            continue;
        }
        let types = match &run {
            Some((ty, types)) if **ty == o.ty => types.clone(),
            _ => {
                let types: Rc<[String]> = type_names(&o.ty).into();
                run = Some((&o.ty, types.clone()));
                types
            }
        };
        objects.insert(key, (types, o.item.span));
    }
    let at = At {
        file: pf,
        objects: Some(&objects),
    };

    for fact in &problem.init {
        init(&mut checker, fact, at);
    }
    if let Some(goal) = &problem.goal {
        checker.gd(goal, GdPlace::Goal, &mut Scope::default(), at);
    }
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
        && !undeclared_value(&mut checker, &metric.expr, at, "measures")
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

    if let Some(goal) = &problem.goal {
        unreachable(&mut checker, goal, problem, files);
    }
    checker.diagnostics
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

/// Goal literals in the goal's top-level conjunction that no action can make true: a positive
/// atom of a predicate no effect adds and the initial state lacks, or a negative one of a
/// predicate no effect deletes and the initial state has.
fn unreachable(checker: &mut Checker, goal: &Gd, problem: &Problem, files: Files) {
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
    // Only literals of a predicate that no effect changes in their direction need the initial
    // state; on most tasks there are none, and the initial state is not indexed at all.
    literals.retain(|(atom, positive)| {
        let predicate = atom.predicate.folded();
        let changes = if *positive {
            checker.added.contains(predicate.as_ref())
        } else {
            checker.deleted.contains(predicate.as_ref())
        };
        !changes && predicate != "=" && checker.predicates.contains_key(predicate.as_ref())
    });
    if literals.is_empty() {
        return;
    }
    let needed: Set<String> = literals.iter().map(|(a, _)| a.predicate.key()).collect();
    let initial: Set<(String, Vec<String>)> = problem
        .init
        .iter()
        .filter_map(|i| match &i.kind {
            InitKind::Atom(atom) if needed.contains(atom.predicate.folded().as_ref()) => key(atom),
            _ => None,
        })
        .collect();
    for (atom, positive) in literals {
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
