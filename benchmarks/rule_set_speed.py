"""BooleanRuleSetCV speed on WDBC: time per fold against one plain rule-set fit.

Measures, on WDBC (569 rows, ``binarizer="auto"``, the default 5-penalty grid, 5 folds,
``random_state=0``):

* ``BooleanRuleSetClassifier(binarizer="auto")`` (its defaults) on the training part of each
  of the 5 stratified folds shuffled with ``random_state=0``: per fold the minimum CPU and
  wall time of 3 fits (binarizer included), its test accuracy, master IP objective, rules and
  literals, and the certified gap with the degree it holds over (``benchmarks/brcg_peer.py``
  times AIX360's BooleanRuleCG on the same folds);
* one plain ``BooleanRuleSetClassifier(binarizer="auto", random_state=0)`` fit on all rows;
* ``BooleanRuleSetCV`` per fold (``cv_time_ / 5``: every penalty of the fold, the refit
  excluded) for the plain grid (``reuse_pool=False``) and with warm starts
  (``reuse_pool=True``, the default), each also with ``n_jobs=2`` and early stopping
  (``n_iter_no_change``),
  with the chosen penalty and its mean score (the same penalty means the options did not
  change the selection);
* with ``--baseline DIR``: the same plain fit and CV run by another checkout of optirules
  (e.g. ``git archive <commit> | tar -x -C DIR``), in a subprocess.

Run from the repository root::

    nice -n 10 python benchmarks/rule_set_speed.py --baseline /tmp/optirules_before

Writes ``benchmarks/results/rule_set_speed.md`` (date, stack, machine load before/after).
BLAS runs single-threaded (``OPENBLAS_NUM_THREADS=1``, set before numpy loads).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
VARIANTS = {
    "plain grid (reuse_pool=False)": dict(reuse_pool=False),
    "plain grid, n_jobs=2": dict(reuse_pool=False, n_jobs=2),
    "plain grid, n_iter_no_change=1": dict(reuse_pool=False, n_iter_no_change=1),
    "warm starts (reuse_pool=True, the default)": dict(reuse_pool=True),
    "warm starts, n_jobs=2": dict(reuse_pool=True, n_jobs=2),
    "warm starts, n_iter_no_change=2": dict(reuse_pool=True, n_iter_no_change=2),
    "warm starts, n_iter_no_change=1": dict(reuse_pool=True, n_iter_no_change=1),
}


def measure(variants: list[str] | None) -> list[dict]:
    """Run the plain fit and the CV variants in this process (the imported optirules)."""
    import inspect

    import numpy as np

    from optirules.data import load_dataset
    from optirules.learners import BooleanRuleSetClassifier, BooleanRuleSetCV

    X, y = load_dataset("wdbc")
    y = np.asarray(y)
    BooleanRuleSetClassifier(binarizer="auto", max_degree=1).fit(X.iloc[:60], y[:60])  # imports
    folds = per_fold(X, y)
    t0, c0 = time.perf_counter(), time.process_time()
    single = BooleanRuleSetClassifier(binarizer="auto", random_state=0).fit(X, y)
    rows = [{"variant": "one plain BooleanRuleSetClassifier fit (all rows)",
             "seconds": time.perf_counter() - t0, "cpu": time.process_time() - c0,
             "max_degree": int(single.max_degree_), "folds": folds}]
    known = inspect.signature(BooleanRuleSetCV).parameters
    names = variants if variants is not None else list(VARIANTS)
    if "reuse_pool" not in known:  # an older checkout: its default only
        VARIANTS["default of that code (no pool reuse)"] = {}
        names = ["default of that code (no pool reuse)"]
    for name in names:
        kw = VARIANTS[name]
        base = BooleanRuleSetClassifier(binarizer="auto", random_state=0)
        t0, c0 = time.perf_counter(), time.process_time()
        cv = BooleanRuleSetCV(base, cv=5, random_state=0, **kw).fit(X, y)
        total = time.perf_counter() - t0
        # CPU of this process (the folds run in its threads when n_jobs is None; not the
        # worker processes of n_jobs=2), the refit on all rows included
        cpu = time.process_time() - c0
        rows.append({"variant": name, "seconds": total, "cv_time": cv.cv_time_,
                     "per_fold": cv.cv_time_ / cv.n_splits_,
                     "cpu_per_fold": (cpu if kw.get("n_jobs") is None else float("nan"))
                     / cv.n_splits_,
                     "penalty": list(cv.penalty_),
                     "mean_score": float(cv.cv_results_["mean_score"][cv.best_index_]),
                     "scores": [None if s != s else round(float(s), 4)
                                for s in cv.cv_results_["mean_score"]],
                     "status": cv.status_})
    return rows


def per_fold(X, y, repeats: int = 3) -> list[dict]:
    """The default rule set on each fold's training rows: min CPU / wall of ``repeats``."""
    import numpy as np
    from sklearn.model_selection import StratifiedKFold

    from optirules.learners import BooleanRuleSetClassifier

    out = []
    for k, (tr, te) in enumerate(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y)):
        cpu = wall = float("inf")
        for _ in range(repeats):
            est = BooleanRuleSetClassifier(binarizer="auto")
            t0, c0 = time.perf_counter(), time.process_time()
            est.fit(X.iloc[tr], y[tr])
            cpu = min(cpu, time.process_time() - c0)
            wall = min(wall, time.perf_counter() - t0)
        rules = est.rules_
        out.append({"fold": k, "cpu": cpu, "seconds": wall,
                    "accuracy": float(np.mean(est.predict(X.iloc[te]) == y[te])),
                    "objective": float(est.ip_objective_), "gap": float(est.gap_),
                    "certified": bool(est.gap_certified_), "degree": int(est.max_degree_),
                    "rules": len(est.clauses_), "literals": int(rules.complexity)
                    - len(est.clauses_)})
    return out


def fold_table(label: str, folds: list[dict]) -> list[str]:
    import numpy as np

    out = [f"| {label} | {f['fold']} | {f['seconds']:.3f} | {f['cpu']:.3f} | "
           f"{f['accuracy']:.4f} | {f['objective']:.6f} | {f['rules']} / {f['literals']} | "
           f"{f['gap']:.4f} ({'certified' if f['certified'] else 'not certified'}, degree "
           f"{f['degree']}) |" for f in folds]
    out.append(f"| {label} | mean | {np.mean([f['seconds'] for f in folds]):.3f} | "
               f"{np.mean([f['cpu'] for f in folds]):.3f} | "
               f"{np.mean([f['accuracy'] for f in folds]):.4f} | "
               f"{np.mean([f['objective'] for f in folds]):.6f} | | |")
    return out


def stack() -> str:
    from importlib.metadata import version

    import numpy
    import sklearn

    return (f"Python {platform.python_version()}, numpy {numpy.__version__}, scikit-learn "
            f"{sklearn.__version__}, highspy {version('highspy')}, joblib {version('joblib')}")


def table(rows: list[dict], label: str) -> list[str]:
    single, single_cpu = rows[0]["seconds"], rows[0]["cpu"]
    out = []
    for r in rows:
        if "per_fold" not in r:
            out.append(f"| {label} | {r['variant']} | {r['seconds']:.2f} | 1.0x | "
                       f"{r['cpu']:.2f} | 1.0x | max_degree {r['max_degree']} | | |")
            continue
        out.append(f"| {label} | {r['variant']} | {r['per_fold']:.2f} | "
                   f"{r['per_fold'] / single:.1f}x | {r['cpu_per_fold']:.2f} | "
                   f"{r['cpu_per_fold'] / single_cpu:.1f}x | "
                   f"({r['penalty'][0]:g}, {r['penalty'][1]:g})"
                   f" | {r['mean_score']:.4f} | {r['scores']} |")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", help="another optirules checkout to measure the same way")
    ap.add_argument("--baseline-label", default="baseline")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--out", default=str(RESULTS / "rule_set_speed.md"))
    args = ap.parse_args()
    if args.json:
        print(json.dumps(measure(None)))
        return
    started = datetime.now(timezone.utc)
    load_before = os.getloadavg()
    print(f"load average before: {load_before}", flush=True)
    parts = []
    if args.baseline:
        env = dict(os.environ, PYTHONPATH=str(Path(args.baseline).resolve()))
        out = subprocess.run([sys.executable, __file__, "--json"], env=env, cwd=args.baseline,
                             capture_output=True, text=True, check=True)
        parts.append((args.baseline_label, json.loads(out.stdout.strip().splitlines()[-1])))
    parts.append(("this checkout", measure(None)))
    load_after = os.getloadavg()
    head = ["| code | run | wall s per fold (plain fit: s) | / plain fit | CPU s per fold "
            "(plain fit: s) | / plain fit | penalty chosen | its mean score "
            "| mean score per penalty (grid order) |", "|---|---|---|---|---|---|---|---|---|"]
    body = []
    fold_lines = ["| code | fold | wall s (min of 3) | CPU s (min of 3) | test accuracy | "
                  "master IP objective | rules / literals | gap |",
                  "|---|---|---|---|---|---|---|---|"]
    for label, rows in parts:
        body += table(rows, label)
        if rows[0].get("folds"):
            fold_lines += fold_table(label, rows[0]["folds"])
    lines = [
        "# BooleanRuleSetCV speed on WDBC",
        "",
        f"Run {started:%Y-%m-%d %H:%M} UTC by `python benchmarks/rule_set_speed.py "
        f"{' '.join(sys.argv[1:])}".rstrip() + "`" + f" at niceness {os.nice(0)}, BLAS "
        "single-threaded.",
        "",
        f"- stack: {stack()}",
        f"- machine: {platform.machine()}, {os.cpu_count()} CPUs; load average (1, 5, 15 min) "
        f"before {load_before}, after {load_after} (2 cores shared with other jobs: times "
        "are noisy)",
        "- WDBC, binarizer='auto', default grid (0.001, 0.002, 0.003, 0.005, 0.01), 5 "
        "stratified folds shuffled with random_state=0; per fold = cv_time_ / 5 (all "
        "penalties of a fold, refit excluded); '/ plain fit' divides by the plain fit on all "
        "rows of the same code; CPU = process time of the fitting process (robust to the "
        "machine load; the CV's includes its refit on all rows; not measured for n_jobs=2, "
        "whose folds run in worker processes)",
        "",
        "## BooleanRuleSetClassifier per fold (defaults, binarizer='auto', the 5 folds)",
        "",
        *fold_lines, "",
        "## BooleanRuleSetCV per fold",
        "",
        *head, *body, "",
    ]
    text = "\n".join(lines)
    print(text)
    Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
