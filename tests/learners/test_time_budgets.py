"""Time budgets: the DRO combination IP bounded in branch-and-bound nodes (deterministic, its
status naming the bound), and ``time_limit`` shared by the classes of a one-vs-rest fit (the
whole call bounded, the classes it cut short named).  Real HiGHS throughout; the time checks
compare the fit with the seconds its own classes report, never with a fixed margin."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.datasets import load_digits, load_iris

from optirules.errors import InputError
from optirules.learners import BooleanRuleSetClassifier, DRORuleEnsembleClassifier
from optirules.models import SparseCombinationModel
from optirules.solvers import Status
from tests.internals import MIN_SHARE

from ._dro import dro


def combination_instance(seed: int = 0, n: int = 80, k: int = 10):
    """Random member votes whose combination IP needs more than the root node."""
    rng = np.random.default_rng(seed)
    return (rng.integers(0, 2, (n, k)), rng.integers(0, 2, n), rng.integers(3, 10, k))


# ------------------------------------------------------------------ the combination IP
@pytest.mark.parametrize("route", ["highspy", "pyomo"])
def test_node_bound_stops_the_combination_ip_with_its_incumbent_and_gap(route):
    H, y, costs = combination_instance()
    full = SparseCombinationModel(H, y, costs, 20)
    full.solve(route=route)
    assert full.status_ is Status.OPTIMAL
    cut = SparseCombinationModel(H, y, costs, 20)
    res = cut.solve(route=route, max_nodes=1)
    assert res.status is Status.ITERATION_LIMIT and res.has_solution
    # the incumbent is feasible (on the simplex, within budget), no better than the optimum,
    # and its gap is against a bound below the optimum
    assert cut.v_.sum() == pytest.approx(1.0) and costs[cut.chosen_].sum() <= 20
    assert cut.objective_ >= full.objective_ - 1e-9
    assert 0 < res.gap < 1 and res.bound <= full.objective_ + 1e-9


def test_node_bound_is_checked_and_named_per_solver():
    H, y, costs = combination_instance()
    for bad in (0, 1.5, True):
        with pytest.raises(InputError, match="max_nodes"):
            SparseCombinationModel(H, y, costs, 20).solve(max_nodes=bad)
    with pytest.raises(InputError, match="node-limit option"):
        SparseCombinationModel(H, y, costs, 20).solve("glpk", max_nodes=5)


# ------------------------------------------------------------------ the DRO fit
def _fingerprint(est):
    return (est.member_clauses_, est.weights_.tolist(), est.status_,
            [(c["status"], c["limit"], None if math.isnan(c["gap"]) else c["gap"],
              c["objective"] if not math.isnan(c["objective"]) else None,
              c["weights"].tolist()) for c in est.candidates_])


def test_default_bounds_the_combination_ip_in_nodes_not_seconds():
    params = dro().get_params()
    # one limit in seconds, the fit's own (opt-in); the IPs are bounded in nodes
    assert params["time_limit"] is None
    assert not [k for k in params if k.endswith("time_limit") and k != "time_limit"
                and not k.startswith("member__")]
    assert isinstance(params["combination_max_nodes"], int)


def test_node_bounded_fits_are_identical_and_report_the_bound():
    """A tiny node bound stops some combination IPs of credit-g (their trees need more than
    one node): two fits with the same seed give the same members, weights, candidates and
    certificates, and the status names the bound and the incumbents' gaps."""
    from optirules.data import load_dataset

    X, y = load_dataset("credit_g")
    one, two = (dro(combination_max_nodes=1, random_state=0,
                                          member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto")).fit(X, y) for _ in range(2))
    assert _fingerprint(one) == _fingerprint(two)
    np.testing.assert_array_equal(one.predict_proba(X), two.predict_proba(X))
    stopped = [c for c in one.candidates_ if c["limit"] == "combination_max_nodes"]
    assert stopped
    for c in stopped:
        assert "node limit combination_max_nodes=1 reached: best incumbent" in c["status"]
        assert 0 <= c["gap"] < 1
    assert one.status_.startswith("completed; combination IPs: the node limit "
                                  "combination_max_nodes=1 stopped the IPs of ")
    assert "machine" not in one.status_  # a node bound does not depend on the machine
    for c in one.candidates_:  # an IP that finished reports gap 0 and no limit
        if c["status"] == "optimal":
            assert c["limit"] is None and c["gap"] == pytest.approx(0.0, abs=1e-4)
    back = DRORuleEnsembleClassifier.from_json(one.to_json())  # the certificate is saved
    assert back.status_ == one.status_
    assert [(c["status"], c["limit"]) for c in back.candidates_] == \
        [(c["status"], c["limit"]) for c in one.candidates_]


def test_the_combination_node_bound_is_checked():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(InputError, match="combination_max_nodes"):
        dro(combination_max_nodes=0).fit(X, y)


# ------------------------------------------------------------------ one-vs-rest
def digits(n: int = 500):
    X, y = load_digits(return_X_y=True)
    return X[:n], y[:n]


def test_one_vs_rest_time_limit_bounds_the_whole_call():
    """Ten digit classes share ``time_limit``: each gets what is left over the classes left,
    so the classes' own fit times add up to at most the limit plus what each class ran over
    its share (the binary learner's own overrun: a member in progress, an IP's floor).  Each
    class getting the whole limit would add up to about ten limits."""
    X, y = digits()
    T = 2.0
    est = dro(time_limit=T, random_state=0,
                                    member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto")).fit(X, y)
    K = len(est.classes_)
    shares = est.class_time_limits_
    assert K == 10 and len(shares) == K and shares[0] <= T / K
    times = np.array([e.fit_time_ for e in est.estimators_])
    over = np.maximum(times - np.array(shares), 0.0)
    assert times.sum() <= T + over.sum() + K * MIN_SHARE + 1e-6
    assert est.fit_time_ >= times.sum()
    assert [e.time_limit for e in est.estimators_] == shares
    assert est.get_params()["time_limit"] == T  # the user's parameter is untouched
    cut = [c for c, st in zip(est.classes_, est.class_status_) if st.startswith("time_limit")]
    assert est.cut_classes_ == [int(c) for c in cut]
    if cut:
        assert est.status_.startswith(f"time_limit: the shared time_limit={T} s")
        assert f"cut short the models of {len(cut)} of {K} classes: " \
               f"{', '.join(str(c) for c in cut)};" in est.status_
    else:
        assert est.status_ == "completed"
    assert est.score(X, y) > 0.5


def test_one_vs_rest_tiny_limit_names_every_class_cut_short():
    X, y = load_iris(return_X_y=True)
    est = dro(time_limit=1e-3, random_state=0,
                                    member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto")).fit(X, y)
    assert est.cut_classes_ == [0, 1, 2]
    assert est.status_.startswith("time_limit: the shared time_limit=0.001 s (wall-clock: "
                                  "the result depends on the machine's speed) cut short the "
                                  "models of 3 of 3 classes: 0, 1, 2;")
    assert all(st.startswith("time_limit") for st in est.class_status_)
    assert set(np.unique(est.predict(X))) <= {0, 1, 2}


def test_one_vs_rest_without_a_limit_completes_with_the_classes_certificates():
    X, y = load_iris(return_X_y=True)
    rs = BooleanRuleSetClassifier(binarizer="auto", max_degree=1, random_state=0).fit(X, y)
    assert rs.status_ == "completed" and rs.cut_classes_ == []
    assert rs.class_time_limits_ == [None, None, None]
    assert rs.class_status_ == [e.status_ for e in rs.estimators_]
    gaps = [e.gap_ for e in rs.estimators_]
    if any(map(math.isnan, gaps)):
        assert math.isnan(rs.gap_)
    else:
        assert rs.gap_ == max(gaps)
    assert rs.gap_certified_ == all(e.gap_certified_ for e in rs.estimators_)
    assert rs.absolute_gap_ == max(e.absolute_gap_ for e in rs.estimators_)


def test_one_vs_rest_names_a_class_s_combination_bound_without_calling_it_cut_short():
    """A class's note on a completed fit (a node bound that stopped some of its combination
    IPs) is repeated in the model's status with its class, and the class is not called
    cut short (only the shared time_limit cuts a class)."""
    X, y = load_iris(return_X_y=True)
    est = dro(n_estimators=2, random_state=0).fit(X, y)
    note = ("completed; combination IPs: combination_max_nodes=1 stopped 2 of 6 IPs "
            "(largest gap 3.0%)")
    est.estimators_[1].status_ = note
    est._set_ovr_status()
    assert est.cut_classes_ == [] and est.status_.startswith("completed")
    assert est.class_status_[1] == note
    assert f"class {est.classes_[1]}: {note}" in est.status_


def test_one_vs_rest_status_survives_the_json_round_trip():
    """status_, class_status_, cut_classes_ and gap_ of a one-vs-rest model are rebuilt
    from its classes' models when it is loaded."""
    from sklearn.datasets import load_iris

    from optirules.learners import BooleanRuleSetClassifier

    X, y = load_iris(return_X_y=True, as_frame=True)
    m = BooleanRuleSetClassifier(binarizer="auto", random_state=0, max_iter=5).fit(X, y)
    back = BooleanRuleSetClassifier.from_json(m.to_json())
    assert back.status_ == m.status_ and back.class_status_ == m.class_status_
    assert back.cut_classes_ == m.cut_classes_
    assert back.gap_ == m.gap_ or (np.isnan(back.gap_) and np.isnan(m.gap_))


def test_a_member_cut_by_its_share_of_the_limit_makes_the_status_time_limit():
    """Each member's column generation gets a share of what time_limit leaves; a member
    that its share cut short makes the ensemble's status time_limit even when the loop
    then ends on its own (early stopping), never "completed"."""
    from optirules.data import load_dataset

    X, y = load_dataset("magic_gamma")
    X, y = X.iloc[::4], y[::4]
    m = dro(random_state=0, time_limit=1.0,
                                  member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto")).fit(X, y)
    cut = [info["status"] for info in m.member_results_ if "time_limit" in info["status"]]
    assert cut, "the limit is far below one member's column generation here"
    assert m.status_.startswith("time_limit") and "machine's speed" in m.status_
