"""like=<library> reproduces each recommender library's recorded per-user values and means.

``benchmarks/recsys_library_values.py`` ran every library's own metric code and wrote what it
returned to ``data/recsys_library_values.json``. Here, for every library, data set and measure
in that file, ``rm.evaluate(test, recommendations, measure, like=<library>)`` must give the
library's value for each user (to 1e-9; torchmetrics computes in float32) and its mean over its
own user set, or refuse by name the case on which the library crashes or leaves [0, 1]; then
the users the library could score are still compared, one by one. No number is typed here:
every expected value is read from the JSON.

Each library is given the data as the library was given it (the JSON's ``seen_items`` and
``calls`` notes): Cornac and implicit filter the seen items (``exclude=``); implicit and
Evidently rank every catalogue item, so the items outside the list come after it, by item id.
"""

from __future__ import annotations

import json
import warnings
from itertools import pairwise
from pathlib import Path

import pytest

import rankmetrics as rm
from rankmetrics.trec import presets
from rankmetrics.trec.conventions import Conventions
from rankmetrics.trec.presets_recsys import UndefinedTieOrderWarning

RECORD = json.loads(
    (Path(__file__).parent / "data" / "recsys_library_values.json").read_text(encoding="utf-8")
)
DATA = RECORD["datasets"]
LIBRARIES = (
    "recbole",
    "recommenders",
    "lenskit",
    "cornac",
    "implicit",
    "rectools",
    "replay",
    "evidently",
    "daisyrec",
    "torchmetrics",
)
NAMES = {"P": "p", "R": "recall", "HR": "hit_rate", "MRR": "mrr", "MAP": "map", "nDCG": "ndcg"}
TOLERANCE = 1e-9
FLOAT32 = 1e-6  # torchmetrics computes in float32
# Libraries whose order of tied scores is undefined where a test compares their values.
UNDEFINED_TIES = ("implicit", "torchmetrics")


def metric_name(measure: str) -> str:
    family, _, k = measure.partition("@")
    return NAMES[family] + (f"@{k}" if k else "")


def cutoff(measure: str) -> int:
    return int(measure.partition("@")[2] or 0)


def recorded(library: str, dataset: str, measure: str) -> dict:
    return RECORD["libraries"][library]["values"][dataset][measure]


def relevant(dataset: str, user: str) -> bool:
    return bool(DATA[dataset]["test"][user])


def listed(dataset: str, user: str) -> bool:
    return bool(DATA[dataset]["recommendations"][user])


USER_SETS = {  # the benchmark's names for the user sets a library's mean is taken over
    "with_test": relevant,
    "with_recommendations": listed,
    "with_both": lambda d, u: relevant(d, u) and listed(d, u),
    "with_either": lambda d, u: relevant(d, u) or listed(d, u),
    "all": lambda d, u: True,
}


def tied_users(run: dict, k: int) -> set[str]:
    """Users with two equal scores among their k + 1 highest (a second, plain-Python count)."""
    tied = set()
    for user, pairs in run.items():
        scores = sorted(pairs.values(), reverse=True)[: k + 1]
        if len(set(scores)) < len(scores):
            tied.add(user)
    return tied


def given(library: str, dataset: str, users=None) -> tuple[dict, dict, dict]:
    """The test set, the recommendations and evaluate's extra arguments, as the library got them."""
    data = DATA[dataset]
    users = [u for u in data["users"] if users is None or u in users]
    test = {u: data["test"][u] for u in users if data["test"][u]}
    run, extra = {}, {}
    for user in users:
        pairs = dict(data["recommendations"][user])  # in the given order: score down, item id up
        if library in ("implicit", "evidently"):  # every catalogue item ranked: the rest below, by item id
            seen = set(data["seen"][user]) if library == "implicit" else set()
            lowest = min(pairs.values(), default=1.0)
            rest = [i for i in data["items"] if i not in pairs and i not in seen]
            pairs.update({item: lowest - 1 - j for j, item in enumerate(rest)})
        if pairs:
            run[user] = pairs
    if library in ("cornac", "implicit"):
        extra["exclude"] = {u: data["seen"][u] for u in users if u in run}
    return test, run, extra


def evaluate(library: str, dataset: str, measure: str, users=None, run=None, **options):
    test, given_run, extra = given(library, dataset, users)
    if library == "recommenders" and measure.startswith("nDCG"):
        options.setdefault("missing", "zero")  # ndcg_at_k's user set (the preset refuses otherwise)
    if library == "torchmetrics" and not measure.startswith("nDCG"):
        options.setdefault("ties", "input_order")  # torch.topk's order (the preset refuses otherwise)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = rm.evaluate(test, run or given_run, metric_name(measure), like=library, **extra, **options)
    tied = [w for w in caught if issubclass(w.category, UndefinedTieOrderWarning)]
    return result, tied


def per_user(result, measure: str) -> dict:
    return dict(zip(result.queries, result.per_query[metric_name(measure)].tolist()))


def assert_users_match(library: str, dataset: str, measure: str, values: dict, skip=()) -> None:
    found = recorded(library, dataset, measure)["per_user"]
    for user, value in values.items():
        if user in skip:
            continue
        expected = found[user]
        if expected is None:  # LensKit's NaN list, which its summary counts as 0 (the card says so)
            assert library == "lenskit" and value == 0.0, (user, value)
            continue
        tolerance = FLOAT32 if library == "torchmetrics" else TOLERANCE
        assert value == pytest.approx(expected, abs=tolerance), (library, dataset, measure, user)


# ---------------------------------------------------------------- which cases each preset refuses

# The cases of data on which each library crashes, gives NaN or leaves [0, 1], by measure family.
REFUSES = {
    ("lenskit", "MAP"): ("user_without_test",),
    ("daisyrec", "P"): ("empty_list",),
    ("cornac", "MRR"): ("no_hit",),
    ("cornac", "MAP"): ("no_hit", "tied_test_items"),
    **{("torchmetrics", family): ("nonpositive_relevant",) for family in ("P", "R", "HR", "MRR", "MAP")},
    **{("evidently", family): ("tied_test_items", "short_list") for family in NAMES},
    ("evidently", "MAP"): ("tied_scores", "short_list", "adjacent_hits"),
}
UNCUT = 100  # MRR and MAP without a cutoff read the whole list


def users_in_case(library: str, dataset: str, measure: str, case: str) -> set[str]:
    """The users of the data that fall in the case, found from the data alone."""
    test, run, extra = given(library, dataset)
    seen = extra.get("exclude", {})
    run = {u: {i: s for i, s in pairs.items() if i not in seen.get(u, ())} for u, pairs in run.items()}
    users = set(test) | set(run)
    k = cutoff(measure) or UNCUT
    if case == "user_without_test":
        return {u for u in run if u not in test}
    if case == "empty_list":
        return {u for u in test if not run.get(u)}
    if case == "no_hit":
        return {u for u in test if not set(run.get(u, ())) & set(test[u])}
    if case == "short_list":
        return {u for u in users if len(run.get(u, ())) < k}
    if case == "nonpositive_relevant":
        return {
            u for u in run if any(score <= 0 and item in test.get(u, ()) for item, score in run[u].items())
        }
    if case == "tied_test_items":  # a group of equal scores that starts in the top k and holds a test item
        found = set()
        for user in set(run) & set(test):
            scores = sorted(run[user].values(), reverse=True)
            for start, score in enumerate(scores[:k]):
                group = [i for i, s in run[user].items() if s == score]
                if (
                    (start == 0 or scores[start - 1] != score)
                    and len(group) > 1
                    and set(group) & set(test[user])
                ):
                    found.add(user)
        return found
    if case == "adjacent_hits":
        top = {u: sorted(run[u], key=lambda i: -run[u][i])[:k] for u in test}  # no ties left here
        return {
            u for u, items in top.items() if any(a in test[u] and b in test[u] for a, b in pairwise(items))
        }
    scored = set(run) if library == "torchmetrics" else set(test)  # torchmetrics scores every list
    return tied_users({u: run[u] for u in run if u in scored}, k)  # tied_scores, among the users scored


def refused_cases(library: str, dataset: str, measure: str) -> list[str]:
    cases = REFUSES.get((library, measure.partition("@")[0]), ())
    return [case for case in cases if users_in_case(library, dataset, measure, case)]


def library_failed(library: str, dataset: str, measure: str, case: str) -> bool:
    """What the library itself did on that case, as recorded: an exception, NaN, or a value above 1."""
    found = recorded(library, dataset, measure)
    values = [found["per_user"].get(u) for u in users_in_case(library, dataset, measure, case)]
    if case == "tied_test_items" and library == "evidently":  # its values on tied scores exceed 1 (tie probe)
        return RECORD["libraries"]["evidently"]["tie_probe"]["two relevant items tied first"]["MAP@2"] > 1
    if case == "tied_scores":  # Evidently's MAP of such a user is no AP of the given order (by hand here)
        return _not_an_ap(library, dataset, measure, case)
    if case == "tied_test_items":  # Cornac's pessimistic ranks: not the AP of the given order (by hand here)
        test, run, extra = given(library, dataset)
        for user in users_in_case(library, dataset, measure, case):
            items = [
                i for i in run[user] if i not in extra["exclude"][user]
            ]  # the given order, seen items out
            hits = [item in test[user] for item in items]
            ap = sum(sum(hits[: i + 1]) / (i + 1) for i, hit in enumerate(hits) if hit) / max(sum(hits), 1)
            value = found["per_user"][user]
            if value is not None and abs(value - ap) > 1e-6:
                return True
        return False
    if case == "nonpositive_relevant":  # torchmetrics counts the item as not relevant: another value
        return True
    if case == "adjacent_hits":  # Evidently's MAP of such a user is no AP of the given order (by hand here)
        return _not_an_ap(library, dataset, measure, case)
    if case == "short_list":
        values.append(found["mean"])
    return any(value is None or isinstance(value, dict) for value in values)


def _not_an_ap(library: str, dataset: str, measure: str, case: str) -> bool:
    """Whether the library's MAP@k of some user in the case crashed or is not AP@k (over |R|) of the
    list in the given order (Python's sort is stable: tied items keep their given order)."""
    test, run, _ = given(library, dataset)
    found, k = recorded(library, dataset, measure)["per_user"], cutoff(measure)
    for user in users_in_case(library, dataset, measure, case):
        hits = [item in test[user] for item in sorted(run[user], key=lambda i: -run[user][i])[:k]]
        ap = sum(sum(hits[: i + 1]) / (i + 1) for i, hit in enumerate(hits) if hit) / len(test[user])
        if isinstance(found[user], dict) or abs(found[user] - ap) > 1e-6:
            return True
    return False


ALL_CASES = [
    (library, dataset, measure)
    for library in LIBRARIES
    for dataset in ("seed_list", "random")
    for measure in sorted(RECORD["libraries"][library]["values"][dataset])
]
CASES = [c for c in ALL_CASES if not refused_cases(*c)]  # the refused ones: test_refused_cases


@pytest.mark.parametrize(("library", "dataset", "measure"), CASES, ids=["-".join(c) for c in CASES])
def test_per_user_values_and_mean(library, dataset, measure):
    found = recorded(library, dataset, measure)
    result, tied = evaluate(library, dataset, measure)
    values = per_user(result, measure)
    # The users averaged are the library's own user set (the benchmark measured which one).
    member = USER_SETS[found["mean_matches"][0].split(",")[0]] if found["mean_matches"] else None
    if library == "implicit" and measure.startswith("P@"):
        member = USER_SETS["with_test"]  # a micro average: no plain mean matches, its users are these
    assert member is not None, (library, dataset, measure)
    assert set(values) == {u for u in DATA[dataset]["users"] if member(dataset, u)}
    if library in UNDEFINED_TIES and tied:
        # argpartition / torch.topk order tied scores their own way, so only the untied users
        # are compared here (test_implicit_in_its_own_order compares implicit's in its order).
        named = users_in_case(library, dataset, measure, "tied_scores")
        assert set(tied[0].message.users) == named
        assert_users_match(library, dataset, measure, values, skip=named)
        return
    assert_users_match(library, dataset, measure, values)
    tolerance = FLOAT32 if library == "torchmetrics" else TOLERANCE
    assert result.summary[metric_name(measure)] == pytest.approx(found["mean"], abs=tolerance)


REFUSED = [c for c in ALL_CASES if refused_cases(*c)]


def test_the_refused_cases():
    # Exactly these pairs are refused; every one is a crash, NaN or value above 1 in the library.
    assert sorted({(lib, ds, m.partition("@")[0]) for lib, ds, m in REFUSED}) == [
        ("cornac", "random", "MAP"),
        ("cornac", "random", "MRR"),
        ("daisyrec", "random", "P"),
        ("evidently", "random", "HR"),
        ("evidently", "random", "MAP"),
        ("evidently", "random", "MRR"),
        ("evidently", "random", "P"),
        ("evidently", "random", "R"),
        ("evidently", "random", "nDCG"),
        ("evidently", "seed_list", "HR"),
        ("evidently", "seed_list", "MAP"),
        ("evidently", "seed_list", "MRR"),
        ("evidently", "seed_list", "P"),
        ("evidently", "seed_list", "R"),
        ("evidently", "seed_list", "nDCG"),
        ("lenskit", "random", "MAP"),
        ("torchmetrics", "random", "HR"),
        ("torchmetrics", "random", "MAP"),
        ("torchmetrics", "random", "MRR"),
        ("torchmetrics", "random", "P"),
        ("torchmetrics", "random", "R"),
    ]


@pytest.mark.parametrize(("library", "dataset", "measure"), REFUSED, ids=["-".join(c) for c in REFUSED])
def test_refused_cases(library, dataset, measure):
    from rankmetrics.trec.presets_recsys import CASES as NAMED

    cases = refused_cases(library, dataset, measure)
    assert all(library_failed(library, dataset, measure, case) for case in cases)
    with pytest.raises(ValueError) as refused:
        evaluate(library, dataset, measure)
    message = str(refused.value)
    assert f"like={library!r}" in message and f"{metric_name(measure)!r}" in message
    assert any(NAMED[case] in message for case in cases)
    # Without the users of those cases the preset runs, and each remaining user's value is the library's.
    left_out = set().union(*(users_in_case(library, dataset, measure, case) for case in cases))
    keep = [u for u in DATA[dataset]["users"] if u not in left_out]
    if "short_list" in cases:
        assert not keep  # the seed list's one user
        return
    result, tied = evaluate(library, dataset, measure, users=keep)
    named = set(tied[0].message.users) if tied else set()
    assert named == (users_in_case(library, dataset, measure, "tied_scores") - left_out if tied else set())
    # The recorded values of RecBole and Cornac come from the given order: only implicit's and
    # torchmetrics' own orders of tied scores are unknown here.
    skip = named if library in UNDEFINED_TIES else set()
    assert_users_match(library, dataset, measure, per_user(result, measure), skip=skip)
    assert len(set(result.queries) - skip) >= 3


def test_implicit_in_its_own_order():
    # At K = 10 the recorded recommend() lists are implicit's own order: every user matches,
    # and so does the micro-averaged precision (the sum of hits over the sum of min(K, |R|)).
    probe = RECORD["libraries"]["implicit"]["tie_probe"]["random: the top 10 recommend() returned"]
    run = {u: {item: float(-rank) for rank, item in enumerate(items)} for u, items in probe.items()}
    for measure in ("P@10", "MAP@10", "nDCG@10"):
        result, tied = evaluate("implicit", "random", measure, run=run)
        assert not tied  # ranks: no tie
        assert_users_match("implicit", "random", measure, per_user(result, measure))
        found = recorded("implicit", "random", measure)
        assert result.summary[metric_name(measure)] == pytest.approx(found["mean"], abs=TOLERANCE)


@pytest.mark.parametrize("library", ["recbole", "cornac"])
def test_undefined_tie_order_is_named(library):
    # torch.topk (RecBole) and argpartition (Cornac) leave tied scores in no defined order: the
    # warning names exactly the users whose top k holds a tie (counted here a second way).
    result, tied = evaluate(library, "random", "nDCG@5")
    assert set(tied[0].message.users) == users_in_case(library, "random", "nDCG@5", "tied_scores")
    card = result.conventions.card()
    assert "tie order" in card


def test_recommenders_needs_missing_zero_for_ndcg():
    test, run, _ = given("recommenders", "random")
    with pytest.raises(ValueError, match="missing='zero'"):
        rm.evaluate(test, run, "ndcg@10", like="recommenders")
    with pytest.raises(ValueError, match="missing='skip'"):
        rm.evaluate(test, run, "p@10", like="recommenders", missing="zero")


def test_cornac_refuses_a_cutoff_on_mrr_and_map():
    test, run, extra = given("cornac", "seed_list")
    for name in ("mrr@5", "map@5"):
        with pytest.raises(ValueError, match="only without a cutoff"):
            rm.evaluate(test, run, name, like="cornac", **extra)


@pytest.mark.parametrize("library", ["lenskit", "implicit", "recbole"])
def test_the_card_names_the_users_and_the_refusals(library):
    c = Conventions.resolve(presets.find(library))
    card = c.card()
    assert "a user with test items but no list" in card
    assert "a user with a list but no test item" in card
    if library == "lenskit":
        assert "refused: average_precision on a user with a list but no test item" in card
        assert "discount" in card and "lenskit" in card
    if library == "implicit":
        assert "averaging=micro" in card


def test_the_card_counts_the_seen_items_removed():
    _, run, extra = given("cornac", "random")
    result, _ = evaluate("cornac", "random", "P@5")
    removed = sum(1 for u in run for i in run[u] if i in extra["exclude"][u])  # counted a second way
    assert sum(result.excluded.values()) == removed > 0
    assert f"{removed} seen items removed before the cut" in result.conventions.card()


def test_seed_list_values_differ_by_library():
    # nDCG@5 of the seed list under each preset equals that library's recorded value: the
    # four different numbers of issue 31 come out of one call each.
    values = {}
    for library in LIBRARIES:
        result, _ = evaluate(library, "seed_list", "nDCG@5")
        values[library] = result.summary["ndcg@5"]
        assert values[library] == pytest.approx(
            recorded(library, "seed_list", "nDCG@5")["mean"],
            abs=FLOAT32 if library == "torchmetrics" else TOLERANCE,
        )
    assert len({round(v, 9) for v in values.values()}) == 4  # 0.4144, 0.3601, 0.6509, 0.4791


def test_an_explicit_convention_overrides_the_preset():
    # LensKit with trec_eval's discount log2(i + 1) is RecBole on the seed list: both take the
    # ideal of min(k, |R|) ones and binary relevance, so only the discount separated them.
    result, _ = evaluate("lenskit", "seed_list", "nDCG@5", discount="log2")
    assert result.conventions.source("discount") == "argument"
    assert result.summary["ndcg@5"] == pytest.approx(
        recorded("recbole", "seed_list", "nDCG@5")["mean"], abs=TOLERANCE
    )


def test_recommender_frames_give_the_same_values():
    # user_id / item_id DataFrames (implicit feedback: no relevance column) give the dict's values.
    pd = pytest.importorskip("pandas")
    test, run, _ = given("rectools", "random")
    frame_test = pd.DataFrame([(u, i) for u in test for i in test[u]], columns=["user_id", "item_id"])
    frame_run = pd.DataFrame(
        [(u, i, s) for u in run for i, s in run[u].items()], columns=["user_id", "item_id", "score"]
    )
    binary = {u: dict.fromkeys(items, 1) for u, items in test.items()}
    from_frames = rm.evaluate(frame_test, frame_run, "ndcg@10", like="rectools")
    from_dicts = rm.evaluate(binary, run, "ndcg@10", like="rectools")
    assert from_frames.summary == from_dicts.summary
    found = recorded("rectools", "random", "nDCG@10")  # RecTools reads no grade either
    assert from_frames.summary["ndcg@10"] == pytest.approx(found["mean"], abs=TOLERANCE)


def test_micro_averaging_is_refused_on_a_cluster():
    from rankmetrics.trec.cluster import plan

    with pytest.raises(ValueError, match="averaging='micro' is not available on a cluster"):
        plan("p@5", {"averaging": "micro"})


def test_micro_averaging_by_hand():
    # Two users: 1 hit of min(5, 2) = 2, and 3 hits of min(5, 4) = 4: (1 + 3) / (2 + 4), not the
    # mean of 1/2 and 3/4.
    test = {"a": {"x": 1, "y": 1}, "b": {"p": 1, "q": 1, "r": 1, "s": 1}}
    run = {"a": {"x": 5, "z": 4}, "b": {"p": 5, "q": 4, "t": 3, "r": 2}}
    result = rm.evaluate(test, run, "p@5", precision_denominator="min_k_relevant", averaging="micro")
    assert result.per_query["p@5"].tolist() == [1 / 2, 3 / 4]
    assert result.summary["p@5"] == pytest.approx(4 / 6, abs=1e-15)
    in_parts = rm.evaluate(
        test, run, "p@5", precision_denominator="min_k_relevant", averaging="micro", chunk_queries=1
    )
    assert in_parts.summary == result.summary


def test_torchmetrics_needs_the_given_order_for_its_ranked_measures():
    # Its nDCG averages tied scores (the preset's default); P, R, HR, MRR and MAP take torch.topk's
    # order, which is undefined: refused unless the given order is asked for, then warned about.
    test = {"u": {"a": 1}}
    run = {"u": {"a": 0.5, "b": 0.5, "c": 0.2}}
    with pytest.raises(ValueError, match="give ties='input_order'"):
        rm.evaluate(test, run, "p@1", like="torchmetrics")
    with pytest.warns(UndefinedTieOrderWarning, match="torch.topk") as caught:
        result = rm.evaluate(test, run, "p@1", like="torchmetrics", ties="input_order")
    assert caught[0].message.users == ("u",)
    assert result.summary["p@1"] == 1.0  # a first, as given
    # A test item scored 0 is one torchmetrics does not count: refused by name.
    with pytest.raises(ValueError, match="a test item scored <= 0"):
        rm.evaluate(test, {"u": {"a": 0.0, "b": -1.0}}, "p@1", like="torchmetrics", ties="input_order")


def test_the_card_in_korean():
    with rm.use_language("ko"):
        card = Conventions.resolve(presets.find("daisyrec")).card()
    assert "테스트 항목은 있지만 목록이 없는 사용자: 0점입니다(missing=zero)" in card
    assert "DaisyRec의 Precision은 빈 목록에서 NaN(0/0)입니다" in card
