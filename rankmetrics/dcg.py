"""Graded metrics with a position discount: DCG and nDCG."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _validation as v
from ._conventions import GAINS, cutoff, discounts, gain_values
from ._queries import prepare


def _dcg_rows(grades: np.ndarray, gain: str) -> np.ndarray:
    """DCG of each row of a 2-D grade array (already cut at k)."""
    return (gain_values(grades, gain) / discounts(grades.shape[1])).sum(axis=1)


def _top_grades(grades: np.ndarray, depth: int) -> np.ndarray:
    """The `depth` largest grades of each row, high to low: the ideal ordering cut at k.

    Partitioning first keeps this O(n) per row instead of a full sort.
    """
    if depth < grades.shape[1]:
        grades = -np.partition(-grades, depth - 1, axis=1)[:, :depth]
    return -np.sort(-grades, axis=1)


def dcg(x: Any, k: int | None = None, *, gain: str = "linear", relevant: Any = None) -> float | np.ndarray:
    """Discounted cumulative gain: sum of gain(grade_i) / log2(i + 1) over ranks i <= k.

    Rewards relevant items, more so the higher they are ranked and the higher
    their grade. Unnormalised, so values of different queries are not on one
    scale; see :func:`ndcg`.

    Parameters
    ----------
    x : sequence of grades in ranked order, 2-D array (one query per row), or item ids
    k : positive int or None
        Cutoff; ``None`` uses the whole list.
    gain : {"linear", "exponential", "binary"}
        ``"linear"``: the grade itself (Järvelin & Kekäläinen; trec_eval,
        scikit-learn). ``"exponential"``: 2**grade - 1 (Burges et al.; ranx's
        ``ndcg_burges``). ``"binary"``: 1 for every relevant item (Microsoft
        Recommenders, RecBole). The three agree on 0/1 grades.
    relevant : set, list or mapping {id: grade}, optional
        Judgements when ``x`` holds item ids.

    Returns
    -------
    float, or a 1-D array for a batch.

    See Also
    --------
    ndcg

    References
    ----------
    Järvelin & Kekäläinen, "Cumulated gain-based evaluation of IR techniques", ACM TOIS 20(4), 2002.

    Examples
    --------
    >>> round(dcg([3, 0, 3, 2, 0]), 4)  # 3/1 + 3/2 + 2/log2(5)
    5.3614
    >>> round(dcg(list("ABCDE"), k=5, relevant={"B", "D"}), 4)  # 1/log2(3) + 1/log2(5)
    1.0616
    """
    k = v.check_k(k)
    gain = v.check_gain(gain, GAINS)
    queries = prepare(x, relevant=relevant)
    top, _ = cutoff(queries.grades, k)
    return queries.finish(_dcg_rows(top, gain))


def ndcg(
    x: Any,
    k: int | None = None,
    *,
    gain: str = "linear",
    ideal: Any = None,
    relevant: Any = None,
) -> float | np.ndarray:
    """Normalised DCG: DCG@k divided by the DCG@k of the ideal ordering.

    The ideal ordering sorts the grades of **every judged item** from high to
    low and is cut at the same k. Which items count as judged is the
    convention on which libraries disagree most:

    - grades form, ``ideal=None``: the ideal comes from the listed grades
      themselves (scikit-learn's ``ndcg_score``, "NDCG-local");
    - grades form, ``ideal=[...]``: pass the grades of all judged items,
      including relevant ones that were not retrieved;
    - item ids with ``relevant``: the ideal uses every judged item
      (trec_eval's ``ndcg_cut_k``, "NDCG-global").

    0.0 when the ideal DCG is 0 (no relevant item at all), as in trec_eval.

    Parameters
    ----------
    x, k, gain, relevant
        As in :func:`dcg`.
    ideal : sequence of grades, or one sequence per query for a batch, optional
        The grades of every judged item, in any order (grades form only).

    Returns
    -------
    float in [0, 1], or a 1-D array for a batch.

    See Also
    --------
    dcg

    References
    ----------
    Järvelin & Kekäläinen, "Cumulated gain-based evaluation of IR techniques", ACM TOIS 20(4), 2002;
    Burges et al., "Learning to rank using gradient descent", ICML 2005 (exponential gain).

    Examples
    --------
    >>> round(ndcg([3, 0, 3, 2, 0]), 4)  # 5.3614 / 5.8928
    0.9098
    >>> round(ndcg([1, 0, 1, 0, 1]), 4)  # ideal from the 3 listed relevant items
    0.8855
    >>> round(ndcg([1, 0, 1, 0, 1], ideal=[1, 1, 1, 1]), 4)  # a 4th relevant item exists
    0.7366
    >>> round(ndcg([3, 2, 3, 0, 1], gain="exponential"), 4)
    0.9575
    """
    k = v.check_k(k)
    gain = v.check_gain(gain, GAINS)
    queries = prepare(x, relevant=relevant, ideal=ideal)
    top, depth = cutoff(queries.grades, k)
    actual = _dcg_rows(top, gain)
    best_dcg = _dcg_rows(_top_grades(queries.ideal, depth), gain)
    out = np.zeros_like(actual)
    np.divide(actual, best_dcg, out=out, where=best_dcg > 0)
    return queries.finish(out)
