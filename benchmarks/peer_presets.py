"""Each peer library's per-query values on random data, for the presets' tests.

``rm.evaluate(..., like="ranx")`` (and ``"sklearn"``, ``"torchmetrics"``) claims to
reproduce that library's numbers from conventions alone
(:mod:`rankmetrics.trec.presets`). This script makes the data the claim is tested on
and runs the libraries themselves on it: four seeded random data sets (tie-heavy
binary, graded, graded with -1 judgements, and scores that agree in their first
8 digits, so that float32 ties them), written with every library's per-query values
and version to ``tests/package/data/peer_presets.json``, which
``tests/package/test_presets.py`` reads. Nothing here imports rankmetrics.

How each library is called, as its documentation shows:

- ranx: ``evaluate(Qrels(qrels), Run(run), metrics, return_mean=False)`` over the
  queries both judged and in the run (ranx refuses other queries unless given
  ``make_comparable=True``, which sorts every query's documents a second time and so
  moves tied documents again), the run in the order the data set lists it.
- scikit-learn: ``ndcg_score([grades], [scores], k=k)`` for each query both judged and
  in the run, the grades of the retrieved documents (0 if unjudged); a query of one
  document is left out (scikit-learn refuses it), and so is every query of a data set
  with a negative grade (scikit-learn refuses them; the error is recorded).
- torchmetrics: ``retrieval_normalized_dcg(tensor(scores), tensor(grades), top_k=k)``
  for the same queries, float64 tensors (torchmetrics turns them into float32),
  negative grades included as they are.

Usage, from the repository root, in an environment of its own (torch and numba stay
out of the book's requirements.txt):

    python -m venv /tmp/peer
    /tmp/peer/bin/pip install numpy==2.4.6 ranx==0.3.21 numba==0.68.1 scikit-learn==1.9.1 \
        torchmetrics==1.9.0 torch    # the CPU wheel of torch is enough
    /tmp/peer/bin/python benchmarks/peer_presets.py
"""

from __future__ import annotations

import importlib.metadata
import json
import platform
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "package" / "data" / "peer_presets.json"
SEED = 20261201

# rankmetrics' name -> ranx's name, for every measure the ranx preset reproduces.
RANX_MEASURES = {
    "ndcg@5": "ndcg@5",
    "ndcg@10": "ndcg@10",
    "ndcg": "ndcg",
    "nDCG(dcg=exp-log2)@10": "ndcg_burges@10",
    "p@5": "precision@5",
    "p@10": "precision@10",
    "recall@10": "recall@10",
    "map@10": "map@10",
    "map": "map",
    "mrr@10": "mrr@10",
    "mrr": "mrr",
    "hit_rate@5": "hit_rate@5",
    "r_precision": "r-precision",
}
# rankmetrics' name -> the cutoff given to ndcg_score / retrieval_normalized_dcg (None: all).
NDCG_CUTOFFS = {"ndcg@5": 5, "ndcg@10": 10, "ndcg": None}


def version(distribution: str) -> str:
    return importlib.metadata.version(distribution)


def make_dataset(rng: np.random.Generator, kind: str) -> dict:
    """Queries with 1..40 documents, judged and unjudged ones, some queries only judged or only run."""
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(40):
        qid = f"q{q:02d}"
        n = int(rng.integers(1, 41))
        docs = [f"d{i:03d}" for i in rng.permutation(60)[: n + 5].tolist()]
        retrieved, extra = docs[:n], docs[n:]
        if kind == "tie_heavy":
            scores = rng.integers(0, 4, n) / 4.0  # four values: long runs of ties
            grades = rng.choice([0, 1], size=n + 5, p=[0.6, 0.4])
        elif kind == "graded":
            scores = np.round(rng.normal(size=n), 1)  # one decimal: some ties
            grades = rng.choice([0, 1, 2, 3], size=n + 5, p=[0.5, 0.2, 0.2, 0.1])
        elif kind == "negative_grades":
            scores = rng.integers(0, 6, n) / 5.0
            grades = rng.choice([-1, 0, 1, 2], size=n + 5, p=[0.2, 0.4, 0.25, 0.15])
        else:  # float32_ties: distinct as doubles, tied once rounded to a C float
            scores = 0.123456789 + rng.integers(0, 5, n) * 1e-9 + rng.integers(0, 3, n) * 0.25
            grades = rng.choice([0, 1, 2], size=n + 5, p=[0.5, 0.3, 0.2])
        judged_docs = [d for d, keep in zip(docs, rng.random(n + 5) < 0.7) if keep]
        # A few queries only in the run; a query with no judged document is judged with one grade 0.
        if q % 13 != 5 and (judged_docs or q % 7 == 0):
            qrels[qid] = {d: int(grades[docs.index(d)]) for d in judged_docs} or {extra[0]: 0}
        if q % 11 != 3:  # a few judged queries missing from the run
            run[qid] = {d: float(s) for d, s in zip(retrieved, scores.tolist())}
    return {"qrels": qrels, "run": run}


def ranx_values(data: dict) -> dict[str, dict[str, float]]:
    from ranx import Qrels, Run, evaluate

    qids = sorted(set(data["qrels"]) & set(data["run"]))  # ranx sorts its queries by id
    qrels = Qrels({q: data["qrels"][q] for q in qids})
    run = Run({q: data["run"][q] for q in qids})
    scores = evaluate(qrels, run, list(RANX_MEASURES.values()), return_mean=False)
    out = {}
    for ours, theirs in RANX_MEASURES.items():
        values = np.asarray(scores[theirs], dtype=float).tolist()
        assert len(values) == len(qids)
        out[ours] = dict(zip(qids, values))
    return out


def rows(data: dict):
    """(qid, grades of the retrieved documents, their scores) for each judged query of the run."""
    for qid in sorted(set(data["qrels"]) & set(data["run"])):
        docs = data["run"][qid]
        judged = data["qrels"][qid]
        yield qid, [judged.get(d, 0) for d in docs], list(docs.values())


def sklearn_values(data: dict) -> dict:
    from sklearn.metrics import ndcg_score

    out: dict = {name: {} for name in NDCG_CUTOFFS}
    for qid, grades, scores in rows(data):
        if len(grades) < 2:
            continue
        for name, k in NDCG_CUTOFFS.items():
            try:
                out[name][qid] = float(ndcg_score([grades], [scores], k=k))
            except ValueError as error:
                return {"refused": str(error)}
    return out


def torchmetrics_values(data: dict) -> dict:
    import torch
    from torchmetrics.functional.retrieval import retrieval_normalized_dcg

    out: dict = {name: {} for name in NDCG_CUTOFFS}
    for qid, grades, scores in rows(data):
        preds = torch.tensor(scores, dtype=torch.float64)
        target = torch.tensor(grades, dtype=torch.float64)
        for name, k in NDCG_CUTOFFS.items():
            out[name][qid] = float(retrieval_normalized_dcg(preds, target, top_k=k))
    return out


def main() -> None:
    rng = np.random.default_rng(SEED)
    kinds = ["tie_heavy", "graded", "negative_grades", "float32_ties"]
    datasets = {kind: make_dataset(rng, kind) for kind in kinds}
    record = {
        "seed": SEED,
        "python": platform.python_version(),
        "libraries": {
            "ranx": version("ranx"),
            "numba": version("numba"),
            "scikit-learn": version("scikit-learn"),
            "torchmetrics": version("torchmetrics"),
            "torch": version("torch"),
            "numpy": version("numpy"),
        },
        "calls": {
            "ranx": "ranx.evaluate(Qrels(qrels), Run(run), metrics, return_mean=False), "
            "the queries both judged and in the run",
            "sklearn": "sklearn.metrics.ndcg_score([grades], [scores], k=k), per query",
            "torchmetrics": "retrieval_normalized_dcg(tensor(scores), tensor(grades), top_k=k), per query",
        },
        "ranx_names": RANX_MEASURES,
        "datasets": {},
    }
    for kind, data in datasets.items():
        record["datasets"][kind] = {
            **data,
            "values": {
                "ranx": ranx_values(data),
                "sklearn": sklearn_values(data),
                "torchmetrics": torchmetrics_values(data),
            },
        }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
