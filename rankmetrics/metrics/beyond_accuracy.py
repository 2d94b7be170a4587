"""What accuracy misses: coverage, novelty, popularity bias, Gini index and entropy of recommendation lists.

Each function reads the lists through :func:`recommendation_lists` (a dict, a
DataFrame or a 2-D array padded with -1, cut at ``k``) and returns a plain
``float``. The recommender libraries define each measure differently; the
default here is the textbook definition, and each library's own definition is a
named option whose docstring says which library and which function, checked
against that library's recorded output on the same toy data
(``tests/package/data/recsys_library_values.json``).

Popularity comes from ``interactions``: a DataFrame of ``(user_id, item_id)``
rows (each row one interaction), a dict ``{item: count}``, or a 1-D array of
counts indexed by integer item id.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from typing import Any

import numpy as np

from .. import _validation as v
from ..i18n import N_, _
from ..registry import Metric, register
from .recommendation_lists import RecommendationLists, is_frame, recommendation_lists


def popularity(lists: RecommendationLists, interactions: Any) -> tuple[np.ndarray, float, np.ndarray]:
    """(count per code of the lists, total interactions, every count in ``interactions``).

    Shared with the step tables (:mod:`rankmetrics.teaching.explain`), which show these counts.
    """
    if is_frame(interactions):
        if "item_id" not in [str(c) for c in interactions.columns]:
            raise ValueError(
                _("interactions: the DataFrame needs the column item_id; it has {present}").format(
                    present=[str(c) for c in interactions.columns]
                )
            )
        counted = interactions["item_id"].value_counts(sort=False)
        table = dict(zip(counted.index.tolist(), counted.to_numpy().tolist()))
    elif isinstance(interactions, Mapping):
        table = dict(interactions)
    elif isinstance(interactions, np.ndarray) and interactions.ndim == 1:
        table = None
        counts = interactions
    else:
        raise ValueError(
            _(
                "interactions must be a DataFrame (user_id, item_id), a dict {{item: count}} or a 1-D array "
                "of counts by item id; got {kind}"
            ).format(kind=type(interactions).__name__)
        )
    if table is not None:
        counts = np.array(list(table.values()), dtype=float) if table else np.zeros(0)
    counts = np.asarray(counts, dtype=float)
    if counts.size == 0 or np.isnan(counts).any() or (counts < 0).any() or counts.sum() <= 0:
        raise ValueError(
            _("interactions must hold counts >= 0 with a positive total; got {value}").format(
                value=v.show(interactions if table is None else table)
            )
        )
    if table is None:  # counts by integer item id
        by_code = np.zeros(lists.n_items)
        if lists._integer_ids:
            shared = min(lists.n_items, counts.size)
            by_code[:shared] = counts[:shared]
        else:
            by_code = lists.per_item(dict(enumerate(counts.tolist())), "interactions", default=0.0)
    else:
        by_code = lists.per_item(table, "interactions", default=0.0)
    return by_code, float(counts.sum()), counts


def catalog_size(lists: RecommendationLists, catalog: Any) -> int:
    """The catalogue's size, checked to hold every recommended item and no item twice."""
    if isinstance(catalog, (str, bytes)) or not hasattr(catalog, "__len__") or len(catalog) == 0:
        raise ValueError(
            _("catalog must be a non-empty sequence of item ids; got {value}").format(value=v.show(catalog))
        )
    known = np.zeros(lists.n_items, dtype=bool)
    if lists._integer_ids and isinstance(catalog, np.ndarray) and catalog.dtype.kind in "iu":
        # Integer ids are their own codes: no Python loop over a large catalogue.
        if np.unique(catalog).size < catalog.size:
            raise ValueError(_("catalog lists an item twice; got {value}").format(value=v.show(catalog)))
        inside = catalog[(catalog >= 0) & (catalog < lists.n_items)]
        known[inside] = True
        lists.require(known | (lists.counts == 0), "catalog")
        return int(catalog.size)
    items = catalog.tolist() if isinstance(catalog, np.ndarray) else list(catalog)
    if len(set(items)) < len(items):
        raise ValueError(_("catalog lists an item twice; got {value}").format(value=v.show(catalog)))
    for item in items:
        code = lists.code(item)
        if code >= 0:
            known[code] = True
    lists.require(known | (lists.counts == 0), "catalog")
    return len(items)


def _mean_per_user(lists: RecommendationLists, per_code: np.ndarray) -> float:
    """The mean over users of each list's mean of ``per_code``."""
    return float(np.mean(lists.sum_per_user(per_code) / lists.lengths))


def coverage(
    recs: Any, catalog: Any, k: int | None = None, *, count: bool = False, padding_item: bool = False
) -> float:
    """Catalogue coverage: the share of the catalogue that appears in at least one list.

    A model that shows everyone the same bestsellers covers a sliver of the
    catalogue even when its accuracy is high.

    Parameters
    ----------
    recs : dict, DataFrame or 2-D integer array
        Recommendation lists (see :func:`recommendation_lists`).
    catalog : sequence of item ids
        Every item that could be recommended. Microsoft Recommenders'
        ``catalog_coverage`` and RePlay's ``Coverage`` divide by the distinct items
        of the training data: pass those as ``catalog``.
    k : positive int or None
        Cut each list at ``k``.
    count : bool
        Return the number of distinct recommended items instead of the share
        (Elliot's ``ItemCoverage``).
    padding_item : bool
        Count one more catalogue item, as RecBole's ``ItemCoverage`` does: it divides
        by ``dataset.item_num``, which includes the padding item ``[PAD]``.

    Returns
    -------
    float

    References
    ----------
    Ge, Delgado-Battenfeld & Jannach, "Beyond accuracy: evaluating recommender
    systems by coverage and serendipity", RecSys 2010.

    Examples
    --------
    >>> lists = {"u1": ["a", "b", "c"], "u2": ["a", "b", "d"], "u3": ["a", "c", "e"]}
    >>> round(coverage(lists, catalog="abcdef"), 4)  # 5 of 6 items
    0.8333
    >>> coverage(lists, catalog="abcdef", count=True)
    5.0
    """
    lists = recommendation_lists(recs, k)
    size = catalog_size(lists, list(catalog) if isinstance(catalog, str) else catalog)
    distinct = float(np.count_nonzero(lists.counts))
    return distinct if count else distinct / (size + bool(padding_item))


def novelty(
    recs: Any, interactions: Any, k: int | None = None, *, base: float = 2.0, average: str = "users"
) -> float:
    """Novelty: the mean self-information −log2(count(i) / Σ count) of the recommended items.

    An item everyone has seen carries little information (a share of 1/2 is 1
    bit); a rarely seen one carries much. Each list's mean, then the mean over
    users.

    Parameters
    ----------
    recs : dict, DataFrame or 2-D integer array
    interactions : DataFrame (user_id, item_id), dict {item: count} or 1-D count array
        Every recommended item needs a count above 0 (its information is infinite otherwise).
    k : positive int or None
    base : float
        The logarithm's base (2: bits).
    average : {"users", "recommendations"}
        ``"users"``: the mean over users of each list's mean. ``"recommendations"``:
        the mean over every recommended item at once, as Microsoft Recommenders'
        ``novelty`` computes it (the same when all lists have the same length).

    Returns
    -------
    float

    References
    ----------
    Castells, Vargas & Wang, "Novelty and diversity metrics for recommender
    systems: choice, discovery and relevance", DDR 2011.

    Examples
    --------
    >>> lists = {"u1": ["a", "b", "c"], "u2": ["a", "b", "d"], "u3": ["a", "c", "e"]}
    >>> counts = {"a": 50, "b": 30, "c": 10, "d": 5, "e": 4, "f": 1}
    >>> round(novelty(lists, counts), 4)
    2.4537
    """
    lists = recommendation_lists(recs, k)
    average = v.check_choice(average, "average", ("users", "recommendations"))
    if isinstance(base, bool) or not isinstance(base, numbers.Real) or not base > 1:
        raise ValueError(_("base must be a number above 1; got {value}").format(value=v.show(base)))
    by_code, total, _counts = popularity(lists, interactions)
    lists.require(by_code > 0, "interactions")
    information = -np.log(np.where(by_code > 0, by_code, 1.0) / total) / math.log(base)
    if average == "recommendations":
        return float(lists.sum_per_user(information).sum() / lists.lengths.sum())
    return _mean_per_user(lists, information)


def average_popularity(recs: Any, interactions: Any, k: int | None = None) -> float:
    """Average recommendation popularity (ARP): the mean interaction count of the recommended items.

    Each list's mean count, then the mean over users. An item absent from
    ``interactions`` counts 0. RecBole's ``AveragePopularity`` and Elliot's ``ARP``
    compute this mean.

    Parameters
    ----------
    recs : dict, DataFrame or 2-D integer array
    interactions : DataFrame (user_id, item_id), dict {item: count} or 1-D count array
    k : positive int or None

    Returns
    -------
    float

    References
    ----------
    Abdollahpouri, Burke & Mobasher, "Managing popularity bias in recommender
    systems with personalized re-ranking", FLAIRS 2019.

    Examples
    --------
    >>> lists = {"u1": ["a", "b", "c"], "u2": ["a", "b", "d"], "u3": ["a", "c", "e"]}
    >>> counts = {"a": 50, "b": 30, "c": 10, "d": 5, "e": 4, "f": 1}
    >>> round(average_popularity(lists, counts), 3)
    26.556
    """
    lists = recommendation_lists(recs, k)
    by_code, _total, _counts = popularity(lists, interactions)
    return _mean_per_user(lists, by_code)


def long_tail_share(
    recs: Any,
    interactions: Any,
    k: int | None = None,
    head_share: float = 0.8,
    *,
    tail_ratio: float | None = None,
) -> float:
    """The share of each list outside the popular head (APLT), averaged over users.

    The head is the most interacted items, taken from the top until they hold
    ``head_share`` of all interactions (Elliot's ``popularity_utils``, with
    ``pop_ratio=0.8``); every other item, including one never interacted with,
    is in the long tail. Equal counts keep the order in ``interactions``.

    Parameters
    ----------
    recs : dict, DataFrame or 2-D integer array
    interactions : DataFrame (user_id, item_id), dict {item: count} or 1-D count array
    k : positive int or None
    head_share : float in (0, 1)
    tail_ratio : float in (0, 1), optional
        RecBole's ``TailPercentage`` instead: the tail is the ``max(int(n × tail_ratio), 1)``
        least interacted of the n items in ``interactions`` (RecBole's default 0.1).

    Returns
    -------
    float

    References
    ----------
    Abdollahpouri, Burke & Mobasher, "Managing popularity bias in recommender
    systems with personalized re-ranking", FLAIRS 2019.

    Examples
    --------
    >>> lists = {"u1": ["a", "b", "c"], "u2": ["a", "b", "d"], "u3": ["a", "c", "e"]}
    >>> counts = {"a": 50, "b": 30, "c": 10, "d": 5, "e": 4, "f": 1}
    >>> round(long_tail_share(lists, counts), 4)  # head {a, b}: 1/3, 1/3, 2/3
    0.4444
    """
    lists = recommendation_lists(recs, k)
    return _mean_per_user(lists, (~head_items(lists, interactions, head_share, tail_ratio)).astype(float))


def head_items(lists: RecommendationLists, interactions: Any, head_share: float, tail_ratio: float | None):
    """A boolean per code of the lists: is the item in the popular head (see :func:`long_tail_share`)?"""
    head_share = v.check_probability(head_share, "head_share")
    _by_code, total, counts = popularity(lists, interactions)
    if tail_ratio is None:
        order = np.argsort(-counts, kind="stable")
        before = np.cumsum(counts[order]) - counts[order]  # interactions of the items above each one
        # An item joins the head while the items above it hold less than head_share (Elliot's loop).
        return _head_codes(lists, interactions, counts, order[before < head_share * total])
    ratio = v.check_probability(tail_ratio, "tail_ratio")
    cut = max(int(counts.size * ratio), 1)
    order = np.argsort(counts, kind="stable")  # least interacted first
    return ~_head_codes(lists, interactions, counts, order[:cut])


def _head_codes(
    lists: RecommendationLists, interactions: Any, counts: np.ndarray, chosen: np.ndarray
) -> np.ndarray:
    """A boolean per code of the lists: is the item among ``chosen`` (positions in ``interactions``)?"""
    if is_frame(interactions):
        labels = interactions["item_id"].value_counts(sort=False).index.tolist()
    elif isinstance(interactions, Mapping):
        labels = list(interactions)
    else:
        labels = list(range(counts.size))
    marked = np.zeros(lists.n_items, dtype=bool)
    for position in chosen.tolist():
        code = lists.code(labels[position])
        if code >= 0:
            marked[code] = True
    return marked


def gini_index(recs: Any, catalog: Any, k: int | None = None, *, padding_item: bool = False) -> float:
    """Gini index of how often each catalogue item is recommended: 0 equal, near 1 concentrated.

    The counts ``x`` of every catalogue item, zeros included, in ascending
    order: ``Σ_j (2j − n − 1) x_(j) / (n Σ x)``.

    Parameters
    ----------
    recs : dict, DataFrame or 2-D integer array
    catalog : sequence of item ids
    k : positive int or None
    padding_item : bool
        Count one more never-recommended item, as RecBole's ``GiniIndex`` does
        (``n = dataset.item_num`` includes the padding item ``[PAD]``).

    Returns
    -------
    float

    References
    ----------
    Fleder & Hosanagar, "Blockbuster culture's next rise or fall: the impact of
    recommender systems on sales diversity", Management Science 55(5), 2009.

    Examples
    --------
    >>> lists = {"u1": ["a", "b", "c"], "u2": ["a", "b", "d"], "u3": ["a", "c", "e"]}
    >>> round(gini_index(lists, catalog="abcdef"), 4)
    0.3519
    """
    lists = recommendation_lists(recs, k)
    n = catalog_size(lists, list(catalog) if isinstance(catalog, str) else catalog) + bool(padding_item)
    x = np.sort(lists.counts[lists.counts > 0]).astype(float)
    # The catalogue's unrecommended items are the lowest n - len(x) values (zeros), adding nothing.
    j = np.arange(n - x.size + 1, n + 1)
    return float(np.sum((2 * j - n - 1) * x) / (n * x.sum()))


def entropy(recs: Any, k: int | None = None, *, base: float = math.e, normalize: str | None = None) -> float:
    """Shannon entropy −Σ p ln p of the shares of recommendations each item receives.

    Zero when every list shows the same single item; ln(n) when n items are
    recommended equally often.

    Parameters
    ----------
    recs : dict, DataFrame or 2-D integer array
    k : positive int or None
    base : float
        The logarithm's base: e (nats) by default; 2 (bits) gives Microsoft
        Recommenders' ``distributional_coverage``.
    normalize : {None, "distinct_items"}
        ``"distinct_items"`` divides by the number of distinct recommended items, as
        RecBole's ``ShannonEntropy`` does (the result is no longer an entropy).

    Returns
    -------
    float

    References
    ----------
    Shannon, "A mathematical theory of communication", Bell System Technical
    Journal 27, 1948.

    Examples
    --------
    >>> lists = {"u1": ["a", "b", "c"], "u2": ["a", "b", "d"], "u3": ["a", "c", "e"]}
    >>> round(entropy(lists), 4)
    1.523
    """
    lists = recommendation_lists(recs, k)
    if isinstance(base, bool) or not isinstance(base, numbers.Real) or not base > 1:
        raise ValueError(_("base must be a number above 1; got {value}").format(value=v.show(base)))
    if normalize is not None:
        v.check_choice(normalize, "normalize", ("distinct_items",))
    shares = lists.counts[lists.counts > 0] / lists.lengths.sum()
    value = float(-np.sum(shares * np.log(shares)) / math.log(base))
    return value / shares.size if normalize else value


# ---------------------------------------------------------------- registration

for _function, _label, _title in (
    (coverage, "Coverage", N_("Coverage: the share of the catalogue recommended at least once")),
    (novelty, "Novelty", N_("Novelty: the mean self-information of the recommended items")),
    (average_popularity, "ARP", N_("ARP: the mean interaction count of the recommended items")),
    (long_tail_share, "APLT", N_("APLT: the share of each list outside the popular head")),
    (gini_index, "Gini", N_("Gini index: how unequally the catalogue's items are recommended")),
    (entropy, "Entropy", N_("Entropy: how evenly the recommendations spread over the items")),
):
    register(Metric(_function.__name__, _function, label=_label, title=_title, inputs="lists"))
