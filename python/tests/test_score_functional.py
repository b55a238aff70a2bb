"""`functional=True` in `pddlc.score` and `pddlc.score_many`: the same `functional` object as
`pddlc score --functional --format json`, counterexample files in a directory (never over an
existing one without `force=True`), and `time_limit` giving `unknown` with the reason."""

import json

import pytest

import pddlc
from conftest import BLOCKS, cli, read_text

GOLD = read_text(BLOCKS / "domain.pddl")
# `unstack` without `(clear ?x)`: applicable in more states than the gold's.
DROPPED = GOLD.replace("(and (on ?x ?y) (clear ?x) (arm-empty))", "(and (on ?x ?y) (arm-empty))")


def test_the_dropped_precondition_is_there_to_drop():
    assert DROPPED != GOLD


def test_functional_is_the_cli_json(tmp_path):
    gold, pred = tmp_path / "gold.pddl", tmp_path / "pred.pddl"
    gold.write_text(GOLD)
    pred.write_text(DROPPED)
    document = json.loads(cli("score", "--functional", "--format", "json", str(gold), str(pred)).stdout)
    scores = pddlc.score(GOLD, DROPPED, functional=True)
    assert scores.to_dict() == document
    assert scores.functional == document["functional"]
    assert scores.functional["verdict"] == "different"
    verdicts = {a["gold"]: a["verdict"] for a in scores.functional["actions"]}
    assert verdicts["unstack"] == "weaker-precondition"
    assert pddlc.score(GOLD, GOLD, functional=True).functional["verdict"] == "equivalent"
    # Without the flag there is none, in the object as in the CLI's JSON.
    plain = pddlc.score(GOLD, DROPPED)
    assert plain.functional is None and "functional" not in plain.to_dict()


def test_counterexamples_are_written_and_confirmed_by_the_validator(tmp_path):
    out = tmp_path / "cx"
    scores = pddlc.score(GOLD, DROPPED, functional=True, counterexamples=out)
    [example] = scores.functional["counterexamples"]
    problem, plan = out / example["problem"], out / example["plan"]
    assert problem.is_file() and plan.is_file()
    assert pddlc.validate(GOLD, problem, plan).valid is False
    assert pddlc.validate(DROPPED, problem, plan).valid is True
    with pytest.raises(FileExistsError):
        pddlc.score(GOLD, DROPPED, functional=True, counterexamples=str(out))
    plan.unlink()
    with pytest.raises(FileExistsError):
        pddlc.score(GOLD, DROPPED, functional=True, counterexamples=out)
    assert not plan.exists(), "nothing is written when a file exists"
    pddlc.score(GOLD, DROPPED, functional=True, counterexamples=out, force=True)
    assert plan.is_file()


def test_score_many_gives_each_pair_its_comparison():
    pairs = [(GOLD, GOLD), {"id": "dropped", "gold": GOLD, "pred": DROPPED}, (GOLD, 3)]
    results = pddlc.score_many(pairs, functional=True, threads=2)
    assert [r.functional and r.functional["verdict"] for r in results] == ["equivalent", "different", None]
    assert results[1].functional == pddlc.score(GOLD, DROPPED, functional=True).functional
    assert results[2].error is not None
    assert all(r.functional is None for r in pddlc.score_many(pairs[:2]))


def test_a_time_limit_reached_is_unknown_with_the_reason():
    # A microsecond is far less than reading a domain takes: no action is decided.
    limited = pddlc.score(GOLD, GOLD, functional=True, time_limit=0.000001).functional
    reason = "the time limit (0.000001 s) was reached"
    assert (limited["verdict"], limited["reason"]) == ("unknown", reason)
    assert {(a["verdict"], a["reason"]) for a in limited["actions"]} == {("unknown", reason)}
    [many] = pddlc.score_many([(GOLD, GOLD)], functional=True, time_limit=0.000001)
    assert many.functional == limited
    # A generous limit changes nothing.
    assert pddlc.score(GOLD, GOLD, functional=True, time_limit=60).functional["verdict"] == "equivalent"


@pytest.mark.parametrize("limit", [0, -1.0, float("nan")])
def test_a_time_limit_must_be_positive(limit):
    with pytest.raises(ValueError, match="positive"):
        pddlc.score(GOLD, GOLD, functional=True, time_limit=limit)
    with pytest.raises(ValueError, match="positive"):
        pddlc.score_many([(GOLD, GOLD)], functional=True, time_limit=limit)


def test_limits_and_files_need_functional(tmp_path):
    with pytest.raises(ValueError, match="functional=True"):
        pddlc.score(GOLD, GOLD, time_limit=1)
    with pytest.raises(ValueError, match="functional=True"):
        pddlc.score(GOLD, GOLD, counterexamples=tmp_path)


def test_no_sample_leaves_out_the_sample_and_nothing_else():
    sampled = pddlc.score(GOLD, DROPPED, functional=True).functional
    unsampled = pddlc.score(GOLD, DROPPED, functional=True, no_sample=True).functional
    assert sampled["sampled"] is not None and unsampled["sampled"] is None
    assert {k: v for k, v in sampled.items() if k != "sampled"} == {
        k: v for k, v in unsampled.items() if k != "sampled"
    }
    [many] = pddlc.score_many([(GOLD, DROPPED)], functional=True, no_sample=True)
    assert many.functional == unsampled
    with pytest.raises(ValueError, match="functional=True"):
        pddlc.score(GOLD, DROPPED, no_sample=True)
