"""Typed rule values: Rule, RuleSet (evaluation, text, JSON)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from optirules.data import Literal
from optirules.errors import InputError
from tests.internals import Rule, RuleSet


@pytest.fixture
def frame():
    return pd.DataFrame({
        "age": [40.0, 60.0, None, 55.0, 53.0],
        "sex": ["male", "female", "male", None, "male"],
        "chol": [180, 250, 190, 200, 210],
    })


def test_rule_is_the_conjunction_of_its_conditions(frame):
    r = Rule((Literal("age", ">", 52.5), Literal("sex", "==", "male")))
    # row 2 has a missing age: no comparison holds on a missing value
    assert r.evaluate(frame).tolist() == [False, False, False, False, True]
    assert str(r) == "age > 52.5 AND sex == male"
    assert r.complexity == 3 and len(r) == 2
    assert Rule().evaluate(frame).all() and str(Rule()) == "TRUE"


def test_ruleset_is_the_disjunction_and_counts_seed_cost(frame):
    rs = RuleSet((Rule((Literal("age", ">", 52.5), Literal("sex", "==", "male"))),
                  Rule((Literal("chol", "<=", 185.0),)),
                  Rule((Literal("sex", "is missing"),))),
                 positive_class="sick", negative_class="healthy")
    by_hand = np.array([[False, True, False], [False, False, False], [False, False, False],
                        [False, False, True], [True, False, False]])
    np.testing.assert_array_equal(rs.fired(frame), by_hand)
    np.testing.assert_array_equal(rs.evaluate(frame), by_hand.any(axis=1))
    assert rs.predict(frame).tolist() == ["sick", "healthy", "healthy", "sick", "sick"]
    # c(h) = M + sum_m C_m (the DRO paper §2): 3 rules, 4 literals
    assert (rs.n_rules, rs.n_literals, rs.complexity) == (3, 4, 7)
    assert str(rs) == "(age > 52.5 AND sex == male) OR (chol <= 185) OR (sex is missing)"
    text = rs.to_string(multiline=True)
    assert text.splitlines()[0] == "predict 'sick' if any rule holds, else 'healthy':"
    assert "rule 3: sex is missing" in text


def test_empty_ruleset_never_fires(frame):
    rs = RuleSet()
    assert not rs.evaluate(frame).any()
    assert rs.fired(frame).shape == (5, 0)
    assert str(rs) == "FALSE" and rs.complexity == 0


def test_arrays_are_read_by_column_position():
    X = np.array([[0, 1], [1, 1], [1, 0]])
    rs = RuleSet((Rule((Literal("x0", "==", 1, 0), Literal("x1", "==", 1, 1))),))
    assert rs.evaluate(X).tolist() == [False, True, False]
    assert rs.to_string(["left", "right"]) == "(left == 1 AND right == 1)"
    with pytest.raises(InputError, match="2-D"):
        rs.evaluate(np.array([1, 0]))


def test_json_round_trip_is_exact(frame):
    rs = RuleSet((Rule((Literal("age", "<=", 52.5, 0), Literal("sex", "!=", "female", 1))),
                  Rule((Literal("chol", ">", 195.0, 2),))), positive_class=1,
                 negative_class=0)
    back = RuleSet.from_json(rs.to_json())
    assert back == rs
    assert json.loads(rs.to_json())["rules"][0]["conditions"][0] == {
        "feature": "age", "op": "<=", "value": 52.5, "column": 0}
    np.testing.assert_array_equal(back.evaluate(frame), rs.evaluate(frame))
    assert RuleSet.from_dict(rs.to_dict()) == rs


def test_from_clauses_maps_literal_indices():
    lits = [Literal("a", ">", 1.0, 0), Literal("a", "<=", 1.0, 0), Literal("b", "==", "x", 1)]
    rs = RuleSet.from_clauses([(0, 2), (1,)], lits)
    assert str(rs) == "(a > 1 AND b == x) OR (a <= 1)"
    with pytest.raises(InputError, match="beyond"):
        RuleSet.from_clauses([(5,)], lits)


def test_bad_inputs_are_rejected():
    with pytest.raises(InputError):
        Rule(("age > 3",))
    with pytest.raises(InputError):
        RuleSet(("not a rule",))
    with pytest.raises(InputError, match="JSON"):
        RuleSet.from_json("{not json")
    with pytest.raises(InputError, match="rules"):
        RuleSet.from_dict({"x": 1})
