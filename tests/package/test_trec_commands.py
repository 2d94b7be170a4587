"""rankmetrics evaluate / compare on the command line: the package's numbers, Korean tables, clean errors."""

from __future__ import annotations

import csv
import io
import json

import pytest
from korean_output import english_runs

import rankmetrics as rm
from rankmetrics import cli


@pytest.fixture
def files(trec_eval_data):
    return str(trec_eval_data / "qrels.test"), str(trec_eval_data / "results.test")


def run(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_evaluate_prints_the_packages_summary_in_a_korean_table(capsys, files):
    qrels, results = files
    status, out, err = run(capsys, "evaluate", qrels, results, "map", "P_10", "nDCG@10")
    expected = rm.evaluate(qrels, results, ["map", "P_10", "nDCG@10"])
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["지표", "값"]
    assert {line.split()[0]: line.split()[1] for line in lines[2:5]} == {
        m: f"{expected.summary[m]:.4f}" for m in ["map", "P_10", "nDCG@10"]
    }
    assert lines[-1] == f"질의 3개 · rankmetrics {rm.__version__} · 기준 trec_eval-10"


def test_tsv_csv_and_json_give_every_value_as_evaluate_does(capsys, files):
    qrels, results = files
    expected = rm.evaluate(qrels, results, ["map", "num_ret"], like="trec_eval-9", judged_only=True)
    for form, delimiter in (("tsv", "\t"), ("csv", ",")):
        status, out, _ = run(
            capsys,
            "evaluate",
            qrels,
            results,
            "map",
            "num_ret",
            "--per-query",
            "--format",
            form,
            "--like",
            "trec_eval-9",
            "--judged-only",
        )
        rows = list(csv.reader(io.StringIO(out), delimiter=delimiter))
        assert status == 0 and rows[0] == ["query", "measure", "value"]
        values = {(q, m): v for q, m, v in rows[1:]}
        assert values[("302", "map")] == repr(expected.value("map", "302"))
        assert values[("all", "num_ret")] == str(int(expected.summary["num_ret"]))
        assert len(rows) == 1 + 2 * 3 + 2
    status, out, _ = run(
        capsys, "evaluate", qrels, results, "map", "--format", "json", "--per-query", "--ties", "input_order"
    )
    data = json.loads(out)
    by_input = rm.evaluate(qrels, results, "map", ties="input_order")
    assert data["summary"] == {"map": by_input.summary["map"]}
    assert data["per_query"]["301"]["map"] == by_input.value("map", "301")
    assert data["rankmetrics"] == rm.__version__ and data["reference"] == "trec_eval-10"
    assert data["conventions"]["ties"] == "input_order"


def test_explain_shows_one_query_and_its_step_table(capsys, files):
    qrels, results = files
    status, out, _ = run(
        capsys, "evaluate", qrels, results, "--explain", "302", "--measure", "P_5", "--rows", "5"
    )
    value = rm.evaluate(qrels, results, "P_5").value("P_5", "302")
    assert status == 0
    assert out.splitlines()[0].split() == ["순위", "문서", "점수", "비교한", "점수", "등급", "상태"]
    assert f"P_5 = {value!r}" in out and "(아래 495개 생략)" in out  # 500 documents, 5 shown
    assert "P@5 = 정답 수 ÷ k = 4 ÷ 5 = 0.8" in out  # the step table; 4 relevant in the top 5


def test_compare_prints_each_run_against_the_first(capsys, files):
    qrels, results = files
    status, out, _ = run(
        capsys, "compare", qrels, results, results, "--measures", "map", "P_10", "--resamples", "99"
    )
    assert status == 0
    lines = out.splitlines()
    assert lines[1].split()[0] == "지표"
    assert lines[3].split()[:4] == ["map", "0.1785", "0.1785", "+0.0000"]
    assert "모든 질의의 차이가 같아" in out and out.rstrip().endswith("기준 trec_eval-10")
    assert "지표 2개에 걸친 Holm 보정" in out


def test_compare_counts_one_measure_under_two_names_once_for_holm(capsys, files):
    qrels, results = files
    status, out, _ = run(
        capsys, "compare", qrels, results, results, "--measures", "map", "AP", "--resamples", "99"
    )
    assert status == 0 and "지표 1개에 걸친 Holm 보정" in out  # map and AP: one hypothesis


def refuse(constant):
    raise ValueError(f"not JSON: {constant}")


def test_compare_json_is_strict_json_when_the_runs_are_identical(capsys, files):
    # Identical runs: every difference is 0, so the t-test is undefined (nan in Python). JSON has
    # no NaN; a strict parser (JSON.parse, parse_constant refusing) must read the output: null.
    qrels, results = files
    status, out, _ = run(capsys, "compare", qrels, results, results, "--measures", "map", "--format", "json")
    assert status == 0
    data = json.loads(out, parse_constant=refuse)
    row = data["comparisons"][0]["map"]
    assert row["p_ttest"] is None and row["t_statistic"] is None and row["p_ttest_holm"] is None
    assert row["difference"] == 0.0 and row["p_permutation"] == 1.0 and row["ties"] == 3


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["evaluate", "missing.qrels", "missing.run", "map"], "qrels 파일 'missing.qrels'이(가) 없습니다"),
        (["evaluate", "{qrels}", "{run}", "nope@3"], "알 수 없는 지표 'nope@3'; 아는 지표:"),
        (["evaluate", "{qrels}", "{run}", "P"], "'P'에는 컷오프가 필요합니다"),
        (["evaluate", "{qrels}", "{run}", "map", "--ties", "random"], "ties에는 'docno_descending'"),
        (
            ["evaluate", "{qrels}", "{run}", "map", "--max-documents", "many"],
            "--max-documents에는 수를 주세요: 'many'",
        ),
        (
            ["evaluate", "{qrels}", "{run}", "map", "--relevance-level", "nan"],
            "relevance_level에는 유한한 수를 주세요",
        ),
        (
            ["evaluate", "{qrels}", "{run}", "map", "--format", "xml"],
            "--format은 table, tsv, csv, json 가운데 하나입니다",
        ),
        (["evaluate", "{qrels}", "{run}"], "지표 이름을 하나 이상 주세요"),
        (["evaluate", "{qrels}", "{run}", "map", "--like", "ranks"], "like에는 'trec_eval-10', "),
        (
            ["evaluate", "{qrels}", "{run}", "map", "--explain", "nope"],
            "질의 'nope'에는 판정 파일의 판정이 없어",
        ),
        (
            ["evaluate", "{qrels}", "{run}", "map", "--explain", "1", "--rows", "0"],
            "--rows에는 1 이상의 정수를 주세요",
        ),
        (["evaluate", "{bad}", "{run}", "map"], "번째 줄: 필드 4개"),
        (["compare", "{qrels}", "{run}", "--measures", "map"], "비교할 결과 파일을 둘 이상 주세요"),
        (
            ["compare", "{qrels}", "{run}", "{run}", "--measures", "map", "--format", "csv"],
            "--format은 table, json",
        ),
        (
            ["compare", "{qrels}", "{run}", "{run}", "--measures", "map", "--resamples", "0"],
            "n_resamples에는 양의 정수",
        ),
    ],
)
def test_bad_input_is_one_korean_line_on_stderr_and_status_2(capsys, files, tmp_path, argv, words):
    qrels, results = files
    (tmp_path / "bad.qrels").write_text("1 0 a\n")  # a judgement without its grade
    argv = [a.format(qrels=qrels, run=results, bad=tmp_path / "bad.qrels") for a in argv]
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and words in err and err.startswith(f"rankmetrics {argv[0]}: 오류:"), err
    assert english_runs(err, argv) == [], err  # no English sentence outside what was typed


def test_a_judged_query_absent_from_the_run_is_a_korean_warning(capsys, tmp_path):
    (tmp_path / "q").write_text("q1 0 a 1\nq2 0 b 1\n")
    (tmp_path / "r").write_text("q1 Q0 a 1 0.5 t\n")
    status, out, err = run(capsys, "evaluate", str(tmp_path / "q"), str(tmp_path / "r"), "map")
    assert status == 0 and out.splitlines()[2].split() == ["map", "1.0000"]
    assert (
        err
        == "경고: 판정된 질의 가운데 결과 파일에 없는 질의를 건너뛰었습니다 (0점으로 셀 때는 --missing zero): q2\n"
    )
