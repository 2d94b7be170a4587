"""rankmetrics: ranking and recommendation metrics for learning and checking by hand.

Every ranking metric takes either grades in ranked order (``[3, 0, 3, 2, 0]``)
or item ids with judgements (``metric(["A", "B"], relevant={"B"})``). One query
gives a plain ``float``; a 2-D array of grades gives one value per row.
"""

from . import metrics  # noqa: F401  (importing any metric module registers them all, in reading order)
from .metrics.dcg import dcg, ndcg
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
from .metrics.set_based import f1, hit_rate, hits, precision, r_precision, recall
from .teaching.explain import Explanation, explain
from .teaching.worksheet import Worksheet, make_worksheet
from .trec.compare import Comparison, compare, holm
from .trec.evaluate import Evaluation, evaluate
from .trec.files import read_qrels, read_run

__version__ = "0.2.0"

__all__ = [
    "Comparison",
    "Evaluation",
    "Explanation",
    "Worksheet",
    "average_precision",
    "compare",
    "dcg",
    "evaluate",
    "expected_reciprocal_rank",
    "explain",
    "f1",
    "hit_rate",
    "hits",
    "holm",
    "mae",
    "make_worksheet",
    "mean_average_precision",
    "mean_rank",
    "mean_reciprocal_rank",
    "mse",
    "ndcg",
    "order_by_score",
    "precision",
    "r_precision",
    "read_qrels",
    "read_run",
    "recall",
    "reciprocal_rank",
    "rmse",
]
