"""A DRO ensemble from one flat set of keywords, the ensemble's own and its members'
column-generation settings (which the ensemble takes as ``member``)."""

from __future__ import annotations

from typing import Any

from optirules.learners import BooleanRuleSetClassifier, DRORuleEnsembleClassifier

#: the settings the ensemble takes from its member
MEMBER_KEYS = ("lambda0", "lambda1", "max_degree", "pricing", "beam_width", "n_columns",
               "max_iter", "mip_gap", "binarizer", "tol", "exact_method")


def dro(**kw: Any) -> DRORuleEnsembleClassifier:
    """``DRORuleEnsembleClassifier(**own, member=...)``: the member is the ensemble's
    default member (budget form, ``tol=0``) with the member settings of ``kw``."""
    member = {k: kw.pop(k) for k in MEMBER_KEYS if k in kw}
    if member:
        kw["member"] = BooleanRuleSetClassifier(**{"lambda0": 0.0, "lambda1": 0.0, "tol": 0.0,
                                                   **member})
    return DRORuleEnsembleClassifier(**kw)
