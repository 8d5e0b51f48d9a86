"""Shared fixtures: the repository root and the command-line binary the bindings are
compared with (target/release/knightnet, from `cargo build --release`)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def binary() -> Path:
    path = Path(os.environ.get("KNIGHTNET_BIN", ROOT / "target" / "release" / "knightnet"))
    if not path.is_file():
        pytest.fail(f"{path} is missing: run `cargo build --release` first (docs/python.md; python/ci.sh does)")
    return path


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def cli():
    """Run the command line; returns the completed process (stdout, stderr as text)."""
    exe = binary()

    def run(*args, check=True):
        done = subprocess.run(
            [str(exe), *map(str, args)],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=600,
        )
        if check and done.returncode != 0:
            raise AssertionError(f"knightnet {' '.join(map(str, args))}: {done.stderr}")
        return done

    return run


@pytest.fixture(scope="session")
def cli_json(cli):
    """`knightnet solve ... --format json` as a dict (it exits 1 when no tour was found,
    after printing the solution)."""

    def run(*args):
        done = cli("solve", *args, "--format", "json", check=False)
        assert done.returncode in (0, 1) and done.stdout, done.stderr
        return json.loads(done.stdout)

    return run


def cli_error(cli, *args) -> str:
    """The message of a command that fails with bad input (exit 2), without `error: `."""
    done = cli(*args, check=False)
    assert done.returncode == 2, (done.returncode, done.stderr)
    line = done.stderr.strip().splitlines()[0]
    assert line.startswith("error: "), line
    return line[len("error: "):]
