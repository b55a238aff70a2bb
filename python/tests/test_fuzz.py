"""Hostile input never crashes the interpreter: seeded random bytes, invalid UTF-8, 10 MB
strings, deep nesting and mutated real tasks go through every entry point, which must return
their documented types (a `Report` for what cannot be used) and raise nothing.

A crash here (an abort, a stack overflow) would kill the pytest process itself, which CI reports
as a failure; pytest's faulthandler then prints where it happened."""

import random

import pytest

import pddlc
from conftest import BLOCKS, SALAD, read_text

DOMAIN = read_text(BLOCKS / "domain.pddl")
PROBLEM = read_text(BLOCKS / "problem.pddl")
PLAN = "(unstack a b)\n(put-down a)\n(unstack b c)\n(stack b a)\n(pick-up c)\n(stack c b)\n"
ENV = read_text(SALAD / "env.json")
KITCHEN_PLAN = read_text(SALAD / "safe.txt")


def every_entry_point(text):
    """Feeds `text` to every function in every role it can take; checks the result types."""
    assert isinstance(pddlc.check(text), pddlc.Report)
    assert isinstance(pddlc.check(text, PROBLEM), pddlc.Report)
    assert isinstance(pddlc.check(DOMAIN, text), pddlc.Report)
    assert isinstance(pddlc.check(text, profile="tarski"), pddlc.Report)
    assert isinstance(pddlc.check(text, extract=True), pddlc.Report)
    assert isinstance(pddlc.parse(text), (pddlc.Domain, pddlc.Problem, pddlc.Report))
    assert isinstance(pddlc.format(text), (str, pddlc.Report))
    for mode in ("text2world", "clean"):
        for response in (False, True):
            assert isinstance(pddlc.score(DOMAIN, text, mode=mode, response=response), pddlc.Scores)
        assert isinstance(pddlc.score(text, DOMAIN, mode=mode), pddlc.Scores)
    assert isinstance(pddlc.validate(text, PROBLEM, PLAN), pddlc.PlanReport)
    assert isinstance(pddlc.validate(DOMAIN, text, PLAN), pddlc.PlanReport)
    assert isinstance(pddlc.validate(DOMAIN, PROBLEM, text, keep_going=True), pddlc.PlanReport)
    assert isinstance(pddlc.applicable(DOMAIN, PROBLEM, text), (list, pddlc.PlanReport))
    assert isinstance(pddlc.kitchen.run(ENV, text), (pddlc.KitchenRun, pddlc.Report))
    assert isinstance(pddlc.kitchen.run(text, KITCHEN_PLAN), (pddlc.KitchenRun, pddlc.Report))
    assert isinstance(pddlc.kitchen.compile(ENV, text), (tuple, pddlc.Report))
    # Whatever came back renders in every format.
    report = pddlc.check(text)
    for fmt in ("human", "gcc", "val", "json"):
        assert isinstance(report.render(fmt), str)
    result = pddlc.parse(text)
    if not isinstance(result, pddlc.Report):
        assert isinstance(result.to_dict(), dict)


def mutate(rng, text, edits):
    """`text` with `edits` random deletions, duplications and insertions of PDDL-ish tokens."""
    tokens = ["(", ")", "(and", "(not", "?x", " - ", ":action", ":effect", "\n", ";", "(forall (?y)"]
    for _ in range(edits):
        if not text:
            text = rng.choice(tokens)
        i = rng.randrange(len(text))
        j = min(len(text), i + rng.randrange(1, 40))
        choice = rng.randrange(3)
        if choice == 0:
            text = text[:i] + text[j:]
        elif choice == 1:
            text = text[:j] + text[i:j] + text[j:]
        else:
            text = text[:i] + rng.choice(tokens) + text[i:]
    return text


@pytest.mark.parametrize("seed", range(40))
def test_random_bytes(seed):
    rng = random.Random(seed)
    data = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 3000)))
    every_entry_point(data)


@pytest.mark.parametrize("seed", range(40))
def test_invalid_utf8_bytes(seed):
    rng = random.Random(1000 + seed)
    source = rng.choice([DOMAIN, PROBLEM, PLAN]).encode()
    at = rng.randrange(len(source))
    bad = bytes([rng.choice([0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xF0, 0xF8, 0xFF])])
    data = source[:at] + bad + source[at:]
    every_entry_point(data)
    assert pddlc.check(data).errors[0].code == "P007"


@pytest.mark.parametrize("seed", range(60))
def test_mutated_tasks(seed):
    rng = random.Random(2000 + seed)
    text = mutate(rng, rng.choice([DOMAIN, PROBLEM]), rng.randrange(1, 8))
    every_entry_point(text)
    every_entry_point(text.encode())


def nested(depth, inner="(p)"):
    return "(and " * depth + inner + ")" * depth


@pytest.mark.parametrize("depth", [100, 255, 256, 257, 1000, 100_000])
def test_deep_nesting(depth):
    precondition = nested(depth)
    text = DOMAIN.replace(":precondition (holding ?x)", f":precondition {precondition}")
    every_entry_point(text)
    every_entry_point("(" * depth + ")" * depth)
    every_entry_point("(" * depth)
    goal = PROBLEM.replace("(:goal (and (on c b) (on b a)))", f"(:goal {nested(depth, '(on c b)')})")
    assert isinstance(pddlc.validate(DOMAIN, goal, PLAN), pddlc.PlanReport)


TEN_MB = 10 * 1024 * 1024


@pytest.mark.parametrize(
    "make",
    [
        lambda rng: "(" * TEN_MB,
        lambda rng: ")" * TEN_MB,
        lambda rng: "".join(rng.choices("() ?-:abc\n;", k=TEN_MB)),
        lambda rng: DOMAIN[:-2] + "\n  ; " + "x" * TEN_MB + "\n)",
        lambda rng: DOMAIN.replace("(arm-empty))", "(arm-empty)" + " (q)" * (TEN_MB // 4) + ")", 1),
    ],
    ids=["open-parens", "close-parens", "random-pddl-characters", "huge-comment", "many-predicates"],
)
def test_ten_megabyte_strings(make):
    rng = random.Random(3)
    text = make(rng)
    assert len(text) >= TEN_MB
    report = pddlc.check(text)
    assert isinstance(report, pddlc.Report)
    assert isinstance(pddlc.check(text, profile="tarski"), pddlc.Report)
    assert isinstance(pddlc.parse(text), (pddlc.Domain, pddlc.Problem, pddlc.Report))
    assert isinstance(pddlc.validate(text, PROBLEM, PLAN), pddlc.PlanReport)
    assert isinstance(pddlc.validate(DOMAIN, PROBLEM, text), pddlc.PlanReport)
    for mode in ("text2world", "clean"):
        assert isinstance(pddlc.score(DOMAIN, text, mode=mode), pddlc.Scores)
    assert isinstance(pddlc.score_many([(DOMAIN, text), (text, DOMAIN)], threads=2)[1], pddlc.Scores)
    # Not rendered: the check stage does not cap its diagnostics (a duplicate predicate each, 2.6
    # million here), and rendering them all is linear but long; rendering is tested elsewhere.
