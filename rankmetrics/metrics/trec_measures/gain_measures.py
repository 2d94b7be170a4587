"""trec_eval's experimental gain measures: binG, G, ndcg_rel and Rndcg; and dcg, ideal_dcg.

trec_eval ``m_binG.c``, ``m_G.c``, ``m_ndcg_rel.c``, ``m_Rndcg.c``, and
10.0's ``m_dcg.c`` and ``m_ideal_dcg.c`` (not in ``all_trec``). G, ndcg_rel,
Rndcg, dcg and ideal_dcg take trec_eval's ``level=gain`` map (``G_1=3,2=9``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._arrays import pad_right, safe_divide
from ...i18n import N_
from ...registry import Columns
from ..conventions import gain_map
from ..dcg import dcg_curves, dcg_sums, dcg_terms
from ._common import as_rows, per_query, spread, trec_gain_arrays, trec_measure


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
    rel = as_rows(relevant, bool)
    return _binary_g(rel, np.cumsum(rel, axis=1), per_query(n_relevant))


def _binary_g(rel: np.ndarray, found: np.ndarray, n_relevant: np.ndarray) -> np.ndarray:
    """binG from the relevant ranks and ``found``, the relevant documents in ranks 1..i at each rank i."""
    at = np.nonzero(rel)  # the terms are computed at the relevant ranks only: the others add 0
    ranks_above = at[1].astype(float)
    nonrelevant_above = ranks_above - (found[at] - 1)  # the relevant ones above are all but this one
    terms = spread(1.0 / np.log2(2.0 + nonrelevant_above), at, rel.shape)
    return safe_divide(terms.sum(axis=1), np.where(rel.any(axis=1), n_relevant, 0.0))


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
    gained, best = as_rows(gains), as_rows(ideal)
    best_here = pad_right(best, gained.shape[1])[:, : gained.shape[1]]
    cost = np.cumsum(np.maximum(best_here, 1.0), axis=1)
    so_far = np.cumsum(gained, axis=1)
    at = np.nonzero(gained)  # the terms are computed where a gain is won only: the others add 0
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = spread(gained[at] / np.log2(2.0 + cost[at] - so_far[at]), at, gained.shape)
    return safe_divide(terms.sum(axis=1), best.sum(axis=1))


def _dcg_curves(gains: np.ndarray, ideal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """DCG of the run and of the ideal at every rank, over as many ranks as the longer has."""
    width = max(gains.shape[1], ideal.shape[1])
    return dcg_curves(dcg_terms(pad_right(gains, width))), dcg_curves(dcg_terms(pad_right(ideal, width)))


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
    return _ndcg_over_relevant(ndcg_curve(as_rows(gains), as_rows(ideal)))


def ndcg_curve(gains: np.ndarray, ideal: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """nDCG@i at every rank i, with the run's gains and the ideal's padded to as many ranks.

    What ndcg_rel and Rndcg average, each at its own ranks; computed once for both.
    """
    dcg, ideal_dcg = _dcg_curves(gains, ideal)
    width = dcg.shape[1]
    return pad_right(gains, width), pad_right(ideal, width), safe_divide(dcg, ideal_dcg)


def _ndcg_over_relevant(curve: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    gained, best, ndcg_at = curve
    positive = gained > 0
    at_relevant = np.where(positive, ndcg_at, 0.0).sum(axis=1)
    judged_positive = np.count_nonzero(best > 0, axis=1)
    unretrieved = judged_positive - np.count_nonzero(positive, axis=1)
    total = at_relevant + unretrieved * ndcg_at[:, -1]
    return np.where(total > 0, safe_divide(total, judged_positive), 0.0)


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
    return _ndcg_at_r_levels(ndcg_curve(as_rows(gains), as_rows(ideal)), n_retrieved, n_relevant)


def _ndcg_at_r_levels(
    curve: tuple[np.ndarray, np.ndarray, np.ndarray], n_retrieved: Any, n_relevant: Any
) -> np.ndarray:
    _, best, ndcg_at = curve
    following = np.concatenate([best[:, 1:], np.zeros((best.shape[0], 1))], axis=1)
    step = (best > 0) & (following != best)
    points = np.where(step, ndcg_at, 0.0).sum(axis=1)
    count = np.count_nonzero(step, axis=1)
    beyond = per_query(n_retrieved) >= np.count_nonzero(best > 0, axis=1) + 2
    points = points + np.where(beyond, ndcg_at[:, -1], 0.0)
    count = count + beyond
    return np.where(per_query(n_relevant) > 0, safe_divide(points, count), 0.0)


def _shared_curve(c: Columns, gains: tuple | None, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ndcg_curve of a group of queries under a gain map, shared by ndcg_rel and Rndcg (Columns.shared)."""
    return c.shared(_curve_of, tuple(sorted(gain_map(gains, name)[0].items())))


def _curve_of(c: Columns, levels: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return ndcg_curve(*trec_gain_arrays(c, dict(levels)))


def discounted_gain(gains: Any) -> np.ndarray:
    """dcg: the run's discounted cumulative gain over its whole ranked list, not normalised.

    Each retrieved document's gain (its grade, or the gain map's value for it;
    0 when unjudged) over log2(rank + 1), added rank by rank as trec_eval
    does. The numerator of trec_eval's ``ndcg``.

    References
    ----------
    Järvelin & Kekäläinen, "Cumulated gain-based evaluation of IR techniques", ACM TOIS 20(4),
    2002; trec_eval 10.0 ``m_dcg.c``.

    Examples
    --------
    >>> discounted_gain([[1, 0, 2]])  # 1/log2(2) + 0 + 2/log2(4)
    array([2.])
    """
    return dcg_sums(dcg_terms(as_rows(gains)))


def ideal_discounted_gain(ideal: Any) -> np.ndarray:
    """ideal_dcg: the DCG of the ideal ranking, every positive gain judged for the query, high to low.

    What trec_eval's ``ndcg`` divides by: the ideal takes every judged
    document, retrieved or not, so it does not depend on the run.

    References
    ----------
    trec_eval 10.0 ``m_ideal_dcg.c``.

    Examples
    --------
    >>> ideal_discounted_gain([[2, 1]]).round(4)  # 2/log2(2) + 1/log2(3)
    array([2.6309])
    """
    return discounted_gain(ideal)


MEASURES = (
    trec_measure(
        "binary_g",
        "binG",
        "binG",
        N_("binG: the mean over relevant documents, discounted by the non-relevant ones ahead"),
        lambda c, k: _binary_g(c.relevant, c.hits_so_far, c.n_relevant),
    ),
    trec_measure(
        "normalized_gain",
        "G",
        "G",
        N_("G: the sum of gains, discounted by how far they fall behind the ideal ordering"),
        lambda c, k, gains=None: normalized_gain(*trec_gain_arrays(c, gain_map(gains, "G")[0])),
        parameter="gains",
    ),
    trec_measure(
        "ndcg_over_relevant",
        "ndcg_rel",
        "ndcg_rel",
        N_("ndcg_rel: the mean of nDCG at each relevant document"),
        lambda c, k, gains=None: _ndcg_over_relevant(_shared_curve(c, gains, "ndcg_rel")),
        parameter="gains",
    ),
    trec_measure(
        "ndcg_at_r_levels",
        "Rndcg",
        "Rndcg",
        N_("Rndcg: the mean of nDCG where the ideal gain changes"),
        lambda c, k, gains=None: _ndcg_at_r_levels(
            _shared_curve(c, gains, "Rndcg"), c.n_retrieved, c.n_relevant
        ),
        parameter="gains",
    ),
    trec_measure(
        "trec_dcg",
        "dcg",
        "dcg",
        N_("dcg: the discounted cumulative gain (DCG) of the whole ranking, not normalised"),
        lambda c, k, gains=None: discounted_gain(trec_gain_arrays(c, gain_map(gains, "dcg")[0])[0]),
        parameter="gains",
    ),
    trec_measure(
        "ideal_dcg",
        "ideal_dcg",
        "ideal_dcg",
        N_("ideal_dcg: the DCG of the ideal ordering of every judged document"),
        lambda c, k, gains=None: ideal_discounted_gain(
            trec_gain_arrays(c, gain_map(gains, "ideal_dcg")[0])[1]
        ),
        parameter="gains",
    ),
)
