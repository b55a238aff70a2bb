"""Plancraft's environment and `pddlc.plancraft` side by side on the same agent messages.

Runs every noisy sequence of ``shared/plancraft/reference/val-noisy.jsonl`` (1,000 sequences,
18,843 messages) through both, one interpreter each, and prints CPU seconds, messages per CPU
second, the ratio, and how many episodes agree on success and step count.

    python benches/plancraft/env_side_by_side.py --shared ../shared \
        --peer-python PEER_VENV/bin/python --peer-src PLANCRAFT_CHECKOUT

The peer side imports ``plancraft.environment`` from a checkout of gautierdag/plancraft (the
commit the shared data names, 5ab294e) with numpy, pillow, pydantic, networkx and loguru
installed; it parses each message with Plancraft's action handlers in their default order and
steps ``PlancraftEnvironment`` as ``Evaluator._execute_action`` does (a string answer is a
no-op step; ``impossible:`` stops; success is the target outside slot 0), up to 30 steps.
The pddlc side calls ``pddlc.plancraft.run`` on the same example and messages.
"""

import argparse
import json
import os
import subprocess
import sys
import time


def load(shared):
    root = os.path.join(shared, "plancraft")
    with open(os.path.join(root, "data", "val.json")) as f:
        examples = {e["id"]: e for e in json.load(f)}
    with open(os.path.join(root, "reference", "val-noisy.jsonl")) as f:
        sequences = [json.loads(line) for line in f]
    return examples, sequences


def peer_side(shared, src):
    sys.path.insert(0, src)
    from copy import deepcopy

    from plancraft.environment import (
        GoldSearchActionHandler,
        ImpossibleActionHandler,
        MoveActionHandler,
        PlancraftEnvironment,
        SmeltActionHandler,
        ThinkActionHandler,
    )
    from plancraft.environment.actions import StopAction

    examples, sequences = load(shared)
    handlers = [
        MoveActionHandler(),
        SmeltActionHandler(),
        ThinkActionHandler(),
        GoldSearchActionHandler(),
        ImpossibleActionHandler(),
    ]
    results = []
    messages = 0
    start = time.process_time()
    for sequence in sequences:
        example = examples[sequence["id"]]
        # PlancraftExample (pydantic) reads the JSON's slot keys as int.
        inventory = {int(k): dict(v) for k, v in example["slotted_inventory"].items()}
        env = PlancraftEnvironment(inventory=deepcopy(inventory))
        env.step()
        success, steps = False, 0
        for step in sequence["steps"]:
            if steps >= 30:
                break
            text = step["text"]
            messages += 1
            steps += 1
            action = None
            for handler in handlers:
                action = handler.match(text)
                if action:
                    break
            if isinstance(action, StopAction):
                success = example["impossible"]
                break
            if action is None or isinstance(action, str):
                env.step()
                continue
            observation = env.step(action)
            if any(
                item["type"] == example["target"] and slot != 0
                for slot, item in observation["inventory"].items()
            ):
                success = True
                break
        results.append([sequence["id"], success, steps])
    cpu = time.process_time() - start
    return {"cpu": cpu, "messages": messages, "results": results}


def pddlc_side(shared):
    from pddlc import plancraft

    examples, sequences = load(shared)
    results = []
    messages = 0
    start = time.process_time()
    for sequence in sequences:
        texts = [step["text"] for step in sequence["steps"]]
        document = plancraft.run(examples[sequence["id"]], texts)
        messages += document["number_of_steps"]
        results.append([sequence["id"], document["success"], document["number_of_steps"]])
    cpu = time.process_time() - start
    return {"cpu": cpu, "messages": messages, "results": results}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared")
    parser.add_argument("--peer-python")
    parser.add_argument("--peer-src")
    parser.add_argument("--side", choices=["peer", "pddlc"])
    args = parser.parse_args()
    if args.side == "peer":
        print(json.dumps(peer_side(args.shared, args.peer_src)))
        return
    if args.side == "pddlc":
        print(json.dumps(pddlc_side(args.shared)))
        return
    if not (args.peer_python and args.peer_src):
        parser.error("--peer-python and --peer-src name the peer's interpreter and checkout")
    sides = {}
    for name, python, extra in [
        ("plancraft", args.peer_python, ["--side", "peer", "--peer-src", args.peer_src]),
        ("pddlc", sys.executable, ["--side", "pddlc"]),
    ]:
        out = subprocess.run(
            [python, __file__, "--shared", args.shared, *extra],
            capture_output=True,
            text=True,
            check=True,
            env=dict(os.environ, PYTHONHASHSEED="0"),
        )
        sides[name] = json.loads(out.stdout.strip().splitlines()[-1])
    agree = sum(a == b for a, b in zip(sides["plancraft"]["results"], sides["pddlc"]["results"]))
    for name, side in sides.items():
        rate = side["messages"] / side["cpu"] if side["cpu"] else float("inf")
        print(f"{name:10} {side['cpu']:8.3f} s CPU  {side['messages']:6} messages  {rate:10.0f} /s")
    ratio = sides["plancraft"]["cpu"] / sides["pddlc"]["cpu"]
    print(f"pddlc is {ratio:.1f}x Plancraft's environment (CPU, same messages)")
    print(f"episodes agreeing on success and steps: {agree} / {len(sides['pddlc']['results'])}")


if __name__ == "__main__":
    main()
