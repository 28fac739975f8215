"""The restricted master LP held by a Pyomo persistent solver interface."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import numpy as np

from ...errors import InputError, SolverError
from .._clauses import (
    clause_label,
    row_label,
)
from .._problem import RuleSetProblem
from ._data import (
    MasterData,
    PoolView,
)
from ._ip import (
    MasterIPMixin,
)


def persistent_interface(solver: Any) -> tuple[str, str] | None:
    """The Pyomo persistent interface of ``solver`` that holds an LP and returns its duals
    (``("contrib", name)`` or ``("classic", name)``, from the solver's adapter), or
    ``None`` when it has none or the name is unknown."""
    from ...errors import SolverNotAvailableError
    from ...solvers import adapter

    try:
        return adapter(str(solver)).pyomo_persistent
    except SolverNotAvailableError:
        return None


def persistent_solvers() -> list[str]:
    """The names of the solvers with a persistent Pyomo interface for the master LP."""
    from ...solvers import adapters

    return [a.name for a in adapters(installed=False, others=False) if a.pyomo_persistent]


class PersistentRuleMaster(MasterIPMixin, PoolView):
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
        :func:`~optirules.models.reduced_costs`).
    wall_time_ : float
        Seconds of the last :meth:`solve` (model update included).
    """

    def __init__(self, literals: Any, labels: Any, clauses: Iterable[Iterable[Any]] = (), *,
                 sample_weight: Any = None, complexity: float | None = None,
                 lambda0: float = 0.0, lambda1: float = 0.0, solver: str = "highs") -> None:
        import pyomo.environ as pyo

        interface = persistent_interface(solver)
        if interface is None:
            raise InputError(
                f"no persistent Pyomo interface with LP duals for solver {solver!r}; the "
                f"persistent master takes {', '.join(persistent_solvers())} (use "
                "master='rebuild' for any other LP solver that returns duals)."
            )
        from ...solvers import get_backend

        self.solver = get_backend(str(solver), "pyomo").name  # installed?
        self._data = d = MasterData(RuleSetProblem(
            literals, labels, sample_weight, complexity, lambda0, lambda1))
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
        family, name = interface
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
        """Add the new clauses as columns (sent to the solver on the next :meth:`solve`).

        Parameters
        ----------
        clauses : iterable of clauses
            Clauses as iterables of literal indices.

        Returns
        -------
        list of str
            The labels of the clauses added.
        """
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
        """Send the new columns to the solver, re-solve and read the duals.

        Returns
        -------
        float
            The LP's optimal objective (also ``objective_``).
        """
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

