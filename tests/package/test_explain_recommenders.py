"""Step tables of the recommender measures: the toy of issue 31 §4 by hand, and random data.

Each table's value must be the metric function's value (==), and the numbers in its
rows are checked against a plain-Python computation written here, independent of the
package's arrays.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

import rankmetrics as rm

LISTS = {"u1": ["a", "b", "c"], "u2": ["a", "b", "d"], "u3": ["a", "c", "e"]}
COUNTS = {"a": 50, "b": 30, "c": 10, "d": 5, "e": 4, "f": 1}
GENRES = {
    "a": {"action"},
    "b": {"action", "comedy"},
    "c": {"drama"},
    "d": {"comedy"},
    "e": {"drama", "romance"},
}
LOGGING = [0.8, 0.8, 0.2, 0.8, 0.2, 0.8]
TARGET = [0.2, 0.2, 0.8, 0.2, 0.8, 0.2]
REWARDS = [1, 1, 1, 0, 0, 0]


# ---------------------------------------------------------------- the toy, by hand


def test_coverage_and_gini_toy():
    e = rm.explain("coverage", LISTS, catalog="abcdef")
    # a in 3 lists, b and c in 2, d and e in 1, f in none: 5 of 6
    assert [(r["item"], r["count"]) for r in e.rows] == [("a", 3), ("b", 2), ("c", 2), ("d", 1), ("e", 1)]
    assert e.value == 5 / 6
    assert rm.explain("coverage", LISTS, catalog="abcdef", count=True).value == 5.0
    e = rm.explain("gini_index", LISTS, catalog="abcdef")
    # n = 6, x ascending 0 (f), 1, 1, 2, 2, 3 at j = 1..6: Σ (2j − 7) x = -3 - 1 + 2 + 6 + 15 = 19, ÷ (6 × 9)
    assert [r["term"] for r in e.rows] == [-3, -1, 2, 6, 15]
    assert e.value == pytest.approx(19 / 54, rel=1e-15)


def test_entropy_toy():
    e = rm.explain("entropy", LISTS)
    shares = [3 / 9, 2 / 9, 2 / 9, 1 / 9, 1 / 9]
    assert [r["share"] for r in e.rows] == pytest.approx(shares, rel=1e-15)
    assert e.value == pytest.approx(-sum(p * math.log(p) for p in shares), rel=1e-14)  # 1.5230


def test_popularity_tables_toy():
    information = {item: -math.log2(count / 100) for item, count in COUNTS.items()}
    e = rm.explain("novelty", LISTS, interactions=COUNTS)
    expected = [sum(information[i] for i in items) / 3 for items in LISTS.values()]
    assert [r["value"] for r in e.rows] == pytest.approx(expected, rel=1e-14)
    assert e.value == pytest.approx(2.4537, abs=5e-5)
    e = rm.explain("average_popularity", LISTS, interactions=COUNTS)
    assert [r["value"] for r in e.rows] == pytest.approx([90 / 3, 85 / 3, 64 / 3], rel=1e-15)
    e = rm.explain("long_tail_share", LISTS, interactions=COUNTS)
    # head: a (0 above it), b (50 above, < 80); c has 80 above: tail
    assert [r["tail"] for r in e.sections[0].rows] == [0, 0, 1, 1, 1]
    assert [r["value"] for r in e.rows] == pytest.approx([1 / 3, 1 / 3, 2 / 3], rel=1e-15)


def test_intra_list_diversity_toy():
    e = rm.explain("intra_list_diversity", LISTS, features=GENRES)
    # u1: a-b 1 − 1/2, a-c 1, b-c 1 -> 5/6; u2: a-b 1/2, a-d 1, b-d 1/2 -> 2/3; u3: 1, 1, 1/2 -> 5/6
    assert [r["distance"] for r in e.rows] == [0.5, 1, 1, 0.5, 1, 0.5, 1, 1, 0.5]
    assert e.value == pytest.approx((5 / 6 + 2 / 3 + 5 / 6) / 3, rel=1e-14)


def test_calibration_toy():
    history = {"u": [f"r{i}" for i in range(7)] + [f"a{i}" for i in range(3)]}
    genres = {**{f"r{i}": ["romance"] for i in range(7)}, **{f"a{i}": ["action"] for i in range(3)}}
    e = rm.explain("calibration_kl", history, recs={"u": ["r0", "r1", "r2"]}, genres=genres)
    by_genre = {r["genre"]: r for r in e.rows}
    assert (by_genre["romance"]["p"], by_genre["romance"]["q"]) == (0.7, 1.0)
    assert (by_genre["action"]["p"], by_genre["action"]["q"]) == (0.3, 0.0)
    # q̃ = 0.99 q + 0.01 p: 0.997 and 0.003
    expected = 0.7 * math.log(0.7 / 0.997) + 0.3 * math.log(0.3 / 0.003)
    assert e.value == pytest.approx(expected, rel=1e-12)  # 1.1340


def test_off_policy_toy():
    e = rm.explain("ips", REWARDS, target_p=TARGET, logging_p=LOGGING)
    assert [r["weight"] for r in e.rows] == [0.25, 0.25, 4, 0.25, 4, 0.25]
    assert e.value == 0.75  # (0.25 + 0.25 + 4) / 6
    assert rm.explain("snips", REWARDS, target_p=TARGET, logging_p=LOGGING).value == 0.5  # 4.5 / 9
    clipped = rm.explain("ips", REWARDS, target_p=TARGET, logging_p=LOGGING, clip=2)
    assert [r["weight"] for r in clipped.rows] == [0.25, 0.25, 2, 0.25, 2, 0.25]
    assert clipped.value == pytest.approx(2.5 / 6, rel=1e-15)


def test_sampled_hr_is_the_hypergeometric_terms_summed():
    e = rm.explain("sampled_expectation", "HR@10", ranks=40, n_items=1000, n_negatives=100)
    # P(sampled rank r) = P(X = r − 1), X ~ Hypergeometric: 39 items above among 999, 100 drawn
    exact = [math.comb(39, x) * math.comb(960, 100 - x) / math.comb(999, 100) for x in range(10)]
    assert [r["rank"] for r in e.rows] == list(range(1, 11))
    assert [r["probability"] for r in e.rows] == pytest.approx(exact, rel=1e-12)
    assert e.value == pytest.approx(sum(exact), rel=1e-12)  # 0.9966
    ndcg = rm.explain("sampled_expectation", "nDCG@5", ranks=[3], n_items=20, n_negatives=4)
    by_hand = sum(
        math.comb(2, x) * math.comb(17, 4 - x) / math.comb(19, 4) / math.log2(2 + x) for x in range(3)
    )
    assert ndcg.value == pytest.approx(by_hand, rel=1e-12)


# ---------------------------------------------------------------- random data: the package's value, exactly


def random_lists(rng, n_users=12, n_items=15, longest=6):
    lists = {}
    for u in range(n_users):
        size = int(rng.integers(2, longest + 1))
        lists[f"u{u}"] = [f"i{j}" for j in rng.choice(n_items, size=size, replace=False)]
    return lists


@pytest.mark.parametrize("seed", range(5))
def test_every_table_gives_the_function_value_on_random_data(seed):
    rng = np.random.default_rng(seed)
    items = [f"i{j}" for j in range(15)]
    lists = random_lists(rng)
    counts = {item: int(rng.integers(1, 60)) for item in items}
    features = {
        item: set(rng.choice(["x", "y", "z", "w"], size=int(rng.integers(1, 4)), replace=False))
        for item in items
    }
    history = {user: list(rng.choice(items, size=5, replace=False)) for user in lists}
    k = int(rng.integers(2, 6))
    calls = [
        ("coverage", lists, {"catalog": items, "k": k}),
        ("coverage", lists, {"catalog": items, "count": True}),
        ("gini_index", lists, {"catalog": items, "k": k, "padding_item": True}),
        ("entropy", lists, {"k": k}),
        ("entropy", lists, {"base": 2, "normalize": "distinct_items"}),
        ("novelty", lists, {"interactions": counts, "k": k}),
        ("novelty", lists, {"interactions": counts, "average": "recommendations"}),
        ("average_popularity", lists, {"interactions": counts, "k": k}),
        ("long_tail_share", lists, {"interactions": counts, "k": k, "head_share": 0.6}),
        ("long_tail_share", lists, {"interactions": counts, "tail_ratio": 0.3}),
        ("intra_list_diversity", lists, {"features": features, "k": k}),
        ("intra_list_diversity", lists, {"features": features, "distance": "cosine"}),
        ("intra_list_diversity", lists, {"features": features, "distance": "euclidean"}),
        ("calibration_kl", history, {"recs": lists, "genres": features, "k": k, "alpha": 0.05}),
    ]
    rewards = rng.integers(0, 2, size=20)
    target, logging = rng.uniform(0.05, 1, size=20), rng.uniform(0.05, 1, size=20)
    calls += [
        ("ips", rewards, {"target_p": target, "logging_p": logging}),
        ("snips", rewards, {"target_p": target, "logging_p": logging, "clip": 3.0}),
    ]
    n_items = int(rng.integers(50, 400))
    for name in ("HR@5", "nDCG@10", "MRR", "P@3", "AP", "AUC", "MRR@7"):
        calls.append(("sampled_expectation", name, {"ranks": [int(rng.integers(1, n_items + 1))],
                                                     "n_items": n_items, "n_negatives": 30}))  # fmt: skip
    for metric, x, keywords in calls:
        function = getattr(rm, metric)
        expected = function(x, **keywords)
        if metric == "sampled_expectation":
            (expected,) = expected
        e = rm.explain(metric, x, **keywords)
        assert e.value == expected, (metric, keywords)
        assert isinstance(e.value, float)


@pytest.mark.parametrize("seed", range(3))
def test_per_user_rows_by_plain_python(seed):
    rng = np.random.default_rng(10 + seed)
    lists = random_lists(rng)
    counts = {f"i{j}": int(rng.integers(1, 60)) for j in range(15)}
    e = rm.explain("average_popularity", lists, interactions=counts)
    assert [r["value"] for r in e.rows] == pytest.approx(
        [sum(counts[i] for i in items) / len(items) for items in lists.values()], rel=1e-14
    )
    e = rm.explain("entropy", lists)
    times = Counter(i for items in lists.values() for i in items)
    total = sum(times.values())
    assert {r["item"]: r["count"] for r in e.rows} == times
    assert e.value == pytest.approx(-sum(c / total * math.log(c / total) for c in times.values()), rel=1e-13)


# ---------------------------------------------------------------- what explain refuses, and the Korean


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rm.explain("coverage", LISTS, catalog="abcdef", decimals=2), "decimals"),
        (lambda: rm.explain("ips", REWARDS, 3, target_p=TARGET, logging_p=LOGGING), "k=3"),
        (lambda: rm.explain("coverage", LISTS), "catalog="),
        (lambda: rm.explain("entropy", LISTS, catalog="abc"), "'catalog'"),
        (
            lambda: rm.explain("sampled_expectation", "HR@10", ranks=[3, 4], n_items=50, n_negatives=5),
            "ranks",
        ),
        (lambda: rm.explain("gini_index", LISTS, catalog="abc"), "catalog"),  # the metric's own check
    ],
)
def test_bad_calls_are_refused_by_name(call, message):
    with rm.use_language("en"), pytest.raises(ValueError, match=message):
        call()


def test_the_tables_speak_korean():
    with rm.use_language("ko"):
        text = str(rm.explain("novelty", LISTS, interactions=COUNTS))
        ips = str(rm.explain("ips", REWARDS, target_p=TARGET, logging_p=LOGGING))
    assert "목록마다 평균을 내고, 다시 사용자 평균" in text and "사용자" in text
    assert "무게 w는 target_p ÷ logging_p입니다." in ips and "기록된 회차 수 n = 6" in ips


def test_gini_names_the_unrecommended_items_only_when_there_are_some():
    with rm.use_language("en"):
        some = rm.explain("gini_index", LISTS, catalog="abcdef").steps
        none = rm.explain("gini_index", LISTS, catalog="abcde").steps
    assert some[0].startswith("the 1 catalogue items never recommended") and len(some) == 2
    # n = 5, x ascending 1, 1, 2, 2, 3 at j = 1..5: -4 - 2 + 0 + 4 + 12 = 10, ÷ (5 × 9)
    assert none == ["Gini = Σ (2j − n − 1) x ÷ (n × Σ x) = 10 ÷ (5 × 9) = 0.2222"]


def test_arrays_and_frames_as_the_functions_take_them():
    rng = np.random.default_rng(4)
    recs = np.array([[0, 3, 5, -1], [1, 2, 3, 4], [5, 0, -1, -1]])  # padded with -1
    features = rng.random((6, 4)) < 0.5
    features[:, 0] = True  # every item has a feature
    counts = np.array([5.0, 4, 3, 2, 1, 9])
    for metric, keywords in [
        ("intra_list_diversity", {"features": features}),
        ("coverage", {"catalog": np.arange(8)}),
        ("gini_index", {"catalog": np.arange(8)}),
        ("novelty", {"interactions": counts}),
        ("long_tail_share", {"interactions": counts}),
    ]:
        assert rm.explain(metric, recs, k=3, **keywords).value == getattr(rm, metric)(recs, k=3, **keywords)
    # user 0's top 3: items 0, 3, 5 -> counts 5, 2, 9
    assert rm.explain("average_popularity", recs, k=3, interactions=counts).rows[0]["sum"] == 16
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(
        {"user_id": ["x", "x", "y", "y"], "item_id": ["a", "b", "a", "c"], "score": [0.9, 0.5, 0.3, 0.8]}
    )
    history = pd.DataFrame({"user_id": ["x", "y", "y"], "item_id": ["a", "c", "b"]})
    genres = {"a": ["p"], "b": ["q", "p"], "c": ["q"]}
    e = rm.explain("calibration_kl", history, recs=frame, genres=genres)
    assert e.value == rm.calibration_kl(history, frame, genres)
    assert [r["list"] for r in rm.explain("novelty", frame, interactions=history).rows] == ["a, b", "c, a"]
