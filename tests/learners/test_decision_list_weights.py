"""Row weights of the BruteDL decision list: ``fit(X, y, sample_weight)`` and ``class_weight``.

The invariant: a row of integer weight ``w`` counts as ``w`` repeated rows, so the weighted
fit is exactly the fit on the repeated rows (rules, counts, predictions, probabilities).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.utils.class_weight import compute_sample_weight

from optirules.errors import InputError
from tests.internals import (
    DecisionListClassifier,
    auto_min_coverage,
    minimum_osr,
    pack_rows,
    weighted_inverted_cdf,
)
from tests.internals import learners_decision_list_search_module as search


def _table(n: int, seed: int, positive_share: float = 0.4):
    """Numeric (with NaN), categorical (with missing) and integer columns."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n)
    a[rng.random(n) < 0.08] = np.nan
    b = rng.choice(["red", "green", "blue", None], size=n, p=[0.4, 0.3, 0.25, 0.05])
    c = rng.integers(0, 6, n).astype(float)
    d = rng.choice(["x", "y"], size=n)
    score = (np.nan_to_num(a) > 0.3) + (b == "red") + 0.5 * (c > 3) + 0.3 * rng.normal(size=n)
    y = (score > np.quantile(score, 1 - positive_share)).astype(int)
    X = pd.DataFrame({"a": a, "b": b, "c": c, "d": d})
    return X, y


def _repeat(X: pd.DataFrame, y: np.ndarray, w: np.ndarray):
    idx = np.repeat(np.arange(len(y)), w)
    return X.iloc[idx].reset_index(drop=True), y[idx]


def _same_model(a: DecisionListClassifier, b: DecisionListClassifier, X_test) -> None:
    assert a.to_text(stats=True) == b.to_text(stats=True)
    assert [r.class_counts for r in a.rules_] == [r.class_counts for r in b.rules_]
    np.testing.assert_array_equal(a.default_counts_, b.default_counts_)
    assert a.default_class_ == b.default_class_
    assert a.min_coverage_ == b.min_coverage_
    assert [f.to_dict() for f in a.features_] == [f.to_dict() for f in b.features_]
    np.testing.assert_array_equal(a.predict(X_test), b.predict(X_test))
    np.testing.assert_array_equal(a.predict_proba(X_test), b.predict_proba(X_test))


@pytest.fixture(params=["groups", "tables", "dense"])
def counter_mode(request, monkeypatch):
    """Every way of the weighted counter: popcounts per weight group, per-byte tables,
    unpacked covers times the class weights."""
    if request.param != "groups":
        monkeypatch.setattr(search, "MAX_WEIGHT_GROUPS", 0)
    if request.param == "dense":
        monkeypatch.setattr(search, "_MAX_TABLE_BYTES", 0)
    return request.param


@pytest.mark.parametrize("fallback", ["min_osr", "default"])
@pytest.mark.parametrize("params", [
    {"max_degree": 2, "min_coverage": 1},
    {"max_degree": 2},                                  # min_coverage="auto": total weight
    {"max_degree": 1, "min_coverage": 3, "osr_rows": "all"},
    {"max_degree": 3, "min_coverage": 2, "n_bins": 7, "max_rules": 6},
])
def test_integer_weights_equal_repeated_rows(fallback, params, counter_mode):
    X, y = _table(260, seed=1)
    X_test, _ = _table(200, seed=2)
    w = np.random.default_rng(3).integers(0, 4, len(y))
    Xr, yr = _repeat(X, y, w)
    weighted = DecisionListClassifier(fallback=fallback, **params).fit(X, y, sample_weight=w)
    repeated = DecisionListClassifier(fallback=fallback, **params).fit(Xr, yr)
    assert weighted.train_weights_ is not None and repeated.train_weights_ is None
    assert len(weighted.rules_) >= 2
    _same_model(weighted, repeated, X_test)
    # the test rows reach the fallback too, so Minimum OSR's weighted statistics are used
    assert (weighted.explain(X_test)["fallback"]).any()


def test_integer_weights_equal_repeated_rows_on_heart_cleveland(counter_mode):
    from optirules.data import load_dataset

    X, y = load_dataset("heart_cleveland")
    y = np.asarray(y)
    rng = np.random.default_rng(0)
    train = rng.random(len(y)) < 0.7
    Xtr, ytr, Xte = X[train].reset_index(drop=True), y[train], X[~train]
    w = rng.integers(0, 4, len(ytr))
    Xr, yr = _repeat(Xtr, ytr, w)
    for fallback in ("min_osr", "default"):
        a = DecisionListClassifier(fallback=fallback, min_coverage=1).fit(Xtr, ytr, w)
        b = DecisionListClassifier(fallback=fallback, min_coverage=1).fit(Xr, yr)
        _same_model(a, b, Xte)


def test_zero_weight_equals_the_removed_row(counter_mode):
    X, y = _table(240, seed=4)
    X_test, _ = _table(150, seed=5)
    rng = np.random.default_rng(6)
    w = rng.uniform(0.2, 3.0, len(y))
    w[rng.random(len(y)) < 0.2] = 0.0
    keep = w > 0
    for fallback in ("min_osr", "default"):
        a = DecisionListClassifier(fallback=fallback, min_coverage=1).fit(X, y, w)
        b = DecisionListClassifier(fallback=fallback, min_coverage=1).fit(
            X[keep].reset_index(drop=True), y[keep], w[keep])
        _same_model(a, b, X_test)
        assert a.train_codes_.shape[0] == keep.sum()


def test_zero_weight_rows_shape_neither_bins_nor_categories():
    X = pd.DataFrame({"num": [1.0, 2.0, 3.0, 4.0, 100.0, 200.0],
                      "cat": ["a", "a", "b", "b", "zzz", "zzz"]})
    y = np.array([0, 0, 1, 1, 0, 1])
    w = np.array([1, 1, 1, 1, 0, 0])
    clf = DecisionListClassifier(min_coverage=1, n_bins=2).fit(X, y, sample_weight=w)
    assert clf.features_[0].cuts == [2.0]
    assert clf.features_[1].categories == ["a", "b"]


def test_unit_weights_are_the_unweighted_fit():
    X, y = _table(200, seed=7)
    a = DecisionListClassifier(min_coverage=1).fit(X, y)
    b = DecisionListClassifier(min_coverage=1).fit(X, y, sample_weight=np.ones(len(y)))
    assert b.train_weights_ is None
    assert b.default_counts_.dtype == a.default_counts_.dtype == np.int64
    _same_model(a, b, X)


@pytest.mark.parametrize("class_weight", ["balanced", {0: 1.0, 1: 3.5}, {1: 0.25}])
def test_class_weight_equals_compute_sample_weight(class_weight):
    X, y = _table(300, seed=8, positive_share=0.2)
    X_test, _ = _table(150, seed=9)
    sw = compute_sample_weight(class_weight, y)
    a = DecisionListClassifier(class_weight=class_weight).fit(X, y)
    b = DecisionListClassifier().fit(X, y, sample_weight=sw)
    _same_model(a, b, X_test)
    np.testing.assert_array_equal(a.train_weights_, b.train_weights_)
    # it multiplies sample_weight
    w = np.random.default_rng(10).uniform(0.5, 2.0, len(y))
    c = DecisionListClassifier(class_weight=class_weight).fit(X, y, sample_weight=w)
    d = DecisionListClassifier().fit(X, y, sample_weight=sw * w)
    _same_model(c, d, X_test)


def test_balanced_class_weight_finds_more_of_the_minority_class():
    X, y = _table(3000, seed=11, positive_share=0.06)
    X_test, y_test = _table(3000, seed=12, positive_share=0.06)
    assert 0.04 < y.mean() < 0.08
    for fallback in ("min_osr", "default"):
        plain = DecisionListClassifier(fallback=fallback).fit(X, y)
        balanced = DecisionListClassifier(fallback=fallback, class_weight="balanced").fit(X, y)
        p_plain, p_bal = plain.predict(X_test), balanced.predict(X_test)
        recall_plain = p_plain[y_test == 1].mean()
        recall_bal = p_bal[y_test == 1].mean()
        assert p_bal.sum() > p_plain.sum()
        assert recall_bal > recall_plain


@pytest.mark.parametrize("weights, match", [
    (lambda n: -np.ones(n), "negative"),
    (lambda n: np.r_[np.nan, np.ones(n - 1)], "NaN"),
    (lambda n: np.r_[np.inf, np.ones(n - 1)], "infinity"),
    (lambda n: np.ones(n + 1), "sample_weight"),
    (lambda n: np.zeros(n), "zero"),
])
def test_bad_weights_raise_input_error(weights, match):
    X, y = _table(50, seed=13)
    with pytest.raises(InputError, match=match):
        DecisionListClassifier().fit(X, y, sample_weight=weights(len(y)))


def test_bad_class_weight_and_one_class_left_raise_input_error():
    X, y = _table(50, seed=14)
    with pytest.raises(InputError, match="class_weight"):
        DecisionListClassifier(class_weight="heavy").fit(X, y)
    with pytest.raises(InputError, match="not in y"):
        DecisionListClassifier(class_weight={7: 2.0}).fit(X, y)
    with pytest.raises(InputError, match="positive weight"):
        DecisionListClassifier().fit(X, y, sample_weight=(y == 1).astype(float))


def test_auto_min_coverage_uses_the_total_weight():
    X, y = _table(400, seed=15)
    w = np.full(len(y), 2.5)
    clf = DecisionListClassifier().fit(X, y, sample_weight=w)
    assert clf.min_coverage_ == auto_min_coverage(1000.0) == 20
    assert auto_min_coverage(1001.5) == 21 and auto_min_coverage(30.5) == 2
    # every rule covers at least min_coverage_ of weight
    assert all(r.coverage >= clf.min_coverage_ for r in clf.rules_)


def test_weighted_coverage_in_text_and_rules_table():
    X, y = _table(300, seed=16)
    w = np.random.default_rng(17).uniform(0.5, 1.5, len(y))
    clf = DecisionListClassifier(min_coverage=1).fit(X, y, sample_weight=w)
    assert all(isinstance(c, float) for r in clf.rules_ for c in r.class_counts)
    first = clf.rules_[0]
    assert f"[covers {first.coverage:.6g}, Laplace {first.laplace:.4f}]" in \
        clf.to_text(stats=True).splitlines()[0]
    table = clf.rules_table()
    np.testing.assert_allclose(table["support"].iloc[:-1], [r.coverage for r in clf.rules_])
    assert table["support"].sum() == pytest.approx(w.sum())


def test_weighted_counter_equals_direct_weight_sums(counter_mode):
    rng = np.random.default_rng(18)
    for n in (1, 63, 64, 65, 700):
        k = 3
        y = rng.integers(0, k, n)
        w = rng.uniform(0.1, 5.0, n)
        if counter_mode == "groups":
            w = rng.choice([0.5, 1.0, 3.0], n)
        covers = rng.random((40, n)) < 0.4
        class_bits = pack_rows(y[None, :] == np.arange(k)[:, None])
        counter = search._WeightedCounter(class_bits, w, class_bits.shape[1], buffer_words=64)
        assert counter.mode == counter_mode
        got = counter.counts(pack_rows(covers))
        want = np.stack([(covers * (w * (y == c))).sum(axis=1) for c in range(k)], axis=1)
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_weighted_quantiles_equal_quantiles_of_repeated_values():
    rng = np.random.default_rng(19)
    for trial in range(300):
        n = int(rng.integers(1, 50))
        x = rng.integers(0, 8, n).astype(float) if trial % 2 else rng.normal(size=n)
        w = rng.integers(1, 6, n)
        levels = np.arange(1, int(rng.integers(2, 12))) / 10
        np.testing.assert_array_equal(
            weighted_inverted_cdf(x, w.astype(float), levels),
            np.quantile(np.repeat(x, w), levels, method="inverted_cdf"))


def test_minimum_osr_weighted_equals_repeated_rows():
    rng = np.random.default_rng(20)
    n, p, k = 120, 4, 2
    codes = rng.integers(0, 3, (n, p))
    y = (codes[:, 0] + rng.integers(0, 2, n) > 2).astype(int)
    w = rng.integers(1, 5, n)
    idx = np.repeat(np.arange(n), w)
    n_values = np.full(p, 3)
    for x in rng.integers(0, 3, (20, p)):
        miss = rng.random(p) < 0.2
        a = minimum_osr(codes, y, n_values, x, miss, k, weights=w.astype(float))
        b = minimum_osr(codes[idx], y[idx], n_values, x, miss, k)
        assert a.path == b.path and a.stop == b.stop
        np.testing.assert_array_equal(a.class_counts, b.class_counts)


@pytest.mark.parametrize("training_rows", ["all", "uncovered", "none"])
def test_weighted_json_round_trip(training_rows):
    X, y = _table(300, seed=21)
    X_test, _ = _table(200, seed=22)
    w = np.random.default_rng(23).uniform(0.3, 2.0, len(y))
    fallback = "default" if training_rows == "none" else "min_osr"
    osr_rows = "all" if training_rows == "all" else "uncovered"
    clf = DecisionListClassifier(fallback=fallback, osr_rows=osr_rows,
                                 class_weight={0: 1.0, 1: 2.0}).fit(X, y, sample_weight=w)
    text = clf.to_json(training_rows=training_rows)
    doc = json.loads(text)
    assert doc["version"] == 4
    back = DecisionListClassifier.from_json(text)
    assert back.class_weight == {0: 1.0, 1: 2.0}
    np.testing.assert_array_equal(back.predict_proba(X_test), clf.predict_proba(X_test))
    np.testing.assert_array_equal(back.default_counts_, clf.default_counts_)
    assert back.to_text(stats=True) == clf.to_text(stats=True)
    if training_rows == "none":
        assert "weights" not in doc["training"] and back.train_weights_ is None
    elif training_rows == "all":
        np.testing.assert_array_equal(back.train_weights_, clf.train_weights_)
    else:
        np.testing.assert_array_equal(back.train_weights_,
                                      clf.train_weights_[clf.uncovered_rows_])


def test_unweighted_json_keeps_integer_counts_and_version_3_files_load():
    X, y = _table(200, seed=24)
    clf = DecisionListClassifier(min_coverage=1).fit(X, y)
    doc = json.loads(clf.to_json())
    assert "weights" not in doc["training"]
    assert all(isinstance(c, int) for r in doc["rules"] for c in r["class_counts"])
    doc["version"] = 3
    del doc["params"]["class_weight"]
    back = DecisionListClassifier.from_json(json.dumps(doc))
    assert back.train_weights_ is None and back.default_counts_.dtype == np.int64
    np.testing.assert_array_equal(back.predict_proba(X), clf.predict_proba(X))


def _negative_weights(doc: dict) -> str:
    import base64

    n = doc["training"]["weights"]["shape"][0]
    return base64.b64encode((-np.ones(n)).astype("<f8").tobytes()).decode()


@pytest.mark.parametrize("damage", [
    lambda d: d["rules"][0].__setitem__("class_counts", [-1.5, 2.0]),
    lambda d: d.__setitem__("default_counts", [0.5, -2.0]),
    lambda d: d["training"]["weights"].__setitem__("shape", [3]),
    lambda d: d["training"]["weights"].__setitem__("data", "!!"),
    lambda d: d["training"]["weights"].__setitem__("data", _negative_weights(d)),
])
def test_weighted_json_damage_is_refused(damage):
    X, y = _table(200, seed=25)
    w = np.random.default_rng(26).uniform(0.3, 2.0, len(y))
    clf = DecisionListClassifier(min_coverage=1).fit(X, y, sample_weight=w)
    doc = json.loads(clf.to_json(training_rows="all"))
    damage(doc)
    with pytest.raises(InputError):
        DecisionListClassifier.from_json(json.dumps(doc))
