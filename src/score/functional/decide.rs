//! Whether two aligned action schemas have the same transition function, decided per equality
//! partition of their terms (parameters and the constants they mention): for each partition,
//! both are lifted to formulas over the same atoms, and a satisfying assignment is sought for
//! "one precondition holds and the other does not" and for "both hold and some written atom
//! ends differently" (`logic::satisfy`).

use super::lift::{self, AtomKey, Atoms, Lifted, Naming};
use super::logic::{self, Budget, Formula, Search, satisfy};
use crate::ast::{Action, Effect, EffectKind, Gd, GdKind, Term, Type};
use std::collections::HashMap;

/// The most equality partitions of one action pair's terms that are enumerated.
pub const MAX_PARTITIONS: usize = 20_000;
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
    pub atoms: Vec<AtomKey>,
    pub true_atoms: Vec<u32>,
    /// For different effects: an atom true after the step under the side named by `Kind`.
    pub told_apart: Option<u32>,
    /// The atoms either precondition reads.
    pub read: Vec<u32>,
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
    /// Why a difference found may not be real (quantified parts taken as free propositions).
    pub approximate: Option<String>,
    /// Why nothing could be decided.
    pub unsupported: Option<String>,
}

/// How each side names predicates and constants, shared by every action pair of two domains.
pub struct Names<'a> {
    pub gold_predicates: HashMap<String, String>,
    pub pred_predicates: HashMap<String, String>,
    /// Predicted constant (folded) → its term label.
    pub pred_constants: HashMap<String, String>,
    pub supertypes: &'a dyn Fn(&str) -> Vec<String>,
    pub constant_types: HashMap<String, Vec<String>>,
    /// The gold predicates (folded) the prediction has a counterpart for.
    pub shared: std::collections::HashSet<String>,
    pub time_limit: Option<super::TimeLimit>,
}

pub fn decide(gold: &Action, pred: &Action, names: &Names) -> Decision {
    let mut decision = Decision::default();
    let terms = terms_of(gold, pred, names);
    let partitions = match partitions(&terms, names.supertypes) {
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
    let mut budget = Budget {
        splits: BUDGET,
        time_limit: names.time_limit,
    };
    for blocks in partitions {
        if let Some(limit) = names.time_limit.filter(super::TimeLimit::reached) {
            decision.unsupported = Some(limit.reason());
            return decision;
        }
        let mut atoms = Atoms::default();
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
            Naming {
                terms: map,
                predicates,
            }
        };
        let gold_naming = naming(gold, &names.gold_predicates, true);
        let pred_naming = naming(pred, &names.pred_predicates, false);
        let lifted = lift_both(gold, pred, &gold_naming, &pred_naming, &mut atoms);
        let (g, p) = match lifted {
            Ok(both) => both,
            Err(reason) => {
                decision.unsupported = Some(reason);
                return decision;
            }
        };
        if g.opaque || p.opaque {
            decision.approximate.get_or_insert_with(|| {
                "quantified or numeric parts are compared as text".to_string()
            });
        }
        if g.opaque_effects != p.opaque_effects {
            decision.unsupported =
                Some("the quantified or numeric effects differ as text".to_string());
            return decision;
        }
        match compare(
            &names.shared,
            &g,
            &p,
            &blocks,
            &atoms,
            &mut budget,
            &mut decision,
        ) {
            Ok(()) => {}
            Err(reason) => {
                decision.unsupported = Some(reason);
                return decision;
            }
        }
        if decision.gold_only.is_some() && decision.pred_only.is_some() {
            break;
        }
    }
    decision
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
    blocks: &[usize],
    atoms: &Atoms,
    budget: &mut Budget,
    decision: &mut Decision,
) -> Result<(), String> {
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
    let found = |kind: Kind, true_atoms: Vec<u32>, told_apart: Option<u32>| Difference {
        kind,
        blocks: blocks.to_vec(),
        atoms: atoms.keys.clone(),
        after_gold: after(g, &true_atoms),
        after_pred: after(p, &true_atoms),
        true_atoms,
        told_apart,
        read: read.clone(),
    };
    let search = |formula: Formula, budget: &mut Budget| match satisfy(&formula, budget) {
        Search::Satisfiable(atoms) => Ok(Some(atoms)),
        Search::Unsatisfiable => Ok(None),
        Search::OutOfBudget => Err("the search ran out of its budget".to_string()),
        Search::OutOfTime => Err(budget.time_limit.map(|l| l.reason()).unwrap_or_default()),
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
                AtomKey::Opaque(_) => false,
            });
    let differs = |list: &[u32]| {
        let each = list
            .iter()
            .map(|&a| logic::xor(successor(g, a), successor(p, a)));
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
        let mut push = |t: &Term| {
            if let Term::Name(n) = t {
                let label = own(&n.key());
                if !constants.contains(&label) {
                    constants.push(label);
                }
            }
        };
        if let Some(gd) = &action.precondition {
            goal_terms(gd, &mut push);
        }
        if let Some(effect) = &action.effect {
            effect_terms(effect, &mut push);
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

fn goal_terms(gd: &Gd, push: &mut impl FnMut(&Term)) {
    match &gd.kind {
        GdKind::Atom(atom) => atom.args.iter().for_each(&mut *push),
        GdKind::And { args } | GdKind::Or { args } => args.iter().for_each(|a| goal_terms(a, push)),
        GdKind::Not { arg } => goal_terms(arg, push),
        GdKind::Imply {
            condition,
            consequence,
        } => {
            goal_terms(condition, push);
            goal_terms(consequence, push);
        }
        GdKind::Exists { body, .. } | GdKind::Forall { body, .. } => goal_terms(body, push),
        _ => {}
    }
}

fn effect_terms(effect: &Effect, push: &mut impl FnMut(&Term)) {
    match &effect.kind {
        EffectKind::And { args } => args.iter().for_each(|a| effect_terms(a, push)),
        EffectKind::Forall { body, .. } => effect_terms(body, push),
        EffectKind::When { condition, body } => {
            goal_terms(condition, push);
            effect_terms(body, push);
        }
        EffectKind::Add { atom } | EffectKind::Delete { atom } => {
            atom.args.iter().for_each(&mut *push)
        }
        _ => {}
    }
}

/// Whether one object can fit both type lists: some alternative of one is a subtype of some
/// alternative of the other.
pub fn compatible(a: &[String], b: &[String], supertypes: &dyn Fn(&str) -> Vec<String>) -> bool {
    a.iter().any(|x| {
        b.iter()
            .any(|y| supertypes(x).contains(y) || supertypes(y).contains(x))
    })
}

/// Every partition of the terms (as a block number per term) in which no two constants share
/// a block and the terms of a block can be one object, most blocks first (all distinct first).
/// `None` when there are more than [`MAX_PARTITIONS`].
pub fn partitions(
    terms: &[TermInfo],
    supertypes: &dyn Fn(&str) -> Vec<String>,
) -> Option<Vec<Vec<usize>>> {
    let mut all = Vec::new();
    let mut current = Vec::with_capacity(terms.len());
    grow(terms, supertypes, &mut current, 0, &mut all);
    if all.len() > MAX_PARTITIONS {
        return None;
    }
    all.sort_by_key(|blocks: &Vec<usize>| {
        std::cmp::Reverse(blocks.iter().max().map_or(0, |m| m + 1))
    });
    Some(all)
}

fn grow(
    terms: &[TermInfo],
    supertypes: &dyn Fn(&str) -> Vec<String>,
    current: &mut Vec<usize>,
    used: usize,
    all: &mut Vec<Vec<usize>>,
) {
    let i = current.len();
    if all.len() > MAX_PARTITIONS {
        return;
    }
    if i == terms.len() {
        all.push(current.clone());
        return;
    }
    for block in 0..=used {
        let fits = (0..i).filter(|&j| current[j] == block).all(|j| {
            let both_constants = matches!(terms[i].label, Label::Constant(_))
                && matches!(terms[j].label, Label::Constant(_));
            !both_constants && compatible(&terms[i].types, &terms[j].types, supertypes)
        });
        if fits {
            current.push(block);
            grow(terms, supertypes, current, used.max(block + 1), all);
            current.pop();
        }
    }
}
