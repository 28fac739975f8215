"""The best-single-literal weak learner of Long and Servedio (§6, §7).

On binary features the hypothesis class is ``{x_j, -x_j : j = 1..n} ∪ {+1, -1}``, where the
literal ``x_j`` predicts ``+1`` when ``x_j = 1`` and ``-1`` when ``x_j = 0`` (the paper's
``x_j ∈ {-1, 1}`` encoded as 0/1).  With ``u_i = D(i) y_i`` the edge of ``x_j`` is

.. math::

    \\gamma(x_j) = \\sum_i u_i (2 x_{ij} - 1) = 2 (X^\\top u)_j - \\sum_i u_i,

``\\gamma(-x_j) = -\\gamma(x_j)`` and ``\\gamma(\\pm 1) = \\pm\\sum_i u_i``: one matrix-vector
product scores all ``2n + 2`` hypotheses, and the one of largest edge (smallest weighted
error) is returned.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._base import (
    Constant,
    OneColumnHypothesis,
    WeakHypothesis,
    WeakLearner,
    check_weak_fit_input,
    feature_label,
    first_max,
)

__all__ = ["LiteralHypothesis", "LiteralLearner"]


class LiteralHypothesis(OneColumnHypothesis):
    """The literal hypothesis ``h(x) = 2 x_j - 1`` (``x_j``) or ``1 - 2 x_j`` (``-x_j``) on 0/1 features.

    A +-1 valued function of one 0/1 column (Long and Servedio's literal), not to be
    confused with :class:`optirules.data.Literal`, the readable condition that makes such a
    column from raw data.

    Parameters
    ----------
    feature : int
        The 0/1 column ``j``.
    negated : bool, default False
        Predict ``1 - 2 x_j`` instead of ``2 x_j - 1``.
    feature_names : sequence of str, optional
        Names of the columns, used by :meth:`describe` (``x[j]`` without them).
    """

    kind = "literal"

    def __init__(self, feature: int, negated: bool = False,
                 feature_names: Sequence[str] | None = None):
        self.feature = int(feature)
        self.negated = bool(negated)
        self._keep_names(feature_names)

    def predict(self, X: Any) -> np.ndarray:
        col = np.asarray(X)[:, self.feature] != 0
        h = np.where(col, 1, -1).astype(np.int8)
        return -h if self.negated else h

    def describe(self, feature_names: Sequence[str] | None = None) -> str:
        name = feature_label(self.feature, feature_names)
        return f"-{name}" if self.negated else f"+{name}"

    def _payload(self) -> dict[str, Any]:
        return {"feature": self.feature, "negated": self.negated}


class LiteralLearner(WeakLearner):
    """Best single literal over ``{x_j, -x_j, +1, -1}`` on 0/1 features (Long and Servedio §7).

    Ties go to the lowest feature index, the positive literal before its negation, and
    the literals before the constants.
    """

    requires_binary = True

    def fit(self, X: Any, y: Any, sample_weight: Any = None, *,
            feature_names: Sequence[str] | None = None) -> WeakHypothesis:
        data, y, w = check_weak_fit_input(X, y, sample_weight, "LiteralLearner")
        data.binary("LiteralLearner")
        u = w * y
        total = float(u.sum())
        edges = 2.0 * (u @ data.binary_float64) - total
        scores = np.append(np.abs(edges), abs(total))
        best = first_max(scores)
        if best == data.shape[1]:
            return Constant(1 if total > 0 else -1, feature_names=feature_names)
        return LiteralHypothesis(best, negated=bool(edges[best] < 0), feature_names=feature_names)
