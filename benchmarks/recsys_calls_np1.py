"""How benchmarks/recsys_library_values.py calls RecBole, Recommenders, DaisyRec and RecTools (numpy < 2)."""

from __future__ import annotations

import numpy as np
from recsys_record import KS, clean, entry, failure, guarded, measures, ranked, relevant

# ---------------------------------------------------------------- RecBole


def recbole_values(data: dict, dataset: str) -> dict:
    """``metric_info`` per user and ``calculate_metric`` for the mean, on the hit matrix RecBole's collector builds."""
    import torch
    from recbole.config import Config
    from recbole.evaluator import metrics as rb
    from recbole.evaluator.collector import DataStruct

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
    classes = {
        "P": rb.Precision,
        "R": rb.Recall,
        "HR": rb.Hit,
        "MRR@": rb.MRR,
        "MAP": rb.MAP,
        "nDCG": rb.NDCG,
    }
    out = {}
    for name, family, k in measures(dataset):
        config = {"topk": [k], "metric_decimal_place": 12}
        metric = classes[family](config)
        struct = DataStruct()
        # Collector.eval_batch_collect stores the top-k hit matrix with pos_len as its last column.
        struct.set("rec.topk", torch.cat((hits[:, :k].int(), pos_len), dim=1))
        try:
            pos_index, lengths = metric.used_info(struct)
            info = (
                metric.metric_info(pos_index, lengths)
                if family in ("R", "MAP", "nDCG")
                else metric.metric_info(pos_index)
            )
            per_user = {u: float(info[i, k - 1]) for i, u in enumerate(users)}
            mean = next(iter(metric.calculate_metric(struct).values()))
        except Exception as error:  # noqa: BLE001 (a crash is a recorded value)
            out[name] = failure(error)
            continue
        out[name] = entry(
            per_user,
            mean,
            f"recbole.evaluator.metrics.{classes[family].__name__}(config)"
            f".calculate_metric(data) with topk=[{k}]",
        )
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
        found = guarded(
            lambda cls=cls: {k: clean(v) for k, v in cls(config).calculate_metric(struct).items()}
        )
        out[cls.__name__] = found if "error" in found else next(iter(found.values()))
        calls[cls.__name__] = (
            f"recbole.evaluator.metrics.{cls.__name__}(config).calculate_metric(data), topk=[3]"
        )
    calls["data"] = (
        "rec.items = the three lists as ids 1..6; data.num_items = 7 (with [PAD]); tail_ratio = 0.1"
    )
    return {**out, "calls": calls}


RECBOLE = {
    "distribution": "recbole",
    "calls": {
        "per_user": "recbole.evaluator.metrics.<Metric>(config).metric_info(pos_index[, pos_len])[:, k-1]",
        "mean": "<Metric>(config).calculate_metric(DataStruct with 'rec.topk') (topk_result: mean over rows)",
    },
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

    true = pd.DataFrame(
        [(u, i, float(g)) for u in data["users"] for i, g in data["test"].get(u, {}).items()],
        columns=["userID", "itemID", "rating"],
    )
    pred = pd.DataFrame(
        [(u, i, s) for u in data["users"] for i, s in data["recommendations"][u]],
        columns=["userID", "itemID", "prediction"],
    )
    functions = {"P": "precision_at_k", "R": "recall_at_k", "MAP": "map_at_k", "nDCG": "ndcg_at_k"}
    out = {}
    for name, family, k in measures(dataset):
        if family not in functions:
            continue
        function = getattr(pe, functions[family])

        def call(t, p, function=function, k=k):
            return float(function(t, p, k=k))

        per_user = {}
        for user in data["users"]:
            t, p = true[true.userID == user], pred[pred.userID == user]
            if t.empty and p.empty:
                continue
            try:
                per_user[user] = call(t, p)
            except Exception as error:  # noqa: BLE001 (a crash is a recorded value)
                per_user[user] = failure(error)
        try:
            mean = call(true, pred)
        except Exception as error:  # noqa: BLE001 (a crash is a recorded value)
            mean = failure(error)
        out[name] = entry(
            per_user,
            mean,
            f"recommenders.evaluation.python_evaluation.{functions[family]}"
            f"(rating_true, rating_pred, k={k}) on all users",
        )
    # map() (no cutoff: AP over |R|) beside map_at_k, as the library's benchmarks report it.
    return out


def recommenders_beyond(toy: dict) -> dict:
    import pandas as pd
    from recommenders.evaluation import python_evaluation as pe

    # One training row per interaction: item a by 50 users, b by 30, ...
    train = pd.DataFrame(
        [(f"t{n:03d}", item) for item, count in toy["counts"].items() for n in range(count)],
        columns=["userID", "itemID"],
    )
    reco = pd.DataFrame(
        [(u, i) for u, items in toy["lists"].items() for i in items], columns=["userID", "itemID"]
    )
    return {
        "novelty": guarded(lambda: clean(pe.novelty(train, reco))),
        "catalog_coverage": guarded(lambda: clean(pe.catalog_coverage(train, reco))),
        "distributional_coverage": guarded(lambda: clean(pe.distributional_coverage(train, reco))),
        "calls": {
            name: f"recommenders.evaluation.python_evaluation.{name}(train_df, reco_df)"
            for name in ("novelty", "catalog_coverage", "distributional_coverage")
        },
    }


RECOMMENDERS = {
    "distribution": "recommenders",
    "calls": {
        "per_user": "python_evaluation.<function>(rating_true of one user, rating_pred of one user, k=k); "
        "a user in neither frame is skipped",
        "mean": "python_evaluation.<function>(rating_true, rating_pred, k=k) on all users",
    },
    "user_set": "P/R/MAP: merge_ranking_true_pred keeps the users in both frames; nDCG: see the recorded means",
    "tie_order": "get_top_k_items: sort_values by prediction then cumcount (see tie_probe)",
    "seen_items": "kept: the evaluation module does not filter",
}


def recommenders_probe(data: dict) -> dict:
    import pandas as pd
    from recommenders.evaluation.python_evaluation import get_top_k_items

    frame = pd.DataFrame(
        {
            "userID": ["u"] * 6,
            "itemID": ["i0", "i1", "i2", "i3", "i4", "i5"],
            "prediction": [0.5, 1.0, 0.5, 0.5, 1.0, 0.5],
        }
    )
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
            except Exception as error:  # noqa: BLE001 (a crash is a recorded value)
                per_user[user] = failure(error)
        try:
            mean = float(function(test_ur, [lists[u] for u in test_u], test_u))
        except Exception as error:  # noqa: BLE001 (a crash is a recorded value)
            mean = failure(error)
        out[name] = entry(
            per_user, mean, f"daisy.utils.metrics.{functions[family]}(test_ur, pred_ur[:, :{k}], test_u)"
        )
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
        "calls": {
            "coverage": "daisy.utils.metrics.Coverage(pred_ur, item_num=6)",
            "diversity_euclidean": "daisy.utils.metrics.Diversity(pred_ur, i_categories) (0/1 genre rows; "
            "mean Euclidean distance)",
        },
    }


DAISYREC = {
    "distribution": "daisyrec",
    "calls": {
        "per_user": "daisy.utils.metrics.<Metric>(test_ur, [list of one user cut at k], [user])",
        "mean": "daisy.utils.metrics.<Metric>(test_ur, lists cut at k, test_u)",
    },
    "user_set": "test_u: the users of the test set (with a relevant item)",
    "tie_order": "none: DaisyRec's metrics take ranked item lists (here in the given order)",
    "seen_items": "kept: the metric functions do not filter (the candidate generator does)",
}


# ---------------------------------------------------------------- RecTools


def rectools_values(data: dict, dataset: str) -> dict:
    """``calc_per_user`` and ``calc`` on a ranked recommendations frame (rank = place in the given order)."""
    import pandas as pd
    from rectools import metrics as rt

    reco = pd.DataFrame(
        [(u, i, r + 1) for u in data["users"] for r, i in enumerate(ranked(data, u))],
        columns=["user_id", "item_id", "rank"],
    )
    interactions = pd.DataFrame(
        [(u, i) for u in data["users"] for i in sorted(relevant(data, u))], columns=["user_id", "item_id"]
    )
    classes = {
        "P": rt.Precision,
        "R": rt.Recall,
        "HR": rt.HitRate,
        "MRR@": rt.MRR,
        "MAP": rt.MAP,
        "nDCG": rt.NDCG,
    }
    out = {}
    for name, family, k in measures(dataset):
        metric = classes[family](k=k)
        try:
            per_user = {str(u): float(v) for u, v in metric.calc_per_user(reco, interactions).items()}
            mean = metric.calc(reco, interactions)
        except Exception as error:  # noqa: BLE001 (a crash is a recorded value)
            out[name] = failure(error)
            continue
        out[name] = entry(
            per_user, mean, f"rectools.metrics.{classes[family].__name__}(k={k}).calc(reco, interactions)"
        )
    return out


RECTOOLS = {
    "distribution": "rectools",
    "calls": {
        "per_user": "rectools.metrics.<Metric>(k=k).calc_per_user(reco[user_id, item_id, rank], "
        "interactions[user_id, item_id]) with the defaults (NDCG: divide_by_achievable=False, "
        "log_base=2; MAP: divide_by_k=False; Precision: r_precision=False)",
        "mean": "<Metric>(k=k).calc(reco, interactions)",
    },
    "user_set": "the users of the test interactions",
    "tie_order": "none: RecTools takes ranks (here the place in the given order)",
    "seen_items": "kept: the metrics do not filter (recommend(filter_viewed=True) does)",
}
