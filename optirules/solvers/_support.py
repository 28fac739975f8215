"""Which formulations each installed solver can serve.

A :class:`Formulation` states what one optimization model needs: the problem type it hands
to :func:`~optirules.solvers.solve` and the capabilities it needs.  The layers that build
models state their own formulations (``optirules.models.FORMULATIONS``) and the learners
which of them their ``solver=`` is used for (``optirules.learners.LEARNER_FORMULATIONS``);
:func:`solver_support` and :func:`require_support` answer, from the solver adapters, which
installed solvers can serve them.  This module names no model or learner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError, SolverNotAvailableError
from ._adapters import adapter
from ._registry import available_solvers, get_backend
from ._registry import info as solver_info

__all__ = ["Formulation", "PARTS", "SolverSupport", "solver_support", "require_support"]


#: the parts of a learner's work a ``solver=`` mapping can name, and how they are called
PARTS = {"lp": "LP with duals", "milp": "MILP", "qp": "QP", "cone": "conic program"}

_KIND = {"pyomo": "a Pyomo model", "cvxpy": "a cvxpy problem", "highspy": "a highspy model"}


@dataclass(frozen=True)
class Formulation:
    """One optimization model optirules builds.

    Attributes
    ----------
    name : str
        Short name shown by ``optirules solvers``.
    model : str
        What builds it (a model class and its arguments), for messages.
    interface : str
        The problem type handed to the solver: ``"pyomo"`` or ``"cvxpy"``, or several
        joined by ``/`` when any one of them will do (the restricted master LP runs in
        highspy directly, as a Pyomo model or as a cvxpy problem).
    needs : frozenset of str
        Capabilities (see :data:`~optirules.solvers.CAPABILITIES`) the solver
        must have on that interface.
    part : str
        Which part of a learner's work it is (a key of :data:`PARTS`): the key a
        ``solver={"lp": ..., "milp": ...}`` mapping names it by.
    """

    name: str
    model: str
    interface: str
    needs: frozenset[str]
    part: str = "milp"

    @property
    def interfaces(self) -> tuple[str, ...]:
        return tuple(self.interface.split("/"))

    def served_by(self, info) -> bool:
        """Whether solver ``info`` has every need on one route.

        Parameters
        ----------
        info : SolverInfo
            An installed solver, as :func:`available_solvers` lists it.

        Returns
        -------
        bool
        """
        return any(all(info.can(c, i) for c in self.needs) for i in self.interfaces)


@dataclass(frozen=True)
class SolverSupport:
    """What one installed solver can serve: formulation names and learner names.

    Parameters
    ----------
    solver : str
        The solver's name.
    formulations : tuple of str
        The names of the formulations asked about that it can solve.
    learners : tuple of str
        The learners asked about all of whose formulations it serves.
    """

    solver: str
    formulations: tuple[str, ...]
    learners: tuple[str, ...]


def solver_support(formulations: Sequence[Formulation],
                   learners: Mapping[str, Sequence[Formulation]] | None = None
                   ) -> dict[str, SolverSupport]:
    """Per installed solver, which of ``formulations`` it can serve (the interface and the
    capabilities on one route), and which of ``learners`` it serves all of (with one name).

    Parameters
    ----------
    formulations : sequence of Formulation
        The formulations to ask about (``optirules.models.FORMULATIONS``).
    learners : mapping of str to sequence of Formulation, optional
        Learner names and the formulations each uses
        (``optirules.learners.LEARNER_FORMULATIONS``).

    Returns
    -------
    dict of str to SolverSupport
        One entry per installed solver, sorted by solver name.
    """
    out: dict[str, SolverSupport] = {}
    for info in available_solvers():
        served = tuple(f.name for f in formulations if f.served_by(info))
        able = tuple(name for name, forms in (learners or {}).items()
                     if all(f.name in served for f in forms))
        out[info.name] = SolverSupport(info.name, served, able)
    return out


def _who_serves(wanted: list[Formulation]) -> str:
    """Per part, the installed solvers that serve all of ``wanted``'s formulations of it."""
    support = solver_support(wanted)
    parts = list(dict.fromkeys(f.part for f in wanted))
    pieces = []
    for part in parts:
        forms = [f.name for f in wanted if f.part == part]
        able = [n for n, sup in support.items() if all(f in sup.formulations for f in forms)]
        pieces.append(f"{PARTS[part]} ({', '.join(forms)}): {', '.join(able) or 'none'}")
    text = "Installed solvers per part: " + "; ".join(pieces) + "."
    if len(parts) > 1:
        text += (" Pass one name that serves every part, or a mapping from "
                 f"{', '.join(map(repr, parts))} to a name each.")
    return text


def _check_one(solver: str, forms: list[Formulation], wanted: list[Formulation]) -> str:
    if not isinstance(solver, str):
        raise SolverNotAvailableError(
            f"solver must be a name such as 'highs', got {solver!r}. {_who_serves(wanted)}")
    try:
        found = adapter(solver)
        if not found.available():
            get_backend(solver, "pyomo")  # raises: unknown or not installed
    except SolverNotAvailableError as exc:
        raise SolverNotAvailableError(f"{exc} {_who_serves(wanted)}") from None
    info = solver_info(found)
    for f in forms:
        if f.served_by(info):
            continue
        routes = [i for i in f.interfaces if i in info.interfaces]
        if not routes:
            what = (f"cannot take {' or '.join(_KIND[i] for i in f.interfaces)} (it takes "
                    f"{' and '.join(info.interfaces)} problems)")
        else:
            missing = {i: sorted(c for c in f.needs if not info.can(c, i)) for i in routes}
            what = "lacks " + "; ".join(f"{', '.join(m)} on the {i} route"
                                        for i, m in missing.items())
        raise SolverNotAvailableError(
            f"solver {info.name!r} cannot serve the {f.name} ({f.model}), the "
            f"{PARTS[f.part]} part: it {what}. {_who_serves(wanted)}"
        )
    return info.name


def require_support(solver: Any, formulations: Formulation | Sequence[Formulation]) -> Any:
    """Check, before any work starts, that ``solver`` can serve every given formulation.

    Only the named solvers' adapters are asked (no modelling library is imported) unless
    the check fails, when the message lists the installed solvers that can serve.

    Parameters
    ----------
    solver : str or mapping
        A solver name (any case, or an alias) for every part, or a mapping from parts (keys
        of :data:`PARTS` that the formulations have, e.g. ``{"lp": "highs", "milp":
        "scip"}``) to names; a part left out of the mapping is ``"highs"``.
    formulations : Formulation or sequence of Formulation
        What the caller needs (``optirules.models.FORMULATIONS`` has optirules' own;
        ``optirules.learners.LEARNER_FORMULATIONS`` those each learner uses).

    Returns
    -------
    str or dict
        The registered (lowercase) solver name, or for a mapping a dict part -> name.

    Raises
    ------
    SolverNotAvailableError
        When a solver is unknown or not installed, or lacks a problem type or capability
        one formulation needs; the message names the formulation and its part, what is
        missing, and per part the installed solvers that can serve it.
    InputError
        For something that is not a formulation, or a mapping key that is no part of them.
    """
    if isinstance(formulations, Formulation):
        formulations = (formulations,)
    wanted = list(formulations)
    bad = [f for f in wanted if not isinstance(f, Formulation)]
    if bad:
        raise InputError(f"require_support takes Formulation objects, got {bad[0]!r}.")
    names = [f.name for f in wanted]
    if isinstance(solver, Mapping):
        parts = list(dict.fromkeys(f.part for f in wanted))
        extra = [k for k in solver if k not in parts]
        if extra:
            raise InputError(
                f"the solver mapping names {extra[0]!r}, which is no part of "
                f"{', '.join(names)}; its parts are {', '.join(map(repr, parts))} "
                f"({', '.join(PARTS[p] for p in parts)}).")
        return {p: _check_one(solver.get(p, "highs"), [f for f in wanted if f.part == p],
                              wanted) for p in parts}
    return _check_one(solver, wanted, wanted)
