//! Counterexamples: a difference found by `decide` written as a one-step problem and plan for
//! each domain, and kept only when pddlc's own validator gives the two opposite verdicts.

use super::decide::{Difference, Kind, Label, TermInfo};
use super::lift::AtomKey;
use crate::ast::{Action, Domain};
use crate::validate::{ValidateOptions, validate};
use std::collections::HashMap;

/// How one domain spells the shared keys (folded gold names, or `pred:NAME`).
pub struct Spelling<'a> {
    pub domain: &'a Domain,
    /// The action's name as this domain writes it.
    pub action: String,
    /// Per parameter of this domain's action, the gold parameter it stands for (`None`: the
    /// gold's own order).
    pub order: Option<Vec<usize>>,
    pub predicates: HashMap<String, String>,
    pub types: HashMap<String, String>,
    pub constants: HashMap<String, String>,
    /// Whether objects are written with types.
    pub typed: bool,
}

/// A counterexample's texts for one domain.
#[derive(Clone, Debug, PartialEq)]
pub struct Texts {
    pub problem: String,
    pub plan: String,
}

/// A difference made concrete: the objects (or constants) standing for each block, the
/// initial state, the goal, and whose domain accepts the plan.
pub struct Scenario {
    /// Per block: its name, and the folded gold type of an object (`None` for a constant).
    blocks: Vec<(String, Option<String>)>,
    init: Vec<u32>,
    goal: Vec<u32>,
    /// Per gold parameter, its block.
    step: Vec<usize>,
    pub gold_accepts: bool,
    difference: Difference,
}

impl Scenario {
    pub fn new(
        difference: &Difference,
        terms: &[TermInfo],
        gold_action: &Action,
        supertypes: &dyn Fn(&str) -> Vec<String>,
    ) -> Scenario {
        let count = difference.blocks.iter().max().map_or(0, |m| m + 1);
        let mut blocks: Vec<(String, Option<String>)> = Vec::with_capacity(count);
        for block in 0..count {
            let members: Vec<&TermInfo> = terms
                .iter()
                .zip(&difference.blocks)
                .filter(|(_, b)| **b == block)
                .map(|(t, _)| t)
                .collect();
            let constant = members.iter().find_map(|t| match &t.label {
                Label::Constant(c) => Some(c.clone()),
                Label::Parameter(_) => None,
            });
            let entry = match constant {
                Some(c) => (c, None),
                None => {
                    let base = members
                        .iter()
                        .find_map(|t| match t.label {
                            Label::Parameter(i) => {
                                gold_action.parameters.get(i).map(|p| p.item.name.key())
                            }
                            Label::Constant(_) => None,
                        })
                        .unwrap_or_else(|| format!("o{block}"));
                    let mut name = base.clone();
                    let mut n = 1;
                    while blocks.iter().any(|(b, _)| *b == name)
                        || terms
                            .iter()
                            .any(|t| t.label == Label::Constant(name.clone()))
                    {
                        n += 1;
                        name = format!("{base}{n}");
                    }
                    (name, Some(most_specific(&members, supertypes)))
                }
            };
            blocks.push(entry);
        }
        let step = (0..gold_action.parameters.len())
            .map(|i| {
                terms
                    .iter()
                    .position(|t| t.label == Label::Parameter(i))
                    .map_or(0, |at| difference.blocks[at])
            })
            .collect();
        let (goal, gold_accepts) = match difference.kind {
            Kind::GoldOnly => (difference.after_gold.clone(), true),
            Kind::PredOnly => (difference.after_pred.clone(), false),
            Kind::Effects { gold_true } => (difference.told_apart.into_iter().collect(), gold_true),
        };
        Scenario {
            blocks,
            init: difference
                .true_atoms
                .iter()
                .copied()
                .filter(|&a| is_fact(difference, a))
                .collect(),
            goal: goal
                .into_iter()
                .filter(|&a| is_fact(difference, a))
                .collect(),
            step,
            gold_accepts,
            difference: difference.clone(),
        }
    }

    /// An atom as text, in one domain's spelling; `None` when that domain lacks its predicate.
    fn atom(&self, atom: u32, spelling: &Spelling) -> Option<String> {
        let AtomKey::Fact { predicate, args } = self.difference.atoms.get(atom as usize)? else {
            return None;
        };
        let name = spelling.predicates.get(predicate)?;
        let mut text = format!("({name}");
        for &b in args {
            text.push(' ');
            text.push_str(&self.block_name(b, spelling));
        }
        text.push(')');
        Some(text)
    }

    fn block_name(&self, block: usize, spelling: &Spelling) -> String {
        let (name, _) = &self.blocks[block];
        spelling
            .constants
            .get(name)
            .cloned()
            .unwrap_or_else(|| name.trim_start_matches("pred:").to_string())
    }

    /// The step as text in one domain's spelling.
    pub fn step_text(&self, spelling: &Spelling) -> String {
        let mut text = format!("({}", spelling.action);
        let order: Vec<usize> = match &spelling.order {
            Some(order) => order.clone(),
            None => (0..self.step.len()).collect(),
        };
        for b in order.iter().filter_map(|&i| self.step.get(i).copied()) {
            text.push(' ');
            text.push_str(&self.block_name(b, spelling));
        }
        text.push(')');
        text
    }

    /// The problem and the plan for one domain.
    pub fn texts(&self, spelling: &Spelling) -> Texts {
        let mut objects = String::new();
        for (block, (name, ty)) in self.blocks.iter().enumerate() {
            // A constant the other domain declares and this one lacks is an object here.
            let is_constant = ty.is_none() && spelling.constants.contains_key(name);
            if is_constant {
                continue;
            }
            objects.push(' ');
            objects.push_str(&self.block_name(block, spelling));
            if spelling.typed {
                let gold_type = ty.clone().unwrap_or_else(|| "object".to_string());
                let written = spelling.types.get(&gold_type).cloned().unwrap_or(gold_type);
                objects.push_str(&format!(" - {written}"));
            }
        }
        let atoms = |list: &[u32]| -> String {
            list.iter()
                .filter_map(|&a| self.atom(a, spelling))
                .map(|a| format!(" {a}"))
                .collect()
        };
        let problem = format!(
            "(define (problem functional-counterexample)\n  (:domain {})\n  (:objects{objects})\n  (:init{})\n  (:goal (and{})))\n",
            spelling.domain.name.text,
            atoms(&self.init),
            atoms(&self.goal),
        );
        Texts {
            problem,
            plan: format!("{}\n", self.step_text(spelling)),
        }
    }

    /// A sentence a model can act on.
    pub fn explanation(&self, gold: &Spelling) -> String {
        let d = &self.difference;
        let holding: Vec<String> = self
            .init
            .iter()
            .filter_map(|&a| self.atom(a, gold))
            .collect();
        let lacking: Vec<String> = d
            .read
            .iter()
            .filter(|a| !d.true_atoms.contains(a))
            .filter_map(|&a| self.atom(a, gold))
            .take(5)
            .collect();
        let mut state = match holding.len() {
            0 => "no atom holds".to_string(),
            1 => format!("{} holds", holding[0]),
            _ => format!("{} hold", holding.join(" and ")),
        };
        if !lacking.is_empty() {
            let verb = if lacking.len() == 1 { "does" } else { "do" };
            state.push_str(&format!(" and {} {verb} not", lacking.join(" and ")));
        }
        let step = self.step_text(gold);
        let what = match d.kind {
            Kind::GoldOnly => {
                "is applicable under the gold domain but not under the predicted one".to_string()
            }
            Kind::PredOnly => {
                "is applicable under the predicted domain but not under the gold one".to_string()
            }
            Kind::Effects { gold_true } => {
                let atom = d
                    .told_apart
                    .and_then(|a| self.atom(a, gold))
                    .unwrap_or_default();
                let (yes, no) = if gold_true {
                    ("gold", "predicted")
                } else {
                    ("predicted", "gold")
                };
                format!(
                    "is applicable under both domains, but afterwards {atom} holds under the {yes} domain and not under the {no} one"
                )
            }
        };
        format!("in a state where {state}, {step} {what}")
    }
}

fn is_fact(difference: &Difference, atom: u32) -> bool {
    matches!(
        difference.atoms.get(atom as usize),
        Some(AtomKey::Fact { .. })
    )
}

/// The type among the members' alternatives that fits every member.
fn most_specific(members: &[&TermInfo], supertypes: &dyn Fn(&str) -> Vec<String>) -> String {
    let candidates = members.iter().flat_map(|t| t.types.iter());
    for candidate in candidates {
        let ancestors = supertypes(candidate);
        if members
            .iter()
            .all(|m| m.types.iter().any(|t| ancestors.contains(t)))
        {
            return candidate.clone();
        }
    }
    "object".to_string()
}

/// Why the texts do not show the difference, or `None` when the validator accepts the plan
/// under exactly the domain that should accept it.
pub fn unconfirmed(domain: &Domain, texts: &Texts, accepts: bool) -> Option<String> {
    let parsed = crate::parse::problem(&texts.problem);
    let Some(problem) = parsed.value else {
        return Some("the problem does not parse".to_string());
    };
    let errors: Vec<String> = crate::check::problem(domain, &problem, Default::default())
        .into_iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect();
    if let Some(first) = errors.first() {
        return Some(format!(
            "the problem does not check against `{}`: {first}",
            domain.name.text
        ));
    }
    let report = validate(domain, &problem, &texts.plan, &ValidateOptions::default());
    match report.valid {
        Some(valid) if valid == accepts => None,
        other => Some(format!(
            "the validator says {other:?} under `{}`, where {accepts} was expected",
            domain.name.text
        )),
    }
}
