"""Recommender frames (user_id, item_id; implicit relevance; rank) and exclude= in evaluate."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import rankmetrics as rm


def _seed() -> tuple[pd.DataFrame, pd.DataFrame]:
    # The seed's list [A, B, C, D, E] with relevant {B, D, F, G}.
    test = pd.DataFrame({"user_id": ["u1"] * 4, "item_id": ["B", "D", "F", "G"]})
    recs = pd.DataFrame({"user_id": ["u1"] * 5, "item_id": list("ABCDE"), "rank": [1, 2, 3, 4, 5]})
    return test, recs


def test_user_item_frames_with_rank_and_implicit_relevance():
    test, recs = _seed()
    result = rm.evaluate(test, recs, ["ndcg@5", "p@5"])
    # hits at ranks 2 and 4; ideal: min(k, |R|) = 4 ones (trec_eval's judged ideal here)
    dcg = 1 / math.log2(3) + 1 / math.log2(5)
    ideal = sum(1 / math.log2(i + 1) for i in range(1, 5))
    assert result.summary["ndcg@5"] == pytest.approx(dcg / ideal)
    assert result.summary["p@5"] == pytest.approx(2 / 5)
    assert result.to_pandas()["query_id"].tolist() == ["u1"]


def test_exclude_removes_seen_items_before_the_cut():
    test, recs = _seed()
    # A seen in training is removed: the list becomes B C D E, B at rank 1, D at rank 3
    result = rm.evaluate(test, recs, ["p@3", "recip_rank"], exclude={"u1": ["A"], "other": ["Z"]})
    assert result.per_query["recip_rank"].tolist() == [1.0]
    assert result.summary["p@3"] == pytest.approx(2 / 3)  # B, C, D: two hits
    assert dict(result.excluded) == {"u1": 1}
    assert "1 seen item removed" in str(result)
    frame = pd.DataFrame({"user_id": ["u1"], "item_id": ["A"]})
    assert rm.evaluate(test, recs, "p@3", exclude=frame).summary["p@3"] == pytest.approx(2 / 3)


def test_exclude_with_no_shared_user_is_an_error():
    test, recs = _seed()
    with pytest.raises(ValueError, match="none of its users"):
        rm.evaluate(test, recs, "p@3", exclude={7: ["A"]})


def test_exclude_on_a_frame_removes_what_the_dict_route_removes():
    # A DataFrame run is filtered in array operations, a dict run item by item: the same
    # items must go, ids matched as text (user 3 is "3"), the counts per user the same.
    import numpy as np

    from rankmetrics.trec.recsys_frames import exclude_seen

    rng = np.random.default_rng(11)
    pairs = {(int(u), int(i)) for u, i in zip(rng.integers(0, 30, 500), rng.integers(0, 50, 500))}
    recs = pd.DataFrame(sorted(pairs), columns=["user_id", "item_id"]).assign(score=lambda f: f.index % 7)
    seen = pd.DataFrame({"user_id": rng.integers(0, 40, 300), "item_id": rng.integers(0, 50, 300)})
    seen_text = seen.astype(str)  # the same seen items, ids as text
    as_dict = {}
    for u, i, s in recs.itertuples(index=False):
        as_dict.setdefault(u, {})[i] = float(s)
    kept_dict, removed_dict = exclude_seen(as_dict, seen)
    for exclude in (seen, seen_text, {u: g["item_id"].tolist() for u, g in seen.groupby("user_id")}):
        kept, removed = exclude_seen(recs, exclude)
        assert removed == removed_dict and sum(removed.values()) > 20
        assert sorted(zip(kept["query_id"], kept["doc_id"])) == sorted(
            (u, i) for u, items in kept_dict.items() for i in items
        )
    test = pd.DataFrame({"user_id": recs["user_id"][::3], "item_id": recs["item_id"][::3]})
    by_frame = rm.evaluate(test, recs, ["p@5", "ndcg@5"], exclude=seen)
    by_dict = rm.evaluate(test, as_dict, ["p@5", "ndcg@5"], exclude=seen)
    assert by_frame.per_query["ndcg@5"].tolist() == by_dict.per_query["ndcg@5"].tolist()
    assert dict(by_frame.excluded) == dict(by_dict.excluded)
