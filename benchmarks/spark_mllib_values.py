"""Run Spark MLlib's ranking metrics on small worked examples, next to trec_eval's convention.

The chapter "라이브러리마다 값이 다른 이유" (book/09_library_differences.ipynb) has a
section on Spark MLlib: ``pyspark.mllib.evaluation.RankingMetrics`` and
``pyspark.ml.evaluation.RankingEvaluator``. Spark is not part of the book's
environment (it needs Java and a 450 MB package), so this script runs it and writes
what it returned, with the pyspark and Java versions, to
``book/data/spark_mllib_values.json``, which the chapter reads.

Each entry of ``claims`` checks one statement about Spark's conventions (read from
its source code) against the real library on a small example. For each, the script
computes with ``rankmetrics`` (a) the value the statement predicts for Spark and
(b) the value under trec_eval's convention. The verdict is "confirmed" when Spark
returned (a) and "refuted" otherwise; the script never types a value of its own.

``recipe`` then runs trec_eval's own test files (book/data/trec_eval) through Spark
twice: as a team would first do it, and after the preprocessing that makes Spark
reproduce trec_eval's numbers; both next to ``rankmetrics.evaluate``.

The toy query is the chapter's: the system returned d1, d2, d3, d4, d5 in that
order; the judgements are d1:3, d3:3, d4:2 and d6:1 (d6 was never returned).

Usage, from the repository root, in an environment of its own (Java 17 or later on
the PATH; PyPI serves pyspark as a source archive, which pip builds in a minute):

    python -m venv /tmp/spark
    /tmp/spark/bin/pip install pyspark numpy pandas pyarrow
    PYSPARK_PYTHON=/tmp/spark/bin/python PYTHONPATH=. /tmp/spark/bin/python benchmarks/spark_mllib_values.py

Spark runs in local mode on one core (``local[1]``); the examples take seconds.
"""

from __future__ import annotations

import importlib.metadata
import inspect
import json
import math
import os
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the repository's own rankmetrics, not an installed one

import rankmetrics as rm

OUT = ROOT / "book" / "data" / "spark_mllib_values.json"
TREC_DATA = ROOT / "book" / "data" / "trec_eval"

RANKING = ["d1", "d2", "d3", "d4", "d5"]
JUDGED = {"d1": 3, "d3": 3, "d4": 2, "d6": 1}
# Spark's "ground truth set": the relevant documents, highest grade first.
LABELS = sorted(JUDGED, key=lambda doc: (-JUDGED[doc], doc))  # d1, d3, d4, d6
RELEVANCE = [float(JUDGED[doc]) for doc in LABELS]  # 3, 3, 2, 1
K = 5


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def run_of(ranking: list[str]) -> dict[str, float]:
    """A trec_eval run for one query: the first document gets the highest score."""
    return {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}


def trec(qrels: dict, run: dict, name: str, **conventions) -> float:
    """trec_eval's value (its conventions, unless told otherwise) as rankmetrics computes it."""
    return float(rm.evaluate(qrels, run, name, **conventions).summary[name])


def as_number(doc: str) -> float:
    """RankingEvaluator takes arrays of doubles: d1 -> 1.0."""
    return float(doc.removeprefix("d"))


class Spark:
    """One local SparkSession and the three ways in: Python RankingMetrics, the JVM's, RankingEvaluator."""

    def __init__(self) -> None:
        from pyspark.sql import SparkSession

        self.session = (
            SparkSession.builder.master("local[1]")
            .appName("rankmetrics-spark-values")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "1")
            .config("spark.ui.showConsoleProgress", "false")
            .getOrCreate()
        )
        self.session.sparkContext.setLogLevel("ERROR")  # Spark warns on every empty label set
        self.sc = self.session.sparkContext
        self.jvm = self.sc._jvm

    def python(self, rows: list[tuple]):
        """pyspark.mllib.evaluation.RankingMetrics on (prediction, labels[, relevance]) rows."""
        from pyspark.mllib.evaluation import RankingMetrics

        return RankingMetrics(self.sc.parallelize(rows, 1))

    def scala(self, rows: list[tuple]):
        """The JVM's RankingMetrics on (prediction, labels, relevance) triples.

        RankingMetrics.of, the Java entry point, passes a triple on with its relevance
        values; this is the graded nDCG that Scala and Java code get.
        """
        java_list = self.jvm.java.util.ArrayList
        tuples = java_list()
        for row in rows:
            parts = []
            for part in row:
                items = java_list()
                for item in part:
                    items.add(item)
                parts.append(items)
            tuples.add(self.jvm.scala.Tuple3(*parts))
        java_rdd = self.sc._jsc.parallelize(tuples, 1)
        return self.jvm.org.apache.spark.mllib.evaluation.RankingMetrics.of(java_rdd)

    def evaluator(self, rows: list[tuple], metric: str, k: int) -> float:
        """pyspark.ml.evaluation.RankingEvaluator; item ids become doubles, as it requires."""
        from pyspark.ml.evaluation import RankingEvaluator

        data = [([as_number(d) for d in pred], [as_number(d) for d in lab]) for pred, lab, *_ in rows]
        frame = self.session.createDataFrame(data, "prediction array<double>, label array<double>")
        return float(RankingEvaluator(metricName=metric, k=k).evaluate(frame))

    def evaluator_params(self) -> list[str]:
        from pyspark.ml.evaluation import RankingEvaluator

        return sorted(p.name for p in RankingEvaluator().params)

    def stop(self) -> None:
        self.session.stop()


def both_apis(spark: Spark, rows: list[tuple], k: int) -> dict[str, dict[str, float]]:
    """P@k, MAP@k, MAP and nDCG@k from RankingMetrics and RankingEvaluator: they must agree."""
    metrics = spark.python(rows)
    found = {
        "precision_at_k": {"RankingMetrics": metrics.precisionAt(k)},
        "map_at_k": {"RankingMetrics": metrics.meanAveragePrecisionAt(k)},
        "map": {"RankingMetrics": metrics.meanAveragePrecision},
        "ndcg_at_k": {"RankingMetrics": metrics.ndcgAt(k)},
        "recall_at_k": {"RankingMetrics": metrics.recallAt(k)},
    }
    names = {
        "precision_at_k": "precisionAtK",
        "map_at_k": "meanAveragePrecisionAtK",
        "map": "meanAveragePrecision",
        "ndcg_at_k": "ndcgAtK",
        "recall_at_k": "recallAtK",
    }
    for key, name in names.items():
        found[key]["RankingEvaluator"] = spark.evaluator(rows, name, k)
        a, b = found[key].values()
        if not close(a, b):
            raise SystemExit(f"{key}: RankingMetrics {a} and RankingEvaluator {b} disagree")
    return found


def claims(spark: Spark) -> dict[str, dict]:
    out: dict[str, dict] = {}
    toy = [(RANKING, LABELS)]
    toy_values = both_apis(spark, toy, K)

    # 1. P@k divides by k, even when fewer than k items were returned.
    short = ["d1", "d2", "d3"]
    found = both_apis(spark, [(short, LABELS)], K)["precision_at_k"]
    out["precision_divides_by_k"] = {
        "claim": "P@k divides by k, also when fewer than k items were returned (as trec_eval)",
        "example": {"prediction": short, "labels": LABELS, "k": K},
        "spark": found,
        "predicted": rm.precision(short, k=K, relevant=JUDGED),
        "predicted_call": "rm.precision(prediction, k=5, relevant=judged)",
        "trec_eval": trec({"q": JUDGED}, {"q": run_of(short)}, f"P_{K}"),
        "trec_eval_call": "rm.evaluate(qrels, run, 'P_5')",
        "alternative": rm.hits(short, k=K, relevant=JUDGED) / len(short),
        "alternative_meaning": "hits divided by the number of items returned (3)",
    }

    # 2. MAP@k divides by min(|labels|, k); trec_eval's map_cut_k by every relevant document.
    k = 3
    found = both_apis(spark, toy, k)
    out["map_at_k_denominator"] = {
        "claim": "MAP@k divides by min(|labels|, k); trec_eval's map_cut_k divides by every relevant document",
        "example": {"prediction": RANKING, "labels": LABELS, "k": k},
        "spark": found["map_at_k"],
        "predicted": rm.average_precision(RANKING, k=k, relevant=JUDGED, denominator="min_k_relevant"),
        "predicted_call": "rm.average_precision(prediction, k=3, relevant=judged, denominator='min_k_relevant')",
        "trec_eval": trec({"q": JUDGED}, {"q": run_of(RANKING)}, f"map_cut_{k}"),
        "trec_eval_call": "rm.evaluate(qrels, run, 'map_cut_3')",
        # Without k, Spark's k is max(|prediction|, |labels|): the denominator is |labels|.
        "spark_map_without_k": found["map"],
        "trec_eval_map": trec({"q": JUDGED}, {"q": run_of(RANKING)}, "map"),
    }

    # 3. Every label is relevant: a document judged 0 that lands in the labels counts as a hit.
    judged_zero = {**JUDGED, "d2": 0}
    every_judged = sorted(judged_zero)  # d1, d2, d3, d4, d6: all judged ids, as a qrels table lists them
    zero_relevance = [float(judged_zero[d]) for d in every_judged]
    found = both_apis(spark, [(RANKING, every_judged)], K)["precision_at_k"]
    with_values = spark.python([(RANKING, every_judged, zero_relevance)]).precisionAt(K)
    out["grade_zero_is_relevant"] = {
        "claim": "every label counts as relevant, grade 0 included",
        "example": {"prediction": RANKING, "labels": every_judged, "relevance": zero_relevance, "k": K},
        "spark": {**found, "RankingMetrics with relevance values": with_values},
        "predicted": rm.precision(RANKING, k=K, relevant=set(every_judged)),
        "predicted_call": "rm.precision(prediction, k=5, relevant=set(labels))",
        "trec_eval": trec({"q": judged_zero}, {"q": run_of(RANKING)}, f"P_{K}"),
        "trec_eval_call": "rm.evaluate({'q': judged with d2:0}, run, 'P_5')",
    }

    # 4. The prediction array is the ranking: Spark sees no scores and breaks no tie.
    tied = {"d1": 0.9, "d2": 0.5, "d3": 0.5, "d4": 0.3, "d5": 0.1}
    file_order = sorted(tied, key=lambda doc: -tied[doc])  # a stable sort: d2 before d3, as in the file
    docno_order = sorted(tied, key=lambda doc: (tied[doc], doc), reverse=True)  # trec_eval: d3 before d2
    as_given = spark.python([(file_order, LABELS)]).ndcgAt(K)
    swapped = spark.python([(docno_order, LABELS)]).ndcgAt(K)
    out["order_as_given"] = {
        "claim": "the prediction order is taken as given: no sort by score, no docno tie-break",
        "example": {"scores": tied, "prediction": file_order, "trec_eval_order": docno_order, "k": K},
        "spark": {"RankingMetrics": as_given},
        "spark_trec_eval_order": {"RankingMetrics": swapped},
        "predicted": trec({"q": JUDGED}, {"q": tied}, f"ndcg_cut_{K}", gain="binary", ties="input_order"),
        "predicted_call": "rm.evaluate(qrels, run, 'ndcg_cut_5', gain='binary', ties='input_order')",
        "trec_eval": trec({"q": JUDGED}, {"q": tied}, f"ndcg_cut_{K}", gain="binary"),
        "trec_eval_call": "rm.evaluate(qrels, run, 'ndcg_cut_5', gain='binary')",
        "metric": "nDCG@5, binary gain on both sides",
    }

    # 5. A duplicated prediction counts again.
    doubled = ["d1", "d1", "d3", "d4", "d5"]
    found = both_apis(spark, [(doubled, LABELS)], K)
    deduplicated = list(dict.fromkeys(doubled))
    hits = [1.0 if doc in JUDGED else 0.0 for doc in doubled]  # 1, 1, 1, 1, 0: the grades form allows repeats
    out["duplicates_count_again"] = {
        "claim": "a duplicated prediction counts again",
        "example": {"prediction": doubled, "labels": LABELS, "k": K},
        "spark": found["precision_at_k"],
        "predicted": rm.precision(hits, k=K),
        "predicted_call": "rm.precision([1, 1, 1, 1, 0], k=5)",
        "trec_eval": trec({"q": JUDGED}, {"q": run_of(deduplicated)}, f"P_{K}"),
        "trec_eval_call": "rm.evaluate(qrels, run of the list without its repeat, 'P_5')",
        "spark_map_at_k": found["map_at_k"],
        "predicted_map_at_k": rm.average_precision(
            hits, k=K, n_relevant=len(LABELS), denominator="min_k_relevant"
        ),
        "trec_eval_map_at_k": trec({"q": JUDGED}, {"q": run_of(deduplicated)}, f"map_cut_{K}"),
    }

    # 6. A query with no labels scores 0 and stays in the mean.
    unjudged = ["d7", "d8", "d9"]
    found = both_apis(spark, [(RANKING, LABELS), (unjudged, [])], K)["precision_at_k"]
    runs = {"q1": run_of(RANKING), "q2": run_of(unjudged)}
    out["empty_labels_score_zero"] = {
        "claim": "a query with no labels scores 0 and stays in the mean",
        "example": {"queries": {"q1": [RANKING, LABELS], "q2": [unjudged, []]}, "k": K},
        "spark": found,
        "predicted": (rm.precision(RANKING, k=K, relevant=JUDGED) + 0.0) / 2,
        "predicted_call": "(rm.precision(q1's prediction, k=5, relevant=judged) + 0) / 2",
        "trec_eval": trec({"q1": JUDGED}, runs, f"P_{K}"),
        "trec_eval_call": "rm.evaluate({'q1': judged}, {'q1': ..., 'q2': ...}, 'P_5'): q2 has no judgement",
        "trec_eval_judged_nonrelevant": trec({"q1": JUDGED, "q2": {"d7": 0}}, runs, f"P_{K}"),
        "trec_eval_judged_nonrelevant_call": "the same with q2 judged, d7:0 (no relevant document)",
    }

    # 7. Graded nDCG (the JVM's RankingMetrics given relevance values) uses 2^rel - 1.
    graded = spark.scala([(RANKING, LABELS, RELEVANCE)]).ndcgAt(K)
    out["graded_gain_exponential"] = {
        "claim": "graded nDCG uses exponential gain 2^rel - 1; trec_eval's gain is linear",
        "example": {"prediction": RANKING, "labels": LABELS, "relevance": RELEVANCE, "k": K},
        "spark": {"RankingMetrics (JVM, RankingMetrics.of with triples)": graded},
        "predicted": rm.ndcg(RANKING, k=K, relevant=JUDGED, gain="exponential"),
        "predicted_call": "rm.ndcg(prediction, k=5, relevant=judged, gain='exponential')",
        "trec_eval": trec({"q": JUDGED}, {"q": run_of(RANKING)}, f"ndcg_cut_{K}"),
        "trec_eval_call": "rm.evaluate(qrels, run, 'ndcg_cut_5')",
    }

    # 8. The Python RankingMetrics drops the relevance values: binary nDCG.
    dropped = spark.python([(RANKING, LABELS, RELEVANCE)]).ndcgAt(K)
    doc = inspect.getdoc(__import__("pyspark.mllib.evaluation", fromlist=["RankingMetrics"]).RankingMetrics)
    promise = next(line.strip() for line in doc.splitlines() if "relevance value" in line and "Since" in line)
    out["python_drops_relevance"] = {
        "claim": "the Python RankingMetrics drops relevance values (binary nDCG), though its docs promise graded nDCG",
        "example": {"prediction": RANKING, "labels": LABELS, "relevance": RELEVANCE, "k": K},
        "spark": {"RankingMetrics (Python, with relevance values)": dropped},
        "spark_without_relevance": {
            "RankingMetrics (Python, pairs)": toy_values["ndcg_at_k"]["RankingMetrics"]
        },
        "spark_graded_jvm": graded,
        "predicted": rm.ndcg(RANKING, k=K, relevant=JUDGED, gain="binary"),
        "predicted_call": "rm.ndcg(prediction, k=5, relevant=judged, gain='binary')",
        "trec_eval": trec({"q": JUDGED}, {"q": run_of(RANKING)}, f"ndcg_cut_{K}"),
        "trec_eval_call": "rm.evaluate(qrels, run, 'ndcg_cut_5')",
        "docstring": promise,
        "ranking_evaluator_params": spark.evaluator_params(),
    }

    # 9. The JVM's graded nDCG builds its ideal from the labels in the order given.
    ascending = list(reversed(LABELS))  # d6, d4, d3, d1: lowest grade first
    ascending_relevance = [float(JUDGED[d]) for d in ascending]
    unsorted = spark.scala([(RANKING, ascending, ascending_relevance)]).ndcgAt(K)
    grades = [float(JUDGED.get(d, 0)) for d in RANKING]
    # Spark's ratio: the list's DCG over the DCG of the labels' grades as they were given.
    given_ideal = rm.dcg(grades, k=K, gain="exponential") / rm.dcg(
        ascending_relevance, k=K, gain="exponential"
    )
    out["ideal_in_given_order"] = {
        "claim": "the JVM's graded nDCG takes its ideal from the labels in the order given, unsorted",
        "example": {"prediction": RANKING, "labels": ascending, "relevance": ascending_relevance, "k": K},
        "spark": {"RankingMetrics (JVM, RankingMetrics.of with triples)": unsorted},
        "predicted": given_ideal,
        "predicted_call": "rm.dcg(grades, k=5, gain='exponential') / rm.dcg(relevance in label order, k=5, gain='exponential')",
        "sorted_ideal": rm.ndcg(RANKING, k=K, relevant=JUDGED, gain="exponential"),
        "trec_eval": trec({"q": JUDGED}, {"q": run_of(RANKING)}, f"ndcg_cut_{K}"),
        "trec_eval_call": "rm.evaluate(qrels, run, 'ndcg_cut_5')",
    }

    for entry in out.values():
        spark_values = list(entry["spark"].values())
        entry["verdict"] = (
            "confirmed" if all(close(v, entry["predicted"]) for v in spark_values) else "refuted"
        )
        entry["differs_from_trec_eval"] = not close(spark_values[0], entry["trec_eval"])
    out["toy_query"] = {"values": toy_values, "k": K}  # the chapter's query, every metric, both APIs
    return out


RECIPE_K = 10
RECIPE_MEASURES = [
    f"P_{RECIPE_K}",
    f"recall_{RECIPE_K}",
    f"map_cut_{RECIPE_K}",
    "map",
    f"ndcg_cut_{RECIPE_K}",
]


def recipe(spark: Spark) -> dict:
    """trec_eval's test files through Spark: first as a team would write it, then prepared.

    As written first: each query's documents sorted by score (a stable sort keeps the
    file's order for ties), every judged document of the query as its labels, and the
    Python RankingMetrics. Prepared, the trec_eval way:

    1. only queries that are in both the run and the judgements (trec_eval without -c);
    2. each query's documents by score, highest first, ties by docno descending, each once;
    3. as labels only the relevant documents (grade >= 1), highest grade first;
    4. map_cut_k: meanAveragePrecision (no k) on the predictions cut at k, whose
       denominator is then |labels|; map: the same on the whole list;
    5. graded nDCG: the JVM's RankingMetrics (RankingMetrics.of with triples), each
       label's relevance log2(grade + 1), so that Spark's gain 2^rel - 1 is the grade.
    """
    qrels = rm.read_qrels(TREC_DATA / "qrels.rel_level")
    run = rm.read_run(TREC_DATA / "results.test")
    k = RECIPE_K
    expected = rm.evaluate(qrels, run, RECIPE_MEASURES).summary

    naive_rows = []
    for qid, docs in run.items():
        by_score = sorted(docs, key=lambda doc: -docs[doc])
        naive_rows.append((by_score, list(qrels.get(qid, {}))))
    naive = spark.python(naive_rows)
    as_written = {
        f"P_{k}": naive.precisionAt(k),
        f"recall_{k}": naive.recallAt(k),
        f"map_cut_{k}": naive.meanAveragePrecisionAt(k),
        "map": naive.meanAveragePrecision,
        f"ndcg_cut_{k}": naive.ndcgAt(k),
    }

    rows, cut_rows, graded_rows = [], [], []
    for qid in sorted(set(run) & set(qrels)):
        docs = run[qid]
        ranked = sorted(docs, key=lambda doc: (docs[doc], doc), reverse=True)  # trec_eval's order
        ranked = list(dict.fromkeys(ranked))  # each docno once
        relevant = sorted((d for d, g in qrels[qid].items() if g >= 1), key=lambda d: -qrels[qid][d])
        rows.append((ranked, relevant))
        cut_rows.append((ranked[:k], relevant))
        graded_rows.append((ranked, relevant, [math.log2(qrels[qid][d] + 1) for d in relevant]))
    prepared_metrics = spark.python(rows)
    prepared = {
        f"P_{k}": prepared_metrics.precisionAt(k),
        f"recall_{k}": prepared_metrics.recallAt(k),
        f"map_cut_{k}": spark.python(cut_rows).meanAveragePrecision,
        "map": prepared_metrics.meanAveragePrecision,
        f"ndcg_cut_{k}": spark.scala(graded_rows).ndcgAt(k),
    }
    calls = {
        f"P_{k}": f"RankingMetrics(prepared).precisionAt({k})",
        f"recall_{k}": f"RankingMetrics(prepared).recallAt({k})",
        f"map_cut_{k}": f"RankingMetrics(prepared, predictions cut at {k}).meanAveragePrecision",
        "map": "RankingMetrics(prepared).meanAveragePrecision",
        f"ndcg_cut_{k}": f"RankingMetrics.of(prepared triples, relevance log2(grade + 1)).ndcgAt({k}) (JVM)",
    }
    measures = {}
    for name in RECIPE_MEASURES:
        measures[name] = {
            "trec_eval": float(expected[name]),
            "spark_as_written": as_written[name],
            "spark_prepared": prepared[name],
            "prepared_call": calls[name],
            "prepared_matches": close(prepared[name], float(expected[name])),
        }
    return {
        "files": ["qrels.rel_level", "results.test"],
        "queries": len(run),
        "k": k,
        "trec_eval_call": f"rm.evaluate(qrels, run, {RECIPE_MEASURES})",
        "measures": measures,
    }


def main() -> None:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = Spark()
    try:
        record = {
            "query": {"ranking": RANKING, "judged": JUDGED, "labels": LABELS, "relevance": RELEVANCE, "k": K},
            "pyspark": importlib.metadata.version("pyspark"),
            "spark": spark.sc.version,
            "java": spark.jvm.java.lang.System.getProperty("java.version"),
            "scala": spark.jvm.scala.util.Properties.versionNumberString(),
            "python": platform.python_version(),
            "master": spark.sc.master,
            "claims": claims(spark),
            "recipe": recipe(spark),
        }
    finally:
        spark.stop()
    OUT.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    for key, entry in record["claims"].items():
        if "verdict" in entry:
            print(
                f"{key:<26} {entry['verdict']:<10} spark {next(iter(entry['spark'].values())):.4f}  "
                f"predicted {entry['predicted']:.4f}  trec_eval {entry['trec_eval']:.4f}"
            )
    for name, entry in record["recipe"]["measures"].items():
        print(
            f"{name:<12} trec_eval {entry['trec_eval']:.4f}  as written {entry['spark_as_written']:.4f}  "
            f"prepared {entry['spark_prepared']:.4f}  {'same' if entry['prepared_matches'] else 'DIFFERENT'}"
        )


if __name__ == "__main__":
    main()
