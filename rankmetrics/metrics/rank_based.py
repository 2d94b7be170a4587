"""Metrics that ask *where* the relevant items are: RR, MR, AP and their means."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from .. import _validation as v
from .._arrays import safe_divide
from ..i18n import N_, _
from ..registry import Columns, Metric, register
from . import ties
from .conventions import AP_DENOMINATORS, ap_denominator, cutoff, is_relevant
from .inputs import prepare


def reciprocal_rank(x: Any, k: int | None = None, *, relevant: Any = None) -> float | np.ndarray:
    """Reciprocal rank (RR): 1 / (rank of the first relevant item).

    Only the first hit counts: [A..E] with {B, D} and with {B} both give 0.5.
    0.0 when no relevant item is in the top k (trec_eval's ``recip_rank``).

    Parameters
    ----------
    x : sequence of grades in ranked order, 2-D array (one query per row), or item ids
    k : positive int or None
        Cutoff; ``None`` uses the whole list.
    relevant : set, list or mapping {id: grade}, optional
        Judgements when ``x`` holds item ids.

    Returns
    -------
    float, or a 1-D array for a batch.

    See Also
    --------
    mean_reciprocal_rank, mean_rank

    References
    ----------
    Voorhees, "The TREC-8 Question Answering Track Report", TREC 1999.

    Examples
    --------
    >>> reciprocal_rank([0, 1, 0, 1, 0])
    0.5
    >>> reciprocal_rank(list("XYZW"), relevant={"Z"})
    0.3333333333333333
    >>> reciprocal_rank([0, 0, 0])
    0.0
    """
    k = v.check_k(k)
    queries = prepare(x, relevant=relevant)
    top, _ = cutoff(queries.grades, k)
    return queries.finish(_reciprocal_rank(is_relevant(top)))


def _reciprocal_rank(hits: np.ndarray) -> np.ndarray:
    """RR of each row of a 2-D mask of the relevant ranks (already cut at k)."""
    first = np.argmax(hits, axis=1)  # 0-based position of the first hit
    return np.where(hits.any(axis=1), 1.0 / (first + 1.0), 0.0)


def mean_rank(x: Any, k: int | None = None, *, relevant: Any = None) -> float | np.ndarray:
    """Mean rank (MR): the average 1-based rank of the relevant items in the top k.

    Lower is better. When the list holds no relevant item the result is
    ``nan``, on purpose: 0 would read as a perfect score for a
    lower-is-better metric, and any other number would be made up.
    Unretrieved relevant items are not counted (they have no rank).

    Parameters
    ----------
    x, k, relevant
        As in :func:`reciprocal_rank`.

    Returns
    -------
    float, or a 1-D array for a batch (``nan`` for a query without hits).

    See Also
    --------
    reciprocal_rank

    References
    ----------
    Bordes et al., "Translating Embeddings for Modeling Multi-relational Data", NeurIPS 2013
    (mean rank as an evaluation measure).

    Examples
    --------
    >>> mean_rank(list("ABCDE"), relevant={"B", "D"})  # (2 + 4) / 2
    3.0
    >>> mean_rank([0, 0, 0])
    nan
    """
    k = v.check_k(k)
    queries = prepare(x, relevant=relevant)
    top, _ = cutoff(queries.grades, k)
    hits = is_relevant(top)
    ranks = np.arange(1, top.shape[1] + 1, dtype=float)
    count = hits.sum(axis=1)
    total = (hits * ranks).sum(axis=1)
    return queries.finish(safe_divide(total, count, np.nan, positive=True))


def average_precision(
    x: Any,
    k: int | None = None,
    *,
    n_relevant: Any = None,
    relevant: Any = None,
    denominator: str = "all_relevant",
) -> float | np.ndarray:
    """Average precision (AP): the sum of Precision@i at each relevant rank i, over R.

    R is the number of relevant items in total (trec_eval's ``map``), so a
    relevant item that was never retrieved adds 0 to the sum but 1 to R. In
    the grades form R defaults to the relevant grades in the list; pass
    ``n_relevant`` when there are more. With item ids R counts every judged
    relevant item. A query with R = 0 scores 0.

    Other code divides by something else; ``denominator`` names the choice.
    Dividing by the relevant items *found* (the NDCG/MAP article's code,
    scikit-learn's ``average_precision_score`` on a row) equals, in the grades
    form without ``k``, leaving ``n_relevant`` at its default; with ``k`` the
    default still counts the relevant grades of the whole list, so use
    ``denominator="retrieved_relevant"`` there.

    Parameters
    ----------
    x, k, relevant
        As in :func:`reciprocal_rank`. With ``k``, only ranks 1..k contribute.
    n_relevant : int or one int per query, optional
        R, the relevant items in total (grades form only).
    denominator : {"all_relevant", "min_k_relevant", "retrieved_relevant"}
        ``"all_relevant"`` (default): R (trec_eval's ``map`` and
        ``map_cut_k``, ranx, ir_measures). ``"min_k_relevant"``: min(k, R),
        so a perfect top k scores 1 even when R > k (ml_metrics' ``apk``,
        RecBole's ``MAP@k``). ``"retrieved_relevant"``: the relevant items in
        the top k (torchmetrics' ``retrieval_average_precision``,
        scikit-learn's ``average_precision_score`` given the retrieved items).

    Returns
    -------
    float, or a 1-D array for a batch.

    See Also
    --------
    mean_average_precision, precision

    References
    ----------
    Buckley & Voorhees, "Evaluating evaluation measure stability", SIGIR 2000;
    Manning, Raghavan & Schütze, *Introduction to Information Retrieval* (2008), ch. 8.

    Examples
    --------
    >>> round(average_precision([1, 0, 1, 0, 1]), 4)  # (1 + 2/3 + 3/5) / 3
    0.7556
    >>> round(average_precision([1, 0, 1, 0, 1], n_relevant=4), 4)  # one more relevant, unretrieved
    0.5667
    >>> judged = {"d1": 3, "d3": 3, "d4": 2, "d6": 1}  # d6 was never retrieved
    >>> ranking = ["d1", "d2", "d3", "d4", "d5"]
    >>> round(average_precision(ranking, relevant=judged), 4)  # (1 + 2/3 + 3/4) / 4
    0.6042
    >>> round(average_precision(ranking, relevant=judged, denominator="retrieved_relevant"), 4)  # ... / 3
    0.8056
    >>> round(average_precision([1, 1, 0], k=2, n_relevant=5, denominator="min_k_relevant"), 4)
    1.0
    """
    k = v.check_k(k)
    denominator = v.check_choice(denominator, "denominator", AP_DENOMINATORS)
    queries = prepare(x, relevant=relevant, n_relevant=n_relevant)
    top, depth = cutoff(queries.grades, k)
    hits = is_relevant(top)
    sums = precision_sums(hits, np.cumsum(hits, axis=1))
    n_relevant = queries.n_relevant if denominator != "retrieved_relevant" else None
    return queries.finish(_ap_at(sums, depth, n_relevant, denominator))


def precision_sums(hits: np.ndarray, found: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """AP's running numerator: per rank i, the relevant found in ranks 1..i and the sum of P@j over them.

    ``hits`` marks the relevant ranks, ``found`` counts them so far. The sum at
    rank k is AP@k's numerator, added rank by rank as trec_eval adds it, so one
    pair of arrays serves ``map`` and every ``map_cut_k``.
    """
    ranks = np.arange(1, hits.shape[1] + 1, dtype=float)
    return found, np.cumsum(found / ranks * hits, axis=1)


def _ap_at(sums: tuple[np.ndarray, np.ndarray], depth: int, n_relevant: Any, denominator: str) -> np.ndarray:
    """AP@depth of each row from its running sums; ``n_relevant`` None for "retrieved_relevant"."""
    found, running = sums
    width = found.shape[1]
    if width == 0:
        total, retrieved = np.zeros(found.shape[0]), np.zeros(found.shape[0])
    else:
        at = min(depth, width) - 1
        total, retrieved = running[:, at], found[:, at].astype(float)
    divisor = ap_denominator(n_relevant, retrieved, depth, denominator)
    return safe_divide(total, divisor, positive=True)


# Chapelle et al.'s grades run 0-4; gdeval.pl (the TREC Web track's tool, which ir_measures
# runs for ERR) fixes the top of the scale at 4 too, so ERR@20 here is ir_measures' ERR@20.
ERR_MAX_GRADE = 4


def expected_reciprocal_rank(
    x: Any, k: int | None = None, *, max_grade: float = ERR_MAX_GRADE, relevant: Any = None
) -> float | np.ndarray:
    """Expected reciprocal rank (ERR): 1 / (the rank where a cascading user stops), expected.

    The user reads down the list and stops at a document of grade g with
    probability R = (2**g - 1) / 2**max_grade, so a top-grade document
    nearly always satisfies and a grade-1 one rarely. ERR is the expected
    reciprocal of the stopping rank:

        ERR@k = sum over ranks i <= k of R_i / i * (1 - R_1) ... (1 - R_(i-1)).

    Unlike nDCG, a relevant document counts less when one above it has
    already satisfied the user. With binary grades and ``max_grade=1`` every
    relevant document stops the user with chance 1/2.

    Parameters
    ----------
    x : sequence of grades in ranked order, 2-D array (one query per row), or item ids
    k : positive int or None
        Cutoff; ``None`` uses the whole list.
    max_grade : number, default 4
        The top of the grade scale (g_max). 4 is the 0-4 scale of Chapelle et
        al. and the value fixed in gdeval.pl, which ir_measures runs for ERR.
        A grade above it is refused (its R would exceed 1).
    relevant : mapping {id: grade}, optional
        Judgements when ``x`` holds item ids.

    Returns
    -------
    float, or a 1-D array for a batch.

    See Also
    --------
    reciprocal_rank, ndcg

    References
    ----------
    Chapelle, Metzler, Zhang & Grinspan, "Expected Reciprocal Rank for Graded
    Relevance", CIKM 2009; gdeval.pl (TREC Web track 2010-2014).

    Examples
    --------
    >>> expected_reciprocal_rank([4, 0, 2])  # 15/16 + (1/16) * (3/16) / 3
    0.94140625
    >>> expected_reciprocal_rank([1, 1], max_grade=1)  # 1/2 + (1/2) * (1/2) / 2
    0.625
    >>> expected_reciprocal_rank(list("ABC"), k=2, relevant={"B": 3})  # (7/16) / 2
    0.21875
    """
    k = v.check_k(k)
    if isinstance(max_grade, (bool, np.bool_)) or not np.isscalar(max_grade) or not np.isfinite(max_grade):
        raise ValueError(
            _("max_grade must be a finite number; got {max_grade}").format(max_grade=v.show(max_grade))
        )
    if max_grade <= 0:
        raise ValueError(_("max_grade must be positive; got {max_grade}").format(max_grade=v.show(max_grade)))
    queries = prepare(x, relevant=relevant)
    top, _shape = cutoff(queries.grades, k)
    return queries.finish(err_rows(top, float(max_grade)))


def err_rows(grades: np.ndarray, max_grade: float) -> np.ndarray:
    """ERR of each row of a 2-D array of non-negative grades (already cut at k)."""
    above = grades.max(initial=0.0)
    if above > max_grade:
        raise ValueError(
            _(
                "ERR: a grade of {above:g} is above max_grade={max_grade:g}, so its stopping "
                "probability (2**g - 1) / 2**max_grade would exceed 1; give the top of the scale as "
                "max_grade"
            ).format(above=above, max_grade=max_grade)
        )
    stop = (np.exp2(grades) - 1.0) / np.exp2(max_grade)
    # The chance of reading on to rank i: no document above it stopped the user.
    reach = np.cumprod(np.concatenate([np.ones((grades.shape[0], 1)), 1.0 - stop[:, :-1]], axis=1), axis=1)
    return (stop * reach / np.arange(1, grades.shape[1] + 1)).sum(axis=1)


def _length(values: Any) -> int | None:
    try:
        return len(values)
    except TypeError:  # a number, or a 0-d array
        return None


def _mean_over_queries(
    metric: Callable[..., float], queries: Any, k: Any, per_query: dict[str, Any]
) -> float:
    if isinstance(queries, (str, bytes)) or not hasattr(queries, "__len__"):
        raise ValueError(
            _("queries must be a list of rankings, one per query; got {queries}").format(
                queries=v.show(queries)
            )
        )
    rows = list(queries)
    if not rows:
        raise ValueError(_("queries is empty; give at least one ranking"))
    k = v.check_k(k)
    for name, values in per_query.items():
        if values is not None and (
            isinstance(values, (str, bytes, set, frozenset, dict)) or _length(values) != len(rows)
        ):
            raise ValueError(
                _("{name} must give one entry per query ({n_rows} queries); got {values}").format(
                    name=name, n_rows=len(rows), values=v.show(values)
                )
            )
    scores = []
    for i, row in enumerate(rows):
        kwargs = {name: values[i] for name, values in per_query.items() if values is not None}
        if (
            isinstance(row, np.ndarray)
            and row.ndim != 1
            or (isinstance(row, (list, tuple)) and row and isinstance(row[0], (list, tuple, np.ndarray)))
        ):
            raise ValueError(
                _("queries[{i}] must be one ranking (1-D); got {row}").format(i=i, row=v.show(row))
            )
        try:
            scores.append(metric(row, k, **kwargs))
        except ValueError as error:
            raise v.in_query(error, i) from None
    return float(np.mean(scores))


def mean_average_precision(
    queries: Any,
    k: int | None = None,
    *,
    n_relevant: Any = None,
    relevant: Any = None,
    denominator: str = "all_relevant",
) -> float:
    """Mean average precision (MAP): the mean of :func:`average_precision` over queries.

    Parameters
    ----------
    queries : list of rankings
        Each a list of grades in ranked order, or of item ids (then pass ``relevant``).
        The rankings may have different lengths.
    k : positive int or None
        Cutoff applied to every query.
    n_relevant : list, optional
        R for each query (grades form).
    relevant : list, optional
        Judgements for each query (item ids form).
    denominator : {"all_relevant", "min_k_relevant", "retrieved_relevant"}
        What each query's AP divides by; see :func:`average_precision`.

    Returns
    -------
    float

    See Also
    --------
    average_precision

    Examples
    --------
    >>> queries = [[1, 0, 1, 0, 1], [0, 1, 0, 1, 0], [1, 1, 0, 0, 0]]
    >>> round(mean_average_precision(queries), 4)  # (0.7556 + 0.5 + 1.0) / 3
    0.7519
    """
    denominator = v.check_choice(denominator, "denominator", AP_DENOMINATORS)
    return _mean_over_queries(
        partial(average_precision, denominator=denominator),
        queries,
        k,
        {"n_relevant": n_relevant, "relevant": relevant},
    )


def mean_reciprocal_rank(queries: Any, k: int | None = None, *, relevant: Any = None) -> float:
    """Mean reciprocal rank (MRR): the mean of :func:`reciprocal_rank` over queries.

    Parameters
    ----------
    queries : list of rankings
        As in :func:`mean_average_precision`.
    k : positive int or None
        Cutoff applied to every query.
    relevant : list, optional
        Judgements for each query (item ids form).

    Returns
    -------
    float

    See Also
    --------
    reciprocal_rank

    Examples
    --------
    >>> queries = [[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0]]
    >>> round(mean_reciprocal_rank(queries), 4)  # (1 + 1/3 + 1/2) / 3
    0.6111
    """
    return _mean_over_queries(reciprocal_rank, queries, k, {"relevant": relevant})


# ---------------------------------------------------------------- registration


def _sums(c: Columns) -> tuple[np.ndarray, np.ndarray]:
    """AP's running sums for a group of queries, shared by map, gm_map and map_cut_k (Columns.shared)."""
    return precision_sums(c.relevant, c.hits_so_far)


def evaluate_ap(columns: Columns, k: int | None) -> np.ndarray:
    rule, n_relevant = columns.denominator, columns.n_relevant
    if rule == "min_k_listed_relevant":  # LensKit: min(|R|, the list's length, k)
        rule, n_relevant = "min_k_relevant", np.minimum(n_relevant, columns.n_retrieved)
    # Without a cutoff, min(k, R) is R: "min_k_relevant" is then the same as "all_relevant".
    rule = "all_relevant" if k is None and rule == "min_k_relevant" else rule
    if columns.tie_start is None:
        n_relevant = n_relevant if rule != "retrieved_relevant" else None
        return _ap_at(columns.shared(_sums), k or columns.width, n_relevant, rule)
    # ties="average" (evaluate refuses "retrieved_relevant", whose divisor depends on the order).
    total = ties.expected_precision_sum(columns.binary, columns.tie_start, columns.tie_end, k)
    divisor = ap_denominator(n_relevant, None, k or 0, rule)
    return safe_divide(total, divisor, positive=True)


def _evaluate_rr(columns: Columns, k: int | None) -> np.ndarray:
    if columns.tie_start is None:
        return _reciprocal_rank(cutoff(columns.relevant, k)[0])
    return ties.expected_reciprocal_rank(columns.binary, columns.tie_start, columns.tie_end, k)


register(
    Metric(
        "reciprocal_rank",
        reciprocal_rank,
        label="RR",
        title=N_("RR: the reciprocal of the first relevant rank (0 without a relevant item)"),
        names=("rr", "mrr"),
        trec_name="recip_rank",
        evaluate=_evaluate_rr,
        averages_ties=True,
        ir_name="RR",
        ir_parameters=(("rel", None),),
        command="rr",
    )
)
register(
    Metric(
        "mean_rank",
        mean_rank,
        label="MR",
        title=N_(
            "MR: the mean rank of the relevant items in the list (lower is better; nan without a relevant item)"
        ),
        command="mr",
    )
)
register(
    Metric(
        "average_precision",
        average_precision,
        label="AP",
        title=N_(
            "AP: the precisions at the relevant ranks, summed and divided by the number of relevant items R"
        ),
        names=("ap", "map"),
        trec_name="map",
        trec_cutoff_name="map_cut",
        evaluate=evaluate_ap,
        averages_ties=True,
        ir_name="AP",
        ir_parameters=(("rel", None),),
        command="ap",
        keywords=("n_relevant",),
    )
)
register(
    Metric(
        "expected_reciprocal_rank",
        expected_reciprocal_rank,
        label="ERR",
        title=N_(
            "ERR@k: the expected reciprocal of the rank where the user stops, each grade a chance of satisfaction (top grade 4)"
        ),
        names=("err",),
        # In evaluate the scale's top is 4, as in gdeval.pl and so in ir_measures' ERR.
        evaluate=lambda c, k: err_rows(cutoff(c.graded, k)[0], ERR_MAX_GRADE),
        ir_name="ERR",
    )
)
register(
    Metric(
        "mean_reciprocal_rank",
        mean_reciprocal_rank,
        label="MRR",
        title=N_("MRR: the mean of each query's RR (--query once per query)"),
        inputs="queries",
        per_query="reciprocal_rank",
        command="mrr",
    )
)
register(
    Metric(
        "mean_average_precision",
        mean_average_precision,
        label="MAP",
        title=N_("MAP: the mean of each query's AP (--query once per query)"),
        inputs="queries",
        per_query="average_precision",
        command="map",
        keywords=("n_relevant",),
    )
)
