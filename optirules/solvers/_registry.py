"""Which solver backends are installed and what each can take."""

from __future__ import annotations

import difflib
import functools
from dataclasses import dataclass

from ..errors import SolverNotAvailableError
from ._adapters import PROBLEM_CLASSES, adapter, adapters

__all__ = ["SolverInfo", "available_solvers", "get_backend", "CAPABILITIES"]

#: every capability name used in :class:`SolverInfo`: problem classes, then "duals" (LP
#: constraint duals are returned) and "qp_duals" (multipliers of a QP's constraints too)
CAPABILITIES = ("lp", "milp", "qp", "socp", "exp_cone", "sdp", "duals", "qp_duals")

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


@functools.cache
def info(found) -> SolverInfo:
    """The :class:`SolverInfo` of an adapter: its installed routes and their capabilities."""
    routes = {r: found.capabilities_for(r) for r in found.installed_routes()}
    return SolverInfo(name=found.name, interfaces=tuple(sorted(routes)),
                      capabilities=frozenset().union(*routes.values()),
                      version=found.version(), routes=tuple(sorted(routes.items())))


def _table() -> dict[str, SolverInfo]:
    return {a.name: info(a) for a in adapters()}


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
    try:
        found = adapter(name)
    except SolverNotAvailableError:
        found = None
    if found is not None and found.available(interface):
        return info(found)
    key = name.strip().lower()
    table = _table()
    fitting = [s.name for s in table.values() if interface in s.interfaces]
    known = table.get(found.name if found is not None else key)
    kind = {"pyomo": "a Pyomo model", "cvxpy": "a cvxpy problem", "highspy": "a highspy model"}[interface]
    if known is not None:
        choices = "; ".join(
            f"{s.name} ({', '.join(c for c in PROBLEM_CLASSES if s.can(c, interface))})"
            for s in table.values() if interface in s.interfaces
        )
        raise SolverNotAvailableError(
            f"solver {name!r} is installed but cannot take {kind} (it takes "
            f"{' and '.join(known.interfaces)} problems); for {kind} choose one of: "
            f"{choices}."
        )
    close = difflib.get_close_matches(key, list(table), n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    raise SolverNotAvailableError(
        f"solver {name!r} is unknown or not installed.{hint} Installed solvers for {kind}: "
        f"{', '.join(fitting)} (all installed: {', '.join(table)})."
    )
