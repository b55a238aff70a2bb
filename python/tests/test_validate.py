"""`pddlc.validate` and `pddlc.applicable`: the validate fixtures, the blocks world, agreement
with `pddlc validate --format json`, and tasks that cannot be used."""

import json

import pytest

import pddlc
from conftest import BLOCKS, REPO, cli, fixture_dirs, read_text


def task_files(d):
    """The fixture's own domain and problem, each falling back to the shipped blocks world's (as
    tests/validate_fixtures.rs reads them): a fixture may bring only its problem."""
    domain, problem = d / "domain.pddl", d / "problem.pddl"
    return (
        domain if domain.exists() else BLOCKS / "domain.pddl",
        problem if problem.exists() else BLOCKS / "problem.pddl",
    )


@pytest.mark.parametrize("d", fixture_dirs("validate"))
def test_validate_fixture_reports_its_code(d):
    domain, problem = task_files(d)
    report = pddlc.validate(domain, problem, d / "plan.txt")
    if d.name.startswith("valid_"):
        assert report.valid is True and report.ok
    else:
        code = d.name.split("_")[0]
        assert code in [x.code for x in report.diagnostics]
        assert report.valid is not True


@pytest.mark.parametrize("d", fixture_dirs("validate"))
def test_validate_agrees_with_the_cli_json(d, monkeypatch):
    monkeypatch.chdir(REPO)
    files = [str(p.relative_to(REPO)) for p in (*task_files(d), d / "plan.txt")]
    document = json.loads(cli("validate", "--format", "json", *files).stdout)
    [row] = document["plans"]
    ours = pddlc.validate(*[REPO / f for f in files]).to_dict()
    # Names differ (absolute paths here); everything else is the CLI's row.
    for diagnostic in row["diagnostics"] + ours["diagnostics"]:
        diagnostic.pop("file")
        for label in diagnostic["labels"]:
            label.pop("file")
    ours.pop("version")
    ours["plan"] = row["plan"]
    assert ours == row


def test_a_valid_blocks_world_plan():
    plan = "(unstack a b)\n(put-down a)\n(unstack b c)\n(stack b a)\n(pick-up c)\n(stack c b)\n"
    report = pddlc.validate(BLOCKS / "domain.pddl", BLOCKS / "problem.pddl", plan)
    assert (report.valid, report.ok, report.steps, report.metric) == (True, True, 6, 6.0)
    assert report.failures == [] and report.diagnostics == [] and report.failed_step is None


def test_an_invalid_step_is_located_with_its_unsatisfied_preconditions():
    plan = "(pick-up a)\n"
    report = pddlc.validate(BLOCKS / "domain.pddl", BLOCKS / "problem.pddl", plan)
    assert (report.valid, report.failed_step, report.steps) == (False, 1, 1)
    assert report.unsatisfied == ["(ontable a)"]
    [failure] = [f for f in report.failures if f["kind"] == "precondition"]
    assert failure["step"] == 1 and failure["code"] == "V306"
    d = [x for x in report.diagnostics if x.code == "V306"][0]
    assert (d.file, d.line) == ("<plan>", 1)
    assert "V306" in report.render("gcc")


def test_keep_going_reports_every_failure():
    plan = "(pick-up a)\n(pick-up a)\n"
    first = pddlc.validate(BLOCKS / "domain.pddl", BLOCKS / "problem.pddl", plan)
    every = pddlc.validate(BLOCKS / "domain.pddl", BLOCKS / "problem.pddl", plan, keep_going=True)
    assert len(every.failures) > len(first.failures)


def test_a_task_with_errors_is_not_validated():
    broken = read_text(BLOCKS / "domain.pddl").replace("(:predicates", "(:predicates (on ?x)", 1)
    report = pddlc.validate(broken, BLOCKS / "problem.pddl", "(pick-up a)")
    assert report.valid is None and report.steps == 0 and not report.ok
    assert report.diagnostics and all(d.severity == "error" for d in report.diagnostics)
    assert report.to_dict()["valid"] is None


def test_applicable_lists_ground_actions():
    assert pddlc.applicable(BLOCKS / "domain.pddl", BLOCKS / "problem.pddl") == ["(unstack a b)"]
    after = pddlc.applicable(BLOCKS / "domain.pddl", BLOCKS / "problem.pddl", "(unstack a b)\n")
    assert after == ["(put-down a)", "(stack a b)"]


def test_applicable_after_a_failing_prefix_is_its_report():
    result = pddlc.applicable(BLOCKS / "domain.pddl", BLOCKS / "problem.pddl", "(pick-up c)\n")
    assert isinstance(result, pddlc.PlanReport)
    assert result.valid is False and result.failed_step == 1


def test_misuse():
    with pytest.raises(TypeError, match="`plan` must be PDDL text"):
        pddlc.validate(BLOCKS / "domain.pddl", BLOCKS / "problem.pddl", 1)
    with pytest.raises(ValueError, match="tolerance"):
        pddlc.validate("", "", "", tolerance=-1.0)
