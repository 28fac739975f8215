"""Equality of opportunity: accuracy against the TPR gap for fairlearn's peers (and, later, the rule set).

Data (``optirules.data.load_dataset``); the positive class is the data set's label 1:

* ``adult`` (label 1: income >50K), protected attribute ``sex`` ("Female" / "Male").
  The 48,842 rows are subsampled to ``--rows`` (default 10,000) with a fixed seed
  (``train_test_split(..., train_size=rows, stratify=label x sex, random_state=0)``), so
  that ExponentiatedGradient around a tree fits in the run's budget on two shared cores;
  ``--rows 0`` keeps every row.
* ``credit_g`` (label 1: class "bad", the credit risk), protected attribute
  ``age > 25`` (">25" / "<=25") from the column ``age``.

Features: the model sees every column except the one the protected attribute comes from
(``sex`` for adult, ``age`` for credit_g); the protected attribute is passed to a method
only as ``sensitive_features`` (ExponentiatedGradient's constraint at fit time,
ThresholdOptimizer's group thresholds at fit *and* predict time).  Other columns may still
be proxies (adult's ``relationship`` holds "Husband" / "Wife").  For scikit-learn models
the columns are encoded on the training fold: strings one-hot (a missing value is the
category "missing", unseen categories are all-zero), numbers median-imputed; for
LogisticRegression the numbers are also standardized.

Protocol: ``StratifiedKFold(--folds (5), shuffle=True, random_state=0)`` stratified on
label x group.  Per fold and method (``METHODS``):

* ``CART``: ``DecisionTreeClassifier(random_state=0)`` tuned by ``GridSearchCV`` (inner
  ``StratifiedKFold(5, shuffle=True, random_state=0)``, accuracy) over ``max_depth`` x
  ``min_samples_leaf`` (``CART_GRID``) on the training fold; its best parameters are
  reused, without tuning again, by every wrapper around CART in the same fold.
* ``LogReg``: ``LogisticRegression(C=1, max_iter=2000)`` on one-hot + scaled features.
* ``EG + CART`` / ``EG + LogReg``: ``ExponentiatedGradient(base,
  constraints=TruePositiveRateParity(difference_bound=eps))`` (fairlearn's other
  defaults: ``eps=0.01`` slack, ``max_iter=50``); predictions from the randomized mixture
  with ``predict(X, random_state=0)``.  Note that TruePositiveRateParity bounds each
  group's TPR against the overall TPR, so the between-group gap may reach about 2 x eps.
* ``ThresholdOpt + CART`` / ``ThresholdOpt + LogReg``: ``ThresholdOptimizer(base,
  constraints="true_positive_rate_parity", prefit=False, predict_method="predict_proba")``
  (no eps: one point per base model), ``predict(X, sensitive_features=s,
  random_state=0)``.
* ``rule set (EO)``: ``BooleanRuleSetClassifier(fairness="equal_opportunity",
  fairness_tolerance=eps, target_class=1, random_state=0)`` on the raw frame, the group
  given to ``fit(..., sensitive_features=s)`` (``run_rule_set``); skipped, with the row
  "not available", when the installed learner has no such parameters.  Its size: rules
  and literals.

Measures, mean and std over the folds: test accuracy; the equality-of-opportunity gap
(fairlearn's ``equal_opportunity_difference``, between groups: |TPR(a) - TPR(b)|) on the
test and the training fold; fairlearn's ``equalized_odds_difference`` (worst case of the TPR
and FPR gaps) on the test fold; the model size (CART: leaves; ExponentiatedGradient: base
models with positive weight in the mixture, and their leaves summed for CART;
ThresholdOptimizer: the base tree's leaves; "n/a" for LogReg); the seconds of the method's
call (encoding, fit, and both predictions; CART's includes its grid search, the wrappers'
do not, unless CART is left out of ``--methods``).  The header records the git commit of the checkout and whether ``optirules/`` had
uncommitted edits when the run started.  One JSON line per fit goes to ``fairness.jsonl``, the table to
``fairness.md`` and the trade-off plots (accuracy against test EO gap) to
``fairness_<dataset>.png``, all in ``--out-dir``.

    OPENBLAS_NUM_THREADS=1 nice -n 10 python benchmarks/fairness.py
    python benchmarks/fairness.py --datasets credit_g --folds 2 --out-dir /tmp/f  # quick

Adding a method: one more ``Method`` in ``METHODS``, whose ``run(X_train, y_train,
s_train, X_test, eps)`` returns ``(predict_test, predict_train, size)``; it may also
declare the keyword-only arguments ``s_test``, ``fold`` (a ``Fold``: its encodings and
the tuned CART) and ``seed``, which the runner then passes.
"""

from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import inspect
import json
import platform
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

RESULTS = Path(__file__).resolve().parent / "results"
EPSILONS = (0.01, 0.02, 0.05, 0.1)
SEED = 0
CART_GRID = {"max_depth": [2, 3, 4, 5, 6, 8, 10, 12],
             "min_samples_leaf": [1, 5, 10, 20, 50, 100]}


class NotAvailable(Exception):
    """The method cannot run with the installed packages (the row says why)."""


# ----------------------------------------------------------------------------- data

def load(name: str, rows: int) -> tuple[pd.DataFrame, np.ndarray, np.ndarray, str]:
    """name -> (X without the protected column, y, protected group per row, description)."""
    from sklearn.model_selection import train_test_split

    from optirules.data import load_dataset

    X, y = load_dataset(name)
    if name == "adult":
        s = X["sex"].astype(str).str.strip().to_numpy()
        X = X.drop(columns="sex")
        what = "sex"
    elif name == "credit_g":
        s = np.where(X["age"].to_numpy() > 25, ">25", "<=25")
        X = X.drop(columns="age")
        what = "age > 25 (column age)"
    else:
        raise SystemExit(f"no protected attribute defined for {name!r}")
    n_all = len(y)
    if rows and rows < n_all:
        strata = np.char.add(y.astype(str), s.astype(str))
        keep, _ = train_test_split(np.arange(n_all), train_size=rows, stratify=strata,
                                   random_state=SEED)
        keep = np.sort(keep)
        X, y, s = X.iloc[keep].reset_index(drop=True), y[keep], s[keep]
    groups = ", ".join(f"{g}: {np.sum(s == g)} rows, {np.mean(y[s == g]):.3f} positive"
                       for g in np.unique(s))
    desc = (f"{name}: {len(y)} of {n_all} rows, {X.shape[1]} input columns, protected "
            f"{what} ({groups})")
    return X, y, s, desc


def encode(X_train: pd.DataFrame, X_test: pd.DataFrame,
           scale: bool) -> tuple[np.ndarray, np.ndarray]:
    """One-hot strings, median-impute (and optionally standardize) numbers, fit on train."""
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    num = [c for c in X_train.columns if pd.api.types.is_numeric_dtype(X_train[c])]
    cat = [c for c in X_train.columns if c not in num]
    num_steps = [SimpleImputer(strategy="median")] + ([StandardScaler()] if scale else [])
    ct = ColumnTransformer(
        [("num", make_pipeline(*num_steps), num),
         ("cat", make_pipeline(SimpleImputer(strategy="constant", fill_value="missing"),
                               OneHotEncoder(handle_unknown="ignore", sparse_output=False)),
          cat)])

    def strings(X):  # pandas 3's str columns -> object, so the imputer sees np.nan
        X = X.copy()
        for c in cat:
            X[c] = X[c].astype(object).where(X[c].notna(), np.nan)
        return X

    A = ct.fit_transform(strings(X_train))
    return np.asarray(A, dtype=float), np.asarray(ct.transform(strings(X_test)), dtype=float)


@dataclass
class Fold:
    """What the methods of one fold share: encodings and the tuned CART's parameters."""

    X_train: pd.DataFrame
    X_test: pd.DataFrame
    y_train: np.ndarray
    _enc: dict = field(default_factory=dict)
    _cart: dict | None = None

    def encoded(self, scale: bool) -> tuple[np.ndarray, np.ndarray]:
        if scale not in self._enc:
            self._enc[scale] = encode(self.X_train, self.X_test, scale)
        return self._enc[scale]

    def cart_params(self) -> dict:
        """The grid search's best parameters on this training fold (computed once)."""
        if self._cart is None:
            from sklearn.model_selection import GridSearchCV, StratifiedKFold
            from sklearn.tree import DecisionTreeClassifier

            A, _ = self.encoded(scale=False)
            gs = GridSearchCV(DecisionTreeClassifier(random_state=SEED), CART_GRID,
                              cv=StratifiedKFold(5, shuffle=True, random_state=SEED),
                              scoring="accuracy", n_jobs=1)
            gs.fit(A, self.y_train)
            self._cart = dict(gs.best_params_)
        return self._cart


# ----------------------------------------------------------------------------- methods

def _cart(fold: Fold):
    from sklearn.tree import DecisionTreeClassifier

    return DecisionTreeClassifier(random_state=SEED, **fold.cart_params())


def _logreg():
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=1.0, max_iter=2000)


def run_cart(X_train, y_train, s_train, X_test, eps, *, fold):
    A, B = fold.encoded(scale=False)
    model = _cart(fold).fit(A, y_train)
    return model.predict(B), model.predict(A), f"{model.get_n_leaves()} leaves"


def run_logreg(X_train, y_train, s_train, X_test, eps, *, fold):
    A, B = fold.encoded(scale=True)
    model = _logreg().fit(A, y_train)
    return model.predict(B), model.predict(A), "n/a"


def _eg(base, A, B, y_train, s_train, eps, seed):
    from fairlearn.reductions import ExponentiatedGradient, TruePositiveRateParity

    model = ExponentiatedGradient(base, constraints=TruePositiveRateParity(difference_bound=eps))
    model.fit(A, y_train, sensitive_features=s_train)
    used = [p for p, w in zip(model.predictors_, model.weights_) if w > 0]
    return model.predict(B, random_state=seed), model.predict(A, random_state=seed), used


def run_eg_cart(X_train, y_train, s_train, X_test, eps, *, fold, seed):
    A, B = fold.encoded(scale=False)
    pt, pa, used = _eg(_cart(fold), A, B, y_train, s_train, eps, seed)
    leaves = sum(int(p.get_n_leaves()) for p in used)
    return pt, pa, f"{len(used)} trees, {leaves} leaves"


def run_eg_logreg(X_train, y_train, s_train, X_test, eps, *, fold, seed):
    A, B = fold.encoded(scale=True)
    pt, pa, used = _eg(_logreg(), A, B, y_train, s_train, eps, seed)
    return pt, pa, f"{len(used)} models"


def _threshold(base, A, B, y_train, s_train, s_test, seed):
    from fairlearn.postprocessing import ThresholdOptimizer

    model = ThresholdOptimizer(estimator=base, constraints="true_positive_rate_parity",
                               prefit=False, predict_method="predict_proba")
    model.fit(A, y_train, sensitive_features=s_train)
    return (model.predict(B, sensitive_features=s_test, random_state=seed),
            model.predict(A, sensitive_features=s_train, random_state=seed), model)


def run_to_cart(X_train, y_train, s_train, X_test, eps, *, fold, s_test, seed):
    A, B = fold.encoded(scale=False)
    pt, pa, model = _threshold(_cart(fold), A, B, y_train, s_train, s_test, seed)
    return pt, pa, f"{model.estimator_.get_n_leaves()} leaves + group thresholds"


def run_to_logreg(X_train, y_train, s_train, X_test, eps, *, fold, s_test, seed):
    A, B = fold.encoded(scale=True)
    pt, pa, _ = _threshold(_logreg(), A, B, y_train, s_train, s_test, seed)
    return pt, pa, "n/a"


def run_rule_set(X_train, y_train, s_train, X_test, eps):
    """optirules' rule set under equality of opportunity, when the learner has it.

    ``BooleanRuleSetClassifier(fairness="equal_opportunity", fairness_tolerance=eps,
    target_class=1, random_state=0)``, its other parameters at their defaults, on the raw
    frame (its own binarizer), the group from ``fit(..., sensitive_features=s_train)``;
    ``target_class=1`` makes the rules describe label 1, so the constrained rate is the TPR
    of label 1, the positive class here.
    """
    from optirules.learners import BooleanRuleSetClassifier

    params = inspect.signature(BooleanRuleSetClassifier.__init__).parameters
    if "fairness" not in params or "fairness_tolerance" not in params:
        raise NotAvailable("BooleanRuleSetClassifier has no fairness= / fairness_tolerance=")
    if "sensitive_features" not in inspect.signature(BooleanRuleSetClassifier.fit).parameters:
        raise NotAvailable("BooleanRuleSetClassifier.fit has no sensitive_features=")
    extra = {"target_class": 1} if "target_class" in params else {}
    model = BooleanRuleSetClassifier(fairness="equal_opportunity", fairness_tolerance=eps,
                                     random_state=SEED, **extra)
    model.fit(X_train, y_train, sensitive_features=s_train)
    rules = model.rules_
    if hasattr(rules, "n_rules") and hasattr(rules, "n_literals"):
        size = f"{rules.n_rules} rules, {rules.n_literals} literals"
    else:
        size = f"{len(model.rules_table())} rules"
    return model.predict(X_test), model.predict(X_train), size


@dataclass(frozen=True)
class Method:
    name: str
    run: Callable
    uses_eps: bool
    style: str  # matplotlib marker and line style for the trade-off plot


METHODS = [
    Method("CART", run_cart, False, "s"),
    Method("LogReg", run_logreg, False, "D"),
    Method("EG + CART", run_eg_cart, True, "o-"),
    Method("EG + LogReg", run_eg_logreg, True, "^-"),
    Method("ThresholdOpt + CART", run_to_cart, False, "P"),
    Method("ThresholdOpt + LogReg", run_to_logreg, False, "X"),
    # the optirules entry: runs once BooleanRuleSetClassifier has fairness="equal_opportunity"
    Method("rule set (EO)", run_rule_set, True, "*-"),
]


# ----------------------------------------------------------------------------- runner

def eo_gap(y, pred, s) -> float:
    from fairlearn.metrics import equal_opportunity_difference

    return float(equal_opportunity_difference(y, pred, sensitive_features=s))


def eodds_gap(y, pred, s) -> float:
    from fairlearn.metrics import equalized_odds_difference

    return float(equalized_odds_difference(y, pred, sensitive_features=s))


def call(method: Method, X_tr, y_tr, s_tr, X_te, eps, *, fold: Fold, s_test, seed):
    wanted = inspect.signature(method.run).parameters
    extra = {k: v for k, v in (("fold", fold), ("s_test", s_test), ("seed", seed))
             if k in wanted}
    return method.run(X_tr, y_tr, s_tr, X_te, eps, **extra)


def run_dataset(name, X, y, s, methods, epsilons, folds, log) -> list[dict]:
    from sklearn.model_selection import StratifiedKFold

    rows = []
    unavailable: dict[str, str] = {}
    strata = np.char.add(y.astype(str), s.astype(str))
    splits = StratifiedKFold(folds, shuffle=True, random_state=SEED).split(X, strata)
    for k, (tr, te) in enumerate(splits):
        fold = Fold(X.iloc[tr].reset_index(drop=True), X.iloc[te].reset_index(drop=True), y[tr])
        for m in methods:
            if m.name in unavailable:
                continue
            for eps in (epsilons if m.uses_eps else (None,)):
                t0 = time.perf_counter()
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", category=FutureWarning)
                        pred_te, pred_tr, size = call(m, fold.X_train, y[tr], s[tr],
                                                      fold.X_test, eps, fold=fold,
                                                      s_test=s[te], seed=SEED)
                except NotAvailable as why:
                    unavailable[m.name] = str(why)
                    log(f"{name} / {m.name}: not available ({why})")
                    break
                secs = time.perf_counter() - t0
                pred_te, pred_tr = np.asarray(pred_te).astype(int), np.asarray(pred_tr).astype(int)
                row = {"dataset": name, "method": m.name, "eps": eps, "fold": k,
                       "accuracy": float(np.mean(pred_te == y[te])),
                       "test EO gap": eo_gap(y[te], pred_te, s[te]),
                       "train EO gap": eo_gap(y[tr], pred_tr, s[tr]),
                       "test EOdds diff": eodds_gap(y[te], pred_te, s[te]),
                       "train accuracy": float(np.mean(pred_tr == y[tr])),
                       "size": size, "fit s": secs,
                       "cart params": fold._cart}
                rows.append(row)
                log(f"{name} fold {k} / {m.name}" + ("" if eps is None else f" eps={eps}")
                    + f": acc {row['accuracy']:.3f}, EO gap {row['test EO gap']:.3f}, "
                    f"{size}, {secs:.1f} s")
    for mname, why in unavailable.items():
        rows.append({"dataset": name, "method": mname, "eps": None, "fold": None,
                     "not available": why})
    return rows


def _size_summary(v: pd.Series) -> str:
    """Mean of the numbers in the size strings when they vary, e.g. '12.4 leaves'."""
    v = [x for x in v if isinstance(x, str)]
    if not v or all(x == "n/a" for x in v):
        return "n/a"
    if len(set(v)) == 1:
        return v[0]
    parts = [x.split() for x in v]
    out = []
    for i, tok in enumerate(parts[0]):
        nums = []
        for p in parts:
            try:
                nums.append(float(p[i].rstrip(",")))
            except (ValueError, IndexError):
                nums = []
                break
        if nums:
            mean = np.mean(nums)
            text = f"{mean:.0f}" if all(x == nums[0] for x in nums) else f"{mean:.1f}"
            out.append(text + ("," if tok.endswith(",") else ""))
        else:
            out.append(tok)
    return " ".join(out)


def summarize(rows: list[dict]) -> pd.DataFrame:
    df = pd.DataFrame(rows)
    if "not available" not in df:
        df["not available"] = np.nan
    done = df[df["not available"].isna()].copy()
    done["eps"] = done["eps"].map(lambda e: "-" if e is None or pd.isna(e) else f"{e:g}")
    out = []
    order = {m.name: i for i, m in enumerate(METHODS)}
    for (d, m, e), g in done.groupby(["dataset", "method", "eps"], sort=False):
        r = {"dataset": d, "method": m, "eps": e, "folds": len(g)}
        for col in ("accuracy", "test EO gap", "train EO gap", "test EOdds diff"):
            r[col] = f"{g[col].mean():.3f} ± {g[col].std(ddof=1):.3f}"
        r["size (mean)"] = _size_summary(g["size"])
        r["fit s"] = f"{g['fit s'].mean():.2f} ± {g['fit s'].std(ddof=1):.2f}"
        r["_o"] = (d, order.get(m, 99), e)
        out.append(r)
    for _, r in df[df["not available"].notna()].iterrows():
        out.append({"dataset": r["dataset"], "method": r["method"], "eps": "all",
                    "folds": 0, "accuracy": "not available", "size (mean)":
                    r["not available"], "_o": (r["dataset"], order.get(r["method"], 99), "")})
    table = pd.DataFrame(out).sort_values("_o", key=lambda c: c.map(str)).drop(columns="_o")
    table = table.sort_values(["dataset"], kind="stable").fillna("")
    return table


def plot(rows: list[dict], name: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    df = pd.DataFrame([r for r in rows if r["dataset"] == name and "accuracy" in r])
    fig, ax = plt.subplots(figsize=(7, 5))
    for m in METHODS:
        g = df[df["method"] == m.name]
        if g.empty:
            continue
        key = g["eps"].map(lambda e: -1.0 if e is None or pd.isna(e) else e)
        s = g.groupby(key).agg(acc=("accuracy", "mean"), acc_sd=("accuracy", "std"),
                               gap=("test EO gap", "mean"), gap_sd=("test EO gap", "std"))
        bars = ax.errorbar(s["gap"], s["acc"], xerr=s["gap_sd"], yerr=s["acc_sd"],
                           fmt=m.style, capsize=2, elinewidth=0.7, markersize=7,
                           label=m.name)
        for line in bars.lines[2]:
            line.set_alpha(0.35)
        if m.uses_eps:
            for e, r in s.iterrows():
                ax.annotate(f"{e:g}", (r["gap"], r["acc"]), textcoords="offset points",
                            xytext=(4, 4), fontsize=7)
    ax.set_xlabel("test equality-of-opportunity gap |TPR(a) - TPR(b)| (mean ± std, folds)")
    ax.set_ylabel("test accuracy")
    ax.set_title(f"{name}: accuracy vs equality of opportunity (labels: eps)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def provenance() -> str:
    """The checkout the run measured: HEAD and whether optirules/ had uncommitted edits."""
    import subprocess

    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, text=True,
                              capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "optirules"], cwd=root,
                               text=True, capture_output=True, check=True).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        return "git state unknown"
    dirty = [line[3:] for line in dirty if line.strip()]
    return (f"optirules at git {head}" + (f" plus uncommitted edits to {', '.join(dirty)}"
                                         if dirty else " (clean)"))


def versions() -> str:
    import sklearn

    parts = [f"Python {platform.python_version()}", f"scikit-learn {sklearn.__version__}"]
    from importlib.metadata import PackageNotFoundError, version

    for mod in ("fairlearn", "highspy", "optirules", "numpy", "pandas"):
        try:
            parts.append(f"{mod} {version(mod)}")
        except PackageNotFoundError:
            parts.append(f"{mod} absent")
    return ", ".join(parts)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=["adult", "credit_g"])
    parser.add_argument("--rows", type=int, default=10_000,
                        help="stratified subsample of adult (0: all rows)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--eps", type=float, nargs="+", default=list(EPSILONS))
    parser.add_argument("--methods", nargs="+", default=None,
                        help="names from METHODS (default: all)")
    parser.add_argument("--out-dir", type=Path, default=RESULTS)
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    try:
        import fairlearn  # noqa: F401
    except ImportError:
        sys.exit("this script needs fairlearn: pip install fairlearn")
    methods = [m for m in METHODS if args.methods is None or m.name in args.methods]

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    start = time.time()
    load0 = os.getloadavg()
    git = provenance()
    rows, descs = [], []
    for name in args.datasets:
        X, y, s, desc = load(name, args.rows if name == "adult" else 0)
        descs.append(desc)
        log(desc)
        rows += run_dataset(name, X, y, s, methods, args.eps, args.folds, log)
    load1 = os.getloadavg()
    table = summarize(rows)
    head = (f"fairness.py run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(start))}, "
            f"{(time.time() - start) / 60:.1f} min; {versions()}; {os.cpu_count()} cores, "
            f"load average (1/5/15 min) {'/'.join(f'{x:.2f}' for x in load0)} at the start, "
            f"{'/'.join(f'{x:.2f}' for x in load1)} at the end; n_jobs=1, one BLAS thread; "
            f"{git}\n\n"
            f"Command: python benchmarks/fairness.py {' '.join(argv or sys.argv[1:])}\n\n"
            + "".join(f"- {d}\n" for d in descs)
            + f"- {args.folds} folds (StratifiedKFold on label x group, shuffle, "
            f"random_state={SEED}); eps {', '.join(f'{e:g}' for e in args.eps)} for the "
            "methods that take it ('-' otherwise); mean ± std over the folds. EO gap: "
            "fairlearn equal_opportunity_difference (between groups); EOdds diff: "
            "equalized_odds_difference. fit s: wall seconds of encoding, fit and both "
            "predictions (CART's includes its grid search, the wrappers reuse its best "
            "parameters). Protocol details: the docstring of benchmarks/fairness.py.\n")
    text = head + "\n" + table.to_markdown(index=False) + "\n"
    print(text)
    if not args.no_write:
        args.out_dir.mkdir(parents=True, exist_ok=True)
        (args.out_dir / "fairness.md").write_text(text)
        with open(args.out_dir / "fairness.jsonl", "w") as fh:
            for r in rows:
                fh.write(json.dumps({"run": time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                                          time.gmtime(start)), **r}) + "\n")
        for name in args.datasets:
            plot(rows, name, args.out_dir / f"fairness_{name}.png")
        log(f"wrote {args.out_dir}/fairness.md, .jsonl and fairness_<dataset>.png")


if __name__ == "__main__":
    main()
