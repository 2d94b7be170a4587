"""Presets: the conventions that reproduce another implementation's numbers, by its name.

``evaluate(qrels, run, metrics, like="ranx")`` answers "why does library X give
a different nDCG?" in code: each preset is a set of conventions
(:class:`~rankmetrics.trec.conventions.Conventions`) read from that library's
source, and nothing else; no library is imported. Arguments given explicitly
still override a preset, and ``result.conventions.card()`` says where each
setting came from.

A library's preset lists the measure families it reproduces; any other
measure is refused with a ValueError that says why (usually: the library does
not offer it, or follows a rule no convention here expresses).
``tests/package/test_presets.py`` compares every preset with the values the
libraries themselves computed (``benchmarks/peer_presets.py`` writes them to
``tests/package/data/peer_presets.json``; Spark MLlib's come from
``book/data/spark_mllib_values.json``).

>>> sorted(name for name, p in PRESETS.items() if not getattr(p, "recommender", False))
['ranx', 'sklearn', 'spark-mllib', 'trec_eval-10', 'trec_eval-9']
>>> sorted(name for name, p in PRESETS.items() if getattr(p, "recommender", False))  # presets_recsys too
['cornac', 'daisyrec', 'evidently', 'implicit', 'lenskit', 'recbole', 'recommenders', 'rectools', 'replay', 'torchmetrics']
>>> PRESETS["sklearn"].measures
('ndcg',)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import _validation as v
from ..i18n import N_, _
from .conventions import Conventions, LibraryPreset, Preset
from .presets_recsys import RECOMMENDER_PRESETS

__all__ = ["PRESETS", "LibraryPreset", "Preset", "check_measures", "find", "register_preset"]

#: Every preset by name, in the order registered: trec_eval's, the IR libraries', the recommenders'.
PRESETS: dict[str, Preset] = {}


def register_preset(preset: Preset) -> Preset:
    """Add a preset; every setting it names must be a field of :class:`Conventions`."""
    unknown = sorted(set(preset.settings) - set(Conventions()))
    if unknown:
        raise ValueError(
            _("preset {name!r} sets unknown conventions {unknown}").format(name=preset.name, unknown=unknown)
        )
    if preset.name in PRESETS:
        raise ValueError(_("preset {name!r} is registered twice").format(name=preset.name))
    Conventions.resolve(**preset.settings)  # every value must be valid
    PRESETS[preset.name] = preset
    return preset


def find(like: str | None) -> Preset | None:
    """The preset named ``like`` (``like=`` of evaluate, compare and the command line); None for None.

    >>> find("sklearn").settings["ties"]
    'average'
    >>> find("sklearm")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: like must be one of 'trec_eval-10', 'trec_eval-9', 'ranx', 'sklearn', ...; got 'sklearm'
    """
    if like is None:
        return None
    if not isinstance(like, str) or like not in PRESETS:
        raise ValueError(
            _("like must be one of {offered}; got {preset}").format(
                offered=", ".join(map(repr, PRESETS)), preset=v.show(like)
            )
        )
    return PRESETS[like]


def check_measures(conventions: Mapping[str, Any], measures: Sequence[Any]) -> None:
    """Refuse, naming each and saying why, the measures a library's preset does not reproduce.

    ``conventions`` is the resolved :class:`~rankmetrics.trec.conventions.Conventions`
    (its ``preset`` says which preset, if any, supplied the defaults).
    """
    chosen = getattr(conventions, "chosen_preset", None)
    preset = getattr(conventions, "preset", None)
    if not isinstance(chosen, LibraryPreset):
        return
    reasons = []
    for m in measures:
        if m.family not in chosen.measures:
            why = _(chosen.refused.get(m.family, N_("not a measure of this library")))
            reasons.append(f"{m.name!r} ({why})")
            continue
        if m.family in chosen.uncut and m.k is not None:
            why = _(
                chosen.refused.get(f"{m.family}:cutoff", N_("the library computes it over the whole list"))
            )
            reasons.append(_("{name!r} (only without a cutoff; {why})").format(name=m.name, why=why))
            continue
        for setting, value in chosen.requires.get(m.family, {}).items():
            if conventions[setting] != value:
                why = _(chosen.refused.get(f"{m.family}:{setting}", N_("the library follows another rule")))
                reasons.append(
                    _("{name!r} (reproduced with {setting}={value!r} only; {why})").format(
                        name=m.name, setting=setting, value=value, why=why
                    )
                )
    if reasons:
        raise ValueError(
            _(
                "like={preset!r} reproduces {measures}; it refuses {reasons}. Leave like= out to "
                "compute it with the package's own conventions"
            ).format(preset=preset, measures=", ".join(chosen.measures), reasons="; ".join(reasons))
        )


register_preset(
    Preset(
        "trec_eval-10",
        "NIST trec_eval 10.0: scores as C doubles, lround(r * R) for recall levels",
        {"reference": "trec_eval-10"},
    )
)
register_preset(
    Preset(
        "trec_eval-9",
        "trec_eval 9.x, and pytrec_eval and ir_measures, which embed it: scores as C floats, "
        "(long) (r * R + 0.9) for recall levels",
        {"reference": "trec_eval-9"},
    )
)

# ranx 0.3.21 (ranx/metrics/*.py, ranx/data_structures/common.py): each query's documents are
# sorted with numba's unstable np.argsort of -score in the run's order; grades >= rel_lvl count,
# with their grade as linear gain (ndcg) or 2^g - 1 (ndcg_burges, here nDCG(dcg=exp-log2)); the
# ideal from every judged document; AP and AP@k divide by every relevant document; P@k by k; a
# query without relevant documents scores 0; scores are float64. ranx refuses a run whose queries
# are not the judged ones; evaluate(..., make_comparable=True) scores a judged query missing from
# the run 0, but also sorts every query's documents a second time, which moves tied documents
# again: the preset follows a run evaluated without it (one sort), and skips missing queries.
register_preset(
    LibraryPreset(
        "ranx",
        "ranx: ties left where numba's quicksort puts them, float64 scores, linear gain (ndcg) "
        "and exponential (ndcg_burges), ideal from every judged document, AP over every relevant "
        "document",
        {
            "ties": "numba_quicksort",
            "score_precision": "float64",
            "unjudged": "skip",
            "gain": "linear",
            "ideal": "judged",
            "denominator": "all_relevant",
        },
        measures=(
            "ndcg",
            "precision",
            "recall",
            "average_precision",
            "reciprocal_rank",
            "hit_rate",
            "r_precision",
        ),
        refused={
            "f1": N_("ranx's f1 is not compared here"),
            "hits": N_("ranx's hits is not compared here"),
            "ndcg:relevance_level": N_(
                "ranx's ndcg@k-lN gives no gain to a grade below N, while nDCG here reads every grade"
            ),
        },
        requires={"ndcg": {"relevance_level": 1}},
        tolerance=1e-12,
        versions="ranx 0.3.21, numba 0.68.1",
    )
)

# scikit-learn 1.9.1, sklearn/metrics/_ranking.py: ndcg_score(y_true, y_score, k) per row: the
# ideal from the row's own y_true (the items passed), tied scores averaged (McSherry & Najork;
# ignore_ties=False), linear gain, float64; a row without gain scores 0; a negative y_true is
# refused ("ndcg_score should not be used on negative y_true values"); a row of one item is
# refused too. average_precision_score is not reproduced: it takes tied scores as one
# threshold (precision at the end of the tie group times its recall increment), which is
# neither an order nor the average over orders.
register_preset(
    LibraryPreset(
        "sklearn",
        "scikit-learn ndcg_score: ideal from the items passed, tied scores averaged, linear gain",
        {
            "ties": "average",
            "score_precision": "float64",
            "gain": "linear",
            "ideal": "listed",
        },
        measures=("ndcg",),
        refused={
            "average_precision": N_(
                "average_precision_score takes a group of tied scores as one "
                "threshold, which no ties= rule here follows"
            ),
        },
        tolerance=1e-12,
        versions="scikit-learn 1.9.1",
    )
)

# torchmetrics 1.9.0, torchmetrics/functional/retrieval/: nDCG follows scikit-learn's rules (ties
# averaged, ideal from the items passed, linear gain), with scores and gains as float32
# (utilities/checks.py: preds.float()), so its values agree with the float64 ones here to
# float32's precision. Its other retrieval metrics take the top k with torch.topk or an unstable
# torch.argsort, whose order of tied scores PyTorch does not specify: they are reproduced in the
# given order (ties="input_order", which they require), a warning naming the users with ties.
# P divides by k (adaptive_k=False, the default), recall by the relevant items passed, AP by the
# relevant items in the top k; a user with a list but no relevant item scores 0
# (empty_target_action="neg"), a user without a list has no row at all. A relevant item whose
# score is <= 0 is not counted by P/R/HR/RR/AP (torch.where(preds > 0, ...)): refused by name.
_TORCH_ORDER = N_(
    "torchmetrics averages tied scores for nDCG only; its P, recall, HR, MRR and MAP take "
    "torch.topk's order, which PyTorch does not specify: give ties='input_order' (the given "
    "order; a warning names the users with ties)"
)
_TORCH_RANKED = ("precision", "recall", "hit_rate", "reciprocal_rank", "average_precision")
register_preset(
    LibraryPreset(
        "torchmetrics",
        "torchmetrics retrieval metrics: nDCG with tied scores averaged and the ideal from the items "
        "passed, linear gain, float32 scores; recall over the relevant items passed, AP over the "
        "relevant items in the top k",
        {
            "ties": "average",
            "score_precision": "float32",
            "gain": "linear",
            "ideal": "listed",
            "recall_denominator": "listed_relevant",
            "denominator": "retrieved_relevant",
            "unjudged": "zero",
        },
        measures=("ndcg", *_TORCH_RANKED),
        requires={family: {"ties": "input_order"} for family in _TORCH_RANKED},
        refused={
            **{f"{family}:ties": _TORCH_ORDER for family in _TORCH_RANKED},
            **{
                f"{family}:nonpositive_relevant": N_(
                    "torchmetrics counts no relevant item whose score is <= 0 (torch.where(preds > 0, ...))"
                )
                for family in _TORCH_RANKED
            },
            "r_precision": N_("torchmetrics' retrieval_r_precision is not compared here"),
        },
        cases={family: ("nonpositive_relevant",) for family in _TORCH_RANKED},
        tie_order=N_("torch.topk orders equal scores in an order PyTorch does not specify"),
        recommender=True,
        tolerance=1e-6,
        versions="torchmetrics 1.9.0, torch 2.13.0 (CPU)",
    )
)

# Spark MLlib (pyspark 4.x), mllib/.../evaluation/RankingMetrics.scala: the prediction list in
# the order given (here: the run's order, a stable sort by score), every label relevant (a
# judgement of grade >= 0 here), P@k / k, MAP@k / min(|labels|, k), MAP / |labels|, recall / |labels|,
# graded nDCG (the JVM's RankingMetrics.of with relevance values) with gain 2^rel - 1 and the
# ideal from every label, a row with no labels 0 (unjudged="zero"). The Python API drops the
# relevance values, so its nDCG is binary: give gain="binary". Not reproduced: a prediction
# listed twice (Spark counts it twice; a run here holds a document once per query), and the
# JVM's ideal taken from the labels in the order given, unsorted (here always sorted).
register_preset(
    LibraryPreset(
        "spark-mllib",
        "Spark MLlib RankingMetrics: the order given, every label relevant, MAP@k over "
        "min(|labels|, k), exponential gain (graded nDCG), a query without labels scores 0",
        {
            "ties": "input_order",
            "score_precision": "float64",
            "relevance_level": 0,
            "unjudged": "zero",
            "gain": "exponential",
            "ideal": "judged",
            "denominator": "min_k_relevant",
        },
        measures=("ndcg", "precision", "recall", "average_precision"),
        refused={
            "reciprocal_rank": N_("Spark MLlib's RankingMetrics has no reciprocal rank"),
            "hit_rate": N_("Spark MLlib's RankingMetrics has no hit rate"),
            "r_precision": N_("Spark MLlib's RankingMetrics has no R-precision"),
        },
        tolerance=1e-12,
        versions="pyspark 4.3.0 (book/data/spark_mllib_values.json)",
    )
)

# The recommender libraries' presets (RecBole, Recommenders, LensKit, Cornac, implicit, RecTools,
# RePlay, Evidently, DaisyRec), defined in presets_recsys.
for _library in RECOMMENDER_PRESETS:
    register_preset(_library)
