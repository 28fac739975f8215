r"""Literal costs and required groups as rows of the enumeration's literal matrix.

The enumeration (:class:`~optirules.models.EnumerationPricer`) prices a clause by its
degree and the row prices of the rows it covers.  A literal cost and a required group's
bonus are neither, but each becomes a row price on one extra row:

* literal :math:`j` of cost :math:`c_j \ne 1`: a row of ones but at :math:`j`, covered
  exactly by the clauses without :math:`j`, priced :math:`-\alpha (c_j - 1)` with
  :math:`\alpha = \lambda + \lambda_1` (the budget row's dual and the per-literal penalty
  with the limit rows' duals); a clause then pays :math:`\alpha (c_j - 1)` more when it has
  :math:`j`, after the complexity part is shifted by :math:`\alpha \sum_j (c_j - 1)`;
* required group :math:`f`: a row of ones but at its literals, covered exactly by the
  clauses that use none of them, priced at the dual :math:`\rho_f \ge 0` of its master row;
  a clause using the group gets the bonus :math:`\rho_f`, after the shift
  :math:`-\sum_f \rho_f`.

Every clause's enumerated reduced cost is then its true one, and the enumeration's
bounds, which hold for any row prices, stay valid.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["pseudo_prices", "pseudo_rows"]


def pseudo_rows(n_lit: int, costly: np.ndarray, required: Sequence[Sequence[int]]
                ) -> np.ndarray:
    """The extra rows: one per costly literal, then one per required group."""
    rows = np.ones((len(costly) + len(required), n_lit), dtype=bool)
    rows[np.arange(len(costly)), costly] = False
    for f, group in enumerate(required):
        rows[len(costly) + f, list(group)] = False
    return rows


def pseudo_prices(duals: dict[str, Any], extra_cost: np.ndarray, n_required: int
                  ) -> tuple[np.ndarray, float]:
    """The extra rows' prices (``extra_cost``: :math:`c_j - 1` of the costly literals) and
    the shift of the complexity part."""
    alpha = float(duals["lam"]) + float(duals["lambda1"])
    rho = np.asarray(duals.get("required_duals", np.zeros(n_required)), dtype=float)
    rho = rho.reshape(-1)
    prices = np.concatenate([-alpha * extra_cost, rho])
    return prices, float(alpha * extra_cost.sum() - rho.sum())
