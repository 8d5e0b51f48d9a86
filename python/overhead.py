"""What a call from Python adds to the Rust call it makes.

For a few solves, the time per `knightnet.solve(...)` call measured with timeit (best of
5 rounds) against the same solve in a Rust loop inside the extension
(`_knightnet.time_solve_in_rust`, best of 5 rounds), in one run:

    python python/overhead.py
"""

import timeit

import knightnet as kn
from knightnet import _knightnet

CASES = [
    ("8x8", "divide-conquer", 2000),
    ("8x8", "warnsdorff", 2000),
    ("8x8", "network", 200),
    ("100x100", "warnsdorff", 50),
]


def main():
    print(f"{'board':>8} {'solver':>15} {'python us':>10} {'rust us':>10} {'overhead us':>12}")
    for board, solver, repeat in CASES:
        python = min(
            timeit.repeat(lambda: kn.solve(board, solver, seed=1), number=repeat, repeat=5)
        ) / repeat
        rust = _knightnet.time_solve_in_rust(board, solver, 1, repeat, 5)
        print(f"{board:>8} {solver:>15} {python * 1e6:10.1f} {rust * 1e6:10.1f} {(python - rust) * 1e6:12.1f}")


if __name__ == "__main__":
    main()
