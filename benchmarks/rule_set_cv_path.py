"""BooleanRuleSetCV against the default rule set: its cost, and its accuracy under each
selection rule, on the suite's folds.

Each (data set, outer fold) of ``StratifiedKFold(5, shuffle=True, random_state=0)`` fits,
one after the other in this process, on the outer training rows:

* ``default``: ``BooleanRuleSetClassifier(random_state=0)`` (the rule set's own "auto"
  penalty);
* ``cv``: ``BooleanRuleSetCV(BooleanRuleSetClassifier(random_state=0), random_state=0)``
  (its defaults: the 5-penalty grid around "auto", 5 inner folds, one column generation
  per inner fold for the whole grid, ``selection="best"``), whose fit CPU is the
  measured cost;
* the penalty each selection rule picks from that same search's ``cv_results_``:
  ``best`` (highest mean inner score, ties to the larger penalty), ``one_se`` (the largest
  penalty within one standard error of the best), ``prefer_default`` (the default penalty
  unless the best mean beats its mean by more than the best's standard error, then the
  best), each
  refitted on the outer training rows (refits not counted in the cost) and scored on the
  outer test rows.

Printed: per data set the mean outer accuracy of the default and of each rule, the CV's
CPU over the default's (sums over the folds), and the means over the data sets; the
machine's load at the start and the end.

    python benchmarks/rule_set_cv_path.py --max-rows 5000
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

RULES = ("best", "one_se", "prefer_default")


def choose(results, rule, default_penalty):
    """The index of the penalty ``rule`` picks from ``cv_results_`` (``default_penalty``:
    the rule set's own "auto" lambda0 on these rows)."""
    import numpy as np

    mean = np.nan_to_num(np.asarray(results["mean_score"], dtype=float), nan=-np.inf)
    std = np.asarray(results["std_score"], dtype=float)
    n = sum(1 for k in results if k.startswith("split"))
    size = np.asarray(results["lambda0"]) + np.asarray(results["lambda1"])
    order = np.argsort(-size, kind="stable")
    best = int(order[np.argmax(mean[order])])
    if rule == "best":
        return best
    if rule == "one_se":
        se = std[best] / math.sqrt(max(n - 1, 1))
        return int([i for i in order if mean[i] >= mean[best] - se - 1e-12][0])
    default = int(np.argmin(np.abs(np.asarray(results["lambda0"]) - default_penalty)))
    se = std[best] / math.sqrt(max(n - 1, 1))
    return best if mean[best] > mean[default] + se + 1e-12 else default


def main(argv=None) -> int:
    import numpy as np
    from sklearn.model_selection import StratifiedKFold
    from suite import dataset_names, dataset_rows, load

    from optirules.learners import BooleanRuleSetClassifier, BooleanRuleSetCV

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default=None)
    ap.add_argument("--max-rows", type=int, default=None)
    ap.add_argument("--store", default=str(HERE / "results" / "rule_set_cv_path.jsonl"))
    ap.add_argument("--out", default=str(HERE / "results" / "rule_set_cv_path.md"))
    args = ap.parse_args(argv)
    names = args.datasets.split(",") if args.datasets else [
        n for n in dataset_names() if args.max_rows is None or dataset_rows(n) <= args.max_rows]
    store = Path(args.store)
    done = set()
    if store.exists():
        for line in store.read_text().splitlines():
            r = json.loads(line)
            done.add((r["dataset"], r["fold"]))
    load0, t0 = os.getloadavg(), time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    BooleanRuleSetClassifier(random_state=0).fit(*load("monks1_train"))  # imports warm
    for name in names:
        X, y = load(name)
        y = np.asarray(y)
        for f, (tr, te) in enumerate(StratifiedKFold(5, shuffle=True, random_state=0)
                                     .split(X, y)):
            if (name, f) in done:
                continue
            Xtr, ytr, Xte, yte = X.iloc[tr], y[tr], X.iloc[te], y[te]
            c0 = time.process_time()
            default = BooleanRuleSetClassifier(random_state=0).fit(Xtr, ytr)
            c1 = time.process_time()
            cv = BooleanRuleSetCV(BooleanRuleSetClassifier(random_state=0),
                                  random_state=0).fit(Xtr, ytr)
            c2 = time.process_time()
            rec = {"dataset": name, "fold": f, "default_cpu": c1 - c0, "cv_cpu": c2 - c1,
                   "default": float(np.mean(default.predict(Xte) == yte)),
                   "load": os.getloadavg()[0]}
            fitted = {}
            for rule in RULES:
                k = choose(cv.cv_results_, rule, default.lambda0_)
                if k not in fitted:
                    l0, l1 = cv.cv_results_["lambda0"][k], cv.cv_results_["lambda1"][k]
                    fitted[k] = BooleanRuleSetClassifier(
                        random_state=0, lambda0=float(l0), lambda1=float(l1)).fit(Xtr, ytr)
                rec[rule] = float(np.mean(fitted[k].predict(Xte) == yte))
                rec[f"{rule}_index"] = k
            with store.open("a") as fh:
                fh.write(json.dumps(rec) + "\n")
            print(name, f, {k: round(v, 4) if isinstance(v, float) else v
                            for k, v in rec.items() if k not in ("dataset", "fold")}, flush=True)
    import pandas as pd

    df = pd.DataFrame([json.loads(line) for line in store.read_text().splitlines()])
    df = df[df["dataset"].isin(names)]
    per = df.groupby("dataset").agg({**{k: "mean" for k in ("default", *RULES)},
                                     "default_cpu": "sum", "cv_cpu": "sum", "fold": "count"})
    per["ratio"] = per["cv_cpu"] / per["default_cpu"]
    load1 = os.getloadavg()
    lines = ["# BooleanRuleSetCV: cost and selection rules", "",
             f"Run {t0}, `python benchmarks/rule_set_cv_path.py "
             f"{' '.join(argv if argv is not None else sys.argv[1:])}`; Python "
             f"{platform.python_version()}, numpy {np.__version__}; load average at the start "
             f"{tuple(round(v, 2) for v in load0)}, at the end "
             f"{tuple(round(v, 2) for v in load1)} (per fold in the store).  Mean outer-fold "
             "accuracy; CV CPU / default CPU over the folds (process time).", "",
             "| data set | folds | default | " + " | ".join(RULES)
             + " | CV CPU s | default CPU s | ratio |", "|---" * (len(RULES) + 6) + "|"]
    for name, r in per.iterrows():
        lines.append(f"| {name} | {int(r['fold'])} | {r['default']:.4f} | "
                     + " | ".join(f"{r[k]:.4f}" for k in RULES)
                     + f" | {r['cv_cpu']:.2f} | {r['default_cpu']:.2f} | {r['ratio']:.1f}x |")
    m = per.mean(numeric_only=True)
    lines.append(f"| **mean ({len(per)} sets)** | | {m['default']:.4f} | "
                 + " | ".join(f"{m[k]:.4f}" for k in RULES)
                 + f" | {per['cv_cpu'].sum():.2f} | {per['default_cpu'].sum():.2f} | "
                 f"{per['cv_cpu'].sum() / per['default_cpu'].sum():.1f}x (total), "
                 f"{per['ratio'].median():.1f}x (median set), {per['ratio'].max():.1f}x (max) |")
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
