"""Evaluation items for LLM world models, and a model's predictions scored against them.

``make`` is ``pddlc worldmodel make``: the items of a task around a reference plan (next state,
verification with mutated plans, proposal, planning), every label found by running the task;
the first item is the task's record. ``score`` is ``pddlc worldmodel score --format json``:
next-state exact and atom F1, verification accuracy with false positive and negative rates,
top-K proposal accuracy against three sets, planning success, per task and overall with
bootstrap intervals. docs/worldmodel.md describes the items, the fields a prediction is read
from, and how model output is read.

>>> items = make(pathlib.Path("domains/blocksworld/domain.pddl"),
...              pathlib.Path("domains/blocksworld/problem.pddl"))  # doctest: +SKIP
>>> scores = score(items, [{"id": "next-0", "added": [], "deleted": []}])  # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
import pathlib
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from ._pddlc import Report, worldmodel_make, worldmodel_score

Text = Union[str, bytes, "os.PathLike[str]"]
Records = Union[str, "os.PathLike[str]", Iterable[Mapping[str, Any]]]

__all__ = ["MakeError", "make", "score", "write_jsonl"]


class MakeError(ValueError):
    """No items could be made: ``args[1]`` (and ``.report``) is the Report that says why."""

    @property
    def report(self) -> Report:
        """The diagnostics that say why (``W801``: no reference plan)."""
        return self.args[1]


def make(
    domain: Text,
    problem: Text,
    plan: Optional[Text] = None,
    *,
    seed: int = 0,
    fractions: Sequence[float] = (0.25, 0.5, 0.75, 1.0),
    proposals: bool = True,
    search_time: float = 10.0,
) -> List[Dict[str, Any]]:
    """The items of ``domain`` and ``problem`` (text, bytes or paths) around ``plan`` (IPC plan
    text or path; without it, the built-in planner's), as dicts: first the task's record
    (``{"kind": "task", "task", "domain", "problem"}``), then one dict per item.

    A task that cannot be used raises ``pddlc.TaskError``; a plan that does not reach the goal,
    or no plan found, raises :class:`MakeError` (``W801``).
    """
    made = worldmodel_make(
        domain, problem, plan, seed, list(fractions), proposals, float(search_time)
    )
    if isinstance(made, Report):
        first = next((d for d in made.diagnostics if d.severity == "error"), None)
        why = f"{first.code}: {first.message}" if first else "no items were made"
        raise MakeError(f"no items were made: {why}", made)
    return [json.loads(line) for line in made.splitlines() if line.strip()]


def _lines(records: Records) -> Tuple[str, Optional[pathlib.Path]]:
    """JSON lines text, and the folder of the file it came from."""
    if isinstance(records, os.PathLike):
        path = pathlib.Path(records)
        return path.read_text(encoding="utf-8"), path.parent
    if isinstance(records, str):
        if "\n" not in records and records.strip() and os.path.exists(records):
            raise ValueError(
                f"{records!r} names a file but is not JSON lines: a str is read as JSON lines; "
                f"pass pathlib.Path({records!r}) to read the file"
            )
        return records, None
    return "".join(json.dumps(dict(r)) + "\n" for r in records), None


def score(
    items: Records,
    predictions: Records,
    *,
    tasks: Optional[Mapping[str, Tuple[Text, Text]]] = None,
    top_k: Sequence[int] = (1, 3, 5),
    bootstrap: int = 10_000,
    seed: int = 42,
) -> Dict[str, Any]:
    """Scores ``predictions`` against ``items``: each a list of dicts, JSON lines text (a
    ``str``), or a path to a JSON lines file.

    The tasks are those ``tasks`` maps names to (``{"reverse-three": (domain, problem)}``),
    else the items' task records (a relative path is looked up from the working directory, then
    from the items file's folder). Returns the document ``pddlc worldmodel score --format json``
    writes (``overall``, ``tasks``, ``items``) with ``report``, the Report of the items' and
    predictions' diagnostics (``W802``-``W804``). A task that cannot be loaded raises
    ``pddlc.TaskError``.
    """
    items_text, folder = _lines(items)
    predictions_text, _ = _lines(predictions)
    chosen: List[Tuple[str, Any, Any]] = []
    if tasks is not None:
        chosen = [(name, d, p) for name, (d, p) in tasks.items()]
    else:
        seen = set()
        for line in items_text.splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue  # W803, from the scorer
            if not isinstance(record, dict) or record.get("kind") != "task":
                continue
            name = record.get("task")
            if name in seen or not isinstance(name, str):
                continue
            seen.add(name)
            chosen.append(
                (name, _resolve(record.get("domain"), folder), _resolve(record.get("problem"), folder))
            )
    document, report = worldmodel_score(
        items_text, predictions_text, chosen, list(top_k), bootstrap, seed
    )
    scores = json.loads(document)
    scores["report"] = report
    return scores


def _resolve(written: Any, folder: Optional[pathlib.Path]) -> pathlib.Path:
    if not isinstance(written, str):
        raise ValueError("a task record names its domain and problem as paths")
    path = pathlib.Path(written)
    if not path.is_absolute() and not path.exists() and folder is not None:
        if (folder / path).exists():
            return folder / path
    return path


def write_jsonl(records: Iterable[Mapping[str, Any]], path: "os.PathLike[str]") -> None:
    """Writes dicts as JSON lines (the items ``make`` returns, or predictions), refusing to
    overwrite an existing file."""
    with open(path, "x", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(dict(record)) + "\n")
