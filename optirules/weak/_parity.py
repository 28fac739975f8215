"""Sparse parities (low-degree characters) as weak learners — Reyzin's paper, "Sparse parities".

For 0/1 features the character of a set ``J`` is ``chi_J(x) = (-1)^{sum_{j in J} x_j}``;
with ``S = 1 - 2X`` (the +-1 form of the features) ``chi_J(x_i) = prod_{j in J} S_ij``.
The weak learner returns the parity of degree at most ``d`` *or its negation* with the
largest edge under the distribution ``D`` (Reyzin's paper, "Use in boosting": the class
``H_d`` of d-parities and their negations contains the stumps ``H_1``).  With
``u = D * y`` the edge of ``chi_J`` is a weighted correlation,

.. math::

    \\gamma(\\chi_J) = \\sum_i u_i \\prod_{j \\in J} S_{ij},

so the edges of all parities of one degree are matrix products:

* degree 0 (the constant ``+1``): ``sum_i u_i``;
* degree 1: ``S^T u``;
* degree 2: the strict upper triangle of ``S^T diag(u) S``;
* degree 3: for each ``k``, the rows ``u * S_j * S_k`` (``j < k``) times ``S`` give the
  edges of all triples ``j < k < l`` at once.  The pairs are taken in chunks of
  ``chunk_size`` rows, so one chunk is a single single-precision BLAS product of a
  ``(chunk_size x m)`` by an ``(m x (n - k))`` matrix and the memory stays bounded
  (a few MB at ``n = 403``, ``m = 1000``).  The useful work is ``C(n, 3)`` dot products
  of length ``m``, i.e. about ``m n^3 / 3`` floating-point operations.

Degrees up to 3 are searched exhaustively.  For larger degrees (or when asked) a beam
search extends the ``beam_width`` best parities of each degree by one feature at a time
(again one matrix product per step), starting from the exhaustive degree-2 search.  It is
a heuristic: a parity none of whose sub-parities has an edge (a pure planted parity of
degree 4, say) is invisible to it — that is the hardness of learning parities — but with
``beam_width`` at least the number of sets of each degree it is exhaustive.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import InputError
from ._base import (
    Constant,
    PreparedData,
    WeakHypothesis,
    WeakLearner,
    check_weak_fit_input,
    feature_label,
    first_max,
)

__all__ = ["Parity", "ParityLearner", "best_parity", "parity_edge"]


class Parity(WeakHypothesis):
    """``h(x) = chi_J(x)``, ``+1`` when an even number of the features in ``J`` are 1
    (or its negation when ``negated``).

    Parameters
    ----------
    features : sequence of int
        The distinct 0/1 columns ``J``.
    negated : bool, default False
        Predict ``-chi_J(x)``.
    feature_names : sequence of str, optional
        Names of the columns, used by :meth:`describe` (``x[j]`` without them).
    """

    kind = "parity"

    def __init__(self, features: Sequence[int], negated: bool = False,
                 feature_names: Sequence[str] | None = None):
        feats = tuple(sorted(int(j) for j in features))
        if len(set(feats)) != len(feats):
            raise InputError(f"Parity features must be distinct, got {feats}.")
        self.features = feats
        self.negated = bool(negated)
        self._keep_names(feature_names)

    @property
    def degree(self) -> int:
        return len(self.features)

    def columns(self) -> np.ndarray:
        return np.array(self.features, dtype=np.int64)

    def predict(self, X: Any) -> np.ndarray:
        X = np.asarray(X)
        odd = np.zeros(X.shape[0], dtype=bool)
        for j in self.features:
            odd ^= X[:, j] != 0
        h = np.where(odd, -1, 1).astype(np.int8)
        return -h if self.negated else h

    def describe(self, feature_names: Sequence[str] | None = None) -> str:
        if not self.features:
            return "-1" if self.negated else "+1"
        names = " + ".join(feature_label(j, feature_names) for j in self.features)
        return f"+1 if {names} is {'odd' if self.negated else 'even'} else -1"

    def _payload(self) -> dict[str, Any]:
        return {"features": list(self.features), "negated": self.negated}


def parity_edge(X: np.ndarray, u: np.ndarray, features: Sequence[int]) -> float:
    """The edge ``sum_i u_i chi_J(x_i)`` of one parity, in double precision."""
    odd = np.zeros(X.shape[0], dtype=bool)
    for j in features:
        odd ^= X[:, j] != 0
    return float(np.dot(u, np.where(odd, -1.0, 1.0)))


def _best_degree3(St: np.ndarray, uSt: np.ndarray, chunk_size: int) -> tuple[float, tuple]:
    """Largest ``|edge|`` over all triples ``j < k < l``; ``St`` is ``S^T`` (n x m)."""
    n, m = St.shape
    best, arg = -1.0, ()
    buf = np.empty((max(chunk_size, n), m), dtype=St.dtype)
    k = 1
    while k < n - 1:
        ks: list[int] = []
        offs: list[int] = []
        rows = 0
        while k < n - 1 and (rows + k <= chunk_size or not ks):
            ks.append(k)
            offs.append(rows)
            # rows u * S_j * S_k for j < k
            np.multiply(St[:k], uSt[k], out=buf[rows:rows + k])
            rows += k
            k += 1
        a = ks[0]
        R = buf[:rows] @ St[a + 1:].T          # column c is feature l = a + 1 + c
        np.abs(R, out=R)
        for kk, off in zip(ks, offs):
            if kk > a:                          # keep only l > kk
                R[off:off + kk, :kk - a] = -1.0
        idx = int(np.argmax(R))
        val = float(R.flat[idx])
        if val > best:
            r, c = divmod(idx, R.shape[1])
            i = int(np.searchsorted(offs, r, side="right")) - 1
            best, arg = val, (r - offs[i], ks[i], a + 1 + c)
    return best, arg


def _beam(S: np.ndarray, u: np.ndarray, degree: int, beam_width: int,
          start: list[tuple[int, ...]]) -> list[tuple[float, tuple[int, ...]]]:
    """Extend ``start`` sets one feature at a time up to ``degree``; return all beams' edges."""
    found: list[tuple[float, tuple[int, ...]]] = []
    beam = start
    while beam and len(beam[0]) < degree:
        V = np.stack([u * np.prod(S[:, list(J)], axis=1) for J in beam])   # B x m
        E = np.abs(V @ S)                                                  # B x n
        cand: dict[tuple[int, ...], float] = {}
        for b, J in enumerate(beam):
            row = E[b].copy()
            row[list(J)] = -1.0
            top = np.argsort(-row, kind="stable")[:beam_width]
            for f in top:
                if row[f] < 0:
                    continue
                key = tuple(sorted((*J, int(f))))
                if key not in cand:
                    cand[key] = float(row[f])
        ranked = sorted(cand.items(), key=lambda kv: (-kv[1], kv[0]))[:beam_width]
        found.extend((v, J) for J, v in ranked)
        beam = [J for J, _ in ranked]
    return found


def best_parity(X: Any, u: np.ndarray, max_degree: int, *, search: str = "auto",
                beam_width: int = 32, chunk_size: int = 1024,
                dtype: str = "float32") -> tuple[tuple[int, ...], float]:
    """The parity of degree at most ``max_degree`` whose edge ``sum_i u_i chi_J(x_i)`` is
    largest in absolute value.

    Parameters
    ----------
    X : ndarray of shape (m, n), 0/1, or PreparedData
    u : ndarray of shape (m,)
        ``D(i) y_i``.
    max_degree : int
        The largest number of features in ``J`` (every degree from 0 up to it is searched).
    search : {"auto", "exhaustive", "beam"}
        ``"auto"`` is exhaustive for ``max_degree <= 3`` and a beam search above.
    beam_width : int
    chunk_size : int
        Pair rows per matrix product in the degree-3 search.
    dtype : {"float32", "float64"}
        Precision of the degree-3 products (degrees 0-2 are always float64).

    Returns
    -------
    features : tuple of int
        The set ``J`` (empty for the constant).
    edge : float
        Its signed edge in double precision (negative: the negation is the hypothesis).

    Notes
    -----
    Ties go to the lower degree, then to the first set in the search order.  The
    degree-3 products run in ``dtype``; the winner's edge is recomputed in double
    precision, so the returned edge is exact and at most float32 rounding (relative
    ``~1e-6``) below the true maximum.
    """
    if search == "auto":
        search = "exhaustive" if max_degree <= 3 else "beam"
    if search not in ("exhaustive", "beam"):
        raise InputError(f"search must be 'auto', 'exhaustive' or 'beam', got {search!r}.")
    if search == "exhaustive" and max_degree > 3:
        raise InputError(f"Exhaustive parity search is implemented for max_degree <= 3, got "
                         f"max_degree={max_degree}. Use search='beam' for larger degrees.")
    if dtype not in ("float32", "float64"):
        raise InputError(f"dtype must be 'float32' or 'float64', got {dtype!r}.")
    data = X if isinstance(X, PreparedData) else PreparedData(X, "best_parity")
    X = data.binary("the parity search")
    m, n = X.shape
    u = np.asarray(u, dtype=np.float64)
    St64 = data.pm1_transposed("float64")         # S^T, S = 1 - 2X
    total = float(u.sum())
    best_J: tuple[int, ...] = ()
    best_val = abs(total)
    tol = 1e-12

    def consider(J: tuple[int, ...], val: float) -> None:
        nonlocal best_J, best_val
        if val > best_val + tol:
            best_J, best_val = J, val

    if max_degree >= 1 and n >= 1:
        e1 = St64 @ u
        j = first_max(np.abs(e1))
        consider((j,), abs(float(e1[j])))
    top_pairs: list[tuple[int, ...]] = []
    if max_degree >= 2 and n >= 2:
        E2 = (St64 * u) @ St64.T
        E2 = np.abs(np.triu(E2, k=1))
        idx = first_max(E2)
        j, k = divmod(idx, n)
        if j < k:
            consider((j, k), float(E2[j, k]))
        if search == "beam" and max_degree > 2:
            iu, ju = np.triu_indices(n, k=1)
            order = np.argsort(-E2[iu, ju], kind="stable")[:beam_width]
            top_pairs = [(int(iu[o]), int(ju[o])) for o in order]
    if max_degree >= 3 and n >= 3:
        if search == "exhaustive":
            St = data.pm1_transposed(dtype)
            uSt = St * u.astype(dtype)[None, :]
            _, J = _best_degree3(St, uSt, chunk_size)
            if J:
                consider(tuple(sorted(J)), abs(parity_edge(X, u, J)))
        else:
            for _, J in _beam(St64.T, u, max_degree, beam_width, top_pairs):
                consider(J, abs(parity_edge(X, u, J)))
    return best_J, parity_edge(X, u, best_J)


class ParityLearner(WeakLearner):
    """Best sparse parity of degree at most ``max_degree``, or its negation (Reyzin's paper).

    Parameters
    ----------
    max_degree : int, default=2
        The degree bound ``d``: parities of ``0..d`` features are searched (Reyzin's class
        ``H_d``; ``d = 1`` gives the stumps of binary data).
    search : {"auto", "exhaustive", "beam"}, default="auto"
        Exhaustive for ``d <= 3``; a beam search (from the exhaustive degree-2 search) for
        larger ``d`` — fast, but not guaranteed to find the best parity.
    beam_width : int, default=32
    chunk_size : int, default=1024
        Rows of pair products per BLAS call in the degree-3 search (memory is about
        ``chunk_size * (m + n) * 4`` bytes).
    dtype : {"float32", "float64"}, default="float32"
        Precision of the degree-3 products; the chosen parity's edge is recomputed exactly.
    """

    requires_binary = True

    def __init__(self, max_degree: int = 2, search: str = "auto", beam_width: int = 32,
                 chunk_size: int = 1024, dtype: str = "float32"):
        self.max_degree = max_degree
        self.search = search
        self.beam_width = beam_width
        self.chunk_size = chunk_size
        self.dtype = dtype

    def fit(self, X: Any, y: Any, sample_weight: Any = None, *,
            feature_names: Sequence[str] | None = None) -> WeakHypothesis:
        if (isinstance(self.max_degree, bool)
                or not isinstance(self.max_degree, (int, np.integer)) or self.max_degree < 0):
            raise InputError(f"ParityLearner max_degree must be a non-negative int, "
                             f"got {self.max_degree!r}.")
        if int(self.beam_width) < 1 or int(self.chunk_size) < 1:
            raise InputError("beam_width and chunk_size must be positive integers.")
        data, y, w = check_weak_fit_input(X, y, sample_weight, "ParityLearner")
        data.binary("ParityLearner")
        J, edge = best_parity(data, w * y, int(self.max_degree), search=self.search,
                              beam_width=int(self.beam_width),
                              chunk_size=int(self.chunk_size), dtype=self.dtype)
        if not J:
            return Constant(1 if edge > 0 else -1, feature_names=feature_names)
        return Parity(J, negated=edge < 0, feature_names=feature_names)
