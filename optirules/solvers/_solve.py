"""``solve()``: one entry point for every problem type and backend."""

from __future__ import annotations

from typing import Any

from ..errors import InputError, OptirulesError, SolverError
from ._common import check_limits
from ._result import SolveResult

__all__ = ["solve", "problem_interface", "declarative_model"]

#: the solver and modelling libraries whose exceptions :func:`solve` reports as a
#: :class:`~optirules.errors.SolverError`
SOLVER_PACKAGES = ("pyomo", "cvxpy", "highspy", "gurobipy", "cplex", "docplex", "pyscipopt",
                   "cylp", "clarabel", "osqp", "scs", "ecos")

#: words by which Gurobi ("size-limited license") and CPLEX ("Community Edition. Problem
#: size limits exceeded") say their licence refused a model
_LICENCE_WORDS = ("license", "licence", "community edition", "size limits")


def declarative_model(problem: Any) -> Any:
    """The Pyomo model or cvxpy problem behind ``problem``.

    An object that holds a formulation (every optirules model object) takes part by giving
    a method ``__optirules_model__()`` that returns its declarative model; anything else is
    returned as it is.  The solvers layer knows the protocol, not the classes.
    """
    get = getattr(type(problem), "__optirules_model__", None)
    return problem if get is None else problem.__optirules_model__()


def problem_interface(problem: Any) -> str:
    """``"pyomo"``, ``"cvxpy"`` or ``"highspy"`` for a problem object; InputError otherwise."""
    from ._cvxpy_backend import is_cvxpy_problem
    from ._pyomo_backend import is_pyomo_model

    if is_pyomo_model(problem):
        return "pyomo"
    if is_cvxpy_problem(problem):
        return "cvxpy"
    if type(problem).__module__.startswith("highspy"):
        return "highspy"
    raise InputError(
        f"solve() takes a Pyomo model, a cvxpy.Problem, a highspy.Highs instance or an "
        f"optirules model object; got {type(problem).__name__}."
    )


def solve(
    problem: Any,
    solver: str = "highs",
    *,
    time_limit: float | None = None,
    mip_gap: float | None = None,
    verbose: bool = False,
    **options: Any,
) -> SolveResult:
    """Solve an optimization problem with the named backend.

    Parameters
    ----------
    problem : pyomo ConcreteModel, cvxpy.Problem, highspy.Highs or optirules model
        The model.  A Pyomo model gets its solution loaded into its variables
        (and its ``dual`` Suffix, if it declares one); cvxpy sets
        ``variable.value`` and ``constraint.dual_value``; an optirules model
        object reads its solution back into named arrays.  Any object that gives a
        method ``__optirules_solve__(solver, *, time_limit, mip_gap, verbose, **options)``
        returning a :class:`SolveResult` is solved by that method (every optirules model
        object does; ``declarative_model`` is the matching export protocol).
    solver : str, default "highs"
        Backend name, e.g. ``"highs"``, ``"clarabel"``, ``"osqp"``, ``"scs"``,
        ``"scipy"``; ``"scip"`` and ``"cbc"`` with the ``solvers`` extra; ``"gurobi"``
        and ``"cplex"`` with the ``commercial`` extra (size-limited licences: a refusal
        raises :class:`~optirules.errors.SolverError` quoting the licence).  What each
        takes on each route: :func:`available_solvers`; which formulations it serves:
        :func:`solver_support`.
    time_limit : float, optional
        Wall-clock seconds.  When it stops the solver the incumbent (if any) is
        returned with status ``time_limit`` and its gap; HiGHS solves also run
        under a watchdog that interrupts a solver overrunning its own limit.
    mip_gap : float, optional
        Relative MIP gap at which to stop.
    verbose : bool, default False
        Print the solver log (HiGHS logs are captured in ``result.log`` anyway).
    **options
        Backend options by their native names (``presolve="off"`` for HiGHS,
        ``max_iter=50`` for Clarabel ...); a misspelled name raises
        :class:`~optirules.errors.SolverOptionError`.

    Returns
    -------
    SolveResult
    """
    own_solve = getattr(type(problem), "__optirules_solve__", None)
    if own_solve is not None:  # a model object solves itself and reads its solution back
        return problem.__optirules_solve__(solver, time_limit=time_limit, mip_gap=mip_gap,
                                           verbose=verbose, **options)
    check_limits(time_limit, mip_gap)
    interface = problem_interface(problem)
    from ._registry import get_backend

    info = get_backend(solver, interface)
    kwargs = dict(time_limit=time_limit, mip_gap=mip_gap, verbose=verbose, options=options)
    try:
        if interface == "pyomo":
            from ._pyomo_backend import solve_pyomo

            return solve_pyomo(info.name, problem, **kwargs)
        if interface == "cvxpy":
            from ._cvxpy_backend import solve_cvxpy

            return solve_cvxpy(info.name, problem, **kwargs)
        from ._highspy_backend import solve_highs

        return solve_highs(problem, **kwargs)
    except OptirulesError:
        raise
    except Exception as exc:
        if not raised_by_a_solver(exc):
            raise  # a programming error in optirules (or in a call it made): let it surface
        text = str(exc)
        if any(w in text.lower() for w in _LICENCE_WORDS):
            raise SolverError(
                f"the licence of solver {info.name!r} refused this {interface} problem: "
                f"{type(exc).__name__}: {text} (Gurobi and CPLEX installed from PyPI carry "
                "size-limited licences; choose 'highs' or 'scip' for larger models)."
            ) from None
        raise SolverError(
            f"solver {info.name!r} failed on this {interface} problem: "
            f"{type(exc).__name__}: {exc}. Try another solver or check the model."
        ) from None


def raised_by_a_solver(exc: BaseException) -> bool:
    """Whether ``exc`` comes from a solver or modelling library (:data:`SOLVER_PACKAGES`).

    True when its class belongs to one of them, or when one of their frames lies below the
    innermost optirules frame of its traceback (the library raised it, a builtin class
    such as ``ValueError`` included).  False for an exception raised by optirules' own
    code, or by numpy / the standard library called directly from it: a programming
    error, which :func:`solve` lets surface instead of calling it a solver failure.
    """
    if type(exc).__module__.split(".")[0] in SOLVER_PACKAGES:
        return True
    roots = []
    tb = exc.__traceback__
    while tb is not None:
        roots.append(str(tb.tb_frame.f_globals.get("__name__", "")).split(".")[0])
        tb = tb.tb_next
    own = [i for i, root in enumerate(roots) if root == "optirules"]
    below = roots[own[-1] + 1:] if own else roots
    return any(root in SOLVER_PACKAGES for root in below)
