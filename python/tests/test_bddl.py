"""pddlc.bddl: BDDL checked and formatted as the CLI does, and ActPlan-1K's plan metric with a
Python step relation (docs/bddl.md)."""

import json
import pytest

import pddlc
from conftest import FIXTURES, cli, need_shared

DROPPED = FIXTURES / "bddl/check/B709_goal_dropped.bddl"
MISMATCH = FIXTURES / "bddl/check/B721_domain_mismatch"


def cli_codes(*args):
    out = cli("check", "--format", "json", *map(str, args))
    return [d["code"] for d in json.loads(out.stdout)["diagnostics"]]


@pytest.mark.parametrize("name", ["B709_goal_dropped", "B715_unbound_category", "B720_repeated_category"])
def test_check_reports_what_pddlc_check_reports(name):
    path = FIXTURES / f"bddl/check/{name}.bddl"
    report = pddlc.bddl.check(path)
    assert [d.code for d in report.diagnostics] == cli_codes(path)
    assert name[:4] in [d.code for d in report.diagnostics]
    # Text gives the same diagnostics as the path.
    assert [d.code for d in pddlc.bddl.check(path.read_text()).diagnostics] == cli_codes(path)


def test_a_problem_is_checked_against_the_domain_given():
    report = pddlc.bddl.check(MISMATCH / "problem.bddl", MISMATCH / "domain.bddl")
    assert "B721" in [d.code for d in report.diagnostics]
    assert not report.ok


def test_a_domain_not_shipped_leaves_a_note():
    text = "(define (problem p) (:domain omnigibson) (:objects a.n.01_1 - a.n.01) (:init (real a.n.01_1)) (:goal (real a.n.01_1)))"
    report = pddlc.bddl.check(text)
    assert report.ok
    assert "predicates are not checked" in report.note


def test_a_hierarchy_replaces_the_shipped_taxonomy():
    hierarchy = json.dumps({"name": "entity.n.01", "children": [{"name": "a.n.01"}]})
    text = "(define (problem p) (:domain igibson) (:objects a.n.01_1 - a.n.01 b.n.01_1 - b.n.01) (:init (cooked a.n.01_1) (cooked b.n.01_1)) (:goal (cooked a.n.01_1)))"
    codes = [d.code for d in pddlc.bddl.check(text, hierarchy=hierarchy).diagnostics]
    assert codes.count("B710") == 1, codes
    with pytest.raises(ValueError):
        pddlc.bddl.check(text, hierarchy="not json")


def test_format_is_pddlc_fmt_and_refuses_syntax_errors():
    printed = pddlc.bddl.format(DROPPED)
    out = cli("fmt", str(DROPPED))
    assert printed == out.stdout
    broken = pddlc.bddl.format("(define (problem p) (:goal (cooked (a))))")
    assert isinstance(broken, pddlc.Report) and not broken.ok


def test_compare_takes_a_python_similarity():
    gold = "walk_to(table)\ngrab(cookie)\nplace_inside(basket, cookie)\n"
    pred = "walk_to(the table)\ngrab(cookie)\nplace_inside(cookie, basket)\n"
    assert pddlc.bddl.compare(gold, pred)["lcs"] == 1
    assert pddlc.bddl.compare(gold, pred, match="normalised")["lcs"] == 2
    asked = []

    def similarity(a, b):
        asked.append((a, b))
        words = lambda s: set(s.replace("(", " ").replace(")", " ").replace(",", " ").split()) - {"the"}
        return len(words(a) & words(b)) / len(words(a) | words(b))

    result = pddlc.bddl.compare(gold, pred, match=similarity, threshold=0.99)
    assert result["lcs"] == 3 and result["score"] == 1.0
    assert len(asked) == len(set(asked)), "each pair of steps asked once"
    assert pddlc.bddl.compare(gold, pred, match=lambda a, b: False)["lcs"] == 0
    assert pddlc.bddl.compare(gold, pred, match=lambda a, b: a == b)["lcs"] == 1


def test_compare_modes_and_errors():
    assert pddlc.bddl.compare(None, "a\n", mode="compat")["score"] == 1.0
    with pytest.raises(ValueError):
        pddlc.bddl.compare(None, "a\n")
    with pytest.raises(ValueError):
        pddlc.bddl.compare("a", "a", mode="strict")
    with pytest.raises(ValueError):
        pddlc.bddl.compare("a", "a", match="fuzzy")

    def broken(a, b):
        raise RuntimeError("model not loaded")

    with pytest.raises(RuntimeError, match="model not loaded"):
        pddlc.bddl.compare("a", "b", match=broken)


PAIRS = FIXTURES / "bddl/pairs_problem.bddl"
STAR = [line for line in (FIXTURES / "bddl/star_state.txt").read_text().splitlines() if line.startswith("(")]


def test_goal_is_pddlc_bddl_goal():
    for options, flags in [({}, []), ({"pairs": "matching"}, ["--pairs", "matching"]), ({"forn": "at-least"}, ["--forn", "at-least"])]:
        verdict = pddlc.bddl.goal(PAIRS, STAR, **options)
        out = cli("bddl", "goal", str(PAIRS), "--state", str(FIXTURES / "bddl/star_state.txt"), "--format", "json", *flags)
        expected = json.loads(out.stdout)
        assert (verdict["satisfied"], verdict["conjuncts"]) == (expected["satisfied"], expected["conjuncts"])
    compiled = pddlc.bddl.Goal(PAIRS)
    assert compiled.ok and compiled.report.ok
    assert compiled.evaluate([]) == {"satisfied": False, "conjuncts": [False, False]}
    with pytest.raises(ValueError):
        compiled.evaluate(["not an atom"])
    with pytest.raises(ValueError):
        pddlc.bddl.Goal(PAIRS, pairs="strict")


def test_a_goal_bddl_cannot_load_has_a_report_and_no_verdict():
    path = FIXTURES / "bddl/check/B715_unbound_category.bddl"
    compiled = pddlc.bddl.Goal(path)
    assert not compiled.ok
    assert "B715" in [d.code for d in compiled.report.diagnostics]
    with pytest.raises(ValueError):
        compiled.evaluate([])
    verdict = pddlc.bddl.goal(path, [])
    assert verdict["satisfied"] is None and verdict["conjuncts"] == []


def test_the_reference_states_in_process():
    root = need_shared("bddl/reference/goal-eval.jsonl")
    records = [json.loads(line) for line in (root / "bddl/reference/goal-eval.jsonl").open()]
    assert len(records) == 266
    states = 0
    for record in records:
        compiled = pddlc.bddl.Goal(root / "bddl" / record["file"])
        for sample in record["samples"]:
            verdict = compiled.evaluate([record["atoms"][i] for i in sample["true"]])
            assert verdict == {"satisfied": sample["goal"], "conjuncts": sample["conjuncts"]}
            states += 1
    assert states == 5320


def test_parse_gives_the_tree_as_dicts():
    tree, report = pddlc.bddl.parse(PAIRS)
    assert report.ok and tree["kind"] == "problem"
    goal = [s for s in tree["sections"] if s["section"] == "goal"][0]
    assert goal["formulas"][0]["kind"]["op"] == "and"
    tree, report = pddlc.bddl.parse("(define (problem p) (:goal (cooked a))")
    assert tree is None and not report.ok
