"""CVXPY backend: Clarabel, HiGHS, OSQP, SCS, SciPy and any other solver cvxpy finds installed."""

from __future__ import annotations

import math
import warnings
from typing import Any

from ..errors import SolverError, SolverOptionError
from ._common import Stopwatch, held_stdout, package_version
from ._result import SolveResult, Status, make_result

__all__ = ["solve_cvxpy", "cvxpy_solvers", "is_cvxpy_problem"]

#: lowercase optirules name -> (cvxpy solver name, python distribution for the version)
_DISTRIBUTION = {
    "CLARABEL": "clarabel",
    "HIGHS": "highspy",
    "OSQP": "osqp",
    "SCS": "scs",
    "SCIPY": "scipy",
    "ECOS": "ecos",
    "ECOS_BB": "ecos",
    "GLPK": "cvxopt",
    "GLPK_MI": "cvxopt",
    "CVXOPT": "cvxopt",
    "CBC": "cylp",
    "SCIP": "pyscipopt",
    "GUROBI": "gurobipy",
    "CPLEX": "cplex",
    "MOSEK": "mosek",
    "XPRESS": "xpress",
    "PIQP": "piqp",
    "PROXQP": "proxsuite",
    "DAQP": "daqp",
}

#: per solver: how it spells (time limit, relative MIP gap); the value goes in as given
_LIMIT_OPTIONS: dict[str, tuple[str | None, str | None]] = {
    "CLARABEL": ("time_limit", None),
    "HIGHS": ("time_limit", "mip_rel_gap"),
    "OSQP": ("time_limit", None),
    "SCS": ("time_limit_secs", None),
    "GUROBI": ("TimeLimit", "MIPGap"),
    "CBC": ("maximumSeconds", "allowableFractionGap"),  # CBC only: CLP (LPs) takes no limit
    "PIQP": ("max_time", None),
}

#: cvxpy interfaces that return no constraint duals at all (cvxpy's CBC interface solves an
#: LP with CLP and hands back primal values only)
_NO_DUALS = frozenset({"CBC"})
#: cvxpy interfaces whose duals cover LPs only (cvxpy's SCIP interface switches presolve off
#: to read LP duals, and gives none once the problem has a cone or a quadratic objective)
_LP_DUALS_ONLY = frozenset({"SCIP"})
#: cvxpy interfaces that accept second-order cones but are not claimed for them: SCIP treats
#: a cone as a general nonlinear constraint and branches on it, so even a small chi-square
#: worst-case pmf did not close its gap where Clarabel is done at once
_NO_SOCP_CLAIM = frozenset({"SCIP"})

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


def cvxpy_solvers() -> dict[str, frozenset[str]]:
    """Installed cvxpy solvers (lowercase) and what each can take."""
    import cvxpy as cp
    from cvxpy.constraints import PSD, SOC, ExpCone
    from cvxpy.reductions.solvers.defines import SOLVER_MAP_CONIC, SOLVER_MAP_QP

    out: dict[str, frozenset[str]] = {}
    for name in cp.installed_solvers():
        caps: set[str] = set()
        conic = SOLVER_MAP_CONIC.get(name)
        qp = SOLVER_MAP_QP.get(name)
        if conic is not None:
            caps.add("lp")
            supported = set(conic.SUPPORTED_CONSTRAINTS)
            if SOC in supported:
                caps.add("qp")
                if name not in _NO_SOCP_CLAIM:
                    caps.add("socp")
            if ExpCone in supported:
                caps.add("exp_cone")
            if any(getattr(c, "__name__", "").endswith("PSD") for c in supported) or PSD in supported:
                caps.add("sdp")
            if conic.MIP_CAPABLE:
                caps.add("milp")
        if qp is not None:
            caps.update({"lp", "qp"})
            if qp.MIP_CAPABLE:
                caps.add("milp")
        if name not in _NO_DUALS:
            caps.add("duals")
            if name not in _LP_DUALS_ONLY and "qp" in caps:
                caps.add("qp_duals")
        out[name.lower()] = frozenset(caps)
    return out


def _check_options(name: str, options: dict[str, Any]) -> None:
    if name == "CLARABEL":
        import clarabel

        known = {k for k in dir(clarabel.DefaultSettings()) if not k.startswith("_")}
        bad = sorted(set(options) - known)
        if bad:
            raise SolverOptionError(
                f"Clarabel has no setting {bad[0]!r}: known settings include "
                f"{', '.join(sorted(known)[:12])} ... (see clarabel.DefaultSettings())."
            )
    elif name == "HIGHS":
        from ._highspy_backend import check_highs_options

        check_highs_options(options)
    elif name == "SCIP":
        from ._options import check_scip_options

        nested = options.get("scip_params", {})
        check_scip_options({**{k: v for k, v in options.items() if k != "scip_params"},
                            **nested})
    elif name == "GUROBI":
        from ._options import check_gurobi_options

        special = {"env", "save_file", "reoptimize"}
        check_gurobi_options({k: v for k, v in options.items() if k not in special})
    elif name == "CPLEX":
        from ._options import check_cplex_options

        extra = sorted(set(options) - {"cplex_params", "cplex_filename", "reoptimize"})
        if extra:
            raise SolverOptionError(
                f"CPLEX through cvxpy takes its parameters inside cplex_params={{...}} "
                f"(e.g. cplex_params={{'mip.tolerances.mipgap': 0.01}}), not {extra[0]!r}.")
        check_cplex_options(dict(options.get("cplex_params", {})), sep=".")
    elif name == "CBC":
        from ._options import check_cbc_options

        check_cbc_options(options)


def _add_limit_options(name: str, options: dict[str, Any], time_limit: float | None,
                       mip_gap: float | None, is_mip: bool) -> None:
    """Put the time limit and relative MIP gap into ``options`` under the solver's names.

    cvxpy's SCIPY interface takes them inside ``scipy_options`` (SciPy's HiGHS-based
    ``linprog``/``milp`` read ``time_limit`` and ``mip_rel_gap``), SCIP inside
    ``scip_params`` (``limits/time``, ``limits/gap``), CPLEX inside ``cplex_params``
    (``timelimit``, ``mip.tolerances.mipgap``); the other solvers take them at the top level
    (:data:`_LIMIT_OPTIONS`).  CBC takes ``maximumSeconds`` for MILPs only: cvxpy solves an
    LP with CLP, which it gives no limit, so a time limit on a CBC LP raises SolverError.
    """
    cp_name = name.upper()
    nested_key = {"SCIPY": "scipy_options", "SCIP": "scip_params", "CPLEX": "cplex_params"}
    if cp_name in ("SCIP", "CPLEX"):
        # cvxpy passes these solvers' own parameters in a nested dict
        tl_key, gap_key = {"SCIP": ("limits/time", "limits/gap"),
                           "CPLEX": ("timelimit", "mip.tolerances.mipgap")}[cp_name]
        nested = dict(options.pop(nested_key[cp_name], {}))
        if time_limit is not None:
            nested[tl_key] = float(time_limit)
        if mip_gap is not None and is_mip:
            nested[gap_key] = float(mip_gap)
        if nested:
            options[nested_key[cp_name]] = nested
        return
    if cp_name == "CBC" and time_limit is not None and not is_mip:
        raise SolverError(
            "cvxpy's CBC interface solves an LP with CLP, which it gives no time limit: "
            "drop time_limit for this LP or choose 'highs', 'scip' or 'clarabel'."
        )
    if cp_name == "SCIPY":
        nested = dict(options.pop("scipy_options", {}))
        if time_limit is not None:
            nested["time_limit"] = float(time_limit)
        if mip_gap is not None and is_mip:
            nested["mip_rel_gap"] = float(mip_gap)
        if nested:
            options["scipy_options"] = nested
        return
    tl_key, gap_key = _LIMIT_OPTIONS.get(cp_name, (None, None))
    if time_limit is not None:
        if tl_key is None:
            raise SolverError(
                f"optirules does not know how to give {name!r} a time limit: pass it as a "
                "solver option, or choose 'clarabel', 'highs', 'osqp', 'scs' or 'scipy'."
            )
        options[tl_key] = float(time_limit)
    if mip_gap is not None and is_mip:
        if gap_key is None:
            raise SolverError(f"solver {name!r} takes no relative MIP gap: drop mip_gap or use "
                              "'highs'.")
        options[gap_key] = float(mip_gap)


def solve_cvxpy(name: str, problem, *, time_limit=None, mip_gap=None, verbose=False, options=None) -> SolveResult:
    """Solve a ``cvxpy.Problem`` with solver ``name`` (lowercase); cvxpy sets the variable values."""
    import cvxpy as cp

    cp_name = name.upper()
    options = dict(options or {})
    _check_options(cp_name, options)
    _add_limit_options(name, options, time_limit, mip_gap, problem.is_mixed_integer())
    raw = ""
    error_text = ""
    with Stopwatch() as clock:
        try:
            with warnings.catch_warnings(), held_stdout(cp_name == "GUROBI" and not verbose):
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
        solver_version=package_version(_DISTRIBUTION.get(cp_name, name)),
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
