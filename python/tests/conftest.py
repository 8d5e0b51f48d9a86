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


def published_update(net):
    """U and V after one synchronous step of `net` by Takefuji & Lee's rule, computed with
    numpy from its arrays: dU = C - deg(a) - deg(b) + (2 - S) V over each neuron's two
    vertices, then V by hysteresis on U (and U clamped when the parameters say so)."""
    import numpy as np

    p = net.params
    a, b = net.edges[:, 0], net.edges[:, 1]
    u, v, deg = net.u.astype(np.int64), net.v, net.degrees.astype(np.int64)
    u1 = u + p["c"] - deg[a] - deg[b] + (2 - p["s"]) * v
    if p["clamp"] is not None:
        u1 = np.clip(u1, -p["clamp"], p["clamp"])
    v1 = np.where(u1 > p["upper"], 1, np.where(u1 < p["lower"], 0, v))
    return u1, v1
