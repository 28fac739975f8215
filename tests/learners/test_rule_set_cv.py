"""BooleanRuleSetCV: the penalty of the rule set chosen by cross-validation.

The CV scores are recomputed fold by fold with plain BooleanRuleSetClassifier fits, the
selection rules are checked on hand-made score tables, and the refit must equal a plain fit
at the chosen penalty.
"""

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import Pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from optirules.data import FeatureBinarizer, load_dataset
from optirules.errors import InputError
from optirules.learners import BooleanRuleSetClassifier, BooleanRuleSetCV

from .test_rule_set import binary_data, mixed_frame


def heart_sample(n=150):
    X, y = load_dataset("heart_statlog")
    return X.iloc[:n].reset_index(drop=True), np.asarray(y)[:n]


def test_cv_scores_equal_fold_by_fold_refits_and_the_refit_is_a_plain_fit():
    X, y = heart_sample()
    base = BooleanRuleSetClassifier(binarizer="auto", max_degree=2, random_state=0)
    grid = (0.001, 0.004, (0.02, 0.005))
    est = BooleanRuleSetCV(base, penalties=grid, cv=3, random_state=4,
                           reuse_pool=False).fit(X, y)
    folds = list(StratifiedKFold(3, shuffle=True, random_state=4).split(X, y))
    for c, pen in enumerate(grid):
        l0, l1 = (pen, pen) if np.ndim(pen) == 0 else pen
        scores, comps = [], []
        for tr, te in folds:
            m = BooleanRuleSetClassifier(binarizer="auto", max_degree=2, random_state=0,
                                         lambda0=l0, lambda1=l1).fit(X.iloc[tr], y[tr])
            scores.append(np.mean(m.predict(X.iloc[te]) == y[te]))
            comps.append(m.rules_.complexity)
        assert est.cv_results_["lambda0"][c] == l0 and est.cv_results_["lambda1"][c] == l1
        np.testing.assert_allclose([est.cv_results_[f"split{s}_score"][c] for s in range(3)],
                                   scores)
        assert est.cv_results_["mean_score"][c] == pytest.approx(np.mean(scores))
        assert est.cv_results_["mean_complexity"][c] == pytest.approx(np.mean(comps))
    mean = est.cv_results_["mean_score"]
    assert mean[est.best_index_] == mean.max()
    l0, l1 = est.penalty_
    plain = BooleanRuleSetClassifier(binarizer="auto", max_degree=2, random_state=0,
                                     lambda0=l0, lambda1=l1).fit(X, y)
    assert est.best_estimator_.clauses_ == plain.clauses_
    assert str(est.rules_) == str(plain.rules_)
    np.testing.assert_array_equal(est.predict(X), plain.predict(X))
    assert est.n_splits_ == 3 and est.cv_time_ <= est.fit_time_
    assert "chosen by 3-fold cross-validation" in str(est)


def test_cv_takes_every_form_scikit_learn_takes():
    """An int, a splitter, a list of (train, test) pairs and a generator of them give the same
    fold scores when they describe the same folds; bad folds are refused with InputError."""
    X, y = binary_data(0, n=90)
    base = BooleanRuleSetClassifier(max_degree=1, random_state=0)
    skf = StratifiedKFold(3, shuffle=True, random_state=2)
    folds = list(skf.split(X, y))
    results = []
    for cv in (3, skf, folds, (pair for pair in folds)):
        est = BooleanRuleSetCV(base, penalties=(0.001, 0.01), cv=cv, random_state=2).fit(X, y)
        assert est.n_splits_ == 3
        results.append([est.cv_results_[f"split{s}_score"] for s in range(3)])
    for other in results[1:]:
        np.testing.assert_array_equal(np.asarray(other), np.asarray(results[0]))
    for bad in ([(np.arange(10), np.array([500]))], [], "abc", 2.5):
        with pytest.raises(InputError, match="cv"):
            BooleanRuleSetCV(base, penalties=(0.001,), cv=bad).fit(X, y)


def test_selection_rules_on_a_hand_made_score_table():
    est = BooleanRuleSetCV(penalties=(0.001, 0.002, 0.005), selection="best")
    est.n_splits_ = 5
    table = {"lambda0": np.array([0.001, 0.002, 0.005]),
             "lambda1": np.array([0.001, 0.002, 0.005]),
             "mean_score": np.array([0.90, 0.90, 0.86]),
             "std_score": np.array([0.04, 0.04, 0.02])}
    # a tie between 0.001 and 0.002 goes to the larger penalty (the simpler rule set)
    assert est._select(table) == 1
    # one standard error of the best: 0.04 / sqrt(4) = 0.02 -> 0.86 >= 0.90 - 0.02 fails,
    # 0.88 passes
    est.selection = "one_se"
    assert est._select(table) == 1
    table["mean_score"] = np.array([0.90, 0.85, 0.88])
    assert est._select(table) == 2
    est.selection = "best"
    assert est._select(table) == 0


def test_weighted_scores_and_deterministic_fits():
    X, y = binary_data(3, n=60, noise=0.15)
    w = np.linspace(0.5, 2.0, len(y))
    base = BooleanRuleSetClassifier(max_degree=2)
    a = BooleanRuleSetCV(base, penalties=(0.001, 0.01), cv=3, random_state=0)
    a.fit(X, y, sample_weight=w)
    b = BooleanRuleSetCV(base, penalties=(0.001, 0.01), cv=3, random_state=0,
                         n_jobs=2).fit(X, y, sample_weight=w)
    for key, value in a.cv_results_.items():
        if key != "mean_fit_time":
                np.testing.assert_array_equal(value, b.cv_results_[key], err_msg=key)
    assert a.best_estimator_.clauses_ == b.best_estimator_.clauses_
    folds = list(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
    tr, te = folds[0]
    m = BooleanRuleSetClassifier(max_degree=2, lambda0=0.01, lambda1=0.01)
    m.fit(X[tr], y[tr], sample_weight=w[tr])
    expect = np.average(m.predict(X[te]) == y[te], weights=w[te])
    assert a.cv_results_["split0_score"][1] == pytest.approx(expect)


def test_scoring_json_explain_and_pipeline(tmp_path):
    X, y = mixed_frame(2, n=90)
    est = BooleanRuleSetCV(BooleanRuleSetClassifier(binarizer="auto", max_degree=1),
                           penalties=(0.001, 0.01), cv=3, scoring="balanced_accuracy")
    est.fit(X, y)
    assert set(est.classes_) == {"sick", "well"}
    back = BooleanRuleSetCV.from_json(est.to_json(tmp_path / "cv.json"))
    np.testing.assert_array_equal(back.predict(X), est.predict(X))
    assert back.penalty_ == est.penalty_ and back.best_index_ == est.best_index_
    refit = BooleanRuleSetClassifier.from_json(est.best_estimator_.to_json())
    np.testing.assert_array_equal(refit.predict(X), est.predict(X))
    assert len(est.explain(X[:4])) == 4 and est.decision_rules(X).shape[0] == len(y)
    # the exported master is the refitted rule set's: HiGHS re-solving it gets its objective
    from optirules.solvers import read_model

    (path,) = est.export_model(tmp_path / "m.mps")
    assert read_model(path, mip_gap=1e-10).objective == pytest.approx(
        est.best_estimator_.ip_objective_, abs=1e-9)
    pipe = Pipeline([("bin", FeatureBinarizer(n_thresholds=3)),
                     ("rules", BooleanRuleSetCV(BooleanRuleSetClassifier(max_degree=1),
                                                penalties=(0.001, 0.01), cv=2))]).fit(X, y)
    assert pipe.score(X, y) > 0.7


def test_clear_errors():
    X, y = binary_data(0, n=30)
    fit = BooleanRuleSetCV(BooleanRuleSetClassifier(max_degree=1), cv=2).fit
    with pytest.raises(InputError, match="only one class"):
        fit(X, np.ones(30))
    with pytest.raises(InputError, match="rows"):
        fit(X, y[:-1])
    y1 = np.zeros(30, int)
    y1[0] = 1
    with pytest.raises(InputError, match="single row"):
        fit(X, y1)
    y2 = y1.copy()
    y2[1] = 1
    with pytest.warns(UserWarning, match="using 2 folds"):
        BooleanRuleSetCV(BooleanRuleSetClassifier(max_degree=1), cv=3,
                         penalties=(0.01,)).fit(X, y2)
    for bad in (dict(penalties=()), dict(penalties=(-1,)), dict(penalties=((1, 2, 3),)),
                dict(penalties=(0.1, 0.1)), dict(penalties=("a",)), dict(cv=1),
                dict(selection="worst"), dict(estimator="tree"), dict(scoring="nope")):
        with pytest.raises(InputError):
            BooleanRuleSetCV(**{"cv": 2, **bad}).fit(X, y)
    with pytest.raises(InputError, match="binarizer"):
        BooleanRuleSetCV(BooleanRuleSetClassifier(max_degree=1, binarizer=None),
                         cv=2).fit(X + 0.5, y)
    with pytest.raises(NotFittedError, match="not fitted"):
        BooleanRuleSetCV().predict(X)


@parametrize_with_checks(
    [BooleanRuleSetCV(BooleanRuleSetClassifier(binarizer="auto", max_degree=1,
                                               max_iter=20),
                      penalties=(0.001, 0.02), cv=2)],
    # the sample-weight equivalence check passes its folds as a list of (train, test)
    # pairs, which cv takes; on its 3-class data (one rule set per class) the weighted and
    # the repeated rows reach two rule sets of equal master objective for one class
    # (x14 <= 0.18 or x7 > 0.88 beside x2 <= 0.4, the same training rows covered), so a
    # test row scores differently: a tie of the master IP, not a weighting error
    expected_failed_checks=lambda est: {
        "check_sample_weight_equivalence_on_dense_data":
            "equal-objective rule sets of one class differ between weighted and repeated rows"},
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_time_limit_bounds_the_whole_search():
    """A limit far below the time of the full grid: the call says that the limit cut the
    search, and
    chooses only among penalties scored on every fold; without a limit the same grid is
    complete."""
    X, y = load_dataset("wdbc")
    base = BooleanRuleSetClassifier(binarizer="auto", max_degree=2, random_state=0)
    grid = (0.0005, 0.001, 0.002, 0.1)
    BooleanRuleSetClassifier(binarizer="auto", max_degree=1).fit(X.iloc[:80], y[:80])  # imports
    # (no wall-clock assertion: on a busy machine it measures the load; the status and the
    # incomplete cells show that the limit cut the search short)
    est = BooleanRuleSetCV(base, penalties=grid, cv=3, time_limit=1.0, random_state=0).fit(X, y)
    res = est.cv_results_
    # what the limit cuts depends on the machine's speed; what it must not break does not
    if res["complete"].all():  # a fast machine scored the whole grid within the limit
        assert est.status_ == "complete"
    else:
        assert est.status_.startswith("time_limit")
    assert np.isnan(res["mean_score"][~res["complete"]]).all()
    if res["complete"].any():
        assert res["complete"][est.best_index_]
        assert res["complete"][grid.index(0.1)]  # the largest penalty is scored first
        assert est.score(X, y) > 0.85
    else:  # a busy machine: not even the largest penalty finished every fold
        assert "no penalty was scored on every fold" in est.status_
        assert est.score(X, y) > 0.6
    with pytest.raises(InputError, match="time_limit"):
        BooleanRuleSetCV(base, time_limit=-1).fit(X, y)
    # a limit too short for any penalty to finish every fold still returns a model
    tiny = BooleanRuleSetCV(base, penalties=(0.0005, 0.001), cv=3, time_limit=0.3,
                            random_state=0).fit(X, y)
    assert tiny.score(X, y) > 0.6
    if not tiny.cv_results_["complete"].any():  # the usual case; a fast machine may finish one
        assert "no penalty was scored on every fold" in tiny.status_
    else:
        assert tiny.cv_results_["complete"][tiny.best_index_]
    small = BooleanRuleSetCV(BooleanRuleSetClassifier(max_degree=1), penalties=(0.01, 0.1),
                             cv=2, time_limit=60).fit(*binary_data(0, n=60))
    assert small.status_ == "complete" and small.cv_results_["complete"].all()


# ------------------------------------------------- warm starts, early stopping, progress
def planted(n=600, seed=0):
    """y = (x0 & x1 & ~x2) | (x3 & ~x4 & x5) over 12 binary features, 2 % label noise: the
    two planted clauses are the unique optimum at these penalties."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, 12))
    b = X.astype(bool)
    y = (b[:, 0] & b[:, 1] & ~b[:, 2]) | (b[:, 3] & ~b[:, 4] & b[:, 5])
    return X, (y ^ (rng.random(n) < 0.02)).astype(int)


def test_pool_reuse_gives_the_plain_path_and_n_jobs_does_not_matter():
    X, y = planted(400)
    base = BooleanRuleSetClassifier(random_state=0)
    grid = (0.001, 0.004, 0.02)
    plain = BooleanRuleSetCV(base, penalties=grid, cv=3, random_state=1,
                             reuse_pool=False).fit(X, y)
    warm = BooleanRuleSetCV(base, penalties=grid, cv=3, random_state=1,
                            reuse_pool=True).fit(X, y)
    for key in ("mean_score", "mean_complexity", "split0_score", "split1_score",
                "split2_score", "complete"):
        np.testing.assert_array_equal(warm.cv_results_[key], plain.cv_results_[key],
                                      err_msg=key)
    assert warm.penalty_ == plain.penalty_
    assert sorted(warm.best_estimator_.clauses_) == sorted(plain.best_estimator_.clauses_) \
        == [(0, 1, 14), (3, 5, 16)]  # literal 12 + j is x_j == 0
    par = BooleanRuleSetCV(base, penalties=grid, cv=3, random_state=1, reuse_pool=True,
                           n_jobs=2).fit(X, y)
    for key, value in warm.cv_results_.items():
        if key != "mean_fit_time":
            np.testing.assert_array_equal(value, par.cv_results_[key], err_msg=key)
    assert par.best_estimator_.clauses_ == warm.best_estimator_.clauses_


def test_early_stopping_scores_a_prefix_of_the_path_and_logs(caplog):
    import logging

    X, y = planted(seed=2)
    base = BooleanRuleSetClassifier(random_state=0)
    grid = (0.0002, 0.0005, 0.002, 0.006, 0.02, 0.2)
    full = BooleanRuleSetCV(base, penalties=grid, cv=3, random_state=0).fit(X, y)
    with caplog.at_level(logging.INFO, logger="optirules.learners.rule_set_cv"):
        early = BooleanRuleSetCV(base, penalties=grid, cv=3, random_state=0,
                                 n_iter_no_change=1, verbose=True).fit(X, y)
    done = early.cv_results_["complete"]
    assert done[-1] and not done[0]  # path from the largest penalty down, cut before the end
    assert early.status_.startswith("stopped early")
    np.testing.assert_array_equal(early.cv_results_["mean_score"][done],
                                  full.cv_results_["mean_score"][done])
    # the path stopped one penalty after its best: the best mean is among those scored
    assert early.cv_results_["mean_score"][early.best_index_] == \
        np.nanmax(early.cv_results_["mean_score"])
    msgs = [r.getMessage() for r in caplog.records if r.name == "optirules.learners.rule_set_cv"]
    assert any(m.startswith("penalty (0.2, 0.2): mean score") for m in msgs)
    assert any(m.startswith("stopped early") for m in msgs)
    assert any(m.startswith("chosen penalty") for m in msgs)
    with pytest.raises(InputError, match="n_iter_no_change"):
        BooleanRuleSetCV(base, n_iter_no_change=0).fit(X, y)


def test_solver_is_set_on_every_fit_and_checked_first():
    from optirules.errors import OptirulesError

    X, y = planted(200)
    est = BooleanRuleSetCV(BooleanRuleSetClassifier(max_degree=1), penalties=(0.01,), cv=2,
                           solver="highs").fit(X, y)
    assert est.best_estimator_.solver == "highs"
    with pytest.raises(OptirulesError):
        BooleanRuleSetCV(solver="no_such_solver").fit(X, y)


@pytest.mark.parametrize("bad", [0, float("nan"), "abc", 1.5, True])
def test_a_bad_n_jobs_is_refused_before_any_fit(bad):
    X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]] * 5)
    y = np.array([1, 0, 1, 0] * 5)
    with pytest.raises(InputError, match="'n_jobs' parameter of BooleanRuleSetCV"):
        BooleanRuleSetCV(n_jobs=bad, cv=2).fit(X, y)


def test_penalty_path_points_equal_separate_fits_and_the_cv_scores_them():
    """penalty_path: each point proves the same LP optimum over all clauses as a separate fit
    at that penalty (tol 0) and its IP, over a pool that holds the larger penalties'
    clauses too, is no worse; the CV's default route scores each fold's path, and its
    scores are those of each fold's penalty_path."""
    from sklearn.base import clone

    X, y = load_dataset("heart_statlog")
    base = BooleanRuleSetClassifier(random_state=0, tol=0.0, mip_gap=1e-9, max_degree=2)
    pens = [0.02, 0.01, 0.005]
    path = base.penalty_path(X, y, pens)
    for p, point in zip(pens, path):
        alone = clone(base).set_params(lambda0=p, lambda1=p).fit(X, y)
        assert point.lambda0 == point.lambda0_ == p
        # both prove the LP over all clauses optimal (tol 0): the same bound; the path's
        # IP runs over the pool of the larger penalties too, so it can only be lower
        assert point.gap_certified_ and point.pricing_complete_
        assert point.lp_bound_ == pytest.approx(alone.lp_bound_, abs=1e-7)
        assert point.lp_bound_ - 1e-9 <= point.ip_objective_ <= alone.ip_objective_ + 1e-9
    cv = BooleanRuleSetCV(base, penalties=pens, cv=3, random_state=0).fit(X, y)
    splits = list(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
    for s, (tr, te) in enumerate(splits):  # the fold's path, largest penalty first
        fold = clone(base).penalty_path(X.iloc[tr], y[tr], sorted(pens, reverse=True))
        for point in fold:
            k = pens.index(point.lambda0)
            acc = float(np.mean(point.predict(X.iloc[te]) == y[te]))
            assert cv.cv_results_[f"split{s}_score"][k] == acc
    assert cv.cv_results_["all_certified"].all() and cv.status_ == "complete"
    with pytest.raises(InputError, match="two-class"):
        base.penalty_path(X, np.arange(len(y)) % 3, pens)


def test_prefer_default_keeps_the_own_penalty_unless_another_is_better_by_a_standard_error():
    """selection="prefer_default": the grid point of the rule set's own penalty unless the
    best mean beats its mean by more than the best's standard error (std / sqrt(k - 1));
    without the own penalty in the grid, the best.  Checked on hand-made results."""
    cv = BooleanRuleSetCV(selection="prefer_default")
    cv.n_splits_ = 5
    results = {"lambda0": np.array([0.07, 0.1, 0.14]), "lambda1": np.array([0.07, 0.1, 0.14]),
               "mean_score": np.array([0.80, 0.78, 0.75]),
               "std_score": np.array([0.04, 0.03, 0.03])}
    cv._own_index = 1
    assert cv._select(results) == 1          # 0.80 - 0.78 = 0.02 <= 0.04 / 2
    results["mean_score"] = np.array([0.81, 0.78, 0.75])
    assert cv._select(results) == 0          # 0.03 > 0.02
    cv._own_index = None
    results["mean_score"] = np.array([0.79, 0.80, 0.75])
    assert cv._select(results) == 1          # the best
    X, y = load_dataset("heart_statlog")
    fitted = BooleanRuleSetCV(BooleanRuleSetClassifier(random_state=0, max_degree=2), cv=3,
                              selection="prefer_default", random_state=0).fit(X, y)
    assert fitted._own_index == 1            # factor 1 of (0.7, 1.0, 1.4, 2.0, 2.8)
    assert fitted.cv_results_["lambda0"][1] == pytest.approx(0.1 / np.sqrt(len(y)))
