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
from tests.helpers import and_or_data  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def data():
    return and_or_data(120, 6, seed=0, noise=0.1)


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
    with pytest.raises(InputError, match="JSON keeps no pmf_history_") as err:
        plotting.plot_worst_case_pmf(loaded)
    assert "not fitted" not in str(err.value)
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
    assert all(any(lab.startswith(f"member {k + 1}: ") for k in used) for lab in labels)


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


# ============================================================ CV learners and one-vs-rest models
@pytest.fixture(scope="module")
def iris():
    from sklearn.datasets import load_iris

    d = load_iris()
    return d.data[::2], d.target_names[d.target[::2]]         # 75 rows, 3 named classes


@pytest.fixture(scope="module")
def ovr_rule_set(iris):
    from optirules.learners import BooleanRuleSetClassifier

    return BooleanRuleSetClassifier(binarizer="auto", max_degree=1, max_iter=5,
                                    random_state=0).fit(*iris)


@pytest.fixture(scope="module")
def ovr_dro(iris):
    from optirules.learners import BooleanRuleSetClassifier, DRORuleEnsembleClassifier

    return DRORuleEnsembleClassifier(complexity=8, n_estimators=3, random_state=0,
                                     member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, binarizer="auto", max_iter=5, max_degree=1)).fit(*iris)


@pytest.fixture(scope="module")
def ovr_boosting(iris):
    from optirules.learners import BoostingClassifier

    return BoostingClassifier(binarizer="auto", **_rounds(BoostingClassifier, 5)).fit(*iris)


@pytest.fixture(scope="module")
def rule_set_cv(data):
    from optirules.learners import BooleanRuleSetClassifier, BooleanRuleSetCV

    est = BooleanRuleSetClassifier(max_degree=2, max_iter=5, random_state=0)
    return BooleanRuleSetCV(est, penalties=[0.01, 0.05], cv=2).fit(*data)


@pytest.fixture(scope="module")
def decision_list_cv(data):
    from optirules.learners import DecisionListCV

    return DecisionListCV(max_degrees=(1,), min_coverages=(2, 10), cv=2).fit(*data)


def _panels(axes, model):
    """The one-vs-rest panels: one Axes per class, titled with its class, in one figure."""
    assert isinstance(axes, np.ndarray) and axes.shape == (len(model.classes_),)
    assert len({a.figure for a in axes}) == 1
    for a, c in zip(axes, model.classes_):
        assert f"class {c} vs rest" in a.get_title()
    return list(zip(axes, model.estimators_, model.classes_))


def test_column_generation_of_a_cv_learner_draws_the_chosen_rule_set(rule_set_cv):
    ax = plotting.plot_column_generation(rule_set_cv)
    best = rule_set_cv.best_estimator_
    assert np.allclose(ax.lines[0].get_ydata(), [h["lp_objective"] for h in best.history_])
    assert np.allclose(ax.lines[2].get_ydata(), best.ip_objective_)
    assert "best_estimator_ of BooleanRuleSetCV" in ax.get_title()


def test_column_generation_one_panel_per_class(ovr_rule_set):
    axes = plotting.plot_column_generation(ovr_rule_set)
    for ax, est, _ in _panels(axes, ovr_rule_set):
        assert np.allclose(ax.lines[0].get_ydata(), [h["lp_objective"] for h in est.history_])
        assert np.allclose(ax.lines[1].get_ydata(), [h["lp_bound"] for h in est.history_])


def test_one_vs_rest_takes_axes_not_ax(ovr_rule_set, rule_set):
    fig, ax = plt.subplots()
    with pytest.raises(InputError, match=r"pass axes= \(a sequence of 3 matplotlib Axes"):
        plotting.plot_column_generation(ovr_rule_set, ax=ax)
    fig, grid = plt.subplots(1, 3)
    got = plotting.plot_column_generation(ovr_rule_set, axes=grid)
    assert list(got) == list(grid)
    with pytest.raises(InputError, match="one Axes per class"):
        plotting.plot_column_generation(ovr_rule_set, axes=grid[:2])
    with pytest.raises(InputError, match="one model"):
        plotting.plot_column_generation(rule_set, axes=grid)
    assert plotting.plot_column_generation(rule_set, axes=[ax]) is ax
    with pytest.raises(InputError, match="not both"):
        plotting.plot_column_generation(rule_set, ax=ax, axes=[ax])


def test_worst_case_pmf_one_panel_per_class(ovr_dro):
    axes = plotting.plot_worst_case_pmf(ovr_dro)
    for ax, est, _ in _panels(axes, ovr_dro):
        q, p = est.pmf_history_[-1], est.pmf_history_[0]
        order = np.argsort(q, kind="stable")
        assert np.allclose(ax.lines[0].get_ydata(), q.size * q[order])
        assert np.allclose(ax.lines[1].get_ydata(), q.size * p[order])
    with pytest.raises(InputError, match="its own losses"):
        plotting.plot_worst_case_pmf(ovr_dro, losses=np.zeros(75))


def test_dro_ensemble_one_panel_per_class(ovr_dro):
    axes = plotting.plot_dro_ensemble(ovr_dro)
    for ax, est, _ in _panels(axes, ovr_dro):
        assert np.allclose([p.get_height() for p in ax.patches], est.weights_)
        assert np.allclose(ax.right_axis.lines[0].get_ydata(), est.robust_loss_history_)


def test_rule_coverage_one_panel_per_class_against_the_rest(ovr_rule_set, iris):
    X, y = iris
    axes = plotting.plot_rule_coverage(ovr_rule_set, X, y)
    for ax, est, c in _panels(axes, ovr_rule_set):
        image = np.asarray(ax.images[0].get_array())
        assert image.shape == (len(est.rules_), len(y))
        order = ax.coverage_order
        assert (y[order][: int((y == c).sum())] == c).all()       # the class's rows first
        for k, rule in enumerate(est.rules_):
            covered = rule.evaluate(X)
            expected = np.where(covered, np.where(y == c, 1, -1), 0)[order]
            assert np.array_equal(image[k], expected)
        assert f"{c}: {int((y == c).sum())}, rest: {int((y != c).sum())}" in ax.get_xlabel()


def test_rule_coverage_of_cv_learners_draws_the_chosen_estimator(rule_set_cv,
                                                                   decision_list_cv, data):
    X, y = data
    ax = plotting.plot_rule_coverage(rule_set_cv, X, y)
    best = rule_set_cv.best_estimator_
    assert np.asarray(ax.images[0].get_array()).shape == (len(best.rules_), len(y))
    assert "best_estimator_ of BooleanRuleSetCV" in ax.get_title()
    ax = plotting.plot_rule_coverage(decision_list_cv, X, y)
    best = decision_list_cv.best_estimator_
    image = np.asarray(ax.images[0].get_array())
    fired = best.explain(X)["rule"].to_numpy()
    for k, rule in enumerate(best.rules_):
        own = np.where(y == rule.prediction, 1, -1)
        assert np.array_equal(image[k], np.where(fired == k, own, 0)[ax.coverage_order])
    assert "best_estimator_ of DecisionListCV" in ax.get_title()
    assert "min_coverage=" in ax.get_title()


def test_boosting_one_panel_per_class(ovr_boosting, iris):
    X, y = iris
    axes = plotting.plot_boosting(ovr_boosting, X, y)
    for ax, est, c in _panels(axes, ovr_boosting):
        weak, error = ax.lines[:2]
        assert np.allclose(weak.get_ydata(), est.weighted_errors_)
        yk = (y == c).astype(int)
        assert np.allclose(error.get_ydata(), [np.mean(p != yk) for p in est.staged_predict(X)])
    assert all(len(a.lines) == 1 for a in plotting.plot_boosting(ovr_boosting))


@pytest.mark.parametrize("func, model, learner", [
    ("plot_boosting", "ovr_rule_set", "BoostingClassifier"),
    ("plot_boosting", "rule_set_cv", "BoostingClassifier"),
    ("plot_worst_case_pmf", "rule_set", "DRORuleEnsembleClassifier"),
    ("plot_column_generation", "decision_list_cv", "BooleanRuleSetClassifier"),
    ("plot_dro_ensemble", "ovr_boosting", "DRORuleEnsembleClassifier"),
    ("plot_rule_coverage", "ovr_boosting", "DecisionListClassifier"),
])
def test_a_fitted_model_without_the_plot_s_data_is_told_what_is_needed(
        request, iris, func, model, learner):
    fitted = request.getfixturevalue(model)
    args = iris if func == "plot_rule_coverage" else ()
    with pytest.raises(InputError, match=f"{func} needs") as err:
        getattr(plotting, func)(fitted, *args)
    assert learner in str(err.value) and type(fitted).__name__ in str(err.value)
    assert "not fitted" not in str(err.value) and "fit it" not in str(err.value)


def test_an_unfitted_model_is_told_to_fit_and_what_the_plot_needs(iris):
    from optirules.learners import BooleanRuleSetCV, BoostingClassifier, DecisionListCV

    for func, model, learner in [("plot_column_generation", BooleanRuleSetCV(),
                                  "BooleanRuleSetClassifier"),
                                 ("plot_boosting", BoostingClassifier(), "BoostingClassifier"),
                                 ("plot_rule_coverage", DecisionListCV(), "DecisionListCV")]:
        args = iris if func == "plot_rule_coverage" else ()
        with pytest.raises(InputError, match="is not fitted: fit it first") as err:
            getattr(plotting, func)(model, *args)
        assert learner in str(err.value)


def test_every_notebook_draws_with_optirules_plotting():
    from pathlib import Path

    jupytext = pytest.importorskip("jupytext")
    names = set(plotting.__all__)
    notebooks = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("[0-9]*.py"))
    assert len(notebooks) >= 8
    for path in notebooks:
        cells = jupytext.read(path, fmt="py:percent").cells
        code = "".join(c.source for c in cells if c.cell_type == "code")
        used = {n for n in names if f"{n}(" in code}
        assert "from optirules.plotting import" in code and used, path.name


# ------------------------------------------------ margins (the QMM paper's CMD) and grids
def test_cmd_counts_margins_at_or_below_theta():
    m = np.array([0.2, -0.4, 0.2, 1.0, 0.6])
    theta, frac = plotting._cumulative_margin_distribution(m)
    np.testing.assert_allclose(theta, [-0.4, 0.2, 0.6, 1.0])
    np.testing.assert_allclose(frac, [0.2, 0.6, 0.8, 1.0])
    for t, f in zip(theta, frac):
        assert f == np.mean(m <= t)
    with pytest.raises(InputError):
        plotting._cumulative_margin_distribution([np.nan, 0.1])


def test_cmd_plot_writes_a_png(tmp_path):
    rng = np.random.default_rng(0)
    path = tmp_path / "cmd.png"
    fig = plotting.plot_margin_distribution({"AdaBoost": rng.uniform(-1, 1, 50),
                                             "QMM": rng.uniform(-0.5, 1, 50)},
                                            path=path, title="t")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    ax = fig.axes[0]
    assert [line.get_label() for line in ax.get_lines()][:2] == ["AdaBoost", "QMM"]
    # the step curve ends at fraction 1 and starts at 0
    ys = ax.get_lines()[0].get_ydata()
    assert ys[0] == 0.0 and ys[-1] == 1.0


def test_the_margin_plot_is_written_atomically(tmp_path):
    """The figure goes to the path given (format from its suffix, PNG without one); a
    folder that does not exist raises OutputError and leaves nothing behind."""
    from optirules.errors import OutputError

    margins = {"x": np.linspace(-1, 1, 20)}
    plotting.plot_margin_distribution(margins, path=tmp_path / "a.svg")
    plotting.plot_margin_distribution(margins, path=tmp_path / "b")
    assert (tmp_path / "a.svg").read_bytes().startswith(b"<?xml")
    assert (tmp_path / "b").read_bytes().startswith(b"\x89PNG")
    with pytest.raises(OutputError, match="does not exist"):
        plotting.plot_margin_distribution(margins, path=tmp_path / "missing" / "c.png")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.svg", "b"]


def test_grid_plot_draws_the_summary_means():
    """One bar per (configuration, dataset), its height the mean of summarize; the plot
    takes the grid's per-fold frame."""
    from optirules.experiments import summarize

    frame = pd.DataFrame({
        "dataset": ["a", "a", "a", "b", "b", "b", "a", "b"],
        "learner": ["cart"] * 6 + ["rules", "rules"],
        "params": ["d=1", "d=1", "d=2", "d=1", "d=1", "d=2", "", ""],
        "solver": [""] * 6 + ["highs", "highs"],
        "accuracy": [0.5, 0.7, 0.9, 0.6, 0.8, 0.75, 0.85, 0.95],
        "complexity": [1.0] * 8,
        "fit_time": [0.0] * 8,
    })
    _, ax = plt.subplots()
    assert plotting.plot_grid(frame, ax=ax) is ax
    s = summarize(frame)
    s["config"] = s["learner"] + " " + s["params"]
    configs = sorted(s["config"].unique())
    heights = [p.get_height() for p in ax.patches]
    expected = [s.loc[(s["config"] == c) & (s["dataset"] == d), "mean"].item()
                for c in configs for d in ("a", "b")]
    np.testing.assert_allclose(heights, expected)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == configs
    assert ax.get_ylabel() == "accuracy"
    assert plotting.plot_grid(frame, metric="fit_time").get_ylabel() == "fit_time"


def test_plots_live_only_in_optirules_plotting():
    import optirules.experiments as experiments
    import optirules.learners as learners

    for name in ("plot_margin_distribution", "plot_grid"):
        assert name in plotting.__all__
        assert name not in learners.__all__ and name not in experiments.__all__
        assert not hasattr(learners, name) and not hasattr(experiments, name)


# ------------------------------------------------------------------ rule coverage as a file
LONG = ("account_status_is_overdrawn", "duration_in_months_over_two_years",
        "purpose_is_a_new_car_or_furniture", "other_installment_plans_at_a_bank")


@pytest.fixture(scope="module")
def wide_rule_set():
    """2,000 rows, a three-literal rule of long names that covers the 500 positives and
    every 20th of the 1,500 negatives (75 rows it cannot tell apart): more rows than the
    plot has pixels."""
    from optirules.learners import BooleanRuleSetClassifier

    rng = np.random.default_rng(0)
    n_pos, n_neg = 500, 1500
    neg = rng.integers(0, 2, size=(n_neg, 4))
    neg[neg[:, :3].all(axis=1), 0] = 0           # no negative holds the rule ...
    neg[::20, :3] = 1                              # ... but every 20th
    pos = np.column_stack([np.ones((n_pos, 3), int), rng.integers(0, 2, n_pos)])
    # the plot sorts the rows by label, keeping their order: the covered negatives stay
    # 20 rows apart
    X = pd.DataFrame(np.vstack([neg[:700], pos, neg[700:]]), columns=list(LONG))
    y = np.r_[np.zeros(700, int), np.ones(n_pos, int), np.zeros(n_neg - 700, int)]
    clf = BooleanRuleSetClassifier(max_degree=3, random_state=0).fit(X, y)
    assert [str(r) for r in clf.rules_] == [" AND ".join(f"{c} == 1" for c in LONG[:3])]
    return clf, X, y


def _png(fig, **kw):
    import io

    import matplotlib.image as mpimg

    buf = io.BytesIO()
    fig.savefig(buf, format="png", **kw)
    buf.seek(0)
    return mpimg.imread(buf)


def test_rule_coverage_saved_as_the_docs_show_keeps_every_text_inside(wide_rule_set):
    """``ax.figure.savefig(path)`` (the docs' call): the rule labels, the x label and the
    title lie inside the figure; a label holds the whole rule, broken only between
    literals."""
    clf, X, y = wide_rule_set
    ax = plotting.plot_rule_coverage(clf, X, y)
    fig = ax.figure
    pixels = _png(fig)
    renderer = fig.canvas.get_renderer()
    height, width = pixels.shape[:2]
    texts = [*ax.get_yticklabels(), ax.xaxis.label, ax.title]
    for t in texts:
        box = t.get_window_extent(renderer)
        assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= width and box.y1 <= height, \
            (t.get_text(), box.bounds, (width, height))
    label = ax.get_yticklabels()[0].get_text()
    assert " ".join(label.split()) == " ".join(f"{clf.rules_.rules[0]} (+500 / -75)".split())
    for line in label.splitlines():
        assert not line.strip().endswith(("==", "AND")) and "..." not in line
    # saved tight, the figure is cut to its texts: whole labels, whole literals
    tight = _png(fig, bbox_inches="tight")
    assert abs(tight.shape[1] - width) <= 0.25 * fig.dpi  # nothing was outside to add


def _runs(row: np.ndarray) -> int:
    """Maximal runs of True in a 1-D boolean array."""
    row = np.r_[False, row, False].astype(int)
    return int((np.diff(row) == 1).sum())


@pytest.mark.parametrize("dpi", [None, 50, 200])
def test_rule_coverage_draws_every_covered_row_when_rows_outnumber_pixels(wide_rule_set,
                                                                           dpi):
    """2,000 rows on a few hundred pixels: the 75 covered negatives, 20 rows apart, show
    as 75 red lines (nearest-neighbour sampling of one pixel per 3 to 4 rows drew about a
    quarter of them), the covered positives as one blue band, at any resolution."""
    clf, X, y = wide_rule_set
    ax = plotting.plot_rule_coverage(clf, X, y)
    fig = ax.figure
    kw = {} if dpi is None else {"dpi": dpi}
    pixels = _png(fig, **kw)
    scale = (dpi or fig.dpi) / fig.dpi
    height = pixels.shape[0]
    x0, x1 = ax.bbox.x0 * scale, ax.bbox.x1 * scale
    assert (x1 - x0) < len(y)  # fewer pixels than rows
    y_mid = ax.transData.transform((0, 0))[1] * scale
    row = pixels[int(round(height - y_mid)), int(np.ceil(x0)) + 1:int(np.floor(x1)) - 1, :3]
    red = (row[:, 0] - row[:, 2]) > 0.3
    blue = (row[:, 2] - row[:, 0]) > 0.3
    image = np.asarray(ax.images[0].get_array())
    n_neg = int((image[0] == -1).sum())
    if dpi == 50:  # 100-odd pixels for 1,500 negatives: lines 20 rows apart may touch
        assert 0 < _runs(red) <= n_neg and red.sum() >= n_neg * (x1 - x0) / len(y)
    else:
        assert _runs(red) == n_neg == 75
    assert _runs(blue) == 1
