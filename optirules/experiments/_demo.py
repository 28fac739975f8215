"""The main job on bundled data: binarize, solve a rule-set IP with HiGHS, report, export.

``optirules demo --method enumerate``: instead of column generation (the default demo), solve
the weighted Hamming-loss rule master (eqs 6-8 of the DRO rule-ensemble paper, unit weights) as
an integer program over *every* clause of at most ``max_degree`` literals that covers at least
one positive training row.  Its default data, MONK's problem 1 (target concept
``a1 == a2 or a5 == 1``), is small enough to solve to optimality in seconds, and its own test
file holds all 432 possible examples.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import InputError

__all__ = ["DemoResult", "run_demo", "format_demo"]


@dataclass
class DemoResult:
    dataset: str
    n_train: int
    n_test: int
    n_literals: int
    n_clauses: int
    rules: list[str]
    complexity: int
    train_accuracy: float
    test_accuracy: float
    status: str
    objective: float
    bound: float
    lp_bound: float
    gap: float
    solve_time: float
    model_path: str
    extras: dict = field(default_factory=dict)


def run_demo(dataset: str = "monks1", *, max_degree: int = 2, complexity: float = 20.0,
             solver: str = "highs", time_limit: float = 30.0, test_size: float = 0.25,
             n_thresholds: int = 9, output: str | Path = "optirules_demo.lp",
             random_state: int = 0) -> DemoResult:
    """Run the demo and return its figures (see the module docstring).

    Parameters
    ----------
    dataset : str, default "monks1"
        A bundled dataset; ``monks1`` etc. use their own test files, others a stratified split.
    max_degree : int, default 2
        Most literals in an enumerated clause.
    complexity : float, default 20.0
        Budget on the rule set's complexity (clauses plus literals) in the master IP.
    solver : str, default "highs"
        Solver of the master IP and of its LP relaxation.
    time_limit : float, default 30.0
        Seconds allowed to the master IP.
    test_size : float, default 0.25
        Fraction of rows held out, for datasets without a test file.
    n_thresholds : int, default 9
        Thresholds per numeric column of the :class:`~optirules.data.FeatureBinarizer`.
    output : str or path, default "optirules_demo.lp"
        File the master IP is written to (.lp or .mps).
    random_state : int, default 0
        Seed of the train/test split.

    Returns
    -------
    DemoResult
        The rules, their accuracies, the IP's status, objective, bounds and gap, and the
        written model's path.
    """
    from sklearn.model_selection import train_test_split

    from ..data import SPLIT_FAMILIES, FeatureBinarizer, dataset_info, load_dataset
    from ..models import RuleMasterModel

    if max_degree < 1:
        raise InputError(f"max_degree must be at least 1, got {max_degree}.")
    if dataset in SPLIT_FAMILIES:  # the MONK's problems come with their own test files
        X_tr, y_tr = load_dataset(dataset, split="train")
        X_te, y_te = load_dataset(dataset, split="test")
        coded = dataset_info(f"{dataset}_train").coded_categorical
    else:
        X, y = load_dataset(dataset)
        X_tr, X_te, y_tr, y_te = train_test_split(
            X, y, test_size=test_size, stratify=y, random_state=random_state
        )
        coded = dataset_info(dataset).coded_categorical
    binarizer = FeatureBinarizer(
        n_thresholds=n_thresholds, categorical_features=list(coded) or None
    ).fit(X_tr)
    A_tr, A_te = binarizer.transform(X_tr), binarizer.transform(X_te)
    names = [str(n) for n in binarizer.get_feature_names_out()]
    literals = list(binarizer.literals_)
    feature_of = [lit.feature for lit in literals]
    from ..models import all_clauses

    clauses = [c for c in all_clauses(A_tr, y_tr, max_degree)
               if len({feature_of[j] for j in c}) == len(c)]
    # a tie-breaking penalty far below one row's weight (1/N) prefers the simpler of two
    # rule sets with the same Hamming loss; the complexity budget C still binds
    tie = 0.01 / (len(y_tr) * max(complexity, 1.0))
    master = RuleMasterModel(A_tr, y_tr, clauses, complexity=complexity,
                             lambda0=tie, lambda1=tie)
    result = master.solve(solver, time_limit=time_limit)
    relaxed = RuleMasterModel(A_tr, y_tr, clauses, complexity=complexity,
                              lambda0=tie, lambda1=tie, relax=True)
    lp = relaxed.solve(solver)
    path = Path(output)
    master.write(path)
    rules = master.selected_

    def predict(A):
        if not rules:
            return np.zeros(len(A), dtype=int)
        return np.column_stack([A[:, list(c)].all(axis=1) for c in rules]).any(axis=1).astype(int)

    return DemoResult(
        dataset=dataset,
        n_train=len(y_tr),
        n_test=len(y_te),
        n_literals=A_tr.shape[1],
        n_clauses=len(clauses),
        rules=[" AND ".join(names[j] for j in c) for c in rules],
        complexity=int(sum(1 + len(c) for c in rules)),
        train_accuracy=float((predict(A_tr) == y_tr).mean()),
        test_accuracy=float((predict(A_te) == y_te).mean()),
        status=result.status.value,
        objective=result.objective,
        bound=result.bound,
        lp_bound=lp.objective,
        gap=result.gap,
        solve_time=result.wall_time,
        model_path=str(path.resolve()),
    )


def format_demo(r: DemoResult) -> str:
    """The demo's report as text: the rules, complexity, accuracies, solve status and gap.

    Parameters
    ----------
    r : DemoResult
        What :func:`run_demo` returned.

    Returns
    -------
    str
        The report, several lines.
    """
    lines = [
        f"optirules demo: {r.dataset} ({r.n_train} train / {r.n_test} test rows, "
        f"{r.n_literals} literals, {r.n_clauses} candidate clauses)",
        "rule set (predict 1 if any rule holds):",
    ]
    lines += [f"  {i + 1}. {rule}" for i, rule in enumerate(r.rules)] or ["  (empty: predict 0)"]
    lines += [
        f"complexity (rules + literals): {r.complexity}",
        f"train accuracy: {r.train_accuracy:.4f}",
        f"test accuracy:  {r.test_accuracy:.4f}",
        f"solve status:   {r.status} in {r.solve_time:.2f} s",
        f"objective:      {r.objective:.6f}   bound: {r.bound:.6f}   gap: {r.gap:.2e}",
        f"LP relaxation:  {r.lp_bound:.6f}",
        f"model written:  {r.model_path}",
    ]
    return "\n".join(lines)
