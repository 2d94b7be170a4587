"""Evaluate a run held in Spark DataFrames, a batch of whole queries per Python call.

:func:`evaluate` takes a qrels and a run Spark DataFrame with ir_measures'
columns (``query_id, doc_id, relevance`` and ``query_id, doc_id, score``),
gives every query a bucket (a hash of its id), and cogroups the two frames by
bucket: each bucket, every row of each of its queries from both inputs,
reaches one Python worker as two pandas frames (``applyInPandas``), where the
package's own :func:`rankmetrics.evaluate` scores all of its queries at once.
A bucket holds many queries, so there is one Python call per bucket, not per
query. :func:`read_qrels` and :func:`read_run` read TREC files through the
local reader's line rules.

Install with ``pip install "rankmetrics[spark]"`` and the same rankmetrics
wheel in the workers' Python (``PYSPARK_PYTHON``); a different version on a
worker is refused. pyspark is imported only when a function is called.
"""

from __future__ import annotations

from typing import Any

from .i18n import _
from .trec import cluster
from .trec.cluster import STATUS, VALUE, ClusterEvaluation
from .trec.recsys_frames import RECSYS_COLUMNS, as_query_frame

__all__ = ["ClusterEvaluation", "evaluate", "read_qrels", "read_run"]

_BUCKET = "_bucket"


def _spark() -> Any:
    try:
        import pyspark.sql.functions as F
    except ImportError:
        raise ImportError(
            _('rankmetrics.spark needs pyspark (and pandas, pyarrow): pip install "rankmetrics[spark]"')
        ) from None
    return F


def evaluate(qrels: Any, run: Any, metrics: Any, *, buckets: int | None = None, **conventions: Any):
    """Score a run on every judged query with Spark, as :func:`rankmetrics.evaluate` does locally.

    Parameters
    ----------
    qrels : pyspark.sql.DataFrame
        Columns ``query_id``, ``doc_id`` (strings, or integers read as their
        digits) and ``relevance`` (numbers). Or a recommender's test set,
        ``user_id, item_id`` with ``relevance`` or without it (every row
        relevant with grade 1), as for :func:`rankmetrics.evaluate`.
    run : pyspark.sql.DataFrame
        Columns ``query_id``, ``doc_id`` and ``score``; or ``user_id,
        item_id`` with ``score`` or ``rank`` (1 first).
    metrics : str or list of str
        As for :func:`rankmetrics.evaluate`.
    buckets : positive int, optional
        How many buckets of whole queries (Python calls) to make. Default:
        ``spark.sql.shuffle.partitions``.
    **conventions
        Every convention of :func:`rankmetrics.evaluate`, except ``chunk_queries``.

    Returns
    -------
    ClusterEvaluation
        ``per_query``: a Spark DataFrame (cached), one row per query;
        ``summary`` computed by Spark; the missing and unjudged queries.
    """
    F = _spark()
    from pyspark.sql import DataFrame

    plan = cluster.plan(metrics, conventions)
    spark = None
    for frame, kind in ((qrels, "qrels"), (run, "run")):
        if not isinstance(frame, DataFrame):
            raise ValueError(
                _("{kind} must be a pyspark.sql.DataFrame; got {type}").format(
                    kind=kind, type=type(frame).__name__
                )
            )
    qrels, run = _as_query_frame(F, qrels, "qrels"), _as_query_frame(F, run, "run")
    for frame, kind in ((qrels, "qrels"), (run, "run")):
        _check_schema(frame, kind)
        spark = frame.sparkSession
    n = buckets or int(spark.conf.get("spark.sql.shuffle.partitions"))
    left, right = (_rows(F, frame, kind, n) for frame, kind in ((qrels, "qrels"), (run, "run")))
    schema = _schema(plan)

    def scored(judged: Any, listed: Any) -> Any:  # one bucket: every row of each of its queries
        qrels_part = judged.rename(columns={VALUE: "relevance"}).drop(columns=[_BUCKET])
        run_part = listed.rename(columns={VALUE: "score"}).drop(columns=[_BUCKET])
        return cluster.evaluate_batch(qrels_part, run_part, plan)

    rows = left.groupBy(_BUCKET).cogroup(right.groupBy(_BUCKET)).applyInPandas(scored, schema).cache()
    kept = ["scored"] if plan.conventions.missing == "skip" else ["scored", "missing"]
    evaluated = rows.filter(F.col(STATUS).isin(kept))
    aggregates = [F.count(F.lit(1)).alias("count")]
    for key, name, how in cluster.sums_needed(plan):
        column = F.col(f"`{name}`")
        value = F.log(F.greatest(column, F.lit(cluster.FLOOR))) if how == "log" else column
        aggregates.append(F.sum(value).alias(key))
    done = evaluated.agg(*aggregates).collect()[0].asDict()
    ids = rows.filter(F.col(STATUS).isin("missing", "unjudged")).select("query_id", STATUS).collect()
    missing = [r["query_id"] for r in ids if r[STATUS] == "missing"]
    unjudged = [r["query_id"] for r in ids if r[STATUS] == "unjudged"]
    totals = {key: float(value or 0.0) for key, value in done.items() if ":" in key}
    summary, missing, unjudged = cluster.finish(plan, totals, int(done["count"]), missing, unjudged)
    return ClusterEvaluation(evaluated.drop(STATUS), summary, missing, unjudged, plan.conventions)


def _as_query_frame(F: Any, frame: Any, kind: str) -> Any:
    """A ``user_id, item_id`` frame in ir_measures' words, by the local rules.

    The local :func:`rankmetrics.trec.recsys_frames.as_query_frame` reads the frame's empty
    pandas twin (the same refusals); the columns it adds are added here: ``relevance`` 1 to a
    test set without it, ``score = -rank`` to recommendations given by rank.
    """
    if "user_id" not in frame.columns and "item_id" not in frame.columns:
        return frame
    twin = as_query_frame(frame.limit(0).toPandas(), kind)
    for recommender, ours in RECSYS_COLUMNS.items():
        if recommender in frame.columns:
            frame = frame.withColumnRenamed(recommender, ours)
    if "relevance" in twin.columns and "relevance" not in frame.columns:
        frame = frame.withColumn("relevance", F.lit(1))  # implicit feedback: every test row relevant
    if "score" in twin.columns and "score" not in frame.columns:
        frame = frame.withColumn("score", -F.col("rank").cast("double"))  # rank 1 first
    return frame


def _check_schema(frame: Any, kind: str) -> None:
    from pyspark.sql import types as T

    from .trec import frames

    columns = frames.QRELS_COLUMNS if kind == "qrels" else frames.RUN_COLUMNS
    present = {field.name: field.dataType for field in frame.schema.fields}
    frames.check_columns(frame, kind, columns)  # the same refusal as for pandas
    for name in columns[:2]:
        if not isinstance(present[name], (T.StringType, T.IntegerType, T.LongType, T.ShortType)):
            raise ValueError(
                _(
                    "the {kind} DataFrame's column {name!r} must hold text ids (string); it has type {present}"
                ).format(kind=kind, name=name, present=present[name].simpleString())
            )
    if not isinstance(present[columns[2]], T.NumericType):
        raise ValueError(
            _("the {kind} DataFrame's column {columns!r} must hold numbers; it has type {present}").format(
                kind=kind, columns=columns[2], present=present[columns[2]].simpleString()
            )
        )


def _rows(F: Any, frame: Any, kind: str, n: int) -> Any:
    value = "relevance" if kind == "qrels" else "score"
    return frame.select(
        F.col("query_id").cast("string").alias("query_id"),
        F.col("doc_id").cast("string").alias("doc_id"),
        F.col(value).cast("double").alias(VALUE),
        F.pmod(F.xxhash64(F.col("query_id").cast("string")), F.lit(n)).alias(_BUCKET),
    )


def _schema(plan: cluster.Plan) -> Any:
    from pyspark.sql import types as T

    fields = [T.StructField("query_id", T.StringType()), T.StructField(STATUS, T.StringType())]
    for name in plan.names:
        kind = T.StringType() if name in plan.text_measures else T.DoubleType()
        fields.append(T.StructField(name, kind))
    return T.StructType(fields)


def read_qrels(spark: Any, path: str, *, fractional_grades: str = "error") -> Any:
    """A TREC qrels file as a Spark DataFrame ``query_id, doc_id, relevance``, by the local reader's rules.

    Spark splits the file into lines (``\\n``, ``\\r\\n``, ``\\r``; a
    ``.gz`` file is read whole) and hands them over as bytes, so that text
    which is not UTF-8 is refused, not replaced. Each batch of lines is parsed
    by the package's tokenizer and format rules
    (:func:`rankmetrics.trec.cluster.parse_part`), with its errors; a refused
    line is named by its line number in the file, as the local reader numbers
    it (the worker reads the file again from its start to count; where its
    Python cannot open the path, the message names the part of the file).
    """
    return _read(spark, path, "qrels", fractional_grades)


def read_run(spark: Any, path: str) -> Any:
    """A TREC run file as a Spark DataFrame ``query_id, doc_id, score``."""
    return _read(spark, path, "run", "error")


def _read(spark: Any, path: str, kind: str, fractional_grades: str) -> Any:
    F = _spark()
    from pyspark.sql import types as T

    value = "relevance" if kind == "qrels" else "score"
    schema = T.StructType(
        [
            T.StructField("query_id", T.StringType()),
            T.StructField("doc_id", T.StringType()),
            T.StructField(value, T.DoubleType()),
        ]
    )

    def parse(batches: Any) -> Any:
        import functools

        import numpy as np

        done: dict[tuple[str, int], int] = {}  # lines of each split (file, first byte) parsed so far
        for batch in batches:
            if not len(batch):
                continue
            where = batch["file"].to_numpy(dtype=object)
            starts = batch["start"].to_numpy(dtype=np.int64)
            lines = batch["line"].to_numpy(dtype=object)
            cuts = np.flatnonzero((where[1:] != where[:-1]) | (starts[1:] != starts[:-1])) + 1
            for lo, hi in zip([0, *cuts.tolist()], [*cuts.tolist(), len(batch)]):
                split = (where[lo], int(starts[lo]))
                first = done.get(split, 0) + 1
                done[split] = first - 1 + hi - lo
                yield cluster.parse_part(
                    b"\n".join(lines[lo:hi]) + b"\n",
                    _file_name(split[0]),
                    kind,
                    fractional_grades,
                    start=split[1],
                    first=first,
                    reopen=functools.partial(_open, split[0]),
                )

    # value as binary: the line's bytes as they are in the file (as text, Spark would
    # replace bytes that are not UTF-8 with U+FFFD instead of refusing them).
    lines = spark.read.text(path).select(
        F.col("value").cast("binary").alias("line"),
        F.col("_metadata.file_path").alias("file"),
        F.col("_metadata.file_block_start").alias("start"),
    )
    return lines.mapInPandas(parse, schema)


def _file_name(uri: str) -> str:
    from urllib.parse import unquote, urlparse

    return unquote(urlparse(uri).path).rstrip("/").rsplit("/", 1)[-1]


def _open(uri: str) -> Any:
    """The file at a Spark path, opened in binary mode on a worker (a local file, or by pyarrow)."""
    from urllib.parse import unquote, urlparse

    parsed = urlparse(uri)
    if parsed.scheme in ("", "file"):
        return open(unquote(parsed.path), "rb")
    from pyarrow import fs

    filesystem, inner = fs.FileSystem.from_uri(uri)
    return filesystem.open_input_stream(inner)
