"""DecisionListCV: max_degree and min_coverage of a BruteDL list chosen by cross-validation."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.utils.estimator_checks import parametrize_with_checks

from optirules.errors import InputError, NotFittedError
from optirules.learners import DecisionListClassifier, DecisionListCV


def _parity_pair_data(n: int = 400, seed: int = 0, noise: float = 0.0):
    """Six binary attributes; the class is a1 XOR a2.  No single test says anything about
    the class (each value of each attribute holds both classes equally), while the four
    depth-2 rules (a1, a2) = (u, v) classify every row: depth 2 is the known-best depth."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 2, size=(n, 6))
    y = codes[:, 0] ^ codes[:, 1]
    flip = rng.random(n) < noise
    y = np.where(flip, 1 - y, y)
    X = pd.DataFrame({f"a{j + 1}": [f"v{v}" for v in codes[:, j]] for j in range(6)})
    return X, y


def test_chooses_the_planted_depth():
    X, y = _parity_pair_data()
    cv = DecisionListCV(max_degrees=(1, 2, 3), min_coverages=(2,), cv=4, random_state=0)
    cv.fit(X, y)
    assert cv.best_params_ == {"max_degree": 2, "min_coverage": 2}
    res = cv.cv_results_
    scores = dict(zip(res["param_max_degree"].tolist(), res["mean_test_score"].tolist()))
    assert scores[2] == 1.0 and scores[1] < 0.75
    # depth 3 scores as well as depth 2 here; the tie goes to the smaller depth
    assert scores[3] == 1.0
    assert cv.score(X, y) == 1.0
    # the first rule is a pure pair on (a1, a2); later ones may be single tests, pure on
    # the rows left (a pure pair covers more rows than a pure triple, so depth 3 = depth 2)
    assert sorted(c.name for c in cv.rules_[0].conditions) == ["a1", "a2"]
    assert cv.to_text().startswith(
        DecisionListClassifier(max_degree=3, min_coverage=2).fit(X, y).to_text())


def test_cv_results_shape_and_ranks():
    X, y = _parity_pair_data(noise=0.1)
    cv = DecisionListCV(max_degrees=(1, 2), min_coverages=(2, 5, 10), cv=3, random_state=1)
    cv.fit(X, y)
    res = cv.cv_results_
    assert res["param_max_degree"].tolist() == [1, 1, 1, 2, 2, 2]
    assert res["param_min_coverage"].tolist() == [2, 5, 10, 2, 5, 10]
    assert res["params"][4] == {"max_degree": 2, "min_coverage": 5}
    for key in ("split0_test_score", "split1_test_score", "split2_test_score",
                "mean_test_score", "std_test_score", "rank_test_score", "mean_n_rules",
                "mean_fit_time"):
        assert res[key].shape == (6,)
    assert "split3_test_score" not in res and cv.n_splits_ == 3
    splits = np.column_stack([res[f"split{s}_test_score"] for s in range(3)])
    np.testing.assert_allclose(res["mean_test_score"], splits.mean(axis=1))
    np.testing.assert_allclose(res["std_test_score"], splits.std(axis=1))
    assert res["rank_test_score"][cv.best_index_] == 1
    assert cv.best_score_ == res["mean_test_score"].max()
    # the split scores are those of plain fits on the same folds
    folds = list(StratifiedKFold(3, shuffle=True, random_state=1).split(X, y))
    for g, params in enumerate(res["params"]):
        for s, (tr, te) in enumerate(folds):
            plain = DecisionListClassifier(**params).fit(X.iloc[tr], y[tr])
            assert res[f"split{s}_test_score"][g] == plain.score(X.iloc[te], y[te])


def test_the_grid_replaces_the_default_auto_coverage():
    X, y = _parity_pair_data(noise=0.1, seed=2)
    assert DecisionListClassifier().min_coverage == "auto"
    cv = DecisionListCV(max_degrees=(1, 2), min_coverages=(3, 7), cv=3, random_state=0)
    cv.fit(X, y)
    assert cv.cv_results_["param_min_coverage"].tolist() == [3, 7, 3, 7]
    assert cv.best_estimator_.min_coverage == cv.best_params_["min_coverage"]
    assert cv.best_estimator_.min_coverage_ == cv.best_params_["min_coverage"]
    with pytest.raises(InputError, match="min_coverages"):
        DecisionListCV(min_coverages=("auto",)).fit(X, y)


def test_refit_equals_a_plain_fit_with_the_best_params():
    X, y = _parity_pair_data(noise=0.15, seed=3)
    base = DecisionListClassifier(fallback="min_osr", osr_rows="all", confidence=0.9)
    cv = DecisionListCV(base, max_degrees=(1, 2), min_coverages=(2, 8), cv=3,
                        random_state=0).fit(X, y)
    plain = DecisionListClassifier(fallback="min_osr", osr_rows="all", confidence=0.9,
                                   **cv.best_params_).fit(X, y)
    assert cv.to_text(stats=True).startswith(plain.to_text(stats=True) + "\nmax_degree = ")
    assert str(cv) == cv.to_text() and str(cv).startswith(str(plain))
    test, _ = _parity_pair_data(n=50, seed=9)
    test.loc[:4, "a1"] = "unseen"
    np.testing.assert_array_equal(cv.predict(test), plain.predict(test))
    np.testing.assert_array_equal(cv.predict_proba(test), plain.predict_proba(test))
    pd.testing.assert_frame_equal(cv.explain(test), plain.explain(test))
    assert cv.best_estimator_.get_params() == plain.get_params()
    # the JSON written through the CV is the refitted list's, loadable by the classifier
    back = DecisionListClassifier.from_json(cv.to_json())
    np.testing.assert_array_equal(back.predict(test), plain.predict(test))
    assert json.loads(cv.to_json())["params"]["max_degree"] == cv.best_params_["max_degree"]


def test_deterministic_and_cv_forms():
    X, y = _parity_pair_data(noise=0.2, seed=5)
    kw = {"max_degrees": (1, 2), "min_coverages": (2, 10)}
    a = DecisionListCV(cv=3, random_state=7, **kw).fit(X, y)
    b = DecisionListCV(cv=3, random_state=7, **kw).fit(X, y)
    np.testing.assert_array_equal(a.cv_results_["mean_test_score"],
                                  b.cv_results_["mean_test_score"])
    assert a.best_params_ == b.best_params_ and a.to_text() == b.to_text()
    # an int equals the stratified splitter it stands for, and an iterable of index pairs
    splitter = StratifiedKFold(3, shuffle=True, random_state=7)
    d = DecisionListCV(cv=splitter, **kw).fit(X, y)
    e = DecisionListCV(cv=list(splitter.split(X, y)), **kw).fit(X, y)
    for other in (d, e):
        np.testing.assert_array_equal(a.cv_results_["mean_test_score"],
                                      other.cv_results_["mean_test_score"])
    f = DecisionListCV(cv=KFold(4), **kw).fit(X, y)
    assert f.n_splits_ == 4


@pytest.mark.parametrize("params", [
    {"max_degrees": ()}, {"max_degrees": (0, 1)}, {"max_degrees": (2, 2)},
    {"max_degrees": (1.5,)}, {"min_coverages": (0,)}, {"min_coverages": "2"},
    {"cv": 1}, {"cv": "five"}, {"cv": True}, {"estimator": "tree"},
    {"scoring": "no_such_metric"},
    {"estimator": DecisionListClassifier(fallback="vote")},
])
def test_bad_parameters_raise_input_error(params):
    X, y = _parity_pair_data(n=60)
    with pytest.raises(InputError):
        DecisionListCV(**params).fit(X, y)


def test_bad_data_raise_input_error():
    X, y = _parity_pair_data(n=60)
    with pytest.raises(InputError, match="one class"):
        DecisionListCV().fit(X, np.zeros(60))
    with pytest.raises(InputError):
        DecisionListCV().fit(X, y[:-1])
    y_rare = np.zeros(60, dtype=int)
    y_rare[0] = 1
    with pytest.raises(InputError, match="single row"):
        DecisionListCV().fit(X, y_rare)
    y_few = y_rare.copy()
    y_few[1:3] = 1
    with pytest.warns(UserWarning, match="3 folds"):
        assert DecisionListCV(max_degrees=(1,), min_coverages=(1,)).fit(X, y_few).n_splits_ == 3
    with pytest.raises(NotFittedError, match="not fitted"):
        DecisionListCV().predict(X)


@parametrize_with_checks([DecisionListCV(max_degrees=(1, 2), min_coverages=(2, 5), cv=2)])
def test_sklearn_compatible(estimator, check):
    # no expected failures: every check of scikit-learn's suite passes
    check(estimator)


def test_verbose_logs_the_grid_scores_and_choice_but_not_the_folds(caplog):
    import logging

    X, y = _parity_pair_data(n=120)
    est = DecisionListClassifier(verbose=True)
    with caplog.at_level(logging.INFO, logger="optirules"):
        cv = DecisionListCV(est, max_degrees=(1, 2), min_coverages=(2,), cv=3,
                            random_state=0, verbose=True).fit(X, y)
    by_name: dict[str, list[str]] = {}
    for r in caplog.records:
        by_name.setdefault(r.name, []).append(r.getMessage())
    cv_lines = by_name["optirules.learners.decision_list_cv"]
    assert cv_lines[0] == "2 pairs (max_degree, min_coverage) x 3 folds = 6 fits"
    for i, d in enumerate((1, 2)):
        assert f"max_degree={d}, min_coverage=2: mean score " \
               f"{cv.cv_results_['mean_test_score'][i]:.4f}" in cv_lines[1 + i]
    assert cv_lines[-1].startswith("chosen: max_degree=2, min_coverage=2")
    # only the refit (one BruteDL search) logs rules, not the six folds' fits
    dl_lines = by_name["optirules.learners.decision_list"]
    assert sum(m.startswith("BruteDL search") for m in dl_lines) == 1
    assert sum(m.startswith("rule found") for m in dl_lines) == len(cv.rules_)


def test_time_limit_bounds_the_search_and_says_so():
    from optirules.data import load_dataset

    X, y = load_dataset("splice")
    full_grid = dict(max_degrees=(1, 2, 3), min_coverages=(2, 5, 10), cv=3, random_state=0)
    cv = DecisionListCV(time_limit=1.0, **full_grid).fit(X, y)
    # a depth-3 exhaustive search on splice's 60 attributes takes far longer than a
    # second, so some pair is left unscored (or cut) and the choice says so
    assert cv.status_.startswith("time_limit (")
    res = cv.cv_results_
    assert not res["complete"].all()
    assert np.isnan(res["mean_test_score"][~res["complete"]]).all()
    # the depths are fitted from the smallest on, each on every fold before the next: a
    # depth with a pair the limit left complete follows depths complete in every pair
    depth = res["param_max_degree"]
    for d in np.unique(depth[res["complete"]]):
        assert res["complete"][depth < d].all()
    if res["complete"].any():  # the chosen pair was scored on every fold when some was
        assert res["complete"][cv.best_index_]
    assert cv.predict(X.iloc[:5]).shape == (5,)
    with pytest.raises(InputError, match="time_limit"):
        DecisionListCV(time_limit=0).fit(X, y)


def test_no_time_limit_is_complete():
    X, y = _parity_pair_data(120)
    cv = DecisionListCV(max_degrees=(1, 2), min_coverages=(2, 5), cv=3).fit(X, y)
    assert cv.status_ == "complete" and cv.cv_results_["complete"].all()


def test_weights_are_passed_to_every_fit_and_weight_the_scores():
    X, y = _parity_pair_data(160, noise=0.1)
    w = np.random.default_rng(0).integers(1, 4, size=len(y))
    kw = dict(max_degrees=(1, 2), min_coverages=(2, 5), cv=StratifiedKFold(3))
    weighted = DecisionListCV(**kw).fit(X, y, sample_weight=w)
    # the refit is the list of the chosen pair fitted with the same weights
    plain = DecisionListClassifier(**weighted.best_params_).fit(X, y, sample_weight=w)
    assert weighted.to_text().splitlines()[:-1] == plain.to_text().splitlines()
    # class_weight reaches every fit: it equals the weights scikit-learn computes
    from sklearn.utils.class_weight import compute_sample_weight

    a = DecisionListCV(class_weight="balanced", **kw).fit(X, y)
    b = DecisionListClassifier(class_weight="balanced", **a.best_params_).fit(X, y)
    c = DecisionListClassifier(**a.best_params_).fit(
        X, y, sample_weight=compute_sample_weight("balanced", y))
    assert a.best_estimator_.to_text() == b.to_text() == c.to_text()


def test_from_json_gives_the_refitted_list():
    X, y = _parity_pair_data(120)
    cv = DecisionListCV(max_degrees=(1, 2), min_coverages=(2,), cv=3).fit(X, y)
    back = DecisionListCV.from_json(cv.to_json())
    assert isinstance(back, DecisionListClassifier)
    np.testing.assert_array_equal(back.predict_proba(X), cv.predict_proba(X))


# ---------------------------------------------------------------------- the shared search
def _mixed_table(n: int = 300, seed: int = 0):
    """Numeric (with NaN), categorical (with missing) and integer columns."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n)
    a[rng.random(n) < 0.08] = np.nan
    b = rng.choice(["red", "green", "blue", None], size=n, p=[0.4, 0.3, 0.25, 0.05])
    c = rng.integers(0, 6, n).astype(float)
    d = rng.choice(["x", "y"], size=n)
    score = (np.nan_to_num(a) > 0.3) + (b == "red") + 0.5 * (c > 3) + 0.6 * rng.normal(size=n)
    y = (score > np.quantile(score, 0.6)).astype(int)
    return pd.DataFrame({"a": a, "b": b, "c": c, "d": d}), y


def _separate_fits(base, X, y, sample_weight, splits, grid, scorer=None):
    """The reference: one DecisionListClassifier per pair and fold, with the weights the CV
    gives its folds (``sample_weight`` as a pmf, times the number of rows), scored as the
    CV scores; the split scores and rule counts, shape (n_pairs, n_folds)."""
    from sklearn.base import clone

    w = None
    if sample_weight is not None:
        sw = np.asarray(sample_weight, dtype=np.float64)
        w = sw / float(sw.sum()) * sw.shape[0]
    scores = np.empty((len(grid), len(splits)))
    n_rules = np.empty_like(scores)
    for g, (d, c) in enumerate(grid):
        for s, (tr, te) in enumerate(splits):
            est = clone(base).set_params(max_degree=d, min_coverage=c).fit(
                X.iloc[tr], y[tr], sample_weight=None if w is None else w[tr])
            if scorer is not None:
                scores[g, s] = scorer(est, X.iloc[te], y[te])
            else:
                hit = est.predict(X.iloc[te]) == y[te]
                scores[g, s] = np.average(hit, weights=None if w is None else w[te])
            n_rules[g, s] = len(est.rules_)
    return scores, n_rules


def _assert_same_as_separate_fits(cv, base, X, y, sample_weight, scorer=None):
    splits = list(StratifiedKFold(5, shuffle=True, random_state=3).split(X, y))
    res = cv.cv_results_
    grid = list(zip(res["param_max_degree"].tolist(), res["param_min_coverage"].tolist()))
    scores, n_rules = _separate_fits(base, X, y, sample_weight, splits, grid, scorer)
    for s in range(len(splits)):
        np.testing.assert_array_equal(res[f"split{s}_test_score"], scores[:, s])
    np.testing.assert_array_equal(res["mean_n_rules"], n_rules.mean(axis=1))
    np.testing.assert_array_equal(res["mean_test_score"], scores.mean(axis=1))
    # the chosen pair: the first best mean, smaller depth then larger coverage first
    order = sorted(range(len(grid)), key=lambda i: (grid[i][0], -grid[i][1]))
    means = scores.mean(axis=1)
    best = next(i for i in order if means[i] >= means.max() - 1e-12)
    assert cv.best_params_ == {"max_degree": grid[best][0], "min_coverage": grid[best][1]}
    plain = clone_with(base, **cv.best_params_).fit(X, y, sample_weight=sample_weight)
    assert cv.best_estimator_.to_text(stats=True) == plain.to_text(stats=True)
    np.testing.assert_array_equal(cv.best_estimator_.uncovered_rows_, plain.uncovered_rows_)
    np.testing.assert_array_equal(cv.best_estimator_.default_counts_, plain.default_counts_)
    assert cv.best_estimator_.stop_reason_ == plain.stop_reason_


def clone_with(base, **params):
    from sklearn.base import clone

    return clone(base).set_params(**params)


@pytest.mark.parametrize("case", ["numeric", "categorical_weighted", "mixed_weighted",
                                  "mixed_class_weight"])
def test_shared_search_scores_exactly_the_lists_of_separate_fits(case, monkeypatch):
    # the default grid, 5 folds: every split score, the rule counts, the chosen pair and
    # the refitted list are those of one DecisionListClassifier per pair and fold
    from optirules.data import load_dataset
    from tests.internals import learners_decision_list_cv_folds_module as folds

    shared = []

    def spy(*args, **kwargs):
        out = grid_lists(*args, **kwargs)
        shared.append(out is not None)
        return out

    grid_lists = folds.grid_lists
    monkeypatch.setattr(folds, "grid_lists", spy)
    rng = np.random.default_rng(0)
    base = DecisionListClassifier()
    sample_weight = None
    if case == "numeric":
        X, y = load_dataset("heart_statlog")
    elif case == "categorical_weighted":
        X, y = load_dataset("house_votes_84")
        sample_weight = rng.integers(1, 4, size=len(y)).astype(float)
    else:
        X, y = _mixed_table()
        sample_weight = rng.choice([0.5, 1.0, 2.0], size=len(y))
        if case == "mixed_class_weight":
            base = DecisionListClassifier(class_weight="balanced", fallback="default")
    cv = DecisionListCV(base, cv=StratifiedKFold(5, shuffle=True, random_state=3))
    cv.fit(X, y, sample_weight=sample_weight)
    assert cv.status_ == "complete"
    assert len(shared) == 3 * 5 + 1 and all(shared)  # each depth and fold, and the refit
    _assert_same_as_separate_fits(cv, base, X, y, sample_weight)


def test_weights_of_many_values_and_a_scorer_give_the_separate_fits_too():
    # weights of many distinct values are not shared (each coverage searched on its own,
    # on the fold's one encoding); a scorer is given the fitted lists
    from sklearn.metrics import get_scorer

    X, y = _mixed_table(n=160, seed=4)
    sample_weight = np.random.default_rng(1).uniform(0.5, 2.0, size=len(y))
    base = DecisionListClassifier(osr_rows="all")
    cv = DecisionListCV(base, max_degrees=(1, 2), min_coverages=(2, 10),
                        cv=StratifiedKFold(5, shuffle=True, random_state=3))
    cv.fit(X, y, sample_weight=sample_weight)
    _assert_same_as_separate_fits(cv, base, X, y, sample_weight)
    cv = DecisionListCV(base, max_degrees=(1, 3), min_coverages=(3, 8), scoring="roc_auc",
                        cv=StratifiedKFold(5, shuffle=True, random_state=3)).fit(X, y)
    _assert_same_as_separate_fits(cv, base, X, y, None, get_scorer("roc_auc"))


def test_n_jobs_gives_the_same_results():
    X, y = _parity_pair_data(noise=0.1, seed=8)
    kw = {"max_degrees": (1, 3), "min_coverages": (2, 10), "cv": 3, "random_state": 0}
    a = DecisionListCV(**kw).fit(X, y)
    b = DecisionListCV(n_jobs=2, **kw).fit(X, y)
    for key in ("split0_test_score", "split1_test_score", "split2_test_score",
                "mean_n_rules"):
        np.testing.assert_array_equal(a.cv_results_[key], b.cv_results_[key])
    assert a.to_text() == b.to_text()
