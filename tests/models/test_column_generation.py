"""The restricted master behind one interface: the direct highspy path, the Pyomo persistent
path and the rebuild path reach the same LP optimum after every batch of columns, and column
generation run on each of them ends at the same LP value and master IP."""

from __future__ import annotations

import numpy as np
import pytest

from optirules.errors import InputError
from optirules.models import (
    HighsRuleMaster,
    PersistentRuleMaster,
    RebuildRuleMaster,
    RestrictedMaster,
    RuleSetProblem,
    column_generation,
    restricted_master,
    split_solver,
)
from optirules.solvers import available_solvers
from tests.helpers import cg_data

from .test_rule_master import brute_force, make_instance

INFO = {s.name: s for s in available_solvers()}
#: LP solvers of the rebuild path (any LP solver with duals on the Pyomo or cvxpy route)
REBUILD = [n for n in ("highs", "cbc", "scip", "clarabel") if n in INFO]


def _licensed(name: str) -> bool:
    """Whether a commercial solver's persistent Pyomo interface can load a small model."""
    if name not in INFO:
        return False
    try:
        A, y, P, pool = make_instance(0, n_rows=10, n_clauses=3)
        PersistentRuleMaster(A, y, pool, sample_weight=P, complexity=5.0, solver=name).solve()
    except Exception:  # a missing or refused licence
        return False
    return True


PERSISTENT = ["highs"] + [n for n in ("gurobi", "cplex") if _licensed(n)]


def _masters(A, y, P, kw):
    out = {"direct": HighsRuleMaster(A, y, [], sample_weight=P, **kw)}
    for s in PERSISTENT:
        out[f"persistent-{s}"] = PersistentRuleMaster(A, y, [], sample_weight=P, solver=s, **kw)
    for s in REBUILD:
        out[f"rebuild-{s}"] = RebuildRuleMaster(A, y, [], sample_weight=P, solver=s, **kw)
    return out


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("form", ["budget", "penalty"])
def test_every_master_path_gives_the_same_lp_after_every_batch(seed, form):
    A, y, P, pool = make_instance(seed, n_rows=40, n_features=5, n_clauses=16)
    kw = {"complexity": 6.0} if form == "budget" else {"lambda0": 0.01, "lambda1": 0.005}
    masters = _masters(A, y, P, kw)
    for batch in ([], pool[:4], pool[4:9], pool[9:]):
        objs = {}
        for name, m in masters.items():
            m.add_clauses(batch)
            objs[name] = m.solve()
            assert isinstance(m, RestrictedMaster), name  # the protocol, once solved
        ref = objs["direct"]
        tol = 1e-6 if form == "budget" else 1e-7
        for name, z in objs.items():
            assert z == pytest.approx(ref, abs=tol), (name, batch)
        for name, m in masters.items():  # optimal duals: no pool column prices below 0
            assert m.clauses_ == masters["direct"].clauses_
            assert np.all(np.asarray(m.reduced_costs_) >= -1e-6), name
            mu = m.duals_for_pricing_["mu"]
            assert mu.shape == (int(np.sum(y)),) and np.all(mu >= -1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_every_master_path_solves_the_ip_to_the_brute_force_optimum(seed):
    A, y, P, pool = make_instance(seed, n_rows=30, n_clauses=9)
    kw = {"complexity": 7.0, "lambda0": 0.002}
    best, _ = brute_force(A, y, P, pool, budget=7.0, lambda0=0.002)
    for name, m in _masters(A, y, P, kw).items():
        m.add_clauses(pool)
        m.solve()
        ip = m.solve_ip(solver="highs")
        assert ip.status == "optimal" and ip.objective == pytest.approx(best, abs=1e-9), name


def test_restricted_master_picks_the_path_and_refuses_mismatches():
    A, y, P, pool = make_instance(1)
    kw = dict(complexity=5.0)
    pb = RuleSetProblem(A, y, P, **kw)
    assert isinstance(restricted_master(pb, pool), HighsRuleMaster)
    assert isinstance(restricted_master(pb, pool, lp_solver="highs", master="persistent"),
                      PersistentRuleMaster)
    if "scip" in INFO:
        assert isinstance(restricted_master(pb, pool, lp_solver="scip"), RebuildRuleMaster)
        with pytest.raises(InputError, match="no persistent Pyomo interface with LP duals"):
            restricted_master(pb, pool, lp_solver="scip", master="persistent")
    with pytest.raises(InputError, match="needs the LP solver 'highs'"):
        restricted_master(pb, pool, lp_solver="cbc", master="direct")
    with pytest.raises(InputError, match="master must be one of"):
        restricted_master(pb, pool, master="warm")
    with pytest.raises(InputError, match="cannot solve the rule master LP with duals"):
        RebuildRuleMaster(A, y, pool, solver="osqp", route="pyomo", **kw)


def test_split_solver_reads_one_name_or_a_mapping():
    assert split_solver("SCIP") == ("scip", "scip")
    assert split_solver({"lp": "highs", "milp": "cbc"}) == ("highs", "cbc")
    assert split_solver({"milp": "scip"}) == ("highs", "scip")
    with pytest.raises(InputError, match="keys 'lp' and 'milp'"):
        split_solver({"qp": "highs"})
    with pytest.raises(InputError, match="solver must be a solver name"):
        split_solver(3)


@pytest.mark.parametrize("form", ["budget", "penalty"])
def test_column_generation_ends_at_the_same_optimum_on_every_path(form):
    A, y, P = cg_data()
    kw = ({"complexity": 9.0} if form == "budget" else {"lambda0": 0.005, "lambda1": 0.005})
    runs = {"direct": column_generation(A, y, P, max_degree=2, **kw)}
    runs["persistent"] = column_generation(A, y, P, max_degree=2, master="persistent", **kw)
    for s in REBUILD:
        if s != "clarabel":  # an interior-point method prices to its tolerance only
            runs[f"rebuild-{s}"] = column_generation(A, y, P, max_degree=2, solver=s, **kw)
    ref = runs["direct"]
    assert ref.converged and ref.info["master"] == "HighsRuleMaster"
    assert ref.info["ip_route"] == "highspy" or ref.info["ip_route"] == "model"
    for name, r in runs.items():
        assert r.converged, name
        assert r.lp_objective == pytest.approx(ref.lp_objective, rel=1e-6, abs=1e-9), name
        assert r.ip_objective == pytest.approx(ref.ip_objective, rel=1e-6, abs=1e-9), name
    assert runs["persistent"].info["master"] == "PersistentRuleMaster"
    if "scip" in INFO:
        assert runs["rebuild-scip"].info["master"] == "RebuildRuleMaster"
        assert runs["rebuild-scip"].info["milp_solver"] == "scip"


# ------------------------------------------------------------------ master IP, direct path
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("form", ["budget", "penalty", "both"])
def test_direct_ip_equals_the_declarative_ip_and_brute_force(seed, form):
    """The IP solved in the LP's own highspy model (integrality switched on, a start
    solution) reaches RuleMasterModel's IP optimum and the brute-force one; a subset of
    the pool fixes the other columns to 0; afterwards the LP is the LP again."""
    from optirules.models import RuleMasterModel

    A, y, P, pool = make_instance(seed, n_rows=30, n_clauses=10)
    kw = {"budget": {"complexity": 7.0}, "penalty": {"lambda0": 0.01, "lambda1": 0.005},
          "both": {"complexity": 9.0, "lambda0": 0.002}}[form]
    best, _ = brute_force(A, y, P, pool, budget=kw.get("complexity"),
                          lambda0=kw.get("lambda0", 0.0), lambda1=kw.get("lambda1", 0.0))
    master = HighsRuleMaster(A, y, pool, sample_weight=P, **kw)
    z = master.solve()
    ip = master.solve_ip(solver="highs", incumbent=pool[:1], random_seed=0)
    ref = RuleMasterModel(A, y, pool, sample_weight=P, **kw)
    ref.solve("highs")
    assert ip.route == "highspy" and ip.status == "optimal"
    assert ip.objective == pytest.approx(best, abs=1e-9)
    assert ip.objective == pytest.approx(ref.objective_, abs=1e-9)
    from optirules.models import master_objective

    assert master_objective(A.astype(bool), y.astype(bool), P, ip.selected,
                            kw.get("lambda0", 0.0), kw.get("lambda1", 0.0)) == \
        pytest.approx(best, abs=1e-9)
    half = pool[::2]
    sub_best, _ = brute_force(A, y, P, half, budget=kw.get("complexity"),
                              lambda0=kw.get("lambda0", 0.0), lambda1=kw.get("lambda1", 0.0))
    sub = master.solve_ip(half)
    assert set(sub.selected) <= set(half) and sub.objective == pytest.approx(sub_best, abs=1e-9)
    assert master.solve() == pytest.approx(z, abs=1e-12)  # the LP again


@pytest.mark.parametrize("seed", range(3))
def test_direct_ip_equals_the_declarative_ip_on_generated_pools(seed):
    """Column generation's own pools on several seeds: the in-place highspy IP and the
    Pyomo model's IP reach the same objective."""
    from optirules.models import RuleMasterModel

    A, y, P = cg_data(seed, n=150, f=7)
    res = column_generation(A, y, P, max_degree=2, complexity=12.0, lambda0=0.001,
                            lambda1=0.001, random_seed=0)
    assert res.info["ip_route"] == "highspy"
    ref = RuleMasterModel(A, y.astype(int), res.pool, sample_weight=P, complexity=12.0,
                          lambda0=0.001, lambda1=0.001)
    ref.solve("highs", mip_gap=1e-9)
    assert res.ip_objective == pytest.approx(ref.objective_, rel=1e-6, abs=1e-12)


def test_auto_master_merges_a_million_distinct_label_1_rows_and_keeps_the_dual_lp():
    """From a million label-1 rows "auto" holds merged rows even when they are distinct rows
    of A (the dual would hold a HiGHS column per row); below, the dual.  Both give the LP
    optimum of the direct master (checked on a smaller instance with the bound lowered)."""
    from optirules.models import DualHighsRuleMaster, MergedHighsRuleMaster
    from optirules.models.masters import _factory

    rng = np.random.default_rng(5)
    n = 1_001_000
    A = rng.random((n, 24)) < 0.5  # 2^24 possible rows: nearly all distinct
    y = np.ones(n, dtype=bool)
    y[:1000] = False
    pb = RuleSetProblem(A, y, None, lambda0=0.001, lambda1=0.001)
    assert isinstance(restricted_master(pb, [(0,)]), MergedHighsRuleMaster)
    small = RuleSetProblem(A[:4000], y[:4000], None, lambda0=0.001, lambda1=0.001)
    pool = [(0,), (1, 2), (3,), (4, 5, 6), (7, 20)]
    dual = restricted_master(small, pool)
    assert isinstance(dual, DualHighsRuleMaster)
    direct = restricted_master(small, pool, master="direct")
    old = _factory._DUAL_MAX_POSITIVES
    _factory._DUAL_MAX_POSITIVES = 2000
    try:
        merged = restricted_master(small, pool)
    finally:
        _factory._DUAL_MAX_POSITIVES = old
    assert isinstance(merged, MergedHighsRuleMaster)
    want = direct.solve()
    assert dual.solve() == pytest.approx(want, abs=1e-12)
    assert merged.solve() == pytest.approx(want, abs=1e-12)


def test_master_ip_keeps_a_missed_positive_whose_weight_is_below_the_default_tolerance():
    """A positive row of weight 1e-7 that no clause covers costs its weight in the IP
    (HiGHS's default MIP feasibility tolerance, 1e-6, would let xi = 0 'meet' its row)."""
    A = np.zeros((10, 2), dtype=bool)
    A[:8, 0] = True  # clause (0,) covers rows 0-7; row 8 (positive) no clause covers
    y = np.array([1] * 9 + [0])
    w = np.ones(10)
    w[8] = 1e-7
    master = HighsRuleMaster(A, y, [(0,), (1,)], sample_weight=w)
    master.solve()
    ip = master.solve_ip()
    P8 = 1e-7  # the weights as given (the learners pass a pmf)
    assert ip.selected == [(0,)]
    assert ip.objective == pytest.approx(P8, rel=1e-6)
    from optirules.models import RuleMasterModel

    ref = RuleMasterModel(A, y, [(0,), (1,)], sample_weight=w)
    ref.solve("highs", mip_feasibility_tolerance=1e-10)
    assert ref.objective_ == pytest.approx(P8, rel=1e-6)


# ------------------------------------------------------------ restricted master over merged rows
def _repeated_cg_data(seed, n=300, f=5):
    """Few distinct rows (f binary features), many repeats, non-uniform weights."""
    A, y, _ = cg_data(seed, n=n, f=f)
    P = np.random.default_rng(50 + seed).uniform(0.5, 1.5, n)
    return A, y, P / P.sum()


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("form", ["budget", "penalty"])
@pytest.mark.parametrize("max_share", [0.5, 0.05])
def test_merged_master_lp_and_duals_are_those_of_the_full_lp(seed, form, max_share):
    """Columns added in batches: after each, the LP over merged rows has the full LP's
    optimum, and its duals (one per label-1 row) are optimal for the full LP: feasible
    (0 <= mu <= 1, every pool reduced cost >= 0) with the dual objective equal to the
    optimum.  max_share=0.05 switches to the unmerged LP part-way."""
    from optirules.models import MergedHighsRuleMaster, PricingDuals, reduced_costs

    A, y, P = _repeated_cg_data(seed)
    kw = {"complexity": 9.0} if form == "budget" else {"lambda0": 0.01, "lambda1": 0.005}
    rng = np.random.default_rng(seed)
    n_lit = A.shape[1]
    batches = [[tuple(sorted(rng.choice(n_lit, size=rng.integers(1, 3), replace=False)))
                for _ in range(4)] for _ in range(3)]
    full = HighsRuleMaster(A, y.astype(int), sample_weight=P, **kw)
    merged = MergedHighsRuleMaster(A, y.astype(int), sample_weight=P, max_share=max_share,
                                   **kw)
    pos = np.flatnonzero(y)
    seen_merged = False
    for batch in [[]] + batches:
        full.add_clauses(batch)
        merged.add_clauses(batch)
        assert merged.clauses_ == full.clauses_
        z_full, z = full.solve(), merged.solve()
        seen_merged |= merged.merged_
        assert z == pytest.approx(z_full, abs=1e-12)
        d = merged.duals_for_pricing_
        mu, lam = d["mu"], d["lam"]
        assert mu.shape == (pos.size,) and (mu >= -1e-12).all() and (mu <= 1 + 1e-12).all()
        dual = float(P[pos] @ mu) - kw.get("complexity", 0.0) * lam
        assert dual == pytest.approx(z, abs=1e-10)
        if merged.clauses_:
            rc = reduced_costs(A, y.astype(int), merged.clauses_,
                               PricingDuals(mu, lam, kw.get("lambda0", 0.0),
                                            kw.get("lambda1", 0.0)), sample_weight=P)
            assert rc.min() >= -1e-10
            np.testing.assert_allclose(merged.reduced_costs_, rc, atol=1e-10)
        assert merged.n_groups_ <= pos.size
    assert seen_merged
    if max_share == 0.05:
        assert not merged.merged_ and merged.n_groups_ == pos.size
    best, _ = brute_force(A, y.astype(int), P, merged.clauses_, budget=kw.get("complexity"),
                          lambda0=kw.get("lambda0", 0.0), lambda1=kw.get("lambda1", 0.0))
    ip = merged.solve_ip()
    ref = full.solve_ip(aggregate=False)
    assert ip.objective == pytest.approx(ref.objective, abs=1e-10)
    assert ip.objective == pytest.approx(best, abs=1e-10)


@pytest.mark.parametrize("seed", range(3))
def test_column_generation_on_merged_rows_reaches_the_direct_optimum(seed):
    """master='merged' against master='direct': both converge to the same LP optimum over
    all clauses (the certified bound) and the IP over each pool is bounded by it."""
    A, y, P = _repeated_cg_data(seed, n=400)
    kw = dict(max_degree=2, lambda0=0.002, lambda1=0.002, random_seed=0)
    ref = column_generation(A, y, P, master="direct", **kw)
    res = column_generation(A, y, P, master="merged", **kw)
    assert res.info["master"] == "MergedHighsRuleMaster"
    assert ref.converged and res.converged
    assert res.lp_objective == pytest.approx(ref.lp_objective, abs=1e-10)
    assert res.lp_bound == pytest.approx(ref.lp_bound, abs=1e-10)
    assert res.ip_objective >= ref.lp_bound - 1e-10
    if res.pool == ref.pool:
        assert res.ip_objective == pytest.approx(ref.ip_objective, abs=1e-10)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("form", ["budget", "penalty"])
def test_local_search_incumbent_is_one_opt_and_never_worse(seed, form):
    """The incumbent handed to the master IP: from the greedy rule set, no single add, drop
    or swap of a pool clause lowers the objective (checked move by move), it keeps the
    budget, and it is never worse than the greedy start."""
    from tests.internals import _greedy_rule_set, _improve_rule_set, master_objective

    A, y, P = _repeated_cg_data(seed, n=200, f=5)
    rng = np.random.default_rng(seed)
    n_lit = A.shape[1]
    pool = sorted({tuple(sorted(rng.choice(n_lit, size=rng.integers(1, 3), replace=False)))
                   for _ in range(14)})
    budget, l0, l1 = (8.0, 0.0, 0.0) if form == "budget" else (None, 0.004, 0.002)
    start = _greedy_rule_set(A, y, P, pool, budget, l0, l1)
    best = _improve_rule_set(RuleSetProblem(A, y, P, budget, l0, l1), pool, start)
    obj = master_objective(A, y, P, best, l0, l1)
    assert obj <= master_objective(A, y, P, start, l0, l1) + 1e-15
    cost = {c: 1 + len(c) for c in pool}
    assert budget is None or sum(cost[c] for c in best) <= budget + 1e-9
    S = set(best)
    moves = [S | {j} for j in pool if j not in S] + [S - {k} for k in S] + \
        [(S - {k}) | {j} for k in S for j in pool if j not in S]
    for m in moves:
        if budget is not None and sum(cost[c] for c in m) > budget + 1e-9:
            continue
        assert master_objective(A, y, P, sorted(m), l0, l1) >= obj - 1e-12



@pytest.mark.parametrize("seed", range(3))
def test_master_ip_keeps_one_clause_per_coverage_and_its_optimum(seed):
    """Clauses of equal coverage are equal columns (the one of more literals costs more):
    the IP keeps the fewest literals, then the first clause, and its optimum is the brute
    force optimum over the whole pool."""
    from optirules.models import clause_coverage
    from tests.internals import _distinct_coverage

    A, y, P, pool = make_instance(seed, n_rows=30, n_clauses=9)
    n_lit = A.shape[1]
    A = np.hstack([A, A[:, :2], np.ones((A.shape[0], 1), bool)])  # copies and a true column
    twins = [(n_lit,), (n_lit + 1,), (0, n_lit + 2), (1, n_lit + 2)]  # = (0,), (1,) covers
    full = sorted(set(pool) | {(0,), (1,)} | set(twins))
    cov = clause_coverage(A, full)
    kept = [full[k] for k in _distinct_coverage(full, cov, range(len(full)))]
    assert (0,) in kept and (1,) in kept and not set(twins) & set(kept)
    assert len({cov[:, full.index(c)].tobytes() for c in kept}) == len(kept)
    best, _ = brute_force(A, y, P, full, budget=7.0, lambda0=0.002)
    res = column_generation(A, y, P, complexity=7.0, lambda0=0.002, max_degree=1,
                            initial_clauses=full, max_iter=1, random_seed=0)
    assert not set(twins) & set(res.clauses)
    assert res.info["ip_columns"] <= len(kept)
    assert res.ip_objective <= best + 1e-9


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("form", ["budget", "penalty"])
def test_dual_master_lp_equals_the_direct_lp_and_its_duals_are_optimal(seed, form):
    """master='dual' (the LP's dual, one row per clause): after every batch the optimum of
    the direct (primal) LP, w and xi feasible for the primal with that objective, mu in
    [0, 1] with dual objective = optimum, reduced costs >= 0 and equal to the formula's."""
    from optirules.models import DualHighsRuleMaster, PricingDuals, reduced_costs

    A, y, P, pool = make_instance(seed, n_rows=60, n_features=5, n_clauses=18)
    kw = {"complexity": 7.0} if form == "budget" else {"lambda0": 0.01, "lambda1": 0.004}
    direct = HighsRuleMaster(A, y, [], sample_weight=P, **kw)
    dual = DualHighsRuleMaster(A, y, [], sample_weight=P, **kw)
    yb = np.asarray(y, bool)
    for batch in ([], pool[:5], pool[5:11], pool[11:]):
        direct.add_clauses(batch)
        dual.add_clauses(batch)
        z = direct.solve()
        assert dual.solve() == pytest.approx(z, abs=1e-9)
        d = dual._data
        w, mu, lam = dual.w_, dual.cover_duals_, dual.complexity_dual_
        assert np.all(w >= 0) and np.all((mu >= 0) & (mu <= 1)) and lam >= 0
        cov = d.coverage[d.pos]
        assert np.all(dual.xi_ + P[yb] * (cov @ w) >= P[yb] - 1e-9)
        if form == "budget":
            assert float(d.cost @ w) <= 7.0 + 1e-9
        primal = dual.xi_.sum() + float((d.neg_loss + d.penalty) @ w)
        assert primal == pytest.approx(z, abs=1e-9)
        dual_obj = float(P[yb] @ mu) - (7.0 * lam if form == "budget" else 0.0)
        assert dual_obj == pytest.approx(z, abs=1e-9)
        if batch:
            rc = reduced_costs(A, y, dual.clauses_, PricingDuals(
                mu, lam, kw.get("lambda0", 0.0), kw.get("lambda1", 0.0)), sample_weight=P)
            np.testing.assert_allclose(dual.reduced_costs_, rc, atol=1e-9)
            assert rc.min() >= -1e-9


@pytest.mark.parametrize("seed", range(3))
def test_column_generation_on_the_dual_master_reaches_the_direct_optimum(seed):
    A, y, P = _repeated_cg_data(seed, n=300)
    kw = dict(max_degree=2, complexity=9.0, random_seed=0)
    ref = column_generation(A, y, P, master="direct", **kw)
    res = column_generation(A, y, P, master="dual", **kw)
    assert res.info["master"] == "DualHighsRuleMaster"
    assert ref.converged and res.converged
    assert res.lp_bound == pytest.approx(ref.lp_bound, abs=1e-10)
    best, _ = brute_force(A, y, P, res.pool, budget=9.0) if len(res.pool) <= 14 else (None, 0)
    assert res.ip_objective >= res.lp_bound - 1e-10
    if best is not None:
        assert res.ip_objective == pytest.approx(best, abs=1e-10)


def test_ip_time_limit_stops_the_master_ip_and_keeps_the_better_rule_set():
    """ip_time_limit far below what the IP needs: the rule set is the IP solver's best or
    the local-search incumbent, whichever is better, within the budget and above the
    certified bound; without it the IP reaches its optimum, which is no worse."""
    A, y, P = _repeated_cg_data(1, n=400, f=6)
    kw = dict(max_degree=2, complexity=12.0, random_seed=0, mip_gap=1e-9)
    full = column_generation(A, y, P, **kw)
    short = column_generation(A, y, P, ip_time_limit=1e-6, **kw)
    assert short.pool == full.pool
    assert short.ip_objective <= short.info["greedy_objective"] + 1e-12
    assert sum(1 + len(c) for c in short.clauses) <= 12.0
    assert short.ip_objective >= short.lp_bound - 1e-12
    assert full.ip_objective <= short.ip_objective + 1e-12


@pytest.mark.parametrize("form", ["budget", "penalty"])
def test_lp_support_carries_the_restricted_lp_optimum(form):
    """info["lp_support"]: the final restricted LP's clauses with w_k > 0; the LP over them
    alone has the same optimum (the DRO ensemble starts the next member from them)."""
    A, y, P = cg_data(3)
    kw = ({"complexity": 9.0} if form == "budget" else {"lambda0": 0.005, "lambda1": 0.005})
    res = column_generation(A, y, P, max_degree=2, **kw)
    support = res.info["lp_support"]
    assert 0 < len(support) < len(res.pool) and set(support) <= set(res.pool)
    alone = restricted_master(RuleSetProblem(A, y, P, **kw), support)
    assert alone.solve() == pytest.approx(res.lp_objective, rel=1e-9, abs=1e-12)
    # and no clause of the support can be dropped for free: each has w_k > 0
    assert np.all(alone.w_ > 1e-9)


# ------------------------------------------------------------------ stopping on the gap
@pytest.mark.parametrize("complexity, tol", [(9.0, 2.0), (6.0, 1.3)])
def test_a_fit_stopped_on_its_gap_has_a_bound_within_that_gap(complexity, tol):
    """column_generation(tol=...) stops once the restricted LP is within tol of the
    certified bound; the bound is below the LP over *every* clause (the full column set,
    enumerated), so the restricted LP at the stop is within tol of that full optimum.  (The
    Lagrangian bound of this master is loose until pricing nearly converges, hence the
    large tolerances that make the stop come early on this small instance.)"""
    from optirules.models import all_clauses

    A, y, P = cg_data(seed=3, n=200, f=8)
    full = HighsRuleMaster(A, y.astype(int), all_clauses(A, y, 3), sample_weight=P,
                           complexity=complexity)
    z_full = full.solve()
    kw = {"max_degree": 3, "n_columns": 1, "max_iter": 500, "complexity": complexity}
    exact = column_generation(A, y, P, **kw)
    assert exact.converged and exact.lp_objective == pytest.approx(z_full, rel=1e-7)
    res = column_generation(A, y, P, tol=tol, **kw)
    assert res.stop_reason.startswith("gap"), res.stop_reason
    assert not res.converged and len(res.history) < len(exact.history)
    last = res.history[-1]
    assert last["lp_objective"] - last["lp_bound"] <= tol * last["lp_objective"]
    assert last["lp_bound"] <= z_full + 1e-12  # the certificate holds over all clauses
    assert last["lp_objective"] - z_full <= tol * last["lp_objective"]
    assert res.certified and res.lp_bound <= z_full + 1e-12
    # the reported gap bounds the distance of the rule set from any over all clauses
    assert res.ip_objective * (1 - res.gap) <= z_full + 1e-12


def test_tol_is_checked():
    A, y, P = cg_data()
    for bad in (-0.1, float("nan"), "0.1"):
        with pytest.raises(InputError, match="tol must be"):
            column_generation(A, y, P, max_degree=2, tol=bad)


def test_a_spent_time_limit_leaves_no_time_for_the_master_ip():
    """time_limit bounds the whole call: when column generation used it up the master IP
    is not started (it used to get at least one second); the incumbent is the rule set,
    and its objective is the master objective of its clauses."""
    from optirules.models import master_objective

    A, y, P = cg_data(seed=2, n=200, f=8)
    res = column_generation(A, y, P, max_degree=2, lambda0=0.002, lambda1=0.002,
                            time_limit=1e-9)
    assert res.stop_reason == "time_limit"
    assert res.ip_status.startswith("time_limit (no time left for the IP")
    assert res.info["ip_route"] == "incumbent"
    assert res.ip_objective == pytest.approx(
        master_objective(A, y, P, res.clauses, 0.002, 0.002), abs=1e-12)


# ------------------------------------------------------------------ dual smoothing
@pytest.mark.parametrize("form", ["budget", "penalty"])
def test_smoothing_keeps_the_certificate_and_the_optimum(form):
    """Wentges smoothing prices at a mix of the LP duals and the best-bound duals: a fit
    that converges reaches the LP over every clause (enumerated), every bound it records is
    below that optimum, and a fit stopped on its gap is within tol of it."""
    from optirules.models import all_clauses

    A, y, P = cg_data(seed=3, n=200, f=8)
    kw = ({"complexity": 9.0} if form == "budget" else {"lambda0": 0.004, "lambda1": 0.002})
    full = HighsRuleMaster(A, y.astype(int), all_clauses(A, y, 3), sample_weight=P, **kw)
    z_full = full.solve()
    run = dict(max_degree=3, n_columns=2, max_iter=500, pricing="auto", **kw)
    smooth = column_generation(A, y, P, smoothing=0.5, **run)
    assert smooth.converged and smooth.lp_objective == pytest.approx(z_full, rel=1e-7)
    bounds = [h["lp_bound"] for h in smooth.history if np.isfinite(h["lp_bound"])]
    assert bounds and max(bounds) <= z_full + 1e-12
    assert bounds == sorted(bounds)  # the best bound so far never falls
    gap_stop = column_generation(A, y, P, smoothing=0.5, tol=0.05, **run)
    last = gap_stop.history[-1]
    assert last["lp_bound"] <= z_full + 1e-12
    assert gap_stop.lp_objective * (1 - 0.05) <= z_full + 1e-12 or gap_stop.converged


def test_smoothing_is_checked():
    A, y, P = cg_data()
    for bad in (-0.1, 1.0, float("nan"), "0.5"):
        with pytest.raises(InputError, match="smoothing must be"):
            column_generation(A, y, P, max_degree=2, smoothing=bad)


def test_a_warm_lp_past_its_iteration_bound_restarts_cold(monkeypatch):
    """A warm re-solve of the restricted LP that needs more simplex iterations than the
    bound is restarted without a basis: with the bound at one iteration every re-solve
    restarts, and column generation reaches the same LP optimum and rule set."""
    from tests.internals import models_masters_highs_lp_module as rm

    A, y, P = cg_data(seed=4, n=200, f=8)
    kw = {"max_degree": 2, "lambda0": 0.003, "lambda1": 0.003, "master": "dual"}
    plain = column_generation(A, y, P, **kw)
    monkeypatch.setattr(rm, "WARM_ITERATION_FLOOR", 1)
    monkeypatch.setattr(rm, "WARM_ITERATION_FACTOR", 0)
    cold = column_generation(A, y, P, **kw)
    assert cold.converged and plain.converged
    assert cold.lp_objective == pytest.approx(plain.lp_objective, rel=1e-9)
    assert cold.ip_objective == pytest.approx(plain.ip_objective, rel=1e-9)
    master = restricted_master(RuleSetProblem(A, y, P, lambda0=0.003, lambda1=0.003),
                               plain.pool, master="dual")
    master.solve()
    master.add_clauses([])  # no change: the re-solve is warm and takes no iteration
    master.solve()
    assert getattr(master, "cold_restarts_", 0) == 1  # only the first, basis-less solve
