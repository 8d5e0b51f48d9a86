"""`experiment`: the same records and summary as `knightnet experiment` for the same
spec, resume, records as a DataFrame and as numpy arrays, and the command line's errors."""

import csv
import json
import sys

import numpy as np
import pandas as pd
import pytest

import knightnet as kn
from conftest import cli_error

SPEC = """
name = "py-small"
seed = 3
trials = 60
boards = ["6x6"]

[[solver]]
solver = "network:parberry"

[[solver]]
solver = "network+merge:brant"
trials = 20

[[solver]]
solver = "warnsdorff:random"
start = "random"
boards = ["6x6", "5x5"]

[[solver]]
solver = "backtrack"
boards = ["5x5"]
start = "corner"
trials = 5
"""


def without_timing(value):
    """Drop every key ending in `_ns` (timings differ between runs)."""
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items() if not k.endswith("_ns")}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value


def plain(df):
    """A DataFrame as rows of plain Python values sorted by (cell, trial), None for a
    missing value (an empty text in the CSV is missing too)."""
    df = df[[c for c in df.columns if not c.endswith("_ns")]]
    df = df.sort_values(["cell", "trial"], kind="stable")
    return [
        [None if pd.isna(x) or x == "" else (x.item() if hasattr(x, "item") else x) for x in row]
        for row in df.astype(object).itertuples(index=False)
    ]


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    path = tmp_path_factory.mktemp("spec") / "small.toml"
    path.write_text(SPEC)
    return path


@pytest.fixture(scope="module")
def cli_run(cli, spec, tmp_path_factory):
    out = tmp_path_factory.mktemp("cli") / "run"
    cli("experiment", spec, "--out", out, "--threads", "2", "--quiet")
    return out


def test_records_and_summary_are_the_command_lines(spec, cli_run, tmp_path):
    res = kn.experiment(spec, out=tmp_path / "py", threads=1)
    assert (res.planned, res.ran, res.already_done, res.interrupted) == (205, 205, 0, False)
    ours = res.records()
    theirs = pd.read_csv(cli_run / "records.csv", keep_default_na=False, na_values=[""])
    assert list(ours.columns) == list(theirs.columns)
    assert plain(ours) == plain(theirs)
    assert without_timing(res.summary()) == without_timing(
        json.loads((cli_run / "summary.json").read_text())
    )
    info = res.run_info()
    assert info["engine_version"] == kn.ENGINE_VERSION and info["complete"]
    assert info["spec"] == json.loads((cli_run / "run.json").read_text())["spec"]


def test_arrays_hold_the_records(spec, cli_run):
    res = kn.open_results(cli_run)
    arrays = res.arrays()
    df = res.records()
    assert list(arrays) == list(df.columns)
    assert arrays["seed"].dtype == np.uint64 and arrays["trial"].dtype == np.int64
    assert arrays["outcome"].dtype.kind == "U"
    assert isinstance(arrays["steps"], np.ma.MaskedArray)
    for name, column in arrays.items():
        expected = df[name].tolist()
        if isinstance(column, np.ma.MaskedArray):
            got = [None if m else v for v, m in zip(column.data.tolist(), np.ma.getmaskarray(column).tolist())]
            expected = [None if pd.isna(x) else x for x in expected]
        else:
            got = column.tolist()
        assert got == expected, name
    # Network cells have no search steps; the search solver has them.
    network = np.char.startswith(arrays["solver"], "network")
    assert np.ma.getmaskarray(arrays["steps"])[network].all()
    assert not np.ma.getmaskarray(arrays["steps"])[arrays["solver"] == "backtrack"].any()


def test_seeds_above_2_63_are_read_exactly(cli, tmp_path):
    # A float64 (R's numeric, a spreadsheet) rounds seeds above 2^53; records() keeps them
    # as uint64, and so does pandas' read_csv with dtype={"seed": "uint64"}.
    spec = tmp_path / "high.toml"
    spec.write_text(
        'name = "high"\nseed = 18446744073709551557\ntrials = 40\nboards = ["6x6"]\n'
        '[[solver]]\nsolver = "network:parberry"\n'
    )
    out = tmp_path / "run"
    cli("experiment", spec, "--out", out, "--threads", "1", "--quiet")
    with open(out / "records.csv") as f:
        written = [int(r["seed"]) for r in csv.DictReader(f)]
    assert max(written) > 2**63
    expected = [kn.trial_seed(18446744073709551557, "parberry/6x6", t) for t in range(40)]
    assert sorted(written) == sorted(expected)
    df = kn.open_results(out).records()
    assert df["seed"].dtype == np.uint64
    assert [int(x) for x in df["seed"]] == written
    assert [int(x) for x in kn.open_results(out).arrays()["seed"]] == written
    read = pd.read_csv(out / "records.csv", dtype={"seed": "uint64"})
    assert [int(x) for x in read["seed"]] == written
    # A record's seed replays its trial: the first attempt of Network(board, seed=SEED).
    row = df.iloc[0]
    net = kn.Network("6x6", seed=int(row["seed"]))
    assert sum(1 for _ in net.steps()) == row["iterations"]


def test_resume_runs_only_the_missing_trials(spec, cli_run, tmp_path):
    out = tmp_path / "py"
    kn.experiment(spec, out=out, threads=2)
    records = out / "records.csv"
    lines = records.read_text().splitlines(keepends=True)
    records.write_text("".join(lines[:51]) + lines[51][:17])  # 50 rows and half a line
    res = kn.experiment(spec, out=out, resume=True, threads=2)
    assert (res.already_done, res.ran) == (50, 155)
    theirs = pd.read_csv(cli_run / "records.csv", keep_default_na=False, na_values=[""])
    assert plain(res.records()) == plain(theirs)
    assert len(res.run_info()["sessions"]) == 2


def test_experiment_errors_are_the_command_lines(cli, spec, cli_run, tmp_path):
    with pytest.raises(ValueError) as err:
        kn.experiment(spec, out=cli_run)
    # The same sentence, its settings named as keyword arguments.
    ours = str(err.value)
    assert ours == f"{cli_run} already holds a run; pass resume=True to continue it, or choose another out"
    theirs = f"{cli_run} already holds a run; pass --resume to continue it, or choose another --out"
    assert cli_error(cli, "experiment", spec, "--out", cli_run).endswith(theirs)
    missing = tmp_path / "missing.toml"
    with pytest.raises(ValueError) as err:
        kn.experiment(missing, out=tmp_path / "x")
    assert cli_error(cli, "experiment", missing, "--out", tmp_path / "x").endswith(str(err.value))
    bad = tmp_path / "bad.toml"
    bad.write_text(SPEC.replace('"backtrack"', '"backtrak"'))
    with pytest.raises(ValueError) as err:
        kn.experiment(bad, out=tmp_path / "y")
    assert cli_error(cli, "experiment", bad, "--out", tmp_path / "y").endswith(str(err.value))
    for threads in (0, 5000):
        with pytest.raises(ValueError, match=rf"^threads={threads} is not accepted; give 1 to \d+$"):
            kn.experiment(spec, out=tmp_path / "z", threads=threads)
    with pytest.raises(ValueError, match="^shard='3/2' is not accepted"):
        kn.experiment(spec, out=tmp_path / "z", shard="3/2")
    with pytest.raises(ValueError, match="no run.json"):
        kn.open_results(tmp_path)


def test_built_in_spec_runs_from_any_folder(cli, tmp_path, monkeypatch):
    theirs = tmp_path / "cli"
    cli("experiment", "--out", theirs, "--quiet")  # no spec: the built-in quickstart
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # no experiments/ folder here
    expected = pd.read_csv(theirs / "records.csv", keep_default_na=False, na_values=[""])
    cli_info = json.loads((theirs / "run.json").read_text())
    for spec, out in (("quickstart", "by-name"), (None, "default")):
        res = kn.experiment(spec, out=out)
        assert res.planned == res.ran == len(expected) > 0
        assert plain(res.records()) == plain(expected)
        assert without_timing(res.summary()) == without_timing(
            json.loads((theirs / "summary.json").read_text())
        )
        info = res.run_info()
        assert info["spec"] == cli_info["spec"]
        assert info["spec_source"] == cli_info["spec_source"] == "built-in quickstart.toml"


def test_unknown_built_in_spec_names_the_built_in_ones(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError) as err:
        kn.experiment("quickstrat")
    assert str(err.value).startswith(
        "unknown built-in spec 'quickstrat'; did you mean 'quickstart'? accepted: quickstart; "
    )
    assert not (tmp_path / "results").exists()
    # The file's path outside a clone: the message points to the built-in spec.
    with pytest.raises(ValueError) as err:
        kn.experiment("experiments/quickstart.toml")
    assert str(err.value) == (
        "spec experiments/quickstart.toml does not exist; give a TOML file; the built-in "
        'spec of that name runs from any folder: experiment("quickstart")'
    )
    # A file is named with a folder or a suffix; a bare name never reads one.
    (tmp_path / "quickstart").write_text("not a spec")
    assert kn.experiment("quickstart", out="q").planned > 0
    with pytest.raises(ValueError, match="quickstart"):
        kn.experiment("./quickstart", out="r")


def test_records_without_pandas_names_the_extra(spec, cli_run, monkeypatch):
    res = kn.open_results(cli_run)
    monkeypatch.setitem(sys.modules, "pandas", None)  # `import pandas` fails
    with pytest.raises(ImportError, match=r"pip install pandas \(the extra knightnet\[pandas\]"):
        res.records()
    assert len(res.arrays()["trial"]) == 205  # numpy columns need no pandas


def test_records_beyond_the_knight_carry_their_geometry(cli, tmp_path):
    """A spec with cells beyond the knight: the records' geometry columns, as the command
    line writes them."""
    spec = tmp_path / "beyond.toml"
    spec.write_text(
        'seed = 4\ntrials = 5\nboards = ["6x6"]\n\n'
        '[[solver]]\nsolver = "network:parberry"\n\n'
        '[[solver]]\nsolver = "network:parberry"\nsurface = "torus"\n\n'
        '[[solver]]\nsolver = "warnsdorff"\nstart = "random"\nleaper = "zebra"\nboards = ["10x10"]\n'
    )
    res = kn.experiment(spec, out=tmp_path / "py", threads=1)
    cli("experiment", spec, "--out", tmp_path / "cli", "--threads", "2", "--quiet")
    ours = res.records()
    # A start beyond the knight is a vertex number, written as text like a square's name.
    theirs = pd.read_csv(
        tmp_path / "cli" / "records.csv", keep_default_na=False, na_values=[""], dtype={"start": str}
    )
    assert list(ours.columns)[-4:] == ["leaper", "surface", "shape", "graph"]
    assert list(ours.columns) == list(theirs.columns)
    assert plain(ours) == plain(theirs)
    by_cell = ours.groupby("cell")
    assert set(by_cell.get_group(1)["surface"]) == {"torus"}
    assert set(by_cell.get_group(2)["leaper"]) == {"2,3"}
