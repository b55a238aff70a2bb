//! Runs every fixture under fixtures/parse: snapshots the rendered diagnostics, and checks that
//! a fixture named after a code (`P005_…`) reports that code.

mod common;

use pddlc::diagnostics::render::{self, HumanOptions, Sources};
use pddlc::diagnostics::{Diagnostic, SourceFile};
use pddlc::parse;
use std::path::Path;

fn diagnose(bytes: &[u8]) -> (String, Vec<Diagnostic>) {
    match parse::decode(bytes) {
        Ok(text) => (text.to_string(), parse::file(text).diagnostics),
        Err(diagnostic) => (
            String::from_utf8_lossy(bytes).replace('\0', " "),
            vec![diagnostic],
        ),
    }
}

#[test]
fn parse_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/parse");
    let files = common::pddl_files(&dir);
    assert!(
        files.len() >= 20,
        "expected the parse fixtures in {}",
        dir.display()
    );
    let cases = files.into_iter().map(|path| {
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        (name, path)
    });
    common::run_each(cases, |name, path| {
        let bytes = std::fs::read(&path).expect("readable fixture");
        let (text, diagnostics) = diagnose(&bytes);
        let code = name.split('_').next().unwrap_or_default();
        assert!(
            diagnostics.iter().any(|d| d.code.as_str() == code),
            "{name}: expected a {code} diagnostic, got {diagnostics:?}"
        );
        let sources = [SourceFile::new(format!("{name}.pddl"), text)];
        let sources = Sources::new(&sources);
        let human = render::human(&diagnostics, &sources, &HumanOptions::default());
        let gcc = render::gcc(&diagnostics, &sources);
        insta::with_settings!({
            snapshot_path => "snapshots/parse",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name, format!("{gcc}\n{human}"));
        });
    });
}
