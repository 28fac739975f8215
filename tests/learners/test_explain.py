"""One way to read every learner: explain(X) (same leading columns), to_text(), str."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer

from optirules.learners import (
    BooleanRuleSetClassifier,
    BooleanRuleSetCV,
    BoostingClassifier,
    DecisionListClassifier,
    DecisionListCV,
    DREPPruner,
    DRORuleEnsembleClassifier,
    KappaPruner,
    QMMPruner,
    ResampledAdaBoostClassifier,
)
from optirules.weak import Constant, LiteralHypothesis, Parity, Stump
from tests.internals import EXPLAIN_COLUMNS, hypothesis_text


# ------------------------------------------------------------------ boosting's text
def test_hypotheses_read_as_rules_and_the_rule_is_the_hypothesis():
    """Each text's condition, evaluated by hand, gives the hypothesis' +1/-1: a parity is +1
    on an even number of true literals, so ``a XOR b -> -1 else +1``."""
    rng = np.random.default_rng(0)
    Xn = rng.random((200, 5))
    Xb = rng.integers(0, 2, size=(200, 4))
    lits = ["x0 <= 0.3885", "c0 == a", "c0 == b", "x3 > 0.5"]
    cases = [
        (Stump(3, 0.788, -1, 1), None, False, "x3 > 0.788 -> +1 else -1", Xn,
         np.where(Xn[:, 3] > 0.788, 1, -1)),
        (Stump(1, 0.25, 1, -1), None, False, "x1 <= 0.25 -> +1 else -1", Xn,
         np.where(Xn[:, 1] <= 0.25, 1, -1)),
        (Stump(1, 0.5, -1, 1), lits, True, "c0 == a -> +1 else -1", Xb,
         np.where(Xb[:, 1] == 1, 1, -1)),
        (LiteralHypothesis(1, negated=False), lits, True, "c0 == a -> +1 else -1", Xb,
         np.where(Xb[:, 1] == 1, 1, -1)),
        (LiteralHypothesis(2, negated=True), None, False, "x2 == 1 -> -1 else +1", Xb,
         np.where(Xb[:, 2] == 1, -1, 1)),
        (Parity([0, 1]), lits, True, "x0 <= 0.3885 XOR c0 == a -> -1 else +1", Xb,
         np.where(Xb[:, 0] ^ Xb[:, 1], -1, 1)),
        (Parity([0, 1], negated=True), lits, True, "x0 <= 0.3885 XOR c0 == a -> +1 else -1",
         Xb, np.where(Xb[:, 0] ^ Xb[:, 1], 1, -1)),
        (Constant(-1), None, False, "always -1", Xb, -np.ones(200)),
    ]
    for h, names, literal, text, X, by_hand in cases:
        assert hypothesis_text(h, names, literal) == text
        np.testing.assert_array_equal(h.predict(X), by_hand)


def test_boosting_text_reads_like_the_issue_and_sums_repeated_hypotheses():
    # x3 takes 0.776 and 0.8 around the class boundary: the stump's midpoint is 0.788
    rng = np.random.default_rng(1)
    X = rng.random((60, 4))
    X[:30, 3] = np.linspace(0.1, 0.776, 30)
    X[30:, 3] = np.linspace(0.8, 0.99, 30)
    y = (X[:, 3] > 0.788).astype(int)
    clf = BoostingClassifier(n_estimators=5).fit(X, y)
    lines = clf.to_text().splitlines()
    assert lines[0] == ("adaboost: predict 1 if F(x) = sum of vote * h(x) > 0, else 0 "
                        "(1 round, 1 distinct hypothesis)")
    assert lines[2] == "  +11.5129  x3 > 0.788 -> +1 else -1"
    # a booster that picks some stumps again: one line each, the sum of its votes
    Xc, yc = load_breast_cancer(return_X_y=True)
    clf = BoostingClassifier(n_estimators=40).fit(Xc, yc)
    texts = [hypothesis_text(h) for h in clf.hypotheses_]
    assert len(set(texts)) < len(texts)
    body = clf.to_text().splitlines()[2:-1]  # the last line says what fit did with X
    votes = {line.split(maxsplit=1)[1]: float(line.split()[0]) for line in body}
    assert len(votes) == len(set(texts)) == len(body)
    for text, vote in votes.items():
        assert vote == pytest.approx(sum(a for a, t in zip(clf.alphas_, texts) if t == text),
                                     abs=1e-4)
    assert list(votes.values()) == sorted(votes.values(), reverse=True)


# ------------------------------------------------------------------ every learner
def _binary_data():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    X = X.iloc[:, :6]
    return X.iloc[:240].reset_index(drop=True), np.asarray(y)[:240]


def _fitted_learners():
    X, y = _binary_data()
    boost = BoostingClassifier(n_estimators=15).fit(X, y)
    ada = ResampledAdaBoostClassifier(n_estimators=5, max_depth=2, random_state=0).fit(X, y)
    rule_set = BooleanRuleSetClassifier(binarizer="auto", max_degree=1, random_state=0)
    return X, y, [
        rule_set.fit(X, y),
        BooleanRuleSetCV(clone(rule_set), penalties=(0.002, 0.01), cv=2).fit(X, y),
        DRORuleEnsembleClassifier(complexity=9, n_estimators=2, random_state=0,
                                  member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto", max_degree=1)).fit(X, y),
        boost,
        DecisionListClassifier(max_degree=1).fit(X, y),
        DecisionListCV(max_degrees=(1,), min_coverages=(5, 20), cv=2).fit(X, y),
        QMMPruner(boost).fit(X, y),
        KappaPruner(boost).fit(X, y),
        DREPPruner(boost).fit(X, y),
        ResampledAdaBoostClassifier(n_estimators=5, max_depth=2, random_state=0).fit(X, y),
        KappaPruner(ada).fit(X, y),
    ]


def test_every_learner_explains_with_the_same_columns_and_prints_its_text():
    X, y, fitted = _fitted_learners()
    rows = X.iloc[:25]
    for est in fitted:
        name = type(est).__name__
        why = est.explain(rows)
        assert isinstance(why, pd.DataFrame) and len(why) == len(rows), name
        assert tuple(why.columns[:5]) == EXPLAIN_COLUMNS, name
        pred = est.predict(rows)
        np.testing.assert_array_equal(why["prediction"], pred, err_msg=name)
        k = np.searchsorted(est.classes_, pred)
        np.testing.assert_allclose(why["score"], est.predict_proba(rows)[np.arange(25), k],
                                   err_msg=name)
        for rules, fired, text in zip(why["rules"], why["fired"], why["text"]):
            assert isinstance(rules, list) and rules and all(isinstance(r, str) for r in rules)
            assert isinstance(fired, dict) and set(fired) <= set(est.classes_.tolist())
            assert isinstance(text, str) and text
        assert str(est) == est.to_text() and "\n" in str(est), name
        assert repr(clone(est)) == str(clone(est)), name  # not fitted: scikit-learn's repr


def test_votes_listed_for_the_prediction_outweigh_the_others():
    """For the vote learners (boosting, pruners, DRO) ``rules`` are the members that voted
    for the prediction; their weights add up to at least the other side's."""
    X, y, fitted = _fitted_learners()
    rows = X.iloc[:40]
    for est in fitted:
        if not isinstance(est, (BoostingClassifier, KappaPruner, DREPPruner, QMMPruner)):
            continue
        why = est.explain(rows)
        for rules, fired, p in zip(why["rules"], why["fired"], why["prediction"]):
            other = [v for c, v in fired.items() if c != p]
            mine = sum(float(r.split()[0]) for r in rules)
            theirs = sum(float(r.split()[0]) for v in other for r in v)
            assert mine >= theirs - 1e-9, type(est).__name__
