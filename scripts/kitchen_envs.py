#!/usr/bin/env python3
"""Converts Simmer's task environments (`benchmark/tasks/NNN/env_NNN.json`) to the project's
format, `domains/kitchen/envs/NNN.toml`.

Simmer's data is MIT-licensed (github.com/psunlpgroup/SIMMER, commit 2390231). Every object of
its environments copies its class from `object_def.json` (our `classes.toml`), so an object is
written as its id alone when it does, and as a table of what differs when it does not.
`tests/kitchen_envs.rs` checks that every converted environment loads to the very environment
the JSON gives.

Usage: scripts/kitchen_envs.py SIMMER_BENCHMARK_DIR [OUT_DIR]
"""

import json
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WIDTH = 96


def toml_string(text):
    return json.dumps(text, ensure_ascii=False)


def toml_list(items):
    return "[" + ", ".join(toml_string(i) for i in items) + "]"


def object_entry(obj, classes):
    ident = f"{obj['class_name']}_{obj['id']}"
    default = classes.get(obj["class_name"])
    location = obj["location"] if "location" in obj else "kitchen"
    fields = []
    if default is None or obj.get("properties") != default["properties"]:
        fields.append(f"properties = {toml_list(obj.get('properties') or [])}")
    if default is None or obj.get("states") != default["states"]:
        fields.append(f"states = {toml_list(obj.get('states') or [])}")
    if default is None or location != default["location"]:
        if location is None:
            raise SystemExit(f"{ident}: a null location has no TOML form")
        fields.append(f"in = {toml_string(location)}")
    if not fields:
        return toml_string(ident)
    return "{ id = " + toml_string(ident) + ", " + ", ".join(fields) + " }"


def wrapped(entries):
    lines, line = [], ""
    for entry in entries:
        piece = entry + ","
        if line and len(line) + 1 + len(piece) > WIDTH:
            lines.append(line)
            line = ""
        line = f"{line} {piece}" if line else piece
    if line:
        lines.append(line)
    return "\n".join("  " + line for line in lines)


def convert(task, env, classes):
    out = [
        f"# Task {task}'s kitchen, converted from Simmer's benchmark/tasks/{task}/env_{task}.json",
        "# (MIT, github.com/psunlpgroup/SIMMER, commit 2390231) by scripts/kitchen_envs.py.",
        "# An object takes its class's properties, states and place from classes.toml unless it",
        '# says otherwise: { id = "egg_1", states = ["raw", "broken"], in = "counter" }.',
        "",
    ]
    if "action_definitions" in env:
        names = [name.lower() for name in env["action_definitions"]]
        out.append("actions = [")
        out.append(wrapped(toml_string(n) for n in names))
        out.append("]")
    agent = env.get("agent")
    if agent is not None:
        parts = []
        if agent.get("location") is not None:
            parts.append(f"location = {toml_string(agent['location'])}")
        if agent.get("holding") is not None:
            parts.append(f"holding = {toml_string(agent['holding'])}")
        parts.append(f"states = {toml_list(agent.get('states') or [])}")
        out.append("agent = { " + ", ".join(parts) + " }")
    # Simmer keeps the last of two objects with one id, in the first one's place.
    merged = {}
    for obj in env["initial_objects"]:
        merged[f"{obj['class_name']}_{obj['id']}"] = obj
    out.append("objects = [")
    out.append(wrapped(object_entry(o, classes) for o in merged.values()))
    out.append("]")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__)
    benchmark = Path(sys.argv[1])
    target = Path(sys.argv[2]) if len(sys.argv) == 3 else ROOT / "domains/kitchen/envs"
    with open(ROOT / "domains/kitchen/classes.toml", "rb") as f:
        classes = tomllib.load(f)["class"]
    target.mkdir(parents=True, exist_ok=True)
    count = 0
    for path in sorted((benchmark / "tasks").glob("*/env_*.json")):
        task = path.parent.name
        env = json.loads(path.read_text())
        (target / f"{task}.toml").write_text(convert(task, env, classes))
        count += 1
    print(f"{count} environments written to {target}")


if __name__ == "__main__":
    main()
