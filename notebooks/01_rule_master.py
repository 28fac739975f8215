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
# # 01 · The rule master: an integer program, its LP relaxation and its duals
#
# A **rule set** (a DNF) predicts 1 when at least one of its clauses — conjunctions of
# binary *literals* such as `a1 == 1` — covers the row.  The DRO paper
# (*Obtaining Explainable Classification Models using Distributionally Robust Optimization*, Section 3, following Dash, Günlük and Wei 2018) picks the
# rule set from a pool $K$ of candidate clauses by an integer program over weights $P_i$
# on the rows ($P^+$ the label-1 rows, $Z_k$ the label-0 rows clause $k$ covers,
# $K_i$ the clauses covering row $i$, $c_k = 1 + |k|$ the complexity of clause $k$):
#
# $$
# \begin{aligned}
# \min\quad & \sum_{i \in P^+} \xi_i + \sum_{k \in K} \Big(\sum_{i \in Z_k} P_i\Big) w_k && (6)\\
# \text{s.t.}\quad & \xi_i + P_i \sum_{k \in K_i} w_k \ge P_i,\quad \xi_i \ge 0 \qquad i \in P^+ && (7)\\
# & \sum_{k \in K} c_k w_k \le C,\quad w_k \in \{0, 1\} \qquad k \in K && (8)
# \end{aligned}
# $$
#
# $\xi_i$ is $P_i$ when positive row $i$ is missed, and each chosen clause pays the weight
# of the negatives it covers: a *weighted Hamming loss*.  This notebook builds the model with
# `optirules.models.RuleMasterModel`, looks at it, solves the IP and its LP relaxation,
# reads the duals, exports the `.lp` file next to the equations above and swaps solvers.

# %%
import itertools

import matplotlib.pyplot as plt
import numpy as np

from optirules.data import FeatureBinarizer, load_dataset
from optirules.models import HighsRuleMaster, PricingDuals, RuleMasterModel, reduced_costs
from optirules.solvers import available_solvers, read_model

# %% [markdown]
# ## Data: MONK's problem 1
#
# 124 training rows, six categorical attributes `a1..a6` (stored as codes, so we name them
# categorical), label 1 iff `a1 == a2` or `a5 == 1`.  The binarizer turns them into 30
# literals (`==` and, as negations, `!=`).  The pool is **every clause of one or two
# literals**: 465 columns.  Uniform weights $P_i = 1/N$ recover Dash et al.'s master.

# %%
X, y = load_dataset("monks1_train")
binarizer = FeatureBinarizer(categorical_features=list(X.columns))
A = binarizer.fit_transform(X)
literals = binarizer.get_feature_names_out()
N, L = A.shape
P = np.full(N, 1.0 / N)
pool = [k for d in (1, 2) for k in itertools.combinations(range(L), d)]


def show(clause):
    return " AND ".join(literals[j] for j in clause)


print(f"{N} rows ({int(y.sum())} with label 1), {L} literals, {len(pool)} clauses in the pool")
print("first literals:", list(literals[:6]))
print("clause 40:", show(pool[40]), "  cost c_k =", 1 + len(pool[40]))

# %% [markdown]
# ## The declarative model
#
# `RuleMasterModel(...).model` is a Pyomo `ConcreteModel` whose components carry the
# seed's names and readable indices (`w[clause_17]`, `cover[i_42]`).  We use the budget
# $C = 6$: room for three single literals, or two 2-literal clauses, but not for the
# four clauses MONK-1 needs.

# %%
C = 6
ip = RuleMasterModel(A, y, pool, complexity=C)
m = ip.model
for comp in (m.rows, m.clauses, m.xi, m.w, m.hamming_loss, m.cover, m.complexity):
    print(f"{comp.name:13s} {type(comp).__name__:18s} {len(comp):4d}  {comp.doc or ''}")


def short(text, n=260):
    return text if len(text) <= n else text[: n // 2] + " ... " + text[-n // 2:]


print()
print("cover[i_0]:", short(str(m.cover["i_0"].expr)))
print("complexity:", short(str(m.complexity.expr)))

# %% [markdown]
# ## The integer program
#
# `solve()` goes through `optirules.solvers.solve` (HiGHS by default) and reads the
# solution back into named arrays.  We recompute the weighted Hamming loss of the chosen
# rules by hand: missed positives plus, per clause, the weight of the negatives it covers.

# %%
result = ip.solve()
print(result.status, f"objective {result.objective:.6f}", f"gap {result.gap}",
      f"({result.solver} {result.solver_version}, {result.wall_time:.2f} s)")
for k in ip.selected_:
    print("   IF", show(k))

covers = {k: A[:, list(k)].all(axis=1) for k in ip.selected_}
predicted = np.any([covers[k] for k in ip.selected_], axis=0)
missed = P[(y == 1) & ~predicted].sum()
negatives_paid = sum(P[(y == 0) & covers[k]].sum() for k in ip.selected_)
hamming = missed + negatives_paid
print(f"by hand: missed positives {missed:.4f} + covered negatives {negatives_paid:.4f}"
      f" = {hamming:.6f};  0-1 training error {np.mean(predicted != y):.4f}")

# %% [markdown]
# ## The LP relaxation and its duals
#
# With `relax=True` the model keeps $w \ge 0$ and drops $w \le 1$, which never changes the
# LP optimum (every clause cost is $\ge 0$; see the class docstring).  Its dual has a price $\mu_i \in [0, 1]$ for each cover row (7) and
# a price $\lambda \ge 0$ for the budget (8):
#
# $$
# \max_{\mu,\lambda}\ \sum_{i \in P^+} P_i \mu_i - C\lambda
# \quad\text{s.t.}\quad
# r(k) = \lambda c_k + \sum_{i \in Z_k} P_i - \sum_{i \in P^+,\, k \in K_i} \mu_i P_i \;\ge 0
# \quad (k \in K).
# $$
#
# $r(k)$ is the **reduced cost** of column $w_k$; at an LP optimum every column has
# $r(k) \ge 0$, and strong duality makes the two objectives equal.  $\mu_i = 1$ marks a
# positive row the LP leaves (partly) uncovered, $\lambda$ is what one more unit of
# budget is worth.

# %%
lp = RuleMasterModel(A, y, pool, complexity=C, relax=True)
lp.solve()
mu, lam = lp.cover_duals_, lp.complexity_dual_
values, counts = np.unique(mu.round(9) + 0.0, return_counts=True)  # + 0.0: no "-0.0"
print(f"LP bound {lp.objective_:.6f}  <=  IP optimum {ip.objective_:.6f}")
print("cover duals mu:", dict(zip(values.tolist(), counts.tolist())), f"  lambda = {lam:.6f}")
dual_objective = P[y == 1] @ mu - C * lam
print(f"dual objective sum P_i mu_i - C lambda = {dual_objective:.6f}")

r = reduced_costs(A, y, pool, PricingDuals(mu, lam))
print(f"min reduced cost over the pool: {r.min():.2e};"
      f" largest gap to HiGHS's own reduced costs: {np.abs(r - lp.reduced_costs_).max():.1e}")
print("fractional LP solution:")
for k in np.flatnonzero(lp.w_ > 1e-9):
    print(f"   w = {lp.w_[k]:.3f}  r = {r[k]:+.1e}  {show(pool[k])}")

# %% [markdown]
# ## The exported `.lp` file beside the paper's equations
#
# `write()` exports the model through Pyomo with its symbolic names, so the file reads
# like the paper.  Pyomo names a `>=` row `c_l_<name>_` and a `<=` row `c_u_<name>_`:
#
# | seed | in the file |
# |---|---|
# | (6) $\min \sum_{i \in P^+} \xi_i + \sum_k (\sum_{i \in Z_k} P_i) w_k$ | objective `hamming_loss`: `+1 xi(i_0)` …, `+0.25 w(clause_0)` … |
# | (7) $\xi_i + P_i \sum_{k \in K_i} w_k \ge P_i$ | `c_l_cover(i_0)_`: `+1 xi(i_0) +0.00806… w(clause_0) … >= 0.00806…` |
# | (8) $\sum_k c_k w_k \le C$ | `c_u_complexity_`: `+2.0 w(clause_0) … +3.0 w(clause_30) … <= 6.0` |
# | $\xi_i \ge 0$ | `bounds`: `0 <= xi(i_0) <= +inf` |
# | $w_k \in \{0, 1\}$ | `bounds` `0 <= w(clause_0) <= 1` and the `binary` section |

# %%
lp_file = "rule_master_C6.lp"
ip.write(lp_file)
lines = open(lp_file).read().splitlines()


def excerpt(start, n, until=None):
    # n lines from the first line starting with `start`, then the line starting `until`
    i = next(t for t, s in enumerate(lines) if s.startswith(start))
    part = lines[i:i + n]
    if until is not None:
        j = next(t for t in range(i, len(lines)) if lines[t].startswith(until))
        part += ["   ..."] + [lines[j]]
    return part


first_w = next(s for s in lines if "w(clause_" in s)
objective = excerpt("min", 4) + ["   ..."] + excerpt(first_w, 2)
panels = [
    (["(6) min  sum_{i in P+} xi_i", "        + sum_k (sum_{i in Z_k} P_i) w_k"], objective),
    (["(7) xi_i + P_i sum_{k in K_i} w_k >= P_i", "    one row per i in P+ (here i = 0)"],
     excerpt("c_l_cover(i_0)_", 4, until=">=")),
    (["(8) sum_k c_k w_k <= C,  c_k = 1 + |k|"], excerpt("c_u_complexity_", 3, until="<=")),
    (["xi_i >= 0,  0 <= w_k <= 1"], excerpt("bounds", 3)),
    (["w_k in {0, 1}"], excerpt("binary", 3)),
]
print(f"{'the DRO paper':44s}| {lp_file} ({len(lines)} lines)")
for left, right in panels:
    print("-" * 44 + "+" + "-" * 40)
    for t in range(max(len(left), len(right))):
        a = left[t] if t < len(left) else ""
        b = right[t] if t < len(right) else ""
        print(f"{a:44s}| {b}")

# %% [markdown]
# ## Swapping solvers
#
# The same formulation three ways: Pyomo handing the model to HiGHS (above), the direct
# `highspy` path `HighsRuleMaster` (the LP kept warm inside HiGHS, used for column
# generation in notebook 02), and HiGHS reading the exported file (`read_model`).
# `available_solvers("pyomo")` lists what else could take the Pyomo model on this machine
# (CBC, GLPK, SCIP or Gurobi when installed: pass `ip.solve("cbc")`).  The duals of this
# degenerate LP need not be the same vertex on both routes, but both are optimal: both
# price every column non-negatively and reach the same dual objective.

# %%
print("solvers for Pyomo models here:", [s.name for s in available_solvers("pyomo")])

fast = HighsRuleMaster(A, y, pool, complexity=C)
fast.solve()
r_fast = reduced_costs(A, y, pool, PricingDuals(fast.cover_duals_, fast.complexity_dual_))
fast_dual = P[y == 1] @ fast.cover_duals_ - C * fast.complexity_dual_
from_file = read_model(lp_file)

print(f"LP  Pyomo -> HiGHS: {lp.objective_:.9f}   highspy: {fast.objective_:.9f}"
      f"   (dual objective {fast_dual:.9f}, min r {r_fast.min():.1e})")
print(f"IP  Pyomo -> HiGHS: {ip.objective_:.9f}   HiGHS reading {lp_file}:"
      f" {from_file.objective:.9f} ({from_file.status})")

# %% [markdown]
# ### A genuinely different solver: SCIP
#
# HiGHS (simplex and branch-and-bound from Edinburgh) and SCIP (constraint-integer
# programming from ZIB) share no code.  The IP goes to SCIP through Pyomo unchanged.  For
# the LP, column generation needs duals, which Pyomo's SCIP interface does not return:
# `RebuildRuleMaster(..., solver="scip")` hands the same LP to SCIP as a cvxpy problem and
# reads them there.  `optirules solvers` prints which installed solver can take the LP
# with duals, the MILP and the QP.

# %%
from optirules.models import RebuildRuleMaster

if "scip" in [s.name for s in available_solvers("pyomo")]:
    ip_scip = RuleMasterModel(A, y, pool, complexity=C)
    ip_scip.solve("scip")
    lp_scip = RebuildRuleMaster(A, y, pool, complexity=C, solver="scip")
    lp_scip.solve()
    print(f"IP  HiGHS {ip.objective_:.9f}   SCIP {ip_scip.objective_:.9f}"
          f"   same rule set: {sorted(ip.selected_) == sorted(ip_scip.selected_)}")
    print(f"LP  HiGHS {lp.objective_:.9f}   SCIP {lp_scip.objective_:.9f}"
          f"   (SCIP's duals: min reduced cost {lp_scip.reduced_costs_.min():.1e})")
    assert abs(ip_scip.objective_ - ip.objective_) < 1e-9
    assert abs(lp_scip.objective_ - lp.objective_) < 1e-9
    assert lp_scip.reduced_costs_.min() >= -1e-9
else:
    print("SCIP is not installed here: pip install 'optirules[solvers]'")

# %% [markdown]
# ## Picture: the LP bound and the IP optimum as the budget grows
#
# For every budget $C$ we solve the IP (Pyomo → HiGHS) and the LP (highspy).  The LP value
# is convex and piecewise linear in $C$, and $\lambda$ is (minus) its slope: for any other
# budget $C'$, $\mathrm{LP}(C') \ge \mathrm{LP}(C) - \lambda (C' - C)$.  The IP is a
# staircase above it; the two meet where the budget is spent exactly by whole clauses.

# %%
budgets = list(range(2, 12))
ip_value, lp_value, lp_lambda, chosen = [], [], [], {}
for b in budgets:
    model = RuleMasterModel(A, y, pool, complexity=b)
    model.solve()
    ip_value.append(model.objective_)
    chosen[b] = model.selected_
    relaxed = HighsRuleMaster(A, y, pool, complexity=b)
    lp_value.append(relaxed.solve())
    lp_lambda.append(relaxed.complexity_dual_)

fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.8))
left.step(budgets, ip_value, where="post", label="IP optimum (rule set)", lw=2)
left.plot(budgets, lp_value, "o--", label="LP relaxation (bound)")
left.set(xlabel="complexity budget C", ylabel="weighted Hamming loss",
         title="MONK-1: LP bound vs IP optimum")
left.legend()
right.bar(budgets, lp_lambda, color="tab:orange")
right.set(xlabel="complexity budget C", ylabel=r"dual $\lambda$ of row (8)",
          title="price of one unit of budget")
fig.tight_layout()
plt.show()

Xt, yt = load_dataset("monks1_test")
At = binarizer.transform(Xt)
rules_11 = chosen[11]
test_pred = np.any([At[:, list(k)].all(axis=1) for k in rules_11], axis=0)
print("C = 11 rule set:", " OR ".join(f"({show(k)})" for k in rules_11))
print(f"its accuracy on the 432 rows of monks1_test: {np.mean(test_pred == yt):.3f}")

# %% [markdown]
# ## The learner on the same data, and which rows its rules cover
#
# `BooleanRuleSetClassifier` generates the clauses itself (column generation, notebook 02)
# instead of taking the 465-clause pool; with the same budget $C = 11$ and no penalty it
# solves the same master.  `optirules.plotting.plot_rule_coverage` draws one line per rule
# and one column per training row (positives first): blue where the rule covers a
# positive row, red where it covers a negative one.

# %%
from optirules.learners import BooleanRuleSetClassifier
from optirules.plotting import plot_rule_coverage

learner = BooleanRuleSetClassifier(complexity=11, lambda0=0.0, lambda1=0.0, max_degree=2,
                                   random_state=0).fit(A, y)
print(learner.rules_)
plot_rule_coverage(learner, A, y)
plt.show()

# %% [markdown]
# ## What this notebook teaches, checked

# %%
tol = 1e-8
# the IP objective is the weighted Hamming loss of the rules it picked
assert abs(ip.objective_ - hamming) < tol
assert sum(1 + len(k) for k in ip.selected_) <= C
# the LP relaxation bounds the IP from below, at every budget
assert lp.objective_ <= ip.objective_ + tol
assert all(lo <= hi + tol for lo, hi in zip(lp_value, ip_value))
assert lp.objective_ < ip.objective_ - 1e-3  # at C = 6 the bound is not tight
# duals: 0 <= mu_i <= 1, lambda >= 0, strong duality, no column with negative reduced cost
assert mu.min() >= -tol and mu.max() <= 1 + tol and lam >= -tol
assert abs(dual_objective - lp.objective_) < tol
assert r.min() >= -tol and np.allclose(r, lp.reduced_costs_, atol=tol)
assert r_fast.min() >= -tol and abs(fast_dual - fast.objective_) < tol
# lambda is a subgradient of LP(C): LP(C') >= LP(C) - lambda(C) (C' - C)
for b, v, g in zip(budgets, lp_value, lp_lambda):
    assert all(v2 >= v - g * (b2 - b) - tol for b2, v2 in zip(budgets, lp_value))
# the same model, three routes: Pyomo and highspy agree, and so does the exported file
assert abs(fast.objective_ - lp.objective_) < tol
assert abs(from_file.objective - ip.objective_) < tol
# with the budget of MONK-1's four clauses (2 + 3 + 3 + 3), the rule set fits the data
assert ip_value[budgets.index(11)] < tol
print("all checks passed")
