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
# # 05 · Boosting with sparse parities and stumps: XOR, where stumps fail
#
# Reyzin's paper (*On Boosting Sparse Parities*, Reyzin) runs AdaBoost (its Algorithm 1) with three kinds of
# weak learners — decision stumps, **sparse parities** of degree $d$ and small CART trees.
# With labels $y_i \in \{-1,+1\}$ and a distribution $D_t$ over the rows, each round picks
# the hypothesis of largest **edge**, gives it a vote and re-weights the rows:
#
# $$
# \gamma_t = \sum_i D_t(i)\, y_i\, h_t(x_i),\qquad
# \alpha_t = \tfrac12 \ln\frac{1+\gamma_t}{1-\gamma_t},\qquad
# D_{t+1}(i) = \frac{D_t(i)\, e^{-\alpha_t y_i h_t(x_i)}}{Z_t},\qquad
# H(x) = \operatorname{sign}\sum_t \alpha_t h_t(x).
# $$
#
# On 0/1 features a parity of the set $J$ is the character
# $\chi_J(x) = (-1)^{\sum_{j\in J} x_j}$ (+1 when an even number of the features in $J$
# are 1); the weak learner returns the $\chi_J$ with $|J| \le d$, or its negation, of largest
# edge.  A stump on a 0/1 feature *is* a parity of degree 1, so the class of $d$-parities
# contains the stumps.  Here we take the textbook case where that matters:
# $y = x_0 \oplus x_1$ — each feature alone says nothing about the label.
#
# **No optimization model in this notebook.**  AdaBoost is a closed-form loop and the
# weak learners search their classes exhaustively by matrix products, so there is no LP or
# MPS file to export and no solver to swap.  What we export instead is the learned
# model itself, as JSON, and we check that the JSON alone reproduces every prediction.

# %%
import json

import matplotlib.pyplot as plt
import numpy as np

from optirules.learners import BoostingClassifier

# %% [markdown]
# ## Data: an XOR hidden among noise features
#
# 16 uniform random bits; the label is $x_0 \oplus x_1$, flipped on 3% of the rows (label
# noise); the other 14 bits are irrelevant.  600 rows to train on, 1000 to test.

# %%
rng = np.random.default_rng(0)
p, n_train, n_test = 16, 600, 1000
X = rng.integers(0, 2, size=(n_train + n_test, p))
clean = X[:, 0] ^ X[:, 1]
noisy = rng.random(n_train + n_test) < 0.03
y = np.where(noisy, 1 - clean, clean)
X_train, X_test, y_train, y_test = X[:n_train], X[n_train:], y[:n_train], y[n_train:]
print(f"{n_train} training rows, {n_test} test rows, {p} features;"
      f" label noise on {noisy.mean():.1%} of the rows")
print("P(y = 1 | x0 = 0) =", y_train[X_train[:, 0] == 0].mean().round(3),
      "  P(y = 1 | x0 = 1) =", y_train[X_train[:, 0] == 1].mean().round(3))

# %% [markdown]
# ## Every edge at once, by matrix products
#
# With $S = 1 - 2X \in \{-1,+1\}^{n\times p}$ (so $\chi_J(x_i) = \prod_{j\in J} S_{ij}$) and
# $u = D \circ y$, the edge of a parity is a weighted correlation (Reyzin's paper, "Sparse
# parities"):
#
# $$
# \gamma(\chi_\emptyset) = \textstyle\sum_i u_i,\qquad
# \gamma(\chi_{\{j\}}) = (S^\top u)_j,\qquad
# \gamma(\chi_{\{j,k\}}) = (S^\top \operatorname{diag}(u)\, S)_{jk}\ (j<k),
# $$
#
# and the negation of $\chi_J$ has edge $-\gamma(\chi_J)$.  In round 1 ($D$ uniform) we
# compute all $1 + 16 + 120$ edges and look at their absolute values: every single
# feature (a stump) has an edge of sampling noise, the pair $\{0, 1\}$ stands out.

# %%
y_pm = 2 * y_train - 1
S = 1 - 2 * X_train
u = np.full(n_train, 1 / n_train) * y_pm
edge0 = u.sum()
edge1 = S.T @ u
edge2 = S.T @ (u[:, None] * S)
pairs = np.triu_indices(p, 1)
best_pair = tuple(int(a[np.argmax(np.abs(edge2[pairs]))]) for a in pairs)
best_brute_force = max(abs(edge0), np.abs(edge1).max(), np.abs(edge2[pairs]).max())
print(f"|edge| of the constant: {abs(edge0):.3f}")
print(f"largest |edge| of a single feature (stump): {np.abs(edge1).max():.3f}"
      f" (feature {np.argmax(np.abs(edge1))})")
print(f"largest |edge| of a pair: {np.abs(edge2[pairs]).max():.3f} (features {best_pair})")

# %% [markdown]
# ## Two boosters, 50 rounds each
#
# `BoostingClassifier(weak_learner="stump")` and `weak_learner="parity", max_degree=2`.  The
# parity booster's first hypothesis is the pair found above, with the same edge.

# %%
T = 50
stumps = BoostingClassifier(weak_learner="stump", n_estimators=T).fit(X_train, y_train)
parities = BoostingClassifier(weak_learner="parity", max_degree=2, n_estimators=T).fit(X_train, y_train)
for name, clf in (("stumps", stumps), ("2-parities", parities)):
    print(f"{name}: {clf.n_estimators_} rounds ({clf.stop_reason_}),"
          f" train accuracy {clf.score(X_train, y_train):.3f},"
          f" test accuracy {clf.score(X_test, y_test):.3f}")
    print("\n".join(clf.to_text().splitlines()[:6]), "\n   ...")
print(f"first parity edge {parities.edges_[0]:.6f} = brute-force best {best_brute_force:.6f}")


# %% [markdown]
# ## Picture: the round-1 edges, and the error per round
#
# Left: $|\gamma(\chi_{\{j,k\}})|$ for every pair (diagonal: the single features).  Right:
# training and test error of $H_t$ after each round $t$ (`staged_predict`).  The stump
# booster hovers near chance however long it runs; the parity booster reaches the noise
# level (3% of the labels are flipped) with its first hypothesis and stays there, later
# rounds only chasing a few noisy training rows.

# %%
def staged_errors(clf, X, y):
    return np.array([np.mean(pred != y) for pred in clf.staged_predict(X)])


curves = {name: (staged_errors(clf, X_train, y_train), staged_errors(clf, X_test, y_test))
          for name, clf in (("stumps", stumps), ("2-parities", parities))}

heat = np.abs(edge2.copy())
np.fill_diagonal(heat, np.abs(edge1))
fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
image = axes[0].imshow(heat, cmap="viridis")
axes[0].set(title="round 1: |edge| of every 2-parity (diagonal: stumps)",
            xlabel="feature k", ylabel="feature j")
fig.colorbar(image, ax=axes[0])
for (name, (train_err, test_err)), color in zip(curves.items(), ("tab:red", "tab:blue")):
    rounds = np.arange(1, train_err.size + 1)
    axes[1].plot(rounds, train_err, "--", color=color, label=f"{name}: training")
    axes[1].plot(rounds, test_err, "-", color=color, label=f"{name}: test")
axes[1].axhline(0.5, color="grey", lw=0.8, ls=":")
axes[1].axhline(0.03, color="grey", lw=0.8, ls=":")
axes[1].set(xlabel="boosting round t", ylabel="error", title="AdaBoost on x0 XOR x1",
            ylim=(0, 0.6))
axes[1].legend()
fig.tight_layout()
plt.show()

# %% [markdown]
# The same boosters with `optirules.plotting.plot_boosting`: per round, the weighted error
# of the weak hypothesis, and on the test rows the vote's error and its least normalized
# margin $\min_i y_i F_t(x_i) / \sum_{s \le t} |\alpha_s|$.

# %%
from optirules.plotting import plot_boosting

fig, axes = plt.subplots(1, 2, figsize=(13, 4), sharey=True)
plot_boosting(stumps, X_test, y_test, ax=axes[0]).set_title("stumps, test rows")
plot_boosting(parities, X_test, y_test, ax=axes[1]).set_title("2-parities, test rows")
fig.tight_layout()
plt.show()

# %% [markdown]
# ## Why more rounds cannot save the stumps
#
# A stump on a 0/1 feature is $\pm(2x_j - 1)$ or a constant, so the vote
# $F(x) = \sum_t \alpha_t h_t(x)$ is an **affine** function $c + \sum_j w_j x_j$, and
# $H = \operatorname{sign} F$ a linear threshold function.  No linear threshold function
# computes XOR (on the four corners of $(x_0, x_1)$ it would need
# $c < 0$, $c + w_0 > 0$, $c + w_1 > 0$, $c + w_0 + w_1 < 0$, which add up to $0 < 0$).
# A vote of 2-parities is a polynomial of degree 2, which can.  We check the first
# claim by least squares: $F$ of the stump booster is affine in $x$ to machine precision.
#
# And since a stump on binary data is a 1-parity, the stump booster and the
# `max_degree=1` parity booster are the same algorithm: identical votes.

# %%
design = np.column_stack([np.ones(len(X_test)), X_test])
F_stumps = stumps.decision_function(X_test)
coef, *_ = np.linalg.lstsq(design, F_stumps, rcond=None)
affine_residual = np.abs(design @ coef - F_stumps).max()
print(f"stump vote = {coef[0]:+.3f} + sum_j w_j x_j, largest residual {affine_residual:.1e}")
print("w_0, w_1 =", coef[1:3].round(3), "  largest |w_j|, j >= 2:", np.abs(coef[3:]).max().round(3))

one_parities = BoostingClassifier(weak_learner="parity", max_degree=1, n_estimators=T).fit(X_train, y_train)
same_vote = np.abs(one_parities.decision_function(X_test) - F_stumps).max()
print(f"stumps vs 1-parities: largest difference of the votes {same_vote:.1e}")

# %% [markdown]
# ## The degree has to match: a 3-way XOR
#
# With $y = x_0 \oplus x_1 \oplus x_2$ every pair is as useless as every single feature
# was above, and only `max_degree=3` finds the signal (the search of all $\binom{16}{3} = 560$
# triples is again one batch of matrix products).

# %%
clean3 = X[:, 0] ^ X[:, 1] ^ X[:, 2]
y3 = np.where(rng.random(len(X)) < 0.03, 1 - clean3, clean3)
ladder = {}
for d in (1, 2, 3):
    clf = BoostingClassifier(weak_learner="parity", max_degree=d, n_estimators=T)
    clf.fit(X_train, y3[:n_train])
    ladder[d] = clf.score(X_test, y3[n_train:])
    print(f"degree {d}: test accuracy {ladder[d]:.3f}; first hypothesis {clf.hypotheses_[0]}")

# %% [markdown]
# ## Export: the learned vote as JSON
#
# `to_dict()` gives the booster, the votes $\alpha_t$ and every hypothesis
# (`{"type": "parity", "features": [0, 1], "negated": true}` …).  A few lines of numpy
# evaluate the vote from the JSON text alone — the same numbers as `decision_function`.

# %%
text = json.dumps(parities.to_dict(), indent=1)
with open("xor_parities.json", "w") as fh:
    fh.write(text)
doc = json.loads(open("xor_parities.json").read())
print(f"xor_parities.json: {len(text)} characters;"
      f" booster {doc['booster']!r}, {len(doc['alphas'])} votes")
for alpha, h in list(zip(doc["alphas"], doc["hypotheses"]))[:3]:
    print(f"   alpha = {alpha:.4f}  {h}")


def vote_from_json(doc, X):
    F = np.zeros(len(X))
    for alpha, h in zip(doc["alphas"], doc["hypotheses"]):
        odd = X[:, h["features"]].sum(axis=1) % 2 == 1   # chi_J(x) = -1 when odd
        chi = np.where(odd, -1.0, 1.0)
        F += alpha * (-chi if h["negated"] else chi)
    return F


F_json = vote_from_json(doc, X_test)
json_gap = np.abs(F_json - parities.decision_function(X_test)).max()
print(f"vote re-evaluated from the JSON: largest difference {json_gap:.1e}")

# %% [markdown]
# ## What this notebook teaches, checked

# %%
acc_stumps, acc_parities = stumps.score(X_test, y_test), parities.score(X_test, y_test)
# stumps stay near chance, 2-parities reach the noise level
assert acc_parities > 0.95 and acc_stumps < 0.6, (acc_parities, acc_stumps)
assert curves["stumps"][1].min() > 0.4            # no round of the stump booster helps
assert curves["2-parities"][1][0] < 0.05           # one parity is (almost) the target
# the first parity is the brute-force best of the round-1 edges: the pair {0, 1}
assert parities.hypotheses_[0].to_dict()["features"] == [0, 1] and best_pair == (0, 1)
assert abs(parities.edges_[0] - best_brute_force) < 1e-12
assert np.abs(edge1).max() < 0.2 < 0.8 < np.abs(edge2[pairs]).max()
# a vote of stumps on 0/1 data is affine in x, and equals the 1-parity booster's vote
assert affine_residual < 1e-9 and same_vote < 1e-9
# the degree must reach the order of the interaction
assert ladder[3] > 0.95 and ladder[1] < 0.6 and ladder[2] < 0.6
# the JSON export reproduces the vote
assert json_gap < 1e-12
assert np.array_equal(np.where(F_json > 0, 1, 0), parities.predict(X_test))
print("all checks passed")
