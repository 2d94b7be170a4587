"""TREC files as users really have them, read exactly as trec_eval reads them.

Interleaved and unsorted queries, byte-order marks, CRLF and CR line ends, comments,
trailing fields, blank and whitespace-only files, tabs, gzip, numbers that only look
like numbers, fractional grades. Then a differential test: random judgements and runs,
written out in random messy ways, give the same per-query values through the file
route, the dict route, chunk_queries and pytrec_eval (trec_eval's own C code).

A longer run of the differential test, by hand (about 10 minutes):
    RANKMETRICS_FUZZ_EXAMPLES=20000 .venv/bin/python -m pytest tests/package/test_trec_files.py -k differential
"""

from __future__ import annotations

import gzip
import io
import math
import os
import random
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rankmetrics as rm
from rankmetrics.trec import files

# The outside review's example: two queries whose run lines alternate.
QRELS = "q1 0 a 1\nq1 0 c 1\nq2 0 b 1\nq2 0 d 1\n"
INTERLEAVED = "q1 Q0 a 1 3.0 r\nq2 Q0 b 1 3.0 r\nq1 Q0 c 2 2.0 r\nq2 Q0 d 2 2.0 r\n"


def write(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


# ---------------------------------------------------------------- silent wrong answers


def test_interleaved_run_gives_map_one_through_every_route(tmp_path):
    # Every relevant document is ranked above every non-relevant one: AP = 1 for both queries.
    qrels_path, run_path = write(tmp_path, "qrels", QRELS), write(tmp_path, "run", INTERLEAVED)
    routes = [
        rm.evaluate(qrels_path, run_path, "map"),
        rm.evaluate(str(qrels_path), str(run_path), "map"),
        rm.evaluate(io.StringIO(QRELS), io.StringIO(INTERLEAVED), "map"),
        rm.evaluate(io.BytesIO(QRELS.encode()), io.BytesIO(INTERLEAVED.encode()), "map"),
        rm.evaluate(rm.read_qrels(qrels_path), rm.read_run(run_path), "map"),
    ]
    for result in routes:
        assert result.per_query["map"].tolist() == [1.0, 1.0]
    assert rm.read_run(run_path) == {"q1": {"a": 3.0, "c": 2.0}, "q2": {"b": 3.0, "d": 2.0}}


def test_interleaved_run_with_docnos_shared_across_queries(tmp_path):
    # The same docnos in both queries, lines alternating; q1 ranks x, y; q2 ranks y, x.
    qrels = {"q1": {"x": 1, "y": 0}, "q2": {"x": 1, "y": 0}}
    run = "q1 Q0 x 1 2 r\nq2 Q0 x 1 1 r\nq1 Q0 y 2 1 r\nq2 Q0 y 2 2 r\n"
    result = rm.evaluate(qrels, write(tmp_path, "run", run), ["map", "recip_rank"])
    assert result.per_query["recip_rank"].tolist() == [1.0, 0.5]  # q2: x is second
    assert result.per_query["map"].tolist() == [1.0, 0.5]  # one relevant: AP = RR


def test_compare_reads_interleaved_runs_rightly(tmp_path):
    qrels = {q: {"a": 1, "b": 0} for q in ("q1", "q2", "q3")}
    # Run A ranks a first for every query (RR 1); run B ranks b first for q2 only (RR 1/2 there).
    a = "".join(f"{q} Q0 {d} 1 {s} r\n" for d, s in (("a", 2), ("b", 1)) for q in ("q1", "q2", "q3"))
    b = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"a": 1.0, "b": 2.0}, "q3": {"a": 2.0, "b": 1.0}}
    result = rm.compare(write(tmp_path, "a", a), b, qrels, "recip_rank", n_resamples=99)
    assert result["recip_rank"].difference == pytest.approx((0 - 0.5 + 0) / 3)


def test_byte_order_mark_is_skipped(tmp_path):
    # Notepad writes EF BB BF first; without care the first qid becomes '\ufeffq1' and its
    # judgement is lost (MAP 0.75 instead of 1.0 in the review).
    bom = b"\xef\xbb\xbf"
    qrels_path = write(tmp_path, "qrels", bom + QRELS.encode())
    run_path = write(tmp_path, "run", bom + INTERLEAVED.encode())
    assert list(rm.read_qrels(qrels_path)) == ["q1", "q2"]
    assert rm.evaluate(qrels_path, run_path, "map").summary["map"] == 1.0
    # A text stream that kept the mark as a character reads the same.
    assert rm.read_qrels(io.StringIO("\ufeff" + QRELS)) == rm.read_qrels(io.StringIO(QRELS))
    # Only at the very start: elsewhere it is part of an id (and so is what trec_eval sees).
    assert list(rm.read_qrels(io.StringIO("q1 0 a 1\n\ufeffq2 0 b 1\n"))) == ["q1", "\ufeffq2"]


@pytest.mark.parametrize(
    ("score", "message"),
    [
        ("1_000", "must be a decimal number"),  # Python's float() reads 1000, trec_eval's atof 1
        ("nan", "must be a decimal number"),
        ("-inf", "must be a decimal number"),
        ("0x10", "must be a decimal number"),  # atof reads 16
        ("１２", "must be a decimal number"),  # full-width digits: float() reads 12
        ("1,5", "must be a decimal number"),
        ("1e400", "too large"),
        ("-1e309", "too large"),
    ],
)
def test_scores_must_be_plain_decimals(tmp_path, score, message):
    path = write(tmp_path, "run.txt", f"q Q0 a 1 1.0 r\nq Q0 b 2 {score} r\n")
    with pytest.raises(ValueError, match=rf"run\.txt line 2: the score .*{message}"):
        rm.read_run(path)
    with pytest.raises(ValueError, match=r"run\.txt line 2"):
        rm.evaluate({"q": {"a": 1}}, path, "map")


def test_decimal_spellings_that_are_numbers(tmp_path):
    text = "q Q0 a 1 +1.5 r\nq Q0 b 2 -.5 r\nq Q0 c 3 2. r\nq Q0 d 4 1.5E-3 r\nq Q0 e 5 007 r\n"
    assert rm.read_run(io.StringIO(text)) == {"q": {"a": 1.5, "b": -0.5, "c": 2.0, "d": 0.0015, "e": 7.0}}


def test_nul_byte_in_an_id_is_refused(tmp_path):
    # 'a' and 'a\x00' used to collapse into one record (numpy drops trailing NULs).
    path = write(tmp_path, "run", b"q Q0 a 1 2 r\nq Q0 a\x00 2 1 r\n")
    with pytest.raises(ValueError, match=r"run line 2: holds a NUL byte"):
        rm.read_run(path)
    with pytest.raises(ValueError, match=r"must not hold a NUL character"):
        rm.evaluate({"q": {"a": 1}}, {"q": {"a": 2.0, "a\x00": 1.0}}, "map")


# ---------------------------------------------------------------- fractional grades


def test_fractional_grade_is_refused_by_default_naming_the_line(tmp_path):
    path = write(tmp_path, "qrels.txt", "q 0 a 1\nq 0 b 0.5\n")
    with pytest.raises(
        ValueError, match=r"qrels\.txt line 2: the relevance 0\.5 is not a whole grade .* as 0"
    ):
        rm.read_qrels(path)
    with pytest.raises(ValueError, match=r"qrels\.txt line 2"):
        rm.evaluate(path, {"q": {"a": 1.0}}, "map")
    # The dict route follows the same rule, naming the entry.
    with pytest.raises(ValueError, match=r"qrels\['q'\]\['b'\] = 0\.5 is not a whole grade"):
        rm.evaluate({"q": {"a": 1, "b": 0.5}}, {"q": {"a": 1.0}}, "map")


def test_fractional_grades_truncate_as_trec_eval_or_keep(tmp_path):
    path = write(tmp_path, "qrels", "q 0 a 2.7\nq 0 b -1.5\nq 0 c 0.5\nq 0 d 2.0\n")
    # trec_eval's atol: toward zero.
    assert rm.read_qrels(path, fractional_grades="truncate") == {"q": {"a": 2, "b": -1, "c": 0, "d": 2}}
    assert rm.read_qrels(path, fractional_grades="keep") == {"q": {"a": 2.7, "b": -1.5, "c": 0.5, "d": 2}}
    run = {"q": {"c": 3.0, "a": 2.0}}
    # Truncated: c has grade 0, a has 2. nDCG@2 = (0 + 2/log2 3) / (2 + 0) (ideal: a, d? d is 2 too)
    # ideal grades 2, 2 -> IDCG = 2 + 2/log2(3); DCG = 0/1 + 2/log2(3).
    truncated = rm.evaluate(path, run, "ndcg_cut_2", fractional_grades="truncate").summary["ndcg_cut_2"]
    assert truncated == pytest.approx((2 / math.log2(3)) / (2 + 2 / math.log2(3)))
    # Kept: DCG = 0.5 + 2.7/log2 3; ideal 2.7, 2 -> 2.7 + 2/log2 3.
    kept = rm.evaluate(path, run, "ndcg_cut_2", fractional_grades="keep").summary["ndcg_cut_2"]
    assert kept == pytest.approx((0.5 + 2.7 / math.log2(3)) / (2.7 + 2 / math.log2(3)))
    with pytest.raises(ValueError, match="fractional_grades must be one of"):
        rm.read_qrels(path, fractional_grades="round")


@pytest.mark.parametrize("grade", ["1e3", "2E0", "nan", "inf", "0x1", "1_0", "yes"])
def test_grades_are_plain_decimals_without_exponent(grade):
    # trec_eval's atol reads "1e3" as 1; we refuse the spelling instead of guessing.
    with pytest.raises(
        ValueError, match=r"line 1: the relevance must be a decimal number such as 2, 0 or -1"
    ):
        rm.read_qrels(io.StringIO(f"q 0 a {grade}\n"))


# ---------------------------------------------------------------- trec_eval's file format


def test_comments_in_qrels_and_runs_are_skipped():
    qrels = "# judged by two assessors\nq 0 a 1\n   # indented comment\nq 0 b 0\n#q 0 c 1\n"
    assert rm.read_qrels(io.StringIO(qrels)) == {"q": {"a": 1, "b": 0}}
    run = "#run bm25\nq Q0 a 1 2.0 bm25\n\t# note\nq Q0 b 2 1.0 bm25\n"
    assert rm.read_run(io.StringIO(run)) == {"q": {"a": 2.0, "b": 1.0}}
    # '#' later in a line is data, as in trec_eval.
    assert rm.read_run(io.StringIO("q Q0 a#1 1 2.0 r\n")) == {"q": {"a#1": 2.0}}


def test_text_after_the_sixth_run_field_is_ignored():
    run = "q Q0 a 1 2.0 bm25 extra words here\nq Q0 b 2 1.0 bm25\t# why\n"
    assert rm.read_run(io.StringIO(run)) == {"q": {"a": 2.0, "b": 1.0}}


def test_qrels_lines_need_exactly_four_fields():
    with pytest.raises(
        ValueError, match=r"line 2: expected 4 fields 'qid iteration docno relevance', found 5"
    ):
        rm.read_qrels(io.StringIO("q 0 a 1\nq 0 b 1 extra\n"))
    with pytest.raises(ValueError, match=r"line 1: expected 6 fields .*\(more are ignored\), found 5"):
        rm.read_run(io.StringIO("q Q0 a 1 2.0\n"))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n",
        "   \n\t\n",
        "  ",
        "\r\n\r\n",
        "# only a comment\n",
    ],
)
def test_empty_and_whitespace_only_files(tmp_path, text):
    path = write(tmp_path, "qrels", text)
    assert rm.read_qrels(path) == {}
    assert rm.read_run(write(tmp_path, "run", text)) == {}
    with pytest.raises(ValueError, match="qrels holds no judgement at all"):
        rm.evaluate(path, {"q": {"a": 1.0}}, "map")
    with pytest.raises(ValueError, match="no query is both judged and in the run"):
        rm.evaluate({"q": {"a": 1}}, write(tmp_path, "run", text), "map")


def test_blank_lines_tabs_runs_of_spaces_and_no_final_newline():
    messy = "\n\n  q1 \t 0\ta   1  \n\n\x0bq1 0 b\t\t0\x0c\nq2 0 a 2"
    assert rm.read_qrels(io.StringIO(messy)) == {"q1": {"a": 1, "b": 0}, "q2": {"a": 2}}


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n"])
def test_line_ends_and_line_numbers(tmp_path, newline):
    text = newline.join(["q 0 a 1", "", "q 0 b 1", "q 0 c x"]) + newline
    with pytest.raises(ValueError, match=r"line 4: the relevance must be a decimal number"):
        rm.read_qrels(write(tmp_path, "qrels", text))


def test_gzip_files_are_read_as_their_contents(tmp_path):
    qrels_gz = write(tmp_path, "qrels.gz", gzip.compress(QRELS.encode()))
    run_gz = write(tmp_path, "run.txt.gz", gzip.compress(b"\xef\xbb\xbf" + INTERLEAVED.encode()))
    assert rm.evaluate(qrels_gz, run_gz, "map").summary["map"] == 1.0
    with open(run_gz, "rb") as handle:
        assert rm.read_run(handle) == rm.read_run(io.StringIO(INTERLEAVED))
    # Several gzip members one after another (what `cat a.gz b.gz` makes) are one file.
    two = write(tmp_path, "two.gz", gzip.compress(b"q 0 a 1\n") + gzip.compress(b"q 0 b 2\n"))
    assert rm.read_qrels(two) == {"q": {"a": 1, "b": 2}}
    # Whatever the name: a file that starts with gzip's magic bytes is gzip.
    assert rm.read_qrels(write(tmp_path, "plain_name", gzip.compress(QRELS.encode()))) == rm.read_qrels(
        io.StringIO(QRELS)
    )


def test_broken_gzip_is_an_error(tmp_path):
    data = gzip.compress(QRELS.encode() * 50)
    with pytest.raises(ValueError, match=r"cut\.gz: the gzip data ends early"):
        rm.read_qrels(write(tmp_path, "cut.gz", data[: len(data) // 2]))
    with pytest.raises(ValueError, match=r"bad\.gz: not a valid gzip file"):
        rm.read_qrels(write(tmp_path, "bad.gz", data[:10] + b"\x00garbage" + data[18:]))


def test_text_that_is_not_utf8_names_file_and_line(tmp_path):
    path = write(tmp_path, "latin1.qrels", "q 0 a 1\nq 0 caf\xe9 1\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin1\.qrels line 2: not UTF-8 text \(byte 0xe9\)"):
        rm.read_qrels(path)
    # A text stream opened with the wrong encoding fails in its own read(): named, not a bare error.
    with (
        open(path, encoding="utf-8") as handle,
        pytest.raises(ValueError, match=r"latin1\.qrels: .*not text"),
    ):
        rm.read_qrels(handle)


def test_utf8_ids_are_kept(tmp_path):
    text = "질의1 0 문서가 2\n질의1 0 é 1\n"
    assert rm.read_qrels(write(tmp_path, "qrels", text)) == {"질의1": {"문서가": 2, "é": 1}}


def test_unreadable_paths_are_named(tmp_path):
    with pytest.raises(ValueError, match=r"run file .*'.*folder' does not exist \(or is not a file\)"):
        (tmp_path / "folder").mkdir()
        rm.read_run(tmp_path / "folder")
    if os.geteuid() != 0:  # root reads anything
        locked = write(tmp_path, "locked", "q 0 a 1\n")
        locked.chmod(0)
        with pytest.raises(ValueError, match=r"cannot be read: Permission denied"):
            rm.read_qrels(locked)


def test_duplicate_judgement_across_an_interleaved_qrels_file():
    text = "q1 0 a 1\nq2 0 a 1\nq1 0 b 0\nq1 0 a 0\n"
    with pytest.raises(ValueError, match=r"line 4: document 'a' of query 'q1' already appears on line 1"):
        rm.read_qrels(io.StringIO(text))


# ---------------------------------------------------------------- the differential test

MEASURES = {
    # rankmetrics' name: pytrec_eval's request, pytrec_eval's key
    "map": ("map", "map"),
    "ndcg": ("ndcg", "ndcg"),
    "ndcg_cut_5": ("ndcg_cut.5", "ndcg_cut_5"),
    "P_5": ("P.5", "P_5"),
    "recall_10": ("recall.10", "recall_10"),
    "recip_rank": ("recip_rank", "recip_rank"),
    "Rprec": ("Rprec", "Rprec"),
    "num_ret": ("num_ret", "num_ret"),
    "num_rel": ("num_rel", "num_rel"),
    "num_rel_ret": ("num_rel_ret", "num_rel_ret"),
    "success_1": ("success.1", "success_1"),
    "map_cut_5": ("map_cut.5", "map_cut_5"),
    # trec_eval's other measures (rankmetrics.metrics.trec_measures). iprec_at_recall and
    # 11pt_avg follow trec_eval 9's int(level * R + 0.9) here (the trec_eval-9 reference; NIST's
    # 10.0 outputs check lround in test_trec_eval_conformance). Not here: gm_bpref (only a
    # summary), num_q, runid and relstring (bookkeeping and text), rbp, rbp_resid and unj
    # (pytrec_eval lacks them).
    "iprec_at_recall_0.10": ("iprec_at_recall", "iprec_at_recall_0.10"),
    "iprec_at_recall_0.30": ("iprec_at_recall", "iprec_at_recall_0.30"),
    "iprec_at_recall_0.70": ("iprec_at_recall", "iprec_at_recall_0.70"),
    "11pt_avg": ("11pt_avg", "11pt_avg"),
    "bpref": ("bpref", "bpref"),
    "infAP": ("infAP", "infAP"),
    "Rprec_mult_0.60": ("Rprec_mult", "Rprec_mult_0.60"),
    "Rprec_mult_2.00": ("Rprec_mult", "Rprec_mult_2.00"),
    "utility": ("utility", "utility"),
    "binG": ("binG", "binG"),
    "G": ("G", "G"),
    "ndcg_rel": ("ndcg_rel", "ndcg_rel"),
    "Rndcg": ("Rndcg", "Rndcg"),
    "relative_P_5": ("relative_P.5", "relative_P_5"),
    "set_P": ("set_P", "set_P"),
    "set_relative_P": ("set_relative_P", "set_relative_P"),
    "set_recall": ("set_recall", "set_recall"),
    "set_map": ("set_map", "set_map"),
    "set_F": ("set_F", "set_F"),
    "num_nonrel_judged_ret": ("num_nonrel_judged_ret", "num_nonrel_judged_ret"),
}

DOCS = [f"d{i}" for i in range(14)] + ["문서", "é", "e", "D1"]
SCORES = st.one_of(
    st.sampled_from([0.0, 1.0, 1.0, 2.5, -3.0]),  # ties
    st.floats(-1e6, 1e6, allow_nan=False),
    st.sampled_from([5e-324, 1e-300, 1e300, -1e300, 0.1 + 0.2]),
)


@st.composite
def cases(draw):
    queries = [f"q{i}" for i in range(draw(st.integers(1, 5)))]
    qrels, run = {}, {}
    for q in queries:
        judged = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=8, unique=True))
        qrels[q] = {d: draw(st.sampled_from([-1, 0, 0, 1, 2, 3])) for d in judged}
        if draw(st.integers(0, 5)) > 0:  # now and then a judged query the run lacks
            retrieved = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=12, unique=True))
            run[q] = {d: draw(SCORES) for d in retrieved}
    if not run:  # at least one query both judged and retrieved
        run[queries[0]] = {"d0": 1.0}
    if draw(st.booleans()):
        run["unjudged"] = {"d1": 1.0}
    style = {
        "interleave": draw(st.booleans()),
        "newline": draw(st.sampled_from(["\n", "\r\n", "\r"])),
        "bom": draw(st.booleans()),
        "gzip": draw(st.booleans()),
        "comments": draw(st.booleans()),
        "trailing": draw(st.booleans()),
        "blank": draw(st.booleans()),
        "final_newline": draw(st.booleans()),
        "block": draw(st.sampled_from([40, 97, 1000, 4_000_000])),
        "seed": draw(st.integers(0, 2**32 - 1)),
    }
    return qrels, run, style


def messy_file(lines: list[list[str]], style: dict, grouped: bool, trailing: bool) -> bytes:
    """The records as a file, spelled in the ways the style asks for."""
    rng = random.Random(style["seed"])
    lines = list(lines)
    if style["interleave"] and not grouped:
        rng.shuffle(lines)
    out = []
    for fields in lines:
        if style["comments"] and rng.random() < 0.2:
            out.append(rng.choice(["# a comment", "   # indented", "#"]))
        if style["blank"] and rng.random() < 0.2:
            out.append(rng.choice(["", "  ", "\t"]))
        if trailing and rng.random() < 0.5:
            fields = [*fields, "extra", "# more"]
        seps = [rng.choice([" ", "\t", "  ", " \t "]) for _ in fields[1:]]
        out.append(rng.choice(["", " ", "\t"]) + fields[0] + "".join(s + f for s, f in zip(seps, fields[1:])))
    text = style["newline"].join(out) + (style["newline"] if style["final_newline"] else "")
    data = (b"\xef\xbb\xbf" if style["bom"] else b"") + text.encode()
    return gzip.compress(data) if style["gzip"] else data


def pytrec_values(qrels, run, judged_only=False):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels, {request for request, _ in MEASURES.values()}, judged_docs_only_flag=judged_only
    )
    return evaluator.evaluate(run)


@settings(
    max_examples=int(os.environ.get("RANKMETRICS_FUZZ_EXAMPLES", "120")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(cases())
def test_differential_file_dict_chunks_and_pytrec_eval_agree(case):
    qrels, run, style = case
    qrels_lines = [[q, "0", d, str(g)] for q, docs in qrels.items() for d, g in docs.items()]
    run_lines = [
        [q, "Q0", d, str(rank), repr(s), "tag"]
        for q, docs in run.items()
        for rank, (d, s) in enumerate(docs.items(), start=1)
    ]
    metrics = list(MEASURES)
    with (
        tempfile.TemporaryDirectory() as folder,
        pytest.MonkeyPatch.context() as patch,
        warnings.catch_warnings(),
    ):
        warnings.simplefilter("ignore")  # judged queries absent from the run are skipped with a warning
        patch.setattr(files, "BLOCK_BYTES", style["block"])
        qrels_path = write(
            Path(folder), "qrels", messy_file(qrels_lines, style, grouped=False, trailing=False)
        )
        run_path = write(
            Path(folder), "run", messy_file(run_lines, style, grouped=False, trailing=style["trailing"])
        )
        grouped_path = write(
            Path(folder), "grouped", messy_file(run_lines, style, grouped=True, trailing=True)
        )

        # pytrec_eval embeds trec_eval 9.x (scores as C floats): compare under that reference.
        by_dicts = rm.evaluate(qrels, run, metrics, like="trec_eval-9")
        by_files = rm.evaluate(qrels_path, run_path, metrics, like="trec_eval-9")
        assert rm.read_qrels(qrels_path) == qrels
        assert rm.read_run(run_path) == run  # dicts: equal whatever the order of the lines
        chunked = [
            rm.evaluate(qrels_path, grouped_path, metrics, chunk_queries=size, like="trec_eval-9")
            for size in (1, 2)
        ]
        chunked.append(rm.evaluate(qrels, run, metrics, chunk_queries=1, like="trec_eval-9"))

    # trec_eval quirk, left out: for a query whose every judgement is negative (-1, "in the pool
    # but unjudged") form_res_rels sizes an array by the largest grade + 1 = 0 and writes past
    # it; pytrec_eval then reports 0 for everything (num_ret too), and later calls in the same
    # process may hang. Such queries are not given to it. rankmetrics scores them as queries
    # without a relevant document (0), counting what the run retrieved.
    comparable = {q: d for q, d in qrels.items() if max(d.values()) >= 0}
    reference = pytrec_values(comparable, run)
    assert sorted(reference) == [q for q in by_dicts.queries if q in comparable]
    expected = np.array([by_dicts.per_query[metric] for metric in metrics])
    for result in (by_files, *chunked):
        assert result.queries == by_dicts.queries
        # one row per metric, so that a failure names the row (the metric's place in `metrics`)
        got = np.array([result.per_query[metric] for metric in metrics])
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-15, err_msg=str(metrics))
    for metric, (_, key) in MEASURES.items():
        for qid in reference:
            assert by_dicts.value(metric, qid) == pytest.approx(reference[qid][key], abs=1e-12), (metric, qid)
    # trec_eval's -J: only judged documents are ranked.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # judged queries absent from the run, as above
        judged = rm.evaluate(qrels, run, metrics, judged_only=True, like="trec_eval-9")
    reference = pytrec_values(comparable, run, judged_only=True)
    for metric, (_, key) in MEASURES.items():
        for qid in reference:
            expected = reference[qid][key]
            if math.isnan(expected):
                # -J left no document: trec_eval's iprec_at_recall and 11pt_avg start from
                # num_rel_ret / num_ret = 0 / 0; rankmetrics scores an empty list 0.
                assert key.startswith(("iprec_at_recall", "11pt_avg")) and judged.value("num_ret", qid) == 0
                expected = 0.0
            assert judged.value(metric, qid) == pytest.approx(expected, abs=1e-12), (metric, qid, "-J")


# ---------------------------------------------------------------- scores as trec_eval stores them


def test_scores_compared_as_the_reference_trec_eval_reads_them():
    # trec_eval 9.x (and pytrec_eval) keeps a score in a C float (about 7 digits): 0.123456789 and
    # 0.123456788 are then the same number, 0.12345679104328156, and docno descending puts b first.
    # trec_eval 10.0 reads them as C doubles ("Convert float to double"): a is higher, a first.
    assert float(np.float32(0.123456789)) == float(np.float32(0.123456788)) == 0.12345679104328156
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"a": 0.123456789, "b": 0.123456788}}
    default = rm.evaluate(qrels, run, ["recip_rank"])
    assert default.value("recip_rank", "q") == 1.0  # a, b
    assert default.conventions["score_precision"] == "float64"
    assert default.conventions.source("score_precision") == "reference trec_eval-10"
    nine = rm.evaluate(qrels, run, ["recip_rank"], like="trec_eval-9")
    assert nine.value("recip_rank", "q") == 0.5  # b, a
    assert nine.conventions["score_precision"] == "float32"
    assert pytrec_values(qrels, run)["q"]["recip_rank"] == 0.5
    # score_precision given explicitly wins over the reference's.
    assert rm.evaluate(qrels, run, ["recip_rank"], score_precision="float32").value("recip_rank", "q") == 0.5
    exact = rm.evaluate(qrels, run, ["recip_rank"], like="trec_eval-9", score_precision="float64")
    assert exact.value("recip_rank", "q") == 1.0
    with pytest.raises(ValueError, match="score_precision must be one of"):
        rm.evaluate(qrels, run, "map", score_precision="half")


def test_scores_beyond_the_32_bit_range_are_infinite_but_still_ranked():
    # 1e300 and 1e301 both become +inf in a C float (a tie: docno descending), -1e300 becomes
    # -inf and is ranked last, but it is still a retrieved document, not padding.
    qrels = {"q": {"a": 1, "b": 1, "z": 1}}
    run = {"q": {"a": 1e300, "b": 1e301, "m": 0.0, "z": -1e300}, "r": {"x": 1.0}}
    result = rm.evaluate({**qrels, "r": {"x": 1}}, run, ["map", "num_ret", "P_5"])
    # q ranks b, a (tie, docno descending), m, z: AP = (1/1 + 2/2 + 3/4) / 3.
    assert result.value("map", "q") == pytest.approx((1 + 1 + 3 / 4) / 3)
    assert result.value("num_ret", "q") == 4 and result.value("P_5", "q") == pytest.approx(3 / 5)
    reference = pytrec_values(qrels, {"q": run["q"]})["q"]
    assert (reference["map"], reference["num_ret"]) == (pytest.approx((1 + 1 + 3 / 4) / 3), 4)
