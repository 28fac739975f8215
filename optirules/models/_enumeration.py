r"""Exact pricing of rule-set clauses (at most 3 literals) by bound-pruned enumeration.

:class:`EnumerationPricer` is prepared once per column-generation run (the literal matrix
split into row blocks, views of the boolean matrix, the blocks of pairs) and
prices every iteration's row prices with it; :func:`enumerate_pricing` is the one-call form.
The pairs of literals are scored by blocks of rows of their sums, so the memory of a call
is bounded (``max_pair_bytes``) and does not grow with the square of the literals.
Every reduced cost is a sum over rows, so the work is a map over row blocks and a reduce
(sum) of the blocks' partial sums, done in block order; the ``"dask"`` backend maps the
blocks on a ``dask.distributed`` client (blocks stored there as packed bits) and reduces in
the same order, so it returns the same numbers as the local backend.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..errors import InputError
from ._clauses import Clause
from ._conflicts import ConflictIndex
from ._enumeration_blocks import (
    _BLOCK_BYTES,
    _BLOCK_ENTRIES,
    _FLOAT_CACHE_BYTES,
    _PAIR_BYTES,
    _REFRESH,
    _ROW_ARRAYS,
    _ULPS,
    BACKENDS,
    RC_TOL,
    _add,
    _below,
    _common_ratio,
    _DaskBlocks,
    _Least,
    _LocalBlocks,
    _mask,
    _quadrant,
    blas_threads,
    block_cross,
    block_moments_delta,
    check_backend,
    complement_pairs,
    dask_client,
)
from ._enumeration_triples import PricingCall, TriplePass
from ._extension_cache import ExtensionCache

__all__ = ["enumerate_pricing", "EnumerationPricer", "RC_TOL", "BACKENDS", "blas_threads",
           "complement_pairs", "check_backend"]

#: the screen's probe: the pairs of this many kept literals (those of least bound) give a
#: threshold that cuts the others (EnumerationPricer, ``screen``)
_PROBE_LITERALS = 2048

#: the screen keeps a literal whose bound exceeds the threshold by at most this: a clause
#: whose reduced cost equals its literal's bound (it covers that literal's rows of negative
#: price and no other row of positive price) is kept whatever the rounding of the two sums
_SCREEN_SLACK = 1e-12


# ===================================================================== the pricer
class EnumerationPricer(TriplePass):
    r"""Exact pricing for clauses of at most 3 literals, prepared for one literal matrix.

    Every clause's reduced cost is :math:`r(k) = \mathrm{comp}_{|k|} + \sum_{i:\,k \ni i} v_i`
    (``v`` the row prices of :func:`~optirules.models.row_prices`, ``comp`` the
    complexity part :func:`~optirules.models.complexity_costs` by degree).  Degree 1
    is :math:`v^\top A`, degree 2 the upper triangle of :math:`A^\top \mathrm{diag}(v) A`,
    computed and scored by blocks of its rows (first literals), each block's arrays within
    ``max_pair_bytes``; only the best pairs found so far and each first literal's least
    degree-3 bound are kept from one block to the next.  Degree 3 uses the bound

    .. math::

        r(j, l, m) \ge \beta_{jl} := \mathrm{comp}_3 + \sum_{i:\ A_{ij} A_{il} = 1}
            \min(v_i, 0)

    (extending a clause can only drop rows), so a triple can beat a threshold only if all
    three of its pairs do; for each first literal ``j`` the surviving partners are scored
    together by one matrix product over the rows ``j`` covers (by blocks of partners when
    their bounds and scores would take more than ``max_pair_bytes``).  The threshold is 0 (the
    proof that no clause has :math:`r < 0`), lowered to the ``k``-th best reduced cost found
    once ``k`` new negative clauses are known; first literals are taken in the order of their
    best bound.  Without a proof to give (``need_proof=False``) a first pass extends the most
    promising pairs by every literal and stops there when it finds a negative clause.  Rows
    with :math:`v_i = 0` are skipped.

    Everything that does not change between the calls of one column-generation run is
    prepared here once: the row blocks (``block_rows`` rows each, views of the boolean
    matrix: each kernel gathers the rows and columns it multiplies and converts only those
    to float64, so no float64 copy of the matrix is made), the blocks of
    pairs and, for ``backend="dask"``, the blocks scattered to the workers as packed bits
    (one bit per entry).  ``stats`` counts the work (``triples_scored``: triples whose
    reduced cost was computed; ``triples_pruned``: those the bound excluded;
    ``paired_jobs``: degree-3 extensions summed over fewer columns thanks to complement
    pairs; ``pair_blocks``: blocks of pairs scored; ``pair_block_bytes``: the largest
    block's pair arrays, at most ``max_pair_bytes``; ``screened_calls``: calls whose pairs
    and triples were scored over the literals the screen kept; ``literals_screened``: the
    literals it dropped, summed over the calls; ``seconds``).

    Parameters
    ----------
    literals : bool array of shape (N, L)
        Literal matrix :math:`A`.
    block_rows : int, optional
        Rows per block; default :math:`2^{26} / (8 L)` (a block of float64 within
        :math:`2^{26}` bytes).
    backend : {"local", "dask"} or dask.distributed.Client, default "local"
        Where the blocks are priced: in this process, or mapped on the current (or the
        given) ``dask.distributed`` client and reduced here in block order (the same
        numbers as ``"local"``).
    blas_threads : int or None, default 1
        Threads of numpy's BLAS during a pricing call (``blas_threads``); ``None``
        leaves the BLAS as it is.
    float_cache_bytes : int, default 0 (bytes)
        Largest float64 copy of the matrix kept for the row blocks; above it (by default
        always) the boolean matrix is used as given: the kernels gather from it and convert
        what they gathered, which is faster than gathering from float64 and gives the same
        numbers.
    paired : bool, default True
        Where a literal's complement is also a column (a binarizer's ``x <= t`` and
        ``x > t``, or ``[X, 1 - X]``; ``complement_pairs``), compute the degree-1 and
        degree-2 sums (and the degree-3 pair bounds) over the other columns only and derive
        the complements' (:math:`v^\top A_c = \sum_i v_i - v^\top A_b` and likewise for
        pairs): a quarter of the matrix product when every column is paired.  The same
        numbers up to rounding (tested against ``paired=False`` and brute force).
    incremental : bool, default True
        The degree-1 and degree-2 sums (and the degree-3 pair bounds) are linear in the
        prices, so a call sums only over the rows whose price changed since the previous
        call (:math:`\Delta v`) and adds that to the previous call's sums.  In column
        generation most rows keep their price between iterations: the label-0 rows
        (:math:`v_i = P_i` whatever the duals) and the label-1 rows whose dual did not move
        (on adult nearly all of them: docs/user_guide/models.md).  When most prices changed
        (a new pmf), the previous sums are scaled by the most common ratio of new to old
        prices, and only the rows off that ratio are summed (a DRO member's worst-case pmf
        gives every correctly classified row one weight, so those rows keep one ratio from
        one member to the next).  The sums are computed afresh
        when at least as many rows changed as have a price, at a higher degree than
        before, and after 200 calls in a row (bounding the rounding that the differences
        add).  The same numbers up to rounding (tested against ``incremental=False`` and
        brute force); ``stats["incremental_calls"]`` counts the calls that used it.  The
        pair sums are kept for this only when they fit in ``max_pair_bytes``.  The degree-3
        pass's matrices (one per first literal) and the vectors of its most promising pairs
        are kept from one pass to the next in the same way, in at most another
        ``max_pair_bytes`` (``extension_stats``: hits, misses, matrices grown by new
        partners, rows summed for the changes; ``optirules.models._extension_cache``).
    max_pair_bytes : int, default 2**28 (256 MB)
        Bound on the bytes of pair sums held at once.  When the sums of all pairs (of the
        base columns, one of each complement pair; with the degree-3 bounds, twice that)
        fit, they are computed in one matrix per row block and kept between calls; else
        each call computes them by blocks of rows (``block_cross``) and scores each
        block in turn.  Larger blocks go faster; the clauses, reduced costs and bounds are
        the same up to rounding whatever the blocks (ties broken by the clause, tested
        against brute force with one row per block).
    conflicts : array of shape (m, 2), optional
        Pairs of literals no clause holds together
        (``conflicts`` of :class:`~optirules.models.RuleSetProblem`): no clause holding one is
        scored, returned or counted in the bound, which is then over the other clauses.
    screen : bool or "auto", default "auto"
        Score the pairs and triples only over the literals that can be in a clause with a
        negative reduced cost among the ``k`` returned.  A clause :math:`c` of two or more
        literals that holds literal ``j`` covers a subset of the rows ``j`` covers, so
        :math:`r(c) \ge \min_{d \ge 2} \mathrm{comp}_d + \sum_{i:\ A_{ij} = 1}
        \min(v_i, 0)`, and a literal whose right-hand side is at least 0 is in no such
        clause; nor is one above the ``k``-th least reduced cost of the single literals,
        when ``k`` of them are negative, or, when more than 2048 literals are kept, above
        the ``k``-th least reduced cost of the clauses of at most two of the 2048 kept
        literals of least right-hand side (a probe scored first).  The pairs and triples
        are enumerated (by a pricer over the kept columns, with their complement pairs and
        conflicts) among the others, and the bound and the proof still cover every clause.
        ``"auto"``: where the pair sums do not fit in ``max_pair_bytes`` (a table of many
        literals, for which the enumeration of every pair is the work of the call), the
        backend is local and the kept columns take at most ``max_pair_bytes`` bytes as
        booleans.  The clauses and bounds are those of the unscreened enumeration up to
        rounding (tested against ``screen=False``), except at degree 3 without a proof
        asked for (``need_proof=False``), whose first pass extends the most promising pairs
        of the kept literals only: it may return other clauses of negative reduced cost
        (the bound stays valid).
    """

    def __init__(self, literals: np.ndarray, *, block_rows: int | None = None,
                 backend: Any = "local", blas_threads: int | None = 1,
                 float_cache_bytes: int = _FLOAT_CACHE_BYTES, paired: bool = True,
                 incremental: bool = True, max_pair_bytes: int = _PAIR_BYTES,
                 conflicts: Any = None, screen: bool | str = "auto") -> None:
        A = np.ascontiguousarray(literals, dtype=bool)
        if A.ndim != 2:
            raise InputError(f"the literal matrix must be 2-D, got shape {A.shape}.")
        self.n_rows, self.n_lit = A.shape
        self.conflicts = ConflictIndex(conflicts, self.n_lit)
        self.incremental = bool(incremental)
        #: the previous call's prices, their negative parts, its sums, degree and the
        #: incremental calls since the sums were computed afresh
        self._held: dict[str, Any] | None = None
        if block_rows is None:
            block_rows = max(1024, _BLOCK_BYTES // (8 * max(self.n_lit, 1)))
        if isinstance(block_rows, bool) or not isinstance(block_rows, (int, np.integer)) \
                or block_rows < 1:
            raise InputError(f"block_rows must be an integer >= 1, got {block_rows!r}.")
        self.block_rows = int(block_rows)
        self.blas_threads = blas_threads
        slices = [slice(s, min(s + self.block_rows, self.n_rows))
                  for s in range(0, max(self.n_rows, 1), self.block_rows)]
        check_backend(backend)
        if not (isinstance(screen, bool) or screen == "auto"):
            raise InputError(f"screen must be True, False or 'auto', got {screen!r}.")
        self.screen = screen
        #: the boolean matrix, for the screened literals' pricer (local backend only)
        self._A: np.ndarray | None = None
        if backend is None or (isinstance(backend, str) and backend == "local"):
            self.backend = "local"
            self._blocks: Any = _LocalBlocks(A, slices, float_cache_bytes)
            self._A = A
        else:
            self.backend = "dask"
            self._blocks = _DaskBlocks(A, slices, dask_client(backend))
        # columns that come with their complements (a binarizer's x <= t and x > t, or
        # [X, 1 - X]): the moments over one column of each pair give all of them, a quarter
        # of the matrix product (_quadrant, _rows)
        self._pairs = complement_pairs(A) if paired else None
        if isinstance(max_pair_bytes, bool) or not isinstance(max_pair_bytes, (int, np.integer)) \
                or max_pair_bytes < 1:
            raise InputError(f"max_pair_bytes must be an integer >= 1 (bytes of the pair sums "
                             f"held at once), got {max_pair_bytes!r}; the default is "
                             f"{_PAIR_BYTES} (256 MB).")
        self.max_pair_bytes = int(max_pair_bytes)
        #: the degree-3 extension sums of the last pass, updated by the prices' change
        self._extensions = ExtensionCache(self.max_pair_bytes) if self.incremental else None
        self._setup_pair_blocks()
        self.stats = {"calls": 0, "seconds": 0.0, "rows_priced": 0, "pairs_scored": 0,
                      "triples_scored": 0, "triples_pruned": 0, "degree3_passes": 0,
                      "paired_jobs": 0, "incremental_calls": 0, "pair_blocks": 0,
                      "pair_block_bytes": 0, "screened_calls": 0, "literals_screened": 0}

    def _setup_pair_blocks(self) -> None:
        """Each literal's base column (itself, or the column it is the complement of) and the
        blocks of base columns whose literals' pairs are scored together."""
        n_lit = self.n_lit
        self._is_comp = np.zeros(n_lit, dtype=bool)
        if self._pairs is None:
            self._base = None
            self._bpos = np.arange(n_lit, dtype=np.intp)
        else:
            base, comp_cols, q = self._pairs
            self._base = base
            self._bpos = np.empty(n_lit, dtype=np.intp)
            self._bpos[base] = np.arange(base.size)
            self._bpos[comp_cols] = q
            self._is_comp[comp_cols] = True
            self._partner = np.full(n_lit, -1, dtype=np.intp)
            self._partner[comp_cols], self._partner[base[q]] = base[q], comp_cols
        self._n_base = n_lit if self._pairs is None else int(self._pairs[0].size)
        # the least base column of the literals from j on: the columns a block starting at
        # literal j - 1 pairs with
        self._suffix_base = (np.minimum.accumulate(self._bpos[::-1])[::-1]
                             if n_lit else self._bpos)
        # each base column's literal and its complement's (n_lit as a row, -1 as a column
        # when it has none); pairs are scored by blocks of base columns
        nb = self._n_base
        self._lit_b = np.arange(n_lit) if self._pairs is None else self._pairs[0]
        comp_lit = np.full(nb, -1, dtype=np.intp)
        if self._pairs is not None:
            comp_lit[self._pairs[2]] = self._pairs[1]
        self._lit_c_col = comp_lit
        self._lit_c_row = np.where(comp_lit < 0, n_lit, comp_lit)
        self._mono_c = bool((np.diff(comp_lit) >= 0).all())
        # base rows per block: _ROW_ARRAYS float64 arrays of (rows x base columns) within
        # max_pair_bytes, each at most _BLOCK_ENTRIES entries
        per = self.max_pair_bytes // (8 * _ROW_ARRAYS * max(nb, 1))
        self._block_base = int(max(1, min(per, _BLOCK_ENTRIES // max(nb, 1))))

    @property
    def n_blocks(self) -> int:
        """Number of row blocks."""
        return len(self._blocks.slices)

    @property
    def extension_stats(self) -> dict[str, int]:
        """The held degree-3 sums' counts (``hits``, ``misses``, ``grown``,
        ``rows_updated``); all 0 without ``incremental``."""
        if self._extensions is None:
            return {"hits": 0, "misses": 0, "grown": 0, "rows_updated": 0}
        return dict(self._extensions.stats)

    def close(self) -> None:
        """Release the blocks (on a dask backend: the workers' copies)."""
        self._blocks.close()

    def _reduce(self, parts: Iterable[Any]) -> Any:
        """Sum the blocks' partial results in block order (holding one block's at a time
        besides the sum)."""
        parts = iter(parts)
        acc = next(parts)
        for p in parts:  # in place: the blocks' results are their own arrays
            acc = [None if a is None else _add(a, b) for a, b in zip(acc, p)]
        return acc

    # ------------------------------------------------------------------ pricing
    def price(self, v: np.ndarray, comp: Sequence[float], max_degree: int, *, k: int = 10,
              pool: set[Clause] | frozenset = frozenset(), deadline: float | None = None,
              need_proof: bool = True, tol: float = RC_TOL
              ) -> tuple[list[tuple[Clause, float]], float, bool]:
        """Price the row prices ``v``; arguments and result as :func:`enumerate_pricing`.

        Parameters
        ----------
        v : array of shape (N,)
            Row prices.
        comp : sequence of float
            ``comp[d]``: complexity part of the reduced cost of a degree-``d`` clause.
        max_degree : int
            1, 2 or 3.
        k : int, default 10
            Number of new clauses to return.
        pool : set of clauses
            Clauses already in the master (never returned).
        deadline : float, optional
            ``time.perf_counter()`` value after which the degree-3 pass stops.
        need_proof : bool, default True
            If False and degrees 1-2 already give a new negative clause, skip degree 3.
        tol : float
            A clause is returned only if its reduced cost is below ``-tol``.

        Returns
        -------
        columns : list of (clause, reduced cost)
            Up to ``k`` new clauses with a negative reduced cost, best first.
        lower_bound : float
            A proven lower bound on the least reduced cost (and 0).
        complete : bool
            Whether every clause was accounted for exactly.
        """
        if max_degree > 3:
            raise InputError("enumerate_pricing handles clauses of at most 3 literals; use the "
                             "pricing MILP (exact_method='milp') for larger max_degree.")
        v = np.asarray(v, dtype=np.float64).reshape(-1)
        if v.shape[0] != self.n_rows:
            raise InputError(f"v has {v.shape[0]} entries for {self.n_rows} rows.")
        t0 = time.perf_counter()
        self._blocks.begin(v)
        try:
            with blas_threads(self.blas_threads):
                return self._price(v, comp, max_degree, k, pool, deadline, need_proof, tol)
        finally:
            self._blocks.end()
            self.stats["calls"] += 1
            self.stats["seconds"] += time.perf_counter() - t0

    def _price(self, v, comp, max_degree, k, pool, deadline, need_proof, tol):
        n_lit = self.n_lit
        found: dict[Clause, float] = {}
        extra = k + len(pool)

        def consider(clauses: list[Clause], values: np.ndarray) -> None:
            for c, r in zip(clauses, values.tolist()):
                if r < -tol and c not in pool:
                    found[c] = r

        def kth() -> float:
            if len(found) < k:
                return 0.0
            return float(np.partition(np.fromiter(found.values(), float), k - 1)[k - 1])

        if not (v != 0.0).any():  # every clause has r = comp >= 0
            return [], min(0.0, float(min(comp[1:max_degree + 1]))), True
        deg = min(max_degree, 3)
        ctx, held, n_nz = self._context(v, deg)
        self.stats["rows_priced"] += int(n_nz)
        # ---- degree 1
        r1 = comp[1] + ctx["r1"]
        lower = float(r1.min())
        order = np.argsort(r1, kind="stable")[:extra]
        consider([(int(j),) for j in order], r1[order])
        complete = True
        # ---- degrees 2 and 3: over every literal, or over those the screen keeps
        pricer, note = self, consider
        n_triples = n_lit * (n_lit - 1) * (n_lit - 2) // 6 if max_degree >= 3 else 0
        keep = self._screened(comp, deg, ctx, held, kth()) if max_degree >= 2 else None
        if keep is not None and keep.size > _PROBE_LITERALS:
            keep = self._probed(keep, comp, deg, ctx, k, pool, tol)
        if keep is not None and keep.size < 2:  # no clause of 2 or 3 literals has r < 0
            self.stats["triples_pruned"] += n_triples
            keep, max_degree = None, 1
        if keep is not None:
            pricer = self._restricted(keep)
            pricer._blocks.begin(v)
            ctx = pricer._context(v, deg)[0]

            def note(clauses: list[Clause], values: np.ndarray) -> None:
                consider([tuple(int(keep[i]) for i in c) for c in clauses], values)
        call = PricingCall(ctx, comp, k, extra, deadline, tol, need_proof, found, note, kth)
        try:
            lower, complete = pricer._higher(call, max_degree, deg, lower, n_triples)
        finally:
            if pricer is not self:
                pricer._blocks.end()
                self._merge_stats(pricer.stats)
                pricer.close()
        # ranked by the reduced cost rounded to 1e-13 (then degree, clause): equal costs
        # summed in another order (row blocks, complement pairs) keep the same order
        ranked = sorted(found.items(),
                        key=lambda kv: (round(kv[1], 13), len(kv[0]), kv[0]))[:k]
        return [(c, float(r)) for c, r in ranked], min(0.0, lower), complete

    def _context(self, v: np.ndarray, deg: int) -> tuple[dict[str, Any], bool, int]:
        """One call's row sums at prices ``v`` (``ctx``), whether the pair sums are held in
        one matrix, and the number of rows with a price."""
        # the pair sums over the base columns in one matrix when they fit in max_pair_bytes
        # (with one row block's part being added; kept for the next call), else by blocks
        # of rows of that matrix (block_cross)
        held = deg >= 2 and 2 * 8 * self._n_base ** 2 * (2 if deg >= 3 else 1) \
            <= self.max_pair_bytes
        h, s, GB, hn, sn, GBn, n_nz = self._moments(v, deg if held else 1)
        if not held or deg < 2:
            GB = None
        if not held or deg < 3:
            GBn = None
        ctx = {"v": v, "h": h, "hn": hn, "s": s, "sn": sn, "G": GB, "Gn": GBn,
               "r1": self._expand(h, s), "hn1": self._expand(hn, sn)}
        return ctx, held, n_nz

    def _screened(self, comp: Sequence[float], deg: int, ctx: dict[str, Any],
                  held: bool, thr: float) -> np.ndarray | None:
        """The literals that can be in a clause of two or more literals with a reduced cost
        below 0 and at most ``thr`` (the ``k``-th least of the single literals when ``k`` of
        them are negative: a clause above it is neither returned nor the least), or None
        when the call scores every literal (``screen``)."""
        if self.screen is False or self._A is None or self.n_lit < 2:
            return None
        if self.screen == "auto" and held:
            return None
        bound = float(min(comp[2: deg + 1])) + ctx["hn1"]
        keep = np.flatnonzero(bound <= min(thr, 0.0) + _SCREEN_SLACK)
        if keep.size == self.n_lit or (self.screen == "auto"
                                       and self.n_rows * keep.size > self.max_pair_bytes):
            return None
        self.stats["screened_calls"] += 1
        self.stats["literals_screened"] += int(self.n_lit - keep.size)
        return keep

    def _probed(self, keep: np.ndarray, comp: Sequence[float], deg: int,
                ctx: dict[str, Any], k: int, pool: set[Clause] | frozenset,
                tol: float) -> np.ndarray:
        """``keep`` cut by a tighter threshold: the ``k``-th least reduced cost of the
        clauses of at most two literals among the ``_PROBE_LITERALS`` kept literals of least
        bound (``k`` clauses at most that value are known, so a clause above it is neither
        returned nor the least), when ``k`` of them are below ``-tol``."""
        bound = float(min(comp[2: deg + 1])) + ctx["hn1"][keep]
        top = np.sort(keep[np.argsort(bound, kind="stable")[:_PROBE_LITERALS]])
        pos = {int(j): i for i, j in enumerate(top.tolist())}
        inside = {tuple(pos[j] for j in c) for c in pool if all(j in pos for j in c)}
        probe = self._restricted(top)
        try:
            cols, _, _ = probe.price(ctx["v"], comp, 2, k=k, pool=inside, tol=tol)
        finally:
            self._merge_stats(probe.stats)
            probe.close()
        if len(cols) < k:
            return keep
        thr = max(r for _, r in cols)
        cut = keep[bound <= thr + _SCREEN_SLACK]
        self.stats["literals_screened"] += int(keep.size - cut.size)
        return cut

    def _restricted(self, keep: np.ndarray) -> EnumerationPricer:
        """A pricer over the columns ``keep`` (increasing) of this one's matrix: the same row
        blocks, the conflicts and complement pairs among those columns, no screen and no
        sums carried between calls."""
        pos = np.full(self.n_lit, -1, dtype=np.int64)
        pos[keep] = np.arange(keep.size)
        pairs = pos[self.conflicts.pairs]
        sub = EnumerationPricer(self._A[:, keep], block_rows=self.block_rows,
                                blas_threads=None, paired=False, incremental=False,
                                max_pair_bytes=self.max_pair_bytes,
                                conflicts=pairs[(pairs >= 0).all(axis=1)], screen=False)
        if self._pairs is not None:  # this pricer's complement pairs with both kept
            partner = self._partner[keep]
            partner = np.where(partner >= 0, pos[np.maximum(partner, 0)], -1)
            is_comp = (partner >= 0) & (np.arange(keep.size) > partner)
            if is_comp.any():
                base, comp_cols = np.flatnonzero(~is_comp), np.flatnonzero(is_comp)
                where = np.full(keep.size, -1, dtype=np.intp)
                where[base] = np.arange(base.size)
                sub._pairs = (base, comp_cols, where[partner[comp_cols]])
                sub._setup_pair_blocks()
        return sub

    def _merge_stats(self, other: dict[str, Any]) -> None:
        """Add a screened call's pricer's work to this pricer's ``stats``."""
        for key in ("pairs_scored", "triples_scored", "triples_pruned", "degree3_passes",
                    "paired_jobs", "pair_blocks"):
            self.stats[key] += other[key]
        self._note_block(other["pair_block_bytes"])

    def _higher(self, call: PricingCall, max_degree: int, deg: int, lower: float,
                n_triples: int) -> tuple[float, bool]:
        """Degrees 2 and 3 of one call over this pricer's literals (``call.consider`` takes
        its clauses; ``n_triples``: the triples the call accounts for, screened ones
        included): the lower bound and whether the search was complete."""
        ctx, comp, k, extra = call.ctx, call.comp, call.k, call.extra
        deadline, tol, need_proof, found = call.deadline, call.tol, call.need_proof, call.found
        consider = call.consider
        n_lit = self.n_lit
        complete = True
        if max_degree >= 2 and n_lit >= 2:
            n_best = max(4 * k, 40) if deg >= 3 and n_lit >= 3 and not need_proof else 0
            pas = self._pair_pass(ctx, comp, deg, extra, tol, deadline, n_best)
            lower = min(lower, pas["lower"])
            pairs = pas["pairs"]
            consider([(int(a), int(b)) for a, b in zip(pairs.a, pairs.b)], pairs.r)
            if pas["rest"] is not None:  # stopped by the deadline: a bound for the rest
                lower = min(lower, pas["rest"], pas["min_bound"])
                complete = False
        if max_degree >= 3 and n_lit >= 3 and complete:
            if not need_proof and found:
                lower = min(lower, pas["min_bound"])
                complete = False
            else:
                lower, complete = self._degree3(call, pas, lower, n_triples)
        elif max_degree >= 3 and n_lit < 3 and complete:
            # every triple holds a screened literal (r >= 0 by the screen)
            self.stats["triples_pruned"] += n_triples
        return lower, complete

    def _expand(self, h: np.ndarray, s: float) -> np.ndarray:
        r"""Sums over the base columns expanded to every literal (a complement column ``c``
        of base column ``b``: :math:`v^\top A_c = s - h_b`)."""
        if self._pairs is None:
            return h
        base, comp_cols, q = self._pairs
        out = np.empty(self.n_lit)
        out[base], out[comp_cols] = h, s - h[q]
        return out

    def _rows(self, G: np.ndarray, rr: np.ndarray, cc: Any, J: np.ndarray, Y: Any,
              hb: np.ndarray, full: np.ndarray) -> np.ndarray:
        r"""The pair sums of literals ``J`` (rows) and ``Y`` (columns, a slice or indices)
        from the base sums ``G`` (rows ``rr``, columns ``cc`` of it): with complement pairs,
        :math:`G_{x c} = h_x - G_{x b}` for a complement column ``c`` of ``b`` (``hb`` the
        base sums) and then :math:`G_{c y} = (v^\top A)_y - G_{b y}` for a complement row
        (``full`` the sums of every literal)."""
        E = G[rr[:, None], cc[None, :]]
        if self._pairs is None:
            return E
        cm = self._is_comp[Y]
        if cm.any():
            E[:, cm] = hb[self._bpos[J]][:, None] - E[:, cm]
        rm = self._is_comp[J]
        if rm.any():
            E[rm] = full[Y][None, :] - E[rm]
        return E

    def _bound_rows(self, ctx: dict[str, Any], J: np.ndarray, Y: np.ndarray) -> np.ndarray:
        r"""The sums :math:`\sum_i \min(v_i, 0) A_{ij} A_{il}` for the literals ``j`` in ``J``
        and ``l`` in ``Y`` (the degree-3 pair bounds without their complexity part)."""
        rb, cb = self._bpos[J], self._bpos[Y]
        if ctx["Gn"] is not None:
            return self._rows(ctx["Gn"], rb, cb, J, Y, ctx["hn"], ctx["hn1"])
        R, C = np.unique(rb), np.unique(cb)
        cols = slice(0, C.size) if C.size == self._n_base else C  # every column: no copy
        Gn = self._reduce(self._blocks.map(block_cross, ctx["v"], self._base, R, cols,
                                           "neg"))[1]
        self._note_block(Gn.nbytes + 8 * J.size * Y.size)
        return self._rows(Gn, np.searchsorted(R, rb), np.searchsorted(C, cb), J, Y,
                          ctx["hn"], ctx["hn1"])

    def _note_block(self, nbytes: int) -> None:
        self.stats["pair_block_bytes"] = max(self.stats["pair_block_bytes"], int(nbytes))

    def _pair_pass(self, ctx: dict[str, Any], comp: Sequence[float], deg: int, extra: int,
                   tol: float, deadline: float | None, n_best: int) -> dict[str, Any]:
        r"""Score every pair by blocks of rows of the base sums (``block_cross``), each
        block's arrays within ``max_pair_bytes``: the least reduced cost, the ``extra`` pairs
        of least reduced cost below ``-tol`` and, for degree 3, each first literal's least
        pair bound (``rowmin``) and the ``n_best`` pairs of least reduced cost and of least
        bound (seeds of the first degree-3 pass without a proof).  With complement pairs a
        block of base rows ``R`` and columns ``C`` gives four quadrants of literal pairs: base
        by base (:math:`G`), base by complement (:math:`h_x - G`), complement by base
        (:math:`h_y - G`) and complement by complement (:math:`(s - h_y) - (h_x - G)`).
        Ties are broken by the pair, so the result does not depend on the blocks.  At the
        deadline (checked after the first block) the literals left get the bound of their
        negative prices (``rest``)."""
        n_lit, nb = self.n_lit, self._n_base
        which = "both" if deg >= 3 else "pos"
        best = _Least(extra)
        seeds_r, seeds_b = _Least(n_best), _Least(n_best)
        rowmin = np.full(n_lit, np.inf) if deg >= 3 else None
        lower = min_bound = math.inf
        rest = None
        scored = 0
        lit_b, lit_cr, lit_cc = self._lit_b, self._lit_c_row, self._lit_c_col
        paired = self._pairs is not None
        hb, hnb = ctx["h"], ctx["hn"]
        for i, p0 in enumerate(range(0, nb, self._block_base)):
            p1 = min(p0 + self._block_base, nb)
            rows_b, rows_c = lit_b[p0:p1], lit_cr[p0:p1]
            J = np.concatenate([rows_b, rows_c[rows_c < n_lit]])
            j0 = int(J.min())
            if j0 >= n_lit - 1:  # the last literal alone: no pair starts there
                continue
            if i > 0 and deadline is not None and time.perf_counter() > deadline:
                left = np.concatenate([lit_b[p0:], lit_cr[p0:][lit_cr[p0:] < n_lit]])
                step = min(comp[2], comp[3]) if deg >= 3 else comp[2]
                rest = step + float(ctx["hn1"][left].min())
                break
            c0 = int(self._suffix_base[j0 + 1])
            if ctx["G"] is not None:
                Gb = ctx["G"][p0:p1, c0:]
                Gnb = None if ctx["Gn"] is None else ctx["Gn"][p0:p1, c0:]
            else:
                Gb, Gnb = self._reduce(self._blocks.map(block_cross, ctx["v"], self._base,
                                                        slice(p0, p1), slice(c0, nb), which))
            scored += int((n_lit - 1 - J).sum())
            self.stats["pair_blocks"] += 1
            cols_b, cols_c = lit_b[c0:], lit_cc[c0:]
            quads = [(rows_b, cols_b, True)]
            if paired:
                quads += [(rows_b, cols_c, self._mono_c), (rows_c, cols_b, True),
                          (rows_c, cols_c, self._mono_c)]
            largest = 0
            for qi, (ra, cb, mono) in enumerate(quads):
                if cb.size == 0 or int(cb.max()) <= int(ra.min()):
                    continue  # no pair (x, y) with x < y here
                sx, sy = qi >= 2, qi % 2 == 1  # complement rows, complement columns
                r2 = _quadrant(Gb, hb[p0:p1], hb[c0:], ctx["s"], sx, sy)
                r2 += comp[2]
                invalid = _below(ra, cb, mono)
                _mask(r2, ra, cb, mono, invalid)
                clash = self.conflicts.mask(ra, cb)  # pairs no clause holds
                if clash is not None:
                    r2[clash] = np.inf
                B = None
                if deg >= 3:
                    B = _quadrant(Gnb, hnb[p0:p1], hnb[c0:], ctx["sn"], sx, sy)
                    B += comp[3]
                    _mask(B, ra, cb, mono, invalid)
                    if clash is not None:
                        B[clash] = np.inf
                    rm = B.min(axis=1)
                    ok = ra < n_lit
                    rowmin[ra[ok]] = np.minimum(rowmin[ra[ok]], rm[ok])
                    min_bound = min(min_bound, float(rm.min()))
                largest = max(largest, sum(a.nbytes for a in (r2, B, invalid)
                                           if a is not None))
                width = cb.size
                flat = r2.ravel()
                low = float(flat.min())
                lower = min(lower, low)
                if low < -tol and low <= best.worst():
                    hit = np.flatnonzero(flat <= min(-tol, best.worst()))
                    hit = hit[flat[hit] < -tol]
                    best.add(flat[hit], ra[hit // width], cb[hit % width])
                if n_best:
                    bflat = B.ravel()
                    for seeds, score in ((seeds_r, flat), (seeds_b, bflat)):
                        w = seeds.worst()
                        if float(score.min()) <= w:
                            hit = np.flatnonzero(score <= w) if np.isfinite(w) else \
                                np.flatnonzero(np.isfinite(score))
                            seeds.add(score[hit], ra[hit // width], cb[hit % width],
                                      bflat[hit])
            held = 0 if ctx["G"] is not None else sum(a.nbytes for a in (Gb, Gnb)
                                                       if a is not None)
            self._note_block(held + largest)
        self.stats["pairs_scored"] += scored
        return {"lower": lower, "pairs": best, "rowmin": rowmin, "min_bound": min_bound,
                "rest": rest, "seeds": (seeds_r, seeds_b)}

    def _moments(self, v: np.ndarray, deg: int) -> list[Any]:
        """The summed block moments at prices ``v``: ``[h, s, G, hn, sn, Gn, n]``
        (:func:`block_moments_delta`: over every column, or over the base columns with
        complement pairs), by the change since the previous call when ``incremental``."""
        base = None if self._pairs is None else self._pairs[0]
        vn = np.minimum(v, 0.0)
        n_nz = int(np.count_nonzero(v))
        held = self._held
        if self.incremental and held is not None and held["degree"] >= deg \
                and held["since"] < _REFRESH:
            alpha = 1.0
            dv, dn = v - held["v"], vn - held["vn"]
            changed = int(np.count_nonzero((dv != 0.0) | (dn != 0.0)))
            if changed > n_nz // 4:  # a new pmf: most rows scaled by one factor?
                scaled = _common_ratio(v, held["v"])
                if scaled is not None:
                    dv, dn = v - scaled * held["v"], vn - scaled * held["vn"]
                    # the rounded factor leaves an ulp or two on the scaled rows: below the
                    # rounding of the sums themselves (a relative 4 eps of each price)
                    dv[np.abs(dv) <= _ULPS * np.abs(v)] = 0.0
                    dn[np.abs(dn) <= _ULPS * np.abs(vn)] = 0.0
                    n_scaled = int(np.count_nonzero((dv != 0.0) | (dn != 0.0)))
                    if n_scaled < changed:
                        alpha, changed = scaled, n_scaled
                    else:
                        dv, dn = v - held["v"], vn - held["vn"]
            if changed < n_nz:
                V = np.column_stack([dv, dn])
                parts = self._reduce(self._blocks.map(block_moments_delta, V, held["degree"],
                                                      base))
                sums = [None if a is None else alpha * a + b
                        for a, b in zip(held["sums"], parts)]
                self._held = {"v": v.copy(), "vn": vn, "sums": sums, "degree": held["degree"],
                              "since": held["since"] + 1}
                self.stats["incremental_calls"] += 1
                return [*sums, n_nz]
        sums = self._reduce(self._blocks.map(block_moments_delta, np.column_stack([v, vn]),
                                             deg, base))
        if self.incremental:
            self._held = {"v": v.copy(), "vn": vn, "sums": sums, "degree": deg, "since": 0}
        return [*sums, n_nz]

def enumerate_pricing(A: np.ndarray, v: np.ndarray, comp: Sequence[float], max_degree: int, *,
                      k: int = 10, pool: set[Clause] | frozenset = frozenset(),
                      deadline: float | None = None, need_proof: bool = True,
                      tol: float = RC_TOL, conflicts: Any = None
                      ) -> tuple[list[tuple[Clause, float]], float, bool]:
    r"""Exact pricing for clauses of at most 3 literals by (pruned) enumeration.

    The one-call form of :class:`EnumerationPricer` (see it for the bound and the method);
    a column-generation run prepares one pricer and calls :meth:`EnumerationPricer.price`.

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
    conflicts : array of shape (m, 2), optional
        Pairs of literals no clause holds together (:class:`EnumerationPricer`).

    Returns
    -------
    columns : list of (clause, reduced cost)
        Up to ``k`` new clauses with :math:`r < -\mathrm{tol}`, best first (ties at the
        ``k``-th value may be cut either way).
    lower_bound : float
        A proven lower bound on :math:`\min(0, \min_k r(k))` over all clauses of degree at
        most ``max_degree``; exact (the minimum) when ``complete``.
    complete : bool
        Whether every clause was accounted for exactly (no time-out, no skipped pass).
    """
    if max_degree > 3:
        raise InputError("enumerate_pricing handles clauses of at most 3 literals; use the "
                         "pricing MILP (exact_method='milp') for larger max_degree.")
    return EnumerationPricer(A, conflicts=conflicts).price(
        v, comp, max_degree, k=k, pool=pool, deadline=deadline, need_proof=need_proof, tol=tol)


