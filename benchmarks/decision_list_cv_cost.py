"""The CPU cost of ``DecisionListCV()`` against the default ``DecisionListClassifier()``.

Issue 38 (goal 3) asks ``DecisionListCV`` to cost at most 20 times the default list's CPU
on every data set.  For each data set of the suite (``benchmarks/suite.py``) up to
``--max-rows`` rows, this script fits, on the same rows (one 80 % training fold of the
suite's ``StratifiedKFold(5, shuffle=True, random_state=0)``, or the whole set with
``--whole``):

* ``DecisionListClassifier()`` three times, keeping the median CPU (after one warm-up fit on
  a few rows, so that no fit pays for the imports), and
* ``DecisionListCV()`` once,

each timed with :func:`time.process_time` in this one process (no parallel jobs), and
prints their ratio, the pair the CV chose, and the machine's load average
(:func:`os.getloadavg`) before and after each set.

Run::

    python benchmarks/decision_list_cv_cost.py --max-rows 5000 \\
        --out benchmarks/results/decision_list_cv_cost.md
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from suite import dataset_names, dataset_rows, load  # noqa: E402

TARGET = 20.0


def _cpu(fn) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def _load() -> str:
    return ", ".join(f"{v:.2f}" for v in os.getloadavg())


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, check=True, cwd=os.path.dirname(__file__))
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "optirules"],
                               capture_output=True, text=True, check=True,
                               cwd=os.path.dirname(__file__)).stdout.strip()
        return out.stdout.strip() + (" (optirules/ modified)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def suite_ratios(path: str) -> dict[str, float]:
    """Per data set, the suite's ``decision_list_cv`` fit CPU over its ``decision_list`` fit
    CPU (the means over the suite's folds; the per-point refits before the shared search),
    from a table of ``benchmarks/suite.py`` (e.g. ``benchmarks/results/suite.md``)."""
    out: dict[str, float] = {}
    name, cpu = None, {}
    with open(path) as fh:
        for line in fh:
            if line.startswith("## "):
                if name and {"decision_list", "decision_list_cv"} <= cpu.keys():
                    out[name] = cpu["decision_list_cv"] / cpu["decision_list"]
                name = line[3:].split(" (")[0].strip() if "rows)" in line else None
                cpu = {}
            elif line.startswith("| decision_list") and name:
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                try:
                    cpu[cells[0]] = float(cells[-2])
                except ValueError:
                    pass
    if name and {"decision_list", "decision_list_cv"} <= cpu.keys():
        out[name] = cpu["decision_list_cv"] / cpu["decision_list"]
    return out


def measure(name: str, whole: bool) -> dict:
    """The CPU seconds of the default list and of the CV on one data set's rows."""
    from sklearn.model_selection import StratifiedKFold

    from optirules.learners import DecisionListClassifier, DecisionListCV

    X, y = load(name)
    if not whole:
        train, _ = next(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
        X, y = X.iloc[train].reset_index(drop=True), y[train]
    load_start = _load()
    few = np.concatenate([np.flatnonzero(y == c)[:20] for c in np.unique(y)])
    DecisionListClassifier().fit(X.iloc[few], y[few])  # the warm-up: imports, caches
    default = sorted(_cpu(lambda: DecisionListClassifier().fit(X, y)) for _ in range(3))[1]
    holder = {}
    cv_cpu = _cpu(lambda: holder.setdefault("cv", DecisionListCV().fit(X, y)))
    cv = holder["cv"]
    return {"name": name, "rows": X.shape[0], "features": X.shape[1], "default": default,
            "cv": cv_cpu, "ratio": cv_cpu / default,
            "chosen": f"({cv.best_params_['max_degree']}, {cv.best_params_['min_coverage']})",
            "rules": len(cv.rules_), "load": f"{load_start} / {_load()}"}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-rows", type=int, default=5000,
                        help="data sets of at most this many rows (whole set)")
    parser.add_argument("--sets", nargs="*", default=None, help="only these data sets")
    parser.add_argument("--whole", action="store_true",
                        help="fit on the whole set instead of one 80 %% fold")
    parser.add_argument("--out", default=None, help="also write the Markdown table here")
    parser.add_argument("--before", default=None,
                        help="a suite table (benchmarks/results/suite.md) whose "
                        "decision_list_cv / decision_list fit CPU is shown beside")
    args = parser.parse_args(argv)
    before = suite_ratios(args.before) if args.before else {}
    names = [n for n in (args.sets or dataset_names()) if dataset_rows(n) <= args.max_rows]
    started = datetime.datetime.now(datetime.timezone.utc)
    load_start = _load()
    import numpy
    import sklearn

    rows = []
    for name in names:
        rec = measure(name, args.whole)
        rows.append(rec)
        print(f"{name:26s} {rec['rows']:6d} rows {rec['features']:4d} features  default "
              f"{rec['default']:7.3f} s  CV {rec['cv']:8.2f} s  ratio {rec['ratio']:6.1f}  "
              f"chosen {rec['chosen']}  load {rec['load']}", flush=True)
    load_end = _load()
    part = "the whole set" if args.whole else "one 80 % training fold"
    lines = [
        "# DecisionListCV's CPU against the default DecisionListClassifier's",
        "",
        f"Run {started:%Y-%m-%d %H:%M} UTC, `python benchmarks/decision_list_cv_cost.py "
        + " ".join(argv if argv is not None else sys.argv[1:]) + f"`; git commit {_commit()}; "
        f"Python {platform.python_version()}, numpy {numpy.__version__}, scikit-learn "
        f"{sklearn.__version__}; {platform.machine()}, {os.cpu_count()} cores; load average "
        f"(1, 5, 15 min) at the start ({load_start}), at the end ({load_end}).",
        "",
        f"Rows: {part} (`StratifiedKFold(5, shuffle=True, random_state=0)`, the suite's "
        f"first fold) of each suite data set of at most {args.max_rows} rows.  CPU = "
        "`time.process_time()` of `fit` in one process, no parallel jobs: the default list "
        "`DecisionListClassifier()` fitted three times (median; after a warm-up fit), "
        "`DecisionListCV()` (5 folds, max_degree in (1, 2, 3) x min_coverage in (2, 5, 10, "
        "20, 40, 80), the refit included) once.  Target (issue 38, goal 3): CV at most "
        f"{TARGET:g} x the default.  Load: the 1, 5 and 15-minute load averages before / "
        "after the set."
        + (f"  Before: the same ratio in `{args.before}` (its `decision_list_cv` over its "
           "`decision_list` fit CPU, means over its 5 folds, its own run and load), the grid "
           "fitted one pair at a time." if args.before else ""),
        "",
        "| data set | rows | features | default CPU s | CV CPU s | CV / default | "
        + ("before | " if before else "")
        + f"<= {TARGET:g} x | chosen (max_degree, min_coverage) | rules | load before / "
        "after |",
        "|---|---|---|---|---|---|" + ("---|" if before else "") + "---|---|---|---|",
    ]
    for r in rows:
        was = before.get(r["name"])
        lines.append(f"| {r['name']} | {r['rows']} | {r['features']} | {r['default']:.3f} | "
                     f"{r['cv']:.2f} | {r['ratio']:.1f} | "
                     + (("-" if was is None else f"{was:.0f}") + " | " if before else "")
                     + f"{'yes' if r['ratio'] <= TARGET else '**no**'} | {r['chosen']} | "
                     f"{r['rules']} | {r['load']} |")
    ratios = np.array([r["ratio"] for r in rows])
    if rows:
        lines += ["", f"{int(np.sum(ratios <= TARGET))} of {len(rows)} sets within "
                  f"{TARGET:g} x; median ratio {np.median(ratios):.1f}, largest "
                  f"{ratios.max():.1f} ({rows[int(np.argmax(ratios))]['name']})."]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)


if __name__ == "__main__":
    main()
