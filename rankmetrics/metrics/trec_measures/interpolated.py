"""Precision read off the recall-precision curve: iprec_at_recall, 11pt_avg, Rprec_mult, relative_P.

trec_eval ``m_iprec_at_recall.c``, ``m_11pt_avg.c``, ``m_Rprec_mult.c``,
``m_rel_P.c``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._arrays import safe_divide
from ..._validation import check_choice
from ...i18n import N_
from ...registry import Columns
from ._common import as_rows, out_of_range, parameter_numbers, per_query, required_level, trec_measure

ELEVEN_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)  # trec_eval.h


RECALL_RANKS = ("lround", "plus_0.9")


def _lround(x: np.ndarray) -> np.ndarray:
    """C's lround for x >= 0 (halves away from zero); any x < 0 becomes a value <= 0."""
    low = np.floor(x)
    return np.where(x - low >= 0.5, low + 1, low)


def _needed(recall: float, n_relevant: np.ndarray, rule: str) -> np.ndarray:
    """How many relevant documents a recall level asks for, by trec_eval 10.0's or 9.x's rule."""
    if rule == "plus_0.9":  # trec_eval 9.x: (long) (r * R + 0.9), in doubles, in this order
        return np.trunc(recall * n_relevant + 0.9)
    return _lround(recall * n_relevant)


def interpolated_precision(
    relevant: Any, n_retrieved: Any, n_relevant: Any, recall: float, recall_rank: str = "lround"
) -> np.ndarray:
    """Interpolated precision at a recall level: the best precision at or after reaching it.

    The recall level r becomes a number of relevant documents, c =
    round(r * R) (halves rounded up, as trec_eval 10's ``lround``; with
    ``recall_rank="plus_0.9"``, int(r * R + 0.9) as trec_eval 9.x and so
    pytrec_eval: at r = 0.15 and R = 2, 10.0 asks for round(0.3) = 0
    relevant documents, 9.x for int(1.2) = 1). The value is the highest precision
    at any rank from the c-th relevant document to the end of the list (from
    rank 1 when c = 0), and 0 when fewer than c relevant documents were
    retrieved. These are the points of the recall-precision graph
    (trec_eval's ``iprec_at_recall_0.00`` ... ``_1.00``).

    Parameters
    ----------
    relevant : 2-D boolean array
        Per query and rank: the document is relevant.
    n_retrieved, n_relevant : 1-D arrays
        The length of each ranked list, and R.
    recall : float
        The recall level, 0.0 to 1.0.
    recall_rank : {"lround", "plus_0.9"}, default "lround"
        trec_eval 10.0's rule or 9.x's (see above).

    Returns
    -------
    1-D array, one value per query (0 for an empty list: trec_eval divides 0 by 0 there).

    References
    ----------
    Manning, Raghavan & Schütze, *Introduction to Information Retrieval* (2008), ch. 8.4;
    trec_eval ``m_iprec_at_recall.c``.

    Examples
    --------
    >>> ranked = [[1, 0, 0, 1, 1]]  # precision 1, 1/2, 1/3, 1/2, 3/5 at ranks 1..5; R = 4
    >>> [float(interpolated_precision(ranked, [5], [4], r)[0]) for r in (0.0, 0.5, 0.75, 1.0)]
    [1.0, 0.6, 0.6, 0.0]
    >>> # R = 2 (one relevant not retrieved), list [0, 1]: r = 0.15 asks for 0 (10.0) or 1 (9.x).
    >>> [float(interpolated_precision([[0, 1]], [2], [2], 0.15, rule)[0]) for rule in ("lround", "plus_0.9")]
    [0.5, 0.5]
    """
    rel = as_rows(relevant, bool)
    curve = precision_curve(rel, np.cumsum(rel, axis=1), n_retrieved)
    return _interpolated(
        curve, per_query(n_relevant), recall, check_choice(recall_rank, "recall_rank", RECALL_RANKS)
    )


def eleven_point_average(
    relevant: Any,
    n_retrieved: Any,
    n_relevant: Any,
    recalls: tuple[float, ...] = ELEVEN_POINTS,
    recall_rank: str = "lround",
) -> np.ndarray:
    """11-point average precision: the mean interpolated precision at recall 0.0, 0.1, ..., 1.0.

    An older estimate of the area under the recall-precision curve (MAP is
    another). ``recalls`` picks other levels, as ``11pt_avg.0.2,0.5,0.8``
    does in trec_eval (the old 3-point average).

    Parameters
    ----------
    relevant, n_retrieved, n_relevant
        As in :func:`interpolated_precision`.
    recalls : tuple of float
        The recall levels to average over.
    recall_rank : {"lround", "plus_0.9"}, default "lround"
        As in :func:`interpolated_precision`.

    Returns
    -------
    1-D array, one value per query.

    References
    ----------
    Salton & McGill, *Introduction to Modern Information Retrieval* (1983);
    trec_eval ``m_11pt_avg.c``.

    Examples
    --------
    >>> # R = 4: recall 0-0.3 need 0 or 1 relevant (1.0), 0.4-0.8 need 2 or 3 (0.6), 0.9-1 need 4 (0)
    >>> eleven_point_average([[1, 0, 0, 1, 1]], [5], [4]).round(4)  # (4 * 1 + 5 * 0.6) / 11
    array([0.6364])
    """
    rel = as_rows(relevant, bool)
    curve = precision_curve(rel, np.cumsum(rel, axis=1), n_retrieved)
    rule = check_choice(recall_rank, "recall_rank", RECALL_RANKS)
    return _eleven_point(curve, per_query(n_relevant), recalls, rule)


def precision_curve(relevant: np.ndarray, found: np.ndarray, n_retrieved: Any) -> np.ndarray:
    """Per query, the interpolated precision from its j-th relevant document on, for j = 0, 1, 2, ...

    ``relevant`` marks the relevant ranks, ``found`` counts them in ranks 1..i.
    Column 0 is the best precision at any rank; column j >= 1 the best at the
    rank of the j-th relevant document or later; past the last relevant
    document retrieved, 0. Every recall level of a query reads one column, so
    the 11 levels of ``iprec_at_recall`` and ``11pt_avg`` share one curve.
    """
    n, width = found.shape
    length = per_query(n_retrieved)
    ranks = np.arange(1, width + 1, dtype=float)
    precision = np.where(ranks <= length[:, None], found / ranks, 0.0)
    best_from = np.maximum.accumulate(precision[:, ::-1], axis=1)[:, ::-1]  # best at this rank or later
    total = found[:, -1].astype(np.int64) if width else np.zeros(n, dtype=np.int64)
    curve = np.zeros((n, int(total.max(initial=0)) + 2))
    curve[:, 0] = best_from[:, 0] if width else 0.0
    # The j-th relevant document of a query is at the rank where found first reaches j.
    at = np.nonzero(relevant)
    curve[at[0], found[at].astype(np.int64)] = best_from[at]
    return curve


def _interpolated(curve: np.ndarray, n_relevant: np.ndarray, recall: float, rule: str) -> np.ndarray:
    """Interpolated precision at one recall level, read off each query's precision curve."""
    needed = _needed(recall, n_relevant, rule)
    # Beyond the relevant documents retrieved the curve holds 0; its last column is always past them.
    column = np.clip(needed, 0, curve.shape[1] - 1).astype(np.int64)
    return curve[np.arange(curve.shape[0]), column]


def _eleven_point(
    curve: np.ndarray, n_relevant: np.ndarray, recalls: tuple[float, ...], rule: str
) -> np.ndarray:
    total = np.zeros(curve.shape[0])
    for recall in sorted(recalls, reverse=True):  # trec_eval adds from the highest level down
        total += _interpolated(curve, n_relevant, recall, rule)
    return total / len(recalls)


def _curve(c: Columns) -> np.ndarray:
    """The precision curve of a group of queries, shared by every recall level (Columns.shared)."""
    return precision_curve(c.relevant, c.hits_so_far, c.n_retrieved)


def r_precision_multiple(relevant: Any, n_relevant: Any, multiple: float) -> np.ndarray:
    """Precision at a multiple of R: Precision@c with c = int(multiple * R + 0.9).

    R-precision is the multiple 1.0. Comparing low and high multiples shows
    whether a system is precision- or recall-oriented. As for P@k, ranks past
    the end of the list count as non-relevant; c = 0 (no relevant document)
    scores 0.

    Parameters
    ----------
    relevant : 2-D boolean array
        Per query and rank: the document is relevant.
    n_relevant : 1-D array
        R of each query.
    multiple : float
        The multiple of R (trec_eval's defaults: 0.2, 0.4, ..., 2.0).

    Returns
    -------
    1-D array, one value per query.

    References
    ----------
    trec_eval ``m_Rprec_mult.c``.

    Examples
    --------
    >>> r_precision_multiple([[1, 0, 1, 1, 0]], [4], 0.5)  # c = int(2.9) = 2: 1 of 2
    array([0.5])
    >>> r_precision_multiple([[1, 0, 1, 1, 0]], [4], 2.0)  # c = 8: 3 of 8
    array([0.375])
    """
    found = np.cumsum(as_rows(relevant, bool), axis=1)
    return _r_precision_multiple(found, per_query(n_relevant), multiple)


def _r_precision_multiple(found: np.ndarray, n_relevant: np.ndarray, multiple: float) -> np.ndarray:
    """Rprec_mult from ``found``, the relevant documents in ranks 1..i at each rank i."""
    depth = np.trunc(multiple * n_relevant + 0.9)
    column = (np.clip(depth, 1, found.shape[1]) - 1).astype(np.int64)
    hits = np.where(depth >= 1, found[np.arange(found.shape[0]), column], 0.0)
    return safe_divide(hits, depth)


def relative_precision(relevant: Any, n_relevant: Any, k: int) -> np.ndarray:
    """Relative precision@k: Precision@k over the best Precision@k possible, hits / min(k, R).

    Precision up to rank R, recall after it. 0 when R = 0.

    Parameters
    ----------
    relevant : 2-D boolean array
        Per query and rank: the document is relevant.
    n_relevant : 1-D array
        R of each query.
    k : positive int
        The cutoff.

    Returns
    -------
    1-D array, one value per query.

    References
    ----------
    trec_eval ``m_rel_P.c``.

    Examples
    --------
    >>> relative_precision([[1, 0, 1, 0, 0]], [2], 5)  # 2 hits, at most 2 possible
    array([1.])
    """
    hits = np.count_nonzero(as_rows(relevant, bool)[:, :k], axis=1)
    return _relative_precision(hits, per_query(n_relevant), k)


def _relative_precision(hits: np.ndarray, n_relevant: np.ndarray, k: int) -> np.ndarray:
    return safe_divide(hits, np.minimum(float(k), n_relevant))


MEASURES = (
    trec_measure(
        "interpolated_precision",
        "iprec_at_recall",
        "iprec",
        N_("interpolated precision at a recall level (iprec_at_recall_0.10 and so on)"),
        lambda c, k, level=None: _interpolated(
            c.shared(_curve), c.n_relevant, required_level(level, "iprec_at_recall"), c.recall_rank
        ),
        parameter="level",
        check_parameter=lambda level: out_of_range([level], N_("the recall level"), 0, 1),
    ),
    trec_measure(
        "eleven_point_average",
        "11pt_avg",
        "11pt_avg",
        N_("the 11-point average of interpolated precision (recall 0.0, 0.1, ..., 1.0)"),
        lambda c, k, recalls=None: _eleven_point(
            c.shared(_curve),
            c.n_relevant,
            parameter_numbers(recalls, "11pt_avg", ELEVEN_POINTS, None),
            c.recall_rank,
        ),
        parameter="numbers",
        check_parameter=lambda recalls: out_of_range(recalls, N_("a recall level"), 0, 1),
    ),
    trec_measure(
        "r_precision_multiple",
        "Rprec_mult",
        "Rprec_mult",
        N_("precision at a multiple of R (Rprec_mult_0.20 and so on)"),
        lambda c, k, multiple=None: _r_precision_multiple(
            c.hits_so_far, c.n_relevant, required_level(multiple, "Rprec_mult")
        ),
        parameter="level",
        check_parameter=lambda multiple: out_of_range([multiple], N_("the multiple of R"), 0, open_low=True),
    ),
    trec_measure(
        "relative_precision",
        None,
        "relative_P",
        N_("relative precision@k: relevant found ÷ min(k, R)"),
        lambda c, k: _relative_precision(c.hits_in_top(k), c.n_relevant, k),
        cutoff="required",
        trec_cutoff_name="relative_P",
    ),
)
