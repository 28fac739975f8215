"""Fit time of DRORuleEnsembleClassifier (the DRO paper) on magic_gamma and adult, and its
growth with the number of rows.

Run from the repository root::

    nice -n 10 python benchmarks/dro.py            # magic_gamma, adult, adult at 20k/30k/48k
    python benchmarks/dro.py --quick               # 2,000 / 3,000 rows, a minute
    python benchmarks/dro.py --time-limit 600      # each fit stopped after 10 minutes
    python benchmarks/dro.py --member-ip-time-limit 2 --out benchmarks/results/dro_capped.md
    python benchmarks/dro.py --n-jobs 2 --out benchmarks/results/dro_n_jobs.md

Every fit is the default ensemble (``DRORuleEnsembleClassifier(binarizer="auto",
random_state=0)``: overall budget 30, member budgets {10, 15, 30}, at most 10 members each,
``n_iter_no_change=2``, member IPs at ``mip_gap=0.01``, ``max_degree="auto"``, which gives 2
on adult and magic_gamma at these sizes; ``--max-degree`` fixes it) on the bundled data;
adult's row subsets are a fixed random permutation's first N rows.  For each
fit the table gives the wall and CPU time, the seconds spent in each step summed over the members
(``history_``: the members' column generation and master IPs, the worst-case pmfs, the
combination IPs), the members grown, the largest certified member gap, the training
accuracy and the cost of the returned combination, and the
machine's load average (1 min) before and after the fit (the machine has 2 cores shared
with other work, so times are noisy).  The slope of log(time) against log(rows) over
adult's subsets is the least-squares slope through the points (1.0 = linear).

Writes ``benchmarks/results/dro.md`` (``--out`` to change it).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import time
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results"
PARTIAL = " (not finished: the table holds the fits done so far)"
STEPS = ("member_cg_time", "member_ip_time", "pmf_time", "combination_time")


def _stack() -> str:
    import pyomo
    import scipy
    import sklearn

    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, check=True, cwd=Path(__file__).parent).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        rev = "unknown"
    from importlib.metadata import version

    return (f"Python {platform.python_version()}, numpy {np.__version__}, scipy "
            f"{scipy.__version__}, scikit-learn {sklearn.__version__}, highspy "
            f"{version('highspy')}, Pyomo {pyomo.__version__}; optirules "
            f"at commit {rev}; {platform.machine()}, {os.cpu_count()} cores (shared)")


def _rows(name: str, n: int | None, seed: int = 0):
    from optirules.data import load_dataset

    X, y = load_dataset(name)
    if n is None or n >= len(y):
        return X, y
    idx = np.random.default_rng(seed).permutation(len(y))[:n]
    return X.iloc[idx].reset_index(drop=True), y[idx]


def fit_once(name: str, n: int | None, max_degree: int | str = "auto", **params) -> dict:
    from optirules.learners import BooleanRuleSetClassifier, DRORuleEnsembleClassifier

    X, y = _rows(name, n)
    load_before = os.getloadavg()[0]
    member = BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=max_degree)
    est = DRORuleEnsembleClassifier(random_state=0, member=member, **params)
    t, c = time.perf_counter(), time.process_time()
    est.fit(X, y)
    seconds, cpu = time.perf_counter() - t, time.process_time() - c
    load_after = os.getloadavg()[0]
    steps = {k: float(sum(h[k] for h in est.history_)) for k in STEPS}
    gaps = [m["gap"] for m in est.member_results_ if m["gap_certified"]]
    return {"dataset": name, "rows": len(y), "seconds": seconds, "cpu": cpu, **steps,
            "members": len(est.history_),
            "max_member_gap": max(gaps) if gaps else float("nan"),
            "train_accuracy": float(np.mean(est.predict(X) == y)),
            "cost": int(est.complexity_), "member_complexity": est.member_complexity_,
            "max_degree": int(est.max_degree_),
            "load_before": load_before, "load_after": load_after, "status": est.status_}


def _default(name: str):
    """The learner's default of parameter ``name`` (printed with the results)."""
    from optirules.learners import DRORuleEnsembleClassifier

    return DRORuleEnsembleClassifier().get_params()[name]


def slope(rows: list[int], seconds: list[float]) -> float:
    """Least-squares slope of log(seconds) against log(rows)."""
    return float(np.polyfit(np.log(rows), np.log(seconds), 1)[0])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Fit time of DRORuleEnsembleClassifier on "
                                 "magic_gamma and adult (writes benchmarks/results/dro.md).")
    ap.add_argument("--quick", action="store_true", help="small row counts (a smoke run)")
    ap.add_argument("--out", type=Path, default=RESULTS / "dro.md")
    ap.add_argument("--max-degree", default="auto",
                    help="literals per clause: 'auto' (default, the learner's) or a number")
    ap.add_argument("--time-limit", type=float, default=None,
                    help="time_limit of each fit in seconds (default: none); a fit it stops "
                         "says so in the status column")
    ap.add_argument("--n-jobs", type=int, default=None,
                    help="n_jobs of each fit (default: None, the member budgets one after "
                         "the other)")
    args = ap.parse_args(argv)
    degree = args.max_degree if args.max_degree == "auto" else int(args.max_degree)
    if args.quick:
        cases = [("magic_gamma", 2000), ("adult", 2000), ("adult", 3000)]
        sizes = [2000, 3000]
    else:
        cases = [("adult", 20000), ("adult", 30000), ("adult", 48000), ("adult", None),
                 ("magic_gamma", None)]
        sizes = [20000, 30000, 48000]
    started = datetime.datetime.now(datetime.timezone.utc)
    t0 = time.perf_counter()
    load0 = os.getloadavg()
    rows = []
    for name, n in cases:
        r = fit_once(name, n, max_degree=degree, time_limit=args.time_limit,
                     n_jobs=args.n_jobs)
        rows.append(r)
        print(f"{name} {r['rows']} rows: {r['seconds']:.1f} s, CPU {r['cpu']:.1f} s (cg "
              f"{r['member_cg_time']:.1f}, "
              f"member IP {r['member_ip_time']:.1f}, pmf {r['pmf_time']:.2f}, combination "
              f"{r['combination_time']:.1f}), train acc {r['train_accuracy']:.4f}, cost "
              f"{r['cost']}, load {r['load_before']:.2f} -> {r['load_after']:.2f}", flush=True)
        # the file is rewritten after every fit, so an interrupted run keeps what it measured
        write(args, rows, sizes, started, t0, load0, done=len(rows) == len(cases))


def write(args, rows, sizes, started, t0, load0, *, done: bool) -> None:
    load1 = os.getloadavg()
    adult = {r["rows"]: r["seconds"] for r in rows if r["dataset"] == "adult"}
    pts = [n for n in sizes if n in adult]
    s = slope(pts, [adult[n] for n in pts]) if len(pts) >= 2 else float("nan")
    lines = [
        "# DRO rule ensemble: fit time",
        "",
        f"Run {started:%Y-%m-%d %H:%M} UTC, {time.perf_counter() - t0:.0f} s in all"
        f"{' (--quick)' if args.quick else ''}{'' if done else PARTIAL}; {_stack()}.",
        f"Load average (1, 5, 15 min) before the run {load0[0]:.2f}, {load0[1]:.2f}, "
        f"{load0[2]:.2f}; after the last fit {load1[0]:.2f}, {load1[1]:.2f}, {load1[2]:.2f}.",
        "",
        f"`DRORuleEnsembleClassifier(random_state=0, member=BooleanRuleSetClassifier("
        f"lambda0=0.0, lambda1=0.0, tol=0.0, max_degree={args.max_degree}), "
        f"time_limit={args.time_limit}, n_jobs={args.n_jobs})` "
        "(otherwise defaults: budget 30, "
        "member budgets 10, 15, 30, at most 10 members each, `n_iter_no_change=2`, member "
        "master IPs at `mip_gap=0.01` (from 5,000 merged label-1 rows by branch and bound "
        f"over the dual LP), `member_warm_start={_default('member_warm_start')!r}`, "
        "the "
        "combination IP through the direct highspy model). Step columns: wall seconds summed "
        "over the members of the fit (`history_`); largest member gap: the largest relative "
        "gap of a member's IP objective over its certified LP bound."
        + ("" if args.n_jobs in (None, 1) else
           " CPU: the fitting process's alone; the member budgets' loops ran in joblib "
           "worker processes, whose CPU it does not count."),
        "",
        "| data | rows | fit (s) | CPU (s) | member CG (s) | member IP (s) | pmf (s) "
        "| combination (s) | members | largest member gap | train acc. | cost | C' "
        "| max_degree | status | load before -> after |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['dataset']} | {r['rows']} | {r['seconds']:.1f} | {r['cpu']:.1f} "
            f"| {r['member_cg_time']:.1f} "
            f"| {r['member_ip_time']:.1f} | {r['pmf_time']:.2f} | {r['combination_time']:.1f} "
            f"| {r['members']} | {r['max_member_gap']:.2%} | {r['train_accuracy']:.4f} "
            f"| {r['cost']} "
            f"| {r['member_complexity']:g} | {r['max_degree']} | {r['status']} "
            f"| {r['load_before']:.2f} -> {r['load_after']:.2f} |")
    lines += ["", f"Slope of log(fit time) vs log(rows), adult at {', '.join(map(str, pts))} "
                  f"rows: **{s:.2f}**.", ""]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines))
    if done:
        print("\n".join(lines))


if __name__ == "__main__":
    main()
