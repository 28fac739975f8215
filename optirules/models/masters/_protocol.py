"""What column generation needs from a restricted master (:class:`RestrictedMaster`) and
what its master IP returns (:class:`MasterIP`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .._clauses import (
    Clause,
)

#: the Parameters and Returns of every master's ``solve_ip`` (one signature, one text)
SOLVE_IP_SECTIONS = """
        Parameters
        ----------
        clauses : iterable of clauses, optional
            The IP's columns; ``None`` takes the whole pool.
        solver : str, default "highs"
            MILP solver.
        time_limit : float, optional
            Seconds allowed to the MILP solver.
        mip_gap : float, optional
            Relative MIP gap at which the solver stops.
        incumbent : iterable of clauses
            A known rule set (e.g. a greedy one), for solvers that take a start solution.
        random_seed : int, optional
            HiGHS' ``random_seed``.
        aggregate : bool, default True
            Solve over the rows merged by their coverage of ``clauses`` (same optimum).

        Returns
        -------
        MasterIP
            The chosen clauses, objective, bound, status and route of the solve.
"""


def solve_ip_doc(method: Any) -> Any:
    """Append :data:`SOLVE_IP_SECTIONS` to a ``solve_ip`` method's own summary."""
    method.__doc__ = method.__doc__.rstrip() + "\n" + SOLVE_IP_SECTIONS + "        "
    return method


# ====================================================================== restricted masters
@dataclass
class MasterIP:
    """The master IP over (part of) a restricted master's pool, as solved by :meth:`~optirules.models.RestrictedMaster.solve_ip`.

    Attributes
    ----------
    selected : list of tuple of int
        The chosen clauses (``w_k = 1``).
    objective : float
        The IP objective of ``selected`` reported by the solver.
    bound : float
        The solver's proven lower bound (NaN when it gives none).
    status : str
        :class:`~optirules.solvers.Status` value (``"optimal"``, ``"time_limit"`` ...).
    wall_time : float
        Seconds spent, model building included.
    route : str
        ``"highspy"`` (the LP's own HiGHS model with integrality switched on),
        ``"model"`` (:class:`RuleMasterModel` handed to ``solve``) or
        ``"branch_and_bound"`` (:func:`~optirules.models.branch_and_bound_master`).
    info : dict
        Route-specific counts (branch and bound: ``nodes``, ``lp_iterations``, ``rows``).
    """

    selected: list[Clause]
    objective: float
    bound: float
    status: str
    wall_time: float
    route: str
    info: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class RestrictedMaster(Protocol):
    r"""What column generation needs from a restricted master LP (the DRO paper eqs 6-8
    relaxed to :math:`w \ge 0`), whatever solver holds it.

    Implementations: :class:`HighsRuleMaster` (columns appended to a warm ``highspy``
    model), :class:`PersistentRuleMaster` (a Pyomo model kept in a persistent solver
    interface) and :class:`RebuildRuleMaster` (the declarative model rebuilt and solved by
    any LP solver that returns duals, each iteration).  All three give the same LP
    optimum; duals may differ between optimal dual vertices.
    """

    def add_clauses(self, clauses: Iterable[Iterable[Any]]) -> list[str]:
        """Append columns (clauses already present are skipped); return their labels.

        Parameters
        ----------
        clauses : iterable of clauses
            Clauses as iterables of literal indices.

        Returns
        -------
        list of str
            The labels of the clauses added.
        """

    def solve(self) -> float:
        """Solve the LP over the current pool; return its optimal objective.

        Returns
        -------
        float
            The LP's optimal objective (also ``objective_``).
        """

    @property
    def clauses_(self) -> list[Clause]:
        """The pool, in column order."""

    duals_for_pricing_: dict[str, Any]
    reduced_costs_: np.ndarray
    objective_: float

    @solve_ip_doc
    def solve_ip(self, clauses: Iterable[Iterable[Any]] | None = None, *,
                 solver: str = "highs", time_limit: float | None = None,
                 mip_gap: float | None = None, incumbent: Iterable[Clause] = (),
                 random_seed: int | None = None, aggregate: bool = True) -> MasterIP:
        """The master IP over ``clauses`` (default: the whole pool) with a MILP solver.
        """

