//! The shared vocabulary of lowering one action variant: the roles bound to PDDL terms, fresh
//! variable names, and the checks' tests as formulas over the state. `primitives` and
//! `writes` add the effect side, `lower` drives one variant through them.

use super::flavour::Flavour;
use super::ir::{self, Formula, Term, Write, and, atom, exists, not, or};
use super::vocabulary::{
    IdTest, PLACE, affords_predicate, flag_predicate, holds_affording_predicate,
    holds_id_predicate, kitchen_affords_predicate, may_afford_predicate, object_variable, property,
    status,
};
use crate::kitchen::data::world::{Role, Test, World};

/// Fresh variable names within one action: `h1`, `p2`, `k3` …
#[derive(Default)]
pub struct FreshNames(usize);

impl FreshNames {
    pub fn next(&mut self, base: &str) -> String {
        self.0 += 1;
        format!("{base}{}", self.0)
    }
}

/// The compiler of one action variant: the roles bound, the writes so far.
pub struct ActionLowering<'w> {
    pub world: &'w World,
    /// The PDDL term of each role, `None` when unbound or a value role.
    pub roles: Vec<Option<Term>>,
    pub writes: Vec<Write>,
    pub fresh: FreshNames,
    /// The parameter of the object the action creates, if any.
    pub created: Option<Term>,
    pub flavour: Flavour,
}

impl ActionLowering<'_> {
    /// The term a role is bound to, `None` when unbound or a value role.
    pub fn role(&self, role: Role) -> Option<Term> {
        self.roles.get(role).cloned().flatten()
    }

    /// The roles bound to a term, with their terms, in order.
    pub fn bound_roles(&self) -> Vec<(Role, Term)> {
        (0..self.roles.len())
            .filter_map(|role| self.role(role).map(|term| (role, term)))
            .collect()
    }

    /// `is_source` of the semantics, as a formula.
    pub fn is_source(&self, x: &Term) -> Formula {
        let contamination = &self.world.config.contamination;
        let mut parts: Vec<Formula> = contamination
            .source_properties
            .iter()
            .map(|p| atom("has", vec![x.clone(), property(p)]))
            .collect();
        parts.extend(
            contamination
                .source_states
                .iter()
                .map(|s| atom("is", vec![x.clone(), status(s)])),
        );
        parts.push(not(atom("source-excluded", vec![x.clone()])));
        and(parts)
    }

    fn holding_nothing(&mut self) -> Formula {
        let held = self.fresh.next("h");
        not(exists(
            vec![object_variable(&held)],
            atom("held", vec![Term::Var(held)]),
        ))
    }

    /// `x`'s location resolves to an object with the property.
    fn located_on(&mut self, x: &Term, wanted: &str) -> Formula {
        let place = self.fresh.next("p");
        let object = self.fresh.next("k");
        exists(
            vec![(place.clone(), PLACE.into()), object_variable(&object)],
            and(vec![
                atom("loc", vec![x.clone(), Term::Var(place.clone())]),
                atom(
                    "resolves",
                    vec![Term::Var(place), Term::Var(object.clone())],
                ),
                atom("has", vec![Term::Var(object), property(wanted)]),
            ]),
        )
    }

    /// A test as a formula over the state (before any write).
    pub fn test(&mut self, test: &Test) -> Formula {
        match test {
            Test::Any(alternatives) => {
                let parts = alternatives.iter().map(|test| self.test(test)).collect();
                or(parts)
            }
            Test::None(alternatives) => {
                let parts = alternatives.iter().map(|test| self.test(test)).collect();
                not(or(parts))
            }
            Test::Contains(..)
            | Test::HasContents(..)
            | Test::ContentsIdContains(..)
            | Test::HasLiquid(..)
            | Test::InAnyContainer(..)
            | Test::RecepOrOpen(..)
            | Test::ContentsAfford(..) => self.contents_test(test),
            Test::OnSurface(..) | Test::OnAnySurface(..) | Test::OnHeatsource(..) => {
                self.place_test(test)
            }
            _ => self.object_test(test),
        }
    }

    /// A test of one object's properties, states and id, or of the hand, a flag or an affordance.
    fn object_test(&mut self, test: &Test) -> Formula {
        match test {
            Test::HoldingNothing => self.holding_nothing(),
            Test::Holds(r) => match self.role(*r) {
                Some(x) => atom("held", vec![x]),
                None => self.holding_nothing(),
            },
            Test::HasProperty(r, p) => self
                .role(*r)
                .map_or(Formula::False, |x| atom("has", vec![x, property(p)])),
            Test::HasAnyProperty(r, properties) => match self.role(*r) {
                Some(x) => or(properties
                    .iter()
                    .map(|p| atom("has", vec![x.clone(), property(p)]))
                    .collect()),
                None => Formula::False,
            },
            Test::HasState(r, s) => self
                .role(*r)
                .map_or(Formula::False, |x| atom("is", vec![x, status(s)])),
            Test::IdContains(r, text) => self.role(*r).map_or(Formula::False, |x| {
                atom(&IdTest::Contains(text.clone()).predicate(), &[x])
            }),
            Test::IdStartsWith(r, text) => self.role(*r).map_or(Formula::False, |x| {
                atom(&IdTest::StartsWith(text.clone()).predicate(), &[x])
            }),
            Test::Flag(f) => atom(&flag_predicate(f), &[]),
            Test::Affords(x, use_) => match self.role(*x) {
                Some(x) => self.affords(&x, use_),
                None => Formula::False,
            },
            Test::KitchenAffords(use_) => atom(&kitchen_affords_predicate(use_), &[]),
            _ => Formula::False,
        }
    }

    /// A test of a container's contents.
    fn contents_test(&mut self, test: &Test) -> Formula {
        match test {
            Test::Contains(container, x) => match (self.role(*container), self.role(*x)) {
                (Some(container), Some(x)) => atom("in", vec![x, container]),
                _ => Formula::False,
            },
            Test::HasContents(container) => match self.role(*container) {
                Some(container) => {
                    let item_name = self.fresh.next("i");
                    exists(
                        vec![object_variable(&item_name)],
                        atom("in", vec![Term::Var(item_name), container]),
                    )
                }
                None => Formula::False,
            },
            // Planning flavour: derived, so that the grounder does not take the content as
            // one more parameter per disjunct.
            Test::ContentsIdContains(container, text) if self.flavour == Flavour::Planning => {
                match self.role(*container) {
                    Some(container) => atom(
                        &holds_id_predicate(&IdTest::Contains(text.clone())),
                        &[container],
                    ),
                    None => Formula::False,
                }
            }
            Test::HasLiquid(vessel) if self.flavour == Flavour::Planning => {
                match self.role(*vessel) {
                    Some(vessel) => atom("has-liquid", &[vessel]),
                    None => Formula::False,
                }
            }
            Test::ContentsIdContains(container, text) => match self.role(*container) {
                Some(container) => {
                    let item_name = self.fresh.next("i");
                    exists(
                        vec![object_variable(&item_name)],
                        and(vec![
                            atom("in", vec![Term::Var(item_name.clone()), container]),
                            atom(
                                &IdTest::Contains(text.clone()).predicate(),
                                &[Term::Var(item_name)],
                            ),
                        ]),
                    )
                }
                None => Formula::False,
            },
            Test::HasLiquid(vessel) => match self.role(*vessel) {
                Some(vessel) => {
                    let item_name = self.fresh.next("i");
                    let item = Term::Var(item_name.clone());
                    or(vec![
                        exists(
                            vec![object_variable(&item_name)],
                            and(vec![
                                atom("in", vec![item.clone(), vessel.clone()]),
                                or(vec![
                                    atom("has", vec![item.clone(), property("pourable")]),
                                    atom("has", vec![item, property("fillable_source")]),
                                ]),
                            ]),
                        ),
                        atom("is", vec![vessel, status("filled")]),
                    ])
                }
                None => Formula::False,
            },
            Test::InAnyContainer(x) => match self.role(*x) {
                Some(x) => {
                    let container_name = self.fresh.next("c");
                    exists(
                        vec![object_variable(&container_name)],
                        atom("in", vec![x, Term::Var(container_name)]),
                    )
                }
                None => Formula::False,
            },
            Test::RecepOrOpen(x) => match self.role(*x) {
                Some(x) => or(vec![
                    atom("has", vec![x.clone(), property("receptacle")]),
                    and(vec![
                        atom("has", vec![x.clone(), property("container")]),
                        atom("is", vec![x, status("open")]),
                    ]),
                ]),
                None => Formula::False,
            },
            Test::ContentsAfford(container, use_) => match self.role(*container) {
                Some(container) => atom(&holds_affording_predicate(use_), &[container]),
                None => Formula::False,
            },
            _ => Formula::False,
        }
    }

    /// A test of where an object is.
    fn place_test(&mut self, test: &Test) -> Formula {
        match test {
            Test::OnSurface(x, s) => match (self.role(*x), self.role(*s)) {
                (Some(x), Some(s)) => atom("loc", vec![x, s]),
                _ => Formula::False,
            },
            Test::OnAnySurface(x) => match self.role(*x) {
                Some(x) => self.located_on(&x, "surface"),
                None => Formula::False,
            },
            // Strict mode (the planning flavour) wants the vessel on the named heat source.
            Test::OnHeatsource(x, h) => match (self.role(*x), self.role(*h)) {
                (Some(x), Some(h)) if self.flavour == Flavour::Planning => {
                    let place = self.fresh.next("p");
                    exists(
                        vec![(place.clone(), PLACE.into())],
                        and(vec![
                            atom("loc", vec![x, Term::Var(place.clone())]),
                            atom("resolves", vec![Term::Var(place), h.clone()]),
                            atom("has", vec![h, property("heatsource")]),
                        ]),
                    )
                }
                (Some(x), _) => self.located_on(&x, "heatsource"),
                _ => Formula::False,
            },
            _ => Formula::False,
        }
    }

    /// The object exists and affords the use (the derived `(affords-USE ?o)`: derived, so
    /// that Fast Downward's translator does not split the action per disjunct).
    fn affords(&self, x: &Term, use_: &str) -> Formula {
        and(vec![
            atom("present", vec![x.clone()]),
            atom(&may_afford_predicate(use_), std::slice::from_ref(x)),
            atom(&affords_predicate(use_), std::slice::from_ref(x)),
        ])
    }

    /// The current value of a formula: regressed through the writes so far.
    pub fn now(&self, formula: &Formula) -> Formula {
        ir::regress(formula, &self.writes)
    }
}
