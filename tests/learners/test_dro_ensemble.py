"""DRORuleEnsembleClassifier: the DRO loop of the DRO paper §3 recomputed by hand, feasible pmfs,
weights on the simplex within budget, the robust-loss and held-out selections (member budget
included), the refit, the whole-fit time limit, member gaps, and the cycling of §4.1."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from optirules.data import FeatureBinarizer
from optirules.errors import InputError
from optirules.learners import BooleanRuleSetClassifier
from optirules.models import SparseCombinationModel, worst_case_pmf
from tests.internals import DRORuleEnsembleClassifier, margin_loss, member_budgets

from ._dro import dro


def noisy_data(seed: int = 0, n: int = 60, d: int = 6, noise: float = 0.15):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, d))
    y = ((X[:, 0] & X[:, 1]) | (X[:, 2] & X[:, 3]) | (X[:, 4] & (1 - X[:, 5]))).astype(int)
    flip = rng.random(n) < noise
    y[flip] = 1 - y[flip]
    y[0], y[1] = 1, 0
    return X, y


def divergence_by_hand(p: np.ndarray, kind: str) -> float:
    n = len(p)
    if kind == "chi2":
        return float(np.mean((n * p - 1.0) ** 2))
    q = p[p > 0]
    return float(np.sum(q * np.log(n * q)))


@pytest.fixture(scope="module", params=["chi2", "kl"])
def fitted(request):
    X, y = noisy_data(1)
    est = dro(complexity=12, member_complexity=4, rho=0.3,
                                    divergence=request.param, n_estimators=4,
                                    selection="robust_loss", random_state=0,
                                    member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=2)).fit(X, y)
    return est, X, y


def test_pmfs_are_feasible_for_the_divergence_ball(fitted):
    est, X, y = fitted
    assert est.pmf_history_.shape == (est.n_estimators_ + 1, len(y))
    np.testing.assert_allclose(est.pmf_history_[0], 1 / len(y))
    for p in est.pmf_history_:
        assert p.min() >= 0 and p.sum() == pytest.approx(1.0, abs=1e-12)
        assert divergence_by_hand(p, est.divergence) <= est.rho + 1e-9
    np.testing.assert_allclose(est.divergence_history_,
                               [divergence_by_hand(p, est.divergence) for p in est.pmf_history_],
                               atol=1e-10)


def test_the_loop_recomputed_from_the_members(fitted):
    est, X, y = fitted
    yb = y == est.classes_[1]
    H = np.column_stack([m.evaluate(X) for m in est.members_]).astype(float)
    for n in range(1, est.n_estimators_ + 1):
        F = H[:, :n].mean(axis=1)  # F_n = ((n-1)/n) F_{n-1} + h_n / n
        z = np.abs(F - 0.5) * ((F >= 0.5 - 1e-12) != yb)  # the DRO paper eq 2
        np.testing.assert_allclose(margin_loss(F, yb), z)
        P = worst_case_pmf(z, est.rho, est.divergence)
        np.testing.assert_allclose(est.pmf_history_[n], P, atol=1e-10)
        assert est.robust_loss_history_[n - 1] == pytest.approx(P @ z, abs=1e-12)
        assert P @ z >= z.mean() - 1e-12  # the worst case is at least the empirical loss
    # members respect their budget C'
    assert all(m.complexity <= est.member_complexity for m in est.members_)


def test_weights_on_the_simplex_within_budget_and_selection_is_least_robust_loss(fitted):
    est, X, y = fitted
    w = est.weights_
    assert w.min() >= 0 and w.sum() == pytest.approx(1.0, abs=1e-9)
    support = np.flatnonzero(w > 0)
    assert est.complexity_ == sum(est.members_[k].complexity for k in support) <= est.complexity
    yb = y == est.classes_[1]
    for c in est.candidates_:
        assert c["weights"].sum() == pytest.approx(1.0, abs=1e-9) and c["cost"] <= est.complexity
        F = sum(c["weights"][k] * est.members_[k].evaluate(X) for k in range(len(w)))
        z = np.abs(F - 0.5) * ((F >= 0.5 - 1e-12) != yb)
        assert c["robust_loss"] == pytest.approx(worst_case_pmf(z, est.rho, est.divergence) @ z,
                                                 abs=1e-10)
    best = min(c["robust_loss"] for c in est.candidates_)
    assert est.candidates_[est.selected_]["robust_loss"] == pytest.approx(best, abs=1e-12)


def test_decision_function_is_the_weighted_vote(fitted):
    est, X, y = fitted
    F = sum(est.weights_[k] * est.members_[k].evaluate(X) for k in range(len(est.weights_)))
    np.testing.assert_allclose(est.decision_function(X), F, atol=1e-12)
    proba = est.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(est.predict(X),
                                  est.classes_[(F >= 0.5 - 1e-12).astype(int)])
    assert "weighted vote" in str(est)


def pav(values, weights):
    """Pool adjacent violators: the non-decreasing fit of least weighted squares."""
    blocks = []  # [mean, weight, length]
    for v, w in zip(values, weights):
        blocks.append([float(v), float(w), 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            v2, w2, n2 = blocks.pop()
            v1, w1, n1 = blocks.pop()
            blocks.append([(v1 * w1 + v2 * w2) / (w1 + w2), w1 + w2, n1 + n2])
    return np.concatenate([np.full(n, v) for v, _, n in blocks])


def test_vote_level_scores_are_the_smoothed_shares_by_hand():
    """Each training vote level scores (k + m pi) / (n + m), made non-decreasing by PAV
    (weights n); a row's probability is its level's score on the side of the prediction."""
    from tests.internals import PRIOR_STRENGTH

    X, y = noisy_data(3, n=80)
    est = dro(complexity=12, member_complexity=4, n_estimators=4,
                                    random_state=0,
                                    member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=2)).fit(X, y)
    F = sum(est.weights_[k] * est.members_[k].evaluate(X) for k in range(len(est.weights_)))
    F = np.round(F, 12)
    levels = np.unique(F)
    assert len(levels) >= 3  # a vote of several members, not one rule set
    np.testing.assert_allclose(est.vote_levels_, levels, atol=1e-12)
    pi, m = np.mean(y == 1), PRIOR_STRENGTH
    n = np.array([np.sum(F == f) for f in levels], dtype=float)
    k = np.array([np.sum((F == f) & (y == 1)) for f in levels], dtype=float)
    np.testing.assert_allclose(est.vote_level_support_, n)
    np.testing.assert_allclose(est.vote_level_positives_, k)
    assert est.class_prior_ == pytest.approx(pi)
    raw = (k + m * pi) / (n + m)
    np.testing.assert_allclose(est.vote_level_scores_, pav(raw, n), atol=1e-12)
    s = est.vote_level_scores_[np.searchsorted(levels, F)]
    s = np.where(F >= 0.5 - 1e-12, np.maximum(s, np.nextafter(0.5, 1)), np.minimum(s, 0.5))
    np.testing.assert_allclose(est.predict_proba(X)[:, 1], s, atol=1e-12)
    # a vote between two training levels: the scores interpolated linearly
    a, b = 0, 1
    mid = (levels[a] + levels[b]) / 2
    want = (est.vote_level_scores_[a] + est.vote_level_scores_[b]) / 2
    got = est._vote_scores(np.array([mid]))[0]
    assert got == pytest.approx(min(want, 0.5) if mid < 0.5 else max(want, 0.5))


def test_probabilities_are_never_0_or_1_on_noisy_data_and_agree_with_predict():
    X, y = noisy_data(4, n=240, noise=0.2)
    train, test = np.arange(160), np.arange(160, 240)
    est = dro(complexity=12, n_estimators=4, random_state=0,
                                    member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=2)).fit(X[train], y[train])
    for rows in (train, test):
        proba = est.predict_proba(X[rows])
        assert np.all((proba > 0) & (proba < 1))
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)
        np.testing.assert_array_equal(est.classes_[proba.argmax(axis=1)], est.predict(X[rows]))
    # unseen votes: every level and the points between them, on both sides of 1/2
    grid = np.linspace(0, 1, 201)
    s = est._vote_scores(grid)
    assert np.all((s > 0) & (s < 1))
    np.testing.assert_array_equal(s > 0.5, grid >= 0.5 - 1e-12)


def test_merged_rows_give_the_same_combination_ip():
    X, y = noisy_data(2)
    est = dro(complexity=12, member_complexity=4, rho=0.2, n_estimators=3,
                                    member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=2)).fit(X, y)
    c = [c for c in est.candidates_ if c["iteration"] == 3 and c["pmf"] == "worst_case"][0]
    first = {}
    for k, m in enumerate(est.member_clauses_):
        if m:
            first.setdefault(frozenset(m), k)
    cols = sorted(first.values())
    H = np.column_stack([est.members_[k].evaluate(X) for k in cols]).astype(int)
    costs = [est.members_[k].complexity for k in cols]
    full = SparseCombinationModel(H, (y == est.classes_[1]).astype(int), costs, 12,
                                  sample_weight=est.pmf_history_[3])
    full.solve()
    assert c["objective"] == pytest.approx(full.objective_, abs=1e-9)


def test_every_candidate_is_its_combination_ip_when_members_repeat():
    # a repeated member leaves the P^0 combination IP unchanged and the fit reuses its
    # solution: every candidate must still be the optimum of its own IP, solved afresh
    X, y = noisy_data(2, n=80)
    est = dro(complexity=12, member_complexity=6, n_estimators=5,
                                    n_iter_no_change=2, random_state=0,
                                    member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=2)).fit(X, y)
    keys = [frozenset(m) for m in est.member_clauses_]
    assert any(keys[i] in keys[:i] for i in range(1, len(keys)))  # a member repeats
    yb = (y == est.classes_[1]).astype(int)
    for c in est.candidates_:
        first = {}
        for k, m in enumerate(est.member_clauses_[:c["iteration"]]):
            if m:
                first.setdefault(frozenset(m), k)
        cols = sorted(first.values())
        if len(cols) < 2:
            continue
        H = np.column_stack([est.members_[k].evaluate(X) for k in cols]).astype(int)
        p = (est.pmf_history_[c["iteration"]] if c["pmf"] == "worst_case"
             else np.full(len(y), 1.0 / len(y)))
        fresh = SparseCombinationModel(H, yb, [est.members_[k].complexity for k in cols], 12,
                                       sample_weight=p)
        fresh.solve()
        assert c["objective"] == pytest.approx(fresh.objective_, abs=1e-9)


def test_binary_loss_cycles_and_the_repeat_is_reported(tmp_path):
    X, y = noisy_data(3, n=80, noise=0.25)
    est = dro(complexity=4, member_complexity=4, rho=1.0, loss="binary",
                                    n_estimators=8,
                                    member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=2)).fit(X, y)
    assert est.cycle_detected_
    keys = [frozenset(m) for m in est.member_clauses_]
    s, L = est.cycle_start_, est.cycle_length_
    assert L >= 1 and keys[s - 1] == keys[s - 1 + L]
    assert len(set(keys[: s - 1 + L])) == s - 1 + L  # the first repeat
    # periodic from there on: the iterates depend on the previous one only
    for n in range(s - 1, len(keys) - L):
        assert keys[n] == keys[n + L]
    # binary loss: P^n is the worst case of the misclassification indicator of h_n
    yb = y == est.classes_[1]
    for n, m in enumerate(est.members_, 1):
        z = (m.evaluate(X) != yb).astype(float)
        np.testing.assert_allclose(est.pmf_history_[n], worst_case_pmf(z, 1.0), atol=1e-10)
    assert np.count_nonzero(est.weights_) == 1
    with pytest.raises(InputError, match="binary loss"):
        est.export_model(tmp_path / "c.lp")
    assert est.export_model(tmp_path / "m.lp", which=("member", 0))[0].exists()


def test_validation_selection_is_deterministic():
    X, y = noisy_data(4, n=80)
    kw = dict(complexity=12, member_complexity=4, n_estimators=3, max_degree=2,
              selection="validation", random_state=3)
    a = dro(**kw).fit(X, y)
    b = dro(**kw).fit(X, y)
    assert a.validation_choice_ == b.validation_choice_
    np.testing.assert_array_equal(a.weights_, b.weights_)
    c = a.candidates_[a.selected_]
    assert (c["iteration"], c["pmf"]) == (a.validation_choice_["iteration"],
                                          a.validation_choice_["pmf"])


def planted_dnf(seed: int, n: int):
    """Three 2-literal clauses on 8 features: the concept costs 3 * (1 + 2) = 9."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, 8))
    y = ((X[:, 0] & X[:, 1]) | (X[:, 2] & X[:, 3]) | (X[:, 4] & X[:, 5])).astype(int)
    return X, y


def test_default_reaches_a_concept_that_needs_the_whole_budget():
    X, y = planted_dnf(0, 240)
    Xt, yt = planted_dnf(1, 400)
    kw = dict(complexity=9, n_estimators=4, max_degree=2, random_state=0)
    # C' = C/3 = 3 holds one clause per member, and a vote of single clauses is not their
    # OR: the old default cannot fit the concept even on the training rows
    third = dro(member_complexity=3, **kw).fit(X, y)
    assert third.score(X, y) < 1.0
    est = dro(**kw).fit(X, y)  # C' chosen from {3, 9}
    assert [r["member_complexity"] for r in est.member_complexity_results_] == [3, 9]
    assert est.member_complexity_ == 9 and est.complexity_ == 9
    assert est.score(X, y) == 1.0 and est.score(Xt, yt) == 1.0
    assert est.status_ == "completed" and est.selection_ == "robust_loss"
    # the held-out choice over the same grid reaches it too
    held = dro(selection="validation", **kw).fit(X, y)
    assert held.member_complexity_ == 9 and held.score(Xt, yt) == 1.0 and held.refitted_


def test_refit_is_the_loop_on_all_rows_with_the_chosen_values():
    X, y = noisy_data(8, n=120, noise=0.1)
    kw = dict(complexity=12, n_estimators=3, max_degree=2, random_state=1,
              selection="validation")
    est = dro(**kw).fit(X, y)
    ch = est.validation_choice_
    # the refit equals a fit with C' and the iteration fixed (the loop is deterministic)
    ref = dro(**{**kw, "n_estimators": ch["iteration"],
                                       "selection": "robust_loss"},
                                    member_complexity=ch["member_complexity"]).fit(X, y)
    assert est.member_clauses_ == ref.member_clauses_
    assert est.pmf_history_.shape == (ch["iteration"] + 1, len(y))
    c = next(c for c in ref.candidates_
             if c["iteration"] == ch["iteration"] and c["pmf"] == ch["pmf"])
    np.testing.assert_allclose(est.weights_, c["weights"])
    # refit=False keeps the inner-split ensemble: fitted on 90 of the 120 rows
    inner = dro(**kw, refit=False).fit(X, y)
    assert not inner.refitted_ and inner.pmf_history_.shape[1] == 90
    assert inner.validation_choice_ == ch
    picked = next(c for c in inner.candidates_ if c.get("validation_selected"))
    np.testing.assert_allclose(inner.weights_, picked["weights"])


def test_time_limit_bounds_the_whole_fit():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(3000, 30))
    y = ((X[:, 0] & X[:, 1]) | (X[:, 2] & X[:, 3] & X[:, 4]) | (X[:, 5] & ~X[:, 6] & 1)
         ).astype(int)
    flip = rng.random(3000) < 0.2
    y[flip] = 1 - y[flip]
    t0 = time.perf_counter()
    # 3 x 400 members cannot all be grown in 2 s (each takes milliseconds at least), however
    # fast the machine: the limit must end the fit
    est = dro(complexity=30, n_estimators=400, time_limit=2.0,
                                    n_iter_no_change=None, random_state=0).fit(X, y)
    wall = time.perf_counter() - t0
    # every step (member, pmf, combination IPs) starts before the deadline, so the steps
    # add up to at most the limit plus the last one (a margin of this machine's own speed)
    steps = [h["member_time"] + h["pmf_time"] + h["combination_time"] for h in est.history_]
    assert sum(steps) <= 2.0 + max(steps) + 1e-6 and sum(steps) <= wall
    assert est.status_.startswith("time_limit")
    assert "wall-clock: the result depends on the machine's speed" in est.status_
    assert sum(r["n_estimators"] for r in est.member_complexity_results_) < 3 * 400
    # a usable model: weights on the simplex within budget, predictions of the two classes
    assert est.weights_.sum() == pytest.approx(1.0) and est.complexity_ <= 30
    assert set(np.unique(est.predict(X))) <= {0, 1}
    assert est.score(X, y) >= max(y.mean(), 1 - y.mean()) - 1e-9


def test_member_gaps_absolute_beside_relative_and_unknown_without_proof():
    X, y = noisy_data(9, n=80)
    kw = dict(complexity=12, member_complexity=6, n_estimators=2, max_degree=2,
              selection="robust_loss")
    est = dro(**kw, pricing="exact").fit(X, y)
    for m in est.member_results_:
        assert m["gap_certified"]
        assert m["absolute_gap"] == pytest.approx(m["ip_objective"] - m["lp_bound"], abs=1e-15)
        assert m["absolute_gap"] >= 0
        rel = 0.0 if m["ip_objective"] <= 0 else m["absolute_gap"] / m["ip_objective"]
        assert m["gap"] == pytest.approx(rel, abs=1e-12)
    beam = dro(**kw, pricing="beam").fit(X, y)
    for m in beam.member_results_:
        assert not m["gap_certified"]
        assert math.isnan(m["gap"]) and math.isnan(m["absolute_gap"])


def test_history_times_every_step_of_every_member():
    X, y = noisy_data(10, n=80)
    est = dro(complexity=12, member_complexity=(4, 6, 12), n_estimators=3,
                                    n_iter_no_change=2, random_state=0,
                                    member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=2)).fit(X, y)
    h = est.history_
    # one record per member over the three member budgets C' in {4, 6, 12}
    assert [(r["member_complexity"], r["iteration"]) for r in h] == [
        (b, it) for b in (4.0, 6.0, 12.0) for it in (1, 2, 3)]
    for r in h:
        for k in ("member_time", "member_cg_time", "member_ip_time", "pmf_time",
                  "combination_time"):
            assert 0.0 <= r[k] < est.fit_time_
        assert r["member_cg_time"] + r["member_ip_time"] <= r["member_time"] + 1e-9
        assert r["rows"] == len(y)
    assert sum(r["member_time"] + r["pmf_time"] + r["combination_time"]
               for r in h) <= est.fit_time_
    returned = [r for r in h if r["member_complexity"] == est.member_complexity_]
    np.testing.assert_allclose([r["robust_loss"] for r in returned], est.robust_loss_history_)


def test_n_iter_no_change_stops_each_budget_on_a_prefix_of_the_full_loop():
    # the loop is deterministic, so a run stopped after member n is the first n members of
    # the full run; it stops once the best candidate (least robust loss, then cost) has not
    # improved for n_iter_no_change members, and the selection is over the members grown
    X, y = noisy_data(13, n=90)
    kw = dict(complexity=12, n_estimators=6, max_degree=2, random_state=0)
    full = dro(n_iter_no_change=None, **kw).fit(X, y)
    short = dro(n_iter_no_change=1, **kw).fit(X, y)
    assert short.status_ == "completed"
    grown = {r["member_complexity"]: r["n_estimators"] for r in short.member_complexity_results_}
    assert any(r["stopped_early"] for r in short.member_complexity_results_)
    for b, n in grown.items():
        a = [h for h in full.history_ if h["member_complexity"] == b]
        s_ = [h for h in short.history_ if h["member_complexity"] == b]
        assert len(s_) == n and [h["robust_loss"] for h in s_] == [h["robust_loss"] for h in a[:n]]
    best = []
    for b, n in grown.items():  # each budget's candidates, from a fit of that budget alone
        one = dro(member_complexity=b, n_iter_no_change=None,
                                        **kw).fit(X, y)
        keys = [min((round(c["robust_loss"], 12), c["cost"]) for c in one.candidates_
                    if c["iteration"] == it) for it in range(1, 7)]
        # patience 1: stop at the first member that does not improve the best key
        first = next((i for i in range(2, 7) if min(keys[:i]) == min(keys[:i - 1])), 6)
        assert n == first
        best.append(min(keys[:n]))
    assert min(best)[0] == round(short.candidates_[short.selected_]["robust_loss"], 12)
    with pytest.raises(InputError, match="n_iter_no_change"):
        dro(n_iter_no_change=0).fit(X, y)
    with pytest.raises(InputError, match="mip_gap"):
        dro(member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, mip_gap=-1e-3)).fit(X, y)


@pytest.mark.parametrize("start", ["support", "members", "none"])  # against "pool"
def test_member_warm_start_changes_the_path_not_the_lp_optimum(start):
    # exact pricing proves each member's master LP optimal over all clauses, whatever the
    # starting pool: the first two members see the same pmfs (h_1 starts from an empty pool
    # in every mode), so their LP optima agree; with "pool" member n starts from member
    # n-1's whole pool
    X, y = noisy_data(11, n=90)
    kw = dict(complexity=12, member_complexity=6, n_estimators=3, max_degree=2,
              pricing="exact", random_state=0)
    pool = dro(member_warm_start="pool", **kw).fit(X, y)
    other = dro(member_warm_start=start, **kw).fit(X, y)
    assert pool.history_[0]["initial_pool"] == other.history_[0]["initial_pool"] == 0
    for a, b in zip(pool.member_results_[:2], other.member_results_[:2]):
        assert a["converged"] and b["converged"]
        assert a["lp_objective"] == pytest.approx(b["lp_objective"], abs=1e-9)
    for prev, cur in zip(pool.history_, pool.history_[1:]):
        assert cur["initial_pool"] == prev["pool_size"]
    if start == "none":
        assert all(r["initial_pool"] == 0 for r in other.history_)
    elif start == "members":
        distinct = {c for m in other.member_clauses_[:2] for c in m}
        assert other.history_[2]["initial_pool"] == len(distinct)
    else:  # the members' clauses and the previous member's LP support, within its pool
        distinct = {c for m in other.member_clauses_[:2] for c in m}
        assert len(distinct) < other.history_[2]["initial_pool"] <= \
            other.history_[1]["pool_size"] + len(distinct)
        # the first member of every member budget's loop starts empty
        assert [r["initial_pool"] for r in other.history_ if r["iteration"] == 1] == [0]


def test_verbose_bar_updates_inside_each_member_and_fit_logs(capsys, caplog):
    import logging

    X, y = noisy_data(12, n=80)
    kw = dict(complexity=12, member_complexity=6, n_estimators=2, max_degree=2)
    with caplog.at_level(logging.DEBUG, logger="optirules"):
        est = dro(verbose=True, **kw).fit(X, y)
    err = capsys.readouterr().err
    # the bar shows column generation's iterations before the first member is done
    first = [line for line in err.replace("\r", "\n").splitlines() if " 0/2 " in line]
    assert any("cg_iter=1" in line and "pool=" in line for line in first)
    assert "robust_loss=" in err and " 2/2 " in err
    recs = [r for r in caplog.records if r.name == "optirules.learners.dro_ensemble"]
    info = [r.getMessage() for r in recs if r.levelno == logging.INFO]
    assert info[0].startswith("fit on 80 rows") and info[-1].startswith("fit done in")
    assert sum(m.startswith("C'=6 member") for m in info) == 2
    n_cg = sum(r["cg_iterations"] for r in est.history_)
    assert sum(r.levelno == logging.DEBUG for r in recs) == n_cg
    # verbose=False prints nothing; the INFO records are still there
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="optirules"):
        dro(**kw).fit(X, y)
    assert capsys.readouterr().err == ""
    assert len([r for r in caplog.records if r.name.startswith("optirules")]) == 4


@pytest.mark.parametrize("suffix", [".lp", ".mps"])
def test_export_model_files_read_back_to_the_fit_s_optima(fitted, tmp_path, suffix):
    from optirules.errors import NotFittedError
    from optirules.solvers import read_model

    est, X, y = fitted
    # the combination IP (eqs 11-14) of the returned ensemble: one row per training row
    [path] = est.export_model(tmp_path / f"comb{suffix}")
    c = est.candidates_[est.selected_]
    distinct = {frozenset(m) for m in est.member_clauses_[:c["iteration"]] if m}
    res = read_model(path)
    assert len(res.values) == 2 * len(distinct) + len(y)  # v, w per member, xi per row
    if c["status"] == "optimal":
        assert res.objective == pytest.approx(c["objective"], abs=1e-7)
    # every member's master IP (eqs 6-8) over its final pool
    files = est.export_model(tmp_path / f"m{suffix}", which="members")
    assert [f.name for f in files] == [f"m_member{k + 1}{suffix}" for k in range(len(est.members_))]
    n_pos = int(np.sum(y == est.classes_[1]))
    for k, f in enumerate(files):
        res = read_model(f)
        info = est.member_results_[k]
        assert len(res.values) == info["pool_size"] + n_pos  # w per clause, xi per positive
        assert res.objective == pytest.approx(info["ip_objective"], rel=1e-6, abs=1e-9)
    assert est.export_model(tmp_path / f"one{suffix}", which=("member", 1))[0].exists()
    with pytest.raises(InputError, match="suffix"):
        est.export_model(tmp_path / "m.txt")
    for bad in (("member", len(est.members_)), ("member", -1), "member", 3):
        with pytest.raises(InputError, match="which"):
            est.export_model(tmp_path / f"x{suffix}", which=bad)
    back = DRORuleEnsembleClassifier.from_json(est.to_json())
    with pytest.raises(NotFittedError, match="Refit"):
        back.export_model(tmp_path / f"b{suffix}")


def test_members_are_numbered_alike_everywhere_and_the_hidden_ones_are_counted():
    """Member k is members_[k - 1] in print, explain, rules_table and the coverage plot;
    the text says how many members of weight 0 it leaves out, and which."""
    import re

    X, y = noisy_data(seed=1)
    est = DRORuleEnsembleClassifier(
        complexity=12, random_state=0,
        member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0)).fit(X, y)
    used, hidden = np.flatnonzero(est.weights_), np.flatnonzero(est.weights_ == 0)
    assert hidden.size and used.size > 1  # the fit leaves a member out
    text = str(est)
    shown = [int(m) for m in re.findall(r"member (\d+): ", text)]
    assert shown == [k + 1 for k in used]
    names = ", ".join(str(k + 1) for k in hidden)
    many = len(hidden) != 1
    assert text.splitlines()[len(used) + 1] == (
        f"  ({len(hidden)} of the {len(est.members_)} members ha{'ve' if many else 's'} "
        f"weight 0 and {'are' if many else 'is'} not shown: member{'s' * many} {names}; "
        "member k is members_[k - 1])")
    table = est.rules_table()
    assert sorted(set(table["member"])) == shown
    for k in used:
        rows = table[table["member"] == k + 1]
        assert list(rows["rule"]) == [str(r) for r in est.members_[k].rules]
        assert (rows["weight"] == est.weights_[k]).all()
    for line in est.explain(X)["text"]:
        for number, weight in re.findall(r"member (\d+) \(v = ([0-9.]+)\)", line):
            assert f"{est.weights_[int(number) - 1]:.4f}" == weight


def test_json_round_trip_gives_identical_votes(tmp_path):
    import pandas as pd

    rng = np.random.default_rng(6)
    X = pd.DataFrame({"a": rng.normal(size=90), "b": rng.choice(["u", "v", "w"], 90),
                      "c": rng.integers(0, 5, 90).astype(float)})
    X.loc[rng.random(90) < 0.1, "a"] = np.nan
    y = np.where((X["a"] > 0.3) | (X["b"] == "u") & (X["c"] > 1), "yes", "no")
    est = dro(complexity=12, n_estimators=3, n_iter_no_change=2,
                                    member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=2, binarizer="auto")).fit(X, y)
    back = DRORuleEnsembleClassifier.from_json(est.to_json(tmp_path / "dro.json"))
    np.testing.assert_array_equal(back.predict(X), est.predict(X))
    np.testing.assert_array_equal(back.predict_proba(X), est.predict_proba(X))
    np.testing.assert_array_equal(back.vote_level_scores_, est.vote_level_scores_)
    np.testing.assert_array_equal(DRORuleEnsembleClassifier.from_json(tmp_path / "dro.json")
                                  .weights_, est.weights_)
    assert str(back) == str(est)
    assert back.member_complexity_ == est.member_complexity_ and back.status_ == est.status_
    np.testing.assert_array_equal(back.n_iter_, est.n_iter_)
    assert back.n_estimators_ == est.n_estimators_ == 3
    assert np.all((est.n_iter_ >= 1) & (est.n_iter_ <= est.member.max_iter))


def test_three_classes_most_probable_class_is_predict_on_train_and_test_rows():
    from sklearn.datasets import load_wine

    X, y = load_wine(return_X_y=True)
    rng = np.random.default_rng(0)
    test = rng.random(len(y)) < 0.3
    est = dro(complexity=9, n_estimators=2, random_state=0,
                                    member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto", max_degree=1)).fit(X[~test], y[~test])
    for rows in (~test, test):
        proba = est.predict_proba(X[rows])
        assert np.all((proba > 0) & (proba < 1))
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)
        pred = est.predict(X[rows])
        np.testing.assert_array_equal(est.classes_[proba.argmax(axis=1)], pred)
        k = np.searchsorted(est.classes_, pred)
        why = est.explain(X[rows])
        np.testing.assert_allclose(why["score"], proba[np.arange(len(k)), k])


def test_json_scores_damaged_are_refused_and_missing_ones_refuse_probabilities():
    import json

    X, y = noisy_data(5)
    est = dro(complexity=12, n_estimators=3, random_state=0,
                                    member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=2)).fit(X, y)
    data = json.loads(est.to_json())
    for key, bad in (("vote_level_scores", 1.5), ("vote_level_scores", float("nan")),
                     ("vote_levels", -0.1), ("vote_level_support", -1.0),
                     ("class_prior", 2.0)):
        broken = json.loads(json.dumps(data))
        if key == "class_prior":
            broken["scores"][key] = bad
        else:
            broken["scores"][key][0] = bad
        with pytest.raises(InputError, match="scores"):
            DRORuleEnsembleClassifier.from_json(json.dumps(broken))
    short = json.loads(json.dumps(data))
    short["scores"]["vote_level_scores"] = short["scores"]["vote_level_scores"][:-1]
    with pytest.raises(InputError, match="scores"):
        DRORuleEnsembleClassifier.from_json(json.dumps(short))
    old = json.loads(json.dumps(data))
    del old["scores"]  # an ensemble saved before the scores were kept
    back = DRORuleEnsembleClassifier.from_json(json.dumps(old))
    np.testing.assert_array_equal(back.predict(X), est.predict(X))
    np.testing.assert_array_equal(back.decision_function(X), est.decision_function(X))
    with pytest.raises(InputError, match="refit"):
        back.predict_proba(X)


@pytest.mark.parametrize("selection", ["robust_loss", "validation"])
def test_member_budget_loops_in_parallel_give_the_same_model(selection):
    """n_jobs=2 runs the three member budgets' loops in joblib workers: every loop has its
    own pricer, so the members, the candidates, the history and the returned ensemble are
    those of the sequential fit."""
    X, y = noisy_data(21, n=120)
    kw = dict(complexity=12, member_complexity=(4, 6, 12), n_estimators=3, max_degree=2,
              n_iter_no_change=2, random_state=0, selection=selection)
    one = dro(**kw).fit(X, y)
    two = dro(n_jobs=2, **kw).fit(X, y)
    assert len({r["member_complexity"] for r in one.history_}) == 3
    assert [(h["member_complexity"], h["iteration"], h["pool_size"], h["robust_loss"])
            for h in one.history_] == [(h["member_complexity"], h["iteration"],
                                        h["pool_size"], h["robust_loss"])
                                       for h in two.history_]
    assert [str(m) for m in one.members_] == [str(m) for m in two.members_]
    np.testing.assert_array_equal(one.weights_, two.weights_)
    assert one.member_complexity_ == two.member_complexity_
    assert [r["score"] for r in one.member_complexity_results_] == \
        [r["score"] for r in two.member_complexity_results_]
    np.testing.assert_array_equal(one.predict(X), two.predict(X))


def test_clear_errors():
    X, y = noisy_data(0, n=30)
    with pytest.raises(InputError, match="exceeds"):
        dro(complexity=6, member_complexity=9).fit(X, y)
    for bad in (dict(rho=-1), dict(loss="hinge"), dict(divergence="tv"),
                dict(selection="best"), dict(n_estimators=0), dict(complexity=1),
                dict(refit="yes"), dict(time_limit=-1), dict(member_warm_start="all"),
                dict(n_jobs=0), dict(n_jobs=1.5), dict(combination_max_nodes=0),
                dict(combination_max_nodes=2.5)):
        with pytest.raises(InputError):
            dro(**bad).fit(X, y)
    with pytest.raises(InputError, match="only one class"):
        dro().fit(X, np.zeros(30))
    with pytest.raises(InputError, match="binarizer"):
        dro(member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer=None)).fit(X * 0.3, y)


def test_pipeline_and_gridsearch():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(80, 3))
    y = ((X[:, 0] > 0.2) | (X[:, 1] < -0.5)).astype(int)
    pipe = Pipeline([("bin", FeatureBinarizer(n_thresholds=3)),
                     ("dro", dro(complexity=12, n_estimators=2,
                                                       member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=1)))]).fit(X, y)
    assert pipe.score(X, y) > 0.8
    grid = GridSearchCV(dro(n_estimators=1,
                                                  member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto", max_degree=1)),
                        {"rho": [0.05, 0.5]}, cv=2).fit(X, y)
    assert grid.best_params_["rho"] in (0.05, 0.5)


@parametrize_with_checks(
    [dro(complexity=9, n_estimators=2,
                               member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto", max_degree=1, max_iter=10))],
    # continuous check data needs the binarizer; no check is expected to fail
    expected_failed_checks=lambda est: {},
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


# ------------------------------------------------------------------ sample_weight
def weighted_kw(div="chi2", selection="robust_loss"):
    return dict(complexity=12, member_complexity=4, rho=0.3, divergence=div, n_estimators=4,
                max_degree=2, selection=selection, random_state=0)


@pytest.mark.parametrize("div", ["chi2", "kl"])
def test_integer_sample_weight_is_repeated_rows(div):
    """P^0 is the normalized weights and the ball is centred there: an integer weight is
    that many copies of the row -- the same members, combination weights, pmfs (each row's
    mass the sum over its copies), robust losses and probabilities."""
    X, y = noisy_data(2)
    sw = np.random.default_rng(0).integers(1, 4, size=len(y)).astype(float)
    rows = np.repeat(np.arange(len(y)), sw.astype(int))
    a = dro(**weighted_kw(div)).fit(X, y, sample_weight=sw)
    b = dro(**weighted_kw(div)).fit(X[rows], y[rows])
    assert a.member_clauses_ == b.member_clauses_
    np.testing.assert_allclose(a.weights_, b.weights_, atol=1e-9)
    assert a.selected_ == b.selected_
    np.testing.assert_allclose(a.robust_loss_history_, b.robust_loss_history_, rtol=1e-9)
    np.testing.assert_allclose(a.divergence_history_, b.divergence_history_, atol=1e-9)
    merged = np.array([np.bincount(rows, weights=p, minlength=len(y))
                       for p in b.pmf_history_])
    np.testing.assert_allclose(a.pmf_history_, merged, atol=1e-9)
    np.testing.assert_allclose(a.vote_level_support_, b.vote_level_support_)
    np.testing.assert_allclose(a.vote_level_positives_, b.vote_level_positives_)
    assert a.class_prior_ == pytest.approx(b.class_prior_)
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), atol=1e-12)
    np.testing.assert_array_equal(a.predict(X), b.predict(X))
    # every pmf is in the ball around P^0 = sw / sum(sw)
    q = sw / sw.sum()
    for p in a.pmf_history_:
        D = (float(q @ (p / q - 1) ** 2) if div == "chi2"
             else float(np.sum(p[p > 0] * np.log(p[p > 0] / q[p > 0]))))
        assert D <= 0.3 + 1e-9


def test_integer_sample_weight_ties_give_the_same_first_member_optimum():
    """On these rows the first member's master IP has two optimal rule sets, and the
    weighted fit and the repeated rows may settle on different ones (then the pmfs and
    later members differ); the optimum and the first robust loss are the same."""
    X, y = noisy_data(1)
    sw = np.random.default_rng(0).integers(1, 4, size=len(y)).astype(float)
    rows = np.repeat(np.arange(len(y)), sw.astype(int))
    a = dro(**weighted_kw()).fit(X, y, sample_weight=sw)
    b = dro(**weighted_kw()).fit(X[rows], y[rows])
    assert a.member_results_[0]["ip_objective"] == pytest.approx(
        b.member_results_[0]["ip_objective"], rel=1e-9)
    assert a.robust_loss_history_[0] == pytest.approx(b.robust_loss_history_[0], rel=1e-9)


@pytest.mark.parametrize("selection", ["robust_loss", "validation"])
def test_uniform_sample_weight_is_no_sample_weight(selection):
    X, y = noisy_data(1)
    kw = weighted_kw(selection=selection)
    a = dro(**kw).fit(X, y)
    for w in (1.0, 2.5):
        b = dro(**kw).fit(X, y, sample_weight=np.full(len(y), w))
        assert a.member_clauses_ == b.member_clauses_
        np.testing.assert_array_equal(a.weights_, b.weights_)
        np.testing.assert_array_equal(a.pmf_history_, b.pmf_history_)
        np.testing.assert_array_equal(a.robust_loss_history_, b.robust_loss_history_)
        np.testing.assert_array_equal(a.divergence_history_, b.divergence_history_)
        assert len(a.candidates_) == len(b.candidates_)
        for ca, cb in zip(a.candidates_, b.candidates_):
            np.testing.assert_array_equal(ca["weights"], cb["weights"])
            assert (ca["robust_loss"], ca["train_accuracy"]) == \
                (cb["robust_loss"], cb["train_accuracy"])
        np.testing.assert_array_equal(a.vote_levels_, b.vote_levels_)
        # a row counts as its weight in the vote levels' counts (as in the rule set), so
        # weights 2.5 are 2.5 copies of each row; weights 1 are the fit without weights
        np.testing.assert_allclose(b.vote_level_support_, w * a.vote_level_support_)
        if w == 1.0:
            np.testing.assert_array_equal(a.vote_level_support_, b.vote_level_support_)
            np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
        np.testing.assert_array_equal(a.predict(X), b.predict(X))


def test_zero_weight_rows_are_dropped_and_the_validation_split_keeps_weights():
    X, y = noisy_data(1, n=80)
    sw = np.random.default_rng(1).integers(0, 3, size=len(y)).astype(float)
    sw[:2] = 1.0  # both classes keep rows
    keep = sw > 0
    kw = weighted_kw(selection="validation")
    a = dro(**kw).fit(X, y, sample_weight=sw)
    b = dro(**kw).fit(X[keep], y[keep], sample_weight=sw[keep])
    assert a.pmf_history_.shape[1] == keep.sum()
    assert a.member_clauses_ == b.member_clauses_
    np.testing.assert_array_equal(a.weights_, b.weights_)
    assert a.validation_choice_ == b.validation_choice_
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    # the validation accuracies are weighted shares, not counts
    c = [cand["validation_accuracy"] for cand in a.validation_candidates_]
    assert all(0.0 <= v <= 1.0 for v in c)


@pytest.mark.parametrize("sw, message", [
    (lambda n: -np.ones(n), "non-negative"),
    (lambda n: np.r_[np.nan, np.ones(n - 1)], "Pass one non-negative finite weight"),
    (lambda n: np.ones(n - 1), "Pass one non-negative finite weight"),
    (lambda n: np.zeros(n), "non-zero|sums to zero"),
    (lambda n: np.r_[1.0, 0.0, np.zeros(n - 2)], "only one class is left"),
])
def test_bad_sample_weight_is_refused_before_any_work(sw, message):
    X, y = noisy_data(1)
    est = dro(**weighted_kw(),
                                    member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto"))
    with pytest.raises(InputError, match=message):
        est.fit(X, y, sample_weight=sw(len(y)))
    assert not hasattr(est, "classes_") and not hasattr(est, "binarizer_")



def test_a_validation_selected_ensemble_round_trips_through_json():
    X, y = noisy_data(4, n=80)
    est = dro(complexity=12, member_complexity=4, n_estimators=3, max_degree=2,
              selection="validation", random_state=3).fit(X, y)
    assert any(c.get("validation_selected") for c in est.candidates_)
    back = DRORuleEnsembleClassifier.from_json(est.to_json())
    np.testing.assert_array_equal(back.predict_proba(X), est.predict_proba(X))
    assert [c.get("validation_selected") for c in back.candidates_] == \
        [c.get("validation_selected") for c in est.candidates_]


def test_the_default_members_are_the_default_rule_set():
    """The default member is the default rule set (its penalty "auto"), so the first member,
    fitted under the uniform pmf, is that rule set's optimum; the penalty bounds the members,
    so they
    get the overall budget (one loop, C' = C = 300); the paper's budget-form member still
    tries {C/3, C}."""
    from optirules.data import load_dataset

    X, y = load_dataset("heart_cleveland")
    est = DRORuleEnsembleClassifier(random_state=0, n_estimators=3).fit(X, y)
    alone = BooleanRuleSetClassifier(random_state=0, max_degree=est.max_degree_).fit(X, y)
    assert member_budgets(est) == [300.0] and est.lambda0_ == alone.lambda0_
    # the same master optimum and certified bound (a tied rule set may differ)
    first = est.member_results_[0]
    assert first["ip_objective"] == pytest.approx(alone.ip_objective_, abs=1e-12)
    assert first["lp_bound"] == pytest.approx(alone.lp_bound_, abs=1e-9)
    paper = DRORuleEnsembleClassifier(member=BooleanRuleSetClassifier(lambda0=0.0,
                                                                      lambda1=0.0, tol=0.0))
    assert member_budgets(paper) == [100.0, 300.0]
