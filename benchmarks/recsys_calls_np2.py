"""How benchmarks/recsys_library_values.py calls torchmetrics, LensKit, Cornac, implicit, RePlay, Evidently."""

from __future__ import annotations

import numpy as np
from recsys_record import KS, PROBE_KS, clean, entry, failure, guarded, measures, ranked, relevant

# ---------------------------------------------------------------- torchmetrics


def torchmetrics_values(data: dict, dataset: str) -> dict:
    """Per user: the functional metric on the user's listed items; mean: the metric class."""
    import torch
    from torchmetrics import retrieval as classes
    from torchmetrics.functional import retrieval as functional

    names = {
        "P": "precision",
        "R": "recall",
        "HR": "hit_rate",
        "MRR@": "reciprocal_rank",
        "MAP": "average_precision",
        "nDCG": "normalized_dcg",
    }
    class_names = {
        "P": "RetrievalPrecision",
        "R": "RetrievalRecall",
        "HR": "RetrievalHitRate",
        "MRR@": "RetrievalMRR",
        "MAP": "RetrievalMAP",
        "nDCG": "RetrievalNormalizedDCG",
    }
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
            except Exception as error:  # noqa: BLE001 (a crash is a recorded value)
                per_user[user] = failure(error)
            preds.append(scores), target.append(t), indexes.append(torch.full((len(items),), index))
        metric = getattr(classes, class_names[family])(top_k=k)  # empty_target_action="neg"
        try:
            metric.update(torch.cat(preds), torch.cat(target), torch.cat(indexes))
            mean = float(metric.compute())
        except Exception as error:  # noqa: BLE001 (a crash is a recorded value)
            mean = failure(error)
        out[name] = entry(
            per_user, mean, f"{class_names[family]}(top_k={k}).update(preds, target, indexes).compute()"
        )
    return out


TORCHMETRICS = {
    "distribution": "torchmetrics",
    "calls": {
        "per_user": "torchmetrics.functional.retrieval.retrieval_<measure>(preds, target, top_k=k) on the "
        "user's listed items (scores; 0/1 targets, graded for nDCG)",
        "mean": "torchmetrics.retrieval.Retrieval<Measure>(top_k=k) over all listed rows, indexes = users",
    },
    "user_set": "only the users with a list (a user with no recommendation has no row to pass); users whose list "
    "holds no relevant item count 0 (empty_target_action='neg')",
    "tie_order": "torch.topk / argsort on the scores: the order of equal scores is not specified (nDCG averages "
    "over tied scores)",
    "seen_items": "kept: torchmetrics sees only the rows passed",
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
    tests = ItemListCollection.from_dict(
        {u: test_list(u) for u in data["users"] if data["test"].get(u)}, key="user_id"
    )
    classes = {
        "P": Precision,
        "R": Recall,
        "HR": Hit,
        "MRR@": RecipRank,
        "MAP": AveragePrecision,
        "nDCG": NDCG,
    }
    out = {}
    for name, family, k in measures(dataset):
        metric = classes[family](n=k)
        per_user = {}
        for user in data["users"]:
            try:
                per_user[user] = float(metric.measure_list(rec_list(user), test_list(user)))
            except Exception as error:  # noqa: BLE001 (a crash is a recorded value)
                per_user[user] = failure(error)
        try:
            summary = RunAnalysis(metric).measure(outputs, tests).list_summary()
            mean = float(summary.loc[metric.label, "mean"])
        except Exception as error:  # noqa: BLE001 (a crash is a recorded value)
            mean = failure(error)
        out[name] = entry(
            per_user,
            mean,
            f"lenskit.metrics.RunAnalysis({classes[family].__name__}(n={k}))"
            ".measure(outputs, test).list_summary()['mean']",
        )
    return out


LENSKIT = {
    "distribution": "lenskit",
    "calls": {
        "per_user": "lenskit.metrics.<Metric>(n=k).measure_list(ItemList(recs, ordered=True), "
        "ItemList(test items, rating=grade)); a user without test items gets an empty test list",
        "mean": "RunAnalysis(metric).measure(outputs of every user, test of the users with test items)"
        ".list_summary()['mean']",
    },
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
    wanted = [(n, f, k) for n, f, k in measures(dataset) if f in at_k] + [
        ("MRR", "MRR", 0),
        ("MAP", "MAP", 0),
    ]
    out = {}
    for name, family, k in wanted:
        metric = at_k[family](k=k) if family in at_k else getattr(cm, family)()
        per_user = {}
        for user in users:
            pairs = [(index[i], s) for i, s in data["recommendations"][user] if i not in data["seen"][user]]
            pd_rank = np.array([i for i, _ in pairs], dtype=int)
            gt_pos = np.array(sorted(index[i] for i in relevant(data, user)), dtype=int)
            try:
                value = metric.compute(
                    gt_pos=gt_pos,
                    pd_rank=pd_rank,
                    item_indices=pd_rank,
                    pd_scores=np.array([s for _, s in pairs], dtype=float),
                )
                per_user[user] = float(value)
            except Exception as error:  # noqa: BLE001 (a crash is a recorded value)
                per_user[user] = failure(error)
        out[name] = entry(per_user)  # ranking_eval's mean is this plain mean over these users
        out[name]["mean_call"] = (
            "sum(user_results) / len(user_results) as cornac.eval_methods.base_method."
            "ranking_eval averages (computed by the script; ranking_eval stops at an error)"
        )
    return out


CORNAC = {
    "distribution": "cornac",
    "calls": {
        "per_user": "cornac.metrics.<Metric>(k=k).compute(gt_pos=relevant item indices, pd_rank=the list "
        "without seen items, item_indices=pd_rank, pd_scores=their scores); MRR and MAP take no k",
        "mean": "the plain mean over the users with positive test items, as ranking_eval computes it",
    },
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
                per_user[user] = float(
                    ranking_metrics_at_k(model, csr_matrix(train), csr_matrix(one), K=k, show_progress=False)[
                        keys[family]
                    ]
                )
            except Exception as error:  # noqa: BLE001 (a crash is a recorded value)
                per_user[user] = failure(error)
        try:
            mean = float(
                ranking_metrics_at_k(model, csr_matrix(train), csr_matrix(test), K=k, show_progress=False)[
                    keys[family]
                ]
            )
        except Exception as error:  # noqa: BLE001 (a crash is a recorded value)
            mean = failure(error)
        out[name] = entry(
            per_user,
            mean,
            f"implicit.evaluation.ranking_metrics_at_k(model, train, test, K={k})['{keys[family]}']",
        )
    return out


IMPLICIT = {
    "distribution": "implicit",
    "calls": {
        "per_user": "implicit.evaluation.ranking_metrics_at_k(model, train_user_items, test matrix of one "
        "user, K=k)[name]",
        "mean": "ranking_metrics_at_k(model, train_user_items, test_user_items, K=k)[name]; model: "
        "AlternatingLeastSquares with user_factors = the score matrix and item_factors = identity",
    },
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
    return {
        "scores": scores[0].tolist(),
        "recommend(N=6) ids": ids.tolist(),
        "random: the top 10 recommend() returned": implicit_lists(data["random"], 10),
    }


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

    recs = pd.DataFrame(
        [(u, i, s) for u in data["users"] for i, s in data["recommendations"][u]],
        columns=["user_id", "item_id", "rating"],
    )
    truth = pd.DataFrame(
        [(u, i) for u in data["users"] for i in sorted(relevant(data, u))], columns=["user_id", "item_id"]
    )
    return recs, truth


def replay_values(data: dict, dataset: str) -> dict:
    """Each metric with ``mode=PerUser()`` and with the default ``Mean()``, on pandas frames."""
    from replay import metrics as rp

    recs, truth = replay_frames(data)
    classes = {
        "P": rp.Precision,
        "R": rp.Recall,
        "HR": rp.HitRate,
        "MRR@": rp.MRR,
        "MAP": rp.MAP,
        "nDCG": rp.NDCG,
    }
    out = {}
    for name, family, k in measures(dataset):
        cls = classes[family]
        try:
            per_user = next(
                iter(cls(topk=k, query_column="user_id", mode=rp.PerUser())(recs, truth).values())
            )
            mean = next(iter(cls(topk=k, query_column="user_id")(recs, truth).values()))
        except Exception as error:  # noqa: BLE001 (a crash is a recorded value)
            out[name] = failure(error)
            continue
        out[name] = entry(
            {str(u): float(v) for u, v in per_user.items()},
            mean,
            f"replay.metrics.{cls.__name__}(topk={k}, query_column='user_id')(recommendations, ground_truth)",
        )
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

    recs = pd.DataFrame(
        [(u, i, float(3 - r)) for u, items in toy["lists"].items() for r, i in enumerate(items)],
        columns=["user_id", "item_id", "rating"],
    )
    train = pd.DataFrame(
        [(f"t{n:03d}", item) for item, count in toy["counts"].items() for n in range(count)],
        columns=["user_id", "item_id"],
    )
    found = guarded(
        lambda: {k: clean(v) for k, v in Coverage(topk=3, query_column="user_id")(recs, train).items()}
    )
    return {
        "Coverage": found if "error" in found else next(iter(found.values())),
        "calls": {
            "Coverage": "replay.metrics.Coverage(topk=3, query_column='user_id')(recommendations, train) "
            "(train: one row per interaction, a 50 ... f 1)"
        },
    }


REPLAY = {
    "distribution": "replay-rec",
    "calls": {
        "per_user": "replay.metrics.<Metric>(topk=k, query_column='user_id', mode=PerUser())(recs, truth)",
        "mean": "replay.metrics.<Metric>(topk=k, query_column='user_id')(recs, truth) (Mean())",
    },
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
        listed = {i: s for i, s in data["recommendations"][user]}
        grades = data["test"].get(user, {})
        for j, item in enumerate(data["items"]):
            rows.append((user, item, float(grades.get(item, 0)), listed.get(item, -1.0 - j / 1000)))
    return pd.DataFrame(rows, columns=["user_id", "item_id", "target", "prediction"])


def evidently_values(data: dict, dataset: str) -> dict:
    """The legacy recsys metrics in one Report; per user, the same Report on the user's rows alone."""
    from evidently.legacy import metrics as ev
    from evidently.legacy.pipeline.column_mapping import ColumnMapping
    from evidently.legacy.report import Report

    classes = {
        "P": ev.PrecisionTopKMetric,
        "R": ev.RecallTopKMetric,
        "HR": ev.HitRateKMetric,
        "MRR@": ev.MRRKMetric,
        "MAP": ev.MAPKMetric,
        "nDCG": ev.NDCGKMetric,
    }
    mapping = ColumnMapping(
        recommendations_type="score",
        target="target",
        prediction="prediction",
        user_id="user_id",
        item_id="item_id",
    )

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
        everyone = guarded(lambda k=k: run(data["users"], k))
        per_user_runs = {u: guarded(lambda u=u, k=k: run([u], k)) for u in data["users"]}
        for name, family, kk in measures(dataset):
            if kk != k:
                continue
            per_user = {u: found if "error" in found else found[family] for u, found in per_user_runs.items()}
            mean = everyone if "error" in everyone else everyone[family]
            out[name] = entry(
                per_user,
                mean,
                f"evidently.legacy.report.Report([{classes[family].__name__}(k={k}), "
                "...]).run(...); metric.get_result().current at k",
            )
    return out


def evidently_probe(data: dict) -> dict:
    """Tied scores share their average rank, truncated: (1 + 2) / 2 -> 1, (1 + 2 + 3 + 4) / 4 -> 2."""
    out = {}
    for label, scores in (
        ("two relevant items tied first", [0.5, 0.5, 0.2, 0.1]),
        ("four relevant items tied", [0.5, 0.5, 0.5, 0.5]),
    ):
        relevant_items = {"i0": 1, "i1": 1} if label.startswith("two") else {f"i{j}": 1 for j in range(4)}
        tied = {
            "users": ["u"],
            "items": ["i0", "i1", "i2", "i3"],
            "seen": {"u": []},
            "test": {"u": relevant_items},
            "recommendations": {"u": [[f"i{j}", s] for j, s in enumerate(scores)]},
        }
        found = evidently_values(tied, "tie_probe")
        out[label] = {"data": tied, **{name: value["mean"] for name, value in found.items()}}
    return out


EVIDENTLY = {
    "distribution": "evidently",
    "calls": {
        "per_user": "the same Report on one user's rows (a user without a relevant item is dropped there "
        "too, so its run fails or is empty)",
        "mean": "Report(metrics=[<Metric>(k=k), ...]).run(current_data=rows, column_mapping=ColumnMapping("
        "recommendations_type='score', ...)), the metric's current_value",
    },
    "user_set": "no_feedback_users=False: only users with a target > 0",
    "tie_order": "scores become ranks with groupby().rank(ascending=False).astype(int): tied items share "
    "their average rank, truncated to an integer",
    "seen_items": "kept: the rows are evaluated as given; rows: every catalogue item, the items outside the list "
    "scored below it by item id (graded target for nDCG, as Evidently reads it)",
}
