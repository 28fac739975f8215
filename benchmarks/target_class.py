"""Which class the rule set should describe by default: the second label (``classes_[1]``)
or the minority class (as RIPPER describes), on the bundled data sets where they differ.

Each (data set, fold) of ``StratifiedKFold(5, shuffle=True, random_state=0)`` fits
``BooleanRuleSetClassifier(random_state=0)`` twice on the training fold, describing
``classes_[1]`` (``target_class=None`` on 0/1 labels) and ``target_class=0`` (the minority
on these sets), and scores both on the test fold: accuracy, AUC, Brier score, fit CPU
(process time), rules.  Results are appended to ``--store`` (one JSON line per fit) and the
table is printed from it (``--report-only``: no fit).

    python benchmarks/target_class.py
    python benchmarks/target_class.py --report-only
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def majority_positive(names):
    """The data sets whose class 1 has more rows than class 0."""
    import numpy as np
    from suite import load

    return [n for n in names if np.mean(np.asarray(load(n)[1])) > 0.5]


def main(argv=None) -> int:
    import numpy as np
    import pandas as pd
    from sklearn.metrics import brier_score_loss, roc_auc_score
    from sklearn.model_selection import StratifiedKFold
    from suite import dataset_names, load

    from optirules.learners import BooleanRuleSetClassifier

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", default=str(HERE / "results" / "target_class.jsonl"))
    ap.add_argument("--report-only", action="store_true")
    args = ap.parse_args(argv)
    store = Path(args.store)
    if not args.report_only:
        names = majority_positive(dataset_names())
        for name in names:
            X, y = load(name)
            y = np.asarray(y)
            for tc in (None, 0):
                for f, (tr, te) in enumerate(StratifiedKFold(5, shuffle=True, random_state=0)
                                             .split(X, y)):
                    t = time.process_time()
                    est = BooleanRuleSetClassifier(random_state=0, target_class=tc).fit(
                        X.iloc[tr], y[tr])
                    cpu = time.process_time() - t
                    p = est.predict_proba(X.iloc[te])[:, 1]
                    rec = {"name": name, "tc": str(tc), "fold": f,
                           "acc": float(np.mean(est.predict(X.iloc[te]) == y[te])),
                           "auc": float(roc_auc_score(y[te], p)),
                           "brier": float(brier_score_loss(y[te], p)), "cpu": cpu,
                           "rules": len(est.rules_.rules), "load": os.getloadavg()[0],
                           "time": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
                    with store.open("a") as fh:
                        fh.write(json.dumps(rec) + "\n")
    df = pd.DataFrame([json.loads(line) for line in store.read_text().splitlines()])
    g = df.groupby(["name", "tc"])[["acc", "auc", "brier", "cpu", "rules"]].mean().unstack()
    print(f"{len(df)} fits, {df['time'].min() if 'time' in df else '?'} to "
          f"{df['time'].max() if 'time' in df else '?'}, 1-minute load "
          f"{df['load'].min() if 'load' in df else '?'}-{df['load'].max() if 'load' in df else '?'}")
    print("| data set | accuracy classes_[1] | accuracy minority | CPU s classes_[1] | "
          "CPU s minority |\n|---|---|---|---|---|")
    for name in g.index:
        print(f"| {name} | {g.loc[name, ('acc', 'None')]:.4f} | {g.loc[name, ('acc', '0')]:.4f} "
              f"| {g.loc[name, ('cpu', 'None')]:.2f} | {g.loc[name, ('cpu', '0')]:.2f} |")
    print(f"| **mean ({len(g)} sets)** | {g[('acc', 'None')].mean():.4f} | "
          f"{g[('acc', '0')].mean():.4f} | {g[('cpu', 'None')].sum():.2f} (sum) | "
          f"{g[('cpu', '0')].sum():.2f} (sum) |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
