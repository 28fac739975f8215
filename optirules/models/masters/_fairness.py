r"""The fairness rows of the rule master (Lawless, Dash, Günlük and Wei, "Interpretable
and Fair Boolean Rule Sets via Column Generation", JMLR 24, 2023): the rates of the
groups of a protected attribute kept within a tolerance of each other, as linear rows of
the master LP and IP.

For the label-1 rows (``equal_opportunity``: equal false-negative, so true-positive,
rates) the master's :math:`\xi_i \in [0, P_i]` is made *exact* by one row per pair of a
label-1 row and a clause covering it,

.. math::

    \xi_i + P_i w_k \le P_i \quad (k \in K_i) \qquad \texttt{exact\_pos}

so that in the IP :math:`\xi_i = P_i` exactly when no chosen clause covers row :math:`i`
(the cover row gives :math:`\ge`, these rows :math:`\le`); without them the LP and the IP
could raise :math:`\xi_i` of a covered row to meet the rows below without changing the
rule set.  With :math:`M^+_g = \sum_{i \in P^+_g} P_i`, for every ordered pair of groups

.. math::

    \frac{1}{M^+_a} \sum_{i \in P^+_a} \xi_i - \frac{1}{M^+_b} \sum_{i \in P^+_b} \xi_i
        \le \varepsilon \qquad \texttt{fnr(a,b)} .

For the label-0 rows (``predictive_equality``: equal false-positive rates) a variable
:math:`\delta_i \in [0, P_i]` per label-0 row with

.. math::

    \delta_i - P_i \sum_{k \in K_i} w_k \le 0 \quad \texttt{neg\_cover},\qquad
    \delta_i - P_i w_k \ge 0 \quad (k \in K_i) \quad \texttt{exact\_neg},

so :math:`\delta_i = P_i` exactly when a chosen clause covers row :math:`i`, and the rows
``fpr(a,b)`` over :math:`\delta` as above.  ``equalized_odds`` is both.  The objective is
unchanged.

**Pricing.**  A new clause enters the pair rows with its own column, whose duals are 0
when it enters, so its reduced cost is that of the master without fairness with one
change: a label-0 row's price is :math:`P_i (1 - \sigma_i)` for the dual
:math:`\sigma_i \ge 0` of its ``neg_cover`` row (a per-row weight change;
:func:`~optirules.models.row_prices`).  The fairness duals reach the label-1 rows through
:math:`\mu`.  Exact pricing at these duals therefore still proves the LP over all clauses
optimal, and the Lagrangian bound stays valid.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

import numpy as np

from ...errors import InputError
from ..options import FAIRNESS

__all__ = ["FairnessRows"]


class FairnessRows:
    """The groups, the rates kept equal and the tolerance of a fair rule master.

    Parameters
    ----------
    labels : bool array of shape (N,)
        The master's labels.
    sample_weight : array of shape (N,)
        Row weights.
    groups : array-like of shape (N,)
        The protected attribute, one value per row (any labels; at least two groups).
    fairness : {"equal_opportunity", "predictive_equality", "equalized_odds"}
        Which rates are kept equal.
    fairness_tolerance : float
        The largest difference allowed between two groups' rates, in [0, 1].

    Examples
    --------
    >>> import numpy as np
    >>> from optirules.models import FairnessRows
    >>> rows = FairnessRows(np.array([1, 1, 0, 0], bool), np.full(4, 0.25),
    ...                     ["a", "b", "a", "b"], "equal_opportunity", 0.1)
    >>> rows.gaps(np.array([True, False, False, False]))
    {'fnr': 1.0}
    """

    def __init__(self, labels: np.ndarray, sample_weight: np.ndarray, groups: Any,
                 fairness: str, fairness_tolerance: float) -> None:
        tolerance = fairness_tolerance
        if fairness not in FAIRNESS:
            raise InputError(f"fairness must be None or one of {FAIRNESS}, got {fairness!r}.")
        if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float, np.number)) \
                or not 0 <= float(tolerance) <= 1:
            raise InputError(f"fairness_tolerance must be a number in [0, 1], got "
                             f"{tolerance!r}.")
        y = np.asarray(labels, dtype=bool).reshape(-1)
        P = np.asarray(sample_weight, dtype=float).reshape(-1)
        g = np.asarray(groups).reshape(-1)
        if g.shape[0] != y.shape[0]:
            raise InputError(f"the protected attribute has {g.shape[0]} values for "
                             f"{y.shape[0]} rows; give one value per row.")
        try:
            self.labels, self.codes = np.unique(g, return_inverse=True)
        except TypeError:
            raise InputError("the protected attribute mixes values that cannot be compared "
                             "(e.g. numbers and strings); give one type.") from None
        self.codes = self.codes.reshape(-1)
        if self.labels.size < 2:
            raise InputError("the protected attribute has a single group; fairness needs "
                             "at least two.")
        self.kind, self.tolerance = fairness, float(tolerance)
        self.positive = fairness in ("equal_opportunity", "equalized_odds")
        self.negative = fairness in ("predictive_equality", "equalized_odds")
        self._y, self._P = y, P
        self.pos_codes = self.codes[y]
        self.neg_codes = self.codes[~y]
        G = self.labels.size
        self.pos_mass = np.bincount(self.pos_codes, weights=P[y], minlength=G)
        self.neg_mass = np.bincount(self.neg_codes, weights=P[~y], minlength=G)
        for side, mass, what in ((self.positive, self.pos_mass, "label-1"),
                                 (self.negative, self.neg_mass, "label-0")):
            empty = np.flatnonzero(mass <= 0) if side else []
            if len(empty):
                raise InputError(
                    f"the group {self.labels[empty[0]]!r} of the protected attribute has no "
                    f"{what} row (of positive weight), so its rate for fairness={fairness!r} "
                    "is undefined; merge it with another group or drop its rows.")

    def pairs(self) -> list[tuple[int, int]]:
        """The ordered pairs of groups, one row ``rate_a - rate_b <= eps`` each.

        Returns
        -------
        list of (int, int)
            Pairs of group codes (positions in ``labels``).
        """
        return list(permutations(range(self.labels.size), 2))

    def rate_rows(self, side: str) -> tuple[list[str], np.ndarray]:
        r"""The rows ``fnr(a,b)`` over :math:`\xi` or ``fpr(a,b)`` over :math:`\delta`.

        Parameters
        ----------
        side : {"pos", "neg"}
            The label-1 rows' miss rates or the label-0 rows' cover rates.

        Returns
        -------
        names : list of str
            One name per ordered pair of groups.
        coefficients : ndarray of shape (n_pairs, n_rows_of_side)
            Each row's coefficients over the variables of that side's rows.
        """
        codes, mass = ((self.pos_codes, self.pos_mass) if side == "pos"
                       else (self.neg_codes, self.neg_mass))
        name = "fnr" if side == "pos" else "fpr"
        rows, names = [], []
        for a, b in self.pairs():
            coef = np.where(codes == a, 1.0 / mass[a], 0.0) - \
                np.where(codes == b, 1.0 / mass[b], 0.0)
            rows.append(coef)
            names.append(f"{name}({a},{b})")
        return names, np.array(rows).reshape(len(rows), codes.size)

    def gaps(self, covered: np.ndarray) -> dict[str, float]:
        """The largest between-group differences of the constrained rates of a rule set.

        Parameters
        ----------
        covered : bool array of shape (N,)
            The rows the rule set covers.

        Returns
        -------
        dict
            ``"fnr"`` (label-1 miss rates) and/or ``"fpr"`` (label-0 cover rates), those
            constrained, weighted by ``sample_weight``.
        """
        covered = np.asarray(covered, dtype=bool)
        y, P = self._y, self._P
        out = {}
        for name, side, codes, mass, on in (
                ("fnr", y, self.pos_codes, self.pos_mass, self.positive),
                ("fpr", ~y, self.neg_codes, self.neg_mass, self.negative)):
            if on:
                event = ~covered[side] if name == "fnr" else covered[side]
                rate = np.bincount(codes, weights=P[side] * event,
                                   minlength=mass.size) / mass
                out[name] = float(rate.max() - rate.min())
        return out

    def meets(self, covered: np.ndarray) -> bool:
        """Whether a rule set meets every rate row.

        Parameters
        ----------
        covered : bool array of shape (N,)
            The rows the rule set covers.

        Returns
        -------
        bool
            Every gap of :meth:`gaps` within ``fairness_tolerance``.
        """
        return all(v <= self.tolerance + 1e-9 for v in self.gaps(covered).values())
