"""Fitting on a cluster: rows generated and kept on dask workers, only the master on the driver.

The data: ``--features`` (default 100) uniform random bits per row and
``y = (x0 & x1 & ~x2) | (x3 & ~x4 & x5) | (~x6 & x7 & x8)`` with 2 % of the labels flipped,
generated chunk by chunk on the workers (chunk ``i`` from seed ``1000 + i``), never on the
driver.  ``BooleanRuleSetClassifier(pricing="exact", random_state=0)`` fits it from the dask
array (the rows stay on the workers: ``fit`` on a dask collection).  Each run is its own
subprocess, whose peak resident memory (``VmHWM``) is the driver's; with a ``LocalCluster``
the scheduler runs in the driver process too, and is counted.

Runs: the dask fit on 1 and on 2 worker processes (one thread each) at ``--rows`` (default
4,000,000); and at ``--same-rows`` (default 400,000) the local fit of the same rows (the
chunks generated in the fitting process by the same function) beside the dask fit on 2
workers, to check that the model is the same.  Per run: wall and CPU seconds (driver, and
the workers' summed), peak RSS (driver, and the largest worker's), iterations, the label-1
coverage patterns of the master, the planted rules found, and what moved between driver
and workers per iteration (the payloads' bytes: prices' pattern map out, pattern tables and
the enumeration's partial sums back; protocol overhead not counted).

Run from the repository root (the machine is shared: run it in the background)::

    nohup nice -n 5 python benchmarks/cluster.py > /tmp/cluster.log 2>&1 &
    python benchmarks/cluster.py --rows 200000 --same-rows 50000    # quicker

Writes ``benchmarks/results/cluster.md`` (date, stack, load before and after) and, with
``--json``, the measurements.  ``benchmarks/scale.py --cluster`` runs it after its own
sizes.  BLAS runs single-threaded (``OPENBLAS_NUM_THREADS=1``, set before numpy loads, and
inherited by the workers).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import math
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results"
#: rows per chunk (partition) of the generated data
CHUNK = 250_000
NOISE = 0.02


def _status_mb(field: str) -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return math.nan


def planted(F: int) -> list[tuple[int, ...]]:
    """The planted clauses as literal indices (``j``: x_j == 1, ``F + j``: x_j == 0)."""
    from optirules.data import PLANTED_DNF

    return sorted(tuple(sorted(f if v else F + f for f, v in term)) for term in PLANTED_DNF)


def chunk_bits(index: int, n: int, F: int) -> np.ndarray:
    """Chunk ``index`` of the rows: ``n x F`` random bits (uint8) from seed 1000 + index."""
    return np.random.default_rng(1000 + index).integers(0, 2, size=(n, F), dtype=np.uint8)


def chunk_labels(X: np.ndarray, index: int) -> np.ndarray:
    """The planted DNF of a chunk's bits, 2 % flipped (a second stream of its seed)."""
    from optirules.data import PLANTED_DNF

    b = X.astype(bool)
    y = np.zeros(X.shape[0], dtype=bool)
    for term in PLANTED_DNF:
        hit = np.ones(X.shape[0], dtype=bool)
        for f, v in term:
            hit &= b[:, f] if v else ~b[:, f]
        y |= hit
    flip = np.random.default_rng([1000 + index, 1]).random(X.shape[0]) < NOISE
    return (y ^ flip).astype(np.int64)


def _sizes(n: int) -> tuple[int, ...]:
    return tuple(min(CHUNK, n - s) for s in range(0, n, CHUNK))


def dask_data(n: int, F: int):
    """The rows as dask arrays whose chunks are generated on the workers (persisted)."""
    import dask.array as da

    sizes = _sizes(n)

    def bits(block_info=None):
        i = block_info[None]["chunk-location"][0]
        return chunk_bits(i, sizes[i], F)

    X = da.map_blocks(bits, dtype=np.uint8, chunks=(sizes, (F,)),
                      meta=np.empty((0, F), np.uint8)).persist()

    def labels(x, block_info=None):
        return chunk_labels(x, block_info[0]["chunk-location"][0])

    y = X.map_blocks(labels, dtype=np.int64, drop_axis=1, meta=np.empty(0, np.int64)).persist()
    return X, y


def local_data(n: int, F: int) -> tuple[np.ndarray, np.ndarray]:
    X = np.concatenate([chunk_bits(i, m, F) for i, m in enumerate(_sizes(n))])
    y = np.concatenate([chunk_labels(X[s:s + m], i) for i, (s, m) in enumerate(
        zip(np.cumsum((0,) + _sizes(n))[:-1], _sizes(n)))])
    return X, y


def _nbytes(obj: Any) -> int:
    if isinstance(obj, np.ndarray):
        return int(obj.nbytes)
    if isinstance(obj, (list, tuple)):
        return sum(_nbytes(o) for o in obj)
    if isinstance(obj, dict):
        return sum(_nbytes(o) for o in obj.values())
    if obj is None:
        return 0
    return 8


class Traffic:
    """The payloads that move between the driver and the workers, by wrapping the methods
    of :class:`~optirules.models.DistributedRows` (bytes of the arrays sent and received)."""

    def __init__(self) -> None:
        self.out = self.back = 0
        self.tasks = 0

    def install(self) -> None:
        from optirules.models import DistributedRows

        begin, mapped, merge = (DistributedRows.begin, DistributedRows.map,
                                DistributedRows._merge_patterns)
        add = DistributedRows.add_clauses
        me = self

        def begin_(rows, mu):
            me.out += (rows.keys.nbytes + np.asarray(mu).nbytes) * len(
                rows.client.scheduler_info()["workers"])
            me.back += 8 * len(rows.parts)  # the counts of nonzero prices
            return begin(rows, mu)

        def map_(rows, func, v, *args):
            for part in mapped(rows, func, v, *args):
                me.tasks += 1
                me.out += _nbytes(args)
                me.back += _nbytes(part)
                yield part

        def merge_(rows):
            keys, weights = merge(rows)
            # each partition sends its distinct patterns (at most the merged ones each)
            me.back += (keys.nbytes + weights.nbytes) * len(rows.parts)
            return keys, weights

        def add_(rows, clauses):
            me.out += 8 * sum(len(c) for c in clauses) * len(rows.parts)
            me.back += 8 * len(clauses) * len(rows.parts)
            return add(rows, clauses)

        DistributedRows.begin, DistributedRows.map = begin_, map_
        DistributedRows._merge_patterns, DistributedRows.add_clauses = merge_, add_


def _worker_stats() -> tuple[float, float]:
    import resource

    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime, _status_mb("VmHWM")


def fit_one(n: int, F: int, mode: str, workers: int) -> dict:
    """One run in this process: ``mode`` "dask" (on ``workers`` processes) or "local"."""
    from optirules.learners import BooleanRuleSetClassifier

    est = BooleanRuleSetClassifier(pricing="exact", random_state=0)
    out: dict[str, Any] = {"rows": n, "features": F, "mode": mode, "workers": workers}
    traffic = Traffic()
    if mode == "local":
        X, y = local_data(n, F)
        out["data_mb"] = _status_mb("VmRSS")
        t0, c0 = time.perf_counter(), time.process_time()
        est.fit(X, y)
        out["time"], out["cpu"] = time.perf_counter() - t0, time.process_time() - c0
        out["driver_peak_mb"] = _status_mb("VmHWM")
        out["workers_cpu"] = out["worker_peak_mb"] = math.nan
        out["patterns"] = math.nan
        out["train_accuracy"] = float((est.predict(X) == y).mean())
    else:
        from distributed import Client, LocalCluster

        traffic.install()
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
        t0 = time.perf_counter()
        X, y = dask_data(n, F)
        from distributed import wait

        wait([X, y])
        out["data_time"] = time.perf_counter() - t0
        cpu0 = sum(c for c, _ in client.run(_worker_stats).values())
        out["data_mb"] = _status_mb("VmRSS")
        t0, c0 = time.perf_counter(), time.process_time()
        est.fit(X, y)
        out["time"], out["cpu"] = time.perf_counter() - t0, time.process_time() - c0
        out["driver_peak_mb"] = _status_mb("VmHWM")  # before anything else is computed
        stats = client.run(_worker_stats)
        out["workers_cpu"] = sum(c for c, _ in stats.values()) - cpu0
        out["worker_peak_mb"] = max(m for _, m in stats.values())
        out["patterns"] = int(est.fit_info_["patterns"])
        # predicted on the workers, partition by partition
        pred = X.map_blocks(est.predict, drop_axis=1, dtype=np.int64,
                            meta=np.empty(0, np.int64))
        out["train_accuracy"] = float((pred == y).mean().compute())
        client.close()
        cluster.close()
    n_iter = len(est.history_)
    out.update({
        "n_iter": n_iter,
        "clauses": sorted(list(c) for c in est.clauses_),
        "planted_found": sorted(est.clauses_) == planted(F),
        "ip_objective": float(est.ip_objective_), "lp_bound": float(est.lp_bound_),
        "gap": float(est.gap_), "certified": bool(est.gap_certified_),
        "max_degree": int(est.max_degree_), "status": est.status_,
        "pool": len(est.pool_),
        "traffic_out_kb": traffic.out / 1024 / max(n_iter, 1),
        "traffic_back_kb": traffic.back / 1024 / max(n_iter, 1),
        "tasks": traffic.tasks / max(n_iter, 1),
    })
    return out


def run_child(n: int, F: int, mode: str, workers: int) -> dict:
    cmd = [sys.executable, __file__, "--one", str(n), "--features", str(F), "--mode", mode,
           "--workers", str(workers)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{mode} at {n} rows failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def stack() -> str:
    from importlib.metadata import version

    import dask
    import scipy
    import sklearn

    return (f"Python {platform.python_version()}, numpy {np.__version__}, scipy "
            f"{scipy.__version__}, scikit-learn {sklearn.__version__}, highspy "
            f"{version('highspy')}, dask {dask.__version__}, distributed "
            f"{version('distributed')}")


def table(rows: list[dict]) -> list[str]:
    lines = ["| rows | fit | driver peak RSS (MB) | largest worker peak RSS (MB) | wall (s) "
             "| driver CPU (s) | workers' CPU (s) | iterations | master rows (label-1 "
             "patterns) | sent to workers per iteration (KB) | back per iteration (KB) "
             "| tasks per iteration | planted rules found | IP objective | gap |",
             "|" + "---|" * 15]
    for r in rows:
        fit = "local" if r["mode"] == "local" else f"dask, {r['workers']} worker" + (
            "s" if r["workers"] > 1 else "")
        nan = r["mode"] == "local"
        lines.append(
            f"| {r['rows']:,} | {fit} | {r['driver_peak_mb']:,.0f} | "
            f"{'' if nan else format(r['worker_peak_mb'], ',.0f')} | {r['time']:.1f} | "
            f"{r['cpu']:.1f} | {'' if nan else format(r['workers_cpu'], '.1f')} | "
            f"{r['n_iter']} | {'' if nan else r['patterns']} | "
            f"{'' if nan else format(r['traffic_out_kb'], ',.0f')} | "
            f"{'' if nan else format(r['traffic_back_kb'], ',.0f')} | "
            f"{'' if nan else format(r['tasks'], '.0f')} | "
            f"{'yes' if r['planted_found'] else 'no'} | {r['ip_objective']:.6f} | "
            f"{r['gap']:.2%} |")
    return lines


def main(argv: list[str] | None = None) -> list[str]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=4_000_000)
    ap.add_argument("--same-rows", type=int, default=400_000)
    ap.add_argument("--features", type=int, default=100)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--mode", default="dask", help=argparse.SUPPRESS)
    ap.add_argument("--out", default=str(RESULTS / "cluster.md"))
    ap.add_argument("--json", help="also write the measurements to this file")
    args = ap.parse_args(argv)
    if args.one is not None:
        print(json.dumps(fit_one(args.one, args.features, args.mode, args.workers[0])))
        return []
    started = datetime.now(timezone.utc)
    load_before = os.getloadavg()
    rows = []
    for w in args.workers:
        rows.append(run_child(args.rows, args.features, "dask", w))
        print(table(rows)[-1], flush=True)
    same = [run_child(args.same_rows, args.features, "local", 1),
            run_child(args.same_rows, args.features, "dask", max(args.workers))]
    for r in same:
        print(table([r])[-1], flush=True)
    load_after = os.getloadavg()
    if args.json:
        Path(args.json).write_text(json.dumps(rows + same))
    a, b = same
    equal = a["clauses"] == b["clauses"] and abs(a["ip_objective"] - b["ip_objective"]) <= 1e-12
    lines = [
        "# Fitting on a cluster: rows on dask workers, the master on the driver",
        "",
        f"Run {started:%Y-%m-%d %H:%M} UTC by `python benchmarks/cluster.py "
        f"{' '.join(sys.argv[1:])}".rstrip() + f"` at niceness {os.nice(0)}, BLAS "
        "single-threaded, `distributed.LocalCluster(n_workers=W, threads_per_worker=1, "
        "processes=True)` on this machine (the scheduler runs in the driver process and "
        "counts in its peak).",
        "",
        f"- stack: {stack()}",
        f"- machine: {platform.machine()}, {os.cpu_count()} CPUs, {platform.system()}; load "
        f"average (1, 5, 15 min) before {tuple(round(x, 2) for x in load_before)}, after "
        f"{tuple(round(x, 2) for x in load_after)} (the 2 cores are shared with other jobs: "
        "times are noisy)",
        f"- data: {args.features} uniform random bits, y = (x0 & x1 & ~x2) | (x3 & ~x4 & x5) | "
        f"(~x6 & x7 & x8), {NOISE:.0%} of labels flipped, generated on the workers in chunks "
        f"of {CHUNK:,} rows; BooleanRuleSetClassifier(pricing='exact', random_state=0), "
        "max_degree='auto' (3 with 200 literals), lambda0 = lambda1 = 'auto'",
        "- the bytes per iteration are the payloads (arrays) of the driver's messages to the "
        "workers and of their replies, summed over the fit and divided by the iterations",
        "",
        *table(rows),
        "",
        f"The same rows ({args.same_rows:,}) fitted locally (in one process) and on "
        f"{max(args.workers)} workers:",
        "",
        *table(same),
        "",
        f"The same model: {'yes' if equal else 'NO'} (clauses {a['clauses']} / "
        f"{b['clauses']}; IP objective {a['ip_objective']!r} / {b['ip_objective']!r}).",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    Path(args.out).write_text(text)
    return lines


if __name__ == "__main__":
    main()
