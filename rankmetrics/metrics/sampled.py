"""Sampled metrics: a held-out item ranked among a few sampled negatives, not the whole catalogue.

The leave-one-out protocol of many recommender papers (NCF and its successors, RecBole's
``uni100``, DaisyRec, Elliot): each user has one held-out item, and instead of ranking it
among all ``n_items`` items, the model ranks it among itself and ``n_negatives`` items
drawn uniformly from the other ``n_items - 1``. If the held-out item's full rank is R,
R - 1 other items are above it; the number X of them that the sample catches is
hypergeometric, X ~ Hypergeometric(n_items - 1, R - 1, n_negatives) (binomial,
Binomial(n_negatives, (R - 1) / (n_items - 1)), when the negatives are drawn with
replacement), and the sampled rank is r = 1 + X, between 1 and n_negatives + 1.

Krichene & Rendle (KDD 2020) showed that a metric computed at the sampled rank can order
models differently from the same metric at the full rank, and proposed a corrected metric:
a value M~(r) for each sampled rank r, chosen so that its expectation over the sample
stays close to the exact metric at every full rank. This module computes

- the exact distribution of the sampled rank (:func:`sampled_rank_probabilities`),
- the exact expected sampled metric per user (:func:`sampled_expectation`),
- Krichene and Rendle's correction (:func:`sampled_correction`,
  :func:`corrected_sampled_metric`),
- and a seeded simulation that draws real negatives (:func:`sample_ranks`,
  :func:`simulate_sampled_metric`).

How the probabilities are computed: along each row (one full rank R) the probability of
x + 1 above-items over that of x is a simple ratio of counts, so the logarithm of the
unnormalised probabilities is a cumulative sum of small logarithms, exponentiated and
divided by the row's sum. No factorial of n_items is ever formed, so the values are exact
to rounding (about 1e-13) even for a million items. Only the columns holding all but
1e-20 of each row's probability are computed (Hoeffding's bound, below); rows are taken
in blocks, so a catalogue of 1,000,000 items with 1,000 negatives never holds the whole
n_items x (n_negatives + 1) matrix.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from .._validation import check_choice, show, to_float_array
from ..i18n import N_, _
from ..registry import Metric, register

METRICS = ("HR@k", "nDCG@k", "MRR", "MRR@k", "P@k", "AP", "AUC")
_NEEDS_K = ("HR", "nDCG", "P")
_TAKES_NO_K = ("AP", "AUC")

_BLOCK = 2**18  # numbers in one block of rows of A: 2 MB of float64
# Probability of a row left outside the columns a block computes. Hoeffding (1963, Theorems 1
# and 4): for X binomial or hypergeometric with n draws and mean n p,
# P(|X - n p| >= t) <= 2 exp(-2 t^2 / n), so t = sqrt(n ln(2 / _TAIL) / 2) leaves out at most _TAIL.
_TAIL = 1e-20
# The correction solves a square system of n_negatives + 1 unknowns: 5,001^2 floats are 200 MB.
MAX_CORRECTION_NEGATIVES = 5000


# ---------------------------------------------------------------- checks


def _parse_metric(metric: Any) -> tuple[str, int | None]:
    """``"nDCG@10"`` -> ("nDCG", 10); ``"MRR"`` -> ("MRR", None). Names are read case-insensitively."""
    choices = ", ".join(METRICS)
    if not isinstance(metric, str):
        raise ValueError(
            _("metric must be a string such as 'HR@10' (one of {choices}); got {metric}").format(
                choices=choices, metric=show(metric)
            )
        )
    head, at, cut = metric.strip().partition("@")
    names = {name.upper(): name for name in ("HR", "nDCG", "MRR", "P", "AP", "AUC")}
    name = names.get(head.strip().upper())
    if name is None:
        raise ValueError(
            _("metric {metric} is not a sampled metric; choose one of {choices}").format(
                metric=show(metric), choices=choices
            )
        )
    if not at:
        if name in _NEEDS_K:
            raise ValueError(
                _("metric {metric} needs a cutoff: write {name}@k, for example {name}@10").format(
                    metric=show(metric), name=name
                )
            )
        return name, None
    if name in _TAKES_NO_K:
        raise ValueError(
            _("metric {metric} takes no cutoff; write {name}").format(metric=show(metric), name=name)
        )
    cut = cut.strip()
    if not (cut.isascii() and cut.isdigit()) or int(cut) < 1:
        raise ValueError(
            _("the cutoff k in metric {metric} must be a positive integer; got {k}").format(
                metric=show(metric), k=show(cut)
            )
        )
    return name, int(cut)


def _check_count(value: Any, name: str, minimum: int) -> int:
    """A whole number of at least ``minimum`` (numpy integers included; True/2.5 refused)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(
            _("{name} must be a whole number of at least {minimum}; got {value}").format(
                name=name, minimum=minimum, value=show(value)
            )
        )
    return int(value)


def _check_sizes(n_items: Any, n_negatives: Any) -> tuple[int, int]:
    n_items = _check_count(n_items, "n_items", 2)
    n_negatives = _check_count(n_negatives, "n_negatives", 1)
    if n_negatives >= n_items:
        raise ValueError(
            _(
                "n_negatives must be smaller than n_items (the negatives are drawn from the other "
                "n_items - 1 items); got n_negatives={n_negatives}, n_items={n_items}"
            ).format(n_negatives=n_negatives, n_items=n_items)
        )
    return n_items, n_negatives


def _check_ranks(ranks: Any, name: str, largest: int) -> np.ndarray:
    """Ranks 1..largest, one per user (a single number is one user), as an int64 array."""
    if isinstance(ranks, (bool, np.bool_)) or np.asarray(ranks).dtype.kind == "b":
        raise ValueError(
            _("{name} must be whole numbers from 1 to {largest}, not True/False; got {value}").format(
                name=name, largest=largest, value=show(ranks)
            )
        )
    array = np.atleast_1d(to_float_array(ranks, name))
    if array.ndim != 1 or array.size == 0:
        raise ValueError(
            _("{name} must be a non-empty 1-D sequence of ranks, one per user; got {value}").format(
                name=name, value=show(ranks)
            )
        )
    whole = np.isfinite(array) & (array == np.round(array))
    if not whole.all():
        raise ValueError(
            _("{name} must be whole numbers (ranks); found {bad} in {value}").format(
                name=name, bad=float(array[~whole][0]), value=show(ranks)
            )
        )
    outside = (array < 1) | (array > largest)
    if outside.any():
        raise ValueError(
            _("{name} must lie between 1 and {largest}; found {bad:g} in {value}").format(
                name=name, largest=largest, bad=float(array[outside][0]), value=show(ranks)
            )
        )
    return array.astype(np.int64)


def _check_gamma(gamma: Any) -> float:
    if isinstance(gamma, (bool, np.bool_)) or not isinstance(gamma, numbers.Real) or not 0 <= gamma <= 1:
        raise ValueError(_("gamma must be a number from 0 to 1; got {gamma}").format(gamma=show(gamma)))
    return float(gamma)


# ---------------------------------------------------------------- the metric of one held-out item


def _metric_at(name: str, k: int | None, ranks: np.ndarray, n_candidates: int) -> np.ndarray:
    """The metric of one held-out (relevant) item at ``ranks`` among ``n_candidates`` items.

    With one relevant item the ideal DCG is 1, AP is 1 / rank, and AUC is the share of the
    n_candidates - 1 other items ranked below it.
    """
    rank = np.asarray(ranks, dtype=float)
    inside = rank <= k if k is not None else np.ones(rank.shape, dtype=bool)
    if name == "HR":
        return np.where(inside, 1.0, 0.0)
    if name == "P":
        return np.where(inside, 1.0 / k, 0.0)
    if name == "nDCG":
        return np.where(inside, 1.0 / np.log2(1.0 + rank), 0.0)
    if name in ("MRR", "AP"):
        return np.where(inside, 1.0 / rank, 0.0)
    return (n_candidates - rank) / (n_candidates - 1)  # AUC


def metric_at_rank(metric: str, ranks: Any, n_candidates: int) -> np.ndarray:
    """``metric`` (as in :func:`sampled_expectation`) of one held-out item at each of ``ranks``
    among ``n_candidates`` items: the values the expectation weighs (the step table shows them)."""
    name, k = _parse_metric(metric)
    return _metric_at(name, k, np.asarray(ranks), n_candidates)


# ---------------------------------------------------------------- P(sampled rank | full rank)


def _window(p_low: float, p_high: float, n: int) -> tuple[int, int]:
    """Values lo..hi of X holding all but _TAIL of every row with mean between n p_low and n p_high."""
    t = math.sqrt(n * math.log(2 / _TAIL) / 2)
    return max(0, math.floor(n * p_low - t)), min(n, math.ceil(n * p_high + t))


def _probability_block(above: np.ndarray, n_items: int, n_negatives: int, replace: bool):
    """(lo, block) with block[i, j] = P(X = lo + j) for a held-out item with ``above[i]`` items above it.

    X counts the sampled negatives that are ranked above the held-out item. The log of
    P(X = x + 1) / P(X = x) is ``step`` below; its cumulative sum along the row is the log of
    the unnormalised probabilities, which are then divided by their sum.
    """
    n, others = n_negatives, n_items - 1
    p = above / others  # share of the other items ranked above
    lo, hi = _window(float(p.min()), float(p.max()), n)
    x = np.arange(lo, hi + 1, dtype=float)[None, :]
    if replace:
        first, last = np.where(p == 1, n, 0), np.where(p == 0, 0, n)
    else:
        first, last = np.maximum(0, n - (others - above)), np.minimum(n, above)
    first, last = first[:, None], last[:, None]
    steps = x[:, :-1]  # the steps x -> x + 1 from lo to hi
    with np.errstate(divide="ignore", invalid="ignore"):  # steps outside the support are masked next
        if replace:  # binomial: (n - x) / (x + 1) * p / (1 - p)
            odds = p[:, None] / (1 - p[:, None])
            ratio = (n - steps) / (steps + 1) * odds
        else:  # hypergeometric: (above - x)(n - x) / ((x + 1)(below - n + x + 1))
            count = above[:, None].astype(float)
            ratio = (count - steps) * (n - steps) / ((steps + 1) * (others - count - n + steps + 1))
    ratio = np.where((steps >= first) & (steps < last), ratio, 1.0)
    log_weight = np.zeros((len(above), hi - lo + 1))
    np.cumsum(np.log(ratio), axis=1, out=log_weight[:, 1:])
    log_weight -= log_weight.max(axis=1, keepdims=True)
    # A probability below exp(-340) = 1e-148 of the row's largest is set to 0. Nothing is
    # lost (the window already leaves out up to 1e-20), and the product of two such numbers
    # in AᵀA would be subnormal (below 2.2e-308), which makes the processor a hundred times slower.
    log_weight[log_weight < -340] = -np.inf
    weight = np.exp(log_weight)
    weight *= (x >= first) & (x <= last)  # zero outside the support
    return lo, weight / weight.sum(axis=1, keepdims=True)


def _blocks(ranks: np.ndarray, n_items: int, n_negatives: int, replace: bool, rows: int | None = None):
    """(start, lo, block) for consecutive blocks of ``ranks`` (sorted ranks keep the windows narrow)."""
    rows = rows or max(1, _BLOCK // (n_negatives + 1))
    for start in range(0, len(ranks), rows):
        lo, block = _probability_block(ranks[start : start + rows] - 1, n_items, n_negatives, replace)
        yield start, lo, block


def sampled_rank_probabilities(
    n_items: int, n_negatives: int, ranks: Any = None, replace: bool = False
) -> np.ndarray:
    """The matrix A of Krichene & Rendle: A[i, r - 1] = P(sampled rank r | full rank ``ranks[i]``).

    A held-out item at full rank R among ``n_items`` is ranked again among itself and
    ``n_negatives`` items drawn uniformly from the other ``n_items - 1``. Its sampled rank is
    1 + X, X ~ Hypergeometric(n_items - 1, R - 1, n_negatives), or
    Binomial(n_negatives, (R - 1) / (n_items - 1)) with ``replace=True``.

    Parameters
    ----------
    n_items : int
        Items in the catalogue (at least 2).
    n_negatives : int
        Sampled negatives per user, 1 to ``n_items - 1``.
    ranks : sequence of int, optional
        Full ranks 1..n_items, one row each; default every rank 1..n_items (the whole matrix:
        mind its size).
    replace : bool
        Draw the negatives with replacement.

    Returns
    -------
    numpy.ndarray of shape (len(ranks), n_negatives + 1); each row sums to 1.

    References
    ----------
    Krichene & Rendle, "On sampled metrics for item recommendation", KDD 2020.

    Examples
    --------
    Four items, two negatives: an item at full rank 2 has one item above it, and the
    sample catches it with probability 2/3 (two of the three other items are drawn).

    >>> sampled_rank_probabilities(4, 2, ranks=[2]).round(4)
    array([[0.3333, 0.6667, 0.    ]])
    """
    n_items, n_negatives = _check_sizes(n_items, n_negatives)
    ranks = np.arange(1, n_items + 1) if ranks is None else _check_ranks(ranks, "ranks", n_items)
    matrix = np.zeros((len(ranks), n_negatives + 1))
    for start, lo, block in _blocks(ranks, n_items, n_negatives, bool(replace)):
        matrix[start : start + len(block), lo : lo + block.shape[1]] = block
    return matrix


# ---------------------------------------------------------------- the expected sampled metric


def sampled_expectation(
    metric: str, ranks: Any, n_items: int, n_negatives: int, replace: bool = False
) -> np.ndarray:
    """The exact expected value of a sampled metric, one per user.

    Each user's held-out item has full rank ``ranks[u]`` among ``n_items`` items. Ranked
    instead among itself and ``n_negatives`` uniformly sampled other items, it lands at
    sampled rank r = 1 + X, X ~ Hypergeometric(n_items - 1, R - 1, n_negatives) (binomial
    with ``replace=True``). This returns E[metric(r)], computed from the exact distribution
    of r (no simulation). The sampled value can be far above the full one and can even
    order two models the other way round.

    With one held-out (relevant) item at rank r among n = n_negatives + 1 candidates:
    HR@k = [r <= k]; nDCG@k = 1 / log2(1 + r) if r <= k (the ideal DCG is 1); MRR = AP = 1/r;
    MRR@k = 1/r if r <= k; P@k = [r <= k] / k; AUC = (n - r) / (n - 1), the share of the
    negatives ranked below the held-out item. The expected sampled AUC equals the full AUC,
    which is why every sampled metric drifts towards AUC as the sample shrinks.

    Parameters
    ----------
    metric : str
        One of ``"HR@k"``, ``"nDCG@k"``, ``"MRR"``, ``"MRR@k"``, ``"P@k"``, ``"AP"``, ``"AUC"``
        with k a positive integer (``"HR@10"``).
    ranks : int or 1-D sequence of int
        Full rank of each user's held-out item, 1..n_items.
    n_items : int
        Items in the catalogue.
    n_negatives : int
        Sampled negatives per user, 1 to ``n_items - 1`` (RecBole's ``uni100``: 100).
    replace : bool
        Draw the negatives with replacement.

    Returns
    -------
    numpy.ndarray of float, one expected value per user.

    See Also
    --------
    sampled_correction, simulate_sampled_metric

    References
    ----------
    Krichene & Rendle, "On sampled metrics for item recommendation", KDD 2020.

    Examples
    --------
    1,000 items, 100 negatives. A model that puts every held-out item at rank 40 never hits
    the top 10 of the catalogue, but among 100 sampled negatives it almost always does:

    >>> sampled_expectation("HR@10", [40], n_items=1000, n_negatives=100).round(4)
    array([0.9966])
    >>> sampled_expectation("HR@10", [5, 500], n_items=1000, n_negatives=100).round(4)
    array([1., 0.])
    """
    name, k = _parse_metric(metric)
    n_items, n_negatives = _check_sizes(n_items, n_negatives)
    ranks = _check_ranks(ranks, "ranks", n_items)
    unique, inverse = np.unique(ranks, return_inverse=True)
    values = _metric_at(name, k, np.arange(1, n_negatives + 2), n_negatives + 1)
    expected = np.empty(len(unique))
    for start, lo, block in _blocks(unique, n_items, n_negatives, bool(replace)):
        expected[start : start + len(block)] = block @ values[lo : lo + block.shape[1]]
    return expected[inverse]


# ---------------------------------------------------------------- the correction


def _normal_equations(name: str, k: int | None, n_items: int, n_negatives: int, replace: bool, rows=None):
    """AᵀA, AᵀM and Aᵀ1 over the full ranks R = 1..n_items, added up block by block of rows."""
    size = n_negatives + 1
    gram, right, column_sums = np.zeros((size, size)), np.zeros(size), np.zeros(size)
    for start, lo, block in _blocks(np.arange(1, n_items + 1), n_items, n_negatives, replace, rows):
        hi = lo + block.shape[1]
        exact = _metric_at(name, k, np.arange(start + 1, start + 1 + len(block)), n_items)
        gram[lo:hi, lo:hi] += block.T @ block
        right[lo:hi] += block.T @ exact
        column_sums[lo:hi] += block.sum(axis=0)
    return gram, right, column_sums


def sampled_correction(
    metric: str,
    n_items: int,
    n_negatives: int,
    method: str = "bv",
    gamma: float = 0.1,
    replace: bool = False,
) -> np.ndarray:
    """Krichene & Rendle's corrected metric: the value M~(r) to give each sampled rank r.

    A sampled metric gives sampled rank r the value the metric has at rank r, and so
    overrates every model. The correction gives rank r a value M~(r) chosen so that,
    at every full rank R = 1..n_items, the expected corrected value sum_r A[R, r] M~(r)
    is close to the exact metric M(R) (A[R, r] = P(sampled rank r | full rank R), see
    :func:`sampled_rank_probabilities`):

    - ``method="bias"`` minimises sum_R (sum_r A[R, r] M~(r) - M(R))^2. The system AᵀA M~ = AᵀM
      is nearly singular (its condition number is about 1e17 at 1,000 items and 100 negatives:
      many M~ fit almost equally well), so this returns the solution of least norm
      (``numpy.linalg.lstsq``, dropping singular values below machine precision). Its values
      swing between large positive and negative numbers, and a few users' sampled ranks then
      decide the mean: unbiased on average, useless for one data set.
    - ``method="bv"`` (the default) adds gamma times the variance of M~ at each full rank:
      it solves ((1 - gamma) AᵀA + gamma diag(Aᵀ1)) M~ = AᵀM. A small gamma (0.1) keeps most
      of the bias removal and a stable, mostly decreasing M~; gamma = 1 gives the plain
      average of the exact metric over the full ranks that produce each sampled rank.

    Every full rank R = 1..n_items counts once in these sums: the correction assumes no
    rank is more common than another. A model whose held-out items crowd the top of the
    catalogue is therefore corrected towards the average of the full ranks that share its
    sampled ranks, and underrated; what the sample did not see, no correction restores.

    AᵀA, AᵀM and Aᵀ1 are added up over blocks of full ranks, so 1,000,000 items with 1,000
    negatives never hold the whole matrix A.

    Parameters
    ----------
    metric : str
        As in :func:`sampled_expectation` (``"HR@10"``, ``"nDCG@10"``, ``"AUC"``, ...).
    n_items, n_negatives : int
        Catalogue size and sampled negatives per user (at most 5,000 here).
    method : {"bv", "bias"}
    gamma : float
        Weight of the variance, 0 to 1 (``method="bv"`` only).
    replace : bool
        The negatives were drawn with replacement.

    Returns
    -------
    numpy.ndarray of length n_negatives + 1: M~(r) for r = 1, ..., n_negatives + 1.

    See Also
    --------
    corrected_sampled_metric

    References
    ----------
    Krichene & Rendle, "On sampled metrics for item recommendation", KDD 2020, section 4
    (minimal bias; bias-variance trade-off).

    Examples
    --------
    HR@10 with 1,000 items and 100 negatives: a sampled HR@10 gives ranks 1 to 10 the value 1.
    The correction gives rank 1 a little more than 1 (it comes from full ranks near the top),
    ranks 3 and 4 negative values (full ranks around 30, misses in the catalogue), and
    nearly 0 to the rest:

    >>> corrected = sampled_correction("HR@10", 1000, 100)
    >>> corrected[:6].round(2)
    array([ 1.11,  0.22, -0.24, -0.15, -0.01,  0.04])
    >>> corrected.shape
    (101,)
    """
    name, k = _parse_metric(metric)
    n_items, n_negatives = _check_sizes(n_items, n_negatives)
    method = check_choice(method, "method", ("bv", "bias"))
    gamma = _check_gamma(gamma)
    if n_negatives > MAX_CORRECTION_NEGATIVES:
        raise ValueError(
            _(
                "n_negatives must be at most {limit} for the correction (it solves a system of "
                "n_negatives + 1 unknowns); got {n_negatives}"
            ).format(limit=MAX_CORRECTION_NEGATIVES, n_negatives=n_negatives)
        )
    gram, right, column_sums = _normal_equations(name, k, n_items, n_negatives, bool(replace))
    if method == "bias":
        return np.linalg.lstsq(gram, right, rcond=None)[0]
    system = (1 - gamma) * gram + gamma * np.diag(column_sums)
    try:
        return np.linalg.solve(system, right)
    except np.linalg.LinAlgError:
        raise ValueError(
            _("gamma={gamma} leaves the system singular; use gamma > 0 or method='bias'").format(
                gamma=show(gamma)
            )
        ) from None


def corrected_sampled_metric(
    metric: str,
    sampled_ranks: Any,
    n_items: int,
    n_negatives: int,
    method: str = "bv",
    gamma: float = 0.1,
    replace: bool = False,
) -> float:
    """The corrected sampled metric: the mean of M~(r) over the users' sampled ranks r.

    ``sampled_ranks`` are the ranks of each user's held-out item among itself and its
    ``n_negatives`` sampled negatives (1..n_negatives + 1); M~ is :func:`sampled_correction`.

    References
    ----------
    Krichene & Rendle, "On sampled metrics for item recommendation", KDD 2020.

    Examples
    --------
    Model B of the reversal puts every held-out item at full rank 40 of 1,000, so its exact
    HR@10 is 0; among 100 sampled negatives it lands at rank 4 or 5, a sampled hit every time.
    The corrected value is near 0 again (slightly below: it is unbiased only on average):

    >>> round(corrected_sampled_metric("HR@10", [4, 4, 5, 4], n_items=1000, n_negatives=100), 3)
    -0.115
    """
    _parse_metric(metric)  # each argument is checked in order, before the work
    n_items, n_negatives = _check_sizes(n_items, n_negatives)
    sampled_ranks = _check_ranks(sampled_ranks, "sampled_ranks", n_negatives + 1)
    corrected = sampled_correction(metric, n_items, n_negatives, method, gamma, replace)
    return float(np.mean(corrected[sampled_ranks - 1]))


# ---------------------------------------------------------------- simulation


def sample_ranks(
    ranks: Any, n_items: int, n_negatives: int, seed: Any = None, replace: bool = False
) -> np.ndarray:
    """Draw each user's negatives and return the held-out item's sampled rank (seeded).

    The other n_items - 1 items are numbered 0..n_items - 2 in their full-rank order, so
    for a held-out item at full rank R the items numbered below R - 1 are ranked above it.
    Each user gets ``n_negatives`` of them, drawn uniformly (``numpy.random.Generator.choice``),
    and the sampled rank is 1 + the number drawn from above.

    Parameters
    ----------
    ranks : int or 1-D sequence of int
        Full rank of each user's held-out item, 1..n_items.
    n_items, n_negatives : int
    seed : int, numpy.random.Generator or None
        The same seed gives the same draws.
    replace : bool
        Draw with replacement.

    Returns
    -------
    numpy.ndarray of int, the sampled rank of each user (1..n_negatives + 1).

    Examples
    --------
    >>> sample_ranks([1, 1000], n_items=1000, n_negatives=100, seed=0)
    array([  1, 101])
    """
    n_items, n_negatives = _check_sizes(n_items, n_negatives)
    ranks = _check_ranks(ranks, "ranks", n_items)
    rng = np.random.default_rng(seed)
    if replace:
        drawn = rng.integers(0, n_items - 1, size=(len(ranks), n_negatives))
        above = np.count_nonzero(drawn < (ranks - 1)[:, None], axis=1)
    else:
        above = np.array(
            [
                np.count_nonzero(rng.choice(n_items - 1, n_negatives, replace=False) < rank - 1)
                for rank in ranks
            ]
        )
    return 1 + above


def simulate_sampled_metric(
    metric: str,
    ranks: Any,
    n_items: int,
    n_negatives: int,
    seed: Any = None,
    replace: bool = False,
    method: str = "bv",
    gamma: float = 0.1,
) -> dict[str, float]:
    """Exact, expected sampled, simulated sampled and corrected values of one metric, side by side.

    For users whose held-out items have full ranks ``ranks`` among ``n_items``:

    - ``"exact"``: the mean metric at the full ranks (what a full evaluation reports);
    - ``"expected"``: the mean of :func:`sampled_expectation` (the sampled value on average);
    - ``"sampled"``: the mean metric at the sampled ranks of one seeded draw (:func:`sample_ranks`),
      what a paper using sampled negatives would report;
    - ``"corrected"``: :func:`corrected_sampled_metric` at those same sampled ranks.

    References
    ----------
    Krichene & Rendle, "On sampled metrics for item recommendation", KDD 2020.

    Examples
    --------
    >>> result = simulate_sampled_metric("HR@10", [40] * 200, 1000, 100, seed=1)
    >>> result["exact"], round(result["expected"], 4)
    (0.0, 0.9966)
    """
    name, k = _parse_metric(metric)
    n_items, n_negatives = _check_sizes(n_items, n_negatives)
    ranks = _check_ranks(ranks, "ranks", n_items)
    sampled = sample_ranks(ranks, n_items, n_negatives, seed, replace)
    return {
        "exact": float(np.mean(_metric_at(name, k, ranks, n_items))),
        "expected": float(np.mean(sampled_expectation(metric, ranks, n_items, n_negatives, replace))),
        "sampled": float(np.mean(_metric_at(name, k, sampled, n_negatives + 1))),
        "corrected": corrected_sampled_metric(metric, sampled, n_items, n_negatives, method, gamma, replace),
    }


_TITLE = N_("Sampled metric: its expected value when the held-out item is ranked among sampled negatives")
register(Metric("sampled_expectation", sampled_expectation, "E[M]", _TITLE, inputs="held_out", cutoff="none"))
