"""The DRO paper experiments: rule sets by column generation and DRO rule ensembles vs peers.

Everything runs on the same folds: 5-fold stratified cross-validation, shuffled, with
``random_state=0``.  Data (:func:`load_rules_dataset`):

* ``wdbc``: scikit-learn's breast cancer (label 1 = malignant, i.e. sklearn target 0);
* ``digits_1v7``, ``digits_4v9``: scikit-learn's 8x8 digits, the two digits only, features
  ``pixel > 7`` (64 binary columns; label 1 = the first digit named);
* ``tic_tac_toe``; ``heart`` = the Statlog heart file (``heart_statlog``, 270 rows, no
  missing values; its coded categorical columns are binarized as categories);
  ``ionosphere``; ``credit_g``;
* ``adult_10k``: 10,000 rows of UCI adult drawn without replacement with
  ``numpy.random.RandomState(0)`` from all 48,842 rows.

Methods (:func:`make_method`):

* ``rule_set``: :class:`~optirules.learners.BooleanRuleSetClassifier` with its
  defaults (penalty form, ``lambda0 = lambda1 = "auto"``: :math:`0.1/\\sqrt{n}` for ``n``
  training rows, ``max_degree="auto"``, beam search then exact pricing);
* ``rule_set_cv``: :class:`~optirules.learners.BooleanRuleSetCV` around that
  learner: ``lambda0 = lambda1`` chosen from its ``penalties="auto"`` grid (0.7 to 2.8 times
  the rule set's penalty) by 5-fold stratified CV inside the training fold (shuffled,
  ``random_state``), then refitted;
* ``rule_set_C``: the same learner in the DRO paper's budget form with the DRO's overall
  budget :math:`\\mathfrak{C}` (the plain rule set "at the same overall complexity");
* ``dro``: :class:`~optirules.learners.DRORuleEnsembleClassifier` with its
  defaults but 8 iterations (:math:`\\mathfrak{C}`, :math:`\\mathfrak{C}'` chosen from
  :math:`\\{\\mathfrak{C}/3, \\mathfrak{C}/2, \\mathfrak{C}\\}` together with the
  iteration and the pmf of the combination IP by least training robust loss, the paper's
  reading; chi-square ball :math:`\\rho = 0.1`; ``time_limit=600`` s for the whole fit);
* ``dro_holdout``: the same with ``selection="validation"`` (the choice made on a
  stratified 25 % of the training fold, then refitted on the whole training fold; not in a
  default run);
* ``adaboost``: scikit-learn AdaBoost with 250 decision stumps; ``random_forest``:
  scikit-learn RandomForest (100 trees, ``random_state=0``).  Both take numeric columns as
  they are and categorical columns one-hot encoded.

Rule learners binarize with :class:`~optirules.data.FeatureBinarizer` (deciles, negations)
fitted on each training fold.  Complexity is "rules + literals" (the DRO paper's :math:`c(h)`);
for AdaBoost a stump counts as one rule of one literal per side (2 per stump, so 500), and
for a forest every leaf is one rule whose literals are the tests on its path.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError

__all__ = [
    "run",
    "format_table",
    "RULES_DATASETS",
    "RULES_METHODS",
    "BENCH_COMPLEXITY",
    "load_rules_dataset",
    "make_method",
    "rules_folds",
    "run_rules_benchmark",
    "summarize_rules",
    "format_rules_table",
    "run_cycling_experiment",
    "format_cycling",
    "run_rules_demo",
    "format_rules_demo",
    "RulesDemoResult",
    "RulesDemoSettings",
]

RULES_DATASETS = ("wdbc", "digits_1v7", "digits_4v9", "tic_tac_toe", "heart", "ionosphere",
                  "credit_g", "adult_10k")
RULES_METHODS = ("rule_set", "rule_set_cv", "rule_set_C", "dro", "adaboost", "random_forest")

#: methods :func:`make_method` also builds but a default run leaves out
EXTRA_METHODS = ("dro_holdout",)

#: the methods that binarize with FeatureBinarizer (the others one-hot encode)
RULE_METHODS = ("rule_set", "rule_set_cv", "rule_set_C", "dro", "dro_holdout")

#: overall budget C of the DRO ensemble and of ``rule_set_C`` in the benchmark: 32 is the
#: cost of tic-tac-toe's concept (8 lines of 3 literals: 8 rules + 24 literals)
BENCH_COMPLEXITY = 32.0

# ================================================================================= data
def load_rules_dataset(name: str) -> tuple[pd.DataFrame, np.ndarray, list[str], str]:
    """``(X, y, categorical_features, note)`` of one benchmark dataset (module docstring)."""
    from ..data import dataset_info, load_dataset

    if name == "wdbc":
        from sklearn.datasets import load_breast_cancer

        data = load_breast_cancer(as_frame=True)
        X = data.data.reset_index(drop=True)
        y = (1 - data.target.to_numpy()).astype(np.int64)
        return X, y, [], "scikit-learn breast cancer (WDBC), 1 = malignant"
    if name in ("digits_1v7", "digits_4v9"):
        from sklearn.datasets import load_digits

        a, b = (1, 7) if name == "digits_1v7" else (4, 9)
        d = load_digits()
        keep = np.isin(d.target, [a, b])
        X = pd.DataFrame((d.data[keep] > 7).astype(np.int64),
                         columns=[f"pixel_{r}_{c}" for r in range(8) for c in range(8)])
        y = (d.target[keep] == a).astype(np.int64)
        return X, y, [], f"scikit-learn digits {a} vs {b}, pixel > 7, 1 = digit {a}"
    if name == "heart":
        X, y = load_dataset("heart_statlog")
        return X, y, list(dataset_info("heart_statlog").coded_categorical), \
            "Statlog heart (heart_statlog.csv, 270 rows)"
    if name == "adult_10k":
        X, y = load_dataset("adult")
        idx = np.sort(np.random.RandomState(0).choice(len(y), 10_000, replace=False))
        return X.iloc[idx].reset_index(drop=True), y[idx], [], \
            "UCI adult, 10,000 rows drawn with RandomState(0)"
    if name in ("tic_tac_toe", "ionosphere", "credit_g"):
        X, y = load_dataset(name)
        return X, y, list(dataset_info(name).coded_categorical), name
    raise InputError(f"unknown benchmark dataset {name!r}; choose from {RULES_DATASETS}.")


def rules_folds(y: np.ndarray, n_splits: int = 5, random_state: int = 0) -> list[tuple[
        np.ndarray, np.ndarray]]:
    """The benchmark's stratified, shuffled folds."""
    from sklearn.model_selection import StratifiedKFold

    skf = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
    return list(skf.split(np.zeros(len(y)), y))


# ============================================================================== methods
def _tree_complexity(tree: Any) -> int:
    t = tree.tree_
    depth = np.zeros(t.node_count, dtype=int)
    total = 0
    for node in range(t.node_count):
        left, right = t.children_left[node], t.children_right[node]
        if left == -1:
            total += 1 + depth[node]
        else:
            depth[left] = depth[right] = depth[node] + 1
    return int(total)


def make_method(method: str, categorical: Sequence[str], *, complexity: float = BENCH_COMPLEXITY,
                quick: bool = False, random_state: int = 0) -> Any:
    """An unfitted estimator for one benchmark method (module docstring)."""
    from ..data import FeatureBinarizer

    binarizer = FeatureBinarizer(categorical_features=list(categorical) or None)
    if method == "rule_set":
        from ..learners import BooleanRuleSetClassifier

        return BooleanRuleSetClassifier(binarizer=binarizer, random_state=random_state,
                                        time_limit=120.0)
    if method == "rule_set_cv":
        from ..learners import BooleanRuleSetClassifier, BooleanRuleSetCV

        return BooleanRuleSetCV(BooleanRuleSetClassifier(binarizer=binarizer,
                                                         random_state=random_state,
                                                         time_limit=120.0),
                                cv=5, random_state=random_state)
    if method == "rule_set_C":
        from ..learners import BooleanRuleSetClassifier

        return BooleanRuleSetClassifier(complexity=complexity, lambda0=0.0, lambda1=0.0,
                                        binarizer=binarizer, random_state=random_state,
                                        time_limit=120.0)
    if method in ("dro", "dro_holdout"):
        from ..learners import BooleanRuleSetClassifier, DRORuleEnsembleClassifier

        return DRORuleEnsembleClassifier(complexity=complexity, n_estimators=4 if quick else 8,
                                         selection="robust_loss" if method == "dro" else "validation",
                                         random_state=random_state, time_limit=600.0,
                                         member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer=binarizer))
    if method in ("adaboost", "random_forest"):
        from sklearn.compose import ColumnTransformer
        from sklearn.ensemble import AdaBoostClassifier, RandomForestClassifier
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import OneHotEncoder
        from sklearn.tree import DecisionTreeClassifier

        if method == "adaboost":
            model = AdaBoostClassifier(estimator=DecisionTreeClassifier(max_depth=1),
                                       n_estimators=250, random_state=random_state)
        else:
            model = RandomForestClassifier(n_estimators=100, random_state=random_state,
                                           n_jobs=1)
        encode = ColumnTransformer(
            [("categorical", OneHotEncoder(handle_unknown="ignore"), list(categorical))],
            remainder="passthrough", sparse_threshold=0.0)
        return make_pipeline(encode, model)
    raise InputError(f"unknown method {method!r}; choose from "
                     f"{RULES_METHODS + EXTRA_METHODS}.")


def _categoricals(X: pd.DataFrame, coded: Sequence[str]) -> list[str]:
    """Columns a one-hot encoder must take: coded categoricals plus non-numeric columns."""
    out = list(coded)
    for c in X.columns:
        if c not in out and not pd.api.types.is_numeric_dtype(X[c]):
            out.append(c)
    return out


def _describe(method: str, est: Any) -> dict[str, Any]:
    """Complexity and optimization figures of a fitted estimator."""
    nan = math.nan
    if method == "rule_set_cv":
        out = _describe("rule_set", est.best_estimator_)
        out.update(penalty=float(est.penalty_[0]), cv_time=float(est.cv_time_),
                   penalty_grid=[float(v) for v in est.cv_results_["lambda0"]])
        return out
    if method in ("rule_set", "rule_set_C"):
        return {"complexity": est.rules_.complexity, "n_rules": est.rules_.n_rules,
                "lp_bound": est.lp_bound_, "ip_objective": est.ip_objective_,
                "gap": est.gap_, "absolute_gap": est.absolute_gap_, "certified": bool(est.gap_certified_),
                "proof_complete": bool(est.pricing_complete_), "status": est.status_,
                "max_degree": est.max_degree_}
    if method in ("dro", "dro_holdout"):
        members = [r for r in est.member_results_]
        certified = bool(members) and all(m["gap_certified"] for m in members)
        # the largest member gap, relative and absolute (unknown unless every member's is)
        gap = max(m["gap"] for m in members) if certified else nan
        abs_gap = max(m["absolute_gap"] for m in members) if certified else nan
        chosen = est.candidates_[est.selected_]
        return {"complexity": est.complexity_,
                "n_rules": int(sum(est.members_[k].n_rules for k in np.flatnonzero(est.weights_))),
                "lp_bound": nan, "ip_objective": nan, "gap": float(gap),
                "absolute_gap": float(abs_gap), "certified": certified,
                "proof_complete": all("converged" in m["status"] for m in members),
                "status": f"C' = {est.member_complexity_:g}, selected iteration "
                          f"{chosen['iteration']} ({chosen['pmf']}); {est.status_}",
                "member_complexity": float(est.member_complexity_),
                "n_members": int(np.count_nonzero(est.weights_)),
                "max_degree": est.max_degree_}
    model = est[-1]
    if method == "adaboost":
        return {"complexity": 2 * len(model.estimators_), "n_rules": 2 * len(model.estimators_),
                "lp_bound": nan, "ip_objective": nan, "gap": nan, "certified": False,
                "proof_complete": False, "status": ""}
    comp = sum(_tree_complexity(t) for t in model.estimators_)
    leaves = sum(int(t.tree_.n_leaves) for t in model.estimators_)
    return {"complexity": comp, "n_rules": leaves, "lp_bound": nan, "ip_objective": nan,
            "gap": nan, "certified": False, "proof_complete": False, "status": ""}


# ============================================================================ benchmark
def run_rules_benchmark(datasets: Sequence[str] = RULES_DATASETS,
                        methods: Sequence[str] = RULES_METHODS, *, n_splits: int = 5,
                        folds: Sequence[int] | None = None, random_state: int = 0,
                        quick: bool = False, complexity: float = BENCH_COMPLEXITY,
                        progress: Callable[[dict[str, Any]], None] | None = None,
                        done: Sequence[dict[str, Any]] = (),
                        ) -> list[dict[str, Any]]:
    """Fit every method on every fold of every dataset; one record per (dataset, method, fold).

    Parameters
    ----------
    datasets, methods : sequences of str
        From :data:`RULES_DATASETS` and :data:`RULES_METHODS`.
    n_splits : int, default 5
    folds : sequence of int, optional
        Only these fold indices (default all).
    quick : bool, default False
        Fewer DRO iterations (4) for smoke runs.
    complexity : float
        Overall budget of ``dro`` and ``rule_set_C``.
    progress : callable, optional
        Called with each record as it is made.
    done : sequence of records
        Records of an interrupted run: their (dataset, method, fold) are not fitted again
        and they are returned in place.

    Returns
    -------
    list of dict
        ``dataset, method, fold, accuracy, train_accuracy, fit_time, complexity, n_rules,
        lp_bound, ip_objective, gap, certified, proof_complete, status`` (and method
        extras).
    """
    from sklearn.base import clone

    for m in methods:
        if m not in RULES_METHODS + EXTRA_METHODS:
            raise InputError(f"unknown method {m!r}; choose from "
                             f"{RULES_METHODS + EXTRA_METHODS}.")
    for name in datasets:
        if name not in RULES_DATASETS:
            raise InputError(f"unknown benchmark dataset {name!r}; choose from "
                             f"{RULES_DATASETS}.")
    previous = {(r["dataset"], r["method"], r["fold"]): r for r in done}
    records = []
    for name in datasets:
        X, y, coded, _ = load_rules_dataset(name)
        cats = _categoricals(X, coded)
        split = rules_folds(y, n_splits, random_state)
        for method in methods:
            proto = make_method(method, coded if method in RULE_METHODS
                                else cats, complexity=complexity, quick=quick,
                                random_state=random_state)
            for f, (tr, te) in enumerate(split):
                if folds is not None and f not in folds:
                    continue
                if (name, method, f) in previous:
                    records.append(previous[(name, method, f)])
                    continue
                est = clone(proto)
                t0 = time.perf_counter()
                est.fit(X.iloc[tr], y[tr])
                fit_time = time.perf_counter() - t0
                rec = {"dataset": name, "method": method, "fold": f,
                       "n_train": int(len(tr)), "n_test": int(len(te)),
                       "accuracy": float(np.mean(est.predict(X.iloc[te]) == y[te])),
                       "train_accuracy": float(np.mean(est.predict(X.iloc[tr]) == y[tr])),
                       "fit_time": fit_time}
                rec.update(_describe(method, est))
                records.append(rec)
                if progress is not None:
                    progress(rec)
    return records


def summarize_rules(records: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """Mean over folds per (dataset, method): accuracy (and std), complexity, time, gap."""
    df = pd.DataFrame(list(records))
    if df.empty:
        return df
    for col in ("max_degree", "absolute_gap"):
        if col not in df:
            df[col] = np.nan
    g = df.groupby(["dataset", "method"], sort=False)
    out = g.agg(accuracy=("accuracy", "mean"), accuracy_std=("accuracy", "std"),
                complexity=("complexity", "mean"), fit_time=("fit_time", "mean"),
                lp_bound=("lp_bound", "mean"), gap=("gap", "mean"), gap_max=("gap", "max"),
                abs_gap=("absolute_gap", "mean"), abs_gap_max=("absolute_gap", "max"),
                certified=("certified", "mean"), proof_complete=("proof_complete", "mean"),
                max_degree=("max_degree", "max"), folds=("fold", "count")).reset_index()
    return out


def _fmt(x: float, spec: str) -> str:
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, spec)


def format_rules_table(summary: pd.DataFrame,
                       peers: Sequence[tuple[str, dict[str, dict[str, float]]]] = ()) -> str:
    """Markdown table: one row per (dataset, method), then one per peer.

    ``peers`` holds ``(label, rows)`` pairs, ``rows[dataset]`` with ``accuracy``,
    ``complexity``, ``fit_time`` (and ``folds`` / ``of`` when the peer failed on some folds).
    ``D`` is the rule learners' resolved ``max_degree``.
    """
    if summary.empty:
        return "(no results)"
    methods = list(dict.fromkeys(summary["method"]))
    lines = ["| dataset | method | D | accuracy | rules + literals | fit time (s) | LP bound | "
             "gap (mean / max) | absolute gap (max) | certified |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for name in dict.fromkeys(summary["dataset"]):
        sub = summary[summary["dataset"] == name].set_index("method")
        for m in methods:
            if m not in sub.index:
                continue
            r = sub.loc[m]
            cert = "—" if m in ("adaboost", "random_forest") else \
                f"{int(round(r.certified * r.folds))}/{int(r.folds)}"
            gap = "—" if math.isnan(r.gap) else f"{r.gap:.2%} / {r.gap_max:.2%}"
            abs_gap = _fmt(getattr(r, "abs_gap_max", math.nan), ".4f")
            deg = "—" if math.isnan(r.max_degree) else str(int(r.max_degree))
            lines.append(f"| {name} | {m} | {deg} | {r.accuracy:.3f} ± "
                         f"{_fmt(r.accuracy_std, '.3f')} | "
                         f"{r.complexity:.1f} | {r.fit_time:.2f} | {_fmt(r.lp_bound, '.4f')} | "
                         f"{gap} | {abs_gap} | {cert} |")
        for peer_label, rows in peers:
            if name not in rows:
                continue
            p = rows[name]
            label = peer_label
            if "folds" in p and p["folds"] < p.get("of", p["folds"]):
                label = f"{peer_label}, {p['folds']}/{p['of']} folds"
            lines.append(f"| {name} | {label} | — | {p['accuracy']:.3f} | "
                         f"{p['complexity']:.1f} | {p['fit_time']:.2f} | — | — | — | — |")
    return "\n".join(lines)


def run(quick: bool = False, random_state: int = 0, *,
        datasets: Sequence[str] | None = None, methods: Sequence[str] = RULES_METHODS,
        progress: bool = False) -> pd.DataFrame:
    """The the DRO paper benchmark as a summary table (the ``optirules reproduce rules`` entry).

    ``quick=True``: digits 1 vs 7 only, the first 2 folds, 4 DRO iterations (seconds);
    otherwise every dataset of :data:`RULES_DATASETS` on 5 folds (tens of minutes;
    ``benchmarks/rules.py`` runs the same and keeps every fold).  Returns
    :func:`summarize_rules` of the records.
    """
    names = list(datasets) if datasets is not None else (
        ["digits_1v7"] if quick else list(RULES_DATASETS))
    report = None
    if progress:
        def report(rec: dict[str, Any]) -> None:
            print(f"{rec['dataset']} {rec['method']} fold {rec['fold']}: "
                  f"accuracy {rec['accuracy']:.3f}", flush=True)
    records = run_rules_benchmark(names, methods, folds=[0, 1] if quick else None,
                                  quick=quick, random_state=random_state, progress=report)
    return summarize_rules(records)


def format_table(df: pd.DataFrame) -> str:
    """:func:`format_rules_table` of our methods only: peers appear only where a run compared
    them (``benchmarks/aix360_peer.py`` writes such a file; ``benchmarks/rules.py`` reads it)."""
    return format_rules_table(df, [])


# ============================================================================== cycling
def run_cycling_experiment(dataset: str = "heart", *, rho: float = 0.5,
                           member_complexity: float = 6.0, n_estimators: int = 12,
                           divergence: str = "chi2", random_state: int = 0) -> dict[str, Any]:
    """The DRO paper §4.1: the binary-loss DRO cycles; the margin-loss DRO does not.

    Both variants run on the whole dataset with the same member budget
    :math:`\\mathfrak{C}'`.  For each iteration the table gives the index of the distinct
    rule set produced (so a cycle reads as a repeating pattern), its weighted training
    error, the robust loss, and the worst-case pmf's mass on the rows the first rule set
    misclassified (the "subsets over- and under-emphasized in a cyclical manner").

    Returns
    -------
    dict
        ``binary`` and ``margin``: lists of per-iteration dicts; ``cycle``: ``(start,
        length)`` of the binary variant or None; the parameters.
    """
    from ..data import FeatureBinarizer
    from ..learners import BooleanRuleSetClassifier, DRORuleEnsembleClassifier

    X, y, coded, note = load_rules_dataset(dataset)
    out: dict[str, Any] = {"dataset": dataset, "note": note, "rho": rho,
                           "member_complexity": member_complexity, "divergence": divergence}
    for loss in ("binary", "margin"):
        est = DRORuleEnsembleClassifier(complexity=max(member_complexity * 3, member_complexity),
                                        member_complexity=member_complexity, rho=rho,
                                        divergence=divergence, n_estimators=n_estimators,
                                        loss=loss, random_state=random_state,
                                        selection="robust_loss", n_iter_no_change=2,
                                        member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer=FeatureBinarizer(categorical_features=coded or None)))
        est.fit(X, y)
        ids: dict[frozenset, int] = {}
        rows = []
        A = est._literal_matrix(X, reset=False)
        ypos = y == est.classes_[1]
        from ..models import clause_coverage

        first_wrong = None
        for n, clauses in enumerate(est.member_clauses_, 1):
            key = frozenset(clauses)
            ids.setdefault(key, len(ids) + 1)
            h = clause_coverage(A, clauses).any(axis=1) if clauses else np.zeros(len(y), bool)
            wrong = h != ypos
            if first_wrong is None:
                first_wrong = wrong
            P_prev = est.pmf_history_[n - 1]
            P_new = est.pmf_history_[n]
            rows.append({"iteration": n, "rule_set": ids[key],
                         "complexity": int(sum(1 + len(c) for c in clauses)),
                         "train_error": float(wrong.mean()),
                         "weighted_error": float(P_prev @ wrong),
                         "robust_loss": float(est.robust_loss_history_[n - 1]),
                         "mass_on_first_errors": float(P_new[first_wrong].sum()),
                         "divergence": float(est.divergence_history_[n])})
        out[loss] = rows
        if loss == "binary":
            out["cycle"] = (est.cycle_start_, est.cycle_length_) if est.cycle_detected_ \
                else None
    return out


def format_cycling(result: dict[str, Any]) -> str:
    """Markdown tables of :func:`run_cycling_experiment`."""
    lines = [f"Cycling of the binary-loss DRO (the DRO paper §4.1) on {result['note']}; "
             f"{result['divergence']} ball rho = {result['rho']}, member budget "
             f"C' = {result['member_complexity']}.", ""]
    cyc = result.get("cycle")
    lines.append("binary loss: " + (f"rule set of iteration {cyc[0]} recurs after {cyc[1]} "
                                    "iteration(s): a cycle" if cyc else "no repeat found"))
    for loss in ("binary", "margin"):
        lines += ["", f"**{loss} loss**", "",
                  "| n | distinct rule set | c(h_n) | train error | error under P^(n-1) | "
                  "robust loss | P^n mass on h_1's errors | D(P^n, P^0) |",
                  "|---|---|---|---|---|---|---|---|"]
        for r in result[loss]:
            lines.append(f"| {r['iteration']} | #{r['rule_set']} | {r['complexity']} | "
                         f"{r['train_error']:.3f} | {r['weighted_error']:.3f} | "
                         f"{r['robust_loss']:.4f} | {r['mass_on_first_errors']:.3f} | "
                         f"{r['divergence']:.4f} |")
    return "\n".join(lines)


# ================================================================================= demo
@dataclass
class RulesDemoResult:
    """What :func:`run_rules_demo` reports."""

    dataset: str
    n_train: int
    n_test: int
    n_literals: int
    rules: str
    complexity: int
    train_accuracy: float
    test_accuracy: float
    lp_bound: float
    ip_objective: float
    gap: float
    gap_certified: bool
    status: str
    n_iterations: int
    fit_time: float
    model_path: str
    json_path: str
    extras: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RulesDemoSettings:
    """The rule set's settings in :func:`run_rules_demo`.

    Parameters
    ----------
    complexity, lambda0, lambda1, max_degree
        The estimator's parameters of the same names; ``None`` or ``"auto"`` keeps its
        default.
    solver : str, default "highs"
        Solver of the restricted masters and of the final IP.
    time_limit : float, optional
        Seconds allowed to the fit; ``None`` sets no limit.

    Examples
    --------
    >>> RulesDemoSettings(max_degree=2).lambda0
    'auto'
    """

    complexity: float | None = None
    lambda0: float | str = "auto"
    lambda1: float | str = "auto"
    max_degree: int | str = "auto"
    solver: str = "highs"
    time_limit: float | None = None


def run_rules_demo(dataset: str = "tic_tac_toe", settings: RulesDemoSettings | None = None, *,
                   test_size: float = 0.25, output: str | Path = "optirules_demo.lp",
                   random_state: int = 0, verbose: bool = False) -> RulesDemoResult:
    """Fit a :class:`~optirules.learners.BooleanRuleSetClassifier` on a bundled dataset, export its master.

    ``dataset`` is a name of ``RULES_DATASETS``, a bundled file name (e.g.
    ``"monks1"``, which uses its own train/test files) or any :func:`~optirules.data.load_dataset` name.
    Writes the final master IP to ``output`` (.lp/.mps) and the model as JSON next to it.

    Parameters
    ----------
    dataset : str, default "tic_tac_toe"
        The dataset (see above).
    settings : RulesDemoSettings, optional
        The rule set's parameters (complexity, penalties, degree), solver and time limit;
        ``None``: ``RulesDemoSettings()``, the estimator's defaults.
    test_size : float, default 0.25
        Fraction of rows held out, for datasets without a test file.
    output : str or path, default "optirules_demo.lp"
        File the final master IP is written to.
    random_state : int, default 0
        Seed of the split and of the estimator.
    verbose : bool, default False
        Log the column-generation iterations.

    Returns
    -------
    RulesDemoResult
        The rules, complexity, accuracies and solve figures of the fit.
    """
    from sklearn.model_selection import train_test_split

    from ..data import SPLIT_FAMILIES, FeatureBinarizer, dataset_info, load_dataset
    from ..learners import BooleanRuleSetClassifier

    if dataset in SPLIT_FAMILIES:
        X_tr, y_tr = load_dataset(dataset, split="train")
        X_te, y_te = load_dataset(dataset, split="test")
        coded = list(dataset_info(f"{dataset}_train").coded_categorical)
    else:
        if dataset in RULES_DATASETS:
            X, y, coded, _ = load_rules_dataset(dataset)
        else:
            X, y = load_dataset(dataset)
            coded = list(dataset_info(dataset).coded_categorical)
        X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=test_size, stratify=y,
                                                  random_state=random_state)
    st = RulesDemoSettings() if settings is None else settings
    est = BooleanRuleSetClassifier(
        complexity=st.complexity, lambda0=st.lambda0, lambda1=st.lambda1,
        max_degree=st.max_degree, solver=st.solver, time_limit=st.time_limit,
        random_state=random_state, verbose=verbose,
        binarizer=FeatureBinarizer(categorical_features=coded or None))
    est.fit(X_tr, y_tr)
    path = Path(output)
    est.export_model(path)
    json_path = path.with_suffix(".json")
    est.to_json(json_path)
    return RulesDemoResult(
        dataset=dataset, n_train=len(y_tr), n_test=len(y_te), n_literals=len(est.literals_),
        rules=est.rules_.to_string(multiline=True), complexity=est.rules_.complexity,
        train_accuracy=float(est.score(X_tr, y_tr)), test_accuracy=float(est.score(X_te, y_te)),
        lp_bound=est.lp_bound_, ip_objective=est.ip_objective_, gap=est.gap_,
        gap_certified=est.gap_certified_, status=est.status_, n_iterations=est.n_iter_,
        fit_time=est.fit_time_, model_path=str(path.resolve()),
        json_path=str(json_path.resolve()),
        extras={"pool_size": len(est.pool_), "max_degree": est.max_degree_})


def format_rules_demo(r: RulesDemoResult) -> str:
    """The demo's printout.

    Parameters
    ----------
    r : RulesDemoResult
        What :func:`run_rules_demo` returned.

    Returns
    -------
    str
        The report, several lines.
    """
    gap = f"{r.gap:.2%} (certified)" if r.gap_certified else "unknown (not certified)"
    return "\n".join([
        f"optirules demo: {r.dataset} ({r.n_train} train / {r.n_test} test rows, "
        f"{r.n_literals} literals)",
        r.rules,
        f"complexity (rules + literals): {r.complexity}",
        f"train accuracy: {r.train_accuracy:.4f}",
        f"test accuracy:  {r.test_accuracy:.4f}",
        f"column generation: {r.n_iterations} iterations, {r.extras.get('pool_size')} clauses "
        f"generated, {r.fit_time:.2f} s",
        f"status: {r.status}",
        f"master objective {r.ip_objective:.6f}, LP bound {r.lp_bound:.6f}, gap {gap}",
        f"model written:  {r.model_path}",
        f"JSON written:   {r.json_path}",
    ])
