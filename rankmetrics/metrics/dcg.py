"""Graded metrics with a position discount: DCG and nDCG, and DCG's one home.

Every DCG in the package is :func:`dcg_terms` (each rank's gain over its
discount) added up by :func:`dcg_sums` (rank by rank, from rank 1): the public
:func:`dcg` and :func:`ndcg`, evaluate's nDCG and ``ndcg_cut_k``, trec_eval's
``dcg`` and ``ideal_dcg``, and the DCG curves of ``ndcg_rel`` and ``Rndcg``.
One order of addition makes the numbers agree to the last bit: trec_eval's
``ndcg`` is its ``dcg`` divided by its ``ideal_dcg``, exactly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _validation as v
from .._arrays import pad_right, safe_divide, sequential_sum
from ..i18n import N_
from ..registry import Columns, Metric, register
from .conventions import GAINS, cutoff, discounts, gain_map, gain_shift, gain_values, trec_gains
from .inputs import prepare
from .ties import tie_mean


def dcg_terms(gains: Any, discount: str = "log2", out: np.ndarray | None = None) -> np.ndarray:
    """Each rank's term of DCG: its gain divided by the discount of its rank.

    ``gains`` holds one row per query in ranked order (or one row); the
    discount of rank i is log2(i + 1), or LensKit's max(1, log2 i) with
    ``discount="lenskit"`` (:func:`rankmetrics.metrics.conventions.discounts`).
    ``out`` may be ``gains`` itself, to divide in place.

    >>> dcg_terms([[3.0, 0.0, 3.0, 2.0]]).round(4)
    array([[3.    , 0.    , 1.5   , 0.8614]])
    """
    gains = np.asarray(gains, dtype=float)
    return np.divide(gains, discounts(gains.shape[-1], discount), out=out)


def dcg_sums(terms: np.ndarray) -> np.ndarray:
    """DCG of each row: its terms added one rank after another, from rank 1.

    The order in which trec_eval's loops add them, and the one order of every
    DCG here: numpy's own ``sum`` adds pairwise, so a DCG summed that way and
    another summed in order can differ in the last bit, and nDCG would then not
    be DCG over ideal DCG exactly. Padding with zero terms changes nothing.

    >>> float(dcg_sums(dcg_terms([3.0, 0.0, 3.0, 2.0, 0.0])))  # 3/1 + 0 + 3/2 + 2/log2(5) + 0
    5.361353116146786
    """
    return sequential_sum(terms, axis=-1)


def dcg_curves(terms: np.ndarray) -> np.ndarray:
    """DCG@i at every rank i of each row: the running sums whose last column is :func:`dcg_sums`."""
    return np.cumsum(terms, axis=-1)


def _dcg_rows(grades: np.ndarray, gain: str, shift: np.ndarray | None = None) -> np.ndarray:
    """DCG of each row of a 2-D grade array (already cut at k), divided by 2**shift per row if given."""
    gains = gain_values(grades, gain, shift)  # a new array: divided in place
    return dcg_sums(dcg_terms(gains, out=gains))


def _row_max(grades: np.ndarray) -> np.ndarray:
    return grades.max(axis=1, initial=0.0)


def _ideal_top(ideal: np.ndarray, depth: int) -> np.ndarray:
    """Each row's `depth` largest grades, high to low: the ideal ordering cut at k.

    Two routes to the same array. Grades are usually a few integer levels
    (0-4); then counting, per row, how many grades reach each level gives the
    ideal ordering without sorting anything: a few linear passes, which is what
    keeps a batch of a million queries fast. Any other grades take the general
    route: partition out the top `depth`, then sort only those.
    """
    width = min(depth, ideal.shape[1])
    reach = _level_counts(ideal)
    if reach is None:
        top = ideal if width == ideal.shape[1] else -np.partition(-ideal, width - 1, axis=1)[:, :width]
        return -np.sort(-top, axis=1)
    # The grade at position i (0-based) is the number of levels that more than i items reach.
    # Counted in bytes (at most _MAX_LEVELS levels), made floats once.
    # The positions in the counts' own dtype: comparing bytes with int64 would widen every count.
    positions = np.arange(width, dtype=reach[0].dtype if reach else np.int64)
    best = np.zeros((ideal.shape[0], width), dtype=np.uint8)
    for at_or_above in reach:
        best += at_or_above[:, None] > positions
    return best.astype(float)


_MAX_LEVELS = 16  # beyond this many grade levels, sorting is cheaper than counting
_BLOCK = 1 << 17  # grades per block of rows (1 MB of floats): the block is read again from the cache


def _level_counts(grades: np.ndarray) -> list[np.ndarray] | None:
    """Per row, how many grades are >= 1, >= 2, ... >= top; None unless all grades are small integers."""
    # One byte per grade: the level passes then read an eighth of the memory. The
    # byte copy equals the grades only when every grade is a whole number from 0 to
    # 255 (a cast out of range may warn; it is then refused here). The largest grade
    # is read from the bytes: a pass over an eighth of the memory, not over the floats.
    # A block of rows at a time, so that the comparison with the floats and the level
    # passes read the block from the cache, not a million-row batch from memory again.
    n, width = grades.shape
    # Count in bytes when a row is shorter than 256: no widening of a million-row batch.
    count = np.uint8 if width < 256 else np.int64
    reach: list[np.ndarray] = []  # reach[level - 1]: per row, how many grades are >= level
    rows = max(1, _BLOCK // max(width, 1))
    for start in range(0, n, rows):
        block = grades[start : start + rows]
        with np.errstate(invalid="ignore"):
            small = block.astype(np.uint8)
        # Compared as floats, cast once: comparing the bytes with the floats directly casts in small buffers.
        if not (small.astype(np.float64) == block).all():
            return None
        top = int(small.max(initial=0))  # no judged item at all: an empty row
        if top > _MAX_LEVELS:
            return None
        while len(reach) < top:  # a level no earlier row reached: none of them counts there
            reach.append(np.zeros(n, dtype=count))
        for level in range(1, top + 1):
            out = reach[level - 1][start : start + rows]
            np.add.reduce((small >= level).view(np.uint8), axis=1, dtype=count, out=out)
    return reach


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

    Raises
    ------
    ValueError
        For bad input, and when the DCG itself lies beyond the float range
        (about 1.8e308; e.g. exponential gain of grade 1100). :func:`ndcg`, a
        ratio, is still computed for such grades.

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
    gain = v.check_choice(gain, "gain", GAINS)
    queries = prepare(x, relevant=relevant)
    top, _ = cutoff(queries.grades, k)
    shift = gain_shift(_row_max(top), gain)
    values = v.check_float_range(
        _dcg_rows(top, gain, shift), shift, "x", N_("the DCG (gain={gain!r})"), gain=gain
    )
    return queries.finish(values)


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
      (trec_eval's ``ndcg_cut_k``, "NDCG-global");
    - item ids with ``relevant`` and ``ideal="listed"``: only the listed
      items' grades, as scikit-learn and torchmetrics compute it when given
      just the retrieved items.

    The ideal is cut at the same k as the list. With ``k=None`` neither is
    cut: the ideal keeps every judged item, as trec_eval's ``ndcg`` does.
    0.0 when the ideal DCG is 0 (no relevant item at all), as in trec_eval.
    Gains are computed relative to the largest grade (divided by a power of two,
    which is exact), so huge grades still give the right ratio where
    :func:`dcg` would overflow.

    Parameters
    ----------
    x, k, gain, relevant
        As in :func:`dcg`.
    ideal : {"judged", "listed"}, sequence of grades, or one sequence per query, optional
        Where the ideal ranking comes from. ``"judged"``: every judged item
        (the default with item ids; trec_eval, pytrec_eval, ir_measures,
        ranx). ``"listed"``: only the listed items (the default for grades;
        scikit-learn, torchmetrics). A sequence: the grades of every judged
        item, in any order (grades form only).

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
    >>> judged = {"d1": 3, "d3": 3, "d4": 2, "d6": 1}  # d6 was never retrieved
    >>> ranking = ["d1", "d2", "d3", "d4", "d5"]
    >>> round(ndcg(ranking, k=5, relevant=judged), 4)  # ideal 3, 3, 2, 1 (trec_eval)
    0.8479
    >>> round(ndcg(ranking, k=5, relevant=judged, ideal="listed"), 4)  # ideal 3, 3, 2 (scikit-learn)
    0.9098
    """
    k = v.check_k(k)
    gain = v.check_choice(gain, "gain", GAINS)
    queries = prepare(x, relevant=relevant, ideal=ideal)
    return queries.finish(_ndcg_rows(queries.grades, k, queries.ideal, gain))


def _ndcg_rows(
    grades: np.ndarray, k: int | None, ideal: np.ndarray, gain: str, ties: tuple | None = None
) -> np.ndarray:
    """nDCG@k of each row of checked arrays: grades in ranked order, and every judged grade (any order).

    ``k=None`` cuts neither side: the DCG covers the whole list and the ideal
    every judged item (trec_eval's uncut ``ndcg``). ``ties`` (each rank's tie
    group, start and end) gives the expected nDCG over every order of tied
    documents: each rank earns its group's mean gain (McSherry & Najork), the
    mean taken over the whole group before the cut at k.
    """
    best = _ideal_top(ideal, ideal.shape[1] if k is None else k)
    return _ndcg_of(_discounted_gains(grades, k, best, gain, ties))


def _discounted_gains(
    grades: np.ndarray,
    k: int | None,
    best: np.ndarray,
    gain: str,
    ties: tuple | None = None,
    discount_rule: str = "log2",
) -> tuple[np.ndarray, np.ndarray]:
    """Each rank's DCG term, in the ranked list cut at k and in ``best``, the ideal cut at k.

    Both get as many columns as the longer of the two, so a perfect ranking
    adds the very same terms in the very same order and scores exactly 1.0.
    ``discount_rule="lenskit"`` divides by max(1, log2 rank) instead (:data:`DISCOUNTS`).
    """
    top, _ = cutoff(grades, k)
    width = max(top.shape[1], best.shape[1])
    # One scale per row for both DCGs: the ratio is then the unscaled ratio, bit for bit.
    # The ideal's first grade is the row's largest: the ideal holds every listed grade.
    largest = best[:, 0] if best.shape[1] else np.zeros(best.shape[0])
    shift = gain_shift(largest, gain)
    if ties is None:
        actual = gain_values(pad_right(top, width), gain, shift)
    else:
        expected = tie_mean(gain_values(grades, gain, shift), *ties)[:, : top.shape[1]]
        actual = pad_right(expected, width)
    ideal_gains = gain_values(pad_right(best, width), gain, shift)
    # Both are new arrays (gain_values and tie_mean never hand back their input): divide in place.
    return dcg_terms(actual, discount_rule, out=actual), dcg_terms(
        ideal_gains, discount_rule, out=ideal_gains
    )


def _ndcg_of(discounted: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """nDCG from :func:`_discounted_gains`: the list's DCG over the ideal's (0 when that is 0)."""
    actual, best = discounted
    return safe_divide(dcg_sums(actual), dcg_sums(best), positive=True)


# ---------------------------------------------------------------- registration


def _ideal_ordering(c: Columns) -> np.ndarray:
    """Every judged grade of each query, high to low: the ideal of every cutoff (Columns.shared).

    With ``ideal="listed"`` the retrieved grades; with ``"relevant_ones"`` one 1 per relevant
    item (so min(k, |R|) ones at cutoff k).
    """
    if c.ideal == "relevant_ones":
        count = np.asarray(c.n_relevant, dtype=np.int64)
        return (np.arange(int(count.max(initial=0))) < count[:, None]).astype(float)
    ideal = c.graded if c.best is None else c.best
    return _ideal_top(ideal, ideal.shape[1])


def _ideal_at(c: Columns, k: int) -> np.ndarray:
    """The ideals that depend on the cut: k ones (``"k_ones"``), or the top k's own grades
    sorted (``"listed_hits"``)."""
    if c.ideal == "k_ones":
        return np.ones((c.graded.shape[0], k))
    return -np.sort(-cutoff(c.graded, k)[0], axis=1)


def _discounted_to(c: Columns, width: int) -> tuple[np.ndarray, np.ndarray]:
    """nDCG's discounted gains cut at ``width`` (Columns.shared): with lists of 100, ndcg_cut_100
    ... ndcg_cut_1000 and the uncut ndcg are one computation."""
    ties = None if c.tie_start is None else (c.tie_start, c.tie_end)
    if c.ideal in ("k_ones", "listed_hits"):
        best = _ideal_at(c, width)
    else:
        best = c.shared(_ideal_ordering)[:, :width]
    return _discounted_gains(c.graded, width, best, c.gain, ties, c.discount)


def _evaluate_ndcg(columns: Columns, k: int | None, gains: tuple | None = None) -> np.ndarray:
    """nDCG for evaluate: with trec_eval's ``level=gain`` pairs (``ndcg_1=3,2=9``) when given.

    Plain "ndcg" cuts neither side: trec_eval's uncut ndcg. The ideal comes from every
    judged document (trec_eval) or, with ideal="listed", from the retrieved ones.
    """
    ties = None if columns.tie_start is None else (columns.tie_start, columns.tie_end)
    if gains is None:
        if columns.ideal == "k_ones":  # k ones whatever the list's length: no cut is "past the end"
            return _ndcg_of(columns.shared(_discounted_to, columns.width if k is None else k))
        # A cut at or past the end of both the list and the ideal cuts nothing: ndcg_cut_k is then ndcg.
        longest = max(columns.width, columns.shared(_ideal_ordering).shape[1])
        return _ndcg_of(columns.shared(_discounted_to, longest if k is None else min(k, longest)))
    # trec_eval's gain map (m_ndcg.c): a mapped grade earns its gain, which may be 0 or
    # negative; the ideal keeps the positive gains of every judgement.
    run, ideal = trec_gains(columns.graded, columns.judged, columns.judged_grades, gain_map(gains, "ndcg")[0])
    if ties is not None:
        run = tie_mean(run, *ties)
    return safe_divide(dcg_sums(dcg_terms(run)), dcg_sums(dcg_terms(ideal)), positive=True)


register(
    Metric(
        "ndcg",
        ndcg,
        label="nDCG",
        title=N_("nDCG@k: DCG divided by the DCG of the ideal ordering"),
        names=("ndcg",),
        trec_name="ndcg",
        trec_cutoff_name="ndcg_cut",
        parameter="gains",
        evaluate=_evaluate_ndcg,
        averages_ties=True,
        ir_name="nDCG",
        ir_parameters=(("dcg", None),),
        command="ndcg",
        keywords=("gain", "ideal"),
    )
)
register(
    Metric(
        "dcg",
        dcg,
        label="DCG",
        title=N_("DCG@k: the sum of the gains divided by log2(rank+1)"),
        command="dcg",
        keywords=("gain",),
    )
)
