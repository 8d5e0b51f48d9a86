#!/usr/bin/env bash
# CI for the Python package (python/): lint the bindings, build them into a virtual
# environment made from PyPI (pinned in python/requirements-ci.txt), run the pytest suite.
# Run from anywhere: `bash python/ci.sh`. Needs only Rust and Python 3 (>= 3.11 for the
# pinned numpy and pandas; the package itself supports 3.9+). Never reads stdin.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

venv=target/ci-venv
python=${PYTHON:-python3}

echo "== python: virtual environment $venv ($("$python" --version))"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
    -r python/requirements-ci.txt

echo "== python: cargo clippy -p knightnet-python --all-targets -- -D warnings"
cargo clippy -p knightnet-python --all-targets -- -D warnings

echo "== python: cargo build --release (the command line the tests compare with)"
cargo build --release --bin knightnet

echo "== python: maturin develop --release -m python/Cargo.toml"
# maturin installs into the environment named by VIRTUAL_ENV.
VIRTUAL_ENV="$PWD/$venv" PATH="$PWD/$venv/bin:$PATH" \
    "$venv/bin/maturin" develop --release -m python/Cargo.toml </dev/null

echo "== python: pytest python/tests"
"$venv/bin/python" -m pytest python/tests -q -p no:cacheprovider </dev/null
