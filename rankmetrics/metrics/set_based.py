"""Metrics that ask *whether* relevant items are in the top k, not where.

Precision@k, Recall@k, F1@k and Hit rate@k ignore the order inside the top k.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _validation as v
from .._arrays import safe_divide
from ..i18n import N_
from ..registry import Columns, Metric, register
from . import ties
from .conventions import cutoff, is_relevant
from .inputs import prepare


def _hits(x: Any, k: Any, relevant: Any, n_relevant: Any = None):
    k = v.check_k(k)
    queries = prepare(x, relevant=relevant, n_relevant=n_relevant)
    top, depth = cutoff(queries.grades, k)
    hits = np.count_nonzero(is_relevant(top), axis=1).astype(float)
    return queries, hits, depth


def precision(x: Any, k: int | None = None, *, relevant: Any = None) -> float | np.ndarray:
    """Precision@k: the share of the top k that is relevant.

    Rewards a clean top of the list. Order inside the top k does not matter.
    The denominator is always k: when the list is shorter than k, the missing
    ranks count as non-relevant (trec_eval's ``P_k``; scikit-learn has no P@k).

    Parameters
    ----------
    x : sequence of grades in ranked order, 2-D array (one query per row), or item ids
        Grades > 0 are relevant. With item ids, pass ``relevant`` too.
    k : positive int or None
        Cutoff; ``None`` uses the whole list.
    relevant : set, list or mapping {id: grade}, optional
        Judgements when ``x`` holds item ids.

    Returns
    -------
    float, or a 1-D array for a batch.

    See Also
    --------
    recall, f1, hit_rate

    References
    ----------
    Manning, Raghavan & Schütze, *Introduction to Information Retrieval* (2008), ch. 8.

    Examples
    --------
    >>> precision([1, 0, 1, 0, 1], k=3)
    0.6666666666666666
    >>> precision(list("ABCDE"), k=5, relevant={"B", "D", "F", "G"})
    0.4
    >>> precision([1, 1, 1], k=10)  # 3 hits, 7 missing ranks count as misses
    0.3
    """
    queries, hits, depth = _hits(x, k, relevant)
    return queries.finish(_precision_from(hits, depth))


def _precision_from(hits: np.ndarray, k: int) -> np.ndarray:
    return hits / k


def recall(
    x: Any, k: int | None = None, *, n_relevant: Any = None, relevant: Any = None
) -> float | np.ndarray:
    """Recall@k: the share of all relevant items that reached the top k.

    The denominator counts every relevant item, listed or not. In the
    grades form it defaults to the relevant grades in the list; pass
    ``n_relevant`` when more relevant items exist than were listed. With item
    ids it is every judged relevant item (trec_eval's ``recall_k``). A query
    with no relevant item scores 0.

    Parameters
    ----------
    x, k, relevant
        As in :func:`precision`.
    n_relevant : int or one int per query, optional
        Relevant items in total (grades form only).

    Returns
    -------
    float, or a 1-D array for a batch.

    See Also
    --------
    precision, f1, hit_rate

    References
    ----------
    Manning, Raghavan & Schütze, *Introduction to Information Retrieval* (2008), ch. 8.

    Examples
    --------
    >>> recall([1, 0, 1, 0, 1], k=3, n_relevant=4)
    0.5
    >>> recall(list("ABCDE"), k=5, relevant={"B", "D", "F", "G"})
    0.5
    """
    queries, hits, _ = _hits(x, k, relevant, n_relevant)
    return queries.finish(_recall_from(hits, queries.n_relevant))


def _recall_from(hits: np.ndarray, n_relevant: np.ndarray) -> np.ndarray:
    return safe_divide(hits, n_relevant, positive=True)  # R = 0 scores 0


def f1(x: Any, k: int | None = None, *, n_relevant: Any = None, relevant: Any = None) -> float | np.ndarray:
    """F1@k: the harmonic mean of Precision@k and Recall@k.

    High only when both are high. 0 when there is no hit.

    Parameters
    ----------
    x, k, n_relevant, relevant
        As in :func:`recall`.

    Returns
    -------
    float, or a 1-D array for a batch.

    See Also
    --------
    precision, recall

    References
    ----------
    van Rijsbergen, *Information Retrieval* (1979), ch. 7.

    Examples
    --------
    >>> round(f1(list("ABCDE"), k=5, relevant={"B", "D", "F", "G"}), 4)  # 2*0.4*0.5/0.9
    0.4444
    """
    queries, hits, depth = _hits(x, k, relevant, n_relevant)
    return queries.finish(_f1_from(hits, depth, queries.n_relevant))


def _f1_from(hits: np.ndarray, k: int, n_relevant: np.ndarray) -> np.ndarray:
    p = _precision_from(hits, k)
    r = _recall_from(hits, n_relevant)
    return safe_divide(2 * p * r, p + r, positive=True)


def r_precision(x: Any, *, n_relevant: Any = None, relevant: Any = None) -> float | np.ndarray:
    """R-precision: Precision@R, where R is the number of relevant items of the query.

    The cutoff adapts to each query, so a query with 2 relevant items is
    judged on its top 2 and one with 50 on its top 50. At that cutoff
    precision equals recall, which is why R-precision is also called the
    break-even point. A list shorter than R counts the missing ranks as
    non-relevant; a query with R = 0 scores 0 (trec_eval's ``Rprec``).

    Parameters
    ----------
    x : sequence of grades in ranked order, 2-D array (one query per row), or item ids
        Grades > 0 are relevant. With item ids, pass ``relevant`` too.
    n_relevant : int or one int per query, optional
        R, the relevant items in total (grades form only; default: the
        relevant grades in the list).
    relevant : set, list or mapping {id: grade}, optional
        Judgements when ``x`` holds item ids; R counts every judged relevant item.

    Returns
    -------
    float, or a 1-D array for a batch.

    See Also
    --------
    precision, recall

    References
    ----------
    Buckley & Voorhees, "Retrieval evaluation with incomplete information", SIGIR 2004;
    Manning, Raghavan & Schütze, *Introduction to Information Retrieval* (2008), ch. 8.

    Examples
    --------
    >>> r_precision(list("ABCDE"), relevant={"B", "D", "F", "G"})  # R = 4: B, D in the top 4
    0.5
    >>> r_precision([1, 0, 0, 1, 1], n_relevant=5)  # R = 5: 3 hits in the top 5
    0.6
    >>> r_precision([[1, 1, 0], [0, 0, 1]])  # R = 2 and R = 1, one per row
    array([1., 0.])
    """
    queries = prepare(x, relevant=relevant, n_relevant=n_relevant)
    hits = is_relevant(queries.grades)
    ranks = np.arange(1, hits.shape[1] + 1)
    in_top_r = hits & (ranks[None, :] <= queries.n_relevant[:, None])
    found = np.count_nonzero(in_top_r, axis=1).astype(float)
    return queries.finish(_recall_from(found, queries.n_relevant))  # precision@R is recall@R


def hit_rate(x: Any, k: int | None = None, *, relevant: Any = None) -> float | np.ndarray:
    """Hit rate@k (HR@k): 1.0 when at least one relevant item is in the top k, else 0.0.

    Averaged over queries it is the share of queries with any hit. With one
    relevant item per query it equals Recall@k.

    Parameters
    ----------
    x, k, relevant
        As in :func:`precision`.

    Returns
    -------
    float (1.0 or 0.0), or a 1-D array for a batch.

    See Also
    --------
    recall, reciprocal_rank

    References
    ----------
    Deshpande & Karypis, "Item-based top-N recommendation algorithms", ACM TOIS 22(1), 2004.

    Examples
    --------
    >>> hit_rate([0, 0, 0, 1, 0], k=3)
    0.0
    >>> hit_rate([0, 0, 0, 1, 0], k=5)
    1.0
    """
    queries, hits, _ = _hits(x, k, relevant)
    return queries.finish(_hit_rate_from(hits))


def _hit_rate_from(hits: np.ndarray) -> np.ndarray:
    return (hits > 0).astype(float)


def hits(x: Any, k: int | None = None, *, relevant: Any = None) -> float | np.ndarray:
    """Hits@k: the number of relevant items in the top k.

    Precision@k times k: a count, not a share, so it is not comparable across
    different k. Useful when a recommender is judged by how many of its k
    slots it fills well.

    Parameters
    ----------
    x, k, relevant
        As in :func:`precision`.

    Returns
    -------
    float, or a 1-D array for a batch.

    See Also
    --------
    precision, hit_rate

    Examples
    --------
    >>> hits([1, 0, 1, 0, 1], k=3)
    2.0
    >>> hits(list("ABCDE"), relevant={"B", "D", "F"})
    2.0
    """
    queries, count, _ = _hits(x, k, relevant)
    return queries.finish(count)


# ---------------------------------------------------------------- registration


def _expected_hits(c: Columns, k: int | np.ndarray) -> np.ndarray:
    """ties="average": the expected number of relevant documents in the top k."""
    return ties.expected_hits(c.binary, c.tie_start, c.tie_end, k)


# evaluate's hooks read the hits in the top k off Columns.hits_so_far, counted once for every
# cutoff (P_5 ... P_1000, recall_5 ... recall_1000); the formulas are the functions' own.


def precision_divisor(c: Columns, k: int) -> Any:
    """What P@k divides by for each query, under ``c.precision_denominator``
    (:data:`~rankmetrics.metrics.conventions.PRECISION_DENOMINATORS`): k, the items
    shown (min(k, length of the list)) or min(k, |R|). 0 for an empty list or no relevant item."""
    if c.precision_denominator == "listed":
        return np.minimum(c.n_retrieved, k).astype(float)
    if c.precision_denominator == "min_k_relevant":
        return np.minimum(c.n_relevant, k).astype(float)
    return k


def recall_divisor(c: Columns, k: int) -> np.ndarray:
    """What recall@k divides by for each query, under ``c.recall_denominator``
    (:data:`~rankmetrics.metrics.conventions.RECALL_DENOMINATORS`): |R|, min(k, |R|), or the
    relevant items in the list (evaluate then ranks the whole list)."""
    if c.recall_denominator == "min_k_relevant":
        return np.minimum(c.n_relevant, k).astype(float)
    if c.recall_denominator == "listed_relevant":
        return c.n_relevant_retrieved
    return c.n_relevant


def _evaluate_precision(c: Columns, k: int) -> np.ndarray:
    hits = c.hits_in_top(k) if c.tie_start is None else _expected_hits(c, k)
    if c.precision_denominator == "k":
        return _precision_from(hits, k)
    return safe_divide(hits, precision_divisor(c, k), positive=True)  # nothing to divide by: 0


def _evaluate_recall(c: Columns, k: int) -> np.ndarray:
    hits = c.hits_in_top(k) if c.tie_start is None else _expected_hits(c, k)
    return safe_divide(hits, recall_divisor(c, k), positive=True)


def _evaluate_hit_rate(c: Columns, k: int) -> np.ndarray:
    if c.tie_start is None:
        return _hit_rate_from(c.hits_in_top(k))
    return ties.expected_success(c.binary, c.tie_start, c.tie_end, k)


def _evaluate_r_precision(c: Columns, k: None) -> np.ndarray:
    r = np.asarray(c.n_relevant).astype(np.int64)
    if c.tie_start is None:
        return _recall_from(c.hits_in_top(r), c.n_relevant)
    return safe_divide(_expected_hits(c, r), r.astype(float), positive=True)


register(
    Metric(
        "precision",
        precision,
        label="Precision",
        title=N_("Precision@k: the share of relevant items in the top k (the denominator is k)"),
        cutoff="required",
        names=("precision", "p"),
        trec_cutoff_name="P",
        evaluate=_evaluate_precision,
        averages_ties=True,
        ir_name="P",
        ir_parameters=(("rel", None),),
        command="precision",
    )
)
register(
    Metric(
        "recall",
        recall,
        label="Recall",
        title=N_("Recall@k: the share of all relevant items that are in the top k"),
        cutoff="required",
        names=("recall", "r"),
        trec_cutoff_name="recall",
        evaluate=_evaluate_recall,
        averages_ties=True,
        ir_name="R",
        ir_parameters=(("rel", None),),
        command="recall",
        keywords=("n_relevant",),
    )
)
register(
    Metric(
        "f1",
        f1,
        label="F1",
        title=N_("F1@k: the harmonic mean of Precision@k and Recall@k"),
        cutoff="required",
        names=("f1",),
        evaluate=lambda c, k: _f1_from(c.hits_in_top(k), k, c.n_relevant),
        command="f1",
        keywords=("n_relevant",),
    )
)
register(
    Metric(
        "hit_rate",
        hit_rate,
        label="Hit rate",
        title=N_("Hit rate@k: 1 if the top k hold any relevant item, else 0"),
        cutoff="required",
        names=("hit_rate", "hr", "success"),
        trec_cutoff_name="success",
        evaluate=_evaluate_hit_rate,
        averages_ties=True,
        ir_name="Success",
        ir_parameters=(("rel", None),),
        command="hit-rate",
    )
)
register(
    Metric(
        "hits",
        hits,
        label="Hits",
        title=N_("Hits@k: the number of relevant items in the top k"),
        names=("hits",),
        evaluate=lambda c, k: (
            _expected_hits(c, k or c.width) if c.tie_start is not None else c.hits_in_top(k or c.width)
        ),
        averages_ties=True,
    )
)
register(
    Metric(
        "r_precision",
        r_precision,
        label="R-precision",
        title=N_("R-precision: the share of relevant items in the top R (R = the number of relevant items)"),
        cutoff="none",
        names=("r_precision", "rprec"),
        trec_name="Rprec",
        evaluate=_evaluate_r_precision,
        averages_ties=True,
        ir_name="Rprec",
        ir_parameters=(("rel", None),),
    )
)
