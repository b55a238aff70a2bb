"""`pddlc.worldmodel` (make, score) against `pddlc worldmodel make` and `score --format json`,
the hand-worked fixture, `pddlc.gym.GymEnv` under Gymnasium's own checker, and the worked
example of docs/worldmodel.md run as shown."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import pddlc
from conftest import BLOCKS, FIXTURES, REPO, cli
from pddlc import worldmodel

DOMAIN = Path("domains/blocksworld/domain.pddl")
PROBLEM = Path("domains/blocksworld/problem.pddl")
SCORE = FIXTURES / "worldmodel" / "score"


def jsonl(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_make_gives_what_the_cli_writes(monkeypatch):
    monkeypatch.chdir(REPO)
    items = worldmodel.make(DOMAIN, PROBLEM, seed=3)
    run = cli("worldmodel", "make", str(DOMAIN), str(PROBLEM), "--seed", "3")
    assert run.returncode == 0, run.stderr
    assert items == jsonl(run.stdout)
    assert items[0] == {
        "kind": "task",
        "task": "reverse-three",
        "domain": str(DOMAIN),
        "problem": str(PROBLEM),
    }
    kinds = {item["kind"] for item in items}
    assert kinds == {"task", "next_state", "verification", "proposal", "planning"}


def test_score_gives_what_the_cli_writes():
    scores = worldmodel.score(SCORE / "items.jsonl", SCORE / "predictions.jsonl", top_k=(1, 3), bootstrap=500)
    run = cli(
        "worldmodel", "score", str(SCORE / "items.jsonl"), str(SCORE / "predictions.jsonl"),
        "--top-k", "1,3", "--bootstrap", "500", "--format", "json",
    )
    assert run.returncode == 0, run.stderr
    document = json.loads(run.stdout)
    codes = [d["code"] for d in document.pop("diagnostics")]
    report = scores.pop("report")
    assert scores == document
    assert [d.code for d in report.diagnostics] == codes == ["W802", "W804", "W804"]


def test_the_hand_worked_values_from_lists_of_dicts():
    items = jsonl((SCORE / "items.jsonl").read_text())
    predictions = jsonl((SCORE / "predictions.jsonl").read_text().replace("this line is not JSON\n", ""))
    tasks = {"reverse-three": (BLOCKS / "domain.pddl", BLOCKS / "problem.pddl")}
    o = worldmodel.score(items, predictions, tasks=tasks, top_k=(1,))["overall"]
    assert o["next_state"]["exact"]["value"] == 0.5
    assert o["next_state"]["atom_f1"]["value"] == pytest.approx((8 / 9 + 1) / 2)
    assert o["verification"]["accuracy"]["value"] == 0.5
    assert o["verification"]["false_positive_rate"]["value"] == 0.5
    assert o["proposal"]["top_k"][0]["keeps_goal_reachable"]["value"] == 1.0
    assert o["proposal"]["top_k"][0]["on_optimal_plan"]["value"] == 0.5
    assert o["planning"]["success"]["value"] == 0.5
    assert (o["planning"]["items"], o["planning"]["predicted"]) == (2, 1)


def test_no_reference_plan_and_no_task_are_errors():
    with pytest.raises(worldmodel.MakeError) as raised:
        worldmodel.make(
            BLOCKS / "domain.pddl",
            BLOCKS / "problem.pddl",
            "(unstack a b)\n",
        )
    assert [d.code for d in raised.value.report.diagnostics] == ["W801"]
    with pytest.raises(pddlc.TaskError):
        worldmodel.score(SCORE / "items.jsonl", [], tasks={"reverse-three": ("(define", "(define")})
    with pytest.raises(ValueError):
        worldmodel.make(BLOCKS / "domain.pddl", BLOCKS / "problem.pddl", fractions=(2.0,))
    # A str is JSON lines; one that names a file says how to read the file.
    with pytest.raises(ValueError, match="pathlib.Path"):
        worldmodel.score(str(SCORE / "items.jsonl"), [])


def test_gym_env_passes_gymnasiums_checker_and_steps_as_env():
    # scripts/test.sh installs Gymnasium (pddlc.gym's optional dependency): no skip.
    from gymnasium.utils.env_checker import check_env

    from pddlc.gym import GymEnv

    env = GymEnv(BLOCKS / "domain.pddl", BLOCKS / "problem.pddl", max_steps=8, applicable_in_info=True)
    check_env(env, skip_render_check=True)
    observation, info = env.reset(seed=0)
    assert observation in env.observation_space
    assert info["applicable"] == ["(unstack a b)"]
    observation, reward, terminated, truncated, info = env.step("(pick-up c)")
    assert (reward, terminated, truncated, info["applied"]) == (0.0, False, False, False)
    assert info["diagnostic"].code == "V306"
    assert "(on a b)" in observation
    plan = ["(unstack a b)", "(put-down a)", "(unstack b c)", "(stack b a)", "(pick-up c)", "(stack c b)"]
    for action in plan:
        observation, reward, terminated, truncated, info = env.step(action)
    assert (reward, terminated, truncated) == (1.0, True, False)
    env.reset()
    for _ in range(8):
        result = env.step("(fly away)")
    _, _, terminated, truncated, _ = result
    assert (terminated, truncated) == (False, True)  # eight turns, refused ones too
    assert env.action_space.contains("(unstack a b)")


def test_the_worked_example_prints_what_the_docs_show():
    run = subprocess.run(
        [sys.executable, str(REPO / "examples" / "worldmodel_loop.py")],
        capture_output=True, text=True, cwd=REPO, timeout=600,
    )
    assert run.returncode == 0, run.stderr
    docs = (REPO / "docs" / "worldmodel.md").read_text()
    shown = re.search(r"```text\n\$ python examples/worldmodel_loop.py\n(.*?)```", docs, re.S)
    assert shown, "docs/worldmodel.md shows the example's output"
    assert run.stdout == shown.group(1)
