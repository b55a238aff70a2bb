//! Runs every fixture under fixtures/check: a directory with `domain.pddl` and optionally
//! `problem.pddl`. `expected.txt` lists every diagnostic as `CODE file:line:column`; a directory
//! named after a code must report it, one named `clean_…` must report nothing; the rendered
//! output is snapshotted.

mod common;

use pddlc::ast::PddlFile;
use pddlc::check;
use pddlc::diagnostics::TaskFiles;
use pddlc::diagnostics::render::{self, HumanOptions, Sources};
use pddlc::diagnostics::{Diagnostic, FileId, LineIndex, SourceFile};
use std::path::Path;

fn diagnose(dir: &Path) -> (Vec<SourceFile>, Vec<Diagnostic>) {
    let mut sources = Vec::new();
    let mut diagnostics = Vec::new();
    let mut domain = None;
    for (i, name) in ["domain.pddl", "problem.pddl"].iter().enumerate() {
        let path = dir.join(name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let parsed = pddlc::parse::file(&text);
        let parsed_diagnostics = parsed.diagnostics.clone();
        diagnostics.extend(
            parsed
                .diagnostics
                .into_iter()
                .map(|d| d.in_file(FileId(i as u32))),
        );
        match parsed.value {
            Some(PddlFile::Domain(d)) => {
                diagnostics.extend(check::domain(&d, FileId(0)));
                domain = Some(d);
            }
            Some(PddlFile::Problem(p)) => {
                let d = domain
                    .as_ref()
                    .expect("the domain parses before its problem");
                let whole = check::problem(d, &p, TaskFiles::default());
                // Checking while the text is read, facts and goal dropped as they go, finds
                // exactly what checking the whole tree finds.
                let (streamed_parse, streamed) =
                    check::problem_source(d, &text, TaskFiles::default());
                assert_eq!(
                    streamed.as_deref(),
                    Some(&whole[..]),
                    "{}: check::problem_source differs from check::problem",
                    dir.display()
                );
                assert_eq!(
                    format!("{:?}", streamed_parse.diagnostics),
                    format!("{:?}", parsed_diagnostics),
                    "{}: the parse diagnostics differ",
                    dir.display()
                );
                diagnostics.extend(whole);
            }
            None => {}
        }
        sources.push(SourceFile::new(name.to_string(), text));
    }
    pddlc::diagnostics::sort(&mut diagnostics);
    (sources, diagnostics)
}

fn located(d: &Diagnostic, sources: &[SourceFile]) -> String {
    let label = d.primary().expect("check diagnostics are located");
    let source = &sources[label.file.0 as usize];
    let at = LineIndex::new(&source.text).line_col(&source.text, label.span.start);
    format!("{} {}:{}:{}", d.code, source.name, at.line, at.column)
}

#[test]
fn check_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/check");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("fixtures/check")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 20);
    let bless = std::env::var_os("PDDLC_BLESS").is_some();
    let cases = dirs.into_iter().map(|dir| {
        let name = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        (name, dir)
    });
    common::run_each(cases, |name, dir| {
        let (sources, diagnostics) = diagnose(&dir);
        let actual: Vec<String> = diagnostics.iter().map(|d| located(d, &sources)).collect();
        if name.starts_with("clean_") {
            assert!(
                actual.is_empty(),
                "{name}: expected no diagnostics, got {actual:#?}"
            );
        } else {
            let code = name.split('_').next().unwrap_or_default();
            assert!(
                diagnostics.iter().any(|d| d.code.as_str() == code),
                "{name}: expected a {code} diagnostic, got {actual:#?}"
            );
        }
        let expected_path = dir.join("expected.txt");
        if bless {
            std::fs::write(&expected_path, actual.join("\n") + "\n").expect("write expected.txt");
        }
        let expected: Vec<String> = std::fs::read_to_string(&expected_path)
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect();
        assert_eq!(
            actual, expected,
            "{name}: diagnostics differ from expected.txt"
        );
        let view = Sources::new(&sources);
        let output = format!(
            "{}\n{}",
            render::gcc(&diagnostics, &view),
            render::human(&diagnostics, &view, &HumanOptions::default())
        );
        insta::with_settings!({
            snapshot_path => "snapshots/check",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name, output);
        });
    });
}
