"""Reading TREC qrels and run files (and the equivalent dicts)."""

from __future__ import annotations

import io

import pytest

import rankmetrics as rm


def test_qrels_file_counts_match_trec_eval(trec_eval_data):
    qrels = rm.read_qrels(trec_eval_data / "qrels.test")
    assert list(qrels) == ["301", "302", "303"]
    assert sum(len(docs) for docs in qrels.values()) == 3681  # lines in the file
    # 561 relevant in total: trec_eval's num_rel for "all" in out.test.aq
    assert sum(grade >= 1 for docs in qrels.values() for grade in docs.values()) == 561
    assert qrels["301"]["CR93E-1282"] == 1 and qrels["301"]["CR93E-10279"] == 0
    assert all(type(g) is int for docs in qrels.values() for g in docs.values())


def test_graded_qrels_keep_negative_grades(trec_eval_data):
    qrels = rm.read_qrels(trec_eval_data / "qrels.rel_level")
    grades = [g for docs in qrels.values() for g in docs.values()]
    assert min(grades) == -1 and max(grades) == 4
    assert sum(g >= 2 for g in grades) == 97  # num_rel "all" of out.test.aql (-l2)


def test_run_file_keeps_scores_and_ignores_rank(trec_eval_data):
    run = rm.read_run(trec_eval_data / "results.test")
    assert sorted(run) == ["301", "302", "303"]
    assert [len(docs) for docs in run.values()] == [500, 500, 500]
    # First line of the file: 301 Q0 FR940202-2-00150 104 2.129133 STANDARD
    assert run["301"]["FR940202-2-00150"] == 2.129133


def test_path_string_text_file_and_binary_file_read_the_same(trec_eval_data):
    by_path = rm.read_run(str(trec_eval_data / "results.test"))
    with open(trec_eval_data / "results.test") as text, open(trec_eval_data / "results.test", "rb") as binary:
        assert rm.read_run(text) == by_path
        assert rm.read_run(binary) == by_path


def test_blank_lines_are_skipped_and_fractional_grades_only_on_request():
    text = "q1 0 a 1\n\n   \nq1 0 b 0.5\n"
    with pytest.raises(ValueError, match=r"line 4: the relevance 0.5 is not a whole grade"):
        rm.read_qrels(io.StringIO(text))
    assert rm.read_qrels(io.StringIO(text), fractional_grades="keep") == {"q1": {"a": 1, "b": 0.5}}
    assert rm.read_qrels(io.StringIO(text), fractional_grades="truncate") == {"q1": {"a": 1, "b": 0}}


def test_dicts_are_checked_and_ids_become_text():
    assert rm.read_qrels({1: {10: 2, "x": 0}}) == {"1": {"10": 2, "x": 0}}
    assert rm.read_run({"q": {"d": 3}}) == {"q": {"d": 3.0}}


def test_wrong_field_count_names_file_and_line(tmp_path):
    path = tmp_path / "bad.qrels"
    path.write_text("q1 0 a 1\nq1 0 b\n")
    with pytest.raises(ValueError, match=r"bad\.qrels line 2: expected 4 fields .* found 3"):
        rm.read_qrels(path)


def test_run_with_five_fields_names_the_layout(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("q1 Q0 a 1 0.5 tag\nq1 Q0 b 2 0.4\n")
    with pytest.raises(ValueError, match=r"run\.txt line 2: expected 6 fields 'qid Q0 docno rank score tag'"):
        rm.read_run(path)


@pytest.mark.parametrize("score", ["high", "nan", "inf"])
def test_non_numeric_or_non_finite_score_is_refused(score):
    with pytest.raises(ValueError, match=rf"line 1: the score must be a decimal number .*; got '{score}'"):
        rm.read_run(io.StringIO(f"q1 Q0 a 1 {score} tag\n"))


def test_non_numeric_grade_is_refused():
    with pytest.raises(ValueError, match=r"line 1: the relevance must be a decimal number .*; got 'yes'"):
        rm.read_qrels(io.StringIO("q1 0 a yes\n"))


def test_duplicate_docno_names_both_lines():
    text = "q1 Q0 a 1 0.9 t\nq2 Q0 a 1 0.9 t\nq1 Q0 b 2 0.8 t\nq1 Q0 a 3 0.7 t\n"
    with pytest.raises(ValueError, match=r"line 4: document 'a' of query 'q1' already appears on line 1"):
        rm.read_run(io.StringIO(text))
    with pytest.raises(ValueError, match=r"line 2: document 'a' of query 'q1' already appears on line 1"):
        rm.read_qrels(io.StringIO("q1 0 a 1\nq1 0 a 0\n"))


def test_open_file_without_name_gets_a_label():
    with pytest.raises(ValueError, match=r"<qrels file> line 1"):
        rm.read_qrels(io.StringIO("q1 a 1\n"))


def test_missing_file_is_named(tmp_path):
    with pytest.raises(ValueError, match=r"qrels file .*nowhere\.txt' does not exist"):
        rm.read_qrels(tmp_path / "nowhere.txt")


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ({"q": [("d", 1)]}, r"qrels\['q'\] must be a dict \{docno: grade\}"),
        ({"q": {"d": "1"}}, r"qrels\['q'\]\['d'\] must be a finite number \(grade\)"),
        ({"q": {"d": float("nan")}}, r"must be a finite number"),
        ({"q": {"a": 1, "d": [1, 2]}}, r"qrels\['q'\]\['d'\] must be a finite number"),
        ({"q": {"a": [1], "d": [1, 2]}}, r"qrels\['q'\]\['a'\] must be a finite number"),
        ({"q": {"a": 1, "d": None}}, r"qrels\['q'\]\['d'\] must be a finite number"),
        ({"q": {1: 1, "1": 0}}, r"lists document 1 and '1', which are the same id '1' as text"),
        ({1: {"d": 1}, "1": {"e": 1}}, r"has the queries 1 and '1', which are the same id '1'"),
        (42, r"qrels must be a path, an open file or a dict"),
    ],
)
def test_bad_dicts_and_objects(source, message):
    with pytest.raises(ValueError, match=message):
        rm.read_qrels(source)


def test_dict_and_file_forms_evaluate_identically(trec_eval_data):
    files = rm.evaluate(trec_eval_data / "qrels.test", trec_eval_data / "results.test", ["map", "ndcg@10"])
    dicts = rm.evaluate(
        rm.read_qrels(trec_eval_data / "qrels.test"),
        rm.read_run(trec_eval_data / "results.test"),
        ["map", "ndcg@10"],
    )
    assert files.to_dict() == dicts.to_dict()


@pytest.mark.parametrize("fmt", ["QRELS", "RUN"])
def test_numpy_reads_exactly_the_spellings_the_pattern_accepts(fmt):
    # Every token of up to 4 characters over the allowed characters (and a few others numpy
    # or float() would take: "n", "i", "_", "x"): the reader's values and refusals against a
    # second method, the pattern's fullmatch and float() token by token.
    import itertools

    from rankmetrics.trec import files

    rule = getattr(files, fmt).value
    alphabet = [bytes([c]) for c in rule.chars] + [b"n", b"_", b"x"]
    tokens_ = [b"".join(t) for n in range(1, 5) for t in itertools.product(alphabet, repeat=n)]
    good = [t for t in tokens_ if rule.pattern.fullmatch(t)]
    bad = [t for t in tokens_ if not rule.pattern.fullmatch(t)]
    assert good and bad
    text = b"".join(b"q 0 d%d %s\n" % (i, t) for i, t in enumerate(good))
    if fmt == "RUN":
        text = b"".join(b"q Q0 d%d 1 %s r\n" % (i, t) for i, t in enumerate(good))
    records = files.parse(text, 1, "x", getattr(files, fmt))
    expected = [float(t) for t in good]
    assert [str(v) for v in records.values.tolist()] == [str(v) for v in expected]  # -0.0 too
    for t in bad[:: max(1, len(bad) // 3000)]:
        line = b"q 0 d %s\n" % t if fmt == "QRELS" else b"q Q0 d 1 %s r\n" % t
        with pytest.raises(ValueError, match="must be a decimal number"):
            files.parse(line, 1, "x", getattr(files, fmt))


def test_a_long_score_is_read_token_by_token_as_float_reads_it():
    from rankmetrics.trec import files

    long = b"1" * 70 + b".5"  # longer than the array path's width: read by float() after the pattern
    records = files.parse(b"q Q0 d 1 " + long + b" r\nq Q0 e 2 2.25 r\n", 1, "x", files.RUN)
    assert records.values.tolist() == [float(long), 2.25]
    with pytest.raises(
        ValueError, match=r"x line 2: the score must be a decimal number .*got '1" + "1" * 69 + "x'"
    ):
        files.parse(b"q Q0 d 1 1 r\nq Q0 e 2 " + b"1" * 70 + b"x r\n", 1, "x", files.RUN)
