//! Tidy checks on the diagnostic registry: every code has a section in docs/diagnostics.md and a
//! fixture named after it, and codes and names are unique.

use pddlc::diagnostics::Code;
use std::collections::HashSet;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Codes no input is known to produce (their doc says why).
const WITHOUT_FIXTURE: &[&str] = &["P000", "S502"];

#[test]
fn every_code_has_a_documented_section() {
    let docs = std::fs::read_to_string(root().join("docs/diagnostics.md")).expect("docs");
    let missing: Vec<String> = Code::ALL
        .iter()
        .map(|code| format!("## {} {}", code.as_str(), code.name()))
        .filter(|heading| !docs.lines().any(|line| line == heading))
        .collect();
    assert!(missing.is_empty(), "docs/diagnostics.md lacks: {missing:?}");
    let severity_lines = docs.matches("**Severity:**").count();
    assert_eq!(
        severity_lines,
        Code::ALL.len(),
        "one severity line per code"
    );
    for code in Code::ALL {
        let section = docs
            .split(&format!("## {} {}", code.as_str(), code.name()))
            .nth(1)
            .and_then(|rest| rest.split("\n## ").next())
            .unwrap_or_default();
        let documented = format!("**Severity:** {}", code.default_severity());
        assert!(
            section.contains(&documented),
            "{code}: doc must say `{documented}`"
        );
    }
}

#[test]
fn every_code_has_a_fixture() {
    let mut names = Vec::new();
    let mut stack = vec![root().join("fixtures")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("fixtures directory") {
            let path = entry.expect("entry").path();
            if let Some(name) = path.file_name() {
                names.push(name.to_string_lossy().to_string());
            }
            if path.is_dir() {
                stack.push(path);
            }
        }
    }
    let missing: Vec<&str> = Code::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|code| !WITHOUT_FIXTURE.contains(code))
        .filter(|code| !names.iter().any(|n| n.starts_with(&format!("{code}_"))))
        .collect();
    assert!(missing.is_empty(), "codes without a fixture: {missing:?}");
}

#[test]
fn codes_and_names_are_unique_and_well_formed() {
    let mut codes = HashSet::new();
    let mut names = HashSet::new();
    for code in Code::ALL {
        assert!(codes.insert(code.as_str()), "{code} registered twice");
        assert!(names.insert(code.name()), "{} named twice", code.name());
        let (letter, digits) = code.as_str().split_at(1);
        assert!(
            "PCVKSMBW".contains(letter) && digits.len() == 3,
            "{code} is not like P001"
        );
        assert!(
            code.name()
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{} is not kebab-case",
            code.name()
        );
        assert!(
            !code.summary().ends_with('.'),
            "{code}: summary ends with a period"
        );
    }
}
