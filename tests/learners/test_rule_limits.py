"""``max_rules`` and ``max_literals`` on the learners: exact (the fit's optimum equals full
enumeration), certified, in both forms, in the DRO ensemble's members and in the exported
model."""

import itertools

import numpy as np
import pandas as pd
import pytest

from optirules.learners import BooleanRuleSetClassifier, DRORuleEnsembleClassifier
from optirules.models import master_objective


def _table(seed=0, n=150):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 2, size=(n, 4)), columns=list("pqrs"))
    y = ((X["p"] & X["q"]) | (X["r"] & (1 - X["s"])) | (X["q"] & X["s"])).to_numpy()
    return X, np.where(rng.random(n) < 0.1, 1 - y, y)


def _optimum(X, y, max_rules, max_literals):
    """The master optimum over every rule set of clauses of at most 2 literals (literals
    ``x == 1`` then ``x == 0``, as ``binarizer=None`` makes them) within the limits."""
    A = np.hstack([X.to_numpy() == 1, X.to_numpy() == 0])
    L = A.shape[1]
    clauses = [(i,) for i in range(L)] + list(itertools.combinations(range(L), 2))
    P = np.full(len(y), 1.0 / len(y))
    best = np.inf
    for r in range(max_rules + 1):
        for subset in itertools.combinations(clauses, r):
            if max_literals is None or sum(map(len, subset)) <= max_literals:
                best = min(best, master_objective(A, y == 1, P, list(subset), 0.0, 0.0))
    return best


KW = dict(binarizer=None, max_degree=2, lambda0=0.0, lambda1=0.0, mip_gap=1e-9, tol=0.0,
          random_state=0)


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("max_rules,max_literals", [(1, None), (2, None), (2, 3)])
def test_the_fit_is_the_enumerated_optimum(seed, max_rules, max_literals):
    X, y = _table(seed)
    est = BooleanRuleSetClassifier(max_rules=max_rules, max_literals=max_literals,
                                   **KW).fit(X, y)
    best = _optimum(X, y, max_rules, max_literals)
    assert est.ip_objective_ == pytest.approx(best, abs=1e-12)
    assert est.gap_certified_ and est.lp_bound_ <= best + 1e-12
    assert len(est.rules_.rules) <= max_rules
    if max_literals is not None:
        assert sum(len(r.conditions) for r in est.rules_.rules) <= max_literals


def test_cnf_counts_its_clauses():
    """A CNF is the negated DNF of the other class: max_rules bounds its clauses, and its
    optimum is the enumerated one for the complement labels."""
    X, y = _table(2)
    est = BooleanRuleSetClassifier(form="cnf", max_rules=2, **KW).fit(X, y)
    assert len(est.rules_.rules) <= 2
    assert est.ip_objective_ == pytest.approx(_optimum(X, 1 - y, 2, None), abs=1e-12)


def test_the_limit_binds_and_costs_what_the_certificate_says():
    X, y = _table(0)
    free = BooleanRuleSetClassifier(**KW).fit(X, y)
    one = BooleanRuleSetClassifier(max_rules=1, **KW).fit(X, y)
    assert len(free.rules_.rules) > 1
    assert len(one.rules_.rules) == 1
    assert one.ip_objective_ > free.ip_objective_
    # without a penalty or a limit the free fit has no bound on its number of rules, so
    # no certificate; the limit gives one
    assert one.gap_certified_
    assert one.lp_objective_ >= free.lp_objective_ - 1e-12


def test_dro_members_keep_the_limit():
    X, y = _table(3, n=120)
    member = BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer=None,
                                      max_degree=2, max_rules=1)
    est = DRORuleEnsembleClassifier(complexity=12, n_estimators=2, member=member,
                                    random_state=0).fit(X, y)
    assert all(len(m.rules) <= 1 for m in est.members_)


def test_the_exported_master_has_the_rows(tmp_path):
    X, y = _table(0)
    est = BooleanRuleSetClassifier(max_rules=2, max_literals=3, **KW).fit(X, y)
    path = tmp_path / "master.lp"
    est.export_model(path)
    text = path.read_text()
    assert "max_rules" in text and "max_literals" in text


@pytest.mark.parametrize("bad", [0, -2, 1.5, "two"])
def test_a_bad_limit_is_refused_before_any_work(bad):
    X, y = _table(0, n=30)
    with pytest.raises(ValueError, match="max_rules"):
        BooleanRuleSetClassifier(max_rules=bad).fit(X, y)


def test_feature_costs_count_a_costly_column_as_more_literals():
    """With the column a rule uses made costly, the fit moves to other columns when that
    pays, its weighted literal count stays within max_literals, and a cost of 1 everywhere
    is the plain fit."""
    X, y = _table(0)
    kw = dict(KW, lambda0=0.001, lambda1=0.002)
    free = BooleanRuleSetClassifier(**kw).fit(X, y)
    ones = BooleanRuleSetClassifier(feature_costs={c: 1.0 for c in X.columns}, **kw).fit(X, y)
    assert ones.ip_objective_ == pytest.approx(free.ip_objective_, abs=1e-12)
    used = {lit.feature for rule in free.rules_.rules for lit in rule.conditions}
    costly = BooleanRuleSetClassifier(feature_costs={f: 40.0 for f in used}, **kw).fit(X, y)
    assert costly.gap_certified_
    assert {lit.feature for rule in costly.rules_.rules for lit in rule.conditions} != used
    capped = BooleanRuleSetClassifier(feature_costs={"p": 2.0, 1: 3.0}, max_literals=4,
                                      **kw).fit(X, y)
    cost = {"p": 2.0, "q": 3.0}
    assert sum(cost.get(lit.feature, 1.0) for rule in capped.rules_.rules
               for lit in rule.conditions) <= 4


@pytest.mark.parametrize("costs,match", [
    ({"nope": 2.0}, "names the column"), ({9: 2.0}, "position"), ({"p": 0.0}, "> 0"),
    ({"p": float("nan")}, "> 0"), (["p"], "Mapping"),
])
def test_bad_feature_costs_are_refused_before_any_work(costs, match):
    X, y = _table(0, n=30)
    with pytest.raises((ValueError, TypeError), match=match):
        BooleanRuleSetClassifier(feature_costs=costs).fit(X, y)


def test_required_features_are_used_and_the_optimum_is_enumerated():
    """The rule set must test columns r and q (the second by position): every rule set of
    at most two clauses of at most two literals that tests both is enumerated, and the
    fit's certified bound is below the best and its rule set no better."""
    X, y = _table(0)
    est = BooleanRuleSetClassifier(max_rules=2, required_features=["r", 1], **KW).fit(X, y)
    used = {lit.feature for r in est.rules_.rules for lit in r.conditions}
    assert {"r", "q"} <= used
    A = np.hstack([X.to_numpy() == 1, X.to_numpy() == 0])
    L = A.shape[1]
    # no clause holds a column's two literals (x == 1 AND x == 0 never fires)
    clauses = [(i,) for i in range(L)] + [c for c in itertools.combinations(range(L), 2)
                                          if c[1] != c[0] + L // 2]
    groups = [{2, 6}, {1, 5}]  # r == 1, r == 0; q == 1, q == 0
    P = np.full(len(y), 1.0 / len(y))
    best = min(master_objective(A, y == 1, P, list(s), 0.0, 0.0)
               for k in range(3) for s in itertools.combinations(clauses, k)
               if all(any(g & set(c) for c in s) for g in groups))
    assert est.gap_certified_
    assert est.lp_bound_ <= best + 1e-9 <= est.ip_objective_ + 2e-9


@pytest.mark.parametrize("params,match", [
    (dict(required_features=["nope"]), "names the column"),
    (dict(required_features=["p"], forbidden_features=["p"]), "forbids"),
    (dict(required_features=["p", "q", "r"], max_rules=1, max_degree=2), "max_rules=1"),
    (dict(required_features=["p", "q"], max_literals=1), "max_literals=1"),
])
def test_impossible_requirements_are_refused_before_column_generation(params, match):
    X, y = _table(0, n=40)
    with pytest.raises(ValueError, match=match):
        BooleanRuleSetClassifier(binarizer=None, **params).fit(X, y)


@pytest.mark.parametrize("params", [dict(target_class=0), dict(form="cnf")])
def test_required_features_hold_when_the_master_learns_the_other_class(params):
    """On 2,500 rows of adult the master of the other class has over 1,000 merged label-1
    rows, so the incumbent before the IP comes from restricted IPs followed by local search;
    local search knows only the budget rows and dropped the required clause, and that
    incumbent (cheaper, infeasible) replaced the IP's rule set.  Every incumbent must now
    meet the side constraints."""
    from optirules.data import load_dataset

    X, y = load_dataset("adult")
    est = BooleanRuleSetClassifier(max_degree=2, required_features=["race"], random_state=0,
                                   **params).fit(X.iloc[:2500], y[:2500])
    assert est.fit_info_["incumbent_source"].startswith("restricted IP")
    used = {lit.feature for r in est.rules_.rules for lit in r.conditions}
    assert "race" in used
    assert est.gap_certified_ and est.lp_bound_ <= est.ip_objective_ + 1e-12
