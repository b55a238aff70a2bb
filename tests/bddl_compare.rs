//! ActPlan-1K's LCS plan metric (`pddlc::bddl::compare`, docs/bddl.md): hand-worked values in
//! both modes, the annotation folder's real plan files, the 402 gold-plan pairs of
//! `bleu-cls/finetuning_data.jsonl`. The `pddlc bddl compare` command is tested in
//! tests/cli/bddl.rs.

mod common;

use pddlc::bddl::{self, Comparison, Matching, Mode, compare, compare_with, normalise_step};
use pddlc::diagnostics::Code;
use serde_json::Value;
use std::path::Path;

fn exact(gold: &str, pred: &str, mode: Mode) -> Comparison {
    compare(Some(gold), pred, mode, Matching::Exact).expect("a gold plan is given")
}

#[test]
fn a_final_newline_is_a_step_in_compat_mode_only() {
    // Both end with a newline: compat counts the two "" steps as one more matched step,
    // (L+1)/(max(m0,n0)+1) = (2+1)/(3+1).
    let both = exact("a\nb\nc\n", "a\nc\n", Mode::Compat);
    assert_eq!((both.lcs, both.gold_steps, both.pred_steps), (3, 4, 3));
    assert_eq!(both.score, 3.0 / 4.0);
    let fixed = exact("a\nb\nc\n", "a\nc\n", Mode::Default);
    assert_eq!((fixed.lcs, fixed.gold_steps, fixed.pred_steps), (2, 3, 2));
    assert_eq!(fixed.score, 2.0 / 3.0);
    // Only the candidate ends with one: L/max(m0, n0+1). Identical steps score 2/3, not 1.
    let candidate_only = exact("a\nb", "a\nb\n", Mode::Compat);
    assert_eq!((candidate_only.lcs, candidate_only.pred_steps), (2, 3));
    assert_eq!(candidate_only.score, 2.0 / 3.0);
    assert_eq!(exact("a\nb", "a\nb\n", Mode::Default).score, 1.0);
    // And the other way round.
    assert_eq!(exact("a\nb\n", "a\nb", Mode::Compat).score, 2.0 / 3.0);
}

#[test]
fn blank_lines_and_spaces_stay_in_compat_steps() {
    assert_eq!(bddl::steps("a\n\nb", Mode::Compat), ["a", "", "b"]);
    assert_eq!(bddl::steps("a\n\nb", Mode::Default), ["a", "b"]);
    assert_eq!(bddl::steps(" a \r\n", Mode::Compat), [" a \r", ""]);
    assert_eq!(bddl::steps(" a \r\n  \n", Mode::Default), ["a"]);
    // A stray space is another step under compat.
    assert_eq!(exact("grab(cup)\n", "grab(cup) \n", Mode::Compat).lcs, 1);
    assert_eq!(
        exact("grab(cup)\n", "grab(cup) \n", Mode::Default).score,
        1.0
    );
    assert_eq!(bddl::steps("", Mode::Default).len(), 0);
    assert_eq!(exact("", "", Mode::Default).score, 1.0);
    assert_eq!(exact("", "a", Mode::Default).score, 0.0);
}

#[test]
fn a_missing_gold_plan_scores_one_in_compat_and_is_an_error_otherwise() {
    let own = compare(None, "a\nb\n", Mode::Compat, Matching::Exact).expect("compat scores");
    assert!(own.self_reference);
    assert_eq!((own.score, own.lcs, own.gold_steps), (1.0, 3, 3));
    let error = compare(None, "a\nb\n", Mode::Default, Matching::Exact)
        .expect_err("the fixed mode does not score without gold");
    assert_eq!(error.code, Code::BddlPairInvalid);
}

#[test]
fn the_matched_pairs_are_an_increasing_common_subsequence() {
    let c = exact(
        "w(a)\ng(b)\nw(c)\np(c, b)\n",
        "g(b)\nw(a)\nw(c)\np(c, b)",
        Mode::Default,
    );
    let pairs: Vec<(usize, usize)> = c
        .matched
        .iter()
        .map(|p| (p.gold_index, p.pred_index))
        .collect();
    assert_eq!(c.lcs, 3);
    assert_eq!(c.score, 3.0 / 4.0);
    assert_eq!(pairs[1..], [(2, 2), (3, 3)]);
    assert!(pairs[0] == (0, 1) || pairs[0] == (1, 0), "{pairs:?}");
}

#[test]
fn normalised_matching_ignores_spelling_but_not_content() {
    let same = |a: &str, b: &str| normalise_step(a) == normalise_step(b);
    assert!(same("Switch-On(Stove)", "switch_on( stove )"));
    assert!(same(
        "place_inside(basket_1, cookie)",
        "place_inside(cookie,basket_1)"
    ));
    assert!(same(
        "place_on_top(table , cup)",
        "place_on_top(cup, table)"
    ));
    assert!(same(
        "walk_to(table  with cups)",
        "walk_to(table with cups)"
    ));
    // Order matters for verbs with a tool, and `-` in an argument is part of its name.
    assert!(!same("clean(table, rag)", "clean(rag, table)"));
    assert!(!same("walk_to(take-out_food)", "walk_to(take_out_food)"));
    assert!(!same("grab(cup)", "grab(cups)"));
    let gold = "switch-on(radio)\nplace_inside(box, toy)\n";
    let pred = "switch_on(radio)\nplace_inside(toy, box)\n";
    assert_eq!(exact(gold, pred, Mode::Default).lcs, 0);
    let normalised = compare(Some(gold), pred, Mode::Default, Matching::Normalised).expect("gold");
    assert_eq!((normalised.lcs, normalised.score), (2, 1.0));
    // The matched pairs keep the steps as written.
    assert_eq!(normalised.matched[0].pred, "switch_on(radio)");
}

#[test]
fn any_closure_can_match_steps() {
    let same_verb = |a: &str, b: &str| a.split('(').next() == b.split('(').next();
    let c = compare_with(
        Some("grab(a)\nopen(b)"),
        "grab(x)\nclose(b)",
        Mode::Default,
        &same_verb,
    )
    .expect("gold");
    assert_eq!((c.lcs, c.score), (1, 0.5));
}

#[test]
fn long_plans_do_not_overflow() {
    // The reference's recursion goes m+n deep and fails beyond about 1,000 steps.
    let gold: String = (0..3000).map(|i| format!("grab(item_{i})\n")).collect();
    let pred: String = (0..3000)
        .filter(|i| i % 3 != 0)
        .map(|i| format!("grab(item_{i})\n"))
        .collect();
    let c = exact(&gold, &pred, Mode::Default);
    assert_eq!((c.lcs, c.gold_steps, c.pred_steps), (2000, 3000, 2000));
}

fn annotation(test: &str) -> Option<std::path::PathBuf> {
    common::shared_part("bddl/actplan-1k/annotation", test)
        .map(|root| root.join("Beechwood_0_int/assembling_gift_baskets"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_annotation_folders_plans_score_as_the_reference_scores_them() {
    let Some(root) = annotation("the_annotation_folders_plans_score_as_the_reference_scores_them")
    else {
        return;
    };
    let sample = root.join("0/sample_0");
    let gold = read(&sample.join("plan_gold_1.txt"));
    let gpt = read(&sample.join("plan_gpt-4v.txt"));
    // semantics.md §9.1: GPT-4V's plan equals the gold plan, 64 steps and a final newline.
    let c = exact(&gold, &gpt, Mode::Compat);
    assert_eq!(
        (c.lcs, c.gold_steps, c.pred_steps, c.score),
        (65, 65, 65, 1.0)
    );
    assert_eq!(exact(&gold, &gpt, Mode::Default).gold_steps, 64);
    // Gemini's text-only plan has no final newline: the gold's trailing "" is unmatched.
    let text_only = read(&sample.join("plan_gemini_text_only.txt"));
    assert!(!text_only.ends_with('\n'));
    let compat = exact(&gold, &text_only, Mode::Compat);
    let fixed = exact(&gold, &text_only, Mode::Default);
    assert_eq!(compat.lcs, fixed.lcs);
    assert_eq!(
        compat.score,
        fixed.lcs as f64 / 65f64.max(compat.pred_steps as f64)
    );
    // Every model plan of both variants: compat's score follows §9.1's formulas.
    for variant in ["0", "1"] {
        let sample = root.join(variant).join("sample_0");
        let gold = read(&sample.join("plan_gold_1.txt"));
        for model in [
            "gpt-4v",
            "claude_v3_sonnet",
            "claude_v3_haiku",
            "gemini",
            "gemini_text_only",
        ] {
            let pred = read(&sample.join(format!("plan_{model}.txt")));
            let l = exact(&gold, &pred, Mode::Default).lcs as f64;
            let (m0, n0) = (
                bddl::steps(&gold, Mode::Compat).len() - 1,
                bddl::steps(&pred, Mode::Compat).len() - usize::from(pred.ends_with('\n')),
            );
            let expected = if pred.ends_with('\n') {
                (l + 1.0) / (m0.max(n0) as f64 + 1.0)
            } else {
                l / ((m0 + 1).max(n0) as f64)
            };
            let got = exact(&gold, &pred, Mode::Compat).score;
            assert!(
                (got - expected).abs() < 1e-12,
                "{variant} {model}: {got} != {expected}"
            );
        }
    }
}

/// A plan of finetuning_data.jsonl with its newlines back: each `)` followed by a space ends a
/// line (the space of the file's final newline too).
fn unflatten(plan: &str) -> String {
    plan.replace(") ", ")\n")
}

/// The LCS length by the textbook two-row table, to check the library's walk back.
fn lcs_length(a: &[&str], b: &[&str]) -> usize {
    let mut previous = vec![0; b.len() + 1];
    for x in a {
        let mut row = vec![0; b.len() + 1];
        for (j, y) in b.iter().enumerate() {
            row[j + 1] = if x == y {
                previous[j] + 1
            } else {
                previous[j + 1].max(row[j])
            };
        }
        previous = row;
    }
    previous[b.len()]
}

#[test]
fn gold_plans_of_gpt_and_gemini_compare_consistently() {
    let Some(file) = common::shared_part(
        "bddl/actplan-1k/bleu-cls/finetuning_data.jsonl",
        "gold_plans_of_gpt_and_gemini_compare_consistently",
    ) else {
        return;
    };
    let text = read(&file);
    let (mut pairs, mut identical, mut improved, mut newline) = (0, 0, 0, 0);
    let mut comparisons = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let record: Value = serde_json::from_str(line).expect("a JSON record");
        let plan = |key: &str| record[key].as_array()?.first()?.as_str().map(unflatten);
        let (Some(gpt), Some(gemini)) = (plan("gold_gpt"), plan("gold_gemini")) else {
            continue;
        };
        pairs += 1;
        // A plan against itself is identical, so it scores 1; a final newline dropped from the
        // candidate costs a step in compat only (a gold ends with one when its flattened text
        // ends with the space).
        let trimmed = gpt.trim_end_matches('\n');
        assert_eq!(exact(&gpt, &gpt, Mode::Compat).score, 1.0);
        let dropped = exact(&gpt, trimmed, Mode::Compat).score;
        assert_eq!(dropped == 1.0, !gpt.ends_with('\n'), "{line}");
        assert_eq!(exact(&gpt, trimmed, Mode::Default).score, 1.0);
        newline += usize::from(gpt.ends_with('\n'));
        for mode in [Mode::Compat, Mode::Default] {
            let forward = exact(&gpt, &gemini, mode);
            let backward = exact(&gemini, &gpt, mode);
            assert!((0.0..=1.0).contains(&forward.score), "{line}");
            assert_eq!((forward.lcs, forward.score), (backward.lcs, backward.score));
            let (a, b) = (bddl::steps(&gpt, mode), bddl::steps(&gemini, mode));
            assert_eq!(forward.score == 1.0, a == b, "{mode:?}: {line}");
            assert_eq!(forward.lcs, lcs_length(&a, &b));
            assert_eq!(forward.matched.len(), forward.lcs);
            for (pair, next) in forward.matched.iter().zip(forward.matched.iter().skip(1)) {
                assert!(pair.gold_index < next.gold_index && pair.pred_index < next.pred_index);
            }
            assert!(
                forward
                    .matched
                    .iter()
                    .all(|p| a[p.gold_index] == b[p.pred_index])
            );
            let normalised =
                compare(Some(&gpt), &gemini, mode, Matching::Normalised).expect("gold");
            if mode == Mode::Default {
                comparisons.push(forward.clone());
            }
            assert!(normalised.lcs >= forward.lcs);
            improved += usize::from(normalised.lcs > forward.lcs && mode == Mode::Default);
            identical += usize::from(a == b && mode == Mode::Default);
        }
    }
    assert!(pairs >= 400, "only {pairs} records with both gold plans");
    // The summary's interval is a seeded bootstrap around the mean, the same on every run.
    let summary = bddl::summary(&comparisons);
    let interval = summary.score_interval;
    assert_eq!((summary.count, interval.n), (pairs, pairs));
    assert_eq!(interval.value, Some(summary.mean_score));
    let (low, high) = (interval.low.expect("low"), interval.high.expect("high"));
    assert!(
        low < summary.mean_score && summary.mean_score < high,
        "{interval:?}"
    );
    assert!(high - low < 0.2, "{interval:?}");
    assert_eq!(bddl::summary(&comparisons), summary);
    // Not every pair is the same plan, and normalisation merges some spellings.
    assert!(identical < pairs, "{identical} of {pairs} identical");
    assert!(improved > 0, "normalised matching never found more");
    assert!(
        newline > 0 && newline < pairs,
        "{newline} of {pairs} golds end with a newline"
    );
    common::progress(&format!(
        "bddl compare: {pairs} gold pairs, {identical} identical, {improved} improved by normalising"
    ));
}
