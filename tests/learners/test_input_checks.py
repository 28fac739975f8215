"""Every user-facing parameter and input is checked by optirules with its own message
(an InputError naming what was wrong), before any long work."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from optirules.errors import InputError
from optirules.learners import (
    BooleanRuleSetClassifier,
    BooleanRuleSetCV,
    BoostingClassifier,
    DecisionListClassifier,
    DecisionListCV,
    DRORuleEnsembleClassifier,
    ResampledAdaBoostClassifier,
)
from optirules.weak import CartLearner


def _numeric(n: int = 40, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.RandomState(seed)
    X = rng.rand(n, 3)
    return X, (X[:, 0] > 0.5).astype(int)


# --------------------------------------------------------------------------- ResampledAdaBoost
X_NUM, Y_NUM = _numeric()


def _with(value: float) -> np.ndarray:
    X = X_NUM.copy()
    X[2, 1] = value
    return X


_RA = "parameter of ResampledAdaBoostClassifier must be"
_N_ESTIMATORS = rf"'n_estimators' {_RA} an int in the range \[1, inf\)"
_MAX_DEPTH = rf"'max_depth' {_RA} None or an int in the range \[1, inf\)"
_SEED = rf"'random_state' {_RA} None, an int in the range \[0, 4294967295\]"
BAD_PARAMS = [
    ({"n_estimators": 0}, _N_ESTIMATORS),
    ({"n_estimators": -3}, _N_ESTIMATORS),
    ({"n_estimators": 2.5}, _N_ESTIMATORS),
    ({"n_estimators": "10"}, _N_ESTIMATORS),
    ({"n_estimators": None}, _N_ESTIMATORS),
    ({"n_estimators": True}, _N_ESTIMATORS),
    ({"n_estimators": float("nan")}, _N_ESTIMATORS),
    ({"max_depth": 0}, _MAX_DEPTH),
    ({"max_depth": -1}, _MAX_DEPTH),
    ({"max_depth": 1.5}, _MAX_DEPTH),
    ({"max_depth": "deep"}, _MAX_DEPTH),
    ({"max_depth": False}, _MAX_DEPTH),
    ({"random_state": -1}, _SEED),
    ({"random_state": 2**32}, _SEED),
    ({"random_state": "abc"}, _SEED),
    ({"random_state": 1.5}, _SEED),
    ({"random_state": float("nan")}, _SEED),
]


@pytest.mark.parametrize("params, message", BAD_PARAMS)
def test_resampled_adaboost_refuses_bad_parameters(params, message):
    with pytest.raises(InputError, match=message):
        ResampledAdaBoostClassifier(**{"n_estimators": 2, **params}).fit(X_NUM, Y_NUM)


BAD_FIT_DATA = [
    (_with(np.nan), Y_NUM, None, "column 'x1' has NaN"),
    (_with(np.inf), Y_NUM, None, "column 'x1' has infinite values"),
    (_with(-np.inf), Y_NUM, None, "column 'x1' has infinite values"),
    (np.full((40, 2), "a"), Y_NUM, None, "numeric"),
    (X_NUM[:, 0], Y_NUM, None, "Expected 2D array, got 1D array"),
    (X_NUM[:, :, None], Y_NUM, None, "Expected 2D array, got 3D array"),
    (X_NUM[:0], Y_NUM[:0], None, "0 sample"),
    (X_NUM, Y_NUM[:-1], None, "X has 40 rows but y has 39 labels"),
    (X_NUM, None, None, "requires y to be passed"),
    (X_NUM, np.zeros(40), None, "y has only one class"),
    (X_NUM, np.arange(40) % 3, None, "merge them into two"),
    (X_NUM, np.where(Y_NUM, 1.0, np.nan), None, "y contains NaN"),
    (X_NUM, X_NUM[:, 0], None, "continuous"),
    (X_NUM, Y_NUM, np.ones(39), "one non-negative finite weight per row"),
    (X_NUM, Y_NUM, -np.ones(40), "one non-negative finite weight per row"),
    (X_NUM, Y_NUM, np.full(40, np.nan), "one non-negative finite weight per row"),
    (X_NUM, Y_NUM, np.zeros(40), "at least one non-zero"),
    (X_NUM, Y_NUM, "heavy", "one non-negative finite weight per row"),
    # labels that are not one per row: scikit-learn's bare ValueError before
    (X_NUM, np.column_stack([Y_NUM, 1 - Y_NUM]), None,
     r"y has shape \(40, 2\).*one label per row.*y.argmax\(axis=1\)"),
    (X_NUM, 1, None, "y is a single value"),
    (X_NUM, [[0], [1, 1]] * 20, None, "different lengths"),
    # beyond float32 (the trees' copy of X was infinite: scikit-learn's ValueError), and
    # in steps the trees cannot split (X scaled by 1e-300 fitted a constant, silently)
    (_with(1e39), Y_NUM, None, "column 'x1' holds 1e\\+39, beyond \\+-3.4e\\+38.*Rescale"),
    (X_NUM * 1e-300, Y_NUM, None,
     "column 'x0' varies .* steps of at most 1e-07.*never split apart.*Rescale"),
]


@pytest.mark.parametrize("X, y, sample_weight, message", BAD_FIT_DATA)
def test_resampled_adaboost_refuses_bad_data(X, y, sample_weight, message):
    with pytest.raises(InputError, match=message):
        ResampledAdaBoostClassifier(n_estimators=2).fit(X, y, sample_weight=sample_weight)


@pytest.fixture(scope="module")
def resampled():
    frame = pd.DataFrame(X_NUM, columns=["age", "income", "height"])
    return ResampledAdaBoostClassifier(n_estimators=3, max_depth=2, random_state=0).fit(
        frame, Y_NUM)


@pytest.mark.parametrize("method", ["predict", "predict_proba", "decision_function", "explain"])
@pytest.mark.parametrize("value, message", [(np.nan, "column 'income' has NaN"),
                                            (np.inf, "column 'income' has infinite values")])
def test_resampled_adaboost_predict_checks_x_as_fit_does(resampled, method, value, message):
    frame = pd.DataFrame(_with(value), columns=["age", "income", "height"])
    with pytest.raises(InputError, match=message):
        getattr(resampled, method)(frame)


@pytest.mark.parametrize("X, message", [(X_NUM[:, :2], "expecting 3 features"),
                                        (X_NUM[0], "Expected 2D array")])
def test_resampled_adaboost_predict_refuses_wrong_shapes(X, message):
    model = ResampledAdaBoostClassifier(n_estimators=2, random_state=0).fit(X_NUM, Y_NUM)
    with pytest.raises(InputError, match=message):
        model.predict(X)


def test_resampled_adaboost_scaled_x_gives_the_same_trees_or_is_refused():
    """The trees are invariant to scaling a column, as long as scikit-learn's float32 copy
    holds the values and its split threshold (steps above 1e-7) separates them: X scaled by
    1e30 predicts as X does; by 1e-300 it was fitted as constant columns (every row one
    class), and is refused; a row beyond float32 at prediction goes where the float32
    extreme goes (scikit-learn refused it)."""
    kw = dict(n_estimators=5, max_depth=3, random_state=0)
    model = ResampledAdaBoostClassifier(**kw).fit(X_NUM, Y_NUM)
    big = ResampledAdaBoostClassifier(**kw).fit(X_NUM * 1e30, Y_NUM)
    np.testing.assert_array_equal(big.predict(X_NUM * 1e30), model.predict(X_NUM))
    np.testing.assert_array_equal(big.estimator_weights_, model.estimator_weights_)
    with pytest.raises(InputError, match="never split apart"):
        ResampledAdaBoostClassifier(**kw).fit(X_NUM * 1e-300, Y_NUM)
    far = X_NUM.copy()
    far[:, 0] = np.where(X_NUM[:, 0] > 0.5, 1e300, -1e300)
    edge = far.copy()
    edge[:, 0] = np.sign(far[:, 0]) * float(np.finfo(np.float32).max)
    np.testing.assert_array_equal(model.predict(far), model.predict(edge))
    # and where any value past the training range goes (X_NUM is in [0, 1))
    np.testing.assert_array_equal(model.predict(far), np.where(X_NUM[:, 0] > 0.5,
                                                               model.predict(_col0(2.0)),
                                                               model.predict(_col0(-1.0))))


def _col0(value: float) -> np.ndarray:
    """X_NUM with column 0 set to ``value``."""
    X = X_NUM.copy()
    X[:, 0] = value
    return X


def test_resampled_adaboost_sample_weight_is_the_first_distribution():
    # a zero weight keeps the row out of every resample; scaling all weights changes nothing
    w = np.ones(40)
    w[:10] = 0
    a = ResampledAdaBoostClassifier(n_estimators=4, random_state=3).fit(X_NUM, Y_NUM, w)
    assert a.estimator_weights_.shape == (4,)
    assert np.all(np.isfinite(a.predict_proba(X_NUM)))
    b = ResampledAdaBoostClassifier(n_estimators=4, random_state=3).fit(X_NUM, Y_NUM)
    c = ResampledAdaBoostClassifier(n_estimators=4, random_state=3).fit(X_NUM, Y_NUM,
                                                                        np.full(40, 2.0))
    np.testing.assert_array_equal(b.estimator_weights_, c.estimator_weights_)


@parametrize_with_checks(
    [ResampledAdaBoostClassifier(n_estimators=3, random_state=0)],
    # the resamples are drawn from the weights: a weight of 2 and a repeated row give the
    # same distribution but different draws of the random generator, so different trees
    expected_failed_checks=lambda est: {
        "check_sample_weight_equivalence_on_dense_data":
            "weighted and repeated rows give different bootstrap draws"},
)
def test_resampled_adaboost_is_sklearn_compatible(estimator, check):
    check(estimator)


# --------------------------------------------------------------------------- random_state
BAD_SEEDS = [-1, 2**32, "abc", 0.5]


@pytest.mark.parametrize("seed", BAD_SEEDS)
@pytest.mark.parametrize("make", [
    lambda s: BoostingClassifier(weak_learner="cart", n_estimators=2, random_state=s),
    lambda s: BoostingClassifier(n_estimators=2, random_state=s),
    lambda s: ResampledAdaBoostClassifier(n_estimators=2, random_state=s),
    lambda s: DecisionListCV(max_degrees=[1], min_coverages=[1], cv=2, random_state=s),
], ids=["boosting-cart", "boosting-stump", "resampled-adaboost", "decision-list-cv"])
def test_random_state_is_checked_before_any_work(make, seed):
    with pytest.raises(InputError, match="'random_state' parameter of"):
        make(seed).fit(X_NUM, Y_NUM)


@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_rule_set_cv_random_state_is_checked(seed):
    X = (X_NUM > 0.5).astype(int)
    with pytest.raises(InputError, match="'random_state' parameter of BooleanRuleSetCV"):
        BooleanRuleSetCV(penalties=[(0.01, 0.01)], cv=2, random_state=seed).fit(X, Y_NUM)


@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_cart_weak_learner_random_state_is_checked(seed):
    with pytest.raises(InputError, match="random_state must be None"):
        CartLearner(random_state=seed).fit(X_NUM, np.where(Y_NUM, 1, -1))


# --------------------------------------------------------------------------- n_jobs
BAD_N_JOBS = [0, float("nan"), "abc", 1.5, True]


@pytest.mark.parametrize("n_jobs", BAD_N_JOBS)
def test_decision_list_cv_n_jobs_is_checked(n_jobs):
    with pytest.raises(InputError, match="'n_jobs' parameter of DecisionListCV"):
        DecisionListCV(max_degrees=[1], min_coverages=[1], cv=2, n_jobs=n_jobs).fit(
            X_NUM, Y_NUM)


@pytest.mark.parametrize("n_jobs", BAD_N_JOBS)
def test_rule_set_cv_n_jobs_is_checked(n_jobs):
    X = (X_NUM > 0.5).astype(int)
    with pytest.raises(InputError, match="'n_jobs' parameter of BooleanRuleSetCV"):
        BooleanRuleSetCV(penalties=[(0.01, 0.01)], cv=2, n_jobs=n_jobs).fit(X, Y_NUM)


# --------------------------------------------------------------------------- size bounds
@pytest.mark.parametrize("n_bins", [10**18, 10_001, 1, 0, 2.5, "5"])
def test_decision_list_n_bins_is_bounded(n_bins):
    with pytest.raises(InputError, match=r"'n_bins' parameter of DecisionListClassifier "
                                         r"must be an int in the range \[2, 10000\]"):
        DecisionListClassifier(n_bins=n_bins).fit(X_NUM, Y_NUM)


def test_decision_list_n_bins_at_the_bound_fits():
    model = DecisionListClassifier(n_bins=10_000).fit(X_NUM, Y_NUM)
    assert model.predict(X_NUM).shape == (40,)


# --------------------------------------------------------------------------- predict-time X
def _mixed(n: int = 80, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """``age`` and ``color`` without missing values, ``income`` with one."""
    rng = np.random.RandomState(seed)
    X = pd.DataFrame({"age": rng.rand(n) * 50 + 20, "income": rng.rand(n),
                      "color": rng.choice(["red", "green", "blue"], n)})
    X.loc[3, "income"] = np.nan
    y = ((X["age"] > 40) ^ (rng.rand(n) > 0.9)).astype(int).to_numpy()
    return X, y


X_MIX, Y_MIX = _mixed()
Y_MIX3 = np.arange(len(Y_MIX)) % 3

BINARIZED = {
    "rule-set": lambda: BooleanRuleSetClassifier(binarizer="auto"),
    "boosting": lambda: BoostingClassifier(binarizer="auto", n_estimators=5),
    "dro": lambda: DRORuleEnsembleClassifier(n_estimators=2,
                                             member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto")),
}


@pytest.fixture(scope="module", params=[(name, k) for name in BINARIZED for k in (2, 3)],
                ids=lambda p: f"{p[0]}-{p[1]}classes")
def binarized_model(request):
    name, k = request.param
    return BINARIZED[name]().fit(X_MIX, Y_MIX if k == 2 else Y_MIX3)


def _first_row(column: str, value) -> pd.DataFrame:
    X = X_MIX.copy()
    X[column] = X[column].astype(object)
    X.loc[0, column] = value
    return X


@pytest.mark.parametrize("method", ["predict", "predict_proba", "decision_function", "explain"])
@pytest.mark.parametrize("column, value, message", [
    ("age", np.inf, "column 'age' holds infinite values"),
    ("income", -np.inf, "column 'income' holds infinite values"),
])
def test_prediction_refuses_what_fit_refuses(binarized_model, method, column, value, message):
    with pytest.raises(InputError, match=message):
        getattr(binarized_model, method)(_first_row(column, value))


@pytest.mark.parametrize("method", ["predict", "predict_proba", "decision_function", "explain"])
def test_prediction_keeps_nan_where_fit_had_it(binarized_model, method):
    out = getattr(binarized_model, method)(_first_row("income", np.nan))
    assert len(out) == len(X_MIX)


@pytest.mark.parametrize("column, value", [("age", np.nan), ("color", None)])
def test_a_missing_value_in_a_column_that_had_none_satisfies_no_literal_of_it(
        binarized_model, column, value):
    """fit accepts missing values in any column, and so does predict: a NaN (or None) in a
    column that had none at fit satisfies none of that column's literals, negations
    included, as at fit (a test fold may hold a column's only NaN)."""
    X = _first_row(column, value)
    models = getattr(binarized_model, "estimators_", [binarized_model])
    for m in models:
        binarizer = m.binarizer_
        A = np.asarray(binarizer.transform(X.iloc[:1]), dtype=bool)[0]
        of_column = [k for k, lit in enumerate(binarizer.literals_) if str(lit.feature) == column]
        assert of_column and not A[of_column].any()
    assert len(binarized_model.predict(X)) == len(X)


@pytest.mark.parametrize("value, message", [(np.inf, "inf")])
def test_decision_list_prediction_refuses_what_fit_refuses(value, message):
    X = np.arange(8.0)[:, None]
    model = DecisionListClassifier().fit(X, [0, 0, 0, 0, 1, 1, 1, 1])
    with pytest.raises(InputError, match=message):
        model.predict([[value]])
