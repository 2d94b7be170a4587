"""Measures of the retrieved set as a set: set_P, set_recall, set_map, set_relative_P, set_F, utility.

The order inside the list does not matter, and ranks past its end are not
filled in (trec_eval ``m_set_*.c``, ``m_utility.c``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._arrays import safe_divide
from ...i18n import N_
from ._common import out_of_range, parameter_numbers, per_query, trec_measure

UTILITY_DEFAULT = (1.0, -1.0, 0.0, 0.0)  # utility's p1..p4 (trec_eval.h)


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
    return safe_divide(per_query(n_relevant_retrieved), per_query(n_retrieved))


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
    return safe_divide(per_query(n_relevant_retrieved), per_query(n_relevant))


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
    found = per_query(n_relevant_retrieved)
    return safe_divide(found * found, per_query(n_retrieved) * per_query(n_relevant))


def set_relative_precision(n_relevant_retrieved: Any, n_retrieved: Any, n_relevant: Any) -> np.ndarray:
    """Relative set precision: relevant retrieved / min(retrieved, R) (trec_eval's ``set_relative_P``).

    References
    ----------
    trec_eval ``m_set_rel_P.c``.

    Examples
    --------
    >>> set_relative_precision([3], [10], [4])
    array([0.75])
    """
    return safe_divide(
        per_query(n_relevant_retrieved), np.minimum(per_query(n_retrieved), per_query(n_relevant))
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
    found = per_query(n_relevant_retrieved)
    precision = safe_divide(found, per_query(n_retrieved))
    recall = safe_divide(found, per_query(n_relevant))
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
        per_query(n_relevant_retrieved),
        per_query(n_retrieved),
        per_query(n_relevant),
    )
    return (
        p1 * found
        + p2 * (retrieved - found)
        + p3 * (total - found)
        + p4 * (n_documents + found - retrieved - total)
    )


MEASURES = (
    trec_measure(
        "utility",
        "utility",
        "utility",
        N_(
            "utility: p1·relevant retrieved + p2·non-relevant retrieved + p3·relevant not retrieved + p4·non-relevant not retrieved"
        ),
        lambda c, k, coefficients=None: utility(
            c.n_relevant_retrieved,
            c.n_retrieved,
            c.n_relevant,
            parameter_numbers(coefficients, "utility", UTILITY_DEFAULT, 4),
        ),
        parameter="numbers",
    ),
    trec_measure(
        "set_precision",
        "set_P",
        "set_P",
        N_("set precision: relevant retrieved ÷ retrieved"),
        lambda c, k: set_precision(c.n_relevant_retrieved, c.n_retrieved),
    ),
    trec_measure(
        "set_relative_precision",
        "set_relative_P",
        "set_relative_P",
        N_("set relative precision: relevant retrieved ÷ min(retrieved, R)"),
        lambda c, k: set_relative_precision(c.n_relevant_retrieved, c.n_retrieved, c.n_relevant),
    ),
    trec_measure(
        "set_recall",
        "set_recall",
        "set_recall",
        N_("set recall: relevant retrieved ÷ R"),
        lambda c, k: set_recall(c.n_relevant_retrieved, c.n_relevant),
    ),
    trec_measure(
        "set_map",
        "set_map",
        "set_map",
        N_("set AP without ranks: set precision × set recall"),
        lambda c, k: set_map(c.n_relevant_retrieved, c.n_retrieved, c.n_relevant),
    ),
    trec_measure(
        "set_f",
        "set_F",
        "set_F",
        N_("set F: the weighted harmonic mean of set precision and set recall"),
        lambda c, k, beta=None: set_f(
            c.n_relevant_retrieved,
            c.n_retrieved,
            c.n_relevant,
            parameter_numbers(beta, "set_F", (1.0,), 1)[0],
        ),
        parameter="numbers",
        # (beta + 1) P R / (beta P + R) is a weighted harmonic mean, in [0, 1], only for beta >= 0.
        check_parameter=lambda beta: out_of_range(beta[:1], N_("beta (the weight of recall)"), 0),
    ),
)
