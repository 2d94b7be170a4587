"""Spark MLlib's values, measured by benchmarks/spark_mllib_values.py, bound to the package.

The script runs pyspark in an environment of its own and writes
book/data/spark_mllib_values.json; the chapter "라이브러리마다 값이 다른 이유" reads it.
Spark is not installed here, so these tests recompute with rankmetrics, from the
examples written in the file, every value that should equal Spark's (P@k, MAP@k with
denominator="min_k_relevant", binary and exponential-gain nDCG, the ideal taken in the
labels' order) and every trec_eval value, and check that the executed chapter glues
the file's numbers. A re-run of the script that changes a value fails here until the
chapter is re-executed; a change in the package that moves one of its values fails too.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import nbformat
import pytest

import rankmetrics as rm

BOOK = Path(__file__).resolve().parents[2] / "book"
CHAPTER = BOOK / "presets_spark.ipynb"  # the Spark MLlib section (reference part)
VALUES = BOOK / "data" / "spark_mllib_values.json"
TREC_DATA = BOOK / "data" / "trec_eval"


@pytest.fixture(scope="module")
def record() -> dict:
    return json.loads(VALUES.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def judged(record) -> dict:
    return record["query"]["judged"]


def spark(entry: dict) -> list[float]:
    """Every API's value for one claim (RankingMetrics and RankingEvaluator where both ran)."""
    return list(entry["spark"].values())


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def one_query_run(items: list[str]) -> dict:
    return {"q": {doc: float(len(items) - i) for i, doc in enumerate(items)}}


def trec(qrels: dict, run: dict, name: str, **conventions) -> float:
    return rm.evaluate(qrels, run, name, **conventions).summary[name]


def test_versions_are_recorded(record):
    for key in ("pyspark", "spark", "java", "scala", "master"):
        assert record[key], key
    assert record["pyspark"] == record["spark"]


def test_every_claim_was_confirmed_by_spark(record):
    claims = {k: v for k, v in record["claims"].items() if "verdict" in v}
    assert len(claims) == 9
    for key, entry in claims.items():
        assert entry["verdict"] == "confirmed", key
        assert all(close(value, entry["predicted"]) for value in spark(entry)), key


def test_ranking_metrics_and_ranking_evaluator_agree(record):
    for key, entry in record["claims"].items():
        if "RankingEvaluator" in entry.get("spark", {}):
            assert close(entry["spark"]["RankingMetrics"], entry["spark"]["RankingEvaluator"]), key
    for metric, found in record["claims"]["toy_query"]["values"].items():
        assert close(found["RankingMetrics"], found["RankingEvaluator"]), metric


def test_precision_is_the_package_precision(record, judged):
    entry = record["claims"]["precision_divides_by_k"]
    prediction, k = entry["example"]["prediction"], entry["example"]["k"]
    for value in spark(entry):
        assert close(value, rm.precision(prediction, k=k, relevant=judged))
        assert close(value, trec({"q": judged}, one_query_run(prediction), f"P_{k}"))


def test_map_at_k_is_average_precision_with_min_k_relevant(record, judged):
    entry = record["claims"]["map_at_k_denominator"]
    prediction, k = entry["example"]["prediction"], entry["example"]["k"]
    spark_rule = rm.average_precision(prediction, k=k, relevant=judged, denominator="min_k_relevant")
    for value in spark(entry):
        assert close(value, spark_rule)
    assert close(entry["trec_eval"], trec({"q": judged}, one_query_run(prediction), f"map_cut_{k}"))
    assert not close(spark_rule, entry["trec_eval"])
    # Without k, Spark divides by |labels|: trec_eval's map.
    for value in entry["spark_map_without_k"].values():
        assert close(value, rm.average_precision(prediction, relevant=judged))
        assert close(value, trec({"q": judged}, one_query_run(prediction), "map"))


def test_every_label_is_relevant(record):
    entry = record["claims"]["grade_zero_is_relevant"]
    example = entry["example"]
    with_zero = dict(zip(example["labels"], example["relevance"]))
    assert 0.0 in with_zero.values()
    for value in spark(entry):
        assert close(
            value, rm.precision(example["prediction"], k=example["k"], relevant=set(example["labels"]))
        )
    trec_value = trec({"q": with_zero}, one_query_run(example["prediction"]), f"P_{example['k']}")
    assert close(entry["trec_eval"], trec_value)
    assert not close(entry["predicted"], trec_value)


def test_order_is_taken_as_given(record, judged):
    entry = record["claims"]["order_as_given"]
    example = entry["example"]
    k, scores = example["k"], example["scores"]
    for order, found in (
        (example["prediction"], entry["spark"]),
        (example["trec_eval_order"], entry["spark_trec_eval_order"]),
    ):
        for value in found.values():
            assert close(value, rm.ndcg(order, k=k, relevant=judged, gain="binary"))
    as_given = trec({"q": judged}, {"q": scores}, f"ndcg_cut_{k}", gain="binary", ties="input_order")
    trec_order = trec({"q": judged}, {"q": scores}, f"ndcg_cut_{k}", gain="binary")
    assert close(entry["spark"]["RankingMetrics"], as_given)
    assert close(entry["spark_trec_eval_order"]["RankingMetrics"], trec_order)
    assert close(entry["trec_eval"], trec_order) and not close(as_given, trec_order)


def test_duplicates_count_again(record, judged):
    entry = record["claims"]["duplicates_count_again"]
    prediction, k = entry["example"]["prediction"], entry["example"]["k"]
    labels = entry["example"]["labels"]
    assert len(set(prediction)) < len(prediction)
    hits = [1 if doc in labels else 0 for doc in prediction]
    for value in spark(entry):
        assert close(value, rm.precision(hits, k=k))
    for value in entry["spark_map_at_k"].values():
        assert close(
            value, rm.average_precision(hits, k=k, n_relevant=len(labels), denominator="min_k_relevant")
        )
    once = list(dict.fromkeys(prediction))
    assert close(entry["trec_eval"], trec({"q": judged}, one_query_run(once), f"P_{k}"))
    assert close(entry["trec_eval_map_at_k"], trec({"q": judged}, one_query_run(once), f"map_cut_{k}"))
    with pytest.raises(ValueError, match="twice"):
        rm.precision(prediction, k=k, relevant=judged)  # the package refuses what Spark counts twice


def test_query_without_labels_scores_zero_and_stays(record, judged):
    entry = record["claims"]["empty_labels_score_zero"]
    queries, k = entry["example"]["queries"], entry["example"]["k"]
    (first, labels), (second, empty) = queries["q1"], queries["q2"]
    assert set(labels) == {doc for doc, grade in judged.items() if grade > 0}
    assert empty == []
    per_query = [rm.precision(first, k=k, relevant=judged), 0.0]
    for value in spark(entry):
        assert close(value, sum(per_query) / len(per_query))
    runs = {"q1": one_query_run(first)["q"], "q2": one_query_run(second)["q"]}
    assert close(entry["trec_eval"], trec({"q1": judged}, runs, f"P_{k}"))
    judged_q2 = {"q1": judged, "q2": {second[0]: 0}}
    assert close(entry["trec_eval_judged_nonrelevant"], trec(judged_q2, runs, f"P_{k}"))
    assert close(entry["trec_eval_judged_nonrelevant"], entry["predicted"])


def test_graded_ndcg_is_exponential_gain(record, judged):
    entry = record["claims"]["graded_gain_exponential"]
    example = entry["example"]
    assert example["relevance"] == sorted(example["relevance"], reverse=True)  # labels by grade: a true ideal
    for value in spark(entry):
        assert close(
            value, rm.ndcg(example["prediction"], k=example["k"], relevant=judged, gain="exponential")
        )
    trec_value = trec({"q": judged}, one_query_run(example["prediction"]), f"ndcg_cut_{example['k']}")
    assert close(entry["trec_eval"], trec_value)
    assert close(trec_value, rm.ndcg(example["prediction"], k=example["k"], relevant=judged))


def test_python_ranking_metrics_is_binary_ndcg(record, judged):
    entry = record["claims"]["python_drops_relevance"]
    example = entry["example"]
    binary = rm.ndcg(example["prediction"], k=example["k"], relevant=judged, gain="binary")
    for value in [*spark(entry), *entry["spark_without_relevance"].values()]:
        assert close(value, binary)
    assert not close(binary, entry["spark_graded_jvm"])
    assert "relevance" in entry["docstring"]
    assert not any("relevance" in name.lower() for name in entry["ranking_evaluator_params"])


def test_graded_ideal_is_the_labels_in_the_given_order(record, judged):
    entry = record["claims"]["ideal_in_given_order"]
    example = entry["example"]
    k = example["k"]
    grades = [judged.get(doc, 0) for doc in example["prediction"]]
    given = [judged[doc] for doc in example["labels"]]
    assert given == example["relevance"] and given != sorted(given, reverse=True)
    ratio = rm.dcg(grades, k=k, gain="exponential") / rm.dcg(given, k=k, gain="exponential")
    for value in spark(entry):
        assert close(value, ratio)
        assert value > 1  # an unsorted ideal can lie below the list's own DCG
    assert close(entry["sorted_ideal"], rm.ndcg(grades, k=k, gain="exponential", ideal=given))


def test_prepared_spark_reproduces_trec_eval_on_its_test_files(record):
    recipe = record["recipe"]
    qrels = rm.read_qrels(TREC_DATA / recipe["files"][0])
    run = rm.read_run(TREC_DATA / recipe["files"][1])
    here = rm.evaluate(qrels, run, list(recipe["measures"])).summary
    for name, entry in recipe["measures"].items():
        assert close(entry["trec_eval"], here[name]), name
        assert entry["prepared_matches"], name
        assert math.isclose(entry["spark_prepared"], here[name], rel_tol=1e-12), name
        assert not math.isclose(entry["spark_as_written"], here[name], rel_tol=1e-3), name


def test_chapter_glues_the_json_values(record):
    nb = nbformat.read(CHAPTER, as_version=4)
    glued = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            name = output.get("metadata", {}).get("scrapbook", {}).get("name", "")
            if name.startswith("library_differences_spark_"):
                glued[name.removeprefix("library_differences_spark_")] = float(
                    output["data"]["application/papermill.record/text/plain"]
                )
    claims = record["claims"]
    for key, entry in claims.items():
        if "verdict" in entry:
            assert close(glued[key], spark(entry)[0]), key
            assert close(glued[f"trec_{key}"], entry["trec_eval"]), key
    for name, entry in record["recipe"]["measures"].items():
        assert close(glued[f"as_written_{name}"], entry["spark_as_written"]), name
        assert close(glued[f"recipe_{name}"], entry["trec_eval"]), name
    assert close(glued["exercise_map5"], claims["duplicates_count_again"]["spark_map_at_k"]["RankingMetrics"])
