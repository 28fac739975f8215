"""Tests of the DRO paper eq 9 worst-case pmf: exact Lagrangian solver vs CVXPY + Clarabel."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optirules.errors import InputError
from optirules.models import WorstCasePmfModel, phi_divergence, worst_case_pmf

DIVERGENCES = ["chi2", "kl"]


def _slack_limit(z: np.ndarray, divergence: str) -> float:
    """Radius beyond which all mass sits on the k maximal losses (N/k - 1 or log(N/k))."""
    n, k = z.size, int(np.count_nonzero(z == z.max()))
    return n / k - 1.0 if divergence == "chi2" else math.log(n / k)


def _instance(seed: int, n: int, discrete: bool) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if discrete:  # losses on a grid, like the DRO paper's {0, 1/n, ..., 1}: many ties
        return rng.integers(0, 5, n) / 4.0
    return rng.random(n)


def _assert_feasible(p: np.ndarray, rho: float, divergence: str) -> None:
    assert p.ndim == 1
    assert np.all(p >= 0.0)
    assert abs(p.sum() - 1.0) <= 1e-12
    assert phi_divergence(p, divergence) <= rho + 1e-9


# ----------------------------------------------------------------- exact vs CVXPY
@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(5, 60),
    discrete=st.booleans(),
    divergence=st.sampled_from(DIVERGENCES),
    log_frac=st.floats(math.log(1e-3), math.log(3.0)),
)
def test_exact_agrees_with_clarabel(seed, n, discrete, divergence, log_frac):
    z = _instance(seed, n, discrete)
    if z.max() == z.min():
        z[0] += 1.0
    # radius as a fraction of the slack limit: below it (active row), and up to 3x beyond
    rho = math.exp(log_frac) * _slack_limit(z, divergence)
    p = worst_case_pmf(z, rho, divergence)
    _assert_feasible(p, rho, divergence)

    model = WorstCasePmfModel(z, rho, divergence)
    result = model.solve()
    assert result.solver == "clarabel"
    assert abs(float(p @ z) - model.objective_) <= 1e-6
    assert abs(float(p @ z) - float(model.pmf_ @ z)) <= 1e-6
    if rho < 0.999 * _slack_limit(z, divergence):
        # the divergence row is active and the maximizer unique: the pmfs agree
        np.testing.assert_allclose(p, model.pmf_, atol=1e-4)


@pytest.mark.parametrize("divergence", DIVERGENCES)
def test_exact_agrees_with_cvxpy_route_at_n_2000(divergence):
    z = np.random.default_rng(11).random(2000)
    p = worst_case_pmf(z, 0.2, divergence)
    q = worst_case_pmf(z, 0.2, divergence, method="cvxpy")
    _assert_feasible(p, 0.2, divergence)
    assert abs(float(p @ z) - float(q @ z)) <= 1e-6
    np.testing.assert_allclose(p, q, atol=1e-5)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 300),
    discrete=st.booleans(),
    divergence=st.sampled_from(DIVERGENCES),
    rho=st.floats(0.0, 20.0),
)
def test_exact_is_feasible_and_monotone_in_rho(seed, n, discrete, divergence, rho):
    z = _instance(seed, n, discrete)
    p = worst_case_pmf(z, rho, divergence)
    _assert_feasible(p, rho, divergence)
    # a larger ball can only raise the worst-case loss; and it never beats max z
    p2 = worst_case_pmf(z, 1.5 * rho + 0.01, divergence)
    assert float(p2 @ z) >= float(p @ z) - 1e-12
    assert float(p @ z) <= z.max() + 1e-12
    assert float(p @ z) >= z.mean() - 1e-12


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    divergence=st.sampled_from(DIVERGENCES),
    shift=st.floats(-100.0, 100.0),
    scale=st.floats(0.01, 100.0),
)
def test_exact_invariant_to_shift_of_z(seed, divergence, shift, scale):
    # chi2: P depends on z only through (z - eta)_+ -> invariant to shifts and to scaling
    # KL: P ∝ exp(z / tau) -> invariant to shifts; scaling z rescales tau
    z = _instance(seed, 40, discrete=False)
    p = worst_case_pmf(z, 0.3, divergence)
    q = worst_case_pmf(shift + scale * z, 0.3, divergence)
    np.testing.assert_allclose(p, q, atol=1e-9)


# ----------------------------------------------------------------- closed forms
@pytest.mark.parametrize("rho", [0.01, 0.25, 0.64, 0.99, 1.0, 4.0])
def test_chi2_two_points_by_hand(rho):
    # z = (1, 0): divergence (1/2)[(2a - 1)^2 + (1 - 2a)^2] = (2a - 1)^2 <= rho, so the
    # worst case puts a = (1 + sqrt(rho)) / 2 on the loss 1, capped at a = 1 (rho >= N/k - 1 = 1)
    p = worst_case_pmf([1.0, 0.0], rho, "chi2")
    a = min(1.0, (1.0 + math.sqrt(rho)) / 2.0)
    np.testing.assert_allclose(p, [a, 1.0 - a], atol=1e-12)


@pytest.mark.parametrize("rho", [1e-6, 0.01, 0.1, 0.2])
def test_chi2_full_support_closed_form(rho):
    # when no P_i hits zero, P = (1 + sqrt(rho) (z - mean z) / std z) / N and the value is
    # mean z + sqrt(rho) std z (population std): Cauchy-Schwarz on the ball
    z = np.random.default_rng(3).random(25)
    q = 1.0 + math.sqrt(rho) * (z - z.mean()) / z.std()
    assert q.min() > 0  # this instance stays in the full-support regime
    p = worst_case_pmf(z, rho, "chi2")
    np.testing.assert_allclose(p, q / z.size, atol=1e-13)
    assert float(p @ z) == pytest.approx(z.mean() + math.sqrt(rho) * z.std(), abs=1e-13)


def test_chi2_partial_support_kkt():
    # rho large enough that some P_i = 0: check the KKT form P_i ∝ (z_i - eta)_+ directly
    z = np.random.default_rng(4).random(30)
    rho = 2.0
    p = worst_case_pmf(z, rho, "chi2")
    assert np.count_nonzero(p == 0) > 0
    support = p > 0
    # P_i = (z_i - eta)/s on the support: z_i - s P_i is one constant eta ...
    s = (z[support].max() - z[support].min()) / (p[support].max() - p[support].min())
    eta = z[support] - s * p[support]
    np.testing.assert_allclose(eta, eta[0], atol=1e-10)
    # ... which lies at or above every loss off the support; and the row is active
    assert np.all(z[~support] <= eta[0] + 1e-10)
    assert phi_divergence(p, "chi2") == pytest.approx(rho, abs=1e-9)


@pytest.mark.parametrize("frac", [0.1, 0.5, 0.9, 0.99])
@pytest.mark.parametrize("n,k", [(2, 1), (10, 3), (50, 7)])
def test_kl_two_levels_by_hand(frac, n, k):
    # k losses 1, n - k losses 0: the worst case gives each loss-1 row a/k and each loss-0
    # row (1-a)/(n-k), with KL = a log(n a / k) + (1 - a) log(n (1 - a) / (n - k)).
    # Pick a above the uniform share k/n, compute rho by hand, and recover a.
    a = k / n + frac * (1 - k / n)
    z = np.r_[np.ones(k), np.zeros(n - k)]
    rho = a * math.log(n * a / k) + (1 - a) * math.log(n * (1 - a) / (n - k))
    p = worst_case_pmf(z, rho, "kl")
    np.testing.assert_allclose(p[:k], a / k, atol=1e-9)
    np.testing.assert_allclose(p[k:], (1 - a) / (n - k), atol=1e-9)


def test_kl_small_rho_expansion():
    # KL(P_beta) = beta^2 Var(z)/2 + O(beta^3) -> value = mean z + sqrt(2 rho Var z) + O(rho)
    z = np.random.default_rng(5).random(1000)
    rho = 1e-10
    p = worst_case_pmf(z, rho, "kl")
    excess = float(p @ z) - z.mean()
    assert excess == pytest.approx(math.sqrt(2 * rho * z.var()), rel=1e-4)


def test_phi_divergence_known_values():
    assert phi_divergence([1.0, 0.0], "chi2") == pytest.approx(1.0)
    assert phi_divergence([1.0, 0.0], "kl") == pytest.approx(math.log(2.0))
    assert phi_divergence(np.full(7, 1 / 7), "chi2") == pytest.approx(0.0, abs=1e-15)
    assert phi_divergence(np.full(7, 1 / 7), "kl") == pytest.approx(0.0, abs=1e-15)
    p = np.array([0.5, 0.3, 0.2])
    assert phi_divergence(p, "kl") == pytest.approx(float(np.sum(p * np.log(3 * p))))
    assert phi_divergence(p, "chi2") == pytest.approx(float(np.mean((3 * p - 1) ** 2)))


# ----------------------------------------------------------------- edge cases
# with rho = 0 the KL ball is the single point P^0 (no interior): Clarabel reports
# "optimal_inaccurate" (status feasible), still within 1e-5 of P^0
@pytest.mark.filterwarnings("ignore:Solution may be inaccurate")
@pytest.mark.parametrize("divergence", DIVERGENCES)
@pytest.mark.parametrize("method", ["exact", "cvxpy"])
def test_rho_zero_gives_uniform(divergence, method):
    z = np.random.default_rng(6).random(12)
    p = worst_case_pmf(z, 0.0, divergence, method=method)
    np.testing.assert_allclose(p, np.full(12, 1 / 12), atol=1e-5 if method == "cvxpy" else 0)


@pytest.mark.parametrize("divergence", DIVERGENCES)
@pytest.mark.parametrize("rho", [0.0, 0.5, 100.0])
def test_equal_losses_give_uniform(divergence, rho):
    p = worst_case_pmf(np.full(9, 0.4), rho, divergence)
    np.testing.assert_array_equal(p, np.full(9, 1 / 9))
    assert worst_case_pmf([3.0], rho, divergence).tolist() == [1.0]


@pytest.mark.parametrize("divergence", DIVERGENCES)
def test_large_rho_puts_mass_on_argmax_ties_shared(divergence):
    z = np.array([0.1, 0.9, 0.5, 0.9, 0.0, 0.9])
    limit = _slack_limit(z, divergence)  # N/k - 1 = 1 (chi2), log 2 (kl)
    expected = np.where(z == 0.9, 1 / 3, 0.0)
    for rho in [limit, 1.5 * limit, 1e6, math.inf]:
        np.testing.assert_array_equal(worst_case_pmf(z, rho, divergence), expected)
    # just below the limit the mass is close to, but not exactly on, the argmax
    p = worst_case_pmf(z, limit * (1 - 1e-6), divergence)
    _assert_feasible(p, limit, divergence)
    assert np.all(p[z == 0.9] > 0.3) and float(p @ z) > 0.899
    np.testing.assert_allclose(p[z == 0.9], p[1])  # ties share the mass


@pytest.mark.parametrize("divergence", DIVERGENCES)
def test_large_rho_cvxpy_matches_argmax_value(divergence):
    z = np.array([0.2, 0.7, 0.7, 0.1])
    p = worst_case_pmf(z, 5.0, divergence, method="cvxpy")
    assert float(p @ z) == pytest.approx(0.7, abs=1e-6)


@pytest.mark.parametrize("divergence", DIVERGENCES)
def test_exact_at_n_20000_is_feasible(divergence):
    z = np.random.default_rng(8).random(20_000)
    for rho in [1e-8, 0.05, 1.0, 5.0]:
        p = worst_case_pmf(z, rho, divergence)
        _assert_feasible(p, rho, divergence)
        assert phi_divergence(p, divergence) == pytest.approx(rho, rel=1e-6)


# ----------------------------------------------------------------- errors
@pytest.mark.parametrize(
    "z,rho,match",
    [
        ([0.1, 0.2], -0.1, "rho must be >= 0"),
        ([0.1, 0.2], math.nan, "rho must be >= 0"),
        ([0.1, 0.2], "big", "rho must be"),
        ([], 0.1, "empty"),
        ([0.1, math.nan], 0.1, "non-finite"),
        ([0.1, math.inf], 0.1, "non-finite"),
        ([[0.1, 0.2], [0.3, 0.4]], 0.1, "1-D"),
        (["a", "b"], 0.1, "1-D array of real"),
    ],
)
def test_bad_input_raises(z, rho, match):
    with pytest.raises(InputError, match=match):
        worst_case_pmf(z, rho)
    with pytest.raises(InputError, match=match):
        WorstCasePmfModel(z, rho)


def test_bad_divergence_and_method():
    with pytest.raises(InputError, match="divergence must be one of"):
        worst_case_pmf([0.1, 0.2], 0.1, divergence="tv")
    with pytest.raises(InputError, match="method must be one of"):
        worst_case_pmf([0.1, 0.2], 0.1, method="bisect")
    with pytest.raises(InputError, match="only apply to method='cvxpy'"):
        worst_case_pmf([0.1, 0.2], 0.1, solver="clarabel")
    with pytest.raises(InputError, match="negative"):
        phi_divergence([0.5, -0.1, 0.6], "chi2")


# ----------------------------------------------------------------- the CVXPY model object
def test_model_is_a_cvxpy_problem_and_reads_back():
    import cvxpy as cp

    z = np.array([0.0, 0.25, 0.5, 1.0])
    model = WorstCasePmfModel(losses=z, rho=0.1, divergence="kl")
    np.testing.assert_array_equal(model.losses, z)
    assert isinstance(model.model, cp.Problem)
    assert model.model is model.model  # built once
    assert model.default_solver == "clarabel"
    result = model.solve()
    assert result.status.value == "optimal"
    assert model.pmf_.shape == (4,)
    assert model.pmf_.sum() == pytest.approx(1.0)
    assert model.objective_ == pytest.approx(float(worst_case_pmf(z, 0.1, "kl") @ z), abs=1e-6)
    assert model.result_ is result


@pytest.mark.parametrize("divergence", DIVERGENCES)
def test_model_solver_swap_to_scs(divergence):
    # a second conic solver (SCS, first-order, default eps 1e-4) reaches the same value
    z = np.random.default_rng(10).random(15)
    model = WorstCasePmfModel(z, 0.1, divergence)
    result = model.solve("scs")
    assert result.solver == "scs"
    assert model.objective_ == pytest.approx(float(worst_case_pmf(z, 0.1, divergence) @ z),
                                             abs=1e-4)


@pytest.mark.parametrize("divergence", DIVERGENCES)
def test_model_write_explains_cones_have_no_lp_form(tmp_path, divergence):
    from optirules.errors import ModelFormatError

    model = WorstCasePmfModel([0.1, 0.5, 0.9], 0.1, divergence)
    with pytest.raises(ModelFormatError, match="cone"):
        model.write(tmp_path / "wc.lp")


@pytest.mark.parametrize("divergence", ["chi2", "kl"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_reference_pmf_is_the_uniform_ball_on_repeated_rows(divergence, seed):
    """With integer weights as the reference, the worst case is eq 9 on the rows repeated
    by their weights, each row's mass the sum over its copies (copies share one loss), and
    the divergence is the uniform one of the repeated pmf."""
    rng = np.random.default_rng(seed)
    n = 12
    z = rng.integers(0, 4, n).astype(float) + rng.random(n) * (seed > 0)
    w = rng.integers(1, 4, n)
    rho = 0.15
    p = worst_case_pmf(z, rho, divergence, reference=w)
    rows = np.repeat(np.arange(n), w)
    rep = worst_case_pmf(z[rows], rho, divergence)
    merged = np.bincount(rows, weights=rep, minlength=n)
    assert p @ z == pytest.approx(rep @ z[rows], rel=1e-9, abs=1e-12)
    np.testing.assert_allclose(p, merged, atol=1e-7)
    assert phi_divergence(p, divergence, reference=w) == pytest.approx(
        phi_divergence(p[rows] / w[rows], divergence), rel=1e-9, abs=1e-12)
    with pytest.raises(InputError, match="reference"):
        worst_case_pmf(z, rho, divergence, reference=np.r_[w[:-1], 0])
    with pytest.raises(InputError, match="method='exact'"):
        worst_case_pmf(z, rho, divergence, method="cvxpy", reference=w)
