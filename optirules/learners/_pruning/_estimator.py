r"""Ensemble pruning on any voting ensemble: QMM (the QMM paper), kappa pruning and DREP.

All three pruners are scikit-learn meta-estimators over a **fitted** voting ensemble
:math:`f(\mathbf x) = \operatorname{sign}\sum_{t=1}^T \alpha_t h_t(\mathbf x)` with members
:math:`h_t(\mathbf x) \in \{-1, +1\}`.  ``fit(X, y)`` evaluates every member on the pruning
rows (the training rows in "Ensemble Pruning via Margin Maximization") into the prediction matrix
:math:`\mathbf H \in \{-1, +1\}^{n \times T}`, chooses member weights
:math:`\mathbf w` (zero for pruned members) and ``predict`` votes with them:
:math:`\hat y = \texttt{classes\_[1]}` where :math:`\sum_t w_t h_t(\mathbf x) > 0`, else
``classes_[0]`` (the convention of scikit-learn's AdaBoost).

Ensembles understood (``estimator=``):

* scikit-learn ``AdaBoostClassifier`` (members predict class labels; :math:`\boldsymbol\alpha`
  = ``estimator_weights_``) and any estimator with ``estimators_`` and
  ``estimator_weights_`` that behaves the same way;
* ``RandomForestClassifier`` / ``ExtraTreesClassifier`` and ``BaggingClassifier`` (members
  predict encoded class indices; uniform :math:`\boldsymbol\alpha`; Bagging's feature
  subsets are honoured).  Note that scikit-learn's forests *average probabilities* while
  the pruners vote with one unit vote per tree, as the QMM paper (after Breiman 2001) does;
  for fully grown trees the two coincide;
* optirules ``BoostingClassifier`` (``hypotheses_`` and ``alphas_``; a negative
  :math:`\alpha_t` votes like :math:`-h_t` with weight :math:`|\alpha_t|`);
* any of these wrapped in ``sklearn.frozen.FrozenEstimator``, which keeps it fitted through
  ``clone`` (so a pruner over a fitted ensemble can go into ``GridSearchCV``);
* ``estimator=None``: ``X`` *is* the member-prediction matrix :math:`\mathbf H` (in
  ``fit`` and in ``predict``), +1 standing for ``classes_[1]``; weights from
  ``member_weights`` (uniform by default).

Every pruner exposes ``weights_`` (length :math:`T`, on the simplex), ``kept_`` (members
with positive weight), ``pruning_rate_`` (:math:`1 - |\text{kept}|/T`), ``n_members_``,
``member_weights_`` (the normalised original :math:`\boldsymbol\alpha`), ``classes_``,
``train_error_`` and, for an ensemble, ``ensemble_`` (the unwrapped fitted ensemble).

The pruners' shared plumbing is in :mod:`optirules.learners._pruning._base`, the reading of
an ensemble's members in :mod:`optirules.learners._pruning._members` and the Kappa and DREP
searches in :mod:`optirules.learners._pruning._greedy`; the classes are defined here.
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.utils._param_validation import Hidden, StrOptions

from ...errors import InputError
from .._checks import TIME_LIMIT, CaseInsensitiveStrOptions, Number
from ._base import _FRACTION, _BasePruner
from ._greedy import drep_selection, kappa_selection
from ._members import _unwrap, ensemble_hypothesis_space_size, member_predictions

__all__ = ["QMMPruner", "KappaPruner", "DREPPruner", "member_predictions",
           "ensemble_hypothesis_space_size"]


# =========================================================================== QMM
class QMMPruner(_BasePruner):
    r"""QMM ensemble pruning (the QMM paper): QR pivoting plus the margin-percentile QP.

    Builds :math:`\mathbf H` on the pruning rows and solves, through
    :class:`optirules.models.QMMModel` (the QMM paper, its eq. 19 and Algorithm 2),

    .. math::

        \min_{\mathbf w} \ \mathbf w^\top \hat{\boldsymbol\Sigma}' \mathbf w
        \quad \text{s.t.} \quad
        \boldsymbol\Lambda'_\upsilon \mathbf w \ge \boldsymbol\varphi'_\upsilon, \quad
        \mathbf 1^\top \mathbf w = 1, \quad \mathbf w \ge 0,

    on the QR basis :math:`\mathbf H'` of :math:`\mathbf H` after identical members were
    merged (their :math:`\alpha` added to the first copy), with
    :math:`\hat{\boldsymbol\Sigma}' = \operatorname{cov}(\mathbf H' \bullet \mathbf y)` and the
    :math:`\lceil n\upsilon\rceil` smallest margins protected.  Members with zero weight are
    pruned.  Linearly dependent members that are *not* identical to another one are handled
    as ``dependent`` says (default ``"keep"``: they stay in the QP as variables, so the
    reference vote is the original one; the paper drops them, ``"drop"``, which changes the
    vote when e.g. a stump and its negation are both members); the weight moved is
    ``moved_weight_``.  When the covariance of the QR basis is singular (the paper's
    :math:`n < T` case) the QP is not solved and the QR-reduced ensemble keeps its reference
    weights, as the paper does (``singular_covariance="fallback"``, recorded in
    ``singular_covariance_``); ``"solve"`` solves it anyway.  If the QP cannot be solved the
    model falls back to the reference weights, warns with ``QMMFallbackWarning`` and sets
    ``fallback_used_``.

    Parameters
    ----------
    estimator : fitted ensemble or None, default=None
        The ensemble to prune (module docstring); ``None`` means ``X`` is the
        member-prediction matrix.
    upsilon : float in (0, 1] or "emargin", default=0.5
        Fraction of smallest margins to protect.  The QMM paper uses 0.5 for AdaBoost and 0.25
        for random forests.  ``"emargin"`` takes it from the Equilibrium margin (Wang et al.
        2011), which needs :math:`|\mathscr H|`.
    hypothesis_space_size : "auto", int or float, default="auto"
        :math:`|\mathscr H|` for ``upsilon="emargin"``; ``"auto"`` uses
        ``ensemble_hypothesis_space_size`` (trees on ``n_thresholds`` fixed thresholds,
        as the paper describes).  Ignored for a numeric ``upsilon``.
    n_thresholds : int, default=100
        :math:`K` of that estimate.
    confidence : float, default=0.95
        Confidence level of the EMargin bound (the paper's :math:`\delta` is
        ``1 - confidence``).
    dependent : {"keep", "drop", "lstsq"}, default="keep"
        How linearly dependent, non-identical members are handled (see
        :class:`~optirules.models.QMMModel`): ``"keep"`` (default, departs from the paper:
        they stay in the QP), ``"drop"`` (the paper's Algorithm 2: dropped, alpha'
        renormalised; ``"proportional"`` is an accepted older name), ``"lstsq"`` (their
        weight moved onto the basis by a simplex-constrained least-squares fit).
    singular_covariance : {"fallback", "solve"}, default="fallback"
        What to do when the covariance of the QR basis is singular: ``"fallback"`` (the
        paper's rule: no QP, reference weights) or ``"solve"`` (solve the QP anyway).
    margin_reference : {"basis", "original"}, default="basis"
        Whose lower margins the QP protects (see :class:`~optirules.models.QMMModel`).
    formulation : {"covariance", "least_squares"}, default="covariance"
        The paper's covariance QP, or the same QP as least squares without the covariance
        (see :class:`~optirules.models.QMMModel`; same optimum).
    margin_constraints : {"auto", "generated", "all"}, default="auto"
        Margin rows added as they are violated, or all at once (same optimum); ``"auto"``
        generates them on large QPs (see :class:`~optirules.models.QMMModel`).
    interface : {"auto", "direct", "cvxpy"}, default="auto"
        How the QP reaches the solver: ``"direct"``, its own API with prebuilt matrices
        (Clarabel, OSQP, SCS, Gurobi, CPLEX, HiGHS), ``"cvxpy"``, the declarative cvxpy
        model; ``"auto"`` takes the direct path where there is one, HiGHS excepted (see
        :class:`~optirules.models.QMMModel`; same optimum).
    solver : str, default="scs"
        Any QP-capable backend of :func:`optirules.solvers.solve`; SCS (tolerances 1e-9)
        the fastest in ``benchmarks/results/qmm.md``, "clarabel" (interior point) reaches the same weights (HiGHS and
        SCIP are refused above 100 members; the size-limited Gurobi wheel from PyPI refuses
        dense QPs of a few hundred members, a SolverError quoting it).
    solver_options : dict, optional
        Extra options for the solver.
    time_limit : float, optional
        Seconds for the QP solve (all rounds); a solve stopped by it returns its weights if
        they meet the margin rows (``status_`` says ``time_limit``), else the reference
        weights (the fallback, ``fallback_used_``).
    verbose : bool, default=False
        Log progress (``logging``, logger ``optirules.learners.pruning``) and show the
        solver's output.
    member_weights : array-like of shape (n_members,), optional
        Override the ensemble's weights :math:`\boldsymbol\alpha`.

    Attributes
    ----------
    weights_, kept_, n_kept_, pruning_rate_, n_members_, member_weights_, classes_, train_error_
        See the module docstring.
    model_ : QMMModel
        The solved model (QR basis, covariance, protected rows, result).
    status_ : Status or None
        The solver's status (``None`` when the solver was not called).
    fallback_used_ : bool
    fallback_reason_ : str
    merged_weight_ : float
        Weight carried from identical members to their first copy.
    moved_weight_ : float
        Weight of dependent, non-identical members given to other members.
    margin_shift_ : float
        Largest change of a training margin caused by that move.
    rank_ : int
        Numerical rank of :math:`\mathbf H`.
    singular_covariance_ : bool
        Whether the covariance of the QR basis was singular (the QP was then not solved
        unless ``singular_covariance="solve"``).
    upsilon_ : float
        The percentile used (from the EMargin if asked).
    emargin_ : EMarginResult or None
    hypothesis_space_size_ : int or None
        :math:`|\mathscr H|` used by the EMargin.
    """

    _parameter_constraints: dict = {
        **_BasePruner._parameter_constraints,
        "upsilon": [Number(numbers.Real, 0, 1, closed="right"),
                    CaseInsensitiveStrOptions({"emargin"})],
        # None is refused with upsilon="emargin" (models._margins says what to pass)
        "hypothesis_space_size": [StrOptions({"auto"}), None,
                                  Number(numbers.Real, 8, None, closed="neither")],
        "n_thresholds": [Number(numbers.Integral, 1, None, closed="left")],
        "confidence": [Number(numbers.Real, 0, 1, closed="neither")],
        "dependent": [StrOptions({"keep", "drop", "lstsq"}),
                      Hidden(StrOptions({"proportional"}))],  # the older name of "drop"
        "margin_reference": [StrOptions({"basis", "original"})],
        "singular_covariance": [StrOptions({"fallback", "solve"})],
        "formulation": [StrOptions({"covariance", "least_squares"})],
        "margin_constraints": [StrOptions({"auto", "generated", "all"})],
        "interface": [StrOptions({"auto", "direct", "cvxpy"})],
        # checked against the installed solvers by require_support in _check_params
        "solver": [str, Mapping],
        "solver_options": [None, dict],
        "time_limit": TIME_LIMIT,
    }

    def __init__(self, estimator: Any = None, *, upsilon: float | str = 0.5,
                 hypothesis_space_size: Any = "auto", n_thresholds: int = 100,
                 confidence: float = 0.95, dependent: str = "keep",
                 margin_reference: str = "basis", singular_covariance: str = "fallback",
                 formulation: str = "covariance", margin_constraints: str = "auto",
                 interface: str = "auto",
                 solver: str = "scs", solver_options: dict | None = None,
                 time_limit: float | None = None, member_weights: Any = None,
                 verbose: bool = False):
        super().__init__(estimator, member_weights=member_weights, verbose=verbose)
        self.upsilon = upsilon
        self.hypothesis_space_size = hypothesis_space_size
        self.n_thresholds = n_thresholds
        self.confidence = confidence
        self.formulation = formulation
        self.margin_constraints = margin_constraints
        self.interface = interface
        self.time_limit = time_limit
        self.dependent = dependent
        self.margin_reference = margin_reference
        self.singular_covariance = singular_covariance
        self.solver = solver
        self.solver_options = solver_options

    def _check_params(self) -> None:
        super()._check_params()
        if self.solver_options and "time_limit" in self.solver_options:
            raise InputError("Pass the time limit as QMMPruner(time_limit=...), not in "
                             "solver_options.")
        from .._solver_needs import require_solver

        require_solver(self)  # before the members are evaluated

    def _space_size(self) -> Any:
        hs = self.hypothesis_space_size
        if not (isinstance(hs, str) and hs == "auto"):
            return hs
        if self.estimator is None:
            raise InputError(
                "upsilon='emargin' with a member-prediction matrix needs hypothesis_space_size "
                "(|H| of the members' hypothesis class): pass a number, e.g. "
                "optirules.models._margins.tree_hypothesis_space_size(p, 100, depth).")
        return ensemble_hypothesis_space_size(_unwrap(self.estimator), self.n_thresholds)

    def _prune(self, H: np.ndarray, y: np.ndarray, alpha: np.ndarray) -> np.ndarray:
        from ...models import QMMModel, QMMSolveOptions

        emargin = isinstance(self.upsilon, str)
        hs = self._space_size() if emargin else None
        self.hypothesis_space_size_ = hs
        model = QMMModel(H, y, alpha, upsilon="emargin" if emargin else float(self.upsilon),
                         hypothesis_space_size=hs, confidence=self.confidence,
                         dependent=self.dependent, margin_reference=self.margin_reference,
                         singular_covariance=self.singular_covariance,
                         options=QMMSolveOptions(
                             formulation=self.formulation,
                             margin_constraints=self.margin_constraints,
                             interface=self.interface))
        log = getattr(self, "_log", None)
        if log:
            log.info("QMMPruner: QP over %d weights (rank %d), %d protected rows, upsilon "
                     "%.3f, solver %s", model.basis_.size, model.rank_,
                     model.lower_rows_.size, model.upsilon_, self.solver)
        model.solve(self.solver, time_limit=self.time_limit, verbose=bool(self.verbose),
                    **(self.solver_options or {}))
        if log:
            log.info("QMMPruner: status %s, %d margin rows in %s round(s)%s",
                     None if model.status_ is None else model.status_.value,
                     getattr(model, "n_margin_rows_", 0), getattr(model, "generation_rounds_", 0),
                     f"; fallback: {model.fallback_reason_}" if model.fallback_used_ else "")
        self.model_ = model
        self.status_ = model.status_
        self.fallback_used_ = bool(model.fallback_used_)
        self.fallback_reason_ = model.fallback_reason_
        self.merged_weight_ = float(model.merged_weight_)
        self.moved_weight_ = float(model.moved_weight_)
        self.margin_shift_ = float(model.margin_shift_)
        self.rank_ = int(model.rank_)
        self.singular_covariance_ = bool(model.singular_covariance_)
        self.upsilon_ = float(model.upsilon_)
        self.emargin_ = model.emargin_
        return model.weights_

    def export_model(self, path: str | os.PathLike) -> list[Path]:
        """Write the QMM QP of this fit (all protected margin rows, on the QR-reduced
        members) as ``.lp`` or ``.mps`` by suffix; returns the files written.

        HiGHS reads the file back (:func:`optirules.solvers.read_model`).  KappaPruner and
        DREPPruner are greedy searches, not optimization models: they have nothing to export.

        Parameters
        ----------
        path : str or os.PathLike
            The file to write; its suffix, ``.lp`` or ``.mps``, chooses the format.

        Returns
        -------
        list of pathlib.Path
            The files written (the one ``path``).
        """
        self._check_fitted()
        path = Path(path)
        if path.suffix.lower() not in (".lp", ".mps"):
            raise InputError(f"cannot write {str(path)!r}: use a .lp or .mps suffix.")
        self.model_.write(path)
        return [path]


# =========================================================================== kappa
class KappaPruner(_BasePruner):
    r"""Kappa pruning (Margineantu and Dietterich 1997), as the QMM paper runs it: keep 20%.

    For every pair of members :math:`(a, b)`, :math:`a < b`, Cohen's :math:`\kappa` of their
    predictions on the pruning rows is computed (the QMM paper eqs. 21-23; see
    ``pairwise_kappa``).  The **pairs** are sorted by
    increasing :math:`\kappa` (most diverse pair first; ties, to 12 decimals, by
    :math:`(a, b)`), and the
    members of each pair, :math:`a` then :math:`b`, are added to the kept set unless already
    in it, until :math:`M = \lceil \text{fraction}\cdot T\rceil` members are kept.  Kept
    members vote with their original weights :math:`\alpha_t` (renormalised), as
    Margineantu and Dietterich do for AdaBoost; forests vote uniformly.

    Ranking *pairs* is the method: ranking single members (e.g. by their mean kappa with
    the others) is a different method that keeps a different subset.

    Parameters
    ----------
    estimator : fitted ensemble or None, default=None
    fraction : float in (0, 1], default=0.2
        Fraction of members to keep (the QMM paper: prune 80%).
    member_weights : array-like, optional
    verbose : bool, default=False
        Log progress (``logging``, logger ``optirules.learners.pruning``).

    Attributes
    ----------
    kappa_ : ndarray of shape (n_members, n_members)
        Pairwise kappa on the pruning rows.
    pair_order_ : ndarray of shape (n_pairs_used, 2)
        The pairs consumed, in order.
    """

    _parameter_constraints: dict = {**_BasePruner._parameter_constraints,
                                    "fraction": _FRACTION}

    def __init__(self, estimator: Any = None, *, fraction: float = 0.2,
                 member_weights: Any = None, verbose: bool = False):
        super().__init__(estimator, member_weights=member_weights, verbose=verbose)
        self.fraction = fraction

    def _prune(self, H: np.ndarray, y: np.ndarray, alpha: np.ndarray) -> np.ndarray:
        w, self.kappa_, self.pair_order_, self.selection_order_ = kappa_selection(
            H, alpha, self.fraction)
        return w


# =========================================================================== DREP
class DREPPruner(_BasePruner):
    r"""Diversity Regularized Ensemble Pruning (Li, Yu and Zhou 2012).

    With :math:`H^*` the current sub-ensemble and
    :math:`f_{H^*}(\mathbf x) = \sum_{t \in H^*} \alpha_t h_t(\mathbf x) / \sum_{t\in H^*}\alpha_t`
    its vote, DREP measures how much a candidate :math:`h` agrees with it on the pruning rows,

    .. math::

        \operatorname{diff}(h, H^*) = \frac1n \sum_{i=1}^n h(\mathbf x_i)\, f_{H^*}(\mathbf x_i)

    (small = diverse), and runs (Li et al. 2012, Algorithm 1):

    1. :math:`H^* \leftarrow \{h^\circ\}`, the member of least training error (ties: lowest
       index); the others are the remaining set :math:`R`.
    2. Repeat: sort :math:`R` by increasing :math:`\operatorname{diff}(h, H^*)` (ties by
       index); :math:`\Gamma \leftarrow` the first :math:`\lceil \rho |R| \rceil`
       (:math:`\rho` = ``candidate_fraction``);
       add to :math:`H^*` the :math:`h \in \Gamma` whose addition gives the least
       training error (ties: the more diverse one, i.e. earlier in :math:`\Gamma`);
    3. until the training error cannot be reduced.

    The diversity term acts only through :math:`\Gamma`: :math:`\rho = 1` is plain greedy
    forward selection by error (reduced-error pruning), smaller :math:`\rho` restricts
    each step to the most diverse candidates.

    ``voting="uniform"`` (default) combines the sub-ensemble by plain majority vote, the
    setting of Li et al. (2012); ``"weighted"`` uses the original :math:`\alpha` (the same
    for forests).  A tied vote counts as half an error.

    **Stopping.**  A vote of two members equals, on every row, the heavier one or a tie,
    so a second member can never lower the error of the best single member: the literal
    rule (stop at the first addition that does not reduce the error; ``patience=1``)
    always returns one member.  We therefore stop after
    ``patience`` consecutive additions without a new lowest training error and return the
    shortest prefix of the additions that reached the lowest error.  With plain voting the
    error also see-saws between odd and even sizes (even sizes have ties), and weak but
    diverse members need a few additions before they outvote the first one, so the default
    looks ahead four additions (``patience=5``); ``patience >= T`` follows the greedy path
    to the end and returns its best prefix.

    Parameters
    ----------
    estimator : fitted ensemble or None, default=None
    candidate_fraction : float in (0, 1], default=0.5
        :math:`\rho` of Li et al.: fraction of the most diverse remaining members among
        which each step chooses.
        (Li et al. select it from {0.2, 0.25, ..., 0.5} by validation; the QMM paper does not
        say which value it used.)
    patience : int, default=5
        Consecutive additions without a new lowest error before stopping (above).
    voting : {"uniform", "weighted"}, default="uniform"
        How the sub-ensemble votes, during the search and in ``predict``.
    member_weights : array-like, optional
        Override the ensemble's weights (used with ``voting="weighted"``).
    verbose : bool, default=False
        Log every step (``logging``, logger ``optirules.learners.pruning``).

    Attributes
    ----------
    selection_order_ : ndarray of int
        Members in the order added (all additions tried, the kept ones first).
    training_errors_ : ndarray
        Training error after each addition (index 0: the first member alone).
    history_ : list of dict
        Per step: ``candidates`` (:math:`\Gamma`), ``diff`` (their diff values),
        ``chosen``, ``error``.
    """

    _parameter_constraints: dict = {
        **_BasePruner._parameter_constraints,
        "candidate_fraction": _FRACTION,
        "patience": [Number(numbers.Integral, 1, None, closed="left")],
        "voting": [StrOptions({"uniform", "weighted"})],
    }

    def __init__(self, estimator: Any = None, *, candidate_fraction: float = 0.5,
                 patience: int = 5, voting: str = "uniform", member_weights: Any = None,
                 verbose: bool = False):
        super().__init__(estimator, member_weights=member_weights, verbose=verbose)
        self.candidate_fraction = candidate_fraction
        self.patience = patience
        self.voting = voting

    def _prune(self, H: np.ndarray, y: np.ndarray, alpha: np.ndarray) -> np.ndarray:
        w, self.selection_order_, self.training_errors_, self.history_ = drep_selection(
            H, y, alpha, candidate_fraction=self.candidate_fraction, patience=self.patience,
            voting=self.voting, log=getattr(self, "_log", None))
        return w
