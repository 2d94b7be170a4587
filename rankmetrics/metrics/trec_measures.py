"""trec_eval's measures of a judged run that the other metric modules do not cover.

These are the rest of ``trec_eval -m all_trec`` (trec_eval 10.0): bpref and
infAP for incomplete judgements, interpolated precision, precision at
multiples of R, the set measures, the experimental gain measures (binG, G,
ndcg_rel, Rndcg), rank-biased precision, and the bookkeeping lines (``runid``,
``num_q``, ``relstring``, ``unj_k``, ``num_nonrel_judged_ret``).

Each function takes what :func:`rankmetrics.evaluate` hands its metrics, one
query per row, in ranked order, padded on the right, and returns one value per
query. trec_eval sorts each ranked document into one of four kinds
(``form_res_rels.c``), and so do the arguments here:

- **relevant**: judged with a grade >= the relevance level (``-l``);
- **non-relevant**: judged with 0 <= grade < the relevance level;
- **in the pool but unjudged**: in the qrels with a negative grade (TREC's -1,
  e.g. the documents infAP's sampling left unjudged);
- **not in the pool**: not in the qrels at all.

A query without relevant documents scores 0 on every measure, as in
trec_eval. Each docstring names the paper that defined the measure and the
trec_eval file (``m_*.c``) whose conventions it follows; the code is written
from those descriptions, not copied.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._arrays import pad_right, safe_divide
from ..registry import Columns, Metric, register
from .conventions import RBP_PERSISTENCE, discounts, gain_map, trec_gains
from .ties import tie_mean

# trec_eval's constants (trec_eval.h).
_INFAP_EPSILON = 0.00001
ELEVEN_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
IPREC_LEVELS = ELEVEN_POINTS  # iprec_at_recall's default levels, 0.00 ... 1.00
RPREC_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)  # Rprec_mult's defaults
UTILITY_DEFAULT = (1.0, -1.0, 0.0, 0.0)  # utility's p1..p4
RELSTRING_LENGTH = 10


# ---------------------------------------------------------------- shared helpers


def _rows(x: Any, dtype: Any = float) -> np.ndarray:
    return np.atleast_2d(np.asarray(x, dtype=dtype))


def _per_query(x: Any) -> np.ndarray:
    return np.atleast_1d(np.asarray(x, dtype=float))


def _above(mask: np.ndarray) -> np.ndarray:
    """How many ranks strictly above each rank have the mask set."""
    counts = np.cumsum(mask, axis=1)
    return counts - mask


def _lround(x: np.ndarray) -> np.ndarray:
    """C's lround for x >= 0 (halves away from zero); any x < 0 becomes a value <= 0."""
    low = np.floor(x)
    return np.where(x - low >= 0.5, low + 1, low)


def judged_counts(judged_grades: np.ndarray, relevance_level: float) -> tuple[np.ndarray, np.ndarray]:
    """Per query: (relevant judgements, judged non-relevant ones), from every judgement's grade.

    Relevant: grade >= ``relevance_level``; non-relevant: 0 <= grade <
    ``relevance_level``. A negative grade ("in the pool, unjudged") and the
    ``-inf`` padding count as neither (trec_eval's ``rel_levels``).

    Examples
    --------
    >>> judged_counts(np.array([[2.0, 0.0, 1.0, -1.0], [0.0, -np.inf, -np.inf, -np.inf]]), 1)
    (array([2., 0.]), array([1., 1.]))
    """
    relevant = np.count_nonzero(judged_grades >= relevance_level, axis=1).astype(float)
    judged = np.count_nonzero(judged_grades >= 0, axis=1).astype(float)
    return relevant, judged - np.count_nonzero(
        (judged_grades >= 0) & (judged_grades >= relevance_level), axis=1
    )


# ---------------------------------------------------------------- incomplete judgements


def bpref(relevant: Any, nonrelevant: Any, n_relevant: Any, n_nonrelevant: Any) -> np.ndarray:
    """Binary preference (bpref): how often relevant documents come before judged non-relevant ones.

    Only judged documents count, so documents nobody judged neither help nor
    hurt: the measure was made for incomplete judgements. With R relevant and
    N judged non-relevant documents, and n_r the judged non-relevant documents
    ranked above a retrieved relevant document r,

        bpref = (1 / R) * sum over retrieved relevant r of (1 - min(n_r, R) / min(N, R)),

    a term being 1 when n_r = 0. trec_eval's ``gm_bpref`` is its geometric
    mean over queries.

    Parameters
    ----------
    relevant, nonrelevant : 2-D boolean arrays
        Per query and rank: the document is judged relevant / judged non-relevant.
    n_relevant, n_nonrelevant : 1-D arrays
        R and N of each query (every judgement, retrieved or not).

    Returns
    -------
    1-D array, one value per query.

    References
    ----------
    Buckley & Voorhees, "Retrieval evaluation with incomplete information", SIGIR 2004;
    trec_eval ``m_bpref.c``, ``m_gm_bpref.c``.

    Examples
    --------
    >>> # ranked: relevant, non-relevant, unjudged, relevant; R = 3, N = 2
    >>> bpref([[1, 0, 0, 1]], [[0, 1, 0, 0]], n_relevant=[3], n_nonrelevant=[2])  # (1 + (1 - 1/2)) / 3
    array([0.5])
    """
    rel, non = _rows(relevant, bool), _rows(nonrelevant, bool)
    total_relevant = _per_query(n_relevant)[:, None]
    total_nonrelevant = _per_query(n_nonrelevant)[:, None]
    # At a relevant rank the document itself is not non-relevant: the count is of those above.
    above = np.cumsum(non, axis=1)
    share = safe_divide(np.minimum(above, total_relevant), np.minimum(total_nonrelevant, total_relevant))
    return safe_divide(np.where(rel, 1.0 - share, 0.0).sum(axis=1), total_relevant[:, 0])


def inferred_ap(relevant: Any, nonrelevant: Any, pool_unjudged: Any, n_relevant: Any) -> np.ndarray:
    """Inferred average precision (infAP): AP estimated from a random sample of the judging pool.

    At each retrieved relevant document at rank k > 1 it adds the expected
    precision there,

        1/k + ((k - 1)/k) * (pooled above / (k - 1)) * ((rel above + ε) / (judged above + 2ε)),

    where "pooled above" counts the documents ranked above that are in the
    qrels (judged or not), "judged above" the judged ones, and ε = 0.00001;
    a relevant document at rank 1 adds 1. The sum is divided by R. With every
    pooled document judged (no negative grades) it equals AP.

    Parameters
    ----------
    relevant, nonrelevant : 2-D boolean arrays
        Per query and rank: judged relevant / judged non-relevant.
    pool_unjudged : 2-D boolean array
        In the qrels with a negative grade (in the pool, not judged).
    n_relevant : 1-D array
        R of each query.

    Returns
    -------
    1-D array, one value per query.

    References
    ----------
    Yilmaz & Aslam, "Estimating average precision with incomplete and imperfect judgments",
    CIKM 2006; trec_eval ``m_infAP.c``.

    Examples
    --------
    >>> # relevant, in the pool but unjudged, relevant; R = 2
    >>> inferred_ap([[1, 0, 1]], [[0, 0, 0]], [[0, 1, 0]], n_relevant=[2]).round(4)
    array([1.])
    >>> inferred_ap([[0, 1]], [[1, 0]], [[0, 0]], n_relevant=[1]).round(4)  # AP's 1/2, up to ε
    array([0.5])
    """
    rel, non, unj = _rows(relevant, bool), _rows(nonrelevant, bool), _rows(pool_unjudged, bool)
    rel_above, non_above, unj_above = _above(rel), _above(non), _above(unj)
    k = np.arange(rel.shape[1], dtype=float)[None, :]  # 0-based: the ranks above
    with np.errstate(divide="ignore", invalid="ignore"):
        pooled = (rel_above + non_above + unj_above) / k
        sampled = (rel_above + _INFAP_EPSILON) / (rel_above + non_above + 2 * _INFAP_EPSILON)
        expected = 1.0 / (k + 1.0) + (k / (k + 1.0)) * pooled * sampled
    expected[:, 0] = 1.0
    return safe_divide(np.where(rel, expected, 0.0).sum(axis=1), _per_query(n_relevant))


# ---------------------------------------------------------------- interpolated precision


def interpolated_precision(relevant: Any, n_retrieved: Any, n_relevant: Any, recall: float) -> np.ndarray:
    """Interpolated precision at a recall level: the best precision at or after reaching it.

    The recall level r becomes a number of relevant documents, c =
    round(r * R) (halves rounded up, as trec_eval 10's ``lround``; version 9
    and earlier used int(r * R + 0.9)). The value is the highest precision
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
    """
    rel = _rows(relevant, bool)
    length = _per_query(n_retrieved)
    ranks = np.arange(1, rel.shape[1] + 1, dtype=float)
    found = np.cumsum(rel, axis=1)
    precision = np.where(ranks <= length[:, None], found / ranks, 0.0)
    best_from = np.maximum.accumulate(precision[:, ::-1], axis=1)[:, ::-1]  # best at this rank or later
    needed = _lround(recall * _per_query(n_relevant))
    at = np.argmax(found >= np.maximum(needed, 1)[:, None], axis=1)  # rank of the needed-th relevant
    value = np.where(needed <= 0, best_from[:, 0], best_from[np.arange(rel.shape[0]), at])
    return np.where(needed > found[:, -1], 0.0, value)


def eleven_point_average(
    relevant: Any, n_retrieved: Any, n_relevant: Any, recalls: tuple[float, ...] = ELEVEN_POINTS
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
    total = np.zeros(_rows(relevant).shape[0])
    for recall in sorted(recalls, reverse=True):  # trec_eval adds from the highest level down
        total += interpolated_precision(relevant, n_retrieved, n_relevant, recall)
    return total / len(recalls)


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
    rel = _rows(relevant, bool)
    depth = np.trunc(multiple * _per_query(n_relevant) + 0.9)
    found = np.cumsum(rel, axis=1)
    column = (np.clip(depth, 1, rel.shape[1]) - 1).astype(np.int64)
    hits = np.where(depth >= 1, found[np.arange(rel.shape[0]), column], 0.0)
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
    trec_eval ``m_relative_P.c``.

    Examples
    --------
    >>> relative_precision([[1, 0, 1, 0, 0]], [2], 5)  # 2 hits, at most 2 possible
    array([1.])
    """
    rel = _rows(relevant, bool)
    hits = np.count_nonzero(rel[:, :k], axis=1)
    total = _per_query(n_relevant)
    return safe_divide(hits, np.minimum(float(k), total))


# ---------------------------------------------------------------- the retrieved set


def set_precision(n_relevant_retrieved: Any, n_retrieved: Any) -> np.ndarray:
    """Set precision: relevant retrieved / retrieved, over the whole list (trec_eval's ``set_P``).

    Unlike P@k the list is not filled up to k with non-relevant ranks.

    References
    ----------
    trec_eval ``m_set_P.c`` (``exact_prec`` in older versions).

    Examples
    --------
    >>> set_precision([3, 0], [4, 0])
    array([0.75, 0.  ])
    """
    return safe_divide(_per_query(n_relevant_retrieved), _per_query(n_retrieved))


def set_recall(n_relevant_retrieved: Any, n_relevant: Any) -> np.ndarray:
    """Set recall: relevant retrieved / R, over the whole list (trec_eval's ``set_recall``).

    References
    ----------
    trec_eval ``m_set_recall.c``.

    Examples
    --------
    >>> set_recall([3], [4])
    array([0.75])
    """
    return safe_divide(_per_query(n_relevant_retrieved), _per_query(n_relevant))


def set_map(n_relevant_retrieved: Any, n_retrieved: Any, n_relevant: Any) -> np.ndarray:
    """Unranked set AP: set precision × set recall, (relevant retrieved)² / (retrieved × R).

    AP when every retrieved document had the set's precision and the
    unretrieved relevant ones precision 0 (trec_eval's ``set_map``).

    References
    ----------
    trec_eval ``m_set_map.c`` (``exact_unranked_avg_prec`` in older versions).

    Examples
    --------
    >>> set_map([3], [4], [6])  # 9 / 24
    array([0.375])
    """
    found = _per_query(n_relevant_retrieved)
    return safe_divide(found * found, _per_query(n_retrieved) * _per_query(n_relevant))


def set_relative_precision(n_relevant_retrieved: Any, n_retrieved: Any, n_relevant: Any) -> np.ndarray:
    """Relative set precision: relevant retrieved / min(retrieved, R) (trec_eval's ``set_relative_P``).

    References
    ----------
    trec_eval ``m_set_relative_P.c``.

    Examples
    --------
    >>> set_relative_precision([3], [10], [4])
    array([0.75])
    """
    return safe_divide(
        _per_query(n_relevant_retrieved), np.minimum(_per_query(n_retrieved), _per_query(n_relevant))
    )


def set_f(n_relevant_retrieved: Any, n_retrieved: Any, n_relevant: Any, beta: float = 1.0) -> np.ndarray:
    """Set F: the weighted harmonic mean of set precision P and set recall R.

        set_F = (beta + 1) P R / (beta P + R),

    beta weighting recall against precision (trec_eval's ``set_F.beta``,
    default 1: the F1 of the retrieved set). 0 without a relevant retrieved document.

    References
    ----------
    van Rijsbergen, *Information Retrieval* (1979), ch. 7 (the E measure);
    trec_eval ``m_set_F.c``.

    Examples
    --------
    >>> set_f([3], [4], [6])  # P = 0.75, R = 0.5
    array([0.6])
    """
    found = _per_query(n_relevant_retrieved)
    precision = safe_divide(found, _per_query(n_retrieved))
    recall = safe_divide(found, _per_query(n_relevant))
    value = safe_divide((beta + 1.0) * precision * recall, beta * precision + recall)
    return np.where(found > 0, value, 0.0)


def utility(
    n_relevant_retrieved: Any,
    n_retrieved: Any,
    n_relevant: Any,
    coefficients: tuple[float, float, float, float] = UTILITY_DEFAULT,
    n_documents: float = 0.0,
) -> np.ndarray:
    """Linear utility of the retrieved set: p1·a + p2·b + p3·c + p4·d over its contingency table.

    a: relevant retrieved, b: non-relevant retrieved, c: relevant not
    retrieved, d: non-relevant not retrieved (needs the collection's size,
    ``n_documents``; trec_eval's ``-N``, 0 unless given). The default
    coefficients (1, -1, 0, 0) give a - b. Summarised by the mean, as
    trec_eval does (it notes that a sum could be argued for).

    References
    ----------
    Lewis, "The TREC-4 filtering track", TREC 1995; trec_eval ``m_utility.c``.

    Examples
    --------
    >>> utility([3], [10], [4])  # 3 - 7
    array([-4.])
    >>> utility([3], [10], [4], coefficients=(2, -1, -1, 0))  # 6 - 7 - 1
    array([-2.])
    """
    p1, p2, p3, p4 = coefficients
    found, retrieved, total = (
        _per_query(n_relevant_retrieved),
        _per_query(n_retrieved),
        _per_query(n_relevant),
    )
    return (
        p1 * found
        + p2 * (retrieved - found)
        + p3 * (total - found)
        + p4 * (n_documents + found - retrieved - total)
    )


# ---------------------------------------------------------------- gain measures


def binary_g(relevant: Any, n_relevant: Any) -> np.ndarray:
    """binG: the mean over relevant documents of 1 / log2(2 + non-relevant ranked above it).

    An experimental measure between AP and nDCG: a relevant document loses
    only for the non-relevant (or unjudged) documents above it, with a log
    discount. Unretrieved relevant documents add 0 to the mean over R.

    References
    ----------
    trec_eval ``m_binG.c`` (C. Buckley, 2008).

    Examples
    --------
    >>> binary_g([[0, 1, 0, 1]], [3]).round(4)  # (1/log2 3 + 1/log2 4) / 3
    array([0.377])
    """
    rel = _rows(relevant, bool)
    ranks_above = np.arange(rel.shape[1], dtype=float)[None, :]
    nonrelevant_above = ranks_above - _above(rel)
    terms = np.where(rel, 1.0 / np.log2(2.0 + nonrelevant_above), 0.0)
    return safe_divide(terms.sum(axis=1), np.where(rel.any(axis=1), _per_query(n_relevant), 0.0))


def normalized_gain(gains: Any, ideal: Any) -> np.ndarray:
    """G: each document's gain discounted by how far the run has fallen behind the ideal so far.

    At rank i, with S_i the run's gain so far and C_i the sum over ranks
    j <= i of max(ideal gain at j, 1), a document of gain g adds
    g / log2(2 + C_i - S_i); the total is divided by the ideal's total gain.
    A document is thus worth more when the documents above it were good.

    Parameters
    ----------
    gains : 2-D array
        Per query and rank: the document's gain (0 when unjudged).
    ideal : 2-D array
        Per query: the positive gains of every judgement, high to low, padded with 0.

    References
    ----------
    trec_eval ``m_G.c`` (C. Buckley, 2008).

    Examples
    --------
    >>> normalized_gain([[1, 2]], [[2, 1]]).round(4)  # (1/log2(2+2-1) + 2/log2(2+3-3)) / 3
    array([0.877])
    """
    gained, best = _rows(gains), _rows(ideal)
    best_here = pad_right(best, gained.shape[1])[:, : gained.shape[1]]
    cost = np.cumsum(np.maximum(best_here, 1.0), axis=1)
    so_far = np.cumsum(gained, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(gained != 0, gained / np.log2(2.0 + cost - so_far), 0.0)
    return safe_divide(terms.sum(axis=1), best.sum(axis=1))


def _dcg_curves(gains: np.ndarray, ideal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """DCG of the run and of the ideal at every rank, over as many ranks as the longer has."""
    width = max(gains.shape[1], ideal.shape[1])
    discount = discounts(width)
    return np.cumsum(pad_right(gains, width) / discount, axis=1), np.cumsum(
        pad_right(ideal, width) / discount, axis=1
    )


def ndcg_over_relevant(gains: Any, ideal: Any) -> np.ndarray:
    """ndcg_rel: nDCG averaged over the ranks of the relevant documents.

    nDCG@i (DCG@i over the ideal DCG@i) is taken at the rank i of each
    retrieved document with a positive gain; each positive-gain document that
    was not retrieved contributes nDCG at the end of the list. The mean is
    over all positive-gain judgements.

    Parameters
    ----------
    gains, ideal
        As in :func:`normalized_gain`.

    References
    ----------
    Järvelin & Kekäläinen, "Cumulated gain-based evaluation of IR techniques", ACM TOIS 20(4),
    2002; trec_eval ``m_ndcg_rel.c``.

    Examples
    --------
    >>> ndcg_over_relevant([[1, 0, 1]], [[1, 1]]).round(4)  # (1 + 1.5/1.6309) / 2
    array([0.9599])
    """
    gained, best = _rows(gains), _rows(ideal)
    dcg, ideal_dcg = _dcg_curves(gained, best)
    positive = pad_right(gained, dcg.shape[1]) > 0
    at_relevant = np.where(positive, safe_divide(dcg, ideal_dcg), 0.0).sum(axis=1)
    unretrieved = np.count_nonzero(best > 0, axis=1) - np.count_nonzero(positive, axis=1)
    total = at_relevant + unretrieved * safe_divide(dcg[:, -1], ideal_dcg[:, -1])
    return np.where(total > 0, safe_divide(total, np.count_nonzero(best > 0, axis=1)), 0.0)


def ndcg_at_r_levels(gains: Any, ideal: Any, n_retrieved: Any, n_relevant: Any) -> np.ndarray:
    """Rndcg: nDCG averaged at the ranks where the ideal gain steps down.

    With 5 documents of grade 3, 3 of grade 2 and 10 of grade 1 judged, the
    ideal's gain changes after ranks 5, 8 and 18: Rndcg averages nDCG@5,
    nDCG@8 and nDCG@18 (the run's DCG stops growing at its last document).
    When the run retrieved at least two documents more than there are
    positive-gain judgements, nDCG at the end of the run is averaged in too
    (trec_eval's implied last level). 0 when R = 0, and 0 when a gain map
    leaves no positive gain (trec_eval divides 0 by 0 there).

    Parameters
    ----------
    gains, ideal
        As in :func:`normalized_gain`.
    n_retrieved, n_relevant : 1-D arrays
        The length of each ranked list, and R (relevant at the relevance level).

    References
    ----------
    trec_eval ``m_Rndcg.c``.

    Examples
    --------
    >>> ndcg_at_r_levels([[2, 0, 1, 0]], [[2, 1, 1]], [4], [3]).round(4)  # (nDCG@1 + nDCG@3) / 2
    array([0.8992])
    """
    gained, best = _rows(gains), _rows(ideal)
    dcg, ideal_dcg = _dcg_curves(gained, best)
    best = pad_right(best, dcg.shape[1])
    following = np.concatenate([best[:, 1:], np.zeros((best.shape[0], 1))], axis=1)
    step = (best > 0) & (following != best)
    points = np.where(step, safe_divide(dcg, ideal_dcg), 0.0).sum(axis=1)
    count = np.count_nonzero(step, axis=1)
    beyond = _per_query(n_retrieved) >= np.count_nonzero(best > 0, axis=1) + 2
    points = points + np.where(beyond, safe_divide(dcg[:, -1], ideal_dcg[:, -1]), 0.0)
    count = count + beyond
    return np.where(_per_query(n_relevant) > 0, safe_divide(points, count), 0.0)


def rank_biased_precision(gains: Any, persistence: float = RBP_PERSISTENCE) -> np.ndarray:
    """Rank-biased precision: (1 - p) · sum of gain_i · p^(i-1), a user going on with probability p.

    p = 0.9 (the default) models a user who reads about 10 documents;
    0.95 or 0.98 are closer to AP. Gains lie in [0, 1]: trec_eval rescales
    each query's level gains to [0, 1] when any lies outside (so a grade-4
    document earns 1 and a grade-1 one 0.25); :func:`rankmetrics.evaluate`
    does the same before calling this.

    Parameters
    ----------
    gains : 2-D array
        Per query and rank: the document's gain in [0, 1] (0 when unjudged).
    persistence : float
        p, the probability of reading on.

    References
    ----------
    Moffat & Zobel, "Rank-biased precision for measurement of retrieval effectiveness",
    ACM TOIS 27(1), 2008; trec_eval ``m_rbp.c``.

    Examples
    --------
    >>> rank_biased_precision([[1, 0, 1]], 0.5)  # 0.5 * (1 + 0.25)
    array([0.625])
    """
    gained = _rows(gains)
    weights = _weights(gained.shape[1], persistence)
    return (1.0 - persistence) * (gained * weights[:-1]).sum(axis=1)


def _weights(width: int, persistence: float) -> np.ndarray:
    # p^0, p^1, ..., p^width, each the previous times p, as trec_eval computes them.
    return np.concatenate([[1.0], np.cumprod(np.full(width, persistence))])


def rbp_residual(unjudged: Any, n_retrieved: Any, persistence: float = RBP_PERSISTENCE) -> np.ndarray:
    """RBP's residual: how much RBP could still rise if every unjudged retrieved document were relevant.

        rbp_resid = p^n + (1 - p) · sum over unjudged ranks i of p^(i-1),

    n being the number retrieved (p^n is the weight of the ranks past the
    end). As in trec_eval, 0 when no retrieved document is unjudged.

    References
    ----------
    Moffat & Zobel, ACM TOIS 27(1), 2008; trec_eval ``m_rbp_resid.c``.

    Examples
    --------
    >>> rbp_residual([[0, 1]], [2], 0.5)  # 0.25 + 0.5 * 0.5
    array([0.5])
    """
    unj = _rows(unjudged, bool)
    length = _per_query(n_retrieved).astype(np.int64)
    weights = _weights(max(unj.shape[1], int(length.max(initial=0))), persistence)
    value = weights[length] + (1.0 - persistence) * (unj * weights[: unj.shape[1]]).sum(axis=1)
    return np.where(unj.any(axis=1), value, 0.0)


# ---------------------------------------------------------------- bookkeeping


def unjudged_fraction(unjudged: Any, k: int) -> np.ndarray:
    """unj@k: the share of the top k without a judgement (a "red flag" for poorly judged runs).

    Not in the qrels, or in them with a negative grade. Ranks past the end of
    the list count as judged.

    References
    ----------
    trec_eval ``m_unjudged.c`` (``unj_k``).

    Examples
    --------
    >>> unjudged_fraction([[0, 1, 1]], 5)
    array([0.4])
    """
    return np.count_nonzero(_rows(unjudged, bool)[:, :k], axis=1) / float(k)


def judged_fraction(in_qrels: Any, n_retrieved: Any, k: int | None = None) -> np.ndarray:
    """Judged@k: the share of the top k that is in the qrels, out of min(k, retrieved).

    A warning sign for reusing judgements: a new system whose top 10 is
    half unjudged is scored as if those documents were non-relevant. As in
    ir_measures' ``Judged`` (from OpenNIR): a document counts as judged when
    it is in the qrels with any grade, and a list shorter than k is divided
    by its length. (trec_eval's ``unj_k`` counts a negative grade as
    unjudged and divides by k.) 0 for an empty list.

    References
    ----------
    MacAvaney et al., ir_measures ``Judged`` / OpenNIR ``judged.py``.

    Examples
    --------
    >>> judged_fraction([[1, 0, 1, 1]], [4], 2)
    array([0.5])
    >>> judged_fraction([[1, 1, 0]], [3], 10)  # 2 of the 3 retrieved
    array([0.66666667])
    """
    found = _rows(in_qrels)
    depth = found.shape[1] if k is None else k
    shown = np.minimum(_per_query(n_retrieved), depth).astype(float)
    return safe_divide(found[:, :depth].sum(axis=1), shown)


def relevance_string(
    grades: Any, judged: Any, pooled: Any, n_retrieved: Any, length: int = RELSTRING_LENGTH
) -> np.ndarray:
    """The grades of the first documents, one character each: trec_eval's ``relstring``.

    A digit for a grade 0-9, ``>`` above 9, ``-`` for a document not in the
    qrels, ``.`` for one in the pool but unjudged (a negative grade). A
    fractional grade shows its whole part.

    Returns
    -------
    1-D array of str (dtype object), one per query.

    References
    ----------
    trec_eval ``m_relstring.c``.

    Examples
    --------
    >>> relevance_string([[2, 0, 0, 12]], [[1, 1, 0, 1]], [[1, 1, 1, 1]], [4]).tolist()
    ['20.>']
    >>> relevance_string([[1, 0, 0]], [[1, 0, 0]], [[1, 0, 0]], [2]).tolist()  # 2 retrieved
    ['1-']
    """
    graded = _rows(grades)[:, :length]
    known, pool = _rows(judged, bool)[:, :length], _rows(pooled, bool)[:, :length]
    shown = np.arange(graded.shape[1]) < _per_query(n_retrieved)[:, None]
    digits = np.clip(graded, 0, 9).astype(np.int64).astype(str)
    chars = np.where(graded > 9, ">", digits)
    chars = np.where(known, chars, np.where(pool, ".", "-"))
    chars = np.ascontiguousarray(np.where(shown, chars, "")).astype("<U1")
    # A row of one-character strings read as one string; numpy drops the empty padding.
    return chars.view(f"<U{chars.shape[1]}")[:, 0].astype(object)


# ---------------------------------------------------------------- parameters


def _numbers(parameter: tuple | None, name: str, default: tuple[float, ...], count: int | None) -> tuple:
    if parameter is None:
        return default
    if count is not None and len(parameter) != count:
        raise ValueError(f"{name} takes {count} number{'s' * (count > 1)}; got {len(parameter)}: {parameter}")
    return tuple(parameter)


def trec_gain_arrays(c: Columns, gains: dict[int, float] | None) -> tuple[np.ndarray, np.ndarray]:
    """The run's gains and the ideal gains of a group of queries, with a gain map (see trec_gains)."""
    return trec_gains(c.graded, c.judged, c.judged_grades, gains)


def _rbp_gains(c: Columns, gains: dict[int, float]) -> np.ndarray:
    """RBP's gains as trec_eval rescales them (m_rbp.c), per query.

    A query's level gains are those of every level 0..its highest grade
    (``gains.get(level, level)``) and of every mapped level. When the lowest
    is below 0 or the highest above 1, all are rescaled to [0, 1] by
    (gain - lowest) / (highest - lowest); unjudged documents keep 0.
    trec_eval leaves the running minimum and maximum without a start value;
    NIST's test outputs are matched by starting both at 0, as here.
    """
    top = np.max(np.where(c.judged_grades >= 0, np.floor(c.judged_grades), -1.0), axis=1, initial=-1.0)
    for level in sorted(gains, reverse=True):  # the highest level whose gain is the level itself
        top = np.where(top == level, top - 1, top)
    mapped = np.array(list(gains.values()), dtype=float)
    highest = np.maximum(np.maximum(top, 0.0), mapped.max(initial=0.0))
    lowest = min(0.0, float(mapped.min(initial=0.0)))
    run, _ = trec_gain_arrays(c, gains)
    rescale = ((lowest < 0) | (highest > 1))[:, None]
    rescaled = safe_divide(run - lowest, (highest - lowest)[:, None])
    return np.where(c.judged, np.where(rescale, rescaled, run), 0.0)


# ---------------------------------------------------------------- registration


def _tie_mean(c: Columns, values: np.ndarray) -> np.ndarray:
    """ties="average": each rank's value replaced by its tie group's mean (its expectation)."""
    return values if c.tie_start is None else tie_mean(values, c.tie_start, c.tie_end)


def _relevant(c: Columns) -> np.ndarray:
    return c.binary > 0


def _nonrelevant(c: Columns) -> np.ndarray:
    return c.judged & (c.binary == 0)


def _unjudged(c: Columns) -> np.ndarray:
    return c.retrieved & ~c.judged


def _found(c: Columns) -> np.ndarray:
    return c.binary.sum(axis=1)


def _level(parameter: Any, name: str) -> float:
    if parameter is None:
        raise AssertionError(f"{name} needs its level")  # parse_metric asks for one
    return parameter


register(
    Metric(
        "runid",
        None,
        label="runid",
        title="런 이름 (런 파일 마지막 줄의 태그)",
        inputs="trec",
        cutoff="none",
        trec_name="runid",
        summary="run_id",
        text="{}",
        trec_lines="all",
        reads_ranking=False,
        evaluate=lambda c, k: np.full(c.n_retrieved.shape, "", dtype=object),
    )
)
register(
    Metric(
        "num_q",
        None,
        label="num_q",
        title="평가한 질의 수",
        inputs="trec",
        cutoff="none",
        trec_name="num_q",
        summary="sum",
        count=True,
        trec_lines="all",
        reads_ranking=False,
        evaluate=lambda c, k: np.ones(c.n_retrieved.shape),
    )
)
register(
    Metric(
        "bpref",
        None,
        label="bpref",
        title="bpref: 판정된 비관련 문서보다 앞선 관련 문서의 비율",
        inputs="trec",
        cutoff="none",
        trec_name="bpref",
        evaluate=lambda c, k: bpref(_relevant(c), _nonrelevant(c), c.n_relevant, c.n_nonrelevant),
    )
)
register(
    Metric(
        "gm_bpref",
        None,
        label="GM-bpref",
        title="bpref의 기하평균 (0.00001 아래로 내리지 않음)",
        inputs="trec",
        cutoff="none",
        trec_name="gm_bpref",
        summary="geometric",
        trec_lines="all",
        evaluate=lambda c, k: bpref(_relevant(c), _nonrelevant(c), c.n_relevant, c.n_nonrelevant),
    )
)
register(
    Metric(
        "inferred_ap",
        None,
        label="infAP",
        title="infAP: 판정 표본으로 추정한 AP",
        inputs="trec",
        cutoff="none",
        trec_name="infAP",
        evaluate=lambda c, k: inferred_ap(_relevant(c), _nonrelevant(c), c.pooled & ~c.judged, c.n_relevant),
    )
)
register(
    Metric(
        "interpolated_precision",
        None,
        label="iprec",
        title="재현율 수준에서의 보간 정밀도 (iprec_at_recall_0.10 등)",
        inputs="trec",
        cutoff="none",
        trec_name="iprec_at_recall",
        parameter="level",
        evaluate=lambda c, k, level=None: interpolated_precision(
            _relevant(c), c.n_retrieved, c.n_relevant, _level(level, "iprec_at_recall")
        ),
    )
)
register(
    Metric(
        "eleven_point_average",
        None,
        label="11pt_avg",
        title="11점 평균 보간 정밀도 (재현율 0.0, 0.1, ..., 1.0)",
        inputs="trec",
        cutoff="none",
        trec_name="11pt_avg",
        parameter="numbers",
        evaluate=lambda c, k, recalls=None: eleven_point_average(
            _relevant(c), c.n_retrieved, c.n_relevant, _numbers(recalls, "11pt_avg", ELEVEN_POINTS, None)
        ),
    )
)
register(
    Metric(
        "r_precision_multiple",
        None,
        label="Rprec_mult",
        title="R의 배수 위치에서의 정밀도 (Rprec_mult_0.20 등)",
        inputs="trec",
        cutoff="none",
        trec_name="Rprec_mult",
        parameter="level",
        evaluate=lambda c, k, multiple=None: r_precision_multiple(
            _relevant(c), c.n_relevant, _level(multiple, "Rprec_mult")
        ),
    )
)
register(
    Metric(
        "utility",
        None,
        label="utility",
        title="효용: p1·관련 검색 + p2·비관련 검색 + p3·관련 미검색 + p4·비관련 미검색",
        inputs="trec",
        cutoff="none",
        trec_name="utility",
        parameter="numbers",
        evaluate=lambda c, k, coefficients=None: utility(
            _found(c), c.n_retrieved, c.n_relevant, _numbers(coefficients, "utility", UTILITY_DEFAULT, 4)
        ),
    )
)
register(
    Metric(
        "binary_g",
        None,
        label="binG",
        title="binG: 앞선 비관련 문서 수로 할인한 관련 문서의 평균",
        inputs="trec",
        cutoff="none",
        trec_name="binG",
        evaluate=lambda c, k: binary_g(_relevant(c), c.n_relevant),
    )
)
register(
    Metric(
        "normalized_gain",
        None,
        label="G",
        title="G: 이상적 순서에 뒤처진 만큼 할인한 이득의 합",
        inputs="trec",
        cutoff="none",
        trec_name="G",
        parameter="gains",
        evaluate=lambda c, k, gains=None: normalized_gain(*trec_gain_arrays(c, gain_map(gains, "G")[0])),
    )
)
register(
    Metric(
        "ndcg_over_relevant",
        None,
        label="ndcg_rel",
        title="ndcg_rel: 관련 문서 위치마다의 nDCG 평균",
        inputs="trec",
        cutoff="none",
        trec_name="ndcg_rel",
        parameter="gains",
        evaluate=lambda c, k, gains=None: ndcg_over_relevant(
            *trec_gain_arrays(c, gain_map(gains, "ndcg_rel")[0])
        ),
    )
)
register(
    Metric(
        "ndcg_at_r_levels",
        None,
        label="Rndcg",
        title="Rndcg: 이상적 이득이 바뀌는 위치마다의 nDCG 평균",
        inputs="trec",
        cutoff="none",
        trec_name="Rndcg",
        parameter="gains",
        evaluate=lambda c, k, gains=None: ndcg_at_r_levels(
            *trec_gain_arrays(c, gain_map(gains, "Rndcg")[0]), c.n_retrieved, c.n_relevant
        ),
    )
)
register(
    Metric(
        "relative_precision",
        None,
        label="relative_P",
        title="상대 정밀도@k: 정답 수 ÷ min(k, R)",
        inputs="trec",
        cutoff="required",
        trec_cutoff_name="relative_P",
        evaluate=lambda c, k: relative_precision(_relevant(c), c.n_relevant, k),
    )
)
register(
    Metric(
        "set_precision",
        None,
        label="set_P",
        title="집합 정밀도: 검색된 관련 문서 ÷ 검색된 문서",
        inputs="trec",
        cutoff="none",
        trec_name="set_P",
        evaluate=lambda c, k: set_precision(_found(c), c.n_retrieved),
    )
)
register(
    Metric(
        "set_relative_precision",
        None,
        label="set_relative_P",
        title="집합 상대 정밀도: 검색된 관련 문서 ÷ min(검색된 문서, R)",
        inputs="trec",
        cutoff="none",
        trec_name="set_relative_P",
        evaluate=lambda c, k: set_relative_precision(_found(c), c.n_retrieved, c.n_relevant),
    )
)
register(
    Metric(
        "set_recall",
        None,
        label="set_recall",
        title="집합 재현율: 검색된 관련 문서 ÷ R",
        inputs="trec",
        cutoff="none",
        trec_name="set_recall",
        evaluate=lambda c, k: set_recall(_found(c), c.n_relevant),
    )
)
register(
    Metric(
        "set_map",
        None,
        label="set_map",
        title="순위 없는 집합 AP: 집합 정밀도 × 집합 재현율",
        inputs="trec",
        cutoff="none",
        trec_name="set_map",
        evaluate=lambda c, k: set_map(_found(c), c.n_retrieved, c.n_relevant),
    )
)
register(
    Metric(
        "set_f",
        None,
        label="set_F",
        title="집합 F: 집합 정밀도와 집합 재현율의 가중 조화평균",
        inputs="trec",
        cutoff="none",
        trec_name="set_F",
        parameter="numbers",
        evaluate=lambda c, k, beta=None: set_f(
            _found(c), c.n_retrieved, c.n_relevant, _numbers(beta, "set_F", (1.0,), 1)[0]
        ),
    )
)
register(
    Metric(
        "num_nonrel_judged_ret",
        None,
        label="num_nonrel_judged_ret",
        title="검색된, 비관련으로 판정된 문서 수",
        inputs="trec",
        cutoff="none",
        trec_name="num_nonrel_judged_ret",
        summary="sum",
        count=True,
        evaluate=lambda c, k: np.count_nonzero(_nonrelevant(c), axis=1).astype(float),
    )
)
register(
    Metric(
        "rank_biased_precision",
        None,
        label="RBP",
        title="RBP: 계속 읽을 확률 p로 할인한 이득의 합 × (1 - p)",
        inputs="trec",
        cutoff="none",
        trec_name="rbp",
        parameter="gains",
        evaluate=lambda c, k, gains=None: rank_biased_precision(
            _tie_mean(c, _rbp_gains(c, gain_map(gains, "rbp", persistence=True)[0])),
            gain_map(gains, "rbp", persistence=True)[1],
        ),
        averages_ties=True,  # a sum of per-rank terms: each rank earns its tie group's mean gain
        ir_name="RBP",
        ir_parameters=(("p", 0.8),),  # ir_measures' RBP defaults to p = 0.8, trec_eval's rbp to 0.9
    )
)
register(
    Metric(
        "rbp_residual",
        None,
        label="rbp_resid",
        title="RBP 잔차: 판정되지 않은 문서가 모두 관련이라면 더해질 수 있는 RBP",
        inputs="trec",
        cutoff="none",
        trec_name="rbp_resid",
        parameter="gains",
        evaluate=lambda c, k, gains=None: rbp_residual(
            _unjudged(c), c.n_retrieved, _persistence_only(gains, "rbp_resid")
        ),
    )
)
register(
    Metric(
        "unjudged_fraction",
        None,
        label="unj",
        title="unj@k: 상위 k개 중 판정되지 않은 문서의 비율",
        inputs="trec",
        cutoff="required",
        trec_cutoff_name="unj",
        evaluate=lambda c, k: unjudged_fraction(_unjudged(c), k),
    )
)
register(
    Metric(
        "judged_fraction",
        None,
        label="Judged",
        title="Judged@k: 상위 k개 중 판정(qrels)에 있는 문서의 비율",
        inputs="trec",
        names=("judged",),
        evaluate=lambda c, k: judged_fraction(_tie_mean(c, c.pooled.astype(float)), c.n_retrieved, k),
        averages_ties=True,
        ir_name="Judged",
    )
)
register(
    Metric(
        "relevance_string",
        None,
        label="relstring",
        title="상위 문서들의 등급을 한 글자씩 이은 문자열",
        inputs="trec",
        cutoff="optional",
        trec_name="relstring",
        trec_cutoff_name="relstring",
        summary="none",
        text="'{}'",
        trec_lines="queries",
        evaluate=lambda c, k: relevance_string(
            c.graded, c.judged, c.pooled, c.n_retrieved, RELSTRING_LENGTH if k is None else k
        ),
    )
)


def _persistence_only(parameter: tuple | None, name: str) -> float:
    gains, p = gain_map(parameter, name, persistence=True)
    if gains:
        raise ValueError(f"{name} takes only p=persistence (it uses no gains); got {parameter}")
    return p
