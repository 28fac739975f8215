"""Reproduction of Long and Servedio (Long & Servedio), §7, Tables 1 and 2.

Long & Servedio, "Attribute-efficient learning of decision lists and linear threshold
functions under unconcentrated distributions" (NIPS 2006).  Setup, as §7 describes it:

* target: a random decision list over 10 relevant variables, "if l_1 then b_1 else if
  l_2 then b_2 ... else if l_10 then b_10 else b_11", each literal ``l_i`` one of
  ``(x_{v_i} = 1)``, ``(x_{v_i} = -1)`` and each ``b_i`` one of ``+-1``, all independently
  uniform;
* examples: uniform on ``{-1, 1}^n`` (stored as 0/1), ``n in {100, 1000}``,
  ``m in {100, 200, 500, 1000}``; ``floor(2m/3)`` for training, the rest for testing;
* learners: AdaBoost, MadaBoost, Gavinsky's booster and SmoothBoost with
  ``gamma in {0.05, 0.1, 0.2, 0.4}`` (``theta = gamma / (2 + gamma)``), each with the
  best-single-literal weak learner over ``{x_j, -x_j, +1, -1}``, 100 rounds;
* ``ceil(30000 / m)`` repetitions (a fresh target and sample each time), so the test
  sets total at least 10,000 examples; Table 1 is the average test error, Table 2 the
  "average smoothness".

Choices the paper leaves open (see :func:`run`):

* the smoothness statistic: the paper does not define it.  Each repetition records the
  ratio ``max_i D_t(i) / D_1(i)`` of every round (``D_1`` uniform over the training rows,
  ``D_t`` normalized) and three statistics of it — the max over rounds (``smoothness``,
  the smallest ``kappa`` for which every ``D_t`` is ``kappa``-smooth, the paper's §2
  notion), the final round (``smoothness_final``) and the mean over rounds
  (``smoothness_mean``); :func:`distances` says which is closest to the paper's Table 2;
* Gavinsky's accuracy parameter ``epsilon`` is not stated in the paper: default 0.1,
  and ``extra_epsilons`` runs a grid whose distance to the paper's Gavinsky column
  :func:`gavinsky_epsilon_distances` reports;
* the relevant variables are 10 distinct variables drawn at random (the paper's
  ``x_1..x_10`` up to a relabelling, which keeps the weak learner's lowest-index
  tie-breaking from favouring them);
* a training sample with a single class (possible when the list's outputs agree) is
  predicted by that class by every booster, with smoothness 1.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import pandas as pd

from .._workers import parallel
from ..errors import InputError

__all__ = ["run", "format_table", "SEED_TABLE1", "SEED_TABLE2", "ALGORITHMS",
           "SMOOTHNESS_STATISTICS", "distances", "gavinsky_epsilon_distances",
           "sampling_spread", "random_decision_list", "evaluate_decision_list"]

#: column order of the paper's tables
ALGORITHMS = ("Ada", "Mada", "Gavinsky", "SB(0.05)", "SB(0.1)", "SB(0.2)", "SB(0.4)")

_CONFIGS = [(n, m) for n in (100, 1000) for m in (100, 200, 500, 1000)]

#: Long and Servedio Table 1: average test-set error rate, rows (n, m)
SEED_TABLE1: dict[tuple[int, int], tuple[float, ...]] = {
    (100, 100): (0.086, 0.077, 0.088, 0.071, 0.067, 0.077, 0.089),
    (100, 200): (0.052, 0.045, 0.050, 0.067, 0.047, 0.047, 0.051),
    (100, 500): (0.022, 0.018, 0.024, 0.056, 0.031, 0.025, 0.031),
    (100, 1000): (0.016, 0.014, 0.024, 0.063, 0.036, 0.028, 0.033),
    (1000, 100): (0.123, 0.119, 0.116, 0.093, 0.101, 0.117, 0.128),
    (1000, 200): (0.079, 0.072, 0.083, 0.071, 0.064, 0.072, 0.081),
    (1000, 500): (0.045, 0.039, 0.045, 0.050, 0.040, 0.040, 0.044),
    (1000, 1000): (0.033, 0.026, 0.035, 0.048, 0.038, 0.032, 0.036),
}

#: Long and Servedio Table 2: average smoothness, rows (n, m)
SEED_TABLE2: dict[tuple[int, int], tuple[float, ...]] = {
    (100, 100): (13.6, 8.8, 11.7, 3.9, 6.0, 7.5, 9.1),
    (100, 200): (19.8, 13.1, 12.5, 4.1, 6.9, 9.4, 9.9),
    (100, 500): (32.2, 20.7, 15.2, 5.0, 9.1, 11.5, 12.2),
    (100, 1000): (37.2, 19.2, 15.3, 7.1, 10.7, 12.1, 13.0),
    (1000, 100): (13.3, 7.7, 26.8, 3.7, 5.3, 6.1, 7.4),
    (1000, 200): (19.8, 11.5, 19.4, 4.4, 7.4, 9.5, 11.7),
    (1000, 500): (28.1, 16.7, 16.2, 4.9, 8.6, 10.9, 11.5),
    (1000, 1000): (36.7, 20.1, 14.7, 7.2, 11.0, 12.1, 13.3),
}


def random_decision_list(n: int, rng: np.random.Generator, k: int = 10) -> dict[str, Any]:
    """A random decision list over ``k`` distinct relevant variables of ``n`` (Long and Servedio §7).

    Returns a dict with ``variables`` (``k`` ints), ``values`` (``k`` 0/1: the literal
    ``l_i`` is ``x_{variables[i]} == values[i]``, i.e. ``x = 1`` or ``x = -1`` in the
    paper's +-1 coding) and ``outputs`` (``k + 1`` values in ``{-1, +1}``).
    """
    if k > n:
        raise InputError(f"A decision list over {k} variables needs n >= {k}, got n={n}.")
    return {"variables": rng.choice(n, size=k, replace=False),
            "values": rng.integers(0, 2, size=k),
            "outputs": rng.choice(np.array([-1, 1]), size=k + 1)}


def evaluate_decision_list(dl: dict[str, Any], X: np.ndarray) -> np.ndarray:
    """``f(x)``: the output of the first literal that holds, else the default output."""
    out = np.full(X.shape[0], dl["outputs"][-1], dtype=np.int64)
    for i in range(len(dl["variables"]) - 1, -1, -1):
        hit = X[:, dl["variables"][i]] == dl["values"][i]
        out = np.where(hit, dl["outputs"][i], out)
    return out


def _boosters(n_estimators: int, epsilon: float,
              extra_epsilons: tuple[float, ...] = ()) -> dict[str, dict[str, Any]]:
    specs: dict[str, dict[str, Any]] = {
        "Ada": {"booster": "adaboost"},
        "Mada": {"booster": "madaboost"},
        "Gavinsky": {"booster": "gavinsky", "epsilon": epsilon},
    }
    for g in (0.05, 0.1, 0.2, 0.4):
        specs[f"SB({g:g})"] = {"booster": "smoothboost", "gamma": g}
    for e in extra_epsilons:
        specs[f"Gavinsky(eps={e:g})"] = {"booster": "gavinsky", "epsilon": e}
    for s in specs.values():
        s.update(weak_learner="literal", n_estimators=n_estimators)
    return specs


def _one_repetition(n: int, m: int, seed: int, n_estimators: int, epsilon: float,
                    extra_epsilons: tuple[float, ...] = (),
                    algorithms: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    from ..learners import BoostingClassifier

    rng = np.random.default_rng(seed)
    dl = random_decision_list(n, rng)
    X = rng.integers(0, 2, size=(m, n), dtype=np.uint8)
    y = evaluate_decision_list(dl, X)
    n_train = (2 * m) // 3
    Xtr, ytr, Xte, yte = X[:n_train], y[:n_train], X[n_train:], y[n_train:]
    rows = []
    for name, params in _boosters(n_estimators, epsilon, extra_epsilons).items():
        if algorithms is not None and name not in algorithms:
            continue
        if np.unique(ytr).size < 2:
            err, rounds = float(np.mean(yte != ytr[0])), 0
            smooth = final = mean = 1.0
        else:
            clf = BoostingClassifier(**params).fit(Xtr, ytr)
            err = float(np.mean(clf.predict(Xte) != yte))
            smooth, rounds = clf.smoothness_, clf.n_estimators_
            final, mean = clf.smoothness_final_, clf.smoothness_mean_
        rows.append({"n": n, "m": m, "seed": seed, "algorithm": name, "test_error": err,
                     "smoothness": smooth, "smoothness_final": final,
                     "smoothness_mean": mean, "rounds": rounds, "n_test": m - n_train})
    return rows


def run(quick: bool = False, n_jobs: int = 1, random_state: int = 0, *,
        n_estimators: int = 100, repetitions: int | None = None, epsilon: float = 0.1,
        configs: list[tuple[int, int]] | None = None,
        extra_epsilons: tuple[float, ...] = (),
        algorithms: tuple[str, ...] | None = None) -> pd.DataFrame:
    """Run Long and Servedio's §7 experiment and return one row per (n, m, algorithm).

    Parameters
    ----------
    quick : bool, default=False
        A few-second version: ``n = 100``, ``m in {100, 200}``, 6 repetitions each.
    n_jobs : int, default=1
        Repetitions run in parallel with joblib when > 1.
    random_state : int, default=0
        Repetition ``r`` of configuration ``(n, m)`` uses the seed
        ``(random_state, n, m, r)``, so results do not depend on ``n_jobs``.
    n_estimators : int, default=100
    repetitions : int, optional
        Override ``ceil(30000 / m)``.
    epsilon : float, default=0.1
        Gavinsky's accuracy parameter.
    configs : list of (n, m), optional
        Override the eight configurations.
    extra_epsilons : tuple of float
        Also run Gavinsky's booster with these ``epsilon`` (a sensitivity check; the
        paper does not state its value); columns ``Gavinsky(eps=...)``.
    algorithms : tuple of str, optional
        Run only these of :data:`ALGORITHMS` (and ``Gavinsky(eps=...)`` names).

    Returns
    -------
    pandas.DataFrame
        Columns ``n, m, algorithm, reps, test_error, test_error_se, smoothness,
        smoothness_se, smoothness_final, smoothness_final_se, smoothness_mean,
        smoothness_mean_se, mean_rounds, seed_test_error, seed_smoothness, seconds``:
        averages over the repetitions of the test error and of the three smoothness
        statistics (``smoothness`` = max over rounds of ``max_i D_t(i)/D_1(i)``,
        ``smoothness_final`` = its value in the last round, ``smoothness_mean`` = its mean
        over rounds), with standard errors; ``df.attrs["raw"]`` holds one row per
        repetition and algorithm.
    """
    if not (isinstance(epsilon, (int, float)) and epsilon > 0) or any(
            not (isinstance(e, (int, float)) and e > 0) for e in extra_epsilons):
        raise InputError(f"epsilon and extra_epsilons must be positive numbers, got "
                          f"{epsilon!r} and {extra_epsilons!r}.")
    if configs is None:
        configs = [(100, 100), (100, 200)] if quick else list(_CONFIGS)
    tasks = []
    for n, m in configs:
        reps = repetitions if repetitions is not None else (6 if quick
                                                            else math.ceil(30000 / m))
        for r in range(reps):
            seed = int(np.random.SeedSequence([random_state, n, m, r]).generate_state(1)[0])
            tasks.append((n, m, seed))
    t0 = time.perf_counter()
    if n_jobs == 1:
        chunks = [_one_repetition(n, m, s, n_estimators, epsilon, tuple(extra_epsilons),
                                  algorithms)
                  for n, m, s in tasks]
    else:
        from joblib import delayed

        chunks = parallel(n_jobs=n_jobs)(
            delayed(_one_repetition)(n, m, s, n_estimators, epsilon, tuple(extra_epsilons),
                                     algorithms)
            for n, m, s in tasks)
    seconds = time.perf_counter() - t0
    raw = pd.DataFrame([row for chunk in chunks for row in chunk])
    out = []
    for (n, m, alg), g in raw.groupby(["n", "m", "algorithm"], sort=False):
        k = len(g)
        seed1 = SEED_TABLE1.get((n, m))
        seed2 = SEED_TABLE2.get((n, m))
        idx = ALGORITHMS.index(alg if alg in ALGORITHMS else "Gavinsky")
        out.append({
            "n": n, "m": m, "algorithm": alg, "reps": k,
            "test_error": g.test_error.mean(), "test_error_se": _se(g.test_error),
            "smoothness": g.smoothness.mean(), "smoothness_se": _se(g.smoothness),
            "smoothness_final": g.smoothness_final.mean(),
            "smoothness_final_se": _se(g.smoothness_final),
            "smoothness_mean": g.smoothness_mean.mean(),
            "smoothness_mean_se": _se(g.smoothness_mean),
            "mean_rounds": g.rounds.mean(),
            "seed_test_error": seed1[idx] if seed1 else float("nan"),
            "seed_smoothness": seed2[idx] if seed2 else float("nan"),
        })
    df = pd.DataFrame(out)
    df.attrs["raw"] = raw
    df.attrs["epsilon"] = epsilon
    df.attrs["random_state"] = random_state
    df.attrs["seconds"] = seconds
    df.attrs["quick"] = quick
    df["seconds"] = seconds
    return df


#: the three readings of Long and Servedio's "average smoothness" (column -> description)
SMOOTHNESS_STATISTICS: dict[str, str] = {
    "smoothness": "max over rounds",
    "smoothness_final": "final round",
    "smoothness_mean": "mean over rounds",
}


def _se(v: pd.Series) -> float:
    return float(v.std(ddof=1) / math.sqrt(len(v))) if len(v) > 1 else float("nan")


def _pivot(df: pd.DataFrame, value: str) -> pd.DataFrame:
    tab = df.pivot_table(index=["m", "n"], columns="algorithm", values=value, sort=False)
    cols = [a for a in ALGORITHMS if a in tab.columns]
    tab = tab[cols]
    order = sorted(tab.index, key=lambda mn: (mn[1], mn[0]))
    return tab.loc[order]


def distances(df: pd.DataFrame) -> pd.DataFrame:
    """Distance of our averages to the paper's, per algorithm, over the (n, m) rows it has.

    Columns: ``algorithm``, ``rows`` (how many (n, m) rows have a seed figure),
    ``test_error`` (mean of ``|ours - seed|``), ``test_error_rel`` (mean of
    ``|ours - seed| / seed``) and, for each column of :data:`SMOOTHNESS_STATISTICS`, the
    mean of ``|ours - seed| / seed`` against the paper's Table 2; ``best_smoothness``
    names the statistic with the smallest of these.
    """
    rows = []
    for alg, g in df.groupby("algorithm", sort=False):
        g = g[np.isfinite(g.seed_smoothness) & np.isfinite(g.seed_test_error)]
        if g.empty:
            continue
        rec: dict[str, Any] = {
            "algorithm": alg, "rows": len(g),
            "test_error": float(np.mean(np.abs(g.test_error - g.seed_test_error))),
            "test_error_rel": float(np.mean(np.abs(g.test_error - g.seed_test_error)
                                            / g.seed_test_error))}
        for col in SMOOTHNESS_STATISTICS:
            rec[col] = float(np.mean(np.abs(g[col] - g.seed_smoothness) / g.seed_smoothness))
        rec["best_smoothness"] = min(SMOOTHNESS_STATISTICS, key=lambda c: rec[c])
        rows.append(rec)
    return pd.DataFrame(rows)


def gavinsky_epsilon_distances(df: pd.DataFrame) -> pd.DataFrame:
    """:func:`distances` of every Gavinsky run (default and extra epsilon) to the paper's
    Gavinsky column, one row per epsilon, sorted by epsilon.

    ``combined`` is the mean of ``test_error_rel`` and the max-over-rounds smoothness
    distance ``smoothness``; the row with the smallest ``combined`` matches best.
    """
    d = distances(df)
    d = d[d.algorithm.str.startswith("Gavinsky")].copy()
    default = float(df.attrs.get("epsilon", 0.1))
    d["epsilon"] = [default if a == "Gavinsky" else float(a.split("=")[1].rstrip(")"))
                    for a in d.algorithm]
    d["default"] = d.algorithm == "Gavinsky"
    d["combined"] = (d.test_error_rel + d.smoothness) / 2.0
    return d.sort_values("epsilon").reset_index(drop=True)


def sampling_spread(n: int = 100, m: int = 1000, algorithm: str = "Ada",
                    random_states: tuple[int, ...] = tuple(range(1, 11)), *,
                    n_estimators: int = 100, repetitions: int | None = None) -> pd.DataFrame:
    """Re-run one cell of Table 2 with other ``random_state`` values (same protocol).

    Each row is one ``random_state``: the averages over ``ceil(30000 / m)`` fresh
    repetitions of the test error and the three smoothness statistics.  The spread of
    these rows is the sampling spread of the paper's protocol in that cell.
    """
    out = []
    for rs in random_states:
        df = run(random_state=int(rs), n_estimators=n_estimators, repetitions=repetitions,
                 configs=[(n, m)], algorithms=(algorithm,))
        r = df.iloc[0]
        out.append({"random_state": int(rs), "reps": int(r.reps), "test_error": r.test_error,
                    **{c: r[c] for c in SMOOTHNESS_STATISTICS}})
    return pd.DataFrame(out)


def _table(df: pd.DataFrame, value: str, seed_value: str, fmt: str, title: str,
           with_se: bool = False) -> list[str]:
    ours, seed = _pivot(df, value), _pivot(df, seed_value)
    se = _pivot(df, value + "_se") if with_se else None
    lines = [f"### {title}", "", "| m | n | " + " | ".join(ours.columns) + " |",
             "|---|---|" + "---|" * len(ours.columns)]
    for (m, n), row in ours.iterrows():
        cells = []
        for alg in ours.columns:
            s = seed.loc[(m, n), alg]
            s_txt = fmt.format(s) if np.isfinite(s) else "-"
            se_txt = (" ± " + fmt.format(se.loc[(m, n), alg])
                      if se is not None and np.isfinite(se.loc[(m, n), alg]) else "")
            cells.append(f"{fmt.format(row[alg])}{se_txt} ({s_txt})")
        lines.append(f"| {m} | {n} | " + " | ".join(cells) + " |")
    lines.append("")
    return lines


def format_table(df: pd.DataFrame, spread: pd.DataFrame | None = None) -> str:
    """Long and Servedio Tables 1 and 2 beside ours, as markdown (cells ``ours (seed)``).

    Table 2 is given for the three smoothness statistics, followed by the distance of
    each to the paper's table, the Gavinsky epsilon grid (when ``df`` has extra epsilon
    runs) and, when given, the :func:`sampling_spread` of one cell.
    """
    lines = _table(df, "test_error", "seed_test_error", "{:.3f}",
                   "Table 1: average test-set error rate — ours ± se (Long and Servedio)", True)
    for col, desc in SMOOTHNESS_STATISTICS.items():
        formula = {"smoothness": "max_t max_i D_t(i)/D_1(i)",
                   "smoothness_final": "max_i D_T(i)/D_1(i), T = last round",
                   "smoothness_mean": "mean_t max_i D_t(i)/D_1(i)"}[col]
        lines += _table(df, col, "seed_smoothness", "{:.1f}",
                        f"Table 2 ({desc}): average smoothness {formula} — ours ± se "
                        "(Long and Servedio)", True)
    dist = distances(df)
    dist = dist[dist.algorithm.isin(ALGORITHMS)]
    if not dist.empty:
        lines += ["### Which smoothness statistic is the paper's? Mean over the (n, m) rows "
                  "of |ours - seed| / seed", "",
                  "| algorithm | max over rounds | final round | mean over rounds | closest |",
                  "|---|---|---|---|---|"]
        for _, r in dist.iterrows():
            lines.append(f"| {r.algorithm} | {r.smoothness:.2f} | {r.smoothness_final:.2f} | "
                         f"{r.smoothness_mean:.2f} | "
                         f"{SMOOTHNESS_STATISTICS[r.best_smoothness]} |")
        lines.append("")
    extra = [a for a in dict.fromkeys(df.algorithm) if a not in ALGORITHMS]
    if extra:
        g = gavinsky_epsilon_distances(df)
        lines += ["### Gavinsky's epsilon (not stated in the paper): distance to the paper's "
                  "Gavinsky column", "",
                  "Mean over the (n, m) rows of |ours - seed| for the error and of "
                  "|ours - seed| / seed; combined = mean of the relative error and the "
                  "relative max-over-rounds smoothness distances.", "",
                  "| epsilon | error abs | error rel | smoothness max rel | "
                  "smoothness final rel | smoothness mean rel | combined |",
                  "|---|---|---|---|---|---|---|"]
        best = g.combined.idxmin()
        for i, r in g.iterrows():
            tag = (" (default)" if r.default else "") + (" **best**" if i == best else "")
            lines.append(f"| {r.epsilon:g}{tag} | {r.test_error:.4f} | {r.test_error_rel:.2f}"
                         f" | {r.smoothness:.2f} | {r.smoothness_final:.2f} | "
                         f"{r.smoothness_mean:.2f} | {r.combined:.2f} |")
        lines.append("")
        lines.append(f"Best match: epsilon = {g.epsilon[best]:g} (combined distance "
                     f"{g.combined[best]:.2f}; the default epsilon = "
                     f"{g.epsilon[g.default.idxmax()]:g} has "
                     f"{g.combined[g.default.idxmax()]:.2f}).")
        lines.append("")
        lines += ["#### Gavinsky per epsilon — error / smoothness (max over rounds), "
                  "ours; seed's Gavinsky column in the first cell", ""]
        cols = ["Gavinsky", *extra]
        names = [f"eps={g.epsilon[g.algorithm == c].iloc[0]:g}"
                 + (" (default)" if c == "Gavinsky" else "") for c in cols]
        lines.append("| m | n | " + " | ".join(names) + " |")
        lines.append("|---|---|" + "---|" * len(cols))
        err, smo = _pivot_all(df, "test_error"), _pivot_all(df, "smoothness")
        s1, s2 = _pivot(df, "seed_test_error"), _pivot(df, "seed_smoothness")
        for (m, n) in err.index:
            cells = [f"{err.loc[(m, n), c]:.3f} / {smo.loc[(m, n), c]:.1f}" for c in cols]
            cells[0] += f" ({s1.loc[(m, n), 'Gavinsky']:.3f} / {s2.loc[(m, n), 'Gavinsky']:.1f})"
            lines.append(f"| {m} | {n} | " + " | ".join(cells) + " |")
        lines.append("")
    if spread is not None and not spread.empty:
        lines += ["### Sampling spread of the protocol: the same cell re-run with other "
                  "random_state values", "",
                  "| random_state | reps | test error | smoothness max | final | mean |",
                  "|---|---|---|---|---|---|"]
        for _, r in spread.iterrows():
            lines.append(f"| {int(r.random_state)} | {int(r.reps)} | {r.test_error:.3f} | "
                         f"{r.smoothness:.1f} | {r.smoothness_final:.1f} | "
                         f"{r.smoothness_mean:.1f} |")
        lines.append(f"| min – max | | {spread.test_error.min():.3f} – "
                     f"{spread.test_error.max():.3f} | {spread.smoothness.min():.1f} – "
                     f"{spread.smoothness.max():.1f} | {spread.smoothness_final.min():.1f} – "
                     f"{spread.smoothness_final.max():.1f} | "
                     f"{spread.smoothness_mean.min():.1f} – {spread.smoothness_mean.max():.1f} |")
        lines.append("")
    reps = df.groupby(["n", "m"])["reps"].first()
    lines.append("Repetitions per (n, m): " + ", ".join(
        f"n={n} m={m}: {r}" for (n, m), r in reps.items()))
    return "\n".join(lines)


def _pivot_all(df: pd.DataFrame, value: str) -> pd.DataFrame:
    tab = df.pivot_table(index=["m", "n"], columns="algorithm", values=value, sort=False)
    order = sorted(tab.index, key=lambda mn: (mn[1], mn[0]))
    return tab.loc[order]
