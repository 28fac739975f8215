"""The DRO ensemble on small tables: old defaults, new defaults and the rule set.

Every bundled data set of at most 5,000 rows (``optirules.data.list_datasets()``) and
scikit-learn's ``load_breast_cancer`` ("sklearn_breast_cancer"), 5 stratified folds
(``StratifiedKFold(5, shuffle=True, random_state=0)``), three learners:

* ``dro_old``: ``DRORuleEnsembleClassifier(binarizer="auto", random_state=0)`` with the
  defaults before ``benchmarks/results/dro_small.md`` passed explicitly: member budgets
  C/3, C/2, C (``member_complexity=(10, 15, 30)``), ``n_iter_no_change=2``, member master
  IPs to ``mip_gap`` without a node bound (``member_ip_max_nodes=None``) and
  ``max_degree`` 3 while N L^3 / 6 <= 1e9 (else 2); its probabilities were the vote
  F itself, so its Brier score is that of F;
* ``dro_new``: ``DRORuleEnsembleClassifier(binarizer="auto", random_state=0)`` (the
  current defaults; Brier of ``predict_proba``, the calibrated vote, and of the raw vote F
  beside it);
* ``rule_set``: ``BooleanRuleSetClassifier(binarizer="auto", random_state=0)``.

Per fold: test accuracy, Brier score, the prior's Brier score (the training share of the
positive class predicted for every test row) and the fit's CPU seconds
(``time.process_time()``, one BLAS thread).  Fits are stored one JSON line each in
``--store`` (resumable: a fit already there is not rerun), and the tables are written to
``--output``.  ``--learners`` and ``--datasets`` restrict a run; ``--budget`` stops
starting new data sets of a learner after that many seconds of the run, and
``--report-only`` writes the tables from the store without fitting.

    nice -n 5 python benchmarks/dro_small.py --output benchmarks/results/dro_small.md
"""

from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import json
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedKFold

from optirules.data import list_datasets, load_dataset
from optirules.learners import PRIOR_STRENGTH, BooleanRuleSetClassifier, DRORuleEnsembleClassifier

LEARNERS = ("dro_new", "rule_set", "dro_old")
MAX_ROWS = 5000
#: the old max_degree="auto": 3 while N L^3 / 6 stays below this, else 2
OLD_DEGREE_WORK = 1e9


def datasets() -> list[str]:
    table = list_datasets()
    names = [str(n) for n, r in zip(table["name"], table["rows"]) if int(r) <= MAX_ROWS]
    return names + ["sklearn_breast_cancer"]


def load(name: str):
    if name == "sklearn_breast_cancer":
        from sklearn.datasets import load_breast_cancer

        X, y = load_breast_cancer(return_X_y=True, as_frame=True)
        return X, np.asarray(y)
    return load_dataset(name)


def make(learner: str, X_train) -> object:
    if learner == "rule_set":
        return BooleanRuleSetClassifier(binarizer="auto", random_state=0)
    if learner == "dro_new":
        return DRORuleEnsembleClassifier(random_state=0,
                                         member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto"))
    probe = DRORuleEnsembleClassifier(member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto"))
    n, n_lit = probe._literal_matrix(X_train, reset=True).shape  # the learner's literals
    degree = 3 if n * n_lit ** 3 / 6.0 <= OLD_DEGREE_WORK else 2
    return DRORuleEnsembleClassifier(random_state=0, member_complexity=(10.0, 15.0, 30.0),
                                     n_iter_no_change=2, member_ip_max_nodes=None,
                                     member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto", max_degree=degree))


def fit_one(learner: str, name: str, fold: int, X, y, train, test) -> dict:
    model = make(learner, X.iloc[train])
    t0 = time.process_time()
    model.fit(X.iloc[train], y[train])
    cpu = time.process_time() - t0
    yt = (y[test] == model.classes_[1]).astype(float)
    prior = float(np.mean(y[train] == model.classes_[1]))
    rec = {"learner": learner, "data": name, "fold": fold, "rows": int(len(y)),
           "acc": float(np.mean(model.predict(X.iloc[test]) == y[test])),
           "brier_prior": float(np.mean((prior - yt) ** 2)), "cpu": cpu}
    if learner == "rule_set":
        rec["brier"] = float(np.mean((model.predict_proba(X.iloc[test])[:, 1] - yt) ** 2))
        return rec
    F = np.clip(model.decision_function(X.iloc[test]), 0.0, 1.0)
    rec["brier_vote"] = float(np.mean((F - yt) ** 2))
    proba = model.predict_proba(X.iloc[test])[:, 1]
    # the old defaults' probabilities were the vote F itself
    rec["brier"] = rec["brier_vote"] if learner == "dro_old" else float(
        np.mean((proba - yt) ** 2))
    rec["members"] = len(model.history_)
    rec["max_degree"] = int(model.max_degree_)
    return rec


def run(args) -> list[dict]:
    store = Path(args.store)
    done = {}
    if store.exists():
        for line in store.read_text().splitlines():
            r = json.loads(line)
            done[(r["learner"], r["data"], r["fold"])] = r
    t_start = time.time()
    names = sorted(args.datasets, key=lambda n: (len(load(n)[1]), n))
    for learner in ([] if args.report_only else args.learners):
        for name in names:
            if all((learner, name, f) in done for f in range(args.folds)):
                continue
            if args.budget is not None and time.time() - t_start > args.budget:
                print(f"budget: {learner} not started on {name}", flush=True)
                continue
            X, y = load(name)
            folds = StratifiedKFold(args.folds, shuffle=True, random_state=0).split(X, y)
            for f, (train, test) in enumerate(folds):
                if (learner, name, f) in done:
                    continue
                rec = fit_one(learner, name, f, X, y, train, test)
                done[(learner, name, f)] = rec
                with store.open("a") as fh:
                    fh.write(json.dumps(rec) + "\n")
                print(f"{learner:9s} {name:24s} fold {f} acc {rec['acc']:.4f} brier "
                      f"{rec['brier']:.4f} (prior {rec['brier_prior']:.4f}) cpu "
                      f"{rec['cpu']:.2f}", flush=True)
    return list(done.values())


def git_commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, check=True, cwd=Path(__file__).parent)
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "optirules"],
                               capture_output=True, text=True,
                               cwd=Path(__file__).resolve().parents[1])
        return out.stdout.strip() + (" (with uncommitted changes under optirules/)"
                                     if dirty.stdout.strip() else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def command() -> list[str]:
    """``sys.argv`` with the text of ``--note`` left out (the note follows in the header)."""
    out, skip = [], False
    for a in sys.argv:
        if skip:
            out.append("...")
            skip = False
            continue
        out.append(a)
        skip = a == "--note"
    return out


def band(rows: int) -> str:
    return "< 500" if rows < 500 else ("500-999" if rows < 1000 else "1,000-5,000")


def tables(recs: list[dict], folds: int) -> list[str]:
    by: dict[tuple[str, str], list[dict]] = {}
    for r in recs:
        by.setdefault((r["learner"], r["data"]), []).append(r)
    learners = [x for x in LEARNERS if any(k[0] == x for k in by)]
    names = sorted({k[1] for k in by}, key=lambda n: (by[next(k for k in by if k[1] == n)][0]
                                                      ["rows"], n))
    full = {k: v for k, v in by.items() if len(v) == folds}
    mean = lambda k, f: float(np.mean([r[f] for r in full[k]]))  # noqa: E731
    head = "| data | rows | prior Brier |" + "".join(
        f" {x} acc | {x} Brier | {x} CPU s |" for x in learners)
    out = [head, "|---|---|---|" + "---|---|---|" * len(learners)]
    for n in names:
        rows = by[next(k for k in by if k[1] == n)][0]["rows"]
        prior = next((mean(k, "brier_prior") for k in full if k[1] == n), float("nan"))
        cells = []
        for x in learners:
            k = (x, n)
            cells += ([f"{mean(k, 'acc'):.4f}", f"{mean(k, 'brier'):.4f}", f"{mean(k, 'cpu'):.2f}"]
                      if k in full else ["-", "-", "-"])
        out.append(f"| {n} | {rows} | {prior:.4f} | " + " | ".join(cells) + " |")
    def summary(group: list[str], title: str) -> list[str]:
        common = [n for n in names if all((x, n) in full for x in group)]
        if not common:
            return []
        bands = sorted({band(full[(group[0], n)][0]["rows"]) for n in common},
                       key=lambda b: ["< 500", "500-999", "1,000-5,000"].index(b))
        res = ["", f"{title} ({len(common)} data sets): mean accuracy, mean Brier score, "
               "the sets whose mean Brier score exceeds the prior's, and mean CPU seconds "
               "per fit by data-set size (rows before the split).", "",
               "| learner | mean accuracy | mean Brier | Brier > prior's | "
               + " | ".join(f"CPU s per fit, {b} rows" for b in bands)
               + " | CPU s per fit, all |",
               "|---|---|---|---|" + "---|" * len(bands) + "---|"]
        for x in group:
            worse = [n for n in common if mean((x, n), "brier") > mean((x, n), "brier_prior")]
            cpus = [np.mean([mean((x, n), "cpu") for n in common
                             if band(full[(x, n)][0]["rows"]) == b]) for b in bands]
            res.append(f"| {x} | {np.mean([mean((x, n), 'acc') for n in common]):.4f} | "
                       f"{np.mean([mean((x, n), 'brier') for n in common]):.4f} | "
                       f"{len(worse)}{' (' + ', '.join(worse) + ')' if worse else ''} | "
                       + " | ".join(f"{c:.2f}" for c in cpus)
                       + f" | {np.mean([mean((x, n), 'cpu') for n in common]):.2f} |")
        if "dro_new" in group:
            vote = [mean(("dro_new", n), "brier_vote") for n in common]
            res += ["", f"dro_new's Brier score of the raw vote F on these sets (before "
                    f"calibration): mean {np.mean(vote):.4f}."]
        if "rule_set" in group:
            for x in ("dro_old", "dro_new"):
                if x in group:
                    ratio = [mean((x, n), "cpu") / mean(("rule_set", n), "cpu")
                             for n in common]
                    total = (sum(mean((x, n), "cpu") for n in common)
                             / sum(mean(("rule_set", n), "cpu") for n in common))
                    ahead = sum(mean((x, n), "acc") >= mean(("rule_set", n), "acc")
                                for n in common)
                    res.append(f"{x} against rule_set: CPU per fit {np.median(ratio):.1f}x "
                               f"the rule set's (median over the sets; {total:.1f}x in "
                               f"total), accuracy at least the rule set's on {ahead} of "
                               f"{len(common)}.")
        return res

    out += summary(learners, "Over the data sets every learner finished")
    if "dro_old" in learners:
        out += summary([x for x in learners if x != "dro_old"],
                       "dro_new and rule_set over every data set both finished")
    missing = [f"{x} on {n}" for n in names for x in learners if (x, n) not in full]
    if missing:
        out += ["", "Not run (or not all folds): " + ", ".join(missing) + "."]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", nargs="*", default=None)
    parser.add_argument("--learners", nargs="*", default=list(LEARNERS), choices=LEARNERS)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds after which no new (learner, data set) is started")
    parser.add_argument("--store", default="benchmarks/results/dro_small.jsonl")
    parser.add_argument("--output", default=None)
    parser.add_argument("--report-only", action="store_true",
                        help="write the report from the stored fits, fitting nothing")
    parser.add_argument("--note", default="",
                        help="text added to the report's header (e.g. how a resumed run "
                             "was split)")
    args = parser.parse_args()
    args.datasets = args.datasets or datasets()
    start = datetime.now(timezone.utc)
    load0 = os.getloadavg()
    t0 = time.time()
    recs = run(args)
    load1 = os.getloadavg()
    from importlib.metadata import version

    import sklearn

    recs = [r for r in recs if r["data"] in args.datasets]
    lines = [
        "# DRO ensemble on small tables: old defaults, new defaults, the rule set",
        "",
        f"Run {start:%Y-%m-%d %H:%M} UTC, {time.time() - t0:.0f} s: `python "
        + " ".join(command()) + f"` (niceness {os.nice(0)}, one BLAS thread) at git commit "
        f"{git_commit()}; Python {platform.python_version()}, numpy {np.__version__}, "
        f"scikit-learn {sklearn.__version__}, highspy {version('highspy')}; load average "
        f"at start {tuple(round(v, 2) for v in load0)}, at end "
        f"{tuple(round(v, 2) for v in load1)} (2 shared cores: the CPU seconds are the "
        "steadier figure).  Fits stored in `" + args.store + "` (a resumed run reuses "
        f"them).  Beta prior of the calibrated scores: PRIOR_STRENGTH = {PRIOR_STRENGTH:g}."
        + (f"  {args.note}" if args.note else ""),
        "",
        f"{args.folds} stratified folds (`StratifiedKFold({args.folds}, shuffle=True, "
        "random_state=0)`); accuracy, Brier score and CPU seconds per fit are means over "
        "the folds; the prior's Brier score predicts the training share of the positive "
        "class for every test row.  `dro_old`: the defaults before this file, passed "
        "explicitly (`member_complexity=(10, 15, 30), n_iter_no_change=2, "
        "member_ip_max_nodes=None`, `max_degree` 3 while N L^3/6 <= 1e9), its Brier "
        "score that of its probabilities then, the vote F; `dro_new`: "
        "`DRORuleEnsembleClassifier(binarizer='auto', random_state=0)`; `rule_set`: "
        "`BooleanRuleSetClassifier(binarizer='auto', random_state=0)`.",
        "",
    ] + tables(recs, args.folds)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.output:
        Path(args.output).write_text(text)


if __name__ == "__main__":
    main()
