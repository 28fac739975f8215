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
# # 09 · CNF rule sets, a forbidden feature, and rules that run in a database
#
# Three things the declarative master makes possible, on the Cleveland heart data (numeric,
# categorical and missing values):
#
# 1. **A CNF rule set** (an AND of ORs), as Dash, Günlük and Wei define it for BRCG
#    (NeurIPS 2018): learn a DNF for the other class and negate it by De Morgan,
#
#    $$
#    \neg\big(t_1 \vee \dots \vee t_M\big) = \neg t_1 \wedge \dots \wedge \neg t_M,
#    \qquad \neg(\ell_1 \wedge \dots \wedge \ell_C) = \neg \ell_1 \vee \dots \vee \neg \ell_C,
#    $$
#
#    where the negation of a literal is exact on missing values (a missing value satisfies
#    no comparison, so $\neg(x \le 5)$ is "$x > 5$ or $x$ is missing").
# 2. **A forbidden feature**: its literals cover no row, so no clause that uses one is ever
#    priced or chosen, and the certified gap is a gap over the clauses of the other
#    literals.
# 3. **SQL**: `to_sql` writes the fitted model as one `SELECT ... CASE` over the raw table,
#    with the binarizer's thresholds and its missing-value semantics; SQLite (in Python's
#    standard library) runs it here, and the predictions are compared with `predict`.

# %%
import sqlite3

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from optirules.data import load_dataset
from optirules.learners import BooleanRuleSetClassifier

X, y = load_dataset("heart_cleveland")
X_tr, X_te, y_tr, y_te = train_test_split(X, y, stratify=y, test_size=0.3, random_state=0)
print(X.shape, "missing values:", int(X.isna().sum().sum()))

# %% [markdown]
# ## DNF and CNF for the same class

# %%
dnf = BooleanRuleSetClassifier(random_state=0).fit(X_tr, y_tr)
cnf = BooleanRuleSetClassifier(form="cnf", random_state=0).fit(X_tr, y_tr)
print(dnf, "\n")
print(cnf)
print("\ntest accuracy: DNF", round(dnf.score(X_te, y_te), 3), " CNF", round(cnf.score(X_te, y_te), 3))

# %% [markdown]
# The CNF is the other class's DNF, negated: its predictions are those of a DNF fitted to
# describe class 0 (`target_class=0`), on every row, missing values included.

# %%
other = BooleanRuleSetClassifier(target_class=0, random_state=0).fit(X_tr, y_tr)
same = np.array_equal(cnf.predict(X), other.predict(X))
print("CNF predictions == the class-0 DNF's predictions:", same)
cnf.rules_table()

# %% [markdown]
# ## A feature no rule may test
#
# `thal` and `ca` come from imaging; suppose they are not available where the model is
# used.  Forbidding them changes which clauses exist, so the objective can only rise, and
# the certificate is over the clauses that remain.

# %%
free = dnf  # the unconstrained fit above
limited = BooleanRuleSetClassifier(forbidden_features=["thal", "ca"], random_state=0).fit(X_tr, y_tr)
print(limited)
used = {lit.feature for rule in limited.rules_ for lit in rule.conditions}
print("\nfeatures used:", sorted(used))
print("master objective without / with the constraint:",
      round(free.ip_objective_, 4), round(limited.ip_objective_, 4))
print("test accuracy without / with:", round(free.score(X_te, y_te), 3),
      round(limited.score(X_te, y_te), 3))

# %% [markdown]
# Which test rows each rule of the constrained set covers, and whether they are of its class:

# %%
from optirules.plotting import plot_rule_coverage

plot_rule_coverage(limited, X_te, y_te)

# %% [markdown]
# ## The rule set as SQL
#
# The whole table goes into SQLite; the query computes the prediction of every row where
# the data lives.

# %%
con = sqlite3.connect(":memory:")
table = X.assign(row_id=np.arange(len(X)))
table.to_sql("patients", con, index=False)
sql = limited.to_sql("patients", keep=("row_id",))
print(sql)
got = pd.read_sql_query(sql, con).sort_values("row_id")["prediction"].to_numpy()
mismatches = int((got != limited.predict(X)).sum())
print("rows:", len(got), " mismatches with predict:", mismatches)

# %%
assert same  # the CNF is the other class's DNF, negated
assert not used & {"thal", "ca"}  # the forbidden features appear in no rule
assert limited.gap_certified_ and limited.ip_objective_ >= free.ip_objective_ - 1e-9
assert mismatches == 0  # the SQL predicts as predict does, row for row
