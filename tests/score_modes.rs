//! The hand-made cases of docs/scoring.md where the two modes disagree, each for its stated
//! reason: both modes are computed and their values asserted.

use pddlc::score::{Metrics, Mode, compare};

const GOLD: &str = "(define (domain blocks)
  (:requirements :strips :typing)
  (:types block)
  (:predicates (on ?x - block ?y - block) (clear ?x - block) (holding ?x - block) (handempty))
  (:action stack
    :parameters (?x - block ?y - block)
    :precondition (and (holding ?x) (clear ?y))
    :effect (and (on ?x ?y) (handempty) (not (holding ?x)) (not (clear ?y))))
  (:action drop
    :parameters (?x - block)
    :precondition (and (holding ?x) (handempty))
    :effect (and (not (holding ?x)) (clear ?x))))
";

fn both(pred: &str) -> (Metrics, Metrics) {
    (
        compare(GOLD, pred, Mode::Text2World, false).metrics,
        compare(GOLD, pred, Mode::Clean, false).metrics,
    )
}

#[test]
fn renamed_variables_cost_everything_in_text2world_and_nothing_in_clean() {
    let pred = GOLD.replace("?x", "?top").replace("?y", "?below");
    let (t2w, clean) = both(&pred);
    // Only what mentions no variable survives in text2world: `handempty` (and the pieces the
    // `and` split makes of it) in `drop`'s precondition, one of `stack`'s four effects.
    assert_eq!(
        (t2w.f1_param, t2w.f1_precond, t2w.f1_eff),
        (0.0, 33.3, 12.5)
    );
    assert_eq!(
        (clean.f1_param, clean.f1_precond, clean.f1_eff),
        (100.0, 100.0, 100.0)
    );
}

#[test]
fn the_substring_and_splits_names_in_text2world_only() {
    // `handempty` holds the substring `and`: text2world cuts it apart, clean mode reads atoms.
    // Dropping `(handempty)` from `drop`'s precondition: clean mode loses one literal of two.
    let pred = GOLD.replace("(and (holding ?x) (handempty))", "(holding ?x)");
    let (t2w, clean) = both(&pred);
    assert_eq!(clean.f1_precond, 83.3, "stack 100, drop 66.7");
    assert_ne!(t2w.f1_precond, clean.f1_precond);
}

#[test]
fn a_missing_action_zeroes_every_action_metric_in_text2world_only() {
    let pred = GOLD.replace("(:action drop", "(:action release");
    let (t2w, clean) = both(&pred);
    assert_eq!((t2w.f1_param, t2w.f1_precond, t2w.f1_eff), (0.0, 0.0, 0.0));
    assert_eq!(
        (clean.f1_param, clean.f1_precond, clean.f1_eff),
        (50.0, 50.0, 50.0)
    );
    let detail = compare(GOLD, &pred, Mode::Clean, false);
    let json = detail.json();
    assert_eq!(json["missing_actions"], serde_json::json!(["drop"]));
    assert_eq!(json["renamed"][0]["pred"], "release");
}

#[test]
fn untyped_predicates_match_in_text2world_only() {
    let pred = GOLD.replace("(on ?x - block ?y - block)", "(on ?x ?y)");
    let (t2w, clean) = both(&pred);
    assert_eq!(t2w.f1_pred, 100.0);
    assert_eq!(clean.f1_pred, 75.0);
}

#[test]
fn valid_pddl_that_tarski_rejects_is_executable_in_clean_mode() {
    // No `:precondition`: valid PDDL, which tarski 0.8.2 refuses.
    let pred = GOLD.replace(":precondition (and (holding ?x) (clear ?y))\n", "");
    let (t2w, clean) = both(&pred);
    assert_eq!(t2w.exec, 0.0);
    assert_eq!(clean.exec, 100.0);
}

#[test]
fn layout_comments_and_case_do_not_change_clean_similarity() {
    let pred = format!(
        "; a comment\n{}",
        GOLD.replace("(:action stack", "(:ACTION stack")
            .replace("  ", "\t")
    );
    let (t2w, clean) = both(&pred);
    assert_eq!(clean.sim, 100.0);
    assert!(t2w.sim < 100.0);
}

#[test]
fn the_codes_that_make_exec_zero_are_listed() {
    let pred = GOLD.replace(":precondition (and (holding ?x) (clear ?y))\n", "");
    let t2w = compare(GOLD, &pred, Mode::Text2World, false).json();
    assert_eq!(t2w["codes"], serde_json::json!(["C150"]));
    let clean = compare(GOLD, &pred, Mode::Clean, false).json();
    assert_eq!(clean["codes"], serde_json::json!([]));
    let undeclared = GOLD.replace("(and (holding ?x) (clear ?y))", "(and (held ?x) (free ?y))");
    let clean = compare(GOLD, &undeclared, Mode::Clean, false);
    assert_eq!(clean.metrics.exec, 0.0);
    assert_eq!(clean.json()["codes"], serde_json::json!(["C101"]));
    assert_eq!(clean.exec_diagnostics().len(), 2);
}

#[test]
fn a_gold_read_once_scores_every_prediction_as_compare_does() {
    let preds = [
        GOLD.to_string(),
        GOLD.replace("?x", "?top"),
        GOLD.replace("(:action drop", "(:action release"),
        GOLD.replace(":precondition (and (holding ?x) (clear ?y))\n", ""),
        format!("Here it is:\n```pddl\n{GOLD}```\n"),
        "(define".to_string(),
    ];
    for mode in [Mode::Text2World, Mode::Clean] {
        let gold = pddlc::score::Gold::new(GOLD, mode);
        for (i, pred) in preds.iter().enumerate() {
            let response = i == 4;
            assert_eq!(
                gold.compare(pred, response).json(),
                compare(GOLD, pred, mode, response).json(),
                "{mode:?}, prediction {i}"
            );
        }
    }
    // A gold that does not parse scores the same way through both.
    for mode in [Mode::Text2World, Mode::Clean] {
        let gold = pddlc::score::Gold::new("(define (domain", mode);
        assert_eq!(
            gold.compare(GOLD, false).json(),
            compare("(define (domain", GOLD, mode, false).json()
        );
    }
}
