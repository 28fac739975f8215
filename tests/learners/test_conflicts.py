"""Conflicting literals on the learners: the defect that motivated them (a required feature
met by ``x7 == 1 AND x7 == 0``) and the pools of default fits, which hold no clause of two
conflicting literals."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from optirules.data import literals_conflict
from optirules.learners import BooleanRuleSetClassifier, DRORuleEnsembleClassifier


def _planted(n=2000, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 2, size=(n, 20)), columns=[f"x{j}" for j in range(20)])
    y = ((X["x1"] | X["x2"]) & (X["x3"] | (1 - X["x4"]))).to_numpy()
    return X, y


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_a_required_feature_is_met_by_a_clause_that_can_fire(form):
    """The issue's case: 2,000 rows of 20 random bits, y = (x1 | x2) & (x3 | ~x4),
    x7 required.  The fit met it with ``x7 == 1 AND x7 == 0``; now every rule of the model
    and of its pool holds at most one literal per column, and a rule tests x7."""
    X, y = _planted()
    est = BooleanRuleSetClassifier(required_features=["x7"], form=form,
                                   random_state=0).fit(X, y)
    rules = est.rules_.rules
    assert any("x7" in {c.feature for c in r.conditions} for r in rules)
    for clause in est.pool_:
        cols = [est.literals_[j].feature for j in clause]
        assert len(cols) == len(set(cols)), [str(est.literals_[j]) for j in clause]


def test_no_default_fit_pools_a_clause_of_two_thresholds_of_one_direction():
    """A default fit on a numeric table: no pool clause holds two literals that conflict
    (``age > 30 AND age > 40``), in the rule set or in the DRO ensemble's members."""
    from optirules.data import load_dataset

    X, y = load_dataset("heart_cleveland")
    for est in (BooleanRuleSetClassifier(random_state=0).fit(X, y),
                DRORuleEnsembleClassifier(n_estimators=3, random_state=0).fit(X, y)):
        lits = est.literals_
        pools = [est.pool_] if hasattr(est, "pool_") else []
        pools += [[tuple(c) for c in m] for m in getattr(est, "member_clauses_", [])]
        assert pools and any(pools)
        for pool in pools:
            for clause in pool:
                for a, b in itertools.combinations(clause, 2):
                    assert not literals_conflict(lits[a], lits[b]), (str(lits[a]), str(lits[b]))
