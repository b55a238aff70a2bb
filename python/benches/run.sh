#!/usr/bin/env bash
# The Python benchmark in a virtual environment of its own (target/py-bench): the peers at the
# versions ../shared/perf/README.md names, and pddlc from ./python. Arguments go to bench.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=target/py-bench
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    pypddl==1.7.0 pddl==0.5.1 tarski==0.9.1 numpy scipy
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps ./python
cargo build --release --bin pddlc
"$VENV/bin/python" python/benches/bench.py "$@"
