"""Ten recommender libraries' own metric values, recorded for the ``like=`` presets.

Issue 31 asks for presets (``like="recbole"``, ``"recommenders"``, ``"lenskit"``,
``"cornac"``, ``"implicit"``, ``"rectools"``, ``"replay"``, ``"evidently"``,
``"daisyrec"``, ``"torchmetrics"``) that reproduce each library's per-user values and its
mean. This script is the proof: it calls each real library's own metric code (no model is
trained) on three fixed data sets and writes what the library returned, or the exception
it raised, to ``tests/package/data/recsys_library_values.json``. Nothing here imports
rankmetrics, and no value is typed by hand.

The data sets (made here, seeded, and written into the JSON beside the values):

- ``seed_list``: one user ``u1``, recommendations A, B, C, D, E (scores 5 … 1), relevant
  {B, D, F, G}; k = 1 … 5 and 10.
- ``random``: 30 users × 20 items, k = 1, 3, 5 and 10. Scores in steps of 0.2 (many
  ties); graded test relevance 1 … 3; users with no test item; users with no
  recommendation; lists of three items (shorter than k); items the user saw in training
  (``seen``), some of them recommended (a seen item is never a test item).
- ``toy``: the beyond-accuracy toy of issue 31 §4 (catalogue a–f, training counts a 50,
  b 30, c 10, d 5, e 4, f 1; lists u1 = [a, b, c], u2 = [a, b, d], u3 = [a, c, e]).

A recommendation list is given as ``[[item, score], …]`` in its *given order*: score
descending, equal scores by item id ascending. A library that takes a ranked list gets
that order; a library that takes scores gets the scores and sorts them itself, and its
``tie_order`` says how (``tie_probe`` records the order it produced on tied scores).

JSON layout (stable; the presets' tests read it):

    {"seed": int, "ks": {dataset: [k, …]},
     "datasets": {"seed_list" | "random": {"users": [...], "items": [...],
                                           "test": {user: {item: grade}},
                                           "recommendations": {user: [[item, score], ...]},
                                           "seen": {user: [item, ...]}},
                  "toy": {"catalog": [...], "counts": {item: n}, "lists": {user: [...]}}},
     "libraries": {name: {"installed": bool, "reason": str (if not installed),
                          "distribution": str, "version": str, "python": str, "numpy": str,
                          "environment": "np1" | "np2",
                          "calls": {measure family: the library call},
                          "user_set": str, "tie_order": str, "seen_items": str,
                          "tie_probe": {...},
                          "values": {dataset: {measure: {"per_user": {user: value},
                                                         "mean": value, "mean_call": str,
                                                         "mean_matches": [user set, ...]}
                                               | {"error": "Type: message"}}},
                          "beyond": {measure: value | {"error": ...}}}}}

Measure names: ``P@k``, ``R@k``, ``HR@k``, ``MRR@k``, ``MRR`` (no cutoff), ``MAP@k``,
``nDCG@k``. A per-user value is a number, ``null`` where the library returned NaN, or
``{"error": "Type: message"}`` where it raised. Where the library gives per-user values
itself, ``per_user`` holds the users it returned; where it only gives a mean (Recommenders,
implicit), ``per_user`` is the same function called on one user's rows at a time.
``mean`` is the library's own summary over its own user set where it has one
(``mean_call`` names it), else the plain mean of the per-user values (``mean_call`` says
so). ``mean_matches`` names the user sets (``with_test``: users with a relevant test item;
``with_recommendations``; ``with_both``; ``with_either``; ``all``; with ", NaN left out"
or ", NaN as 0" where some of them got NaN) over which the plain mean of ``per_user``
equals ``mean`` to 1e-9: the library's user set, measured.
Numbers are rounded to 12 significant digits.

Usage, from the repository root. The libraries need two environments: RecBole, DaisyRec,
RecTools and Recommenders' evaluation module need numpy < 2; LensKit, Cornac, implicit,
RePlay, Evidently and torchmetrics run on numpy 2. Each run adds the libraries its
environment can import to the JSON and keeps the others' entries:

    python3.11 -m venv /tmp/recsys-np1
    /tmp/recsys-np1/bin/pip install -r benchmarks/requirements-recsys-np1.txt
    /tmp/recsys-np1/bin/pip install --no-deps recommenders==1.2.1 recbole==1.2.1 daisyrec==2.3.0
    /tmp/recsys-np1/bin/python benchmarks/recsys_library_values.py

    python3.12 -m venv /tmp/recsys-np2
    /tmp/recsys-np2/bin/pip install -r benchmarks/requirements-recsys-np2.txt
    /tmp/recsys-np2/bin/python benchmarks/recsys_library_values.py

(torch from PyPI pulls its CUDA libraries, a few GB; the metrics run on the CPU.)
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import math
import platform
import sys
import traceback
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "package" / "data" / "recsys_library_values.json"
SEED = 20261204
KS = {"seed_list": [1, 2, 3, 4, 5, 10], "random": [1, 3, 5, 10]}
PROBE_KS = {"tie_probe": [2, 4]}  # only for Evidently's tie probe
FAMILIES = ["P", "R", "HR", "MRR@", "MAP", "nDCG"]


# ---------------------------------------------------------------- data sets


def seed_list() -> dict:
    items = ["A", "B", "C", "D", "E", "F", "G"]
    recs = [[item, float(5 - i)] for i, item in enumerate("ABCDE")]
    return {
        "users": ["u1"],
        "items": items,
        "test": {"u1": {"B": 1, "D": 1, "F": 1, "G": 1}},
        "recommendations": {"u1": recs},
        "seen": {"u1": []},
    }


def random_data(seed: int = SEED) -> dict:
    """30 users × 20 items with ties, grades, empty users, short lists and seen items."""
    rng = np.random.default_rng(seed)
    items = [f"i{j:02d}" for j in range(20)]
    users = [f"u{u:02d}" for u in range(30)]
    test, recs, seen = {}, {}, {}
    for u, user in enumerate(users):
        order = rng.permutation(20).tolist()
        n_seen = int(rng.integers(0, 4))
        seen[user] = sorted(items[j] for j in order[:n_seen])
        rest = order[n_seen:]
        grades = rng.choice([0, 1, 2, 3], size=len(rest), p=[0.7, 0.15, 0.1, 0.05]).tolist()
        if u % 7 == 3:  # users with no test item
            grades = [0] * len(rest)
        if u % 11 == 5 and not any(grades):  # and one with a single grade-1 item at least
            grades[0] = 1
        test[user] = {items[j]: int(g) for j, g in zip(rest, grades) if g > 0}
        if u % 10 == 7:  # users with no recommendation
            recs[user] = []
            continue
        length = 3 if u % 9 == 4 else int(rng.integers(8, 15))  # lists shorter than k
        listed = rng.permutation(20)[:length].tolist()  # may hold seen items
        scores = (rng.integers(0, 6, size=length) / 5.0).tolist()  # six values: ties
        pairs = sorted(((items[j], round(s, 1)) for j, s in zip(listed, scores)), key=lambda p: (-p[1], p[0]))
        recs[user] = [[item, score] for item, score in pairs]
    return {"users": users, "items": items, "test": test, "recommendations": recs, "seen": seen}


def toy_data() -> dict:
    return {
        "catalog": list("abcdef"),
        "counts": {"a": 50, "b": 30, "c": 10, "d": 5, "e": 4, "f": 1},
        "lists": {"u1": ["a", "b", "c"], "u2": ["a", "b", "d"], "u3": ["a", "c", "e"]},
        "genres": {"a": ["action"], "b": ["action", "comedy"], "c": ["drama"], "d": ["comedy"],
                   "e": ["drama", "romance"]},
    }


def datasets() -> dict:
    return {"seed_list": seed_list(), "random": random_data(), "toy": toy_data()}


def ranked(data: dict, user: str) -> list[str]:
    """The user's list in its given order (score descending, ties by item id)."""
    return [item for item, _ in data["recommendations"][user]]


def relevant(data: dict, user: str) -> set[str]:
    return {item for item, grade in data["test"].get(user, {}).items() if grade > 0}


def measures(dataset: str) -> list[tuple[str, str, int]]:
    """(name, family, k) for every measure recorded on the data set."""
    out = []
    for k in {**KS, **PROBE_KS}[dataset]:
        for family in FAMILIES:
            name = f"MRR@{k}" if family == "MRR@" else f"{family}@{k}"
            out.append((name, family, k))
    return out


# ---------------------------------------------------------------- recording helpers


def clean(value):
    """A JSON-safe number rounded to 12 significant digits; NaN becomes None."""
    if value is None:
        return None
    value = float(value)
    if math.isnan(value):
        return None
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return float(f"{value:.12g}")


def failure(error: BaseException) -> dict:
    return {"error": f"{type(error).__name__}: {error}"}


def plain_mean(per_user: dict) -> float | None:
    found = [v for v in per_user.values() if isinstance(v, float)]
    return clean(sum(found) / len(found)) if found else None


def entry(per_user: dict, mean=None, mean_call: str | None = None) -> dict:
    per_user = {u: (v if isinstance(v, dict) else clean(v)) for u, v in per_user.items()}
    if mean_call is None:
        return {"per_user": per_user, "mean": plain_mean(per_user),
                "mean_call": "plain mean of the per-user values (the script's, not the library's)"}
    return {"per_user": per_user, "mean": mean if isinstance(mean, dict) else clean(mean), "mean_call": mean_call}


def guarded(run: Callable[[], dict]) -> dict:
    try:
        return run()
    except Exception as error:  # a library's crash is a recorded result, not a failure of the script
        traceback.print_exc(file=sys.stderr)
        return failure(error)


# ---------------------------------------------------------------- torchmetrics


def torchmetrics_values(data: dict, dataset: str) -> dict:
    """Per user: the functional metric on the user's listed items; mean: the metric class."""
    import torch
    from torchmetrics import retrieval as classes
    from torchmetrics.functional import retrieval as functional

    names = {"P": "precision", "R": "recall", "HR": "hit_rate", "MRR@": "reciprocal_rank",
             "MAP": "average_precision", "nDCG": "normalized_dcg"}
    class_names = {"P": "RetrievalPrecision", "R": "RetrievalRecall", "HR": "RetrievalHitRate",
                   "MRR@": "RetrievalMRR", "MAP": "RetrievalMAP", "nDCG": "RetrievalNormalizedDCG"}
    users = [u for u in data["users"] if data["recommendations"][u]]
    out = {}
    for name, family, k in measures(dataset):
        function = getattr(functional, f"retrieval_{names[family]}")
        per_user, preds, target, indexes = {}, [], [], []
        for index, user in enumerate(users):
            items = ranked(data, user)
            grades = data["test"].get(user, {})
            # Graded targets for nDCG (torchmetrics' gain is the target), 0/1 for the others.
            row = [float(grades.get(i, 0)) if family == "nDCG" else float(i in grades) for i in items]
            scores = torch.tensor([s for _, s in data["recommendations"][user]], dtype=torch.float64)
            t = torch.tensor(row, dtype=torch.float64 if family == "nDCG" else torch.bool)
            try:
                per_user[user] = float(function(scores, t, top_k=k))
            except Exception as error:
                per_user[user] = failure(error)
            preds.append(scores), target.append(t), indexes.append(torch.full((len(items),), index))
        metric = getattr(classes, class_names[family])(top_k=k)  # empty_target_action="neg"
        try:
            metric.update(torch.cat(preds), torch.cat(target), torch.cat(indexes))
            mean = float(metric.compute())
        except Exception as error:
            mean = failure(error)
        out[name] = entry(per_user, mean, f"{class_names[family]}(top_k={k}).update(preds, target, indexes).compute()")
    return out


TORCHMETRICS = {
    "distribution": "torchmetrics",
    "calls": {"per_user": "torchmetrics.functional.retrieval.retrieval_<measure>(preds, target, top_k=k) on the "
              "user's listed items (scores; 0/1 targets, graded for nDCG)",
              "mean": "torchmetrics.retrieval.Retrieval<Measure>(top_k=k) over all listed rows, indexes = users"},
    "user_set": "only the users with a list (a user with no recommendation has no row to pass); users whose list "
                "holds no relevant item count 0 (empty_target_action='neg')",
    "tie_order": "torch.topk / argsort on the scores: the order of equal scores is not specified (nDCG averages "
                 "over tied scores)",
    "seen_items": "kept: torchmetrics sees only the rows passed",
}


def torch_probe(data: dict) -> dict:
    import torch

    scores = torch.tensor([0.5, 1.0, 0.5, 0.5, 1.0, 0.5], dtype=torch.float64)
    return {"scores": scores.tolist(), "torch.topk(scores, 6).indices": torch.topk(scores, 6).indices.tolist(),
            "torch.argsort(scores, descending=True)": torch.argsort(scores, descending=True).tolist()}


# ---------------------------------------------------------------- RecBole


def recbole_values(data: dict, dataset: str) -> dict:
    """``metric_info`` per user and ``calculate_metric`` for the mean, on the hit matrix RecBole's collector builds."""
    import torch
    from recbole.evaluator.collector import DataStruct
    from recbole.config import Config
    from recbole.evaluator import metrics as rb

    # Every RecBole run builds a Config, whose __init__ calls this: it puts back np.float
    # (removed in numpy 1.24), which MRR, MAP and NDCG use.
    Config.compatibility_settings(None)
    width = max(KS[dataset])
    # RecBole evaluates only the users that have test interactions (FullSortEvalDataLoader).
    users = [u for u in data["users"] if relevant(data, u)]
    hits = torch.zeros((len(users), width), dtype=torch.bool)
    for row, user in enumerate(users):
        for col, item in enumerate(ranked(data, user)[:width]):
            hits[row, col] = item in relevant(data, user)
    pos_len = torch.tensor([[len(relevant(data, u))] for u in users])
    classes = {"P": rb.Precision, "R": rb.Recall, "HR": rb.Hit, "MRR@": rb.MRR, "MAP": rb.MAP, "nDCG": rb.NDCG}
    out = {}
    for name, family, k in measures(dataset):
        config = {"topk": [k], "metric_decimal_place": 12}
        metric = classes[family](config)
        struct = DataStruct()
        # Collector.eval_batch_collect stores the top-k hit matrix with pos_len as its last column.
        struct.set("rec.topk", torch.cat((hits[:, :k].int(), pos_len), dim=1))
        try:
            pos_index, lengths = metric.used_info(struct)
            info = metric.metric_info(pos_index, lengths) if family in ("R", "MAP", "nDCG") else metric.metric_info(pos_index)
            per_user = {u: float(info[i, k - 1]) for i, u in enumerate(users)}
            mean = next(iter(metric.calculate_metric(struct).values()))
        except Exception as error:
            out[name] = failure(error)
            continue
        out[name] = entry(per_user, mean, f"recbole.evaluator.metrics.{classes[family].__name__}(config)"
                          f".calculate_metric(data) with topk=[{k}]")
    return out


def recbole_beyond(toy: dict) -> dict:
    """The beyond-accuracy metrics on the toy lists, item ids 1..6 as RecBole numbers them after [PAD] = 0."""
    from collections import Counter

    import torch
    from recbole.config import Config
    from recbole.evaluator import metrics as rb
    from recbole.evaluator.collector import DataStruct

    Config.compatibility_settings(None)
    ids = {item: j + 1 for j, item in enumerate(toy["catalog"])}
    struct = DataStruct()
    struct.set("rec.items", torch.tensor([[ids[i] for i in toy["lists"][u]] for u in sorted(toy["lists"])]))
    # dataset.item_num counts the padding item 0, so a catalogue of six items has item_num 7.
    struct.set("data.num_items", len(ids) + 1)
    struct.set("data.count_items", Counter({ids[i]: n for i, n in toy["counts"].items()}))
    config = {"topk": [3], "metric_decimal_place": 12, "tail_ratio": 0.1}
    out, calls = {}, {}
    for cls in (rb.ItemCoverage, rb.AveragePopularity, rb.ShannonEntropy, rb.GiniIndex, rb.TailPercentage):
        found = guarded(lambda cls=cls: {k: clean(v) for k, v in cls(config).calculate_metric(struct).items()})
        out[cls.__name__] = found if "error" in found else next(iter(found.values()))
        calls[cls.__name__] = f"recbole.evaluator.metrics.{cls.__name__}(config).calculate_metric(data), topk=[3]"
    calls["data"] = "rec.items = the three lists as ids 1..6; data.num_items = 7 (with [PAD]); tail_ratio = 0.1"
    return {**out, "calls": calls}


RECBOLE = {
    "distribution": "recbole",
    "calls": {"per_user": "recbole.evaluator.metrics.<Metric>(config).metric_info(pos_index[, pos_len])[:, k-1]",
              "mean": "<Metric>(config).calculate_metric(DataStruct with 'rec.topk') (topk_result: mean over rows)"},
    "user_set": "only users with test items (the evaluation loader is built from test interactions); a user "
                "without recommendations is an all-miss row",
    "tie_order": "Collector.eval_batch_collect takes torch.topk of the full score matrix: equal scores in an "
                 "unspecified order (see tie_probe); here the hit matrix is built from the given order",
    "seen_items": "Trainer._full_sort_batch_eval sets history items to -inf before topk; the metric code itself "
                  "sees only the hit matrix (here built from the list as given, seen items kept)",
}


# ---------------------------------------------------------------- Microsoft Recommenders


def recommenders_values(data: dict, dataset: str) -> dict:
    """python_evaluation on (userID, itemID, rating) / (userID, itemID, prediction) frames."""
    import pandas as pd
    from recommenders.evaluation import python_evaluation as pe

    true = pd.DataFrame([(u, i, float(g)) for u in data["users"] for i, g in data["test"].get(u, {}).items()],
                        columns=["userID", "itemID", "rating"])
    pred = pd.DataFrame([(u, i, s) for u in data["users"] for i, s in data["recommendations"][u]],
                        columns=["userID", "itemID", "prediction"])
    functions = {"P": "precision_at_k", "R": "recall_at_k", "MAP": "map_at_k", "nDCG": "ndcg_at_k"}
    out = {}
    for name, family, k in measures(dataset):
        if family not in functions:
            continue
        function = getattr(pe, functions[family])

        def call(t, p):
            return float(function(t, p, k=k))

        per_user = {}
        for user in data["users"]:
            t, p = true[true.userID == user], pred[pred.userID == user]
            if t.empty and p.empty:
                continue
            try:
                per_user[user] = call(t, p)
            except Exception as error:
                per_user[user] = failure(error)
        try:
            mean = call(true, pred)
        except Exception as error:
            mean = failure(error)
        out[name] = entry(per_user, mean, f"recommenders.evaluation.python_evaluation.{functions[family]}"
                          f"(rating_true, rating_pred, k={k}) on all users")
    # map() (no cutoff: AP over |R|) beside map_at_k, as the library's benchmarks report it.
    return out


def recommenders_beyond(toy: dict) -> dict:
    import pandas as pd
    from recommenders.evaluation import python_evaluation as pe

    # One training row per interaction: item a by 50 users, b by 30, ...
    train = pd.DataFrame([(f"t{n:03d}", item) for item, count in toy["counts"].items() for n in range(count)],
                         columns=["userID", "itemID"])
    reco = pd.DataFrame([(u, i) for u, items in toy["lists"].items() for i in items], columns=["userID", "itemID"])
    return {
        "novelty": guarded(lambda: clean(pe.novelty(train, reco))),
        "catalog_coverage": guarded(lambda: clean(pe.catalog_coverage(train, reco))),
        "distributional_coverage": guarded(lambda: clean(pe.distributional_coverage(train, reco))),
        "calls": {name: f"recommenders.evaluation.python_evaluation.{name}(train_df, reco_df)"
                  for name in ("novelty", "catalog_coverage", "distributional_coverage")},
    }


RECOMMENDERS = {
    "distribution": "recommenders",
    "calls": {"per_user": "python_evaluation.<function>(rating_true of one user, rating_pred of one user, k=k); "
              "a user in neither frame is skipped",
              "mean": "python_evaluation.<function>(rating_true, rating_pred, k=k) on all users"},
    "user_set": "P/R/MAP: merge_ranking_true_pred keeps the users in both frames; nDCG: see the recorded means",
    "tie_order": "get_top_k_items: sort_values by prediction then cumcount (see tie_probe)",
    "seen_items": "kept: the evaluation module does not filter",
}


def recommenders_probe(data: dict) -> dict:
    import pandas as pd
    from recommenders.evaluation.python_evaluation import get_top_k_items

    frame = pd.DataFrame({"userID": ["u"] * 6, "itemID": ["i0", "i1", "i2", "i3", "i4", "i5"],
                          "prediction": [0.5, 1.0, 0.5, 0.5, 1.0, 0.5]})
    top = get_top_k_items(frame, col_user="userID", col_rating="prediction", k=6)
    return {"frame": frame.to_dict(orient="list"), "get_top_k_items order": top["itemID"].tolist()}



# ---------------------------------------------------------------- DaisyRec


def daisyrec_values(data: dict, dataset: str) -> dict:
    """daisy.utils.metrics functions on item-index lists cut at k, as calc_ranking_results cuts them."""
    from daisy.utils import metrics as dm

    index = {item: j for j, item in enumerate(data["items"])}
    test_ur = {u: {index[i] for i in relevant(data, u)} for u in data["users"] if relevant(data, u)}
    test_u = list(test_ur)  # DaisyRec evaluates the users of its test set
    functions = {"P": "Precision", "R": "Recall", "HR": "HR", "MRR@": "MRR", "MAP": "MAP", "nDCG": "NDCG"}
    out = {}
    for name, family, k in measures(dataset):
        function = getattr(dm, functions[family])
        lists = {u: np.array([index[i] for i in ranked(data, u)[:k]], dtype=int) for u in test_u}
        per_user = {}
        for user in test_u:
            try:
                per_user[user] = float(function(test_ur, [lists[user]], [user]))
            except Exception as error:
                per_user[user] = failure(error)
        try:
            mean = float(function(test_ur, [lists[u] for u in test_u], test_u))
        except Exception as error:
            mean = failure(error)
        out[name] = entry(per_user, mean, f"daisy.utils.metrics.{functions[family]}(test_ur, pred_ur[:, :{k}], test_u)")
    return out


def daisyrec_beyond(toy: dict) -> dict:
    from daisy.utils import metrics as dm

    items = toy["catalog"]
    pred = np.array([[items.index(i) for i in toy["lists"][u]] for u in sorted(toy["lists"])])
    genres = sorted({g for gs in toy["genres"].values() for g in gs})
    categories = np.array([[float(g in toy["genres"].get(i, [])) for g in genres] for i in items])
    return {
        "coverage": guarded(lambda: clean(dm.Coverage(pred, len(items)))),
        "diversity_euclidean": guarded(lambda: clean(dm.Diversity(pred, categories))),
        "calls": {"coverage": "daisy.utils.metrics.Coverage(pred_ur, item_num=6)",
                  "diversity_euclidean": "daisy.utils.metrics.Diversity(pred_ur, i_categories) (0/1 genre rows; "
                  "mean Euclidean distance)"},
    }


DAISYREC = {
    "distribution": "daisyrec",
    "calls": {"per_user": "daisy.utils.metrics.<Metric>(test_ur, [list of one user cut at k], [user])",
              "mean": "daisy.utils.metrics.<Metric>(test_ur, lists cut at k, test_u)"},
    "user_set": "test_u: the users of the test set (with a relevant item)",
    "tie_order": "none: DaisyRec's metrics take ranked item lists (here in the given order)",
    "seen_items": "kept: the metric functions do not filter (the candidate generator does)",
}


# ---------------------------------------------------------------- LensKit


def lenskit_values(data: dict, dataset: str) -> dict:
    """``measure_list`` per user; ``RunAnalysis.measure(...).list_summary()`` for the mean."""
    from lenskit.data import ItemList, ItemListCollection
    from lenskit.metrics import NDCG, Hit, Precision, Recall, RecipRank, RunAnalysis
    from lenskit.metrics.ranking import AveragePrecision

    def rec_list(user):
        return ItemList(item_ids=ranked(data, user), ordered=True)

    def test_list(user):
        grades = data["test"].get(user, {})
        return ItemList(item_ids=list(grades), rating=np.array(list(grades.values()), dtype=float))

    # A recommender run gives every user a list (maybe empty); the test data hold the users with test items.
    outputs = ItemListCollection.from_dict({u: rec_list(u) for u in data["users"]}, key="user_id")
    tests = ItemListCollection.from_dict({u: test_list(u) for u in data["users"] if data["test"].get(u)},
                                         key="user_id")
    classes = {"P": Precision, "R": Recall, "HR": Hit, "MRR@": RecipRank, "MAP": AveragePrecision, "nDCG": NDCG}
    out = {}
    for name, family, k in measures(dataset):
        metric = classes[family](n=k)
        per_user = {}
        for user in data["users"]:
            try:
                per_user[user] = float(metric.measure_list(rec_list(user), test_list(user)))
            except Exception as error:
                per_user[user] = failure(error)
        try:
            summary = RunAnalysis(metric).measure(outputs, tests).list_summary()
            mean = float(summary.loc[metric.label, "mean"])
        except Exception as error:
            mean = failure(error)
        out[name] = entry(per_user, mean, f"lenskit.metrics.RunAnalysis({classes[family].__name__}(n={k}))"
                          ".measure(outputs, test).list_summary()['mean']")
    return out


LENSKIT = {
    "distribution": "lenskit",
    "calls": {"per_user": "lenskit.metrics.<Metric>(n=k).measure_list(ItemList(recs, ordered=True), "
              "ItemList(test items, rating=grade)); a user without test items gets an empty test list",
              "mean": "RunAnalysis(metric).measure(outputs of every user, test of the users with test items)"
              ".list_summary()['mean']"},
    "user_set": "every output list is measured (a list without test data gets an empty test list and NaN); "
                "see mean_matches for what the summary averages",
    "tie_order": "none: LensKit measures the list in the order given (ordered=True)",
    "seen_items": "kept: the metrics do not filter (candidate selectors in the pipeline do)",
}


# ---------------------------------------------------------------- Cornac


def cornac_values(data: dict, dataset: str) -> dict:
    """``metric.compute(gt_pos, pd_rank, ...)`` per user, as ``ranking_eval`` calls it."""
    from cornac import metrics as cm

    index = {item: j for j, item in enumerate(data["items"])}
    # ranking_eval skips users without positive test items and ranks only the items not seen in training.
    users = [u for u in data["users"] if relevant(data, u)]
    at_k = {"P": cm.Precision, "R": cm.Recall, "HR": cm.HitRatio, "nDCG": cm.NDCG}
    wanted = [(n, f, k) for n, f, k in measures(dataset) if f in at_k] + [("MRR", "MRR", 0), ("MAP", "MAP", 0)]
    out = {}
    for name, family, k in wanted:
        metric = at_k[family](k=k) if family in at_k else getattr(cm, family)()
        per_user = {}
        for user in users:
            pairs = [(index[i], s) for i, s in data["recommendations"][user] if i not in data["seen"][user]]
            pd_rank = np.array([i for i, _ in pairs], dtype=int)
            gt_pos = np.array(sorted(index[i] for i in relevant(data, user)), dtype=int)
            try:
                value = metric.compute(gt_pos=gt_pos, pd_rank=pd_rank, item_indices=pd_rank,
                                       pd_scores=np.array([s for _, s in pairs], dtype=float))
                per_user[user] = float(value)
            except Exception as error:
                per_user[user] = failure(error)
        out[name] = entry(per_user)  # ranking_eval's mean is this plain mean over these users
        out[name]["mean_call"] = ("sum(user_results) / len(user_results) as cornac.eval_methods.base_method."
                                  "ranking_eval averages (computed by the script; ranking_eval stops at an error)")
    return out


CORNAC = {
    "distribution": "cornac",
    "calls": {"per_user": "cornac.metrics.<Metric>(k=k).compute(gt_pos=relevant item indices, pd_rank=the list "
              "without seen items, item_indices=pd_rank, pd_scores=their scores); MRR and MAP take no k",
              "mean": "the plain mean over the users with positive test items, as ranking_eval computes it"},
    "user_set": "ranking_eval: only users with positive test items (if len(test_pos_items) == 0: continue)",
    "tie_order": "Recommender.rank: argpartition + argsort of the scores (unspecified for ties); MAP ranks ties "
                 "pessimistically (rankdata 'max'); here pd_rank is the given order",
    "seen_items": "removed: ranking_eval excludes training positives from the candidates (done here on the list)",
}


# ---------------------------------------------------------------- implicit


def implicit_values(data: dict, dataset: str) -> dict:
    """``ranking_metrics_at_k`` on an ALS model whose factors reproduce the given scores."""
    from implicit.cpu.als import AlternatingLeastSquares
    from implicit.evaluation import ranking_metrics_at_k
    from scipy.sparse import csr_matrix

    n_users, n_items = len(data["users"]), len(data["items"])
    index = {item: j for j, item in enumerate(data["items"])}
    scores = np.zeros((n_users, n_items), dtype=np.float32)
    train = np.zeros((n_users, n_items), dtype=np.float32)
    test = np.zeros((n_users, n_items), dtype=np.float32)
    for u, user in enumerate(data["users"]):
        listed = {index[i]: s for i, s in data["recommendations"][user]}
        for j in range(n_items):
            # implicit ranks the whole catalogue: after the list (scores >= 0) come the other
            # items, by item id (distinct scores below the list's, so no tie is left to chance).
            scores[u, j] = listed.get(j, -1.0 - j / 1000)
            train[u, j] = float(data["items"][j] in data["seen"][user])  # filtered by recommend()
        for item in relevant(data, user):
            test[u, index[item]] = 1.0
    model = AlternatingLeastSquares(factors=n_items, random_state=0)
    model.user_factors, model.item_factors = scores, np.eye(n_items, dtype=np.float32)
    keys = {"P": "precision", "MAP": "map", "nDCG": "ndcg"}
    out = {}
    for name, family, k in measures(dataset):
        if family not in keys:
            continue
        per_user = {}
        for u, user in enumerate(data["users"]):
            if not relevant(data, user):
                continue  # ranking_metrics_at_k skips users without test items (its own rule)
            one = np.zeros_like(test)
            one[u] = test[u]
            try:
                per_user[user] = float(ranking_metrics_at_k(model, csr_matrix(train), csr_matrix(one), K=k,
                                                            show_progress=False)[keys[family]])
            except Exception as error:
                per_user[user] = failure(error)
        try:
            mean = float(ranking_metrics_at_k(model, csr_matrix(train), csr_matrix(test), K=k,
                                              show_progress=False)[keys[family]])
        except Exception as error:
            mean = failure(error)
        out[name] = entry(per_user, mean, f"implicit.evaluation.ranking_metrics_at_k(model, train, test, K={k})"
                          f"['{keys[family]}']")
    return out


IMPLICIT = {
    "distribution": "implicit",
    "calls": {"per_user": "implicit.evaluation.ranking_metrics_at_k(model, train_user_items, test matrix of one "
              "user, K=k)[name]",
              "mean": "ranking_metrics_at_k(model, train_user_items, test_user_items, K=k)[name]; model: "
              "AlternatingLeastSquares with user_factors = the score matrix and item_factors = identity"},
    "user_set": "users with at least one test item; 'precision' is micro: sum of hits / sum of min(K, |R|)",
    "tie_order": "model.recommend's top-k of the scores (see tie_probe)",
    "seen_items": "removed: recommend(filter_already_liked_items=True) drops train_user_items (the seen items). "
                  "implicit ranks the whole catalogue: a list shorter than K goes on with the other items by item "
                  "id; when K exceeds the unfiltered items, recommend returns the filtered ones (score -FLT_MAX) "
                  "and then item 0 repeated",
}


def implicit_probe(data: dict) -> dict:
    from implicit.cpu.als import AlternatingLeastSquares
    from scipy.sparse import csr_matrix

    scores = np.array([[0.5, 1.0, 0.5, 0.5, 1.0, 0.5]], dtype=np.float32)
    model = AlternatingLeastSquares(factors=6, random_state=0)
    model.user_factors, model.item_factors = scores, np.eye(6, dtype=np.float32)
    ids, _ = model.recommend(0, csr_matrix((1, 6), dtype=np.float32), N=6)
    return {"scores": scores[0].tolist(), "recommend(N=6) ids": ids.tolist(),
            "random: the top 10 recommend() returned": implicit_lists(data["random"], 10)}


def implicit_lists(data: dict, k: int) -> dict:
    """The items the model of implicit_values recommends to each user (its tie order), as ids."""
    from implicit.cpu.als import AlternatingLeastSquares
    from scipy.sparse import csr_matrix

    n_items = len(data["items"])
    out = {}
    for user in data["users"]:
        listed = {data["items"].index(i): s for i, s in data["recommendations"][user]}
        scores = np.array([[listed.get(j, -1.0 - j / 1000) for j in range(n_items)]], dtype=np.float32)
        seen = np.array([[float(i in data["seen"][user]) for i in data["items"]]], dtype=np.float32)
        model = AlternatingLeastSquares(factors=n_items, random_state=0)
        model.user_factors, model.item_factors = scores, np.eye(n_items, dtype=np.float32)
        ids, _ = model.recommend(0, csr_matrix(seen), N=k)
        out[user] = [data["items"][j] for j in ids.tolist()]
    return out


# ---------------------------------------------------------------- RePlay


def replay_frames(data: dict):
    import pandas as pd

    recs = pd.DataFrame([(u, i, s) for u in data["users"] for i, s in data["recommendations"][u]],
                        columns=["user_id", "item_id", "rating"])
    truth = pd.DataFrame([(u, i) for u in data["users"] for i in sorted(relevant(data, u))],
                         columns=["user_id", "item_id"])
    return recs, truth


def replay_values(data: dict, dataset: str) -> dict:
    """Each metric with ``mode=PerUser()`` and with the default ``Mean()``, on pandas frames."""
    from replay import metrics as rp

    recs, truth = replay_frames(data)
    classes = {"P": rp.Precision, "R": rp.Recall, "HR": rp.HitRate, "MRR@": rp.MRR, "MAP": rp.MAP, "nDCG": rp.NDCG}
    out = {}
    for name, family, k in measures(dataset):
        cls = classes[family]
        try:
            per_user = next(iter(cls(topk=k, query_column="user_id", mode=rp.PerUser())(recs, truth).values()))
            mean = next(iter(cls(topk=k, query_column="user_id")(recs, truth).values()))
        except Exception as error:
            out[name] = failure(error)
            continue
        out[name] = entry({str(u): float(v) for u, v in per_user.items()}, mean,
                          f"replay.metrics.{cls.__name__}(topk={k}, query_column='user_id')(recommendations, "
                          "ground_truth)")
    return out


def replay_probe(data: dict) -> dict:
    import pandas as pd
    from replay.metrics import MRR, PerUser

    # Six tied scores, rows not in id order; one item relevant at a time: 1 / its MRR is its rank.
    items = ["i3", "i0", "i5", "i1", "i4", "i2"]
    recs = pd.DataFrame({"user_id": ["u"] * 6, "item_id": items, "rating": [0.5] * 6})
    ranks = {}
    for item in items:
        truth = pd.DataFrame({"user_id": ["u"], "item_id": [item]})
        found = next(iter(MRR(topk=6, query_column="user_id", mode=PerUser())(recs, truth).values()))["u"]
        ranks[item] = round(1 / found)
    return {"rows in this order, all scores 0.5": items, "rank RePlay gave each": ranks}


def replay_beyond(toy: dict) -> dict:
    import pandas as pd
    from replay.metrics import Coverage

    recs = pd.DataFrame([(u, i, float(3 - r)) for u, items in toy["lists"].items() for r, i in enumerate(items)],
                        columns=["user_id", "item_id", "rating"])
    train = pd.DataFrame([(f"t{n:03d}", item) for item, count in toy["counts"].items() for n in range(count)],
                         columns=["user_id", "item_id"])
    found = guarded(lambda: {k: clean(v) for k, v in Coverage(topk=3, query_column="user_id")(recs, train).items()})
    return {"Coverage": found if "error" in found else next(iter(found.values())),
            "calls": {"Coverage": "replay.metrics.Coverage(topk=3, query_column='user_id')(recommendations, train) "
                      "(train: one row per interaction, a 50 ... f 1)"}}


REPLAY = {
    "distribution": "replay-rec",
    "calls": {"per_user": "replay.metrics.<Metric>(topk=k, query_column='user_id', mode=PerUser())(recs, truth)",
              "mean": "replay.metrics.<Metric>(topk=k, query_column='user_id')(recs, truth) (Mean())"},
    "user_set": "the users of ground_truth (users with a relevant test item); no recommendation gives 0",
    "tie_order": "pandas frames are sorted by score; equal scores came out by item id descending (tie_probe)",
    "seen_items": "kept: the metrics do not filter (models' filter_seen_items does)",
}


# ---------------------------------------------------------------- Evidently


def evidently_frame(data: dict, users: list[str]):
    """One row per user and catalogue item: the list's scores, then the other items below them by item id."""
    import pandas as pd

    rows = []
    for user in users:
        listed = dict((i, s) for i, s in data["recommendations"][user])
        grades = data["test"].get(user, {})
        for j, item in enumerate(data["items"]):
            rows.append((user, item, float(grades.get(item, 0)), listed.get(item, -1.0 - j / 1000)))
    return pd.DataFrame(rows, columns=["user_id", "item_id", "target", "prediction"])


def evidently_values(data: dict, dataset: str) -> dict:
    """The legacy recsys metrics in one Report; per user, the same Report on the user's rows alone."""
    from evidently.legacy import metrics as ev
    from evidently.legacy.pipeline.column_mapping import ColumnMapping
    from evidently.legacy.report import Report

    classes = {"P": ev.PrecisionTopKMetric, "R": ev.RecallTopKMetric, "HR": ev.HitRateKMetric,
               "MRR@": ev.MRRKMetric, "MAP": ev.MAPKMetric, "nDCG": ev.NDCGKMetric}
    mapping = ColumnMapping(recommendations_type="score", target="target", prediction="prediction",
                            user_id="user_id", item_id="item_id")

    def run(users, k):
        """{family: value at k} from one Report with every metric at k."""
        metrics = {family: cls(k=k) for family, cls in classes.items()}
        report = Report(metrics=list(metrics.values()))
        report.run(reference_data=None, current_data=evidently_frame(data, users), column_mapping=mapping)
        found = {}
        for family, metric in metrics.items():
            result = metric.get_result()
            # current holds the value at every k = 1 ... max(k, 10), indexed from 0 (as TopKMetricResult reads it)
            current = result.current
            found[family] = float(current[k - 1] if min(current.index) == 0 else current[k])
        return found

    out = {}
    for k in {**KS, **PROBE_KS}[dataset]:
        everyone = guarded(lambda: run(data["users"], k))
        per_user_runs = {u: guarded(lambda u=u: run([u], k)) for u in data["users"]}
        for name, family, kk in measures(dataset):
            if kk != k:
                continue
            per_user = {u: found if "error" in found else found[family] for u, found in per_user_runs.items()}
            mean = everyone if "error" in everyone else everyone[family]
            out[name] = entry(per_user, mean, f"evidently.legacy.report.Report([{classes[family].__name__}(k={k}), "
                              "...]).run(...); metric.get_result().current at k")
    return out


def evidently_probe(data: dict) -> dict:
    """Tied scores share their average rank, truncated: (1 + 2) / 2 -> 1, (1 + 2 + 3 + 4) / 4 -> 2."""
    out = {}
    for label, scores in (("two relevant items tied first", [0.5, 0.5, 0.2, 0.1]),
                          ("four relevant items tied", [0.5, 0.5, 0.5, 0.5])):
        relevant_items = {"i0": 1, "i1": 1} if label.startswith("two") else {f"i{j}": 1 for j in range(4)}
        tied = {"users": ["u"], "items": ["i0", "i1", "i2", "i3"], "seen": {"u": []}, "test": {"u": relevant_items},
                "recommendations": {"u": [[f"i{j}", s] for j, s in enumerate(scores)]}}
        found = evidently_values(tied, "tie_probe")
        out[label] = {"data": tied, **{name: value["mean"] for name, value in found.items()}}
    return out


EVIDENTLY = {
    "distribution": "evidently",
    "calls": {"per_user": "the same Report on one user's rows (a user without a relevant item is dropped there "
              "too, so its run fails or is empty)",
              "mean": "Report(metrics=[<Metric>(k=k), ...]).run(current_data=rows, column_mapping=ColumnMapping("
              "recommendations_type='score', ...)), the metric's current_value"},
    "user_set": "no_feedback_users=False: only users with a target > 0",
    "tie_order": "scores become ranks with groupby().rank(ascending=False).astype(int): tied items share "
                 "their average rank, truncated to an integer",
    "seen_items": "kept: the rows are evaluated as given; rows: every catalogue item, the items outside the list "
                  "scored below it by item id (graded target for nDCG, as Evidently reads it)",
}


# ---------------------------------------------------------------- RecTools


def rectools_values(data: dict, dataset: str) -> dict:
    """``calc_per_user`` and ``calc`` on a ranked recommendations frame (rank = place in the given order)."""
    import pandas as pd
    from rectools import metrics as rt

    reco = pd.DataFrame([(u, i, r + 1) for u in data["users"] for r, i in enumerate(ranked(data, u))],
                        columns=["user_id", "item_id", "rank"])
    interactions = pd.DataFrame([(u, i) for u in data["users"] for i in sorted(relevant(data, u))],
                                columns=["user_id", "item_id"])
    classes = {"P": rt.Precision, "R": rt.Recall, "HR": rt.HitRate, "MRR@": rt.MRR, "MAP": rt.MAP, "nDCG": rt.NDCG}
    out = {}
    for name, family, k in measures(dataset):
        metric = classes[family](k=k)
        try:
            per_user = {str(u): float(v) for u, v in metric.calc_per_user(reco, interactions).items()}
            mean = metric.calc(reco, interactions)
        except Exception as error:
            out[name] = failure(error)
            continue
        out[name] = entry(per_user, mean, f"rectools.metrics.{classes[family].__name__}(k={k}).calc(reco, "
                          "interactions)")
    return out


RECTOOLS = {
    "distribution": "rectools",
    "calls": {"per_user": "rectools.metrics.<Metric>(k=k).calc_per_user(reco[user_id, item_id, rank], "
              "interactions[user_id, item_id]) with the defaults (NDCG: divide_by_achievable=False, "
              "log_base=2; MAP: divide_by_k=False; Precision: r_precision=False)",
              "mean": "<Metric>(k=k).calc(reco, interactions)"},
    "user_set": "the users of the test interactions",
    "tie_order": "none: RecTools takes ranks (here the place in the given order)",
    "seen_items": "kept: the metrics do not filter (recommend(filter_viewed=True) does)",
}

# ---------------------------------------------------------------- running and merging

# name -> (import name, about, values function, beyond-accuracy function or None, tie probe or None)
LIBRARIES: dict[str, tuple[str, dict, Callable, Callable | None, Callable | None]] = {
    "torchmetrics": ("torchmetrics", TORCHMETRICS, torchmetrics_values, None, torch_probe),
    "recbole": ("recbole.evaluator.metrics", RECBOLE, recbole_values, recbole_beyond, torch_probe),
    "daisyrec": ("daisy.utils.metrics", DAISYREC, daisyrec_values, daisyrec_beyond, None),
    "cornac": ("cornac.metrics", CORNAC, cornac_values, None, None),
    "evidently": ("evidently.legacy.metrics", EVIDENTLY, evidently_values, None, evidently_probe),
    "implicit": ("implicit.evaluation", IMPLICIT, implicit_values, None, implicit_probe),
    "lenskit": ("lenskit.metrics", LENSKIT, lenskit_values, None, None),
    "rectools": ("rectools.metrics", RECTOOLS, rectools_values, None, None),
    "replay": ("replay.metrics", REPLAY, replay_values, replay_beyond, replay_probe),
    "recommenders": ("recommenders.evaluation.python_evaluation", RECOMMENDERS, recommenders_values, recommenders_beyond,
                     recommenders_probe),
}


USER_SETS = {
    "with_test": lambda data, u: bool(relevant(data, u)),
    "with_recommendations": lambda data, u: bool(data["recommendations"][u]),
    "with_both": lambda data, u: bool(relevant(data, u)) and bool(data["recommendations"][u]),
    "with_either": lambda data, u: bool(relevant(data, u)) or bool(data["recommendations"][u]),
    "all": lambda data, u: True,
}


def mean_matches(found: dict, data: dict) -> None:
    """Name the user sets whose plain mean of the per-user values equals the library's mean."""
    for value in found.values():
        if not isinstance(value, dict) or "per_user" not in value:
            continue
        per_user, matches = value["per_user"], []
        value["mean_matches"] = matches
        if not isinstance(value["mean"], float):
            continue
        for set_name, member in USER_SETS.items():
            numbers = [per_user.get(u, "absent") for u in data["users"] if member(data, u)]
            if not numbers or any(not (v is None or isinstance(v, float)) for v in numbers):
                continue  # a user without a value or with an error: this set cannot be the one
            variants = {set_name: [v for v in numbers if v is not None]}
            if None in numbers:  # NaN users: left out, or counted as 0 (LensKit's default)
                variants = {f"{set_name}, NaN left out": variants[set_name],
                            f"{set_name}, NaN as 0": [0.0 if v is None else v for v in numbers]}
            for label, found in variants.items():
                if found and abs(sum(found) / len(found) - value["mean"]) < 1e-9:
                    matches.append(label)


def run_library(name: str, data: dict) -> dict:
    module, about, values, beyond, probe = LIBRARIES[name]
    try:
        version = importlib.metadata.version(about["distribution"])  # not a fork of the same module (pm-implicit)
        __import__(module)
    except Exception as error:  # ImportError, or a library that breaks on this numpy
        return {"installed": False, "reason": f"{type(error).__name__}: {error}"}
    record = {
        "installed": True,
        **about,
        "version": version,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "environment": "np1" if np.__version__.startswith("1.") else "np2",
        "values": {ds: guarded(lambda ds=ds: values(data[ds], ds)) for ds in KS},
    }
    for ds in KS:
        mean_matches(record["values"][ds], data[ds])
    if beyond is not None:
        record["beyond"] = guarded(lambda: beyond(data["toy"]))
    if probe is not None:
        record["tie_probe"] = guarded(lambda: probe(data))
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated library names (default: every one importable here)")
    args = parser.parse_args()
    data = datasets()
    record = {"seed": SEED, "ks": KS, "datasets": data, "libraries": {}}
    if OUT.exists():
        old = json.loads(OUT.read_text(encoding="utf-8"))
        if old["datasets"] != json.loads(json.dumps(data)):
            raise SystemExit("the data sets differ from the recorded ones (another numpy stream?)")
        record["libraries"] = old["libraries"]
    names = args.only.split(",") if args.only else list(LIBRARIES)
    for name in names:
        found = run_library(name, data)
        if found["installed"] or name not in record["libraries"]:
            record["libraries"][name] = found  # an entry from the other environment is kept
        print(f"{name}: {found.get('version', found.get('reason'))}", file=sys.stderr)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
