"""The Simmer kitchen world shipped with pddlc: run plans in it, describe it, compile it to PDDL,
solve its tasks.

The world is the one in ``domains/kitchen/`` (77 actions, 262 object classes), compiled into
the extension, with Simmer's 100 tasks: ``task="001"`` names a built-in task (its environment
and its goal; :func:`tasks` lists them). ``env`` is a task environment instead, in Simmer's
format (``env_NNN.json``) or ours (``domains/kitchen/envs/NNN.toml``), as text, bytes or a
path. docs/kitchen.md describes the model, the two executor modes and the two flavours.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from ._pddlc import (
    KitchenFailure,
    KitchenRun,
    KitchenSolution,
    Report,
    kitchen_compile,
    kitchen_describe,
    kitchen_eval,
    kitchen_run,
    kitchen_solve,
    kitchen_tasks,
)

Text = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
Folder = Union[str, "os.PathLike[str]"]

__all__ = [
    "KitchenFailure",
    "KitchenRun",
    "KitchenSolution",
    "compile",
    "describe",
    "eval",
    "run",
    "solve",
    "tasks",
]


def run(
    env: Optional[Text] = None,
    plan: Optional[Text] = None,
    mode: str = "simmer",
    *,
    task: Optional[str] = None,
) -> Union[KitchenRun, Report]:
    """Run a Simmer plan in a task environment and audit the end state.

    Give exactly one of ``task`` (a built-in task, ``"001"``) and ``env`` (an environment).
    ``plan`` has one step a line, ``[PUT_ON] <lettuce> (1) <cutting_board> (1)``.
    ``mode="simmer"`` reproduces Simmer's executor exactly, quirks included; ``"strict"``
    fixes the quirks. Returns a :class:`KitchenRun` (failures as :class:`KitchenFailure`,
    counts, final state, one diagnostic per failure), or a :class:`Report` when the environment or the plan cannot be
    read (``K402``, ``P007``). An unknown ``mode`` or ``task``, or both or neither of ``task``
    and ``env``, raises ``ValueError``.
    """
    return kitchen_run(env, plan, mode, task)


def describe(env: Optional[Text] = None, *, task: Optional[str] = None) -> Union[str, Report]:
    """The world, and given ``env`` or ``task`` the task's objects, as text for an LLM prompt.

    A built-in ``task`` adds its title, as ``pddlc kitchen describe --task NNN`` does. Returns a
    :class:`Report` when the environment cannot be read; ``ValueError`` for an unknown task or
    for both ``task`` and ``env``.
    """
    return kitchen_describe(env, task)


def compile(
    env: Optional[Text] = None,
    goal: Optional[Text] = None,
    flavour: str = "audit",
    *,
    name: Optional[str] = None,
    plan: Optional[Text] = None,
    task: Optional[str] = None,
) -> Union[Tuple[str, str], Report]:
    """Compile the world and a task environment to PDDL: ``(domain_text, problem_text)``.

    Give exactly one of ``task`` (a built-in task: its environment, and its goal unless
    ``goal`` is given) and ``env``. ``goal`` is a task goal in TOML (the format of
    ``domains/kitchen/tasks/NNN.toml``), or None for the end-of-plan audits alone.
    ``flavour="audit"`` follows the executor exactly (a plan validated with
    ``keep_going=True`` fails as :func:`run` says); ``"planning"`` closes the gaps a planner
    would exploit. ``name`` is the problem's (default ``task-NNN`` for a built-in task, as
    ``pddlc kitchen compile`` names it, else ``task``). ``plan``, a Simmer plan, declares the
    objects it creates and the ids it names that do not exist. Returns a :class:`Report` when
    an input cannot be used (``K402``, ``K407``), or when the goal says why no plan can reach
    the task (``K410``, as ``pddlc kitchen compile`` reports).
    """
    return kitchen_compile(env, goal, flavour, name, plan, task)


def solve(
    task: Optional[str] = None,
    env: Optional[Text] = None,
    goal: Optional[Text] = None,
    time_limit: float = 60.0,
) -> Union[KitchenSolution, Report]:
    """Solve a task as ``pddlc kitchen solve`` does: compile the planning flavour, plan with
    the built-in planner, translate the plan to Simmer's format and run it in strict mode.

    Give exactly one of ``task`` (a built-in task: its environment, and its goal unless
    ``goal`` is given) and ``env``, which needs ``goal``. A goal that says why no plan reaches
    the task (``unsolvable = "…"``) gives status ``"unsolvable"`` with that reason, without a
    search. ``time_limit`` is in seconds (wall time). Returns a :class:`KitchenSolution`
    (``status``, ``plan`` in Simmer's format, ``pddl_plan``, ``clean``, strict mode's
    ``failures`` as :class:`KitchenFailure`, ``reason``; ``to_dict()`` is the task's row of ``pddlc kitchen solve --format json``), or a
    :class:`Report` when an input cannot be used or the planner refuses the task.
    """
    return kitchen_solve(task, env, goal, time_limit)


def tasks() -> List[str]:
    """The numbers of the tasks built into pddlc (Simmer's), sorted: ``["000", "001", …]``."""
    return kitchen_tasks()


def eval(
    runs: Iterable[Union[Folder, Tuple[Folder, str]]],
    mode: str = "simmer",
    bootstrap: int = 10000,
    seed: int = 42,
) -> Dict[str, Any]:
    """Evaluate run folders as ``pddlc kitchen eval --format json`` does; the same document.

    ``runs`` is a list of run folders, each ``RUN/NNN/`` holding task NNN's plans
    (``plan_NNN.txt``, or any ``*.txt``) and, as Simmer lays runs out, ``env_NNN.json`` (else
    the built-in task's environment); a ``(folder, label)`` pair labels a run (the folder's
    name by default). The document holds every plan's verdict (``plans``), the per-task
    metrics (``tasks``), the paper's per-method table with ``bootstrap`` resamples per
    interval (``methods``), paired comparisons between runs (``comparisons``) and the
    diagnostics about the inputs; ``seed`` seeds the resampling. An unknown ``mode`` raises
    ``ValueError``.
    """
    return kitchen_eval(runs, mode, bootstrap, seed)
