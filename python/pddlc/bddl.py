"""BDDL (the BEHAVIOR Domain Definition Language) and ActPlan-1K's plan metric.

``check`` and ``format`` read BDDL activity definitions as ``pddlc check`` and ``pddlc fmt``
read ``.bddl`` files; ``compare`` is ActPlan-1K's LCS plan metric, with a step relation of
your choice (``"exact"``, ``"normalised"``, or any callable, such as a sentence-embedding
cosine). docs/bddl.md describes each.

>>> report = check(open("fixtures/bddl/check/B715_unbound_category.bddl").read())  # doctest: +SKIP
>>> compare("grab(cookie)\\n", "grab(cookie)\\n")["score"]
1.0
"""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, Iterable, Optional, Tuple, Union

from ._pddlc import BddlGoal, Report, bddl_check, bddl_compare, bddl_format, bddl_parse

Text = Union[str, bytes, "os.PathLike[str]"]
Similarity = Callable[[str, str], Union[bool, float]]

__all__ = ["BddlGoal", "Goal", "check", "compare", "format", "goal", "parse"]

Goal = BddlGoal


def check(problem: Text, domain: Optional[Text] = None, hierarchy: Optional[str] = None) -> Report:
    """Checks a BDDL problem (or domain) as ``pddlc check`` checks a ``.bddl`` file.

    The problem is checked against ``domain`` (a BDDL domain) when given, else the shipped
    iGibson domain for ``igibson`` problems; its synsets against ``hierarchy`` (the text of a
    bddl ``hierarchy_*.json``) when given, else the shipped BEHAVIOR-100 taxonomy. What could
    not be checked is said in ``report.note``.
    """
    return bddl_check(problem, domain, hierarchy)


def format(text: Text, *, width: int = 80) -> Union[str, Report]:
    """BDDL text printed canonically, comments kept; a ``Report`` when it has syntax errors."""
    return bddl_format(text, width=width)


def compare(
    gold: Optional[str],
    predicted: str,
    *,
    mode: str = "default",
    match: Union[str, Similarity] = "exact",
    threshold: float = 0.8,
) -> Dict[str, Any]:
    """ActPlan-1K's plan metric: the LCS of the two plans' steps over the longer plan.

    ``match`` is ``"exact"``, ``"normalised"``, or a callable ``similarity(gold_step,
    predicted_step)`` returning a bool, or a number that matches when at least ``threshold``
    (the paper used MiniLM's cosine at 0.8). Each distinct pair of steps is asked once.
    ``mode="compat"`` reproduces the reference script's quirks (docs/bddl.md).
    """
    return bddl_compare(gold, predicted, mode=mode, match=match, threshold=threshold)


def parse(text: Text) -> Tuple[Optional[Dict[str, Any]], Report]:
    """The BDDL tree as dicts (``None`` when none could be built) and the parse's report."""
    return bddl_parse(text)


def goal(
    problem: Text,
    atoms: Iterable[str],
    *,
    pairs: str = "reference",
    forn: str = "exactly",
) -> Dict[str, Any]:
    """The verdict of ``pddlc bddl goal --format json`` on the state where exactly ``atoms``
    (``"(pred a b)"``) are true: ``satisfied`` and ``conjuncts`` (``None`` and ``[]`` when
    bddl could not load the goal) and ``diagnostics``. For many states, compile once with
    ``Goal(problem)`` and call its ``evaluate``."""
    compiled = BddlGoal(problem, pairs=pairs, forn=forn)
    verdict = compiled.evaluate(list(atoms)) if compiled.ok else {"satisfied": None, "conjuncts": []}
    return {**verdict, "diagnostics": compiled.report.to_dict()["diagnostics"]}
