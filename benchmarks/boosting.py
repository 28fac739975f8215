"""Speed of optirules' boosting against scikit-learn, and of the exhaustive 3-parity search.

Run from the repository root::

    python benchmarks/boosting.py            # full size (about a minute)
    python benchmarks/boosting.py --quick    # small sizes, a few seconds

Part 1 fits AdaBoost with decision stumps twice on the same binarized data (census =
UCI adult, 131 binary features as in Reyzin's paper Table 1): scikit-learn's
``AdaBoostClassifier(estimator=DecisionTreeClassifier(max_depth=1))`` (SAMME, the only
algorithm scikit-learn 1.9 has; for two classes it is AdaBoost with votes ``2 alpha_t``)
and ``BoostingClassifier(weak_learner=StumpLearner(criterion="gini"))`` (the same split
rule as scikit-learn's tree).  It asserts that the training-error trajectories are equal
round by round and reports the speed-up (goal: at least 5x).

Part 2 times one round of the exhaustive parity search of degree at most 3
(``optirules.weak.best_parity``: degrees 0-2, then all C(403, 3) triples) with n = 403
binary features and m = 1,000 rows (goal: at most 0.5 s on 2 cores),
with 1 and 2 BLAS threads, its peak memory (tracemalloc: numpy allocations) and its
speed-up over a straightforward loop that computes each triple's edge
``sum_i u_i S_ij S_ik S_il`` with one numpy dot product; the loop is timed on the first
``--loop-triples`` triples and extrapolated to all of them (linear in the number of
triples).  The machine is shared: the load average is printed with the results.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import platform
import resource
import time
import tracemalloc
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

RESULTS = Path(__file__).resolve().parent / "results"


def _census(n_rows: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    from optirules.experiments import parity

    X, y, _ = parity.load_binarized("census")
    rows = np.random.default_rng(seed).permutation(X.shape[0])[:n_rows]
    return np.asarray(X[rows], dtype=np.float64), np.asarray(y[rows])


def bench_adaboost(n_rows: int, n_rounds: int, repeats: int) -> dict:
    from sklearn.ensemble import AdaBoostClassifier
    from sklearn.tree import DecisionTreeClassifier

    from optirules.learners import BoostingClassifier
    from optirules.weak import StumpLearner

    X, y = _census(n_rows)
    t_sk, t_ours, t_err = [], [], []
    with threadpool_limits(1):   # scikit-learn's trees are single-threaded too
        for _ in range(repeats):
            t0 = time.perf_counter()
            sk = AdaBoostClassifier(estimator=DecisionTreeClassifier(max_depth=1),
                                    n_estimators=n_rounds, random_state=0).fit(X, y)
            t_sk.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            ours = BoostingClassifier(weak_learner=StumpLearner(criterion="gini"),
                                      n_estimators=n_rounds).fit(X, y)
            t_ours.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            erm = BoostingClassifier(weak_learner="stump", n_estimators=n_rounds).fit(X, y)
            t_err.append(time.perf_counter() - t0)
    traj_sk = [float(np.mean(p != y)) for p in sk.staged_predict(X)]
    traj_ours = [float(np.mean(p != y)) for p in ours.staged_predict(X)]
    traj_erm = [float(np.mean(p != y)) for p in erm.staged_predict(X)]
    same = [a == b for a, b in zip(traj_sk, traj_ours)]
    return {
        "n_rows": n_rows, "n_features": X.shape[1], "n_rounds": n_rounds,
        "rounds_sklearn": len(traj_sk), "rounds_ours": len(traj_ours),
        "rounds_equal": int(sum(same)), "all_equal": all(same) and len(traj_sk) == len(traj_ours),
        "first_difference": next((i + 1 for i, s in enumerate(same) if not s), None),
        "final_error_sklearn": traj_sk[-1], "final_error_ours": traj_ours[-1],
        "final_error_erm": traj_erm[-1],
        "max_abs_alpha_diff": float(np.max(np.abs(2 * ours.alphas_ -
                                                  sk.estimator_weights_[:len(ours.alphas_)]))),
        "t_sklearn": min(t_sk), "t_ours": min(t_ours), "t_ours_error_stump": min(t_err),
        "trajectory_sklearn": traj_sk, "trajectory_ours": traj_ours,
    }


def _parity_problem(n: int, m: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = (rng.random((m, n)) < 0.3).astype(np.uint8)
    y = rng.choice(np.array([-1, 1]), size=m)
    w = rng.random(m)
    return X, y, w / w.sum()


def bench_parity(n: int, m: int, repeats: int, loop_triples: int) -> dict:
    from optirules.weak import ParityLearner, PreparedData, best_parity

    X, y, w = _parity_problem(n, m)
    u = w * y
    S = 1.0 - 2.0 * X.astype(np.float64)
    data = PreparedData(X, "the benchmark")   # the per-matrix work every round reuses

    def search():
        return best_parity(data, u, 3, search="exhaustive")

    search()   # the transposed matrices, made once per matrix as in boosting
    n_triples = math.comb(n, 3)
    out: dict = {"n": n, "m": m, "n_triples": n_triples}
    for threads in (1, 2):
        with threadpool_limits(threads):
            times, cpu = [], []
            for _ in range(repeats):
                t0, c0 = time.perf_counter(), time.process_time()
                J, edge = search()
                times.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
        out[f"t_{threads}_threads"] = min(times)
        out[f"t_{threads}_threads_median"] = float(np.median(times))
        out[f"cpu_{threads}_threads"] = min(cpu)
    out["best_triple"] = J
    # the winner's edge as the single-precision products see it, and exact
    St = S.T.astype(np.float32)
    out["best_edge_float32"] = abs(float(np.dot(u.astype(np.float32),
                                                np.prod(St[list(J)], axis=0))))
    out["best_edge_exact"] = abs(edge)
    # whole weak-learner call (its own data preparation included)
    with threadpool_limits(2):
        t0 = time.perf_counter()
        h = ParityLearner(max_degree=3).fit(X, y, w)
        out["t_learner_call_2_threads"] = time.perf_counter() - t0
    out["learner_hypothesis"] = str(h)
    # memory: numpy allocations seen by tracemalloc during one search
    tracemalloc.start()
    with threadpool_limits(2):
        search()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    out["peak_traced_mb"] = peak / 2**20
    out["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    # straightforward loop on a prefix of the triples, extrapolated
    Sc = np.ascontiguousarray(S.T)
    t0 = time.perf_counter()
    best_loop, count = -1.0, 0
    for j, k, q in itertools.islice(itertools.combinations(range(n), 3), loop_triples):
        e = abs(float(np.dot(u, Sc[j] * Sc[k] * Sc[q])))
        if e > best_loop:
            best_loop = e
        count += 1
    t_loop = time.perf_counter() - t0
    out["loop_triples_timed"] = count
    out["t_loop_timed"] = t_loop
    out["t_loop_extrapolated"] = t_loop / count * n_triples
    out["speedup_vs_loop_2_threads"] = out["t_loop_extrapolated"] / out["t_2_threads"]
    out["speedup_vs_loop_1_thread"] = out["t_loop_extrapolated"] / out["t_1_threads"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--rows", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--loop-triples", type=int, default=30000)
    args = ap.parse_args()
    if args.quick:
        args.rows, args.rounds, args.repeats, args.loop_triples = 2000, 40, 1, 3000
    load = os.getloadavg()
    ada = bench_adaboost(args.rows, args.rounds, args.repeats)
    par = bench_parity(120 if args.quick else 403, 300 if args.quick else 1000,
                       args.repeats, args.loop_triples)
    load_after = os.getloadavg()

    lines = [
        "## AdaBoost with stumps: optirules vs scikit-learn (same binarized data)",
        "",
        f"census (adult), {ada['n_rows']} rows x {ada['n_features']} binary features, "
        f"{ada['n_rounds']} rounds; best of {args.repeats} fits; 1 BLAS thread.",
        "",
        "| implementation | fit time (s) | speed-up | final training error |",
        "|---|---|---|---|",
        f"| scikit-learn AdaBoostClassifier(DecisionTreeClassifier(max_depth=1)) | "
        f"{ada['t_sklearn']:.3f} | 1.0x | {ada['final_error_sklearn']:.4f} |",
        f"| optirules BoostingClassifier, StumpLearner(criterion='gini') | "
        f"{ada['t_ours']:.3f} | {ada['t_sklearn'] / ada['t_ours']:.1f}x | "
        f"{ada['final_error_ours']:.4f} |",
        f"| optirules BoostingClassifier, StumpLearner() (min. weighted error) | "
        f"{ada['t_ours_error_stump']:.3f} | {ada['t_sklearn'] / ada['t_ours_error_stump']:.1f}x"
        f" | {ada['final_error_erm']:.4f} |",
        "",
        f"Training-error trajectory equal in {ada['rounds_equal']} of {ada['rounds_sklearn']} "
        f"rounds (all equal: {ada['all_equal']}); max |2 alpha_t - SAMME weight_t| = "
        f"{ada['max_abs_alpha_diff']:.2e}.",
        "",
        "## One round of exhaustive 3-parity search",
        "",
        f"n = {par['n']} features, m = {par['m']} rows, C(n, 3) = {par['n_triples']:,} "
        "triples (single-precision BLAS, chunks of 1,024 pair rows); the search is "
        "best_parity(max_degree=3, search='exhaustive') on data prepared once, degrees 0-2 "
        "included.",
        "",
        "| method | wall time (s) | speed-up vs loop |",
        "|---|---|---|",
        f"| straightforward loop (one numpy dot per triple; {par['loop_triples_timed']:,} "
        f"triples timed in {par['t_loop_timed']:.2f} s, extrapolated) | "
        f"{par['t_loop_extrapolated']:.1f} | 1x |",
        f"| chunked matrix products, 1 BLAS thread | {par['t_1_threads']:.3f} "
        f"(median {par['t_1_threads_median']:.3f}) | {par['speedup_vs_loop_1_thread']:.0f}x |",
        f"| chunked matrix products, 2 BLAS threads | {par['t_2_threads']:.3f} "
        f"(median {par['t_2_threads_median']:.3f}) | {par['speedup_vs_loop_2_threads']:.0f}x |",
        f"| whole ParityLearner(max_degree=3).fit call, 2 threads | "
        f"{par['t_learner_call_2_threads']:.3f} | |",
        "",
        f"CPU time of the search (process time, all threads): {par['cpu_1_threads']:.3f} s "
        f"with 1 thread, {par['cpu_2_threads']:.3f} s with 2 threads; about "
        f"{2 * par['m'] * par['n_triples'] / par['cpu_1_threads'] / 1e9:.0f} GFLOP/s of useful "
        "work per core-second (2 m C(n,3) flops).  On a loaded machine the wall time is the "
        "CPU time divided by the share of the cores this process gets.",
        "",
        f"Peak numpy memory during the search (tracemalloc): {par['peak_traced_mb']:.1f} MB; "
        f"process max RSS: {par['max_rss_mb']:.0f} MB (goal: under 2 GB).",
        f"Best triple {par['best_triple']}: |edge| {par['best_edge_float32']:.6f} (float32), "
        f"{par['best_edge_exact']:.6f} (exact).",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, shared; load average "
        f"{load[0]:.2f} before, {load_after[0]:.2f} after.",
    ]
    text = "\n".join(lines)
    print(text)
    assert ada["all_equal"], f"trajectories differ from round {ada['first_difference']}"
    assert par["peak_traced_mb"] < 2048
    if not args.quick:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "boosting_benchmark.md").write_text(
            "# Boosting benchmark\n\nProduced by `benchmarks/boosting.py`.\n\n" + text + "\n")


if __name__ == "__main__":
    main()
