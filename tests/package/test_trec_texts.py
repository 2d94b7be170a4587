"""Document ids kept as bytes with a key each (rankmetrics.trec.io.texts), and grades matched by key.

The keys must be the same for the same id whether it came from a file or a
dict, and a match by key must never give a document another's grade: the
collision tests force every key to be equal and check the grades found
against ones worked out by hand.
"""

import io

import numpy as np
import pytest

import rankmetrics as rm
from rankmetrics.trec import files, ranking
from rankmetrics.trec.io import texts, tokens
from rankmetrics.trec.io.texts import Texts, join, same
from rankmetrics.trec.records import Records

IDS = ["d1", "d10", "doc-ä-7", "x" * 70, "GX000-12-3456789", "d1"]


def _from_block(ids):
    """The ids as the reader makes them: one token per line of a block."""
    blob = "".join(f"{i}\n" for i in ids).encode("utf-8")
    block = tokens.split(blob, 1, "t")
    return block.ids(block.starts)


def test_file_and_dict_ids_have_the_same_keys_and_text():
    from_file, from_dict = _from_block(IDS), Texts.of(IDS)
    assert from_file.tolist() == IDS and list(from_dict) == IDS
    assert from_file.keys.tolist() == from_dict.keys.tolist()
    keys = from_file.keys.tolist()
    assert keys[0] == keys[5]  # the same id twice
    assert len(set(keys)) == 5  # five distinct ids, five keys
    # A dict's id may hold white space, even a line end: its bytes are still the id's own.
    odd = Texts.of(["a b", "a\nb", "", "a"])
    assert odd.take(np.array([1, 0, 2, 3])).tolist() == ["a\nb", "a b", "", "a"]
    assert len(set(odd.keys.tolist())) == 4


def test_take_join_and_positions_keep_each_id_with_its_key():
    ids = _from_block(IDS)
    picked = ids.take(np.array([4, 0, 3]))
    assert picked.tolist() == [IDS[4], IDS[0], IDS[3]]
    assert picked.keys.tolist() == [ids.keys[4], ids.keys[0], ids.keys[3]]
    joined = join([picked, Texts.of(["zz", "d1"]), ids[1:3]])
    assert joined.tolist() == [IDS[4], IDS[0], IDS[3], "zz", "d1", IDS[1], IDS[2]]
    assert joined.keys[4] == ids.keys[0]  # "d1" from a dict and from the file
    assert joined[2] == "x" * 70 and joined == [IDS[4], IDS[0], IDS[3], "zz", "d1", IDS[1], IDS[2]]


def test_same_compares_bytes_not_keys():
    a = Texts.of(["abcdefgh1", "abcdefgh2", "abc", "abcdefgh", "x" * 70])
    b = Texts.of(["abcdefgh1", "abcdefgh1", "abcd", "abcdefgh", "x" * 69 + "y"])
    at = np.arange(5)
    # equal; differs in the 9th byte; a prefix of the other; equal (one whole word); differs in the 70th byte
    assert same(a, at, b, at).tolist() == [True, False, False, True, False]


def test_equal_keys_never_lend_a_grade(monkeypatch):
    # Every id gets the key 0: each run document's number then equals every judgement's of its
    # query, and only the bytes tell them apart.
    monkeypatch.setattr(texts, "keys", lambda raw, begins, ends: np.zeros(begins.size, dtype=np.uint64))
    qrels = io.StringIO("q1 0 d1 2\nq1 0 d2 0\nq2 0 d3 1\n")
    run = io.StringIO(
        "q1 Q0 d2 1 0.9 t\nq1 Q0 d1 2 0.8 t\nq1 Q0 d4 3 0.7 t\nq2 Q0 d4 1 0.5 t\nq2 Q0 d3 2 0.4 t\n"
    )
    judged = files.judged(qrels)
    assert judged.by_text == {0}  # q1 has two judgements with one number: matched by text
    groups = next(files.run_records(run, None))
    ranked = ranking.rank(groups, judged, None, "docno_descending", "float64")
    # q1: d2 (grade 0), d1 (2), d4 (none); q2: d4 (none: its number matches d3's, its bytes do not), d3 (1)
    assert ranked.grades.tolist() == [[0.0, 2.0, 0.0], [0.0, 1.0, 0.0]]
    assert ranked.judged.tolist() == [[True, True, False], [False, True, False]]


def test_forced_collisions_change_no_value(monkeypatch, trec_eval_data):
    qrels, run = trec_eval_data / "qrels.test", trec_eval_data / "results.test"
    measures = ["map", "P_5", "ndcg_cut_10", "recip_rank", "num_rel_ret"]
    honest = rm.evaluate(qrels, run, measures)
    # Keys that keep only the id's length: most ids of a query collide.
    monkeypatch.setattr(texts, "keys", lambda raw, begins, ends: (ends - begins).astype(np.uint64))
    colliding = rm.evaluate(qrels, run, measures)
    assert colliding.queries == honest.queries
    for m in measures:
        np.testing.assert_array_equal(colliding.per_query[m], honest.per_query[m])


def test_records_of_a_file_hold_texts_and_read_as_strings():
    records = files.qrels_records(io.StringIO("q1 0 d1 1\nq2 0 d1 0\nq1 0 d2 1\n"))
    assert isinstance(records.docnos, Texts) and isinstance(records, Records)
    assert (records.qids, records.docnos) == (["q1", "q2"], ["d1", "d2", "d1"])
    with pytest.raises(ValueError, match="document 'd1' of query 'q1' already appears on line 1"):
        files.qrels_records(io.StringIO("q1 0 d1 1\nq1 0 d1 0\n"))


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
        assert (judged.lookup is not None) == isinstance(qrels, dict)
        for run in (tmp_path / "run", run_dict):
            groups = next(files.run_records(run, None))
            ranked = ranking.rank(groups, judged, None, "docno_descending", "float64")
            assert dict(zip(ranked.queries, ranked.grades.tolist())) == expected
            assert ranked.judged.tolist() == [[True, True, False], [True, True, False]]
    # With grades truncated, the dict is not the judgements as read: matched by array work.
    assert files.judged({"q1": {"d1": 1.5}}, "truncate").lookup is None
