"""`pddlc.distributed` on a local Ray instance started by the test: the dev pairs scored in
shards (and a slice of them functionally), and the dev run folders evaluated in shards, give
exactly what one process gives. Without Ray installed the tests skip, except under CI, which
installs it (scripts/test.sh)."""

import pytest

import pddlc
import pddlc.distributed as distributed
from conftest import REPO, need_shared, under_ci
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
