"""Column generation with the rows on dask.distributed workers: the master over the
coverage patterns (the surrogate problem) is the master over every row, pricing on the
workers gives the local enumeration's clauses and bound, and the run gives the local run's
model."""

from __future__ import annotations

import numpy as np
import pytest

from optirules.data import make_planted_dnf
from optirules.models import (
    ColumnGenerationOptions,
    DistributedRows,
    EnumerationPricer,
    RuleSetProblem,
    column_generation,
    complexity_costs,
    distributed_column_generation,
    restricted_master,
    row_prices,
)

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                       dashboard_address=None)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def literal_rows(n, seed=0, noise=0.02):
    X, y = make_planted_dnf(n, noise=noise, random_state=seed)
    Xb = np.asarray(X, dtype=bool)
    return np.hstack([Xb, ~Xb]), np.asarray(y, dtype=bool)


def split(A, y, sizes):
    out, s = [], 0
    for m in sizes:
        out.append((A[s:s + m], y[s:s + m]))
        s += m
    return out


def test_surrogate_master_is_the_master_over_every_row(client):
    A, y = literal_rows(1500, seed=3)
    rows = DistributedRows.from_arrays(client, split(A, y, [400, 700, 400]))
    pool = [(0, 1, 32), (3,), (3, 5), (7, 8, 36), (2, 40), (10,)]
    rows.add_clauses(pool[:2])
    rows.add_clauses(pool[2:])
    assert rows.n_rows == 1500 and rows.n_positive == int(y.sum())
    for complexity, l0, l1 in [(None, 1e-3, 2e-3), (12.0, 0.0, 0.0), (7.0, 1e-3, 0.0)]:
        full = RuleSetProblem(A, y, None, complexity=complexity, lambda0=l0, lambda1=l1)
        m_full = restricted_master(full, pool, master="direct")
        surrogate = rows.surrogate(complexity, l0, l1)
        assert surrogate.n_literals == len(pool)
        assert surrogate.n_rows == rows.n_patterns + len(pool) < 1500
        m_sur = restricted_master(surrogate, [(k,) for k in range(len(pool))])
        assert m_sur.solve() == pytest.approx(m_full.solve(), abs=1e-12)
        # a merged row's dual is each of its rows' dual: the full problem's reduced costs
        # at those duals are the surrogate's
        d = m_sur.duals_for_pricing_
        cover = np.column_stack([A[:, list(c)].all(axis=1) for c in pool])
        packed = np.packbits(cover[y], axis=1)
        keys = np.ascontiguousarray(packed).view(np.dtype((np.void, packed.shape[1])))
        mu = np.asarray(d["mu"])[np.searchsorted(rows.keys, keys.ravel())]
        r = complexity_costs([len(c) for c in pool], d["lam"], d["lambda0"], d["lambda1"]) \
            + row_prices(y, full.P, mu) @ cover
        np.testing.assert_allclose(r, m_sur.reduced_costs_, atol=1e-12)
        assert (r >= -1e-9).all()
    rows.close()


def test_worker_pricing_equals_the_local_enumeration_at_the_same_prices(client):
    from tests.internals import WorkerPricer, complement_pairs

    rng = np.random.default_rng(5)
    A, y = literal_rows(1200, seed=5)
    rows = DistributedRows.from_arrays(client, split(A, y, [500, 300, 400]), block_rows=128)
    rows.add_clauses([(0, 1), (3, 5, 34), (8,)])
    pricer = WorkerPricer(rows)
    local = EnumerationPricer(A)
    pairs, want = pricer._pairs, complement_pairs(A)
    assert all(np.array_equal(a, b) for a, b in zip(pairs, want))
    # each row's pattern over the pool, as the workers compute it
    cover = np.column_stack([A[:, list(c)].all(axis=1) for c in rows.clauses])[y]
    packed = np.packbits(cover, axis=1)
    keys = np.ascontiguousarray(packed).view(np.dtype((np.void, packed.shape[1]))).ravel()
    at = np.searchsorted(rows.keys, keys)
    assert np.array_equal(rows.keys[at], keys)
    for degree in (1, 2, 3):
        mu = rng.uniform(0, 1, rows.n_patterns)
        comp = [0.0, 0.001, 0.0015, 0.002]
        got = pricer.price_patterns(mu, comp, degree, k=6, pool={(0, 1)})
        v = row_prices(y, np.full(1200, 1 / 1200), mu[at])
        ref = local.price(v, comp, degree, k=6, pool={(0, 1)})
        assert [c for c, _ in got[0]] == [c for c, _ in ref[0]]
        np.testing.assert_allclose([r for _, r in got[0]], [r for _, r in ref[0]],
                                   atol=1e-12)
        assert got[1] == pytest.approx(ref[1], abs=1e-12) and got[2] == ref[2]
    rows.close()


@pytest.mark.parametrize("settings", [dict(lambda0=1e-3, lambda1=1e-3, max_degree=3),
                                      dict(complexity=10.0, max_degree=2)])
def test_column_generation_on_the_workers_gives_the_local_model(client, settings):
    A, y = literal_rows(3000, seed=1)
    local = column_generation(A, y, None, pricing="exact", tol=0.0, **settings)
    rows = DistributedRows.from_arrays(client, split(A, y, [1000, 1200, 800]))
    res = distributed_column_generation(
        rows, **settings, options=ColumnGenerationOptions(pricing="exact", tol=0.0))
    assert sorted(res.clauses) == sorted(local.clauses)
    assert sorted(res.pool) == sorted(local.pool)
    assert res.ip_objective == pytest.approx(local.ip_objective, abs=1e-12)
    assert res.lp_bound == pytest.approx(local.lp_bound, abs=1e-12)
    assert res.converged and local.converged and res.certified
    assert res.info["pricing"] == "exact (rows on the workers)"
    assert res.info["patterns"] < int(y.sum())
    if settings.get("max_degree") == 3:  # the planted DNF
        assert sorted(res.clauses) == [(0, 1, 32), (3, 5, 34), (7, 8, 36)]
    rows.close()


def test_beam_pricing_is_refused_with_the_rows_on_the_workers(client):
    from optirules.errors import InputError

    A, y = literal_rows(200)
    rows = DistributedRows.from_arrays(client, split(A, y, [100, 100]))
    with pytest.raises(InputError, match="pricing='exact'"):
        distributed_column_generation(rows, options=ColumnGenerationOptions(pricing="beam"))
    with pytest.raises(InputError, match="at most 3 literals"):
        distributed_column_generation(rows, max_degree=4)
    rows.close()
