"""The plot of a grid run's per-fold table (:func:`~optirules.experiments.run_grid`)."""

from __future__ import annotations

from typing import Any


# ----------------------------------------------------------------------------- grids
def plot_grid(frame: Any, metric: str = "accuracy", ax: Any = None) -> Any:
    """Bar chart of mean ``metric`` (error bars: sd) per dataset and configuration.

    Parameters
    ----------
    frame : pandas.DataFrame
        The per-fold table of a grid (``GridResult.frame`` of
        :func:`~optirules.experiments.run_grid`): columns ``dataset``, ``learner``,
        ``params``, ``solver`` and ``metric``.
    metric : str, default="accuracy"
        The column drawn.
    ax : matplotlib Axes, optional
        Draw into these axes; by default a new figure is made (with the Agg backend when
        no backend is chosen yet).

    Returns
    -------
    matplotlib.axes.Axes
        One group of bars per dataset, one bar per configuration (``learner params``): the
        means of :func:`~optirules.experiments.summarize` (over the solvers of the
        configuration, if several), with their sd as error bars.
    """
    import matplotlib

    if ax is None:
        matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(8, 4))
    # the mean and sd of experiments.summarize (the cells' folds), one row per cell
    cells = frame.groupby(["dataset", "learner", "params", "solver"], sort=False)[metric]
    s = cells.agg(["mean", "std"]).rename(columns={"std": "sd"}).reset_index()
    s["sd"] = s["sd"].fillna(0.0)
    s["config"] = s["learner"] + " " + s["params"]
    mean = s.pivot_table(index="dataset", columns="config", values="mean")
    sd = s.pivot_table(index="dataset", columns="config", values="sd")
    mean.plot.bar(yerr=sd, ax=ax, rot=0)
    ax.set_ylabel(metric)
    ax.legend(fontsize="small")
    return ax
