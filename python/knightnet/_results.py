"""Experiments: run a spec into a results folder and read what it holds."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, Optional, Union

import numpy as np

from . import _knightnet

PathLike = Union[str, "os.PathLike[str]"]

# Columns whose cells may be empty, and the type of their values (a column with no
# value at all still gets its type).
_OPTIONAL = {
    "start": str,
    "cycles": int,
    "largest_cycle": int,
    "steps": int,
    "merged": bool,
    "swaps": int,
    "network_ns": int,
    "merge_ns": int,
}
# Unsigned 64-bit columns (a seed may exceed the int64 range).
_UNSIGNED = {"seed"}


def _kind(name: str, values: list) -> type:
    if name in _OPTIONAL:
        return _OPTIONAL[name]
    for v in values:
        if v is not None:
            return type(v)
    return str


class Results:
    """A results folder of ``knightnet experiment``: ``records.csv``, ``run.json``,
    ``summary.json`` and ``summary.md``.

    ``experiment()`` returns one with what the run did (``planned``, ``ran``,
    ``already_done``, ``interrupted``); :func:`open_results` opens an existing folder
    (those are then ``None``).
    """

    def __init__(self, out: PathLike, report: Optional[Dict[str, Any]] = None) -> None:
        self.out = Path(out)
        report = report or {}
        self.planned: Optional[int] = report.get("planned")
        self.ran: Optional[int] = report.get("ran")
        self.already_done: Optional[int] = report.get("already_done")
        self.interrupted: Optional[bool] = report.get("interrupted")

    def __repr__(self) -> str:
        return f"Results({str(self.out)!r})"

    def _columns(self) -> Dict[str, list]:
        return _knightnet.read_records(self.out)

    def arrays(self) -> Dict[str, np.ndarray]:
        """The records as one numpy array per column (``records.csv``'s columns, in
        order): integers as ``int64`` (``seed`` as ``uint64``), flags as ``bool``, text
        as ``str``; columns that may be empty (``cycles``, ``steps``, ``start``, ...) as
        masked arrays, masked where the record has no value."""
        out: Dict[str, np.ndarray] = {}
        for name, values in self._columns().items():
            kind = _kind(name, values)
            mask = [v is None for v in values]
            if kind is int:
                dtype = np.uint64 if name in _UNSIGNED else np.int64
                filled = [0 if v is None else v for v in values]
            elif kind is bool:
                dtype = np.bool_
                filled = [False if v is None else v for v in values]
            elif kind is float:
                dtype = np.float64
                filled = [np.nan if v is None else v for v in values]
            else:
                dtype = np.str_
                filled = ["" if v is None else v for v in values]
            array = np.array(filled, dtype=dtype)
            if name in _OPTIONAL:
                array = np.ma.masked_array(array, mask=np.array(mask, dtype=bool))
            out[name] = array
        return out

    def records(self):  # -> pandas.DataFrame
        """The records as a pandas DataFrame, one row per trial in file order; columns
        that may be empty use pandas' nullable types (``Int64``, ``UInt64``,
        ``boolean``), with ``<NA>`` where the record has no value.

        Needs pandas (``pip install pandas``; the package's extra ``knightnet[pandas]``
        installs it); without it, :meth:`arrays` gives the same columns."""
        try:
            import pandas as pd
        except ImportError as e:
            raise ModuleNotFoundError(
                "Results.records() needs pandas, which is not installed: pip install pandas "
                "(the extra knightnet[pandas] installs it); Results.arrays() gives the same "
                "columns as numpy arrays without it",
                name="pandas",
            ) from e

        data = {}
        for name, column in self.arrays().items():
            if not isinstance(column, np.ma.MaskedArray):
                data[name] = column
                continue
            values, mask = column.data, np.ma.getmaskarray(column)
            if values.dtype.kind in "iu":
                data[name] = pd.arrays.IntegerArray(values, mask)
            elif values.dtype.kind == "b":
                data[name] = pd.arrays.BooleanArray(values, mask)
            else:
                data[name] = pd.array(
                    [None if m else v for v, m in zip(values.tolist(), mask.tolist())],
                    dtype=object,
                )
        return pd.DataFrame(data)

    def summary(self) -> Dict[str, Any]:
        """``summary.json``: per cell, outcome shares with 95% Wilson intervals, median
        and mean iterations, attempts and time per tour."""
        return json.loads((self.out / "summary.json").read_text())

    def run_info(self) -> Dict[str, Any]:
        """``run.json``: versions, the resolved spec, shard, and the sessions that ran."""
        return json.loads((self.out / "run.json").read_text())


def experiment(
    spec: Optional[PathLike] = None,
    out: Optional[PathLike] = None,
    *,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    resume: bool = False,
) -> Results:
    """Run (or resume, or one shard of) an experiment spec into a results folder, as
    ``knightnet experiment SPEC --out OUT`` does: the same records for the same spec.

    ``spec``: a TOML spec file, or the bare name of a spec built into the package
    (``"quickstart"``, the same spec as ``experiments/quickstart.toml``; it runs from any
    folder); default: the built-in quickstart spec, as on the command line. A bare name is
    one path component without a suffix; a spec file is named with a folder or a ``.toml``
    suffix (``./myspec.toml``). ``out``: the results folder (default ``results/NAME``); ``threads`` (1 to 1024, default: the
    machine's cores; never changes a result); ``shard`` ``"I/N"``; ``resume``: continue
    the run in ``out``, skipping trials already recorded.

    Runs without the GIL. Ctrl-C (``KeyboardInterrupt``) stops after the trials in
    flight and is raised again; the folder then holds valid records and a summary of
    what finished, and ``resume=True`` continues it. Bad input raises ``ValueError`` (an
    unknown built-in name: the list of built-in names).
    """
    report = _knightnet.run_experiment(
        None if spec is None else os.fspath(spec),
        None if out is None else os.fspath(out),
        threads=threads,
        shard=shard,
        resume=resume,
    )
    return Results(report["out"], report)


def open_results(out: PathLike) -> Results:
    """An existing results folder (``ValueError`` if it holds no run)."""
    path = Path(out)
    if not (path / "run.json").is_file():
        raise ValueError(f"{path} holds no run.json; it is not a results folder")
    return Results(path)
