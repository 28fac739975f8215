"""Do the DRO ensemble's fit-time defaults cost accuracy?

``DRORuleEnsembleClassifier`` stops a member budget's loop once its best candidate has not
improved for ``n_iter_no_change=2`` members and solves each member's master IP to a
relative gap of ``mip_gap=0.01``.  Neither is the DRO paper's (it grows a fixed number of
members, each the minimiser of eq. 4).  This script fits both on the same folds:

* ``defaults``: the learner's defaults;
* ``every member, exact``: ``n_iter_no_change=None, mip_gap=1e-6`` (every member of the
  ``n_estimators`` grown, each member IP solved to HiGHS's precision);
* ``every member, gap 0.01`` and ``stop after 2, exact``: one of the two defaults at a time
  (``--variants``);

and prints, per data set, the held-out accuracy (5 stratified folds, shuffled with
``random_state=0``), the members grown and the CPU seconds per fold (one BLAS thread).

    python benchmarks/dro_defaults.py --output benchmarks/results/dro_defaults.md
"""

from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import platform
import time
from datetime import datetime, timezone

import numpy as np
from sklearn.model_selection import StratifiedKFold

from optirules.data import load_dataset
from optirules.learners import BooleanRuleSetClassifier, DRORuleEnsembleClassifier

DATASETS = ("wdbc", "heart_statlog", "ionosphere", "banknote", "tic_tac_toe",
            "house_votes_84", "liver_disorders_bupa", "blood_transfusion")
VARIANTS = {
    "defaults": {},
    "every member, exact": {"n_iter_no_change": None, "mip_gap": 1e-6},
    "every member, gap 0.01": {"n_iter_no_change": None},
    "stop after 2, exact": {"mip_gap": 1e-6},
    "members warm start": {"member_warm_start": "members"},
    "support warm start": {"member_warm_start": "support"},
}


def run(datasets, n_folds, variants):
    rows = []
    for name in datasets:
        X, y = load_dataset(name)
        folds = list(StratifiedKFold(n_folds, shuffle=True, random_state=0).split(X, y))
        for label in variants:
            params = VARIANTS[label]
            acc, cpu, members = [], [], []
            for train, test in folds:
                model = DRORuleEnsembleClassifier(random_state=0, **params,
                                                  member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto"))
                t0 = time.process_time()
                model.fit(X.iloc[train], y[train])
                cpu.append(time.process_time() - t0)
                acc.append(float(np.mean(model.predict(X.iloc[test]) == y[test])))
                members.append(sum(r["n_estimators"] for r in model.member_complexity_results_))
            rows.append((name, label, np.mean(acc), np.std(acc), np.mean(members), np.mean(cpu)))
            print(f"{name:22s} {label:22s} acc {np.mean(acc):.4f} members "
                  f"{np.mean(members):5.1f} cpu/fold {np.mean(cpu):7.2f}", flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", nargs="*", default=list(DATASETS))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--variants", nargs="*", default=["defaults", "every member, exact"],
                        choices=list(VARIANTS))
    parser.add_argument("--output", default=None)
    args = parser.parse_args()
    start = datetime.now(timezone.utc)
    load0 = os.getloadavg()
    t0 = time.time()
    rows = run(args.datasets, args.folds, args.variants)
    load1 = os.getloadavg()
    from importlib.metadata import version

    import sklearn
    lines = [
        "# DRO ensemble: fit-time variants, held-out accuracy and CPU",
        "",
        f"Run {start:%Y-%m-%d %H:%M} UTC, {time.time() - t0:.0f} s in all: "
        f"`python benchmarks/dro_defaults.py` (niceness {os.nice(0)}, one BLAS thread); "
        f"Python {platform.python_version()}, numpy {np.__version__}, scikit-learn "
        f"{sklearn.__version__}, highspy {version('highspy')}; "
        f"load average before {tuple(round(v, 2) for v in load0)}, after "
        f"{tuple(round(v, 2) for v in load1)} (2 shared cores: CPU seconds are the steadier "
        "figure).",
        "",
        f"{args.folds} stratified folds (shuffled, random_state=0), "
        "`DRORuleEnsembleClassifier(binarizer='auto', random_state=0)` plus, per variant: "
        + "; ".join(f"`{k}`: {VARIANTS[k] or 'nothing'}" for k in args.variants)
        + ".  Members: grown over the three member budgets, mean over folds.",
        "",
        "| data | variant | held-out accuracy | members | CPU s per fold |",
        "|---|---|---|---|---|",
    ]
    for name, label, acc, sd, mem, cpu in rows:
        lines.append(f"| {name} | {label} | {acc:.4f} ± {sd:.4f} | {mem:.1f} | {cpu:.2f} |")
    by = {}
    for _name, label, acc, _, _, cpu in rows:
        by.setdefault(label, []).append((acc, cpu))
    lines += ["", "| variant | mean accuracy | total CPU s per fold |", "|---|---|---|"]
    for label, vals in by.items():
        lines.append(f"| {label} | {np.mean([a for a, _ in vals]):.4f} | "
                     f"{sum(c for _, c in vals):.1f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.output:
        with open(args.output, "w") as fh:
            fh.write(text)


if __name__ == "__main__":
    main()
