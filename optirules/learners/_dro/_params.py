"""The parameters of :class:`~optirules.learners.DRORuleEnsembleClassifier`: their checks, the
member budgets to try and the seed.

Functions of the estimator ``est``: they read its parameters and ``_member_estimator``.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from typing import Any

import numpy as np
from sklearn.base import clone
from sklearn.utils._param_validation import HasMethods, StrOptions

from ...errors import InputError
from .._checks import (
    CLASS_WEIGHT,
    N_JOBS,
    RANDOM_STATE,
    TIME_LIMIT,
    VERBOSE,
    Collection,
    Number,
    is_int,
    is_number,
    validate_params,
)
from ._math import DIVERGENCES, LOSSES, MEMBER_FRACTIONS, SELECTIONS, WARM_STARTS

__all__ = ["ENSEMBLE_OWNS", "PARAMETER_CONSTRAINTS", "check_params", "fit_seed",
           "member_budgets", "penalized_members"]

_NODES = [None, Number(numbers.Integral, 1, None, closed="left")]


#: every parameter's accepted values (the estimator's ``_parameter_constraints``,
#: scikit-learn's declarative validation); what crosses parameters (a member budget above
#: the overall one, the member's settings) is checked by hand after it
PARAMETER_CONSTRAINTS: dict = {
    "complexity": [Number(numbers.Real, 2, None, closed="left")],
    "member_complexity": [None, Number(numbers.Real, 2, None, closed="left"),
                          Collection()],
    "rho": [Number(numbers.Real, 0, None, closed="left")],
    "divergence": [StrOptions(set(DIVERGENCES))],
    "n_estimators": [Number(numbers.Integral, 1, None, closed="left")],
    "loss": [StrOptions(set(LOSSES))],
    "selection": [StrOptions(set(SELECTIONS))],
    "validation_fraction": [Number(numbers.Real, 0, 1, closed="neither")],
    "refit": ["boolean"],
    "margin": [None, Number(numbers.Real, 0, 0.5, closed="left")],
    "member": [None, HasMethods(["fit", "get_params"])],
    "n_iter_no_change": _NODES,
    "time_limit": TIME_LIMIT,
    "combination_max_nodes": _NODES,
    "member_ip_max_nodes": _NODES,
    "solver": [None, str, Mapping],
    "member_warm_start": [StrOptions(set(WARM_STARTS))],
    "random_state": RANDOM_STATE,
    "n_jobs": N_JOBS,
    "verbose": VERBOSE,
    "class_weight": CLASS_WEIGHT,
}

#: member parameters the ensemble decides itself (they must keep their defaults)
ENSEMBLE_OWNS = ("complexity", "time_limit", "class_weight", "random_state", "verbose",
                  "warm_start", "form", "target_class")

def check_member(est: Any) -> None:
    """The member is a rule set whose own checks pass, with the ensemble's parts at
    their defaults."""
    member = est._member_estimator()
    defaults = type(member)().get_params(deep=False)
    own = member.get_params(deep=False)
    for name in ENSEMBLE_OWNS:
        if own[name] is not defaults[name] and own[name] != defaults[name]:
            raise InputError(
                f"member={member!r} sets {name}={own[name]!r}, which the ensemble "
                f"decides itself; leave it at its default and set the ensemble's "
                f"{'member_complexity' if name == 'complexity' else name} instead.")
    if est.solver is not None:
        member = clone(member).set_params(solver=est.solver)
    member._check_params()


def check_params(est: Any) -> None:
    """Every parameter (declaratively, naming it), then the member and the member
    budgets against the overall one, before any work."""
    validate_params(est)
    check_member(est)
    mc = est.member_complexity
    if mc is not None:
        many = not isinstance(mc, numbers.Real)
        values = list(mc) if many else [mc]
        if not values or not all(is_number(v, 2.0) for v in values):
            raise InputError(f"member_complexity must be None, a number >= 2 or a "
                             f"non-empty sequence of them, got {mc!r}.")
        if max(float(v) for v in values) > float(est.complexity):
            raise InputError(
                f"member_complexity ({mc}) exceeds complexity "
                f"({est.complexity}); a member must fit the overall budget."
            )
        if many and len(values) > 1 and (est.loss == "binary"
                                          or est.selection == "last"):
            raise InputError(f"member_complexity={mc!r}: loss='binary' and "
                             "selection='last' take one member budget.")

def fit_seed(est: Any) -> int:
    rs = est.random_state
    if rs is None:
        return 0
    if is_int(rs, 0):
        return int(rs) % (2**31 - 1)
    if isinstance(rs, np.random.RandomState):
        return int(rs.randint(2**31 - 1))
    raise InputError(f"random_state must be None or an int >= 0, got {rs!r}.")

def member_budgets(est: Any) -> list[float]:
    """The member budgets C' to try (one when fixed, or for "last" / the binary loss)."""
    mc = est.member_complexity
    C = float(est.complexity)
    if mc is not None:
        grid = [float(v) for v in (mc if isinstance(mc, (list, tuple, np.ndarray))
                                   else [mc])]
    elif penalized_members(est):  # the penalty bounds each member: C' = C
        return [C]
    elif est.loss == "binary" or est.selection == "last":
        return [max(2.0, C / 3.0)]
    else:
        grid = [max(2.0, C * f) for f in MEMBER_FRACTIONS]
    out: list[float] = []
    for b in grid:
        if all(abs(b - o) > 1e-9 for o in out):
            out.append(b)
    return out

def penalized_members(est: Any) -> bool:
    """Whether the members pay a penalty per rule or literal (``"auto"`` or > 0)."""
    member = est._member_estimator()
    return any(isinstance(v, str) or float(v) > 0
               for v in (member.lambda0, member.lambda1))
