"""`solve`: every solver by its command-line name, the same solution as
`knightnet solve --format json` for the same seed, and the command line's errors."""

import re

import numpy as np
import pytest

import knightnet as kn
from conftest import cli_error

# (board, solver, seed, keyword arguments, the same as command-line flags)
CASES = [
    ("8x8", "network", 1, {}, []),
    ("6x6", "network:brant", 3, {}, []),
    ("8x8", "network", 5, {"preset": "wikipedia", "max_attempts": 3}, ["--variant", "wikipedia", "--max-attempts", "3"]),
    ("8x8", "network", 2, {"c": 2, "order": "square-sweep"}, ["--c", "2", "--order", "square-sweep"]),
    ("10x10", "network+merge", 4, {}, []),
    ("26x26", "warnsdorff:roth", 1, {"start": "a1"}, ["--start", "a1"]),
    ("30x30", "warnsdorff:roth", 1, {"start": (29, 0)}, ["--start", "29,0"]),
    ("8x8", "warnsdorff:random", 9, {"restarts": 3}, ["--restarts", "3"]),
    ("5x5", "backtrack", 1, {}, []),
    ("6x6", "forward-check:connectivity", 2, {"closed": True}, ["--closed"]),
    ("7x7", "warnsdorff-backtrack:ties", 1, {"max_steps": 5000}, ["--max-steps", "5000"]),
    ("8x8", "circuit", 1, {"start": "c3", "reverse": True}, ["--start", "c3", "--reverse"]),
    ("12x14", "divide-conquer", 1, {"start": (2, 3)}, ["--start", "2,3"]),
]


@pytest.mark.parametrize("board,solver,seed,kwargs,flags", CASES)
def test_solution_is_the_command_lines(cli_json, board, solver, seed, kwargs, flags):
    ours = kn.solve(board, solver, seed=seed, **kwargs)
    theirs = cli_json("--board", board, "--solver", solver, "--seed", seed, *flags)
    assert ours.as_dict() == theirs
    assert ours.outcome == theirs["outcome"]
    assert ours.attempts == theirs["attempts"]
    assert ours.iterations == theirs["iterations"]
    if theirs["tour"] is None:
        assert ours.tour is None
    else:
        assert ours.tour.tolist() == theirs["tour"]
        assert ours.start == theirs["start_name"]


def test_every_solver_name_solves_like_the_command_line(cli_json):
    names = kn.solver_names()
    assert "divide-conquer" in names and "network:parberry" in names
    for name in names:
        ours = kn.solve("6x6", name, seed=11, closed=None)
        theirs = cli_json("--board", "6x6", "--solver", name, "--seed", "11")
        assert ours.as_dict() == theirs, name


def test_tour_arrays_describe_the_tour():
    sol = kn.solve("8x8", "warnsdorff", seed=1)
    board = sol.board
    assert (board.rows, board.cols) == (8, 8)
    squares = sol.squares
    assert squares.dtype == np.uint32 and sorted(squares.tolist()) == list(range(64))
    rows, cols = squares // 8, squares % 8
    assert np.array_equal(sol.tour, np.stack([rows, cols], axis=1))
    steps = np.abs(np.diff(sol.tour, axis=0))
    assert all(sorted(s) == [1, 2] for s in steps.tolist())
    # A copy: changing it leaves the solution alone.
    sol.tour[0, 0] = 99
    assert sol.tour[0, 0] == 0


def test_the_oracle_accepts_tours_and_names_what_is_wrong():
    sol = kn.solve("6x6", "network", seed=2)
    tour = sol.to_tour()
    assert tour.closed and len(tour) == 36
    assert kn.Tour("6x6", sol.squares.tolist()) == tour
    assert kn.Tour(kn.Board(6, 6), [tuple(p) for p in sol.tour.tolist()]) == tour
    # The (n, 2) array a solution holds, and its rows as lists, are pairs too.
    assert kn.Tour("6x6", sol.tour) == tour
    assert kn.is_tour("6x6", sol.tour) and kn.is_tour("6x6", sol.tour.tolist())
    assert kn.is_tour("6x6", sol.squares.tolist())
    broken = sol.squares.tolist()
    broken[3], broken[4] = broken[4], broken[3]
    assert not kn.is_tour("6x6", broken)
    with pytest.raises(ValueError, match="knight"):
        kn.Tour("6x6", broken)
    with pytest.raises(ValueError):
        kn.Tour("6x6", sol.squares.tolist()[:-1])
    assert not kn.is_tour("6x6", [0, 99])
    rotated = tour.rotated("c3", reverse=True)
    assert rotated.start == "c3" and rotated.closed
    assert sorted(rotated.squares.tolist()) == list(range(36))


def in_flag_words(text):
    """A Python error message with its keyword arguments written as the command line's
    flags (`open=True` -> `--open`, `solver=x` -> `--solver x`)."""
    text = re.sub(r"\b([a-z_]+)=True\b", lambda m: "--" + m.group(1).replace("_", "-"), text)
    return re.sub(r"\b([a-z_]+)=(\S)", lambda m: "--" + m.group(1).replace("_", "-") + " " + m.group(2), text)


@pytest.mark.parametrize(
    "kwargs,flags",
    [
        ({"board": "8x"}, ["--board", "8x"]),
        ({"board": "0x8"}, ["--board", "0x8"]),
        ({"board": "8x8", "solver": "hopfield"}, ["--solver", "hopfield"]),
        ({"board": "5x5", "solver": "network"}, ["--board", "5x5"]),
        ({"board": "8x8", "preset": "nope"}, ["--variant", "nope"]),
        ({"board": "8x8", "upper": 1, "lower": 5}, ["--upper", "1", "--lower", "5"]),
        ({"board": "8x8", "clamp": 0}, ["--clamp", "0"]),
        ({"board": "8x8", "start": "z9"}, ["--start", "z9"]),
        ({"board": "8x8", "solver": "warnsdorff", "tie_break": "bogus"}, ["--solver", "warnsdorff", "--tie-break", "bogus"]),
        ({"board": "4x4", "solver": "warnsdorff"}, ["--board", "4x4", "--solver", "warnsdorff"]),
        ({"board": "30x30", "solver": "warnsdorff", "start": "a1"}, ["--board", "30x30", "--solver", "warnsdorff", "--start", "a1"]),
    ],
)
def test_bad_input_is_a_value_error_with_the_command_lines_message(cli, kwargs, flags):
    """The same error as the command line's, its parameters named as keyword arguments."""
    board = kwargs.pop("board")
    with pytest.raises(ValueError) as err:
        kn.solve(board, **kwargs)
    message = cli_error(cli, "solve", *(["--board", board] if "--board" not in flags else []), *flags)
    assert message.endswith(in_flag_words(str(err.value))), (message, str(err.value))


def test_arguments_that_do_not_fit_the_solver_are_refused():
    with pytest.raises(ValueError, match="contradict"):
        kn.solve("8x8", "network:brant", preset="parberry")
    with pytest.raises(ValueError, match="apply only"):
        kn.solve("8x8", "warnsdorff", c=3)
    with pytest.raises(ValueError, match="tie"):
        kn.solve("8x8", "backtrack", tie_break="roth")
    with pytest.raises(TypeError, match="max_iterations"):
        kn.solve("8x8", colour=3)
    with pytest.raises(TypeError):
        kn.solve(8)
