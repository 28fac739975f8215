"""Fitting the rule set: the input checked and the problem built once
(:func:`prepare_fit`), column generation, the fitted attributes (:func:`finish_fit`), and
the path of penalties from one column generation (:func:`penalty_path`), for
:class:`~optirules.learners.BooleanRuleSetClassifier`, whose ``fit`` and ``penalty_path``
call them."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from sklearn.base import clone

from ...data import literal_conflicts
from ...errors import InputError
from ...models import (
    ColumnGenerationOptions,
    ColumnGenerationResult,
    RuleSetProblem,
    clause_coverage,
    resolve_max_degree,
    solve_penalty_path,
)
from .._checks import class_sample_weight, is_number, weighted_rows
from .._multiclass import multiclass_labels
from .._scores import pattern_table, unmet_counts
from ._input import _carried_pool

__all__ = ["DUAL_SMOOTHING", "finish_fit", "penalty_path", "prepare_fit"]

#: Wentges' smoothing weight of the exact pricing (``column_generation(smoothing=...)``):
#: prices at ``0.5 * best-bound duals + 0.5 * LP duals``
DUAL_SMOOTHING = 0.5


def prepare_fit(est: Any, X: Any, y: Any, sample_weight: Any, sensitive_features: Any,
                 t_fit: float) -> tuple | None:
    """Everything before column generation, checked in the order ``fit`` refuses bad
    input: ``(problem, options, initial clauses, training rows)``, or None after a
    one-vs-rest fit (more than two classes)."""
    est._check_params()
    groups = est._check_fairness(X, y, sensitive_features)
    if est.target_class is not None and multiclass_labels(y) is not None:
        raise InputError(
            f"target_class={est.target_class!r} names the class a two-class rule set "
            f"describes, but y has {len(multiclass_labels(y))} classes: the estimator fits "
            "one rule set per class against the rest, each describing its own class. "
            "Leave target_class=None (form applies to every class's rule set).")
    sample_weight = class_sample_weight(est.class_weight, y, sample_weight)
    if est._fit_one_vs_rest(X, y, sample_weight):  # K > 2 classes: K binary copies
        est.n_iter_ = np.array([e.n_iter_ for e in est.estimators_])
        return None
    X_fit, classes, ypos, P, keep = weighted_rows(X, y, sample_weight, "a rule set")
    target = est._target_index(classes, np.asarray(y).reshape(-1)[keep], P[keep])
    # the master learns a DNF of its label 1: the target (DNF) or the other class (CNF)
    d = target if est.form == "dnf" else 1 - target
    if d == 0:
        ypos = ~ypos
    # the user's weights, not the pmf: integer weights then give exactly the thresholds
    # of the repeated rows (the same floating-point sums)
    prev = ((list(est.literals_), list(est.pool_)) if est.warm_start
            and "pool_" in vars(est) and not est._restored else None)
    est._check_forbidden(X_fit)
    total = float(keep.sum()) if sample_weight is None else \
        float(np.asarray(sample_weight, dtype=float).reshape(-1)[keep].sum())
    est.lambda0_, est.lambda1_ = est._penalties(total)
    A = est._literal_matrix(X_fit, reset=True, sample_weight=None if sample_weight is None
                             else np.asarray(sample_weight, dtype=float).reshape(-1)[keep])
    A = est._forbid(A)
    initial = _carried_pool(prev, est.literals_)
    yk, Pk = ypos[keep], P[keep] / P[keep].sum()
    fair = est._fairness_arguments(groups, keep, d == target)
    est.classes_ = classes
    est.target_class_ = classes[target]
    est.max_degree_ = resolve_max_degree(est.max_degree, A.shape)
    problem = RuleSetProblem(
        A, yk, Pk, complexity=None if est.complexity is None else float(est.complexity),
        lambda0=est.lambda0_, lambda1=est.lambda1_, max_degree=est.max_degree_,
        max_rules=est.max_rules, max_literals=est.max_literals,
        literal_costs=est._literal_costs(), required=est._required_groups() or (),
        conflicts=literal_conflicts(est.literals_), **fair)
    options = ColumnGenerationOptions(
        pricing=est.pricing, exact_method=est.exact_method,
        beam_width=int(est.beam_width), n_columns=int(est.n_columns),
        max_iter=int(est.max_iter), tol=float(est.tol), smoothing=DUAL_SMOOTHING,
        time_limit=None if est.time_limit is None else max(
            0.0, float(est.time_limit) - (time.perf_counter() - t_fit)),
        pricing_time_limit=est.pricing_time_limit, solver=est.solver,
        mip_gap=float(est.mip_gap), random_seed=est._seed(), backend=est.backend,
        master_ip="auto")
    return problem, options, initial, (A, yk, Pk, total, fair)

def finish_fit(est: Any, res: ColumnGenerationResult, train: tuple) -> None:
    """The fitted attributes from a column-generation result and the training rows."""
    A, yk, Pk, total, fair = train
    est._set_result(res)
    est._train = (A, yk, Pk)
    covered = clause_coverage(A, est.clauses_)
    est._set_scores(covered, yk, Pk, total)
    # the probabilities: the rows' patterns (rules fired, or literals missed per rule)
    est.pattern_scores_, est.side_scores_, est.score_strengths_ = pattern_table(
        unmet_counts(A, est.clauses_), yk, Pk * (total / Pk.sum()))
    if fair:
        est.fairness_gap_ = est._training_gap(covered, yk, Pk, fair)
    else:
        est.__dict__.pop("fairness_gap_", None)


def penalty_path(est: Any, X: Any, y: Any, penalties: Any, sample_weight: Any = None,
                 sensitive_features: Any = None) -> list:
    """Fitted copies of ``est``, one per penalty of ``penalties``, from one column
    generation (``BooleanRuleSetClassifier.penalty_path``)."""
    pairs = []
    for item in penalties if not isinstance(penalties, str) else [penalties]:
        pair = (item, item) if np.ndim(item) == 0 else tuple(item)
        if len(pair) != 2 or not all(is_number(v) and float(v) >= 0 for v in pair):
            raise InputError(f"penalties must be numbers >= 0 or (lambda0, lambda1) pairs "
                             f"of them; got {item!r}.")
        pairs.append((float(pair[0]), float(pair[1])))
    if not pairs:
        raise InputError("penalties must hold at least one penalty.")
    if multiclass_labels(y) is not None:
        raise InputError("penalty_path fits two-class rule sets; with more classes fit "
                         "each penalty (a one-vs-rest model) with fit.")
    t_fit = time.perf_counter()
    first = clone(est).set_params(lambda0=pairs[0][0], lambda1=pairs[0][1])
    problem, options, initial, train = first._prepare_fit(X, y, sample_weight,
                                                          sensitive_features, t_fit)
    results = solve_penalty_path(problem, pairs, options, initial_clauses=initial)
    shared = {k: v for k, v in first.__dict__.items() if k.endswith("_")}
    out = []
    for (l0, l1), res in zip(pairs, results):
        point = clone(est).set_params(lambda0=l0, lambda1=l1)
        point.__dict__.update(shared)
        point.lambda0_, point.lambda1_ = l0, l1
        point._finish_fit(res, train)
        out.append(point)
    return out

