"""How a :class:`~optirules.learners.DecisionListClassifier` turns the steps of the BruteDL
search into its fitted list: the rules, their history, the default rule and the rows left
to the fallback.

The steps come from :func:`~optirules.learners._decision_list._search.grow_decision_list`
(a fit), or from :func:`~optirules.learners._decision_list._shared.grid_lists` (the search
:class:`~optirules.learners.DecisionListCV` shares across its grid), which returns the same
steps; either way the list is set up by :func:`build_list`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._checks import progress_logger
from ._rules import DecisionRule
from ._search import grow_decision_list

__all__ = ["build_list", "count_text"]


def count_text(count: int | float) -> str:
    """A row count as text; a weight sum (float) with up to 6 significant digits."""
    if isinstance(count, float):
        return f"{count:.6g}"
    return str(count)


def build_list(est: Any, codes: np.ndarray, y: np.ndarray, weights: np.ndarray | None = None,
               found: tuple | None = None, tests: dict | None = None) -> None:
    """Set ``est``'s list (``rules_``, ``history_``, ``n_candidates_``, ``stop_reason_``,
    ``status_``, ``uncovered_rows_``, ``default_counts_``, ``default_class_``).

    Parameters
    ----------
    est : DecisionListClassifier
        With ``classes_``, ``features_`` and ``min_coverage_`` set (by its fit).
    codes : ndarray of int, shape (n, p)
        The encoded training rows.
    y : ndarray of int, shape (n,)
        Their classes ``0 .. k - 1``.
    weights : ndarray of float, shape (n,), optional
        Their positive weights (None: unweighted).
    found : (steps, remaining, stop), optional
        The search's result, as :func:`grow_decision_list` returns it; None runs that
        search (``est.max_degree``, ``est.min_coverage_``, ``est.max_rules``, until
        ``est._deadline``).
    tests : dict, optional
        The rules' tests by test index, filled as they are made (shared by the lists of
        one encoding, which make the same tests).
    """
    k = est.classes_.size
    n, p = codes.shape
    n_values = np.array([len(f.categories) for f in est.features_], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(n_values)[:-1]]).astype(np.int64)
    n_av = int(n_values.sum())
    av_attr = np.repeat(np.arange(p), n_values)
    av_value = np.arange(n_av) - offsets[av_attr]
    log = progress_logger("learners.decision_list", est.verbose)
    progress = None
    if log is not None:
        log.info("BruteDL search: %d rows, %d attribute-value tests, max_degree=%d, "
                 "min_coverage=%d", n, n_av, est.max_degree, est.min_coverage_)

        def progress(step: dict) -> None:
            tests = " AND ".join(str(est._condition(int(av_attr[a]), int(av_value[a])))
                                 for a in step["conj"])
            log.info("rule found: %s (covers %s, Laplace %.4f, %d candidates, %.2f s)",
                     tests, count_text(step["coverage"]), step["laplace"],
                     step["candidates"], step["seconds"])

    if found is None:
        onehot = np.zeros((n_av, n), dtype=bool)
        for j in range(p):
            onehot[offsets[j] + codes[:, j], np.arange(n)] = True
        steps, remaining, stop = grow_decision_list(
            onehot, y, k, av_attr, est.max_degree, est.min_coverage_, est.max_rules,
            progress=progress, deadline=getattr(est, "_deadline", None), weights=weights)
    else:
        steps, remaining, stop = found
        if progress is not None:
            for step in steps:
                progress(step)
    if log is not None:
        log.info("stopped (%s) after %d rules; %d training rows left to the fallback",
                 stop, len(steps), remaining.size)
    if tests is None:
        tests = {}
    rules: list[DecisionRule] = []
    history: list[dict] = []
    for step in steps:
        for a in step["conj"]:
            if a not in tests:
                tests[a] = est._condition(int(av_attr[a]), int(av_value[a]))
        conds = tuple(tests[a] for a in step["conj"])
        pred = int(np.argmax(step["counts"]))
        rules.append(DecisionRule(conds, est.classes_[pred],
                                  tuple((int if weights is None else float)(c)
                                        for c in step["counts"])))
        history.append({"rule": len(rules) - 1, "laplace": step["laplace"],
                        "coverage": step["coverage"], "candidates": step["candidates"],
                        "seconds": step["seconds"]})
    est.rules_ = rules
    est.history_ = history
    est.n_candidates_ = int(sum(h["candidates"] for h in history))
    est.stop_reason_ = stop
    est._set_status()
    est.uncovered_rows_ = np.asarray(remaining, dtype=np.int64)
    rest = remaining if remaining.size else np.arange(n)
    est.default_counts_ = np.bincount(
        y[rest], weights=None if weights is None else weights[rest], minlength=k)
    est.default_class_ = est.classes_[int(np.argmax(est.default_counts_))]
