"""A fitted rule model as a table: ``rules_table(X=None, y=None)`` and ``_repr_html_``.

Every rule model of :mod:`optirules.learners` (the rule set, the DRO ensemble, the
decision list, boosting, their cross-validated forms and their one-vs-rest fits) answers
``rules_table`` with a :class:`pandas.DataFrame` of one row per rule and these columns:

``class``
    The class the rule speaks for: the rule set's and the DRO ensemble's ``classes_[1]``
    (one-vs-rest: the class of the block), a decision-list entry's predicted class, the
    class a boosting hypothesis votes for where its condition holds.  A rule
    set with ``target_class`` speaks for that class; a CNF rule set (``form="cnf"``) has
    a row per clause, which speaks for the other class where it fails
    (:func:`rule_set_table`).
``rule``
    The rule's text as ``to_text`` writes it.
``n_literals``
    Its number of conditions (literals, attribute tests).
``support``
    The rows the rule covers (for a decision-list entry: the rows it classifies, those
    it covers that no earlier entry covers; for the default entry, the rows no entry
    covers).
``precision``
    The share of those rows that are of ``class`` (NaN when the rule covers none).
``recall``
    The share of the rows of ``class`` that the rule covers (NaN without such rows).

The DRO ensemble adds ``member`` (the member's number ``k``: ``members_[k - 1]``, numbered
as ``print``, ``explain`` and the plots number it) and ``weight`` (its weight
``weights_[k - 1]``) before ``rule``, and has no row for a member of weight 0; boosting
adds ``vote`` (a distinct hypothesis' net vote) before ``rule``, one row per line of its
text (:func:`boosting_table`); the rule set adds ``score`` after
``recall``: the smoothed training precision its ``predict_proba`` uses
(:mod:`optirules.learners._scores`).

Without ``X`` and ``y`` the statistics are those of the training rows, from what the model
stored: the rule set's ``rule_support_`` and ``rule_precision_`` (weighted by
``sample_weight`` when the fit had one; its ``recall`` needs the fit's own data and is NaN
on a model loaded from JSON), the decision list's class counts per entry, the DRO
ensemble's training rows (a fitted ensemble; one loaded from JSON or chosen on an inner
split without refit stores none, and then asks for ``X`` and ``y``); boosting keeps no
training rows, and its statistics without ``X`` and ``y`` are NaN.  With ``X`` and
``y``: plain row counts on that data, ``X`` checked as ``predict`` checks it and ``y``
holding one of ``classes_`` per row.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError, NotFittedError
from ._checks import check_fitted, model_kind
from ._json import json_scalar

__all__ = ["TABLE_COLUMNS", "rule_set_table", "dro_table", "boosting_table",
           "decision_list_table", "cv_table", "rules_html", "rules_mimebundle", "known_labels"]

#: the columns every ``rules_table`` has, in this order (learners insert their own)
TABLE_COLUMNS = ("class", "rule", "n_literals", "support", "precision", "recall")


# ---------------------------------------------------------------------- helpers
def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    out = np.full(np.broadcast(num, den).shape, np.nan)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _stats(covered: np.ndarray, hit: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Support, precision and recall of each column of the boolean ``covered`` matrix
    ``(n_rows, n_rules)`` against the boolean ``hit`` (rows of the rule's class), or of
    a matrix ``hit`` of the same shape (one class per rule)."""
    covered = np.asarray(covered, dtype=bool)
    hit = np.asarray(hit, dtype=bool)
    if hit.ndim == 1:
        hit = np.repeat(hit[:, None], covered.shape[1], axis=1)
    support = covered.sum(axis=0).astype(float)
    right = (covered & hit).sum(axis=0).astype(float)
    return support, _ratio(right, support), _ratio(right, hit.sum(axis=0))


def _check_pair(X: Any, y: Any) -> bool:
    """Whether statistics are asked on given data (both ``X`` and ``y``), else stored ones."""
    if X is None and y is None:
        return False
    if X is None or y is None:
        raise InputError("rules_table takes both X and y (the rules' statistics on that data) "
                         "or neither (the training statistics); got only "
                         f"{'y' if X is None else 'X'}.")
    return True


def known_labels(y: Any, classes: np.ndarray, n: int) -> np.ndarray:
    """``y`` as a 1-D array of ``n`` labels, each one of ``classes`` (of their type: ``"1"``
    is not ``1``); refused with a message otherwise."""
    try:
        arr = np.asarray(y)
    except (TypeError, ValueError) as exc:
        raise InputError(f"y could not be read as labels: {exc}") from None
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr.ravel()
    if arr.ndim != 1:
        raise InputError(f"y must be 1-D (one label per row), got shape {arr.shape}.")
    if arr.shape[0] != n:
        raise InputError(f"y has {arr.shape[0]} labels but X has {n} rows; pass one label per "
                         "row of X.")
    known = {json_scalar(c) for c in classes}
    unknown = []
    for v in pd.unique(pd.Series(arr, dtype=object)):
        try:
            ok = json_scalar(v) in known
        except TypeError:  # unhashable
            ok = False
        if not ok:
            unknown.append(v)
    if unknown:
        shown = ", ".join(repr(json_scalar(v)) if not isinstance(v, (list, dict)) else repr(v)
                          for v in unknown[:5])
        raise InputError(f"y holds labels the model does not know ({shown}); its classes are "
                         f"{[json_scalar(c) for c in classes]}. Pass labels of those classes, "
                         "of their type.")
    return arr


def _is_class(y: np.ndarray, label: Any) -> np.ndarray:
    target = json_scalar(label)
    return np.fromiter((json_scalar(v) == target for v in y), dtype=bool, count=len(y))


def _frame(columns: dict[str, Any], front: tuple[str, ...] = TABLE_COLUMNS) -> pd.DataFrame:
    frame = pd.DataFrame(columns)
    lead = ("member", "weight", "vote")
    order = [c for c in ("class", *lead) if c in frame] + \
        [c for c in front[1:] if c in frame] + \
        [c for c in frame if c not in front and c not in lead]
    frame = frame[order]
    frame["n_literals"] = frame["n_literals"].astype(int)
    for c in ("support", "precision", "recall"):
        frame[c] = frame[c].astype(float)
    return frame


def _one_vs_rest(model: Any, X: Any, y: Any, require: bool,
                 table: Callable[..., pd.DataFrame]) -> pd.DataFrame:
    """One block per class: the table of ``estimators_[k]`` (its class 1 is
    ``classes_[k]``), its ``class`` column set to ``classes_[k]``."""
    given = _check_pair(X, y)
    if given:
        from ._checks import n_rows

        y = known_labels(y, model.classes_, n_rows(X))
    blocks = []
    for c, est in zip(model.classes_, model.estimators_):
        yk = _is_class(y, c).astype(np.int64) if given else None
        block = table(est, X if given else None, yk, require=require)
        block["class"] = json_scalar(c)
        blocks.append(block)
    return pd.concat(blocks, ignore_index=True)


# ---------------------------------------------------------------------- rule set
def rule_set_table(model: Any, X: Any = None, y: Any = None, *,
                   require: bool = True) -> pd.DataFrame:
    """The table of a :class:`~optirules.learners.BooleanRuleSetClassifier`.

    ``require=False`` (the HTML view) gives NaN where the model stores nothing instead of
    raising.  The rows are the rules of the DNF the master learnt and ``class`` its class
    (``target_class_``; ``classes_[1]`` by default).  A CNF (``form="cnf"``) has one row per
    clause, read as the rule "the clause fails", which predicts the other class: ``class``
    is that other class (one-vs-rest: ``not <class>``), ``support`` the rows where the
    clause fails, ``precision`` the share of those of ``class``, ``recall`` the share of
    the rows of ``class`` where the clause fails.
    """
    if getattr(model, "_is_one_vs_rest", lambda: False)():
        table = _one_vs_rest(model, X, y, require, rule_set_table)
        if any(getattr(e.rules_, "form", "dnf") == "cnf" for e in model.estimators_):
            # a CNF block's rows speak for the rest, not for the block's class
            from ._explain import label_text

            sizes = [e.rules_.n_rules for e in model.estimators_]
            table["class"] = [f"not {label_text(c)}" for c, n in zip(model.classes_, sizes)
                              for _ in range(n)]
        return table
    check_fitted(model, "rules_")
    rules = model.rules_.rules
    cnf = getattr(model.rules_, "form", "dnf") == "cnf"
    # the class of the master's DNF: where a rule fires (a CNF: where a clause fails)
    label = json_scalar(model.classes_[getattr(model, "_dnf_index", lambda: 1)()])
    out: dict[str, Any] = {
        "class": [label] * len(rules),
        "rule": [str(r) for r in rules],
        "n_literals": [len(r) for r in rules],
    }
    stored = "rule_support_" in vars(model)
    if _check_pair(X, y):
        fired = model.decision_rules(X)
        if cnf:  # the rows where each clause fails
            fired = ~fired
        yy = known_labels(y, model.classes_, fired.shape[0])
        out["support"], out["precision"], out["recall"] = _stats(fired, _is_class(yy, label))
    elif stored:
        out["support"] = np.asarray(model.rule_support_, dtype=float)
        out["precision"] = np.asarray(model.rule_precision_, dtype=float)
        out["recall"] = _rule_set_training_recall(model)
    elif require:
        raise InputError("this rule set was saved without its training statistics (an older "
                         "to_json); pass X and y to compute the table on data.")
    else:
        out["support"] = out["precision"] = out["recall"] = np.full(len(rules), np.nan)
    if stored:
        from ._scores import smoothed_share

        out["score"] = np.asarray(smoothed_share(
            model.rule_precision_ * model.rule_support_, model.rule_support_,
            model.class_prior_), dtype=float).reshape(-1)
    else:
        out["score"] = np.full(len(rules), np.nan)
    return _frame(out)


def _rule_set_training_recall(model: Any) -> np.ndarray:
    """The weighted share of the training rows of ``classes_[1]`` each rule covers, from
    the fit's literal matrix (NaN on a model loaded from JSON, which does not hold it)."""
    n = len(model.rules_.rules)
    train = getattr(model, "_train", None)
    if train is None or not n:
        return np.full(n, np.nan)
    from ..models import clause_coverage

    A, yk, P = train
    covered = clause_coverage(A, model.clauses_)
    yk = np.asarray(yk, dtype=bool)
    P = np.asarray(P, dtype=float)
    right = np.array([P[covered[:, m] & yk].sum() for m in range(n)])
    return _ratio(right, np.full(n, P[yk].sum()))


# ---------------------------------------------------------------------- DRO ensemble
def dro_table(model: Any, X: Any = None, y: Any = None, *,
              require: bool = True) -> pd.DataFrame:
    """The table of a :class:`~optirules.learners.DRORuleEnsembleClassifier`: one row per
    rule of every member with a positive weight (a member without rules: one row
    ``FALSE``), members in the order of ``members_``, ``member`` ``k`` for
    ``members_[k - 1]``."""
    if getattr(model, "_is_one_vs_rest", lambda: False)():
        return _one_vs_rest(model, X, y, require, dro_table)
    check_fitted(model, "weights_")
    label = json_scalar(model.classes_[1])
    used = [int(k) for k in np.flatnonzero(model.weights_)]
    member, weight, text, n_lit, where = [], [], [], [], []
    for k in used:
        rules = model.members_[k].rules
        for m, r in enumerate(rules):
            member.append(k + 1)
            weight.append(float(model.weights_[k]))
            text.append(str(r))
            n_lit.append(len(r))
            where.append((k, m))
        if not rules:
            member.append(k + 1)
            weight.append(float(model.weights_[k]))
            text.append("FALSE")
            n_lit.append(0)
            where.append((k, None))
    out: dict[str, Any] = {"class": [label] * len(text), "member": member, "weight": weight,
                           "rule": text, "n_literals": n_lit}
    if _check_pair(X, y):
        covered = _dro_coverage(model, X, where)
        yy = known_labels(y, model.classes_, covered.shape[0])
        hit = _is_class(yy, label)
    else:
        train = _dro_training_rows(model)
        if train is None:
            if require:
                raise InputError(
                    "this DRO ensemble holds no training rows to compute the rules' "
                    "statistics on (it was loaded from JSON, or chosen on an inner split "
                    "without refit); pass X and y, e.g. rules_table(X_train, y_train).")
            nan = np.full(len(text), np.nan)
            out["support"] = out["precision"] = out["recall"] = nan
            return _frame(out)
        A, hit = train
        covered = _clause_columns(A, model.member_clauses_, where)
    out["support"], out["precision"], out["recall"] = _stats(covered, hit)
    return _frame(out)


def _clause_columns(A: np.ndarray, member_clauses: list, where: list) -> np.ndarray:
    from ..models import clause_coverage

    cols = [np.zeros(A.shape[0], bool) if m is None
            else clause_coverage(A, [member_clauses[k][m]])[:, 0] for k, m in where]
    return np.column_stack(cols) if cols else np.zeros((A.shape[0], 0), bool)


def _dro_coverage(model: Any, X: Any, where: list) -> np.ndarray:
    """Which rows of ``X`` each ``(member, rule)`` covers, ``X`` checked as by predict."""
    model.decision_function(X)  # checks X as prediction does
    if not model._restored:
        return _clause_columns(model._literal_matrix(X, reset=False), model.member_clauses_,
                               where)
    from ._checks import n_rows

    n = n_rows(X)
    cols = [np.zeros(n, bool) if m is None else model.members_[k].rules[m].evaluate(X)
            for k, m in where]
    return np.column_stack(cols) if cols else np.zeros((n, 0), bool)


def _dro_training_rows(model: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """The literal matrix and the boolean labels of the ensemble's training rows, when it
    holds them: those the ensemble was fitted on, all of the fit's rows (the rows its
    vote-level scores count)."""
    train = getattr(model, "_train", None)
    if train is None:
        return None
    A, yk = train[0], np.asarray(train[1]).astype(bool)
    total = getattr(model, "vote_level_support_", None)
    if total is not None and not math.isclose(float(np.sum(total)), float(len(yk)),
                                              rel_tol=1e-9, abs_tol=1e-6):
        return None  # the chosen ensemble was fitted on an inner split only
    return A, yk


# ---------------------------------------------------------------------- boosting
def boosting_table(model: Any, X: Any = None, y: Any = None, *,
                   require: bool = True) -> pd.DataFrame:
    """The table of a :class:`~optirules.learners.BoostingClassifier`: one row per line of
    its text (a distinct hypothesis, with a hypothesis and its negation as one), largest
    vote first, with ``vote`` (its net vote) before ``rule``.  ``class`` is the class the
    hypothesis votes for where the condition of its text holds (``x > t -> +1 else -1``:
    ``classes_[1]``; ``c == a -> -1 else +1``, ``always -1``: ``classes_[0]``), and
    ``support``, ``precision`` and ``recall`` count the rows where it does.  The booster
    keeps no training rows: without ``X`` and ``y`` the statistics are NaN."""
    if getattr(model, "_is_one_vs_rest", lambda: False)():
        return _one_vs_rest(model, X, y, require, boosting_table)
    check_fitted(model, "hypotheses_")
    from ._boosting._text import condition_side

    votes = model._votes()
    literal_names = model.binarizer_ is not None and model.feature_names_ is not None
    sides = [condition_side(h, literal_names) for _, _, _, h in votes]
    labels = [json_scalar(model.classes_[1 if s > 0 else 0]) for s in sides]
    out: dict[str, Any] = {
        "class": labels, "vote": [float(v) for v, _, _, _ in votes],
        "rule": [text for _, text, _, _ in votes],
        "n_literals": [_n_tests(h) for _, _, _, h in votes],
    }
    if _check_pair(X, y):
        Xb = model._raw_scores(X)
        yy = known_labels(y, model.classes_, Xb.shape[0])
        covered = np.zeros((Xb.shape[0], len(votes)), dtype=bool)
        for j, ((_, _, _, h), s) in enumerate(zip(votes, sides)):
            covered[:, j] = np.asarray(h.predict(Xb)) == s
        hit = np.column_stack([_is_class(yy, c) for c in labels]) if labels else covered
        out["support"], out["precision"], out["recall"] = _stats(covered, hit)
    else:
        out["support"] = out["precision"] = out["recall"] = np.full(len(votes), np.nan)
    return _frame(out)


def _n_tests(h: Any) -> int:
    """The conditions a weak hypothesis tests: a tree's inner nodes, else its columns."""
    if getattr(h, "kind", "") == "tree":
        return int(np.sum(np.asarray(h.children_left) >= 0))
    return int(np.asarray(h.columns()).size)


# ---------------------------------------------------------------------- decision list
def decision_list_table(model: Any, X: Any = None, y: Any = None, *,
                        require: bool = True) -> pd.DataFrame:
    """The table of a :class:`~optirules.learners.DecisionListClassifier`: one row per
    entry in list order, then the default entry (``DEFAULT <class>``, no literals).
    Without data the support is the entries' stored training class counts: weight sums
    (weighted support) for a list fitted with row weights."""
    check_fitted(model, "rules_")
    rules = list(model.rules_)
    classes = model.classes_
    labels = [json_scalar(r.prediction) for r in rules] + [json_scalar(model.default_class_)]
    out: dict[str, Any] = {
        "class": labels,
        "rule": [str(r) for r in rules] + [f"DEFAULT {model.default_class_}"],
        "n_literals": [len(r.conditions) for r in rules] + [0],
    }
    if _check_pair(X, y):
        model._check_params()
        cols, _, _ = model._validate(X, reset=False)
        codes, _ = model._encode(cols)
        yy = known_labels(y, classes, codes.shape[0])
        open_rows = np.ones(codes.shape[0], dtype=bool)
        covered = []
        for r in rules:
            hit = open_rows & r.evaluate(codes)
            covered.append(hit)
            open_rows &= ~hit
        covered.append(open_rows)
        covered = np.column_stack(covered)
        hit = np.column_stack([_is_class(yy, c) for c in labels])
        out["support"], out["precision"], out["recall"] = _stats(covered, hit)
        return _frame(out)
    k = classes.size
    counts = np.array([r.class_counts for r in rules], dtype=float).reshape(len(rules), k)
    default = np.asarray(model.default_counts_, dtype=float)
    if not _default_covers_rows(model, counts, default):
        default = np.zeros(k)
    counts = np.vstack([counts, default])
    totals = counts.sum(axis=0)
    idx = np.array([int(np.flatnonzero(classes == r.prediction)[0]) for r in rules]
                   + [int(np.flatnonzero(classes == model.default_class_)[0])], dtype=int)
    right = counts[np.arange(len(idx)), idx]
    support = counts.sum(axis=1)
    out["support"] = support
    out["precision"] = _ratio(right, support)
    out["recall"] = _ratio(right, totals[idx])
    return _frame(out)


def _default_covers_rows(model: Any, counts: np.ndarray, default: np.ndarray) -> bool:
    """Whether training rows were left to the default entry (its ``default_counts_`` are
    then theirs; else they are the counts of all training rows)."""
    stop = getattr(model, "stop_reason_", "")
    if stop:
        return stop != "all_covered"
    if getattr(model, "training_rows_", "") == "all":
        return bool(np.asarray(model.uncovered_rows_).size)
    return not (counts.shape[0] and np.array_equal(counts.sum(axis=0), default))


# ---------------------------------------------------------------------- CV learners
def cv_table(model: Any, X: Any = None, y: Any = None, *,
             require: bool = True) -> pd.DataFrame:
    """The table of a cross-validated learner: that of its ``best_estimator_``."""
    check_fitted(model, "best_estimator_")
    inner = model.best_estimator_
    table = decision_list_table if model_kind(inner) == "decision_list" else rule_set_table
    return table(inner, X, y, require=require)


# ---------------------------------------------------------------------- HTML
def _number(value: float, digits: int) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if digits == 0:
        # an effective (weighted) count that is a whole number up to round-off reads as one
        return f"{value:.0f}" if abs(value - round(value)) < 1e-9 else f"{value:.1f}"
    return f"{value:.{digits}f}"


def _header(model: Any, table: pd.DataFrame) -> str:
    name = type(model).__name__
    inner = getattr(model, "best_estimator_", None)
    if inner is not None and inner is not model:
        return f"{name} (chosen: {_header(inner, table)})"
    classes = getattr(model, "classes_", ())
    if getattr(model, "_is_one_vs_rest", lambda: False)():
        what = f"one-vs-rest over {len(classes)} classes, {len(table)} rules"
    elif model_kind(model) == "decision_list":
        what = (f"{len(table) - 1} rules then DEFAULT {json_scalar(model.default_class_)} "
                f"({len(classes)} classes)")
    elif model_kind(model) == "boosting":
        what = (f"{model.booster}, predicts {json_scalar(classes[1])!r} where the sum of the "
                f"votes is positive; {len(table)} distinct hypotheses")
    elif model_kind(model) == "dro":
        n_used = int(np.count_nonzero(model.weights_))
        n_all = len(model.weights_)
        members = (f"{n_used} members" if n_used == n_all else
                   f"{n_used} of {n_all} members (those of weight 0 not shown)")
        what = (f"class {json_scalar(classes[1])!r}: {members}, {len(table)} rules, "
                "predicts it where the weighted vote is at least 1/2")
    else:
        target = json_scalar(getattr(model, "target_class_", classes[1]))
        if getattr(getattr(model, "rules_", None), "form", "dnf") == "cnf":
            what = (f"class {target!r}: {len(table)} clauses, predicts it where every clause "
                    "holds (a row per clause, its statistics where it fails)")
        else:
            what = f"class {target!r}: {len(table)} rules, predicts it where any holds"
    gap = getattr(model, "gap_", None)
    if getattr(model, "gap_certified_", False) and gap is not None and not math.isnan(gap):
        what += f"; certified gap {gap:.2%}"
    return f"{name}: {what}"


def rules_html(model: Any, table: Callable[[], pd.DataFrame]) -> str:
    """``_repr_html_`` of a rule model: a header line and the rules with their training
    support and precision (``table()``: the model's table, NaN where it stores none), or
    scikit-learn's estimator diagram while the model is not fitted."""
    try:
        frame = table()
    except NotFittedError:
        from sklearn.utils import estimator_html_repr

        return estimator_html_repr(model)
    show = [c for c in ("class", "member", "weight", "vote", "rule", "support", "precision")
            if c in frame]
    head = "".join(f"<th>{html.escape(c)}</th>" for c in show)
    body = []
    for _, row in frame.iterrows():
        cells = []
        for c in show:
            v = row[c]
            if c == "support":
                text = _number(float(v), 0)
            elif c == "vote":
                text = f"{float(v):+.4f}"
            elif c in ("precision", "weight"):
                text = _number(float(v), 3 if c == "precision" else 4)
            else:
                text = str(v)
            align = ' style="text-align:left"' if c == "rule" else ""
            cells.append(f"<td{align}>{html.escape(text)}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    note = ("no training statistics stored: rules_table(X, y) counts them on data"
            if len(frame) and frame["support"].isna().all()
            else "support and precision on the training rows")
    return ('<div class="optirules-rules">'
            f"<p><b>{html.escape(_header(model, frame))}</b></p>"
            '<table style="font-size:smaller">'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
            f"<p><small>{note}</small></p></div>")


def rules_mimebundle(model: Any, bundle: dict[str, Any]) -> dict[str, Any]:
    """scikit-learn's mime bundle ``bundle`` of ``model`` with its ``text/html`` (present
    when scikit-learn's ``display`` is ``"diagram"``) replaced by the rules table once the
    model is fitted: Jupyter reads this bundle before ``_repr_html_``."""
    if "text/html" in bundle:
        bundle = dict(bundle)
        bundle["text/html"] = model._repr_html_()
    return bundle
