"""What a call from Python adds to the Rust call it makes.

For a few solves, the time per `knightnet.solve(...)` call measured with timeit (best of
5 rounds) against the same solve in a Rust loop inside the extension
(`_knightnet.time_solve_in_rust`, best of 5 rounds); then the time per step of a
1,000-step `Network.step()` loop, alone and reading the outputs `v` (a numpy copy) after
each step, against the same steps in a Rust loop (`_knightnet.time_steps_in_rust`), each
round from a new network with the same seed; in one run:

    python python/overhead.py
"""

import time
import timeit

import knightnet as kn
from knightnet import _knightnet

CASES = [
    ("8x8", "divide-conquer", 2000),
    ("8x8", "warnsdorff", 2000),
    ("8x8", "network", 200),
    ("100x100", "warnsdorff", 50),
]


STEP_BOARDS = ["8x8", "20x20"]
STEPS = 1000
ROUNDS = 5


def main():
    print(f"{'board':>8} {'solver':>15} {'python us':>10} {'rust us':>10} {'overhead us':>12}")
    for board, solver, repeat in CASES:
        python = min(
            timeit.repeat(lambda: kn.solve(board, solver, seed=1), number=repeat, repeat=5)
        ) / repeat
        rust = _knightnet.time_solve_in_rust(board, solver, 1, repeat, 5)
        print(f"{board:>8} {solver:>15} {python * 1e6:10.1f} {rust * 1e6:10.1f} {(python - rust) * 1e6:12.1f}")
    print()
    print(f"{'board':>8} {'loop':>22} {'python us':>10} {'rust us':>10} {'overhead us':>12}")
    for board in STEP_BOARDS:
        rust = _knightnet.time_steps_in_rust(board, None, 1, STEPS, ROUNDS)
        for name, read_v in (("step()", False), ("step() and v", True)):
            python = min(step_loop(board, read_v) for _ in range(ROUNDS))
            print(f"{board:>8} {name:>22} {python * 1e6:10.2f} {rust * 1e6:10.2f} {(python - rust) * 1e6:12.2f}")


def step_loop(board, read_v):
    """Seconds per step of STEPS `Network.step()` calls from a new network (seed 1)."""
    net = kn.Network(board, seed=1)
    start = time.perf_counter()
    if read_v:
        for _ in range(STEPS):
            net.step()
            net.v
    else:
        for _ in range(STEPS):
            net.step()
    return (time.perf_counter() - start) / STEPS


if __name__ == "__main__":
    main()
