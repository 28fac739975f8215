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
from tests.helpers import and_or_data


@pytest.fixture(scope="module")
def saved():
    X, y = and_or_data()
    models = [
        BooleanRuleSetClassifier(max_degree=2, random_state=0).fit(X, y),
        BoostingClassifier(weak_learner="literal", n_estimators=5).fit(X, y),
        DRORuleEnsembleClassifier(n_estimators=2, random_state=0,
                                  member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=2)).fit(X, y),
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
    X, y = and_or_data()
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
    ("column", -1, r"rules\[0\]\.conditions\[0\]\.column' must be an integer"),
    ("feature", "no_such_column", "unknown column"),
])
def test_rule_conditions_reading_missing_columns_are_refused(field, value, message):
    import pandas as pd

    X, y = and_or_data()
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    for model in (BooleanRuleSetClassifier(max_degree=2, random_state=0),
                  DRORuleEnsembleClassifier(n_estimators=2, random_state=0,
                                            member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=2))):
        data = json.loads(model.fit(frame, y).to_json())
        _first_condition(data)[field] = value
        with pytest.raises(InputError, match=message):
            type(model).from_json(json.dumps(data))


@pytest.mark.parametrize("tamper, message", [
    (lambda d: d.update(weights=[1.0] * 7), "'weights' must hold 2 values, not 7"),
    (lambda d: d.update(weights=[-1.0] * len(d["weights"])), r"'weights\[0\]' must be >= 0"),
    (lambda d: d.update(weights=[0.0] * len(d["weights"])), "not all zero"),
    (lambda d: d.pop("members"), "'members' is missing"),
    (lambda d: d.update(members=[{"rules": [{"conditions": [{"op": "=="}]}]}]),
     r"'members\[0\]\.rules\[0\]\.conditions\[0\]\.feature' is missing"),
])
def test_dro_ensemble_bodies_are_checked(saved, tamper, message):
    _X, models = saved
    cls, _pred, data = models[2]
    bad = json.loads(json.dumps(data))
    tamper(bad)
    with pytest.raises(InputError, match=message):
        cls.from_json(json.dumps(bad))


# ---------------------------------------------------------------- what fit accepts, JSON keeps
def _learners_on_raw_data():
    return [
        BooleanRuleSetClassifier(max_degree=1, binarizer="auto", random_state=0),
        DRORuleEnsembleClassifier(n_estimators=2, random_state=0,
                                  member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=1, binarizer="auto")),
        BoostingClassifier(weak_learner="stump", binarizer="auto", n_estimators=3),
        DecisionListClassifier(max_degree=1),
    ]


@pytest.mark.parametrize("model", _learners_on_raw_data(), ids=lambda m: type(m).__name__)
def test_integer_column_names_round_trip(model):
    """A model fitted on a DataFrame whose columns are named 0, 1, 2 reads them by position
    after loading, as the fitted model does (not by a name 'x0' the frame lacks)."""
    import pandas as pd

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(80, 3)).round(2))
    y = np.where(X[0] + 0.3 * X[2] > 0, 1, 0)
    model.fit(X, y)
    back = type(model).from_json(model.to_json())
    np.testing.assert_array_equal(back.predict(X), model.predict(X))
    np.testing.assert_allclose(back.predict_proba(X), model.predict_proba(X))


@pytest.mark.parametrize("model", _learners_on_raw_data()[:3], ids=lambda m: type(m).__name__)
def test_datetime_columns_round_trip(model):
    """A datetime column's categories (Timestamps) are saved as ISO text and restored as
    Timestamps, so a loaded model that tests ``when == <date>`` predicts as the fitted one."""
    import pandas as pd

    rng = np.random.default_rng(1)
    days = pd.date_range("2021-01-01", periods=4, freq="D")
    X = pd.DataFrame({"when": rng.choice(days, 120), "noise": rng.normal(size=120)})
    y = (X["when"] == days[1]).astype(int).to_numpy()
    model.fit(X, y)
    text = model.to_json()
    assert "__datetime__" in text
    back = type(model).from_json(text)
    np.testing.assert_array_equal(back.predict(X), model.predict(X))
    np.testing.assert_array_equal(back.predict(X), y)  # the date test carries over exactly
    assert type(back).from_json(back.to_json()).predict(X).tolist() == y.tolist()


def test_damaged_datetime_values_are_refused():
    import pandas as pd

    rng = np.random.default_rng(1)
    days = pd.date_range("2021-01-01", periods=4, freq="D")
    X = pd.DataFrame({"when": rng.choice(days, 80)})
    y = (X["when"] == days[2]).astype(int).to_numpy()
    text = BooleanRuleSetClassifier(max_degree=1, binarizer="auto").fit(X, y).to_json()
    bad = text.replace('"__datetime__": "2021-01-03T00:00:00"', '"__datetime__": "someday"')
    assert bad != text
    with pytest.raises(InputError, match="conditions\\[0\\]\\.value' holds the unreadable"):
        BooleanRuleSetClassifier.from_json(bad)


@pytest.mark.parametrize("model", _learners_on_raw_data(), ids=lambda m: type(m).__name__)
def test_to_json_writes_atomically(model, tmp_path):
    """to_json(path) replaces the file whole and leaves no temporary file; a folder that
    does not exist is an OutputError and nothing is written."""
    import pandas as pd

    from optirules.errors import OutputError

    X, y = and_or_data()
    frame = pd.DataFrame(X, columns=list("abcd"))
    model.fit(frame, y)
    target = tmp_path / "model.json"
    target.write_text("old content that is longer than nothing " * 100)
    text = model.to_json(target)
    assert target.read_text() == text
    assert [p.name for p in tmp_path.iterdir()] == ["model.json"]
    np.testing.assert_array_equal(type(model).from_json(target).predict(frame),
                                  model.predict(frame))
    with pytest.raises(OutputError, match="does not exist"):
        model.to_json(tmp_path / "missing" / "model.json")
    assert not (tmp_path / "missing").exists()


def test_multiclass_to_json_writes_atomically_and_reads_its_parts(tmp_path):
    X, _y = and_or_data(n=90)
    y = X[:, 0] + X[:, 1] + X[:, 2] * 0  # three classes: 0, 1, 2
    model = BooleanRuleSetClassifier(max_degree=1, random_state=0).fit(X, y)
    path = tmp_path / "ovr.json"
    model.to_json(path)
    back = BooleanRuleSetClassifier.from_json(path)
    np.testing.assert_array_equal(back.predict(X), model.predict(X))
    doc = json.loads(path.read_text())
    doc["one_vs_rest"][1]["scores"]["default_precision"] = 7
    with pytest.raises(InputError, match=r"in one_vs_rest\[1\] .*'scores\.default_precision' "
                                         r"must be in \[0, 1\], not 7"):
        BooleanRuleSetClassifier.from_json(json.dumps(doc))
    doc = json.loads(path.read_text())
    doc["one_vs_rest"] = doc["one_vs_rest"][:2]
    with pytest.raises(InputError, match="'one_vs_rest' must hold 3 values, not 2"):
        BooleanRuleSetClassifier.from_json(json.dumps(doc))
    doc = json.loads(path.read_text())
    doc["classes"] = [0, 1, float("nan")]
    with pytest.raises(InputError, match="'classes'"):
        BooleanRuleSetClassifier.from_json(json.dumps(doc))


@pytest.mark.parametrize("damage, message", [
    (lambda b: b["params"].update(bogus=1), "FeatureBinarizer has no parameter 'bogus'"),
    (lambda b: b.update(params=[1]), r"'params\.binarizer\.params' must be an object"),
    (lambda b: b.update(params="abc"), r"'params\.binarizer\.params' must be an object"),
])
def test_damaged_saved_binarizer_parameters_are_refused(damage, message):
    """A saved FeatureBinarizer parameter block that FeatureBinarizer cannot take is one
    InputError naming it (it was a TypeError)."""
    from optirules.data import FeatureBinarizer

    X, y = and_or_data()
    model = BooleanRuleSetClassifier(max_degree=1, binarizer=FeatureBinarizer(n_thresholds=3),
                                      random_state=0).fit(X.astype(float), y)
    doc = json.loads(model.to_json())
    assert doc["params"]["binarizer"]["__estimator__"] == "FeatureBinarizer"
    back = BooleanRuleSetClassifier.from_json(json.dumps(doc))
    np.testing.assert_array_equal(back.predict(X.astype(float)), model.predict(X.astype(float)))
    damage(doc["params"]["binarizer"])
    with pytest.raises(InputError, match=message):
        BooleanRuleSetClassifier.from_json(json.dumps(doc))


# ---------------------------------------------------------------------- BooleanRuleSetCV
def _cv_frame(k=2, n=80, seed=0):
    import pandas as pd

    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"age": rng.integers(20, 80, n).astype(float),
                      "colour": rng.choice(["red", "green", "blue"], n)})
    signal = (X.age > 50).astype(int) + (X.colour == "red").astype(int)
    labels = np.array(["no", "yes"]) if k == 2 else np.array(["a", "b", "c"])
    return X, labels[np.clip(signal.to_numpy(), 0, k - 1)]


@pytest.fixture(scope="module")
def saved_cv():
    import warnings

    from optirules.learners import BooleanRuleSetCV

    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k in (2, 3):
            X, y = _cv_frame(k)
            cv = BooleanRuleSetCV(BooleanRuleSetClassifier(max_degree=1, binarizer="auto"),
                                  penalties=(0.005, (0.01, 0.02), 0.05), cv=2,
                                  selection="one_se").fit(X, y)
            out[k] = (cv, X, y)
    return out


@pytest.mark.parametrize("k", [2, 3])
def test_rule_set_cv_round_trip(saved_cv, k, tmp_path):
    from optirules.learners import BooleanRuleSetCV

    cv, X, y = saved_cv[k]
    doc = json.loads(cv.to_json(tmp_path / "cv.json"))
    assert doc["format"] == "optirules.BooleanRuleSetCV"
    assert doc["best_estimator"]["format"] == "optirules.BooleanRuleSetClassifier"
    back = BooleanRuleSetCV.from_json(tmp_path / "cv.json")
    assert isinstance(back, BooleanRuleSetCV)
    assert back.get_params()["selection"] == "one_se"
    assert back.get_params()["penalties"] == [0.005, [0.01, 0.02], 0.05]
    assert isinstance(back.estimator, BooleanRuleSetClassifier)
    assert back.estimator.get_params()["max_degree"] == 1
    assert back.penalty_ == cv.penalty_ and back.best_index_ == cv.best_index_
    assert back.status_ == cv.status_ and back.n_splits_ == cv.n_splits_
    assert set(back.cv_results_) == set(cv.cv_results_)
    for key, values in cv.cv_results_.items():
        np.testing.assert_array_equal(back.cv_results_[key], values)
    np.testing.assert_array_equal(back.classes_, cv.classes_)
    np.testing.assert_array_equal(back.predict(X), cv.predict(X))
    np.testing.assert_array_equal(back.predict_proba(X), cv.predict_proba(X))
    np.testing.assert_array_equal(back.decision_function(X), cv.decision_function(X))
    if k == 2:
        np.testing.assert_array_equal(back.decision_rules(X), cv.decision_rules(X))
        assert back.rules_ == cv.rules_
    import pandas as pd

    pd.testing.assert_frame_equal(back.rules_table(X, y), cv.rules_table(X, y))
    assert back.to_text() == cv.to_text()
    assert json.loads(back.to_json())["cv_results"] == doc["cv_results"]


def test_rule_set_cv_damage_names_the_field(saved_cv):
    from optirules.learners import BooleanRuleSetCV

    cv, _X, _y = saved_cv[2]
    doc = json.loads(cv.to_json())
    cases = [
        (("best_index",), 7, r"'best_index' must be an integer in \[0, 2\]"),
        (("penalty",), [1.0, 1.0], r"'penalty' must be the penalty of 'best_index'"),
        (("cv_results", "mean_score", 0), "abc", r"'cv_results\.mean_score\[0\]' must be a"),
        (("cv_results", "complete"), [True], r"'cv_results\.complete' must hold 3 values"),
        (("status",), 5, r"'status' must be a string"),
        (("params", "estimator", "params", "nonsense"), 1, r"has no parameter 'nonsense'"),
        (("best_estimator", "scores", "default_precision"), 5,
         r"in 'best_estimator'.*'scores\.default_precision' must be in \[0, 1\]"),
        (("classes",), ["no", "maybe"], r"'best_estimator' must read the search's columns"),
    ]
    from tests.learners.test_json_catalogue import with_value

    for path, value, message in cases:
        with pytest.raises(InputError, match=message):
            BooleanRuleSetCV.from_json(with_value(doc, path, value))
    with pytest.raises(InputError, match="not written by BooleanRuleSetCV"):
        BooleanRuleSetCV.from_json(json.dumps(doc["best_estimator"]))


def test_cli_predicts_with_a_saved_rule_set_cv(saved_cv, tmp_path, capsys):
    from optirules.cli import main

    cv, X, _y = saved_cv[2]
    cv.to_json(tmp_path / "cv.json")
    X.to_csv(tmp_path / "data.csv", index=False)
    out = tmp_path / "pred.csv"
    assert main(["predict", str(tmp_path / "cv.json"), str(tmp_path / "data.csv"),
                 "--output", str(out)]) == 0
    import pandas as pd

    pred = pd.read_csv(out)["prediction"].astype(str).to_numpy()
    np.testing.assert_array_equal(pred, cv.predict(X).astype(str))


def test_the_fairness_gap_survives_json():
    """A fair fit's ``fairness_gap_`` is saved and read back exactly (the rule set's and
    that of the search's best estimator); a fit without fairness has none after loading;
    a damaged gap is refused with its field named."""
    from optirules.learners import BooleanRuleSetCV
    from tests.learners.test_rule_set_fairness import KW, _table

    X, y, g = _table(3, n=120)
    est = BooleanRuleSetClassifier(fairness="equalized_odds", fairness_tolerance=0.1,
                                   **KW).fit(X, y, sensitive_features=g)
    assert 0 < est.fairness_gap_ <= 0.1 + 1e-9
    back = BooleanRuleSetClassifier.from_json(est.to_json())
    assert back.fairness_gap_ == est.fairness_gap_
    cv = BooleanRuleSetCV(est, cv=2, penalties=(0.001, 0.01)).fit(X, y,
                                                                  sensitive_features=g)
    back_cv = BooleanRuleSetCV.from_json(cv.to_json())
    assert back_cv.best_estimator_.fairness_gap_ == cv.best_estimator_.fairness_gap_
    free = BooleanRuleSetClassifier(**KW).fit(X, y)
    assert not hasattr(BooleanRuleSetClassifier.from_json(free.to_json()), "fairness_gap_")
    doc = json.loads(est.to_json())
    for bad in (-0.5, 3.0, "0.1"):
        doc["fit"]["fairness_gap"] = bad
        with pytest.raises(InputError, match="fairness_gap"):
            BooleanRuleSetClassifier.from_json(json.dumps(doc))
