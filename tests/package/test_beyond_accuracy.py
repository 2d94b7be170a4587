"""Beyond-accuracy measures: the toy values of issue 31 §4 by hand, the recorded library values,
a plain-Python re-implementation on random lists, the three input forms and bad input.

Toy (issue 31 §4): catalogue a–f; interaction counts a 50, b 30, c 10, d 5, e 4, f 1
(100 in all); lists u1 = [a, b, c], u2 = [a, b, d], u3 = [a, c, e]; genres a {action},
b {action, comedy}, c {drama}, d {comedy}, e {drama, romance}.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rankmetrics as rm
from rankmetrics.metrics import item_attributes

RECORD = json.loads(
    (Path(__file__).parent / "data" / "recsys_library_values.json").read_text(encoding="utf-8")
)
TOY = RECORD["datasets"]["toy"]
LISTS = TOY["lists"]
COUNTS = TOY["counts"]
CATALOG = TOY["catalog"]
GENRES = {item: set(g) for item, g in TOY["genres"].items()}
# One training row per interaction (a 50 times, ...), as the recorded libraries were given them.
TRAIN = pd.DataFrame(
    [(f"t{n:03d}", item) for item, count in COUNTS.items() for n in range(count)],
    columns=["user_id", "item_id"],
)


def test_the_recorded_toy_is_the_issue_toy():
    assert LISTS == {"u1": ["a", "b", "c"], "u2": ["a", "b", "d"], "u3": ["a", "c", "e"]}
    assert COUNTS == {"a": 50, "b": 30, "c": 10, "d": 5, "e": 4, "f": 1}
    assert CATALOG == list("abcdef")


# ---------------------------------------------------------------- the toy values by hand


def test_coverage_toy():
    # recommended {a, b, c, d, e}: 5 of the 6 catalogue items
    assert rm.coverage(LISTS, CATALOG) == pytest.approx(5 / 6)
    assert rm.coverage(LISTS, CATALOG, count=True) == 5.0
    # at k=1 every list shows only a: 1 of 6
    assert rm.coverage(LISTS, CATALOG, k=1) == pytest.approx(1 / 6)


def test_novelty_toy():
    # self-information −log2(count/100): a 1, b 1.737, c 3.322, d 4.322, e 4.644 bits;
    # u1 (1 + 1.737 + 3.322)/3, u2 (1 + 1.737 + 4.322)/3, u3 (1 + 3.322 + 4.644)/3; their mean
    bits = {i: -math.log2(c / 100) for i, c in COUNTS.items()}
    expected = sum(sum(bits[i] for i in items) / 3 for items in LISTS.values()) / 3
    assert rm.novelty(LISTS, COUNTS) == pytest.approx(expected)
    assert round(expected, 4) == 2.4537
    assert rm.novelty(LISTS, TRAIN) == pytest.approx(expected)  # the DataFrame counts the same
    # nats instead of bits: the same sum times ln 2
    assert rm.novelty(LISTS, COUNTS, base=math.e) == pytest.approx(expected * math.log(2))


def test_average_popularity_toy():
    # u1 (50 + 30 + 10)/3 = 30, u2 (50 + 30 + 5)/3 = 28.33, u3 (50 + 10 + 4)/3 = 21.33; mean 26.556
    expected = (90 / 3 + 85 / 3 + 64 / 3) / 3
    assert rm.average_popularity(LISTS, COUNTS) == pytest.approx(expected)
    assert round(expected, 3) == 26.556


def test_long_tail_share_toy():
    # head: a (50 < 80 before it), b (50 before it < 80); c has 80 above it, so the tail is c, d, e, f.
    # u1 [a, b, c] 1/3, u2 [a, b, d] 1/3, u3 [a, c, e] 2/3: mean 4/9
    assert rm.long_tail_share(LISTS, COUNTS) == pytest.approx(4 / 9)
    # head_share 0.5: a alone holds 50 (nothing above it), so b is in the tail too:
    # u1 2/3, u2 2/3, u3 2/3
    assert rm.long_tail_share(LISTS, COUNTS, head_share=0.5) == pytest.approx(2 / 3)
    # RecBole's tail_ratio 0.5: the int(6 × 0.5) = 3 least interacted, f, e, d: u1 0, u2 1/3, u3 1/3
    assert rm.long_tail_share(LISTS, COUNTS, tail_ratio=0.5) == pytest.approx(2 / 9)


def test_gini_index_toy():
    # counts over the catalogue, ascending: f 0, d 1, e 1, b 2, c 2, a 3 (n = 6, Σ = 9);
    # Σ (2j − 7) x_j = −5·0 − 3·1 − 1·1 + 1·2 + 3·2 + 5·3 = 19; 19 / (6 · 9) = 0.3519
    assert rm.gini_index(LISTS, CATALOG) == pytest.approx(19 / 54)
    # the same by the mean absolute difference Σ_i Σ_j |x_i − x_j| / (2 n² mean)
    x = [3, 2, 2, 1, 1, 0]
    assert 19 / 54 == pytest.approx(sum(abs(a - b) for a in x for b in x) / (2 * 36 * (9 / 6)))


def test_entropy_toy():
    # shares a 3/9, b 2/9, c 2/9, d 1/9, e 1/9: −Σ p ln p = 1.5230 nats
    shares = [3 / 9, 2 / 9, 2 / 9, 1 / 9, 1 / 9]
    expected = -sum(p * math.log(p) for p in shares)
    assert rm.entropy(LISTS) == pytest.approx(expected)
    assert round(expected, 4) == 1.523
    assert rm.entropy(LISTS, base=2) == pytest.approx(expected / math.log(2))


def test_intra_list_diversity_toy():
    # Jaccard distances: u1 a–b 1/2, a–c 1, b–c 1 → 5/6; u2 a–b 1/2, a–d 1, b–d 1/2 → 2/3;
    # u3 a–c 1, a–e 1, c–e 1/2 → 5/6; mean 7/9
    assert rm.intra_list_diversity(LISTS, GENRES) == pytest.approx(7 / 9)
    # cosine distance 1 − |A∩B|/√(|A||B|): a–b 1 − 1/√2, b–d 1 − 1/√2, c–e 1 − 1/√2, the rest 1
    half = 1 - 1 / math.sqrt(2)
    expected = ((half + 2) / 3 + (2 * half + 1) / 3 + (half + 2) / 3) / 3
    assert rm.intra_list_diversity(LISTS, GENRES, distance="cosine") == pytest.approx(expected)


def test_calibration_kl_toy():
    # history: 7 romance, 3 action items, p = (0.7, 0.3); the list: romance only, q = (1, 0).
    # q̃ = 0.99 q + 0.01 p = (0.997, 0.003); 0.7 ln(0.7/0.997) + 0.3 ln(0.3/0.003) = 1.1340
    history = {"u": [f"r{i}" for i in range(7)] + [f"a{i}" for i in range(3)]}
    genres = {f"r{i}": ["romance"] for i in range(7)} | {f"a{i}": ["action"] for i in range(3)}
    expected = 0.7 * math.log(0.7 / 0.997) + 0.3 * math.log(0.3 / 0.003)
    assert rm.calibration_kl(history, {"u": ["r0", "r1", "r2"]}, genres) == pytest.approx(expected)
    assert round(expected, 4) == 1.134
    # a list with the history's proportions (7 romance : 3 action) is calibrated: 0
    assert rm.calibration_kl(history, history, genres) == pytest.approx(0.0, abs=1e-12)
    # an item with two genres spreads 1/2 to each: history [x {romance, action}], list [r0]:
    # p = (1/2, 1/2), q = (1, 0), q̃ = (0.995, 0.005)
    mixed = {"u": ["x"]}
    expected = 0.5 * math.log(0.5 / 0.995) + 0.5 * math.log(0.5 / 0.005)
    assert rm.calibration_kl(mixed, {"u": ["r0"]}, genres | {"x": ["romance", "action"]}) == pytest.approx(
        expected
    )


def test_exposure_toy():
    # one list a, b, c, d: exposures 1, 1/log2 3, 1/2, 1/log2 5; a, c big; b, d small
    e = [1, 1 / math.log2(3), 1 / 2, 1 / math.log2(5)]
    shares = rm.exposure({"u": list("abcd")}, {"a": "big", "b": "small", "c": "big", "d": "small"})
    assert list(shares) == ["big", "small"]
    assert shares["big"] == pytest.approx((e[0] + e[2]) / sum(e))
    assert shares["small"] == pytest.approx((e[1] + e[3]) / sum(e))
    # a group that is never shown gets 0, and is still listed
    shares = rm.exposure({"u": ["a"]}, {"a": "big", "z": "unseen"})
    assert shares == {"big": 1.0, "unseen": 0.0}


# ---------------------------------------------------------------- each library's variant, recorded


def _recorded(library: str, measure: str) -> float:
    value = RECORD["libraries"][library].get("beyond", {}).get(measure)
    if not isinstance(value, float):
        pytest.skip(f"{library} {measure} was not recorded: {value}")
    return value


def test_recbole_variants():
    calls = RECORD["libraries"]["recbole"]["beyond"]["calls"]
    assert "num_items = 7 (with [PAD])" in calls["data"] and "tail_ratio = 0.1" in calls["data"]
    assert rm.coverage(LISTS, CATALOG, padding_item=True) == pytest.approx(
        _recorded("recbole", "ItemCoverage")
    )
    assert rm.gini_index(LISTS, CATALOG, padding_item=True) == pytest.approx(
        _recorded("recbole", "GiniIndex")
    )
    assert rm.average_popularity(LISTS, COUNTS) == pytest.approx(_recorded("recbole", "AveragePopularity"))
    assert rm.entropy(LISTS, normalize="distinct_items") == pytest.approx(
        _recorded("recbole", "ShannonEntropy")
    )
    assert rm.long_tail_share(LISTS, COUNTS, tail_ratio=0.1) == pytest.approx(
        _recorded("recbole", "TailPercentage")
    )


def test_recommenders_variants():
    train_items = sorted(set(TRAIN["item_id"]))
    assert rm.novelty(LISTS, TRAIN) == pytest.approx(_recorded("recommenders", "novelty"))
    assert rm.novelty(LISTS, TRAIN, average="recommendations") == pytest.approx(
        _recorded("recommenders", "novelty")
    )
    assert rm.coverage(LISTS, train_items) == pytest.approx(_recorded("recommenders", "catalog_coverage"))
    assert rm.entropy(LISTS, base=2) == pytest.approx(_recorded("recommenders", "distributional_coverage"))


def test_daisyrec_and_replay_variants():
    assert rm.coverage(LISTS, CATALOG) == pytest.approx(_recorded("daisyrec", "coverage"))
    euclidean = rm.intra_list_diversity(LISTS, GENRES, distance="euclidean")
    assert euclidean == pytest.approx(_recorded("daisyrec", "diversity_euclidean"))
    assert rm.coverage(LISTS, sorted(set(TRAIN["item_id"]))) == pytest.approx(_recorded("replay", "Coverage"))


# ---------------------------------------------------------------- plain Python on random data


def _random_case(seed: int):
    rng = np.random.default_rng(seed)
    n_items = int(rng.integers(5, 40))
    catalog = [f"i{j}" for j in range(n_items)]
    lists = {}
    for u in range(int(rng.integers(1, 30))):
        length = int(rng.integers(2, min(n_items, 12) + 1))
        lists[f"u{u}"] = [catalog[j] for j in rng.choice(n_items, size=length, replace=False)]
    counts = {item: int(c) for item, c in zip(catalog, rng.integers(1, 60, size=n_items))}
    features = {
        item: set(rng.choice(6, size=int(rng.integers(1, 4)), replace=False).tolist()) for item in catalog
    }
    k = int(rng.integers(2, 12)) if rng.random() < 0.5 else None
    return catalog, lists, counts, features, k


def _cut(lists, k):
    return {u: items[:k] for u, items in lists.items()}


def _head(counts, share):
    # Elliot's loop: take items by descending count while interactions remain under the limit.
    limit, head = sum(counts.values()) * share, set()
    for item, c in sorted(counts.items(), key=lambda kv: -kv[1]):
        head.add(item)
        limit -= c
        if limit <= 0:
            break
    return head


def _distance(a, b, kind):
    shared = len(a & b)
    if kind == "jaccard":
        return 1 - shared / len(a | b)
    if kind == "cosine":
        return 1 - shared / math.sqrt(len(a) * len(b))
    return math.sqrt(len(a ^ b))  # 0/1 rows differ in the symmetric difference


@pytest.mark.parametrize("seed", range(25))
def test_against_plain_python(seed):
    catalog, lists, counts, features, k = _random_case(seed)
    cut = _cut(lists, k)
    shown = Counter(i for items in cut.values() for i in items)
    total = sum(counts.values())
    mean = lambda values: sum(values) / len(values)
    assert rm.coverage(lists, catalog, k) == pytest.approx(len(shown) / len(catalog))
    assert rm.novelty(lists, counts, k) == pytest.approx(
        mean([mean([-math.log2(counts[i] / total) for i in items]) for items in cut.values()])
    )
    assert rm.average_popularity(lists, counts, k) == pytest.approx(
        mean([mean([counts[i] for i in items]) for items in cut.values()])
    )
    for share in (0.5, 0.8):
        head = _head(counts, share)
        assert rm.long_tail_share(lists, counts, k, share) == pytest.approx(
            mean([mean([i not in head for i in items]) for items in cut.values()])
        )
    x = [shown.get(i, 0) for i in catalog]
    gini = sum(abs(a - b) for a in x for b in x) / (2 * len(x) ** 2 * mean(x))
    assert rm.gini_index(lists, catalog, k) == pytest.approx(gini)
    n = sum(shown.values())
    assert rm.entropy(lists, k) == pytest.approx(-sum(c / n * math.log(c / n) for c in shown.values()))
    for kind in item_attributes.DISTANCES:
        expected = mean(
            [
                mean([_distance(features[a], features[b], kind) for a, b in itertools.combinations(items, 2)])
                for items in cut.values()
            ]
        )
        assert rm.intra_list_diversity(lists, features, k, distance=kind) == pytest.approx(expected)
    groups = {item: int(features[item].pop() % 3) for item in catalog}  # any grouping of the items
    exposed = Counter()
    for items in cut.values():
        for rank, item in enumerate(items, start=1):
            exposed[groups[item]] += 1 / math.log2(1 + rank)
    shares = rm.exposure(lists, groups, k)
    assert sum(shares.values()) == pytest.approx(1.0)
    for group, share in shares.items():
        assert share == pytest.approx(exposed[group] / sum(exposed.values()))


@pytest.mark.parametrize("seed", range(10))
def test_calibration_against_plain_python(seed):
    catalog, lists, _counts, features, k = _random_case(seed)
    rng = np.random.default_rng(100 + seed)
    genres = {item: sorted(f) for item, f in features.items()}
    history = {
        u: [catalog[j] for j in rng.integers(0, len(catalog), size=int(rng.integers(1, 15)))] for u in lists
    }
    names = sorted({g for gs in genres.values() for g in gs})

    def shares(items):
        return [sum((g in genres[i]) / len(genres[i]) for i in items) / len(items) for g in names]

    values = []
    for user, items in _cut(lists, k).items():
        p, q = shares(history[user]), shares(items)
        values.append(sum(pg * math.log(pg / (0.99 * qg + 0.01 * pg)) for pg, qg in zip(p, q) if pg > 0))
    assert rm.calibration_kl(history, lists, genres, k) == pytest.approx(sum(values) / len(values))
    frame = pd.DataFrame(
        [(u, i) for u, items in history.items() for i in items], columns=["user_id", "item_id"]
    )
    assert rm.calibration_kl(frame, lists, genres, k) == pytest.approx(sum(values) / len(values))


def test_large_feature_sets_take_the_chunked_path(monkeypatch):
    # Above MAX_FEATURE_SETS the pairs' intersections are computed from the features: same values.
    _catalog, lists, _counts, features, k = _random_case(3)
    table = {d: rm.intra_list_diversity(lists, features, k, distance=d) for d in item_attributes.DISTANCES}
    monkeypatch.setattr(item_attributes, "MAX_FEATURE_SETS", 1)
    for d, value in table.items():
        assert rm.intra_list_diversity(lists, features, k, distance=d) == pytest.approx(value)


@pytest.mark.parametrize("factor", [0, 1000])
def test_pair_lookups_and_histogram_products_agree(monkeypatch, factor):
    # factor 0: every pair looked up in the table; 1000: ½ hᵀ D h per list. Both against plain Python.
    monkeypatch.setattr(item_attributes, "HISTOGRAM_FACTOR", factor)
    for seed in range(8):
        _catalog, lists, _counts, features, k = _random_case(seed)
        for kind in item_attributes.DISTANCES:
            expected = np.mean(
                [
                    np.mean(
                        [
                            _distance(features[a], features[b], kind)
                            for a, b in itertools.combinations(items, 2)
                        ]
                    )
                    for items in _cut(lists, k).values()
                ]
            )
            assert rm.intra_list_diversity(lists, features, k, distance=kind) == pytest.approx(expected)


# ---------------------------------------------------------------- the three input forms


def test_the_three_forms_agree():
    catalog, lists, counts, features, _k = _random_case(7)
    index = {item: j for j, item in enumerate(catalog)}
    width = max(map(len, lists.values()))
    array = np.full((len(lists), width), -1)
    rows = []
    for r, (user, items) in enumerate(lists.items()):
        array[r, : len(items)] = [index[i] for i in items]
        rows += [(user, item, len(items) - rank) for rank, item in enumerate(items)]  # score: higher first
    frame = pd.DataFrame(rows, columns=["user_id", "item_id", "score"]).sample(frac=1, random_state=0)
    by_rank = frame.assign(rank=-frame["score"]).drop(columns="score")
    scored = {u: {item: len(items) - r for r, item in enumerate(items)} for u, items in lists.items()}
    by_id = lambda mapping: {index[i]: v for i, v in mapping.items()}
    for k in (None, 3):
        expected = rm.novelty(lists, counts, k)
        for form in (frame, by_rank, scored):
            assert rm.novelty(form, counts, k) == pytest.approx(expected)
        assert rm.novelty(array, by_id(counts), k) == pytest.approx(expected)
        counts_array = np.array([counts[i] for i in catalog])
        assert rm.novelty(array, counts_array, k) == pytest.approx(expected)
        assert rm.gini_index(array, np.arange(len(catalog)), k) == pytest.approx(
            rm.gini_index(lists, catalog, k)
        )
        boolean = np.array([[f in features[i] for f in range(6)] for i in catalog])
        assert rm.intra_list_diversity(array, boolean, k) == pytest.approx(
            rm.intra_list_diversity(lists, features, k)
        )
        assert rm.long_tail_share(array, counts_array, k) == pytest.approx(
            rm.long_tail_share(lists, counts, k)
        )
    checked = rm.recommendation_lists(frame, 3)
    assert rm.entropy(checked) == pytest.approx(rm.entropy(lists, 3))  # checked lists are only cut


def test_equal_scores_keep_the_input_order():
    lists = rm.recommendation_lists({"u": {"a": 1.0, "b": 2.0, "c": 1.0}})
    assert [lists.items[c] for c in lists.codes[0]] == ["b", "a", "c"]


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "recs, words",
    [
        ({"u1": ["a", "b", "a"]}, "twice"),
        ({"u1": []}, "'u1' is empty"),
        ({"u1": {"a": 1.0, "b": float("nan")}}, "NaN"),
        ({}, "no users"),
        (np.array([[1, 2, 1]]), "item 1 appears twice"),
        (np.array([[1, -1, 2]]), "-1 may only pad the end"),
        (np.array([[-1, -1], [1, 2]]), "user 0 is empty"),
        (np.array([[1, -3]]), "recs[0, 1] is -3"),
        (np.array([[0.5, 1.0]]), "2-D integer"),
        ("abc", "must be a dict"),
        (
            pd.DataFrame({"user_id": ["u", "u"], "item_id": ["a", "a"], "score": [1, 2]}),
            "item 'a' appears twice",
        ),
        (
            pd.DataFrame({"user_id": ["u"], "item_id": ["a"], "score": [float("nan")]}),
            "column 'score', row 0",
        ),
        (pd.DataFrame({"user_id": ["u"], "item_id": ["a"]}), "score or rank"),
    ],
)
def test_bad_lists_name_the_argument_and_value(recs, words):
    with pytest.raises(ValueError, match="recs") as error:
        rm.coverage(recs, catalog=["a", "b", 0, 1, 2])
    assert words in str(error.value)


def test_bad_arguments_of_the_measures():
    with pytest.raises(
        ValueError, match="catalog has no entry for item 'e', recommended to user 'u3' at rank 3"
    ):
        rm.coverage(LISTS, catalog=list("abcd"))
    with pytest.raises(ValueError, match="catalog lists an item twice"):
        rm.gini_index(LISTS, catalog=list("abcdea"))
    with pytest.raises(ValueError, match="interactions has no entry for item 'e'"):
        rm.novelty(LISTS, {"a": 1, "b": 1, "c": 1, "d": 1})  # e's information would be infinite
    with pytest.raises(ValueError, match="interactions must hold counts"):
        rm.average_popularity(LISTS, {"a": -1})
    with pytest.raises(ValueError, match="features has no entry for item 'e'"):
        rm.intra_list_diversity(LISTS, {i: GENRES[i] for i in "abcd"})
    with pytest.raises(ValueError, match="user 'u' has one item"):
        rm.intra_list_diversity({"u": ["a"]}, GENRES)
    with pytest.raises(ValueError, match="distance must be one of"):
        rm.intra_list_diversity(LISTS, GENRES, distance="hamming")
    with pytest.raises(ValueError, match="history has no items for user 'u2'"):
        rm.calibration_kl({"u1": ["a"]}, LISTS, GENRES)  # an unknown user
    with pytest.raises(
        ValueError, match="genres has no entry for item 'z' \\(in the history of user 'u1'\\)"
    ):
        rm.calibration_kl({u: ["z"] for u in LISTS}, LISTS, GENRES)
    with pytest.raises(ValueError, match="genres has no entry for item 'e', recommended to user 'u3'"):
        rm.calibration_kl(LISTS, LISTS, {i: GENRES[i] for i in "abcd"})
    with pytest.raises(ValueError, match="alpha must be a number in"):
        rm.calibration_kl(LISTS, LISTS, GENRES, alpha=0)
    with pytest.raises(ValueError, match="groups has no entry for item 'c'"):
        rm.exposure(LISTS, {"a": 0, "b": 1})
    with pytest.raises(ValueError, match="head_share must be a number between 0 and 1; got 1.5"):
        rm.long_tail_share(LISTS, COUNTS, head_share=1.5)
    with pytest.raises(ValueError, match="normalize must be one of"):
        rm.entropy(LISTS, normalize="catalog")
    with pytest.raises(ValueError, match="k must be a positive integer"):
        rm.entropy(LISTS, k=0)


def test_korean_message():
    with rm.use_language("ko"), pytest.raises(ValueError, match="두 번 있습니다"):
        rm.entropy(np.array([[1, 1]]))


def test_array_checks_name_the_row_in_any_chunk(monkeypatch):
    # The array is checked a chunk of rows at a time; a bad row in a later chunk keeps its own number.
    from rankmetrics.metrics import recommendation_lists as module

    monkeypatch.setattr(module, "_CHUNK_ENTRIES", 4)  # two rows of two per chunk
    rows = np.array([[0, 1], [1, 2], [2, 3], [3, 4], [5, 5], [6, -1]])
    with pytest.raises(ValueError, match="item 5 appears twice in the list of user 4"):
        rm.entropy(rows)
    rows[4] = [-1, 5]
    with pytest.raises(ValueError, match=r"recs\[4\] has -1 at rank 1 before an item"):
        rm.entropy(rows)
    rows[4] = [-1, -1]
    with pytest.raises(ValueError, match="the list of user 4 is empty"):
        rm.entropy(rows)
    rows[4] = [5, 7]
    # counts and per-user sums in chunks too: 8 distinct items; each count is the item id
    assert rm.coverage(rows, np.arange(8), count=True) == 8.0
    assert rm.average_popularity(rows, np.arange(8)) == pytest.approx(np.mean([0.5, 1.5, 2.5, 3.5, 6, 6]))


def test_chunked_measures_agree_with_one_chunk(monkeypatch):
    # Every measure that reads the lists a chunk of users at a time gives the one-chunk value.
    from rankmetrics.metrics import recommendation_lists as module

    cases = [_random_case(seed) for seed in range(6)]
    histories = [{u: items[::-1] for u, items in case[1].items()} for case in cases]

    def values():
        out = []
        for (catalog, lists, counts, features, k), history in zip(cases, histories):
            genres = {item: sorted(f) for item, f in features.items()}
            out += [
                rm.calibration_kl(history, lists, genres, k),
                rm.novelty(lists, counts, k),
                rm.gini_index(lists, catalog, k),
                rm.intra_list_diversity(lists, features, k),
                *rm.exposure(lists, {item: len(features[item]) for item in catalog}, k).values(),
            ]
        return out

    whole = values()
    monkeypatch.setattr(module, "_CHUNK_ENTRIES", 7)
    monkeypatch.setattr(item_attributes, "_CHUNK_ENTRIES", 7)
    assert values() == pytest.approx(whole)


@pytest.mark.parametrize("seed", range(6))
def test_renaming_items_and_users_changes_nothing(seed):
    catalog, lists, counts, features, k = _random_case(seed)
    rng = np.random.default_rng(seed)
    new_name = dict(zip(catalog, rng.permutation(len(catalog)).tolist()))  # items become shuffled integers
    renamed = {f"user-{u}": [new_name[i] for i in items] for u, items in reversed(list(lists.items()))}
    renamed_counts = {new_name[i]: c for i, c in counts.items()}
    renamed_features = {new_name[i]: f for i, f in features.items()}
    renamed_catalog = [new_name[i] for i in catalog]
    pairs = [
        (rm.coverage(lists, catalog, k), rm.coverage(renamed, renamed_catalog, k)),
        (rm.novelty(lists, counts, k), rm.novelty(renamed, renamed_counts, k)),
        (rm.average_popularity(lists, counts, k), rm.average_popularity(renamed, renamed_counts, k)),
        (rm.long_tail_share(lists, counts, k), rm.long_tail_share(renamed, renamed_counts, k)),
        (rm.gini_index(lists, catalog, k), rm.gini_index(renamed, renamed_catalog, k)),
        (rm.entropy(lists, k), rm.entropy(renamed, k)),
        (rm.intra_list_diversity(lists, features, k), rm.intra_list_diversity(renamed, renamed_features, k)),
    ]
    for before, after in pairs:
        assert after == pytest.approx(before)
    assert 0 <= pairs[4][0] < 1 and 0 < pairs[0][0] <= 1  # a Gini index and a share
