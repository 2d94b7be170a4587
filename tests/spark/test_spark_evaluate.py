"""rankmetrics.spark on local[2]: per-query values equal the local evaluate's, convention by convention."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import sys
import warnings
from pathlib import Path

import pytest

import rankmetrics as rm

_spec = importlib.util.spec_from_file_location(
    "cluster_cases", Path(__file__).resolve().parents[1] / "dask" / "cluster_cases.py"
)
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)

# A local[2] SparkSession. Without pyspark (make test's venv) the tests skip. With pyspark but without
# Java they skip too, except under CI=true, where the tier must run: they fail.


def _unavailable(reason: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"the Spark tier cannot run under CI: {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


@pytest.fixture(scope="module")
def spark():
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        _unavailable("pyspark is not installed (make test-spark builds .venv-spark with it)")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        _unavailable("Java is not installed (Spark needs Java 17 or newer)")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # the workers run this Python
    session = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


EVERY = cases.every_measure()
AVERAGED = [n for n in EVERY if rm.trec.names.parse_metric(n).metric.averages_ties]


def _local(qrels, run, names, **options):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*absent from the run and skipped", category=UserWarning)
        return rm.evaluate(qrels, run, names, **options)


def _both(spark, qrels, run, names, **options):
    import rankmetrics.spark as rms

    local = _local(qrels, run, names, **options)
    # Rows shuffled and spread over 5 input partitions: a query starts out in several of them.
    q = spark.createDataFrame(qrels).repartition(5)
    r = spark.createDataFrame(run).repartition(5)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*absent from the run and skipped", category=UserWarning)
        remote = rms.evaluate(q, r, names, **options)
    return local, remote


def test_the_package_comes_from_the_installed_wheel(spark):
    if os.environ.get("CI") == "true" or "site-packages" in rm.__file__:
        assert "site-packages" in rm.__file__, rm.__file__
    worker = (
        spark.sparkContext.parallelize([0], 1).map(lambda _: __import__("rankmetrics").__file__).collect()[0]
    )
    assert worker == rm.__file__
    assert os.environ["PYSPARK_PYTHON"] == sys.executable or Path(os.environ["PYSPARK_PYTHON"]).exists()


@pytest.mark.parametrize("seed", [0])
def test_every_measure_equals_the_local_evaluate(spark, seed):
    qrels, run = cases.tie_heavy(seed)
    local, remote = _both(spark, qrels, run, EVERY)
    cases.assert_same(remote.per_query.toPandas(), local, EVERY)
    assert remote.missing_queries == local.missing_queries and local.missing_queries
    assert remote.unjudged_queries == local.unjudged_queries and local.unjudged_queries
    for name in EVERY:
        if isinstance(local.summary[name], str):
            assert remote.summary[name] == local.summary[name]
        else:
            assert remote.summary[name] == pytest.approx(local.summary[name], rel=1e-12, abs=1e-15), name


@pytest.mark.parametrize(
    "options",
    [
        {"missing": "zero"},
        {"judged_only": True},
        {"max_documents": 4},
        {"reference": "trec_eval-9"},
        {"relevance_level": 2, "gain": "exponential"},
    ],
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()),
)
def test_each_convention_works_as_locally(spark, options):
    qrels, run = cases.tie_heavy(3, queries=60)
    local, remote = _both(spark, qrels, run, EVERY, **options)
    cases.assert_same(remote.per_query.toPandas(), local, EVERY)
    assert remote.conventions == local.conventions


def test_ties_average_works_as_locally(spark):
    qrels, run = cases.tie_heavy(4, queries=60)
    local, remote = _both(spark, qrels, run, AVERAGED, ties="average")
    cases.assert_same(remote.per_query.toPandas(), local, AVERAGED)


def test_a_worker_with_another_version_is_refused(spark, monkeypatch):
    import rankmetrics.spark as rms

    qrels, run = cases.tie_heavy(6, queries=10)
    # The driver claims another version; the workers, separate Pythons, import the installed one.
    monkeypatch.setattr(rm, "__version__", "0.0.0-driver")
    with pytest.raises(
        Exception,
        match=r"rankmetrics \S+ is installed on this worker but the driver runs rankmetrics 0.0.0-driver",
    ):
        rms.evaluate(spark.createDataFrame(qrels), spark.createDataFrame(run), "map", missing="zero")


def test_bad_input_is_refused_naming_the_column(spark):
    import rankmetrics.spark as rms

    qrels, run = cases.tie_heavy(7, queries=5)
    q, r = spark.createDataFrame(qrels), spark.createDataFrame(run)
    with pytest.raises(ValueError, match=r"the run DataFrame lacks the column 'score'"):
        rms.evaluate(q, r.withColumnRenamed("score", "s"), "map")
    with pytest.raises(
        ValueError, match=r"qrels DataFrame's column 'relevance' must hold numbers; it has type string"
    ):
        rms.evaluate(q.withColumn("relevance", q["query_id"]), r, "map")
    with pytest.raises(
        ValueError, match=r"run DataFrame's column 'doc_id' must hold text ids \(string\); it has type double"
    ):
        rms.evaluate(q, r.withColumn("doc_id", r["score"]), "map")
    with pytest.raises(ValueError, match=r"qrels must be a pyspark.sql.DataFrame; got DataFrame"):
        rms.evaluate(qrels, r, "map")


@contextlib.contextmanager
def small_splits(spark, size: int = 2_048):
    """Spark cuts a file into splits of ``size`` bytes, each read by its own task."""
    key = "spark.sql.files.maxPartitionBytes"
    before = spark.conf.get(key)
    spark.conf.set(key, str(size))
    try:
        yield
    finally:
        spark.conf.set(key, before)


def test_trec_files_go_through_the_local_line_rules(spark, tmp_path):
    import rankmetrics.spark as rms

    qrels, run = cases.tie_heavy(8, queries=40)
    qrels_path, run_path = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels_path.write_text(
        "# judged\n" + "".join(f"{q} 0 {d} {g}\n" for q, d, g in qrels.itertuples(index=False)),
        encoding="utf-8",
    )
    run_path.write_bytes(
        b"\xef\xbb\xbf"  # a byte-order mark
        + "".join(
            f"{q}\tQ0 {d} {i} {s!r} tag\r\n" for i, (q, d, s) in enumerate(run.itertuples(index=False))
        ).encode()
    )
    local = _local(qrels_path, run_path, EVERY, missing="zero")
    with small_splits(spark, 1_024):
        q, r = rms.read_qrels(spark, str(qrels_path)), rms.read_run(spark, str(run_path))
        assert q.rdd.getNumPartitions() > 2 and r.rdd.getNumPartitions() > 2
        remote = rms.evaluate(q, r, EVERY, missing="zero")
        cases.assert_same(remote.per_query.toPandas(), local, [n for n in EVERY if n != "runid"])
    bad = tmp_path / "bad.txt"
    bad.write_text("q1 Q0 d1 1 0.5 tag\nq1 Q0 d2 2 1_000 tag\n", encoding="utf-8")
    with pytest.raises(Exception, match=r"bad.txt line 2: the score must be a decimal number"):
        rms.read_run(spark, str(bad)).collect()


def _local_error(read, path) -> str:
    with pytest.raises(ValueError) as error:
        read(path)
    return str(error.value)


def test_text_that_is_not_utf8_is_refused_as_locally(spark, tmp_path):
    import rankmetrics.spark as rms

    path = tmp_path / "latin1.qrels"
    path.write_bytes("q 0 a 1\nq 0 caf\xe9 1\n".encode("latin-1"))
    expected = _local_error(rm.read_qrels, path)
    assert expected == "latin1.qrels line 2: not UTF-8 text (byte 0xe9); save the file as UTF-8"
    with pytest.raises(Exception) as remote:
        rms.read_qrels(spark, str(path)).collect()
    assert expected in str(remote.value)


def test_a_refused_line_in_a_later_split_is_named_by_its_line_in_the_file(spark, tmp_path):
    import rankmetrics.spark as rms

    lines = [f"q{i // 10} Q0 d{i} {i % 10 + 1} {1 / (i + 1)!r} tag\n".encode() for i in range(400)]
    assert sum(map(len, lines[:300])) > 3 * 2_048  # line 301 lies past the third split
    path = tmp_path / "run.txt"
    for bad, message in (
        (
            lines[300].replace(b"tag", "caf\xe9".encode("latin-1")),
            "run.txt line 301: not UTF-8 text (byte 0xe9)",
        ),
        (lines[300].replace(b" 0.", b" nan0."), "run.txt line 301: the score must be a decimal number"),
    ):
        path.write_bytes(b"".join([*lines[:300], bad, *lines[301:]]))
        expected = _local_error(rm.read_run, path)
        assert expected.startswith(message)
        with small_splits(spark), pytest.raises(Exception) as remote:
            rms.read_run(spark, str(path)).collect()
        assert expected in str(remote.value)


RECSYS = cases.RECOMMENDER_MEASURES


@pytest.mark.parametrize("options", [{}, {"like": "replay"}], ids=["default", "like=replay"])
def test_the_recommender_route_gives_each_user_the_local_value(spark, options):
    # user_id, item_id frames, implicit grade 1 (no relevance column): the per-user values on
    # Spark are the local evaluate's, which equal the same data given the long way.
    test, recs = cases.recommender_frames(9)
    local, remote = _both(spark, test, recs, RECSYS, **options)
    long_way = _local(*cases.as_queries(test, recs), RECSYS, **options)
    cases.assert_same(remote.per_query.toPandas(), local, RECSYS)
    cases.assert_same(local.to_pandas(), long_way, RECSYS)
    assert len(local.queries) == (82 if options else 72)  # 90 users: 8 without test items, 10 without a list
    assert remote.missing_queries == local.missing_queries
    assert remote.unjudged_queries == local.unjudged_queries and len(local.unjudged_queries) == 8


def test_recommendations_given_by_rank_are_ordered_by_it_on_spark(spark):
    import rankmetrics.spark as rms

    test, recs = cases.recommender_frames(10)
    ranked = recs.drop(columns="score").assign(rank=recs.groupby("user_id")["item_id"].rank(ascending=False))
    local = _local(test, recs.assign(score=-ranked["rank"]), RECSYS)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*absent from the run and skipped", category=UserWarning)
        remote = rms.evaluate(spark.createDataFrame(test), spark.createDataFrame(ranked), RECSYS)
    cases.assert_same(remote.per_query.toPandas(), local, RECSYS)
    with pytest.raises(ValueError, match=r"has both recommender columns \(user_id, item_id\) and"):
        rms.evaluate(spark.createDataFrame(test.assign(query_id="x")), spark.createDataFrame(recs), RECSYS)
