"""BoostingClassifier: AdaBoost by hand, scikit-learn's SAMME, the smooth boosters' weights."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from sklearn.ensemble import AdaBoostClassifier
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from optirules.errors import InputError
from optirules.weak import LiteralLearner, StumpLearner, WeakLearner
from tests.internals import (
    BoostingClassifier,
    gavinsky_measure,
    madaboost_weights,
    smoothboost_measure,
)


class RecordingLearner(WeakLearner):
    """Best literal, remembering the distribution it was given each round."""

    requires_binary = True

    def __init__(self, log: list | None = None):
        self.log = log

    def fit(self, X, y, sample_weight=None, *, feature_names=None):
        self.log.append(np.array(sample_weight, dtype=float))
        return LiteralLearner().fit(X, y, sample_weight, feature_names=feature_names)


def _data(seed=0, m=90, n=12):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(m, n), dtype=np.uint8)
    y = np.where((X[:, 0] & X[:, 1]) | X[:, 2] ^ (rng.random(m) < 0.15), 1, 0)
    return X, y


# ---------------------------------------------------------------- AdaBoost by hand
def test_adaboost_follows_algorithm_1_by_hand():
    # one binary feature; labels make round 1 pick x, round 2 the constant -1, round 3 x
    X = np.array([[1], [1], [1], [0], [0]])
    y = np.array([1, 1, -1, -1, -1])
    clf = BoostingClassifier(n_estimators=3).fit(X, y)
    # round 1: D1 = 1/5, h = x errs on row 2: gamma = 3/5, alpha = 1/2 ln(1.6/0.4) = ln 2
    # D2 = (1/8, 1/8, 1/2, 1/8, 1/8); h = -1 errs on rows 0,1: gamma = 1/2, alpha = ln(3)/2
    # D3 = (1/4, 1/4, 1/3, 1/12, 1/12); h = x errs on row 2: gamma = 1/3, alpha = ln(2)/2
    assert [str(h) for h in clf.hypotheses_] == ["-1 if x[0] <= 0.5 else +1", "-1",
                                                 "-1 if x[0] <= 0.5 else +1"]
    np.testing.assert_allclose(clf.edges_, [3 / 5, 1 / 2, 1 / 3])
    np.testing.assert_allclose(clf.weighted_errors_, [1 / 5, 1 / 4, 1 / 3])
    np.testing.assert_allclose(clf.alphas_, [math.log(2), math.log(3) / 2, math.log(2) / 2])
    np.testing.assert_allclose(clf.max_weight_ratios_, [1.0, (1 / 2) * 5, (1 / 3) * 5])
    assert clf.smoothness_ == pytest.approx(2.5)
    F = (math.log(2) * 1.5) * np.array([1, 1, 1, -1, -1]) - math.log(3) / 2
    np.testing.assert_allclose(clf.decision_function(X), F)
    np.testing.assert_allclose(clf.training_margins_,
                               y * F / (1.5 * math.log(2) + math.log(3) / 2))


def test_training_error_trajectory_equals_sklearn_samme():
    rng = np.random.default_rng(1)
    X = (rng.random((300, 25)) < 0.4).astype(float)
    y = ((X[:, 0] + X[:, 1] + X[:, 2] + rng.random(300)) > 1.8).astype(int)
    T = 40
    ours = BoostingClassifier(weak_learner=StumpLearner(criterion="gini"), n_estimators=T).fit(X, y)
    ref = AdaBoostClassifier(estimator=DecisionTreeClassifier(max_depth=1), n_estimators=T,
                             random_state=0).fit(X, y)
    err_ours = [np.mean(p != y) for p in ours.staged_predict(X)]
    err_ref = [np.mean(p != y) for p in ref.staged_predict(X)]
    assert len(err_ours) == len(err_ref) == T
    assert err_ours == err_ref
    # SAMME's vote for two classes is ln((1-eps)/eps) = 2 alpha_t
    np.testing.assert_allclose(2 * ours.alphas_, ref.estimator_weights_, rtol=1e-10)
    np.testing.assert_allclose(ours.weighted_errors_, ref.estimator_errors_, rtol=1e-10)


# ---------------------------------------------------------------- smooth boosters
def test_weight_functions_match_their_definitions():
    F = np.array([-2.0, 0.0, 0.5, 3.0])
    y = np.array([1, -1, 1, -1])
    d1 = np.full(4, 0.25)
    # MadaBoost: D1 * min(1, exp(-y F)), i.e. AdaBoost's weight capped at D1
    np.testing.assert_allclose(madaboost_weights(F, y, d1),
                               0.25 * np.array([1.0, 1.0, math.exp(-0.5), 1.0]))
    # SmoothBoost: M = 1 for N < 0, (1 - gamma)^(N/2) for N >= 0
    N = np.array([-1.0, 0.0, 2.0, 5.0])
    np.testing.assert_allclose(smoothboost_measure(N, 0.2), [1.0, 1.0, 0.8, 0.8 ** 2.5])
    # Gavinsky: 1 for N <= 0, 1 - eps N up to 1/eps, then 0
    np.testing.assert_allclose(gavinsky_measure(np.array([-3.0, 0.0, 2.5, 10.0, 30.0]), 0.1),
                               [1.0, 1.0, 0.75, 0.0, 0.0])


@pytest.mark.parametrize("booster", ["adaboost", "madaboost", "smoothboost", "gavinsky"])
def test_distributions_replay_the_definitions(booster):
    X, y = _data()
    ypm = np.where(y == 1, 1.0, -1.0)
    log: list = []
    clf = BoostingClassifier(booster=booster, weak_learner=RecordingLearner(log),
                             n_estimators=30, gamma=0.2, epsilon=0.3).fit(X, y)
    log = clf.weak_learner_.log
    d1 = np.full(len(y), 1 / len(y))
    F = np.zeros(len(y))
    N = np.zeros(len(y))
    theta = 0.2 / 2.2
    for t, (h, a) in enumerate(zip(clf.hypotheses_, clf.alphas_)):
        if booster == "adaboost":
            w = np.exp(-ypm * F)
        elif booster == "madaboost":
            w = np.minimum(1.0, np.exp(-ypm * F))
        elif booster == "smoothboost":
            w = np.where(N < 0, 1.0, 0.8 ** (N / 2))
        else:
            w = np.clip(1 - 0.3 * N, 0, 1)
        D = w / w.sum()
        np.testing.assert_allclose(log[t], D, rtol=1e-9, atol=1e-15)
        yh = ypm * h.predict(X)
        assert clf.edges_[t] == pytest.approx(np.dot(D, yh))
        assert clf.max_weight_ratios_[t] == pytest.approx((D / d1).max())
        eps = np.dot(D, yh < 0)
        expected_alpha = {"adaboost": 0.5 * math.log((1 - eps) / eps),
                          "madaboost": 0.5 * math.log((1 - eps) / eps),
                          "smoothboost": 1.0, "gavinsky": np.dot(D, yh) / 2}[booster]
        assert a == pytest.approx(expected_alpha)
        F += a * h.predict(X)
        N += yh - theta if booster == "smoothboost" else a * yh
    assert clf.smoothness_ == pytest.approx(max((d / d1).max() for d in log))


def test_smoothboost_kappa_and_gavinsky_vanishing_weights():
    X, y = _data(2)
    sb = BoostingClassifier(booster="smoothboost", weak_learner="literal", n_estimators=500,
                            target_error=0.5, gamma=0.4).fit(X, y)
    assert sb.stop_reason_ == "target_error reached" and sb.n_estimators_ < 500
    assert np.all(sb.alphas_ == 1.0)
    # a target a literal fits exactly: Gavinsky's weights all reach zero, then it stops
    Xs = np.array([[0, 1], [1, 0], [1, 1], [0, 0]] * 5, dtype=np.uint8)
    ys = Xs[:, 0]
    gv = BoostingClassifier(booster="gavinsky", weak_learner="literal", n_estimators=100,
                            epsilon=0.5).fit(Xs, ys)
    assert gv.stop_reason_ == "all weights vanished" and gv.n_estimators_ < 100
    ada = BoostingClassifier(weak_learner="literal").fit(Xs, ys)
    assert ada.stop_reason_ == "perfect hypothesis" and ada.n_estimators_ == 1
    assert ada.score(Xs, ys) == 1.0


def test_madaboost_is_smoother_than_adaboost():
    X, y = _data(3, m=150, n=30)
    s = {b: BoostingClassifier(booster=b, weak_learner="literal", n_estimators=60).fit(X, y)
         for b in ("adaboost", "madaboost")}
    assert s["madaboost"].smoothness_ < s["adaboost"].smoothness_


# ---------------------------------------------------------------- estimator behaviour
def test_other_weak_learners_labels_and_determinism():
    X, y = _data(4)
    labels = np.where(y == 1, "yes", "no")
    for wl in ("stump", "literal", "parity", "cart"):
        a = BoostingClassifier(weak_learner=wl, n_estimators=15, random_state=3).fit(X, labels)
        b = BoostingClassifier(weak_learner=wl, n_estimators=15, random_state=3).fit(X, labels)
        assert list(a.classes_) == ["no", "yes"]
        assert set(a.predict(X)) <= {"no", "yes"}
        np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
        assert a.score(X, labels) > 0.75
        assert np.all(np.abs(a.training_margins_) <= 1 + 1e-12)
        proba = a.predict_proba(X)
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)
        assert a.to_dict()["hypotheses"]
        # the text holds each distinct hypothesis once (a hypothesis and its negation as
        # one), with its net vote, largest first: the printed votes give F
        lines = a.to_text().splitlines()
        assert lines[-1].startswith("input: ")  # what fit did with X
        votes = [float(line.split()[0]) for line in lines[2:-1]]
        assert votes == sorted(votes, reverse=True)
        assert votes == [round(v, 4) for v, _, _, _ in a._votes()]
        F = sum(v * h.predict(X) for v, _, _, h in a._votes())
        np.testing.assert_allclose(F, a.decision_function(X), atol=1e-12)


def test_parity_beats_stumps_on_xor():
    rng = np.random.default_rng(5)
    X = rng.integers(0, 2, size=(400, 10), dtype=np.uint8)
    y = X[:, 3] ^ X[:, 7]
    tr, te = slice(0, 300), slice(300, None)
    acc = {wl: BoostingClassifier(weak_learner=wl, n_estimators=20, max_degree=2)
           .fit(X[tr], y[tr]).score(X[te], y[te]) for wl in ("stump", "parity")}
    assert acc["parity"] == 1.0 and acc["stump"] < 0.75


def test_binarizer_auto_on_raw_data():
    rng = np.random.default_rng(6)
    df = pd.DataFrame({"age": rng.integers(20, 70, 200),
                       "color": rng.choice(["red", "green", "blue"], 200)})
    y = ((df.age > 45) ^ (df.color == "red")).astype(int).to_numpy()
    clf = BoostingClassifier(weak_learner="parity", max_degree=2, binarizer="auto",
                             n_estimators=10).fit(df, y)
    assert clf.score(df, y) > 0.9
    assert any("color" in str(h) and "age" in str(h) for h in clf.hypotheses_)
    assert clf.n_features_in_ == 2


def _mixed_frame(seed=0, n=160):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"age": rng.integers(20, 80, n).astype(float),
                      "chol": rng.normal(220, 40, n).round(1),
                      "thal": rng.choice(["normal", "fixed", "reversible"], n)})
    X.loc[rng.random(n) < 0.1, "chol"] = np.nan
    y = np.where((X["age"] > 55) & (X["thal"] != "normal") | (X["chol"] > 260), "sick", "well")
    return X, y


@pytest.mark.parametrize("booster, weak, binarizer", [
    ("adaboost", "stump", None), ("madaboost", "literal", "auto"),
    ("smoothboost", "parity", "auto"), ("gavinsky", "literal", "auto"),
    ("adaboost", "cart", "auto")])
def test_json_round_trip_gives_the_same_vote(tmp_path, booster, weak, binarizer):
    from optirules.data import FeatureBinarizer

    X, y = _mixed_frame()
    if binarizer is None:
        X = X.drop(columns="thal").fillna(0.0)
    clf = BoostingClassifier(booster=booster, weak_learner=weak, n_estimators=15,
                             binarizer=binarizer, random_state=0).fit(X[:120], y[:120])
    X_new = X[120:].copy()
    if binarizer is not None:
        X_new.loc[X_new.index[0], "thal"] = "unseen"  # a category never seen in training
        # the saved literals evaluate on raw data exactly as the binarizer transforms it
        fb = clf.binarizer_
        assert isinstance(fb, FeatureBinarizer)
        cols = np.column_stack([lit.evaluate(X_new) for lit in fb.literals_])
        np.testing.assert_array_equal(cols, fb.transform(X_new))
    back = BoostingClassifier.from_json(clf.to_json(tmp_path / "b.json"))
    np.testing.assert_array_equal(back.decision_function(X_new), clf.decision_function(X_new))
    np.testing.assert_array_equal(back.predict(X), clf.predict(X))
    assert str(back) == str(clf) == clf.to_text()
    assert back.stop_reason_ == clf.stop_reason_ and back.n_estimators_ == clf.n_estimators_
    again = BoostingClassifier.from_json(tmp_path / "b.json")
    np.testing.assert_array_equal(again.predict_proba(X_new), clf.predict_proba(X_new))


def test_json_refuses_custom_learners_and_foreign_files():
    X, y = _data()
    clf = BoostingClassifier(weak_learner=RecordingLearner([]), n_estimators=3).fit(X, y)
    with pytest.raises(InputError, match="custom weak-learner"):
        clf.to_json()
    with pytest.raises(InputError, match="to_json"):
        BoostingClassifier.from_json('{"format": "optirules.BooleanRuleSetClassifier"}')
    with pytest.raises(InputError, match="damaged"):
        BoostingClassifier.from_json('{"format": "optirules.BoostingClassifier", "params": {}, '
                                     '"classes": [0, 1], "n_features_in": 2}')


def test_bad_input_raises_input_error():
    X, y = _data()
    with pytest.raises(InputError, match="'booster' parameter of BoostingClassifier"):
        BoostingClassifier(booster="logitboost").fit(X, y)
    with pytest.raises(InputError, match="'weak_learner' parameter of BoostingClassifier"):
        BoostingClassifier(weak_learner="svm").fit(X, y)
    with pytest.raises(InputError, match="one class"):
        BoostingClassifier().fit(X, np.ones(len(y)))
    with pytest.raises(InputError, match="NaN"):
        Xn = X.astype(float)
        Xn[0, 0] = np.nan
        BoostingClassifier(binarizer=None).fit(Xn, y)
    for wl in ("literal", "parity"):
        with pytest.raises(InputError, match="binary features"):
            BoostingClassifier(weak_learner=wl, binarizer=None).fit(X + 0.5, y)
    # three classes are one booster per class; the first one checks X at once
    with pytest.raises(InputError, match="binary features"):
        BoostingClassifier(weak_learner="literal", binarizer=None).fit(
            X + 0.5, np.arange(len(y)) % 3)
    with pytest.raises(InputError, match="gamma"):
        BoostingClassifier(booster="smoothboost", gamma=1.5).fit(X, y)
    with pytest.raises(InputError, match="n_estimators"):
        BoostingClassifier(n_estimators=0).fit(X, y)


@pytest.mark.parametrize("weak", ["literal", LiteralLearner(), "parity", "stump", "cart"])
@pytest.mark.parametrize("binarizer", ["auto", None])
@pytest.mark.parametrize("y, message", [
    (lambda y: np.column_stack([y, 1 - y]),
     r"y has shape \(90, 2\).*one label per row.*y.argmax\(axis=1\)"),
    (lambda y: np.column_stack([y, np.arange(len(y)) % 3]), r"y has shape \(90, 2\)"),
    (lambda y: 1, "y is a single value"),
    (lambda y: [[0], [1, 1]] * 45, "different lengths"),
])
def test_labels_not_one_per_row_are_refused_before_any_work(weak, binarizer, y, message,
                                                             monkeypatch):
    """scikit-learn's bare ValueError ("y should be a 1d array") before: now an InputError
    raised before X is binarized or validated."""
    X, labels = _data()
    monkeypatch.setattr(BoostingClassifier, "_validate_X",
                        lambda *a, **k: pytest.fail("X was read before y was checked"))
    with pytest.raises(InputError, match=message):
        BoostingClassifier(weak_learner=weak, binarizer=binarizer).fit(X, y(labels))


@pytest.mark.parametrize("binarizer", ["auto", None])
def test_cart_weak_learner_refuses_what_its_float32_trees_cannot_read(binarizer):
    """Beyond float32 scikit-learn raised its own ValueError; scaled by 1e-300 the trees
    saw constant columns and the booster predicted one class, silently.  Scaled by 1e30 the
    vote is that of the unscaled data."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((120, 3))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    kw = dict(weak_learner="cart", n_estimators=5, binarizer=binarizer)
    with pytest.raises(InputError, match=r"CartLearner: column 'x\[?0\]?' holds .*beyond "
                                         r"\+-3.4e\+38.*Rescale"):
        BoostingClassifier(**kw).fit(X * 1e300, y)
    with pytest.raises(InputError, match=r"CartLearner: column 'x\[?0\]?' varies .*steps of "
                                         r"at most 1e-07.*never split apart"):
        BoostingClassifier(**kw).fit(X * 1e-300, y)
    model = BoostingClassifier(**kw).fit(X, y)
    big = BoostingClassifier(**kw).fit(X * 1e30, y)
    np.testing.assert_array_equal(big.alphas_, model.alphas_)
    np.testing.assert_array_equal(big.predict(X * 1e30), model.predict(X))


# ---------------------------------------------------------------- Gavinsky's epsilon
# rows: x0 = (1, 1, 0, 1), x1 = (0, 1, 1, 0); y = (+1, +1, -1, -1).  Under D_1 = 1/4 the
# literal x0 has edge (1 + 1 + 1 - 1)/4 = 1/2, x1 and the constants 0: h_1 = x0.
_GX = np.array([[1, 0], [1, 1], [0, 1], [1, 0]], dtype=np.uint8)
_GY = np.array([1, 1, -1, -1])


@pytest.mark.parametrize("epsilon, mu", [
    (0.1, [0.975, 0.975, 0.975, 1.0]),    # 1 - 0.1 * 0.25 on the three rows h_1 gets right
    (2.0, [0.5, 0.5, 0.5, 1.0]),          # 1 - 2 * 0.25
    (4.0, [0.0, 0.0, 0.0, 1.0]),          # 1 - 4 * 0.25 = 0: the flat measure's floor
])
def test_gavinsky_epsilon_sets_the_weights_by_the_formula(epsilon, mu):
    clf = BoostingClassifier(booster="gavinsky", weak_learner="literal", n_estimators=2,
                             epsilon=epsilon).fit(_GX, _GY)
    # a_1 = gamma_1 / 2 = 1/4; N_1 = a_1 y h_1(x) = (1/4, 1/4, 1/4, -1/4)
    assert str(clf.hypotheses_[0]) == "+x[0]"
    assert clf.alphas_[0] == pytest.approx(0.25)
    # D_2 = mu / sum(mu) with mu = min{1, max{0, 1 - epsilon N_1}}
    d2 = np.array(mu) / np.sum(mu)
    assert clf.max_weight_ratios_[1] == pytest.approx(4 * d2.max())
    # round 2's edge is taken under D_2: it differs across epsilon as D_2 does
    yh = _GY * clf.hypotheses_[1].predict(_GX)
    assert clf.edges_[1] == pytest.approx(float(np.dot(d2, yh)))


def test_gavinsky_epsilon_is_checked_and_kept():
    assert BoostingClassifier(booster="gavinsky").get_params()["epsilon"] == 0.1
    for bad in (0, -0.5, "0.1", None):
        with pytest.raises(InputError, match="epsilon"):
            BoostingClassifier(booster="gavinsky", epsilon=bad).fit(_GX, _GY)


# ---------------------------------------------------------------- smoothness statistics
def test_smoothness_max_final_mean_by_hand():
    clf = BoostingClassifier(weak_learner="literal", n_estimators=3).fit(_GX, _GY)
    # round 1: h = x0 errs on row 3 only: eps = 1/4, D_2 = (1/6, 1/6, 1/6, 1/2)
    # round 2: under D_2 the literal x1 and the constant -1 both have edge 1/3 (the
    #   literal wins the tie); either errs on two rows of D_2-mass 1/6 each, which get
    #   half the mass: D_3 = (1/4, 1/8, 1/4, 3/8)
    # ratios max_i D_t(i) / D_1(i) with D_1 = 1/4: 1, 4/2 = 2, 4 * 3/8 = 1.5
    assert [str(h) for h in clf.hypotheses_[:2]] == ["+x[0]", "+x[1]"]
    np.testing.assert_allclose(clf.max_weight_ratios_, [1.0, 2.0, 1.5])
    assert clf.smoothness_ == pytest.approx(2.0)             # max over rounds
    assert clf.smoothness_final_ == pytest.approx(1.5)       # final round
    assert clf.smoothness_mean_ == pytest.approx(4.5 / 3)    # mean over rounds
    back = BoostingClassifier.from_json(clf.to_json())
    assert (back.smoothness_, back.smoothness_final_, back.smoothness_mean_) == (
        clf.smoothness_, clf.smoothness_final_, clf.smoothness_mean_)


def test_adaboost_smoothness_is_over_normalized_training_distributions():
    # Long and Servedio's AdaBoost smoothness, replayed from the fitted votes alone: D_1 uniform over
    # the rows given to fit, D_t normalized, all rounds counted (none stops early here).
    X, y = _data(5, m=200, n=40)
    clf = BoostingClassifier(weak_learner="literal", n_estimators=60).fit(X, y)
    assert clf.n_estimators_ == 60 and clf.stop_reason_ == "n_estimators"
    ypm = np.where(y == 1, 1.0, -1.0)
    F = np.zeros(len(y))
    ratios = []
    for h, a in zip(clf.hypotheses_, clf.alphas_):
        D = np.exp(-ypm * F) / np.exp(-ypm * F).sum()
        ratios.append(D.max() * len(y))
        F += a * h.predict(X)
    assert clf.smoothness_ == pytest.approx(max(ratios))
    assert clf.smoothness_final_ == pytest.approx(ratios[-1])
    assert clf.smoothness_mean_ == pytest.approx(np.mean(ratios))
    # a repeated row doubles D_1 there: the ratio is relative to D_1, not to uniform
    w = np.ones(len(y))
    w[0] = 2.0
    dup = BoostingClassifier(weak_learner="literal", n_estimators=60).fit(
        np.vstack([X, X[:1]]), np.append(y, y[0]))
    wtd = BoostingClassifier(weak_learner="literal", n_estimators=60).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(wtd.max_weight_ratios_, dup.max_weight_ratios_, rtol=1e-9)


# MadaBoost shares every code path checked here with AdaBoost and Gavinsky's booster
@parametrize_with_checks([
    BoostingClassifier(n_estimators=10),
    BoostingClassifier(booster="smoothboost", n_estimators=10),
    BoostingClassifier(booster="gavinsky", n_estimators=10),
    BoostingClassifier(weak_learner="cart", n_estimators=5, random_state=0),
    # raw (numeric, NaN, object) data through the binarizer, for the 0/1 weak learners
    BoostingClassifier(weak_learner="literal", binarizer="auto", n_estimators=10),
    BoostingClassifier(weak_learner="parity", max_degree=2, binarizer="auto", n_estimators=5),
], expected_failed_checks=lambda est: {} if est.weak_learner in ("literal", "parity") else {
    # class_weight is applied (test_class_weight.py: it equals sample_weight), but the
    # first stump or tree drives the heavy class's weighted training error to about zero
    # by cutting off a region of light-class rows, and on the test half of the check's
    # noisy blobs that region holds more rows than the check allows
    "check_class_weight_classifiers": "boosting fits the class-weighted training rows "
                                      "exactly; the check's noisy blobs need a biased, "
                                      "smoother model"})
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_verbose_logs_each_round_through_logging(caplog):
    import logging

    X, y = _data(4)
    with caplog.at_level(logging.INFO, logger="optirules.learners.boosting"):
        clf = BoostingClassifier(weak_learner="literal", n_estimators=3, verbose=True).fit(X, y)
    rounds = [r.getMessage() for r in caplog.records if " round " in r.getMessage()]
    assert len(rounds) == clf.n_estimators_ and rounds[0].startswith("adaboost round 1: edge")
    assert caplog.records[-1].getMessage().endswith(clf.stop_reason_)


# ---------------------------------------------------------------------- JSON layouts
#: a model saved in the version-1 layout (every hypothesis repeats the literal names), as
#: the release before the compact layout wrote it, with its predictions on _OLD_X
_OLD_V1_JSON = (
    '{"format": "optirules.BoostingClassifier", "version": 1, "params": {"binarizer": "au'
    'to", "booster": "adaboost", "class_weight": null, "epsilon": 0.1, "gamma": 0.1, "max'
    '_degree": 2, "n_estimators": 3, "random_state": null, "target_error": null, "verbose'
    '": false, "weak_learner": "stump"}, "classes": ["no", "yes"], "n_features_in": 2, "f'
    'eature_names_in": ["age", "colour"], "literals": [{"feature": "age", "op": "<=", "va'
    'lue": 26.0, "column": 0}, {"feature": "age", "op": ">", "value": 26.0, "column": 0},'
    ' {"feature": "age", "op": "<=", "value": 30.0, "column": 0}, {"feature": "age", "op"'
    ': ">", "value": 30.0, "column": 0}, {"feature": "age", "op": "<=", "value": 40.0, "c'
    'olumn": 0}, {"feature": "age", "op": ">", "value": 40.0, "column": 0}, {"feature": "'
    'age", "op": "<=", "value": 46.0, "column": 0}, {"feature": "age", "op": ">", "value"'
    ': 46.0, "column": 0}, {"feature": "age", "op": "<=", "value": 48.0, "column": 0}, {"'
    'feature": "age", "op": ">", "value": 48.0, "column": 0}, {"feature": "age", "op": "<'
    '=", "value": 50.0, "column": 0}, {"feature": "age", "op": ">", "value": 50.0, "colum'
    'n": 0}, {"feature": "age", "op": "<=", "value": 55.0, "column": 0}, {"feature": "age'
    '", "op": ">", "value": 55.0, "column": 0}, {"feature": "age", "op": "<=", "value": 6'
    '4.0, "column": 0}, {"feature": "age", "op": ">", "value": 64.0, "column": 0}, {"feat'
    'ure": "age", "op": "<=", "value": 68.0, "column": 0}, {"feature": "age", "op": ">", '
    '"value": 68.0, "column": 0}, {"feature": "colour", "op": "==", "value": "blue", "col'
    'umn": 1}, {"feature": "colour", "op": "!=", "value": "blue", "column": 1}, {"feature'
    '": "colour", "op": "==", "value": "green", "column": 1}, {"feature": "colour", "op":'
    ' "!=", "value": "green", "column": 1}, {"feature": "colour", "op": "==", "value": "r'
    'ed", "column": 1}, {"feature": "colour", "op": "!=", "value": "red", "column": 1}], '
    '"feature_names": ["age <= 26", "age > 26", "age <= 30", "age > 30", "age <= 40", "ag'
    'e > 40", "age <= 46", "age > 46", "age <= 48", "age > 48", "age <= 50", "age > 50", '
    '"age <= 55", "age > 55", "age <= 64", "age > 64", "age <= 68", "age > 68", "colour ='
    '= blue", "colour != blue", "colour == green", "colour != green", "colour == red", "c'
    'olour != red"], "hypotheses": [{"type": "stump", "feature": 6, "threshold": 0.5, "le'
    'ft": 1, "right": -1, "feature_names": ["age <= 26", "age > 26", "age <= 30", "age > '
    '30", "age <= 40", "age > 40", "age <= 46", "age > 46", "age <= 48", "age > 48", "age'
    ' <= 50", "age > 50", "age <= 55", "age > 55", "age <= 64", "age > 64", "age <= 68", '
    '"age > 68", "colour == blue", "colour != blue", "colour == green", "colour != green"'
    ', "colour == red", "colour != red"]}, {"type": "stump", "feature": 22, "threshold": '
    '0.5, "left": -1, "right": 1, "feature_names": ["age <= 26", "age > 26", "age <= 30",'
    ' "age > 30", "age <= 40", "age > 40", "age <= 46", "age > 46", "age <= 48", "age > 4'
    '8", "age <= 50", "age > 50", "age <= 55", "age > 55", "age <= 64", "age > 64", "age '
    '<= 68", "age > 68", "colour == blue", "colour != blue", "colour == green", "colour !'
    '= green", "colour == red", "colour != red"]}, {"type": "stump", "feature": 10, "thre'
    'shold": 0.5, "left": 1, "right": -1, "feature_names": ["age <= 26", "age > 26", "age'
    ' <= 30", "age > 30", "age <= 40", "age > 40", "age <= 46", "age > 46", "age <= 48", '
    '"age > 48", "age <= 50", "age > 50", "age <= 55", "age > 55", "age <= 64", "age > 64'
    '", "age <= 68", "age > 68", "colour == blue", "colour != blue", "colour == green", "'
    'colour != green", "colour == red", "colour != red"]}], "alphas": [0.8047189562170503'
    ', 0.6931471805599454, 0.7331685343967135], "edges": [0.6666666666666666, 0.6, 0.625]'
    ', "weighted_errors": [0.16666666666666666, 0.19999999999999998, 0.1875], "max_weight'
    '_ratios": [1.0, 3.0, 1.875], "smoothness": 3.0, "stop_reason": "n_estimators"}'
)
_OLD_PRED = ['no', 'no', 'yes', 'yes', 'yes', 'yes', 'no', 'no', 'yes', 'yes', 'no', 'no']
_OLD_DECISION = [-0.8447403100538183, -2.2310346711737092, 0.7646976023802822, 0.8447403100538183, 0.8447403100538183, 2.2310346711737092, -2.2310346711737092, -2.2310346711737092, 2.2310346711737092, 0.8447403100538183, -0.8447403100538183, -0.6215967587396086]


def _old_frame():
    return pd.DataFrame({"age": [23., 35, 47, 52, 61, 70, 28, 44, 58, 66, 31, 49],
                         "colour": ["red", "blue", "red", "green", "blue", "red",
                                    "green", "green", "red", "blue", "red", "blue"]})


def test_json_reads_the_version_1_layout():
    doc = json.loads(_OLD_V1_JSON)
    assert doc["version"] == 1 and "feature_names" in doc["hypotheses"][0]
    X = _old_frame()
    old = BoostingClassifier.from_json(_OLD_V1_JSON)
    assert old.predict(X).tolist() == _OLD_PRED
    assert old.decision_function(X).tolist() == _OLD_DECISION
    assert "age <= 46 -> -1 else +1" in old.to_text()
    # saved again, it is written in the compact layout and predicts the same
    new = json.loads(old.to_json())
    assert new["version"] == 2
    assert all("feature_names" not in h for h in new["hypotheses"])
    back = BoostingClassifier.from_json(json.dumps(new))
    assert back.decision_function(X).tolist() == _OLD_DECISION
    assert back.to_text() == old.to_text()


def _as_version_1(doc):
    """A version-2 document rewritten by hand in the version-1 layout."""
    if "one_vs_rest" in doc:
        return {**doc, "one_vs_rest": [_as_version_1(d) for d in doc["one_vs_rest"]]}
    return {**doc, "version": 1,
            "hypotheses": [{**h, "feature_names": doc["feature_names"]}
                           for h in doc["hypotheses"]]}


@pytest.mark.parametrize("weak", ["stump", "parity", "cart"])
def test_json_compact_layout_stores_the_names_once(weak):
    X, y = _mixed_frame()
    y3 = np.where(X["thal"] == "normal", "a", np.where(X["age"] > 50, "b", "c"))
    for target in (y, y3):
        clf = BoostingClassifier(weak_learner=weak, n_estimators=8, binarizer="auto",
                                 random_state=0).fit(X, target)
        text = clf.to_json()
        doc = json.loads(text)
        parts = doc.get("one_vs_rest", [doc])
        for part in parts:
            assert part["version"] == 2 and len(part["feature_names"]) == len(part["literals"])
            assert all("feature_names" not in h for h in part["hypotheses"])
        back = BoostingClassifier.from_json(text)
        np.testing.assert_array_equal(back.decision_function(X), clf.decision_function(X))
        np.testing.assert_array_equal(back.predict_proba(X), clf.predict_proba(X))
        assert back.to_text() == clf.to_text()
        old_text = json.dumps(_as_version_1(doc))
        assert len(old_text) > len(json.dumps(doc))
        old = BoostingClassifier.from_json(old_text)
        np.testing.assert_array_equal(old.predict(X), clf.predict(X))
        assert old.to_text() == clf.to_text()


def test_json_compact_layout_refuses_names_of_another_length():
    X, y = _mixed_frame()
    doc = json.loads(BoostingClassifier(n_estimators=3, binarizer="auto").fit(X, y).to_json())
    doc["feature_names"] = doc["feature_names"][:-1]
    with pytest.raises(InputError, match="'feature_names' must hold"):
        BoostingClassifier.from_json(json.dumps(doc))
    doc["version"] = 3
    with pytest.raises(InputError, match="version 3.*reads version 1, 2"):
        BoostingClassifier.from_json(json.dumps(doc))


# ------------------------------------------------------------------ time_limit
class SlowStumps(WeakLearner):
    """Stumps that take at least ``pause`` seconds a round: a wall-clock limit of a few
    rounds' pauses cuts the fit short on any machine."""

    def __init__(self, pause: float = 0.02):
        self.pause = pause

    def fit(self, X, y, sample_weight=None):
        import time

        time.sleep(self.pause)
        return StumpLearner().fit(X, y, sample_weight)


def test_time_limit_keeps_the_first_rounds_of_the_full_fit():
    X, y = _data(seed=3, m=120, n=6)
    full = BoostingClassifier(weak_learner=SlowStumps(), n_estimators=20).fit(X, y)
    assert full.status_ == "completed" and full.n_estimators_ == 20
    cut = BoostingClassifier(weak_learner=SlowStumps(), n_estimators=20,
                             time_limit=0.05).fit(X, y)
    k = cut.n_estimators_
    assert 1 <= k < 20 and cut.stop_reason_ == "time_limit"
    assert cut.status_.startswith(f"time_limit: stopped after {k} of 20 rounds")
    assert "time_limit=0.05" in cut.status_ and "wall-clock" in cut.status_
    np.testing.assert_array_equal(cut.alphas_, full.alphas_[:k])
    F_k = list(full.staged_decision_function(X))[k - 1]
    np.testing.assert_allclose(cut.decision_function(X), F_k)
    np.testing.assert_array_equal(cut.predict(X), list(full.staged_predict(X))[k - 1])


@pytest.mark.parametrize("booster", ["adaboost", "smoothboost"])
def test_no_time_limit_or_an_unreached_one_gives_the_same_completed_model(booster):
    X, y = _data(seed=4)
    none = BoostingClassifier(booster=booster, n_estimators=15).fit(X, y)
    assert BoostingClassifier().get_params()["time_limit"] is None
    far = BoostingClassifier(booster=booster, n_estimators=15, time_limit=1e6).fit(X, y)
    assert none.status_ == far.status_ == "completed"
    assert none.stop_reason_ == far.stop_reason_ != "time_limit"
    assert [h.to_dict() for h in none.hypotheses_] == [h.to_dict() for h in far.hypotheses_]
    np.testing.assert_array_equal(none.alphas_, far.alphas_)
    np.testing.assert_array_equal(none.decision_function(X), far.decision_function(X))


def test_time_limit_is_checked_and_the_status_survives_json():
    X, y = _data(seed=5)
    for bad in (0, -1.0, True, "1", math.inf):
        with pytest.raises(InputError, match="time_limit"):
            BoostingClassifier(time_limit=bad).fit(X, y)
    cut = BoostingClassifier(weak_learner=SlowStumps(0.01), n_estimators=30,
                             time_limit=0.02).fit(X, y)
    assert cut.status_.startswith("time_limit")
    fitted = BoostingClassifier(n_estimators=5, time_limit=30.0).fit(X, y)
    back = BoostingClassifier.from_json(fitted.to_json())
    assert back.time_limit == 30.0 and back.status_ == fitted.status_ == "completed"


def test_one_vs_rest_boosters_share_one_time_limit():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 4))
    y = np.digitize(X[:, 0] + 0.3 * X[:, 1], [-0.5, 0.5])
    est = BoostingClassifier(weak_learner=SlowStumps(0.02), n_estimators=20,
                             time_limit=0.1).fit(X, y)
    assert len(est.estimators_) == 3 and len(est.class_time_limits_) == 3
    assert all(s is not None and s > 0 for s in est.class_time_limits_)
    assert est.status_.startswith("time_limit") and est.cut_classes_
    for e, s in zip(est.estimators_, est.class_status_):
        assert s == e.status_ and e.n_estimators_ >= 1
        assert (e.stop_reason_ == "time_limit") == s.startswith("time_limit")
    assert est.predict(X).shape == (150,)


# ---------------------------------------------------------------- a split and its negation
def _split_key(h):
    return (h.feature, h.threshold) if h.kind == "stump" else (h.kind,)


@pytest.fixture(scope="module")
def monks2():
    from optirules.data import load_dataset

    X, y = load_dataset("monks2_train")
    return X, y, BoostingClassifier().fit(X, y)


def test_a_split_and_its_negation_are_one_vote(monks2):
    """On MONK-2 AdaBoost picks a split in both orientations (``a5 > 1.5 -> +1 else -1``
    in some rounds, ``a5 <= 1.5 -> +1 else -1`` in others): the text lists each split once,
    with the votes of the first orientation minus those of the second, in the orientation
    of the larger; and the printed votes are the model (its F, predict, predict_proba)."""
    from scipy.special import expit

    X, y, clf = monks2
    net: dict = {}
    orientations: dict = {}
    for a, h in zip(clf.alphas_, clf.hypotheses_):
        key = _split_key(h)
        s = h.right if h.kind == "stump" else h.sign
        net[key] = net.get(key, 0.0) + s * a  # the vote of the '-> +1 where x > t' side
        orientations.setdefault(key, set()).add(s)
    both = [k for k, v in orientations.items() if len(v) == 2]
    assert len(both) >= 2  # the case the merge is for
    lines = clf.to_text().splitlines()[2:-1]
    assert len(lines) == len(net) == len(clf._votes())
    assert f"({clf.n_estimators_} rounds, {len(net)} distinct hypotheses)" in \
        clf.to_text().splitlines()[0]
    for key in both:
        name = X.columns[key[0]]
        mine = [line for line in lines if f" {name} " in line and f"{key[1]:g} ->" in line]
        assert len(mine) == 1, mine
        vote, text = mine[0].split(maxsplit=1)
        side = ">" if net[key] >= 0 else "<="
        assert text == f"{name} {side} {key[1]:g} -> +1 else -1"
        assert float(vote) == pytest.approx(abs(net[key]), abs=5e-5)
    F = sum(v * h.predict(X.to_numpy(dtype=float)) for v, _, _, h in clf._votes())
    np.testing.assert_allclose(F, clf.decision_function(X), atol=1e-12)
    np.testing.assert_allclose(clf.predict_proba(X)[:, 1], expit(2 * F), atol=1e-12)
    sure = np.abs(F) > 1e-9
    np.testing.assert_array_equal(clf.predict(X)[sure], clf.classes_[(F[sure] > 0).astype(int)])
    # explain lists the split once too, on the side it voted
    for row in clf.explain(X.iloc[:20])["rules"]:
        assert len(row) == len({r.split(maxsplit=1)[1] for r in row})


def test_smoothboost_nets_a_literal_and_its_negation(monks2):
    """SmoothBoost votes 1 a round: on MONK-2 it picks a literal once and its negation five
    times, one line of vote 4 in the negation's orientation."""
    X, y, _ = monks2
    clf = BoostingClassifier(booster="smoothboost", weak_learner="literal",
                             n_estimators=60).fit(X, y)
    by_literal: dict = {}
    for h in clf.hypotheses_:
        if h.kind == "literal":
            by_literal.setdefault(h.feature, []).append(-1 if h.negated else 1)
    mixed = {j: s for j, s in by_literal.items() if len(set(s)) == 2}
    assert mixed
    votes = {text: v for v, text, _, _ in clf._votes()}
    for j, signs in mixed.items():
        total = sum(signs)
        name = clf.feature_names_[j]
        mine = {t: v for t, v in votes.items() if t.startswith(f"{name} -> ")}
        assert len(mine) == 1
        (text, vote), = mine.items()
        assert vote == abs(total)
        assert text == f"{name} -> {'+1 else -1' if total >= 0 else '-1 else +1'}"


def test_rules_table_is_the_text_with_counts_on_data(monks2):
    X, y, clf = monks2
    table = clf.rules_table(X, y)
    assert list(table.columns) == ["class", "vote", "rule", "n_literals", "support",
                                   "precision", "recall"]
    lines = clf.to_text().splitlines()[2:-1]
    assert [f"{v:+.4f}  {r}" for v, r in zip(table["vote"], table["rule"])] == \
        [line.strip() for line in lines]
    Xa = X.to_numpy(dtype=float)
    for row, (_, text, _, h) in zip(table.itertuples(index=False), clf._votes()):
        if text.startswith("always"):
            side = h.sign
            assert row.n_literals == 0
        else:  # stumps on the raw columns: '... -> +1 else -1'
            side = 1
            assert row.n_literals == 1
        assert row[0] == clf.classes_[1 if side > 0 else 0]
        covered = h.predict(Xa) == side
        hit = y == row[0]
        assert row.support == covered.sum()
        assert row.precision == pytest.approx((covered & hit).sum() / covered.sum())
        assert row.recall == pytest.approx((covered & hit).sum() / hit.sum())
    stored = clf.rules_table()  # the booster keeps no training rows
    assert list(stored["rule"]) == list(table["rule"])
    assert stored[["support", "precision", "recall"]].isna().all().all()
    html = clf._repr_html_()
    assert "BoostingClassifier: adaboost" in html and "+0." in html


def test_rules_table_of_literals_and_of_three_classes():
    from sklearn.datasets import load_iris

    X, y = _data(5, m=150, n=8)
    clf = BoostingClassifier(weak_learner="literal", n_estimators=30).fit(X, y)
    table = clf.rules_table(X, y)
    for row, (_, text, _, h) in zip(table.itertuples(index=False), clf._votes()):
        side = -1 if "-> -1 else +1" in text or text == "always -1" else 1
        assert row[0] == clf.classes_[1 if side > 0 else 0]
        assert row.support == (h.predict(X) == side).sum()
    iris = load_iris(as_frame=True)
    labels = iris.target_names[iris.target]
    ovr = BoostingClassifier(n_estimators=10).fit(iris.data, labels)
    blocks = ovr.rules_table(iris.data, labels)
    sizes = [len(e.rules_table()) for e in ovr.estimators_]
    assert list(blocks["class"]) == [c for c, n in zip(ovr.classes_, sizes) for _ in range(n)]
