"""Where the time of one large ``rankmetrics.evaluate`` goes: wall time and a cProfile top list.

Run from the repository root, in the package's environment (no peers needed):

    python benchmarks/profile_evaluate.py                 # 20,000 queries x 100 documents
    python benchmarks/profile_evaluate.py --queries 5000
    python benchmarks/profile_evaluate.py --all-trec      # every measure of trec_eval -m all_trec

The files come from ``benchmarks/run.py``'s generator (the same seeded data, about
82 MB of run file for 20,000 queries), written to a scratch folder outside the
repository. The wall time is the best of ``--repeats`` runs (the machine is
shared); the CPU time of this process is shown beside it, as it suffers less
from other work on the machine. The profile is one more run under cProfile, timed in CPU time, so
its times are inflated by the profiler's own cost and are for ranking the
functions, not for comparing with the wall time. Prints Markdown tables, the
form ``benchmarks/PROFILE.md`` keeps.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run as bench  # benchmarks/run.py, for its generator (its peers are imported only when used)

MEASURES = ["map", "P_10", "ndcg_cut_10", "recall_100", "recip_rank"]


def where(filename: str) -> str:
    """A profile entry's file, relative to the package (or the standard library)."""
    path = Path(filename)
    if "rankmetrics" in path.parts:
        return "/".join(path.parts[path.parts.index("rankmetrics") + 1 :])
    return path.name


def table(stats: pstats.Stats, key: str, top: int) -> str:
    stats.sort_stats(key)
    rows = ["| cumulative s | own s | calls | function |", "|---:|---:|---:|---|"]
    for func in stats.fcn_list[:top]:
        _, calls, tottime, cumtime, _ = stats.stats[func]
        filename, line, name = func
        label = name if filename == "~" else f"{where(filename)}:{line} {name}"
        rows.append(f"| {cumtime:.3f} | {tottime:.3f} | {calls:,} | `{label}` |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3, help="timed runs (the best is reported)")
    parser.add_argument("--top", type=int, default=15, help="functions in each profile table")
    parser.add_argument(
        "--all-trec", action="store_true", help="every measure of trec_eval -m all_trec instead of the five"
    )
    parser.add_argument("--workdir", default=bench.WORKDIR, help="scratch folder for the files")
    args = parser.parse_args(argv)

    import rankmetrics as rm

    folder = Path(args.workdir)
    folder.mkdir(parents=True, exist_ok=True)
    qrels_path, run_path = bench.write_files(bench.make_data(args.queries), folder)
    measures = bench.all_trec_names() if args.all_trec else MEASURES
    shown = f"all_trec ({len(measures)} names)" if args.all_trec else measures
    print(f"{os.cpu_count()} cores; run file {run_path.stat().st_size / 1e6:.0f} MB, measures {shown}")

    times, cpu = [], []
    for _ in range(args.repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        rm.evaluate(qrels_path, run_path, measures)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    print(f"wall time: best {min(times):.3f} s of {', '.join(f'{t:.3f}' for t in times)}")
    print(f"CPU time (this process): best {min(cpu):.3f} s of {', '.join(f'{t:.3f}' for t in cpu)}")

    # The profiler's clock is this process's CPU time: on a shared machine, wall time would
    # charge other processes' turns to whichever function was running when they came.
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    rm.evaluate(qrels_path, run_path, measures)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=io.StringIO())
    print(f"\nunder cProfile: {stats.total_tt:.3f} s of CPU time\n")
    print("By cumulative time:\n")
    print(table(stats, "cumulative", args.top))
    print("\nBy own time (tottime):\n")
    print(table(stats, "tottime", args.top))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
