"""The DRO members' restricted master LP and master IP on magic_gamma, with and without
the master-side speedups of this benchmark's commit, in one run.

Run from the repository root::

    nice -n 10 python benchmarks/dro_master.py           # 3,000-row fit + one 19,020-row member
    python benchmarks/dro_master.py --quick              # 2,000-row fit only

Three switches are compared, all on (``after``) against all off (``before``):

* ``MergedHighsRuleMaster(warm_start=...)``: a rebuilt merged LP starts from the last
  simplex basis carried over to the split rows (else cold);
* ``column_generation(skip_ip=...)``: no master IP when the incumbent is within
  ``mip_gap`` of the restricted LP's optimum (switched off in the one-member case only: the
  DRO ensemble's members now run with ``skip_ip=True`` and a gap the master IP refuses, so
  its fit keeps it on in both modes);
* HiGHS presolve and feasibility jump off for large master IPs
  (``optirules.models.options.LARGE_MASTER_IP_ROWS`` cover rows; ``before`` sets it out
  of reach).

Each case runs in a fresh subprocess (one BLAS thread), ``before`` and ``after``
interleaved.  Cases: the default ``DRORuleEnsembleClassifier(binarizer="auto",
random_state=0)`` on magic_gamma's first 3,000 rows of a fixed permutation (as
``benchmarks/dro.py``), with held-out accuracy on the next 5,000 rows; and one member-like
``column_generation`` on all 19,020 rows (uniform weights, budget 10, degree 2,
``mip_gap=0.01``, ``master="auto"``: on magic_gamma the dual master, so the merged
master's warm start is not exercised there).  Writes
``benchmarks/results/dro_master.md`` (``--out``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


def _switch(mode: str) -> None:
    """Turn this benchmark's switches off (mode 'before') through the public names they are
    read from (the DRO fit's ``skip_ip`` stays on: see the module docstring)."""
    if mode == "after":
        return
    import optirules.models as rm

    rm.options.LARGE_MASTER_IP_ROWS = 10 ** 12
    init = rm.MergedHighsRuleMaster.__init__

    def init_cold(self, *a, **kw):
        kw["warm_start"] = False
        init(self, *a, **kw)

    rm.MergedHighsRuleMaster.__init__ = init_cold


def _fit(mode: str, n: int) -> dict:
    sys.path.insert(0, str(HERE))
    from dro import _rows

    _switch(mode)
    from optirules.learners import BooleanRuleSetClassifier, DRORuleEnsembleClassifier

    X, y = _rows("magic_gamma", n + 5000)
    Xt, yt = X.iloc[n:], y[n:]
    X, y = X.iloc[:n], y[:n]
    est = DRORuleEnsembleClassifier(random_state=0,
                                    member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto"))
    load = os.getloadavg()[0]
    t, c = time.perf_counter(), time.process_time()
    est.fit(X, y)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    h, m = est.history_, est.member_results_
    return {"case": f"DRO fit, magic_gamma {n} rows", "mode": mode, "wall": wall, "cpu": cpu,
            "cg": sum(x["member_cg_time"] for x in h), "ip": sum(x["member_ip_time"] for x in h),
            "members": len(h), "skipped": sum("within mip_gap" in r["status"] for r in m),
            "train_acc": float(np.mean(est.predict(X) == y)),
            "test_acc": float(np.mean(est.predict(Xt) == yt)), "cost": int(est.complexity_),
            "load": f"{load:.2f} -> {os.getloadavg()[0]:.2f}"}


def _member(mode: str) -> dict:
    sys.path.insert(0, str(HERE))
    from dro import _rows

    _switch(mode)
    import optirules.models as rm
    from optirules.learners import BooleanRuleSetClassifier, DRORuleEnsembleClassifier
    from optirules.models import column_generation

    iters = []
    solve = rm.HighsRuleMaster.solve

    def counted(self):
        z = solve(self)
        iters.append(self.iterations_)
        return z

    rm.HighsRuleMaster.solve = counted
    X, y = _rows("magic_gamma", None)
    # the literals a DRO fit uses: its binarizer ("auto"), fitted on all rows
    A = DRORuleEnsembleClassifier(member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto"))._literal_matrix(X, reset=True)
    yb = np.asarray(y) == 1
    P = np.full(len(yb), 1.0 / len(yb))
    load = os.getloadavg()[0]
    t, c = time.perf_counter(), time.process_time()
    res = column_generation(A, yb, P, complexity=10.0, max_degree=2, mip_gap=0.01,
                            random_seed=0, skip_ip=mode == "after")
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    return {"case": "one member, magic_gamma 19020 rows", "mode": mode, "wall": wall,
            "cpu": cpu, "cg": res.info["cg_time"], "ip": res.info["ip_time"],
            "lp_iterations": int(sum(iters)), "ip_objective": res.ip_objective,
            "lp_bound": res.lp_bound, "ip_status": res.ip_status,
            "load": f"{load:.2f} -> {os.getloadavg()[0]:.2f}"}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", type=Path, default=RESULTS / "dro_master.md")
    ap.add_argument("--child", nargs=2, metavar=("CASE", "MODE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        case, mode = args.child
        r = _member(mode) if case == "member" else _fit(mode, int(case))
        print("RESULT " + json.dumps(r), flush=True)
        return
    cases = ["2000"] if args.quick else ["3000", "member"]
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
               MKL_NUM_THREADS="1")
    started = datetime.datetime.now(datetime.timezone.utc)
    load0 = os.getloadavg()
    rows = []
    for case in cases:
        for mode in ("before", "after"):
            out = subprocess.run([sys.executable, __file__, "--child", case, mode], env=env,
                                 capture_output=True, text=True, check=True).stdout
            r = json.loads(out.split("RESULT ", 1)[1])
            rows.append(r)
            print(r, flush=True)
    load1 = os.getloadavg()
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True, cwd=HERE).stdout.strip()
    lines = ["# DRO members' master LP and IP on magic_gamma: before / after", "",
             f"Run {started:%Y-%m-%d %H:%M} UTC at commit {rev}; load average (1, 5, 15 "
             f"min) before {load0[0]:.2f}, {load0[1]:.2f}, {load0[2]:.2f}, after "
             f"{load1[0]:.2f}, {load1[1]:.2f}, {load1[2]:.2f}; one BLAS thread, each case "
             "in a fresh process.  before: the three switches of benchmarks/dro_master.py "
             "off; after: the defaults.  cg / ip: wall seconds in column generation and "
             "in the master IP (summed over members).", ""]
    for r in rows:
        lines.append("- " + ", ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}"
                                      for k, v in r.items()))
    lines.append("")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines))


if __name__ == "__main__":
    main()
