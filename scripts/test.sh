#!/usr/bin/env bash
# The tests, as the README's step 2 runs them: the Rust crate's (`cargo test --release`), then
# the Python package's: `pip install ./python` into a virtual environment under target/ and
# `pytest python/tests` there. Arguments go to pytest.
#
# The extension is built by maturin with the release profile into the same target/ directory,
# so it reuses the dependencies `cargo test --release` compiled; it compiles PyO3, the library
# without the `cli` feature and the binding (README, "Set-up on a fresh machine", says what it
# costs). Needs python3 (3.9 or later) with venv and pip, and PyPI for maturin and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --release

PYTHON=${PYTHON:-python3}
VENV=target/py-venv
if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -m venv "$VENV"
fi
# Gymnasium and Ray: the optional dependencies of pddlc.gym and pddlc.distributed, installed so
# that their tests run.
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip pytest gymnasium ray
# --force-reinstall: the version does not change between commits, the code does.
echo "building the Python extension with maturin (release; a few minutes on a cold build)..." >&2
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps ./python
# The CLI comparisons run the binary `cargo test --release` built.
export PDDLC_BIN="$PWD/target/release/pddlc"
"$VENV/bin/python" -m pytest python/tests "$@"
