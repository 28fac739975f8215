"""What a fitted rule learner writes, in one base class: :class:`RuleModelMixin`.

Every rule learner (the rule set, the DRO ensemble, the decision list, boosting, and the
two cross-validated searches) takes it among its bases, before scikit-learn's.  It gives

* ``str``, ``to_text`` and ``explain`` (:class:`~optirules.learners._text.TextMixin`,
  from the learner's ``_text`` and ``_decision_support`` hooks);
* ``to_sql``: the model as one SQL query (:func:`~optirules.learners._sql.model_sql`);
* ``to_json`` and ``from_json`` (below);
* the rules as an HTML table in Jupyter (``_repr_html_``, from the learner's
  ``_table_builder``: one of :mod:`optirules.learners._rules_table`'s ``*_table``
  functions, as a staticmethod), scikit-learn's estimator diagram before ``fit``.

JSON: the learner says what it writes:

``_json_format``
    The format tag, ``"optirules.<Class>"`` (``optirules predict`` dispatches on it).
``_json_version``, ``_json_versions``
    The layout ``to_json`` writes (default 1) and the layouts ``from_json`` reads
    (default ``None``: :data:`~optirules.learners._json.JSON_VERSIONS`).
``_fitted_attribute``
    The attribute a fitted learner has (``to_json`` refuses an unfitted one through the
    learner's ``_check_fitted``, by default ``check_fitted(self, _fitted_attribute)``).

and two hooks, ``_json_fields(self) -> dict`` (the learner's own fields, written after the
header of :func:`~optirules.learners._json.json_header`) and
``_load_json_fields(self, doc)`` (their checked reading, once the header is checked, the
estimator built from the saved parameters and the header restored).

A learner whose document differs overrides ``to_json`` or ``from_json`` and calls the
helpers: :meth:`~RuleModelMixin._write_json` (check fitted, build the document
through :meth:`~RuleModelMixin._json_document`, write it), and for reading
:meth:`~RuleModelMixin._read_json_document` (the checked header) and
:meth:`~RuleModelMixin._json_estimator` (the estimator of the saved parameters, its
header restored).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from ._json import (
    Field,
    _check_header,
    damaged_as_input_error,
    dump_json,
    json_header,
    load_json_header,
    read_document,
    restore_params,
)
from ._rules_table import rules_html, rules_mimebundle
from ._sql import model_sql
from ._text import TextMixin

__all__ = ["RuleModelMixin"]


class RuleModelMixin(TextMixin):
    """Text, SQL, JSON and the notebook table of a fitted rule learner, from the learner's
    hooks (module docstring)."""

    #: the ``rules_table`` builder of the learner (``_repr_html_`` shows its table)
    _table_builder: Callable[..., pd.DataFrame]
    #: what the fitted model is, for the functions that write it: ``"rule_set"``, ``"dro"``,
    #: ``"decision_list"``, ``"boosting"`` (a search over one of them has none: its
    #: ``best_estimator_`` is written)
    _model_kind: str | None = None
    #: True on a model rebuilt by ``from_json``, which holds the rules but not the fit's
    #: literal matrix, clause pool or training rows
    _restored: bool = False

    #: the format tag of the learner's JSON (``"optirules.<Class>"``)
    _json_format: str
    #: the layout ``to_json`` writes, and those ``from_json`` reads (None: the header's)
    _json_version: int = 1
    _json_versions: tuple[int, ...] | None = None
    #: whether a file may hold more than two classes (a search over a K-class learner)
    _json_multiclass: bool = False
    #: whether ``to_json`` writes NaN and infinities (as JSON's non-standard tokens)
    _json_allow_nan: bool = True
    # ------------------------------------------------------------------ the public methods
    def to_json(self, path: str | os.PathLike | None = None, *, indent: int | None = 2) -> str:
        """The fitted model as JSON text (and written to ``path`` if given); no pickle.

        The document starts with the header every learner's JSON shares (``format``,
        ``version``, the constructor ``params``, ``classes``, ``n_features_in``,
        ``feature_names_in``), then the learner's own fitted fields (the learner's
        ``_json_fields`` says which).  :meth:`from_json` rebuilds a fitted model with the
        same predictions.

        Parameters
        ----------
        path : str or path-like, optional
            Also write the text to this file (atomically).
        indent : int or None, default 2
            JSON indentation; ``None`` writes it on one line.

        Returns
        -------
        str
            The JSON text.
        """
        return self._write_json(path, indent)

    @classmethod
    def from_json(cls, source: str | os.PathLike) -> Any:
        """Rebuild a fitted model from :meth:`to_json` output (text or a file path).

        Only JSON is parsed (no pickle), and every field is checked; a damaged or foreign
        file raises one :class:`~optirules.errors.InputError` naming the field.

        Parameters
        ----------
        source : str or path-like
            The JSON text, or the path of a file holding it.

        Returns
        -------
        estimator
            The fitted model, an instance of the class it is called on.
        """
        doc = cls._read_json_document(source)
        with damaged_as_input_error(doc.name):
            est = cls._json_estimator(doc)
            est._restored = True
            est._load_json_fields(doc)
        return est

    # the hooks _json_fields (the learner's own fields, in the order written after the
    # header) and _load_json_fields (their checked reading from the whole document, on an
    # estimator whose header is restored, inside damaged_as_input_error) are each
    # learner's own: the module docstring

    # ------------------------------------------------------------------ writing helpers
    def _json_document(self, **kwargs: Any) -> dict[str, Any]:
        """The header, then ``_json_fields`` (``kwargs``: those of the learner's
        ``to_json``)."""
        return {**json_header(self, self._json_format, version=self._json_version),
                **self._json_fields(**kwargs)}

    def _write_json(self, path: str | os.PathLike | None, indent: int | None,
                    **kwargs: Any) -> str:
        """``to_json``'s body: refuse an unfitted model, then the JSON text of
        :meth:`_json_document`, also written to ``path`` when given."""
        self._check_fitted()
        return dump_json(self._json_document(**kwargs), path, indent,
                         allow_nan=self._json_allow_nan)

    # ------------------------------------------------------------------ reading helpers
    @classmethod
    def _read_json_document(cls, source: str | os.PathLike) -> Field:
        """The document of ``source`` (text or a file), its format and header checked
        (two classes; with ``_json_multiclass``, two or at least three)."""
        fmt = cls._json_format
        doc = read_document(source, fmt)
        classes = doc.value.get("classes")
        two = not cls._json_multiclass or (isinstance(classes, list) and len(classes) == 2)
        _check_header(doc.value, fmt, n_classes=2 if two else None,
                      versions=cls._json_versions)
        return doc

    @classmethod
    def _json_params(cls, doc: Field) -> dict[str, Any]:
        """The constructor parameters of the checked document ``doc``."""
        return restore_params(doc.value["params"])

    @classmethod
    def _json_estimator(cls, doc: Field) -> Any:
        """An estimator of the saved parameters, with the header (classes and columns)
        restored."""
        est = cls(**cls._json_params(doc))
        load_json_header(est, doc.value)
        return est

    # ------------------------------------------------------------------ SQL
    def to_sql(self, table: str | Sequence[str], dialect: str = "sqlite", *,
               column: str = "prediction", keep: Sequence[str] = ()) -> str:
        """The fitted model as one SQL ``SELECT`` over ``table``, predicting every row.

        The query reads the model's input columns by name (``feature_names_in_``, or
        ``x0, x1, ...`` for a model fitted on an array) and returns the kept columns
        ``keep`` (to join the predictions back) and one column ``column`` holding
        ``predict``'s class, a SQL literal of the label's type (text, integer or real).
        Its predictions equal ``predict`` on the same rows, row for row, under the
        binarizer's semantics: a missing value (``NULL``; NaN, which the DuckDB query turns
        into ``NULL`` first) satisfies only ``is missing``; a category not seen in training
        satisfies no ``==`` and every ``!=``; thresholds compare as float64 numbers; a
        category that is a number or a boolean compares as a number, a string as a string.

        * BooleanRuleSetClassifier: the rule set's positive class (``classes_[1]`` by
          default, ``target_class_``) where it holds (a DNF: some rule; a CNF: every
          clause), the other class elsewhere; with more than two classes, the class whose
          rule set scores highest (each class's ``decision_function`` as an exact rank,
          ties to the first class, as ``predict``).
        * DRORuleEnsembleClassifier: the vote ``F(x) = sum_k v_k h_k(x)`` summed in the
          members' order, ``classes_[1]`` where ``F >= 1/2`` (``predict``'s cut); with more
          than two classes, the class of the largest vote.
        * BoostingClassifier: the vote ``F(x) = sum_t alpha_t h_t(x)`` summed round by
          round (stumps, literals, parities and CART trees; a CART tree compares the
          column rounded to float32, as scikit-learn's trees do), ``classes_[1]`` where
          ``F > 0``; with more than two classes, the class of the largest vote.  A row
          with NULL in a column the booster reads as it is (``binarizer_`` None) gets
          NULL: ``predict`` refuses a missing value there.
        * DecisionListClassifier: the class of the first rule that holds, else the default
          rule's; only with ``fallback="default"`` (Minimum OSR grows a tree on the
          training rows for each uncovered point and has no SQL form).
        * BooleanRuleSetCV, DecisionListCV: the SQL of ``best_estimator_``.

        A model restored by ``from_json`` gives the same SQL as the fitted one.

        Parameters
        ----------
        table : str or tuple of str
            The table (or view) to read; a tuple names a qualified table, one part each
            (``("main", "people")``).  Every name is quoted.
        dialect : {"sqlite", "duckdb"}, default "sqlite"
            The engine the text is written for.
        column : str, default "prediction"
            Name of the output column of predictions.
        keep : sequence of str, default ()
            Columns of ``table`` passed through before ``column`` (keys to join on).

        Returns
        -------
        str
            The SQL text (one statement, no trailing semicolon).

        Raises
        ------
        InputError
            Before any work: an unfitted model (also a ``NotFittedError``), an unknown
            dialect, a bad name, a decision list with ``fallback="min_osr"``, rules
            that read no input column (a binarizer other than FeatureBinarizer), or a
            booster whose weak learner is not one of the four built in.

        Examples
        --------
        >>> import sqlite3
        >>> from optirules.data import load_dataset
        >>> from optirules.learners import BooleanRuleSetClassifier
        >>> X, y = load_dataset("tic_tac_toe")
        >>> clf = BooleanRuleSetClassifier(max_degree=1).fit(X, y)
        >>> con = sqlite3.connect(":memory:")
        >>> _ = X.to_sql("board", con, index_label="id")
        >>> query = clf.to_sql("board", keep=("id",))
        >>> rows = con.execute(query).fetchall()
        >>> [p for _, p in rows] == clf.predict(X).tolist()
        True
        """
        return model_sql(self, table, dialect, column=column, keep=keep)

    # ------------------------------------------------------------------ Jupyter
    def _repr_html_(self) -> str:
        return rules_html(self, lambda: self._table_builder(self, require=False))

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        return rules_mimebundle(self, super()._repr_mimebundle_(**kwargs))
