"""Test-set accuracy, calibration, size and fit time of the project's learners against the
peers a user would pick instead, on every bundled data set.

* Data: every data set of ``optirules.data.list_datasets()`` (all binary, loaded with
  ``load_dataset``) and scikit-learn's bundled ``load_breast_cancer`` as
  ``sklearn_breast_cancer`` (its own labels: 1 = benign; ``wdbc`` is the same 569 rows with
  1 = malignant).
* Protocol: ``StratifiedKFold(5, shuffle=True, random_state=0)`` (``--folds``); every learner
  is fitted on the training fold and scored on the test fold.
* Ours, on the raw DataFrame (strings and NaN as loaded): ``rule_set``
  ``BooleanRuleSetClassifier(binarizer="auto", random_state=0)``; ``rule_set_cv``
  ``BooleanRuleSetCV(BooleanRuleSetClassifier(binarizer="auto", random_state=0))`` (the CV's
  own defaults: 5-penalty grid, 5 inner folds); ``dro``
  ``DRORuleEnsembleClassifier(random_state=0)`` (its members binarize with ``"auto"``); ``decision_list``
  ``DecisionListClassifier()``; ``decision_list_cv`` ``DecisionListCV()``.  ``boosting``
  ``BoostingClassifier()`` (defaults: AdaBoost over stumps) gets the peers' numeric
  input.
* ``rule_set@c`` (any number ``c > 0``): the rule set with ``lambda0 = lambda1 = c /
  sqrt(n)`` for the fold's ``n`` training rows, the form of its ``"auto"`` penalty: the
  study that chose that default's ``c`` (``--learners rule_set@0.05,rule_set@0.1``).
* ``rule_set_cv@stopK`` (an integer ``K >= 1``): ``rule_set_cv`` with
  ``n_iter_no_change=K``, the penalty path (largest penalty first) stopped after ``K``
  penalties without a better mean validation score.
* Peers, on numeric input built from the training fold (numeric columns median-imputed,
  string columns one-hot encoded with missing values as their own category, unknown test
  categories all-zero; coded categoricals stay numbers, as our learners get them): ``cart_cv``
  scikit-learn's ``DecisionTreeClassifier(random_state=0)`` whose ``ccp_alpha`` is chosen by
  ``GridSearchCV`` (inner ``StratifiedKFold(5, shuffle=True, random_state=0)``, accuracy)
  over the tree's own ``cost_complexity_pruning_path`` on the training fold, thinned to at
  most 30 evenly spaced alphas; ``logreg`` ``StandardScaler`` + ``LogisticRegression(
  max_iter=1000)``; ``ripper`` ``wittgenstein.RIPPER(random_state=0)`` with ``pos_class=1``
  on the numeric DataFrame; ``rulefit`` ``imodels.RuleFitClassifier(random_state=0)``;
  ``boosted_rules`` ``imodels.BoostedRulesClassifier(random_state=0)``; ``ebm`` interpret's
  ``ExplainableBoostingClassifier(random_state=0, n_jobs=1)`` (its terms counted as rules;
  the peers come with ``pip install -e ".[bench]"``); ``brcg`` AIX360's
  ``BooleanRuleCG(solver="HIGHS")`` in its own environment (``benchmarks/brcg_peer.py``
  describes it and how to build it; ``--brcg-python``), fitted in that interpreter on the
  fold's 0/1 literal matrix as ``binarizer="auto"`` builds it on the training rows (the
  literal set of ``rule_set``; brcg_peer's column layout where the literals come in
  (literal, negation) pairs, else the binarizer's columns as they are), without
  probabilities; skipped with a note when that interpreter does not exist.  The numeric
  preprocessing is part of each peer's timed fit.  imodels 3.0.4 imports ``six`` in its
  package ``__init__`` (through SkopeRules) without declaring it; when ``import imodels``
  fails, the two learners are loaded from their own modules without running that
  ``__init__`` (the report says which route was taken).  A peer that fails to import or
  raises is recorded as an error with its message; the run goes on.
* Per (data set, learner, fold): accuracy, balanced accuracy, ROC AUC of
  ``predict_proba[:, 1]`` (NaN without one), Brier score, the prior's Brier score on that
  test fold (predicting the training fold's positive rate), log loss without clipping
  (``inf`` when a probability is exactly 0 or 1 on the wrong side) and the share of test
  probabilities exactly 0 or 1, the number of rules and literals (rule set: ``clauses_``;
  decision list: ``rules_``, the default rule and its fallback not counted; DRO: the rules
  of the members of positive weight, summed; boosting and boosted_rules: the distinct stumps
  ``(feature, threshold)``, one literal each; CART: leaves and the sum of the leaves'
  depths; RIPPER: ``ruleset_`` rules and conditions; RuleFit: the rules of nonzero weight
  and their conditions, its linear terms apart; logreg: none), fit CPU seconds
  (``time.process_time`` of this process around ``fit``; every learner runs with one job and
  one BLAS thread; BRCG: its interpreter's) and wall seconds, the warnings raised, and for
  the rule sets ``n_iter_``, ``status_`` and ``gap_`` (CV: of the refitted rule set).
* Every result (an error too) is appended as one JSON line to ``--store`` and skipped when a
  line with the same (tag, data set, learner, number of folds, fold) is already there, so a
  run can be stopped, resumed and extended (``--retry-errors`` fits the errors again;
  ``--report-only`` writes the report from the stored rows without fitting).
  ``--tag`` defaults to the short git commit, with ``+dirty.<hash>`` of the uncommitted
  changes to ``optirules/`` and this file if any, so that rows measured on other code are not
  mixed in; pass the same ``--tag`` to extend a run across commits that do not touch the
  learners.

Run from the repository root; run parts with ``--datasets``, ``--skip-datasets``,
``--max-rows`` and ``--learners``::

    nice -n 5 python benchmarks/suite.py
    python benchmarks/suite.py --learners rule_set,cart_cv --datasets heart_statlog,liver_disorders_bupa
    python benchmarks/suite.py --max-rows 1000 --folds 2 --store /tmp/s.jsonl --out /tmp/s.md

Writes ``benchmarks/results/suite.md`` (``--out``: per data set a table of means over the
folds, then a summary over the data sets) and the per-fold table beside it as ``suite.csv``;
the markdown is rewritten after every data set.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import hashlib
import json
import math
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"
SKLEARN_BC = "sklearn_breast_cancer"
OURS = ("rule_set", "rule_set_cv", "dro", "decision_list", "decision_list_cv", "boosting")
PEERS = ("cart_cv", "logreg", "ripper", "rulefit", "boosted_rules", "ebm", "brcg")
LEARNERS = OURS + PEERS
REFERENCE = "cart_cv"  # the learner the summary compares with
MAX_ALPHAS = 30  # cart_cv: pruning alphas searched, at most
NAN = float("nan")


# ============================================================ data
def dataset_names() -> list[str]:
    from optirules.data import list_datasets

    return [*list_datasets()["name"], SKLEARN_BC]


def dataset_rows(name: str) -> int:
    from optirules.data import list_datasets

    if name == SKLEARN_BC:
        return 569
    table = list_datasets()
    return int(table.loc[table["name"] == name, "rows"].iloc[0])


def load(name: str):
    """``(X DataFrame, y ndarray of 0/1)``."""
    import numpy as np

    if name == SKLEARN_BC:
        from sklearn.datasets import load_breast_cancer

        bunch = load_breast_cancer(as_frame=True)
        return bunch.data.copy(), np.asarray(bunch.target, dtype=np.int64)
    from optirules.data import load_dataset

    return load_dataset(name)


def numeric_input():
    """The peers' preprocessing (unfitted): median imputation of the numeric columns, one-hot
    encoding of the others (missing values a category of their own); a DataFrame out."""
    from sklearn.compose import ColumnTransformer, make_column_selector
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer, OneHotEncoder

    def as_object(frame):
        return frame.astype(object).where(frame.notna(), "missing")

    categorical = make_pipeline(
        FunctionTransformer(as_object, feature_names_out="one-to-one"),
        OneHotEncoder(handle_unknown="ignore", sparse_output=False))
    return ColumnTransformer(
        [("num", SimpleImputer(strategy="median"), make_column_selector(dtype_include="number")),
         ("cat", categorical, make_column_selector(dtype_exclude="number"))],
        verbose_feature_names_out=False).set_output(transform="pandas")


# ============================================================ learners
class Learner:
    """One learner on one fold: ``fit``, then ``predict`` / ``proba`` (P(y = 1) or None)
    and ``facts`` (rules, literals and what else the model says about its fit)."""

    numeric = False  # True: fitted on the peers' numeric input

    def __init__(self, est) -> None:
        self.est = est

    def _x(self, X, fit: bool = False):
        if not self.numeric:
            return X
        if fit:
            self.prep = numeric_input().fit(X)
        return self.prep.transform(X)

    def fit(self, X, y) -> None:
        self.est.fit(self._x(X, fit=True), y)

    def predict(self, X):
        return self.est.predict(self._x(X))

    def proba(self, X):
        import numpy as np

        classes = list(getattr(self.est, "classes_", [0, 1]))
        if classes != [0, 1]:
            raise RuntimeError(f"classes_ {classes}, expected [0, 1]")
        return np.asarray(self.est.predict_proba(self._x(X)))[:, 1]

    def facts(self) -> dict:
        return {"n_rules": NAN, "n_literals": NAN}


def _rule_set_facts(est) -> dict:
    n_iter = est.n_iter_
    return {"n_rules": len(est.clauses_), "n_literals": int(sum(len(c) for c in est.clauses_)),
            "n_iter": int(n_iter) if n_iter is not None else None, "status": str(est.status_),
            "gap": float(est.gap_), "gap_certified": bool(est.gap_certified_),
            "max_degree": int(est.max_degree_)}


class RuleSet(Learner):
    def facts(self) -> dict:
        return _rule_set_facts(self.est)


class RuleSetScaled(RuleSet):
    """``rule_set@c``: the rule set with ``lambda0 = lambda1 = c / sqrt(n)`` for the ``n``
    training rows of the fold (the form of ``"auto"``, whose ``c`` is the learner's
    ``PENALTY_SCALE``): the penalty study behind that default."""

    def __init__(self, est, scale: float) -> None:
        super().__init__(est)
        self.scale = scale

    def fit(self, X, y) -> None:
        lam = self.scale / len(y) ** 0.5
        self.est.set_params(lambda0=lam, lambda1=lam)
        super().fit(X, y)


class RuleSetCV(Learner):
    def facts(self) -> dict:
        out = _rule_set_facts(self.est.best_estimator_)
        out["cv_status"] = str(self.est.status_)
        out["penalty"] = [float(p) for p in self.est.penalty_]
        return out


class DRO(Learner):
    def facts(self) -> dict:
        est = self.est
        used = [k for k in range(len(est.members_)) if est.weights_[k] > 0]
        members = [r["status"] for r in est.member_results_]
        return {"n_rules": int(sum(est.members_[k].n_rules for k in used)),
                "n_literals": int(sum(est.members_[k].n_literals for k in used)),
                "n_members": len(used), "status": str(est.status_),
                "n_iter": [int(v) for v in est.n_iter_],
                "member_max_iter": sum(s.startswith("max_iter") for s in members),
                "max_degree": int(est.max_degree_)}


def _decision_list_facts(est) -> dict:
    return {"n_rules": len(est.rules_),
            "n_literals": int(sum(len(r.conditions) for r in est.rules_)),
            "stop_reason": str(est.stop_reason_)}


class DecisionList(Learner):
    def facts(self) -> dict:
        return _decision_list_facts(self.est)


class DecisionListCV(Learner):
    def facts(self) -> dict:
        out = _decision_list_facts(self.est.best_estimator_)
        out["best_params"] = {k: int(v) for k, v in self.est.best_params_.items()}
        return out


class Boosting(Learner):
    numeric = True

    def facts(self) -> dict:
        seen, lits = set(), 0
        for h in self.est.hypotheses_:
            d = h.to_dict()
            kind = d["type"]
            if kind == "constant":
                continue
            if kind == "stump":
                key = ("stump", d["feature"], d["threshold"])
                n = 1
            elif kind == "literal":
                key, n = ("literal", d.get("feature")), 1
            else:  # parity or tree: no literal count here
                key, n = json.dumps(d, sort_keys=True, default=str), NAN
            if key not in seen:
                seen.add(key)
                lits += n
        return {"n_rules": len(seen), "n_literals": lits,
                "stop_reason": str(self.est.stop_reason_)}


class CartCV(Learner):
    numeric = True

    def __init__(self) -> None:
        super().__init__(None)

    def fit(self, X, y) -> None:
        import numpy as np
        from sklearn.model_selection import GridSearchCV, StratifiedKFold
        from sklearn.tree import DecisionTreeClassifier

        Z = self._x(X, fit=True)
        tree = DecisionTreeClassifier(random_state=0)
        alphas = np.unique(tree.cost_complexity_pruning_path(Z, y).ccp_alphas.clip(0.0))
        if len(alphas) > MAX_ALPHAS:
            alphas = np.unique(alphas[np.linspace(0, len(alphas) - 1, MAX_ALPHAS).round()
                                      .astype(int)])
        self.est = GridSearchCV(tree, {"ccp_alpha": list(alphas)}, scoring="accuracy",
                                cv=StratifiedKFold(5, shuffle=True, random_state=0))
        self.est.fit(Z, y)
        self.n_alphas = len(alphas)

    def facts(self) -> dict:
        import numpy as np

        t = self.est.best_estimator_.tree_
        depth = np.zeros(t.node_count, dtype=int)
        for node in range(t.node_count):  # children come after their parent
            for child in (t.children_left[node], t.children_right[node]):
                if child >= 0:
                    depth[child] = depth[node] + 1
        leaves = t.children_left < 0
        return {"n_rules": int(leaves.sum()), "n_literals": int(depth[leaves].sum()),
                "ccp_alpha": float(self.est.best_params_["ccp_alpha"]),
                "n_alphas": self.n_alphas}


class LogReg(Learner):
    numeric = True

    def facts(self) -> dict:
        import numpy as np

        coef = self.est[-1].coef_
        return {"n_rules": NAN, "n_literals": NAN, "n_nonzero_coef": int(np.count_nonzero(coef)),
                "n_iter": int(np.max(self.est[-1].n_iter_))}


class Ripper(Learner):
    numeric = True

    def fit(self, X, y) -> None:
        self.est.fit(self._x(X, fit=True), y, pos_class=1)  # returns None

    def predict(self, X):
        import numpy as np

        return np.asarray(self.est.predict(self._x(X)), dtype=bool).astype(np.int64)

    def proba(self, X):
        import numpy as np

        return np.asarray(self.est.predict_proba(self._x(X)))[:, 1]  # columns (neg, pos)

    def facts(self) -> dict:
        rules = self.est.ruleset_.rules
        return {"n_rules": len(rules), "n_literals": int(sum(len(r.conds) for r in rules))}


class IModels(Learner):
    numeric = True

    def fit(self, X, y) -> None:
        Z = self._x(X, fit=True)
        self.est.fit(Z.to_numpy(dtype=float), y, feature_names=[str(c) for c in Z.columns])

    def predict(self, X):
        return self.est.predict(self._x(X).to_numpy(dtype=float))

    def proba(self, X):
        import numpy as np

        if list(self.est.classes_) != [0, 1]:
            raise RuntimeError(f"classes_ {list(self.est.classes_)}, expected [0, 1]")
        return np.asarray(self.est.predict_proba(self._x(X).to_numpy(dtype=float)))[:, 1]


class RuleFit(IModels):
    def facts(self) -> dict:
        import numpy as np

        n_linear = int(np.count_nonzero(np.asarray(self.est.coef[:self.est.n_features_])))
        rules = self.est.rules_  # imodels keeps the rules of nonzero weight only
        return {"n_rules": len(rules), "n_literals": int(sum(len(r.agg_dict) for r in rules)),
                "n_linear_terms": n_linear if self.est.include_linear else 0}


class BoostedRules(IModels):
    def facts(self) -> dict:
        seen, lits = set(), 0
        for tree, w in zip(self.est.estimators_, self.est.estimator_weights_):
            t = tree.tree_
            inner = t.children_left >= 0
            key = tuple(zip(t.feature[inner].tolist(), t.threshold[inner].tolist()))
            if w > 0 and key and key not in seen:
                seen.add(key)
                lits += int(inner.sum())
        return {"n_rules": len(seen), "n_literals": lits}


class EBM(Learner):
    """interpret's ExplainableBoostingClassifier: a sum of one-feature shape functions and
    pairwise interactions; its terms count as rules (no literals)."""

    numeric = True

    def facts(self) -> dict:
        return {"n_rules": len(self.est.term_features_), "n_literals": NAN}


IMODELS_ROUTE: dict = {}
_IMODELS_MODULES = {"RuleFitClassifier": "imodels.rule_set.rule_fit",
                    "BoostedRulesClassifier": "imodels.rule_set.boosted_rules"}


def _imodels(name: str):
    """``RuleFitClassifier`` or ``BoostedRulesClassifier`` of the installed imodels: from the
    package, or, when its ``__init__`` fails to import, from the learner's own module."""
    import importlib

    if IMODELS_ROUTE.get("stub"):
        return getattr(importlib.import_module(_IMODELS_MODULES[name]), name)
    try:
        import imodels

        IMODELS_ROUTE["route"] = "import imodels"
        return getattr(imodels, name)
    except ImportError as exc:
        import importlib.util
        import types

        spec = importlib.util.find_spec("imodels")
        if spec is None or not spec.submodule_search_locations:
            raise
        for mod in [m for m in sys.modules if m == "imodels" or m.startswith("imodels.")]:
            del sys.modules[mod]  # the half-imported package
        pkg = types.ModuleType("imodels")
        pkg.__path__ = list(spec.submodule_search_locations)
        sys.modules["imodels"] = pkg
        IMODELS_ROUTE.update(stub=True, route=(
            "imodels.rule_set.rule_fit and imodels.rule_set.boosted_rules loaded without the "
            f"package __init__, whose import failed: {type(exc).__name__}: {exc}"))
        return getattr(importlib.import_module(_IMODELS_MODULES[name]), name)


def make_learner(name: str) -> Learner:
    """A fresh learner (imports happen here, so an import failure is that fit's error)."""
    head, _, variant = name.partition("@")  # rule_set@c, rule_set_cv@stopK (see _scaled)
    if head in ("rule_set", "rule_set_cv"):
        from optirules.learners import BooleanRuleSetClassifier, BooleanRuleSetCV

        base = BooleanRuleSetClassifier(binarizer="auto", random_state=0)
        if head == "rule_set":
            return RuleSetScaled(base, float(variant)) if variant else RuleSet(base)
        stop = {"n_iter_no_change": int(variant[len("stop"):])} if variant else {}
        return RuleSetCV(BooleanRuleSetCV(base, **stop))
    if name == "dro":
        from optirules.learners import DRORuleEnsembleClassifier

        return DRO(DRORuleEnsembleClassifier(random_state=0))
    if name == "decision_list":
        from optirules.learners import DecisionListClassifier

        return DecisionList(DecisionListClassifier())
    if name == "decision_list_cv":
        from optirules.learners import DecisionListCV as DLCV

        return DecisionListCV(DLCV())
    if name == "boosting":
        from optirules.learners import BoostingClassifier

        return Boosting(BoostingClassifier())
    if name == "cart_cv":
        return CartCV()
    if name == "logreg":
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        return LogReg(make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)))
    if name == "ripper":
        import wittgenstein

        return Ripper(wittgenstein.RIPPER(random_state=0))
    if name == "rulefit":
        return RuleFit(_imodels("RuleFitClassifier")(random_state=0))
    if name == "boosted_rules":
        return BoostedRules(_imodels("BoostedRulesClassifier")(random_state=0))
    if name == "ebm":
        from interpret.glassbox import ExplainableBoostingClassifier

        return EBM(ExplainableBoostingClassifier(random_state=0, n_jobs=1))
    raise ValueError(f"unknown learner {name!r}")


# ============================================================ BRCG (its own interpreter)
def _brcg_module():
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    import brcg_peer

    return brcg_peer


def _brcg_fit(req: dict, cache: dict, BooleanRuleCG) -> dict:
    """Peer side: brcg_peer's fit, which answers the test predictions too."""
    return _brcg_module()._peer_fit(req, cache, BooleanRuleCG)


def serve_brcg() -> int:
    bp = _brcg_module()
    bp._peer_fit = _brcg_fit
    return bp.serve()


def brcg_matrices(X, y, train, test):
    """The fold's 0/1 literal matrices for BRCG, the literals ``binarizer="auto"`` builds on
    the training rows, and their ``(feature, op, value)`` columns: brcg_peer's layout (every
    ``<=`` literal, then the ``>`` ones) where the binarizer's columns are (literal,
    negation) pairs, else the binarizer's own columns in its order (categorical columns
    and missing values break the pairs)."""
    import numpy as np

    from optirules.learners import BooleanRuleSetClassifier

    try:
        H_tr, H_te, columns, _, _ = _brcg_module().fold_matrices(X, y, train, test)
        return np.hstack([H_tr, 1 - H_tr]), np.hstack([H_te, 1 - H_te]), columns, "pairs"
    except SystemExit:  # brcg_peer's check of the pairs
        fb = BooleanRuleSetClassifier(binarizer="auto")._make_binarizer()
        fb.fit(X.iloc[train])
        columns = [(lit.feature, lit.op, lit.value) for lit in fb.literals_]
        return (np.asarray(fb.transform(X.iloc[train]), dtype=np.uint8),
                np.asarray(fb.transform(X.iloc[test]), dtype=np.uint8), columns,
                "binarizer columns")


class BrcgPeer:
    """The peer interpreter of ``brcg_peer.py``, kept alive over the run (started lazily)."""

    def __init__(self, python: str, tmp: Path) -> None:
        self.python, self.tmp, self.peer, self.stack = python, tmp, None, None
        self.failed: str | None = None
        self.count = 0

    def available(self) -> bool:
        return bool(self.python) and Path(self.python).exists()

    def _start(self):
        if self.failed:  # the interpreter did not start: every fit is that error
            raise RuntimeError(self.failed)
        if self.peer is None:
            bp = _brcg_module()
            peer = bp.Peer.__new__(bp.Peer)  # brcg_peer's Peer, serving this file's fit
            peer.log = self.tmp / "brcg_stderr.txt"
            self.log_file = peer.log.open("w")
            peer.proc = subprocess.Popen(
                [self.python, str(Path(__file__).resolve()), "--serve-brcg"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log_file,
                text=True, bufsize=1, env=dict(os.environ))
            try:
                self.stack = peer.ask(cmd="stack")
            except Exception as exc:
                peer.proc.kill()
                peer.proc.wait()
                peer.proc.stdin.close()
                peer.proc.stdout.close()
                self.log_file.close()
                last = [ln for ln in str(exc).splitlines() if ln.strip()][-1:]
                self.failed = (f"the BRCG environment did not start ({self.python}): "
                               f"{' '.join(last)}")
                raise RuntimeError(self.failed) from None
            self.peer = peer
        return self.peer

    def fit(self, X, y, train, test) -> dict:
        import numpy as np

        peer = self._start()
        Xtr, Xte, columns, layout = brcg_matrices(X, y, train, test)
        self.count += 1
        path = self.tmp / f"fold{self.count}.npz"  # the peer caches its frames by path
        np.savez(path, Xtr=Xtr, ytr=y[train], Xte=Xte, yte=y[test],
                 columns=np.array(json.dumps(columns, default=str)))
        try:
            out = peer.ask(cmd="fit", path=str(path), solver="HIGHS")
        finally:
            path.unlink(missing_ok=True)
        out["literal_matrix"] = layout
        return out

    def close(self) -> None:
        if self.peer is not None:
            try:
                self.peer.close()
            except (OSError, subprocess.TimeoutExpired):
                self.peer.proc.kill()
                self.peer.proc.wait()
            self.peer.proc.stdout.close()
            self.log_file.close()


# ============================================================ one fit
def scores(y, pred, p, prior: float) -> dict:
    """The test-fold metrics; ``p`` = P(y = 1) or None."""
    import numpy as np
    from sklearn.metrics import accuracy_score, balanced_accuracy_score, roc_auc_score

    y = np.asarray(y)
    out = {"accuracy": float(accuracy_score(y, pred)),
           "balanced_accuracy": float(balanced_accuracy_score(y, pred)),
           "prior_brier": float(np.mean((prior - y) ** 2))}
    if p is None:
        out.update(auc=NAN, brier=NAN, log_loss=NAN, share_0_1=NAN)
        return out
    p = np.asarray(p, dtype=float)
    with np.errstate(divide="ignore"):
        loss = np.where(y == 1, -np.log(p), -np.log1p(-p))
    out.update(auc=float(roc_auc_score(y, p)), brier=float(np.mean((p - y) ** 2)),
               log_loss=float(np.mean(loss)), share_0_1=float(np.mean((p == 0) | (p == 1))))
    return out


def _warning_facts(caught) -> dict:
    distinct = []
    for w in caught:
        text = f"{w.category.__name__}: {str(w.message)[:160]}"
        if text not in distinct:
            distinct.append(text)
    return {"n_warnings": len(caught), "warnings": distinct[:3]}


def run_fit(name: str, X, y, train, test, brcg: BrcgPeer | None) -> dict:
    import numpy as np

    Xtr, Xte = X.iloc[train].reset_index(drop=True), X.iloc[test].reset_index(drop=True)
    ytr, yte = y[train], y[test]
    out: dict = {"n_train": len(train), "n_test": len(test),
                 "load_1min": round(os.getloadavg()[0], 2),
                 "time": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")}
    prior = float(np.mean(ytr))
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if name == "brcg":
                res = brcg.fit(X, y, train, test)
                pred, p = np.asarray(res["pred"]), None
                out.update(fit_cpu=res["cpu"], fit_wall=res["wall"], n_rules=res["n_rules"],
                           n_literals=res["n_literals"], n_iter=res["iterations"],
                           literal_matrix=res["literal_matrix"])
            else:
                learner = make_learner(name)
                w0, c0 = time.perf_counter(), time.process_time()
                learner.fit(Xtr, ytr)
                cpu, wall = time.process_time() - c0, time.perf_counter() - w0
                out.update(fit_cpu=cpu, fit_wall=wall)
                pred = np.asarray(learner.predict(Xte)).astype(np.int64)
                p = learner.proba(Xte) if hasattr(learner.est, "predict_proba") else None
                out.update(learner.facts())
        out.update(scores(yte, pred, p, prior))
        out.update(_warning_facts(caught))
        out["error"] = None
    except Exception as exc:  # a failing peer is a result, not the end of the run
        out.update(error=f"{type(exc).__name__}: {exc}"[:2000],
                   traceback=traceback.format_exc()[-3000:],
                   prior_brier=float(np.mean((prior - yte) ** 2)))
    return out


# ============================================================ store, tag, stack
def _git(*args: str) -> str:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True,
                          cwd=ROOT).stdout


def default_tag() -> str:
    """Short commit hash; with uncommitted changes to ``optirules/`` or this file,
    ``+dirty.<hash of the diff and the untracked files' names>``."""
    try:
        rev = _git("rev-parse", "--short", "HEAD").strip()
        paths = ["optirules", str(Path(__file__).resolve().relative_to(ROOT))]
        diff = _git("diff", "HEAD", "--", *paths)
        untracked = _git("ls-files", "--others", "--exclude-standard", "--", *paths)
    except (OSError, subprocess.CalledProcessError, ValueError):
        return "unknown"
    if not diff and not untracked:
        return rev
    extra = "".join((ROOT / f).read_text(errors="replace") for f in untracked.split())
    digest = hashlib.sha1((diff + untracked + extra).encode()).hexdigest()[:8]
    return f"{rev}+dirty.{digest}"


def read_store(path: Path) -> list[dict]:
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:  # a line cut by an interrupted write
                continue
    return rows


def key(row: dict) -> tuple:
    return row["tag"], row["dataset"], row["learner"], row["n_folds"], row["fold"]


def stack() -> str:
    from importlib.metadata import PackageNotFoundError, version

    import numpy
    import sklearn

    def v(dist: str) -> str:
        try:
            return version(dist)
        except PackageNotFoundError:
            return "not installed"

    try:
        rev = _git("rev-parse", "--short", "HEAD").strip()
    except (OSError, subprocess.CalledProcessError):
        rev = "unknown"
    return (f"git commit {rev}; Python {platform.python_version()}, numpy {numpy.__version__}, "
            f"scikit-learn {sklearn.__version__}, highspy {v('highspy')}, pandas "
            f"{v('pandas')}, wittgenstein {v('wittgenstein')}, imodels {v('imodels')}, interpret {v('interpret')}; "
            f"{platform.machine()}, {os.cpu_count()} cores")


# ============================================================ report
def _mean(values) -> float:
    vals = [float(v) for v in values if v is not None]
    return float(sum(vals) / len(vals)) if vals else NAN


def _fmt(v, digits: int = 4) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if isinstance(v, float) and math.isinf(v):
        return "inf"
    if digits == 0:
        return f"{v:.1f}" if v != int(v) else f"{int(v)}"
    return f"{v:.{digits}f}"


def per_set(rows: list[dict], learners: list[str], n_folds: int) -> dict:
    """``{learner: {...means...}}`` of one data set's rows."""
    out = {}
    for name in learners:
        mine = [r for r in rows if r["learner"] == name]
        ok = [r for r in mine if not r.get("error")]
        if not mine:
            continue
        entry = {"folds": len(ok), "errors": [r["error"] for r in mine if r.get("error")],
                 "complete": len(ok) == n_folds}
        for k in ("accuracy", "balanced_accuracy", "auc", "brier", "prior_brier", "log_loss",
                  "share_0_1", "n_rules", "n_literals", "fit_cpu", "fit_wall"):
            entry[k] = _mean(r.get(k, NAN) for r in ok)
        entry["max_cpu"] = max((r["fit_cpu"] for r in ok), default=NAN)
        entry["max_iter_fits"] = sum(str(r.get("status", "")).startswith("max_iter")
                                     for r in ok)
        entry["member_max_iter"] = sum(r.get("member_max_iter", 0) for r in ok)
        out[name] = entry
    return out


def summary(tables: dict, learners: list[str]) -> tuple[list[str], list[str], list[str]]:
    """Summary rows over the data sets where every learner with a result is complete."""
    import numpy as np
    from scipy.stats import rankdata

    # learners complete on no data set (a peer that always fails) do not hold the others back
    present = [n for n in learners if any(n in t and t[n]["complete"] for t in tables.values())]
    common, left_out = [], []
    for d, t in tables.items():
        missing = [n for n in present if not (n in t and t[n]["complete"])]
        if missing:
            left_out.append(f"{d} ({', '.join(missing)} incomplete)")
        else:
            common.append(d)
    ranks = {n: [] for n in present}
    for d in common:
        acc = [tables[d][n]["accuracy"] for n in present]
        for n, rk in zip(present, rankdata([-a for a in acc], method="average")):
            ranks[n].append(float(rk))
    has_ref = REFERENCE in present
    lines = []
    for n in present:
        rows = [tables[d][n] for d in common]
        if not rows:
            continue
        acc = _mean(r["accuracy"] for r in rows)
        if has_ref:
            ref = [tables[d][REFERENCE] for d in common]
            ge = sum(r["accuracy"] >= c["accuracy"] for r, c in zip(rows, ref))
            gt = sum(r["accuracy"] > c["accuracy"] for r, c in zip(rows, ref))
            dbrier = _mean(r["brier"] - c["brier"] for r, c in zip(rows, ref))
            ge_s = f"{gt} / {ge} of {len(rows)}"
        else:
            ge_s, dbrier = "-", NAN
        valid_brier = [r for r in rows if not math.isnan(r["brier"])]
        # worse than the prior beyond rounding (a model that scores every row with the
        # prior itself equals it up to the last bits)
        worse = sum(r["brier"] > r["prior_brier"] + 1e-9 for r in valid_brier)
        lits = [r["n_literals"] for r in rows if not math.isnan(r["n_literals"])]
        max_iter = sum(r["max_iter_fits"] for r in rows)
        members = sum(r["member_max_iter"] for r in rows)
        lines.append(
            f"| {n} | {len(rows)} | {acc:.4f} | {np.mean(ranks[n]):.2f} | {ge_s} | "
            f"{_fmt(dbrier)} | {f'{worse}/{len(valid_brier)}' if valid_brier else '-'} | "
            f"{_fmt(float(np.median(lits)), 0) if lits else '-'} | "
            f"{max(r['max_cpu'] for r in rows):.2f} | {max_iter}"
            f"{f' ({members} members)' if members else ''} |")
    return lines, common, left_out


#: the targets the defaults are held to (the docs page "Choosing the defaults"): seconds of
#: fit CPU per rule-set fit up to SMALL_ROWS rows and above, cost ratios, accuracy slack
SMALL_ROWS, SMALL_CPU, LARGE_CPU = 5000, 10.0, 60.0
COST_RATIO, ACCURACY_SLACK, BRIER_SLACK, MAX_LIST_RULES = 3.0, 0.01, 0.02, 30
#: a DRO set may trail the rule set by this much; the rule set's AUC may trail CART-CV's by
#: this much; DecisionListCV may cost this many default lists; the moonshot: within this
#: much of the best boosted or additive peer with at most this many rules
SET_SLACK, AUC_SLACK, LIST_CV_RATIO, MOONSHOT_SLACK, MOONSHOT_RULES = 0.01, 0.02, 20.0, 0.005, 20


def _complete(tables: dict, *names: str) -> list[str]:
    return [d for d, t in tables.items() if all(n in t and t[n]["complete"] for n in names)]


def goals(tables: dict, sizes: dict[str, int]) -> list[str]:
    """One table row per target of the defaults, each measured over the data sets where the
    learners it compares have every fold; a target whose learners did not run is left out."""
    import numpy as np

    out: list[str] = []

    def add(target: str, sets: list[str], measured: str, met: bool) -> None:
        out.append(f"| {target} | {len(sets)} | {measured} | {'yes' if met else '**no**'} |")

    def col(name: str, key: str, sets: list[str]) -> np.ndarray:
        return np.array([tables[d][name].get(key, np.nan) for d in sets], dtype=float)

    if sets := _complete(tables, "rule_set", REFERENCE):
        a, c = col("rule_set", "accuracy", sets), col(REFERENCE, "accuracy", sets)
        add(f"rule_set mean accuracy >= {REFERENCE}'s - {ACCURACY_SLACK}", sets,
            f"{a.mean():.4f} vs {c.mean():.4f}", a.mean() >= c.mean() - ACCURACY_SLACK)
        ahead = [d for d, x, y in zip(sets, a, c) if x > y]
        add(f"rule_set ahead of {REFERENCE} on at least half the sets", sets,
            f"ahead on {len(ahead)}, level on {int((a == c).sum())}",
            2 * len(ahead) >= len(sets))
        lr, lc = col("rule_set", "n_literals", sets), col(REFERENCE, "n_literals", sets)
        add(f"rule_set median literals below {REFERENCE}'s", sets,
            f"{np.median(lr):.1f} vs {np.median(lc):.1f}", np.median(lr) < np.median(lc))
    if sets := _complete(tables, "rule_set"):
        cpu = {d: tables[d]["rule_set"]["max_cpu"] for d in sets}
        slow = [f"{d} {cpu[d]:.1f} s" for d in sets
                if cpu[d] > (SMALL_CPU if sizes[d] <= SMALL_ROWS else LARGE_CPU)]
        small = [cpu[d] for d in sets if sizes[d] <= SMALL_ROWS]
        large = [cpu[d] for d in sets if sizes[d] > SMALL_ROWS]
        add(f"every rule_set fit <= {SMALL_CPU:g} s CPU up to {SMALL_ROWS:,} rows, "
            f"<= {LARGE_CPU:g} s above", sets,
            "; ".join(([f"max {max(small):.2f} s up to {SMALL_ROWS:,} rows"] if small else [])
                      + ([f"max {max(large):.2f} s above"] if large else [])
                      + ([f"over: {', '.join(slow)}"] if slow else [])), not slow)
    ours_rs = [n for n in ("rule_set", "rule_set_cv", "dro") if _complete(tables, n)]
    if ours_rs:
        hits = {n: sum(tables[d][n]["max_iter_fits"] + tables[d][n]["member_max_iter"]
                       for d in _complete(tables, n)) for n in ours_rs}
        add("no rule-set fit ends on max_iter (" + ", ".join(ours_rs) + ")",
            sorted(set().union(*(_complete(tables, n) for n in ours_rs))),
            ", ".join(f"{n} {k}" for n, k in hits.items()), not any(hits.values()))
    for name in ("rule_set_cv", "dro"):
        sets = [d for d in _complete(tables, name, "rule_set") if sizes[d] <= SMALL_ROWS]
        if not sets:
            continue
        t, b = col(name, "fit_cpu", sets), col("rule_set", "fit_cpu", sets)
        add(f"{name} fit CPU <= {COST_RATIO:g}x rule_set's (sets up to {SMALL_ROWS:,} rows)",
            sets, f"{t.sum() / b.sum():.2f}x in total, {np.median(t / b):.1f}x on the median "
            "set", t.sum() <= COST_RATIO * b.sum())
    if sets := _complete(tables, "dro", "rule_set"):
        a, b = col("dro", "accuracy", sets), col("rule_set", "accuracy", sets)
        add("dro mean accuracy >= rule_set's", sets, f"{a.mean():.4f} vs {b.mean():.4f}",
            a.mean() >= b.mean())
        behind = [f"{d} ({x - z:+.4f})" for d, x, z in zip(sets, a, b) if x < z - SET_SLACK]
        add(f"dro never below rule_set by more than {SET_SLACK:g} on a set", sets,
            f"below on {len(behind)}" + (f": {', '.join(behind)}" if behind else ""),
            not behind)
    if sets := _complete(tables, "rule_set_cv", "rule_set"):
        a, b = col("rule_set_cv", "accuracy", sets), col("rule_set", "accuracy", sets)
        add("rule_set_cv mean accuracy >= rule_set's", sets,
            f"{a.mean():.4f} vs {b.mean():.4f}", a.mean() >= b.mean())
    for name, slack in (("rule_set", AUC_SLACK), ("dro", 0.0)):
        if sets := _complete(tables, name, REFERENCE):
            a, c = col(name, "auc", sets), col(REFERENCE, "auc", sets)
            if np.isnan(a).all() or np.isnan(c).all():
                continue
            add(f"{name} mean AUC >= {REFERENCE}'s - {slack:g}", sets,
                f"{np.nanmean(a):.4f} vs {np.nanmean(c):.4f}",
                np.nanmean(a) >= np.nanmean(c) - slack)
    if sets := _complete(tables, "decision_list", REFERENCE):
        a, c = col("decision_list", "accuracy", sets), col(REFERENCE, "accuracy", sets)
        add(f"decision_list mean accuracy >= {REFERENCE}'s - {ACCURACY_SLACK}", sets,
            f"{a.mean():.4f} vs {c.mean():.4f}", a.mean() >= c.mean() - ACCURACY_SLACK)
    if sets := _complete(tables, "decision_list_cv", "decision_list"):
        t, b = col("decision_list_cv", "fit_cpu", sets), col("decision_list", "fit_cpu", sets)
        over = [f"{d} {x / max(z, 1e-9):.0f}x" for d, x, z in zip(sets, t, b)
                if x > LIST_CV_RATIO * z]
        add(f"decision_list_cv fit CPU <= {LIST_CV_RATIO:g}x decision_list's on every set",
            sets, f"max {np.max(t / np.maximum(b, 1e-9)):.1f}x"
            + (f"; over: {', '.join(over)}" if over else ""), not over)
    peers = [n for n in ("boosting", "ebm") if _complete(tables, n)]
    if peers and (sets := _complete(tables, "dro", *peers)):
        best = max(peers, key=lambda n: col(n, "accuracy", sets).mean())
        a, c = col("dro", "accuracy", sets), col(best, "accuracy", sets)
        rules = float(np.median(col("dro", "n_rules", sets)))
        add(f"moonshot: dro within {MOONSHOT_SLACK:g} of the best of {', '.join(peers)} "
            f"with at most {MOONSHOT_RULES} rules (median set)", sets,
            f"{a.mean():.4f} vs {best} {c.mean():.4f}, {rules:.1f} rules",
            a.mean() >= c.mean() - MOONSHOT_SLACK and rules <= MOONSHOT_RULES)
    for name in OURS:
        if not (sets := _complete(tables, name)):
            continue
        worse = [f"{d} ({tables[d][name]['brier']:.4f} vs {tables[d][name]['prior_brier']:.4f})"
                 for d in sets
                 if tables[d][name]["brier"] > tables[d][name]["prior_brier"] + 1e-9]
        add(f"{name} Brier <= the prior's on every set", sets,
            f"above on {len(worse)}" + (f": {', '.join(worse)}" if worse else ""), not worse)
        if sets := _complete(tables, name, REFERENCE):
            diff = float(np.mean(col(name, "brier", sets) - col(REFERENCE, "brier", sets)))
            add(f"{name} mean Brier - {REFERENCE}'s <= {BRIER_SLACK}", sets, f"{diff:+.4f}",
                diff <= BRIER_SLACK)
    if sets := _complete(tables, "decision_list"):
        rules = float(np.median(col("decision_list", "n_rules", sets)))
        add(f"decision_list median rules <= {MAX_LIST_RULES}", sets, f"{rules:.1f}",
            rules <= MAX_LIST_RULES)
    if sets := _complete(tables, "decision_list", "decision_list_cv"):
        a, b = col("decision_list", "accuracy", sets), col("decision_list_cv", "accuracy", sets)
        add(f"decision_list mean accuracy >= decision_list_cv's - {ACCURACY_SLACK}", sets,
            f"{a.mean():.4f} vs {b.mean():.4f}", a.mean() >= b.mean() - ACCURACY_SLACK)
    return out


def write_report(args, rows: list[dict], datasets: list[str], learners: list[str], *,
                 started: datetime, load0, tag: str, notes: list[str], brcg_stack,
                 done: bool, reuse: dict[str, str] | None = None) -> None:
    load1 = os.getloadavg()
    out = Path(args.out)
    tables, sizes = {}, {}
    for d in datasets:
        mine = [r for r in rows if r["dataset"] == d]
        if mine:
            tables[d] = per_set(mine, learners, args.folds)
            sizes[d] = mine[0]["n_train"] + mine[0]["n_test"]
    cmd = shlex.join([Path(sys.executable).name, *sys.argv])
    now_rows = sum(r.get("run_started") == started.isoformat() for r in rows)
    lines = [
        "# Benchmark suite: our learners against their peers",
        "",
        f"Run {started:%Y-%m-%d %H:%M} UTC{'' if done else ' (not finished)'}, `{cmd}`; "
        f"{stack()}; load average (1, 5, 15 min) at the start "
        f"{tuple(round(v, 2) for v in load0)}, at the end {tuple(round(v, 2) for v in load1)}.",
        "",
        f"Tag `{tag}`: {len(rows)} fits shown, {now_rows} of them fitted by this run (the "
        f"others read from `{args.store}`, fitted earlier with the same tag; each row there "
        "has its own time and load)"
        + ("; reused from other tags (`--reuse`): " + ", ".join(
            f"{name} from `{other}`" for name, other in reuse.items()) if reuse else "")
        + ".  "
        f"{args.folds}-fold `StratifiedKFold(shuffle=True, random_state=0)`; means over the "
        "folds of the test-fold scores; Brier of the prior = the training fold's positive "
        "rate as the prediction; rules and literals as the module docstring counts them; "
        "fit CPU = process time of the fit (one job, one BLAS thread).  The learners and "
        "peers are described in `benchmarks/suite.py`.",
        "",
        "When each learner's rows were fitted (UTC, first to last row; 1-minute load "
        "average at the rows' start, lowest to highest): " + "; ".join(
            f"{name} {min(times)} to {max(times)} (load {min(loads):.2f}-{max(loads):.2f})"
            for name in learners
            if (times := [r["time"] for r in rows if r["learner"] == name and r.get("time")])
            and (loads := [r["load_1min"] for r in rows if r["learner"] == name
                           and r.get("load_1min") is not None] or [float("nan")])) + ".",
    ]
    if IMODELS_ROUTE:
        lines += ["", f"imodels: {IMODELS_ROUTE['route']}."]
    if brcg_stack:
        lines += ["", f"BRCG environment: Python {brcg_stack['python']}, "
                      f"{', '.join(brcg_stack['freeze'])}; imported by {brcg_stack['import']}."]
    lines += [f"\nNote: {n}" for n in notes]
    for d, table in tables.items():
        lines += ["", f"## {d} ({sizes[d]} rows)", "",
                  "| learner | folds | accuracy | balanced acc. | AUC | Brier | prior Brier | "
                  "log loss | share p in {0, 1} | rules | literals | fit CPU s | fit wall s |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        errors = []
        for n, e in table.items():
            lines.append(
                f"| {n} | {e['folds']}/{args.folds} | {_fmt(e['accuracy'])} | "
                f"{_fmt(e['balanced_accuracy'])} | {_fmt(e['auc'])} | {_fmt(e['brier'])} | "
                f"{_fmt(e['prior_brier'])} | {_fmt(e['log_loss'], 3)} | "
                f"{_fmt(e['share_0_1'], 2)} | {_fmt(e['n_rules'], 0)} | "
                f"{_fmt(e['n_literals'], 0)} | {_fmt(e['fit_cpu'], 2)} | "
                f"{_fmt(e['fit_wall'], 2)} |")
            errors += [f"- {n}: {' / '.join(msg.split(chr(10)))[:400]}"
                       for msg in dict.fromkeys(e["errors"])]
        if errors:
            lines += ["", "Errors:", "", *errors]
    body, common, left_out = summary(tables, learners)
    lines += ["", "## Summary over the data sets", "",
              f"Over the {len(common)} data sets where every learner below has all "
              f"{args.folds} folds"
              + (f" (left out: {', '.join(left_out)})" if left_out else "") + ".  Rank of "
              "accuracy within each data set (1 = best, ties averaged); Brier - cart_cv = "
              "the mean over the data sets of the difference of the mean Brier scores; "
              "literals: the median over the data sets of the mean literals; max_iter fits: "
              "rule sets whose `status_` starts with max_iter (DRO: members stopped by "
              "max_iter in parentheses).",
              "",
              "| learner | data sets | mean accuracy | mean rank | accuracy > / >= cart_cv | "
              "Brier - cart_cv | Brier > prior Brier | median literals | max fit CPU s | "
              "max_iter fits |",
              "|---|---|---|---|---|---|---|---|---|---|", *body, ""]
    if target_rows := goals(tables, sizes):
        lines += ["## The defaults' targets", "",
                  "Each target measured over the data sets where the learners it compares "
                  "have all folds (fit CPU: sums over those sets of the mean fit per fold; "
                  "the targets and why they were set are on the docs page \"Choosing the "
                  "defaults\").", "",
                  "| target | data sets | measured | met |", "|---|---|---|---|",
                  *target_rows, ""]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines))
    write_csv(rows, out.with_suffix(".csv"))


CSV_COLUMNS = ("tag", "dataset", "learner", "n_folds", "fold", "n_train", "n_test", "accuracy",
               "balanced_accuracy", "auc", "brier", "prior_brier", "log_loss", "share_0_1",
               "n_rules", "n_literals", "fit_cpu", "fit_wall", "n_iter", "status", "gap",
               "n_warnings", "error", "time", "load_1min")


def write_csv(rows: list[dict], path: Path) -> None:
    import csv

    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(CSV_COLUMNS)
        for r in rows:
            w.writerow([json.dumps(r.get(c)) if isinstance(r.get(c), list) else r.get(c)
                        for c in CSV_COLUMNS])


# ============================================================ main
def _scaled(name: str, known) -> bool:
    """``rule_set@c`` with a number ``c > 0`` (a learner variant of the penalty study), or
    ``rule_set_cv@stopK`` with an integer ``K >= 1`` (early stopping of the CV's path)."""
    head, _, scale = name.partition("@")
    if head == "rule_set_cv" and head in known and scale.startswith("stop"):
        return scale[4:].isdigit() and int(scale[4:]) >= 1
    try:
        return head == "rule_set" and "rule_set" in known and float(scale) > 0
    except ValueError:
        return False


def _names(text: str | None, known: list[str] | tuple[str, ...], what: str, ap) -> list[str]:
    if text is None:
        return list(known)
    names = [s.strip() for s in text.split(",") if s.strip()]
    unknown = [n for n in names if n not in known and not _scaled(n, known)]
    if unknown:
        ap.error(f"unknown {what} {unknown}; known: {', '.join(known)}")
    return names


def _reused(text: str | None, learners: list[str], ap) -> dict[str, str]:
    """``--reuse LEARNER=TAG,...`` as ``{learner: tag}``, each learner one of ``learners``."""
    out: dict[str, str] = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        name, sep, other = (part.strip() for part in item.partition("="))
        if not sep or not other or name not in learners:
            ap.error(f"--reuse {item!r}: give LEARNER=TAG with LEARNER among the learners "
                     f"of this run ({', '.join(learners)})")
        out[name] = other
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Our learners against their peers on every bundled data set (writes "
                    "benchmarks/results/suite.md and suite.csv).",
        epilog="Example: python benchmarks/suite.py --learners rule_set,cart_cv --datasets "
               "heart_statlog,liver_disorders_bupa")
    ap.add_argument("--serve-brcg", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--datasets", help="comma-separated data sets (default: all)")
    ap.add_argument("--skip-datasets", help="comma-separated data sets to leave out")
    ap.add_argument("--max-rows", type=int, help="leave out data sets with more rows")
    ap.add_argument("--learners", help=f"comma-separated learners (default: all: "
                                       f"{', '.join(LEARNERS)})")
    ap.add_argument("--folds", type=int, default=5, help="outer stratified folds (default 5)")
    ap.add_argument("--store", default=str(RESULTS / "suite_runs.jsonl"),
                    help="JSON-lines file of the per-fold results, appended to and reused")
    ap.add_argument("--tag", help="key of the rows reused from --store (default: the git "
                                  "commit, +dirty.<hash> with uncommitted changes)")
    ap.add_argument("--reuse", metavar="LEARNER=TAG[,...]",
                    help="report these learners from the rows of another tag in --store and "
                         "never fit them (peers whose code did not change: "
                         "--reuse cart_cv=s32,logreg=s32)")
    ap.add_argument("--report-only", action="store_true",
                    help="fit nothing: write the report from the rows already in --store "
                         "(missing fits leave their data set out of the summary)")
    ap.add_argument("--retry-errors", action="store_true",
                    help="fit again the (data set, learner, fold) whose stored row is an error")
    ap.add_argument("--out", default=str(RESULTS / "suite.md"),
                    help="markdown report; the per-fold CSV goes beside it (.csv)")
    ap.add_argument("--brcg-python", default=os.environ.get("OPTIRULES_PEER_PYTHON", ""),
                    help="interpreter of the AIX360 environment (benchmarks/brcg_peer.py; "
                         "default: $OPTIRULES_PEER_PYTHON, BRCG skipped when unset)")
    args = ap.parse_args(argv)
    if args.serve_brcg:
        return serve_brcg()
    if args.folds < 2:
        ap.error("--folds must be >= 2")

    import numpy as np
    from sklearn.model_selection import StratifiedKFold

    known = dataset_names()
    datasets = _names(args.datasets, known, "data sets", ap)
    skip = set(_names(args.skip_datasets, known, "data sets", ap)) if args.skip_datasets else set()
    datasets = [d for d in datasets if d not in skip]
    if args.max_rows is not None:
        datasets = [d for d in datasets if dataset_rows(d) <= args.max_rows]
    learners = _names(args.learners, LEARNERS, "learners", ap)
    tag = args.tag or default_tag()
    reuse = _reused(args.reuse, learners, ap)
    tag_of = {name: reuse.get(name, tag) for name in learners}
    store = Path(args.store)
    store.parent.mkdir(parents=True, exist_ok=True)
    started = datetime.now(timezone.utc)
    load0 = os.getloadavg()
    print(f"tag {tag}; {len(datasets)} data sets x {len(learners)} learners x {args.folds} "
          f"folds; load {tuple(round(v, 2) for v in load0)}", flush=True)

    notes: list[str] = []
    tmp = Path(tempfile.mkdtemp(prefix="suite_"))
    brcg = None
    if "brcg" in learners:
        brcg = BrcgPeer(args.brcg_python, tmp)
        if not brcg.available():
            msg = (f"brcg skipped: no AIX360 environment at {args.brcg_python} (see "
                   "benchmarks/brcg_peer.py for how to build it; --brcg-python to point "
                   "elsewhere)")
            print(msg, flush=True)
            notes.append(msg)
            learners.remove("brcg")
            brcg = None

    def ours(row: dict) -> bool:
        return (row.get("learner") in learners and row.get("tag") == tag_of[row["learner"]]
                and row.get("n_folds") == args.folds and row.get("dataset") in datasets)

    stored = {key(r): r for r in read_store(store) if ours(r)}
    if args.retry_errors:
        stored = {k: r for k, r in stored.items() if not r.get("error")}
    report = dict(started=started, load0=load0, tag=tag, reuse=reuse, notes=notes)
    try:
        for d in datasets:
            X, y = load(d)
            y = np.asarray(y)
            splits = list(StratifiedKFold(args.folds, shuffle=True, random_state=0).split(X, y))
            for k, (train, test) in enumerate(splits):
                for name in learners:
                    row_key = (tag_of[name], d, name, args.folds, k)
                    if row_key in stored or args.report_only or name in reuse:
                        continue
                    row = {"tag": tag, "dataset": d, "learner": name, "n_folds": args.folds,
                           "fold": k, "run_started": started.isoformat()}
                    row.update(run_fit(name, X, y, train, test, brcg))
                    stored[row_key] = row
                    with store.open("a") as fh:
                        fh.write(json.dumps(row) + "\n")
                    what = (f"error {row['error'][:120]}" if row["error"] else
                            f"acc {row['accuracy']:.4f}, rules {_fmt(row['n_rules'], 0)}, "
                            f"CPU {row['fit_cpu']:.2f} s")
                    print(f"{d} fold {k} {name}: {what}", flush=True)
            write_report(args, _ordered(stored, datasets, learners), datasets, learners,
                         brcg_stack=brcg.stack if brcg else None, done=False, **report)
    finally:
        if brcg is not None:
            brcg.close()
        shutil.rmtree(tmp, ignore_errors=True)
    write_report(args, _ordered(stored, datasets, learners), datasets, learners,
                 brcg_stack=brcg.stack if brcg else None, done=True, **report)
    print(Path(args.out).read_text())
    return 0


def _ordered(stored: dict, datasets: list[str], learners: list[str]) -> list[dict]:
    order = {d: i for i, d in enumerate(datasets)}
    lorder = {n: i for i, n in enumerate(learners)}
    return sorted(stored.values(), key=lambda r: (order[r["dataset"]], r["fold"],
                                                  lorder[r["learner"]]))


if __name__ == "__main__":
    sys.exit(main())
