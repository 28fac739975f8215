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
