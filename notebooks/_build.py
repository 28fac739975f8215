"""Regenerate the teaching notebooks 01-03 from the cell sources below.

Run ``python notebooks/_build.py`` from the repository root.  The notebooks are written
without outputs (``execution_count`` null), as the repository keeps them; the test suite
(``tests/test_notebooks.py``) executes them.  Edit the cells here, not in the ``.ipynb``
files, so the two never drift apart.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent


def md(text: str):
    return new_markdown_cell(textwrap.dedent(text).strip("\n"))


def code(text: str):
    return new_code_cell(textwrap.dedent(text).strip("\n"))


def notebook(cells) -> nbformat.NotebookNode:
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


# ============================================================================= 01
NB01 = [
    md(r"""
    # 01 · The rule master: an integer program, its LP relaxation and its duals

    A **rule set** (a DNF) predicts 1 when at least one of its clauses — conjunctions of
    binary *literals* such as `a1 == 1` — covers the row.  Seed 000
    (`000_7f302ee499b210e0.txt`, Section 3, following Dash, Günlük and Wei 2018) picks the
    rule set from a pool $K$ of candidate clauses by an integer program over weights $P_i$
    on the rows ($P^+$ the label-1 rows, $Z_k$ the label-0 rows clause $k$ covers,
    $K_i$ the clauses covering row $i$, $c_k = 1 + |k|$ the complexity of clause $k$):

    $$
    \begin{aligned}
    \min\quad & \sum_{i \in P^+} \xi_i + \sum_{k \in K} \Big(\sum_{i \in Z_k} P_i\Big) w_k && (6)\\
    \text{s.t.}\quad & \xi_i + P_i \sum_{k \in K_i} w_k \ge P_i,\quad \xi_i \ge 0 \qquad i \in P^+ && (7)\\
    & \sum_{k \in K} c_k w_k \le C,\quad w_k \in \{0, 1\} \qquad k \in K && (8)
    \end{aligned}
    $$

    $\xi_i$ is $P_i$ when positive row $i$ is missed, and each chosen clause pays the weight
    of the negatives it covers: a *weighted Hamming loss*.  This notebook builds the model with
    `optirules.models.RuleMasterModel`, looks at it, solves the IP and its LP relaxation,
    reads the duals, exports the `.lp` file next to the equations above and swaps solvers.
    """),
    code("""
    import itertools

    import matplotlib.pyplot as plt
    import numpy as np

    from optirules.data import FeatureBinarizer, load_dataset
    from optirules.models import HighsRuleMaster, RuleMasterModel, reduced_costs
    from optirules.solvers import available_solvers, read_model
    """),
    md("""
    ## Data: MONK's problem 1

    124 training rows, six categorical attributes `a1..a6` (stored as codes, so we name them
    categorical), label 1 iff `a1 == a2` or `a5 == 1`.  The binarizer turns them into 30
    literals (`==` and, as negations, `!=`).  The pool is **every clause of one or two
    literals**: 465 columns.  Uniform weights $P_i = 1/N$ recover Dash et al.'s master.
    """),
    code("""
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
    """),
    md("""
    ## The declarative model

    `RuleMasterModel(...).model` is a Pyomo `ConcreteModel` whose components carry the
    seed's names and readable indices (`w[clause_17]`, `cover[i_42]`).  We use the budget
    $C = 6$: room for three single literals, or two 2-literal clauses, but not for the
    four clauses MONK-1 needs.
    """),
    code("""
    C = 6
    ip = RuleMasterModel(A, y, pool, complexity_budget=C)
    m = ip.model
    for comp in (m.rows, m.clauses, m.xi, m.w, m.hamming_loss, m.cover, m.complexity):
        print(f"{comp.name:13s} {type(comp).__name__:18s} {len(comp):4d}  {comp.doc or ''}")


    def short(text, n=260):
        return text if len(text) <= n else text[: n // 2] + " ... " + text[-n // 2:]


    print()
    print("cover[i_0]:", short(str(m.cover["i_0"].expr)))
    print("complexity:", short(str(m.complexity.expr)))
    """),
    md("""
    ## The integer program

    `solve()` goes through `optirules.solvers.solve` (HiGHS by default) and reads the
    solution back into named arrays.  We recompute the weighted Hamming loss of the chosen
    rules by hand: missed positives plus, per clause, the weight of the negatives it covers.
    """),
    code("""
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
    """),
    md(r"""
    ## The LP relaxation and its duals

    With `relax=True` the model keeps $w \ge 0$ and drops $w \le 1$, which never changes the
    LP optimum (every clause cost is $\ge 0$; see the class docstring).  Its dual has a price $\mu_i \in [0, 1]$ for each cover row (7) and
    a price $\lambda \ge 0$ for the budget (8):

    $$
    \max_{\mu,\lambda}\ \sum_{i \in P^+} P_i \mu_i - C\lambda
    \quad\text{s.t.}\quad
    r(k) = \lambda c_k + \sum_{i \in Z_k} P_i - \sum_{i \in P^+,\, k \in K_i} \mu_i P_i \;\ge 0
    \quad (k \in K).
    $$

    $r(k)$ is the **reduced cost** of column $w_k$; at an LP optimum every column has
    $r(k) \ge 0$, and strong duality makes the two objectives equal.  $\mu_i = 1$ marks a
    positive row the LP leaves (partly) uncovered, $\lambda$ is what one more unit of
    budget is worth.
    """),
    code("""
    lp = RuleMasterModel(A, y, pool, complexity_budget=C, relax=True)
    lp.solve()
    mu, lam = lp.cover_duals_, lp.complexity_dual_
    values, counts = np.unique(mu.round(9) + 0.0, return_counts=True)  # + 0.0: no "-0.0"
    print(f"LP bound {lp.objective_:.6f}  <=  IP optimum {ip.objective_:.6f}")
    print("cover duals mu:", dict(zip(values.tolist(), counts.tolist())), f"  lambda = {lam:.6f}")
    dual_objective = P[y == 1] @ mu - C * lam
    print(f"dual objective sum P_i mu_i - C lambda = {dual_objective:.6f}")

    r = reduced_costs(A, y, pool, mu, lam=lam)
    print(f"min reduced cost over the pool: {r.min():.2e};"
          f" largest gap to HiGHS's own reduced costs: {np.abs(r - lp.reduced_costs_).max():.1e}")
    print("fractional LP solution:")
    for k in np.flatnonzero(lp.w_ > 1e-9):
        print(f"   w = {lp.w_[k]:.3f}  r = {r[k]:+.1e}  {show(pool[k])}")
    """),
    md(r"""
    ## The exported `.lp` file beside the seed's equations

    `write()` exports the model through Pyomo with its symbolic names, so the file reads
    like the paper.  Pyomo names a `>=` row `c_l_<name>_` and a `<=` row `c_u_<name>_`:

    | seed | in the file |
    |---|---|
    | (6) $\min \sum_{i \in P^+} \xi_i + \sum_k (\sum_{i \in Z_k} P_i) w_k$ | objective `hamming_loss`: `+1 xi(i_0)` …, `+0.25 w(clause_0)` … |
    | (7) $\xi_i + P_i \sum_{k \in K_i} w_k \ge P_i$ | `c_l_cover(i_0)_`: `+1 xi(i_0) +0.00806… w(clause_0) … >= 0.00806…` |
    | (8) $\sum_k c_k w_k \le C$ | `c_u_complexity_`: `+2.0 w(clause_0) … +3.0 w(clause_30) … <= 6.0` |
    | $\xi_i \ge 0$ | `bounds`: `0 <= xi(i_0) <= +inf` |
    | $w_k \in \{0, 1\}$ | `bounds` `0 <= w(clause_0) <= 1` and the `binary` section |
    """),
    code("""
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
    print(f"{'seed 000':44s}| {lp_file} ({len(lines)} lines)")
    for left, right in panels:
        print("-" * 44 + "+" + "-" * 40)
        for t in range(max(len(left), len(right))):
            a = left[t] if t < len(left) else ""
            b = right[t] if t < len(right) else ""
            print(f"{a:44s}| {b}")
    """),
    md("""
    ## Swapping solvers

    The same formulation three ways: Pyomo handing the model to HiGHS (above), the direct
    `highspy` path `HighsRuleMaster` (the LP kept warm inside HiGHS, used for column
    generation in notebook 02), and HiGHS reading the exported file (`read_model`).
    `available_solvers("pyomo")` lists what else could take the Pyomo model on this machine
    (CBC, GLPK, SCIP or Gurobi when installed: pass `ip.solve("cbc")`).  The duals of this
    degenerate LP need not be the same vertex on both routes, but both are optimal: both
    price every column non-negatively and reach the same dual objective.
    """),
    code("""
    print("solvers for Pyomo models here:", [s.name for s in available_solvers("pyomo")])

    fast = HighsRuleMaster(A, y, pool, complexity_budget=C)
    fast.solve()
    r_fast = reduced_costs(A, y, pool, fast.cover_duals_, lam=fast.complexity_dual_)
    fast_dual = P[y == 1] @ fast.cover_duals_ - C * fast.complexity_dual_
    from_file = read_model(lp_file)

    print(f"LP  Pyomo -> HiGHS: {lp.objective_:.9f}   highspy: {fast.objective_:.9f}"
          f"   (dual objective {fast_dual:.9f}, min r {r_fast.min():.1e})")
    print(f"IP  Pyomo -> HiGHS: {ip.objective_:.9f}   HiGHS reading {lp_file}:"
          f" {from_file.objective:.9f} ({from_file.status})")
    """),
    md(r"""
    ## Picture: the LP bound and the IP optimum as the budget grows

    For every budget $C$ we solve the IP (Pyomo → HiGHS) and the LP (highspy).  The LP value
    is convex and piecewise linear in $C$, and $\lambda$ is (minus) its slope: for any other
    budget $C'$, $\mathrm{LP}(C') \ge \mathrm{LP}(C) - \lambda (C' - C)$.  The IP is a
    staircase above it; the two meet where the budget is spent exactly by whole clauses.
    """),
    code("""
    budgets = list(range(2, 12))
    ip_value, lp_value, lp_lambda, chosen = [], [], [], {}
    for b in budgets:
        model = RuleMasterModel(A, y, pool, complexity_budget=b)
        model.solve()
        ip_value.append(model.objective_)
        chosen[b] = model.selected_
        relaxed = HighsRuleMaster(A, y, pool, complexity_budget=b)
        lp_value.append(relaxed.solve())
        lp_lambda.append(relaxed.complexity_dual_)

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.8))
    left.step(budgets, ip_value, where="post", label="IP optimum (rule set)", lw=2)
    left.plot(budgets, lp_value, "o--", label="LP relaxation (bound)")
    left.set(xlabel="complexity budget C", ylabel="weighted Hamming loss",
             title="MONK-1: LP bound vs IP optimum")
    left.legend()
    right.bar(budgets, lp_lambda, color="tab:orange")
    right.set(xlabel="complexity budget C", ylabel=r"dual $\\lambda$ of row (8)",
              title="price of one unit of budget")
    fig.tight_layout()
    plt.show()

    Xt, yt = load_dataset("monks1_test")
    At = binarizer.transform(Xt)
    rules_11 = chosen[11]
    test_pred = np.any([At[:, list(k)].all(axis=1) for k in rules_11], axis=0)
    print("C = 11 rule set:", " OR ".join(f"({show(k)})" for k in rules_11))
    print(f"its accuracy on the 432 rows of monks1_test: {np.mean(test_pred == yt):.3f}")
    """),
    md("""
    ## What this notebook teaches, checked
    """),
    code("""
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
    """),
]


# ============================================================================= 02
NB02 = [
    md(r"""
    # 02 · Column generation, step by step

    Notebook 01 solved the rule master over *every* clause of at most two literals — 465
    columns.  With more literals or longer clauses the pool explodes, so seed 000 (Section 3,
    after eq 8) follows Dash, Günlük and Wei (2018): solve the LP relaxation over a small
    pool, ask a **pricing problem** for a clause of negative reduced cost

    $$
    r(k) = \lambda c_k + \sum_{i \in Z,\ k \text{ covers } i} P_i
           - \sum_{i \in P^+,\ k \text{ covers } i} \mu_i P_i,\qquad c_k = 1 + |k|,
    $$

    add it, and repeat until no clause with at most $D$ literals has $r(k) < 0$.  Then the
    restricted LP *is* the LP over all such clauses — a **lower bound** on the best rule
    set — and the integer program over the generated columns gives a rule set whose distance
    to that bound is a **certified gap**.  Along the way, since every clause has
    $c_k \ge 2$ and so any solution has $\sum_k w_k \le C/2$, each exact pricing round
    also gives a Lagrangian lower bound

    $$
    \mathrm{LP}^\ast \;\ge\; \mathrm{LP}_{\text{restricted}} + \tfrac{C}{2}\,\min\big(0,\ \min_k r(k)\big).
    $$

    Pricing two ways: `beam_search_pricing` (fast, may miss the best clause) and the exact
    MILP `RulePricingModel` (Dash et al.'s formulation).
    """),
    code("""
    import itertools

    import matplotlib.pyplot as plt
    import numpy as np
    import pandas as pd

    from optirules.data import FeatureBinarizer, load_dataset
    from optirules.models import (
        HighsRuleMaster,
        RuleMasterModel,
        RulePricingModel,
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
    """),
    md(r"""
    ## Iteration 0 by hand

    Start from an **empty pool**.  The LP is then $\min \sum \xi_i$ with $\xi_i \ge P_i$:
    every positive row is uncovered, so every cover dual is $\mu_i = 1$ and the budget is
    free ($\lambda = 0$).  The reduced cost of a clause is then just (weight of the negatives
    it covers) − (weight of the positives it covers).  We compute it with numpy and with
    `reduced_costs`.
    """),
    code("""
    start = HighsRuleMaster(A, y, [], complexity_budget=C)   # direct highspy LP, kept warm
    start.solve()
    mu0, lam0 = start.cover_duals_, start.complexity_dual_
    print(f"LP value {start.objective_:.4f} (= weight of the positives),"
          f" mu in [{mu0.min()}, {mu0.max()}], lambda = {lam0}")

    singles = [(j,) for j in range(L)]
    by_hand = np.array([lam0 * 2 + P[(y == 0) & A[:, j].astype(bool)].sum()
                        - (mu0 * P[y == 1])[A[y == 1, j].astype(bool)].sum() for j in range(L)])
    library = reduced_costs(A, y, singles, mu0, lam=lam0)
    best = int(np.argmin(library))
    print(f"best single literal: {literals[best]}  r = {library[best]:.4f}"
          f"  (by hand {by_hand[best]:.4f}; largest difference {np.abs(by_hand - library).max():.1e})")
    """),
    md(r"""
    ## The pricing MILP, declared and exported

    With $z_j = 1$ iff literal $j$ is in the clause, $\delta_i = 1$ iff the clause covers row
    $i$, $S_i$ the literals that are 0 in row $i$ and the row prices $v_i = P_i$ on $Z$,
    $v_i = -\mu_i P_i$ on $P^+$:

    $$
    \begin{aligned}
    \min\quad & (\lambda + \lambda_0) + (\lambda + \lambda_1)\textstyle\sum_j z_j + \sum_i v_i \delta_i
        && \texttt{reduced\_cost}\\
    \text{s.t.}\quad & \delta_i + \textstyle\sum_{j \in S_i} z_j \ge 1 \quad (i \in Z)
        && \texttt{covers\_negative(i)}\\
    & \delta_i + z_j \le 1 \quad (i \in P^+,\ j \in S_i) && \texttt{covers\_positive(i, j)}\\
    & 1 \le \textstyle\sum_j z_j \le D && \texttt{min\_degree},\ \texttt{max\_degree}\\
    & z \in \{0,1\}^L,\ \delta \in [0, 1]^N
    \end{aligned}
    $$

    ($\lambda_0 = \lambda_1 = 0$ in the budget form used here.)  Rows with a zero price are
    left out.  Below: the model's components and the first lines of each block of its
    `.lp` export.
    """),
    code("""
    pricing = RulePricingModel(A, y, None, mu0, lam0, max_degree=D)
    pm = pricing.model
    for comp in (pm.z, pm.delta, pm.reduced_cost, pm.covers_negative, pm.covers_positive,
                 pm.max_degree, pm.min_degree):
        print(f"{comp.name:16s} {type(comp).__name__:18s} {len(comp):5d}  {comp.doc or ''}")

    pricing.write("pricing_iteration0.lp")
    lines = open("pricing_iteration0.lp").read().splitlines()
    for head in ("min", "c_l_covers_negative", "c_u_covers_positive", "c_u_max_degree_"):
        i = next(t for t, s in enumerate(lines) if s.startswith(head))
        print("   " + "\\n   ".join(lines[i:i + 4]) + "\\n   ...")
    pricing.solve()
    print(f"exact pricing at iteration 0: {show(pricing.clause_)}  r = {pricing.reduced_cost_:.4f}")
    """),
    md("""
    ## The loop

    Each round: re-solve the restricted LP from its warm basis (`HighsRuleMaster.solve`),
    read the duals, run a **deliberately narrow beam** (width 1, the greedy choice) and the
    exact MILP, add the beam's clause when it prices out negative, otherwise the exact one,
    and stop when the exact MILP certifies that no clause of at most $D$ literals has a
    negative reduced cost.  (A production loop runs the MILP only when the beam fails; we
    run both every round to compare them.)
    """),
    code("""
    master = HighsRuleMaster(A, y, [], complexity_budget=C)
    history = []
    for iteration in range(30):
        lp_value = master.solve()
        duals = master.duals_for_pricing_
        (beam_clause, beam_rc), = beam_search_pricing(A, y, None, duals["mu"], duals["lam"],
                                                      max_degree=D, beam_width=1, k=1)
        exact = RulePricingModel(A, y, None, duals["mu"], duals["lam"], max_degree=D)
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
    """),
    md("""
    When the greedy beam finds nothing negative (`beam r` = 0) the exact MILP still does: a
    loop that trusted the beam would have stopped early, with a restricted LP value that is
    **not** a bound on anything.  At the end we do not take the MILP's word for it either:
    we enumerate all 465 clauses of at most two literals and price them at the final duals.
    """),
    code("""
    stalls = table[table["by"] == "exact"]
    if len(stalls):
        first = stalls.index[0]
        print(f"the beam alone would have stopped at iteration {first} with LP value"
              f" {table.loc[first, 'LP']:.5f}; the true LP bound is {lp_bound:.5f}")

    everything = [k for d in range(1, D + 1) for k in itertools.combinations(range(L), d)]
    r_all = reduced_costs(A, y, everything, master.cover_duals_, lam=master.complexity_dual_)
    print(f"min reduced cost over all {len(everything)} clauses at the final duals: {r_all.min():.2e}")
    print(f"generated {len(master.clauses_)} of {len(everything)} columns")
    """),
    md("""
    ## The integer program over the generated columns, and the certified gap

    `to_model()` turns the warm highspy LP into the declarative `RuleMasterModel` over the
    same pool; as an IP it returns the rule set.  Its objective minus the LP bound is the
    certified gap: no rule set of clauses with at most two literals can beat the LP bound.
    For this small problem we can also solve the IP over all 465 clauses (as notebook 01
    did) and see where the true optimum lies inside the gap.
    """),
    code("""
    final = master.to_model()                 # RuleMasterModel over the generated pool, as an IP
    final.solve()
    gap = final.objective_ - lp_bound
    print(f"IP over generated columns: {final.objective_:.5f}   LP bound: {lp_bound:.5f}"
          f"   certified gap: {gap:.5f} ({gap / final.objective_:.1%} of the IP value)")
    for k in final.selected_:
        print("   IF", show(k))

    full = RuleMasterModel(A, y, everything, complexity_budget=C)
    full.solve()
    print(f"IP over all {len(everything)} clauses: {full.objective_:.5f}")
    """),
    md("""
    ## Swapping solvers and exporting the final models

    The restricted LP through Pyomo (`to_model(relax=True)`, HiGHS via Pyomo) must give the
    warm highspy value; the final IP written as MPS and solved from the file by HiGHS must
    give the Pyomo value.  The warm LP itself can be exported with HiGHS's writer, one row
    per line.
    """),
    code("""
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
    print("\\n".join(rows_with_w[:2] + [s for s in restricted if s.startswith(" complexity")]))
    """),
    md("""
    ## Picture: the LP objective per iteration, and beam vs exact pricing
    """),
    code("""
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
    """),
    md("""
    ## What this notebook teaches, checked
    """),
    code("""
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
    """),
]


# ============================================================================= 03
NB03 = [
    md(r"""
    # 03 · Worst-case distributions: $\chi^2$ and KL balls

    Seed 000 trains rule ensembles against the **worst-case weights** on the training rows:
    given losses $z_i$, eq 9 asks for the pmf $P$ within a $\phi$-divergence ball of radius
    $\rho$ around the empirical pmf $P^0 = (1/N, \dots, 1/N)$ that maximizes the expected
    loss,

    $$
    R = \max_P \sum_{i} P_i z_i \quad\text{s.t.}\quad \sum_i \phi(N P_i) \le N\rho,\quad
    \sum_i P_i = 1,\quad P \ge 0, \tag{9}
    $$

    with the modified $\chi^2$, $\phi(s) = (s-1)^2$, or Kullback–Leibler,
    $\phi(s) = s\log s - s + 1$.  The optimality conditions give the shape of the answer:

    * $\chi^2$: $P_i \propto (z_i - \eta)_+$ — **affine** in the loss, and exactly **zero**
      below a threshold $\eta$;
    * KL: $P_i \propto \exp(z_i / \tau)$ — **exponential** tilting, never zero.

    `optirules.models` offers the declarative CVXPY model `WorstCasePmfModel` and the exact
    one-dimensional solver `worst_case_pmf(z, rho, divergence, method="exact")`.
    """),
    code("""
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
    """),
    md("""
    ## Eight losses, two balls

    A toy vector of losses and radius $\\rho = 1$.  First the declarative models as CVXPY
    prints them: the $\\chi^2$ row is written as a second-order cone
    $\\lVert NP - 1\\rVert_2 \\le \\sqrt{\\rho N}$, the KL row with `rel_entr`
    (exponential cones).
    """),
    code("""
    z_toy = np.array([0.0, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 0.9])
    rho_toy = 1.0
    chi2_model = WorstCasePmfModel(z_toy, rho_toy, "chi2")
    kl_model = WorstCasePmfModel(z_toy, rho_toy, "kl")
    print(chi2_model.model, end="\\n\\n")
    print(kl_model.model)
    """),
    md("""
    ## Three solvers for the same pmf

    The exact Lagrangian solver, Clarabel (interior point, SOCP and exponential cones) and
    SCS (first-order splitting), with Clarabel's tolerances tightened from $10^{-8}$ to
    $10^{-9}$ (solver options pass straight through `solve`).  Watch the two error columns:
    the objectives agree to about $10^{-10}$, the pmfs only to about $10^{-6}$.  Near the
    optimum the objective is flat along the boundary of the ball, so an objective error
    $\\varepsilon$ leaves room for a pmf error of order $\\sqrt{\\varepsilon}$.
    """),
    code("""
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
    """),
    md(r"""
    The $\chi^2$ pmf gives the smallest loss **no weight at all**, the KL pmf keeps every
    row.  Both shapes are checked at the end: on its support the $\chi^2$ pmf is affine in $z$
    (and its zero crossing $\eta$ lies above the losses it drops), while $\log P$ under KL is
    affine in $z$ everywhere (slope $1/\tau$).
    """),
    code("""
    support = toy["chi2"] > 0
    slope, intercept = np.polyfit(z_toy[support], toy["chi2"][support], 1)
    eta = -intercept / slope
    chi2_affine_residual = np.abs(slope * z_toy[support] + intercept - toy["chi2"][support]).max()
    print(f"chi2: P_i = {slope:.4f} (z_i - eta)_+ with eta = {eta:.4f};"
          f" residual {chi2_affine_residual:.1e}; dropped losses {z_toy[~support]}")
    beta, log_norm = np.polyfit(z_toy, np.log(toy["kl"]), 1)
    kl_affine_residual = np.abs(beta * z_toy + log_norm - np.log(toy["kl"])).max()
    print(f"kl:   log P_i = z_i / tau - const with tau = {1 / beta:.4f}; residual {kl_affine_residual:.1e}")
    """),
    md(r"""
    ## Exporting: only the linear part has an LP form

    The divergence rows are cones, which `.lp` and `.mps` files cannot express, and the export
    says so.  Dropping the divergence row ($\rho = \infty$) leaves a linear program — all mass
    on the largest loss — which exports and re-solves from the file:

    $$
    \max_P\ \sum_i z_i P_i \quad\text{s.t.}\quad \sum_i P_i = 1,\ P \ge 0 .
    $$
    """),
    code("""
    try:
        chi2_model.write("worst_case_chi2.lp")
    except ModelFormatError as error:
        print("ModelFormatError:", error)

    linear = WorstCasePmfModel(z_toy, np.inf)
    linear.write("worst_case_rho_inf.lp")
    print(open("worst_case_rho_inf.lp").read())
    from_file = read_model("worst_case_rho_inf.lp")
    print(f"solved from the file: {from_file.objective}  (max z = {z_toy.max()})")
    """),
    md(r"""
    ## Real data: the losses of a classifier on heart disease data

    `heart_statlog` (270 patients), a logistic regression on the binarized features, and
    out-of-fold probabilities $F(x_i)$ from 5-fold cross-validation.  The loss is seed 000's
    margin loss (its eq 2): $z_i = |F(x_i) - \tfrac12| \cdot \mathbb 1(\hat y_i \ne y_i)$,
    zero on every correctly classified row.
    """),
    code("""
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
    """),
    md("""
    ### Exact vs CVXPY on the real losses

    Two radii, both divergences.  With 270 rows every $P_i$ is small, and Clarabel (at
    $10^{-9}$) matches the exact pmf entry by entry to $10^{-6}$, the objective far better;
    the exact solver takes well under a millisecond.
    """),
    code("""
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
    """),
    md(r"""
    ### Where the balls put the mass

    The modified $\chi^2$ here is the usual $\chi^2(P \| P^0)$, and
    $\mathrm{KL}(P\|P^0) \le \log(1 + \chi^2(P\|P^0))$: the $\chi^2$ ball of radius $\rho$ lies
    inside the KL ball of radius $\log(1+\rho) \le \rho$.  So at equal radius KL is the more
    pessimistic, and it tilts *exponentially* towards the largest losses, while $\chi^2$ shifts
    weight *linearly*.  With these losses ($z_i = 0$ on the correct rows) the $\chi^2$
    threshold $\eta$ reaches 0 exactly at

    $$
    \rho^\ast = \frac{N \sum_i z_i^2}{\big(\sum_i z_i\big)^2} - 1,
    $$

    the divergence of $P_i \propto z_i$; from there on the correctly classified rows get no
    weight at all.  KL never drops a row while $\rho < \log(N/k)$, $k$ the number of rows
    sharing the largest loss (here $k = 1$); beyond that all mass sits on those rows.
    """),
    code("""
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
    """),
    md("""
    ## Picture: $P$ against $z$ for both divergences and several radii

    The vertical axis is $N P_i$, the weight relative to the empirical $1/N$.  Left: $\\chi^2$
    weights are straight lines in $z$ (flat zero below $\\eta$ once $\\rho > \\rho^\\ast$, drawn
    dotted); middle, on a log scale: KL weights are exponentials in $z$, i.e. straight lines
    of slope $1/\\tau$ that steepen as $\\rho$ grows; right: the worst-case risk $R(\\rho)$, the
    dotted line at $\\rho^\\ast$.
    """),
    code("""
    order = np.argsort(z)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    for ax, div, title in ((axes[0], "chi2", r"modified $\\chi^2$"), (axes[1], "kl", "KL")):
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
    """),
    md("""
    ## What this notebook teaches, checked
    """),
    code("""
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
    """),
]


NOTEBOOKS = {
    "01_rule_master.ipynb": NB01,
    "02_column_generation.ipynb": NB02,
    "03_worst_case_distributions.ipynb": NB03,
}


def main() -> None:
    for name, cells in NOTEBOOKS.items():
        nb = notebook(cells)
        nbformat.validate(nb)
        nbformat.write(nb, HERE / name)
        print("wrote", HERE / name)


if __name__ == "__main__":
    main()
