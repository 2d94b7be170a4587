"""Document ids as one numpy array of str, from a file, a dict or a DataFrame, and grades matched by sorting.

The ids must be the same array whichever route they came by, an id longer
than the fixed-width bound must still work (as Python strings), and the
sort that matches documents to judgements must never give a document
another's grade, nor take the rows' padding for an id: the tests check the
grades found against ones worked out by hand.
"""

import io

import numpy as np
import pytest

import rankmetrics as rm
from rankmetrics.trec import files, ranking, records
from rankmetrics.trec.io import tokens
from rankmetrics.trec.records import Records, id_array

IDS = ["d1", "d10", "doc-ä-7", "x" * 70, "GX000-12-3456789", "d1"]


def _from_block(ids):
    """The ids as the reader makes them: one token per line of a block."""
    blob = "".join(f"{i}\n" for i in ids).encode("utf-8")
    block = tokens.split(blob, 1, "t")
    return block.strings(block.starts)


def test_file_and_dict_ids_are_the_same_array():
    short = IDS[:3] + IDS[4:]  # no id longer than the bound: dtype U, as wide as the longest
    from_file, from_dict = _from_block(short), id_array(short)
    assert from_file.dtype == from_dict.dtype == np.dtype("<U16")
    assert from_file.tolist() == from_dict.tolist() == short
    # One id of 70 characters (> LONG = 64): Python strings, so that it does not widen every row.
    assert _from_block(IDS).dtype == id_array(IDS).dtype == object
    assert _from_block(IDS).tolist() == id_array(IDS).tolist() == IDS
    # A dict's id may hold white space, even a line end, or be empty: the array keeps it.
    odd = id_array(["a b", "a\nb", "", "a"])
    assert odd[[1, 0, 2, 3]].tolist() == ["a\nb", "a b", "", "a"]


def test_block_ids_bytes_and_neighbours():
    blob = "q1 a\nq1 bb\nq10 c\nq1 ä\n".encode()
    block = tokens.split(blob, 1, "t")
    qids = block.starts
    assert block.bytes_array(qids).tolist() == [b"q1", b"q1", b"q10", b"q1"]
    assert block.same_as_previous(qids).tolist() == [False, True, False, False]
    assert block.strings(qids + 1).tolist() == ["a", "bb", "c", "ä"]  # not ASCII: decoded as UTF-8


def test_duplicates_found_by_sorting_each_query():
    # q1: d1 at 0, 2 and 4 (three times); q2: "" (a dict's empty id) once, then twice.
    ids = id_array(["d1", "d2", "d1", "d3", "d1", "", "x", ""])
    both = Records(["q1", "q2"], np.array([5, 3]), ids, np.zeros(8))
    assert sorted(records.duplicate_pairs(both)) == [(0, 0, 2), (0, 2, 4), (1, 5, 7)]
    # One "" only, in a query shorter than the other: the row's padding ("") is no second copy.
    once = Records(["q1", "q2"], np.array([3, 1]), id_array(["a", "b", "c", ""]), np.zeros(4))
    assert records.duplicate_pairs(once) == []


def test_the_padding_is_never_a_judged_document():
    # q1 retrieves "" (possible in a dict) and d1; its judgements are d1 (2) and d2 (1), no "".
    # q2 retrieves "" and it is judged (grade 3). Rows are padded with "", which must match nothing.
    judged = ranking.Judgements.of({"q1": {"d1": 2, "d2": 1}, "q2": {"": 3, "d9": 0, "d8": 0}})
    groups = Records(["q1", "q2"], np.array([2, 1]), id_array(["", "d1", ""]), np.array([0.9, 0.8, 0.5]))
    found = judged.grades(groups, judged.rows(groups.qids))
    assert np.isnan(found[0]) and found[1:].tolist() == [2.0, 3.0]


def test_records_of_a_file_hold_an_array_of_str():
    read = files.qrels_records(io.StringIO("q1 0 d1 1\nq2 0 d1 0\nq1 0 d2 1\n"))
    assert isinstance(read, Records) and read.docnos.dtype.kind == "U"
    assert (read.qids, read.docnos.tolist()) == (["q1", "q2"], ["d1", "d2", "d1"])
    with pytest.raises(ValueError, match="document 'd1' of query 'q1' already appears on line 1"):
        files.qrels_records(io.StringIO("q1 0 d1 1\nq1 0 d1 0\n"))


def test_long_ids_from_a_file_evaluate_as_short_ones():
    # The same qrels and run, once with ids of 2 characters and once with ids of 300 (object arrays).
    long = {f"d{i}": f"d{i}" + "z" * 298 for i in range(1, 5)}
    qrels = "q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\nq2 0 d4 1\n"
    run = "q1 Q0 d3 1 0.9 t\nq1 Q0 d2 2 0.9 t\nq1 Q0 d1 3 0.5 t\nq2 Q0 d1 1 0.7 t\nq2 Q0 d4 2 0.2 t\n"
    measures = ["map", "ndcg", "P_2"]
    short = rm.evaluate(io.StringIO(qrels), io.StringIO(run), measures)
    for name, text in long.items():
        qrels, run = qrels.replace(f"{name} ", f"{text} "), run.replace(f"{name} ", f"{text} ")
    longer = rm.evaluate(io.StringIO(qrels), io.StringIO(run), measures)
    assert longer.queries == short.queries
    for m in measures:
        np.testing.assert_array_equal(longer.per_query[m], short.per_query[m])
    # q1 by hand: d3 and d2 tie at 0.9, docno descending puts d3 (grade 1) first, then d2 (0),
    # then d1 (2): relevant at ranks 1 and 3 of 2 relevant, AP = (1/1 + 2/3) / 2.
    assert short.per_query["map"][0] == pytest.approx((1 + 2 / 3) / 2)


def test_files_and_dicts_in_every_combination_find_the_same_grades(tmp_path):
    # q1: d2 (grade 0) then d1 (2) then d4 (not judged); q2: d3 (1) then d5 (-1, pooled but unjudged)
    qrels_text = "q1 0 d1 2\nq1 0 d2 0\nq2 0 d3 1\nq2 0 d5 -1\nq3 0 d9 1\n"
    run_text = "q1 Q0 d2 1 0.9 t\nq1 Q0 d1 2 0.8 t\nq1 Q0 d4 3 0.7 t\nq2 Q0 d3 1 0.5 t\nq2 Q0 d5 2 0.4 t\n"
    (tmp_path / "qrels").write_text(qrels_text)
    (tmp_path / "run").write_text(run_text)
    qrels_dict = {"q1": {"d1": 2, "d2": 0}, "q2": {"d3": 1, "d5": -1}, "q3": {"d9": 1}}
    run_dict = {"q1": {"d2": 0.9, "d1": 0.8, "d4": 0.7}, "q2": {"d3": 0.5, "d5": 0.4}}
    expected = {"q1": [0.0, 2.0, 0.0], "q2": [1.0, -1.0, 0.0]}
    for qrels in (tmp_path / "qrels", qrels_dict):
        judged = files.judged(qrels)
        for run in (tmp_path / "run", run_dict):
            groups = next(files.run_records(run, None))
            ranked = ranking.rank(groups, judged, None, "docno_descending", "float64")
            assert dict(zip(ranked.queries, ranked.grades.tolist())) == expected
            assert ranked.judged.tolist() == [[True, True, False], [True, True, False]]
    # Grades truncated: q1's d1 is read as 1 (from 1.5), whichever route.
    assert files.judged({"q1": {"d1": 1.5}}, "truncate").records.values.tolist() == [1.0]


def test_tokens_longer_than_the_bound_read_one_by_one():
    long_score = "0." + "0" * 77 + "15"  # 81 bytes: past LONG, so token by token, then float()
    records = files.parse(f"q Q0 d1 1 {long_score} t\nq Q0 d2 2 -3 t\n".encode(), 1, "run", files.RUN)
    assert records.values.tolist() == [float(long_score), -3.0] and records.values[0] == 1.5e-78
    with pytest.raises(ValueError, match="line 2: the score must be a decimal number"):
        files.parse(f"q Q0 d1 1 {long_score} t\nq Q0 d2 2 1_0 t\n".encode(), 1, "run", files.RUN)


def test_queries_sorted_a_slice_at_a_time_give_the_same_answers(monkeypatch, trec_eval_data):
    qrels, run = trec_eval_data / "qrels.test", trec_eval_data / "results.test"
    measures = ["map", "P_5", "ndcg_cut_10", "recip_rank", "num_rel_ret"]
    whole = rm.evaluate(qrels, run, measures)
    # q1: d1 at 0 and 3; q3: d2 at 5 and 6; a slice boundary between each query.
    twice = Records(["q1", "q2", "q3"], np.array([4, 1, 2]), id_array(list("abcaxbb")), np.zeros(7))
    assert records.duplicate_pairs(twice) == [(0, 0, 3), (2, 5, 6)]
    monkeypatch.setattr(records, "QUERIES_AT_ONCE", 1)
    monkeypatch.setattr(ranking, "QUERIES_AT_ONCE", 2)
    assert records.duplicate_pairs(twice) == [(0, 0, 3), (2, 5, 6)]
    sliced = rm.evaluate(qrels, run, measures)
    assert sliced.queries == whole.queries
    for m in measures:
        np.testing.assert_array_equal(sliced.per_query[m], whole.per_query[m])
