"""The JSON form of a fitted :class:`~optirules.learners.BooleanRuleSetClassifier`: the
fields :meth:`~optirules.learners.BooleanRuleSetClassifier.to_json` writes after the shared
header and their checked reading in
:meth:`~optirules.learners.BooleanRuleSetClassifier.from_json` (no pickle; every field is
checked and a damaged one named), the hooks of
:class:`~optirules.learners._rule_model.RuleModelMixin`.
"""

from __future__ import annotations

import math
from typing import Any

from .._json import (
    Field,
    check_rule_columns,
    check_rule_labels,
    json_scalar,
)
from .._rules import read_rule_set
from ._input import _label_index

__all__ = ["_RuleSetJSONMixin"]

_NAME = "BooleanRuleSetClassifier"


class _RuleSetJSONMixin:
    """The rule set's JSON (format ``"optirules.BooleanRuleSetClassifier"``, version 1):
    after the header, ``rules`` (the typed rules, with ``form`` and the class they
    predict), ``clauses`` (the generated clauses as literal indices), ``fit`` (the master's
    statistics, status, ``max_degree``, ``input_summary``, the penalties used and, after a
    fit with ``fairness``, the training gap ``fairness_gap``; NaN as null) and ``scores``
    (the training precisions and supports of the rules and the default, and the class
    prior).

    :meth:`from_json` rebuilds a classifier whose predictions are identical (it evaluates
    ``rules_`` on the raw data; a CNF's clauses, negated exactly, give the DNF's
    predictions, missing values and unseen categories included).  Files without ``form``
    and ``target_class`` (older ones) load as a DNF of ``classes_[1]``; files without
    ``scores`` predict but refuse probabilities."""

    _json_format = "optirules.BooleanRuleSetClassifier"

    def _json_fields(self) -> dict[str, Any]:
        """``rules``, ``clauses``, ``fit`` and ``scores`` (class docstring)."""
        return rule_set_fields(self)

    def _load_json_fields(self, doc: Field) -> None:
        """The rules, clauses, fit statistics and scores of ``doc``, checked."""
        load_common(self, doc)
        _load_fit(self, doc["fit"])
        self.history_ = []
        if not doc["scores"].is_null():  # files saved before the scores were kept
            load_scores(self, doc["scores"])  # predict, but refuse probabilities


def rule_set_fields(est: Any) -> dict[str, Any]:
    """The fields of a fitted binary rule set ``est`` after the header (NaN statistics as
    null)."""
    return {
        "rules": est.rules_.to_dict(),
        "clauses": [list(c) for c in est.clauses_],
        "fit": {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in {
            "lp_objective": est.lp_objective_, "lp_bound": est.lp_bound_,
            "ip_objective": est.ip_objective_, "gap": est.gap_,
            "absolute_gap": est.absolute_gap_, "gap_certified": est.gap_certified_,
            "pricing_complete": est.pricing_complete_,
            "status": est.status_, "ip_status": est.ip_status_,
            "n_iter": est.n_iter_, "fit_time": est.fit_time_,
            "max_degree": getattr(est, "max_degree_", None),
            "input_summary": getattr(est, "input_summary_", None),
            "lambda0": est.lambda0_, "lambda1": est.lambda1_,
            # a fair fit's training gap (fairness_gap_), only when the model has one
            **({"fairness_gap": float(est.fairness_gap_)}
               if "fairness_gap_" in vars(est) else {})}.items()},
        "scores": {"rule_precision": est.rule_precision_.tolist(),
                   "default_precision": est.default_precision_,
                   "rule_support": est.rule_support_.tolist(),
                   "default_support": est.default_support_,
                   "class_prior": est.class_prior_,
                   **pattern_fields(est)},
    }


def pattern_fields(est: Any) -> dict[str, Any]:
    """The probabilities' pattern table (``patterns``: ``[code, score]`` pairs), the sides'
    scores, the strengths and, for a CNF, the master's DNF (whose literals the patterns
    count); nothing for a model read from a file saved without them."""
    if "pattern_scores_" not in vars(est):
        return {}
    out = {"patterns": [[list(k), float(v)] for k, v in est.pattern_scores_.items()],
           "side_scores": [float(v) for v in est.side_scores_],
           "score_strengths": [float(v) for v in est.score_strengths_]}
    if est.rules_.form == "cnf":
        out["dnf_rules"] = est.dnf_rules_.to_dict()
    return out


def _load_fit(est: Any, fit: Field) -> None:
    """The fit statistics, status and penalties of the ``fit`` object, checked."""
    fit.object()
    nan = float("nan")

    def stat(key: str) -> float:  # a fit statistic: NaN (null) and inf allowed
        return fit[key].real(null=nan, default=nan, finite=False)

    est.lp_objective_ = stat("lp_objective")
    est.lp_bound_ = stat("lp_bound")
    est.ip_objective_ = stat("ip_objective")
    est.gap_ = stat("gap")
    est.absolute_gap_ = stat("absolute_gap")
    est.fit_time_ = stat("fit_time")
    est.gap_certified_ = fit["gap_certified"].boolean(default=False)
    est.pricing_complete_ = fit["pricing_complete"].boolean(default=False)
    est.status_ = fit["status"].string(null="", default="")
    est.ip_status_ = fit["ip_status"].string(null="", default="")
    est.n_iter_ = fit["n_iter"].count(null=0, default=0)
    summary = fit["input_summary"].string(null=None, default=None)
    if summary is not None:
        est.input_summary_ = summary
    degree = fit["max_degree"].count(null=None, default=None)
    if degree is not None:  # the degree the certified gap holds over
        est.max_degree_ = degree
    # the penalties used ("auto" resolved)
    est.lambda0_ = fit["lambda0"].real(lo=0.0)
    est.lambda1_ = fit["lambda1"].real(lo=0.0)
    # a fair fit's training gap, a difference of rates in [0, 1] up to rounding (absent: a
    # fit without fairness, or a file saved before the gap was kept)
    est.__dict__.pop("fairness_gap_", None)
    if "fairness_gap" in fit:
        est.fairness_gap_ = fit["fairness_gap"].real(lo=0.0, hi=1.0 + 1e-9, null=nan)


def load_scores(est: Any, scores: Any) -> None:
    """The training precisions, supports and prior of ``to_json``, checked: shares in
    [0, 1], supports finite and >= 0, one per rule."""
    if not isinstance(scores, Field):
        scores = Field(_NAME, scores, "scores")
    n = est.rules_.n_rules
    prec = scores["rule_precision"].reals(n, lo=0.0, hi=1.0)
    support = scores["rule_support"].reals(n, lo=0.0)
    values = [scores["default_precision"].probability(),
              scores["default_support"].real(lo=0.0),
              scores["class_prior"].probability()]
    est.rule_precision_, est.rule_support_ = prec, support
    est.default_precision_, est.default_support_, est.class_prior_ = values
    for key in ("pattern_scores_", "side_scores_", "score_strengths_", "dnf_rules_"):
        est.__dict__.pop(key, None)
    if "patterns" not in scores:  # saved before the pattern table: the rules' scores
        return
    table = {}
    for k, item in enumerate(scores["patterns"].items()):
        code, value = item.items(2)
        code = tuple(code.counts(n + 1))
        if code[0] not in (0, 1) or (code[0] == 1 and (max(code[1:], default=0) > 1
                                                      or not any(code[1:]))) \
                or (code[0] == 0 and 0 in code[1:]):
            raise scores["patterns"].damaged(f"entry {k} is not a pattern of {n} rules")
        table[code] = value.probability()
    est.pattern_scores_ = table
    est.side_scores_ = tuple(float(v) for v in scores["side_scores"].reals(
        2, lo=0.0, hi=1.0))
    est.score_strengths_ = tuple(float(v) for v in scores["score_strengths"].reals(
        2, lo=0.0))
    if est.rules_.form == "cnf":
        dnf = read_rule_set(scores["dnf_rules"])
        if dnf.form != "dnf" or dnf.n_rules != n:
            raise scores["dnf_rules"].damaged(f"must be the DNF of the {n} clauses")
        check_rule_columns(est, [dnf], _NAME)
        est.dnf_rules_ = dnf
    else:
        est.dnf_rules_ = est.rules_


def load_common(est: Any, doc: Field) -> None:
    """The rules, target class and clauses of ``doc`` (the header restored), checked
    against each other and against the model's columns."""
    name = type(est).__name__
    est.rules_ = read_rule_set(doc["rules"])
    params = doc["params"]
    form = getattr(est, "form", "dnf")
    if not (isinstance(form, str) and form == est.rules_.form):
        raise params["form"].damaged(f"must be the form of the rules, "
                                     f"{est.rules_.form!r}, not {str(form)[:40]!r}")
    # target_class None: the class the fit chose (the rules' positive class; older files
    # with numeric labels: classes_[1], which that is)
    t = _label_index(est.classes_, est.target_class if getattr(est, "target_class", None)
                     is not None else est.rules_.positive_class)
    if t is None:
        raise params["target_class"].damaged(
            f"must be null or one of the classes {[json_scalar(c) for c in est.classes_]}, "
            f"not {str(est.target_class)[:40]!r}")
    est.target_class_ = est.classes_[t]
    # the rules predict the target class where they hold, the other class elsewhere
    check_rule_labels(doc["rules"], est.rules_, est.classes_[[1 - t, t]])
    est.clauses_ = [tuple(c.counts()) for c in doc["clauses"].items(default=[])]
    check_rule_columns(est, [est.rules_], name)
