//! A BDDL goal evaluated the way the reference implementation evaluates it (semantics.md §2–§5):
//! compiled once (every name resolved, as bddl compiles), then evaluated over any number of
//! states. A state is a set of ground atoms, everything else false (bddl's backends answer
//! atom by atom and derive nothing).
//!
//! The reference's quantifiers are weaker than their names: `forn` counts *exactly* N true
//! bindings, and `forpairs`/`fornpairs` only ask that enough rows and enough column
//! *positions* of the truth matrix be hit, not for a one-to-one pairing. [`GoalSemantics`]
//! selects the intended readings instead: a matching, at least N.

use super::activity::Activity;
use super::vocabulary::Vocabulary;
use crate::ast::bddl::{BddlProblem, Count, Declaration, Formula, FormulaKind, bare};
use crate::ast::{Name, Span};
use crate::diagnostics::{Code, Diagnostic, Severity};
use std::collections::{HashMap, HashSet};

/// How `forpairs` and `fornpairs` read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pairs {
    /// bddl's: at least L rows and L column positions of the truth matrix hit.
    #[default]
    Reference,
    /// One-to-one: a matching of true pairs (distinct objects on each side).
    Matching,
}

crate::choice::choice!(Pairs, "pairs", {
    "reference" => Pairs::Reference: "bddl's reading: enough rows and column positions hit",
    "matching" => Pairs::Matching: "one-to-one: a matching of true pairs",
});

/// How `forn` counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Forn {
    /// bddl's: exactly N bindings true.
    #[default]
    Exactly,
    /// At least N bindings true.
    AtLeast,
}

crate::choice::choice!(Forn, "forn", {
    "exactly" => Forn::Exactly: "bddl's reading: exactly N bindings true",
    "at-least" => Forn::AtLeast: "at least N bindings true",
});

/// Which readings of the counting quantifiers to evaluate with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoalSemantics {
    pub pairs: Pairs,
    pub forn: Forn,
}

/// The verdict on one state: the goal, and each top-level conjunct (`Activity::goal`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GoalVerdict {
    pub satisfied: bool,
    pub conjuncts: Vec<bool>,
}

/// A set of ground atoms, lower-cased: what is true in a state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct State {
    atoms: HashSet<Vec<String>>,
}

impl State {
    /// The state where exactly `atoms` are true; each is `(predicate argument …)`.
    pub fn from_atoms<'a>(atoms: impl IntoIterator<Item = &'a str>) -> Result<State, String> {
        let mut state = State::default();
        for atom in atoms {
            state
                .atoms
                .insert(atom_words(atom).ok_or_else(|| not_an_atom(atom))?);
        }
        Ok(state)
    }

    /// Reads a state file: one `(predicate argument …)` a line; blank lines and `;` comments
    /// are skipped, `(not …)` lines are implied by the closed world (a warning), anything else
    /// is a located error. The state holds every atom that could be read.
    pub fn read(text: &str) -> (State, Vec<Diagnostic>) {
        let mut state = State::default();
        let mut diagnostics = Vec::new();
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            let start = offset;
            offset += line.len();
            let content = line.split(';').next().unwrap_or_default().trim();
            if content.is_empty() {
                continue;
            }
            let lead = line.len() - line.trim_start().len();
            let span = Span::new(start + lead, start + lead + content.len());
            if let Some(words) = atom_words(content) {
                if words.first().is_some_and(|w| w == "not") {
                    diagnostics.push(
                        Diagnostic::new(
                            Code::BddlStateInvalid,
                            "a negative literal: every atom not listed is false already",
                            span,
                        )
                        .with_severity(Severity::Warning),
                    );
                    continue;
                }
                state.atoms.insert(words);
            } else {
                diagnostics.push(
                    Diagnostic::new(Code::BddlStateInvalid, not_an_atom(content), span).with_help(
                        "write one ground atom a line, such as `(inside apple.n.01_1 bowl.n.01_1)`",
                    ),
                );
            }
        }
        (state, diagnostics)
    }

    pub fn len(&self) -> usize {
        self.atoms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.atoms.is_empty()
    }
}

fn not_an_atom(text: &str) -> String {
    format!("`{text}` is not a ground atom `(predicate argument …)`")
}

/// `(p a b)` → `["p", "a", "b"]`; `(not (p a))` → `["not", …]`; `None` for anything else.
fn atom_words(text: &str) -> Option<Vec<String>> {
    let inner = text.trim().strip_prefix('(')?.strip_suffix(')')?;
    if let Some(rest) = inner.trim_start().strip_prefix("not") {
        let words = atom_words(rest.trim())?;
        return Some(std::iter::once("not".to_string()).chain(words).collect());
    }
    if inner.contains(['(', ')']) {
        return None;
    }
    let words: Vec<String> = inner.split_whitespace().map(str::to_lowercase).collect();
    (!words.is_empty()).then_some(words)
}

/// An argument of a compiled atom: an object of the scope, or a quantified variable's slot.
#[derive(Clone, Copy, Debug)]
enum Arg {
    Object(u32),
    Slot(u32),
}

#[derive(Clone, Debug)]
enum Node {
    Atom {
        predicate: u32,
        args: Vec<Arg>,
    },
    And(Vec<Node>),
    Or(Vec<Node>),
    Not(Box<Node>),
    Imply(Box<Node>, Box<Node>),
    Forall(Quantified),
    Exists(Quantified),
    Forn(i64, Quantified),
    ForPairs(PairsOver),
    ForNPairs(i64, PairsOver),
    /// What bddl 3.5.0 evaluates false and 1.0.1 refuses (fornpairs asking too much).
    False,
}

#[derive(Clone, Debug)]
struct Quantified {
    slot: u32,
    members: Vec<u32>,
    body: Box<Node>,
}

#[derive(Clone, Debug)]
struct PairsOver {
    rows: Vec<u32>,
    row_slot: u32,
    columns: Vec<u32>,
    column_slot: u32,
    body: Box<Node>,
}

/// A goal compiled against its problem's objects: evaluate it over any number of states.
#[derive(Clone, Debug)]
pub struct CompiledGoal {
    conjuncts: Vec<Node>,
    /// Where each top-level conjunct is written.
    spans: Vec<Span>,
    objects: HashMap<String, u32>,
    predicates: HashMap<String, u32>,
    slots: usize,
    semantics: GoalSemantics,
}

/// Compiles the goal of `activity` as the reference compiles it: `None`, with error
/// diagnostics, where the reference fails to load the goal; warnings where it loads a goal
/// that means less than it says (dropped formulas, ignored arguments).
pub fn compile_goal(
    activity: &Activity,
    semantics: GoalSemantics,
    backend: Option<&HashMap<String, usize>>,
) -> (Option<CompiledGoal>, Vec<Diagnostic>) {
    crate::parse::with_stack(|| {
        let mut compiler = Compiler {
            activity,
            backend,
            diagnostics: Vec::new(),
            bound: Vec::new(),
            slots: 0,
            predicates: HashMap::new(),
        };
        let conjuncts: Vec<Option<Node>> = activity.goal.iter().map(|c| compiler.node(c)).collect();
        compiler.goal_shape();
        let mut diagnostics = compiler.diagnostics;
        crate::diagnostics::sort(&mut diagnostics);
        if diagnostics.iter().any(Diagnostic::is_error) {
            return (None, diagnostics);
        }
        let objects = activity
            .scope
            .iter()
            .enumerate()
            .map(|(i, name)| (name.clone(), i as u32))
            .collect();
        let goal = CompiledGoal {
            conjuncts: conjuncts.into_iter().flatten().collect(),
            spans: activity.goal.iter().map(|c| c.span).collect(),
            objects,
            predicates: compiler.predicates,
            slots: compiler.slots,
            semantics,
        };
        (Some(goal), diagnostics)
    })
}

/// The goal of `problem` compiled as the reference compiles it for its simulator: iGibson's
/// backend for an `igibson` problem (or one without `:domain`), any predicate of one or two
/// places otherwise (BEHAVIOR-1K's backend covers its whole domain).
pub fn compile_problem_goal(
    problem: &BddlProblem,
    semantics: GoalSemantics,
) -> (Option<CompiledGoal>, Vec<Diagnostic>) {
    let activity = Activity::new(problem);
    let igibson = activity.domain.is_none_or(|d| d.is("igibson"));
    let vocabulary = igibson.then(Vocabulary::igibson);
    let backend = vocabulary.as_ref().and_then(|v| v.simulator.as_ref());
    compile_goal(&activity, semantics, backend)
}

struct Compiler<'a, 'p> {
    activity: &'a Activity<'p>,
    /// The simulator backend's predicates and arities, when known: the reference fails on
    /// any other predicate (`UnsupportedPredicateError`) or arity (`AssertionError`).
    backend: Option<&'a HashMap<String, usize>>,
    diagnostics: Vec<Diagnostic>,
    /// Bound variables, innermost last: bare name and slot.
    bound: Vec<(String, u32)>,
    slots: usize,
    predicates: HashMap<String, u32>,
}

impl Compiler<'_, '_> {
    fn error(&mut self, code: Code, message: String, span: Span) -> Option<Node> {
        self.diagnostics.push(Diagnostic::new(code, message, span));
        None
    }

    fn warn(&mut self, code: Code, message: String, span: Span) {
        self.diagnostics
            .push(Diagnostic::new(code, message, span).with_severity(Severity::Warning));
    }

    /// What the reference rejects or drops about the goal as a whole.
    fn goal_shape(&mut self) {
        let activity = self.activity;
        if !activity.has_goal {
            let span = activity.problem.name.span;
            self.error(Code::BddlNoGoal, "the problem has no `:goal`".into(), span);
        } else if let Some(span) = activity.empty_goals.first().copied() {
            let message = "`:goal` holds no formula: the reference fails with IndexError";
            self.error(Code::BddlNoGoal, message.into(), span);
        }
        if let (Some(first), Some(last)) = (activity.dropped.first(), activity.dropped.last()) {
            let message = "the reference evaluates only the first formula of `:goal`: the rest \
                           is dropped from the verdict";
            self.warn(
                Code::BddlGoalDropped,
                message.into(),
                first.span.to(last.span),
            );
        }
    }

    fn node(&mut self, formula: &Formula) -> Option<Node> {
        let span = formula.span;
        match &formula.kind {
            FormulaKind::Atom { predicate, args } => self.atom(predicate, args, span),
            FormulaKind::And(children) => Some(Node::And(self.nodes(children)?)),
            FormulaKind::Or(children) => Some(Node::Or(self.nodes(children)?)),
            FormulaKind::Not(children) => self.not(children, span),
            FormulaKind::Imply(children) => match children.as_slice() {
                [antecedent, consequent] => {
                    let (a, c) = (self.node(antecedent), self.node(consequent));
                    Some(Node::Imply(Box::new(a?), Box::new(c?)))
                }
                _ => self.error(
                    Code::BddlOperatorArity,
                    format!("`imply` takes 2 formulas, found {}", children.len()),
                    span,
                ),
            },
            FormulaKind::Forall { variable, body } => {
                Some(Node::Forall(self.quantified(variable, body)?))
            }
            FormulaKind::Exists { variable, body } => {
                Some(Node::Exists(self.quantified(variable, body)?))
            }
            FormulaKind::Forn {
                count,
                variable,
                body,
            } => {
                let n = self.count(count);
                let quantified = self.quantified(variable, body);
                Some(Node::Forn(n?, quantified?))
            }
            FormulaKind::ForPairs {
                first,
                second,
                body,
            } => Some(Node::ForPairs(self.pairs(first, second, body)?)),
            FormulaKind::ForNPairs {
                count,
                first,
                second,
                body,
            } => self.fornpairs(count, first, second, body, span),
            FormulaKind::Verbatim(verbatim) => self.error(
                Code::BddlOperatorArity,
                format!("`{}` is not a formula", verbatim.text),
                span,
            ),
        }
    }

    /// Every child compiled (each reports its own errors), or `None` if any failed.
    fn nodes(&mut self, children: &[Formula]) -> Option<Vec<Node>> {
        let compiled: Vec<Option<Node>> = children.iter().map(|c| self.node(c)).collect();
        compiled.into_iter().collect()
    }

    fn not(&mut self, children: &[Formula], span: Span) -> Option<Node> {
        let Some(first) = children.first() else {
            let message = "`not` without a formula: the reference fails with IndexError";
            return self.error(Code::BddlOperatorArity, message.into(), span);
        };
        if let (Some(second), Some(last)) = (children.get(1), children.last()) {
            let message = "`not` reads only its first formula: the rest is ignored";
            self.warn(
                Code::BddlIgnoredArgument,
                message.into(),
                second.span.to(last.span),
            );
        }
        Some(Node::Not(Box::new(self.node(first)?)))
    }

    fn atom(&mut self, predicate: &Name, args: &[Name], span: Span) -> Option<Node> {
        if !(1..=2).contains(&args.len()) {
            let message = format!("a BDDL atom has 1 or 2 arguments, found {}", args.len());
            return self.error(Code::BddlArity, message, span);
        }
        let key = predicate.as_str().to_lowercase();
        match self.backend.map(|b| b.get(&key)) {
            Some(None) => {
                let message = format!(
                    "the simulator's backend has no predicate {key}: the reference fails with \
                     UnsupportedPredicateError"
                );
                return self.error(Code::BddlUnknownPredicate, message, predicate.span);
            }
            Some(Some(arity)) if *arity != args.len() => {
                let message = format!("{key} takes {arity} arguments, found {}", args.len());
                return self.error(Code::BddlArity, message, span);
            }
            _ => {}
        }
        let resolved: Vec<Option<Arg>> = args.iter().map(|a| self.argument(a)).collect();
        let args = resolved.into_iter().collect::<Option<Vec<Arg>>>()?;
        let next = self.predicates.len() as u32;
        let predicate = *self.predicates.entry(key).or_insert(next);
        Some(Node::Atom { predicate, args })
    }

    /// A name as the reference resolves it (§3): `?` stripped, a bound variable first (the
    /// innermost), else a declared instance.
    fn argument(&mut self, arg: &Name) -> Option<Arg> {
        let name = bare(arg);
        if let Some((_, slot)) = self.bound.iter().rev().find(|(v, _)| *v == name) {
            return Some(Arg::Slot(*slot));
        }
        if let Some(index) = self.activity.instance(&name) {
            return Some(Arg::Object(index as u32));
        }
        let (code, message) = if self.activity.members(&name).is_some() {
            (
                Code::BddlUnboundCategory,
                format!("{arg} names a category outside any quantifier that binds it"),
            )
        } else {
            (
                Code::BddlUndeclaredObject,
                format!("{arg} is neither a declared object nor a bound variable"),
            )
        };
        self.error(code, message, arg.span);
        None
    }

    fn members(&mut self, declaration: &Declaration) -> Option<Vec<u32>> {
        let category = declaration.category.as_str().to_lowercase();
        match self.activity.members(&category) {
            Some(members) => Some(members.into_iter().map(|m| m as u32).collect()),
            None => {
                self.error(
                    Code::BddlUndeclaredCategory,
                    format!("{category} is not a category of `:objects`: the reference fails with KeyError"),
                    declaration.category.span,
                );
                None
            }
        }
    }

    fn bind(&mut self, declaration: &Declaration) -> u32 {
        let slot = self.slots as u32;
        self.slots += 1;
        self.bound.push((bare(&declaration.variable), slot));
        slot
    }

    fn quantified(&mut self, declaration: &Declaration, body: &Formula) -> Option<Quantified> {
        let members = self.members(declaration);
        let slot = self.bind(declaration);
        let body = self.node(body);
        self.bound.pop();
        Some(Quantified {
            slot,
            members: members?,
            body: Box::new(body?),
        })
    }

    fn pairs(
        &mut self,
        first: &Declaration,
        second: &Declaration,
        body: &Formula,
    ) -> Option<PairsOver> {
        let (rows, columns) = (self.members(first), self.members(second));
        if rows.as_ref().is_some_and(Vec::is_empty) {
            let message = format!(
                "{} has no instance: the reference fails with IndexError on a pair quantifier \
                 over it",
                first.category
            );
            self.error(Code::BddlOperatorArity, message, first.span);
        }
        let row_slot = self.bind(first);
        let column_slot = self.bind(second);
        let body = self.node(body);
        self.bound.truncate(self.bound.len() - 2);
        let rows = rows.filter(|r| !r.is_empty())?;
        Some(PairsOver {
            rows,
            row_slot,
            columns: columns?,
            column_slot,
            body: Box::new(body?),
        })
    }

    fn fornpairs(
        &mut self,
        count: &Count,
        first: &Declaration,
        second: &Declaration,
        body: &Formula,
        span: Span,
    ) -> Option<Node> {
        let n = self.count(count);
        let over = self.pairs(first, second, body)?;
        let n = n?;
        let row_length = over.columns.iter().filter(|c| **c != over.rows[0]).count();
        let most = over.rows.len().min(row_length) as i64;
        if n > most {
            let message = format!(
                "fornpairs asks for {n} pairs, at most {most} exist: bddl 1.0.1 fails to load \
                 it, bddl 3.5.0 evaluates it false (as here)"
            );
            self.warn(Code::BddlOperatorArity, message, span);
            return Some(Node::False);
        }
        Some(Node::ForNPairs(n, over))
    }

    /// `forn`'s count: `int(N)` for `(N)`, the first character's digit for a bare `N`.
    fn count(&mut self, count: &Count) -> Option<i64> {
        let text = count.text.as_str().trim();
        let read = if count.parenthesised {
            text.strip_prefix('+')
                .unwrap_or(text)
                .replace('_', "")
                .parse::<i64>()
                .ok()
        } else {
            text.chars()
                .next()
                .and_then(|c| c.to_digit(10))
                .map(i64::from)
        };
        if read.is_none() {
            let message = format!(
                "count `{text}` is not a whole number: the reference fails with ValueError"
            );
            self.error(Code::BddlOperatorArity, message, count.span);
        }
        read
    }
}

impl CompiledGoal {
    /// The goal's verdict on `state`.
    pub fn evaluate(&self, state: &State) -> GoalVerdict {
        // The state in the goal's own numbers; atoms naming anything else are never asked.
        let mut true_atoms: HashSet<(u32, u32, u32)> = HashSet::with_capacity(state.len());
        for words in &state.atoms {
            let Some(predicate) = words.first().and_then(|p| self.predicates.get(p)) else {
                continue;
            };
            let objects: Option<Vec<u32>> = words[1..]
                .iter()
                .map(|w| self.objects.get(w).copied())
                .collect();
            match objects.as_deref() {
                Some([a]) => true_atoms.insert((*predicate, *a, u32::MAX)),
                Some([a, b]) => true_atoms.insert((*predicate, *a, *b)),
                _ => false,
            };
        }
        let mut evaluation = Evaluation {
            atoms: &true_atoms,
            binding: vec![0; self.slots],
            semantics: self.semantics,
        };
        let conjuncts: Vec<bool> = crate::parse::with_stack(|| {
            self.conjuncts.iter().map(|c| evaluation.truth(c)).collect()
        });
        GoalVerdict {
            satisfied: conjuncts.iter().all(|c| *c),
            conjuncts,
        }
    }

    /// Where each top-level conjunct is written, in the order of the verdict's `conjuncts`.
    pub fn conjunct_spans(&self) -> &[Span] {
        &self.spans
    }
}

struct Evaluation<'s> {
    atoms: &'s HashSet<(u32, u32, u32)>,
    binding: Vec<u32>,
    semantics: GoalSemantics,
}

impl Evaluation<'_> {
    fn object(&self, arg: Arg) -> u32 {
        match arg {
            Arg::Object(object) => object,
            Arg::Slot(slot) => self.binding[slot as usize],
        }
    }

    fn truth(&mut self, node: &Node) -> bool {
        match node {
            Node::Atom { predicate, args } => {
                let first = self.object(args[0]);
                let second = args.get(1).map_or(u32::MAX, |a| self.object(*a));
                self.atoms.contains(&(*predicate, first, second))
            }
            Node::And(children) => children.iter().all(|c| self.truth(c)),
            Node::Or(children) => children.iter().any(|c| self.truth(c)),
            Node::Not(child) => !self.truth(child),
            Node::Imply(antecedent, consequent) => {
                !self.truth(antecedent) || self.truth(consequent)
            }
            Node::Forall(q) => self.count_true(q) == q.members.len(),
            Node::Exists(q) => self.count_true(q) > 0,
            Node::Forn(n, q) => {
                let count = self.count_true(q) as i64;
                match self.semantics.forn {
                    Forn::Exactly => count == *n,
                    Forn::AtLeast => count >= *n,
                }
            }
            Node::ForPairs(over) => self.pairs(over, None),
            Node::ForNPairs(n, over) => self.pairs(over, Some(*n)),
            Node::False => false,
        }
    }

    fn count_true(&mut self, q: &Quantified) -> usize {
        let mut count = 0;
        for member in &q.members {
            self.binding[q.slot as usize] = *member;
            count += usize::from(self.truth(&q.body));
        }
        count
    }

    /// The truth matrix: a row per object of the first category, each listing the second
    /// category's objects other than the row's own, in scope order.
    fn matrix(&mut self, over: &PairsOver) -> Vec<Vec<(u32, bool)>> {
        over.rows
            .iter()
            .map(|row| {
                self.binding[over.row_slot as usize] = *row;
                over.columns
                    .iter()
                    .filter(|column| *column != row)
                    .map(|column| {
                        self.binding[over.column_slot as usize] = *column;
                        (*column, self.truth(&over.body))
                    })
                    .collect()
            })
            .collect()
    }

    fn pairs(&mut self, over: &PairsOver, n: Option<i64>) -> bool {
        let matrix = self.matrix(over);
        match self.semantics.pairs {
            Pairs::Reference => {
                // `forpairs`: L = min(rows, entries of row 0); `fornpairs`: N.
                let needed = n.unwrap_or_else(|| over.rows.len().min(matrix[0].len()) as i64);
                let rows_hit = matrix.iter().filter(|r| r.iter().any(|(_, v)| *v)).count();
                let width = matrix.iter().map(Vec::len).max().unwrap_or(0);
                let columns_hit = (0..width)
                    .filter(|j| matrix.iter().any(|r| r.get(*j).is_some_and(|(_, v)| *v)))
                    .count();
                rows_hit as i64 >= needed && columns_hit as i64 >= needed
            }
            Pairs::Matching => {
                let size = maximum_matching(&matrix) as i64;
                let distinct: HashSet<u32> = over.columns.iter().copied().collect();
                let needed = n.unwrap_or_else(|| over.rows.len().min(distinct.len()) as i64);
                size >= needed
            }
        }
    }
}

/// The size of a maximum matching between rows and the objects of their true entries, by
/// augmenting paths found breadth first (no recursion).
fn maximum_matching(matrix: &[Vec<(u32, bool)>]) -> usize {
    let mut owner: HashMap<u32, usize> = HashMap::new();
    let mut size = 0;
    for start in 0..matrix.len() {
        // parent[row] = (the row that reached it, the object it was reached through).
        let mut parent: HashMap<usize, (usize, u32)> = HashMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        let mut seen_objects: HashSet<u32> = HashSet::new();
        let mut free_end = None;
        'search: while let Some(row) = queue.pop_front() {
            for (object, value) in &matrix[row] {
                if !*value || !seen_objects.insert(*object) {
                    continue;
                }
                match owner.get(object) {
                    None => {
                        free_end = Some((row, *object));
                        break 'search;
                    }
                    Some(next) => {
                        parent.insert(*next, (row, *object));
                        queue.push_back(*next);
                    }
                }
            }
        }
        // Flip the path: each row on it takes the object it reached the next row through.
        let Some((mut row, mut object)) = free_end else {
            continue;
        };
        loop {
            owner.insert(object, row);
            match parent.get(&row) {
                Some((previous, through)) => {
                    object = *through;
                    row = *previous;
                }
                None => break,
            }
        }
        size += 1;
    }
    size
}
