"""Reproduction of seed 003 (Long & Servedio), §7, Tables 1 and 2.

Setup, as §7 describes it:

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
  average smoothness ``max_t max_i D_t(i) / D_1(i)``.

Choices the paper leaves open (see :func:`run`): the relevant variables are 10 distinct
variables drawn at random (the paper's ``x_1..x_10`` up to a relabelling, which keeps
the weak learner's lowest-index tie-breaking from favouring them); Gavinsky's accuracy
parameter is ``epsilon = 0.1`` (not stated in the paper); a training sample with a single
class (possible when the list's outputs agree) is predicted by that class by every
booster, with smoothness 1.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError

__all__ = ["run", "format_table", "SEED_TABLE1", "SEED_TABLE2", "ALGORITHMS",
           "random_decision_list", "evaluate_decision_list"]

#: column order of the seed's tables
ALGORITHMS = ("Ada", "Mada", "Gavinsky", "SB(0.05)", "SB(0.1)", "SB(0.2)", "SB(0.4)")

_CONFIGS = [(n, m) for n in (100, 1000) for m in (100, 200, 500, 1000)]

#: seed 003 Table 1: average test-set error rate, rows (n, m)
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

#: seed 003 Table 2: average smoothness, rows (n, m)
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
    """A random decision list over ``k`` distinct relevant variables of ``n`` (seed 003 §7).

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


def _boosters(n_rounds: int, epsilon: float,
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
        s.update(weak_learner="literal", n_rounds=n_rounds)
    return specs


def _one_repetition(n: int, m: int, seed: int, n_rounds: int, epsilon: float,
                    extra_epsilons: tuple[float, ...] = ()) -> list[dict[str, Any]]:
    from ..learners._boosting import BoostingClassifier

    rng = np.random.default_rng(seed)
    dl = random_decision_list(n, rng)
    X = rng.integers(0, 2, size=(m, n), dtype=np.uint8)
    y = evaluate_decision_list(dl, X)
    n_train = (2 * m) // 3
    Xtr, ytr, Xte, yte = X[:n_train], y[:n_train], X[n_train:], y[n_train:]
    rows = []
    for name, params in _boosters(n_rounds, epsilon, extra_epsilons).items():
        if np.unique(ytr).size < 2:
            err, smooth, rounds = float(np.mean(yte != ytr[0])), 1.0, 0
        else:
            clf = BoostingClassifier(**params).fit(Xtr, ytr)
            err = float(np.mean(clf.predict(Xte) != yte))
            smooth, rounds = clf.smoothness_, clf.n_rounds_
        rows.append({"n": n, "m": m, "seed": seed, "algorithm": name, "test_error": err,
                     "smoothness": smooth, "rounds": rounds, "n_test": m - n_train})
    return rows


def run(quick: bool = False, n_jobs: int = 1, random_state: int = 0, *,
        n_rounds: int = 100, repetitions: int | None = None, epsilon: float = 0.1,
        configs: list[tuple[int, int]] | None = None,
        extra_epsilons: tuple[float, ...] = ()) -> pd.DataFrame:
    """Run seed 003's §7 experiment and return one row per (n, m, algorithm).

    Parameters
    ----------
    quick : bool, default=False
        A few-second version: ``n = 100``, ``m in {100, 200}``, 6 repetitions each.
    n_jobs : int, default=1
        Repetitions run in parallel with joblib when > 1.
    random_state : int, default=0
        Repetition ``r`` of configuration ``(n, m)`` uses the seed
        ``(random_state, n, m, r)``, so results do not depend on ``n_jobs``.
    n_rounds : int, default=100
    repetitions : int, optional
        Override ``ceil(30000 / m)``.
    epsilon : float, default=0.1
        Gavinsky's accuracy parameter.
    configs : list of (n, m), optional
        Override the eight configurations.
    extra_epsilons : tuple of float
        Also run Gavinsky's booster with these ``epsilon`` (a sensitivity check; the
        paper does not state its value); columns ``Gavinsky(eps=...)``.

    Returns
    -------
    pandas.DataFrame
        Columns ``n, m, algorithm, reps, test_error, test_error_se, smoothness,
        smoothness_se, mean_rounds, seed_test_error, seed_smoothness, seconds``.
    """
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
        chunks = [_one_repetition(n, m, s, n_rounds, epsilon, tuple(extra_epsilons))
                  for n, m, s in tasks]
    else:
        from joblib import Parallel, delayed

        chunks = Parallel(n_jobs=n_jobs)(
            delayed(_one_repetition)(n, m, s, n_rounds, epsilon, tuple(extra_epsilons))
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
            "test_error": g.test_error.mean(),
            "test_error_se": g.test_error.std(ddof=1) / math.sqrt(k) if k > 1 else float("nan"),
            "smoothness": g.smoothness.mean(),
            "smoothness_se": g.smoothness.std(ddof=1) / math.sqrt(k) if k > 1 else float("nan"),
            "mean_rounds": g.rounds.mean(),
            "seed_test_error": seed1[idx] if seed1 else float("nan"),
            "seed_smoothness": seed2[idx] if seed2 else float("nan"),
        })
    df = pd.DataFrame(out)
    df.attrs["seconds"] = seconds
    df.attrs["quick"] = quick
    df["seconds"] = seconds
    return df


def _pivot(df: pd.DataFrame, value: str) -> pd.DataFrame:
    tab = df.pivot_table(index=["m", "n"], columns="algorithm", values=value, sort=False)
    cols = [a for a in ALGORITHMS if a in tab.columns]
    tab = tab[cols]
    order = sorted(tab.index, key=lambda mn: (mn[1], mn[0]))
    return tab.loc[order]


def _pivot_all(df: pd.DataFrame, value: str) -> pd.DataFrame:
    tab = df.pivot_table(index=["m", "n"], columns="algorithm", values=value, sort=False)
    order = sorted(tab.index, key=lambda mn: (mn[1], mn[0]))
    return tab.loc[order]


def format_table(df: pd.DataFrame) -> str:
    """Seed 003 Tables 1 and 2 beside ours, as markdown.

    Each cell reads ``ours (seed)``.
    """
    lines = []
    for title, value, seed_value, fmt in (
            ("Table 1: average test-set error rate", "test_error", "seed_test_error", "{:.3f}"),
            ("Table 2: average smoothness max_t max_i D_t(i)/D_1(i)", "smoothness",
             "seed_smoothness", "{:.1f}")):
        ours = _pivot(df, value)
        seed = _pivot(df, seed_value)
        lines.append(f"### {title} — ours (seed 003)")
        lines.append("")
        lines.append("| m | n | " + " | ".join(ours.columns) + " |")
        lines.append("|---|---|" + "---|" * len(ours.columns))
        for (m, n), row in ours.iterrows():
            cells = []
            for alg in ours.columns:
                s = seed.loc[(m, n), alg]
                s_txt = fmt.format(s) if np.isfinite(s) else "-"
                cells.append(f"{fmt.format(row[alg])} ({s_txt})")
            lines.append(f"| {m} | {n} | " + " | ".join(cells) + " |")
        lines.append("")
    extra = [a for a in dict.fromkeys(df.algorithm) if a not in ALGORITHMS]
    if extra:
        lines.append("### Gavinsky's booster for other epsilon — error / smoothness, "
                     "ours (seed's Gavinsky column)")
        lines.append("")
        cols = ["Gavinsky", *extra]
        lines.append("| m | n | " + " | ".join(c if c != "Gavinsky" else "Gavinsky (default)"
                                                for c in cols) + " |")
        lines.append("|---|---|" + "---|" * len(cols))
        err, smo = _pivot_all(df, "test_error"), _pivot_all(df, "smoothness")
        s1, s2 = _pivot(df, "seed_test_error"), _pivot(df, "seed_smoothness")
        for (m, n) in err.index:
            cells = [f"{err.loc[(m, n), c]:.3f} / {smo.loc[(m, n), c]:.1f}" for c in cols]
            cells[0] += f" ({s1.loc[(m, n), 'Gavinsky']:.3f} / {s2.loc[(m, n), 'Gavinsky']:.1f})"
            lines.append(f"| {m} | {n} | " + " | ".join(cells) + " |")
        lines.append("")
    reps = df.groupby(["n", "m"])["reps"].first()
    lines.append("Repetitions per (n, m): " + ", ".join(
        f"n={n} m={m}: {r}" for (n, m), r in reps.items()))
    return "\n".join(lines)
