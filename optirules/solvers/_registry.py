"""Which solver backends are installed and what each can take."""

from __future__ import annotations

import difflib
import functools
from dataclasses import dataclass

from ..errors import SolverNotAvailableError
from ._common import package_version

__all__ = ["SolverInfo", "available_solvers", "get_backend", "CAPABILITIES"]

#: every capability name used in :class:`SolverInfo`: problem classes, then "duals" (LP
#: constraint duals are returned) and "qp_duals" (multipliers of a QP's constraints too)
CAPABILITIES = ("lp", "milp", "qp", "socp", "exp_cone", "sdp", "duals", "qp_duals")

#: Pyomo-side solvers probed by name (highs, scip and gurobi through Pyomo's new interface,
#: cplex through the classic cplex_direct, the others through classic executables)
_PYOMO_CANDIDATES = ("highs", "cbc", "glpk", "scip", "gurobi", "cplex", "xpress", "mosek")


@dataclass(frozen=True)
class SolverInfo:
    """One installed solver backend.

    Attributes
    ----------
    name : str
        The lowercase name to pass as ``solver=``.
    interfaces : tuple of str
        Problem types it takes: ``"pyomo"`` (Pyomo models), ``"cvxpy"``
        (``cvxpy.Problem``), ``"highspy"`` (``highspy.Highs`` and .lp/.mps files).
    capabilities : frozenset of str
        Among ``lp, milp, qp, socp, exp_cone, sdp, duals, qp_duals``, on at least one
        interface (:meth:`capabilities_for` gives them per interface).
    version : str
        Installed version of its Python package.
    routes : tuple of (str, frozenset of str)
        Per interface, what the solver can take through it: SCIP, for instance, returns
        LP duals to cvxpy but none through Pyomo.
    """

    name: str
    interfaces: tuple[str, ...]
    capabilities: frozenset[str]
    version: str
    routes: tuple[tuple[str, frozenset[str]], ...] = ()

    def capabilities_for(self, interface: str) -> frozenset[str]:
        """What this solver can take through ``interface`` (empty if it takes none).

        Parameters
        ----------
        interface : str
            ``"pyomo"``, ``"cvxpy"`` or ``"highspy"``.

        Returns
        -------
        frozenset of str
            The capabilities through that interface.
        """
        return dict(self.routes).get(interface, frozenset())

    def can(self, capability: str, interface: str | None = None) -> bool:
        """Whether the solver has ``capability`` (through ``interface``, if given).

        Parameters
        ----------
        capability : str
            One of :data:`CAPABILITIES` (``"milp"``, ``"duals"`` ...).
        interface : str, optional
            Restrict the question to this interface.

        Returns
        -------
        bool
            Whether it has it.
        """
        if interface is None:
            return capability in self.capabilities
        return capability in self.capabilities_for(interface)

    def __str__(self) -> str:
        parts = []
        for c in CAPABILITIES:
            if c not in self.capabilities:
                continue
            where = [i for i in self.interfaces if c in self.capabilities_for(i)]
            parts.append(c if len(where) == len(self.interfaces) else f"{c}[{'/'.join(where)}]")
        return f"{self.name:<10} {self.version:<10} {'/'.join(self.interfaces):<22} {', '.join(parts)}"


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, SolverInfo]:
    from ._cvxpy_backend import cvxpy_solvers
    from ._pyomo_backend import PYOMO_CAPABILITIES, pyomo_solver_available

    routes: dict[str, dict[str, frozenset[str]]] = {}
    for name in _PYOMO_CANDIDATES:
        if pyomo_solver_available(name):
            routes.setdefault(name, {})["pyomo"] = PYOMO_CAPABILITIES.get(
                name, frozenset({"lp", "milp"}))
    try:
        import highspy  # noqa: F401

        routes.setdefault("highs", {})["highspy"] = frozenset(
            {"lp", "milp", "qp", "duals", "qp_duals"})
    except ImportError:
        pass
    try:
        for name, c in cvxpy_solvers().items():
            routes.setdefault(name, {})["cvxpy"] = c
    except ImportError:
        pass
    dist = {"highs": "highspy", "clarabel": "clarabel", "osqp": "osqp", "scs": "scs",
            "scipy": "scipy", "gurobi": "gurobipy", "scip": "pyscipopt", "cplex": "cplex",
            "mosek": "mosek", "xpress": "xpress", "ecos": "ecos", "cbc": "cylp"}
    return {
        name: SolverInfo(
            name=name,
            interfaces=tuple(sorted(routes[name])),
            capabilities=frozenset().union(*routes[name].values()),
            version=package_version(dist.get(name, name)),
            routes=tuple(sorted(routes[name].items())),
        )
        for name in sorted(routes)
    }


def available_solvers(interface: str | None = None) -> list[SolverInfo]:
    """The installed solver backends, optionally only those taking ``interface`` problems.

    Parameters
    ----------
    interface : {"pyomo", "cvxpy", "highspy"}, optional

    Returns
    -------
    list of SolverInfo
        Sorted by name.  ``highs`` and ``clarabel`` are always present in a
        complete installation.
    """
    table = _table()
    return [s for s in table.values() if interface is None or interface in s.interfaces]


def get_backend(name: str, interface: str) -> SolverInfo:
    """Look up solver ``name`` for a problem of type ``interface``.

    Parameters
    ----------
    name : str
        Solver name, as :func:`available_solvers` lists it.
    interface : str
        ``"pyomo"``, ``"cvxpy"`` or ``"highspy"``.

    Returns
    -------
    SolverInfo
        The installed backend.

    Raises
    ------
    SolverNotAvailableError
        When ``name`` is unknown, not installed, or cannot take this type of
        problem; the message lists the solvers that can.
    """
    if not isinstance(name, str):
        raise SolverNotAvailableError(f"solver must be a name such as 'highs', got {name!r}.")
    key = name.strip().lower()
    table = _table()
    fitting = [s.name for s in table.values() if interface in s.interfaces]
    info = table.get(key)
    if info is not None and interface in info.interfaces:
        return info
    kind = {"pyomo": "a Pyomo model", "cvxpy": "a cvxpy problem", "highspy": "a highspy model"}[interface]
    if info is not None:
        classes = ("lp", "milp", "qp", "socp", "exp_cone", "sdp")
        choices = "; ".join(
            f"{s.name} ({', '.join(c for c in classes if s.can(c, interface))})"
            for s in table.values() if interface in s.interfaces
        )
        raise SolverNotAvailableError(
            f"solver {name!r} is installed but cannot take {kind} (it takes "
            f"{' and '.join(info.interfaces)} problems); for {kind} choose one of: "
            f"{choices}."
        )
    close = difflib.get_close_matches(key, list(table), n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    raise SolverNotAvailableError(
        f"solver {name!r} is unknown or not installed.{hint} Installed solvers for {kind}: "
        f"{', '.join(fitting)} (all installed: {', '.join(table)})."
    )
