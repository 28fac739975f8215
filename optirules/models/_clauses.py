"""Clauses (conjunctions of literals), their coverage, and the pricing reduced cost.

A *literal matrix* ``A`` is a binary ``N x L`` array whose columns are literals
(features and, optionally, their negations, as a binarizer produces them).  A
*clause* is a sorted tuple of distinct literal indices; it covers row ``i`` iff
every one of its literals is 1 in row ``i`` (the empty clause covers every row).
Its complexity is ``c_k = 1 + |k|`` (the DRO paper, Section 3; Dash, Günlük and Wei 2018).

The one place where a clause's reduced cost is computed is :func:`reduced_costs`;
the exact pricing MILP and the beam search both report their clauses' reduced
costs through it, and the rule master's LP reduced costs are checked against it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError
from ._row_blocks import row_block_sum
from .options import MAX_ENUMERATED_CLAUSES

__all__ = [
    "PricingDuals",
    "all_clauses",
    "n_candidate_clauses",
    "Clause",
    "check_literal_matrix",
    "check_labels",
    "check_sample_weight",
    "check_cover_duals",
    "check_nonnegative",
    "normalize_clause",
    "normalize_clauses",
    "clause_degrees",
    "check_literal_costs",
    "required_bonus",
    "clause_costs",
    "clause_coverage",
    "ruleset_covers",
    "negative_loss",
    "weighted_hamming_loss",
    "row_prices",
    "complexity_costs",
    "reduced_costs",
    "clause_label",
    "row_label",
    "literal_label",
]

#: a clause: sorted tuple of distinct literal (column) indices of the literal matrix
Clause = tuple[int, ...]


# --------------------------------------------------------------------------- labels
def clause_label(k: int) -> str:
    """Readable index label of the ``k``-th clause column: ``clause_17``."""
    return f"clause_{k}"


def row_label(i: int) -> str:
    """Readable index label of data row ``i``: ``i_42``."""
    return f"i_{i}"


def literal_label(j: int) -> str:
    """Readable index label of literal (column of ``A``) ``j``: ``j_5``."""
    return f"j_{j}"


# ----------------------------------------------------------------------- validation
def check_literal_matrix(A: Any) -> np.ndarray:
    """Validate a binary literal matrix and return it as a C-contiguous boolean array.

    Raises
    ------
    InputError
        If ``A`` is not 2-D, is empty, holds NaN, or has entries other than 0/1.
    """
    try:
        arr = np.asarray(A)
    except Exception as exc:  # pragma: no cover - exotic inputs
        raise InputError(
            f"could not read the literal matrix as an array ({exc}); pass a 2-D 0/1 "
            "numpy array."
        ) from None
    if arr.ndim != 2:
        raise InputError(
            f"the literal matrix must be 2-D (rows x literals), got shape {arr.shape}; "
            "binarize the features first (e.g. with optirules.data.FeatureBinarizer)."
        )
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise InputError(
            f"the literal matrix is empty (shape {arr.shape}); pass at least one row "
            "and one literal."
        )
    if arr.dtype == bool:
        return np.ascontiguousarray(arr)
    if not np.issubdtype(arr.dtype, np.number):
        raise InputError(
            f"the literal matrix must be numeric 0/1 or boolean, got dtype {arr.dtype}; "
            "binarize the features first (e.g. with optirules.data.FeatureBinarizer)."
        )
    if np.issubdtype(arr.dtype, np.floating) and np.isnan(arr).any():
        raise InputError(
            "the literal matrix contains NaN; impute or binarize missing values "
            "before building rule models."
        )
    binary = (arr == 0) | (arr == 1)
    if not binary.all():
        bad = arr[~binary].ravel()[0]
        raise InputError(
            f"the literal matrix must hold only 0 and 1 (found {bad!r}); binarize the "
            "features first (e.g. with optirules.data.FeatureBinarizer)."
        )
    return np.ascontiguousarray(arr == 1)


def check_labels(y: Any, n_rows: int) -> np.ndarray:
    """Validate binary labels of length ``n_rows`` and return the boolean mask ``y == 1``."""
    arr = np.asarray(y)
    if arr.ndim != 1 or arr.shape[0] != n_rows:
        raise InputError(
            f"y must be a 1-D array with one label per row ({n_rows}), got shape "
            f"{arr.shape}."
        )
    if arr.dtype == bool:
        return arr.copy()
    if not np.issubdtype(arr.dtype, np.number):
        raise InputError(
            f"y must hold the labels 0 and 1, got dtype {arr.dtype}; encode the positive "
            "class as 1 and the other as 0."
        )
    if np.issubdtype(arr.dtype, np.floating) and np.isnan(arr).any():
        raise InputError("y contains NaN; drop or label those rows.")
    binary = (arr == 0) | (arr == 1)
    if not binary.all():
        raise InputError(
            f"y must hold only the labels 0 and 1 (found {arr[~binary][0]!r}); encode "
            "the positive class as 1 and the other as 0."
        )
    return arr == 1


def check_sample_weight(sample_weight: Any, n_rows: int) -> np.ndarray:
    """Validate sample weights ``P`` (default uniform ``1/N``) and return them as floats.

    Any non-negative finite weights with a positive sum are accepted as given
    (they are not renormalized; the DRO paper uses a pmf).
    """
    if sample_weight is None:
        return np.full(n_rows, 1.0 / n_rows)
    arr = np.asarray(sample_weight, dtype=float)
    if arr.ndim != 1 or arr.shape[0] != n_rows:
        raise InputError(
            f"sample_weight must be a 1-D array with one weight per row ({n_rows}), got "
            f"shape {arr.shape}."
        )
    if not np.isfinite(arr).all():
        raise InputError("sample_weight contains NaN or infinite values; pass finite weights.")
    if (arr < 0).any():
        raise InputError(
            f"sample_weight must be non-negative (found {arr.min():.3g}); pass a pmf over "
            "the rows."
        )
    if arr.sum() <= 0:
        raise InputError("sample_weight sums to 0; give at least one row a positive weight.")
    return arr


def check_cover_duals(mu: Any, n_pos: int, *, tol: float = 1e-9) -> np.ndarray:
    """Validate the cover-row duals ``mu`` (one per label-1 row, in row order).

    Values in ``[-tol, 0)`` (solver round-off) are clipped to 0; a clearly negative
    dual means the duals do not come from the master LP and is rejected.
    """
    arr = np.asarray(mu, dtype=float)
    if arr.ndim != 1 or arr.shape[0] != n_pos:
        raise InputError(
            f"mu must hold one dual per label-1 row ({n_pos}, in row order), got shape "
            f"{arr.shape}; pass RuleMasterModel.cover_duals_."
        )
    if not np.isfinite(arr).all():
        raise InputError("mu contains NaN or infinite values; pass the master LP's duals.")
    if (arr < -tol).any():
        raise InputError(
            f"the cover duals mu must be >= 0 (found {arr.min():.3g}); pass "
            "RuleMasterModel.cover_duals_ from a relaxed (relax=True) master."
        )
    return np.maximum(arr, 0.0)


def check_nonnegative(value: Any, name: str) -> float:
    """A finite non-negative float parameter, or an InputError naming it."""
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{name} must be a number, got {value!r}.") from None
    if not np.isfinite(out) or out < 0:
        raise InputError(f"{name} must be finite and >= 0, got {value!r}.")
    return out


# --------------------------------------------------------------------------- clauses
def normalize_clause(clause: Iterable[Any], n_literals: int) -> Clause:
    """Return ``clause`` as a sorted tuple of distinct literal indices in ``[0, n_literals)``.

    Repeated literals are merged (a conjunction with a repeated literal is the
    same conjunction).
    """
    if type(clause) is tuple and clause and all(type(j) is int for j in clause) and \
            0 <= clause[0] and clause[-1] < n_literals and \
            all(a < b for a, b in zip(clause, clause[1:])):
        return clause  # already normalized (column generation passes its pool each call)
    if isinstance(clause, (str, bytes)) or not isinstance(clause, Iterable):
        raise InputError(
            f"a clause must be an iterable of literal indices, got {clause!r}; e.g. (0, 4)."
        )
    out = []
    for j in clause:
        if isinstance(j, (bool, np.bool_)) or not isinstance(j, (int, np.integer)):
            raise InputError(
                f"clause {tuple(clause)!r} holds {j!r}; literal indices must be integers."
            )
        if not 0 <= int(j) < n_literals:
            raise InputError(
                f"clause {tuple(clause)!r} refers to literal {int(j)}, but the literal "
                f"matrix has {n_literals} columns (indices 0..{n_literals - 1})."
            )
        out.append(int(j))
    return tuple(sorted(set(out)))


def normalize_clauses(clauses: Iterable[Iterable[Any]], n_literals: int) -> list[Clause]:
    """Normalize every clause of ``clauses`` (see :func:`normalize_clause`)."""
    if isinstance(clauses, (str, bytes)) or not isinstance(clauses, Iterable):
        raise InputError(
            f"clauses must be a list of clauses (tuples of literal indices), got {clauses!r}."
        )
    return [normalize_clause(k, n_literals) for k in clauses]


def clause_degrees(clauses: Sequence[Clause], literal_costs: Any = None) -> np.ndarray:
    """Number of literals ``|k|`` of each clause; with ``literal_costs`` (one positive cost
    per literal) the sum of its literals' costs, the weighted count every complexity term
    then uses."""
    if literal_costs is not None:
        lc = np.asarray(literal_costs, dtype=float)
        return np.fromiter((lc[list(k)].sum() for k in clauses), dtype=float,
                           count=len(clauses))
    return np.fromiter((len(k) for k in clauses), dtype=np.int64, count=len(clauses))


def check_literal_costs(literal_costs: Any, n_lit: int) -> np.ndarray | None:
    """``None``, or one finite cost > 0 per literal."""
    if literal_costs is None:
        return None
    lc = np.asarray(literal_costs, dtype=float).reshape(-1)
    if lc.shape[0] != n_lit or not np.isfinite(lc).all() or (lc <= 0).any():
        raise InputError(f"literal_costs must hold one finite cost > 0 per literal ({n_lit}); "
                         "pass the weighted literal counts of feature_costs.")
    return lc


def clause_costs(clauses: Sequence[Clause], literal_costs: Any = None) -> np.ndarray:
    """Complexity ``c_k = 1 + |k|`` of each clause (the DRO paper; Dash et al. 2018);
    ``|k|`` weighted by ``literal_costs`` when given."""
    return 1.0 + clause_degrees(clauses, literal_costs).astype(float)


def clause_coverage(A: np.ndarray, clauses: Sequence[Clause]) -> np.ndarray:
    """Boolean ``N x K`` matrix whose column ``k`` marks the rows clause ``k`` covers.

    ``A`` must already be a boolean literal matrix (see ``check_literal_matrix``).

    Parameters
    ----------
    A : bool array of shape (N, L)
        Literal matrix.
    clauses : sequence of Clause
        Clauses as tuples of literal indices.

    Returns
    -------
    bool array of shape (N, K)
        Which rows each clause covers.
    """
    out = np.empty((A.shape[0], len(clauses)), dtype=bool, order="F")
    for k, clause in enumerate(clauses):
        if clause:
            np.logical_and.reduce(A[:, list(clause)], axis=1, out=out[:, k])
        else:
            out[:, k] = True
    return out


def ruleset_covers(A: np.ndarray, clauses: Sequence[Clause]) -> np.ndarray:
    """Rows covered by at least one clause: the DNF rule set's prediction ``y_hat = 1``."""
    if len(clauses) == 0:
        return np.zeros(A.shape[0], dtype=bool)
    return clause_coverage(A, clauses).any(axis=1)


def negative_loss(coverage: np.ndarray, y: np.ndarray, P: np.ndarray) -> np.ndarray:
    """Objective coefficient of each clause in the master: ``sum_{i in Z, k covers i} P_i``."""
    return priced_coverage(np.where(y, 0.0, P), coverage)


def priced_coverage(v: np.ndarray, coverage: np.ndarray) -> np.ndarray:
    r""":math:`v^\top C`: each clause's sum of the prices ``v`` of the rows it covers
    (``coverage`` the boolean ``N x K`` matrix of :func:`clause_coverage`), by blocks of rows
    so that no float64 copy of the whole coverage is made (``_row_blocks``)."""
    return row_block_sum(lambda s: v[s] @ coverage[s], coverage.shape[0], coverage.shape[1])


def weighted_hamming_loss(A: np.ndarray, y: np.ndarray, clauses: Sequence[Clause],
                          P: np.ndarray) -> float:
    """Weighted Hamming loss of a rule set (the master IP objective without penalties).

    ``sum_{i in P+} P_i [no clause covers i] + sum_k sum_{i in Z, k covers i} P_i``
    (the DRO paper, eq 6 at the optimal ``xi``).
    """
    cov = clause_coverage(A, clauses)
    missed = y & ~cov.any(axis=1)
    return float(P[missed].sum() + negative_loss(cov, y, P).sum())


# ------------------------------------------------------------------- reduced costs
def row_prices(y: np.ndarray, P: np.ndarray, mu: np.ndarray, sigma: Any = None
               ) -> np.ndarray:
    """Price ``v_i`` a clause pays for covering row ``i`` in the pricing problem.

    ``v_i = P_i`` for ``i in Z`` (label 0) and ``v_i = -mu_i P_i`` for ``i in P+``
    (label 1), with ``mu`` given over the label-1 rows in row order: the duals of
    the DRO paper eq 7 scaled by the sample weights.  With the fairness rows of the
    label-0 rows, ``v_i = P_i (1 - sigma_i)`` there (``sigma`` the duals of their
    ``neg_cover`` rows, over the label-0 rows in row order; it may make ``v_i < 0``).

    Parameters
    ----------
    y : array of shape (N,)
        0/1 labels.
    P : array of shape (N,)
        Row weights.
    mu : array of shape (n_positive,)
        Duals of the label-1 rows' covering constraints, in row order.
    sigma : array of shape (n_negative,), optional
        Duals of the label-0 rows' fairness ``neg_cover`` rows, in row order.

    Returns
    -------
    ndarray of shape (N,)
        The price of each row.
    """
    v = P.astype(float).copy()
    v[y] = -mu * P[y]
    if sigma is not None:
        v[~y] = P[~y] * (1.0 - np.asarray(sigma, dtype=float))
    return v


def complexity_costs(degrees: Any, lam: float = 0.0, lambda0: float = 0.0,
                     lambda1: float = 0.0) -> np.ndarray:
    """Complexity part of the reduced cost: ``lam * c_k + lambda0 + lambda1 * |k|``.

    ``lam`` is the (non-negative) dual of the complexity budget row (the DRO paper eq 8),
    ``lambda0``/``lambda1`` the penalty form's per-clause and per-literal costs.

    Parameters
    ----------
    degrees : array-like of int
        Number of literals of each clause.
    lam : float, default 0.0
        Dual of the complexity budget row.
    lambda0 : float, default 0.0
        Cost per clause.
    lambda1 : float, default 0.0
        Cost per literal.

    Returns
    -------
    ndarray of float
        The complexity part of each clause's reduced cost.
    """
    deg = np.asarray(degrees, dtype=float)
    return (lam + lambda0) + (lam + lambda1) * deg


@dataclass(frozen=True)
class PricingDuals:
    r"""The duals pricing reads from a solved restricted master, as one value.

    :meth:`of` takes a master's ``duals_for_pricing_`` whole (its ``mu`` and ``lam`` are
    ``cover_duals`` and ``complexity_dual`` here).

    Parameters
    ----------
    cover_duals : array of shape (n_pos,)
        Cover duals :math:`\mu_i \ge 0`, one per label-1 row in row order.
    complexity_dual : float, default 0.0
        The complexity row's dual :math:`\lambda \ge 0`.
    lambda0, lambda1 : float, default 0.0
        The cost per clause and per literal pricing charges: the penalties plus the duals
        of the ``max_rules`` and ``max_literals`` rows.
    sigma : array of shape (n_negative,), optional
        The label-0 rows' fairness duals (:func:`row_prices`).
    required_duals : sequence of float, optional
        The duals :math:`\rho_f \ge 0` of the required rows.

    Examples
    --------
    >>> PricingDuals([0.5, 1.0], complexity_dual=0.1).lambda0
    0.0
    """

    cover_duals: Any
    complexity_dual: float = 0.0
    lambda0: float = 0.0
    lambda1: float = 0.0
    sigma: Any = None
    required_duals: Any = None

    @classmethod
    def of(cls, duals: PricingDuals | Mapping[str, Any]) -> PricingDuals:
        """``duals`` as a :class:`PricingDuals` (a master's ``duals_for_pricing_`` mapping,
        or a :class:`PricingDuals` as it is).

        Parameters
        ----------
        duals : PricingDuals or mapping

        Returns
        -------
        PricingDuals
        """
        if isinstance(duals, cls):
            return duals
        names = {"mu": "cover_duals", "lam": "complexity_dual"}
        return cls(**{names.get(k, k): v for k, v in duals.items()})


def reduced_costs(A: Any, y: Any, clauses: Iterable[Iterable[Any]],
                  duals: PricingDuals | Mapping[str, Any], *, sample_weight: Any = None,
                  literal_costs: Any = None, required: Any = None) -> np.ndarray:
    r"""Reduced cost of each clause's column in the LP relaxation of the rule master.

    .. math::

        r(k) = \lambda c_k + \lambda_0 + \lambda_1 |k|
               + \sum_{i \in Z,\ k \text{ covers } i} P_i
               - \sum_{i \in P^+,\ k \text{ covers } i} \mu_i P_i ,
        \qquad c_k = 1 + |k| ,

    where :math:`\mu` are the duals of the cover rows (the DRO paper eq 7, scaled by
    :math:`P_i` as the paper says) and :math:`\lambda` the dual of the complexity row
    (eq 8) reported as a non-negative number; :math:`\lambda_0, \lambda_1` are the
    penalty form's costs (zero in the budget form).  This is exactly the reduced
    cost of column :math:`w_k` of the master LP (tested against HiGHS's).

    Parameters
    ----------
    A : array of shape (N, L)
        Binary literal matrix.
    y : array of shape (N,)
        Labels in {0, 1}.
    clauses : iterable of tuples of int
        The clauses to price.
    duals : PricingDuals or mapping
        The cover duals :math:`\mu` (one per label-1 row in row order,
        ``RuleMasterModel.cover_duals_``), the complexity-row dual :math:`\lambda`, the
        per-clause and per-literal costs, and the fairness and required rows' duals
        (:class:`PricingDuals`; a master's ``duals_for_pricing_`` mapping is taken as it is).
    sample_weight : array of shape (N,), optional
        Weights ``P`` (default uniform ``1/N``).
    literal_costs : array of shape (L,), optional
        A cost per literal: :math:`|k|` is then the sum of its literals' costs.
    required : sequence, optional
        Groups of literals (required features): a clause using group :math:`f` has
        the dual :math:`\rho_f \ge 0` of its row (``duals.required_duals``) less reduced
        cost.

    Returns
    -------
    ndarray of shape (K,)
    """
    duals = PricingDuals.of(duals)
    lam, lambda0, lambda1 = duals.complexity_dual, duals.lambda0, duals.lambda1
    sigma, required_duals = duals.sigma, duals.required_duals
    A = check_literal_matrix(A)
    yb = check_labels(y, A.shape[0])
    P = check_sample_weight(sample_weight, A.shape[0])
    mu = check_cover_duals(duals.cover_duals, int(yb.sum()))
    lam = check_nonnegative(lam, "lam")
    lambda0 = check_nonnegative(lambda0, "lambda0")
    lambda1 = check_nonnegative(lambda1, "lambda1")
    ks = normalize_clauses(clauses, A.shape[1])
    cov = clause_coverage(A, ks)
    out = complexity_costs(clause_degrees(ks, literal_costs), lam, lambda0, lambda1) \
        + priced_coverage(row_prices(yb, P, mu, sigma), cov)
    if required:
        out = out - required_bonus(ks, required, required_duals)
    return out


def required_bonus(clauses: Sequence[Clause], required: Sequence[Any],
                   required_duals: Sequence[float]) -> np.ndarray:
    r""":math:`\sum_f \rho_f [k \text{ uses group } f]` for each clause ``k``."""
    out = np.zeros(len(clauses))
    for group, r in zip(required, required_duals):
        g = set(group)
        out += float(r) * np.array([bool(g.intersection(k)) for k in clauses], dtype=float)
    return out




def n_candidate_clauses(n_literals: int, max_degree: int) -> int:
    r"""The number of clauses of 1 to ``max_degree`` of ``n_literals`` literals,
    :math:`\sum_{d \le D} \binom{L}{d}` (what :func:`all_clauses` would enumerate).

    Parameters
    ----------
    n_literals : int
        Number of literals ``L``.
    max_degree : int
        Most literals in a clause ``D``.

    Returns
    -------
    int
        The number of candidate clauses.

    Examples
    --------
    >>> n_candidate_clauses(4, 2)
    10
    """
    n, k = int(n_literals), int(max_degree)
    return sum(math.comb(n, d) for d in range(1, min(k, n) + 1))


def all_clauses(A: np.ndarray, y: np.ndarray, max_degree: int, names: list[str] | None = None):
    r"""Every clause of 1..max_degree literals that covers a positive row of ``A`` (the full
    column set of the rule master, for small problems: the pool column generation avoids).

    Pairs of literals on the same feature are skipped (they are contradictory or
    redundant for threshold and category literals alike) when ``names`` is given.  The
    number of candidates, :math:`\sum_{d \le D} \binom{L}{d}` for ``L`` literals, is known
    before any work: past ``MAX_ENUMERATED_CLAUSES`` an :class:`~optirules.errors.InputError` gives it.

    Parameters
    ----------
    A : bool array of shape (N, L)
        Literal matrix.
    y : array of shape (N,)
        0/1 labels.
    max_degree : int
        Most literals in a clause.
    names : list of str, optional
        The feature of each literal; given, clauses with two literals on one feature are
        skipped.

    Returns
    -------
    list of Clause
        The clauses, each a sorted tuple of literal indices.
    """
    A = np.asarray(A, dtype=bool)
    if isinstance(max_degree, bool) or not isinstance(max_degree, (int, np.integer)) \
            or max_degree < 1:
        raise InputError(f"max_degree must be an integer >= 1, got {max_degree!r}.")
    n_lit = A.shape[1] if A.ndim == 2 else 0
    count = n_candidate_clauses(n_lit, int(max_degree))
    if count > MAX_ENUMERATED_CLAUSES:
        raise InputError(
            f"enumerating every clause of at most {max_degree} of {n_lit} literals means "
            f"{count:.3g} candidates, more than {MAX_ENUMERATED_CLAUSES:,}; use a smaller "
            "max_degree or fewer literals (a coarser binarizer), or column generation, "
            "which prices clauses without listing them.")
    pos = A[np.asarray(y) == 1]
    feature = None
    if names is not None:
        feature = [n.split(" ")[0] for n in names]
    out = []
    L = A.shape[1]
    for d in range(1, max_degree + 1):
        for clause in itertools.combinations(range(L), d):
            if feature is not None and len({feature[j] for j in clause}) < d:
                continue
            if pos[:, list(clause)].all(axis=1).any():
                out.append(clause)
    return out
