"""`pddlc.score` and `pddlc.score_many`: exact values on the shipped example, agreement with
`pddlc score --format json`, the official scorer's values on the 1,200 dev pairs of
../shared/text2world (rounded and raw), tarski's recorded EXEC through `check`, one result per
input in order, errors as results, and the interpreter left free while scoring."""

import json
import threading

import pytest

import pddlc
from conftest import BLOCKS, REPO, cli, need_shared, read_text

GOLD = read_text(BLOCKS / "domain.pddl")
# One undeclared predicate in a precondition: the shipped example, damaged as LLMs do.
PRED = GOLD.replace(":precondition (holding ?x)", ":precondition (holdin ?x)")
NAMES = ["EXEC", "SIM", "F1_PRED", "F1_PARAM", "F1_PRECOND", "F1_EFF"]


def metrics(scores):
    return [scores.exec, scores.sim, scores.f1_pred, scores.f1_param, scores.f1_precond, scores.f1_eff]


def test_exact_values_on_the_shipped_example_in_both_modes():
    same = pddlc.score(GOLD, GOLD, mode="text2world")
    assert same.mode == "text2world" and same.ok and same.error is None
    assert metrics(same) == [100.0] * 6
    assert same.raw == {"EXEC": 1.0, "SIM": 1.0, "F1_PRED": 1.0, "F1_PARAM": 1.0, "F1_PRECOND": 1.0, "F1_EFF": 1.0}
    official = pddlc.score(GOLD, PRED, mode="text2world")
    assert metrics(official) == [0.0, 99.9, 0.0, 0.0, 0.0, 0.0]
    assert official.codes == ["C150"]
    [d] = official.diagnostics
    assert (d.code, d.file, d.line) == ("C150", "<pred>", 23)
    assert official["EXEC"] == 0.0 and official["SIM"] == 99.9
    clean = pddlc.score(GOLD, PRED, mode="clean")
    assert metrics(clean) == [0.0, 100.0, 100.0, 100.0, 75.0, 100.0]
    assert clean.codes == ["C101"] and clean.raw is None
    assert clean.diagnostics[0].message == "predicate `holdin` is not declared"
    assert "C101" in clean.render("gcc")
    assert clean.notes == ["the predicted domain has errors (EXEC 0): C101"]
    assert repr(clean) == (
        "Scores(mode='clean', EXEC=0.0, SIM=100.0, F1_PRED=100.0, F1_PARAM=100.0, "
        "F1_PRECOND=75.0, F1_EFF=100.0)"
    )


@pytest.mark.parametrize("mode", ["text2world", "clean"])
@pytest.mark.parametrize("response", [False, True])
def test_to_dict_is_the_cli_json(mode, response, tmp_path):
    gold, pred = tmp_path / "gold.pddl", tmp_path / "pred.md"
    pred_text = f"Here it is:\n```pddl\n{PRED}```\n" if response else PRED
    gold.write_text(GOLD)
    pred.write_text(pred_text)
    args = ["score", "--format", "json", "--mode", mode, str(gold), str(pred)]
    document = json.loads(cli(*args, *(["--response"] if response else [])).stdout)
    assert pddlc.score(GOLD, pred_text, mode=mode, response=response).to_dict() == document


def test_the_default_mode_is_the_clis(tmp_path):
    gold, pred = tmp_path / "gold.pddl", tmp_path / "pred.pddl"
    gold.write_text(GOLD)
    pred.write_text(PRED)
    document = json.loads(cli("score", "--format", "json", str(gold), str(pred)).stdout)
    scores = pddlc.score(GOLD, PRED)
    assert scores.mode == document["mode"] == "clean"
    assert scores.to_dict() == document
    [many] = pddlc.score_many([(GOLD, PRED)])
    assert many.to_dict() == document


def dev_pairs(root):
    text2world = root / "text2world"
    rows = [json.loads(l) for l in read_text(text2world / "pairs/dev/scores.jsonl").splitlines() if l.strip()]
    # The dev set holds 1,200 pairs; an empty or truncated scores.jsonl must not pass.
    assert len(rows) == 1200, len(rows)
    pairs = [
        {
            "id": row["pair"],
            "gold": read_text(text2world / row["gold"]),
            "pred": read_text(text2world / row["pred"]),
            "response": row["kind"] == "response",
        }
        for row in rows
    ]
    return rows, pairs


def test_score_many_reproduces_the_official_values_on_every_dev_pair():
    root = need_shared("text2world/pairs/dev", "text2world/domains")
    rows, pairs = dev_pairs(root)
    results = pddlc.score_many(pairs, mode="text2world")
    assert len(results) == 1200
    differ = []
    for row, ours in zip(rows, results):
        assert ours.id == row["pair"] and ours.ok
        for name in NAMES:
            if ours[name] != row[name]:
                differ.append(f"{row['pair']}: {name} official {row[name]}, ours {ours[name]}")
            if ours.raw[name] != float(row["raw"][name]):
                differ.append(f"{row['pair']}: raw {name} official {row['raw'][name]}, ours {ours.raw[name]}")
    assert differ == []


def test_tarski_profile_gives_the_recorded_exec_on_every_dev_pair():
    root = need_shared("text2world/pairs/dev", "text2world/domains")
    rows, pairs = dev_pairs(root)
    differ = [
        row["pair"]
        for row, pair in zip(rows, pairs)
        if pddlc.check(pair["pred"], profile="tarski", extract=pair["response"]).ok
        != (row["EXEC"] == 100)
    ]
    assert differ == []


def test_one_result_per_input_in_order_with_errors_as_results(tmp_path):
    pairs = [
        (GOLD, GOLD),
        {"gold": GOLD, "pred": PRED, "id": "b"},
        42,
        {"gold": GOLD},
        (GOLD, b"\xff\xfe"),
        (GOLD, tmp_path / "missing.pddl"),
        [GOLD, PRED],
        {"gold": GOLD, "pred": f"```pddl\n{GOLD}```", "response": True, "id": 7},
    ]
    results = pddlc.score_many(pairs, threads=2)
    assert [r.ok for r in results] == [True, True, False, False, False, False, True, True]
    assert results[0].exec == 100.0 and results[1].exec == 0.0 and results[6].exec == 0.0
    assert (results[1].id, results[7].id, results[0].id) == ("b", 7, None)
    assert results[7].exec == 100.0 and results[7]["id"] == 7
    assert results[2].error.startswith("pair 2: expected a (gold, pred) tuple")
    assert results[3].error == "pair 3: a dict pair needs `gold` and `pred`"
    assert results[4].error == "pred: the input is not valid UTF-8 (byte 0xff)"
    assert results[4].codes == ["P007"] and results[4].exec is None
    assert results[5].codes == ["P090"] and "No such file" in results[5].error
    assert results[4].to_dict() == {
        "version": 1,
        "error": "pred: the input is not valid UTF-8 (byte 0xff)",
        "codes": ["P007"],
    }


def test_threads_do_not_change_results():
    pairs = [(GOLD, PRED), (GOLD, GOLD), (PRED, GOLD)] * 20
    for mode in ("text2world", "clean"):
        one = [r.to_dict() for r in pddlc.score_many(pairs, mode=mode, threads=1)]
        two = [r.to_dict() for r in pddlc.score_many(pairs, mode=mode, threads=2)]
        each = [pddlc.score(g, p, mode=mode).to_dict() for g, p in pairs]
        assert one == two == each


def test_score_many_accepts_any_iterable_and_empty_input():
    assert pddlc.score_many([]) == []
    assert len(pddlc.score_many(iter([(GOLD, GOLD)] * 3))) == 3
    assert len(pddlc.score_many((g, p) for g, p in [(GOLD, PRED)])) == 1


def test_score_many_leaves_the_interpreter_free():
    pairs = [(GOLD, PRED)] * 3000
    done = threading.Event()
    result = []

    def work():
        result.extend(pddlc.score_many(pairs, threads=1))
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    spins = 0
    while not done.is_set():
        spins += 1
    worker.join()
    assert len(result) == 3000
    # Had the call held the interpreter, this thread could not have run while it scored.
    assert spins > 10_000


def test_misuse():
    with pytest.raises(ValueError, match='unknown mode `official`: use `clean` or `text2world`'):
        pddlc.score(GOLD, GOLD, mode="official")
    with pytest.raises(ValueError, match="unknown mode"):
        pddlc.score_many([], mode="x")
    with pytest.raises(ValueError, match="`threads` must be at least 1"):
        pddlc.score_many([], threads=0)
    with pytest.raises(TypeError, match="`pairs` must be an iterable"):
        pddlc.score_many(5)
    with pytest.raises(TypeError, match="`gold` must be PDDL text"):
        pddlc.score(None, GOLD)
    with pytest.raises(KeyError):
        pddlc.score(GOLD, GOLD)["nope"]
