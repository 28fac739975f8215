"""Checks and linear algebra of the QMM pruning model: the parameter checks, identical
columns grouped, the pivoted-QR basis and its covariance rank, the distinct margin rows,
and the simplex-constrained least squares of the ``least_squares`` formulation."""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from ..errors import InputError

__all__ = ["PickledResult", "check_choice", "check_positive", "check_upsilon", "complemented_rows",
           "covariance_rank", "distinct_margin_rows", "group_identical_columns",
           "pivoted_qr_basis", "simplex_lstsq"]


def check_upsilon(upsilon: Any) -> float | str:
    if isinstance(upsilon, str):
        if upsilon.lower() == "emargin":
            return "emargin"
        raise InputError(
            f"upsilon must be a number in (0, 1] or the string 'emargin', got {upsilon!r}."
        )
    if isinstance(upsilon, bool) or not isinstance(upsilon, numbers.Real):
        raise InputError(
            f"upsilon must be a number in (0, 1] or 'emargin', got {upsilon!r} "
            f"({type(upsilon).__name__})."
        )
    value = float(upsilon)
    if not (math.isfinite(value) and 0.0 < value <= 1.0):
        raise InputError(
            f"upsilon must lie in (0, 1] (the fraction of smallest margins to protect), got "
            f"{upsilon!r}; the paper uses 0.5 for AdaBoost and 0.25 for random forests, or "
            "pass upsilon='emargin'."
        )
    return value


def check_choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value.lower() not in choices:
        raise InputError(f"{name} must be one of {choices}, got {value!r}.")
    return value.lower()


def check_positive(name: str, value: Any, *, allow_none: bool = False) -> float | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputError(f"{name} must be a positive number, got {value!r}.")
    value = float(value)
    if not (math.isfinite(value) and value > 0):
        raise InputError(f"{name} must be a positive finite number, got {value!r}.")
    return value


def group_identical_columns(H: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Group identical columns of a +-1 matrix.

    Returns ``(rep, group)``: ``rep[k]`` is the lowest member index of group ``k`` (groups
    ordered by it) and ``group[t]`` the group of member ``t``.
    """
    packed = np.packbits(H > 0, axis=0)  # exact: columns equal iff their bit patterns are
    _, first, inverse = np.unique(packed, axis=1, return_index=True, return_inverse=True)
    inverse = np.asarray(inverse).reshape(-1)
    order = np.argsort(first, kind="stable")
    rank_of = np.empty_like(order)
    rank_of[order] = np.arange(order.size)
    return first[order], rank_of[inverse]


def pivoted_qr_basis(M: np.ndarray, rank_tol: float | None) -> tuple[np.ndarray, int]:
    """Column pivots of ``M`` (``scipy.linalg.qr(..., pivoting=True)``) and its numerical rank.

    The rank counts ``|R_kk| > tol`` with ``tol = max(n, T) * eps * |R_00|`` unless
    ``rank_tol`` (relative to ``|R_00|``) is given.

    +-1 columns all have norm sqrt(n), and later residual norms tie often, so LAPACK's
    choice among tied pivots would follow round-off (it changed with the number of BLAS
    threads in our runs).  Column ``j`` is therefore scaled by ``1 + 1e-9 (T - j)`` first:
    scaling changes no span, and exact ties now go to the lowest member index.
    """
    from scipy.linalg import qr

    T = M.shape[1]
    scale = 1.0 + 1e-9 * (T - np.arange(T))
    R, piv = qr(M * scale, mode="r", pivoting=True)
    diag = np.abs(np.diag(R))
    if diag.size == 0 or diag[0] == 0:
        return piv[:0], 0
    rel = rank_tol if rank_tol is not None else max(M.shape) * np.finfo(float).eps
    rank = int(np.count_nonzero(diag > rel * diag[0]))
    return piv, rank


def covariance_rank(E_basis: np.ndarray, rank_tol: float | None) -> tuple[int, bool]:
    r"""Numerical rank of the sample covariance of the columns of ``E_basis`` and whether it is singular.

    The rank of :math:`\operatorname{cov}(\mathbf E')` is that of the centred matrix
    :math:`\mathbf E' - \mathbf 1\bar{\mathbf e}'^\top`; it counts the singular values of
    the centred matrix above ``tol * s_max`` with ``tol = max(n, r) * eps`` (or ``rank_tol``).
    The covariance is singular when that rank is below the number of columns :math:`r` —
    always when :math:`n \le r` (centring removes one dimension), and whenever a combination
    of the basis columns is constant (e.g. a member right on every training row).
    """
    n, r = E_basis.shape
    if r == 0:
        return 0, False
    if n < 2:
        return 0, True
    C = E_basis - E_basis.mean(axis=0, keepdims=True)
    sv = np.linalg.svd(C, compute_uv=False)
    if sv.size == 0 or sv[0] == 0:
        return 0, True
    rel = rank_tol if rank_tol is not None else max(n, r) * np.finfo(float).eps
    rank = int(np.count_nonzero(sv > rel * sv[0]))
    return rank, rank < r


def distinct_margin_rows(Lam: np.ndarray, phi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Distinct rows of the +-1 matrix ``Lam``, each with the largest ``phi`` of its copies.

    Identical rows of :math:`\boldsymbol\Lambda'` give the same left-hand side, so only the
    largest right-hand side binds: the feasible set, hence the optimum, is unchanged.
    """
    if Lam.shape[1] == 0 or Lam.shape[0] == 0:
        return Lam, phi
    packed = np.packbits(Lam > 0, axis=1)
    _, first, inverse = np.unique(packed, axis=0, return_index=True, return_inverse=True)
    inverse = np.asarray(inverse).reshape(-1)
    b = np.full(first.size, -np.inf)
    np.maximum.at(b, inverse, phi)
    return Lam[first], b


def complemented_rows(A: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""The margin rows of the +-1 matrix ``A`` in a sparse form, exact on the simplex.

    With :math:`\mathbf 1^\top\mathbf w = 1`, a row :math:`\mathbf a^\top\mathbf w \ge
    b` equals :math:`\tfrac12(\mathbf a + \mathbf 1)^\top\mathbf w \ge \tfrac12(b + 1)`
    (0/1 entries where :math:`\mathbf a` is +1) and :math:`\tfrac12(\mathbf a -
    \mathbf 1)^\top\mathbf w \ge \tfrac12(b - 1)` (0/-1 entries where it is -1); each row
    takes the form with fewer nonzeros.  The lower-margin rows are mostly right, so about a
    third of the entries remain (docs/papers/qmm_pruning.md), and the solvers' factorizations
    get cheaper.
    """
    plus = np.count_nonzero(A > 0, axis=1) * 2 > A.shape[1]
    A_s = np.where(plus[:, None], -(A < 0).astype(float), (A > 0).astype(float))
    b_s = np.where(plus, (b - 1.0) / 2.0, (b + 1.0) / 2.0)
    return A_s, b_s


def simplex_lstsq(A: np.ndarray, b: np.ndarray) -> np.ndarray:
    r"""``argmin ||A c - b||_2`` over the simplex ``{c >= 0, sum c = 1}``.

    Solved by non-negative least squares with the sum row appended with a large weight
    (Lawson and Hanson's weighting method for an equality constraint), then renormalised.
    """
    from scipy.optimize import nnls

    n, r = A.shape
    weight = 1e3 * math.sqrt(max(n, 1)) * max(1.0, float(np.abs(A).max()))
    A_aug = np.vstack([A, np.full((1, r), weight)])
    b_aug = np.append(b, weight)
    c, _ = nnls(A_aug, b_aug, maxiter=50 * max(r, 10))
    total = c.sum()
    if not np.isfinite(total) or total <= 0:  # pragma: no cover - nnls always has mass here
        return np.full(r, 1.0 / r)
    return c / total


class PickledResult:
    """The fields of a ``SolveResult`` in a pickled :class:`QMMModel` (plain dicts)."""

    def __init__(self, fields: dict[str, Any]) -> None:
        self.fields = fields
