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
script (its worker, in ``recsys_speed_calls.py``), on the same file, and is timed from DataFrames already in memory
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
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from recsys_speed_calls import PRESET_CALLS, SIX, worker

HERE = Path(__file__).resolve().parent
GOAL_SECONDS = 30.0
SEED = 20261204
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
    shutil.rmtree(folder, ignore_errors=True)  # the data file and the workers' outputs (GBs at full size)
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


def report(info: dict, r: dict) -> str:
    full = r["rankmetrics"][str(r["users"])]
    lines = [
        "# The recommender route at scale: rankmetrics and the recommender libraries",
        "",
        "Written by `benchmarks/recsys_speed.py` (seeded synthetic data; see its docstring).",
        f"Machine: {info['cpu'] or 'unknown CPU'}, {info['cores']} cores, Python {info['python']}, "
        f"numpy {info['numpy']}. The machine was shared with other work, so the times are one run's, "
        f"not a bound (load average {info['load_before']} before the run, {info['load_after']} after, "
        f"on {info['cores']} cores); the same call can take two or three times as long under load.",
        "",
        f"Data: {r['users']:,} users × top-{r['k']} recommendations over {r['items']:,} items, "
        f"5 to 15 test items per user (implicit feedback), as DataFrames with int32 ids. "
        f"Measures: {', '.join(SIX)}. Times in seconds, from DataFrames in memory to the means; "
        "peak memory is the worker's resident memory (data and libraries included).",
        "",
        "| library | version | users | seconds | of which preparing | peak memory (GB) "
        "| rankmetrics on the same users (s) | library ÷ rankmetrics |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for users, ours in sorted(r["rankmetrics"].items(), key=lambda pair: int(pair[0])):
        if "error" in ours:
            lines.append(f"| rankmetrics | | {int(users):,} | failed: {ours['error']} | | | | |")
            continue
        bold = "**" if int(users) == r["users"] else ""
        lines.append(
            f"| rankmetrics `evaluate` (default conventions) | {ours['version']} | {ours['users']:,} "
            f"| {bold}{ours['seconds']:.2f}{bold} | | {ours['peak_gb']:.1f} | | |"
        )
    notes, ratios = [], []
    for name, entry in r["libraries"].items():
        if "skipped" in entry:
            lines.append(f"| {name} | not run: {entry['skipped']} | | | | | | |")
            continue
        for found in entry["runs"]:
            if "error" in found:
                lines.append(f"| {name} | failed at {found['users']:,} users: {found['error']} | | | | | | |")
                continue
            ours = r["rankmetrics"].get(str(found["users"]), {})
            prep = f"{found['prepare_seconds']:.2f}" if "prepare_seconds" in found else ""
            mine, ratio = "", ""
            if "seconds" in ours:
                mine, ratio = f"{ours['seconds']:.2f}", f"{found['seconds'] / ours['seconds']:.1f}"
            lines.append(
                f"| {name} | {found['version']} | {found['users']:,} | {found['seconds']:.2f} | {prep} "
                f"| {found['peak_gb']:.1f} | {mine} | {ratio} |"
            )
        ran = [f for f in entry["runs"] if "error" not in f]
        if ran:
            largest = max(ran, key=lambda f: f["users"])
            ours = r["rankmetrics"].get(str(largest["users"]), {})
            if "seconds" in ours:
                ratios.append((name, largest["users"], largest["seconds"] / ours["seconds"]))
            stopped = [f for f in entry["runs"] if "error" in f]
            if stopped:
                notes.append(
                    f"{name} ran at {largest['users']:,} users at most; at {stopped[0]['users']:,} users "
                    f"it was {stopped[0]['error']}."
                )
            elif largest["users"] < r["users"]:
                notes.append(
                    f"{name} ran at {largest['users']:,} users at most: the next size, predicted from "
                    f"its runs, would exceed {r['limit_seconds']:.0f} s or {r['memory_gb']:g} GB."
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
        "- `like=` calls: "
        + "; ".join(
            f"{name}: "
            + " and ".join(
                f"{', '.join(measures)}" + (f" with {options}" if options else "")
                for measures, options in calls
            )
            for name, calls in PRESET_CALLS.items()
        )
        + ".",
        "- RecBole rounds its means to `metric_decimal_place` digits (12 here): its means differ in "
        "the 13th digit, its per-user values (`metric_info`) not at all.",
        "- torchmetrics computes in float32 (`preds.float()`): agreement to float32's precision.",
        "- Recommenders' `python_evaluation` returns means only (no per-user values), and has no hit rate and no MRR.",
        "",
    ]
    if "means" in full:
        lines.append(
            "Means at the full size (rankmetrics, default conventions): "
            + ", ".join(f"{m} {full['means'][m]:.6f}" for m in SIX)
            + "."
        )
        lines.append("")
    if "seconds" in full:
        met = full["seconds"] <= GOAL_SECONDS
        lines.append(
            f"Goal (issue 31 §5): ≤ {GOAL_SECONDS:g} s on {r['users']:,} users: "
            f"{full['seconds']:.2f} s ({'met' if met else 'not met'}). Faster than each library, "
            "at the largest size both ran: "
            + "; ".join(
                f"{name} at {users:,} users {ratio:.1f}× rankmetrics' time ({'met' if ratio > 1 else 'not met'})"
                for name, users, ratio in ratios
            )
            + "."
        )
    lines += ["", *notes, ""]
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
    parser.add_argument("--report-only", help="write the report again from this JSON (no run)")
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args)
    if args.report_only:
        saved = json.loads(Path(args.report_only).read_text())
        info, result = saved["machine"], saved["result"]
    else:
        from recsys_beyond_accuracy_speed import machine  # the driver's Python has rankmetrics

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
