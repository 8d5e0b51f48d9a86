"""knightnet from Python: knight's tours with the Takefuji-Lee neural network and the
classical solvers, computed by the Rust library (the same results as the command line
for the same seeds).

>>> import knightnet as kn
>>> kn.solve("8x8", "warnsdorff", seed=1).tour[:2].tolist()
[[0, 0], [1, 2]]

- :func:`solve` -- one tour with any solver, named as on the command line; with
  ``leaper``, ``surface``, ``shape`` or ``graph``, on other leapers, cylinders and tori,
  boards with holes and graph files (a :class:`GraphSolution`);
- :class:`Network` -- the network stepped from Python, U, V and degrees as numpy arrays;
- :class:`Tour`, :func:`is_tour` -- the tour oracle;
- :func:`experiment`, :class:`Results` -- seeded experiments from a spec file or a
  built-in spec (``experiment("quickstart")``, from any folder), records as a DataFrame;
- :func:`trial_seed` -- the seed of a trial of an experiment, ``compare``, ``growth`` or
  ``convergence`` (one rule for all);
- ``save_figure`` on tours, solutions, networks and runs -- PNG, SVG or PDF figures.

Bad input raises ``ValueError`` with the library's message. Long calls release the GIL;
Ctrl-C stops an experiment after the trials in flight.
"""

from ._knightnet import (
    ENGINE_VERSION,
    PRESETS,
    VERSION,
    Attempt,
    Board,
    GraphSolution,
    Network,
    Run,
    Solution,
    StepStats,
    Tour,
    Trace,
    is_tour,
    solve,
    solver_names,
    trial_seed,
)
from ._results import Results, experiment, open_results

__version__ = VERSION

__all__ = [
    "ENGINE_VERSION",
    "PRESETS",
    "Attempt",
    "Board",
    "GraphSolution",
    "Network",
    "Results",
    "Run",
    "Solution",
    "StepStats",
    "Tour",
    "Trace",
    "experiment",
    "is_tour",
    "open_results",
    "solve",
    "solver_names",
    "trial_seed",
]
