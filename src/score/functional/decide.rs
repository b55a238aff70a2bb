//! Whether two aligned action schemas have the same transition function, decided per equality
//! partition of their terms (parameters and the constants they mention): for each partition,
//! both are lifted to formulas over the same atoms, and a satisfying assignment is sought for
//! "one precondition holds and the other does not" and for "both hold and some written atom
//! ends differently" (`logic::satisfy`).

use super::lift::{self, AtomKey, Atoms, Lifted, Naming, Typing, Universe};
use super::logic::{self, Budget, Formula, Search, satisfy};
use super::partition::{self, MAX_PARTITIONS};
use crate::ast::{Action, Effect, EffectKind, Gd, GdKind, Term, Type};
use std::collections::HashMap;

/// Splits allowed per action pair, over every partition.
const BUDGET: u64 = 200_000;

/// A term of an action pair: a parameter (by position) or a constant (the gold's folded name,
/// or `pred:NAME` for one only the prediction declares), with the gold's types it must fit.
#[derive(Clone, Debug)]
pub struct TermInfo {
    pub label: Label,
    pub types: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Label {
    Parameter(usize),
    Constant(String),
}

/// What differs, on which partition (`blocks[term]`), in which state (`true_atoms`).
#[derive(Clone, Debug)]
pub struct Difference {
    pub kind: Kind,
    pub blocks: Vec<usize>,
    /// The objects of the case: the blocks, then fresh objects and unnamed constants.
    pub universe: Universe,
    pub atoms: Vec<AtomKey>,
    pub true_atoms: Vec<u32>,
    /// For different effects: an atom true after the step under the side named by `Kind`.
    pub told_apart: Option<u32>,
    /// The atoms either precondition reads.
    pub read: Vec<u32>,
    /// The atoms no problem both domains accept can hold, for the objects' types chosen.
    pub ill_typed: Vec<u32>,
    /// The atoms true after the step under each domain (when it is applicable there).
    pub after_gold: Vec<u32>,
    pub after_pred: Vec<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// The gold precondition holds, the predicted one does not.
    GoldOnly,
    /// The predicted precondition holds, the gold one does not.
    PredOnly,
    /// Both hold; `told_apart` is true afterwards under the gold (`true`) or the prediction.
    Effects { gold_true: bool },
}

/// The decision for one action pair.
#[derive(Debug, Default)]
pub struct Decision {
    pub gold_only: Option<Difference>,
    pub pred_only: Option<Difference>,
    pub effects: Option<Difference>,
    /// Why finding no difference does not prove equivalence.
    pub doubt: Option<String>,
    /// Why nothing could be decided.
    pub unsupported: Option<String>,
    /// Whether the actions increase `total-cost` differently (which the transition function
    /// does not read).
    pub costs_differ: bool,
}

/// How each side names predicates and constants, shared by every action pair of two domains.
pub struct Names<'a> {
    pub gold_predicates: HashMap<String, String>,
    pub pred_predicates: HashMap<String, String>,
    /// Predicted constant (folded) → its term label.
    pub pred_constants: HashMap<String, String>,
    pub supertypes: &'a dyn Fn(&str) -> Vec<String>,
    pub constant_types: HashMap<String, Vec<String>>,
    /// Every constant of either domain (its term label) with its declared types on each side.
    pub constants: Vec<(String, [Vec<String>; 2])>,
    /// Each side's folded type → its shared key.
    pub types: [&'a HashMap<String, String>; 2],
    /// The types both domains know, when either declares any.
    pub typing: Option<&'a Typing>,
    /// Per side, each predicate (shared key) → its parameters' declared types (shared keys).
    pub predicate_types: [&'a HashMap<String, Vec<Vec<String>>>; 2],
    /// Whether the two actions' parameters, the type hierarchies or the constants' types
    /// differ, so that types must be decided with the rest.
    pub types_differ: bool,
    /// The gold predicates (folded) the prediction has a counterpart for.
    pub shared: std::collections::HashSet<String>,
    pub time_limit: Option<super::TimeLimit>,
}

pub fn decide(gold: &Action, pred: &Action, names: &Names) -> Decision {
    let mut decision = Decision::default();
    let mut terms = terms_of(gold, pred, names);
    if names.types_differ {
        // The types are decided with the rest: a case where the terms' gold types clash may
        // still be one where the prediction applies.
        for term in terms.iter_mut() {
            if let Label::Parameter(_) = term.label {
                term.types = vec!["object".to_string()];
            }
        }
    }
    let partitions = partition::all(&terms, names.supertypes)
        .or_else(|| generated_partitions(gold, pred, &terms, names));
    let partitions = match partitions {
        Some(all) => all,
        None => {
            decision.doubt = Some(format!(
                "{} parameters and constants have more than {MAX_PARTITIONS} ways to be equal: \
                 only distinct bindings were compared",
                terms.len()
            ));
            vec![(0..terms.len()).collect()]
        }
    };
    let quantified = quantified_variables(gold) + quantified_variables(pred);
    // Typed domains: the objects' types are decided with the rest, so that only the states of
    // well-typed problems count.
    let typed = names.typing.is_some();
    let mut budget = Budget {
        splits: BUDGET,
        time_limit: names.time_limit,
    };
    for blocks in partitions {
        if let Some(limit) = names.time_limit.filter(super::TimeLimit::reached) {
            decision.unsupported = Some(limit.reason());
            return decision;
        }
        let universe = universe_of(&terms, &blocks, quantified, names, typed);
        let mut atoms = Atoms::default();
        let (gold_naming, pred_naming) = namings(gold, pred, &terms, &blocks, names, &universe);
        let lifted = lift_both(gold, pred, &gold_naming, &pred_naming, &mut atoms);
        let (mut g, mut p) = match lifted {
            Ok(both) => both,
            Err(reason) => {
                decision.unsupported = Some(reason);
                return decision;
            }
        };
        if g.opaque_effects != p.opaque_effects {
            decision.unsupported = Some("the numeric effects differ as text".to_string());
            return decision;
        }
        if g.costs != p.costs {
            decision.costs_differ = true;
        }
        if let Some(reason) = g.bounded.take().or(p.bounded.take()) {
            decision.doubt.get_or_insert(reason);
        }
        if typed {
            for (side, lifted, action, naming) in [
                (0, &mut g, gold, &gold_naming),
                (1, &mut p, pred, &pred_naming),
            ] {
                let typing = parameter_types(side, action, &blocks, naming, &mut atoms);
                let own = std::mem::replace(&mut lifted.precondition, Formula::True);
                lifted.precondition = Formula::and(vec![typing, own]);
            }
        }
        let well_typed = universe.well_typed(&mut atoms, names.predicate_types);
        let mut background: Vec<Formula> = well_typed
            .iter()
            .map(|(&atom, fits)| Formula::or(vec![logic::not(logic::atom(atom)), fits.clone()]))
            .collect();
        background.push(universe.one_type_each(&mut atoms));
        let case = Case {
            blocks: &blocks,
            universe: &universe,
            atoms: &atoms,
            background: Formula::and(background),
            well_typed,
        };
        if let Err(reason) = compare(&names.shared, &g, &p, &case, &mut budget, &mut decision) {
            decision.unsupported = Some(reason);
            return decision;
        }
        if decision.gold_only.is_some() && decision.pred_only.is_some() {
            break;
        }
    }
    decision
}

/// One case of an action pair: its partition, objects, propositions and the constraint on
/// the objects' types.
struct Case<'c> {
    blocks: &'c [usize],
    universe: &'c Universe,
    atoms: &'c Atoms,
    /// The initial state is well-typed and each object has one type.
    background: Formula,
    /// When an atom is well-typed, for the atoms that may not be.
    well_typed: HashMap<u32, Formula>,
}

impl Case<'_> {
    fn well_typed(&self, atom: u32) -> Formula {
        self.well_typed.get(&atom).cloned().unwrap_or(Formula::True)
    }
}

/// "Each parameter's object is of the parameter's type", on one side.
fn parameter_types(
    side: usize,
    action: &Action,
    blocks: &[usize],
    naming: &Naming,
    atoms: &mut Atoms,
) -> Formula {
    let parts = action
        .parameters
        .iter()
        .zip(blocks)
        .map(|(parameter, &object)| {
            let wanted = naming.shared_types(parameter.ty.as_ref());
            naming.universe.is(side, object, &wanted, atoms)
        })
        .collect();
    Formula::and(parts)
}

/// The number of variables the action's quantifiers bind.
fn quantified_variables(action: &Action) -> usize {
    fn in_goal(gd: &Gd) -> usize {
        match &gd.kind {
            GdKind::And { args } | GdKind::Or { args } => args.iter().map(in_goal).sum(),
            GdKind::Not { arg } => in_goal(arg),
            GdKind::Imply {
                condition,
                consequence,
            } => in_goal(condition) + in_goal(consequence),
            GdKind::Exists { variables, body } | GdKind::Forall { variables, body } => {
                variables.len() + in_goal(body)
            }
            _ => 0,
        }
    }
    fn in_effect(effect: &Effect) -> usize {
        match &effect.kind {
            EffectKind::And { args } => args.iter().map(in_effect).sum(),
            EffectKind::Forall { variables, body } => variables.len() + in_effect(body),
            EffectKind::When { condition, body } => in_goal(condition) + in_effect(body),
            _ => 0,
        }
    }
    action.precondition.as_ref().map_or(0, in_goal) + action.effect.as_ref().map_or(0, in_effect)
}

/// The objects of one case: a block per partition block (a constant's block has its type
/// fixed), and when the actions quantify, one fresh object per quantified variable and every
/// constant of either domain that no term names.
fn universe_of(
    terms: &[TermInfo],
    blocks: &[usize],
    quantified: usize,
    names: &Names,
    typed: bool,
) -> Universe {
    let count = blocks.iter().max().map_or(0, |m| m + 1);
    let declared = |label: &str| {
        names
            .constants
            .iter()
            .find(|(c, _)| c == label)
            .map(|(_, types)| types.clone())
    };
    let mut fixed: Vec<Option<[Vec<String>; 2]>> = vec![None; count];
    for (term, &block) in terms.iter().zip(blocks) {
        if let Label::Constant(c) = &term.label {
            fixed[block] = declared(c);
        }
    }
    let mut unnamed_constants = Vec::new();
    if quantified > 0 {
        fixed.extend(std::iter::repeat_n(None, quantified));
        for (label, types) in &names.constants {
            if !terms
                .iter()
                .any(|t| t.label == Label::Constant(label.clone()))
            {
                fixed.push(Some(types.clone()));
                unnamed_constants.push(label.clone());
            }
        }
    }
    Universe {
        fixed,
        typing: names.typing.filter(|_| typed).cloned(),
        unnamed_constants,
    }
}

/// How each action names its terms under one partition: parameters by name, constants by
/// their label (the prediction's own constant names too).
fn namings<'n>(
    gold: &Action,
    pred: &Action,
    terms: &[TermInfo],
    blocks: &[usize],
    names: &'n Names,
    universe: &'n Universe,
) -> (Naming<'n>, Naming<'n>) {
    let naming = |action: &Action, predicates, gold_side: bool| {
        let mut map = HashMap::new();
        for (i, term) in terms.iter().enumerate() {
            match &term.label {
                Label::Parameter(p) => {
                    if let Some(param) = action.parameters.get(*p) {
                        map.insert(format!("?{}", param.item.name.key()), blocks[i]);
                    }
                }
                Label::Constant(c) => {
                    map.insert(c.clone(), blocks[i]);
                }
            }
        }
        if !gold_side {
            for (own, label) in &names.pred_constants {
                if let Some(&b) = map.get(label) {
                    map.insert(own.clone(), b);
                }
            }
        }
        let side = usize::from(!gold_side);
        Naming {
            terms: map,
            predicates,
            types: names.types[side],
            universe,
            side,
        }
    };
    (
        naming(gold, &names.gold_predicates, true),
        naming(pred, &names.pred_predicates, false),
    )
}

/// The partitions that can change the formulas (`partition::generated`), found from the atom
/// occurrences of both actions with every term distinct; `None` when there are too many, or
/// when a quantifier hides which objects it compares.
fn generated_partitions(
    gold: &Action,
    pred: &Action,
    terms: &[TermInfo],
    names: &Names,
) -> Option<Vec<Vec<usize>>> {
    if quantified_variables(gold) + quantified_variables(pred) > 0 {
        return None;
    }
    let distinct: Vec<usize> = (0..terms.len()).collect();
    let universe = universe_of(terms, &distinct, 0, names, false);
    let (gold_naming, pred_naming) = namings(gold, pred, terms, &distinct, names, &universe);
    let mut atoms = Atoms::default();
    lift_both(gold, pred, &gold_naming, &pred_naming, &mut atoms).ok()?;
    let facts = atoms
        .keys
        .iter()
        .filter_map(|key| match key {
            AtomKey::Fact { predicate, args } => Some((predicate.clone(), args.clone())),
            AtomKey::Type { .. } => None,
        })
        .collect();
    let mut equalities = Vec::new();
    for (action, naming) in [(gold, &gold_naming), (pred, &pred_naming)] {
        let mut visit = |atom: &crate::ast::Atom| {
            if atom.predicate.is("=") && atom.args.len() == 2 {
                let block = |t: &Term| naming.terms.get(&lift::term_key(t)).copied();
                if let (Some(a), Some(b)) = (block(&atom.args[0]), block(&atom.args[1])) {
                    equalities.push((a, b));
                }
            }
        };
        if let Some(gd) = &action.precondition {
            goal_atoms(gd, &mut visit);
        }
        if let Some(effect) = &action.effect {
            effect_atoms(effect, &mut visit);
        }
    }
    let occurrences = partition::Occurrences { facts, equalities };
    partition::generated(terms, names.supertypes, &occurrences)
}

fn lift_both(
    gold: &Action,
    pred: &Action,
    gold_naming: &Naming,
    pred_naming: &Naming,
    atoms: &mut Atoms,
) -> Result<(Lifted, Lifted), String> {
    let g = lift::lift(
        gold.precondition.as_ref(),
        gold.effect.as_ref(),
        gold_naming,
        atoms,
    )?;
    let p = lift::lift(
        pred.precondition.as_ref(),
        pred.effect.as_ref(),
        pred_naming,
        atoms,
    )?;
    Ok((g, p))
}

/// The successor value of `atom`: added, or held and not deleted (an add wins, as in VAL).
fn successor(lifted: &Lifted, atom: u32) -> Formula {
    let conditions = |add: bool| {
        Formula::or(
            lifted
                .writes
                .iter()
                .filter(|w| w.atom == atom && w.add == add)
                .map(|w| w.condition.clone())
                .collect(),
        )
    };
    Formula::or(vec![
        conditions(true),
        Formula::and(vec![logic::atom(atom), logic::not(conditions(false))]),
    ])
}

fn compare(
    shared: &std::collections::HashSet<String>,
    g: &Lifted,
    p: &Lifted,
    case: &Case,
    budget: &mut Budget,
    decision: &mut Decision,
) -> Result<(), String> {
    let atoms = case.atoms;
    let mut read = logic::atoms(&g.precondition);
    read.extend(logic::atoms(&p.precondition));
    read.sort_unstable();
    read.dedup();
    let all = 0..atoms.keys.len() as u32;
    let after = |side: &Lifted, state: &[u32]| -> Vec<u32> {
        all.clone()
            .filter(|&a| logic::holds(&successor(side, a), state))
            .collect()
    };
    let found = |kind: Kind, mut true_atoms: Vec<u32>, told_apart: Option<u32>| {
        // In the order the atoms were met, so that the problem reads like the action.
        true_atoms.sort_unstable();
        true_atoms.dedup();
        Difference {
            kind,
            blocks: case.blocks.to_vec(),
            universe: case.universe.clone(),
            atoms: atoms.keys.clone(),
            after_gold: after(g, &true_atoms),
            after_pred: after(p, &true_atoms),
            ill_typed: (0..atoms.keys.len() as u32)
                .filter(|&a| !logic::holds(&case.well_typed(a), &true_atoms))
                .collect(),
            true_atoms,
            told_apart,
            read: read.clone(),
        }
    };
    let search = |formula: Formula, budget: &mut Budget| {
        // One case of the question's widest disjunction at a time (a difference on one atom
        // needs no split on another's), the question first, so that the search splits on its
        // atoms and the type constraints follow by propagation.
        for case_formula in logic::cases(formula) {
            let formula = Formula::and(vec![case_formula, case.background.clone()]);
            match satisfy(&formula, budget) {
                Search::Satisfiable(atoms) => return Ok(Some(atoms)),
                Search::Unsatisfiable => {}
                Search::OutOfBudget => return Err("the search ran out of its budget".to_string()),
                Search::OutOfTime => {
                    return Err(budget.time_limit.map(|l| l.reason()).unwrap_or_default());
                }
            }
        }
        Ok(None)
    };
    let gold_pre = g.precondition.clone();
    let pred_pre = p.precondition.clone();
    if decision.gold_only.is_none() {
        let only = Formula::and(vec![gold_pre.clone(), logic::not(pred_pre.clone())]);
        if let Some(state) = search(only, budget)? {
            decision.gold_only = Some(found(Kind::GoldOnly, state, None));
        }
    }
    if decision.pred_only.is_none() {
        let only = Formula::and(vec![pred_pre.clone(), logic::not(gold_pre.clone())]);
        if let Some(state) = search(only, budget)? {
            decision.pred_only = Some(found(Kind::PredOnly, state, None));
        }
    }
    if decision.effects.is_some() {
        return Ok(());
    }
    let mut written: Vec<u32> = g.writes.iter().chain(&p.writes).map(|w| w.atom).collect();
    written.sort_unstable();
    written.dedup();
    // Atoms of a predicate one domain lacks cannot be told apart by a goal: they are searched
    // only when the others show nothing, and then leave the verdict open.
    let (observable, hidden): (Vec<u32>, Vec<u32>) =
        written
            .iter()
            .partition(|&&a| match &atoms.keys[a as usize] {
                AtomKey::Fact { predicate, .. } => shared.contains(predicate),
                AtomKey::Type { .. } => false,
            });
    let differs = |list: &[u32]| {
        // Only a well-typed atom can be a goal that shows the difference.
        let each = list.iter().map(|&a| {
            Formula::and(vec![
                case.well_typed(a),
                logic::xor(successor(g, a), successor(p, a)),
            ])
        });
        Formula::and(vec![
            gold_pre.clone(),
            pred_pre.clone(),
            Formula::or(each.collect()),
        ])
    };
    if search(differs(&hidden), budget)?.is_some() {
        decision.doubt = Some(
            "the effects differ on atoms of a predicate one domain lacks, which one step cannot show"
                .to_string(),
        );
    }
    let written = observable;
    if let Some(state) = search(differs(&written), budget)? {
        let apart = written.iter().find_map(|&a| {
            let (in_gold, in_pred) = (
                logic::holds(&successor(g, a), &state),
                logic::holds(&successor(p, a), &state),
            );
            (in_gold != in_pred).then_some((a, in_gold))
        });
        if let Some((atom, gold_true)) = apart {
            decision.effects = Some(found(Kind::Effects { gold_true }, state, Some(atom)));
        }
    }
    Ok(())
}

/// The terms of an action pair: the gold's parameters, then the constants either mentions.
pub fn terms_of(gold: &Action, pred: &Action, names: &Names) -> Vec<TermInfo> {
    let mut terms: Vec<TermInfo> = gold
        .parameters
        .iter()
        .enumerate()
        .map(|(i, p)| TermInfo {
            label: Label::Parameter(i),
            types: type_names(p.ty.as_ref()),
        })
        .collect();
    let mut constants = Vec::new();
    for action in [gold, pred] {
        let own = |name: &str| -> String {
            if std::ptr::eq(action, gold) {
                name.to_string()
            } else {
                names
                    .pred_constants
                    .get(name)
                    .cloned()
                    .unwrap_or(format!("pred:{name}"))
            }
        };
        let mut push = |atom: &crate::ast::Atom| {
            for t in &atom.args {
                if let Term::Name(n) = t {
                    let label = own(&n.key());
                    if !constants.contains(&label) {
                        constants.push(label);
                    }
                }
            }
        };
        if let Some(gd) = &action.precondition {
            goal_atoms(gd, &mut push);
        }
        if let Some(effect) = &action.effect {
            effect_atoms(effect, &mut push);
        }
    }
    for c in constants {
        let types = names
            .constant_types
            .get(&c)
            .cloned()
            .unwrap_or_else(|| vec!["object".to_string()]);
        terms.push(TermInfo {
            label: Label::Constant(c),
            types,
        });
    }
    terms
}

pub fn type_names(ty: Option<&Type>) -> Vec<String> {
    match ty {
        None => vec!["object".to_string()],
        Some(Type::Name(n)) => vec![n.key()],
        Some(Type::Either { types, .. }) => types.iter().map(|n| n.key()).collect(),
    }
}

fn goal_atoms(gd: &Gd, visit: &mut impl FnMut(&crate::ast::Atom)) {
    match &gd.kind {
        GdKind::Atom(atom) => visit(atom),
        GdKind::And { args } | GdKind::Or { args } => {
            args.iter().for_each(|a| goal_atoms(a, visit))
        }
        GdKind::Not { arg } => goal_atoms(arg, visit),
        GdKind::Imply {
            condition,
            consequence,
        } => {
            goal_atoms(condition, visit);
            goal_atoms(consequence, visit);
        }
        GdKind::Exists { body, .. } | GdKind::Forall { body, .. } => goal_atoms(body, visit),
        _ => {}
    }
}

fn effect_atoms(effect: &Effect, visit: &mut impl FnMut(&crate::ast::Atom)) {
    match &effect.kind {
        EffectKind::And { args } => args.iter().for_each(|a| effect_atoms(a, visit)),
        EffectKind::Forall { body, .. } => effect_atoms(body, visit),
        EffectKind::When { condition, body } => {
            goal_atoms(condition, visit);
            effect_atoms(body, visit);
        }
        EffectKind::Add { atom } | EffectKind::Delete { atom } => visit(atom),
        _ => {}
    }
}
