"""Shared pieces of benchmarks/recsys_library_values.py: cutoffs, the lists, and how a value is recorded."""

from __future__ import annotations

import math
import sys
import traceback
from collections.abc import Callable

KS = {"seed_list": [1, 2, 3, 4, 5, 10], "random": [1, 3, 5, 10]}
PROBE_KS = {"tie_probe": [2, 4]}  # only for Evidently's tie probe
FAMILIES = ["P", "R", "HR", "MRR@", "MAP", "nDCG"]


def ranked(data: dict, user: str) -> list[str]:
    """The user's list in its given order (score descending, ties by item id)."""
    return [item for item, _ in data["recommendations"][user]]


def relevant(data: dict, user: str) -> set[str]:
    return {item for item, grade in data["test"].get(user, {}).items() if grade > 0}


def measures(dataset: str) -> list[tuple[str, str, int]]:
    """(name, family, k) for every measure recorded on the data set."""
    out = []
    for k in {**KS, **PROBE_KS}[dataset]:
        for family in FAMILIES:
            name = f"MRR@{k}" if family == "MRR@" else f"{family}@{k}"
            out.append((name, family, k))
    return out


def clean(value):
    """A JSON-safe number rounded to 12 significant digits; NaN becomes None."""
    if value is None:
        return None
    value = float(value)
    if math.isnan(value):
        return None
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return float(f"{value:.12g}")


def failure(error: BaseException) -> dict:
    return {"error": f"{type(error).__name__}: {error}"}


def plain_mean(per_user: dict) -> float | None:
    found = [v for v in per_user.values() if isinstance(v, float)]
    return clean(sum(found) / len(found)) if found else None


def entry(per_user: dict, mean=None, mean_call: str | None = None) -> dict:
    per_user = {u: (v if isinstance(v, dict) else clean(v)) for u, v in per_user.items()}
    if mean_call is None:
        return {
            "per_user": per_user,
            "mean": plain_mean(per_user),
            "mean_call": "plain mean of the per-user values (the script's, not the library's)",
        }
    return {
        "per_user": per_user,
        "mean": mean if isinstance(mean, dict) else clean(mean),
        "mean_call": mean_call,
    }


def guarded(run: Callable[[], dict]) -> dict:
    try:
        return run()
    except Exception as error:  # noqa: BLE001 # a library's crash is a recorded result, not a failure of the script
        traceback.print_exc(file=sys.stderr)
        return failure(error)


def torch_probe(data: dict) -> dict:
    """The order torch.topk and torch.argsort give six scores with ties (RecBole and torchmetrics use them)."""
    import torch

    scores = torch.tensor([0.5, 1.0, 0.5, 0.5, 1.0, 0.5], dtype=torch.float64)
    return {
        "scores": scores.tolist(),
        "torch.topk(scores, 6).indices": torch.topk(scores, 6).indices.tolist(),
        "torch.argsort(scores, descending=True)": torch.argsort(scores, descending=True).tolist(),
    }
