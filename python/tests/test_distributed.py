"""`pddlc.distributed` on a local Ray instance started by the test: the dev pairs scored in
shards (and a slice of them functionally), the dev run folders, Plancraft runs made from the
reference files and world-model items files evaluated in shards, give exactly what one process
gives. Without Ray installed the tests skip, except under CI, which
installs it (scripts/test.sh)."""

import json

import pytest

import pddlc
import pddlc.distributed as distributed
import pddlc.plancraft
import pddlc.worldmodel
from conftest import BLOCKS, FIXTURES, REPO, need_shared, under_ci
from test_score import dev_pairs


@pytest.fixture(scope="module")
def ray():
    try:
        import ray
    except ImportError:
        if under_ci():
            pytest.fail("Ray is not installed; under CI nothing may be skipped")
        pytest.skip("Ray is not installed (pip install ray); this test checked nothing")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_split_keeps_order_and_makes_no_empty_shard():
    assert distributed.split(range(7), 3) == [[0, 1, 2], [3, 4], [5, 6]]
    assert distributed.split([1, 2], 5) == [[1], [2]]
    assert distributed.split([], 4) == []
    with pytest.raises(ValueError):
        distributed.split([1], 0)


def test_the_dev_pairs_scored_in_shards_equal_one_process(ray):
    root = need_shared("text2world/pairs/dev", "text2world/domains")
    _, pairs = dev_pairs(root)
    assert len(pairs) >= 1200
    one = [s.to_dict() for s in pddlc.score_many(pairs, mode="text2world")]
    sharded = distributed.score_many(pairs, shards=7, mode="text2world")
    assert len(sharded) == len(one)
    assert sharded == one


def test_functional_scoring_in_shards_equals_one_process(ray):
    root = need_shared("text2world/pairs/dev", "text2world/domains")
    _, pairs = dev_pairs(root)
    some = pairs[:120]
    one = [s.to_dict() for s in pddlc.score_many(some, functional=True)]
    sharded = distributed.score_many(some, shards=5, functional=True)
    assert sum(1 for row in one if row.get("functional")) >= 60
    assert sharded == one


def test_the_dev_run_folders_evaluated_in_shards_equal_one_process(ray):
    root = need_shared("kitchen/plans/dev")
    dev = root / "kitchen" / "plans" / "dev"
    planner = REPO / "domains" / "kitchen" / "examples" / "runs" / "planner"
    runs = [(str(dev), "a"), (str(planner), "planner"), (str(dev), "b")]
    one = pddlc.kitchen.eval(runs, bootstrap=0)
    sharded = distributed.kitchen_rows(runs, shards=3)
    # Task 900 (the worked example) has no built-in environment: the other 604 plans and more.
    assert len(one["plans"]) >= 2 * 604
    assert sharded["plans"] == one["plans"]
    assert sharded["tasks"] == one["tasks"]
    key = lambda d: repr(sorted(d.items()))  # noqa: E731
    assert sorted(sharded["diagnostics"], key=key) == sorted(one["diagnostics"], key=key)


def test_threads_are_refused():
    with pytest.raises(TypeError):
        distributed.score_many([], threads=2)


def plancraft_runs(tmp_path):
    """Runs made from the real environment's reference files, as tests/common/plancraft_runs.rs
    makes them: each noisy policy of val-noisy.jsonl a method (a JSONL file of its sequences),
    the oracle's replays of val-oracle.jsonl a run folder of Plancraft's result files."""
    root = need_shared("plancraft/reference", "plancraft/data") / "plancraft"
    noisy = [json.loads(l) for l in (root / "reference" / "val-noisy.jsonl").read_text().splitlines() if l]
    assert len(noisy) >= 1000, len(noisy)
    by_policy = {}
    for sequence in noisy:
        by_policy.setdefault(sequence["policy"], []).append(json.dumps(sequence))
    runs = []
    for policy, lines in by_policy.items():
        path = tmp_path / f"{policy}.jsonl"
        path.write_text("\n".join(lines) + "\n")
        runs.append((str(path), policy))
    oracle = tmp_path / "oracle" / "0"
    oracle.mkdir(parents=True)
    replays = [json.loads(l) for l in (root / "reference" / "val-oracle.jsonl").read_text().splitlines() if l]
    assert len(replays) >= 570, len(replays)
    for line in replays:
        dialogue = []
        for action in line["actions"]:
            dialogue += [{"role": "user", "content": "observation"}, {"role": "assistant", "content": action}]
        record = {
            "success": line["evaluator"]["success"],
            "recipe_type": line["recipe_type"],
            "complexity": line["complexity_split"],
            "number_of_steps": line["evaluator"]["number_of_steps"],
            "model_trace": {"dialogue_history": dialogue},
            "example_id": line["id"],
        }
        (oracle / f"{line['id']}.json").write_text(json.dumps(record))
    return root / "data" / "val.json", runs, str(tmp_path / "oracle")


def test_the_plancraft_episodes_evaluated_in_shards_equal_one_process(ray, tmp_path):
    examples, runs, oracle = plancraft_runs(tmp_path)
    runs = runs + [(oracle, "oracle")]
    one = pddlc.plancraft.eval(runs, examples, oracle=oracle, bootstrap=0)
    sharded = distributed.plancraft_episodes(runs, examples, oracle=oracle, shards=3)
    assert len(one["episodes"]) >= 1000 + 570
    assert sharded["episodes"] == one["episodes"]
    key = lambda d: repr(sorted(d.items()))  # noqa: E731
    assert sorted(sharded["diagnostics"], key=key) == sorted(one["diagnostics"], key=key)


def worldmodel_pairs():
    """The scoring fixture's items and predictions, and items made on the blocks world with
    three seeds, answered by a scripted model: every verification "yes", every next state the
    true change for even positions, nothing else."""
    score = FIXTURES / "worldmodel" / "score"
    pairs = [(score / "items.jsonl", score / "predictions.jsonl")]
    for seed in (1, 2, 3):
        items = pddlc.worldmodel.make(BLOCKS / "domain.pddl", BLOCKS / "problem.pddl", seed=seed)
        answers = []
        for n, item in enumerate(items):
            if item["kind"] == "verification":
                answers.append({"id": item["id"], "answer": "yes"})
            elif item["kind"] == "next_state" and n % 2 == 0:
                change = item["change"]
                answers.append({"id": item["id"], "added": change["added"], "deleted": change["deleted"]})
        pairs.append((items, answers))
    return pairs


def test_the_worldmodel_scores_in_shards_equal_one_process(ray):
    pairs = worldmodel_pairs()
    one = [pddlc.worldmodel.score(items, answers, bootstrap=200) for items, answers in pairs]
    sharded = distributed.worldmodel_scores(pairs, shards=3, bootstrap=200)
    assert len(sharded) == len(one) == 4
    assert sum(len(document["items"]) for document in one) >= 40
    assert [d.code for d in sharded[0]["report"].diagnostics] == ["W802", "W804", "W804"]
    for a, b in zip(sharded, one):
        # The reports crossed the process boundary pickled.
        assert a.pop("report").to_dict() == b.pop("report").to_dict()
        assert a == b
    with pytest.raises(ValueError):
        distributed.worldmodel_scores([(pairs[0][0],)])
