"""How the rule set's probabilities rank and calibrate, scored several ways from one fit.

Each (data set, fold) of the suite's protocol (``StratifiedKFold(5, shuffle=True,
random_state=0)``) fits ``BooleanRuleSetClassifier(random_state=0)`` once on the training
fold; every scoring below is then computed from that one fitted rule set, so the rows of
the table differ only in how a row's probability is read from the rules:

* ``fitted``: the estimator's own ``predict_proba`` (whatever the installed code does; since
  the pattern scores, ``pattern`` moved to the side of ``predict`` keeping its order);
* ``max_rule``: the largest m-estimate (10 pseudo-rows toward the class share) of the rules
  that fire, moved to the side of ``predict`` (the rule set's scores before the patterns,
  recomputed from its public attributes);
* ``pattern``: this script's own implementation of the share of the class among the training
  rows of the same *pattern* -- the set of rules that fire, or, where none fires, how many
  literals each rule misses -- shrunk toward the share of its side (covered or not),
  itself shrunk toward the class share, each strength the beta-binomial maximum likelihood
  over the groups; not moved to the side of ``predict``.

Printed: per data set and on average, ROC AUC and Brier score of each scoring, the prior's
Brier score (the training fold's class share), and the CART-CV AUC and Brier score of the
committed suite run (``benchmarks/results/suite.csv``) for reference.

    python benchmarks/rule_set_scores.py --max-rows 5000
    python benchmarks/rule_set_scores.py --datasets ilpd,credit_g --out /tmp/scores.md
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def beta_binomial_strength(k, n, mean):
    """The strength ``m`` (pseudo-rows) of a Beta prior of mean ``mean`` (one per group)
    that maximizes the beta-binomial likelihood of the groups' counts ``k`` of ``n``."""
    import numpy as np
    from scipy.optimize import minimize_scalar
    from scipy.special import betaln

    k, n, mean = (np.asarray(a, dtype=float) for a in (k, n, mean))
    mean = np.clip(mean, 1e-9, 1 - 1e-9)
    if k.size < 2:
        return 1e6

    def nll(logm):
        m = np.exp(logm)
        a, b = m * mean, m * (1 - mean)
        return -float(np.sum(betaln(k + a, n - k + b) - betaln(a, b)))

    res = minimize_scalar(nll, bounds=(np.log(1e-2), np.log(1e6)), method="bounded")
    return float(np.exp(res.x))


def patterns(est, X):
    """Per row: covered (some rule fires), and its pattern key (the rules that fire, or
    how many literals each rule misses)."""
    import numpy as np

    rules = est.rules_.rules
    if not rules:
        return np.zeros(len(X), bool), ["none"] * len(X)
    met = [np.column_stack([c.evaluate(X) for c in r.conditions]) for r in rules]
    unmet = np.column_stack([m.shape[1] - m.sum(axis=1) for m in met])
    hit = (unmet == 0).any(axis=1)
    keys = [("hit", tuple(np.flatnonzero(u == 0))) if h else ("miss", tuple(u))
            for u, h in zip(unmet, hit)]
    return hit, keys


def pattern_scores(est, X_tr, y_tr, X_te):
    """The ``pattern`` scoring of the module docstring: P(the rules' class) per test row."""
    import numpy as np

    pos = np.asarray(y_tr) == est.rules_.positive_class
    hit_tr, keys_tr = patterns(est, X_tr)
    prior = pos.mean()
    side_k = np.array([pos[hit_tr].sum(), pos[~hit_tr].sum()], float)
    side_n = np.array([hit_tr.sum(), (~hit_tr).sum()], float)
    ok = side_n > 0
    m1 = beta_binomial_strength(side_k[ok], side_n[ok], np.full(ok.sum(), prior))
    side = (side_k + m1 * prior) / (side_n + m1)
    groups = {}
    for key, p in zip(keys_tr, pos):
        g = groups.setdefault(key, [0.0, 0.0])
        g[0] += p
        g[1] += 1
    names = list(groups)
    k = np.array([groups[g][0] for g in names])
    n = np.array([groups[g][1] for g in names])
    mean = np.array([side[0] if g[0] == "hit" else side[1] for g in names])
    m2 = beta_binomial_strength(k, n, mean)
    table = dict(zip(names, (k + m2 * mean) / (n + m2)))
    hit_te, keys_te = patterns(est, X_te)
    return np.array([table.get(key, side[0] if h else side[1])
                     for key, h in zip(keys_te, hit_te)])


def evaluate(est, X_tr, y_tr, X_te):
    """The test scores of every scoring (probability of ``classes_[1]``), for a rule set of
    ``classes_[1]`` (the default ``target_class``, a DNF)."""
    import numpy as np

    out = {"fitted": est.predict_proba(X_te)[:, 1]}
    fired = est.decision_rules(X_te)
    hit = fired.any(axis=1) if fired.shape[1] else np.zeros(len(X_te), bool)
    rule = (est.rule_precision_ * est.rule_support_ + 10 * est.class_prior_) / (
        est.rule_support_ + 10)
    default = (est.default_precision_ * est.default_support_ + 10 * est.class_prior_) / (
        est.default_support_ + 10)
    s = np.full(len(X_te), default)
    if fired.shape[1]:
        s[hit] = np.where(fired, rule, -np.inf).max(axis=1)[hit]
    out["max_rule"] = np.where(hit, np.maximum(s, 0.5 + 1e-12), np.minimum(s, 0.5))
    out["pattern"] = pattern_scores(est, X_tr, y_tr, X_te)
    return out


def main(argv=None) -> int:
    import numpy as np
    import pandas as pd
    from sklearn.metrics import brier_score_loss, roc_auc_score
    from sklearn.model_selection import StratifiedKFold
    from suite import dataset_names, dataset_rows, load

    from optirules.learners import BooleanRuleSetClassifier

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default=None)
    ap.add_argument("--max-rows", type=int, default=None)
    ap.add_argument("--out", default=str(HERE / "results" / "rule_set_scores.md"))
    args = ap.parse_args(argv)
    names = args.datasets.split(",") if args.datasets else [
        n for n in dataset_names() if args.max_rows is None or dataset_rows(n) <= args.max_rows]
    ref = pd.read_csv(HERE / "results" / "suite.csv")
    ref = ref[ref["learner"] == "cart_cv"].groupby("dataset")[["auc", "brier"]].mean()
    rows = []
    load0 = os.getloadavg()
    t0 = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    for name in names:
        X, y = load(name)
        y = np.asarray(y)
        per = {}
        for tr, te in StratifiedKFold(5, shuffle=True, random_state=0).split(X, y):
            est = BooleanRuleSetClassifier(random_state=0).fit(X.iloc[tr], y[tr])
            scores = evaluate(est, X.iloc[tr], y[tr], X.iloc[te])
            prior = float(np.mean(y[tr] == est.classes_[1]))
            yt = (y[te] == est.classes_[1]).astype(int)
            per.setdefault("prior_brier", []).append(brier_score_loss(yt, np.full(len(te), prior)))
            for k, s in scores.items():
                per.setdefault(f"{k}_auc", []).append(
                    roc_auc_score(yt, s) if 0 < yt.sum() < len(yt) else np.nan)
                per.setdefault(f"{k}_brier", []).append(brier_score_loss(yt, s))
        row = {"dataset": name, **{k: float(np.nanmean(v)) for k, v in per.items()}}
        if name in ref.index:
            row["cart_cv_auc"], row["cart_cv_brier"] = ref.loc[name, "auc"], ref.loc[name, "brier"]
        rows.append(row)
        print(name, {k: round(v, 4) for k, v in row.items() if k != "dataset"}, flush=True)
    df = pd.DataFrame(rows).set_index("dataset")
    load1 = os.getloadavg()
    kinds = ["fitted", "max_rule", "pattern"]
    lines = ["# Rule-set scores read several ways from one fit",
             "",
             f"Run {t0}, `python benchmarks/rule_set_scores.py "
             f"{' '.join(argv if argv is not None else sys.argv[1:])}`; Python "
             f"{platform.python_version()}, numpy {np.__version__}; load average at the start "
             f"{tuple(round(v, 2) for v in load0)}, at the end "
             f"{tuple(round(v, 2) for v in load1)}.  The scorings are described in the "
             "script's docstring; CART-CV is the committed suite run's.",
             "",
             "| data set | " + " | ".join(f"{k} AUC" for k in kinds) + " | CART-CV AUC | "
             + " | ".join(f"{k} Brier" for k in kinds) + " | prior Brier | CART-CV Brier |",
             "|---" * (2 * len(kinds) + 4) + "|"]
    for name, r in df.iterrows():
        lines.append(f"| {name} | " + " | ".join(f"{r[f'{k}_auc']:.4f}" for k in kinds)
                     + f" | {r.get('cart_cv_auc', np.nan):.4f} | "
                     + " | ".join(f"{r[f'{k}_brier']:.4f}" for k in kinds)
                     + f" | {r['prior_brier']:.4f} | {r.get('cart_cv_brier', np.nan):.4f} |")
    mean = df.mean()
    lines.append(f"| **mean ({len(df)} sets)** | " + " | ".join(
        f"{mean[f'{k}_auc']:.4f}" for k in kinds) + f" | {mean.get('cart_cv_auc', np.nan):.4f} | "
        + " | ".join(f"{mean[f'{k}_brier']:.4f}" for k in kinds)
        + f" | {mean['prior_brier']:.4f} | {mean.get('cart_cv_brier', np.nan):.4f} |")
    above = {k: [n for n, r in df.iterrows() if r[f"{k}_brier"] > r["prior_brier"]]
             for k in kinds}
    lines += ["", "Sets where the mean Brier score is above the prior's: " + "; ".join(
        f"{k}: {len(v)} ({', '.join(v) if v else 'none'})" for k, v in above.items()) + "."]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
