"""Ten recommender libraries' own metric values, recorded for the ``like=`` presets.

Issue 31 asks for presets (``like="recbole"``, ``"recommenders"``, ``"lenskit"``,
``"cornac"``, ``"implicit"``, ``"rectools"``, ``"replay"``, ``"evidently"``,
``"daisyrec"``, ``"torchmetrics"``) that reproduce each library's per-user values and its
mean. This script is the proof: it calls each real library's own metric code (no model is
trained) on three fixed data sets and writes what the library returned, or the exception
it raised, to ``tests/package/data/recsys_library_values.json``. Nothing here imports
rankmetrics, and no value is typed by hand.

The data sets (made here, seeded, and written into the JSON beside the values):

- ``seed_list``: one user ``u1``, recommendations A, B, C, D, E (scores 5 … 1), relevant
  {B, D, F, G}; k = 1 … 5 and 10.
- ``random``: 30 users × 20 items, k = 1, 3, 5 and 10. Scores in steps of 0.2 (many
  ties); graded test relevance 1 … 3; users with no test item; users with no
  recommendation; lists of three items (shorter than k); items the user saw in training
  (``seen``), some of them recommended (a seen item is never a test item).
- ``toy``: the beyond-accuracy toy of issue 31 §4 (catalogue a–f, training counts a 50,
  b 30, c 10, d 5, e 4, f 1; lists u1 = [a, b, c], u2 = [a, b, d], u3 = [a, c, e]).

The calls to each library are in ``recsys_calls_np1.py`` and ``recsys_calls_np2.py`` (one
module per side environment), the shared recording helpers in ``recsys_record.py``.

A recommendation list is given as ``[[item, score], …]`` in its *given order*: score
descending, equal scores by item id ascending. A library that takes a ranked list gets
that order; a library that takes scores gets the scores and sorts them itself, and its
``tie_order`` says how (``tie_probe`` records the order it produced on tied scores).

JSON layout (stable; the presets' tests read it):

    {"seed": int, "ks": {dataset: [k, …]},
     "datasets": {"seed_list" | "random": {"users": [...], "items": [...],
                                           "test": {user: {item: grade}},
                                           "recommendations": {user: [[item, score], ...]},
                                           "seen": {user: [item, ...]}},
                  "toy": {"catalog": [...], "counts": {item: n}, "lists": {user: [...]}}},
     "libraries": {name: {"installed": bool, "reason": str (if not installed),
                          "distribution": str, "version": str, "python": str, "numpy": str,
                          "environment": "np1" | "np2",
                          "calls": {measure family: the library call},
                          "user_set": str, "tie_order": str, "seen_items": str,
                          "tie_probe": {...},
                          "values": {dataset: {measure: {"per_user": {user: value},
                                                         "mean": value, "mean_call": str,
                                                         "mean_matches": [user set, ...]}
                                               | {"error": "Type: message"}}},
                          "beyond": {measure: value | {"error": ...}}}}}

Measure names: ``P@k``, ``R@k``, ``HR@k``, ``MRR@k``, ``MRR`` (no cutoff), ``MAP@k``,
``nDCG@k``. A per-user value is a number, ``null`` where the library returned NaN, or
``{"error": "Type: message"}`` where it raised. Where the library gives per-user values
itself, ``per_user`` holds the users it returned; where it only gives a mean (Recommenders,
implicit), ``per_user`` is the same function called on one user's rows at a time.
``mean`` is the library's own summary over its own user set where it has one
(``mean_call`` names it), else the plain mean of the per-user values (``mean_call`` says
so). ``mean_matches`` names the user sets (``with_test``: users with a relevant test item;
``with_recommendations``; ``with_both``; ``with_either``; ``all``; with ", NaN left out"
or ", NaN as 0" where some of them got NaN) over which the plain mean of ``per_user``
equals ``mean`` to 1e-6 (float32 in torchmetrics): the library's user set, measured.
Numbers are rounded to 12 significant digits.

Usage, from the repository root. The libraries need two environments: RecBole, DaisyRec,
RecTools and Recommenders' evaluation module need numpy < 2; LensKit, Cornac, implicit,
RePlay, Evidently and torchmetrics run on numpy 2. Each run adds the libraries its
environment can import to the JSON and keeps the others' entries:

    python3.11 -m venv /tmp/recsys-np1
    /tmp/recsys-np1/bin/pip install -r benchmarks/requirements-recsys-np1.txt
    /tmp/recsys-np1/bin/pip install --no-deps recommenders==1.2.1 recbole==1.2.1 daisyrec==2.3.0
    /tmp/recsys-np1/bin/python benchmarks/recsys_library_values.py

    python3.12 -m venv /tmp/recsys-np2
    /tmp/recsys-np2/bin/pip install -r benchmarks/requirements-recsys-np2.txt
    /tmp/recsys-np2/bin/python benchmarks/recsys_library_values.py

(torch from PyPI pulls its CUDA libraries, a few GB; the metrics run on the CPU.)
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import platform
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

# One module of calls for each side environment; each imports its libraries only when called.
from recsys_calls_np1 import (
    DAISYREC,
    RECBOLE,
    RECOMMENDERS,
    RECTOOLS,
    daisyrec_beyond,
    daisyrec_values,
    recbole_beyond,
    recbole_values,
    recommenders_beyond,
    recommenders_probe,
    recommenders_values,
    rectools_values,
)
from recsys_calls_np2 import (
    CORNAC,
    EVIDENTLY,
    IMPLICIT,
    LENSKIT,
    REPLAY,
    TORCHMETRICS,
    cornac_values,
    evidently_probe,
    evidently_values,
    implicit_probe,
    implicit_values,
    lenskit_values,
    replay_beyond,
    replay_probe,
    replay_values,
    torchmetrics_values,
)
from recsys_record import KS, guarded, relevant, torch_probe

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "package" / "data" / "recsys_library_values.json"
SEED = 20261204


# ---------------------------------------------------------------- data sets


def seed_list() -> dict:
    items = ["A", "B", "C", "D", "E", "F", "G"]
    recs = [[item, float(5 - i)] for i, item in enumerate("ABCDE")]
    return {
        "users": ["u1"],
        "items": items,
        "test": {"u1": {"B": 1, "D": 1, "F": 1, "G": 1}},
        "recommendations": {"u1": recs},
        "seen": {"u1": []},
    }


def random_data(seed: int = SEED) -> dict:
    """30 users × 20 items with ties, grades, empty users, short lists and seen items."""
    rng = np.random.default_rng(seed)
    items = [f"i{j:02d}" for j in range(20)]
    users = [f"u{u:02d}" for u in range(30)]
    test, recs, seen = {}, {}, {}
    for u, user in enumerate(users):
        order = rng.permutation(20).tolist()
        n_seen = int(rng.integers(0, 4))
        seen[user] = sorted(items[j] for j in order[:n_seen])
        rest = order[n_seen:]
        grades = rng.choice([0, 1, 2, 3], size=len(rest), p=[0.7, 0.15, 0.1, 0.05]).tolist()
        if u % 7 == 3:  # users with no test item
            grades = [0] * len(rest)
        if u % 11 == 5 and not any(grades):  # and one with a single grade-1 item at least
            grades[0] = 1
        test[user] = {items[j]: int(g) for j, g in zip(rest, grades) if g > 0}
        if u % 10 == 7:  # users with no recommendation
            recs[user] = []
            continue
        length = 3 if u % 9 == 4 else int(rng.integers(8, 15))  # lists shorter than k
        listed = rng.permutation(20)[:length].tolist()  # may hold seen items
        scores = (rng.integers(0, 6, size=length) / 5.0).tolist()  # six values: ties
        pairs = sorted(((items[j], round(s, 1)) for j, s in zip(listed, scores)), key=lambda p: (-p[1], p[0]))
        recs[user] = [[item, score] for item, score in pairs]
    return {"users": users, "items": items, "test": test, "recommendations": recs, "seen": seen}


def toy_data() -> dict:
    return {
        "catalog": list("abcdef"),
        "counts": {"a": 50, "b": 30, "c": 10, "d": 5, "e": 4, "f": 1},
        "lists": {"u1": ["a", "b", "c"], "u2": ["a", "b", "d"], "u3": ["a", "c", "e"]},
        "genres": {
            "a": ["action"],
            "b": ["action", "comedy"],
            "c": ["drama"],
            "d": ["comedy"],
            "e": ["drama", "romance"],
        },
    }


def datasets() -> dict:
    return {"seed_list": seed_list(), "random": random_data(), "toy": toy_data()}


# ---------------------------------------------------------------- running and merging

# name -> (import name, about, values function, beyond-accuracy function or None, tie probe or None)
LIBRARIES: dict[str, tuple[str, dict, Callable, Callable | None, Callable | None]] = {
    "torchmetrics": ("torchmetrics", TORCHMETRICS, torchmetrics_values, None, torch_probe),
    "recbole": ("recbole.evaluator.metrics", RECBOLE, recbole_values, recbole_beyond, torch_probe),
    "daisyrec": ("daisy.utils.metrics", DAISYREC, daisyrec_values, daisyrec_beyond, None),
    "cornac": ("cornac.metrics", CORNAC, cornac_values, None, None),
    "evidently": ("evidently.legacy.metrics", EVIDENTLY, evidently_values, None, evidently_probe),
    "implicit": ("implicit.evaluation", IMPLICIT, implicit_values, None, implicit_probe),
    "lenskit": ("lenskit.metrics", LENSKIT, lenskit_values, None, None),
    "rectools": ("rectools.metrics", RECTOOLS, rectools_values, None, None),
    "replay": ("replay.metrics", REPLAY, replay_values, replay_beyond, replay_probe),
    "recommenders": (
        "recommenders.evaluation.python_evaluation",
        RECOMMENDERS,
        recommenders_values,
        recommenders_beyond,
        recommenders_probe,
    ),
}


USER_SETS = {
    "with_test": lambda data, u: bool(relevant(data, u)),
    "with_recommendations": lambda data, u: bool(data["recommendations"][u]),
    "with_both": lambda data, u: bool(relevant(data, u)) and bool(data["recommendations"][u]),
    "with_either": lambda data, u: bool(relevant(data, u)) or bool(data["recommendations"][u]),
    "all": lambda data, u: True,
}


def mean_matches(found: dict, data: dict) -> None:
    """Name the user sets whose plain mean of the per-user values equals the library's mean."""
    for value in found.values():
        if not isinstance(value, dict) or "per_user" not in value:
            continue
        per_user, matches = value["per_user"], []
        value["mean_matches"] = matches
        if not isinstance(value["mean"], float):
            continue
        for set_name, member in USER_SETS.items():
            numbers = [per_user.get(u, "absent") for u in data["users"] if member(data, u)]
            if not numbers or any(not (v is None or isinstance(v, float)) for v in numbers):
                continue  # a user without a value or with an error: this set cannot be the one
            variants = {set_name: [v for v in numbers if v is not None]}
            if None in numbers:  # NaN users: left out, or counted as 0 (LensKit's default)
                variants = {
                    f"{set_name}, NaN left out": variants[set_name],
                    f"{set_name}, NaN as 0": [0.0 if v is None else v for v in numbers],
                }
            for label, values in variants.items():
                if (
                    values and abs(sum(values) / len(values) - value["mean"]) < 1e-6
                ):  # torchmetrics computes in float32
                    matches.append(label)


def run_library(name: str, data: dict) -> dict:
    module, about, values, beyond, probe = LIBRARIES[name]
    try:
        version = importlib.metadata.version(
            about["distribution"]
        )  # not a fork of the same module (pm-implicit)
        __import__(module)
    except Exception as error:  # noqa: BLE001 # ImportError, or a library that breaks on this numpy
        return {"installed": False, "reason": f"{type(error).__name__}: {error}"}
    record = {
        "installed": True,
        **about,
        "version": version,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "environment": "np1" if np.__version__.startswith("1.") else "np2",
        "values": {ds: guarded(lambda ds=ds: values(data[ds], ds)) for ds in KS},
    }
    for ds in KS:
        mean_matches(record["values"][ds], data[ds])
    if beyond is not None:
        record["beyond"] = guarded(lambda: beyond(data["toy"]))
    if probe is not None:
        record["tie_probe"] = guarded(lambda: probe(data))
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated library names (default: every one importable here)")
    args = parser.parse_args()
    data = datasets()
    record = {"seed": SEED, "ks": KS, "datasets": data, "libraries": {}}
    if OUT.exists():
        old = json.loads(OUT.read_text(encoding="utf-8"))
        if old["datasets"] != json.loads(json.dumps(data)):
            raise SystemExit("the data sets differ from the recorded ones (another numpy stream?)")
        record["libraries"] = old["libraries"]
    names = args.only.split(",") if args.only else list(LIBRARIES)
    for name in names:
        found = run_library(name, data)
        if found["installed"] or name not in record["libraries"]:
            record["libraries"][name] = found  # an entry from the other environment is kept
        print(f"{name}: {found.get('version', found.get('reason'))}", file=sys.stderr)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
