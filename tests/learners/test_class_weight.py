"""``class_weight`` (None, "balanced" or {label: weight}) multiplies ``sample_weight`` in
every learner that takes it, with scikit-learn's meaning
(:func:`sklearn.utils.class_weight.compute_sample_weight`)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.datasets import load_wine, make_classification
from sklearn.metrics import recall_score
from sklearn.utils.class_weight import compute_sample_weight

from optirules.errors import InputError
from optirules.learners import (
    BooleanRuleSetClassifier,
    BooleanRuleSetCV,
    BoostingClassifier,
    DRORuleEnsembleClassifier,
    ResampledAdaBoostClassifier,
)
from tests.internals import class_sample_weight

CW = {0: 1, 1: 3}


def data(n=120, seed=0):
    return make_classification(n, 5, n_informative=3, random_state=seed)


def tripled(y):
    return np.where(y == 1, 3.0, 1.0)


def dro(**kw):
    return DRORuleEnsembleClassifier(complexity=9, n_estimators=2, random_state=0, **kw,
                                     member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto", max_degree=1, max_iter=10))


def rule_set(**kw):
    return BooleanRuleSetClassifier(binarizer="auto", max_degree=2, random_state=0,
                                    mip_gap=1e-6, tol=0.0, **kw)


# ------------------------------------------------------------------ the shared helper
@pytest.mark.parametrize("y", [np.array([0, 0, 0, 1, 2, 2]), np.array(list("aaabbc"))])
@pytest.mark.parametrize("class_weight", ["balanced", "dict"])
def test_helper_is_compute_sample_weight_times_sample_weight(y, class_weight):
    if class_weight == "dict":
        class_weight = {y[0]: 0.5, y[-1]: 4}
    sw = np.arange(1.0, 7.0)
    expected = compute_sample_weight(class_weight, y)
    np.testing.assert_allclose(class_sample_weight(class_weight, y), expected)
    np.testing.assert_allclose(class_sample_weight(class_weight, y, sw), expected * sw)


def test_helper_leaves_sample_weight_alone_without_class_weight():
    sw = [1, 2, 3]
    assert class_sample_weight(None, [0, 1, 1], sw) is sw
    assert class_sample_weight(None, [0, 1, 1]) is None


@pytest.mark.parametrize("class_weight, message", [
    ("balance", "'balanced' or a dict"),
    ([1, 3], "'balanced' or a dict"),
    ({0: 1, 7: 3}, "label 7, which is not in y"),
    ({1: -1.0}, r"class_weight\[1\] must be a finite number >= 0"),
    ({1: float("nan")}, "must be a finite number"),
    ({1: float("inf")}, "must be a finite number"),
    ({1: "3"}, "must be a finite number"),
])
def test_helper_refuses_bad_class_weights(class_weight, message):
    with pytest.raises(InputError, match=message):
        class_sample_weight(class_weight, np.array([0, 1, 1, 0]))


# ------------------------------------------------------------------ every learner
LEARNERS = {
    "rule_set": lambda **kw: rule_set(**kw),
    "rule_set_cv": lambda **kw: BooleanRuleSetCV(rule_set(), penalties=[0.005, 0.02], cv=3,
                                                 **kw),
    "boosting": lambda **kw: BoostingClassifier(n_estimators=15, **kw),
    "resampled_adaboost": lambda **kw: ResampledAdaBoostClassifier(n_estimators=5,
                                                                   max_depth=2,
                                                                   random_state=0, **kw),
    "dro": lambda **kw: dro(**kw),
}


@pytest.mark.parametrize("name", sorted(LEARNERS))
def test_class_weight_is_a_keyword_parameter_stored_as_is(name):
    est = LEARNERS[name](class_weight=CW)
    assert est.get_params()["class_weight"] is CW
    assert LEARNERS[name]().get_params()["class_weight"] is None


@pytest.mark.parametrize("name", sorted(LEARNERS))
@pytest.mark.parametrize("class_weight", ["balance", {0: 1, 5: 2}, {1: -2}, {1: np.nan}])
def test_bad_class_weight_is_refused_before_any_work(name, class_weight):
    X, y = data()
    est = LEARNERS[name](class_weight=class_weight)
    with pytest.raises(InputError, match="class_weight"):
        est.fit(X, y)
    assert not hasattr(est, "classes_") and not hasattr(est, "binarizer_")


def test_rule_set_class_weight_is_sample_weight():
    X, y = data()
    a = rule_set(class_weight=CW).fit(X, y)
    b = rule_set().fit(X, y, sample_weight=tripled(y))
    assert str(a.rules_) == str(b.rules_)
    assert a.lambda0_ == b.lambda0_
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    # with a sample_weight as well: the product
    sw = np.random.default_rng(0).integers(1, 3, size=len(y)).astype(float)
    c = rule_set(class_weight=CW).fit(X, y, sample_weight=sw)
    d = rule_set().fit(X, y, sample_weight=sw * tripled(y))
    assert str(c.rules_) == str(d.rules_)
    np.testing.assert_array_equal(c.predict_proba(X), d.predict_proba(X))


def test_rule_set_class_weight_is_repeated_rows():
    """As with integer sample weights: the same literals, penalties and master optimum as
    the class-1 rows repeated three times (the rule sets may differ where the optimum ties,
    tests/learners/test_rule_set.py)."""
    from optirules.models import master_objective

    X, y = data()
    weighted = rule_set(class_weight=CW).fit(X, y)
    rows = np.repeat(np.arange(len(y)), np.where(y == 1, 3, 1))
    repeated = rule_set().fit(X[rows], y[rows])
    assert weighted.lambda0_ == pytest.approx(repeated.lambda0_)
    assert [str(c) for c in weighted.literals_] == [str(c) for c in repeated.literals_]
    assert weighted.ip_objective_ == pytest.approx(repeated.ip_objective_, rel=1e-9)
    A = np.asarray(weighted.binarizer_.transform(X), dtype=bool)
    P = tripled(y) / tripled(y).sum()
    objectives = [master_objective(A, y == 1, P, est.clauses_, weighted.lambda0_,
                                   weighted.lambda1_) for est in (weighted, repeated)]
    assert objectives[0] == pytest.approx(objectives[1], rel=1e-9)


def test_balanced_raises_the_minority_recall_of_the_rule_set():
    X, y = make_classification(600, 6, n_informative=3, weights=[0.94], flip_y=0.01,
                               random_state=0)
    assert y.mean() < 0.1
    plain = rule_set().fit(X, y)
    balanced = rule_set(class_weight="balanced").fit(X, y)
    assert recall_score(y, balanced.predict(X)) > recall_score(y, plain.predict(X))
    same = rule_set().fit(X, y, sample_weight=compute_sample_weight("balanced", y))
    assert str(same.rules_) == str(balanced.rules_)


def test_rule_set_cv_gives_class_weight_to_every_fit_and_scores_unweighted():
    X, y = data()
    a = LEARNERS["rule_set_cv"](class_weight=CW).fit(X, y)
    b = BooleanRuleSetCV(rule_set(class_weight=CW), penalties=[0.005, 0.02], cv=3).fit(X, y)
    assert a.best_estimator_.class_weight == CW
    assert str(a.rules_) == str(b.rules_)
    np.testing.assert_array_equal(a.cv_results_["mean_score"], b.cv_results_["mean_score"])
    # the scores are plain accuracies (unweighted): fold scores are multiples of 1/fold size
    for k in range(3):
        s = a.cv_results_[f"split{k}_score"]
        assert np.allclose(s * 40, np.round(s * 40))
    # "auto" penalties count the rows as the sum of the fit's weights
    auto = BooleanRuleSetCV(rule_set(), cv=3, class_weight=CW, time_limit=5).fit(X, y)
    weighted = BooleanRuleSetCV(rule_set(), cv=3, time_limit=5).fit(
        X, y, sample_weight=tripled(y))
    np.testing.assert_allclose(auto.cv_results_["lambda0"], weighted.cv_results_["lambda0"])


def test_boosting_class_weight_is_sample_weight_and_repeated_rows():
    X, y = data()
    a = BoostingClassifier(n_estimators=15, class_weight=CW).fit(X, y)
    b = BoostingClassifier(n_estimators=15).fit(X, y, sample_weight=tripled(y))
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    rows = np.repeat(np.arange(len(y)), np.where(y == 1, 3, 1))
    c = BoostingClassifier(n_estimators=15).fit(X[rows], y[rows])
    np.testing.assert_allclose(a.decision_function(X), c.decision_function(X))
    np.testing.assert_allclose(a.predict_proba(X), c.predict_proba(X))


def test_resampled_adaboost_class_weight_is_sample_weight():
    # not repeated rows: the resamples of weight 3 and of three copies are other draws
    X, y = data()
    a = LEARNERS["resampled_adaboost"](class_weight=CW).fit(X, y)
    b = LEARNERS["resampled_adaboost"]().fit(X, y, sample_weight=tripled(y))
    np.testing.assert_array_equal(a.estimator_weights_, b.estimator_weights_)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))


@pytest.mark.parametrize("make", [
    lambda **kw: BoostingClassifier(n_estimators=10, **kw),
    lambda **kw: BooleanRuleSetClassifier(binarizer="auto", max_degree=1, random_state=0,
                                          **kw),
    lambda **kw: DRORuleEnsembleClassifier(complexity=6, n_estimators=1, random_state=0, **kw,
                                           member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto", max_degree=1, max_iter=10)),
], ids=["boosting", "rule_set", "dro"])
def test_one_vs_rest_balances_the_k_classes_once(make):
    """K > 2 classes: "balanced" is computed on the K-class labels and the binary copies
    get those weights (class_weight=None), not a balance of each binary problem."""
    X, y = load_wine(return_X_y=True)
    a = make(class_weight="balanced").fit(X, y)
    b = make().fit(X, y, sample_weight=compute_sample_weight("balanced", y))
    assert a.class_weight == "balanced"
    assert all(e.class_weight is None for e in a.estimators_)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))


def test_dro_class_weight_is_sample_weight():
    X, y = data()
    for kw in ({}, {"selection": "validation"}):
        a = dro(class_weight=CW, **kw).fit(X, y)
        b = dro(**kw).fit(X, y, sample_weight=tripled(y))
        assert a.member_clauses_ == b.member_clauses_
        np.testing.assert_array_equal(a.weights_, b.weights_)
        np.testing.assert_array_equal(a.pmf_history_, b.pmf_history_)
        np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    # the weights count: the class-1 rows weigh three times, so the prior moves up
    plain = dro().fit(X, y)
    assert a.class_prior_ == pytest.approx(3 * y.sum() / (3 * y.sum() + (1 - y).sum()))
    assert plain.class_prior_ == pytest.approx(y.mean())


# ------------------------------------------------------------------ JSON
@pytest.mark.parametrize("class_weight", [CW, {0: 0.5}, "balanced", {"a": 2.0, "b": 1}])
def test_json_restores_class_weight_exactly(class_weight):
    X, y = data(80)
    if isinstance(class_weight, dict) and "a" in class_weight:
        y = np.where(y == 1, "b", "a")
    for est in (rule_set(class_weight=class_weight),
                BoostingClassifier(n_estimators=5, class_weight=class_weight),
                dro(class_weight=class_weight)):
        est.fit(X, y)
        text = est.to_json()
        back = type(est).from_json(text)
        assert back.class_weight == class_weight
        if isinstance(class_weight, dict):
            assert [type(k) for k in back.class_weight] == [type(k) for k in class_weight]
            assert isinstance(json.loads(text)["params"]["class_weight"], list)
        np.testing.assert_array_equal(back.predict(X), est.predict(X))


def test_json_of_one_vs_rest_restores_class_weight():
    X, y = load_wine(return_X_y=True)
    est = BoostingClassifier(n_estimators=5, class_weight={0: 2, 2: 0.5}).fit(X, y)
    back = BoostingClassifier.from_json(est.to_json())
    assert back.class_weight == {0: 2, 2: 0.5}
    np.testing.assert_array_equal(back.predict_proba(X), est.predict_proba(X))


def test_damaged_class_weight_in_json_is_an_input_error():
    X, y = data(80)
    data_ = json.loads(BoostingClassifier(n_estimators=3, class_weight=CW).fit(X, y)
                       .to_json())
    data_["params"]["class_weight"] = [[0, 1, 2]]
    with pytest.raises(InputError, match="class_weight is damaged"):
        BoostingClassifier.from_json(json.dumps(data_))
