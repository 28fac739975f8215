"""The DRO members' master IP: HiGHS's MILP against branch and bound over the dual LP, on
the same IPs, in one run.

Run from the repository root::

    nice -n 5 python benchmarks/master_ip.py          # magic_gamma 3,000 and 19,020 rows, adult 10,000
    python benchmarks/master_ip.py --quick            # magic_gamma 3,000 rows only

The IPs are those a DRO fit solves: for each data set, the worst-case pmfs
:math:`P^0, \\dots, P^3` of ``DRORuleEnsembleClassifier(binarizer="auto", random_state=0,
member_complexity=10, n_estimators=3, n_iter_no_change=None)``; for each pmf and member
budget C' in {10, 15, 30}, one ``column_generation`` (degree 2, ``master_ip="milp"``)
gives the pool, and the master IP over that pool is solved at ``mip_gap=0.01`` (the DRO
default) by

* ``milp``: ``HighsRuleMaster.solve_ip`` (the IP in highspy over the rows merged by their
  coverage of the pool, HiGHS's branch and cut with the options of large IPs), and
* ``bb``: ``branch_and_bound_master`` (the route ``master_ip="auto"`` takes from
  ``BRANCH_AND_BOUND_ROWS`` merged label-1 rows),

one after the other (CPU seconds, one BLAS thread).  Both are handed no incumbent, so
they solve the same problem from scratch.  Printed per IP: merged cover rows, columns,
CPU seconds, objective and proven bound of each, branch-and-bound nodes; then the ratio of
the summed CPU seconds per size class.  Writes ``benchmarks/results/master_ip.md``
(``--out``).
"""

from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import datetime
import time
from pathlib import Path

import numpy as np
from dro import _stack  # (benchmarks/dro.py: the stack line of every DRO result)

RESULTS = Path(__file__).resolve().parent / "results"
BUDGETS = (10.0, 15.0, 30.0)
GAP = 0.01


def _rows(name: str, n: int | None):
    from optirules.data import load_dataset

    X, y = load_dataset(name)
    if n is None or n >= len(y):
        return X, y
    idx = np.random.default_rng(0).permutation(len(y))[:n]
    return X.iloc[idx].reset_index(drop=True), y[idx]


def instances(name: str, n: int | None):
    """(label, A, y, P, pool, budget) of the IPs of one data set."""
    from optirules.learners import BooleanRuleSetClassifier, DRORuleEnsembleClassifier
    from optirules.models import column_generation

    X, y = _rows(name, n)
    est = DRORuleEnsembleClassifier(random_state=0, member_complexity=10.0, n_estimators=3,
                                    n_iter_no_change=None,
                                    member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto")).fit(X, y)
    A = np.asarray(est.binarizer_.transform(X), dtype=bool)
    yb = np.asarray(y == est.classes_[1], dtype=bool)
    for t, P in enumerate(est.pmf_history_):
        for C in BUDGETS:
            res = column_generation(A, yb, P, complexity=C, max_degree=int(est.max_degree_),
                                    mip_gap=GAP, random_seed=0, master_ip="milp",
                                    skip_ip=True)
            yield f"{name} {len(yb)} P{t} C'={C:g}", A, yb, P, list(res.pool), C


def compare(A, y, P, pool, budget) -> dict:
    from optirules.models import HighsRuleMaster, RuleSetProblem, branch_and_bound_master

    master = HighsRuleMaster(A, y.astype(int), pool, sample_weight=P, complexity=budget)
    c = time.process_time()
    milp = master.solve_ip(mip_gap=GAP, random_seed=0)
    t_milp = time.process_time() - c
    c = time.process_time()
    bb = branch_and_bound_master(RuleSetProblem(A, y, P, complexity=budget), pool, mip_gap=GAP,
                                 random_seed=0)
    t_bb = time.process_time() - c
    return {"rows": bb.info["rows"], "cols": len(pool), "milp_cpu": t_milp,
            "milp_obj": milp.objective, "milp_bound": milp.bound, "bb_cpu": t_bb,
            "bb_obj": bb.objective, "bb_bound": bb.bound, "nodes": bb.info["nodes"]}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="magic_gamma 3,000 rows only")
    ap.add_argument("--out", type=Path, default=RESULTS / "master_ip.md")
    args = ap.parse_args(argv)
    cases = [("magic_gamma", 3000)] if args.quick else [
        ("magic_gamma", 3000), ("adult", 10000), ("magic_gamma", None)]
    started = datetime.datetime.now(datetime.timezone.utc)
    load0 = os.getloadavg()
    t0 = time.perf_counter()
    rows = []
    for name, n in cases:
        for label, A, y, P, pool, C in instances(name, n):
            r = {"ip": label, **compare(A, y, P, pool, C)}
            rows.append(r)
            print(f"{label:28s} rows {r['rows']:6d} cols {r['cols']:4d} | milp "
                  f"{r['milp_cpu']:6.2f} s {r['milp_obj']:.6f} [{r['milp_bound']:.6f}] | bb "
                  f"{r['bb_cpu']:6.2f} s {r['bb_obj']:.6f} [{r['bb_bound']:.6f}] "
                  f"{r['nodes']} nodes", flush=True)
    load1 = os.getloadavg()
    lines = [
        "# Master IP: HiGHS MILP vs branch and bound over the dual LP",
        "",
        f"Run {started:%Y-%m-%d %H:%M} UTC, {time.perf_counter() - t0:.0f} s in all: "
        f"`python benchmarks/master_ip.py{' --quick' if args.quick else ''}` (niceness "
        f"{os.nice(0)}, one BLAS thread); {_stack()}.  Load average (1, 5, 15 min) before "
        f"{tuple(round(v, 2) for v in load0)}, after {tuple(round(v, 2) for v in load1)}.",
        "",
        f"Each IP at mip_gap={GAP}, no incumbent given to either; CPU seconds; objective "
        "[proven bound].",
        "",
        "| IP | merged cover rows | columns | MILP s | MILP objective [bound] | B&B s | "
        "B&B objective [bound] | B&B nodes |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r['ip']} | {r['rows']} | {r['cols']} | {r['milp_cpu']:.2f} | "
                     f"{r['milp_obj']:.6f} [{r['milp_bound']:.6f}] | {r['bb_cpu']:.2f} | "
                     f"{r['bb_obj']:.6f} [{r['bb_bound']:.6f}] | {r['nodes']} |")
    lines += ["", "| merged cover rows | IPs | MILP s (sum) | B&B s (sum) | MILP / B&B | "
              "B&B slower on |", "|---|---|---|---|---|---|"]
    for lo, hi in ((0, 1000), (1000, 5000), (5000, 10**9)):
        sel = [r for r in rows if lo <= r["rows"] < hi]
        if not sel:
            continue
        m, b = sum(r["milp_cpu"] for r in sel), sum(r["bb_cpu"] for r in sel)
        slower = sum(r["bb_cpu"] > r["milp_cpu"] for r in sel)
        hi_txt = "" if hi == 10**9 else f"{hi - 1}"
        lines.append(f"| {lo}-{hi_txt} | {len(sel)} | {m:.1f} | {b:.1f} | "
                     f"{m / max(b, 1e-9):.1f}x | {slower} |")
    text = "\n".join(lines) + "\n"
    print(text)
    args.out.write_text(text)


if __name__ == "__main__":
    main()
