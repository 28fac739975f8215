"""BruteDL's exhaustive search for the conjunction of best Laplace accuracy (after Segal and
Etzioni 1994), and the greedy growth of the ordered list.

Coverage sets are packed ``uint64`` bitsets (:mod:`optirules.learners._bitset`): one per
attribute-value and one per class, restricted to the training rows not yet covered, so a
conjunction's class counts are popcounts of word-wise ANDs.  With row weights (each row
counts as that many repeated rows) a conjunction's class counts are weight sums, counted by
:class:`_WeightedCounter`: weighted popcounts when the rows take few distinct weights, else
per-byte lookup tables.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from .._bitset import _HAS_BITWISE_COUNT, pack_rows, popcount, unpack_rows
from ._stats import laplace_accuracy

__all__ = ["best_conjunction", "grow_decision_list"]


def _row_sum(a: np.ndarray) -> np.ndarray:
    """Row sums of a narrow 2-D array (a column loop: far faster than ``sum(axis=1)``);
    integer counts sum as ``int64``, weighted (float) counts as ``float64``."""
    out = a[:, 0].astype(np.float64 if a.dtype.kind == "f" else np.int64)
    for c in range(1, a.shape[1]):
        out += a[:, c]
    return out


def _row_max(a: np.ndarray) -> np.ndarray:
    """Row maxima of a narrow 2-D array (a column loop)."""
    out = a[:, 0].copy()
    for c in range(1, a.shape[1]):
        np.maximum(out, a[:, c], out=out)
    return out


class _Counter:
    """Class counts of packed coverage sets, with preallocated buffers.

    The total is one popcount; classes ``0..k-2`` are popcounts of ``cover & class``;
    the last class is the total minus the others.
    """

    def __init__(self, class_bits: np.ndarray, n_words: int, buffer_words: int):
        self.class_bits = class_bits
        self.k = class_bits.shape[0]
        rows = max(1, buffer_words // max(1, n_words))
        self.tmp = np.empty((rows, n_words), dtype=np.uint64)
        self.bytes = np.empty((rows, n_words), dtype=np.uint8)
        self.sum_dtype = np.uint16 if 64 * n_words < 65536 else np.int64  # bits per set

    def _popcount(self, words: np.ndarray) -> np.ndarray:
        if _HAS_BITWISE_COUNT:
            out = self.bytes[: words.shape[0]]
            np.bitwise_count(words, out=out)
            if out.shape[1] > 64:
                return np.add.reduce(out, axis=1, dtype=np.int64)
            total = out[:, 0].astype(self.sum_dtype)
            for w in range(1, out.shape[1]):
                total += out[:, w]
            return total
        return popcount(words)  # pragma: no cover - numpy < 2

    def counts(self, covers: np.ndarray) -> np.ndarray:
        m = covers.shape[0]
        out = np.empty((m, self.k), dtype=np.int64)
        rows = self.tmp.shape[0]
        for s in range(0, m, rows):
            e = min(m, s + rows)
            cov = covers[s:e]
            rest = self._popcount(cov).astype(np.int64)
            for cls in range(self.k - 1):
                tmp = self.tmp[: e - s]
                np.bitwise_and(cov, self.class_bits[cls], out=tmp)
                out[s:e, cls] = self._popcount(tmp)
                rest -= out[s:e, cls]
            out[s:e, self.k - 1] = rest
        return out


#: 64-bit words of the work buffer :func:`grow_decision_list` gives :func:`best_conjunction`
BUFFER_WORDS = 1 << 18

#: the weighted counter uses one popcount per (class, weight) group up to this many groups,
#: per-byte lookup tables beyond
MAX_WEIGHT_GROUPS = 24

#: bytes of the lookup tables one gather reads (a block that stays in the CPU cache)
_TABLE_BLOCK_BYTES = 1 << 17

#: largest memory for the lookup tables (``k * 256 * n`` bytes for ``n`` rows); beyond it
#: the covers are unpacked and multiplied with the class weights, in batches
_MAX_TABLE_BYTES = 1 << 27


class _WeightedCounter:
    """Weighted class counts of packed coverage sets: per class, the sum of the weights of
    the rows a set holds (a row of weight ``w`` counts as ``w`` rows).

    When the rows fall into few groups of equal (class, weight) - e.g. ``class_weight``
    alone, or unit weights with a few exceptions - a class count is
    :math:`\\sum_g w_g\\,\\mathrm{popcount}(\\text{cover} \\wedge \\text{group}_g)`.  Otherwise
    each class has a lookup table per byte position of the packed sets (256 entries: the
    weight sum of the rows of that class the byte value selects) and a count is the sum of
    the table entries the cover's bytes pick; on very many rows (tables beyond
    ``_MAX_TABLE_BYTES``) the covers are unpacked and multiplied with the class weights.
    Integer weights give integer sums every way (exact in floating point), hence exactly
    the counts of the repeated rows.
    """

    def __init__(self, class_bits: np.ndarray, weights: np.ndarray, n_words: int,
                 buffer_words: int):
        self.k = k = class_bits.shape[0]
        n = weights.shape[0]
        weights = np.asarray(weights, dtype=np.float64)
        member = unpack_rows(class_bits, n)  # (k, n)
        y = np.argmax(member, axis=0)
        values, w_code = np.unique(weights, return_inverse=True)
        keys, group = np.unique(y * values.size + np.ravel(w_code), return_inverse=True)
        group = np.ravel(group)
        rows = max(1, buffer_words // max(1, n_words))
        self.tmp = np.empty((rows, n_words), dtype=np.uint64)
        self.pop = _Counter(class_bits, n_words, buffer_words)  # its popcount buffers
        if keys.shape[0] > MAX_WEIGHT_GROUPS and k * 256 * 8 * n_words * 8 > _MAX_TABLE_BYTES:
            self.mode = "dense"
            self.n = n
            self.class_weights = np.zeros((n, k))
            self.class_weights[np.arange(n), y] = weights
            self.rows = max(1, buffer_words // max(1, n))
        elif keys.shape[0] <= MAX_WEIGHT_GROUPS:
            self.mode = "groups"
            self.group_bits = pack_rows(group[None, :] == np.arange(keys.shape[0])[:, None])
            self.group_class = keys // values.size
            self.group_weight = values[keys % values.size]
        else:
            self.mode = "tables"
            n_bytes = 8 * n_words
            self.n_bytes = n_bytes
            self.rows = max(1, buffer_words // max(1, n_bytes))
            bits = ((np.arange(256)[:, None] >> np.arange(8)[None, :]) & 1).astype(np.float64)
            w = np.zeros((k, n_bytes * 8))
            w[y, np.arange(n)] = weights
            # tables[c, b * 256 + v]: the weight sum of the rows of class c in byte b that
            # the byte value v selects
            self.tables = (w.reshape(k * n_bytes, 8) @ bits.T).reshape(k, n_bytes * 256)
            # byte positions per gather: a block of a table stays in the CPU cache
            self.block = max(1, _TABLE_BLOCK_BYTES // (256 * 8))
            self.base = (np.arange(self.block, dtype=np.intp) * 256)[None, :]

    def counts(self, covers: np.ndarray) -> np.ndarray:
        m = covers.shape[0]
        out = np.zeros((m, self.k), dtype=np.float64)
        if self.mode == "groups":
            rows = self.tmp.shape[0]
            for s in range(0, m, rows):
                e = min(m, s + rows)
                tmp = self.tmp[: e - s]
                for g in range(self.group_bits.shape[0]):
                    np.bitwise_and(covers[s:e], self.group_bits[g], out=tmp)
                    out[s:e, self.group_class[g]] += (self.group_weight[g]
                                                      * self.pop._popcount(tmp))
            return out
        as_bytes = np.ascontiguousarray(covers).view(np.uint8)
        if self.mode == "dense":
            for s in range(0, m, self.rows):
                e = min(m, s + self.rows)
                bits = np.unpackbits(as_bytes[s:e], axis=1, count=self.n, bitorder="little")
                out[s:e] = bits.astype(np.float64) @ self.class_weights
            return out
        nb, blk = self.n_bytes, self.block
        for s in range(0, m, self.rows):
            e = min(m, s + self.rows)
            for b0 in range(0, nb, blk):
                b1 = min(nb, b0 + blk)
                idx = as_bytes[s:e, b0:b1] + self.base[:, : b1 - b0]
                for c in range(self.k):
                    vals = np.take(self.tables[c, b0 * 256: b1 * 256], idx)
                    out[s:e, c] += np.add.reduce(vals, axis=1)
        return out


class _Best:
    """Running best conjunction under the order (LA desc, coverage desc, depth asc, lex asc).

    Levels are offered in increasing depth, so a full tie with an earlier (shorter)
    conjunction never replaces it; within one level the lexicographically smallest tuple of
    attribute-value indices wins.
    """

    def __init__(self, n_classes: int):
        self.k = n_classes
        self.laplace = -1.0
        self.coverage = -1
        self.conj: tuple[int, ...] | None = None
        self.counts: np.ndarray | None = None

    def update(self, counts: np.ndarray, ok: np.ndarray, conj_of) -> None:
        """Offer candidates; ``conj_of(indices)`` returns their conjunctions (rows)."""
        if not ok.any():
            return
        tot = _row_sum(counts)
        lap = np.where(ok, (_row_max(counts) + 1.0) / (tot + self.k), -1.0)
        top = lap.max()
        if top < self.laplace:
            return
        ties = np.flatnonzero(lap == top)
        cov = tot[ties].max()
        if top == self.laplace and cov < self.coverage:
            return
        ties = ties[tot[ties] == cov]
        conj = np.asarray(conj_of(ties))
        i = int(np.lexsort(conj.T[::-1])[0])
        cand = tuple(int(a) for a in conj[i])
        if (top > self.laplace or cov > self.coverage
                or (len(cand) == len(self.conj) and cand < self.conj)):
            self.laplace = float(top)
            self.coverage = cov.item()  # an int, or a weight sum
            self.conj = cand
            self.counts = counts[ties[i]].copy()


def _walk_levels(
    av_bits: np.ndarray,
    counter: _Counter,
    av_attr: np.ndarray,
    max_degree: int,
    min_coverage: int,
    visit,
    extendable,
    buffer_words: int,
) -> int:
    """Enumerate conjunctions level by level with packed bitsets.

    ``visit(depth, counts, ok, conj_of)`` sees every batch of candidates (``ok``: covers
    ``min_coverage`` rows; ``conj_of(indices)`` builds their attribute-value tuples) and
    ``extendable(counts, ok)`` says which of them are extended to the next level.  Each
    frontier conjunction (grouped by its last attribute) is intersected with every test of
    a later attribute by broadcasting a block of frontier bitsets against the block of
    tests.  Returns the number of candidates evaluated.
    """
    n_av, n_w = av_bits.shape
    counts1 = counter.counts(av_bits)
    n_candidates = n_av
    ok1 = _row_sum(counts1) >= min_coverage
    visit(1, counts1, ok1, lambda idx: np.asarray(idx)[:, None])
    valid = np.flatnonzero(ok1)
    if max_degree <= 1 or valid.size == 0:
        return n_candidates
    keep = extendable(counts1[valid], np.ones(valid.size, dtype=bool))
    f_conj, f_cov = valid[keep][:, None], av_bits[valid[keep]]
    valid_attr = av_attr[valid]
    buf = np.empty(max(buffer_words, n_w * n_av), dtype=np.uint64)
    for depth in range(2, max_degree + 1):
        if f_conj.shape[0] == 0:
            break
        extend = depth < max_degree
        last_attr = av_attr[f_conj[:, -1]]
        order = np.argsort(last_attr, kind="stable")
        bounds = np.flatnonzero(np.diff(last_attr[order])) + 1
        new_conj: list[np.ndarray] = []
        new_cov: list[np.ndarray] = []
        new_counts: list[np.ndarray] = []
        for group in np.split(order, bounds):
            right_ids = valid[np.searchsorted(valid_attr, last_attr[group[0]], side="right"):]
            n_r = right_ids.size
            if n_r == 0:
                continue
            right = av_bits[right_ids]
            step = max(1, buf.size // (n_r * n_w))
            for g0 in range(0, group.size, step):
                parents = group[g0:g0 + step]
                n_p = parents.size
                cov3 = buf[: n_p * n_r * n_w].reshape(n_p, n_r, n_w)
                np.bitwise_and(f_cov[parents][:, None, :], right[None, :, :], out=cov3)
                cov = cov3.reshape(n_p * n_r, n_w)
                counts = counter.counts(cov)
                n_candidates += n_p * n_r
                ok = _row_sum(counts) >= min_coverage

                def conj_of(idx, parents=parents, right_ids=right_ids, n_r=n_r, f_conj=f_conj):
                    idx = np.asarray(idx)
                    return np.column_stack([f_conj[parents[idx // n_r]], right_ids[idx % n_r]])

                visit(depth, counts, ok, conj_of)
                if extend:
                    sv = np.flatnonzero(extendable(counts, ok))
                    if sv.size:
                        new_conj.append(conj_of(sv))
                        new_cov.append(cov[sv].copy())
                        new_counts.append(counts[sv])
        if not extend or not new_conj:
            break
        f_conj = np.concatenate(new_conj)
        f_cov = np.concatenate(new_cov)
        keep = extendable(np.concatenate(new_counts), np.ones(f_conj.shape[0], dtype=bool))
        f_conj, f_cov = f_conj[keep], f_cov[keep]
    return n_candidates


def best_conjunction(
    av_bits: np.ndarray,
    class_bits: np.ndarray,
    av_attr: np.ndarray,
    max_degree: int,
    min_coverage: int = 1,
    *,
    buffer_words: int = BUFFER_WORDS,
    prune: bool = True,
    weights: np.ndarray | None = None,
) -> tuple[tuple[int, ...] | None, np.ndarray | None, float, int]:
    """Exhaustive depth-bounded search for the conjunction of best Laplace accuracy.

    Parameters
    ----------
    av_bits : ndarray of uint64, shape (n_av, W)
        Packed coverage set of every attribute-value test over the candidate rows;
        attribute-values are numbered attribute by attribute (``av_attr`` non-decreasing).
    class_bits : ndarray of uint64, shape (k, W)
        Packed set of the rows of each class.
    av_attr : ndarray of int, shape (n_av,)
        The attribute of each attribute-value test.
    max_degree : int
        Largest number of tests in a conjunction (tests on distinct attributes).
    min_coverage : int
        Smallest number of rows a conjunction must cover.
    buffer_words : int
        Size of the work buffer (uint64 words) for one batch of intersections.
    prune : bool
        Skip extensions that cannot beat the best conjunction found so far (see Notes);
        False evaluates every conjunction (for timing and tests).
    weights : ndarray of float, shape (n,), optional
        Positive weight of each candidate row (in bit order); class counts, coverage and
        ``min_coverage`` are then weight sums (a row of weight ``w`` counts as ``w`` rows)
        and the counts are floats.  None: row counts (integers).

    Returns
    -------
    conj : tuple of int or None
        Attribute-value indices of the best conjunction, increasing (None when none covers
        ``min_coverage`` rows).
    counts : ndarray of shape (k,) or None
        Its class counts.
    laplace : float
        Its Laplace accuracy ``(max_c n_c + 1) / (n + k)``.
    n_candidates : int
        Number of conjunctions whose counts were evaluated.

    Notes
    -----
    Ties are broken by larger coverage, then fewer tests, then the lexicographically
    smallest tuple of attribute-value indices.  A conjunction is extended only if it covers
    ``min_coverage`` rows, is not pure (no specialization of a pure conjunction can beat
    it), and its optimistic bound :math:`(n_{c^*} + 1)/(n_{c^*} + k)` (the best Laplace
    accuracy any specialization can reach, :math:`n_{c^*}` its largest class count) is at
    least the best Laplace accuracy found so far; extensions use only tests that cover
    ``min_coverage`` rows themselves.  This pruning never changes the result.
    """
    k = class_bits.shape[0]
    min_coverage = max(1, int(min_coverage))
    best = _Best(k)
    if weights is None:
        counter = _Counter(class_bits, av_bits.shape[1], buffer_words)
    else:
        counter = _WeightedCounter(class_bits, weights, av_bits.shape[1], buffer_words)

    def visit(depth, counts, ok, conj_of):
        best.update(counts, ok, conj_of)

    def extendable(counts: np.ndarray, ok: np.ndarray) -> np.ndarray:
        if not prune:
            return ok
        top = _row_max(counts)
        bound = (top + 1.0) / (top + k)
        return ok & (top < _row_sum(counts)) & (bound >= best.laplace)

    n_candidates = _walk_levels(av_bits, counter, av_attr, max_degree, min_coverage, visit,
                                extendable, buffer_words)
    return best.conj, best.counts, best.laplace, n_candidates


def grow_decision_list(
    onehot: np.ndarray,
    y: np.ndarray,
    n_classes: int,
    av_attr: np.ndarray,
    max_degree: int,
    min_coverage: int = 1,
    max_rules: int | None = None,
    *,
    progress: Callable[[dict], None] | None = None,
    deadline: float | None = None,
    weights: np.ndarray | None = None,
) -> tuple[list[dict], np.ndarray, str]:
    """BruteDL: grow the ordered list of best-Laplace conjunctions on the uncovered rows.

    Parameters
    ----------
    onehot : ndarray of bool, shape (n_av, n)
        ``onehot[a, i]``: training row ``i`` passes attribute-value test ``a`` (tests
        numbered attribute by attribute, see ``av_attr``).
    y : ndarray of int, shape (n,)
        Classes ``0..k-1``.
    n_classes : int
        ``k``.
    av_attr : ndarray of int, shape (n_av,)
        Attribute of each test (non-decreasing).
    max_degree, min_coverage, max_rules :
        As in :class:`DecisionListClassifier`.
    progress : callable, optional
        Called with each step's dict as soon as its rule is found.
    deadline : float, optional
        A :func:`time.perf_counter` value: once it has passed, no further rule is searched
        (the rule in progress is kept) and ``stop`` is ``"time_limit"``.
    weights : ndarray of float, shape (n,), optional
        Positive row weights (a row of weight ``w`` counts as ``w`` repeated rows): class
        counts, coverage, ``min_coverage`` and the default rule's counts are weight sums.

    Returns
    -------
    steps : list of dict
        Per rule: ``conj`` (attribute-value indices), ``counts``, ``laplace``,
        ``coverage`` (rows, or their weight sum), ``candidates`` and ``seconds``.
    remaining : ndarray of int
        Training rows no rule covers.
    stop : str
        ``"all_covered"``, ``"min_coverage"``, ``"not_better_than_default"`` or
        ``"max_rules"`` or ``"time_limit"``.
    """
    k = int(n_classes)
    n_av, n = onehot.shape
    min_coverage = max(1, int(min_coverage))
    remaining = np.arange(n)
    steps: list[dict] = []
    stop = "all_covered"
    while True:
        if remaining.size == 0:
            stop = "all_covered"
            break
        if max_rules is not None and len(steps) >= max_rules:
            stop = "max_rules"
            break
        if deadline is not None and time.perf_counter() > deadline:
            stop = "time_limit"
            break
        t0 = time.perf_counter()
        yr = y[remaining]
        av_bits = pack_rows(onehot[:, remaining])
        class_bits = pack_rows(yr[None, :] == np.arange(k)[:, None])
        wr = None if weights is None else weights[remaining]
        conj, counts, lap, n_eval = best_conjunction(
            av_bits, class_bits, av_attr, max_degree, min_coverage, buffer_words=BUFFER_WORDS,
            weights=wr)
        if conj is None:
            stop = "min_coverage"
            break
        if lap <= laplace_accuracy(np.bincount(yr, weights=wr, minlength=k), k):
            stop = "not_better_than_default"
            break
        covered = np.all(onehot[np.asarray(conj)][:, remaining], axis=0)
        coverage = int(covered.sum()) if wr is None else float(np.sum(counts))
        steps.append({"conj": conj, "counts": counts, "laplace": float(lap),
                      "coverage": coverage, "candidates": int(n_eval),
                      "seconds": time.perf_counter() - t0})
        if progress is not None:
            progress(steps[-1])
        remaining = remaining[~covered]
    return steps, remaining, stop
