"""``export_model`` of :class:`~optirules.learners.DRORuleEnsembleClassifier`: the
optimization models of a fit (the combination IP, the DRO paper eqs 11-14, or a member's
master IP, eqs 6-8) written as ``.lp`` or ``.mps`` files from the fitted attributes and the
training rows the fit keeps."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import InputError, NotFittedError
from ...models import clause_coverage
from .._checks import check_fitted, is_int

__all__ = ["export_model"]


def export_model(self: Any, path: str | os.PathLike, *,
                 which: str | tuple[str, int] = "combination") -> list[Path]:
    r"""Write an optimization model of this fit as ``.lp`` or ``.mps`` (by the suffix).

    Parameters
    ----------
    path : str or path
        File name ending in ``.lp`` or ``.mps``.
    which : "combination", "members" or ("member", k), default "combination"
        ``"combination"``: the sparse combination IP (the DRO paper, eqs 11-14;
        :class:`~optirules.models.SparseCombinationModel`) of the returned ensemble --
        the distinct non-empty members up to its iteration, the pmf it was solved with
        (:math:`P^n` or :math:`P^0`), the overall budget :math:`\mathfrak{C}` and the
        margin; one row per training row (the fit solves the same IP with identical
        rows merged, so the optimum is the candidate's ``objective``).
        ``("member", k)``: the master IP (eqs 6-8; :class:`~optirules.models.RuleMasterModel`)
        of ``members_[k]`` (0-based) over the clause pool its column generation ended
        with, under the pmf :math:`P^{k}` it was fitted on (``pmf_history_[k]``) and the
        member budget :math:`\mathfrak{C}'`; its optimum is the member's
        ``ip_objective`` (``member_results_``).  ``"members"``: every member's master,
        written as ``<stem>_member<k + 1><suffix>`` next to ``path`` (the member's
        number in ``print`` and ``rules_table``).

    Returns
    -------
    list of Path
        The files written.

    Raises
    ------
    InputError
        A bad suffix or ``which``; ``"combination"`` for the binary loss (no combination
        IP) or when every member is empty; a fit of more than two classes (export each
        of ``estimators_``).
    NotFittedError
        Not fitted, or restored from JSON (the training rows are not kept).
    """
    from ...models import RuleMasterModel, SparseCombinationModel

    self._refuse_one_vs_rest("export_model")
    check_fitted(self, "weights_")
    if self._restored:
        raise NotFittedError("export_model needs the training rows of this fit; a model "
                             "restored from JSON cannot rebuild its IPs. Refit it.")
    path = Path(path)
    if path.suffix.lower() not in (".lp", ".mps"):
        raise InputError(f"cannot write {str(path)!r}: use a .lp or .mps suffix.")
    A, y, pools = self._train
    n_members = len(self.member_clauses_)
    if which == "members":
        out = []
        for k in range(n_members):
            # member k + 1, as print, explain, rules_table and the plots number it
            p = path.with_name(f"{path.stem}_member{k + 1}{path.suffix}")
            out += export_model(self, p, which=("member", k))
        return out
    if isinstance(which, tuple) and len(which) == 2 and which[0] == "member":
        k = which[1]
        if not is_int(k, 0) or int(k) >= n_members:
            raise InputError(f"which=('member', k) needs 0 <= k < {n_members}, got {k!r}.")
        k = int(k)
        model = RuleMasterModel(A, y.astype(int), pools[k],
                                sample_weight=self.pmf_history_[k],
                                complexity=float(self.member_complexity_),
                                lambda0=self.lambda0_, lambda1=self.lambda1_)
        model.write(path)
        return [path]
    if which != "combination":
        raise InputError(f"which must be 'combination', 'members' or ('member', k), got "
                         f"{which!r}.")
    if self.loss == "binary":
        raise InputError("the binary loss returns a single member, not a combination: "
                         "export which=('member', k) instead.")
    c = self.candidates_[self.selected_]
    n = int(c["iteration"])
    first: dict[frozenset, int] = {}
    for k, m in enumerate(self.member_clauses_[:n]):
        if m and frozenset(m) not in first:
            first[frozenset(m)] = k
    cols = sorted(first.values())
    if not cols:
        raise InputError("every member of this ensemble is empty: there is no "
                         "combination IP to export.")
    H = np.column_stack([clause_coverage(A, self.member_clauses_[k]).any(axis=1)
                         for k in cols]).astype(np.int8)
    p = (self.pmf_history_[n] if c["pmf"] == "worst_case"
         else getattr(self, "_train_pmf", np.full(len(y), 1.0 / len(y))))
    SparseCombinationModel(H, y.astype(int), self.member_costs_[cols],
                           float(self.complexity), margin=self.margin,
                           sample_weight=p).write(path)
    return [path]

