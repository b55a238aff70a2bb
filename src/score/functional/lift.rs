//! One action schema under one equality partition of its terms, lifted to propositional
//! formulas over the objects of a small universe (`Universe`): its precondition, and for every
//! atom it writes the condition of each add and delete. Quantifiers are expanded over the
//! universe, an object taking part in a quantifier's range when its type fits (a proposition
//! when the object's type is open). Numeric effects are kept as canonical text.

use super::logic::{self, Formula};
use crate::ast::{Effect, EffectKind, Expr, ExprKind, Gd, GdKind, Name, Term, Typed, Variable};
use std::collections::HashMap;

/// A proposition of the lifted action pair: a predicate (by its gold name, or `pred:NAME` for a
/// predicate only the prediction declares) over objects of the universe, or "this object is
/// declared with this type" (a shared type key).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AtomKey {
    Fact { predicate: String, args: Vec<usize> },
    Type { object: usize, ty: String },
}

/// The propositions met so far, numbered.
#[derive(Debug, Default)]
pub struct Atoms {
    pub keys: Vec<AtomKey>,
    index: HashMap<AtomKey, u32>,
}

impl Atoms {
    pub fn id(&mut self, key: AtomKey) -> u32 {
        if let Some(&id) = self.index.get(&key) {
            return id;
        }
        let id = self.keys.len() as u32;
        self.index.insert(key.clone(), id);
        self.keys.push(key);
        id
    }
}

/// An add (`add`) or a delete of `atom` under `condition`.
#[derive(Clone, Debug)]
pub struct Write {
    pub atom: u32,
    pub add: bool,
    pub condition: Formula,
}

/// One action under one partition.
#[derive(Debug)]
pub struct Lifted {
    pub precondition: Formula,
    pub writes: Vec<Write>,
    /// Numeric effects, by canonical text, sorted: they are compared as text, which proves
    /// equality when they are equal and nothing when they are not.
    pub opaque_effects: Vec<String>,
    /// The increases of `total-cost`, by canonical text, sorted.
    pub costs: Vec<String>,
    /// Why the expansion of the quantifiers over the universe may miss a difference, if it may.
    pub bounded: Option<String>,
}

/// How the two domains order types; `None` in a `Universe` when neither domain declares a
/// type, so that every object is of every type that matters (`object`).
///
/// The problems compared are those both domains accept: an object is declared with a type
/// both declare, or, when one domain declares no type at all, with one of the other's, which
/// the untyped domain reads as `object`.
#[derive(Clone, Debug)]
pub struct Typing {
    /// The shared type keys an object may be declared with.
    pub candidates: Vec<String>,
    /// Per side (gold, prediction): each shared type key → itself and its ancestors.
    pub ancestors: [HashMap<String, Vec<String>>; 2],
    /// Per side, the shared type keys it declares, `object` among them.
    pub known: [Vec<String>; 2],
}

impl Typing {
    /// Whether an object declared `declared` is of one of the types `wanted`, on one side.
    fn fits(&self, side: usize, declared: &str, wanted: &[String]) -> bool {
        if !self.known[side].iter().any(|t| t == declared) {
            return wanted.iter().any(|w| w == "object");
        }
        wanted.iter().any(|w| {
            w == "object"
                || w == declared
                || self.ancestors[side]
                    .get(declared)
                    .is_some_and(|list| list.contains(w))
        })
    }
}

/// The objects of one case of an action pair: the partition's blocks first, then one fresh
/// object per quantified variable, then the domains' constants that no term names.
#[derive(Clone, Debug)]
pub struct Universe {
    /// Per object, its declared type (shared keys) on each side when it is fixed (a constant),
    /// `None` when the case chooses it.
    pub fixed: Vec<Option<[Vec<String>; 2]>>,
    pub typing: Option<Typing>,
    /// The labels of the last objects, the constants no term names.
    pub unnamed_constants: Vec<String>,
}

impl Universe {
    /// Whether object `object` is of one of the types `wanted` on one side: a constant formula
    /// when its type is fixed or nothing is typed, else the disjunction of the declared types
    /// that fit.
    pub fn is(&self, side: usize, object: usize, wanted: &[String], atoms: &mut Atoms) -> Formula {
        let Some(typing) = &self.typing else {
            return Formula::True;
        };
        if wanted.iter().any(|w| w == "object") {
            return Formula::True;
        }
        if let Some(Some(declared)) = self.fixed.get(object) {
            let fits = declared[side].iter().any(|d| typing.fits(side, d, wanted));
            return if fits { Formula::True } else { Formula::False };
        }
        // Every choice gets its proposition, so that `one_type_each` constrains the object
        // even when no declared type fits.
        let choices = typing
            .candidates
            .iter()
            .map(|candidate| {
                let choice = atoms.id(AtomKey::Type {
                    object,
                    ty: candidate.clone(),
                });
                (candidate, choice)
            })
            .filter(|(candidate, _)| typing.fits(side, candidate, wanted))
            .map(|(_, choice)| logic::atom(choice))
            .collect();
        Formula::or(choices)
    }

    /// For each atom whose arguments' types are open or wrong, when its predicate's declared
    /// types admit them on both sides (so that it can be in a problem both domains accept).
    pub fn well_typed(
        &self,
        atoms: &mut Atoms,
        predicate_types: [&HashMap<String, Vec<Vec<String>>>; 2],
    ) -> HashMap<u32, Formula> {
        let mut conditions = HashMap::new();
        if self.typing.is_none() {
            return conditions;
        }
        let facts: Vec<(u32, String, Vec<usize>)> = (0u32..)
            .zip(&atoms.keys)
            .filter_map(|(id, key)| match key {
                AtomKey::Fact { predicate, args } => Some((id, predicate.clone(), args.clone())),
                AtomKey::Type { .. } => None,
            })
            .collect();
        for (id, predicate, args) in facts {
            let mut fits = Vec::new();
            for (side, declared) in predicate_types.iter().enumerate() {
                let Some(types) = declared.get(&predicate) else {
                    continue;
                };
                for (&object, wanted) in args.iter().zip(types) {
                    fits.push(self.is(side, object, wanted, atoms));
                }
            }
            let fits = Formula::and(fits);
            if fits != Formula::True {
                conditions.insert(id, fits);
            }
        }
        conditions
    }

    /// Each object whose type a proposition names is declared with exactly one type.
    pub fn one_type_each(&self, atoms: &mut Atoms) -> Formula {
        let Some(typing) = &self.typing else {
            return Formula::True;
        };
        let mut typed: Vec<usize> = atoms
            .keys
            .iter()
            .filter_map(|key| match key {
                AtomKey::Type { object, .. } => Some(*object),
                AtomKey::Fact { .. } => None,
            })
            .collect();
        typed.sort_unstable();
        typed.dedup();
        let mut parts = Vec::new();
        for object in typed {
            let choices: Vec<u32> = typing
                .candidates
                .iter()
                .map(|ty| {
                    atoms.id(AtomKey::Type {
                        object,
                        ty: ty.clone(),
                    })
                })
                .collect();
            parts.push(Formula::or(
                choices.iter().map(|&c| logic::atom(c)).collect(),
            ));
            for (i, &a) in choices.iter().enumerate() {
                for &b in &choices[i + 1..] {
                    parts.push(Formula::or(vec![
                        logic::not(logic::atom(a)),
                        logic::not(logic::atom(b)),
                    ]));
                }
            }
        }
        Formula::and(parts)
    }

    fn len(&self) -> usize {
        self.fixed.len()
    }

    /// Whether some object is a constant no term of the pair names.
    pub fn has_unnamed_constants(&self) -> bool {
        !self.unnamed_constants.is_empty()
    }
}

/// How one side names things: the object of each parameter (`?x`, folded) and constant
/// (folded), the shared key of each predicate and type (folded name), and which side it is
/// (0: gold, 1: prediction).
pub struct Naming<'a> {
    pub terms: HashMap<String, usize>,
    pub predicates: &'a HashMap<String, String>,
    pub types: &'a HashMap<String, String>,
    pub universe: &'a Universe,
    pub side: usize,
}

impl Naming<'_> {
    fn block(&self, term: &Term) -> Result<usize, String> {
        let key = term_key(term);
        self.terms
            .get(&key)
            .copied()
            .ok_or_else(|| format!("`{key}` is neither a parameter nor a constant"))
    }

    fn predicate(&self, name: &Name) -> String {
        let key = name.key();
        self.predicates.get(&key).cloned().unwrap_or(key)
    }

    /// A type as its shared keys (`object` when none is written).
    pub fn shared_types(&self, ty: Option<&crate::ast::Type>) -> Vec<String> {
        super::decide::type_names(ty)
            .into_iter()
            .map(|t| match self.types.get(&t) {
                Some(shared) => shared.clone(),
                None if t == "object" => t,
                None => format!("pred:{t}"),
            })
            .collect()
    }
}

/// `?x` for a variable, the folded name for a constant.
pub fn term_key(term: &Term) -> String {
    match term {
        Term::Variable(v) => format!("?{}", v.name.key()),
        Term::Name(n) => n.key(),
    }
}

/// The most quantifier instances one action pair's lifting may make, over every partition.
const MAX_INSTANCES: usize = 50_000;

/// Lifts a precondition and an effect.
pub fn lift(
    precondition: Option<&Gd>,
    effect: Option<&Effect>,
    naming: &Naming,
    atoms: &mut Atoms,
) -> Result<Lifted, String> {
    let mut lifter = Lifter {
        naming,
        atoms,
        scope: Vec::new(),
        instances: 0,
        bounded: None,
    };
    let mut lifted = Lifted {
        precondition: Formula::True,
        writes: Vec::new(),
        opaque_effects: Vec::new(),
        costs: Vec::new(),
        bounded: None,
    };
    if let Some(gd) = precondition {
        lifted.precondition = lifter.goal(gd)?;
    }
    if let Some(effect) = effect {
        lifter.effects(effect, &Formula::True, &mut lifted)?;
    }
    lifted.opaque_effects.sort();
    lifted.costs.sort();
    lifted.bounded = lifter.bounded;
    Ok(lifted)
}

/// The lifting of one side: its naming, the bound variables in scope (innermost last).
struct Lifter<'n, 'a> {
    naming: &'n Naming<'n>,
    atoms: &'a mut Atoms,
    scope: Vec<(String, usize)>,
    instances: usize,
    bounded: Option<String>,
}

impl Lifter<'_, '_> {
    fn object(&self, term: &Term) -> Result<usize, String> {
        let key = term_key(term);
        match self.scope.iter().rev().find(|(name, _)| *name == key) {
            Some((_, object)) => Ok(*object),
            None => self.naming.block(term),
        }
    }

    fn fact(&mut self, atom: &crate::ast::Atom) -> Result<u32, String> {
        let args = atom
            .args
            .iter()
            .map(|t| self.object(t))
            .collect::<Result<_, _>>()?;
        let predicate = self.naming.predicate(&atom.predicate);
        Ok(self.atoms.id(AtomKey::Fact { predicate, args }))
    }

    fn goal(&mut self, gd: &Gd) -> Result<Formula, String> {
        Ok(match &gd.kind {
            GdKind::Atom(atom) if atom.predicate.is("=") && atom.args.len() == 2 => {
                let quantified = atom.args.iter().any(|t| {
                    let key = term_key(t);
                    self.scope.iter().any(|(name, _)| *name == key)
                });
                if quantified && self.naming.universe.has_unnamed_constants() {
                    self.bounded.get_or_insert_with(|| {
                        "an `=` compares a quantified variable, and constants no term names \
                         are not split into cases"
                            .to_string()
                    });
                }
                if self.object(&atom.args[0])? == self.object(&atom.args[1])? {
                    Formula::True
                } else {
                    Formula::False
                }
            }
            GdKind::Atom(atom) => logic::atom(self.fact(atom)?),
            GdKind::And { args } => Formula::and(self.goals(args)?),
            GdKind::Or { args } => Formula::or(self.goals(args)?),
            GdKind::Not { arg } => logic::not(self.goal(arg)?),
            GdKind::Imply {
                condition,
                consequence,
            } => Formula::or(vec![
                logic::not(self.goal(condition)?),
                self.goal(consequence)?,
            ]),
            GdKind::Exists { variables, body } | GdKind::Forall { variables, body } => {
                let every = matches!(gd.kind, GdKind::Forall { .. });
                let mut parts = Vec::new();
                self.instances_of(variables, &mut |lifter, range| {
                    let body = lifter.goal(body)?;
                    parts.push(if every {
                        Formula::or(vec![logic::not(range), body])
                    } else {
                        Formula::and(vec![range, body])
                    });
                    Ok(())
                })?;
                if every {
                    Formula::and(parts)
                } else {
                    Formula::or(parts)
                }
            }
            GdKind::Compare { .. } => return Err("a numeric condition".to_string()),
            GdKind::Preference { .. } => return Err("a preference".to_string()),
            GdKind::Timed { .. } | GdKind::Modal { .. } => {
                return Err("a temporal condition".to_string());
            }
        })
    }

    fn goals(&mut self, args: &[Gd]) -> Result<Vec<Formula>, String> {
        args.iter().map(|a| self.goal(a)).collect()
    }

    /// Calls `each` once per binding of `variables` to objects of the universe, with the
    /// formula saying the binding is in the variables' types, the variables in scope.
    fn instances_of(
        &mut self,
        variables: &[Typed<Variable>],
        each: &mut dyn FnMut(&mut Self, Formula) -> Result<(), String>,
    ) -> Result<(), String> {
        if !self.scope.is_empty() {
            self.bounded.get_or_insert_with(|| {
                "a quantifier inside another is expanded over the case's objects only".to_string()
            });
        }
        self.bind(variables, Formula::True, each)
    }

    fn bind(
        &mut self,
        variables: &[Typed<Variable>],
        range: Formula,
        each: &mut dyn FnMut(&mut Self, Formula) -> Result<(), String>,
    ) -> Result<(), String> {
        let Some((first, rest)) = variables.split_first() else {
            self.instances += 1;
            if self.instances > MAX_INSTANCES {
                return Err(format!(
                    "the quantifiers have more than {MAX_INSTANCES} instances over the case's \
                     objects"
                ));
            }
            return each(self, range);
        };
        let wanted = self.naming.shared_types(first.ty.as_ref());
        let universe = self.naming.universe;
        for object in 0..universe.len() {
            let fits = universe.is(self.naming.side, object, &wanted, self.atoms);
            if fits == Formula::False {
                continue;
            }
            self.scope
                .push((format!("?{}", first.item.name.key()), object));
            let both = Formula::and(vec![range.clone(), fits]);
            let result = self.bind(rest, both, each);
            self.scope.pop();
            result?;
        }
        Ok(())
    }

    fn effects(
        &mut self,
        effect: &Effect,
        condition: &Formula,
        lifted: &mut Lifted,
    ) -> Result<(), String> {
        match &effect.kind {
            EffectKind::And { args } => {
                for arg in args {
                    self.effects(arg, condition, lifted)?;
                }
            }
            EffectKind::When { condition: c, body } => {
                let own = self.goal(c)?;
                let both = Formula::and(vec![condition.clone(), own]);
                self.effects(body, &both, lifted)?;
            }
            EffectKind::Add { atom } | EffectKind::Delete { atom } => {
                let atom_id = self.fact(atom)?;
                lifted.writes.push(Write {
                    atom: atom_id,
                    add: matches!(effect.kind, EffectKind::Add { .. }),
                    condition: condition.clone(),
                });
            }
            EffectKind::Forall { variables, body } => {
                self.instances_of(variables, &mut |lifter, range| {
                    let under = Formula::and(vec![condition.clone(), range]);
                    lifter.effects(body, &under, lifted)
                })?;
            }
            EffectKind::Numeric { target, .. } if is_action_cost(target) => {
                // `total-cost` is the plan's metric, not part of the state an action reads (a
                // condition reading it is a numeric condition, which is out of reach anyway):
                // kept apart, to say when the costs differ.
                let under = format!("{condition:?}");
                lifted.costs.push(format!(
                    "{under} {}",
                    canonical_effect(effect, self.naming)?
                ));
            }
            EffectKind::Numeric { .. } => {
                if !self.scope.is_empty() {
                    return Err("a numeric effect under a quantifier".to_string());
                }
                // Compared as text, with the condition it sits under.
                let under = format!("{condition:?}");
                lifted.opaque_effects.push(format!(
                    "{under} {}",
                    canonical_effect(effect, self.naming)?
                ));
            }
            EffectKind::Timed { .. } => return Err("a timed effect".to_string()),
        }
        Ok(())
    }
}

fn is_action_cost(target: &Expr) -> bool {
    matches!(&target.kind, ExprKind::Function(f) if f.name.is("total-cost") && f.args.is_empty())
}

/// A numeric effect's canonical text: terms as their objects (`#0`).
fn canonical_effect(effect: &Effect, naming: &Naming) -> Result<String, String> {
    let EffectKind::Numeric { op, target, value } = &effect.kind else {
        return Err("only numeric effects are compared as text".to_string());
    };
    let renamed = Effect {
        kind: EffectKind::Numeric {
            op: *op,
            target: canonical_expr(target, naming)?,
            value: canonical_expr(value, naming)?,
        },
        span: effect.span,
    };
    Ok(crate::fmt::effect_text(&renamed))
}

fn canonical_term(term: &Term, naming: &Naming) -> Result<Term, String> {
    let text = format!("#{}", naming.block(term)?);
    Ok(Term::Name(Name::new(text, term.span())))
}

fn canonical_expr(expr: &Expr, naming: &Naming) -> Result<Expr, String> {
    let mut renamed = expr.clone();
    match &mut renamed.kind {
        ExprKind::Term { term } => *term = canonical_term(term, naming)?,
        ExprKind::Function(f) => {
            f.args = f
                .args
                .iter()
                .map(|t| canonical_term(t, naming))
                .collect::<Result<_, _>>()?
        }
        ExprKind::Call { args, .. } | ExprKind::Op { args, .. } => {
            *args = args
                .iter()
                .map(|e| canonical_expr(e, naming))
                .collect::<Result<_, _>>()?
        }
        ExprKind::Number(_) => {}
        _ => return Err("a temporal or metric expression".to_string()),
    }
    Ok(renamed)
}
