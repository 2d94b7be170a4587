"""Measures that read what the items *are*: intra-list diversity, calibration and exposure of groups.

The lists come through :func:`recommendation_lists` (a dict, a DataFrame or a
2-D array padded with -1, cut at ``k``). Item attributes come as a dict
``{item: features}`` (a set or list of feature names), or, for integer item ids,
as a 2-D boolean array with one row per item id and one column per feature.
Inside, the attributes are a boolean item × feature matrix indexed by the
lists' item codes.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from typing import Any

import numpy as np

from .. import _validation as v
from ..i18n import N_, _
from ..registry import Metric, register
from .recommendation_lists import FRAME_COLUMNS, RecommendationLists, is_frame, plain, recommendation_lists

DISTANCES = ("jaccard", "cosine", "euclidean")

# Intra-list diversity looks each pair's distance up in a table over the distinct
# feature sets among the recommended items (S of them, S² floats). Beyond this many
# sets the table would be too large, and each chunk computes its pairs' intersections
# from the features instead: the same values, slower.
MAX_FEATURE_SETS = 4096
# Two exact ways to sum a list's pair distances: a matrix product over per-list
# histograms of the feature sets (S² multiply-adds per user) or one table look-up per
# pair (width²/2 per user, each a random memory access worth several multiply-adds).
# The product is used while S is below this multiple of the list's width, a cross-over
# chosen from trial runs of benchmarks/recsys_beyond_accuracy_speed.py.
HISTOGRAM_FACTOR = 8
_CHUNK_ENTRIES = 1 << 20  # entries per chunk of users (8 MB of float64 at a time)


def _feature_matrix(lists: RecommendationLists, features: Any, name: str) -> np.ndarray:
    """A boolean (n_items of the lists × n_features) matrix; every recommended item needs a feature."""
    if isinstance(features, Mapping):
        column: dict[Any, int] = {}
        rows: list[tuple[int, list[int]]] = []
        for item, values in features.items():
            if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
                raise ValueError(
                    _("{name}[{item!r}] must be a set or list of features; got {value}").format(
                        name=name, item=plain(item), value=v.show(values)
                    )
                )
            code = lists.code(item)
            if code >= 0:
                rows.append((code, [column.setdefault(f, len(column)) for f in values]))
        matrix = np.zeros((lists.n_items, max(len(column), 1)), dtype=bool)
        for code, columns in rows:
            matrix[code, columns] = True
    elif isinstance(features, np.ndarray) and features.ndim == 2 and lists._integer_ids:
        matrix = np.zeros((lists.n_items, features.shape[1]), dtype=bool)
        shared = min(lists.n_items, features.shape[0])
        matrix[:shared] = features[:shared].astype(bool)
    else:
        raise ValueError(
            _(
                "{name} must be a dict {{item: features}}, or for integer item ids a 2-D boolean array "
                "(one row per item id); got {kind}"
            ).format(name=name, kind=type(features).__name__)
        )
    lists.require(matrix.any(axis=1), name)
    return matrix


def _distance_table(sets: np.ndarray, distance: str) -> np.ndarray:
    """Pairwise distances of boolean feature rows (one row per distinct feature set)."""
    rows = sets.astype(float)
    shared = rows @ rows.T
    size = rows.sum(axis=1)
    a, b = size[:, None], size[None, :]
    if distance == "jaccard":
        return 1.0 - shared / (a + b - shared)
    if distance == "cosine":
        return 1.0 - shared / np.sqrt(a * b)
    return np.sqrt(np.maximum(a + b - 2.0 * shared, 0.0))


def _pairs_from_histograms(table: np.ndarray):
    """Σ over a list's pairs as ½ hᵀ D h, h = how many of its items have each feature set.

    A matrix product per chunk of users (S² multiplications per user, S the
    number of feature sets): the fastest way while S is small next to the list.
    D is 0 on its diagonal (a set is at distance 0 from itself), so the
    product holds each pair twice and no item with itself.
    """
    n_sets = table.shape[0]
    rows = max(1, _CHUNK_ENTRIES // n_sets)

    def pair_sums(chunk: np.ndarray) -> np.ndarray:
        cells = (np.arange(chunk.shape[0])[:, None] * n_sets + chunk).ravel()
        counts = np.bincount(cells, minlength=chunk.shape[0] * n_sets).reshape(chunk.shape[0], n_sets)
        counts = counts.astype(float)
        return np.einsum("us,us->u", counts @ table, counts) / 2

    return pair_sums, rows


def _pairs_from_table(table: np.ndarray, width: int):
    """Σ over a list's pairs (i, i + d), offset by offset, each distance looked up in the table."""
    n_sets, flat_table = table.shape[0], table.ravel()
    rows = max(1, _CHUNK_ENTRIES // width)

    def pair_sums(chunk: np.ndarray) -> np.ndarray:
        row_start = chunk * n_sets
        out = np.zeros(chunk.shape[0])
        for d in range(1, chunk.shape[1]):
            out += flat_table[row_start[:, :-d] + chunk[:, d:]].sum(axis=1)
        return out

    return pair_sums, rows


def _pairs_from_features(sets: np.ndarray, distance: str, width: int):
    """Σ over a list's pairs, each pair's intersection counted from the two feature rows (no table)."""
    padded = np.vstack([sets, np.zeros((1, sets.shape[1]), dtype=bool)])
    first, second = np.triu_indices(width, 1)
    rows = max(1, _CHUNK_ENTRIES // max(len(first) * sets.shape[1], 1))

    def pair_sums(chunk: np.ndarray) -> np.ndarray:
        left, right = padded[chunk[:, first]], padded[chunk[:, second]]
        shared = (left & right).sum(axis=2).astype(float)
        a, b = left.sum(axis=2).astype(float), right.sum(axis=2).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            if distance == "jaccard":
                d = 1.0 - shared / (a + b - shared)
            elif distance == "cosine":
                d = 1.0 - shared / np.sqrt(a * b)
            else:
                d = np.sqrt(a + b - 2.0 * shared)
        return np.where(chunk[:, second] < len(sets), d, 0.0).sum(axis=1)  # pairs with the padding add 0

    return pair_sums, rows


def intra_list_diversity(
    recs: Any, features: Any, k: int | None = None, *, distance: str = "jaccard"
) -> float:
    """Intra-list diversity (ILD): the mean distance between the items of a list, averaged over users.

    Each list's mean over its ``n(n−1)/2`` pairs of the distance between the two
    items' feature sets, then the mean over users. A list of five action films is
    accurate and monotonous; ILD sees it.

    Parameters
    ----------
    recs : dict, DataFrame or 2-D integer array
        Every list needs at least two items.
    features : dict {item: set of features} or 2-D boolean array (one row per integer item id)
        Every recommended item needs at least one feature.
    k : positive int or None
    distance : {"jaccard", "cosine", "euclidean"}
        ``"jaccard"``: 1 − |A ∩ B| / |A ∪ B|. ``"cosine"``: 1 − |A ∩ B| / √(|A| |B|)
        (1 − intra-list similarity, as Microsoft Recommenders' ``diversity`` with
        feature vectors). ``"euclidean"``: the distance between the 0/1 feature
        rows, as DaisyRec's ``Diversity``.

    Returns
    -------
    float

    Notes
    -----
    The exact mean needs every pair: a top-100 list has 4,950. Items with the same
    feature set are alike, so the distances are computed once per pair of distinct
    sets (S of them among the recommended items) and summed in chunks of users, so
    memory stays bounded. With few sets (S below ``HISTOGRAM_FACTOR`` × the list's
    length) each list's sum is ½ hᵀ D h over its histogram h of sets, a matrix
    product; otherwise every pair is looked up, and the time grows with users ×
    pairs. Beyond ``MAX_FEATURE_SETS`` sets each pair's intersection is counted from
    the features. All three give the same values; their times are in
    ``benchmarks/RECSYS_BEYOND_ACCURACY.md``.

    References
    ----------
    Ziegler, McNee, Konstan & Lausen, "Improving recommendation lists through
    topic diversification", WWW 2005; Smyth & McClave, "Similarity vs.
    diversity", ICCBR 2001.

    Examples
    --------
    >>> lists = {"u1": ["a", "b", "c"], "u2": ["a", "b", "d"], "u3": ["a", "c", "e"]}
    >>> genres = {"a": {"action"}, "b": {"action", "comedy"}, "c": {"drama"},
    ...           "d": {"comedy"}, "e": {"drama", "romance"}}
    >>> round(intra_list_diversity(lists, genres), 4)  # (5/6 + 2/3 + 5/6) / 3
    0.7778
    """
    lists = recommendation_lists(recs, k)
    distance = v.check_choice(distance, "distance", DISTANCES)
    if (lists.lengths < 2).any():
        user = lists.users[int(np.flatnonzero(lists.lengths < 2)[0])]
        raise ValueError(
            _("intra_list_diversity: the list of user {user!r} has one item; a pair needs two").format(
                user=plain(user)
            )
        )
    matrix = _feature_matrix(lists, features, "features")
    used = lists.counts > 0
    sets, inverse = np.unique(matrix[used], axis=0, return_inverse=True)
    set_of_code = np.full(lists.n_items + 1, len(sets), dtype=np.int64)  # code -1 (padding): the last entry
    set_of_code[np.flatnonzero(used)] = inverse.ravel()
    if len(sets) > MAX_FEATURE_SETS:
        pair_sums, rows = _pairs_from_features(sets, distance, lists.codes.shape[1])
    else:
        # One more row and column of zeros: a pair with the padding adds nothing.
        table = np.zeros((len(sets) + 1, len(sets) + 1))
        table[:-1, :-1] = _distance_table(sets, distance)
        if len(sets) < HISTOGRAM_FACTOR * lists.codes.shape[1]:
            pair_sums, rows = _pairs_from_histograms(table)
        else:
            pair_sums, rows = _pairs_from_table(table, lists.codes.shape[1])
    sums = np.empty(len(lists.users))
    for start in range(0, lists.codes.shape[0], rows):
        sums[start : start + rows] = pair_sums(set_of_code[lists.codes[start : start + rows]])
    pairs = lists.lengths * (lists.lengths - 1) / 2
    return float(np.mean(sums / pairs))


def calibration_kl(
    history: Any, recs: Any, genres: Mapping, k: int | None = None, *, alpha: float = 0.01
) -> float:
    """Steck's miscalibration C_KL: how far each list's genre mix is from the user's history.

    ``p`` is the mean genre distribution of the user's history, ``q`` that of
    the list (each item's genres weighted 1/|genres|), and
    ``C_KL = Σ_g p(g) ln(p(g) / q̃(g))`` with ``q̃ = (1 − α) q + α p``, so a
    genre the list misses costs much but not infinitely. 0 when the list keeps
    the history's proportions; the mean over the users of ``recs``.

    Parameters
    ----------
    history : dict {user: [items]} or DataFrame (user_id, item_id)
        What each user interacted with; every user of ``recs`` needs at least one item.
    recs : dict, DataFrame or 2-D integer array
    genres : dict {item: genres}
        Every item of the history and the lists needs at least one genre.
    k : positive int or None
    alpha : float in (0, 1]
        The share of ``p`` mixed into ``q`` (default 0.01), so that a genre the list
        lacks costs a finite amount.

    Returns
    -------
    float

    Notes
    -----
    Steck also allows weights (recency in the history, rank in the list); this
    is the unweighted mean.

    References
    ----------
    Steck, "Calibrated recommendations", RecSys 2018.

    Examples
    --------
    >>> history = {"u": ["r%d" % i for i in range(7)] + ["a%d" % i for i in range(3)]}
    >>> genres = {**{"r%d" % i: ["romance"] for i in range(7)}, **{"a%d" % i: ["action"] for i in range(3)}}
    >>> round(calibration_kl(history, {"u": ["r0", "r1", "r2"]}, genres), 4)  # p = (0.7, 0.3), q = (1, 0)
    1.134
    """
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or not 0 < alpha <= 1:
        raise ValueError(_("alpha must be a number in (0, 1]; got {value}").format(value=v.show(alpha)))
    _lists, _genres, p, q = calibration_distributions(history, recs, genres, k)
    mixed = (1 - alpha) * q + alpha * p
    ratio = np.divide(p, mixed, out=np.ones_like(p), where=p > 0)  # a genre the history lacks adds 0
    terms = p * np.log(ratio)
    return float(terms.sum(axis=1).mean())


def calibration_distributions(history: Any, recs: Any, genres: Mapping, k: int | None = None):
    """(lists, genre names, p, q) of :func:`calibration_kl`: each user's genre mix of history and list.

    ``p[u, g]`` and ``q[u, g]`` are user ``u``'s mean share of genre ``g`` in the history and
    in the list; the step table (:mod:`rankmetrics.teaching.explain`) shows them.
    """
    lists = recommendation_lists(recs, k)
    if not isinstance(genres, Mapping):
        raise ValueError(
            _("genres must be a dict {{item: genres}}; got {kind}").format(kind=type(genres).__name__)
        )
    # Each item's genres as slots: genre column and share 1/|genres| in slot s (column -1, share 0: empty).
    row_of: dict[Any, int] = {}
    column: dict[Any, int] = {}
    slots: list[list[int]] = []
    for item, names in genres.items():
        names = (
            list(dict.fromkeys(names))
            if hasattr(names, "__iter__") and not isinstance(names, (str, bytes))
            else []
        )
        if not names:
            raise ValueError(
                _("genres[{item!r}] must be a non-empty set or list of genres; got {value}").format(
                    item=plain(item), value=v.show(genres[item])
                )
            )
        row_of.setdefault(item, len(row_of))
        slots.append([column.setdefault(g, len(column)) for g in names])
    width = max(map(len, slots))
    slot_genre = np.array([row + [-1] * (width - len(row)) for row in slots], dtype=np.int64)
    slot_share = np.where(slot_genre >= 0, 1.0 / np.array([len(row) for row in slots])[:, None], 0.0)

    def genre_sums(users: np.ndarray, rows: np.ndarray, n_users: int) -> np.ndarray:
        """(n_users × genres) sums of the shares of the items ``rows``, each added to its user."""
        out = np.zeros(n_users * len(column))
        for slot in range(width):
            cells = users * len(column) + slot_genre[rows, slot].clip(0)
            out += np.bincount(cells, weights=slot_share[rows, slot], minlength=out.size)
        return out.reshape(n_users, len(column))

    # q: the mean over each list's items, a chunk of users at a time.
    genre_row = np.full(lists.n_items, -1, dtype=np.int64)
    for item, row in row_of.items():
        code = lists.code(item)
        if code >= 0:
            genre_row[code] = row
    lists.require(genre_row >= 0, "genres")
    q = np.zeros((len(lists.users), len(column)))
    for rows in lists.row_chunks():
        chunk = lists.codes[rows]
        users, ranks = np.nonzero(chunk >= 0)
        q[rows] = genre_sums(users, genre_row[chunk[users, ranks]], chunk.shape[0])
    q /= lists.lengths[:, None]
    # p: the mean over each user's history.
    users, items, item_rows = _history(history, lists, row_of)
    if (item_rows < 0).any():
        at = int(np.flatnonzero(item_rows < 0)[0])
        raise ValueError(
            _("genres has no entry for item {item!r} (in the history of user {user!r})").format(
                item=plain(items[at]), user=plain(lists.users[users[at]])
            )
        )
    p = genre_sums(users, item_rows, len(lists.users))
    sizes = np.bincount(users, minlength=len(lists.users))
    if (sizes == 0).any():
        user = lists.users[int(np.flatnonzero(sizes == 0)[0])]
        raise ValueError(
            _("history has no items for user {user!r}, who has a list in recs").format(user=plain(user))
        )
    p /= sizes[:, None]
    return lists, [plain(g) for g in column], p, q


def _history(history: Any, lists: RecommendationLists, row_of: dict) -> tuple[np.ndarray, list, np.ndarray]:
    """The history of the users of ``lists`` as (their rows, the items, the items' rows in ``row_of``, -1 unknown).

    Users without a list are passed over.
    """
    if is_frame(history):
        import pandas as pd

        absent = [c for c in FRAME_COLUMNS if c not in [str(c) for c in history.columns]]
        if absent:
            raise ValueError(
                _("history: the DataFrame needs the columns user_id, item_id; it lacks {absent}").format(
                    absent=absent
                )
            )
        users = pd.Index(lists.users).get_indexer(history[FRAME_COLUMNS[0]])
        keep = users >= 0
        items = history[FRAME_COLUMNS[1]].to_numpy()[keep]
        item_rows = pd.Index(list(row_of)).get_indexer(items)
        return users[keep].astype(np.int64), list(items), np.asarray(item_rows, dtype=np.int64)
    if not isinstance(history, Mapping):
        raise ValueError(
            _(
                "history must be a dict {{user: [items]}} or a DataFrame (user_id, item_id); got {kind}"
            ).format(kind=type(history).__name__)
        )
    user_row = {user: row for row, user in enumerate(lists.users)}
    users, items = [], []
    for user, listed in history.items():
        row = user_row.get(user, -1)
        if row >= 0:
            users += [row] * len(listed)
            items += list(listed)
    item_rows = np.array([row_of.get(item, -1) for item in items], dtype=np.int64)
    return np.array(users, dtype=np.int64), items, item_rows


def exposure(recs: Any, groups: Any, k: int | None = None) -> dict:
    """Each group's share of the position exposure 1/log2(1 + rank), summed over all lists.

    Rank 1 is seen most, rank 10 about a third as often (the DCG discount read as
    attention). Two groups with half the items each but 80 % of the exposure for
    one of them are treated unequally, whatever the accuracy.

    Parameters
    ----------
    recs : dict, DataFrame or 2-D integer array
    groups : dict {item: group} or 1-D array of groups by integer item id
        Every recommended item needs a group.
    k : positive int or None

    Returns
    -------
    dict {group: share}
        In the order the groups first appear in ``groups``; the shares sum to 1.

    References
    ----------
    Singh & Joachims, "Fairness of exposure in rankings", KDD 2018.

    Examples
    --------
    >>> shares = exposure({"u": ["a", "b", "c", "d"]}, {"a": "big", "b": "small", "c": "big", "d": "small"})
    >>> {g: round(s, 4) for g, s in shares.items()}  # big 1 + 0.5 of 2.5616 in all
    {'big': 0.5856, 'small': 0.4144}
    """
    lists = recommendation_lists(recs, k)
    if isinstance(groups, np.ndarray) and groups.ndim == 1:
        groups = dict(enumerate(groups.tolist()))
    if not isinstance(groups, Mapping):
        raise ValueError(
            _("groups must be a dict {{item: group}} or a 1-D array by item id; got {kind}").format(
                kind=type(groups).__name__
            )
        )
    names: dict[Any, int] = {}
    group_of_code = np.full(lists.n_items, -1, dtype=np.int64)
    for item, group in groups.items():
        index = names.setdefault(group, len(names))
        code = lists.code(item)
        if code >= 0:
            group_of_code[code] = index
    lists.require(group_of_code >= 0, "groups")
    weight = 1.0 / np.log2(np.arange(2, lists.codes.shape[1] + 2))
    group_of_code = np.append(group_of_code, len(names))  # the padding (code -1): one more group, dropped
    per_group = np.zeros(len(names) + 1)
    for rows in lists.row_chunks():
        chunk = lists.codes[rows]
        per_group += np.bincount(
            group_of_code[chunk].ravel(),
            weights=np.broadcast_to(weight, chunk.shape).ravel(),
            minlength=len(names) + 1,
        )
    per_group = per_group[:-1]
    shares = per_group / per_group.sum()
    return {plain(group): float(shares[index]) for group, index in names.items()}


# ---------------------------------------------------------------- registration

for _function, _label, _title in (
    (intra_list_diversity, "ILD", N_("ILD: the mean distance between the items of a list")),
    (calibration_kl, "C_KL", N_("C_KL: how far each list's genre mix is from the user's history")),
):
    register(Metric(_function.__name__, _function, label=_label, title=_title, inputs="lists"))
