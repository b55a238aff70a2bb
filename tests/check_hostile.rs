//! The check on inputs with thousands of faults: at most `MAX_PER_FILE` diagnostics and one
//! `P019` note that counts the rest exactly, an undeclared name's uses labelled up to a bound and
//! all counted, and the same report whether a problem is checked as it is read or as a tree.

use pddlc::ast::PddlFile;
use pddlc::check;
use pddlc::diagnostics::TaskFiles;
use pddlc::diagnostics::{Code, Diagnostic, FileId, MAX_PER_FILE, Severity};
use pddlc::parse;

const BLOCKS: &str = include_str!("../domains/blocksworld/domain.pddl");

fn domain_of(text: &str) -> pddlc::ast::Domain {
    match parse::file(text).value {
        Some(PddlFile::Domain(domain)) => domain,
        other => panic!("not a domain: {other:?}"),
    }
}

fn closing_note(diagnostics: &[Diagnostic]) -> &Diagnostic {
    assert_eq!(diagnostics.len(), MAX_PER_FILE + 1, "{diagnostics:#?}");
    let note = diagnostics.last().expect("a note");
    assert_eq!(note.code, Code::TooManyDiagnostics);
    note
}

#[test]
fn thousands_of_duplicate_declarations_are_capped_and_counted() {
    let copies = 5_000;
    let text = BLOCKS.replacen(
        "(arm-empty))",
        &format!("(arm-empty){})", " (q)".repeat(copies)),
        1,
    );
    let found = check::domain(&domain_of(&text), FileId(0));
    // Each copy but the first is declared twice (C105), and the name is never used (C120, once
    // for the name, at its first declaration).
    let total = (copies - 1) + 1;
    let note = closing_note(&found);
    assert!(
        note.message
            .starts_with(&format!("{} more diagnostics", total - MAX_PER_FILE)),
        "{}",
        note.message
    );
    // Only warnings were left out: the note is a warning, so --deny-warnings still fails.
    assert_eq!(note.severity, Severity::Warning);
    let shown = &found[..MAX_PER_FILE];
    assert!(
        shown
            .iter()
            .all(|d| matches!(d.code.as_str(), "C105" | "C120"))
    );
    assert!(shown.windows(2).all(|w| {
        let key = |d: &Diagnostic| d.labels[0].span.start;
        key(&w[0]) <= key(&w[1])
    }));
}

#[test]
fn an_undeclared_name_used_thousands_of_times_is_one_diagnostic() {
    let uses = 5_000;
    let text = BLOCKS.replacen(
        ":precondition (and (clear ?x) (ontable ?x) (arm-empty))",
        &format!(
            ":precondition (and (clear ?x) (ontable ?x) (arm-empty){})",
            " (r)".repeat(uses)
        ),
        1,
    );
    let found = check::domain(&domain_of(&text), FileId(0));
    let undeclared: Vec<&Diagnostic> = found
        .iter()
        .filter(|d| d.code == Code::UndeclaredPredicate)
        .collect();
    assert_eq!(undeclared.len(), 1, "{found:#?}");
    let diagnostic = undeclared[0];
    assert_eq!(diagnostic.labels.len(), 100);
    let help = diagnostic.help.as_deref().unwrap_or_default();
    assert!(
        help.ends_with(&format!("used {uses} times, the first 100 labelled")),
        "{help}"
    );
}

#[test]
fn thousands_of_undeclared_objects_are_capped_alike_streamed_or_whole() {
    let objects = 5_000;
    let facts: String = (0..objects).map(|i| format!("(clear b{i}) ")).collect();
    let problem = format!(
        "(define (problem p) (:domain blocksworld) (:objects a - block)\n\
         (:init (arm-empty) {facts})\n(:goal (clear a)))"
    );
    let domain = domain_of(BLOCKS);
    let files = TaskFiles::default();
    let (parsed, streamed) = check::problem_source(&domain, &problem, files);
    let streamed = streamed.expect("a problem");
    let tree = match parsed.value {
        Some(PddlFile::Problem(tree)) => tree,
        other => panic!("not a problem: {other:?}"),
    };
    let whole = match parse::file(&problem).value {
        Some(PddlFile::Problem(tree)) => check::problem(&domain, &tree, files),
        other => panic!("not a problem: {other:?}"),
    };
    assert_eq!(streamed, whole);
    let note = closing_note(&streamed);
    let left_out = objects - MAX_PER_FILE;
    assert!(
        note.message.starts_with(&format!(
            "{left_out} more diagnostics from here on are not shown ({left_out} of them errors)"
        )),
        "{}",
        note.message
    );
    assert_eq!(note.severity, Severity::Error);
    // The problem's tree as read kept its objects; the facts were checked and dropped.
    assert!(tree.init.is_empty());
    // A checker prepared once gives each problem the same report.
    let checker = check::ProblemChecker::new(&domain, files.domain);
    for _ in 0..2 {
        let (_, again) = checker.problem_source(&problem, files.problem);
        assert_eq!(again.as_ref(), Some(&whole));
    }
}

#[test]
fn undeclared_objects_among_many_declared_ones_are_reported_without_searching_each_time() {
    // A "did you mean" searches every declared object: once per undeclared name, for the first
    // hundred names, not once per use (this problem took minutes when it was per use).
    let objects: String = (0..20_000).map(|i| format!("b{i} ")).collect();
    let uses: String = "(clear zz) ".repeat(5_000);
    let distinct: String = (0..1_000).map(|i| format!("(clear b{i}x) ")).collect();
    let problem = format!(
        "(define (problem p) (:domain blocksworld) (:objects {objects}- block)\n\
         (:init (arm-empty) {uses}{distinct})\n(:goal (clear b1)))"
    );
    let domain = domain_of(BLOCKS);
    let (_, found) = check::problem_source(&domain, &problem, TaskFiles::default());
    let found = found.expect("a problem");
    let zz = found
        .iter()
        .find(|d| d.message.contains("`zz`"))
        .expect("zz is reported");
    assert_eq!(zz.code, Code::UndeclaredConstant);
    assert!(
        zz.help
            .as_deref()
            .is_some_and(|h| h.ends_with("used 5000 times, the first 100 labelled")),
        "{zz:?}"
    );
    // zz and the first 99 of the others are shown; the other 901 are counted.
    let note = closing_note(&found);
    assert!(note.message.starts_with("901 more"), "{}", note.message);
    // The first undeclared names still get their suggestion: b0x is close to b0.
    let first = found
        .iter()
        .find(|d| d.message.contains("`b0x`"))
        .expect("b0x is reported");
    assert!(
        first.help.as_deref().is_some_and(|h| h.contains("`b0")),
        "{first:?}"
    );
}
