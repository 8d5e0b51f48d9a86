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

echo "== python: the wheel (maturin build --release), its metadata (twine check), installed into a fresh venv outside the clone"
# The same build as maturin develop's above, so cargo reuses it.
rm -rf target/wheels
"$venv/bin/maturin" build --release -m python/Cargo.toml --out target/wheels </dev/null
wheel=$(ls target/wheels/knightnet-*.whl)
"$venv/bin/python" -m twine check --strict "$wheel"
away=$(mktemp -d)
trap 'rm -rf "$away"' EXIT
"$python" -m venv "$away/venv"
"$away/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
    -c python/requirements-ci.txt "$wheel"
(cd "$away" && "$away/venv/bin/python" - "$away" <<'PY'
import os, sys
import knightnet as kn

away = os.path.realpath(sys.argv[1])
where = os.path.realpath(kn.__file__)
assert where.startswith(away + os.sep), f"knightnet imported from {where}, not from the fresh venv"
t = kn.solve("8x8", solver="warnsdorff", seed=1)
assert kn.is_tour("8x8", t.tour, closed=False) and len(t.tour) == 64
res = kn.experiment("quickstart", out="q")
done = res.summary()["trials_done"]
assert done > 0, done
try:
    res.records()
    raise AssertionError("records() worked without pandas")
except ImportError as e:
    assert "knightnet[pandas]" in str(e), e
print(f"the wheel runs outside the clone: {where}; an 8x8 tour; quickstart, {done} trials")
PY
)
