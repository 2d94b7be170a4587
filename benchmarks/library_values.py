"""Run the libraries of the chapter "라이브러리마다 값이 다른 이유" on its toy query.

The chapter (book/09_library_differences.ipynb) shows what each evaluation library
returns for one small query. Those values used to be typed into the notebook; this
script computes them by calling each library and writes them, with every library's
version, to ``book/data/library_values.json``, which the chapter reads.

The toy query: the system returned d1, d2, d3, d4, d5 in that order; the judgements
are d1:3, d3:3, d4:2 and d6:1 (d6 was judged but never returned).

Each value is stored under one of the chapter's seven keys with the library call that
produced it. A library that cannot be imported is recorded with the reason, and the
chapter says so; the script never invents a value for it.

Usage, from the repository root (a separate environment, as for benchmarks/run.py):

    python -m venv /tmp/bench
    /tmp/bench/bin/pip install -r benchmarks/requirements-bench.txt ir_measures torchmetrics
    (torchmetrics pulls torch, a large download; gdeval needs perl on the PATH)
    /tmp/bench/bin/python benchmarks/library_values.py
"""

from __future__ import annotations

import importlib.metadata
import json
import platform
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "book" / "data" / "library_values.json"

RANKING = ["d1", "d2", "d3", "d4", "d5"]
JUDGED = {"d1": 3, "d3": 3, "d4": 2, "d6": 1}
K = 5

# The library's scores: only the order matters, so rank 1 gets the highest score.
RUN = {doc: float(len(RANKING) - i) for i, doc in enumerate(RANKING)}
GRADES = [JUDGED.get(doc, 0) for doc in RANKING]  # 3, 0, 3, 2, 0

KEYS = {
    "ndcg5_trec": "nDCG@5, linear gain, ideal ranking from every judged document",
    "ndcg5_listed": "nDCG@5, linear gain, ideal ranking from the five returned items only",
    "ndcg5_binary": "nDCG@5, binary gain, ideal ranking from every judged document",
    "ndcg5_exponential": "nDCG@5, exponential gain 2^r - 1, ideal ranking from every judged document",
    "ap_all_relevant": "AP divided by every judged relevant document (4)",
    "ap_in_row": "AP divided by the relevant items in the row passed (3)",
    "ap_full_list": "AP of the full list with d6 appended at rank 6",
}


def version(distribution: str) -> str:
    return importlib.metadata.version(distribution)


def pytrec_eval_values() -> dict[str, tuple[float, str]]:
    import pytrec_eval

    evaluator = pytrec_eval.RelevanceEvaluator({"q": JUDGED}, {"ndcg_cut.5", "map"})
    scores = evaluator.evaluate({"q": RUN})["q"]
    return {
        "ndcg5_trec": (scores["ndcg_cut_5"], "RelevanceEvaluator(qrels, {'ndcg_cut.5'}) -> ndcg_cut_5"),
        "ap_all_relevant": (scores["map"], "RelevanceEvaluator(qrels, {'map'}) -> map"),
    }


def ir_measures_values() -> dict[str, tuple[float, str]]:
    import ir_measures
    from ir_measures import AP, nDCG

    qrels, run = _ir_measures_data()
    measures = {
        "ndcg5_trec": nDCG @ K,
        "ndcg5_binary": nDCG(gains={0: 0, 1: 1, 2: 1, 3: 1}) @ K,  # every grade above 0 gains 1
        "ap_all_relevant": AP,
    }
    found = ir_measures.calc_aggregate(list(measures.values()), qrels, run)
    return {
        key: (found[measure], f"ir_measures.calc_aggregate([{measure}], ...)")
        for key, measure in measures.items()
    }


def _ir_measures_data() -> tuple[list, list]:
    import ir_measures

    # Query id "1", not "q": gdeval.pl reads topic ids as numbers and rejects "q".
    qrels = [ir_measures.Qrel("1", doc, grade) for doc, grade in JUDGED.items()]
    run = [ir_measures.ScoredDoc("1", doc, score) for doc, score in RUN.items()]
    return qrels, run


def gdeval_values() -> dict[str, tuple[float, str]]:
    """gdeval.pl (the TREC Web track's nDCG), run through the copy bundled with ir_measures; needs perl."""
    import ir_measures
    from ir_measures import nDCG

    qrels, run = _ir_measures_data()
    measure = nDCG(dcg="exp-log2") @ K
    found = ir_measures.gdeval.calc_aggregate([measure], qrels, run)
    return {"ndcg5_exponential": (found[measure], f"ir_measures.gdeval.calc_aggregate([{measure}], ...)")}


def ranx_values() -> dict[str, tuple[float, str]]:
    from ranx import Qrels, Run, evaluate

    qrels = Qrels({"q": dict(JUDGED)})
    run = Run({"q": dict(RUN)})
    names = {"ndcg5_trec": "ndcg@5", "ndcg5_exponential": "ndcg_burges@5", "ap_all_relevant": "map"}
    found = evaluate(qrels, run, list(names.values()))
    return {key: (float(found[name]), f"ranx.evaluate(qrels, run, '{name}')") for key, name in names.items()}


def sklearn_values() -> dict[str, tuple[float, str]]:
    from sklearn.metrics import average_precision_score, ndcg_score

    scores = [RUN[doc] for doc in RANKING]
    binary = [int(g > 0) for g in GRADES]
    return {
        "ndcg5_listed": (
            float(ndcg_score([GRADES], [scores], k=K)),
            "ndcg_score([grades of the five returned], [scores], k=5)",
        ),
        "ap_in_row": (
            float(average_precision_score(binary, scores)),
            "average_precision_score(binary labels of the five returned, scores)",
        ),
        "ndcg5_trec": (
            float(ndcg_score([GRADES + [JUDGED["d6"]]], [scores + [0.0]], k=K)),
            "ndcg_score with d6 appended to the row at the lowest score, k=5",
        ),
        "ap_full_list": (
            float(average_precision_score(binary + [1], scores + [0.0])),
            "average_precision_score with d6 appended to the row at the lowest score",
        ),
    }


def torchmetrics_values() -> dict[str, tuple[float, str]]:
    import torch
    from torchmetrics.functional.retrieval import retrieval_average_precision, retrieval_normalized_dcg

    scores = torch.tensor([RUN[doc] for doc in RANKING])
    target = torch.tensor(GRADES)
    with_d6 = torch.tensor([*scores.tolist(), 0.0])
    binary_d6 = torch.tensor([int(g > 0) for g in GRADES] + [1])
    return {
        "ndcg5_listed": (
            float(retrieval_normalized_dcg(scores, target, top_k=K)),
            "retrieval_normalized_dcg(scores, grades of the five returned, top_k=5)",
        ),
        "ndcg5_binary": (
            float(retrieval_normalized_dcg(with_d6, binary_d6, top_k=K)),
            "retrieval_normalized_dcg with 0/1 targets and d6 appended at the lowest score, top_k=5",
        ),
        "ap_in_row": (
            float(retrieval_average_precision(scores, target > 0)),
            "retrieval_average_precision(scores, relevant of the five returned)",
        ),
    }


def torch_runtime() -> dict[str, tuple[float, str]]:
    """No values of its own: recorded so that the JSON names the torch under torchmetrics."""
    import torch  # noqa: F401

    return {}


LIBRARIES: dict[str, tuple[str, Callable[[], dict[str, tuple[float, str]]]]] = {
    "pytrec_eval": ("pytrec-eval-terrier", pytrec_eval_values),
    "ir_measures": ("ir_measures", ir_measures_values),
    "gdeval": ("ir_measures", gdeval_values),
    "ranx": ("ranx", ranx_values),
    "scikit-learn": ("scikit-learn", sklearn_values),
    "torchmetrics": ("torchmetrics", torchmetrics_values),
    "torch": ("torch", torch_runtime),
}


def main() -> None:
    libraries, values = {}, {key: {"meaning": meaning, "results": []} for key, meaning in KEYS.items()}
    for name, (distribution, run) in LIBRARIES.items():
        try:
            found = run()
        except (ImportError, OSError) as error:
            libraries[name] = {"installed": False, "reason": f"could not be imported: {error}"}
            print(f"{name}: not installed ({error})", file=sys.stderr)
            continue
        libraries[name] = {"installed": True, "version": version(distribution)}
        if name == "gdeval":  # gdeval.pl has no version of its own: name the package that ships it
            libraries[name] = {
                "installed": True,
                "version": f"(ir_measures {version(distribution)})",
                "note": "gdeval.pl as bundled with ir_measures, run with perl; prints 5 decimals",
            }
        for key, (value, call) in found.items():
            values[key]["results"].append({"library": name, "value": float(value), "call": call})
    for key, entry in values.items():
        found = [r["value"] for r in entry["results"]]
        # gdeval prints five decimals, every other library full precision: agree to 1e-5.
        if found and max(found) - min(found) > 1e-5:
            raise SystemExit(f"{key}: the libraries disagree: {entry['results']}")
        precise = [r["value"] for r in entry["results"] if r["library"] != "gdeval"] or found
        entry["value"] = precise[0] if precise else None
    record = {
        "query": {"ranking": RANKING, "judged": JUDGED, "k": K},
        "python": platform.python_version(),
        "libraries": libraries,
        "values": values,
    }
    OUT.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
