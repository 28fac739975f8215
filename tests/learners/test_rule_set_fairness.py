"""``fairness`` on the rule set: the fitted rule set meets the bound on the training rows
(DNF and CNF, each notion), ``fairness_report`` equals fairlearn's metrics, the certified
optimum is that of full enumeration, and bad input is refused before any work."""

import itertools

import numpy as np
import pandas as pd
import pytest

from optirules.errors import InputError
from optirules.learners import (
    BooleanRuleSetClassifier,
    DRORuleEnsembleClassifier,
    fairness_report,
)
from optirules.models import master_objective


def _table(seed=0, n=240):
    """0/1 columns; ``g`` (the protected attribute) is also a column, and the label leans
    on it, so an unconstrained rule set treats the groups differently."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 2, size=(n, 5)), columns=list("abcde"))
    g = rng.integers(0, 2, n)
    X["g"] = g
    y = ((X["a"] & X["b"]) | (X["g"] & X["c"]) | (X["d"] & (1 - X["e"]))).to_numpy()
    return X, np.where(rng.random(n) < 0.08, 1 - y, y), g


KW = dict(binarizer=None, max_degree=2, mip_gap=1e-9, tol=0.0, random_state=0)


def _fair_optimum(X, y, g, tolerance):
    """The least master objective (no penalty) over every rule set of at most two clauses
    of at most two literals whose groups' true-positive rates differ by at most
    ``tolerance``, by enumeration."""
    A = np.hstack([X.to_numpy() == 1, X.to_numpy() == 0])
    L = A.shape[1]
    clauses = [(i,) for i in range(L)] + list(itertools.combinations(range(L), 2))
    P = np.full(len(y), 1.0 / len(y))
    best = np.inf
    for r in range(3):
        for subset in itertools.combinations(clauses, r):
            cov = np.zeros(len(y), bool)
            for c in subset:
                cov |= A[:, list(c)].all(axis=1)
            tpr = [cov[(y == 1) & (g == a)].mean() for a in (0, 1)]
            if abs(tpr[0] - tpr[1]) <= tolerance + 1e-12:
                best = min(best, master_objective(A, y == 1, P, list(subset), 0.0, 0.0))
    return best


@pytest.mark.parametrize("form", ["dnf", "cnf"])
@pytest.mark.parametrize("fairness", ["equal_opportunity", "equalized_odds",
                                      "predictive_equality"])
def test_the_fitted_rule_set_meets_the_bound_on_the_training_rows(form, fairness):
    X, y, g = _table()
    free = BooleanRuleSetClassifier(form=form, **KW).fit(X, y)
    est = BooleanRuleSetClassifier(form=form, fairness=fairness, fairness_tolerance=0.03,
                                   **KW).fit(X, y, sensitive_features=g)
    report = est.fairness_report(X, y, g)
    tpr = report.equal_opportunity_difference
    fpr = report.by_group["false_positive_rate"].max() - \
        report.by_group["false_positive_rate"].min()
    if fairness != "predictive_equality":
        assert tpr <= 0.03 + 1e-9
    if fairness != "equal_opportunity":
        assert fpr <= 0.03 + 1e-9
    assert est.fairness_gap_ <= 0.03 + 1e-9
    assert est.gap_certified_
    # the constraint binds: the free fit is less fair on the constrained rate, and the
    # fair fit pays for it in the objective
    free_report = free.fairness_report(X, y, g)
    assert max(free_report.equal_opportunity_difference,
               free_report.equalized_odds_difference) > 0.03
    assert est.ip_objective_ >= free.lp_bound_ - 1e-12


def test_the_fit_is_certified_against_full_enumeration():
    """Equal opportunity within 0.05, at most two rules of at most two literals: the fit's
    certified bound is below the enumerated optimum and its rule set is no better."""
    X, y, g = _table(1, n=160)
    est = BooleanRuleSetClassifier(fairness="equal_opportunity", fairness_tolerance=0.05,
                                   max_rules=2, lambda0=0.0, lambda1=0.0,
                                   **KW).fit(X, y, sensitive_features=g)
    best = _fair_optimum(X, y, g, 0.05)
    assert est.lp_bound_ <= best + 1e-9 <= est.ip_objective_ + 2e-9
    assert est.ip_objective_ - est.lp_bound_ <= est.gap_ * est.ip_objective_ + 1e-12


def test_fairness_report_equals_fairlearn():
    metrics = pytest.importorskip("fairlearn.metrics")
    rng = np.random.default_rng(4)
    y_true, y_pred = rng.integers(0, 2, 300), rng.integers(0, 2, 300)
    groups = rng.choice(["a", "b", "c"], 300)
    w = rng.random(300)
    for sw in (None, w):
        r = fairness_report(y_true, y_pred, groups, sample_weight=sw)
        assert r.equal_opportunity_difference == pytest.approx(
            metrics.equal_opportunity_difference(y_true, y_pred, sensitive_features=groups,
                                                 sample_weight=sw))
        assert r.equalized_odds_difference == pytest.approx(
            metrics.equalized_odds_difference(y_true, y_pred, sensitive_features=groups,
                                              sample_weight=sw))
        assert r.demographic_parity_difference == pytest.approx(
            metrics.demographic_parity_difference(y_true, y_pred, sensitive_features=groups,
                                                  sample_weight=sw))
    text = str(fairness_report(y_true, y_pred, groups))
    assert "equal opportunity difference" in text


def test_intersectional_groups_from_several_columns():
    X, y, g = _table(2)
    h = (X["a"].to_numpy() + g) % 2
    est = BooleanRuleSetClassifier(fairness="equal_opportunity", fairness_tolerance=0.05,
                                   **KW).fit(X, y, sensitive_features=np.column_stack([g, h]))
    report = est.fairness_report(X, y, pd.DataFrame({"g": g, "h": h}))
    assert len(report.by_group) == 4
    assert report.equal_opportunity_difference <= 0.05 + 1e-9


def test_the_parameters_survive_json():
    X, y, g = _table(3, n=120)
    est = BooleanRuleSetClassifier(fairness="equalized_odds", fairness_tolerance=0.1,
                                   **KW).fit(X, y, sensitive_features=g)
    back = BooleanRuleSetClassifier.from_json(est.to_json())
    assert back.fairness == "equalized_odds" and back.fairness_tolerance == 0.1
    np.testing.assert_array_equal(back.predict(X), est.predict(X))


@pytest.mark.parametrize("fit_kw,params,match", [
    ({}, dict(fairness="equal_opportunity"), "needs the protected attribute"),
    (dict(sensitive_features=np.zeros(240)), {}, "fairness is None"),
    (dict(sensitive_features=np.zeros(7)), dict(fairness="equal_opportunity"),
     "one value per row"),
    (dict(sensitive_features="g"), dict(fairness="equal_opportunity"), "is a string"),
    (dict(sensitive_features=np.zeros(240)), dict(fairness="equal_opportunity"),
     "single group"),
    (dict(sensitive_features=np.r_[np.full(239, "x"), None].astype(object)),
     dict(fairness="equal_opportunity"), "missing values"),
])
def test_bad_input_is_refused_before_any_work(fit_kw, params, match):
    X, y, _ = _table()
    with pytest.raises(InputError, match=match):
        BooleanRuleSetClassifier(**params, **KW).fit(X, y, **fit_kw)


def test_refused_with_three_classes_and_in_the_dro_members():
    X, y, g = _table()
    y3 = np.where(X["e"] == 1, 2, y)
    with pytest.raises(InputError, match="two classes"):
        BooleanRuleSetClassifier(fairness="equal_opportunity", **KW).fit(
            X, y3, sensitive_features=g)
    member = BooleanRuleSetClassifier(fairness="equal_opportunity")
    with pytest.raises(InputError, match="DRO ensemble does not take a member with fairness"):
        DRORuleEnsembleClassifier(member=member).fit(X, y)


def test_the_cv_learner_routes_the_protected_attribute_to_every_fit():
    from optirules.learners import BooleanRuleSetCV

    X, y, g = _table(5)
    est = BooleanRuleSetClassifier(fairness="equal_opportunity", fairness_tolerance=0.03,
                                   **KW)
    cv = BooleanRuleSetCV(est, cv=3, penalties=(0.001, 0.01)).fit(X, y,
                                                                  sensitive_features=g)
    assert cv.best_estimator_.fairness_gap_ <= 0.03 + 1e-9
    assert cv.best_estimator_.fairness_report(X, y, g).equal_opportunity_difference \
        <= 0.03 + 1e-9
    with pytest.raises(InputError, match="needs the protected attribute"):
        BooleanRuleSetCV(est, cv=3).fit(X, y)


def test_the_status_says_what_was_proven():
    """With equal true-positive rates exactly (tolerance 0), column generation's pool can
    miss the fair optimum: full enumeration finds a fair rule set far better than the IP's
    over the generated clauses.  The status says "optimal over the generated clauses" and
    never "certified optimal"; an unconstrained fit whose certified gap is closed says
    "certified optimal over all clauses"."""
    X, y, g = _table(0, n=80)
    est = BooleanRuleSetClassifier(fairness="equal_opportunity", fairness_tolerance=0.0,
                                   max_rules=2, lambda0=0.0, lambda1=0.0,
                                   **{**KW, "mip_gap": 0.0}).fit(X, y, sensitive_features=g)
    best = _fair_optimum(X, y, g, 0.0)
    assert best < est.ip_objective_ - 0.1  # the IP over the pool is not the optimum
    assert est.lp_bound_ <= best + 1e-9
    assert "IP optimal over the generated clauses" in est.status_
    assert "certified optimal" not in est.status_
    free = BooleanRuleSetClassifier(max_rules=2, lambda0=0.0, lambda1=0.0, **KW).fit(X, y)
    assert free.absolute_gap_ <= 1e-9
    assert free.status_.endswith("IP optimal over the generated clauses; certified optimal "
                                 "over all clauses")


def test_fairness_report_weighted_rates_by_hand():
    """Group a: positives weigh 1 (hit) and 3 (missed), a negative 2 (hit); group b: a
    positive 1 (hit), negatives 1 (missed) and 0 (hit, a zero weight counts nothing)."""
    y_true = [1, 1, 0, 1, 0, 0]
    y_pred = [1, 0, 1, 1, 0, 1]
    groups = ["a", "a", "a", "b", "b", "b"]
    r = fairness_report(y_true, y_pred, groups, sample_weight=[1, 3, 2, 1, 1, 0])
    assert r.by_group.loc["a", "true_positive_rate"] == pytest.approx(1 / 4)
    assert r.by_group.loc["b", "true_positive_rate"] == pytest.approx(1.0)
    assert r.by_group.loc["a", "false_positive_rate"] == pytest.approx(1.0)
    assert r.by_group.loc["b", "false_positive_rate"] == pytest.approx(0.0)
    assert r.by_group.loc["a", "selection_rate"] == pytest.approx(3 / 6)
    assert r.equal_opportunity_difference == pytest.approx(3 / 4)
    assert r.equalized_odds_difference == pytest.approx(1.0)
    assert r.accuracy == pytest.approx((1 + 1 + 1) / 8)


@pytest.mark.parametrize("bad,match", [
    (-5.0, "non-negative finite weight"),
    (np.nan, "NaN.*non-negative finite weight"),
    (np.inf, "infinity.*non-negative finite weight"),
])
def test_fairness_report_refuses_bad_weights_before_predicting(bad, match, monkeypatch):
    X, y, g = _table(3, n=120)
    est = BooleanRuleSetClassifier(**KW).fit(X, y)
    w = np.r_[bad, np.ones(len(y) - 1)]
    monkeypatch.setattr(est, "predict", lambda X: pytest.fail("predicted before checking"))
    with pytest.raises(InputError, match=match):
        est.fairness_report(X, y, g, sample_weight=w)
    with pytest.raises(InputError, match=match):
        fairness_report(y, y, g, sample_weight=w)


@pytest.mark.parametrize("labels,match", [
    (lambda y: y.astype(str), r"labels the model does not know \('[01]', '[01]'\).*"
                              r"classes are \[0, 1\].*of their type"),
    (lambda y: np.where(y == 0, 7, y), r"does not know \(7\)"),
    (lambda y: np.where(np.arange(len(y)) == 0, np.nan, y), "does not know"),
])
def test_fairness_report_refuses_labels_the_model_does_not_know(labels, match, monkeypatch):
    """Labels of another type than ``classes_`` made every rate NaN, unknown labels were
    counted as negatives: both are refused before any prediction."""
    X, y, g = _table(3, n=120)
    est = BooleanRuleSetClassifier(**KW).fit(X, y)
    monkeypatch.setattr(est, "predict", lambda X: pytest.fail("predicted before checking"))
    with pytest.raises(InputError, match=match):
        est.fairness_report(X, labels(y), g)


@pytest.mark.parametrize("y_true,y_pred,kw,match", [
    ([], [], {}, "no rows"),
    ([1, 0], ["1", "0"], {}, "mix text and number labels"),
    ([1, 0, 2], [1, 0, 0], {}, "3 labels.*two classes"),
    (["x", "y"], ["y", "x"], {}, "pos_label=1 is neither of the labels"),
    ([1.0, np.nan], [1, 0], {}, "NaN"),
])
def test_the_function_refuses_labels_it_cannot_rate(y_true, y_pred, kw, match):
    with pytest.raises(InputError, match=match):
        fairness_report(y_true, y_pred, ["a", "b", "c"][:len(y_true)], **kw)


def test_fairness_report_on_no_rows_and_on_three_classes():
    X, y, g = _table(3, n=120)
    est = BooleanRuleSetClassifier(**KW).fit(X, y)
    with pytest.raises(InputError, match="X has no rows"):
        est.fairness_report(X.iloc[:0], y[:0], g[:0])
    y3 = np.where(X["e"] == 1, 2, y)
    multi = BooleanRuleSetClassifier(**KW).fit(X, y3)
    with pytest.raises(InputError, match=r"this model has 3.*estimators_\[k\]"
                                         r"\.fairness_report\(X, y == classes_\[k\]"):
        multi.fairness_report(X, y3, g)
    # the advice works: the rates of class 2 against the rest
    r = multi.estimators_[2].fairness_report(X, y3 == 2, g)
    assert r.accuracy == pytest.approx(np.mean((multi.predict(X) == 2) == (y3 == 2)))
