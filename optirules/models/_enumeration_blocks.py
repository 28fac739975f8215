"""The row-block kernels of exact enumeration pricing and where they run: the blocks of the
literal matrix (views of the boolean matrix), the local and ``dask.distributed``
backends that map a kernel over them, the complement pairs of a binarizer's literals, and
the bounded selections (the ``k`` least reduced costs) the passes keep.

Every reduced cost is a sum over rows, so each kernel returns one block's partial sums and
:class:`~optirules.models.EnumerationPricer` reduces them in block order.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from ..errors import InputError
from ._row_blocks import modal_price

#: a column enters the master only if its reduced cost is below -RC_TOL
RC_TOL = 1e-9
#: where the row blocks are priced
BACKENDS = ("local", "dask")
#: bytes of one float64 row block (its rows are ``_BLOCK_BYTES / (8 L)``)
_BLOCK_BYTES = 1 << 26
#: the float64 copy of the literal matrix is cached up to this size: none by default, the
#: kernels gather from the boolean blocks (a gathered part converted to float64 has the
#: values and layout of the same gather from float64, so the sums are the same)
_FLOAT_CACHE_BYTES = 0
#: incremental pricing sums are computed afresh after this many calls in a row: each call
#: adds the rounding of one update (about 1e-16 of the sum of |prices|, which is at most 1
#: for a pmf), far below the reduced-cost tolerance RC_TOL even after all of them
_REFRESH = 200
#: a price within this relative distance of its scaled old value counts as unchanged
_ULPS = 4 * float(np.finfo(np.float64).eps)
#: first literals of the degree-3 pass scored per map-reduce round (the threshold is
#: lowered between rounds; the same on every backend, so results do not depend on it)
_FIRST_BATCH = 4
#: default bound on the bytes of the pair sums held at once (``max_pair_bytes``): the
#: pairs are scored by blocks of first literals, each block's arrays within this size
_PAIR_BYTES = 1 << 28
#: float64 arrays of one first literal's row held at once while a block of pairs is scored
#: (the base sums, their expansion and the scores, for prices and negative parts)
_ROW_ARRAYS = 5
#: and each of those arrays at most this many entries (blocks that stay in the cache)
_BLOCK_ENTRIES = 1 << 20


# ======================================================================= per-block work
_CONTROLLER: Any = None


def blas_threads(n: int | None) -> Any:
    """A context limiting the BLAS of numpy to ``n`` threads (``None``: unchanged).

    The products of pricing are skinny (``L`` or fewer columns, many rows): one thread
    runs them near its peak, while several threads on a busy machine wait on each other
    (figures in docs/user_guide/models.md).
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
    """A block's working arrays for one pricing call: its rows with ``v != 0``.

    A block cached as float64 keeps those rows as float64 (``rows`` None).  A boolean block
    (the literal matrix above the float cache) is kept as it is, a view, with the mask of
    those rows (``rows``, None when every row has a price): each kernel converts to float64
    only the rows and columns it multiplies (:func:`_float`), so no float64 copy of the
    matrix is held during the call."""

    def __init__(self, A: np.ndarray, v: np.ndarray, rows: np.ndarray | None = None) -> None:
        self.A, self.v, self.rows = A, v, rows
        #: the base columns and the rows with negative prices, made at their first use
        self.base: np.ndarray | None = None
        self.negative: Any = None
        #: the most common price and the mask of its rows, made at its first use (None:
        #: no price is shared by a quarter of the rows)
        self._mode: Any = False

    @property
    def mode(self) -> tuple[float, np.ndarray] | None:
        """:func:`modal_price` of the block's prices (made at its first use)."""
        if self._mode is False:
            self._mode = modal_price(self.v)
        return self._mode


def _float(a: np.ndarray) -> np.ndarray:
    """``a`` as float64 (itself when it is float64): a gathered part of a block, converted
    after the gather so that only that part is copied, with the same values and layout (a
    fresh C-contiguous array) as the same gather from a float64 block."""
    return np.asarray(a, dtype=np.float64)


def _gather(M: np.ndarray, rows: np.ndarray | None, cols: np.ndarray) -> np.ndarray:
    """``M[np.ix_(rows, cols)]`` (every row when ``rows`` is None) as a C-contiguous float64
    array: the rows first (whole rows of a boolean block are a few bytes each), then the
    columns, then the conversion; the same values and layout as the one fancy index."""
    sub = np.take(M if rows is None else M[rows], cols, axis=1)
    return np.ascontiguousarray(sub, dtype=np.float64)


def _prepare(block: Any, vb: np.ndarray) -> _Prepared:
    """One call's working arrays of a stored block (float64 rows, or a boolean view and
    the mask of the rows with a price)."""
    if isinstance(block, np.ndarray) and block.dtype == bool:
        nz = vb != 0.0
        return _Prepared(block, vb, None if nz.all() else nz)
    return _Prepared(*_working(block, vb))


def _working(block: Any, vb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The block's rows with ``v != 0``, as float64, and their prices."""
    if isinstance(block, _Prepared):
        if block.A.dtype == bool:
            Ab = block.A if block.rows is None else block.A[block.rows]
            vb = block.v if block.rows is None else block.v[block.rows]
            return _float(Ab), vb
        return block.A, block.v
    Ab = _block_matrix(block)
    nz = vb != 0.0
    if not nz.all():
        Ab, vb = Ab[nz], vb[nz]
    return np.ascontiguousarray(Ab, dtype=np.float64), vb


def _covering(block: Any, vb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(M, v, rows)``: the block's matrix for gathering, the prices of its rows and the
    mask of its rows with ``v != 0`` to restrict a gather to (None: every row of ``M``).
    A boolean prepared block gives its view and mask; any other block its float64 rows
    with ``v != 0`` (:func:`_working`)."""
    if isinstance(block, _Prepared) and block.A.dtype == bool:
        return block.A, block.v, block.rows
    Af, v = _working(block, vb)
    return Af, v, None


def block_moments_delta(block: Any, V: np.ndarray, max_degree: int,
                        base: np.ndarray | None) -> tuple[Any, ...]:
    r"""One block's partial sums at prices ``V[:, 0]`` with negative parts ``V[:, 1]``
    (:math:`\min(v_i, 0)`, or the changes of both since an earlier call: the sums are
    linear in them): :math:`(h, s, G, h_-, s_-, G_-)` with :math:`h = v^\top A_B`,
    :math:`s = \sum_i v_i`, :math:`G = A_B^\top \mathrm{diag}(v) A_B` over the ``base``
    columns ``B`` (every column when None; the complements' follow from them, see
    :meth:`EnumerationPricer._rows`),
    and the same three over the negative parts (``G_-`` for degree 3: the pair bounds); the
    matrices a smaller ``max_degree`` does not need are None (``max_degree=1``: the sums
    alone, for pricing by blocks of pairs, :func:`block_cross`).  Rows where both are 0 are
    skipped."""
    Ab = _block_matrix(block)
    rows = np.flatnonzero((V[:, 0] != 0.0) | (V[:, 1] != 0.0))
    if base is None:
        Af = np.asarray(Ab[rows], dtype=np.float64)
    else:
        Af = np.asarray(Ab[np.ix_(rows, base)], dtype=np.float64)
    v, vn = V[rows, 0], V[rows, 1]
    h, s = v @ Af, float(v.sum())
    neg = vn != 0.0
    An, vn = Af[neg], vn[neg]
    hn, sn = vn @ An, float(vn.sum())
    if max_degree < 2:
        return h, s, None, hn, sn, None
    G = Af.T @ (Af * v[:, None])
    if max_degree < 3:
        return h, s, G, hn, sn, None
    return h, s, G, hn, sn, An.T @ (An * vn[:, None])


def block_cross(block: Any, vb: np.ndarray, base: np.ndarray | None, rows: Any, cols: Any,
                which: str) -> tuple[np.ndarray | None, np.ndarray | None]:
    r"""One block's pair sums between two sets of ``base`` columns (every column when
    None): ``rows`` and ``cols`` (slices or index arrays into the base columns) give
    :math:`A_R^\top \mathrm{diag}(v) A_C` (``which`` ``"pos"`` or ``"both"``) and
    :math:`A_R^\top \mathrm{diag}(\min(v, 0)) A_C` (``"neg"`` or ``"both"``), the other
    None: the rows ``R`` of the matrices of :func:`block_moments_delta` restricted to the
    columns ``C``, so that pricing holds a block of them at a time."""
    Af, v = _working(block, vb)  # a boolean block's rows as float64 for this kernel only
    Ab = _base_columns(block, Af, base)
    left, right = Ab[:, rows], Ab[:, cols]
    G = Gn = None
    if which in ("pos", "both"):
        G = (left * v[:, None]).T @ right
    if which in ("neg", "both"):
        G_n = _negative_rows(block, Ab, v)
        if G_n is None:
            Gn = np.zeros((left.shape[1], right.shape[1]))
        else:
            An, vn = G_n
            Gn = (An[:, rows] * vn[:, None]).T @ An[:, cols]
    return G, Gn


def _base_columns(block: Any, Af: np.ndarray, base: np.ndarray | None) -> np.ndarray:
    """The block's base columns (kept for the pricing call when the block is prepared)."""
    if base is None:
        return Af
    if _keeps(block):
        if block.base is None:
            block.base = np.ascontiguousarray(Af[:, base])
        return block.base
    return np.ascontiguousarray(Af[:, base])


def _keeps(block: Any) -> bool:
    """Whether a kernel keeps its float64 arrays in the block for the rest of the call
    (a float64 prepared block; a boolean one makes them afresh each time)."""
    return isinstance(block, _Prepared) and block.A.dtype != bool


def _negative_rows(block: Any, Ab: np.ndarray, v: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray] | None:
    """The rows of ``Ab`` with a negative price and those prices (None when there are none);
    kept for the pricing call when the block is prepared."""
    if _keeps(block) and block.negative is not None:
        return block.negative or None
    neg = v < 0.0
    out = (np.ascontiguousarray(Ab[neg]), v[neg]) if neg.any() else ()
    if _keeps(block):
        block.negative = out
    return out or None


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
    n_rows, n_lit = A.shape
    # each column's packed bits (packed down the rows: no transposed copy of A), and those of
    # its complement (the padding bits of the last byte kept 0, as packbits leaves them)
    cols = np.ascontiguousarray(np.packbits(A, axis=0).T)
    flip = ~cols
    if n_rows % 8 and flip.shape[1]:
        flip[:, -1] &= np.uint8((0xFF << (8 - n_rows % 8)) & 0xFF)
    where: dict[bytes, list[int]] = {}
    for j in range(n_lit):
        where.setdefault(cols[j].tobytes(), []).append(j)
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
    :meth:`EnumerationPricer._paired_job`); ``part`` a pair ``(R, S)`` of index arrays
    gives the block :math:`A_R^\top \mathrm{diag}(v) A_S` of rows ``R`` of that matrix (of
    :math:`[A_S, \mathbf{1}]` with the flag ``True``).  The square matrices take the rows of
    the most common price :math:`c` (:func:`modal_price`) as :math:`c` times their counts,
    a float32 product (exact: whole numbers below :math:`2^{24}`), and the other rows in
    float64; so do the vectors (``part`` None)."""
    M, v, nz = _covering(block, vb)  # float64 rows, or a boolean block (gathers converted)
    # the rows of the most common price (on every backend and block kind the same rows)
    mode = block.mode if isinstance(block, _Prepared) else modal_price(v)
    out = []
    for anchor, part, *ones in jobs:
        cov = M[:, anchor[0]] > 0
        for a in anchor[1:]:
            cov &= M[:, a] > 0
        if nz is not None:
            cov &= nz
        if part is None:
            if mode is None:
                out.append(v[cov] @ _float(M[cov]))
                continue
            c, same = mode
            rest = cov & ~same
            counts = M[cov & same].astype(np.float32).sum(axis=0, dtype=np.float32)
            out.append(c * counts.astype(np.float64) + v[rest] @ _float(M[rest]))
            continue
        if isinstance(part, tuple):
            Ac, vc = M[cov], v[cov]
            AR = _gather(Ac, None, part[0]) * vc[:, None]
            W = AR.T @ _gather(Ac, None, part[1])
            if ones and ones[0]:
                W = np.concatenate([W, AR.sum(axis=0)[:, None]], axis=1)
            out.append(W)
            continue
        vc = v[cov]
        if mode is not None:  # the rows of the common price c: c times their counts
            c, same = mode
            rest = cov & ~same
            B = np.take(M[cov & same], part, axis=1).astype(np.float32)
            R = _gather(M, rest, part)
            vr = v[rest]
            W = c * (B.T @ B).astype(np.float64) + R.T @ (R * vr[:, None])
            h = c * B.sum(axis=0, dtype=np.float64) + vr @ R if ones and ones[0] else None
        else:
            As = _gather(M, cov, part)
            W = As.T @ (As * vc[:, None])
            h = vc @ As if ones and ones[0] else None
        if h is not None:
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
    """Row blocks in this process (float64 views of a cached copy when it fits, else views
    of the boolean matrix, which the kernels convert part by part)."""

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

    def map(self, func: Any, v: np.ndarray, *args: Any) -> Iterator[Any]:
        """The blocks' results in block order, each computed when it is asked for."""
        if v is not self._v:  # other prices (a part of the rows): the stored blocks
            return (func(b, v[s], *args) for b, s in zip(self.blocks, self.slices))
        if self._call is None:
            self._call = [_prepare(b, v[s]) for b, s in zip(self.blocks, self.slices)]
        return (func(b, v[s], *args) for b, s in zip(self._call, self.slices))

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

    def map(self, func: Any, v: np.ndarray, *args: Any) -> Iterator[Any]:
        """The blocks' results in block order (all submitted at once, fetched one by one)."""
        futures = [self.client.submit(func, b, v[s], *args, pure=False)
                   for b, s in zip(self.blocks, self.slices)]
        for f in futures:
            yield f.result()
            f.release()

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
    """Refuse an unknown ``backend`` (``"local"``, ``"dask"`` or a distributed Client).

    Parameters
    ----------
    backend : str or dask.distributed.Client
        The backend to check; anything else raises :class:`~optirules.errors.InputError`.
    """
    if isinstance(backend, str) and backend in BACKENDS:
        if backend == "dask":
            dask_client(backend)
        return
    if backend is None or (hasattr(backend, "submit") and hasattr(backend, "scatter")):
        return
    raise InputError(f"backend must be one of {BACKENDS} or a dask.distributed Client, got "
                     f"{backend!r}.")


def _quadrant(G: np.ndarray, hr: np.ndarray, hc: np.ndarray, s: float, comp_rows: bool,
              comp_cols: bool) -> np.ndarray:
    r"""The pair sums of one quadrant of a block from the base sums ``G`` (rows and columns
    base columns with sums ``hr`` and ``hc``, ``s`` the sum of the prices): for base rows
    and columns ``G`` itself, a complement column ``c`` of ``b`` gives
    :math:`h_x - G_{x b}`, a complement row :math:`(v^\top A)_y - G_{b y}` (both, as
    :meth:`EnumerationPricer._rows` computes them)."""
    if not comp_cols and not comp_rows:
        return G.copy()
    if comp_cols:
        E = hr[:, None] - G
        if comp_rows:  # (s - h_y) - (h_x - G)
            np.subtract((s - hc)[None, :], E, out=E)
        return E
    return hc[None, :] - G


def _below(rows: np.ndarray, cols: np.ndarray, monotone: bool) -> np.ndarray | None:
    """Where column literal <= row literal (not a pair ``x < y``): None when the columns are
    in increasing order (masked row by row then, :func:`_mask`)."""
    if monotone:
        return None
    return cols[None, :] <= rows[:, None]


def _mask(S: np.ndarray, rows: np.ndarray, cols: np.ndarray, monotone: bool,
          invalid: np.ndarray | None) -> None:
    """Set the entries of ``S`` that are not a pair ``x < y`` (row ``x``, column ``y``) to
    infinity."""
    if invalid is not None:
        np.copyto(S, np.inf, where=invalid)
        return
    ends = np.searchsorted(cols, rows, side="right")
    for t, e in enumerate(ends.tolist()):
        S[t, :e] = np.inf


class _Least:
    """The ``n`` least values met so far with their pairs ``(a, b)`` (and a payload), ranked
    as the clauses are (the value rounded to 1e-13, then the pair): the same whatever the
    order and the grouping of the values."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.key = np.empty(0)
        self.r = np.empty(0)
        self.a = np.empty(0, dtype=np.intp)
        self.b = np.empty(0, dtype=np.intp)
        self.extra = np.empty(0)

    def worst(self) -> float:
        """A value above which a new entry cannot be kept."""
        if self.n == 0:
            return -math.inf
        return float(self.key[-1]) + 1e-13 if self.r.size >= self.n else math.inf

    def add(self, r: np.ndarray, a: np.ndarray, b: np.ndarray,
            extra: np.ndarray | None = None) -> None:
        if self.n == 0 or r.size == 0:
            return
        if extra is None:
            extra = np.zeros(r.size)
        key = np.round(r, 13)
        if r.size > self.n:  # the n least and every tie of the last
            last = np.partition(key, self.n - 1)[self.n - 1]
            keep = key <= last
            key, r, a, b, extra = key[keep], r[keep], a[keep], b[keep], extra[keep]
        key = np.concatenate([self.key, key])
        r = np.concatenate([self.r, r])
        a = np.concatenate([self.a, a])
        b = np.concatenate([self.b, b])
        extra = np.concatenate([self.extra, extra])
        order = np.lexsort((b, a, key))[: self.n]
        self.key, self.r, self.a, self.b = key[order], r[order], a[order], b[order]
        self.extra = extra[order]


def _add(a: Any, b: Any) -> Any:
    """``a + b``, in place for arrays."""
    if isinstance(a, np.ndarray):
        a += b
        return a
    return a + b


def _seed_pairs(by_cost: _Least, by_bound: _Least) -> list[tuple[int, int]]:
    """The pairs of least reduced cost, then those of least bound (seeds of the degree-3
    pass), only pairs whose bound is negative."""
    out: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for least in (by_cost, by_bound):
        for a, b, bound in zip(least.a.tolist(), least.b.tolist(), least.extra.tolist()):
            pair = (int(a), int(b))
            if pair not in seen and bound < 0:
                seen.add(pair)
                out.append(pair)
    return out

