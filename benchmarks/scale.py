"""Rule sets at scale: a planted DNF at 10k, 100k, 200k and 1M rows, local and dask pricing.

The data: 30 binary features, ``y = (x0 & x1 & ~x2) | (x3 & ~x4 & x5) | (~x6 & x7 & x8)``
with 2 % of the labels flipped (so the best training accuracy is about 0.98, and the three
planted clauses are the rule set to find).  Each size is fitted by
``BooleanRuleSetClassifier(random_state=0)`` (``max_degree="auto"``: 3 with 60 literals at
every N) in its own subprocess, so that its peak resident memory is its own; the table
gives wall time, peak RSS, training accuracy, whether the planted clauses were found, the
degree the gap is certified over, and the work of exact pricing (triples scored, pricing
seconds).  A second table gives, per size, the peak resident memory and the CPU seconds of
each phase of the fit (building the literal matrix, the restricted master LP, beam search,
exact enumeration pricing, the master IP, the fitted attributes, the rest; :class:`Phases`).
The slope of log(time) against log(N) is a least-squares fit over the sizes.
The dask row fits the smallest size with ``backend="dask"`` on a
``distributed.LocalCluster(n_workers=2, threads_per_worker=1)`` and checks that the model
is the local one (same clauses, same objective).

Run from the repository root (the machine is shared: run it in the background)::

    nohup nice -n 10 python benchmarks/scale.py > /tmp/scale.log 2>&1 &
    python benchmarks/scale.py --sizes 10000 100000     # quicker
    python benchmarks/scale.py --sizes 1000000 10000000 --no-dask --json /tmp/after.json \
        --before /tmp/before.json --title after --append    # the issue-41 sizes
    python benchmarks/scale.py --cluster    # and the rows on dask workers (cluster.py)

Wide tables (issue 41, goal 2: a 60 x 10,000 numeric table gives a model within 30 CPU
s): ``--wide`` adds, and ``--wide-only`` runs alone, fits of 60 rows of 1,000, 3,000 and
10,000 standard-normal columns (``--wide-columns``; ``y = x0 + x1 > 0``, seed 0) by
``BooleanRuleSetClassifier(random_state=0)`` (the binarizer's deciles: 18 literals a
column), each in its own subprocess stopped after ``--wide-timeout`` seconds (reported as
no model in that time), with CPU and wall seconds, peak RSS and its phases, the degree
``max_degree="auto"`` chose and whether the gap is certified over it, the status, the
rules and the work of exact pricing (pairs scored, literals the screen dropped).
``--wide-degree 2`` fits at that degree instead of ``"auto"``.

    python benchmarks/scale.py --wide-only --title "Wide tables" --append
    python benchmarks/scale.py --wide          # both goals from one command

Writes ``benchmarks/results/scale.md`` (date, stack, machine load before and after;
``--append`` adds the run below what the file holds, under ``--title``).  ``--json`` keeps
the measurements; ``--before`` adds a comparison with such a file (a run of an earlier
commit) for the sizes both have: peak memory and CPU by phase, whether the clauses, the
pool and the IP objective are the same, and the LP objective and certified bound of both.
BLAS runs single-threaded (``OPENBLAS_NUM_THREADS=1``, set before numpy loads).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import math
import platform
import resource
import shlex
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
PLANTED = [(0, 1, 32), (3, 5, 34), (7, 8, 36)]  # literal j < 30: x_j == 1; 30 + j: x_j == 0


def planted_dnf(n: int, seed: int = 0, noise: float = 0.02):
    from optirules.data import make_planted_dnf

    return make_planted_dnf(n, noise=noise, random_state=seed)


#: the phases of a fit, in the order of the table: the method each one times (wrapped by
#: :class:`Phases`), the rest of the fit counting as "other"
PHASES = ("literals", "master LP", "beam search", "enumeration", "master IP", "finish",
          "other")


def _status_mb(field: str) -> float:
    """A ``/proc/self/status`` figure (``VmHWM``, ``VmRSS``) in MB (NaN off Linux)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return math.nan


class Phases:
    """Peak resident memory and CPU seconds of one fit by phase.

    The methods of each phase are wrapped; at every phase boundary the peak resident set
    (``VmHWM``) is read and then reset to the current one (``echo 5 > /proc/self/clear_refs``,
    Linux 4.0+), so a phase's peak is the highest resident set while it was the innermost
    phase running (the data and the literal matrix, held throughout, included), and its CPU
    seconds are those it ran as the innermost phase.  Without ``clear_refs`` the peaks are
    those of the process so far.
    """

    def __init__(self) -> None:
        self.stack = ["other"]
        self.peak: dict[str, float] = {}
        self.cpu: dict[str, float] = {}
        self.clock = time.process_time()
        self.resettable = self._reset()

    @staticmethod
    def _reset() -> bool:
        try:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")
            return True
        except OSError:
            return False

    def _boundary(self) -> None:
        high, now = _status_mb("VmHWM"), time.process_time()
        top = self.stack[-1]
        self.peak[top] = max(self.peak.get(top, 0.0), high)
        self.cpu[top] = self.cpu.get(top, 0.0) + now - self.clock
        self.clock = now
        self._reset()

    def run(self, phase: str, func: Any, *args: Any, **kwargs: Any) -> Any:
        self._boundary()
        self.stack.append(phase)
        try:
            return func(*args, **kwargs)
        finally:
            self._boundary()
            self.stack.pop()

    def wrap(self, owner: Any, name: str, phase: str) -> None:
        """Time ``owner.name`` (a class's method or a module's function) as ``phase``;
        nothing when the name is not there (the package moved it: that phase then counts
        as "other")."""
        func = getattr(owner, name, None)
        if func is None:
            return

        def timed(*args: Any, **kwargs: Any) -> Any:
            return self.run(phase, func, *args, **kwargs)

        setattr(owner, name, timed)

    def install(self) -> None:
        """Wrap the phases' methods.  Splitting a fit into phases needs its internal steps:
        they are reached through the modules of public functions (no private import), and a
        step the package renames or moves is left unwrapped instead of failing the run."""
        import optirules.models as models
        from optirules.learners import BooleanRuleSetClassifier

        cg = sys.modules[models.solve_column_generation.__module__]
        pricing = sys.modules[models.beam_search_pricing.__module__]
        run = getattr(cg, "_ColumnGeneration", None)
        pool_ip = getattr(cg, "PoolIP", None)
        self.wrap(BooleanRuleSetClassifier, "_literal_matrix", "literals")
        self.wrap(BooleanRuleSetClassifier, "_finish_fit", "finish")
        self.wrap(pricing, "beam_search_pricing", "beam search")
        for name in ("exact_priced", "certify"):
            self.wrap(run, name, "enumeration")
        self.wrap(pool_ip, "solve", "master IP")
        made = getattr(cg, "restricted_master", None)
        if made is None:
            return

        def master(*args: Any, **kwargs: Any) -> Any:  # the LP's build, solves, new columns
            m = self.run("master LP", made, *args, **kwargs)
            for name in ("solve", "add_clauses"):
                func = getattr(m, name)
                setattr(m, name, lambda *a, _f=func, **k: self.run("master LP", _f, *a, **k))
            return m

        cg.restricted_master = master

    def finish(self) -> dict[str, dict[str, float]]:
        self._boundary()
        return {p: {"peak_mb": self.peak.get(p, math.nan), "cpu": self.cpu.get(p, 0.0)}
                for p in PHASES if p in self.peak or p in self.cpu}


def fit_one(n: int, backend: str) -> dict:
    """Fit one size (in this process) and return the measurements."""
    from optirules.learners import BooleanRuleSetClassifier

    X, y = planted_dnf(n)
    data_mb = _status_mb("VmRSS")
    phases = Phases()
    phases.install()
    client = cluster = None
    if backend == "dask":
        from distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    t0, c0 = time.perf_counter(), time.process_time()
    est = BooleanRuleSetClassifier(random_state=0, backend=backend).fit(X, y)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    if client is not None:
        client.close()
        cluster.close()
    stats = est.fit_info_.get("pricing_stats") or {}
    by_phase = phases.finish()
    return {
        "data_mb": data_mb, "phases": by_phase, "phase_reset": phases.resettable,
        "rows": n, "backend": backend, "time": wall, "cpu": cpu,
        "master": est.fit_info_.get("master", ""),
        # clear_refs resets the process's peak too: the peak of the fit is that of its phases
        "peak_rss_mb": (max(v["peak_mb"] for v in by_phase.values()) if phases.resettable
                        else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "train_accuracy": float((est.predict(X) == y).mean()),
        "clauses": [list(c) for c in est.clauses_],
        "planted_found": sorted(est.clauses_) == PLANTED,
        "max_degree": int(est.max_degree_), "gap_certified": bool(est.gap_certified_),
        "gap": float(est.gap_), "ip_objective": float(est.ip_objective_),
        "lp_objective": float(est.lp_objective_), "lp_bound": float(est.lp_bound_),
        "pool": sorted(list(c) for c in est.pool_),
        "n_iter": int(len(est.history_)), "status": est.status_,
        "pricing_seconds": float(stats.get("seconds", math.nan)),
        "triples_scored": int(stats.get("triples_scored", 0)),
        "triples_pruned": int(stats.get("triples_pruned", 0)),
        "pricing_calls": int(stats.get("calls", 0)),
        "cg_time": float(est.fit_info_.get("cg_time", math.nan)),
        "ip_time": float(est.fit_info_.get("ip_time", math.nan)),
    }


def fit_dataset(name: str) -> dict:
    """Fit the default rule set on a bundled data set (in this process): CPU, wall, peak
    memory and what was proven (goal 3 of issue 41)."""
    from optirules.data import load_dataset
    from optirules.learners import BooleanRuleSetClassifier

    X, y = load_dataset(name)
    t0, c0 = time.perf_counter(), time.process_time()
    est = BooleanRuleSetClassifier(random_state=0).fit(X, y)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"dataset": name, "rows": int(len(y)), "literals": int(len(est.literals_)),
            "cpu": cpu, "time": wall,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "master": est.fit_info_.get("master", ""), "status": est.status_,
            "clauses": [list(c) for c in est.clauses_], "n_iter": int(len(est.history_)),
            "ip_objective": float(est.ip_objective_), "gap": float(est.gap_),
            "gap_certified": bool(est.gap_certified_), "max_degree": int(est.max_degree_),
            "train_accuracy": float((est.predict(X) == y).mean())}


def dataset_table(rows: list[dict]) -> list[str]:
    """Default fits on bundled data sets, one row each."""
    lines = ["| data set | rows | literals | CPU (s) | wall (s) | peak RSS (MB) "
             "| restricted master | rules | IP objective | gap | certified over degree "
             "| status |", "|" + "---|" * 12]
    for r in rows:
        deg = str(r["max_degree"]) if r["gap_certified"] else "not certified"
        lines.append(f"| {r['dataset']} | {r['rows']:,} | {r['literals']} | {r['cpu']:.1f} "
                     f"| {r['time']:.1f} | {r['peak_rss_mb']:.0f} | {r['master']} "
                     f"| {len(r['clauses'])} | {r['ip_objective']:.6f} | {r['gap']:.2%} "
                     f"| {deg} | {r['status']} |")
    return lines


def wide_table_data(columns: int, rows: int = 60, seed: int = 0):
    """``rows`` x ``columns`` standard-normal features and ``y = x0 + x1 > 0``."""
    import numpy as np

    rng = np.random.default_rng(seed)
    X = rng.standard_normal((rows, columns))
    return X, X[:, 0] + X[:, 1] > 0


def fit_wide(columns: int, degree: str) -> dict:
    """Fit one wide table (in this process) and return the measurements."""
    from optirules.learners import BooleanRuleSetClassifier

    X, y = wide_table_data(columns)
    phases = Phases()
    phases.install()
    t0, c0 = time.perf_counter(), time.process_time()
    est = BooleanRuleSetClassifier(
        random_state=0, max_degree=degree if degree == "auto" else int(degree)).fit(X, y)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    stats = est.fit_info_.get("pricing_stats") or {}
    by_phase = phases.finish()
    return {
        "columns": columns, "rows": int(X.shape[0]), "literals": len(est.literals_),
        "degree_asked": degree, "time": wall, "cpu": cpu, "phases": by_phase,
        "peak_rss_mb": (max(v["peak_mb"] for v in by_phase.values()) if phases.resettable
                        else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "max_degree": int(est.max_degree_), "gap_certified": bool(est.gap_certified_),
        "gap": float(est.gap_), "status": est.status_, "rules": str(est.rules_),
        "clauses": [list(c) for c in est.clauses_],
        "train_accuracy": float((est.predict(X) == y).mean()),
        "ip_objective": float(est.ip_objective_), "lp_bound": float(est.lp_bound_),
        "n_iter": int(len(est.history_)), "pricing_calls": int(stats.get("calls", 0)),
        "pairs_scored": int(stats.get("pairs_scored", 0)),
        "literals_screened": int(stats.get("literals_screened", 0)),
        "screened_calls": int(stats.get("screened_calls", 0)),
        "pricing_seconds": float(stats.get("seconds", math.nan)),
    }


def run_wide_child(columns: int, degree: str, timeout: float) -> dict:
    """One wide fit in a subprocess; after ``timeout`` seconds, a row saying no model."""
    t0 = time.perf_counter()
    try:
        out = subprocess.run([sys.executable, __file__, "--one-wide", str(columns),
                              "--wide-degree", degree], capture_output=True, text=True,
                             check=False, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"columns": columns, "rows": 60, "degree_asked": degree, "timeout": timeout,
                "time": time.perf_counter() - t0}
    if out.returncode != 0:
        raise RuntimeError(f"wide table of {columns} columns failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def wide_table(rows: list[dict]) -> list[str]:
    """One line per wide fit."""
    lines = ["| rows x columns | literals | max_degree | CPU (s) | time (s) | peak RSS (MB) "
             "| degree certified | gap | status | rules | train accuracy | iterations "
             "| exact pricing calls | pairs scored | literals screened (summed over calls) |",
             "|" + "---|" * 15]
    for r in rows:
        size = f"{r['rows']} x {r['columns']:,}"
        if "timeout" in r:
            lines.append(f"| {size} | | {r['degree_asked']} | | > {r['timeout']:.0f} | "
                         f"| | | no model in {r['timeout']:.0f} s (stopped) | | | | | | |")
            continue
        deg = (f"{r['max_degree']}" if r["gap_certified"]
               else f"none (max_degree {r['max_degree']})")
        lines.append(
            f"| {size} | {r['literals']:,} | {r['degree_asked']} | {r['cpu']:.1f} | "
            f"{r['time']:.1f} | {r['peak_rss_mb']:.0f} | {deg} | {r['gap']:.2%} | "
            f"{r['status']} | {r['rules']} | {r['train_accuracy']:.4f} | {r['n_iter']} | "
            f"{r['pricing_calls']} | {r['pairs_scored']:,} | {r['literals_screened']:,} |")
    return lines


def wide_phase_table(rows: list[dict]) -> list[str]:
    """Peak resident memory (MB) and CPU seconds by phase of the wide fits."""
    done = [dict(r, rows=r["columns"], label=f"60 rows, max_degree {r['degree_asked']}")
            for r in rows if "timeout" not in r]
    if not done:
        return []
    lines = phase_table(done)
    lines[0] = lines[0].replace("| rows |", "| columns |", 1)
    return lines


def run_child(n: int, backend: str) -> dict:
    """One size of the planted DNF fitted in a fresh process (:func:`child`)."""
    return child(["--one", str(n), "--backend", backend])


def stack() -> str:
    from importlib.metadata import version

    import dask
    import numpy
    import scipy
    import sklearn

    return (f"Python {platform.python_version()}, numpy {numpy.__version__}, scipy "
            f"{scipy.__version__}, scikit-learn {sklearn.__version__}, highspy "
            f"{version('highspy')}, dask {dask.__version__}, distributed "
            f"{version('distributed')}")


def machine() -> str:
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{platform.machine()}, {os.cpu_count()} CPUs, {mem:.0f} GB RAM, {platform.system()}"


def table(rows: list[dict]) -> list[str]:
    head = ("| rows | backend | time (s) | CPU (s) | restricted master | peak RSS (MB) "
            "| train accuracy | planted DNF found "
            "| degree certified | gap | iterations | column generation (s) | master IP (s) "
            "| exact pricing calls | exact pricing (s) "
            "| triples scored | triples pruned | triples scored / s |")
    lines = [head, "|" + "---|" * 18]
    for r in rows:
        deg = f"{r['max_degree']}" if r["gap_certified"] else f"none (max_degree {r['max_degree']})"
        lines.append(
            f"| {r['rows']:,} | {r['backend']} | {r['time']:.1f} | {r.get('cpu', math.nan):.1f} | "
            f"{r.get('master', '')} | {r['peak_rss_mb']:.0f} | "
            f"{r['train_accuracy']:.4f} | {'yes' if r['planted_found'] else 'no'} | {deg} | "
            f"{r['gap']:.2%} | {r['n_iter']} | {r['cg_time']:.1f} | {r['ip_time']:.1f} | "
            f"{r['pricing_calls']} | "
            f"{r['pricing_seconds']:.1f} | {r['triples_scored']:,} | {r['triples_pruned']:,} | "
            f"{r['triples_scored'] / max(r['pricing_seconds'], 1e-9):,.0f} |")
    return lines


def phase_table(rows: list[dict]) -> list[str]:
    """Peak resident memory (MB) and CPU seconds by phase, one row per fit."""
    names = [p for p in PHASES if any(p in r.get("phases", {}) for r in rows)]
    lines = ["| rows | label | " + " | ".join(f"{p}: peak MB / CPU s" for p in names)
             + " | fit: peak MB / CPU s |", "|" + "---|" * (len(names) + 3)]
    for r in rows:
        cells = []
        for p in names:
            v = r.get("phases", {}).get(p)
            cells.append("" if v is None else f"{v['peak_mb']:,.0f} / {v['cpu']:.1f}")
        lines.append(f"| {r['rows']:,} | {r.get('label', '')} | " + " | ".join(cells)
                     + f" | {r['peak_rss_mb']:,.0f} / {r['cpu']:.1f} |")
    return lines


def compare(before: list[dict], after: list[dict]) -> list[str]:
    """The phases of both runs by size, and whether the fitted model is the same."""
    both = [(b, a) for a in after for b in before
            if a["backend"] == b["backend"] == "local" and a["rows"] == b["rows"]]
    if not both:
        return []
    rows = []
    for b, a in both:
        rows += [dict(b, label="before"), dict(a, label="after")]
    lines = ["", "Peak resident memory and CPU by phase, before and after:", "",
             *phase_table(rows), ""]
    for b, a in both:
        same = {k: a[k] == b[k] for k in ("clauses", "pool", "ip_objective", "lp_objective",
                                         "lp_bound", "gap_certified", "max_degree")}
        lines.append(
            f"- {a['rows']:,} rows: clauses {'the same' if same['clauses'] else 'DIFFER'} "
            f"({a['clauses']}), pool {'the same' if same['pool'] else 'differs'}, IP "
            f"objective {'the same float' if same['ip_objective'] else 'differs'} "
            f"({b['ip_objective']!r} / {a['ip_objective']!r}), LP objective "
            f"{b['lp_objective']!r} / {a['lp_objective']!r}, certified bound "
            f"{b['lp_bound']!r} / {a['lp_bound']!r}, gap certified over degree "
            f"{b['max_degree']} / {a['max_degree']}: "
            f"{'both' if b['gap_certified'] and a['gap_certified'] else 'NOT both'}.")
    return lines


def slope(rows: list[dict]) -> float:
    import numpy as np

    local = [r for r in rows if r["backend"] == "local"]
    if len(local) < 2:
        return math.nan
    x = np.log([r["rows"] for r in local])
    t = np.log([r["time"] for r in local])
    return float(np.polyfit(x, t, 1)[0])


# ====================================================================== issue 41's goals
#: the targets of issue 41, by goal
TARGETS = {
    1: "10,000,000 rows of the planted DNF: peak memory at most 4,000 MB, at most 120 CPU s, "
       "the same rules and certificate",
    2: "a 60 x 10,000 numeric table: a model within 30 CPU s, certified or with a status that "
       "says what was searched",
    3: "adult and magic_gamma default fits at most 8 CPU s each with the same certified "
       "results; growth from 20,000 to 200,000 rows of the planted DNF at most linear",
    4: "the first default fit in a fresh process at most 0.25 CPU s more than the second",
    5: "fit on dask collections with the rows on the workers: 4,000,000 rows x 100 bits, "
       "driver peak at most 600 MB, the planted rules, the local fit's model",
}


def child(args: list[str], tree: str | None = None, timeout: float | None = None) -> Any:
    """Run this script with ``args`` in a fresh process (the package of ``tree`` first on
    the path when given: a checkout of an earlier commit) and return its last JSON line;
    ``{"timeout": seconds}`` when it runs past ``timeout``."""
    env = dict(os.environ)
    if tree:
        env["PYTHONPATH"] = tree
    try:
        out = subprocess.run([sys.executable, __file__, *args], capture_output=True,
                             text=True, check=False, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    if out.returncode != 0:
        raise RuntimeError(f"{args} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def cold_start_child(tree: str | None, data: str = "heart_cleveland") -> dict:
    """One fresh process fitting the default rule set twice (``cold_start.py``'s child)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import cold_start

    env = dict(os.environ)
    if tree:
        env["PYTHONPATH"] = tree
    # run in the tree (python -c puts the working directory first on the path)
    out = subprocess.run([sys.executable, "-c", cold_start.CHILD.format(data=data)],
                         capture_output=True, text=True, check=True, env=env,
                         cwd=tree or None)
    return json.loads(out.stdout.strip().splitlines()[-1])


def goal_planted(trees: dict[str, str | None], sizes: list[int]) -> tuple[list[str], dict]:
    """Goal 1: the planted DNF at ``sizes``, each tree's fit in its own process."""
    rows = []
    for label, tree in trees.items():
        for n in sizes:
            r = child(["--one", str(n), "--backend", "local"], tree)
            rows.append(dict(r, label=label))
            print(f"goal 1, {label}, {n:,} rows: {r['cpu']:.1f} CPU s, "
                  f"{r['peak_rss_mb']:,.0f} MB", flush=True)
    main = table(rows)
    lines = ["| run " + main[0], "|---" + main[1],
             *[f"| {r['label']} " + line for r, line in zip(rows, main[2:])],
             "", "Peak resident memory and CPU by phase:", "", *phase_table(rows)]
    before = [r for r in rows if r["label"] == "before"]
    after = [r for r in rows if r["label"] == "after"]
    if before and after:
        lines += ["", *[x for x in compare(before, after) if x.startswith("- ")]]
    return lines, {"rows": rows}


def goal_datasets(trees: dict[str, str | None], names: list[str],
                  sizes: list[int]) -> tuple[list[str], dict]:
    """Goal 3: default fits on bundled data sets, and the planted DNF's growth in rows."""
    fits, growth = [], []
    for label, tree in trees.items():
        for name in names:
            r = child(["--dataset-one", name], tree)
            fits.append(dict(r, label=label))
            print(f"goal 3, {label}, {name}: {r['cpu']:.1f} CPU s", flush=True)
        for n in sizes:
            r = child(["--one", str(n), "--backend", "local"], tree)
            growth.append(dict(r, label=label))
    lines = ["| run | " + dataset_table(fits)[0][2:], "|---" + dataset_table(fits)[1]]
    for r, line in zip(fits, dataset_table(fits)[2:]):
        lines.append(f"| {r['label']} " + line)
    for a in (r for r in fits if r["label"] == "after"):
        b = next((r for r in fits if r["label"] == "before" and r["dataset"] == a["dataset"]),
                 None)
        if b is not None:
            same = b["clauses"] == a["clauses"] and b["ip_objective"] == a["ip_objective"]
            lines.append(f"- {a['dataset']}: {b['cpu']:.1f} -> {a['cpu']:.1f} CPU s "
                         f"({b['cpu'] / max(a['cpu'], 1e-9):.1f}x); rules and IP objective "
                         f"{'the same' if same else 'DIFFER'} ({a['clauses']}, "
                         f"{a['ip_objective']!r}); gap {b['gap']:.2%} / {a['gap']:.2%}.")
    lines += ["", "Growth in rows (planted DNF, default fit, CPU s):", "",
              "| run | " + " | ".join(f"{n:,} rows" for n in sizes) + " | exponent |",
              "|---|" + "---|" * (len(sizes) + 1)]
    for label in trees:
        mine = [r for r in growth if r["label"] == label]
        expo = (math.log(mine[-1]["cpu"] / mine[0]["cpu"]) / math.log(sizes[-1] / sizes[0])
                if len(mine) >= 2 else math.nan)
        lines.append(f"| {label} | " + " | ".join(f"{r['cpu']:.2f}" for r in mine)
                     + f" | {expo:.2f} |")
    return lines, {"fits": fits, "growth": growth}


def goal_cold_start(trees: dict[str, str | None], runs: int = 5) -> tuple[list[str], dict]:
    """Goal 4: first and second default fit in fresh processes, the median of ``runs``."""
    import statistics

    lines = ["| run | first fit (CPU s, median) | second fit | first - second "
             "| Pyomo or cvxpy imported |", "|---|---|---|---|---|"]
    out = {}
    for label, tree in trees.items():
        res = [cold_start_child(tree) for _ in range(runs)]
        first = statistics.median(r["first"] for r in res)
        second = statistics.median(r["second"] for r in res)
        diff = statistics.median(r["first"] - r["second"] for r in res)
        imported = sorted({m for r in res for m in r["imported"]}) or ["neither"]
        lines.append(f"| {label} | {first:.3f} | {second:.3f} | {diff:.3f} "
                     f"| {', '.join(imported)} |")
        out[label] = res
    return lines, out


def run_goals(args: Any) -> None:
    """Every goal of issue 41 measured in one run (``--goals``), before (``--before-tree``, a
    checkout of the commit before the issue's work) and after (this checkout), written to
    ``--out`` above what the file held."""
    trees: dict[str, str | None] = {}
    if args.before_tree:
        trees["before"] = args.before_tree
    trees["after"] = None
    started = datetime.now(timezone.utc)
    load_before = os.getloadavg()
    sections: list[str] = []
    record: dict[str, Any] = {}
    for goal in args.goals:
        if goal == 1:
            lines, rec = goal_planted(trees, args.sizes)
        elif goal == 3:
            lines, rec = goal_datasets(trees, ["adult", "magic_gamma"], [20_000, 200_000])
        elif goal == 4:
            lines, rec = goal_cold_start(trees)
        else:
            lines, rec = GOAL_RUNNERS[goal](trees, args)
        record[str(goal)] = rec
        sections += [f"### Goal {goal}", "", f"Target: {TARGETS[goal]}.", "", *lines, ""]
        print("\n".join(sections[-len(lines) - 5:]), flush=True)
    load_after = os.getloadavg()
    head = [
        f"## {args.title or 'Issue 41: every goal, before and after'}", "",
        f"Run {started:%Y-%m-%d %H:%M} UTC by `python benchmarks/scale.py "
        f"{' '.join(sys.argv[1:])}` at niceness {os.nice(0)}, BLAS single-threaded; each fit "
        "in its own process (\"before\": the package of the checkout given as "
        "`--before-tree`; \"after\": this checkout), one after the other.",
        "",
        f"- stack: {stack()}",
        f"- machine: {machine()}; load average (1, 5, 15 min) before {load_before}, after "
        f"{load_after} (the 2 cores are shared with other jobs: times are noisy)",
        "",
    ]
    text = "\n".join(head + sections) + "\n"
    if args.json:
        Path(args.json).write_text(json.dumps(record))
    out = Path(args.out)
    if out.exists():
        text = text + "\n" + out.read_text()
    out.write_text(text)


def goal_wide(trees: dict[str, str | None], args: Any) -> tuple[list[str], dict]:
    """Goal 2: wide tables with the defaults, each fit stopped after ``--wide-timeout``."""
    rows = []
    for label, tree in trees.items():
        for columns in args.wide_columns:
            r = child(["--one-wide", str(columns), "--wide-degree", args.wide_degree], tree,
                      timeout=args.wide_timeout)
            if "timeout" in r:
                r = {"columns": columns, "rows": 60, "degree_asked": args.wide_degree,
                     "timeout": args.wide_timeout}
            rows.append(dict(r, label=label))
            what = "no model" if "timeout" in r else f"{r['cpu']:.1f} CPU s"
            print(f"goal 2, {label}, 60 x {columns:,}: {what}", flush=True)
    lines = ["| run " + wide_table(rows)[0], "|---" + wide_table(rows)[1]]
    lines += [f"| {r['label']} " + line for r, line in zip(rows, wide_table(rows)[2:])]
    return lines, {"rows": rows}


def goal_cluster(trees: dict[str, str | None], args: Any) -> tuple[list[str], dict]:
    """Goal 5: the rows on dask workers (``benchmarks/cluster.py``).  Its runs take the
    better part of an hour on two shared cores, so by default this reads the committed
    measured run (``results/cluster.json``, labelled with its date, stack and load in
    ``results/cluster.md``); ``--measure-cluster`` runs it again first.  "Before" has no
    such fit: ``backend="dask"`` priced on the workers with every row on the driver."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import cluster

    measured = RESULTS / "cluster.json"
    if args.measure_cluster:
        subprocess.run([sys.executable, cluster.__file__, "--json", str(measured)],
                       check=True)
    rows = json.loads(measured.read_text())
    run = next((x for x in (RESULTS / "cluster.md").read_text().splitlines()
                if x.startswith("Run ")), "")
    source = ("measured in this run" if args.measure_cluster
              else f"read from `benchmarks/results/cluster.json` ({run.split(' by ')[0]}; "
                   "stack and load in `benchmarks/results/cluster.md`)")
    return [f"The rows on dask workers, {source}:", "", *cluster.table(rows)], {"rows": rows}


#: goals measured by parts of this script added with them (goal -> runner(trees, args))
GOAL_RUNNERS: dict[int, Any] = {2: goal_wide, 5: goal_cluster}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 200_000, 1_000_000])
    ap.add_argument("--dask-size", type=int, default=10_000)
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--cluster", action="store_true",
                    help="then run benchmarks/cluster.py (the rows on dask workers: 4M rows x "
                         "100 bits on 1 and 2 workers, and a local fit of the same rows; its "
                         "own results file, benchmarks/results/cluster.md)")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--backend", default="local", help=argparse.SUPPRESS)
    ap.add_argument("--dataset-one", help=argparse.SUPPRESS)
    ap.add_argument("--one-wide", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--wide", action="store_true",
                    help="also fit the wide tables (issue 41, goal 2)")
    ap.add_argument("--wide-only", action="store_true", help="fit the wide tables only")
    ap.add_argument("--wide-columns", type=int, nargs="+", default=[1_000, 3_000, 10_000])
    ap.add_argument("--wide-degree", default="auto",
                    help='max_degree of the wide fits ("auto" or a number)')
    ap.add_argument("--wide-timeout", type=float, default=300.0,
                    help="seconds after which a wide fit is stopped (no model)")
    ap.add_argument("--out", default=str(RESULTS / "scale.md"))
    ap.add_argument("--append", action="store_true",
                    help="add the run below the file's content instead of replacing it")
    ap.add_argument("--title", default="", help="the heading of the run (with --append)")
    ap.add_argument("--json", help="also write the measurements to this file")
    ap.add_argument("--before", help="measurements (--json) of an earlier run to compare")
    ap.add_argument("--goals", type=int, nargs="*",
                    help="measure these goals of issue 41 (default: all five), before and "
                         "after, and write them above the file's content")
    ap.add_argument("--measure-cluster", action="store_true",
                    help="with --goals: run benchmarks/cluster.py again for goal 5 instead of "
                         "reading its committed run")
    ap.add_argument("--before-tree", help="a checkout of the commit before issue 41's work, "
                                          "measured as 'before' (with --goals)")
    args = ap.parse_args()
    if args.goals is not None:
        args.goals = args.goals or [1, 2, 3, 4, 5]
        if args.sizes == ap.get_default("sizes"):
            args.sizes = [1_000_000, 10_000_000]
        run_goals(args)
        return
    if args.one is not None:
        print(json.dumps(fit_one(args.one, args.backend)))
        return
    if args.dataset_one is not None:
        print(json.dumps(fit_dataset(args.dataset_one)))
        return
    if args.one_wide is not None:
        print(json.dumps(fit_wide(args.one_wide, args.wide_degree)))
        return
    if args.wide_degree != "auto" and not args.wide_degree.isdigit():
        ap.error(f'--wide-degree must be "auto" or a number, got {args.wide_degree!r}')
    if args.wide_only:
        return wide_main(args)
    started = datetime.now(timezone.utc)
    load_before = os.getloadavg()
    print(f"load average before: {load_before}", flush=True)
    rows = []
    for n in args.sizes:
        rows.append(run_child(n, "local"))
        print(table(rows)[-1], flush=True)
    if not args.no_dask:
        rows.append(run_child(args.dask_size, "dask"))
        print(table(rows)[-1], flush=True)
    load_after = os.getloadavg()
    if args.json:
        Path(args.json).write_text(json.dumps(rows))
    b = slope(rows)
    lines = [
        "# Rule sets at scale: planted DNF, local and dask pricing" if not args.append
        else f"## {args.title or 'Run'}",
        "",
        f"Run {started:%Y-%m-%d %H:%M} UTC by `python benchmarks/scale.py "
        f"{' '.join(sys.argv[1:])}".rstrip() + "`" + f" at niceness {os.nice(0)}, BLAS "
        "single-threaded.  Peak RSS is the fitting process's (dask workers not counted); CPU "
        "is the fitting process's process time (dask workers not counted).",
        "",
        f"- stack: {stack()}",
        f"- machine: {machine()}; load average (1, 5, 15 min) before {load_before}, after "
        f"{load_after} (the 2 cores are shared with other jobs: times are noisy)",
        "- data: 30 binary features, y = (x0 & x1 & ~x2) | (x3 & ~x4 & x5) | (~x6 & x7 & x8), "
        "2 % of labels flipped (seed 0); BooleanRuleSetClassifier(random_state=0), "
        "max_degree='auto' (3 with 60 literals), lambda0 = lambda1 = 0.001",
        "",
        *table(rows),
        "",
        "Peak resident memory and CPU by phase (the peak of the fit is the largest):",
        "",
        *phase_table(rows),
        "",
        f"Slope of log(time) against log(rows), local fits: {b:.2f}.",
    ]
    if args.before:
        lines += compare(json.loads(Path(args.before).read_text()), rows)
    dask_rows = [r for r in rows if r["backend"] == "dask"]
    for d in dask_rows:
        ref = next((r for r in rows if r["backend"] == "local" and r["rows"] == d["rows"]), None)
        if ref is not None:
            same = ref["clauses"] == d["clauses"] and ref["ip_objective"] == d["ip_objective"]
            lines.append(f"Dask at {d['rows']:,} rows (LocalCluster, 2 worker processes, 1 "
                         f"thread each): {'the same' if same else 'NOT the same'} model as the "
                         f"local fit (clauses {d['clauses']}, objective {d['ip_objective']!r}).")
    if args.wide:
        lines += ["", *wide_lines(args, heading="### Wide tables")]
    write(args, lines)


def write(args: argparse.Namespace, lines: list[str]) -> None:
    """Print the report and write it to ``--out`` (below its content with ``--append``)."""
    text = "\n".join(lines) + "\n"
    print(text)
    out = Path(args.out)
    if args.append and out.exists():
        text = out.read_text().rstrip("\n") + "\n\n" + text
    out.write_text(text)
    if args.cluster:  # each of its runs in its own subprocess, as here
        subprocess.run([sys.executable, str(Path(__file__).with_name("cluster.py"))],
                       check=True)


def wide_lines(args: argparse.Namespace, heading: str) -> list[str]:
    """Fit the wide tables, each in a subprocess, and report them."""
    started = datetime.now(timezone.utc)
    load_before = os.getloadavg()
    rows = []
    for columns in args.wide_columns:
        rows.append(run_wide_child(columns, args.wide_degree, args.wide_timeout))
        print(wide_table(rows)[-1], flush=True)
    load_after = os.getloadavg()
    if args.json:
        path = Path(args.json)
        path = path.with_name(path.stem + "_wide" + path.suffix) if not args.wide_only \
            else path
        path.write_text(json.dumps(rows))
    phases = wide_phase_table(rows)
    return [
        heading,
        "",
        f"Run {started:%Y-%m-%d %H:%M} UTC by `python benchmarks/scale.py "
        f"{shlex.join(sys.argv[1:])}".rstrip() + "`" + f" at niceness {os.nice(0)}, BLAS "
        "single-threaded; each fit in its own subprocess (peak RSS and CPU are its own), "
        f"stopped after {args.wide_timeout:.0f} s.",
        "",
        f"- stack: {stack()}",
        f"- machine: {machine()}; load average (1, 5, 15 min) before {load_before}, after "
        f"{load_after} (the 2 cores are shared with other jobs: times are noisy)",
        "- data: 60 rows of standard-normal columns (numpy default_rng(0)), y = x0 + x1 > 0; "
        "BooleanRuleSetClassifier(random_state=0) with its defaults (binarizer deciles: 18 "
        f"literals a column; lambda0 = lambda1 = 0.1 / sqrt(60)), max_degree "
        f"{args.wide_degree}",
        "",
        *wide_table(rows),
        *(["", "Peak resident memory and CPU by phase:", "", *phases] if phases else []),
    ]


def wide_main(args: argparse.Namespace) -> None:
    write(args, wide_lines(args, heading=f"## {args.title or 'Wide tables'}"
                           if args.append else "# Rule sets on wide tables"))


if __name__ == "__main__":
    main()
