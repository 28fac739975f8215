r"""The weighted Hamming-loss rule master of the DRO paper (eqs 6-8) and its highspy fast path.

The DRO paper (*Obtaining Explainable Classification Models using Distributionally Robust Optimization*, Section 3, "Column Generation for (4)")
chooses a DNF rule set from a pool of clauses ``K`` by

.. math::

    \min\ & \sum_{i \in P^+} \xi_i + \sum_{k \in K} \Big(\sum_{i \in Z_k} P_i\Big) w_k
        && (6)\\
    \text{s.t. } & \xi_i + P_i \sum_{k \in K_i} w_k \ge P_i,\quad \xi_i \ge 0,
        \quad i \in P^+ && (7)\\
    & \sum_{k \in K} c_k w_k \le C,\quad w_k \in \{0, 1\},\ k \in K && (8)

with ``Z_k`` the label-0 rows clause ``k`` covers (the paper's sentence defining
``Z_k`` omits "covered by k"; its next paragraph, "rules ... that give incorrect
values to 0 label data points", fixes the meaning) and ``K_i`` the clauses covering
row ``i``.  The paper writes :math:`\sum_i \xi_i` *without* a weight: ``xi_i``
already carries ``P_i`` through (7) (at the optimum ``xi_i = P_i`` when row ``i``
is missed, 0 otherwise), and only label-1 rows have a ``xi``.  The penalty form of
BRCG implementations drops the budget row and adds
:math:`\sum_k (\lambda_0 + \lambda_1 |k|) w_k` to the objective.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..errors import InputError, SolverError
from ._base import OptModel
from ._clauses import (
    Clause,
    check_labels,
    check_literal_matrix,
    check_nonnegative,
    check_sample_weight,
    clause_costs,
    clause_coverage,
    clause_degrees,
    clause_label,
    complexity_costs,
    negative_loss,
    normalize_clauses,
    row_label,
    row_prices,
)

__all__ = ["RuleMasterModel", "HighsRuleMaster", "MergedHighsRuleMaster", "PersistentRuleMaster",
           "RebuildRuleMaster",
           "RestrictedMaster", "MasterIP", "PERSISTENT_LP_SOLVERS", "lp_name", "aggregate_rows"]


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
    group, first = _refine_groups(labels, coverage)
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


class _MasterData:
    """Validated data and the clause pool shared by the Pyomo master and the highspy path."""

    def __init__(self, A: Any, y: Any, sample_weight: Any, complexity: Any,
                 lambda0: Any, lambda1: Any) -> None:
        self.A = check_literal_matrix(A)
        n_rows = self.A.shape[0]
        self.y = check_labels(y, n_rows)
        if not self.y.any():
            raise InputError(
                "y has no label-1 row, so the rule master has nothing to cover; pass data "
                "with at least one positive example."
            )
        self.P = check_sample_weight(sample_weight, n_rows)
        self.pos = np.flatnonzero(self.y)
        if complexity is not None:
            complexity = check_nonnegative(complexity, "complexity")
        self.budget = complexity
        self.lambda0 = check_nonnegative(lambda0, "lambda0")
        self.lambda1 = check_nonnegative(lambda1, "lambda1")
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
        self.cost = np.concatenate([self.cost, clause_costs(new)])
        self.penalty = np.concatenate(
            [self.penalty, complexity_costs(clause_degrees(new), 0.0, self.lambda0, self.lambda1)]
        )
        return list(range(start, len(self.clauses)))

    @property
    def form(self) -> str:
        penalty = self.lambda0 > 0 or self.lambda1 > 0
        if self.budget is not None:
            return "budget+penalty" if penalty else "budget"
        return "penalty"

    def reduced_costs(self, mu: np.ndarray, lam: float) -> np.ndarray:
        """Reduced costs of the pool's columns (the same formula as ``_clauses.reduced_costs``)."""
        v = row_prices(self.y, self.P, mu)
        return complexity_costs(clause_degrees(self.clauses), lam, self.lambda0,
                                self.lambda1) + v @ self.coverage


class _PoolView:
    """The clause pool and the form of a master, shared by both master classes."""

    _data: _MasterData

    @property
    def clauses_(self) -> list[Clause]:
        """The clause pool; column ``k`` is labelled ``clause_k``."""
        return list(self._data.clauses)

    @property
    def form(self) -> str:
        """``"budget"``, ``"penalty"`` or ``"budget+penalty"``."""
        return self._data.form


class RuleMasterModel(_PoolView, OptModel):
    r"""Weighted Hamming-loss rule master IP (the DRO paper, eqs 6-8) over a pool of clauses.

    .. math::

        \min_{w, \xi}\ & \sum_{i \in P^+} \xi_i
            + \sum_{k \in K} \Big(\sum_{i \in Z_k} P_i + \lambda_0 + \lambda_1 |k|\Big) w_k \\
        \text{s.t. } & \xi_i + P_i \sum_{k \in K_i} w_k \ge P_i
            \quad (i \in P^+) && \texttt{cover[i\_i]}\ (\mu_i) \\
        & \sum_{k \in K} c_k w_k \le C && \texttt{complexity}\ (\lambda) \\
        & \xi \ge 0,\quad w_k \in \{0, 1\}\ (\text{or } w_k \ge 0 \text{ when relaxed})

    Budget form (the DRO paper): ``complexity=C`` and :math:`\lambda_0=\lambda_1=0`.
    Penalty form (BRCG implementations): no budget row, costs
    :math:`\lambda_0 + \lambda_1 |k|` per clause.  Both may be combined.  Following
    the DRO paper eq 6 the :math:`\xi_i` are *not* multiplied by :math:`P_i` in the
    objective; they carry :math:`P_i` through the cover rows.  With
    :math:`P_i = 1/N` this is the master of Dash, Günlük and Wei (2018).

    The LP relaxation (``relax=True``) keeps :math:`w \ge 0` and drops the bound
    :math:`w \le 1`: the bound never changes the LP optimum
    (every clause cost is :math:`\ge 0`, and lowering a :math:`w_k > 1` to 1 keeps
    every cover row satisfied), and without it the LP dual is

    .. math::

        \max_{\mu, \lambda}\ \sum_{i \in P^+} P_i \mu_i - C \lambda \quad
        \text{s.t. } 0 \le \mu_i \le 1,\ \lambda \ge 0,\
        r(k) = \lambda c_k + \lambda_0 + \lambda_1 |k| + \sum_{i \in Z_k} P_i
            - \sum_{i \in P^+,\ k \in K_i} \mu_i P_i \ \ge 0 \quad (k \in K),

    so at an optimal LP every pool column has a non-negative reduced cost
    :math:`r(k)` (:func:`~optirules.models._clauses.reduced_costs`), and column
    generation can stop as soon as pricing finds no :math:`r(k) < 0`.  The duals
    are exposed as ``cover_duals_`` (:math:`\mu \ge 0`) and ``complexity_dual_``
    (:math:`\lambda \ge 0`, i.e. minus d objective / d C).  They need not be
    unique (this LP is usually degenerate); any optimal dual prices correctly.

    Parameters
    ----------
    literals : array of shape (N, L)
        The paper's :math:`A`: binary literal matrix (columns are literals: features and
        their negations).
    labels : array of shape (N,)
        The paper's :math:`y`: labels in {0, 1}; at least one must be 1.
    clauses : iterable of tuples of int, default ()
        Initial clause pool (each a tuple of literal indices; duplicates are dropped).
    sample_weight : array of shape (N,), optional
        Weights ``P`` (a pmf in the DRO paper; default uniform ``1/N``).
    complexity : float, optional
        The budget :math:`C` of eq 8; ``None`` drops the budget row (penalty form).
    lambda0, lambda1 : float, default 0
        Penalty-form cost per clause and per literal.
    relax : bool, default False
        Solve the LP relaxation (``w >= 0``) and read the duals.
    clause_names : sequence of str, optional
        Names of the initial clauses (e.g. ``"x1 <= 0.19 AND c0 == a"``): the ``w``
        columns are indexed by :func:`lp_name` of each (``w(x1_le_0p19_and_c0_eq_a)`` in
        an .lp file) instead of ``clause_k``, and :meth:`write` puts one comment line per
        column with the name as given.

    Attributes
    ----------
    clauses_ : list of tuple of int
        The clause pool; column ``k`` is labelled ``clause_k`` in the model.
    w_ : ndarray of shape (K,)
        Values of ``w`` after :meth:`solve`.
    xi_ : ndarray of shape (n_pos,)
        Values of ``xi`` over the label-1 rows (in row order).
    selected_ : list of tuple of int
        Clauses with ``w_k > 0.5`` (the rule set; for the LP a rounding).
    objective_ : float
        Optimal objective value (an LP bound on the IP when relaxed).
    cover_duals_ : ndarray of shape (n_pos,)
        Relaxed only: duals :math:`\mu_i \ge 0` of the cover rows.
    complexity_dual_ : float
        Relaxed only: :math:`\lambda \ge 0` of the budget row (0 without one).
    reduced_costs_ : ndarray of shape (K,)
        Relaxed only: reduced costs of the pool's columns from these duals.
    duals_for_pricing_ : dict
        Relaxed only: ``mu``, ``lam``, ``lambda0``, ``lambda1`` to pass to
        :class:`~optirules.models._pricing.RulePricingModel` or
        :func:`~optirules.models._pricing.beam_search_pricing`.

    Notes
    -----
    :meth:`add_clauses` drops the built Pyomo model; it is rebuilt on the next use
    of :attr:`model`.  For a column-generation inner loop use
    :class:`HighsRuleMaster`, which adds columns to a warm HiGHS LP.
    """

    def __init__(self, literals: Any, labels: Any, clauses: Iterable[Iterable[Any]] = (), *,
                 sample_weight: Any = None, complexity: float | None = None,
                 lambda0: float = 0.0, lambda1: float = 0.0, relax: bool = False,
                 clause_names: Iterable[str] | None = None) -> None:
        self._data = _MasterData(literals, labels, sample_weight, complexity, lambda0,
                                 lambda1)
        self.relax = bool(relax)
        self._data.add(clauses)
        self._names = None if clause_names is None else [str(n) for n in clause_names]
        if self._names is not None and len(self._names) != len(self._data.clauses):
            raise InputError(f"clause_names has {len(self._names)} names for "
                             f"{len(self._data.clauses)} distinct clauses; give one per clause.")

    def add_clauses(self, clauses: Iterable[Iterable[Any]]) -> list[str]:
        """Add clauses to the pool (clauses already there are skipped).

        Returns the labels (``clause_k``) of the new columns.  The Pyomo model is
        rebuilt on next use and any previous solution is forgotten.
        """
        new = self._data.add(clauses)
        if new:
            self._model = None
            self.result_ = None
            for name in ("w_", "xi_", "selected_", "objective_", "cover_duals_",
                         "complexity_dual_", "reduced_costs_", "duals_for_pricing_"):
                self.__dict__.pop(name, None)
        return [clause_label(k) for k in new]

    # ------------------------------------------------------------------ model
    def _build(self) -> Any:
        import pyomo.environ as pyo

        d = self._data
        rows = [row_label(i) for i in d.pos]
        labels = self._labels()
        covering = {row_label(i): [labels[k] for k in np.flatnonzero(d.coverage[i])]
                    for i in d.pos}

        m = pyo.ConcreteModel(name="rule_master")
        m.rows = pyo.Set(initialize=rows, ordered=True, doc="label-1 rows P+")
        m.clauses = pyo.Set(initialize=labels, ordered=True, doc="clause pool K")
        m.P = pyo.Param(m.rows, initialize=dict(zip(rows, d.P[d.pos].tolist())),
                        doc="sample weight P_i")
        m.neg_loss = pyo.Param(m.clauses, initialize=dict(zip(labels, d.neg_loss.tolist())),
                               doc="sum of P_i over label-0 rows the clause covers")
        m.penalty = pyo.Param(m.clauses, initialize=dict(zip(labels, d.penalty.tolist())),
                              doc="lambda0 + lambda1 * |k| (penalty form)")
        m.cost = pyo.Param(m.clauses, initialize=dict(zip(labels, d.cost.tolist())),
                           doc="complexity c_k = 1 + |k|")
        # initialized to 0: a clause that covers no row and costs nothing appears in no
        # row and with a zero cost, so a solver that reads the model from a file (CBC,
        # CPLEX) never sees it and returns no value for it; 0 is then an optimal value
        m.xi = pyo.Var(m.rows, within=pyo.NonNegativeReals, initialize=0.0,
                       doc="weighted loss of row i")
        m.w = pyo.Var(m.clauses, within=pyo.NonNegativeReals if self.relax else pyo.Binary,
                      initialize=0.0, doc="1 if clause k is in the rule set")
        m.hamming_loss = pyo.Objective(
            expr=pyo.quicksum(m.xi[r] for r in m.rows)
            + pyo.quicksum((m.neg_loss[k] + m.penalty[k]) * m.w[k] for k in m.clauses),
            sense=pyo.minimize,
        )

        def cover_rule(m, r):
            return m.xi[r] + m.P[r] * pyo.quicksum(m.w[k] for k in covering[r]) >= m.P[r]

        m.cover = pyo.Constraint(m.rows, rule=cover_rule, doc="the DRO paper eq 7")
        if d.budget is not None:
            m.C = pyo.Param(initialize=d.budget, doc="complexity budget C")
        if d.budget is not None and d.clauses:  # an empty pool leaves no budget row
            m.complexity = pyo.Constraint(
                expr=pyo.quicksum(m.cost[k] * m.w[k] for k in m.clauses) <= m.C,
                doc="the DRO paper eq 8",
            )
        if self.relax:
            m.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT)
        return m

    def _labels(self) -> list[str]:
        """Index labels of the ``w`` columns: ``clause_k``, or the sanitized clause names."""
        k_all = range(len(self._data.clauses))
        if self._names is None:
            return [clause_label(k) for k in k_all]
        out: list[str] = []
        seen: set[str] = set()
        for k in k_all:
            label = lp_name(self._names[k]) if k < len(self._names) else clause_label(k)
            if label in seen:
                label = f"{label}_{k}"
            seen.add(label)
            out.append(label)
        return out

    def write(self, path: Any) -> None:
        """Write the model to ``path`` (.lp or .mps by suffix) with readable names; with
        ``clause_names``, one comment line per ``w`` column gives its clause as named."""
        from ..solvers import write_model

        lines = None if self._names is None else [
            f"w({label}): {name}" for label, name in zip(self._labels(), self._names)]
        write_model(self.model, path, comments=lines)

    def _read_solution(self, result: Any) -> None:
        import pyomo.environ as pyo

        m = self.model
        d = self._data
        self.w_ = np.array([pyo.value(m.w[k]) for k in m.clauses], dtype=float)
        self.xi_ = np.array([pyo.value(m.xi[r]) for r in m.rows], dtype=float)
        self.selected_ = [d.clauses[k] for k in np.flatnonzero(self.w_ > 0.5)]
        self.objective_ = float(result.objective)
        if not self.relax:
            return
        duals = _dual_reader(m, result)
        mu = np.array([duals(m.cover[r]) for r in m.rows], dtype=float)
        lam = -duals(m.complexity) if hasattr(m, "complexity") else 0.0
        self.cover_duals_ = mu
        self.complexity_dual_ = float(lam) + 0.0
        self.reduced_costs_ = d.reduced_costs(mu, max(lam, 0.0))
        self.duals_for_pricing_ = {"mu": mu.copy(), "lam": max(float(lam), 0.0),
                                   "lambda0": d.lambda0, "lambda1": d.lambda1}


def _dual_reader(m: Any, result: Any) -> Callable[[Any], float]:
    """Return ``con -> dual`` from ``result.duals`` (by name) or the model's ``dual`` Suffix."""
    duals = getattr(result, "duals", None)

    def get(con: Any) -> float:
        if duals is not None and con.name in duals:
            return float(duals[con.name])
        suffix = getattr(m, "dual", None)
        if suffix is not None and con in suffix:
            return float(suffix[con])
        raise SolverError(
            f"the solver returned no dual for {con.name!r}; solve the relaxed master "
            "(relax=True) with an LP solver that reports duals (e.g. 'highs')."
        )

    return get


# ====================================================================== restricted masters
@dataclass
class MasterIP:
    """The master IP over (part of) a restricted master's pool, as solved by :meth:`solve_ip`.

    Attributes
    ----------
    selected : list of tuple of int
        The chosen clauses (``w_k = 1``).
    objective : float
        The IP objective of ``selected`` reported by the solver.
    bound : float
        The solver's proven lower bound (NaN when it gives none).
    status : str
        :class:`~optirules.solvers.Status` value (``"optimal"``, ``"time_limit"`` ...).
    wall_time : float
        Seconds spent, model building included.
    route : str
        ``"highspy"`` (the LP's own HiGHS model with integrality switched on),
        ``"model"`` (:class:`RuleMasterModel` handed to ``solve``) or
        ``"branch_and_bound"`` (:func:`~optirules.models.branch_and_bound_master`).
    info : dict
        Route-specific counts (branch and bound: ``nodes``, ``lp_iterations``, ``rows``).
    """

    selected: list[Clause]
    objective: float
    bound: float
    status: str
    wall_time: float
    route: str
    info: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class RestrictedMaster(Protocol):
    r"""What column generation needs from a restricted master LP (the DRO paper eqs 6-8
    relaxed to :math:`w \ge 0`), whatever solver holds it.

    Implementations: :class:`HighsRuleMaster` (columns appended to a warm ``highspy``
    model), :class:`PersistentRuleMaster` (a Pyomo model kept in a persistent solver
    interface) and :class:`RebuildRuleMaster` (the declarative model rebuilt and solved by
    any LP solver that returns duals, each iteration).  All three give the same LP
    optimum; duals may differ between optimal dual vertices.
    """

    def add_clauses(self, clauses: Iterable[Iterable[Any]]) -> list[str]:
        """Append columns (clauses already present are skipped); return their labels."""

    def solve(self) -> float:
        """Solve the LP over the current pool; return its optimal objective."""

    @property
    def clauses_(self) -> list[Clause]:
        """The pool, in column order."""

    duals_for_pricing_: dict[str, Any]
    reduced_costs_: np.ndarray
    objective_: float

    def solve_ip(self, clauses: Iterable[Iterable[Any]] | None = None, *,
                 solver: str = "highs", time_limit: float | None = None,
                 mip_gap: float | None = None, incumbent: Iterable[Clause] = (),
                 random_seed: int | None = None, aggregate: bool = True) -> MasterIP:
        """The master IP over ``clauses`` (default: the whole pool) with a MILP solver."""


class _MasterIPMixin:
    """``solve_ip`` through the declarative :class:`RuleMasterModel` and ``solve``."""

    _data: _MasterData

    def _ip_columns(self, clauses: Iterable[Iterable[Any]] | None) -> list[Clause]:
        d = self._data
        if clauses is None:
            return list(d.clauses)
        cols = normalize_clauses(clauses, d.A.shape[1])
        missing = [c for c in cols if c not in d.index]
        if missing:
            raise InputError(f"clause {missing[0]!r} is not in the master's pool; add it "
                             "with add_clauses first.")
        return cols

    def _ip_rows(self, cols: list[Clause], aggregate: bool
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(A, y, P)`` of the master IP over ``cols``: the rows as given, or with the rows
        of equal label and equal coverage over ``cols`` merged (:func:`aggregate_rows`)."""
        d = self._data
        if not aggregate:
            return d.A, d.y, d.P
        idx = np.array([d.index[c] for c in cols], dtype=np.int64)
        first, weights, _ = aggregate_rows(d.coverage[:, idx], d.y, d.P)
        return d.A[first], d.y[first], weights

    def solve_ip(self, clauses: Iterable[Iterable[Any]] | None = None, *,
                 solver: str = "highs", time_limit: float | None = None,
                 mip_gap: float | None = None, incumbent: Iterable[Clause] = (),
                 random_seed: int | None = None, aggregate: bool = True) -> MasterIP:
        r"""The master IP over ``clauses`` (default: the pool), as :class:`RuleMasterModel`
        solved by ``solver`` (any MILP solver of :func:`~optirules.solvers.solve`).

        ``aggregate=True`` (default) solves it over the rows merged by
        :func:`aggregate_rows` (rows of equal label and equal coverage over ``clauses``,
        weights summed): the same optimum and optimal rule sets, far fewer cover rows when
        rows repeat.  The weights (and :math:`\lambda_0, \lambda_1`) are multiplied by
        :math:`s = \max(1, 10^{-3} / \min_i P_i)` (positive :math:`P_i`) before the model is
        built, and the objective and bound divided by :math:`s` after: a MILP solver's
        feasibility tolerance (1e-6 by default in SCIP, CBC, Gurobi, CPLEX, HiGHS) is then at
        most a thousandth of the smallest weight, so no cover row of a small weight (a
        million uniform rows: :math:`P_i = 10^{-6}`) is "met" with :math:`\xi_i = 0`.
        ``incumbent`` is not passed on by this route (the Pyomo interfaces take no start
        solution); ``random_seed`` goes to HiGHS as ``random_seed``.  A solve without any
        solution raises :class:`~optirules.errors.SolverStatusError`.
        """
        from ..solvers import Status

        t0 = time.perf_counter()
        cols = self._ip_columns(clauses)
        d = self._data
        A, y, P = self._ip_rows(cols, aggregate)
        positive = P[P > 0]
        scale = max(1.0, 1e-3 / float(positive.min())) if positive.size else 1.0
        model = RuleMasterModel(A, y.astype(int), cols, sample_weight=P * scale,
                                complexity=d.budget, lambda0=d.lambda0 * scale,
                                lambda1=d.lambda1 * scale)
        options: dict[str, Any] = {}
        if solver == "highs" and random_seed is not None:
            options["random_seed"] = int(random_seed)
        result = model.solve(solver, time_limit=time_limit, mip_gap=mip_gap, **options)
        status = result.status.value if isinstance(result.status, Status) else \
            str(result.status)
        return MasterIP(list(model.selected_), float(result.objective) / scale,
                        float(result.bound) / scale, status, time.perf_counter() - t0,
                        "model")

    def _store_duals(self, objective: float, mu: np.ndarray, lam: float) -> float:
        d = self._data
        lam = max(float(lam), 0.0) + 0.0
        self.objective_ = float(objective)
        self.cover_duals_ = np.asarray(mu, dtype=float)
        self.complexity_dual_ = lam
        self.reduced_costs_ = d.reduced_costs(self.cover_duals_, lam) if d.clauses else \
            np.zeros(0)
        self.duals_for_pricing_ = {"mu": self.cover_duals_.copy(), "lam": lam,
                                   "lambda0": d.lambda0, "lambda1": d.lambda1}
        return self.objective_


#: HiGHS options of the master IP on the highspy route: its sub-MIP heuristics (RINS, RENS,
#: root reduced-cost) off.  They only look for incumbents, so the optimum is unchanged;
#: measured on the final IPs of WDBC's five folds (penalty form, 95-126 columns, 170
#: cover rows, solved at the root): 0.210 -> 0.120 s CPU per IP on average at load ~5; on
#: harder IPs over the same pools (lambda = 1e-4, or budgets 20 and 40) never slower
#: (0.584 -> 0.055, 0.411 -> 0.143 s, the others within 0.02 s), on adult's merged IP
#: (48,842 rows, 64 columns, budgets 10/30/60) 0.72/0.49/0.47 -> 0.12/0.17/0.21 s.
_IP_OPTIONS = {"mip_heuristic_run_rins": False, "mip_heuristic_run_rens": False,
               "mip_heuristic_run_root_reduced_cost": False}
#: ... and from this many cover rows on, presolve and the feasibility-jump heuristic off
#: too (_LARGE_IP_OPTIONS): presolve removed at most 7 of the 1,900-10,000 rows of the DRO
#: members' IPs on magic_gamma and took 0.7-1.2 s of 2-8 s (3,000 rows), 5.1 of 12 s
#: (19,020 rows).  On the captured IPs of DRO fits (CPU s, 1 BLAS thread, the same
#: objective within the 1 % gap): 19,020 rows 10.2 -> 7.0 and 13.9 -> 8.9 s; 3,000 rows,
#: 13 IPs, 65.0 -> 59.6 s in all (5 of them slower, by <= 1.6 s).  Small IPs keep them
#: (they cost little there, and which of several optimal rule sets HiGHS returns changes).
#: From 5,000 rows: a DRO fit on magic_gamma's 3,000 rows (IPs of ~1,900 rows) with them
#: took 98.0 s CPU against 75.1 s without (18 vs 17 members; benchmarks/dro_master.py)
#: Strong branching off there as well (``mip_pscost_minreliable=0``: pseudocosts from the
#: first branching on): the 11 member IPs of a DRO fit on magic_gamma (7,345-10,988 cover
#: rows, 121-170 columns, mip_gap 0.01) took 358 s CPU with HiGHS's default (8) and 237 s
#: with 0 (one IP 34.2 -> 14.0 s), every one still within the 1 % gap.
_LARGE_IP_ROWS = 5000
_LARGE_IP_OPTIONS = {"presolve": "off", "mip_heuristic_run_feasibility_jump": False,
                     "mip_pscost_minreliable": 0}


#: HiGHS tolerances of the restricted master LP and the branch-and-bound node LPs (tighter
#: than the 1e-7 defaults, so the duals price columns to about the same accuracy as RC_TOL)
LP_TOLERANCES = {"primal_feasibility_tolerance": 1e-9, "dual_feasibility_tolerance": 1e-9}


def highs_with_options(options: dict[str, Any]) -> Any:
    """A silent ``highspy.Highs`` with ``options`` set; an option HiGHS rejects raises
    :class:`~optirules.errors.InputError` naming it."""
    import highspy

    from ..solvers import new_highs

    h = new_highs()
    for key, value in options.items():
        if h.setOptionValue(key, value) != highspy.HighsStatus.kOk:
            raise InputError(
                f"HiGHS rejected the option {key}={value!r}; see the HiGHS option list "
                "(https://ergo-code.github.io/HiGHS/stable/options/definitions/)."
            )
    return h


#: a warm re-solve of a restricted master LP may take at most
#: ``max(WARM_ITERATION_FLOOR, WARM_ITERATION_FACTOR * min(rows, columns))`` simplex
#: iterations; past that it is restarted from scratch (no basis).  Degenerate restricted
#: masters can make HiGHS's dual simplex stall from the previous basis for tens of thousands of
#: iterations where a cold solve needs a few rows' worth; an iteration count, unlike seconds,
#: gives the same path on every machine.
WARM_ITERATION_FLOOR = 1000
WARM_ITERATION_FACTOR = 4


def run_lp(master: Any, what: str, advice: str) -> None:
    """Run ``master._h`` from its current basis, storing ``wall_time_``, ``status_`` and
    ``cold_restarts_`` (how many warm solves hit the iteration bound above and were
    restarted without a basis); raise :class:`~optirules.errors.SolverError` (naming
    ``what``, then ``advice``) unless HiGHS reports an optimum."""
    import highspy

    h = master._h
    t0 = time.perf_counter()
    limit = max(WARM_ITERATION_FLOOR,
                WARM_ITERATION_FACTOR * min(h.getNumRow(), h.getNumCol()))
    saved = h.getOptionValue("simplex_iteration_limit")[1]
    h.setOptionValue("simplex_iteration_limit", int(min(limit, saved)))
    try:
        run_status = h.run()
        if h.getModelStatus() == highspy.HighsModelStatus.kIterationLimit:
            master.cold_restarts_ = getattr(master, "cold_restarts_", 0) + 1
            h.clearSolver()
            h.setOptionValue("simplex_iteration_limit", saved)
            run_status = h.run()
    finally:
        h.setOptionValue("simplex_iteration_limit", saved)
    master.wall_time_ = time.perf_counter() - t0
    model_status = h.getModelStatus()
    master.status_ = h.modelStatusToString(model_status)
    if run_status == highspy.HighsStatus.kError or \
            model_status != highspy.HighsModelStatus.kOptimal:
        raise SolverError(f"HiGHS did not solve {what} (status {master.status_!r}); {advice}.")


class HighsRuleMaster(_MasterIPMixin, _PoolView):
    r"""The LP relaxation of :class:`RuleMasterModel` held in a warm ``highspy.Highs``.

    Same data, same formulation (the DRO paper eqs 6-8 relaxed to ``w >= 0``, or the
    penalty form) and same dual conventions as ``RuleMasterModel(..., relax=True)``;
    :meth:`add_clauses` appends columns with ``Highs.addCols`` so the next
    :meth:`solve` restarts the simplex from the previous basis (the fast path of a
    column-generation loop).  The final integer program over the generated pool is
    solved in the same highspy model by :meth:`solve_ip`; :meth:`to_model` gives its
    declarative form (for export and other solvers).

    Column layout: ``xi(i_i)`` for the label-1 rows, then ``w(clause_k)``; rows:
    ``cover(i_i)`` then ``complexity`` (budget form only); the names use parentheses,
    as Pyomo's LP writer does, because HiGHS drops names with brackets from .lp files.
    HiGHS reports row duals as d objective / d rhs, which for the cover rows is
    :math:`\mu_i \ge 0` and for the budget row :math:`-\lambda`;
    ``complexity_dual_`` is :math:`\lambda`.  The duals of this degenerate LP need not
    equal those of the Pyomo route vertex for vertex; both are optimal duals (tested).

    Parameters
    ----------
    literals, labels, clauses, sample_weight, complexity, lambda0, lambda1
        As for :class:`RuleMasterModel`.
    options : dict, optional
        Extra HiGHS options (``{"primal_feasibility_tolerance": 1e-9}`` ...).

    Attributes
    ----------
    objective_, w_, xi_, cover_duals_, complexity_dual_, duals_for_pricing_
        As for :class:`RuleMasterModel` with ``relax=True``.
    reduced_costs_ : ndarray of shape (K,)
        HiGHS's column duals of the ``w`` columns (equal to
        :func:`~optirules.models._clauses.reduced_costs` at these duals).
    status_ : str
        HiGHS model status text.
    iterations_ : int
        Simplex iterations of the last solve.
    wall_time_ : float
        Seconds spent in the last ``run``.
    """

    def __init__(self, literals: Any, labels: Any, clauses: Iterable[Iterable[Any]] = (), *,
                 sample_weight: Any = None, complexity: float | None = None,
                 lambda0: float = 0.0, lambda1: float = 0.0,
                 options: dict[str, Any] | None = None) -> None:
        import highspy

        self._data = d = _MasterData(literals, labels, sample_weight, complexity, lambda0,
                                     lambda1)
        self._inf = highspy.kHighsInf
        self._options = dict(options or {})
        h = highs_with_options(self._options)
        n_pos = len(d.pos)
        h.addVars(n_pos, np.zeros(n_pos), np.full(n_pos, self._inf))
        h.changeColsCost(n_pos, np.arange(n_pos, dtype=np.int32), np.ones(n_pos))
        p_pos = d.P[d.pos]
        h.addRows(n_pos, p_pos.astype(float), np.full(n_pos, self._inf), n_pos,
                  np.arange(n_pos, dtype=np.int32), np.arange(n_pos, dtype=np.int32),
                  np.ones(n_pos))
        if d.budget is not None:
            h.addRows(1, np.array([-self._inf]), np.array([d.budget]), 0,
                      np.zeros(1, dtype=np.int32), np.zeros(0, dtype=np.int32), np.zeros(0))
        self._h = h
        self._n_pos = n_pos
        # position of each data row among the label-1 rows (row index in the LP)
        self._pos_row = np.full(d.A.shape[0], -1, dtype=np.int64)
        self._pos_row[d.pos] = np.arange(n_pos)
        self._solved = False
        self._named = 0
        self._rows_named = False
        self.add_clauses(clauses)

    @property
    def highs(self) -> Any:
        """The underlying ``highspy.Highs`` object (for inspection; do not modify)."""
        self._name_columns()
        return self._h

    def _name_columns(self) -> None:
        """Name the ``xi`` columns and rows (first call) and the ``w`` columns added since
        the last call (``w(clause_k)``).

        Names are set only when someone looks (:attr:`highs`, :meth:`write`,
        :meth:`solve_ip`): one ``passColName`` call per column is a measurable share of a
        column-generation iteration.
        """
        base = self._n_pos
        if not self._rows_named:  # xi columns and rows: one Python call each (1M rows: 7 s)
            h, d = self._h, self._data
            for t, i in enumerate(d.pos):
                h.passColName(t, f"xi({row_label(i)})")
                h.passRowName(t, f"cover({row_label(i)})")
            if d.budget is not None:
                h.passRowName(base, "complexity")
            self._rows_named = True
        for c in range(self._named, len(self._data.clauses)):
            self._h.passColName(base + c, f"w({clause_label(c)})")
        self._named = len(self._data.clauses)

    def add_clauses(self, clauses: Iterable[Iterable[Any]]) -> list[str]:
        """Append clauses (skipping those already present) as columns of the warm LP.

        Returns the labels (``clause_k``) of the new columns.
        """
        d = self._data
        new = d.add(clauses)
        if not new:
            return []
        # one addCols call for the batch, its sparse columns built without a Python loop:
        # column t holds P_i on the cover rows of the label-1 rows it covers, then c_k on
        # the budget row
        k = len(new)
        cov = d.coverage[d.pos, new[0]:new[-1] + 1]  # the new columns are the last ones
        col, row = np.nonzero(cov.T)  # row-major over the transpose: by column, then row
        counts = np.bincount(col, minlength=k)
        idx = row.astype(np.int32)
        val = d.P[d.pos][row].astype(float)
        if d.budget is not None:
            ends = np.cumsum(counts)
            idx = np.insert(idx, ends, self._n_pos).astype(np.int32)
            val = np.insert(val, ends, d.cost[new])
            counts = counts + 1
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int32)
        cost = (d.neg_loss[new] + d.penalty[new]).astype(float)
        self._h.addCols(k, cost, np.zeros(k), np.full(k, self._inf), int(idx.size), starts,
                        idx, val)
        return [clause_label(c) for c in new]

    def solve(self) -> float:
        """Re-solve the LP from the current basis; return and store ``objective_``."""
        h = self._h
        run_lp(self, "the rule master LP", "check the data (e.g. a negative budget) or solve "
               "RuleMasterModel(relax=True) with another solver")
        info = h.getInfo()
        sol = h.getSolution()
        d = self._data
        col_value = np.asarray(sol.col_value)
        col_dual = np.asarray(sol.col_dual)
        row_dual = np.asarray(sol.row_dual)
        n_pos = self._n_pos
        self.iterations_ = int(info.simplex_iteration_count)
        self.objective_ = float(info.objective_function_value)
        self.xi_ = col_value[:n_pos].copy()
        self.w_ = col_value[n_pos:].copy()
        self.reduced_costs_ = col_dual[n_pos:].copy()
        self.selected_ = [d.clauses[k] for k in np.flatnonzero(self.w_ > 0.5)]
        self.cover_duals_ = row_dual[:n_pos].copy()
        lam = -float(row_dual[n_pos]) if d.budget is not None else 0.0
        self.complexity_dual_ = lam + 0.0
        self.duals_for_pricing_ = {"mu": self.cover_duals_.copy(), "lam": max(lam, 0.0),
                                   "lambda0": d.lambda0, "lambda1": d.lambda1}
        self._solved = True
        return self.objective_

    def solve_ip(self, clauses: Iterable[Iterable[Any]] | None = None, *,
                 solver: str = "highs", time_limit: float | None = None,
                 mip_gap: float | None = None, incumbent: Iterable[Clause] = (),
                 random_seed: int | None = None, aggregate: bool = True) -> MasterIP:
        r"""The master IP over ``clauses`` (default: the pool), eqs 6-8 with :math:`w_k \in \{0, 1\}`.

        With ``solver="highs"`` the IP is solved by ``highspy`` without a Pyomo model.
        ``aggregate=True`` (default): over the rows merged by :func:`aggregate_rows` (rows
        of equal label and equal coverage over ``clauses``, weights summed; the same optimum
        and optimal rule sets), in a new ``highspy`` model of those rows and ``clauses``
        only.  ``aggregate=False``: in this object's own model, whose ``w`` columns get
        bounds :math:`[0, 1]` (:math:`[0, 0]` for pool columns not in ``clauses``) and
        integrality, and are continuous again afterwards (the next :meth:`solve` is the LP).
        ``incumbent`` (a rule set, e.g. a greedy one) is not passed to HiGHS: HiGHS 1.16
        mapped such a start solution wrongly into its presolved model and reported a false
        optimum below the LP bound (the caller keeps the better of the incumbent and the
        IP's rule set).  HiGHS runs with its sub-MIP heuristics off and, from 5,000 cover
        rows on, without presolve, the feasibility-jump heuristic and strong branching
        (``_IP_OPTIONS``, ``_LARGE_IP_OPTIONS``: they only cost time on these IPs; the
        gap reached is unchanged).  Any other solver gets :class:`RuleMasterModel` through
        :func:`~optirules.solvers.solve` (:meth:`_MasterIPMixin.solve_ip`).  All give the
        same optimum (tested).
        """
        if str(solver).strip().lower() != "highs":
            return super().solve_ip(clauses, solver=solver, time_limit=time_limit,
                                    mip_gap=mip_gap, incumbent=incumbent,
                                    random_seed=random_seed, aggregate=aggregate)
        import highspy

        from ..solvers import Status, solve

        t0 = time.perf_counter()
        cols = self._ip_columns(clauses)
        if aggregate:
            A, y, P = self._ip_rows(cols, True)
            d = self._data
            small = HighsRuleMaster(A, y.astype(int), cols, sample_weight=P,
                                    complexity=d.budget, lambda0=d.lambda0, lambda1=d.lambda1,
                                    options=self._options)
            ip = small.solve_ip(solver="highs", time_limit=time_limit, mip_gap=mip_gap,
                                incumbent=incumbent, random_seed=random_seed, aggregate=False)
            ip.wall_time = time.perf_counter() - t0
            return ip
        d, h, n_pos = self._data, self._h, self._n_pos
        K = len(d.clauses)
        keep = np.zeros(K, dtype=bool)
        keep[[d.index[c] for c in cols]] = True
        idx = (n_pos + np.arange(K)).astype(np.int32)
        h.changeColsBounds(K, idx, np.zeros(K), keep.astype(float))
        h.changeColsIntegrality(K, idx, np.full(K, highspy.HighsVarType.kInteger))
        # ``incumbent`` is not passed as a start solution (setSolution): HiGHS 1.16 mapped a
        # feasible start of objective 0.02719 into its presolved model as 0.01979, below the
        # LP bound 0.02317, and returned it as "optimal" (WDBC, first fold; tested)
        normalize_clauses(incumbent, d.A.shape[1])  # still validated
        options: dict[str, Any] = dict(_IP_OPTIONS)
        if n_pos >= _LARGE_IP_ROWS:
            options.update(_LARGE_IP_OPTIONS)
        saved = {k: h.getOptionValue(k)[1] for k in ("time_limit", "mip_rel_gap", "random_seed",
                                                    "mip_feasibility_tolerance", *options)}
        if random_seed is not None:
            options["random_seed"] = int(random_seed)
        # a cover row reads xi_i + P_i sum w >= P_i: with HiGHS's default MIP feasibility
        # tolerance (1e-6) a row whose weight P_i is near 1e-6 (a million uniform rows) is
        # "met" by xi_i = 0 and the IP's objective drops the missed positives; the tolerance
        # is therefore a thousandth of the smallest positive weight (at most 1e-6)
        p_min = float(d.P[d.pos][d.P[d.pos] > 0].min()) if n_pos else 1.0
        options["mip_feasibility_tolerance"] = max(1e-10, min(1e-6, 1e-3 * p_min))
        self._name_columns()
        try:
            result = solve(h, "highs", time_limit=time_limit, mip_gap=mip_gap, **options)
            w = np.asarray(h.getSolution().col_value, dtype=float)[n_pos:]
        finally:
            h.changeColsIntegrality(K, idx, np.full(K, highspy.HighsVarType.kContinuous))
            h.changeColsBounds(K, idx, np.zeros(K), np.full(K, self._inf))
            for k, v in saved.items():
                h.setOptionValue(k, v)
            h.setOptionValue("output_flag", False)
        if not result.has_solution:
            result.raise_for_status()
        status = result.status.value if isinstance(result.status, Status) else \
            str(result.status)
        return MasterIP([d.clauses[k] for k in np.flatnonzero(w > 0.5)],
                        float(result.objective), float(result.bound), status,
                        time.perf_counter() - t0, "highspy")

    def to_model(self, *, relax: bool = False) -> RuleMasterModel:
        """The declarative :class:`RuleMasterModel` over the same data and clause pool."""
        d = self._data
        return RuleMasterModel(d.A, d.y.astype(int), d.clauses, sample_weight=d.P,
                               complexity=d.budget, lambda0=d.lambda0,
                               lambda1=d.lambda1, relax=relax)

    def write(self, path: Any) -> None:
        """Write the LP (with its readable names) to ``path`` (.lp or .mps) via HiGHS."""
        from ..solvers import write_model

        self._name_columns()
        write_model(self._h, path)


def _refine_groups(group: np.ndarray, coverage: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
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


class MergedHighsRuleMaster(_PoolView):
    r"""The restricted master LP of :class:`HighsRuleMaster` over merged rows.

    Rows of equal label and equal coverage over the current pool are one row of summed
    weight (:func:`aggregate_rows`: the same LP optimum, and an optimal dual
    :math:`\mu_g` of a merged cover row is an optimal dual of each of its rows, since
    :math:`\sum_{i \in g} P_i \mu_g = W_g \mu_g` and every reduced cost is unchanged).  Each
    :meth:`add_clauses` splits the groups by the new columns' coverage; when the number of
    groups changes the LP over the merged rows is rebuilt (a :class:`HighsRuleMaster` over
    one row of each group), else the columns are appended to the warm LP.  Once the
    label-1 groups pass ``max_share`` of the label-1 rows the merging stops paying and the
    master becomes the LP over every row held as its dual
    (:class:`~optirules.models._dual_master.DualHighsRuleMaster`, one row per clause) for
    the rest of the run.

    The pool, ``objective_``, ``reduced_costs_`` and ``duals_for_pricing_`` (``mu``: one
    dual per label-1 row, the merged row's dual repeated) are those of the unmerged LP;
    :meth:`solve_ip` is :meth:`HighsRuleMaster.solve_ip` (over rows merged by the IP's own
    columns).

    Parameters
    ----------
    literals, labels, clauses, sample_weight, complexity, lambda0, lambda1, options
        As for :class:`HighsRuleMaster`.
    max_share : float, default 0.5
        Merging stops when the label-1 groups exceed this share of the label-1 rows.
    warm_start : bool, default True
        Start each rebuilt LP from the last LP's simplex basis, carried over to the split
        rows (:func:`_split_basis`); ``False`` starts every rebuilt LP cold.  The LP optimum
        is the same either way (tested); only the simplex iterations differ.

    Attributes
    ----------
    n_groups_ : int
        Rows of the current LP (merged label-1 rows, or every label-1 row once unmerged).
    merged_ : bool
        Whether the LP is still over merged rows.
    warm_started_ : int
        Rebuilt LPs that HiGHS accepted a carried-over basis for.
    """

    def __init__(self, literals: Any, labels: Any, clauses: Iterable[Iterable[Any]] = (), *,
                 sample_weight: Any = None, complexity: float | None = None,
                 lambda0: float = 0.0, lambda1: float = 0.0,
                 options: dict[str, Any] | None = None, max_share: float = 0.5,
                 warm_start: bool = True) -> None:
        self._data = d = _MasterData(literals, labels, sample_weight, complexity, lambda0,
                                     lambda1)
        self._kw = dict(complexity=d.budget, lambda0=d.lambda0, lambda1=d.lambda1,
                        options=dict(options or {}))
        self.max_share = float(max_share)
        self._group = d.y.astype(np.int64)  # by label only while the pool is empty
        self._group, self._first = _refine_groups(self._group, np.zeros((d.A.shape[0], 0)))
        self._inner: HighsRuleMaster | None = None
        self._pos_row = np.zeros(0, dtype=np.int64)
        self.merged_ = True
        self.warm_start = bool(warm_start)
        self.warm_started_ = 0
        self.add_clauses(clauses)
        if self._inner is None:
            self._rebuild()

    def _rebuild(self) -> None:
        d = self._data
        old = self._inner if self._inner is not None and self._inner._solved else None
        old_row = self._pos_row if old is not None else None  # old LP row of each positive
        if not self.merged_:  # rows that no longer merge: the LP as its dual (one row per
            # clause, DualHighsRuleMaster), solved cold
            from ._dual_master import DualHighsRuleMaster

            self._inner = DualHighsRuleMaster(d.A, d.y.astype(int), d.clauses,
                                              sample_weight=d.P, **self._kw)
            self.n_groups_ = len(d.pos)
            old = parent = None
        else:
            first = self._first
            weights = np.bincount(self._group, weights=d.P, minlength=first.size)
            self._inner = HighsRuleMaster(d.A[first], d.y[first].astype(int), d.clauses,
                                          sample_weight=weights, **self._kw)
            # the merged LP row of each label-1 row
            inner_row = np.cumsum(d.y[first]) - 1
            self._pos_row = inner_row[self._group[d.pos]]
            self._pos_share = d.P[d.pos] / weights[self._group[d.pos]].clip(min=1e-300)
            self.n_groups_ = int(d.y[first].sum())
            if old_row is not None:  # the old LP row of each new LP row's first row
                lead = np.full(self.n_groups_, -1, dtype=np.int64)
                lead[self._pos_row[::-1]] = np.arange(len(d.pos))[::-1]
                parent = old_row[lead]
        if old is not None and self.warm_start:
            self.warm_started_ += int(_split_basis(old, self._inner, parent))

    def add_clauses(self, clauses: Iterable[Iterable[Any]]) -> list[str]:
        """Append clauses (skipping those already present); returns their labels."""
        d = self._data
        new = d.add(clauses)
        if not new:
            return []
        if self.merged_:
            n_before = self._first.size
            self._group, self._first = _refine_groups(self._group,
                                                      d.coverage[:, new[0]:new[-1] + 1])
            if int(d.y[self._first].sum()) > self.max_share * len(d.pos):
                self.merged_ = False
                self._rebuild()
            elif self._first.size != n_before or self._inner is None:
                self._rebuild()
            else:
                self._inner.add_clauses([d.clauses[k] for k in new])
        else:
            self._inner.add_clauses([d.clauses[k] for k in new])
        return [clause_label(k) for k in new]

    def solve(self) -> float:
        """Solve the LP (merged or not); return and store ``objective_``."""
        inner = self._inner
        z = inner.solve()
        self.objective_ = z
        self.status_, self.iterations_ = inner.status_, inner.iterations_
        self.wall_time_ = inner.wall_time_
        self.w_ = inner.w_
        self.reduced_costs_ = inner.reduced_costs_
        self.selected_ = inner.selected_
        self.complexity_dual_ = inner.complexity_dual_
        if self.merged_:
            self.cover_duals_ = inner.cover_duals_[self._pos_row]
            self.xi_ = inner.xi_[self._pos_row] * self._pos_share
        else:
            self.cover_duals_ = inner.cover_duals_
            self.xi_ = inner.xi_
        self.duals_for_pricing_ = dict(inner.duals_for_pricing_, mu=self.cover_duals_.copy())
        return z

    def solve_ip(self, clauses: Iterable[Iterable[Any]] | None = None, *,
                 solver: str = "highs", time_limit: float | None = None,
                 mip_gap: float | None = None, incumbent: Iterable[Clause] = (),
                 random_seed: int | None = None, aggregate: bool = True) -> MasterIP:
        """The master IP over ``clauses`` (default: the pool), as
        :meth:`HighsRuleMaster.solve_ip` (same optimum over merged rows or not)."""
        return self._inner.solve_ip(clauses, solver=solver, time_limit=time_limit,
                                    mip_gap=mip_gap, incumbent=incumbent,
                                    random_seed=random_seed, aggregate=aggregate)


def _split_basis(old: HighsRuleMaster, new: HighsRuleMaster, parent: np.ndarray) -> bool:
    """Give ``new`` (a master over finer row groups, the same first columns and maybe more)
    a starting simplex basis from the solved ``old``.  ``parent[r]`` is the row of ``old``
    whose group holds new row ``r``'s rows.

    The first child of an old row takes the old statuses of its cover row and ``xi``
    column; each further child takes one basic variable: its row's slack when the old row
    was basic (inactive), else its ``xi``.  The basis keeps one basic variable per row;
    ``w`` columns and the budget row keep their status, new columns start at 0.  With the
    new columns at 0 the children of a row have the old row's coverage, so the start is
    primal feasible.  Returns whether
    HiGHS accepted the basis (else the next solve starts cold, as before).
    """
    import highspy

    basis = old._h.getBasis()
    if not basis.valid:
        return False
    basic, lower = highspy.HighsBasisStatus.kBasic, highspy.HighsBasisStatus.kLower
    code = {basic: 1, lower: 0}
    old_col = np.array([code.get(s, 2) for s in basis.col_status], dtype=np.int8)
    old_row = np.array([code.get(s, 2) for s in basis.row_status], dtype=np.int8)
    if old_row.size > old._n_pos:
        old_row[old._n_pos:] = 0
    n_old, n_new = old._n_pos, new._n_pos
    if (old_col == 2).any() or (old_row[:n_old] == 2).any() or parent.size != n_new:
        return False  # only the budget row may be nonbasic at its upper bound
    xi = old_col[:n_old][parent]
    row = old_row[:n_old][parent]
    extra = np.ones(n_new, dtype=bool)
    extra[np.unique(parent, return_index=True)[1]] = False  # the first child of each row
    row_basic = old_row[:n_old][parent] == 1
    xi[extra] = ~row_basic[extra]
    row[extra] = row_basic[extra]
    k_old = old_col.size - n_old
    col = np.concatenate([xi, old_col[n_old:], np.zeros(new._h.getNumCol() - n_new - k_old,
                                                         dtype=np.int8)])
    budget_row = list(basis.row_status)[n_old:]  # its own status (at its upper bound ...)
    if int(col.sum() + row.sum()) + sum(s == basic for s in budget_row) != \
            new._h.getNumRow():
        return False
    status = (lower, basic)
    b = highspy.HighsBasis()
    b.col_status = [status[v] for v in col]
    b.row_status = [status[v] for v in row] + budget_row
    b.valid = True
    return new._h.setBasis(b) == highspy.HighsStatus.kOk


#: LP solvers with a persistent Pyomo interface that returns duals: optirules name ->
#: (interface family, Pyomo solver name)
PERSISTENT_LP_SOLVERS = {"highs": ("contrib", "highs"),
                         "gurobi": ("classic", "gurobi_persistent"),
                         "cplex": ("classic", "cplex_persistent")}


class PersistentRuleMaster(_MasterIPMixin, _PoolView):
    r"""The restricted master LP as a Pyomo model held by a persistent solver interface.

    The LP of :class:`RuleMasterModel` (``relax=True``) is loaded once into the solver;
    :meth:`add_clauses` adds the new ``w`` columns to the solver's model and re-solves from
    its previous state: Gurobi and CPLEX through Pyomo's classic persistent interfaces
    (``add_column``: one column with its cover and budget coefficients), HiGHS through
    ``pyomo.contrib.solver``'s persistent ``highs`` (the changed cover rows are re-sent by
    its change detector).  SCIP has no persistent Pyomo interface that returns duals, so
    it cannot hold this LP (use :class:`RebuildRuleMaster`, which reaches SCIP's duals
    through cvxpy).

    The budget row is written :math:`\sum_k c_k w_k + s = C` with a slack
    :math:`s \ge 0` (so it exists before the first column); its dual is
    :math:`-\lambda` as for the inequality.

    Parameters
    ----------
    literals, labels, clauses, sample_weight, complexity, lambda0, lambda1
        As for :class:`HighsRuleMaster`.
    solver : {"highs", "gurobi", "cplex"}, default "highs"
        The LP solver.

    Attributes
    ----------
    objective_, cover_duals_, complexity_dual_, reduced_costs_, duals_for_pricing_
        As for :class:`HighsRuleMaster` (reduced costs computed from the duals,
        :func:`~optirules.models._clauses.reduced_costs`).
    wall_time_ : float
        Seconds of the last :meth:`solve` (model update included).
    """

    def __init__(self, literals: Any, labels: Any, clauses: Iterable[Iterable[Any]] = (), *,
                 sample_weight: Any = None, complexity: float | None = None,
                 lambda0: float = 0.0, lambda1: float = 0.0, solver: str = "highs") -> None:
        import pyomo.environ as pyo

        key = str(solver).strip().lower()
        if key not in PERSISTENT_LP_SOLVERS:
            raise InputError(
                f"no persistent Pyomo interface with LP duals for solver {solver!r}; the "
                f"persistent master takes {', '.join(PERSISTENT_LP_SOLVERS)} (use "
                "master='rebuild' for any other LP solver that returns duals)."
            )
        from ..solvers import get_backend

        get_backend(key, "pyomo")  # installed?
        self.solver = key
        self._data = d = _MasterData(literals, labels, sample_weight, complexity, lambda0,
                                     lambda1)
        rows = [row_label(i) for i in d.pos]
        m = pyo.ConcreteModel(name="rule_master_lp")
        m.rows = pyo.Set(initialize=rows, ordered=True)
        m.xi = pyo.Var(m.rows, within=pyo.NonNegativeReals)
        m.w = pyo.Var(pyo.Any, dense=False, within=pyo.NonNegativeReals)
        p_pos = dict(zip(rows, d.P[d.pos].tolist()))
        self._rows = rows
        self._p_pos = p_pos
        self._cover_terms: dict[str, list[Any]] = {r: [] for r in rows}
        self._obj_terms: list[Any] = []
        self._budget_terms: list[Any] = []
        m.cover = pyo.Constraint(m.rows, rule=lambda m, r: m.xi[r] >= p_pos[r])
        if d.budget is not None:
            m.slack = pyo.Var(within=pyo.NonNegativeReals)
            m.complexity = pyo.Constraint(expr=m.slack == d.budget)
        m.obj = pyo.Objective(expr=pyo.quicksum(m.xi[r] for r in rows), sense=pyo.minimize)
        m.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT)
        # never-binding rows (left side >= 0 > -1, so their duals are 0) that keep every
        # column referenced while the rows holding it are re-sent to a persistent solver
        m.anchor = pyo.ConstraintList()
        m.anchor.add(pyo.quicksum(m.xi[r] for r in rows)
                     + (m.slack if d.budget is not None else 0) >= -1.0)
        self.model = m
        self._instance_set = False
        family, name = PERSISTENT_LP_SOLVERS[key]
        self._family = family
        if family == "contrib":
            from pyomo.contrib.solver.common.factory import SolverFactory

            self._opt = SolverFactory(name)
        else:
            self._opt = pyo.SolverFactory(name)
            self._opt.set_instance(m)
        self._pending = list(d.add(clauses))
        self._loaded = 0

    def add_clauses(self, clauses: Iterable[Iterable[Any]]) -> list[str]:
        """Add the new clauses as columns (sent to the solver on the next :meth:`solve`)."""
        new = self._data.add(clauses)
        self._pending.extend(new)
        return [clause_label(k) for k in new]

    def _push_columns(self) -> None:
        import pyomo.environ as pyo

        if not self._pending:
            return
        d, m = self._data, self.model
        new, self._pending = self._pending, []
        obj = (d.neg_loss + d.penalty)[new]
        if self._family == "classic":
            for t, k in enumerate(new):
                var = m.w[clause_label(k)]
                rows = d.pos[d.coverage[d.pos, k]]
                cons = [m.cover[row_label(i)] for i in rows]
                coefs = d.P[rows].tolist()
                if d.budget is not None:
                    cons.append(m.complexity)
                    coefs.append(float(d.cost[k]))
                self._opt.add_column(m, var, float(obj[t]), cons, coefs)
            return
        touched: set[str] = set()
        new_vars = []
        for t, k in enumerate(new):
            var = m.w[clause_label(k)]
            new_vars.append(var)
            self._obj_terms.append(float(obj[t]) * var)
            for i in d.pos[d.coverage[d.pos, k]]:
                r = row_label(i)
                self._cover_terms[r].append(var)
                touched.add(r)
            if d.budget is not None:
                self._budget_terms.append(float(d.cost[k]) * var)
        changed = [m.cover[r] for r in self._rows if r in touched]
        if d.budget is not None:
            changed.append(m.complexity)
        opt = self._opt
        manual = self._instance_set
        if manual:  # tell the solver exactly what changed (no scan of the whole model)
            opt.add_variables(new_vars)
            # an anchor row per batch (see __init__): the interface then does not delete and
            # re-add the columns of the re-sent rows
            opt.add_constraints([m.anchor.add(pyo.quicksum(new_vars) >= -1.0)])
            opt.remove_constraints(changed)
        for r in touched:
            m.cover[r].set_value(
                m.xi[r] + self._p_pos[r] * pyo.quicksum(self._cover_terms[r]) >= self._p_pos[r])
        if d.budget is not None:
            m.complexity.set_value(pyo.quicksum(self._budget_terms) + m.slack == d.budget)
        m.obj.expr = pyo.quicksum(m.xi[r] for r in self._rows) + pyo.quicksum(self._obj_terms)
        if manual:
            opt.add_constraints(changed)
            opt.set_objective(m.obj)

    def solve(self) -> float:
        """Send the new columns to the solver, re-solve and read the duals."""
        t0 = time.perf_counter()
        self._push_columns()
        m, d = self.model, self._data
        if self._family == "contrib":
            import warnings

            from pyomo.contrib.solver.common.results import TerminationCondition

            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message="ModelChangeDetector")
                res = self._opt.solve(m, load_solutions=False,
                                      raise_exception_on_nonoptimal_result=False)
            if res.termination_condition != TerminationCondition.convergenceCriteriaSatisfied:
                raise SolverError(f"{self.solver} did not solve the rule master LP "
                                  f"({res.termination_condition.name}).")
            duals = res.solution_loader.get_duals()
            objective = float(res.incumbent_objective)
            if not self._instance_set:  # loaded: from now on the updates are explicit
                auto = self._opt.config.auto_updates
                for key in list(auto):
                    setattr(auto, key, False)
                self._instance_set = True
        else:
            from pyomo.opt import TerminationCondition

            res = self._opt.solve(load_solutions=False, save_results=False)
            if res.solver.termination_condition != TerminationCondition.optimal:
                raise SolverError(f"{self.solver} did not solve the rule master LP "
                                  f"({res.solver.termination_condition}).")
            self._opt.load_vars()
            self._opt.load_duals()
            duals = m.dual
            import pyomo.environ as pyo

            for v in m.w.values():  # a column in no row may come back without a value
                if v.value is None:
                    v.set_value(0.0, skip_validation=True)
            objective = float(pyo.value(m.obj))
        mu = np.array([duals[m.cover[r]] for r in self._rows], dtype=float)
        lam = -float(duals[m.complexity]) if d.budget is not None else 0.0
        self.wall_time_ = time.perf_counter() - t0
        return self._store_duals(objective, mu, lam)


class RebuildRuleMaster(_MasterIPMixin, _PoolView):
    r"""The restricted master LP rebuilt and solved from scratch at every :meth:`solve`.

    For any LP solver that returns duals: through Pyomo (:class:`RuleMasterModel` with
    ``relax=True``) where the solver returns duals there (HiGHS, CBC's CLP, Gurobi,
    CPLEX), otherwise as a ``cvxpy.Problem`` in matrix form (SCIP, Clarabel, SCS, OSQP,
    SciPy's HiGHS):

    .. math::

        \min\ \mathbf 1^\top \xi + (z + \pi)^\top w \quad \text{s.t. }
        \xi + \operatorname{diag}(P^+) A^+ w \ge P^+,\ c^\top w \le C,\ \xi, w \ge 0

    with :math:`A^+` the coverage of the label-1 rows, :math:`z_k = \sum_{i \in Z_k} P_i`
    and :math:`\pi_k = \lambda_0 + \lambda_1 |k|`.  Cover duals :math:`\mu \ge 0` and
    :math:`\lambda \ge 0` are read from the constraints.  Interior-point solvers
    (Clarabel, SCS) return duals to their tolerance only, so column generation with them
    prices approximately.

    Parameters
    ----------
    literals, labels, clauses, sample_weight, complexity, lambda0, lambda1
        As for :class:`HighsRuleMaster`.
    solver : str, default "highs"
        Any solver with LP duals on the Pyomo or the cvxpy route
        (:func:`~optirules.solvers.available_solvers`).
    route : {"auto", "pyomo", "cvxpy"}, default "auto"
        ``"auto"``: Pyomo when the solver returns duals there, else cvxpy.
    """

    def __init__(self, literals: Any, labels: Any, clauses: Iterable[Iterable[Any]] = (), *,
                 sample_weight: Any = None, complexity: float | None = None,
                 lambda0: float = 0.0, lambda1: float = 0.0, solver: str = "highs",
                 route: str = "auto") -> None:
        from ..solvers import available_solvers

        self._data = _MasterData(literals, labels, sample_weight, complexity, lambda0,
                                 lambda1)
        self._data.add(clauses)
        key = str(solver).strip().lower()
        info = {s.name: s for s in available_solvers()}.get(key)
        routes = [r for r in ("pyomo", "cvxpy")
                  if info is not None and info.can("lp", r) and info.can("duals", r)]
        if route not in ("auto", "pyomo", "cvxpy"):
            raise InputError(f"route must be 'auto', 'pyomo' or 'cvxpy', got {route!r}.")
        if route != "auto":
            routes = [r for r in routes if r == route]
        if not routes:
            able = [s.name for s in available_solvers()
                    if any(s.can("lp", r) and s.can("duals", r) for r in ("pyomo", "cvxpy"))]
            raise InputError(
                f"solver {solver!r} cannot solve the rule master LP with duals"
                f"{'' if route == 'auto' else ' on the ' + route + ' route'}; installed "
                f"LP solvers that return duals: {', '.join(able)}."
            )
        self.solver = key
        self.route = routes[0]

    def add_clauses(self, clauses: Iterable[Iterable[Any]]) -> list[str]:
        """Add clauses to the pool; the next :meth:`solve` rebuilds the LP."""
        return [clause_label(k) for k in self._data.add(clauses)]

    def solve(self) -> float:
        """Build the LP over the current pool, solve it and read the duals."""
        t0 = time.perf_counter()
        d = self._data
        if self.route == "pyomo":
            lp = RuleMasterModel(d.A, d.y.astype(int), d.clauses, sample_weight=d.P,
                                 complexity=d.budget, lambda0=d.lambda0,
                                 lambda1=d.lambda1, relax=True)
            lp.solve(self.solver)
            out = self._store_duals(lp.objective_, lp.cover_duals_, lp.complexity_dual_)
        else:
            out = self._solve_cvxpy()
        self.wall_time_ = time.perf_counter() - t0
        return out

    def _solve_cvxpy(self) -> float:
        import cvxpy as cp
        import scipy.sparse as sp

        from ..solvers import solve

        d = self._data
        n_pos, K = len(d.pos), len(d.clauses)
        p_pos = d.P[d.pos]
        xi = cp.Variable(n_pos, nonneg=True)
        if K:
            w = cp.Variable(K, nonneg=True)
            cover_matrix = sp.csr_matrix(d.coverage[d.pos].astype(float) * p_pos[:, None])
            cover = xi + cover_matrix @ w >= p_pos
            cons = [cover]
            objective = cp.sum(xi) + (d.neg_loss + d.penalty) @ w
            if d.budget is not None:
                budget = d.cost @ w <= d.budget
                cons.append(budget)
        else:
            cover = xi >= p_pos
            cons, objective = [cover], cp.sum(xi)
        result = solve(cp.Problem(cp.Minimize(objective), cons), self.solver)
        if not result.has_solution:
            result.raise_for_status()
        mu = np.maximum(np.asarray(cover.dual_value, dtype=float).reshape(-1), 0.0)
        # a row no pool column covers has xi_i = P_i > 0, so its dual is exactly 1 in every
        # optimal pair (complementary slackness on xi_i); cvxpy's SCIP interface reports
        # 0 there, since SCIP turns a one-variable row into a bound, which has no dual
        alone = ~d.coverage[d.pos].any(axis=1) & (p_pos > 0)
        mu[alone] = 1.0
        lam = float(budget.dual_value) if K and d.budget is not None else 0.0
        return self._store_duals(float(result.objective), mu, lam)
