"""Full reproduction of seed 003 Tables 1-2 (smooth boosters on random decision lists).

Run from the repository root (single core, low priority, the machine is shared)::

    OPENBLAS_NUM_THREADS=1 nice -n 10 python benchmarks/reproduce_smooth.py

Writes ``benchmarks/results/smooth_tables.md`` (seed tables beside ours) and
``benchmarks/results/smooth_results.csv``.  ``--quick`` runs the test-suite size.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

from threadpoolctl import threadpool_limits

from optirules.experiments._smooth import format_table, run

RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--n-jobs", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1, help="BLAS threads (default 1)")
    ap.add_argument("--epsilon", type=float, default=0.1, help="Gavinsky's epsilon")
    ap.add_argument("--repetitions", type=int, default=None)
    ap.add_argument("--extra-epsilons", type=float, nargs="*", default=[0.05, 0.2],
                    help="also run Gavinsky's booster with these epsilon (sensitivity)")
    ap.add_argument("--tag", default="", help="suffix of the result file names")
    args = ap.parse_args()
    t0 = time.perf_counter()
    with threadpool_limits(args.threads):
        df = run(quick=args.quick, n_jobs=args.n_jobs, epsilon=args.epsilon,
                 repetitions=args.repetitions, extra_epsilons=tuple(args.extra_epsilons))
    seconds = time.perf_counter() - t0
    table = format_table(df)
    print(table)
    if args.quick:
        return
    RESULTS.mkdir(exist_ok=True)
    tag = f"_{args.tag}" if args.tag else ""
    df.to_csv(RESULTS / f"smooth_results{tag}.csv", index=False)
    note = (f"\n\nGavinsky's epsilon = {args.epsilon}. Wall time {seconds / 60:.1f} min on "
            f"{platform.processor() or platform.machine()} with {args.threads} BLAS thread(s),"
            f" n_jobs={args.n_jobs} (shared machine).\n")
    (RESULTS / f"smooth_tables{tag}.md").write_text(
        "# Seed 003 (Long & Servedio 2006), Tables 1-2: ours (seed)\n\n"
        "Produced by `benchmarks/reproduce_smooth.py`.\n\n" + table + note)


if __name__ == "__main__":
    main()
