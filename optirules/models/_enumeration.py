r"""Exact pricing of rule-set clauses (at most 3 literals) by bound-pruned enumeration.

:class:`EnumerationPricer` is prepared once per column-generation run (the literal matrix
split into row blocks, cached as float64 where it fits in memory, the pair indices) and
prices every iteration's row prices with it; :func:`enumerate_pricing` is the one-call form.
Every reduced cost is a sum over rows, so the work is a map over row blocks and a reduce
(sum) of the blocks' partial sums, done in block order; the ``"dask"`` backend maps the
blocks on a ``dask.distributed`` client (blocks stored there as packed bits) and reduces in
the same order, so it returns the same numbers as the local backend.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import InputError
from ._clauses import Clause

__all__ = ["enumerate_pricing", "EnumerationPricer", "RC_TOL", "BACKENDS", "blas_threads",
           "complement_pairs"]

#: a column enters the master only if its reduced cost is below -RC_TOL
RC_TOL = 1e-9
#: where the row blocks are priced
BACKENDS = ("local", "dask")
#: bytes of one float64 row block (its rows are ``_BLOCK_BYTES / (8 L)``)
_BLOCK_BYTES = 1 << 26
#: the float64 copy of the literal matrix is cached up to this size
_FLOAT_CACHE_BYTES = 1 << 29
#: incremental pricing sums are computed afresh after this many calls in a row: each call
#: adds the rounding of one update (about 1e-16 of the sum of |prices|, which is at most 1
#: for a pmf), far below the reduced-cost tolerance RC_TOL even after all of them
_REFRESH = 200
#: a price within this relative distance of its scaled old value counts as unchanged
_ULPS = 4 * float(np.finfo(np.float64).eps)
#: first literals of the degree-3 pass scored per map-reduce round (the threshold is
#: lowered between rounds; the same on every backend, so results do not depend on it)
_FIRST_BATCH = 4


# ======================================================================= per-block work
_CONTROLLER: Any = None


def blas_threads(n: int | None) -> Any:
    """A context limiting the BLAS of numpy to ``n`` threads (``None``: unchanged).

    The products of pricing are skinny (``L`` or fewer columns, many rows): one thread
    runs them near its peak, while several threads on a busy machine wait on each other
    (measured here, 60 products of 20,000 x 58 matrices at load 11 on 2 cores: 26.2 s with
    OpenBLAS's default threads, 1.9 s with one).
    """
    global _CONTROLLER
    if n is None:
        import contextlib

        return contextlib.nullcontext()
    from threadpoolctl import ThreadpoolController

    if _CONTROLLER is None:
        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=int(n), user_api="blas")


def _block_matrix(block: Any) -> np.ndarray:
    """A row block as an ``(n_b, L)`` array: as stored, or unpacked from packed bits."""
    if isinstance(block, tuple):  # (L x W uint64 words, n_b): packed columns
        bits, n_b = block
        as_bytes = np.ascontiguousarray(bits, dtype="<u8").view(np.uint8).reshape(
            bits.shape[0], -1)
        cols = np.unpackbits(as_bytes, axis=1, count=n_b, bitorder="little")
        return np.ascontiguousarray(cols.T)
    return block


class _Prepared:
    """A block's working arrays for one pricing call (rows with ``v != 0``, float64)."""

    def __init__(self, Af: np.ndarray, v: np.ndarray) -> None:
        self.Af, self.v = Af, v


def _working(block: Any, vb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The block's rows with ``v != 0``, as float64, and their prices."""
    if isinstance(block, _Prepared):
        return block.Af, block.v
    Ab = _block_matrix(block)
    nz = vb != 0.0
    if not nz.all():
        Ab, vb = Ab[nz], vb[nz]
    return np.ascontiguousarray(Ab, dtype=np.float64), vb


def block_moments_delta(block: Any, V: np.ndarray, max_degree: int,
                        base: np.ndarray | None) -> tuple[Any, ...]:
    r"""One block's partial sums at prices ``V[:, 0]`` with negative parts ``V[:, 1]``
    (:math:`\min(v_i, 0)`, or the changes of both since an earlier call: the sums are
    linear in them): :math:`(h, s, G, h_-, s_-, G_-)` with :math:`h = v^\top A_B`,
    :math:`s = \sum_i v_i`, :math:`G = A_B^\top \mathrm{diag}(v) A_B` over the ``base``
    columns ``B`` (every column when None; :func:`_expand_paired` gives the complements'),
    and the same three over the negative parts for degree 3 (the pair bounds); the parts a
    smaller ``max_degree`` does not need are None.  Rows where both are 0 are skipped."""
    Ab = _block_matrix(block)
    rows = np.flatnonzero((V[:, 0] != 0.0) | (V[:, 1] != 0.0))
    if base is None:
        Af = np.asarray(Ab[rows], dtype=np.float64)
    else:
        Af = np.asarray(Ab[np.ix_(rows, base)], dtype=np.float64)
    v, vn = V[rows, 0], V[rows, 1]
    h, s = v @ Af, float(v.sum())
    if max_degree < 2:
        return h, s, None, None, None, None
    G = Af.T @ (Af * v[:, None])
    if max_degree < 3:
        return h, s, G, None, None, None
    neg = vn != 0.0
    An, vn = Af[neg], vn[neg]
    return h, s, G, vn @ An, float(vn.sum()), An.T @ (An * vn[:, None])


def _expand_paired(h: np.ndarray, s: float, G: np.ndarray | None,
                   pairs: tuple[np.ndarray, np.ndarray, np.ndarray], n_lit: int
                   ) -> tuple[np.ndarray, np.ndarray | None]:
    r"""The moments over all columns from those over the ``base`` columns: a complement
    column ``c`` of base column ``b`` has :math:`v^\top A_c = s - h_b`,
    :math:`G_{x c} = h_x - G_{x b}` (``x`` in the base) and
    :math:`G_{c c'} = s - h_b - h_{b'} + G_{b b'}`."""
    base, comp, q = pairs
    r1 = np.empty(n_lit)
    r1[base], r1[comp] = h, s - h[q]
    if G is None:
        return r1, None
    full = np.empty((n_lit, n_lit))
    half = n_lit // 2
    aligned = comp.size == half and (q == np.arange(half)).all()
    hq, Gq = (h, G) if aligned else (h[q], G[:, q])
    cross = h[:, None] - Gq
    corner = (s - hq[:, None]) - hq[None, :]
    corner += G if aligned else G[np.ix_(q, q)]
    # the two layouts of binarizers ([b0, c0, b1, c1, ...] and [B, C]) by strided views
    if aligned and (base == np.arange(0, n_lit, 2)).all() and (comp == base + 1).all():
        bs, cs = slice(0, n_lit, 2), slice(1, n_lit, 2)
    elif aligned and (base == np.arange(half)).all() and (comp == base + half).all():
        bs, cs = slice(0, half), slice(half, n_lit)
    else:
        bs, cs = np.ix_(base, base), np.ix_(comp, comp)
        full[bs] = G
        full[np.ix_(base, comp)] = cross
        full[np.ix_(comp, base)] = cross.T
        full[cs] = corner
        return r1, full
    full[bs, bs] = G
    full[bs, cs] = cross
    full[cs, bs] = cross.T
    full[cs, cs] = corner
    return r1, full


def _common_ratio(v: np.ndarray, old: np.ndarray) -> float | None:
    """The most common positive ratio ``v[i] / old[i]`` over the rows where both are nonzero
    (None when no ratio repeats).  A DRO member's pmf gives every correctly classified row
    one weight, so between members most rows' prices change by one factor."""
    both = (v != 0.0) & (old != 0.0)
    if not both.any():
        return None
    values, counts = np.unique(v[both] / old[both], return_counts=True)
    t = int(np.argmax(counts))
    if counts[t] < 2 or not values[t] > 0:
        return None
    return float(values[t])


def complement_pairs(A: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Columns that are the complement of another column: ``(base, comp, q)`` with
    ``A[:, comp[t]] == ~A[:, base[q[t]]]``, ``base`` every other column (in column order),
    each column in one of the two; None when no column has a complement."""
    n_lit = A.shape[1]
    cols = np.packbits(np.ascontiguousarray(A.T), axis=1)
    where: dict[bytes, list[int]] = {}
    for j in range(n_lit):
        where.setdefault(cols[j].tobytes(), []).append(j)
    flip = np.packbits(np.ascontiguousarray(~A.T), axis=1)
    partner = np.full(n_lit, -1)
    for j in range(n_lit):
        if partner[j] >= 0:
            continue
        free = [c for c in where.get(flip[j].tobytes(), []) if partner[c] < 0 and c != j]
        if free:
            partner[j], partner[free[0]] = free[0], j
    is_comp = (partner >= 0) & (np.arange(n_lit) > partner)
    if not is_comp.any():
        return None
    base = np.flatnonzero(~is_comp)
    comp = np.flatnonzero(is_comp)
    position = np.full(n_lit, -1)
    position[base] = np.arange(base.size)
    return base, comp, position[partner[comp]]


def block_extensions(block: Any, vb: np.ndarray, jobs: Sequence[tuple[tuple[int, ...], Any]]
                     ) -> list[np.ndarray]:
    r"""One block's partial sums for extending clauses: for each job ``(anchor, part)``,
    over the block's rows covered by every literal of ``anchor``, the matrix
    :math:`A_S^\top \mathrm{diag}(v) A_S` (``part`` an index array ``S``) or, when ``part``
    is None, the vector :math:`v^\top A` over all literals.  A job ``(anchor, part, True)``
    gives the matrix of :math:`[A_S, \mathbf{1}]` instead (its last row and column are
    :math:`v^\top A_S` and :math:`\sum v`: the sums of the complements of ``S``, see
    :meth:`EnumerationPricer._paired_job`)."""
    Af, v = _working(block, vb)
    out = []
    for anchor, part, *ones in jobs:
        cov = Af[:, anchor[0]] > 0
        for a in anchor[1:]:
            cov &= Af[:, a] > 0
        if part is None:
            out.append(v[cov] @ Af[cov])
            continue
        As = Af[np.ix_(cov, part)]
        vc = v[cov]
        W = As.T @ (As * vc[:, None])
        if ones and ones[0]:
            h = vc @ As
            W = np.block([[W, h[:, None]], [h[None, :], np.array([[vc.sum()]])]])
        out.append(W)
    return out


def _pack_columns(Ab: np.ndarray) -> tuple[np.ndarray, int]:
    """A boolean row block as its columns' packed bits (``L x ceil(n_b / 64)`` words)."""
    n_b, n_lit = Ab.shape
    n_bytes = 8 * max(1, (n_b + 63) // 64)
    packed = np.packbits(np.ascontiguousarray(Ab.T), axis=1, bitorder="little")
    if packed.shape[1] < n_bytes:
        packed = np.concatenate([packed, np.zeros((n_lit, n_bytes - packed.shape[1]),
                                                  np.uint8)], axis=1)
    return np.ascontiguousarray(packed).view("<u8"), n_b


# ====================================================================== the backends
class _LocalBlocks:
    """Row blocks in this process (float64 views of a cached copy when it fits)."""

    def __init__(self, A: np.ndarray, slices: list[slice], float_cache_bytes: int) -> None:
        cache = A.size * 8 <= float_cache_bytes
        base = A.astype(np.float64) if cache else A
        self.blocks = [base[s] for s in slices]
        self.slices = slices
        self._v: np.ndarray | None = None
        self._call: list[_Prepared] | None = None

    def begin(self, v: np.ndarray) -> None:
        """Start one pricing call at prices ``v``: the maps over this very array share the
        blocks' working arrays (rows with ``v != 0``, prepared at the first such map)."""
        self._v, self._call = v, None

    def end(self) -> None:
        self._v = self._call = None

    def map(self, func: Any, v: np.ndarray, *args: Any) -> list[Any]:
        if v is not self._v:  # other prices (a part of the rows): the stored blocks
            return [func(b, v[s], *args) for b, s in zip(self.blocks, self.slices)]
        if self._call is None:
            self._call = [_Prepared(*_working(b, v[s]))
                          for b, s in zip(self.blocks, self.slices)]
        return [func(b, v[s], *args) for b, s in zip(self._call, self.slices)]

    def close(self) -> None:
        self.blocks = []


class _DaskBlocks:
    """Row blocks scattered to a ``dask.distributed`` client as packed bits."""

    def __init__(self, A: np.ndarray, slices: list[slice], client: Any) -> None:
        self.client = client
        self.slices = slices
        self.blocks = client.scatter([_pack_columns(A[s]) for s in slices], hash=False)

    def begin(self, v: np.ndarray) -> None:
        pass

    def end(self) -> None:
        pass

    def map(self, func: Any, v: np.ndarray, *args: Any) -> list[Any]:
        futures = [self.client.submit(func, b, v[s], *args, pure=False)
                   for b, s in zip(self.blocks, self.slices)]
        return self.client.gather(futures)

    def close(self) -> None:
        try:
            self.client.cancel(self.blocks)
        except Exception:  # pragma: no cover - a closed client
            pass
        self.blocks = []


def dask_client(backend: Any) -> Any:
    """The ``dask.distributed`` client a ``backend`` names: a Client itself, or the current
    one for ``"dask"``.  Raises :class:`~optirules.errors.InputError` when there is none."""
    if backend != "dask" and hasattr(backend, "submit") and hasattr(backend, "scatter"):
        return backend
    try:
        from distributed import get_client
    except ImportError:
        raise InputError("backend='dask' needs the distributed package (pip install "
                         "'dask[distributed]').") from None
    try:
        return get_client()
    except ValueError:
        raise InputError("backend='dask' prices on the current dask.distributed Client; "
                         "start one first, e.g. Client(LocalCluster(n_workers=2)).") from None


def check_backend(backend: Any) -> None:
    """Refuse an unknown ``backend`` (``"local"``, ``"dask"`` or a distributed Client)."""
    if isinstance(backend, str) and backend in BACKENDS:
        if backend == "dask":
            dask_client(backend)
        return
    if backend is None or (hasattr(backend, "submit") and hasattr(backend, "scatter")):
        return
    raise InputError(f"backend must be one of {BACKENDS} or a dask.distributed Client, got "
                     f"{backend!r}.")


# ===================================================================== the pricer
class EnumerationPricer:
    r"""Exact pricing for clauses of at most 3 literals, prepared for one literal matrix.

    Every clause's reduced cost is :math:`r(k) = \mathrm{comp}_{|k|} + \sum_{i:\,k \ni i} v_i`
    (``v`` the row prices of :func:`~optirules.models.row_prices`, ``comp`` the
    complexity part :func:`~optirules.models.complexity_costs` by degree).  Degree 1
    is :math:`v^\top A`, degree 2 the upper triangle of :math:`A^\top \mathrm{diag}(v) A`
    (all pairs in one matrix product per row block).  Degree 3 uses the bound

    .. math::

        r(j, l, m) \ge \beta_{jl} := \mathrm{comp}_3 + \sum_{i:\ A_{ij} A_{il} = 1}
            \min(v_i, 0)

    (extending a clause can only drop rows), so a triple can beat a threshold only if all
    three of its pairs do; for each first literal ``j`` the surviving partners are scored
    together by one matrix product over the rows ``j`` covers.  The threshold is 0 (the
    proof that no clause has :math:`r < 0`), lowered to the ``k``-th best reduced cost found
    once ``k`` new negative clauses are known; first literals are taken in the order of their
    best bound.  Without a proof to give (``need_proof=False``) a first pass extends the most
    promising pairs by every literal and stops there when it finds a negative clause.  Rows
    with :math:`v_i = 0` are skipped.

    Everything that does not change between the calls of one column-generation run is
    prepared here once: the row blocks (``block_rows`` rows each; a float64 copy of the
    matrix when it takes at most 512 MB, else the boolean matrix as given), the pair
    indices and, for ``backend="dask"``, the blocks scattered to the workers as packed bits
    (one bit per entry).  ``stats`` counts the work (``triples_scored``: triples whose
    reduced cost was computed; ``triples_pruned``: those the bound excluded;
    ``paired_jobs``: degree-3 extensions summed over fewer columns thanks to complement
    pairs; ``seconds``).

    Parameters
    ----------
    literals : bool array of shape (N, L)
        Literal matrix :math:`A`.
    block_rows : int, optional
        Rows per block; default :math:`2^{26} / (8 L)` (64 MB of float64 per block).
    backend : {"local", "dask"} or dask.distributed.Client, default "local"
        Where the blocks are priced: in this process, or mapped on the current (or the
        given) ``dask.distributed`` client and reduced here in block order (the same
        numbers as ``"local"``).
    blas_threads : int or None, default 1
        Threads of numpy's BLAS during a pricing call (:func:`blas_threads`); ``None``
        leaves the BLAS as it is.
    paired : bool, default True
        Where a literal's complement is also a column (a binarizer's ``x <= t`` and
        ``x > t``, or ``[X, 1 - X]``; :func:`complement_pairs`), compute the degree-1 and
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
        (adult, 48,842 rows: 1,600-5,200 changed per iteration).  When most prices changed
        (a new pmf), the previous sums are scaled by the most common ratio of new to old
        prices, and only the rows off that ratio are summed (a DRO member's worst-case pmf
        gives every correctly classified row one weight: adult, about 37,000 of 48,000
        rows keep one ratio from one member to the next).  The sums are computed afresh
        when at least as many rows changed as have a price, at a higher degree than
        before, and after 200 calls in a row (bounding the rounding that the differences
        add).  The same numbers up to rounding (tested against ``incremental=False`` and
        brute force); ``stats["incremental_calls"]`` counts the calls that used it.
    """

    def __init__(self, literals: np.ndarray, *, block_rows: int | None = None,
                 backend: Any = "local", blas_threads: int | None = 1,
                 float_cache_bytes: int = _FLOAT_CACHE_BYTES, paired: bool = True,
                 incremental: bool = True) -> None:
        A = np.ascontiguousarray(literals, dtype=bool)
        if A.ndim != 2:
            raise InputError(f"the literal matrix must be 2-D, got shape {A.shape}.")
        self.n_rows, self.n_lit = A.shape
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
        if backend is None or (isinstance(backend, str) and backend == "local"):
            self.backend = "local"
            self._blocks: Any = _LocalBlocks(A, slices, float_cache_bytes)
        else:
            self.backend = "dask"
            self._blocks = _DaskBlocks(A, slices, dask_client(backend))
        # columns that come with their complements (a binarizer's x <= t and x > t, or
        # [X, 1 - X]): the moments over one column of each pair give all of them, a quarter
        # of the matrix product (_expand_paired)
        self._pairs = complement_pairs(A) if paired else None
        if self._pairs is not None:
            base, comp_cols, q = self._pairs
            self._partner = np.full(self.n_lit, -1, dtype=np.intp)
            self._partner[comp_cols], self._partner[base[q]] = base[q], comp_cols
            self._is_comp = np.zeros(self.n_lit, dtype=bool)
            self._is_comp[comp_cols] = True
        self._iu = np.triu_indices(self.n_lit, 1) if self.n_lit >= 2 else None
        self._upper = np.triu(np.ones((self.n_lit, self.n_lit), bool), 1)
        self.stats = {"calls": 0, "seconds": 0.0, "rows_priced": 0, "pairs_scored": 0,
                      "triples_scored": 0, "triples_pruned": 0, "degree3_passes": 0,
                      "paired_jobs": 0, "incremental_calls": 0}

    @property
    def n_blocks(self) -> int:
        """Number of row blocks."""
        return len(self._blocks.slices)

    def close(self) -> None:
        """Release the blocks (on a dask backend: the workers' copies)."""
        self._blocks.close()

    def _reduce(self, parts: list[Any]) -> Any:
        """Sum the blocks' partial results in block order."""
        acc = parts[0]
        for p in parts[1:]:
            acc = [None if a is None else a + b for a, b in zip(acc, p)]
        return acc

    # ------------------------------------------------------------------ pricing
    def price(self, v: np.ndarray, comp: Sequence[float], max_degree: int, *, k: int = 10,
              pool: set[Clause] | frozenset = frozenset(), deadline: float | None = None,
              need_proof: bool = True, tol: float = RC_TOL
              ) -> tuple[list[tuple[Clause, float]], float, bool]:
        """Price the row prices ``v``; arguments and result as :func:`enumerate_pricing`."""
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
        h, s, GB, hn, sn, GBn, n_nz = self._moments(v, deg)
        if max_degree < 3:
            GBn = None
        if self._pairs is None:
            r1, G, Bn = h, GB, GBn
        else:
            r1, G = _expand_paired(h, s, GB, self._pairs, n_lit)
            Bn = None if GBn is None else _expand_paired(hn, sn, GBn, self._pairs, n_lit)[1]
        self.stats["rows_priced"] += int(n_nz)
        # ---- degree 1
        r1 = comp[1] + r1
        lower = float(r1.min())
        order = np.argsort(r1, kind="stable")[:extra]
        consider([(int(j),) for j in order], r1[order])
        iu = self._iu
        r2_full = None
        if max_degree >= 2 and n_lit >= 2:
            r2_full = comp[2] + G
            r2 = r2_full[iu]
            self.stats["pairs_scored"] += int(r2.size)
            lower = min(lower, float(r2.min()))
            # only pairs below -tol can be kept (consider): partition those alone
            idx = np.flatnonzero(r2 < -tol)
            if idx.size > extra:
                idx = idx[np.argpartition(r2[idx], extra - 1)[:extra]]
            idx = idx[np.argsort(r2[idx], kind="stable")]
            consider([(int(iu[0][t]), int(iu[1][t])) for t in idx], r2[idx])
        complete = True
        if max_degree >= 3 and n_lit >= 3:
            B = comp[3] + Bn  # beta_{jl}
            np.fill_diagonal(B, np.inf)
            n_triples = n_lit * (n_lit - 1) * (n_lit - 2) // 6
            if not need_proof and found:
                lower = min(lower, float(B[iu].min()))
                complete = False
            else:
                lower, complete = self._degree3(v, comp, B, r2_full, k, extra, deadline, tol,
                                                need_proof, consider, kth, found, lower,
                                                n_triples)
        # ranked by the reduced cost rounded to 1e-13 (then degree, clause): equal costs
        # summed in another order (row blocks, complement pairs) keep the same order
        ranked = sorted(found.items(),
                        key=lambda kv: (round(kv[1], 13), len(kv[0]), kv[0]))[:k]
        return [(c, float(r)) for c, r in ranked], min(0.0, lower), complete

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

    def _degree3(self, v, comp, B, r2_full, k, extra, deadline, tol, need_proof, consider,
                 kth, found, lower, n_triples):
        n_lit = self.n_lit
        iu = self._iu
        self.stats["degree3_passes"] += 1
        scored = 0
        # bound of every triple whose smallest literal is j (-> order and time-out bound)
        Bu = np.where(self._upper, B, np.inf)
        rowmin = Bu.min(axis=1)
        if deadline is not None and time.perf_counter() > deadline:
            return min(lower, float(rowmin.min())), False
        # without a proof to give: a first pass extending the most promising pairs by every
        # literal, returned when it finds a negative clause
        pairs = [] if need_proof else _best_pairs(r2_full, B, iu, n=max(4 * k, 40))
        if pairs:
            jobs = [((ja, jb), None) for ja, jb in pairs]
            sums = self._reduce(self._blocks.map(block_extensions, v, jobs))
            for (ja, jb), s in zip(pairs, sums):
                vals = comp[3] + s
                vals[[ja, jb]] = np.inf
                order = np.argsort(vals, kind="stable")[:k]
                clauses = [tuple(sorted((ja, jb, int(m)))) for m in order]
                consider(clauses, vals[order])
                lower = min(lower, float(vals[order[0]]))
        if not need_proof and found:  # the first pass found one: no proof asked for
            return min(lower, float(B[iu].min())), False
        # first literals in the order of their best bound
        firsts = [int(j) for j in np.argsort(rowmin[: n_lit - 2], kind="stable")]
        complete = True
        lower3 = math.inf
        pos = 0
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

            jobs, masks, coefs = [], [], []
            batch = firsts[pos: pos + _FIRST_BATCH]
            pos += len(batch)
            for j in batch:
                if not keep(rowmin[j]):
                    continue
                part = np.flatnonzero(keep(Bu[j]))
                if part.size < 2:
                    continue
                mask = keep(Bu[np.ix_(part, part)])
                if not mask.any():
                    continue
                job, coef = self._paired_job(j, part)
                jobs.append(job)
                coefs.append(coef)
                masks.append(mask)
            if not jobs:
                continue
            sums = self._reduce(self._blocks.map(block_extensions, v, jobs))
            for job, coef, mask, W in zip(jobs, coefs, masks, sums):
                j = job[0][0]
                part = job[1] if coef is None else coef[1]
                if coef is not None:  # [A_T, 1] C = A_S
                    W = coef[0].T @ W @ coef[0]
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
                    consider([(j, int(part[x]), int(part[y])) for x, y in zip(a, b)],
                             flat[hit])
        self.stats["triples_scored"] += scored
        if complete:
            self.stats["triples_pruned"] += n_triples - scored
        if found:
            # every pruned triple has r >= its bound >= a threshold >= the least found value
            lower3 = min(lower3, min(found.values()))
        return min(lower, lower3), complete


def enumerate_pricing(A: np.ndarray, v: np.ndarray, comp: Sequence[float], max_degree: int, *,
                      k: int = 10, pool: set[Clause] | frozenset = frozenset(),
                      deadline: float | None = None, need_proof: bool = True,
                      tol: float = RC_TOL) -> tuple[list[tuple[Clause, float]], float, bool]:
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
    return EnumerationPricer(A).price(v, comp, max_degree, k=k, pool=pool, deadline=deadline,
                                      need_proof=need_proof, tol=tol)


def _best_pairs(r2_full: np.ndarray | None, B: np.ndarray, iu: tuple[np.ndarray, np.ndarray],
                n: int) -> list[tuple[int, int]]:
    """The ``n`` pairs of least reduced cost and the ``n`` of least bound (seeds of the
    degree-3 pass), only pairs whose bound is negative."""
    b = B[iu]
    scores = [b] if r2_full is None else [r2_full[iu], b]
    out: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for score in scores:
        take = min(n, score.size)
        idx = np.argpartition(score, take - 1)[:take]
        for t in idx[np.argsort(score[idx], kind="stable")]:
            pair = (int(iu[0][t]), int(iu[1][t]))
            if pair not in seen and b[t] < 0:
                seen.add(pair)
                out.append(pair)
    return out
