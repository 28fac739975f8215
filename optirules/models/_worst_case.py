r"""The phi-divergence worst-case pmf of the DRO paper, eq 9: a CVXPY model and an exact solver.

Given losses :math:`z_i` on the :math:`N` training rows, the worst-case pmf within a
phi-divergence ball of radius :math:`\rho` around the empirical pmf
:math:`P^0 = (1/N, \dots, 1/N)` solves (*Obtaining Explainable Classification Models using Distributionally Robust Optimization*, eq 9)

.. math::

    R = \max_{P} \sum_{i \in \mathcal{S}} P_i z_i
    \quad \text{s.t.} \quad \sum_{i \in \mathcal{S}} \phi(N P_i) \le N \rho,
    \quad \sum_{i \in \mathcal{S}} P_i = 1, \quad P_i \ge 0,

for the modified chi-square divergence :math:`\phi(s) = (s - 1)^2` and the
Kullback-Leibler divergence :math:`\phi(s) = s \log s - s + 1` (the DRO paper, Section 2.3).

Two routes are offered and tested equal:

* :class:`WorstCasePmfModel`, the declarative CVXPY model (Clarabel by default), written in
  forms chosen because they solve cleanly with Clarabel (measured on random instances);
* :func:`worst_case_pmf` with ``method="exact"``, a one-dimensional Lagrangian solver
  (sorting and a closed form for chi-square, a safeguarded Newton search on the inverse
  temperature for KL), which runs in a few milliseconds for :math:`N = 20\,000`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import InputError
from ._base import OptModel

__all__ = ["WorstCasePmfModel", "worst_case_pmf", "phi_divergence"]

_DIVERGENCES = ("chi2", "kl")
_METHODS = ("exact", "cvxpy")


# --------------------------------------------------------------------------- validation
def _check_divergence(divergence: str) -> str:
    if not isinstance(divergence, str) or divergence.lower() not in _DIVERGENCES:
        raise InputError(
            f"divergence must be one of {_DIVERGENCES} (modified chi-square or "
            f"Kullback-Leibler), got {divergence!r}."
        )
    return divergence.lower()


def _check_z(z: Any, name: str = "losses", what: str = "losses") -> np.ndarray:
    try:
        arr = np.asarray(z, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{name} must be a 1-D array of real {what}: {exc}.") from None
    if arr.ndim != 1:
        raise InputError(
            f"{name} must be a 1-D array of {what} (one per training row), got shape "
            f"{arr.shape}; flatten it or pass one value per row."
        )
    if arr.size == 0:
        raise InputError(f"{name} is empty: pass at least one value.")
    if not np.all(np.isfinite(arr)):
        bad = np.flatnonzero(~np.isfinite(arr))
        raise InputError(
            f"{name} has {bad.size} non-finite value(s) (NaN or inf), first at index {bad[0]}: "
            "remove or impute them first."
        )
    return arr


def _check_rho(rho: Any) -> float:
    try:
        value = float(rho)
    except (TypeError, ValueError):
        raise InputError(f"rho must be a non-negative number, got {rho!r}.") from None
    if math.isnan(value) or value < 0:
        raise InputError(
            f"rho must be >= 0 (the radius of the divergence ball), got {rho!r}; "
            "use rho = 0 for the empirical pmf."
        )
    return value


# --------------------------------------------------------------------------- divergence
def phi_divergence(p: Any, divergence: str = "chi2", *, reference: Any = None) -> float:
    r"""The phi-divergence of a pmf from the uniform pmf, as in the constraint of eq 9.

    .. math::

        D_\phi(P, P^0) = \frac{1}{N} \sum_{i=1}^{N} \phi(N P_i),
        \qquad \phi(s) = (s - 1)^2 \;\text{(chi2)}, \qquad
        \phi(s) = s \log s - s + 1 \;\text{(kl)},

    with :math:`0 \log 0 = 0` (*Obtaining Explainable Classification Models using Distributionally Robust Optimization*, Section 2.3 and eq 9).
    For a pmf the KL value equals :math:`\sum_i P_i \log(N P_i)`.

    Parameters
    ----------
    p : array-like of shape (N,)
        Non-negative weights (normally a pmf).
    divergence : {"chi2", "kl"}
        Which phi.
    reference : array-like of shape (N,), optional
        The centre :math:`Q` of the ball when it is not uniform (positive weights, e.g.
        the normalized sample weights): :math:`D_\phi(P, Q) = \sum_i Q_i \phi(P_i/Q_i)`,
        which is the uniform formula on rows repeated by integer weights.

    Returns
    -------
    float
        The divergence; a pmf is feasible for eq 9 when it is ``<= rho``.
    """
    divergence = _check_divergence(divergence)
    arr = _check_z(p, "p", "weights")
    if np.any(arr < 0):
        raise InputError("p has negative entries: a pmf must be non-negative.")
    if reference is not None:
        return _reference_divergence(arr, _check_reference(reference, arr.size), divergence)
    n = arr.size
    s = n * arr
    if divergence == "chi2":
        return float(np.mean((s - 1.0) ** 2))
    # s log s - s + 1 written as s log1p(u) - u with u = s - 1 (and 1 at s = 0): no
    # cancellation of O(1) terms near s = 1, which matters for tiny radii
    u = s - 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(s > 0.0, s * np.log1p(u) - u, 1.0)
    return float(np.mean(terms))


def _reference_divergence(p: np.ndarray, q: np.ndarray, divergence: str) -> float:
    r""":math:`D_\phi(P, Q) = \sum_i Q_i \phi(P_i / Q_i)` for a reference pmf ``q`` (all
    > 0); with ``q`` uniform it is :func:`phi_divergence`'s value."""
    s = p / q
    if divergence == "chi2":
        return float(q @ (s - 1.0) ** 2)
    u = s - 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(s > 0.0, s * np.log1p(u) - u, 1.0)
    return float(q @ terms)


def _check_reference(reference: Any, n: int) -> np.ndarray:
    """A reference pmf: ``n`` finite positive weights, returned normalized to sum 1."""
    q = np.asarray(reference, dtype=float).reshape(-1) if reference is not None else None
    if q is None or q.size != n or not np.all(np.isfinite(q)) or np.any(q <= 0):
        raise InputError(f"reference must be {n} finite positive weights (the centre of the "
                         "divergence ball; e.g. the normalized sample weights).")
    return q / q.sum()


# --------------------------------------------------------------------------- exact solver
def _argmax_uniform(z: np.ndarray) -> np.ndarray:
    top = z == z.max()
    return top / np.count_nonzero(top)


def _chi2_exact(z: np.ndarray, rho: float) -> np.ndarray:
    r"""Exact chi-square worst case, for 0 < rho < N/k - 1 (k = number of maximal z).

    On the support of the top-j losses, :math:`P_i = (z_i - \eta)/\sum (z - \eta)` and
    the active constraint reads :math:`\operatorname{var}_j / d^2 = (1 + \rho) j / N - 1`,
    with :math:`\operatorname{var}_j` and :math:`a_j` the variance and mean of the top j
    losses and :math:`d = a_j - \eta`.  The support is the one whose breakpoint interval
    holds eta; :math:`g(\eta) = N \sum_i (z_i-\eta)_+^2 / (\sum_i (z_i-\eta)_+)^2` increases
    with eta (Cauchy-Schwarz), so the interval is found by one pass over the sorted
    breakpoints.
    """
    n = z.size
    zs = np.sort(z)[::-1]
    x = zs - zs[0]  # shift: x <= 0, x[0] = 0; the solution is invariant to shifts of z
    c1 = np.cumsum(x)
    c2 = np.cumsum(x * x)
    j = np.arange(1, n + 1, dtype=float)
    mean_j = c1 / j
    var_j = np.maximum(c2 / j - mean_j * mean_j, 0.0)
    target = 1.0 + rho
    # breakpoints: distinct values, in decreasing order; ends[l] = size of the support
    # {x >= u_l} (index of the last member of that tie group, plus one)
    starts = np.flatnonzero(np.r_[True, x[1:] != x[:-1]])
    ends = np.r_[starts[1:], n]
    u = x[starts]
    # g at eta = u_l (l >= 1) with support {x > u_l} = top ends[l-1] values
    jj = ends[:-1]  # support sizes for breakpoints u_1, ..., u_{m-1}
    d = mean_j[jj - 1] - u[1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        g = n * (var_j[jj - 1] + d * d) / (jj * d * d)
    # g decreases along the breakpoints (eta decreasing); find the first with g <= target
    below = np.flatnonzero(g <= target)
    if below.size:
        l_idx = below[0]  # eta in [u[l_idx + 1], u[l_idx]] with support top ends[l_idx]
        lo, hi = u[l_idx + 1], u[l_idx]
    else:
        l_idx = u.size - 1  # full support, eta < min z
        lo, hi = -np.inf, u[l_idx]
    size = int(ends[l_idx])
    denom = target * size / n - 1.0
    var = var_j[size - 1]
    if denom <= 0.0 or var <= 0.0:
        eta = hi
    else:
        eta = mean_j[size - 1] - math.sqrt(var / denom)
        eta = min(max(eta, lo), hi)
    w = np.maximum((z - zs[0]) - eta, 0.0)
    total = w.sum()
    if not total > 0.0:  # pragma: no cover - only reachable through rounding
        return _argmax_uniform(z)
    p = w / total
    # safety net (never needed in our tests): if rounding pushed the divergence past rho
    # by more than 1e-12 relative, shrink towards P^0; a factor t scales it by t^2.  Within
    # that tolerance the exact zeros of P are kept.
    div = phi_divergence(p, "chi2")
    if div > rho * (1.0 + 1e-12):
        t = math.sqrt(rho / div)
        p = t * p + (1.0 - t) / n
    return p


def _kl_state(x: np.ndarray, beta: float, q: np.ndarray | None = None
              ) -> tuple[np.ndarray, float, float]:
    """Gibbs pmf exp(beta x) q / sum, its KL from ``q`` (uniform when None) and the
    derivative d KL / d beta.

    ``x <= 0`` with ``max x = 0``, so ``w = beta x <= 0`` (log-sum-exp shift built in).
    With ``m = E_q[expm1(w)]``, ``P_i = q_i exp(w_i) / (1 + m)`` and
    ``log(P_i / q_i) = w_i - log1p(m)``: accurate also for tiny beta (tiny rho), where the
    textbook ``log N + sum P log P`` loses everything to cancellation.
    """
    n = x.size
    w = beta * x
    em1 = np.expm1(w)
    # elementwise sums, not np.dot: a threaded BLAS dot is far slower on a busy machine
    if q is None:
        m = float(em1.sum()) / n
        p = (em1 + 1.0) / (n * (1.0 + m))
    else:
        m = float((q * em1).sum())
        p = q * (em1 + 1.0) / (1.0 + m)
    log_mean = math.log1p(m)
    kl = float((p * (w - log_mean)).sum())
    mean = float((p * x).sum())
    var = float((p * (x - mean) ** 2).sum())
    return p, max(kl, 0.0), beta * var


def _kl_exact(z: np.ndarray, rho: float, q: np.ndarray | None = None) -> np.ndarray:
    r"""Exact KL worst case, for 0 < rho < log(N/k) (k = number of maximal z).

    :math:`P_i \propto \exp(\beta z_i)` with :math:`\beta = 1/\tau`; the KL divergence
    :math:`\log N - H(P_\beta)` increases with beta (its derivative is
    :math:`\beta \operatorname{Var}_{P_\beta}(z) > 0`), from 0 at beta = 0 to log(N/k).
    A Newton step on beta, safeguarded by a bracket, finds the root to a relative 1e-12; a last
    mix with the uniform pmf (weight ``1 - rho/KL``) makes the result exactly feasible.
    """
    scale = float(z.max() - z.min())
    x = (z - z.max()) / scale  # in [-1, 0]
    # start from the small-beta expansion KL ~ beta^2 Var(z) / 2, then Newton steps kept
    # inside a bracket [lo, hi] that doubles while no upper end is known
    spread = float(x.var()) if q is None else float((q * (x - float((q * x).sum())) ** 2).sum())
    beta = math.sqrt(2.0 * rho / max(spread, 1e-300))
    lo, hi = 0.0, math.inf
    tol = 1e-12 * rho
    for _ in range(300):
        p, kl, dkl = _kl_state(x, beta, q)
        if abs(kl - rho) <= tol:
            break
        if kl < rho:
            lo = beta
        else:
            hi = beta
        if math.isfinite(hi) and hi - lo <= 1e-15 * hi:
            break
        step = beta - (kl - rho) / dkl if dkl > 0 else math.nan
        if not (lo < step < hi):
            step = 0.5 * (lo + hi) if math.isfinite(hi) else 2.0 * beta
        beta = step
    if kl > rho:
        # mixing with P^0 by a weight t scales the KL divergence by at most (1 - t)
        # (convexity), so this restores feasibility at an objective cost of O(tol)
        t = 1.0 - rho / kl
        p = (1.0 - t) * p + t * (1.0 / z.size if q is None else q)
    return p


def _reference_exact(z: np.ndarray, q: np.ndarray, rho: float,
                     divergence: str) -> np.ndarray:
    r"""The worst-case pmf of eq 9 with the ball centred at the reference pmf ``q`` (all
    > 0): :math:`\max_P \sum_i P_i z_i` s.t. :math:`\sum_i Q_i \phi(P_i/Q_i) \le \rho`.

    With integer weights this is eq 9 on the repeated rows, each row's mass the sum over
    its copies (the copies of a row share one loss, so the optimum splits its mass equally).
    chi2: :math:`P_i = Q_i (z_i - \eta)_+ / \sum_j Q_j (z_j - \eta)_+` with :math:`\eta`
    solving :math:`\sum Q (z-\eta)_+^2 / (\sum Q (z-\eta)_+)^2 = 1 + \rho`, located as in
    :func:`_chi2_exact` with weighted sums; kl:
    :math:`P_i \propto Q_i e^{\beta z_i}`, :math:`\beta` by a bracketed Newton search."""
    zmax = z.max()
    if rho == 0.0 or zmax == z.min():
        return q.copy()
    top = z == zmax
    q_top = float(q[top].sum())
    if (divergence == "chi2" and rho >= 1.0 / q_top - 1.0) or (
            divergence == "kl" and rho >= -math.log(q_top)):
        p = np.where(top, q, 0.0)  # the divergence row is slack: all mass on the maxima
        return p / p.sum()
    if divergence == "chi2":
        order = np.argsort(-z, kind="stable")
        zs, qs = z[order], q[order]
        x = zs - zs[0]
        Q = np.cumsum(qs)
        mean = np.cumsum(qs * x) / Q
        var = np.maximum(np.cumsum(qs * x * x) / Q - mean * mean, 0.0)
        target = 1.0 + rho
        starts = np.flatnonzero(np.r_[True, x[1:] != x[:-1]])
        ends = np.r_[starts[1:], x.size]
        u = x[starts]
        jj = ends[:-1]
        d = mean[jj - 1] - u[1:]
        with np.errstate(divide="ignore", invalid="ignore"):
            g = (var[jj - 1] + d * d) / (Q[jj - 1] * d * d)
        below = np.flatnonzero(g <= target)
        if below.size:
            l_idx = below[0]
            lo, hi = u[l_idx + 1], u[l_idx]
        else:
            l_idx = u.size - 1
            lo, hi = -np.inf, u[l_idx]
        size = int(ends[l_idx])
        denom = target * Q[size - 1] - 1.0
        v = var[size - 1]
        if denom <= 0.0 or v <= 0.0:
            eta = hi
        else:
            eta = min(max(mean[size - 1] - math.sqrt(v / denom), lo), hi)
        p = q * np.maximum((z - zmax) - eta, 0.0)
        p = p / p.sum()
        div = _reference_divergence(p, q, "chi2")
        if div > rho * (1.0 + 1e-12):  # round-off: shrink towards q (scales it by t^2)
            t = math.sqrt(rho / div)
            p = t * p + (1.0 - t) * q
        return p
    return _kl_exact(z, rho, q)


def worst_case_pmf(losses: Any, rho: float, divergence: str = "chi2", method: str = "exact",
                   *, reference: Any = None, **solve_options: Any) -> np.ndarray:
    r"""The worst-case pmf of the DRO paper, eq 9, for ``losses`` :math:`z` and radius ``rho``.

    Solves

    .. math::

        \max_{P} \sum_i P_i z_i \quad \text{s.t.} \quad
        \frac{1}{N}\sum_i \phi(N P_i) \le \rho, \quad \sum_i P_i = 1, \quad P \ge 0

    (*Obtaining Explainable Classification Models using Distributionally Robust Optimization*, eq 9) with :math:`\phi(s) = (s-1)^2` (``"chi2"``)
    or :math:`\phi(s) = s\log s - s + 1` (``"kl"``).

    **KKT conditions used by** ``method="exact"``.  With multipliers
    :math:`\lambda \ge 0` (divergence row), :math:`\nu` (sum row) and
    :math:`\mu_i \ge 0` (:math:`P_i \ge 0`), stationarity of the Lagrangian in
    :math:`P_i` reads :math:`z_i - \lambda \phi'(N P_i) - \nu + \mu_i = 0`.

    * chi2: :math:`\phi'(s) = 2(s-1)`, so :math:`N P_i = 1 + (z_i - \nu + \mu_i)/(2\lambda)`;
      with complementary slackness this is

      .. math:: P_i = \frac{(z_i - \eta)_+}{\sum_j (z_j - \eta)_+},

      and, when the divergence row is active, :math:`\eta` solves
      :math:`g(\eta) := \frac{N \sum_i (z_i-\eta)_+^2}{(\sum_i (z_i-\eta)_+)^2} = 1 + \rho`.
      :math:`g` is non-decreasing (its derivative has the sign of
      :math:`p\,\mathbb{E}[(z-\eta)_+^2] - \mathbb{E}[(z-\eta)_+]^2 \ge 0`,
      Cauchy-Schwarz), runs from 1 (:math:`\eta \to -\infty`, support all rows) to
      :math:`N/k` (:math:`\eta \to \max z`, support the :math:`k` maximal rows).  On the
      support of the top :math:`j` losses (mean :math:`a_j`, variance
      :math:`\sigma_j^2`) the equation is :math:`\sigma_j^2/(a_j - \eta)^2 = (1+\rho)j/N - 1`,
      solved in closed form after locating the breakpoint interval of :math:`\eta`
      by one pass over the sorted losses.  Both regimes are exact: :math:`\eta < \min z`
      (every :math:`P_i > 0`) and :math:`\eta \ge \min z` (some :math:`P_i = 0`).
    * kl: :math:`\phi'(s) = \log s`, so :math:`P_i \propto \exp(z_i/\tau)` with
      :math:`\tau = \lambda > 0` (all :math:`P_i > 0`, :math:`\mu = 0`), and the active
      row is :math:`\log N - H(P_\tau) = \rho`.  The divergence decreases in
      :math:`\tau` from :math:`\log(N/k)` (:math:`\tau \to 0`) to 0
      (:math:`\tau \to \infty`); the root is found on :math:`\beta = 1/\tau` by a
      bracketed Newton search, with log-sum-exp evaluation.

    Limits: ``rho = 0`` or all ``z`` equal gives :math:`P^0`; ``rho >= N/k - 1`` (chi2)
    or ``rho >= log(N/k)`` (kl) makes the divergence row slack, and all mass goes to
    the :math:`k` maximal losses, shared uniformly (for KL the limit
    :math:`\tau \to 0`; for chi2 the optimum of least divergence among the optimal
    pmfs).

    Parameters
    ----------
    losses : array-like of shape (N,)
        The paper's :math:`z`: losses; finite.
    rho : float
        Radius of the divergence ball, ``>= 0`` (``inf`` drops the divergence row).
    divergence : {"chi2", "kl"}, default "chi2"
        Modified chi-square or Kullback-Leibler.
    method : {"exact", "cvxpy"}, default "exact"
        ``"exact"``: the Lagrangian solver above (milliseconds for N = 20,000).
        ``"cvxpy"``: solve :class:`WorstCasePmfModel` (Clarabel unless ``solver=``
        is passed in ``solve_options``).
    reference : array-like of shape (N,), optional
        The centre :math:`Q` of the ball when it is not uniform (positive weights, e.g.
        the normalized sample weights; ``method="exact"`` only): the constraint becomes
        :math:`\sum_i Q_i \phi(P_i/Q_i) \le \rho`, which with integer weights is eq 9 on
        the repeated rows (each row's mass the sum over its copies).
    **solve_options
        Passed to :meth:`WorstCasePmfModel.solve` when ``method="cvxpy"``.

    Returns
    -------
    numpy.ndarray of shape (N,)
        The worst-case pmf: non-negative, sums to 1, divergence ``<= rho``.

    Raises
    ------
    InputError
        Empty or non-finite ``losses``, ``rho < 0`` or NaN, unknown divergence or method.
    """
    z = _check_z(losses)
    rho = _check_rho(rho)
    divergence = _check_divergence(divergence)
    if not isinstance(method, str) or method.lower() not in _METHODS:
        raise InputError(f"method must be one of {_METHODS}, got {method!r}.")
    if reference is not None:
        if method.lower() != "exact":
            raise InputError("reference= is solved by method='exact' only.")
        if solve_options:
            raise InputError(f"solve options {sorted(solve_options)} only apply to "
                             "method='cvxpy'.")
        return _reference_exact(z, _check_reference(reference, z.size), rho, divergence)
    if method.lower() == "cvxpy":
        model = WorstCasePmfModel(z, rho, divergence)
        model.solve(**solve_options)
        return model.pmf_
    if solve_options:
        raise InputError(
            f"solve options {sorted(solve_options)} only apply to method='cvxpy'."
        )
    n = z.size
    zmax = z.max()
    if rho == 0.0 or zmax == z.min():
        return np.full(n, 1.0 / n)
    k = int(np.count_nonzero(z == zmax))
    if divergence == "chi2":
        if rho >= n / k - 1.0:
            return _argmax_uniform(z)
        return _chi2_exact(z, rho)
    if rho >= math.log(n / k):
        return _argmax_uniform(z)
    return _kl_exact(z, rho)


# --------------------------------------------------------------------------- CVXPY model
class WorstCasePmfModel(OptModel):
    r"""The worst-case pmf of the DRO paper, eq 9, as a declarative CVXPY model.

    .. math::

        \max_{P} \sum_{i \in \mathcal{S}} P_i z_i
        \quad \text{s.t.} \quad \sum_{i \in \mathcal{S}} \phi(N P_i) \le N \rho,
        \quad \sum_{i \in \mathcal{S}} P_i = 1, \quad P_i \ge 0

    (eq 9 of the DRO rule-ensemble paper).  The divergence row is written in the forms
    that solve cleanly with Clarabel:

    * chi2, :math:`\phi(s) = (s-1)^2`: :math:`\lVert N P - \mathbf{1} \rVert_2 \le \sqrt{\rho N}`
      (a second-order cone);
    * kl, :math:`\phi(s) = s \log s - s + 1`: since :math:`\sum_i P_i = 1`,
      :math:`\frac{1}{N}\sum_i \phi(N P_i) = \frac{1}{N}\sum_i \mathrm{rel\_entr}(N P_i, 1)`,
      written ``cp.sum(cp.rel_entr(N*p, 1))/N <= rho`` (exponential cones); Clarabel gets
      ``max_step_fraction=0.95`` unless told otherwise.

    The data enter as constants (no ``cp.Parameter``), and each instance builds its own
    ``Problem``.  ``rho = inf`` drops the divergence row.  For a fast exact answer use
    :func:`worst_case_pmf` (``method="exact"``); the two are tested equal.

    Parameters
    ----------
    losses : array-like of shape (N,)
        The paper's :math:`z`: losses, finite.
    rho : float
        Radius, ``>= 0``.
    divergence : {"chi2", "kl"}, default "chi2"

    Attributes
    ----------
    pmf_ : numpy.ndarray of shape (N,)
        The worst-case pmf (solver output with round-off negatives clipped and
        renormalized).
    objective_ : float
        :math:`\sum_i P_i z_i` at the solver's solution.
    result_ : SolveResult
    """

    default_solver = "clarabel"

    def __init__(self, losses: Any, rho: float, divergence: str = "chi2") -> None:
        self.losses = _check_z(losses)
        self.rho = _check_rho(rho)
        self.divergence = _check_divergence(divergence)

    def _build(self):
        import cvxpy as cp

        n = self.losses.size
        p = cp.Variable(n, nonneg=True, name="P")
        constraints = [cp.sum(p) == 1]
        if math.isfinite(self.rho):
            if self.divergence == "chi2":
                constraints.append(cp.norm(n * p - 1.0, 2) <= math.sqrt(self.rho * n))
            else:
                constraints.append(cp.sum(cp.rel_entr(n * p, 1.0)) / n <= self.rho)
        self._p = p
        return cp.Problem(cp.Maximize(self.losses @ p), constraints)

    def solve(self, solver: str | None = None, *, time_limit: float | None = None,
              mip_gap: float | None = None, verbose: bool = False, **options: Any):
        """Solve with Clarabel (default) or any capable backend; see :meth:`OptModel.solve`.

        For the KL form with Clarabel, ``max_step_fraction=0.95`` is added unless given:
        with the default step Clarabel failed or was inaccurate on some random instances
        at N = 20,000 (docs/user_guide/models.md).

        Parameters
        ----------
        solver : str, optional
            Solver name; ``None`` uses the model's ``default_solver``.
        time_limit : float, optional
            Seconds allowed to the solver.
        mip_gap : float, optional
            Relative MIP gap at which the solver stops.
        verbose : bool, default False
            Show the solver's log.
        **options
            Solver-specific options, passed on unchanged.

        Returns
        -------
        SolveResult
            Status, objective, bound, gap and values of the solve (also ``result_``).
        """
        from ..solvers import adapter

        if self.divergence == "kl":  # exponential cones: the solver's own settings for them
            for key, value in adapter(solver or self.default_solver).exp_cone_options.items():
                options.setdefault(key, value)
        return super().solve(solver, time_limit=time_limit, mip_gap=mip_gap,
                             verbose=verbose, **options)

    def _read_solution(self, result) -> None:
        self.model  # noqa: B018 - make sure _p exists
        value = self._p.value
        p = np.clip(np.asarray(value, dtype=float).ravel(), 0.0, None)
        total = p.sum()
        self.pmf_ = p / total if total > 0 else np.full(self.losses.size, 1.0 / self.losses.size)
        self.objective_ = float(result.objective)
