"""The restricted master LP held in one warm ``highspy`` model, columns appended."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import numpy as np

from ...solvers import capable
from .. import options as model_options
from .._clauses import (
    Clause,
    clause_label,
    normalize_clauses,
    row_label,
)
from .._problem import RuleSetProblem
from ._data import (
    MasterData,
    PoolView,
)
from ._highs_fair import FairLayout
from ._highs_lp import (
    highs_with_options,
    run_lp,
)
from ._ip import (
    MasterIPMixin,
)
from ._protocol import (
    MasterIP,
    solve_ip_doc,
)
from ._pyomo import (
    RuleMasterModel,
)

#: HiGHS options of the master IP on the highspy route: its sub-MIP heuristics (RINS, RENS,
#: root reduced-cost) off.  They only look for incumbents, so the optimum is unchanged, and
#: the IPs of WDBC's folds and harder IPs over the same pools were faster or no slower
#: without them (figures in docs/user_guide/models.md).
_IP_OPTIONS = {"mip_heuristic_run_rins": False, "mip_heuristic_run_rens": False,
               "mip_heuristic_run_root_reduced_cost": False}
#: ... and from options.LARGE_MASTER_IP_ROWS cover rows on, presolve and the feasibility-jump
#: heuristic off too, and pseudocosts from the first branching on
#: (``mip_pscost_minreliable=0``): on the DRO members' large IPs presolve removes almost no
#: rows and costs a large share of the solve, and these IPs solve faster with the three
#: settings at the same objective within the gap; small IPs keep HiGHS's defaults (the runs
#: are in benchmarks/results/dro_master.md, the figures in docs/user_guide/models.md).
_LARGE_IP_OPTIONS = {"presolve": "off", "mip_heuristic_run_feasibility_jump": False,
                     "mip_pscost_minreliable": 0}


#: HiGHS tolerances of the restricted master LP and the branch-and-bound node LPs (tighter


class HighsRuleMaster(MasterIPMixin, PoolView):
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

    The side constraints come with a :class:`~optirules.models.RuleSetProblem`, through
    :meth:`from_problem`: the limit rows (``max_rules``, ``max_literals``) follow the
    budget row; the fairness rows' :math:`\delta` columns follow the :math:`\xi` columns,
    their rows the limit rows, and each clause's pair rows are added with its column; the
    artificial columns of the required rows follow the :math:`\delta` columns.

    Parameters
    ----------
    literals, labels, clauses, sample_weight, complexity, lambda0, lambda1
        As for :class:`RuleMasterModel`.
    options : dict, optional
        Extra HiGHS options (``{"primal_feasibility_tolerance": 1e-9}`` ...).

    Attributes
    ----------
    objective_, w_, xi_, cover_duals_, complexity_dual_, limit_duals_, duals_for_pricing_
        As for :class:`RuleMasterModel` with ``relax=True``.
    reduced_costs_ : ndarray of shape (K,)
        HiGHS's column duals of the ``w`` columns (equal to
        :func:`~optirules.models.reduced_costs` at these duals).
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
        self._start(RuleSetProblem(literals, labels, sample_weight, complexity, lambda0,
                                   lambda1), clauses, options)

    @classmethod
    def from_problem(cls, problem: RuleSetProblem, clauses: Iterable[Iterable[Any]] = (), *,
                     options: dict[str, Any] | None = None) -> HighsRuleMaster:
        """The master LP of ``problem`` (its data, budget, penalties and every side
        constraint: limit rows, fairness rows, literal costs, required groups) over the
        pool ``clauses``.

        Parameters
        ----------
        problem : RuleSetProblem
            The problem (its ``max_degree`` and ``conflicts`` are pricing's and unused here).
        clauses : iterable of clauses, default ()
            The initial pool.
        options : dict, optional
            Extra HiGHS options.

        Returns
        -------
        HighsRuleMaster
        """
        master = cls.__new__(cls)
        master._start(problem, clauses, options)
        return master

    def _start(self, problem: RuleSetProblem, clauses: Iterable[Iterable[Any]],
               options: dict[str, Any] | None) -> None:
        import highspy

        self._data = d = MasterData(problem)
        self._inf = highspy.kHighsInf
        self._options = dict(options or {})
        h = highs_with_options(self._options)
        n_pos = len(d.pos)
        # with fairness rows on the label-1 rows, xi_i <= P_i (their miss indicator)
        xi_upper = d.P[d.pos].astype(float) if d.fair is not None and d.fair.positive else \
            np.full(n_pos, self._inf)
        h.addVars(n_pos, np.zeros(n_pos), xi_upper)
        h.changeColsCost(n_pos, np.arange(n_pos, dtype=np.int32), np.ones(n_pos))
        p_pos = d.P[d.pos]
        h.addRows(n_pos, p_pos.astype(float), np.full(n_pos, self._inf), n_pos,
                  np.arange(n_pos, dtype=np.int32), np.arange(n_pos, dtype=np.int32),
                  np.ones(n_pos))
        if d.budget is not None:
            h.addRows(1, np.array([-self._inf]), np.array([d.budget]), 0,
                      np.zeros(1, dtype=np.int32), np.zeros(0, dtype=np.int32), np.zeros(0))
        # the limit rows (max_rules, max_literals) follow the budget row
        self._limit_row0 = n_pos + (d.budget is not None)
        n_lim = len(d.limits)
        if n_lim:
            h.addRows(n_lim, np.full(n_lim, -self._inf),
                      np.array([rhs for *_, rhs in d.limits], dtype=float), 0,
                      np.zeros(n_lim, dtype=np.int32), np.zeros(0, dtype=np.int32),
                      np.zeros(0))
        self._h = h
        self._n_pos = n_pos
        self._fair = None if d.fair is None else FairLayout(self)
        # the required rows: sum of the w using group f, plus an artificial s_f of cost
        # big_m (0 in the IP), >= 1
        n_req = len(d.required)
        self._req_col0, self._req_row0 = h.getNumCol(), h.getNumRow()
        if n_req:
            h.addVars(n_req, np.zeros(n_req), np.full(n_req, self._inf))
            h.changeColsCost(n_req, self._req_col0 + np.arange(n_req, dtype=np.int32),
                             np.full(n_req, d.big_m))
            h.addRows(n_req, np.ones(n_req), np.full(n_req, self._inf), n_req,
                      np.arange(n_req, dtype=np.int32),
                      (self._req_col0 + np.arange(n_req)).astype(np.int32), np.ones(n_req))
        if self._fair is not None:
            self._fair.pair_row0 = h.getNumRow()
        self._w0 = h.getNumCol()  # the first w column
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
        base = self._w0
        if self._fair is not None:
            self._fair.name(self)
        if not self._rows_named:  # xi columns and rows: one Python call each (slow on 1M rows)
            h, d = self._h, self._data
            for t, i in enumerate(d.pos):
                h.passColName(t, f"xi({row_label(i)})")
                h.passRowName(t, f"cover({row_label(i)})")
            if d.budget is not None:
                h.passRowName(self._n_pos, "complexity")
            for r, (name, *_) in enumerate(d.limits):
                h.passRowName(self._limit_row0 + r, name)
            for r in range(len(d.required)):
                h.passRowName(self._req_row0 + r, f"required({r})")
                h.passColName(self._req_col0 + r, f"artificial({r})")
            self._rows_named = True
        for c in range(self._named, len(self._data.clauses)):
            self._h.passColName(base + c, f"w({clause_label(c)})")
        self._named = len(self._data.clauses)

    def add_clauses(self, clauses: Iterable[Iterable[Any]]) -> list[str]:
        """Append clauses (skipping those already present) as columns of the warm LP.

        Parameters
        ----------
        clauses : iterable of clauses
            Clauses as iterables of literal indices.

        Returns
        -------
        list of str
            The labels (``clause_k``) of the new columns.
        """
        d = self._data
        new = d.add(clauses)
        if not new:
            return []
        # one addCols call for the batch, its sparse columns built without a Python loop:
        # column t holds P_i on the cover rows of the label-1 rows it covers, then c_k on
        # the budget row, then its coefficients in the limit rows
        k = len(new)
        cov = d.coverage[d.pos, new[0]:new[-1] + 1]  # the new columns are the last ones
        col, row = np.nonzero(cov.T)  # row-major over the transpose: by column, then row
        counts = np.bincount(col, minlength=k)
        idx = row.astype(np.int32)
        val = d.P[d.pos][row].astype(float)
        extra = [] if d.budget is None else [(self._n_pos, d.cost[new])]
        extra += [(self._limit_row0 + r, coef)
                  for r, coef in enumerate(d.limit_coefficients(new))]
        later = [(self._req_row0 + r, coef)
                 for r, coef in enumerate(d.required_coefficients(new))]
        for row_index, coef in extra:
            ends = np.cumsum(counts)
            idx = np.insert(idx, ends, row_index).astype(np.int32)
            val = np.insert(val, ends, coef)
            counts = counts + 1
        if self._fair is not None and self._fair.n_delta:  # the neg_cover rows come next
            c2, r2, v2 = self._fair.column_entries(self, d.coverage[d.neg, new[0]:new[-1] + 1])
            col = np.repeat(np.arange(k), counts)
            order = np.argsort(np.concatenate([col, c2]), kind="stable")
            idx = np.concatenate([idx, r2]).astype(np.int32)[order]
            val = np.concatenate([val, v2])[order]
            counts = counts + np.bincount(c2, minlength=k)
        for row_index, coef in later:  # then the required rows (0/1 entries)
            col = np.repeat(np.arange(k), counts)
            c3 = np.flatnonzero(coef)
            order = np.argsort(np.concatenate([col, c3]), kind="stable")
            idx = np.concatenate([idx, np.full(c3.size, row_index)]).astype(np.int32)[order]
            val = np.concatenate([val, coef[c3]])[order]
            counts = counts + np.bincount(c3, minlength=k)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int32)
        cost = (d.neg_loss[new] + d.penalty[new]).astype(float)
        self._h.addCols(k, cost, np.zeros(k), np.full(k, self._inf), int(idx.size), starts,
                        idx, val)
        if self._fair is not None:
            self._fair.add_pair_rows(self, new)
        return [clause_label(c) for c in new]

    def set_penalties(self, lambda0: float, lambda1: float) -> None:
        """Change the penalties per clause and per literal: the ``w`` columns' costs change
        in the warm LP, whose basis stays (a penalty path re-solves from it).

        Parameters
        ----------
        lambda0, lambda1 : float
            The new penalties (>= 0).
        """
        d = self._data
        d.set_penalties(lambda0, lambda1)
        k = len(d.clauses)
        if k:
            self._h.changeColsCost(k, (self._w0 + np.arange(k)).astype(np.int32),
                                   (d.neg_loss + d.penalty).astype(float))
        self._solved = False

    def solve(self) -> float:
        """Re-solve the LP from the current basis; return and store ``objective_``.

        Returns
        -------
        float
            The LP's optimal objective.
        """
        h = self._h
        run_lp(self, "the rule master LP", "check the data (e.g. a negative budget) or solve "
               "RuleMasterModel(relax=True) with another solver")
        info = h.getInfo()
        sol = h.getSolution()
        d = self._data
        col_value = np.asarray(sol.col_value)
        col_dual = np.asarray(sol.col_dual)
        row_dual = np.asarray(sol.row_dual)
        n_pos, w0 = self._n_pos, self._w0
        self.iterations_ = int(info.simplex_iteration_count)
        self.objective_ = float(info.objective_function_value)
        self.xi_ = col_value[:n_pos].copy()
        self.w_ = col_value[w0:].copy()
        self.reduced_costs_ = col_dual[w0:].copy()
        self.selected_ = [d.clauses[k] for k in np.flatnonzero(self.w_ > 0.5)]
        self.cover_duals_ = row_dual[:n_pos].copy()
        lam = -float(row_dual[n_pos]) if d.budget is not None else 0.0
        self.complexity_dual_ = lam + 0.0
        nu = [-float(row_dual[self._limit_row0 + r]) for r in range(len(d.limits))]
        self.limit_duals_ = {name: max(v, 0.0) + 0.0 for (name, *_), v in zip(d.limits, nu)}
        sigma = None if self._fair is None else self._fair.sigma(row_dual)
        required_duals = row_dual[self._req_row0:self._req_row0 + len(d.required)]
        self.duals_for_pricing_ = d.pricing_duals(self.cover_duals_, lam, nu, sigma, required_duals)
        self._solved = True
        return self.objective_

    @solve_ip_doc
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
        :func:`~optirules.solvers.solve` (``MasterIPMixin.solve_ip``).  All give the
        same optimum (tested).
        """
        if not capable(solver, "milp", "highspy"):
            return super().solve_ip(clauses, solver=solver, time_limit=time_limit,
                                    mip_gap=mip_gap, incumbent=incumbent,
                                    random_seed=random_seed, aggregate=aggregate)
        import highspy

        from ...solvers import Status, solve

        t0 = time.perf_counter()
        cols = self._ip_columns(clauses)
        if aggregate:
            A, y, P, first = self._ip_rows(cols, True)
            small = HighsRuleMaster.from_problem(self._problem_over(A, y, P, first), cols,
                                                 options=self._options)
            ip = small.solve_ip(solver="highs", time_limit=time_limit, mip_gap=mip_gap,
                                incumbent=incumbent, random_seed=random_seed, aggregate=False)
            ip.wall_time = time.perf_counter() - t0
            return ip
        d, h, n_pos = self._data, self._h, self._n_pos
        K = len(d.clauses)
        keep = np.zeros(K, dtype=bool)
        keep[[d.index[c] for c in cols]] = True
        idx = (self._w0 + np.arange(K)).astype(np.int32)
        h.changeColsBounds(K, idx, np.zeros(K), keep.astype(float))
        h.changeColsIntegrality(K, idx, np.full(K, highspy.HighsVarType.kInteger))
        n_req = len(d.required)
        req = (self._req_col0 + np.arange(n_req)).astype(np.int32)
        if n_req:  # no artificial column in the IP: every required row is met by clauses
            h.changeColsBounds(n_req, req, np.zeros(n_req), np.zeros(n_req))
        # ``incumbent`` is not passed as a start solution (setSolution): HiGHS 1.16 mapped a
        # feasible start of objective 0.02719 into its presolved model as 0.01979, below the
        # LP bound 0.02317, and returned it as "optimal" (WDBC, first fold; tested)
        normalize_clauses(incumbent, d.A.shape[1])  # still validated
        options: dict[str, Any] = dict(_IP_OPTIONS)
        if n_pos >= model_options.LARGE_MASTER_IP_ROWS:
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
            w = np.asarray(h.getSolution().col_value, dtype=float)[self._w0:]
        finally:
            h.changeColsIntegrality(K, idx, np.full(K, highspy.HighsVarType.kContinuous))
            h.changeColsBounds(K, idx, np.zeros(K), np.full(K, self._inf))
            if n_req:
                h.changeColsBounds(n_req, req, np.zeros(n_req), np.full(n_req, self._inf))
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
        """The declarative :class:`RuleMasterModel` over the same data and clause pool.

        Parameters
        ----------
        relax : bool, default False
            Build the LP relaxation (continuous ``w``) instead of the IP.

        Returns
        -------
        RuleMasterModel
            The Pyomo model.
        """
        d = self._data
        return RuleMasterModel.from_problem(
            self._problem_over(d.A, d.y, d.P, np.arange(d.A.shape[0])), d.clauses,
            relax=relax)

    def write(self, path: Any) -> None:
        """Write the LP (with its readable names) to ``path`` (.lp or .mps) via HiGHS.

        Parameters
        ----------
        path : str or path-like
            File name ending in ``.lp`` or ``.mps``.
        """
        from ...solvers import write_model

        self._name_columns()
        write_model(self._h, path)

