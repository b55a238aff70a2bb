//! The ground task the search runs on: atoms as integer ids, operators and axioms as id lists,
//! states as bit sets. No strings are read while searching; names are kept for the plan text
//! and for the reasons given when a task is unsolvable.

use super::formula::Formula;

/// A state: one bit per atom (basic and derived), `words` of 64 bits.
pub type Bits = Box<[u64]>;

pub fn bit(state: &[u64], atom: u32) -> bool {
    state
        .get((atom / 64) as usize)
        .is_some_and(|w| w & (1u64 << (atom % 64)) != 0)
}

pub fn set_bit(state: &mut [u64], atom: u32, value: bool) {
    if let Some(w) = state.get_mut((atom / 64) as usize) {
        if value {
            *w |= 1u64 << (atom % 64);
        } else {
            *w &= !(1u64 << (atom % 64));
        }
    }
}

/// A conjunction of literals: atoms that must hold and atoms that must not; and, for a
/// condition whose disjunctive normal form would be too large, the rest of it as a formula
/// (the literals are then those every way of satisfying it needs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conjunction {
    pub positive: Vec<u32>,
    pub negative: Vec<u32>,
    pub rest: Option<Box<Formula>>,
}

impl Conjunction {
    pub fn holds(&self, state: &[u64]) -> bool {
        self.positive.iter().all(|&a| bit(state, a))
            && !self.negative.iter().any(|&a| bit(state, a))
            && self.rest.as_ref().is_none_or(|f| f.holds(state))
    }
}

/// One effect of an operator: when `condition` holds in the state before, `deletes` and then
/// `adds` apply (an unconditional effect has an empty condition).
#[derive(Clone, Debug, Default)]
pub struct EffectGroup {
    pub condition: Conjunction,
    pub adds: Vec<u32>,
    pub deletes: Vec<u32>,
}

/// A ground action with one disjunct of its precondition.
#[derive(Clone, Debug)]
pub struct Operator {
    /// `(move a b)`, as the plan shows it.
    pub name: String,
    pub precondition: Conjunction,
    pub effects: Vec<EffectGroup>,
    /// The action's cost under the task's metric (1 each when it has no action costs).
    pub cost: u64,
}

/// A ground derived rule with one disjunct of its body.
#[derive(Clone, Debug)]
pub struct Axiom {
    pub head: u32,
    pub body: Conjunction,
}

/// The grounded task.
#[derive(Clone, Debug, Default)]
pub struct GroundTask {
    /// Every atom that may hold in a reachable state, as `(p a b)`.
    pub atoms: Vec<String>,
    pub operators: Vec<Operator>,
    /// Axioms by stratum: each stratum is evaluated to a fixpoint before the next.
    pub strata: Vec<Vec<Axiom>>,
    /// The initial state, derived atoms included.
    pub init: Bits,
    /// The goal in disjunctive normal form: one of the conjunctions must hold.
    pub goal: Vec<Conjunction>,
    /// Whether the metric is `(minimize (total-cost))`: costs are the actions' own.
    pub action_costs: bool,
    /// For every atom, whether it is derived.
    pub derived: Vec<bool>,
    /// Operators indexed by their first positive precondition atom; `always` has the others.
    by_first_atom: Vec<Vec<u32>>,
    always: Vec<u32>,
    /// Each atom's predicate, which `index` reads.
    predicate_of: Vec<u32>,
}

impl GroundTask {
    pub fn words(&self) -> usize {
        self.atoms.len().div_ceil(64).max(1)
    }

    /// Fills the index the successor generator reads; call once operators and the initial
    /// state are final. Each operator is filed under one of its positive precondition atoms,
    /// the one whose predicate has the fewest atoms true initially (a guess at the atom least
    /// often true, so that few operators are tried in each state).
    pub fn index(&mut self, predicate_of: &[u32]) {
        self.predicate_of = predicate_of.to_vec();
        let mut true_per_predicate: Vec<usize> = Vec::new();
        for (atom, &predicate) in predicate_of.iter().enumerate() {
            let slot = predicate as usize;
            if true_per_predicate.len() <= slot {
                true_per_predicate.resize(slot + 1, 0);
            }
            if bit(&self.init, atom as u32) {
                true_per_predicate[slot] += 1;
            }
        }
        let rarity = |atom: u32| {
            predicate_of
                .get(atom as usize)
                .and_then(|&p| true_per_predicate.get(p as usize))
                .copied()
                .unwrap_or(0)
        };
        self.by_first_atom = vec![Vec::new(); self.atoms.len()];
        self.always.clear();
        for (i, op) in self.operators.iter().enumerate() {
            match op
                .precondition
                .positive
                .iter()
                .copied()
                .min_by_key(|&a| rarity(a))
                .and_then(|a| self.by_first_atom.get_mut(a as usize))
            {
                Some(list) => list.push(i as u32),
                None => self.always.push(i as u32),
            }
        }
    }

    /// Fills the index again, after operators were removed.
    pub fn reindex(&mut self) {
        let predicate_of = std::mem::take(&mut self.predicate_of);
        self.index(&predicate_of);
    }

    pub fn is_goal(&self, state: &[u64]) -> bool {
        self.goal.iter().any(|c| c.holds(state))
    }

    /// The operators applicable in `state`, in index order per atom.
    pub fn applicable(&self, state: &[u64], out: &mut Vec<u32>) {
        out.clear();
        for &op in &self.always {
            if self.operators[op as usize].precondition.holds(state) {
                out.push(op);
            }
        }
        for (w, &word) in state.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                let atom = w * 64 + rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if let Some(list) = self.by_first_atom.get(atom) {
                    for &op in list {
                        if self.operators[op as usize].precondition.holds(state) {
                            out.push(op);
                        }
                    }
                }
            }
        }
    }

    /// The state after applying `op` in `state`: effects whose condition holds before, deletes
    /// then adds, then the derived atoms recomputed.
    pub fn successor(&self, state: &[u64], op: u32) -> Bits {
        let mut next: Bits = state.into();
        if let Some(operator) = self.operators.get(op as usize) {
            let firing: Vec<&EffectGroup> = operator
                .effects
                .iter()
                .filter(|e| e.condition.holds(state))
                .collect();
            for effect in &firing {
                for &a in &effect.deletes {
                    set_bit(&mut next, a, false);
                }
            }
            for effect in &firing {
                for &a in &effect.adds {
                    set_bit(&mut next, a, true);
                }
            }
        }
        self.derive(&mut next);
        next
    }

    /// Recomputes the derived atoms of `state` from its basic atoms, stratum by stratum.
    pub fn derive(&self, state: &mut [u64]) {
        if self.strata.is_empty() {
            return;
        }
        for (atom, &derived) in self.derived.iter().enumerate() {
            if derived {
                set_bit(state, atom as u32, false);
            }
        }
        for stratum in &self.strata {
            loop {
                let mut changed = false;
                for axiom in stratum {
                    if !bit(state, axiom.head) && axiom.body.holds(state) {
                        set_bit(state, axiom.head, true);
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
        }
    }
}
