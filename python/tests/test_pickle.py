"""pddlc's objects through pickle (as Ray and multiprocessing move them): each comes back equal
field for field, renders the same and keeps its source, from the protocol's lowest version up."""

import pickle

import pytest

import pddlc
from conftest import BLOCKS, FIXTURES

PROTOCOLS = range(2, pickle.HIGHEST_PROTOCOL + 1)


def again(obj, protocol=pickle.HIGHEST_PROTOCOL):
    return pickle.loads(pickle.dumps(obj, protocol=protocol))


def broken_domain():
    # A predicate used but not declared: a diagnostic with labels.
    return (FIXTURES / "check" / "C101_undeclared_predicate" / "domain.pddl").read_text()


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_domain_and_a_problem_come_back_with_their_tree_and_report(protocol):
    # The last one recovers from a parse error: its tree comes with an error in its report.
    paths = (BLOCKS / "domain.pddl", BLOCKS / "problem.pddl", FIXTURES / "parse" / "P005_several_errors.pddl")
    for path in paths:
        tree = pddlc.parse(path)
        assert isinstance(tree, (pddlc.Domain, pddlc.Problem))
        back = again(tree, protocol)
        assert type(back) is type(tree)
        assert back.to_dict() == tree.to_dict()
        assert back.report.to_dict() == tree.report.to_dict()
        # The source name (the path it was read from) travels with it.
        assert back.report.render("gcc") == tree.report.render("gcc")
    assert not pddlc.parse(paths[-1]).report.ok


def test_a_report_with_diagnostics_renders_the_same_after_pickling():
    report = pddlc.check(broken_domain())
    assert not report.ok
    back = again(report)
    assert back.to_dict() == report.to_dict()
    for form in ("human", "gcc", "val", "json"):
        assert back.render(form) == report.render(form)
    assert back.diagnostics == report.diagnostics


def test_a_diagnostic_and_its_labels_come_back_equal():
    diagnostic = pddlc.check(broken_domain()).diagnostics[0]
    back = again(diagnostic)
    assert back == diagnostic
    assert back.to_dict() == diagnostic.to_dict()
    label = diagnostic.labels[0]
    label_back = again(label)
    assert (label_back.file, label_back.line, label_back.column, label_back.offset,
            label_back.length, label_back.message) == (
        label.file, label.line, label.column, label.offset, label.length, label.message)


def test_scores_come_back_with_their_id_rendering_and_functional_part():
    gold = (BLOCKS / "domain.pddl").read_text()
    broken = gold.replace("(:action stack", "(:action stack :parameters (?x)", 1)
    pairs = [
        {"id": ("pair", 1), "gold": gold, "pred": gold},
        {"id": "broken", "gold": gold, "pred": broken},
    ]
    for scores in pddlc.score_many(pairs, functional=True):
        back = again(scores)
        assert back.to_dict() == scores.to_dict()
        assert back.id == scores.id
        assert back.render("gcc") == scores.render("gcc")
        assert back.diagnostics == scores.diagnostics
        assert (back.exec, back.codes, back.functional) == (scores.exec, scores.codes, scores.functional)
    assert [s.exec for s in pddlc.score_many(pairs)] == [100.0, 0.0]


def test_a_state_that_is_not_ones_own_is_refused():
    with pytest.raises(ValueError):
        pddlc._restore("report", "{not json")
    with pytest.raises(ValueError):
        pddlc._restore("nothing", "{}")
