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
# # 04 · Distributionally robust ensembles of rule sets, and why the binary loss cycles
#
# The DRO paper (*Obtaining Explainable Classification Models using Distributionally Robust Optimization*, Section 3) trains a **convex combination of DNF
# rule sets** against a *worst-case* weighting of the training rows.  With $P^0$ uniform,
# $F_0 = 0$ and a $\phi$-divergence ball $\mathcal P = \{P : D_\phi(P, P^0) \le \rho\}$,
# each iteration $n = 1, 2, \dots$
#
# 1. fits a rule set of complexity at most $\mathfrak C'$ under the current weights (eq 4,
#    the weighted rule master of notebooks 01–02 by column generation),
#    $h_n = \arg\min_h \mathbb E_{P^{n-1}} |h(x) - y|$;
# 2. adds it to the average, $F_n = \frac{n-1}{n} F_{n-1} + \frac1n h_n$;
# 3. moves the weights to the worst case of the **margin loss** (eq 2) of $F_n$ (eq 5,
#    solved as eq 9, notebook 03):
#    $$ l(F(x), y) = \big|F(x) - \tfrac12\big| \cdot \mathbb I(\hat y \ne y),\qquad
#       P^n = \arg\max_{P \in \mathcal P} \textstyle\sum_i P_i\, l(F_n(x_i), y_i). $$
#
# After each iteration a small **integer program** (eqs 11–14) picks a sparse convex
# combination $F = \sum_k v_k h_k$ of the members within the overall budget $\mathfrak C$:
#
# $$
# \begin{aligned}
# \min\ & \textstyle\sum_i p_i \xi_i \\
# \text{s.t. }& \textstyle\sum_{k \in \mathcal K_i} v_k \le \tfrac12 - \Delta + \xi_i\ (y_i = 0),\qquad
# \xi_i + \textstyle\sum_{k \in \mathcal K_i} v_k \ge \tfrac12 + \Delta\ (y_i = 1),\\
# & \textstyle\sum_k v_k = 1,\ 0 \le v_k \le w_k,\ w_k \in \{0,1\},\ \sum_k c(h_k)\, w_k \le \mathfrak C,\ \xi \ge 0 .
# \end{aligned}
# $$
#
# Section 2.3 and 4.1 of the paper explain why the loss must be the margin of the *average*:
# with the plain misclassification loss of a single rule set, $|h_n(x) - y| \in \{0, 1\}$,
# the worst-case pmf only separates the misclassified rows from the correct ones, and the
# alternation between $h$ and $P$ **cycles** — its Figure 1.  Both runs are here:
# `DRORuleEnsembleClassifier(loss="margin")` and `loss="binary"`.

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from optirules.data import load_dataset
from optirules.learners import BooleanRuleSetClassifier, DRORuleEnsembleClassifier
from optirules.models import SparseCombinationModel, WorstCasePmfModel, worst_case_pmf
from optirules.solvers import read_model

# %% [markdown]
# ## Data: the 1984 congressional votes
#
# 435 representatives, 16 votes (`y`, `n`, or `?` for not voting), label 1 = Republican.
# A stratified 70/30 split.  The binarizer (`binarizer="auto"`) turns each vote into
# literals such as `physician-fee-freeze == y` or `aid-to-nicaraguan-contras is missing`.

# %%
X, y = load_dataset("house_votes_84")
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0,
                                                    stratify=y)
print(f"{len(X_train)} training / {len(X_test)} test rows, {X.shape[1]} votes;"
      f" share of label 1: {y_train.mean():.2f}")

# %% [markdown]
# ## The DRO ensemble (margin loss)
#
# Overall budget $\mathfrak C = 15$, members of complexity at most $\mathfrak C' = 5$
# (rules plus literals), clauses of at most 2 literals, a $\chi^2$ ball of radius
# $\rho = 0.1$, six iterations.  After every iteration the combination IP is solved with
# $p = P^n$ and with $p = P^0$; the returned ensemble is the candidate of least training
# robust loss (`selection="robust_loss"`, the paper's reading and the default).  Here
# $\mathfrak C'$ is fixed; by default it is chosen too (last section).

# %%
RHO = 0.1
dro = DRORuleEnsembleClassifier(complexity=15, member_complexity=5, rho=RHO, n_estimators=6,
                                selection="robust_loss", random_state=0,
                                member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=2, binarizer="auto"))
dro.fit(X_train, y_train)
print(dro)
print()
history = pd.DataFrame({
    "member h_n": [str(m) for m in dro.members_],
    "c(h_n)": dro.member_costs_.astype(int),
    "R(F_n)": dro.robust_loss_history_,
    "D(P^n, P^0)": dro.divergence_history_[1:],
}, index=pd.RangeIndex(1, dro.n_estimators_ + 1, name="n"))
with pd.option_context("display.max_colwidth", 95, "display.width", 170):
    print(history.to_string(float_format=lambda v: f"{v:.4f}"))
candidates = pd.DataFrame([{k: c[k] for k in ("iteration", "pmf", "cost", "robust_loss",
                                              "train_accuracy", "status")}
                           for c in dro.candidates_])
print()
print(candidates.to_string(float_format=lambda v: f"{v:.4f}"))
print(f"\nselected candidate {dro.selected_}; ensemble cost {dro.complexity_}")

# %% [markdown]
# ## The loop, recomputed from its members
#
# Each member is a `RuleSet` that evaluates on the raw data frame.  From the members alone
# we rebuild $F_n$, the margin losses $z_i = l(F_n(x_i), y_i)$ — which live on the grid
# $\{0, \frac{1}{2n}, \frac{2}{2n}, \dots\}$, so they get more informative as $n$ grows —
# and the worst-case pmfs with `worst_case_pmf`, and compare with the fitted history.

# %%
yb = y_train == dro.classes_[1]
H_members = np.column_stack([m.evaluate(X_train) for m in dro.members_]).astype(float)
pmf_gap, loss_gap, off_grid, n_values = [], [], [], []
for n in range(1, dro.n_estimators_ + 1):
    F = H_members[:, :n].mean(axis=1)
    z = np.abs(F - 0.5) * ((F >= 0.5) != yb)
    P = worst_case_pmf(z, RHO, "chi2")
    pmf_gap.append(np.abs(P - dro.pmf_history_[n]).max())
    loss_gap.append(abs(P @ z - dro.robust_loss_history_[n - 1]))
    off_grid.append(np.abs(2 * n * z - np.round(2 * n * z)).max())
    n_values.append(np.unique(z).size)
print(f"largest |P^n - fitted|: {max(pmf_gap):.1e}; largest robust-loss gap {max(loss_gap):.1e}")
print("distinct loss values per iteration:", n_values)

F_test = sum(v * m.evaluate(X_test) for v, m in zip(dro.weights_, dro.members_))
vote_gap = np.abs(F_test - dro.decision_function(X_test)).max()
single = BooleanRuleSetClassifier(complexity=15, max_degree=2, binarizer="auto",
                                  random_state=0).fit(X_train, y_train)
print(f"test accuracy: DRO ensemble {dro.score(X_test, y_test):.3f} (cost {dro.complexity_});"
      f" one rule set with the same budget {single.score(X_test, y_test):.3f}"
      f" ({single.rules_})")

# %% [markdown]
# ## The declarative models: the combination IP and the worst-case pmf
#
# We rebuild the combination IP of the selected candidate with
# `optirules.models.SparseCombinationModel` (a Pyomo MILP: the distinct members so far, the
# candidate's pmf), look at its components, export it as `.lp`, and solve it twice —
# Pyomo handing it to HiGHS, and HiGHS reading the exported file.  (HiGHS is the only
# MILP solver installed here; with CBC, GLPK, SCIP or Gurobi present, pass
# `model.solve("cbc")` etc.)  Then the worst-case pmf of the last iteration as a CVXPY
# model, solved by Clarabel and SCS, against the exact 1-D solver.

# %%
chosen = dro.candidates_[dro.selected_]
it = chosen["iteration"]
p = dro.pmf_history_[it] if chosen["pmf"] == "worst_case" else dro.pmf_history_[0]
first = {}
for k in range(it):
    if len(dro.members_[k]):
        first.setdefault(str(dro.members_[k]), k)
cols = sorted(first.values())
ip = SparseCombinationModel(H_members[:, cols].astype(int), yb.astype(int),
                            dro.member_costs_[cols], 15, sample_weight=p)
m = ip.model
for comp in (m.v, m.w, m.xi, m.weighted_margin_loss, m.margin, m.simplex, m.link, m.budget):
    print(f"{comp.name:20s} {type(comp).__name__:22s} {len(comp):4d}")
result = ip.solve(route="pyomo")
print(f"\nPyomo -> HiGHS: {result.status.value}, objective {ip.objective_:.9f},"
      f" v = {dict(zip(cols, ip.v_.round(4).tolist()))}; the learner's IP:"
      f" {chosen['objective']:.9f}")

ip.write("combination.lp")
lines = open("combination.lp").read().splitlines()
for head in ("min", "c_u_margin", "c_l_margin", "c_e_simplex", "c_u_budget"):
    i = next(t for t, s in enumerate(lines) if s.startswith(head))
    print("   " + "\n   ".join(lines[i:i + 3]) + "\n   ...")
from_file = read_model("combination.lp")
print(f"HiGHS reading combination.lp: {from_file.status.value},"
      f" objective {from_file.objective:.9f}")

F_last = H_members.mean(axis=1)
z_last = np.abs(F_last - 0.5) * ((F_last >= 0.5) != yb)
exact = worst_case_pmf(z_last, RHO, "chi2")
pmf_rows = []
for solver in ("clarabel", "scs"):
    model = WorstCasePmfModel(z_last, RHO, "chi2")
    model.solve(solver)
    pmf_rows.append({"solver": solver, "objective": model.objective_,
                     "max |P - P_exact|": np.abs(model.pmf_ - exact).max()})
pmf_solvers = pd.DataFrame(pmf_rows)
print(f"\nworst-case pmf of F_{dro.n_estimators_}: exact objective {exact @ z_last:.8f}")
print(pmf_solvers.to_string(index=False, float_format=lambda v: f"{v:.2e}"))

# %% [markdown]
# ## The binary-loss variant cycles (the DRO paper §4.1)
#
# Same data, one rule set at a time: $h_{n+1}$ minimizes the $P^n$-weighted error and
# $P^n$ is the worst case of $|h_n(x) - y|$ alone (no averaging).  That loss takes two
# values, so $P^n$ takes two values too: one weight for every misclassified row, one for
# every correct row.  Since $h_{n+1}$ depends on $h_n$ only, the first repeated member
# proves a cycle (`cycle_detected_`, `cycle_start_`, `cycle_length_`).  A larger radius
# ($\rho = 0.5$) makes the swing visible.

# %%
binary = DRORuleEnsembleClassifier(loss="binary", complexity=5, member_complexity=5, rho=0.5,
                                   n_estimators=8, random_state=0,
                                   member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=2, binarizer="auto")).fit(X_train, y_train)
for n, (member, r) in enumerate(zip(binary.members_, binary.robust_loss_history_), 1):
    print(f"  h_{n}: R(h_{n}) = {r:.4f}   {member}")
print(f"cycle detected: {binary.cycle_detected_}, from iteration {binary.cycle_start_},"
      f" length {binary.cycle_length_}")

s, L = binary.cycle_start_, binary.cycle_length_
keys = [str(mm) for mm in binary.members_]
periodic_members = all(keys[n] == keys[n + L] for n in range(s - 1, len(keys) - L))
periodic_pmfs = all(np.allclose(binary.pmf_history_[n], binary.pmf_history_[n + L])
                    for n in range(s, len(keys) + 1 - L))
two_levels = []
for n, member in enumerate(binary.members_, 1):
    wrong = member.evaluate(X_train) != yb
    P = binary.pmf_history_[n]
    two_levels.append(np.ptp(P[wrong]) < 1e-12 and np.ptp(P[~wrong]) < 1e-12
                      and (P[wrong].min() > P[~wrong].max() if (~wrong).any() else True))
print(f"members periodic: {periodic_members}; pmfs periodic: {periodic_pmfs};"
      f" every P^n two-valued (wrong rows above correct ones): {all(two_levels)}")

# %% [markdown]
# ## Picture: robust loss and worst-case weights, iteration by iteration
#
# Left: the robust loss of each iterate — the binary variant zig-zags between the same two
# values for ever, the margin variant's $R(F_n)$ stays low and moves little.  Middle and
# right: $N P^n_i$ (the weight relative to uniform) for every iteration (rows of the image)
# and every training row that some iteration weights above uniform (columns, grouped by
# the binary run's first two patterns); all other rows share the low weight.  The binary
# run hands the same blocks of rows back and forth between heavy and light; the margin
# run's weights are graded and sit on the rows the *average* still gets wrong.

# %%
N = len(y_train)
wrong1 = binary.members_[0].evaluate(X_train) != yb
wrong2 = binary.members_[1].evaluate(X_train) != yb
heavy = (N * np.vstack([binary.pmf_history_[1:], dro.pmf_history_[1:]]) > 1 + 1e-9).any(axis=0)
order = np.flatnonzero(heavy)[np.lexsort((-dro.pmf_history_[-1][heavy], wrong2[heavy],
                                          wrong1[heavy]))]
fig, axes = plt.subplots(1, 3, figsize=(16, 4.2), gridspec_kw={"width_ratios": [1, 1.3, 1.3]})
axes[0].plot(range(1, binary.n_estimators_ + 1), binary.robust_loss_history_, "o-",
             label=f"binary loss, rho = {binary.rho}")
axes[0].plot(range(1, dro.n_estimators_ + 1), dro.robust_loss_history_, "s-",
             label=f"margin loss, rho = {dro.rho}")
axes[0].set(xlabel="iteration n", ylabel="robust loss of the iterate", title="R(h_n) and R(F_n)")
axes[0].legend(fontsize=8)
for ax, run, title in ((axes[1], binary, "binary loss: N P^n"),
                       (axes[2], dro, "margin loss: N P^n")):
    image = ax.imshow(N * run.pmf_history_[1:, order], aspect="auto", cmap="magma",
                      interpolation="nearest",
                      extent=(0, order.size, run.n_estimators_ + 0.5, 0.5))
    ax.set(xlabel=f"the {order.size} rows ever weighted above 1/N", ylabel="iteration n",
           title=title)
    fig.colorbar(image, ax=ax)
fig.tight_layout()
plt.show()

# %% [markdown]
# The fitted ensemble with `optirules.plotting`: left, the weights $v$ the combination IP
# gave the members (bars) and the robust loss of each iteration (line); right, the last
# worst-case pmf $P^n$ against the uniform $P^0$, rows in order of increasing weight.

# %%
from optirules.plotting import plot_dro_ensemble, plot_worst_case_pmf

fig, axes = plt.subplots(1, 2, figsize=(13, 4))
plot_dro_ensemble(dro, ax=axes[0])
plot_worst_case_pmf(dro, ax=axes[1])
fig.tight_layout()
plt.show()

# %% [markdown]
# ## The default member budget, and the held-out alternative
#
# With $\mathfrak C' = \mathfrak C/3$ a member cannot hold a concept that needs the whole
# budget, and a vote of small rule sets is not their OR.  By default
# (`member_complexity=None`) the learner runs the loop for
# $\mathfrak C' \in \{\mathfrak C/3, \mathfrak C\}$ and returns the
# candidate of least training robust loss over all of them.  `selection="validation"`
# instead runs the grid on 75 % of the training rows, keeps the ($\mathfrak C'$,
# iteration, pmf) candidate of best accuracy on the other 25 %, and reruns the loop on all
# training rows with those values (`refit=True`).  `time_limit` would bound all of it.

# %%
auto = DRORuleEnsembleClassifier(complexity=15, rho=RHO, n_estimators=6, random_state=0,
                                 member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=2, binarizer="auto")).fit(X_train, y_train)
held = DRORuleEnsembleClassifier(complexity=15, rho=RHO, n_estimators=6, selection="validation",
                                 random_state=0,
                                 member=BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0, max_degree=2, binarizer="auto")).fit(X_train, y_train)
for name, est in (("robust loss (default)", auto), ("held-out rows", held)):
    print(name)
    print(pd.DataFrame(est.member_complexity_results_).to_string(
        float_format=lambda v: f"{v:.4f}"))
    print(f"  chosen C' = {est.member_complexity_:g}; test accuracy "
          f"{est.score(X_test, y_test):.3f} (cost {est.complexity_}); {est.status_}\n")
print(f"robust-loss choice at the fixed C' = 5: test accuracy {dro.score(X_test, y_test):.3f}")

# %% [markdown]
# ## What this notebook teaches, checked

# %%
tol = 1e-9
# the default chose C' from the grid by least robust loss; the alternative by held-out
# accuracy; both within the overall budget
robust = {r["member_complexity"]: r["score"] for r in auto.member_complexity_results_}
held_acc = {r["member_complexity"]: r["score"] for r in held.member_complexity_results_}
assert sorted(robust) == sorted(held_acc) == [5, 15]
assert robust[auto.member_complexity_] == min(robust.values())
assert auto.candidates_[auto.selected_]["robust_loss"] == min(robust.values())
assert held_acc[held.member_complexity_] == max(held_acc.values())
assert auto.complexity_ <= 15 and held.complexity_ <= 15 and held.refitted_
assert auto.status_ == held.status_ == "completed"
# the DRO loop is eqs 2, 4, 5/9: rebuilt from the members, same pmfs and robust losses
assert max(pmf_gap) < 1e-10 and max(loss_gap) < 1e-12
# the margin losses live on the grid {0, 1/(2n), ...} and become more informative
assert max(off_grid) < 1e-9 and n_values[-1] > 2
# every worst-case pmf is a pmf inside the chi2 ball of radius rho
for run in (dro, binary):
    assert np.all(run.pmf_history_ >= 0) and np.allclose(run.pmf_history_.sum(axis=1), 1)
    assert np.all(run.divergence_history_ <= run.rho * (1 + 1e-9))
# the returned ensemble: a convex combination within the budget, least robust loss
assert abs(dro.weights_.sum() - 1) < tol and dro.weights_.min() >= 0
assert dro.complexity_ <= 15 and all(c <= 5 for c in dro.member_costs_)
# (robust losses within 1e-12 are ties, broken by the smaller cost)
assert chosen["robust_loss"] <= min(c["robust_loss"] for c in dro.candidates_) + 1e-12
assert vote_gap < 1e-12            # decision_function is the weighted vote of the rule sets
# the combination IP rebuilt from the public model = the learner's, = the exported file
assert result.status.value == "optimal"
assert abs(ip.objective_ - chosen["objective"]) < 1e-9
assert abs(from_file.objective - ip.objective_) < 1e-9
# the worst-case pmf: exact solver = Clarabel (and SCS close)
assert pmf_solvers.set_index("solver").loc["clarabel", "max |P - P_exact|"] < 1e-6
assert pmf_solvers.set_index("solver").loc["scs", "max |P - P_exact|"] < 1e-3
# the binary-loss variant cycles: two-valued pmfs, periodic members and pmfs
assert binary.cycle_detected_ and binary.cycle_length_ >= 2
assert periodic_members and periodic_pmfs and all(two_levels)
r = binary.robust_loss_history_
assert np.allclose(r[s - 1:len(r) - L], r[s - 1 + L:])
print("all checks passed")
