"""K classes by one-vs-rest inside the rule set, the DRO ensemble and boosting; scores.

Wine (3 classes, scikit-learn's bundled copy) and iris (3 classes, scikit-learn's bundled
copy: the data sets bundled with optirules are all two-class; ecoli's 8 sites, for one, are
stored as cp against the rest).
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris, load_wine
from sklearn.model_selection import cross_val_score
from sklearn.multiclass import OneVsRestClassifier

from optirules.learners import (
    BooleanRuleSetClassifier,
    BoostingClassifier,
    DRORuleEnsembleClassifier,
)


def wine():
    return load_wine(return_X_y=True)


def learners():
    return [
        BooleanRuleSetClassifier(binarizer="auto", max_degree=1, random_state=0),
        DRORuleEnsembleClassifier(complexity=9, n_estimators=2, random_state=0,
                                  member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto", max_degree=1)),
        BoostingClassifier(n_estimators=20),
    ]


class _ProbaOnly:
    """A fitted one-vs-rest rule set seen through its probabilities: ``predict`` the argmax
    of ``decision_function`` (what scikit-learn's one-vs-rest does with the same copies)."""

    def __init__(self, est):
        self._est = est
        self.estimators_ = est.estimators_
        self.classes_ = est.classes_

    def predict_proba(self, X):
        return self._est.predict_proba(X)

    def decision_function(self, X):
        return self._est.decision_function(X)

    def predict(self, X):
        return self.classes_[np.argmax(self.decision_function(X), axis=1)]


def _ovr_equal(ours, theirs, X):
    """Same predict_proba as scikit-learn's OneVsRestClassifier (where some class scores
    above 0), same prediction wherever the largest score is unique (ties: ours the first
    class, scikit-learn's the last)."""
    if isinstance(ours, BooleanRuleSetClassifier):
        # the rule set predicts by its rules' ranks (what to_sql computes, the best rule
        # that fires); its probabilities also count the literals each rule misses
        R = np.column_stack([e._ovr_rank(X) for e in ours.estimators_])
        top = (R == R.max(axis=1, keepdims=True)).sum(axis=1) == 1
        np.testing.assert_array_equal(ours.predict(X)[top], ours.classes_[R.argmax(axis=1)][top])
        ours = _ProbaOnly(ours)
    raw = np.column_stack([e.predict_proba(X)[:, 1] for e in ours.estimators_])
    silent = raw.sum(axis=1) == 0  # every class scores 0 (a vote of 0): ours 1/K each
    P = ours.predict_proba(X)
    # the DRO ensemble predicts by its largest vote and calibrates each class's vote on
    # its own: where scikit-learn's probabilities put another class first, ours lift the
    # predicted class to the top (argmax of predict_proba is predict); elsewhere the same
    k = np.argmax(ours.decision_function(X), axis=1)
    follows = theirs.predict_proba(X).argmax(axis=1) == k
    if not isinstance(ours, DRORuleEnsembleClassifier):
        assert follows.all()
    np.testing.assert_allclose(P[~silent & follows], theirs.predict_proba(X)[~silent & follows],
                               atol=1e-12)
    np.testing.assert_array_equal(P.argmax(axis=1), k)
    np.testing.assert_allclose(P[silent], 1.0 / P.shape[1])
    D = ours.decision_function(X)
    np.testing.assert_allclose(D, theirs.decision_function(X), atol=1e-12)
    unique = (D == D.max(axis=1, keepdims=True)).sum(axis=1) == 1
    assert unique.mean() > 0.5
    np.testing.assert_array_equal(ours.predict(X)[unique], theirs.predict(X)[unique])


@pytest.mark.parametrize("est", learners(), ids=lambda e: type(e).__name__)
def test_three_classes_on_wine_match_scikit_learns_one_vs_rest(est):
    X, y = wine()
    ours = clone(est).fit(X, y)
    np.testing.assert_array_equal(ours.classes_, [0, 1, 2])
    assert len(ours.estimators_) == 3
    P = ours.predict_proba(X)
    assert P.shape == (len(y), 3) and np.all(P >= 0)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    assert ours.decision_function(X).shape == (len(y), 3)
    assert ours.score(X, y) > 0.85
    theirs = OneVsRestClassifier(clone(est)).fit(X, y)
    _ovr_equal(ours, theirs, X)
    # copy k was fitted on y == classes_[k]: the same as a binary fit of that task
    binary = clone(est).fit(X, (y == 1).astype(int))
    np.testing.assert_allclose(ours.estimators_[1].predict_proba(X), binary.predict_proba(X))
    # saved and loaded: the same scores, text and explanations
    back = type(est).from_json(ours.to_json())
    np.testing.assert_array_equal(back.predict_proba(X), P)
    assert str(back) == str(ours) == ours.to_text()
    assert str(ours).startswith("one-vs-rest over 3 classes")
    assert list(back.explain(X[:20])["text"]) == list(ours.explain(X[:20])["text"])


def test_string_labels_on_iris_and_roc_auc_ovr():
    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    est = BooleanRuleSetClassifier(binarizer="auto", max_degree=1, random_state=0)
    clf = clone(est).fit(X, names)
    assert list(clf.classes_) == ["setosa", "versicolor", "virginica"]
    assert set(clf.predict(X)) <= set(clf.classes_) and clf.score(X, names) > 0.9
    auc = cross_val_score(clone(est), X, names, cv=3, scoring="roc_auc_ovr")
    assert np.all(auc > 0.8), auc
    boost = BoostingClassifier(n_estimators=10).fit(X, names)
    _ovr_equal(boost, OneVsRestClassifier(BoostingClassifier(n_estimators=10)).fit(X, names), X)


def test_explain_says_which_classes_rules_fired():
    X, y = wine()
    clf = BooleanRuleSetClassifier(binarizer="auto", max_degree=1, random_state=0).fit(X, y)
    why = clf.explain(X)
    assert list(why.columns[:5]) == ["prediction", "score", "rules", "fired", "text"]
    np.testing.assert_array_equal(why["prediction"], clf.predict(X))
    P = clf.predict_proba(X)
    np.testing.assert_allclose(why["score"], P[np.arange(len(y)), np.searchsorted(clf.classes_,
                                                                                 why["prediction"])])
    for c, sub in zip(clf.classes_, clf.estimators_):
        fired = sub.decision_rules(X)
        for i in range(len(y)):
            listed = why["fired"][i].get(int(c), [])
            assert len(listed) == int(fired[i].sum())  # every rule of class c that fired
            if why["prediction"][i] == c and fired[i].any():
                assert why["rules"][i] == listed
                assert why["text"][i].startswith(f"{c}: rule ")
    # some row has rules of two classes firing, and says so
    both = [i for i in range(len(y)) if len(why["fired"][i]) > 1]
    assert both and "(also for" in why["text"][both[0]]


def test_weights_reach_every_binary_copy():
    """Integer weights equal repeated rows in each one-vs-rest copy (boosting removes
    zero-weight rows, so the stumps' midpoint thresholds are those of the kept rows)."""
    X, y = wine()
    w = np.random.default_rng(0).integers(0, 3, size=len(y))
    a = BoostingClassifier(n_estimators=15).fit(X, y, sample_weight=w)
    b = BoostingClassifier(n_estimators=15).fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X))


def test_rule_set_ranks_are_the_smoothed_training_precisions():
    """The rank a rule set gives its class for one-vs-rest predict (and to_sql) = the
    largest Beta-smoothed training precision (k + m prior) / (n + m) among the rules that
    fire, else that of the rows no rule covers, moved to the side of predict: checked by
    counting; predict_proba is the pattern shares (tests.helpers.pattern_scores_by_hand)."""
    from tests.helpers import pattern_scores_by_hand

    X, y = wine()
    y1 = (y == 2).astype(int)
    clf = BooleanRuleSetClassifier(binarizer="auto", max_degree=1, lambda0=0.02,
                                   lambda1=0.02, random_state=0).fit(X, y1)
    fired = clf.decision_rules(X)
    assert fired.shape[1] >= 1
    prec = [y1[fired[:, m]].mean() for m in range(fired.shape[1])]
    none = ~fired.any(axis=1)
    default = y1[none].mean()
    m, prior = 10.0, y1.mean()  # PRIOR_STRENGTH pseudo-rows at the class prior

    def smooth(rows):
        return (y1[rows].sum() + m * prior) / (rows.sum() + m)

    score = [smooth(fired[:, r]) for r in range(fired.shape[1])]
    expect = np.array([max(0.5 + 1e-16, max(s for s, f in zip(score, row) if f))
                       if row.any() else min(0.5, smooth(none)) for row in fired])
    assert 0 < expect.min() and expect.max() < 1
    np.testing.assert_allclose(clf._ovr_rank(X), 2 * expect - 1)
    by_hand = pattern_scores_by_hand(clf.dnf_rules_.unmet(X), y1 == 1, clf.dnf_rules_.unmet(X))
    hit = fired.any(axis=1)
    ok = (by_hand > 0.5) == hit
    np.testing.assert_allclose(clf.predict_proba(X)[ok, 1], by_hand[ok], rtol=1e-4)
    np.testing.assert_allclose(clf.decision_function(X), 2 * clf.predict_proba(X)[:, 1] - 1)
    np.testing.assert_allclose(clf.rule_precision_, prec)
    assert clf.default_precision_ == pytest.approx(default)
    back = BooleanRuleSetClassifier.from_json(clf.to_json())
    np.testing.assert_array_equal(back.predict_proba(X), clf.predict_proba(X))
    # the scores rank: ROC AUC by cross-validation, and inside OneVsRestClassifier
    auc = cross_val_score(BooleanRuleSetClassifier(binarizer="auto", max_degree=1), X, y1,
                          cv=3, scoring="roc_auc")
    assert np.all(auc > 0.8), auc
    ovr = OneVsRestClassifier(BooleanRuleSetClassifier(binarizer="auto", max_degree=1))
    assert ovr.fit(X, y).score(X, y) > 0.9


def test_dro_scores_are_the_calibrated_vote_even_with_one_member():
    from tests.internals import PRIOR_STRENGTH

    X, y = wine()
    y1 = (y == 0).astype(int)
    one = DRORuleEnsembleClassifier(complexity=6, n_estimators=1, random_state=0,
                                    member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto", max_degree=1)).fit(X, y1)
    assert np.flatnonzero(one.weights_).size == 1
    member = one.members_[int(np.flatnonzero(one.weights_)[0])]
    h = member.evaluate(X).astype(bool)
    np.testing.assert_array_equal(one.decision_function(X), h.astype(float))
    # two vote levels (the member silent or firing), each the smoothed share of class 1
    pi, m = y1.mean(), PRIOR_STRENGTH
    share = [(y1[h == v].sum() + m * pi) / ((h == v).sum() + m) for v in (False, True)]
    s = one.predict_proba(X)[:, 1]
    np.testing.assert_allclose(s[~h], min(share[0], 0.5))
    np.testing.assert_allclose(s[h], max(share[1], np.nextafter(0.5, 1)))
    assert 0 < s.min() and s.max() < 1
    # a two-valued score's ROC AUC is (TPR + TNR) / 2
    from sklearn.metrics import roc_auc_score

    tpr, tnr = h[y1 == 1].mean(), 1 - h[y1 == 0].mean()
    assert roc_auc_score(y1, s) == pytest.approx((tpr + tnr) / 2)
    auc = cross_val_score(clone(one), X, y1, cv=3, scoring="roc_auc")
    assert np.all(np.isfinite(auc)) and np.all(auc > 0.7), auc


def test_rule_set_of_three_classes_points_to_its_per_class_rule_sets(tmp_path):
    from sklearn.datasets import load_wine

    from optirules.errors import InputError
    from optirules.learners import BooleanRuleSetClassifier

    X, y = load_wine(return_X_y=True)
    clf = BooleanRuleSetClassifier(binarizer="auto", max_degree=1, random_state=0).fit(X, y)
    for call in (lambda: clf.decision_rules(X), lambda: clf.export_model(tmp_path / "m.lp")):
        with pytest.raises(InputError, match=r"estimators_\[k\]"):
            call()
    # the advice works: the rule set of class 0 against the rest fires and exports
    fired = clf.estimators_[0].decision_rules(X)
    assert fired.shape == (len(y), len(clf.estimators_[0].rules_))
    assert clf.estimators_[0].export_model(tmp_path / "m0.lp")[0].exists()

    dro = DRORuleEnsembleClassifier(complexity=6, n_estimators=2, random_state=0,
                                    member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto", max_degree=1)).fit(X, y)
    with pytest.raises(InputError, match=r"estimators_\[k\]\.export_model"):
        dro.export_model(tmp_path / "dro.lp")
    assert dro.estimators_[1].export_model(tmp_path / "dro1.lp")[0].exists()
