"""The package in Korean: the same refusals, tables and warnings under ``use_language("ko")``.

The Python API speaks English unless told otherwise (tests across the suite match its
English); here the same calls are made in Korean, each Korean line checked whole, and the
English of the default checked beside it, so that both languages are bound to one call.
"""

from __future__ import annotations

import argparse
import ast
import gettext
import warnings

import pytest
from korean_output import english_runs

import rankmetrics as rm
from rankmetrics import _argparse_texts, i18n
from rankmetrics.trec import presets
from rankmetrics.trec.conventions import Conventions
from rankmetrics.trec.evaluation import AbsentQueriesWarning


@pytest.mark.parametrize(
    ("call", "english", "korean"),
    [
        (lambda: rm.ndcg([3, 0], k=0), "k must be a positive integer or None; got 0",
         "k에는 양의 정수나 None을 주세요; 받은 값: 0"),
        (lambda: rm.precision("abc"), "x must be a sequence of numbers; got the string 'abc'",
         "x에는 수의 수열을 주세요; 받은 문자열: 'abc'"),
        (lambda: rm.mse([1, 2], [1]), "y_true and y_pred must have the same length; got 2 and 1",
         "y_true와 y_pred는 길이가 같아야 합니다; 받은 길이: 2, 1"),
        (lambda: rm.precision(["A", "B", "A"], relevant={"A"}),
         "ranking contains the id 'A' twice (ranks 1 and 3); each item may appear once",
         "ranking에 id 'A'이(가) 두 번 있습니다 (1위와 3위); 항목은 한 번만 나올 수 있습니다"),
        (lambda: rm.mean_average_precision([[1, 0], [0, 1]], n_relevant=[1]),
         "n_relevant must give one entry per query (2 queries); got [1]",
         "n_relevant에는 질의마다 하나씩(질의 2개)을 주세요; 받은 값: [1]"),
        # a message built from pieces: the hint and the float range are translated too
        (lambda: rm.ndcg([1, 0], k=[1]),
         "k must be a positive integer or None; got [1] (to give the relevant items, use the keyword: relevant=...)",
         "k에는 양의 정수나 None을 주세요; 받은 값: [1] (정답 항목을 주려면 키워드로 적으세요: relevant=...)"),
    ],
)  # fmt: skip
def test_api_refusals_in_english_by_default_and_in_korean_when_asked(call, english, korean):
    with rm.use_language("en"), pytest.raises(ValueError) as refused:
        call()
    assert str(refused.value) == english
    with rm.use_language("ko"), pytest.raises(ValueError) as refused:
        call()
    assert str(refused.value) == korean
    assert english_runs(korean) == []


def test_a_parameter_out_of_range_is_named_in_korean():
    with rm.use_language("ko"), pytest.raises(ValueError) as refused:
        rm.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, "RBP(p=1.5)")
    # RBP's p (1.5 here) must lie in (0, 1): the range sentence and the parameter's words are both Korean
    assert str(refused.value) == (
        "'RBP(p=1.5)': p(다음 문서로 넘어갈 확률)은(는) (0, 1) 안에 있어야 합니다; 받은 값: 1.5 "
        "(RBP이(가) 정의된 범위 밖입니다; parse_metric(name, check_range=False)는 trec_eval처럼 검사 없이 읽습니다)"
    )


QRELS = {"q1": {"a": 1, "b": 0}, "q2": {"c": 1}}
RUN = {"q1": {"a": 0.5, "b": 0.9}}


def test_the_evaluation_table_and_the_absent_queries_warning_in_both_languages():
    # q1: b (0.9, non-relevant) then a (relevant at rank 2): AP = (1/2) / 1 = 0.5, P@1 = 0.
    # q2 is judged but not in the run: skipped, with one warning.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        english = rm.evaluate(QRELS, RUN, ["map", "P_1"])
        with rm.use_language("ko"):
            korean = rm.evaluate(QRELS, RUN, ["map", "P_1"])
            korean_text = str(korean)
        english_text = str(english)
    assert [w.category for w in caught] == [AbsentQueriesWarning, AbsentQueriesWarning]
    assert str(caught[0].message) == (
        "1 judged query is absent from the run and skipped: q2. Pass missing='zero' to score it 0 (trec_eval -c)."
    )
    assert str(caught[1].message) == (
        "판정된 질의 1개가 결과 파일에 없어 건너뛰었습니다: q2. 0점으로 세려면 missing='zero'를 주세요 (trec_eval -c)."
    )
    version = rm.__version__
    assert english_text.splitlines()[0].split() == ["query", "map", "P_1"]
    assert english_text.splitlines()[4].split() == ["all", "0.5000", "0.0000"]
    assert english_text.splitlines()[-1] == (
        "1 query; relevance_level=1, ties=docno_descending, missing=skip; "
        f"1 judged query absent from the run (skipped); rankmetrics {version}, reference trec_eval-10"
    )
    assert korean_text.splitlines()[0].split() == ["질의", "map", "P_1"]
    assert korean_text.splitlines()[4].split() == ["전체", "0.5000", "0.0000"]
    assert korean_text.splitlines()[-1] == (
        "질의 1개; relevance_level=1, ties=docno_descending, missing=skip; "
        f"결과 파일에 없는 판정 질의 1개 (건너뜀); rankmetrics {version}, 기준 trec_eval-10"
    )
    assert english_runs(korean_text) == [], korean_text


def test_the_conventions_card_in_korean():
    c = Conventions.resolve(presets.find("trec_eval-9"), ties="average")
    with rm.use_language("ko"):
        lines = c.card().splitlines()
    assert lines[0].split() == ["설정", "값", "출처"]
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:]}
    assert rows["reference"] == ["trec_eval-9", "프리셋", "trec_eval-9"]
    assert rows["ties"] == ["average", "인자"]
    assert rows["missing"] == ["skip", "기본값"]
    assert rows["max_documents"] == ["None", "(전체)", "기본값"]
    assert c.source("ties") == "argument"  # the API's value stays the key


def _argparse_ids() -> set:
    """The message ids argparse of this Python asks our catalogue for (its literal _() and ngettext())."""
    with open(argparse.__file__, encoding="utf-8") as source:
        tree = ast.parse(source.read())
    found = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("_", "ngettext")
        ):
            texts = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if node.func.id == "_" and texts:
                found.add(texts[0])
            elif len(texts) >= 2:
                found.add((texts[0], texts[1]))
    return found


def test_every_argparse_id_of_this_python_is_in_the_catalogue():
    # _argparse_texts declares argparse's ids of Python 3.10-3.13; this binds the declaration
    # to the argparse actually running (a new Python's new id fails here, by name).
    catalogue = gettext.translation(i18n.DOMAIN, localedir=i18n.LOCALE_DIR, languages=["ko"])
    missing = []
    for message in _argparse_ids():
        if isinstance(message, tuple):
            if catalogue.ngettext(*message, 1) == message[0]:
                missing.append(message)
        elif catalogue.gettext(message) == message and message not in ("%(heading)s:",):
            missing.append(message)
    assert missing == []


def test_argparse_3_10s_untranslated_argument_prefix_is_translated():
    # Python 3.10 writes "argument --k: ..." without _(); 3.11+ translate it themselves.
    with rm.use_language("ko"):
        assert (
            _argparse_texts.argument_error("argument --k: 값이 하나 필요합니다")
            == "인자 --k: 값이 하나 필요합니다"
        )
        assert (
            _argparse_texts.argument_error("인자 --k: 값이 하나 필요합니다")
            == "인자 --k: 값이 하나 필요합니다"
        )


def test_the_trec_eval_drop_in_speaks_trec_evals_english_whatever_the_language(tmp_path, monkeypatch):
    # Its refusals are compared byte for byte by the scripts it replaces (tests/package/test_dropin.py).
    import io

    from rankmetrics.trec import dropin

    (tmp_path / "x.qrels").write_text("q1 0 d1 1\nq1 0 d2 0.5\n")
    (tmp_path / "x.run").write_text("q1 Q0 d1 1 1 r\n")
    expected = (
        "trec_eval (rankmetrics): x.qrels line 2: the relevance 0.5 is not a whole grade "
        "(trec_eval would silently read it as 0)\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RANKMETRICS_LANG", "ko")
    with rm.use_language("ko"):
        stderr = io.StringIO()
        assert dropin.main(["x.qrels", "x.run"], io.StringIO(), stderr, io.StringIO("")) == 2
        assert stderr.getvalue() == expected
        assert rm.language() == "ko"  # and the caller's language is back


def test_a_line_with_the_wrong_number_of_fields_is_refused_wholly_in_korean():
    import dataclasses
    import io

    from rankmetrics.trec import files

    # each of the three field-count forms (exactly n; n or more; n to m) is one Korean sentence
    qrels_four = "q 0 a 1 extra\n"  # 5 fields where the qrels format wants exactly 4
    run_short = "q Q0 a 1 2.0\n"  # 5 fields where the run format wants 6 or more
    four_or_five = dataclasses.replace(files.QRELS, max_fields=5)
    cases = [
        (lambda: rm.read_qrels(io.StringIO(qrels_four)),
         "<qrels file> line 1: expected 4 fields 'qid iteration docno relevance', found 5: 'q 0 a 1 extra'",
         "<qrels file> 1번째 줄: 필드 4개 'qid iteration docno relevance'이(가) 있어야 하는데 5개가 있습니다: 'q 0 a 1 extra'"),
        (lambda: rm.read_run(io.StringIO(run_short)),
         "<run file> line 1: expected 6 fields 'qid Q0 docno rank score tag' (more are ignored), found 5: 'q Q0 a 1 2.0'",
         "<run file> 1번째 줄: 필드 6개 'qid Q0 docno rank score tag'이(가) 있어야 하는데(그 뒤의 필드는 무시합니다) "
         "5개가 있습니다: 'q Q0 a 1 2.0'"),
        (lambda: files.parse(b"q 0 a 1 x y\n", 1, "<qrels file>", four_or_five),
         "<qrels file> line 1: expected 4 to 5 fields 'qid iteration docno relevance', found 6: 'q 0 a 1 x y'",
         "<qrels file> 1번째 줄: 필드 4~5개 'qid iteration docno relevance'이(가) 있어야 하는데 6개가 있습니다: 'q 0 a 1 x y'"),
    ]  # fmt: skip
    for call, english, korean in cases:
        with rm.use_language("en"), pytest.raises(ValueError) as refused:
            call()
        assert str(refused.value) == english
        with rm.use_language("ko"), pytest.raises(ValueError) as refused:
            call()
        assert str(refused.value) == korean
        assert (
            english_runs(
                korean.split(": ")[0]
                .replace("'qid iteration docno relevance'", "")
                .replace("'qid Q0 docno rank score tag'", "")
                .replace("<qrels file>", "")
                .replace("<run file>", "")
            )
            == []
        )


@pytest.mark.parametrize(
    ("alternative", "english", "korean"),
    [
        ("two-sided", "(two-sided)", "(양쪽 검정)"),
        ("greater", "(one-sided: is b greater?)", "(한쪽 검정: b가 더 큰가)"),
        ("less", "(one-sided: is b less?)", "(한쪽 검정: b가 더 작은가)"),
    ],
)
def test_the_comparison_caption_names_the_alternative_in_each_language(alternative, english, korean):
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
    run_a = {"q1": {"a": 1.0, "x": 0.5}, "q2": {"x": 1.0, "b": 0.5}, "q3": {"c": 1.0}}
    run_b = {"q1": {"x": 1.0, "a": 0.5}, "q2": {"b": 1.0, "x": 0.5}, "q3": {"c": 1.0}}
    kwargs = {"alternative": alternative, "n_resamples": 100, "random_state": 0}
    english_text = str(rm.compare(run_a, run_b, qrels, ["map"], **kwargs))
    with rm.use_language("ko"):
        korean_text = str(rm.compare(run_a, run_b, qrels, ["map"], **kwargs))
    assert english in english_text
    assert korean in korean_text and alternative not in korean_text
