"""Weak learners against brute force: stumps, literals, sparse parities, CART."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeClassifier

from optirules.errors import InputError
from optirules.weak import (
    CartLearner,
    Constant,
    LiteralHypothesis,
    LiteralLearner,
    Stump,
    StumpLearner,
    TreeHypothesis,
    hypothesis_from_dict,
)
from tests.internals import Parity, ParityLearner, best_parity, parity_edge


def _problem(seed: int, m: int, n: int, density: float = 0.5):
    rng = np.random.default_rng(seed)
    X = (rng.random((m, n)) < density).astype(np.uint8)
    y = rng.choice(np.array([-1, 1]), size=m)
    w = rng.random(m)
    return X, y, w / w.sum()


def _edge(h, X, y, w) -> float:
    return float(np.dot(w * y, h.predict(X)))


# ---------------------------------------------------------------- sparse parities
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), m=st.integers(3, 40), n=st.integers(3, 9),
       density=st.floats(0.1, 0.9))
def test_parity_search_equals_brute_force(seed, m, n, density):
    X, y, w = _problem(seed, m, n, density)
    u = w * y
    for d in (1, 2, 3):
        # brute force: every subset of size <= d, and the negation (|edge|)
        brute = max(abs(parity_edge(X, u, J)) for k in range(d + 1)
                    for J in itertools.combinations(range(n), k))
        J, edge = best_parity(X, u, d)
        assert len(J) <= d
        assert abs(edge) == pytest.approx(brute, abs=1e-6)
        assert edge == pytest.approx(parity_edge(X, u, J), abs=1e-12)
        h = ParityLearner(max_degree=d).fit(X, y, w)
        assert _edge(h, X, y, w) == pytest.approx(brute, abs=1e-6)


def test_degree3_search_chunks_and_precision_agree():
    X, y, w = _problem(3, 120, 30)
    u = w * y
    results = {best_parity(X, u, 3, chunk_size=c, dtype=dt)
               for c in (1, 7, 64, 5000) for dt in ("float32", "float64")}
    assert len({J for J, _ in results}) == 1
    brute = max((abs(parity_edge(X, u, J)), J) for J in itertools.combinations(range(30), 3))
    assert results.pop()[0] == brute[1]


def test_parity_finds_planted_xor():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(400, 25), dtype=np.uint8)
    for planted in [(2, 11), (1, 7, 19)]:
        y = np.where(np.bitwise_xor.reduce(X[:, list(planted)], axis=1) == 1, -1, 1)
        h = ParityLearner(max_degree=len(planted)).fit(X, y)
        assert isinstance(h, Parity) and h.features == planted and not h.negated
        assert _edge(h, X, y, np.full(400, 1 / 400)) == pytest.approx(1.0)
    # the negation is found when the labels are flipped
    h = ParityLearner(max_degree=2).fit(X, -np.where(X[:, 3] ^ X[:, 4], -1, 1))
    assert h.features == (3, 4) and h.negated


def test_beam_search_is_exhaustive_with_a_wide_beam():
    X, y, w = _problem(11, 60, 7)
    u = w * y
    for d in (3, 4):
        brute = max(abs(parity_edge(X, u, J)) for k in range(d + 1)
                    for J in itertools.combinations(range(7), k))
        J, edge = best_parity(X, u, d, search="beam", beam_width=100)
        assert abs(edge) == pytest.approx(brute, abs=1e-12)
        # a narrow beam is a heuristic: never better than the optimum, never worse than d=2
        _, e_narrow = best_parity(X, u, d, search="beam", beam_width=2)
        _, e2 = best_parity(X, u, 2)
        assert abs(e2) - 1e-12 <= abs(e_narrow) <= brute + 1e-12


def test_parity_semantics_and_round_trip():
    X = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]], dtype=np.uint8)
    h = Parity([0, 1, 2])
    assert h.predict(X).tolist() == [1, -1, 1, -1]          # (-1)^(x0+x1+x2)
    assert Parity([2, 0], negated=True).predict(X).tolist() == [-1, 1, 1, -1]
    assert str(Parity([0, 2], feature_names=["a", "b", "c"])) == "+1 if a + c is even else -1"
    back = hypothesis_from_dict(json.loads(json.dumps(h.to_dict())))
    assert back == h and np.array_equal(back.predict(X), h.predict(X))


def test_parity_errors():
    with pytest.raises(InputError, match="binary"):
        ParityLearner(max_degree=2).fit(np.array([[0.0, 2.0], [1.0, 0.0]]), np.array([1, -1]))
    with pytest.raises(InputError, match="beam"):
        ParityLearner(max_degree=4, search="exhaustive").fit(np.eye(5), np.ones(5))
    with pytest.raises(InputError, match="-1/\\+1"):
        ParityLearner().fit(np.eye(3), np.array([0, 1, 1]))


# ---------------------------------------------------------------- stumps
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), m=st.integers(1, 30), n=st.integers(1, 4),
       levels=st.integers(2, 6))
def test_stump_equals_brute_force(seed, m, n, levels):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, levels, size=(m, n)).astype(float)
    y = rng.choice(np.array([-1, 1]), size=m)
    w = rng.random(m) + 1e-3
    w /= w.sum()
    brute = abs(float(np.dot(w, y)))               # the constants
    for j in range(n):
        for t in np.unique(X[:, j]):
            for a, b in itertools.product((-1, 1), repeat=2):
                brute = max(brute, float(np.dot(w * y, np.where(X[:, j] <= t, a, b))))
    h = StumpLearner().fit(X, y, w)
    assert _edge(h, X, y, w) == pytest.approx(brute, abs=1e-12)


def test_gini_stump_matches_sklearn_depth_one_tree():
    for seed in range(15):
        X, y, w = _problem(seed, 80, 12, density=0.4)
        h = StumpLearner(criterion="gini").fit(X, y, w)
        tree = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y, sample_weight=w)
        assert np.array_equal(h.predict(X), tree.predict(X))


def test_stump_numeric_threshold_and_text():
    X = np.array([[1.0], [2.0], [3.0], [10.0]])
    h = StumpLearner().fit(X, np.array([-1, -1, 1, 1]))
    assert isinstance(h, Stump) and h.threshold == 2.5
    assert str(StumpLearner().fit(X, np.array([-1, -1, 1, 1]), feature_names=["age"])) == \
        "-1 if age <= 2.5 else +1"
    assert hypothesis_from_dict(h.to_dict()) == h
    # constant features: the weighted-majority constant
    h = StumpLearner().fit(np.ones((3, 2)), np.array([1, 1, -1]))
    assert isinstance(h, Constant) and h.sign == 1


def test_stump_errors():
    with pytest.raises(InputError, match="NaN"):
        StumpLearner().fit(np.array([[np.nan], [1.0]]), np.array([1, -1]))
    with pytest.raises(InputError, match="criterion"):
        StumpLearner(criterion="entropy").fit(np.eye(2), np.array([1, -1]))


# ---------------------------------------------------------------- literals
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), m=st.integers(1, 30), n=st.integers(1, 8))
def test_literal_equals_brute_force(seed, m, n):
    X, y, w = _problem(seed, m, n)
    hyps = [Constant(1), Constant(-1)] + [LiteralHypothesis(j, neg) for j in range(n)
                                          for neg in (False, True)]
    brute = max(_edge(h, X, y, w) for h in hyps)
    h = LiteralLearner().fit(X, y, w)
    assert _edge(h, X, y, w) == pytest.approx(brute, abs=1e-12)


def test_literal_semantics_and_errors():
    X = np.array([[0, 1], [1, 1], [1, 0]], dtype=np.uint8)
    assert LiteralHypothesis(0).predict(X).tolist() == [-1, 1, 1]
    assert LiteralHypothesis(1, negated=True).predict(X).tolist() == [-1, -1, 1]
    assert str(LiteralHypothesis(1, negated=True, feature_names=["a", "b"])) == "-b"
    h = LiteralLearner().fit(X, np.array([1, 1, -1]))
    assert h == LiteralHypothesis(1) and hypothesis_from_dict(h.to_dict()) == h
    with pytest.raises(InputError, match="binary features"):
        LiteralLearner().fit(np.array([[0.5], [1.0]]), np.array([1, -1]))


# ---------------------------------------------------------------- CART
def test_cart_equals_sklearn_and_round_trips():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 6))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=300) > 0, 1, -1)
    w = rng.random(300)
    h = CartLearner(size=16, random_state=3).fit(X, y, w)
    ref = DecisionTreeClassifier(max_leaf_nodes=16, random_state=3).fit(X, y, w / w.sum())
    Xt = rng.normal(size=(500, 6))
    assert isinstance(h, TreeHypothesis) and h.n_leaves == 16
    assert np.array_equal(h.predict(Xt), ref.predict(Xt))
    back = hypothesis_from_dict(json.loads(json.dumps(h.to_dict())))
    assert np.array_equal(back.predict(Xt), h.predict(Xt))
    assert "if x[" in h.to_text() and str(h).startswith("tree(16 leaves")


@pytest.mark.parametrize("count, leaves, nodes", [("leaves", 16, 31), ("nodes", 8, 15)])
def test_cart_size_readings_count_leaves_or_nodes(count, leaves, nodes):
    # Reyzin's "CART trees pruned to 16 nodes": 16 leaves (31 nodes) or 16 nodes, i.e. a
    # binary tree of 2L - 1 <= 16 nodes: L = 8 leaves, 15 nodes.  A noisy target on
    # 10 numeric features needs far more leaves, so the bound is reached exactly.
    rng = np.random.default_rng(7)
    X = rng.normal(size=(400, 10))
    y = np.where(np.sin(3 * X[:, 0]) + X[:, 1] * X[:, 2] + 0.5 * rng.normal(size=400) > 0,
                 1, -1)
    learner = CartLearner(size=16, count=count, random_state=0)
    assert learner.max_leaf_nodes == leaves
    h = learner.fit(X, y)
    internal = int(np.sum(h.children_left >= 0))
    assert (h.n_leaves, h.n_nodes, internal) == (leaves, nodes, leaves - 1)
    ref = DecisionTreeClassifier(max_leaf_nodes=leaves, random_state=0).fit(X, y)
    assert ref.tree_.node_count == nodes
    np.testing.assert_array_equal(h.predict(X), ref.predict(X))
    # an odd node bound: 15 nodes is the same tree as 16 (8 leaves); 17 allows 9
    assert CartLearner(size=15, count="nodes").max_leaf_nodes == 8
    assert CartLearner(size=17, count="nodes").max_leaf_nodes == 9


def test_cart_size_reading_errors():
    X = np.array([[0.0], [1.0], [2.0]])
    y = np.array([1, -1, 1])
    for kwargs, match in [({"count": "depth"}, "count"), ({"size": 1}, "size"),
                          ({"size": 2, "count": "nodes"}, "size"), ({"size": 4.0}, "size"),
                          ({"size": True}, "size")]:
        with pytest.raises(InputError, match=match):
            CartLearner(**kwargs).fit(X, y)
