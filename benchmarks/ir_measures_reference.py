"""Reference values from ir_measures, an implementation independent of rankmetrics.

Writes tests/package/data/ir_measures_reference.json: random judgements and a run
(no tied scores: ir_measures' Judged breaks ties by docno ascending, trec_eval by
docno descending), and ir_measures' per-query value of each measure, which
tests/package/test_ir_measures_names.py compares with rankmetrics.evaluate under the
same names. ERR comes from gdeval.pl (the TREC Web track's script, run by ir_measures
through perl), Judged from ir_measures' own Python code, the others from pytrec_eval.

Run it in a separate environment, not the package's:

    python3 -m venv irm-env && irm-env/bin/pip install ir_measures
    irm-env/bin/python benchmarks/ir_measures_reference.py
"""

from __future__ import annotations

import json
import random
from importlib.metadata import version
from pathlib import Path

import ir_measures

MEASURES = [
    "ERR@5",
    "ERR@10",
    "ERR@20",
    "Judged@5",
    "Judged@10",
    "Judged@100",
    "nDCG@10",
    "nDCG",
    "P@5",
    "P(rel=2)@5",
    "R@100",
    "R(rel=2)@1000",
    "AP",
    "AP(rel=2)",
    "AP@10",
    "RR",
    "RR(rel=3)",
    "Success@10",
    "Rprec",
    "NumRelRet(rel=2)",
]
OUT = Path(__file__).resolve().parent.parent / "tests" / "package" / "data" / "ir_measures_reference.json"


def make_data(seed: int = 14) -> tuple[dict, dict]:
    rng = random.Random(seed)
    qrels, run = {}, {}
    for q in range(1, 31):
        qid = str(100 + q)  # gdeval.pl wants numeric topics
        pool = [f"doc{q}_{i:03d}" for i in range(60)]
        judged = rng.sample(pool, rng.randint(5, 40))
        qrels[qid] = {d: rng.choice([0, 0, 0, 1, 1, 2, 3, 4]) for d in judged}
        qrels[qid][judged[0]] = rng.randint(1, 4)  # every query has a relevant document
        shown = rng.sample(pool, rng.choice([3, 8, 25, 60]))  # some lists shorter than the cutoffs
        scores = rng.sample(range(1, 10_000), len(shown))  # distinct, exact in a 32-bit float
        run[qid] = {d: s / 100 for d, s in zip(shown, scores)}
    return qrels, run


def main() -> None:
    qrels, run = make_data()
    measures = {ir_measures.parse_measure(name): name for name in MEASURES}  # NumRelRet is NumRet(rel=)
    values: dict[str, dict[str, float]] = {name: {} for name in MEASURES}
    for metric in ir_measures.iter_calc(list(measures), qrels, run):
        values[measures[metric.measure]][metric.query_id] = float(metric.value)
    missing = [name for name in MEASURES if not values[name]]
    if missing:
        raise SystemExit(f"ir_measures gave no values for {missing}; names read as {measures}")
    data = {
        "source": "ir_measures "
        + version("ir_measures")
        + ", pytrec_eval-terrier "
        + version("pytrec_eval-terrier"),
        "script": "benchmarks/ir_measures_reference.py",
        "qrels": qrels,
        "run": run,
        "values": values,
    }
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT.name}: {len(MEASURES)} measures x {len(qrels)} queries")


if __name__ == "__main__":
    main()
