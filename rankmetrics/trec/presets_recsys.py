"""Presets for the recommender libraries: each library's number by its name, quirks included.

``evaluate(test, recommendations, measures, like="recbole")`` reproduces, per
user and in the mean over that library's users, what RecBole, Microsoft
Recommenders, LensKit, Cornac, implicit, RecTools, RePlay, Evidently and
DaisyRec compute for P@k, recall@k, HR@k, MRR(@k), MAP@k and nDCG@k. Each
preset is a set of conventions (:class:`~rankmetrics.trec.conventions.Conventions`)
read from the library's source and checked against the library itself:
``benchmarks/recsys_library_values.py`` runs every real library and records its
per-user values and means in ``tests/package/data/recsys_library_values.json``;
``tests/package/test_recsys_presets.py`` compares every one of them.

Where a library crashes or leaves [0, 1] on some data (LensKit's AP on a user
without test items, Cornac's MRR on a user without a hit, Evidently on a test
item with tied scores), the preset refuses that case by name (:data:`CASES`) with a
ValueError, and the card says why. Where a library leaves the order of equal
scores undefined (``torch.topk``, ``np.argpartition``), the card says so and a
:class:`UndefinedTieOrderWarning` names the users with tied scores in the top k.

Which users enter each library's mean is the ``missing`` and ``unjudged``
rules, written on the card in a recommender's words: a user with test items
but no list (``missing``), a user with a list but no test item (``unjudged``).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..i18n import N_, _
from ..metrics.set_based import precision_divisor, recall_divisor
from ..metrics.ties import tie_groups
from .conventions import CASES, LibraryPreset
from .evaluation import shown_ids

__all__ = ["CASES", "RECOMMENDER_PRESETS", "UndefinedTieOrderWarning", "check_data"]

_SIX = ("precision", "recall", "hit_rate", "reciprocal_rank", "average_precision", "ndcg")


class UndefinedTieOrderWarning(UserWarning):
    """The library orders equal scores in an undefined way; the named users' values may differ.

    ``users`` holds every such user (the message shows the first ten).
    """

    def __init__(self, message: str, users: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.users = tuple(users)


# ---------------------------------------------------------------- evaluate's hooks


def _chosen(conventions: Any) -> LibraryPreset | None:
    chosen = getattr(conventions, "chosen_preset", None)
    return chosen if isinstance(chosen, LibraryPreset) else None


def needs_whole_list(conventions: Any, measures: Sequence[Any]) -> bool:
    """Whether a refused case needs every rank of each list (a hit, a score <= 0, a whole tie group)."""
    chosen = _chosen(conventions)
    return chosen is not None and any(
        _asks(chosen, measures, case) for case in ("no_hit", "nonpositive_relevant", "tied_test_items")
    )


def check_data(
    conventions: Any, measures: Sequence[Any], groups: Any, ranked: Any, deepest: int
) -> list[str]:
    """Refuse a measure on a case of data its library crashes on; return the users with ties in the top k.

    ``groups`` are the run's records of these users (their scores), ``ranked`` the same users
    ranked (:class:`rankmetrics.trec.ranking.Ranked`).
    """
    chosen = _chosen(conventions)
    if chosen is None:
        return []
    level, precision = conventions.relevance_level, conventions.score_precision
    n_relevant = (ranked.judged_grades >= level).sum(axis=1)
    hits = (ranked.judged & (ranked.grades >= level)).sum(axis=1)
    deepest = (
        max(deepest, int(ranked.n_retrieved.max(initial=0)))
        if any(m.k is None for m in measures)
        else deepest
    )
    found = {
        "user_without_test": (n_relevant == 0) & (ranked.n_retrieved > 0),
        "empty_list": (n_relevant > 0) & (ranked.n_retrieved == 0),
        "no_hit": (n_relevant > 0) & (hits == 0),
    }
    warned = chosen.tie_order and conventions.ties != "average"  # averaged ties have no order to warn of
    tied = _tied_in_top(groups, deepest, precision) if warned else []
    for m in measures:
        for case in chosen.cases.get(m.family, ()):
            if case == "short_list":
                found[case] = ranked.n_retrieved < (m.k or 0)
            if case == "nonpositive_relevant":
                found[case] = _nonpositive_relevant(groups, ranked, level)
            if case == "adjacent_hits":
                hit = (ranked.judged & (ranked.grades >= level))[:, : m.k]
                found[case] = (hit[:, 1:] & hit[:, :-1]).any(axis=1)
            if case == "tied_test_items":
                found[case] = _tied_test_items(groups, ranked, level, m.k, precision)
            if case == "tied_scores":
                found[case] = np.isin(
                    ranked.queries, _tied_in_top(groups, m.k or ranked.grades.shape[1], precision)
                )
            users = [q for q, f in zip(ranked.queries, found[case]) if f]
            if users:
                raise ValueError(
                    _(
                        "like={preset!r} refuses {measure!r} on {case} (users {users}): {why}. Leave "
                        "those users out, or leave like= out"
                    ).format(
                        preset=conventions.preset,
                        measure=m.name,
                        case=_(CASES[case]),
                        users=shown_ids(users),
                        why=_(chosen.refused[f"{m.family}:{case}"]),
                    )
                )
    return tied if warned else []


def _nonpositive_relevant(groups: Any, ranked: Any, level: float) -> np.ndarray:
    """Per user, whether a relevant listed item has a score <= 0.

    Each rank's score is the row's scores sorted high to low: tied items share a score, so
    however the ties were ordered, each rank's sign is right.
    """
    width = ranked.grades.shape[1]
    scores = _sorted_scores(groups, "float64")[:, :width]  # only the sign matters
    relevant = (ranked.judged & (ranked.grades >= level))[:, : scores.shape[1]]
    return (relevant & (scores <= 0)).any(axis=1)


def _tied_test_items(groups: Any, ranked: Any, level: float, k: int | None, precision: str) -> np.ndarray:
    """Per user, whether a group of tied scores that starts in the top k holds a relevant item.

    Only such a group moves a relevant item under a rule that ranks ties together (Evidently's
    truncated average rank, Cornac's pessimistic one); ties among other items change nothing.
    Each rank's score is the row's scores sorted, so the groups are the ranked list's own.
    """
    width = ranked.grades.shape[1]
    start, end = tie_groups(_sorted_scores(groups, precision)[:, :width])
    relevant = ranked.judged & (ranked.grades >= level)
    return (relevant & (end - start > 1) & (start < (width if k is None else k))).any(axis=1)


def _sorted_scores(groups: Any, precision: str) -> np.ndarray:
    """Each user's scores as ranked (``score_precision``), high to low, padded with NaN (which
    equals nothing and sorts last)."""
    values = groups.values.astype(np.float32).astype(float) if precision == "float32" else groups.values
    lengths = np.asarray(groups.lengths)
    scores = np.full((len(lengths), int(lengths.max(initial=0))), np.nan)
    scores[np.arange(scores.shape[1]) < lengths[:, None]] = values  # query after query, in order
    return -np.sort(-scores, axis=1)


def _asks(chosen: LibraryPreset, measures: Sequence[Any], case: str) -> bool:
    return any(case in chosen.cases.get(m.family, ()) for m in measures)


def _tied_in_top(groups: Any, k: int, precision: str) -> list[str]:
    """The users whose k highest scores hold two equal ones (or whose k-th ties with the next)."""
    top = _sorted_scores(groups, precision)[:, : k + 1]
    tied = (top[:, 1:] == top[:, :-1]).any(axis=1)
    return [q for q, t in zip(groups.qids, tied) if t]


def warn_ties(conventions: Any, users: list[str], k: int) -> None:
    chosen = _chosen(conventions)
    warnings.warn(
        UndefinedTieOrderWarning(
            _(
                "like={preset!r}: {count} users have tied scores in their top {k} ({users}); {why}, so "
                "the library's values for them may differ from these (given order)"
            ).format(
                preset=conventions.preset,
                count=len(users),
                k=k,
                users=shown_ids(users),
                why=_(chosen.tie_order),
            ),
            users,
        ),
        stacklevel=3,
    )


def micro_weights(measure: Any, columns: Any) -> np.ndarray:
    """averaging="micro": each user's denominator of P@k or recall@k, the weight of its value."""
    if measure.family == "precision":
        divisor = precision_divisor(columns, measure.k)
    else:
        divisor = recall_divisor(columns, measure.k)
    return np.broadcast_to(np.asarray(divisor, dtype=float), columns.n_retrieved.shape).copy()


def micro_mean(values: np.ndarray, weights: np.ndarray) -> float:
    """The sum of the users' hits over the sum of their denominators (value × weight = hits)."""
    total = float(weights.sum())
    return float((values * weights).sum() / total) if total else 0.0


# ---------------------------------------------------------------- the presets


#: The recommender libraries' presets, in the order presets.py registers them.
RECOMMENDER_PRESETS: list[LibraryPreset] = []


def _register(name: str, description: str, settings: Mapping[str, Any], **rules: Any) -> None:
    RECOMMENDER_PRESETS.append(
        LibraryPreset(name, description, settings, recommender=True, tolerance=1e-12, **rules)
    )


_TOPK = N_("torch.topk orders equal scores in an order PyTorch does not specify")
_ARGPARTITION = N_("np.argpartition orders equal scores in an order numpy does not specify")

# RecBole 1.2.1, recbole/evaluator/metrics.py: a hit matrix of each user's top k (torch.topk of
# the full score matrix, history items set to -inf first) and |R|; Precision / k, Recall / |R|,
# MAP / min(k, |R|), NDCG binary with min(k, |R|) ones as the ideal; the evaluation loader is
# built from the test interactions, so a user without test items is never scored and one
# without recommendations is an all-miss row.
_register(
    "recbole",
    "RecBole: the given order (torch.topk leaves ties undefined), binary relevance, MAP over "
    "min(k, |R|), ideal min(k, |R|) ones, users with test items",
    {
        "ties": "input_order",
        "gain": "binary",
        "ideal": "relevant_ones",
        "denominator": "min_k_relevant",
        "missing": "zero",
        "unjudged": "skip",
    },
    measures=_SIX,
    tie_order=_TOPK,
    versions="RecBole 1.2.1",
)

# Microsoft Recommenders 1.2.1, recommenders/evaluation/python_evaluation.py: precision_at_k / k,
# recall_at_k / |R|, map_at_k / min(k, |R|), ndcg_at_k binary (score_type="binary") with the ideal
# from every true item. P, R and MAP average over the users in both frames
# (merge_ranking_true_pred: common users); ndcg_at_k over every user with test items, a user
# without a prediction scoring 0. get_top_k_items sorts with pandas (stable): the given order.
_register(
    "recommenders",
    "Microsoft Recommenders python_evaluation: the given order, binary relevance, MAP over "
    "min(k, |R|); P, R and MAP over users in both frames, nDCG over every user with test items",
    {
        "ties": "input_order",
        "gain": "binary",
        "ideal": "relevant_ones",
        "denominator": "min_k_relevant",
        "missing": "skip",
        "unjudged": "skip",
    },
    measures=("precision", "recall", "average_precision", "ndcg"),
    requires={
        "ndcg": {"missing": "zero"},
        "precision": {"missing": "skip"},
        "recall": {"missing": "skip"},
        "average_precision": {"missing": "skip"},
    },
    refused={
        "ndcg:missing": N_(
            "ndcg_at_k averages over every user with test items, a user without a prediction "
            "scoring 0: give missing='zero'"
        ),
        "precision:missing": N_("precision_at_k averages over the users in both frames: missing='skip'"),
        "recall:missing": N_("recall_at_k averages over the users in both frames: missing='skip'"),
        "average_precision:missing": N_("map_at_k averages over the users in both frames: missing='skip'"),
        "hit_rate": N_("python_evaluation has no hit rate"),
        "reciprocal_rank": N_("python_evaluation has no MRR"),
    },
    versions="recommenders 1.2.1",
)

# LensKit 2025.8.1, lenskit/metrics/ranking/: Precision divides by the list's length when it is
# shorter than k; Recall by min(|R|, k); AveragePrecision by min(|R|, length of the list cut at
# k) and raises ZeroDivisionError on a list without test items; NDCG binary with the
# discount LogRankWeight (1 / max(1, log2 i)) and min(|R|, k) ones as the ideal; RecipRank and
# Hit within k. A list without test items is NaN (Precision: an empty list), and the run's
# summary counts NaN as 0 over every user with a list or test items.
_register(
    "lenskit",
    "LensKit: the order given, discount max(1, log2 i), P over the list's length, recall and AP "
    "over min(k, |R|, list), NaN lists counted as 0",
    {
        "ties": "input_order",
        "gain": "binary",
        "ideal": "relevant_ones",
        "discount": "lenskit",
        "precision_denominator": "listed",
        "recall_denominator": "min_k_relevant",
        "denominator": "min_k_listed_relevant",
        "missing": "zero",
        "unjudged": "zero",
    },
    measures=_SIX,
    cases={"average_precision": ("user_without_test",)},
    refused={
        "average_precision:user_without_test": N_(
            "LensKit's AveragePrecision divides by zero (ZeroDivisionError) on a list without test items"
        ),
    },
    notes=(
        N_(
            "LensKit gives NaN to a list without test items (Precision: to an empty list) and counts "
            "it 0 in its summary; here it is 0"
        ),
    ),
    versions="LensKit 2025.8.1",
)

# Cornac 3.0.1, cornac/metrics/ranking.py and eval_methods/base_method.py (ranking_eval): the
# ranking without the user's training items (exclude= here), users with positive test items;
# Precision / k even for a shorter list, Recall / |R|, NDCG binary with min(|R|, k) ones; MRR
# and MAP over the whole ranking, without a cutoff; MAP divides by the hits in the list (NaN
# without one) and MRR raises ValueError when no test item is ranked. Recommender.rank
# orders scores with argpartition.
_register(
    "cornac",
    "Cornac: seen items removed (give exclude=), the order given (argpartition leaves ties "
    "undefined), binary relevance, MRR and MAP without a cutoff, users with test items",
    {
        "ties": "input_order",
        "gain": "binary",
        "ideal": "relevant_ones",
        "denominator": "retrieved_relevant",
        "missing": "zero",
        "unjudged": "skip",
    },
    measures=_SIX,
    uncut=("reciprocal_rank", "average_precision"),
    cases={"reciprocal_rank": ("no_hit",), "average_precision": ("no_hit", "tied_test_items")},
    refused={
        "reciprocal_rank:cutoff": N_("Cornac's MRR ranks the whole list"),
        "average_precision:cutoff": N_("Cornac's MAP ranks the whole list"),
        "reciprocal_rank:no_hit": N_("Cornac's MRR raises ValueError when no test item is in the ranking"),
        "average_precision:no_hit": N_(
            "Cornac's MAP is NaN (0/0) when no test item is in the ranking, and its mean leaves it out"
        ),
        "average_precision:tied_test_items": N_(
            "Cornac's MAP ranks tied scores pessimistically (rankdata 'max'), which no ties= rule here follows"
        ),
    },
    tie_order=_ARGPARTITION,
    notes=(N_("Cornac removes each user's training items before ranking: give exclude="),),
    versions="Cornac 3.0.1",
)

# implicit 0.7.3, implicit/evaluation.pyx (ranking_metrics_at_k): the top K of model.recommend
# (argpartition; already-liked items filtered), users with at least one test item; "precision"
# is the sum of hits over the sum of min(K, |R|) over users; MAP / min(K, |R|); NDCG binary with
# min(K, |R|) ones. The values are those of the list recommend() returns, in its order.
_register(
    "implicit",
    "implicit ranking_metrics_at_k: recommend()'s list in its order, precision as the sum of hits "
    "over the sum of min(K, |R|), MAP over min(K, |R|), users with test items",
    {
        "ties": "input_order",
        "gain": "binary",
        "ideal": "relevant_ones",
        "denominator": "min_k_relevant",
        "precision_denominator": "min_k_relevant",
        "averaging": "micro",
        "missing": "zero",
        "unjudged": "skip",
    },
    measures=("precision", "average_precision", "ndcg"),
    refused={
        "recall": N_("implicit's ranking_metrics_at_k has no recall (its precision is one)"),
        "hit_rate": N_("implicit's ranking_metrics_at_k has no hit rate"),
        "reciprocal_rank": N_("implicit's ranking_metrics_at_k has no MRR"),
    },
    tie_order=_ARGPARTITION,
    notes=(
        N_("implicit filters the items each user liked in training before the cut: give exclude="),
        N_(
            "implicit ranks every catalogue item: a list shorter than K goes on with the others; give them, below it"
        ),
    ),
    versions="implicit 0.7.3",
)

# RecTools 0.19.0, rectools/metrics/: ranks as given; Precision / k, Recall / |R|, MAP / |R|
# (divide_by_k=False), NDCG with k ones as the ideal (divide_by_achievable=False, the
# default), binary relevance (interactions have no grade), the users of the test interactions.
_register(
    "rectools",
    "RecTools: ranks as given, binary relevance, MAP over |R|, nDCG's ideal k ones, users with test items",
    {
        "ties": "input_order",
        "gain": "binary",
        "ideal": "k_ones",
        "denominator": "all_relevant",
        "missing": "zero",
        "unjudged": "skip",
    },
    measures=_SIX,
    versions="RecTools 0.19.0",
)

# RePlay 0.22.0, replay/metrics/: equal scores came out by item id descending (recorded);
# Precision / k, Recall / |R|, MAP / min(k, |R|), NDCG binary with min(k, |R|) ones; the users
# of the ground truth, a user without recommendations scoring 0.
_register(
    "replay",
    "RePlay: equal scores by item id descending, binary relevance, MAP over min(k, |R|), users with test items",
    {
        "ties": "docno_descending",
        "gain": "binary",
        "ideal": "relevant_ones",
        "denominator": "min_k_relevant",
        "missing": "zero",
        "unjudged": "skip",
    },
    measures=_SIX,
    versions="RePlay 0.22.0",
)

# Evidently 0.7 (legacy recsys metrics): every catalogue row of a user is ranked (give the
# items outside the list below it); Precision / min(k, rows), Recall / |R|, MAP / |R|, NDCG with
# the graded target as linear gain and the ideal from every target row; users with a target > 0.
# Scores become ranks with groupby().rank().astype(int): tied items share their average rank,
# truncated, so two can both be rank 1, and P@1, MAP and NDCG exceed 1.
_EVIDENTLY_TIES = N_(
    "Evidently gives tied items their average rank truncated to an integer, so two can share "
    "rank 1 and P, MAP and nDCG can exceed 1"
)
_EVIDENTLY_SHORT = N_("Evidently fails (KeyError) when k exceeds the rows of a user")
_register(
    "evidently",
    "Evidently: every catalogue row ranked, graded nDCG with linear gain, MAP over |R|, users "
    "with test items; tied scores refused",
    {
        "ties": "input_order",
        "gain": "linear",
        "ideal": "judged",
        "denominator": "all_relevant",
        "precision_denominator": "listed",
        "missing": "zero",
        "unjudged": "skip",
    },
    measures=_SIX,
    cases={
        **{family: ("tied_test_items", "short_list") for family in _SIX},
        "average_precision": ("tied_scores", "short_list", "adjacent_hits"),
    },
    refused={
        **{f"{family}:tied_test_items": _EVIDENTLY_TIES for family in _SIX},
        **{f"{family}:short_list": _EVIDENTLY_SHORT for family in _SIX},
        "average_precision:tied_scores": N_(
            "Evidently's MAPKMetric gives a user with tied scores in the top k (even among items "
            "that are not test items) a value that is no average precision (the recorded values show it)"
        ),
        "average_precision:adjacent_hits": N_(
            "Evidently's MAPKMetric gives a user with two hits in a row a value that is no average "
            "precision (the recorded values show it), and no convention here follows it"
        ),
    },
    notes=(N_("Evidently ranks every catalogue item of a user: give the items outside the list, below it"),),
    versions="Evidently 0.7.23",
)

# DaisyRec 2.3.0, daisy/utils/metrics.py: ranked lists as given; Precision / the length of the
# list cut at k (NaN for an empty list), Recall / |R|, MAP as the mean precision at the hits,
# NDCG (2^r - 1 on 0/1) with the ideal built from the hits already in the list; the users of
# the test set.
_register(
    "daisyrec",
    "DaisyRec: the order given, P over the list's length, MAP over the hits in the list, nDCG's "
    "ideal from the hits in the list, users with test items",
    {
        "ties": "input_order",
        "gain": "binary",
        "ideal": "listed_hits",
        "denominator": "retrieved_relevant",
        "precision_denominator": "listed",
        "missing": "zero",
        "unjudged": "skip",
    },
    measures=_SIX,
    cases={"precision": ("empty_list",)},
    refused={"precision:empty_list": N_("DaisyRec's Precision of an empty list is NaN (0/0)")},
    versions="DaisyRec 2.3.0",
)
