"""Exact pricing in memory that does not grow with the square of the literals: the pairs are
scored by blocks of the pair sums (``max_pair_bytes``), and the blocked pricer gives the
brute-force optimum and the results of the pricer that holds every pair at once."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from optirules.errors import InputError
from optirules.models import EnumerationPricer
from tests.helpers import prices
from tests.models.test_enumeration import brute_force


def literals(rng, n, f, layout):
    """``2 f`` literals: features and their complements in a binarizer's layouts, or
    ``2 f`` loose columns."""
    X = rng.random((n, f)) < rng.uniform(0.2, 0.8)
    if layout == "interleaved":  # x <= t, x > t in turn (FeatureBinarizer)
        return np.stack([X, ~X], axis=2).reshape(n, 2 * f)
    if layout == "halves":  # [X, ~X]
        return np.hstack([X, ~X])
    if layout == "shuffled":  # any order, and a column without a complement
        A = np.hstack([X, ~X])[:, rng.permutation(2 * f)]
        return np.hstack([A, rng.random((n, 1)) < 0.5])
    return rng.random((n, 2 * f)) < rng.uniform(0.2, 0.8)


@pytest.mark.parametrize("rows_per_block", [0, 3])
@pytest.mark.parametrize("layout", ["interleaved", "halves", "shuffled", "plain"])
@pytest.mark.parametrize("seed", range(3))
def test_blocked_pairs_give_the_brute_force_optimum(seed, layout, rows_per_block):
    """0 (a budget of 1 byte): one base column per block and the degree-3 partners scored
    one row at a time; 3: three base columns per block, the partners of a literal in one
    product when there are at most 7 of them, else by blocks of rows."""
    from tests.internals import _ROW_ARRAYS, complement_pairs

    rng = np.random.default_rng(seed)
    n = int(rng.integers(25, 70))
    A = literals(rng, n, int(rng.integers(16, 21)), layout)
    pairs = complement_pairs(A)  # the base columns: one of each complement pair
    n_base = A.shape[1] if pairs is None else pairs[0].size
    max_pair_bytes = max(1, 8 * _ROW_ARRAYS * n_base * rows_per_block)
    # every pair scored (the literal screen would skip some: tests/models/test_wide_tables.py)
    blocked = EnumerationPricer(A, max_pair_bytes=max_pair_bytes, block_rows=17,
                                screen=False)
    assert blocked._block_base == max(1, rows_per_block)
    assert 8 * n_base ** 2 > max_pair_bytes  # the pair sums are never held whole
    whole = EnumerationPricer(A)  # every pair sum in one matrix
    comp = [0.0, 0.002, 0.003, 0.004]
    for _step in range(3):  # one pricer, many prices (as in column generation)
        v = prices(rng, n)
        for degree in (1, 2, 3):
            clauses, r = brute_force(A, v, comp, degree)
            pool = {clauses[i] for i in rng.choice(len(clauses), 3, replace=False)}
            k = int(rng.integers(1, 8))
            cols, lower, complete = blocked.price(v, comp, degree, k=k, pool=pool)
            # the brute-force ranking: reduced cost (to 1e-13), degree, clause
            want = sorted((round(x, 13), len(c), c) for c, x in zip(clauses, r)
                          if x < -1e-9 and c not in pool)[:k]
            assert [c for c, _ in cols] == [c for *_, c in want]
            for c, x in cols:
                assert x == pytest.approx(r[clauses.index(c)], abs=1e-12)
            assert complete and lower == pytest.approx(min(0.0, r.min()), abs=1e-12)
            same = whole.price(v, comp, degree, k=k, pool=pool)
            assert [c for c, _ in same[0]] == [c for c, _ in cols]
            np.testing.assert_allclose([x for _, x in same[0]], [x for _, x in cols],
                                       atol=1e-13)
            # no proof asked for: a valid bound, exact reduced costs
            quick, qlower, _ = blocked.price(v, comp, degree, k=k, pool=pool,
                                             need_proof=False)
            assert qlower <= min(0.0, r.min()) + 1e-12
            for c, x in quick:
                assert c not in pool and x == pytest.approx(r[clauses.index(c)], abs=1e-12)
    assert blocked.stats["pair_blocks"] >= 5 * blocked.stats["calls"] // 3  # many blocks
    assert whole.stats["pair_blocks"] == 2 * whole.stats["calls"] // 3  # one per call
    # every pair scored once per call (two calls of the blocked pricer per one of the other)
    assert blocked.stats["pairs_scored"] == 2 * whole.stats["pairs_scored"]


def test_ties_are_broken_by_the_clause_across_blocks():
    """Equal columns give equal reduced costs: the k kept are the first clauses in order,
    whichever blocks they come from."""
    rng = np.random.default_rng(7)
    x = rng.random((40, 1)) < 0.5
    A = np.hstack([x, x, ~x, x, ~x, x, rng.random((40, 2)) < 0.5])
    v = np.where(x[:, 0], -0.05, 0.01)
    comp = [0.0, 0.001, 0.002, 0.003]
    clauses, r = brute_force(A, v, comp, 3)
    want = sorted((round(val, 13), len(c), c) for c, val in zip(clauses, r) if val < -1e-9)
    for max_pair_bytes in (1, 500, 1 << 28):
        for paired in (True, False):
            pricer = EnumerationPricer(A, max_pair_bytes=max_pair_bytes, paired=paired)
            for k in (1, 4, 9):
                cols, _, _ = pricer.price(v, comp, 3, k=k)
                assert [c for c, _ in cols] == [c for *_, c in want[:k]]


def test_deadline_during_the_pairs_gives_a_valid_bound():
    rng = np.random.default_rng(3)
    A = literals(rng, 50, 6, "interleaved")
    v = prices(rng, 50)
    comp = [0.0, 0.001, 0.002, 0.003]
    for degree in (2, 3):
        _, r = brute_force(A, v, comp, degree)
        pricer = EnumerationPricer(A, max_pair_bytes=1)
        cols, lower, complete = pricer.price(v, comp, degree, deadline=0.0)
        assert not complete and lower <= min(0.0, r.min()) + 1e-12
        assert pricer.stats["pair_blocks"] == 1  # stopped after the first block


@pytest.mark.parametrize("bad", [0, -5, 1.5, True, "256MB"])
def test_bad_max_pair_bytes_is_refused(bad):
    A = np.eye(4, dtype=bool)
    with pytest.raises(InputError, match="max_pair_bytes must be an integer >= 1"):
        EnumerationPricer(A, max_pair_bytes=bad)


def _traced_peak(func):
    tracemalloc.start()
    try:
        out = func()
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("degree", [2, 3])
def test_60_rows_3000_literals_price_within_a_bound_set_by_the_block_size(degree):
    """The literal matrix of a binarizer (each column with its complement): held whole, the
    pair sums would be a 1500 x 1500 float64 matrix per kind (18 MB; 72 MB over the literals);
    by blocks of at most 2 MB the largest allocation of a pricing call stays near that,
    whatever the number of literals (the rest is a few copies of the 60 x 3000 matrix)."""
    rng = np.random.default_rng(0)
    n, f = 60, 1500
    A = literals(rng, n, f, "interleaved")
    budget = 2 << 20
    blocked = EnumerationPricer(A, max_pair_bytes=budget)
    whole = EnumerationPricer(A)
    y = rng.random(n) < 0.5
    v = np.where(y, -rng.random(n) / n, 1.0 / n)
    comp = [0.0, 0.02, 0.03, 0.04]
    got, peak = _traced_peak(lambda: blocked.price(v, comp, degree, k=10))
    ref, whole_peak = _traced_peak(lambda: whole.price(v, comp, degree, k=10))
    assert [c for c, _ in got[0]] == [c for c, _ in ref[0]] and got[0]
    np.testing.assert_allclose([x for _, x in got[0]], [x for _, x in ref[0]], atol=1e-13)
    assert got[1] == pytest.approx(ref[1], abs=1e-13) and got[2] and ref[2]
    if degree == 3:  # triples scored, and a triple is the best clause
        assert blocked.stats["triples_scored"] > 0 and len(got[0][0][0]) == 3
    assert 0 < blocked.stats["pair_block_bytes"] <= budget
    working = 4 * 8 * A.size  # float64 copies of the literal matrix (rows, base columns)
    assert peak <= 2 * budget + working
    assert whole_peak > 8 * f * f  # the held pair sums: what the blocks avoid
