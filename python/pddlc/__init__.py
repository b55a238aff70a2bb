"""pddlc for Python: PDDL parsing, checking, scoring, plan validation, the kitchen and Plancraft worlds,
in-process, from the Rust library behind the `pddlc` command.

Every function takes PDDL as text (``str``, or ``bytes`` read as UTF-8) or, as a convenience,
a path (``os.PathLike``). Bad input gives a :class:`Report` with diagnostics; misuse (a wrong
type, an unknown mode) raises ``TypeError`` or ``ValueError``. docs/python.md is the guide.

>>> import pddlc
>>> report = pddlc.check(open("domains/blocksworld/domain.pddl").read())
>>> report.ok
True
"""

from . import bddl, kitchen, plancraft, worldmodel
from . import _pddlc
from ._pddlc import (
    JSON_VERSION,
    Diagnostic,
    Domain,
    Env,
    EnvState,
    InternalError,
    KitchenFailure,
    KitchenRun,
    KitchenSolution,
    Label,
    PlanReport,
    Problem,
    Report,
    Scores,
    Solution,
    TaskError,
    __version__,
    applicable,
    check,
    format,
    parse,
    score,
    score_many,
    solve,
    validate,
)

__all__ = [
    "JSON_VERSION",
    "Diagnostic",
    "Domain",
    "Env",
    "EnvState",
    "InternalError",
    "KitchenFailure",
    "KitchenRun",
    "KitchenSolution",
    "Label",
    "PlanReport",
    "Problem",
    "Report",
    "Scores",
    "Solution",
    "TaskError",
    "__version__",
    "applicable",
    "check",
    "format",
    "kitchen",
    "parse",
    "bddl",
    "plancraft",
    "worldmodel",
    "score",
    "score_many",
    "solve",
    "validate",
]


def _restore(kind: str, state: str, id: object = None) -> object:
    """Rebuilds a pickled pddlc object: the target of their ``__reduce__``, a Python function so
    that pickle names it ``pddlc._restore``."""
    return _pddlc._restore(kind, state, id)
