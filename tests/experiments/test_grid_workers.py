"""The grid's worker processes end with the process that started them.

A grid driver is started in a subprocess with ``n_jobs=2`` and cells that compute until
killed; once both workers run a cell the driver is killed with SIGKILL (it can clean up
nothing), and every process it had started must be gone within a bounded time.  Processes
are told apart by pid and start time, and a zombie (ended, not yet reaped by whoever
adopted it) counts as gone.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from importlib.util import find_spec
from pathlib import Path

import pytest

from optirules import _workers
from optirules.experiments import _grid

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")

ROOT = Path(__file__).resolve().parents[2]

#: how long the workers may take to start (a busy machine, Ray's start-up) and to end
START_TIMEOUT = 180.0
END_TIMEOUT = 30.0

DRIVER = textwrap.dedent('''
    import os, sys, threading, time

    MARKS = {marks!r}  # each worker leaves its pid here when it starts a cell

    def busy_cell(cell, cv=5):
        open(os.path.join(MARKS, str(os.getpid())), "w").close()
        while True:  # computes until its process ends
            sum(range(1000))

    if __name__ == "__main__":
        import optirules.experiments._grid as grid

        grid.evaluate_cell = busy_cell
        backend = sys.argv[1].split("-")[0]

        def run():
            grid.run_grid(["monks1", "monks2", "monks3"], ["decision_tree"], seeds=[0, 1],
                          workers=grid.GridWorkers(backend, n_jobs=2))

        if sys.argv[1].endswith("-thread"):  # run_grid called from a thread other than main
            t = threading.Thread(target=run)
            t.start()
            t.join()
        else:
            run()
''')

LEARNER_DRIVER = textwrap.dedent('''
    import os

    import numpy as np

    MARKS = {marks!r}  # each worker leaves its pid here when it starts a fold

    def busy_fold(*args, **kwargs):
        open(os.path.join(MARKS, str(os.getpid())), "w").close()
        while True:  # computes until its process ends
            sum(range(1000))

    if __name__ == "__main__":
        import optirules.learners._rule_set._cv as rule_set_cv
        from optirules.learners import BooleanRuleSetCV

        rule_set_cv._path_and_scores = busy_fold  # a fold's penalty path
        X = np.random.default_rng(0).integers(0, 2, size=(40, 4))
        y = X[:, 0] | X[:, 1]
        BooleanRuleSetCV(penalties=(0.01,), cv=2, n_jobs=2).fit(X, y)
''')


# ------------------------------------------------------------------ processes
def _stat(pid: int) -> tuple[str, str, int] | None:
    """(state, start time, parent pid) of a process, None when there is none."""
    try:
        import psutil

        try:
            p = psutil.Process(pid)
            with p.oneshot():
                return p.status(), repr(p.create_time()), p.ppid()
        except psutil.Error:
            return None
    except ImportError:
        try:
            fields = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()
        except OSError:
            return None
        return ("zombie" if fields[0] == b"Z" else fields[0].decode(), fields[19].decode(),
                int(fields[1]))


def _all_pids() -> list[int]:
    try:
        import psutil

        return psutil.pids()
    except ImportError:
        return [int(n) for n in os.listdir("/proc") if n.isdigit()]


def _descendants(pid: int) -> dict[int, str]:
    """pid -> start time of every process below ``pid``."""
    children: dict[int, list[int]] = {}
    stats = {}
    for p in _all_pids():
        st = _stat(p)
        if st is not None:
            stats[p] = st
            children.setdefault(st[2], []).append(p)
    out, todo = {}, [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out[child] = stats[child][1]
            todo.append(child)
    return out


def _running(procs: dict[int, str]) -> dict[int, str]:
    """Those of ``procs`` (pid -> start time) that still run."""
    out = {}
    for pid, start in procs.items():
        st = _stat(pid)
        if st is not None and st[1] == start and st[0] != "zombie":
            out[pid] = start
    return out


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:120]
    except OSError:
        return "?"


needs_proc_or_psutil = pytest.mark.skipif(
    not os.path.isdir("/proc/self") and not _workers._start_token(os.getpid()),
    reason="needs /proc or psutil to list processes")


# ------------------------------------------------------------------ the test
BACKENDS = [
    "local",
    "local-thread",  # no kernel signal for workers started from a thread: the watch alone
    pytest.param("dask", marks=pytest.mark.skipif(
        find_spec("distributed") is None, reason="dask.distributed is not installed")),
    pytest.param("ray", marks=pytest.mark.skipif(
        find_spec("ray") is None, reason="ray is not installed")),
]


def _kill_the_driver_and_check(tmp_path, source: str, *args: str) -> None:
    """Run the driver ``source`` (its ``{marks!r}`` filled in) with ``args``; once two
    workers have left their mark, SIGKILL it and check every process below it ends."""
    script = tmp_path / "driver.py"
    marks = tmp_path / "marks"
    marks.mkdir()
    script.write_text(source.replace("{marks!r}", repr(str(marks))))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])}
    log = (tmp_path / "driver.log").open("wb")
    driver = subprocess.Popen([sys.executable, str(script), *args], cwd=tmp_path,
                              env=env, stdout=log, stderr=subprocess.STDOUT)
    started = {}
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while len(list(marks.iterdir())) < 2:
            if driver.poll() is not None:
                pytest.fail("the driver ended before its workers ran a cell:\n"
                            + (tmp_path / "driver.log").read_text(errors="replace")[-3000:])
            if time.monotonic() > deadline:
                pytest.fail(f"the workers did not start a cell within {START_TIMEOUT} s")
            time.sleep(0.2)
        workers = {int(p.name) for p in marks.iterdir()}
        started = _descendants(driver.pid)
        assert workers <= set(started), (workers, started)  # the cells run below the driver
        driver.send_signal(signal.SIGKILL)
        driver.wait()
        deadline = time.monotonic() + END_TIMEOUT
        left = _running(started)
        while left and time.monotonic() < deadline:
            time.sleep(0.2)
            left = _running(started)
        assert not left, "still running after the driver was killed:\n" + "\n".join(
            f"{pid}: {_command(pid)}" for pid in left)
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()
        log.close()
        for pid in _running(started):  # whatever the test leaves behind on a failure
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


@needs_proc_or_psutil
@pytest.mark.parametrize("backend", BACKENDS)
def test_workers_end_when_the_driver_is_killed(backend, tmp_path):
    _kill_the_driver_and_check(tmp_path, DRIVER, backend)


@needs_proc_or_psutil
def test_a_learners_own_workers_end_when_the_driver_is_killed(tmp_path):
    """A learner's ``n_jobs`` pool (here BooleanRuleSetCV's folds) watches its driver too."""
    _kill_the_driver_and_check(tmp_path, LEARNER_DRIVER)


# ------------------------------------------------------------------ the pieces
def test_start_token_tells_processes_apart():
    mine = _workers._start_token(os.getpid())
    if mine is None:
        pytest.skip("neither /proc nor psutil: the start time cannot be read")
    assert mine and mine == _workers._start_token(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert _workers._start_token(child.pid) == ""  # ended and reaped: no such process


def test_the_watch_is_a_no_op_in_the_parent():
    """The driver itself never arms the watch (it would end itself), and no thread starts."""
    before = threading.active_count()
    _workers._exit_with_parent(*_workers._worker_guard())
    assert threading.active_count() == before
    assert _workers._watched_parent is None


def test_only_a_loky_pool_gets_the_watch():
    """``parallel`` hands the watch to loky's workers only: no other backend takes an
    initializer, and one set by ``parallel_config`` or a hint runs its own way."""
    from joblib import delayed, parallel_config

    def initializer(pool):
        return pool._backend_kwargs.get("initializer")

    assert initializer(_workers.parallel(2)) is _workers._exit_with_parent
    assert initializer(_workers.parallel(2, backend="loky")) is _workers._exit_with_parent
    assert initializer(_workers.parallel(2, prefer="threads")) is None
    assert initializer(_workers.parallel(2, backend="threading")) is None
    with parallel_config(backend="threading"):
        pool = _workers.parallel(2)
        assert initializer(pool) is None
        assert pool(delayed(abs)(-i) for i in range(3)) == [0, 1, 2]

def test_watched_workers_give_the_same_table_and_are_reused():
    """Workers started with the watch compute what one process computes, and a second grid
    runs on them (the watch does not end a worker while its parent runs)."""
    import pandas as pd

    from optirules.experiments import GridWorkers, run_grid

    grid = dict(datasets=["monks2"], learners={"decision_tree": {"max_depth": [1, 3]}},
                seeds=[0, 1])
    keys = ["dataset", "learner", "params", "seed", "solver", "fold"]

    def table(res):
        return (res.frame.drop(columns=list(_grid.TIMING_COLUMNS)).sort_values(keys)
                .reset_index(drop=True))

    one = run_grid(**grid, workers=GridWorkers(n_jobs=1))
    for _ in range(2):
        pd.testing.assert_frame_equal(table(run_grid(**grid, workers=GridWorkers(n_jobs=2))), table(one))
