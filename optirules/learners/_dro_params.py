"""The parameters of :class:`~optirules.learners.DRORuleEnsembleClassifier`: their checks, the
member budgets to try, the seed, and the fit's deadline (``time_limit``).

:class:`_DROParamsMixin` is a base of the estimator; it reads the estimator's own attributes
(its parameters, ``_member_estimator`` and ``_deadline``).
"""

from __future__ import annotations

import time

import numpy as np
from sklearn.base import clone

from ..errors import InputError
from ._dro_math import DIVERGENCES, LOSSES, MEMBER_FRACTIONS, SELECTIONS, WARM_STARTS
from ._rule_set import _is_int, _is_number


class _DROParamsMixin:
    """The checks of the ensemble's parameters (and its member's), the member budgets, the
    seed and the deadline."""

    _deadline: float | None

    #: member parameters the ensemble decides itself (they must keep their defaults)
    _ENSEMBLE_OWNS = ("complexity", "time_limit", "class_weight", "random_state", "verbose",
                      "warm_start", "form", "target_class")

    def _check_member(self) -> None:
        """The member is a rule set whose own checks pass, with the ensemble's parts at
        their defaults."""
        member = self._member_estimator()
        defaults = type(member)().get_params(deep=False)
        own = member.get_params(deep=False)
        for name in self._ENSEMBLE_OWNS:
            if own[name] is not defaults[name] and own[name] != defaults[name]:
                raise InputError(
                    f"member={member!r} sets {name}={own[name]!r}, which the ensemble "
                    f"decides itself; leave it at its default and set the ensemble's "
                    f"{'member_complexity' if name == 'complexity' else name} instead.")
        if self.solver is not None:
            member = clone(member).set_params(solver=self.solver)
        member._check_params()


    # ------------------------------------------------------------------ validation
    def _check_params(self) -> None:
        self._check_member()
        if not _is_number(self.complexity, 2.0):
            raise InputError(f"complexity must be a number >= 2 (the overall budget C), got "
                             f"{self.complexity!r}.")
        mc = self.member_complexity
        if mc is not None:
            many = isinstance(mc, (list, tuple, np.ndarray))
            values = list(mc) if many else [mc]
            if not values or not all(_is_number(v, 2.0) for v in values):
                raise InputError(f"member_complexity must be None, a number >= 2 or a "
                                 f"non-empty sequence of them, got {mc!r}.")
            if max(float(v) for v in values) > float(self.complexity):
                raise InputError(
                    f"member_complexity ({mc}) exceeds complexity "
                    f"({self.complexity}); a member must fit the overall budget."
                )
            if many and len(values) > 1 and (self.loss == "binary"
                                              or self.selection == "last"):
                raise InputError(f"member_complexity={mc!r}: loss='binary' and "
                                 "selection='last' take one member budget.")
        if not _is_number(self.rho):
            raise InputError(f"rho must be a finite number >= 0, got {self.rho!r}.")
        if self.divergence not in DIVERGENCES:
            raise InputError(f"divergence must be one of {DIVERGENCES}, got "
                             f"{self.divergence!r}.")
        if self.member_warm_start not in WARM_STARTS:
            raise InputError(f"member_warm_start must be one of {WARM_STARTS}, got "
                             f"{self.member_warm_start!r}.")
        if self.loss not in LOSSES:
            raise InputError(f"loss must be one of {LOSSES}, got {self.loss!r}.")
        if self.selection not in SELECTIONS:
            raise InputError(f"selection must be one of {SELECTIONS}, got {self.selection!r}.")
        if not (_is_number(self.validation_fraction, 0.0, strict=True)
                and self.validation_fraction < 1):
            raise InputError(f"validation_fraction must be in (0, 1), got "
                             f"{self.validation_fraction!r}.")
        if not isinstance(self.refit, (bool, np.bool_)):
            raise InputError(f"refit must be True or False, got {self.refit!r}.")
        if self.margin is not None and not (_is_number(self.margin) and self.margin < 0.5):
            raise InputError(f"margin must be None or in [0, 1/2), got {self.margin!r}.")
        if self.n_jobs is not None and (not _is_int(self.n_jobs, -(2**31)) or self.n_jobs == 0):
            raise InputError(f"n_jobs must be None or a nonzero int (joblib's: -1 for every "
                             f"core), got {self.n_jobs!r}.")
        if self.member_ip_max_nodes is not None and not _is_int(self.member_ip_max_nodes, 1):
            raise InputError(f"member_ip_max_nodes must be None or an int >= 1, got "
                             f"{self.member_ip_max_nodes!r}.")
        if self.combination_max_nodes is not None and not _is_int(self.combination_max_nodes,
                                                                  1):
            raise InputError(f"combination_max_nodes must be None or an int >= 1, got "
                             f"{self.combination_max_nodes!r}.")
        if self.n_iter_no_change is not None and not _is_int(self.n_iter_no_change, 1):
            raise InputError(f"n_iter_no_change must be None or an int >= 1, got "
                             f"{self.n_iter_no_change!r}.")
        for name, value in (("n_estimators", self.n_estimators),
                            ("time_limit", self.time_limit)):
            ok = (_is_int(value) if name == "n_estimators"
                  else value is None or _is_number(value, 0.0, strict=True))
            if not ok:
                raise InputError(f"{name} must be "
                                 f"{'an integer >= 1' if name == 'n_estimators' else 'None or a positive number of seconds'}"
                                 f", got {value!r}.")

    def _seed(self) -> int:
        rs = self.random_state
        if rs is None:
            return 0
        if _is_int(rs, 0):
            return int(rs) % (2**31 - 1)
        if isinstance(rs, np.random.RandomState):
            return int(rs.randint(2**31 - 1))
        raise InputError(f"random_state must be None or an int >= 0, got {rs!r}.")

    def _budgets(self) -> list[float]:
        """The member budgets C' to try (one when fixed, or for "last" / the binary loss)."""
        mc = self.member_complexity
        C = float(self.complexity)
        if mc is not None:
            grid = [float(v) for v in (mc if isinstance(mc, (list, tuple, np.ndarray))
                                       else [mc])]
        elif self.loss == "binary" or self.selection == "last":
            return [max(2.0, C / 3.0)]
        else:
            grid = [max(2.0, C * f) for f in MEMBER_FRACTIONS]
        out: list[float] = []
        for b in grid:
            if all(abs(b - o) > 1e-9 for o in out):
                out.append(b)
        return out

    # ------------------------------------------------------------------ time
    def _remaining(self) -> float | None:
        if self._deadline is None:
            return None
        return max(0.0, self._deadline - time.perf_counter())

    def _expired(self) -> bool:
        return self._deadline is not None and time.perf_counter() >= self._deadline
