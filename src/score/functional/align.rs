//! The alignment of a predicted domain's names with the gold's: equal names (case-folded)
//! first; the rest paired within signature-compatible groups (predicates of one arity, actions
//! of one parameter count) by how alike their uses are, exhaustively when a group is small
//! (at most 6 on each side) and greedily (best-scoring pair first) otherwise. Types and
//! constants left over are paired in declaration order when both sides have the same number.

use crate::ast::{Action, Domain, Effect, EffectKind, Gd, GdKind, Term};
use std::collections::{HashMap, HashSet};

/// Corresponding names (`(gold, pred)` as written) and actions (indices into each domain's
/// actions, in source order).
#[derive(Clone, Debug, Default)]
pub struct Aligned {
    pub types: Vec<(String, String)>,
    pub predicates: Vec<(String, String)>,
    pub constants: Vec<(String, String)>,
    pub actions: Vec<(usize, usize)>,
    /// Per action pair, for each predicted parameter the gold parameter it stands for.
    pub orders: Vec<Vec<usize>>,
}

/// The largest group searched exhaustively.
const EXHAUSTIVE: usize = 6;

pub fn align(gold: &Domain, pred: &Domain) -> Aligned {
    let gold_actions: Vec<&Action> = gold.actions().collect();
    let pred_actions: Vec<&Action> = pred.actions().collect();
    let mut aligned = Aligned {
        types: by_name_then_order(&type_names(gold), &type_names(pred)),
        constants: by_name_then_order(&names(&gold.constants), &names(&pred.constants)),
        ..Aligned::default()
    };
    let action_names = |actions: &[&Action]| -> Vec<(String, usize)> {
        actions
            .iter()
            .map(|a| (a.name.text.to_string(), a.parameters.len()))
            .collect()
    };
    let gold_sigs = action_names(&gold_actions);
    let pred_sigs = action_names(&pred_actions);
    aligned.actions = same_names(&gold_sigs, &pred_sigs);
    let predicate_sigs = |d: &Domain| -> Vec<(String, usize)> {
        d.predicates
            .iter()
            .map(|p| (p.name.text.to_string(), p.parameters.len()))
            .collect()
    };
    let (gold_preds, pred_preds) = (predicate_sigs(gold), predicate_sigs(pred));
    let named_predicates = same_names(&gold_preds, &pred_preds);
    // Predicates first with the actions that share a name, then the actions left over with
    // those predicates, then the predicates again with every action pair.
    let pair_predicates = |aligned_actions: &[(usize, usize)], named: Vec<(usize, usize)>| {
        let gold_uses = uses_of(&gold_actions, aligned_actions.iter().map(|p| p.0));
        let pred_uses = uses_of(&pred_actions, aligned_actions.iter().map(|p| p.1));
        let score = |g: usize, p: usize| {
            overlap(
                gold_uses.get(&gold_preds[g].0.to_lowercase()),
                pred_uses.get(&pred_preds[p].0.to_lowercase()),
            )
        };
        pair_rest(&gold_preds, &pred_preds, named, score)
    };
    let predicates = pair_predicates(&aligned.actions, named_predicates.clone());
    aligned.predicates = named(&predicates, &gold_preds, &pred_preds);
    let renaming = pred_to_gold(&aligned.predicates);
    let gold_literals: Vec<Vec<String>> = gold_actions
        .iter()
        .map(|a| literals(a, &HashMap::new(), None))
        .collect();
    let pred_literals: Vec<Vec<String>> = pred_actions
        .iter()
        .map(|a| literals(a, &renaming, None))
        .collect();
    let score_actions = |g: usize, p: usize| overlap_lists(&gold_literals[g], &pred_literals[p]);
    aligned.actions = pair_rest(&gold_sigs, &pred_sigs, aligned.actions, score_actions);
    aligned
        .actions
        .extend(namesakes(&gold_sigs, &pred_sigs, &aligned.actions));
    let predicates = pair_predicates(&aligned.actions, named_predicates);
    aligned.predicates = named(&predicates, &gold_preds, &pred_preds);
    let renaming = pred_to_gold(&aligned.predicates);
    aligned.orders = aligned
        .actions
        .iter()
        .map(|&(g, p)| parameter_order(gold_actions[g], pred_actions[p], &renaming))
        .collect();
    aligned
}

/// The largest parameter list whose orders are all tried.
const MAX_ORDERED: usize = 6;

/// Per parameter of `pred`, the gold parameter it stands for: the order under which the most
/// literals agree, the identity first among equals (tried for up to six parameters).
fn parameter_order(gold: &Action, pred: &Action, renaming: &HashMap<String, String>) -> Vec<usize> {
    let count = pred.parameters.len();
    let identity: Vec<usize> = (0..count).collect();
    if count != gold.parameters.len() || !(2..=MAX_ORDERED).contains(&count) {
        return identity;
    }
    let gold_literals = literals(gold, &HashMap::new(), None);
    let score =
        |order: &[usize]| overlap_lists(&gold_literals, &literals(pred, renaming, Some(order)));
    let mut best = (score(&identity), identity.clone());
    let mut order = identity;
    while next_permutation(&mut order) {
        let value = score(&order);
        if value > best.0 {
            best = (value, order.clone());
        }
    }
    best.1
}

/// The next permutation in lexicographic order, or `false` after the last.
fn next_permutation(order: &mut [usize]) -> bool {
    let Some(i) = (1..order.len()).rev().find(|&i| order[i - 1] < order[i]) else {
        return false;
    };
    let j = (i..order.len())
        .rev()
        .find(|&j| order[j] > order[i - 1])
        .unwrap_or(i);
    order.swap(i - 1, j);
    order[i..].reverse();
    true
}

/// Predicted name → gold name, both folded.
fn pred_to_gold(pairs: &[(String, String)]) -> HashMap<String, String> {
    pairs
        .iter()
        .map(|(g, p)| (p.to_lowercase(), g.to_lowercase()))
        .collect()
}

fn names(list: &[crate::ast::Typed<crate::ast::Name>]) -> Vec<String> {
    list.iter().map(|t| t.item.text.to_string()).collect()
}

fn type_names(domain: &Domain) -> Vec<String> {
    let mut all = names(&domain.types);
    for typed in &domain.types {
        if let Some(crate::ast::Type::Name(parent)) = &typed.ty
            && !all.iter().any(|n| parent.is(n))
        {
            all.push(parent.text.to_string());
        }
    }
    all
}

fn named(
    pairs: &[(usize, usize)],
    gold: &[(String, usize)],
    pred: &[(String, usize)],
) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|&(g, p)| (gold[g].0.clone(), pred[p].0.clone()))
        .collect()
}

/// Equal names (case-folded) and equal signatures: each gold name with the first predicted one
/// of its name and arity, unless an earlier gold name took it. Hashed, so that the thousands of
/// actions of a grounded domain pair in linear time.
fn same_names(gold: &[(String, usize)], pred: &[(String, usize)]) -> Vec<(usize, usize)> {
    let mut first: HashMap<(String, usize), usize> = HashMap::new();
    for (p, (name, arity)) in pred.iter().enumerate() {
        first.entry((name.to_lowercase(), *arity)).or_insert(p);
    }
    let mut taken = HashSet::new();
    let mut pairs = Vec::new();
    for (g, (name, arity)) in gold.iter().enumerate() {
        if let Some(&p) = first.get(&(name.to_lowercase(), *arity))
            && taken.insert(p)
        {
            pairs.push((g, p));
        }
    }
    pairs
}

/// The actions left unpaired that share a name (case-folded) with another number of
/// parameters: a pair whose verdict is `different-parameters`, not a missing and an extra one.
fn namesakes(
    gold: &[(String, usize)],
    pred: &[(String, usize)],
    pairs: &[(usize, usize)],
) -> Vec<(usize, usize)> {
    let paired_gold: HashSet<usize> = pairs.iter().map(|p| p.0).collect();
    let paired_pred: HashSet<usize> = pairs.iter().map(|p| p.1).collect();
    let mut unpaired_pred: HashMap<String, usize> = HashMap::new();
    for (p, (name, _)) in pred.iter().enumerate() {
        if !paired_pred.contains(&p) {
            unpaired_pred.entry(name.to_lowercase()).or_insert(p);
        }
    }
    (0..gold.len())
        .filter(|g| !paired_gold.contains(g))
        .filter_map(|g| Some((g, unpaired_pred.remove(&gold[g].0.to_lowercase())?)))
        .collect()
}

fn by_name_then_order(gold: &[String], pred: &[String]) -> Vec<(String, String)> {
    let sig = |names: &[String]| -> Vec<(String, usize)> {
        names.iter().map(|n| (n.clone(), 0)).collect()
    };
    let (gold_sigs, pred_sigs) = (sig(gold), sig(pred));
    let mut pairs = same_names(&gold_sigs, &pred_sigs);
    let rest_gold: Vec<usize> = (0..gold.len())
        .filter(|g| !pairs.iter().any(|p| p.0 == *g))
        .collect();
    let rest_pred: Vec<usize> = (0..pred.len())
        .filter(|q| !pairs.iter().any(|p| p.1 == *q))
        .collect();
    if rest_gold.len() == rest_pred.len() {
        pairs.extend(rest_gold.into_iter().zip(rest_pred));
    }
    named(&pairs, &gold_sigs, &pred_sigs)
}

/// `pairs` completed within each signature group by the highest total `score`.
fn pair_rest(
    gold: &[(String, usize)],
    pred: &[(String, usize)],
    mut pairs: Vec<(usize, usize)>,
    score: impl Fn(usize, usize) -> usize,
) -> Vec<(usize, usize)> {
    let mut arities: Vec<usize> = gold.iter().map(|g| g.1).collect();
    arities.sort_unstable();
    arities.dedup();
    for arity in arities {
        let paired_gold: HashSet<usize> = pairs.iter().map(|p| p.0).collect();
        let paired_pred: HashSet<usize> = pairs.iter().map(|p| p.1).collect();
        let rest_gold: Vec<usize> = (0..gold.len())
            .filter(|&g| gold[g].1 == arity && !paired_gold.contains(&g))
            .collect();
        let rest_pred: Vec<usize> = (0..pred.len())
            .filter(|&q| pred[q].1 == arity && !paired_pred.contains(&q))
            .collect();
        if rest_gold.is_empty() || rest_pred.is_empty() {
            continue;
        }
        let matrix: Vec<Vec<usize>> = rest_gold
            .iter()
            .map(|&g| rest_pred.iter().map(|&p| score(g, p)).collect())
            .collect();
        let chosen = if rest_gold.len() <= EXHAUSTIVE && rest_pred.len() <= EXHAUSTIVE {
            let mut best = (0, Vec::new());
            exhaustive(&matrix, 0, &mut vec![None; rest_gold.len()], 0, &mut best);
            best.1
        } else {
            greedy(&matrix)
        };
        for (i, j) in chosen.into_iter().enumerate() {
            if let Some(j) = j {
                pairs.push((rest_gold[i], rest_pred[j]));
            }
        }
    }
    pairs
}

/// The assignment (each row a distinct column, as many rows as can be) of the highest total.
fn exhaustive(
    matrix: &[Vec<usize>],
    row: usize,
    current: &mut Vec<Option<usize>>,
    total: usize,
    best: &mut (usize, Vec<Option<usize>>),
) {
    if row == matrix.len() {
        let matched = current.iter().flatten().count();
        let best_matched = best.1.iter().flatten().count();
        if best.1.is_empty() || (matched, total) > (best_matched, best.0) {
            *best = (total, current.clone());
        }
        return;
    }
    let columns = matrix[row].len();
    for column in 0..columns {
        if current.contains(&Some(column)) {
            continue;
        }
        current[row] = Some(column);
        exhaustive(matrix, row + 1, current, total + matrix[row][column], best);
        current[row] = None;
    }
    if matrix.len() > columns {
        exhaustive(matrix, row + 1, current, total, best);
    }
}

fn greedy(matrix: &[Vec<usize>]) -> Vec<Option<usize>> {
    let mut cells: Vec<(usize, usize, usize)> = Vec::new();
    for (i, row) in matrix.iter().enumerate() {
        for (j, &s) in row.iter().enumerate() {
            cells.push((s, i, j));
        }
    }
    // Highest score first; ties in declaration order.
    cells.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut chosen = vec![None; matrix.len()];
    for (_, i, j) in cells {
        if chosen[i].is_none() && !chosen.contains(&Some(j)) {
            chosen[i] = Some(j);
        }
    }
    chosen
}

/// Per predicate (folded name), its uses in the listed actions: the action's place in the
/// list, the literal's role and its arguments (parameter positions or constants).
fn uses_of(
    actions: &[&Action],
    listed: impl Iterator<Item = usize>,
) -> HashMap<String, Vec<String>> {
    let mut uses: HashMap<String, Vec<String>> = HashMap::new();
    for (place, index) in listed.enumerate() {
        for literal in literals(actions[index], &HashMap::new(), None) {
            if let Some((predicate, rest)) = literal.split_once(' ') {
                uses.entry(predicate.to_string())
                    .or_default()
                    .push(format!("{place} {rest}"));
                // The use without its action, so that unpaired actions still count.
                uses.entry(predicate.to_string())
                    .or_default()
                    .push(format!("* {rest}"));
            }
        }
    }
    uses
}

fn overlap(gold: Option<&Vec<String>>, pred: Option<&Vec<String>>) -> usize {
    match (gold, pred) {
        (Some(g), Some(p)) => overlap_lists(g, p),
        _ => 0,
    }
}

/// The size of the multiset intersection.
fn overlap_lists(gold: &[String], pred: &[String]) -> usize {
    let mut left: HashMap<&str, usize> = HashMap::new();
    for g in gold {
        *left.entry(g.as_str()).or_default() += 1;
    }
    pred.iter()
        .filter(|p| match left.get_mut(p.as_str()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        })
        .count()
}

/// An action's literals as `predicate role args`, predicates renamed through `renaming`
/// (folded), parameters by position.
fn literals(
    action: &Action,
    renaming: &HashMap<String, String>,
    order: Option<&[usize]>,
) -> Vec<String> {
    let position: HashMap<String, usize> = action
        .parameters
        .iter()
        .enumerate()
        .map(|(i, p)| (p.item.name.key(), order.map_or(i, |o| o[i])))
        .collect();
    let mut out = Vec::new();
    let mut push = |atom: &crate::ast::Atom, role: &str| {
        let key = atom.predicate.key();
        let predicate = renaming.get(&key).cloned().unwrap_or(key);
        let args: Vec<String> = atom
            .args
            .iter()
            .map(|t| match t {
                Term::Variable(v) => position
                    .get(&v.name.key())
                    .map_or("?".to_string(), |i| i.to_string()),
                Term::Name(n) => n.key(),
            })
            .collect();
        out.push(format!("{predicate} {role} {}", args.join(",")));
    };
    if let Some(gd) = &action.precondition {
        goal_atoms(gd, true, &mut push);
    }
    if let Some(effect) = &action.effect {
        effect_atoms(effect, &mut push);
    }
    out
}

fn goal_atoms(gd: &Gd, positive: bool, push: &mut impl FnMut(&crate::ast::Atom, &str)) {
    match &gd.kind {
        GdKind::Atom(atom) => push(atom, if positive { "pre+" } else { "pre-" }),
        GdKind::Not { arg } => goal_atoms(arg, !positive, push),
        GdKind::And { args } | GdKind::Or { args } => {
            args.iter().for_each(|a| goal_atoms(a, positive, push))
        }
        GdKind::Imply {
            condition,
            consequence,
        } => {
            goal_atoms(condition, !positive, push);
            goal_atoms(consequence, positive, push);
        }
        GdKind::Exists { body, .. } | GdKind::Forall { body, .. } => {
            goal_atoms(body, positive, push)
        }
        _ => {}
    }
}

fn effect_atoms(effect: &Effect, push: &mut impl FnMut(&crate::ast::Atom, &str)) {
    match &effect.kind {
        EffectKind::And { args } => args.iter().for_each(|a| effect_atoms(a, push)),
        EffectKind::Forall { body, .. } => effect_atoms(body, push),
        EffectKind::When { condition, body } => {
            goal_atoms(condition, true, push);
            effect_atoms(body, push);
        }
        EffectKind::Add { atom } => push(atom, "add"),
        EffectKind::Delete { atom } => push(atom, "del"),
        _ => {}
    }
}
