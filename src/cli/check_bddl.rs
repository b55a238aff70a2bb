//! `pddlc check` on BDDL files, through `bddl::check_file` (the front door the language server
//! and Python use too): each problem against a BDDL domain among the inputs that its
//! `(:domain …)` names, else the shipped iGibson domain.

use pddlc::ast::bddl::{BddlDomain, BddlFile};
use pddlc::bddl::{self, Synsets};
use pddlc::diagnostics::{Diagnostic, FileId, SourceFile};

/// A BDDL input: its position among the inputs and its tree, if it parsed.
pub(super) struct BddlInput {
    pub index: usize,
    pub file: Option<BddlFile>,
}

/// What one BDDL input was checked against: the input index of its domain, and a note.
pub(super) struct BddlChecked {
    pub index: usize,
    pub domain: Option<usize>,
    pub note: Option<String>,
}

/// Checks every BDDL input; `hierarchy` replaces the shipped taxonomy.
pub(super) fn check_all(
    inputs: &[BddlInput],
    sources: &[SourceFile],
    hierarchy: Option<&Synsets>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<BddlChecked> {
    let domains: Vec<(usize, &BddlDomain)> = inputs
        .iter()
        .filter_map(|input| match &input.file {
            Some(BddlFile::Domain(domain)) => Some((input.index, domain)),
            _ => None,
        })
        .collect();
    let trees: Vec<&BddlDomain> = domains.iter().map(|(_, d)| *d).collect();
    let shipped = bddl::Shipped::new();
    let mut checked = Vec::new();
    for input in inputs {
        let Some(file) = &input.file else { continue };
        let path = &sources[input.index].name;
        let (found, against) = shipped.check_file(file, &trees, hierarchy, Some(path));
        let id = FileId(input.index as u32);
        diagnostics.extend(found.into_iter().map(|d| d.in_file(id)));
        checked.push(BddlChecked {
            index: input.index,
            domain: against.domain.map(|d| domains[d].0),
            note: against.note,
        });
    }
    checked
}
