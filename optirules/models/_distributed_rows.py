r"""Column generation with the rows kept on ``dask.distributed`` workers.

The weighted rule master over a pool of clauses depends on the rows only through two
things: for each clause the summed weight :math:`W^0_k` of the label-0 rows it covers, and
the label-1 rows grouped by their coverage pattern over the pool (one merged row per
pattern :math:`g`, of summed weight :math:`W_g`; :func:`~optirules.models.aggregate_rows`).
So the driver holds the master over (patterns x clauses) only, as the master of a small
*surrogate* problem whose literals are the pool clauses:

- its label-1 rows are the patterns, row :math:`g` of weight :math:`W_g` holding literal
  :math:`k` where clause :math:`k` covers the pattern's rows;
- its label-0 rows are one per clause, row :math:`k` holding literal :math:`k` alone, of
  weight :math:`W^0_k` (the master charges a clause the label-0 rows it covers, summed);
- its literal costs are the clauses' degrees :math:`|k|`, so a pool clause, a one-literal
  clause of the surrogate, costs :math:`\lambda_0 + \lambda_1 |k|` and :math:`1 + |k|` in
  the budget row.

The surrogate's master LP over its one-literal clauses and its master IP are the real
master's (the same objective, rows and duals; :math:`\mu_g` of a merged row is the dual of
each of its rows).  Pricing runs on the workers: each row's price
(:func:`~optirules.models.row_prices`) is :math:`P_i` on a label-0 row and
:math:`-\mu_g P_i` on a label-1 row of pattern :math:`g`, computed there from the map
pattern :math:`\to \mu_g` the driver sends; the block kernels of exact enumeration pricing
(:class:`~optirules.models.EnumerationPricer`) run on each partition of rows and the driver
reduces their partial sums in partition order.  Beam search needs every row in one process,
so pricing here is exact enumeration only (clauses of at most 3 literals).

What moves per iteration: to the workers the pattern map (one key of
:math:`\lceil K/8 \rceil` bytes and one float per pattern), the new clauses, and the
enumeration's jobs; back to the driver each partition's unique patterns with their weights,
the new clauses' label-0 weights, and the enumeration's partial sums (vectors and matrices
over the literals, not over the rows).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ..errors import InputError
from ._clauses import Clause, clause_coverage, complexity_costs
from ._column_generation import ColumnGenerationResult, solve_column_generation, split_solver
from ._conflicts import ConflictIndex
from ._enumeration import RC_TOL, EnumerationPricer, blas_threads
from ._enumeration_blocks import (
    _BLOCK_BYTES,
    _PAIR_BYTES,
    _add,
    _prepare,
    block_moments_delta,
)
from ._problem import ColumnGenerationOptions, RuleSetProblem
from .masters import restricted_master

__all__ = ["DistributedRows", "distributed_column_generation"]

#: the kernel's prices are the rows' prices and their negative parts (the moments)
_MOMENTS = "moments"


# ======================================================================= on the workers
def _make_part(pair: tuple[Any, Any], weight: Any) -> dict[str, Any]:
    """A partition of rows as held on a worker: the literal matrix, the labels and the
    weights."""
    A, y = pair
    A = np.ascontiguousarray(A, dtype=bool)
    y = np.asarray(y, dtype=bool).reshape(-1)
    if y.shape[0] != A.shape[0]:
        raise InputError(f"a partition holds {A.shape[0]} rows of X and {y.shape[0]} "
                         "labels; give X and y the same partitions (chunks) of rows.")
    w = np.broadcast_to(np.asarray(weight, dtype=np.float64), y.shape).copy()
    return {"A": A, "y": y, "w": w}


def _empty_cover(part: dict[str, Any]) -> np.ndarray:
    return np.zeros((int(part["y"].sum()), 0), dtype=bool)


def _extend_cover(part: dict[str, Any], cover: np.ndarray, clauses: list[Clause]
                  ) -> np.ndarray:
    """The label-1 rows' coverage of the pool with ``clauses`` appended."""
    return np.hstack([cover, clause_coverage(part["A"][part["y"]], clauses)])


def _negative_weights(part: dict[str, Any], clauses: list[Clause]) -> np.ndarray:
    """The summed weight of the label-0 rows each clause covers."""
    A0, w0 = part["A"][~part["y"]], part["w"][~part["y"]]
    return np.array([float(w0[cov].sum()) for cov in clause_coverage(A0, clauses).T])


def _keys(cover: np.ndarray) -> np.ndarray:
    """Each row's coverage pattern as one fixed-size byte string (numpy void)."""
    packed = np.packbits(cover, axis=1) if cover.shape[1] else \
        np.zeros((cover.shape[0], 1), np.uint8)
    packed = np.ascontiguousarray(packed)
    return packed.view(np.dtype((np.void, packed.shape[1]))).ravel()


def _patterns(part: dict[str, Any], cover: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The partition's distinct label-1 coverage patterns and their summed weights."""
    keys, inverse = np.unique(_keys(cover), return_inverse=True)
    return keys, np.bincount(inverse.reshape(-1), weights=part["w"][part["y"]],
                             minlength=keys.size)


def _prices(part: dict[str, Any], cover: np.ndarray, table: tuple[np.ndarray, np.ndarray]
            ) -> np.ndarray:
    """The rows' prices: ``P_i`` on label-0 rows, ``-mu_g P_i`` on label-1 rows of pattern
    ``g`` (``table``: the sorted pattern keys and their duals)."""
    keys, mu = table
    v = np.where(part["y"], 0.0, part["w"])
    if cover.shape[0]:
        at = np.searchsorted(keys, _keys(cover))
        v[part["y"]] = -mu[at] * part["w"][part["y"]]
    return v


def _count_nonzero(v: np.ndarray) -> int:
    return int(np.count_nonzero(v))


def _column_digests(part: dict[str, Any]) -> tuple[list[bytes], list[bytes]]:
    """Digests of each literal column of the partition and of its complement."""
    A = part["A"]
    n = A.shape[0]
    cols = np.ascontiguousarray(np.packbits(A, axis=0).T)
    flip = ~cols
    if n % 8 and flip.shape[1]:
        flip[:, -1] &= np.uint8((0xFF << (8 - n % 8)) & 0xFF)

    def digest(b: np.ndarray) -> bytes:
        return hashlib.blake2b(b.tobytes(), digest_size=16).digest()

    return [digest(c) for c in cols], [digest(c) for c in flip]


def _apply(func: Callable, part: dict[str, Any], v: np.ndarray, kind: str, block_rows: int,
           args: tuple) -> Any:
    """A kernel of exact enumeration over the partition's rows, by blocks of
    ``block_rows`` rows, their partial sums added in block order."""
    A = part["A"]
    out = None
    for s in range(0, max(A.shape[0], 1), block_rows):
        sub, vs = A[s: s + block_rows], v[s: s + block_rows]
        if kind == _MOMENTS:
            r = func(sub, np.column_stack([vs, np.minimum(vs, 0.0)]), *args)
        else:
            r = func(_prepare(sub, vs), vs, *args)
        out = r if out is None else [None if a is None else _add(a, b)
                                     for a, b in zip(out, r)]
    return out


def _summaries(part: dict[str, Any], clauses: list[Clause]
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The partition's rows grouped by (unmet literals per clause, label): the distinct
    rows of that table, their labels and summed weights (the fitted scores' input)."""
    A, y = part["A"], part["y"]
    unmet = np.zeros((A.shape[0], len(clauses)), dtype=np.int64)
    for m, c in enumerate(clauses):
        unmet[:, m] = len(c) - A[:, list(c)].sum(axis=1)
    table = np.column_stack([unmet, y.astype(np.int64)])
    rows, inverse = np.unique(table, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    w = np.bincount(inverse, weights=part["w"], minlength=rows.shape[0])
    n = np.bincount(inverse, minlength=rows.shape[0]).astype(float)
    return rows[:, :-1], rows[:, -1].astype(bool), np.column_stack([w, n])


# ======================================================================= on the driver
class DistributedRows:
    """Rows held by ``dask.distributed`` workers, one partition per future.

    Each partition holds its literal matrix (boolean), labels and row weights, and the
    coverage of the current pool by its label-1 rows.  The driver holds only counts: the
    rows' total, the literals, and after :meth:`add_clauses` the distinct label-1 coverage
    patterns with their summed weights and each clause's label-0 weight.

    Parameters
    ----------
    client : dask.distributed.Client
        The client whose workers hold the partitions.
    parts : sequence of Future
        One future per partition, of the mapping ``{"A": literals, "y": labels, "w":
        weights}`` (:meth:`from_arrays` and :meth:`from_futures` make them).
    n_literals : int
        Columns of every partition's literal matrix.
    block_rows : int, optional
        Rows per block of the enumeration kernels on a worker; default
        :math:`2^{26} / (8 L)` (a block of float64 within :math:`2^{26}` bytes).

    Examples
    --------
    >>> from distributed import Client, LocalCluster              # doctest: +SKIP
    >>> client = Client(LocalCluster(n_workers=2, processes=True))  # doctest: +SKIP
    >>> rows = DistributedRows.from_arrays(client, [(A0, y0), (A1, y1)])  # doctest: +SKIP
    >>> rows.n_rows                                              # doctest: +SKIP
    """

    def __init__(self, client: Any, parts: Sequence[Any], n_literals: int, *,
                 block_rows: int | None = None) -> None:
        self.client = client
        self.parts = list(parts)
        if not self.parts:
            raise InputError("the rows must be held in at least one partition.")
        self.n_literals = int(n_literals)
        self.block_rows = int(block_rows or max(1024, _BLOCK_BYTES // (8 * max(self.n_literals,
                                                                                1))))
        sizes = client.gather([client.submit(_part_sizes, p, pure=False) for p in self.parts])
        self.sizes = [(int(a), int(b)) for a, b in sizes]  # (rows, label-1 rows)
        self.n_rows = sum(a for a, _ in self.sizes)
        self.n_positive = sum(b for _, b in self.sizes)
        #: pricing's view: one "block" per partition
        self.slices = [None] * len(self.parts)
        self.covers = [client.submit(_empty_cover, p, pure=False) for p in self.parts]
        self.clauses: list[Clause] = []
        self.negative_weight = np.zeros(0)
        self.keys, self.weights = self._merge_patterns()
        self._v: list[Any] | None = None
        self.n_nonzero = 0

    @classmethod
    def from_arrays(cls, client: Any, parts: Sequence[tuple[Any, Any]],
                    sample_weight: float | None = None, **kw: Any) -> DistributedRows:
        """Rows scattered from in-memory ``(literals, labels)`` pairs (tests, examples).

        Parameters
        ----------
        client : dask.distributed.Client
        parts : sequence of (bool array (n_b, L), bool array (n_b,))
        sample_weight : float, optional
            The weight of every row; default ``1 / N``.
        **kw
            As for :class:`DistributedRows`.
        """
        n = sum(np.asarray(y).shape[0] for _, y in parts)
        w = 1.0 / n if sample_weight is None else float(sample_weight)
        futures = [client.submit(_make_part, (A, y), w, pure=False) for A, y in parts]
        n_lit = int(np.asarray(parts[0][0]).shape[1])
        return cls(client, futures, n_lit, **kw)

    @classmethod
    def from_futures(cls, client: Any, futures: Sequence[Any], n_literals: int,
                     sample_weight: float, **kw: Any) -> DistributedRows:
        """Rows from futures already on the workers, each of a ``(literals, labels)`` pair
        (e.g. partitions of a dask collection binarized where they are).

        Parameters
        ----------
        client : dask.distributed.Client
        futures : sequence of Future
            Each of a pair (bool array (n_b, L), bool array (n_b,)).
        n_literals : int
            ``L``.
        sample_weight : float
            The weight of every row (``1 / N`` for the uniform pmf).
        **kw
            As for :class:`DistributedRows`.
        """
        parts = [client.submit(_make_part, f, float(sample_weight), pure=False)
                 for f in futures]
        return cls(client, parts, n_literals, **kw)

    # ------------------------------------------------------------------ the pool
    def add_clauses(self, clauses: Sequence[Clause]) -> None:
        """Append ``clauses`` to the pool: the workers extend their coverage, and the driver
        merges their patterns and the clauses' label-0 weights.

        Parameters
        ----------
        clauses : sequence of Clause
            The new clauses (tuples of literal indices).
        """
        clauses = [tuple(int(j) for j in c) for c in clauses]
        if not clauses:
            return
        c = self.client
        self.covers = [c.submit(_extend_cover, p, cov, clauses, pure=False)
                       for p, cov in zip(self.parts, self.covers)]
        neg = c.gather([c.submit(_negative_weights, p, clauses, pure=False)
                        for p in self.parts])
        total = neg[0].copy()
        for n in neg[1:]:
            total += n
        self.clauses += clauses
        self.negative_weight = np.concatenate([self.negative_weight, total])
        self.keys, self.weights = self._merge_patterns()

    def _merge_patterns(self) -> tuple[np.ndarray, np.ndarray]:
        c = self.client
        got = c.gather([c.submit(_patterns, p, cov, pure=False)
                        for p, cov in zip(self.parts, self.covers)])
        keys = np.concatenate([k for k, _ in got])
        weights = np.concatenate([w for _, w in got])
        if keys.size == 0:
            return keys, weights
        merged, inverse = np.unique(keys, return_inverse=True)
        return merged, np.bincount(inverse.reshape(-1), weights=weights,
                                   minlength=merged.size)

    @property
    def n_patterns(self) -> int:
        """Distinct coverage patterns of the label-1 rows over the pool."""
        return int(self.keys.size)

    def surrogate(self, complexity: float | None, lambda0: float, lambda1: float
                  ) -> RuleSetProblem:
        """The master over the pool as a problem whose literals are the pool's clauses
        (module docstring): label-1 rows the patterns, label-0 rows one per clause.

        Parameters
        ----------
        complexity, lambda0, lambda1
            As for :class:`~optirules.models.RuleSetProblem`.

        Returns
        -------
        RuleSetProblem
            Literal ``k`` is clause ``k`` of the pool (with no clause yet, one literal no
            row holds); ``literal_costs`` the clauses' degrees; ``max_degree`` 1.
        """
        K = len(self.clauses)
        n_cols = max(K, 1)  # a column no row holds when the pool is empty
        if self.keys.size:
            raw = self.keys.view(np.uint8).reshape(self.keys.size, -1)
            bits = np.unpackbits(raw, axis=1)[:, :K].astype(bool)
        else:
            bits = np.zeros((0, K), dtype=bool)
        pos = np.zeros((bits.shape[0], n_cols), dtype=bool)
        pos[:, :K] = bits
        neg = np.zeros((K, n_cols), dtype=bool)
        neg[np.arange(K), np.arange(K)] = True
        A = np.vstack([pos, neg])
        y = np.concatenate([np.ones(pos.shape[0], bool), np.zeros(K, bool)])
        P = np.concatenate([self.weights, self.negative_weight])
        if A.shape[0] == 0:  # no label-1 row and no clause: one empty label-0 row
            A, y, P = np.zeros((1, n_cols), bool), np.zeros(1, bool), np.ones(1)
        degrees = np.array([len(c) for c in self.clauses] or [1], dtype=float)
        return RuleSetProblem(A, y, P, complexity=complexity, lambda0=lambda0,
                              lambda1=lambda1, max_degree=1, literal_costs=degrees)

    # ------------------------------------------------------------------ pricing
    def begin(self, mu: np.ndarray) -> None:
        """Start one pricing call: the rows' prices, computed and kept on the workers.

        Parameters
        ----------
        mu : array of shape (n_patterns,)
            The duals of the merged label-1 rows, in the order of ``keys``.
        """
        c = self.client
        [table] = c.scatter([(self.keys, np.asarray(mu, dtype=np.float64))], broadcast=True,
                            hash=False)
        self._v = [c.submit(_prices, p, cov, table, pure=False)
                   for p, cov in zip(self.parts, self.covers)]
        self.n_nonzero = sum(c.gather([c.submit(_count_nonzero, v, pure=False)
                                       for v in self._v]))

    def end(self) -> None:
        self._v = None

    def map(self, func: Any, v: Any, *args: Any) -> Iterator[Any]:
        """A kernel's partial sums per partition, in partition order.

        Parameters
        ----------
        func : callable
            A block kernel of exact enumeration (``func(block, prices, *args)``).
        v : object
            The rows' prices (held on the workers), or the marker of the moments (prices
            and their negative parts).
        *args
            The kernel's other arguments.

        Yields
        ------
        object
            Each partition's partial sums.
        """
        if self._v is None:
            raise InputError("the rows' prices are not set; price through WorkerPricer.")
        kind = _MOMENTS if isinstance(v, str) and v == _MOMENTS else "prices"
        futures = [self.client.submit(_apply, func, p, vp, kind, self.block_rows, args,
                                      pure=False)
                   for p, vp in zip(self.parts, self._v)]
        for f in futures:
            yield f.result()
            f.release()

    def complement_pairs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """Literals that are the complement of another one over every row (as
        :func:`~optirules.models.EnumerationPricer` uses them), by digests of each
        partition's columns.

        Returns
        -------
        tuple of (base, comp, q) arrays or None
            ``comp[t]`` is the complement of ``base[q[t]]``; None when no literal has one.
        """
        c = self.client
        got = c.gather([c.submit(_column_digests, p, pure=False) for p in self.parts])
        n_lit = self.n_literals
        cols = [b"".join(g[0][j] for g in got) for j in range(n_lit)]
        flip = [b"".join(g[1][j] for g in got) for j in range(n_lit)]
        where: dict[bytes, list[int]] = {}
        for j in range(n_lit):
            where.setdefault(cols[j], []).append(j)
        partner = np.full(n_lit, -1)
        for j in range(n_lit):
            if partner[j] >= 0:
                continue
            free = [k for k in where.get(flip[j], []) if partner[k] < 0 and k != j]
            if free:
                partner[j], partner[free[0]] = free[0], j
        is_comp = (partner >= 0) & (np.arange(n_lit) > partner)
        if not is_comp.any():
            return None
        base, comp = np.flatnonzero(~is_comp), np.flatnonzero(is_comp)
        position = np.full(n_lit, -1)
        position[base] = np.arange(base.size)
        return base, comp, position[partner[comp]]

    def summaries(self, clauses: Sequence[Clause]
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The rows grouped by their unmet literals per clause of ``clauses`` and their
        label.

        Parameters
        ----------
        clauses : sequence of Clause
            The rule set.

        Returns
        -------
        unmet : int array of shape (n_groups, n_clauses)
            Each group's number of unmet literals per clause (0: the clause fires).
        labels : bool array of shape (n_groups,)
        sums : array of shape (n_groups, 2)
            The groups' summed weights (column 0) and numbers of rows (column 1).
        """
        c = self.client
        clauses = [tuple(int(j) for j in k) for k in clauses]
        got = c.gather([c.submit(_summaries, p, clauses, pure=False) for p in self.parts])
        table = np.vstack([np.column_stack([u, y.astype(np.int64)]) for u, y, _ in got])
        wn = np.vstack([w for _, _, w in got])
        rows, inverse = np.unique(table, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        sums = np.column_stack([np.bincount(inverse, weights=wn[:, j], minlength=rows.shape[0])
                                for j in range(2)])
        return rows[:, :-1], rows[:, -1].astype(bool), sums

    def close(self) -> None:
        """Release the workers' copies (the futures are dropped; the scheduler frees the
        data once no client holds them)."""
        self.parts, self.covers, self._v = [], [], None


def _part_sizes(part: dict[str, Any]) -> tuple[int, int]:
    return int(part["y"].shape[0]), int(part["y"].sum())


class _Prices:
    """The rows' prices as pricing sees them on the driver: held by the workers, known
    here only by how many are nonzero (``v != 0`` gives that)."""

    def __init__(self, n_nonzero: int) -> None:
        self.n_nonzero = int(n_nonzero)

    def __ne__(self, other: object) -> np.ndarray:  # type: ignore[override]
        return np.array([self.n_nonzero > 0])

    __hash__ = None  # type: ignore[assignment]


class WorkerPricer(EnumerationPricer):
    """Exact enumeration pricing over :class:`DistributedRows`: the kernels of
    :class:`~optirules.models.EnumerationPricer` run on the workers' partitions and the
    driver reduces their sums in partition order (the same search, bound and
    certificate).  The sums are computed afresh each call (no incremental sums: the
    changes of the prices are on the workers)."""

    def __init__(self, rows: DistributedRows, *, conflicts: Any = None,
                 max_pair_bytes: int = _PAIR_BYTES) -> None:
        # the pricer's settings and counters as for one row of these literals (a matrix
        # held here), then its rows replaced by the workers' partitions
        super().__init__(np.zeros((1, rows.n_literals), dtype=bool), conflicts=conflicts,
                         max_pair_bytes=max_pair_bytes, incremental=False, paired=False,
                         blas_threads=None)
        self._blocks.close()
        self.n_rows = rows.n_rows
        self.block_rows = rows.block_rows
        self.backend = "dask"
        self._blocks = rows
        self._pairs = rows.complement_pairs()
        self._setup_pair_blocks()

    def close(self) -> None:  # the rows belong to the caller
        pass

    def price_patterns(self, mu: np.ndarray, comp: Sequence[float], max_degree: int, *,
                       k: int = 10, pool: set[Clause] | frozenset = frozenset(),
                       deadline: float | None = None, need_proof: bool = True,
                       tol: float = RC_TOL) -> tuple[list[tuple[Clause, float]], float, bool]:
        """Price at the patterns' duals ``mu``; the rest as
        :meth:`~optirules.models.EnumerationPricer.price`."""
        if max_degree > 3:
            raise InputError("pricing on the workers enumerates clauses of at most 3 "
                             f"literals; got max_degree={max_degree}.")
        t0 = time.perf_counter()
        rows: DistributedRows = self._blocks
        rows.begin(mu)
        try:
            with blas_threads(self.blas_threads):
                return self._price(_Prices(rows.n_nonzero), comp, max_degree, k, pool,
                                   deadline, need_proof, tol)
        finally:
            rows.end()
            self.stats["calls"] += 1
            self.stats["seconds"] += time.perf_counter() - t0

    def _moments(self, v: Any, deg: int) -> list[Any]:
        base = None if self._pairs is None else self._pairs[0]
        sums = self._reduce(self._blocks.map(block_moments_delta, _MOMENTS, deg, base))
        return [*sums, v.n_nonzero]


def _bound_factor(complexity: float | None, lambda0: float, lambda1: float, z: float) -> float:
    """An upper bound on :math:`\\sum_k w_k` at an optimum of the full master LP (every
    clause has at least one literal; the module docstring of column generation)."""
    kappa = math.inf
    if complexity is not None:
        kappa = complexity / 2.0
    if lambda0 + lambda1 > 0:
        kappa = min(kappa, z / (lambda0 + lambda1))
    return kappa


def distributed_column_generation(rows: DistributedRows, *, complexity: float | None = None,
                                  lambda0: float = 0.0, lambda1: float = 0.0,
                                  max_degree: int = 3, conflicts: Any = None,
                                  options: ColumnGenerationOptions | None = None,
                                  initial_clauses: Sequence[Clause] = (),
                                  progress: Callable[[dict[str, Any]], None] | None = None
                                  ) -> ColumnGenerationResult:
    r"""Column generation for the weighted rule master with the rows on the workers, then the
    master IP over the pool (module docstring).

    Each iteration the driver solves the master LP over the coverage patterns
    (:meth:`DistributedRows.surrogate`), the workers price every clause of at most
    ``max_degree`` literals by exact enumeration at its duals (the kernels of
    :class:`~optirules.models.EnumerationPricer` on their partitions), and
    the clauses of negative reduced cost join the pool; when pricing proves none is left
    (or after ``max_iter``), the master IP over the pool gives the rule set.  The bound is
    certified as in :func:`~optirules.models.solve_column_generation`.

    Parameters
    ----------
    rows : DistributedRows
        The rows (literals, labels, weights) on the workers.
    complexity, lambda0, lambda1, max_degree, conflicts
        As for :class:`~optirules.models.RuleSetProblem`.
    options : ColumnGenerationOptions, optional
        ``n_columns``, ``max_iter``, ``tol``, ``time_limit``, ``pricing_time_limit``, ``solver``,
        ``mip_gap``, ``random_seed``, ``master_ip`` and ``ip_time_limit`` are used;
        ``pricing`` must be ``"exact"`` or ``"auto"`` (both are exact enumeration here).
    initial_clauses : sequence of Clause
        The initial pool.
    progress : callable, optional
        Called with each iteration's record.

    Returns
    -------
    ColumnGenerationResult
        ``info["pricing"]`` is ``"exact (rows on the workers)"``; ``info["patterns"]`` the
        label-1 coverage patterns of the final pool (the master's rows).

    Examples
    --------
    >>> res = distributed_column_generation(rows, lambda0=1e-3, lambda1=1e-3,
    ...                                     max_degree=2)  # doctest: +SKIP
    >>> res.clauses                                         # doctest: +SKIP
    """
    op = options or ColumnGenerationOptions(pricing="exact")
    if op.pricing not in ("exact", "auto"):
        raise InputError(f"pricing={op.pricing!r} needs every row in one process; with the "
                         "rows on the workers pricing is exact enumeration: use "
                         "pricing='exact' (or 'auto').")
    if op.exact_method == "milp" or int(max_degree) > 3:
        raise InputError("with the rows on the workers exact pricing is the enumeration of "
                         "clauses of at most 3 literals; use max_degree <= 3 and "
                         "exact_method='auto' or 'enumerate'.")
    t_start = time.perf_counter()
    deadline = None if op.time_limit is None else t_start + float(op.time_limit)
    lp_solver, _ = split_solver(op.solver)
    cidx = ConflictIndex(conflicts, rows.n_literals)
    pool = [tuple(sorted(int(j) for j in c)) for c in initial_clauses]
    pool = [c for c in dict.fromkeys(pool) if not cidx.conflicting(c)]
    pricer = WorkerPricer(rows, conflicts=conflicts)
    rows.add_clauses(pool)
    history: list[dict[str, Any]] = []
    best_bound, last_lower = -math.inf, math.nan
    converged, stop, z = False, "max_iter", math.nan
    for it in range(1, int(op.max_iter) + 1):
        master = restricted_master(rows.surrogate(complexity, lambda0, lambda1),
                                   [(k,) for k in range(len(pool))], lp_solver=lp_solver,
                                   master="auto")
        z = master.solve()
        d = master.duals_for_pricing_
        if it > 1 and deadline is not None and time.perf_counter() > deadline:
            stop = "time_limit"
            break
        comp = [0.0] + [float(complexity_costs(g, d["lam"], d["lambda0"], d["lambda1"]))
                        for g in range(1, 4)]
        dl = (None if op.pricing_time_limit is None
              else time.perf_counter() + op.pricing_time_limit)
        if deadline is not None:
            dl = deadline if dl is None else min(dl, deadline)
        mu = np.asarray(d["mu"], dtype=float)[: rows.n_patterns]
        found, lower, complete = pricer.price_patterns(
            mu, comp, int(max_degree), k=int(op.n_columns), pool=set(pool), deadline=dl,
            need_proof=True)
        last_lower = lower
        kappa = _bound_factor(complexity, lambda0, lambda1, z)
        best_bound = max(best_bound, z if lower >= 0 else z + kappa * lower)
        cols = [c for c, r in found if r < -RC_TOL]
        record = {"iteration": it, "lp_objective": z,
                  "best_reduced_cost": float(min((r for _, r in found), default=lower)),
                  "reduced_cost_lower_bound": float(lower), "columns_added": len(cols),
                  "pool_size": len(pool) + len(cols), "pricing": "exact",
                  "lp_bound": float(best_bound), "patterns": rows.n_patterns,
                  "time": time.perf_counter() - t_start}
        history.append(record)
        if progress is not None:
            progress(record)
        if cols and op.tol > 0 and math.isfinite(best_bound) and z - best_bound <= op.tol * z:
            pool += cols  # kept for the IP, as solve_column_generation does
            rows.add_clauses(cols)
            stop = "gap (the certified bound is within tol of the restricted LP)"
            break
        if not cols:
            if complete and lower >= -RC_TOL:
                converged, stop = True, "converged (exact pricing proved no improving clause)"
            else:
                stop = "exact pricing stopped by its time limit (no proof)"
            break
        pool += cols
        rows.add_clauses(cols)
    cg_time = time.perf_counter() - t_start
    # the master IP over the pool: the surrogate's, whose pool is its one-literal clauses
    surrogate = rows.surrogate(complexity, lambda0, lambda1)
    ip_options = ColumnGenerationOptions(
        pricing="exact", max_iter=1, solver=op.solver, mip_gap=op.mip_gap,
        random_seed=op.random_seed, master_ip=("milp" if op.master_ip == "branch_and_bound"
                                               else op.master_ip),
        ip_time_limit=op.ip_time_limit)
    ip = solve_column_generation(surrogate, ip_options,
                                 initial_clauses=[(k,) for k in range(len(pool))])
    chosen = [pool[k[0]] for k in ip.clauses if k[0] < len(pool)]
    z = ip.lp_objective  # the LP over the whole pool
    certified = math.isfinite(best_bound) and stop != "time_limit"
    ip_obj = float(ip.ip_objective)
    if certified:
        lp_bound = min(max(best_bound, 0.0), ip_obj)
        gap = 0.0 if ip_obj <= 0 else max(0.0, (ip_obj - lp_bound) / ip_obj)
        abs_gap = max(0.0, ip_obj - lp_bound)
    else:
        lp_bound = gap = abs_gap = math.nan
    info = dict(ip.info)
    info["lp_support"] = [pool[k[0]] for k in info.get("lp_support", []) if k[0] < len(pool)]
    info.update({"pricing": "exact (rows on the workers)", "patterns": rows.n_patterns,
                 "pricing_stats": dict(pricer.stats), "cg_time": cg_time,
                 "n_partitions": len(rows.parts), "n_exact_incomplete": 0})
    return ColumnGenerationResult(
        clauses=chosen, pool=list(pool), history=history, lp_objective=float(z),
        lp_bound=float(lp_bound), ip_objective=ip_obj, ip_status=ip.ip_status,
        ip_bound=ip.ip_bound, gap=float(gap), certified=certified, converged=converged,
        absolute_gap=float(abs_gap), stop_reason=stop, pricing_lower_bound=float(last_lower),
        fit_time=time.perf_counter() - t_start, info=info)
