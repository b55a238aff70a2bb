"""`pddlc.parse` and `pddlc.format`: the Python views, the tree as `pddlc parse --json` writes
it, canonical text as `pddlc fmt` prints it, and reports for input that does not parse."""

import json
from pathlib import Path

import pytest

import pddlc
from conftest import BLOCKS, FIXTURES, REPO, cli, fixture_files, read_text


def test_the_blocks_world_domain_as_python_values():
    domain = pddlc.parse(BLOCKS / "domain.pddl")
    assert isinstance(domain, pddlc.Domain)
    assert domain.kind == "domain" and domain.ok and domain.report.ok
    assert domain.name == "blocksworld"
    assert domain.requirements == [":strips", ":typing"]
    assert domain.types == {"block": None}
    assert domain.constants == {}
    assert domain.predicates == ["on", "ontable", "clear", "holding", "arm-empty"]
    assert domain.functions == []
    assert domain.actions == ["pick-up", "put-down", "stack", "unstack"]
    assert repr(domain) == "Domain(name='blocksworld', predicates=5, actions=4)"


def test_the_blocks_world_problem_as_python_values():
    problem = pddlc.parse(read_text(BLOCKS / "problem.pddl"))
    assert isinstance(problem, pddlc.Problem)
    assert (problem.kind, problem.name, problem.domain) == ("problem", "reverse-three", "blocksworld")
    assert problem.objects == {"a": "block", "b": "block", "c": "block"}
    assert problem.init_size == 5
    assert problem.goal == "(and (on c b) (on b a))"


@pytest.mark.parametrize(
    "path", [BLOCKS / "domain.pddl", BLOCKS / "problem.pddl"], ids=lambda p: p.name
)
def test_to_dict_is_the_cli_tree(path, monkeypatch):
    monkeypatch.chdir(REPO)
    relative = path.relative_to(REPO)
    tree = json.loads(cli("parse", "--json", str(relative)).stdout)["tree"]
    assert pddlc.parse(relative).to_dict() == tree
    without = pddlc.parse(relative).to_dict(spans=False)
    assert "span" not in json.dumps(without)
    assert without["name"] == {"text": tree["name"]["text"]}


def test_deep_nesting_serialises():
    # 200 nested `and`s: within the parser's bound, deeper than Python's JSON decoder goes
    # comfortably.
    goal = "(and " * 200 + "(p)" + ")" * 200
    text = f"(define (problem q) (:domain d) (:objects) (:init) (:goal {goal}))"
    problem = pddlc.parse(text)
    assert problem.ok
    tree = problem.to_dict(spans=False)
    depth = 0
    node = tree["goal"]
    while node["type"] == "and":
        [node] = node["args"]
        depth += 1
    assert depth == 200
    assert node == {"type": "atom", "predicate": {"text": "p"}, "args": []}


def test_a_tree_nested_past_the_recursion_limit_still_converts():
    # `to_dict` reads the tree's JSON with `json.loads`, which stops at the recursion limit (on
    # CPython 3.11 and earlier, where the limit also bounds C code); the binding then builds the
    # dicts itself.
    import inspect
    import sys

    goal = "(and " * 250 + "(p)" + ")" * 250
    problem = pddlc.parse(f"(define (problem q) (:domain d) (:goal {goal}))")
    expected = problem.to_dict()
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 50)
    try:
        converted = problem.to_dict()
    finally:
        sys.setrecursionlimit(limit)
    assert converted == expected


@pytest.mark.parametrize("path", fixture_files("parse"))
def test_parse_fixtures_report_their_code(path):
    result = pddlc.parse(path)
    report = result if isinstance(result, pddlc.Report) else result.report
    code = path.name.split("_")[0]
    assert code in [d.code for d in report.diagnostics]


def test_nothing_parsed_is_a_report():
    result = pddlc.parse("(define (domain x) (:action")
    assert isinstance(result, pddlc.Report)
    assert not result.ok
    assert result.errors[0].code == "P001"
    assert isinstance(pddlc.parse(b"\xff"), pddlc.Report)
    assert isinstance(pddlc.parse(""), pddlc.Report)


@pytest.mark.parametrize(
    "path", [BLOCKS / "domain.pddl", BLOCKS / "problem.pddl"], ids=lambda p: p.name
)
def test_format_is_the_cli_fmt(path):
    assert pddlc.format(read_text(path)) == cli("fmt", str(path)).stdout
    assert pddlc.format(read_text(path), width=40) == cli("fmt", "--width", "40", str(path)).stdout


def test_format_keeps_comments_and_is_idempotent():
    messy = "(define (domain d) ; a domain\n(:predicates (p ?x)   (q))\n(:action a :parameters (?x) :precondition (p ?x) :effect (q)))"
    once = pddlc.format(messy)
    assert "; a domain" in once
    assert pddlc.format(once) == once


def test_format_of_text_with_errors_is_its_report():
    result = pddlc.format("(define (domain x) (:action")
    assert isinstance(result, pddlc.Report)
    assert result.errors[0].code == "P001"


def test_misuse():
    with pytest.raises(TypeError, match="`input` must be PDDL text"):
        pddlc.parse(None)
    with pytest.raises(TypeError):
        pddlc.format(3.5)
