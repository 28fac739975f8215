"""BruteDL decision lists with Minimum OSR (the Minimum OSR paper): formulas, search, OSR, I/O, errors."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.utils.estimator_checks import parametrize_with_checks

from optirules.errors import InputError
from tests.internals import (
    AUTO_MIN_COVERAGE_DIVISOR,
    DecisionListClassifier,
    auto_min_coverage,
    best_conjunction,
    class_entropy,
    grow_decision_list,
    information_measure,
    laplace_accuracy,
    minimum_osr,
    pack_rows,
    popcount,
    significance_statistic,
    unpack_rows,
)

CHI2_95 = 3.841458820694124  # chi-square quantile, 1 degree of freedom, 0.95


# --------------------------------------------------------------------------- formulas
def test_laplace_accuracy_hand_values():
    assert laplace_accuracy([3, 1]) == pytest.approx(4 / 6)
    assert laplace_accuracy([0, 0, 5]) == pytest.approx(6 / 8)
    assert laplace_accuracy([2, 2], n_classes=2) == pytest.approx(3 / 6)
    np.testing.assert_allclose(laplace_accuracy(np.array([[3, 1], [0, 7]])), [4 / 6, 8 / 9])


def test_class_entropy_and_information_measure_hand_values():
    assert class_entropy([2, 2]) == pytest.approx(1.0)
    assert class_entropy([4, 0]) == 0.0
    assert class_entropy([1, 1, 2]) == pytest.approx(1.5)
    # IM = sum_v P(v) H(C | v): half the rows at entropy 1, half pure
    assert information_measure([[2, 2], [4, 0]]) == pytest.approx(0.5)
    h = -(0.25 * math.log2(0.25) + 0.75 * math.log2(0.75))
    assert information_measure([[1, 3], [3, 1]]) == pytest.approx(h)
    # weights follow the value frequencies: 2 rows pure, 6 rows at 1/3 vs 2/3
    h3 = -(1 / 3 * math.log2(1 / 3) + 2 / 3 * math.log2(2 / 3))
    assert information_measure([[2, 0], [2, 4]]) == pytest.approx(6 / 8 * h3)


def test_significance_statistic_hand_values():
    # n = 10, O_c = 8, O_i = 2, E_c = 6, E_i = 4
    assert significance_statistic([8, 2], 0.6) == pytest.approx(4 / 6 + 4 / 4)
    # n = 20, O_c = 18, O_i = 2, E_c = 12, E_i = 8: 3 + 4.5
    assert significance_statistic([2, 18], 0.6) == pytest.approx(7.5)
    assert significance_statistic([2, 18], 0.6) > CHI2_95 > significance_statistic([8, 2], 0.6)


# --------------------------------------------------------------------------- bitsets
@settings(max_examples=25, deadline=None)
@given(st.integers(1, 6), st.integers(1, 200), st.integers(0, 10_000))
def test_bitset_and_popcount_equal_boolean_evaluation(m, n, seed):
    rng = np.random.default_rng(seed)
    a = rng.random((m, n)) < 0.5
    b = rng.random((m, n)) < 0.3
    pa, pb = pack_rows(a), pack_rows(b)
    assert pa.shape == (m, (n + 63) // 64) and pa.dtype == np.uint64
    np.testing.assert_array_equal(unpack_rows(pa, n), a)
    np.testing.assert_array_equal(popcount(pa), a.sum(axis=1))
    np.testing.assert_array_equal(popcount(pa & pb), (a & b).sum(axis=1))
    np.testing.assert_array_equal(unpack_rows(pa & pb, n), a & b)


# --------------------------------------------------------------------------- search
def _encode(codes: np.ndarray, n_values: list[int]):
    offsets = np.concatenate([[0], np.cumsum(n_values)[:-1]])
    av_attr = np.repeat(np.arange(len(n_values)), n_values)
    onehot = np.zeros((sum(n_values), codes.shape[0]), dtype=bool)
    for j in range(codes.shape[1]):
        onehot[offsets[j] + codes[:, j], np.arange(codes.shape[0])] = True
    return onehot, av_attr, offsets


def _brute_force_best(codes, y, k, n_values, max_degree, min_coverage):
    """Loop over every conjunction; order: LA desc, coverage desc, depth asc, lex asc."""
    offsets = np.concatenate([[0], np.cumsum(n_values)[:-1]])
    best_key, best = None, None
    p = codes.shape[1]
    for d in range(1, max_degree + 1):
        for attrs in itertools.combinations(range(p), d):
            for vals in itertools.product(*[range(n_values[a]) for a in attrs]):
                mask = np.ones(len(y), dtype=bool)
                for a, v in zip(attrs, vals):
                    mask &= codes[:, a] == v
                n = int(mask.sum())
                if n < min_coverage:
                    continue
                counts = np.bincount(y[mask], minlength=k)
                lap = (counts.max() + 1) / (n + k)
                conj = tuple(int(offsets[a] + v) for a, v in zip(attrs, vals))
                key = (-lap, -n, d, conj)
                if best_key is None or key < best_key:
                    best_key, best = key, (conj, counts, lap)
    return best


data_strategy = st.tuples(
    st.integers(2, 40),      # rows
    st.integers(1, 4),       # attributes
    st.integers(2, 3),       # classes
    st.integers(1, 3),       # max_degree
    st.integers(1, 3),       # min_coverage
    st.integers(0, 10_000),  # seed
)


def _random_data(n: int, p: int, k: int, seed: int):
    """Random codes of ``p`` attributes with 2-3 values, ``k`` classes, and their one-hot form."""
    rng = np.random.default_rng(seed)
    n_values = [int(v) for v in rng.integers(2, 4, size=p)]
    codes = np.column_stack([rng.integers(0, nv, size=n) for nv in n_values])
    y = rng.integers(0, k, size=n)
    onehot, av_attr, _ = _encode(codes, n_values)
    return codes, y, n_values, onehot, av_attr


@settings(max_examples=30, deadline=None)
@given(data_strategy)
def test_exhaustive_search_equals_brute_force_loop(params):
    n, p, k, depth, min_cov, seed = params
    codes, y, n_values, onehot, av_attr = _random_data(n, p, k, seed)
    av_bits = pack_rows(onehot)
    class_bits = pack_rows(y[None, :] == np.arange(k)[:, None])
    expected = _brute_force_best(codes, y, k, n_values, depth, min_cov)
    for prune in (True, False):
        # a tiny buffer forces many batches through the same code path
        conj, counts, lap, _ = best_conjunction(av_bits, class_bits, av_attr, depth, min_cov,
                                                prune=prune, buffer_words=8)
        if expected is None:
            assert conj is None
        else:
            assert conj == expected[0]
            np.testing.assert_array_equal(counts, expected[1])
            assert lap == pytest.approx(expected[2], abs=0)


@settings(max_examples=15, deadline=None)
@given(data_strategy)
def test_grown_list_equals_naive_brutedl_loop(params):
    n, p, k, depth, min_cov, seed = params
    codes, y, n_values, onehot, av_attr = _random_data(n, p, k, seed)
    steps, remaining, stop = grow_decision_list(onehot, y, k, av_attr, depth, min_cov)
    # the documented loop, written out with the brute-force search
    rest = np.arange(n)
    expected = []
    while rest.size:
        found = _brute_force_best(codes[rest], y[rest], k, n_values, depth, min_cov)
        if found is None:
            exp_stop = "min_coverage"
            break
        if found[2] <= laplace_accuracy(np.bincount(y[rest], minlength=k), k):
            exp_stop = "not_better_than_default"
            break
        expected.append(found[0])
        covered = onehot[list(found[0])][:, rest].all(axis=0)
        rest = rest[~covered]
    else:
        exp_stop = "all_covered"
    assert [s["conj"] for s in steps] == expected
    assert stop == exp_stop
    np.testing.assert_array_equal(remaining, rest)


# --------------------------------------------------------------------------- the estimator
def _color_size_data():
    rows = [("red", "big", 1), ("red", "small", 0), ("blue", "big", 0), ("blue", "small", 0)]
    rows = rows * 4
    X = pd.DataFrame([r[:2] for r in rows], columns=["color", "size"])
    y = np.array([r[2] for r in rows])
    return X, y


def test_list_built_as_documented_and_printed():
    X, y = _color_size_data()
    clf = DecisionListClassifier(max_degree=2, min_coverage=1).fit(X, y)
    # color=blue and size=small both cover 8 rows of class 0 (LA 9/10): the first in
    # attribute/value order wins; then size=big (4 rows of class 1, LA 5/6) ties with
    # size=small and color=red AND size=big, and wins as the shortest, first test; the 4
    # rows left (red, small) are all class 0, so no rule beats the default rule's 5/6.
    assert [str(r) for r in clf.rules_] == ["IF color = blue THEN 0", "IF size = big THEN 1"]
    assert [r.class_counts for r in clf.rules_] == [(8, 0), (0, 4)]
    assert clf.stop_reason_ == "not_better_than_default"
    assert clf.default_class_ == 0
    text = str(clf)
    assert text.splitlines()[:3] == ["IF color = blue THEN 0", "ELSE IF size = big THEN 1",
                                     "ELSE DEFAULT 0    (a row no rule covers gets a rule "
                                     "of its own, grown by Minimum OSR on the training rows "
                                     "no rule covers; this default only when its values are "
                                     "all missing or none of them occurs in those rows)"]
    np.testing.assert_array_equal(clf.predict(X), y)
    single = DecisionListClassifier(max_degree=2, min_coverage=1, max_rules=1).fit(
        X[X.color == "red"], y[X.color == "red"])
    assert str(single.rules_[0]) in ("IF size = big THEN 1", "IF size = small THEN 0")


def test_predictions_follow_the_printed_rules():
    rng = np.random.default_rng(3)
    n = 300
    X = pd.DataFrame({"a": rng.choice(["p", "q", "r"], n), "b": rng.choice(["u", "v"], n),
                      "c": rng.choice(["x", "y", "z"], n)})
    y = ((X.a == "p") & (X.b == "u") | (X.c == "z")).to_numpy().astype(int)
    flip = rng.random(n) < 0.1
    y[flip] = 1 - y[flip]
    clf = DecisionListClassifier(max_degree=2, fallback="default").fit(X, y)
    expected = []
    for _, row in X.iterrows():
        pred = clf.default_class_
        for rule in clf.rules_:
            if all(row[c.name] == c.label for c in rule.conditions):
                pred = rule.prediction
                break
        expected.append(pred)
    np.testing.assert_array_equal(clf.predict(X), expected)
    ex = clf.explain(X)
    assert ((ex.rule >= 0) == ~ex.fallback).all()
    proba = clf.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(clf.classes_[proba.argmax(axis=1)], clf.predict(X))


# --------------------------------------------------------------------------- Minimum OSR
def _osr(codes, y, x, missing=None, confidence=0.95):
    codes = np.asarray(codes)
    n_values = codes.max(axis=0) + 1
    x = np.asarray(x)
    missing = np.zeros(x.size, dtype=bool) if missing is None else np.asarray(missing)
    return minimum_osr(codes, np.asarray(y), n_values, x, missing, 2, confidence)


def _rows(*groups):
    """Rows from (count, a, b, class) groups."""
    codes, y = [], []
    for count, a, b, c in groups:
        codes += [[a, b]] * count
        y += [c] * count
    return np.array(codes), np.array(y)


def test_osr_stops_on_purity():
    # A = 1 holds only class 1, so A has the smallest IM and its branch is pure
    codes, y = _rows((10, 1, 0, 1), (10, 1, 1, 1), (12, 0, 0, 0), (8, 0, 1, 1))
    res = _osr(codes, y, [1, 0])
    assert res.path == ((0, 1),)
    assert res.stop == "pure" and not res.used_default
    np.testing.assert_array_equal(res.class_counts, [0, 20])


def test_osr_stops_when_not_significant():
    # node A = 1: 20 rows, 15 of class 1 (LA 16/22); its B = 1 branch: 10 rows, 8 of class 1.
    # IM(B) at the node is below the node entropy, but S against LA = 16/22 is tiny.
    codes, y = _rows((8, 1, 1, 1), (2, 1, 1, 0), (7, 1, 0, 1), (3, 1, 0, 0),
                     (19, 0, 1, 0), (1, 0, 0, 1))
    res = _osr(codes, y, [1, 1])
    assert res.path == ((0, 1),)
    assert res.stop == "not_significant"
    la = 16 / 22
    s = (8 - 10 * la) ** 2 / (10 * la) + (2 - 10 * (1 - la)) ** 2 / (10 * (1 - la))
    rejected = res.steps[-1]
    assert rejected["feature"] == 1 and not rejected["accepted"]
    assert rejected["s"] == pytest.approx(s) and s < CHI2_95
    h = class_entropy([5, 15])
    assert rejected["im"] < h
    np.testing.assert_array_equal(res.class_counts, [5, 15])
    # at a confidence so low that the critical value is below S, the step is taken
    low = _osr(codes, y, [1, 1], confidence=0.05)
    assert low.path == ((0, 1), (1, 1))


def test_osr_stops_when_im_does_not_decrease():
    # node A = 1: 10/10; B splits it into two halves with the same 5/5 mix: IM = H(node)
    codes, y = _rows((5, 1, 0, 0), (5, 1, 0, 1), (5, 1, 1, 0), (5, 1, 1, 1),
                     (10, 0, 0, 0), (10, 0, 1, 0))
    res = _osr(codes, y, [1, 1])
    assert res.path == ((0, 1),)
    assert res.stop == "no_im_decrease"
    assert res.steps[-1]["im"] == pytest.approx(1.0)
    assert res.steps[-1]["node_entropy"] == pytest.approx(1.0)


def test_osr_accepts_significant_steps_and_always_takes_the_root_test():
    # root: IM(A) = 0.5 (A = 0 is pure) < IM(B); node A = 1: 20/20 (LA 1/2); its B = 1
    # branch: 18 of class 1 and 2 of class 0, S = 8^2/10 + 8^2/10 = 12.8 > 3.84, so the
    # path goes two levels deep
    codes, y = _rows((18, 1, 1, 1), (2, 1, 1, 0), (2, 1, 0, 1), (18, 1, 0, 0),
                     (20, 0, 0, 0), (20, 0, 1, 0))
    res = _osr(codes, y, [1, 1])
    assert res.path == ((0, 1), (1, 1))
    assert res.steps[1]["s"] == pytest.approx(12.8)
    assert res.stop == "no_tests"
    np.testing.assert_array_equal(res.class_counts, [2, 18])
    # root test taken although its child is not significant against the root:
    # 20 rows 10/10 (LA 1/2), child A = 1 has 3 of 4 in class 1 -> S = 1 < 3.84
    codes2, y2 = _rows((3, 1, 0, 1), (1, 1, 0, 0), (7, 0, 0, 1), (9, 0, 0, 0))
    res2 = _osr(codes2[:, :1], y2, [1])
    assert res2.path == ((0, 1),) and not res2.used_default
    assert res2.stop == "no_tests"
    assert significance_statistic([1, 3], 0.5) == pytest.approx(1.0)


def test_osr_default_rule_only_in_the_two_named_cases():
    codes, y = _rows((10, 1, 0, 1), (10, 0, 1, 0), (5, 0, 0, 1))
    all_missing = _osr(codes, y, [-1, -1], missing=[True, True])
    assert all_missing.used_default and all_missing.stop == "all_missing"
    assert all_missing.path == ()
    np.testing.assert_array_equal(all_missing.class_counts, [10, 15])
    unseen = _osr(codes, y, [-1, -1], missing=[False, False])
    assert unseen.used_default and unseen.stop == "no_common_value"
    # one missing, one known: the path uses the known attribute only
    partial = _osr(codes, y, [-1, 1], missing=[True, False])
    assert not partial.used_default and partial.path == ((1, 1),)


def test_explain_reports_rule_osr_and_default():
    X, y = _color_size_data()
    X["shape"] = ["round", "flat"] * 8
    clf = DecisionListClassifier(max_degree=1, min_coverage=5).fit(X, y)
    test = pd.DataFrame({"color": ["blue", "green", None, "red"],
                         "size": ["big", "huge", None, "small"],
                         "shape": ["round", "oval", None, "flat"]})
    ex = clf.explain(test)
    assert ex.loc[0, "method"] == "rule" and not ex.loc[0, "fallback"]
    assert ex.loc[0, "text"] == str(clf.rules_[ex.loc[0, "rule"]])
    assert ex.loc[1, "method"] == "default" and ex.loc[1, "osr_stop"] == "no_common_value"
    assert ex.loc[2, "method"] == "default" and ex.loc[2, "osr_stop"] == "all_missing"
    assert bool(ex.fallback[1]) and bool(ex.fallback[2])
    if ex.loc[3, "method"] == "min_osr":
        assert ex.loc[3, "text"].startswith("IF ") and ex.loc[3, "osr_path"]
        assert ex.loc[3, "rule"] == -1 and ex.loc[3, "fallback"]
    np.testing.assert_array_equal(ex.prediction.to_numpy(), clf.predict(test))


def test_osr_rows_all_versus_uncovered():
    X, y = _color_size_data()
    clf = DecisionListClassifier(max_degree=2, min_coverage=1, osr_rows="all").fit(X, y)
    np.testing.assert_array_equal(np.sort(clf.uncovered_rows_),
                                  np.flatnonzero((X.color == "red") & (X["size"] == "small")))
    point = pd.DataFrame({"color": ["red"], "size": ["small"]})
    # all rows: IM(color) = IM(size) = 0.5 at the root, the first attribute wins; at
    # color = red (4/4, LA 1/2) size = small is pure, S = 2 + 2 = 4 > 3.84: accepted
    ex = clf.explain(point)
    assert ex.loc[0, "text"] == "IF color = red AND size = small THEN 0"
    assert ex.loc[0, "osr_stop"] == "pure"
    # uncovered rows only: the 4 (red, small) rows are all class 0, the root is a pure leaf
    clf.set_params(osr_rows="uncovered")
    ex_u = clf.explain(point)
    assert ex_u.loc[0, "text"] == "IF TRUE THEN 0" and ex_u.loc[0, "method"] == "min_osr"
    back = DecisionListClassifier.from_json(clf.to_json())
    pd.testing.assert_frame_equal(back.explain(point), ex_u)
    with pytest.raises(InputError, match="osr_rows"):
        clf.set_params(osr_rows="some").predict(point)


# --------------------------------------------------------------------------- features
def test_numeric_quantile_bins():
    x = np.arange(1, 101, dtype=float)
    X = np.column_stack([x, x[::-1]])
    y = (x > 50).astype(int)
    clf = DecisionListClassifier(n_bins=4, max_degree=1).fit(X, y)
    feat = clf.features_[0]
    assert feat.kind == "numeric"
    assert feat.cuts == [25.0, 50.0, 75.0]  # inverted-cdf quantiles: observed values
    assert feat.categories == ["(-inf, 25]", "(25, 50]", "(50, 75]", "(75, inf)"]
    assert np.bincount(clf.train_codes_[:, 0]).tolist() == [25, 25, 25, 25]
    np.testing.assert_array_equal(clf.predict([[0.0, 0.0], [1000.0, 0.0]]), [0, 1])
    assert clf.score(X, y) == 1.0
    # a 0/1 column keeps two non-empty bins
    clf2 = DecisionListClassifier(n_bins=5).fit(np.c_[np.r_[np.zeros(70), np.ones(30)]],
                                                np.r_[np.zeros(70), np.ones(30)])
    assert clf2.features_[0].cuts == [0.0]


def test_numeric_tests_print_as_the_rule_set_prints_them():
    """An interval bin prints as the rule set prints thresholds (``x <= a``, ``a < x <= b``,
    ``x > b``, the numbers in full as the rule set writes them), the missing value as
    ``x is missing`` and the one bin of a column without cuts as ``x is not missing``;
    a category keeps ``name = value``."""
    x = np.arange(1, 101, dtype=float)
    owner = (np.arange(100) % 3 == 0).astype(float)
    X = pd.DataFrame({"x": x / 3, "Home_owner": owner, "c": ["u", "v"] * 50})
    y = ((x > 25) & (x <= 50)).astype(int)
    clf = DecisionListClassifier(n_bins=4, max_degree=1, min_coverage=1).fit(X, y)
    cuts = clf.features_[0].cuts
    assert cuts == [25 / 3, 50 / 3, 75 / 3]
    a, b, c = "8.333333333333334", "16.666666666666668", "25"  # in full, 25.0 as 25
    assert [str(clf._condition(0, v)) for v in range(4)] == [
        f"x <= {a}", f"{a} < x <= {b}", f"{b} < x <= {c}", f"x > {c}"]
    assert [str(clf._condition(1, v)) for v in range(2)] == ["Home_owner <= 0",
                                                            "Home_owner > 0"]
    assert [str(clf._condition(2, v)) for v in range(2)] == ["c = u", "c = v"]
    assert clf.to_text().splitlines()[:2] == [f"IF x <= {a} THEN 0",
                                              f"ELSE IF {a} < x <= {b} THEN 1"]
    assert "(-inf" not in clf.to_text() and "inf)" not in clf.to_text()
    # what explain writes is the printed rule
    assert clf.explain(X.iloc[[30]])["text"][0] == f"IF {a} < x <= {b} THEN 1"
    # a column with NaN: its missing value; a column of NaN only: no cuts
    nan = X.assign(x=np.where(x % 10 == 0, np.nan, x), e=np.nan)
    fit = DecisionListClassifier(n_bins=4, max_degree=1).fit(nan, y)
    assert str(fit._condition(0, fit.features_[0].missing_code)) == "x is missing"
    assert [str(fit._condition(3, v)) for v in range(2)] == ["e is not missing",
                                                            "e is missing"]


@pytest.mark.parametrize("params, footer", [
    ({}, "(a row no rule covers gets a rule of its own, grown by Minimum OSR on the "
         "training rows no rule covers; this default only when its values are all missing "
         "or none of them occurs in those rows)"),
    ({"osr_rows": "all"}, "(a row no rule covers gets a rule of its own, grown by Minimum "
                          "OSR on all training rows; this default only when its values are "
                          "all missing or none of them occurs in those rows)"),
    ({"fallback": "default"}, "(a row no rule covers gets this default)"),
])
def test_the_default_line_says_what_a_row_no_rule_covers_gets(params, footer):
    X, y = _color_size_data()
    clf = DecisionListClassifier(max_degree=2, min_coverage=1, **params).fit(X, y)
    assert clf.to_text().splitlines()[-1] == f"ELSE DEFAULT 0    {footer}"


def test_missing_values_are_a_category_and_categorical_features_option():
    X = pd.DataFrame({"a": ["x", None, "y", "x", np.nan, "y"] * 3, "b": [1, 2, 3, 1, 2, 3] * 3})
    y = np.array([0, 1, 1, 0, 1, 1] * 3)
    clf = DecisionListClassifier(categorical_features=["b"], max_degree=1).fit(X, y)
    assert clf.features_[0].categories == ["?", "x", "y"]
    assert clf.features_[1].kind == "categorical" and clf.features_[1].categories == ["1", "2", "3"]
    assert clf.score(X, y) == 1.0
    clf_all = DecisionListClassifier(categorical_features="all").fit(X, y)
    assert all(f.kind == "categorical" for f in clf_all.features_)


# --------------------------------------------------------------------------- JSON
def test_json_round_trip_identical_predictions(tmp_path):
    rng = np.random.default_rng(0)
    n = 400
    X = pd.DataFrame({"c1": rng.choice(["a", "b", "c", None], n),
                      "c2": rng.choice(["u", "v"], n),
                      "num": rng.normal(size=n),
                      "c3": rng.choice(["p", "q", "r", "s"], n)})
    y = np.where((X.c1 == "a") & (X.num > 0) | (X.c3 == "s"), "yes", "no")
    flip = rng.random(n) < 0.15
    y[flip] = np.where(y[flip] == "yes", "no", "yes")
    clf = DecisionListClassifier(max_degree=2, min_coverage=8).fit(X[:300], y[:300])
    test = X[300:].copy()
    test.loc[test.index[:5], "c2"] = "unseen"
    back = DecisionListClassifier.from_json(clf.to_json())
    np.testing.assert_array_equal(back.predict(test), clf.predict(test))
    np.testing.assert_array_equal(back.predict_proba(test), clf.predict_proba(test))
    pd.testing.assert_frame_equal(back.explain(test), clf.explain(test))
    assert str(back) == str(clf)
    assert back.get_params() == clf.get_params()
    assert clf.explain(test).fallback.any()  # the fallback path is part of what is compared
    path = tmp_path / "dl.json"
    clf.to_json(path)
    from_file = DecisionListClassifier.from_json(path)
    np.testing.assert_array_equal(from_file.predict(test), clf.predict(test))
    with pytest.raises(InputError, match="to_json"):
        DecisionListClassifier.from_json('{"format": "something else"}')


# --------------------------------------------------------------------------- min_coverage="auto"
def test_auto_min_coverage_is_the_documented_formula():
    assert AUTO_MIN_COVERAGE_DIVISOR == 50
    for n in range(0, 3001):
        assert auto_min_coverage(n) == max(2, math.ceil(n / 50)), n
    # exact in integers where the float 0.02 * n is not (0.02 * 150 = 3.0000000000000004)
    assert auto_min_coverage(150) == 3 and auto_min_coverage(151) == 4
    assert [auto_min_coverage(n) for n in (1, 100, 101, 5000, 39073)] == [2, 2, 3, 100, 782]


def _noisy_wide_data(n: int, seed: int = 0):
    """Random labels on four 6-valued attributes: a list of small rules fits the noise."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({f"a{j}": rng.choice(list("pqrstu"), n) for j in range(4)})
    return X, rng.integers(0, 2, n)


def test_default_min_coverage_is_auto_and_the_fit_records_the_value_used():
    assert DecisionListClassifier().get_params()["min_coverage"] == "auto"
    assert DecisionListClassifier().get_params()["max_degree"] == 2
    X, y = _noisy_wide_data(1000)
    auto = DecisionListClassifier().fit(X, y)
    assert auto.min_coverage_ == auto_min_coverage(1000) == 20
    # "auto" is the integer it resolves to: the same list as a fit with that integer
    explicit = DecisionListClassifier(min_coverage=20).fit(X, y)
    assert explicit.min_coverage_ == 20
    assert auto.to_text(stats=True) == explicit.to_text(stats=True)
    np.testing.assert_array_equal(auto.predict(X), explicit.predict(X))
    # every rule covered at least min_coverage_ rows when it was added
    assert all(h["coverage"] >= 20 for h in auto.history_)
    # small data: 2, the earlier integer default
    small = DecisionListClassifier().fit(X[:100], y[:100])
    assert small.min_coverage_ == 2
    assert small.to_text() == DecisionListClassifier(min_coverage=2).fit(X[:100], y[:100]).to_text()


def test_auto_bounds_the_list_at_fifty_rules():
    X, y = _noisy_wide_data(3000, seed=1)
    old = DecisionListClassifier(min_coverage=2).fit(X, y)
    auto = DecisionListClassifier().fit(X, y)
    assert auto.min_coverage_ == 60
    assert len(old.rules_) > 50                 # the fixed coverage fits the noise
    assert len(auto.rules_) <= 3000 // 60 == 50
    deep = DecisionListClassifier(max_degree=3, min_coverage="auto").fit(X[:120], y[:120])
    assert deep.min_coverage_ == 3 and len(deep.rules_) <= 120 // 3


def test_auto_survives_json_and_is_logged(caplog):
    import json
    import logging

    X, y = _noisy_wide_data(400)
    with caplog.at_level(logging.INFO, logger="optirules"):
        clf = DecisionListClassifier(verbose=True).fit(X, y)
    assert any("min_coverage=8" in r.getMessage() for r in caplog.records)
    doc = json.loads(clf.to_json())
    assert doc["params"]["min_coverage"] == "auto" and doc["min_coverage_used"] == 8
    back = DecisionListClassifier.from_json(clf.to_json())
    assert back.min_coverage == "auto" and back.min_coverage_ == 8
    np.testing.assert_array_equal(back.predict(X), clf.predict(X))
    # a file written before "auto" existed holds the integer parameter only
    old = json.loads(DecisionListClassifier(min_coverage=5).fit(X, y).to_json())
    del old["min_coverage_used"]
    assert DecisionListClassifier.from_json(json.dumps(old)).min_coverage_ == 5


# --------------------------------------------------------------------------- errors
@pytest.mark.parametrize("params", [{"max_degree": 0}, {"max_degree": 1.5}, {"min_coverage": 0},
                                    {"min_coverage": "Auto"}, {"min_coverage": "2"},
                                    {"min_coverage": 2.5}, {"fallback": "vote"}, {"confidence": 1.0},
                                    {"n_bins": 1}, {"max_rules": 0},
                                    {"categorical_features": "some"}])
def test_bad_parameters_raise_input_error(params):
    X, y = _color_size_data()
    with pytest.raises(InputError):
        DecisionListClassifier(**params).fit(X, y)


def test_bad_data_raises_input_error():
    X, y = _color_size_data()
    with pytest.raises(InputError, match="one class"):
        DecisionListClassifier().fit(X, np.zeros(len(y)))
    with pytest.raises(InputError):
        DecisionListClassifier().fit(X, y[:-1])
    # no NaN at fit: a NaN at predict matches no test on its column (the default decides)
    plain = DecisionListClassifier().fit(np.array([[1.0], [0.0], [2.0], [3.0]]), [0, 1, 0, 1])
    assert len(plain.predict([[np.nan]])) == 1
    with pytest.raises(InputError, match="inf"):
        plain.predict([[np.inf]])
    with pytest.raises(InputError, match="inf"):
        DecisionListClassifier().fit(np.array([[1.0], [np.nan], [np.inf], [3.0]]), [0, 1, 0, 1])
    with pytest.raises(InputError, match="categorical_features"):
        DecisionListClassifier(categorical_features=["nope"]).fit(X, y)
    clf = DecisionListClassifier().fit(X.to_numpy(), y)
    with pytest.raises(InputError, match="features"):
        clf.predict(X.to_numpy()[:, :1])
    num = DecisionListClassifier().fit(np.arange(8.0)[:, None], [0, 0, 0, 0, 1, 1, 1, 1])
    with pytest.raises(InputError, match="inf"):
        num.predict([[np.inf]])


# --------------------------------------------------------------------------- scikit-learn
@parametrize_with_checks([DecisionListClassifier()])
def test_sklearn_compatible(estimator, check):
    # no expected failures: every check of scikit-learn's suite passes
    check(estimator)


# --------------------------------------------------------------------------- OSR rows
def _uncovered_negatives_data():
    """Two attributes A, B in {0, 1, 2}: 30 positives (A=1, B=0), 30 positives (A=0, B=1),
    4 negatives (A=2, B=2), 2 negatives (A=0, B=2)."""
    groups = [(30, 1, 0, 1), (30, 0, 1, 1), (4, 2, 2, 0), (2, 0, 2, 0)]
    rows = [(a, b, c) for count, a, b, c in groups for _ in range(count)]
    X = pd.DataFrame({"A": [str(r[0]) for r in rows], "B": [str(r[1]) for r in rows]})
    return X, np.array([r[2] for r in rows])


def test_osr_on_uncovered_rows_gets_the_uncovered_negatives_right():
    X, y = _uncovered_negatives_data()
    clf = DecisionListClassifier(max_degree=1, min_coverage=1, osr_rows="all").fit(X, y)
    # by hand: A=1, B=0, B=1 all cover 30 positives (LA 31/32, the best); A=1 comes first.
    # On the 36 rows left, B=1 (30 positives, 31/32) beats A=0 (30/2, 31/34).  The 6 rows
    # left are all negative, so no rule beats the default rule (7/8) and the search stops.
    assert [str(r) for r in clf.rules_] == ["IF A = 1 THEN 1", "IF B = 1 THEN 1"]
    assert clf.stop_reason_ == "not_better_than_default"
    assert sorted(y[clf.uncovered_rows_].tolist()) == [0] * 6
    test = pd.DataFrame({"A": ["0", "2", "0"], "B": ["0", "0", "2"]})
    truth = np.array([0, 0, 0])  # what the uncovered part of the training data says
    assert not clf.explain(test).rule.ge(0).any()  # no rule covers any of the three
    # all rows: IM(B) = 0 (each B value is pure) < IM(A) = 32/66 * H(2/32), so the root test
    # is B; the branch B = 0 holds the 30 positives (A=1, B=0): a pure leaf predicting 1
    ex_all = clf.explain(test)
    assert ex_all.text.tolist() == ["IF B = 0 THEN 1", "IF B = 0 THEN 1", "IF B = 2 THEN 0"]
    # uncovered rows only: the 6 negatives, a pure root, every point predicted 0
    clf.set_params(osr_rows="uncovered")
    ex_unc = clf.explain(test)
    assert ex_unc.text.tolist() == ["IF TRUE THEN 0"] * 3
    assert np.mean(ex_unc.prediction.to_numpy() == truth) == 1.0
    assert np.mean(ex_all.prediction.to_numpy() == truth) == pytest.approx(1 / 3)
    # brute force: the leaf of "all" is the majority class of the training rows with B = 0
    # (the attribute of least IM), of "uncovered" the majority of the uncovered rows
    assert np.bincount(y[X.B == "0"], minlength=2).argmax() == 1
    assert np.bincount(y[clf.uncovered_rows_], minlength=2).argmax() == 0
    # the default rule (majority of the uncovered rows) agrees with "uncovered" here
    assert (clf.set_params(fallback="default").predict(test) == truth).all()


def test_osr_rows_default_is_uncovered():
    assert DecisionListClassifier().get_params()["osr_rows"] == "uncovered"


# --------------------------------------------------------------------------- JSON storage
def _stored_rows(text: str) -> int:
    import json

    training = json.loads(text)["training"]
    return 0 if training["rows"] == "none" else training["codes"]["shape"][0]


def test_json_stores_only_the_rows_prediction_needs():
    X, y = _uncovered_negatives_data()
    test = pd.DataFrame({"A": ["0", "2", "0", "1"], "B": ["0", "0", "2", "2"]})
    clf = DecisionListClassifier(max_degree=1, min_coverage=1).fit(X, y)
    assert clf.training_rows_ == "all"
    # osr_rows="uncovered" (the default): the 6 uncovered rows, not the 66 training rows
    text = clf.to_json()
    assert _stored_rows(text) == 6 and '"rows": "uncovered"' in text
    back = DecisionListClassifier.from_json(text)
    assert back.training_rows_ == "uncovered"
    pd.testing.assert_frame_equal(back.explain(test), clf.explain(test))
    np.testing.assert_array_equal(back.predict_proba(test), clf.predict_proba(test))
    # asking the loaded model for Minimum OSR over all rows is a clear error, before work
    with pytest.raises(InputError, match="osr_rows='all'"):
        back.set_params(osr_rows="all").predict(test)
    np.testing.assert_array_equal(back.set_params(fallback="default").predict(test),
                                  clf.set_params(fallback="default").predict(test))
    # fallback="default": no training rows at all
    text_def = clf.to_json()
    assert _stored_rows(text_def) == 0 and '"codes"' not in text_def
    back_def = DecisionListClassifier.from_json(text_def)
    np.testing.assert_array_equal(back_def.predict(test), clf.predict(test))
    with pytest.raises(InputError, match="no training rows"):
        back_def.set_params(fallback="min_osr").predict(test)
    # osr_rows="all", or training_rows="all": every row, so every setting works after load
    clf.set_params(fallback="min_osr", osr_rows="all")
    assert _stored_rows(clf.to_json()) == 66
    full = DecisionListClassifier.from_json(clf.set_params(osr_rows="uncovered")
                                            .to_json(training_rows="all"))
    for rows in ("all", "uncovered"):
        clf.set_params(osr_rows=rows)
        full.set_params(osr_rows=rows)
        pd.testing.assert_frame_equal(full.explain(test), clf.explain(test))
    with pytest.raises(InputError, match="training_rows"):
        clf.to_json(training_rows="some")
    with pytest.raises(InputError, match="cannot store"):
        back.to_json(training_rows="all")


def test_json_is_packed_and_smaller_than_the_training_matrix():
    rng = np.random.default_rng(1)
    n = 2000
    X = pd.DataFrame({f"c{j}": rng.choice(list("abcd"), n) for j in range(8)})
    y = np.where((X.c0 == "a") | (X.c1 == "b"), 1, 0)
    y[rng.random(n) < 0.1] ^= 1
    clf = DecisionListClassifier(max_degree=2, min_coverage=5, osr_rows="all").fit(X, y)
    import json

    doc = json.loads(clf.to_json())
    codes = doc["training"]["codes"]
    assert codes["dtype"] == "|u1" and codes["shape"] == [n, 8]
    # one byte per value, base64: 4/3 byte per value (the version-1 lists took ~3)
    assert len(codes["data"]) == 4 * math.ceil(n * 8 / 3)
    back = DecisionListClassifier.from_json(json.dumps(doc))
    np.testing.assert_array_equal(back.train_codes_, clf.train_codes_)
    np.testing.assert_array_equal(back.train_y_, clf.train_y_)
    np.testing.assert_array_equal(back.uncovered_rows_, clf.uncovered_rows_)
    assert len(clf.set_params(osr_rows="uncovered").to_json()) < len(json.dumps(doc)) / 3


def test_json_version_1_files_are_read():
    import json

    X, y = _uncovered_negatives_data()
    clf = DecisionListClassifier(max_degree=1, min_coverage=1, osr_rows="all").fit(X, y)
    doc = json.loads(clf.to_json())
    doc["version"] = 1
    doc["params"]["max_depth"] = doc["params"].pop("max_degree")   # the old name
    del doc["params"]["verbose"]
    doc["training"] = {"codes": clf.train_codes_.T.tolist(), "y": clf.train_y_.tolist(),
                       "uncovered_rows": clf.uncovered_rows_.tolist()}
    back = DecisionListClassifier.from_json(json.dumps(doc))
    assert back.max_degree == 1
    test = pd.DataFrame({"A": ["0", "2"], "B": ["0", "0"]})
    pd.testing.assert_frame_equal(back.explain(test), clf.explain(test))


def test_json_version_2_files_name_max_depth():
    import json

    X, y = _uncovered_negatives_data()
    clf = DecisionListClassifier(max_degree=2, min_coverage=1).fit(X, y)
    doc = json.loads(clf.to_json())
    assert doc["version"] == 4 and doc["params"]["max_degree"] == 2
    doc["version"] = 2
    doc["params"]["max_depth"] = doc["params"].pop("max_degree")
    back = DecisionListClassifier.from_json(json.dumps(doc))
    assert back.max_degree == 2 and "max_depth" not in back.get_params()
    doc["version"] = 3                       # the current format knows no max_depth
    with pytest.raises(InputError, match="unknown parameters"):
        DecisionListClassifier.from_json(json.dumps(doc))


@pytest.mark.parametrize("damage", [
    lambda d: d["rules"][0]["conditions"][0].__setitem__(1, 99),      # value out of range
    lambda d: d["rules"][0]["conditions"][0].__setitem__(0, 7),       # attribute out of range
    lambda d: d["rules"][0].__setitem__("prediction", 2),
    lambda d: d["rules"][0].__setitem__("class_counts", [1]),
    lambda d: d["params"].__setitem__("evil", 1),
    lambda d: d["params"].__setitem__("max_degree", 0),
    lambda d: d.__setitem__("default_counts", [-1, 2]),
    lambda d: d.__setitem__("classes_dtype", "V8"),
    lambda d: d.__setitem__("n_features_in", 3),
    lambda d: d["features"][0].__setitem__("kind", "image"),
    lambda d: d["training"]["codes"].__setitem__("shape", [5, 2]),
    lambda d: d["training"]["codes"].__setitem__("dtype", "<f8"),
    lambda d: d["training"]["codes"].__setitem__("data", "!!"),
    lambda d: d["training"].__setitem__("uncovered_rows", [0, 0]),
    lambda d: d["training"].__setitem__("rows", "some"),
    lambda d: d.pop("rules"),
    lambda d: d.__setitem__("min_coverage_used", 0),
    lambda d: d.__setitem__("min_coverage_used", 5),    # the parameter says 1
    lambda d: d.__setitem__("min_coverage_used", True),
])
def test_json_damage_is_refused_on_load(damage):
    import json

    X, y = _uncovered_negatives_data()
    clf = DecisionListClassifier(max_degree=1, min_coverage=1, osr_rows="all").fit(X, y)
    doc = json.loads(clf.to_json())
    damage(doc)
    with pytest.raises(InputError):
        DecisionListClassifier.from_json(json.dumps(doc))


def test_json_out_of_range_training_codes_are_refused():
    import base64
    import json

    X, y = _uncovered_negatives_data()
    clf = DecisionListClassifier(max_degree=1, min_coverage=1, osr_rows="all").fit(X, y)
    doc = json.loads(clf.to_json())
    raw = bytearray(base64.b64decode(doc["training"]["codes"]["data"]))
    raw[0] = 200  # attribute A has 3 values
    doc["training"]["codes"]["data"] = base64.b64encode(bytes(raw)).decode()
    with pytest.raises(InputError, match="out of"):
        DecisionListClassifier.from_json(json.dumps(doc))


def test_verbose_logs_each_rule_and_the_stop(caplog):
    import logging

    X, y = _uncovered_negatives_data()
    with caplog.at_level(logging.INFO, logger="optirules"):
        clf = DecisionListClassifier(max_degree=2, min_coverage=1, verbose=True).fit(X, y)
    found = [r.getMessage() for r in caplog.records if r.getMessage().startswith("rule found")]
    assert len(found) == len(clf.rules_)
    for msg, rule in zip(found, clf.rules_):
        assert str(rule)[3:str(rule).index(" THEN")] in msg       # the rule's tests
        assert f"covers {rule.coverage}" in msg
    assert any(f"stopped ({clf.stop_reason_})" in r.getMessage() for r in caplog.records)
    assert {r.name for r in caplog.records} == {"optirules.learners.decision_list"}
    caplog.clear()
    DecisionListClassifier(max_degree=2, min_coverage=1).fit(X, y)
    assert not caplog.records


# --------------------------------------------------------------------------- time_limit
def _noisy_codes(seed=0, n=300):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n, 6)).astype(str)
    y = (X[:, 0] == X[:, 1]).astype(int) ^ (rng.random(n) < 0.1)
    return X, y


def test_time_limit_keeps_the_first_rules_of_the_full_list(monkeypatch):
    """Each rule search takes at least 0.03 s, so a limit of 0.1 s stops the list after a
    few rules on any machine; those rules are the full list's first ones."""
    import time

    from optirules.learners._decision_list import _search as search

    X, y = _noisy_codes()
    full = DecisionListClassifier(min_coverage=1, fallback="default").fit(X, y)
    assert full.status_ == "completed" and full.stop_reason_ != "time_limit"
    assert len(full.rules_) > 10
    search_once = search.best_conjunction

    def slow(*args, **kwargs):
        time.sleep(0.03)
        return search_once(*args, **kwargs)

    monkeypatch.setattr(search, "best_conjunction", slow)
    cut = DecisionListClassifier(min_coverage=1, fallback="default", time_limit=0.1).fit(X, y)
    monkeypatch.undo()
    k = len(cut.rules_)
    assert k < len(full.rules_) and cut.stop_reason_ == "time_limit"
    assert cut.status_.startswith(f"time_limit: stopped after {k} rule")
    assert "time_limit=0.1" in cut.status_ and "wall-clock" in cut.status_
    assert [str(r) for r in cut.rules_] == [str(r) for r in full.rules_[:k]]
    assert [r.class_counts for r in cut.rules_] == [r.class_counts for r in full.rules_[:k]]
    # the default rule is formed from the rows the kept rules leave uncovered
    left = np.ones(len(y), dtype=bool)
    for rule in cut.rules_:
        left &= ~rule.evaluate(cut.train_codes_)
    np.testing.assert_array_equal(cut.uncovered_rows_, np.flatnonzero(left))
    np.testing.assert_array_equal(cut.default_counts_, np.bincount(y[left], minlength=2))
    # predictions: the first k rules, then the default rule
    expected = np.full(len(y), cut.default_class_)
    taken = np.zeros(len(y), dtype=bool)
    for rule in cut.rules_:
        hit = ~taken & rule.evaluate(cut.train_codes_)
        expected[hit] = rule.prediction
        taken |= hit
    np.testing.assert_array_equal(cut.predict(X), expected)
    back = DecisionListClassifier.from_json(cut.to_json())
    assert back.status_ == cut.status_ and back.time_limit == 0.1


def test_no_time_limit_or_an_unreached_one_gives_the_same_list():
    X, y = _noisy_codes(seed=1)
    assert DecisionListClassifier().get_params()["time_limit"] is None
    none = DecisionListClassifier(min_coverage=1).fit(X, y)
    far = DecisionListClassifier(min_coverage=1, time_limit=1e6).fit(X, y)
    assert none.status_ == far.status_ == "completed"
    assert [str(r) for r in none.rules_] == [str(r) for r in far.rules_]
    assert none.stop_reason_ == far.stop_reason_
    np.testing.assert_array_equal(none.predict_proba(X), far.predict_proba(X))
    for bad in (0, -2.0, True, "1", math.inf):
        with pytest.raises(InputError, match="time_limit"):
            DecisionListClassifier(time_limit=bad).fit(X, y)


# --------------------------------------------------------------------------- numeric NaN
def _nan_data(seed=0, n=200):
    """Column a is NaN on a fifth of the rows, all of class 1; elsewhere y = [a > 0.5]."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.normal(size=n)
    nan = rng.random(n) < 0.2
    y = np.where(nan, 1, (a > 0.5).astype(int))
    a[nan] = np.nan
    return pd.DataFrame({"a": a, "b": b}), y, nan


@pytest.mark.parametrize("fallback", ["default", "min_osr"])
def test_numeric_nan_gets_an_is_missing_test_and_no_threshold_test(fallback):
    X, y, nan = _nan_data()
    clf = DecisionListClassifier(fallback=fallback).fit(X, y)
    fa, fb = clf.features_
    assert fa.kind == "numeric" and fa.categories[-1] == "?" and fa.missing_code >= 0
    assert len(fa.cuts) + 2 == len(fa.categories)
    assert fb.missing_code == -1 and "?" not in fb.categories  # b had no NaN
    # the bins are cut on the known values only
    np.testing.assert_array_equal(clf.train_codes_[nan, 0], fa.missing_code)
    assert (clf.train_codes_[~nan, 0] < fa.missing_code).all()
    # a NaN row satisfies no interval test of a: only the 'is missing' one
    codes, missing = clf._encode([X["a"].to_numpy(), X["b"].to_numpy()])
    np.testing.assert_array_equal(missing[:, 0], nan)
    for rule in clf.rules_:
        for cond in rule.conditions:
            if cond.feature == 0:
                assert cond.evaluate(codes)[nan].all() == (cond.label == "?")
                assert not (cond.label != "?" and cond.evaluate(codes)[nan].any())
    missing_rules = [r for r, rule in enumerate(clf.rules_)
                     if [str(c) for c in rule.conditions] == ["a is missing"]]
    assert missing_rules, clf.to_text()
    r = missing_rules[0]
    _, rule_idx, _ = clf._classify(X)
    # every NaN row is decided by a rule without interval tests on a: the 'is missing'
    # rule unless an earlier rule on b took it
    for i in np.flatnonzero(nan):
        if rule_idx[i] >= 0:
            assert all(c.feature != 0 or c.label == "?" for c in
                       clf.rules_[rule_idx[i]].conditions)
    followed = nan & (rule_idx == r)
    assert followed.any()
    np.testing.assert_array_equal(clf.predict(X)[followed], clf.rules_[r].prediction)
    # new rows: NaN in a follows the same rule when no earlier rule takes them
    new = pd.DataFrame({"a": [np.nan, np.nan], "b": X["b"][followed].to_numpy()[:2]})
    np.testing.assert_array_equal(clf.predict(new), clf.rules_[r].prediction)
    # a NaN in b, which had none at fit, matches no test on b: the row is decided by a
    unseen = pd.DataFrame({"a": [0.0], "b": [np.nan]})
    from tests.internals import encode_columns

    codes, missing = encode_columns(clf.features_, [unseen["a"].to_numpy(),
                                                   unseen["b"].to_numpy()])
    assert codes[0, 1] == -1 and missing[0, 1]
    assert len(clf.predict(unseen)) == 1


@pytest.mark.parametrize("training_rows", ["all", "uncovered", "none"])
def test_numeric_nan_json_round_trip(training_rows):
    X, y, nan = _nan_data(seed=1)
    fallback = "default" if training_rows == "none" else "min_osr"
    clf = DecisionListClassifier(fallback=fallback, min_coverage=1, max_rules=3).fit(X, y)
    back = DecisionListClassifier.from_json(clf.to_json(training_rows=training_rows))
    assert back.features_[0].categories == clf.features_[0].categories
    assert back.to_text() == clf.to_text()
    rows = pd.concat([X, pd.DataFrame({"a": [np.nan, np.nan, 0.7], "b": [0.0, 9.0, np.nan]})
                      .iloc[:2]], ignore_index=True)
    np.testing.assert_array_equal(back.predict(rows), clf.predict(rows))
    np.testing.assert_allclose(back.predict_proba(rows), clf.predict_proba(rows))
    unseen = pd.DataFrame({"a": [0.0], "b": [np.nan]})  # b had no NaN at fit: no test on b
    np.testing.assert_array_equal(back.predict(unseen), clf.predict(unseen))


def test_numeric_nan_in_an_array_and_an_all_missing_column():
    X, y, nan = _nan_data(seed=2)
    arr = X.to_numpy()
    clf = DecisionListClassifier().fit(arr, y)
    np.testing.assert_array_equal(clf.predict(arr), DecisionListClassifier().fit(X, y)
                                  .predict(X))
    empty = np.column_stack([arr, np.full(len(y), np.nan)])
    fit = DecisionListClassifier().fit(empty, y)
    assert fit.features_[2].categories == ["(-inf, inf)", "?"]
    assert fit.predict(empty).shape == y.shape
    DecisionListClassifier.from_json(fit.to_json()).predict(empty)
