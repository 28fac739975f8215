"""One vocabulary across the learners and models (docs/vocabulary.md).

The constructor of every public class of ``optirules.learners`` and ``optirules.models`` is
inspected: no retired name appears, every learner takes ``verbose``, and every learner
that calls a solver takes ``solver`` and ``time_limit``.  A rename still in progress is a
per-name ``xfail(strict=True)``: it fails as soon as the rename lands, so the mark is
removed then.
"""

from __future__ import annotations

import inspect
import logging

import numpy as np
import pytest
from sklearn.base import BaseEstimator

import optirules.learners as learners
import optirules.models as models

#: retired name -> the one name that replaces it
RETIRED = {
    "n_rounds": "n_estimators",
    "n_iterations": "n_estimators",
    "max_iterations": "max_iter",
    "complexity_budget": "complexity",
    "budget": "complexity",
    "degree": "max_degree",
    "max_depths": "max_degrees",
    "kappa": "target_error",
    "alpha": "member_weights",
    "delta": "margin or confidence",
    "rho": "rho only for the DRO radius (else candidate_fraction)",
    "A": "literals",
    "H": "predictions",
    "y": "labels",
    "z": "losses",
    "mu": "cover_duals",
    "lam": "complexity_dual",
}
#: where ``rho`` keeps its one meaning, the DRO divergence radius
RHO_ALLOWED = {"DRORuleEnsembleClassifier", "WorstCasePmfModel"}

#: learners that call an optimization solver (the table's "solver and time_limit")
SOLVER_LEARNERS = ("BooleanRuleSetClassifier", "BooleanRuleSetCV",
                   "DRORuleEnsembleClassifier", "QMMPruner")

#: learners that take scikit-learn's ``class_weight`` (it multiplies ``sample_weight``)
CLASS_WEIGHT_LEARNERS = ("BooleanRuleSetClassifier", "BooleanRuleSetCV", "BoostingClassifier",
                         "ResampledAdaBoostClassifier", "DRORuleEnsembleClassifier",
                         "DecisionListClassifier", "DecisionListCV")

#: (class, name) renames not landed yet; the xfail is strict, so a landed rename fails
#: here until its entry is removed
PENDING: set[tuple[str, str]] = set()
#: learners whose ``verbose`` / ``solver`` / ``time_limit`` is not there yet
PENDING_PARAMS: set[tuple[str, str]] = set()


def _public_classes(module) -> dict[str, type]:
    return {name: obj for name in module.__all__
            if inspect.isclass(obj := getattr(module, name))}


LEARNERS = {name: cls for name, cls in _public_classes(learners).items()
            if issubclass(cls, BaseEstimator)}
MODELS = _public_classes(models)
CLASSES = {**_public_classes(learners), **MODELS}


def _params(cls: type) -> list[str]:
    return [p.name for p in inspect.signature(cls.__init__).parameters.values()
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)][1:]


def _case(cls_name: str, name: str, pending: set[tuple[str, str]]):
    marks = ([pytest.mark.xfail(strict=True, reason=f"{cls_name}.{name}: rename pending")]
             if (cls_name, name) in pending else [])
    return pytest.param(cls_name, name, marks=marks, id=f"{cls_name}-{name}")


def test_the_inventory_is_what_the_table_covers():
    # a new public learner or model is checked by every test below automatically; these
    # are the ones the table was written for
    assert {"BooleanRuleSetClassifier", "BooleanRuleSetCV", "DRORuleEnsembleClassifier",
            "BoostingClassifier", "DecisionListClassifier", "DecisionListCV", "QMMPruner",
            "KappaPruner", "DREPPruner", "ResampledAdaBoostClassifier"} <= set(LEARNERS)
    assert {"QMMModel", "SparseCombinationModel", "WorstCasePmfModel",
            "RuleMasterModel", "RulePricingModel"} <= set(MODELS)
    assert set(SOLVER_LEARNERS) <= set(LEARNERS)
    assert {c for c, _ in PENDING | PENDING_PARAMS} <= set(CLASSES)


@pytest.mark.parametrize("cls_name, name", [
    _case(c, n, PENDING) for c in sorted(CLASSES) for n in RETIRED
    if not (n == "rho" and c in RHO_ALLOWED)])
def test_no_retired_name(cls_name, name):
    assert name not in _params(CLASSES[cls_name]), \
        f"{cls_name}({name}=...) is retired: use {RETIRED[name]}"


@pytest.mark.parametrize("cls_name, name", [_case(c, "verbose", PENDING_PARAMS)
                                            for c in sorted(LEARNERS)])
def test_every_learner_has_verbose(cls_name, name):
    params = _params(LEARNERS[cls_name])
    assert name in params
    assert inspect.signature(LEARNERS[cls_name]).parameters[name].default is False


@pytest.mark.parametrize("cls_name, name", [_case(c, n, PENDING_PARAMS)
                                            for c in SOLVER_LEARNERS
                                            for n in ("solver", "time_limit")])
def test_solver_learners_take_solver_and_time_limit(cls_name, name):
    assert name in _params(LEARNERS[cls_name])


@pytest.mark.parametrize("cls_name, name", [_case(c, "class_weight", PENDING_PARAMS)
                                            for c in CLASS_WEIGHT_LEARNERS])
def test_learners_take_class_weight_last_and_none_by_default(cls_name, name):
    assert _params(LEARNERS[cls_name])[-1] == name
    parameter = inspect.signature(LEARNERS[cls_name]).parameters[name]
    assert parameter.default is None and parameter.kind == parameter.KEYWORD_ONLY


def test_the_decision_lists_and_rule_sets_share_max_degree():
    for name in ("BooleanRuleSetClassifier", "BoostingClassifier", "DecisionListClassifier"):
        assert "max_degree" in _params(LEARNERS[name]), name
    # the DRO ensemble composes its member rule set: member=BooleanRuleSetClassifier(...)
    dro = LEARNERS["DRORuleEnsembleClassifier"]
    assert "member" in _params(dro) and "max_degree" not in _params(dro)
    assert type(dro()._member_estimator()) is LEARNERS["BooleanRuleSetClassifier"]
    assert "max_degrees" in _params(LEARNERS["DecisionListCV"])


def test_verbose_progress_goes_through_logging(caplog):
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(60, 3))
    y = (X[:, 0] == 1).astype(int)
    with caplog.at_level(logging.INFO, logger="optirules"):
        learners.DecisionListClassifier(verbose=True).fit(X, y)
        learners.ResampledAdaBoostClassifier(n_estimators=3, max_depth=1, random_state=0,
                                             verbose=True).fit(X, y)
    names = {r.name for r in caplog.records}
    assert {"optirules.learners.decision_list",
            "optirules.learners.resampled_adaboost"} <= names
    rounds = [r for r in caplog.records if r.getMessage().startswith("round ")]
    assert len(rounds) == 3
