"""The synthetic restricted master both benchmarks/models.py and benchmarks/solvers.py time:
random literals, y = (x0 & x1) | x2 with 10 % of the labels flipped, and a pool of random
clauses of 1-3 literals cut into batches (one batch per column-generation iteration)."""

import numpy as np


def synthetic_master(n_rows: int, n_lits: int, n_iter: int, per_iter: int, seed: int = 0):
    """Return ``(A, y, batches)``: the 0/1 literal matrix, the labels, the clause batches."""
    rng = np.random.default_rng(seed)
    A = (rng.random((n_rows, n_lits)) < 0.5).astype(np.uint8)
    y = (A[:, 0] & A[:, 1] | A[:, 2]).astype(int)
    flip = rng.random(n_rows) < 0.1
    y[flip] = 1 - y[flip]
    pool = [tuple(sorted(rng.choice(n_lits, size=rng.integers(1, 4), replace=False)))
            for _ in range(n_iter * per_iter * 2)]
    pool = list(dict.fromkeys(pool))[: n_iter * per_iter]
    return A, y, [pool[k * per_iter:(k + 1) * per_iter] for k in range(n_iter)]
