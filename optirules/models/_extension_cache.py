r"""The degree-3 extension sums of exact enumeration pricing, kept from one call to the next.

For a first literal :math:`j` and its partners :math:`S`, the enumeration's degree-3 pass
scores every triple :math:`(j, l, m)` from the matrix
:math:`W_j = A_S^\top \mathrm{diag}(v \odot a_j) A_S` (:func:`block_extensions`), a matrix
product over the rows :math:`j` covers.  :math:`W_j` is linear in the prices :math:`v`,
and in column generation most prices stay put from one call to the next (every label-0
row keeps :math:`v_i = P_i`, and most label-1 rows keep their dual), so

.. math::

    W_j(v') = W_j(v) + A_S^\top \mathrm{diag}((v' - v) \odot a_j) A_S

costs a product over the rows whose price changed instead of every row :math:`j` covers.
:class:`ExtensionCache` holds :math:`W_j` of the first literals of the last degree-3 pass
(over the columns :math:`S` and a column of ones, so that both the plain and the paired
jobs of :meth:`~optirules.models.EnumerationPricer.price` read from it) and the vectors
:math:`v^\top A` over the rows a pair covers (the pass that extends the most promising
pairs), and serves a job whose columns are among those held, brought to the new prices
by the change since the pass that last used it.  The sums are the same up to rounding;
they are computed afresh when at least a quarter of the priced rows changed, after
``_REFRESH`` updates in a row, and for a first literal whose partners are not all held.
The prices of at most ``_VERSIONS`` passes are kept (the matrices of older passes are
dropped).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ._enumeration_blocks import _REFRESH

__all__ = ["ExtensionCache"]

#: most passes whose prices are kept (a held matrix is at the prices of one of them)
_VERSIONS = 3

#: a job of block_extensions: (anchor, columns[, with a column of ones])
Job = tuple


class ExtensionCache:
    """Degree-3 extension sums held between pricing calls, keyed by their anchor.

    Parameters
    ----------
    max_bytes : int
        Most bytes of sums held; a job whose sums would pass it is not held (computed
        afresh at each pass, as without the cache).

    Examples
    --------
    >>> import numpy as np
    >>> from optirules.models._enumeration_blocks import block_extensions
    >>> A = np.array([[1, 1, 1], [1, 0, 1], [1, 1, 0], [0, 1, 1], [1, 1, 1]], dtype=bool)
    >>> def sums(v, jobs):
    ...     return block_extensions(A, v, jobs)
    >>> cache = ExtensionCache(1 << 20)
    >>> job = ((0,), np.array([1, 2]))
    >>> v = np.array([-1.0, 0.5, 0.25, 0.25, -0.5])
    >>> cache.begin(v)
    >>> W0 = cache.sums(v, [job], sums)[0]
    >>> cache.end()
    >>> w = np.array([-1.0, 0.5, 2.0, 0.25, -0.5])     # one row's price changed
    >>> cache.begin(w)
    >>> W1 = cache.sums(w, [job], sums)[0]
    >>> bool(np.allclose(W1, sums(w, [job])[0])), cache.stats["hits"]
    (True, 1)
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = int(max_bytes)
        #: anchor -> (sorted columns or None for a vector, sums, updates since computed
        #: afresh, the pass whose prices they are at)
        self._held: dict[tuple[int, ...], tuple[Any, np.ndarray, int, int]] = {}
        #: pass -> its prices, for the passes some held sums are at
        self._prices: dict[int, np.ndarray] = {}
        self._pass = 0
        self._v: np.ndarray | None = None
        #: pass -> the change of prices since it (None: too many rows changed)
        self._deltas: dict[int, np.ndarray | None] = {}
        self._bytes = 0
        self.stats = {"hits": 0, "misses": 0, "grown": 0, "rows_updated": 0}

    def begin(self, v: np.ndarray) -> None:
        """Start a degree-3 pass at prices ``v``."""
        self._pass += 1
        self._v = np.array(v, dtype=np.float64, copy=True)
        self._deltas = {}

    def end(self) -> None:
        """End the pass: its prices are kept while some held sums are at them, at most
        ``_VERSIONS`` passes' (the sums at older prices are dropped)."""
        if self._v is None:
            return
        self._prices[self._pass] = self._v
        keep = sorted(self._prices)[-_VERSIONS:]
        for anchor in [a for a, h in self._held.items() if h[3] not in keep]:
            self._bytes -= self._held.pop(anchor)[1].nbytes
        used = {h[3] for h in self._held.values()}
        self._prices = {p: x for p, x in self._prices.items() if p in used}
        self._v, self._deltas = None, {}

    def clear(self) -> None:
        """Hold nothing (the next pass computes every sum afresh)."""
        self._held.clear()
        self._prices.clear()
        self._deltas = {}
        self._bytes = 0

    def _delta(self, since: int) -> np.ndarray | None:
        """The change of prices since pass ``since`` (None: a quarter or more of the priced
        rows changed, the sums are then computed afresh)."""
        if since not in self._deltas:
            assert self._v is not None
            delta = self._v - self._prices[since]
            changed = int(np.count_nonzero(delta))
            if changed * 4 > max(int(np.count_nonzero(self._v)), 1):
                self._deltas[since] = None
            else:
                self._deltas[since] = delta
                self.stats["rows_updated"] += changed
        return self._deltas[since]

    def _serves(self, job: Job) -> Any:
        """Where the job's sums sit in the held ones: the positions of its columns,
        ``None`` for a held vector, the columns to add (``("grow", new)``) when adding them
        costs less than a fresh matrix, or ``False`` (not held, or too far from the new prices)."""
        held = self._held.get(job[0])
        if held is None or held[2] >= _REFRESH:
            return False
        if held[3] != self._pass and self._delta(held[3]) is None:
            return False
        cols = job[1]
        if cols is None or held[0] is None:
            return None if cols is None and held[0] is None else False
        pos = np.searchsorted(held[0], cols)
        inside = pos < held[0].size
        inside[inside] = held[0][pos[inside]] == cols[inside]
        if inside.all():
            return pos
        new = np.asarray(cols)[~inside]
        # the new rows cost |new| |held + new| products, a fresh matrix |cols|^2
        worth = new.size * (held[0].size + new.size) < cols.size * cols.size
        return ("grow", new) if worth else False

    def sums(self, v: np.ndarray, jobs: Sequence[Job],
             compute: Callable[[np.ndarray, list[Job]], list[np.ndarray]]) -> list[np.ndarray]:
        """The sums of ``jobs`` at prices ``v`` (those of :meth:`begin`): ``((j,), S)`` or
        ``((j,), T, True)`` (the matrices of a first literal) and ``((a, b), None)`` (the
        vector :math:`v^\top A` over the rows a pair covers); ``compute(prices, jobs)``
        sums jobs over every row block (reduced in block order)."""
        out: list[Any] = [None] * len(jobs)
        fresh: list[int] = []
        hits: list[tuple[int, Any]] = []
        grow: dict[tuple[int, ...], np.ndarray] = {}
        for t, job in enumerate(jobs):
            pos = self._serves(job)
            if pos is False:
                fresh.append(t)
                continue
            if isinstance(pos, tuple):
                grow[job[0]] = np.union1d(grow.get(job[0], pos[1]), pos[1])
            hits.append((t, pos))
        self._to_prices([jobs[t][0] for t, _ in hits], compute)
        if grow:
            self._grow(v, grow, compute)
        for t, pos in hits:
            cols, M = self._held[jobs[t][0]][:2]
            if pos is None:
                out[t] = M.copy()
                continue
            if isinstance(pos, tuple):
                pos = np.searchsorted(cols, jobs[t][1])
            idx = np.append(pos, M.shape[0] - 1) if len(jobs[t]) > 2 else pos
            out[t] = M[np.ix_(idx, idx)]
        self.stats["hits"] += len(hits)
        if fresh:
            full = [_whole(jobs[t][0], jobs[t][1]) for t in fresh]
            for t, job, M in zip(fresh, full, compute(v, full)):
                self._hold(job[0], job[1], M, 0)
                if job[1] is None:
                    out[t] = M.copy()
                else:
                    out[t] = M if len(jobs[t]) > 2 else M[:-1, :-1]
            self.stats["misses"] += len(fresh)
        return out

    def _hold(self, anchor: tuple[int, ...], cols: Any, M: np.ndarray, since: int) -> None:
        """Hold ``M`` for ``anchor`` at this pass's prices when it fits in ``max_bytes``."""
        old = self._held.pop(anchor, None)
        if old is not None:
            self._bytes -= old[1].nbytes
        if self._bytes + M.nbytes <= self.max_bytes:
            self._held[anchor] = (cols, M, since, self._pass)
            self._bytes += M.nbytes

    def _to_prices(self, anchors: list[tuple[int, ...]],
                   compute: Callable[[np.ndarray, list[Job]], list[np.ndarray]]) -> None:
        """Bring the held sums of ``anchors`` to this pass's prices (one map over the row
        blocks per pass they were at, over the rows whose price changed since)."""
        stale: dict[int, list[tuple[int, ...]]] = {}
        for anchor in dict.fromkeys(anchors):
            at = self._held[anchor][3]
            if at != self._pass:
                stale.setdefault(at, []).append(anchor)
        for at, todo in sorted(stale.items()):
            delta = self._delta(at)
            assert delta is not None
            upd = [_whole(a, self._held[a][0]) for a in todo]
            changes = compute(delta, upd) if delta.any() else [0.0] * len(upd)
            for a, dW in zip(todo, changes):
                cols, M, since, _ = self._held[a]
                self._held[a] = (cols, M + dW, since + 1, self._pass)

    def _grow(self, v: np.ndarray, grow: dict[tuple[int, ...], np.ndarray],
              compute: Callable[[np.ndarray, list[Job]], list[np.ndarray]]) -> None:
        r"""Add the columns ``grow[anchor]`` to the held matrices (at this pass's prices):
        only their rows :math:`[A_N, \mathbf{1}]^\top \mathrm{diag}(v) [A_U, \mathbf{1}]`
        are summed, ``U`` the held columns and the new ones ``N``."""
        anchors = list(grow)
        unions = [np.union1d(self._held[a][0], grow[a]) for a in anchors]
        jobs = [(a, (grow[a], U), True) for a, U in zip(anchors, unions)]
        for a, U, X in zip(anchors, unions, compute(v, jobs)):
            cols, M_old, since, _ = self._held[a]
            n = U.size + 1
            old = np.append(np.searchsorted(U, cols), n - 1)
            new = np.searchsorted(U, grow[a])
            M = np.empty((n, n))
            M[np.ix_(old, old)] = M_old
            M[new, :] = X
            M[:, new] = X.T
            self._hold(a, U, M, since)
        self.stats["grown"] += len(anchors)


def _whole(anchor: tuple[int, ...], cols: np.ndarray | None) -> Job:
    """The job whose sums are held for ``anchor``: the vector over every literal, or the
    matrix over ``cols`` and a column of ones."""
    return (anchor, None) if cols is None else (anchor, np.asarray(cols), True)
