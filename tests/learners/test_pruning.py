"""QMMPruner, KappaPruner and DREPPruner (the QMM paper) on real ensembles and hand-built cases."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import AdaBoostClassifier, BaggingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import cohen_kappa_score
from sklearn.model_selection import GridSearchCV
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.utils.estimator_checks import parametrize_with_checks

from optirules.errors import InputError, NotFittedError
from optirules.models import QMMFallbackWarning, QMMModel
from tests.internals import (
    DREPPruner,
    KappaPruner,
    QMMPruner,
    ensemble_hypothesis_space_size,
    member_predictions,
)


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    rng = np.random.default_rng(0)
    idx = rng.permutation(X.shape[0])[:300]
    return X[idx[:200]], y[idx[:200]], X[idx[200:]], y[idx[200:]]


@pytest.fixture(scope="module")
def ada_stumps(cancer):
    X, y, _, _ = cancer
    return AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=60,
                              random_state=0).fit(X, y)


# --------------------------------------------------------------------------- member matrix
def test_adaboost_member_vote_reproduces_sklearn_predict(cancer, ada_stumps):
    X, y, Xt, yt = cancer
    H, alpha, classes = member_predictions(ada_stumps, Xt)
    assert H.shape == (Xt.shape[0], len(ada_stumps.estimators_))
    assert set(np.unique(H)) <= {-1, 1}
    np.testing.assert_allclose(alpha.sum(), 1.0)
    w = ada_stumps.estimator_weights_[:H.shape[1]]
    np.testing.assert_allclose(alpha, w / w.sum())
    np.testing.assert_array_equal(classes[(H @ alpha > 0).astype(int)], ada_stumps.predict(Xt))
    # column t is member t's prediction, +1 meaning classes_[1]
    np.testing.assert_array_equal(H[:, 7] == 1, ada_stumps.estimators_[7].predict(Xt) == 1)


def test_forest_and_bagging_members_are_read_as_unit_votes(cancer):
    X, y, Xt, yt = cancer
    rf = RandomForestClassifier(n_estimators=15, max_depth=2, random_state=0).fit(X, y)
    H, alpha, _ = member_predictions(rf, Xt)
    np.testing.assert_allclose(alpha, np.full(15, 1 / 15))
    for t, tree in enumerate(rf.estimators_):  # trees predict encoded class indices
        np.testing.assert_array_equal(H[:, t], np.where(tree.predict_proba(Xt)[:, 1] > 0.5, 1,
                                                        -1))
    bag = BaggingClassifier(DecisionTreeClassifier(), n_estimators=9, max_features=0.5,
                            random_state=0).fit(X, y)
    H, _, _ = member_predictions(bag, Xt)
    for t, (est, feats) in enumerate(zip(bag.estimators_, bag.estimators_features_)):
        np.testing.assert_array_equal(H[:, t], np.where(est.predict(Xt[:, feats]) == 1, 1, -1))
    # fully grown trees: unit votes = sklearn's probability average (odd T, no ties)
    np.testing.assert_array_equal(np.where(H.sum(axis=1) > 0, 1, 0), bag.predict(Xt))


def test_optirules_booster_members(cancer):
    from optirules.learners import BoostingClassifier

    X, y, Xt, _ = cancer
    clf = BoostingClassifier(weak_learner="stump", n_estimators=15).fit(X, y)
    H, alpha, classes = member_predictions(clf, Xt)
    assert H.shape[1] == clf.n_estimators_
    F = clf.decision_function(Xt)
    np.testing.assert_allclose(H @ alpha, F / np.abs(clf.alphas_).sum(), atol=1e-12)
    assert ensemble_hypothesis_space_size(clf) == 2 * 100 * X.shape[1]


# --------------------------------------------------------------------------- QMM
def test_qmm_pruner_equals_the_model_and_keeps_lower_margins(cancer, ada_stumps):
    X, y, Xt, yt = cancer
    p = QMMPruner(ada_stumps, upsilon=0.5).fit(X, y)
    H, alpha, _ = member_predictions(ada_stumps, X)
    ypm = np.where(y == 1, 1, -1)
    m = QMMModel(H, ypm, alpha, upsilon=0.5)
    m.solve("clarabel")
    np.testing.assert_allclose(p.weights_, m.weights_, atol=1e-9)
    assert not p.fallback_used_ and p.status_.value == "optimal"
    # weights on the simplex, kept = positive weights, pruning rate
    assert p.weights_.min() >= 0 and p.weights_.sum() == pytest.approx(1.0)
    np.testing.assert_array_equal(p.kept_, np.flatnonzero(p.weights_ > 0))
    assert p.pruning_rate_ == pytest.approx(1 - p.kept_.size / len(ada_stumps.estimators_))
    # stumps repeat: identical columns are merged, so no two kept members are identical
    assert p.merged_weight_ > 0
    assert np.unique(H[:, p.kept_], axis=1).shape[1] == p.kept_.size
    # the ceil(n upsilon) smallest reference margins are not lowered
    margins = ypm * (H @ p.weights_)
    rows = p.model_.lower_rows_
    assert rows.size == math.ceil(0.5 * len(y))
    assert np.all(margins[rows] >= p.model_.phi_ - 1e-7)
    # prediction = sign of the pruned vote, computed from the kept members only
    Ht, _, classes = member_predictions(ada_stumps, Xt)
    np.testing.assert_allclose(p.decision_function(Xt), Ht @ p.weights_, atol=1e-12)
    np.testing.assert_array_equal(p.predict(Xt), classes[(Ht @ p.weights_ > 0).astype(int)])
    assert p.score(Xt, yt) > 0.85


def test_qmm_moves_the_weight_of_a_dependent_member():
    rng = np.random.default_rng(4)
    n = 40
    a, b, c = (np.where(rng.random(n) < 0.5, 1, -1) for _ in range(3))
    ok = ~((a == c) & (b != a))  # rows where a - b + c is +-1
    a, b, c = a[ok], b[ok], c[ok]
    d = a - b + c  # linearly dependent on a, b, c, identical to none
    e = np.where(rng.random(a.size) < 0.5, 1, -1)
    H = np.column_stack([a, b, c, d, e])
    assert np.unique(H, axis=1).shape[1] == 5 and np.linalg.matrix_rank(H) == 4
    y = np.where(rng.random(a.size) < 0.5, 1, -1)
    alpha = np.full(5, 0.2)
    p = QMMPruner(upsilon=0.5, member_weights=alpha, dependent="lstsq").fit(H, y)
    assert p.rank_ == 4
    assert p.merged_weight_ == 0.0
    assert p.moved_weight_ == pytest.approx(0.2)  # one non-pivot column of weight 0.2
    assert p.model_.dependent_members_.size == 1
    assert p.weights_[p.model_.dependent_members_[0]] == 0.0
    kept = QMMPruner(upsilon=0.5, member_weights=alpha).fit(H, y)  # default: keep
    assert kept.moved_weight_ == 0.0
    np.testing.assert_allclose(kept.model_.reference_weights_, alpha)


def test_qmm_pruner_singular_covariance_rule_and_switch():
    """n = 10 rows, 16 distinct members: the QR basis has r = 10 columns, so cov is singular."""
    rng = np.random.default_rng(7)
    H = np.where(rng.random((10, 16)) < 0.5, 1, -1)
    y = np.where(rng.random(10) < 0.5, 1, -1)
    assert np.unique(H, axis=1).shape[1] == 16 and np.linalg.matrix_rank(H) == 10
    with pytest.warns(QMMFallbackWarning, match="singular"):
        p = QMMPruner(upsilon=0.5).fit(H, y)
    assert p.singular_covariance_ and p.fallback_used_ and p.status_ is not None
    assert "singular" in p.fallback_reason_
    # default dependent="keep": the reference weights are the original (uniform) vote
    np.testing.assert_allclose(p.weights_, np.full(16, 1 / 16))
    assert p.n_kept_ == 16
    with warnings.catch_warnings():
        warnings.simplefilter("error", QMMFallbackWarning)
        s = QMMPruner(upsilon=0.5, singular_covariance="solve").fit(H, y)
    assert s.singular_covariance_ and not s.fallback_used_
    assert s.model_.objective_ <= s.model_.baseline_objective_ + 1e-9
    with pytest.raises(InputError, match="singular_covariance"):
        QMMPruner(singular_covariance="never").fit(H, y)


def test_qmm_emargin_with_counted_hypothesis_space(cancer, ada_stumps):
    X, y, _, _ = cancer
    assert ensemble_hypothesis_space_size(ada_stumps) == 2 * 100 * X.shape[1]
    p = QMMPruner(ada_stumps, upsilon="emargin").fit(X, y)
    assert p.hypothesis_space_size_ == 2 * 100 * X.shape[1]
    assert p.emargin_ is not None and p.upsilon_ == p.emargin_.upsilon
    ref = p.model_.reference_margins_
    assert p.upsilon_ == pytest.approx(np.mean(ref <= p.emargin_.emargin))
    with pytest.raises(InputError, match="hypothesis_space_size"):
        QMMPruner(upsilon="emargin").fit(np.where(ref[:, None] > 0, 1, -1), y)


def test_qmm_fallback_is_recorded_and_warned():
    rng = np.random.default_rng(0)
    H = np.where(rng.random((60, 15)) < 0.6, 1, -1)
    y = np.where(rng.random(60) < 0.5, 1, -1)
    with pytest.warns(QMMFallbackWarning):
        p = QMMPruner(solver="clarabel", solver_options={"max_iter": 1}).fit(H, y)
    assert p.fallback_used_ and p.fallback_reason_
    np.testing.assert_allclose(p.weights_, p.model_.reference_weights_)


def test_qmm_works_inside_grid_search():
    rng = np.random.default_rng(1)
    n, T = 80, 12
    truth = np.where(rng.random(n) < 0.5, 1, -1)
    H = np.where(rng.random((n, T)) < 0.7, truth[:, None], -truth[:, None])
    gs = GridSearchCV(QMMPruner(), {"upsilon": [0.25, 1.0]}, cv=2).fit(H, truth)
    assert gs.best_params_["upsilon"] in (0.25, 1.0)
    assert clone(QMMPruner(upsilon=0.3)).get_params()["upsilon"] == 0.3


def test_frozen_ensemble_survives_clone(cancer, ada_stumps):
    from sklearn.frozen import FrozenEstimator

    X, y, Xt, yt = cancer
    direct = KappaPruner(ada_stumps).fit(X, y)
    frozen = clone(KappaPruner(FrozenEstimator(ada_stumps))).fit(X, y)
    np.testing.assert_array_equal(frozen.kept_, direct.kept_)
    np.testing.assert_array_equal(frozen.predict(Xt), direct.predict(Xt))
    gs = GridSearchCV(DREPPruner(FrozenEstimator(ada_stumps)),
                      {"candidate_fraction": [0.25, 1.0]}, cv=2).fit(X, y)
    assert gs.best_estimator_.ensemble_ is ada_stumps


# --------------------------------------------------------------------------- bad input
def test_bad_input_gives_clear_errors(cancer):
    X, y, Xt, _ = cancer
    with pytest.raises(NotFittedError, match="not fitted"):
        QMMPruner(AdaBoostClassifier()).fit(X, y)
    with pytest.raises(NotFittedError):
        KappaPruner(RandomForestClassifier()).fit(X, y)
    with pytest.raises(InputError, match="classes"):
        y3 = np.arange(len(y)) % 3
        DREPPruner(RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y3)).fit(X, y3)
    with pytest.raises(InputError, match="no members"):
        QMMPruner(LogisticRegression().fit(X[:, :3], y)).fit(X[:, :3], y)

    class Odd(ClassifierMixin, BaseEstimator):  # an "ensemble" of a regressor: no +-1 votes
        classes_ = np.array([0, 1])

        def fit(self, X, y):
            return self

    odd = Odd()
    odd.estimators_ = [DecisionTreeRegressor(max_depth=2).fit(X, y * 0.5 + 0.25)]
    with pytest.raises(InputError, match="cannot be read as \\+-1"):
        KappaPruner(odd).fit(X, y)
    H = np.where(np.random.default_rng(0).random((len(y), 5)) < 0.5, 1, -1)
    for bad in (0, 0.0, 1.5, -0.2, float("nan"), "foo", True):
        with pytest.raises(InputError, match="upsilon"):
            QMMPruner(upsilon=bad).fit(H, y)
    with pytest.raises(InputError, match="rows but y has"):
        QMMPruner().fit(H[:-3], y)
    with pytest.raises(InputError, match="rows but y has"):
        KappaPruner().fit(H.T, y)
    with pytest.raises(InputError, match="-1 and \\+1"):
        DREPPruner().fit((H > 0).astype(int), y)
    with pytest.raises(InputError, match="two"):
        DREPPruner().fit(H, np.ones(len(y)))
    with pytest.raises(InputError, match="not the ensemble's classes"):
        rf = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
        KappaPruner(rf).fit(X, y + 5)
    with pytest.raises(NotFittedError):
        QMMPruner().predict(H)
    fitted = KappaPruner().fit(H, y)
    with pytest.raises(InputError, match="member columns"):
        fitted.predict(H[:, :3])
    for bad in (0, 1.2, "x"):
        with pytest.raises(InputError, match="fraction"):
            KappaPruner(fraction=bad).fit(H, y)
        with pytest.raises(InputError, match="candidate_fraction"):
            DREPPruner(candidate_fraction=bad).fit(H, y)


def test_sklearn_parameter_conventions():
    from sklearn.utils.estimator_checks import (
        check_get_params_invariance,
        check_no_attributes_set_in_init,
        check_parameters_default_constructible,
        check_set_params,
    )

    for est in (QMMPruner(), KappaPruner(), DREPPruner()):
        name = type(est).__name__
        check_parameters_default_constructible(name, est)
        check_no_attributes_set_in_init(name, est)
        check_get_params_invariance(name, est)
        check_set_params(name, est)


# --------------------------------------------------------------------------- kappa
def _kappa_reference(H: np.ndarray, fraction: float) -> list[int]:
    """Margineantu & Dietterich's kappa pruning written out with sklearn's kappa."""
    T = H.shape[1]
    M = max(1, math.ceil(fraction * T - 1e-9))
    pairs = sorted(((round(cohen_kappa_score(H[:, a], H[:, b]), 12), a, b)
                    for a, b in itertools.combinations(range(T), 2)))
    kept: list[int] = []
    for _, a, b in pairs:
        for t in (a, b):
            if t not in kept and len(kept) < M:
                kept.append(t)
        if len(kept) >= M:
            break
    return kept


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 14), st.sampled_from([0.1, 0.2, 0.5]))
def test_kappa_pruning_equals_the_pair_ranking_reference(seed, T, fraction):
    rng = np.random.default_rng(seed)
    H = np.where(rng.random((30, T)) < rng.uniform(0.2, 0.8, T), 1, -1)
    H[0] = 1
    H[1] = -1  # no constant column, so sklearn's kappa is defined for every pair
    y = np.where(rng.random(30) < 0.5, 1, -1)
    p = KappaPruner(fraction=fraction).fit(H, y)
    ref = _kappa_reference(H, fraction)
    assert p.selection_order_.tolist() == ref
    assert sorted(p.kept_.tolist()) == sorted(ref)
    assert p.n_kept_ == max(1, math.ceil(fraction * T - 1e-9))


def test_kappa_ranks_pairs_not_single_members():
    # members 0 and 1 are the most diverse *pair* (kappa -1), but 0 agrees with the three
    # copies 2-4 of itself, so ranking single members by their mean kappa puts 0 last.
    rng = np.random.default_rng(7)
    n = 40
    base = np.where(np.arange(n) % 2 == 0, 1, -1)
    u = np.where(rng.random(n) < 0.5, 1, -1)
    v = np.where(rng.random(n) < 0.5, 1, -1)
    H = np.column_stack([base, -base, base, base, base, u, v])
    y = base.copy()
    p = KappaPruner(fraction=2 / 7).fit(H, y)
    assert sorted(p.kept_.tolist()) == [0, 1]
    K = p.kappa_
    mean_kappa = (K.sum(axis=1) - 1) / (K.shape[0] - 1)
    single = sorted(np.argsort(mean_kappa, kind="stable")[:2].tolist())
    assert single != [0, 1]  # the single-member ranking keeps a different subset


def test_kappa_keeps_original_weights(ada_stumps, cancer):
    X, y, _, _ = cancer
    p = KappaPruner(ada_stumps, fraction=0.2).fit(X, y)
    _, alpha, _ = member_predictions(ada_stumps, X)
    T = alpha.size
    assert p.n_kept_ == math.ceil(0.2 * T)
    np.testing.assert_allclose(p.weights_[p.kept_], alpha[p.kept_] / alpha[p.kept_].sum())


# --------------------------------------------------------------------------- DREP
def _half_error(S: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean(np.where(y * S < 0, 1.0, np.where(y * S > 0, 0.0, 0.5))))


def _drep_reference(H: np.ndarray, y: np.ndarray, rho: float, patience: int) -> list[int]:
    """Li et al. (2012), Algorithm 1, with plain voting, written as plain loops."""
    T = H.shape[1]
    errs = [np.mean(H[:, t] != y) for t in range(T)]
    order = [int(np.argmin(errs))]
    rest = [t for t in range(T) if t != order[0]]
    best, best_len, fails = _half_error(H[:, order].sum(axis=1), y), 1, 0
    while rest and fails < patience:
        S = H[:, order].sum(axis=1)
        diff = {t: int(np.dot(H[:, t], S)) for t in rest}  # n * len(order) * diff(h, H*)
        ranked = sorted(rest, key=lambda t: (diff[t], t))
        gamma = ranked[:max(1, math.ceil(rho * len(rest) - 1e-9))]
        cand = [(_half_error(H[:, order + [t]].sum(axis=1), y), i, t)
                for i, t in enumerate(gamma)]
        err, _, t = min(cand)
        order.append(t)
        rest.remove(t)
        if err < best - 1e-12:
            best, best_len, fails = err, len(order), 0
        else:
            fails += 1
    return order[:best_len]


def test_drep_diversity_changes_the_member_added():
    # correctness patterns (1 = right); h0 is the best single member.
    E = np.array([
        [1, 1, 1, 1, 1, 1, 0, 0, 1, 1],   # h0: 2 errors
        [1, 1, 1, 1, 1, 0, 1, 0, 1, 1],   # h1: 2 errors, disagrees with h0 on 2 rows
        [0, 0, 0, 1, 1, 1, 1, 1, 1, 1],   # h2: 3 errors, disagrees with h0 on 5 rows
        [1, 1, 0, 0, 1, 1, 1, 0, 0, 1],   # h3: 4 errors, disagrees with h0 on 4 rows
    ]).T
    y = np.array([1, -1, 1, -1, 1, -1, 1, -1, 1, -1])
    H = np.where(E == 1, y[:, None], -y[:, None])
    greedy = DREPPruner(candidate_fraction=1.0, patience=1).fit(H, y)
    diverse = DREPPruner(candidate_fraction=0.3, patience=1).fit(H, y)
    # ignoring diversity, the second member is the most accurate one (h1)
    assert greedy.history_[0]["chosen"] == 1
    assert greedy.history_[0]["candidates"].tolist() == [2, 3, 1]  # sorted by diff
    # with rho = 0.3, Gamma = the ceil(0.3 * 3) = 1 most diverse member: h2
    assert diverse.history_[0]["candidates"].tolist() == [2]
    assert diverse.history_[0]["chosen"] == 2
    # diff(h, H*) = mean h * f: h2 (5 disagreements) < h3 (4) < h1 (2)
    np.testing.assert_allclose(greedy.history_[0]["diff"], [0.0, 0.2, 0.6])


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([0.2, 0.5, 1.0]), st.integers(1, 6))
def test_drep_equals_the_reference_algorithm(seed, rho, patience):
    rng = np.random.default_rng(seed)
    n, T = 30, 12
    y = np.where(rng.random(n) < 0.5, 1, -1)
    H = np.where(rng.random((n, T)) < rng.uniform(0.55, 0.8, T), y[:, None], -y[:, None])
    p = DREPPruner(candidate_fraction=rho, patience=patience).fit(H, y)
    ref = _drep_reference(H, y, rho, patience)
    assert p.selection_order_[:len(ref)].tolist() == ref
    assert sorted(p.kept_.tolist()) == sorted(ref)
    # plain voting over the kept members
    np.testing.assert_allclose(p.weights_[p.kept_], 1 / len(ref))
    if patience == 1:  # the literal stopping rule never gets past the best single member
        assert p.n_kept_ == 1


def test_drep_on_a_random_forest(cancer):
    X, y, Xt, yt = cancer
    rf = RandomForestClassifier(n_estimators=40, max_depth=2, random_state=0).fit(X, y)
    p = DREPPruner(rf).fit(X, y)
    assert 1 <= p.n_kept_ < 40
    assert p.training_errors_[p.n_kept_ - 1] == p.training_errors_.min()
    assert p.score(Xt, yt) > 0.8
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p.predict(Xt)  # no feature-name or dtype warnings from the members


@pytest.mark.parametrize("cls", [QMMPruner, KappaPruner, DREPPruner])
def test_member_matrix_frame_columns_are_checked(cls):
    """With estimator=None and a DataFrame member matrix, reordered or renamed columns at
    predict time are refused (they would silently change the vote)."""
    import pandas as pd

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, size=60)
    H = np.where(rng.random((60, 9)) < 0.7, 2 * y[:, None] - 1, 1 - 2 * y[:, None])
    frame = pd.DataFrame(H, columns=[f"m{j}" for j in range(9)])
    pruner = cls().fit(frame, y)
    np.testing.assert_array_equal(pruner.predict(frame), pruner.predict(H))
    assert list(pruner.feature_names_in_) == list(frame.columns)
    with pytest.raises(InputError, match="feature names"):
        pruner.predict(frame[frame.columns[::-1]])
    with pytest.raises(InputError, match="feature names"):
        pruner.predict(frame.rename(columns={"m0": "other"}))


# With estimator=None a pruner's X is the member-prediction matrix H, which holds only -1 and
# +1; these checks feed continuous features, which the pruner (rightly) refuses.  Every other
# check, errors and their messages included, passes.
_CONTINUOUS_X = "the check feeds continuous X; with estimator=None X is the -1/+1 member matrix H"
_PRUNER_XFAILS = dict.fromkeys([
    "check_classifier_data_not_an_array", "check_classifiers_classes", "check_classifiers_train",
    "check_decision_proba_consistency", "check_dict_unchanged", "check_dont_overwrite_parameters",
    "check_dtype_object", "check_estimators_dtypes", "check_estimators_fit_returns_self",
    "check_estimators_nan_inf", "check_estimators_overwrite_params", "check_estimators_pickle",
    "check_f_contiguous_array_estimator", "check_fit2d_1feature", "check_fit2d_predict1d",
    "check_fit_check_is_fitted", "check_fit_idempotent", "check_fit_score_takes_y",
    "check_methods_sample_order_invariance", "check_methods_subset_invariance",
    "check_n_features_in", "check_n_features_in_after_fitting", "check_pipeline_consistency",
    "check_positive_only_tag_during_fit", "check_readonly_memmap_input",
    "check_supervised_y_2d"], _CONTINUOUS_X)


@parametrize_with_checks([QMMPruner(), KappaPruner(), DREPPruner()],
                         expected_failed_checks=lambda est: _PRUNER_XFAILS)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_qmm_solver_that_cannot_take_the_qp_is_refused_before_any_work():
    """scipy and cbc solve LPs and MILPs but no QP: refused in fit with the solvers that can."""
    from optirules.errors import SolverNotAvailableError

    H = np.array([[1, 1, -1], [1, -1, 1], [-1, 1, 1], [-1, -1, 1]] * 5)
    y = (H[:, 0] > 0).astype(int)
    for name in ("scipy", "no_such_solver"):
        with pytest.raises(SolverNotAvailableError, match="clarabel"):
            QMMPruner(solver=name).fit(H, y)


# --------------------------------------------------------------------------- verbose, time limit
def test_every_pruner_logs_through_logging_when_verbose(caplog):
    import logging

    rng = np.random.default_rng(11)
    y = rng.choice([0, 1], 80)
    H = np.where(rng.random((80, 12)) < 0.7, 1, -1) * np.where(y == 1, 1, -1)[:, None]
    for cls in (QMMPruner, KappaPruner, DREPPruner):
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="optirules.learners.pruning"):
            cls(verbose=True).fit(H, y)
        text = caplog.text
        assert f"{cls.__name__}: kept" in text and "members evaluated on 80 rows" in text
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="optirules.learners.pruning"):
            cls().fit(H, y)
        assert caplog.text == ""
    with caplog.at_level(logging.INFO, logger="optirules.learners.pruning"):
        DREPPruner(verbose=True, patience=2).fit(H, y)
    assert "DREPPruner: step 1:" in caplog.text


def test_qmm_pruner_time_limit_and_formulation_reach_the_model():
    rng = np.random.default_rng(12)
    y = rng.choice([0, 1], 300)
    H = np.where(rng.random((300, 40)) < 0.7, 1, -1) * np.where(y == 1, 1, -1)[:, None]
    ls = QMMPruner(formulation="least_squares", margin_constraints="all").fit(H, y)
    cov = QMMPruner().fit(H, y)
    assert ls.model_.factor_ is not None and ls.model_.n_margin_rows_ == 150
    np.testing.assert_allclose(ls.weights_, cov.weights_, atol=1e-6)
    declarative = QMMPruner(interface="cvxpy").fit(H, y)
    assert declarative.model_.result_.info["interface"] == "cvxpy"
    assert cov.model_.result_.info["interface"] == "direct"
    np.testing.assert_allclose(declarative.weights_, cov.weights_, atol=1e-6)
    for rows in ("all", "generated"):
        with pytest.warns(QMMFallbackWarning, match="time.limit"):
            stopped = QMMPruner(solver="clarabel", time_limit=1e-9,
                                margin_constraints=rows).fit(H, y)
        assert stopped.fallback_used_ and stopped.status_.value == "time_limit"
        np.testing.assert_allclose(stopped.weights_, stopped.model_.reference_weights_)
    for bad in (0, -1.0, "10", True, float("inf")):
        with pytest.raises(InputError, match="time_limit"):
            QMMPruner(time_limit=bad).fit(H, y)
    with pytest.raises(InputError, match="time_limit"):
        QMMPruner(solver_options={"time_limit": 5}).fit(H, y)
    # SCS (the default) reports a time-limited solve as feasible; the fallback is the same
    with pytest.warns(QMMFallbackWarning):
        scs = QMMPruner(time_limit=1e-9, margin_constraints="all").fit(H, y)
    assert scs.fallback_used_
    np.testing.assert_allclose(scs.weights_, scs.model_.reference_weights_)
    for name, bad in (("confidence", 0.0), ("confidence", 1.0), ("formulation", "dual"),
                      ("margin_constraints", "some"), ("interface", "pyomo")):
        with pytest.raises(InputError, match=name):
            QMMPruner(**{name: bad}).fit(H, y)


def test_qmm_pruner_confidence_095_is_the_papers_delta_005():
    from tests.internals import emargin, tree_hypothesis_space_size

    rng = np.random.default_rng(13)
    y = rng.choice([0, 1], 300)
    H = np.where(rng.random((300, 20)) < 0.72, 1, -1) * np.where(y == 1, 1, -1)[:, None]
    size = tree_hypothesis_space_size(30, 100, depth=1)
    p = QMMPruner(upsilon="emargin", hypothesis_space_size=size, confidence=0.95).fit(H, y)
    ref = emargin(p.model_.reference_margins_, size, confidence=0.95)
    assert p.upsilon_ == ref.upsilon and p.emargin_.confidence == 0.95
    # u's last term is ln(1/delta) = ln 20 for delta = 0.05
    assert -math.log1p(-0.95) == pytest.approx(math.log(20), rel=1e-15)


def test_qmm_pruner_exports_its_qp_and_highs_reads_it_back(tmp_path):
    from sklearn.datasets import load_breast_cancer
    from sklearn.ensemble import AdaBoostClassifier
    from sklearn.tree import DecisionTreeClassifier

    from optirules.solvers import read_model

    X, y = load_breast_cancer(return_X_y=True)
    ens = AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=20,
                             random_state=0).fit(X, y)
    pruner = QMMPruner(ens, margin_constraints="all").fit(X, y)
    for suffix in (".lp", ".mps"):
        path = pruner.export_model(tmp_path / f"qmm{suffix}")[0]
        res = read_model(path)
        # the file is the QP that was solved: HiGHS reaches its optimum from the file
        assert res.objective == pytest.approx(pruner.model_.objective_, rel=1e-5, abs=1e-8)
    with pytest.raises(InputError, match="suffix"):
        pruner.export_model(tmp_path / "qmm.txt")


# --------------------------------------------------------------------------- multiclass, pickle
def _three_classes():
    rng = np.random.RandomState(0)
    X = rng.rand(90, 4)
    return X, np.arange(90) % 3


def _multiclass_booster():
    from optirules.learners import BoostingClassifier

    return BoostingClassifier(n_estimators=3)


@pytest.mark.parametrize("cls", [QMMPruner, KappaPruner, DREPPruner])
@pytest.mark.parametrize("make", [
    _multiclass_booster,
    lambda: RandomForestClassifier(n_estimators=4, random_state=0),
    lambda: BaggingClassifier(DecisionTreeClassifier(), n_estimators=4, random_state=0),
    lambda: AdaBoostClassifier(n_estimators=4, random_state=0),
], ids=["boosting", "forest", "bagging", "adaboost"])
def test_a_fitted_multiclass_ensemble_is_refused_as_multiclass(cls, make):
    X, y = _three_classes()
    ensemble = make().fit(X, y)
    with pytest.raises(InputError, match="3 classes.*[Pp]rune a one-vs-rest binary ensemble"):
        cls(ensemble).fit(X, y)


@pytest.mark.parametrize("interface", ["direct", "cvxpy"])
def test_fitted_qmm_pruner_pickles_and_predicts_the_same(cancer, ada_stumps, interface):
    import pickle

    X, y, X_test, _ = cancer
    pruner = QMMPruner(ada_stumps, interface=interface).fit(X, y)
    again = pickle.loads(pickle.dumps(pruner))
    np.testing.assert_array_equal(again.weights_, pruner.weights_)
    np.testing.assert_array_equal(again.predict(X_test), pruner.predict(X_test))
    np.testing.assert_array_equal(again.decision_function(X_test),
                                  pruner.decision_function(X_test))
    assert again.model_.result_.status == pruner.model_.result_.status
    assert dict(again.model_.result_.info) == dict(pruner.model_.result_.info)
    # the rebuilt result keeps its read-only views, so it pickles again
    assert pickle.loads(pickle.dumps(again)).model_.result_.solver == \
        pruner.model_.result_.solver
