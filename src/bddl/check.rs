//! `check` for BDDL (docs/bddl.md): what the reference fails to load, what it silently accepts
//! but changes the activity's meaning, and the conventions BEHAVIOR's own lint enforces —
//! each a located diagnostic. Names resolve as the reference resolves them (semantics.md §3):
//! `?` stripped at both ends, a bound variable first, else a declared instance.

use super::activity::{Activity, UNTYPED_CATEGORY};
use super::vocabulary::{AGENT_SYNSET, Synsets, Vocabulary, declared_predicates};
use crate::ast::bddl::*;
use crate::ast::{Name, Span};
use crate::check::suggest;
use crate::diagnostics::{Code, Diagnostic, Severity};
use std::collections::{HashMap, HashSet};

/// The requirement flags bddl's domain reader accepts (`bddl/config.py`).
const REQUIREMENTS: &[&str] = &[":strips", ":negative-preconditions", ":typing", ":adl"];

/// What a problem is checked against.
#[derive(Clone, Copy, Debug)]
pub struct CheckContext<'c> {
    pub vocabulary: &'c Vocabulary,
    pub synsets: &'c Synsets,
    /// The activity and problem number the file stands for (from its path
    /// `<activity>/problem<n>.bddl`), when known: the problem's name should be `<activity>_<n>`.
    pub activity: Option<(&'c str, usize)>,
}

/// Checks a BDDL file: a domain on its own, a problem against `context`.
pub fn check(file: &BddlFile, context: &CheckContext) -> Vec<Diagnostic> {
    crate::parse::with_stack(|| match file {
        BddlFile::Domain(domain) => check_domain(domain),
        BddlFile::Problem(problem) => check_problem(problem, context),
    })
}

/// A domain's requirement flags and duplicate predicates.
pub fn check_domain(domain: &BddlDomain) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for section in &domain.sections {
        if let DomainSection::Requirements { flags, .. } = section {
            for flag in flags {
                if !REQUIREMENTS.iter().any(|r| flag.is(r)) {
                    let help = suggest::help(flag.as_str(), REQUIREMENTS, || {
                        format!("bddl accepts {}", REQUIREMENTS.join(" "))
                    });
                    diagnostics.push(
                        Diagnostic::new(
                            Code::BddlUnknownRequirement,
                            format!("bddl does not accept the requirement `{flag}`"),
                            flag.span,
                        )
                        .with_help(help),
                    );
                }
            }
        }
    }
    let mut seen: HashMap<String, Span> = HashMap::new();
    for (name, _, span) in declared_predicates(domain) {
        if let Some(first) = seen.insert(name.as_str().to_lowercase(), span) {
            diagnostics.push(
                Diagnostic::new(
                    Code::BddlArity,
                    format!("predicate `{name}` is declared twice"),
                    span,
                )
                .with_severity(Severity::Warning)
                .with_label(first, "first declared here"),
            );
        }
    }
    diagnostics
}

/// Checks a problem against `context`.
pub fn check_problem(problem: &BddlProblem, context: &CheckContext) -> Vec<Diagnostic> {
    let activity = Activity::new(problem);
    let mut checker = Checker {
        activity: &activity,
        context,
        diagnostics: Vec::new(),
        used: HashSet::new(),
        bound: Vec::new(),
    };
    checker.header(problem);
    checker.objects(problem);
    checker.init();
    checker.goal();
    checker.unused_objects(problem);
    let mut diagnostics = checker.diagnostics;
    crate::diagnostics::sort(&mut diagnostics);
    diagnostics
}

struct Checker<'a, 'c> {
    activity: &'a Activity<'a>,
    context: &'a CheckContext<'c>,
    diagnostics: Vec<Diagnostic>,
    /// Instances named anywhere in `:init` or `:goal`.
    used: HashSet<String>,
    /// The variables bound around the formula being walked: bare name, declaration, and
    /// whether the body mentioned it.
    bound: Vec<(String, Span, bool)>,
}

/// `apple.n.01_3` → (`apple.n.01`, 3).
fn instance_parts(instance: &str) -> Option<(&str, usize)> {
    let (category, number) = instance.rsplit_once('_')?;
    let number = number.parse().ok()?;
    Some((category, number))
}

/// Whether a name has the shape of a synset, `lemma.n.01`.
fn looks_like_synset(name: &str) -> bool {
    let mut parts = name.rsplitn(3, '.');
    let (Some(number), Some(pos), Some(lemma)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    !lemma.is_empty()
        && pos.len() == 1
        && !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
}

impl Checker<'_, '_> {
    fn push(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    fn header(&mut self, problem: &BddlProblem) {
        if let Some((activity, number)) = self.context.activity {
            // BEHAVIOR-100 writes `<activity>_<n>`, BEHAVIOR-1K `<activity>-<n>`.
            let expected = format!("{activity}_{number}");
            let dashed = format!("{activity}-{number}");
            if !problem.name.is(&expected) && !problem.name.is(&dashed) {
                self.push(
                    Diagnostic::new(
                        Code::BddlProblemName,
                        format!("problem name {}, expected {expected}", problem.name),
                        problem.name.span,
                    )
                    .with_help("BEHAVIOR names a problem after its activity folder and file"),
                );
            }
        }
        if let Some(domain) = self.activity.domain {
            let expected = &self.context.vocabulary.domain;
            if !domain.is(expected) {
                self.push(
                    Diagnostic::new(
                        Code::BddlDomainMismatch,
                        format!(
                            "the problem names domain `{domain}`, checked against `{expected}`"
                        ),
                        domain.span,
                    )
                    .with_help(
                        "the reference fails with \"Different domain specified in problem file\"",
                    ),
                );
            }
        }
        for section in &problem.sections {
            if let ProblemSection::Domain { name: None, span } = section {
                self.push(Diagnostic::new(
                    Code::BddlDomainMismatch,
                    "`(:domain)` names no domain".to_string(),
                    *span,
                ));
            }
        }
    }

    fn objects(&mut self, problem: &BddlProblem) {
        let mut declared_at: HashMap<String, Span> = HashMap::new();
        for section in &problem.sections {
            let ProblemSection::Objects { groups, .. } = section else {
                continue;
            };
            for group in groups {
                self.group(group, &mut declared_at);
            }
        }
    }

    fn group(&mut self, group: &TypedGroup, declared_at: &mut HashMap<String, Span>) {
        let Some(category) = &group.category else {
            self.push(
                Diagnostic::new(
                    Code::BddlInstanceName,
                    format!(
                        "{} without a category: the reference files them under `{UNTYPED_CATEGORY}`",
                        plural_names(&group.names)
                    ),
                    group.span,
                )
                .with_severity(Severity::Warning)
                .with_help("write `- <synset>` after them"),
            );
            return;
        };
        let key = category.as_str().to_lowercase();
        if let Some(first) = declared_at.insert(key.clone(), category.span) {
            let kept = self
                .activity
                .objects
                .iter()
                .find(|(c, _)| *c == key)
                .map(|(_, list)| list.join(" "))
                .unwrap_or_default();
            self.push(
                Diagnostic::new(
                    Code::BddlRepeatedCategory,
                    format!(
                        "category {category} is declared again: the reference keeps only one                          list ({kept}) and loses the other's instances"
                    ),
                    category.span,
                )
                .with_label(first, "first declared here")
                .with_help("declare all of a category's instances on one line"),
            );
            return;
        }
        self.synset(category, &group.names);
        let mut numbers = Vec::new();
        for name in &group.names {
            let instance = name.as_str().to_lowercase();
            match instance_parts(&instance) {
                Some((prefix, number)) if prefix == key => numbers.push(number),
                _ => self.push(
                    Diagnostic::new(
                        Code::BddlInstanceName,
                        format!("instance {name} does not have the form {key}_<n>"),
                        name.span,
                    )
                    .with_help(
                        "name each instance after its category: `<synset>_1`, `<synset>_2`, …",
                    ),
                ),
            }
        }
        let expected: Vec<usize> = (1..=numbers.len()).collect();
        if !numbers.is_empty() && numbers != expected {
            self.push(Diagnostic::new(
                Code::BddlInstanceNumbering,
                format!("{key} instances are numbered {numbers:?}"),
                group.span,
            ));
        }
    }

    fn synset(&mut self, category: &Name, instances: &[Name]) {
        let key = category.as_str().to_lowercase();
        if key == AGENT_SYNSET || self.context.synsets.is_empty() {
            return;
        }
        match self.context.synsets.lookup(&key) {
            Some(true) => {}
            Some(false) => self.push(Diagnostic::new(
                Code::BddlSynsetWithoutModel,
                format!("category {key} is a synset but the simulator has no object model for it"),
                category.span,
            )),
            None => {
                // The instances' own prefix, when it is a synset, says what was meant
                // (`peach.n.03_1 - apple.n.03`); else the closest spelling.
                let prefixes: Vec<String> = instances
                    .iter()
                    .filter_map(|i| {
                        instance_parts(&i.as_str().to_lowercase()).map(|(c, _)| c.to_string())
                    })
                    .collect();
                let from_instances = prefixes
                    .first()
                    .filter(|p| prefixes.iter().all(|q| q == *p))
                    .and_then(|p| self.context.synsets.names().find(|n| n == p));
                let closest =
                    from_instances.or_else(|| suggest::closest(&key, self.context.synsets.names()));
                let mut diagnostic = Diagnostic::new(
                    Code::BddlUnknownSynset,
                    format!("category {key} is not a synset of the taxonomy"),
                    category.span,
                );
                if let Some(closest) = closest {
                    diagnostic = diagnostic.with_help(format!("did you mean `{closest}`?"));
                }
                self.push(diagnostic);
            }
        }
    }

    fn init(&mut self) {
        let mut positive: HashMap<String, Span> = HashMap::new();
        let mut negative: HashMap<String, Span> = HashMap::new();
        for literal in self.activity.init.clone() {
            let (atom, negated) = match &literal.kind {
                FormulaKind::Atom { .. } => (literal, false),
                FormulaKind::Not(arguments)
                    if arguments.len() == 1
                        && matches!(arguments[0].kind, FormulaKind::Atom { .. }) =>
                {
                    (&arguments[0], true)
                }
                FormulaKind::Verbatim(_) => continue,
                _ => {
                    self.push(Diagnostic::new(
                        Code::BddlInitLiteral,
                        "`:init` holds a formula that is not a literal: the simulator cannot sample it"
                            .to_string(),
                        literal.span,
                    ));
                    continue;
                }
            };
            let FormulaKind::Atom { predicate, args } = &atom.kind else {
                continue;
            };
            let key = ground_key(predicate, args);
            let (same, other) = if negated {
                (&mut negative, &positive)
            } else {
                (&mut positive, &negative)
            };
            if let Some(previous) = other.get(&key) {
                let diagnostic = Diagnostic::new(
                    Code::BddlInitLiteral,
                    format!("{key} is both true and false in `:init`"),
                    literal.span,
                )
                .with_label(*previous, "the opposite literal");
                self.diagnostics.push(diagnostic);
            }
            same.insert(key, literal.span);
            self.atom(predicate, args, atom, Place::Init);
        }
    }

    fn goal(&mut self) {
        if !self.activity.has_goal {
            self.push(Diagnostic::new(
                Code::BddlNoGoal,
                "the problem has no `:goal`".to_string(),
                self.activity.problem.name.span,
            ));
        }
        for span in self.activity.empty_goals.clone() {
            self.push(Diagnostic::new(
                Code::BddlNoGoal,
                "`:goal` holds no formula: the reference fails with IndexError".to_string(),
                span,
            ));
        }
        let mut seen: HashMap<String, Span> = HashMap::new();
        for conjunct in self.activity.goal.clone() {
            let key = canonical(conjunct);
            match seen.get(&key) {
                Some(first) => {
                    let diagnostic = Diagnostic::new(
                        Code::BddlDuplicateConjunct,
                        "goal conjunct repeated".to_string(),
                        conjunct.span,
                    )
                    .with_label(*first, "first written here");
                    self.push(diagnostic);
                }
                None => {
                    seen.insert(key, conjunct.span);
                }
            }
            self.formula(conjunct);
        }
        let dropped = self.activity.dropped.clone();
        if let (Some(first), Some(last)) = (dropped.first(), dropped.last()) {
            let message = match dropped.len() {
                1 => ":goal holds more than one formula; the reference keeps only the first".into(),
                n => format!(
                    ":goal holds {} formulas; the reference keeps only the first",
                    n + 1
                ),
            };
            self.push(
                Diagnostic::new(Code::BddlGoalDropped, message, first.span.to(last.span))
                    .with_help("move them into the goal's `(and …)`"),
            );
        }
        for formula in dropped {
            self.formula(formula);
        }
    }

    fn formula(&mut self, formula: &Formula) {
        match &formula.kind {
            FormulaKind::Atom { predicate, args } => {
                self.atom(predicate, args, formula, Place::Goal)
            }
            FormulaKind::And(arguments) | FormulaKind::Or(arguments) => {
                arguments.iter().for_each(|a| self.formula(a))
            }
            FormulaKind::Not(arguments) => self.not(arguments, formula.span),
            FormulaKind::Imply(arguments) => {
                if arguments.len() != 2 {
                    self.push(Diagnostic::new(
                        Code::BddlOperatorArity,
                        format!(
                            "`imply` takes 2 formulas, found {}: the reference fails with ValueError",
                            arguments.len()
                        ),
                        formula.span,
                    ));
                }
                arguments.iter().for_each(|a| self.formula(a));
            }
            FormulaKind::Forall { variable, body } => self.quantified(&[variable], body, "forall"),
            FormulaKind::Exists { variable, body } => self.quantified(&[variable], body, "exists"),
            FormulaKind::Forn {
                count,
                variable,
                body,
            } => {
                self.count(count);
                self.quantified(&[variable], body, "forn");
            }
            FormulaKind::ForPairs {
                first,
                second,
                body,
            } => {
                self.pairs(first, second, None, formula.span);
                self.quantified(&[first, second], body, "forpairs");
            }
            FormulaKind::ForNPairs {
                count,
                first,
                second,
                body,
            } => {
                self.count(count);
                self.pairs(first, second, Some(count), formula.span);
                self.quantified(&[first, second], body, "fornpairs");
            }
            FormulaKind::Verbatim(_) => {}
        }
    }

    fn not(&mut self, arguments: &[Formula], span: Span) {
        match arguments {
            [] => self.push(Diagnostic::new(
                Code::BddlOperatorArity,
                "`not` without a formula: the reference fails with IndexError".to_string(),
                span,
            )),
            [_, extra @ ..] if !extra.is_empty() => {
                let extra_span = extra[0].span.to(extra[extra.len() - 1].span);
                self.push(
                    Diagnostic::new(
                        Code::BddlIgnoredArgument,
                        "`not` reads only its first formula: the reference ignores the rest"
                            .to_string(),
                        extra_span,
                    )
                    .with_help("negate each with its own `(not …)` inside an `and`"),
                );
            }
            _ => {}
        }
        arguments.iter().for_each(|a| self.formula(a));
    }

    /// What the reference cannot evaluate in a pair quantifier: no rows (an empty first
    /// category, `IndexError`), or more pairs asked for than rows or columns exist.
    fn pairs(
        &mut self,
        first: &Declaration,
        second: &Declaration,
        count: Option<&Count>,
        span: Span,
    ) {
        let members = |d: &Declaration| self.activity.members(&d.category.as_str().to_lowercase());
        let (Some(rows), Some(columns)) = (members(first), members(second)) else {
            return;
        };
        if rows.is_empty() {
            self.push(Diagnostic::new(
                Code::BddlOperatorArity,
                format!(
                    "{} has no instance: the reference fails with IndexError on a pair                      quantifier over it",
                    first.category
                ),
                first.span,
            ));
            return;
        }
        let Some(asked) = count.and_then(|c| c.text.as_str().parse::<usize>().ok()) else {
            return;
        };
        // Each row lists the second category's objects other than the row's own.
        let row_length = columns.iter().filter(|c| **c != rows[0]).count();
        let most = rows.len().min(row_length);
        if asked > most {
            self.push(Diagnostic::new(
                Code::BddlOperatorArity,
                format!(
                    "fornpairs asks for {asked} pairs, at most {most} exist: bddl 1.0.1 fails to                      load it, bddl 3.5.0 evaluates it false"
                ),
                span,
            ));
        }
    }

    fn count(&mut self, count: &Count) {
        let text = count.text.as_str();
        match (count.parenthesised, text.parse::<u64>()) {
            (_, Err(_)) => self.push(Diagnostic::new(
                Code::BddlOperatorArity,
                format!(
                    "count `{text}` is not a whole number: the reference fails with ValueError"
                ),
                count.span,
            )),
            (false, Ok(_)) if text.len() > 1 => self.push(
                Diagnostic::new(
                    Code::BddlIgnoredArgument,
                    format!(
                        "a bare count is read by its first character: `{text}` means {}",
                        &text[..1]
                    ),
                    count.span,
                )
                .with_help(format!("write `({text})`")),
            ),
            _ => {}
        }
    }

    fn quantified(&mut self, declarations: &[&Declaration], body: &Formula, operator: &str) {
        let depth = self.bound.len();
        for declaration in declarations {
            let variable = bare(&declaration.variable);
            let category = declaration.category.as_str().to_lowercase();
            let members = self.activity.members(&category);
            // Instances a quantifier ranges over are used by it.
            for member in members.iter().flatten() {
                self.used.insert(self.activity.scope[*member].clone());
            }
            if members.is_none() {
                let categories = self.activity.objects.iter().map(|(c, _)| c.as_str());
                let help = suggest::help(&category, &categories.collect::<Vec<_>>(), || {
                    "declare instances of it in `:objects`".into()
                });
                self.push(
                    Diagnostic::new(
                        Code::BddlUndeclaredCategory,
                        format!(
                            "{operator} ranges over {category}, which `:objects` does not declare"
                        ),
                        declaration.category.span,
                    )
                    .with_help(help),
                );
            }
            if variable != category {
                self.push(Diagnostic::new(
                    Code::BddlVariableName,
                    format!(
                        "variable {} ranges over {category} (BEHAVIOR-1K's lint requires equal names)",
                        declaration.variable
                    ),
                    declaration.variable.span,
                ));
            }
            // A shadowed binding is reported as such, not also as unused.
            let shadowed = self
                .bound
                .iter_mut()
                .rev()
                .find(|(name, _, _)| *name == variable);
            if let Some(outer) = shadowed {
                outer.2 = true;
                self.push(Diagnostic::new(
                    Code::BddlVariableShadowed,
                    format!(
                        "{} is already bound by an enclosing quantifier",
                        declaration.variable
                    ),
                    declaration.variable.span,
                ));
            }
            self.bound.push((variable, declaration.span, false));
        }
        self.formula(body);
        for (index, declaration) in declarations.iter().enumerate() {
            if !self.bound[depth + index].2 {
                self.push(Diagnostic::new(
                    Code::BddlUnusedVariable,
                    format!(
                        "{} is bound by {operator} but the body never mentions it (the body is \
                         the same formula for every binding)",
                        declaration.variable
                    ),
                    declaration.span,
                ));
            }
        }
        self.bound.truncate(depth);
    }

    fn atom(&mut self, predicate: &Name, args: &[Name], atom: &Formula, place: Place) {
        let key = predicate.as_str().to_lowercase();
        self.predicate(predicate, &key, place);
        let vocabulary = self.context.vocabulary;
        if let Some(arity) = vocabulary.arity(&key) {
            if arity != args.len() {
                self.push(Diagnostic::new(
                    Code::BddlArity,
                    format!(
                        "{key} takes {arity} argument{}, found {}",
                        if arity == 1 { "" } else { "s" },
                        args.len()
                    ),
                    atom.span,
                ));
            }
        } else if !(1..=2).contains(&args.len()) {
            self.push(Diagnostic::new(
                Code::BddlArity,
                format!("a BDDL atom has 1 or 2 arguments, found {}", args.len()),
                atom.span,
            ));
        }
        // The scene loader reads the room of `inroom`, which is no object.
        let checked = if vocabulary.scene.contains_key(&key) {
            &args[..args.len().min(1)]
        } else {
            args
        };
        for arg in checked {
            self.argument(arg, atom, place);
        }
    }

    fn predicate(&mut self, predicate: &Name, key: &str, place: Place) {
        let vocabulary = self.context.vocabulary;
        if !vocabulary.known {
            return;
        }
        let declared = vocabulary.declared.contains_key(key);
        let simulated = vocabulary.simulator.as_ref().map(|s| s.contains_key(key));
        let domain = &vocabulary.domain;
        let diagnostic = if vocabulary.scene.contains_key(key) && !declared {
            let message = format!(
                "{key} is not declared by domain {domain} (bddl drops {key} before compiling :init)"
            );
            let mut diagnostic =
                Diagnostic::new(Code::BddlPredicateNotInDomain, message, predicate.span)
                    .with_severity(Severity::Advice);
            if place == Place::Goal {
                diagnostic = Diagnostic::new(
                    Code::BddlUnknownPredicate,
                    format!("{key} is read from :init by the scene loader and cannot be a goal"),
                    predicate.span,
                );
            }
            diagnostic
        } else {
            match (declared, simulated) {
                (true, Some(false)) => Diagnostic::new(
                    Code::BddlPredicateNotInSimulator,
                    format!(
                        "{key} is declared by the domain but the simulator's BDDL backend has no {key}"
                    ),
                    predicate.span,
                ),
                (true, _) => return,
                (false, Some(true)) => Diagnostic::new(
                    Code::BddlPredicateNotInDomain,
                    format!(
                        "{key} is not declared by domain {domain} (the simulator's backend accepts it)"
                    ),
                    predicate.span,
                ),
                (false, _) => {
                    let names = vocabulary.names();
                    let help = suggest::help(key, &names, || {
                        format!("domain {domain} and its simulator know {}", names.join(" "))
                    });
                    Diagnostic::new(
                        Code::BddlUnknownPredicate,
                        format!(
                            "{key} is declared neither by the domain nor by the simulator backend"
                        ),
                        predicate.span,
                    )
                    .with_help(help)
                }
            }
        };
        self.push(diagnostic);
    }

    fn argument(&mut self, arg: &Name, atom: &Formula, place: Place) {
        let name = bare(arg);
        if let Some(binding) = self.bound.iter_mut().rev().find(|(v, _, _)| *v == name) {
            binding.2 = true;
            return;
        }
        if self.activity.instance(&name).is_some() {
            self.used.insert(name);
            return;
        }
        let category_like = self.activity.members(&name).is_some() || looks_like_synset(&name);
        let diagnostic = match place {
            Place::Goal if category_like => Diagnostic::new(
                Code::BddlUnboundCategory,
                format!("{arg} names a category outside any quantifier that binds it"),
                arg.span,
            )
            .with_help(format!("bind it, e.g. `(forall (?{name} - {name}) …)`")),
            Place::Goal => Diagnostic::new(
                Code::BddlUndeclaredObject,
                format!("{arg} is neither a declared object nor a bound variable"),
                arg.span,
            ),
            Place::Init => Diagnostic::new(
                Code::BddlUndeclaredObject,
                format!("{}: {name} is not in :objects", canonical(atom)),
                arg.span,
            ),
        };
        // Suggest only instances of the same category: `basket.n.01_2` for `basket.n.01_1`.
        let category = instance_parts(&name).map_or(name.as_str(), |(c, _)| c);
        let candidates: Vec<&str> = self
            .activity
            .scope
            .iter()
            .map(String::as_str)
            .filter(|i| instance_parts(i).is_some_and(|(c, _)| c == category))
            .collect();
        let diagnostic = match suggest::closest(&name, candidates) {
            Some(closest) if diagnostic.help.is_none() => {
                diagnostic.with_help(format!("did you mean `{closest}`?"))
            }
            _ => diagnostic,
        };
        self.push(diagnostic);
    }

    fn unused_objects(&mut self, problem: &BddlProblem) {
        for section in &problem.sections {
            let ProblemSection::Objects { groups, .. } = section else {
                continue;
            };
            for name in groups.iter().flat_map(|g| &g.names) {
                let key = name.as_str().to_lowercase();
                // An instance lost to a repeated category is reported with it (B720).
                if !self.used.contains(&key) && self.activity.instance(&key).is_some() {
                    self.diagnostics.push(Diagnostic::new(
                        Code::BddlUnusedObject,
                        format!("{name} is declared but appears in neither :init nor :goal"),
                        name.span,
                    ));
                }
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Init,
    Goal,
}

fn plural_names(names: &[Name]) -> String {
    match names {
        [one] => format!("{one} is declared"),
        _ => format!("{} names are declared", names.len()),
    }
}

fn ground_key(predicate: &Name, args: &[Name]) -> String {
    let mut key = format!("({}", predicate.as_str().to_lowercase());
    for arg in args {
        key.push(' ');
        key.push_str(&bare(arg));
    }
    key.push(')');
    key
}

/// A formula's text with spelling, `?` and spacing normalised: equal texts, equal formulas.
fn canonical(formula: &Formula) -> String {
    let list = |op: &str, arguments: &[Formula]| {
        let mut text = format!("({op}");
        for argument in arguments {
            text.push(' ');
            text.push_str(&canonical(argument));
        }
        text.push(')');
        text
    };
    let declaration = |d: &Declaration| format!("(?{} - {})", bare(&d.variable), bare(&d.category));
    match &formula.kind {
        FormulaKind::Atom { predicate, args } => ground_key(predicate, args),
        FormulaKind::And(a) => list("and", a),
        FormulaKind::Or(a) => list("or", a),
        FormulaKind::Not(a) => list("not", a),
        FormulaKind::Imply(a) => list("imply", a),
        FormulaKind::Forall { variable, body } => {
            format!("(forall {} {})", declaration(variable), canonical(body))
        }
        FormulaKind::Exists { variable, body } => {
            format!("(exists {} {})", declaration(variable), canonical(body))
        }
        FormulaKind::Forn {
            count,
            variable,
            body,
        } => format!(
            "(forn ({}) {} {})",
            count.text,
            declaration(variable),
            canonical(body)
        ),
        FormulaKind::ForPairs {
            first,
            second,
            body,
        } => format!(
            "(forpairs {} {} {})",
            declaration(first),
            declaration(second),
            canonical(body)
        ),
        FormulaKind::ForNPairs {
            count,
            first,
            second,
            body,
        } => format!(
            "(fornpairs ({}) {} {} {})",
            count.text,
            declaration(first),
            declaration(second),
            canonical(body)
        ),
        FormulaKind::Verbatim(verbatim) => verbatim.text.to_lowercase(),
    }
}
