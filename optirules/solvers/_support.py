"""Which formulations and learners each installed solver can serve.

The table below is data: for every optimization model optirules builds, the problem type it
hands to :func:`~optirules.solvers.solve` (a Pyomo model or a ``cvxpy.Problem``) and the
capabilities it needs; for every learner, the formulations its ``solver=`` parameter is
used for.  :func:`solver_support` matches it against :func:`available_solvers` (the solvers
layer knows the formulations by name only and imports no model).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError, SolverNotAvailableError
from ._registry import available_solvers, get_backend

__all__ = ["Formulation", "FORMULATIONS", "LEARNER_FORMULATIONS", "PARTS", "SolverSupport",
           "solver_support", "require_support"]


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
        The model class (or function) in :mod:`optirules.models` that builds it.
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
        """Whether solver ``info`` (a :class:`SolverInfo`) has every need on one route."""
        return any(all(info.can(c, i) for c in self.needs) for i in self.interfaces)


#: every formulation and what it needs from a solver
FORMULATIONS: tuple[Formulation, ...] = (
    # column generation reads the cover and complexity duals of the relaxed master: in
    # highspy (HighsRuleMaster), a persistent Pyomo interface or a rebuilt Pyomo/cvxpy LP
    Formulation("rule master LP", "RuleMasterModel(relax=True)", "highspy/pyomo/cvxpy",
                frozenset({"lp", "duals"}), "lp"),
    Formulation("rule master IP", "RuleMasterModel", "pyomo", frozenset({"milp"})),
    Formulation("rule pricing MILP", "RulePricingModel", "pyomo", frozenset({"milp"})),
    Formulation("DRO combination IP", "SparseCombinationModel", "pyomo", frozenset({"milp"})),
    # chi-square ball: ||N p - 1||_2 <= sqrt(rho N), a second-order cone
    Formulation("worst-case pmf (chi2)", "WorstCasePmfModel(divergence='chi2')", "cvxpy",
                frozenset({"socp"}), "cone"),
    # KL ball: sum rel_entr(N p, 1) / N <= rho, exponential cones
    Formulation("worst-case pmf (KL)", "WorstCasePmfModel(divergence='kl')", "cvxpy",
                frozenset({"exp_cone"}), "cone"),
    # min w' Sigma w, written quad_form(w, psd_wrap(Sigma)) with linear constraints
    Formulation("QMM pruning QP", "QMMModel", "cvxpy", frozenset({"qp"}), "qp"),
)

#: the formulations each learner passes its ``solver=`` to (one name serves them all; a
#: mapping names a solver per part).  The DRO ensemble's worst-case pmf uses the exact
#: Lagrangian solver unless asked for the cvxpy model.
LEARNER_FORMULATIONS: dict[str, tuple[str, ...]] = {
    "BooleanRuleSetClassifier": ("rule master LP", "rule pricing MILP", "rule master IP"),
    "BooleanRuleSetCV": ("rule master LP", "rule pricing MILP", "rule master IP"),
    "DRORuleEnsembleClassifier": ("rule master LP", "rule pricing MILP", "rule master IP",
                                  "DRO combination IP"),
    "QMMPruner": ("QMM pruning QP",),
}


@dataclass(frozen=True)
class SolverSupport:
    """What one installed solver can serve: formulation names and learner names.

    Parameters
    ----------
    solver : str
        The solver's name.
    formulations : tuple of str
        The formulations (:data:`FORMULATIONS`) it can solve.
    learners : tuple of str
        The learners (:data:`LEARNER_FORMULATIONS`) all of whose formulations it serves.
    """

    solver: str
    formulations: tuple[str, ...]
    learners: tuple[str, ...]


def solver_support() -> dict[str, SolverSupport]:
    """Per installed solver, the formulations (:data:`FORMULATIONS`) whose interface and
    capabilities it has, and the learners (:data:`LEARNER_FORMULATIONS`) all of whose
    formulations it serves (with one name).  Sorted by solver name.

    Returns
    -------
    dict of str to SolverSupport
        One entry per installed solver.
    """
    out: dict[str, SolverSupport] = {}
    for info in available_solvers():
        served = tuple(f.name for f in FORMULATIONS if f.served_by(info))
        learners = tuple(name for name, forms in LEARNER_FORMULATIONS.items()
                         if all(f in served for f in forms))
        out[info.name] = SolverSupport(info.name, served, learners)
    return out


def _who_serves(wanted: list[Formulation]) -> str:
    """Per part, the installed solvers that serve all of ``wanted``'s formulations of it."""
    support = solver_support()
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
    table = {s.name: s for s in available_solvers()}
    info = table.get(solver.strip().lower())
    if info is None:
        try:
            get_backend(solver, "pyomo")
        except SolverNotAvailableError as exc:
            raise SolverNotAvailableError(f"{exc} {_who_serves(wanted)}") from None
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


def require_support(solver: Any, formulations: str | Sequence[str]) -> Any:
    """Check, before any work starts, that ``solver`` can serve every named formulation.

    Parameters
    ----------
    solver : str or mapping
        A solver name (any case) for every part, or a mapping from parts (keys of
        :data:`PARTS` that the formulations have, e.g. ``{"lp": "highs", "milp": "scip"}``)
        to names; a part left out of the mapping is ``"highs"``.
    formulations : str or sequence of str
        Names from :data:`FORMULATIONS`, or a learner name from
        :data:`LEARNER_FORMULATIONS` (standing for its formulations).

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
        For an unknown formulation, or a mapping key that is no part of them.
    """
    if isinstance(formulations, str):
        formulations = LEARNER_FORMULATIONS.get(formulations, (formulations,))
    by_name = {f.name: f for f in FORMULATIONS}
    unknown = [f for f in formulations if f not in by_name]
    if unknown:
        raise InputError(f"unknown formulation {unknown[0]!r}; known: {', '.join(by_name)}.")
    wanted = [by_name[f] for f in formulations]
    if isinstance(solver, Mapping):
        parts = list(dict.fromkeys(f.part for f in wanted))
        extra = [k for k in solver if k not in parts]
        if extra:
            raise InputError(
                f"the solver mapping names {extra[0]!r}, which is no part of "
                f"{', '.join(formulations)}; its parts are {', '.join(map(repr, parts))} "
                f"({', '.join(PARTS[p] for p in parts)}).")
        return {p: _check_one(solver.get(p, "highs"), [f for f in wanted if f.part == p],
                              wanted) for p in parts}
    return _check_one(solver, wanted, wanted)
