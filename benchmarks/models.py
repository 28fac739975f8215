"""Speed of the formulations' fast paths against their declarative models, in one run.

1. Column generation on the rule master LP (2,000 rows, 200 literals): each iteration adds
   50 columns and re-solves.  Direct highspy (``HighsRuleMaster``: ``addCols`` + warm
   ``run``) vs rebuilding and solving the Pyomo model (``RuleMasterModel(relax=True)``).
   Both must reach the same LP objective.
2. The worst-case pmf (the DRO paper eq 9) at N = 20,000: the exact 1-D Lagrangian solver vs the
   CVXPY model with Clarabel, for the chi-square and KL balls.

Usage: python benchmarks/models.py [--quick]
Prints a table; results/models.md keeps the last full run.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from _synthetic_master import synthetic_master  # benchmarks/_synthetic_master.py

from optirules.models import HighsRuleMaster, RuleMasterModel, WorstCasePmfModel, worst_case_pmf


def column_generation(n_rows: int, n_lits: int, n_iter: int, per_iter: int, seed: int = 0):
    A, y, batches = synthetic_master(n_rows, n_lits, n_iter, per_iter, seed)

    fast = HighsRuleMaster(A, y, batches[0], complexity=30)
    fast.solve()
    t_fast = []
    for batch in batches[1:]:
        t0 = time.perf_counter()
        fast.add_clauses(batch)
        fast.solve()
        t_fast.append(time.perf_counter() - t0)

    model = RuleMasterModel(A, y, batches[0], complexity=30, relax=True)
    model.solve("highs")
    t_pyomo = []
    for batch in batches[1:]:
        t0 = time.perf_counter()
        model.add_clauses(batch)  # drops the Pyomo model; solve() rebuilds it
        model.solve("highs")
        t_pyomo.append(time.perf_counter() - t0)
    assert abs(fast.objective_ - model.objective_) <= 1e-8 * max(1.0, abs(model.objective_)), (
        fast.objective_, model.objective_)
    return statistics.median(t_fast), statistics.median(t_pyomo), fast.objective_


def worst_case(n: int, divergence: str, reps: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    t_exact, t_cvx, diffs = [], [], []
    for _ in range(reps):
        z = rng.random(n)
        rho = float(rng.uniform(0.01, 1.0))
        t0 = time.perf_counter()
        p = worst_case_pmf(z, rho, divergence)
        t_exact.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        m = WorstCasePmfModel(z, rho, divergence=divergence)
        m.solve()
        t_cvx.append(time.perf_counter() - t0)
        diffs.append(abs(float(p @ z) - m.objective_))
    return statistics.median(t_exact), statistics.median(t_cvx), max(diffs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (seconds)")
    args = ap.parse_args()
    rows, lits, iters, n, reps = (300, 40, 5, 2000, 2) if args.quick else (2000, 200, 12, 20000, 5)
    print(f"{'benchmark':<48} {'fast path':>12} {'declarative':>12} {'speed-up':>9}  check")
    tf, tp, obj = column_generation(rows, lits, iters, 50)
    print(f"{f'CG iteration, {rows} rows, +50 columns':<48} {tf * 1e3:>10.1f}ms {tp * 1e3:>10.1f}ms "
          f"{tp / tf:>8.1f}x  same LP objective {obj:.6f}")
    for div in ("chi2", "kl"):
        te, tc, d = worst_case(n, div, reps)
        print(f"{f'worst-case pmf, {div}, N={n}':<48} {te * 1e3:>10.2f}ms {tc * 1e3:>10.1f}ms "
              f"{tc / te:>8.0f}x  max |dobj| {d:.1e}")


if __name__ == "__main__":
    main()
