"""rankmetrics.dask on a LocalCluster of two worker processes: the local evaluate is the oracle.

The inputs are split into more partitions than there are workers, rows
shuffled first, so every query's rows start out spread over several input
partitions; the shuffle by query must bring them together.
"""

from __future__ import annotations

import importlib.util
import logging
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rankmetrics as rm

distributed = pytest.importorskip(
    "distributed", reason='rankmetrics.dask needs dask: pip install "rankmetrics[dask]"'
)
dd = pytest.importorskip("dask.dataframe")
rmd = pytest.importorskip("rankmetrics.dask")

_spec = importlib.util.spec_from_file_location("cluster_cases", Path(__file__).with_name("cluster_cases.py"))
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)


# A dask LocalCluster of two worker processes, shared by the module's tests.
@pytest.fixture(scope="module")
def dask_client():
    # Two single-threaded worker processes: each partition runs in another Python than the driver.
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


EVERY = cases.every_measure()
AVERAGED = [n for n in EVERY if rm.trec.names.parse_metric(n).metric.averages_ties]


# Partitions of (qrels, run). Every query's rows start out spread over several partitions in
# both; the shuffle test runs on the larger split. The convention tests use the smaller one:
# the same shuffle and partition code, but a task graph a third the size (dask's scheduling of
# the hundreds of small tasks, not the metrics, is what a cluster test spends its time on).
WIDE, NARROW = (5, 7), (2, 3)


def _frames(qrels: pd.DataFrame, run: pd.DataFrame, n: tuple[int, int] = WIDE):
    return dd.from_pandas(qrels, npartitions=n[0], sort=False), dd.from_pandas(
        run, npartitions=n[1], sort=False
    )


def _local(qrels, run, names, **options):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*absent from the run and skipped", category=UserWarning)
        return rm.evaluate(qrels, run, names, **options)


def _both(qrels, run, names, parts=WIDE, **options):
    local = _local(qrels, run, names, **options)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*absent from the run and skipped", category=UserWarning)
        remote = rmd.evaluate(*_frames(qrels, run, parts), names, **options)
    return local, remote


@pytest.mark.parametrize("parts", [WIDE, NARROW], ids=["wide", "narrow"])
def test_the_inputs_split_queries_across_partitions(parts):
    qrels, run = cases.tie_heavy(0)
    for parted in _frames(qrels, run, parts):
        homes = {}
        for i in range(parted.npartitions):
            for qid in parted.get_partition(i).compute()["query_id"].unique():
                homes.setdefault(qid, set()).add(i)
        assert sum(len(h) > 1 for h in homes.values()) > len(homes) // 2


@pytest.mark.parametrize("seed", [0, 1])
def test_every_measure_equals_the_local_evaluate(dask_client, seed):
    qrels, run = cases.tie_heavy(seed)
    local, remote = _both(qrels, run, EVERY)
    cases.assert_same(remote.per_query.compute(), local, EVERY)
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
        {"relevance_level": 2},
        {"gain": "exponential", "ideal": "listed"},
        {"denominator": "retrieved_relevant"},
        {"score_precision": "float32"},
        {"like": "trec_eval-9"},
    ],
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()),
)
def test_each_convention_works_as_locally(dask_client, options):
    qrels, run = cases.tie_heavy(3)
    if "score_precision" in options:  # scores that tie only in 32 bits
        run = run.assign(score=run["score"] + np.where(np.arange(len(run)) % 2, 1e-9, 0.0))
    local, remote = _both(qrels, run, EVERY, parts=NARROW, **options)
    cases.assert_same(remote.per_query.compute(), local, EVERY)
    assert remote.conventions == local.conventions
    assert remote.summary["num_rel"] == local.summary["num_rel"]
    assert remote.summary["ap"] == pytest.approx(local.summary["ap"], rel=1e-12)


def test_ties_average_works_as_locally(dask_client):
    qrels, run = cases.tie_heavy(4)
    local, remote = _both(qrels, run, AVERAGED, parts=NARROW, ties="average")
    cases.assert_same(remote.per_query.compute(), local, AVERAGED)
    assert remote.summary["ndcg"] == pytest.approx(local.summary["ndcg"], rel=1e-12)


def test_missing_queries_warn_once_on_the_driver(dask_client):
    qrels, run = cases.tie_heavy(5)
    with pytest.warns(
        UserWarning, match=r"^8 judged queries are absent from the run and skipped: q16, q29, q3, q42,"
    ):
        rm.evaluate(qrels, run, "map")
    with pytest.warns(
        UserWarning, match=r"^8 judged queries are absent from the run and skipped: q16, q29, q3, q42,"
    ) as got:
        rmd.evaluate(*_frames(qrels, run, NARROW), "map")
    assert len(got) == 1


def test_bad_input_is_refused_naming_the_column(dask_client):
    qrels, run = cases.tie_heavy(7, queries=10)
    q, r = _frames(qrels, run, (2, 2))
    with pytest.raises(ValueError, match=r"the run DataFrame lacks the column 'score'"):
        rmd.evaluate(q, r.rename(columns={"score": "s"}), "map")
    with pytest.raises(ValueError, match=r"qrels DataFrame's column 'relevance' must hold numbers"):
        rmd.evaluate(q.assign(relevance="x"), r, "map")
    with pytest.raises(ValueError, match=r"qrels must be a dask DataFrame; got DataFrame"):
        rmd.evaluate(qrels, r, "map")
    with pytest.raises(ValueError, match=r"chunk_queries is for one machine"):
        rmd.evaluate(q, r, "map", chunk_queries=10)
    with pytest.raises(ValueError, match=r"ties='input_order' is not available on a cluster"):
        rmd.evaluate(q, r, "map", ties="input_order")
    with pytest.raises(ValueError, match=r"unknown metric 'mapp'"):
        rmd.evaluate(q, r, "mapp")
    bad = dd.from_pandas(
        run.assign(score=np.where(np.arange(len(run)) == 3, np.nan, run["score"])), npartitions=2
    )
    with pytest.raises(
        ValueError, match=r"the run DataFrame's column 'score', row \d+: must be a finite number"
    ):
        rmd.evaluate(q, bad, "map")


def _trec_files(tmp_path, qrels, run):
    qrels_path, run_path = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels_lines = [f"{q} 0 {d} {g}" for q, d, g in qrels.itertuples(index=False)]
    run_lines = [f"{q}\tQ0 {d} {i} {s!r} tag" for i, (q, d, s) in enumerate(run.itertuples(index=False))]
    qrels_path.write_text("# judged\n" + "\n".join(qrels_lines) + "\n", encoding="utf-8")
    run_path.write_bytes(("\r\n".join(["", "# a comment", *run_lines]) + "\r\n").encode())
    return qrels_path, run_path


def test_trec_files_read_in_blocks_score_as_locally(dask_client, tmp_path):
    qrels, run = cases.tie_heavy(8)
    qrels_path, run_path = _trec_files(tmp_path, qrels, run)
    # About 11 kB of judgements and 31 kB of run: four blocks each (every cut of a part, anywhere
    # in a line, is checked without a cluster in test_cluster_files.py).
    q = rmd.read_qrels(qrels_path, blocksize=3_000)
    r = rmd.read_run(run_path, blocksize=8_000)
    assert r.npartitions > 3 and q.npartitions > 3
    local = _local(qrels_path, run_path, EVERY, missing="zero")
    remote = rmd.evaluate(q, r, EVERY, missing="zero")
    cases.assert_same(remote.per_query.compute(), local, [n for n in EVERY if n != "runid"])


def test_trec_files_keep_the_local_line_rules(dask_client, tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("q1 Q0 d1 1 0.5 tag\nq1 Q0 d2 2 nan tag\n", encoding="utf-8")
    with pytest.raises(
        ValueError, match=r"run.txt line 2: the score must be a decimal number such as .*; got 'nan'"
    ):
        rmd.read_run(path).compute()
    path.write_text("q1 0 d1 0.5\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"run.txt line 1: the relevance 0.5 is not a whole grade"):
        rmd.read_qrels(path).compute()
    assert rmd.read_qrels(path, fractional_grades="keep").compute()["relevance"].tolist() == [0.5]


def test_a_refused_line_in_a_later_block_is_named_by_its_line_in_the_file(dask_client, tmp_path):
    qrels, run = cases.tie_heavy(9)
    qrels_path, run_path = _trec_files(tmp_path, qrels, run)
    lines = run_path.read_bytes().split(b"\r\n")
    lines[300] = lines[300].replace(b"tag", "caf\xe9".encode("latin-1"))  # line 301: Latin-1, not UTF-8
    run_path.write_bytes(b"\r\n".join(lines))
    assert sum(len(line) + 2 for line in lines[:300]) > 2 * 3_000  # past the second block
    with pytest.raises(ValueError) as local:
        rm.read_run(run_path)
    assert str(local.value) == "run.txt line 301: not UTF-8 text (byte 0xe9); save the file as UTF-8"
    blocks = rmd.read_run(run_path, blocksize=3_000)
    assert blocks.npartitions > 3
    with pytest.raises(ValueError) as remote:
        blocks.compute()
    assert str(remote.value) == str(local.value)
    # A fractional grade: the local reader's message too (the part alone would count from its block).
    text = qrels_path.read_text(encoding="utf-8").splitlines()
    text[250] = text[250].rsplit(" ", 1)[0] + " 1.5"  # line 251
    qrels_path.write_text("\n".join(text) + "\n", encoding="utf-8")
    with pytest.raises(ValueError) as local:
        rm.read_qrels(qrels_path)
    assert str(local.value).startswith("qrels.txt line 251: the relevance 1.5 is not a whole grade")
    with pytest.raises(ValueError) as remote:
        rmd.read_qrels(qrels_path, blocksize=2_000).compute()
    assert str(remote.value) == str(local.value)
    with pytest.raises(ValueError, match=r"qrels file '.*absent\.txt' does not exist"):
        rmd.read_qrels(tmp_path / "absent.txt")


# Last: it restarts the workers.
def test_a_worker_with_another_version_is_refused(dask_client):
    qrels, run = cases.tie_heavy(6, queries=20)

    def fake_version():
        import rankmetrics

        rankmetrics.__version__ = "0.0.0-other"

    dask_client.run(fake_version)
    try:
        with pytest.raises(
            RuntimeError, match=r"rankmetrics 0.0.0-other is installed on this worker but the driver"
        ):
            rmd.evaluate(*_frames(qrels, run), "map", missing="zero")
    finally:
        dask_client.restart()  # fresh worker processes: the installed version, no failed tasks remembered
    qrels, run = cases.tie_heavy(6, queries=21)  # new data: the scheduler remembers the failed tasks' keys
    assert rmd.evaluate(*_frames(qrels, run), "map", missing="zero").summary["map"] == pytest.approx(
        rm.evaluate(qrels, run, "map", missing="zero").summary["map"], rel=1e-12
    )


RECSYS = cases.RECOMMENDER_MEASURES


@pytest.mark.parametrize("options", [{}, {"like": "replay"}], ids=["default", "like=replay"])
def test_the_recommender_route_gives_each_user_the_local_value(dask_client, options):
    # user_id, item_id frames, implicit grade 1: the cluster's per-user values are the local
    # evaluate's, and those equal the same data given the long way (query_id, doc_id, relevance 1).
    test, recs = cases.recommender_frames(9)
    local = _local(test, recs, RECSYS, **options)
    long_way = _local(*cases.as_queries(test, recs), RECSYS, **options)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*absent from the run and skipped", category=UserWarning)
        remote = rmd.evaluate(*_frames(test, recs, NARROW), RECSYS, **options)
    cases.assert_same(remote.per_query.compute(), local, RECSYS)
    cases.assert_same(local.to_pandas(), long_way, RECSYS)
    # like="replay" scores a user with test items but no list 0 (missing="zero"); the default skips it.
    assert len(local.queries) == (82 if options else 72)  # 90 users: 8 without test items, 10 without a list
    assert remote.missing_queries == local.missing_queries
    assert remote.unjudged_queries == local.unjudged_queries and len(local.unjudged_queries) == 8
    for name in RECSYS:
        assert remote.summary[name] == pytest.approx(local.summary[name], rel=1e-12, abs=1e-15), name


def test_recommendations_given_by_rank_are_ordered_by_it_on_the_cluster(dask_client):
    # A rank column (1 first) and no score: each user's list in the order of its ranks, here the
    # reverse of the item ids, so the same as scores that fall with the item id.
    test, recs = cases.recommender_frames(10)
    ranked = recs.drop(columns="score").assign(rank=recs.groupby("user_id")["item_id"].rank(ascending=False))
    scored = recs.assign(score=-ranked["rank"])
    local = _local(test, scored, RECSYS)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*absent from the run and skipped", category=UserWarning)
        remote = rmd.evaluate(*_frames(test, ranked, NARROW), RECSYS)
    cases.assert_same(remote.per_query.compute(), local, RECSYS)
