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
    python benchmarks/distributed.py --rows 10000000 --keep   # measure one size, keep the others
    python benchmarks/distributed.py --report              # DISTRIBUTED.md from DISTRIBUTED.json

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


# ---------------------------------------------------------------- the report


LABELS = {
    "local-1": "local `rm.evaluate`",
    "dask-1": "Dask, 1 worker",
    "dask-2": "Dask, 2 workers",
    "spark-1": "Spark local[1]",
    "spark-2": "Spark local[2]",
}
TARGET_SPEEDUP = 1.7  # two workers over one, on 10M rows
TARGET_RATIO = 2.0  # one worker over the local evaluate, on 10M rows
# What dask's task names stand for here (dask fuses the steps of a partition into one task,
# named after one of them).
TASK_KINDS = {
    "read_parquet-operation": "read Parquet, ids to Python text (`_as_text`)",
    "getitem": "evaluate a bucket (`_evaluate_partition`), fused with the `_status` filter",
    "operation": "hash each row's query id to its bucket (the shuffle's first step)",
    "transfer": "moving shuffled rows between workers",
    "disk-write": "spilling to disk",
    "disk-read": "reading spilled data back",
}


def _num(x: float, digits: int = 1) -> str:
    return f"{x:,.{digits}f}"


def _busy(entry: dict) -> float:
    return entry["cpu_seconds"] / entry["seconds"]


def render(results: dict) -> str:
    """DISTRIBUTED.md from DISTRIBUTED.json: the tables, the targets, and where the time goes."""
    out = [
        "# Distributed evaluation: time, memory, and where the time goes",
        "",
        "Rendered by `python benchmarks/distributed.py --report` from `DISTRIBUTED.json`; every number",
        "here comes from that file. Each query has "
        f"{results['per_query_documents']} retrieved documents, all of them judged (the run has as many",
        "rows as the qrels), read from Parquet with the rows shuffled, so that every query starts out",
        f"spread over the input partitions; metrics {', '.join(results['metrics'])}. Each engine runs in a",
        "fresh process. *seconds* counts from reading the Parquet files to the summary, the cluster",
        "already started; *CPU s* is the CPU time of the whole process tree (driver, workers, JVM) in that",
        "span (a process that ends inside the span is not counted; the workers and the JVM live through",
        "it); *cores busy* = CPU s ÷ seconds, how many cores the run kept busy on average. Machine:",
        f"{results['machine']['cores']} cores, Python {results['machine']['python']}, shared with other",
        "jobs while measuring: the 1-minute load average is recorded at the start and end of every run.",
        "",
    ]
    for size in results["sizes"]:
        out += _size_section(size)
    largest = results["sizes"][-1]
    out += _targets(largest)
    out += _why(largest, results["machine"]["cores"], results["sizes"][:-1])
    return "\n".join(out) + "\n"


def _size_section(size: dict) -> list[str]:
    runs = size["runs"]
    title = f"## {size['rows']:,} judged rows ({size['queries']:,} queries)"
    out = [title, ""]
    facts = [f"commit {size['commit']}"] if "commit" in size else []
    if "load_average_start" in size:
        facts.append(f"1-minute load average {size['load_average_start'][0]:.1f} at the start")
    if "load_average_end" in size:
        end = f"{size['load_average_end'][0]:.1f} at the end"
        facts.append(end if "load_average_start" in size else f"1-minute load average {end}")
    if facts:
        line = ", ".join(facts)
        out += [line[0].upper() + line[1:] + ".", ""]
    if not size.get("complete", True):
        out += ["**Not complete**: the run was cut short; what it measured is below.", ""]
    for key, earlier in size.get("replaced", {}).items():
        out += [
            f"{LABELS[key]} was measured again; before: "
            + "; ".join(
                f"{e['seconds']:,.1f} s, {e['cpu_seconds']:,.1f} CPU s, 1-minute load average "
                + " → ".join(f"{x:.1f}" for x in e["load_average_1min"])
                for e in earlier
                if "seconds" in e
            )
            + " (kept under `replaced` in DISTRIBUTED.json).",
            "",
        ]
    measured = {k: e for k, e in runs.items() if "seconds" in e}
    with_cpu = all("cpu_seconds" in e for e in measured.values())
    head = "| run | seconds | × local | shuffle alone (s) | peak MiB |"
    if with_cpu:
        head = (
            "| run | seconds | × local | CPU s | CPU × local | cores busy | shuffle alone: s (CPU s) "
            "| peak MiB | load average |"
        )
    if not with_cpu:
        out += ["Measured before the script recorded CPU times and the load average of each run.", ""]
    out += [head, "|---" + "|---:" * (head.count("|") - 2) + "|"]
    for key, entry in runs.items():
        if "error" in entry:
            out.append(f"| {LABELS[key]} | failed: {entry['error'].strip().splitlines()[-1]} |")
            continue
        shuffle = "–"
        if "shuffle_seconds" in entry:
            shuffle = _num(entry["shuffle_seconds"])
            if "shuffle_cpu_seconds" in entry:
                shuffle += f" ({_num(entry['shuffle_cpu_seconds'])})"
        ratio = f"{entry['ratio_to_local']:.2f}" if "ratio_to_local" in entry else "–"
        if with_cpu:
            cpu_ratio = f"{entry['cpu_ratio_to_local']:.2f}" if "cpu_ratio_to_local" in entry else "–"
            load = " → ".join(f"{x:.1f}" for x in entry["load_average_1min"])
            out.append(
                f"| {LABELS[key]} | {_num(entry['seconds'])} | {ratio} | {_num(entry['cpu_seconds'])} | "
                f"{cpu_ratio} | {_busy(entry):.2f} | {shuffle} | {_num(entry['peak_mib'], 0)} | {load} |"
            )
        else:
            out.append(
                f"| {LABELS[key]} | {_num(entry['seconds'])} | {ratio} | {shuffle} | "
                f"{_num(entry['peak_mib'], 0)} |"
            )
    out.append("")
    differences = {k: e["max_difference"] for k, e in runs.items() if "max_difference" in e}
    if differences:
        worst = max(differences.values())
        out += [
            "Largest difference between an engine's per-query values and the local evaluate's: "
            f"{worst!r} ({', '.join(LABELS[k] for k in differences)}).",
            "",
        ]
    if with_cpu and measured:
        out += ["CPU seconds by process:", "", "| run | driver | workers | JVM |", "|---|---:|---:|---:|"]
        for key, entry in measured.items():
            cpu = entry["cpu_seconds_by_process"]
            cells = [_num(cpu[k]) if k in cpu else "–" for k in ("driver", "workers", "jvm")]
            out.append(f"| {LABELS[key]} | " + " | ".join(cells) + " |")
        out.append("")
    streams = {k: e["task_seconds"] for k, e in measured.items() if "task_seconds" in e}
    if streams:
        kinds = sorted(
            {k for s in streams.values() for k in s},
            key=lambda k: -max(s.get(k, 0) for s in streams.values()),
        )
        kinds = [
            k
            for k in kinds
            if max(s.get(k, 0) for s in streams.values())
            >= 0.01 * min(sum(s.values()) for s in streams.values())
        ]
        out += [
            "Dask's task stream: seconds spent in each kind of task, summed over the workers (kinds "
            "under 1% left out):",
            "",
            "| task | what it does | " + " | ".join(LABELS[k] for k in streams) + " |",
            "|---|---|" + "---:|" * len(streams),
        ]
        for kind in kinds:
            cells = [_num(s.get(kind, 0.0), 2) for s in streams.values()]
            out.append(
                f"| `{kind}` | {TASK_KINDS.get(kind, 'the shuffle by query')} | " + " | ".join(cells) + " |"
            )
        out.append("")
    return out


def _targets(size: dict) -> list[str]:
    runs = size["runs"]
    out = [f"## Targets, on {size['rows']:,} rows", ""]
    if size["rows"] != 10_000_000:
        out += ["The targets are stated for 10,000,000 rows; these are the largest rows measured.", ""]
    out += ["| engine | target | measured | |", "|---|---|---:|---|"]
    for engine in ("dask", "spark"):
        name = "Dask" if engine == "dask" else "Spark"
        speedup = size.get(f"{engine}_speedup_2_over_1")
        if speedup is not None:
            met = "met" if speedup >= TARGET_SPEEDUP else "missed"
            out.append(
                f"| {name} | two workers ≥ {TARGET_SPEEDUP}× faster than one | {speedup:.2f}× | {met} |"
            )
        one = runs.get(f"{engine}-1", {})
        if "ratio_to_local" in one:
            met = "met" if one["ratio_to_local"] <= TARGET_RATIO else "missed"
            out.append(
                f"| {name} | one worker ≤ {TARGET_RATIO:.0f}× the local time | {one['ratio_to_local']:.2f}× | {met} |"
            )
    return out + [""]


def _not_measured(size: dict, missing: list[str], smaller: list[dict]) -> str:
    """Why some engines have no numbers on the largest size, and what they would have needed."""
    local = size["runs"]["local-1"]
    text = (
        f"- **Not measured on {size['rows']:,} rows: {', '.join(LABELS[k] for k in missing)}.** The run was "
        f"stopped at the deadline. Each run got about {_busy(local):.2f} of a core (the local evaluate took "
        f"{local['seconds']:,.0f} s for {local['cpu_seconds']:,.0f} CPU s)"
    )
    earlier = next(
        (s for s in reversed(smaller) if all("ratio_to_local" in s["runs"].get(k, {}) for k in missing)), None
    )
    if earlier is None:
        return text + "."
    ratios = [earlier["runs"][k]["ratio_to_local"] for k in missing]
    shuffles = [
        earlier["runs"][k].get("shuffle_seconds", 0) / earlier["runs"]["local-1"]["seconds"] for k in missing
    ]
    needed = local["seconds"] * (sum(ratios) + sum(shuffles))
    return text + (
        f"; on {earlier['rows']:,} rows these engines took {', '.join(f'{r:.1f}' for r in ratios)}× the local "
        f"time, so here, with their shuffles alone, they would have needed about {needed / 60:,.0f} minutes more."
    )


def _cpu_and_load(size: dict) -> str:
    """What measuring an engine twice, under two loads, says about the CPU seconds."""
    for key, earlier in size.get("replaced", {}).items():
        now = size["runs"].get(key, {})
        before = [e for e in earlier if "cpu_seconds" in e]
        if "cpu_seconds" in now and before:
            then = before[-1]
            return (
                f" These too grow with the load: {LABELS[key]} used {then['cpu_seconds']:.1f} CPU s at a "
                f"1-minute load average of {max(then['load_average_1min']):.1f} and {now['cpu_seconds']:.1f} "
                f"at {max(now['load_average_1min']):.1f} (processes that share the cores also share their caches and "
                "stall each other), so CPU ratios are compared between runs under like loads."
            )
    return ""


def _why(size: dict, cores: int, smaller: list[dict]) -> list[str]:
    runs = size["runs"]
    local = runs.get("local-1", {})
    if "cpu_seconds" not in local:
        return []
    loads = [x for e in runs.values() if "load_average_1min" in e for x in e["load_average_1min"]]
    out = [
        "## Where the time goes, and why each target is met or missed",
        "",
        f"- **The cores are shared.** The 1-minute load average was {min(loads):.1f} to {max(loads):.1f} "
        f"during these runs, on {cores} cores: more runnable processes than cores most of the time. The "
        f"local evaluate, one single-threaded process, kept {_busy(local):.2f} cores busy (it ran "
        f"{local['seconds'] / local['cpu_seconds']:.1f}× longer than its CPU time). Wall times measure the "
        "machine's load as much as the code, so each ratio below is read together with the load during "
        "its two runs, and with the CPU seconds." + _cpu_and_load(size),
    ]
    for engine, name in (("dask", "Dask"), ("spark", "Spark")):
        one, two = runs.get(f"{engine}-1", {}), runs.get(f"{engine}-2", {})
        if "cpu_seconds" in one and "cpu_seconds" in two:
            extra = two["cpu_seconds"] / one["cpu_seconds"]
            ceiling = min(2.0, 2 / extra)
            speedup = one["seconds"] / two["seconds"]
            loads = (
                f"{' → '.join(f'{x:.1f}' for x in one['load_average_1min'])} with one worker, "
                f"{' → '.join(f'{x:.1f}' for x in two['load_average_1min'])} with two"
            )
            if speedup >= TARGET_SPEEDUP and speedup > ceiling:
                verdict = (
                    f"The target is met, but the measured {speedup:.2f}× is above that ceiling: the machine's "
                    f"load changed between the runs (1-minute load average {loads}), and part of the speedup "
                    "is that change, not the second worker."
                )
            elif speedup >= TARGET_SPEEDUP:
                verdict = f"The target is met (1-minute load average {loads})."
            elif ceiling >= TARGET_SPEEDUP:
                verdict = (
                    f"That would meet the {TARGET_SPEEDUP}× target: here it is missed for want of free cores "
                    f"(1-minute load average {loads})."
                )
            else:
                verdict = (
                    f"That is short of the {TARGET_SPEEDUP}× target even on an idle machine, if the extra "
                    "work of two workers stayed as measured here (under a load that itself adds CPU time)."
                )
            work = f"Two workers did {extra:.2f}× the CPU work of one" + (
                " (rows moved between two processes, two processes' fixed costs)"
                if extra > 1.02
                else " (less; not explained by this benchmark: possibly the CPU of processes that ended "
                "inside the span, which is not counted, or "
                f"{'the JVM' if engine == 'spark' else 'dask'}'s own housekeeping, which grows with a longer run)"
                if extra < 0.98
                else ""
            )
            out.append(
                f"- **{name}, two workers over one.** The speedup is (CPU of one ÷ CPU of two) × (cores busy "
                f"with two ÷ cores busy with one) = {1 / extra:.2f} × {_busy(two) / _busy(one):.2f} = "
                f"{speedup:.2f}×. {work}, and the machine gave them {_busy(two):.2f} cores instead of "
                f"{_busy(one):.2f}. On two idle cores, one worker keeping one busy, the speedup could reach at "
                + (
                    f"most 2 ÷ {extra:.2f} = {ceiling:.2f}×. "
                    if extra >= 1
                    else "most 2× (the cores, not the work, would limit it). "
                )
                + verdict
            )
        if "cpu_seconds" in one:
            cpu_ratio = one["cpu_seconds"] / local["cpu_seconds"]
            shuffle = (
                f" The shuffle alone took {one['shuffle_cpu_seconds']:.1f} CPU s "
                f"({100 * one['shuffle_cpu_seconds'] / one['cpu_seconds']:.0f}% of the evaluation's)."
                if "shuffle_cpu_seconds" in one
                else ""
            )
            out.append(
                f"- **{name}, one worker over the local evaluate.** {one['seconds'] / local['seconds']:.2f}× "
                f"the time, {cpu_ratio:.2f}× the CPU seconds ({one['cpu_seconds']:.1f} against "
                f"{local['cpu_seconds']:.1f}).{shuffle} "
                + (
                    f"The engine's own work is within the {TARGET_RATIO:.0f}× target; the time is not, because "
                    "its processes waited for a core."
                    if cpu_ratio <= TARGET_RATIO < one["seconds"] / local["seconds"]
                    else f"The engine does {cpu_ratio:.2f}× the local work, which no idle machine removes."
                    if cpu_ratio > TARGET_RATIO
                    else f"Both are within the {TARGET_RATIO:.0f}× target. Of the two, the CPU ratio is the one "
                    "to trust: the load changed between the runs (1-minute load average "
                    f"{' → '.join(f'{x:.1f}' for x in local['load_average_1min'])} for the local evaluate, "
                    f"{' → '.join(f'{x:.1f}' for x in one['load_average_1min'])} for this one)."
                )
            )
    one = runs.get("dask-1", {})
    stream = one.get("task_seconds")
    if stream:
        total = sum(stream.values())
        share = {k: v / total for k, v in stream.items()}
        shuffle = 1 - share.get("getitem", 0) - share.get("read_parquet-operation", 0)
        worker_cpu = one["cpu_seconds_by_process"].get("workers", 0.0)
        out.append(
            "- **Dask, by task (one worker).** Evaluating the buckets (`getitem`) took "
            f"{100 * share.get('getitem', 0):.0f}% of the task time, reading Parquet and turning the ids into "
            f"Python text {100 * share.get('read_parquet-operation', 0):.0f}%, the shuffle's own tasks and "
            f"moves {100 * shuffle:.0f}%. Split by those shares, the worker's {worker_cpu:.1f} CPU s give "
            f"about {share.get('getitem', 0) * worker_cpu:.0f} CPU s to evaluating, against "
            f"{local['cpu_seconds']:.1f} for the whole local evaluate (reading the Parquet files included): "
            "the same code, on frames whose ids are Python `str` objects that came through the shuffle. "
            "The rest of the overhead is the text conversion before the shuffle, the shuffle itself, and "
            "the scheduler (the driver's CPU seconds)."
        )
    spark = runs.get("spark-1", {})
    if "cpu_seconds_by_process" in spark:
        cpu = spark["cpu_seconds_by_process"]
        jvm = cpu.get("jvm", 0.0)
        python = cpu.get("workers", 0.0)
        out.append(
            f"- **Spark, by process (local[1]).** The JVM used {jvm:.1f} CPU s ({100 * jvm / spark['cpu_seconds']:.0f}%): "
            "reading Parquet, hashing each query id into a bucket, the shuffle, and Arrow batches to and "
            f"from Python. The Python workers used {python:.1f} CPU s, against {local['cpu_seconds']:.1f} for "
            "the whole local evaluate: that is the package's evaluate on each bucket plus turning Arrow "
            "batches into pandas frames of Python strings."
        )
    peaks = {k: e["peak_mib"] for k, e in runs.items() if "peak_mib" in e}
    if peaks:
        out.append(
            "- **Memory.** Peak resident memory of the whole process tree: "
            + ", ".join(f"{LABELS[k]} {v:,.0f} MiB" for k, v in peaks.items())
            + ". Each worker holds its buckets as pandas frames of Python strings, and the shuffle holds a "
            "second copy of the rows while it moves them."
        )
    missing = [k for k in LABELS if k not in runs]
    if missing:
        out.append(_not_measured(size, missing, smaller))
    failed = {k: e["error"] for k, e in runs.items() if "error" in e}
    for key, error in failed.items():
        out.append(f"- **{LABELS[key]} failed**: {error.strip().splitlines()[-1]}")
    out += [
        "- **Why a query is never split.** A query's value needs all of its judgements and all of its "
        "retrieved documents at once (the ideal DCG, AP's number of relevant documents, the order of tied "
        "scores), so the rows are shuffled by query before any metric is computed: the shuffle is the price "
        "of running on more than one machine, and the part that grows with the number of rows moved, not "
        "with the metrics asked for.",
    ]
    return out + [""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000])
    parser.add_argument("--spark-python", default=os.environ.get("SPARK_PYTHON"))
    parser.add_argument("--out", type=Path, default=HERE / "DISTRIBUTED.json")
    parser.add_argument(
        "--keep", action="store_true", help="keep the other sizes already in --out (measure only --rows)"
    )
    parser.add_argument(
        "--report",
        action="store_true",
        help="only write the report (--out with .md) from the results in --out",
    )
    parser.add_argument(
        "--engines", nargs="+", choices=list(LABELS), help="measure only these (default: all that can run)"
    )
    parser.add_argument(
        "--shuffles",
        action="store_true",
        help="measure only the shuffles alone, into the engines' entries already in --out (with --keep)",
    )
    parser.add_argument(
        "--data", type=Path, help="a folder with the inputs already written (e.g. by a run cut short)"
    )
    parser.add_argument("--one", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--shuffle-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        engine, workers, folder, out = args.one
        run_one(engine, int(workers), Path(folder), Path(out), args.shuffle_only)
        return
    report = args.out.with_suffix(".md")
    if args.report:
        report.write_text(render(json.loads(args.out.read_text(encoding="utf-8"))), encoding="utf-8")
        return
    kept, previous = [], {}
    if args.keep and args.out.exists():
        for old in json.loads(args.out.read_text(encoding="utf-8"))["sizes"]:
            if old["rows"] in args.rows:
                previous[old["rows"]] = old  # its other engines' entries stay
            else:
                kept.append(old)
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
    if args.engines:
        engines = [e for e in engines if f"{e[0]}-{e[1]}" in args.engines]

    def save(size: dict) -> None:  # after every measurement: a run cut short keeps what it measured
        size["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
        results["sizes"] = sorted([*kept, size], key=lambda s: s["rows"])
        args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        report.write_text(render(results), encoding="utf-8")

    for rows in args.rows:
        with tempfile.TemporaryDirectory() as tmp:
            folder = args.data or Path(tmp)
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
            if rows in previous:
                size = {**previous[rows], "complete": False}
            if not (folder / "run.parquet").exists():
                make_data(rows, folder)
            elif len(args.rows) > 1:
                raise SystemExit("--data holds the inputs of one size: give one --rows")
            # Every engine's evaluation first, then the shuffles alone: a run cut short has the main numbers.
            for engine, workers in [] if args.shuffles else engines:
                python = args.spark_python if engine == "spark" else sys.executable
                key = f"{engine}-{workers}"
                try:
                    entry = measure(python, engine, workers, folder)
                    if engine != "local":
                        entry["max_difference"] = agreement(folder, engine, workers)
                except RuntimeError as error:  # e.g. out of memory: kept in the results, the others still run
                    entry = {"error": str(error)[-1500:]}
                if key in size["runs"]:  # measured again: the earlier numbers stay in the results
                    size.setdefault("replaced", {}).setdefault(key, []).append(size["runs"][key])
                size["runs"][key] = entry
                _ratios(size)
                save(size)
                print(rows, key, entry, flush=True)
            for engine, workers in engines:
                entry = size["runs"].get(f"{engine}-{workers}", {"error": "not measured"})
                if engine == "local" or "error" in entry:
                    continue
                python = args.spark_python if engine == "spark" else sys.executable
                shuffle = measure(python, engine, workers, folder, shuffle_only=True)
                entry["shuffle_seconds"] = shuffle["seconds"]
                entry["shuffle_cpu_seconds"] = shuffle["cpu_seconds"]
                entry["shuffle_load_average_1min"] = shuffle["load_average_1min"]
                save(size)
                print(rows, engine, workers, "shuffle", shuffle, flush=True)
            size["complete"] = all(
                "seconds" in size["runs"].get(key, {})
                and (key == "local-1" or "shuffle_seconds" in size["runs"][key])
                for key in LABELS
            )
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
