"""The predictions and scores of :class:`~optirules.learners.BooleanRuleSetClassifier`.

:class:`_RuleSetScoresMixin` holds what the rule set computes from the rules that fire on
a row: ``predict``, ``predict_proba``, ``decision_function`` and the ``_decision_support``
and ``_check_explainable`` hooks of ``explain`` (:class:`~optirules.learners._text.TextMixin`;
all routed to their one-vs-rest versions by the estimator's class decorator, which finds
them through the bases), and the smoothed rule scores they share.  It reads the fitted attributes of
the estimator (``rules_``, ``clauses_``, ``rule_precision_`` ...) and never imports it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.utils.validation import validate_data

from ...errors import InputError, OptirulesError
from ...models import clause_coverage
from .._scores import (
    consistent_with_prediction,
    ordered_side,
    pattern_probability,
    smoothed_share,
    unmet_counts,
)
from ._text import decision_support

__all__ = ["_RuleSetScoresMixin"]


class _RuleSetScoresMixin:
    """Prediction and scores of a fitted rule set (a base of ``BooleanRuleSetClassifier``)."""

    def _dnf_fired(self, X: Any) -> np.ndarray:
        """Which of the master's DNF rules fire (``form="cnf"``: where clause m fails)."""
        self._check_fitted()
        if not self._restored:
            A = self._literal_matrix(X, reset=False)
            return clause_coverage(A, self.clauses_)
        fired = self._rules_fired_from_json(X)
        return ~fired if self.rules_.form == "cnf" else fired

    def _check_columns(self, X: Any) -> None:
        """Refuse ``X`` whose columns are not the fitted ones (a model read from JSON, which
        evaluates its rules on ``X`` itself)."""
        try:
            validate_data(self, X, reset=False, skip_check_array=True)
        except OptirulesError:
            raise
        except (ValueError, TypeError) as exc:
            raise InputError(f"{exc} Pass the columns the model was fitted on.") from None

    def _rules_fired_from_json(self, X: Any) -> np.ndarray:
        self._check_columns(X)
        return self.rules_.fired(X)

    def predict(self, X: Any) -> np.ndarray:
        """``target_class_`` (default ``classes_[1]``) where some rule holds (``form="cnf"``:
        where every clause holds), the other class elsewhere.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Rows with the columns the model was fitted on.

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels from ``classes_``.
        """
        fired = self._dnf_fired(X)
        hit = fired.any(axis=1) if fired.shape[1] else np.zeros(fired.shape[0], bool)
        d = self._dnf_index()
        return self.classes_[np.where(hit, d, 1 - d)]

    def _scores(self, fired: np.ndarray) -> np.ndarray:
        if "rule_support_" not in vars(self):
            raise InputError("this rule set was saved without its training precisions and "
                             "supports (an older to_json); refit it and save it again for "
                             "scores.")
        rule = smoothed_share(self.rule_precision_ * self.rule_support_, self.rule_support_,
                              self.class_prior_)
        default = float(smoothed_share(self.default_precision_ * self.default_support_,
                                       self.default_support_, self.class_prior_))
        s = np.full(fired.shape[0], default)
        hit = fired.any(axis=1) if fired.shape[1] else np.zeros(fired.shape[0], bool)
        if fired.shape[1]:
            s[hit] = np.where(fired, rule, -np.inf).max(axis=1)[hit]
        if self._dnf_index() == 0:
            # the DNF's class is classes_[0], which argmax favours on ties: move the score
            # of classes_[1] instead (above 1/2 where no rule fires), exactly (Sterbenz)
            return 1.0 - consistent_with_prediction(1.0 - s, ~hit)
        return consistent_with_prediction(s, hit)

    def _dnf_unmet(self, X: Any) -> np.ndarray:
        """Per row and rule of the master's DNF, how many of its literals fail (0 where the
        rule fires): from the literal matrix for a model fitted in this session, else from
        the DNF rules' conditions (a model read from JSON)."""
        self._check_fitted()
        if not self._restored:
            A = self._literal_matrix(X, reset=False)
            return unmet_counts(A, self.clauses_)
        self._check_columns(X)
        return self.dnf_rules_.unmet(X)

    def _probability(self, X: Any) -> np.ndarray:
        """The probability of the DNF's class (module docstring of ``_pattern_scores``),
        on the side of :meth:`predict`; the rules' scores for a model saved without the
        pattern table."""
        if "pattern_scores_" not in vars(self):
            return self._scores(self._dnf_fired(X))
        unmet = self._dnf_unmet(X)
        s = pattern_probability(self.pattern_scores_, self.side_scores_, unmet)
        hit = (unmet == 0).any(axis=1) if unmet.shape[1] else np.zeros(len(s), bool)
        if self._dnf_index() == 0:  # argmax breaks ties towards classes_[0]: as _scores
            return 1.0 - ordered_side(1.0 - s, ~hit)
        return ordered_side(s, hit)

    def predict_proba(self, X: Any) -> np.ndarray:
        r"""``[1 - s(x), s(x)]``: the share of the class among the training rows that meet the
        rules as ``x`` does, shrunk toward the class share.

        ``s`` is the probability of the class the master's DNF describes (below,
        ``classes_[1]``, the default); when that is ``classes_[0]`` (``target_class=
        classes_[0]``, or a CNF of ``classes_[1]``, learnt as the DNF of ``classes_[0]``)
        the columns are ``[s(x), 1 - s(x)]``.  For a CNF a rule is the negation of a clause:
        it fires where the clause fails.

        A row's *pattern* is the set of rules that fire on it or, where none fires, how
        many literals each rule misses (a row one literal short of a rule is likelier of the
        rules' class than one that meets none of it).  Its score is the share of the class
        among the training rows of its pattern (effective counts with ``sample_weight``),
        shrunk toward the share among the rows of its side (some rule fires, or none), which
        is shrunk toward the training class share; each shrinkage is the mean of a Beta
        posterior whose strength is estimated (empirical Bayes: the beta-binomial maximum
        likelihood over the groups), so patterns that differ no more than sampling does
        score alike and weak evidence scores near the class share (``pattern_scores_``,
        ``side_scores_``, ``score_strengths_``).  A pattern no training row has scores as
        its side.  Scores on the wrong side of 1/2 for :meth:`predict` are moved just across
        it, keeping their order, so that ``argmax`` of the
        probabilities is the prediction.  A probability is 0 or 1 only when the training
        data hold a single class.  A model saved by an older ``to_json`` (without the
        pattern table) scores a row by the best rule that fires, as it did.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Rows with the columns the model was fitted on.

        Returns
        -------
        ndarray of shape (n_samples, 2)
            The probabilities of ``classes_[0]`` and ``classes_[1]``.
        """
        s = self._probability(X)
        if self._dnf_index() == 0:
            return np.column_stack([s, 1.0 - s])
        return np.column_stack([1.0 - s, s])

    def decision_function(self, X: Any) -> np.ndarray:
        """``2 p(x) - 1`` in [-1, 1], ``p`` the probability of ``classes_[1]`` of
        :meth:`predict_proba` (positive where ``classes_[1]`` is predicted, so its sign is
        the prediction's).

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Rows with the columns the model was fitted on.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        s = self._probability(X)
        if self._dnf_index() == 0:
            return 2.0 * (1.0 - s) - 1.0
        return 2.0 * s - 1.0

    def _ovr_rank(self, X: Any) -> np.ndarray:
        """One-vs-rest: the rank of this class for :meth:`predict` (the score of the best
        rule that fires, as :meth:`decision_function` gave it before patterns, so that
        ``to_sql`` computes it from the rules alone)."""
        s = self._scores(self._dnf_fired(X))
        if self._dnf_index() == 0:
            return 2.0 * (1.0 - s) - 1.0
        return 2.0 * s - 1.0

    def _decision_support(self, X: Any) -> tuple[list[list[str]], list[list[str]]]:
        """Per row, what spoke for ``classes_[0]`` and for ``classes_[1]``: the DNF's rules
        that fired (for its class), else the default (for the other); a CNF's clauses that
        failed (for the other class, with the share of that class where the clause fails),
        else every clause, all holding (for the target class)."""
        return decision_support(self, X)

    def _check_explainable(self) -> None:
        """``explain`` (of TextMixin: ``rules`` holds the rules that fired, or the default;
        ``form="cnf"``: the clauses that failed for a row predicted the other class, every
        clause (all holding) for a row predicted ``target_class_``) needs a fitted model
        with its scores (a file saved without them predicts but does not explain)."""
        self._check_fitted()
        self._scores(np.zeros((0, 0), bool))
