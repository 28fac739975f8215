"""Pyomo backend: HiGHS, SCIP and Gurobi through Pyomo's new solver interface
(``pyomo.contrib.solver``), CPLEX through Pyomo's classic ``cplex_direct``, CBC/CLP through
cylp (``_cbc_backend``), and any other solver Pyomo finds installed (a glpk executable ...)
through its classic interface."""

from __future__ import annotations

import io
import logging
import math
import sys
import warnings
from contextlib import contextmanager
from typing import Any

from ..errors import SolverError
from ._adapters import adapter
from ._common import Stopwatch, Watchdog, held_stdout, package_version, watchdog_delay
from ._result import SolveResult, Status, make_result

__all__ = ["solve_pyomo", "pyomo_solver_available", "is_pyomo_model"]

def is_pyomo_model(problem: Any) -> bool:
    mod = type(problem).__module__
    if not mod.startswith("pyomo"):
        return False
    from pyomo.core.base.block import BlockData

    return isinstance(problem, BlockData)


def pyomo_solver_available(name: str) -> bool:
    """Whether Pyomo can run solver ``name`` on this machine, asked of Pyomo itself (this
    imports Pyomo and the solver; :meth:`SolverAdapter.available` only looks modules up).
    Never raises."""
    try:
        import pyomo.environ  # noqa: F401  (registers the solver plugins)

        found = adapter(name)
        if found.pyomo_interface is None:  # CBC/CLP through cylp (see _cbc_backend)
            from ._cbc_backend import cbc_pyomo_available

            return "pyomo" in found.routes and cbc_pyomo_available()
        family, pyomo_name = found.pyomo_interface
        if family == "contrib":
            from pyomo.contrib.solver.common.factory import SolverFactory

            with _quiet_pyomo():
                with held_stdout(found.prints_licence):  # Gurobi's licence line
                    return bool(SolverFactory(pyomo_name).available())
        import pyomo.environ as pyo

        with _quiet_pyomo():
            opt = pyo.SolverFactory(pyomo_name)
            return bool(opt.available(exception_flag=False)) and opt.license_is_valid()
    except Exception:
        return False


@contextmanager
def _quiet_pyomo():
    """Silence Pyomo's own warnings about statuses we translate ourselves."""
    loggers = [logging.getLogger(n) for n in ("pyomo.contrib.solver", "pyomo.solvers", "pyomo.opt", "pyomo.core")]
    old = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for lg, level in zip(loggers, old):
            lg.setLevel(level)


def _model_kind(model) -> tuple[bool, bool]:
    """(has integer variables, has a nonlinear objective or constraint)."""
    import pyomo.environ as pyo

    integer = any(
        v.is_integer() or v.is_binary()
        for v in model.component_data_objects(pyo.Var, active=True, descend_into=True)
    )
    nonlinear = False
    for obj in model.component_data_objects(pyo.Objective, active=True, descend_into=True):
        if obj.expr.polynomial_degree() not in (0, 1):
            nonlinear = True
    if not nonlinear:
        for con in model.component_data_objects(pyo.Constraint, active=True, descend_into=True):
            if con.body.polynomial_degree() not in (0, 1):
                nonlinear = True
                break
    return integer, nonlinear


def _values(model) -> dict[str, float]:
    import pyomo.environ as pyo

    return {
        v.name: (math.nan if v.value is None else float(v.value))
        for v in model.component_data_objects(pyo.Var, active=True, descend_into=True)
    }


def _fill_dual_suffix(model, duals_by_con: dict) -> None:
    import pyomo.environ as pyo

    suffix = model.component("dual")
    if isinstance(suffix, pyo.Suffix) and suffix.import_enabled():
        suffix.clear()
        for con, val in duals_by_con.items():
            suffix[con] = val




def _new_interface_status(tc) -> Status:
    from pyomo.contrib.solver.common.results import TerminationCondition as TC

    return {
        TC.convergenceCriteriaSatisfied: Status.OPTIMAL,
        TC.maxTimeLimit: Status.TIME_LIMIT,
        TC.iterationLimit: Status.ITERATION_LIMIT,
        TC.objectiveLimit: Status.FEASIBLE,
        TC.minStepLength: Status.NUMERICAL_ERROR,
        TC.unbounded: Status.UNBOUNDED,
        TC.provenInfeasible: Status.INFEASIBLE,
        TC.locallyInfeasible: Status.INFEASIBLE,
        TC.infeasibleOrUnbounded: Status.INFEASIBLE_OR_UNBOUNDED,
        TC.error: Status.ERROR,
        TC.interrupted: Status.INTERRUPTED,
        TC.licensingProblems: Status.ERROR,
        TC.emptyModel: Status.OPTIMAL,
    }.get(tc, Status.ERROR)


def _cancel(name: str, opt) -> None:
    """Interrupt a running HiGHS or Gurobi solve from the watchdog thread."""
    h = getattr(opt, "_solver_model", None)
    if h is None:
        return
    if name == "highs":
        h.HandleUserInterrupt = True
        h.cancelSolve()
    elif name == "gurobi":
        h.terminate()  # documented as safe to call from another thread


def _solve_contrib(name, model, time_limit, mip_gap, verbose, options) -> SolveResult:
    """HiGHS, SCIP or Gurobi through ``pyomo.contrib.solver`` (the adapter's
    ``pyomo_interface``)."""
    import pyomo.environ  # noqa: F401  (registers the solver plugins)
    from pyomo.contrib.solver.common.factory import SolverFactory
    from pyomo.contrib.solver.common.results import SolutionStatus

    found = adapter(name)
    found.check_options(options, "pyomo")
    integer, _ = _model_kind(model)
    pyomo_name = found.pyomo_interface[1]
    opt = SolverFactory(pyomo_name)
    log = io.StringIO()
    tee = [log, sys.stdout] if verbose else [log]
    kwargs: dict[str, Any] = {
        "tee": tee,
        "load_solutions": False,
        "raise_exception_on_nonoptimal_result": False,
        "solver_options": dict(options),
    }
    # The limit goes in as a solve() argument: a limit set on a solver's config object can
    # be overwritten by solve()'s own default (a run then overran its limit many times).
    if time_limit is not None:
        kwargs["time_limit"] = float(time_limit)
    if mip_gap is not None:
        kwargs["rel_gap"] = float(mip_gap)

    # HiGHS can overrun its own limit (HiGHS issue 2226); Gurobi is interrupted the same way.
    # SCIP honours limits/time itself and is not interrupted from another thread.
    delay = None
    if time_limit is not None and found.interruptible:
        delay = watchdog_delay(float(time_limit))
    with _quiet_pyomo(), held_stdout(found.prints_licence and not verbose) as held, \
            warnings.catch_warnings(), Stopwatch() as clock, \
            Watchdog(delay, lambda: _cancel(name, opt)) as dog:
        # a fresh persistent solver per call: its note on suffix changes does not apply
        warnings.filterwarnings("ignore", message="ModelChangeDetector does not detect")
        res = opt.solve(model, **kwargs)
    log.write(held.getvalue())
    status = _new_interface_status(res.termination_condition)
    if dog.fired and status in (Status.INTERRUPTED, Status.ERROR):
        status = Status.TIME_LIMIT
    has_solution = res.solution_status in (SolutionStatus.feasible, SolutionStatus.optimal) and (
        status not in (Status.UNBOUNDED, Status.INFEASIBLE, Status.INFEASIBLE_OR_UNBOUNDED)
    )
    duals = None
    if has_solution:
        res.solution_loader.load_vars()
        if not integer and status is Status.OPTIMAL and "duals" in found.capabilities_for("pyomo"):
            by_con = res.solution_loader.get_duals()
            _fill_dual_suffix(model, by_con)
            duals = {con.name: float(val) for con, val in by_con.items()}
    bound = math.nan if res.objective_bound is None else res.objective_bound
    return make_result(
        status=status,
        objective=res.incumbent_objective if has_solution else math.nan,
        bound=bound,
        is_mip=integer,
        wall_time=clock.elapsed,
        solver=name,
        solver_version=package_version(found.distribution),
        raw_status=str(res.termination_condition.name),
        log=log.getvalue() or (getattr(res, "solver_log", None) or ""),
        values=_values(model) if has_solution else {},
        duals=duals,
        has_solution=has_solution,
        info={"interface": "pyomo", "is_mip": integer, "watchdog_fired": dog.fired,
              "pyomo_solver": pyomo_name},
    )


def _legacy_status(results) -> Status:
    from pyomo.opt import TerminationCondition as TC

    tc = results.solver.termination_condition
    return {
        TC.optimal: Status.OPTIMAL,
        TC.globallyOptimal: Status.OPTIMAL,
        TC.locallyOptimal: Status.OPTIMAL,
        TC.feasible: Status.FEASIBLE,
        TC.maxTimeLimit: Status.TIME_LIMIT,
        TC.maxIterations: Status.ITERATION_LIMIT,
        TC.maxEvaluations: Status.ITERATION_LIMIT,
        TC.minStepLength: Status.NUMERICAL_ERROR,
        TC.infeasible: Status.INFEASIBLE,
        TC.unbounded: Status.UNBOUNDED,
        TC.infeasibleOrUnbounded: Status.INFEASIBLE_OR_UNBOUNDED,
        TC.userInterrupt: Status.INTERRUPTED,
        TC.solverFailure: Status.ERROR,
        TC.internalSolverError: Status.ERROR,
        TC.error: Status.ERROR,
        TC.licensingProblems: Status.ERROR,
    }.get(tc, Status.ERROR)


def _solve_legacy(name, model, time_limit, mip_gap, verbose, options) -> SolveResult:
    import pyomo.environ as pyo

    integer, _ = _model_kind(model)
    options = dict(options)
    found = adapter(name)
    found.check_options(options, "pyomo")
    opt = pyo.SolverFactory(found.pyomo_interface[1])
    tl_key, gap_key = found.time_limit_option, found.mip_gap_option
    options = dict(options)
    if time_limit is not None:
        if tl_key is None:
            raise SolverError(
                f"optirules does not know how to pass a time limit to {name!r}: pass it "
                "yourself as a solver option, or use solver='highs'."
            )
        options[tl_key] = float(time_limit)
    if mip_gap is not None and integer:
        if gap_key is None:
            raise SolverError(f"optirules does not know {name!r}'s relative MIP gap option: "
                              "pass it yourself as a solver option, or use solver='highs'.")
        options[gap_key] = float(mip_gap)
    added_suffix = False
    if not integer and model.component("dual") is None:
        model.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT)
        added_suffix = True
    try:
        with _quiet_pyomo(), Stopwatch() as clock:
            results = opt.solve(model, tee=verbose, load_solutions=False, options=options)
        status = _legacy_status(results)
        has_solution = len(results.solution) > 0 and status in (
            Status.OPTIMAL, Status.FEASIBLE, Status.TIME_LIMIT, Status.ITERATION_LIMIT
        )
        duals = None
        if has_solution:
            model.solutions.load_from(results)
            if not integer and status is Status.OPTIMAL:
                duals = {c.name: float(v) for c, v in model.dual.items()}
    finally:
        if added_suffix:
            model.del_component("dual")
    objective = math.nan
    if has_solution:
        obj = next(model.component_data_objects(pyo.Objective, active=True), None)
        objective = float(pyo.value(obj)) if obj is not None else 0.0
    bound = math.nan
    try:
        lb, ub = results.problem.lower_bound, results.problem.upper_bound
        sense_min = next(model.component_data_objects(pyo.Objective, active=True)).sense == pyo.minimize
        cand = lb if sense_min else ub
        if cand is not None and math.isfinite(float(cand)):
            bound = float(cand)
    except Exception:
        pass
    return make_result(
        status=status,
        objective=objective,
        bound=bound,
        is_mip=integer,
        wall_time=clock.elapsed,
        solver=name,
        solver_version=".".join(map(str, opt.version() or ())),
        raw_status=str(results.solver.termination_condition),
        log="",
        values=_values(model) if has_solution else {},
        duals=duals,
        has_solution=has_solution,
        info={"interface": "pyomo-classic", "is_mip": integer},
    )


def solve_pyomo(name: str, model, *, time_limit=None, mip_gap=None, verbose=False, options=None) -> SolveResult:
    """Solve a Pyomo model with solver ``name``; the solution is loaded into the model."""
    options = dict(options or {})
    family = (adapter(name).pyomo_interface or ("", ""))[0]
    if family == "contrib":
        return _solve_contrib(name, model, time_limit, mip_gap, verbose, options)
    if not family:  # CBC/CLP through cylp
        from ._cbc_backend import solve_cbc_pyomo

        integer, nonlinear = _model_kind(model)
        return solve_cbc_pyomo(model, time_limit=time_limit, mip_gap=mip_gap, verbose=verbose,
                               options=options, integer=integer, nonlinear=nonlinear)
    return _solve_legacy(name, model, time_limit, mip_gap, verbose, options)
