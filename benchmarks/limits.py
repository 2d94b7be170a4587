"""How far the package's two routes are from the floors that bound them, and what the candidate libraries give.

Run from the repository root, in the benchmark's environment (benchmarks/requirements-bench.txt):

    python benchmarks/limits.py                    # 1k, 2k, 20k queries; writes LIMITS.md and LIMITS.json
    python benchmarks/limits.py --sizes 1000 --no-write

Two goals of the benchmark (RESULTS.md) have stayed out of reach for several rounds:
the dict route at 0.6x pytrec_eval, and 150 MB/s for the readers. This script
measures what bounds them, on the data ``benchmarks/run.py`` generates (seeded, so
every machine sees the same inputs), so that a decision about them rests on numbers
from a committed script rather than on a note:

1. **The dict route's floor.** ``evaluate(qrels_dict, run_dict)`` must at least
   walk every entry of the run once for its document ids, once for its scores and
   once to find each retrieved document's grade, and walk the judgements once for
   their grades. Each walk is timed alone, written the fastest way CPython offers
   (C-level iteration: ``chain``, ``map``, ``np.fromiter``, ``dict.get``; no Python
   loop over the entries, no check of any value's type). Their sum is a floor that
   no pure-Python converter can go below; the ranking and the five measures
   (``evaluate``'s time less its two conversions of the dicts and the look-ups) come
   on top. Both are set
   beside pytrec_eval's time in the same run and the goal (0.6x that time).
2. **The reader's candidates.** One 82 MB run file (20,000 queries) read in the
   reader's blocks by: the package's own readers (``run_records``, ``read_run``);
   Python's ``bytes.split`` (the tokens, nothing checked); pyarrow's CSV reader with
   a one-space delimiter (the fastest columnar reader; it cannot read the TREC
   format's "any run of white space", which a tab or two spaces would need);
   pyarrow's ``ascii_split_whitespace`` (which can); pandas' C tokenizer with
   ``sep=r"\\s+"``; and, where numba is importable, a one-pass tokenizer compiled by
   numba (a sketch: tokens, line counts and the score column, no id and no check),
   for what a compiled reader of the package's own could reach. Beside them, the
   Python objects ``read_run`` must make whatever parses the bytes (2,000,000
   docno strings, floats and per-query dicts), the floor of a reader that returns
   dicts.

Times are the best of ``--repeats`` runs, on one core (pyarrow's threads set to 1).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from itertools import chain, repeat
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import run as bench  # benchmarks/run.py: the generator, the peers, the machine's description

NAN = float("nan")


def best(fn, repeats: int) -> float:
    """The best wall time of ``repeats`` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


# ---------------------------------------------------------------- 1. the dict route


def dict_floor(n: int, repeats: int) -> dict:
    """The dict route at ``n`` queries: its floor, the package's time and pytrec_eval's."""
    from rankmetrics.trec import files

    qrels, run = bench.as_dicts(bench.make_data(n))
    qids = list(run)
    inner = list(run.values())
    lengths = list(map(len, inner))
    total = sum(lengths)
    judged = list(qrels.values())
    n_judged = sum(map(len, judged))
    docnos = list(chain.from_iterable(inner))
    none: dict = {}

    def ids():  # every retrieved document id, once
        list(chain.from_iterable(inner))

    def scores():  # every score, once, as float64 (no check of its type)
        np.fromiter(chain.from_iterable(map(dict.values, inner)), dtype=np.float64, count=total)

    def grades():  # each retrieved document's grade: one look-up in its query's judgements
        per_record = chain.from_iterable(map(repeat, map(qrels.get, qids, repeat(none)), lengths))
        np.fromiter(map(dict.get, per_record, docnos, repeat(NAN)), dtype=np.float64, count=total)

    judged_qids = list(qrels)
    counts = list(map(len, judged))

    def judged_side():  # the other way round: each judged document looked up in its query's run
        per_judgement = chain.from_iterable(map(repeat, map(run.get, judged_qids, repeat(none)), counts))
        docs = chain.from_iterable(judged)
        np.fromiter(map(dict.get, per_judgement, docs, repeat(NAN)), dtype=np.float64, count=n_judged)

    def judged_grades():  # every judgement's grade, once (the measures' ideal rankings and counts)
        np.fromiter(chain.from_iterable(map(dict.values, judged)), dtype=np.float64, count=n_judged)

    passes = {
        "ids": ids,
        "scores": scores,
        "grades": grades,
        "judged_grades": judged_grades,
        "judged_side": judged_side,
    }
    times = {name: best(fn, repeats) for name, fn in passes.items()}
    times["rankmetrics"] = best(lambda: bench.rm_dicts(qrels, run), repeats)
    # The rest of evaluate: its time less its two conversions of the dicts and the grades' look-ups
    # (which happen in its ranking step): the ranking itself and the five measures.
    converting = best(lambda: files.judged(qrels), repeats) + best(
        lambda: next(files.run_records(run, None)), repeats
    )
    times["rank_and_measures"] = times["rankmetrics"] - converting - times["grades"]
    if bench.importable("pytrec_eval"):
        times["pytrec_eval"] = best(lambda: bench.pytrec_dicts(qrels, run), repeats)
    return {"n": n, "entries": total, "judgements": n_judged, "times": times}


# ---------------------------------------------------------------- 2. the readers


def blocks(path: Path):
    """The file in the reader's blocks of whole lines (each block ends in a line end)."""
    from rankmetrics.trec import files

    rest = b""
    with open(path, "rb") as handle:
        while chunk := handle.read(files.BLOCK_BYTES):
            chunk = rest + chunk
            cut = chunk.rfind(b"\n") + 1
            rest = chunk[cut:]
            yield chunk[:cut]
    if rest:
        yield rest


def numba_sketch():
    """A one-pass tokenizer compiled by numba: token bounds, each line's first token, the score column."""
    import numba

    @numba.njit(nogil=True)
    def tokens(data, begins, ends, firsts):
        n_tokens = 0
        n_lines = 0
        inside = False
        for i in range(data.size):
            c = data[i]
            if c == 32 or (c >= 9 and c <= 13):
                if inside:
                    ends[n_tokens] = i
                    n_tokens += 1
                    inside = False
                if c == 10:
                    n_lines += 1
                    firsts[n_lines] = n_tokens
            elif not inside:
                begins[n_tokens] = i
                inside = True
        if inside:
            ends[n_tokens] = data.size
            n_tokens += 1
        return n_tokens, n_lines

    @numba.njit(nogil=True)
    def numbers(data, begins, ends, at, out):
        for k in range(at.size):
            i, end = begins[at[k]], ends[at[k]]
            sign = 1.0
            if data[i] == 45:
                sign = -1.0
                i += 1
            whole, scale, point = 0.0, 1.0, False
            while i < end:
                c = data[i]
                if c == 46:
                    point = True
                else:
                    whole = whole * 10 + (c - 48)
                    if point:
                        scale *= 10
                i += 1
            out[k] = sign * whole / scale

    def read(path: Path) -> None:
        for blob in blocks(path):
            data = np.frombuffer(blob, dtype=np.uint8)
            begins = np.empty(data.size // 2 + 1, dtype=np.int64)
            ends = np.empty_like(begins)
            firsts = np.zeros(blob.count(b"\n") + 2, dtype=np.int64)
            _, n_lines = tokens(data, begins, ends, firsts)
            at = firsts[:n_lines] + 4  # the score, the fifth field of each line
            numbers(data, begins, ends, at, np.empty(at.size))

    return read


_NUMBA_COLD = """
import sys, time
from pathlib import Path
sys.path.insert(0, {here!r})
start = time.perf_counter()
import numba
imported = time.perf_counter()
import limits
read = limits.numba_sketch()
started = time.perf_counter()
read(Path({path!r}))
first = time.perf_counter() - started
started = time.perf_counter()
read(Path({path!r}))
print(imported - start, first - (time.perf_counter() - started))
"""


def reader_candidates(path: Path, repeats: int) -> dict:
    """Seconds to read the run file at ``path`` by each candidate (one core)."""
    import rankmetrics as rm
    from rankmetrics.trec import files

    jobs = {
        "one_pass": lambda: [blob.count(b"\n") for blob in blocks(path)],
        "bytes_split": lambda: [blob.split() for blob in blocks(path)],
        "run_records": lambda: next(files.run_records(path, None)),
        "read_run": lambda: rm.read_run(path),
    }
    if bench.importable("pyarrow"):
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.csv as pcsv

        pa.set_cpu_count(1)
        pa.set_io_thread_count(1)
        read_options = pcsv.ReadOptions(use_threads=False, autogenerate_column_names=True)
        convert = pcsv.ConvertOptions(
            include_columns=["f0", "f2", "f4"],
            column_types={"f0": pa.string(), "f2": pa.string(), "f4": pa.float64()},
        )

        def arrow_csv():
            pcsv.read_csv(path, read_options, pcsv.ParseOptions(delimiter=" "), convert)

        def arrow_split():
            for blob in blocks(path):
                lines = pc.split_pattern(pa.array([blob.decode("utf-8")]), "\n").flatten()
                pc.ascii_split_whitespace(lines)

        jobs["pyarrow_csv_one_space"] = arrow_csv
        jobs["pyarrow_split_whitespace"] = arrow_split
    if bench.importable("pandas"):
        import pandas as pd

        def pandas_whitespace():
            pd.read_csv(path, sep=r"\s+", header=None, usecols=[0, 2, 4], dtype={0: str, 2: str, 4: float})

        jobs["pandas_whitespace"] = pandas_whitespace
    if bench.importable("numba"):
        import subprocess

        # What a fresh process pays before a numba reader reads a byte: the import, and the
        # sketch's compilation (no cache: a fresh environment, or a kernel started anew without one).
        cold = subprocess.run(
            [sys.executable, "-c", _NUMBA_COLD.format(here=str(HERE), path=str(path))],
            capture_output=True,
            text=True,
            check=True,
        )
        numba_import, numba_compile = map(float, cold.stdout.split())
        sketch = numba_sketch()
        sketch(path)  # compile before timing
        jobs["numba_sketch"] = lambda: sketch(path)
    times = {name: best(fn, repeats) for name, fn in jobs.items()}
    if "numba_sketch" in jobs:
        times["numba_import"], times["numba_compile"] = numba_import, numba_compile

    # The objects read_run returns, made from arrays already parsed: the floor of any reader of dicts.
    records = next(files.run_records(path, None))
    values = records.values
    raw = "\n".join(records.docnos.tolist()).encode("utf-8")  # the ids' bytes, one after another
    cuts = np.cumsum(records.lengths).tolist()

    def objects():
        strings = raw.decode("utf-8").split("\n")
        numbers = values.tolist()
        starts = [0, *cuts[:-1]]
        return dict(
            zip(
                records.qids,
                map(
                    dict,
                    map(
                        zip,
                        map(strings.__getitem__, map(slice, starts, cuts)),
                        map(numbers.__getitem__, map(slice, starts, cuts)),
                    ),
                ),
            )
        )

    assert objects() == rm.read_run(path), "the floor makes what read_run returns"
    times["read_run_objects"] = best(objects, repeats)
    return {"bytes": path.stat().st_size, "times": times, "queries": len(records)}


# ---------------------------------------------------------------- the report

READERS = {
    "one_pass": "one pass over the bytes (count the line ends)",
    "bytes_split": "`bytes.split()` of each block (tokens only, nothing checked)",
    "run_records": "**rankmetrics `run_records`** (the evaluate route: flat arrays, every check)",
    "read_run": "**rankmetrics `read_run`** (dicts of strings, every check)",
    "pyarrow_csv_one_space": "pyarrow CSV, delimiter one space, 3 columns, score as float (no check; "
    "cannot read tabs or runs of spaces)",
    "pyarrow_split_whitespace": "pyarrow `ascii_split_whitespace` of the lines (tokens only, nothing checked)",
    "pandas_whitespace": 'pandas C tokenizer, `sep=r"\\s+"`, 3 columns, score as float (no check)',
    "numba_sketch": "numba-compiled one-pass sketch: token bounds, line counts, the score column "
    "(no ids, no check)",
    "read_run_objects": "the objects `read_run` returns, from arrays already parsed (strings, floats, "
    "dicts): the floor of any reader of dicts",
}


def report(info: dict, dicts: list[dict], read: dict | None) -> str:
    code = info["code"]
    state = "a clean tree" if not code["dirty"] else "**uncommitted changes**: " + ", ".join(code["dirty"])
    lines = [
        "# The floors under two of the benchmark's goals",
        "",
        "Written by `python benchmarks/limits.py` (its docstring says what is measured and why).",
        "Best of several runs, one core, wall time.",
        "",
        f"- Code: commit `{code['commit']}`, {state}",
        f"- CPU: {info['cpu']}, {info['cores']} cores; 1/5/15-minute load at the start: "
        + ", ".join(f"{x:.2f}" for x in info["load_start"]),
        f"- Python {info['python']}, numpy {info['numpy']}, pytrec_eval-terrier {info['pytrec_eval']}, "
        f"numba {info['numba']}, pyarrow {info['pyarrow']}, pandas {info['pandas']}",
        "",
        "## 1. The dict route: its floor against 0.6× pytrec_eval",
        "",
        "Each pass is one walk over every entry, written the fastest way CPython offers, checking nothing. "
        "Their sum is what any converter of `{qid: {docno: value}}` written in Python pays at least; "
        "ranking and the five measures (rankmetrics' time less its conversion of the two dicts and the "
        "look-ups) come on top.",
        "",
        "| queries | entries | ids | scores | grades (look-ups) | judged grades | **floor** | "
        "rank + measures | floor + rank + measures | rankmetrics now | pytrec_eval | goal (0.6×) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in dicts:
        t = row["times"]
        floor = t["ids"] + t["scores"] + t["grades"] + t["judged_grades"]
        row["floor"] = floor
        row["floor_judged_side"] = floor - t["grades"] + t["judged_side"]
        peer = t.get("pytrec_eval")
        goal = f"{0.6 * peer * 1e3:.1f} ms" if peer else "—"
        lines.append(
            f"| {row['n']:,} | {row['entries']:,} | "
            + " | ".join(f"{t[k] * 1e3:.1f} ms" for k in ("ids", "scores", "grades", "judged_grades"))
            + f" | **{floor * 1e3:.1f} ms** | {t['rank_and_measures'] * 1e3:.1f} ms | "
            f"{(floor + t['rank_and_measures']) * 1e3:.1f} ms | {t['rankmetrics'] * 1e3:.1f} ms | "
            + (f"{peer * 1e3:.1f} ms" if peer else "—")
            + f" | {goal} |"
        )
    lines += [
        "",
        "As fractions of pytrec_eval's time. The last but one column is the other design: each "
        "judgement looked up in its query's run (about a third as many look-ups: "
        + ", ".join(f"{row['judgements']:,} instead of {row['entries']:,}" for row in dicts)
        + "), which then has to find each judged document's rank from its score, a cost not "
        "counted here.",
        "",
        "| queries | floor | floor + rank + measures | rankmetrics now | judged side: floor + rank + measures "
        "| goal |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for row in dicts:
        t = row["times"]
        if "pytrec_eval" not in t:
            continue
        peer = t["pytrec_eval"]
        lines.append(
            f"| {row['n']:,} | {row['floor'] / peer:.2f} | {(row['floor'] + t['rank_and_measures']) / peer:.2f} | "
            f"{t['rankmetrics'] / peer:.2f} | "
            f"{(row['floor_judged_side'] + t['rank_and_measures']) / peer:.2f} | 0.60 |"
        )
    if read:
        size = read["bytes"]
        lines += [
            "",
            f"## 2. Reading a run file of {size / 1e6:.0f} MB ({read['queries']:,} queries): the candidates",
            "",
            "| what | time | MB/s |",
            "|---|---:|---:|",
        ]
        for key, label in READERS.items():
            if key in read["times"]:
                seconds = read["times"][key]
                lines.append(f"| {label} | {seconds:.3f} s | {size / seconds / 1e6:.0f} |")
        lines.append(f"| the goal: 150 MB/s | {size / 150e6:.3f} s | 150 |")
        if "numba_import" in read["times"]:
            lines += [
                "",
                "What a fresh process pays before the numba sketch reads a byte (measured in a new "
                f"process): `import numba` {read['times']['numba_import']:.2f} s, compiling the "
                f"sketch's two small functions {read['times']['numba_compile']:.2f} s (no cache).",
            ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,2000,20000", help="numbers of queries for the dict table")
    parser.add_argument(
        "--read-size", type=int, default=20_000, help="queries of the run file read (0: skip)"
    )
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--workdir", default=bench.WORKDIR, help="scratch folder for the files")
    parser.add_argument("--out", default=str(HERE / "LIMITS.md"))
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    from importlib.metadata import PackageNotFoundError, version

    info = bench.machine({p for p in ("pytrec_eval",) if bench.importable(p)})
    for name in ("pyarrow", "pandas"):
        try:
            info[name] = version(name)
        except PackageNotFoundError:
            info[name] = "(not installed)"
    dicts = []
    for n in (int(s) for s in args.sizes.split(",") if s):
        dicts.append(dict_floor(n, args.repeats))
        print(
            f"{n:,} queries: " + ", ".join(f"{k} {v:.4f}" for k, v in dicts[-1]["times"].items()), flush=True
        )
    read = None
    if args.read_size:
        folder = Path(args.workdir)
        folder.mkdir(parents=True, exist_ok=True)
        _, run_path = bench.write_files(bench.make_data(args.read_size), folder)
        read = reader_candidates(run_path, args.repeats)
    text = report(info, dicts, read)
    print(text)
    if not args.no_write:
        Path(args.out).write_text(text)
        Path(args.out).with_suffix(".json").write_text(
            json.dumps({"machine": info, "dicts": dicts, "reading": read}, indent=1, default=str) + "\n"
        )
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    raise SystemExit(main())
