"""Fit times against ``time_limit``: does the limit bound the whole call?

One fit each of ``BooleanRuleSetClassifier`` and ``DRORuleEnsembleClassifier``
(``binarizer="auto", random_state=0, time_limit=T``) on magic_gamma (19,020 rows, two
classes) and scikit-learn's digits (1,797 rows, ten classes: one-vs-rest, one budget shared
by the classes), for T = 2, 10 and 30 s.  Wall seconds by ``time.perf_counter`` around
``fit`` (the limit is wall-clock), CPU seconds by ``time.process_time``, and the model's
``status_``.  A limit is a wall-clock bound, so the table depends on the machine and its
load; the run prints both with its date.

    python benchmarks/time_limits.py [--out benchmarks/results/time_limits.md]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from suite import stack  # (the same stack line as the suite's report)

LIMITS = (2, 10, 30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="benchmarks/results/time_limits.md")
    args = parser.parse_args()
    from sklearn.datasets import load_digits

    from optirules.data import load_dataset
    from optirules.learners import BooleanRuleSetClassifier, DRORuleEnsembleClassifier

    digits = load_digits(as_frame=True)
    data = {"magic_gamma": load_dataset("magic_gamma"),
            "digits": (digits.data, digits.target.to_numpy())}
    started, load0 = datetime.now(timezone.utc), os.getloadavg()
    rows = []
    for name, (X, y) in data.items():
        for cls in (BooleanRuleSetClassifier, DRORuleEnsembleClassifier):
            for limit in LIMITS:
                t, c = time.perf_counter(), time.process_time()
                model = cls(binarizer="auto", random_state=0, time_limit=limit).fit(X, y)
                wall, cpu = time.perf_counter() - t, time.process_time() - c
                status = str(model.status_).replace("|", "/")
                rows.append(f"| {name} | {cls.__name__} | {limit} | {wall:.2f} | "
                            f"{wall / limit:.2f} | {cpu:.2f} | {status[:110]} |")
                print(rows[-1], flush=True)
    load1 = os.getloadavg()
    lines = ["# Fit times against time_limit", "",
             f"Run {started:%Y-%m-%d %H:%M} UTC, `python benchmarks/time_limits.py`; {stack()}; "
             f"load average (1, 5, 15 min) at the start {tuple(round(v, 2) for v in load0)}, "
             f"at the end {tuple(round(v, 2) for v in load1)}.", "",
             "| data | learner | time_limit s | wall s | wall / limit | CPU s | status_ |",
             "|---|---|---|---|---|---|---|", *rows, ""]
    Path(args.out).write_text("\n".join(lines))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
