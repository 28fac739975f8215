"""``rules_table`` and ``_repr_html_`` of the rule models (optirules.learners._rules_table).

The table's statistics are checked against a direct count over the rows each rule covers,
coverage recomputed independently: by evaluating the rule's conditions on the raw data
(``Rule.evaluate``) or, for the decision list, from ``explain`` (which entry decided).
"""

from __future__ import annotations

import html

import numpy as np
import pytest
from sklearn import config_context
from sklearn.datasets import load_iris

from optirules.data import load_dataset
from optirules.errors import InputError
from optirules.learners import (
    BooleanRuleSetClassifier,
    BooleanRuleSetCV,
    DecisionListClassifier,
    DecisionListCV,
    DRORuleEnsembleClassifier,
)


@pytest.fixture(scope="module")
def heart():
    return load_dataset("heart_statlog")


@pytest.fixture(scope="module")
def rule_set(heart):
    X, y = heart
    return BooleanRuleSetClassifier(complexity=10, max_iter=5, binarizer="auto",
                                    random_state=0).fit(X, y)


@pytest.fixture(scope="module")
def dro(heart):
    X, y = heart
    return DRORuleEnsembleClassifier(complexity=12, member_complexity=4, n_estimators=3,
                                     random_state=0,
                                     member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_iter=5, binarizer="auto")).fit(X, y)


@pytest.fixture(scope="module")
def decision_list(heart):
    X, y = heart
    return DecisionListClassifier().fit(X, y)


@pytest.fixture(scope="module")
def iris_rule_set():
    X, y = load_iris(return_X_y=True, as_frame=True)
    labels = np.array(["setosa", "versicolor", "virginica"])[y.to_numpy()]
    est = BooleanRuleSetClassifier(complexity=8, max_iter=3, binarizer="auto",
                                   random_state=0).fit(X, labels)
    return est, X, labels


def _direct(covered: np.ndarray, of_class: np.ndarray) -> tuple[float, float, float]:
    support = covered.sum()
    right = (covered & of_class).sum()
    precision = right / support if support else np.nan
    recall = right / of_class.sum() if of_class.sum() else np.nan
    return float(support), float(precision), float(recall)


def _check_columns(table, extra=()):
    want = ["class", *extra, "rule", "n_literals", "support", "precision", "recall"]
    assert list(table.columns[:len(want)]) == want


# ---------------------------------------------------------------------- rule set
def test_rule_set_table_matches_a_direct_count(rule_set, heart):
    X, y = heart
    table = rule_set.rules_table(X, y)
    _check_columns(table)
    assert "score" in table
    rules = rule_set.rules_.rules
    assert len(table) == len(rules) > 0
    positive = y == rule_set.classes_[1]
    for m, rule in enumerate(rules):
        covered = rule.evaluate(X)  # the conditions on the raw data
        support, precision, recall = _direct(covered, positive)
        row = table.iloc[m]
        assert row["rule"] == str(rule)
        assert row["n_literals"] == len(rule.conditions)
        assert row["class"] == rule_set.classes_[1]
        assert row["support"] == support
        assert row["precision"] == pytest.approx(precision)
        assert row["recall"] == pytest.approx(recall)


def test_rule_set_table_without_data_is_the_training_statistics(rule_set, heart):
    X, y = heart
    stored = rule_set.rules_table()
    np.testing.assert_allclose(stored["support"], rule_set.rule_support_)
    np.testing.assert_allclose(stored["precision"], rule_set.rule_precision_)
    on_train = rule_set.rules_table(X, y)  # fitted without weights on all rows
    for col in ("support", "precision", "recall", "score"):
        np.testing.assert_allclose(stored[col], on_train[col])
    # the smoothed score sits between the precision and the class prior
    lo = np.minimum(stored["precision"], rule_set.class_prior_)
    hi = np.maximum(stored["precision"], rule_set.class_prior_)
    assert ((stored["score"] >= lo - 1e-12) & (stored["score"] <= hi + 1e-12)).all()


def test_rule_set_loaded_from_json_keeps_support_and_precision(rule_set, heart):
    X, y = heart
    loaded = BooleanRuleSetClassifier.from_json(rule_set.to_json())
    stored = loaded.rules_table()
    np.testing.assert_allclose(stored["support"], rule_set.rule_support_)
    assert stored["recall"].isna().all()  # the fit's rows are not in the JSON
    np.testing.assert_allclose(loaded.rules_table(X, y)["recall"],
                               rule_set.rules_table(X, y)["recall"])


def test_bad_data_raises_input_error(rule_set, heart):
    X, y = heart
    with pytest.raises(InputError, match="both X and y"):
        rule_set.rules_table(X)
    with pytest.raises(InputError, match="both X and y"):
        rule_set.rules_table(y=y)
    with pytest.raises(InputError, match="labels the model does not know"):
        rule_set.rules_table(X, np.where(y == 1, 7, 0))
    with pytest.raises(InputError, match="one label per row"):
        rule_set.rules_table(X, y[:-1])
    with pytest.raises(InputError, match="1-D"):
        rule_set.rules_table(X, np.column_stack([y, y]))
    with pytest.raises(InputError):
        rule_set.rules_table(X.iloc[:, :3], y)  # not the fitted columns, as predict refuses


# ---------------------------------------------------------------------- one-vs-rest
def test_one_vs_rest_has_one_block_per_class(iris_rule_set):
    est, X, labels = iris_rule_set
    table = est.rules_table()
    _check_columns(table)
    assert set(table["class"]) == set(est.classes_)
    given = est.rules_table(X, labels)
    assert list(given["class"]) == list(table["class"])
    row = 0
    for c, sub in zip(est.classes_, est.estimators_):
        of_class = labels == c
        for rule in sub.rules_.rules:
            support, precision, recall = _direct(rule.evaluate(X), of_class)
            assert given.loc[row, "class"] == c
            assert given.loc[row, "rule"] == str(rule)
            assert given.loc[row, "support"] == support
            assert given.loc[row, "precision"] == pytest.approx(precision)
            assert given.loc[row, "recall"] == pytest.approx(recall)
            row += 1
    assert row == len(given)
    np.testing.assert_allclose(table["support"], given["support"])
    np.testing.assert_allclose(table["recall"], given["recall"])
    out = est._repr_html_()
    assert "one-vs-rest over 3 classes" in out
    for text in table["rule"]:
        assert html.escape(text) in out


def test_one_vs_rest_refuses_unknown_labels(iris_rule_set):
    est, X, labels = iris_rule_set
    with pytest.raises(InputError, match="labels the model does not know"):
        est.rules_table(X, np.where(labels == "setosa", "rose", labels))


# ---------------------------------------------------------------------- DRO ensemble
def test_dro_rows_carry_member_weights_and_match_a_direct_count(dro, heart):
    X, y = heart
    table = dro.rules_table(X, y)
    _check_columns(table, ("member", "weight"))
    used = np.flatnonzero(dro.weights_)
    assert sorted(set(table["member"])) == [k + 1 for k in used]  # member k: members_[k-1]
    per_member = table.groupby("member")["weight"].agg(["first", "nunique"])
    assert (per_member["nunique"] == 1).all()
    assert per_member["first"].sum() == pytest.approx(dro.weights_.sum())
    positive = y == dro.classes_[1]
    row = 0
    for k in used:
        assert table.loc[row, "weight"] == dro.weights_[k]
        for rule in dro.members_[k].rules:
            support, precision, recall = _direct(rule.evaluate(X), positive)
            assert table.loc[row, "member"] == k + 1
            assert table.loc[row, "rule"] == str(rule)
            assert table.loc[row, "support"] == support
            assert table.loc[row, "precision"] == pytest.approx(precision)
            assert table.loc[row, "recall"] == pytest.approx(recall)
            row += 1
    stored = dro.rules_table()  # the ensemble was refitted on all rows: the same counts
    for col in ("support", "precision", "recall"):
        np.testing.assert_allclose(stored[col], table[col])


def test_dro_loaded_from_json_needs_data(dro, heart):
    X, y = heart
    loaded = DRORuleEnsembleClassifier.from_json(dro.to_json())
    with pytest.raises(InputError, match="pass X and y"):
        loaded.rules_table()
    np.testing.assert_allclose(loaded.rules_table(X, y)["support"],
                               dro.rules_table(X, y)["support"])
    out = loaded._repr_html_()  # rules without statistics
    assert "no training statistics stored" in out
    for text in dro.rules_table()["rule"]:
        assert html.escape(text) in out


# ---------------------------------------------------------------------- decision list
def test_decision_list_rows_follow_the_list(decision_list, heart):
    X, y = heart
    dl = decision_list
    table = dl.rules_table(X, y)
    _check_columns(table)
    assert list(table["rule"]) == [str(r) for r in dl.rules_] + [f"DEFAULT {dl.default_class_}"]
    assert list(table["class"]) == [r.prediction for r in dl.rules_] + [dl.default_class_]
    assert list(table["n_literals"]) == [len(r.conditions) for r in dl.rules_] + [0]
    decided = dl.explain(X)["rule"].to_numpy()  # the entry that classified each row, -1: none
    for r in range(len(dl.rules_) + 1):
        entry = r if r < len(dl.rules_) else -1
        support, precision, recall = _direct(decided == entry, y == table.loc[r, "class"])
        assert table.loc[r, "support"] == support
        assert table.loc[r, "precision"] == pytest.approx(precision, nan_ok=True)
        assert table.loc[r, "recall"] == pytest.approx(recall, nan_ok=True)
    stored = dl.rules_table()  # the class counts stored at fit: the same on the training rows
    assert list(stored["support"][:-1]) == [r.coverage for r in dl.rules_]
    for col in ("support", "precision", "recall"):
        np.testing.assert_allclose(stored[col], table[col])


def test_decision_list_refuses_bad_data(decision_list, heart):
    X, y = heart
    with pytest.raises(InputError):
        decision_list.rules_table(X, np.full(len(y), 5))
    with pytest.raises(InputError):
        decision_list.rules_table(X.iloc[:, :2], y)


# ---------------------------------------------------------------------- CV learners
def test_cv_learners_give_the_chosen_estimators_table(heart):
    X, y = heart
    dl_cv = DecisionListCV(max_degrees=(1,), min_coverages=(5, 10), cv=2,
                           random_state=0).fit(X, y)
    assert dl_cv.rules_table().equals(dl_cv.best_estimator_.rules_table())
    assert dl_cv.rules_table(X, y).equals(dl_cv.best_estimator_.rules_table(X, y))
    assert "DecisionListCV (chosen: DecisionListClassifier" in dl_cv._repr_html_()
    base = BooleanRuleSetClassifier(max_iter=3, binarizer="auto", random_state=0)
    rs_cv = BooleanRuleSetCV(base, penalties=(0.01,), cv=2, random_state=0).fit(X, y)
    assert rs_cv.rules_table().equals(rs_cv.best_estimator_.rules_table())
    out = rs_cv._repr_html_()
    for text in rs_cv.best_estimator_.rules_table()["rule"]:
        assert html.escape(text) in out
    assert "<table" in BooleanRuleSetCV()._repr_html_()  # unfitted: scikit-learn's diagram


# ---------------------------------------------------------------------- HTML
@pytest.mark.parametrize("name", ["rule_set", "dro", "decision_list"])
def test_repr_html_lists_every_rule_escaped(name, request):
    est = request.getfixturevalue(name)
    out = est._repr_html_()
    table = est.rules_table()
    assert type(est).__name__ in out
    for text in table["rule"]:
        assert html.escape(text) in out
        if ">" in text:
            assert text not in out  # escaped, not raw
    with config_context(display="diagram"):
        assert est._repr_mimebundle_()["text/html"] == out
    with config_context(display="text"):
        assert "text/html" not in est._repr_mimebundle_()


def test_repr_html_mentions_a_certified_gap(rule_set):
    out = rule_set._repr_html_()
    assert ("certified gap" in out) == bool(rule_set.gap_certified_)


@pytest.mark.parametrize("cls", [BooleanRuleSetClassifier, DRORuleEnsembleClassifier,
                                 DecisionListClassifier, BooleanRuleSetCV, DecisionListCV])
def test_unfitted_estimators_fall_back_to_the_scikit_learn_diagram(cls):
    est = cls()
    out = est._repr_html_()
    assert "sk-" in out and "optirules-rules" not in out
    with pytest.raises(Exception, match="not fitted"):
        est.rules_table()
    with config_context(display="diagram"):
        assert "sk-" in est._repr_mimebundle_()["text/html"]
