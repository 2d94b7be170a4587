"""The recorded recommender-library values (benchmarks/recsys_library_values.py) hold together.

The JSON is the proof the ``like=`` presets of issue 31 are tested against, so its layout
and a few values are checked here against hand computations on the seed list
(recommendations A, B, C, D, E; relevant B, D, F, G: hits at ranks 2 and 4, |R| = 4).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

RECORD = json.loads(
    (Path(__file__).parent / "data" / "recsys_library_values.json").read_text(encoding="utf-8")
)
LIBRARIES = RECORD["libraries"]
RAN = sorted(name for name, lib in LIBRARIES.items() if lib["installed"])


def discounted(ranks, discount=lambda i: 1 / math.log2(i + 1)):
    return sum(discount(i) for i in ranks)


# nDCG@5 of the seed list by hand: hits at ranks 2 and 4, under each library's ideal.
HITS = discounted([2, 4])
NDCG5 = {
    "min(k,|R|) ones": HITS
    / discounted([1, 2, 3, 4]),  # (1/log2 3 + 1/log2 5) / (1 + 1/log2 3 + 1/2 + 1/log2 5)
    "hits in the list": HITS / discounted([1, 2]),  # the list's own two hits moved to the top
    "k ones": HITS / discounted([1, 2, 3, 4, 5]),
}
# LensKit's default discount 1/max(1, log2 i): ranks 1 and 2 both weigh 1.
CLIPPED = lambda i: 1 / max(1.0, math.log2(i))
NDCG5["clipped discount"] = discounted([2, 4], CLIPPED) / discounted([1, 2, 3, 4], CLIPPED)

# Which convention each recorded library follows on the seed list (hand values above),
# and AP@3: one hit (B at rank 2, precision 1/2) divided by each library's denominator.
EXPECTED = {
    "recbole": ("min(k,|R|) ones", 0.5 / 3),
    "recommenders": ("min(k,|R|) ones", 0.5 / 3),
    "daisyrec": ("hits in the list", 0.5 / 1),
    "torchmetrics": ("hits in the list", 0.5 / 1),
    "lenskit": ("clipped discount", 0.5 / 3),
    "implicit": ("min(k,|R|) ones", 0.5 / 3),
    "replay": ("min(k,|R|) ones", 0.5 / 3),
    "rectools": ("k ones", 0.5 / 4),
    "evidently": ("min(k,|R|) ones", 0.5 / 4),
}


def seed_value(library: str, measure: str) -> float:
    found = LIBRARIES[library]["values"]["seed_list"][measure]
    assert found["per_user"]["u1"] == pytest.approx(found["mean"], abs=1e-12)
    return found["mean"]


def test_layout():
    assert RECORD["ks"] == {"seed_list": [1, 2, 3, 4, 5, 10], "random": [1, 3, 5, 10]}
    data = RECORD["datasets"]["random"]
    assert len(data["users"]) == 30 and len(data["items"]) == 20
    # The random data hold every awkward case the brief lists.
    assert any(not data["test"][u] for u in data["users"])
    assert any(not data["recommendations"][u] for u in data["users"])
    assert any(0 < len(data["recommendations"][u]) < 5 for u in data["users"])
    assert any(set(data["seen"][u]) & {i for i, _ in data["recommendations"][u]} for u in data["users"])
    assert any(max(data["test"][u].values(), default=0) > 1 for u in data["users"])
    for user in data["users"]:
        scores = [s for _, s in data["recommendations"][user]]
        assert scores == sorted(scores, reverse=True)
        assert not set(data["seen"][user]) & set(data["test"][user])
    assert set(EXPECTED) | {"cornac"} == set(RAN)  # all ten libraries ran
    for name in RAN:
        lib = LIBRARIES[name]
        assert lib["version"] and lib["environment"] in ("np1", "np2")
        for dataset in ("seed_list", "random"):
            for measure, found in lib["values"][dataset].items():
                assert measure.split("@")[0] in ("P", "R", "HR", "MRR", "MAP", "nDCG"), measure
                if "error" in found:
                    continue
                assert set(found["per_user"]) <= set(RECORD["datasets"][dataset]["users"])
                assert {"mean", "mean_call", "mean_matches"} <= set(found)


@pytest.mark.parametrize("library", sorted(EXPECTED))
def test_seed_list_by_hand(library):
    ideal, ap3 = EXPECTED[library]
    assert seed_value(library, "nDCG@5") == pytest.approx(NDCG5[ideal], abs=1e-6)  # torchmetrics: float32
    assert seed_value(library, "MAP@3") == pytest.approx(ap3, abs=1e-6)
    # implicit's "precision" divides the hits by min(K, |R|) = 4, not by K = 5.
    assert seed_value(library, "P@5") == pytest.approx(2 / 4 if library == "implicit" else 2 / 5, abs=1e-6)
    if "MRR@5" in LIBRARIES[library]["values"]["seed_list"]:  # Recommenders has no MRR
        assert seed_value(library, "MRR@5") == pytest.approx(1 / 2, abs=1e-6)


def test_the_hand_ideals_differ():
    # The four nDCG@5 values of issue 31, to four places, from the formulas above.
    assert [
        round(NDCG5[k], 4) for k in ("min(k,|R|) ones", "k ones", "hits in the list", "clipped discount")
    ] == [0.4144, 0.3601, 0.6509, 0.4791]


def test_recbole_averages_over_users_with_test_items():
    data = RECORD["datasets"]["random"]
    with_test = {u for u in data["users"] if data["test"][u]}
    for measure, found in LIBRARIES["recbole"]["values"]["random"].items():
        assert set(found["per_user"]) == with_test, measure
        assert "with_test" in found["mean_matches"], measure


def test_recommenders_averages_ndcg_over_another_user_set():
    values = LIBRARIES["recommenders"]["values"]["random"]
    assert values["P@10"]["mean_matches"] == ["with_both"]
    assert values["nDCG@10"]["mean_matches"] == ["with_test"]


def test_lenskit_average_precision_crashes_on_a_user_without_test_items():
    data = RECORD["datasets"]["random"]
    found = LIBRARIES["lenskit"]["values"]["random"]["MAP@10"]
    for user in data["users"]:
        if not data["test"][user] and data["recommendations"][user]:
            assert found["per_user"][user]["error"].startswith("ZeroDivisionError")
    assert found["mean"]["error"].startswith("ZeroDivisionError")


def test_cornac_on_the_seed_list():
    # No cutoff for MRR and MAP: MAP = (1/2 + 2/4) / 2 over the two hits in the list.
    assert seed_value("cornac", "nDCG@5") == pytest.approx(NDCG5["min(k,|R|) ones"], abs=1e-12)
    assert seed_value("cornac", "MRR") == pytest.approx(1 / 2, abs=1e-12)
    assert seed_value("cornac", "MAP") == pytest.approx((1 / 2 + 2 / 4) / 2, abs=1e-12)
    assert seed_value("cornac", "P@10") == pytest.approx(
        2 / 10, abs=1e-12
    )  # divided by k, not by the 5 listed


def test_implicit_precision_is_micro_averaged():
    data = RECORD["datasets"]["random"]
    values = LIBRARIES["implicit"]["values"]["random"]
    for k in (5, 10):
        found = values[f"P@{k}"]
        # Sum of hits over sum of min(K, |R|): weight each user's value by min(K, |R|).
        weights = {u: min(k, len(data["test"][u])) for u in found["per_user"]}
        micro = sum(found["per_user"][u] * w for u, w in weights.items()) / sum(weights.values())
        assert found["mean"] == pytest.approx(micro, abs=1e-9)
        assert found["mean_matches"] == []  # no plain mean over users gives it


def test_evidently_leaves_zero_one_on_tied_scores():
    # Two relevant items tied first: both get rank int((1 + 2) / 2) = 1, so P@1 counts two hits
    # in one place (P@1 = 2) and the average precision built from it exceeds 1.
    probe = LIBRARIES["evidently"]["tie_probe"]
    assert probe["two relevant items tied first"]["MAP@2"] > 1
    # Four relevant items tied: all at rank int(2.5) = 2, so P@2 = 4 / 2.
    assert probe["four relevant items tied"]["P@2"] == pytest.approx(4 / 2)
    assert probe["four relevant items tied"]["nDCG@2"] > 1


def test_evidently_fails_when_k_exceeds_the_rows_of_every_user():
    # The seed list has 7 catalogue items: k = 10 asks for a value Evidently never computed.
    assert LIBRARIES["evidently"]["values"]["seed_list"]["P@10"]["mean"]["error"].startswith("KeyError")


def test_recbole_beyond_accuracy_on_the_toy():
    toy = RECORD["datasets"]["toy"]
    beyond = LIBRARIES["recbole"]["beyond"]
    lists = toy["lists"].values()
    # Mean over users of the mean training count of the listed items: (90/3 + 85/3 + 64/3) / 3.
    by_hand = sum(sum(toy["counts"][i] for i in items) / len(items) for items in lists) / len(lists)
    assert beyond["AveragePopularity"] == pytest.approx(by_hand, abs=1e-9)
    # Shannon entropy of the recommendation shares (a 3/9, b 2/9, c 2/9, d 1/9, e 1/9), which
    # RecBole then divides by the number of distinct recommended items (5).
    shares = [3 / 9, 2 / 9, 2 / 9, 1 / 9, 1 / 9]
    entropy = -sum(p * math.log(p) for p in shares)
    assert beyond["ShannonEntropy"] == pytest.approx(entropy / 5, abs=1e-9)
    # Five distinct items over item_num 7, which counts RecBole's padding item.
    assert beyond["ItemCoverage"] == pytest.approx(5 / 7, abs=1e-9)
