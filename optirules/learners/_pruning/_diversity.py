r"""Margins and diversity of a voting ensemble: margins, disagreement, kappa.

Notation of "Ensemble Pruning via Margin Maximization" (the QMM paper): the member predictions on :math:`n` rows form
:math:`\mathbf H \in \{-1, +1\}^{n \times T}` (:math:`h_{it} = h_t(\mathbf x_i)`), labels
:math:`y_i \in \{-1, +1\}`, weights :math:`\boldsymbol\alpha` on the simplex.

* **Margins** :math:`m_i = y_i \sum_t \alpha_t h_{it} \in [-1, 1]` (the QMM paper,
  :math:`\mathbf m = \mathbf E\boldsymbol\alpha`); the **cumulative margin distribution**
  (CMD, the QMM paper Figures 1 and 4) is :math:`F(\theta) = \hat P[m \le \theta]`,
  drawn by :func:`optirules.plotting.plot_margin_distribution`.
* **Pairwise disagreement** (the QMM paper, its diversity paragraph before Table 4):
  :math:`\operatorname{diff}(h_a, h_b) = \frac1n \sum_k I[h_a(\mathbf x_k) h_b(\mathbf x_k) < 0]`;
  the **diversity** of an ensemble is the mean of it over the :math:`T(T-1)/2` pairs (the
  seed's own formula did not survive in its text; this is the plain average it describes).
* **Kappa** (Cohen 1960, used by Margineantu and Dietterich 1997; the QMM paper eqs. 21-23): from
  the contingency table :math:`C_{ij}` of two members' predictions,

  .. math::

      \theta_1 = \frac{\sum_i C_{ii}}{n}, \qquad
      \theta_2 = \sum_i \frac{C_{i\cdot}}{n}\,\frac{C_{\cdot i}}{n}, \qquad
      \kappa = \frac{\theta_1 - \theta_2}{1 - \theta_2}.

  :math:`\kappa = 1` means the two members agree everywhere, :math:`\kappa = 0` that they
  agree as often as chance predicts, :math:`\kappa < 0` less often.  When both members
  predict the same single class on every row, :math:`\theta_1 = \theta_2 = 1` and the ratio
  is 0/0; we return :math:`\kappa = 1` (identical members are the least diverse pair),
  where ``sklearn.metrics.cohen_kappa_score`` returns NaN.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import InputError
from ...models import ensemble_margins

__all__ = [
    "ensemble_margins",
    "pairwise_disagreement",
    "ensemble_diversity",
    "kappa_statistic",
    "pairwise_kappa",
]


def _as_pm1_matrix(H: Any) -> np.ndarray:
    """The member matrix checked by the margin module's validator; one member may come as
    a 1-D vector."""
    from ...models import as_pm1_matrix as check_pm1_matrix

    try:
        if np.ndim(H) == 1:
            H = np.asarray(H)[:, None]
    except ValueError:  # ragged input: the validator explains it
        pass
    return check_pm1_matrix(H)


def pairwise_disagreement(H: Any) -> np.ndarray:
    r"""Matrix of :math:`\operatorname{diff}(h_a, h_b) = \frac1n\sum_k I[h_{ka} h_{kb} < 0]`.

    Parameters
    ----------
    H : array-like of shape (n_samples, n_members)
        Member predictions in {-1, +1}.

    Returns
    -------
    ndarray of shape (n_members, n_members)
        Symmetric, zero diagonal, entries in [0, 1].
    """
    Hm = _as_pm1_matrix(H)
    n = Hm.shape[0]
    agree = Hm.T @ Hm / n  # mean of h_a h_b = 1 - 2 diff
    D = (1.0 - agree) / 2.0
    np.fill_diagonal(D, 0.0)
    return np.clip(D, 0.0, 1.0)


def ensemble_diversity(H: Any) -> float:
    r"""Mean pairwise disagreement :math:`\frac{2}{T(T-1)}\sum_{a<b}\operatorname{diff}(h_a, h_b)`.

    Returns 0 for a single member.

    Parameters
    ----------
    H : array-like of shape (n_samples, n_members)
        Each member's +-1 (or 0/1) predictions, one column per member.

    Returns
    -------
    float
        The mean disagreement rate over pairs of members, in [0, 1].
    """
    D = pairwise_disagreement(H)
    T = D.shape[0]
    if T < 2:
        return 0.0
    return float(D[np.triu_indices(T, 1)].mean())


def _kappa_from_agreement(theta1: np.ndarray, theta2: np.ndarray) -> np.ndarray:
    theta1 = np.asarray(theta1, dtype=float)
    theta2 = np.asarray(theta2, dtype=float)
    denom = 1.0 - theta2
    with np.errstate(divide="ignore", invalid="ignore"):
        k = (theta1 - theta2) / denom
    # theta2 = 1: both members constant and equal (then theta1 = 1 too): identical -> 1
    return np.where(denom <= 1e-15, 1.0, k)


def kappa_statistic(a: Any, b: Any) -> float:
    r"""Cohen's :math:`\kappa` between the predictions of two members.

    Parameters
    ----------
    a, b : array-like of shape (n_samples,)
        Predictions of two members; any two labels (typically -1/+1).

    Returns
    -------
    float
        :math:`\kappa = (\theta_1 - \theta_2)/(1 - \theta_2)` (module docstring); equals
        ``sklearn.metrics.cohen_kappa_score(a, b)`` except that two identical constant
        members give 1 instead of NaN.
    """
    a = np.asarray(a).reshape(-1)
    b = np.asarray(b).reshape(-1)
    if a.shape != b.shape or a.size == 0:
        raise InputError(f"a and b must be non-empty and of equal length, got {a.size} and "
                         f"{b.size} predictions.")
    labels = np.unique(np.concatenate([a, b]))
    theta1 = float(np.mean(a == b))
    theta2 = float(sum(np.mean(a == v) * np.mean(b == v) for v in labels))
    return float(_kappa_from_agreement(theta1, theta2))


def pairwise_kappa(H: Any) -> np.ndarray:
    r"""Matrix of Cohen's :math:`\kappa` between every two members (columns of ``H``).

    For :math:`\pm 1` predictions with :math:`p_a` the fraction of +1 of member :math:`a`,
    :math:`\theta_1 = (1 + \frac1n \mathbf h_a^\top \mathbf h_b)/2` and
    :math:`\theta_2 = p_a p_b + (1 - p_a)(1 - p_b)`.

    Parameters
    ----------
    H : array-like of shape (n_samples, n_members)
        Member predictions in {-1, +1}.

    Returns
    -------
    ndarray of shape (n_members, n_members)
        Symmetric, ones on the diagonal.
    """
    Hm = _as_pm1_matrix(H)
    n = Hm.shape[0]
    theta1 = (1.0 + Hm.T @ Hm / n) / 2.0
    p = (Hm > 0).mean(axis=0)
    theta2 = np.outer(p, p) + np.outer(1.0 - p, 1.0 - p)
    K = _kappa_from_agreement(theta1, theta2)
    K = 0.5 * (K + K.T)
    np.fill_diagonal(K, 1.0)
    return K
