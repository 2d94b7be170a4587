"""The metric lists that several test files run over, kept in one place."""

from __future__ import annotations

import rankmetrics as rm

# Every metric that takes one ranking (or a 2-D batch) as its first argument and a cutoff k.
RANKING_METRICS = [
    rm.precision,
    rm.recall,
    rm.f1,
    rm.hit_rate,
    rm.reciprocal_rank,
    rm.mean_rank,
    rm.average_precision,
    rm.dcg,
    rm.ndcg,
]
