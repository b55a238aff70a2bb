//! The parser on damaged and extreme input: never a panic, never a span outside the text, and
//! the deepest accepted nesting is safe through every recursive stage.

mod common;

use pddlc::fmt;
use pddlc::parse::{self, MAX_DEPTH};

fn assert_sane(text: &str, what: &str) {
    let parsed = parse::file(text);
    for d in &parsed.diagnostics {
        for label in &d.labels {
            assert!(
                label.span.start <= label.span.end && label.span.end <= text.len(),
                "{what}: label {:?} outside the text ({} bytes)",
                label.span,
                text.len()
            );
        }
    }
    if parsed.value.is_none() {
        assert!(parsed.has_errors(), "{what}: no tree and no error");
    }
}

#[test]
fn every_single_byte_deletion_of_the_shipped_domain_is_handled() {
    let text = include_str!("../domains/blocksworld/domain.pddl");
    for i in 0..text.len() {
        if !text.is_char_boundary(i) || !text.is_char_boundary(i + 1) {
            continue;
        }
        let damaged = format!("{}{}", &text[..i], &text[i + 1..]);
        assert_sane(&damaged, &format!("deleting byte {i}"));
    }
}

#[test]
fn truncations_of_corpus_files_are_handled() {
    let Some(shared) = common::shared("truncations_of_corpus_files") else {
        return;
    };
    let corpus = shared.join("corpus");
    let samples = [
        "potassco/ipc-2002/domains/satellite-complex-automatic/domain.pddl",
        "potassco/ipc-2006/domains/trucks-preferences-simple/domain.pddl",
        "pddl-plus-domains/generator_nl/domain_nl.pddl",
        "ipc2023-numeric/drone/domain.pddl",
        "potassco/ipc-2008/domains/elevator-net-benefit-optimal-numeric-fluents/domain.pddl",
    ];
    for sample in samples {
        let path = corpus.join(sample);
        let Ok(text) = std::fs::read_to_string(&path) else {
            panic!("corpus sample {sample} is missing");
        };
        for cut in (0..text.len())
            .step_by(97)
            .filter(|&c| text.is_char_boundary(c))
        {
            assert_sane(&text[..cut], &format!("{sample} cut at {cut}"));
        }
    }
}

#[test]
fn the_deepest_accepted_nesting_survives_parse_print_and_serialise() {
    // define, action and the outer `and` take three levels; fill the rest with `not`.
    let depth = MAX_DEPTH - 4;
    let body = format!("{}(p){}", "(not ".repeat(depth), ")".repeat(depth));
    let text = format!(
        "(define (domain deep) (:predicates (p)) (:action a :parameters () :precondition (and {body}) :effect (p)))"
    );
    let parsed = parse::file(&text);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let file = parsed.value.expect("a tree");
    let printed = fmt::file(&file);
    let again = parse::file(&printed)
        .value
        .expect("the printed text parses");
    assert_eq!(common::without_spans(&again), common::without_spans(&file));
    let json = parse::with_stack(|| serde_json::to_string(&file)).expect("serialises");
    assert!(json.len() > depth * 10);
    let one_more = format!(
        "(define (domain deep) (:predicates (p)) (:action a :parameters () :precondition (and (not {body})) :effect (p)))"
    );
    let parsed = parse::file(&one_more);
    assert!(parsed.diagnostics.iter().any(|d| d.code.as_str() == "P006"));
}

/// `parse::STACK_NEEDED` is enough: the deepest accepted inputs go through every recursive
/// stage on a thread with only that much stack (and a little for the test itself), where
/// `parse::with_stack` runs them in place instead of moving to a stack of its own. An overflow
/// would abort the test program.
#[test]
fn the_deepest_inputs_fit_in_the_stack_the_stages_ask_for() {
    use pddlc::ast::PddlFile;
    use pddlc::diagnostics::FileId;
    use pddlc::score::{self, Mode};
    let depth = MAX_DEPTH - 6;
    let domain = |precondition: &str, effect: &str| {
        format!(
            "(define (domain deep) (:requirements :adl :numeric-fluents) (:functions (f)) \
             (:predicates (p)) (:action a :parameters () :precondition (and {precondition}) \
             :effect {effect}))"
        )
    };
    let nots = format!("{}(p){}", "(not ".repeat(depth), ")".repeat(depth));
    let sums = format!("(> {}(f){} 0)", "(+ 1 ".repeat(depth), ")".repeat(depth));
    let texts = [
        domain(&nots, "(p)"),
        domain(&sums, "(p)"),
        domain("(p)", &format!("(when {nots} (p))")),
    ];
    let deepest = move || {
        for text in &texts {
            let parsed = parse::file(text);
            assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
            let Some(PddlFile::Domain(domain)) = parsed.value else {
                panic!("a domain");
            };
            pddlc::check::domain(&domain, FileId(0));
            assert!(fmt::domain(&domain).len() > depth * 5);
            assert!(serde_json::to_string(&domain).is_ok());
            for mode in [Mode::Clean, Mode::Text2World] {
                assert_eq!(score::compare(text, text, mode, false).metrics.sim, 100.0);
            }
        }
    };
    std::thread::Builder::new()
        .stack_size(parse::STACK_NEEDED + 256 * 1024)
        .spawn(deepest)
        .expect("a thread")
        .join()
        .expect("the stages run to the end");
}

/// Every corpus file up to 40 KB cut at every 97th byte; files up to 6 KB also cut and closed
/// with the `)` they lack, so that the grammar, its recovery, lowering and the checker all run
/// on the partial structure. (All cuts of all files would parse 1.4 TB.)
#[test]
fn truncated_corpus_files_never_panic() {
    use rayon::prelude::*;
    let Some(shared) = common::shared("truncated_corpus_files_never_panic") else {
        return;
    };
    let files: Vec<String> = common::pddl_files(&shared.join("corpus"))
        .into_iter()
        .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.len() <= 40_000))
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect();
    // The corpus holds 2,719 files of up to 40 kB; a truncated corpus must not pass.
    assert!(files.len() > 2650, "{} files", files.len());
    let cuts: usize = files
        .par_iter()
        .map(|text| {
            let mut count = 0;
            for cut in (0..text.len())
                .step_by(97)
                .filter(|&c| text.is_char_boundary(c))
            {
                let part = &text[..cut];
                assert_sane(part, "truncation");
                count += 1;
                if text.len() <= 6_000 {
                    let open = part
                        .matches('(')
                        .count()
                        .saturating_sub(part.matches(')').count());
                    let closed = format!("{part}{}", ")".repeat(open));
                    assert_sane(&closed, "closed truncation");
                    if let Some(pddlc::ast::PddlFile::Domain(d)) = parse::file(&closed).value {
                        let diagnostics = pddlc::check::domain(&d, pddlc::diagnostics::FileId(0));
                        assert!(diagnostics.iter().all(|d| d.primary().is_some()));
                    }
                }
            }
            count
        })
        .sum();
    eprintln!("{cuts} truncations of {} corpus files", files.len());
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Random edits of real domains and problems: every result parses without panic, its labels
/// stay in the text, the checker runs on whatever tree comes out, and a result without errors
/// prints and parses back to the same tree.
#[test]
fn random_mutations_never_panic_and_print_losslessly() {
    let mut texts = vec![
        include_str!("../domains/blocksworld/domain.pddl").to_string(),
        include_str!("../domains/blocksworld/problem.pddl").to_string(),
    ];
    if let Some(shared) = common::shared("random_mutations") {
        for sample in [
            "potassco/ipc-2002/domains/satellite-complex-automatic/domain.pddl",
            "pddl-plus-domains/generator_nl/domain_nl.pddl",
            "ipc2023-numeric/drone/domain.pddl",
            "potassco/ipc-2006/domains/trucks-preferences-simple/domain.pddl",
        ] {
            // A missing sample fails, so that the test never runs on fewer texts than it names.
            let text = std::fs::read_to_string(shared.join("corpus").join(sample))
                .unwrap_or_else(|e| panic!("corpus sample {sample}: {e}"));
            texts.push(text);
        }
    }
    let pieces = [
        "(",
        ")",
        " ",
        "?x",
        "and",
        "not",
        ":action",
        "(:predicates",
        "-",
        ";",
        "\n",
        "=",
        "#t",
        "1.5",
        "(either a b)",
        "forall",
        "(at start",
        "é",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut parsed_clean = 0;
    for round in 0..4000 {
        let base = &texts[round % texts.len()];
        let mut text = base.clone();
        for _ in 0..1 + rng.below(3) {
            let mut at = rng.below(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            match rng.below(3) {
                0 => text.insert_str(at, pieces[rng.below(pieces.len())]),
                1 => {
                    let mut end = (at + 1 + rng.below(8)).min(text.len());
                    while !text.is_char_boundary(end) {
                        end += 1;
                    }
                    text.replace_range(at..end, "");
                }
                _ => {
                    let mut end = (at + 1).min(text.len());
                    while !text.is_char_boundary(end) {
                        end += 1;
                    }
                    text.replace_range(at..end, pieces[rng.below(pieces.len())]);
                }
            }
        }
        assert_sane(&text, &format!("mutation round {round}"));
        let parsed = parse::file(&text);
        if let Some(file) = &parsed.value {
            if let pddlc::ast::PddlFile::Domain(d) = file {
                let _ = pddlc::check::domain(d, pddlc::diagnostics::FileId(0));
            }
            if !parsed.has_errors() {
                parsed_clean += 1;
                let printed = fmt::file(file);
                let again = parse::file(&printed);
                assert!(
                    !again.has_errors(),
                    "round {round}: printed text does not parse:\n{printed}"
                );
                let again = again.value.expect("a tree");
                assert_eq!(
                    common::without_spans(&again),
                    common::without_spans(file),
                    "round {round}: the tree changed through printing"
                );
            }
        }
    }
    assert!(
        parsed_clean > 100,
        "only {parsed_clean} mutations parsed cleanly"
    );
}

/// Hostile inputs cost a bounded number of diagnostics: a run of the same problem is one
/// diagnostic, and no input yields more than `MAX_PER_FILE` plus the closing note.
#[test]
fn hostile_inputs_yield_few_diagnostics() {
    use pddlc::diagnostics::{Code, MAX_PER_FILE};
    const SIZE: usize = 2 * 1024 * 1024;

    let closes = ")".repeat(SIZE);
    let parsed = parse::file(&closes);
    assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
    assert_eq!(parsed.diagnostics[0].code, Code::UnmatchedClose);
    assert!(parsed.diagnostics[0].message.contains(&SIZE.to_string()));

    let opens = "(".repeat(SIZE);
    let parsed = parse::file(&opens);
    assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
    assert_eq!(parsed.diagnostics[0].code, Code::NestingTooDeep);

    let name = "a".repeat(SIZE);
    let parsed = parse::file(&name);
    assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
    let parsed = parse::file(&format!("(define (domain {name}))"));
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);

    let surplus = format!("(define (domain d)){}", ") ".repeat(SIZE / 2));
    let parsed = parse::file(&surplus);
    assert!(parsed.value.is_some());
    assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
    assert_eq!(parsed.diagnostics[0].code, Code::SurplusClose);
    assert!(
        parsed.diagnostics[0]
            .message
            .contains(&(SIZE / 2).to_string())
    );

    let mut many = String::from("(define (domain d)\n");
    for i in 0..SIZE / 64 {
        many.push_str(&format!("(:unknown-{i})\n"));
    }
    many.push(')');
    let parsed = parse::file(&many);
    assert_eq!(parsed.diagnostics.len(), MAX_PER_FILE + 1);
    let note = &parsed.diagnostics[MAX_PER_FILE];
    assert_eq!(note.code, Code::TooManyDiagnostics);
    assert!(note.is_error(), "the note stands for errors");
    let left_out = SIZE / 64 - MAX_PER_FILE;
    assert!(
        note.message.starts_with(&format!("{left_out} more")),
        "{}",
        note.message
    );
}
