r"""Voting margins and the Equilibrium margin (EMargin) of an ensemble.

For members :math:`h_t(\mathbf{x}) \in \{-1, +1\}`, :math:`t = 1, \dots, T`, with weights
:math:`\boldsymbol\alpha` on the simplex, *Ensemble Pruning via Margin Maximization* writes the
prediction matrix :math:`\mathbf{H} \in \{-1, 1\}^{n \times T}` (:math:`h_{it} = h_t(\mathbf{x}_i)`),
the error matrix :math:`\mathbf{E} = \mathbf{H} \bullet \mathbf{y}` (row :math:`i` of
:math:`\mathbf{H}` times :math:`y_i`, so :math:`E_{it} = +1` when member :math:`t` is right on
row :math:`i` and :math:`-1` otherwise) and the margins

.. math::

    \mathbf{m} = \mathbf{E} \boldsymbol\alpha, \qquad
    m_i = y_i \sum_{t=1}^{T} \alpha_t h_t(\mathbf{x}_i) \in [-1, 1].

The EMargin (Wang, Sugiyama, Jing, Yang, Zhou and Feng, "A refined margin analysis for
boosting algorithms via equilibrium margin", JMLR 12, 2011) is the margin at which the
bound of the QMM paper's Theorem 4 is smallest.  The paper's text lost its displayed formulas;
the definitions below are those of Wang et al. (their Theorem 3), with the paper's
:math:`u[\hat\theta(q)]` (it writes :math:`\ln(1/\delta)` in the last term):

.. math::

    P_{\mathcal D}[y f(\mathbf x) \le 0] \le \frac{\ln|\mathscr H|}{n}
        + \inf_{q \in \{0, \frac1n, \dots, 1\}} D^{-1}\bigl(q, u[\hat\theta(q)]\bigr),

    u[\hat\theta(q)] = \frac1n\Bigl(\frac{8 \ln|\mathscr H|}{\hat\theta^2(q)}
        \ln\frac{2n^2}{\ln|\mathscr H|} + \ln|\mathscr H| + \ln\frac1\delta\Bigr),
    \qquad \delta = 1 - \text{confidence},

    \hat\theta(q) = \sup\Bigl\{\theta \in \bigl(\sqrt{8/|\mathscr H|}, 1\bigr] :
        \hat P_S[y f(\mathbf x) \le \theta] \le q\Bigr\},

where :math:`D(q\,\|\,p) = q \ln\frac qp + (1-q)\ln\frac{1-q}{1-p}` is the Bernoulli
Kullback-Leibler divergence and :math:`D^{-1}(q, u) = \sup\{p \in [q, 1] : D(q\|p) \le u\}`
its upper inverse.  The minimising :math:`q^*` is the *EMargin error* and
:math:`\hat\theta(q^*)` the *EMargin*; the paper then sets
:math:`\upsilon = \hat P_S[m(\mathbf x, y) \le \hat\theta(q^*)]`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError

__all__ = [
    "ensemble_margins",
    "as_pm1_matrix",
    "check_ensemble",
    "bernoulli_kl",
    "bernoulli_kl_inverse",
    "EMarginResult",
    "emargin",
    "tree_hypothesis_space_size",
]


# --------------------------------------------------------------------------- validation
def as_pm1_matrix(H: Any) -> np.ndarray:
    """Check a matrix of member predictions and return it as floats in {-1, +1}.

    Raises :class:`~optirules.errors.InputError` when it is not a non-empty 2-D
    (n_samples, n_members) matrix of +-1 values.

    Parameters
    ----------
    H : array-like of shape (n_samples, n_members)
        Each member's predictions, one column per member.

    Returns
    -------
    ndarray of float, shape (n_samples, n_members)
        The same values as floats.
    """
    try:
        arr = np.asarray(H, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InputError(
            f"H must be a numeric (n_samples, n_members) matrix of +-1 predictions: {exc}."
        ) from None
    if arr.ndim != 2:
        raise InputError(
            f"H must be a 2-D (n_samples, n_members) matrix of member predictions, got shape "
            f"{arr.shape}; stack the members' predictions as columns."
        )
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise InputError(f"H is empty (shape {arr.shape}): pass at least one row and one member.")
    if not np.all(np.isfinite(arr)):
        raise InputError(
            "H has non-finite entries (NaN or inf): member predictions must be -1 or +1."
        )
    bad = (arr != 1.0) & (arr != -1.0)
    if bad.any():
        i, t = np.argwhere(bad)[0]
        raise InputError(
            f"H must hold only -1 and +1 (member t predicts h_it in {{-1, +1}}), found "
            f"{arr[i, t]!r} at row {i}, member {t}; map {{0, 1}} predictions with 2*H - 1."
        )
    return arr


def _as_pm1_labels(y: Any, n: int) -> np.ndarray:
    try:
        arr = np.asarray(y, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InputError(f"y must be a 1-D array of -1/+1 labels: {exc}.") from None
    if arr.ndim != 1:
        arr = arr.reshape(-1) if arr.ndim == 2 and 1 in arr.shape else arr
    if arr.ndim != 1:
        raise InputError(f"y must be a 1-D array of labels, got shape {arr.shape}.")
    if arr.shape[0] != n:
        raise InputError(
            f"y has {arr.shape[0]} labels but H has {n} rows: H must be (n_samples, n_members) "
            "with one row per label (transpose H if it is (n_members, n_samples))."
        )
    if not np.all(np.isfinite(arr)):
        raise InputError("y has non-finite entries (NaN or inf): labels must be -1 or +1.")
    if np.any((arr != 1.0) & (arr != -1.0)):
        found = np.unique(arr)[:5]
        raise InputError(
            f"y must hold only -1 and +1, found values {found.tolist()}; map {{0, 1}} labels "
            "with 2*y - 1."
        )
    return arr


def _as_simplex_weights(alpha: Any, T: int) -> np.ndarray:
    if alpha is None:
        return np.full(T, 1.0 / T)
    try:
        arr = np.asarray(alpha, dtype=float).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise InputError(f"alpha must be a 1-D array of member weights: {exc}.") from None
    if arr.shape[0] != T:
        raise InputError(
            f"alpha has {arr.shape[0]} weights but H has {T} members (columns): pass one "
            "weight per member."
        )
    if not np.all(np.isfinite(arr)):
        raise InputError("alpha has non-finite entries (NaN or inf): pass finite weights.")
    if np.any(arr < 0):
        t = int(np.flatnonzero(arr < 0)[0])
        raise InputError(
            f"alpha must be non-negative (a convex combination of members), got {arr[t]!r} "
            f"for member {t}; a member with a negative weight votes like its negation: "
            "negate its column of H and pass |alpha|."
        )
    total = float(arr.sum())
    if total <= 0:
        raise InputError("alpha sums to 0: give at least one member a positive weight.")
    return arr / total


def check_ensemble(H: Any, y: Any, alpha: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate a member-prediction matrix, labels and weights.

    Parameters
    ----------
    H : array-like of shape (n_samples, n_members)
        Member predictions, every entry -1 or +1.
    y : array-like of shape (n_samples,)
        Labels, -1 or +1.
    alpha : array-like of shape (n_members,), optional
        Non-negative member weights; normalised to sum to one.  Default: uniform.

    Returns
    -------
    H, y, alpha : ndarray
        Float arrays; ``alpha`` lies on the simplex.

    Raises
    ------
    InputError
        Wrong shapes, entries other than +-1, NaN, negative or all-zero weights.
    """
    Hm = as_pm1_matrix(H)
    ym = _as_pm1_labels(y, Hm.shape[0])
    am = _as_simplex_weights(alpha, Hm.shape[1])
    return Hm, ym, am


def ensemble_margins(H: Any, y: Any, weights: Any = None) -> np.ndarray:
    r"""Voting margins :math:`\mathbf m = \mathbf E \boldsymbol\alpha` with :math:`\mathbf E = \mathbf H \bullet \mathbf y`.

    Parameters
    ----------
    H : array-like of shape (n_samples, n_members)
        Member predictions in {-1, +1}.
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    weights : array-like of shape (n_members,), optional
        Non-negative member weights :math:`\boldsymbol\alpha`, normalised to the simplex
        (default uniform, as in a random forest).

    Returns
    -------
    ndarray of shape (n_samples,)
        :math:`m_i = y_i \sum_t \alpha_t h_{it} \in [-1, 1]`; positive means the weighted
        vote is right on row :math:`i` (the QMM paper, the definition of :math:`\mathbf E`).

    Examples
    --------
    >>> ensemble_margins([[1, -1], [1, 1]], [1, -1], [0.75, 0.25])
    array([ 0.5, -1. ])
    """
    Hm, ym, am = check_ensemble(H, y, weights)
    return ym * (Hm @ am)


# --------------------------------------------------------------------------- Bernoulli KL
def bernoulli_kl(q: Any, p: Any) -> np.ndarray:
    r"""Bernoulli Kullback-Leibler divergence :math:`D(q\|p) = q\ln\frac qp + (1-q)\ln\frac{1-q}{1-p}`.

    Uses :math:`0 \ln 0 = 0`; returns ``inf`` where :math:`p \in \{0, 1\}` and
    :math:`q \ne p`.
    """
    from scipy.special import xlogy

    q = np.asarray(q, dtype=float)
    p = np.asarray(p, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = xlogy(q, q) - xlogy(q, p) + xlogy(1 - q, 1 - q) - xlogy(1 - q, 1 - p)
    return np.where(np.isnan(out), np.inf, out)


def _kl_inverse_log_tail(q: np.ndarray, u: np.ndarray) -> np.ndarray:
    r"""``s = -ln(1 - p)`` for ``p = D^{-1}(q, u)``, exact in ordering even when ``p`` rounds to 1.

    With :math:`p = 1 - e^{-s}`, :math:`D(q\|p) = q\ln q + (1-q)\ln(1-q) - q\ln(1-e^{-s})
    + (1-q)s` is increasing in :math:`s \ge -\ln(1-q)`; bisection on :math:`s`.
    """
    from scipy.special import xlogy

    q = np.asarray(q, dtype=float)
    u = np.maximum(np.asarray(u, dtype=float), 0.0)
    q, u = np.broadcast_arrays(q, u)
    out = np.full(q.shape, np.inf)
    inner = q < 1.0
    if not inner.any():
        return out
    qi, ui = q[inner], u[inner]
    const = xlogy(qi, qi) + xlogy(1 - qi, 1 - qi)
    lo = -np.log1p(-qi)  # p = q, D = 0
    hi = np.maximum(lo, (ui - const) / (1 - qi)) + 1.0

    def d_of_s(s: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            tail = np.where(qi > 0, -qi * np.log(-np.expm1(-s)), 0.0)
        return const + tail + (1 - qi) * s

    for _ in range(200):
        mid = 0.5 * (lo + hi)
        over = d_of_s(mid) > ui
        hi = np.where(over, mid, hi)
        lo = np.where(over, lo, mid)
        if np.all(hi - lo <= 1e-15 * np.maximum(1.0, hi)):
            break
    s = 0.5 * (lo + hi)
    # closed form where q = 0: D(0||p) = -ln(1-p) = s
    s = np.where(qi == 0, ui, s)
    out[inner] = s
    return out


def bernoulli_kl_inverse(q: Any, u: Any) -> np.ndarray:
    r"""Upper inverse :math:`D^{-1}(q, u) = \sup\{p \in [q, 1] : D(q\|p) \le u\}`.

    Parameters
    ----------
    q : array-like of floats in [0, 1]
    u : array-like of non-negative floats (negative values are treated as 0)

    Returns
    -------
    ndarray
        :math:`p \ge q`; 1 when :math:`q = 1`.  Closed form :math:`1 - e^{-u}` at
        :math:`q = 0`.
    """
    q = np.asarray(q, dtype=float)
    if np.any((q < 0) | (q > 1)) or not np.all(np.isfinite(q)):
        raise InputError("q must lie in [0, 1] (an empirical error rate).")
    s = _kl_inverse_log_tail(q, u)
    return -np.expm1(-s)


# --------------------------------------------------------------------------- EMargin
@dataclass(frozen=True)
class EMarginResult:
    """The Equilibrium margin of a margin distribution (Wang et al. 2011).

    Attributes
    ----------
    emargin : float
        :math:`\\hat\\theta(q^*)`, the EMargin.
    emargin_error : float
        :math:`q^*`, the EMargin error (a multiple of 1/n).
    upsilon : float
        :math:`\\hat P_S[m \\le \\hat\\theta(q^*)]`, the fraction of training margins at or
        below the EMargin; the QMM paper uses it as the QMM percentile.
    bound : float
        The bound :math:`\\ln|\\mathscr H|/n + D^{-1}(q^*, u[\\hat\\theta(q^*)])` (may exceed 1,
        i.e. be vacuous, on small samples or large hypothesis spaces).
    log_hypothesis_space_size : float
        :math:`\\ln|\\mathscr H|` used.
    confidence : float
        Confidence level used (the bound holds with probability at least ``confidence``,
        i.e. :math:`1 - \\delta`).
    n_samples : int
        Number of margins.
    """

    emargin: float
    emargin_error: float
    upsilon: float
    bound: float
    log_hypothesis_space_size: float
    confidence: float
    n_samples: int


def tree_hypothesis_space_size(n_features: int, n_thresholds: int = 100, depth: int = 1) -> int:
    r"""Size of the space of depth-``depth`` trees on fixed thresholds (the QMM paper).

    Following the QMM paper (after Wang et al. 2011): every feature is scaled to [0, 1] and split
    only at ``n_thresholds`` fixed thresholds, so a split node has
    :math:`2 \cdot K \cdot p` choices (feature, threshold and orientation), and a full
    tree of depth :math:`d` has :math:`2^d - 1` split nodes:

    .. math::

        |\mathscr H| = (2 K p)^{2^d - 1}.

    ``depth=2`` gives the paper's :math:`(2 \times 100 \times p)^3`; ``depth=1`` gives
    decision stumps, :math:`2Kp`.  For full-grown trees no finite count is given by the
    seed: pass a documented estimate (e.g. the depth actually reached) instead.

    Parameters
    ----------
    n_features : int
        :math:`p`, the number of features.
    n_thresholds : int, default 100
        :math:`K`, thresholds per feature.
    depth : int, default 1
        Tree depth (1 = stumps).

    Returns
    -------
    int
        :math:`|\mathscr H|` (an exact Python integer; it may be large).
    """
    for name, value in (("n_features", n_features), ("n_thresholds", n_thresholds),
                        ("depth", depth)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise InputError(f"{name} must be a positive integer, got {value!r}.")
    return (2 * int(n_thresholds) * int(n_features)) ** (2 ** int(depth) - 1)


def _log_size(hypothesis_space_size: Any) -> float:
    if isinstance(hypothesis_space_size, bool):
        raise InputError("hypothesis_space_size must be a number > 8, got a bool.")
    try:
        size = hypothesis_space_size if isinstance(hypothesis_space_size, int) else float(
            hypothesis_space_size)
    except (TypeError, ValueError):
        raise InputError(
            f"hypothesis_space_size must be a number > 8 (the size |H| of the base-classifier "
            f"space), got {hypothesis_space_size!r}; see tree_hypothesis_space_size()."
        ) from None
    if isinstance(size, float) and not math.isfinite(size):
        raise InputError(
            "hypothesis_space_size must be finite: the EMargin bound needs a finite |H|; "
            "pass an estimate such as tree_hypothesis_space_size(n_features, 100, depth)."
        )
    if size <= 8:
        raise InputError(
            f"hypothesis_space_size must exceed 8 (Wang et al. 2011 need sqrt(8/|H|) < 1), "
            f"got {hypothesis_space_size!r}."
        )
    return math.log(size)


def emargin(margin_values: Any, hypothesis_space_size: Any,
            confidence: float = 0.95) -> EMarginResult:
    r"""The Equilibrium margin (EMargin) of a margin distribution.

    Evaluates, for every :math:`q \in \{0, 1/n, \dots, 1\}` for which
    :math:`\hat\theta(q)` exists, the term :math:`D^{-1}(q, u[\hat\theta(q)])` of the bound
    in the module docstring and returns the minimiser (the QMM paper, Theorem 4 and the
    paragraph after it; Wang et al. 2011, Theorem 3).  With the margins sorted,
    :math:`m_{(1)} \le \dots \le m_{(n)}`, the supremum is
    :math:`\hat\theta(j/n) = m_{(j+1)}` for :math:`j < n` (it exists when
    :math:`m_{(j+1)} > \sqrt{8/|\mathscr H|}`) and :math:`\hat\theta(1) = 1`.

    Ties in the minimum are broken towards the smallest :math:`q`; minimisation is done on
    :math:`-\ln(1 - D^{-1})`, so it stays exact when the bound is vacuous and
    :math:`D^{-1}` rounds to 1.

    Parameters
    ----------
    margin_values : array-like of shape (n_samples,)
        Training margins in [-1, 1] (see :func:`margins`).
    hypothesis_space_size : int or float
        :math:`|\mathscr H| > 8`, the size of the base-classifier space.  For trees on fixed
        thresholds use :func:`tree_hypothesis_space_size`; otherwise give a documented
        estimate (the result depends on it only through :math:`\ln|\mathscr H|`).
    confidence : float, default 0.95
        Confidence level of the bound, in (0, 1): the paper's :math:`\delta` (not fixed
        there) is ``1 - confidence``, entering :math:`u` as
        :math:`\ln\frac1\delta = -\ln(1 - \text{confidence})`; ``0.95`` is
        :math:`\delta = 0.05`.

    Returns
    -------
    EMarginResult
    """
    try:
        m = np.asarray(margin_values, dtype=float).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise InputError(f"margin_values must be a 1-D array of margins: {exc}.") from None
    if m.size == 0:
        raise InputError("margin_values is empty: pass the n training margins.")
    if not np.all(np.isfinite(m)):
        raise InputError("margin_values has NaN or inf entries: margins lie in [-1, 1].")
    if np.any(np.abs(m) > 1 + 1e-9):
        raise InputError(
            "margins must lie in [-1, 1] (weights normalised to the simplex), found "
            f"{m[np.argmax(np.abs(m))]!r}: normalise the member weights first."
        )
    if isinstance(confidence, bool):
        raise InputError(f"confidence must be a number in (0, 1), got {confidence!r}.")
    try:
        confidence = float(confidence)
    except (TypeError, ValueError):
        raise InputError(f"confidence must be a number in (0, 1), got {confidence!r}.") \
            from None
    if not 0 < confidence < 1:
        raise InputError(f"confidence must lie in (0, 1) (e.g. 0.95, i.e. the paper's "
                         f"delta = 0.05), got {confidence!r}.")
    log_inv_delta = -math.log1p(-confidence)  # ln(1/delta) with delta = 1 - confidence
    log_h = _log_size(hypothesis_space_size)
    n = m.size
    if log_h >= 2.0 * n * n:
        raise InputError(
            f"ln|H| = {log_h:.3g} is not below 2 n^2 = {2 * n * n}: the EMargin bound's "
            "ln(2n^2/ln|H|) term is not positive; use more rows or a smaller |H| estimate."
        )
    theta_min = math.sqrt(8.0 / math.exp(log_h)) if log_h < 700 else 0.0
    ms = np.sort(m)
    j = np.arange(n + 1)
    theta = np.append(np.minimum(ms, 1.0), 1.0)  # theta_hat(j/n) = m_(j+1); theta_hat(1) = 1
    valid = theta > theta_min
    q = j / n
    with np.errstate(divide="ignore"):
        u = (8.0 * log_h / theta**2 * math.log(2.0 * n * n / log_h) + log_h
             + log_inv_delta) / n
    s = np.full(n + 1, np.inf)
    s[valid] = _kl_inverse_log_tail(q[valid], u[valid])
    cand = np.flatnonzero(valid)
    best = int(cand[np.argmin(s[cand])])  # argmin returns the first (smallest q) on ties
    theta_star = float(theta[best])
    upsilon = float(np.count_nonzero(m <= theta_star)) / n
    p_star = float(-np.expm1(-s[best]))
    return EMarginResult(
        emargin=theta_star,
        emargin_error=float(q[best]),
        upsilon=upsilon,
        bound=log_h / n + p_star,
        log_hypothesis_space_size=log_h,
        confidence=confidence,
        n_samples=n,
    )
