"""QMM QP speed: every QP solver offered x formulation x margin-row handling, T x n grid.

Run from the repository root (one BLAS thread, low priority, the machine is shared)::

    nice -n 10 python benchmarks/qmm.py

Instances: random ensembles, member t right on each row with probability p_t ~ U(0.55, 0.75)
(seed 0), uniform weights, upsilon = 0.5, so every member is distinct and the covariance of
the QR basis is nonsingular (the QP is solved, not the paper's singular-covariance
fallback).  For T in {100, 500} and n in {1000, 5000}, each solver that serves the QMM QP
solves it with ``formulation`` in {"covariance" (the paper's eq. 19), "least_squares"} and
``margin_constraints`` in {"all", "generated"}; "covariance" + "all" is the formulation
before the least-squares and generation options existed.  Per solve: model construction
and solve wall time and CPU time (the machine is shared: CPU time is the steadier figure),
status, objective, members kept, margin rows in the last QP, rounds, and the largest
weight difference to Clarabel's covariance/all solve.  A solve refused before solving (HiGHS
above 100 members, HiGHS with least squares) is listed as refused.  SCIP, a global
nonlinear solver, is left out (5-10 s per solve at 240 rows x 30 members).

Writes ``benchmarks/results/qmm.md`` and ``qmm.csv`` (``--quick``: a small grid, prints
only).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from optirules.errors import SolverError
from optirules.models import QMMModel
from optirules.solvers import solver_support

RESULTS = Path(__file__).resolve().parent / "results"
FORMULATIONS = ("covariance", "least_squares")
ROWS = ("all", "generated")


def instance(n: int, T: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.choice([-1, 1], n)
    p = rng.uniform(0.55, 0.75, T)
    H = np.where(rng.random((n, T)) < p, 1, -1) * y[:, None]
    return H, y


def qp_solvers() -> list[str]:
    names = sorted(k for k, v in solver_support().items() if "QMM pruning QP" in v.formulations)
    return [s for s in names if s != "scip"]


def one(H, y, solver: str, formulation: str, rows: str, time_limit: float) -> dict:
    c0, t0 = time.process_time(), time.perf_counter()
    model = QMMModel(H, y, upsilon=0.5, formulation=formulation, margin_constraints=rows)
    c1, t1 = time.process_time(), time.perf_counter()
    row = {"solver": solver, "formulation": formulation, "margin_constraints": rows,
           "build_s": t1 - t0, "build_cpu_s": c1 - c0}
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = model.solve(solver, time_limit=time_limit)
    except SolverError as exc:
        row.update(status="refused", note=str(exc).split(":")[0])
        return row
    c2, t2 = time.process_time(), time.perf_counter()
    row.update(solve_s=t2 - t1, solve_cpu_s=c2 - c1, status=result.status.value,
               fallback=bool(model.fallback_used_), objective=model.objective_,
               kept=int(model.kept_.size), rows=getattr(model, "n_margin_rows_", None),
               rounds=getattr(model, "generation_rounds_", None),
               note="; ".join(str(c.message)[:80] for c in caught))
    row["_weights"] = model.weights_
    return row


def stack() -> str:
    from importlib.metadata import version

    parts = [f"Python {platform.python_version()}"]
    for dist in ("numpy", "scipy", "cvxpy", "clarabel", "osqp", "scs", "highspy", "gurobipy",
                 "cplex"):
        try:
            parts.append(f"{dist} {version(dist)}")
        except Exception:  # noqa: BLE001 - not installed
            pass
    return ", ".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--threads", type=int, default=1, help="BLAS threads (default 1)")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--solvers", nargs="*", default=None)
    args = ap.parse_args()
    sizes = [(100, 200), (30, 300)] if args.quick else [
        (100, 1000), (500, 1000), (100, 5000), (500, 5000)]
    solvers = args.solvers or qp_solvers()
    load_before = os.getloadavg()
    start = dt.datetime.now(dt.timezone.utc)
    t_start = time.perf_counter()
    rows = []
    with threadpool_limits(args.threads):
        for T, n in sizes:
            H, y = instance(n, T)
            ref = None
            for solver in ["clarabel"] + [s for s in solvers if s != "clarabel"]:
                for formulation in FORMULATIONS:
                    for mc in ROWS:
                        load = os.getloadavg()[0]
                        row = {"T": T, "n": n, "load_1min": load,
                               **one(H, y, solver, formulation, mc, args.time_limit)}
                        w = row.pop("_weights", None)
                        if ref is None and w is not None:
                            ref = w  # clarabel, covariance, all
                        row["max_dw"] = (float(np.abs(w - ref).max())
                                         if w is not None and ref is not None else np.nan)
                        rows.append(row)
                        print({k: (round(v, 4) if isinstance(v, float) else v)
                               for k, v in row.items() if k != "note"}, flush=True)
    load_after = os.getloadavg()
    df = pd.DataFrame(rows)
    elapsed = time.perf_counter() - t_start
    if args.quick:
        return
    RESULTS.mkdir(exist_ok=True)
    df.to_csv(RESULTS / "qmm.csv", index=False)
    (RESULTS / "qmm.md").write_text(report(df, start, elapsed, load_before, load_after,
                                           args))
    print((RESULTS / "qmm.md").read_text())


def _fmt(v, digits=3):
    return "" if v is None or (isinstance(v, float) and np.isnan(v)) else f"{v:.{digits}g}"


def report(df, start, elapsed, load_before, load_after, args) -> str:
    lines = [
        "# QMM QP speed (benchmarks/qmm.py)", "",
        f"Run {start:%Y-%m-%d %H:%M} UTC, {elapsed:.0f} s, `nice -n 10 python benchmarks/qmm.py`"
        f" ({args.threads} BLAS thread(s), time limit {args.time_limit:g} s per solve).",
        f"Stack: {stack()}.",
        f"Machine: {os.cpu_count()} CPUs shared with other jobs; load average (1, 5, 15 min) "
        f"before {tuple(round(x, 2) for x in load_before)}, after "
        f"{tuple(round(x, 2) for x in load_after)}; the 1-minute load at each solve is in "
        "the table.  Wall times grow with the load; CPU time is the steadier figure.", "",
        "Instances: random ensembles (member t right with probability p_t ~ U(0.55, 0.75), "
        "seed 0), uniform weights, upsilon = 0.5 (so ceil(n/2) protected rows).  "
        "`covariance` + `all` is the paper's eq. 19 with every margin row, the QP as it was "
        "solved before these options.  max |dw|: largest weight difference to Clarabel's "
        "covariance/all solution.  The paper gives no timings.", "",
        "| T | n | solver | formulation | margin rows | build s (cpu) | solve s | solve cpu s "
        "| status | objective | kept | rows | rounds | max \\|dw\\| | load |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in df.itertuples(index=False):
        d = r._asdict()
        lines.append(
            f"| {d['T']} | {d['n']} | {d['solver']} | {d['formulation']} | "
            f"{d['margin_constraints']} | {_fmt(d.get('build_s'))} ({_fmt(d.get('build_cpu_s'))})"
            f" | {_fmt(d.get('solve_s'))} | {_fmt(d.get('solve_cpu_s'))} | {d['status']}"
            f"{' (fallback)' if d.get('fallback') is True else ''} | "
            f"{_fmt(d.get('objective'), 10)} | {_fmt(d.get('kept'), 4)} | "
            f"{_fmt(d.get('rows'), 5)} | {_fmt(d.get('rounds'), 3)} | {_fmt(d.get('max_dw'), 2)}"
            f" | {d['load_1min']:.1f} |")
    lines += ["", "Refused or fallback solves:", ""]
    for r in df.itertuples(index=False):
        d = r._asdict()
        if d["status"] == "refused" or d.get("fallback") is True:
            lines.append(f"- T={d['T']}, n={d['n']}, {d['solver']}, {d['formulation']}, "
                         f"{d['margin_constraints']}: {str(d.get('note'))[:200]}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
