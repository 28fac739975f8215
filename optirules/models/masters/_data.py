"""The data every restricted master shares: the validated literal matrix, labels,
weights and penalties with the clause pool (:class:`MasterData`), the pool view, and the
merging of rows that have the same label and coverage."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import numpy as np

from ...errors import InputError
from .._clauses import (
    Clause,
    check_labels,
    check_literal_costs,
    check_literal_matrix,
    check_nonnegative,
    check_sample_weight,
    clause_costs,
    clause_coverage,
    clause_degrees,
    complexity_costs,
    negative_loss,
    normalize_clauses,
    priced_coverage,
    row_prices,
)
from .._problem import RuleSetProblem
from .._row_blocks import row_slices
from ._fairness import FairnessRows


def aggregate_rows(coverage: np.ndarray, labels: np.ndarray, weights: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Merge the rows that have the same label and the same coverage over a clause pool.

    Two label-1 rows ``i, j`` covered by the same clauses give the cover rows
    :math:`\xi_i + P_i \sum_{k \in K_i} w_k \ge P_i` and the same with ``j``; at any
    :math:`w` their least :math:`\xi` are :math:`P_i \max(0, 1 - \sum_{K_i} w_k)` and
    the same with :math:`P_j`, so the pair is one row of weight :math:`P_i + P_j` (the IP and
    the LP keep their optimum and their optimal ``w``).  Label-0 rows enter only the clause
    costs :math:`\sum_{i \in Z_k} P_i`, which a merged row of summed weight keeps.

    Parameters
    ----------
    coverage : bool array of shape (N, K)
        ``coverage[i, k]``: clause ``k`` covers row ``i``.
    labels : bool array of shape (N,)
    weights : array of shape (N,)

    Returns
    -------
    first : int array of shape (G,)
        One row of each group (its first, in row order; groups in order of their first row).
    group_weights : array of shape (G,)
        The summed weight of each group.
    group : int array of shape (N,)
        The group of each row.
    """
    labels = np.asarray(labels, dtype=bool).astype(np.int64).ravel()
    group, first = refine_groups(labels, coverage)
    return first, np.bincount(group, weights=np.asarray(weights, dtype=float),
                              minlength=first.size), group


#: operators of a condition's text and how :func:`lp_name` spells them
_LP_OPERATORS = (("<=", "_le_"), (">=", "_ge_"), ("!=", "_ne_"), ("==", "_eq_"),
                 ("<", "_lt_"), (">", "_gt_"), ("=", "_eq_"), (" AND ", "_and_"),
                 ("&", "_and_"), ("-", "m"), (".", "p"))


def lp_name(text: str, max_length: int = 200) -> str:
    """``text`` as a column name every LP-format reader takes unchanged.

    Operators become words (``<=`` -> ``_le_``, ``AND`` -> ``_and_``), ``.`` becomes ``p``
    and ``-`` ``m`` (so ``x1 <= -0.19`` is ``x1_le_m0p19``), any other character outside
    ``[A-Za-z0-9_]`` ``_``; the result is cut to ``max_length`` characters (LP files allow
    255) and starts with a letter.
    """
    out = str(text)
    for op, word in _LP_OPERATORS:
        out = out.replace(op, word)
    out = re.sub(r"[^A-Za-z0-9_]", "_", out.replace(" ", ""))
    out = re.sub(r"_+", "_", out).strip("_") or "clause"
    if not out[0].isalpha():
        out = "c" + out
    return out[:max_length]


def check_required(required: Any, n_lit: int) -> list[frozenset[int]]:
    """The required groups: each a non-empty set of literal indices (a feature's literals),
    of which every rule set must use at least one."""
    out = []
    for group in required or ():
        g = frozenset(int(j) for j in group)
        if not g or not all(0 <= j < n_lit for j in g):
            raise InputError(f"a required group must hold literal indices in 0 .. {n_lit - 1}, "
                             f"got {sorted(g)}.")
        out.append(g)
    return out


def check_limit(value: Any, name: str) -> int | None:
    """``None``, or a whole number >= 1 (``max_rules``, ``max_literals``)."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
            or value < 1:
        raise InputError(f"{name} must be None or a whole number >= 1, got {value!r}.")
    return int(value)


class MasterData:
    """Validated data and the clause pool shared by the Pyomo master and the highspy path:
    the master's part of a :class:`~optirules.models.RuleSetProblem` (its literal matrix,
    labels, weights, budget, penalties and side constraints; the degree and the
    conflicts are pricing's)."""

    def __init__(self, problem: RuleSetProblem) -> None:
        pb = problem
        self.A = check_literal_matrix(pb.literals)
        n_rows = self.A.shape[0]
        self.y = check_labels(pb.labels, n_rows)
        if not self.y.any():
            raise InputError(
                "y has no label-1 row, so the rule master has nothing to cover; pass data "
                "with at least one positive example."
            )
        self.P = check_sample_weight(pb.sample_weight, n_rows)
        self.pos = np.flatnonzero(self.y)
        complexity = pb.complexity
        if complexity is not None:
            complexity = check_nonnegative(complexity, "complexity")
        self.budget = complexity
        self.lambda0 = check_nonnegative(pb.lambda0, "lambda0")
        self.lambda1 = check_nonnegative(pb.lambda1, "lambda1")
        self.max_rules = check_limit(pb.max_rules, "max_rules")
        self.max_literals = check_limit(pb.max_literals, "max_literals")
        self.literal_costs = check_literal_costs(pb.literal_costs, self.A.shape[1])
        self.required = check_required(pb.required, self.A.shape[1])
        # the cost of a required row's artificial column: above any rule set's objective
        # (every row missed or covered by every pool clause costs at most the total weight
        # per clause), so the LP uses it only while no pool clause meets the row
        self.big_m = 10.0 * (1.0 + float(self.P.sum()))
        self.neg = np.flatnonzero(~self.y)
        self.fair: FairnessRows | None = None
        if pb.fairness is not None:
            self.fair = FairnessRows(self.y, self.P, pb.groups, pb.fairness,
                                     pb.fairness_tolerance)
        self.clauses: list[Clause] = []
        self.index: dict[Clause, int] = {}
        self.coverage = np.zeros((n_rows, 0), dtype=bool)
        self.neg_loss = np.zeros(0)
        self.cost = np.zeros(0)
        self.penalty = np.zeros(0)

    def add(self, clauses: Iterable[Iterable[Any]]) -> list[int]:
        """Append the clauses not yet in the pool; return the indices of the new ones."""
        new: list[Clause] = []
        for k in normalize_clauses(clauses, self.A.shape[1]):
            if k not in self.index:
                self.index[k] = len(self.clauses) + len(new)
                new.append(k)
        if not new:
            return []
        cov = clause_coverage(self.A, new)
        start = len(self.clauses)
        self.clauses.extend(new)
        self.coverage = np.concatenate([self.coverage, cov], axis=1)
        self.neg_loss = np.concatenate([self.neg_loss, negative_loss(cov, self.y, self.P)])
        lc = self.literal_costs
        self.cost = np.concatenate([self.cost, clause_costs(new, lc)])
        self.penalty = np.concatenate(
            [self.penalty,
             complexity_costs(clause_degrees(new, lc), 0.0, self.lambda0, self.lambda1)]
        )
        return list(range(start, len(self.clauses)))

    def covered_weight(self, w: np.ndarray) -> np.ndarray:
        r"""Each label-1 row's :math:`\sum_{k \ni i} w_k` over the pool, by blocks of rows
        (no float64 copy of the label-1 rows' coverage; one block: the unblocked product)."""
        out = np.empty(self.pos.size)
        for s in row_slices(self.pos.size, len(self.clauses)):
            out[s] = self.coverage[self.pos[s]] @ w
        return out

    def set_penalties(self, lambda0: float, lambda1: float) -> None:
        """New penalties per clause and per literal: every pool column's penalty cost
        follows."""
        self.lambda0 = check_nonnegative(lambda0, "lambda0")
        self.lambda1 = check_nonnegative(lambda1, "lambda1")
        self.penalty = complexity_costs(clause_degrees(self.clauses, self.literal_costs),
                                        0.0, self.lambda0, self.lambda1).astype(float)

    @property
    def form(self) -> str:
        penalty = self.lambda0 > 0 or self.lambda1 > 0
        if self.budget is not None:
            return "budget+penalty" if penalty else "budget"
        return "penalty"

    @property
    def limits(self) -> list[tuple[str, float, float, int]]:
        r"""The limit rows ``(name, per clause, per literal, right-hand side)``:
        ``max_rules`` (:math:`\sum_k w_k \le R`) and ``max_literals``
        (:math:`\sum_k |k| w_k \le M`), those that are set."""
        out = []
        if self.max_rules is not None:
            out.append(("max_rules", 1.0, 0.0, self.max_rules))
        if self.max_literals is not None:
            out.append(("max_literals", 0.0, 1.0, self.max_literals))
        return out

    def limit_coefficients(self, index: Any) -> np.ndarray:
        """The limit rows' coefficients of the pool columns ``index``: shape (rows, k)."""
        deg = self.degrees[np.asarray(index, dtype=np.int64)]
        return np.array([a0 + a1 * deg for _, a0, a1, _ in self.limits]).reshape(
            len(self.limits), deg.size)

    @property
    def degrees(self) -> np.ndarray:
        """The number of literals of each pool clause (weighted by ``literal_costs``)."""
        return self.cost - 1.0

    def required_coefficients(self, index: Any) -> np.ndarray:
        """Whether each pool column ``index`` uses each required group: shape (groups, k)."""
        idx = np.asarray(index, dtype=np.int64)
        return np.array([[bool(set(self.clauses[k]) & g) for k in idx]
                         for g in self.required], dtype=float).reshape(len(self.required),
                                                                       idx.size)

    def pricing_duals(self, mu: np.ndarray, lam: float, limit_duals: Any = (),
                      sigma: Any = None, required_duals: Any = None) -> dict[str, Any]:
        r"""The duals pricing takes: a limit row's dual :math:`\nu \ge 0` adds to the
        per-clause (``max_rules``) or per-literal (``max_literals``) penalty, since a
        column's coefficient in that row is 1 or :math:`|k|`."""
        lambda0, lambda1 = self.lambda0, self.lambda1
        for (_, a0, a1, _), nu in zip(self.limits, limit_duals):
            lambda0 += a0 * max(float(nu), 0.0)
            lambda1 += a1 * max(float(nu), 0.0)
        out = {"mu": np.array(mu, dtype=float, copy=True), "lam": max(float(lam), 0.0) + 0.0,
               "lambda0": lambda0, "lambda1": lambda1}
        if self.fair is not None and self.fair.negative:  # the label-0 rows' neg_cover duals
            out["sigma"] = np.maximum(np.asarray(sigma, dtype=float), 0.0)
        if self.required:  # a required row's dual: a bonus for a clause using its group
            rd = np.asarray(required_duals, dtype=float).reshape(-1)
            out["required_duals"] = np.maximum(rd, 0.0) + 0.0
        return out

    def reduced_costs(self, mu: np.ndarray, lam: float, lambda0: float | None = None,
                      lambda1: float | None = None, sigma: Any = None,
                      required_duals: Any = None) -> np.ndarray:
        """Reduced costs of the pool's columns (the same formula as
        ``_clauses.reduced_costs``; ``lambda0``/``lambda1`` the penalties with the limit
        rows' duals added, :meth:`pricing_duals`; ``sigma`` the label-0 rows' fairness
        duals).  With fairness rows the pair rows' duals of the pool columns are left out,
        which can only lower these values (a bound for reduced-cost fixing)."""
        v = row_prices(self.y, self.P, mu, sigma)
        out = complexity_costs(clause_degrees(self.clauses, self.literal_costs), lam,
                               self.lambda0 if lambda0 is None else lambda0,
                               self.lambda1 if lambda1 is None else lambda1) \
            + priced_coverage(v, self.coverage)
        if required_duals is not None and self.clauses:
            uses = self.required_coefficients(range(len(self.clauses)))
            out = out - np.asarray(required_duals) @ uses
        return out


class PoolView:
    """The clause pool and the form of a master, shared by both master classes."""

    _data: MasterData

    @property
    def clauses_(self) -> list[Clause]:
        """The clause pool; column ``k`` is labelled ``clause_k``."""
        return list(self._data.clauses)

    @property
    def form(self) -> str:
        """``"budget"``, ``"penalty"`` or ``"budget+penalty"``."""
        return self._data.form



def refine_groups(group: np.ndarray, coverage: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Split the row groups ``group`` by the rows' coverage of new clauses.

    Returns the new group of each row (numbered in order of their first row) and the first
    row of each group."""
    n = group.shape[0]
    key = np.concatenate([group.astype("<i8").reshape(n, 1).view(np.uint8),
                          np.packbits(np.asarray(coverage, dtype=bool), axis=1)], axis=1)
    view = np.ascontiguousarray(key).view(np.dtype((np.void, key.shape[1]))).ravel()
    _, first, inverse = np.unique(view, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return rank[inverse.reshape(-1)], first[order]

