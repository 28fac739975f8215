"""One solver interface over Pyomo, CVXPY and highspy.

``solve(problem, solver="highs")`` takes a Pyomo model, a ``cvxpy.Problem``, a
``highspy.Highs`` instance or an optirules model object and returns a frozen
:class:`SolveResult` with a :class:`Status` from one vocabulary.  One adapter per solver
(:func:`adapter`, :func:`capable`) says what the solver can solve on which route and how
its options are spelled; the other layers ask it, never a solver's name.
"""

from typing import TYPE_CHECKING

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
    "Formulation": "._support",
    "PARTS": "._support",
    "write_model": "._files",
    "read_model": "._files",
    "new_highs": "._highspy_backend",
    "SolverAdapter": "._adapters",
    "adapter": "._adapters",
    "adapters": "._adapters",
    "capable": "._adapters",
    "ROUTES": "._adapters",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

# isort: off
if TYPE_CHECKING:  # the real names, for IDEs and type checkers (nothing imported at run time)
    from ._adapters import (
        ROUTES as ROUTES,
        SolverAdapter as SolverAdapter,
        adapter as adapter,
        adapters as adapters,
        capable as capable,
    )
    from ._files import (
        read_model as read_model,
        write_model as write_model,
    )
    from ._highspy_backend import (
        new_highs as new_highs,
    )
    from ._registry import (
        CAPABILITIES as CAPABILITIES,
        SolverInfo as SolverInfo,
        available_solvers as available_solvers,
        get_backend as get_backend,
    )
    from ._result import (
        SolveResult as SolveResult,
        Status as Status,
    )
    from ._solve import (
        solve as solve,
    )
    from ._support import (
        PARTS as PARTS,
        Formulation as Formulation,
        SolverSupport as SolverSupport,
        require_support as require_support,
        solver_support as solver_support,
    )
# isort: on
