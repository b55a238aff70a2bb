#!/usr/bin/env python3
"""Converts BEHAVIOR-100's synset taxonomy into pddlc's format: domains/bddl/synsets.tsv.

Reads `hierarchy_all.json` and `hierarchy_owned.json` of StanfordVL/bddl @ 06bec10 (v1.0.1;
the copies under ../shared/bddl/behavior-100/ are those files) and writes one line per synset:
`synset<TAB>parents<TAB>owned`, where `parents` lists the synset's parents joined by `,` (empty
for the root) and `owned` is 1 when the synset is in `hierarchy_owned.json` (it has iGibson
object models), else 0. Lines are sorted by synset. Usage:

    python3 scripts/bddl/convert.py ../shared/bddl/behavior-100 > domains/bddl/synsets.tsv
"""

import json
import sys
from pathlib import Path


def parents_of(node, parent, out):
    out.setdefault(node["name"], set())
    if parent is not None:
        out[node["name"]].add(parent)
    for child in node.get("children") or []:
        parents_of(child, node["name"], out)
    return out


def main():
    folder = Path(sys.argv[1])
    every = parents_of(json.loads((folder / "hierarchy_all.json").read_text()), None, {})
    owned = parents_of(json.loads((folder / "hierarchy_owned.json").read_text()), None, {})
    print("# BEHAVIOR-100's synset taxonomy, converted by scripts/bddl/convert.py from")
    print("# github.com/StanfordVL/bddl @ 06bec10 (hierarchy_all.json, hierarchy_owned.json;")
    print("# MIT license, Copyright (c) 2021 Stanford Vision and Learning Lab; see LICENSE.md).")
    print("# synset<TAB>parents (comma-separated)<TAB>owned (1: iGibson has object models)")
    for name in sorted(every):
        parents = ",".join(sorted(every[name]))
        print(f"{name}\t{parents}\t{1 if name in owned else 0}")


if __name__ == "__main__":
    main()
