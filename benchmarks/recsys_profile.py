"""Where the time of ``rm.evaluate`` goes on recommender DataFrames: a cProfile top list.

Run from the repository root, in the package's environment:

    python benchmarks/recsys_profile.py                   # 100,000 users x top-100
    python benchmarks/recsys_profile.py --users 20000 --no-write

The data are ``recsys_speed.py``'s (the same seeded generator, the first ``--users``
users): int32 ``user_id, item_id`` frames, 5 to 15 test items per user without a
``relevance`` column, and the six measures P@10, R@10, HR@10, MRR@10, MAP@10, nDCG@10.
A second call adds ``exclude=`` with 20 seen items per user (5 of them from the user's
top 20). Each call is timed once in wall-clock seconds and then profiled once with
cProfile; the profiler's own cost inflates its times, so the tables are for where the
time goes, not for the total. Writes ``benchmarks/RECSYS_PROFILE.md``.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import pandas as pd
from profile_evaluate import table
from recsys_speed import SIX, make_data

import rankmetrics as rm


def frames(users: int) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    data = make_data(users, 100, 100_000)
    test = pd.DataFrame({"user_id": data["test_user"], "item_id": data["test_item"]})
    recs = pd.DataFrame(
        {"user_id": data["rec_user"], "item_id": data["rec_item"], "score": data["rec_score"]}
    )
    rng = np.random.default_rng(1)
    listed = data["rec_item"].reshape(users, 100)[:, :20].ravel()
    from_list = np.tile(np.arange(20), users) < 5
    seen = pd.DataFrame(
        {
            "user_id": np.repeat(np.arange(users, dtype=np.int32), 20),
            "item_id": np.where(from_list, listed, rng.integers(0, 100_000, users * 20)),
        }
    )
    return test, recs, seen


def profiled(call, top: int) -> tuple[float, str]:
    start = time.perf_counter()
    call()
    seconds = time.perf_counter() - start
    profile = cProfile.Profile()
    profile.runcall(call)
    cumulative = table(pstats.Stats(profile), "cumulative", top)
    own = table(pstats.Stats(profile), "tottime", top // 2)
    return seconds, f"By cumulative time:\n\n{cumulative}\n\nBy own time:\n\n{own}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--top", type=int, default=18)
    parser.add_argument("--out", default=str(HERE / "RECSYS_PROFILE.md"))
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    test, recs, seen = frames(args.users)
    plain, plain_table = profiled(lambda: rm.evaluate(test, recs, SIX), args.top)
    excluded, excluded_table = profiled(lambda: rm.evaluate(test, recs, SIX, exclude=seen), args.top)
    removed = sum(rm.evaluate(test, recs, ["P@10"], exclude=seen).excluded.values())
    text = "\n".join(
        [
            "# Where `evaluate`'s time goes on recommender DataFrames",
            "",
            "Written by `benchmarks/recsys_profile.py` (see its docstring): the data of "
            f"`recsys_speed.py` at {args.users:,} users × top-100 ({len(recs):,} rows, "
            f"{len(test):,} test rows), measures {', '.join(SIX)}. The machine is shared "
            f"(load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after, on "
            f"{os.cpu_count()} cores). Paths are relative to `rankmetrics/`.",
            "",
            f"## `rm.evaluate(test, recs, six)`: {plain:.2f} s",
            "",
            plain_table,
            "",
            f"## The same with `exclude=` ({len(seen):,} seen rows; {removed:,} items removed): {excluded:.2f} s",
            "",
            excluded_table,
            "",
        ]
    )
    print(text)
    if not args.no_write:
        Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
