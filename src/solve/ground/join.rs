//! A schema's instances enumerated by joining its precondition's atoms against the atoms
//! reached so far. A precondition's top-level disjunctions are split into *alternatives* (as
//! Fast Downward's translator splits them into actions of their own), each with the atoms its
//! disjuncts need and the parameters they make equal, so a parameter bound only by an equality
//! (folding's `(= ?n1x ?n2x)` inside one of four cases) takes one value, not every object of
//! its type. An alternative only narrows the candidates: every instance is still checked
//! against the whole condition.

use super::{Arg, Grounder, JoinAtom, Schema};
use crate::ast::*;
use crate::semantics::World;
use crate::solve::Budget;
use crate::solve::ground::GroundFailure;
use foldhash::{HashSet, HashSetExt};

/// Beyond this many alternatives, further disjunctions are left to the condition check.
const MAX_ALTERNATIVES: usize = 64;

/// One way the precondition can hold, as far as enumeration needs: the atoms that must be
/// reached, over the parameters that stand for their equality classes.
pub(super) struct Alternative {
    join: Vec<JoinAtom>,
    /// Each parameter's representative: the parameter of its class whose value it takes.
    representative: Vec<usize>,
    /// A representative's value when an equality with an object fixes it.
    fixed: Vec<Option<u32>>,
    /// For each representative, the objects every type of its class allows, also as a mask.
    members: Vec<Vec<u32>>,
    allowed: Vec<Vec<bool>>,
}

/// How much of the condition narrows the candidates.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Narrowing {
    /// Disjunctions split, equalities applied.
    Split,
    /// Only the top-level conjunction's atoms (for tests: the candidates before splitting).
    #[cfg_attr(not(test), allow(dead_code))]
    AtomsOnly,
}

/// What a conjunction needs: reached atoms, and equal arguments.
#[derive(Clone, Default)]
struct Needs {
    atoms: Vec<JoinAtom>,
    equal: Vec<(Arg, Arg)>,
}

/// The alternatives of a schema's condition, given each parameter's objects (as a list and a
/// mask); none when no binding can satisfy the equalities of any.
pub(super) fn alternatives(
    condition: Option<&Gd>,
    parameters: &[Typed<Variable>],
    world: &World,
    members: &[Vec<u32>],
    allowed: &[Vec<bool>],
    narrowing: Narrowing,
) -> Vec<Alternative> {
    let mut base = Needs::default();
    let mut disjunctions = Vec::new();
    if let Some(gd) = condition {
        collect(gd, parameters, world, &mut base, Some(&mut disjunctions));
    }
    if narrowing == Narrowing::AtomsOnly {
        base.equal.clear();
        disjunctions.clear();
    }
    let mut combined = vec![base];
    for disjuncts in disjunctions {
        if combined.len() * disjuncts.len() > MAX_ALTERNATIVES {
            continue;
        }
        combined = combined
            .iter()
            .flat_map(|needs| {
                disjuncts.iter().map(move |extra| {
                    let mut needs = needs.clone();
                    needs.atoms.extend(extra.atoms.iter().cloned());
                    needs.equal.extend(extra.equal.iter().copied());
                    needs
                })
            })
            .collect();
    }
    combined
        .into_iter()
        .filter_map(|needs| alternative(needs, members, allowed))
        .collect()
}

/// The atoms and equalities of a conjunction; its disjunctions, each as its disjuncts' needs,
/// when `disjunctions` is given (nested ones are left to the condition check).
fn collect(
    gd: &Gd,
    parameters: &[Typed<Variable>],
    world: &World,
    out: &mut Needs,
    disjunctions: Option<&mut Vec<Vec<Needs>>>,
) {
    match &gd.kind {
        GdKind::And { args } => {
            let mut disjunctions = disjunctions;
            for a in args {
                collect(a, parameters, world, out, disjunctions.as_deref_mut());
            }
        }
        GdKind::Or { args } => {
            if let Some(disjunctions) = disjunctions {
                let disjuncts = args
                    .iter()
                    .map(|a| {
                        let mut needs = Needs::default();
                        collect(a, parameters, world, &mut needs, None);
                        needs
                    })
                    .collect();
                disjunctions.push(disjuncts);
            }
        }
        GdKind::Atom(atom) if atom.predicate.text == "=" => {
            if let [l, r] = atom.args.as_slice()
                && let (Some(l), Some(r)) = (arg(l, parameters, world), arg(r, parameters, world))
            {
                out.equal.push((l, r));
            }
        }
        GdKind::Atom(atom) => {
            let Some(predicate) = world.predicate_id(&atom.predicate.key()) else {
                return;
            };
            let args: Option<Vec<Arg>> = atom
                .args
                .iter()
                .map(|t| arg(t, parameters, world))
                .collect();
            if let Some(args) = args {
                out.atoms.push(JoinAtom { predicate, args });
            }
        }
        _ => {}
    }
}

/// A term as a parameter's position or an object; `None` for a quantified variable or a name
/// that is no object.
fn arg(term: &Term, parameters: &[Typed<Variable>], world: &World) -> Option<Arg> {
    match term {
        Term::Variable(v) => parameters
            .iter()
            .position(|p| p.item.name == v.name)
            .map(Arg::Parameter),
        Term::Name(n) => world.object(&n.text).map(Arg::Object),
    }
}

/// The parameters' equality classes and the objects each may take, or `None` when the
/// equalities cannot all hold (two objects, or an object its types do not allow).
fn alternative(needs: Needs, members: &[Vec<u32>], allowed: &[Vec<bool>]) -> Option<Alternative> {
    let n = members.len();
    let mut representative: Vec<usize> = (0..n).collect();
    fn find(representative: &mut [usize], p: usize) -> usize {
        let mut root = p;
        while representative[root] != root {
            root = representative[root];
        }
        representative[p] = root;
        root
    }
    let mut fixes = Vec::new();
    for &(l, r) in &needs.equal {
        match (l, r) {
            (Arg::Parameter(a), Arg::Parameter(b)) => {
                let (a, b) = (find(&mut representative, a), find(&mut representative, b));
                // The smaller position represents the class, so the order is stable.
                representative[a.max(b)] = a.min(b);
            }
            (Arg::Parameter(p), Arg::Object(o)) | (Arg::Object(o), Arg::Parameter(p)) => {
                fixes.push((p, o))
            }
            (Arg::Object(a), Arg::Object(b)) if a != b => return None,
            (Arg::Object(_), Arg::Object(_)) => {}
        }
    }
    for p in 0..n {
        find(&mut representative, p);
    }
    let mut fixed = vec![None; n];
    for (p, o) in fixes {
        let slot = &mut fixed[representative[p]];
        match *slot {
            Some(other) if other != o => return None,
            _ => *slot = Some(o),
        }
    }
    let mut class_allowed: Vec<Vec<bool>> = vec![Vec::new(); n];
    for p in 0..n {
        let rep = representative[p];
        if class_allowed[rep].is_empty() {
            class_allowed[rep] = allowed[rep].clone();
        }
        if p != rep {
            for (slot, &ok) in class_allowed[rep].iter_mut().zip(&allowed[p]) {
                *slot &= ok;
            }
        }
    }
    let mut class_members = vec![Vec::new(); n];
    for rep in (0..n).filter(|&p| representative[p] == p) {
        if let Some(o) = fixed[rep]
            && class_allowed[rep].get(o as usize) != Some(&true)
        {
            return None;
        }
        class_members[rep] = members[rep]
            .iter()
            .copied()
            .filter(|&o| class_allowed[rep].get(o as usize) == Some(&true))
            .collect();
    }
    let join = needs
        .atoms
        .into_iter()
        .map(|atom| JoinAtom {
            predicate: atom.predicate,
            args: atom
                .args
                .into_iter()
                .map(|a| match a {
                    Arg::Parameter(p) => Arg::Parameter(representative[p]),
                    object => object,
                })
                .collect(),
        })
        .collect();
    Some(Alternative {
        join,
        representative,
        fixed,
        members: class_members,
        allowed: class_allowed,
    })
}

impl Grounder<'_, '_> {
    /// Calls `f` once with every assignment of objects to the schema's parameters (of their
    /// types) under which some alternative's atoms are reached and its equalities hold.
    pub(super) fn enumerate(
        &self,
        schema: &Schema,
        budget: &Budget,
        f: &mut dyn FnMut(&[u32]),
    ) -> Result<(), GroundFailure> {
        let several = schema.alternatives.len() > 1;
        let mut seen: HashSet<Box<[u32]>> = HashSet::new();
        let mut count = 0usize;
        let mut full = vec![0; schema.parameters.len()];
        for alternative in &schema.alternatives {
            let mut values = alternative.fixed.clone();
            let mut used = vec![false; alternative.join.len()];
            let mut emit = |values: &[Option<u32>]| {
                for (slot, &rep) in full.iter_mut().zip(&alternative.representative) {
                    *slot = values[rep].unwrap_or(0);
                }
                if !several || seen.insert(full.as_slice().into()) {
                    f(&full);
                }
            };
            let mut walk = Walk {
                alternative,
                budget,
                count: &mut count,
                emit: &mut emit,
            };
            self.join(&mut walk, &mut values, &mut used)?;
        }
        Ok(())
    }

    fn join(
        &self,
        walk: &mut Walk,
        values: &mut Vec<Option<u32>>,
        used: &mut Vec<bool>,
    ) -> Result<(), GroundFailure> {
        let alternative = walk.alternative;
        // The next atom: the one with the most arguments already bound, then the fewest facts.
        let next = (0..alternative.join.len())
            .filter(|&i| !used[i])
            .max_by_key(|&i| {
                let atom = &alternative.join[i];
                let bound = atom
                    .args
                    .iter()
                    .filter(|a| match a {
                        Arg::Parameter(p) => values[*p].is_some(),
                        Arg::Object(_) => true,
                    })
                    .count();
                let facts = self
                    .reached
                    .by_predicate
                    .get(atom.predicate as usize)
                    .map_or(0, Vec::len);
                (bound, usize::MAX - facts)
            });
        let Some(next) = next else {
            return self.rest(walk, values, 0);
        };
        used[next] = true;
        let atom = &alternative.join[next];
        let facts = self
            .reached
            .by_predicate
            .get(atom.predicate as usize)
            .map_or(&[][..], Vec::as_slice);
        let mut bound_here = Vec::new();
        for fact in facts {
            if fact.len() != atom.args.len() + 1 {
                continue;
            }
            bound_here.clear();
            let mut fits = true;
            for (arg, &object) in atom.args.iter().zip(&fact[1..]) {
                match *arg {
                    Arg::Object(o) => fits = o == object,
                    Arg::Parameter(p) => match values[p] {
                        Some(v) => fits = v == object,
                        None => {
                            fits = alternative.allowed[p].get(object as usize) == Some(&true);
                            if fits {
                                values[p] = Some(object);
                                bound_here.push(p);
                            }
                        }
                    },
                }
                if !fits {
                    break;
                }
            }
            if fits {
                self.join(walk, values, used)?;
            }
            for &p in &bound_here {
                values[p] = None;
            }
        }
        used[next] = false;
        Ok(())
    }

    /// The representatives no joined atom binds range over their classes' objects.
    fn rest(
        &self,
        walk: &mut Walk,
        values: &mut Vec<Option<u32>>,
        at: usize,
    ) -> Result<(), GroundFailure> {
        if at == values.len() {
            *walk.count += 1;
            if (*walk.count).is_multiple_of(4096) && walk.budget.expired(0) {
                return Err(GroundFailure::Limit);
            }
            (walk.emit)(values);
            return Ok(());
        }
        if values[at].is_some() || walk.alternative.representative[at] != at {
            return self.rest(walk, values, at + 1);
        }
        let alternative = walk.alternative;
        for &o in &alternative.members[at] {
            values[at] = Some(o);
            self.rest(walk, values, at + 1)?;
        }
        values[at] = None;
        Ok(())
    }
}

/// One alternative's enumeration: where it reports, and the shared budget check.
struct Walk<'a, 'e> {
    alternative: &'a Alternative,
    budget: &'a Budget,
    count: &'a mut usize,
    emit: &'e mut dyn FnMut(&[Option<u32>]),
}

#[cfg(test)]
mod tests {
    use super::super::ground_with;
    use super::Narrowing;
    use crate::diagnostics::FileId;
    use crate::solve::Budget;

    const FIXTURE: [(&str, &str); 2] = [
        (
            include_str!("../../../fixtures/solve/solved_disjunctive_equalities/domain.pddl"),
            include_str!("../../../fixtures/solve/solved_disjunctive_equalities/problem.pddl"),
        ),
        (
            include_str!("../../../domains/blocksworld/domain.pddl"),
            include_str!("../../../domains/blocksworld/problem.pddl"),
        ),
    ];

    /// The operators' names, sorted, and the axioms' heads and bodies as text.
    fn ground_task(
        domain: &str,
        problem: &str,
        narrowing: Narrowing,
    ) -> (Vec<String>, Vec<String>) {
        let domain = crate::parse::domain(domain).value.expect("domain parses");
        let problem = crate::parse::problem(problem)
            .value
            .expect("problem parses");
        let budget = Budget {
            deadline: None,
            memory: None,
        };
        let Ok(grounded) = ground_with(&domain, &problem, FileId(1), &budget, narrowing) else {
            panic!("grounding failed");
        };
        let task = grounded.task;
        let mut operators: Vec<String> = task.operators.iter().map(|o| o.name.clone()).collect();
        operators.sort();
        let mut axioms: Vec<String> = task
            .strata
            .iter()
            .flatten()
            .map(|a| format!("{} <- {:?}", task.atoms[a.head as usize], a.body))
            .collect();
        axioms.sort();
        (operators, axioms)
    }

    #[test]
    fn splitting_disjunctions_finds_the_same_instances() {
        for (domain, problem) in FIXTURE {
            let split = ground_task(domain, problem, Narrowing::Split);
            let atoms_only = ground_task(domain, problem, Narrowing::AtomsOnly);
            assert_eq!(split, atoms_only);
            assert!(split.0.len() >= 20, "{:?}", split.0);
        }
        let (operators, axioms) = ground_task(FIXTURE[0].0, FIXTURE[0].1, Narrowing::Split);
        // From (at c1 c1) heading right: every step whose case matches its direction.
        assert!(operators.contains(&"(step c1 c1 right c2 c1)".to_string()));
        assert!(
            !operators
                .iter()
                .any(|o| o.starts_with("(step c1 c1 right c1"))
        );
        assert!(operators.contains(&"(turn left down)".to_string()));
        assert!(!operators.contains(&"(turn right down)".to_string()));
        assert_eq!(axioms.len(), 2, "{axioms:?}");
    }
}
