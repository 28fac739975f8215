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

import numpy as np

__all__ = ["PRIOR_STRENGTH", "VOTE_CUT", "smoothed_share", "consistent_with_prediction",
           "smoothed_distribution"]

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
