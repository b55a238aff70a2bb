//! What a BDDL problem is checked against: the synset taxonomy and the domain's predicates,
//! shipped for BEHAVIOR-100 (domains/bddl/, converted from bddl v1.0.1) or given by the user.

use crate::ast::bddl::{BddlDomain, DomainSection};
use crate::ast::{Name, Span};
use crate::diagnostics::{Code, Diagnostic};
use std::collections::HashMap;

const SYNSETS_TSV: &str = include_str!("../../domains/bddl/synsets.tsv");
const IGIBSON_TOML: &str = include_str!("../../domains/bddl/igibson.toml");

/// The synset every problem's agent has, outside every taxonomy.
pub const AGENT_SYNSET: &str = "agent.n.01";

/// A synset taxonomy: which names are synsets, and which have simulator object models.
#[derive(Clone, Debug, Default)]
pub struct Synsets {
    /// Synset → whether the simulator has object models for it (`hierarchy_owned`).
    entries: HashMap<String, bool>,
}

impl Synsets {
    /// BEHAVIOR-100's taxonomy (1,822 synsets, 756 with iGibson models).
    pub fn embedded() -> Synsets {
        let mut entries = HashMap::new();
        for line in SYNSETS_TSV.lines().filter(|l| !l.starts_with('#')) {
            let mut fields = line.split('\t');
            if let (Some(name), Some(_parents), Some(owned)) =
                (fields.next(), fields.next(), fields.next())
            {
                entries.insert(name.to_string(), owned == "1");
            }
        }
        Synsets { entries }
    }

    /// A taxonomy in bddl's `hierarchy_*.json` format (a tree of `{name, children}`): every
    /// node is a synset; `owned` marks those with models (all of them when `owned` is `None`).
    pub fn from_hierarchy_json(all: &str, owned: Option<&str>) -> Result<Synsets, Diagnostic> {
        let read = |text: &str| -> Result<Vec<String>, Diagnostic> {
            let value: serde_json::Value = serde_json::from_str(text).map_err(|error| {
                Diagnostic::unlocated(
                    Code::IoError,
                    format!("the synset hierarchy is not JSON: {error}"),
                )
            })?;
            let mut names = Vec::new();
            let mut stack = vec![&value];
            while let Some(node) = stack.pop() {
                if let Some(name) = node.get("name").and_then(|n| n.as_str()) {
                    names.push(name.to_lowercase());
                }
                if let Some(children) = node.get("children").and_then(|c| c.as_array()) {
                    stack.extend(children);
                }
            }
            if names.is_empty() {
                return Err(Diagnostic::unlocated(
                    Code::IoError,
                    "the synset hierarchy has no node with a `name`",
                ));
            }
            Ok(names)
        };
        let every = read(all)?;
        let owned = owned.map(read).transpose()?;
        let entries = every
            .into_iter()
            .map(|name| {
                let has_model = owned.as_ref().is_none_or(|o| o.contains(&name));
                (name, has_model)
            })
            .collect();
        Ok(Synsets { entries })
    }

    /// `Some(has models)` for a synset, `None` for a name that is not one.
    pub fn lookup(&self, name: &str) -> Option<bool> {
        self.entries.get(name).copied()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every synset name, for "did you mean".
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }
}

/// The predicates a problem may use: those its domain declares, and those the simulator
/// evaluates (`simulator`) or reads from `:init` when it loads a scene (`scene`).
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    pub domain: String,
    /// Whether the domain's predicates are known: when not, predicates are not checked.
    pub known: bool,
    pub declared: HashMap<String, usize>,
    /// `None` when no simulator is known: only the domain's predicates count.
    pub simulator: Option<HashMap<String, usize>>,
    /// Predicates the simulator's scene loader reads from `:init` and the reference drops
    /// before compiling it (`inroom`).
    pub scene: HashMap<String, usize>,
}

impl Vocabulary {
    /// iGibson's domain and backend, which BEHAVIOR-100 and ActPlan-1K problems name.
    pub fn igibson() -> Vocabulary {
        let mut vocabulary = Vocabulary {
            domain: "igibson".into(),
            known: true,
            ..Vocabulary::default()
        };
        let mut simulator = HashMap::new();
        let mut table = "";
        for line in IGIBSON_TOML.lines().map(str::trim) {
            if line.starts_with('[') {
                table = line.trim_matches(|c| c == '[' || c == ']');
                continue;
            }
            let Some((name, arity)) = line.split_once(" = ") else {
                continue;
            };
            let Ok(arity) = arity.parse::<usize>() else {
                continue;
            };
            let name = name.to_string();
            match table {
                "declared" => vocabulary.declared.insert(name, arity),
                "simulator" if name == "inroom" => vocabulary.scene.insert(name, arity),
                "simulator" => simulator.insert(name, arity),
                _ => None,
            };
        }
        vocabulary.simulator = Some(simulator);
        vocabulary
    }

    /// The predicates a domain file declares; iGibson's backend when the domain is `igibson`.
    pub fn of_domain(domain: &BddlDomain) -> Vocabulary {
        let name = domain.name.as_str().to_lowercase();
        let mut vocabulary = if name == "igibson" {
            Vocabulary::igibson()
        } else {
            Vocabulary::default()
        };
        vocabulary.domain = name;
        vocabulary.known = true;
        vocabulary.declared = declared_predicates(domain)
            .map(|(name, arity, _)| (name.as_str().to_lowercase(), arity))
            .collect();
        vocabulary
    }

    /// A domain known by name only (no file given, none shipped): predicates go unchecked.
    pub fn unknown(domain: &str) -> Vocabulary {
        Vocabulary {
            domain: domain.to_lowercase(),
            ..Vocabulary::default()
        }
    }

    /// Whether `predicate` is known at all, and with which arity.
    pub fn arity(&self, predicate: &str) -> Option<usize> {
        self.declared
            .get(predicate)
            .or_else(|| self.simulator.as_ref().and_then(|s| s.get(predicate)))
            .or_else(|| self.scene.get(predicate))
            .copied()
    }

    /// Every predicate name, for "did you mean".
    pub fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.declared.keys().map(String::as_str).collect();
        if let Some(simulator) = &self.simulator {
            names.extend(simulator.keys().map(String::as_str));
        }
        names.extend(self.scene.keys().map(String::as_str));
        names.sort_unstable();
        names.dedup();
        names
    }
}

/// A domain's predicate declarations: name, arity and span.
pub(super) fn declared_predicates(
    domain: &BddlDomain,
) -> impl Iterator<Item = (&Name, usize, Span)> {
    domain.sections.iter().flat_map(|section| match section {
        DomainSection::Predicates { predicates, .. } => predicates
            .iter()
            .map(|p| {
                let arity = p.parameters.iter().map(|g| g.names.len()).sum();
                (&p.name, arity, p.span)
            })
            .collect::<Vec<_>>(),
        _ => Vec::new(),
    })
}
