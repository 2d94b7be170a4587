"""Conventions shared by the metrics: gain, discount, and what counts as relevant.

One place for each choice, so the metric modules cannot drift apart.

- Relevant means grade > 0 (trec_eval's default ``relevance_level`` of 1 for
  integer grades). A negative grade (TREC's -1: in the pool but unjudged,
  trec_eval's ``RELVALUE_UNJUDGED``) is therefore not relevant.
- Discount: log2(rank + 1), rank starting at 1 (Burges et al. 2005's form, used by
  trec_eval, scikit-learn and ranx; Järvelin & Kekäläinen's original DCG of 2000/2002
  discounts by log_b(rank) from rank b on).
- Gain: ``"linear"`` uses the grade itself (trec_eval, scikit-learn);
  ``"exponential"`` uses 2**grade - 1 (Burges et al. 2005, ranx's ``ndcg_burges``,
  gdeval); ``"binary"`` uses 1 for any relevant grade (Microsoft Recommenders,
  RecBole, cornac).
"""

from __future__ import annotations

import numpy as np

from ..i18n import _

GAINS = ("linear", "exponential", "binary")

# Where nDCG's ideal ranking comes from. "judged": every judged item, retrieved
# or not (trec_eval, pytrec_eval, ir_measures, ranx). "listed": only the items
# in the list being scored (scikit-learn's ndcg_score, torchmetrics), which
# ignores relevant items the system never returned.
IDEAL_SOURCES = ("judged", "listed")

# What average precision divides by. "all_relevant": every relevant item,
# retrieved or not (trec_eval's map and map_cut_k, ranx, ir_measures).
# "min_k_relevant": min(k, R), so that a perfect top k scores 1 even when
# R > k (ml_metrics' apk, RecBole's MAP@k). "retrieved_relevant": the relevant
# items inside the top k (torchmetrics' retrieval_average_precision;
# scikit-learn's average_precision_score when given one row of retrieved items).
AP_DENOMINATORS = ("all_relevant", "min_k_relevant", "retrieved_relevant")

# What AP divides by in rankmetrics.evaluate, which also knows each list's length:
# "min_k_listed_relevant" is min(|R|, length of the list cut at k), LensKit's AveragePrecision
# (metrics/ranking/_map.py), so a list of 3 with 3 hits scores 1 whatever |R| and k are.
EVALUATE_AP_DENOMINATORS = (*AP_DENOMINATORS, "min_k_listed_relevant")

# The recommender libraries' other ideals, offered by rankmetrics.evaluate (which knows k and
# the list): "relevant_ones": one unit of gain per relevant item, whatever its grade, so
# min(k, |R|) ones at cutoff k (LensKit's binary NDCG, RecBole, Cornac, implicit); "k_ones":
# k ones, whatever |R| is (RecTools' NDCG with divide_by_achievable=False, its default);
# "listed_hits": the gains already in the top k, sorted (DaisyRec's NDCG: idcg = DCG(sorted(r)),
# which ignores every relevant item the list missed).
EVALUATE_IDEALS = (*IDEAL_SOURCES, "relevant_ones", "k_ones", "listed_hits")

# What P@k divides by. "k": trec_eval, ranx, RecBole, Cornac, RePlay, RecTools, Recommenders.
# "listed": the items shown, min(k, length of the list) (LensKit's Precision, DaisyRec's
# Precision, torchmetrics' adaptive k); an empty list then has no precision (0/0).
# "min_k_relevant": min(k, |R|) (implicit's ranking_metrics_at_k "precision", a capped recall).
PRECISION_DENOMINATORS = ("k", "listed", "min_k_relevant")

# What recall@k divides by. "all_relevant": |R| (trec_eval and most libraries);
# "min_k_relevant": min(k, |R|) (LensKit's Recall, RecPack's CalibratedRecallK), so that a
# perfect top k scores 1 even when |R| > k; "listed_relevant": the relevant items in the list
# passed, cut or not (torchmetrics' retrieval_recall, which sees only the items passed).
RECALL_DENOMINATORS = ("all_relevant", "min_k_relevant", "listed_relevant")

# DCG's discount of rank i. "log2": log2(i + 1) (Burges et al. 2005; trec_eval and most
# libraries). "lenskit": max(1, log2 i), LensKit's default LogRankWeight (log 2 / log(max(i, 2))),
# Järvelin & Kekäläinen's log_b(i) from rank b = 2 on: ranks 1 and 2 weigh alike.
DISCOUNTS = ("log2", "lenskit")


def is_relevant(grades: np.ndarray) -> np.ndarray:
    """Boolean mask of the relevant positions (grade > 0)."""
    return grades > 0


# Gains between 2**-512 and 2**512 are used as they are, so the usual grades cost no
# extra pass; beyond, they are computed relative to 2**shift. 2**512 leaves room for
# 2**500 such terms in one sum before a float overflows.
_HEADROOM = 512


def gain_shift(top: np.ndarray, gain: str) -> np.ndarray:
    """Per row, the power of two that the row's gains are divided by, so that no sum overflows.

    ``top`` is the largest grade of each row (for nDCG, of the list and its
    ideal together). 2**1024 (an exponential gain of grade 1024) or a sum of
    linear grades near 1e308 overflows a float, although nDCG, a ratio, is
    well defined. Dividing all gains of a row by the same power of two is exact
    in binary floating point, so every ratio, and so nDCG, stays the same to
    the last bit, and DCG is the scaled sum times 2**shift.

    Usual grades are not scaled at all (shift 0), so their values are exactly
    the plain sums:

    - linear: 0 when the largest grade lies between 2**-512 and 2**512;
      otherwise its binary exponent, so the largest gain lies in [0.5, 1)
      (this also keeps denormal grades such as 5e-324 from rounding away);
    - exponential: 0 up to grade 512, beyond that (largest grade - 512),
      rounded up;
    - binary: 0.
    """
    top = np.asarray(top, dtype=float)
    if gain == "linear":
        exponent = np.frexp(top)[1]
        return np.where(np.abs(exponent) > _HEADROOM, exponent, 0).astype(float)
    if gain == "exponential":
        return np.maximum(np.ceil(top) - _HEADROOM, 0.0)
    return np.zeros_like(top)


def gain_values(grades: np.ndarray, gain: str, shift: np.ndarray | None = None) -> np.ndarray:
    """The gain of each grade under the named gain function, divided by 2**shift per row if given.

    Always a new array (never ``grades`` itself), which a caller may divide in place.
    """
    grades = np.maximum(grades, 0.0)  # a negative judgement earns nothing
    if gain == "binary":
        return (grades > 0).astype(float)
    if shift is None:
        shift = np.zeros(grades.shape[:-1])
    by_row = np.asarray(shift, dtype=float)[..., None]
    if gain == "linear":
        return np.ldexp(grades, -by_row.astype(np.int64)) if by_row.any() else grades
    if gain == "exponential":
        if not by_row.any():
            return np.exp2(grades) - 1.0
        # (2**g - 1) / 2**s written as 2**(g - s) - 2**-s: neither term overflows,
        # and a grade of 0 still gains exactly 0.
        with np.errstate(under="ignore"):
            return np.exp2(grades - by_row) - np.exp2(-by_row)
    raise AssertionError(_("unchecked gain {gain!r}").format(gain=gain))  # validation happens before


def ap_denominator(
    n_relevant: np.ndarray | None, hits_in_top: np.ndarray, depth: int, denominator: str
) -> np.ndarray:
    """The divisor of average precision per query, under the named convention.

    ``n_relevant`` (R per query) may be None for "retrieved_relevant", which does not need it.
    """
    if denominator == "all_relevant":
        return n_relevant
    if denominator == "min_k_relevant":
        return np.minimum(n_relevant, float(depth))
    if denominator == "retrieved_relevant":
        return hits_in_top
    raise AssertionError(
        _("unchecked denominator {denominator!r}").format(denominator=denominator)
    )  # validation happens before


def discounts(n: int, discount: str = "log2") -> np.ndarray:
    """What ranks 1..n are divided by: log2(rank + 1) = 1, 1.585, 2, 2.322, 2.585, ...;
    with ``discount="lenskit"``, max(1, log2 rank) = 1, 1, 1.585, 2, 2.322, ... (:data:`DISCOUNTS`)."""
    if discount == "lenskit":
        return np.maximum(np.log2(np.arange(1, n + 1, dtype=float)), 1.0)
    return np.log2(np.arange(2, n + 2, dtype=float))


def cutoff(grades: np.ndarray, k: int | None) -> tuple[np.ndarray, int]:
    """The top-k columns of a 2-D grade array, and the k to divide by.

    ``k=None`` means the whole list. A k beyond the list's end keeps the whole
    list but still returns k: the missing ranks count as non-relevant, as in
    trec_eval's P@k (a list of 3 with 3 hits has P@10 = 0.3).
    """
    depth = grades.shape[1] if k is None else k
    return grades[:, :depth], depth


def trec_gains(
    grades: np.ndarray, judged: np.ndarray, judged_grades: np.ndarray, levels: dict[int, float] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """trec_eval's gains (``gain_init.c``): for each ranked document, and the ideal ones.

    A judged grade g >= 0 earns ``levels.get(g, g)``; a document without a
    grade >= 0 (not judged, or in the pool but unjudged) earns 0. The ideal
    gains are those of every judgement of the query, the positive ones only,
    high to low, padded with 0: trec_eval's nDCG, G, ndcg_rel and Rndcg stop
    the ideal ranking where the gains stop being positive. (trec_eval sorts
    the gain levels with a comparison that truncates to an integer, so two
    levels whose gains differ by less than 1 may come out in either order;
    here they are always sorted.)

    Examples
    --------
    >>> gains, ideal = trec_gains(np.array([[2.0, 0.0, 1.0]]), np.array([[True, False, True]]),
    ...                           np.array([[1.0, 2.0, 0.0, -np.inf]]), {2: 5.0})
    >>> gains.tolist(), ideal.tolist()
    ([[5.0, 0.0, 1.0]], [[5.0, 1.0, 0.0, 0.0]])
    """
    gains = np.where(judged, grades, 0.0)
    valid = judged_grades >= 0
    every = np.where(valid, judged_grades, 0.0)
    if levels:  # a mapped level 0 would give the zeros above a gain: zero them again
        gains = np.where(judged, _mapped(gains, levels), 0.0)
        every = np.where(valid, _mapped(every, levels), 0.0)
    ideal = -np.sort(-np.where(valid & (every > 0), every, 0.0), axis=1)
    return gains, ideal


def _mapped(grades: np.ndarray, levels: dict[int, float] | None) -> np.ndarray:
    out = grades.astype(float, copy=True)
    for level, gain in (levels or {}).items():
        out[grades == level] = gain
    return out


RBP_PERSISTENCE = 0.9  # rank-biased precision's default p (trec_eval's m_rbp.c)


def gain_map(parameter: tuple | None, name: str, persistence: bool = False) -> tuple[dict[int, float], float]:
    """trec_eval's ``level=gain`` pairs as ({level: gain}, persistence), e.g. ``ndcg.1=3,2=9``.

    ``p=0.95`` sets RBP's persistence (``rbp.p=0.95``) and is refused elsewhere;
    levels are whole numbers >= 0.
    """
    gains: dict[int, float] = {}
    p = RBP_PERSISTENCE
    for key, value in parameter or ():
        if key == "p" and persistence:
            p = value
        elif key.isdigit():
            gains[int(key)] = value
        else:
            allowed = (
                _("a grade level (0, 1, 2, ...) or p") if persistence else _("a grade level (0, 1, 2, ...)")
            )
            raise ValueError(
                _("{name}: {key!r}={value} is not {allowed}=gain").format(
                    name=name, key=key, value=value, allowed=allowed
                )
            )
    return gains, p
