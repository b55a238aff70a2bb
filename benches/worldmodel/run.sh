#!/usr/bin/env bash
# pddlc.Env and PDDLGym side by side (env_side_by_side.py), in a venv of its own under target/:
# PDDLGym 0.0.7 (with gym 0.26) from PyPI and the pddlc package built from ./python. Arguments
# go to the script (--repeat N, --limit N, --shared DIR).
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=target/bench-worldmodel-venv
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check pddlgym==0.0.7
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps ./python
exec "$VENV/bin/python" -W ignore benches/worldmodel/env_side_by_side.py "$@"
