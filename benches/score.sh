#!/usr/bin/env bash
# pddlc's scoring of the Text2World dev pairs through ../shared/perf/perf.py, in one process
# (perf.py's `pddlc-batch`: it writes the pairs as GOLD<TAB>PRED<TAB>KIND lines, which
# `pddlc score --pairs` reads, and counts the child's user + system CPU), in both modes, next
# to the official scorer's reference figures of ../shared/perf/README.md.
#
# The official scorer cannot be installed here, so this is a comparison with a reference
# figure measured on this machine with the same harness, not a comparison in the same run.
# Environment: SHARED (default ../shared), PDDLC (a binary to measure instead of building
# target/release/pddlc), JOBS (threads, default 1: pairs per second of CPU on one core).
set -euo pipefail

cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
JOBS=${JOBS:-1}
if [ -z "${PDDLC:-}" ]; then
    cargo build --release --quiet
    PDDLC=$PWD/target/release/pddlc
fi
export PDDLC
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

echo "== load: $(cat /proc/loadavg) on $(nproc) cores"
for mode in text2world clean; do
    PDDLC_BATCH="{pddlc} score --mode $mode --pairs {list} --jobs $JOBS" \
        python3 "$SHARED/perf/perf.py" score pddlc-batch --shared "$SHARED" \
        --out "$OUT/$mode.json" >/dev/null
    python3 - "$OUT/$mode.json" "$mode" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
rate = s["items_per_s"] or 0
print(f"{sys.argv[2]}: {s['items']} pairs in {s['seconds']} s of CPU: {rate:,.0f} pairs/s, "
      f"{s['failures']} failures, peak RSS {s['peak_rss_MB']} MB; "
      f"{rate / 15.2:,.0f}x the official scorer's 15.2 pairs/s (quiet), "
      f"{rate / 2.5:,.0f}x its 2.5 pairs/s of CPU (loaded)")
EOF
done
