//! Recording the writes of one action: each flavour's guards on a write (objects that exist,
//! possible contamination sources) and the audit flavour's contents as lists (`IN_LEVELS`).

use super::action::ActionLowering;
use super::flavour::Flavour;
use super::ir::{Formula, Term, Write, and, atom, not};
use super::vocabulary::IN_LEVELS;

impl ActionLowering<'_> {
    /// Records a write of `predicate(args)`, with each flavour's guards (see the comments).
    pub fn write(
        &mut self,
        vars: Vec<(String, String)>,
        condition: Formula,
        predicate: &str,
        args: Vec<Term>,
        add: bool,
    ) {
        if condition == Formula::False {
            return;
        }
        // Planning flavour: contamination is only ever carried from a possible source (a
        // protein object of the task or a COMBINE product), so a write quantified over the
        // source is restricted to those; the grounder then drops every other instance.
        let condition = match (self.flavour, predicate, args.get(1)) {
            (Flavour::Planning, "contam", Some(Term::Var(s)))
                if vars.iter().any(|(v, _)| v == s) =>
            {
                and(vec![
                    atom("may-source", vec![Term::Var(s.clone())]),
                    condition,
                ])
            }
            _ => condition,
        };
        // Audit flavour: Simmer changes only objects that exist. The object itself of a
        // state, property, location or contamination, the container of a content: a write on
        // an id that does not exist (a plan's hallucinated object, quirk Q6) does nothing.
        // (Holding it and entering contents do happen: those are written on the agent and on
        // the container.)
        let owner = match predicate {
            "is" | "has" | "loc" | "contam" => args.first(),
            "in" => args.get(1),
            _ => None,
        };
        let condition = match owner {
            Some(x) if self.flavour == Flavour::Audit => {
                and(vec![self.now(&atom("present", vec![x.clone()])), condition])
            }
            _ => condition,
        };
        // Audit flavour: contents are lists in Simmer, so an id can be in a container more
        // than once (POUR of a non-receptacle, FILL from the same tap twice). Entering adds a
        // copy; leaving by this write removes every copy.
        if self.flavour == Flavour::Audit && predicate == "in" {
            if add {
                let levels = self.copies(args.clone());
                for (k, level) in IN_LEVELS.iter().enumerate().skip(1) {
                    let cond = and(vec![condition.clone(), levels[k - 1].clone()]);
                    self.push(vars.clone(), cond, level, args.clone(), true);
                }
            } else {
                for level in &IN_LEVELS[1..] {
                    self.push(vars.clone(), condition.clone(), level, args.clone(), false);
                }
            }
        }
        self.push(vars, condition, predicate, args, add);
    }

    /// "At least once, twice …": the current value of each of `IN_LEVELS` for these args.
    pub fn copies(&self, args: Vec<Term>) -> Vec<Formula> {
        IN_LEVELS
            .iter()
            .map(|l| self.now(&atom(l, args.clone())))
            .collect()
    }

    /// Records a write as it is, unless its condition is false.
    pub fn push(
        &mut self,
        vars: Vec<(String, String)>,
        condition: Formula,
        predicate: &str,
        args: Vec<Term>,
        add: bool,
    ) {
        if condition == Formula::False {
            return;
        }
        self.writes.push(Write {
            vars,
            condition,
            predicate: predicate.to_string(),
            args,
            add,
        });
    }

    /// Removes one copy of `x` from the contents of `container` (Simmer's `list.remove`). The
    /// planning flavour keeps contents as sets.
    pub fn remove_copy(
        &mut self,
        vars: Vec<(String, String)>,
        condition: Formula,
        x: &Term,
        container: &Term,
    ) {
        let args = vec![x.clone(), container.clone()];
        if self.flavour == Flavour::Planning {
            self.write(vars, condition, "in", args, false);
            return;
        }
        let present = self.now(&atom("present", vec![container.clone()]));
        let levels = self.copies(args.clone());
        for (k, level) in IN_LEVELS.iter().enumerate() {
            let top = match levels.get(k + 1) {
                Some(next) => and(vec![levels[k].clone(), not(next.clone())]),
                None => levels[k].clone(),
            };
            let cond = and(vec![condition.clone(), present.clone(), top]);
            self.push(vars.clone(), cond, level, args.clone(), false);
        }
    }

    /// Makes `predicate(args)` true.
    pub fn add(&mut self, predicate: &str, args: Vec<Term>) {
        self.write(Vec::new(), Formula::True, predicate, args, true);
    }

    /// Makes `predicate(args)` false.
    pub fn delete(&mut self, predicate: &str, args: Vec<Term>) {
        self.write(Vec::new(), Formula::True, predicate, args, false);
    }

    /// Deletes `predicate(x, ?v)` for every `?v` of the type, under a condition on `x` and the
    /// variables of `extra`.
    pub fn delete_all(
        &mut self,
        predicate: &str,
        x: &Term,
        ty: &str,
        condition: Formula,
        extra: Vec<(String, String)>,
    ) {
        let value = self.fresh.next("v");
        let mut vars = extra;
        vars.push((value.clone(), ty.to_string()));
        self.write(
            vars,
            condition,
            predicate,
            vec![x.clone(), Term::Var(value)],
            false,
        );
    }
}
