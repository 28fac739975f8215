"""Is BoostingClassifier's probability worse than the prior only where its vote is?

``BoostingClassifier.predict_proba`` is the logistic link of AdaBoost's exponential loss,
``1 / (1 + exp(-2 F))`` (Friedman, Hastie and Tibshirani 2000), kept consistent with
``predict``.  On every bundled binary data set of up to ``--max-rows`` rows (plus
scikit-learn's breast cancer), 5 stratified folds (shuffled, ``random_state=0``), this
script fits ``BoostingClassifier()`` (its defaults, on the raw table) and records per set:

* the accuracy of predicting the training fold's majority class, and the vote's training
  and test accuracy;
* the test Brier score of ``predict_proba`` and of the prior (the training fold's positive
  rate);
* the same for ``CalibratedClassifierCV(BoostingClassifier(), method="sigmoid", cv=5)``
  (scikit-learn's out-of-fold Platt scaling; its predictions are the argmax of the
  calibrated probabilities, so they can differ from the vote's).

Sets where the link's Brier score is above the prior's are marked; the question is whether
they are the sets where the vote itself is no better than the majority class, and whether an
out-of-fold calibration brings them under the prior.

    OPENBLAS_NUM_THREADS=1 nice -n 5 python benchmarks/boosting_calibration.py \\
        --output benchmarks/results/boosting_calibration.md
"""

from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import platform
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
from sklearn.calibration import CalibratedClassifierCV
from sklearn.model_selection import StratifiedKFold
from suite import dataset_names, dataset_rows, load  # benchmarks/suite.py: the same sets

from optirules.learners import BoostingClassifier


def brier(p: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((p - y) ** 2))


def one_set(name: str) -> dict:
    X, y = load(name)
    y = np.asarray(y)
    rec: dict[str, list[float]] = {k: [] for k in (
        "majority", "train", "test", "brier", "prior", "cal_test", "cal_brier")}
    for train, test in StratifiedKFold(5, shuffle=True, random_state=0).split(X, y):
        Xtr, Xte, ytr, yte = X.iloc[train], X.iloc[test], y[train], y[test]
        vote = BoostingClassifier().fit(Xtr, ytr)
        pos = vote.classes_[1]
        share = float(np.mean(ytr == pos))
        rec["majority"].append(float(np.mean(yte == (pos if share > 0.5 else vote.classes_[0]))))
        rec["train"].append(vote.score(Xtr, ytr))
        rec["test"].append(vote.score(Xte, yte))
        rec["brier"].append(brier(vote.predict_proba(Xte)[:, 1], yte == pos))
        rec["prior"].append(brier(np.full(len(yte), share), yte == pos))
        cal = CalibratedClassifierCV(BoostingClassifier(), method="sigmoid", cv=5).fit(Xtr, ytr)
        rec["cal_test"].append(cal.score(Xte, yte))
        rec["cal_brier"].append(brier(cal.predict_proba(Xte)[:, 1], yte == pos))
    return {"data": name, "rows": len(y), **{k: float(np.mean(v)) for k, v in rec.items()}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-rows", type=int, default=5000,
                    help="leave out data sets with more rows (default 5000)")
    ap.add_argument("--output", help="also write the markdown report here")
    args = ap.parse_args(argv)
    names = [n for n in dataset_names() if dataset_rows(n) <= args.max_rows]
    started, load0, t0 = datetime.now(timezone.utc), os.getloadavg(), time.process_time()
    rows = []
    for name in names:
        rows.append(one_set(name))
        print(f"{name}: done", file=sys.stderr, flush=True)
    import sklearn

    lines = [
        "# Boosting's probabilities against the prior, and an out-of-fold calibration", "",
        f"Run {started:%Y-%m-%d %H:%M} UTC, `python benchmarks/boosting_calibration.py"
        f"{'' if args.max_rows == 5000 else f' --max-rows {args.max_rows}'}`; Python "
        f"{platform.python_version()}, numpy {np.__version__}, scikit-learn "
        f"{sklearn.__version__}; {platform.machine()}, {os.cpu_count()} cores; load average "
        f"at the start {tuple(round(v, 2) for v in load0)}, at the end "
        f"{tuple(round(v, 2) for v in os.getloadavg())}; {time.process_time() - t0:.0f} CPU s.",
        "",
        "5 stratified folds (shuffled, random_state=0), means over the test folds; "
        "`BoostingClassifier()` on the raw table; calibrated: "
        "`CalibratedClassifierCV(BoostingClassifier(), method=\"sigmoid\", cv=5)`; majority: "
        "predicting the training fold's majority class.  **bold**: Brier score above the "
        "prior's.", "",
        "| data | rows | majority acc. | vote train acc. | vote test acc. | Brier | "
        "prior Brier | calibrated test acc. | calibrated Brier |",
        "|---|---|---|---|---|---|---|---|---|",
    ]

    def b(v: float, prior: float) -> str:
        return f"**{v:.4f}**" if v > prior + 1e-9 else f"{v:.4f}"

    for r in rows:
        lines.append(
            f"| {r['data']} | {r['rows']} | {r['majority']:.4f} | {r['train']:.4f} | "
            f"{r['test']:.4f} | {b(r['brier'], r['prior'])} | {r['prior']:.4f} | "
            f"{r['cal_test']:.4f} | {b(r['cal_brier'], r['prior'])} |")
    worse = [r["data"] for r in rows if r["brier"] > r["prior"] + 1e-9]
    cal_worse = [r["data"] for r in rows if r["cal_brier"] > r["prior"] + 1e-9]
    lines += ["", f"Brier above the prior's: the link on {len(worse)} of {len(rows)} sets "
                  f"({', '.join(worse) or 'none'}); calibrated on {len(cal_worse)} "
                  f"({', '.join(cal_worse) or 'none'}).", ""]
    text = "\n".join(lines)
    print(text)
    if args.output:
        Path(args.output).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
