"""Every side constraint of the rule set holds on every path a fit can take: both forms and
both described classes, the plain fit, the cross-validated search, one-vs-rest over three
classes, the DRO ensemble's members and a model read back from JSON.

The rule set is one problem (:class:`optirules.models.RuleSetProblem`) built once by the
learner; a constraint dropped on one path (as ``required_features`` once was when the
master learned the other class) shows here as a fitted rule set that breaks it."""

import numpy as np
import pandas as pd
import pytest

from optirules.learners import (
    BooleanRuleSetClassifier,
    BooleanRuleSetCV,
    DRORuleEnsembleClassifier,
)

#: every constraint at once: a forbidden column that alone would explain the labels, a
#: required one that is not needed, a column that costs two literals, and both limits
CONSTRAINTS = dict(forbidden_features=["c"], required_features=["d"],
                   feature_costs={"b": 2.0}, max_rules=2, max_literals=5)
COSTS = CONSTRAINTS["feature_costs"]


def _table(n_classes=2, n=240, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.random((n, 5)), columns=list("abcde"))
    y = (((X["a"] > 0.5) & (X["b"] < 0.4)) | (X["c"] > 0.7)).to_numpy().astype(int)
    if n_classes == 3:
        y = np.where(X["e"] > 0.75, 2, y)
    return X, np.where(rng.random(n) < 0.05, (y + 1) % n_classes, y)


def _check(rule_set):
    """The constraints hold in ``rule_set`` (a DNF or CNF :class:`RuleSet`; a CNF clause
    negates a rule of the other class and carries its ``is missing`` case, which the table
    has none of: the rule's literals are the clause's others)."""
    rules = list(rule_set.rules)
    used = [lit.feature for r in rules for lit in r.conditions if lit.op != "is missing"]
    assert len(rules) <= CONSTRAINTS["max_rules"], rule_set
    assert sum(COSTS.get(f, 1.0) for f in used) <= CONSTRAINTS["max_literals"] + 1e-9, rule_set
    assert "c" not in used, rule_set
    # the required column is read by a rule that can hold: no two literals of one
    # column in one rule contradict (x <= t AND x > u with u >= t); a clause always can
    assert any("d" in {lit.feature for lit in r.conditions} for r in rules), rule_set
    for r in rules if rule_set.form == "dnf" else ():
        lo = max([lit.value for lit in r.conditions if lit.op == ">" and lit.feature == "d"],
                 default=-np.inf)
        hi = min([lit.value for lit in r.conditions if lit.op == "<=" and lit.feature == "d"],
                 default=np.inf)
        assert lo < hi, r


def _rule_sets(est):
    """The fitted rule sets of ``est``: its own, each class's (one-vs-rest), its search's
    best, or its members (DRO)."""
    if isinstance(est, BooleanRuleSetCV):
        return _rule_sets(est.best_estimator_)
    if isinstance(est, DRORuleEnsembleClassifier):
        return list(est.members_)
    if len(est.classes_) > 2:
        return [e.rules_ for e in est.estimators_]
    return [est.rules_]


@pytest.mark.parametrize("form", ["dnf", "cnf"])
@pytest.mark.parametrize("target", [0, 1])
@pytest.mark.parametrize("path", ["fit", "cv", "one_vs_rest", "json"])
def test_every_constraint_holds_on_every_form_target_and_path(form, target, path):
    X, y = _table(n_classes=3 if path == "one_vs_rest" else 2)
    base = BooleanRuleSetClassifier(max_degree=2, form=form, random_state=0,
                                    target_class=None if path == "one_vs_rest" else target,
                                    **CONSTRAINTS)
    if path == "cv":
        est = BooleanRuleSetCV(estimator=base, cv=2, penalties=(0.5, 1.0)).fit(X, y)
    else:
        est = base.fit(X, y)
    if path == "json":
        est = BooleanRuleSetClassifier.from_json(est.to_json())
        assert est.get_params()["required_features"] == ["d"]
    rule_sets = _rule_sets(est)
    assert rule_sets
    for rs in rule_sets:
        assert rs.form == form
        _check(rs)


def test_every_constraint_holds_in_every_dro_member():
    X, y = _table()
    member = BooleanRuleSetClassifier(max_degree=2, **CONSTRAINTS)
    est = DRORuleEnsembleClassifier(member=member, n_estimators=3, random_state=0).fit(X, y)
    assert len(est.members_) >= 2
    for rs in est.members_:
        _check(rs)
