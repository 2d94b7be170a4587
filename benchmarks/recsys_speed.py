"""The recommender route at scale: rankmetrics against the recommender libraries, from DataFrames.

Run from the repository root (the side environments as in ``recsys_library_values.py``;
ranx from ``requirements-bench.txt``):

    python benchmarks/recsys_speed.py --np1-python /tmp/recsys-np1/bin/python \\
        --np2-python /tmp/recsys-np2/bin/python --ranx-python /tmp/bench/bin/python
    python benchmarks/recsys_speed.py --users 20000 --no-write      # a quick look

Issue 31 §5 asks for 1,000,000 users × top-100 recommendations against about ten test
items per user, six measures (P@10, R@10, HR@10, MRR@10, MAP@10, nDCG@10) from
DataFrames, rankmetrics against every recommender library installed, in at most 30 s on
2 cores. The data are seeded and synthetic, made once and written to an ``.npz`` file in
a temporary folder that every process reads (the numpy < 2 environment has no parquet
reader):

- ``--items`` items; each user's 100 distinct items are positions in a popularity order
  drawn as a cumulative sum of random gaps (a per-user spread), mapped through one random
  permutation to item ids; the list's order is its rank, the score ``100 - position``
  (distinct, positive: no tie rule and no "score <= 0" rule matters);
- 5 to 15 test items per user (mean 10): each one of the user's listed items (its rank
  drawn from an exponential towards the top) with probability 0.3, else any catalogue
  item; an item drawn twice is kept once; implicit feedback (no
  ``relevance`` column: every test row is relevant with grade 1). Every user has a list
  and test items, so every library averages over the same users.

Each library runs in its own Python (its own virtual environment) as a subprocess of this
script, on the same file, and is timed from DataFrames already in memory
(``user_id, item_id[, score]``, int32 ids) to its six means (the ones it has):

- rankmetrics: ``rm.evaluate(test, recommendations, six)`` (default conventions), and then
  once per library under its ``like=`` preset for the values (timed too);
- Microsoft Recommenders: ``python_evaluation.precision_at_k``, ``recall_at_k``,
  ``map_at_k``, ``ndcg_at_k`` on ``userID, itemID, rating`` / ``prediction`` frames
  (it has no hit rate and no MRR);
- RecBole: the six metric classes' ``metric_info`` and ``calculate_metric`` on the hit
  matrix RecBole's collector builds (the top 10 per user and ``pos_len``); the hit matrix
  is built from the frames with pandas (RecBole's own collector takes ``torch.topk`` of a
  dense user × item score matrix, which does not fit at this size), and its time is
  reported beside the metrics' time;
- torchmetrics: ``Retrieval{Precision,Recall,HitRate,MRR,MAP,NormalizedDCG}(top_k=10)``
  with ``update(preds, target, indexes)`` over all rows, ``target`` from a merge with the
  test set;
- ranx: ``Qrels.from_df`` / ``Run.from_df`` (ids as text, as ranx requires) and
  ``evaluate(qrels, run, six)``; numba compiles its functions on a tiny run first, untimed.

A library is first run on ``--probe-users`` users, then climbs the ladder of ``--sizes``
and the full size: each step goes to the largest size whose time and memory, predicted
from the runs so far, fit ``--limit-seconds`` and ``--memory-gb``. The table reports the
sizes it ran at (the predictions only choose them; nothing is extrapolated). A worker whose
memory passes ``--memory-gb`` is stopped. Each
library's means are compared with rankmetrics' under its preset, at the same users;
where the library gives per-user values cheaply (RecBole, ranx), those are compared too.
Times are wall-clock seconds of one run on a shared machine (the load average is
recorded), not a bound.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
K = 10
SIX = [f"P@{K}", f"R@{K}", f"HR@{K}", f"MRR@{K}", f"MAP@{K}", f"nDCG@{K}"]
GOAL_SECONDS = 30.0
SEED = 20261204

# like= calls that reproduce each library: (measures, extra conventions). Recommenders averages
# nDCG over other users than P/R/MAP, torchmetrics orders ties differently for nDCG: two calls.
PRESET_CALLS = {
    "recbole": [(SIX, {})],
    "recommenders": [([f"P@{K}", f"R@{K}", f"MAP@{K}"], {}), ([f"nDCG@{K}"], {"missing": "zero"})],
    "torchmetrics": [(SIX[:5], {"ties": "input_order"}), ([f"nDCG@{K}"], {})],
    "ranx": [(SIX, {})],
}
LIBRARIES = {"recommenders": "np1", "recbole": "np1", "torchmetrics": "np2", "ranx": "ranx"}


# ---------------------------------------------------------------- the data


def make_data(users: int, k: int, items: int, seed: int = SEED) -> dict:
    """Seeded lists (``users × k`` in rank order) and test sets (5 to 15 items per user)."""
    rng = np.random.default_rng(seed)
    by_popularity = rng.permutation(items).astype(np.int32)  # position in a popularity order -> item id

    def positions(n: int, widest: int) -> np.ndarray:
        spread = rng.integers(1, widest, size=(users, 1), dtype=np.int32)
        gaps = 1 + rng.integers(0, 2 * spread, size=(users, n), dtype=np.int32)
        return np.cumsum(gaps, axis=1, dtype=np.int32) - 1  # distinct, increasing in each row

    lists = by_popularity[positions(k, max(2, items // (2 * k)))]
    # 5 to 15 test items: each one of the user's list (at a rank drawn towards the top) with
    # probability 0.3, else any catalogue item; an item drawn twice is kept once.
    n_test = rng.integers(5, 16, size=users)
    width = int(n_test.max())
    listed = rng.random((users, width)) < 0.3
    ranks = np.minimum(rng.exponential(k / 5, size=(users, width)).astype(np.int64), k - 1)
    tests = np.where(listed, np.take_along_axis(lists, ranks, axis=1), rng.integers(0, items, (users, width)))
    tests = np.sort(np.where(np.arange(width)[None, :] < n_test[:, None], tests, items), axis=1)
    keep = (tests < items) & np.concatenate(
        [np.ones((users, 1), bool), tests[:, 1:] != tests[:, :-1]], axis=1
    )
    return {
        "rec_user": np.repeat(np.arange(users, dtype=np.int32), k),
        "rec_item": lists.ravel(),
        "rec_score": np.tile(np.arange(k, 0, -1, dtype=np.float64), users),
        "test_user": np.repeat(np.arange(users, dtype=np.int32), keep.sum(axis=1)),
        "test_item": tests[keep],
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


# ---------------------------------------------------------------- the driver


def _watch(process: subprocess.Popen, memory_gb: float) -> float:
    """Wait for the worker; stop it if its resident memory passes ``memory_gb`` (a shared machine)."""
    peak = 0.0
    status = Path(f"/proc/{process.pid}/status")
    while process.poll() is None:
        if status.exists():
            found = [line for line in status.read_text().splitlines() if line.startswith("VmRSS:")]
            peak = max(peak, int(found[0].split()[1]) / 2**20 if found else 0.0)
            if peak > memory_gb:
                process.kill()
        time.sleep(0.2)
    return peak


def run_worker(
    python: str, name: str, data: str, users: int, folder: str, memory_gb: float, presets: str = ""
) -> dict:
    out = os.path.join(folder, f"{name}-{users}.json")
    command = [
        python,
        str(Path(__file__).resolve()),
        "--worker",
        name,
        "--data",
        data,
        "--users",
        str(users),
        "--out",
        out,
        "--presets",
        presets,
    ]
    print(f"running {name} on {users:,} users ...", flush=True)
    with open(out + ".log", "w") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        peak = _watch(process, memory_gb)
    if process.returncode != 0:
        tail = Path(out + ".log").read_text().strip().splitlines()[-3:]
        if peak > memory_gb:
            tail = [f"stopped at {peak:.1f} GB of memory (limit --memory-gb {memory_gb:g})"]
        print(f"{name} failed: {tail}", flush=True)
        return {"error": " | ".join(tail), "users": users}
    found = json.loads(Path(out).read_text())
    with np.load(out + ".npz") as arrays:
        found["arrays"] = {key: arrays[key] for key in arrays.files}
    found["peak_gb"] = peak
    print(f"{name}: {found['seconds']:.2f} s on {found['users']:,} users", flush=True)
    return found


def next_size(runs: list[dict], ladder: list[int], limit: float, memory_gb: float) -> int | None:
    """The largest size of the ladder whose predicted time and memory fit (None: stop here).

    After one run the prediction is proportional to the users; after two, the straight line
    through the last two (a worker's fixed start-up then weighs nothing).
    """
    last = runs[-1]
    if len(runs) == 1:
        seconds, gigabytes = last["seconds"] / last["users"], last["peak_gb"] / last["users"]
    else:
        before = runs[-2]
        span = last["users"] - before["users"]
        seconds = max(last["seconds"] - before["seconds"], 0.0) / span
        gigabytes = max(last["peak_gb"] - before["peak_gb"], 0.0) / span

    def fits(n: int) -> bool:
        more = n - last["users"]
        return last["seconds"] + more * seconds <= limit and last["peak_gb"] + more * gigabytes <= memory_gb

    fitting = [n for n in ladder if n > last["users"] and fits(n)]
    return max(fitting) if fitting else None


def agreement(library: dict, ours: dict, like: str) -> dict:
    """Largest |difference| of the means, and of the per-user values where the library gave them."""
    mine = ours["presets"][like]
    means = {n: abs(library["means"][n] - mine["means"][n]) for n in library["means"] if n in mine["means"]}
    per_user = {}
    for name in library["means"]:
        key = f"{name}:users"
        if key not in library["arrays"] or f"{like}:{key}" not in ours["arrays"]:
            continue
        theirs = dict(zip(library["arrays"][key].tolist(), library["arrays"][f"{name}:values"].tolist()))
        users, values = ours["arrays"][f"{like}:{key}"], ours["arrays"][f"{like}:{name}:values"]
        if set(theirs) != set(users.tolist()):
            per_user[name] = "different users"
            continue
        per_user[name] = float(np.max(np.abs(values - np.array([theirs[u] for u in users.tolist()]))))
    return {"means": means, "per_user": per_user}


def drive(args: argparse.Namespace) -> dict:
    folder = tempfile.mkdtemp(prefix="recsys-speed-")
    data_path = os.path.join(folder, "data.npz")
    start = time.perf_counter()
    np.savez(data_path, **make_data(args.users, args.k, args.items))
    made = time.perf_counter() - start
    pythons = {"np1": args.np1_python, "np2": args.np2_python, "ranx": args.ranx_python}
    libraries: dict = {}
    for name, env in LIBRARIES.items():
        if args.only and name not in args.only.split(","):
            continue
        if not pythons[env]:
            libraries[name] = {"skipped": f"no --{env}-python given"}
            continue
        ladder = sorted({n for n in [*args.sizes, args.users] if n <= args.users})
        runs = [
            run_worker(
                pythons[env], name, data_path, min(args.probe_users, args.users), folder, args.memory_gb
            )
        ]
        while "error" not in runs[-1]:
            size = next_size(runs, ladder, args.limit_seconds, args.memory_gb)
            if size is None:
                break
            runs.append(run_worker(pythons[env], name, data_path, size, folder, args.memory_gb))
        libraries[name] = {"runs": runs}
    # rankmetrics at every size a library ran at, with the presets of the libraries that ran there.
    wanted: dict[int, set] = {args.users: set()}
    for name, entry in libraries.items():
        for found in entry.get("runs", []):
            if "error" not in found:
                wanted.setdefault(found["users"], set()).add(name)
    ours = {
        n: run_worker(
            sys.executable, "rankmetrics", data_path, n, folder, args.memory_gb, ",".join(sorted(w))
        )
        for n, w in sorted(wanted.items())
    }
    for name, entry in libraries.items():
        for found in entry.get("runs", []):
            if "error" not in found and "error" not in ours[found["users"]]:
                found["agreement"] = agreement(found, ours[found["users"]], name)
    for found in [*ours.values(), *(f for e in libraries.values() for f in e.get("runs", []))]:
        found.pop("arrays", None)
    return {
        "users": args.users,
        "k": args.k,
        "items": args.items,
        "data_seconds": made,
        "rankmetrics": {str(n): f for n, f in ours.items()},
        "libraries": libraries,
        "limit_seconds": args.limit_seconds,
        "memory_gb": args.memory_gb,
    }


def machine() -> dict:
    model = ""
    if Path("/proc/cpuinfo").exists():
        lines = Path("/proc/cpuinfo").read_text().splitlines()
        model = next((line.split(":", 1)[1].strip() for line in lines if "model name" in line), "")
    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "cpu": model,
        "cores": os.cpu_count(),
        "platform": platform.platform(),
    }


def report(info: dict, r: dict) -> str:
    full = r["rankmetrics"][str(r["users"])]
    lines = [
        "# The recommender route at scale: rankmetrics and the recommender libraries",
        "",
        "Written by `benchmarks/recsys_speed.py` (seeded synthetic data; see its docstring).",
        f"Machine: {info['cpu'] or 'unknown CPU'}, {info['cores']} cores, Python {info['python']}, "
        f"numpy {info['numpy']}. The machine was shared with other work, so the times are one run's, "
        f"not a bound (load average {info['load_before']} before the run, {info['load_after']} after, "
        f"on {info['cores']} cores).",
        "",
        f"Data: {r['users']:,} users × top-{r['k']} recommendations over {r['items']:,} items, "
        f"5 to 15 test items per user (implicit feedback), as DataFrames with int32 ids. "
        f"Measures: {', '.join(SIX)}. Times in seconds, from DataFrames in memory to the means.",
        "",
        "| library | version | users | seconds | of which preparing | peak memory (GB) | rankmetrics on the same users (s) |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    if "error" in full:
        lines.append(f"| rankmetrics | | {r['users']:,} | failed: {full['error']} | | | |")
    else:
        lines.append(
            f"| rankmetrics `evaluate` (default conventions) | {full['version']} | {full['users']:,} "
            f"| **{full['seconds']:.2f}** | | {full['peak_gb']:.1f} | |"
        )
    notes = []
    for name, entry in r["libraries"].items():
        if "skipped" in entry:
            lines.append(f"| {name} | not run: {entry['skipped']} | | | | | |")
            continue
        for found in entry["runs"]:
            if "error" in found:
                lines.append(f"| {name} | failed at {found['users']:,} users: {found['error']} | | | | | |")
                continue
            ours = r["rankmetrics"].get(str(found["users"]), {})
            prep = f"{found['prepare_seconds']:.2f}" if "prepare_seconds" in found else ""
            mine = f"{ours['seconds']:.2f}" if "seconds" in ours else ""
            lines.append(
                f"| {name} | {found['version']} | {found['users']:,} | {found['seconds']:.2f} | {prep} | {found['peak_gb']:.1f} | {mine} |"
            )
        ran = [f["users"] for f in entry["runs"] if "error" not in f]
        if ran and max(ran) < r["users"]:
            notes.append(
                f"{name} ran at {max(ran):,} users at most: at its measured rate the full "
                f"{r['users']:,} would exceed the limit of {r['limit_seconds']:.0f} s or {r['memory_gb']:g} GB."
            )
    lines += [
        "",
        "Agreement with rankmetrics under the library's `like=` preset (largest |difference|; "
        "per user where the library gives per-user values):",
        "",
        "| library | users | preset time (s) | " + " | ".join(SIX) + " |",
        "|---|---:|---:|" + "---|" * len(SIX),
    ]
    for name, entry in r["libraries"].items():
        for found in entry.get("runs", []):
            if "agreement" not in found:
                continue
            agree = found["agreement"]
            ours = r["rankmetrics"][str(found["users"])]["presets"][name]
            cells = []
            for m in SIX:
                if m not in agree["means"]:
                    cells.append("–")
                    continue
                cell = f"mean {agree['means'][m]:.1e}"
                if m in agree["per_user"]:
                    pu = agree["per_user"][m]
                    cell += f", per user {pu:.1e}" if isinstance(pu, float) else f", {pu}"
                cells.append(cell)
            lines.append(
                f"| {name} | {found['users']:,} | {ours['seconds']:.2f} | " + " | ".join(cells) + " |"
            )
    lines += [
        "",
        "Means at the full size (rankmetrics, default conventions): "
        + ", ".join(f"{m} {full['means'][m]:.6f}" for m in SIX)
        if "means" in full
        else "",
        "",
    ]
    if "seconds" in full:
        met = full["seconds"] <= GOAL_SECONDS
        lines.append(
            f"Goal (issue 31 §5): ≤ {GOAL_SECONDS:g} s on {r['users']:,} users: "
            f"{full['seconds']:.2f} s ({'met' if met else 'not met'})."
        )
    lines += [*notes, ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=1_000_000)
    parser.add_argument("--k", type=int, default=100)
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument(
        "--np1-python", help="Python of the numpy < 2 side environment (Recommenders, RecBole)"
    )
    parser.add_argument("--np2-python", help="Python of the numpy 2 side environment (torchmetrics)")
    parser.add_argument("--ranx-python", help="Python of an environment with ranx (requirements-bench.txt)")
    parser.add_argument("--only", help="comma-separated libraries (default: every one with a Python)")
    parser.add_argument("--probe-users", type=int, default=20_000)
    parser.add_argument("--sizes", type=int, nargs="*", default=[100_000, 300_000])
    parser.add_argument("--limit-seconds", type=float, default=600.0)
    parser.add_argument(
        "--memory-gb", type=float, default=12.0, help="stop a worker whose memory passes this"
    )
    parser.add_argument("--out", default=str(HERE / "RECSYS_SPEED.md"))
    parser.add_argument("--no-write", action="store_true", help="print only")
    # A worker: one library in this Python, on the first --users users of --data.
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--data", help=argparse.SUPPRESS)
    parser.add_argument("--presets", default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args)
    info = machine()
    info["load_before"] = f"{os.getloadavg()[0]:.1f}"
    result = drive(args)
    info["load_after"] = f"{os.getloadavg()[0]:.1f}"
    text = report(info, result)
    print(text)
    if not args.no_write:
        Path(args.out).write_text(text)
        Path(args.out).with_suffix(".json").write_text(
            json.dumps({"machine": info, "result": result}, indent=1, default=float) + "\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
