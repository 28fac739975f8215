"""``to_sql``: the fitted rules as one SQL query, run by real engines (sqlite3 and DuckDB)
on whole bundled data sets and on a table built to be awkward (NaN in numeric and
categorical columns, categories never seen in training, names that need quoting, string
labels); every query's predictions equal ``predict`` row for row."""

from __future__ import annotations

import sqlite3

import numpy as np
import pandas as pd
import pytest

from optirules.data import FeatureBinarizer, load_dataset
from optirules.errors import InputError, NotFittedError
from optirules.learners import (
    BooleanRuleSetClassifier,
    DecisionListClassifier,
    DecisionListCV,
    DRORuleEnsembleClassifier,
)

duckdb = pytest.importorskip("duckdb")

ENGINES = ("sqlite", "duckdb")
ROW = "row id"  # the kept key column (a name that needs quoting)


def run_sql(query: str, X: pd.DataFrame, dialect: str, table: str = "data", *,
            nan_in_duckdb: bool = True) -> np.ndarray:
    """The query's predictions, in the row order of ``X`` (read back by the kept key).

    DuckDB: the NULLs of half the rows of every DOUBLE column are made NaN (DuckDB keeps NaN
    as a value, greater than every number); SQLite stores NaN as NULL by itself."""
    df = X.reset_index(drop=True).copy()
    df.insert(0, ROW, np.arange(len(df)))
    if dialect == "sqlite":
        con = sqlite3.connect(":memory:")
        df.to_sql(table, con, index=False)
        rows = con.execute(query).fetchall()
    else:
        con = duckdb.connect()
        con.register("frame", df)
        con.execute(f'CREATE TABLE "{table}" AS SELECT * FROM frame')
        con.unregister("frame")
        if nan_in_duckdb:
            for name, kind, *_ in con.execute(f'DESCRIBE "{table}"').fetchall():
                if kind == "DOUBLE":
                    q = '"' + name.replace('"', '""') + '"'
                    con.execute(f'UPDATE "{table}" SET {q} = \'nan\'::DOUBLE '
                                f'WHERE {q} IS NULL AND "{ROW}" % 2 = 0')
        rows = con.execute(query).fetchall()
    con.close()
    assert len(rows) == len(X)
    rows.sort(key=lambda r: r[0])
    assert [r[0] for r in rows] == list(range(len(X)))
    return np.array([r[1] for r in rows], dtype=object)


def mismatches(model, X: pd.DataFrame, dialect: str, *, table: pd.DataFrame | None = None,
               **kw) -> int:
    """Rows where the query on ``table`` (default ``X``) and ``predict(X)`` differ."""
    query = model.to_sql("data", dialect, keep=(ROW,))
    got = run_sql(query, X if table is None else table, dialect, **kw)
    want = model.predict(X)
    return int(sum(g != w for g, w in zip(got, want.tolist())))


def subsample(X, y, n, seed=0):
    idx = np.random.default_rng(seed).choice(len(y), size=min(n, len(y)), replace=False)
    return X.iloc[np.sort(idx)], np.asarray(y)[np.sort(idx)]


LEARNERS = {
    "rule_set": lambda: BooleanRuleSetClassifier(max_degree=1, random_state=0),
    "dro": lambda: DRORuleEnsembleClassifier(complexity=10, random_state=0,
                                             member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=1)),
    "decision_list": lambda: DecisionListClassifier(max_degree=2, fallback="default"),
}
DATASETS = ("adult", "magic_gamma", "mushroom", "heart_cleveland", "house_votes_84")


@pytest.fixture(scope="module")
def bundled():
    """Per data set: the whole table and the three learners fitted on 400 of its rows."""
    out = {}
    for name in DATASETS:
        X, y = load_dataset(name)
        Xs, ys = subsample(X, y, 400)
        out[name] = (X, {k: make().fit(Xs, ys) for k, make in LEARNERS.items()})
    return out


@pytest.mark.parametrize("dialect", ENGINES)
@pytest.mark.parametrize("learner", list(LEARNERS))
@pytest.mark.parametrize("name", DATASETS)
def test_whole_bundled_data_set_gives_the_predictions_of_predict(bundled, name, learner,
                                                                   dialect):
    X, models = bundled[name]
    assert mismatches(models[learner], X, dialect) == 0


@pytest.mark.parametrize("dialect", ENGINES)
@pytest.mark.parametrize("learner", list(LEARNERS))
def test_a_model_restored_from_json_gives_the_same_sql(bundled, learner, dialect):
    X, models = bundled["heart_cleveland"]
    model = models[learner]
    restored = type(model).from_json(model.to_json())
    assert restored.to_sql("data", dialect, keep=(ROW,)) == model.to_sql(
        "data", dialect, keep=(ROW,))
    assert mismatches(restored, X, dialect) == 0


# ------------------------------------------------------------------ an awkward table
def awkward_table(n: int, seed: int, unseen: bool) -> pd.DataFrame:
    """NaN in numeric and categorical columns, a boolean column, integer codes listed as
    categorical, names with spaces, slashes and quotes; ``unseen`` adds categories and
    codes the training table never had."""
    rng = np.random.default_rng(seed)
    age = rng.normal(45, 12, n).round(1)
    age[rng.random(n) < 0.1] = np.nan
    colours = np.array(["red", "green", "blue", "it's", 'say "hi"'], dtype=object)
    colour = colours[rng.integers(0, 5 if not unseen else 5, n)]
    if unseen:
        colour[rng.random(n) < 0.1] = "never seen"
    colour[rng.random(n) < 0.1] = None
    code = rng.integers(1, 5, n).astype(float)
    if unseen:
        code[rng.random(n) < 0.1] = 99.0
    code[rng.random(n) < 0.1] = np.nan
    flag = rng.random(n) < 0.4
    ratio = rng.random(n) / 3.0  # thresholds that are not short decimals
    return pd.DataFrame({"age (years)": age, 'colour/"shade"': colour, "it's code": code,
                         "flag": flag, "ratio": ratio})


def awkward_labels(X: pd.DataFrame, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    score = ((X["age (years)"].fillna(40) > 50).astype(int)
             + (X['colour/"shade"'] == "red").astype(int)
             + X["it's code"].isin([2.0, 3.0]).astype(int) + X["flag"].astype(int)
             + (X["ratio"] > 0.2).astype(int) + (rng.random(len(X)) < 0.15))
    return np.where(score >= 2, "it's yes", "no")


@pytest.fixture(scope="module")
def awkward():
    X = awkward_table(300, 0, unseen=False)
    y = awkward_labels(X, 0)
    X_new = awkward_table(2000, 1, unseen=True)
    cat = ["it's code"]
    models = {
        "rule_set": BooleanRuleSetClassifier(
            binarizer=FeatureBinarizer(categorical_features=cat), max_degree=2,
            random_state=0).fit(X, y),
        "dro": DRORuleEnsembleClassifier(complexity=12, random_state=0,
                                         member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer=FeatureBinarizer(categorical_features=cat), max_degree=2)).fit(X, y),
        "decision_list": DecisionListClassifier(max_degree=2, fallback="default",
                                                categorical_features=cat).fit(X, y),
        "decision_list_numeric_codes": DecisionListClassifier(
            max_degree=2, fallback="default", min_coverage=2).fit(X, y),
    }
    return X_new, models


@pytest.mark.parametrize("dialect", ENGINES)
@pytest.mark.parametrize("learner", ["rule_set", "dro", "decision_list",
                                     "decision_list_numeric_codes"])
def test_missing_values_unseen_categories_quoted_names_and_string_labels(awkward, learner,
                                                                       dialect):
    X, models = awkward
    model = models[learner]
    assert mismatches(model, X, dialect) == 0
    assert mismatches(model, X, dialect, nan_in_duckdb=False) == 0
    restored = type(model).from_json(model.to_json())
    assert mismatches(restored, X, dialect) == 0
    got = set(run_sql(model.to_sql("data", dialect, keep=[ROW]), X, dialect))
    assert got <= {"it's yes", "no"}


def test_the_awkward_rules_read_every_kind_of_column(awkward):
    """The fits above use the columns they are meant to test (else they prove little)."""
    _, models = awkward
    text = " ".join(str(models[k]) for k in ("rule_set", "dro"))
    assert "it's code" in text and "colour" in text


def test_a_dro_ensemble_sums_its_weighted_vote(awkward):
    _, models = awkward
    dro = models["dro"]
    assert np.count_nonzero(dro.weights_) >= 2
    sql = dro.to_sql("data", "duckdb")
    assert sql.count("THEN") >= np.count_nonzero(dro.weights_)


# ------------------------------------------------------------------ other model forms
def wine():
    """scikit-learn's wine: three classes; a column name with a slash."""
    from sklearn.datasets import load_wine

    X, y = load_wine(return_X_y=True, as_frame=True)
    return X, y.to_numpy()


@pytest.mark.parametrize("dialect", ENGINES)
@pytest.mark.parametrize("learner", ["rule_set", "dro"])
def test_one_vs_rest_multiclass(learner, dialect):
    X, y = wine()
    model = LEARNERS[learner]().fit(X, y)
    assert len(model.classes_) > 2
    assert mismatches(model, X, dialect) == 0
    restored = type(model).from_json(model.to_json())
    assert mismatches(restored, X, dialect) == 0


@pytest.mark.parametrize("dialect", ENGINES)
def test_one_vs_rest_with_an_empty_rule_set(dialect):
    """A class of four noisy rows gets no rule: its score is a constant in the query (a
    CASE with no WHEN is a syntax error), and the query still equals ``predict``."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 2, size=(300, 6)), columns=[f"b {j}" for j in range(6)])
    y = ((X["b 0"] & X["b 1"]) | X["b 2"]).to_numpy().copy()
    y[rng.choice(300, 4, replace=False)] = 2
    model = BooleanRuleSetClassifier(binarizer=None, max_degree=2, random_state=0).fit(X, y)
    assert [e.rules_.n_rules for e in model.estimators_][2] == 0
    assert len(set(model.predict(X))) == 2  # class 2 is never the answer
    assert mismatches(model, X, dialect) == 0
    restored = BooleanRuleSetClassifier.from_json(model.to_json())
    assert mismatches(restored, X, dialect) == 0


@pytest.mark.parametrize("dialect", ENGINES)
def test_multiclass_decision_list_with_string_labels(dialect):
    X, y = wine()
    y = np.array(["class 'a'", "class b", "class c"], dtype=object)[y]
    model = DecisionListClassifier(max_degree=1, fallback="default").fit(X, y)
    assert model.classes_.dtype.kind in "OU" and len(model.classes_) > 2
    assert mismatches(model, X, dialect) == 0


@pytest.mark.parametrize("dialect", ENGINES)
def test_binary_columns_taken_as_they_are(dialect):
    rng = np.random.default_rng(3)
    A = rng.integers(0, 2, size=(300, 6))
    y = (A[:, 0] & A[:, 1]) | A[:, 2] & (rng.random(300) < 0.9)
    for X in (pd.DataFrame(A, columns=[f"b {j}" for j in range(6)]),
              pd.DataFrame(A.astype(bool), columns=[f"b {j}" for j in range(6)]),
              pd.DataFrame(A.astype(float))):  # an array's columns: x0, x1, ...
        for model in (BooleanRuleSetClassifier(binarizer=None, max_degree=2).fit(X, y),
                      DRORuleEnsembleClassifier(complexity=8, random_state=0,
                                                member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer=None, max_degree=2)).fit(X, y)):
            table = X if isinstance(X.columns[0], str) else X.set_axis(
                [f"x{j}" for j in range(6)], axis=1)
            assert mismatches(model, X, dialect, table=table) == 0


@pytest.mark.parametrize("dialect", ENGINES)
def test_decision_list_cv_writes_its_best_estimator(dialect):
    X, y = load_dataset("heart_cleveland")
    cv = DecisionListCV(DecisionListClassifier(fallback="default"), max_degrees=(1,),
                        min_coverages=(10, 20), cv=3, random_state=0).fit(X, y)
    assert cv.to_sql("data", dialect) == cv.best_estimator_.to_sql("data", dialect)
    assert mismatches(cv, X, dialect) == 0


# ------------------------------------------------------------------ literals
HARD = [0.1, 0.15, 1 / 3, 2 / 3, 0.1 + 0.2, 4.102254694584252e+23, 1e-300, 5e-324,
        1.7976931348623157e308, -2.5, 123456789.12345679, 2.0 ** -60, 3.0 * 2 ** 70]


@pytest.mark.parametrize("dialect", ENGINES)
def test_numbers_are_written_so_that_they_read_back_as_the_same_double(dialect):
    from tests.internals import _real

    values = HARD + list(np.random.default_rng(0).standard_normal(300)
                         * 10.0 ** np.random.default_rng(1).integers(-30, 30, 300))
    query = "SELECT " + ", ".join(_real(v, dialect) for v in values)
    if dialect == "sqlite":
        got = sqlite3.connect(":memory:").execute(query).fetchone()
    else:
        got = duckdb.sql(query).fetchall()[0]
    assert [float(g) for g in got] == [float(v) for v in values]


def test_strings_and_names_are_quoted():
    from tests.internals import quote_identifier, quote_string

    assert quote_identifier('a "b"') == '"a ""b"""'
    assert quote_string("it's") == "'it''s'"
    con = sqlite3.connect(":memory:")
    assert con.execute(f"SELECT {quote_string('x' + chr(39) * 3)}").fetchone() == ("x'''",)


# ------------------------------------------------------------------ refusals
def test_bad_input_is_refused_before_any_work(bundled):
    _, models = bundled["heart_cleveland"]
    model = models["rule_set"]
    with pytest.raises(InputError, match="dialect"):
        model.to_sql("data", "postgres")
    with pytest.raises(InputError, match="column"):
        model.to_sql("data", column="")
    with pytest.raises(InputError, match="also a kept column"):
        model.to_sql("data", keep=("prediction",))
    with pytest.raises(InputError, match="keep"):
        model.to_sql("data", keep=(1,))
    with pytest.raises(InputError, match="table"):
        model.to_sql(3)
    for unfitted in (BooleanRuleSetClassifier(), DRORuleEnsembleClassifier(),
                     DecisionListClassifier(fallback="default"), DecisionListCV()):
        with pytest.raises(InputError, match="not fitted") as err:
            unfitted.to_sql("data")
        assert isinstance(err.value, NotFittedError)


def test_minimum_osr_is_refused_by_name(bundled):
    X, y = load_dataset("heart_cleveland")
    model = DecisionListClassifier(max_degree=1).fit(X, y)
    assert model.fallback == "min_osr"
    with pytest.raises(InputError, match='fallback="default"'):
        model.to_sql("data")
    model.set_params(fallback="default")
    assert mismatches(model, X, "sqlite") == 0


def test_a_binarizer_other_than_feature_binarizer_is_refused():
    from sklearn.preprocessing import KBinsDiscretizer

    X, y = load_dataset("magic_gamma")
    X, y = subsample(X, y, 300)
    bins = KBinsDiscretizer(n_bins=2, encode="onehot-dense", strategy="quantile")
    model = BooleanRuleSetClassifier(binarizer=bins, max_degree=1).fit(X, y)
    with pytest.raises(InputError, match="FeatureBinarizer"):
        model.to_sql("data")


# ------------------------------------------------------------------ the rule set's forms
def _rule_set_params() -> set[str]:
    return set(BooleanRuleSetClassifier().get_params())


@pytest.mark.parametrize("dialect", ENGINES)
def test_cnf_and_target_class_forms_of_the_rule_set(awkward, dialect):
    if not {"form", "target_class"} <= _rule_set_params():
        pytest.skip("this BooleanRuleSetClassifier has no form / target_class")
    X_new, _ = awkward
    X = awkward_table(300, 0, unseen=False)
    y = awkward_labels(X, 0)
    cat = FeatureBinarizer(categorical_features=["it's code"])
    for params in ({"form": "cnf"}, {"target_class": "no"},
                   {"form": "cnf", "target_class": "no"}):
        model = BooleanRuleSetClassifier(binarizer=cat, max_degree=2, random_state=0,
                                         **params).fit(X, y)
        assert mismatches(model, X_new, dialect) == 0, params
        restored = BooleanRuleSetClassifier.from_json(model.to_json())
        assert mismatches(restored, X_new, dialect) == 0, params
    X, y = wine()
    model = BooleanRuleSetClassifier(max_degree=1, form="cnf", random_state=0).fit(X, y)
    assert mismatches(model, X, dialect) == 0


# ------------------------------------------------------------------ boosting
def _boost(**params):
    from optirules.learners import BoostingClassifier

    return BoostingClassifier(**params)


BOOSTERS = {
    "stumps_on_numbers": ("magic_gamma", {}),
    "stumps_binarized": ("heart_cleveland", {"binarizer": FeatureBinarizer()}),
    "literals": ("mushroom", {"weak_learner": "literal", "n_estimators": 40}),
    "parities": ("house_votes_84", {"weak_learner": "parity", "n_estimators": 30}),
    "cart": ("magic_gamma", {"weak_learner": "cart", "n_estimators": 20, "random_state": 0}),
    "smoothboost": ("adult", {"booster": "smoothboost", "n_estimators": 60}),
    "gavinsky": ("heart_cleveland", {"booster": "gavinsky"}),
}


@pytest.fixture(scope="module")
def boosted():
    out = {}
    for key, (name, params) in BOOSTERS.items():
        X, y = load_dataset(name)
        Xs, ys = subsample(X, y, 600)
        out[key] = (X, _boost(**params).fit(Xs, ys))
    return out


@pytest.mark.parametrize("dialect", ENGINES)
@pytest.mark.parametrize("key", list(BOOSTERS))
def test_boosting_sql_gives_the_predictions_of_predict(boosted, key, dialect):
    """The vote of stumps (on numbers as they are and on literals), literals, parities,
    CART trees, and SmoothBoost's integer votes (whose F is exactly 0 on some rows: ties
    go to classes_[0] in SQL too) on a whole bundled data set."""
    X, model = boosted[key]
    assert mismatches(model, X, dialect) == 0
    restored = type(model).from_json(model.to_json())
    assert restored.to_sql("data", dialect, keep=(ROW,)) == model.to_sql(
        "data", dialect, keep=(ROW,))
    if key == "smoothboost":
        assert (model.decision_function(X) == 0).any()


@pytest.mark.parametrize("dialect", ENGINES)
def test_boosting_sql_on_the_awkward_table_and_three_classes(dialect):
    X = awkward_table(300, 0, unseen=False)
    y = awkward_labels(X, 0)
    X_new = awkward_table(2000, 1, unseen=True)
    for params in ({}, {"weak_learner": "parity", "n_estimators": 20},
                   {"weak_learner": "cart", "n_estimators": 10, "random_state": 0}):
        model = _boost(**params).fit(X, y)  # binarizer "auto": NaN and strings
        assert model.binarizer_ is not None
        assert mismatches(model, X_new, dialect) == 0, params
        assert mismatches(model, X_new, dialect, nan_in_duckdb=False) == 0, params
    Xw, yw = wine()
    model = _boost(n_estimators=30).fit(Xw, yw)
    assert len(model.classes_) == 3 and model.estimators_[0].binarizer_ is None
    assert mismatches(model, Xw, dialect) == 0
    assert mismatches(type(model).from_json(model.to_json()), Xw, dialect) == 0


@pytest.mark.parametrize("dialect", ENGINES)
def test_boosting_sql_sums_more_rounds_than_one_query_holds(dialect):
    """A vote longer than ROUNDS_PER_QUERY is summed over nested queries, in round order."""
    from tests.internals import ROUNDS_PER_QUERY

    X, y = load_dataset("heart_cleveland")
    model = _boost(n_estimators=2 * ROUNDS_PER_QUERY + 30, binarizer=FeatureBinarizer()).fit(X, y)
    assert model.n_estimators_ > 2 * ROUNDS_PER_QUERY
    assert mismatches(model, X, dialect) == 0


@pytest.mark.parametrize("dialect", ENGINES)
def test_cart_thresholds_compare_the_float32_value_as_scikit_learn_does(dialect):
    """A CART tree reads X rounded to float32: rows placed on and around every rounding
    boundary of every threshold get the tree's answer in SQL too."""
    from tests.internals import float32_cut

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"u": rng.random(400) / 3, "v": rng.normal(0, 1e3, 400)})
    y = ((X.u > 0.1) ^ (X.v > 100)).astype(int).to_numpy()
    model = _boost(weak_learner="cart", n_estimators=8, random_state=0).fit(X, y)
    edges = []
    for h in model.hypotheses_:
        for f, t, left in zip(h.feature, h.threshold, h.children_left):
            if left >= 0:
                _, m = float32_cut(float(t))
                edges += [(f, x) for x in (m, np.nextafter(m, -np.inf), np.nextafter(m, np.inf),
                                           t, np.nextafter(t, np.inf))]
    rows = np.tile(X.median().to_numpy(), (len(edges), 1))
    for i, (f, x) in enumerate(edges):
        rows[i, f] = x
    table = pd.DataFrame(rows, columns=X.columns)
    assert mismatches(model, table, dialect) == 0


def test_float32_cut_is_the_float32_comparison():
    from tests.internals import float32_cut

    f32 = np.finfo(np.float32)
    rng = np.random.default_rng(1)
    thresholds = list(rng.standard_normal(200) * 10.0 ** rng.integers(-40, 38, 200)) + [
        0.0, 1.0, -1.0, 0.5, float(f32.max), -float(f32.max), float(f32.tiny), 1e-45,
        float(np.float32(0.1)), 0.1]
    for t in thresholds:
        op, m = float32_cut(t)
        near = [m, np.nextafter(m, -np.inf), np.nextafter(m, np.inf), t,
                np.nextafter(t, -np.inf), np.nextafter(t, np.inf)]
        with np.errstate(over="ignore"):
            # the tree compares the float32 value with the float64 threshold
            want = [float(np.float32(x)) <= t for x in near]
        got = [bool(x <= m) if op == "<=" else bool(x < m) for x in near]
        assert got == want, (t, op, m)


@pytest.mark.parametrize("dialect", ENGINES)
def test_boosting_sql_gives_null_where_predict_refuses_a_missing_value(dialect):
    X, y = load_dataset("magic_gamma")
    X, y = subsample(X, y, 300)
    model = _boost(n_estimators=20).fit(X, y)
    assert model.binarizer_ is None  # numbers read as they are: predict refuses NaN
    table = X.copy()
    used = sorted({model.feature_names_[h.feature] for h in model.hypotheses_
                   if h.kind == "stump"})
    table.loc[table.index[:5], used[0]] = np.nan
    got = run_sql(model.to_sql("data", dialect, keep=(ROW,)), table, dialect)
    assert all(g is None for g in got[:5])
    assert list(got[5:]) == model.predict(X.iloc[5:]).tolist()
    with pytest.raises(InputError):
        model.predict(table)


def test_boosting_sql_refuses_a_weak_learner_of_its_own_and_an_unfitted_booster():
    from sklearn.preprocessing import KBinsDiscretizer

    from optirules.weak import WeakHypothesis, WeakLearner

    class Positive(WeakHypothesis):
        def __init__(self, j):
            self.j = j

        def predict(self, X):
            return np.where(np.asarray(X)[:, self.j] > 0, 1, -1).astype(np.int8)

        def describe(self, feature_names=None):
            return f"x{self.j} > 0"

        def _payload(self):
            return {"j": self.j}

    class FirstColumn(WeakLearner):
        def fit(self, X, y, sample_weight=None, *, feature_names=None):
            return Positive(0)

    X, y = load_dataset("magic_gamma")
    X, y = subsample(X, y, 200)
    with pytest.raises(InputError, match="not fitted") as err:
        _boost().to_sql("data")
    assert isinstance(err.value, NotFittedError)
    model = _boost(weak_learner=FirstColumn(), n_estimators=2).fit(X, y)
    with pytest.raises(InputError, match="weak learner of your own"):
        model.to_sql("data")
    bins = KBinsDiscretizer(n_bins=2, encode="onehot-dense", strategy="quantile")
    model = _boost(binarizer=bins, n_estimators=5).fit(X, y)
    with pytest.raises(InputError, match="FeatureBinarizer"):
        model.to_sql("data")
