"""Random, tie-heavy judgements and runs for the cluster tests (Dask here, Spark in tests/spark).

Scores come from a handful of values, so most documents tie and the order of
ties (docno descending, as text: "d10" before "d9") decides; some queries are
only judged, some only in the run; grades run from -1 (unjudged) to 3.
The local :func:`rankmetrics.evaluate` on the same pandas frames is the oracle.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rankmetrics.trec.names import _evaluated, parse_metric


def every_measure() -> list[str]:
    """One name (two with and without a cutoff) for every registered measure that evaluate offers."""
    names = []
    for m in _evaluated():
        base = m.names[0] if m.names else m.trec_name
        if m.parameter == "level":
            candidates = [f"{m.trec_name}_0.20"]
        elif base is None:
            candidates = [f"{m.trec_cutoff_name}_5"]
        elif m.cutoff == "required":
            candidates = [f"{base}@5"]
        elif m.cutoff == "optional":
            candidates = [base, f"{base}@5" if m.names else f"{base}_5"]
        else:
            candidates = [base]
        for name in candidates:
            parse_metric(name)  # each must be a name evaluate takes
            names.append(name)
    assert len({parse_metric(n).metric.name for n in names}) == len(_evaluated())
    return names


def tie_heavy(seed: int, queries: int = 120) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(qrels, run) as pandas frames with ir_measures' columns, rows shuffled."""
    rng = np.random.default_rng(seed)
    judged, listed = [], []
    for q in range(queries):
        qid = f"q{q}"
        if q % 17 != 5:  # a few queries only in the run
            for d in rng.choice(40, rng.integers(1, 15), replace=False):
                judged.append((qid, f"d{d}", int(rng.integers(-1, 4))))
        if q % 13 != 3:  # a few judged queries absent from the run
            for d in rng.choice(40, rng.integers(1, 25), replace=False):
                listed.append((qid, f"d{d}", float(rng.integers(0, 4)) / 4))
    qrels = pd.DataFrame(judged, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(listed, columns=["query_id", "doc_id", "score"])
    return (
        qrels.sample(frac=1, random_state=seed).reset_index(drop=True),
        run.sample(frac=1, random_state=seed + 1).reset_index(drop=True),
    )


def assert_same(per_query: pd.DataFrame, local, names: list[str]) -> None:
    """The cluster's per-query rows equal the local Evaluation's, query by query, within 1e-15."""
    got = per_query.sort_values("query_id").reset_index(drop=True)
    assert got["query_id"].tolist() == list(local.queries)
    for name in names:
        expected = local.per_query[name]
        if expected.dtype == object:
            assert got[name].tolist() == expected.tolist(), name
        else:
            np.testing.assert_allclose(
                got[name].to_numpy(dtype=float), expected, rtol=0, atol=1e-15, err_msg=name
            )


RECOMMENDER_MEASURES = ["P@10", "R@10", "HR@10", "MRR@10", "MAP@10", "nDCG@10"]


def recommender_frames(seed: int, users: int = 90) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(test, recommendations) in a recommender's words: ``user_id, item_id`` as whole numbers.

    The test set has no ``relevance`` column (implicit feedback: every row is relevant with
    grade 1); the recommendations hold 5 to 20 items per user with scores from five values
    (ties, broken by the item id as text). Every ninth user has test items but no list, every
    eleventh a list but no test item. Rows shuffled.
    """
    rng = np.random.default_rng(seed)
    tested, listed = [], []
    for user in range(users):
        if user % 11 != 4:
            for item in rng.choice(60, rng.integers(1, 8), replace=False):
                tested.append((user, int(item)))
        if user % 9 != 2:
            for item in rng.choice(60, rng.integers(5, 21), replace=False):
                listed.append((user, int(item), float(rng.integers(0, 5))))
    test = pd.DataFrame(tested, columns=["user_id", "item_id"])
    recs = pd.DataFrame(listed, columns=["user_id", "item_id", "score"])
    return (
        test.sample(frac=1, random_state=seed).reset_index(drop=True),
        recs.sample(frac=1, random_state=seed + 1).reset_index(drop=True),
    )


def as_queries(test: pd.DataFrame, recs: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The same data in ir_measures' words, every test row relevant with grade 1 (the long way)."""
    qrels = pd.DataFrame(
        {"query_id": test["user_id"].astype(str), "doc_id": test["item_id"].astype(str), "relevance": 1}
    )
    run = pd.DataFrame(
        {
            "query_id": recs["user_id"].astype(str),
            "doc_id": recs["item_id"].astype(str),
            "score": recs["score"],
        }
    )
    return qrels, run
