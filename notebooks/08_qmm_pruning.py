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
# # 08 · Pruning an ensemble with QMM: margin distributions before and after
#
# The QMM paper (*Ensemble Pruning via Margin Maximization*) re-weights a voting ensemble
# $f(x) = \operatorname{sign}\sum_t \alpha_t h_t(x)$ of $T$ members by a quadratic program it
# calls **QMM** (its eq. 19).  With the member predictions $H \in \{-1,+1\}^{n\times T}$ on
# the training rows, $E = H \bullet y$ (row $i$ multiplied by $y_i$), the margins
# $m = E\alpha$ (weights on the simplex, so $m_i \in [-1, 1]$), and $\Lambda_\upsilon$,
# $\varphi_\upsilon$ the rows of $E$ and the margins of the $\lceil n\upsilon\rceil$ rows of
# *smallest* margin:
#
# $$
# \min_{w}\ w^\top \hat\Sigma\, w \quad\text{s.t.}\quad
# \Lambda_\upsilon w \ge \varphi_\upsilon,\quad \mathbf 1^\top w = 1,\quad w \ge 0,
# \qquad \hat\Sigma = \operatorname{cov}(E).
# $$
#
# The objective is the sample variance of the new margins $Ew$; the constraints keep every
# one of the lower-$\upsilon$ margins at least where it was.  Members whose weight the QP
# drives to zero are **pruned**.  Before the QP, identical members are merged and a QR
# decomposition with column pivoting keeps a basis of linearly independent members (the
# seed's remedy for a rank-deficient $H$).  If the QP fails, the original vote is kept and
# the result says so.
#
# `QMMPruner` (in `optirules.learners`) wraps any fitted voting ensemble;
# `optirules.models.QMMModel` is the QP itself, a CVXPY problem we print, export as a QP
# in MPS form, and solve with three solvers.

# %%
import time
import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.ensemble import AdaBoostClassifier
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from optirules.data import load_dataset
from optirules.learners import DREPPruner, KappaPruner, QMMPruner
from optirules.models import QMMModel
from optirules.solvers import read_model

# %% [markdown]
# ## Data and ensemble
#
# Breast cancer (`wdbc`, 569 rows, 30 numeric features), a stratified 2/3–1/3 split, and
# AdaBoost with 100 depth-2 trees (the paper's "4-node trees"; scikit-learn's
# `AdaBoostClassifier`).  Pruning uses the training rows, as in the paper, with its
# $\upsilon = 0.5$ for AdaBoost.

# %%
X, y = load_dataset("wdbc")
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=1 / 3, random_state=0,
                                                    stratify=y)
ensemble = AdaBoostClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=100,
                              random_state=0).fit(X_train, y_train)
T = len(ensemble.estimators_)
print(f"{len(X_train)} training / {len(X_test)} test rows; AdaBoost with {T} trees,"
      f" test accuracy {ensemble.score(X_test, y_test):.3f}")

qmm = QMMPruner(ensemble, upsilon=0.5).fit(X_train, y_train)
model = qmm.model_
print(f"QMM keeps {qmm.n_kept_} of {T} trees (pruning rate {qmm.pruning_rate_:.0%});"
      f" status {qmm.status_.value}, fallback used: {qmm.fallback_used_}")
print(f"rank of H {qmm.rank_}; weight merged from identical trees {qmm.merged_weight_:.3f},"
      f" moved off dependent ones {qmm.moved_weight_:.3f}")
print(f"variance of the margins: {model.baseline_objective_:.5f} before,"
      f" {model.objective_:.5f} after; test accuracy {qmm.score(X_test, y_test):.3f}")

# %% [markdown]
# ## The declarative model
#
# `model_.model` is the `cvxpy.Problem`: one variable per basis member, the quadratic form
# with the covariance matrix (wrapped as PSD), the $\lceil n\upsilon\rceil$ margin rows and
# the simplex.  We print it, and check its data against the definitions: $\hat\Sigma$ is
# `numpy.cov` of the basis columns of $E$, and $\varphi$ are the smallest margins of the
# original vote.

# %%
problem = model.model
print(problem)
print()
w_var, = problem.variables()
print(f"variable {w_var.name()} of shape {w_var.shape}, nonneg = {w_var.is_nonneg()};"
      f" constraints: {[str(c.shape) for c in problem.constraints]}")

H = qmm.member_matrix(X_train)                      # n x T, +1 = classes_[1]
y_pm = np.where(y_train == qmm.classes_[1], 1, -1)
E = H * y_pm[:, None]
sigma_gap = np.abs(np.cov(E[:, model.basis_], rowvar=False) - model.covariance_).max()
before = E @ qmm.member_weights_                    # margins of the original vote
k = int(np.ceil(0.5 * len(y_pm)))
phi_gap = np.abs(np.sort(before)[:k] - np.sort(model.phi_)).max()
print(f"Sigma = cov(E'): largest difference {sigma_gap:.1e};"
      f" phi = the {k} smallest margins: largest difference {phi_gap:.1e}")

# %% [markdown]
# ## Export: the QP as an MPS file
#
# The QP exports like an LP, with its quadratic objective in the `QUADOBJ` section
# (variables are `w(0)`, `w(1)`, … in basis order, the margin rows `c0(i)`).  HiGHS reads
# the file back and solves it to the same optimum.

# %%
model.write("qmm.mps")
lines = open("qmm.mps").read().splitlines()
sections = {s: i for i, s in enumerate(lines) if not s.startswith(" ")}
print("sections:", list(sections))
for name in ("ROWS", "QUADOBJ"):
    print("\n".join(lines[sections[name]:sections[name] + 4]), "\n   ...")
from_file = read_model("qmm.mps")
print(f"HiGHS on qmm.mps: {from_file.status.value}, objective {from_file.objective:.9f};"
      f" the model's optimum {model.result_.objective:.9f}")

# %% [markdown]
# ## Swapping solvers
#
# The same `QMMModel` (built from $H$, $y$ and the original weights) solved by Clarabel
# (interior point), OSQP (ADMM) and HiGHS (active set).  All three reach the same optimum
# and prune the same members.  The default solver is SCS (measured fastest on this QP,
# `benchmarks/results/qmm.md`); HiGHS is refused above 100 members.
#
# HiGHS's QP solver is not equally at home on every instance of this dense QP: with
# $\upsilon = 0.25$ on this ensemble it stops with a solver error, and with $\upsilon = 1$
# it runs into any time limit (we saw both while writing this notebook).  The pruner then
# does what the QMM paper prescribes — keep the original vote — and says so: a
# `QMMFallbackWarning`, `fallback_used_` and the reason.  We give HiGHS a time limit and
# look at the $\upsilon = 0.25$ case.

# %%
rows, weights = [], {}
for solver in ("clarabel", "osqp", "highs"):
    m = QMMModel(H, y_pm, qmm.member_weights_, upsilon=0.5)
    t0 = time.perf_counter()
    result = m.solve(solver, time_limit=60)
    weights[solver] = m.weights_
    rows.append({"solver": solver, "status": result.status.value,
                 "objective": m.objective_, "kept": m.kept_.size,
                 "max |w - w_clarabel|": np.abs(m.weights_ - weights["clarabel"]).max(),
                 "violation": m.constraint_violation_,
                 "seconds": time.perf_counter() - t0})
solvers = pd.DataFrame(rows)
print(solvers.to_string(index=False, float_format=lambda v: f"{v:.3g}"))

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    hard = QMMPruner(ensemble, upsilon=0.25, solver="highs",
                     time_limit=20).fit(X_train, y_train)
fallback_warned = any(issubclass(c.category, UserWarning) and "falling back" in str(c.message)
                      for c in caught)
print(f"\nupsilon = 0.25 with HiGHS: status {hard.status_.value}, fallback used:"
      f" {hard.fallback_used_}, kept {hard.n_kept_} of {T}")
if hard.fallback_used_:
    print("reason:", hard.fallback_reason_[:160], "...")

# %% [markdown]
# ## Picture: cumulative margin distributions before and after
#
# The fraction of rows whose margin is at most $\theta$, for the original vote ($\alpha$)
# and the pruned one ($w$), on the training rows (where the constraints act) and on the test
# rows.  The shaded band is the lower half the QP protects: those margins may only move
# right.  Above it the QP pulls the large margins in — a smaller variance with the lower
# tail kept.

# %%
after = E @ qmm.weights_
H_test = qmm.member_matrix(X_test)
y_test_pm = np.where(y_test == qmm.classes_[1], 1, -1)
test_before = (H_test @ qmm.member_weights_) * y_test_pm
test_after = (H_test @ qmm.weights_) * y_test_pm


def cmd(ax, margins, label, **style):
    values = np.sort(margins)
    ax.step(values, np.arange(1, values.size + 1) / values.size, where="post", label=label,
            **style)


fig, axes = plt.subplots(1, 2, figsize=(13, 4.2), sharey=True)
for ax, (b, a, title) in zip(axes, ((before, after, "training rows"),
                                    (test_before, test_after, "test rows"))):
    cmd(ax, b, f"AdaBoost, {T} trees", color="tab:grey")
    cmd(ax, a, f"QMM, {qmm.n_kept_} trees", color="tab:blue")
    ax.set(xlabel="margin  y f(x) / sum of weights",
           title=f"cumulative margin distribution, {title}")
    ax.axvline(0, color="black", lw=0.6)
axes[0].axhspan(0, 0.5, color="tab:orange", alpha=0.12, label="protected lower half")
axes[0].set_ylabel("fraction of rows with margin <= theta")
for ax in axes:
    ax.legend(loc="upper left", fontsize=8)
fig.tight_layout()
plt.show()

# %% [markdown]
# The ensemble before pruning, round by round (`optirules.plotting.plot_boosting`): each
# tree's weighted error, and on the training rows the vote's error and its least
# normalized margin; QMM protects the lower $\upsilon$ share of those margins.

# %%
from optirules.plotting import plot_boosting

ax = plot_boosting(ensemble, X_train, y_train)
ax.set_title(f"AdaBoost, {T} depth-2 trees, training rows")
plt.show()

# %% [markdown]
# ## How much to protect, and two other pruners
#
# A smaller $\upsilon$ protects fewer margins and lets the QP prune more.  Beside it,
# $\kappa$-pruning (keep the 20% most diverse members, pairwise Cohen's $\kappa$) and DREP
# (greedy forward selection among the most diverse members), the paper's baselines.  The
# $\upsilon$ sweep uses the default solver, SCS.

# %%
table = []
for upsilon in (0.1, 0.25, 0.5, 1.0):
    pruned = QMMPruner(ensemble, upsilon=upsilon).fit(X_train, y_train)
    table.append({"method": f"QMM, upsilon = {upsilon}", "kept": pruned.n_kept_,
                  "train error": pruned.train_error_,
                  "test error": 1 - pruned.score(X_test, y_test)})
for pruner in (KappaPruner(ensemble), DREPPruner(ensemble)):
    pruner.fit(X_train, y_train)
    table.append({"method": type(pruner).__name__, "kept": pruner.n_kept_,
                  "train error": pruner.train_error_,
                  "test error": 1 - pruner.score(X_test, y_test)})
table.insert(0, {"method": "AdaBoost (all trees)", "kept": T,
                 "train error": 1 - ensemble.score(X_train, y_train),
                 "test error": 1 - ensemble.score(X_test, y_test)})
table = pd.DataFrame(table)
print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))

# %% [markdown]
# ## What this notebook teaches, checked

# %%
tol = 1e-7
w = qmm.weights_
# the pruned weights are a convex combination, and the ensemble is smaller
assert w.min() >= 0 and abs(w.sum() - 1) < 1e-12
assert qmm.n_kept_ < T and not qmm.fallback_used_ and qmm.status_.value == "optimal"
assert np.array_equal(qmm.kept_, np.flatnonzero(w > 0))
# the lower-upsilon margins did not decrease (no weight was moved, so the reference
# margins are the original vote's)
assert qmm.moved_weight_ == 0 and model.margin_shift_ < 1e-12
lower = model.lower_rows_
assert lower.size == k and np.all(after[lower] >= before[lower] - tol)
assert np.all(after[lower] >= model.phi_ - tol)
# ... while the variance of the margins went down: the QP objective
assert abs(np.var(after, ddof=1) - model.objective_) < 1e-12
assert model.objective_ < model.baseline_objective_
# the model's data are the definitions
assert sigma_gap < 1e-12 and phi_gap < 1e-12
# three solvers and the MPS file agree
assert (solvers["status"] == "optimal").all()
assert np.ptp(solvers["objective"]) < 1e-6 and (solvers["max |w - w_clarabel|"] < 1e-4).all()
assert (solvers["violation"] < 1e-6).all()
assert from_file.status.value == "optimal"
assert abs(from_file.objective - model.result_.objective) < 1e-6
# a solver failure is never silent: the fallback keeps the (merged) original vote
if hard.fallback_used_:
    assert fallback_warned and hard.fallback_reason_
    assert np.allclose(hard.weights_, hard.model_.reference_weights_)
else:
    assert hard.status_.value == "optimal"
# protecting fewer margins prunes at least as much (here strictly more)
kept = table.set_index("method")["kept"]
assert kept["QMM, upsilon = 0.1"] < kept["QMM, upsilon = 0.5"] <= kept["QMM, upsilon = 1.0"]
print("all checks passed")
