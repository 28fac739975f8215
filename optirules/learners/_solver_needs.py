"""The formulations each learner's ``solver=`` is used for (one name serves them all; a
mapping names a solver per part).  The DRO ensemble's worst-case pmf uses the exact
Lagrangian solver unless asked for the cvxpy model, so it is not among them."""

from __future__ import annotations

from ..models import formulation

__all__ = ["LEARNER_FORMULATIONS"]

_RULE_SET = formulation("rule master LP", "rule pricing MILP", "rule master IP")

#: per learner, the formulations (:data:`optirules.models.FORMULATIONS`) it solves
LEARNER_FORMULATIONS = {
    "BooleanRuleSetClassifier": _RULE_SET,
    "BooleanRuleSetCV": _RULE_SET,
    "DRORuleEnsembleClassifier": (*_RULE_SET, *formulation("DRO combination IP")),
    "QMMPruner": formulation("QMM pruning QP"),
}


def require_solver(learner) -> object:
    """Check ``learner.solver`` against the formulations of the learner's class (its first
    class in the method resolution order that :data:`LEARNER_FORMULATIONS` names), before
    any work starts; see :func:`optirules.solvers.require_support`."""
    from ..solvers import require_support

    needs = next(LEARNER_FORMULATIONS[c.__name__] for c in type(learner).__mro__
                 if c.__name__ in LEARNER_FORMULATIONS)
    return require_support(learner.solver, needs)
