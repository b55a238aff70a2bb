"""Plancraft's crafting world shipped with pddlc: an environment for agent loops, whole runs
of messages, the solver (shortest recipe sequences, proofs of impossibility) and the PDDL
compilation.

The world (items, tags, recipes of gautierdag/plancraft @ 5ab294e) is compiled into the
extension. ``example`` is one record of Plancraft's dataset: a ``dict``, or JSON text, bytes
or a path, holding one record or a split (then name one with ``id``). docs/plancraft.md
describes the rules reproduced and the commands.

>>> env = Env(example)                       # doctest: +SKIP
>>> observation = env.reset()                # doctest: +SKIP
>>> observation, reward, done, info = env.step("move: from [I17] to [A1] with quantity 1")  # doctest: +SKIP
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from ._pddlc import (
    PlancraftEnv,
    plancraft_compile,
    plancraft_eval,
    plancraft_from_pddl_plan,
    plancraft_run,
    plancraft_solve,
)

Example = Union[Dict[str, Any], str, bytes, "os.PathLike[str]"]

Env = PlancraftEnv

__all__ = ["Env", "PlancraftEnv", "compile", "eval", "from_pddl_plan", "run", "solve"]


def run(
    example: Example,
    actions: Union[Sequence[str], str, bytes, "os.PathLike[str]"],
    id: Optional[str] = None,
    max_steps: int = 30,
    handlers: Optional[List[str]] = None,
) -> Dict[str, Any]:
    """Run an agent's messages (a list, or text with one a line) as Plancraft's evaluator does.

    Returns the document ``pddlc plancraft run --format json`` prints: per step its ``kind``,
    ``changed``, ``delta``, ``refused`` (why a move or smelt changed nothing) and
    ``inventory``; ``success``, ``stopped_by``, ``number_of_steps``. ``handlers`` lists the
    action handlers in the order they are tried (default: move, smelt, think, search,
    impossible). An unreadable example raises ``ValueError``.
    """
    return plancraft_run(example, actions, id, max_steps, handlers)


def solve(example: Example, id: Optional[str] = None, max_states: int = 200_000) -> Dict[str, Any]:
    """The fewest recipes that make the target, as messages replayed in the environment, or
    a proof that no sequence of recipes makes it; ``status`` is ``solved``, ``impossible`` or
    ``unknown`` (the search kept ``max_states`` states without an answer)."""
    return plancraft_solve(example, id, max_states)


def compile(example: Example, id: Optional[str] = None, encoding: str = "counts") -> Tuple[str, str]:
    """The example as classical PDDL: ``(domain, problem)``. ``encoding`` is ``counts`` (item
    counts, a recipe an action, a tag cell a ``pick``) or ``grid`` (the crafting grid cell by cell,
    the inventory as counts); another name raises ``ValueError``."""
    return plancraft_compile(example, id, encoding)


def from_pddl_plan(
    example: Example, plan: str, id: Optional[str] = None, encoding: str = "counts"
) -> Dict[str, Any]:
    """A plan for :func:`compile`'s task in ``encoding`` (IPC plan text) turned into messages
    and replayed; a document like :func:`solve`'s, ``solved`` when the replay succeeds."""
    return plancraft_from_pddl_plan(example, plan, id, encoding)


Run = Union[str, "os.PathLike[str]"]


def eval(
    runs: Iterable[Union[Run, Tuple[Run, str]]],
    examples: Union[List[Dict[str, Any]], str, bytes, "os.PathLike[str]"],
    oracle: Optional[Union[Run, Tuple[Run, str]]] = None,
    bootstrap: int = 10000,
    seed: int = 42,
    oracle_from_solve: bool = False,
) -> Dict[str, Any]:
    """Evaluate methods' runs as ``pddlc plancraft eval --format json`` does; the same document.

    ``runs`` lists runs: a folder (every ``*.json`` below it is an episode, as Plancraft writes
    ``outputs/<run>/<split>/<generation>/<id>.json``; generations are pooled) or a ``.jsonl``
    file of episodes; a ``(run, label)`` pair labels one. ``examples`` is the split the runs
    were made on (a path such as ``val.json``, its JSON text, or a list of records);
    ``oracle`` the oracle's run, whose counts give action efficiency and the steps table;
    ``oracle_from_solve=True`` takes them from :func:`solve` instead.
    The document holds every episode (``episodes``), the paper's per-method table with
    ``bootstrap`` resamples per interval (``methods``), paired comparisons (``comparisons``)
    and the diagnostics about the inputs (an unreadable run is a diagnostic, not an error).
    An unreadable split raises ``ValueError``.
    """
    return plancraft_eval(runs, examples, oracle, bootstrap, seed, oracle_from_solve)
