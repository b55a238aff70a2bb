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
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ._pddlc import (
    PlancraftEnv,
    plancraft_compile,
    plancraft_from_pddl_plan,
    plancraft_run,
    plancraft_solve,
)

Example = Union[Dict[str, Any], str, bytes, "os.PathLike[str]"]

Env = PlancraftEnv

__all__ = ["Env", "PlancraftEnv", "compile", "from_pddl_plan", "run", "solve"]


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
    counts, an action per way to apply a recipe) or ``grid`` (the crafting grid cell by cell,
    the inventory as counts); another name raises ``ValueError``."""
    return plancraft_compile(example, id, encoding)


def from_pddl_plan(
    example: Example, plan: str, id: Optional[str] = None, encoding: str = "counts"
) -> Dict[str, Any]:
    """A plan for :func:`compile`'s task in ``encoding`` (IPC plan text) turned into messages
    and replayed; a document like :func:`solve`'s, ``solved`` when the replay succeeds."""
    return plancraft_from_pddl_plan(example, plan, id, encoding)
