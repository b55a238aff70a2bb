#!/usr/bin/env bash
# Assembles the public parts of `../shared`, the reference data pddlc's agreement tests and
# benchmarks read, from the public repositories at the commits the team's copy was built from:
#
#   corpus/potassco           potassco/pddl-instances @ cf19edf (the corpus README's selection)
#   corpus/ipc2023-classical  ipc2023-classical/ipc2023-dataset @ 1e29a0e (every .pddl file)
#   corpus/ipc2023-numeric    ipc2023-numeric/ipc2023-dataset @ 0799944 (every .pddl file)
#   corpus/pddl-plus-domains  hstairs/pddl_plus_domains @ 23a8b79 (every .pddl file)
#   text2world/               Aaron617/text2world @ 9440ff7 (our_benchmark.json, domains/)
#   kitchen/simmer/           psunlpgroup/SIMMER @ 2390231 (the data files)
#
# It cannot rebuild the reference verdicts, which were produced by running other tools:
# plans/ (VAL's verdicts on planners' plans), text2world/pairs/ and exec_probes/ (the official
# Text2World scorer's values), kitchen/plans/ (Simmer's executor's verdicts). The tests that
# need those parts skip (and fail under CI); README.md, "`../shared`", says which.
#
# Usage: scripts/fetch-shared.sh [--dest DIR] [--sources DIR] [--force]
#   --dest DIR     where to assemble the parts (default: ../shared beside the repository)
#   --sources DIR  where the clones are kept (default: DEST/.sources); a clone found there is
#                  reused when it holds the commit, never modified otherwise
#   --force        replace parts that already exist in DEST; without it the script stops,
#                  before cloning anything, if any part it would write is there
# Needs git and python3 (its standard library only). Writes nothing outside DEST and SOURCES.
set -euo pipefail

usage() {
    sed -n '2,/^set -euo pipefail/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
}

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dest="$repo_root/../shared"
sources=""
force=false
while (($# > 0)); do
    case $1 in
    --dest)
        dest=${2:?--dest needs a directory}
        shift 2
        ;;
    --sources)
        sources=${2:?--sources needs a directory}
        shift 2
        ;;
    --force)
        force=true
        shift
        ;;
    -h | --help)
        usage
        exit 0
        ;;
    *)
        echo "fetch-shared: unknown argument \`$1\` (see --help)" >&2
        exit 2
        ;;
    esac
done
sources=${sources:-$dest/.sources}

for tool in git python3; do
    if ! command -v "$tool" >/dev/null; then
        echo "fetch-shared: \`$tool\` is needed" >&2
        exit 2
    fi
done

# Each source: the clone's name under SOURCES, the repository, the commit, the part of DEST it
# becomes.
SOURCE_LIST="
pddl-instances https://github.com/potassco/pddl-instances.git cf19edf corpus/potassco
ipc2023-classical https://github.com/ipc2023-classical/ipc2023-dataset.git 1e29a0e corpus/ipc2023-classical
ipc2023-numeric https://github.com/ipc2023-numeric/ipc2023-dataset.git 0799944 corpus/ipc2023-numeric
pddl_plus_domains https://github.com/hstairs/pddl_plus_domains.git 23a8b79 corpus/pddl-plus-domains
text2world https://github.com/Aaron617/text2world.git 9440ff7 text2world
SIMMER https://github.com/psunlpgroup/SIMMER.git 2390231 kitchen/simmer
"

# Refuse before any download if a part is there already.
existing=""
while read -r name url commit part; do
    [[ -n $name ]] || continue
    if [[ -e $dest/$part ]]; then
        existing="$existing $dest/$part"
    fi
done <<<"$SOURCE_LIST"
if [[ -n $existing && $force != true ]]; then
    echo "fetch-shared: these parts exist already:$existing" >&2
    echo "fetch-shared: nothing was changed; give --force to replace them" >&2
    exit 1
fi

mkdir -p "$dest" "$sources"

# Clones `url` into SOURCES/`name` and checks out `commit`, or reuses a clone there that has it.
fetch() {
    local name=$1 url=$2 commit=$3
    local clone="$sources/$name"
    if [[ -e $clone ]]; then
        if ! git -C "$clone" cat-file -e "$commit^{commit}" 2>/dev/null; then
            echo "fetch-shared: $clone exists but does not hold commit $commit; move it away" >&2
            exit 1
        fi
    else
        echo "fetch-shared: cloning $url" >&2
        git clone --quiet --no-checkout --filter=blob:none "$url" "$clone" </dev/null
    fi
    git -C "$clone" -c advice.detachedHead=false checkout --quiet --detach "$commit" </dev/null
    local head
    head=$(git -C "$clone" rev-parse HEAD)
    if [[ $head != "$commit"* ]]; then
        echo "fetch-shared: $clone is at $head, not $commit" >&2
        exit 1
    fi
}

# Copies every .pddl file below `from` to `to`, keeping the paths.
copy_pddl() {
    local from=$1 to=$2 file
    (cd "$from" && find . -path ./.git -prune -o -type f -name '*.pddl' -print0) |
        while IFS= read -r -d '' file; do
            mkdir -p "$to/$(dirname "$file")"
            cp "$from/$file" "$to/$file"
        done
}

# corpus/README.md: "Per variant: the domain (or the first three and the last per-instance
# domains) and instances 1-3 plus the largest instance" (largest in bytes), for the IPC
# 1998-2014 tracks of potassco/pddl-instances (`ipc-YYYY/domains/VARIANT/`).
select_potassco() {
    python3 - "$1" "$2" <<'PYTHON'
import os, re, shutil, sys

source, target = sys.argv[1:3]

def numbered(directory, prefix):
    """The files `prefix-N.pddl` in `directory`, by N."""
    found = []
    for name in os.listdir(directory):
        match = re.fullmatch(re.escape(prefix) + r"-(\d+)\.pddl", name)
        if match:
            found.append((int(match.group(1)), name))
    return sorted(found)

def copy(relative):
    os.makedirs(os.path.dirname(os.path.join(target, relative)), exist_ok=True)
    shutil.copyfile(os.path.join(source, relative), os.path.join(target, relative))

for year in sorted(os.listdir(source)):
    domains = os.path.join(source, year, "domains")
    if not re.fullmatch(r"ipc-\d{4}", year) or not os.path.isdir(domains):
        continue
    for variant in sorted(os.listdir(domains)):
        here = os.path.join(year, "domains", variant)
        if not os.path.isdir(os.path.join(source, here)):
            continue
        if os.path.isfile(os.path.join(source, here, "domain.pddl")):
            copy(os.path.join(here, "domain.pddl"))
        per_instance = os.path.join(source, here, "domains")
        if os.path.isdir(per_instance):
            files = numbered(per_instance, "domain")
            for _, name in files[:3] + files[-1:]:
                copy(os.path.join(here, "domains", name))
        instances = os.path.join(source, here, "instances")
        if os.path.isdir(instances):
            files = numbered(instances, "instance")
            chosen = {name for number, name in files if number <= 3}
            if files:
                largest = max(files, key=lambda f: (os.path.getsize(os.path.join(instances, f[1])), f[0]))
                chosen.add(largest[1])
            for name in sorted(chosen):
                copy(os.path.join(here, "instances", name))
PYTHON
}

# text2world/README.md (in the team's copy): `our_benchmark.json` is the benchmark file, and
# `domains/<id>_<name>/` holds each entry's `pddl_domain` (domain.pddl), the same after
# generate.py's `_purge_comments` (gt_domain_without_comment.pddl, the gold text the evaluation
# compares against), `corrected_description` (description.md) and meta.json. The purge is the
# repository's own function, read from its generate.py at the commit, not a copy of ours.
assemble_text2world() {
    python3 - "$1" "$2" <<'PYTHON'
import ast, json, os, re, shutil, sys

clone, target = sys.argv[1:3]
benchmark = os.path.join(clone, "pddl_benchmark", "our_benchmark.json")
os.makedirs(os.path.join(target, "domains"), exist_ok=True)
shutil.copyfile(benchmark, os.path.join(target, "our_benchmark.json"))

generate = os.path.join(clone, "text2world", "scripts", "generate.py")
with open(generate, encoding="utf-8") as f:
    module = ast.parse(f.read())
purge = [n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == "_purge_comments"]
if len(purge) != 1:
    sys.exit(f"fetch-shared: no `_purge_comments` in {generate}")
namespace = {"re": re}
exec(compile(ast.Module(body=purge, type_ignores=[]), generate, "exec"), namespace)

def write(path, text):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)

with open(benchmark, encoding="utf-8") as f:
    entries = json.load(f)
for entry in entries:
    name = entry["file_name"]
    name = name[: -len(".pddl")] if name.endswith(".pddl") else name
    folder = os.path.join(target, "domains", "%03d_%s" % (int(entry["id"]), re.sub(r"[\s/]", "_", name)))
    os.makedirs(folder, exist_ok=True)
    write(os.path.join(folder, "domain.pddl"), entry["pddl_domain"])
    write(os.path.join(folder, "gt_domain_without_comment.pddl"), namespace["_purge_comments"](entry["pddl_domain"]))
    write(os.path.join(folder, "description.md"), entry["corrected_description"])
    meta = {k: entry[k] if k == "file_name" else int(entry[k]) for k in ("file_name", "id", "batch_id", "tokens")}
    write(os.path.join(folder, "meta.json"), json.dumps(meta, indent=1))
print(f"fetch-shared: {len(entries)} gold domains", file=sys.stderr)
PYTHON
}

# kitchen/simmer: Simmer's data (world model, task environments and descriptions, examples)
# and its licence, without its code.
assemble_simmer() {
    local from=$1 to=$2 file
    mkdir -p "$to"
    for file in CITATION.cff LICENSE README.md; do
        if [[ -f $from/$file ]]; then
            cp "$from/$file" "$to/$file"
        fi
    done
    for dir in benchmark examples world_model; do
        if [[ ! -d $from/$dir ]]; then
            echo "fetch-shared: $from has no $dir/" >&2
            exit 1
        fi
        (cd "$from" && find "$dir" -type f \( -name '*.json' -o -name '*.txt' \) -print0) |
            while IFS= read -r -d '' file; do
                mkdir -p "$to/$(dirname "$file")"
                cp "$from/$file" "$to/$file"
            done
    done
}

while read -r name url commit part; do
    [[ -n $name ]] || continue
    fetch "$name" "$url" "$commit"
done <<<"$SOURCE_LIST"

# Each part is built beside its place and moved there whole, so that a failure never leaves a
# half-built part where the tests would take it for the real one.
while read -r name url commit part; do
    [[ -n $name ]] || continue
    clone="$sources/$name"
    building="$dest/$part.fetching"
    rm -rf "$building"
    mkdir -p "$building"
    case $part in
    corpus/potassco) select_potassco "$clone" "$building" ;;
    corpus/*) copy_pddl "$clone" "$building" ;;
    text2world) assemble_text2world "$clone" "$building" ;;
    kitchen/simmer) assemble_simmer "$clone" "$building" ;;
    esac
    if [[ -e $dest/$part ]]; then
        rm -rf "${dest:?}/${part:?}"
    fi
    mv "$building" "$dest/$part"
    count=$(find "$dest/$part" -type f | wc -l | tr -d ' ')
    echo "fetch-shared: $dest/$part: $count files from $url @ $commit" >&2
done <<<"$SOURCE_LIST"

echo "fetch-shared: done. Not rebuilt (they are other tools' verdicts): plans/, text2world/pairs/," \
    "text2world/exec_probes/, kitchen/plans/; see README.md." >&2
