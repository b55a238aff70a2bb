//! The decision procedure on small hand-written domains.

use super::{ActionVerdict, Functional, Verdict, compare_texts};

const BLOCKS: &str = include_str!("../../../domains/blocksworld/domain.pddl");

fn verdict_of<'a>(functional: &'a Functional, action: &str) -> &'a super::ActionResult {
    functional
        .actions
        .iter()
        .find(|a| a.gold.as_deref() == Some(action))
        .unwrap_or_else(|| panic!("no verdict for {action}: {functional:#?}"))
}

#[test]
fn the_blocks_world_is_equivalent_to_itself_and_its_canonical_print() {
    let domain = crate::parse::domain(BLOCKS)
        .value
        .expect("the shipped domain parses");
    for pred in [BLOCKS.to_string(), crate::fmt::domain(&domain)] {
        let functional = compare_texts(BLOCKS, &pred);
        assert_eq!(functional.verdict, Verdict::Equivalent, "{functional:#?}");
        assert_eq!(functional.actions.len(), 4);
        assert!(functional.counterexamples.is_empty() && functional.notes.is_empty());
    }
}

#[test]
fn a_dropped_precondition_is_weaker_with_a_confirmed_counterexample() {
    let pred = BLOCKS.replace(
        ":precondition (and (on ?x ?y) (clear ?x) (arm-empty))",
        ":precondition (and (on ?x ?y) (arm-empty))",
    );
    let functional = compare_texts(BLOCKS, &pred);
    assert_eq!(functional.verdict, Verdict::Different);
    assert_eq!(
        verdict_of(&functional, "unstack").verdict,
        ActionVerdict::WeakerPrecondition
    );
    for action in ["pick-up", "put-down", "stack"] {
        assert_eq!(
            verdict_of(&functional, action).verdict,
            ActionVerdict::Equivalent
        );
    }
    let [example] = functional.counterexamples.as_slice() else {
        panic!("one counterexample: {functional:#?}");
    };
    assert_eq!(example.gold_texts.1, "(unstack x y)\n");
    assert!(example.pred_texts.is_none(), "nothing is renamed");
    assert!(
        example.explanation.contains("(clear x) does not"),
        "{}",
        example.explanation
    );
    assert!(
        example.explanation.ends_with(
            "(unstack x y) is applicable under the predicted domain but not under the gold one"
        ),
        "{}",
        example.explanation
    );
}

#[test]
fn a_reordered_conjunction_and_renamed_variables_are_equivalent() {
    let pred = BLOCKS
        .replace(
            ":precondition (and (clear ?x) (ontable ?x) (arm-empty))",
            ":precondition (and (arm-empty) (ontable ?x) (clear ?x))",
        )
        .replace("?y", "?below");
    let functional = compare_texts(BLOCKS, &pred);
    assert_eq!(functional.verdict, Verdict::Equivalent, "{functional:#?}");
    assert!(!functional.alignment.renames_anything());
}

#[test]
fn a_renamed_predicate_and_action_are_aligned_and_equivalent() {
    let pred = BLOCKS
        .replace("arm-empty", "handempty")
        .replace("put-down", "drop");
    let functional = compare_texts(BLOCKS, &pred);
    assert_eq!(functional.verdict, Verdict::Equivalent, "{functional:#?}");
    let alignment = &functional.alignment;
    assert_eq!(
        alignment.predicates.get("arm-empty").map(String::as_str),
        Some("handempty")
    );
    assert_eq!(
        alignment.actions.get("put-down").map(String::as_str),
        Some("drop")
    );
    assert_eq!(alignment.predicates.len() + alignment.actions.len(), 2);
}

#[test]
fn renamed_and_different_gives_counterexamples_in_both_spellings() {
    let pred = BLOCKS
        .replace("arm-empty", "handempty")
        .replace(
            "(clear ?x)\n      (arm-empty)\n      (not (holding ?x))\n      (not (clear ?y))",
            "(arm-empty)\n      (not (holding ?x))\n      (not (clear ?y))",
        )
        .replace(
            "      (clear ?x)\n      (handempty)\n      (not (holding ?x))\n      (not (clear ?y))",
            "      (handempty)\n      (not (holding ?x))\n      (not (clear ?y))",
        );
    let functional = compare_texts(BLOCKS, &pred);
    assert_eq!(
        verdict_of(&functional, "stack").verdict,
        ActionVerdict::DifferentEffects,
        "{functional:#?}"
    );
    let [example] = functional.counterexamples.as_slice() else {
        panic!("one counterexample: {functional:#?}");
    };
    let (problem, plan) = example.pred_texts.as_ref().expect("the prediction renames");
    assert!(!problem.contains("arm-empty"), "{problem}");
    assert!(plan.starts_with("(stack "), "{plan}");
    assert!(
        example.explanation.contains("afterwards (clear"),
        "{}",
        example.explanation
    );
}

const SWITCH: &str = "(define (domain switch)
  (:requirements :strips :typing :conditional-effects :negative-preconditions)
  (:types lamp)
  (:predicates (on ?l - lamp) (wired ?l - lamp))
  (:action toggle
    :parameters (?l - lamp)
    :precondition (wired ?l)
    :effect (and (when (on ?l) (not (on ?l))) (when (not (on ?l)) (on ?l)))))";

#[test]
fn conditional_effects_are_decided() {
    let same = SWITCH.replace(
        "(and (when (on ?l) (not (on ?l))) (when (not (on ?l)) (on ?l)))",
        "(and (when (not (on ?l)) (on ?l)) (when (on ?l) (not (on ?l))))",
    );
    assert_eq!(compare_texts(SWITCH, &same).verdict, Verdict::Equivalent);
    // Turning a lamp on whatever its state differs only when it was on.
    let always_on = SWITCH.replace(
        "(and (when (on ?l) (not (on ?l))) (when (not (on ?l)) (on ?l)))",
        "(on ?l)",
    );
    let functional = compare_texts(SWITCH, &always_on);
    assert_eq!(
        verdict_of(&functional, "toggle").verdict,
        ActionVerdict::DifferentEffects
    );
    let [example] = functional.counterexamples.as_slice() else {
        panic!("one counterexample: {functional:#?}");
    };
    assert!(
        example.gold_texts.0.contains("(:init (wired l) (on l))"),
        "{}",
        example.gold_texts.0
    );
}

#[test]
fn equal_parameters_are_considered() {
    // With `?x` and `?y` the same block, `(not (= ?x ?y))` is what tells the two apart.
    let gold = BLOCKS.replace(
        ":requirements :strips :typing",
        ":requirements :strips :typing :equality :negative-preconditions",
    );
    let pred = gold.replace(
        ":precondition (and (holding ?x) (clear ?y))",
        ":precondition (and (holding ?x) (clear ?y) (not (= ?x ?y)))",
    );
    let functional = compare_texts(&gold, &pred);
    assert_eq!(
        verdict_of(&functional, "stack").verdict,
        ActionVerdict::StrongerPrecondition,
        "{functional:#?}"
    );
    assert_eq!(functional.counterexamples[0].gold_texts.1, "(stack x x)\n");
}

#[test]
fn a_domain_with_errors_is_unknown() {
    let functional = compare_texts(
        BLOCKS,
        "(define (domain d) (:action a :parameters (?x) :precondition (p ?x)))",
    );
    assert_eq!(functional.verdict, Verdict::Unknown);
    assert!(
        functional
            .reason
            .as_deref()
            .is_some_and(|r| r.starts_with("the predicted domain has errors"))
    );
}

#[test]
fn quantified_preconditions_and_effects_are_decided_over_fresh_objects() {
    // `clear-all` empties every box; the prediction forgets the boxes other than its parameter.
    let gold = "(define (domain boxes)
      (:requirements :adl)
      (:predicates (full ?b) (open ?b))
      (:action clear-all
        :parameters (?b)
        :precondition (and (open ?b) (exists (?c) (full ?c)))
        :effect (forall (?c) (when (open ?c) (not (full ?c))))))";
    let reordered = gold
        .replace(
            "(forall (?c) (when (open ?c) (not (full ?c))))",
            "(forall (?z) (when (open ?z) (not (full ?z))))",
        )
        .replace(
            "(and (open ?b) (exists (?c) (full ?c)))",
            "(and (exists (?d) (full ?d)) (open ?b))",
        );
    assert_eq!(compare_texts(gold, &reordered).verdict, Verdict::Equivalent);
    let forgets = gold.replace(
        "(forall (?c) (when (open ?c) (not (full ?c))))",
        "(not (full ?b))",
    );
    let functional = compare_texts(gold, &forgets);
    assert_eq!(
        verdict_of(&functional, "clear-all").verdict,
        ActionVerdict::DifferentEffects,
        "{functional:#?}"
    );
    let [example] = functional.counterexamples.as_slice() else {
        panic!("one counterexample: {functional:#?}");
    };
    // The difference needs a second, open and full box: an object no parameter names.
    assert!(
        example.gold_texts.0.contains("obj"),
        "{}",
        example.gold_texts.0
    );
}

#[test]
fn types_are_decided_with_the_rest() {
    // Dropping every type keeps the behaviour when the predicates' types imply the
    // parameters'; a wider parameter type does not.
    let gold = "(define (domain tsp)
      (:requirements :typing)
      (:types node)
      (:predicates (at ?n - node) (link ?a ?b - node))
      (:action move
        :parameters (?a ?b - node)
        :precondition (and (at ?a) (link ?a ?b))
        :effect (and (at ?b) (not (at ?a)))))";
    let untyped = "(define (domain tsp)
      (:predicates (at ?n) (link ?a ?b))
      (:action move
        :parameters (?a ?b)
        :precondition (and (at ?a) (link ?a ?b))
        :effect (and (at ?b) (not (at ?a)))))";
    assert_eq!(compare_texts(gold, untyped).verdict, Verdict::Equivalent);
    // With untyped predicates, only the parameter's type keeps a city from moving.
    let loose = gold
        .replace("(:types node)", "(:types node city)")
        .replace("(at ?n - node) (link ?a ?b - node)", "(at ?n) (link ?a ?b)");
    let wider = loose.replace("(?a ?b - node)\n", "(?a - object ?b - node)\n");
    let functional = compare_texts(&loose, &wider);
    assert_eq!(
        verdict_of(&functional, "move").verdict,
        ActionVerdict::WeakerPrecondition,
        "{functional:#?}"
    );
    let example = &functional.counterexamples[0];
    assert!(
        example.explanation.starts_with("with objects a - "),
        "{}",
        example.explanation
    );
}

#[test]
fn action_costs_are_not_part_of_the_transitions() {
    let costly = BLOCKS
        .replace(
            ":requirements :strips :typing",
            ":requirements :strips :typing :action-costs",
        )
        .replace(
            "(:predicates",
            "(:functions (total-cost) - number)\n  (:predicates",
        )
        .replace(
            "(arm-empty) (not (holding ?x))))",
            "(arm-empty) (not (holding ?x)) (increase (total-cost) 2)))",
        );
    let functional = compare_texts(BLOCKS, &costly);
    assert_eq!(functional.verdict, Verdict::Equivalent, "{functional:#?}");
    assert!(
        functional.actions.iter().any(|a| a
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("action costs differ"))),
        "{functional:#?}"
    );
}

/// The blocks world with `put-down` taken out (from its header to the next action's).
fn without_put_down() -> String {
    let start = BLOCKS.find("  (:action put-down").expect("put-down");
    let end = BLOCKS.find("  (:action stack").expect("stack");
    format!("{}{}", &BLOCKS[..start], &BLOCKS[end..])
}

#[test]
fn a_missing_action_has_a_counterexample_naming_it() {
    let functional = compare_texts(BLOCKS, &without_put_down());
    assert_eq!(functional.verdict, Verdict::Different);
    assert_eq!(
        verdict_of(&functional, "put-down").verdict,
        ActionVerdict::Missing
    );
    let [example] = functional.counterexamples.as_slice() else {
        panic!("one counterexample: {functional:#?}");
    };
    assert_eq!(example.verdict, ActionVerdict::Missing);
    assert_eq!(example.gold_texts.1, "(put-down x)\n");
    assert!(
        example.explanation.ends_with(
            "(put-down x) is applicable under the gold domain but not under the predicted one: \
             the predicted domain has no action `put-down`"
        ),
        "{}",
        example.explanation
    );
    // The other way round, the action is extra, and its step is one the gold domain lacks.
    let functional = compare_texts(&without_put_down(), BLOCKS);
    let [example] = functional.counterexamples.as_slice() else {
        panic!("one counterexample: {functional:#?}");
    };
    assert_eq!(example.verdict, ActionVerdict::Extra);
    assert!(
        example
            .explanation
            .ends_with("the gold domain has no action `put-down`"),
        "{}",
        example.explanation
    );
}

/// An action of the same name with another number of parameters is paired with the gold's and
/// has no counterexample: a step with the wrong number of arguments is one VAL cannot judge.
#[test]
fn an_action_with_another_number_of_parameters_is_paired_without_counterexample() {
    let pred = BLOCKS.replace(
        ":parameters (?x - block)\n    :precondition (holding ?x)",
        ":parameters (?x ?y - block)\n    :precondition (holding ?x)",
    );
    let functional = compare_texts(BLOCKS, &pred);
    assert_eq!(functional.verdict, Verdict::Different);
    let put_down = verdict_of(&functional, "put-down");
    assert_eq!(put_down.verdict, ActionVerdict::DifferentParameters);
    assert_eq!(put_down.reason.as_deref(), Some("1 parameter against 2"));
    assert_eq!(functional.actions.len(), 4, "no missing and extra put-down");
    assert!(functional.counterexamples.is_empty());
}

/// Numeric conditions and effects, and quantifiers nested in quantifiers, are beyond the
/// decision; written alike, they are equivalent all the same, unless the type hierarchies differ.
#[test]
fn actions_written_alike_are_equivalent_whatever_they_contain() {
    let domain = "(define (domain d) (:requirements :adl :numeric-fluents)
      (:predicates (p ?x) (q ?x ?y)) (:functions (fuel ?x))
      (:action go :parameters (?a)
        :precondition (and (> (fuel ?a) 1) (forall (?x) (exists (?y) (q ?x ?y))))
        :effect (and (decrease (fuel ?a) 1) (forall (?x) (when (p ?x) (not (p ?x)))))))";
    let renamed = domain
        .replace("?a", "?agent")
        .replace("(?x)", "(?u)")
        .replace("?x ?y", "?u ?y")
        .replace("(p ?x)", "(p ?u)");
    for pred in [domain.to_string(), renamed] {
        let functional = compare_texts(domain, &pred);
        assert_eq!(functional.verdict, Verdict::Equivalent, "{functional:#?}");
    }
    // Written alike, but `b` is an `a` only in the gold's hierarchy.
    let gold = "(define (domain d) (:requirements :typing) (:types b - a) (:predicates (p ?x - a))
      (:action mark :parameters (?x - a) :precondition (and) :effect (p ?x)))";
    let pred = gold.replace("(:types b - a)", "(:types a b)");
    let functional = compare_texts(gold, &pred);
    assert_eq!(functional.verdict, Verdict::Different, "{functional:#?}");
    assert_eq!(
        verdict_of(&functional, "mark").verdict,
        ActionVerdict::StrongerPrecondition
    );
}

#[test]
fn pddl_1_2_vars_are_read_as_further_parameters() {
    let gold = "(define (domain d) (:requirements :adl) (:predicates (at ?x) (road ?x ?y))
      (:action go :parameters (?to) :vars (?from)
        :precondition (and (at ?from) (road ?from ?to))
        :effect (and (at ?to) (not (at ?from)))))";
    let reordered = gold.replace(
        "(and (at ?from) (road ?from ?to))",
        "(and (road ?from ?to) (at ?from))",
    );
    let functional = compare_texts(gold, &reordered);
    assert_eq!(functional.verdict, Verdict::Equivalent, "{functional:#?}");
    // A difference for one binding of the vars need not show: another binding may apply.
    let weaker = gold.replace("(and (at ?from) (road ?from ?to))", "(at ?from)");
    let functional = compare_texts(gold, &weaker);
    assert_eq!(functional.verdict, Verdict::Unknown, "{functional:#?}");
    assert!(functional.counterexamples.is_empty());
    assert!(
        reason_of(&functional).contains("`:vars`"),
        "{functional:#?}"
    );
}

#[test]
fn prose_around_a_definition_is_left_out_and_said() {
    let answer = format!("{BLOCKS}\n\nThis domain models the blocks world.\n");
    let functional = compare_texts(BLOCKS, &answer);
    assert_eq!(functional.verdict, Verdict::Equivalent, "{functional:#?}");
    assert!(
        functional
            .notes
            .iter()
            .any(|n| n.starts_with("the predicted file is not PDDL as it stands (P018")),
        "{:?}",
        functional.notes
    );
}

fn reason_of(functional: &Functional) -> String {
    let action = functional.actions.iter().find_map(|a| a.reason.clone());
    functional.reason.clone().or(action).unwrap_or_default()
}
