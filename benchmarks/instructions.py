"""Count the CPU instructions of reading and evaluating TREC files, under valgrind's callgrind.

Run from the repository root, in the package's environment, with valgrind installed
(Debian: ``apt-get install valgrind``):

    python benchmarks/instructions.py             # the count of the work, minus the imports
    python benchmarks/instructions.py --top 15    # and the functions that execute the most of it
    git worktree add /tmp/before COMMIT && python benchmarks/instructions.py --checkout /tmp/before
                                                  # the same count for another commit's rankmetrics

On a shared machine a timing varies by 10 % or more from run to run, more than most
changes to the reader are worth; the number of instructions the work executes does
not depend on the machine's other load (the same binary, inputs and environment give
the same count). So two versions of the code are compared here by counting, and the
benchmark (``benchmarks/run.py``) stays the proof of speed: instructions are not
time (a cache miss costs more than an addition), but a change that removes work shows
up here reliably.

The work: ``run_records`` over the run file of ``--run-queries`` queries (the evaluate
route's reader), then ``rankmetrics.evaluate`` of the five benchmark measures on the
files of ``--queries`` queries, both from ``benchmarks/run.py``'s seeded generator. The
count is that of a process doing the work less that of a process doing only the imports.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import run as bench  # benchmarks/run.py: the generator and the five measures

WORK = """
import sys
import rankmetrics as rm
from rankmetrics.trec import files
print(rm.__file__)
if sys.argv[1] == "work":
    next(files.run_records(sys.argv[2], None))
    rm.evaluate(sys.argv[3], sys.argv[4], {measures!r})
"""


def count(what: str, paths: list[str], profile: Path | None, checkout: str | None) -> tuple[int, str]:
    """Instructions executed by one process (``what``: "work" or "imports"), and the rankmetrics it imported."""
    out = str(profile) if profile else "/dev/null"
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c"]
    done = subprocess.run(
        [*command, WORK.format(measures=bench.METRICS["rankmetrics"]), what, *paths],
        capture_output=True,
        text=True,
        check=True,
        cwd=checkout,  # "python -c" looks in its folder first: there, another checkout's rankmetrics
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if not found:
        raise SystemExit(f"callgrind printed no count:\n{done.stderr[-2000:]}")
    return int(found.group(1)), done.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=2_000, help="queries of the files evaluated")
    parser.add_argument("--run-queries", type=int, default=20_000, help="queries of the run file read")
    parser.add_argument("--top", type=int, default=0, help="also list the functions that execute the most")
    parser.add_argument("--workdir", default=bench.WORKDIR, help="scratch folder for the files")
    parser.add_argument("--checkout", help="count the rankmetrics of this checkout (e.g. a git worktree)")
    args = parser.parse_args(argv)
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    folder = Path(args.workdir)
    folder.mkdir(parents=True, exist_ok=True)
    _, big_run = bench.write_files(bench.make_data(args.run_queries), folder)
    qrels, run = bench.write_files(bench.make_data(args.queries), folder)
    paths = [str(big_run), str(qrels), str(run)]
    with tempfile.TemporaryDirectory() as scratch:
        profile = Path(scratch) / "callgrind.out" if args.top else None
        work, package = count("work", paths, profile, args.checkout)
        imports, _ = count("imports", paths, None, args.checkout)
        # The commit of the rankmetrics that was counted (--checkout may name another checkout).
        where = Path(package).parent
        commit = subprocess.run(
            ["git", "-C", str(where), "rev-parse", "HEAD"], capture_output=True, text=True, check=False
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(where), "status", "--porcelain", "--", "."],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        print(
            f"rankmetrics of commit {commit[:10] or 'unknown'}" + (" (uncommitted changes)" if dirty else "")
        )
        print(
            f"instructions: {work - imports:,} (reading {big_run.name}, then evaluating {run.name} "
            f"against {qrels.name}; {imports:,} for the imports not counted)"
        )
        if profile:
            annotated = subprocess.run(
                ["callgrind_annotate", str(profile)], capture_output=True, text=True, check=True
            ).stdout
            rows = [
                line for line in annotated.splitlines() if re.match(r"\s*[\d,]+ \(\s*[\d.]+%\)\s+\S", line)
            ]
            print(f"the {args.top} functions that execute the most (imports included):")
            print("\n".join(rows[1 : args.top + 1]))  # rows[0] is the program's total
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
