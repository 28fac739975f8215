"""The master of a fitted :class:`~optirules.learners.BooleanRuleSetClassifier` written as
an ``.lp`` or ``.mps`` file (:meth:`~optirules.learners.BooleanRuleSetClassifier.export_model`):
over the generated clauses of this session's fit, or over the rules' clauses of a model
restored from JSON.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import InputError
from .._checks import class_sample_weight, n_rows, normalized_weights

__all__ = ["export_master"]


def export_master(est: Any, path: str | os.PathLike, *, X: Any = None, y: Any = None,
                  sample_weight: Any = None, iterations: bool = False,
                  relax: bool = False) -> list[Path]:
    """Write the master of the binary rule set ``est`` to ``path`` (and with ``iterations``
    each iteration's restricted LP beside it); the files written."""
    est._refuse_one_vs_rest("export_model")
    from ...models import RuleMasterModel, RuleSetProblem

    est._check_fitted()
    path = Path(path)
    if path.suffix.lower() not in (".lp", ".mps"):
        raise InputError(f"cannot write {str(path)!r}: use a .lp or .mps suffix.")
    if (X is None) != (y is None):
        raise InputError("export_model takes X and y together (the training data).")
    if X is not None:  # the weights of fit: sample_weight times the class weights
        sample_weight = class_sample_weight(est.class_weight, y, sample_weight)
    restored = est._restored
    if X is None and restored:
        raise InputError("export_model needs the training data to build the master: this "
                         "model was restored from JSON, which keeps the rules only. Pass "
                         "export_model(path, X=X_train, y=y_train).")
    if iterations and restored:
        raise InputError("iterations=True needs the fit of this session (its history); "
                         "a model restored from JSON has none.")
    if X is None:
        A, yk, P = est._train
        pool = est.pool_
        names = [" AND ".join(str(est.literals_[j]) for j in c) for c in pool]
    else:
        A, yk, P, pool, names = _export_data(est, X, y, sample_weight, restored)
    l0, l1 = (est.lambda0_, est.lambda1_) if "lambda0_" in vars(est) else \
        est._penalties(float(len(yk)) if sample_weight is None else
                       float(np.sum(sample_weight)))
    problem = RuleSetProblem(A, yk, P, lambda0=l0, lambda1=l1,
                             complexity=None if est.complexity is None else
                             float(est.complexity),
                             max_rules=getattr(est, "max_rules", None),
                             max_literals=getattr(est, "max_literals", None),
                             literal_costs=est._literal_costs() if X is None else None)
    written = []
    RuleMasterModel.from_problem(problem, pool, relax=relax, clause_names=names).write(path)
    written.append(path)
    if iterations:
        for rec in est.history_:
            t = rec["iteration"]
            n_cols = rec["pool_size"] - rec["columns_added"]
            p = path.with_name(f"{path.stem}_iter{t}{path.suffix}")
            RuleMasterModel.from_problem(problem, pool[:n_cols], relax=True,
                                         clause_names=names[:n_cols]).write(p)
            written.append(p)
    return written


def _export_data(est: Any, X: Any, y: Any, sample_weight: Any, restored: bool):
    """Literal matrix, labels, pmf, clauses and clause names for :func:`export_master`."""
    n = n_rows(X)
    y = np.asarray(y).reshape(-1)
    if y.shape[0] != n:
        raise InputError(f"X has {n} rows but y has {y.shape[0]} labels.")
    known = np.isin(y, est.classes_)
    if not known.all():
        raise InputError(f"y holds the label {y[~known][0]!r}, which is not among the "
                         f"classes the model was fitted on {list(est.classes_)}.")
    yk = y == est.classes_[est._dnf_index()]
    P = normalized_weights(sample_weight, n)
    if not restored:
        A = est._literal_matrix(X, reset=False)
        pool = est.pool_
        names = [" AND ".join(str(est.literals_[j]) for j in c) for c in pool]
        return A, yk, P, pool, names
    # from JSON: the literals are the rules' conditions, the pool the rules' clauses
    est._rules_fired_from_json(X)  # checks the columns
    conds: list[Any] = []
    for rule in est.rules_.rules:
        for c in rule.conditions:
            if c not in conds:
                conds.append(c)
    if not conds:
        raise InputError("the rule set is empty, so its master has no column to write.")
    cnf = est.rules_.form == "cnf"
    # a CNF's master column is NOT clause: the AND of the negated conditions
    A = np.column_stack([np.asarray(c.evaluate(X), dtype=bool) != cnf for c in conds])
    pool = [tuple(sorted(conds.index(c) for c in rule.conditions))
            for rule in est.rules_.rules]
    names = [f"NOT ({rule})" if cnf else str(rule) for rule in est.rules_.rules]
    return A, yk, P, pool, names
