"""Full reproduction of Long and Servedio Tables 1-2 (smooth boosters on random decision lists).

Long & Servedio, "Attribute-efficient learning of decision lists and linear threshold
functions under unconcentrated distributions" (NIPS 2006), §7.  Run from the repository
root (single core, low priority, the machine is shared)::

    OPENBLAS_NUM_THREADS=1 nice -n 10 python benchmarks/reproduce_smooth.py

Writes ``benchmarks/results/smooth_tables.md`` (the paper's tables beside ours: Table 1,
Table 2 for the three smoothness statistics, which statistic is closest to the paper's,
the grid of Gavinsky's epsilon with its distance to the paper's Gavinsky column, and the
sampling spread of AdaBoost's n = 100, m = 1000 cell under other random_state values)
and ``benchmarks/results/smooth_results.csv``.  ``--quick`` runs the test-suite size and
writes nothing.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import time
from pathlib import Path

import numpy as np
import pandas as pd
import sklearn
from threadpoolctl import threadpool_limits

from optirules.experiments import smooth

RESULTS = Path(__file__).resolve().parent / "results"


def _cause_text(df: pd.DataFrame, spread: pd.DataFrame, n: int, m: int) -> str:
    r = df[(df.n == n) & (df.m == m) & (df.algorithm == "Ada")].iloc[0]
    seed = smooth.SEED_TABLE2[(n, m)][0]
    inside = spread.smoothness.min() <= seed <= spread.smoothness.max()
    return (
        f"AdaBoost at n = {n}, m = {m}: our max-over-rounds smoothness is "
        f"{r.smoothness:.1f} ± {r.smoothness_se:.1f} (se over {int(r.reps)} repetitions), "
        f"the paper's {seed}.  Re-running that cell with {len(spread)} other random_state "
        f"values (same protocol, {int(spread.reps.iloc[0])} repetitions each) gives means "
        f"from {spread.smoothness.min():.1f} to {spread.smoothness.max():.1f} (pooled "
        f"{spread.smoothness.mean():.1f}); the paper's figure is "
        f"{'inside' if inside else 'outside'} that range.  The per-repetition value is "
        "heavy-tailed (a round in which the chosen literal errs on a handful of the "
        "training rows gives those rows half the mass, i.e. a ratio up to "
        f"{(2 * m) // 3}/2), so {int(r.reps)} repetitions leave a wide spread.  The code "
        "follows the definitions: D_1 uniform over the floor(2m/3) training rows, D_t "
        "normalized, the ratio taken over the training rows for the distributions given "
        f"to the weak learner in rounds 1..T (mean rounds run here: {r.mean_rounds:.0f} "
        "of 100), ties between literals to the lowest index.")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--n-jobs", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1, help="BLAS threads (default 1)")
    ap.add_argument("--epsilon", type=float, default=0.1, help="Gavinsky's epsilon")
    ap.add_argument("--repetitions", type=int, default=None)
    ap.add_argument("--extra-epsilons", type=float, nargs="*",
                    default=[0.02, 0.05, 0.15, 0.2, 0.3],
                    help="also run Gavinsky's booster with these epsilon (the grid)")
    ap.add_argument("--spread-states", type=int, default=10,
                    help="random_state values 1..K for the sampling spread (0: skip)")
    ap.add_argument("--tag", default="", help="suffix of the result file names")
    args = ap.parse_args()
    t0 = time.perf_counter()
    with threadpool_limits(args.threads):
        df = smooth.run(quick=args.quick, n_jobs=args.n_jobs, epsilon=args.epsilon,
                        repetitions=args.repetitions, extra_epsilons=tuple(args.extra_epsilons))
        spread = None
        if args.spread_states > 0:
            n, m = (100, 200) if args.quick else (100, 1000)
            spread = smooth.sampling_spread(n, m, "Ada",
                                            tuple(range(1, args.spread_states + 1)),
                                            repetitions=6 if args.quick else args.repetitions)
    seconds = time.perf_counter() - t0
    table = smooth.format_table(df, spread)
    print(table)
    if args.quick:
        return
    RESULTS.mkdir(exist_ok=True)
    tag = f"_{args.tag}" if args.tag else ""
    df.to_csv(RESULTS / f"smooth_results{tag}.csv", index=False)
    if spread is not None:
        spread.to_csv(RESULTS / f"smooth_spread{tag}.csv", index=False)
    g = smooth.gavinsky_epsilon_distances(df)
    best = g.loc[g.combined.idxmin()]
    notes = ["## Notes", "",
             "- The paper does not define its smoothness statistic (Table 2: \"average "
             "smoothness\").  Table 2 is given for the max over rounds (our "
             "`smoothness_`, the one that matches the paper's §2 definition of a "
             "kappa-smooth booster), the final round and the mean over rounds of "
             "max_i D_t(i)/D_1(i); the distance table says which is closest per algorithm.",
             f"- Gavinsky's epsilon is not stated in the paper.  Default {args.epsilon:g}; "
             f"over the grid {sorted({args.epsilon, *args.extra_epsilons})} the closest to "
             f"the paper's Gavinsky column is epsilon = {best.epsilon:g} (combined distance "
             f"{best.combined:.2f}).",
             ]
    if spread is not None:
        notes.append("- " + _cause_text(df, spread, 100, 1000))
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    note = ("\n\n" + "\n".join(notes) + "\n\n"
            f"Run {stamp}: Gavinsky's epsilon = {args.epsilon}, wall time "
            f"{seconds / 60:.1f} min on {platform.processor() or platform.machine()} with "
            f"{args.threads} BLAS thread(s), n_jobs={args.n_jobs} (shared 2-core machine); "
            f"Python {platform.python_version()}, numpy {np.__version__}, pandas "
            f"{pd.__version__}, scikit-learn {sklearn.__version__}.\n")
    (RESULTS / f"smooth_tables{tag}.md").write_text(
        "# Long and Servedio (Long & Servedio 2006), Tables 1-2: ours (seed)\n\n"
        "Produced by `benchmarks/reproduce_smooth.py`.\n\n" + table + note)


if __name__ == "__main__":
    main()
