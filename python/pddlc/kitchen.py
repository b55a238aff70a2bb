"""The Simmer kitchen world shipped with pddlc: run plans in it, describe it, compile it to PDDL.

The world is the one in ``domains/kitchen/`` (77 actions, 262 object classes), compiled into
the extension; ``env`` is a task environment in Simmer's format (``env_NNN.json``), as text or
a path. docs/kitchen.md describes the model, the two executor modes and the two flavours.
"""

from __future__ import annotations

import os
from typing import Optional, Tuple, Union

from ._pddlc import KitchenRun, Report, kitchen_compile, kitchen_describe, kitchen_run

Text = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

__all__ = ["KitchenRun", "compile", "describe", "run"]


def run(env: Text, plan: Text, mode: str = "simmer") -> Union[KitchenRun, Report]:
    """Run a Simmer plan in a task environment and audit the end state.

    ``plan`` has one step a line, ``[PUT_ON] <lettuce> (1) <cutting_board> (1)``.
    ``mode="simmer"`` reproduces Simmer's executor exactly, quirks included; ``"strict"``
    fixes the quirks. Returns a :class:`KitchenRun` (failures, counts, final state, one
    diagnostic per failure), or a :class:`Report` when the environment or the plan cannot be
    read (``K402``, ``P007``). An unknown ``mode`` raises ``ValueError``.
    """
    return kitchen_run(env, plan, mode)


def describe(env: Optional[Text] = None) -> Union[str, Report]:
    """The world, and given ``env`` the task's objects, as text for an LLM prompt.

    Returns a :class:`Report` when the environment cannot be read.
    """
    return kitchen_describe(env)


def compile(
    env: Text,
    goal: Optional[Text] = None,
    flavour: str = "audit",
    *,
    name: str = "task",
    plan: Optional[Text] = None,
) -> Union[Tuple[str, str], Report]:
    """Compile the world and a task environment to PDDL: ``(domain_text, problem_text)``.

    ``goal`` is a task goal in TOML (the format of ``domains/kitchen/tasks/NNN.toml``), or
    None for the end-of-plan audits alone. ``flavour="audit"`` follows the executor exactly
    (a plan validated with ``keep_going=True`` fails as :func:`run` says); ``"planning"``
    closes the gaps a planner would exploit. ``name`` is the problem's name. ``plan``, a
    Simmer plan, declares the objects it creates and the ids it names that do not exist.
    Returns a :class:`Report` when an input cannot be used (``K402``, ``K407``), or when the
    goal says why no plan can reach the task (``K410``, as ``pddlc kitchen compile`` reports).
    """
    return kitchen_compile(env, goal, flavour, name, plan)
