"""The input handling the rule-set learners share: parameter checks, the penalty ``"auto"``
and the literal matrix of ``X`` (0/1 columns taken as they are, or binarized).

:class:`_RuleInputMixin` serves :class:`~optirules.learners.BooleanRuleSetClassifier` and
:class:`~optirules.learners.DRORuleEnsembleClassifier`; :mod:`._rule_set` re-exports its
names for the modules that import them from there.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.utils.validation import validate_data

from ...data import Literal
from ...errors import InputError, OptirulesError
from ...models import options, split_solver
from .._checks import (
    binarized_input_summary,
    binary_input_summary,
    check_2d,
    check_binarized_input,
    fit_binarizer,
    input_names,
    is_int,
    is_number,
    n_rows,
    table_kind,
)
from .._json import json_scalar, label_kind

__all__ = ["AUTO_PENALTY_MAX_ROWS", "PENALTY_SCALE", "auto_penalty", "default_target"]


#: ``lambda0 = lambda1 = "auto"`` is ``PENALTY_SCALE / sqrt(n)`` for ``n`` training rows
PENALTY_SCALE = 0.1


#: the most training rows (the sum of ``sample_weight``) the penalty ``"auto"`` takes: its
#: penalty, ``0.1 / sqrt(1e14) = 1e-8``, is then still above the solvers' feasibility and
#: optimality tolerances (1e-9 and below), which a smaller one would vanish into
AUTO_PENALTY_MAX_ROWS = 1e14


def auto_penalty(n: float) -> float:
    r"""The penalty ``"auto"`` stands for: :math:`\lambda = 0.1 / \sqrt{n}`
    (``PENALTY_SCALE``) per rule and per literal, for ``n`` training rows (the sum of
    ``sample_weight``).

    A sum above ``AUTO_PENALTY_MAX_ROWS`` is refused (its penalty would be below the
    solvers' tolerances, so the fit would buy a rule for every row and its certificate would
    rest on rounding), and so is a sum below one row (a penalty no rule can pay).

    Examples
    --------
    >>> round(auto_penalty(10_000), 6)
    0.001
    """
    if not (math.isfinite(n) and n > 0):
        raise InputError(f"the penalty 'auto' needs a positive number of training rows (the "
                         f"sum of sample_weight), got {n!r}.")
    if n < 1.0 or n > AUTO_PENALTY_MAX_ROWS:
        if n < 1.0:
            raise InputError(
                f"sample_weight sums to {n:.3g}, and the penalty 'auto' counts that as the "
                f"number of training rows (an integer weight is that many repeated rows): "
                f"fewer than one row, for a penalty of {PENALTY_SCALE / math.sqrt(n):.3g} "
                f"per rule and literal that no rule can pay.  Rescale sample_weight (to sum "
                f"to the number of rows, say: weights are relative), or set lambda0 and "
                f"lambda1 yourself.")
        raise InputError(
            f"sample_weight sums to {n:.3g}, and the penalty 'auto' counts that as the number "
            f"of training rows (an integer weight is that many repeated rows): its penalty "
            f"{PENALTY_SCALE / math.sqrt(n):.3g} per rule and literal would be below the "
            f"solvers' tolerances.  Rescale sample_weight (to sum to the number of rows, say: "
            f"weights are relative), or set lambda0 and lambda1 yourself.")
    return PENALTY_SCALE / math.sqrt(n)


def _check_column(what: str, item: Any, names: list[str] | None, n: int) -> None:
    """Refuse an entry of ``what`` that names no column: a name X lacks, a position out of
    range, or neither."""
    if isinstance(item, str):
        if names is None or item not in names:
            known = "X has no column names (pass a position)" if names is None \
                else f"X's columns are {names[:10]}{' ...' if len(names) > 10 else ''}"
            raise InputError(f"{what} names the column {item!r}, which X does not have; "
                             f"{known}.")
    elif isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)):
        if not 0 <= int(item) < n:
            raise InputError(f"{what} holds the position {item}, but X has {n} columns "
                             f"(0 to {n - 1}).")
    else:
        raise InputError(f"{what} holds {item!r}; give column names (str) or positions "
                         "(int).")


class _RuleInputMixin:
    """Input handling shared by the rule-set learners: labels, weights, literals and the
    column-generation parameters."""

    max_degree: int | str
    pricing: str
    solver: str | Mapping[str, str]

    def _rule_setting(self, name: str) -> Any:
        """The rules' setting ``name`` (``binarizer``, ``lambda0``, ``lambda1``,
        ``forbidden_features``, ``feature_costs``, ``required_features``, ``max_rules``,
        ``max_literals``): the rule set's own parameter; the DRO ensemble answers with its
        member's."""
        return getattr(self, name, None)

    def _check_forbidden(self, X: Any) -> None:
        """Refuse, before any work, a ``forbidden_features`` or ``feature_costs`` entry
        that names no column of ``X`` (a column name, DataFrame input, or a column
        position), a cost that is not a finite number > 0, and a feature both forbidden and
        given a cost."""
        forbidden = self._rule_setting("forbidden_features")
        costs = self._rule_setting("feature_costs")
        required = self._rule_setting("required_features")
        if forbidden is None and costs is None and required is None:
            return
        # arrays and pandas Index have no truth value: lists from here on
        forbidden = [] if forbidden is None else list(forbidden)
        required = [] if required is None else list(required)
        names = [str(c) for c in X.columns] if hasattr(X, "columns") else None
        n = len(names) if names is not None else np.shape(X)[1] if np.ndim(X) == 2 else 0
        if costs is not None and not isinstance(costs, Mapping):
            raise InputError(f"feature_costs must be a dict {{column: cost}}, got "
                             f"{type(costs).__name__}.")
        for what, items in (("forbidden_features", forbidden), ("feature_costs", costs),
                            ("required_features", required)):
            for item in (() if items is None else items):
                _check_column(what, item, names, n)
        both = {str(v) for v in forbidden} & {str(v) for v in required}
        if both:
            raise InputError(f"required_features requires {sorted(both)[0]!r}, which "
                             "forbidden_features forbids; drop one of the two.")
        if costs is None:
            return
        for item, cost in costs.items():
            if not is_number(cost) or not 0 < float(cost) < np.inf:
                raise InputError(f"feature_costs[{item!r}] must be a finite number > 0, "
                                 f"got {cost!r}.")
        both = {str(v) for v in forbidden} & {str(v) for v in costs}
        if both:
            raise InputError(f"feature_costs gives a cost to {sorted(both)[0]!r}, which "
                             "forbidden_features forbids; drop one of the two.")

    def _required_groups(self) -> list[list[int]] | None:
        """For each of ``required_features``, the literals on its column (none forbidden),
        or None without it; a column that gave no literal, or more required columns than
        ``max_rules`` rules of ``max_degree_`` literals (or ``max_literals``) can hold, is
        refused before column generation."""
        required = self._rule_setting("required_features")
        required = [] if required is None else list(required)  # an array has no truth value
        if not required:
            return None
        groups = []
        for item in required:
            g = [j for j, lit in enumerate(self.literals_)
                 if (str(lit.feature) == item if isinstance(item, str)
                     else lit.column is not None and int(lit.column) == int(item))]
            if not g:
                raise InputError(f"required_features holds {item!r}, whose column gave no "
                                 "literal (a constant column, or one the binarizer dropped); "
                                 "drop it from required_features.")
            groups.append(g)
        cap = self._rule_setting("max_literals")
        rules = self._rule_setting("max_rules")
        if rules is not None and len(groups) > rules * self.max_degree_:
            raise InputError(f"required_features names {len(groups)} columns, but "
                             f"max_rules={rules} rules of at most {self.max_degree_} literals "
                             "use at most that many; raise max_rules or max_degree, or "
                             "require fewer columns.")
        lc = self._literal_costs()
        need = sum(min(1.0 if lc is None else lc[j] for j in g) for g in groups)
        if cap is not None and need > cap + 1e-9:
            raise InputError(f"required_features needs at least {need:g} literals, but "
                             f"max_literals={cap}; raise max_literals or require fewer "
                             "columns.")
        return groups

    def _literal_costs(self) -> np.ndarray | None:
        """One cost per literal from ``feature_costs`` (a literal costs what its column
        does, 1 when not listed), or None without ``feature_costs``."""
        costs = self._rule_setting("feature_costs")
        if not costs:
            return None
        by_name = {str(k): float(v) for k, v in costs.items() if isinstance(k, str)}
        by_pos = {int(k): float(v) for k, v in costs.items() if not isinstance(k, str)}
        return np.array([by_name.get(str(lit.feature),
                                     by_pos.get(-1 if lit.column is None else int(lit.column),
                                                1.0))
                         for lit in self.literals_], dtype=float)

    def _forbid(self, A: np.ndarray) -> np.ndarray:
        """``A`` with the columns of the forbidden features' literals set to 0: a clause
        that uses one covers no row, so pricing never proposes it (its reduced cost is its
        complexity cost, never negative) and the certificate holds over the clauses of
        the other literals -- the restriction is exact, in the master and in pricing."""
        forbidden = self._rule_setting("forbidden_features")
        if forbidden is None:
            return A
        forbidden = list(forbidden)  # read twice below: a generator once
        names = {str(v) for v in forbidden if isinstance(v, str)}
        positions = {int(v) for v in forbidden if not isinstance(v, str)}
        mask = np.array([str(lit.feature) in names
                         or (lit.column is not None and int(lit.column) in positions)
                         for lit in self.literals_], dtype=bool)
        self.forbidden_literals_ = [str(lit) for lit, m in zip(self.literals_, mask) if m]
        if not mask.any():
            return A
        A = np.array(A, copy=True)
        A[:, mask] = False
        return A

    def _check_search_params(self, counts: Sequence[str], seconds: Sequence[str]) -> None:
        """The column-generation parameters both rule learners take: penalties, degree,
        pricing, the integer ``counts``, the time limits ``seconds``, solver, binarizer."""
        for name in ("lambda0", "lambda1"):
            value = getattr(self, name)
            if not (is_number(value) or (isinstance(value, str) and value == "auto")):
                raise InputError(f"{name} must be 'auto' or a finite number >= 0, got "
                                 f"{value!r}.")
        if not (is_int(self.max_degree) or self.max_degree == "auto"):
            raise InputError(f"max_degree must be an integer >= 1 or 'auto', got "
                             f"{self.max_degree!r}.")
        if self.pricing not in options.PRICING:
            raise InputError(f"pricing must be one of {options.PRICING}, got "
                             f"{self.pricing!r}.")
        for name in counts:
            if not is_int(getattr(self, name)):
                raise InputError(f"{name} must be an integer >= 1, got "
                                 f"{getattr(self, name)!r}.")
        for name in seconds:
            value = getattr(self, name)
            if value is not None and not is_number(value, 0.0, strict=True):
                raise InputError(f"{name} must be None or a positive number of seconds, got "
                                 f"{value!r}.")
        if not isinstance(self.solver, (str, Mapping)):
            raise InputError(f"solver must be a solver name such as 'highs' or a mapping "
                             f"{{'lp': ..., 'milp': ...}}, got {self.solver!r}.")
        from .._solver_needs import require_solver

        # the master LP needs duals, the pricing MILP and the master IP a Pyomo MILP solver:
        # refuse a solver that cannot take its part now, not after column generation
        require_solver(self)
        self._check_binarizer_param()

    def _penalties(self, n: float) -> tuple[float, float]:
        """``(lambda0, lambda1)`` with ``"auto"`` resolved for ``n`` training rows."""
        return tuple(auto_penalty(n) if isinstance(v, str) else float(v)
                     for v in (self._rule_setting("lambda0"), self._rule_setting("lambda1")))

    def _milp_solver(self) -> str:
        """The solver named for the MILP part (``solver``, or ``solver["milp"]``)."""
        return split_solver(self.solver)[1]

    def __sklearn_tags__(self):
        """Binary labels only; raw (NaN, string, categorical) input when a binarizer is used."""
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        raw = self._rule_setting("binarizer") is not None
        tags.input_tags.allow_nan = tags.input_tags.string = raw
        tags.input_tags.categorical = raw
        return tags

    def _make_binarizer(self) -> Any:
        b = self._rule_setting("binarizer")
        if b is None:
            return None
        if isinstance(b, str):
            from ...data import FeatureBinarizer

            return FeatureBinarizer()
        if isinstance(b, BaseEstimator):
            return clone(b)
        return copy.deepcopy(b)

    def _check_binarizer_param(self) -> None:
        b = self._rule_setting("binarizer")
        if not (b is None or (isinstance(b, str) and b == "auto")
                or (callable(getattr(b, "fit", None)) and hasattr(b, "transform"))):
            raise InputError(
                f"binarizer must be None (X is already 0/1), 'auto' or a FeatureBinarizer, "
                f"got {b!r}."
            )

    def _binary_literals(self, names: list[str]) -> list[Literal]:
        lits = [Literal(n, "==", 1, j) for j, n in enumerate(names)]
        return lits + [Literal(n, "==", 0, j) for j, n in enumerate(names)]

    def _reads_binary(self, X: Any) -> bool:
        """Whether ``fit`` takes the columns of ``X`` as they are: ``binarizer=None``, or
        ``"auto"`` on a table of 0/1 values."""
        b = self._rule_setting("binarizer")
        return b is None or (isinstance(b, str) and b == "auto" and table_kind(X) == "binary")

    def _literal_matrix(self, X: Any, *, reset: bool, sample_weight: Any = None) -> np.ndarray:
        """Validate ``X`` and return its literal matrix (binarized, or ``[X, 1 - X]``); a
        binarizer is fitted with ``sample_weight`` (weighted quantile thresholds)."""
        if reset:
            self.binarizer_ = None if self._reads_binary(X) else self._make_binarizer()
        if self.binarizer_ is None:
            why = ("binarizer=None" if self._rule_setting("binarizer") is None
                   else "this model was fitted on 0/1 columns taken as they are, so")
            try:
                Xa = validate_data(self, X, reset=reset, dtype=None,
                                   ensure_all_finite=True)
            except OptirulesError:
                raise
            except (ValueError, TypeError) as exc:
                raise InputError(f"{str(exc).splitlines()[0].rstrip('.')}; with {why} X must "
                                 "be a 0/1 matrix; pass binarizer='auto' for raw numeric or "
                                 "categorical data.") from None
            if Xa.dtype == bool:
                Xb = Xa
            else:
                if Xa.dtype.kind not in "biuf":
                    raise InputError(
                        f"X has dtype {Xa.dtype}; with {why} X must hold 0/1 values. "
                        "Pass binarizer='auto' to binarize numeric and categorical columns."
                    )
                ok = (Xa == 0) | (Xa == 1)
                if not ok.all():
                    bad = Xa[~ok].ravel()[0]
                    raise InputError(
                        f"X holds the non-binary value {bad!r}, but with {why} X must hold "
                        "0/1 features; pass binarizer='auto' (a FeatureBinarizer) to learn "
                        "thresholds, or binarize X yourself."
                    )
                Xb = Xa == 1
            if reset:
                names = input_names(self) or [f"x{j}" for j in range(Xb.shape[1])]
                self.literals_ = self._binary_literals(names)
                self.input_summary_ = binary_input_summary(Xb.shape[1])
            return np.ascontiguousarray(np.hstack([Xb, ~Xb]))
        check_2d(X)
        try:
            validate_data(self, X, reset=reset, skip_check_array=True)
        except OptirulesError:
            raise
        except (ValueError, TypeError) as exc:
            raise InputError(f"{exc} Pass the columns the model was fitted on.") from None
        if reset:
            fit_binarizer(self.binarizer_, X, sample_weight)
            self.literals_ = list(getattr(self.binarizer_, "literals_", []))
        else:  # what fit refuses (inf, NaN in a column without NaN at fit)
            check_binarized_input(self.binarizer_, X)
        Xb = np.asarray(self.binarizer_.transform(X))
        if Xb.ndim != 2 or Xb.shape[0] != n_rows(X):
            raise InputError("the binarizer returned an array of unexpected shape "
                             f"{Xb.shape}; it must return one row per input row.")
        if Xb.dtype != bool:
            if Xb.dtype.kind not in "biuf" or not np.all((Xb == 0) | (Xb == 1)):
                raise InputError("the binarizer must return 0/1 values.")
            Xb = Xb == 1
        if reset:
            if len(self.literals_) != Xb.shape[1]:
                names = [str(s) for s in self.binarizer_.get_feature_names_out()] \
                    if hasattr(self.binarizer_, "get_feature_names_out") \
                    else [f"b{j}" for j in range(Xb.shape[1])]
                self.literals_ = [Literal(n, "==", 1, None) for n in names]
            self.input_summary_ = binarized_input_summary(self.binarizer_, Xb.shape[1])
            if Xb.shape[1] == 0:
                raise InputError("the binarizer produced no literal (every column is constant); "
                                 "a rule set needs at least one varying feature.")
        return np.ascontiguousarray(Xb)


def default_target(classes: Any, y: Any, weight: Any = None) -> int:
    """The position in ``classes`` (two labels) of the class a rule set describes when
    ``target_class`` is None: 1 for labels that are numbers or booleans (1, or True, is the
    positive class by convention); for other labels (strings), whose sorted order means
    nothing, the class of less weight in ``y`` (rows, or the sum of ``weight``: the
    minority class, as RIPPER describes it; ties: 1).

    Examples
    --------
    >>> default_target(np.array([0, 1]), np.array([1, 1, 0]))
    1
    >>> default_target(np.array(["bad", "good"]), np.array(["good", "good", "bad"]))
    0
    """
    if all(label_kind(json_scalar(c)) in ("number", "bool") for c in classes):
        return 1
    y = np.asarray(y)
    w = np.ones(len(y)) if weight is None else np.asarray(weight, dtype=float)
    counts = [float(w[y == c].sum()) for c in classes]
    return 0 if counts[0] < counts[1] else 1


def _label_index(classes: Any, label: Any) -> int | None:
    """The position of ``label`` in ``classes`` (same kind of label: a string is not a
    number), or None."""
    want = json_scalar(label)
    kind = label_kind(want)
    if kind is None:
        return None
    for k, c in enumerate(classes):
        c = json_scalar(c)
        if label_kind(c) == kind and c == want:
            return k
    return None


def _carried_pool(prev: Any, literals: list[Any]) -> list[tuple[int, ...]]:
    """The clauses of a previous fit (``(literals, pool)``) over these ``literals``."""
    if prev is None:
        return []
    index = {lit: j for j, lit in enumerate(literals)}
    out: dict[tuple[int, ...], None] = {}
    for clause in prev[1]:
        try:
            out[tuple(sorted(index[prev[0][j]] for j in clause))] = None
        except (KeyError, IndexError, TypeError):
            continue
    return list(out)
