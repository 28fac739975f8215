"""Packed bitsets: rows of a boolean matrix stored as ``uint64`` words.

A coverage set over ``n`` training rows is stored as ``W = ceil(n / 64)`` unsigned 64-bit
words; bit ``i % 64`` of word ``i // 64`` is row ``i`` (little-endian bit order).  The
intersection of two coverage sets is a word-wise ``&``, and its size a popcount.  Padding
bits past ``n`` are always zero, so popcounts never need a mask.

``np.bitwise_count`` (numpy >= 2.0) does the popcount; older numpy falls back to a
256-entry lookup table over the bytes.
"""

from __future__ import annotations

import numpy as np

__all__ = ["pack_rows", "unpack_rows", "popcount", "n_words"]

_HAS_BITWISE_COUNT = hasattr(np, "bitwise_count")
_BYTE_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


def n_words(n: int) -> int:
    """Number of ``uint64`` words that hold ``n`` bits."""
    return max(1, (int(n) + 63) // 64)


def pack_rows(mask: np.ndarray) -> np.ndarray:
    """Pack each row of a boolean matrix into ``uint64`` words.

    Parameters
    ----------
    mask : ndarray of bool, shape (m, n)

    Returns
    -------
    ndarray of uint64, shape (m, ceil(n / 64))
        Row ``r`` is the bitset of the columns where ``mask[r]`` is true.
    """
    mask = np.asarray(mask, dtype=bool)
    if mask.ndim != 2:
        raise ValueError("pack_rows expects a 2-D boolean matrix")
    m, n = mask.shape
    n_bytes = 8 * n_words(n)
    packed = np.packbits(mask, axis=1, bitorder="little")
    if packed.shape[1] < n_bytes:
        packed = np.concatenate(
            [packed, np.zeros((m, n_bytes - packed.shape[1]), dtype=np.uint8)], axis=1
        )
    return np.ascontiguousarray(packed).view("<u8").astype(np.uint64, copy=False)


def unpack_rows(bits: np.ndarray, n: int) -> np.ndarray:
    """Inverse of :func:`pack_rows`: ``(m, W)`` words back to an ``(m, n)`` boolean matrix."""
    bits = np.ascontiguousarray(bits, dtype="<u8")
    as_bytes = bits.view(np.uint8).reshape(bits.shape[0], -1)
    return np.unpackbits(as_bytes, axis=1, count=n, bitorder="little").astype(bool)


def popcount(bits: np.ndarray) -> np.ndarray:
    """Number of set bits along the last axis of a ``uint64`` array (as ``int64``)."""
    bits = np.asarray(bits, dtype=np.uint64)
    if _HAS_BITWISE_COUNT:
        return np.bitwise_count(bits).sum(axis=-1, dtype=np.int64)
    as_bytes = np.ascontiguousarray(bits).view(np.uint8)
    return _BYTE_POPCOUNT[as_bytes].sum(axis=-1, dtype=np.int64)
