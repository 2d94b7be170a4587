"""rankmetrics: ranking and recommendation metrics for learning and checking by hand.

Every ranking metric takes either grades in ranked order (``[3, 0, 3, 2, 0]``)
or item ids with judgements (``metric(["A", "B"], relevant={"B"})``). One query
gives a plain ``float``; a 2-D array of grades gives one value per row.
"""

from . import metrics  # noqa: F401  (importing any metric module registers them all, in reading order)
from .i18n import language, set_language, use_language
from .metrics.beyond_accuracy import (
    average_popularity,
    coverage,
    entropy,
    gini_index,
    long_tail_share,
    novelty,
)
from .metrics.dcg import dcg, ndcg
from .metrics.item_attributes import calibration_kl, exposure, intra_list_diversity
from .metrics.off_policy import ips, snips
from .metrics.ordering import order_by_score
from .metrics.rank_based import (
    average_precision,
    expected_reciprocal_rank,
    mean_average_precision,
    mean_rank,
    mean_reciprocal_rank,
    reciprocal_rank,
)
from .metrics.rating import mae, mse, rmse
from .metrics.recommendation_lists import RecommendationLists, recommendation_lists
from .metrics.sampled import (
    corrected_sampled_metric,
    sample_ranks,
    sampled_correction,
    sampled_expectation,
    sampled_rank_probabilities,
    simulate_sampled_metric,
)
from .metrics.set_based import f1, hit_rate, hits, precision, r_precision, recall

__version__ = "0.2.0"

# Imported on first use (PEP 562), so that `rankmetrics trec_eval` and the calculator start
# without the teaching modules and the TREC pipeline: name -> module that defines it.
_LAZY = {
    "Explanation": "teaching.explain",
    "explain": "teaching.explain",
    "Worksheet": "teaching.worksheet",
    "make_worksheet": "teaching.worksheet",
    "Comparison": "trec.compare",
    "compare": "trec.compare",
    "holm": "trec.compare",
    "Evaluation": "trec.evaluate",
    "evaluate": "trec.evaluate",
    "read_qrels": "trec.files",
    "read_run": "trec.files",
}


_SUBPACKAGES = {"teaching", "trec", "cli", "tables"}  # rankmetrics.trec etc. as attributes, as before


def __getattr__(name: str):
    if name in _LAZY or name in _SUBPACKAGES:
        from importlib import import_module

        if name in _SUBPACKAGES:
            return import_module(f".{name}", __name__)
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'rankmetrics' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "Comparison",
    "Evaluation",
    "Explanation",
    "RecommendationLists",
    "Worksheet",
    "average_popularity",
    "average_precision",
    "calibration_kl",
    "compare",
    "corrected_sampled_metric",
    "coverage",
    "dcg",
    "entropy",
    "evaluate",
    "expected_reciprocal_rank",
    "explain",
    "exposure",
    "f1",
    "gini_index",
    "hit_rate",
    "hits",
    "holm",
    "intra_list_diversity",
    "ips",
    "language",
    "long_tail_share",
    "mae",
    "make_worksheet",
    "mean_average_precision",
    "mean_rank",
    "mean_reciprocal_rank",
    "mse",
    "ndcg",
    "novelty",
    "order_by_score",
    "precision",
    "r_precision",
    "read_qrels",
    "read_run",
    "recall",
    "reciprocal_rank",
    "recommendation_lists",
    "rmse",
    "sample_ranks",
    "sampled_correction",
    "sampled_expectation",
    "sampled_rank_probabilities",
    "set_language",
    "simulate_sampled_metric",
    "snips",
    "use_language",
]
