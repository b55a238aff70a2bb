//! A problem as the reference reads it (`bddl/parsing.py:parse_problem`, semantics.md §1.2):
//! sections processed from last to first, a repeated category's last list winning, the first
//! `:init` winning, `:goal` sections appended with only their first formula read and a
//! top-level `and` split into conjuncts.

use crate::ast::bddl::{BddlProblem, Formula, FormulaKind, ProblemSection, TypedGroup};
use crate::ast::{Name, Span};
use std::collections::HashMap;

/// The category of names written after the last `- category` of `:objects`.
pub const UNTYPED_CATEGORY: &str = "object";

/// What the reference builds from a problem before compiling anything.
#[derive(Clone, Debug)]
pub struct Activity<'p> {
    pub problem: &'p BddlProblem,
    /// Category → instances, lower-cased, in the reference's dictionary order (a category keeps
    /// the position of its first assignment; a repeated category's last list wins).
    pub objects: Vec<(String, Vec<String>)>,
    /// Every instance once, in the reference's scope order (categories in `objects` order).
    pub scope: Vec<String>,
    /// The literals of the `:init` section the reference keeps (the first in the file).
    pub init: Vec<&'p Formula>,
    /// The goal's top-level conjuncts (semantics.md §2): what `conjuncts` verdicts index.
    pub goal: Vec<&'p Formula>,
    /// `:goal` sections with no formula (the reference fails with `IndexError`).
    pub empty_goals: Vec<Span>,
    /// Formulas of `:goal` after its first, which the reference drops.
    pub dropped: Vec<&'p Formula>,
    /// The domain named by `(:domain …)` (the last section's in the file order the reference
    /// reads, i.e. the first written).
    pub domain: Option<&'p Name>,
    /// Whether a goal section exists at all.
    pub has_goal: bool,
    index: HashMap<String, usize>,
}

impl<'p> Activity<'p> {
    /// Reads `problem` the reference's way.
    pub fn new(problem: &'p BddlProblem) -> Activity<'p> {
        let mut activity = Activity {
            problem,
            objects: Vec::new(),
            scope: Vec::new(),
            init: Vec::new(),
            goal: Vec::new(),
            empty_goals: Vec::new(),
            dropped: Vec::new(),
            domain: None,
            has_goal: false,
            index: HashMap::new(),
        };
        for section in problem.sections.iter().rev() {
            match section {
                ProblemSection::Objects { groups, .. } => activity.assign(groups),
                ProblemSection::Init { literals, .. } => {
                    activity.init = literals.iter().collect();
                }
                ProblemSection::Goal { formulas, span } => {
                    activity.has_goal = true;
                    let Some(first) = formulas.first() else {
                        activity.empty_goals.push(*span);
                        continue;
                    };
                    match &first.kind {
                        FormulaKind::And(conjuncts) => activity.goal.extend(conjuncts.iter()),
                        _ => activity.goal.push(first),
                    }
                    activity.dropped.extend(formulas.iter().skip(1));
                }
                ProblemSection::Domain { name, .. } => activity.domain = name.as_ref(),
                ProblemSection::Requirements { .. } | ProblemSection::Unknown(_) => {}
            }
        }
        for (_, instances) in &activity.objects {
            for instance in instances {
                if !activity.index.contains_key(instance) {
                    activity
                        .index
                        .insert(instance.clone(), activity.scope.len());
                    activity.scope.push(instance.clone());
                }
            }
        }
        activity
    }

    fn assign(&mut self, groups: &[TypedGroup]) {
        for group in groups {
            let category = group.category.as_ref().map_or_else(
                || UNTYPED_CATEGORY.to_string(),
                |c| c.as_str().to_lowercase(),
            );
            let instances = group
                .names
                .iter()
                .map(|n| n.as_str().to_lowercase())
                .collect();
            match self.objects.iter_mut().find(|(c, _)| *c == category) {
                Some((_, list)) => *list = instances,
                None => self.objects.push((category, instances)),
            }
        }
    }

    /// The position of an instance in the scope.
    pub fn instance(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// The instances of exactly `category` (no subtypes), as scope positions in scope order;
    /// `None` when `:objects` never declares the category.
    pub fn members(&self, category: &str) -> Option<Vec<usize>> {
        let (_, list) = self.objects.iter().find(|(c, _)| c == category)?;
        let mut members: Vec<usize> = list.iter().filter_map(|i| self.instance(i)).collect();
        members.sort_unstable();
        members.dedup();
        Some(members)
    }
}
