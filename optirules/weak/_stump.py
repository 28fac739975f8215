r"""Decision stumps: one threshold on one feature, a +-1 label on each side.

On binary features a stump is a feature or its negation (Reyzin's paper, "Decision stumps");
on numeric features it is ``h(x) = a if x_j <= t else b``.  The search over every feature
and every threshold is vectorized: one sort of each column and cumulative sums of the
weighted positive and negative labels give, for every candidate split at once, the
weights ``L+, L-`` left of the threshold and ``R+, R-`` right of it.  Two criteria:

* ``"error"`` (default, the ERM weak learner of Reyzin's paper, "Properties of a good weak
  learning algorithm"): minimize the weighted error with each side labelled by its
  weighted majority,

  .. math::

      \epsilon(j, t) = \min(L^+_{jt}, L^-_{jt}) + \min(R^+_{jt}, R^-_{jt}), \qquad
      L^\pm_{jt} = \sum_{i:\, y_i = \pm 1,\, x_{ij} \le t} D(i),\quad
      R^\pm_{jt} = \sum_{i:\, y_i = \pm 1} D(i) - L^\pm_{jt};

* ``"gini"``: maximize the weighted Gini decrease, i.e. the proxy
  ``(L+^2 + L-^2)/(L+ + L-) + (R+^2 + R-^2)/(R+ + R-)`` — the split scikit-learn's
  ``DecisionTreeClassifier(max_depth=1)`` picks, so that AdaBoost with this stump follows
  scikit-learn's ``AdaBoostClassifier`` round by round (see ``benchmarks/boosting.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import InputError
from ._base import (
    Constant,
    OneColumnHypothesis,
    WeakHypothesis,
    WeakLearner,
    check_weak_fit_input,
    feature_label,
    first_max,
)

__all__ = ["Stump", "StumpLearner"]


class Stump(OneColumnHypothesis):
    """``h(x) = left if x[feature] <= threshold else right`` with ``left = -right`` or not.

    Parameters
    ----------
    feature : int
        The column tested.
    threshold : float
        The split value.
    left : {-1, 1}
        Prediction where ``x[feature] <= threshold``.
    right : {-1, 1}
        Prediction elsewhere.
    feature_names : sequence of str, optional
        Names of the columns, used by :meth:`describe` (``x[j]`` without them).
    """

    kind = "stump"

    def __init__(self, feature: int, threshold: float, left: int, right: int,
                 feature_names: Sequence[str] | None = None):
        if left not in (-1, 1) or right not in (-1, 1):
            raise InputError("Stump leaf labels must be -1 or +1.")
        self.feature = int(feature)
        self.threshold = float(threshold)
        self.left = int(left)
        self.right = int(right)
        self._keep_names(feature_names)

    def predict(self, X: Any) -> np.ndarray:
        col = np.asarray(X)[:, self.feature]
        return np.where(col <= self.threshold, self.left, self.right).astype(np.int8)

    def describe(self, feature_names: Sequence[str] | None = None) -> str:
        name = feature_label(self.feature, feature_names)
        lab = {1: "+1", -1: "-1"}
        return f"{lab[self.left]} if {name} <= {self.threshold:g} else {lab[self.right]}"

    def _payload(self) -> dict[str, Any]:
        return {"feature": self.feature, "threshold": self.threshold,
                "left": self.left, "right": self.right}


class StumpLearner(WeakLearner):
    """Best decision stump under sample weights, on numeric or binary features.

    Parameters
    ----------
    criterion : {"error", "gini"}, default="error"
        ``"error"`` minimizes the weighted training error (the empirical-risk minimizer of
        Reyzin's paper); ``"gini"`` maximizes the weighted Gini decrease as scikit-learn's
        depth-1 tree does (ties between features are then broken by the lowest index,
        scikit-learn breaks them by a random feature order).

    Notes
    -----
    A leaf whose positive and negative weights are equal is labelled ``-1`` (the first
    class, as in scikit-learn).  Ties between splits go to the lowest feature index, then
    the lowest threshold.  A stump whose two leaves agree, or data whose features are all
    constant, give a :class:`~optirules.weak.Constant`.  Thresholds are midpoints between
    consecutive distinct values (0.5 on 0/1 features).
    """

    def __init__(self, criterion: str = "error"):
        self.criterion = criterion

    def fit(self, X: Any, y: Any, sample_weight: Any = None, *,
            feature_names: Sequence[str] | None = None) -> WeakHypothesis:
        if self.criterion not in ("error", "gini"):
            raise InputError(f"StumpLearner criterion must be 'error' or 'gini', "
                             f"got {self.criterion!r}.")
        data, y, w = check_weak_fit_input(X, y, sample_weight, "StumpLearner")
        wp = np.where(y > 0, w, 0.0)
        wn = w - wp
        P, N = float(wp.sum()), float(wn.sum())
        n = data.shape[1]
        if data.is_binary:
            # one split per feature, at 0.5: left = {x_j = 0}
            Xf = data.binary_float64
            right = Xf.T @ np.column_stack([wp, wn])  # weights with x_j = 1, one pass
            Lp = (P - right[:, 0])[None, :]
            Ln = (N - right[:, 1])[None, :]
            valid = data._get("nonconst", lambda: (Xf.min(axis=0) < Xf.max(axis=0)))[None, :]
            thresholds = np.full((1, n), 0.5)
        else:
            Xf = data.float64
            order = data.sort_order
            Xs = data._get("sorted", lambda: np.take_along_axis(Xf, order, axis=0))
            cum_p = np.cumsum(wp[order], axis=0)
            cum_n = np.cumsum(wn[order], axis=0)
            Lp, Ln = cum_p[:-1], cum_n[:-1]
            valid = data._get("gaps", lambda: Xs[:-1] < Xs[1:])
            thresholds = data._get("mid", lambda: (Xs[:-1] + Xs[1:]) / 2.0)
        Rp, Rn = P - Lp, N - Ln
        if self.criterion == "error":
            score = -(np.minimum(Lp, Ln) + np.minimum(Rp, Rn))
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                wl, wr = Lp + Ln, Rp + Rn
                left = np.where(wl > 0, (Lp * Lp + Ln * Ln) / wl, 0.0)
                right = np.where(wr > 0, (Rp * Rp + Rn * Rn) / wr, 0.0)
            score = left + right
        score = np.where(valid, score, -np.inf)
        if not np.any(valid):
            return Constant(1 if P > N else -1, feature_names=feature_names)
        # feature-major order: lowest feature, then lowest threshold, wins ties
        flat = first_max(score.T)
        j, k = divmod(flat, score.shape[0])
        left_lab = 1 if Lp[k, j] > Ln[k, j] else -1
        right_lab = 1 if Rp[k, j] > Rn[k, j] else -1
        if left_lab == right_lab:
            return Constant(left_lab, feature_names=feature_names)
        return Stump(j, float(thresholds[k, j]), left_lab, right_lab,
                     feature_names=feature_names)
