"""``str``, ``to_text`` and ``explain`` of the learners, written once: :class:`TextMixin`.

A learner takes the mixin among its bases, names the attribute a fitted model has
(``_fitted_attribute``) and supplies the hooks:

``_text(self) -> str``
    The fitted model as text (what :meth:`~TextMixin.to_text` returns, after the
    not-fitted check).
``_decision_support(self, X)``
    Per row of ``X``, what spoke for ``classes_[0]`` and for ``classes_[1]``: the two-class
    ``explain`` of :func:`~optirules.learners._explain.binary_explain` is built from it.
``_check_explainable(self)``
    What ``explain`` refuses before any row is read (default: an unfitted model).

``str(model)`` is ``to_text()`` once the model is fitted and scikit-learn's parameter
repr before (:func:`~optirules.learners._explain.text_or_repr`).  A learner whose
``to_text`` takes options (a decision list's ``stats``) or whose ``explain`` adds columns
defines the public method itself; ``str`` still comes from here.
"""

from __future__ import annotations

from typing import Any

from ._checks import FittedMixin
from ._explain import binary_explain, text_or_repr

__all__ = ["TextMixin"]


class TextMixin(FittedMixin):
    """``__str__``, ``to_text`` and a two-class ``explain`` from the learner's hooks (module
    docstring)."""

    def __str__(self) -> str:
        return text_or_repr(self, self._fitted_attribute)

    def to_text(self) -> str:
        """The fitted model as text (what ``str(model)`` prints once fitted).

        Returns
        -------
        str
            The model's rules, members or hypotheses, one a line, with a header or a
            summary line as the learner writes it (its ``_text`` says which).
        """
        self._check_fitted()
        return self._text()

    def explain(self, X: Any):
        """A DataFrame, one row per row of ``X``: ``prediction``, ``score`` (the
        :meth:`predict_proba` of the prediction), ``rules`` (what spoke for the prediction:
        the rules that fired, or the members or hypotheses that voted for it, with their
        weights, largest first), ``fired`` (for every class, what spoke for it) and
        ``text`` (one line: the prediction and why).  ``optirules.learners._explain`` says
        what each learner writes in them.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the layout of the training data (same columns).

        Returns
        -------
        pandas.DataFrame
            One row per row of ``X``, with the columns listed above.
        """
        self._check_explainable()
        return binary_explain(self, X)

    # ------------------------------------------------------------------ hooks
    # _text (the fitted model as text) and _decision_support are each learner's own: the
    # module docstring
    def _check_explainable(self) -> None:
        """Refuse ``explain`` on a model that cannot explain (default: not fitted)."""
        self._check_fitted()
