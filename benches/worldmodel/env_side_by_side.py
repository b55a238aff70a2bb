"""pddlc.Env and PDDLGym's PDDLEnv side by side, in one run, on the classical tasks of
../shared/plans whose planner plan VAL accepts: PDDLGym replays each plan once and
pddlc `--repeat` times (PDDLGym takes up to seconds a step); CPU seconds (time.process_time) for the replays alone, steps per second, and
whether the two agree on every state along the way and on the goal.

    python benches/worldmodel/env_side_by_side.py [--shared ../shared] [--repeat 20]

Needs `pddlc` (pip install ./python) and `pddlgym` (0.0.7, with gym 0.26) in the interpreter;
benches/worldmodel/run.sh makes a venv with both. PDDLGym loads a problem directory, so each
problem is copied alone into a temporary one. Tasks PDDLGym cannot load are counted, not timed.
"""

import argparse
import contextlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pddlc

with contextlib.redirect_stderr(io.StringIO()):
    from pddlgym.core import PDDLEnv

CLASSICAL = {"typing", "constants", "negative-preconditions", "equality"}


def pddlgym_atoms(state):
    """PDDLGym's literals (`on(a:block,b:block)`) as `(on a b)`."""
    out = set()
    for lit in state.literals:
        args = " ".join(str(v).split(":")[0] for v in lit.variables)
        out.add(f"({lit.predicate.name.lower()}{' ' + args if args else ''})")
    return frozenset(out)


def pddlc_atoms(observation):
    return frozenset(a for a in observation if not a.startswith("(= "))


def load_pddlgym(domain, problem, scratch):
    folder = Path(scratch) / "problems"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    shutil.copy(problem, folder / "problem.pddl")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        env = PDDLEnv(str(domain), str(folder), operators_as_actions=True, dynamic_action_space=False)
        env.fix_problem_index(0)
        env.reset()
    objects = {str(o).split(":")[0].lower(): o for o in env._problem.objects}
    predicates = {name.lower(): p for name, p in env.domain.predicates.items()}
    return env, objects, predicates


def steps_of(plan_text):
    steps = []
    for line in plan_text.splitlines():
        line = line.split(";")[0].strip()
        m = re.match(r"\((.*)\)$", line)
        if m:
            steps.append(m.group(1).lower().split())
    return steps


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shared", default=str(Path(__file__).resolve().parents[3] / "shared"))
    parser.add_argument("--repeat", type=int, default=100)
    parser.add_argument("--limit", type=int, default=0, help="at most this many tasks (0: all)")
    args = parser.parse_args()
    shared = Path(args.shared)
    rows = [json.loads(line) for line in (shared / "plans/index.jsonl").open()]
    rows = [
        r for r in rows
        if r["kind"] == "planner" and r["val"]["category"] == "valid" and set(r["features"]) <= CLASSICAL
    ]
    if args.limit:
        rows = rows[: args.limit]
    totals = {"pddlc": [0.0, 0], "pddlgym": [0.0, 0]}
    loaded, unloadable, disagree = 0, [], []
    with tempfile.TemporaryDirectory() as scratch:
        for row in rows:
            domain, problem = shared / row["domain"], shared / row["problem"]
            steps = steps_of((shared / row["plan"]).read_text())
            try:
                gym, objects, predicates = load_pddlgym(domain, problem, scratch)
                literals = [predicates[s[0]](*[objects[o] for o in s[1:]]) for s in steps]
            except Exception as e:  # PDDLGym's parser rejects many IPC domains
                unloadable.append((row["id"], type(e).__name__))
                continue
            env = pddlc.Env(domain, problem)
            texts = ["(" + " ".join(s) + ")" for s in steps]
            # One replay in both, step by step: the same state after every step, the goal at the
            # end. PDDLGym's steps are timed here (it takes seconds a step on larger tasks);
            # pddlc's replays are timed below, `--repeat` times.
            ours, _ = pddlc_atoms(env.reset()), gym.reset()
            same = ours == pddlgym_atoms(gym.get_state())
            gym_seconds = 0.0
            for text, literal in zip(texts, literals):
                obs, _, done, info = env.step(text)
                with contextlib.redirect_stdout(io.StringIO()):
                    start = time.process_time()
                    state, _, gym_done, _, _ = gym.step(literal)
                    gym_seconds += time.process_time() - start
                same = same and info["applied"] and pddlc_atoms(obs) == pddlgym_atoms(state)
            same = same and done and gym_done
            if not same:
                disagree.append(row["id"])
            loaded += 1
            totals["pddlgym"][0] += gym_seconds
            totals["pddlgym"][1] += len(literals)
            start = time.process_time()
            for _ in range(args.repeat):
                env.reset()
                for text in texts:
                    env.step(text)
            totals["pddlc"][0] += time.process_time() - start
            totals["pddlc"][1] += args.repeat * len(texts)
            print(f"{row['id']}: {len(texts)} steps, agree={same}", file=sys.stderr)
    print(f"tasks: {len(rows)} classical with a valid planner plan; PDDLGym loaded {loaded}, "
          f"could not load {len(unloadable)}")
    for name, (seconds, steps) in totals.items():
        rate = steps / seconds if seconds else float("nan")
        print(f"{name:8} {steps:8} steps  {seconds:8.3f} s CPU  {rate:12,.0f} steps/s")
    if totals["pddlgym"][0] and totals["pddlc"][0]:
        ratio = (totals["pddlc"][1] / totals["pddlc"][0]) / (totals["pddlgym"][1] / totals["pddlgym"][0])
        print(f"pddlc.Env steps {ratio:,.0f}x as fast as PDDLGym")
    print(f"states disagree on {len(disagree)} tasks: {disagree[:10]}")
    kinds = {}
    for _, kind in unloadable:
        kinds[kind] = kinds.get(kind, 0) + 1
    print(f"PDDLGym's load failures by exception: {kinds}")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    main()
