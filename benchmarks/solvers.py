"""Solver swap, measured: the restricted master LP on its three paths, the pricing MILP and
the master IP, per solver, on WDBC and credit-g (bundled) and on the 2,000-row synthetic
master of benchmarks/models.py.

1. Column-generation iteration (add a batch of columns, re-solve the LP, read the duals):
   the reference run (HiGHS, direct path) is replayed column batch by column batch on every
   path: ``fast`` (HighsRuleMaster, columns appended to a warm highspy model), ``persistent``
   (PersistentRuleMaster: HiGHS through pyomo.contrib.solver, Gurobi/CPLEX through Pyomo's
   add_column), ``rebuild`` (RebuildRuleMaster: the LP rebuilt each iteration, Pyomo for
   HiGHS/CBC/Gurobi/CPLEX, cvxpy for SCIP).  Median wall and CPU (process) time per
   iteration; every path must end at the reference LP value.
2. Pricing MILP (RulePricingModel at the final duals, max_degree 2) per MILP solver, with a
   time limit (the column generation prices by exact enumeration instead).
3. Master IP over the final pool: HiGHS in the LP's own highspy model (integrality switched
   on, greedy start) and RuleMasterModel (Pyomo) per MILP solver; equal objectives required.

Usage: python benchmarks/solvers.py [--quick] [--output benchmarks/results/solvers.md]
Goals reported against: persistent within 2x of fast per iteration; fast <= 12 ms per
iteration on the 2,000-row master.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import time
from importlib.metadata import PackageNotFoundError, version

import numpy as np
from _synthetic_master import synthetic_master  # benchmarks/_synthetic_master.py

from optirules.data import FeatureBinarizer, load_dataset
from optirules.models import (
    HighsRuleMaster,
    PersistentRuleMaster,
    PricingDuals,
    RebuildRuleMaster,
    RuleMasterModel,
    RulePricingModel,
    RuleSetProblem,
    column_generation,
)
from optirules.solvers import available_solvers

PENALTY = dict(lambda0=0.001, lambda1=0.001)
#: seconds given to each pricing MILP (the column generation itself prices by enumeration)
PRICING_LIMIT = 20.0
INFO = {s.name: s for s in available_solvers()}
CANDIDATES = [n for n in ("highs", "scip", "cbc", "gurobi", "cplex") if n in INFO]


def _versions() -> str:
    out = []
    for dist in ("optirules", "highspy", "pyomo", "pyscipopt", "cylp", "cvxpy", "gurobipy",
                 "cplex", "numpy"):
        try:
            out.append(f"{dist} {version(dist)}")
        except PackageNotFoundError:
            pass
    return ", ".join(out)


def _load() -> str:
    return "/".join(f"{v:.2f}" for v in os.getloadavg())


def _replay(master, batches):
    """Median wall and CPU ms per iteration (add + solve), and the final LP value."""
    master.solve()
    wall, cpu = [], []
    for batch in batches:
        w0, c0 = time.perf_counter(), time.process_time()
        master.add_clauses(batch)
        master.solve()
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    return 1000 * statistics.median(wall), 1000 * statistics.median(cpu), master.objective_


def _paths(solver: str):
    """(path name, factory) for the LP paths ``solver`` has."""
    out = []
    if solver == "highs":
        out.append(("fast", lambda A, y, P, kw: HighsRuleMaster(A, y, [], sample_weight=P, **kw)))
    if solver in ("highs", "gurobi", "cplex"):
        out.append(("persistent", lambda A, y, P, kw: PersistentRuleMaster(
            A, y, [], sample_weight=P, solver=solver, **kw)))
    out.append(("rebuild", lambda A, y, P, kw: RebuildRuleMaster(
        A, y, [], sample_weight=P, solver=solver, **kw)))
    return out


def lp_paths(A, y, P, batches, kw, ref_lp, lines, label):
    for solver in CANDIDATES:
        for path, make in _paths(solver):
            try:
                wall, cpu, z = _replay(make(A, y, P, kw), batches)
            except Exception as exc:  # a size-limited licence, mostly
                lines.append(f"| {label} | {solver} | {path} | refused: "
                             f"{type(exc).__name__}: {str(exc)[:90]} | | |")
                print(lines[-1], flush=True)
                continue
            same = abs(z - ref_lp) <= 1e-6 * max(1.0, abs(ref_lp))
            lines.append(f"| {label} | {solver} | {path} | {wall:.1f} | {cpu:.1f} | "
                         f"{z:.8f} {'=' if same else '!= ' + f'{ref_lp:.8f}'} |")
            print(lines[-1], flush=True)


def dataset_section(name: str, quick: bool, lines_lp, lines_milp, lines_ip):
    X, y = load_dataset(name)
    A = np.asarray(FeatureBinarizer().fit(X).transform(X), dtype=bool)
    yb = y == np.unique(y)[1]
    P = np.full(len(y), 1.0 / len(y))
    ref = column_generation(A, yb, P, max_degree=2, max_iter=8 if quick else 100,
                            random_seed=0, **PENALTY)
    sizes = [h["columns_added"] for h in ref.history]
    batches, start = [], 0
    for k in sizes:
        if k:
            batches.append(ref.pool[start:start + k])
        start += k
    label = f"{name} ({A.shape[0]} x {A.shape[1]} literals, {len(batches)} batches)"
    kw = dict(PENALTY)
    lp_paths(A, yb.astype(int), P, batches, kw, ref.lp_objective, lines_lp, label)

    duals = ref.info["duals"]
    for solver in CANDIDATES:
        model = RulePricingModel(RuleSetProblem(A, yb, P, max_degree=2),
                                 PricingDuals(duals["mu"], duals["lam"], duals["lambda0"],
                                              duals["lambda1"]))
        t0 = time.perf_counter()
        try:
            res = model.solve(solver, time_limit=PRICING_LIMIT)
            lines_milp.append(f"| {name} | {solver} | {time.perf_counter() - t0:.2f} | "
                              f"{res.status.value} | {res.objective:.3e} |")
        except Exception as exc:  # a licence's refusal, or a time limit with no solution
            lines_milp.append(f"| {name} | {solver} | {time.perf_counter() - t0:.2f} | "
                              f"no result: {type(exc).__name__}: {str(exc)[:80]} | |")
        print(lines_milp[-1], flush=True)

    pool = ref.pool
    master = HighsRuleMaster(A, yb.astype(int), pool, sample_weight=P, **kw)
    master.solve()
    t0 = time.perf_counter()
    ip = master.solve_ip(solver="highs", mip_gap=1e-6, incumbent=ref.clauses, random_seed=0)
    t_direct = time.perf_counter() - t0
    lines_ip.append(f"| {name} | {len(pool)} | highs | highspy in place (after) | {t_direct:.3f} "
                    f"| {ip.status} | {ip.objective:.10f} |")
    print(lines_ip[-1], flush=True)
    for solver in CANDIDATES:
        t0 = time.perf_counter()
        try:
            m = RuleMasterModel(A, yb.astype(int), pool, sample_weight=P, **kw)
            res = m.solve(solver, time_limit=120.0, mip_gap=1e-6)
            what = "RuleMasterModel (Pyomo)" + (" (before)" if solver == "highs" else "")
            same = "=" if abs(m.objective_ - ip.objective) <= 1e-6 * ip.objective else "!="
            lines_ip.append(f"| {name} | {len(pool)} | {solver} | {what} | "
                            f"{time.perf_counter() - t0:.3f} | {res.status.value} | "
                            f"{m.objective_:.10f} {same} |")
        except Exception as exc:
            lines_ip.append(f"| {name} | {len(pool)} | {solver} | RuleMasterModel (Pyomo) | "
                            f"{time.perf_counter() - t0:.3f} | refused: "
                            f"{type(exc).__name__}: {str(exc)[:70]} | |")
        print(lines_ip[-1], flush=True)


def synthetic(n_rows: int, n_lits: int, n_iter: int, per_iter: int, lines):
    """The column-generation master of benchmarks/models.py (random clauses, budget 30)."""
    A, y, batches = synthetic_master(n_rows, n_lits, n_iter, per_iter, seed=0)
    P = np.full(n_rows, 1.0 / n_rows)
    ref = HighsRuleMaster(A, y, [c for b in batches for c in b], sample_weight=P,
                          complexity=30).solve()
    label = f"synthetic {n_rows} rows, +{per_iter} columns x {n_iter}"
    lp_paths(A, y, P, batches, {"complexity": 30}, ref, lines, label)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (a minute)")
    ap.add_argument("--output", default=None, help="write the markdown table here")
    args = ap.parse_args()
    load_before = _load()
    t_start = time.perf_counter()
    print(f"load average before: {load_before}", flush=True)
    lp, milp, ip = [], [], []
    if args.quick:
        synthetic(300, 40, 5, 20, lp)
    else:
        synthetic(2000, 200, 12, 50, lp)
    for name in (("wdbc",) if args.quick else ("wdbc", "credit_g")):
        dataset_section(name, args.quick, lp, milp, ip)
    load_after = _load()
    total = time.perf_counter() - t_start
    out = [
        f"# benchmarks/solvers.py ({'quick' if args.quick else 'full'} run, "
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC)",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores shared with other jobs; "
        f"load average (1/5/15 min) before {load_before}, after {load_after}; "
        f"{total:.0f} s in all.  Stack: {_versions()}.",
        "",
        "## Column-generation iteration per LP path (median per iteration: add a batch, "
        "re-solve, read the duals)",
        "",
        "| master | LP solver | path | wall ms | CPU ms | final LP value (= reference) |",
        "|---|---|---|---|---|---|",
        *lp,
        "",
        "CPU ms is the process time (all threads), which the other jobs on the machine "
        "inflate less than the wall time.",
        "",
        f"## Pricing MILP (RulePricingModel, max_degree 2, at the final duals; "
        f"{PRICING_LIMIT:.0f} s limit)",
        "",
        "| data | MILP solver | seconds | status | min reduced cost |",
        "|---|---|---|---|---|",
        *milp,
        "",
        "## Master IP over the final pool (mip_gap 1e-6)",
        "",
        "| data | pool | MILP solver | route | seconds | status | objective (= highspy) |",
        "|---|---|---|---|---|---|---|",
        *ip,
        "",
    ]
    text = "\n".join(out)
    print(text)
    if args.output:
        with open(args.output, "w") as fh:
            fh.write(text)


if __name__ == "__main__":
    main()
