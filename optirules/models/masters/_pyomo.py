r"""The weighted Hamming-loss rule master of the DRO paper (eqs 6-8) as a declarative Pyomo model.

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

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ...errors import InputError, SolverError
from .._base import OptModel
from .._clauses import (
    clause_label,
    row_label,
)
from .._problem import RuleSetProblem
from ._data import (
    MasterData,
    PoolView,
    lp_name,
)


class RuleMasterModel(PoolView, OptModel):
    r"""Weighted Hamming-loss rule master IP (the DRO paper, eqs 6-8) over a pool of clauses.

    .. math::

        \min_{w, \xi}\ & \sum_{i \in P^+} \xi_i
            + \sum_{k \in K} \Big(\sum_{i \in Z_k} P_i + \lambda_0 + \lambda_1 |k|\Big) w_k \\
        \text{s.t. } & \xi_i + P_i \sum_{k \in K_i} w_k \ge P_i
            \quad (i \in P^+) && \texttt{cover[i\_i]}\ (\mu_i) \\
        & \sum_{k \in K} c_k w_k \le C && \texttt{complexity}\ (\lambda) \\
        & \sum_{k \in K} w_k \le R,\quad \sum_{k \in K} |k| w_k \le M
            && \texttt{max\_rules},\ \texttt{max\_literals}\ (\nu_R, \nu_M) \\
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
    :math:`r(k)` (:func:`~optirules.models.reduced_costs`), and column
    generation can stop as soon as pricing finds no :math:`r(k) < 0`.  The duals
    are exposed as ``cover_duals_`` (:math:`\mu \ge 0`) and ``complexity_dual_``
    (:math:`\lambda \ge 0`, i.e. minus d objective / d C).  They need not be
    unique (this LP is usually degenerate); any optimal dual prices correctly.

    Side constraints come with a :class:`~optirules.models.RuleSetProblem` (its fields of
    these names), through :meth:`from_problem`:

    * ``max_rules``, ``max_literals``: at most ``R`` clauses, at most ``M`` literals in all
      (rows ``max_rules`` and ``max_literals``; their duals :math:`\nu_R, \nu_M \ge 0` add
      to :math:`\lambda_0` and :math:`\lambda_1` in the reduced cost, since a clause's
      coefficient there is 1 and :math:`|k|`);
    * ``literal_costs``: a cost > 0 per literal: a clause's :math:`|k|` is then the sum of
      its literals' costs in every term that counts literals (:math:`c_k = 1 + |k|`, the
      penalty :math:`\lambda_1 |k|`, the ``max_literals`` row);
    * ``required``: groups of literals (a required feature's literals): a row
      ``required[f]``, :math:`\sum_{k \text{ uses } f} w_k \ge 1`, per group, so every
      rule set uses each (relaxed: plus an ``artificial[f]`` column of cost ``big_m``,
      which keeps the LP feasible over any pool; its dual :math:`\rho_f \ge 0` is a bonus
      in pricing);
    * ``groups``, ``fairness``, ``fairness_tolerance``: the protected attribute (one value
      per row) and the fairness rows (constraints ``exact_pos``, ``fnr``, ``neg_cover``,
      ``exact_neg`` and ``fpr``; Lawless, Dash, Günlük and Wei, "Interpretable and Fair
      Boolean Rule Sets via Column Generation", JMLR 24, 2023; see
      :func:`~optirules.models.column_generation`): the label-1 rows' miss rates (equal
      opportunity), the label-0 rows' coverage rates (predictive equality), or both,
      within ``fairness_tolerance`` of each other across groups.

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
        columns are indexed by ``lp_name`` of each (``w(x1_le_0p19_and_c0_eq_a)`` in
        an .lp file) instead of ``clause_k``, and :meth:`write` puts one comment line per
        column with the name as given.

    Attributes
    ----------
    clauses_ : list of tuple of int
        The clause pool; column ``k`` is labelled ``clause_k`` in the model.
    w_ : ndarray of shape (K,)
        Values of ``w`` after :meth:`~optirules.models.OptModel.solve`.
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
    limit_duals_ : dict
        Relaxed only: the duals :math:`\nu \ge 0` of the ``max_rules`` and
        ``max_literals`` rows that are set.
    reduced_costs_ : ndarray of shape (K,)
        Relaxed only: reduced costs of the pool's columns from these duals.
    duals_for_pricing_ : dict
        Relaxed only: ``mu``, ``lam``, ``lambda0``, ``lambda1`` (the penalties plus the
        limit rows' duals) to pass to
        :class:`~optirules.models.RulePricingModel` or
        :func:`~optirules.models.beam_search_pricing`.

    Notes
    -----
    :meth:`add_clauses` drops the built Pyomo model; it is rebuilt on the next use
    of ``model``.  For a column-generation inner loop use
    :class:`HighsRuleMaster`, which adds columns to a warm HiGHS LP.
    """

    def __init__(self, literals: Any, labels: Any, clauses: Iterable[Iterable[Any]] = (), *,
                 sample_weight: Any = None, complexity: float | None = None,
                 lambda0: float = 0.0, lambda1: float = 0.0, relax: bool = False,
                 clause_names: Iterable[str] | None = None) -> None:
        self._start(RuleSetProblem(literals, labels, sample_weight, complexity, lambda0,
                                   lambda1), clauses, relax, clause_names)

    @classmethod
    def from_problem(cls, problem: RuleSetProblem, clauses: Iterable[Iterable[Any]] = (), *,
                     relax: bool = False,
                     clause_names: Iterable[str] | None = None) -> RuleMasterModel:
        """The master of ``problem`` (its data, budget, penalties and every side
        constraint: ``max_rules``, ``max_literals``, ``literal_costs``, ``required`` and the
        fairness rows, as described above) over the pool ``clauses``.

        Parameters
        ----------
        problem : RuleSetProblem
            The problem (its ``max_degree`` and ``conflicts`` are pricing's and unused here).
        clauses : iterable of tuples of int, default ()
            The clause pool.
        relax : bool, default False
            Solve the LP relaxation.
        clause_names : sequence of str, optional
            Names of the clauses (as for the constructor).

        Returns
        -------
        RuleMasterModel
        """
        model = cls.__new__(cls)
        model._start(problem, clauses, relax, clause_names)
        return model

    def _start(self, problem: RuleSetProblem, clauses: Iterable[Iterable[Any]], relax: bool,
               clause_names: Iterable[str] | None) -> None:
        self._data = MasterData(problem)
        self.relax = bool(relax)
        self._data.add(clauses)
        self._names = None if clause_names is None else [str(n) for n in clause_names]
        if self._names is not None and len(self._names) != len(self._data.clauses):
            raise InputError(f"clause_names has {len(self._names)} names for "
                             f"{len(self._data.clauses)} distinct clauses; give one per clause.")

    def add_clauses(self, clauses: Iterable[Iterable[Any]]) -> list[str]:
        """Add clauses to the pool (clauses already there are skipped).

        The Pyomo model is rebuilt on next use and any previous solution is forgotten.

        Parameters
        ----------
        clauses : iterable of clauses
            Clauses as iterables of literal indices.

        Returns
        -------
        list of str
            The labels (``clause_k``) of the new columns.
        """
        new = self._data.add(clauses)
        if new:
            self._model = None
            self.result_ = None
            for name in ("w_", "xi_", "selected_", "objective_", "cover_duals_",
                         "complexity_dual_", "reduced_costs_", "duals_for_pricing_",
                         "limit_duals_"):
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
        degree = dict(zip(labels, d.degrees.tolist()))
        for name, a0, a1, rhs in d.limits if d.clauses else ():
            setattr(m, name, pyo.Constraint(
                expr=pyo.quicksum((a0 + a1 * degree[k]) * m.w[k] for k in m.clauses) <= rhs,
                doc="at most R rules" if name == "max_rules" else "at most M literals"))
        if d.fair is not None:
            _fairness_rows(m, d, labels)
        if d.required:
            uses = d.required_coefficients(range(len(d.clauses)))
            m.groups = pyo.Set(initialize=list(range(len(d.required))), ordered=True,
                               doc="required features")
            if self.relax:  # an artificial column of cost big_m keeps the LP feasible
                m.artificial = pyo.Var(m.groups, within=pyo.NonNegativeReals,
                                       initialize=0.0, doc="required row not met")
                m.hamming_loss.expr = m.hamming_loss.expr + d.big_m * pyo.quicksum(
                    m.artificial[f] for f in m.groups)
            m.required = pyo.Constraint(
                m.groups, rule=lambda m, f: pyo.quicksum(
                    m.w[labels[k]] for k in np.flatnonzero(uses[f]))
                + (m.artificial[f] if self.relax else 0) >= 1,
                doc="the rule set uses a literal of required feature f")
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
        ``clause_names``, one comment line per ``w`` column gives its clause as named.

        Parameters
        ----------
        path : str or path-like
            File name ending in ``.lp`` or ``.mps``.
        """
        from ...solvers import write_model

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
        nu = [-duals(getattr(m, name)) if hasattr(m, name) else 0.0
              for name, *_ in d.limits]
        self.cover_duals_ = mu
        self.complexity_dual_ = float(lam) + 0.0
        self.limit_duals_ = {name: max(v, 0.0) + 0.0 for (name, *_), v in zip(d.limits, nu)}
        sigma = None
        if d.fair is not None and d.fair.negative:
            sigma = np.array([-duals(m.neg_cover[r]) for r in m.neg_rows], dtype=float)
        required_duals = [duals(m.required[f]) for f in m.groups] if d.required else None
        self.duals_for_pricing_ = p = d.pricing_duals(mu, lam, nu, sigma, required_duals)
        self.reduced_costs_ = d.reduced_costs(mu, p["lam"], p["lambda0"], p["lambda1"],
                                              p.get("sigma"), p.get("required_duals"))


def _fairness_rows(m: Any, d: Any, labels: list[str]) -> None:
    """The fairness rows of :mod:`._fairness` on the Pyomo model ``m``: ``xi <= P``,
    ``exact_pos``, ``fnr(a,b)`` on the label-1 rows; ``delta``, ``neg_cover``,
    ``exact_neg``, ``fpr(a,b)`` on the label-0 rows."""
    import pyomo.environ as pyo

    f = d.fair
    eps = f.tolerance
    if f.positive:
        rows = list(m.rows)
        pairs = [(rows[t], labels[k]) for t, k in zip(*np.nonzero(d.coverage[d.pos]))]
        for r, i in zip(rows, d.pos):
            m.xi[r].setub(float(d.P[i]))
        m.exact_pos = pyo.Constraint(
            pairs, rule=lambda m, r, k: m.xi[r] + m.P[r] * m.w[k] <= m.P[r],
            doc="xi_i = 0 when a chosen clause covers row i")
        names, M = f.rate_rows("pos")
        m.fnr = pyo.Constraint(
            names, rule=lambda m, n: pyo.quicksum(
                float(M[names.index(n), t]) * m.xi[rows[t]]
                for t in np.flatnonzero(M[names.index(n)])) <= eps,
            doc="false-negative rate of group a minus that of group b")
    if f.negative:
        neg = [row_label(i) for i in d.neg]
        m.neg_rows = pyo.Set(initialize=neg, ordered=True, doc="label-0 rows")
        weight = dict(zip(neg, d.P[d.neg].tolist()))
        m.delta = pyo.Var(m.neg_rows, bounds=lambda m, r: (0.0, weight[r]), initialize=0.0,
                          doc="P_i when a chosen clause covers row i")
        cov = d.coverage[d.neg]
        covering = {neg[t]: [labels[k] for k in np.flatnonzero(cov[t])]
                    for t in range(len(neg))}
        m.neg_cover = pyo.Constraint(
            m.neg_rows, rule=lambda m, r: m.delta[r]
            - weight[r] * pyo.quicksum(m.w[k] for k in covering[r]) <= 0,
            doc="delta_i = 0 when no chosen clause covers row i")
        pairs = [(neg[t], labels[k]) for t, k in zip(*np.nonzero(cov))]
        m.exact_neg = pyo.Constraint(
            pairs, rule=lambda m, r, k: m.delta[r] - weight[r] * m.w[k] >= 0,
            doc="delta_i = P_i when a chosen clause covers row i")
        names, M = f.rate_rows("neg")
        m.fpr = pyo.Constraint(
            names, rule=lambda m, n: pyo.quicksum(
                float(M[names.index(n), t]) * m.delta[neg[t]]
                for t in np.flatnonzero(M[names.index(n)])) <= eps,
            doc="false-positive rate of group a minus that of group b")


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

