"""Measures for incomplete judgements: bpref, gm_bpref and infAP (trec_eval ``m_bpref.c``, ``m_infap.c``).

Both score a run only on the documents someone judged, so the documents
nobody judged neither help nor hurt it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._arrays import safe_divide, sequential_sum
from ...i18n import N_
from ...registry import Columns
from ._common import as_rows, per_query, spread, trec_measure

_INFAP_EPSILON = 0.00001  # trec_eval.h


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
    rel = as_rows(relevant, bool)
    non_so_far = np.cumsum(as_rows(nonrelevant, bool), axis=1)
    return _bpref(rel, non_so_far, per_query(n_relevant), per_query(n_nonrelevant))


def _bpref(
    rel: np.ndarray, non_so_far: np.ndarray, total_relevant: np.ndarray, total_nonrelevant: np.ndarray
):
    """bpref from the relevant ranks and the judged non-relevant documents in ranks 1..i, at each rank i."""
    at = np.nonzero(rel)  # the terms are computed at the relevant ranks only: the others add 0
    rows = at[0]
    # At a relevant rank the document itself is not non-relevant: the count is of those above.
    above = non_so_far[at]
    share = safe_divide(
        np.minimum(above, total_relevant[rows]),
        np.minimum(total_nonrelevant, total_relevant)[rows],
    )
    return safe_divide(sequential_sum(spread(1.0 - share, at, rel.shape), axis=1), total_relevant)


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
    CIKM 2006; trec_eval ``m_infap.c``.

    Examples
    --------
    >>> # relevant, in the pool but unjudged, relevant; R = 2
    >>> inferred_ap([[1, 0, 1]], [[0, 0, 0]], [[0, 1, 0]], n_relevant=[2]).round(4)
    array([1.])
    >>> inferred_ap([[0, 1]], [[1, 0]], [[0, 0]], n_relevant=[1]).round(4)  # AP's 1/2, up to ε
    array([0.5])
    """
    rel, non, unj = as_rows(relevant, bool), as_rows(nonrelevant, bool), as_rows(pool_unjudged, bool)
    so_far = [np.cumsum(mask, axis=1) for mask in (rel, non, unj)]
    return _inferred_ap((rel, non, unj), so_far, per_query(n_relevant))


def _inferred_ap(kinds: tuple, so_far: list, n_relevant: np.ndarray) -> np.ndarray:
    """infAP from the relevant, non-relevant and pool-unjudged ranks and their counts in ranks 1..i."""
    at = np.nonzero(kinds[0])  # the expected precision is computed at the relevant ranks only
    rel_above, non_above, unj_above = (counts[at] - mask[at] for mask, counts in zip(kinds, so_far))
    k = at[1].astype(float)  # 0-based: the ranks above
    with np.errstate(divide="ignore", invalid="ignore"):
        pooled = (rel_above + non_above + unj_above) / k
        sampled = (rel_above + _INFAP_EPSILON) / (rel_above + non_above + 2 * _INFAP_EPSILON)
        expected = 1.0 / (k + 1.0) + (k / (k + 1.0)) * pooled * sampled
    expected[k == 0] = 1.0
    return safe_divide(spread(expected, at, kinds[0].shape).sum(axis=1), n_relevant)


def _nonrelevant_so_far(c: Columns) -> np.ndarray:
    """Judged non-relevant documents in ranks 1..i: bpref's and infAP's count (Columns.shared)."""
    return np.cumsum(c.nonrelevant, axis=1, dtype=float)


def _evaluate_bpref(c: Columns, k: None) -> np.ndarray:
    # One hook for bpref and gm_bpref: evaluate computes it once when both are asked for.
    return _bpref(c.relevant, c.shared(_nonrelevant_so_far), c.n_relevant, c.n_nonrelevant)


def _evaluate_inferred_ap(c: Columns, k: None) -> np.ndarray:
    so_far = [c.hits_so_far, c.shared(_nonrelevant_so_far), np.cumsum(c.pool_unjudged, axis=1, dtype=float)]
    return _inferred_ap((c.relevant, c.nonrelevant, c.pool_unjudged), so_far, c.n_relevant)


MEASURES = (
    trec_measure(
        "bpref",
        "bpref",
        "bpref",
        N_("bpref: how far relevant documents rank ahead of judged non-relevant ones"),
        _evaluate_bpref,
    ),
    trec_measure(
        "gm_bpref",
        "gm_bpref",
        "GM-bpref",
        N_("the geometric mean of bpref (never below 0.00001)"),
        _evaluate_bpref,
        summary="geometric",
        trec_lines="all",
    ),
    trec_measure(
        "inferred_ap",
        "infAP",
        "infAP",
        N_("infAP: AP estimated from a sample of judgements"),
        _evaluate_inferred_ap,
    ),
)
