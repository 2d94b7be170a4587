"""Chunked evaluation (chunk_queries=...) gives exactly what whole-run evaluation gives.

Small generated qrels/run files, read in tiny blocks so that queries straddle block
boundaries; the array number reader checked against float(); interleaved files; errors
with file name and line number.
No timings here: speed is measured by benchmarks/run.py.
"""

from __future__ import annotations

import dataclasses
import io
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankmetrics as rm
from rankmetrics.trec import files

METRICS = [
    "ndcg_cut_10",
    "ndcg",
    "P_5",
    "recall_100",
    "map",
    "map_cut_5",
    "recip_rank",
    "Rprec",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "success_1",
    "gm_map",
]


@pytest.fixture
def tiny_chunks(monkeypatch):
    """Read files 150 bytes (or characters) at a time, so queries straddle blocks."""
    monkeypatch.setattr(files, "BLOCK_BYTES", 150)


def generate(seed: int, n_queries: int = 12, ties: bool = True):
    """Qrels and run as dicts: ragged lists, tied scores, unretrieved judgements,
    a judged query absent from the run and a run query without judgements."""
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for i in range(n_queries):
        docs = [f"d{j}" for j in rng.choice(60, size=int(rng.integers(1, 25)), replace=False)]
        scale = 4 if ties else 10**6
        run[f"q{i}"] = {d: float(rng.integers(0, scale)) / 4 for d in docs}
        judged = rng.choice(60, size=int(rng.integers(1, 12)), replace=False)
        qrels[f"q{i}"] = {f"d{j}": int(rng.integers(-1, 4)) for j in judged}
    qrels["q_absent"] = {"d1": 2}
    run["q_unjudged"] = {"d1": 1.0}
    return qrels, run


def write(path, nested, kind):
    with open(path, "w") as f:
        for q, docs in nested.items():
            f.writelines(
                f"{q} 0 {d} {value}\n" if kind == "qrels" else f"{q} Q0 {d} {rank} {value!r} tag\n"
                for rank, (d, value) in enumerate(docs.items(), start=1)
            )
    return path


def evaluate(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the absent query is skipped with a warning
        return rm.evaluate(*args, **kwargs)


def assert_same(a, b):
    """Same queries, same values. A group of queries is padded to its own longest list, and
    numpy may sum a row with more zero columns in another order: equal to the last bit or two."""
    assert a.queries == b.queries
    assert a.missing_queries == b.missing_queries
    assert a.unjudged_queries == b.unjudged_queries
    assert a.summary == pytest.approx(b.summary, rel=1e-13, abs=1e-15)
    for metric in a.per_query:
        np.testing.assert_allclose(a.per_query[metric], b.per_query[metric], rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("missing", ["skip", "zero"])
def test_chunked_file_equals_whole_run(tmp_path, tiny_chunks, seed, missing):
    qrels, run = generate(seed)
    qrels_path = write(tmp_path / "qrels", qrels, "qrels")
    run_path = write(tmp_path / "run", run, "run")
    whole = evaluate(qrels, run, METRICS, missing=missing)
    # The same numbers from files read 150 bytes at a time, and in groups of 1, 2, 5 and 100 queries.
    assert_same(evaluate(qrels_path, run_path, METRICS, missing=missing), whole)
    for chunk in (1, 2, 5, 100):
        assert_same(evaluate(qrels_path, run_path, METRICS, missing=missing, chunk_queries=chunk), whole)
        assert_same(evaluate(qrels, run, METRICS, missing=missing, chunk_queries=chunk), whole)


def test_chunked_equals_a_plain_loop_with_ties(tmp_path, tiny_chunks):
    # Scores with many ties: the docno-descending rule must hold inside every chunk.
    qrels, run = generate(7)
    run_path = write(tmp_path / "run", run, "run")
    result = evaluate(qrels, run_path, ["recip_rank", "map"], chunk_queries=3)
    for q in result.queries:
        ranked = sorted(run[q], key=lambda d: (run[q][d], d), reverse=True)  # score, then docno descending
        hits = [qrels[q].get(d, 0) >= 1 for d in ranked]
        rr = next((1 / i for i, h in enumerate(hits, start=1) if h), 0.0)
        assert result.value("recip_rank", q) == rr
        found, total = 0, 0.0
        for i, h in enumerate(hits, start=1):
            if h:
                found += 1
                total += found / i
        n_rel = sum(g >= 1 for g in qrels[q].values())
        assert result.value("map", q) == pytest.approx(total / n_rel if n_rel else 0.0, abs=1e-15)


def test_input_order_ties_chunked(tmp_path, tiny_chunks):
    qrels, run = generate(3)
    run_path = write(tmp_path / "run", run, "run")
    whole = evaluate(qrels, run, METRICS, ties="input_order")
    assert_same(evaluate(qrels, run_path, METRICS, ties="input_order", chunk_queries=2), whole)


def test_interleaved_run_is_refused_in_chunks_and_merged_whole(tmp_path, tiny_chunks):
    path = tmp_path / "run.txt"
    path.write_text("a Q0 d1 1 3.0 t\na Q0 d2 2 2.0 t\nb Q0 d1 1 1.0 t\n\nb Q0 d3 2 0.5 t\na Q0 d3 3 1.0 t\n")
    qrels = {"a": {"d3": 1}, "b": {"d3": 1}}
    with pytest.raises(ValueError, match=r"run\.txt line 6: query 'a' appears again after other queries"):
        rm.evaluate(qrels, path, "mrr", chunk_queries=1)
    # Without chunks the file's order does not matter: a's three documents are put together.
    whole = rm.evaluate(qrels, path, ["mrr", "num_ret"])
    assert whole.per_query["num_ret"].tolist() == [3.0, 2.0]
    assert whole.per_query["mrr"].tolist() == [1 / 3, 1 / 2]  # a: d1 3.0, d2 2.0, d3 1.0


def test_duplicate_docno_names_both_lines_across_chunks(tmp_path, tiny_chunks):
    lines = [f"q Q0 d{i} {i} {10 - i / 10} t\n" for i in range(1, 13)] + ["q Q0 d2 13 0.1 t\n"]
    path = tmp_path / "run"
    path.write_text("".join(lines))
    for chunk in (None, 1):
        with pytest.raises(
            ValueError, match=r"line 13: document 'd2' of query 'q' already appears on line 2"
        ):
            rm.evaluate({"q": {"d1": 1}}, path, "map", chunk_queries=chunk)


def test_duplicate_docno_in_an_interleaved_file(tmp_path):
    path = tmp_path / "run"
    path.write_text("a Q0 x 1 1 t\nb Q0 x 1 1 t\na Q0 x 2 0.5 t\n")
    with pytest.raises(ValueError, match=r"line 3: document 'x' of query 'a' already appears on line 1"):
        rm.evaluate({"a": {"x": 1}}, path, "map")


def test_duplicate_judgement_names_both_lines(tmp_path, tiny_chunks):
    path = tmp_path / "qrels"
    path.write_text("".join(f"q 0 d{i} 1\n" for i in range(10)) + "q 0 d3 0\n")
    with pytest.raises(ValueError, match=r"line 11: document 'd3' of query 'q' already appears on line 4"):
        rm.evaluate(path, {"q": {"d1": 1.0}}, "map")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("q Q0 d9 9 0.5\n", r"run line 9: expected 6 fields"),
        ("q Q0 d9 9 high t\n", r"run line 9: the score must be a decimal number .*; got 'high'"),
        ("q Q0 d9 9 nan t\n", r"run line 9: the score must be a decimal number .*; got 'nan'"),
        ("q Q0 d9 9 1e999 t\n", r"run line 9: the score '1e999' is too large for a floating-point number"),
    ],
)
def test_malformed_line_deep_in_the_file(tmp_path, tiny_chunks, line, message):
    lines = [f"q Q0 d{i} {i} {1 / i} t\n" for i in range(1, 9)] + [line]
    path = tmp_path / "run"
    path.write_text("".join(lines))
    for chunk in (None, 1):
        with pytest.raises(ValueError, match=message):
            rm.evaluate({"q": {"d1": 1}}, path, "map", chunk_queries=chunk)


def test_open_files_and_non_ascii_ids(tiny_chunks):
    # Non-ASCII ids are decoded one by one; the values are the same as from dicts.
    qrels = {"질의": {"문서1": 2, "문서3": 1}, "q2": {"é": 1}}
    run = {"질의": {"문서1": 0.5, "문서2": 0.9, "문서3": 0.5}, "q2": {"é": 1.0, "e": 1.0}}
    text = "".join(f"{q} Q0 {d} 1 {s} t\n" for q, docs in run.items() for d, s in docs.items())
    whole = rm.evaluate(qrels, run, ["map", "ndcg", "mrr"])
    for chunk in (None, 1):
        assert_same(rm.evaluate(qrels, io.StringIO(text), ["map", "ndcg", "mrr"], chunk_queries=chunk), whole)
        assert_same(
            rm.evaluate(qrels, io.BytesIO(text.encode()), ["map", "ndcg", "mrr"], chunk_queries=chunk), whole
        )
    # "é" > "e" as text, so with equal scores é is ranked first (docno descending): RR of q2 is 1.
    assert whole.value("mrr", "q2") == 1.0


def test_chunk_queries_is_checked():
    for bad in (0, -1, 2.5, True, "10"):
        with pytest.raises(ValueError, match="chunk_queries must be a positive integer"):
            rm.evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, "map", chunk_queries=bad)


def test_dicts_with_non_text_ids_or_odd_values_are_converted_and_checked():
    # Integer ids become text; numpy numbers and booleans are numbers; results as with text ids.
    plain = rm.evaluate({"1": {"7": 1, "8": 0}}, {"1": {"7": 0.5, "8": 0.5}}, ["map", "num_ret"])
    odd = rm.evaluate({1: {7: True, 8: np.int64(0)}}, {1: {7: np.float32(0.5), 8: 0.5}}, ["map", "num_ret"])
    assert_same(odd, plain)
    with pytest.raises(ValueError, match=r"run\['q'\]\['d'\] must be a finite number \(score\); got '0.5'"):
        rm.evaluate({"q": {"d": 1}}, {"q": {"d": "0.5"}}, "map")
    with pytest.raises(ValueError, match=r"qrels\['q'\]\['d'\] must be a finite number \(grade\); got nan"):
        rm.evaluate({"q": {"d": math.nan}}, {"q": {"d": 0.5}}, "map")


# ---------------------------------------------------------------- the array number reader


NUMBERS = [
    "0",
    "1",
    "-1",
    "+2.5",
    "-0.0",
    ".5",
    "5.",
    "12.345",
    "0.1",
    "0.30000000000000004",
    "123456789012345",
    "1234567890123456789",
    "1e-3",
    "2E+5",
    "-1.5e10",
    "007",
    "3.141592653589793",
    "99999999999999.9",
    "0.000000000000001",
    "5e-324",
    "1.7976931348623157e308",
]


def parse_run(text: str) -> files.Records:
    return files.parse(text.encode(), 1, "run", files.RUN)


def test_array_reader_reads_every_spelling_as_float_does():
    records = parse_run("".join(f"q Q0 d{i} 1 {s} t\n" for i, s in enumerate(NUMBERS)))
    assert records.qids == ["q"] and records.lengths.tolist() == [len(NUMBERS)]
    assert records.docnos == [f"d{i}" for i in range(len(NUMBERS))]
    assert records.lines.tolist() == list(range(1, len(NUMBERS) + 1))
    assert [v.hex() for v in records.values.tolist()] == [float(s).hex() for s in NUMBERS]  # bit for bit


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.floats(allow_nan=False, allow_infinity=False).map(repr),
            st.integers(0, 18)
            .flatmap(lambda p: st.decimals(allow_nan=False, allow_infinity=False, places=p))
            .map(str),
            st.integers(-(10**20), 10**20).map(str),
        ),
        min_size=1,
        max_size=20,
    )
)
def test_array_reader_equals_float_on_random_numbers(tokens):
    text = "".join(f"q{i % 3} Q0 d{i} 1 {t} tag\n" for i, t in enumerate(tokens))
    expected = [float(t) for t in tokens]
    if not all(map(math.isfinite, expected)):
        with pytest.raises(ValueError, match="too large for a floating-point number"):
            parse_run(text)
        return
    records = parse_run(text)
    assert [v.hex() for v in records.values.tolist()] == [e.hex() for e in expected]
    # Queries as they come: q0 q1 q2 q0 q1 ... is one query per line.
    assert records.qids == [f"q{i % 3}" for i in range(len(tokens))]


def test_array_reader_names_the_first_bad_line():
    with pytest.raises(ValueError, match=r"run line 2: expected 6 fields .*found 5"):
        parse_run("q Q0 d 1 0.5 t\nq Q0 e 2 0.5\n")
    with pytest.raises(ValueError, match=r"run line 1: the score must be a decimal number"):
        parse_run("q Q0 d 1 x t\n")
    # \x1c is not white space for trec_eval (C's isspace) though str.split() splits on it:
    # it stays inside the token, and a score holding it is not a number.
    with pytest.raises(ValueError, match=r"run line 1: the score must be a decimal number .*got '0.5\\x1c'"):
        parse_run("q Q0 d 1 0.5\x1c t\n")


def test_a_format_quirk_is_one_declaration():
    # A five-field run without a tag: declared, not coded. The fields are read where the
    # format says, so the last line's score is not taken from the next line.
    five = dataclasses.replace(files.RUN, layout="qid Q0 docno rank score", min_fields=5, tag_field=None)
    records = files.parse(b"q Q0 d1 1 2.5\nq Q0 d2 2 1.5 extra\n", 1, "run", five)
    assert records.docnos == ["d1", "d2"] and records.values.tolist() == [2.5, 1.5]
    assert records.last_tag is None
    assert files.parse(b"q Q0 d1 1 2.5 tag\n", 1, "run", files.RUN).last_tag == "tag"
    with pytest.raises(ValueError, match="reads a field beyond its 5 fields"):
        dataclasses.replace(files.RUN, min_fields=5)  # the tag (field 5) would be missing


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_windows_and_old_mac_line_ends_read_as_text_mode_does(tmp_path, tiny_chunks, newline):
    qrels, run = generate(5)
    text = write(tmp_path / "run", run, "run").read_text()
    path = tmp_path / "run_crlf"
    path.write_bytes(text.replace("\n", newline).rstrip(newline).encode())  # and no line end at the end
    whole = evaluate(qrels, run, METRICS)
    for chunk in (None, 2):
        assert_same(evaluate(qrels, path, METRICS, chunk_queries=chunk), whole)


def test_one_query_longer_than_a_chunk(tmp_path, tiny_chunks):
    run = {"q": {f"d{i:03d}": 1000.0 - i for i in range(60)}, "r": {"d001": 1.0}}
    qrels = {"q": {"d007": 1, "d059": 2}, "r": {"d001": 1}}
    path = write(tmp_path / "run", run, "run")  # about 20 chunks of 150 bytes for query q
    whole = evaluate(qrels, run, METRICS)
    for chunk in (None, 1):
        assert_same(evaluate(qrels, path, METRICS, chunk_queries=chunk), whole)
    assert whole.value("recip_rank", "q") == 1 / 8
