"""Direct HiGHS backend: solves a ``highspy.Highs`` instance (the column-generation fast path
and the route that :func:`~optirules.solvers.read_model` uses for .lp/.mps files)."""

from __future__ import annotations

import math
import os
import tempfile
from typing import Any

from ..errors import SolverOptionError
from ._common import Stopwatch, Watchdog, package_version, watchdog_delay
from ._highs_options import check_highs_options, new_highs  # noqa: F401 (exported)
from ._result import SolveResult, Status, make_result

__all__ = ["solve_highs", "check_highs_options", "highs_status", "new_highs"]

def highs_status(model_status) -> Status:
    """Map a ``highspy.HighsModelStatus`` to :class:`Status`."""
    from ._adapters import adapter

    return adapter("highs").status(model_status.name)


def _set_option(h, name: str, value: Any) -> None:
    import highspy

    if h.setOptionValue(name, value) != highspy.HighsStatus.kOk:
        raise SolverOptionError(
            f"HiGHS rejected the value {value!r} for option {name!r}: see the HiGHS "
            "option documentation for its type and range."
        )


def solve_highs(h, *, time_limit=None, mip_gap=None, verbose=False, options=None) -> SolveResult:
    """Solve a ``highspy.Highs`` instance in place and return a :class:`SolveResult`.

    Column names (``lp.col_names_``) and row names key ``values`` and ``duals``;
    unnamed columns and rows are called ``c{j}`` and ``r{i}``.
    """

    options = dict(options or {})
    check_highs_options(options)
    fd, log_path = tempfile.mkstemp(prefix="optirules-highs-", suffix=".log")
    os.close(fd)
    try:
        _set_option(h, "output_flag", True)
        _set_option(h, "log_to_console", bool(verbose))
        _set_option(h, "log_file", log_path)
        if time_limit is not None:
            _set_option(h, "time_limit", float(time_limit))
        if mip_gap is not None:
            _set_option(h, "mip_rel_gap", float(mip_gap))
        for name, value in options.items():
            _set_option(h, name, value)
        h.HandleUserInterrupt = True
        delay = None if time_limit is None else watchdog_delay(float(time_limit))
        with Stopwatch() as clock, Watchdog(delay, h.cancelSolve) as dog:
            h.joinSolve(h.startSolve())
        h.HandleUserInterrupt = False
        _set_option(h, "log_file", "")
        with open(log_path, encoding="utf-8", errors="replace") as fh:
            log = fh.read()
    finally:
        try:
            os.remove(log_path)
        except OSError:
            pass
    return _highs_result(h, clock.elapsed, log, watchdog_fired=dog.fired)


def _highs_result(h, wall_time: float, log: str, *, watchdog_fired: bool) -> SolveResult:
    model_status = h.getModelStatus()
    status = highs_status(model_status)
    if watchdog_fired and status is Status.INTERRUPTED:
        status = Status.TIME_LIMIT
    info = h.getInfo()
    lp = h.getLp()
    is_mip = h.getNumCol() > 0 and any(
        int(t) != 0 for t in (lp.integrality_ or [])
    )
    has_solution = info.primal_solution_status == 2 and status not in (
        Status.INFEASIBLE,
        Status.UNBOUNDED,
        Status.INFEASIBLE_OR_UNBOUNDED,
    )
    objective = float(info.objective_function_value) if has_solution else math.nan
    bound = float(info.mip_dual_bound) if is_mip else math.nan
    values: dict[str, float] = {}
    duals: dict[str, float] | None = None
    if has_solution:
        sol = h.getSolution()
        names = list(lp.col_names_) or [f"c{j}" for j in range(h.getNumCol())]
        values = dict(zip(names, map(float, sol.col_value)))
        if not is_mip and status is Status.OPTIMAL and sol.dual_valid:
            rnames = list(lp.row_names_) or [f"r{i}" for i in range(h.getNumRow())]
            duals = dict(zip(rnames, map(float, sol.row_dual)))
    return make_result(
        status=status,
        objective=objective,
        bound=bound,
        is_mip=is_mip,
        wall_time=wall_time,
        solver="highs",
        solver_version=package_version("highspy"),
        raw_status=h.modelStatusToString(model_status),
        log=log,
        values=values,
        duals=duals,
        has_solution=has_solution,
        info={
            "interface": "highspy",
            "simplex_iterations": int(info.simplex_iteration_count),
            "mip_nodes": int(info.mip_node_count) if is_mip else 0,
            "is_mip": is_mip,
            "watchdog_fired": watchdog_fired,
        },
    )
