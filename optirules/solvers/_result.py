"""Solve status and result types shared by every backend."""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..errors import SolverStatusError

__all__ = ["Status", "SolveResult", "make_result"]


class Status(str, enum.Enum):
    """Why a solve stopped, in one vocabulary for every backend.

    ``has_solution`` tells whether primal values were loaded (an optimal
    solution, or a feasible incumbent when a limit stopped the solver).
    """

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"  # a solution without a proof of optimality (e.g. inaccurate)
    INFEASIBLE = "infeasible"
    UNBOUNDED = "unbounded"
    INFEASIBLE_OR_UNBOUNDED = "infeasible_or_unbounded"
    TIME_LIMIT = "time_limit"
    ITERATION_LIMIT = "iteration_limit"
    INTERRUPTED = "interrupted"
    NUMERICAL_ERROR = "numerical_error"
    ERROR = "error"

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.value


@dataclass(frozen=True)
class SolveResult:
    """The outcome of one solve.

    Attributes
    ----------
    status : Status
        Why the solver stopped.
    objective : float
        Objective value of the returned solution (``nan`` when there is none).
    bound : float
        Best proven bound on the optimum (for an LP or convex problem solved to
        optimality it equals ``objective``; ``nan`` when unknown).
    gap : float
        Relative gap ``|objective - bound| / max(1e-10, |objective|)``; 0 when
        optimal, ``inf`` without a solution, ``nan`` when no bound is known.
    wall_time : float
        Seconds spent in the solve call, model translation included.
    solver : str
        Backend name as registered (``"highs"``, ``"clarabel"`` ...).
    solver_version : str
        Version string of the solver package.
    raw_status : str
        The backend's own status text.
    log : str
        Solver log when it could be captured (empty otherwise).
    values : Mapping[str, Any]
        Primal values by readable name: ``"w[clause_3]" -> 1.0`` for Pyomo
        models and highspy columns, ``variable name -> ndarray`` for cvxpy.
    duals : Mapping[str, Any] or None
        Constraint duals (d objective / d rhs) by constraint name for continuous
        LPs and convex problems; ``None`` for integer programs.
    has_solution : bool
        Whether ``values`` hold a solution.
    time_limit_reached : bool
        Shortcut for ``status is Status.TIME_LIMIT``.
    info : Mapping[str, Any]
        Backend-specific extras (iteration counts, node counts, the interface used).
    """

    status: Status
    objective: float = math.nan
    bound: float = math.nan
    gap: float = math.nan
    wall_time: float = 0.0
    solver: str = ""
    solver_version: str = ""
    raw_status: str = ""
    log: str = ""
    values: Mapping[str, Any] = field(default_factory=dict)
    duals: Mapping[str, Any] | None = None
    has_solution: bool = False
    info: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", MappingProxyType(dict(self.values)))
        if self.duals is not None:
            object.__setattr__(self, "duals", MappingProxyType(dict(self.duals)))
        object.__setattr__(self, "info", MappingProxyType(dict(self.info)))

    @property
    def time_limit_reached(self) -> bool:
        return self.status is Status.TIME_LIMIT

    @property
    def is_optimal(self) -> bool:
        return self.status is Status.OPTIMAL

    def raise_for_status(self, *, allow_limit: bool = False) -> SolveResult:
        """Raise :class:`~optirules.errors.SolverStatusError` unless the solve is usable.

        Parameters
        ----------
        allow_limit : bool, default False
            Accept a time- or iteration-limited solve that holds an incumbent.

        Returns
        -------
        SolveResult
            ``self``, so that calls can be chained.
        """
        if self.status is Status.OPTIMAL:
            return self
        if allow_limit and self.has_solution and self.status in (
            Status.TIME_LIMIT,
            Status.ITERATION_LIMIT,
            Status.FEASIBLE,
            Status.INTERRUPTED,
        ):
            return self
        advice = {
            Status.INFEASIBLE: "the model has no feasible point: check the data and "
            "constraints (e.g. a complexity budget too small to hold any rule).",
            Status.UNBOUNDED: "the objective is unbounded: add bounds to the variables "
            "or check the sign of the objective.",
            Status.INFEASIBLE_OR_UNBOUNDED: "the solver could not tell infeasible from "
            "unbounded: turn presolve off or check both.",
            Status.TIME_LIMIT: "the time limit was reached: raise time_limit, or pass "
            "allow_limit=True to accept the incumbent (gap {gap:.3g}).",
            Status.ITERATION_LIMIT: "the iteration limit was reached: raise it or pass "
            "allow_limit=True to accept the incumbent.",
            Status.FEASIBLE: "the solver returned a solution without proving optimality: "
            "pass allow_limit=True to accept it or tighten the solver tolerances.",
            Status.NUMERICAL_ERROR: "the solver hit numerical trouble: rescale the data, "
            "try another solver, or loosen tolerances.",
            Status.INTERRUPTED: "the solve was interrupted before it finished.",
            Status.ERROR: "the solver failed: see result.log and result.raw_status, "
            "or try another solver.",
        }[self.status]
        msg = (
            f"solver {self.solver!r} stopped with status {self.status.value!r} "
            f"(raw: {self.raw_status!r}): " + advice.format(gap=self.gap)
        )
        raise SolverStatusError(msg, result=self)

    def __repr__(self) -> str:
        return (
            f"SolveResult(status={self.status.value!r}, objective={self.objective:.6g}, "
            f"bound={self.bound:.6g}, gap={self.gap:.3g}, solver={self.solver!r}, "
            f"wall_time={self.wall_time:.3f}s, n_values={len(self.values)})"
        )


def relative_gap(objective: float, bound: float, status: Status) -> float:
    """The relative optimality gap used in every :class:`SolveResult`."""
    if math.isfinite(objective) and math.isfinite(bound):
        return abs(objective - bound) / max(1e-10, abs(objective))
    if status is Status.OPTIMAL:
        return 0.0
    if not math.isfinite(objective):
        return math.inf
    return math.nan


def _finite_or_nan(value) -> float:
    try:
        value = float(value)
    except (TypeError, ValueError):
        return math.nan
    return value if math.isfinite(value) else math.nan


def make_result(*, status: Status, objective=math.nan, bound=math.nan, is_mip: bool,
                **fields) -> SolveResult:
    """Build a :class:`SolveResult`: the one place for the bound and gap rules.

    A missing or non-finite objective or bound means "unknown" (``nan``).  A continuous
    problem solved to optimality has ``bound = objective`` (strong duality), and so has a
    MIP proven optimal whose solver reported no bound; the gap is :func:`relative_gap`.
    """
    objective = _finite_or_nan(objective)
    bound = _finite_or_nan(bound)
    if status is Status.OPTIMAL and (not is_mip or math.isnan(bound)):
        bound = objective
    return SolveResult(status=status, objective=objective, bound=bound,
                       gap=relative_gap(objective, bound, status), **fields)
