"""Scale-out on Ray: ``score_many`` (functional scoring included), the per-plan and per-task
rows of ``kitchen.eval``, the episodes of ``plancraft.eval`` and ``worldmodel.score`` over many
items files, split into shards that Ray runs as tasks, the shards' results merged in
order into exactly what one process gives. docs/distributed.md is the recipe, with the sizes at
which it pays.

Ray is not a dependency of pddlc: it is imported when one of these functions runs, and
``ray.init()`` (a local instance or ``ray.init(address=...)`` for a cluster) is the caller's.
What travels to the workers is plain Python: pairs (tuples or dicts of ``str``, ``bytes`` or
paths), run folders (paths), episodes and items (dicts), so paths must name files the workers
can read (one machine, or a shared file system); what comes back are the rows of the CLI's JSON
(``dict``). pddlc's own objects (``Domain``, ``Problem``, ``Report``, ``Diagnostic``, ``Label``,
``Scores``) pickle too, for a recipe of one's own.

>>> import ray, pddlc.distributed
>>> ray.init(num_cpus=2)                                             # doctest: +SKIP
>>> rows = pddlc.distributed.score_many(pairs, shards=8)             # doctest: +SKIP
"""

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, TypeVar

T = TypeVar("T")


def split(items: Sequence[T], count: int) -> List[List[T]]:
    """``items`` in ``count`` contiguous shards, in order, as even as can be; never an empty
    shard (fewer shards than ``count`` when there are fewer items)."""
    if count < 1:
        raise ValueError(f"`count` must be at least 1, not {count}")
    items = list(items)
    count = min(count, len(items)) or 1
    size, extra = divmod(len(items), count)
    out, start = [], 0
    for i in range(count):
        end = start + size + (1 if i < extra else 0)
        out.append(items[start:end])
        start = end
    return [shard for shard in out if shard]


def _ray():
    try:
        import ray
    except ImportError as error:
        raise ImportError("pddlc.distributed needs Ray: pip install ray") from error
    if not ray.is_initialized():
        raise RuntimeError("call ray.init() first (a local instance, or address= for a cluster)")
    return ray


def _cluster_cpus(ray) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _score_shard(pairs: List[Any], options: Dict[str, Any]) -> List[Dict[str, Any]]:
    import pddlc

    return [scores.to_dict() for scores in pddlc.score_many(pairs, threads=1, **options)]


def score_many(
    pairs: Iterable[Any], *, shards: Optional[int] = None, **options: Any
) -> List[Dict[str, Any]]:
    """``pddlc.score_many(pairs, **options)`` over Ray: the pairs in ``shards`` shards (by
    default four per CPU of the cluster), each scored by a Ray task on one thread; the rows
    (``Scores.to_dict()``, the ``pddlc score --format json`` row) in the order of ``pairs``,
    the same as ``[s.to_dict() for s in pddlc.score_many(pairs, **options)]``. ``options``
    are ``score_many``'s (``mode``, ``response``, ``functional``, ``time_limit``,
    ``no_sample``), but ``threads``: each task uses one."""
    if "threads" in options:
        raise TypeError("a Ray task scores on one thread: give `shards`, not `threads`")
    ray = _ray()
    pairs = list(pairs)
    if not pairs:
        return []
    count = shards if shards is not None else 4 * _cluster_cpus(ray)
    task = ray.remote(_score_shard)
    refs = [task.remote(shard, options) for shard in split(pairs, count)]
    return [row for part in ray.get(refs) for row in part]


def _kitchen_shard(runs: List[Any], mode: str) -> Dict[str, Any]:
    import pddlc.kitchen

    document = pddlc.kitchen.eval(runs, mode=mode, bootstrap=0)
    return {key: document[key] for key in ("plans", "tasks", "diagnostics")}


def kitchen_rows(
    runs: Iterable[Any], *, mode: str = "simmer", shards: Optional[int] = None
) -> Dict[str, List[Dict[str, Any]]]:
    """The ``plans`` and ``tasks`` rows of ``pddlc.kitchen.eval(runs, mode=mode)`` over Ray:
    the run folders (paths, or ``(path, label)`` pairs) in shards, each evaluated by a Ray task;
    the rows in the order of ``runs``, the same as one process's. ``diagnostics`` holds every
    shard's, shard after shard (one process lists every run before running any task, so its
    order differs; the diagnostics are the same). The per-method table and the comparisons
    are not merged: their bootstrap draws from one generator over every run, so they are
    computed in one process (``pddlc.kitchen.eval``), which runs about ten thousand plans a
    second a core."""
    ray = _ray()
    runs = list(runs)
    if not runs:
        return {"plans": [], "tasks": [], "diagnostics": []}
    count = shards if shards is not None else _cluster_cpus(ray)
    task = ray.remote(_kitchen_shard)
    parts = ray.get([task.remote(shard, mode) for shard in split(runs, count)])
    keys = ("plans", "tasks", "diagnostics")
    return {key: [row for part in parts for row in part[key]] for key in keys}


def _plancraft_shard(
    runs: List[Any], examples: Any, oracle: Any, oracle_from_solve: bool
) -> Dict[str, Any]:
    import pddlc.plancraft

    document = pddlc.plancraft.eval(
        runs, examples, oracle=oracle, bootstrap=0, oracle_from_solve=oracle_from_solve
    )
    return {key: document[key] for key in ("episodes", "diagnostics")}


def plancraft_episodes(
    runs: Iterable[Any],
    examples: Any,
    *,
    oracle: Any = None,
    oracle_from_solve: bool = False,
    shards: Optional[int] = None,
) -> Dict[str, List[Dict[str, Any]]]:
    """The ``episodes`` rows of ``pddlc.plancraft.eval(runs, examples, oracle=...)`` over Ray:
    the runs (folders or ``.jsonl`` files, or ``(run, label)`` pairs) in shards, each evaluated
    by a Ray task with the same split and oracle; the rows in the order of ``runs``, the same as
    one process's, and ``diagnostics``, every shard's, shard after shard. ``examples`` travels
    to every task: give the split's path (a ``pathlib.Path``, which workers must read) or its JSON
    text. The per-method table and the comparisons draw from one bootstrap generator over every
    method, so they are computed in one process (``pddlc.plancraft.eval``)."""
    ray = _ray()
    runs = list(runs)
    if not runs:
        return {"episodes": [], "diagnostics": []}
    count = shards if shards is not None else _cluster_cpus(ray)
    task = ray.remote(_plancraft_shard)
    parts = ray.get(
        [task.remote(shard, examples, oracle, oracle_from_solve) for shard in split(runs, count)]
    )
    keys = ("episodes", "diagnostics")
    return {key: [row for part in parts for row in part[key]] for key in keys}


def _worldmodel_shard(pairs: List[Any], options: Dict[str, Any]) -> List[Dict[str, Any]]:
    import pddlc.worldmodel

    return [pddlc.worldmodel.score(items, predictions, **options) for items, predictions in pairs]


def worldmodel_scores(
    pairs: Iterable[Tuple[Any, Any]], *, shards: Optional[int] = None, **options: Any
) -> List[Dict[str, Any]]:
    """``[pddlc.worldmodel.score(items, predictions, **options) for items, predictions in
    pairs]`` over Ray: each pair an items file (``worldmodel make``'s, one or more tasks) and
    the predictions for it, as ``score`` takes them (paths, JSON lines text, or lists of dicts);
    the pairs in ``shards`` shards (by default one per CPU), each scored by a Ray task; the
    documents in the order of ``pairs``, ``report`` included, each the same as one process's
    (every document draws from its own generator, seeded by ``seed``). ``options`` are
    ``score``'s (``tasks``, ``top_k``, ``bootstrap``, ``seed``). Paths, and the task records'
    paths, must name files the workers can read."""
    ray = _ray()
    pairs = [tuple(pair) for pair in pairs]
    if any(len(pair) != 2 for pair in pairs):
        raise ValueError("each pair is (items, predictions)")
    if not pairs:
        return []
    count = shards if shards is not None else _cluster_cpus(ray)
    task = ray.remote(_worldmodel_shard)
    parts = ray.get([task.remote(shard, options) for shard in split(pairs, count)])
    return [document for part in parts for document in part]
