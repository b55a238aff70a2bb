"""pddlc.plancraft: the environment object, runs, the solver and the compilation, against the
real environment's results in shared/plancraft/reference."""

import json

import pytest

import pddlc
from pddlc import plancraft

from conftest import FIXTURES, cli, need_shared


def val():
    root = need_shared("plancraft") / "plancraft"
    return root, json.loads((root / "data" / "val.json").read_text())


def reference(name):
    root = need_shared("plancraft") / "plancraft"
    return [json.loads(line) for line in (root / "reference" / name).read_text().splitlines()]


def as_pairs(inventory):
    return {slot: [content["type"], content["quantity"]] for slot, content in inventory.items()}


def test_env_steps_the_noisy_sequences_as_the_real_environment():
    _, examples = val()
    by_id = {example["id"]: example for example in examples}
    sequences = reference("val-noisy.jsonl")
    assert len(sequences) >= 1000
    for sequence in sequences[::10]:
        env = plancraft.Env(by_id[sequence["id"]])
        first = env.reset()
        assert first.startswith("Craft an item of type: " + sequence["target"])
        for expected in sequence["steps"]:
            observation, reward, done, info = env.step(expected["text"])
            assert info["kind"] == expected["kind"], expected
            assert info["changed"] == expected["changed"]
            delta = {k: (None if v is None else [v["type"], v["quantity"]]) for k, v in info["delta"].items()}
            assert delta == expected.get("delta", {})
            if expected["kind"] in ("format_error", "unknown", "think"):
                assert observation == expected["message"]
        assert env.done == (sequence["stopped_by"] != "end")
        assert as_pairs(env.inventory) == sequence["final_inventory"]
        assert env.steps == sequence["number_of_steps"]


def test_stepping_an_ended_episode_raises_and_reset_restarts():
    _, examples = val()
    env = plancraft.Env(examples[0], max_steps=1)
    env.reset()
    _, reward, done, info = env.step("think: what now")
    assert done and reward == 0.0 and info["stopped_by"] == "budget"
    with pytest.raises(ValueError, match="ended"):
        env.step("think: again")
    env.reset()
    assert not env.done and env.steps == 0


def test_run_and_solve_agree_with_the_oracle_replays():
    root, examples = val()
    oracle = reference("val-oracle.jsonl")
    for record, example in list(zip(oracle, examples))[::25]:
        assert record["id"] == example["id"]
        row = plancraft.run(example, record["actions"])
        assert row["success"] == record["evaluator"]["success"]
        assert row["number_of_steps"] == record["evaluator"]["number_of_steps"]
        solved = plancraft.solve(root / "data" / "val.json", id=example["id"])
        if example["impossible"]:
            assert solved["status"] == "impossible" and solved["proof"]
        else:
            assert solved["status"] == "solved"
            assert solved["length"] == int(example["optimal_path_length"])
            assert plancraft.run(example, solved["actions"])["success"]


def test_compiled_example_checks_and_its_plan_translates_back():
    _, examples = val()
    example = next(e for e in examples if not e["impossible"] and e["optimal_path_length"] >= 3)
    domain, problem = plancraft.compile(example)
    assert pddlc.check(domain, problem).ok
    solution = pddlc.solve(domain, problem)
    row = plancraft.from_pddl_plan(example, "\n".join(solution.plan))
    assert row["status"] == "solved" and row["replay"]["success"]


def test_grid_compiled_example_checks_and_its_plan_translates_back():
    _, examples = val()
    example = next(e for e in examples if not e["impossible"] and e["optimal_path_length"] >= 3)
    domain, problem = plancraft.compile(example, encoding="grid")
    assert "(holds ?c - cell ?i - item)" in domain
    assert pddlc.check(domain, problem).ok
    solution = pddlc.solve(domain, problem)
    plan = "\n".join(solution.plan)
    assert "(begin layout-" in plan and "(lay-" in plan
    row = plancraft.from_pddl_plan(example, plan, encoding="grid")
    assert row["status"] == "solved" and row["replay"]["success"]
    assert plancraft.run(example, row["actions"])["success"]
    # The same plan read in the other encoding names no action of it.
    assert plancraft.from_pddl_plan(example, plan)["status"] == "unknown"


def test_unknown_encodings_raise_value_errors():
    _, examples = val()
    with pytest.raises(ValueError, match="unknown encoding `slots`"):
        plancraft.compile(examples[0], encoding="slots")
    with pytest.raises(ValueError, match="unknown encoding"):
        plancraft.from_pddl_plan(examples[0], "", encoding="Grid")


def test_bad_examples_raise_value_errors():
    with pytest.raises(ValueError, match="not a Plancraft item"):
        plancraft.Env({"target": "no_such_item", "slotted_inventory": {}})
    with pytest.raises(ValueError, match="slot"):
        plancraft.run({"target": "stick", "slotted_inventory": {"0": {"type": "stick", "quantity": 1}}}, [])
    with pytest.raises(ValueError, match="is not one of"):
        plancraft.run({"target": "stick", "slotted_inventory": {}}, ["think: x"], handlers=["craft"])


def test_eval_gives_the_cli_document(tmp_path):
    fixtures = FIXTURES / "plancraft" / "eval"
    runs = [fixtures / "runs" / "alpha", (fixtures / "runs" / "beta.jsonl", "beta")]
    oracle = fixtures / "runs" / "oracle"
    document = plancraft.eval(runs, fixtures / "examples.json", oracle=oracle, bootstrap=200)
    shown = cli(
        "plancraft", "eval", "--format", "json", "--bootstrap", "200",
        "--examples", str(fixtures / "examples.json"), "--oracle", str(oracle),
        str(runs[0]), f"{runs[1][0]}:beta",
    )
    assert shown.returncode == 0, shown.stderr
    assert document == json.loads(shown.stdout)
    assert [m["method"] for m in document["methods"]] == ["alpha", "beta"]
    assert document["oracle"] == {"given": True, "examples": 4, "source": "run"}
    assert len(document["episodes"]) >= 5
    solved = plancraft.eval(runs, fixtures / "examples.json", oracle_from_solve=True, bootstrap=0)
    assert solved["oracle"]["source"] == "solve"
    with pytest.raises(ValueError):
        plancraft.eval(runs, fixtures / "examples.json", oracle=oracle, oracle_from_solve=True)


def test_eval_reports_an_unreadable_run_and_rejects_a_bad_split(tmp_path):
    fixtures = FIXTURES / "plancraft" / "eval"
    document = plancraft.eval([tmp_path / "missing.jsonl"], fixtures / "examples.json", bootstrap=0)
    assert [d["code"] for d in document["diagnostics"]] == ["P090"]
    with pytest.raises(ValueError):
        plancraft.eval([tmp_path], b"{not json", bootstrap=0)
    with pytest.raises(TypeError):
        plancraft.eval(str(tmp_path), fixtures / "examples.json")
