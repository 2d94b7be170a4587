"""How benchmarks/recsys_speed.py calls rankmetrics and each library, one per Python (its worker).

Run by ``recsys_speed.py`` as ``python recsys_speed.py --worker NAME --data FILE --users N
--out FILE``, in the library's own virtual environment: nothing here imports a library (or
rankmetrics) until its worker runs. Each worker reads the first ``--users`` users of the
data file into DataFrames (untimed), times its library from those DataFrames to the six
means, and writes the means, the times and (where the library gives them cheaply)
per-user values.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
K = 10
SIX = [f"P@{K}", f"R@{K}", f"HR@{K}", f"MRR@{K}", f"MAP@{K}", f"nDCG@{K}"]


# like= calls that reproduce each library: (measures, extra conventions). Recommenders averages
# nDCG over other users than P/R/MAP, torchmetrics orders ties differently for nDCG: two calls.
PRESET_CALLS = {
    "recbole": [(SIX, {})],
    "recommenders": [([f"P@{K}", f"R@{K}", f"MAP@{K}"], {}), ([f"nDCG@{K}"], {"missing": "zero"})],
    "torchmetrics": [(SIX[:5], {"ties": "input_order"}), ([f"nDCG@{K}"], {})],
    "ranx": [(SIX, {})],
}


def load(path: str, users: int) -> tuple:
    """The first ``users`` users' test set and recommendations as pandas DataFrames."""
    import pandas as pd

    data = np.load(path)
    rec_end = int(np.searchsorted(data["rec_user"], users))
    test_end = int(np.searchsorted(data["test_user"], users))
    test = pd.DataFrame({"user_id": data["test_user"][:test_end], "item_id": data["test_item"][:test_end]})
    recs = pd.DataFrame(
        {
            "user_id": data["rec_user"][:rec_end],
            "item_id": data["rec_item"][:rec_end],
            "score": data["rec_score"][:rec_end],
        }
    )
    return test, recs


# ---------------------------------------------------------------- the workers (one per Python)


def work_rankmetrics(test, recs, presets: list[str]) -> dict:
    sys.path.insert(0, str(ROOT))
    import warnings

    import rankmetrics as rm  # the repository's package

    start = time.perf_counter()
    result = rm.evaluate(test, recs, SIX)
    out = {"seconds": time.perf_counter() - start, "means": dict(result.summary), "presets": {}}
    out["version"] = rm.__version__
    for like in presets:
        entry = {"seconds": 0.0, "means": {}, "per_user": {}}
        for measures, options in PRESET_CALLS[like]:
            start = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter(
                    "ignore"
                )  # no ties here; a tie warning would be a bug shown by the values
                found = rm.evaluate(test, recs, measures, like=like, **options)
            entry["seconds"] += time.perf_counter() - start
            entry["means"].update(found.summary)
            users = np.array(found.queries, dtype=np.int64)
            for name in measures:
                entry["per_user"][name] = (users, np.asarray(found.per_query[name], dtype=np.float64))
        out["presets"][like] = entry
    return out


def work_recommenders(test, recs) -> dict:
    import recommenders
    from recommenders.evaluation import python_evaluation as pe

    true = test.rename(columns={"user_id": "userID", "item_id": "itemID"}).assign(rating=1.0)
    pred = recs.rename(columns={"user_id": "userID", "item_id": "itemID", "score": "prediction"})
    names = {
        f"P@{K}": "precision_at_k",
        f"R@{K}": "recall_at_k",
        f"MAP@{K}": "map_at_k",
        f"nDCG@{K}": "ndcg_at_k",
    }
    means, seconds = {}, {}
    for name, function in names.items():
        start = time.perf_counter()
        means[name] = float(getattr(pe, function)(true, pred, k=K))
        seconds[name] = time.perf_counter() - start
    return {
        "seconds": sum(seconds.values()),
        "by_measure": seconds,
        "means": means,
        "version": recommenders.__version__,
    }


def work_recbole(test, recs) -> dict:
    import importlib.metadata

    import torch
    from recbole.config import Config
    from recbole.evaluator import metrics as rb
    from recbole.evaluator.collector import DataStruct

    Config.compatibility_settings(None)  # puts back np.float, which MRR, MAP and NDCG use
    start = time.perf_counter()
    users, hits, pos_len = _top_hits(test, recs)
    prepared = time.perf_counter() - start
    struct = DataStruct()
    struct.set(
        "rec.topk", torch.cat((torch.from_numpy(hits).int(), torch.from_numpy(pos_len)[:, None]), dim=1)
    )
    classes = {"P": rb.Precision, "R": rb.Recall, "HR": rb.Hit, "MRR": rb.MRR, "MAP": rb.MAP, "nDCG": rb.NDCG}
    means, per_user = {}, {}
    for family, cls in classes.items():
        name = f"{family}@{K}"
        metric = cls({"topk": [K], "metric_decimal_place": 12})
        pos_index, lengths = metric.used_info(struct)
        info = (
            metric.metric_info(pos_index, lengths)
            if family in ("R", "MAP", "nDCG")
            else metric.metric_info(pos_index)
        )
        per_user[name] = (users, np.asarray(info[:, K - 1], dtype=np.float64))
        means[name] = float(next(iter(metric.calculate_metric(struct).values())))
    total = time.perf_counter() - start
    return {
        "seconds": total,
        "prepare_seconds": prepared,
        "means": means,
        "per_user": per_user,
        "version": importlib.metadata.version("recbole"),
    }


def _top_hits(test, recs) -> tuple:
    """Each user's top K as a hit matrix, and |R| per user, from the frames (pandas, vectorised)."""
    import pandas as pd

    ranked = recs.sort_values(["user_id", "score"], ascending=[True, False], kind="stable")
    ranked = ranked[ranked.groupby("user_id", sort=False).cumcount() < K]
    rank = ranked.groupby("user_id", sort=False).cumcount().to_numpy()
    hit = (
        ranked.merge(test.assign(_hit=True), on=["user_id", "item_id"], how="left")["_hit"].notna().to_numpy()
    )
    users, row = np.unique(ranked["user_id"].to_numpy(), return_inverse=True)
    hits = np.zeros((len(users), K), dtype=bool)
    hits[row, rank] = hit
    pos_len = test.groupby("user_id").size().reindex(pd.Index(users)).fillna(0).to_numpy(dtype=np.int64)
    return users.astype(np.int64), hits, pos_len


def work_torchmetrics(test, recs) -> dict:
    import torch
    import torchmetrics
    from torchmetrics import retrieval as tr

    start = time.perf_counter()
    target = recs.merge(test.assign(_hit=True), on=["user_id", "item_id"], how="left")["_hit"].notna()
    preds = torch.from_numpy(recs["score"].to_numpy(dtype=np.float32))
    target = torch.from_numpy(target.to_numpy())
    indexes = torch.from_numpy(recs["user_id"].to_numpy(dtype=np.int64))
    prepared = time.perf_counter() - start
    classes = {
        f"P@{K}": tr.RetrievalPrecision,
        f"R@{K}": tr.RetrievalRecall,
        f"HR@{K}": tr.RetrievalHitRate,
        f"MRR@{K}": tr.RetrievalMRR,
        f"MAP@{K}": tr.RetrievalMAP,
        f"nDCG@{K}": tr.RetrievalNormalizedDCG,
    }
    means, seconds = {}, {}
    for name, cls in classes.items():
        begin = time.perf_counter()
        metric = cls(top_k=K)
        metric.update(preds, target, indexes)
        means[name] = float(metric.compute())
        seconds[name] = time.perf_counter() - begin
    return {
        "seconds": time.perf_counter() - start,
        "prepare_seconds": prepared,
        "by_measure": seconds,
        "means": means,
        "version": torchmetrics.__version__,
    }


def work_ranx(test, recs) -> dict:
    import importlib.metadata

    import pandas as pd
    from ranx import Qrels, Run, evaluate

    metrics = {
        f"P@{K}": f"precision@{K}",
        f"R@{K}": f"recall@{K}",
        f"HR@{K}": f"hit_rate@{K}",
        f"MRR@{K}": f"mrr@{K}",
        f"MAP@{K}": f"map@{K}",
        f"nDCG@{K}": f"ndcg@{K}",
    }
    tiny = pd.DataFrame({"q_id": ["a", "a"], "doc_id": ["x", "y"], "score": [1, 1]})
    evaluate(
        Qrels.from_df(tiny), Run.from_df(tiny.assign(score=[2.0, 1.0])), list(metrics.values())
    )  # numba compiles
    start = time.perf_counter()
    qrels = Qrels.from_df(
        pd.DataFrame(
            {
                "q_id": test["user_id"].astype(str).astype(object),
                "doc_id": test["item_id"].astype(str).astype(object),
                "score": np.ones(len(test), dtype=np.int64),
            }
        )
    )
    run = Run.from_df(
        pd.DataFrame(
            {
                "q_id": recs["user_id"].astype(str).astype(object),
                "doc_id": recs["item_id"].astype(str).astype(object),
                "score": recs["score"].to_numpy(dtype=np.float64),
            }
        )
    )
    prepared = time.perf_counter() - start
    found = evaluate(qrels, run, list(metrics.values()), return_mean=False)
    seconds = time.perf_counter() - start
    queries = run.keys()  # a ranx Run: the order of evaluate's values
    users = np.array([int(q) for q in queries], dtype=np.int64)
    per_user = {name: (users, np.asarray(found[m], dtype=np.float64)) for name, m in metrics.items()}
    means = {name: float(np.mean(values)) for name, (_, values) in per_user.items()}
    return {
        "seconds": seconds,
        "prepare_seconds": prepared,
        "means": means,
        "per_user": per_user,
        "version": importlib.metadata.version("ranx"),
    }


def worker(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    test, recs = load(args.data, args.users)
    loaded = time.perf_counter() - start
    if args.worker == "rankmetrics":
        found = work_rankmetrics(test, recs, [p for p in args.presets.split(",") if p])
    else:
        found = globals()[f"work_{args.worker}"](test, recs)
    found.update(users=int(test["user_id"].nunique()), rows=len(recs), load_seconds=loaded)
    found.update(python=platform.python_version(), numpy=np.__version__)
    arrays = {}
    for owner, entry in [("", found), *((f"{p}:", e) for p, e in found.get("presets", {}).items())]:
        for name, (users, values) in entry.pop("per_user", {}).items():
            arrays[f"{owner}{name}:users"], arrays[f"{owner}{name}:values"] = users, values
    np.savez(args.out + ".npz", **arrays)
    Path(args.out).write_text(json.dumps(found, default=float))
    return 0
