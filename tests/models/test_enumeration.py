"""EnumerationPricer: a pricer prepared once and reused over many row prices (and split
into row blocks) gives the brute-force optimum and the plain one-call results."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from optirules.errors import InputError
from optirules.models import EnumerationPricer, enumerate_pricing
from tests.helpers import prices


def brute_force(A, v, comp, degree):
    clauses = [c for d in range(1, degree + 1)
               for c in itertools.combinations(range(A.shape[1]), d)]
    r = np.array([comp[len(c)] + v[np.logical_and.reduce(A[:, list(c)], axis=1)].sum()
                  for c in clauses])
    return clauses, r


def instance(seed, n=None, L=None):
    rng = np.random.default_rng(seed)
    n = n or int(rng.integers(20, 80))
    L = L or int(rng.integers(4, 11))
    A = rng.random((n, L)) < rng.uniform(0.3, 0.8)
    return rng, A


@pytest.mark.parametrize("block_rows", [None, 7])
@pytest.mark.parametrize("seed", range(6))
def test_prepared_pricer_reused_equals_brute_force_and_the_plain_call(seed, block_rows):
    rng, A = instance(seed)
    pricer = EnumerationPricer(A, block_rows=block_rows)
    comp = [0.0, 0.002, 0.003, 0.004]
    for _step in range(4):  # one pricer, many duals (as in a column-generation run)
        v = prices(rng, A.shape[0])
        clauses, r = brute_force(A, v, comp, 3)
        pool = {clauses[i] for i in rng.choice(len(clauses), 3, replace=False)}
        k = int(rng.integers(1, 8))
        cols, lower, complete = pricer.price(v, comp, 3, k=k, pool=pool)
        assert complete
        assert lower == pytest.approx(min(0.0, r.min()), abs=1e-12)
        want = sorted(x for c, x in zip(clauses, r) if x < -1e-9 and c not in pool)[:k]
        np.testing.assert_allclose([x for _, x in cols], want, atol=1e-12)
        for c, x in cols:
            assert c not in pool and x == pytest.approx(r[clauses.index(c)], abs=1e-12)
        plain = enumerate_pricing(A, v, comp, 3, k=k, pool=pool)
        assert [c for c, _ in plain[0]] == [c for c, _ in cols]
        np.testing.assert_allclose([x for _, x in plain[0]], [x for _, x in cols], atol=1e-12)
        assert plain[1] == pytest.approx(lower, abs=1e-12)


def test_blocks_split_the_rows_and_the_work_is_counted():
    rng, A = instance(11, n=200, L=9)
    pricer = EnumerationPricer(A, block_rows=64)
    assert pricer.n_blocks == 4
    v = np.abs(prices(rng, 200))  # no negative price: no clause can be negative
    cols, lower, complete = pricer.price(v, [0.0, 0.001, 0.002, 0.003], 3)
    assert cols == [] and lower == 0.0 and complete
    s = pricer.stats
    assert s["calls"] == 1 and s["rows_priced"] == int((v != 0).sum())
    assert s["triples_scored"] + s["triples_pruned"] == math.comb(9, 3)
    assert s["triples_scored"] == 0  # every pair bound is comp_3 > 0: all pruned


def test_proof_mode_and_heuristic_mode_agree_on_the_best_clause():
    rng, A = instance(5, n=120, L=10)
    v = prices(rng, 120)
    comp = [0.0, 0.01, 0.011, 0.012]
    clauses, r = brute_force(A, v, comp, 3)
    pricer = EnumerationPricer(A)
    full = pricer.price(v, comp, 3, k=3)
    quick = pricer.price(v, comp, 3, k=3, need_proof=False)
    assert full[0][0][1] == pytest.approx(r.min(), abs=1e-12)
    assert quick[0] and quick[1] <= r.min() + 1e-12  # a valid bound, not necessarily tight


def test_deadline_gives_a_bound_and_bad_input_is_refused():
    rng, A = instance(2, n=60, L=8)
    v = prices(rng, 60)
    comp = [0.0, 0.001, 0.002, 0.003]
    _, r = brute_force(A, v, comp, 3)
    _, lower, complete = EnumerationPricer(A).price(v, comp, 3, deadline=0.0)
    assert not complete and lower <= min(0.0, r.min()) + 1e-12
    with pytest.raises(InputError):
        EnumerationPricer(A).price(v[:-1], comp, 3)
    with pytest.raises(InputError):
        EnumerationPricer(A).price(v, comp, 4)
    with pytest.raises(InputError):
        EnumerationPricer(A, block_rows=0)
    with pytest.raises(InputError):
        EnumerationPricer(A, backend="spark")


# ------------------------------------------------------------- degree 3 at every N
def planted_dnf(n, seed=0, noise=0.02):
    """30 binary features; y = (x0 & x1 & ~x2) | (x3 & ~x4 & x5) | (~x6 & x7 & x8), 2 % of the
    labels flipped."""
    from optirules.data import make_planted_dnf

    return make_planted_dnf(n, noise=noise, random_state=seed)


def test_auto_degree_stays_3_at_large_n_and_recovers_the_planted_dnf():
    from optirules.learners import BooleanRuleSetClassifier
    from optirules.models import resolve_max_degree

    n = 56_000  # N L^3 / 6 = 2.02e9 with L = 60: the former rule dropped to degree 2 here
    assert resolve_max_degree("auto", (n, 60)) == 3
    assert resolve_max_degree("auto", (10**9, 60)) == 3
    assert resolve_max_degree("auto", (100, 289)) == 2  # many literals: degree 2
    X, y = planted_dnf(n)
    est = BooleanRuleSetClassifier(random_state=0).fit(X, y)
    assert est.max_degree_ == 3
    # literal j < 30 is x_j == 1, literal 30 + j is x_j == 0
    assert sorted(est.clauses_) == [(0, 1, 32), (3, 5, 34), (7, 8, 36)]
    assert est.gap_certified_ and est.pricing_complete_
    assert "over all rules of at most 3 literals" in est.to_text()
    assert est.fit_info_["pricing_stats"]["triples_scored"] > 0


# ------------------------------------------------------------------------ dask backend
@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_dask_pricer_maps_the_row_blocks_and_gives_the_local_numbers(dask_client):
    rng, A = instance(8, n=900, L=12)
    local = EnumerationPricer(A, block_rows=128)
    remote = EnumerationPricer(A, block_rows=128, backend="dask")
    assert remote.backend == "dask" and remote.n_blocks == 8
    comp = [0.0, 0.001, 0.0015, 0.002]
    for _ in range(3):
        v = prices(rng, 900)
        a = local.price(v, comp, 3, k=5)
        b = remote.price(v, comp, 3, k=5)
        assert a == b  # same clauses, bit-identical reduced costs and bound
    remote.close()


def test_rule_set_fitted_with_dask_pricing_equals_the_local_fit(dask_client):
    from optirules.learners import BooleanRuleSetClassifier

    X, y = planted_dnf(2000, seed=1)
    kw = dict(pricing="exact", random_state=0)
    local = BooleanRuleSetClassifier(**kw).fit(X, y)
    remote = BooleanRuleSetClassifier(backend="dask", **kw).fit(X, y)
    assert remote.clauses_ == local.clauses_ and remote.pool_ == local.pool_
    assert remote.ip_objective_ == local.ip_objective_
    assert remote.lp_bound_ == local.lp_bound_
    assert [h["lp_objective"] for h in remote.history_] == \
        [h["lp_objective"] for h in local.history_]
    with pytest.raises(InputError):
        BooleanRuleSetClassifier(backend="spark").fit(X, y)


@pytest.mark.parametrize("layout", ["halves", "interleaved", "shuffled"])
@pytest.mark.parametrize("seed", range(4))
def test_paired_moments_equal_the_plain_ones_and_brute_force(seed, layout):
    """A literal matrix whose columns come with their complements ([X, ~X], a binarizer's
    x <= t / x > t in turn, or any order): the moments over one column of each pair give
    the same prices as the full products and brute force, degree 3 included."""
    from tests.internals import complement_pairs

    rng = np.random.default_rng(seed)
    n, f = int(rng.integers(30, 90)), int(rng.integers(3, 6))
    X = rng.random((n, f)) < rng.uniform(0.2, 0.8)
    A = np.hstack([X, ~X])
    if layout == "interleaved":
        A = np.stack([X, ~X], axis=2).reshape(n, 2 * f)
    elif layout == "shuffled":
        A = A[:, rng.permutation(2 * f)]
    if layout == "shuffled":  # and one column without a complement
        A = np.hstack([A, rng.random((n, 1)) < 0.5])
    base, comp, q = complement_pairs(A)
    assert np.array_equal(A[:, comp], ~A[:, base[q]]) and comp.size == f
    assert sorted(np.concatenate([base, comp]).tolist()) == list(range(A.shape[1]))
    paired, plain = EnumerationPricer(A, block_rows=17), EnumerationPricer(A, paired=False)
    assert paired._pairs is not None and plain._pairs is None
    comp_costs = [0.0, 0.002, 0.003, 0.004]
    for _ in range(3):
        v = prices(rng, n)
        clauses, r = brute_force(A, v, comp_costs, 3)
        for k in (1, 6):
            a = paired.price(v, comp_costs, 3, k=k)
            b = plain.price(v, comp_costs, 3, k=k)
            assert [c for c, _ in a[0]] == [c for c, _ in b[0]]
            np.testing.assert_allclose([x for _, x in a[0]], [x for _, x in b[0]], atol=1e-13)
            assert a[1] == pytest.approx(b[1], abs=1e-13) and a[2] and b[2]
            assert a[1] == pytest.approx(min(0.0, r.min()), abs=1e-12)
    assert paired.stats["paired_jobs"] > 0 and plain.stats["paired_jobs"] == 0


def test_complement_pairs_of_partial_and_repeated_columns():
    from tests.internals import complement_pairs

    A = np.array([[1, 1, 1], [0, 1, 1]], dtype=bool)
    assert complement_pairs(A) is None  # no column has a complement
    B = np.array([[1, 0, 1, 1], [0, 1, 0, 1]], dtype=bool)  # column 3 has no complement
    base, comp, q = complement_pairs(B)
    assert base.tolist() == [0, 2, 3] and comp.tolist() == [1]
    assert np.array_equal(B[:, comp], ~B[:, base[q]])
    C = np.array([[1, 0, 1, 0], [0, 1, 0, 1]], dtype=bool)  # two equal pairs
    base, comp, q = complement_pairs(C)
    assert np.array_equal(C[:, comp], ~C[:, base[q]]) and base.size == comp.size == 2


@pytest.mark.parametrize("paired", [True, False])
@pytest.mark.parametrize("seed", range(4))
def test_incremental_sums_equal_fresh_sums_and_brute_force(seed, paired):
    """As in column generation: label-0 rows keep their price P_i, a few label-1 duals move
    per call; a new pmf changes every price (computed afresh)."""
    rng = np.random.default_rng(100 + seed)
    n, f = int(rng.integers(40, 90)), int(rng.integers(3, 6))
    X = rng.random((n, f)) < rng.uniform(0.2, 0.8)
    A = np.hstack([X, ~X, rng.random((n, 2)) < 0.5])  # complement pairs and two loose columns
    y = rng.random(n) < 0.4
    P = rng.random(n)
    P /= P.sum()
    mu = rng.random(int(y.sum()))
    comp = [0.0, 0.002, 0.003, 0.004]
    inc = EnumerationPricer(A, block_rows=13, paired=paired)
    fresh = EnumerationPricer(A, paired=paired, incremental=False)
    for step in range(7):
        if step == 4:  # the next member's pmf: every price changes
            P = rng.random(n)
            P /= P.sum()
        if step == 5:  # a pmf that scales most rows by one factor (a DRO member's next pmf)
            P = np.where(rng.random(n) < 0.8, P * 0.8, rng.random(n) / n)
        move = rng.random(mu.size) < 0.2
        mu[move] = rng.random(int(move.sum())) * (rng.random(int(move.sum())) < 0.7)
        v = P.copy()
        v[y] = -mu * P[y]  # row_prices
        for degree in (2, 3, 2):
            a = inc.price(v, comp, degree, k=5)
            b = fresh.price(v, comp, degree, k=5)
            clauses, r = brute_force(A, v, comp, degree)
            assert [c for c, _ in a[0]] == [c for c, _ in b[0]]
            np.testing.assert_allclose([x for _, x in a[0]], [x for _, x in b[0]], atol=1e-13)
            assert a[1] == pytest.approx(min(0.0, r.min()), abs=1e-12) and a[2]
    # afresh: the first call, the first at degree 3, the new pmf at degree 2 and then at 3
    # (sums kept at the degree of their last fresh computation); the others by differences,
    # the scaled pmf of step 5 too (the kept sums times 0.8 plus the other rows')
    assert inc.stats["incremental_calls"] == 21 - 4
    assert fresh.stats["incremental_calls"] == 0


@pytest.mark.parametrize("need_proof", [True, False])
@pytest.mark.parametrize("seed", range(3))
def test_held_extension_sums_give_the_fresh_columns_and_bounds(seed, need_proof):
    """The degree-3 pass's matrices and seed vectors are held from one call to the next and
    brought to the new prices by the rows whose price changed (ExtensionCache): the columns,
    reduced costs and bounds are those of a pricer that computes them afresh, and of brute
    force; the held sums are used (hits), grown by new partners, and updated by few rows."""
    rng = np.random.default_rng(300 + seed)
    n, L = 120, 14
    A = rng.random((n, L)) < rng.uniform(0.3, 0.7, L)
    y = rng.random(n) < 0.5
    P = np.full(n, 1.0 / n)
    mu = rng.random(int(y.sum()))
    comp = [0.0, 0.001, 0.0015, 0.002]
    held = EnumerationPricer(A, block_rows=37)
    fresh = EnumerationPricer(A, incremental=False)
    for _step in range(8):
        move = rng.random(mu.size) < 0.1
        mu[move] = rng.random(int(move.sum()))
        v = P.copy()
        v[y] = -mu * P[y]
        a = held.price(v, comp, 3, k=5, need_proof=need_proof)
        b = fresh.price(v, comp, 3, k=5, need_proof=need_proof)
        assert [c for c, _ in a[0]] == [c for c, _ in b[0]]
        np.testing.assert_allclose([x for _, x in a[0]], [x for _, x in b[0]], atol=1e-13)
        assert a[1] == pytest.approx(b[1], abs=1e-13) and a[2] == b[2]
        clauses, r = brute_force(A, v, comp, 3)
        truth = dict(zip(clauses, r))
        for c, x in a[0]:
            assert x == pytest.approx(truth[c], abs=1e-13)
        assert a[1] <= min(0.0, r.min()) + 1e-13
    stats = held.extension_stats
    if need_proof:  # every call runs the whole pass: the matrices are used again
        assert stats["hits"] > 0 and stats["rows_updated"] > 0
    assert fresh.extension_stats["hits"] == 0


def test_grown_extension_matrix_equals_the_matrix_over_the_union():
    """A held first literal's matrix grown by new partners (only their rows summed) equals
    the matrix computed at once over the union of the columns, with its column of ones."""
    from optirules.models._enumeration_blocks import block_extensions
    from optirules.models._extension_cache import ExtensionCache

    rng = np.random.default_rng(7)
    A = rng.random((200, 12)) < 0.5
    v = rng.standard_normal(200)
    w = v.copy()
    w[:20] = rng.standard_normal(20)  # a tenth of the prices change

    def sums(prices, jobs):
        return block_extensions(A, prices, jobs)

    cache = ExtensionCache(1 << 20)
    cache.begin(v)
    cache.sums(v, [((0,), np.array([1, 2, 3, 4, 5, 6, 7, 8]))], sums)
    cache.end()
    cache.begin(w)
    want = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 11])  # two new partners
    got = cache.sums(w, [((0,), want, True)], sums)[0]
    cache.end()
    assert cache.stats["grown"] == 1 and cache.stats["misses"] == 1
    np.testing.assert_allclose(got, sums(w, [((0,), want, True)])[0], atol=1e-12)


def test_rows_of_a_common_price_are_counted_exactly_in_the_extension_matrices():
    """A price shared by a quarter of the priced rows (the label-0 rows under uniform
    weights) is taken as that price times the rows' counts: the matrix A_S' diag(v) A_S up
    to rounding; without such a price (or with too few of its rows) no price is taken."""
    from optirules.models._enumeration_blocks import block_extensions
    from tests.internals import modal_price

    rng = np.random.default_rng(9)
    n = 4000
    A = rng.random((n, 9)) < 0.5
    v = -rng.random(n) / n
    v[rng.random(n) < 0.6] = 1.0 / n
    v[:50] = 0.0
    c, same = modal_price(v)
    assert c == 1.0 / n and same.sum() == int(np.count_nonzero(v == 1.0 / n))
    assert modal_price(rng.standard_normal(n)) is None
    few = v.copy()
    few[few == c] = rng.random(int(same.sum())) / n  # every price distinct
    few[:600] = 2.0 / n  # 600 of 3950 priced rows share one: fewer than a quarter
    assert modal_price(few) is None
    part = np.array([1, 2, 4, 5, 8])
    for job in [((0,), part), ((0,), part, True), ((3,), (part[:2], part), True)]:
        got = block_extensions(A, v, [job])[0]
        cov = A[:, 0] if job[0] == (0,) else A[:, 3]
        As = A[cov].astype(float)
        rows = job[1][0] if isinstance(job[1], tuple) else part
        want = (As[:, rows] * v[cov][:, None]).T @ np.hstack(
            [As[:, part], np.ones((As.shape[0], 1))])
        if not isinstance(job[1], tuple):
            want = np.vstack([want, np.append(v[cov] @ As[:, part], v[cov].sum())])
        want = want if len(job) > 2 else want[:-1, :-1]
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-15)
    pair = A[:, 0] & A[:, 3]  # a pair's vector over every literal
    got = block_extensions(A, v, [((0, 3), None)])[0]
    np.testing.assert_allclose(got, v[pair] @ A[pair].astype(float), rtol=0, atol=1e-15)
