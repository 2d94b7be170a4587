"""Local evaluate vs rankmetrics.dask (1, 2 workers) vs rankmetrics.spark (local[1], local[2]).

For each size (judged rows; each query has 100 retrieved documents, all of
them judged, so the run has as many rows as the qrels) the script writes the
qrels and the run once as Parquet, then runs every engine in a fresh Python
process that reads the Parquet files and evaluates, and samples the resident
memory of that process and all of its children (workers, the JVM) every
50 ms. Every engine's per-query values are compared with the local
evaluate's. A second measurement per engine times the shuffle by query
alone, so that the profile says where the time goes.

    python benchmarks/distributed.py                       # 1M rows, into benchmarks/DISTRIBUTED.json
    python benchmarks/distributed.py --rows 1000000 10000000
    python benchmarks/distributed.py --spark-python /path/to/venv/bin/python

The Spark runs need a Python with pyspark, pandas, pyarrow and rankmetrics
(``make test-spark`` builds one in .venv-spark); without it they are left out.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Run as a script, this file's folder comes first on sys.path, and its name would hide dask's
# "distributed" package from the workers' imports: leave the folder out.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

import numpy as np

METRICS = ["map", "ndcg@10", "P@10", "recip_rank"]
PER_QUERY = 100


def make_data(rows: int, folder: Path) -> None:
    import pandas as pd

    rng = np.random.default_rng(rows)
    queries = rows // PER_QUERY
    qid = np.repeat(np.char.add("q", np.arange(queries).astype(str)), PER_QUERY).astype(object)
    doc = np.char.add("d", rng.integers(0, 10**9, size=rows).astype(str)).astype(object)
    # one document id per (query, position): unique within a query by construction
    doc = np.char.add(doc.astype(str), np.char.add("_", np.tile(np.arange(PER_QUERY), queries).astype(str)))
    grades = rng.choice([0, 0, 0, 1, 2, 3], size=rows)
    scores = np.round(rng.random(rows), 3)  # three decimals: many ties
    order = rng.permutation(rows)  # rows shuffled: a query is spread over every input partition
    pd.DataFrame({"query_id": qid, "doc_id": doc.astype(object), "relevance": grades}).iloc[order].to_parquet(
        folder / "qrels.parquet", row_group_size=250_000
    )
    pd.DataFrame({"query_id": qid, "doc_id": doc.astype(object), "score": scores}).iloc[
        rng.permutation(rows)
    ].to_parquet(folder / "run.parquet", row_group_size=250_000)


# ---------------------------------------------------------------- one engine, in its own process


def _mark(what: str) -> None:
    """Tell the harness where the timed part starts or ends, and wait until it has read the CPU times."""
    print(what, flush=True)
    sys.stdin.readline()


def run_one(engine: str, workers: int, folder: Path, out: Path, shuffle_only: bool) -> None:
    import pandas as pd

    profile = None
    if engine == "local":
        import rankmetrics as rm

        _mark("start")
        started = time.perf_counter()
        result = rm.evaluate(
            pd.read_parquet(folder / "qrels.parquet"), pd.read_parquet(folder / "run.parquet"), METRICS
        )
        frame = result.to_pandas()
    elif engine == "dask":
        import logging

        import dask.dataframe as dd
        from distributed import Client, LocalCluster, wait

        import rankmetrics.dask as rmd

        with (
            LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.ERROR,
            ) as cluster,
            Client(cluster) as client,
        ):
            _mark("start")
            ready = time.perf_counter()
            qrels = dd.read_parquet(folder / "qrels.parquet")
            run = dd.read_parquet(folder / "run.parquet")
            if shuffle_only:
                both = dd.concat(
                    [qrels.rename(columns={"relevance": "v"}), run.rename(columns={"score": "v"})]
                )
                wait(
                    both.shuffle(on="query_id", npartitions=max(qrels.npartitions, run.npartitions)).persist()
                )
                frame = None
            else:
                from distributed import get_task_stream

                with get_task_stream(client) as stream:
                    result = rmd.evaluate(qrels, run, METRICS)
                    frame = result.per_query.compute()
                profile = _task_profile(stream.data)
            elapsed = time.perf_counter() - ready
            _mark("end")
    else:
        from pyspark.sql import SparkSession

        import rankmetrics.spark as rms

        spark = (
            SparkSession.builder.master(f"local[{workers}]")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.memory", "6g")
            .config("spark.sql.shuffle.partitions", str(4 * workers))
            .config("spark.sql.execution.arrow.pyspark.enabled", "true")
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")
        _mark("start")
        ready = time.perf_counter()
        qrels = spark.read.parquet(str(folder / "qrels.parquet"))
        run = spark.read.parquet(str(folder / "run.parquet"))
        if shuffle_only:
            import pyspark.sql.functions as F

            both = qrels.select("query_id", "doc_id").union(run.select("query_id", "doc_id"))
            both.repartition(4 * workers, "query_id").groupBy(F.spark_partition_id()).count().collect()
            frame = None
        else:
            result = rms.evaluate(qrels, run, METRICS)
            frame = result.per_query.toPandas()
        elapsed = time.perf_counter() - ready
        _mark("end")
        spark.stop()
    if engine == "local":
        elapsed = time.perf_counter() - started
        _mark("end")
    if frame is not None:
        frame.sort_values("query_id").to_parquet(out.with_suffix(".parquet"))
    out.write_text(json.dumps({"seconds": elapsed, "task_seconds": profile}))


def _task_profile(tasks: list[dict]) -> dict[str, float]:
    """Seconds of dask task work by kind: computing each kind of task, and moving data between workers."""
    from dask.utils import key_split

    totals: dict[str, float] = {}
    for task in tasks:
        for step in task["startstops"]:
            name = key_split(task["key"]) if step["action"] == "compute" else step["action"]
            totals[name] = totals.get(name, 0.0) + step["stop"] - step["start"]
    return {k: round(v, 3) for k, v in sorted(totals.items(), key=lambda kv: -kv[1])}


# ---------------------------------------------------------------- the harness


def _tree_rss(pid: int) -> int:
    import psutil

    try:
        root = psutil.Process(pid)
        total = root.memory_info().rss
        for child in root.children(recursive=True):
            try:
                total += child.memory_info().rss
            except psutil.Error:
                pass
        return total
    except psutil.Error:
        return 0


def _tree_cpu(pid: int) -> dict[str, float]:
    """User + system CPU seconds so far of the process and its descendants: the driver, workers, the JVM."""
    import psutil

    seconds = {"driver": 0.0, "workers": 0.0, "jvm": 0.0}
    try:
        root = psutil.Process(pid)
        processes = [root, *root.children(recursive=True)]
    except psutil.Error:
        return seconds
    for process in processes:
        try:
            times = process.cpu_times()
            kind = "driver" if process.pid == pid else "jvm" if process.name() == "java" else "workers"
        except psutil.Error:
            continue
        seconds[kind] += times.user + times.system
    return seconds


def measure(python: str, engine: str, workers: int, folder: Path, shuffle_only: bool = False) -> dict:
    """One engine in a fresh process: wall seconds of the timed part, CPU seconds in it, peak memory."""
    out = folder / f"{engine}-{workers}-{'shuffle' if shuffle_only else 'evaluate'}.json"
    command = [python, __file__, "--one", engine, str(workers), str(folder), str(out)]
    if shuffle_only:
        command.append("--shuffle-only")
    env = dict(os.environ, PYSPARK_PYTHON=python, PYTHONWARNINGS="ignore")
    with tempfile.TemporaryFile(mode="w+") as errors:
        process = subprocess.Popen(
            command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, text=True
        )
        peak = 0
        done = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not done.is_set():
                peak = max(peak, _tree_rss(process.pid))
                time.sleep(0.05)

        sampler = threading.Thread(target=sample)
        sampler.start()
        marks = {}
        for line in process.stdout:  # "start" and "end" of the timed part
            marks[line.strip()] = (_tree_cpu(process.pid), os.getloadavg()[0])
            process.stdin.write("\n")
            process.stdin.flush()
        process.wait()
        done.set()
        sampler.join()
        if process.returncode:
            errors.seek(0)
            raise RuntimeError(f"{engine} {workers} failed:\n{errors.read()[-3000:]}")
    child = json.loads(out.read_text())
    (cpu_start, load_start), (cpu_end, load_end) = marks["start"], marks["end"]
    cpu = {kind: round(cpu_end[kind] - cpu_start[kind], 2) for kind in cpu_start if cpu_end[kind]}
    entry = {
        "seconds": round(child["seconds"], 3),
        "cpu_seconds": round(sum(cpu.values()), 2),
        "cpu_seconds_by_process": cpu,
        "peak_mib": round(peak / 2**20, 1),
        "load_average_1min": [round(load_start, 2), round(load_end, 2)],
    }
    if child.get("task_seconds"):
        entry["task_seconds"] = child["task_seconds"]
    return entry


def agreement(folder: Path, engine: str, workers: int) -> float:
    import pandas as pd

    local = pd.read_parquet(folder / "local-1-evaluate.parquet").reset_index(drop=True)
    other = pd.read_parquet(folder / f"{engine}-{workers}-evaluate.parquet").reset_index(drop=True)
    assert local["query_id"].tolist() == other["query_id"].tolist()
    return float(max(np.abs(local[m].to_numpy() - other[m].to_numpy()).max() for m in METRICS))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000])
    parser.add_argument("--spark-python", default=os.environ.get("SPARK_PYTHON"))
    parser.add_argument("--out", type=Path, default=HERE / "DISTRIBUTED.json")
    parser.add_argument(
        "--keep", action="store_true", help="keep the other sizes already in --out (measure only --rows)"
    )
    parser.add_argument("--one", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--shuffle-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        engine, workers, folder, out = args.one
        run_one(engine, int(workers), Path(folder), Path(out), args.shuffle_only)
        return
    kept = []
    if args.keep and args.out.exists():
        kept = [
            s for s in json.loads(args.out.read_text(encoding="utf-8"))["sizes"] if s["rows"] not in args.rows
        ]
    results = {
        "machine": {
            "cores": os.cpu_count(),
            "python": platform.python_version(),
            "system": platform.system(),
        },
        "metrics": METRICS,
        "per_query_documents": PER_QUERY,
        "note": "seconds: from reading the Parquet files to the summary, the cluster already started "
        "(Python and the packages imported); cpu_seconds: user + system CPU time in that span of the "
        "process and all of its descendants alive at its end (driver, dask workers, the JVM and its Python "
        "workers); load_average_1min: the machine's at the start and the end of that span; "
        "task_seconds: dask's task stream, seconds spent computing each kind of task (and moving data); "
        "peak_mib: resident memory of the process and all of its children (workers, JVM)",
        "sizes": kept,
    }
    engines = [("local", 1), ("dask", 1), ("dask", 2)]
    if args.spark_python:
        engines += [("spark", 1), ("spark", 2)]

    def save(size: dict) -> None:  # after every measurement: a run cut short keeps what it measured
        size["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
        results["sizes"] = sorted([*kept, size], key=lambda s: s["rows"])
        args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")

    for rows in args.rows:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            size = {
                "rows": rows,
                "queries": rows // PER_QUERY,
                "commit": subprocess.run(
                    ["git", "rev-parse", "--short", "HEAD"],
                    check=False,
                    cwd=HERE,
                    capture_output=True,
                    text=True,
                ).stdout.strip(),
                "load_average_start": [round(x, 2) for x in os.getloadavg()],
                "complete": False,
                "runs": {},
            }
            make_data(rows, folder)
            # Every engine's evaluation first, then the shuffles alone: a run cut short has the main numbers.
            for engine, workers in engines:
                python = args.spark_python if engine == "spark" else sys.executable
                key = f"{engine}-{workers}"
                try:
                    entry = measure(python, engine, workers, folder)
                    if engine != "local":
                        entry["max_difference"] = agreement(folder, engine, workers)
                except RuntimeError as error:  # e.g. out of memory: kept in the results, the others still run
                    entry = {"error": str(error)[-1500:]}
                size["runs"][key] = entry
                _ratios(size)
                save(size)
                print(rows, key, entry, flush=True)
            for engine, workers in engines[1:]:
                entry = size["runs"][f"{engine}-{workers}"]
                if "error" in entry:
                    continue
                python = args.spark_python if engine == "spark" else sys.executable
                shuffle = measure(python, engine, workers, folder, shuffle_only=True)
                entry["shuffle_seconds"] = shuffle["seconds"]
                entry["shuffle_cpu_seconds"] = shuffle["cpu_seconds"]
                entry["shuffle_load_average_1min"] = shuffle["load_average_1min"]
                save(size)
                print(rows, engine, workers, "shuffle", shuffle, flush=True)
            size["complete"] = True
            save(size)
    print(f"wrote {args.out}")


def _ratios(size: dict) -> None:
    rows, runs = size["rows"], size["runs"]
    local = runs.get("local-1", {})
    if "seconds" not in local:
        return
    for entry in runs.values():
        if "seconds" in entry:
            entry["ratio_to_local"] = round(entry["seconds"] / local["seconds"], 3)
            entry["overhead_us_per_row"] = round((entry["seconds"] - local["seconds"]) / rows * 1e6, 3)
            entry["cpu_ratio_to_local"] = round(entry["cpu_seconds"] / local["cpu_seconds"], 3)
    for engine in ("dask", "spark"):
        one, two = runs.get(f"{engine}-1", {}), runs.get(f"{engine}-2", {})
        if "seconds" in one and "seconds" in two:
            size[f"{engine}_speedup_2_over_1"] = round(one["seconds"] / two["seconds"], 3)
            size[f"{engine}_cpu_2_over_1"] = round(two["cpu_seconds"] / one["cpu_seconds"], 3)


if __name__ == "__main__":
    main()
