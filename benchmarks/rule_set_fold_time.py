"""CPU seconds of one default rule-set fit on one fold of the suite, from any checkout.

Fits ``BooleanRuleSetClassifier(random_state=0, binarizer="auto")`` on the training part of
fold ``--fold`` of ``StratifiedKFold(5, shuffle=True, random_state=0)`` over a bundled data
set (the suite's folds) and prints the fit's process CPU seconds, its column-generation
iterations, its status and the test accuracy.  ``--code PATH`` imports ``optirules`` from
another checkout (a ``git worktree`` of an older commit), so that two commits can be timed
on the same machine, one after the other::

    git worktree add /tmp/wt_old 4fd3432
    python benchmarks/rule_set_fold_time.py adult --code /tmp/wt_old
    python benchmarks/rule_set_fold_time.py adult
"""

from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import sys
import time


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", help="a bundled data set (optirules.data.list_datasets())")
    ap.add_argument("--fold", type=int, default=0, help="which of the 5 folds (default 0)")
    ap.add_argument("--code", help="import optirules from this checkout instead")
    args = ap.parse_args(argv)
    if args.code:
        sys.path.insert(0, os.path.abspath(args.code))
    import numpy as np
    from sklearn.model_selection import StratifiedKFold

    import optirules
    from optirules.data import load_dataset
    from optirules.learners import BooleanRuleSetClassifier

    X, y = load_dataset(args.dataset)
    y = np.asarray(y)
    train, test = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))[args.fold]
    load = os.getloadavg()[0]
    t0 = time.process_time()
    est = BooleanRuleSetClassifier(random_state=0, binarizer="auto").fit(X.iloc[train], y[train])
    cpu = time.process_time() - t0
    print(f"optirules from {os.path.dirname(optirules.__file__)}; {args.dataset} fold "
          f"{args.fold} ({len(train)} training rows); load {load:.2f}; fit CPU {cpu:.1f} s; "
          f"{est.n_iter_} iterations; {est.status_}; test accuracy "
          f"{est.score(X.iloc[test], y[test]):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
