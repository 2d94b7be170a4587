"""Benchmark rankmetrics.evaluate against trec_eval, pytrec_eval and ranx, and batch nDCG against scikit-learn.

Run from the repository root, in an environment with benchmarks/requirements-bench.txt:

    python benchmarks/run.py --trec-eval PATH   # 1k, 2k, 20k, 100k queries x 100 documents; writes RESULTS.md
    python benchmarks/run.py --quick            # 1k and 10k queries, fewer repeats, smaller batch; no file
    python benchmarks/run.py --big              # also: peak memory of a 10-million-line run read in chunks
    python benchmarks/run.py --smoke --out DIR/RESULTS.md   # every step at a tiny size (the test suite's)

``--trec-eval`` (or the TREC_EVAL environment variable, or a ``trec_eval`` on the
PATH) is NIST trec_eval's C binary; without it that column is left out. A peer
that is not importable (pytrec_eval, ranx, scikit-learn) is left out with a
printed note, so that ``--quick`` runs in the package's own environment too (CI
has neither the binary nor every peer). The commit measured (``git rev-parse
HEAD``) is recorded, and a tree with uncommitted changes is flagged in the report.

``--smoke`` runs the same steps as ``--quick`` (``--big`` too, when given) on tiny
inputs: 100 and 300 queries, one timed run, a 2,000-row batch (100 rows of it for
scikit-learn), a 3,000-line run for the memory children. Its numbers mean nothing;
it is there so that ``make test`` runs the script (tests/package/test_benchmark_script.py)
and it cannot rot. It writes the report only to an ``--out`` given explicitly, never
to RESULTS.md.

What it does, in order:

1. Generates synthetic judgements and runs, seeded (so every machine sees the same data):
   n queries x 100 retrieved documents, distinct scores per query, about 20 judged
   documents per query with grades 0-3 (more of them near the top), and 5 judged
   documents per query that the run never retrieved. Written both as TREC files (in a
   scratch folder outside the repository) and as nested dicts.
2. Checks, per query, that rankmetrics, pytrec_eval and ranx agree to 1e-9 on the
   five measures they share: MAP, P@10, nDCG@10 (trec_eval's ndcg_cut_10), recall@100
   and reciprocal rank, and trec_eval's binary to its printed four decimals (``-q``).
   Stops if they do not.
3. Times each tool end to end (reading or converting the input included; imports
   excluded; ranx's Numba JIT warmed first), the best of several runs (wall and CPU
   time; the machine is shared), from dicts and from TREC files, and prints the
   ratios measured in the same run. From files, also every measure of
   ``trec_eval -m all_trec`` against the binary (summaries checked to 4 decimals).
   And the reading speed in MB/s: read_run, the evaluate route's reader, and one
   pass over the same bytes for scale.
4. Times batch nDCG@10 on a 1,000,000 x 100 float64 grade array against one copy of
   that array (the memory-bandwidth floor), and scikit-learn's ndcg_score on a smaller
   batch (after checking that the values agree).
5. With --big: the peak resident memory (VmHWM of a fresh subprocess) of
   evaluate(..., chunk_queries=1000) on a 10-million-line run, next to the peak of
   holding that run as Python dicts.

Timings are wall-clock (time.perf_counter) and CPU (time.process_time, plus the
children's CPU for trec_eval's process). ranx runs its Numba kernels on all cores;
trec_eval, pytrec_eval and rankmetrics use one.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
METRICS = {  # the measures common to all the tools, in each tool's spelling
    "rankmetrics": ["map", "P_10", "ndcg_cut_10", "recall_100", "recip_rank"],
    "pytrec_eval": ["map", "P_10", "ndcg_cut_10", "recall_100", "recip_rank"],
    "ranx": ["map", "precision@10", "ndcg@10", "recall@100", "mrr"],
    "trec_eval": ["map", "P.10", "ndcg_cut.10", "recall.100", "recip_rank"],
}
TREC_EVAL: str | None = None  # the binary's path, set by main()
DEPTH = 100
UNRETRIEVED = 5
SEED = 20240601
WORKDIR = "/tmp/rankmetrics-bench"  # the generated files; the other benchmark scripts default to it too


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


def trec_eval_files(qrels_path, run_path, measures=None, per_query=False):
    """NIST trec_eval's binary on the files; its standard output when ``per_query``, else None."""
    options = [x for m in (measures or METRICS["trec_eval"]) for x in ("-m", m)]
    command = [TREC_EVAL, *(["-q"] if per_query else []), *options, str(qrels_path), str(run_path)]
    if per_query:
        return subprocess.run(command, check=True, capture_output=True, text=True).stdout
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return None


def trec_eval_values(output: str, summary: bool = False) -> dict[str, dict[str, str]]:
    """{measure: {query: printed value}} from trec_eval's output (the ``all`` lines when ``summary``)."""
    values: dict[str, dict[str, str]] = {}
    for line in output.splitlines():
        name, query, value = (part.strip() for part in line.split("\t"))
        if (query == "all") == summary:
            values.setdefault(name, {})[query] = value
    return values


def all_trec_names() -> list[str]:
    """Every name that ``trec_eval -m all_trec`` prints, as rankmetrics.evaluate takes them."""
    from rankmetrics.trec import dropin

    return [name for _, names in dropin.measure_names(["all_trec"]) for name in names]


def rm_all_trec(qrels_path, run_path):
    import rankmetrics as rm

    return rm.evaluate(qrels_path, run_path, all_trec_names())


def trec_eval_all_trec(qrels_path, run_path):
    return trec_eval_files(qrels_path, run_path, ["all_trec"])


def all_trec_agreement(qrels_path, run_path) -> tuple[float, str]:
    """Largest difference between rankmetrics' summaries and trec_eval's printed ones, and its measure."""
    ours = rm_all_trec(qrels_path, run_path).summary
    printed = trec_eval_values(trec_eval_files(qrels_path, run_path, ["all_trec"], per_query=True), True)
    worst, where = 0.0, ""
    for name, by_query in printed.items():
        if name == "runid":
            if by_query["all"] != ours[name]:
                raise SystemExit(f"all_trec: runid {by_query['all']!r} vs rankmetrics {ours[name]!r}")
            continue
        diff = abs(float(by_query["all"]) - float(ours[name]))
        if diff > worst:
            worst, where = diff, name
    if worst > 5e-5 + 1e-12:  # trec_eval prints 4 decimals
        raise SystemExit(f"all_trec: trec_eval disagrees on {where} by {worst}")
    return worst, where


def per_query(tool: str, result) -> dict[str, np.ndarray]:
    """{rankmetrics metric name: values in sorted query order} from each tool's result."""
    names = METRICS["rankmetrics"]
    if tool == "rankmetrics":
        order = np.argsort(np.array(result.queries))
        return {m: np.asarray(result.per_query[m])[order] for m in names}
    if tool == "pytrec_eval":
        queries = sorted(result)
        return {m: np.array([result[q][m] for q in queries]) for m in names}
    if tool == "trec_eval":
        printed = trec_eval_values(result)
        return {m: np.array([float(v) for _, v in sorted(printed[m].items())]) for m in names}
    queries = sorted(result.scores[METRICS["ranx"][0]])
    return {m: np.array([result.scores[r][q] for q in queries]) for m, r in zip(names, METRICS["ranx"])}


def check_agreement(results: dict[str, object], n: int) -> dict[str, float]:
    """Each peer's largest per-query difference from rankmetrics; stops when one is too large.

    The libraries must agree to 1e-9; trec_eval's binary prints four decimals, so
    it must agree to within half of its last printed digit.
    """
    ours = per_query("rankmetrics", results["rankmetrics"])
    worst: dict[str, float] = {}
    for tool, result in results.items():
        if tool == "rankmetrics":
            continue
        theirs = per_query(tool, result)
        tolerance = 5e-5 + 1e-12 if tool == "trec_eval" else 1e-9
        worst[tool] = 0.0
        for metric, values in ours.items():
            if theirs[metric].shape != values.shape:
                raise SystemExit(f"{tool} scored {theirs[metric].size} queries, rankmetrics {values.size}")
            diff = float(np.max(np.abs(theirs[metric] - values))) if values.size else 0.0
            worst[tool] = max(worst[tool], diff)
            if diff > tolerance:
                i = int(np.argmax(np.abs(theirs[metric] - values)))
                raise SystemExit(
                    f"{n} queries: {tool} disagrees on {metric} for query {i}: {theirs[metric][i]} vs {values[i]}"
                )
    return worst


def children_cpu() -> float:
    try:
        import resource
    except ImportError:  # not on Windows: trec_eval's CPU time is then not counted
        return 0.0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(fn, *args) -> tuple[float, float]:
    """Wall and CPU seconds of one call (CPU: this process and the processes it waited for)."""
    wall, cpu, children = time.perf_counter(), time.process_time(), children_cpu()
    fn(*args)
    return time.perf_counter() - wall, time.process_time() - cpu + children_cpu() - children


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
    import rankmetrics as rm

    rng = np.random.default_rng([SEED, rows])
    grades = rng.choice(4, size=(rows, DEPTH), p=[0.55, 0.25, 0.12, 0.08]).astype(np.float64)
    out = {"rows": rows, "columns": DEPTH, "bytes": grades.nbytes}
    out["copy"], _ = median_time(np.copy, grades, repeats=repeats)
    out["ndcg"], _ = median_time(rm.ndcg, grades, 10, repeats=repeats)
    if not sk_rows:
        return out
    from sklearn.metrics import ndcg_score

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
    files.judged(qrels_path).by_text  # what evaluate holds of the qrels, its search array made
elif mode == "chunked":
    import rankmetrics as rm
    result = rm.evaluate(qrels_path, run_path, ["map", "P_10", "ndcg_cut_10", "recall_100", "recip_rank"],
                         chunk_queries=int(sys.argv[4]))
elif mode == "whole":
    import rankmetrics as rm
    result = rm.evaluate(qrels_path, run_path, ["map", "P_10", "ndcg_cut_10", "recall_100", "recip_rank"])
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


def reading(qrels_path: Path, run_path: Path, repeats: int, peers: set[str]) -> dict:
    """Reading speed on one core: the package's readers, and one pass over the same bytes for scale."""
    import rankmetrics as rm
    from rankmetrics.trec import files

    block = files.BLOCK_BYTES

    def one_pass(path):  # read in the reader's blocks, and look at every byte once (count the lines)
        with open(path, "rb") as handle:
            while chunk := handle.read(block):
                chunk.count(b"\n")

    def python_split(path):  # Python's own C tokenizer: the tokens as bytes objects, nothing checked
        with open(path, "rb") as handle:
            while chunk := handle.read(block):
                chunk.split()

    def pytrec_parse(path):
        import pytrec_eval

        with open(path) as handle:
            pytrec_eval.parse_run(handle)

    jobs = {
        "one pass over the bytes (read in the reader's blocks, count the line ends)": (one_pass, run_path),
        "`bytes.split()` of each block (Python's C tokenizer, no checks)": (python_split, run_path),
        "`read_run(run_path)` (dicts)": (rm.read_run, run_path),
        "the evaluate route's run reader (`run_records`: flat arrays, checked)": (
            lambda path: next(files.run_records(path, None)),
            run_path,
        ),
        "the evaluate route's qrels reader (`judged`, qrels file)": (files.judged, qrels_path),
    }
    if "pytrec_eval" in peers:
        jobs["`pytrec_eval.parse_run` (dicts)"] = (pytrec_parse, run_path)
    out = {}
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in jobs}
    for _ in range(repeats):  # interleaved, like the tools
        for name, (fn, path) in jobs.items():
            times[name].append(timed(fn, path))
    for name, (_, path) in jobs.items():
        size = path.stat().st_size
        wall = min(t[0] for t in times[name])
        cpu = min(t[1] for t in times[name])
        out[name] = {
            "bytes": size,
            "wall": wall,
            "cpu": cpu,
            "mb_s": size / wall / 1e6,
            "mb_s_cpu": size / cpu / 1e6,
        }
    return out


def code_state() -> dict:
    """The commit measured, and whether the tree had uncommitted changes."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=HERE.parent, capture_output=True, text=True, check=False)
        return done.stdout if done.returncode == 0 else ""

    changed = [line for line in git("status", "--porcelain").splitlines() if line.strip()]
    return {"commit": git("rev-parse", "HEAD").strip() or "unknown", "dirty": [line[3:] for line in changed]}


def importable(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def machine(peers: set[str]) -> dict:
    import rankmetrics

    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    from importlib.metadata import PackageNotFoundError, version

    def installed(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "(not installed)"

    te_version = "(not used)"
    if TREC_EVAL:
        shown = subprocess.run([TREC_EVAL, "-v"], check=False, capture_output=True, text=True)
        te_version = (shown.stdout + shown.stderr).strip() or "?"
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "rankmetrics": rankmetrics.__version__,
        # which copy was measured, relative to this repository (outside it: the installed one)
        "rankmetrics_file": os.path.relpath(rankmetrics.__file__, Path(__file__).resolve().parent.parent)
        if Path(rankmetrics.__file__).resolve().is_relative_to(Path(__file__).resolve().parent.parent)
        else "installed",
        "pytrec_eval": installed("pytrec-eval-terrier"),
        "ranx": installed("ranx"),
        "numba": installed("numba"),
        "scikit-learn": installed("scikit-learn"),
        "trec_eval": te_version,
        "peers": sorted(peers),
        "threads": {
            k: os.environ.get(k, "(unset)")
            for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS")
        },
        "load_start": os.getloadavg(),
        "code": code_state(),
    }


def fmt_s(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    return f"{seconds:.3f} s" if seconds < 10 else f"{seconds:.1f} s"


def ratio(row: dict, peer: str) -> str:
    if peer not in row["best"]:
        return "—"
    wall = row["best"]["rankmetrics"] / row["best"][peer]
    cpu = row["cpu"]["rankmetrics"] / row["cpu"][peer]
    return f"{wall:.2f} ({cpu:.2f})"


def report(
    info: dict, rows: list[dict], read: dict | None, batch: dict | None, big: dict | None, repeats: dict
) -> str:
    code = info["code"]
    state = (
        f"commit `{code['commit']}`, a clean tree"
        if not code["dirty"]
        else f"commit `{code['commit']}` **with uncommitted changes** ({', '.join(code['dirty'][:6])}"
        + (", ..." if len(code["dirty"]) > 6 else "")
        + "): these numbers are not the commit's"
    )
    lines = ["# Benchmark: rankmetrics against trec_eval, pytrec_eval, ranx and scikit-learn", ""]
    lines += [
        "Written by `python benchmarks/run.py` (see the script's docstring for what is measured).",
        "Ratio = rankmetrics' time ÷ the peer's time, both measured in the same run: below 1 means "
        "rankmetrics is faster. Each cell: the ratio of the best wall times, and in parentheses the "
        "ratio of the best CPU times (which suffer less from other work on a shared machine).",
        "",
        "## Machine and code",
        "",
        f"- Code: {state}",
        f"- CPU: {info['cpu']}, {info['cores']} cores (shared with other work; load average below)",
        f"- Python {info['python']}, numpy {info['numpy']}, rankmetrics {info['rankmetrics']}, "
        f"pytrec_eval-terrier {info['pytrec_eval']}, ranx {info['ranx']} (numba {info['numba']}), "
        f"scikit-learn {info['scikit-learn']}; trec_eval binary: {info['trec_eval']}",
        "- Threads: " + ", ".join(f"{k}={v}" for k, v in info["threads"].items()),
        f"- 1/5/15-minute load average at the start: {', '.join(f'{x:.2f}' for x in info['load_start'])}; "
        f"at the end: {', '.join(f'{x:.2f}' for x in info['load_end'])}",
        "",
        "## evaluate end to end (5 measures, 100 documents per query)",
        "",
        "Measures: MAP, P@10, nDCG@10 (ndcg_cut_10), recall@100, reciprocal rank; `all_trec`: every "
        "measure that `trec_eval -m all_trec` prints (rankmetrics is given the same names). "
        "Each query: 100 retrieved documents, about 20 judged (grades 0-3) plus 5 judged documents "
        "never retrieved; 2% of the queries have no relevant document. "
        "Before timing, every tool's per-query values were checked against rankmetrics "
        "(largest difference shown; trec_eval prints 4 decimals, its `all_trec` summaries are "
        "compared). The tools take turns, run after run, so that a burst of "
        "load from elsewhere hits them alike. Times are the best "
        + ", ".join(f"of {r} runs for {n:,} queries" for n, r in repeats.items())
        + "; reading the files or converting the dicts is included, imports are not, "
        "ranx's JIT was compiled before timing, and trec_eval's time is its whole process "
        "(without `-q`, so it prints only the summary).",
        "",
        "| queries | input | rankmetrics | trec_eval (C) | pytrec_eval | ranx | ratio vs trec_eval | "
        "ratio vs pytrec_eval | ratio vs ranx | agreement |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        best = row["best"]
        agree = ", ".join(f"{tool} {worst:.0e}" for tool, worst in row["agreement"].items()) or "—"
        lines.append(
            f"| {row['n']:,} | {row['input']} | {fmt_s(best['rankmetrics'])} | {fmt_s(best.get('trec_eval'))} | "
            f"{fmt_s(best.get('pytrec_eval'))} | {fmt_s(best.get('ranx'))} | {ratio(row, 'trec_eval')} | "
            f"{ratio(row, 'pytrec_eval')} | {ratio(row, 'ranx')} | {agree} |"
        )
    if read:
        first = read["`read_run(run_path)` (dicts)"]
        floor = read["one pass over the bytes (read in the reader's blocks, count the line ends)"]["mb_s"]
        lines += [
            "",
            f"## Reading speed ({first['bytes'] / 1e6:.0f} MB run file of {read['n']:,} queries)",
            "",
            "Best of the runs, one core. MB/s = the file's size ÷ the time; the last column is the "
            "time per byte in units of one pass over the bytes (the cheapest thing that looks at every byte).",
            "",
            "| what | wall | CPU | MB/s (wall) | MB/s (CPU) | × one pass |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for name, r in read.items():
            if name == "n":
                continue
            lines.append(
                f"| {name} | {fmt_s(r['wall'])} | {fmt_s(r['cpu'])} | {r['mb_s']:.0f} | {r['mb_s_cpu']:.0f} | "
                f"{floor / r['mb_s']:.0f} |"
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
        ]
        if "sk" in batch:
            lines += [
                "",
                f"scikit-learn for reference, {batch['sk_rows']:,} × {batch['columns']} (true grades and "
                "scores; each tool sorts by score itself; values agree to "
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
    lines += goals(rows, read, batch, big)
    return "\n".join(lines) + "\n"


# (input, peer): the largest ratio of the best wall times that meets the goal, and the smallest
# number of queries the goal is set for (issue 19: files from 2,000 queries, dicts from 1,000).
GOALS = {
    ("TREC files", "trec_eval"): (0.35, 2_000),
    ("TREC files", "pytrec_eval"): (0.6, 2_000),
    ("TREC files, all_trec", "trec_eval"): (0.35, 2_000),
    ("dicts", "pytrec_eval"): (0.6, 1_000),
}


def goals(rows: list[dict], read: dict | None, batch: dict | None, big: dict | None) -> list[str]:
    """The issue's goals, each against this run's numbers."""
    out = ["", "## The goals, against this run", "", "| goal | measured | met |", "|---|---|:---:|"]

    def mark(ok: bool) -> str:
        return "yes" if ok else "**no**"

    for (kind, peer), (limit, smallest) in GOALS.items():
        for row in rows:
            if row["input"] == kind and peer in row["best"] and row["n"] >= smallest:
                value = row["best"]["rankmetrics"] / row["best"][peer]
                out.append(
                    f"| {kind}, {row['n']:,} queries: ≤ {limit}× {peer} | {value:.2f}× "
                    f"(CPU {row['cpu']['rankmetrics'] / row['cpu'][peer]:.2f}×) | {mark(value <= limit)} |"
                )
    if read:
        for name, least in (
            ("`read_run(run_path)` (dicts)", 150),
            # numbers through numpy's own conversion (astype(float64)) since issue 30: 100 MB/s
            ("the evaluate route's run reader (`run_records`: flat arrays, checked)", 100),
        ):
            r = read[name]
            out.append(
                f"| {name}: ≥ {least} MB/s | {r['mb_s']:.0f} MB/s (CPU {r['mb_s_cpu']:.0f}) "
                f"| {mark(r['mb_s'] >= least)} |"
            )
    if batch:
        value = batch["ndcg"] / batch["copy"]
        out.append(
            f"| batch nDCG@10, {batch['rows']:,} × 100: ≤ 3.5× one copy | {value:.2f}× | {mark(value <= 3.5)} |"
        )
    if big:
        extra = (big["chunked"]["peak_kib"] - big["baseline"]["peak_kib"]) / 1024
        out.append(
            f"| chunked 10,000,000-line run: peak ≤ qrels floor + 100 MB | floor + {extra:,.0f} MiB | {mark(extra <= 100)} |"
        )
    return out


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    global TREC_EVAL
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", default="1000,2000,20000,100000", help="numbers of queries, comma-separated"
    )
    parser.add_argument(
        "--repeats", type=int, default=5, help="timed runs per measurement (the best reported)"
    )
    parser.add_argument(
        "--max-repeats-large", type=int, default=3, help="timed runs for 100,000 queries or more"
    )
    parser.add_argument(
        "--ranx-max-queries", type=int, default=20_000, help="ranx only up to this many queries (it is slow)"
    )
    parser.add_argument(
        "--all-trec-sizes", default="2000,20000,100000", help="sizes with the -m all_trec row (files)"
    )
    parser.add_argument("--read-size", type=int, default=20_000, help="queries for the reading-speed table")
    parser.add_argument(
        "--batch-rows", type=int, default=1_000_000, help="rows of the batch nDCG array (0: skip)"
    )
    parser.add_argument(
        "--sklearn-rows", type=int, default=100_000, help="rows for scikit-learn's ndcg_score"
    )
    parser.add_argument(
        "--trec-eval",
        default=os.environ.get("TREC_EVAL") or shutil.which("trec_eval"),
        help="NIST trec_eval's binary (default: $TREC_EVAL, or trec_eval on the PATH)",
    )
    parser.add_argument("--quick", action="store_true", help="1k and 10k queries, 3 repeats, 100k-row batch")
    parser.add_argument("--big", action="store_true", help="peak memory of a chunked 10-million-line run")
    parser.add_argument("--big-lines", type=int, default=10_000_000)
    parser.add_argument("--chunk-queries", type=int, default=1000)
    parser.add_argument("--workdir", default=WORKDIR, help="scratch folder for generated files")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="every step at a tiny size, for the test suite; writes only to an --out given explicitly",
    )
    parser.add_argument("--out", help="Markdown file for the table (default: RESULTS.md beside this script)")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument(
        "--wait-load",
        type=float,
        default=1.5,
        help="wait (up to 15 minutes) until the 1-minute load average is below this; 0: do not wait",
    )
    parser.add_argument(
        "--render",
        metavar="JSON",
        help="measure nothing: rewrite the Markdown report (--out) from a saved JSON",
    )
    args = parser.parse_args(argv)
    if args.smoke:  # before the default --out is filled in: a smoke run never overwrites RESULTS.md
        args.sizes, args.repeats, args.batch_rows, args.sklearn_rows = "100,300", 1, 2_000, 100
        args.all_trec_sizes, args.read_size = "100", 300
        args.big_lines, args.chunk_queries, args.wait_load = 3_000, 7, 0
        args.no_write = args.no_write or args.out is None
    args.out = args.out or str(HERE / "RESULTS.md")
    if args.render:
        saved = json.loads(Path(args.render).read_text())
        counts = {row["n"]: len(next(iter(row["times"].values()))) for row in saved["evaluate"]}
        text = report(
            saved["machine"], saved["evaluate"], saved["reading"], saved["batch"], saved["memory"], counts
        )
        Path(args.out).write_text(text)
        print(text)
        return 0
    if args.quick:
        args.sizes, args.repeats, args.batch_rows, args.sklearn_rows = "1000,10000", 3, 100_000, 10_000
        args.all_trec_sizes, args.read_size = "1000", 10_000
        args.no_write = True
    sizes = [int(s) for s in args.sizes.split(",") if s]
    all_trec_sizes = {int(s) for s in args.all_trec_sizes.split(",") if s}
    folder = Path(args.workdir)
    folder.mkdir(parents=True, exist_ok=True)
    warnings.simplefilter("ignore")  # ranx and numba announce deprecations

    peers = {
        tool for tool, module in (("pytrec_eval", "pytrec_eval"), ("ranx", "ranx")) if importable(module)
    }
    for tool in sorted({"pytrec_eval", "ranx"} - peers):
        print(f"note: {tool} is not importable here; its columns are left out", flush=True)
    if not importable("sklearn"):
        args.sklearn_rows = 0
        print("note: scikit-learn is not importable here; the batch table leaves it out", flush=True)
    if args.trec_eval and os.access(args.trec_eval, os.X_OK):
        TREC_EVAL = args.trec_eval
    else:
        print(
            "note: no trec_eval binary (--trec-eval, $TREC_EVAL or PATH); its columns are left out",
            flush=True,
        )
    if args.wait_load:
        for _ in range(15):
            if os.getloadavg()[0] <= args.wait_load:
                break
            print(f"load {os.getloadavg()[0]:.2f} > {args.wait_load}: waiting a minute", flush=True)
            time.sleep(60)
    info = machine(peers)
    print(f"{info['cpu']}, {info['cores']} cores; load {info['load_start']}; code {info['code']}", flush=True)
    if "ranx" in peers:
        warm_ranx()
    rows, repeats = [], {}
    read = None
    for n in sizes:
        data = make_data(n)
        qrels, run = as_dicts(data)
        paths = write_files(data, folder)
        count = min(args.repeats, args.max_repeats_large) if n >= 100_000 else args.repeats
        repeats[n] = count
        with_ranx = "ranx" in peers and n <= args.ranx_max_queries
        tools = {
            "dicts": {"rankmetrics": rm_dicts, "pytrec_eval": pytrec_dicts, "ranx": ranx_dicts},
            "TREC files": {
                "rankmetrics": rm_files,
                "trec_eval": trec_eval_files,
                "pytrec_eval": pytrec_files,
                "ranx": ranx_files,
            },
        }
        if n in all_trec_sizes and TREC_EVAL:
            tools["TREC files, all_trec"] = {"rankmetrics": rm_all_trec, "trec_eval": trec_eval_all_trec}
        for kind, fns in tools.items():
            fns = {
                tool: fn
                for tool, fn in fns.items()
                if tool == "rankmetrics"
                or (tool == "trec_eval" and TREC_EVAL)
                or (tool == "pytrec_eval" and tool in peers)
                or (tool == "ranx" and with_ranx)
            }
            inputs = (qrels, run) if kind == "dicts" else paths
            if kind == "TREC files, all_trec":
                worst, _ = all_trec_agreement(*paths)
                agreement = {"trec_eval": worst}
            else:
                first = {  # untimed: values checked first
                    tool: trec_eval_files(*inputs, per_query=True) if tool == "trec_eval" else fn(*inputs)
                    for tool, fn in fns.items()
                }
                agreement = check_agreement(first, n)
                del first
            row = {"n": n, "input": kind, "agreement": agreement}
            times: dict[str, list[tuple[float, float]]] = {tool: [] for tool in fns}
            for _ in range(count):  # the tools take turns, so a burst of load hits them alike
                for tool, fn in fns.items():
                    times[tool].append(timed(fn, *inputs))
            row["best"] = {tool: min(w for w, _ in t) for tool, t in times.items()}
            row["cpu"] = {tool: min(c for _, c in t) for tool, t in times.items()}
            row["median"] = {tool: statistics.median(w for w, _ in t) for tool, t in times.items()}
            row["times"] = {tool: [[round(w, 4), round(c, 4)] for w, c in t] for tool, t in times.items()}
            rows.append(row)
            print(
                f"{n:>7,} queries, {kind:<20}: "
                + "  ".join(f"{tool} {fmt_s(row['best'][tool])}" for tool in fns)
                + "  ratios (wall, CPU): "
                + "  ".join(f"vs {tool} {ratio(row, tool)}" for tool in fns if tool != "rankmetrics")
                + f"  agreement {agreement}",
                flush=True,
            )
        if n == args.read_size:
            read = {"n": n, **reading(paths[0], paths[1], count, peers)}
            for name, r in read.items():
                if name != "n":
                    print(f"  {r['mb_s']:6.0f} MB/s wall, {r['mb_s_cpu']:6.0f} MB/s CPU: {name}", flush=True)
        del qrels, run
    batch = None
    if args.batch_rows:
        batch = batch_ndcg(args.batch_rows, args.sklearn_rows, repeats=args.repeats)
        print(
            f"batch nDCG@10 {batch['rows']:,} x {DEPTH}: {fmt_s(batch['ndcg'])}, one copy {fmt_s(batch['copy'])}, "
            f"ratio {batch['ndcg'] / batch['copy']:.2f}",
            flush=True,
        )
    big = big_memory(folder, args.big_lines, args.chunk_queries) if args.big else None
    info["load_end"] = os.getloadavg()
    text = report(info, rows, read, batch, big, repeats)
    print()
    print(text)
    if not args.no_write:
        Path(args.out).write_text(text)
        Path(args.out).with_suffix(".json").write_text(
            json.dumps(
                {
                    "machine": info,
                    "measures": METRICS,
                    "evaluate": rows,
                    "reading": read,
                    "batch": batch,
                    "memory": big,
                },
                indent=1,
            )
            + "\n"
        )
        print(f"written to {args.out} and {Path(args.out).with_suffix('.json')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
