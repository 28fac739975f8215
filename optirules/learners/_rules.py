"""Typed rule values: a conjunction :class:`Rule`, a disjunction :class:`Clause` and a
:class:`RuleSet` (a DNF of rules, or a CNF of clauses).

The DRO paper (*Obtaining Explainable Classification Models using Distributionally Robust Optimization*, Section 2) calls a conjunction of simple rules
:math:`t(x) = r_1(x) \\wedge \\dots \\wedge r_C(x)` a *rule*, and a disjunction
:math:`h(x) = t_1(x) \\vee \\dots \\vee t_M(x)` a *rule set* (a DNF); the rule set predicts
label 1 when any of its rules holds.  Its cost is :math:`c(h) = \\sum_m (1 + C_m)`, the
number of rules plus the number of literals.

A CNF (the other form of Dash, Günlük and Wei, NeurIPS 2018) is a conjunction of
*clauses*, each a disjunction of literals; it predicts its positive class when every
clause holds.  :func:`negate_rule` turns a rule of a DNF into the clause of its negation
(De Morgan), exactly, missing values included (:func:`negate_literal`).

A rule's condition is the binarizer's :class:`~optirules.data.Literal` (``age > 52.5``,
``thal == 7``, ``ca is missing``), so a rule evaluates on raw data with exactly the
semantics of :class:`~optirules.data.FeatureBinarizer` (a missing value satisfies only
``is missing``).  Everything here is plain data: evaluation is vectorized, ``str`` reads
like the caller's columns, and ``to_dict``/``from_dict`` (or ``to_json``/``from_json``)
round-trip without pickle.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..data import Literal
from ..errors import InputError
from ._checks import n_rows
from ._json import (
    Field,
    damaged_as_input_error,
    json_scalar,
    jsonable_value,
    label_kind,
    parse_json,
    restore_value,
)

__all__ = ["Rule", "Clause", "RuleSet", "FORMS", "negate_literal", "negate_rule",
           "read_rule_set", "literal_to_dict"]

#: the two forms of a :class:`RuleSet`: an OR of AND-rules, or an AND of OR-clauses
FORMS = ("dnf", "cnf")


def _column_cache(X: Any) -> Any:
    """Return ``X`` in a form every condition can read repeatedly without re-copying."""
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas is a dependency
        return X
    if isinstance(X, pd.DataFrame):
        if len(X.columns) and not any(isinstance(c, str) for c in X.columns):
            # columns without string names (0, 1, ...) are read by position, as the
            # binarizer reads them, under the names it gives them (x0, x1, ...)
            return X.set_axis([f"x{j}" for j in range(X.shape[1])], axis=1)
        return X
    arr = np.asarray(X) if hasattr(X, "__array__") or isinstance(X, (list, tuple)) else X
    if isinstance(arr, np.ndarray) and arr.ndim == 1:
        raise InputError(
            f"expected 2-D data (rows x columns), got a 1-D array of shape {arr.shape}; "
            "reshape a single row with X.reshape(1, -1)."
        )
    return arr


def _rename(condition: Literal, feature_names: Sequence[str] | None) -> str:
    if feature_names is None or condition.column is None:
        return str(condition)
    if not 0 <= condition.column < len(feature_names):
        raise InputError(
            f"feature_names has {len(feature_names)} names but the condition '{condition}' "
            f"reads column {condition.column}."
        )
    return condition.to_string(str(feature_names[condition.column]))


@dataclass(frozen=True)
class _Conditions:
    """Literals combined by one connective: what :class:`Rule` (AND) and :class:`Clause`
    (OR) share -- the checks, the cost, evaluation, text and the JSON form."""

    conditions: tuple[Literal, ...] = ()

    #: the connective's text, the text of the empty combination, and whether it is AND
    _JOIN: ClassVar[str] = " AND "
    _EMPTY: ClassVar[str] = "TRUE"
    _ALL: ClassVar[bool] = True

    def __post_init__(self) -> None:
        conds = tuple(self.conditions)
        for c in conds:
            if not isinstance(c, Literal):
                raise InputError(
                    f"a {type(self).__name__} holds optirules.data.Literal objects (feature, "
                    f"op, value), got {c!r}; build them with Literal('age', '>', 52.5)."
                )
        object.__setattr__(self, "conditions", conds)

    def __len__(self) -> int:
        return len(self.conditions)

    @property
    def complexity(self) -> int:
        """The DRO paper's cost of a rule: one plus its number of literals."""
        return 1 + len(self.conditions)

    def evaluate(self, X: Any) -> np.ndarray:
        """Boolean array: which rows of ``X`` satisfy every condition (a rule) or at least
        one (a clause).

        Parameters
        ----------
        X : DataFrame or 2-D array
            Conditions read their column by name (DataFrame) or by position (array).

        Returns
        -------
        ndarray of bool, shape (n_samples,)
        """
        X = _column_cache(X)
        out = np.full(n_rows(X), self._ALL, dtype=bool)
        for c in self.conditions:
            if self._ALL:
                out &= c.evaluate(X)
            else:
                out |= c.evaluate(X)
        return out

    def to_string(self, feature_names: Sequence[str] | None = None) -> str:
        """``a AND b AND c`` (a rule) or ``a OR b OR c`` (a clause).

        Parameters
        ----------
        feature_names : sequence of str, optional
            Names that replace the columns' by position.

        Returns
        -------
        str
        """
        if not self.conditions:
            return self._EMPTY
        return self._JOIN.join(_rename(c, feature_names) for c in self.conditions)

    def __str__(self) -> str:
        return self.to_string()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary.

        Returns
        -------
        dict
            ``{"conditions": [...]}``.
        """
        return {"conditions": [literal_to_dict(c) for c in self.conditions]}


@dataclass(frozen=True)
class Rule(_Conditions):
    """A conjunction of conditions: :math:`t(x) = r_1(x) \\wedge \\dots \\wedge r_C(x)`.

    Parameters
    ----------
    conditions : tuple of optirules.data.Literal
        The literals (``feature op value``); the empty rule holds everywhere.

    Examples
    --------
    >>> from optirules.data import Literal
    >>> r = Rule((Literal("age", ">", 52.5), Literal("sex", "==", "male")))
    >>> str(r)
    'age > 52.5 AND sex == male'
    >>> r.complexity
    3
    """

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rule:
        """Rebuild a rule from :meth:`to_dict` output."""
        if not isinstance(data, dict) or "conditions" not in data:
            raise InputError("a rule needs a 'conditions' list; pass the output of Rule.to_dict().")
        return read_rule(Field("Rule", data))


@dataclass(frozen=True)
class Clause(_Conditions):
    """A disjunction of conditions: :math:`c(x) = r_1(x) \\vee \\dots \\vee r_C(x)`, one
    clause of a CNF :class:`RuleSet`.

    Parameters
    ----------
    conditions : tuple of optirules.data.Literal
        The literals; the empty clause holds nowhere.

    Examples
    --------
    >>> from optirules.data import Literal
    >>> c = Clause((Literal("age", ">", 52.5), Literal("age", "is missing")))
    >>> str(c)
    'age > 52.5 OR age is missing'
    """

    _JOIN: ClassVar[str] = " OR "
    _EMPTY: ClassVar[str] = "FALSE"
    _ALL: ClassVar[bool] = False


def negate_literal(literal: Literal, can_be_missing: bool = True) -> tuple[Literal, ...]:
    """The literals whose disjunction is exactly ``NOT literal`` on every row.

    A missing value satisfies no comparison (the Notes of
    :class:`~optirules.data.Literal`), so ``NOT (x <= 5)`` is ``x > 5 OR x is missing``
    and ``NOT (c == red)`` is ``c != red OR c is missing`` (a category unseen in training
    satisfies ``c != red``, as it fails ``c == red``).  ``is missing`` and ``is not
    missing`` negate each other.  ``can_be_missing=False`` (a column that cannot hold a
    missing value, such as a 0/1 column taken as it is) drops the missing case, and there
    ``x == 1`` and ``x == 0`` negate each other.
    """
    if literal.op in ("is missing", "is not missing"):
        return (literal.negation(),)
    if not can_be_missing:
        v = literal.value
        if literal.op == "==" and not isinstance(v, (bool, str)) and v in (0, 1):
            return (Literal(literal.feature, "==", 1 - int(v), literal.column),)
        return (literal.negation(),)
    return (literal.negation(), Literal(literal.feature, "is missing", None, literal.column))


def negate_rule(rule: Rule, can_be_missing: Any = True) -> Clause:
    """The clause ``NOT rule`` (De Morgan: the OR of the negated literals, each negated by
    :func:`negate_literal`, a literal listed once).

    ``can_be_missing`` is a bool for every literal, or a callable taking a literal.
    """
    test = can_be_missing if callable(can_be_missing) else (lambda lit: bool(can_be_missing))
    out: dict[Literal, None] = {}
    for lit in rule.conditions:
        for neg in negate_literal(lit, test(lit)):
            out.setdefault(neg, None)
    return Clause(tuple(out))


@dataclass(frozen=True)
class RuleSet:
    """A DNF rule set :math:`h(x) = t_1(x) \\vee \\dots \\vee t_M(x)` (the DRO paper,
    Section 2), or a CNF :math:`h(x) = c_1(x) \\wedge \\dots \\wedge c_M(x)` of clauses.

    Parameters
    ----------
    rules : tuple of Rule, or of Clause when ``form="cnf"``
        The conjunctions (DNF) or the clauses (CNF); the empty DNF never fires (predicts
        the negative class), the empty CNF always holds (predicts the positive class).
    positive_class, negative_class : label, default 1 and 0
        What :meth:`predict` returns where the rule set holds (a DNF: some rule holds; a
        CNF: every clause holds), and elsewhere.
    form : {"dnf", "cnf"}, default "dnf"
        How the elements of ``rules`` combine.

    Examples
    --------
    >>> from optirules.data import Literal
    >>> rs = RuleSet((Rule((Literal("age", ">", 52.5),)),
    ...               Rule((Literal("chol", "<=", 200.0), Literal("sex", "==", "male")))))
    >>> print(rs)
    (age > 52.5) OR (chol <= 200 AND sex == male)
    >>> rs.complexity, rs.n_rules, rs.n_literals
    (5, 2, 3)
    """

    rules: tuple[Rule, ...] | tuple[Clause, ...] = ()
    positive_class: Any = 1
    negative_class: Any = 0
    form: str = "dnf"

    def __post_init__(self) -> None:
        if self.form not in FORMS:
            raise InputError(f"a RuleSet's form must be one of {FORMS}, got {self.form!r}.")
        kind = Rule if self.form == "dnf" else Clause
        rules = tuple(self.rules)
        for r in rules:
            if not isinstance(r, kind):
                raise InputError(f"a RuleSet of form {self.form!r} holds {kind.__name__} "
                                 f"objects, got {r!r}.")
        object.__setattr__(self, "rules", rules)

    def __len__(self) -> int:
        return len(self.rules)

    def __iter__(self):
        return iter(self.rules)

    @property
    def n_rules(self) -> int:
        return len(self.rules)

    @property
    def n_literals(self) -> int:
        return sum(len(r) for r in self.rules)

    @property
    def complexity(self) -> int:
        """The DRO paper's :math:`c(h) = M + \\sum_m C_m` (rules plus literals)."""
        return sum(r.complexity for r in self.rules)

    # ------------------------------------------------------------------ evaluation
    def fired(self, X: Any) -> np.ndarray:
        """Boolean matrix ``(n_rows, n_rules)``: which rules (CNF: clauses) hold on which
        rows."""
        X = _column_cache(X)
        n = n_rows(X)
        if not self.rules:
            return np.zeros((n, 0), dtype=bool)
        return np.column_stack([r.evaluate(X) for r in self.rules])

    def unmet(self, X: Any) -> np.ndarray:
        """Int matrix ``(n_rows, n_rules)``: how many conditions of each rule fail on each
        row (0 where the rule fires; a missing value fails every comparison).  A DNF only.

        Parameters
        ----------
        X : DataFrame or 2-D array
            Conditions read their column by name (DataFrame) or by position (array).

        Returns
        -------
        ndarray of int64, shape (n_samples, n_rules)
        """
        if self.form != "dnf":
            raise InputError("unmet counts the failed conditions of a DNF's rules; a CNF's "
                             "clauses are ORs (negate the CNF's DNF instead).")
        X = _column_cache(X)
        out = np.zeros((n_rows(X), len(self.rules)), dtype=np.int64)
        for m, r in enumerate(self.rules):
            for c in r.conditions:
                out[:, m] += ~np.asarray(c.evaluate(X), dtype=bool)
        return out

    def evaluate(self, X: Any) -> np.ndarray:
        """Boolean array: the value :math:`h(x)` on every row of ``X`` (a DNF: some rule
        holds; a CNF: every clause holds)."""
        X = _column_cache(X)
        if self.form == "cnf":
            return self.fired(X).all(axis=1) if self.rules else np.ones(n_rows(X), dtype=bool)
        return self.fired(X).any(axis=1) if self.rules else np.zeros(n_rows(X), dtype=bool)

    def predict(self, X: Any) -> np.ndarray:
        """``positive_class`` where the rule set holds (:meth:`evaluate`),
        ``negative_class`` elsewhere."""
        hit = self.evaluate(X)
        classes = np.array([self.negative_class, self.positive_class])
        return classes[hit.astype(int)]

    # ------------------------------------------------------------------ text
    def to_string(self, feature_names: Sequence[str] | None = None, *,
                  multiline: bool = False) -> str:
        """The DNF as text: ``(a AND b) OR (c)``; ``FALSE`` when empty.  A CNF:
        ``(a OR b) AND (c)``; ``TRUE`` when empty.

        ``multiline=True`` gives one numbered rule (clause) per line, as :class:`str` of the
        learners prints it.
        """
        if self.form == "cnf":
            return self._cnf_string(feature_names, multiline)
        if multiline:
            pos = _label_text(self.positive_class)
            neg = _label_text(self.negative_class)
            if not self.rules:
                return f"predict {neg} (the rule set is empty)"
            lines = [f"predict {pos} if any rule holds, else {neg}:"]
            for m, r in enumerate(self.rules, 1):
                lines.append(f"  rule {m}: {r.to_string(feature_names)}")
            return "\n".join(lines)
        if not self.rules:
            return "FALSE"
        return " OR ".join(f"({r.to_string(feature_names)})" for r in self.rules)

    def _cnf_string(self, feature_names: Sequence[str] | None, multiline: bool) -> str:
        if multiline:
            pos = _label_text(self.positive_class)
            neg = _label_text(self.negative_class)
            if not self.rules:
                return f"predict {pos} (the CNF has no clause)"
            lines = [f"predict {pos} if every clause holds, else {neg}:"]
            for m, c in enumerate(self.rules, 1):
                lines.append(f"  clause {m}: {c.to_string(feature_names)}")
            return "\n".join(lines)
        if not self.rules:
            return "TRUE"
        return " AND ".join(f"({c.to_string(feature_names)})" for c in self.rules)

    def __str__(self) -> str:
        return self.to_string()

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary; :meth:`from_dict` reads it back (the key ``form`` is
        written for a CNF only, so a DNF's dictionary is that of the DNF-only layout)."""
        out = {
            "rules": [r.to_dict() for r in self.rules],
            "positive_class": json_scalar(self.positive_class),
            "negative_class": json_scalar(self.negative_class),
        }
        if self.form != "dnf":
            out["form"] = self.form
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Rebuild a rule set from :meth:`to_dict` output (every part checked)."""
        if not isinstance(data, dict) or "rules" not in data:
            raise InputError("a rule set needs a 'rules' list; pass RuleSet.to_dict() output.")
        return read_rule_set(Field("RuleSet", data))

    def to_json(self, **kwargs: Any) -> str:
        """JSON text of :meth:`to_dict` (keyword arguments go to :func:`json.dumps`)."""
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_json(cls, text: str) -> RuleSet:
        """Rebuild a rule set from :meth:`to_json` output."""
        if not isinstance(text, (str, bytes, bytearray)):
            raise InputError(f"RuleSet.from_json takes the JSON text, not "
                             f"{type(text).__name__}; pass the text of RuleSet.to_json().")
        if not isinstance(text, str):
            from ._json import read_source

            text = read_source(text, "RuleSet.to_json")
        data = parse_json(text, "RuleSet.to_json", "a rule set")
        return cls.from_dict(data)

    @classmethod
    def from_clauses(cls, clauses: Iterable[Iterable[int]], literals: Sequence[Literal],
                     positive_class: Any = 1, negative_class: Any = 0) -> RuleSet:
        """Build a rule set from clauses of literal indices into ``literals``."""
        rules = []
        for clause in clauses:
            try:
                rules.append(Rule(tuple(literals[int(j)] for j in clause)))
            except IndexError:
                raise InputError(
                    f"clause {tuple(clause)} refers to a literal index beyond the "
                    f"{len(literals)} literals given."
                ) from None
        return cls(tuple(rules), positive_class, negative_class)


def literal_to_dict(lit: Literal) -> dict[str, Any]:
    """A condition as JSON (a date or time value in the form :func:`read_literal` reads)."""
    out = lit.to_dict()
    out["value"] = jsonable_value(out["value"])
    return out


def read_literal(field: Field) -> Literal:
    """A condition from :func:`literal_to_dict` output, every key checked; a damaged one
    raises an :class:`~optirules.errors.InputError` naming it."""
    field.object()
    feature = field["feature"].string()
    op = field["op"].string()
    value = restore_value(field["value"]) if "value" in field else None
    column = field["column"].count(null=None, default=None)
    try:
        return Literal(feature, op, value, column)
    except InputError as exc:
        raise field.damaged(str(exc).rstrip(".")) from None


def read_rule(field: Field) -> Rule:
    """A rule from :meth:`Rule.to_dict` output, checked."""
    return Rule(tuple(read_literal(c) for c in field["conditions"].items()))


def read_clause(field: Field) -> Clause:
    """A clause from :meth:`Clause.to_dict` output, checked."""
    return Clause(tuple(read_literal(c) for c in field["conditions"].items()))


def read_rule_set(field: Field) -> RuleSet:
    """A rule set from :meth:`RuleSet.to_dict` output, every part checked: conditions, and
    class labels that are strings or finite numbers, and the form (``"dnf"`` when absent)."""
    field.object()
    form = field["form"].string(choices=FORMS, default="dnf")
    read = read_rule if form == "dnf" else read_clause
    labels = []
    for key, default in (("positive_class", 1), ("negative_class", 0)):
        f = field[key]
        label = f.value if f.present else default
        if label_kind(label) is None:
            raise f.damaged(f"must be a class label (a string or a finite number), not "
                            f"{str(label)[:40]}")
        labels.append(label)
    with damaged_as_input_error(field.name):
        return RuleSet(tuple(read(r) for r in field["rules"].items()), *labels, form=form)


def _label_text(value: Any) -> str:
    value = json_scalar(value)
    return repr(value) if isinstance(value, str) else str(value)
