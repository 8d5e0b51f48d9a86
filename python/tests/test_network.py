"""`Network`: stepping from Python with U, V and degrees as numpy arrays; the same steps
as `knightnet convergence`, the same runs and traces as `knightnet solve`."""

import csv
import json

import numpy as np
import pytest

import knightnet as kn
from conftest import published_update


def convergence_run(cli, tmp_path, board, seed, *flags):
    """Run 0 of `convergence --runs 1`: its configuration (the name that replays it), its
    own seed, and per step (active, off_two, changed)."""
    out = tmp_path / "c.png"
    cli("convergence", "--board", board, "--runs", "1", "--seed", seed, "--out", out, *flags)
    with open(out.with_suffix(".csv")) as f:
        rows = list(csv.DictReader(f))
    with open(tmp_path / "c-runs.csv") as f:
        (run,) = list(csv.DictReader(f))
    steps = [(int(r["active_mean"]), int(r["off_two_mean"]), int(r["changed_mean"])) for r in rows]
    return run["configuration"], int(run["seed"]), steps


@pytest.mark.parametrize(
    "board,seed,kwargs,flags",
    [
        ("6x6", 7, {}, []),
        ("8x8", 3, {"preset": "takefuji-lee", "max_iterations": 60}, ["--variant", "takefuji-lee", "--max-iterations", "60"]),
        ("8x8", 12, {"preset": "brant"}, ["--variant", "brant"]),
        ("6x8", 5, {"order": "random-permutation"}, ["--order", "random-permutation"]),
        ("6x6", 2**64 - 59, {}, []),
    ],
)
def test_steps_are_the_convergence_runs(cli, tmp_path, board, seed, kwargs, flags):
    # Run i of `convergence --seed SEED` is trial i of the preset's experiment cell: its
    # seed is trial_seed(SEED, "LABEL/BOARD", i), and Network(board, seed=THAT) steps it.
    configuration, run_seed, theirs = convergence_run(cli, tmp_path, board, seed, *flags)
    # The cell's default label: the preset's name, with `*` once a parameter differs from
    # it (the configuration, which replays, spells those parameters out).
    preset, *changed = configuration.split(" ", 1)
    label = preset + ("*" if changed else "")
    assert run_seed == kn.trial_seed(seed, f"{label}/{board}", 0)
    net = kn.Network(board, seed=run_seed, **kwargs)
    ours = [(s.active, s.off_two, s.changed) for s in net.steps()]
    assert ours == theirs
    assert net.iterations == len(ours)
    assert list(net.steps()) == []  # the attempt is over


@pytest.mark.parametrize("board,seed,kwargs,flags", [
    ("6x6", 7, {}, []),
    ("8x8", 2**63 + 5, {"preset": "numpy"}, ["--variant", "numpy"]),
])
def test_steps_are_attempt_zero_of_solve(cli, tmp_path, board, seed, kwargs, flags):
    # What a record's seed replays: `solve --seed SEED --max-attempts 1`.
    trace_file = tmp_path / "trace.json"
    cli("solve", "--board", board, "--seed", seed, "--max-attempts", "1", *flags,
        "--trace", trace_file, check=False)
    saved = json.loads(trace_file.read_text())
    net = kn.Network(board, seed=seed, **kwargs)
    ours = [{"active": s.active, "off_two": s.off_two, "changed": s.changed, "flips": s.flips}
            for s in net.steps()]
    assert ours == [{k: s[k] for k in ("active", "off_two", "changed", "flips")} for s in saved["steps"]]
    assert saved["attempt"] == 1


def test_arrays_are_copies_that_describe_the_state():
    net = kn.Network(kn.Board(8, 8), preset="parberry", seed=7)
    edges = net.edges
    assert edges.shape == (net.neurons, 2) and net.neurons == 168
    assert all(kn.Board(8, 8).knight_moves(int(a)).count(int(b)) == 1 for a, b in edges.tolist())
    for _ in range(5):
        u, v, deg = net.u, net.v, net.degrees
        assert u.dtype == np.int32 and v.dtype == np.uint8 and deg.dtype == np.uint8
        assert u.shape == v.shape == (net.neurons,) and deg.shape == (64,)
        on = edges[v == 1].ravel()
        assert np.array_equal(deg, np.bincount(on, minlength=64))
        assert net.active == int(v.sum())
        assert net.off_two == int((deg != 2).sum())
        stats = net.step()
        assert stats.active == net.active and stats.off_two == net.off_two
        # Copies: what was read before the step is what the state was then.
        assert stats.changed == int((net.u != u).sum())
        assert stats.flips == int((net.v != v).sum())
        v[:] = 7
        assert net.v.max() <= 1


def test_a_synchronous_step_is_the_published_update_rule():
    # Takefuji & Lee: dU = C - deg(a) - deg(b) + (2 - S) V, V by hysteresis on U.
    net = kn.Network("8x8", preset="takefuji-lee", seed=4)
    assert net.params["order"] == "synchronous"
    for _ in range(6):
        u1, v1 = published_update(net)
        net.step()
        assert np.array_equal(net.u, u1) and np.array_equal(net.v, v1)


@pytest.mark.parametrize("seed", [3, 4, 5, 6])
def test_steps_limit_and_finish(seed):
    board = kn.Board(6, 6)
    net = kn.Network(board, seed=seed)
    assert len(list(net.steps(limit=4))) == 4 and net.iterations == 4
    attempt = net.finish()
    assert attempt.iterations == net.iterations and net.stopped
    assert attempt.outcome in ("tour", "multiple-cycles")
    cycles = [c.tolist() for c in attempt.cycles]
    assert (len(cycles) == 1) == (attempt.outcome == "tour")
    assert sorted(sq for c in cycles for sq in c) == list(range(36))
    for c in cycles:
        assert all(b in board.knight_moves(a) for a, b in zip(c, c[1:] + c[:1]))
    on = net.edges[net.v == 1].tolist()
    assert sorted(map(sorted, on)) == sorted(sorted(p) for c in cycles for p in zip(c, c[1:] + c[:1]))


@pytest.mark.parametrize("board,seed,kwargs,flags", [
    ("6x6", 3, {}, []),
    ("8x8", 1, {"preset": "wikipedia"}, ["--variant", "wikipedia"]),
    ("8x8", 2, {"preset": "numpy", "max_attempts": 4}, ["--variant", "numpy", "--max-attempts", "4"]),
])
def test_run_is_the_command_lines_solve_and_trace(cli, cli_json, tmp_path, board, seed, kwargs, flags):
    run = kn.Network(board, seed=seed, **kwargs).run()
    theirs = cli_json("--board", board, "--seed", seed, *flags)
    assert run.outcome == theirs["outcome"]
    assert run.attempts == theirs["attempts"]
    assert run.iterations == theirs["iterations"]
    assert run.terminations == theirs["terminations"]
    if theirs["tour"] is None:
        assert run.tour is None
    else:
        assert run.tour.coords.tolist() == theirs["tour"]
    trace_file = tmp_path / "trace.json"
    cli("solve", "--board", board, "--seed", seed, *flags, "--trace", trace_file, check=False)
    saved = json.loads(trace_file.read_text())
    trace = run.trace
    assert ["".join(map(str, row)) for row in trace.outputs.tolist()] == saved["outputs"]
    for key in ("changed", "flips", "active", "off_two"):
        assert getattr(trace, key).tolist() == [s[key] for s in saved["steps"]]
    assert run.last.iterations == len(trace)
    assert kn.Network(board, seed=seed, **kwargs).run(trace=False).trace is None


def test_network_input_errors(cli):
    with pytest.raises(ValueError, match="closed"):
        kn.Network("5x5")
    with pytest.raises(ValueError, match="upper"):
        kn.Network("8x8", upper=-3, lower=2)
    with pytest.raises(ValueError, match="unknown variant 'hopfield'"):
        kn.Network("8x8", preset="hopfield")
    with pytest.raises(ValueError, match="update order"):
        kn.Network("8x8", order="backwards")
    with pytest.raises(TypeError, match="unexpected keyword"):
        kn.Network("8x8", speed=3)
    net = kn.Network("8x8", c=5)
    assert net.variant == "parberry --c 5" and net.params["c"] == 5
