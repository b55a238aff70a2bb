//! The naming and type context two domains share, and the verdict of one action pair.

use super::decide::{self, Decision, Difference, Names};
use super::identical;
use super::witness::{self, Scenario, Spelling};
use super::{
    ActionResult, ActionVerdict, Context, Counterexample, Functional, Spellings, verdict_name,
};
use crate::ast::{Action, Domain, Gd, GdKind, Name, Type, Typed};
use std::collections::{BTreeSet, HashMap};

/// Each declared type's supertypes (folded), `object` left out: a type declared without a
/// parent and one declared `- object` are the same.
fn folded_parents(types: &[Typed<Name>]) -> HashMap<String, Vec<String>> {
    let mut parents: HashMap<String, Vec<String>> = HashMap::new();
    for typed in types {
        let named: Vec<String> = match &typed.ty {
            Some(Type::Name(n)) => vec![n.key()],
            Some(Type::Either { types, .. }) => types.iter().map(Name::key).collect(),
            None => Vec::new(),
        };
        let named = named.into_iter().filter(|t| t != "object");
        parents.entry(typed.item.key()).or_default().extend(named);
    }
    parents.retain(|_, list| {
        list.sort();
        list.dedup();
        !list.is_empty()
    });
    parents
}

fn ancestors(parents: &HashMap<String, Vec<String>>) -> HashMap<String, Vec<String>> {
    let mut all: HashMap<String, Vec<String>> = HashMap::new();
    let mut keys: Vec<&String> = parents.keys().collect();
    keys.extend(parents.values().flatten());
    for start in keys {
        let mut seen = vec![start.clone()];
        let mut at = 0;
        while at < seen.len() {
            for parent in parents.get(&seen[at]).into_iter().flatten() {
                if !seen.contains(parent) {
                    seen.push(parent.clone());
                }
            }
            at += 1;
        }
        if !seen.iter().any(|t| t == "object") {
            seen.push("object".to_string());
        }
        all.insert(start.clone(), seen);
    }
    all
}

/// How each domain spells the shared keys of predicates, types and constants; `shared` maps
/// the prediction's folded names of each to the shared keys.
fn spellings(
    gold: &Domain,
    pred: &Domain,
    shared: [&HashMap<String, String>; 3],
) -> (Spellings, Spellings) {
    let gold_spelling: Spellings = [
        written(gold.predicates.iter().map(|p| &p.name)),
        written(gold.types.iter().map(|t| &t.item)),
        written(gold.constants.iter().map(|c| &c.item)),
    ];
    let by_shared = |own: &HashMap<String, String>, names: HashMap<String, String>| {
        names
            .into_iter()
            .filter_map(|(key, text)| Some((own.get(&key)?.clone(), text)))
            .collect()
    };
    let pred_spelling: Spellings = [
        by_shared(shared[0], written(pred.predicates.iter().map(|p| &p.name))),
        by_shared(shared[1], written(pred.types.iter().map(|t| &t.item))),
        by_shared(shared[2], written(pred.constants.iter().map(|c| &c.item))),
    ];
    (gold_spelling, pred_spelling)
}

/// Each predicted name (folded) → its shared key: the gold name it is aligned with (folded), or
/// `pred:NAME` when it has none.
fn shared_keys<'n>(
    aligned: &[(String, String)],
    names: impl Iterator<Item = &'n Name>,
) -> HashMap<String, String> {
    let partners: HashMap<String, String> = aligned
        .iter()
        .map(|(g, p)| (p.to_lowercase(), g.to_lowercase()))
        .collect();
    names
        .map(|name| {
            let key = name.key();
            let shared = partners.get(&key).cloned().unwrap_or(format!("pred:{key}"));
            (key, shared)
        })
        .collect()
}

/// Each predicate (its shared key) → its parameters' declared types, as shared keys.
fn parameter_types(
    domain: &Domain,
    keys: &HashMap<String, String>,
    to_type: &dyn Fn(&String) -> String,
) -> HashMap<String, Vec<Vec<String>>> {
    domain
        .predicates
        .iter()
        .map(|p| {
            let key = p.name.key();
            let shared = keys.get(&key).cloned().unwrap_or(key);
            let types = p
                .parameters
                .iter()
                .map(|v| {
                    decide::type_names(v.ty.as_ref())
                        .iter()
                        .map(to_type)
                        .collect()
                })
                .collect();
            (shared, types)
        })
        .collect()
}

/// The constants of both domains: each one's types (the gold's where both declare it), each
/// with its declared types on both sides, and whether the two domains type one differently.
#[allow(clippy::type_complexity)]
fn constants_of(
    gold: &Domain,
    pred: &Domain,
    pred_constants: &HashMap<String, String>,
    to_gold_type: &dyn Fn(&String) -> String,
) -> (
    HashMap<String, Vec<String>>,
    Vec<(String, [Vec<String>; 2])>,
    bool,
) {
    let mut differ = false;
    let mut constant_types: HashMap<String, Vec<String>> = gold
        .constants
        .iter()
        .map(|c| (c.item.key(), decide::type_names(c.ty.as_ref())))
        .collect();
    let mut pred_declared: HashMap<String, Vec<String>> = HashMap::new();
    for c in &pred.constants {
        let Some(shared) = pred_constants.get(&c.item.key()) else {
            continue;
        };
        let types: Vec<String> = decide::type_names(c.ty.as_ref())
            .iter()
            .map(to_gold_type)
            .collect();
        match constant_types.get(shared) {
            Some(gold_types) if *gold_types != types => differ = true,
            Some(_) => {}
            None => {
                constant_types.insert(shared.clone(), types.clone());
            }
        }
        pred_declared.insert(shared.clone(), types);
    }
    let mut constants: Vec<(String, [Vec<String>; 2])> = gold
        .constants
        .iter()
        .map(|c| {
            let key = c.item.key();
            let gold_types = decide::type_names(c.ty.as_ref());
            let pred_types = pred_declared.remove(&key).unwrap_or(gold_types.clone());
            (key, [gold_types, pred_types])
        })
        .collect();
    constants.extend(
        pred_declared
            .into_iter()
            .map(|(key, types)| (key, [types.clone(), types])),
    );
    constants.sort();
    (constant_types, constants, differ)
}

/// The types both domains know and each one's order of them (shared keys), when either
/// domain declares a type.
fn typing(
    gold: &Domain,
    pred: &Domain,
    gold_ancestors: &HashMap<String, Vec<String>>,
    to_gold_type: &dyn Fn(&String) -> String,
) -> Option<super::lift::Typing> {
    if gold.types.is_empty() && pred.types.is_empty() {
        return None;
    }
    let pred_ancestors: HashMap<String, Vec<String>> = ancestors(&folded_parents(&pred.types))
        .into_iter()
        .map(|(t, list)| (to_gold_type(&t), list.iter().map(to_gold_type).collect()))
        .collect();
    let known = |mut types: Vec<String>| {
        types.push("object".to_string());
        types.sort();
        types.dedup();
        types
    };
    let gold_known = known(declared_types(gold));
    let pred_known = known(declared_types(pred).iter().map(to_gold_type).collect());
    // The problems both domains accept; a domain that declares no type reads every declared
    // type as `object`, as if the problem's types were erased.
    let candidates = match (gold.types.is_empty(), pred.types.is_empty()) {
        (false, false) => gold_known
            .iter()
            .filter(|t| pred_known.contains(t))
            .cloned()
            .collect(),
        (false, true) => gold_known.clone(),
        _ => pred_known.clone(),
    };
    Some(super::lift::Typing {
        candidates,
        ancestors: [gold_ancestors.clone(), pred_ancestors],
        known: [gold_known, pred_known],
    })
}

/// Every type a domain names in `(:types …)`, declared or as a parent (folded).
fn declared_types(domain: &Domain) -> Vec<String> {
    let mut all = Vec::new();
    for typed in &domain.types {
        all.push(typed.item.key());
        match &typed.ty {
            Some(Type::Name(n)) => all.push(n.key()),
            Some(Type::Either { types, .. }) => all.extend(types.iter().map(Name::key)),
            None => {}
        }
    }
    all
}

fn written<'a>(pairs: impl Iterator<Item = &'a Name>) -> HashMap<String, String> {
    pairs.map(|n| (n.key(), n.text.to_string())).collect()
}

impl<'a> Context<'a> {
    pub(super) fn new(
        gold: &'a Domain,
        pred: &'a Domain,
        aligned: &super::align::Aligned,
    ) -> Context<'a> {
        let fold = |s: &String| s.to_lowercase();
        let mut pred_types: HashMap<String, String> = aligned
            .types
            .iter()
            .map(|(g, p)| (fold(p), fold(g)))
            .collect();
        pred_types
            .entry("object".to_string())
            .or_insert_with(|| "object".to_string());
        let to_gold_type = |t: &String| pred_types.get(t).cloned().unwrap_or(format!("pred:{t}"));
        let gold_edges: BTreeSet<(String, Vec<String>)> =
            folded_parents(&gold.types).into_iter().collect();
        let pred_edges: BTreeSet<(String, Vec<String>)> = folded_parents(&pred.types)
            .into_iter()
            .map(|(child, parents)| {
                let mut mapped: Vec<String> = parents.iter().map(to_gold_type).collect();
                mapped.sort();
                (to_gold_type(&child), mapped)
            })
            .collect();
        let mut types_differ = gold_edges != pred_edges;
        let gold_predicates: HashMap<String, String> = gold
            .predicates
            .iter()
            .map(|p| (p.name.key(), p.name.key()))
            .collect();
        let pred_predicates =
            shared_keys(&aligned.predicates, pred.predicates.iter().map(|p| &p.name));
        let pred_constants =
            shared_keys(&aligned.constants, pred.constants.iter().map(|c| &c.item));
        let (constant_types, constants, constants_differ) =
            constants_of(gold, pred, &pred_constants, &to_gold_type);
        types_differ |= constants_differ;
        // Every predicted type with its shared key (`pred:NAME` when it has no gold partner).
        let pred_type_keys: HashMap<String, String> = declared_types(pred)
            .into_iter()
            .map(|t| (t.clone(), to_gold_type(&t)))
            .chain([("object".to_string(), "object".to_string())])
            .collect();
        let (gold_spelling, pred_spelling) = spellings(
            gold,
            pred,
            [&pred_predicates, &pred_type_keys, &pred_constants],
        );
        let mut ancestors = ancestors(&folded_parents(&gold.types));
        ancestors
            .entry("object".to_string())
            .or_insert_with(|| vec!["object".to_string()]);
        let gold_keys: HashMap<String, String> = declared_types(gold)
            .into_iter()
            .chain(ancestors.keys().cloned())
            .map(|t| (t.clone(), t))
            .collect();
        let typing = typing(gold, pred, &ancestors, &to_gold_type);
        let predicate_types = [
            parameter_types(gold, &gold_predicates, &|t: &String| t.clone()),
            parameter_types(pred, &pred_predicates, &to_gold_type),
        ];
        let type_keys = [gold_keys, pred_type_keys];
        Context {
            gold,
            pred,
            ancestors,
            pred_types,
            predicates: (gold_predicates, pred_predicates),
            pred_constants,
            constant_types,
            constants,
            type_keys,
            typing,
            predicate_types,
            types_differ,
            time_limit: None,
            spellings: (gold_spelling, pred_spelling),
        }
    }

    fn supertypes(&self, t: &str) -> Vec<String> {
        self.ancestors
            .get(t)
            .cloned()
            .unwrap_or_else(|| vec![t.to_string(), "object".to_string()])
    }

    fn spelling(&self, gold_side: bool, action: &Action, order: Option<&[usize]>) -> Spelling<'a> {
        let (domain, maps) = if gold_side {
            (self.gold, &self.spellings.0)
        } else {
            (self.pred, &self.spellings.1)
        };
        Spelling {
            domain,
            action: action.name.text.to_string(),
            order: order.map(<[usize]>::to_vec),
            predicates: maps[0].clone(),
            types: maps[1].clone(),
            constants: maps[2].clone(),
            gold_side,
            typed: !domain.types.is_empty() || domain.requirements.iter().any(|r| r.is(":typing")),
        }
    }

    /// The verdict of one aligned pair, and its counterexample (pushed into `out`).
    /// The verdict of `gold` against `pred`, whose parameter `j` stands for the gold's
    /// `order[j]`.
    pub(super) fn action(
        &self,
        gold: &Action,
        pred: &Action,
        order: &[usize],
        out: &mut Functional,
    ) -> ActionResult {
        if !gold.vars.is_empty() || !pred.vars.is_empty() {
            return self.action_with_vars(gold, pred, order, out);
        }
        // The prediction's parameters in the gold's order, so that positions correspond.
        let mut reordered = pred.clone();
        for (j, &i) in order.iter().enumerate() {
            if let (Some(slot), Some(parameter)) =
                (reordered.parameters.get_mut(i), pred.parameters.get(j))
            {
                *slot = parameter.clone();
            }
        }
        let pred_in_order = &reordered;
        let mut result = ActionResult {
            gold: Some(gold.name.text.to_string()),
            pred: Some(pred.name.text.to_string()),
            verdict: ActionVerdict::Unknown,
            reason: None,
        };
        if gold.parameters.len() != pred.parameters.len() {
            let reason = format!(
                "{} against {}",
                parameters(gold.parameters.len()),
                pred.parameters.len()
            );
            // No counterexample: a step with the wrong number of arguments is one VAL cannot
            // judge (it crashes on too few and ignores too many).
            result.verdict = ActionVerdict::DifferentParameters;
            result.reason = Some(reason);
            return result;
        }
        let same_types = gold
            .parameters
            .iter()
            .zip(&pred_in_order.parameters)
            .all(|(g, p)| {
                let pred_types: Vec<String> = decide::type_names(p.ty.as_ref())
                    .iter()
                    .map(|t| {
                        self.pred_types
                            .get(t)
                            .cloned()
                            .unwrap_or(format!("pred:{t}"))
                    })
                    .collect();
                decide::type_names(g.ty.as_ref()) == pred_types
            });
        if !self.types_differ && same_types && self.written_alike(gold, pred_in_order) {
            result.verdict = ActionVerdict::Equivalent;
            return result;
        }
        let supertypes = |t: &str| self.supertypes(t);
        let names = Names {
            gold_predicates: self.predicates.0.clone(),
            pred_predicates: self.predicates.1.clone(),
            pred_constants: self.pred_constants.clone(),
            supertypes: &supertypes,
            constant_types: self.constant_types.clone(),
            constants: self.constants.clone(),
            types: [&self.type_keys[0], &self.type_keys[1]],
            typing: self.typing.as_ref(),
            predicate_types: [&self.predicate_types[0], &self.predicate_types[1]],
            types_differ: self.types_differ || !same_types,
            shared: self
                .predicates
                .1
                .values()
                .filter(|k| !k.starts_with("pred:"))
                .cloned()
                .collect(),
            time_limit: self.time_limit,
        };
        let decision = decide::decide(gold, pred_in_order, &names);
        if let Some(reason) = decision.unsupported {
            result.reason = Some(reason);
            return result;
        }
        let Some((verdict, difference)) = verdict_of(&decision) else {
            match decision.doubt {
                Some(reason) => {
                    result.reason = Some(format!("no difference found, but not proved: {reason}"))
                }
                None => {
                    result.verdict = ActionVerdict::Equivalent;
                    if decision.costs_differ {
                        result.reason = Some(
                            "the same transitions, but the action costs differ: `total-cost` is \
                             the plan's metric, not part of the state"
                                .to_string(),
                        );
                    }
                }
            }
            return result;
        };
        let terms = decide::terms_of(gold, pred_in_order, &names);
        let scenario = Scenario::new(difference, &terms, gold, &supertypes);
        match self.counterexample(&scenario, gold, pred, order, verdict, out) {
            Ok(()) => result.verdict = verdict,
            Err(problem) => {
                result.reason = Some(format!("a difference found was not confirmed: {problem}"));
                out.notes.push(format!(
                    "bug: `{}`: the counterexample was not confirmed: {problem}",
                    gold.name.text
                ));
            }
        }
        result
    }

    /// A counterexample for an action only one side has (`verdict`: missing or extra): the
    /// other side gets a stand-in of the same name and parameters that is never applicable, so
    /// the decision finds a state where the action applies, and the one step there is a plan
    /// one domain accepts and the other rejects (it names an action that domain lacks). Kept,
    /// with `why` added to its explanation, only when the validator confirms it on both
    /// domains; otherwise there is none, and nothing is said.
    pub(super) fn one_sided(
        &self,
        action: &Action,
        gold_side: bool,
        (verdict, why): (ActionVerdict, &str),
        out: &mut Functional,
    ) {
        if !action.vars.is_empty() {
            return;
        }
        let mut stand_in = action.clone();
        stand_in.precondition = Some(Gd {
            kind: GdKind::Or { args: Vec::new() },
            span: action.span,
        });
        stand_in.effect = None;
        if !gold_side {
            // The stand-in is the gold's: its parameters' types in the gold's names.
            for parameter in &mut stand_in.parameters {
                if let Some(Type::Name(name)) = &mut parameter.ty
                    && let Some(gold) = self.pred_types.get(&name.key())
                {
                    name.text = gold.as_str().into();
                }
            }
        }
        let (gold, pred) = if gold_side {
            (action, &stand_in)
        } else {
            (&stand_in, action)
        };
        let identity: Vec<usize> = (0..action.parameters.len()).collect();
        let mut scratch = out.clone();
        self.action(gold, pred, &identity, &mut scratch);
        if let Some(mut example) = scratch
            .counterexamples
            .into_iter()
            .nth(out.counterexamples.len())
        {
            example.verdict = verdict;
            example.explanation = format!("{}: {why}", example.explanation);
            out.counterexamples.push(example);
        }
    }

    /// Whether the two actions are written alike in shared keys (`identical`; the caller has
    /// checked the types).
    fn written_alike(&self, gold: &Action, pred: &Action) -> bool {
        let gold_keys = identical::Keys {
            predicates: &self.predicates.0,
            constants: None,
            types: &self.type_keys[0],
            side: "gold",
        };
        let pred_keys = identical::Keys {
            predicates: &self.predicates.1,
            constants: Some(&self.pred_constants),
            types: &self.type_keys[1],
            side: "pred",
        };
        identical::canonical(gold, &gold_keys) == identical::canonical(pred, &pred_keys)
    }

    /// Two actions with PDDL 1.2 `:vars`, which the precondition binds (the first binding that
    /// satisfies it, in the order of their objects) and the plan does not name. When the vars
    /// correspond one to one and the actions, with the vars read as further parameters, are
    /// equivalent, then for every state the same bindings satisfy both preconditions, the first
    /// is the same, and so is its successor: equivalent. Otherwise a difference for one binding
    /// need not show (another binding may apply), so it is `unknown`, not `different`.
    fn action_with_vars(
        &self,
        gold: &Action,
        pred: &Action,
        order: &[usize],
        out: &Functional,
    ) -> ActionResult {
        let unknown = |reason: String| ActionResult {
            gold: Some(gold.name.text.to_string()),
            pred: Some(pred.name.text.to_string()),
            verdict: ActionVerdict::Unknown,
            reason: Some(reason),
        };
        if gold.vars.len() != pred.vars.len() || gold.parameters.len() != pred.parameters.len() {
            return unknown(format!(
                "PDDL 1.2 `:vars`: {} against {}, which the plan does not name: not decided",
                gold.vars.len(),
                pred.vars.len()
            ));
        }
        let with_vars = |action: &Action| {
            let mut extended = action.clone();
            extended.parameters.append(&mut extended.vars);
            extended
        };
        let mut extended_order = order.to_vec();
        extended_order.extend(order.len()..order.len() + gold.vars.len());
        let mut scratch = Functional::unknown(String::new());
        scratch.alignment = out.alignment.clone();
        let result = self.action(
            &with_vars(gold),
            &with_vars(pred),
            &extended_order,
            &mut scratch,
        );
        match result.verdict {
            ActionVerdict::Equivalent => ActionResult {
                reason: Some(match result.reason {
                    Some(costs) => format!("{costs}; its `:vars` are read as further parameters"),
                    None => "equivalent with its `:vars` read as further parameters, so the \
                             first binding that applies is the same"
                        .to_string(),
                }),
                ..result
            },
            _ => unknown(format!(
                "PDDL 1.2 `:vars`: the actions differ for some binding of them ({}), but \
                 another binding may apply: not decided",
                verdict_name(result.verdict)
            )),
        }
    }

    /// The scenario's texts for both domains, pushed into `out` when the validator confirms
    /// them; otherwise why not.
    fn counterexample(
        &self,
        scenario: &Scenario,
        gold: &Action,
        pred: &Action,
        order: &[usize],
        verdict: ActionVerdict,
        out: &mut Functional,
    ) -> Result<(), String> {
        let (gold_spelling, pred_spelling) = (
            self.spelling(true, gold, None),
            self.spelling(false, pred, Some(order)),
        );
        let (gold_texts, pred_texts) = (
            scenario.texts(&gold_spelling),
            scenario.texts(&pred_spelling),
        );
        let problem = witness::unconfirmed(self.gold, &gold_texts, scenario.gold_accepts)
            .or_else(|| witness::unconfirmed(self.pred, &pred_texts, !scenario.gold_accepts));
        if let Some(problem) = problem {
            return Err(problem);
        }
        // The prediction's own files when the alignment renames anything, or its atoms differ.
        let separate_pred = out.alignment.renames_anything() || pred_texts != gold_texts;
        let number = out.counterexamples.len() + 1;
        let stem = format!("{number:02}-{}", gold.name.text.to_lowercase());
        let pred_names = separate_pred.then(|| {
            (
                format!("{stem}.pred.problem.pddl"),
                format!("{stem}.pred.plan"),
            )
        });
        out.counterexamples.push(Counterexample {
            action: gold.name.text.to_string(),
            verdict,
            problem: format!("{stem}.problem.pddl"),
            plan: format!("{stem}.plan"),
            pred_problem: pred_names.as_ref().map(|n| n.0.clone()),
            pred_plan: pred_names.map(|n| n.1),
            explanation: scenario.explanation(&gold_spelling),
            gold_texts: (gold_texts.problem, gold_texts.plan),
            pred_texts: separate_pred.then_some((pred_texts.problem, pred_texts.plan)),
        });
        Ok(())
    }
}

/// The verdict a decision shows, with the difference to make concrete.
fn verdict_of(decision: &Decision) -> Option<(ActionVerdict, &Difference)> {
    match (&decision.gold_only, &decision.pred_only, &decision.effects) {
        (Some(d), Some(_), _) => Some((ActionVerdict::DifferentPrecondition, d)),
        (Some(d), None, _) => Some((ActionVerdict::StrongerPrecondition, d)),
        (None, Some(d), _) => Some((ActionVerdict::WeakerPrecondition, d)),
        (None, None, Some(d)) => Some((ActionVerdict::DifferentEffects, d)),
        (None, None, None) => None,
    }
}

/// "1 parameter", "2 parameters".
fn parameters(count: usize) -> String {
    match count {
        1 => "1 parameter".to_string(),
        n => format!("{n} parameters"),
    }
}
