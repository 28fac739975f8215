"""Fitting a rule set on rows held by ``dask.distributed`` workers: ``fit`` on a dask array
or dask DataFrame (:func:`fit_distributed`).

The rows never come to this process.  The binarizer's thresholds are fitted on a bounded
sample of rows (at most :data:`BINARIZER_SAMPLE_ROWS`, every ``s``-th row of each
partition) brought here; each partition is then binarized on its worker and kept there with
its labels, and column generation runs with the master on the driver and pricing on the
workers (:func:`~optirules.models.distributed_column_generation`).  The fitted scores
(rule precision and support, the pattern scores of ``predict_proba``) are computed from the
rows grouped on the workers by their pattern of unmet literals.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np

from ...data import literal_conflicts
from ...errors import InputError
from ...models import (
    ColumnGenerationOptions,
    DistributedRows,
    distributed_column_generation,
    resolve_max_degree,
)
from .._scores import pattern_table

__all__ = ["BINARIZER_SAMPLE_ROWS", "fit_distributed", "is_dask_collection"]

#: the binarizer of a fit on a dask collection is fitted on at most this many rows
BINARIZER_SAMPLE_ROWS = 100_000

#: the fitted attributes a worker's copy of the estimator needs to binarize a partition
_TRANSFORM_ATTRS = ("binarizer_", "n_features_in_", "feature_names_in_", "literals_",
                    "input_summary_")


def is_dask_collection(x: Any) -> bool:
    """Whether ``x`` is a dask collection (array, DataFrame, Series), without importing
    dask."""
    return callable(getattr(type(x), "__dask_graph__", None))


def _client(backend: Any) -> Any:
    if backend is not None and not isinstance(backend, str):
        return backend  # a Client (the parameter constraints checked it)
    try:
        from distributed import get_client
    except ImportError:
        raise InputError("fit on a dask collection needs the distributed package (pip install "
                         "'dask[distributed]').") from None
    try:
        return get_client()
    except ValueError:
        raise InputError("fit on a dask collection keeps the rows on the workers of the "
                         "current dask.distributed Client, and there is none; start one "
                         "first, e.g. Client(LocalCluster(n_workers=2)), or pass it as "
                         "backend=client.") from None


def _refuse(est: Any, y: Any, sample_weight: Any, sensitive_features: Any) -> None:
    """What a fit on a dask collection does not take, refused before any work."""
    unsupported = {
        "sample_weight": sample_weight is not None,
        "sensitive_features (fairness)": sensitive_features is not None
        or est.fairness is not None,
        "class_weight": est.class_weight is not None,
        "warm_start": bool(est.warm_start),
        "max_rules / max_literals": (est.max_rules, est.max_literals) != (None, None),
        "feature_costs": bool(est.feature_costs),
        "required_features": est.required_features is not None,
        "forbidden_features": est.forbidden_features is not None,
    }
    named = [k for k, v in unsupported.items() if v]
    if named:
        raise InputError(f"fit on a dask collection does not take {', '.join(named)}; fit "
                         "an in-memory sample (X.compute()) for those, or leave them out.")
    if est.pricing == "beam":
        raise InputError("pricing='beam' needs every row in one process; with the rows on "
                         "the workers pricing is exact enumeration: use pricing='exact' "
                         "(or 'auto').")
    if est.exact_method == "milp" or (est.max_degree != "auto" and int(est.max_degree) > 3):
        raise InputError("with the rows on the workers exact pricing is the enumeration of "
                         "clauses of at most 3 literals; use max_degree <= 3 (or 'auto') and "
                         "exact_method='auto' or 'enumerate'.")
    if not is_dask_collection(y):
        raise InputError("X is a dask collection but y is not; give y as a dask array or "
                         "Series with the same partitions of rows (e.g. a column of the same "
                         "dask DataFrame).")


def _partitions(X: Any, y: Any) -> tuple[list[Any], list[Any]]:
    """The delayed partitions of rows of ``X`` and ``y``, one pair per partition."""
    import dask.array as da  # installed: X is a dask collection

    if isinstance(X, da.Array):
        if X.ndim != 2:
            raise InputError(f"X must be 2-D (rows x features), got {X.ndim} dimensions.")
        if any(math.isnan(c) for c in X.chunks[0]):
            raise InputError("X has partitions of unknown size (chunks with NaN); call "
                             "X.compute_chunk_sizes() first.")
        X = X.rechunk({1: -1})
        xs = list(X.to_delayed().ravel())
        if isinstance(y, da.Array):
            if y.ndim != 1:
                raise InputError(f"y must be 1-D, got {y.ndim} dimensions.")
            if any(math.isnan(c) for c in y.chunks[0]):
                raise InputError("y has partitions of unknown size (chunks with NaN); call "
                                 "y.compute_chunk_sizes() first.")
            if y.shape[0] != X.shape[0]:
                raise InputError(f"X has {X.shape[0]} rows and y {y.shape[0]} labels.")
            y = y.rechunk((X.chunks[0],))
        ys = list(np.ravel(y.to_delayed()))
    else:  # dask DataFrame (pandas partitions)
        xs = list(X.to_delayed())
        ys = list(np.ravel(y.to_delayed()))
    if len(xs) != len(ys):
        raise InputError(f"X has {len(xs)} partitions and y {len(ys)}; give them the same "
                         "partitions of rows (e.g. y a column of the same DataFrame).")
    return xs, ys


def _n_rows(part: Any) -> int:
    return int(part.shape[0])


def _label_counts(part: Any) -> tuple[np.ndarray, np.ndarray]:
    values, counts = np.unique(np.asarray(part).reshape(-1), return_counts=True)
    return values, counts


def _sample(part: Any, step: int) -> Any:
    rows = getattr(part, "iloc", None)  # a pandas partition, or an array
    return rows[::step] if rows is not None else np.asarray(part)[::step]


def _literal_part(est: Any, X: Any, y: Any, positive: Any) -> tuple[np.ndarray, np.ndarray]:
    """A partition binarized on its worker (as ``predict`` binarizes rows) and its labels
    (True: the class of the master's label 1)."""
    return est._literal_matrix(X, reset=False), np.asarray(y).reshape(-1) == positive


def fit_distributed(est: Any, X: Any, y: Any, sample_weight: Any = None,
                    sensitive_features: Any = None) -> Any:
    """``est.fit(X, y)`` with the rows of the dask collections ``X`` and ``y`` kept on the
    workers (module docstring); returns ``est``."""
    est._check_params()
    _refuse(est, y, sample_weight, sensitive_features)
    client = _client(est.backend)
    xs, ys = _partitions(X, y)
    xf, yf = client.compute(xs), client.compute(ys)
    sizes = client.gather([client.submit(_n_rows, f) for f in xf])
    n = int(sum(sizes))
    if n == 0:
        raise InputError("X has no rows.")
    # the classes and the class the rules describe, from the partitions' label counts
    got = client.gather([client.submit(_label_counts, f) for f in yf])
    values = np.concatenate([v for v, _ in got])
    counts = np.concatenate([c for _, c in got])
    classes, inverse = np.unique(values, return_inverse=True)
    per_class = np.bincount(inverse.reshape(-1), weights=counts, minlength=classes.size)
    if classes.size != 2:
        raise InputError(f"fit on a dask collection learns a two-class rule set; y has "
                         f"{classes.size} classes.")
    target = est._target_index(classes, classes, per_class)
    d = target if est.form == "dnf" else 1 - target
    # the binarizer's thresholds (and the literals) from a bounded sample of rows
    step = max(1, math.ceil(n / BINARIZER_SAMPLE_ROWS))
    parts = client.gather([client.submit(_sample, f, step) for f in xf])
    if getattr(parts[0], "iloc", None) is not None:
        import pandas as pd

        sample = pd.concat(parts)
    else:
        sample = np.concatenate(parts)
    for name in ("_train", *_TRANSFORM_ATTRS):
        est.__dict__.pop(name, None)
    est._literal_matrix(sample, reset=True)
    del sample, parts
    worker_copy = copy.copy(est)
    worker_copy.__dict__ = {k: v for k, v in est.__dict__.items()
                            if k in est.get_params(deep=False) or k in _TRANSFORM_ATTRS}
    futures = [client.submit(_literal_part, worker_copy, a, b, classes[d], pure=False)
               for a, b in zip(xf, yf)]
    del xf, yf
    rows = DistributedRows.from_futures(client, futures, len(est.literals_), 1.0 / n)
    del futures
    try:
        est.classes_ = classes
        est.target_class_ = classes[target]
        est.lambda0_, est.lambda1_ = est._penalties(float(n))
        est.max_degree_ = resolve_max_degree(est.max_degree, (n, len(est.literals_)))
        options = ColumnGenerationOptions(
            pricing="exact", n_columns=int(est.n_columns), max_iter=int(est.max_iter),
            tol=float(est.tol), time_limit=est.time_limit,
            pricing_time_limit=est.pricing_time_limit, solver=est.solver,
            mip_gap=float(est.mip_gap), random_seed=est._seed(), master_ip="auto")
        res = distributed_column_generation(
            rows, complexity=None if est.complexity is None else float(est.complexity),
            lambda0=est.lambda0_, lambda1=est.lambda1_, max_degree=est.max_degree_,
            conflicts=literal_conflicts(est.literals_), options=options)
        est._set_result(res)
        # the fitted scores from the rows grouped by (unmet literals per clause, label)
        unmet, positive, sums = rows.summaries(est.clauses_)
        est._set_scores(unmet == 0, positive, sums[:, 0], float(n))
        est.pattern_scores_, est.side_scores_, est.score_strengths_ = pattern_table(
            unmet, positive, sums[:, 1])
        est.__dict__.pop("fairness_gap_", None)
        est.fit_info_["rows"] = {"n_rows": n, "n_partitions": len(rows.parts),
                                 "binarizer_sample_rows": int(sum(
                                     math.ceil(s / step) for s in sizes))}
    finally:
        rows.close()
    return est
