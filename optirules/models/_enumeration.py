r"""Exact pricing of rule-set clauses (at most 3 literals) by bound-pruned enumeration."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

import numpy as np

from ..errors import InputError
from ._clauses import Clause

__all__ = ["enumerate_pricing", "RC_TOL"]

#: a column enters the master only if its reduced cost is below -RC_TOL
RC_TOL = 1e-9


def enumerate_pricing(A: np.ndarray, v: np.ndarray, comp: Sequence[float], max_degree: int, *,
                      k: int = 10, pool: set[Clause] | frozenset = frozenset(),
                      deadline: float | None = None, need_proof: bool = True,
                      tol: float = RC_TOL) -> tuple[list[tuple[Clause, float]], float, bool]:
    r"""Exact pricing for clauses of at most 3 literals by (pruned) enumeration.

    Every clause's reduced cost is :math:`r(k) = \mathrm{comp}_{|k|} + \sum_{i:\,k \ni i} v_i`
    (``v`` the row prices of :func:`~optirules.models.row_prices`, ``comp`` the
    complexity part :func:`~optirules.models.complexity_costs` by degree).  Degree 1
    is :math:`v^\top A`, degree 2 the upper triangle of :math:`A^\top \mathrm{diag}(v) A`
    (all pairs in one matrix product).  Degree 3 uses the bound

    .. math::

        r(j, l, m) \ge \beta_{jl} := \mathrm{comp}_3 + \sum_{i:\ A_{ij} A_{il} = 1}
            \min(v_i, 0)

    (extending a clause can only drop rows), so a triple can beat a threshold only if all
    three of its pairs do; for each first literal ``j`` the surviving partners are scored
    together by one matrix product over the rows ``j`` covers.  The threshold is 0 (the
    proof that no clause has :math:`r < 0`), lowered to the ``k``-th best reduced cost found
    once ``k`` new negative clauses are known.  Rows with :math:`v_i = 0` are skipped.

    Parameters
    ----------
    A : bool array of shape (N, L)
        Literal matrix.
    v : array of shape (N,)
        Row prices.
    comp : sequence of float
        ``comp[d]`` is the complexity part of the reduced cost of a degree-``d`` clause
        (index 0 unused).
    max_degree : int
        1, 2 or 3.
    k : int, default 10
        Number of new clauses to return.
    pool : set of clauses
        Clauses already in the master (never returned; still counted in the bound).
    deadline : float, optional
        ``time.perf_counter()`` value after which the degree-3 pass stops; the bound then
        uses :math:`\beta` of the unexplored pairs.
    need_proof : bool, default True
        If False and degrees 1-2 already give a new negative clause, skip degree 3 (the
        bound then uses :math:`\min \beta`).
    tol : float
        A clause is returned only if :math:`r < -\mathrm{tol}`.

    Returns
    -------
    columns : list of (clause, reduced cost)
        Up to ``k`` new clauses with :math:`r < -\mathrm{tol}`, best first.
    lower_bound : float
        A proven lower bound on :math:`\min(0, \min_k r(k))` over all clauses of degree at
        most ``max_degree``; exact (the minimum) when ``complete``.
    complete : bool
        Whether every clause was accounted for exactly (no time-out, no skipped pass).
    """
    if max_degree > 3:
        raise InputError("enumerate_pricing handles clauses of at most 3 literals; use the "
                         "pricing MILP (exact_method='milp') for larger max_degree.")
    n_lit = A.shape[1]
    rows = np.flatnonzero(v != 0.0)
    found: dict[Clause, float] = {}

    def consider(clauses: list[Clause], values: np.ndarray) -> None:
        for c, r in zip(clauses, values.tolist()):
            if r < -tol and c not in pool:
                found[c] = r

    def kth() -> float:
        if len(found) < k:
            return 0.0
        return float(np.partition(np.fromiter(found.values(), float), k - 1)[k - 1])

    if rows.size == 0:  # every clause has r = comp >= 0
        return [], min(0.0, float(min(comp[1:max_degree + 1]))), True
    Af = A[rows].astype(np.float64)
    vr = v[rows]
    # ---- degree 1
    r1 = comp[1] + vr @ Af
    lower = float(r1.min())
    order = np.argsort(r1, kind="stable")[: k + len(pool)]
    consider([(int(j),) for j in order], r1[order])
    iu = None
    if max_degree >= 2 and n_lit >= 2:
        G = Af.T @ (Af * vr[:, None])
        iu = np.triu_indices(n_lit, 1)
        r2 = comp[2] + G[iu]
        lower = min(lower, float(r2.min()))
        take = min(r2.size, k + len(pool))
        idx = np.argpartition(r2, take - 1)[:take] if take < r2.size else np.arange(r2.size)
        idx = idx[np.argsort(r2[idx], kind="stable")]
        consider([(int(iu[0][t]), int(iu[1][t])) for t in idx], r2[idx])
    complete = True
    if max_degree >= 3 and n_lit >= 3:
        neg = vr < 0
        An = Af[neg]
        B = comp[3] + An.T @ (An * vr[neg][:, None])  # beta_{jl}
        np.fill_diagonal(B, np.inf)
        if not need_proof and not found:
            # a cheap pass first: extend the most promising pairs by every literal
            pairs = _best_pairs(r2_full=comp[2] + G, B=B, iu=iu, n=max(4 * k, 40))
            for ja, jb in pairs:
                cov = (Af[:, ja] > 0) & (Af[:, jb] > 0)
                vals = comp[3] + vr[cov] @ Af[cov]
                vals[[ja, jb]] = np.inf
                order = np.argsort(vals, kind="stable")[: k]
                consider([tuple(sorted((int(ja), int(jb), int(m)))) for m in order],
                         vals[order])
        if not need_proof and found:
            lower = min(lower, float(B[iu].min()))
            complete = False
        else:
            lower3 = math.inf
            for j in range(n_lit - 2):
                thr = kth()
                if deadline is not None and time.perf_counter() > deadline:
                    rest = B[j:, :][np.triu(np.ones((n_lit - j, n_lit), bool), j + 1)]
                    lower3 = min(lower3, float(rest.min()) if rest.size else math.inf)
                    complete = False
                    break
                part = np.flatnonzero(B[j, j + 1:] < thr) + j + 1
                if part.size < 2:
                    continue
                cov = Af[:, j] > 0
                As = Af[np.ix_(cov, part)]
                W = comp[3] + As.T @ (As * vr[cov][:, None])
                mask = B[np.ix_(part, part)] < thr
                mask &= np.triu(np.ones((part.size, part.size), bool), 1)
                vals = np.where(mask, W, np.inf)
                best = float(vals.min())
                if best < lower3:
                    lower3 = best
                if best < -tol:
                    hit = np.flatnonzero(vals.ravel() < min(-tol, thr))
                    if hit.size > k + len(pool):
                        hit = hit[np.argpartition(vals.ravel()[hit], k + len(pool) - 1)
                                  [: k + len(pool)]]
                    a, b = np.unravel_index(hit, vals.shape)
                    consider([(j, int(part[x]), int(part[y])) for x, y in zip(a, b)],
                             vals.ravel()[hit])
            lower = min(lower, lower3)
    ranked = sorted(found.items(), key=lambda kv: (kv[1], len(kv[0]), kv[0]))[:k]
    return [(c, float(r)) for c, r in ranked], min(0.0, lower), complete


def _best_pairs(r2_full: np.ndarray, B: np.ndarray, iu: tuple[np.ndarray, np.ndarray],
                n: int) -> list[tuple[int, int]]:
    """The ``n`` pairs of least reduced cost and the ``n`` of least bound (seeds of the
    degree-3 heuristic)."""
    r2 = r2_full[iu]
    b = B[iu]
    out: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for score in (r2, b):
        take = min(n, score.size)
        idx = np.argpartition(score, take - 1)[:take]
        for t in idx[np.argsort(score[idx], kind="stable")]:
            pair = (int(iu[0][t]), int(iu[1][t]))
            if pair not in seen and b[t] < 0:
                seen.add(pair)
                out.append(pair)
    return out
