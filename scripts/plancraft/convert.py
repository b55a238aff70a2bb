#!/usr/bin/env python3
"""Converts Plancraft's data files into pddlc's own format (domains/plancraft/*.toml).

Usage: scripts/plancraft/convert.py PLANCRAFT_DATA_DIR [OUT_DIR]

PLANCRAFT_DATA_DIR holds `recipes/`, `tags/` and `constants.json` as in
github.com/gautierdag/plancraft @ 5ab294e (MIT license, Copyright (c) 2024 Gautier Dagan),
`plancraft/environment/data/`. The output carries that attribution. Only what the
environment reads is kept: per item its stack size (1 when not stackable), per tag its
values, per recipe file its kind, result, count and ingredients, with the `minecraft:`
prefix removed; recipe files come in byte-wise sorted name order (the order Plancraft's
reference verdicts were produced with). Files of the types the environment skips are listed
by type. tests/plancraft_data.rs checks the result against the original files.
"""

import json
import os
import sys

LOADED = {
    "minecraft:crafting_shaped": "shaped",
    "minecraft:crafting_shapeless": "shapeless",
    "minecraft:smelting": "smelting",
}

HEADER = """\
# Plancraft's {what}, converted by scripts/plancraft/convert.py from the data of
# github.com/gautierdag/plancraft @ 5ab294e (MIT license, Copyright (c) 2024 Gautier Dagan;
# see LICENSE.md in this folder). The format is described in docs/plancraft.md.
"""


def clean(name):
    return name[len("minecraft:"):] if name.startswith("minecraft:") else name


def quote(text):
    return json.dumps(text, ensure_ascii=True)


def names(values):
    return "[" + ", ".join(quote(v) for v in values) + "]"


def alternatives(ingredient):
    """One ingredient as a list of alternatives: item names, or `#tag`."""
    if isinstance(ingredient, list):
        out = []
        for part in ingredient:
            out.extend(alternatives(part))
        return out
    if isinstance(ingredient, str):
        return ["#" + clean(ingredient[1:])] if ingredient.startswith("#") else [clean(ingredient)]
    if "item" in ingredient:
        return [clean(ingredient["item"])]
    return ["#" + clean(ingredient["tag"])]


def recipe_lines(file, recipe):
    kind = LOADED[recipe["type"]]
    lines = ["", "[[recipe]]", f"file = {quote(file)}", f"kind = {quote(kind)}"]
    if kind == "smelting":
        lines.append(f"result = {quote(clean(recipe['result']))}")
        lines.append(f"ingredient = {names(alternatives(recipe['ingredient']))}")
        return lines
    result = recipe["result"]
    lines.append(f"result = {quote(clean(result['item']))}")
    lines.append(f"count = {result.get('count', 1)}")
    if kind == "shaped":
        lines.append(f"pattern = {names(recipe['pattern'])}")
        keys = ", ".join(
            f"{quote(k)} = {names(alternatives(v))}" for k, v in recipe["key"].items()
        )
        lines.append(f"key = {{ {keys} }}")
    else:
        parts = ", ".join(names(alternatives(i)) for i in recipe["ingredients"])
        lines.append(f"ingredients = [{parts}]")
    return lines


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    data = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) == 3 else os.path.join(
        os.path.dirname(__file__), "..", "..", "domains", "plancraft"
    )
    os.makedirs(out, exist_ok=True)

    items = json.load(open(os.path.join(data, "constants.json")))["items"]
    lines = [HEADER.format(what="items, in id order, with their stack sizes"), "items = ["]
    for item in items:
        stack = item["stackSize"] if item["stackable"] else 1
        lines.append(f"  [{quote(item['type'])}, {stack}],")
    lines.append("]")
    write(out, "items.toml", lines)

    lines = [HEADER.format(what="item tags; a value `#name` is another tag")]
    for file in sorted(os.listdir(os.path.join(data, "tags")), key=os.fsencode):
        values = json.load(open(os.path.join(data, "tags", file)))["values"]
        cleaned = ["#" + clean(v[1:]) if v.startswith("#") else clean(v) for v in values]
        lines.append(f"{quote(file[:-len('.json')])} = {names(cleaned)}")
    write(out, "tags.toml", lines)

    lines = [HEADER.format(what="recipes, in byte-wise sorted file order")]
    skipped = {}
    for file in sorted(os.listdir(os.path.join(data, "recipes")), key=os.fsencode):
        recipe = json.load(open(os.path.join(data, "recipes", file)))
        stem = file[:-len(".json")]
        if recipe["type"] in LOADED:
            lines.extend(recipe_lines(stem, recipe))
        else:
            skipped.setdefault(clean(recipe["type"]), []).append(stem)
    lines.extend(["", "# Files of the types the environment does not load.", "[skipped]"])
    for kind in sorted(skipped):
        lines.append(f"{quote(kind)} = {names(skipped[kind])}")
    write(out, "recipes.toml", lines)


def write(out, name, lines):
    with open(os.path.join(out, name), "w") as handle:
        handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
