"""Step tables for the measures of recommendation lists: coverage, novelty, ARP, APLT, Gini, entropy, ILD, C_KL.

Each table reads the lists the way the package does (:func:`recommendation_lists`,
cut at ``k``) and takes its numbers from the same arrays as the metric function:
the recommendation counts, the interaction counts (:func:`popularity`), the head
(:func:`head_items`), the genre mixes (:func:`calibration_distributions`). Only the
pair distances of intra-list diversity are written out by hand, pair by pair;
:func:`steps.verify` binds every table's total to the metric's value.

Toy data of the examples (issue 31 §4): catalogue a–f, interaction counts a 50, b 30,
c 10, d 5, e 4, f 1; lists u1 = [a, b, c], u2 = [a, b, d], u3 = [a, c, e].

>>> from rankmetrics import explain
>>> lists = {"u1": ["a", "b", "c"], "u2": ["a", "b", "d"], "u3": ["a", "c", "e"]}
>>> counts = {"a": 50, "b": 30, "c": 10, "d": 5, "e": 4, "f": 1}
>>> e = explain("coverage", lists, catalog="abcdef")
>>> [(row["item"], row["count"]) for row in e.rows], e.steps
([('a', 3.0), ('b', 2.0), ('c', 2.0), ('d', 1.0), ('e', 1.0)], ['Coverage = distinct recommended items ÷ catalogue size = 5 ÷ 6 = 0.8333'])
>>> e = explain("average_popularity", lists, interactions=counts)
>>> [round(row["value"], 4) for row in e.rows], round(e.value, 3)  # 90/3, 85/3, 64/3
([30.0, 28.3333, 21.3333], 26.556)
>>> explain("gini_index", lists, catalog="abcdef").steps[-1]
'Gini = Σ (2j − n − 1) x ÷ (n × Σ x) = 19 ÷ (6 × 9) = 0.3519'
>>> genres = {"a": {"action"}, "b": {"action", "comedy"}, "c": {"drama"}, "d": {"comedy"},
...           "e": {"drama", "romance"}}
>>> explain("intra_list_diversity", lists, features=genres).steps[-1]
'ILD = (0.8333 + 0.6667 + 0.8333) ÷ 3 = 0.7778'
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ...i18n import _
from ...metrics.beyond_accuracy import catalog_size, head_items, popularity
from ...metrics.item_attributes import calibration_distributions
from ...metrics.recommendation_lists import plain, recommendation_lists
from ...registry import METRICS
from .steps import Column, Explanation, Section, exact_text, finish, none_words, verify


def _catalog(catalog: Any) -> Any:
    return list(catalog) if isinstance(catalog, str) else catalog


def _label(metric: str, k: int | None) -> str:
    return METRICS[metric].label + (f"@{k}" if k is not None else "")


def _conventions(k: int | None, denominator: str, gain: str | None = None) -> dict[str, str]:
    return {
        "gain": gain or none_words(),
        "discount": none_words(),
        "ideal": none_words(),
        "denominator": denominator,
        "cutoff": f"k = {k}" if k is not None else _("none (each user's whole list)"),
    }


def _item_rows(lists, codes, **columns: np.ndarray) -> list[dict[str, Any]]:
    """One row per item code: its label and the given per-code values."""
    return [
        {"item": plain(lists.items[c]), **{key: float(values[c]) for key, values in columns.items()}}
        for c in codes.tolist()
    ]


def _user_rows(lists, per_user: np.ndarray, **columns: np.ndarray) -> list[dict[str, Any]]:
    """One row per user: the list, the given per-user values, the user's value."""
    rows = []
    for u, user in enumerate(lists.users):
        listed = lists.codes[u, : lists.lengths[u]]
        row = {
            "user": str(plain(user)),
            "list": ", ".join(str(plain(lists.items[c])) for c in listed.tolist()),
        }
        row.update({key: float(values[u]) for key, values in columns.items()})
        row["value"] = float(per_user[u])
        rows.append(row)
    return rows


def _user_columns(*extra: Column, value: str) -> list[Column]:
    return [
        Column("user", _("user"), align="left"),
        Column("list", _("list"), align="left"),
        *extra,
        Column("value", value),
    ]


def _mean_line(label: str, per_user: np.ndarray, value: float) -> str:
    terms = " + ".join(exact_text(float(x)) for x in per_user)
    return f"{label} = ({terms}) ÷ {per_user.size} = {exact_text(value)}"


def _done(metric, label, value, rows, conventions, sections) -> Explanation:
    return finish(metric, label, value, None, rows, conventions, sections, None)


# ---------------------------------------------------------------- the catalogue's items


def explain_coverage(metric, recs, k, catalog, count=False, padding_item=False) -> Explanation:
    official = METRICS[metric].function(recs, catalog, k, count=count, padding_item=padding_item)
    lists = recommendation_lists(recs, k)
    size = catalog_size(lists, _catalog(catalog))
    shown = np.flatnonzero(lists.counts)
    distinct = float(shown.size)
    label = _label(metric, k)
    if count:
        stepwise, line = distinct, _("{label} = distinct recommended items = {distinct}")
    else:
        stepwise = distinct / (size + bool(padding_item))
        line = _("{label} = distinct recommended items ÷ catalogue size = {distinct} ÷ {size} = {value}")
    value = verify(label, stepwise, official)
    rows = _item_rows(lists, shown, count=lists.counts)
    size_text = f"{size} + 1" if padding_item else str(size)
    lines = [line.format(label=label, distinct=int(distinct), size=size_text, value=exact_text(value))]
    columns = [Column("item", _("item"), align="left"), Column("count", _("lists that show it"))]
    sections = [Section(_("items recommended at least once"), columns, rows, lines)]
    denominator = none_words() if count else _("catalogue size {size}").format(size=size_text)
    return _done(metric, label, value, rows, _conventions(k, denominator), sections)


def explain_gini(metric, recs, k, catalog, padding_item=False) -> Explanation:
    official = METRICS[metric].function(recs, catalog, k, padding_item=padding_item)
    lists = recommendation_lists(recs, k)
    n = catalog_size(lists, _catalog(catalog)) + bool(padding_item)
    shown = np.flatnonzero(lists.counts)
    order = shown[np.argsort(lists.counts[shown], kind="stable")]  # ascending counts
    x = lists.counts[order].astype(float)
    j = np.arange(n - x.size + 1, n + 1)
    weights = (2 * j - n - 1) * x
    label = _label(metric, k)
    value = verify(label, float(np.sum(weights) / (n * x.sum())), official)
    rows = [
        {
            "j": int(j[i]),
            "item": plain(lists.items[order[i]]),
            "count": float(x[i]),
            "coefficient": float(2 * j[i] - n - 1),
            "term": float(weights[i]),
        }
        for i in range(x.size)
    ]
    lines = [
        _("{label} = Σ (2j − n − 1) x ÷ (n × Σ x) = {total} ÷ ({n} × {sum}) = {value}").format(
            label=label,
            total=exact_text(float(np.sum(weights))),
            n=n,
            sum=exact_text(float(x.sum())),
            value=exact_text(value),
        )
    ]
    if n > x.size:
        zeros = _(
            "the {zeros} catalogue items never recommended come first (j = 1 … {zeros}) with count 0 "
            "and add 0"
        )
        lines.insert(0, zeros.format(zeros=n - x.size))
    columns = [
        Column("j", "j"),
        Column("item", _("item"), align="left"),
        Column("count", _("times recommended x")),
        Column("coefficient", "2j − n − 1"),
        Column("term", _("(2j − n − 1) × x")),
    ]
    sections = [Section(_("recommendation counts in ascending order"), columns, rows, lines)]
    conventions = _conventions(k, _("n × Σ x, n = {n} catalogue items").format(n=n))
    return _done(metric, label, value, rows, conventions, sections)


def explain_entropy(metric, recs, k, base=math.e, normalize=None) -> Explanation:
    official = METRICS[metric].function(recs, k, base=base, normalize=normalize)
    lists = recommendation_lists(recs, k)
    shown = np.flatnonzero(lists.counts)
    total = lists.lengths.sum()
    shares = lists.counts[shown] / total
    terms = -shares * np.log(shares) / math.log(base)
    label = _label(metric, k)
    logarithm = "ln" if base == math.e else f"log{exact_text(float(base))}"
    stepwise = float(-np.sum(shares * np.log(shares)) / math.log(base))
    lines = [
        _("share p = times recommended ÷ all {total} recommendations").format(total=int(total)),
        f"{label} = −Σ p {logarithm} p = "
        + " + ".join(exact_text(float(t)) for t in terms)
        + f" = {exact_text(stepwise)}",
    ]
    if normalize:
        stepwise = stepwise / shares.size
        lines.append(
            _("÷ {n} distinct recommended items (normalize='distinct_items') = {value}").format(
                n=shares.size, value=exact_text(stepwise)
            )
        )
    value = verify(label, stepwise, official)
    rows = [
        {
            "item": plain(lists.items[c]),
            "count": float(lists.counts[c]),
            "share": float(shares[i]),
            "term": float(terms[i]),
        }
        for i, c in enumerate(shown.tolist())
    ]
    columns = [
        Column("item", _("item"), align="left"),
        Column("count", _("times recommended")),
        Column("share", _("share p")),
        Column("term", f"−p {logarithm} p"),
    ]
    sections = [Section(_("shares of the recommendations"), columns, rows, lines)]
    conventions = _conventions(k, _("all {total} recommendations").format(total=int(total)))
    return _done(metric, label, value, rows, conventions, sections)


# ---------------------------------------------------------------- popularity


def _popularity_tables(metric, recs, k, interactions, per_code, item_column, item_values, average="users"):
    """The items' counts and ``per_code`` values, then each list's mean of them and the mean over users."""
    lists = recommendation_lists(recs, k)
    by_code, total, _counts = popularity(lists, interactions)
    values = per_code(lists, by_code, total)
    shown = np.flatnonzero(lists.counts)
    item_rows = _item_rows(lists, shown, count=by_code, **{item_column.key: item_values(values)})
    sums = lists.sum_per_user(values)
    per_user = sums / lists.lengths
    label = _label(metric, k)
    if average == "recommendations":
        stepwise = float(sums.sum() / lists.lengths.sum())
        line = _("{label} = Σ over every recommendation ÷ {n} recommendations = {value}").format(
            label=label, n=int(lists.lengths.sum()), value=exact_text(stepwise)
        )
    else:
        stepwise = float(np.mean(per_user))
        line = _mean_line(label, per_user, stepwise)
    user_rows = _user_rows(lists, per_user, sum=sums)
    columns = [Column("item", _("item"), align="left"), Column("count", _("interactions")), item_column]
    user_columns = _user_columns(Column("sum", _("sum over the list")), value=_("list mean"))
    sections = [
        Section(
            _("recommended items ({total} interactions in all)").format(total=exact_text(total)),
            columns,
            item_rows,
        ),
        Section(_("each list's mean, then the mean over users"), user_columns, user_rows, [line]),
    ]
    return label, stepwise, user_rows, sections, total


def explain_novelty(metric, recs, k, interactions, base=2.0, average="users") -> Explanation:
    official = METRICS[metric].function(recs, interactions, k, base=base, average=average)

    def information(lists, by_code, total):
        return -np.log(np.where(by_code > 0, by_code, 1.0) / total) / math.log(base)

    logarithm = "log2" if base == 2 else f"log{exact_text(float(base))}"
    column = Column("information", _("−{log}(count ÷ total)").format(log=logarithm))
    label, stepwise, rows, sections, total = _popularity_tables(
        metric, recs, k, interactions, information, column, lambda values: values, average
    )
    value = verify(label, stepwise, official)
    gain = _("each item's −{log}(count ÷ {total})").format(log=logarithm, total=exact_text(total))
    conventions = _conventions(k, _("the list's length, then the number of users"), gain)
    return _done(metric, label, value, rows, conventions, sections)


def explain_average_popularity(metric, recs, k, interactions) -> Explanation:
    official = METRICS[metric].function(recs, interactions, k)
    label, stepwise, rows, sections, _total = _popularity_tables(
        metric,
        recs,
        k,
        interactions,
        lambda lists, by_code, total: by_code,
        Column("popularity", _("popularity")),
        lambda values: values,
    )
    value = verify(label, stepwise, official)
    conventions = _conventions(k, _("the list's length, then the number of users"), _("each item's count"))
    return _done(metric, label, value, rows, conventions, sections)


def explain_long_tail_share(metric, recs, k, interactions, head_share=0.8, tail_ratio=None) -> Explanation:
    official = METRICS[metric].function(recs, interactions, k, head_share, tail_ratio=tail_ratio)

    def in_tail(lists, by_code, total):
        return (~head_items(lists, interactions, head_share, tail_ratio)).astype(float)

    column = Column("tail", _("in the long tail (1) or the head (0)"))
    label, stepwise, rows, sections, total = _popularity_tables(
        metric, recs, k, interactions, in_tail, column, lambda values: values
    )
    value = verify(label, stepwise, official)
    if tail_ratio is None:
        rule = _(
            "the head: the most interacted items, taken from the top while the items above hold less "
            "than {share} of the {total} interactions; every other item is in the long tail"
        ).format(share=exact_text(float(head_share)), total=exact_text(total))
    else:
        rule = _(
            "the long tail: the {ratio} least interacted share of the items (RecBole's tail_ratio)"
        ).format(ratio=exact_text(float(tail_ratio)))
    sections[0].lines.append(rule)
    conventions = _conventions(
        k, _("the list's length, then the number of users"), _("1 for an item in the long tail")
    )
    return _done(metric, label, value, rows, conventions, sections)


# ---------------------------------------------------------------- item attributes


def _feature_set(features: Any, item: Any) -> frozenset:
    if isinstance(features, Mapping):
        return frozenset(features[item])
    return frozenset(np.flatnonzero(np.asarray(features[item], dtype=bool)).tolist())


def _distance(a: frozenset, b: frozenset, distance: str) -> float:
    """The pair's distance by hand from the two feature sets (intra_list_diversity's three)."""
    shared = len(a & b)
    if distance == "jaccard":
        return 1.0 - shared / (len(a) + len(b) - shared)
    if distance == "cosine":
        return 1.0 - shared / math.sqrt(len(a) * len(b))
    return math.sqrt(len(a) + len(b) - 2.0 * shared)


def explain_intra_list_diversity(metric, recs, k, features, distance="jaccard") -> Explanation:
    official = METRICS[metric].function(recs, features, k, distance=distance)
    lists = recommendation_lists(recs, k)
    pair_rows, per_user = [], np.empty(len(lists.users))
    for u, user in enumerate(lists.users):
        items = [plain(lists.items[c]) for c in lists.codes[u, : lists.lengths[u]].tolist()]
        sets = [_feature_set(features, item) for item in items]
        distances = []
        for i in range(len(items)):
            for j in range(i + 1, len(items)):
                d = _distance(sets[i], sets[j], distance)
                distances.append(d)
                pair_rows.append(
                    {
                        "user": str(plain(user)),
                        "pair": f"{items[i]}, {items[j]}",
                        "shared": float(len(sets[i] & sets[j])),
                        "union": float(len(sets[i] | sets[j])),
                        "distance": d,
                    }
                )
        per_user[u] = sum(distances) / len(distances)
    label = _label(metric, k)
    stepwise = float(np.mean(per_user))
    value = verify(label, stepwise, official)
    rules = {
        "jaccard": _("distance = 1 − shared ÷ union of the two items' features (Jaccard)"),
        "cosine": _("distance = 1 − shared ÷ √(|A| × |B|) of the two items' features (cosine)"),
        "euclidean": _("distance = √(|A| + |B| − 2 × shared) of the two items' 0/1 features (Euclidean)"),
    }
    columns = [
        Column("user", _("user"), align="left"),
        Column("pair", _("pair"), align="left"),
        Column("shared", _("shared features")),
        Column("union", _("features of either")),
        Column("distance", _("distance")),
    ]
    user_rows = _user_rows(lists, per_user, pairs=lists.lengths * (lists.lengths - 1) / 2)
    user_columns = _user_columns(Column("pairs", _("pairs")), value=_("mean distance"))
    sections = [
        Section(_("each pair of items in a list"), columns, pair_rows, [rules[distance]]),
        Section(
            _("each list's mean, then the mean over users"),
            user_columns,
            user_rows,
            [_mean_line(label, per_user, value)],
        ),
    ]
    conventions = _conventions(k, _("the list's pairs n(n − 1) ÷ 2, then the number of users"))
    return _done(metric, label, value, pair_rows, conventions, sections)


def explain_calibration_kl(metric, history, k, recs, genres, alpha=0.01) -> Explanation:
    official = METRICS[metric].function(history, recs, genres, k, alpha=alpha)
    lists, names, p, q = calibration_distributions(history, recs, genres, k)
    mixed = (1 - alpha) * q + alpha * p
    ratio = np.divide(p, mixed, out=np.ones_like(p), where=p > 0)
    terms = p * np.log(ratio)
    per_user = terms.sum(axis=1)
    label = _label(metric, k)
    value = verify(label, float(per_user.mean()), official)
    rows = [
        {
            "user": str(plain(user)),
            "genre": str(g),
            "p": float(p[u, i]),
            "q": float(q[u, i]),
            "mixed": float(mixed[u, i]),
            "term": float(terms[u, i]),
        }
        for u, user in enumerate(lists.users)
        for i, g in enumerate(names)
        if p[u, i] > 0 or q[u, i] > 0
    ]
    columns = [
        Column("user", _("user"), align="left"),
        Column("genre", _("genre"), align="left"),
        Column("p", _("history p")),
        Column("q", _("list q")),
        Column("mixed", "q̃ = (1 − α) q + α p"),
        Column("term", "p ln(p ÷ q̃)"),
    ]
    lines = [
        _(
            "p, q: each item's genres count 1 ÷ (its number of genres), averaged over the history and the list; α = {alpha}"
        ).format(alpha=exact_text(float(alpha))),
        _("a genre the history lacks (p = 0) adds 0"),
        *(
            f"{label} ({plain(user)}) = Σ p ln(p ÷ q̃) = {exact_text(float(per_user[u]))}"
            for u, user in enumerate(lists.users)
        ),
        _mean_line(label, per_user, value),
    ]
    sections = [Section(_("genre shares of each user's history and list"), columns, rows, lines)]
    conventions = _conventions(k, _("the number of users"))
    return _done(metric, label, value, rows, conventions, sections)
