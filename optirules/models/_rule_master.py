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

import time
from collections.abc import Callable, Iterable
from typing import Any

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

__all__ = ["RuleMasterModel", "HighsRuleMaster"]


class _MasterData:
    """Validated data and the clause pool shared by the Pyomo master and the highspy path."""

    def __init__(self, A: Any, y: Any, sample_weight: Any, complexity_budget: Any,
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
        if complexity_budget is not None:
            complexity_budget = check_nonnegative(complexity_budget, "complexity_budget")
        self.budget = complexity_budget
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

    Budget form (the DRO paper): ``complexity_budget=C`` and :math:`\lambda_0=\lambda_1=0`.
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
    A : array of shape (N, L)
        Binary literal matrix (columns are literals: features and their negations).
    y : array of shape (N,)
        Labels in {0, 1}; at least one must be 1.
    clauses : iterable of tuples of int, default ()
        Initial clause pool (each a tuple of literal indices; duplicates are dropped).
    sample_weight : array of shape (N,), optional
        Weights ``P`` (a pmf in the DRO paper; default uniform ``1/N``).
    complexity_budget : float, optional
        ``C`` in eq 8; ``None`` drops the budget row (penalty form).
    lambda0, lambda1 : float, default 0
        Penalty-form cost per clause and per literal.
    relax : bool, default False
        Solve the LP relaxation (``w >= 0``) and read the duals.

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

    def __init__(self, A: Any, y: Any, clauses: Iterable[Iterable[Any]] = (), *,
                 sample_weight: Any = None, complexity_budget: float | None = None,
                 lambda0: float = 0.0, lambda1: float = 0.0, relax: bool = False) -> None:
        self._data = _MasterData(A, y, sample_weight, complexity_budget, lambda0, lambda1)
        self.relax = bool(relax)
        self._data.add(clauses)

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
        labels = [clause_label(k) for k in range(len(d.clauses))]
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
        m.xi = pyo.Var(m.rows, within=pyo.NonNegativeReals, doc="weighted loss of row i")
        m.w = pyo.Var(m.clauses, within=pyo.NonNegativeReals if self.relax else pyo.Binary,
                      doc="1 if clause k is in the rule set")
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


class HighsRuleMaster(_PoolView):
    r"""The LP relaxation of :class:`RuleMasterModel` held in a warm ``highspy.Highs``.

    Same data, same formulation (the DRO paper eqs 6-8 relaxed to ``w >= 0``, or the
    penalty form) and same dual conventions as ``RuleMasterModel(..., relax=True)``;
    :meth:`add_clauses` appends columns with ``Highs.addCols`` so the next
    :meth:`solve` restarts the simplex from the previous basis (the fast path of a
    column-generation loop).  Build the final integer program over
    the generated pool with :meth:`to_model`.

    Column layout: ``xi(i_i)`` for the label-1 rows, then ``w(clause_k)``; rows:
    ``cover(i_i)`` then ``complexity`` (budget form only); the names use parentheses,
    as Pyomo's LP writer does, because HiGHS drops names with brackets from .lp files.
    HiGHS reports row duals as d objective / d rhs, which for the cover rows is
    :math:`\mu_i \ge 0` and for the budget row :math:`-\lambda`;
    ``complexity_dual_`` is :math:`\lambda`.  The duals of this degenerate LP need not
    equal those of the Pyomo route vertex for vertex; both are optimal duals (tested).

    Parameters
    ----------
    A, y, clauses, sample_weight, complexity_budget, lambda0, lambda1
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

    def __init__(self, A: Any, y: Any, clauses: Iterable[Iterable[Any]] = (), *,
                 sample_weight: Any = None, complexity_budget: float | None = None,
                 lambda0: float = 0.0, lambda1: float = 0.0,
                 options: dict[str, Any] | None = None) -> None:
        import highspy

        self._data = d = _MasterData(A, y, sample_weight, complexity_budget, lambda0, lambda1)
        self._inf = highspy.kHighsInf
        from ..solvers import new_highs

        h = new_highs()
        for key, value in (options or {}).items():
            status = h.setOptionValue(key, value)
            if status != highspy.HighsStatus.kOk:
                raise InputError(
                    f"HiGHS rejected the option {key}={value!r}; see the HiGHS option list "
                    "(https://ergo-code.github.io/HiGHS/stable/options/definitions/)."
                )
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
        for t, i in enumerate(d.pos):
            h.passColName(t, f"xi({row_label(i)})")
            h.passRowName(t, f"cover({row_label(i)})")
        if d.budget is not None:
            h.passRowName(n_pos, "complexity")
        self._h = h
        self._n_pos = n_pos
        # position of each data row among the label-1 rows (row index in the LP)
        self._pos_row = np.full(d.A.shape[0], -1, dtype=np.int64)
        self._pos_row[d.pos] = np.arange(n_pos)
        self._solved = False
        self.add_clauses(clauses)

    @property
    def highs(self) -> Any:
        """The underlying ``highspy.Highs`` object (for inspection; do not modify)."""
        return self._h

    def add_clauses(self, clauses: Iterable[Iterable[Any]]) -> list[str]:
        """Append clauses (skipping those already present) as columns of the warm LP.

        Returns the labels (``clause_k``) of the new columns.
        """
        d = self._data
        new = d.add(clauses)
        if not new:
            return []
        cov = d.coverage[:, new]
        starts, indices, values = [], [], []
        nnz = 0
        p = d.P
        for t in range(len(new)):
            rows = np.flatnonzero(cov[:, t] & d.y)
            starts.append(nnz)
            indices.append(self._pos_row[rows])
            values.append(p[rows])
            nnz += len(rows)
            if d.budget is not None:
                indices.append(np.array([self._n_pos]))
                values.append(np.array([d.cost[new[t]]]))
                nnz += 1
        idx = np.concatenate(indices).astype(np.int32) if indices else np.zeros(0, np.int32)
        val = np.concatenate(values).astype(float) if values else np.zeros(0)
        k = len(new)
        cost = d.neg_loss[new] + d.penalty[new]
        self._h.addCols(k, cost.astype(float), np.zeros(k), np.full(k, self._inf), nnz,
                        np.asarray(starts, dtype=np.int32), idx, val)
        base = self._n_pos
        for c in new:
            self._h.passColName(base + c, f"w({clause_label(c)})")
        return [clause_label(c) for c in new]

    def solve(self) -> float:
        """Re-solve the LP from the current basis; return and store ``objective_``."""
        import highspy

        h = self._h
        t0 = time.perf_counter()
        run_status = h.run()
        self.wall_time_ = time.perf_counter() - t0
        model_status = h.getModelStatus()
        self.status_ = h.modelStatusToString(model_status)
        if run_status == highspy.HighsStatus.kError or \
                model_status != highspy.HighsModelStatus.kOptimal:
            raise SolverError(
                f"HiGHS did not solve the rule master LP (status {self.status_!r}); check "
                "the data (e.g. a negative budget) or solve RuleMasterModel(relax=True) with "
                "another solver."
            )
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

    def to_model(self, *, relax: bool = False) -> RuleMasterModel:
        """The declarative :class:`RuleMasterModel` over the same data and clause pool."""
        d = self._data
        return RuleMasterModel(d.A, d.y.astype(int), d.clauses, sample_weight=d.P,
                               complexity_budget=d.budget, lambda0=d.lambda0,
                               lambda1=d.lambda1, relax=relax)

    def write(self, path: Any) -> None:
        """Write the LP (with its readable names) to ``path`` (.lp or .mps) via HiGHS."""
        import highspy

        path = str(path)
        if not path.endswith((".lp", ".mps")):
            raise InputError(f"cannot write {path!r}: use a .lp or .mps suffix.")
        if self._h.writeModel(path) == highspy.HighsStatus.kError:
            raise SolverError(f"HiGHS could not write {path!r}; check the directory exists.")

