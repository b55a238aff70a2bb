"""Shared helpers: the repository, `../shared` (the reference data), and the `pddlc` binary.

Tests that need a part of `../shared` skip with a message when it is absent, except under CI
(`CI` set), where its absence fails them: CI cannot pass while checking nothing. The same rule
as the Rust tests (tests/common/mod.rs).
"""

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
BLOCKS = REPO / "domains" / "blocksworld"
SALAD = REPO / "domains" / "kitchen" / "examples" / "salad"


def under_ci() -> bool:
    return bool(os.environ.get("CI"))


def shared_root() -> Path:
    given = os.environ.get("PDDLC_SHARED")
    return Path(given) if given else REPO.parent / "shared"


def need_shared(*parts: str) -> Path:
    """`../shared` when it holds every part, else skip (fail under CI)."""
    root = shared_root()
    absent = [p for p in parts if not (root / p).exists()]
    if absent:
        what = " and ".join(str(root / p) for p in absent)
        if under_ci():
            pytest.fail(f"{what} absent; under CI nothing may be skipped")
        pytest.skip(f"{what} absent; this test checked nothing")
    return root


def read_text(path: Path) -> str:
    """A file's text exactly as stored: UTF-8, no newline translation."""
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def cli_binary() -> Path:
    """The `pddlc` binary the Rust build made (`PDDLC_BIN`, else target/release/pddlc)."""
    given = os.environ.get("PDDLC_BIN")
    path = Path(given) if given else REPO / "target" / "release" / "pddlc"
    if not path.exists():
        if under_ci():
            pytest.fail(f"{path} is absent: build it with `cargo build --release`")
        pytest.skip(f"{path} is absent (cargo build --release); this test checked nothing")
    return path


def cli(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    """Runs the binary with `args` from the repository root, without colour."""
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run(
        [str(cli_binary()), *args], cwd=cwd, capture_output=True, text=True, env=env
    )


def fixture_dirs(stage: str):
    """The fixture directories of a stage, sorted, as pytest parameters named after them.

    Finding none fails the collection: pytest would skip a test given no parameters, so a
    moved or emptied fixture folder would pass unnoticed."""
    dirs = sorted(p for p in (FIXTURES / stage).iterdir() if p.is_dir())
    assert dirs, f"no fixture directories in {FIXTURES / stage}"
    return [pytest.param(d, id=d.name) for d in dirs]


def fixture_files(stage: str, pattern: str = "*.pddl"):
    """The fixture files of a stage, sorted, as pytest parameters named after them; finding
    none fails, as in `fixture_dirs`."""
    files = sorted((FIXTURES / stage).glob(pattern))
    assert files, f"no {pattern} fixtures in {FIXTURES / stage}"
    return [pytest.param(f, id=f.name) for f in files]
