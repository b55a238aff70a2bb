//! Hostile inputs to `score` in both modes: megabytes of `(`, of `)`, and one long name, as the
//! prediction and as the gold. Each gets the official scorer's verdict (text2world mode: what
//! tarski does with it) or pddlc's parse error (clean mode), located, with a short message.
//! How fast they are is measured by `benches/score.rs`, not here.

use pddlc::diagnostics::{Code, Diagnostic};
use pddlc::score::{Detail, Mode, Scored, compare};
use pddlc::text2world::tarski::check;

const GOLD: &str = "(define (domain d)
  (:predicates (p ?x) (q))
  (:action a :parameters (?x) :precondition (p ?x) :effect (and (q) (not (p ?x)))))
";

const SIZE: usize = 5 * 1024 * 1024;

/// The three hostile texts, each with where tarski stops reading it (byte offsets).
fn hostile() -> [(&'static str, String, (usize, usize)); 3] {
    [
        // `(` then, where tarski expects `define`, another `(`.
        ("opening parentheses", "(".repeat(SIZE), (1, 2)),
        // A `)` where `(define` should be.
        ("closing parentheses", ")".repeat(SIZE), (0, 1)),
        // One name token where `(define` should be.
        ("one long name", "a".repeat(SIZE), (0, SIZE)),
    ]
}

fn located_at(diagnostic: &Diagnostic, at: (usize, usize)) -> bool {
    diagnostic
        .primary()
        .is_some_and(|label| (label.span.start, label.span.end) == at)
}

fn action_metrics(scored: &Scored) -> [f64; 4] {
    let m = scored.metrics;
    [m.f1_pred, m.f1_param, m.f1_precond, m.f1_eff]
}

#[test]
fn tarski_rejects_hostile_texts_where_it_stops_reading_with_a_short_message() {
    for (name, text, at) in hostile() {
        let diagnostics = check(&text);
        assert_eq!(diagnostics.len(), 1, "{name}");
        let rejection = &diagnostics[0];
        assert_eq!(rejection.code, Code::TarskiRejects, "{name}");
        assert!(located_at(rejection, at), "{name}: {rejection:?}");
        assert!(
            rejection.message.chars().count() < 200,
            "{name}: {} characters of message",
            rejection.message.len()
        );
    }
}

#[test]
fn a_hostile_prediction_scores_zero_in_text2world_mode() {
    for (name, text, at) in hostile() {
        let scored = compare(GOLD, &text, Mode::Text2World, false);
        assert_eq!(scored.metrics.exec, 0.0, "{name}");
        assert_eq!(action_metrics(&scored), [0.0; 4], "{name}");
        assert_eq!(scored.exec_codes(), [Code::TarskiRejects], "{name}");
        assert!(located_at(&scored.exec_diagnostics()[0], at), "{name}");
    }
}

#[test]
fn a_hostile_gold_zeroes_the_f1_values_but_not_exec_in_text2world_mode() {
    for (name, text, at) in hostile() {
        let scored = compare(&text, GOLD, Mode::Text2World, false);
        // The gold is never EXEC-checked; the prediction is a valid domain.
        assert_eq!(scored.metrics.exec, 100.0, "{name}");
        assert_eq!(action_metrics(&scored), [0.0; 4], "{name}");
        let Detail::Text2World(detail) = &scored.detail else {
            panic!("{name}: not a text2world detail");
        };
        let rejection = detail
            .gold_rejection
            .as_ref()
            .expect("the gold is rejected");
        assert!(located_at(rejection, at), "{name}: {rejection:?}");
    }
}

#[test]
fn hostile_texts_are_parse_errors_in_clean_mode() {
    let expected = [
        Code::NestingTooDeep,
        Code::UnmatchedClose,
        Code::SyntaxError,
    ];
    for ((name, text, _), code) in hostile().into_iter().zip(expected) {
        let scored = compare(GOLD, &text, Mode::Clean, false);
        assert_eq!(scored.metrics.exec, 0.0, "{name}");
        assert_eq!(action_metrics(&scored), [0.0; 4], "{name}");
        assert_eq!(scored.exec_codes(), [code], "{name}");
        let scored = compare(&text, GOLD, Mode::Clean, false);
        assert_eq!(scored.metrics.exec, 100.0, "{name}");
        assert_eq!(action_metrics(&scored), [0.0; 4], "{name}");
        let note = scored.json()["note"].as_str().unwrap_or("").to_string();
        assert!(
            note.starts_with("the gold domain does not parse"),
            "{name}: {note}"
        );
    }
}
