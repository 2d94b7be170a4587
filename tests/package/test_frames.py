"""pandas DataFrames as evaluate's input: the same values as dicts, the same checks, messages naming the column."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import rankmetrics as rm

METRICS = ["map", "ndcg@10", "P@5", "recip_rank", "num_rel", "gm_map", "relstring"]


def _random(seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    judged = [
        (f"q{q}", f"d{d}", int(rng.integers(-1, 4))) for q in range(30) for d in rng.choice(20, 6, False)
    ]
    listed = [
        (f"q{q}", f"d{d}", float(rng.integers(0, 3))) for q in range(2, 33) for d in rng.choice(20, 9, False)
    ]
    qrels = pd.DataFrame(judged, columns=["query_id", "doc_id", "relevance"]).sample(
        frac=1, random_state=seed
    )
    run = pd.DataFrame(listed, columns=["query_id", "doc_id", "score"]).sample(frac=1, random_state=seed)
    return qrels, run


def _nested(frame: pd.DataFrame, value: str) -> dict:
    nested: dict = {}
    for qid, doc, x in frame[["query_id", "doc_id", value]].itertuples(index=False):
        nested.setdefault(qid, {})[doc] = x
    return nested


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("options", [{}, {"missing": "zero"}, {"judged_only": True}, {"chunk_queries": 4}])
def test_frames_score_as_the_same_dicts(seed, options):
    qrels, run = _random(seed)
    with pytest.warns(UserWarning, match="absent from the run") if "missing" not in options else _nothing():
        from_frames = rm.evaluate(qrels, run, METRICS, **options)
    with pytest.warns(UserWarning, match="absent from the run") if "missing" not in options else _nothing():
        from_dicts = rm.evaluate(_nested(qrels, "relevance"), _nested(run, "score"), METRICS, **options)
    assert from_frames.queries == from_dicts.queries
    for name in METRICS:
        assert from_frames.per_query[name].tolist() == from_dicts.per_query[name].tolist()
    assert from_frames.summary == from_dicts.summary
    assert from_frames.missing_queries == from_dicts.missing_queries == ("q0", "q1")
    assert from_frames.unjudged_queries == from_dicts.unjudged_queries == ("q30", "q31", "q32")


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_to_pandas_holds_the_per_query_values():
    qrels = {"q1": {"d1": 2, "d2": 0, "d3": 1}, "q2": {"d4": 1}}
    run = {"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.1}, "q2": {"d5": 0.7, "d4": 0.5}}
    frame = rm.evaluate(qrels, run, ["map", "p@2", "relstring"]).to_pandas()
    assert frame.columns.tolist() == ["query_id", "map", "p@2", "relstring"]
    assert frame["query_id"].tolist() == ["q1", "q2"]
    assert frame["map"].tolist() == [(1 + 2 / 3) / 2, 0.5]  # q1: d1, d3 relevant at 1 and 3
    assert frame["p@2"].tolist() == [0.5, 0.5]
    assert frame["relstring"].tolist() == ["201", "-1"]  # grades in rank order; d5 unjudged


def test_whole_number_ids_read_as_their_digits():
    qrels = pd.DataFrame({"query_id": [301, 301], "doc_id": [7, 10], "relevance": [1, 0]})
    run = pd.DataFrame({"query_id": [301, 301], "doc_id": [7, 10], "score": [1.0, 1.0]})
    result = rm.evaluate(qrels, run, ["rr"])
    assert result.queries == ("301",)
    # A tie, broken by docno descending as text: "7" > "10", so the relevant 7 comes first.
    assert result.per_query["rr"].tolist() == [1.0]
    as_dicts = rm.evaluate({"301": {"7": 1, "10": 0}}, {"301": {"7": 1.0, "10": 1.0}}, "rr")
    assert as_dicts.per_query["rr"].tolist() == [1.0]


def test_number_ids_give_the_values_and_refusals_of_their_digits_as_text():
    # Number ids are factorised as numbers and written once each; the result must be the one the
    # same ids give as text: random users x items, scores with ties (broken by the digits as text).
    rng = np.random.default_rng(5)
    users, items = rng.integers(0, 40, 600), rng.integers(0, 90, 600)
    run = pd.DataFrame({"query_id": users, "doc_id": items, "score": rng.integers(0, 4, 600) / 2})
    run = run.drop_duplicates(["query_id", "doc_id"])
    qrels = pd.DataFrame(
        {"query_id": users[:300], "doc_id": items[::2], "relevance": rng.integers(0, 3, 300)}
    )
    qrels = qrels.drop_duplicates(["query_id", "doc_id"])
    as_text = {c: lambda f, c=c: f[c].astype(str).astype(object) for c in ("query_id", "doc_id")}
    names = ["map", "ndcg_cut_10", "P@5", "recip_rank"]
    by_number = rm.evaluate(qrels, run, names)
    by_text = rm.evaluate(qrels.assign(**as_text), run.assign(**as_text), names)
    assert by_number.queries == by_text.queries and len(by_number.queries) > 30
    for name in names:
        assert by_number.per_query[name].tolist() == by_text.per_query[name].tolist()
    # A repeat is named by its frame rows, as with text ids: (7, 3) in rows 0 and 2.
    repeated = pd.DataFrame({"query_id": [7, 8, 7], "doc_id": [3, 3, 3], "score": [1.0, 1.0, 0.5]})
    with pytest.raises(ValueError, match=r"document '3' of query '7' appears in rows 0 and 2 "):
        rm.evaluate(pd.DataFrame({"query_id": [7], "doc_id": [3], "relevance": [1]}), repeated, "P@1")
    # Rows already grouped by query (kept in place, not sorted): the same values, the same refusal.
    grouped = run.sort_values("query_id", kind="stable")
    assert rm.evaluate(qrels, grouped, names).per_query["map"].tolist() == by_number.per_query["map"].tolist()
    with pytest.raises(ValueError, match=r"document '3' of query '7' appears in rows 0 and 2 "):
        rm.evaluate(qrels, repeated.sort_values("query_id", kind="stable"), "P@1")


def test_fractional_grades_follow_the_policy():
    qrels = pd.DataFrame({"query_id": ["q"] * 2, "doc_id": ["a", "b"], "relevance": [0.5, 1.0]})
    run = pd.DataFrame({"query_id": ["q"] * 2, "doc_id": ["a", "b"], "score": [2.0, 1.0]})
    with pytest.raises(ValueError, match=r"column 'relevance', row 0: 0.5 is not a whole grade"):
        rm.evaluate(qrels, run, "map")
    assert rm.evaluate(qrels, run, "map", fractional_grades="truncate").per_query["map"].tolist() == [0.5]
    kept = rm.evaluate(qrels, run, "ndcg", fractional_grades="keep").per_query["ndcg"]
    dicts = rm.evaluate(
        {"q": {"a": 0.5, "b": 1.0}}, {"q": {"a": 2.0, "b": 1.0}}, "ndcg", fractional_grades="keep"
    )
    assert kept.tolist() == dicts.per_query["ndcg"].tolist()


_GOOD_QRELS = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["a", "b"], "relevance": [1, 0]})
_GOOD_RUN = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["a", "b"], "score": [0.5, 0.25]})


@pytest.mark.parametrize(
    ("which", "change", "message"),
    [
        ("run", lambda f: f.drop(columns="score"), r"the run DataFrame lacks the column 'score'"),
        (
            "qrels",
            lambda f: f.rename(columns={"doc_id": "docno"}),
            r"qrels DataFrame lacks the column 'doc_id'",
        ),
        ("run", lambda f: f.assign(score=["x", "y"]), r"run DataFrame's column 'score' must hold numbers"),
        (
            "run",
            lambda f: f.assign(doc_id=[1.5, 2.5]),
            r"column 'doc_id' must hold text ids \(str\); it has dtype",
        ),
        (
            "qrels",
            lambda f: f.assign(doc_id=["a", 3]),
            r"column 'doc_id' must hold text ids \(str\); row 1 holds 3",
        ),
        (
            "run",
            lambda f: f.assign(doc_id=["a", "b\x00"]),
            r"column 'doc_id', row 1: an id must not hold a NUL",
        ),
        (
            "run",
            lambda f: f.assign(score=[0.5, np.inf]),
            r"column 'score', row 1: must be a finite number; got inf",
        ),
        (
            "qrels",
            lambda f: f.assign(relevance=[1, None]),
            r"column 'relevance', row 1: must be a finite number",
        ),
        (
            "run",
            lambda f: f.assign(doc_id=["a", "a"]),
            r"run DataFrame: document 'a' of query 'q1' appears in rows 0 and 1 \('query_id', 'doc_id'\)",
        ),
    ],
)
def test_bad_frames_are_refused_naming_the_column(which, change, message):
    qrels, run = _GOOD_QRELS, _GOOD_RUN
    if which == "run":
        run = change(run)
    else:
        qrels = change(qrels)
    with pytest.raises(ValueError, match=message):
        rm.evaluate(qrels, run, "map")


def test_import_rankmetrics_needs_no_pandas_dask_or_pyspark():
    code = (
        "import sys, rankmetrics, rankmetrics.dask, rankmetrics.spark; "
        "print(sorted(m for m in ('pandas', 'dask', 'pyspark', 'distributed') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("module", "hidden", "message"),
    [
        (
            "rankmetrics.dask",
            ("dask", "dask.dataframe"),
            'rankmetrics.dask needs dask: pip install "rankmetrics[dask]"',
        ),
        (
            "rankmetrics.spark",
            ("pyspark", "pyspark.sql"),
            "rankmetrics.spark needs pyspark (and pandas, pyarrow): pip",
        ),
    ],
)
def test_a_missing_engine_is_named_with_its_extra(module, hidden, message):
    code = (
        f"import sys\nfor name in {hidden!r}: sys.modules[name] = None  # as if not installed\n"
        f"import {module} as engine\n"
        "try:\n    engine.evaluate(None, None, 'map')\nexcept ImportError as error:\n    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.startswith(message)


def test_a_repeated_document_and_a_fractional_grade_are_named_by_their_frame_rows():
    # rows: 0 q1/a, 1 q2/b, 2 q1/c, 3 q2/b (repeats row 1), 4 q1/a (repeats row 0).
    # Grouped by query the q1 pair comes first, but in the frame row 3 comes before row 4:
    # the refusal names the first repeat met reading the frame, rows 1 and 3.
    run = pd.DataFrame(
        {"query_id": ["q1", "q2", "q1", "q2", "q1"], "doc_id": ["a", "b", "c", "b", "a"], "score": [1.0] * 5},
        index=[10, 11, 12, 13, 14],
    )
    with pytest.raises(ValueError, match=r"document 'b' of query 'q2' appears in rows 11 and 13 "):
        rm.evaluate(pd.DataFrame({"query_id": ["q1"], "doc_id": ["a"], "relevance": [1]}), run, "P@1")
    # grades 1, 2.5 (row 11, query q2), 0.5 (row 12, q1): q1's 0.5 is first by query, 2.5 first in the frame
    qrels = pd.DataFrame(
        {"query_id": ["q1", "q2", "q1"], "doc_id": ["a", "b", "c"], "relevance": [1, 2.5, 0.5]}
    )
    qrels.index = [10, 11, 12]
    ok_run = pd.DataFrame({"query_id": ["q1"], "doc_id": ["a"], "score": [1.0]})
    with pytest.raises(ValueError, match=r"column 'relevance', row 11: 2.5 is not a whole grade .*as 2\)"):
        rm.evaluate(qrels, ok_run, "P@1")
