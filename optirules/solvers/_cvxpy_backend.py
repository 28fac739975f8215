"""CVXPY backend: Clarabel, HiGHS, OSQP, SCS, SciPy and any other solver cvxpy finds installed."""

from __future__ import annotations

import math
import warnings
from typing import Any

from ..errors import SolverError, SolverOptionError
from ._adapters import adapter
from ._common import Stopwatch, held_stdout
from ._result import SolveResult, Status, make_result

__all__ = ["solve_cvxpy", "is_cvxpy_problem"]

_STATUS = {
    "optimal": Status.OPTIMAL,
    "optimal_inaccurate": Status.FEASIBLE,
    "infeasible": Status.INFEASIBLE,
    "infeasible_inaccurate": Status.INFEASIBLE,
    "unbounded": Status.UNBOUNDED,
    "unbounded_inaccurate": Status.UNBOUNDED,
    "infeasible_or_unbounded": Status.INFEASIBLE_OR_UNBOUNDED,
    "user_limit": Status.TIME_LIMIT,
    "solver_error": Status.ERROR,
}


def is_cvxpy_problem(problem: Any) -> bool:
    return type(problem).__module__.startswith("cvxpy") and hasattr(problem, "is_dcp")


def _add_limit_options(name: str, options: dict[str, Any], time_limit: float | None,
                       mip_gap: float | None, is_mip: bool) -> None:
    """Put the time limit and relative MIP gap into ``options`` under the solver's names.

    cvxpy's SCIPY interface takes them inside ``scipy_options`` (SciPy's HiGHS-based
    ``linprog``/``milp`` read ``time_limit`` and ``mip_rel_gap``), SCIP inside
    ``scip_params`` (``limits/time``, ``limits/gap``), CPLEX inside ``cplex_params``
    (``timelimit``, ``mip.tolerances.mipgap``); the other solvers take them at the top level
    (the adapter's ``cvxpy_limits``).  CBC takes ``maximumSeconds`` for MILPs only: cvxpy solves an
    LP with CLP, which it gives no limit, so a time limit on a CBC LP raises SolverError.
    """
    found = adapter(name)
    tl_key, gap_key, nested_key = found.cvxpy_limits
    if found.name == "cbc" and time_limit is not None and not is_mip:
        raise SolverError(
            "cvxpy's CBC interface solves an LP with CLP, which it gives no time limit: "
            "drop time_limit for this LP or choose 'highs', 'scip' or 'clarabel'."
        )
    # cvxpy passes SciPy's, SCIP's and CPLEX's own parameters in a nested dict
    target = dict(options.pop(nested_key, {})) if nested_key else options
    if time_limit is not None:
        if tl_key is None:
            raise SolverError(
                f"optirules does not know how to give {name!r} a time limit: pass it as a "
                "solver option, or choose 'clarabel', 'highs', 'osqp', 'scs' or 'scipy'."
            )
        target[tl_key] = float(time_limit)
    if mip_gap is not None and is_mip:
        if gap_key is None:
            raise SolverError(f"solver {name!r} takes no relative MIP gap: drop mip_gap or use "
                              "'highs'.")
        target[gap_key] = float(mip_gap)
    if nested_key and target:
        options[nested_key] = target


def solve_cvxpy(name: str, problem, *, time_limit=None, mip_gap=None, verbose=False, options=None) -> SolveResult:
    """Solve a ``cvxpy.Problem`` with solver ``name`` (lowercase); cvxpy sets the variable values."""
    import cvxpy as cp

    found = adapter(name)
    cp_name = found.cvxpy_name
    options = dict(options or {})
    found.check_options(options, "cvxpy")
    _add_limit_options(name, options, time_limit, mip_gap, problem.is_mixed_integer())
    raw = ""
    error_text = ""
    with Stopwatch() as clock:
        try:
            with warnings.catch_warnings(), held_stdout(found.prints_licence and not verbose):
                # "Solution may be inaccurate": the status (feasible) already says so
                warnings.filterwarnings("ignore", message="Solution may be inaccurate")
                problem.solve(solver=cp_name, verbose=verbose, warm_start=False, **options)
            raw = str(problem.status)
        except (TypeError, ValueError) as exc:
            raise SolverOptionError(
                f"{name} rejected the options {sorted(options)}: {exc}. Check their names and values."
            ) from None
        except cp.error.SolverError as exc:
            text = str(exc)
            if "setting" in text.lower() or "option" in text.lower():
                raise SolverOptionError(f"{name} rejected the options {sorted(options)}: {text}") from None
            if "cannot solve this problem" in text:
                raise SolverError(
                    f"solver {name!r} cannot take this problem ({_problem_class(problem)}): "
                    "choose a solver with that capability (see optirules.solvers.available_solvers())."
                ) from None
            raw, error_text = "solver_error", text
            if cp_name in ("GUROBI", "CPLEX"):
                error_text += (
                    f" ({name} installed from PyPI carries a size-limited licence, and cvxpy "
                    "does not pass on the solver's own message: solve with verbose=True to "
                    "see it, or through Pyomo, whose error quotes it.)")
        except cp.error.DCPError as exc:
            raise SolverError(f"the cvxpy problem is not DCP, so no solver can take it: {exc}") from None
    status = _STATUS.get(raw, Status.ERROR)
    if raw == "user_limit" and (time_limit is None or clock.elapsed < 0.9 * float(time_limit)):
        # cvxpy reports time and iteration limits alike as "user_limit"; well inside the
        # time limit (or without one) it was the iteration limit
        status = Status.ITERATION_LIMIT
    if ((cp_name == "SCIPY" or problem.is_mixed_integer()) and raw == "optimal_inaccurate"
            and time_limit is not None and clock.elapsed >= 0.9 * float(time_limit)):
        # cvxpy maps SciPy milp's "time or iteration limit reached", CBC's "stopped on time",
        # SCIP's "timelimit" and CPLEX's time-limited incumbent to optimal_inaccurate
        status = Status.TIME_LIMIT
    has_solution = status in (Status.OPTIMAL, Status.FEASIBLE, Status.TIME_LIMIT,
                              Status.ITERATION_LIMIT) and all(
        v.value is not None for v in problem.variables()
    )
    value = problem.value if has_solution else math.nan
    objective = float(value) if value is not None and has_solution else math.nan
    stats = problem.solver_stats
    bound = math.nan
    integer = problem.is_mixed_integer()
    if integer and stats is not None and stats.extra_stats is not None:
        bound = _mip_bound(stats.extra_stats)
    duals = None
    if has_solution and not integer and status is Status.OPTIMAL:
        duals = {f"constraint_{i}": c.dual_value for i, c in enumerate(problem.constraints)}
    return make_result(
        status=status,
        objective=objective,
        bound=bound,
        is_mip=integer,
        wall_time=clock.elapsed,
        solver=name,
        solver_version=found.version(),
        raw_status=raw,
        log=error_text,
        values={v.name(): v.value for v in problem.variables()} if has_solution else {},
        duals=duals,
        has_solution=has_solution,
        info={
            "interface": "cvxpy",
            "is_mip": integer,
            "iterations": getattr(stats, "num_iters", None),
            "solve_time": getattr(stats, "solve_time", None),
        },
    )


def _mip_bound(extra) -> float:
    for key in ("mip_dual_bound", "ObjBound", "dual_bound"):
        val = extra.get(key) if isinstance(extra, dict) else getattr(extra, key, None)
        if val is not None:
            try:
                val = float(val)
            except (TypeError, ValueError):
                continue
            if math.isfinite(val):
                return val
    info = extra.get("info") if isinstance(extra, dict) else getattr(extra, "info", None)
    if info is not None and hasattr(info, "mip_dual_bound"):
        val = float(info.mip_dual_bound)
        if math.isfinite(val):
            return val
    return math.nan


def _problem_class(problem) -> str:
    """A short description of what kind of problem this is, for error messages."""
    atoms = {a.__name__.lower() for a in problem.atoms()}
    kinds = []
    if problem.is_mixed_integer():
        kinds.append("integer variables")
    if atoms & {"rel_entr", "entr", "kl_div", "log", "exp", "log_sum_exp", "logistic"}:
        kinds.append("exponential cone")
    elif not problem.is_qp():
        kinds.append("second-order or other cone")
    elif not problem.is_lp():
        kinds.append("quadratic objective")
    return ", ".join(kinds) or "linear program"
