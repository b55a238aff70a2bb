"""One table of inputs (fixtures/surfaces/cases.json) through the binding and the CLI: both must
give the table's codes and verdict. tests/cli/surfaces.rs runs the same table through the
library and the CLI, so the three surfaces cannot drift apart."""

import json
from pathlib import Path

import pytest

import pddlc
from conftest import FIXTURES, REPO, cli, need_shared

TABLE = json.loads((FIXTURES / "surfaces" / "cases.json").read_text(encoding="utf-8"))["cases"]


def test_the_table_is_whole():
    # A truncated table would pass on fewer cases.
    assert len(TABLE) >= 12


def resolve(name: str) -> Path:
    if name.startswith("shared:"):
        rest = name[len("shared:"):]
        return need_shared(rest.split("/")[0]) / rest
    return REPO / name


def binding(command: str, paths):
    """The codes and verdict the binding gives. An unreadable path raises, as `open` does
    (docs/python.md): the table's `unreadable` verdict."""
    try:
        if command == "validate":
            report = pddlc.validate(*paths)
            verdict = {True: "valid", False: "invalid", None: "none"}[report.valid]
            return sorted(d.code for d in report.diagnostics), verdict
        if command == "solve":
            solution = pddlc.solve(*paths)
            return sorted(d.code for d in solution.diagnostics), solution.status or "none"
        if command == "check":
            report = pddlc.check(*paths)
            return sorted(d.code for d in report.diagnostics), "ok" if report.ok else "errors"
        if command == "score-functional":
            scores = pddlc.score(*paths, functional=True)
            return [], scores.functional["verdict"]
        if command == "kitchen-compile":
            compiled = pddlc.kitchen.compile(paths[0], paths[1])
            if isinstance(compiled, pddlc.Report):
                codes = sorted(d.code for d in compiled.diagnostics)
                return codes, "unsolvable" if "K410" in codes else "errors"
            return [], "compiled"
    except FileNotFoundError:
        return ["P090"], "unreadable"
    raise AssertionError(f"the table names an unknown command {command!r}")


def through_cli(command: str, paths):
    """The codes and verdict of the CLI's JSON, and its exit code."""
    shown = [str(p) for p in paths]
    if command == "kitchen-compile":
        args = ["kitchen", "compile", "--env", shown[0], "--goal", shown[1]]
    elif command == "score-functional":
        args = ["score", "--functional", *shown]
    else:
        args = [command, *shown]
    out = cli(*args, "--format", "json")
    document = json.loads(out.stdout)
    diagnostics = list(document.get("diagnostics") or [])
    for plan in document.get("plans") or []:
        diagnostics.extend(plan.get("diagnostics") or [])
    codes = sorted(d["code"] for d in diagnostics)
    if command == "validate":
        if "P090" in codes:
            verdict = "unreadable"
        else:
            plans = document.get("plans") or [{}]
            verdict = {True: "valid", False: "invalid", None: "none"}[plans[0].get("valid")]
    elif command == "solve":
        verdict = document.get("status") or "none"
    elif command == "check":
        verdict = "ok" if out.returncode == 0 else "errors"
    elif command == "score-functional":
        verdict = document["functional"]["verdict"]
    else:
        verdict = "unsolvable" if "K410" in codes else "compiled"
    return codes, verdict, out.returncode


@pytest.mark.parametrize("case", TABLE, ids=[c["name"] for c in TABLE])
def test_the_binding_and_the_cli_agree_with_the_table(case):
    paths = [resolve(name) for name in case["inputs"]]
    expected = (sorted(case["codes"]), case["verdict"])
    assert binding(case["command"], paths) == expected
    codes, verdict, exit_code = through_cli(case["command"], paths)
    assert (codes, verdict) == expected
    assert exit_code == case["exit"]


def test_solve_finds_a_plan_that_validates():
    blocks = REPO / "domains" / "blocksworld"
    solution = pddlc.solve(blocks / "domain.pddl", blocks / "problem.pddl")
    assert solution.status == "solved" and solution.plan
    assert solution.cost == len(solution.plan)
    report = pddlc.validate(blocks / "domain.pddl", blocks / "problem.pddl", solution.plan_text())
    assert report.valid is True
    row = solution.to_dict()
    assert row["status"] == "solved" and row["plan"] == solution.plan
    assert row["version"] == pddlc.JSON_VERSION
