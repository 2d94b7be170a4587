"""Benchmark rankmetrics.evaluate against pytrec_eval and ranx, and batch nDCG against scikit-learn.

Run from the repository root, in an environment with benchmarks/requirements-bench.txt:

    python benchmarks/run.py            # 1k, 10k, 100k queries x 100 documents; writes RESULTS.md
    python benchmarks/run.py --quick    # 1k and 10k queries, fewer repeats, smaller batch; no file written
    python benchmarks/run.py --big      # also: peak memory of a 10-million-line run read in chunks

What it does, in order:

1. Generates synthetic judgements and runs, seeded (so every machine sees the same data):
   n queries x 100 retrieved documents, distinct scores per query, about 20 judged
   documents per query with grades 0-3 (more of them near the top), and 5 judged
   documents per query that the run never retrieved. Written both as TREC files (in a
   scratch folder outside the repository) and as nested dicts.
2. Checks, per query, that rankmetrics, pytrec_eval and ranx agree to 1e-9 on the
   five measures they share: nDCG@10 (trec_eval's ndcg_cut_10), P@5, recall@100, MAP
   and reciprocal rank. Stops if they do not.
3. Times each tool end to end (reading or converting the input included; imports
   excluded; ranx's Numba JIT warmed first), the median of several runs, from dicts and
   from TREC files, and prints the ratios measured in the same run.
4. Times batch nDCG@10 on a 1,000,000 x 100 float64 grade array against one copy of
   that array (the memory-bandwidth floor), and scikit-learn's ndcg_score on a smaller
   batch (after checking that the values agree).
5. With --big: the peak resident memory (VmHWM of a fresh subprocess) of
   evaluate(..., chunk_queries=1000) on a 10-million-line run, next to the peak of
   holding that run as Python dicts.

Timings are wall-clock (time.perf_counter). ranx runs its Numba kernels on all cores;
pytrec_eval and rankmetrics use one.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
METRICS = {  # the measures common to all three tools, in each tool's spelling
    "rankmetrics": ["ndcg_cut_10", "P_5", "recall_100", "map", "recip_rank"],
    "pytrec_eval": ["ndcg_cut_10", "P_5", "recall_100", "map", "recip_rank"],
    "ranx": ["ndcg@10", "precision@5", "recall@100", "map", "mrr"],
}
DEPTH = 100
UNRETRIEVED = 5
SEED = 20240601


# ---------------------------------------------------------------- data


def make_data(n_queries: int, seed: int = SEED) -> dict:
    """Synthetic judgements and a run as arrays (deterministic for a given size and seed)."""
    rng = np.random.default_rng([seed, n_queries])
    width = DEPTH + UNRETRIEVED
    # Document ids: distinct within a query (a random block of a 5M-document collection).
    offsets = rng.integers(0, 5_000_000, n_queries)[:, None]
    within = np.argsort(rng.random((n_queries, 2 * width)), axis=1)[:, :width]
    doc = offsets + within
    # Scores: strictly decreasing down the list, printed with 3 decimals (exact round trip).
    steps = rng.integers(1, 2000, (n_queries, DEPTH))
    score_units = np.cumsum(steps[:, ::-1], axis=1)[:, ::-1] + rng.integers(0, 10_000, (n_queries, 1))
    # Judged documents: more likely near the top of the list; 5 judged but never retrieved.
    p_judged = np.linspace(0.45, 0.12, DEPTH)
    judged = np.concatenate(
        [rng.random((n_queries, DEPTH)) < p_judged, np.ones((n_queries, UNRETRIEVED), bool)], 1
    )
    grade = rng.choice(4, size=(n_queries, width), p=[0.45, 0.3, 0.15, 0.1])
    grade[: max(1, n_queries // 50)] = 0  # 2% of queries have no relevant document at all
    return {"doc": doc, "score_units": score_units, "judged": judged, "grade": grade}


def qid(i: int) -> str:
    return f"q{i:06d}"


def docno(d: int) -> str:
    return f"D{d:08d}"


def as_dicts(data: dict) -> tuple[dict, dict]:
    doc, units, judged, grade = data["doc"], data["score_units"], data["judged"], data["grade"]
    qrels, run = {}, {}
    for i in range(doc.shape[0]):
        names = [docno(d) for d in doc[i].tolist()]
        run[qid(i)] = dict(zip(names[:DEPTH], (units[i] / 1000).tolist()))
        keep = np.flatnonzero(judged[i]).tolist()
        qrels[qid(i)] = {names[j]: int(grade[i, j]) for j in keep}
    return qrels, run


def write_files(data: dict, folder: Path) -> tuple[Path, Path]:
    n = data["doc"].shape[0]
    qrels_path, run_path = folder / f"qrels_{n}.txt", folder / f"run_{n}.txt"
    if qrels_path.exists() and run_path.exists():
        return qrels_path, run_path
    doc, units, judged, grade = data["doc"], data["score_units"], data["judged"], data["grade"]
    with open(qrels_path.with_suffix(".tmp"), "w") as q, open(run_path.with_suffix(".tmp"), "w") as r:
        for i in range(n):
            names = [docno(d) for d in doc[i].tolist()]
            query = qid(i)
            scores = units[i].tolist()
            r.writelines(
                f"{query} Q0 {names[j]} {j + 1} {scores[j] / 1000:.3f} synthetic\n" for j in range(DEPTH)
            )
            q.writelines(f"{query} 0 {names[j]} {int(grade[i, j])}\n" for j in np.flatnonzero(judged[i]))
    qrels_path.with_suffix(".tmp").rename(qrels_path)
    run_path.with_suffix(".tmp").rename(run_path)
    return qrels_path, run_path


# ---------------------------------------------------------------- the tools, end to end


def rm_dicts(qrels, run):
    import rankmetrics as rm

    return rm.evaluate(qrels, run, METRICS["rankmetrics"])


def rm_files(qrels_path, run_path):
    import rankmetrics as rm

    return rm.evaluate(qrels_path, run_path, METRICS["rankmetrics"])


def pytrec_dicts(qrels, run):
    import pytrec_eval

    measures = {
        m.replace("_cut_", "_cut.").replace("P_", "P.").replace("recall_", "recall.")
        for m in METRICS["pytrec_eval"]
    }
    return pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)


def pytrec_files(qrels_path, run_path):
    import pytrec_eval

    with open(qrels_path) as q:
        qrels = pytrec_eval.parse_qrel(q)
    with open(run_path) as r:
        run = pytrec_eval.parse_run(r)
    return pytrec_dicts(qrels, run)


def ranx_dicts(qrels, run):
    from ranx import Qrels, Run, evaluate

    q, r = Qrels.from_dict(qrels), Run.from_dict(run)
    evaluate(q, r, METRICS["ranx"])
    return r


def ranx_files(qrels_path, run_path):
    from ranx import Qrels, Run, evaluate

    q, r = Qrels.from_file(str(qrels_path), kind="trec"), Run.from_file(str(run_path), kind="trec")
    evaluate(q, r, METRICS["ranx"])
    return r


def per_query(tool: str, result) -> dict[str, np.ndarray]:
    """{rankmetrics metric name: values in sorted query order} from each tool's result."""
    names = METRICS["rankmetrics"]
    if tool == "rankmetrics":
        return {m: np.asarray(result.per_query[m]) for m in names}
    if tool == "pytrec_eval":
        queries = sorted(result)
        return {m: np.array([result[q][m] for q in queries]) for m in names}
    queries = sorted(result.scores[METRICS["ranx"][0]])
    return {m: np.array([result.scores[r][q] for q in queries]) for m, r in zip(names, METRICS["ranx"])}


def check_agreement(results: dict[str, object], n: int) -> float:
    """Largest per-query difference against rankmetrics; raises when above 1e-9."""
    ours = per_query("rankmetrics", results["rankmetrics"])
    worst = 0.0
    for tool, result in results.items():
        theirs = per_query(tool, result)
        for metric, values in ours.items():
            if theirs[metric].shape != values.shape:
                raise SystemExit(f"{tool} scored {theirs[metric].size} queries, rankmetrics {values.size}")
            diff = float(np.max(np.abs(theirs[metric] - values)))
            worst = max(worst, diff)
            if diff > 1e-9:
                i = int(np.argmax(np.abs(theirs[metric] - values)))
                raise SystemExit(
                    f"{n} queries: {tool} disagrees on {metric} for query {i}: {theirs[metric][i]} vs {values[i]}"
                )
    return worst


def median_time(fn, *args, repeats: int) -> tuple[float, list[float]]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def warm_ranx() -> None:
    """Compile ranx's Numba kernels on a tiny input, so that no timed run pays for the JIT."""
    data = make_data(20, seed=1)
    qrels, run = as_dicts(data)
    ranx_dicts(qrels, run)


# ---------------------------------------------------------------- batch nDCG


def batch_ndcg(rows: int, sk_rows: int, repeats: int) -> dict:
    from sklearn.metrics import ndcg_score

    import rankmetrics as rm

    rng = np.random.default_rng([SEED, rows])
    grades = rng.choice(4, size=(rows, DEPTH), p=[0.55, 0.25, 0.12, 0.08]).astype(np.float64)
    out = {"rows": rows, "columns": DEPTH, "bytes": grades.nbytes}
    out["copy"], _ = median_time(np.copy, grades, repeats=repeats)
    out["ndcg"], _ = median_time(rm.ndcg, grades, 10, repeats=repeats)
    # scikit-learn takes (true grades, scores) and sorts by itself; give rankmetrics the
    # same job (argsort + gather + nDCG) so the two do the same work.
    y_true = grades[:sk_rows]
    y_score = rng.random(y_true.shape)

    def rm_unsorted(y_true, y_score):
        order = np.argsort(-y_score, axis=1)
        return rm.ndcg(np.take_along_axis(y_true, order, axis=1), 10)

    ours = rm_unsorted(y_true, y_score)
    theirs = ndcg_score(y_true, y_score, k=10)
    sample = [
        ndcg_score(y_true[i : i + 1], y_score[i : i + 1], k=10)
        for i in range(0, sk_rows, max(1, sk_rows // 200))
    ]
    worst = max(
        abs(float(np.mean(ours)) - theirs),
        *(abs(a - b) for a, b in zip(ours[:: max(1, sk_rows // 200)], sample)),
    )
    if worst > 1e-9:
        raise SystemExit(f"scikit-learn's ndcg_score disagrees with rankmetrics by {worst}")
    out.update(sk_rows=sk_rows, sk_agree=worst)
    out["sk_rm"], _ = median_time(rm_unsorted, y_true, y_score, repeats=repeats)
    out["sk"], _ = median_time(lambda a, b: ndcg_score(a, b, k=10), y_true, y_score, repeats=repeats)
    return out


# ---------------------------------------------------------------- peak memory (--big)

_PEAK_CHILD = r"""
import json, sys, time, warnings
mode, qrels_path, run_path = sys.argv[1:4]
start = time.perf_counter()
if mode == "baseline":
    import rankmetrics as rm
    from rankmetrics.trec import files
    files.judgements(qrels_path)
elif mode == "chunked":
    import rankmetrics as rm
    result = rm.evaluate(qrels_path, run_path, ["ndcg_cut_10", "P_5", "recall_100", "map", "recip_rank"],
                         chunk_queries=int(sys.argv[4]))
elif mode == "whole":
    import rankmetrics as rm
    result = rm.evaluate(qrels_path, run_path, ["ndcg_cut_10", "P_5", "recall_100", "map", "recip_rank"])
elif mode == "dicts":
    import rankmetrics as rm
    run = rm.read_run(run_path)
elif mode == "pytrec_dicts":
    import pytrec_eval
    with open(run_path) as f:
        run = pytrec_eval.parse_run(f)
seconds = time.perf_counter() - start
# VmHWM: this process's own peak resident memory. (ru_maxrss would also count the
# parent's memory at fork time, which survives exec on Linux.)
with open("/proc/self/status") as status:
    peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
print(json.dumps({"peak_kib": peak, "seconds": seconds}))
"""


def peak(mode: str, qrels_path: Path, run_path: Path, *extra: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", _PEAK_CHILD, mode, str(qrels_path), str(run_path), *extra],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def big_memory(folder: Path, lines: int, chunk: int) -> dict:
    n = lines // DEPTH
    qrels_path, run_path = write_files(make_data(n), folder)
    out = {"lines": lines, "file_bytes": run_path.stat().st_size, "chunk_queries": chunk}
    for mode in ("baseline", "chunked", "whole", "pytrec_dicts"):
        args = (str(chunk),) if mode == "chunked" else ()
        out[mode] = peak(mode, qrels_path, run_path, *args)
        print(
            f"  peak memory {mode:>12}: {out[mode]['peak_kib'] / 1024:8.0f} MiB  ({out[mode]['seconds']:.1f} s)",
            flush=True,
        )
    return out


# ---------------------------------------------------------------- report


def machine() -> dict:
    import pytrec_eval  # noqa: F401
    import ranx
    import sklearn

    import rankmetrics

    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    from importlib.metadata import version

    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "rankmetrics": rankmetrics.__version__,
        "pytrec_eval": version("pytrec-eval-terrier"),
        "ranx": ranx.__version__ if hasattr(ranx, "__version__") else version("ranx"),
        "numba": version("numba"),
        "scikit-learn": sklearn.__version__,
        "threads": {
            k: os.environ.get(k, "(unset)")
            for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS")
        },
        "load_start": os.getloadavg(),
    }


def fmt_s(seconds: float) -> str:
    return f"{seconds:.3f} s" if seconds < 10 else f"{seconds:.1f} s"


def report(info: dict, rows: list[dict], batch: dict | None, big: dict | None, repeats: dict) -> str:
    lines = ["# Benchmark: rankmetrics against pytrec_eval, ranx and scikit-learn", ""]
    lines += [
        "Written by `python benchmarks/run.py` (see the script's docstring for what is measured).",
        "Ratio = rankmetrics' time ÷ the peer's time, both measured in the same run: below 1 means rankmetrics is faster.",
        "",
        "## Machine",
        "",
        f"- CPU: {info['cpu']}, {info['cores']} cores (shared with other work; load average below)",
        f"- Python {info['python']}, numpy {info['numpy']}, rankmetrics {info['rankmetrics']}, "
        f"pytrec_eval-terrier {info['pytrec_eval']}, ranx {info['ranx']} (numba {info['numba']}), "
        f"scikit-learn {info['scikit-learn']}",
        "- Threads: " + ", ".join(f"{k}={v}" for k, v in info["threads"].items()),
        f"- 1/5/15-minute load average at the start: {', '.join(f'{x:.2f}' for x in info['load_start'])}; "
        f"at the end: {', '.join(f'{x:.2f}' for x in info['load_end'])}",
        "",
        "## evaluate end to end (5 measures, 100 documents per query)",
        "",
        "Measures: nDCG@10 (ndcg_cut_10), P@5, recall@100, MAP, reciprocal rank. "
        "Each query: 100 retrieved documents, about 20 judged (grades 0-3) plus 5 judged documents "
        "never retrieved; 2% of the queries have no relevant document. "
        "Before timing, every tool's per-query values were checked against rankmetrics "
        "(largest difference shown). The tools take turns, run after run, so that a burst of "
        "load from elsewhere hits them alike. Times are medians "
        + ", ".join(f"of {r} runs for {n:,} queries" for n, r in repeats.items())
        + "; reading the files or converting the dicts is included, imports are not, "
        "and ranx's JIT was compiled before timing.",
        "",
        "| queries | input | rankmetrics | pytrec_eval | ranx (build + evaluate) | ratio vs pytrec_eval | ratio vs ranx | agreement |",
        "|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['n']:,} | {row['input']} | {fmt_s(row['rankmetrics'])} | {fmt_s(row['pytrec_eval'])} | "
            f"{fmt_s(row['ranx'])} | {row['rankmetrics'] / row['pytrec_eval']:.2f} | "
            f"{row['rankmetrics'] / row['ranx']:.2f} | {row['agreement']:.0e} |"
        )
    if batch:
        lines += [
            "",
            f"## Batch nDCG@10 on a {batch['rows']:,} × {batch['columns']} float64 array "
            f"({batch['bytes'] / 1e6:.0f} MB)",
            "",
            "| what | median time | ratio to one copy |",
            "|---|---:|---:|",
            f"| one copy of the array (`np.copy`, the memory-bandwidth floor) | {fmt_s(batch['copy'])} | 1.00 |",
            f"| `rankmetrics.ndcg(grades, 10)` | {fmt_s(batch['ndcg'])} | {batch['ndcg'] / batch['copy']:.2f} |",
            "",
            f"scikit-learn for reference, {batch['sk_rows']:,} × {batch['columns']} (true grades and scores; "
            "each tool sorts by score itself; values agree to "
            f"{batch['sk_agree']:.0e}):",
            "",
            "| what | median time | ratio |",
            "|---|---:|---:|",
            f"| `sklearn.metrics.ndcg_score(y_true, y_score, k=10)` | {fmt_s(batch['sk'])} | 1.00 |",
            f"| rankmetrics: argsort by score, then `ndcg(grades, 10)` | {fmt_s(batch['sk_rm'])} | "
            f"{batch['sk_rm'] / batch['sk']:.2f} |",
        ]
    if big:

        def mib(kib: float) -> str:
            return f"{kib / 1024:,.0f} MiB"

        lines += [
            "",
            f"## Peak memory: a run file of {big['lines']:,} lines ({big['file_bytes'] / 1e6:,.0f} MB on disk)",
            "",
            "Peak resident memory (`VmHWM`) of a fresh Python process doing only this "
            f"({big['lines'] // DEPTH:,} queries; the qrels hold about 25 judgements per query):",
            "",
            "| process | peak memory | time |",
            "|---|---:|---:|",
            f"| import rankmetrics and read the qrels (the floor) | {mib(big['baseline']['peak_kib'])} | "
            f"{big['baseline']['seconds']:.1f} s |",
            f"| `evaluate(qrels, run_file, 5 measures, chunk_queries={big['chunk_queries']})` | "
            f"{mib(big['chunked']['peak_kib'])} | {big['chunked']['seconds']:.1f} s |",
            f"| `evaluate(qrels, run_file, 5 measures)`, the whole run at once | "
            f"{mib(big['whole']['peak_kib'])} | {big['whole']['seconds']:.1f} s |",
            f"| only holding the run as Python dicts (`pytrec_eval.parse_run`) | "
            f"{mib(big['pytrec_dicts']['peak_kib'])} | {big['pytrec_dicts']['seconds']:.1f} s |",
        ]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="numbers of queries, comma-separated")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per measurement (median reported)")
    parser.add_argument(
        "--max-repeats-large", type=int, default=3, help="timed runs for 100,000 queries or more"
    )
    parser.add_argument(
        "--batch-rows", type=int, default=1_000_000, help="rows of the batch nDCG array (0: skip)"
    )
    parser.add_argument(
        "--sklearn-rows", type=int, default=100_000, help="rows for scikit-learn's ndcg_score"
    )
    parser.add_argument("--quick", action="store_true", help="1k and 10k queries, 3 repeats, 100k-row batch")
    parser.add_argument("--big", action="store_true", help="peak memory of a chunked 10-million-line run")
    parser.add_argument("--big-lines", type=int, default=10_000_000)
    parser.add_argument("--chunk-queries", type=int, default=1000)
    parser.add_argument(
        "--workdir", default="/tmp/rankmetrics-bench", help="scratch folder for generated files"
    )
    parser.add_argument("--out", default=str(HERE / "RESULTS.md"), help="Markdown file for the table")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument(
        "--wait-load",
        type=float,
        default=1.5,
        help="wait (up to 15 minutes) until the 1-minute load average is below this; 0: do not wait",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.repeats, args.batch_rows, args.sklearn_rows = "1000,10000", 3, 100_000, 10_000
        args.no_write = True
    sizes = [int(s) for s in args.sizes.split(",") if s]
    folder = Path(args.workdir)
    folder.mkdir(parents=True, exist_ok=True)
    warnings.simplefilter("ignore")  # ranx and numba announce deprecations

    if args.wait_load:
        for _ in range(15):
            if os.getloadavg()[0] <= args.wait_load:
                break
            print(f"load {os.getloadavg()[0]:.2f} > {args.wait_load}: waiting a minute", flush=True)
            time.sleep(60)
    info = machine()
    print(f"{info['cpu']}, {info['cores']} cores; load {info['load_start']}", flush=True)
    warm_ranx()
    tools = {
        "dicts": {"rankmetrics": rm_dicts, "pytrec_eval": pytrec_dicts, "ranx": ranx_dicts},
        "TREC files": {"rankmetrics": rm_files, "pytrec_eval": pytrec_files, "ranx": ranx_files},
    }
    rows, repeats = [], {}
    for n in sizes:
        data = make_data(n)
        qrels, run = as_dicts(data)
        paths = write_files(data, folder)
        count = min(args.repeats, args.max_repeats_large) if n >= 100_000 else args.repeats
        repeats[n] = count
        for kind, fns in tools.items():
            inputs = (qrels, run) if kind == "dicts" else paths
            first = {tool: fn(*inputs) for tool, fn in fns.items()}  # untimed: values checked first
            agreement = check_agreement(first, n)
            del first
            row = {"n": n, "input": kind, "agreement": agreement}
            times: dict[str, list[float]] = {tool: [] for tool in fns}
            for _ in range(count):  # the tools take turns, so a burst of load hits them alike
                for tool, fn in fns.items():
                    start = time.perf_counter()
                    fn(*inputs)
                    times[tool].append(time.perf_counter() - start)
            row.update({tool: statistics.median(t) for tool, t in times.items()})
            row["times"] = {tool: [round(x, 4) for x in t] for tool, t in times.items()}
            rows.append(row)
            print(
                f"{n:>7,} queries, {kind:<10}: rankmetrics {fmt_s(row['rankmetrics']):>8}  "
                f"pytrec_eval {fmt_s(row['pytrec_eval']):>8}  ranx {fmt_s(row['ranx']):>8}  "
                f"ratio vs pytrec_eval {row['rankmetrics'] / row['pytrec_eval']:.2f}  "
                f"vs ranx {row['rankmetrics'] / row['ranx']:.2f}  (agree to {agreement:.0e})",
                flush=True,
            )
        del qrels, run
    batch = None
    if args.batch_rows:
        batch = batch_ndcg(args.batch_rows, args.sklearn_rows, repeats=args.repeats)
        print(
            f"batch nDCG@10 {batch['rows']:,} x {DEPTH}: {fmt_s(batch['ndcg'])}, one copy {fmt_s(batch['copy'])}, "
            f"ratio {batch['ndcg'] / batch['copy']:.2f}; sklearn {batch['sk_rows']:,} rows {fmt_s(batch['sk'])} "
            f"vs rankmetrics {fmt_s(batch['sk_rm'])}",
            flush=True,
        )
    big = big_memory(folder, args.big_lines, args.chunk_queries) if args.big else None
    info["load_end"] = os.getloadavg()
    text = report(info, rows, batch, big, repeats)
    print()
    print(text)
    if not args.no_write:
        Path(args.out).write_text(text)
        Path(args.out).with_suffix(".json").write_text(
            json.dumps({"machine": info, "evaluate": rows, "batch": batch, "memory": big}, indent=1) + "\n"
        )
        print(f"written to {args.out} and {Path(args.out).with_suffix('.json')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
