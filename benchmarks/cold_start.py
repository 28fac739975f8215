"""Cold start: the process CPU time of the first and the second default fit in a fresh process.

Each run starts a new Python process that loads a bundled data set, then fits
``BooleanRuleSetClassifier()`` twice and reports ``time.process_time()`` around each fit
(imports made during the first fit count towards it) and which of Pyomo and cvxpy were
imported.  The table gives every run, the median over runs, the machine's load average
(``os.getloadavg``) before and after, and the date and versions of the stack.

    python benchmarks/cold_start.py                # 5 runs on heart_cleveland
    python benchmarks/cold_start.py --runs 9 --data banknote --markdown
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from importlib.metadata import version

CHILD = """
import json, sys, time
from optirules.data import load_dataset
from optirules.learners import BooleanRuleSetClassifier

X, y = load_dataset({data!r})
times = []
for _ in range(2):
    t0 = time.process_time()
    BooleanRuleSetClassifier().fit(X, y)
    times.append(time.process_time() - t0)
print(json.dumps({{"first": times[0], "second": times[1],
                  "imported": [m for m in ("pyomo", "cvxpy") if m in sys.modules]}}))
"""


def run_once(data: str) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD.format(data=data)], capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def stack() -> str:
    names = ("optirules", "numpy", "highspy", "pyomo", "cvxpy")
    return ", ".join(f"{n} {version(n)}" for n in names) + f", Python {platform.python_version()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes (default 5)")
    parser.add_argument("--data", default="heart_cleveland", help="bundled data set")
    parser.add_argument("--markdown", action="store_true", help="print a markdown report")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    runs = [run_once(args.data) for _ in range(args.runs)]
    load_after = os.getloadavg()
    first = statistics.median(r["first"] for r in runs)
    second = statistics.median(r["second"] for r in runs)
    rows = ["| run | first fit (CPU s) | second fit (CPU s) | first - second | imported |",
            "| --- | --- | --- | --- | --- |"]
    for i, r in enumerate(runs, 1):
        rows.append(f"| {i} | {r['first']:.3f} | {r['second']:.3f} | "
                    f"{r['first'] - r['second']:.3f} | {', '.join(r['imported']) or 'none'} |")
    rows.append(f"| median | {first:.3f} | {second:.3f} | {first - second:.3f} | |")
    load = (f"load average (1, 5, 15 min) before {', '.join(f'{v:.2f}' for v in load_before)}, "
            f"after {', '.join(f'{v:.2f}' for v in load_after)}; {os.cpu_count()} cores")
    head = (f"{time.strftime('%Y-%m-%d %H:%M')}: BooleanRuleSetClassifier() on {args.data}, "
            f"{args.runs} fresh processes")
    if args.markdown:
        print(f"# Cold start\n\n{head}.\n\n{stack()}.\n\n{load}.\n\n"
              f"Command: `python benchmarks/cold_start.py "
              f"{' '.join(argv if argv is not None else sys.argv[1:])}`\n")
    else:
        print(head)
        print(stack())
        print(load)
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
