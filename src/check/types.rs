//! The type hierarchy: a graph from each type to its parents, rooted at `object`.

use super::domain::type_names;
use super::{Map, Set};
use crate::ast::{Name, Type, Typed};
use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

/// Types by lower-cased name, with edges from a type to each of its parents.
#[derive(Clone, Debug)]
pub struct TypeGraph {
    graph: DiGraph<String, ()>,
    index: Map<String, NodeIndex>,
    /// What each type asked about is below, found once: a typed problem asks whether each
    /// argument of each fact fits its parameter. Emptied whenever a type is added.
    ancestors: std::cell::RefCell<Map<NodeIndex, Vec<NodeIndex>>>,
}

pub const OBJECT: &str = "object";

impl Default for TypeGraph {
    fn default() -> Self {
        let mut graph = TypeGraph {
            graph: DiGraph::new(),
            index: Map::default(),
            ancestors: Default::default(),
        };
        graph.node(OBJECT);
        graph
    }
}

impl TypeGraph {
    /// The hierarchy a domain's `(:types …)` declares (as the checker builds it, without its
    /// diagnostics).
    pub fn of(types: &[Typed<Name>]) -> TypeGraph {
        let mut graph = TypeGraph::default();
        for t in types {
            graph.declare(t);
        }
        graph
    }

    /// Adds one entry of `(:types …)`: under `object` when untyped, under each of its parents
    /// otherwise. Declaring `object` itself, as some IPC domains do, adds nothing.
    pub fn declare(&mut self, t: &Typed<Name>) {
        let key = t.item.key();
        if key == OBJECT {
            return;
        }
        for parent in type_names(&t.ty) {
            self.add(&key, Some(&parent));
        }
    }

    /// Whether a constant, object or variable of type `ty` may be the argument of a parameter of
    /// type `wanted`, by the checker's rule for arguments: each type it may have must be below
    /// one of the parameter's; an untyped one (`object`) or one of an undeclared type fits, and
    /// anything fits a parameter of an undeclared type (that is reported where it is declared).
    pub fn fits(&self, ty: &Option<Type>, wanted: &Option<Type>) -> bool {
        let expected = type_names(wanted);
        if expected.iter().any(|e| !self.contains(e)) {
            return true;
        }
        type_names(ty).iter().all(|t| {
            t == OBJECT || !self.contains(t) || expected.iter().any(|e| self.is_subtype(t, e))
        })
    }

    fn node(&mut self, name: &str) -> NodeIndex {
        if let Some(&node) = self.index.get(name) {
            return node;
        }
        let node = self.graph.add_node(name.to_string());
        self.index.insert(name.to_string(), node);
        node
    }

    /// Declares `child` (lower-cased) with `parent` as one of its parents.
    pub fn add(&mut self, child: &str, parent: Option<&str>) {
        self.ancestors.get_mut().clear();
        let child_node = self.node(child);
        if let Some(parent) = parent {
            let parent_node = self.node(parent);
            if !self.graph.contains_edge(child_node, parent_node) {
                self.graph.add_edge(child_node, parent_node, ());
            }
        }
    }

    pub fn contains(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.index.keys().map(String::as_str)
    }

    /// Whether `sub` is `sup` or below it. Every type is below `object`; cycles are tolerated
    /// (they are reported separately).
    pub fn is_subtype(&self, sub: &str, sup: &str) -> bool {
        if sub == sup || sup == OBJECT {
            return true;
        }
        let (Some(&start), Some(&wanted)) = (self.index.get(sub), self.index.get(sup)) else {
            return false;
        };
        let mut known = self.ancestors.borrow_mut();
        let above = known.entry(start).or_insert_with(|| self.above(start));
        above.binary_search(&wanted).is_ok()
    }

    /// Every type `start` is below, itself included, sorted.
    fn above(&self, start: NodeIndex) -> Vec<NodeIndex> {
        let mut seen = Set::default();
        let mut stack = vec![start];
        while let Some(node) = stack.pop() {
            if seen.insert(node) {
                stack.extend(self.graph.neighbors(node));
            }
        }
        let mut above: Vec<NodeIndex> = seen.into_iter().collect();
        above.sort_unstable();
        above
    }

    /// The types on a cycle, one list per cycle, each sorted.
    pub fn cycles(&self) -> Vec<Vec<String>> {
        let mut cycles: Vec<Vec<String>> = tarjan_scc(&self.graph)
            .into_iter()
            .filter(|component| {
                component.len() > 1
                    || component
                        .first()
                        .is_some_and(|&n| self.graph.contains_edge(n, n))
            })
            .map(|component| {
                let mut names: Vec<String> =
                    component.iter().map(|&n| self.graph[n].clone()).collect();
                names.sort();
                names
            })
            .collect();
        cycles.sort();
        cycles
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subtypes_follow_parents_and_everything_is_an_object() {
        let mut types = TypeGraph::default();
        types.add("truck", Some("vehicle"));
        types.add("vehicle", Some("locatable"));
        types.add("crate", Some("locatable"));
        assert!(types.is_subtype("truck", "locatable"));
        assert!(types.is_subtype("truck", "object"));
        assert!(!types.is_subtype("locatable", "truck"));
        assert!(!types.is_subtype("crate", "vehicle"));
        assert!(types.cycles().is_empty());
    }

    #[test]
    fn arguments_fit_by_the_checkers_rule() {
        let text = "(define (domain d) (:requirements :typing)
            (:types truck - vehicle vehicle place - object))";
        let Some(crate::ast::PddlFile::Domain(domain)) = crate::parse::file(text).value else {
            panic!("a domain");
        };
        let types = TypeGraph::of(&domain.types);
        let ty = |name: &str| {
            let text = format!("(define (domain d) (:constants c - {name}))");
            match crate::parse::file(&text).value {
                Some(crate::ast::PddlFile::Domain(d)) => d.constants[0].ty.clone(),
                _ => panic!("a constant"),
            }
        };
        assert!(types.fits(&ty("truck"), &ty("vehicle")));
        assert!(!types.fits(&ty("vehicle"), &ty("truck")));
        assert!(!types.fits(&ty("place"), &ty("vehicle")));
        // Untyped fits anything, anything fits `object` and a type never declared.
        assert!(types.fits(&None, &ty("truck")));
        assert!(types.fits(&ty("place"), &None));
        assert!(types.fits(&ty("place"), &ty("boat")));
        assert!(types.fits(&ty("truck"), &ty("(either place vehicle)")));
    }

    #[test]
    fn cycles_are_found() {
        let mut types = TypeGraph::default();
        types.add("a", Some("b"));
        types.add("b", Some("c"));
        types.add("c", Some("a"));
        types.add("d", Some("d"));
        assert_eq!(types.cycles(), vec![vec!["a", "b", "c"], vec!["d"]]);
        // Walking up a cycle terminates.
        assert!(!types.is_subtype("a", "d"));
    }
}
