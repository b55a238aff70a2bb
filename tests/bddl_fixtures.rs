//! Runs every BDDL fixture under fixtures/bddl/check through `bddl::check_file`, the front
//! door every surface uses: a file or directory named after a code must report that code; a
//! directory's `domain.bddl` is the domain its problem is checked against. Every fixture's
//! diagnostics are snapshotted as `pddlc check` prints them (gcc lines).

mod common;

use pddlc::ast::bddl::{BddlDomain, BddlFile};
use pddlc::diagnostics::render::{self, Sources};
use pddlc::diagnostics::{Diagnostic, FileId, SourceFile};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bddl/check")
}

/// The fixture's files, the domain (if any) first, and the diagnostics of them all.
fn diagnose(fixture: &Path) -> (Vec<SourceFile>, Vec<Diagnostic>) {
    let mut paths = if fixture.is_dir() {
        common::files_with_extension(fixture, "bddl")
    } else {
        vec![fixture.to_path_buf()]
    };
    paths.sort_by_key(|p| !p.ends_with("domain.bddl"));
    let mut sources = Vec::new();
    let mut diagnostics = Vec::new();
    let mut trees = Vec::new();
    for (i, path) in paths.iter().enumerate() {
        let text = std::fs::read_to_string(path).expect("readable fixture");
        let name = path
            .strip_prefix(root())
            .expect("under fixtures")
            .display()
            .to_string();
        let parsed = pddlc::parse::bddl(&text);
        diagnostics.extend(
            parsed
                .diagnostics
                .into_iter()
                .map(|d| d.in_file(FileId(i as u32))),
        );
        trees.push((i, name.clone(), parsed.value));
        sources.push(SourceFile::new(name, text));
    }
    let domains: Vec<&BddlDomain> = trees
        .iter()
        .filter_map(|(_, _, t)| match t {
            Some(BddlFile::Domain(d)) => Some(d),
            _ => None,
        })
        .collect();
    for (i, name, tree) in &trees {
        let Some(tree) = tree else { continue };
        let (found, _) = pddlc::bddl::check_file(tree, &domains, None, Some(name));
        diagnostics.extend(found.into_iter().map(|d| d.in_file(FileId(*i as u32))));
    }
    pddlc::diagnostics::sort(&mut diagnostics);
    (sources, diagnostics)
}

#[test]
fn every_fixture_reports_its_code() {
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(root())
        .expect("fixtures/bddl/check")
        .map(|e| e.expect("entry").path())
        .collect();
    fixtures.sort();
    assert!(fixtures.len() >= 25, "{} fixtures", fixtures.len());
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots/bddl_fixtures");
    settings.set_prepend_module_to_snapshot(false);
    for fixture in fixtures {
        let name = fixture
            .file_stem()
            .expect("a name")
            .to_string_lossy()
            .to_string();
        let code = &name[..4];
        let (sources, diagnostics) = diagnose(&fixture);
        assert!(
            diagnostics.iter().any(|d| d.code.as_str() == code),
            "{name}: no {code} in {diagnostics:#?}"
        );
        let printed = render::gcc(&diagnostics, &Sources::new(&sources));
        settings.bind(|| insta::assert_snapshot!(name, printed));
    }
}
