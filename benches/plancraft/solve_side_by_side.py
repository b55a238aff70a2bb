"""Plancraft's oracle planner and `pddlc.plancraft.solve` side by side on the val split.

    python benches/plancraft/solve_side_by_side.py --shared ../shared \
        --peer-python PEER_VENV/bin/python --peer-src PLANCRAFT_CHECKOUT [--feasible-only]

The peer side calls ``plancraft.environment.planner.optimal_planner`` (its depth-first search
bounded at 40 steps, 30 s and nine of an item held) on each example's item counts, as the
dataset's ``optimal_path_length`` was made; the pddlc side calls ``pddlc.plancraft.solve``
(shortest recipe sequence turned into messages and replayed, or a proof). Prints CPU seconds
per side, how many answers each gives, and where the lengths differ. ``--feasible-only``
leaves out the examples labelled impossible, on which the peer runs into its 30 s timeout.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter


def load(shared, feasible_only):
    with open(os.path.join(shared, "plancraft", "data", "val.json")) as f:
        examples = json.load(f)
    return [e for e in examples if not (feasible_only and e["impossible"])]


def peer_side(shared, src, feasible_only):
    sys.path.insert(0, src)
    from plancraft.environment.planner import optimal_planner

    rows = []
    start = time.process_time()
    for example in load(shared, feasible_only):
        counts = Counter()
        for slot, item in example["slotted_inventory"].items():
            if int(slot) != 0:
                counts[item["type"]] += item["quantity"]
        plan = optimal_planner(example["target"], dict(counts))
        rows.append([example["id"], None if plan is None else len(plan)])
    return {"cpu": time.process_time() - start, "rows": rows}


def pddlc_side(shared, feasible_only):
    from pddlc import plancraft

    rows = []
    start = time.process_time()
    for example in load(shared, feasible_only):
        answer = plancraft.solve(example)
        length = answer["length"] if answer["status"] == "solved" else None
        rows.append([example["id"], length, answer["status"]])
    return {"cpu": time.process_time() - start, "rows": rows}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared")
    parser.add_argument("--peer-python")
    parser.add_argument("--peer-src")
    parser.add_argument("--feasible-only", action="store_true")
    parser.add_argument("--side", choices=["peer", "pddlc"])
    args = parser.parse_args()
    if args.side == "peer":
        print(json.dumps(peer_side(args.shared, args.peer_src, args.feasible_only)))
        return
    if args.side == "pddlc":
        print(json.dumps(pddlc_side(args.shared, args.feasible_only)))
        return
    if not (args.peer_python and args.peer_src):
        parser.error("--peer-python and --peer-src name the peer's interpreter and checkout")
    flags = ["--feasible-only"] if args.feasible_only else []
    sides = {}
    for name, python, extra in [
        ("plancraft", args.peer_python, ["--side", "peer", "--peer-src", args.peer_src]),
        ("pddlc", sys.executable, ["--side", "pddlc"]),
    ]:
        out = subprocess.run(
            [python, __file__, "--shared", args.shared, *extra, *flags],
            capture_output=True,
            text=True,
            check=True,
            env=dict(os.environ, PYTHONHASHSEED="0"),
        )
        sides[name] = json.loads(out.stdout.strip().splitlines()[-1])
    peer, ours = sides["plancraft"]["rows"], sides["pddlc"]["rows"]
    for name, side in sides.items():
        found = sum(row[1] is not None for row in side["rows"])
        print(f"{name:10} {side['cpu']:8.3f} s CPU  {found} plans of {len(side['rows'])} examples")
    statuses = Counter(row[2] for row in ours)
    print("pddlc answers:", dict(statuses))
    differ = [(p[0], p[1], o[1]) for p, o in zip(peer, ours) if p[1] != o[1]]
    print(f"pddlc is {sides['plancraft']['cpu'] / sides['pddlc']['cpu']:.1f}x the oracle (CPU)")
    print(f"examples where the plan lengths differ: {len(differ)} {differ[:10]}")


if __name__ == "__main__":
    main()
