# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 03 · Worst-case distributions: $\chi^2$ and KL balls
#
# The DRO paper trains rule ensembles against the **worst-case weights** on the training rows:
# given losses $z_i$, eq 9 asks for the pmf $P$ within a $\phi$-divergence ball of radius
# $\rho$ around the empirical pmf $P^0 = (1/N, \dots, 1/N)$ that maximizes the expected
# loss,
#
# $$
# R = \max_P \sum_{i} P_i z_i \quad\text{s.t.}\quad \sum_i \phi(N P_i) \le N\rho,\quad
# \sum_i P_i = 1,\quad P \ge 0, \tag{9}
# $$
#
# with the modified $\chi^2$, $\phi(s) = (s-1)^2$, or Kullback–Leibler,
# $\phi(s) = s\log s - s + 1$.  The optimality conditions give the shape of the answer:
#
# * $\chi^2$: $P_i \propto (z_i - \eta)_+$ — **affine** in the loss, and exactly **zero**
#   below a threshold $\eta$;
# * KL: $P_i \propto \exp(z_i / \tau)$ — **exponential** tilting, never zero.
#
# `optirules.models` offers the declarative CVXPY model `WorstCasePmfModel` and the exact
# one-dimensional solver `worst_case_pmf(z, rho, divergence, method="exact")`.

# %%
import time

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_predict
from sklearn.pipeline import make_pipeline

from optirules.data import FeatureBinarizer, dataset_info, load_dataset
from optirules.errors import ModelFormatError
from optirules.models import WorstCasePmfModel, phi_divergence, worst_case_pmf
from optirules.solvers import read_model

TIGHT = {"tol_gap_abs": 1e-9, "tol_gap_rel": 1e-9, "tol_feas": 1e-9}  # Clarabel options

# %% [markdown]
# ## Eight losses, two balls
#
# A toy vector of losses and radius $\rho = 1$.  First the declarative models as CVXPY
# prints them: the $\chi^2$ row is written as a second-order cone
# $\lVert NP - 1\rVert_2 \le \sqrt{\rho N}$, the KL row with `rel_entr`
# (exponential cones).

# %%
z_toy = np.array([0.0, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 0.9])
rho_toy = 1.0
chi2_model = WorstCasePmfModel(z_toy, rho_toy, "chi2")
kl_model = WorstCasePmfModel(z_toy, rho_toy, "kl")
print(chi2_model.model, end="\n\n")
print(kl_model.model)

# %% [markdown]
# ## Three solvers for the same pmf
#
# The exact Lagrangian solver, Clarabel (interior point, SOCP and exponential cones) and
# SCS (first-order splitting), with Clarabel's tolerances tightened from $10^{-8}$ to
# $10^{-9}$ (solver options pass straight through `solve`).  Watch the two error columns:
# the objectives agree to about $10^{-10}$, the pmfs only to about $10^{-6}$.  Near the
# optimum the objective is flat along the boundary of the ball, so an objective error
# $\varepsilon$ leaves room for a pmf error of order $\sqrt{\varepsilon}$.

# %%
rows, toy = [], {}
for div, model in (("chi2", chi2_model), ("kl", kl_model)):
    exact = worst_case_pmf(z_toy, rho_toy, div)
    model.solve("clarabel", **TIGHT)
    clarabel = model.pmf_
    scs = WorstCasePmfModel(z_toy, rho_toy, div)
    scs.solve("scs")
    toy[div] = exact
    for name, p in (("exact", exact), ("clarabel", clarabel), ("scs", scs.pmf_)):
        rows.append({"divergence": div, "solver": name, "objective": p @ z_toy,
                     "objective gap": abs(p @ z_toy - exact @ z_toy),
                     "max |P - P_exact|": np.abs(p - exact).max(),
                     "divergence of P": phi_divergence(p, div)})
compare_toy = pd.DataFrame(rows)
print(compare_toy.to_string(index=False, float_format=lambda v: f"{v:.3e}"))
print()
print("P chi2:", toy["chi2"].round(4))
print("P kl:  ", toy["kl"].round(4))

# %% [markdown]
# The $\chi^2$ pmf gives the smallest loss **no weight at all**, the KL pmf keeps every
# row.  Both shapes are checked at the end: on its support the $\chi^2$ pmf is affine in $z$
# (and its zero crossing $\eta$ lies above the losses it drops), while $\log P$ under KL is
# affine in $z$ everywhere (slope $1/\tau$).

# %%
support = toy["chi2"] > 0
slope, intercept = np.polyfit(z_toy[support], toy["chi2"][support], 1)
eta = -intercept / slope
chi2_affine_residual = np.abs(slope * z_toy[support] + intercept - toy["chi2"][support]).max()
print(f"chi2: P_i = {slope:.4f} (z_i - eta)_+ with eta = {eta:.4f};"
      f" residual {chi2_affine_residual:.1e}; dropped losses {z_toy[~support]}")
beta, log_norm = np.polyfit(z_toy, np.log(toy["kl"]), 1)
kl_affine_residual = np.abs(beta * z_toy + log_norm - np.log(toy["kl"])).max()
print(f"kl:   log P_i = z_i / tau - const with tau = {1 / beta:.4f}; residual {kl_affine_residual:.1e}")

# %% [markdown]
# ## Exporting: only the linear part has an LP form
#
# The divergence rows are cones, which `.lp` and `.mps` files cannot express, and the export
# says so.  Dropping the divergence row ($\rho = \infty$) leaves a linear program — all mass
# on the largest loss — which exports and re-solves from the file:
#
# $$
# \max_P\ \sum_i z_i P_i \quad\text{s.t.}\quad \sum_i P_i = 1,\ P \ge 0 .
# $$

# %%
try:
    chi2_model.write("worst_case_chi2.lp")
except ModelFormatError as error:
    print("ModelFormatError:", error)

linear = WorstCasePmfModel(z_toy, np.inf)
linear.write("worst_case_rho_inf.lp")
print(open("worst_case_rho_inf.lp").read())
from_file = read_model("worst_case_rho_inf.lp")
print(f"solved from the file: {from_file.objective}  (max z = {z_toy.max()})")

# %% [markdown]
# ## Real data: the losses of a classifier on heart disease data
#
# `heart_statlog` (270 patients), a logistic regression on the binarized features, and
# out-of-fold probabilities $F(x_i)$ from 5-fold cross-validation.  The loss is the DRO paper's
# margin loss (its eq 2): $z_i = |F(x_i) - \tfrac12| \cdot \mathbb 1(\hat y_i \ne y_i)$,
# zero on every correctly classified row.

# %%
X, y = load_dataset("heart_statlog")
codes = list(dataset_info("heart_statlog").coded_categorical)
classifier = make_pipeline(FeatureBinarizer(n_thresholds=4, categorical_features=codes),
                           LogisticRegression(C=0.1, max_iter=2000))
F = cross_val_predict(classifier, X, y, cv=5, method="predict_proba")[:, 1]
wrong = (F > 0.5).astype(int) != y
z = np.abs(F - 0.5) * wrong
N = z.size
print(f"N = {N}, cross-validated error {wrong.mean():.3f}, mean loss {z.mean():.4f},"
      f" largest loss {z.max():.3f}")

# %% [markdown]
# ### Exact vs CVXPY on the real losses
#
# Two radii, both divergences.  With 270 rows every $P_i$ is small, and Clarabel (at
# $10^{-9}$) matches the exact pmf entry by entry to $10^{-6}$, the objective far better;
# the exact solver takes well under a millisecond.

# %%
rows = []
for div in ("chi2", "kl"):
    for rho in (0.1, 1.0):
        t0 = time.perf_counter()
        exact = worst_case_pmf(z, rho, div)
        t_exact = time.perf_counter() - t0
        for solver, options in (("clarabel", TIGHT), ("scs", {})):
            model = WorstCasePmfModel(z, rho, div)
            result = model.solve(solver, **options)
            rows.append({"divergence": div, "rho": rho, "solver": solver,
                         "status": result.status.value,
                         "objective gap": abs(model.objective_ - exact @ z),
                         "max |dP|": np.abs(model.pmf_ - exact).max(),
                         "time [s]": result.wall_time, "exact time [s]": t_exact,
                         "divergence of exact P": phi_divergence(exact, div)})
compare = pd.DataFrame(rows)
print(compare.to_string(index=False, float_format=lambda v: f"{v:.2e}"))

# %% [markdown]
# ### Where the balls put the mass
#
# The modified $\chi^2$ here is the usual $\chi^2(P \| P^0)$, and
# $\mathrm{KL}(P\|P^0) \le \log(1 + \chi^2(P\|P^0))$: the $\chi^2$ ball of radius $\rho$ lies
# inside the KL ball of radius $\log(1+\rho) \le \rho$.  So at equal radius KL is the more
# pessimistic, and it tilts *exponentially* towards the largest losses, while $\chi^2$ shifts
# weight *linearly*.  With these losses ($z_i = 0$ on the correct rows) the $\chi^2$
# threshold $\eta$ reaches 0 exactly at
#
# $$
# \rho^\ast = \frac{N \sum_i z_i^2}{\big(\sum_i z_i\big)^2} - 1,
# $$
#
# the divergence of $P_i \propto z_i$; from there on the correctly classified rows get no
# weight at all.  KL never drops a row while $\rho < \log(N/k)$, $k$ the number of rows
# sharing the largest loss (here $k = 1$); beyond that all mass sits on those rows.

# %%
radii = [0.1, 0.5, 2.0, 5.0]
pmfs = {(div, rho): worst_case_pmf(z, rho, div) for div in ("chi2", "kl") for rho in radii}
rho_star = N * np.sum(z**2) / np.sum(z) ** 2 - 1
below = worst_case_pmf(z, 0.99 * rho_star, "chi2")
above = worst_case_pmf(z, 1.01 * rho_star, "chi2")
print(f"rho* = {rho_star:.4f} (log N = {np.log(N):.4f})")
print(f"chi2 weight on the correct rows: {below[~wrong].sum():.2e} at 0.99 rho*,"
      f" {above[~wrong].sum():.2e} at 1.01 rho*")
summary = pd.DataFrame(
    [{"rho": rho, "R chi2": pmfs["chi2", rho] @ z, "R kl": pmfs["kl", rho] @ z,
      "R kl(log(1+rho))": worst_case_pmf(z, np.log1p(rho), "kl") @ z,
      "KL of chi2 pmf": phi_divergence(pmfs["chi2", rho], "kl"), "log(1+rho)": np.log1p(rho),
      "chi2: mass on correct rows": pmfs["chi2", rho][~wrong].sum(),
      "kl: mass on correct rows": pmfs["kl", rho][~wrong].sum()} for rho in radii])
print(summary.to_string(index=False, float_format=lambda v: f"{v:.4f}"))

# %% [markdown]
# ## Picture: $P$ against $z$ for both divergences and several radii
#
# The vertical axis is $N P_i$, the weight relative to the empirical $1/N$.  Left: $\chi^2$
# weights are straight lines in $z$ (flat zero below $\eta$ once $\rho > \rho^\ast$, drawn
# dotted); middle, on a log scale: KL weights are exponentials in $z$, i.e. straight lines
# of slope $1/\tau$ that steepen as $\rho$ grows; right: the worst-case risk $R(\rho)$, the
# dotted line at $\rho^\ast$.

# %%
order = np.argsort(z)
fig, axes = plt.subplots(1, 3, figsize=(15, 4))
for ax, div, title in ((axes[0], "chi2", r"modified $\chi^2$"), (axes[1], "kl", "KL")):
    for rho in radii:
        ax.plot(z[order], N * pmfs[div, rho][order], ".-", ms=3, label=f"rho = {rho}")
    ax.set(xlabel="loss z_i", ylabel="N P_i", title=f"{title}: worst-case weights")
    ax.legend(fontsize=8)
axes[0].plot(z[order], N * above[order], ":", color="black", label="rho = 1.01 rho*")
axes[0].legend(fontsize=8)
axes[1].set(yscale="log", ylim=(1e-3, None))  # exponentials become straight lines
grid = np.geomspace(1e-3, 20, 40)
for div in ("chi2", "kl"):
    axes[2].plot(grid, [worst_case_pmf(z, rho, div) @ z for rho in grid], label=div)
axes[2].axhline(z.mean(), color="grey", ls=":", label="empirical mean loss")
axes[2].axvline(rho_star, color="black", ls=":", lw=0.8)
axes[2].set(xscale="log", xlabel="rho", ylabel="worst-case risk R", title="R(rho)")
axes[2].legend(fontsize=8)
fig.tight_layout()
plt.show()

# %% [markdown]
# The same pmf row by row with `optirules.plotting.plot_worst_case_pmf`: the rows in order
# of increasing loss, $N Q_i$ of the largest $\chi^2$ radius against the uniform
# $N P_i = 1$.

# %%
from optirules.plotting import plot_worst_case_pmf

fig, ax = plt.subplots(figsize=(7, 3.8))
plot_worst_case_pmf(pmfs["chi2", radii[-1]], losses=z, ax=ax)
ax.set_title(f"modified chi2, rho = {radii[-1]}")
plt.show()

# %% [markdown]
# ## What this notebook teaches, checked

# %%
# three solvers, one pmf: exact == Clarabel to 1e-6, SCS close
clarabel = compare[compare["solver"] == "clarabel"]
assert (clarabel["status"] == "optimal").all()
assert (clarabel["max |dP|"] <= 1e-6).all() and (clarabel["objective gap"] <= 1e-6).all()
assert (compare[compare["solver"] == "scs"]["objective gap"] <= 1e-3).all()
toy_cl = compare_toy[compare_toy["solver"] == "clarabel"]
assert (toy_cl["objective gap"] <= 1e-8).all() and (toy_cl["max |P - P_exact|"] <= 1e-5).all()
# every worst-case pmf is a pmf inside its ball
for (div, rho), p in pmfs.items():
    assert p.min() >= 0 and abs(p.sum() - 1) < 1e-12
    assert phi_divergence(p, div) <= rho * (1 + 1e-9)
    assert p @ z >= z.mean() - 1e-12
assert (compare["divergence of exact P"] <= compare["rho"] * (1 + 1e-9)).all()
# the shapes from the KKT conditions: chi2 affine with zeros below eta, KL log-affine
assert chi2_affine_residual < 1e-9 and (~support).any() and (z_toy[~support] <= eta).all()
assert kl_affine_residual < 1e-9 and toy["kl"].min() > 0
# KL vs chi2 put mass differently
assert below[~wrong].min() > 0 and above[~wrong].max() == 0.0  # chi2 drops rows past rho*
for rho in (0.1, 0.5, 2.0):                                     # KL keeps every row
    assert pmfs["kl", rho].min() > 0
for rho in radii:  # chi2 ball of radius rho lies inside the KL ball of radius log(1+rho)
    assert phi_divergence(pmfs["chi2", rho], "kl") <= np.log1p(rho) + 1e-12
    assert pmfs["chi2", rho] @ z <= worst_case_pmf(z, np.log1p(rho), "kl") @ z + 1e-9
    assert pmfs["kl", rho] @ z >= pmfs["chi2", rho] @ z
# the limits: rho = 0 is the empirical pmf, a huge rho puts all mass on the largest loss
assert np.allclose(worst_case_pmf(z, 0.0, "kl"), 1 / N)
k_max = np.sum(z == z.max())
assert worst_case_pmf(z, 1e6, "chi2")[np.argmax(z)] == 1.0 / k_max
print("all checks passed")
