"""Which formulations and learners each installed solver can serve.

The table below is data: for every optimization model optirules builds, the problem type it
hands to :func:`~optirules.solvers.solve` (a Pyomo model or a ``cvxpy.Problem``) and the
capabilities it needs; for every learner, the formulations its ``solver=`` parameter is
used for.  :func:`solver_support` matches it against :func:`available_solvers` (the solvers
layer knows the formulations by name only and imports no model).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError, SolverNotAvailableError
from ._registry import available_solvers, get_backend

__all__ = ["Formulation", "FORMULATIONS", "LEARNER_FORMULATIONS", "SolverSupport",
           "solver_support", "require_support"]


@dataclass(frozen=True)
class Formulation:
    """One optimization model optirules builds.

    Attributes
    ----------
    name : str
        Short name shown by ``optirules solvers``.
    model : str
        The model class (or function) in :mod:`optirules.models` that builds it.
    interface : {"pyomo", "cvxpy"}
        The problem type handed to the solver.
    needs : frozenset of str
        Capabilities (see :data:`~optirules.solvers._registry.CAPABILITIES`) the solver
        must have on that interface.
    """

    name: str
    model: str
    interface: str
    needs: frozenset[str]


#: every formulation and what it needs from a solver
FORMULATIONS: tuple[Formulation, ...] = (
    # column generation reads the cover and complexity duals of the relaxed master
    Formulation("rule master LP", "RuleMasterModel(relax=True)", "pyomo",
                frozenset({"lp", "duals"})),
    Formulation("rule master IP", "RuleMasterModel", "pyomo", frozenset({"milp"})),
    Formulation("rule pricing MILP", "RulePricingModel", "pyomo", frozenset({"milp"})),
    Formulation("DRO combination IP", "SparseCombinationModel", "pyomo", frozenset({"milp"})),
    # chi-square ball: ||N p - 1||_2 <= sqrt(rho N), a second-order cone
    Formulation("worst-case pmf (chi2)", "WorstCasePmfModel(divergence='chi2')", "cvxpy",
                frozenset({"socp"})),
    # KL ball: sum rel_entr(N p, 1) / N <= rho, exponential cones
    Formulation("worst-case pmf (KL)", "WorstCasePmfModel(divergence='kl')", "cvxpy",
                frozenset({"exp_cone"})),
    # min w' Sigma w, written quad_form(w, psd_wrap(Sigma)) with linear constraints
    Formulation("QMM pruning QP", "QMMModel", "cvxpy", frozenset({"qp"})),
)

#: the formulations each learner passes its ``solver=`` to.  Column generation's master LP
#: runs in a warm highspy model whatever ``solver`` is; the DRO ensemble's worst-case pmf
#: uses the exact Lagrangian solver unless asked for the cvxpy model.
LEARNER_FORMULATIONS: dict[str, tuple[str, ...]] = {
    "BooleanRuleSetClassifier": ("rule pricing MILP", "rule master IP"),
    "BooleanRuleSetCV": ("rule pricing MILP", "rule master IP"),
    "DRORuleEnsembleClassifier": ("rule pricing MILP", "rule master IP", "DRO combination IP"),
    "QMMPruner": ("QMM pruning QP",),
}


@dataclass(frozen=True)
class SolverSupport:
    """What one installed solver can serve: formulation names and learner names."""

    solver: str
    formulations: tuple[str, ...]
    learners: tuple[str, ...]


def solver_support() -> dict[str, SolverSupport]:
    """Per installed solver, the formulations (:data:`FORMULATIONS`) whose interface and
    capabilities it has, and the learners (:data:`LEARNER_FORMULATIONS`) all of whose
    formulations it serves.  Sorted by solver name."""
    out: dict[str, SolverSupport] = {}
    for info in available_solvers():
        served = tuple(f.name for f in FORMULATIONS
                       if all(info.can(c, f.interface) for c in f.needs))
        learners = tuple(name for name, forms in LEARNER_FORMULATIONS.items()
                         if all(f in served for f in forms))
        out[info.name] = SolverSupport(info.name, served, learners)
    return out


def require_support(solver: str, formulations) -> str:
    """Check, before any work starts, that ``solver`` can serve every named formulation.

    Parameters
    ----------
    solver : str
        A solver name (any case).
    formulations : str or sequence of str
        Names from :data:`FORMULATIONS`, or a learner name from
        :data:`LEARNER_FORMULATIONS` (standing for its formulations).

    Returns
    -------
    str
        The registered (lowercase) solver name.

    Raises
    ------
    SolverNotAvailableError
        When the solver is unknown or not installed, or lacks a problem type or capability
        one formulation needs; the message names the formulation, what is missing, and the
        installed solvers that can serve them all.
    """
    if isinstance(formulations, str):
        formulations = LEARNER_FORMULATIONS.get(formulations, (formulations,))
    by_name = {f.name: f for f in FORMULATIONS}
    unknown = [f for f in formulations if f not in by_name]
    if unknown:
        raise InputError(f"unknown formulation {unknown[0]!r}; known: {', '.join(by_name)}.")
    wanted = [by_name[f] for f in formulations]
    support = solver_support()
    able = [n for n, s in support.items() if all(f.name in s.formulations for f in wanted)]
    interface = wanted[0].interface if wanted else "pyomo"
    try:
        info = get_backend(solver, interface)
    except SolverNotAvailableError as exc:
        raise SolverNotAvailableError(
            f"{exc} Solvers that can serve {', '.join(formulations)}: {', '.join(able)}."
        ) from None
    for f in wanted:
        missing = sorted(c for c in f.needs if not info.can(c, f.interface))
        if f.interface not in info.interfaces or missing:
            what = (f"takes no {f.interface} problems" if f.interface not in info.interfaces
                    else f"lacks {', '.join(missing)} on the {f.interface} route")
            raise SolverNotAvailableError(
                f"solver {info.name!r} cannot serve the {f.name} ({f.model}): it {what}. "
                f"Installed solvers that can serve {', '.join(formulations)}: "
                f"{', '.join(able) or 'none'}."
            )
    return info.name
