"""``forbidden_features``: columns no rule may test, exact in the master and in pricing."""

import itertools

import numpy as np
import pandas as pd
import pytest

from optirules.errors import InputError
from optirules.learners import BooleanRuleSetClassifier, DRORuleEnsembleClassifier
from optirules.models import enumerate_master


def _planted(seed=0, n=300):
    """y = (a AND b) OR c on 0/1 columns, with ``c_copy`` equal to ``c``: forbidding ``c``
    leaves an equally good rule set that uses ``c_copy``."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 2, size=(n, 5)), columns=["a", "b", "c", "d", "e"])
    X["c_copy"] = X["c"]
    y = ((X["a"] & X["b"]) | X["c"]).to_numpy()
    return X, y


def test_an_equally_good_rule_replaces_the_forbidden_one():
    X, y = _planted()
    kw = dict(binarizer=None, max_degree=2, random_state=0, mip_gap=1e-6, tol=0.0)
    free = BooleanRuleSetClassifier(**kw).fit(X, y)
    assert free.score(X, y) == 1.0
    used = {lit.feature for rule in free.rules_ for lit in rule.conditions}
    forbid = "c" if "c" in used else "c_copy"
    other = "c_copy" if forbid == "c" else "c"
    est = BooleanRuleSetClassifier(forbidden_features=[forbid], **kw).fit(X, y)
    features = {lit.feature for rule in est.rules_ for lit in rule.conditions}
    assert forbid not in features and other in features
    assert est.score(X, y) == 1.0
    assert est.ip_objective_ == pytest.approx(free.ip_objective_, abs=1e-12)
    assert est.gap_certified_
    assert set(est.forbidden_literals_) == {f"{forbid} == 1", f"{forbid} == 0"}
    # by position, the same model
    pos = list(X.columns).index(forbid)
    by_pos = BooleanRuleSetClassifier(forbidden_features=[pos], **kw).fit(X, y)
    assert by_pos.clauses_ == est.clauses_


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_constrained_optimum_equals_enumeration_over_the_allowed_clauses(seed):
    """Budget form (complexity 5: at most two rules): the fit's master objective equals the
    optimum of the master IP over every clause of at most 2 allowed literals, and its
    certified bound is below it."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 2, size=(120, 5)), columns=list("pqrst"))
    y = ((X["p"] & X["q"]) | (X["r"] & ~X["s"].astype(bool))).to_numpy().astype(int)
    y = np.where(rng.random(120) < 0.1, 1 - y, y)
    forbidden = ["r"]
    est = BooleanRuleSetClassifier(complexity=5, lambda0=0.0, lambda1=0.0, binarizer=None,
                                   max_degree=2, forbidden_features=forbidden, mip_gap=1e-9,
                                   tol=0.0, random_state=0).fit(X, y)
    allowed = [c for c in X.columns if c not in forbidden]
    A = np.hstack([X[allowed].to_numpy() == 1, X[allowed].to_numpy() == 0])
    L = A.shape[1]
    pool = [(i,) for i in range(L)] + [c for c in itertools.combinations(range(L), 2)]
    P = np.full(len(y), 1.0 / len(y))
    _, best = enumerate_master(A, y == 1, P, pool, 5.0)
    assert est.ip_objective_ == pytest.approx(best, abs=1e-12)
    assert est.gap_certified_ and est.lp_bound_ <= best + 1e-12
    assert all(lit.feature != "r" for rule in est.rules_ for lit in rule.conditions)


def test_the_dro_ensemble_takes_it_from_its_member():
    X, y = _planted(1, n=200)
    member = BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer=None,
                                      max_degree=2, forbidden_features=["c", "c_copy"])
    est = DRORuleEnsembleClassifier(complexity=12, n_estimators=2, member=member,
                                    random_state=0).fit(X, y)
    for m in est.members_:
        assert not {lit.feature for rule in m for lit in rule.conditions} & {"c", "c_copy"}


@pytest.mark.parametrize("bad", [["nope"], [9], [1.5], "c"])
def test_an_entry_naming_no_column_is_refused_before_any_work(bad):
    X, y = _planted(n=50)
    with pytest.raises(InputError, match="forbidden_features"):
        BooleanRuleSetClassifier(forbidden_features=bad).fit(X, y)


@pytest.mark.parametrize("kind", [np.array, pd.Index])
def test_an_array_or_index_of_columns_works_like_a_list(kind):
    """A numpy array or a pandas Index has no truth value: ``forbidden_features`` and
    ``required_features`` given as one (of names, of positions, or empty) fit the model
    the list gives."""
    X, y = _planted()
    kw = dict(binarizer=None, max_degree=2, random_state=0, mip_gap=1e-6, tol=0.0)
    for param, value in [("forbidden_features", ["c", "a"]), ("forbidden_features", [2, 0]),
                         ("required_features", ["d", "e"]), ("required_features", [3]),
                         ("forbidden_features", []), ("required_features", [])]:
        want = BooleanRuleSetClassifier(**{param: value}, **kw).fit(X, y)
        got = BooleanRuleSetClassifier(**{param: kind(value)}, **kw).fit(X, y)
        assert got.rules_ == want.rules_, (param, value)
        used = {lit.feature for rule in got.rules_ for lit in rule.conditions}
        names = [X.columns[v] if not isinstance(v, str) else v for v in value]
        assert (used.isdisjoint(names) if param == "forbidden_features"
                else set(names) <= used), (param, value)
