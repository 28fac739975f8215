"""CBC and CLP (through cylp) for linear Pyomo models.

The model is compiled by Pyomo's ``LinearStandardFormCompiler`` into one sparse matrix
``A`` with row bounds ``lo <= A x <= hi``, column bounds and integrality; an LP is solved
by CLP's ``initialSolve`` (duals from ``dualConstraintSolution``, d objective / d rhs, summed
over the rows of a ranged constraint), a MILP by CBC (``maximumSeconds``,
``allowableFractionGap``).  Values go back to the Pyomo variables by column.  CLP takes no
time limit through cylp, so a time limit on an LP raises :class:`SolverError`.

CBC counts ``maximumSeconds`` in CPU seconds of this process, not on the wall clock (cylp
has no switch to elapsed time): on a busy machine, where the process gets a share of a core,
a limited solve takes longer than the limit on the wall clock.  cylp also holds the GIL
while CBC runs, so no Python thread (a watchdog) runs until the solve returns.
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import SolverError
from ._adapters import adapter
from ._common import Stopwatch, package_version
from ._result import SolveResult, Status, make_result

__all__ = ["solve_cbc_pyomo", "cbc_pyomo_available"]

def cbc_pyomo_available() -> bool:
    try:
        import cylp.cy  # noqa: F401
        from pyomo.repn.plugins.standard_form import LinearStandardFormCompiler  # noqa: F401
    except Exception:
        return False
    return True


def _finite(a, inf):
    import numpy as np

    a = np.asarray(a, dtype=float)
    return np.where(np.isfinite(a), a, np.sign(a) * inf)


def _run_cbc(clp: Any, int_vars: Any, time_limit: float | None, mip_gap: float | None,
             options: dict[str, Any], sense: float, offset: float) -> tuple:
    """The MILP by CBC (through cylp): status, raw status, whether a solution exists, the
    values, the objective and the best bound (in the model's sense)."""
    import numpy as np

    clp.setInteger(int_vars)
    cbc = clp.getCbcModel()
    cbc.logLevel = clp.logLevel
    if time_limit is not None:
        cbc.maximumSeconds = float(time_limit)
    if mip_gap is not None:
        cbc.allowableFractionGap = float(mip_gap)
    for key, value in options.items():
        setattr(cbc, key, value)
    cbc.solve()
    raw = str(cbc.status)
    status = adapter("cbc").status(raw)
    has_solution = cbc.solutionCount > 0 or raw == "solution"
    if status in (Status.INFEASIBLE, Status.UNBOUNDED):
        has_solution = False
    values = np.asarray(cbc.primalVariableSolution["x"], dtype=float)
    objective = sense * float(cbc.objectiveValue) + offset
    bound = math.nan
    best = float(cbc.bestPossibleObjValue)
    if math.isfinite(best) and abs(best) < 1e29:
        bound = sense * best + offset
    if status is Status.OPTIMAL and raw == "solution":
        bound = objective if not math.isfinite(bound) else bound
    return status, raw, has_solution, values, objective, bound


def _run_clp(clp: Any, model: Any, rows: list, presolve: Any, sense: float,
             offset: float) -> tuple:
    """The LP by CLP: as :func:`_run_cbc`, and the duals by constraint name (also stored in
    the model's ``dual`` Suffix when it imports them)."""
    import numpy as np
    import pyomo.environ as pyo

    raw = str(clp.initialSolve(presolve="on" if presolve is None else presolve))
    status = adapter("cbc").status(raw)
    has_solution = status is Status.OPTIMAL
    values = np.asarray(clp.primalVariableSolution["x"], dtype=float)
    objective = sense * float(clp.objectiveValue) + offset
    bound, duals = math.nan, None
    if has_solution:
        bound = objective
        row_duals = (np.asarray(clp.dualConstraintSolution["rows"], dtype=float)
                     if rows else np.zeros(0))
        duals_by_con: dict = {}
        for row, d in zip(rows, row_duals):
            duals_by_con[row.constraint] = duals_by_con.get(row.constraint, 0.0) + sense * d
        suffix = model.component("dual")
        if isinstance(suffix, pyo.Suffix) and suffix.import_enabled():
            suffix.clear()
            for con, d in duals_by_con.items():
                suffix[con] = d
        duals = {con.name: float(d) for con, d in duals_by_con.items()}
    return status, raw, has_solution, values, objective, bound, duals


def solve_cbc_pyomo(model, *, time_limit=None, mip_gap=None, verbose=False,
                    options: dict[str, Any] | None = None, integer: bool,
                    nonlinear: bool) -> SolveResult:
    import numpy as np
    import pyomo.environ as pyo
    import scipy.sparse as sp
    from cylp.cy import CyClpSimplex
    from cylp.py.modeling.CyLPModel import CyLPArray, CyLPModel
    from pyomo.repn.plugins.standard_form import LinearStandardFormCompiler

    from ._options import check_cbc_options

    options = dict(options or {})
    check_cbc_options(options)
    if nonlinear:
        raise SolverError("solver 'cbc' takes linear Pyomo models only (LP or MILP); for a "
                          "quadratic model choose 'highs', 'scip', 'gurobi' or 'cplex'.")
    if time_limit is not None and not integer:
        raise SolverError(
            "CBC's LP solver CLP takes no time limit through cylp: drop time_limit for this "
            "LP or choose 'highs' or 'scip'.")
    with Stopwatch() as clock:
        repn = LinearStandardFormCompiler().write(model, mixed_form=True, set_sense=None)
        if repn.eliminated_vars:
            raise SolverError("solver 'cbc' cannot load a model whose compiler eliminated "
                              "variables; choose 'highs'.")
        objectives = list(repn.objectives)
        if len(objectives) > 1:
            raise SolverError("solver 'cbc' takes one active objective.")
        cols, rows = list(repn.columns), list(repn.rows)
        n = len(cols)
        sense = 1.0
        if objectives and objectives[0].sense == pyo.maximize:
            sense = -1.0
        c = np.zeros(n) if repn.c.shape[0] == 0 else np.asarray(repn.c.toarray()).ravel()
        offset = float(np.asarray(repn.c_offset).ravel()[0]) if np.size(repn.c_offset) else 0.0
        inf = 1e30
        lo = np.full(len(rows), -np.inf)
        hi = np.full(len(rows), np.inf)
        rhs = np.asarray(repn.rhs, dtype=float)
        for i, row in enumerate(rows):
            if row.bound_type <= 0:
                lo[i] = rhs[i]
            if row.bound_type >= 0:
                hi[i] = rhs[i]
        lb = np.array([-np.inf if v.lb is None else float(v.lb) for v in cols])
        ub = np.array([np.inf if v.ub is None else float(v.ub) for v in cols])
        ints = [j for j, v in enumerate(cols) if v.is_integer() or v.is_binary()]

        cy = CyLPModel()
        x = cy.addVariable("x", n)
        if rows:
            cy.addConstraint(
                CyLPArray(_finite(lo, inf)) <= sp.csr_matrix(repn.A) * x <= CyLPArray(_finite(hi, inf)),
                "rows")
        cy += CyLPArray(_finite(lb, inf)) <= x <= CyLPArray(_finite(ub, inf))
        cy.objective = CyLPArray(sense * c)
        clp = CyClpSimplex(cy)
        clp.logLevel = int(options.pop("logLevel", 1 if verbose else 0))
        clp_options = {"dualTolerance", "primalTolerance", "maxNumIteration",
                       "automaticScaling", "scaling", "infeasibilityCost"}
        for key in list(options):
            if key in clp_options:
                setattr(clp, key, options.pop(key))
        presolve = options.pop("presolve", None)
        if integer:
            status, raw, has_solution, values, objective, bound = _run_cbc(
                clp, x[ints], time_limit, mip_gap, options, sense, offset)
            duals = None
        else:
            status, raw, has_solution, values, objective, bound, duals = _run_clp(
                clp, model, rows, presolve, sense, offset)
        if has_solution:
            for v, val in zip(cols, values):
                v.set_value(float(val), skip_validation=True)
    return make_result(
        status=status,
        objective=objective if has_solution else math.nan,
        bound=bound,
        is_mip=integer,
        wall_time=clock.elapsed,
        solver="cbc",
        solver_version=package_version("cylp"),
        raw_status=raw,
        log="",
        values={v.name: (math.nan if v.value is None else float(v.value))
                for v in model.component_data_objects(pyo.Var, active=True, descend_into=True)}
        if has_solution else {},
        duals=duals,
        has_solution=has_solution,
        info={"interface": "pyomo", "is_mip": integer, "route": "cylp"},
    )
