#!/usr/bin/env bash
# pddlc side by side with the Python peers, in one run, through ../shared/perf/perf.py.
#
# Installs the peers into a venv of its own (kept in $PEERS_DIR, default target/peers), builds
# the release binary, and measures pddlc (`pddlc check domain problem`, one process per file)
# and, on the corpus, `pddlc check --batch --jobs 1` (one process, one core), and Loki (pypddl,
# in one interpreter) on the same inputs:
#   0. the common set: the corpus files every peer accepts (Loki, pddl, tarski, Fast Downward's
#      translator, each run once over the whole corpus, records kept in $PEERS_DIR/records),
#      Loki and `pddlc check --batch --jobs 1` on it side by side, ratios in CPU seconds
#      (benches/common_set.py);
#   1. the corpus (../shared/corpus): the files both accept, with the ratio Loki / pddlc;
#   2. the 20,000-block problem of gen_blocks.py (1.06 MB);
#   3. a 240,000-block problem (14 MB).
# For the single large problems it also runs `/usr/bin/time -v pddlc check` for CPU time and
# peak RSS. The other peers (pddl, tarski, Fast Downward's translator) are installed too; pass
# their names in PEERS to run them on the corpus as well (PEERS="loki pddl tarski fd").
#
# The peers that are not on PyPI run when they are given:
#   4. VAL_BIN, the folder of VAL's Validate and libVAL.so (KCL-Planning/VAL, built with cmake):
#      `validate` and VAL's `Validate -v`, one process per case, over ../shared/plans;
#   5. SIMMER_SRC, a checkout of psunlpgroup/SIMMER: `kitchen eval` and Simmer's executor on the
#      held-out layout (benches/kitchen_heldout.sh).
#
# Environment: SHARED (default ../shared), PEERS_DIR, PEERS, BUDGET (seconds per corpus run,
# default 420), SHARD (e.g. 0/4: every 4th corpus file, for a quicker run), PDDLC (a binary to
# measure instead of building target/release/pddlc), VAL_BIN, SIMMER_SRC.
# Read the ratios, not the absolute times: the machines are shared and noisy.
set -euo pipefail

cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
PERF=$SHARED/perf
PEERS_DIR=${PEERS_DIR:-$PWD/target/peers}
PEERS=${PEERS:-loki}
BUDGET=${BUDGET:-420}
SHARD_ARGS=()
if [ -n "${SHARD:-}" ]; then SHARD_ARGS=(--shard "$SHARD"); fi

if [ ! -x "$PEERS_DIR/venv/bin/python" ]; then
    python3 -m venv "$PEERS_DIR/venv"
    "$PEERS_DIR/venv/bin/pip" install --quiet pypddl==1.7.0 pddl==0.5.1 tarski==0.9.1 numpy scipy \
        fast-downward-translate==26.6.0
fi
export PERF_PY=$PEERS_DIR/venv/bin/python

if [ -z "${PDDLC:-}" ]; then
    cargo build --release --quiet
    PDDLC=$PWD/target/release/pddlc
fi
export PDDLC
OUT=$PEERS_DIR/run
rm -rf "$OUT" && mkdir -p "$OUT"

echo "== load: $(cat /proc/loadavg) on $(nproc) cores"

# The common set: the corpus files every peer (Loki, pddl, tarski, Fast Downward's translator)
# accepts. The peers' runs over the whole corpus take about an hour (pddl and tarski are slow),
# so their records are kept in $PEERS_DIR/records and reused; COMMON_AGAIN=1 runs them again.
RECORDS=$PEERS_DIR/records
mkdir -p "$RECORDS"
python3 "$PERF/corpus.py" "$SHARED/corpus" --out "$RECORDS/corpus.tsv" >/dev/null
for tool in loki pddl tarski fd; do
    if [ -n "${COMMON_AGAIN:-}" ] || [ ! -s "$RECORDS/$tool.jsonl" ]; then
        python3 "$PERF/perf.py" parse "$tool" --root "$SHARED/corpus" --budget 100000 \
            --records "$RECORDS/$tool.jsonl" --out "$RECORDS/$tool.json" >/dev/null
    fi
done
python3 benches/common_set.py list "$RECORDS/corpus.tsv" "$RECORDS"/{loki,pddl,tarski,fd}.jsonl \
    --out "$OUT/common.tsv"
echo "== the common set, side by side in one run: Loki (one interpreter), pddlc (one process, one core)"
python3 "$PERF/perf.py" parse loki --root "$SHARED/corpus" --list "$OUT/common.tsv" \
    --records "$OUT/common-loki.jsonl" --out "$OUT/common-loki.json" >/dev/null
PDDLC_BATCH="{pddlc} check --batch {list} --jobs 1" python3 "$PERF/perf.py" parse pddlc-batch \
    --root "$SHARED/corpus" --list "$OUT/common.tsv" \
    --records "$OUT/common-pddlc.jsonl" --out "$OUT/common-pddlc.json" >/dev/null
python3 benches/common_set.py ratio "$OUT/common-loki.json" "$OUT/common-pddlc.json"

echo "== corpus ($SHARED/corpus${SHARD:+, shard $SHARD})"
for tool in $PEERS; do
    python3 "$PERF/perf.py" parse "$tool" --root "$SHARED/corpus" --budget "$BUDGET" \
        "${SHARD_ARGS[@]}" --records "$OUT/$tool.jsonl" --out "$OUT/$tool.json" >/dev/null
done
python3 "$PERF/perf.py" parse pddlc-check --root "$SHARED/corpus" --budget "$BUDGET" \
    "${SHARD_ARGS[@]}" --records "$OUT/pddlc.jsonl" --out "$OUT/pddlc.json" >/dev/null
# pddlc in one process on one core, as Loki runs in one interpreter.
PDDLC_BATCH="{pddlc} check --batch {list} --jobs 1" python3 "$PERF/perf.py" parse pddlc-batch \
    --root "$SHARED/corpus" --budget "$BUDGET" "${SHARD_ARGS[@]}" \
    --records "$OUT/pddlc-batch.jsonl" --out "$OUT/pddlc-batch.json" >/dev/null
summaries=()
for tool in $PEERS; do summaries+=("$OUT/$tool.json"); done
python3 "$PERF/perf.py" table "${summaries[@]}" "$OUT/pddlc.json" "$OUT/pddlc-batch.json"
records=()
for tool in $PEERS; do records+=("$OUT/$tool.jsonl"); done
python3 "$PERF/perf.py" common "${records[@]}" "$OUT/pddlc.jsonl" --ratio-to pddlc

for blocks in 20000 240000; do
    dir=$OUT/bw-$blocks
    python3 "$PERF/gen_blocks.py" "$blocks" "$dir" >/dev/null
    problem=$dir/bw-$blocks.pddl
    echo "== $blocks blocks ($(du -h "$problem" | cut -f1))"
    for tool in $PEERS; do
        python3 "$PERF/perf.py" parse "$tool" --root "$dir" --records "$dir/$tool.jsonl" \
            --out "$dir/$tool.json" >/dev/null
    done
    python3 "$PERF/perf.py" parse pddlc-check --root "$dir" --records "$dir/pddlc.jsonl" \
        --out "$dir/pddlc.json" >/dev/null
    records=()
    for tool in $PEERS; do records+=("$dir/$tool.jsonl"); done
    python3 "$PERF/perf.py" common "${records[@]}" "$dir/pddlc.jsonl" --ratio-to pddlc
    for tool in $PEERS pddlc; do
        python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(sys.argv[2], "peak RSS", s.get("peak_rss_MB"), "MB")' \
            "$dir/$tool.json" "$tool" 2>/dev/null || true
    done
    /usr/bin/time -f "pddlc check: %U s user, %S s sys, %M KB peak RSS" \
        "$PDDLC" check "$dir/domain.pddl" "$problem" >/dev/null
done

if [ -n "${VAL_BIN:-}" ]; then
    echo "== validate, one process per case over $SHARED/plans: VAL (Validate -v), pddlc"
    export VAL_BIN
    python3 "$PERF/perf.py" plans val --shared "$SHARED" --records "$OUT/plans-val.jsonl" \
        --out "$OUT/plans-val.json" >/dev/null
    python3 "$PERF/perf.py" plans pddlc --shared "$SHARED" --records "$OUT/plans-pddlc.jsonl" \
        --out "$OUT/plans-pddlc.json" >/dev/null
    python3 "$PERF/perf.py" table "$OUT/plans-val.json" "$OUT/plans-pddlc.json" --ratio-to pddlc
    # The cases where pddlc's verdict differs from VAL's are VAL's known faults, listed with
    # their reasons in fixtures/plans/val-exceptions.txt.
    python3 - "$OUT/plans-pddlc.jsonl" fixtures/plans/val-exceptions.txt <<'PY'
import json, sys
listed = {line.split(' | ')[0].strip() for line in open(sys.argv[2]) if ' | ' in line}
differ = [r['id'] for r in map(json.loads, open(sys.argv[1])) if r.get('ok') is False]
unlisted = [i for i in differ if i not in listed]
print(f'verdicts that differ from VAL: {len(differ)}, of them not in val-exceptions.txt: {len(unlisted)}')
for i in unlisted:
    print('  ', i)
PY
fi

if [ -n "${SIMMER_SRC:-}" ]; then
    echo "== kitchen eval on the held-out layout, side by side with Simmer's executor"
    SIMMER_SRC=$SIMMER_SRC PDDLC=$PDDLC SHARED=$SHARED benches/kitchen_heldout.sh
fi
