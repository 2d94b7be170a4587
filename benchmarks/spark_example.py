"""The Spark example of chapter 10, run for real; its outputs go to book/data/at_scale_spark.json.

The book does not start a JVM while it builds: it prints the code between the
two "book" markers below and the outputs this script saved. Run it again with

    PYSPARK_PYTHON=.venv-spark/bin/python .venv-spark/bin/python benchmarks/spark_example.py

(``make test-spark`` builds .venv-spark.)
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "book" / "data" / "at_scale_spark.json"


def main() -> None:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    warnings.filterwarnings(
        "ignore", message="PySpark does not yet fully support pandas", category=FutureWarning
    )
    import pandas as pd

    # --- book: start
    from pyspark.sql import SparkSession

    import rankmetrics as rm
    import rankmetrics.spark as rms

    spark = SparkSession.builder.master("local[2]").config("spark.sql.shuffle.partitions", "4").getOrCreate()
    qrels = spark.createDataFrame(
        pd.DataFrame(
            {
                "query_id": ["q1", "q1", "q1", "q2", "q2", "q3"],
                "doc_id": ["d1", "d2", "d3", "d4", "d5", "d9"],
                "relevance": [2, 0, 1, 1, 0, 1],
            }
        )
    )
    run = spark.createDataFrame(
        pd.DataFrame(
            {
                "query_id": ["q1", "q1", "q1", "q2", "q2"],
                "doc_id": ["d1", "d2", "d3", "d5", "d4"],
                "score": [0.9, 0.8, 0.8, 0.7, 0.5],
            }
        )
    )
    result = rms.evaluate(qrels, run, ["map", "ndcg@10", "P@2"], missing="zero")
    per_query = result.per_query.orderBy("query_id").toPandas()
    print(per_query)
    print(result.summary)
    # --- book: end
    local = rm.evaluate(qrels.toPandas(), run.toPandas(), ["map", "ndcg@10", "P@2"], missing="zero")
    OUT.write_text(
        json.dumps(
            {
                "pyspark": __import__("pyspark").__version__,
                "master": spark.sparkContext.master,
                "per_query": per_query.to_string(),
                "summary": result.summary,
                "local_summary": local.summary,
                "same_as_local": bool(
                    per_query["map"].tolist() == local.per_query["map"].tolist()
                    and per_query["ndcg@10"].tolist() == local.per_query["ndcg@10"].tolist()
                ),
            },
            indent=2,
            ensure_ascii=False,
        )
        + "\n",
        encoding="utf-8",
    )
    spark.stop()


if __name__ == "__main__":
    main()
