#!/usr/bin/env bash
# Regenerates the screenshots of the HTML pages in docs/images/ (docs/reports.md) from the
# shipped fixtures, with headless Chromium (Debian's `chromium`). Builds the binary first.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
BROWSER=${CHROMIUM:-chromium}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pages=docs/images
mkdir -p "$pages"

target/release/pddlc validate domains/blocksworld/domain.pddl domains/blocksworld/problem.pddl \
  fixtures/html/validate/valid.plan fixtures/html/validate/invalid.plan \
  fixtures/html/validate/short.plan --html "$work/validate.html" >/dev/null || true

temporal=fixtures/validate/V306_temporal_end_condition
target/release/pddlc validate "$temporal/domain.pddl" "$temporal/problem.pddl" "$temporal/plan.txt" \
  --html "$work/validate-temporal.html" >/dev/null || true

target/release/pddlc solve domains/blocksworld/domain.pddl domains/blocksworld/problem.pddl \
  --html "$work/solve.html" >/dev/null
target/release/pddlc solve domains/blocksworld/domain.pddl \
  fixtures/solve/unsolvable_arm_never_empty/problem.pddl --html "$work/solve-unsolvable.html" >/dev/null || true

planner=domains/kitchen/examples/runs/planner
target/release/pddlc kitchen eval "$planner:planner" "$planner:again" --bootstrap 2000 \
  --html "$work/kitchen-eval.html" >/dev/null || true

# The first grid cell unfolded into its episodes' replays.
pc=fixtures/plancraft/eval
target/release/pddlc plancraft eval --bootstrap 2000 --examples "$pc/examples.json" \
  --oracle "$pc/runs/oracle" "$pc/runs/alpha" "$pc/runs/beta.jsonl" --html "$work/plancraft.html" >/dev/null || true
sed '0,/<details>/s//<details open>/' "$work/plancraft.html" >"$work/plancraft-eval.html"
# The example grid alone: the parts above it left out.
sed -e '/<h2>Results<\/h2>/,/<h2>Examples<\/h2>/{/<h2>Examples<\/h2>/!d}' -e '0,/<details>/s//<details open>/' \
  "$work/plancraft.html" >"$work/plancraft-eval-grid.html"

target/release/pddlc score --functional --pairs fixtures/html/score/pairs.jsonl \
  --html "$work/score.html" >/dev/null || true
# The pairs with their details unfolded: the parts above them left out, every <details> open.
sed -e '/<h2>Summary<\/h2>/,/<h2>Pairs<\/h2>/{/<h2>Pairs<\/h2>/!d}' -e 's/<details>/<details open>/g' \
  "$work/score.html" >"$work/score-pairs.html"

for page in validate validate-temporal solve solve-unsolvable kitchen-eval plancraft-eval plancraft-eval-grid score score-pairs; do
  "$BROWSER" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
    --user-data-dir="$work/profile" --window-size=1100,1400 \
    --screenshot="$pages/$page.png" "file://$work/$page.html" 2>/dev/null
  echo "$pages/$page.png"
done
