"""BruteDL lists for a grid of ``min_coverage`` values at one ``max_degree``, from one
shared search (what :class:`~optirules.learners.DecisionListCV` fits on each fold).

``grid_lists`` (:mod:`._shared`, which runs the searches of this module and
of :mod:`._dense`) returns, for every ``min_coverage`` of the grid, exactly
the list
:func:`~optirules.learners._decision_list._search.grow_decision_list` grows - the same
rules, class counts, Laplace accuracies, uncovered rows and stop reason - but shares the
work:

* **One search per distinct list prefix.**  The lists of all ``min_coverage`` values start
  from the same rows and stay in one search while they choose the same rules (each step
  finds the best conjunction of every coverage at once); where they part, the state is
  copied and each part goes on alone.
* **Counts kept up to date.**  The class counts of every test and of every pair of tests
  on distinct attributes (the conjunctions of depth 1 and 2) are counted once on all rows
  and then decreased by the rows each new rule covers, instead of being counted again on
  the rows left at every step.  Only tests that cover ``min(coverages)`` rows of the set
  enter (no other can be part of an eligible conjunction), and a pair no longer covering
  the smallest coverage of a search is dropped from it (it never will again).
* **Depth 3 by pair, with bounds that last.**  A pair's extensions by one test of a later
  attribute are counted only when their bound reaches the best Laplace accuracy known at
  that step (at least the default rule's: a rule must beat it).  The bound is the pair's
  optimistic one, :math:`(n_{c^*} + 1) / (\\max(n_{c^*}, m) + k)` (``m`` the coverage
  needed), and, once the extensions were counted, the best any of them can reach after
  the pair lost at most ``LEVELS[l]`` rows of the other classes, kept per class and
  level; the rows a pair lost since are read from its counts.
* **Every conjunction kept when they are few** (``_dense``): up to
  ``MAX_DENSE_CELLS`` conjunctions, their counts are all kept up to date and a step reads
  them instead of counting.

The choice at each step is the exhaustive search's: the conjunction of best Laplace
accuracy among those covering at least ``min_coverage`` of the rows left, ties broken by
larger coverage, then fewer tests, then the first in attribute/value order, with the same
floating-point values (weighted class counts are summed in the order of
:class:`~optirules.learners._decision_list._search._WeightedCounter`'s weight groups).
Weighted rows are shared when they fall into at most ``MAX_WEIGHT_GROUPS`` groups of equal
(class, weight), the exhaustive search's own exact mode; otherwise, or when the pair table
would exceed ``MAX_PAIR_CELLS``, ``grid_lists`` returns ``None`` and the caller fits each
``min_coverage`` on its own.  Depths above 3 are not shared (``None`` as well).
"""

from __future__ import annotations

import time

import numpy as np

from .._bitset import pack_rows, popcount
from ._search import (
    MAX_WEIGHT_GROUPS,
    _Counter,
    _row_max,
    _row_sum,
    _WeightedCounter,
)
from ._stats import laplace_accuracy

__all__ = ["MAX_PAIR_CELLS", "MAX_SHARED_DEGREE",
           "MAX_DENSE_CELLS", "MAX_DENSE_ENTRIES"]

#: the largest number of cells (pairs of tests on distinct attributes) of the pair table
MAX_PAIR_CELLS = 1 << 22

#: the largest ``max_degree`` the shared search handles
MAX_SHARED_DEGREE = 3

#: up to this many conjunctions (of the useful tests, up to ``max_degree``), and this many
#: (row, set of attributes) entries, the counts of all of them are kept
#: (``_dense``)
MAX_DENSE_CELLS = 1 << 17
MAX_DENSE_ENTRIES = 1 << 22

#: pairs whose bound is within this of the best Laplace accuracy known are extended (a
#: margin for the bounds' single precision and the rounding of weighted counts; it only
#: adds work)
_SLACK = 1e-6

#: uint64 words of one batch of depth-3 intersections
_BUFFER_WORDS = 1 << 18

#: the pairs of highest bound extended first at a step
_FIRST = 64


class _NotShared(Exception):
    """The rows or the grid are outside what the shared search handles."""


class _Rows:
    """What every list of one set of rows shares: the useful tests, the weight groups and
    the layout of the pair table.

    A *useful* test covers at least ``c_min`` rows of the set (their weight sum); useful
    tests are numbered ``u = 0 .. n_u - 1`` in attribute/value order, so their order is the
    exhaustive search's order among tests.  The pairs ``(u, v)``, ``v`` a test of a later
    attribute than ``u``, are numbered in lexicographic order (cell ``i`` is the pair
    ``(p1[i], p2[i])``).
    """

    def __init__(self, codes: np.ndarray, y: np.ndarray, k: int, n_values: np.ndarray,
                 weights: np.ndarray | None, c_min: int, need_pairs: bool):
        n, p = codes.shape
        self.n, self.p, self.k = n, p, k
        self.y = y
        self.weights = weights
        n_values = np.asarray(n_values, dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(n_values)[:-1]]).astype(np.int64)
        av = codes.astype(np.int64) + offsets[None, :]  # test of each row and column
        n_av = int(n_values.sum())
        av_attr = np.repeat(np.arange(p), n_values)
        if weights is None:
            self.lab = y.astype(np.int64)
            self.n_groups = k
            self.group_class = np.arange(k)
            self.group_weight = None
        else:
            values, w_code = np.unique(weights, return_inverse=True)
            keys, lab = np.unique(y * values.size + np.ravel(w_code), return_inverse=True)
            if keys.shape[0] > MAX_WEIGHT_GROUPS:
                raise _NotShared("weights")
            self.lab = np.ravel(lab).astype(np.int64)
            self.n_groups = int(keys.shape[0])
            self.group_class = keys // values.size
            self.group_weight = values[keys % values.size]
        g = self.n_groups
        all_counts = np.bincount((av * g + self.lab[:, None]).ravel(),
                                 minlength=n_av * g).reshape(n_av, g)
        self.uav = np.flatnonzero(_row_sum(self.class_counts(all_counts)) >= c_min)
        n_u = self.uav.size
        self.n_u = n_u
        self.attr = av_attr[self.uav]
        to_u = np.full(n_av, -1, dtype=np.int64)
        to_u[self.uav] = np.arange(n_u)
        self.U = to_u[av]  # (n, p): the useful test of each row and column, -1 if none
        # first useful test of an attribute >= a, for a = 0 .. p
        self.first = np.searchsorted(self.attr, np.arange(p + 1), side="left")
        self.onehot = np.zeros((n_u, n), dtype=bool)
        rows, cols = np.nonzero(self.U >= 0)
        self.onehot[self.U[rows, cols], rows] = True
        self.n2 = 0
        if need_pairs and n_u:
            size = n_u - self.first[self.attr + 1]  # the partners of each test
            self.n2 = int(size.sum())
            if self.n2 > MAX_PAIR_CELLS:
                raise _NotShared("pairs")
            self.base = np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64)
            self.p1 = np.repeat(np.arange(n_u), size)
            self.p2 = (np.arange(self.n2) - self.base[self.p1]
                       + self.first[self.attr + 1][self.p1])

    def class_counts(self, gc: np.ndarray) -> np.ndarray:
        """Class counts from weight-group counts (last axis): the integers themselves for
        unweighted rows, else each class's ``sum_g w_g n_g`` in the groups' order (the
        exhaustive search's floating-point sums)."""
        if self.group_weight is None:
            return gc
        out = np.zeros(gc.shape[:-1] + (self.k,))
        for g in range(self.n_groups):
            out[..., self.group_class[g]] += self.group_weight[g] * gc[..., g]
        return out

    def test_counts(self, rows: np.ndarray) -> np.ndarray:
        """Group counts ``(n_u, G)`` of the useful tests over ``rows``."""
        u = self.U[rows]
        ok = u >= 0
        idx = (u * self.n_groups + self.lab[rows][:, None])[ok]
        return np.bincount(idx, minlength=self.n_u * self.n_groups).reshape(
            self.n_u, self.n_groups)

    def pair_counts(self, rows: np.ndarray, cells: np.ndarray | None = None) -> np.ndarray:
        """Group counts ``(len(cells), G)`` of the pairs ``cells`` (None: every pair) over
        ``rows`` (popcounts of packed sets)."""
        g = self.n_groups
        bits = pack_rows(self.onehot[:, rows])
        gbits = pack_rows(self.lab[rows][None, :] == np.arange(g)[:, None])
        p1, p2 = (self.p1, self.p2) if cells is None else (self.p1[cells], self.p2[cells])
        out = np.empty((p1.size, g), dtype=np.int64)
        step = max(1, _BUFFER_WORDS // bits.shape[1])
        for s in range(0, p1.size, step):
            e = min(p1.size, s + step)
            cov = bits[p1[s:e]] & bits[p2[s:e]]
            for j in range(g):
                out[s:e, j] = popcount(cov & gbits[j])
        return out


def _best(la: np.ndarray, tot: np.ndarray, c: float) -> tuple[int, float, float]:
    """Index, Laplace accuracy and coverage of the best entry covering ``c``: largest
    Laplace accuracy, then largest coverage, then the first; ``(-1, -1, -1)`` if none."""
    lap = np.where(tot >= c, la, -1.0)
    top = lap.max() if lap.size else -1.0
    if top < 0:
        return -1, -1.0, -1.0
    ties = np.flatnonzero(lap == top)
    cov = tot[ties].max()
    i = int(ties[np.argmax(tot[ties] == cov)])
    return i, float(top), cov.item()


class _Node:
    """The state of the lists of some ``min_coverage`` values that chose the same rules so
    far: the rows left, the counts over them and the bounds of the depth-3 search.

    ``alive``: the pairs that still cover the smallest coverage of the node (the others
    never will again), ``t2`` their counts (row ``i`` for pair ``alive[i]``).  ``seen[i]``: pair
    ``i``'s extensions were counted once, when the pair's class counts were ``snap[i]``;
    ``bound[i, j, l]`` is then the best Laplace accuracy an extension predicting class
    ``j`` can reach once the pair has lost at most ``LEVELS[l]`` rows (weight) of the other
    classes since.
    """

    def __init__(self, rem, t1, t2, alive, seen, snap, bound, cols, steps):
        self.rem, self.t1, self.t2, self.alive = rem, t1, t2, alive
        self.seen, self.snap, self.bound = seen, snap, bound
        self.cols = cols  # positions in the grid's coverages, by increasing coverage
        self.steps = steps

    def copy(self, cols: list[int]) -> _Node:
        """A copy for the coverages ``cols``."""
        def cp(a):
            return None if a is None else a.copy()

        return _Node(self.rem.copy(), self.t1.copy(), cp(self.t2), self.alive,
                     cp(self.seen), cp(self.snap), cp(self.bound), cols, list(self.steps))


#: the losses (rows of the other classes) a pair's cached bounds are kept for
LEVELS = np.array([0.0, 3.0, 12.0, np.inf])


class _Search:
    """The lists of every ``min_coverage`` of one ``max_degree`` on one set of rows."""

    def __init__(self, rows: _Rows, degree: int, coverages: list[int],
                 max_rules: int | None, deadline: float | None):
        self.rows = rows
        self.degree = degree
        self.coverages = coverages
        self.max_rules = max_rules
        self.deadline = deadline
        self.k = rows.k

    def root(self) -> _Node:
        r = self.rows
        all_rows = np.arange(r.n)
        t2 = alive = seen = snap = bound = None
        if self.degree >= 2 and r.n2:
            t2 = r.pair_counts(all_rows)
            alive = np.arange(r.n2)
        if self.degree >= 3 and r.n2:
            seen = np.zeros(r.n2, dtype=bool)
            snap = np.zeros((r.n2, self.k))
            bound = np.zeros((r.n2, self.k, LEVELS.size), dtype=np.float32)
        cols = sorted(range(len(self.coverages)), key=lambda i: self.coverages[i])
        return _Node(np.ones(r.n, dtype=bool), r.test_counts(all_rows), t2, alive, seen,
                     snap, bound, cols, [])

    # ------------------------------------------------------------------ one step
    def _decide(self, node: _Node) -> tuple[list, int]:
        """Per coverage of ``node``: ``("stop", reason)`` or ``("rule", conj, laplace)``;
        and the number of conjunctions whose counts were read or counted."""
        r = self.rows
        m = len(node.cols)
        rem_idx = np.flatnonzero(node.rem)
        stop = self._stop(node, rem_idx)
        if stop is not None:
            return [("stop", stop)] * m, 0
        k = self.k
        cs = [self.coverages[i] for i in node.cols]
        c1 = r.class_counts(node.t1)
        tot1 = _row_sum(c1)
        la1 = (_row_max(c1) + 1.0) / (tot1 + k)
        # per coverage, the best of each depth: (laplace, coverage, depth, conj)
        best: list[list] = []
        for c in cs:
            i, la, cov = _best(la1, tot1, c)
            best.append([(la, cov, 1, None if i < 0 else (int(r.uav[i]),))])
        n_looked = r.n_u
        if node.t2 is not None:
            alive = node.alive
            c2 = r.class_counts(node.t2)
            tot2 = _row_sum(c2)
            keep = tot2 >= cs[0]  # a pair below the smallest coverage stays below it
            if not keep.all():
                alive, c2, tot2 = alive[keep], c2[keep], tot2[keep]
                node.alive, node.t2 = alive, node.t2[keep]
            top2 = _row_max(c2)
            la2 = (top2 + 1.0) / (tot2 + k)
            for j, c in enumerate(cs):
                i, la, cov = _best(la2, tot2, c)
                conj = None if i < 0 else (int(r.uav[r.p1[alive[i]]]),
                                           int(r.uav[r.p2[alive[i]]]))
                best[j].append((la, cov, 2, conj))
            n_looked += alive.size
        default_la = self._default_laplace(rem_idx)
        if node.t2 is not None and node.seen is not None:
            n_looked += self._depth3(node, cs, alive, c2, tot2, top2, tot1, rem_idx, best,
                                     default_la)
        out = []
        for j in range(m):
            la, _, _, conj = max(best[j], key=lambda b: (b[0], b[1], -b[2]))
            if conj is None:
                out.append(("stop", "min_coverage"))
            elif la <= default_la:
                out.append(("stop", "not_better_than_default"))
            else:
                out.append(("rule", conj, la))
        return out, n_looked

    def _stop(self, node, rem_idx: np.ndarray) -> str | None:
        """Why every list of ``node`` stops before its next rule, or None."""
        if rem_idx.size == 0:
            return "all_covered"
        if self.max_rules is not None and len(node.steps) >= self.max_rules:
            return "max_rules"
        if self.deadline is not None and time.perf_counter() > self.deadline:
            return "time_limit"
        return None

    def _default_laplace(self, rem_idx: np.ndarray) -> float:
        """The Laplace accuracy of the default rule on the rows left (as the exhaustive
        search computes it)."""
        r = self.rows
        wr = None if r.weights is None else r.weights[rem_idx]
        return laplace_accuracy(np.bincount(r.y[rem_idx], weights=wr, minlength=self.k),
                                self.k)

    def _depth3(self, node: _Node, cs: list[int], alive, c2, tot2, top2, tot1, rem_idx,
                best: list[list], default_la: float) -> int:
        """Append each coverage's best conjunction of depth 3 to ``best``, counting the
        extensions of the pairs whose bound reaches the best Laplace accuracy known (at
        least the default rule's: a rule must beat it, else the list stops whatever the
        best conjunction); the number of extensions counted."""
        r = self.rows
        k = self.k
        m = len(cs)
        lstar = np.array([max([default_la] + [b[0] for b in best[j]]) for j in range(m)])
        # over the pairs alive: the bound of their extensions, per coverage
        ub = np.empty((alive.size, m))
        for j, c in enumerate(cs):
            ub[:, j] = (top2 + 1.0) / (np.maximum(top2, c) + k)
        if node.seen.any():
            np.minimum(ub, self._cached_bound(node, alive, c2)[:, None], out=ub)
        ok = (top2 < tot2)[:, None] & (tot2[:, None] >= np.asarray(cs)[None, :])
        ub[~ok] = -1.0
        pick = np.flatnonzero((ub >= lstar[None, :] - _SLACK).any(axis=1))
        parents = alive[pick]
        # the same by pair (the pairs not alive are never read)
        ub_all = np.empty((r.n2, m))
        ub_all[parents] = ub[pick]
        c2_all = np.empty((r.n2, k))
        c2_all[parents] = c2[pick]
        ub, c2 = ub_all, c2_all
        # per coverage, the best extension: (laplace, coverage, pair, conj)
        found: list = [(-1.0, -1.0, -1, None)] * m
        n_eval = 0
        if parents.size:
            avb = pack_rows(r.onehot[:, rem_idx])
            class_bits = pack_rows(r.y[rem_idx][None, :] == np.arange(k)[:, None])
            if r.weights is None:
                counter = _Counter(class_bits, avb.shape[1], _BUFFER_WORDS)
            else:
                counter = _WeightedCounter(class_bits, r.weights[rem_idx], avb.shape[1],
                                           _BUFFER_WORDS)
            ctx = (node, avb, counter, cs, c2, tot1, lstar, found, ub)
            # the pairs of highest bound first (the best Laplace accuracy known rises),
            # then the others it leaves, by last attribute
            order = np.argsort(-ub[parents].max(axis=1), kind="stable")
            head, rest = parents[order[:_FIRST]], parents[order[_FIRST:]]
            n_eval += self._extend(head, ctx)
            rest = rest[(ub[rest] >= lstar[None, :] - _SLACK).any(axis=1)]
            rest = rest[np.argsort(r.attr[r.p2[rest]], kind="stable")]
            n_eval += self._extend(rest, ctx)
        for j in range(m):
            best[j].append(found[j][:2] + (3, found[j][3]))
        return n_eval

    def _cached_bound(self, node: _Node, cells: np.ndarray, c2: np.ndarray) -> np.ndarray:
        """The bound of the extensions of the pairs ``cells`` (class counts ``c2``) from
        their cache (inf if never counted)."""
        lost = node.snap[cells] - c2  # rows (weight) of each class lost since the count
        lost_all = _row_sum(lost)
        out = np.full(cells.size, -np.inf, dtype=np.float32)
        for j in range(self.k):
            level = np.searchsorted(LEVELS, lost_all - lost[:, j], side="left")
            np.maximum(out, node.bound[cells, j, np.minimum(level, LEVELS.size - 1)], out=out)
        return np.where(node.seen[cells], out, np.inf)

    def _extend(self, ps: np.ndarray, ctx: tuple) -> int:
        """Count the extensions of the pairs ``ps`` by a test of a later attribute, in
        batches: update the pairs' cached bounds and ``found``, each coverage's best
        extension (largest Laplace accuracy, then coverage, then the first pair and test);
        the number of extensions counted."""
        node, avb, counter, cs, c2, tot1, lstar, found, ub = ctx
        r = self.rows
        k = self.k
        n_w = avb.shape[1]
        c_low = min(cs)
        n_eval = 0
        s = 0
        while s < ps.size:
            # a batch extends by the tests after its pairs' first last attribute (those
            # of an attribute not after a pair's own are masked)
            lo = r.first[int(r.attr[r.p2[ps[s]]]) + 1]
            n_r = max(1, int(np.count_nonzero(tot1[lo:] >= c_low)))
            step = max(1, min(_BUFFER_WORDS // (n_r * n_w),
                              _BUFFER_WORDS // (4 * n_r * LEVELS.size)))
            chunk = ps[s:s + step]
            s += chunk.size
            # the best known may have risen since: the pairs it now rules out are skipped
            chunk = chunk[(ub[chunk] >= lstar[None, :] - _SLACK).any(axis=1)]
            if chunk.size == 0:
                continue
            node.seen[chunk] = True
            node.snap[chunk] = c2[chunk]
            lo = r.first[int(r.attr[r.p2[chunk]].min()) + 1]
            right = lo + np.flatnonzero(tot1[lo:] >= c_low)
            if right.size == 0:
                node.bound[chunk] = -1.0
                continue
            a2 = r.attr[r.p2[chunk]]
            later = r.attr[right][None, :] > a2[:, None]
            pb = avb[r.p1[chunk]] & avb[r.p2[chunk]]
            counts = counter.counts((pb[:, None, :] & avb[right][None, :, :]).reshape(-1, n_w))
            n_eval += int(later.sum())
            tot = _row_sum(counts)
            la = ((_row_max(counts) + 1.0) / (tot + k)).reshape(chunk.size, right.size)
            tot = np.where(later, tot.reshape(chunk.size, right.size), -1)
            self._cache(node, chunk, counts.reshape(chunk.size, right.size, k), tot, c_low)
            for j, c in enumerate(cs):
                lap = np.where(tot >= c, la, -1.0)
                top = lap.max(axis=1)
                best = top.max()
                if best < 0 or best < found[j][0]:
                    continue
                ties = np.flatnonzero(top == best)  # the pairs reaching it
                covs = np.where(lap[ties] == best, tot[ties], -1).max(axis=1)
                cov = covs.max().item()
                t = int(ties[covs == cov][np.argmin(chunk[ties[covs == cov]])])
                p = int(chunk[t])
                if (best, cov) < found[j][:2] or ((best, cov) == found[j][:2]
                                                   and p > found[j][2]):
                    continue  # a better extension, or as good of an earlier pair
                col = int(np.flatnonzero((lap[t] == best) & (tot[t] == cov))[0])
                conj = (int(r.uav[r.p1[p]]), int(r.uav[r.p2[p]]), int(r.uav[right[col]]))
                found[j] = (float(best), cov, p, conj)
                lstar[j] = max(lstar[j], float(best))
        return n_eval

    def _cache(self, node: _Node, ps: np.ndarray, counts: np.ndarray, tot: np.ndarray,
               c: int) -> None:
        """The bounds of the extensions of ``ps`` (counts ``(len(ps), n_r, k)``; ``tot``
        -1 where masked) that cover ``c``, per class and level of loss.

        An extension with ``t`` rows of class ``j`` among ``n`` that loses at most ``R``
        rows of the other classes reaches at most
        ``(t + 1) / (max(t + max(n - t - R, 0), c) + k)``, i.e.
        ``(t + 1) / max(n + k - R, max(t, c) + k)``.
        """
        k = self.k
        ok = tot >= c
        size = tot + float(k)
        for j in range(k):
            t = counts[:, :, j]
            num = np.where(ok, t + 1.0, -1.0)
            floor = np.maximum(t, c) + float(k)
            for lv, loss in enumerate(LEVELS):
                den = floor if np.isinf(loss) else np.maximum(size - loss, floor)
                node.bound[ps, j, lv] = (num / den).max(axis=1)

    # ------------------------------------------------------------------ one rule
    def _apply(self, node: _Node, conj: tuple[int, ...], la: float, n_looked: int,
               t0: float) -> None:
        """Append the rule ``conj`` to ``node``'s lists and take the rows it covers out of
        the counts."""
        rows = self._take(node, conj, la, n_looked, t0)
        r = self.rows
        node.t1 -= r.test_counts(rows)
        if node.t2 is not None:
            node.t2 -= r.pair_counts(rows, node.alive)

    def _take(self, node, conj: tuple[int, ...], la: float, n_looked: int,
              t0: float) -> np.ndarray:
        """Append the rule ``conj`` to ``node``'s steps and take the rows it covers out of
        ``node.rem``; those rows."""
        r = self.rows
        covered = node.rem.copy()
        for a in conj:
            covered &= r.onehot[np.searchsorted(r.uav, a)]
        rows = np.flatnonzero(covered)
        counts = r.class_counts(np.bincount(r.lab[rows], minlength=r.n_groups))
        if r.weights is None:
            counts = counts.astype(np.int64)
            coverage: int | float = int(rows.size)
        else:
            coverage = float(np.sum(counts))
        node.steps.append({"conj": conj, "counts": counts, "laplace": float(la),
                           "coverage": coverage, "candidates": int(n_looked),
                           "seconds": time.perf_counter() - t0})
        node.rem[rows] = False
        return rows

    # ------------------------------------------------------------------ all lists
    def run(self) -> list[tuple[list[dict], np.ndarray, str]]:
        """Every coverage's ``(steps, remaining, stop)``, in the order of the grid."""
        results: list = [None] * len(self.coverages)
        stack = [self.root()]
        while stack:
            node = stack.pop()
            while True:
                t0 = time.perf_counter()
                decisions, n_looked = self._decide(node)
                groups: dict = {}
                for pos, d in enumerate(decisions):
                    if d[0] == "stop":
                        results[node.cols[pos]] = (list(node.steps),
                                                   np.flatnonzero(node.rem), d[1])
                    else:
                        groups.setdefault(d[1], []).append(pos)
                if not groups:
                    break
                parts = list(groups.items())
                for conj, pos in parts[:-1]:  # lists that part: each goes on alone
                    child = node.copy([node.cols[i] for i in pos])
                    self._apply(child, conj, decisions[pos[0]][2], n_looked, t0)
                    stack.append(child)
                conj, pos = parts[-1]
                node.cols = [node.cols[i] for i in pos]
                self._apply(node, conj, decisions[pos[0]][2], n_looked, t0)
        return results
