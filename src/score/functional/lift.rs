//! One action schema under one equality partition of its terms, lifted to propositional
//! formulas: its precondition, and for every atom it writes the condition of each add and
//! delete. Quantified parts become opaque propositions named by their canonical text.

use super::logic::{self, Formula};
use crate::ast::{Effect, EffectKind, Expr, ExprKind, Gd, GdKind, Name, Term, Typed, Variable};
use std::collections::HashMap;

/// A proposition of the lifted action pair: a predicate (by its gold name, or `pred:NAME` for a
/// predicate only the prediction declares) over blocks of the partition, or a quantified
/// subformula by its canonical text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AtomKey {
    Fact { predicate: String, args: Vec<usize> },
    Opaque(String),
}

/// The propositions met so far, numbered.
#[derive(Debug, Default)]
pub struct Atoms {
    pub keys: Vec<AtomKey>,
    index: HashMap<AtomKey, u32>,
}

impl Atoms {
    fn id(&mut self, key: AtomKey) -> u32 {
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
    /// Quantified effects and numeric effects, by canonical text, sorted: they are compared as
    /// text, which proves equality when they are equal and nothing when they are not.
    pub opaque_effects: Vec<String>,
    /// Whether a quantified part was made opaque (a difference found is then not proved).
    pub opaque: bool,
}

/// How one side names things: the block of each parameter (`?x`, folded) and constant
/// (folded), and the shared key of each predicate (folded name).
pub struct Naming<'a> {
    pub terms: HashMap<String, usize>,
    pub predicates: &'a HashMap<String, String>,
}

impl Naming<'_> {
    fn block(&self, term: &Term) -> Result<usize, String> {
        let key = term_key(term);
        self.terms
            .get(&key)
            .copied()
            .ok_or_else(|| format!("`{key}` is neither a parameter nor a constant"))
    }

    /// The proposition of an atom.
    fn fact(&self, atom: &crate::ast::Atom) -> Result<AtomKey, String> {
        let args = atom
            .args
            .iter()
            .map(|t| self.block(t))
            .collect::<Result<_, _>>()?;
        let predicate = self.predicate(&atom.predicate);
        Ok(AtomKey::Fact { predicate, args })
    }

    fn predicate(&self, name: &Name) -> String {
        let key = name.key();
        self.predicates.get(&key).cloned().unwrap_or(key)
    }
}

/// `?x` for a variable, the folded name for a constant.
pub fn term_key(term: &Term) -> String {
    match term {
        Term::Variable(v) => format!("?{}", v.name.key()),
        Term::Name(n) => n.key(),
    }
}

/// Lifts a precondition and an effect.
pub fn lift(
    precondition: Option<&Gd>,
    effect: Option<&Effect>,
    naming: &Naming,
    atoms: &mut Atoms,
) -> Result<Lifted, String> {
    let mut lifted = Lifted {
        precondition: Formula::True,
        writes: Vec::new(),
        opaque_effects: Vec::new(),
        opaque: false,
    };
    if let Some(gd) = precondition {
        lifted.precondition = goal(gd, naming, atoms, &mut lifted.opaque)?;
    }
    if let Some(effect) = effect {
        effects(effect, &Formula::True, naming, atoms, &mut lifted)?;
    }
    lifted.opaque_effects.sort();
    Ok(lifted)
}

fn goal(gd: &Gd, naming: &Naming, atoms: &mut Atoms, opaque: &mut bool) -> Result<Formula, String> {
    let mut all = |args: &[Gd], opaque: &mut bool| -> Result<Vec<Formula>, String> {
        args.iter()
            .map(|a| goal(a, naming, atoms, opaque))
            .collect()
    };
    Ok(match &gd.kind {
        GdKind::Atom(atom) if atom.predicate.is("=") && atom.args.len() == 2 => {
            if naming.block(&atom.args[0])? == naming.block(&atom.args[1])? {
                Formula::True
            } else {
                Formula::False
            }
        }
        GdKind::Atom(atom) => logic::atom(atoms.id(naming.fact(atom)?)),
        GdKind::And { args } => Formula::and(all(args, opaque)?),
        GdKind::Or { args } => Formula::or(all(args, opaque)?),
        GdKind::Not { arg } => logic::not(goal(arg, naming, atoms, opaque)?),
        GdKind::Imply {
            condition,
            consequence,
        } => Formula::or(vec![
            logic::not(goal(condition, naming, atoms, opaque)?),
            goal(consequence, naming, atoms, opaque)?,
        ]),
        GdKind::Exists { .. } | GdKind::Forall { .. } => {
            *opaque = true;
            logic::atom(atoms.id(AtomKey::Opaque(canonical_goal(gd, naming)?)))
        }
        GdKind::Compare { .. } => return Err("a numeric condition".to_string()),
        GdKind::Preference { .. } => return Err("a preference".to_string()),
        GdKind::Timed { .. } | GdKind::Modal { .. } => {
            return Err("a temporal condition".to_string());
        }
    })
}

fn effects(
    effect: &Effect,
    condition: &Formula,
    naming: &Naming,
    atoms: &mut Atoms,
    lifted: &mut Lifted,
) -> Result<(), String> {
    match &effect.kind {
        EffectKind::And { args } => {
            for arg in args {
                effects(arg, condition, naming, atoms, lifted)?;
            }
        }
        EffectKind::When { condition: c, body } => {
            let own = goal(c, naming, atoms, &mut lifted.opaque)?;
            let both = Formula::and(vec![condition.clone(), own]);
            effects(body, &both, naming, atoms, lifted)?;
        }
        EffectKind::Add { atom } | EffectKind::Delete { atom } => {
            lifted.writes.push(Write {
                atom: atoms.id(naming.fact(atom)?),
                add: matches!(effect.kind, EffectKind::Add { .. }),
                condition: condition.clone(),
            });
        }
        EffectKind::Forall { .. } | EffectKind::Numeric { .. } => {
            // Compared as text, with the condition it sits under.
            let under = format!("{condition:?}");
            lifted.opaque = true;
            lifted
                .opaque_effects
                .push(format!("{under} {}", canonical_effect(effect, naming)?));
        }
        EffectKind::Timed { .. } => return Err("a timed effect".to_string()),
    }
    Ok(())
}

/// The canonical text of a quantified goal: free terms as their blocks (`#0`), bound variables
/// by their depth, predicates by their shared key.
fn canonical_goal(gd: &Gd, naming: &Naming) -> Result<String, String> {
    canonical(naming, |r| r.goal(gd), crate::fmt::gd_text)
}

fn canonical_effect(effect: &Effect, naming: &Naming) -> Result<String, String> {
    canonical(naming, |r| r.effect(effect), crate::fmt::effect_text)
}

/// A goal or an effect renamed by `rename`, then printed.
fn canonical<T>(
    naming: &Naming,
    rename: impl FnOnce(&mut Renamer) -> Result<T, String>,
    print: fn(&T) -> String,
) -> Result<String, String> {
    let mut scope = Vec::new();
    let mut renamer = Renamer {
        naming,
        scope: &mut scope,
    };
    Ok(print(&rename(&mut renamer)?))
}

/// Rewrites a goal or an effect into its canonical names.
struct Renamer<'n, 's> {
    naming: &'n Naming<'n>,
    /// The quantified variables in scope, innermost last.
    scope: &'s mut Vec<String>,
}

impl Renamer<'_, '_> {
    fn term(&self, term: &Term) -> Result<Term, String> {
        let key = term_key(term);
        let text = match self.scope.iter().rposition(|v| *v == key) {
            Some(depth) => format!("?q{depth}"),
            None => format!("#{}", self.naming.block(term)?),
        };
        Ok(Term::Name(Name::new(text, term.span())))
    }

    fn bind(&mut self, variables: &[Typed<Variable>]) -> Vec<Typed<Variable>> {
        variables
            .iter()
            .map(|v| {
                self.scope.push(format!("?{}", v.item.name.key()));
                let name = Name::new(format!("q{}", self.scope.len() - 1), v.item.name.span);
                Typed {
                    item: Variable { name },
                    ty: v.ty.clone(),
                }
            })
            .collect()
    }

    fn atom(&self, atom: &crate::ast::Atom) -> Result<crate::ast::Atom, String> {
        let mut renamed = atom.clone();
        if !atom.predicate.is("=") {
            renamed.predicate = Name::new(self.naming.predicate(&atom.predicate), atom.span);
        }
        renamed.args = atom
            .args
            .iter()
            .map(|t| self.term(t))
            .collect::<Result<_, _>>()?;
        Ok(renamed)
    }

    fn expr(&self, expr: &Expr) -> Result<Expr, String> {
        let mut renamed = expr.clone();
        match &mut renamed.kind {
            ExprKind::Term { term } => *term = self.term(term)?,
            ExprKind::Function(f) => {
                f.args = f
                    .args
                    .iter()
                    .map(|t| self.term(t))
                    .collect::<Result<_, _>>()?
            }
            ExprKind::Call { args, .. } | ExprKind::Op { args, .. } => {
                *args = args
                    .iter()
                    .map(|e| self.expr(e))
                    .collect::<Result<_, _>>()?
            }
            ExprKind::Number(_) => {}
            _ => return Err("a temporal or metric expression".to_string()),
        }
        Ok(renamed)
    }

    fn goal(&mut self, gd: &Gd) -> Result<Gd, String> {
        let kind = match &gd.kind {
            GdKind::Atom(atom) => GdKind::Atom(self.atom(atom)?),
            GdKind::And { args } => GdKind::And {
                args: self.goals(args)?,
            },
            GdKind::Or { args } => GdKind::Or {
                args: self.goals(args)?,
            },
            GdKind::Not { arg } => GdKind::Not {
                arg: Box::new(self.goal(arg)?),
            },
            GdKind::Imply {
                condition,
                consequence,
            } => GdKind::Imply {
                condition: Box::new(self.goal(condition)?),
                consequence: Box::new(self.goal(consequence)?),
            },
            GdKind::Exists { variables, body } | GdKind::Forall { variables, body } => {
                let depth = self.scope.len();
                let variables = self.bind(variables);
                let body = self.goal(body);
                self.scope.truncate(depth);
                let body = Box::new(body?);
                if matches!(gd.kind, GdKind::Exists { .. }) {
                    GdKind::Exists { variables, body }
                } else {
                    GdKind::Forall { variables, body }
                }
            }
            GdKind::Compare { op, lhs, rhs } => GdKind::Compare {
                op: *op,
                lhs: Box::new(self.expr(lhs)?),
                rhs: Box::new(self.expr(rhs)?),
            },
            _ => return Err("a temporal condition or a preference".to_string()),
        };
        Ok(Gd {
            kind,
            span: gd.span,
        })
    }

    fn goals(&mut self, args: &[Gd]) -> Result<Vec<Gd>, String> {
        args.iter().map(|a| self.goal(a)).collect()
    }

    fn effect(&mut self, effect: &Effect) -> Result<Effect, String> {
        let kind = match &effect.kind {
            EffectKind::And { args } => EffectKind::And {
                args: args
                    .iter()
                    .map(|a| self.effect(a))
                    .collect::<Result<_, _>>()?,
            },
            EffectKind::Forall { variables, body } => {
                let depth = self.scope.len();
                let variables = self.bind(variables);
                let body = self.effect(body);
                self.scope.truncate(depth);
                EffectKind::Forall {
                    variables,
                    body: Box::new(body?),
                }
            }
            EffectKind::When { condition, body } => EffectKind::When {
                condition: self.goal(condition)?,
                body: Box::new(self.effect(body)?),
            },
            EffectKind::Add { atom } => EffectKind::Add {
                atom: self.atom(atom)?,
            },
            EffectKind::Delete { atom } => EffectKind::Delete {
                atom: self.atom(atom)?,
            },
            EffectKind::Numeric { op, target, value } => EffectKind::Numeric {
                op: *op,
                target: self.expr(target)?,
                value: self.expr(value)?,
            },
            EffectKind::Timed { .. } => return Err("a timed effect".to_string()),
        };
        Ok(Effect {
            kind,
            span: effect.span,
        })
    }
}
