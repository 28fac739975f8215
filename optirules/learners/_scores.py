r"""Probabilities from the training rows behind a decision, smoothed by a Beta prior.

A rule (or a vote level of an ensemble) that covers ``n`` training rows of which ``k`` are
positive is scored by the mean of the Beta posterior whose prior has mean ``prior`` (the
training share of the positive class) and strength ``m`` pseudo-rows (the m-estimate of
Cestnik, 1990):

.. math:: s = \frac{k + m \cdot \mathrm{prior}}{n + m}.

With row weights the counts are the effective ones, ``n = N \sum_{i \in \text{rule}} P_i``
for a pmf ``P`` over ``N`` rows, so uniform weights give the plain counts.  A score is 0 or 1
only when the prior is.  :func:`consistent_with_prediction` then moves each score to the
side of the learner's own prediction, so that ``argmax`` of ``predict_proba`` is
``predict``.

Example
-------
>>> import numpy as np
>>> float(smoothed_share(np.array([5.0]), np.array([5.0]), prior=0.4, strength=2.0)[0])
0.8285714285714286
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["PRIOR_STRENGTH", "VOTE_CUT", "smoothed_share", "consistent_with_prediction",
           "smoothed_distribution", "estimated_strength", "ordered_side", "unmet_counts",
           "pattern_codes", "pattern_table", "pattern_probability"]

#: a weighted vote F in [0, 1] predicts the positive class where F >= VOTE_CUT: 1/2 less a
#: round-off allowance (sums of weights such as 0.35 + 0.15)
VOTE_CUT = 0.5 - 1e-12

#: Pseudo-rows of the Beta prior (``m`` of the m-estimate); chosen on the bundled suite
#: (``benchmarks/suite.py``, see ``benchmarks/results/suite.md``).
PRIOR_STRENGTH = 10.0

_ABOVE_HALF = float(np.nextafter(0.5, 1.0))


def smoothed_share(positive: np.ndarray, total: np.ndarray, prior: float,
                   strength: float = PRIOR_STRENGTH) -> np.ndarray:
    r"""Posterior mean share of positives, :math:`(k + m\,\mathrm{prior}) / (n + m)`.

    Parameters
    ----------
    positive, total : array-like
        Effective counts ``k <= n`` of positive and of all training rows behind each score.
    prior : float
        Prior mean in [0, 1] (the training share of the positive class).
    strength : float, default PRIOR_STRENGTH
        Pseudo-rows ``m > 0`` of the prior.

    Returns
    -------
    ndarray
        Scores in [0, 1]; ``prior`` where ``total`` is 0.
    """
    k = np.asarray(positive, dtype=float)
    n = np.asarray(total, dtype=float)
    return (k + strength * float(prior)) / (n + strength)


def smoothed_distribution(counts: np.ndarray, prior: np.ndarray,
                          strength: float = PRIOR_STRENGTH) -> np.ndarray:
    r"""The m-estimate of every class at once, :math:`(n_c + m\,\mathrm{prior}_c) / (n + m)`,
    moved so that each row's largest entry is the class of largest count (the learner's
    prediction, ties to the first class): where another class would come first, the
    predicted one is raised just above it and the row renormalized.

    Parameters
    ----------
    counts : array of shape (n_rows, n_classes)
        Effective training counts behind each decision.
    prior : array of shape (n_classes,)
        The training class shares.
    strength : float, default PRIOR_STRENGTH
        Pseudo-rows ``m > 0`` of the prior.

    Returns
    -------
    ndarray of shape (n_rows, n_classes)
        Rows summing to 1.
    """
    c = np.asarray(counts, dtype=float)
    p = (c + strength * np.asarray(prior, dtype=float)) / (c.sum(axis=1, keepdims=True)
                                                          + strength)
    pred = np.argmax(c, axis=1)
    off = np.flatnonzero(np.argmax(p, axis=1) != pred)
    if off.size:
        top = p[off].max(axis=1)
        p[off, pred[off]] = np.nextafter(top, np.inf) + 1e-12
        p[off] /= p[off].sum(axis=1, keepdims=True)
    return p


def consistent_with_prediction(score: np.ndarray, positive: np.ndarray) -> np.ndarray:
    """``score`` moved to the side of the prediction: above 1/2 where ``positive``, at most
    1/2 elsewhere, so that ``argmax([1 - s, s])`` is the prediction (ties go to class 0)."""
    s = np.asarray(score, dtype=float)
    pos = np.asarray(positive, dtype=bool)
    return np.where(pos, np.maximum(s, _ABOVE_HALF), np.minimum(s, 0.5))


#: the strengths :func:`estimated_strength` searches, in pseudo-rows
STRENGTH_RANGE = (1e-2, 1e6)


def estimated_strength(positive: np.ndarray, total: np.ndarray, mean: np.ndarray) -> float:
    r"""The strength :math:`m` of a Beta prior that the groups' counts support best: the
    maximum of the beta-binomial likelihood

    .. math:: \sum_g \log B(k_g + m\,\pi_g,\ n_g - k_g + m (1 - \pi_g))
              - \log B(m\,\pi_g,\ m (1 - \pi_g))

    over :math:`m` in ``STRENGTH_RANGE`` (empirical Bayes), for groups of ``k_g`` positives
    of ``n_g`` rows (effective counts) and prior means :math:`\pi_g`.  Groups whose shares
    differ no more than sampling does give a large :math:`m` (their scores shrink to the
    prior: weak evidence); clearly different shares give a small one.  Fewer than two groups
    give the largest :math:`m`.

    Parameters
    ----------
    positive, total : array-like of shape (n_groups,)
        Effective counts of positive and of all rows per group.
    mean : array-like of shape (n_groups,)
        Each group's prior mean, in (0, 1).

    Returns
    -------
    float
        The strength in pseudo-rows.

    Examples
    --------
    >>> estimated_strength([50, 50], [100, 100], [0.5, 0.5]) > 1e5
    True
    >>> estimated_strength([90, 10], [100, 100], [0.5, 0.5]) < 5
    True
    """
    from scipy.optimize import minimize_scalar
    from scipy.special import betaln

    k, n, mu = (np.asarray(a, dtype=float).reshape(-1) for a in (positive, total, mean))
    keep = n > 0
    k, n, mu = k[keep], n[keep], np.clip(mu[keep], 1e-9, 1.0 - 1e-9)
    lo, hi = np.log(STRENGTH_RANGE[0]), np.log(STRENGTH_RANGE[1])
    if k.size < 2:
        return STRENGTH_RANGE[1]

    def loss(log_m: float) -> float:
        a, b = np.exp(log_m) * mu, np.exp(log_m) * (1.0 - mu)
        return -float(np.sum(betaln(k + a, n - k + b) - betaln(a, b)))

    res = minimize_scalar(loss, bounds=(lo, hi), method="bounded",
                          options={"xatol": 1e-6})
    # the bounded search does not try its ends: take one when it is better
    best = min((loss(x), x) for x in (lo, float(res.x), hi))[1]
    return float(np.exp(best))


def ordered_side(score: np.ndarray, positive: np.ndarray, width: float = 1e-6) -> np.ndarray:
    """``score`` moved to the side of the prediction keeping the order of the scores on each
    side: where ``positive`` a score at most 1/2 goes into (1/2, 1/2 + ``width``], elsewhere
    a score above 1/2 into [1/2 - ``width``, 1/2), each by an increasing map, so ``argmax``
    of ``[1 - s, s]`` is the prediction and the ranking of the scores stays what it was.

    Parameters
    ----------
    score : array-like of shape (n,)
        Probabilities of the positive class.
    positive : array-like of bool, shape (n,)
        Where the positive class is predicted.
    width : float, default 1e-6
        Width of the band a score on the wrong side is moved into.

    Returns
    -------
    ndarray of shape (n,)

    Examples
    --------
    >>> ordered_side(np.array([0.3, 0.6, 0.7]), np.array([True, False, False])).round(7)
    array([0.5000008, 0.4999991, 0.4999992])
    """
    s = np.array(score, dtype=float, copy=True)
    pos = np.asarray(positive, dtype=bool)
    low = pos & (s <= 0.5)
    s[low] = 0.5 + width * (0.5 + s[low])
    high = ~pos & (s > 0.5)
    s[high] = 0.5 - width * (1.5 - s[high])
    return s


def unmet_counts(A: np.ndarray, clauses: list) -> np.ndarray:
    """Per row of the literal matrix ``A`` and clause, how many of the clause's literals are
    0 on the row (0: the clause fires), as an int matrix of shape ``(n_rows, n_clauses)``.

    Parameters
    ----------
    A : bool array of shape (n_rows, n_literals)
        Literal matrix.
    clauses : list of tuple of int
        Literal indices of each clause.

    Returns
    -------
    ndarray of int64, shape (n_rows, n_clauses)
    """
    A = np.asarray(A, dtype=bool)
    out = np.zeros((A.shape[0], len(clauses)), dtype=np.int64)
    for m, c in enumerate(clauses):
        out[:, m] = len(c) - A[:, list(c)].sum(axis=1)
    return out


def pattern_codes(unmet: np.ndarray) -> np.ndarray:
    """Each row's pattern as a code row: ``(1, fired...)`` (1 per rule that fires) where some
    rule fires, else ``(0, missed...)`` (per rule, how many of its literals fail)."""
    unmet = np.asarray(unmet, dtype=np.int64)
    hit = (unmet == 0).any(axis=1) if unmet.shape[1] else np.zeros(unmet.shape[0], bool)
    body = np.where(hit[:, None], (unmet == 0).astype(np.int64), unmet)
    return np.column_stack([hit.astype(np.int64), body])


def pattern_table(unmet: np.ndarray, positive: np.ndarray, weight: np.ndarray
                  ) -> tuple[dict[tuple[int, ...], float], tuple[float, float],
                             tuple[float, float]]:
    r"""The scores of the rows' patterns (:func:`pattern_codes`): the share of positives
    among the rows of a pattern, shrunk toward the share of its side (some rule fires, or
    none), itself shrunk toward the overall share, each by the Beta posterior mean whose
    strength :func:`estimated_strength` gives (over the two sides, then over the patterns).

    Parameters
    ----------
    unmet : int array of shape (n_rows, n_rules)
        :func:`unmet_counts` of the training rows.
    positive : bool array of shape (n_rows,)
        Whether each row is of the rules' class.
    weight : array of shape (n_rows,)
        Effective row counts (1 per row without ``sample_weight``).

    Returns
    -------
    table : dict
        Pattern code (a tuple) -> score.
    sides : tuple of float
        The scores of a row that some rule fires on, and of one that none does (a pattern
        absent from ``table`` scores as its side).
    strengths : tuple of float
        The estimated strengths of the two shrinkages (pseudo-rows).
    """
    codes = pattern_codes(unmet)
    pos = np.asarray(positive, dtype=bool)
    w = np.asarray(weight, dtype=float)
    prior = float(w[pos].sum() / w.sum())
    hit = codes[:, 0] == 1
    side_k = np.array([w[hit & pos].sum(), w[~hit & pos].sum()])
    side_n = np.array([w[hit].sum(), w[~hit].sum()])
    m_side = estimated_strength(side_k, side_n, np.full(2, prior))
    sides = (side_k + m_side * prior) / (side_n + m_side)
    keys, inverse = unique_codes(codes)
    k = np.bincount(inverse, weights=w * pos, minlength=len(keys))
    n = np.bincount(inverse, weights=w, minlength=len(keys))
    mean = np.where(keys[:, 0] == 1, sides[0], sides[1])
    m_pat = estimated_strength(k, n, mean)
    scores = (k + m_pat * mean) / (n + m_pat)
    table = {tuple(int(v) for v in key): float(sc) for key, sc in zip(keys, scores)}
    return table, (float(sides[0]), float(sides[1])), (float(m_side), float(m_pat))


def pattern_probability(table: dict[tuple[int, ...], float], sides: tuple[float, float],
                        unmet: np.ndarray) -> np.ndarray:
    """The score of each row's pattern in ``table`` (:func:`pattern_table`), its side's
    where the table has no such pattern.

    Parameters
    ----------
    table : dict
        Pattern code -> score.
    sides : tuple of float
        The scores of the two sides (some rule fires, none does).
    unmet : int array of shape (n_rows, n_rules)
        :func:`unmet_counts` of the rows.

    Returns
    -------
    ndarray of shape (n_rows,)
    """
    codes = pattern_codes(unmet)
    keys, inverse = unique_codes(codes)
    values = np.array([table.get(tuple(int(v) for v in key),
                                 sides[0] if key[0] == 1 else sides[1]) for key in keys])
    return values[inverse] if len(keys) else np.zeros(0)


def unique_codes(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(codes, axis=0, return_inverse=True)`` (the inverse flattened) for rows of
    non-negative integers: each row read as one integer in base ``max + 1`` (first column
    most significant) when that fits in int64, so that one 1-D sort of integers gives the
    distinct rows in the same lexicographic order (instead of a sort of the rows as
    records, far slower for millions of rows).

    Parameters
    ----------
    codes : int array of shape (n_rows, m)
        The rows (:func:`pattern_codes`).

    Returns
    -------
    keys : int array of shape (n_distinct, m)
        The distinct rows, in lexicographic order.
    inverse : int array of shape (n_rows,)
        The position in ``keys`` of each row.
    """
    codes = np.asarray(codes, dtype=np.int64)
    n, m = codes.shape
    base = int(codes.max()) + 1 if codes.size else 1
    if codes.size and int(codes.min()) >= 0 and m * math.log2(base) < 62:
        key = np.zeros(n, dtype=np.int64)
        for j in range(m):
            key *= base
            key += codes[:, j]
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        return codes[first], inverse.reshape(-1)
    keys, inverse = np.unique(codes, axis=0, return_inverse=True)
    return keys, inverse.reshape(-1)
