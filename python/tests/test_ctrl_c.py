"""Ctrl-C stops an experiment after the trials in flight, as on the command line: a
child process runs a long experiment, says "ready" once records.csv holds rows, and the
parent sends SIGINT. The child must raise KeyboardInterrupt and leave a valid folder
whose rows are the command line's for the same trials."""

import os
import select
import signal
import subprocess
import sys

import pandas as pd
import pytest

import knightnet as kn
from test_experiment import plain

# Far more work than the test waits for (about two hours at 80 us a trial): the run can
# only end early by the interrupt, so a missed SIGINT fails by timeout, never by luck.
SPEC = """
name = "ctrl-c"
seed = 5
trials = {trials}
boards = ["16x16"]

[[solver]]
solver = "network:parberry"
"""

CHILD = r"""
import signal, sys, threading, time
from pathlib import Path

# A process started in the background by a shell inherits SIGINT ignored, and Python
# then installs no handler: install the default one, as an interactive session has it.
signal.signal(signal.SIGINT, signal.default_int_handler)

import knightnet as kn

spec, out = sys.argv[1], Path(sys.argv[2])


def say_ready():
    records = out / "records.csv"
    while True:
        try:
            with open(records) as f:
                if f.readline().endswith("\n") and f.readline().endswith("\n"):
                    break
        except FileNotFoundError:
            pass
        time.sleep(0.01)
    print("ready", flush=True)


threading.Thread(target=say_ready, daemon=True).start()
try:
    kn.experiment(spec, out=out, threads=1)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
print("finished", flush=True)
sys.exit(3)
"""

WAIT = 120  # seconds; each step takes milliseconds


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child process")
def test_ctrl_c_stops_after_the_trials_in_flight(cli, tmp_path):
    spec = tmp_path / "long.toml"
    spec.write_text(SPEC.format(trials=100_000_000))
    out = tmp_path / "run"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(spec), str(out)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        readable, _, _ = select.select([child.stdout], [], [], WAIT)
        assert readable, "the child never said ready"
        assert child.stdout.readline().strip() == "ready"
        child.send_signal(signal.SIGINT)
        stdout, stderr = child.communicate(timeout=WAIT)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert (child.returncode, stdout.strip()) == (0, "interrupted"), stderr

    res = kn.open_results(out)
    ours = res.records()
    done = len(ours)
    assert 0 < done < 100_000_000
    # One thread: the finished trials are the first ones, each once.
    assert sorted(ours["trial"].tolist()) == list(range(done))
    summary = res.summary()
    assert summary["trials_done"] == done and not summary["complete"]
    session = res.run_info()["sessions"][-1]
    assert session["interrupted"] and session["trials_run"] == done

    # A trial's record does not depend on the spec's trial count: the command line's
    # run of the first trials gives the same rows.
    first = min(done, 300)
    short = tmp_path / "short.toml"
    short.write_text(SPEC.format(trials=first))
    cli("experiment", short, "--out", tmp_path / "cli", "--quiet")
    theirs = pd.read_csv(tmp_path / "cli" / "records.csv", keep_default_na=False, na_values=[""])
    assert plain(ours[ours["trial"] < first]) == plain(theirs)
