"""A fitted :class:`~optirules.learners.BoostingClassifier` as SQL: the vote
:math:`F(x) = \\sum_t \\alpha_t h_t(x)` summed round by round, as ``decision_function``
sums it, so that the engine adds the same doubles in the same order and ``F > 0`` cuts
where ``predict`` does.

:meth:`~optirules.learners._rule_model.RuleModelMixin.to_sql` calls the booster's hooks ``_sql_columns``
and ``_sql_query`` (:func:`boosting_columns`, :func:`boosting_query`); each weak
hypothesis is written as SQL on the columns the booster reads (``_column``):

* read as they are (``binarizer_`` None): the input column as a double; a row with a NULL
  in a column the booster reads gets a NULL prediction (``predict`` refuses a missing value
  there);
* binarized: the 0/1 value of the literal (:func:`~optirules.learners._sql.literal_sql`,
  the binarizer's semantics for missing values and unseen categories);

a stump is ``left`` where the column is at most its threshold and ``right`` elsewhere; a
literal ``+1`` where the column is not 0; a parity ``+1`` on an even number of non-zero
columns; a CART tree compares the column rounded to float32 (as scikit-learn's trees read
it), written as the double cut that float32 rounding puts at the tree's threshold
(:func:`float32_cut`).  Other weak hypotheses have no SQL form and are refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import InputError
from .._sql import _argmax_sql, _double, _feature_names, _real, literal_sql, quote_identifier

__all__ = ["boosting_query", "boosting_columns", "float32_cut"]

#: rounds summed in one SELECT: a longer vote is summed over nested queries, so that no
#: expression is deeper than the engines allow (SQLite and DuckDB: 1,000 levels)
ROUNDS_PER_QUERY = 100

_F = "_optirules_vote_{}_{}"
_LEVEL = "_optirules_votes_{}"


def float32_cut(threshold: float) -> tuple[str, float]:
    """``(op, m)`` with ``float32(x) <= threshold`` exactly when ``x op m`` for every
    double ``x``: rounding to float32 is monotone, so the doubles that round to at most
    the largest float32 ``f <= threshold`` are those below the midpoint ``m`` of ``f`` and
    the next float32 (``m`` included when a tie rounds to ``f``: its last bit is 0).

    Parameters
    ----------
    threshold : float
        A tree node's threshold (a double).

    Returns
    -------
    tuple of (str, float)
        ``"<="`` or ``"<"``, and the cut ``m`` (a double).
    """
    f = np.float32(threshold)
    if float(f) > threshold:
        f = np.nextafter(f, np.float32(-np.inf))
    if np.isinf(f):  # below every float32: only the values that round to -inf
        f = np.nextafter(np.float32(-np.inf), np.float32(0))
        return "<", -float(_midpoint_above(f))
    tie_down = (int(np.array(f, dtype=np.float32).view(np.uint32)) & 1) == 0
    return ("<=" if tie_down else "<"), float(_midpoint_above(f))


def _midpoint_above(f: np.float32) -> float:
    """The double halfway between the float32 ``f`` and the next float32 above it (the
    largest float32's next is 2**128, where rounding overflows to infinity)."""
    with np.errstate(over="ignore"):
        up = np.nextafter(f, np.float32(np.inf))
    upper = 2.0 ** 128 if np.isinf(up) else float(up)
    return float(f) / 2 + upper / 2  # exact: both halves and their sum are doubles


def boosting_columns(est: Any) -> tuple[list[Any] | None, list[str]]:
    """The literals of the columns a binary booster reads (``None`` when it reads the input
    columns as they are) and the input columns its hypotheses use, checked: the literals
    must read input columns (a FeatureBinarizer's, or those ``from_json`` restored) and
    every hypothesis must have a SQL form.

    Parameters
    ----------
    est : BoostingClassifier
        A fitted binary booster.

    Returns
    -------
    tuple of (list of Literal or None, list of str)
        The literals (one per column of the matrix the hypotheses read) and the input
        columns read, sorted.
    """
    from ...data import Literal
    names = _feature_names(est)
    binarizer = getattr(est, "binarizer_", None)
    literals = None if binarizer is None else getattr(binarizer, "literals_", None)
    if binarizer is not None and (literals is None or not all(
            isinstance(lit, Literal) and lit.feature in names for lit in literals)):
        raise InputError(
            f"to_sql writes the literals of a FeatureBinarizer (or the input columns as they "
            f"are, binarizer=None), but this BoostingClassifier was fitted with "
            f"{type(binarizer).__name__}, whose columns are not literals of its input columns.")
    used: set[str] = set()
    for h in est.hypotheses_:
        kind = getattr(h, "kind", "")
        if kind not in ("constant", "stump", "literal", "parity", "tree"):
            raise InputError(
                f"to_sql writes stumps, literals, parities and CART trees; this booster holds "
                f"a {type(h).__name__} (a weak learner of your own), which has no SQL form.")
        for j in np.asarray(h.columns(), dtype=int):
            used.add(names[j] if literals is None else literals[j].feature)
    return (None if literals is None else list(literals)), sorted(used)


def _column(j: int, literals: list[Any] | None, names: list[str], dialect: str) -> str:
    """Column ``j`` of the matrix the hypotheses read, as a SQL double."""
    if literals is None:
        return _double(quote_identifier(names[j]), dialect)
    return (f"(CASE WHEN {literal_sql(literals[j], dialect)} THEN {_real(1.0, dialect)} "
            f"ELSE {_real(0.0, dialect)} END)")


def _term(h: Any, alpha: float, col: Any, dialect: str) -> str:
    """``alpha * h(x)`` as SQL: a CASE whose branches are the doubles ``+-alpha``."""
    def vote(sign: int) -> str:
        return _real(float(alpha) * sign, dialect)

    kind = h.kind
    if kind == "constant":
        return vote(h.sign)
    if kind == "stump":
        return (f"CASE WHEN {col(h.feature)} <= {_real(h.threshold, dialect)} "
                f"THEN {vote(h.left)} ELSE {vote(h.right)} END")
    zero = _real(0.0, dialect)
    flip = -1 if getattr(h, "negated", False) else 1  # a negated literal or parity
    if kind == "literal":
        return f"CASE WHEN {col(h.feature)} <> {zero} THEN {vote(flip)} ELSE {vote(-flip)} END"
    if kind == "parity":
        if not h.features:
            return vote(flip)
        ones = " + ".join(f"(CASE WHEN {col(j)} <> {zero} THEN 1 ELSE 0 END)"
                          for j in h.features)
        return f"CASE WHEN ({ones}) % 2 = 1 THEN {vote(-flip)} ELSE {vote(flip)} END"

    def node(k: int) -> str:  # a tree: scikit-learn compares float32(x) <= threshold
        if h.children_left[k] < 0:
            return vote(int(h.label[k]))
        op, cut = float32_cut(float(h.threshold[k]))
        return (f"CASE WHEN {col(int(h.feature[k]))} {op} {_real(cut, dialect)} "
                f"THEN {node(int(h.children_left[k]))} "
                f"ELSE {node(int(h.children_right[k]))} END")

    return node(0)


def _terms(est: Any, dialect: str) -> list[str]:
    """The rounds' ``alpha_t h_t(x)`` in round order."""
    literals, _ = boosting_columns(est)
    names = _feature_names(est)

    def col(j: int) -> str:
        return _column(int(j), literals, names, dialect)

    return [_term(h, a, col, dialect) for a, h in zip(est.alphas_, est.hypotheses_)]


def boosting_query(parts: list[Any], rows: str, kept: list[str], labels: list[str],
                   column: str, dialect: str) -> str:
    """The SELECT of a booster (``parts``: itself, or its one-vs-rest ``estimators_``)
    over ``rows``: each part's vote ``F`` summed round by round from ``0.0``, at most
    :data:`ROUNDS_PER_QUERY` rounds per nested query; the prediction ``labels[1]`` where
    ``F > 0``, else ``labels[0]`` (one-vs-rest: the label of the largest ``F``, ties to the
    first, as ``predict``), NULL where a column read as it is holds NULL.

    Parameters
    ----------
    parts : list of BoostingClassifier
        The binary boosters whose votes are summed.
    rows : str
        The FROM source of the input rows.
    kept : list of str
        The quoted pass-through columns.
    labels : list of str
        The classes as SQL literals.
    column : str
        The quoted output column.
    dialect : {"sqlite", "duckdb"}
        The engine.

    Returns
    -------
    str
        The SQL text.
    """
    terms = [_terms(e, dialect) for e in parts]
    raw = sorted({c for e in parts if getattr(e, "binarizer_", None) is None
                  for c in boosting_columns(e)[1]})
    zero = _real(0.0, dialect)
    n_levels = max(1, -(-max(len(t) for t in terms) // ROUNDS_PER_QUERY))
    source = rows
    for level in range(n_levels):
        sums = []
        for k, t in enumerate(terms):
            chunk = t[level * ROUNDS_PER_QUERY:(level + 1) * ROUNDS_PER_QUERY]
            start = zero if level == 0 else quote_identifier(_F.format(k, level - 1))
            total = "\n         + ".join([start, *chunk])
            sums.append(f"{total}\n    AS {quote_identifier(_F.format(k, level))}")
        source = ("(\n  SELECT *,\n    " + ",\n    ".join(sums) + f"\n  FROM {source}\n) AS "
                  f"{quote_identifier(_LEVEL.format(level))}")
    scores = [quote_identifier(_F.format(k, n_levels - 1)) for k in range(len(parts))]
    ind = "       "
    if len(parts) == 1:
        pick = (f"CASE\n{ind}  WHEN {scores[0]} > {zero} THEN {labels[1]}\n{ind}  ELSE "
                f"{labels[0]}\n{ind}END")
    else:
        pick = _argmax_sql(scores, labels, ind)
    if raw:
        missing = " OR ".join(f"{quote_identifier(c)} IS NULL" for c in raw)
        pick = f"CASE WHEN {missing} THEN NULL ELSE\n{ind}{pick} END"
    select = ",\n       ".join(kept + [f"{pick} AS {column}"])
    return f"SELECT {select}\nFROM {source}"
