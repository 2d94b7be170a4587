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


def run_one(engine: str, workers: int, folder: Path, out: Path, shuffle_only: bool) -> None:
    import pandas as pd

    started = time.perf_counter()
    if engine == "local":
        import rankmetrics as rm

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
            Client(cluster),
        ):
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
                result = rmd.evaluate(qrels, run, METRICS)
                frame = result.per_query.compute()
            elapsed = time.perf_counter() - ready
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
        spark.stop()
    if engine == "local":
        elapsed = time.perf_counter() - started
    if frame is not None:
        frame.sort_values("query_id").to_parquet(out.with_suffix(".parquet"))
    out.write_text(json.dumps({"seconds": elapsed}))


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


def measure(python: str, engine: str, workers: int, folder: Path, shuffle_only: bool = False) -> dict:
    out = folder / f"{engine}-{workers}-{'shuffle' if shuffle_only else 'evaluate'}.json"
    command = [python, __file__, "--one", engine, str(workers), str(folder), str(out)]
    if shuffle_only:
        command.append("--shuffle-only")
    env = dict(os.environ, PYSPARK_PYTHON=python, PYTHONWARNINGS="ignore")
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(process.pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample)
    sampler.start()
    _, stderr = process.communicate()
    done.set()
    sampler.join()
    if process.returncode:
        raise RuntimeError(f"{engine} {workers} failed:\n{stderr[-3000:]}")
    seconds = json.loads(out.read_text())["seconds"]
    return {"seconds": round(seconds, 3), "peak_mib": round(peak / 2**20, 1)}


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
    parser.add_argument("--one", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--shuffle-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        engine, workers, folder, out = args.one
        run_one(engine, int(workers), Path(folder), Path(out), args.shuffle_only)
        return
    results = {
        "machine": {
            "cores": os.cpu_count(),
            "python": platform.python_version(),
            "system": platform.system(),
        },
        "metrics": METRICS,
        "per_query_documents": PER_QUERY,
        "note": "seconds: from reading the Parquet files to the summary, the cluster already started; "
        "peak_mib: resident memory of the process and all of its children (workers, JVM)",
        "sizes": [],
        "load_average_start": [round(x, 2) for x in os.getloadavg()],
    }
    engines = [("local", 1), ("dask", 1), ("dask", 2)]
    if args.spark_python:
        engines += [("spark", 1), ("spark", 2)]
    for rows in args.rows:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            make_data(rows, folder)
            size = {"rows": rows, "queries": rows // PER_QUERY, "runs": {}}
            for engine, workers in engines:
                python = args.spark_python if engine == "spark" else sys.executable
                key = f"{engine}-{workers}"
                entry = measure(python, engine, workers, folder)
                if engine != "local":
                    entry["shuffle_seconds"] = measure(python, engine, workers, folder, shuffle_only=True)[
                        "seconds"
                    ]
                    entry["max_difference"] = agreement(folder, engine, workers)
                size["runs"][key] = entry
                print(rows, key, entry, flush=True)
            local = size["runs"]["local-1"]["seconds"]
            for key, entry in size["runs"].items():
                entry["ratio_to_local"] = round(entry["seconds"] / local, 3)
                entry["overhead_us_per_row"] = round((entry["seconds"] - local) / rows * 1e6, 3)
            for engine in ("dask", "spark"):
                if f"{engine}-2" in size["runs"]:
                    one, two = size["runs"][f"{engine}-1"]["seconds"], size["runs"][f"{engine}-2"]["seconds"]
                    size[f"{engine}_speedup_2_over_1"] = round(one / two, 3)
            size["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
            results["sizes"].append(size)
            args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
