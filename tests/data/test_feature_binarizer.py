"""FeatureBinarizer and Literal: semantics, thresholds, unseen data, errors, sklearn contract."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from optirules.data import load_dataset
from optirules.errors import InputError, NotFittedError
from tests.internals import FeatureBinarizer, Literal, _short_between, format_value

# ---------------------------------------------------------------------------------------------
# an independent, row-by-row reading of a literal (plain Python, no numpy comparisons)
# ---------------------------------------------------------------------------------------------


def _is_missing(v) -> bool:
    return v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v))


def _reference(lit: Literal, column_values) -> np.ndarray:
    out = []
    for v in column_values:
        missing = _is_missing(v)
        if lit.op == "is missing":
            out.append(missing)
        elif lit.op == "is not missing":
            out.append(not missing)
        elif missing:
            out.append(False)
        elif lit.op == "<=":
            out.append(float(v) <= lit.value)
        elif lit.op == ">":
            out.append(float(v) > lit.value)
        elif lit.op == "==":
            out.append(v == lit.value)
        else:
            out.append(not v == lit.value)
    return np.array(out, dtype=bool)


def _raw_column(X, lit: Literal) -> list:
    if isinstance(X, pd.DataFrame):
        return X[lit.feature].astype(object).tolist()
    return list(np.asarray(X, dtype=object)[:, lit.column])


def _assert_semantics(fb: FeatureBinarizer, X_fit, X_eval) -> np.ndarray:
    Z = fb.transform(X_eval)
    assert Z.dtype == np.uint8
    assert Z.shape == (len(X_eval), len(fb.literals_))
    assert set(np.unique(Z)) <= {0, 1}
    names = fb.get_feature_names_out()
    for k, lit in enumerate(fb.literals_):
        assert names[k] == str(lit)
        expected = _reference(lit, _raw_column(X_eval, lit))
        np.testing.assert_array_equal(Z[:, k].astype(bool), expected, err_msg=str(lit))
        np.testing.assert_array_equal(lit.evaluate(X_eval), expected, err_msg=str(lit))
    return Z


@pytest.fixture
def mixed() -> pd.DataFrame:
    return pd.DataFrame({
        "age": [25, 40, 52, 53, 70, 33, 61, np.nan],
        "color": ["red", "blue", "red", "green", None, "blue", "red", "green"],
        "flag": [True, False, True, True, False, False, True, False],
        "b": [0, 1, 1, 0, 1, 0, 0, 1],
        "size": pd.Categorical(["S", "M", "L", "M", "S", "L", "M", "S"],
                               categories=["S", "M", "L"], ordered=True),
    })


# ---------------------------------------------------------------------------------------------
# literal semantics
# ---------------------------------------------------------------------------------------------


def test_every_literal_equals_its_condition_on_mixed_data(mixed):
    fb = FeatureBinarizer(n_thresholds=2).fit(mixed)
    Z = _assert_semantics(fb, mixed, mixed)
    names = list(fb.get_feature_names_out())
    # 7 ages, CDFs 1/7..6/7 at the gaps: 1/3 is nearest 2/7 (33|40), 2/3 nearest 5/7 (53|61);
    # the threshold is the shortest decimal inside the gap (36 in (33, 40), 57 in (53, 61))
    assert names[:4] == ["age <= 36", "age > 36", "age <= 57", "age > 57"]
    # ordered categorical keeps its category order; bool and 0/1 columns give one pair
    assert names[-6:] == ["size == S", "size != S", "size == M", "size != M",
                          "size == L", "size != L"]
    assert "flag == False" in names and "flag == True" in names
    assert [n for n in names if n.startswith("b ")] == ["b <= 0.5", "b > 0.5"]
    assert "age is missing" in names and "color is missing" in names
    # a missing value satisfies only "is missing"
    row = Z[7]
    age_cols = [k for k, lit in enumerate(fb.literals_) if lit.feature == "age"]
    assert {names[k] for k in age_cols if row[k]} == {"age is missing"}


@pytest.mark.parametrize("name", ["heart_cleveland", "credit_g", "house_votes_84",
                                  "breast_cancer_wisconsin", "tic_tac_toe"])
def test_every_literal_equals_its_condition_on_bundled_data(name):
    X, _ = load_dataset(name)
    fb = FeatureBinarizer().fit(X)
    _assert_semantics(fb, X, X)


def test_literal_complements_are_complements_where_present():
    X, _ = load_dataset("heart_cleveland")
    fb = FeatureBinarizer().fit(X)
    Z = fb.transform(X).astype(bool)
    index = {lit: k for k, lit in enumerate(fb.literals_)}
    checked = 0
    for k, lit in enumerate(fb.literals_):
        neg = lit.negation()
        if neg in index:
            present = ~X[lit.feature].isna().to_numpy()
            if lit.op in ("is missing", "is not missing"):
                present[:] = True
            np.testing.assert_array_equal(Z[present, k], ~Z[present, index[neg]])
            assert not (Z[~present, k] | Z[~present, index[neg]]).any()
            checked += 1
    assert checked == len(fb.literals_)  # with negations every literal has its complement


def test_numpy_input_names_and_column_positions():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(50, 3))
    fb = FeatureBinarizer(n_thresholds=2).fit(X)
    names = fb.get_feature_names_out()
    assert all(n.split()[0] in {"x0", "x1", "x2"} for n in names)
    assert len(names) == 3 * 2 * 2
    _assert_semantics(fb, X, X)
    renamed = fb.get_feature_names_out(["a", "b", "c"])
    assert renamed[0].startswith("a <= ") and renamed[-1].startswith("c > ")


# ---------------------------------------------------------------------------------------------
# thresholds
# ---------------------------------------------------------------------------------------------


def test_deciles_of_one_to_hundred():
    X = np.arange(1, 101, dtype=float).reshape(-1, 1)
    fb = FeatureBinarizer().fit(X)
    np.testing.assert_array_equal(fb.thresholds_["x0"], np.arange(10, 100, 10) + 0.5)
    Z = fb.transform(X)
    # the "<=" literal of the k-th threshold holds for exactly k/10 of the rows
    np.testing.assert_allclose(Z[:, 0::2].mean(axis=0), np.arange(1, 10) / 10)


@pytest.mark.parametrize("values, n_thresholds, expected", [
    (list(range(1, 9)), 3, [2.5, 4.5, 6.5]),            # quartiles of 1..8
    ([1, 1, 1, 1, 1, 1, 2, 3, 4, 5], 1, [1.5]),         # CDFs .6,.7,.8,.9: .6 is nearest .5
    ([0] * 95 + [1] * 5, 9, [0.5]),                      # a 0/1 column gets one threshold
    ([1] * 95 + [0] * 5, 9, [0.5]),
    ([3, 1, 2, 2], 9, [1.5, 2.5]),                       # few values: every gap
    ([7, 7, 7], 9, []),                                  # constant: none
    ([0.1, 0.2, 0.2, 0.3], 9, [0.15, 0.25]),             # short decimals, no float noise
    ([52, 53], 9, [52.5]),
    ([-2.0, 1e-9], 9, [-1]),
])
def test_thresholds_on_known_examples(values, n_thresholds, expected):
    X = pd.DataFrame({"v": values})
    if not expected:
        with pytest.warns(UserWarning, match="no literal"):
            fb = FeatureBinarizer(n_thresholds=n_thresholds).fit(X)
    else:
        fb = FeatureBinarizer(n_thresholds=n_thresholds).fit(X)
    assert fb.thresholds_["v"].tolist() == expected


def test_threshold_names_read_well():
    X = pd.DataFrame({"age": [52, 53], "p": [0.1, 0.2]})
    names = list(FeatureBinarizer().fit(X).get_feature_names_out())
    assert names == ["age <= 52.5", "age > 52.5", "p <= 0.15", "p > 0.15"]


finite = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False, allow_infinity=False)


@settings(max_examples=30, deadline=None)
@given(finite, finite)
def test_short_between_stays_in_the_gap(a, b):
    if a == b:
        return
    a, b = min(a, b), max(a, b)
    t = _short_between(a, b)
    assert a <= t < b
    if np.nextafter(a, b) < b:  # some float lies strictly between
        assert a < t
    assert float(format_value(t)) == t  # the printed threshold is the threshold


# ---------------------------------------------------------------------------------------------
# unseen values, missing values, options
# ---------------------------------------------------------------------------------------------


def test_unseen_category_and_out_of_range_values(mixed):
    fb = FeatureBinarizer(n_thresholds=2).fit(mixed)
    new = pd.DataFrame({
        "age": [1000.0, -5.0, np.inf],
        "color": ["purple", "red", None],
        "flag": [True, False, True],
        "b": [7, -1, 0.5],
        "size": pd.Categorical(["XL", "S", None], categories=["S", "M", "L", "XL"]),
    })
    Z = _assert_semantics(fb, mixed, new)
    names = list(fb.get_feature_names_out())
    row = dict(zip(names, Z[0]))
    assert all(row[f"color == {c}"] == 0 for c in ("red", "blue", "green"))
    assert all(row[f"color != {c}"] == 1 for c in ("red", "blue", "green"))
    assert row["age > 57"] == 1 and row["b > 0.5"] == 1
    assert row["size == S"] == 0 and row["size != L"] == 1
    row = dict(zip(names, Z[1]))
    assert row["age <= 36"] == 1 and row["b <= 0.5"] == 1 and row["color == red"] == 1
    row = dict(zip(names, Z[2]))
    assert row["age > 57"] == 1  # +inf is compared, not missing
    assert row["color is missing"] == 1 and row["color != red"] == 0


def test_missing_at_transform_without_indicator_gives_zeros():
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0], "c": ["a", "b", "c"]})
    fb = FeatureBinarizer().fit(X)
    assert not any(lit.op == "is missing" for lit in fb.literals_)
    Z = fb.transform(pd.DataFrame({"x": [np.nan], "c": [None]}))
    assert Z.sum() == 0


def test_missing_indicator_option():
    X = pd.DataFrame({"x": [1.0, np.nan, 3.0, 4.0], "c": ["a", "b", None, "a"]})
    on = FeatureBinarizer().fit(X).get_feature_names_out()
    off = FeatureBinarizer(missing_indicator=False).fit(X).get_feature_names_out()
    assert {"x is missing", "x is not missing", "c is missing", "c is not missing"} <= set(on)
    assert not any("missing" in n for n in off)
    # an all-missing column gives no (constant) literal
    with pytest.warns(UserWarning):
        fb = FeatureBinarizer().fit(pd.DataFrame({"z": [np.nan, np.nan]}))
    assert fb.literals_ == []


def test_without_negations():
    X = pd.DataFrame({"x": np.arange(20.0), "c": list("abcd") * 5, "v": ["y", "n"] * 10,
                      "m": [1.0, np.nan] * 10})
    names = list(FeatureBinarizer(n_thresholds=3, negations=False).fit(X).get_feature_names_out())
    assert names == ["x <= 4.5", "x <= 9.5", "x <= 14.5", "c == a", "c == b", "c == c", "c == d",
                     "v == n", "m is missing"]


def test_categorical_features_by_name_position_and_mask():
    X, _ = load_dataset("monks1_train")
    by_name = FeatureBinarizer(categorical_features=["a1", "a5"]).fit(X)
    by_pos = FeatureBinarizer(categorical_features=[0, 4]).fit(X)
    by_mask = FeatureBinarizer(
        categorical_features=np.array([True, False, False, False, True, False])).fit(X)
    for fb in (by_pos, by_mask):
        assert list(fb.get_feature_names_out()) == list(by_name.get_feature_names_out())
    names = list(by_name.get_feature_names_out())
    assert names[:6] == ["a1 == 1", "a1 != 1", "a1 == 2", "a1 != 2", "a1 == 3", "a1 != 3"]
    assert "a2 <= 1.5" in names and "a5 == 4" in names
    _assert_semantics(by_name, X, X)


def test_numeric_looking_strings_are_quoted():
    X = pd.DataFrame({"code": np.array(["1", "2", "x"], dtype=object)})
    names = list(FeatureBinarizer().fit(X).get_feature_names_out())
    assert names[:2] == ["code == '1'", "code != '1'"] and "code == x" in names


def test_deterministic_and_row_order_free():
    X, _ = load_dataset("credit_g")
    a = FeatureBinarizer().fit(X).literals_
    b = FeatureBinarizer().fit(X.sample(frac=1.0, random_state=3)).literals_
    assert a == b


# ---------------------------------------------------------------------------------------------
# sklearn integration
# ---------------------------------------------------------------------------------------------


def test_pipeline_with_logistic_regression_on_data_with_missing_values():
    X, y = load_dataset("breast_cancer_wisconsin")  # bare_nuclei has 16 missing values
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    pipe = make_pipeline(FeatureBinarizer(), LogisticRegression(max_iter=1000))
    pipe.fit(X_tr, y_tr)
    assert pipe.score(X_te, y_te) >= 0.93
    names = pipe[0].get_feature_names_out()
    assert "bare_nuclei is missing" in names
    assert pipe[-1].coef_.shape == (1, len(names))


def test_set_output_pandas(mixed):
    fb = FeatureBinarizer().set_output(transform="pandas").fit(mixed)
    out = fb.transform(mixed)
    assert isinstance(out, pd.DataFrame)
    assert list(out.columns) == [str(lit) for lit in fb.literals_]
    assert out.index.equals(mixed.index)


@parametrize_with_checks([FeatureBinarizer(), FeatureBinarizer(n_thresholds=2, negations=False)])
def test_sklearn_compatible(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check(estimator)


# ---------------------------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:X does not have valid feature names")
def test_errors_on_bad_input(mixed):
    with pytest.raises(InputError, match="0 sample"):
        FeatureBinarizer().fit(mixed.iloc[:0])
    with pytest.raises(InputError, match="0 feature"):
        FeatureBinarizer().fit(np.empty((3, 0)))
    with pytest.raises(InputError, match="y has shape"):
        FeatureBinarizer().fit(mixed, np.zeros(3))
    with pytest.raises(InputError, match="n_thresholds"):
        FeatureBinarizer(n_thresholds=0).fit(mixed)
    with pytest.raises(InputError, match="infinite"):
        FeatureBinarizer().fit(pd.DataFrame({"x": [1.0, np.inf]}))
    with pytest.raises(InputError, match="'nope'"):
        FeatureBinarizer(categorical_features=["nope"]).fit(mixed)
    with pytest.raises(InputError, match="1D array"):
        FeatureBinarizer().fit(np.arange(5.0))
    with pytest.raises(NotFittedError):
        FeatureBinarizer().transform(mixed)

    fb = FeatureBinarizer().fit(mixed)
    with pytest.raises(InputError, match="X has 4 features, but FeatureBinarizer is expecting 5"):
        fb.transform(mixed.iloc[:, :4].to_numpy())
    renamed = mixed.rename(columns={"color": "colour"})
    with pytest.raises(InputError, match="(?s)Feature names unseen at fit time:.*colour"):
        fb.transform(renamed)
    bad = mixed.assign(age=["old"] * len(mixed))
    with pytest.raises(InputError, match="column 'age' must hold numbers.*'old'"):
        fb.transform(bad)


def test_literal_value_objects():
    lit = Literal("age", ">", np.float64(52.5), 0)
    assert str(lit) == "age > 52.5" and isinstance(lit.value, float)
    assert str(lit.negation()) == "age <= 52.5"
    assert Literal.from_dict(lit.to_dict()) == lit
    assert str(Literal("ca", "is missing")) == "ca is missing"
    assert str(Literal("color", "!=", "red")) == "color != red"
    np.testing.assert_array_equal(lit.evaluate(np.array([[60.0], [50.0], [np.nan]])),
                                  [True, False, False])
    np.testing.assert_array_equal(Literal("c", "!=", "a").evaluate(pd.Series(["a", "b", None])),
                                  [False, True, False])
    with pytest.raises(InputError, match="unknown literal operator"):
        Literal("x", "<", 1.0)
    with pytest.raises(InputError, match="finite number"):
        Literal("x", "<=", "red")
    with pytest.raises(InputError, match="takes no value"):
        Literal("x", "is missing", 3)
    with pytest.raises(InputError, match="no column 'age'"):
        lit.evaluate(pd.DataFrame({"x": [1]}))


# ---------------------------------------------------------------------------------------------
# property test on random mixed tables
# ---------------------------------------------------------------------------------------------


@st.composite
def _tables(draw):
    n = draw(st.integers(2, 25))
    num = draw(st.lists(st.one_of(st.none(), st.integers(-5, 5).map(float),
                                  st.floats(-3, 3, allow_nan=False)), min_size=n, max_size=n))
    cat = draw(st.lists(st.one_of(st.none(), st.sampled_from(["a", "b", "c"])),
                        min_size=n, max_size=n))
    return pd.DataFrame({"num": pd.array(num, dtype="Float64").to_numpy(dtype=float,
                                                                        na_value=np.nan),
                         "cat": pd.Series(cat, dtype=object)})


@settings(max_examples=30, deadline=None)
@given(_tables(), _tables(), st.integers(1, 5), st.booleans())
def test_random_tables_match_reference(train, test, n_thresholds, negations):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        fb = FeatureBinarizer(n_thresholds=n_thresholds, negations=negations).fit(train)
    _assert_semantics(fb, train, test)
    Z = fb.transform(train)
    if Z.shape[1]:
        # no literal is constant on the training data
        assert (Z.min(axis=0) == 0).all() and (Z.max(axis=0) == 1).all()


def test_sample_weight_equals_repeated_rows():
    """Integer weights give the binarizer of the rows repeated (weighted quantiles), and a
    weight of 0 the binarizer without that row (its category and missing value included)."""
    rng = np.random.default_rng(3)
    n = 60
    X = pd.DataFrame({"x": rng.normal(size=n).round(3), "z": rng.integers(0, 40, size=n),
                      "c": rng.choice(["a", "b"], size=n)})
    X.loc[5, "c"] = "only_here"
    X.loc[7, "x"] = np.nan
    w = rng.integers(0, 4, size=n)
    w[5] = w[7] = 0
    weighted = FeatureBinarizer(n_thresholds=4).fit(X, sample_weight=w)
    repeated = FeatureBinarizer(n_thresholds=4).fit(X.loc[np.repeat(np.arange(n), w)])
    assert [str(lit) for lit in weighted.literals_] == [str(lit) for lit in repeated.literals_]
    assert "only_here" not in weighted.categories_["c"]
    unweighted = FeatureBinarizer(n_thresholds=4).fit(X)
    assert [str(lit) for lit in unweighted.literals_] != [str(lit) for lit in weighted.literals_]
    with pytest.raises(InputError, match="sample_weight"):
        FeatureBinarizer().fit(X, sample_weight=-np.ones(n))
    with pytest.raises(InputError, match="sample_weight"):
        FeatureBinarizer().fit(X, sample_weight=np.ones(n - 1))
