"""The JSON header that every saved rule set, DRO ensemble and boosting model starts with is
checked on load: a file the writer cannot have produced is refused with one InputError."""

from __future__ import annotations

import json

import numpy as np
import pytest

from optirules.errors import InputError
from optirules.learners import (
    BooleanRuleSetClassifier,
    BoostingClassifier,
    DecisionListClassifier,
    DRORuleEnsembleClassifier,
)


def _data(n=60, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, d))
    y = (X[:, 0] & X[:, 1]) | X[:, 2]
    return X, y


@pytest.fixture(scope="module")
def saved():
    X, y = _data()
    models = [
        BooleanRuleSetClassifier(max_degree=2, random_state=0).fit(X, y),
        BoostingClassifier(weak_learner="literal", n_estimators=5).fit(X, y),
        DRORuleEnsembleClassifier(n_estimators=2, max_degree=2, random_state=0).fit(X, y),
    ]
    return X, [(type(m), m.predict(X), json.loads(m.to_json())) for m in models]


TAMPERS = [
    (lambda d: d.update(version=99), "version 99"),
    (lambda d: d.pop("version"), "no 'version'"),
    (lambda d: d.update(classes=[0, 1, 2]), "two distinct labels"),
    (lambda d: d.update(classes=[0]), "two distinct labels"),
    (lambda d: d.update(classes=[1, 1]), "two distinct labels"),
    (lambda d: d["params"].update(bogus=1), "no parameter 'bogus'"),
    (lambda d: d.update(params=[1, 2]), "'params' is not an object"),
    (lambda d: d.update(n_features_in=0), "'n_features_in'"),
    (lambda d: d.update(n_features_in="4"), "'n_features_in'"),
    (lambda d: d.update(feature_names_in=["a"]), "'feature_names_in'"),
]


@pytest.mark.parametrize("tamper, message", TAMPERS)
def test_tampered_headers_are_refused(saved, tamper, message):
    _X, models = saved
    for cls, _pred, data in models:
        bad = json.loads(json.dumps(data))
        tamper(bad)
        with pytest.raises(InputError, match=message):
            cls.from_json(json.dumps(bad))


def test_untampered_files_load_and_predict_alike(saved):
    X, models = saved
    for cls, pred, data in models:
        np.testing.assert_array_equal(cls.from_json(json.dumps(data)).predict(X), pred)


def test_deep_nesting_is_an_input_error():
    text = '{"format": "optirules.BoostingClassifier", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    for cls in (BooleanRuleSetClassifier, BoostingClassifier, DRORuleEnsembleClassifier,
                DecisionListClassifier):
        with pytest.raises(InputError, match="nested too deeply"):
            cls.from_json(text)


@pytest.mark.parametrize("weak_learner, field, value", [
    ("literal", "feature", 999),
    ("literal", "feature", -1),
    ("stump", "feature", 999),
    ("parity", "features", [0, 999]),
    ("cart", "feature", [999] * 40),
    ("cart", "children_left", [0] * 40),   # a cycle: the walk would never end
])
def test_boosting_hypotheses_reading_missing_columns_are_refused(weak_learner, field, value):
    """A tampered hypothesis index is an InputError on load, not an IndexError (or an endless
    loop) at predict time."""
    X, y = _data()
    kw = {"binarizer": "auto"} if weak_learner in ("stump", "cart") else {}
    kw.update(max_degree=2) if weak_learner == "parity" else None
    clf = BoostingClassifier(weak_learner=weak_learner, n_estimators=3, random_state=0, **kw)
    data = json.loads(clf.fit(X.astype(float), y).to_json())
    h = data["hypotheses"][0]
    if weak_learner == "cart":
        h[field] = value[:len(h[field])]
    else:
        h[field] = value
    with pytest.raises(InputError, match="damaged|TreeHypothesis"):
        BoostingClassifier.from_json(json.dumps(data))


def _first_condition(data):
    rules = data["rules"] if "rules" in data else data["members"][0]
    return rules["rules"][0]["conditions"][0]


@pytest.mark.parametrize("field, value, message", [
    ("column", 999, "reads column 999"),
    ("column", -1, "reads column -1"),
    ("feature", "no_such_column", "unknown column"),
])
def test_rule_conditions_reading_missing_columns_are_refused(field, value, message):
    import pandas as pd

    X, y = _data()
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    for model in (BooleanRuleSetClassifier(max_degree=2, random_state=0),
                  DRORuleEnsembleClassifier(n_estimators=2, max_degree=2, random_state=0)):
        data = json.loads(model.fit(frame, y).to_json())
        _first_condition(data)[field] = value
        with pytest.raises(InputError, match=message):
            type(model).from_json(json.dumps(data))


@pytest.mark.parametrize("tamper, message", [
    (lambda d: d.update(weights=[1.0] * 7), "one finite, non-negative weight per member"),
    (lambda d: d.update(weights=[-1.0] * len(d["weights"])), "non-negative weight"),
    (lambda d: d.pop("members"), "incomplete or damaged"),
    (lambda d: d.update(members=[{"rules": [{"conditions": [{"op": "=="}]}]}]), "literal needs"),
])
def test_dro_ensemble_bodies_are_checked(saved, tamper, message):
    _X, models = saved
    cls, _pred, data = models[2]
    bad = json.loads(json.dumps(data))
    tamper(bad)
    with pytest.raises(InputError, match=message):
        cls.from_json(json.dumps(bad))
