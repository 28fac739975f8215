"""Sums over the rows taken by blocks of rows (no float64 copy of the literal matrix): the
blocked kernels of beam search, the reduced costs, the masters' sums and exact pricing give
the numbers of the straightforward float64 products, counts always exactly, weighted sums
exactly where the exact sums are floats (and within the rounding of a sum otherwise), and
the same search results."""

from __future__ import annotations

import numpy as np
import pytest

from optirules.models import (
    EnumerationPricer,
    PricingDuals,
    RuleSetProblem,
    beam_search_pricing,
    reduced_costs,
)
from tests.internals import (
    clause_coverage,
    extension_sums,
    level_one_sums,
    priced_coverage,
    row_block_sum,
    row_blocks_module,
    row_slices,
    unique_codes,
)

#: row blocks of 7 rows for an operand of one float64 per row (tiny, so that every test
#: crosses many block boundaries)
TINY = 56


def weights(rng, n, kind):
    """Row weights: ``uniform`` (1/n), ``awkward`` (magnitudes from 1e-300 to 1e3 with a
    fifth of them 0), ``dyadic`` (integers below 2^10 times powers of two from 2^-20 to 1:
    multiples of 2^-20 below 2^10, so that every sum of a few thousand of them, or of their
    products by multiples of 2^-6 below 1, is a float whatever its order) and ``huge``
    (1e300 beside ones)."""
    if kind == "uniform":
        return np.full(n, 1.0 / n)
    if kind == "awkward":
        w = rng.random(n) * 10.0 ** rng.integers(-300, 4, n)
        w[rng.random(n) < 0.2] = 0.0
        return w
    if kind == "dyadic":
        return rng.integers(0, 2 ** 10, n) * 2.0 ** rng.integers(-20, 1, n)
    w = np.ones(n)
    w[rng.random(n) < 0.1] = 1e300
    return w


def signed(rng, w):
    return np.where(rng.random(w.size) < 0.4, -w, w)


def bound(v, B):
    """The rounding of any order of summing ``v`` over the rows of each column of ``B``."""
    return 4 * B.shape[0] * np.finfo(float).eps * (np.abs(v) @ B.astype(float))


@pytest.fixture
def tiny_blocks(monkeypatch):
    monkeypatch.setattr(row_blocks_module, "ROW_BLOCK_BYTES", TINY)


def test_row_slices_cover_every_row_once():
    for n, width in ((0, 3), (1, 1), (100, 1), (101, 7), (5, 10 ** 9)):
        s = row_slices(n, width, TINY)
        rows = np.concatenate([np.arange(n)[x] for x in s]) if s else np.zeros(0)
        assert np.array_equal(rows, np.arange(n))
        assert all(x.stop - x.start <= max(1, TINY // (8 * width)) for x in s)


@pytest.mark.parametrize("kind", ["uniform", "awkward", "dyadic", "huge"])
@pytest.mark.parametrize("seed", range(3))
def test_beam_kernels_match_the_float64_products(seed, kind, tiny_blocks):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(200, 400))
    A = rng.random((n, 9)) < rng.uniform(0.1, 0.9, 9)
    cov = rng.random((4, n)) < 0.5
    v = signed(rng, weights(rng, n, kind))
    Af = A.astype(float)
    direct = v @ Af
    ext, counts = extension_sums(A, cov, v)
    # counts: integers below 2^53 at every step, exact whatever the blocks
    assert np.array_equal(counts, cov.astype(float) @ Af)
    eps = 4 * n * np.finfo(float).eps
    for got, want, err in ((level_one_sums(A, v), direct, bound(v, A)),
                           (ext, (cov * v) @ Af, eps * (np.abs(cov * v) @ Af))):
        if kind == "dyadic":  # exact sums: the same floats
            assert np.array_equal(got, want)
        else:
            assert np.all(np.abs(got - want) <= err)


def test_one_block_is_the_unblocked_product():
    """Below one block the kernels are the very products of before (bit for bit)."""
    rng = np.random.default_rng(5)
    n = 3000
    A = rng.random((n, 12)) < 0.4
    cov = rng.random((3, n)) < 0.5
    v = signed(rng, weights(rng, n, "awkward"))
    Af = A.astype(float)
    assert np.array_equal(level_one_sums(A, v), v @ Af)
    ext, counts = extension_sums(A, cov, v)
    assert np.array_equal(ext, (cov * v) @ Af)
    assert np.array_equal(counts, cov.astype(float) @ Af)
    C = np.asfortranarray(rng.random((n, 6)) < 0.3)
    assert np.array_equal(priced_coverage(v, C), v @ C)


@pytest.mark.parametrize("kind", ["awkward", "dyadic", "huge"])
def test_priced_coverage_and_reduced_costs(kind, tiny_blocks):
    rng = np.random.default_rng(11)
    n = 500
    A = rng.random((n, 10)) < 0.5
    y = rng.random(n) < 0.4
    P = weights(rng, n, kind)
    P = P / P.sum() if kind == "awkward" else P
    mu = np.round(rng.random(int(y.sum())) * 64) / 64  # multiples of 2^-6
    clauses = [(0,), (1, 2), (3, 4, 5), (6, 9)]
    cov = clause_coverage(A, clauses)
    v = np.where(y, 0.0, P)
    v[y] = -mu * P[y]
    got = priced_coverage(v, cov)
    if kind == "dyadic":
        assert np.array_equal(got, v @ cov)
    else:
        assert np.all(np.abs(got - v @ cov) <= bound(v, cov))
    r = reduced_costs(A, y, clauses, PricingDuals(mu, 0.0, 0.01, 0.002), sample_weight=P)
    want = 0.01 + 0.002 * np.array([len(c) for c in clauses]) + v @ cov.astype(float)
    assert np.all(np.abs(r - want) <= bound(v, cov) + 4 * np.finfo(float).eps * np.abs(want))


@pytest.mark.parametrize("seed", range(4))
def test_beam_search_is_the_same_with_blocks(seed, monkeypatch):
    """Beam search by blocks of 7 rows returns the clauses and reduced costs of one block,
    with weights whose sums are floats (so that the reduced costs are the same floats) and
    with uniform weights."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(300, 600))
    X = rng.random((n, 8)) < 0.5
    A = np.hstack([X, ~X])
    y = ((X[:, 0] & X[:, 1]) | (X[:, 2] & ~X[:, 3])) ^ (rng.random(n) < 0.05)
    for kind in ("dyadic", "uniform"):
        P = weights(rng, n, kind)
        mu = rng.random(int(y.sum()))
        if kind == "dyadic":
            mu = np.round(mu * 64) / 64
        args = (RuleSetProblem(A, y, P, max_degree=3),
                PricingDuals(mu, 0.0, 1e-3 if kind == "uniform" else 2.0, 1e-3))
        kw = dict(beam_width=5, k=8)
        one = beam_search_pricing(*args, **kw)
        monkeypatch.setattr(row_blocks_module, "ROW_BLOCK_BYTES", TINY)
        blocked = beam_search_pricing(*args, **kw)
        monkeypatch.undo()
        assert [c for c, _ in blocked] == [c for c, _ in one]
        if kind == "dyadic":
            assert [r for _, r in blocked] == [r for _, r in one]
        else:
            np.testing.assert_allclose([r for _, r in blocked], [r for _, r in one],
                                       rtol=0, atol=1e-15)


@pytest.mark.parametrize("kind", ["awkward", "uniform", "huge"])
@pytest.mark.parametrize("seed", range(3))
def test_pricer_on_boolean_blocks_is_the_pricer_on_float_blocks(seed, kind):
    """Exact pricing gathering from the boolean matrix (the default, no float64 copy) gives
    the very numbers of pricing from a float64 copy: the same clauses, reduced costs and
    bound, float for float, over many row blocks, zero prices and awkward weights."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(400, 900))
    X = rng.random((n, 7)) < rng.uniform(0.2, 0.8, 7)
    A = np.hstack([X, ~X, rng.random((n, 2)) < 0.5])
    comp = [0.0, 1e-4, 2e-4, 3e-4]
    boolean = EnumerationPricer(A, block_rows=61)
    floats = EnumerationPricer(A, block_rows=61, float_cache_bytes=1 << 30)
    assert boolean._blocks.blocks[0].dtype == bool
    assert floats._blocks.blocks[0].dtype == np.float64
    for _ in range(3):
        v = signed(rng, weights(rng, n, kind)) * (rng.random(n) < 0.8)
        if kind == "huge":
            v /= 1e300
        for degree in (1, 2, 3):
            for proof in (True, False):
                a = boolean.price(v, comp, degree, k=6, need_proof=proof)
                b = floats.price(v, comp, degree, k=6, need_proof=proof)
                assert a == b


def test_unique_codes_is_numpy_unique_by_rows():
    rng = np.random.default_rng(2)
    for shape, top in (((1000, 4), 3), ((5000, 6), 1), ((7, 1), 0), ((0, 3), 2),
                       ((50, 40), 7)):  # the last: too many digits, numpy's own unique
        codes = rng.integers(0, top + 1, size=shape)
        keys, inverse = unique_codes(codes)
        want_keys, want_inverse = np.unique(codes, axis=0, return_inverse=True)
        assert np.array_equal(keys, want_keys)
        assert np.array_equal(inverse, want_inverse.reshape(-1))


def test_row_block_sum_adds_tuples_in_block_order():
    x = np.arange(20.0)
    total = row_block_sum(lambda s: (x[s].sum(), np.array([x[s].size], float)), 20, 1, 40)
    assert total[0] == x.sum() and total[1][0] == 20


def test_dual_master_by_blocks_is_the_master_in_one_block(monkeypatch):
    """The dual master's column costs and each label-1 row's covered weight by blocks of
    rows: the LP optimum, duals and xi of one block, within the rounding of the costs."""
    from optirules.models import DualHighsRuleMaster

    rng = np.random.default_rng(4)
    n = 700
    X = rng.random((n, 6)) < 0.5
    A = np.hstack([X, ~X])
    y = ((X[:, 0] & X[:, 1]) | X[:, 2]) ^ (rng.random(n) < 0.1)
    clauses = [(0,), (1, 2), (2,), (0, 1), (3, 10), (4,)]

    def fit():
        m = DualHighsRuleMaster(A, y.astype(int), clauses, lambda0=1e-3, lambda1=1e-3)
        return m.solve(), m.cover_duals_, m.xi_

    one = fit()
    monkeypatch.setattr(row_blocks_module, "ROW_BLOCK_BYTES", TINY)
    blocked = fit()
    assert blocked[0] == pytest.approx(one[0], abs=1e-15)
    np.testing.assert_allclose(blocked[1], one[1], rtol=0, atol=1e-12)
    np.testing.assert_allclose(blocked[2], one[2], rtol=0, atol=1e-15)


@pytest.mark.parametrize("n", [1, 7, 8, 9, 63, 1001])
def test_complement_pairs_packed_down_the_rows(n):
    """The complement pairs from bits packed down the rows (no transposed copy of the
    matrix) are those of the packed transposed columns, the padding bits included."""
    from tests.internals import complement_pairs

    rng = np.random.default_rng(n)
    X = rng.random((n, 5)) < 0.5
    A = np.hstack([X, ~X, rng.random((n, 2)) < 0.5, np.ones((n, 1), bool),
                   np.zeros((n, 1), bool)])[:, rng.permutation(14)]
    pairs = complement_pairs(A)
    base, comp, q = pairs
    assert np.array_equal(A[:, comp], ~A[:, base[q]])
    assert len(comp) >= 5 + 1  # every feature, and the all-ones with the all-zeros column
    cols = np.packbits(np.ascontiguousarray(A.T), axis=1)
    flip = np.packbits(np.ascontiguousarray(~A.T), axis=1)
    for t, c in enumerate(comp):
        assert cols[c].tobytes() == flip[base[q[t]]].tobytes()
