"""Each library's preset against the library's own per-query values.

The values were computed by the libraries themselves, in an environment of their own,
by ``benchmarks/peer_presets.py`` (ranx, scikit-learn, torchmetrics, on four random
data sets it writes alongside) and ``benchmarks/spark_mllib_values.py`` (Spark MLlib,
``book/data/spark_mllib_values.json``). A preset is conventions only: no library is
imported here.
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import pytest

import rankmetrics as rm
from rankmetrics.trec.conventions import Conventions
from rankmetrics.trec.presets import PRESETS, LibraryPreset, find

ROOT = Path(__file__).resolve().parents[2]
PEERS = json.loads((Path(__file__).parent / "data" / "peer_presets.json").read_text(encoding="utf-8"))
SPARK = json.loads((ROOT / "book" / "data" / "spark_mllib_values.json").read_text(encoding="utf-8"))
DATASETS = sorted(PEERS["datasets"])
LIBRARIES = ["ranx", "sklearn", "torchmetrics"]


def evaluate(qrels, run, metrics, **options):
    with warnings.catch_warnings():  # judged queries missing from the run are skipped, with a warning
        warnings.simplefilter("ignore", UserWarning)
        return rm.evaluate(qrels, run, metrics, **options)


def negative_listed(data: dict, qid: str) -> bool:
    """Whether a document the run returns for the query is judged with a negative grade."""
    judged = data["qrels"][qid]
    return any(judged.get(doc, 0) < 0 for doc in data["run"][qid])


@pytest.mark.parametrize("dataset", DATASETS)
@pytest.mark.parametrize("library", LIBRARIES)
def test_preset_reproduces_every_per_query_value(library, dataset):
    data = PEERS["datasets"][dataset]
    theirs = data["values"][library]
    preset = PRESETS[library]
    if "refused" in theirs:  # scikit-learn refuses the data set with -1 grades
        assert library == "sklearn" and dataset == "negative_grades"
        assert "negative" in theirs["refused"]
        return
    ours = evaluate(data["qrels"], data["run"], list(theirs), like=library)
    compared = 0
    for name, values in theirs.items():
        assert set(values) <= set(ours.queries)
        for qid, value in values.items():
            if library == "torchmetrics" and negative_listed(data, qid):
                continue  # torchmetrics keeps a -1 as a negative gain; see the next test
            here = ours.value(name, qid)
            assert math.isclose(here, value, rel_tol=0, abs_tol=preset.tolerance), (name, qid, here, value)
            compared += 1
    assert compared >= 6  # (torchmetrics on the -1 data set: the few queries without a -1 listed)


def test_ranx_values_are_reproduced_exactly_tie_order_included():
    # ranx's documents tied in score are placed by numba's quicksort, as the preset places them;
    # the values then agree to the last bit or two (numba sums in another order).
    mismatched = []
    for dataset in DATASETS:
        data = PEERS["datasets"][dataset]
        theirs = data["values"]["ranx"]
        ours = evaluate(data["qrels"], data["run"], list(theirs), like="ranx")
        mismatched += [
            (dataset, name, qid)
            for name, values in theirs.items()
            for qid, value in values.items()
            if abs(ours.value(name, qid) - value) > PRESETS["ranx"].tolerance
        ]
    assert mismatched == []
    # ... and a stable sort (ties in the run's order) would not do: the tie rule matters here.
    data = PEERS["datasets"]["tie_heavy"]
    stable = evaluate(data["qrels"], data["run"], "ndcg@10", like="ranx", ties="input_order")
    values = data["values"]["ranx"]["ndcg@10"]
    assert any(abs(stable.value("ndcg@10", qid) - value) > 1e-3 for qid, value in values.items())


def test_sklearn_skips_single_document_queries_and_the_preset_scores_them():
    data = PEERS["datasets"]["tie_heavy"]
    scored = set(data["values"]["sklearn"]["ndcg@5"])
    both = set(data["qrels"]) & set(data["run"])
    assert {q for q in both - scored} == {q for q in both if len(data["run"][q]) == 1} != set()


def test_torchmetrics_keeps_negative_grades_as_negative_gain_and_the_preset_does_not():
    data = PEERS["datasets"]["negative_grades"]
    theirs = data["values"]["torchmetrics"]["ndcg@10"]
    ours = evaluate(data["qrels"], data["run"], "ndcg@10", like="torchmetrics")
    negative = [q for q in theirs if negative_listed(data, q)]
    assert negative
    assert min(theirs[q] for q in negative) < 0  # a negative "nDCG": below any value here
    assert all(0 <= ours.value("ndcg@10", q) <= 1 for q in negative)


def test_torchmetrics_reads_scores_as_float32():
    # Scores that differ only in their 9th digit are tied in float32; the preset ties them too.
    data = PEERS["datasets"]["float32_ties"]
    theirs = data["values"]["torchmetrics"]["ndcg@5"]
    float64 = evaluate(data["qrels"], data["run"], "ndcg@5", like="torchmetrics", score_precision="float64")
    far = [q for q, value in theirs.items() if abs(float64.value("ndcg@5", q) - value) > 1e-6]
    assert far  # reading the scores as doubles would not reproduce torchmetrics


# ------------------------------------------------------------------ Spark MLlib, through the preset


def spark_value(claim: dict, key: str = "spark") -> float:
    return next(iter(claim[key].values()))


def one_query(prediction: list[str]) -> dict[str, dict[str, float]]:
    """Spark takes a list, not scores: scores that fall with the position."""
    return {"q": {doc: float(len(prediction) - i) for i, doc in enumerate(prediction)}}


def labels(example: dict) -> dict[str, float]:
    grades = example.get("relevance", [1.0] * len(example["labels"]))
    return dict(zip(example["labels"], grades))


SPARK_CLAIMS = {
    # claim: (metric, how the example becomes qrels and a run, extra arguments)
    "precision_divides_by_k": "P_5",
    "map_at_k_denominator": "map_cut_3",
    "grade_zero_is_relevant": "P_5",
    "graded_gain_exponential": "ndcg_cut_5",
}


@pytest.mark.parametrize("claim", sorted(SPARK_CLAIMS))
def test_spark_preset_reproduces_sparks_worked_values(claim):
    entry = SPARK["claims"][claim]
    example = entry["example"]
    result = evaluate(
        {"q": labels(example)}, one_query(example["prediction"]), SPARK_CLAIMS[claim], like="spark-mllib"
    )
    assert math.isclose(result.summary[SPARK_CLAIMS[claim]], spark_value(entry), rel_tol=0, abs_tol=1e-12)


def test_spark_preset_toy_query_and_map_without_cutoff():
    query = SPARK["query"]
    qrels = {"q": dict(zip(query["labels"], query["relevance"]))}
    run = one_query(query["ranking"])
    values = SPARK["claims"]["toy_query"]["values"]
    graded = evaluate(qrels, run, ["P_5", "recall_5", "map_cut_5", "map"], like="spark-mllib").summary
    # Spark's Python API drops the relevance values: its nDCG is binary.
    binary = evaluate(qrels, run, "ndcg_cut_5", like="spark-mllib", gain="binary").summary["ndcg_cut_5"]
    pairs = {
        "precision_at_k": graded["P_5"],
        "recall_at_k": graded["recall_5"],
        "map_at_k": graded["map_cut_5"],
        "map": graded["map"],
        "ndcg_at_k": binary,
    }
    for key, here in pairs.items():
        assert math.isclose(here, values[key]["RankingMetrics"], rel_tol=0, abs_tol=1e-12), key
    without_k = SPARK["claims"]["map_at_k_denominator"]["spark_map_without_k"]["RankingMetrics"]
    assert math.isclose(graded["map"], without_k, rel_tol=0, abs_tol=1e-12)


def test_spark_preset_takes_the_order_given_and_scores_an_empty_label_set_zero():
    entry = SPARK["claims"]["order_as_given"]
    qrels = {"q": dict(zip(SPARK["query"]["labels"], [1] * 4))}
    run = {"q": entry["example"]["scores"]}  # d2 and d3 tied: Spark keeps d2 first, as given
    value = evaluate(qrels, run, "ndcg_cut_5", like="spark-mllib").summary["ndcg_cut_5"]
    assert math.isclose(value, spark_value(entry), rel_tol=0, abs_tol=1e-12)
    assert not math.isclose(value, entry["spark_trec_eval_order"]["RankingMetrics"])

    entry = SPARK["claims"]["empty_labels_score_zero"]
    queries = entry["example"]["queries"]
    qrels = {q: {doc: 1 for doc in labelled} for q, (_, labelled) in queries.items() if labelled}
    run = {q: one_query(prediction)["q"] for q, (prediction, _) in queries.items()}
    result = evaluate(qrels, run, "P_5", like="spark-mllib")
    assert result.queries == ("q1", "q2") and result.value("P_5", "q2") == 0.0
    assert math.isclose(result.summary["P_5"], spark_value(entry), rel_tol=0, abs_tol=1e-12)
    assert evaluate(qrels, run, "P_5").summary["P_5"] == entry["trec_eval"]  # trec_eval ignores q2


def test_spark_preset_sorts_the_ideal_where_spark_keeps_the_labels_order():
    # Not reproduced, and documented: the JVM's ideal from the labels in the order given.
    entry = SPARK["claims"]["ideal_in_given_order"]
    example = entry["example"]
    value = evaluate(
        {"q": labels(example)}, one_query(example["prediction"]), "ndcg_cut_5", like="spark-mllib"
    )
    assert math.isclose(value.summary["ndcg_cut_5"], entry["sorted_ideal"], rel_tol=0, abs_tol=1e-12)
    assert spark_value(entry) > 1 > value.summary["ndcg_cut_5"]


# ------------------------------------------------------------------ cards, overrides, refusals

PRESET_NAMES = sorted(PRESETS)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_card_lists_every_convention_the_preset_sets(name):
    c = Conventions.resolve(find(name))
    card = c.card().splitlines()
    table = card[2 : card.index("")] if "" in card else card[2:]  # a recommender preset's notes follow
    rows = {line.split()[0]: line.split()[1:] for line in table}
    assert list(rows) == list(c)
    for setting in c:
        words = rows[setting]
        if setting in PRESETS[name].settings:
            assert words[0] == str(PRESETS[name].settings[setting])
            assert words[-2:] == ["preset", name], (setting, words)
        elif setting == "score_precision":
            assert words[-2:] == ["reference", c["reference"]]
        else:
            assert words[-1] == "default", (setting, words)


# The recommender libraries' presets are checked the same way in test_recsys_presets.py.
@pytest.mark.parametrize("name", [n for n in PRESET_NAMES if not getattr(PRESETS[n], "recommender", False)])
def test_explicit_arguments_override_the_preset(name):
    qrels = {"q": {"d1": 3, "d3": 3, "d4": 2, "d6": 1}}
    run = {"q": {"d1": 0.9, "d2": 0.5, "d3": 0.5, "d4": 0.3, "d5": 0.1}}
    result = evaluate(qrels, run, "ndcg@5", like=name, ties="docno_descending", gain="linear", ideal="judged")
    c = result.conventions
    assert (c["ties"], c["gain"], c["ideal"]) == ("docno_descending", "linear", "judged")
    assert c.source("ties") == c.source("gain") == c.source("ideal") == "argument"
    assert c.preset == name
    # With trec_eval's ordering, gain and ideal, nDCG@5 is trec_eval's: d3 (docno) before d2.
    assert math.isclose(result.summary["ndcg@5"], rm.ndcg([3, 3, 0, 2, 0], k=5, ideal=[3, 3, 2, 1]))


@pytest.mark.parametrize("name", [n for n in PRESET_NAMES if isinstance(PRESETS[n], LibraryPreset)])
def test_a_library_preset_refuses_what_it_does_not_reproduce(name):
    qrels = {"q": {"d1": 1}}
    run = {"q": {"d1": 1.0, "d2": 0.5}}
    for family, reason in PRESETS[name].refused.items():
        if ":" in family:  # a family refused under one setting only: see the next test
            continue
        metric = {"average_precision": "map", "reciprocal_rank": "mrr", "r_precision": "Rprec"}.get(
            family, f"{family}@2"
        )
        with pytest.raises(ValueError, match="refuses") as error:
            evaluate(qrels, run, metric, like=name)
        assert reason in str(error.value)
    with pytest.raises(ValueError, match="not a measure of this library"):
        evaluate(qrels, run, "bpref", like=name)
    assert evaluate(qrels, run, "bpref").summary["bpref"] == 1.0  # without like=, as always


def test_ranx_ndcg_is_refused_under_another_relevance_level_but_its_precision_is_not():
    # ranx's ndcg@10-l2 gives a grade-1 document no gain; nDCG here reads every grade.
    data = PEERS["datasets"]["graded"]
    with pytest.raises(ValueError, match="reproduced with relevance_level=1 only; ranx's ndcg@k-lN"):
        evaluate(data["qrels"], data["run"], ["ndcg@10", "p@10"], like="ranx", relevance_level=2)
    at_two = evaluate(data["qrels"], data["run"], "p@10", like="ranx", relevance_level=2)
    by_hand = {  # P@10 with grade >= 2 relevant, in ranx's order (the preset's, checked above at level 1)
        qid: sum(data["qrels"][qid].get(doc, 0) >= 2 for doc in docs) / 10
        for qid, docs in _ranx_top(data, 10).items()
    }
    assert {q: at_two.value("p@10", q) for q in by_hand} == by_hand


def _ranx_top(data: dict, k: int) -> dict[str, list[str]]:
    """Each judged query's first k documents in ranx's order: numba's quicksort of -score."""
    from rankmetrics.trec.ranking import numba_quicksort_order

    top = {}
    for qid in sorted(set(data["qrels"]) & set(data["run"])):
        docs = list(data["run"][qid])
        order = numba_quicksort_order([-score for score in data["run"][qid].values()])
        top[qid] = [docs[i] for i in order[:k]]
    return top
