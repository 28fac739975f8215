"""JSON persistence of :class:`~optirules.learners.DRORuleEnsembleClassifier`: the fields
``to_json`` writes after the shared header, their checked reading behind ``from_json``
(both of :class:`~optirules.learners._rule_model.RuleModelMixin`, through the estimator's
hooks) and the upgrade of saved parameters of earlier layouts.

The ensemble's JSON (format ``"optirules.DRORuleEnsembleClassifier"``, version 1) holds the
parameters, the members (typed rules), the weights, the robust losses, the candidates'
iteration / pmf / cost / robust loss and the cycle facts; not the pmfs (one float per
training row and iteration).  ``from_json`` rebuilds an ensemble with identical predictions
(it evaluates the members' rules on raw data).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._json import (
    Field,
    check_rule_columns,
    check_rule_labels,
)
from .._rules import read_rule_set

__all__ = ["JSON_FORMAT", "json_fields", "load_json_fields", "load_vote_scores",
           "upgrade_params"]


JSON_FORMAT = "optirules.DRORuleEnsembleClassifier"

#: the members' settings that were the ensemble's own parameters before ``member``
MEMBER_SETTINGS = ("lambda0", "lambda1", "max_degree", "pricing", "beam_width",
                   "n_columns", "max_iter", "mip_gap", "binarizer")


def upgrade_params(params: dict[str, Any]) -> dict[str, Any]:
    """Saved parameters of the layout before ``member`` (the members' settings among
    the ensemble's own, two time limits in seconds) in today's: the settings become
    the member's, the per-IP time limits are dropped (the fit's ``time_limit`` is the
    one limit; they only shaped the fit, not the saved model)."""
    moved = {k: params.pop(k) for k in MEMBER_SETTINGS if k in params}
    params.pop("combination_time_limit", None)
    params.pop("member_ip_time_limit", None)
    if moved and "member" not in params:
        member = {"lambda0": 0.0, "lambda1": 0.0, "tol": 0.0, **moved}
        params["member"] = {"__estimator__": "BooleanRuleSetClassifier",
                            "params": member}
    return params


def json_fields(est: Any) -> dict[str, Any]:
    """The members, weights, losses, candidates, cycle facts and vote scores (module
    docstring)."""
    return {
        "members": [m.to_dict() for m in est.members_],
        "member_clauses": [[list(c) for c in m] for m in est.member_clauses_],
        "weights": [float(w) for w in est.weights_],
        "complexity": int(est.complexity_),
        "robust_loss_history": [float(r) for r in est.robust_loss_history_],
        "candidates": [{k: (v.tolist() if isinstance(v, np.ndarray) else
                            (None if isinstance(v, float) and math.isnan(v) else v))
                        for k, v in c.items()} for c in est.candidates_],
        "selected": int(est.selected_),
        "member_complexity": float(est.member_complexity_),
        "selection": est.selection_, "refitted": bool(est.refitted_),
        "status": est.status_,
        "n_estimators": int(est.n_estimators_),
        "n_iter": [int(i) for i in est.n_iter_],
        "max_degree": int(est.max_degree_),
        "input_summary": getattr(est, "input_summary_", None),
        "cycle": ([est.cycle_start_, est.cycle_length_]
                  if getattr(est, "cycle_detected_", False) else None),
        "scores": {"class_prior": float(est.class_prior_),
                   "vote_levels": [float(v) for v in est.vote_levels_],
                   "vote_level_support": [float(v) for v in est.vote_level_support_],
                   "vote_level_positives": [float(v) for v in
                                            est.vote_level_positives_],
                   "vote_level_scores": [float(v) for v in est.vote_level_scores_]},
    }

def load_json_fields(est: Any, doc: Field) -> None:
    """The fields of ``_json_fields`` in ``doc``, every one checked."""
    name = "DRORuleEnsembleClassifier"
    est.members_ = [read_rule_set(m) for m in doc["members"].items(min_length=1)]
    for f, m in zip(doc["members"].items(), est.members_):
        check_rule_labels(f, m, est.classes_)
    n_members = len(est.members_)
    est.member_clauses_ = [[tuple(c.counts()) for c in m.items()]
                           for m in doc["member_clauses"].items(n_members)]
    w = doc["weights"].reals(n_members, lo=0.0)
    if not w.sum() > 0:
        raise doc["weights"].damaged("must hold one finite, non-negative weight per "
                                     "member, not all zero")
    est.weights_ = w
    est.member_costs_ = np.array([m.complexity for m in est.members_], dtype=float)
    est.complexity_ = doc["complexity"].count()
    est.robust_loss_history_ = np.asarray(
        [f.real(null=math.nan, finite=False)
         for f in doc["robust_loss_history"].items()], dtype=float)
    est.candidates_ = [_read_candidate(c) for c in doc["candidates"].items(min_length=1)]
    est.selected_ = doc["selected"].count(hi=len(est.candidates_) - 1)
    est.member_complexity_ = doc["member_complexity"].real(
        null=math.nan, default=math.nan, finite=False)
    est.selection_ = doc["selection"].string(default=str(est.selection))
    est.refitted_ = doc["refitted"].boolean(default=True)
    est.status_ = doc["status"].string(null="", default="")
    est.n_estimators_ = doc["n_estimators"].count()
    est.n_iter_ = np.asarray(doc["n_iter"].counts(), dtype=int)
    est.max_degree_ = doc["max_degree"].count()
    summary = doc["input_summary"].string(null=None, default=None)
    if summary is not None:
        est.input_summary_ = summary
    check_rule_columns(est, est.members_, name)
    if not doc["scores"].is_null():  # files saved before the scores were kept
        load_vote_scores(est, doc["scores"])  # predict, but refuse probabilities
    if est.loss == "binary":
        cyc = doc["cycle"]
        est.cycle_detected_ = not cyc.is_null()
        start = length = None
        if not cyc.is_null():
            start, length = (f.count() for f in cyc.items(2))
        est.cycle_start_, est.cycle_length_ = start, length

def load_vote_scores(est: Any, scores: Any) -> None:
    """The vote levels and their scores of :meth:`to_json`, checked: finite, levels
    increasing in [0, 1], scores and the prior in [0, 1], counts >= 0 with
    positives <= support, one of each per level."""
    if not isinstance(scores, Field):
        scores = Field("DRORuleEnsembleClassifier", scores, "scores")
    prior = scores["class_prior"].probability()
    levels = scores["vote_levels"].reals(lo=0.0, hi=1.0)
    n = levels.size
    if n < 1 or np.any(np.diff(levels) <= 0):
        raise scores["vote_levels"].damaged("must be at least one vote level, increasing "
                                            "in [0, 1]")
    support = scores["vote_level_support"].reals(n, lo=0.0)
    positives = scores["vote_level_positives"].reals(n, lo=0.0)
    values = scores["vote_level_scores"].reals(n, lo=0.0, hi=1.0)
    if np.any(positives > support + 1e-9):
        raise scores["vote_level_positives"].damaged("must not exceed the level's "
                                                     "support (vote_level_support)")
    est.class_prior_ = prior
    est.vote_levels_, est.vote_level_support_ = levels, support
    est.vote_level_positives_, est.vote_level_scores_ = positives, values


def _read_candidate(field: Any) -> dict[str, Any]:
    """One entry of ``candidates_`` as :meth:`DRORuleEnsembleClassifier.to_json` wrote it,
    checked: its weights finite and >= 0, its iteration and cost counts, its other facts
    numbers or text."""
    out: dict[str, Any] = {}
    for key in field.object():
        f = field[key]
        if key == "weights":
            out[key] = f.reals(lo=0.0)
        elif key == "iteration" or (key == "cost" and not isinstance(f.value, float)):
            out[key] = f.count()
        elif key == "cost":
            out[key] = f.real(lo=0.0)
        elif key in ("pmf", "status", "limit"):
            out[key] = f.string(null=None)
        elif isinstance(f.value, bool):  # a flag, e.g. validation_selected
            out[key] = f.boolean()
        else:
            out[key] = f.real(null=math.nan, finite=False)
    return out
