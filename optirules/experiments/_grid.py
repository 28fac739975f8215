"""Run a grid of experiments (datasets x learners x parameters x seeds x solvers) locally with
joblib, or on an existing distributed engine (Dask, Ray); resumable through an on-disk store.

Each *cell* of the grid is one (dataset, learner, parameters, seed, solver) combination,
evaluated by stratified k-fold cross-validation (shuffled with the cell's seed) or on the
dataset's own train/test split.  A cell's result depends only on the cell, never on the
backend or on the order in which cells run, so the same grid gives the same table on one
machine or a cluster (apart from the timing columns).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._atomic import atomic_write
from .._workers import parallel
from ..errors import InputError
from ._reaper import _descendants, _start_reaper, _stop_reaper

__all__ = [
    "Cell",
    "GridResult",
    "GridWorkers",
    "run_grid",
    "evaluate_cell",
    "make_learner",
    "LEARNERS",
    "summarize",
    "average_ranks",
    "load_grid_data",
]

#: columns that measure time: they differ between runs and are left out of comparisons
TIMING_COLUMNS = ("fit_time", "predict_time")


# ----------------------------------------------------------------------------- learners
def _sk(module: str, name: str) -> Callable[..., Any]:
    def factory(**params):
        import importlib

        return getattr(importlib.import_module(module), name)(**params)

    return factory


def _rule_set_cv(**params):
    """BooleanRuleSetCV around a BooleanRuleSetClassifier: the CV's own parameters go to the
    wrapper, every other one to the rule set."""
    from ..learners import BooleanRuleSetClassifier, BooleanRuleSetCV

    outer = {k: params.pop(k) for k in list(params)
             if k in ("penalties", "cv", "scoring", "selection", "n_jobs")}
    return BooleanRuleSetCV(BooleanRuleSetClassifier(**params), **outer)


def _decision_list_cv(**params):
    """DecisionListCV around a DecisionListClassifier: the CV's own parameters go to the
    wrapper, every other one to the list (its depth and coverage are the CV's grids)."""
    from ..learners import DecisionListClassifier, DecisionListCV

    fixed = sorted({"max_degree", "min_coverage"} & set(params))
    if fixed:
        raise InputError(f"decision_list_cv chooses {fixed[0]} by cross-validation; give the "
                         "grid as max_degrees=[...] / min_coverages=[...] instead.")
    outer = {k: params.pop(k) for k in list(params)
             if k in ("max_degrees", "min_coverages", "cv", "scoring", "n_jobs", "random_state",
                      "verbose")}
    return DecisionListCV(DecisionListClassifier(**params), **outer)


#: learner name -> factory(**params) -> unfitted estimator; the optirules learners take raw
#: data (their own FeatureBinarizer); scikit-learn baselines get one-hot encoding
LEARNERS: dict[str, Callable[..., Any]] = {
    "rule_set": _sk("optirules.learners", "BooleanRuleSetClassifier"),
    "rule_set_cv": _rule_set_cv,
    "dro_rule_ensemble": _sk("optirules.learners", "DRORuleEnsembleClassifier"),
    "boosting": _sk("optirules.learners", "BoostingClassifier"),
    "decision_list": _sk("optirules.learners", "DecisionListClassifier"),
    "decision_list_cv": _decision_list_cv,
    "adaboost": _sk("sklearn.ensemble", "AdaBoostClassifier"),
    "random_forest": _sk("sklearn.ensemble", "RandomForestClassifier"),
    "decision_tree": _sk("sklearn.tree", "DecisionTreeClassifier"),
    "logistic_regression": _sk("sklearn.linear_model", "LogisticRegression"),
}
_RAW_DATA_LEARNERS = {"decision_list", "decision_list_cv"}
_BINARIZED_LEARNERS = {"rule_set", "rule_set_cv", "dro_rule_ensemble", "boosting"}


def _one_hot_pipeline(estimator):
    from sklearn.compose import ColumnTransformer, make_column_selector
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    prep = ColumnTransformer(
        [
            ("num", SimpleImputer(strategy="median"), make_column_selector(dtype_include="number")),
            ("cat", make_pipeline(
                SimpleImputer(strategy="constant", fill_value="?"),
                OneHotEncoder(handle_unknown="ignore", sparse_output=False),
            ), make_column_selector(dtype_exclude="number")),
        ]
    )
    return make_pipeline(prep, estimator)


def _check_params(name: str, params: Mapping[str, Any]) -> None:
    """Refuse a parameter the learner does not take, naming the ones it does."""
    est = LEARNERS[name]()
    valid = set(est.get_params(deep=False))
    inner = getattr(est, "estimator", None)
    if hasattr(inner, "get_params"):  # a CV wrapper: its own parameters and its estimator's
        valid |= set(inner.get_params(deep=False))
    valid.discard("estimator")
    unknown = sorted(set(params) - valid)
    if unknown:
        import difflib

        close = difflib.get_close_matches(unknown[0], sorted(valid), n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise InputError(f"learner {name!r} has no parameter {unknown[0]!r}.{hint} Its "
                         f"parameters: {', '.join(sorted(valid))}.")


def make_learner(name: str, params: Mapping[str, Any] | None = None, *, seed: int | None = None,
                 solver: str | None = None, categorical: Sequence[str] = (),
                 binarize: bool = True):
    """Build the estimator of one grid cell.

    ``random_state`` is set to the cell's seed and ``solver`` to the cell's solver when the
    estimator has those parameters (a solver given to a learner that solves no model is an
    error, so that a grid cannot silently ignore it).  scikit-learn baselines are wrapped
    in a one-hot / imputation pipeline; optirules' rule and boosting learners get a
    :class:`~optirules.data.FeatureBinarizer` (with the dataset's coded categorical columns)
    unless ``binarize`` is False, which leaves them their own default (``"auto"``: 0/1
    columns as they are, and numbers as they are for boosting's stumps and trees).

    Parameters
    ----------
    name : str
        The learner's name, a key of :data:`LEARNERS`.
    params : mapping, optional
        Parameters set on the estimator.
    seed : int, optional
        Its ``random_state``, when it has one.
    solver : str, optional
        Its ``solver``; an error for a learner that solves no model.
    categorical : sequence of str
        The dataset's coded categorical columns, passed to the binarizer.
    binarize : bool, default True
        Give the rule and boosting learners a ``FeatureBinarizer``; False keeps the class's
        own binarizer (``optirules fit`` builds the classes with their defaults).

    Returns
    -------
    sklearn.base.BaseEstimator
        The unfitted estimator (a pipeline for the scikit-learn baselines).
    """
    if name not in LEARNERS:
        import difflib

        close = difflib.get_close_matches(name, list(LEARNERS), n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise InputError(f"unknown learner {name!r}.{hint} Known learners: {', '.join(LEARNERS)}.")
    params = dict(params or {})
    _check_params(name, params)
    est = LEARNERS[name](**params)
    # a CV wrapper: seed, solver and binarizer go to the rule set inside (the seed also
    # shuffles the folds)
    inner = getattr(est, "estimator", None) if name == "rule_set_cv" else None
    if inner is not None and seed is not None and "random_state" not in params:
        est.set_params(random_state=seed)
    target = est if inner is None else inner
    names = target.get_params(deep=False)
    extra = {}
    if seed is not None and "random_state" in names and "random_state" not in params:
        extra["random_state"] = seed
    if solver is not None:
        if "solver" not in names:
            raise InputError(f"learner {name!r} solves no optimization model, so it takes no solver "
                             f"(got solver={solver!r}); leave the grid's solver at None for it.")
        extra["solver"] = solver
    if binarize and name in _BINARIZED_LEARNERS and params.get("binarizer") is None:
        from ..data import FeatureBinarizer

        binarizer = FeatureBinarizer(categorical_features=list(categorical) or None)
        if "binarizer" in names:
            extra["binarizer"] = binarizer
        elif "member" in names and params.get("member") is None:  # the DRO ensemble's member
            from sklearn.base import clone

            extra["member"] = clone(target._member_estimator()).set_params(binarizer=binarizer)
    target.set_params(**extra)
    if name in LEARNERS and name not in _RAW_DATA_LEARNERS | _BINARIZED_LEARNERS:
        est = _one_hot_pipeline(est)
    return est


# ----------------------------------------------------------------------------- data
def load_grid_data(name: str):
    """``(X_train, y_train, X_test, y_test, categorical)`` for a dataset with its own split,
    or ``(X, y, None, None, categorical)``; names are bundled datasets or ``digits_1v7`` /
    ``digits_4v9`` (scikit-learn digits, pixels > 7) or ``sklearn_breast_cancer``."""
    from ..data import SPLIT_FAMILIES, dataset_info, load_dataset

    if name.startswith("digits_") and "v" in name:
        import re

        from sklearn.datasets import load_digits

        match = re.fullmatch(r"digits_([0-9])v([0-9])", name)
        if match is None or match.group(1) == match.group(2):
            raise InputError(f"unknown grid dataset {name!r}: a digits pair is named "
                             "digits_<a>v<b> with two different digits 0-9, e.g. digits_1v7.")
        a, b = int(match.group(1)), int(match.group(2))
        digits = load_digits()
        keep = np.isin(digits.target, [a, b])
        X = pd.DataFrame((digits.data[keep] > 7).astype(int),
                         columns=[f"pixel_{i}" for i in range(64)])
        return X, (digits.target[keep] == b).astype(int), None, None, ()
    if name == "sklearn_breast_cancer":
        from sklearn.datasets import load_breast_cancer

        X, y = load_breast_cancer(return_X_y=True, as_frame=True)
        return X, (y.to_numpy() == 0).astype(int), None, None, ()
    if name in SPLIT_FAMILIES:
        X_tr, y_tr = load_dataset(name, split="train")
        X_te, y_te = load_dataset(name, split="test")
        return X_tr, y_tr, X_te, y_te, dataset_info(f"{name}_train").coded_categorical
    X, y = load_dataset(name)
    return X, y, None, None, dataset_info(name).coded_categorical


# ----------------------------------------------------------------------------- cells
@dataclass(frozen=True)
class GridWorkers:
    """Where :func:`run_grid` evaluates its cells.

    Parameters
    ----------
    backend : {"local", "dask", "ray"}, default "local"
        ``local`` runs with joblib (``n_jobs`` processes); ``dask`` submits the cells to a
        ``dask.distributed`` scheduler (``scheduler`` = its address, a ``Client``, or None
        for a ``LocalCluster`` of ``n_jobs`` workers); ``ray`` to a Ray cluster
        (``scheduler`` = its address, or None for a local Ray with ``n_jobs`` CPUs).
    n_jobs : int, default 1
        Worker processes (``local``), workers of a new ``LocalCluster`` (``dask``) or CPUs
        of a new local Ray (``ray``).
    scheduler : str or object, optional
        The ``dask`` or ``ray`` cluster to submit to (see ``backend``).

    Examples
    --------
    >>> GridWorkers("dask", n_jobs=2).scheduler is None
    True
    """

    backend: str = "local"
    n_jobs: int = 1
    scheduler: Any = None


@dataclass(frozen=True)
class Cell:
    """One combination of the grid.

    Parameters
    ----------
    dataset : str
        Name of the dataset the cell is evaluated on.
    learner : str
        Name of the learner, a key of :data:`LEARNERS`.
    params : tuple of (str, object) pairs
        The learner's parameters in this cell, as sorted ``(name, value)`` pairs.
    seed : int
        Seed of the folds' shuffle and of the learner's ``random_state``.
    solver : str or None
        Solver of the learners that solve models; ``None`` keeps the learner's default.
    """

    dataset: str
    learner: str
    params: tuple[tuple[str, Any], ...] = ()
    seed: int = 0
    solver: str | None = None

    @property
    def params_dict(self) -> dict[str, Any]:
        return dict(self.params)

    def key(self, cv: int) -> str:
        """A stable identifier: the same cell and folds give the same key on every machine.

        Parameters
        ----------
        cv : int
            Number of folds the cell is evaluated on (part of the key).

        Returns
        -------
        str
            A 20-character hex digest of the cell's fields and ``cv``.
        """
        text = json.dumps([self.dataset, self.learner, [list(p) for p in self.params],
                           self.seed, self.solver, cv], sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:20]

    def label(self) -> str:
        p = ",".join(f"{k}={v}" for k, v in self.params)
        return f"{self.learner}({p})" if p else self.learner


def _complexity(est) -> float:
    est = getattr(est, "steps", [[None, est]])[-1][1]
    for attr in ("complexity_", "n_literals_"):
        if hasattr(est, attr):
            return float(getattr(est, attr))
    if hasattr(est, "rules_"):
        try:
            return float(sum(1 + len(r) for r in est.rules_))
        except TypeError:
            pass
    return float("nan")


def evaluate_cell(cell: Cell, cv: int = 5) -> list[dict[str, Any]]:
    """Evaluate one cell: one row per fold with accuracy, timing and (where the learner has
    one) model complexity.  Deterministic given the cell.

    Parameters
    ----------
    cell : Cell
        The dataset, learner, parameters, seed and solver to evaluate.
    cv : int, default 5
        Stratified folds, for datasets without their own test split.

    Returns
    -------
    list of dict
        One row per fold, with the columns of the ``frame`` of a :class:`GridResult`.
    """
    from sklearn.model_selection import StratifiedKFold

    X, y, X_te, y_te, categorical = load_grid_data(cell.dataset)
    if X_te is not None:
        splits = [("test", X, y, X_te, y_te)]
    else:
        skf = StratifiedKFold(n_splits=cv, shuffle=True, random_state=cell.seed)
        splits = [
            (f"{k}", X.iloc[tr], y[tr], X.iloc[te], y[te])
            for k, (tr, te) in enumerate(skf.split(np.zeros(len(y)), y))
        ]
    rows = []
    for fold, X_a, y_a, X_b, y_b in splits:
        est = make_learner(cell.learner, cell.params_dict, seed=cell.seed, solver=cell.solver,
                           categorical=categorical)
        t0 = time.perf_counter()
        est.fit(X_a, y_a)
        t1 = time.perf_counter()
        pred = est.predict(X_b)
        t2 = time.perf_counter()
        rows.append({
            "dataset": cell.dataset,
            "learner": cell.learner,
            "params": json.dumps(cell.params_dict, sort_keys=True, default=str),
            "seed": cell.seed,
            "solver": cell.solver or "",
            "fold": fold,
            "n_train": len(y_a),
            "n_test": len(y_b),
            "train_accuracy": float(np.mean(est.predict(X_a) == y_a)),
            "accuracy": float(np.mean(pred == y_b)),
            "complexity": _complexity(est),
            "fit_time": t1 - t0,
            "predict_time": t2 - t1,
        })
    return rows


# ----------------------------------------------------------------------------- store
class _Store:
    """Finished cells as one JSON file each; a rerun skips them."""

    def __init__(self, path: str | os.PathLike | None, cv: int):
        self.path = Path(path) if path is not None else None
        self.cv = cv
        if self.path is not None:
            self.path.mkdir(parents=True, exist_ok=True)

    def _file(self, cell: Cell) -> Path:
        assert self.path is not None
        return self.path / f"{cell.key(self.cv)}.json"

    def get(self, cell: Cell) -> list[dict[str, Any]] | None:
        """The stored rows of ``cell``, or None to (re)compute it: no file yet, or a file
        that is damaged or belongs to another cell (reported with a warning naming it)."""
        if self.path is None:
            return None
        path = self._file(cell)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            return self._damaged(path, f"it cannot be read ({exc.strerror or exc})")
        try:
            data = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            return self._damaged(path, "it is not UTF-8 text")
        except RecursionError:
            return self._damaged(path, "it is nested too deeply")
        except ValueError as exc:  # half written by an interrupted run, or edited
            return self._damaged(path, f"it is not valid JSON ({exc})")
        problem = _store_problem(data, cell, self.cv)
        if problem:
            return self._damaged(path, problem)
        return data["rows"]

    @staticmethod
    def _damaged(path: Path, why: str) -> None:
        import warnings

        warnings.warn(f"the grid store file {str(path)!r} is damaged or out of date: {why}; "
                      "its cell is computed again and the file replaced.", RuntimeWarning,
                      stacklevel=3)
        return None

    def put(self, cell: Cell, rows: list[dict[str, Any]]) -> None:
        if self.path is None:
            return
        atomic_write(self._file(cell),
                     json.dumps({"cell": asdict(cell), "rows": rows}, default=str))


#: the columns of a stored row (one fold of one cell), as :func:`evaluate_cell` writes them
_ROW_KEYS = ("dataset", "learner", "params", "seed", "solver", "fold", "n_train", "n_test",
             "train_accuracy", "accuracy", "complexity", "fit_time", "predict_time")


def _store_problem(data: Any, cell: Cell, cv: int) -> str | None:
    """What is wrong with a store file's content for ``cell`` and ``cv`` folds, or None:
    it must be ``{"cell": <this cell>, "rows": <one row per fold>}`` with the rows of
    :func:`evaluate_cell` (this cell's identity, the expected folds, counts and
    accuracies in range)."""
    import math

    from ..data import SPLIT_FAMILIES

    if not isinstance(data, dict) or set(data) != {"cell", "rows"}:
        return "it is not an object with the keys 'cell' and 'rows'"
    expected = json.loads(json.dumps(asdict(cell), default=str))
    if data["cell"] != expected:
        return f"its 'cell' is {str(data['cell'])[:120]}, not this cell {expected}"
    rows = data["rows"]
    folds = ["test"] if cell.dataset in SPLIT_FAMILIES else [str(k) for k in range(cv)]
    if not isinstance(rows, list) or len(rows) != len(folds):
        return f"'rows' must be a list of {len(folds)} fold results"
    ident = {"dataset": cell.dataset, "learner": cell.learner,
             "params": json.dumps(cell.params_dict, sort_keys=True, default=str),
             "seed": cell.seed, "solver": cell.solver or ""}

    def number(v: Any) -> bool:
        return isinstance(v, (int, float)) and not isinstance(v, bool)

    for k, (row, fold) in enumerate(zip(rows, folds)):
        if not isinstance(row, dict) or set(row) != set(_ROW_KEYS):
            return f"row {k} must have the columns {list(_ROW_KEYS)}"
        for key, value in ident.items():
            if row[key] != value or type(row[key]) is not type(value):
                return f"row {k} has {key} {str(row[key])[:60]!r}, not {value!r}"
        if row["fold"] != fold:
            return f"row {k} is fold {str(row['fold'])[:20]!r}, not {fold!r}"
        for key in ("n_train", "n_test"):
            if not isinstance(row[key], int) or isinstance(row[key], bool) or row[key] < 1:
                return f"row {k} has {key} {str(row[key])[:20]}, not a positive count"
        for key in ("train_accuracy", "accuracy"):
            if not number(row[key]) or not 0 <= row[key] <= 1:
                return f"row {k} has {key} {str(row[key])[:20]}, not a number in [0, 1]"
        for key in ("fit_time", "predict_time"):
            if not number(row[key]) or not math.isfinite(row[key]) or row[key] < 0:
                return f"row {k} has {key} {str(row[key])[:20]}, not a time >= 0"
        c = row["complexity"]
        if c is not None and not number(c):
            return f"row {k} has complexity {str(c)[:20]}, not a number"
    return None


# ----------------------------------------------------------------------------- backends
def _run_local(cells, cv, n_jobs, on_done):
    from joblib import delayed

    if n_jobs == 1:
        for cell in cells:
            on_done(cell, evaluate_cell(cell, cv))
        return
    # joblib's own process pool (loky, the default) is started here, so its workers watch
    # this process; another backend chosen with joblib.parallel_config runs elsewhere
    pool = parallel(n_jobs=n_jobs, return_as="generator")
    for cell, rows in zip(cells, pool(delayed(evaluate_cell)(c, cv) for c in cells)):
        on_done(cell, rows)


def _run_dask(cells, cv, n_jobs, on_done, scheduler):
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise InputError("backend='dask' needs dask.distributed: pip install 'dask[distributed]'.") from None
    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=max(1, n_jobs), threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    elif isinstance(scheduler, Client):
        client = scheduler
    else:
        client = Client(scheduler)
    try:
        futures = {client.submit(evaluate_cell, c, cv, pure=False): c for c in cells}
        for fut in as_completed(futures):
            on_done(futures[fut], fut.result())
    finally:
        if scheduler is None or not isinstance(scheduler, Client):
            client.close()
        if cluster is not None:
            cluster.close()


def _run_ray(cells, cv, n_jobs, on_done, address):
    try:
        import ray
    except ImportError:
        raise InputError("backend='ray' needs ray: pip install 'optirules[ray]'.") from None
    started, reaper = False, None
    if not ray.is_initialized():
        local = address is None and os.path.isdir("/proc")
        before = set(_descendants(os.getpid())) if local else set()
        ray.init(address=address, num_cpus=None if address else max(1, n_jobs),
                 include_dashboard=False, log_to_driver=False)
        started = True
        if local:
            # a local Ray started here: Ray ends its raylet and workers with this process,
            # but its agents linger on after a kill; the reaper ends what ray.init started
            reaper = _start_reaper([p for p in _descendants(os.getpid()) if p not in before])
    try:
        remote = ray.remote(evaluate_cell)
        pending = {remote.remote(c, cv): c for c in cells}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                on_done(pending.pop(ref), ray.get(ref))
    finally:
        if started:
            ray.shutdown()
        _stop_reaper(reaper)


# ----------------------------------------------------------------------------- the grid
@dataclass
class GridResult:
    """The tidy table of a grid run (one row per cell and fold) and what was reused.

    Parameters
    ----------
    frame : pandas.DataFrame
        One row per cell and fold (the columns :func:`run_grid` lists).
    n_cells : int
        Number of cells of the grid.
    n_reused : int
        Cells read back from the ``store`` folder instead of being computed.
    n_computed : int
        Cells computed by this run.
    wall_time : float
        Seconds the whole run took.
    backend : str
        The backend that ran the cells (``"local"``, ``"dask"`` or ``"ray"``).
    extras : dict
        Backend-specific details of the run.
    """

    frame: pd.DataFrame
    n_cells: int
    n_reused: int
    n_computed: int
    wall_time: float
    backend: str
    extras: dict[str, Any] = field(default_factory=dict)

    def summary(self, metric: str = "accuracy") -> pd.DataFrame:
        return summarize(self.frame, metric)

    def ranks(self, metric: str = "accuracy") -> pd.Series:
        return average_ranks(self.frame, metric)


def _expand(learners, params) -> list[tuple[str, tuple[tuple[str, Any], ...]]]:
    """Learners with their parameter grids: ``{"boosting": {"n_estimators": [10, 50]}}``."""
    from sklearn.model_selection import ParameterGrid

    if isinstance(learners, str):
        learners = [learners]
    out = []
    if isinstance(learners, Mapping):
        items = list(learners.items())
    else:
        items = [(name, (params or {}).get(name, {})) for name in learners]
    for name, grid in items:
        for combo in ParameterGrid(grid if grid else {}):
            out.append((name, tuple(sorted(combo.items()))))
    return out


def run_grid(
    datasets: Iterable[str],
    learners: Iterable[str] | Mapping[str, Mapping[str, Sequence[Any]]],
    params: Mapping[str, Mapping[str, Sequence[Any]]] | None = None,
    seeds: Iterable[int] = (0,),
    solvers: Iterable[str | None] = (None,),
    *,
    cv: int = 5,
    workers: GridWorkers | None = None,
    store: str | os.PathLike | None = None,
    progress: bool = False,
) -> GridResult:
    """Evaluate every cell of a grid and return a tidy table.

    Parameters
    ----------
    datasets : iterable of str
        Bundled dataset names (``monks1`` etc. use their own test files), or
        ``digits_1v7``, ``digits_4v9``, ``sklearn_breast_cancer``.
    learners : iterable of str, or mapping name -> parameter grid
        Names from :data:`LEARNERS`; a mapping gives each learner its own grid
        (``{"boosting": {"n_estimators": [10, 50]}}``).
    params : mapping name -> parameter grid, optional
        Parameter grids for learners given as a list.
    seeds : iterable of int
        Each seed sets the folds' shuffle and the learner's ``random_state``.
    solvers : iterable of str or None
        Solver names for learners that solve models; ``None`` keeps the learner's default.
    cv : int, default 5
        Stratified folds for datasets without their own test split.
    workers : GridWorkers, optional
        Where the cells run: the backend, the number of workers and the scheduler
        (:class:`GridWorkers`; ``None``: ``GridWorkers()``, one local process).
    store : path, optional
        Folder where each finished cell is kept as JSON; a rerun skips those cells, so an
        interrupted grid resumes where it stopped.
    progress : bool
        Show a progress bar (tqdm).

    Returns
    -------
    GridResult
        ``frame`` has one row per cell and fold: dataset, learner, params (JSON), seed,
        solver, fold, n_train, n_test, train_accuracy, accuracy, complexity, fit_time,
        predict_time.
    """
    workers = GridWorkers() if workers is None else workers
    backend, n_jobs, scheduler = workers.backend, workers.n_jobs, workers.scheduler
    if backend not in ("local", "dask", "ray"):
        raise InputError(f"unknown backend {backend!r}: choose 'local', 'dask' or 'ray'.")
    if not isinstance(cv, int) or cv < 2:
        raise InputError(f"cv must be an integer >= 2, got {cv!r}.")
    datasets = list(datasets)
    if not datasets:
        raise InputError("the grid has no datasets.")
    combos = _expand(learners, params)
    for name, _ in combos:
        if name not in LEARNERS:
            make_learner(name)  # raises the unknown-learner error
    cells = [Cell(d, name, p, int(s), sv) for d in datasets for name, p in combos
             for s in seeds for sv in solvers]
    st = _Store(store, cv)
    results: dict[Cell, list[dict[str, Any]]] = {}
    todo = []
    for cell in cells:
        rows = st.get(cell)
        if rows is None:
            todo.append(cell)
        else:
            results[cell] = rows
    n_reused = len(results)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(cells), initial=n_reused, desc="grid", unit="cell")

    def on_done(cell: Cell, rows: list[dict[str, Any]]) -> None:
        results[cell] = rows
        st.put(cell, rows)
        if bar is not None:
            bar.update(1)

    start = time.perf_counter()
    try:
        if todo:
            if backend == "local":
                _run_local(todo, cv, n_jobs, on_done)
            elif backend == "dask":
                _run_dask(todo, cv, n_jobs, on_done, scheduler)
            else:
                _run_ray(todo, cv, n_jobs, on_done, scheduler)
    finally:
        if bar is not None:
            bar.close()
    frame = pd.DataFrame([row for cell in cells for row in results[cell]])
    return GridResult(frame=frame, n_cells=len(cells), n_reused=n_reused,
                      n_computed=len(todo), wall_time=time.perf_counter() - start,
                      backend=backend)


# ----------------------------------------------------------------------------- summaries
def summarize(frame: pd.DataFrame, metric: str = "accuracy") -> pd.DataFrame:
    """Mean and standard deviation of ``metric`` (and mean fit time, complexity) per
    dataset and learner configuration, with a ``mean ± sd`` text column.

    Parameters
    ----------
    frame : pandas.DataFrame
        The tidy table of a grid run (the ``frame`` of a :class:`GridResult`).
    metric : str, default "accuracy"
        The column summarized.

    Returns
    -------
    pandas.DataFrame
        One row per dataset and learner configuration.
    """
    keys = ["dataset", "learner", "params", "solver"]
    g = frame.groupby(keys, sort=False)
    out = g.agg(mean=(metric, "mean"), sd=(metric, "std"), folds=(metric, "size"),
                complexity=("complexity", "mean"), fit_time=("fit_time", "mean")).reset_index()
    out["sd"] = out["sd"].fillna(0.0)
    out["mean ± sd"] = [f"{m:.4f} ± {s:.4f}" for m, s in zip(out["mean"], out["sd"])]
    return out


def average_ranks(frame: pd.DataFrame, metric: str = "accuracy", *,
                  higher_is_better: bool = True) -> pd.Series:
    """Average rank of each learner configuration across datasets (1 = best; ties share the
    mean rank), as in the Friedman-test tables of the seeds.

    Parameters
    ----------
    frame : pandas.DataFrame
        The tidy table of a grid run (the ``frame`` of a :class:`GridResult`).
    metric : str, default "accuracy"
        The column whose per-dataset mean is ranked.
    higher_is_better : bool, default True
        Whether the largest value gets rank 1 (``False`` for times and complexities).

    Returns
    -------
    pandas.Series
        The average rank of each learner configuration, best first.
    """
    s = summarize(frame, metric)
    s["config"] = s["learner"] + " " + s["params"] + (" " + s["solver"]).where(s["solver"] != "", "")
    table = s.pivot_table(index="dataset", columns="config", values="mean")
    ranks = table.rank(axis=1, ascending=not higher_is_better, method="average")
    return ranks.mean(axis=0).sort_values()
