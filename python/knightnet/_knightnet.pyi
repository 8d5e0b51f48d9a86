"""Type stubs of the native module `knightnet._knightnet` (the Rust library through PyO3)."""

from os import PathLike
from typing import Dict, Iterator, List, Literal, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

ENGINE_VERSION: int
VERSION: str
PRESETS: List[str]

_Path = Union[str, PathLike[str]]
_Square = Union[int, str, Tuple[int, int]]
_BoardArg = Union["Board", str]
_Override = Union[int, str, None]

class Board:
    """A rectangular board of rows x cols squares, numbered row * cols + col."""

    def __init__(self, rows: int, cols: int) -> None: ...
    @staticmethod
    def parse(text: str) -> Board: ...
    @property
    def rows(self) -> int: ...
    @property
    def cols(self) -> int: ...
    @property
    def squares(self) -> int: ...
    def square_name(self, square: int) -> str: ...
    def parse_square(self, text: str) -> int: ...
    def coords(self, square: int) -> Tuple[int, int]: ...
    def knight_moves(self, square: int) -> List[int]: ...

class Tour:
    """A knight's tour checked by the library's oracle (ValueError otherwise)."""

    def __init__(
        self, board: _BoardArg, squares: Union[Sequence[int], Sequence[Tuple[int, int]], npt.ArrayLike], closed: bool = True
    ) -> None: ...
    @property
    def board(self) -> Board: ...
    @property
    def squares(self) -> npt.NDArray[np.uint32]: ...
    @property
    def coords(self) -> npt.NDArray[np.int64]: ...
    @property
    def closed(self) -> bool: ...
    @property
    def start(self) -> str: ...
    def rotated(self, start: _Square, reverse: bool = False) -> Tour: ...
    def save_figure(
        self, path: _Path, title: Optional[str] = None, subtitle: Optional[str] = None, width: Optional[int] = None
    ) -> None: ...
    def __len__(self) -> int: ...

class Solution:
    """What a solver returned; `as_dict()` is `knightnet solve --format json`."""

    @property
    def tour(self) -> Optional[npt.NDArray[np.int64]]: ...
    @property
    def squares(self) -> Optional[npt.NDArray[np.uint32]]: ...
    def to_tour(self) -> Optional[Tour]: ...
    @property
    def board(self) -> Board: ...
    @property
    def seed(self) -> int: ...
    @property
    def solver(self) -> str: ...
    @property
    def variant(self) -> Optional[str]: ...
    @property
    def closed(self) -> bool: ...
    @property
    def outcome(self) -> str: ...
    @property
    def start(self) -> Optional[str]: ...
    @property
    def iterations(self) -> int: ...
    @property
    def attempts(self) -> int: ...
    @property
    def steps(self) -> Optional[int]: ...
    def as_dict(self) -> dict: ...
    def save_figure(self, path: _Path) -> None: ...

class GraphSolution:
    """What a solver returned on another leaper, a cylinder or torus, a shape or a graph
    file; `as_dict()` is `knightnet solve --format json` with the same flags."""

    @property
    def vertices(self) -> Optional[npt.NDArray[np.uint64]]: ...
    @property
    def tour(self) -> Optional[npt.NDArray[np.int64]]: ...
    @property
    def target(self) -> dict: ...
    @property
    def seed(self) -> int: ...
    @property
    def solver(self) -> str: ...
    @property
    def closed(self) -> bool: ...
    @property
    def outcome(self) -> str: ...
    @property
    def start(self) -> Optional[str]: ...
    @property
    def iterations(self) -> int: ...
    @property
    def attempts(self) -> int: ...
    @property
    def steps(self) -> Optional[int]: ...
    def as_dict(self) -> dict: ...
    def save_figure(self, path: _Path) -> None: ...

_Leaper = Union[str, Tuple[int, int]]
_Surface = Literal["plane", "cylinder", "torus"]

@overload
def solve(
    board: _BoardArg,
    solver: str = "network",
    *,
    seed: int = 1,
    start: Optional[_Square] = None,
    reverse: bool = False,
    closed: Optional[bool] = None,
    merge: bool = False,
    tile: Optional[str] = None,
    preset: Optional[str] = None,
    tie_break: Optional[str] = None,
    max_steps: Optional[int] = None,
    restarts: Optional[int] = None,
    leaper: None = None,
    surface: None = None,
    shape: None = None,
    graph: None = None,
    c: Optional[int] = None,
    s: Optional[int] = None,
    upper: Optional[int] = None,
    lower: Optional[int] = None,
    order: Optional[str] = None,
    init: Optional[str] = None,
    clamp: Union[int, str, None] = None,
    stop: Optional[str] = None,
    max_iterations: Optional[int] = None,
    max_attempts: Optional[int] = None,
) -> Solution: ...
@overload
def solve(
    board: Optional[_BoardArg] = None,
    solver: str = "network",
    *,
    seed: int = 1,
    start: Optional[_Square] = None,
    reverse: bool = False,
    closed: Optional[bool] = None,
    merge: bool = False,
    tile: Optional[str] = None,
    preset: Optional[str] = None,
    tie_break: Optional[str] = None,
    max_steps: Optional[int] = None,
    restarts: Optional[int] = None,
    leaper: Optional[_Leaper] = None,
    surface: Optional[_Surface] = None,
    shape: Optional[str] = None,
    graph: Optional[_Path] = None,
    c: Optional[int] = None,
    s: Optional[int] = None,
    upper: Optional[int] = None,
    lower: Optional[int] = None,
    order: Optional[str] = None,
    init: Optional[str] = None,
    clamp: Union[int, str, None] = None,
    stop: Optional[str] = None,
    max_iterations: Optional[int] = None,
    max_attempts: Optional[int] = None,
) -> Union[Solution, GraphSolution]: ...
def solver_names() -> List[str]: ...
def is_tour(
    board: Optional[_BoardArg],
    squares: Union[Sequence[int], Sequence[Tuple[int, int]]],
    closed: bool = True,
    *,
    leaper: Optional[_Leaper] = None,
    surface: Optional[_Surface] = None,
    shape: Optional[str] = None,
    graph: Optional[_Path] = None,
) -> bool: ...

class StepStats:
    """Measurements after one step (sweep)."""

    iteration: int
    changed: int
    flips: int
    active: int
    off_two: int
    stopped: bool

class Attempt:
    """How one attempt ended."""

    @property
    def outcome(self) -> str: ...
    @property
    def iterations(self) -> int: ...
    @property
    def cycles(self) -> List[npt.NDArray[np.uint32]]: ...
    @property
    def squares_off(self) -> Optional[int]: ...

class Trace:
    """One attempt's outputs and measurements, as arrays."""

    @property
    def outputs(self) -> npt.NDArray[np.uint8]: ...
    @property
    def changed(self) -> npt.NDArray[np.uint32]: ...
    @property
    def flips(self) -> npt.NDArray[np.uint32]: ...
    @property
    def active(self) -> npt.NDArray[np.uint32]: ...
    @property
    def off_two(self) -> npt.NDArray[np.uint32]: ...
    def __len__(self) -> int: ...

class Run:
    """A whole seeded solve of the network (`knightnet solve --seed`)."""

    @property
    def outcome(self) -> str: ...
    @property
    def tour(self) -> Optional[Tour]: ...
    @property
    def vertices(self) -> Optional[npt.NDArray[np.uint64]]: ...
    @property
    def attempts(self) -> int: ...
    @property
    def iterations(self) -> int: ...
    @property
    def last(self) -> Attempt: ...
    @property
    def cycles(self) -> List[npt.NDArray[np.uint32]]: ...
    @property
    def terminations(self) -> Dict[str, int]: ...
    @property
    def trace(self) -> Optional[Trace]: ...
    def save_figure(self, path: _Path, width: Optional[int] = None) -> None: ...

class Network:
    """The Takefuji-Lee network on one board (or another leaper, a cylinder or torus, a
    shape, a graph file: the keywords of `solve`), stepped from Python, from the initial
    state `knightnet solve --seed SEED --max-attempts 1` draws (what a record's or a
    convergence run's seed replays; `trial_seed` derives those). `u`, `v`, `degrees`,
    `edges` and `vertex_numbers` return new arrays (copies) on every access."""

    def __init__(
        self,
        board: Optional[_BoardArg] = None,
        preset: Optional[str] = None,
        seed: int = 1,
        *,
        leaper: Optional[_Leaper] = None,
        surface: Optional[_Surface] = None,
        shape: Optional[str] = None,
        graph: Optional[_Path] = None,
        c: Optional[int] = None,
        s: Optional[int] = None,
        upper: Optional[int] = None,
        lower: Optional[int] = None,
        order: Optional[str] = None,
        init: Optional[str] = None,
        clamp: Union[int, str, None] = None,
        stop: Optional[str] = None,
        max_iterations: Optional[int] = None,
        max_attempts: Optional[int] = None,
    ) -> None: ...
    @property
    def board(self) -> Optional[Board]: ...
    @property
    def target(self) -> Optional[dict]: ...
    @property
    def vertex_numbers(self) -> npt.NDArray[np.uint64]: ...
    @property
    def seed(self) -> int: ...
    @property
    def params(self) -> dict: ...
    @property
    def variant(self) -> str: ...
    @property
    def neurons(self) -> int: ...
    @property
    def iterations(self) -> int: ...
    @property
    def stopped(self) -> bool: ...
    @property
    def u(self) -> npt.NDArray[np.int32]: ...
    @property
    def v(self) -> npt.NDArray[np.uint8]: ...
    @property
    def degrees(self) -> npt.NDArray[np.uint8]: ...
    @property
    def edges(self) -> npt.NDArray[np.uint32]: ...
    @property
    def off_two(self) -> int: ...
    @property
    def active(self) -> int: ...
    def step(self) -> StepStats: ...
    def steps(self, limit: Optional[int] = None) -> Iterator[StepStats]: ...
    def finish(self) -> Attempt: ...
    def run(self, trace: bool = True) -> Run: ...
    def save_figure(self, path: _Path, title: Optional[str] = None, width: Optional[int] = None) -> None: ...

# spec: a spec file's path, or a built-in spec's bare name ("quickstart"); None: quickstart.
def run_experiment(
    spec: Optional[_Path] = None,
    out: Optional[_Path] = None,
    *,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    resume: bool = False,
) -> dict: ...
def read_records(out: _Path) -> Dict[str, list]: ...
def time_solve_in_rust(board: _BoardArg, solver: str, seed: int, repeat: int, rounds: int = 5) -> float: ...
def time_steps_in_rust(board: _BoardArg, preset: Optional[str], seed: int, steps: int, rounds: int = 5) -> float: ...
def trial_seed(seed: int, cell: str, trial: int) -> int: ...
