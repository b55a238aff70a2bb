"""`pddlc.Env`: a PDDL task as an environment, against `pddlc validate` on the reference plans."""

import json
import random
import re

import pytest

import pddlc
from conftest import BLOCKS, FIXTURES, need_shared, read_text

DOMAIN = BLOCKS / "domain.pddl"
PROBLEM = BLOCKS / "problem.pddl"
PLAN = ["(unstack a b)", "(put-down a)", "(unstack b c)", "(stack b a)", "(pick-up c)", "(stack c b)"]


def test_the_interface_the_issue_names():
    env = pddlc.Env.from_files(str(DOMAIN), str(PROBLEM))
    obs = env.reset()
    assert obs == frozenset({"(on a b)", "(on b c)", "(ontable c)", "(clear a)", "(arm-empty)"})
    assert env.applicable() == ["(unstack a b)"]
    obs, reward, done, info = env.step("(unstack a b)")
    assert (reward, done, info["applied"]) == (0.0, False, True)
    assert info["added"] == ["(clear b)", "(holding a)"]
    assert info["deleted"] == ["(arm-empty)", "(clear a)", "(on a b)"]
    assert "(holding a)" in obs and "(on a b)" not in obs
    for action in PLAN[1:-1]:
        assert env.step(action)[3]["applied"]
    obs, reward, done, info = env.step(PLAN[-1])
    assert (reward, done, info["goal_reached"], env.done) == (1.0, True, True, True)
    assert env.unmet_goals == [] and env.steps == len(PLAN)


def test_a_refused_action_leaves_the_state_and_says_why():
    env = pddlc.Env(DOMAIN, PROBLEM)
    before = env.reset()
    cases = [
        ("(pick-up c)", "V306"),
        ("(pick-up d)", "V304"),
        ("(fly a)", "V302"),
        ("(unstack a)", "V303"),
        ("unstack a b c", "V303"),
        ("(unstack a b", "V301"),
        ("", "V301"),
        ("(unstack a b) (put-down a)", "V301"),
    ]
    for action, code in cases:
        obs, reward, done, info = env.step(action)
        assert obs == before and reward == 0.0 and not done, action
        assert not info["applied"], action
        diagnostic = info["diagnostic"]
        assert diagnostic.code == code and diagnostic["code"] == code, (action, diagnostic)
        assert diagnostic.file == "<action>", diagnostic
    info = env.step("(pick-up c)")[3]
    assert info["unsatisfied"] == ["(clear c)"]
    assert "must be true before it" in info["diagnostic"].message
    # An unknown object is located in the action text, a did-you-mean in the help.
    info = env.step("unstack a bb")[3]
    assert (info["diagnostic"].column, info["diagnostic"].length) == (11, 2)
    assert "`b`" in info["diagnostic"].help
    assert env.steps == 0


def test_case_spacing_and_bare_actions_are_read():
    env = pddlc.Env(DOMAIN, PROBLEM)
    assert env.step("  UNSTACK   A  B ")[3]["action"] == "(unstack a b)"
    assert env.step("put-down a")[3]["applied"]


def test_snapshot_restore_and_clone_are_independent():
    env = pddlc.Env(DOMAIN, PROBLEM)
    saved = env.snapshot()
    env.step("(unstack a b)")
    twin = env.clone()
    twin.step("(put-down a)")
    assert "(holding a)" in env.observation and "(ontable a)" in twin.observation
    env.restore(saved)
    assert env.steps == 0 and "(on a b)" in env.observation
    twin.restore(saved)  # a clone shares the task: its states fit
    other = pddlc.Env(DOMAIN, PROBLEM)
    with pytest.raises(ValueError, match="another task"):
        other.restore(saved)
    assert "goal atoms still false" in env.text() and "(on a b)" in env.text()


def test_numeric_fluents_are_observed():
    domain = """(define (domain counter) (:requirements :numeric-fluents)
      (:functions (n))
      (:action inc :parameters ()       :precondition (<= (n) 1) :effect (increase (n) 1)))"""
    problem = "(define (problem p) (:domain counter) (:init (= (n) 0)) (:goal (>= (n) 2)))"
    env = pddlc.Env(domain, problem)
    assert env.reset() == frozenset({"(= (n) 0)"})
    obs, reward, done, info = env.step("(inc)")
    assert info["numeric"] == [{"fluent": "(n)", "before": 0.0, "after": 1.0}]
    obs, reward, done, info = env.step("(inc)")
    assert obs == frozenset({"(= (n) 2)"}) and done and reward == 1.0
    assert env.fluents == {"(n)": 2.0}
    assert env.applicable() == []
    assert env.step("(inc)")[3]["diagnostic"].code == "V306"


def test_bad_tasks_raise_with_a_report():
    with pytest.raises(pddlc.TaskError) as raised:
        pddlc.Env("(define (domain d) (:predicates (p)))", "(define (problem x) (:domain d) (:goal (q)))")
    report = raised.value.args[1]
    assert not report.ok and [d.code for d in report.diagnostics] == ["C101"]
    durative = FIXTURES / "validate"
    temporal = next(p for p in sorted(durative.rglob("domain.pddl")) if ":durative-action" in read_text(p))
    problem = temporal.parent / "problem.pddl"
    with pytest.raises(ValueError, match="V310"):
        pddlc.Env(temporal, problem)
    with pytest.raises(TypeError):
        pddlc.Env(1, 2)


def test_random_walks_agree_with_validate():
    """Seeded walks over applicable actions: every prefix the environment applied validates, and
    the environment's goal test is the validator's verdict."""
    rng = random.Random(7)
    env = pddlc.Env(DOMAIN, PROBLEM)
    for _ in range(20):
        env.reset()
        plan = []
        for _ in range(rng.randrange(1, 12)):
            action = rng.choice(env.applicable())
            assert env.step(action)[3]["applied"]
            plan.append(action)
        report = pddlc.validate(DOMAIN, PROBLEM, "\n".join(plan))
        assert report.ok == env.done, plan
        assert report.ok or report.unmet_goals == env.unmet_goals


def test_the_reference_plans_step_as_validate_runs_them():
    """Every untimed plan of ../shared/plans: the step that validate fails is the step the
    environment refuses, with the same code; a valid plan ends at the goal."""
    root = need_shared("plans/index.jsonl", "corpus")
    rows = [json.loads(line) for line in (root / "plans/index.jsonl").open()]
    envs = {}
    checked = 0
    for row in rows:
        plan = read_text(root / row["plan"]) if (root / row["plan"]).exists() else ""
        if re.search(r"^\s*[0-9.]+\s*:", plan, re.M):
            continue  # timestamped: the Rust test compares those, happenings aside
        key = (row["domain"], row["problem"])
        if key not in envs:
            try:
                envs[key] = pddlc.Env(root / row["domain"], root / row["problem"])
            except (pddlc.TaskError, ValueError):
                envs[key] = None
        env = envs[key]
        report = pddlc.validate(root / row["domain"], root / row["problem"], plan)
        if env is None:
            assert report.valid is None or not report.ok, row["id"]
            continue
        env.reset()
        steps = [line for line in plan.splitlines() if line.split(";")[0].strip()]
        failed = None
        for number, line in enumerate(steps, 1):
            info = env.step(line.split(";")[0])[3]
            if not info["applied"]:
                failed = (number, info["diagnostic"].code)
                break
        codes = [f["code"] for f in report.failures]
        if "V301" in codes:
            assert failed is not None and failed[1] == "V301", row["id"]
        elif report.failed_step is not None:
            first = next(f for f in report.failures if f["code"] != "V307")
            assert failed == (report.failed_step, first["code"]), (row["id"], failed, first)
        else:
            assert failed is None and env.done == bool(report.ok), row["id"]
        checked += 1
    assert checked >= 2450, checked  # 2,477 untimed plans when written
