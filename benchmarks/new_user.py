"""A new user's first session with every learner, on tables the tests never use.

Three tables: palmerpenguins (strings, missing values, three species; from the
``palmerpenguins`` package on PyPI), scikit-learn's diabetes made binary (target above its
median) and an imbalanced one (UCI adult, strings and missing values: 4,000 rows earning at
most 50K and 255 above, drawn with a fixed seed: 6 % positives).  Every rule learner (ResampledAdaBoostClassifier, the pruners' ensemble generator,
takes binary numeric tables only and says so) is fitted with its defaults on a stratified
70/30 split,
then with ``class_weight="balanced"``; each gives its ``rules_table()``, one plot, and a
JSON round trip whose predictions must equal the model's.  The table printed gives, per
table and learner: test accuracy, balanced accuracy, the positives' recall (binary
tables), with ``class_weight="balanced"`` the same three, the fit time, the number of
rows of ``rules_table()``, the plot drawn and whether ``from_json(to_json())`` predicts
the same.

    pip install palmerpenguins
    python benchmarks/new_user.py [--out benchmarks/results/new_user.md]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd


def tables() -> dict[str, tuple[pd.DataFrame, np.ndarray]]:
    from sklearn.datasets import load_diabetes

    from optirules.data import load_dataset

    out = {}
    try:
        from palmerpenguins import load_penguins
    except ImportError:
        sys.exit("this script reads palmerpenguins: pip install palmerpenguins")
    p = load_penguins()
    out["penguins (3 classes, strings, NaN)"] = (p.drop(columns="species"),
                                                 p["species"].astype(str).to_numpy())
    d = load_diabetes(as_frame=True)
    out["diabetes (target > median)"] = (d.data,
                                         (d.target > d.target.median()).astype(int).to_numpy())
    X, y = load_dataset("adult")
    y = np.asarray(y)
    rng = np.random.default_rng(0)
    keep = np.sort(np.concatenate([rng.choice(np.flatnonzero(y == 0), 4000, replace=False),
                                   rng.choice(np.flatnonzero(y == 1), 255, replace=False)]))
    out["adult, 6 % positives"] = (X.iloc[keep].reset_index(drop=True), y[keep])
    return out


def learners() -> dict[str, tuple[type, str]]:
    from optirules.learners import (
        BooleanRuleSetClassifier,
        BooleanRuleSetCV,
        BoostingClassifier,
        DecisionListClassifier,
        DecisionListCV,
        DRORuleEnsembleClassifier,
    )

    return {"rule set": (BooleanRuleSetClassifier, "plot_column_generation"),
            "rule set CV": (BooleanRuleSetCV, "plot_rule_coverage"),
            "DRO ensemble": (DRORuleEnsembleClassifier, "plot_dro_ensemble"),
            "boosting": (BoostingClassifier, "plot_boosting"),
            "decision list": (DecisionListClassifier, "plot_rule_coverage"),
            "decision list CV": (DecisionListCV, "plot_rule_coverage")}


def scores(model, X, y, binary: bool) -> tuple[float, float, float]:
    from sklearn.metrics import balanced_accuracy_score, recall_score

    pred = model.predict(X)
    rec = float(recall_score(y, pred, pos_label=1)) if binary else float("nan")
    return float(np.mean(pred == y)), float(balanced_accuracy_score(y, pred)), rec


def plot(name: str, model, X, y, where: Path) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from optirules import plotting

    func = getattr(plotting, name)
    args = (X, y) if name in ("plot_rule_coverage", "plot_boosting") else ()
    func(model, *args)
    path = where / f"{name}.png"
    plt.gcf().savefig(path)
    plt.close("all")
    return name


def main(argv: list[str] | None = None) -> None:
    from sklearn.model_selection import train_test_split

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="also write the table here")
    args = parser.parse_args(argv)
    import optirules

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for tname, (X, y) in tables().items():
            binary = np.unique(y).size == 2
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                                      random_state=0)
            for lname, (cls, plot_name) in learners().items():
                t0 = time.perf_counter()
                model = cls().fit(X_tr, y_tr)
                fit_time = time.perf_counter() - t0
                acc, bal, rec = scores(model, X_te, y_te, binary)
                weighted = cls(class_weight="balanced").fit(X_tr, y_tr)
                w_acc, w_bal, w_rec = scores(weighted, X_te, y_te, binary)
                table = model.rules_table() if hasattr(model, "rules_table") else None
                drawn = plot(plot_name, model, X_te, y_te, Path(tmp))
                if hasattr(model, "to_json"):
                    back = type(model).from_json(model.to_json())
                    same = bool(np.array_equal(back.predict(X_te), model.predict(X_te)))
                    json_ok = "yes" if same else "NO"
                else:
                    json_ok = "no to_json"
                rows.append({"table": tname, "learner": lname, "accuracy": acc,
                             "balanced accuracy": bal, "recall of 1": rec,
                             "balanced: accuracy": w_acc, "balanced: balanced accuracy": w_bal,
                             "balanced: recall of 1": w_rec, "fit s": fit_time,
                             "rules_table rows": -1 if table is None else len(table),
                             "plot": drawn, "JSON same predictions": json_ok})
                print(f"{tname} / {lname}: {acc:.3f} ({fit_time:.1f} s)", file=sys.stderr,
                      flush=True)
    frame = pd.DataFrame(rows)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    head = (f"new_user.py run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
            f"optirules {optirules.__version__}, Python {platform.python_version()}, "
            f"pandas {pd.__version__}, numpy {np.__version__}; {os.cpu_count()} cores, load "
            f"{load:.2f} at the end\n")
    text = head + "\n" + frame.to_markdown(index=False, floatfmt=".3f") + "\n"
    print(text)
    if args.out is not None:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
