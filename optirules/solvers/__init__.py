"""One solver interface over Pyomo, CVXPY and highspy.

``solve(problem, solver="highs")`` takes a Pyomo model, a ``cvxpy.Problem``, a
``highspy.Highs`` instance or an optirules model object and returns a frozen
:class:`SolveResult` with a :class:`Status` from one vocabulary.
"""

from .._lazy import lazy_exports

_EXPORTS = {
    "Status": "._result",
    "SolveResult": "._result",
    "solve": "._solve",
    "available_solvers": "._registry",
    "SolverInfo": "._registry",
    "CAPABILITIES": "._registry",
    "get_backend": "._registry",
    "solver_support": "._support",
    "require_support": "._support",
    "SolverSupport": "._support",
    "FORMULATIONS": "._support",
    "LEARNER_FORMULATIONS": "._support",
    "PARTS": "._support",
    "write_model": "._files",
    "read_model": "._files",
    "new_highs": "._highspy_backend",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
