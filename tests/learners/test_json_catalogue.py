"""A catalogue of damaged model files: every learner that saves itself is fitted once, its
JSON is damaged field by field (deleted, null, a string, negative, huge, NaN, infinite,
beyond int64, an empty list or object, nested too deeply) and as a whole (bytes that are
not UTF-8, truncated text), and each damaged file must either be refused with one
InputError that names the field or says the file is damaged, or load into a model whose
predictions and probabilities are sound and which saves and loads again.  No other
exception may escape."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest

from optirules.errors import InputError
from optirules.learners import (
    BooleanRuleSetClassifier,
    BooleanRuleSetCV,
    BoostingClassifier,
    DecisionListClassifier,
    DRORuleEnsembleClassifier,
)
from tests.internals import RuleSet

MARK = "__MUTATION__"
#: raw JSON texts that json.dumps cannot write from Python values
RAW = {
    "1e400": "1e400",
    "NaN": "NaN",
    "Infinity": "Infinity",
    "-Infinity": "-Infinity",
    "deep": "[" * 200 + "]" * 200,
    "very deep": "[" * 100_000 + "]" * 100_000,
}
VALUES = {
    "null": None, "abc": "abc", "empty": "", "0": 0, "-1": -1, "5": 5, "-3": -3, "0.5": 0.5, "2**63": 2**63,
    "-2**63-1": -(2**63) - 1, "true": True, "[]": [], "{}": {}, "[NaN-like]": ["x", None],
}
#: the words an InputError about a damaged file says
ACCEPTED = ("damaged", "not written by", "version", "not valid JSON", "nested too deeply",
            "UTF-8", "malformed")


def _frame(n=90, seed=0, k=2):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "age": rng.integers(20, 80, n).astype(float),
        "score": rng.normal(size=n).round(3),
        "colour": rng.choice(["red", "green", "blue"], n),
        "flag": rng.integers(0, 2, n),
    })
    signal = (X.age > 50).astype(int) + (X.colour == "red").astype(int)
    if k == 2:
        y = np.where(signal >= 1, "yes", "no")
    else:
        y = np.array(["a", "b", "c"])[np.clip(signal.to_numpy(), 0, 2)]
    return X, y


@pytest.fixture(scope="module")
def fitted():
    """One fitted model of every learner that saves itself, on a small mixed table."""
    X, y = _frame()
    X3, y3 = _frame(k=3, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        models = {
            "rule_set": (BooleanRuleSetClassifier(max_degree=2, binarizer="auto",
                                                  random_state=0).fit(X, y), X),
            "dro": (DRORuleEnsembleClassifier(n_estimators=2, random_state=0,
                                              member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=1, binarizer="auto")).fit(X, y), X),
            "boosting": (BoostingClassifier(weak_learner="stump", binarizer="auto",
                                            n_estimators=3).fit(X, y), X),
            "boosting_cart": (BoostingClassifier(weak_learner="cart", n_estimators=2)
                              .fit(X[["age", "score", "flag"]], y), X[["age", "score", "flag"]]),
            "decision_list": (DecisionListClassifier(max_degree=1).fit(X, y), X),
            "one_vs_rest": (BooleanRuleSetClassifier(max_degree=1, binarizer="auto",
                                                     random_state=0).fit(X3, y3), X3),
            "rule_set_cv": (BooleanRuleSetCV(BooleanRuleSetClassifier(max_degree=1,
                                                                       binarizer="auto"),
                                             penalties=(0.01, 0.05), cv=2).fit(X, y), X),
            "boosting_one_vs_rest": (BoostingClassifier(binarizer="auto", n_estimators=2)
                                     .fit(X3, y3), X3),
        }
    return {name: (model, X, model.to_json()) for name, (model, X) in models.items()}


def _paths(value, prefix=()):
    """Every place in a JSON tree; of a list, its first and last element."""
    if isinstance(value, dict):
        for key, v in value.items():
            yield (*prefix, key)
            yield from _paths(v, (*prefix, key))
    elif isinstance(value, list) and value:
        for i in sorted({0, len(value) - 1}):
            yield (*prefix, i)
            yield from _paths(value[i], (*prefix, i))


def with_value(doc, path, value):
    """The JSON text of ``doc`` with the value at ``path`` (keys and indices) replaced."""
    bad = json.loads(json.dumps(doc))
    parent = bad
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return json.dumps(bad)


def _mutated(doc, path, action):
    """The JSON text of ``doc`` with the value at ``path`` deleted or replaced."""
    bad = json.loads(json.dumps(doc))
    parent = bad
    for key in path[:-1]:
        parent = parent[key]
    if action == "delete":
        del parent[path[-1]]
        return json.dumps(bad)
    if action in RAW:
        parent[path[-1]] = MARK
        return json.dumps(bad).replace(json.dumps(MARK), RAW[action])
    parent[path[-1]] = VALUES[action]
    return json.dumps(bad)


def _check_loaded(cls, model, X):
    """A loaded model must predict its classes and give probabilities in [0, 1] that sum
    to 1, and save and load again with the same predictions."""
    pred = model.predict(X)
    assert len(pred) == len(X)
    assert np.isin(pred, model.classes_).all()
    proba = model.predict_proba(X)
    assert proba.shape == (len(X), len(model.classes_))
    assert np.all(np.isfinite(proba)) and np.all((proba >= 0) & (proba <= 1))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-9)
    again = cls.from_json(model.to_json())
    np.testing.assert_array_equal(again.predict(X), pred)


def _outcome(cls, load, X, other_columns=False, no_scores=False):
    """None when the damaged file is handled well, else what went wrong.

    ``other_columns``: the damage renamed a column, which leaves a sound model of other
    columns; it may refuse ``X`` with an InputError about the feature names.
    ``no_scores``: the damage removed the training scores, which leaves a file as saved
    before the scores were kept: it predicts and refuses probabilities (advising a refit)."""
    try:
        model = load()
    except InputError as exc:
        text = str(exc)
        return None if any(word in text for word in ACCEPTED) else f"vague InputError: {text}"
    except Exception as exc:  # noqa: BLE001 - the point of the catalogue
        return f"load raised {type(exc).__name__}: {str(exc)[:160]}"
    try:
        _check_loaded(cls, model, X)
    except InputError as exc:
        if other_columns and "feature names" in str(exc):
            return None
        if no_scores and "refit" in str(exc):
            model.predict(X)
            return None
        return f"loaded, then InputError: {str(exc)[:160]}"
    except Exception as exc:  # noqa: BLE001
        return f"loaded, then {type(exc).__name__}: {str(exc)[:160]}"
    return None


ACTIONS = ["delete", *VALUES, *RAW]
MODELS = ["rule_set", "dro", "boosting", "boosting_cart", "decision_list", "one_vs_rest",
          "rule_set_cv", "boosting_one_vs_rest"]


@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize("action", ACTIONS)
def test_every_damaged_field_is_refused_or_harmless(fitted, name, action):
    model, X, text = fitted[name]
    cls = type(model)
    doc = json.loads(text)
    paths = list(_paths(doc))
    if action == "very deep":
        paths = paths[:: max(1, len(paths) // 8)]  # slow to build: a sample of places
    problems = []
    for path in paths:
        bad = _mutated(doc, path, action)
        renamed = "feature_names_in" in path and action in ("abc", "empty")
        no_scores = path[-1] == "scores" and action in ("delete", "null")
        problem = _outcome(cls, lambda b=bad: cls.from_json(b), X, other_columns=renamed,
                           no_scores=no_scores)
        if problem:
            problems.append(f"{'.'.join(map(str, path))}: {problem}")
    assert not problems, f"{len(problems)} of {len(paths)} places:\n" + "\n".join(problems[:25])


@pytest.mark.parametrize("name", MODELS)
def test_non_utf8_bytes_and_truncations_are_input_errors(fitted, name, tmp_path):
    model, X, text = fitted[name]
    cls = type(model)
    raw = text.encode("utf-8")
    problems = []
    for i, at in enumerate(sorted({1, len(raw) // 3, len(raw) // 2, len(raw) - 2})):
        for junk in (b"\xff", b"\xc3\x28", b"\x80abc"):
            path = tmp_path / f"bytes{i}_{junk.hex()}.json"
            path.write_bytes(raw[:at] + junk + raw[at:])
            with pytest.raises(InputError, match="UTF-8|not valid JSON|damaged") as info:
                cls.from_json(path)
            if "UTF-8" in str(info.value):
                assert str(path) in str(info.value)
    for frac in (0.0, 0.1, 0.5, 0.9, 0.999):
        cut = text[: int(len(text) * frac)]
        path = tmp_path / f"cut{frac}.json"
        path.write_text(cut)
        for source in (path, cut) if cut.lstrip().startswith("{") else (path,):
            problem = _outcome(cls, lambda s=source: cls.from_json(s), X)
            if problem:
                problems.append(f"cut at {frac}: {problem}")
    assert not problems, "\n".join(problems)


def test_the_reader_names_the_damaged_field(fitted):
    """The messages point at the field: not a generic 'damaged', but where and why."""
    _model, _X, text = fitted["rule_set"]
    doc = json.loads(text)
    cases = [
        (("scores", "default_precision"), 5, r"'scores\.default_precision' must be in \[0, 1\]"),
        (("scores", "rule_precision", 0), -3, r"'scores\.rule_precision\[0\]' must be in"),
        (("fit", "n_iter"), "abc", r"'fit\.n_iter' must be an integer, not 'abc'"),
        (("fit",), [1], r"'fit' must be an object"),
        (("classes",), ["yes", "yes"], r"'classes' must be two distinct labels"),
    ]
    for path, value, message in cases:
        with pytest.raises(InputError, match=message):
            BooleanRuleSetClassifier.from_json(with_value(doc, path, value))
    nan_classes = text.replace('"classes": [\n    "no",\n    "yes"\n  ]', '"classes": [NaN, 1]')
    assert nan_classes != text
    with pytest.raises(InputError, match="'classes'.*no class label"):
        BooleanRuleSetClassifier.from_json(nan_classes)


@pytest.mark.parametrize("dtype, ok", [("<U1", False), ("<U3", True), ("object", True),
                                       ("<i8", False), ("|b1", False)])
def test_decision_list_class_dtype_must_hold_the_labels(fitted, dtype, ok):
    model, X, text = fitted["decision_list"]
    doc = json.loads(text)
    doc["classes_dtype"] = dtype
    if ok:
        loaded = DecisionListClassifier.from_json(json.dumps(doc))
        np.testing.assert_array_equal(loaded.predict(X), model.predict(X))
    else:
        with pytest.raises(InputError, match="'classes_dtype'.*cannot hold the labels"):
            DecisionListClassifier.from_json(json.dumps(doc))


def test_decision_list_counts_beyond_int64_are_refused(fitted):
    _model, _X, text = fitted["decision_list"]
    doc = json.loads(text)
    doc["default_counts"][0] = 2**64
    with pytest.raises(InputError, match=r"'default_counts\[0\]' must be an integer in"):
        DecisionListClassifier.from_json(json.dumps(doc))


def test_rule_set_json_damage_is_an_input_error(fitted):
    model, X, _text = fitted["rule_set"]
    text = model.rules_.to_json()
    doc = json.loads(text)
    problems = []
    for path in _paths(doc):
        for action in ACTIONS[:-1]:
            bad = _mutated(doc, path, action)
            try:
                rs = RuleSet.from_json(bad)
            except InputError:
                continue
            except Exception as exc:  # noqa: BLE001
                problems.append(f"{path} {action}: {type(exc).__name__}: {exc}")
                continue
            try:
                try:
                    rs.evaluate(X)
                except InputError as exc:  # a rule set alone may name any column
                    assert "no column" in str(exc)
                assert RuleSet.from_json(rs.to_json()) == rs
            except Exception as exc:  # noqa: BLE001
                problems.append(f"{path} {action}: loaded, then {type(exc).__name__}: {exc}")
    assert not problems, "\n".join(problems[:25])


def test_cli_predict_prints_the_damage_not_an_internal_error(fitted, tmp_path, capsys):
    from optirules.cli import main

    model, X, text = fitted["rule_set"]
    data = tmp_path / "data.csv"
    X.to_csv(data, index=False)
    cases = {
        "deep.json": text.replace('"fit": {', '"fit": ' + "[" * 100_000 + "]" * 100_000
                                  + ', "x": {', 1),
        "precision.json": text.replace('"default_precision": ', '"default_precision": 5, "_": ',
                                       1),
        "n_iter.json": text.replace('"n_iter": ', '"n_iter": 1e400, "_": ', 1),
    }
    for file, body in cases.items():
        assert body != text
        (tmp_path / file).write_text(body)
        code = main(["predict", str(tmp_path / file), str(data)])
        err = capsys.readouterr().err
        assert code != 0, file
        assert "internal error" not in err, err
        assert "damaged" in err or "nested too deeply" in err, err
    (tmp_path / "latin1.json").write_bytes(text.encode() + b"\xff")
    assert main(["predict", str(tmp_path / "latin1.json"), str(data)]) != 0
    assert "internal error" not in capsys.readouterr().err


def test_probabilities_of_any_loaded_rule_set_lie_in_0_1(fitted):
    """rule_precision 5 or default_precision -3 once gave probabilities from -4 to 5."""
    model, X, text = fitted["rule_set"]
    doc = json.loads(text)
    for key, value in (("default_precision", 5), ("default_precision", -3),
                       ("class_prior", 1.5)):
        bad = json.loads(json.dumps(doc))
        bad["scores"][key] = value
        with pytest.raises(InputError, match=f"'scores.{key}'"):
            BooleanRuleSetClassifier.from_json(json.dumps(bad))
    proba = BooleanRuleSetClassifier.from_json(text).predict_proba(X)
    assert np.all((proba >= 0) & (proba <= 1)) and not math.isnan(proba.sum())
