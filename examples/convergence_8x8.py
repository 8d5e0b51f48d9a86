"""The 8x8 convergence curves of plots/convergence-8x8.png, computed from Python.

Steps 50 networks (preset parberry, one attempt each from the seeds
`trial_seed(1, "parberry/8x8", i)`: what `knightnet convergence --board 8x8 --runs 50
--seed 1` runs, trials 0..49 of an experiment cell parberry on 8x8 with seed 1, and
listed in plots/convergence-8x8-runs.csv), records the active
neurons, the squares off degree 2 and the neurons whose U changed after every sweep,
and summarises them per sweep as the library does: each run holds its last value after
it stops, then the mean and the 10th and 90th percentiles (linear interpolation) over
the runs. The numbers are checked against the committed plots/convergence-8x8.csv and
drawn with matplotlib.

    maturin develop --release -m python/Cargo.toml
    python examples/convergence_8x8.py --out convergence-8x8-python.png

Exits 1 if the numbers differ from the committed CSV (which holds six significant
digits).
"""

import argparse
import csv
import sys
from pathlib import Path

import numpy as np

import knightnet as kn

ROOT = Path(__file__).resolve().parents[1]
MEASURES = [
    ("active", "Active neurons (V = 1)"),
    ("off_two", "Squares off degree 2"),
    ("changed", "Neurons whose U changed"),
]


def runs(board="8x8", preset="parberry", seed=1, count=50):
    """Per run, a (sweeps, 3) array of active, off_two, changed after every sweep."""
    out = []
    for i in range(count):
        net = kn.Network(board, preset=preset, seed=kn.trial_seed(seed, f"{preset}/{board}", i))
        out.append(np.array([(s.active, s.off_two, s.changed) for s in net.steps()]))
    return out


def bands(series):
    """Mean, p10, p90 per sweep over runs of different lengths (each holds its last
    value), as arrays of shape (sweeps, 3 measures)."""
    longest = max(len(r) for r in series)
    held = np.stack([np.concatenate([r, np.repeat(r[-1:], longest - len(r), axis=0)]) for r in series])
    return held.mean(axis=0), np.quantile(held, 0.1, axis=0), np.quantile(held, 0.9, axis=0)


def committed(path):
    """mean, p10, p90 arrays of the committed CSV's parberry rows."""
    with open(path) as f:
        rows = [r for r in csv.DictReader(f) if r["configuration"] == "parberry"]
    pick = lambda stat: np.array([[float(r[f"{m}_{stat}"]) for m, _ in MEASURES] for r in rows])
    return pick("mean"), pick("p10"), pick("p90")


def draw(series, mean, low, high, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sweeps = np.arange(1, len(mean) + 1)
    fig, axes = plt.subplots(1, 3, figsize=(10.5, 4.6), constrained_layout=True)
    for k, (ax, (_, title)) in enumerate(zip(axes, MEASURES)):
        first = series[0][:, k]
        ax.plot(np.arange(1, len(first) + 1), first, color="0.6", lw=0.8, label="run 0")
        ax.fill_between(sweeps, low[:, k], high[:, k], alpha=0.25, label="10-90 percentile")
        ax.plot(sweeps, mean[:, k], lw=2.2, label="mean")
        ax.set_xscale("log")
        ax.set_title(title)
        ax.set_xlabel("sweep")
    axes[0].legend()
    fig.suptitle(f"Network parberry on 8x8: {len(series)} seeded runs (knightnet from Python)")
    fig.savefig(out, dpi=100)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="convergence-8x8-python.png", help="figure to write")
    parser.add_argument("--check", default=ROOT / "plots" / "convergence-8x8.csv", help="CSV to compare with")
    args = parser.parse_args()

    series = runs()
    mean, low, high = bands(series)
    tours = sum(1 for s in series if s[-1, 1] == 0)
    print(f"{len(series)} runs, {len(mean)} sweeps in the longest, {tours} ended with every square at degree 2")
    expected = committed(args.check)
    if expected[0].shape != mean.shape:
        print(f"differs from {args.check}: {expected[0].shape[0]} sweeps there, {mean.shape[0]} here")
        return 1
    # The CSV holds six significant digits: a match is within half a unit of the sixth.
    worst = max(
        float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-300)))
        for a, b in zip((mean, low, high), expected)
    )
    if worst > 5e-6:
        print(f"differs from {args.check}: largest relative difference {worst}")
        return 1
    print(f"matches {args.check} (largest relative difference {worst:.1e})")
    draw(series, mean, low, high, args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
