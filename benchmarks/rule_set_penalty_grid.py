"""The penalty study behind ``BooleanRuleSetClassifier``'s default ``lambda0 = lambda1 =
"auto"`` (``c / sqrt(n)``, ``c = 0.1``) and the smoothing strength of its scores.

For each data set, the first ``folds`` of ``StratifiedKFold(5, shuffle=True,
random_state=0)``: a CART whose ``ccp_alpha`` is tuned by inner 5-fold CV (numeric input,
as ``benchmarks/suite.py``'s ``cart_cv``) and the rule set at ``lambda0 = lambda1 = c /
sqrt(n)`` for each scale ``c``; per rule set the test accuracy, literals, fit CPU seconds
and the Brier score of its scores smoothed with ``m`` pseudo-rows at the class prior, for
several ``m`` (``brierc_m<m>``: moved to the side of ``predict`` as the learner does;
``brier_m<m>``: not moved).  One JSON line per fit is appended to ``out``.

Usage::

    python benchmarks/rule_set_penalty_grid.py DATASETS SCALES FOLDS OUT
    python benchmarks/rule_set_penalty_grid.py heart_statlog,ilpd 0.1,0.2 3 grid.jsonl

The committed run is ``benchmarks/results/rule_set_penalty_grid.jsonl`` (summary:
``rule_set_penalty_grid.md``); ``benchmarks/suite.py`` repeats the comparison on 5 folds
with its ``rule_set@c`` learners.
"""

from __future__ import annotations

import json
import math
import sys
import time

import numpy as np
from sklearn.model_selection import StratifiedKFold

from optirules.learners import BooleanRuleSetClassifier

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from suite import CartCV, load  # (the suite's data and CART-CV)

STRENGTHS = (0.0, 1.0, 2.0, 5.0, 10.0)


def smoothed_briers(m, X_tr, X_te, pos_tr, pos_te) -> dict:
    """Brier scores of the rule set's scores smoothed with each strength of STRENGTHS."""
    prior = pos_tr.mean()
    F_tr, F_te = m.decision_rules(X_tr), m.decision_rules(X_te)
    k = (F_tr & pos_tr[:, None]).sum(0).astype(float)
    n = F_tr.sum(0).astype(float)
    none = ~F_tr.any(1) if F_tr.shape[1] else np.ones(len(pos_tr), bool)
    kd, nd = float((none & pos_tr).sum()), float(none.sum())
    hit = F_te.any(1) if F_te.shape[1] else np.zeros(len(pos_te), bool)
    out = {}
    for s in STRENGTHS:
        rule = (k + s * prior) / np.maximum(n + s, 1e-12)
        default = (kd + s * prior) / (nd + s) if nd + s > 0 else prior
        score = np.full(len(pos_te), default)
        if F_te.shape[1]:
            score[hit] = np.where(F_te, rule, -np.inf).max(1)[hit]
        moved = np.where(hit, np.maximum(score, np.nextafter(0.5, 1)), np.minimum(score, 0.5))
        out[f"brier_m{s:g}"] = float(((score - pos_te) ** 2).mean())
        out[f"brierc_m{s:g}"] = float(((moved - pos_te) ** 2).mean())
    return out


def main(names: list[str], scales: list[float], n_folds: int, out_path: str) -> None:
    with open(out_path, "a") as out:
        for name in names:
            X, y = load(name)
            y = np.asarray(y)
            splits = StratifiedKFold(5, shuffle=True, random_state=0).split(X, y)
            for fold, (tr, te) in enumerate(splits):
                if fold >= n_folds:
                    break
                X_tr, X_te, y_tr, y_te = X.iloc[tr], X.iloc[te], y[tr], y[te]
                classes = np.unique(y_tr)
                pos_tr, pos_te = y_tr == classes[1], y_te == classes[1]
                prior_brier = float(((pos_tr.mean() - pos_te) ** 2).mean())
                cart = CartCV()
                t = time.process_time()
                cart.fit(X_tr, y_tr)
                p = cart.proba(X_te)
                rec = {"data": name, "fold": fold, "learner": "cart_cv", "n": len(tr),
                       "acc": float((cart.predict(X_te) == y_te).mean()),
                       "brier": float(((p - pos_te) ** 2).mean()), "prior_brier": prior_brier,
                       "cpu": time.process_time() - t, **cart.facts()}
                out.write(json.dumps(rec) + "\n")
                for c in scales:
                    lam = c / math.sqrt(len(tr))
                    t = time.process_time()
                    m = BooleanRuleSetClassifier(binarizer="auto", random_state=0,
                                                 lambda0=lam, lambda1=lam).fit(X_tr, y_tr)
                    cpu = time.process_time() - t
                    rec = {"data": name, "fold": fold, "learner": f"rs_c{c:g}", "lam": lam,
                           "n": len(tr), "acc": float(m.score(X_te, y_te)),
                           "train_acc": float(m.score(X_tr, y_tr)), "cpu": cpu,
                           "rules": len(m.clauses_), "lits": int(sum(map(len, m.clauses_))),
                           "it": int(m.n_iter_), "status": m.status_, "gap": float(m.gap_),
                           "prior_brier": prior_brier,
                           **smoothed_briers(m, X_tr, X_te, pos_tr, pos_te)}
                    out.write(json.dumps(rec) + "\n")
                    out.flush()
                    print(name, fold, rec["learner"], f"{rec['acc']:.3f}", f"{cpu:.1f} s",
                          flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(sys.argv[1].split(","), [float(c) for c in sys.argv[2].split(",")],
         int(sys.argv[3]), sys.argv[4])
