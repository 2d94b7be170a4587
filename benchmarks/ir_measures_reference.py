"""Reference values from ir_measures, an implementation independent of rankmetrics.

Writes tests/package/data/ir_measures_reference.json: random judgements and a run
(no tied scores: ir_measures' Judged breaks ties by docno ascending, trec_eval by
docno descending), and ir_measures' per-query value of each measure, which
tests/package/test_ir_measures_names.py compares with rankmetrics.evaluate under the
same names. ERR comes from gdeval.pl (the TREC Web track's script, run by ir_measures
through perl), Judged from ir_measures' own Python code, nDCG(dcg='exp-log2') from ranx
(which needs pandas < 3), RR@k from ir_measures' msmarco code, graded RBP from trectools,
the others from pytrec_eval ("providers" names each form's).

It also records, for every ir_measures measure that rankmetrics reads (SUPPORTED)
and every value tried of each parameter in the measure's SUPPORTED_PARAMS, the name
exactly as ``str(measure)`` writes it (``nDCG(dcg='exp-log2')@10``, ``NumRet(rel=1)``)
with ir_measures' per-query values ("forms"); and ``str(measure)`` of the measures and
parameter values rankmetrics does not read ("refused"), each with the reason, which the
tests check are refused by name.

Run it in a separate environment, not the package's:

    python3 -m venv irm-env && irm-env/bin/pip install ir_measures ranx "pandas<3" trectools
    irm-env/bin/python benchmarks/ir_measures_reference.py
"""

from __future__ import annotations

import itertools
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
# The ir_measures measures rankmetrics reads, and the values tried of each parameter of
# their SUPPORTED_PARAMS that it reads (None: the parameter not given). Bpref and infAP
# are read under trec_eval's names (bpref, infAP), which ir_measures' compute.
CUTOFFS = [None, 1, 5, 10, 20, 100, 1000]
RELS = [None, 1, 2, 3]
SUPPORTED: dict[str, dict[str, list]] = {
    "nDCG": {"cutoff": CUTOFFS, "dcg": [None, "log2", "exp-log2"]},
    "P": {"cutoff": CUTOFFS[1:], "rel": RELS},
    "R": {"cutoff": CUTOFFS[1:], "rel": RELS},
    "AP": {"cutoff": CUTOFFS, "rel": RELS},
    "RR": {"cutoff": CUTOFFS, "rel": RELS},
    "Success": {"cutoff": CUTOFFS[1:], "rel": RELS},
    "Rprec": {"rel": RELS},
    "RBP": {"p": [None, 0.5, 0.8, 0.95]},
    "ERR": {"cutoff": [5, 10, 20]},
    "Judged": {"cutoff": CUTOFFS},
    "NumRet": {"rel": RELS},  # NumRet(rel=r) is ir_measures' NumRelRet at level r
    "NumRel": {"rel": RELS},
    "Bpref": {},
    "infAP": {},
}
# Parameter values of those measures that rankmetrics does not read, with why.
REFUSED_PARAMETERS: dict[str, dict[str, tuple[list, str]]] = {
    "nDCG": {
        "judged_only": ([True], "judged_only"),
        "gains": ([{0: 0, 1: 1, 2: 3}], "gains"),
    },
    "P": {"judged_only": ([True], "judged_only"), "cutoff": ([None], "needs a cutoff")},
    "R": {"judged_only": ([True], "judged_only"), "cutoff": ([None], "needs a cutoff")},
    "AP": {"judged_only": ([True], "judged_only")},
    "RR": {"judged_only": ([True], "judged_only")},
    "Success": {"judged_only": ([True], "judged_only"), "cutoff": ([None], "needs a cutoff")},
    "Rprec": {"judged_only": ([True], "judged_only")},
    "RBP": {"rel": ([1, 2], "rel"), "cutoff": ([10], "cutoff"), "p": ([1.5], "p")},
    "Bpref": {"rel": ([2], "rel")},
    "infAP": {"rel": ([2], "rel")},
}
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


def variants(name: str, values: dict[str, list]) -> list:
    """One measure per combination of the values tried (None: that parameter left out)."""
    base = ir_measures.measures.registry[name]
    keys = list(values)
    found = []
    for combination in itertools.product(*(values[k] for k in keys)) if keys else [()]:
        given = {k: v for k, v in zip(keys, combination) if v is not None}
        found.append(base(**given) if given else base)
    return found


def per_query(measure, qrels: dict, run: dict) -> tuple[dict[str, float] | None, str]:
    """ir_measures' values of one measure, and the provider that computed them.

    ir_measures' default pipeline, as ``ir_measures.iter_calc`` runs it; for a measure
    it has no provider for, the first installed provider that supports it (the default
    pipeline leaves out trectools, the only provider of graded RBP). None when no
    provider computes it (NumRel(rel=2): pytrec_eval's num_rel has no level).
    """
    for provider in ir_measures.DefaultPipeline.providers:
        if provider.supports(measure) and provider.is_available():
            values = {m.query_id: float(m.value) for m in provider.iter_calc([measure], qrels, run)}
            return values, provider.NAME
    for provider in ir_measures.providers.registry.values():
        if provider.supports(measure) and provider.is_available():
            values = {m.query_id: float(m.value) for m in provider.iter_calc([measure], qrels, run)}
            return values, provider.NAME
    return None, ""


def main() -> None:
    qrels, run = make_data()
    measures = {ir_measures.parse_measure(name): name for name in MEASURES}  # NumRelRet is NumRet(rel=)
    values: dict[str, dict[str, float]] = {name: {} for name in MEASURES}
    for metric in ir_measures.iter_calc(list(measures), qrels, run):
        values[measures[metric.measure]][metric.query_id] = float(metric.value)
    missing = [name for name in MEASURES if not values[name]]
    if missing:
        raise SystemExit(f"ir_measures gave no values for {missing}; names read as {measures}")
    forms: dict[str, dict[str, float]] = {}
    providers: dict[str, str] = {}
    uncomputed: list[str] = []
    for name, tried in SUPPORTED.items():
        for measure in variants(name, tried):
            got, provider = per_query(measure, qrels, run)
            if got is None:
                uncomputed.append(str(measure))
                continue
            forms[str(measure)], providers[str(measure)] = got, provider
            if len(forms[str(measure)]) != len(qrels):
                raise SystemExit(f"ir_measures gave {len(forms[str(measure)])} values for {measure}")
    refused: dict[str, str] = {}
    for name, parameters in REFUSED_PARAMETERS.items():
        for key, (tried, reason) in parameters.items():
            for value in tried:
                others = {"cutoff": 10} if key != "cutoff" and "cutoff" in SUPPORTED[name] else {}
                if name in ("P", "R", "Success") and key == "cutoff":
                    measure = ir_measures.measures.registry[name]
                else:
                    measure = ir_measures.measures.registry[name](**{key: value})
                    if others:
                        measure = measure @ others["cutoff"]
                refused[str(measure)] = reason
    # Every other measure of ir_measures: str(measure) bare, and with a cutoff where it takes one.
    for name, measure in sorted(ir_measures.measures.registry.items()):
        if str(measure).partition("(")[0] in SUPPORTED or name != str(measure):
            continue  # read above, or an alias (MAP, NDCG, ...) that str() never writes
        refused[str(measure)] = "not read"
        if "cutoff" in measure.SUPPORTED_PARAMS:
            refused[str(measure @ 10)] = "not read"
        if "recall" in measure.SUPPORTED_PARAMS:
            refused[str(measure(recall=0.5))] = "not read"
    data = {
        "source": ", ".join(
            f"{package} {version(package)}"
            for package in ("ir_measures", "pytrec_eval-terrier", "ranx", "trectools")
        ),
        "script": "benchmarks/ir_measures_reference.py",
        "qrels": qrels,
        "run": run,
        "values": values,
        "forms": forms,
        "providers": providers,
        "uncomputed": uncomputed,
        "refused": refused,
    }
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(
        f"wrote {OUT.name}: {len(MEASURES)} named measures and {len(forms)} str(measure) forms "
        f"x {len(qrels)} queries; {len(refused)} forms refused; no provider for {uncomputed}"
    )


if __name__ == "__main__":
    main()
