"""A synthetic data set with a known answer: a planted 3-term DNF over 30 binary features."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InputError

__all__ = ["PLANTED_DNF", "make_planted_dnf"]

#: The planted rule set as (feature, value) tests:
#: ``(x0 & x1 & ~x2) | (x3 & ~x4 & x5) | (~x6 & x7 & x8)``.
PLANTED_DNF = (((0, 1), (1, 1), (2, 0)), ((3, 1), (4, 0), (5, 1)), ((6, 0), (7, 1), (8, 1)))


def make_planted_dnf(n_samples: int, *, noise: float = 0.02,
                     random_state: Any = 0) -> tuple[np.ndarray, np.ndarray]:
    """Rows of 30 uniform random bits labelled by the planted DNF, a fraction flipped.

    ``y = (x0 & x1 & ~x2) | (x3 & ~x4 & x5) | (~x6 & x7 & x8)`` (:data:`PLANTED_DNF`), then
    each label flipped with probability ``noise``.  The rule set of least Hamming loss is the
    planted one (for small noise and enough rows), so a learner's answer can be checked; the
    scale benchmark and the degree-3 tests use it from 2,000 to 1,000,000 rows.

    Parameters
    ----------
    n_samples : int
        Number of rows (>= 1).
    noise : float, default 0.02
        Probability of flipping a label, in [0, 0.5).
    random_state : int, numpy Generator or None, default 0
        Seed of :func:`numpy.random.default_rng`.

    Returns
    -------
    X : ndarray of shape (n_samples, 30), dtype uint8
    y : ndarray of shape (n_samples,), dtype int (0/1)
    """
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) \
            or n_samples < 1:
        raise InputError(f"n_samples must be an integer >= 1, got {n_samples!r}.")
    if not 0.0 <= float(noise) < 0.5:
        raise InputError(f"noise must be in [0, 0.5), got {noise!r}.")
    rng = np.random.default_rng(random_state)
    X = rng.integers(0, 2, size=(int(n_samples), 30), dtype=np.uint8)
    b = X.astype(bool)
    y = np.zeros(int(n_samples), dtype=bool)
    for term in PLANTED_DNF:
        hit = np.ones(int(n_samples), dtype=bool)
        for feature, value in term:
            hit &= b[:, feature] if value else ~b[:, feature]
        y |= hit
    return X, (y ^ (rng.random(int(n_samples)) < noise)).astype(int)
