"""Data generators shared by several test files: ``from tests.helpers import ...``.

Plain functions rather than fixtures: each test calls them with its own seed and sizes.  The
same arguments give the same arrays on every run (one ``numpy`` generator per call, seeded).
"""

from __future__ import annotations

import numpy as np


def and_or_data(n: int = 60, d: int = 4, seed: int = 0, noise: float = 0.0):
    """Binary features ``X`` (``n`` x ``d``, 0/1 integers) and labels ``(x0 & x1) | x2``,
    each label flipped with probability ``noise`` (no draw when ``noise`` is 0)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, d))
    y = (X[:, 0] & X[:, 1]) | X[:, 2]
    if noise:
        y = np.where(rng.random(n) < noise, 1 - y, y)
    return X, y


def literal_instance(seed: int, n_rows: int = 20, n_features: int = 4, uniform: bool = False):
    """A pricing / master instance: the literal matrix ``A = [X, 1 - X]`` of random 0/1
    features, random labels ``y`` (``y[0] = 1``, ``y[1] = 0``: both classes), a pmf ``P`` on
    the rows (Dirichlet, or uniform with ``uniform=True``, which draws nothing) and the
    generator, for further draws."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n_rows, n_features))
    A = np.hstack([X, 1 - X])  # literals: x_j and not x_j
    y = rng.integers(0, 2, size=n_rows)
    y[0], y[1] = 1, 0
    P = np.full(n_rows, 1.0 / n_rows) if uniform else rng.dirichlet(np.ones(n_rows))
    return A, y, P, rng


def cg_data(seed: int = 0, n: int = 120, f: int = 6, noise: float = 0.1, uniform: bool = True):
    """A column-generation instance: the literal matrix ``[X, ~X]`` of random boolean
    features, labels ``(x0 & x1) | (x2 & ~x3)`` each flipped with probability ``noise``, and
    row weights (uniform, or Dirichlet with ``uniform=False``)."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, f)) < 0.5
    y = (X[:, 0] & X[:, 1]) | (X[:, 2] & ~X[:, 3])
    y ^= rng.random(n) < noise
    P = np.full(n, 1.0 / n) if uniform else rng.dirichlet(np.ones(n))
    return np.hstack([X, ~X]), y, P


def prices(rng: np.random.Generator, n: int) -> np.ndarray:
    """Row prices for a pricer: normal, about a fifth of them zero, scaled by ``1 / n``."""
    return rng.normal(0, 1, n) * (rng.random(n) < 0.8) / n


def pattern_scores_by_hand(unmet_train, positive, unmet_rows):
    """The rule set's pattern probabilities recomputed without the package: patterns as
    tuples, counts by a dict, each strength by a grid over log10 m in [-2, 6] (4,001
    points, then a finer grid around the best), the beta-binomial likelihood by
    ``math.lgamma``.  Returns the scores of ``unmet_rows`` (P of the rules' class)."""
    import math

    def key(u):
        hit = any(v == 0 for v in u)
        return (1, *[int(v == 0) for v in u]) if hit else (0, *[int(v) for v in u])

    def betaln(a, b):
        return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)

    def strength(groups):  # [(k, n, mean)]
        groups = [g for g in groups if g[1] > 0]
        if len(groups) < 2:
            return 1e6

        def ll(m):
            return sum(betaln(k + m * p, n - k + m * (1 - p)) - betaln(m * p, m * (1 - p))
                       for k, n, p in groups)

        grid = np.linspace(-2, 6, 4001)
        best = max(grid, key=lambda g: ll(10 ** g))
        fine = np.linspace(best - 0.004, best + 0.004, 801)
        return 10 ** max(fine, key=lambda g: ll(10 ** g))

    keys = [key(u) for u in unmet_train]
    pos = np.asarray(positive, dtype=bool)
    prior = pos.mean()
    side = {}
    for s in (1, 0):
        rows = [i for i, k in enumerate(keys) if k[0] == s]
        side[s] = (pos[rows].sum(), len(rows))
    m1 = strength([(k, n, prior) for k, n in side.values()])
    side_score = {s: (k + m1 * prior) / (n + m1) for s, (k, n) in side.items()}
    counts = {}
    for k, p in zip(keys, pos):
        c = counts.setdefault(k, [0, 0])
        c[0] += p
        c[1] += 1
    m2 = strength([(k, n, side_score[key[0]]) for key, (k, n) in counts.items()])
    table = {key: (k + m2 * side_score[key[0]]) / (n + m2) for key, (k, n) in counts.items()}
    return np.array([table.get(key(u), side_score[key(u)[0]]) for u in unmet_rows])
