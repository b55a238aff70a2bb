#!/usr/bin/env bash
# How long headless Chromium (Debian's `chromium`) takes over each HTML page given: the median
# of RUNS (default 5) runs of `--dump-dom`, as wall time beside an empty page's (the browser's
# own start), and the page's load event (ms after navigation starts, read from a copy of the
# page with one line of script that logs it). docs/reports.md quotes these figures.
#
#   scripts/page_load.sh /tmp/score.html /tmp/kitchen.html
set -euo pipefail
BROWSER=${CHROMIUM:-chromium}
RUNS=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>empty</title></head><body></body></html>\n' >"$work/empty.html"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

measure() {
  local page=$1 timed="$work/timed.html" walls=() loads=()
  # The copy logs the load event; a <script> before <title> runs before the body is parsed.
  sed '0,/<title>/s//<script>addEventListener("load",function(){console.log("pddlc-load "+performance.now())})<\/script><title>/' \
    "$page" >"$timed"
  for _ in $(seq "$RUNS"); do
    local start end
    start=$(date +%s.%N)
    "$BROWSER" --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
      --disable-background-networking --disable-component-update --disable-sync \
      --enable-logging=stderr --v=0 --user-data-dir="$work/profile" --dump-dom \
      "file://$timed" >/dev/null 2>"$work/stderr"
    end=$(date +%s.%N)
    walls+=("$(echo "$end - $start" | bc)")
    loads+=("$(grep -o 'pddlc-load [0-9.]*' "$work/stderr" | awk '{ print $2 }' || echo NA)")
  done
  printf '%s\t%s bytes\twall %s s\tload %s ms\n' "$page" "$(wc -c <"$page")" \
    "$(printf '%s\n' "${walls[@]}" | median)" "$(printf '%s\n' "${loads[@]}" | median)"
}

measure "$work/empty.html"
for page in "$@"; do
  measure "$page"
done
