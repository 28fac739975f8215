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
# # 02 · Column generation, step by step
#
# Notebook 01 solved the rule master over *every* clause of at most two literals — 465
# columns.  With more literals or longer clauses the pool explodes, so the DRO paper (Section 3,
# after eq 8) follows Dash, Günlük and Wei (2018): solve the LP relaxation over a small
# pool, ask a **pricing problem** for a clause of negative reduced cost
#
# $$
# r(k) = \lambda c_k + \sum_{i \in Z,\ k \text{ covers } i} P_i
#        - \sum_{i \in P^+,\ k \text{ covers } i} \mu_i P_i,\qquad c_k = 1 + |k|,
# $$
#
# add it, and repeat until no clause with at most $D$ literals has $r(k) < 0$.  Then the
# restricted LP *is* the LP over all such clauses — a **lower bound** on the best rule
# set — and the integer program over the generated columns gives a rule set whose distance
# to that bound is a **certified gap**.  Along the way, since every clause has
# $c_k \ge 2$ and so any solution has $\sum_k w_k \le C/2$, each exact pricing round
# also gives a Lagrangian lower bound
#
# $$
# \mathrm{LP}^\ast \;\ge\; \mathrm{LP}_{\text{restricted}} + \tfrac{C}{2}\,\min\big(0,\ \min_k r(k)\big).
# $$
#
# Pricing two ways: `beam_search_pricing` (fast, may miss the best clause) and the exact
# MILP `RulePricingModel` (Dash et al.'s formulation).

# %%
import itertools

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from optirules.data import FeatureBinarizer, load_dataset
from optirules.models import (
    HighsRuleMaster,
    PricingDuals,
    RuleMasterModel,
    RulePricingModel,
    RuleSetProblem,
    beam_search_pricing,
    reduced_costs,
)
from optirules.solvers import read_model

X, y = load_dataset("monks1_train")
binarizer = FeatureBinarizer(categorical_features=list(X.columns))
A = binarizer.fit_transform(X)
literals = binarizer.get_feature_names_out()
N, L = A.shape
P = np.full(N, 1.0 / N)
C, D = 6, 2          # complexity budget, most literals per clause
TOL = 1e-9


def show(clause):
    return " AND ".join(literals[j] for j in clause)


print(f"{N} rows, {L} literals; budget C = {C}, clauses of at most D = {D} literals")

# %% [markdown]
# ## Iteration 0 by hand
#
# Start from an **empty pool**.  The LP is then $\min \sum \xi_i$ with $\xi_i \ge P_i$:
# every positive row is uncovered, so every cover dual is $\mu_i = 1$ and the budget is
# free ($\lambda = 0$).  The reduced cost of a clause is then just (weight of the negatives
# it covers) − (weight of the positives it covers).  We compute it with numpy and with
# `reduced_costs`.

# %%
start = HighsRuleMaster(A, y, [], complexity=C)   # direct highspy LP, kept warm
start.solve()
mu0, lam0 = start.cover_duals_, start.complexity_dual_
print(f"LP value {start.objective_:.4f} (= weight of the positives),"
      f" mu in [{mu0.min()}, {mu0.max()}], lambda = {lam0}")

singles = [(j,) for j in range(L)]
by_hand = np.array([lam0 * 2 + P[(y == 0) & A[:, j].astype(bool)].sum()
                    - (mu0 * P[y == 1])[A[y == 1, j].astype(bool)].sum() for j in range(L)])
library = reduced_costs(A, y, singles, PricingDuals(mu0, lam0))
best = int(np.argmin(library))
print(f"best single literal: {literals[best]}  r = {library[best]:.4f}"
      f"  (by hand {by_hand[best]:.4f}; largest difference {np.abs(by_hand - library).max():.1e})")

# %% [markdown]
# ## The pricing MILP, declared and exported
#
# With $z_j = 1$ iff literal $j$ is in the clause, $\delta_i = 1$ iff the clause covers row
# $i$, $S_i$ the literals that are 0 in row $i$ and the row prices $v_i = P_i$ on $Z$,
# $v_i = -\mu_i P_i$ on $P^+$:
#
# $$
# \begin{aligned}
# \min\quad & (\lambda + \lambda_0) + (\lambda + \lambda_1)\textstyle\sum_j z_j + \sum_i v_i \delta_i
#     && \texttt{reduced\_cost}\\
# \text{s.t.}\quad & \delta_i + \textstyle\sum_{j \in S_i} z_j \ge 1 \quad (i \in Z)
#     && \texttt{covers\_negative(i)}\\
# & \delta_i + z_j \le 1 \quad (i \in P^+,\ j \in S_i) && \texttt{covers\_positive(i, j)}\\
# & 1 \le \textstyle\sum_j z_j \le D && \texttt{min\_degree},\ \texttt{max\_degree}\\
# & z \in \{0,1\}^L,\ \delta \in [0, 1]^N
# \end{aligned}
# $$
#
# ($\lambda_0 = \lambda_1 = 0$ in the budget form used here.)  Rows with a zero price are
# left out.  Below: the model's components and the first lines of each block of its
# `.lp` export.

# %%
pricing = RulePricingModel(RuleSetProblem(A, y, None, max_degree=D), PricingDuals(mu0, lam0))
pm = pricing.model
for comp in (pm.z, pm.delta, pm.reduced_cost, pm.covers_negative, pm.covers_positive,
             pm.max_degree, pm.min_degree):
    print(f"{comp.name:16s} {type(comp).__name__:18s} {len(comp):5d}  {comp.doc or ''}")

pricing.write("pricing_iteration0.lp")
lines = open("pricing_iteration0.lp").read().splitlines()
for head in ("min", "c_l_covers_negative", "c_u_covers_positive", "c_u_max_degree_"):
    i = next(t for t, s in enumerate(lines) if s.startswith(head))
    print("   " + "\n   ".join(lines[i:i + 4]) + "\n   ...")
pricing.solve()
print(f"exact pricing at iteration 0: {show(pricing.clause_)}  r = {pricing.reduced_cost_:.4f}")

# %% [markdown]
# ## The loop
#
# Each round: re-solve the restricted LP from its warm basis (`HighsRuleMaster.solve`),
# read the duals, run a **deliberately narrow beam** (width 1, the greedy choice) and the
# exact MILP, add the beam's clause when it prices out negative, otherwise the exact one,
# and stop when the exact MILP certifies that no clause of at most $D$ literals has a
# negative reduced cost.  (A production loop runs the MILP only when the beam fails; we
# run both every round to compare them.)

# %%
master = HighsRuleMaster(A, y, [], complexity=C)
history = []
for iteration in range(30):
    lp_value = master.solve()
    duals = master.duals_for_pricing_
    problem = RuleSetProblem(A, y, None, max_degree=D)
    (beam_clause, beam_rc), = beam_search_pricing(problem, duals, beam_width=1, k=1)
    exact = RulePricingModel(problem, duals)
    exact.solve()
    row = {"iteration": iteration, "pool": len(master.clauses_), "LP": lp_value,
           "Lagrangian bound": lp_value + C / 2 * min(exact.reduced_cost_, 0.0),
           "beam r": beam_rc, "exact r": exact.reduced_cost_, "added": "", "by": ""}
    history.append(row)
    if beam_rc < -TOL:
        new, row["by"] = beam_clause, "beam"
    elif exact.reduced_cost_ < -TOL:
        new, row["by"] = exact.clause_, "exact"
    else:
        break
    row["added"] = show(new)
    master.add_clauses([new])

table = pd.DataFrame(history).set_index("iteration")
with pd.option_context("display.width", 140, "display.precision", 5):
    print(table)
lp_bound = master.objective_

# %% [markdown]
# When the greedy beam finds nothing negative (`beam r` = 0) the exact MILP still does: a
# loop that trusted the beam would have stopped early, with a restricted LP value that is
# **not** a bound on anything.  At the end we do not take the MILP's word for it either:
# we enumerate all 465 clauses of at most two literals and price them at the final duals.

# %%
stalls = table[table["by"] == "exact"]
if len(stalls):
    first = stalls.index[0]
    print(f"the beam alone would have stopped at iteration {first} with LP value"
          f" {table.loc[first, 'LP']:.5f}; the true LP bound is {lp_bound:.5f}")

everything = [k for d in range(1, D + 1) for k in itertools.combinations(range(L), d)]
r_all = reduced_costs(A, y, everything, PricingDuals(master.cover_duals_,
                                                      master.complexity_dual_))
print(f"min reduced cost over all {len(everything)} clauses at the final duals: {r_all.min():.2e}")
print(f"generated {len(master.clauses_)} of {len(everything)} columns")

# %% [markdown]
# ## The integer program over the generated columns, and the certified gap
#
# `to_model()` turns the warm highspy LP into the declarative `RuleMasterModel` over the
# same pool; as an IP it returns the rule set.  Its objective minus the LP bound is the
# certified gap: no rule set of clauses with at most two literals can beat the LP bound.
# For this small problem we can also solve the IP over all 465 clauses (as notebook 01
# did) and see where the true optimum lies inside the gap.

# %%
final = master.to_model()                 # RuleMasterModel over the generated pool, as an IP
final.solve()
gap = final.objective_ - lp_bound
print(f"IP over generated columns: {final.objective_:.5f}   LP bound: {lp_bound:.5f}"
      f"   certified gap: {gap:.5f} ({gap / final.objective_:.1%} of the IP value)")
for k in final.selected_:
    print("   IF", show(k))

full = RuleMasterModel(A, y, everything, complexity=C)
full.solve()
print(f"IP over all {len(everything)} clauses: {full.objective_:.5f}")

# %% [markdown]
# ## Swapping solvers and exporting the final models
#
# The restricted LP through Pyomo (`to_model(relax=True)`, HiGHS via Pyomo) must give the
# warm highspy value; the final IP written as MPS and solved from the file by HiGHS must
# give the Pyomo value.  The warm LP itself can be exported with HiGHS's writer, one row
# per line.

# %%
declared = master.to_model(relax=True)
declared.solve()
final.write("final_master.mps")
from_mps = read_model("final_master.mps")
master.write("restricted_master.lp")
print(f"restricted LP  highspy {lp_bound:.10f}   Pyomo -> HiGHS {declared.objective_:.10f}")
print(f"final IP       Pyomo -> HiGHS {final.objective_:.10f}   from final_master.mps"
      f" {from_mps.objective:.10f}")
restricted = open("restricted_master.lp").read().splitlines()
rows_with_w = [s for s in restricted if s.startswith(" cover(") and "w(" in s]
print(f"restricted_master.lp ({len(restricted)} lines), two cover rows and the budget row:")
print("\n".join(rows_with_w[:2] + [s for s in restricted if s.startswith(" complexity")]))

# %% [markdown]
# ### The whole loop in another solver
#
# `column_generation` (what `BooleanRuleSetClassifier` runs) takes one solver name for
# every part, or a mapping.  With `solver="scip"` the restricted LP is SCIP's (rebuilt
# each iteration: SCIP has no persistent interface that returns duals) and so are the
# master IP; with `{"lp": "highs", "milp": "scip"}` the LP stays in the warm highspy model
# and SCIP solves the IP.  The duals, and so the columns, may differ between solvers; the
# certified LP bound (the LP over *all* clauses of degree $\le 2$) may not.

# %%
from optirules.models import column_generation
from optirules.solvers import available_solvers

yb = y == 1
runs = {"highs": column_generation(A, yb, P, complexity=C, max_degree=D)}
if "scip" in [s.name for s in available_solvers("pyomo")]:
    runs["scip"] = column_generation(A, yb, P, complexity=C, max_degree=D, solver="scip")
    runs["lp highs, milp scip"] = column_generation(
        A, yb, P, complexity=C, max_degree=D, solver={"lp": "highs", "milp": "scip"})
swap = pd.DataFrame({name: {"LP path": r.info["master"], "iterations": len(r.history),
                            "pool": len(r.pool), "LP bound": r.lp_bound,
                            "IP objective": r.ip_objective}
                     for name, r in runs.items()}).T
print(swap.to_string())
assert np.allclose(swap["LP bound"].astype(float), runs["highs"].lp_bound, atol=1e-9)
assert np.allclose(swap["IP objective"].astype(float), runs["highs"].ip_objective, atol=1e-9)

# %% [markdown]
# ## Picture: the LP objective per iteration, and beam vs exact pricing

# %%
fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4))
it = table.index.to_numpy()
left.plot(it, table["LP"], "o-", label="restricted LP objective")
left.plot(it, np.maximum(table["Lagrangian bound"], 0.0), "s:",
          label="Lagrangian lower bound (clipped at 0)")
left.axhline(final.objective_, color="tab:red", ls="--", label="IP over generated columns")
left.axhline(lp_bound, color="tab:green", ls="-.", label="final LP bound")
for t in table.index[table["by"] == "exact"]:
    left.annotate("beam stalled", (t, table.loc[t, "LP"]), textcoords="offset points",
                  xytext=(5, 8), fontsize=8)
left.set(xlabel="iteration", ylabel="weighted Hamming loss", title="column generation",
         xticks=it)
left.legend(fontsize=8)
width = 0.4
right.bar(it - width / 2, table["exact r"], width, label="exact MILP")
right.bar(it + width / 2, table["beam r"], width, label="beam (width 1)")
right.axhline(0, color="black", lw=0.8)
right.set(xlabel="iteration", ylabel="best reduced cost found", title="pricing",
          xticks=it)
right.legend(fontsize=8)
fig.tight_layout()
plt.show()

# %% [markdown]
# ## What this notebook teaches, checked

# %%
tol = 1e-8
# iteration 0: nothing covers anything, so every cover dual is 1 and the budget is free
assert np.allclose(mu0, 1.0) and abs(lam0) < tol
assert np.allclose(by_hand, library, atol=1e-12)
# the beam never beats the exact MILP (both report exact reduced costs) but can miss:
# already at iteration 0 (duals fixed by the data) the greedy beam's clause is not the best
assert (table["beam r"] >= table["exact r"] - tol).all()
assert table.loc[0, "beam r"] > table.loc[0, "exact r"] + 1e-6
# adding columns never raises the LP; every Lagrangian bound is below the final LP
assert (np.diff(table["LP"]) <= tol).all()
assert (table["Lagrangian bound"] <= lp_bound + tol).all()
# at the end no clause of degree <= 2 has a negative reduced cost (checked by enumeration)
assert r_all.min() >= -tol and table["exact r"].iloc[-1] >= -tol
# so the LP bound is below every rule set, the generated IP and the full IP alike
assert lp_bound <= full.objective_ + tol <= final.objective_ + 2 * tol
assert gap >= -tol
# the same models through other routes
assert abs(declared.objective_ - lp_bound) < tol
assert abs(from_mps.objective - final.objective_) < tol
print(f"all checks passed; certified gap {gap:.5f}")

# %% [markdown]
# ## The penalty: an exact master can overfit small data
#
# The learner `BooleanRuleSetClassifier` runs this loop and then the IP.  Its objective
# is the penalty form of BRCG implementations: the weighted error plus $\lambda_0$ per
# rule and $\lambda_1$ per literal.  AIX360's BRCG uses $\lambda_0 = \lambda_1 = 0.001$.
# With $N$ training rows each error weighs $1/N$, so when $N < 333$ a two-literal rule
# that covers a single positive row (and no negative) *lowers* that objective: an exact IP
# keeps adding such rules, which a heuristic final selection would mostly miss.  On
# ionosphere (245 training rows here) the train-test gap shows it.  The learner's default
# penalty therefore grows with the noise of the data, $0.1/\sqrt{N}$ per rule and per
# literal (about 0.0064 here); `BooleanRuleSetCV` picks the penalty by stratified
# cross-validation on the training rows and refits.

# %%
from IPython.display import display
from sklearn.model_selection import train_test_split

from optirules.learners import BooleanRuleSetClassifier, BooleanRuleSetCV

X_i, y_i = load_dataset("ionosphere")
X_a, X_b, y_a, y_b = train_test_split(X_i, y_i, test_size=0.3, stratify=y_i,
                                      random_state=0)
rows = []
for p in (0.001, 0.003, 0.01):
    m = BooleanRuleSetClassifier(lambda0=p, lambda1=p, max_degree=2, binarizer="auto",
                                 random_state=0).fit(X_a, y_a)
    rows.append({"penalty": p, "rules + literals": m.rules_.complexity,
                 "train accuracy": m.score(X_a, y_a), "test accuracy": m.score(X_b, y_b),
                 "certified gap": m.gap_})
penalty_path = pd.DataFrame(rows).set_index("penalty")
cv = BooleanRuleSetCV(BooleanRuleSetClassifier(max_degree=2, binarizer="auto",
                                               random_state=0),
                      penalties=(0.001, 0.003, 0.01), cv=3, random_state=0).fit(X_a, y_a)
print(cv)
print(f"test accuracy of the cross-validated rule set: {cv.score(X_b, y_b):.3f}")
cv_table = pd.DataFrame({k: cv.cv_results_[k] for k in
                         ("lambda0", "mean_score", "std_score", "mean_complexity")})
display(penalty_path.round(4), cv_table.round(4))

# %% [markdown]
# The learner keeps its loop in `history_`; `optirules.plotting.plot_column_generation`
# draws the restricted LP objective and the certified lower bound per iteration for the
# refitted cross-validated rule set, with the value of its master IP.

# %%
from optirules.plotting import plot_column_generation

fig, ax = plt.subplots(figsize=(7, 3.8))
plot_column_generation(cv.best_estimator_, ax=ax)
plt.show()

# %%
complexity = penalty_path["rules + literals"].to_numpy()
overfit = (penalty_path["train accuracy"] - penalty_path["test accuracy"]).to_numpy()
assert (np.diff(complexity) <= 0).all() and complexity[0] > complexity[-1]
assert overfit[0] > overfit[-1]          # the smallest penalty overfits most
assert cv.best_index_ == int(np.argmax(cv.cv_results_["mean_score"]))
assert str(cv.rules_) == str(cv.best_estimator_.rules_)
print("penalty checks passed")
