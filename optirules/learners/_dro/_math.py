r"""The DRO ensemble's arithmetic (:class:`~optirules.learners.DRORuleEnsembleClassifier`):
the margin loss (the DRO paper, eq 2), the worst-case pmf step (eq 9) and the robust loss,
the ensemble's ``max_degree="auto"`` rule, the vote levels' scores, a member's cost, and the
parameters' allowed values.

Plain functions of arrays, with no estimator: the estimator's modules import them from here.
"""

from __future__ import annotations

import numpy as np

from ...models import Clause, resolve_max_degree
from .._scores import PRIOR_STRENGTH, VOTE_CUT, smoothed_share

__all__ = ["dro_max_degree", "margin_loss"]

LOSSES = ("margin", "binary")
SELECTIONS = ("robust_loss", "validation", "last")
#: member budgets tried when ``member_complexity=None``, as fractions of ``complexity``
MEMBER_FRACTIONS = (1.0 / 3.0, 1.0)
DIVERGENCES = ("chi2", "kl")
#: what each member's column generation starts from (``member_warm_start``)
WARM_STARTS = ("support", "members", "pool", "none")


def margin_loss(F: np.ndarray, y: np.ndarray) -> np.ndarray:
    r"""The DRO paper's loss (2): :math:`|F(x) - \tfrac12| \cdot \mathbb{I}(\hat y \ne y)`,
    :math:`\hat y = \mathbb{I}(F(x) \ge \tfrac12)` (with a 1e-12 allowance for round-off in
    sums of weights).

    Parameters
    ----------
    F : array of shape (N,)
        Combination values in [0, 1].
    y : bool array of shape (N,)
        Labels.
    """
    F = np.asarray(F, dtype=float)
    wrong = (F >= VOTE_CUT) != np.asarray(y, dtype=bool)
    return np.abs(F - 0.5) * wrong


#: ``max_degree="auto"`` of the ensemble is 3 while the triples' work N L^3 / 6 stays below this
AUTO_DEGREE_WORK = 1e8


def dro_max_degree(max_degree: int | str, shape: tuple[int, int]) -> int:
    """The ensemble's ``max_degree``: ``"auto"`` is 3 when :math:`N L^3 / 6 \\le 10^8`
    for ``shape = (N, L)``, else 2, or 1 where the rule set's own ``"auto"`` is 1 (more
    than 20,000 literals: :func:`~optirules.models.resolve_max_degree`)
    (:class:`~optirules.learners.DRORuleEnsembleClassifier`, ``max_degree``); a number is
    returned as it is."""
    if max_degree != "auto":
        return resolve_max_degree(max_degree, shape)
    n, n_lit = shape
    if n * n_lit ** 3 / 6.0 <= AUTO_DEGREE_WORK:
        return 3
    return min(2, resolve_max_degree("auto", shape))


#: under time_limit, the seconds a member's master IP and a combination IP get at least
#: (a solver given less returns no solution at all)
MIN_IP_SECONDS = 1.0


def _uniform(q: np.ndarray) -> bool:
    """Whether the empirical pmf ``q`` is uniform (no ``sample_weight``, or equal weights)."""
    return bool(np.all(q == q[0]))


def _empirical(w: np.ndarray) -> np.ndarray:
    """The weights ``w`` (all > 0) as a pmf: exactly ``1/N`` each when they are equal, so
    equal weights give the fit of no weights."""
    w = np.asarray(w, dtype=float)
    if _uniform(w):
        return np.full(w.size, 1.0 / w.size)
    return w / w.sum()


def _share(correct: np.ndarray, q: np.ndarray) -> float:
    """The weight ``q`` of the rows where ``correct`` holds, as a share of ``q``'s sum."""
    if _uniform(q):
        return float(np.mean(correct))
    return float(q @ np.asarray(correct, dtype=float) / q.sum())


def _divergence(p: np.ndarray, q: np.ndarray, divergence: str) -> float:
    r""":math:`D_\phi(P, Q)` of ``p`` from the empirical pmf ``q``
    (:func:`~optirules.models.phi_divergence` with ``reference=q``)."""
    from ...models import phi_divergence

    return phi_divergence(p, divergence, reference=None if _uniform(q) else q)


def _robust(z: np.ndarray, rho: float, divergence: str,
            q: np.ndarray | None = None) -> tuple[float, np.ndarray]:
    r"""The robust loss :math:`R = \max_P P z` over the ball around the empirical pmf ``q``
    (uniform when None) and its maximizer."""
    from ...models import worst_case_pmf

    p = worst_case_pmf(z, rho, divergence,
                       reference=None if q is None or _uniform(q) else q)
    return float(p @ z), p


def _monotone_scores(positives: np.ndarray, support: np.ndarray, prior: float) -> np.ndarray:
    """The levels' smoothed shares (:func:`~optirules.learners._scores.smoothed_share`),
    made non-decreasing in the vote by isotonic regression weighted by the levels' counts."""
    from sklearn.isotonic import isotonic_regression

    raw = smoothed_share(positives, support, prior, PRIOR_STRENGTH)
    if raw.size < 2:
        return raw
    return np.clip(isotonic_regression(raw, sample_weight=np.maximum(support, 1e-12),
                                       increasing=True), 0.0, 1.0)


def _cost(clauses: list[Clause]) -> int:
    return int(sum(1 + len(c) for c in clauses))
