"""JSON persistence of :class:`~optirules.learners.BoostingClassifier` (its ``to_json`` and
``from_json``, of :class:`~optirules.learners._rule_model.RuleModelMixin`): the
layout, the checked reading of every field and the saved literals that stand in for the
binarizer of a loaded model.

:class:`_BoostingJSONMixin` is a base of the booster (:mod:`optirules.learners._boosting._estimator`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...errors import InputError
from ...weak import WeakHypothesis, hypothesis_from_dict
from .._checks import n_rows
from .._json import (
    INT_LIMIT,
    Field,
    check_literal_columns,
)
from .._rules import _column_cache, literal_to_dict, read_literal
from ._rules import WEAK_LEARNERS

_JSON_FORMAT = "optirules.BoostingClassifier"
#: the JSON layout to_json writes (2: literal table and names once, hypotheses by index)
#: and the layouts from_json reads (1: every hypothesis repeats the names)
_JSON_VERSION = 2
_JSON_VERSIONS = (1, 2)


class _BoostingJSONMixin:
    """The booster's JSON (format ``"optirules.BoostingClassifier"``).

    :meth:`from_json` rebuilds a classifier with the same ``decision_function``.  With a
    binarizer, its literals are saved (``optirules.data.Literal``, e.g. ``age > 52.5``) and
    the loaded model evaluates them on raw data, with the binarizer's semantics.
    ``training_margins_`` (one value per training row) is not saved.  ``to_json`` raises
    :class:`~optirules.errors.InputError` for a custom weak-learner object (only the named
    weak learners' hypotheses have a JSON form) or a binarizer without ``literals_``.

    Layout (version 2): the literal table (``literals``, with a binarizer) and the column
    names (``feature_names``) are stored once; a hypothesis refers to its columns by index
    into them and carries no names of its own.  Version 1 files, whose every hypothesis
    repeated ``feature_names``, are still read.
    """

    _json_format = _JSON_FORMAT
    _json_version = _JSON_VERSION
    _json_versions = _JSON_VERSIONS

    def _json_fields(self) -> dict[str, Any]:
        """``literals``, ``feature_names``, the hypotheses and the vote (class docstring)."""
        return boosting_fields(self)

    def _load_json_fields(self, doc: Field) -> None:
        """The literals, names, hypotheses and vote of ``doc``, checked."""
        load_boosting_fields(self, doc)


def boosting_fields(est: Any) -> dict[str, Any]:
    """The fields of :meth:`BoostingClassifier.to_json` after the header."""
    if not isinstance(est.weak_learner, str):
        raise InputError("a BoostingClassifier with a custom weak-learner object cannot be "
                         f"saved as JSON; use one of {list(WEAK_LEARNERS)}.")
    literals = None
    if est.binarizer_ is not None:
        if not hasattr(est.binarizer_, "literals_"):
            raise InputError("the binarizer has no literals_ to save; use "
                             "optirules.data.FeatureBinarizer to save the model as JSON.")
        literals = [literal_to_dict(lit) for lit in est.binarizer_.literals_]
    return {
        "literals": literals,
        "feature_names": est.feature_names_,
        "hypotheses": [_compact_hypothesis(h, est.feature_names_)
                       for h in est.hypotheses_],
        "alphas": est.alphas_.tolist(),
        "edges": est.edges_.tolist(),
        "weighted_errors": est.weighted_errors_.tolist(),
        "max_weight_ratios": est.max_weight_ratios_.tolist(),
        "smoothness": est.smoothness_,
        "stop_reason": est.stop_reason_,
        "input_summary": getattr(est, "input_summary_", None),
    }


def load_boosting_fields(est: Any, doc: Field) -> None:
    """The fields of :meth:`BoostingClassifier.to_json` after the header (restored on
    ``est``), every one checked."""
    name = "BoostingClassifier"
    doc["params"]["weak_learner"].string(choices=WEAK_LEARNERS)
    lits = doc["literals"]
    literals = None if lits.is_null() else [read_literal(f) for f in lits.items()]
    if literals is not None and est.binarizer is None:
        raise lits.damaged("must be null when 'params.binarizer' is null (the model "
                           "read X's columns as they are)")
    if literals is not None:
        check_literal_columns(est, literals, name)
    n_columns = est.n_features_in_ if literals is None else len(literals)
    names = doc["feature_names"]
    est.feature_names_ = None if names.is_null() else \
        [f.string() for f in names.items(n_columns)]
    est.hypotheses_ = [_read_hypothesis(f, n_columns, est.feature_names_)
                       for f in doc["hypotheses"].items()]
    n = len(est.hypotheses_)
    est.alphas_ = doc["alphas"].reals(n)
    est.edges_ = _stats(doc["edges"])
    est.weighted_errors_ = _stats(doc["weighted_errors"])
    est.max_weight_ratios_ = _stats(doc["max_weight_ratios"])
    est._set_smoothness()
    est.stop_reason_ = doc["stop_reason"].string()
    est.n_estimators_ = n
    est._set_status()
    est.weak_learner_ = est._make_weak_learner(0)
    est.binarizer_ = None if literals is None else _LiteralColumns(literals)
    summary = doc["input_summary"].string(null=None, default=None)
    if summary is not None:
        est.input_summary_ = summary


def _stats(field: Any) -> np.ndarray:
    """A list of per-round statistics (numbers; NaN written as null)."""
    return np.asarray([f.real(null=math.nan, finite=False) for f in field.items()],
                      dtype=np.float64)


def _compact_hypothesis(h: WeakHypothesis, names: list[str] | None) -> dict[str, Any]:
    """``h.to_dict()`` without the column names when they are the model's (version 2): the
    hypothesis refers to the model's literal table and ``feature_names`` by column index."""
    d = h.to_dict()
    own = d.get("feature_names")
    if own is None or (names is not None and list(own) == list(names)):
        d.pop("feature_names", None)
    return d


def _read_hypothesis(field: Any, n_columns: int,
                     names: list[str] | None = None) -> WeakHypothesis:
    """A hypothesis of :meth:`WeakHypothesis.to_dict` form, checked before it is built:
    integers (indices, signs, children) are integers, thresholds numbers, ``negated`` a
    boolean, and every column it reads one of the ``n_columns``.  Without its own
    ``feature_names`` (version 2), it takes the model's ``names``."""
    field.object()
    if "feature_names" not in field.value and names is not None:
        field = Field(field.name, {**field.value, "feature_names": list(names)}, field.path)
    for key in field.value:
        f = field[key]
        if key == "type":
            f.string()
        elif key == "feature_names":
            if not f.is_null():
                for g in f.items():
                    g.string()
        elif key == "negated":
            f.boolean()
        else:
            parts = f.items() if isinstance(f.value, list) else [f]
            for g in parts:
                if key == "threshold":
                    g.real(finite=False)
                else:
                    g.count(lo=-INT_LIMIT)
    try:
        h = hypothesis_from_dict(field.value)
        h.check_columns(n_columns)
    except InputError as exc:
        raise field.damaged(str(exc).rstrip(".")) from None
    return h


class _LiteralColumns:
    """The 0/1 matrix of saved literals on raw data: a fitted binarizer's ``transform``."""

    def __init__(self, literals: list[Any]) -> None:
        self.literals_ = literals

    def transform(self, X: Any) -> np.ndarray:
        X = _column_cache(X)  # columns without string names: by position
        out = np.zeros((n_rows(X), len(self.literals_)), dtype=np.uint8)
        for k, lit in enumerate(self.literals_):
            out[:, k] = lit.evaluate(X)
        return out
