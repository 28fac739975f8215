"""``binarizer="auto"``, the default of the learners that read literals: a table of 0/1
values is taken as it is, anything else is binarized by a FeatureBinarizer, and
``input_summary_`` (the last line of ``str(model)``) says which."""

import numpy as np
import pandas as pd
import pytest

from optirules.data import FeatureBinarizer
from optirules.errors import InputError
from optirules.learners import (
    BooleanRuleSetClassifier,
    BoostingClassifier,
)
from tests.internals import table_kind

from ._dro import dro


def _binary(seed=0, n=80, d=5):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, d))
    y = (X[:, 0] & X[:, 1]) | X[:, 2]
    flip = rng.random(n) < 0.1
    return X, np.where(flip, 1 - y, y)


def _raw(seed=0, n=90):
    rng = np.random.default_rng(seed)
    age = rng.integers(20, 80, n).astype(float)
    color = rng.choice(["red", "green", "blue"], n).astype(object)
    age[::11] = np.nan
    color[::13] = None
    y = ((np.nan_to_num(age, nan=50) > 50) & (color != "red")).astype(int)
    return pd.DataFrame({"age": age, "color": color}), y


@pytest.mark.parametrize("X, kind", [
    (np.array([[0, 1], [1, 0]]), "binary"),
    (np.array([[0.0, 1.0], [1.0, 1.0]]), "binary"),
    (np.array([[True, False]]), "binary"),
    (pd.DataFrame({"a": [True, False], "b": [0, 1]}), "binary"),
    (pd.DataFrame({"a": pd.array([0, 1], dtype="Int64"), "b": [1, 0]}), "binary"),
    (np.array([[0, 2], [1, 0]]), "numeric"),
    (np.array([[0.5, 1.0]]), "numeric"),
    (np.array([[0.0, np.nan]]), "raw"),
    (np.array([[0.0, np.inf]]), "raw"),
    (pd.DataFrame({"a": pd.array([0, None], dtype="Int64")}), "raw"),
    (pd.DataFrame({"a": ["x", "y"]}), "raw"),
    (pd.DataFrame({"a": pd.Categorical([0, 1])}), "raw"),
    (np.array([["0", "1"]]), "raw"),
    (np.array([0, 1]), "raw"),  # 1-D: the learner's own check refuses it
])
def test_table_kind(X, kind):
    assert table_kind(X) == kind


@pytest.mark.parametrize("cls, kw", [
    (BooleanRuleSetClassifier, dict(max_degree=2, random_state=0)),
    (dro, dict(complexity=8, n_estimators=2, max_degree=2, random_state=0)),
])
def test_a_0_1_table_is_taken_as_it_is(cls, kw):
    X, y = _binary()
    auto = cls(**kw).fit(X, y)
    none = cls(binarizer=None, **kw).fit(X, y)
    params = auto.get_params()
    assert params.get("binarizer", params.get("member__binarizer")) == "auto"
    assert auto.binarizer_ is None
    assert [str(lit) for lit in auto.literals_] == [str(lit) for lit in none.literals_]
    np.testing.assert_array_equal(auto.predict_proba(X), none.predict_proba(X))
    assert auto.input_summary_ == none.input_summary_
    assert "5 0/1 columns taken as they are" in auto.input_summary_
    assert str(auto).splitlines()[-1] == auto.input_summary_
    # a 0/1 model reads 0/1 at prediction time too, and says why it refuses anything else
    with pytest.raises(InputError, match="fitted on 0/1 columns taken as they are"):
        auto.predict(X + 0.5)
    # the summary survives JSON
    back = type(auto).from_json(auto.to_json())
    assert back.input_summary_ == auto.input_summary_
    np.testing.assert_array_equal(back.predict(X), auto.predict(X))


@pytest.mark.parametrize("cls, kw", [
    (BooleanRuleSetClassifier, dict(max_degree=2, random_state=0)),
    (dro, dict(complexity=8, n_estimators=2, max_degree=2, random_state=0)),
])
def test_raw_data_is_binarized(cls, kw):
    X, y = _raw()
    auto = cls(**kw).fit(X, y)
    explicit = cls(binarizer=FeatureBinarizer(), **kw).fit(X, y)
    assert isinstance(auto.binarizer_, FeatureBinarizer)
    assert [str(lit) for lit in auto.literals_] == \
        [str(lit) for lit in explicit.literals_]
    np.testing.assert_array_equal(auto.predict_proba(X), explicit.predict_proba(X))
    n = len(auto.literals_)
    assert auto.input_summary_ == f"input: binarized by FeatureBinarizer into {n} literals"
    assert str(auto).splitlines()[-1] == auto.input_summary_


def test_one_non_binary_column_binarizes_the_table():
    X, y = _binary()
    X = X.astype(float)
    X[:, 4] = np.linspace(0, 3, len(X))
    est = BooleanRuleSetClassifier(max_degree=2, random_state=0).fit(X, y)
    assert isinstance(est.binarizer_, FeatureBinarizer)
    # its 0/1 columns become one threshold each (x <= 0.5, x > 0.5)
    assert "x0 <= 0.5" in [str(lit) for lit in est.literals_]


def test_boosting_reads_numbers_as_they_are_unless_its_weak_learner_needs_0_1():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(120, 3))
    y = (X[:, 0] + 0.3 * X[:, 1] > 0).astype(int)
    stump = BoostingClassifier(n_estimators=5).fit(X, y)
    assert stump.binarizer_ is None
    assert stump.input_summary_ == "input: 3 numeric columns taken as they are"
    none = BoostingClassifier(n_estimators=5, binarizer=None).fit(X, y)
    np.testing.assert_array_equal(stump.decision_function(X), none.decision_function(X))
    parity = BoostingClassifier(weak_learner="parity", n_estimators=5).fit(X, y)
    assert isinstance(parity.binarizer_, FeatureBinarizer)
    assert parity.input_summary_.startswith("input: binarized by FeatureBinarizer")
    Xr, yr = _raw()
    raw = BoostingClassifier(n_estimators=5).fit(Xr, yr)
    assert isinstance(raw.binarizer_, FeatureBinarizer)
    assert str(raw).splitlines()[-1] == raw.input_summary_
    back = BoostingClassifier.from_json(raw.to_json())
    assert back.input_summary_ == raw.input_summary_
    np.testing.assert_array_equal(back.predict(Xr), raw.predict(Xr))
    Xb, yb = _binary()
    assert BoostingClassifier(weak_learner="literal", n_estimators=3).fit(Xb, yb).binarizer_ \
        is None


def test_one_vs_rest_says_it_once():
    from sklearn.datasets import load_wine

    X, y = load_wine(return_X_y=True, as_frame=True)
    est = BooleanRuleSetClassifier(max_degree=1, random_state=0).fit(X, y)
    lines = str(est).splitlines()
    assert est.input_summary_ == est.estimators_[0].input_summary_
    assert lines[-1] == est.input_summary_
    assert sum(line.strip() == est.input_summary_ for line in lines) == 1
    assert BooleanRuleSetClassifier.from_json(est.to_json()).input_summary_ == \
        est.input_summary_
