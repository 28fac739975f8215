"""The degree-3 pass of exact enumeration pricing (:class:`TriplePass`, a part of
:class:`~optirules.models.EnumerationPricer`): first literals in the order of their best
bound, each extended by its partners whose pair bounds can reach the threshold, scored by
one matrix per first literal (:func:`block_extensions`), the matrices held from one pass to
the next (:class:`~optirules.models._extension_cache.ExtensionCache`)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._clauses import Clause
from ._enumeration_blocks import _FIRST_BATCH, _ROW_ARRAYS, _seed_pairs, block_extensions

__all__ = ["PricingCall", "TriplePass"]


@dataclass(frozen=True)
class PricingCall:
    """One pricing call's state that the degree-3 pass shares with the lower degrees: the
    row sums ``ctx``, the complexity parts ``comp``, how many clauses (``k``, ``extra``),
    the deadline, tolerance and whether a proof is asked for, and the clauses found so far
    with the two closures over them (``consider`` adds, ``kth`` the k-th least value)."""

    ctx: dict[str, Any]
    comp: Sequence[float]
    k: int
    extra: int
    deadline: float | None
    tol: float
    need_proof: bool
    found: dict[Clause, float]
    consider: Callable[[list[Clause], np.ndarray], None]
    kth: Callable[[], float]


class TriplePass:
    """The degree-3 pass of :class:`~optirules.models.EnumerationPricer` (its attributes:
    the blocks, the complement pairs, the conflicts, the held extension sums, the stats)."""

    def _paired_job(self, j: int, part: np.ndarray) -> tuple[tuple, Any]:
        r"""The job extending literal ``j`` by the pairs of ``part`` (``S``), and how to read
        its result.

        Without complement pairs (or when they would not shrink it): ``((j,), S)`` and
        ``None``.  Else ``((j,), T, True)`` over the columns ``T``: those of ``S`` that are not
        the complement of another column of ``S``, plus the partners of those that are; the
        block sums of :math:`[A_T, \mathbf{1}]` then give the matrix over ``S`` as
        :math:`C^\top M C`, where column ``t`` of ``C`` is :math:`e_{y}` for ``y = S[t]`` in
        ``T`` and :math:`\mathbf{1} - e_{b}` for the complement of ``b`` (the coefficient
        ``C`` and ``S`` are returned).  A complement of ``j`` itself stays in ``T`` (its
        column is 0 on the rows ``j`` covers)."""
        if self._pairs is None:
            return ((j,), part), None
        partner = self._partner
        derived = [y for y in part.tolist() if partner[y] >= 0 and partner[y] != j
                   and self._is_comp[y]]
        if not derived:
            return ((j,), part), None
        T = np.unique(np.concatenate([
            np.array([y for y in part.tolist() if y not in set(derived)], dtype=np.intp),
            partner[np.array(derived, dtype=np.intp)]]))
        if T.size >= part.size:
            return ((j,), part), None
        where = {int(t): i for i, t in enumerate(T.tolist())}
        C = np.zeros((T.size + 1, part.size))
        for col, y in enumerate(part.tolist()):
            if y in where:
                C[where[y], col] = 1.0
            else:
                C[where[int(partner[y])], col] = -1.0
                C[T.size, col] = 1.0
        self.stats["paired_jobs"] += 1
        return ((j,), T, True), (C, part)

    def _triple_jobs(self, ctx, comp, batch, everything, keep, score, whole):
        """The extension jobs (with their masks and pair coefficients) of the first literals
        ``batch`` whose kept partners number at most ``whole``; a first literal with more
        partners is scored here (``score``), by blocks of rows of its pair bounds."""
        bounds = comp[3] + self._bound_rows(ctx, np.array(batch), everything)
        jobs, masks, coefs = [], [], []
        for t, j in enumerate(batch):
            bounds[t, : j + 1] = np.inf
            bounds[t, self.conflicts.partners(j)] = np.inf  # no clause holds a pair of them
            part = np.flatnonzero(keep(bounds[t]))
            if part.size < 2:
                continue
            if part.size <= whole:
                mask = keep(comp[3] + self._bound_rows(ctx, part, part))
                mask &= part[None, :] > part[:, None]
                clash = self.conflicts.mask(part, part)
                if clash is not None:
                    mask &= ~clash
                if not mask.any():
                    continue
                job, coef = self._paired_job(j, part)
                jobs.append(job)
                coefs.append(coef)
                masks.append(mask)
                continue
            # many partners: blocks of rows of their pair bounds and scores
            step = max(1, self.max_pair_bytes // (8 * _ROW_ARRAYS * part.size))
            for a in range(0, part.size, step):
                rows = part[a: a + step]
                mask = keep(comp[3] + self._bound_rows(ctx, rows, part))
                mask &= part[None, :] > rows[:, None]
                clash = self.conflicts.mask(rows, part)
                if clash is not None:
                    mask &= ~clash
                if not mask.any():
                    continue
                W = self._reduce(self._blocks.map(block_extensions, ctx["v"],
                                                  [((j,), (rows, part))]))[0]
                self._note_block(W.nbytes + mask.nbytes)
                score(j, rows, part, mask, W)
        return jobs, masks, coefs

    def _degree3(self, call: PricingCall, pas, lower, n_triples):
        """The degree-3 pass (:meth:`_triples`), with the held extension sums brought to
        this call's prices (none kept when it stops on an error)."""
        cache = self._extensions
        if cache is None:
            return self._triples(call, pas, lower, n_triples)
        cache.begin(call.ctx["v"])
        try:
            out = self._triples(call, pas, lower, n_triples)
        except BaseException:
            cache.clear()  # sums part way to the new prices: none is kept
            raise
        cache.end()
        return out

    def _triples(self, call: PricingCall, pas, lower, n_triples):
        ctx, comp, k = call.ctx, call.comp, call.k
        deadline, need_proof = call.deadline, call.need_proof
        consider, found = call.consider, call.found
        n_lit = self.n_lit
        v = ctx["v"]
        self.stats["degree3_passes"] += 1
        # bound of every triple whose smallest literal is j (-> order and time-out bound)
        rowmin = pas["rowmin"]
        if deadline is not None and time.perf_counter() > deadline:
            return min(lower, float(rowmin.min())), False
        # without a proof to give: a first pass extending the most promising pairs by every
        # literal, returned when it finds a negative clause
        pairs = [] if need_proof else _seed_pairs(*pas["seeds"])
        if pairs:
            jobs = [((ja, jb), None) for ja, jb in pairs]
            sums = self._extension_sums(v, jobs)
            for (ja, jb), s in zip(pairs, sums):
                vals = comp[3] + s
                vals[[ja, jb]] = np.inf
                vals[self.conflicts.partners(ja)] = np.inf
                vals[self.conflicts.partners(jb)] = np.inf
                order = np.argsort(vals, kind="stable")[:k]
                clauses = [tuple(sorted((ja, jb, int(m)))) for m in order]
                consider(clauses, vals[order])
                lower = min(lower, float(vals[order[0]]))
        if not need_proof and found:  # the first pass found one: no proof asked for
            return min(lower, pas["min_bound"]), False
        # first literals in the order of their best bound
        firsts = [int(j) for j in np.argsort(rowmin[: n_lit - 2], kind="stable")]
        # partners of one first literal whose bounds and scores (those of a batch of first
        # literals) fit in max_pair_bytes at once
        whole = max(2, math.isqrt(self.max_pair_bytes // (8 * _ROW_ARRAYS * _FIRST_BATCH)))
        lower3, complete, scored = self._extend_firsts(call, firsts, rowmin, whole)
        self.stats["triples_scored"] += scored
        if complete:
            self.stats["triples_pruned"] += n_triples - scored
        if found:
            # every pruned triple has r >= its bound >= a threshold >= the least found value
            lower3 = min(lower3, min(found.values()))
        return min(lower, lower3), complete

    def _extension_sums(self, v: np.ndarray, jobs: list[Any]) -> list[np.ndarray]:
        """The extension jobs' sums at prices ``v`` (from the held matrices when there are)."""
        def compute(prices: np.ndarray, todo: list[Any]) -> list[np.ndarray]:
            return self._reduce(self._blocks.map(block_extensions, prices, todo))

        if self._extensions is None:
            return compute(v, jobs)
        return self._extensions.sums(v, jobs, compute)

    def _extend_firsts(self, call: PricingCall, firsts: list[int], rowmin: np.ndarray, whole: int
                       ) -> tuple[float, bool, int]:
        """Score the triples of the first literals ``firsts`` (in that order) whose bounds
        can reach the threshold; returns the least value seen, whether every first literal
        was done (no deadline) and the count of triples scored."""
        ctx, comp, extra = call.ctx, call.comp, call.extra
        deadline, tol, consider, kth = call.deadline, call.tol, call.consider, call.kth
        v = ctx["v"]
        everything = np.arange(self.n_lit)
        complete, lower3, scored, pos = True, math.inf, 0, 0
        while pos < len(firsts):
            if deadline is not None and time.perf_counter() > deadline:
                lower3 = min(lower3, float(rowmin[firsts[pos:]].min()))
                complete = False
                break
            thr = kth()
            # keep the bounds that can reach the threshold: ties with the k-th value are
            # kept, so the result is the k least by (r, degree, clause) whatever the order
            # (bound exactly 0 at threshold 0 is pruned: r >= 0 then, the proof holds)
            cut = min(-tol, thr)

            def keep(bound: Any, thr: float = thr) -> Any:
                return bound <= thr if thr < 0 else bound < 0

            def score(j: int, rows: np.ndarray, part: np.ndarray, mask: np.ndarray,
                      W: np.ndarray, cut: float = cut) -> None:
                nonlocal scored, lower3
                vals = np.where(mask, comp[3] + W, np.inf)
                scored += int(mask.sum())
                best = float(vals.min())
                lower3 = min(lower3, best)
                if best <= cut:
                    flat = vals.ravel()
                    hit = np.flatnonzero(flat <= cut)
                    if hit.size > extra:  # the extra least, and every tie of the last
                        last = np.partition(flat[hit], extra - 1)[extra - 1]
                        hit = hit[flat[hit] <= last]
                    a, b = np.unravel_index(hit, vals.shape)
                    consider([(j, int(rows[x]), int(part[y])) for x, y in zip(a, b)],
                             flat[hit])

            batch = [j for j in firsts[pos: pos + _FIRST_BATCH] if keep(rowmin[j])]
            pos += _FIRST_BATCH
            if not batch:
                continue
            jobs, masks, coefs = self._triple_jobs(ctx, comp, batch, everything, keep, score,
                                                   whole)
            if not jobs:
                continue
            sums = self._extension_sums(v, jobs)
            for job, coef, mask, W in zip(jobs, coefs, masks, sums):
                j = job[0][0]
                part = job[1] if coef is None else coef[1]
                if coef is not None:  # [A_T, 1] C = A_S
                    W = coef[0].T @ W @ coef[0]
                score(j, part, part, mask, W)
        return lower3, complete, scored
