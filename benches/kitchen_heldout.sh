#!/usr/bin/env bash
# `kitchen eval` side by side with Simmer's executor on the held-out layout, made from the dev
# plans: 17 run folders, each task folder holding one plan and its own copy of the task's
# environment file (`RUN/NNN/env_NNN.json`, `RUN/NNN/plan_NNN.txt`), as Simmer's runs lay them
# out. The 604 dev plans of the benchmark's tasks (the worked example 900 aside) are dealt
# round-robin into the runs. Both sides are timed in CPU seconds, in one run, alternately:
#   - Simmer: one interpreter, `KitchenStateMachine(env, action_def).execute_plan_file(plan)`
#     per plan, as ../shared/perf/worker.py runs it (imports not counted);
#   - pddlc: the whole process, `kitchen eval RUN… --bootstrap 0 --format csv --jobs 1`
#     (start-up, listing, reading and writing counted), user + system time from perf stat.
#
#   SIMMER_SRC=/path/to/SIMMER benches/kitchen_heldout.sh     (psunlpgroup/SIMMER @ 2390231;
#   needs python3 and Linux perf for the CPU times)
#
# Environment: SHARED (default ../shared), REPEATS (default 5), PDDLC (a binary to measure
# instead of building target/release/pddlc). Read the ratio, not the absolute times.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
REPEATS=${REPEATS:-5}
: "${SIMMER_SRC:?set SIMMER_SRC to a checkout of Simmer (its simmer/ and world_model/ folders)}"
if [ -z "${PDDLC:-}" ]; then
    cargo build --release --quiet
    PDDLC=$PWD/target/release/pddlc
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$SHARED/kitchen" "$work/runs" <<'PY'
import json, os, shutil, sys
kitchen, out = sys.argv[1], sys.argv[2]
rows = [json.loads(line) for line in open(os.path.join(kitchen, 'plans/dev/verdicts.jsonl'))]
rows = [r for r in rows if r['task'] != '900']
taken = set()
for i, r in enumerate(rows):
    run = i % 17
    while (run, r['task']) in taken:
        run = (run + 1) % 17
    taken.add((run, r['task']))
    folder = os.path.join(out, f'run{run:02}', r['task'])
    os.makedirs(folder, exist_ok=True)
    shutil.copy(os.path.join(kitchen, r['env']), os.path.join(folder, f"env_{r['task']}.json"))
    shutil.copy(os.path.join(kitchen, r['plan']), os.path.join(folder, f"plan_{r['task']}.txt"))
print(f'{len(taken)} plans in 17 run folders, an environment file per plan')
PY

cat >"$work/simmer.py" <<'PY'
import glob, os, sys, time
sys.path.insert(0, os.environ['SIMMER_SRC'])
import simmer.state_machine as sm
from simmer.paths import ACTION_DEFS
plans = sorted(glob.glob(os.path.join(sys.argv[1], '*', '*', 'plan_*.txt')))
start = time.process_time()
for plan in plans:
    env = glob.glob(os.path.join(os.path.dirname(plan), 'env_*.json'))[0]
    sm.KitchenStateMachine(env, str(ACTION_DEFS)).execute_plan_file(plan)
print(f'{time.process_time() - start:.4f}')
PY

simmer=() pddlc=()
for _ in $(seq "$REPEATS"); do
    simmer+=("$(python3 "$work/simmer.py" "$work/runs")")
    # Exit 1: plans with failures, as expected.
    cpu=$({ perf stat -x, -e user_time,system_time "$PDDLC" kitchen eval "$work"/runs/* \
        --bootstrap 0 --format csv --jobs 1 2>&1 >/dev/null || true; } |
        awk -F, '{ s += $1 } END { printf "%.4f", s / 1e9 }')
    pddlc+=("$cpu")
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
s=$(median "${simmer[@]}") p=$(median "${pddlc[@]}")
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "Simmer's executor, one interpreter: $s s CPU (median of $REPEATS)"
echo "pddlc kitchen eval, one process, one thread: $p s CPU (median of $REPEATS)"
echo "ratio: $(echo "scale=1; $s / $p" | bc)x"
