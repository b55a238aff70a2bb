"""`pddlc.kitchen`: runs on the shipped salad kitchen, the K-code fixtures, `describe`, and
`compile`, whose PDDL checks clean and agrees with `pddlc kitchen compile`."""

import json
import re

import pytest

import pddlc
from conftest import FIXTURES, REPO, SALAD, cli, fixture_files, need_shared, read_text

ENV = SALAD / "env.json"


def test_the_safe_salad_plan_runs_without_failures():
    run = pddlc.kitchen.run(ENV, SALAD / "safe.txt")
    assert isinstance(run, pddlc.KitchenRun)
    assert (run.ok, run.steps, run.failures, run.diagnostics) == (True, 8, [], [])
    assert run.counts["any"] == 0
    assert run.final_state["agent"]["holding"] is None
    assert run.final_state["objects"]["lettuce_1"]["location"] == "cutting_board_1"
    assert run.to_dict()["plan"] == str(SALAD / "safe.txt")
    assert pddlc.kitchen.run(ENV, "").to_dict()["plan"] == "<plan>"
    assert pddlc.kitchen.run(read_text(ENV), read_text(SALAD / "safe.txt"), mode="strict").ok


FAILING_PLANS = [p for p in fixture_files("kitchen", "*.txt") if p.values[0].name[:4] in ("K404", "K405", "K406")]
# At least one plan per code; pytest would skip the test below on an empty list.
assert len(FAILING_PLANS) >= 3, FAILING_PLANS


@pytest.mark.parametrize("path", FAILING_PLANS)
def test_failing_plans_report_their_code_on_the_step(path):
    run = pddlc.kitchen.run(ENV, path)
    assert not run.ok
    assert run.diagnostics[0].code == path.name[:4]
    assert len(run.failures) == len(run.diagnostics)
    # Typed failures, each its record in the JSON row, field for field.
    rows = run.to_dict()["failures"]
    assert [f.to_dict() for f in run.failures] == rows
    for failure, row in zip(run.failures, rows):
        assert isinstance(failure, pddlc.KitchenFailure)
        assert (failure.step, failure.type, failure.action, failure.reason, failure.severity, failure.reversible) == (
            row["step"], row["failure_type"], row["action"], row["reason"], row["severity"], row["reversible"]
        )
        assert str(failure) in cli("kitchen", "run", "--env", str(ENV), str(path)).stdout
    code_of = {"syntax": "K404", "immediate": "K405", "latent": "K406"}
    assert [code_of[f.type] for f in run.failures] == [d.code for d in run.diagnostics]
    assert path.name[:4] in run.render("gcc")


def test_a_plan_without_steps_is_k403():
    run = pddlc.kitchen.run(ENV, FIXTURES / "kitchen" / "K403_prose_only.txt")
    assert [d.code for d in run.diagnostics] == ["K403"]


def test_a_malformed_environment_is_a_report():
    report = pddlc.kitchen.run(FIXTURES / "kitchen" / "K402_object_without_class.json", "")
    assert isinstance(report, pddlc.Report)
    assert [d.code for d in report.errors] == ["K402"]
    assert isinstance(pddlc.kitchen.describe("{"), pddlc.Report)
    assert isinstance(pddlc.kitchen.compile(b"\xff"), pddlc.Report)


def test_a_malformed_goal_is_a_report():
    report = pddlc.kitchen.compile(ENV, FIXTURES / "kitchen" / "K407_misspelled_ingredient.toml")
    assert isinstance(report, pddlc.Report)
    assert "K407" in [d.code for d in report.errors]


@pytest.mark.parametrize("task", ["018", "023"])
def test_a_goal_marked_unsolvable_is_k410_as_in_the_cli(task):
    # The goal files say why no plan reaches these tasks: Python reports it as the CLI does,
    # at the reason in the goal file, and compiles no problem.
    goal = REPO / "domains" / "kitchen" / "tasks" / f"{task}.toml"
    report = pddlc.kitchen.compile(ENV, goal, "planning")
    assert isinstance(report, pddlc.Report)
    assert [d.code for d in report.diagnostics] == ["K410"]
    assert f"task `{task}` cannot be solved in this world" in report.diagnostics[0].message
    args = ["--env", str(ENV), "--goal", str(goal), "--task", task, "--for", "planning"]
    shown = json.loads(cli("kitchen", "compile", *args, "--format", "json").stdout)
    assert report.to_dict()["diagnostics"] == shown["diagnostics"]


def test_describe_is_the_cli_describe():
    assert pddlc.kitchen.describe() == cli("kitchen", "describe").stdout
    assert pddlc.kitchen.describe(ENV) == cli("kitchen", "describe", "--env", str(ENV)).stdout


@pytest.mark.parametrize("flavour", ["audit", "planning"])
def test_compile_is_the_cli_compile_and_checks_clean(flavour):
    goal = REPO / "domains" / "kitchen" / "tasks" / "000.toml"
    domain, problem = pddlc.kitchen.compile(ENV, goal, flavour, name="task-salad")
    printed = cli(
        "kitchen", "compile", "--env", str(ENV), "--goal", str(goal), "--task", "salad", "--for", flavour
    ).stdout
    assert f"{domain}\n{problem}\n" == printed
    # Task 000's goal names objects the salad kitchen lacks (rosemary oil): C-errors.
    assert not pddlc.check(domain, problem).ok
    domain, problem = pddlc.kitchen.compile(ENV, flavour=flavour)
    assert pddlc.check(domain, problem).ok


def test_misuse():
    with pytest.raises(ValueError, match='unknown mode `lenient`: use `simmer` or `strict`'):
        pddlc.kitchen.run(ENV, "", mode="lenient")
    with pytest.raises(ValueError, match='unknown flavour `fast`: use `audit` or `planning`'):
        pddlc.kitchen.compile(ENV, flavour="fast")
    with pytest.raises(ValueError, match="`name` must be a PDDL name"):
        pddlc.kitchen.compile(ENV, name="my task")
    with pytest.raises(TypeError, match="`env` must be PDDL text"):
        pddlc.kitchen.describe(3)


KITCHEN = REPO / "domains" / "kitchen"


def without_timings(row):
    """A `kitchen solve` row with its times left out: they differ from run to run."""
    statistics = {k: v for k, v in row["statistics"].items() if not k.endswith("_seconds")}
    return dict(row, statistics=statistics)


def test_tasks_are_the_shipped_environments():
    shipped = sorted(p.stem for p in (KITCHEN / "envs").glob("*.toml"))
    assert pddlc.kitchen.tasks() == shipped
    assert len(shipped) == 100


def test_a_built_in_task_is_its_environment_in_either_format():
    plan = SALAD / "safe.txt"
    by_task = pddlc.kitchen.run(task="008", plan=plan)
    by_file = pddlc.kitchen.run(KITCHEN / "envs" / "008.toml", plan)
    by_text = pddlc.kitchen.run(read_text(KITCHEN / "envs" / "008.toml"), plan)
    assert isinstance(by_task, pddlc.KitchenRun)
    assert by_task.to_dict() == by_file.to_dict() == by_text.to_dict()
    shown = json.loads(cli("kitchen", "run", "--task", "008", "--format", "json", str(plan)).stdout)
    row = dict(by_task.to_dict())
    row.pop("version")
    assert row == shown["plans"][0]


def test_describe_and_compile_of_a_built_in_task_are_the_clis():
    assert pddlc.kitchen.describe(task="001") == cli("kitchen", "describe", "--task", "001").stdout
    for flavour in ["audit", "planning"]:
        domain, problem = pddlc.kitchen.compile(task="001", flavour=flavour)
        printed = cli("kitchen", "compile", "--task", "001", "--for", flavour).stdout
        assert f"{domain}\n{problem}\n" == printed
    # A goal given replaces the built-in one; the name can be given too.
    _, problem = pddlc.kitchen.compile(task="001", goal=KITCHEN / "tasks" / "008.toml", name="p")
    assert "(problem p)" in problem and "ice_cream" in problem


def test_which_task_is_a_clear_value_error():
    with pytest.raises(ValueError, match="not both"):
        pddlc.kitchen.run(ENV, SALAD / "safe.txt", task="001")
    with pytest.raises(ValueError, match=r"give `task` \(a built-in task"):
        pddlc.kitchen.compile()
    with pytest.raises(ValueError, match=r"give `task` \(a built-in task"):
        pddlc.kitchen.solve()
    # The CLI's message names the range the same way.
    cli_message = cli("kitchen", "run", "--task", "999", str(SALAD / "safe.txt")).stderr
    range_ = re.search(r"\(the 100 built-in tasks are Simmer's, numbered 000 to \d+ with gaps\)", cli_message)
    assert range_, cli_message
    for call in [
        lambda: pddlc.kitchen.run(task="999", plan=""),
        lambda: pddlc.kitchen.describe(task="999"),
        lambda: pddlc.kitchen.compile(task="999"),
        lambda: pddlc.kitchen.solve(task="999"),
    ]:
        with pytest.raises(ValueError, match="no built-in kitchen task `999` " + re.escape(range_.group(0))):
            call()
    with pytest.raises(TypeError, match="`plan` is required"):
        pddlc.kitchen.run(task="001")
    with pytest.raises(ValueError, match="`goal` is needed"):
        pddlc.kitchen.solve(env=ENV)
    with pytest.raises(ValueError, match="`time_limit` must be a positive number"):
        pddlc.kitchen.solve(task="008", time_limit=0)


@pytest.mark.parametrize("task", ["008", "018", "023"])
def test_solve_is_the_cli_solve(task):
    solution = pddlc.kitchen.solve(task=task)
    assert isinstance(solution, pddlc.KitchenSolution)
    shown = json.loads(cli("kitchen", "solve", "--task", task, "--format", "json").stdout)
    assert without_timings(solution.to_dict()) == without_timings(shown["tasks"][0])
    assert solution.task == task
    if task == "008":
        assert (solution.status, solution.clean, solution.failures, solution.reason) == ("solved", True, [], None)
        assert len(solution.plan) == len(solution.pddl_plan) == 11
        assert any("[SERVE]" in step for step in solution.plan)
        # The plan runs clean in strict mode on its own.
        assert pddlc.kitchen.run(task=task, plan="\n".join(solution.plan), mode="strict").ok
    else:
        # The goal file says why no plan reaches the task: no search ran.
        assert (solution.status, solution.plan, solution.clean) == ("unsolvable", None, False)
        assert solution.reason.startswith("as its goal file says: ")
        assert solution.statistics["expanded"] == 0


def test_solve_an_environment_with_a_goal_names_the_task_after_the_file():
    solution = pddlc.kitchen.solve(env=KITCHEN / "envs" / "008.toml", goal=KITCHEN / "tasks" / "008.toml")
    assert without_timings(solution.to_dict()) == without_timings(pddlc.kitchen.solve(task="008").to_dict())
    report = pddlc.kitchen.solve(task="008", goal=FIXTURES / "kitchen" / "K407_misspelled_ingredient.toml")
    assert isinstance(report, pddlc.Report)
    assert "K407" in [d.code for d in report.errors]


def eval_both(runs, *args):
    """`kitchen.eval` and `pddlc kitchen eval --format json` on the same run folders."""
    given = [f"{r[0]}:{r[1]}" if isinstance(r, tuple) else str(r) for r in runs]
    shown = cli("kitchen", "eval", *given, "--format", "json", *args)
    assert shown.returncode in (0, 1, 2), shown.stderr
    options = dict(zip(args[::2], args[1::2]))
    ours = pddlc.kitchen.eval(runs, bootstrap=int(options.get("--bootstrap", 10000)))
    return ours, json.loads(shown.stdout)


def simmer_run(root):
    """A run laid out as Simmer's scripts lay one out: the salad example as tasks 001 and 002
    (each with its env_NNN.json), task 008 with the built-in environment, a result file, a
    file that is not a plan and a plan that cannot be read."""
    for task, plan in [("001", "safe.txt"), ("002", "unsafe.txt")]:
        folder = root / task
        folder.mkdir(parents=True)
        (folder / f"env_{task}.json").write_bytes(ENV.read_bytes())
        (folder / f"plan_{task}.txt").write_bytes((SALAD / plan).read_bytes())
        (folder / f"result_{task}.txt").write_text("# Task: x\n# Plan: p\n#\n# === Annotated Plan ===\n\n[GRAB] <a> (1)\n")
    builtin = root / "008"
    builtin.mkdir()
    (builtin / "1.txt").write_text("[OPEN] <cabinet> (1)\n[GRAB] <sugar> (1)\n")
    (builtin / "2.txt").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0")
    (builtin / "10.txt").symlink_to(builtin / "nowhere")
    return root


def test_eval_is_the_cli_eval_on_the_shipped_example(tmp_path):
    # The shipped example is a folder of plans without env_salad.json: a P090 for the task.
    ours, shown = eval_both([KITCHEN / "examples"], "--bootstrap", "200")
    assert ours == shown
    assert [d["code"] for d in ours["diagnostics"]] == ["P090"]
    run = simmer_run(tmp_path / "run")
    ours, shown = eval_both([(run, "before"), (run, "after")], "--bootstrap", "300")
    assert ours == shown
    assert len(ours["plans"]) == 2 * 4, ours["plans"]
    assert [t["task"] for t in ours["tasks"]] == ["001", "002", "008"] * 2
    assert len(ours["comparisons"]) == 1 and ours["comparisons"][0]["a"] == "before"
    codes = [d["code"] for d in ours["diagnostics"]]
    assert codes.count("K409") == 2 * 2, codes
    # A run folder given as a path alone is labelled with its name.
    assert pddlc.kitchen.eval([run], bootstrap=10)["methods"][0]["run"] == "run"


def test_eval_is_the_cli_eval_on_the_dev_plans():
    dev = need_shared("kitchen/plans/dev") / "kitchen" / "plans" / "dev"
    ours, shown = eval_both([dev], "--bootstrap", "1000")
    assert ours == shown
    assert len(ours["plans"]) >= 600
    assert len(ours["tasks"]) >= 50


def test_eval_misuse():
    with pytest.raises(ValueError, match="unknown mode `lenient`"):
        pddlc.kitchen.eval([KITCHEN / "examples"], mode="lenient")
    with pytest.raises(TypeError, match="a list of run folders, not one"):
        pddlc.kitchen.eval(str(KITCHEN / "examples"))
    with pytest.raises(TypeError, match=r"\(folder, label\)"):
        pddlc.kitchen.eval([(KITCHEN / "examples", 3)])
    with pytest.raises(ValueError, match="no run folder"):
        pddlc.kitchen.eval([])
