"""optirules.plotting: every plot draws the fitted model's own numbers (checked against its
attributes and, for coverage and boosting curves, against a recount done here)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from optirules import plotting  # noqa: E402
from optirules.errors import InputError  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(120, 6))
    y = ((X[:, 0] & X[:, 1]) | X[:, 2]).astype(int)
    return X, np.where(rng.random(120) < 0.1, 1 - y, y)


@pytest.fixture(scope="module")
def rule_set(data):
    from optirules.learners import BooleanRuleSetClassifier

    return BooleanRuleSetClassifier(max_degree=2, pricing="exact", random_state=0).fit(*data)


@pytest.fixture(scope="module")
def dro(data):
    from optirules.learners import DRORuleEnsembleClassifier

    return DRORuleEnsembleClassifier(complexity=12, random_state=0).fit(*data)


def _rounds(cls, n):
    """The boosting-round parameter, by whichever name the estimator has."""
    params = cls().get_params()
    return {"n_estimators" if "n_estimators" in params else "n_rounds": n}


def test_column_generation_draws_the_history(rule_set):
    ax = plotting.plot_column_generation(rule_set)
    lp, bound, ip = ax.lines
    assert np.allclose(lp.get_ydata(), [h["lp_objective"] for h in rule_set.history_])
    assert np.allclose(lp.get_xdata(), [h["iteration"] for h in rule_set.history_])
    assert np.allclose(bound.get_ydata(), [h["lp_bound"] for h in rule_set.history_])
    assert np.allclose(ip.get_ydata(), rule_set.ip_objective_)
    # the bound is certified: never above the LP of its iteration nor above the IP
    assert (bound.get_ydata() <= lp.get_ydata() + 1e-9).all()
    assert ax.get_ylim()[0] <= 0 <= ax.get_ylim()[1]


def test_column_generation_refuses_a_model_without_trace(rule_set):
    with pytest.raises(InputError, match="history"):
        plotting.plot_column_generation(object())
    loaded = type(rule_set).from_json(rule_set.to_json())
    with pytest.raises(InputError, match="fit it"):
        plotting.plot_column_generation(loaded)


def test_worst_case_pmf_of_a_dro_ensemble(dro):
    fig, ax = plt.subplots()
    assert plotting.plot_worst_case_pmf(dro, ax=ax) is ax
    q, p = dro.pmf_history_[-1], dro.pmf_history_[0]
    n = q.size
    order = np.argsort(q, kind="stable")
    assert np.allclose(ax.lines[0].get_ydata(), n * q[order])
    assert np.allclose(ax.lines[1].get_ydata(), n * p[order])


def test_worst_case_pmf_needs_a_pmf(dro):
    loaded = type(dro).from_json(dro.to_json())
    with pytest.raises(InputError, match="not a pmf"):
        plotting.plot_worst_case_pmf(loaded)
    # what the JSON keeps is enough for the ensemble picture
    ax = plotting.plot_dro_ensemble(loaded)
    assert np.allclose([p.get_height() for p in ax.patches], dro.weights_)


def test_worst_case_pmf_from_losses():
    from optirules.models import worst_case_pmf

    z = np.array([0.0, 2.0, 1.0, 0.0, 3.0, 1.0])
    q = worst_case_pmf(z, 0.2)
    ax = plotting.plot_worst_case_pmf(q, losses=z)
    order = np.argsort(z, kind="stable")
    assert np.allclose(ax.lines[0].get_ydata(), 6 * q[order])
    assert np.allclose(ax.lines[1].get_ydata(), 1.0)               # uniform P
    # the worst case moves weight to the larger losses: its curve rises along the x axis
    assert (np.diff(ax.lines[0].get_ydata()) >= -1e-12).all()
    with pytest.raises(InputError, match="one per row"):
        plotting.plot_worst_case_pmf(q, losses=z[:3])
    with pytest.raises(InputError, match="non-negative"):
        plotting.plot_worst_case_pmf(-q)


def test_dro_ensemble_weights_and_robust_loss(dro):
    ax = plotting.plot_dro_ensemble(dro)
    heights = [p.get_height() for p in ax.patches]
    assert np.allclose(heights, dro.weights_)
    assert np.allclose([p.get_x() + p.get_width() / 2 for p in ax.patches],
                       np.arange(1, dro.weights_.size + 1))
    line = ax.right_axis.lines[0]
    assert np.allclose(line.get_ydata(), dro.robust_loss_history_)
    with pytest.raises(InputError, match="weights_"):
        plotting.plot_dro_ensemble(object())


def test_rule_coverage_of_a_rule_set_counts_rows(rule_set, data):
    X, y = data
    ax = plotting.plot_rule_coverage(rule_set, X, y)
    image = np.asarray(ax.images[0].get_array())
    assert image.shape == (len(rule_set.rules_), len(y))
    order = ax.coverage_order
    assert (np.diff(y[order]) <= 0).all()                         # positives first
    for k, rule in enumerate(rule_set.rules_):
        covered = rule.evaluate(X)                                 # recount, rule by rule
        expected = np.where(covered, np.where(y == 1, 1, -1), 0)[order]
        assert np.array_equal(image[k], expected)
        label = ax.get_yticklabels()[k].get_text()
        assert f"(+{int((covered & (y == 1)).sum())} / -{int((covered & (y == 0)).sum())})" \
            in label


def test_rule_coverage_of_a_dro_ensemble_shows_used_members(dro, data):
    X, y = data
    ax = plotting.plot_rule_coverage(dro, X, y)
    used = [k for k, w in enumerate(dro.weights_) if w > 0]
    n_rules = sum(len(dro.members_[k]) for k in used)
    assert np.asarray(ax.images[0].get_array()).shape == (n_rules, len(y))
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert all(any(lab.startswith(f"h{k + 1}: ") for k in used) for lab in labels)


def test_rule_coverage_of_a_decision_list_is_first_match():
    from optirules.learners import DecisionListClassifier

    X = pd.DataFrame({"a": list("xxyyzz") * 4, "b": list("pqpqpq") * 4})
    y = np.array([1, 0, 0, 0, 2, 2] * 4)
    dl = DecisionListClassifier(categorical_features="all", min_coverage=1).fit(X, y)
    ax = plotting.plot_rule_coverage(dl, X, y)
    image = np.asarray(ax.images[0].get_array())
    fired = dl.explain(X)["rule"].to_numpy()
    order = ax.coverage_order
    for k, rule in enumerate(dl.rules_):
        own = np.where(y == rule.prediction, 1, -1)
        assert np.array_equal(image[k], np.where(fired == k, own, 0)[order])
    assert (np.abs(image).sum(axis=0) <= 1).all()               # one rule per row at most


def test_boosting_curves_recomputed(data):
    from optirules.learners import BoostingClassifier

    X, y = data
    clf = BoostingClassifier(weak_learner="stump", **_rounds(BoostingClassifier, 15)).fit(X, y)
    ax = plotting.plot_boosting(clf, X, y)
    weak, error, margin = ax.lines[:3]
    assert np.allclose(weak.get_ydata(), clf.weighted_errors_)
    staged = list(clf.staged_predict(X))
    assert np.allclose(error.get_ydata(), [np.mean(p != y) for p in staged])
    # the last least margin is the least of the fitted training margins
    assert margin.get_ydata()[-1] == pytest.approx(clf.training_margins_.min())
    assert (np.abs(margin.get_ydata()) <= 1 + 1e-12).all()
    only = plotting.plot_boosting(clf)
    assert len(only.lines) == 1
    with pytest.raises(InputError, match="both"):
        plotting.plot_boosting(clf, X)


def test_boosting_curves_of_scikit_learn_adaboost(data):
    from sklearn.ensemble import AdaBoostClassifier

    X, y = data
    ada = AdaBoostClassifier(n_estimators=10, random_state=0).fit(X, y)
    ax = plotting.plot_boosting(ada, X, y)
    weak, error, margin = ax.lines[:3]
    assert np.allclose(weak.get_ydata(), ada.estimator_errors_[: len(ada.estimators_)])
    assert np.allclose(error.get_ydata(), [np.mean(p != y) for p in ada.staged_predict(X)])
    assert (np.abs(margin.get_ydata()) <= 1 + 1e-12).all()


def test_every_notebook_draws_with_optirules_plotting():
    import json
    from pathlib import Path

    names = set(plotting.__all__)
    notebooks = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
    assert len(notebooks) >= 8
    for path in notebooks:
        cells = json.loads(path.read_text())["cells"]
        code = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        used = {n for n in names if f"{n}(" in code}
        assert "from optirules.plotting import" in code and used, path.name
