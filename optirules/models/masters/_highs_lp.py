"""HiGHS settings and the warm, iteration-bounded LP run shared by the highspy masters."""

from __future__ import annotations

import time
from typing import Any

from ...errors import InputError, SolverError

#: than the 1e-7 defaults, so the duals price columns to about the same accuracy as RC_TOL)
LP_TOLERANCES = {"primal_feasibility_tolerance": 1e-9, "dual_feasibility_tolerance": 1e-9}


def highs_with_options(options: dict[str, Any]) -> Any:
    """A silent ``highspy.Highs`` with ``options`` set; an option HiGHS rejects raises
    :class:`~optirules.errors.InputError` naming it."""
    import highspy

    from ...solvers import new_highs

    h = new_highs()
    for key, value in options.items():
        if h.setOptionValue(key, value) != highspy.HighsStatus.kOk:
            raise InputError(
                f"HiGHS rejected the option {key}={value!r}; see the HiGHS option list "
                "(https://ergo-code.github.io/HiGHS/stable/options/definitions/)."
            )
    return h


#: a warm re-solve of a restricted master LP may take at most
#: ``max(WARM_ITERATION_FLOOR, WARM_ITERATION_FACTOR * min(rows, columns))`` simplex
#: iterations; past that it is restarted from scratch (no basis).  Degenerate restricted
#: masters can make HiGHS's dual simplex stall from the previous basis for tens of thousands of
#: iterations where a cold solve needs a few rows' worth; an iteration count, unlike seconds,
#: gives the same path on every machine.
WARM_ITERATION_FLOOR = 1000
WARM_ITERATION_FACTOR = 4


def run_lp(master: Any, what: str, advice: str) -> None:
    """Run ``master._h`` from its current basis, storing ``wall_time_``, ``status_`` and
    ``cold_restarts_`` (how many warm solves hit the iteration bound above and were
    restarted without a basis); raise :class:`~optirules.errors.SolverError` (naming
    ``what``, then ``advice``) unless HiGHS reports an optimum."""
    import highspy

    h = master._h
    t0 = time.perf_counter()
    limit = max(WARM_ITERATION_FLOOR,
                WARM_ITERATION_FACTOR * min(h.getNumRow(), h.getNumCol()))
    saved = h.getOptionValue("simplex_iteration_limit")[1]
    h.setOptionValue("simplex_iteration_limit", int(min(limit, saved)))
    try:
        run_status = h.run()
        if h.getModelStatus() == highspy.HighsModelStatus.kIterationLimit:
            master.cold_restarts_ = getattr(master, "cold_restarts_", 0) + 1
            h.clearSolver()
            h.setOptionValue("simplex_iteration_limit", saved)
            run_status = h.run()
    finally:
        h.setOptionValue("simplex_iteration_limit", saved)
    master.wall_time_ = time.perf_counter() - t0
    model_status = h.getModelStatus()
    master.status_ = h.modelStatusToString(model_status)
    if run_status == highspy.HighsStatus.kError or \
            model_status != highspy.HighsModelStatus.kOptimal:
        raise SolverError(f"HiGHS did not solve {what} (status {master.status_!r}); {advice}.")

