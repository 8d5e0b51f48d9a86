"""`solve` beyond the knight on a whole plane board: the `leaper`, `surface`, `shape`
and `graph` keywords give the same solution as `knightnet solve` with `--leaper`,
`--surface`, `--shape` and `--graph`, and the same refusals."""

import numpy as np
import pytest

import knightnet as kn
from conftest import ROOT, cli_error

GRAPHS = ROOT / "experiments" / "graphs"
# A 6x7 board with two holes (row 1, column 2 and row 3, column 3).
PICTURE = ".......\n..#....\n.......\n...#...\n.......\n.......\n"

# (keyword arguments, the same as command-line flags); "SHAPE" is the picture's file.
CASES = [
    ({"board": "10x10", "leaper": "zebra", "surface": "torus"}, ["--board", "10x10", "--leaper", "zebra", "--surface", "torus"]),
    ({"board": "10x10", "leaper": (2, 3), "solver": "network+merge", "seed": 3}, ["--board", "10x10", "--leaper", "2,3", "--solver", "network+merge", "--seed", "3"]),
    ({"board": "6x6", "surface": "cylinder", "solver": "forward-check", "closed": True}, ["--board", "6x6", "--surface", "cylinder", "--solver", "forward-check", "--closed"]),
    ({"board": "8x8", "surface": "torus", "solver": "warnsdorff", "start": "c3"}, ["--board", "8x8", "--surface", "torus", "--solver", "warnsdorff", "--start", "c3"]),
    ({"shape": PICTURE, "solver": "backtrack"}, ["--shape", "SHAPE", "--solver", "backtrack"]),
    ({"graph": GRAPHS / "dodecahedron.hcp", "start": 7}, ["--graph", str(GRAPHS / "dodecahedron.hcp"), "--start", "7"]),
    ({"graph": str(GRAPHS / "hypercube-10.hcp"), "merge": True}, ["--graph", str(GRAPHS / "hypercube-10.hcp"), "--merge"]),
    ({"graph": GRAPHS / "petersen.dimacs", "solver": "network", "max_attempts": 5}, ["--graph", str(GRAPHS / "petersen.dimacs"), "--max-attempts", "5"]),
]


@pytest.mark.parametrize("kwargs,flags", CASES)
def test_a_geometry_or_graph_solves_as_the_command_line(cli_json, tmp_path, kwargs, flags):
    shape = tmp_path / "shape.txt"
    shape.write_text(PICTURE)
    flags = [str(shape) if f == "SHAPE" else f for f in flags]
    ours = kn.solve(**kwargs)
    theirs = cli_json(*flags)
    assert isinstance(ours, kn.GraphSolution)
    assert ours.as_dict() == theirs
    assert (ours.outcome, ours.solver, ours.closed) == (theirs["outcome"], theirs["solver"], theirs["closed"])
    assert (ours.attempts, ours.iterations, ours.steps) == (theirs["attempts"], theirs["iterations"], theirs.get("steps"))
    assert ours.target == theirs["target"]
    if theirs["vertices"] is None:
        assert ours.vertices is None and ours.tour is None and ours.start is None
        return
    assert ours.vertices.tolist() == theirs["vertices"]
    assert ours.start == theirs["start_name"]
    if "graph" in kwargs:
        assert ours.tour is None
    else:
        assert ours.tour.tolist() == theirs["tour"]


def test_holes_are_never_visited_and_steps_are_the_leapers():
    sol = kn.solve(shape=PICTURE, solver="forward-check")
    assert sol.outcome == "tour"
    cells = {tuple(p) for p in sol.tour.tolist()}
    assert len(cells) == 40 and (1, 2) not in cells and (3, 3) not in cells
    steps = np.abs(np.diff(sol.tour, axis=0))
    assert all(sorted(s) == [1, 2] for s in steps.tolist())


def test_the_knight_named_by_the_keywords_is_the_plain_solve():
    plain = kn.solve("8x8", "warnsdorff", seed=2)
    named = kn.solve("8x8", "warnsdorff", seed=2, leaper="knight", surface="plane")
    assert isinstance(named, kn.Solution)
    assert named.as_dict() == plain.as_dict()
    on_shape = kn.solve(shape="......\n" * 6, solver="network", seed=4)
    assert isinstance(on_shape, kn.Solution)
    assert on_shape.as_dict() == kn.solve("6x6", "network", seed=4).as_dict()


@pytest.mark.parametrize(
    "kwargs,flags",
    [
        ({"board": "8x8", "leaper": "1,3"}, ["--board", "8x8", "--leaper", "1,3"]),
        ({"board": "8x8", "leaper": "1,x"}, ["--board", "8x8", "--leaper", "1,x"]),
        ({"board": "6x6", "surface": "sphere"}, ["--board", "6x6", "--surface", "sphere"]),
        ({"board": "5x5", "leaper": "0,1"}, ["--board", "5x5", "--leaper", "0,1"]),
        ({"board": "8x8", "surface": "torus", "solver": "divide-conquer"}, ["--board", "8x8", "--surface", "torus", "--solver", "divide-conquer"]),
    ],
)
def test_bad_geometry_is_a_value_error_with_the_command_lines_message(cli, kwargs, flags):
    with pytest.raises(ValueError) as err:
        kn.solve(**kwargs)
    assert cli_error(cli, "solve", *flags).endswith(str(err.value)), str(err.value)


def test_keywords_that_do_not_fit_are_refused():
    dodecahedron = GRAPHS / "dodecahedron.hcp"
    with pytest.raises(ValueError, match="drop board"):
        kn.solve("8x8", graph=dodecahedron)
    with pytest.raises(ValueError, match="drop board"):
        kn.solve("8x8", shape=PICTURE)
    with pytest.raises(ValueError, match="give board, shape or graph"):
        kn.solve(surface="torus")
    with pytest.raises(ValueError, match="hole"):
        kn.solve(shape=PICTURE, solver="warnsdorff", start=(1, 2))
    with pytest.raises(ValueError, match="1 to 20"):
        kn.solve(graph=dodecahedron, start=21)
    with pytest.raises(ValueError, match="line 2"):
        kn.solve(shape="...\n.x.\n")
    with pytest.raises(ValueError, match="knight on a whole plane board"):
        kn.solve("6x6", surface="torus", reverse=True)
    with pytest.raises(TypeError, match="leaper"):
        kn.solve("6x6", leaper=3)


def test_a_geometrys_tour_is_drawn_as_the_command_line_draws_it(cli, tmp_path):
    ours = tmp_path / "ours.svg"
    kn.solve(shape=PICTURE, solver="forward-check").save_figure(ours)
    shape = tmp_path / "shape.txt"
    shape.write_text(PICTURE)
    theirs = tmp_path / "theirs.svg"
    cli("solve", "--shape", shape, "--solver", "forward-check", "--svg", theirs)
    assert ours.read_text() == theirs.read_text()
    assert (tmp_path / "ours.csv").read_text() == (tmp_path / "theirs.csv").read_text()
    with pytest.raises(ValueError, match="no squares to draw"):
        kn.solve(graph=GRAPHS / "dodecahedron.hcp").save_figure(tmp_path / "g.png")
    with pytest.raises(ValueError, match="no tour to draw"):
        kn.solve(graph=GRAPHS / "petersen.dimacs", max_attempts=1).save_figure(tmp_path / "p.png")


def test_is_tour_checks_on_the_graph_the_keywords_name():
    z = kn.solve("6x6", surface="torus", solver="warnsdorff")
    squares = z.vertices.tolist()
    assert kn.is_tour("6x6", squares, closed=False, surface="torus")
    assert kn.is_tour("6x6", z.tour, closed=False, surface="torus")
    plane = kn.Board(6, 6)
    on_plane = all(b in plane.knight_moves(a) for a, b in zip(squares, squares[1:]))
    assert kn.is_tour("6x6", squares, closed=False) == on_plane
    assert not kn.is_tour("6x6", squares[:-1] + [squares[0]], closed=False, surface="torus")

    s = kn.solve(shape=PICTURE, solver="backtrack")
    holes = [1 * 7 + 2, 3 * 7 + 3]
    assert kn.is_tour(None, s.vertices, closed=False, shape=PICTURE)
    assert not kn.is_tour(None, s.vertices.tolist()[:-1] + [holes[0]], closed=False, shape=PICTURE)
    assert not kn.is_tour(None, s.vertices.tolist() + [99], closed=False, shape=PICTURE)

    path = GRAPHS / "dodecahedron.hcp"
    d = kn.solve(graph=path)
    cycle = d.vertices.tolist()
    assert kn.is_tour(None, cycle, graph=path)
    assert kn.is_tour(None, cycle[5:] + cycle[:5], graph=path)
    assert kn.is_tour(None, cycle[::-1], graph=path)
    assert not kn.is_tour(None, cycle[:-1] + [21], graph=path)
    assert not kn.is_tour(None, cycle[:-1] + [-1], graph=path)
    assert not kn.is_tour(None, [v - 1 for v in cycle], graph=path)
    with pytest.raises(ValueError, match="graph= names the whole graph"):
        kn.is_tour("8x8", cycle, graph=path)
