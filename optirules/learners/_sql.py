"""Fitted rules as SQL: ``to_sql(table, dialect)`` of the rule set, the DRO ensemble, the
decision list and boosting, so that predictions run where the data lives.

:func:`model_sql` gives the learners (and their cross-validated forms, through
``best_estimator_``) one method, ``to_sql`` (:class:`~optirules.learners._rule_model.RuleModelMixin`), which returns the text of one
``SELECT`` over a table whose columns are the model's input columns (the names of
``feature_names_in_``, or ``x0, x1, ...`` for a model fitted on an array).  The query gives
one output column (``column="prediction"``), after any pass-through columns (``keep``), and
its predictions equal ``model.predict`` on the same rows, row for row.

Semantics reproduced (those of :class:`optirules.data.Literal` and of the decision list's
value codes):

* a missing value (SQL ``NULL``; NaN in a floating-point column, which SQLite stores as
  ``NULL`` and DuckDB keeps as a value: the DuckDB query turns it into ``NULL`` first)
  satisfies only ``is missing``; every comparison, ``!=`` included, is false on it;
* a category never seen in training satisfies no ``==`` and every ``!=``;
* thresholds compare as numpy compares two float64 numbers: the column is cast to a double
  and the threshold is written so that it reads back as the same double (DuckDB: the
  shortest ``repr`` with an exponent, a ``DOUBLE`` literal; SQLite, whose text-to-float
  conversion is not correctly rounded in every case: the ``repr`` when it is exact in few
  digits, else an exact quotient ``CAST(m AS REAL) / 2^k`` followed by the ``repr`` in a
  comment);
* a category that is a number (or a boolean: ``True == 1`` as in Python) compares as a
  number, a string category as a string;
* a rule set is an OR of AND-rules (a DNF) or an AND of OR-clauses (a CNF), written with
  AND and OR of literals only, so an unknown (NULL) literal counts as a false one; the DRO
  vote :math:`F(x) = \\sum_k v_k h_k(x)` is
  summed in the members' order, as ``decision_function`` sums it, so the same doubles are
  compared with the same cut; boosting's vote :math:`F(x) = \\sum_t \\alpha_t h_t(x)` is
  summed round by round the same way (:mod:`optirules.learners._boosting._sql`).

Not written as SQL (refused with an :class:`~optirules.errors.InputError` before any work):
the decision list's Minimum OSR fallback (it grows a tree on the training rows for each
uncovered point; ``set_params(fallback="default")`` gives SQL, and predictions that differ
only on the rows no rule covers), models whose binarizer is not a
:class:`~optirules.data.FeatureBinarizer` (their literals do not read input columns), and
values of other types than strings, numbers and booleans.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import numpy as np

from ..errors import InputError, NotFittedError
from ._checks import input_names, model_kind
from ._cv import RefitDelegation
from ._scores import VOTE_CUT

__all__ = ["DIALECTS", "model_sql"]

#: the SQL dialects ``to_sql`` writes
DIALECTS = ("sqlite", "duckdb")

_INPUT = "_optirules_input"
_SCORES = "_optirules_scores"
_SCORE = "_optirules_score_{}"


class _NotFitted(InputError, NotFittedError):
    """An unfitted model asked for SQL: an InputError and a NotFittedError."""


# ============================================================================= literals
def quote_identifier(name: Any) -> str:
    """``name`` as a double-quoted SQL identifier (``"`` doubled)."""
    if not isinstance(name, str) or not name:
        raise InputError(f"a SQL column or table name must be a non-empty string, got "
                         f"{name!r}.")
    if "\x00" in name:
        raise InputError(f"the name {name!r} holds a NUL character, which SQL cannot quote.")
    return '"' + name.replace('"', '""') + '"'


def quote_string(text: str) -> str:
    """``text`` as a single-quoted SQL string literal (``'`` doubled)."""
    if "\x00" in text:
        raise InputError(f"the string {text!r} holds a NUL character, which SQL cannot "
                         "quote.")
    return "'" + text.replace("'", "''") + "'"


def _sqlite_real(v: float) -> str:
    """A SQLite expression of exactly the double ``v``.

    SQLite's text-to-float conversion is not correctly rounded for every input, so the
    ``repr`` is used only when it is the exact value in at most 15 digits with a decimal
    exponent of at most 22 (one exact division or product then); otherwise ``v = m 2^e`` is
    written as ``CAST(m AS REAL)`` times or divided by powers of two (exact integers)."""
    text = repr(v)
    exact = Decimal(v)
    digits = exact.as_tuple()
    if Decimal(text) == exact and len(digits.digits) <= 15 and abs(digits.exponent) <= 22:
        return text if ("e" in text or "." in text) else text + ".0"
    num, den = v.as_integer_ratio()
    e = 0
    while num % 2 == 0 and num:
        num //= 2
        e += 1
    e -= den.bit_length() - 1
    out = f"CAST({num} AS REAL)"
    op = " * " if e > 0 else " / "
    left = abs(e)
    while left:
        step = min(left, 62)
        out += f"{op}{2 ** step}"
        left -= step
    return f"({out} /* {text} */)"


def _real(v: float, dialect: str) -> str:
    """The double ``v`` (finite) as a literal that reads back as the same double."""
    v = float(v)
    if not math.isfinite(v):
        raise InputError(f"the number {v!r} has no SQL literal; only finite numbers are "
                         "written.")
    if dialect == "sqlite":
        return _sqlite_real(v)
    text = repr(v)
    return text if "e" in text else text + "e0"  # an exponent makes DuckDB read a DOUBLE


def _number(v: Any, dialect: str) -> str:
    """An int, bool or float as a SQL number (booleans as 1 and 0: ``True == 1``)."""
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, numbers.Integral):
        v = int(v)
        if abs(v) < 2 ** 63:
            return str(v)
        return _real(float(v), dialect)
    v = float(v)
    if math.isfinite(v) and v.is_integer() and abs(v) < 2 ** 53:
        return str(int(v))
    return _real(v, dialect)


def _value(v: Any, dialect: str, what: str) -> str:
    """A category or a class label as a SQL literal of its own type."""
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, str):
        return quote_string(v)
    if isinstance(v, (bool, numbers.Real)):
        if isinstance(v, float) and not math.isfinite(v):
            raise InputError(f"{what} {v!r} has no SQL literal; only finite numbers, strings "
                             "and booleans are written.")
        return _number(v, dialect)
    raise InputError(f"{what} {v!r} (of type {type(v).__name__}) has no SQL literal; to_sql "
                     "writes strings, numbers and booleans.")


def _double(col: str, dialect: str) -> str:
    return f"CAST({col} AS {'REAL' if dialect == 'sqlite' else 'DOUBLE'})"


def literal_sql(lit: Any, dialect: str) -> str:
    """One :class:`~optirules.data.Literal` as a SQL condition on its (quoted) column:
    true exactly where :meth:`~optirules.data.Literal.evaluate` is, false or NULL elsewhere
    (the DuckDB form reads a column whose NaN was made NULL)."""
    col = quote_identifier(lit.feature)
    if lit.op == "is missing":
        return f"{col} IS NULL"
    if lit.op == "is not missing":
        return f"{col} IS NOT NULL"
    if lit.op in ("<=", ">"):
        return f"{_double(col, dialect)} {lit.op} {_real(lit.value, dialect)}"
    op = "=" if lit.op == "==" else "<>"
    return f"{col} {op} {_value(lit.value, dialect, f'the value of the literal {str(lit)!r}')}"


# ============================================================================= queries
def _conjunction(parts: list[str]) -> str:
    if not parts:
        return "(1 = 1)"
    return "(" + " AND ".join(parts) + ")"


def _disjunction(parts: list[str], indent: str) -> str:
    if not parts:
        return "(1 = 0)"
    return ("\n" + indent + "OR ").join(parts)


def _rule_set_condition(rule_set: Any, dialect: str, indent: str) -> str:
    """A :class:`RuleSet` as SQL, true exactly where it holds (a DNF: some rule holds; a
    CNF: every clause holds).  Only AND and OR of literals, so a NULL (unknown) literal
    leaves the result TRUE exactly where the literal's being false would (NULL counts as
    false in CASE WHEN)."""
    if getattr(rule_set, "form", "dnf") == "cnf":
        clauses = ["(" + _disjunction([literal_sql(c, dialect) for c in r.conditions], "")
                   + ")" for r in rule_set.rules]
        return _conjunction(clauses) if clauses else "(1 = 1)"
    return _disjunction([_conjunction([literal_sql(c, dialect) for c in r.conditions])
                         for r in rule_set.rules], indent)


def _fires_sql(rule_set: Any, m: int, dialect: str) -> str:
    """Where rule ``m`` of the master's DNF fires: rule ``m`` holds (a DNF), or clause
    ``m`` fails (a CNF: the clause is the rule's negation; COALESCE makes it two-valued
    before NOT)."""
    conds = [literal_sql(c, dialect) for c in rule_set.rules[m].conditions]
    if getattr(rule_set, "form", "dnf") == "cnf":
        return f"(NOT COALESCE(({_disjunction(conds, '')}), FALSE))"
    return _conjunction(conds)


def _vote_sql(est: Any, dialect: str, indent: str) -> str:
    """The DRO vote F(x) = sum_k v_k h_k(x), summed in the members' order (as
    ``decision_function``: the same doubles)."""
    terms = []
    zero = _real(0.0, dialect)
    for k in np.flatnonzero(np.asarray(est.weights_) != 0):
        cond = _rule_set_condition(est.members_[k], dialect, indent + "     ")
        w = _real(float(est.weights_[k]), dialect)
        terms.append(f"CASE WHEN {cond}\n{indent}     THEN {w} ELSE {zero} END")
    if not terms:
        return zero
    out = f"({zero} + {terms[0]})"  # F starts at 0.0 (np.zeros)
    for t in terms[1:]:
        out = f"({out}\n{indent} + {t})"
    return out


def _argmax_sql(scores: list[str], labels: list[str], indent: str) -> str:
    """The label of the largest score, ties to the first (``numpy.argmax``)."""
    K = len(scores)
    lines = ["CASE"]
    for k in range(K - 1):
        cond = " AND ".join(f"{scores[k]} >= {scores[j]}" for j in range(k + 1, K))
        lines.append(f"{indent}  WHEN {cond} THEN {labels[k]}")
    lines.append(f"{indent}  ELSE {labels[K - 1]}")
    lines.append(f"{indent}END")
    return "\n".join(lines)


def _rule_set_ovr_scores(est: Any, dialect: str, indent: str) -> list[str]:
    """One-vs-rest rule set: per class, the rank of its ``decision_function`` among every
    value any class's can take (integers, so the comparison is exact); a class whose rule
    set is empty gets the constant rank of its score where no rule fires."""
    cases, scores = [], []
    for e in est.estimators_:
        n = e.rules_.n_rules
        # rows where only rule m of the master's DNF fires, and a row where none does
        fired = np.vstack([np.eye(n, dtype=bool), np.zeros((1, n), dtype=bool)])
        s = np.asarray(e._scores(fired), dtype=float)
        # as decision_function: 2 p - 1, p the probability of classes_[1]
        flip = getattr(e, "_dnf_index", lambda: 1)() == 0
        cases.append(2.0 * (1.0 - s) - 1.0 if flip else 2.0 * s - 1.0)
        scores.append(s)
    ranks = np.unique(np.concatenate(cases))
    out = []
    for e, d, s in zip(est.estimators_, cases, scores):
        n = e.rules_.n_rules
        rank = np.searchsorted(ranks, d)
        # the score is that of the best rule that fires: the first in decreasing order
        order = sorted(range(n), key=lambda m: -s[m])
        if not order:  # an empty rule set fires nowhere: a constant (CASE needs a WHEN)
            out.append(str(int(rank[n])))
            continue
        lines = ["CASE"]
        for m in order:
            cond = _fires_sql(e.rules_, m, dialect)
            lines.append(f"{indent}  WHEN {cond} THEN {int(rank[m])}")
        lines.append(f"{indent}  ELSE {int(rank[n])}")
        lines.append(f"{indent}END")
        out.append("\n".join(lines))
    return out


def _label_number(label: str) -> float | bool | None:
    """The number (or boolean) whose decision-list code is ``label``, if any: ``"1"`` is
    the code of 1 and 1.0, ``"2.5"`` of 2.5, ``"True"`` of True (stored as 1 by SQLite)."""
    if label in ("True", "False"):
        return label == "True"
    try:
        v = float(label)
    except ValueError:
        return None
    if not math.isfinite(v):
        return None
    text = str(int(v)) if v.is_integer() else repr(v)
    return v if text == label else None


def _decision_test_sql(feat: Any, code: int, dialect: str) -> str:
    """One decision-list test ``attribute = value`` (its value codes,
    ``_decision_list._encoding``) as SQL."""
    col = quote_identifier(feat.name)
    label = feat.categories[code]
    if feat.kind == "categorical":
        if label == "?":  # missing: None, NaN, NA, "" and the string "?"
            text = "TEXT" if dialect == "sqlite" else "VARCHAR"
            return f"({col} IS NULL OR CAST({col} AS {text}) IN ('', '?'))"
        # codes are the value's text (True, 1, 2.5, red): the engine reads the literal in
        # the column's type (SQLite's column affinity, DuckDB's cast of a constant)
        number = _label_number(label)
        if number is not None and dialect == "sqlite":  # also a column without affinity
            kinds = "'integer'" if label in ("True", "False") else "'integer', 'real'"
            return (f"({col} = {quote_string(label)} OR (typeof({col}) IN ({kinds}) AND "
                    f"{col} = {_number(number, dialect)}))")
        return f"{col} = {quote_string(label)}"
    cuts = [float(c) for c in (feat.cuts or [])]
    if label == "?":
        return f"{col} IS NULL"
    x = _double(col, dialect)
    if not cuts:
        return f"{col} IS NOT NULL"
    # code = the number of cuts below x (numpy.searchsorted, side="left")
    parts = []
    if code > 0:
        parts.append(f"{x} > {_real(cuts[code - 1], dialect)}")
    if code < len(cuts):
        parts.append(f"{x} <= {_real(cuts[code], dialect)}")
    return " AND ".join(parts)


def _decision_list_sql(est: Any, dialect: str, indent: str) -> str:
    lines = ["CASE"]
    for rule in est.rules_:
        tests = [_decision_test_sql(est.features_[t.feature], int(t.value), dialect)
                 for t in rule.conditions]
        label = est.classes_[int(np.argmax(rule.class_counts))]
        lines.append(f"{indent}  WHEN {_conjunction(tests)}\n{indent}    THEN "
                     f"{_value(label, dialect, 'the class label')}")
    default = est.classes_[int(np.argmax(est.default_counts_))]
    lines.append(f"{indent}  ELSE {_value(default, dialect, 'the class label')}")
    lines.append(f"{indent}END")
    return "\n".join(lines)


# ============================================================================= checks
def _kind(est: Any) -> str:
    """``"decision_list"``, ``"dro"``, ``"boosting"`` or ``"rule_set"``: the learner's
    ``_model_kind``."""
    kind = model_kind(est)
    if kind is None:
        raise InputError(f"{type(est).__name__} has no rules to write as SQL.")
    return kind


def _is_fitted(est: Any) -> bool:
    if "estimators_" in vars(est) and len(getattr(est, "classes_", ())) > 2:
        return all(_is_fitted(e) for e in est.estimators_)
    fitted = getattr(type(est), "_fitted_attribute", None)
    return "classes_" in vars(est) and fitted is not None and fitted in vars(est)


def _feature_names(est: Any) -> list[str]:
    names = input_names(est)
    if names is not None:
        return names
    return [f"x{j}" for j in range(int(getattr(est, "n_features_in_", 0)))]


def _check_literals(est: Any, rule_sets: list[Any]) -> set[str]:
    """The input columns the rules read; literals that read no input column (a custom
    binarizer's) are refused."""
    binarizer = getattr(est, "binarizer_", None)
    if binarizer is not None:
        from ..data import FeatureBinarizer

        if not isinstance(binarizer, FeatureBinarizer):
            raise InputError(
                f"to_sql writes the literals of a FeatureBinarizer (or of 0/1 columns with "
                f"binarizer=None), but this {type(est).__name__} was fitted with "
                f"{type(binarizer).__name__}, whose literals do not read input columns.")
    names = set(_feature_names(est))
    used: set[str] = set()
    for rs in rule_sets:
        for rule in rs.rules:
            for lit in rule.conditions:
                if names and lit.feature not in names:
                    raise InputError(
                        f"the literal '{lit}' reads the column {lit.feature!r}, which is not "
                        f"an input column of this model ({sorted(names)[:10]}); to_sql needs "
                        "literals of a FeatureBinarizer or of 0/1 columns.")
                used.add(lit.feature)
    return used


def _check_keep(keep: Any, column: str) -> list[str]:
    if isinstance(keep, str):
        keep = (keep,)
    if keep is None:
        keep = ()
    if not isinstance(keep, Sequence) or not all(isinstance(k, str) and k for k in keep):
        raise InputError(f"keep must be a sequence of column names (strings), got {keep!r}.")
    keep = list(dict.fromkeys(keep))
    if column in keep:
        raise InputError(f"the output column {column!r} is also a kept column; choose another "
                         "name with column=... .")
    for k in keep:
        quote_identifier(k)
        if k.startswith("_optirules_"):
            raise InputError(f"kept columns may not start with '_optirules_' (the query's own "
                             f"names), got {k!r}.")
    return keep


def _table_sql(table: Any) -> str:
    if isinstance(table, str):
        return quote_identifier(table)
    if isinstance(table, Sequence) and table and all(isinstance(t, str) for t in table):
        return ".".join(quote_identifier(t) for t in table)
    raise InputError(f"table must be a table name (a string; each part of a qualified name "
                     f"as a tuple such as ('main', 'people')), got {table!r}.")


# ============================================================================= the query
def model_sql(model: Any, table: str | Sequence[str], dialect: str = "sqlite", *,
              column: str = "prediction", keep: Sequence[str] = ()) -> str:
    """The body of :meth:`~optirules.learners._rule_model.RuleModelMixin.to_sql`: the SQL
    text of the fitted ``model`` (its docstring says what the query computes)."""
    if dialect not in DIALECTS:
        raise InputError(f"dialect must be one of {list(DIALECTS)}, got {dialect!r}.")
    if not isinstance(column, str) or not column:
        raise InputError(f"column must be a non-empty string, got {column!r}.")
    quote_identifier(column)
    keep = _check_keep(keep, column)
    source = _table_sql(table)
    est: Any = model
    if "best_estimator_" in model.__dict__:
        est = model.best_estimator_
    elif isinstance(model, RefitDelegation):
        raise _NotFitted(f"This {type(model).__name__} instance is not fitted yet; call "
                         "fit before to_sql.")
    if not _is_fitted(est):
        raise _NotFitted(f"This {type(est).__name__} instance is not fitted yet; call fit "
                         "before to_sql.")
    ovr = "estimators_" in est.__dict__ and len(est.classes_) > 2
    parts = list(est.estimators_) if ovr else [est]
    kind = _kind(parts[0])
    used: set[str] = set()
    if kind == "decision_list":
        if est.fallback != "default":
            raise InputError(
                f"to_sql writes a decision list whose uncovered rows get the default rule; "
                f"this one has fallback={est.fallback!r} (Minimum OSR grows a tree on the "
                "training rows for each uncovered point, which SQL cannot hold). Call "
                "set_params(fallback=\"default\") first: predictions then differ only on "
                "the rows no rule covers.")
        used = {est.features_[t.feature].name for r in est.rules_ for t in r.conditions}
    elif kind == "dro":
        for e in parts:
            used |= _check_literals(e, list(e.members_))
    elif kind == "boosting":  # the booster's hooks (optirules.learners._boosting._sql)
        for e in parts:
            used |= set(e._sql_columns())
    else:
        for e in parts:
            used |= _check_literals(e, [e.rules_])
    labels = [_value(c, dialect, "the class label") for c in est.classes_]

    ind = "       "
    if kind == "boosting":
        body = None
    elif kind == "decision_list":
        body = _decision_list_sql(est, dialect, ind)
    elif not ovr and kind == "rule_set":
        # predict: the rule set's positive class where it holds (a DNF: some rule
        # holds; a CNF: every clause holds), its negative class elsewhere
        rs = est.rules_
        cond = _rule_set_condition(rs, dialect, ind + "   ")
        pos = _value(rs.positive_class, dialect, "the class label")
        neg = _value(rs.negative_class, dialect, "the class label")
        body = f"CASE\n{ind}  WHEN {cond}\n{ind}  THEN {pos}\n{ind}  ELSE {neg}\n{ind}END"
    elif not ovr:  # a DRO ensemble: classes_[1] iff F >= 1/2
        vote = _vote_sql(est, dialect, ind + "  ")
        body = (f"CASE\n{ind}  WHEN {vote}\n{ind}    >= {_real(VOTE_CUT, dialect)}\n"
                f"{ind}  THEN {labels[1]}\n{ind}  ELSE {labels[0]}\n{ind}END")
    else:
        body = None

    # the rows: DuckDB keeps NaN as a value (greater than every number): make it NULL
    cols = sorted(used)
    if dialect == "duckdb" and cols:
        inner = [quote_identifier(k) for k in keep if k not in used]
        for c in cols:
            q = quote_identifier(c)
            inner.append(f"CASE WHEN typeof({q}) IN ('FLOAT', 'DOUBLE') AND "
                         f"isnan(TRY_CAST({q} AS DOUBLE)) THEN NULL ELSE {q} END AS {q}")
        rows = ("(\n  SELECT " + ",\n         ".join(inner) + f"\n  FROM {source}\n) AS "
                f"{quote_identifier(_INPUT)}")
    else:
        rows = source
    kept = [quote_identifier(k) for k in keep]
    if kind == "boosting":
        return est._sql_query(parts, rows, kept, labels, quote_identifier(column), dialect)
    if body is not None:
        select = ",\n       ".join(kept + [f"{body} AS {quote_identifier(column)}"])
        return f"SELECT {select}\nFROM {rows}"
    # one-vs-rest: each class's score in an inner query, the largest class outside
    if kind == "dro":
        scores = [_vote_sql(e, dialect, "    ") for e in est.estimators_]
    else:
        scores = _rule_set_ovr_scores(est, dialect, "    ")
    names = [quote_identifier(_SCORE.format(k)) for k in range(len(scores))]
    inner = kept + [f"{s} AS {n}" for s, n in zip(scores, names)]
    pick = _argmax_sql(names, labels, ind)
    outer = ",\n       ".join(kept + [f"{pick} AS {quote_identifier(column)}"])
    return (f"SELECT {outer}\nFROM (\n  SELECT " + ",\n    ".join(inner)
            + f"\n  FROM {rows}\n) AS {quote_identifier(_SCORES)}")
