"""Which default (max_degree, min_coverage) should DecisionListClassifier have?

On every bundled data set (``optirules.data.list_datasets()``, all binary) plus
scikit-learn's ``load_breast_cancer``, with 5 stratified folds (shuffled,
``random_state=0``), this script fits

* ``DecisionListCV()`` (its defaults: ``max_degree`` in (1, 2, 3) x ``min_coverage`` in
  (2, 5, 10, 20, 40, 80), 5 inner folds) and records the pair it chose, the number of rules
  of the refitted list, its test accuracy and the fit's CPU seconds;
* ``DecisionListClassifier`` with each candidate default (``--candidates``) and records the
  same: among them the old default ``max_degree=2, min_coverage=2`` (``2:2``) and the new
  one, ``max_degree=2, min_coverage="auto"`` (``2:auto``, ``max(2, ceil(n / 50))``).

The goals: median number of rules over the data sets at most 30, mean test accuracy at most
1 point below DecisionListCV's (and not below the old default's).

A candidate is written ``DEGREE:COVERAGE``: ``2:2`` is an integer ``min_coverage``;
``2:auto`` passes ``min_coverage="auto"``; ``2:0.01`` computes the coverage from the
number of training rows ``n`` of the fold, ``max(2, ceil(0.01 * n))``, and passes that integer.

Numeric columns holding missing values (breast_cancer_wisconsin, heart_cleveland, ilpd) are
listed in ``categorical_features`` for every learner (the learner refuses NaN in numeric
columns and advises this), so missing becomes the value ``?``.  adult and magic_gamma are
cut to a stratified 5,000-row subsample (``--cap``, for time: DecisionListCV runs 91 fits per
outer fold).

    OPENBLAS_NUM_THREADS=1 nice -n 5 python benchmarks/decision_list_defaults.py \\
        --output benchmarks/results/decision_list_defaults.md
"""

from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import json
import math
import platform
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timezone
from fractions import Fraction

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold, train_test_split

from optirules.data import list_datasets, load_dataset
from optirules.learners import DecisionListClassifier, DecisionListCV

#: data sets cut to a stratified subsample of ``--cap`` rows (for time)
CAPPED = ("adult", "magic_gamma")
SKLEARN_BREAST_CANCER = "sklearn_breast_cancer"
#: the default before this measurement, and the one it chose
OLD_DEFAULT, NEW_DEFAULT = "2:2", "2:auto"
DEFAULT_CANDIDATES = (OLD_DEFAULT, NEW_DEFAULT, "1:2", "2:10", "2:20", "3:20", "2:0.01",
                      "2:0.015", "2:0.025", "2:0.03", "2:0.05", "3:0.03", "3:0.04", "3:0.05")
#: the goals: median rules at most this, mean accuracy at most this below DecisionListCV's
GOAL_MEDIAN_RULES, GOAL_ACCURACY_GAP = 30, 0.01


def load(name: str, cap: int | None) -> tuple[pd.DataFrame, np.ndarray, str]:
    """(X, y, note) of one data set; ``note`` says how it was cut."""
    if name == SKLEARN_BREAST_CANCER:
        from sklearn.datasets import load_breast_cancer

        data = load_breast_cancer(as_frame=True)
        return data.data, np.asarray(data.target), ""
    X, y = load_dataset(name)
    note = ""
    if cap is not None and name in CAPPED and len(y) > cap:
        X, _, y, _ = train_test_split(X, y, train_size=cap, stratify=y, random_state=0)
        note = f"stratified {cap:,} of {len(_) + cap:,} rows"
    return X.reset_index(drop=True), np.asarray(y), note


def parse_candidate(text: str) -> tuple[int, str]:
    degree, _, coverage = text.partition(":")
    if not degree.isdigit() or not coverage:
        raise SystemExit(f"candidate {text!r}: write DEGREE:COVERAGE, e.g. 2:2, 2:auto, 2:0.01")
    return int(degree), coverage


def coverage_for(coverage: str, n: int) -> int | str:
    """The ``min_coverage`` to pass for a candidate's coverage text on ``n`` training rows."""
    if coverage == "auto":
        return "auto"
    if "." in coverage:
        return max(2, math.ceil(Fraction(coverage) * n))  # exact: no rounding error
    return int(coverage)


def fit_one(est, Xtr, ytr, Xte, yte) -> dict:
    t0 = time.process_time()
    est.fit(Xtr, ytr)
    cpu = time.process_time() - t0
    return {"acc": float(np.mean(est.predict(Xte) == yte)), "rules": len(est.rules_),
            "cpu": cpu}


def run(datasets, candidates, cap, n_folds=5, with_cv=True, log=print) -> list[dict]:
    records = []
    for name in datasets:
        X, y, note = load(name, cap)
        cf = [c for c in X.columns if X[c].dtype.kind == "f" and X[c].isna().any()] or None
        folds = list(StratifiedKFold(n_folds, shuffle=True, random_state=0).split(X, y))
        for f, (train, test) in enumerate(folds):
            Xtr, Xte, ytr, yte = X.iloc[train], X.iloc[test], y[train], y[test]
            n = len(train)
            base = {"data": name, "fold": f, "n_train": n, "note": note,
                    "categorical_features": cf}
            if with_cv:
                cv = DecisionListCV(DecisionListClassifier(categorical_features=cf))
                rec = fit_one(cv, Xtr, ytr, Xte, yte)
                rec.update(base, method="DecisionListCV",
                           degree=cv.best_params_["max_degree"],
                           coverage=cv.best_params_["min_coverage"])
                records.append(rec)
                log(f"{name:24s} fold {f} DecisionListCV  {rec['degree']}/{rec['coverage']:<3d}"
                    f" rules {rec['rules']:4d} acc {rec['acc']:.4f} cpu {rec['cpu']:7.2f}")
            for cand in candidates:
                degree, coverage = parse_candidate(cand)
                est = DecisionListClassifier(max_degree=degree,
                                             min_coverage=coverage_for(coverage, n),
                                             categorical_features=cf)
                rec = fit_one(est, Xtr, ytr, Xte, yte)
                used = getattr(est, "min_coverage_", est.min_coverage)
                rec.update(base, method=cand, degree=degree, coverage=int(used))
                records.append(rec)
        for method in (["DecisionListCV"] if with_cv else []) + list(candidates):
            sub = [r for r in records if r["data"] == name and r["method"] == method]
            log(f"{name:24s} {method:15s} rules {np.mean([r['rules'] for r in sub]):6.1f} "
                f"acc {np.mean([r['acc'] for r in sub]):.4f} "
                f"cpu/fold {np.mean([r['cpu'] for r in sub]):7.2f}")
        sys.stdout.flush()
    return records


def summarize(records: list[dict]) -> pd.DataFrame:
    """Per data set and method: mean rules, accuracy and CPU seconds over the folds."""
    df = pd.DataFrame(records)
    return (df.groupby(["data", "method"], sort=False)
            .agg(n_train=("n_train", "mean"), rules=("rules", "mean"), acc=("acc", "mean"),
                 cpu=("cpu", "mean"))
            .reset_index())


def headline(per: pd.DataFrame, methods: list[str]) -> list[dict]:
    """Per method: median and mean rules over data sets, mean accuracy, its mean gap to
    DecisionListCV and to the old default, whether it meets the goals."""
    ref = per[per.method == "DecisionListCV"].set_index("data")
    old = per[per.method == OLD_DEFAULT].set_index("data")
    out = []
    for m in methods:
        sub = per[per.method == m].set_index("data")
        if not len(sub):
            continue
        row = {"method": m, "median": float(sub.rules.median()), "mean": float(sub.rules.mean()),
               "acc": float(sub.acc.mean()), "cpu": float(sub.cpu.sum()), "n": len(sub),
               "vs_cv": float("nan"), "vs_old": float("nan"), "within": None, "meets": ""}
        if len(ref):
            gap = sub.acc - ref.acc.reindex(sub.index)
            row["vs_cv"] = float(gap.mean())
            row["within"] = int((gap >= -GOAL_ACCURACY_GAP).sum())
            row["meets"] = "yes" if (row["median"] <= GOAL_MEDIAN_RULES
                                     and row["vs_cv"] >= -GOAL_ACCURACY_GAP) else "no"
        if len(old):
            row["vs_old"] = float((sub.acc - old.acc.reindex(sub.index)).mean())
        out.append(row)
    return out


def git_commit() -> str:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root,
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "optirules"], cwd=root,
                               capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    if dirty.strip():
        files = ", ".join(line[3:] for line in dirty.splitlines() if line.strip())
        return f"{head} at the start, with uncommitted changes to {files}"
    return f"{head} at the start"


def render(records, candidates, args, start, load0, load1, seconds, commit) -> str:
    import sklearn

    per = summarize(records)
    has_cv = any(r["method"] == "DecisionListCV" for r in records)
    methods = (["DecisionListCV"] if has_cv else []) + list(candidates)
    names = list(per.data.unique())
    bundled = list(list_datasets()["name"])
    if names == bundled + [SKLEARN_BREAST_CANCER]:
        which = (f"every data set of `optirules.data.list_datasets()` ({len(bundled)}) and "
                 "scikit-learn's `load_breast_cancer` (as `sklearn_breast_cancer`)")
    else:
        which = "the data sets " + ", ".join(names)
    notes = {r["data"]: r["note"] for r in records if r["note"]}
    cats = {r["data"]: r["categorical_features"] for r in records if r["categorical_features"]}
    lines = [
        f"# {args.title}",
        "",
        f"Run {start:%Y-%m-%d %H:%M} UTC, {seconds:.0f} s in all, commit {commit}: "
        f"`{args.command}` (niceness {os.nice(0)}, one BLAS thread, n_jobs=1); Python "
        f"{platform.python_version()}, numpy {np.__version__}, pandas {pd.__version__}, "
        f"scikit-learn {sklearn.__version__}; load average at start "
        f"{tuple(round(v, 2) for v in load0)}, at end {tuple(round(v, 2) for v in load1)} "
        "(2 shared cores: CPU seconds are the steadier figure).",
        "",
        f"Protocol: {which}, all binary; "
        f"`StratifiedKFold({args.folds}, shuffle=True, random_state=0)`; each method is fitted "
        "on the training part of each fold and scored on its test part; figures are means "
        "over the folds.  "
        + ("`DecisionListCV`: its defaults (max_degree in (1, 2, 3) x "
           "min_coverage in (2, 5, 10, 20, 40, 80), 5 inner stratified folds, the pair of best "
           "mean inner accuracy refitted on the training part).  " if has_cv
           else "DecisionListCV not run (`--no-cv`).  ")
        + "A candidate `d:c` is "
        "`DecisionListClassifier(max_degree=d, min_coverage=c)`; `d:auto` passes "
        "`min_coverage=\"auto\"`; `d:0.01` passes `max(2, ceil(0.01 n))` for the fold's "
        "`n` training rows.  Rows cut for time: "
        + ("; ".join(f"{k} ({v})" for k, v in notes.items()) or "none")
        + ".  Numeric columns with missing values passed as `categorical_features` (missing "
        "becomes the value `?`, for every method): "
        + ("; ".join(f"{k} ({', '.join(map(str, v))})" for k, v in cats.items()) or "none")
        + ".",
        "",
        "## Headline",
        "",
        "Median and mean over the data sets of the per-data-set mean number of rules; mean "
        "test accuracy over the data sets; its mean difference (points) to DecisionListCV "
        f"and to the old default `{OLD_DEFAULT}`; data sets where the method is at most 1 "
        "point below DecisionListCV; CPU seconds of all fits summed over data sets (mean "
        f"per fold); 'goals': median rules at most {GOAL_MEDIAN_RULES} and mean accuracy at "
        f"most {100 * GOAL_ACCURACY_GAP:.0f} point below DecisionListCV's.  `{NEW_DEFAULT}` "
        "is the new default (`DecisionListClassifier()`), "
        f"`{OLD_DEFAULT}` the old one.",
        "",
        "| method | median rules | mean rules | mean accuracy % | vs DecisionListCV (points)"
        f" | vs {OLD_DEFAULT} (points) | data sets within 1 point of DecisionListCV | "
        "CPU s per fold, all data sets | goals |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    def points(v: float) -> str:
        return "" if np.isnan(v) else f"{100 * v:+.2f}"

    for r in headline(per, methods):
        within = "" if r["within"] is None else f"{r['within']} of {r['n']}"
        lines.append(f"| {r['method']} | {r['median']:.1f} | {r['mean']:.1f} | "
                     f"{100 * r['acc']:.2f} | {points(r['vs_cv'])} | {points(r['vs_old'])} | "
                     f"{within} | {r['cpu']:.2f} | {r['meets']} |")
    cvrec = [r for r in records if r["method"] == "DecisionListCV"]
    if cvrec:
        lines += ["", "## DecisionListCV per data set", "",
                  "| data | training rows | chosen max_degree / min_coverage (folds) | rules | "
                  "accuracy % | CPU s per fold |", "|---|---|---|---|---|---|"]
    for name in per.data.unique():
        sub = [r for r in cvrec if r["data"] == name]
        if not sub:
            continue
        chosen = Counter(f"{r['degree']} / {r['coverage']}" for r in sub)
        lines.append(f"| {name} | {np.mean([r['n_train'] for r in sub]):.0f} | "
                     + ", ".join(f"{k} ({v})" for k, v in chosen.most_common()) + " | "
                     f"{np.mean([r['rules'] for r in sub]):.1f} | "
                     f"{100 * np.mean([r['acc'] for r in sub]):.1f} | "
                     f"{np.mean([r['cpu'] for r in sub]):.2f} |")
    pairs = Counter((r["degree"], r["coverage"]) for r in cvrec)
    if cvrec:
        lines += ["", "Pairs DecisionListCV chose over all folds: "
                  + ", ".join(f"{d} / {c} ({k})" for (d, c), k in pairs.most_common()) + "; "
                  "chosen min_coverage as a fraction of the training rows: median "
                  f"{np.median([r['coverage'] / r['n_train'] for r in cvrec]):.4f}."]
    auto = {name: np.mean([r["coverage"] for r in records
                           if r["data"] == name and r["method"] == NEW_DEFAULT] or [np.nan])
            for name in names}
    for what, col, fmt in (("Rules", "rules", "{:.1f}"), ("Test accuracy %", "acc", "{:.1f}")):
        lines += ["", f"## {what} per data set", "",
                  f"Training rows: mean over the folds; `{NEW_DEFAULT}` min_coverage: the "
                  "integer `\"auto\"` resolved to (mean over the folds)." if col == "rules"
                  else "The same fits.", "",
                  "| data | training rows | " + (f"{NEW_DEFAULT} min_coverage | "
                                                 if col == "rules" else "")
                  + " | ".join(methods) + " |",
                  "|---|---|" + ("---|" if col == "rules" else "") + "---|" * len(methods)]
        for name in names:
            sub = per[per.data == name].set_index("method")[col]
            n_train = per[per.data == name].n_train.iloc[0]
            scale = 100 if col == "acc" else 1
            extra = (f"{auto[name]:.1f} | " if not np.isnan(auto[name]) else " | ") \
                if col == "rules" else ""
            lines.append(f"| {name} | {n_train:.0f} | {extra}" + " | ".join(
                fmt.format(scale * sub[m]) if m in sub else "" for m in methods) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", nargs="*", default=None,
                        help="default: every bundled data set and sklearn_breast_cancer")
    parser.add_argument("--candidates", nargs="*", default=list(DEFAULT_CANDIDATES))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--cap", type=int, default=5000,
                        help="rows kept of adult and magic_gamma (0: all)")
    parser.add_argument("--no-cv", action="store_true", help="skip DecisionListCV")
    parser.add_argument("--output", default=None, help="write the Markdown report here")
    parser.add_argument("--title", default="Decision list: the default (max_degree, "
                        "min_coverage) by measurement", help="title of the report")
    parser.add_argument("--append", action="store_true",
                        help="append the report to --output as a section (one heading level "
                             "down) instead of overwriting it")
    parser.add_argument("--raw", default=None, help="write the per-fold records (JSON) here")
    args = parser.parse_args()
    args.command = "python " + " ".join(
        [os.path.relpath(sys.argv[0])] + [a if a.replace("_", "").replace("-", "").replace(
            ":", "").replace(".", "").replace("/", "").isalnum() else repr(a)
            for a in sys.argv[1:]])
    datasets = args.datasets or list(list_datasets()["name"]) + [SKLEARN_BREAST_CANCER]
    start = datetime.now(timezone.utc)
    commit = git_commit()
    load0 = os.getloadavg()
    t0 = time.time()
    records = run(datasets, args.candidates, args.cap or None, args.folds, not args.no_cv)
    load1 = os.getloadavg()
    if args.raw:
        with open(args.raw, "w") as fh:
            json.dump(records, fh)
    text = render(records, args.candidates, args, start, load0, load1, time.time() - t0,
                  commit)
    print(text)
    if args.output:
        if args.append:
            text = "\n" + "\n".join("#" + line if line.startswith("#") else line
                                     for line in text.splitlines()) + "\n"
        with open(args.output, "a" if args.append else "w") as fh:
            fh.write(text)


if __name__ == "__main__":
    main()
