"""`Network` beyond the knight on a whole plane board: the `leaper`, `surface`, `shape`
and `graph` keywords of `solve` build the network of that graph; its `run()` is
`knightnet solve --solver network` with the same flags, its steps follow the published
update rule on the graph's own edges, and its arrays describe the graph."""

import numpy as np
import pytest

import knightnet as kn
from conftest import ROOT, cli_error, published_update

GRAPHS = ROOT / "experiments" / "graphs"
# An 8x8 board without its four centre squares.
PICTURE = "........\n........\n........\n...##...\n...##...\n........\n........\n........\n"
HOLES = {27, 28, 35, 36}

# (keyword arguments, the same as command-line flags); "SHAPE" is the picture's file.
CASES = [
    ({"board": "10x10", "leaper": "zebra", "surface": "torus", "seed": 2},
     ["--board", "10x10", "--leaper", "zebra", "--surface", "torus", "--seed", "2"]),
    ({"board": "6x6", "surface": "cylinder", "seed": 5, "max_attempts": 20},
     ["--board", "6x6", "--surface", "cylinder", "--seed", "5", "--max-attempts", "20"]),
    ({"board": "8x8", "leaper": (1, 4), "preset": "brant", "seed": 9},
     ["--board", "8x8", "--leaper", "1,4", "--variant", "brant", "--seed", "9"]),
    ({"shape": PICTURE, "seed": 3}, ["--shape", "SHAPE", "--seed", "3"]),
    ({"graph": GRAPHS / "dodecahedron.hcp", "seed": 4}, ["--graph", str(GRAPHS / "dodecahedron.hcp"), "--seed", "4"]),
    ({"graph": GRAPHS / "petersen.dimacs", "max_attempts": 5}, ["--graph", str(GRAPHS / "petersen.dimacs"), "--max-attempts", "5"]),
]


@pytest.mark.parametrize("kwargs,flags", CASES)
def test_run_is_the_command_lines_network_solve(cli_json, tmp_path, kwargs, flags):
    shape = tmp_path / "shape.txt"
    shape.write_text(PICTURE)
    flags = [str(shape) if f == "SHAPE" else f for f in flags]
    theirs = cli_json("--solver", "network", *flags)
    net = kn.Network(**kwargs)
    run = net.run()
    assert (run.outcome, run.attempts, run.iterations) == (theirs["outcome"], theirs["attempts"], theirs["iterations"])
    assert run.tour is None
    if theirs["vertices"] is None:
        assert run.vertices is None
    else:
        assert run.vertices.tolist() == theirs["vertices"]
        assert len(run.cycles) == 1
        assert net.vertex_numbers[run.cycles[0]].tolist() == theirs["vertices"]
    assert net.target == theirs["target"]
    assert sum(run.terminations.values()) == run.attempts
    # The stepped network is the run's attempt 0: with one attempt, the same steps.
    one = kn.Network(**{**kwargs, "max_attempts": 1})
    traced = one.run().trace
    ours = [(s.changed, s.flips, s.active, s.off_two) for s in one.steps()]
    assert ours == list(zip(traced.changed.tolist(), traced.flips.tolist(), traced.active.tolist(), traced.off_two.tolist()))
    assert np.array_equal(one.v, traced.outputs[-1])


@pytest.mark.parametrize("kwargs", [
    {"board": "8x8", "surface": "torus"},
    {"board": "10x10", "leaper": "giraffe", "surface": "cylinder"},
    {"shape": PICTURE},
    {"graph": GRAPHS / "heawood.hcp"},
])
def test_a_synchronous_step_is_the_published_update_rule_on_any_graph(kwargs):
    # Takefuji & Lee: dU = C - deg(a) - deg(b) + (2 - S) V, V by hysteresis on U; the
    # degrees are of the graph's own vertices.
    net = kn.Network(**kwargs, preset="takefuji-lee", seed=6)
    assert net.params["order"] == "synchronous"
    for _ in range(8):
        deg = net.degrees
        assert np.array_equal(deg, np.bincount(net.edges[net.v == 1].ravel(), minlength=len(deg)))
        assert net.off_two == int((deg != 2).sum())
        u1, v1 = published_update(net)
        net.step()
        assert np.array_equal(net.u, u1) and np.array_equal(net.v, v1)


def wrapped(d, side, wraps):
    """The displacement `d` along an axis of `side` squares, shortest way round when it wraps."""
    d = abs(d)
    return min(d, side - d) if wraps else d


@pytest.mark.parametrize("board,leaper,r,s,surface", [
    ("6x6", "1,2", 1, 2, "torus"),
    ("8x10", "zebra", 2, 3, "cylinder"),
    ("10x10", (2, 5), 2, 5, "torus"),
])
def test_neurons_are_the_leapers_moves_on_the_surface(board, leaper, r, s, surface):
    net = kn.Network(board, leaper=leaper, surface=surface)
    rows, cols = net.board.rows, net.board.cols
    assert net.vertex_numbers.tolist() == list(range(rows * cols))
    steps = set()
    for x, y in net.edges.tolist():
        dr = wrapped(x // cols - y // cols, rows, surface == "torus")
        dc = wrapped(x % cols - y % cols, cols, True)
        steps.add(tuple(sorted((dr, dc))))
    assert steps == {(r, s)}
    # Every move of the leaper on the surface is a neuron, each pair of squares once.
    expected = set()
    for sq in range(rows * cols):
        for dr, dc in {(r, s), (s, r), (-r, s), (s, -r), (r, -s), (-s, r), (-r, -s), (-s, -r)}:
            rr, cc = sq // cols + dr, (sq % cols + dc) % cols
            if surface == "torus":
                rr %= rows
            if 0 <= rr < rows and (rr * cols + cc) != sq:
                expected.add(tuple(sorted((sq, rr * cols + cc))))
    assert sorted(map(tuple, map(sorted, net.edges.tolist()))) == sorted(expected)


def test_a_shapes_holes_are_no_vertices_and_its_figure_shows_them(tmp_path):
    net = kn.Network(shape=PICTURE, seed=2)
    numbers = net.vertex_numbers.tolist()
    assert numbers == [sq for sq in range(64) if sq not in HOLES]
    assert net.degrees.shape == (60,) and net.board == kn.Board(8, 8)
    assert not HOLES & set(net.vertex_numbers[net.edges].ravel().tolist())
    for _ in range(3):
        net.step()
    net.save_figure(tmp_path / "state.svg")
    rows = [line for line in (tmp_path / "state.csv").read_text().splitlines() if not line.startswith("#")]
    header = rows[0].split(",")
    kinds = [dict(zip(header, row.split(","))) for row in rows[1:]]
    holes = {int(k["row"]) * 8 + int(k["col"]) for k in kinds if k["kind"] == "hole"}
    flagged = {int(k["row"]) * 8 + int(k["col"]) for k in kinds if k["kind"] == "flagged"}
    assert holes == HOLES
    off = {numbers[v] for v in np.flatnonzero(net.degrees != 2).tolist()}
    assert flagged == off and not flagged & HOLES
    run = kn.Network(shape=PICTURE, seed=3).run()
    run.save_figure(tmp_path / "run.png")
    assert (tmp_path / "run.png").stat().st_size > 0


def test_keywords_and_graphs_that_do_not_fit_are_refused(cli, tmp_path):
    with pytest.raises(ValueError, match="graph= names the whole graph"):
        kn.Network("8x8", graph=GRAPHS / "petersen.dimacs")
    with pytest.raises(ValueError, match="shape= gives the board"):
        kn.Network("8x8", shape=PICTURE)
    # The camel's graph is disconnected: the command line's own refusal.
    message = cli_error(cli, "solve", "--board", "8x8", "--leaper", "camel", "--solver", "network")
    with pytest.raises(ValueError) as camel:
        kn.Network("8x8", leaper="camel")
    assert message in str(camel.value)
    # The Petersen graph has no Hamiltonian cycle, which no theorem here rules out: it
    # is stepped, and never reports a tour.
    run = kn.Network(graph=GRAPHS / "petersen.dimacs", max_attempts=20).run()
    assert run.outcome != "tour" and run.vertices is None
    # A wheel of 300 spokes: its hub has 300 edges, more than a uint8 degree holds.
    wheel = tmp_path / "wheel.txt"
    rim = range(2, 302)
    wheel.write_text("".join(f"1 {v}\n{v} {2 + (v - 1) % 300}\n" for v in rim))
    with pytest.raises(ValueError, match="degree 300"):
        kn.Network(graph=wheel)
    assert kn.solve(solver="network", graph=wheel, max_attempts=1).solver == "network"
    with pytest.raises(ValueError, match="no squares to draw"):
        kn.Network(graph=GRAPHS / "dodecahedron.hcp").save_figure(tmp_path / "x.png")
    assert kn.Network(graph=GRAPHS / "dodecahedron.hcp").board is None
