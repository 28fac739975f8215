"""What each optimization model optirules builds needs from a solver.

Each :class:`~optirules.solvers.Formulation` names the model, the problem type it hands to
:func:`~optirules.solvers.solve` and the capabilities it needs there; the solvers layer
answers which installed solvers can serve it (:func:`~optirules.solvers.require_support`,
:func:`~optirules.solvers.solver_support`).
"""

from __future__ import annotations

from ..solvers import Formulation

__all__ = ["FORMULATIONS", "formulation"]

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


def formulation(*names: str) -> tuple[Formulation, ...]:
    """The formulations of :data:`FORMULATIONS` with these names, in the order given.

    Parameters
    ----------
    *names : str
        Formulation names (``"rule master LP"`` ...).

    Returns
    -------
    tuple of Formulation

    Raises
    ------
    InputError
        For a name no formulation has.
    """
    from ..errors import InputError

    by_name = {f.name: f for f in FORMULATIONS}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise InputError(f"unknown formulation {unknown[0]!r}; known: {', '.join(by_name)}.")
    return tuple(by_name[n] for n in names)
