"""`pddlc.check`: the fixtures' expected diagnostics, agreement with `pddlc check` in every
format, the tarski profile, inputs as str, bytes and paths, and misuse."""

import json
from pathlib import Path

import pytest

import pddlc
from conftest import BLOCKS, FIXTURES, REPO, cli, fixture_dirs, fixture_files, read_text


def check_dir(d: Path) -> pddlc.Report:
    problem = d / "problem.pddl"
    return pddlc.check(d / "domain.pddl", problem if problem.exists() else None)


@pytest.mark.parametrize("d", fixture_dirs("check"))
def test_check_fixture_reports_its_expected_diagnostics(d):
    report = check_dir(d)
    found = [f"{x.code} {Path(x.file).name}:{x.line}:{x.column}" for x in report.diagnostics]
    expected = [l.strip() for l in read_text(d / "expected.txt").splitlines() if l.strip()]
    assert found == expected
    if d.name.startswith("clean_"):
        assert report.ok and report.diagnostics == []
    else:
        code = d.name.split("_")[0]
        assert code in [x.code for x in report.diagnostics]


def cli_inputs(d: Path):
    if d.is_file():
        return [str(d.relative_to(REPO))]
    files = [d / "domain.pddl"]
    if (d / "problem.pddl").exists():
        files.append(d / "problem.pddl")
    return [str(f.relative_to(REPO)) for f in files]


@pytest.mark.parametrize("d", fixture_dirs("check") + fixture_files("parse"))
def test_check_renders_as_the_cli_in_every_format(d, monkeypatch):
    # Relative paths, given to both, so that the inputs are named alike.
    monkeypatch.chdir(REPO)
    files = cli_inputs(d)
    report = pddlc.check(*[Path(f) for f in files])
    for fmt in ("gcc", "val"):
        assert report.render(fmt) == cli("check", "--format", fmt, *files).stdout
    human = cli("check", "--format", "human", "--color", "never", *files).stdout
    assert report.render("human", width=100) == human
    document = json.loads(cli("check", "--format", "json", *files).stdout)
    assert report.to_dict()["diagnostics"] == document["diagnostics"]
    assert json.loads(report.render("json"))["diagnostics"] == document["diagnostics"]


def test_the_path_is_the_name_and_text_is_named_by_its_role():
    broken = read_text(FIXTURES / "check" / "C101_undeclared_predicate" / "domain.pddl")
    by_text = pddlc.check(broken)
    assert {d.file for d in by_text.diagnostics} == {"<domain>"}
    path = FIXTURES / "check" / "C101_undeclared_predicate" / "domain.pddl"
    assert {d.file for d in pddlc.check(path).diagnostics} == {str(path)}


def test_blocksworld_checks_clean_as_text_bytes_and_paths():
    domain, problem = BLOCKS / "domain.pddl", BLOCKS / "problem.pddl"
    for d, p in [
        (read_text(domain), read_text(problem)),
        (domain.read_bytes(), problem.read_bytes()),
        (bytearray(domain.read_bytes()), problem),
        (domain, problem),
    ]:
        report = pddlc.check(d, p)
        assert report.ok
        assert report.diagnostics == [] and report.errors == [] and report.warnings == []
        assert report.note is None
        assert report.render("gcc") == ""
    assert pddlc.check(read_text(domain)).ok


def test_an_undeclared_predicate_is_located_with_labels_and_help():
    text = read_text(BLOCKS / "domain.pddl").replace(
        ":precondition (holding ?x)", ":precondition (holdin ?x)"
    )
    report = pddlc.check(text)
    assert not report.ok
    [d] = report.errors
    assert (d.code, d.name, d.severity) == ("C101", "undeclared-predicate", "error")
    assert d.message == "predicate `holdin` is not declared"
    assert d.help == "did you mean `holding`?"
    assert (d.file, d.line, d.column, d.end) == ("<domain>", 23, 20, (23, 26))
    assert text[d.offset : d.offset + d.length] == "holdin"
    assert [(l.line, l.column, l.length) for l in d.labels] == [(23, 20, 6)]
    assert str(d) == "<domain>:23:20: error[C101]: predicate `holdin` is not declared"
    assert d.to_dict()["code"] == "C101"
    assert report.render("gcc").splitlines() == [
        "<domain>:23:20: error: predicate `holdin` is not declared [C101]",
        "<domain>:23:20: note: help: did you mean `holding`?",
    ]
    assert report.render("val").startswith("<domain>: line: 23: Error: [C101]")


def test_a_problem_alone_is_checked_for_syntax_with_a_note():
    report = pddlc.check(BLOCKS / "problem.pddl")
    assert report.ok
    assert report.note == "a problem without its domain: only its syntax was checked"


def test_a_problem_in_the_domain_place_is_an_error():
    report = pddlc.check(BLOCKS / "problem.pddl", BLOCKS / "problem.pddl")
    assert "expected a domain, found a problem" in [d.message for d in report.errors]


def test_warnings_do_not_make_a_report_fail():
    text = read_text(BLOCKS / "domain.pddl").replace("(arm-empty))", "(arm-empty) (unused ?x))", 1)
    report = pddlc.check(text)
    assert report.ok
    assert [w.severity for w in report.warnings] == ["warning"] * len(report.warnings)
    assert report.warnings


@pytest.mark.parametrize("path", fixture_files("tarski"))
def test_tarski_profile_rejects_each_fixture_where_it_says(path):
    text = read_text(path)
    where = text.splitlines()[0].removeprefix("; expect ").strip()
    report = pddlc.check(text, profile="tarski")
    [d] = report.diagnostics
    assert d.code == "C150"
    assert f"{d.line}:{d.column}" == where


def test_tarski_profile_accepts_the_blocks_world():
    assert pddlc.check(BLOCKS / "domain.pddl", profile="tarski").ok
    assert pddlc.check(BLOCKS / "domain.pddl", profile="pddl").ok


def test_undecodable_bytes_are_a_diagnostic():
    report = pddlc.check(b"(define (domain x)\xff)")
    [d] = report.errors
    assert (d.code, d.offset) == ("P007", 18)
    assert pddlc.check(b"(define\x00)").errors[0].code == "P008"
    assert pddlc.check("(define\x00)").errors[0].code == "P008"
    assert pddlc.check("(define \ud800)").errors[0].code == "P007"
    assert pddlc.check(b"\xff", profile="tarski").errors[0].code == "P007"


def test_misuse_raises_type_and_value_errors():
    with pytest.raises(TypeError, match="`domain` must be PDDL text"):
        pddlc.check(42)
    with pytest.raises(TypeError, match="`problem` must be PDDL text .* not list"):
        pddlc.check("", [])
    with pytest.raises(ValueError, match='unknown profile `strict`: use `pddl` or `tarski`'):
        pddlc.check("", profile="strict")
    with pytest.raises(ValueError, match="tarski profile checks domains only"):
        pddlc.check("", "", profile="tarski")
    with pytest.raises(ValueError, match='unknown format "xml"'):
        pddlc.check("").render("xml")
    with pytest.raises(FileNotFoundError):
        pddlc.check(Path("/nonexistent/domain.pddl"))


def test_a_path_is_a_file_and_a_str_naming_a_file_is_refused(monkeypatch):
    monkeypatch.chdir(BLOCKS)
    assert pddlc.check(Path("domain.pddl")).ok
    with pytest.raises(ValueError, match=r'names a file but is not PDDL text.*pathlib\.Path\("domain\.pddl"\)'):
        pddlc.check("domain.pddl")
    # In a batch, the pair fails with the reason instead of scoring zeros.
    [scores] = pddlc.score_many([("domain.pddl", "(define (domain d))")])
    assert scores.error and "names a file" in scores.error
