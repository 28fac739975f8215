r"""Column generation along a path of penalties: one run, the pool and the LP carried over.

The penalty form of the rule master (the DRO paper, eqs 6-8, with :math:`\lambda_0` per
clause and :math:`\lambda_1` per literal instead of the budget row) has one optimum per
penalty.  Model selection needs several (a cross-validated penalty), and, as for the lasso
path of glmnet (Friedman, Hastie and Tibshirani, 2010, "Regularization paths for
generalized linear models via coordinate descent", J. Stat. Softw. 33(1)), they are far
cheaper together than apart: :func:`solve_penalty_path` runs column generation at the
largest penalty, then changes the penalties of the same restricted master in place (the
columns' costs; HiGHS re-solves from the previous basis), prices with the same pricer
(whose row sums carry over), and so on down the path.  Every penalty ends as a run of its
own does: a certified Lagrangian bound over all clauses at that penalty (the duals of its
own LP), the master IP over the pool generated so far, and its gap, so each point of the
path is certified on its own.  The pool only grows, so a smaller penalty starts from every
clause the larger ones needed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..errors import InputError
from ._clauses import Clause
from ._column_generation import ColumnGenerationResult, _ColumnGeneration
from ._problem import ColumnGenerationOptions, RuleSetProblem

__all__ = ["solve_penalty_path"]


def solve_penalty_path(problem: RuleSetProblem, penalties: Sequence[tuple[float, float]],
                       options: ColumnGenerationOptions | None = None, *,
                       initial_clauses: Sequence[Clause] = (),
                       progress: Callable[[dict[str, Any]], None] | None = None
                       ) -> list[ColumnGenerationResult]:
    """Column generation and the master IP at each penalty of a path, in the order given
    (largest first is fastest: the pool grows as the penalty falls), in one run.

    ``problem`` gives everything but the penalties (its own ``lambda0`` and ``lambda1`` are
    replaced by each pair); ``options`` apply to every point, ``time_limit`` to the whole
    path.  Each result is what :func:`solve_column_generation` returns for that penalty from
    the pool of the points before it (module docstring).

    Parameters
    ----------
    problem : RuleSetProblem
        The problem; its penalties are replaced by each pair of ``penalties``.
    penalties : sequence of (float, float)
        The ``(lambda0, lambda1)`` of each point.
    options : ColumnGenerationOptions, optional
        How each point is solved.
    initial_clauses : sequence of clauses
        Columns to start the pool with.
    progress : callable, optional
        Called with each history record (each point's iterations numbered from 1).

    Returns
    -------
    list of ColumnGenerationResult
        One per penalty, in the order given.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 2, size=(300, 6)).astype(bool)
    >>> y = ((X[:, 0] & X[:, 1]) | (X[:, 2] & X[:, 3] & X[:, 4])) ^ (rng.random(300) < 0.1)
    >>> p = RuleSetProblem(np.hstack([X, ~X]), y, None)
    >>> path = solve_penalty_path(p, [(0.1, 0.1), (0.02, 0.02), (0.002, 0.002)])
    >>> [len(r.clauses) for r in path], [round(r.gap, 6) for r in path]
    ([0, 1, 2], [0.0, 0.0, 0.0])
    """
    pairs = [(float(a), float(b)) for a, b in penalties]
    if not pairs:
        raise InputError("penalties must hold at least one (lambda0, lambda1) pair.")
    run = _ColumnGeneration(problem.replace(lambda0=pairs[0][0], lambda1=pairs[0][1]),
                            ColumnGenerationOptions() if options is None else options,
                            initial_clauses, progress, None)
    out = []
    try:
        for i, (l0, l1) in enumerate(pairs):
            if i:
                run.restart(l0, l1)
            out.append(run.solve())
    finally:
        run.close()
    return out
