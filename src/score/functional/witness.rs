//! Counterexamples: a difference found by `decide` written as a one-step problem and plan for
//! each domain, and kept only when pddlc's own validator gives the two opposite verdicts.

use super::decide::{Difference, Kind, Label, TermInfo};
use super::lift::AtomKey;
use crate::ast::{Action, Domain, Type};
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
    /// Whether this is the gold domain's spelling (the prediction writes a gold type it lacks
    /// as `object`).
    pub gold_side: bool,
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
    /// Per gold parameter, its declared type (folded; the first of an `either`).
    parameter_types: Vec<String>,
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
                    let ty = chosen_type(difference, block)
                        .unwrap_or_else(|| most_specific(&members, supertypes));
                    (fresh_name(&base, &blocks, terms, difference), Some(ty))
                }
            };
            blocks.push(entry);
        }
        let universe = &difference.universe;
        let unnamed = universe.fixed.len() - universe.unnamed_constants.len();
        for object in count..unnamed {
            let ty = chosen_type(difference, object).unwrap_or_else(|| "object".to_string());
            let name = fresh_name("obj", &blocks, terms, difference);
            blocks.push((name, Some(ty)));
        }
        for label in &universe.unnamed_constants {
            blocks.push((label.clone(), None));
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
                .filter(|&a| is_fact(difference, a) && !difference.ill_typed.contains(&a))
                .collect(),
            step,
            gold_accepts,
            difference: difference.clone(),
            parameter_types: gold_action
                .parameters
                .iter()
                .map(|p| first_type(p.ty.as_ref()))
                .collect(),
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
        let mut typed_objects: Vec<(String, String)> = spelling
            .domain
            .constants
            .iter()
            .map(|c| (c.item.text.to_string(), first_type(c.ty.as_ref())))
            .collect();
        for (block, (name, ty)) in self.blocks.iter().enumerate() {
            // A constant the other domain declares and this one lacks is an object here.
            let is_constant = ty.is_none() && spelling.constants.contains_key(name);
            if is_constant {
                continue;
            }
            objects.push(' ');
            objects.push_str(&self.block_name(block, spelling));
            let mut object_type = "object".to_string();
            if spelling.typed {
                let gold_type = ty.clone().unwrap_or_else(|| "object".to_string());
                // A type this domain lacks is one the other, untyped, domain declares.
                let written = match spelling.types.get(&gold_type) {
                    Some(written) => written.clone(),
                    None if spelling.gold_side && !gold_type.starts_with("pred:") => gold_type,
                    None => "object".to_string(),
                };
                objects.push_str(&format!(" - {written}"));
                object_type = written;
            }
            typed_objects.push((self.block_name(block, spelling), object_type));
        }
        let atoms = |list: &[u32]| -> String {
            list.iter()
                .filter_map(|&a| self.atom(a, spelling))
                .map(|a| format!(" {a}"))
                .collect()
        };
        let problem = format!(
            "(define (problem functional-counterexample)\n  (:domain {})\n  (:objects{objects})\n  (:init{}{})\n  (:goal (and{})))\n",
            spelling.domain.name.text,
            atoms(&self.init),
            function_values(spelling.domain, &typed_objects),
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
        format!(
            "{}in a state where {state}, {step} {what}",
            self.typed_objects(gold)
        )
    }

    /// "with objects `a - t`, …, " for the step's objects declared with another type than the
    /// gold parameter's (which may be what makes the difference).
    fn typed_objects(&self, spelling: &Spelling) -> String {
        if self.difference.universe.typing.is_none() {
            return String::new();
        }
        let mut seen = Vec::new();
        for (&b, declared) in self.step.iter().zip(&self.parameter_types) {
            let differs = self.blocks[b].1.as_ref().is_some_and(|ty| ty != declared);
            if differs && !seen.contains(&b) {
                seen.push(b);
            }
        }
        let objects: Vec<String> = seen
            .iter()
            .filter_map(|&b| {
                let ty = self.blocks[b].1.as_ref()?;
                let written = spelling.types.get(ty).cloned().unwrap_or(ty.clone());
                Some(format!("{} - {written}", self.block_name(b, spelling)))
            })
            .collect();
        if objects.is_empty() {
            return String::new();
        }
        format!("with objects {}, ", objects.join(", "))
    }
}

/// The most numeric values given in a counterexample's initial state.
const MAX_VALUES: usize = 256;

/// A value for every numeric function of the domain over the problem's objects (as far as
/// [`MAX_VALUES`]), so that an effect or a metric reading one is defined: `total-cost` starts at
/// 0, every other at 1.
fn function_values(domain: &Domain, objects: &[(String, String)]) -> String {
    let parents: HashMap<String, String> = domain
        .types
        .iter()
        .map(|t| (t.item.key(), first_type(t.ty.as_ref())))
        .collect();
    let fits = |ty: &str, wanted: &str| {
        let mut at = ty.to_lowercase();
        for _ in 0..=parents.len() {
            if at == wanted || wanted == "object" {
                return true;
            }
            match parents.get(&at) {
                Some(parent) => at = parent.clone(),
                None => return false,
            }
        }
        false
    };
    let mut text = String::new();
    let mut count = 0;
    for function in &domain.functions {
        let numeric = function.ty.as_ref().is_none_or(|t| match t {
            Type::Name(n) => n.is("number"),
            Type::Either { .. } => false,
        });
        if !numeric {
            continue;
        }
        let value = if function.name.is("total-cost") { 0 } else { 1 };
        let wanted: Vec<String> = function
            .parameters
            .iter()
            .map(|p| first_type(p.ty.as_ref()))
            .collect();
        let mut tuples: Vec<Vec<&str>> = vec![Vec::new()];
        for want in &wanted {
            tuples = tuples
                .into_iter()
                .flat_map(|tuple| {
                    objects
                        .iter()
                        .filter(|(_, ty)| fits(ty, want))
                        .map(move |(name, _)| {
                            let mut longer = tuple.clone();
                            longer.push(name.as_str());
                            longer
                        })
                })
                .take(MAX_VALUES)
                .collect();
        }
        for tuple in tuples {
            if count == MAX_VALUES {
                return text;
            }
            count += 1;
            let args: String = tuple.iter().map(|a| format!(" {a}")).collect();
            text.push_str(&format!(" (= ({}{args}) {value})", function.name.text));
        }
    }
    text
}

/// A declared type's (first) name, folded; `object` when none is written.
fn first_type(ty: Option<&Type>) -> String {
    match ty {
        Some(Type::Name(n)) => n.key(),
        Some(Type::Either { types, .. }) => types.first().map_or("object".to_string(), |n| n.key()),
        None => "object".to_string(),
    }
}

/// The type the difference declares an object with, if it chose one.
fn chosen_type(difference: &Difference, object: usize) -> Option<String> {
    difference
        .true_atoms
        .iter()
        .find_map(|&a| match difference.atoms.get(a as usize) {
            Some(AtomKey::Type { object: o, ty }) if *o == object => Some(ty.clone()),
            _ => None,
        })
}

/// `base`, or `base2`, `base3`…: a name no object and no constant has yet.
fn fresh_name(
    base: &str,
    blocks: &[(String, Option<String>)],
    terms: &[TermInfo],
    difference: &Difference,
) -> String {
    let taken = |name: &str| {
        blocks.iter().any(|(b, _)| b == name)
            || terms
                .iter()
                .any(|t| t.label == Label::Constant(name.to_string()))
            || difference
                .universe
                .unnamed_constants
                .iter()
                .any(|c| c == name)
    };
    let mut name = base.to_string();
    let mut n = 1;
    while taken(&name) {
        n += 1;
        name = format!("{base}{n}");
    }
    name
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
