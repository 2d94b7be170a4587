"""The command-line calculator: its numbers, its step tables, its help and its errors.

Two checks run it as a user runs it, through a subprocess: ``python -m rankmetrics``
and the ``rankmetrics`` console script. Everything else calls ``cli.main`` in-process,
which is the code both entry points run, to keep the suite fast: each subprocess pays
for a Python start-up and an import. (The real entry point's refusal, on stderr with
status 2, is checked in test_cli_edge.py; odd terminal encodings there too.)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from korean_output import english_runs

import rankmetrics as rm
from rankmetrics import cli


def run(*args: str, program: list[str] | None = None) -> subprocess.CompletedProcess:
    command = (program or [sys.executable, "-m", "rankmetrics"]) + list(args)
    return subprocess.run(command, check=False, capture_output=True, text=True, encoding="utf-8", timeout=60)


def last_line(result: subprocess.CompletedProcess) -> str:
    return result.stdout.rstrip("\n").splitlines()[-1]


# --- through a subprocess ------------------------------------------------------


def test_value_alone_on_the_last_line():
    result = run("ndcg", "3", "0", "3", "2", "0", "--k", "5")
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout == "0.9098158578127802\n"  # 5.3614 / 5.8928, the movie list
    assert float(last_line(result)) == rm.ndcg([3, 0, 3, 2, 0], k=5)


def test_ids_form_and_the_console_script():
    script = Path(sys.executable).with_name("rankmetrics")
    assert script.exists(), "console script missing: run `pip install --no-deps -e .` (make test does)"
    result = run("precision", "--ranking", "A", "B", "C", "D", "E", "--relevant", "B", "D", "F", "G",
                 "--k", "5", program=[str(script)])  # fmt: skip
    assert result.returncode == 0 and result.stdout == "0.4\n"  # 2 of the top 5


# --- in-process: cli.main, which both entry points run ------------------------


def call(capsys, *args: str) -> tuple[int, str, str]:
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def help_text(capsys, *args: str) -> str:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(list(args))
    assert exit_info.value.code == 0
    return capsys.readouterr().out


def test_explain_prints_the_step_table_and_the_card_last(capsys):
    status, out, err = call(capsys, "ndcg", "1", "0", "1", "0", "1", "--explain", "--decimals", "2",
                            "--discount-decimals", "1")  # fmt: skip
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "nDCG 단계표"
    assert "손 계산: nDCG = 1.88 ÷ 2.13 = 0.88" in lines
    assert "nDCG = DCG ÷ IDCG = 1.8869 ÷ 2.1309 = 0.8855" in lines
    assert any(line.startswith("처음 갈라지는 곳: [내 순위] 5위의 이득÷할인") for line in lines)
    assert lines[-1].startswith("규칙 │ 이득: 등급 그대로 (linear) │ 할인: log2(순위 + 1)")


def test_decimals_without_explain_prints_the_hand_result(capsys):
    one_decimal = ["--decimals", "2", "--discount-decimals", "1"]
    assert call(capsys, "ndcg", "O", "X", "O", "X", "O", *one_decimal) == (0, "0.88\n", "")
    three_places = call(capsys, "ndcg", "3", "0", "3", "2", "0", "--decimals", "3")
    assert three_places == (0, "0.910\n", "")  # 5.361 / 5.893


def test_bad_input_exits_2_with_one_line(capsys):
    status, out, err = call(capsys, "ndcg", "3", "-1", "2")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(
        "rankmetrics ndcg: 오류: 순위 순서대로 적은 등급 형태의 x에는 음수 등급이 들어갈 수 없습니다; "
        "[3, -1, 2] 안에 -1이(가) 있습니다."
    )
    assert english_runs(err, ["ndcg"]) == []


def test_help_is_in_korean(capsys):
    out = help_text(capsys, "--help")
    assert out.startswith("사용법: rankmetrics")
    assert "worksheet  학습지와 답안지를 만듭니다" in out
    assert "위치 인자:\n  <명령>" in out and "옵션:\n  -h, --help  이 도움말을 보이고 끝냅니다" in out
    assert english_runs(out) == []
    assert "예:\n  rankmetrics mrr --query 1 0 0 0" in help_text(capsys, "mrr", "--help")


def test_worksheet_command_writes_four_files(capsys, tmp_path):
    status, out, _ = call(capsys, "worksheet", "--seed", "3", "--count", "2", "--metrics", "ndcg,rr",
                          "--out", str(tmp_path))  # fmt: skip
    assert status == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["answers-seed3.html", "answers-seed3.md", "worksheet-seed3.html", "worksheet-seed3.md"]
    assert out.splitlines() == [str(tmp_path / n) for n in
                                ["worksheet-seed3.md", "worksheet-seed3.html",
                                 "answers-seed3.md", "answers-seed3.html"]]  # fmt: skip


# --- every subcommand ---------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        # the documents' numbers, each also computed by the package function
        (["dcg", "3", "0", "3", "2", "0"], rm.dcg([3, 0, 3, 2, 0])),  # 5.3614
        (["ndcg", "3", "2", "3", "0", "1", "--gain", "exponential"], rm.ndcg([3, 2, 3, 0, 1], gain="exponential")),
        (["ndcg", "1", "0", "1", "0", "1", "--ideal", "1", "1", "1", "1"], rm.ndcg([1, 0, 1, 0, 1], ideal=[1] * 4)),
        (["recall", "--ranking", *"ABCDE", "--relevant", *"BDFG", "--k", "5"], 0.5),
        (["recall", "O", "X", "O", "X", "O", "--k", "3", "--n-relevant", "4"], 0.5),  # 2 / 4
        (["f1", "--ranking", *"ABCDE", "--relevant", *"BDFG", "--k", "5"], rm.f1(list("ABCDE"), 5, relevant=set("BDFG"))),
        (["hit-rate", "0", "0", "0", "1", "0", "--k", "3"], 0.0),
        (["hit-rate", "0", "0", "0", "1", "0", "--k", "5"], 1.0),
        (["rr", "--ranking", *"XYZW", "--relevant", "Z"], 1 / 3),
        (["ap", "O", "X", "O", "X", "O"], rm.average_precision([1, 0, 1, 0, 1])),  # 0.7556
        (["ap", "O", "X", "O", "X", "O", "--n-relevant", "4"], rm.average_precision([1, 0, 1, 0, 1], n_relevant=4)),
        (["mr", "--ranking", *"ABCDE", "--relevant", "B", "D"], 3.0),  # (2 + 4) / 2
        (["mrr", "--query", "1", "0", "0", "0", "--query", "0", "0", "1", "0", "--query", "0", "1", "0", "0"],
         rm.mean_reciprocal_rank([[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0]])),  # 0.6111
        (["map", "--query", *"OXOXO", "--query", *"XOXOX", "--query", *"OOXXX"],
         rm.mean_average_precision([[1, 0, 1, 0, 1], [0, 1, 0, 1, 0], [1, 1, 0, 0, 0]])),  # 0.7519
        (["mrr", "--query", "A", "B", "--relevant", "B", "--query", "C", "D", "--relevant", "C"], 0.75),
        (["ndcg", "--ranking", "d1", "d2", "d3", "d4", "d5", "--relevant", "d1:3", "d3:3", "d4:2", "d6:1",
          "--k", "5"], rm.ndcg(["d1", "d2", "d3", "d4", "d5"], 5, relevant={"d1": 3, "d3": 3, "d4": 2, "d6": 1})),
        (["mse", "--true", "5", "4", "3", "2", "1", "--pred", "4", "5", "2", "1", "5"], 4.0),
        (["mae", "--true", "5", "4", "3", "2", "1", "--pred", "4", "5", "2", "1", "5"], 1.6),
        (["rmse", "--true", "5", "4", "3", "2", "1", "--pred", "4", "5", "2", "1", "5"], 2.0),
    ],
)  # fmt: skip
def test_every_subcommand_prints_the_package_value(capsys, args, expected):
    status, out, err = call(capsys, *args)
    assert status == 0 and err == ""
    assert out == repr(float(expected)) + "\n"


def test_mean_rank_without_hits_prints_nan(capsys):
    assert call(capsys, "mr", "0", "0", "0") == (0, "nan\n", "")


@pytest.mark.parametrize(
    "command",
    ["ndcg", "dcg", "precision", "recall", "f1", "hit-rate", "rr", "mrr", "ap", "map", "mr", "mse", "mae",
     "rmse", "worksheet", "evaluate", "compare"],
)  # fmt: skip
def test_every_subcommand_has_korean_help_with_an_example(capsys, command):
    with pytest.raises(SystemExit) as exit_info:
        cli.main([command, "--help"])
    out = capsys.readouterr().out
    assert exit_info.value.code == 0
    assert out.startswith(f"사용법: rankmetrics {command}")
    assert f"예:\n  rankmetrics {command} " in out
    assert "옵션:\n  -h, --help" in out and "이 도움말을 보이고 끝냅니다" in out
    assert english_runs(out) == [], out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ndcg", "3", "a", "2"], "rankmetrics ndcg: 오류: x에는 수(또는 O/X)만 적을 수 있습니다; '3 a 2' 안에 'a'이(가)"),
        (["ndcg", "3", "0", "--k", "0"], "rankmetrics ndcg: 오류: k에는 양의 정수나 None을 주세요; 받은 값: 0"),
        (["ndcg", "3", "0", "--k", "2.5"], "rankmetrics ndcg: 오류: k에는 양의 정수나 None을 주세요; 받은 값: 2.5"),
        (["ndcg", "1", "0", "--gain", "log"],
         "rankmetrics ndcg: 오류: gain에는 'linear', 'exponential', 'binary' 가운데 하나를 주세요; 받은 값: 'log'"),
        (["precision", "--ranking", "A", "B", "A", "--relevant", "A"],
         "rankmetrics precision: 오류: ranking에 id 'A'이(가) 두 번 있습니다 (1위와 3위)"),
        (["ap", "O", "X", "O", "--n-relevant", "1"],
         "rankmetrics ap: 오류: n_relevant=1이(가) 순위 목록에 이미 든 정답 2개보다 작습니다"),
        (["mse", "--true", "1", "2", "--pred", "1"],
         "rankmetrics mse: 오류: y_true와 y_pred는 길이가 같아야 합니다; 받은 길이: 2, 1"),
        (["map", "--query", "1", "0", "--query", "0", "1", "--n-relevant", "1"],
         "rankmetrics map: 오류: n_relevant에는 질의마다 하나씩(질의 2개)을 주세요; 받은 값: [1]"),
        (["ndcg"], "rankmetrics ndcg: 오류: 등급을 순위 순서대로 주세요"),
        (["ndcg", "1", "0", "--ranking", "A", "B", "--relevant", "A"], "rankmetrics ndcg: 오류: 목록은 한 번만"),
        (["precision", "--ranking", "A", "B"], "rankmetrics precision: 오류: --ranking에는 --relevant가 필요합니다"),
        (["mrr"], "rankmetrics mrr: 오류: 질의마다 --query를 하나씩 주세요"),
        (["mrr", "--query", "A", "--relevant", "A", "--query", "B"], "rankmetrics mrr: 오류: --query마다 --relevant"),
        (["mse", "--true", "1"], "rankmetrics mse: 오류: --true와 --pred를 둘 다 주세요"),
        # argparse's own refusals, from the catalogue
        (["ndcg", "1", "--bogus"], "rankmetrics ndcg: 오류: 알 수 없는 인자: --bogus (도움말: rankmetrics ndcg --help)"),
        (["nope"], "rankmetrics: 오류: 인자 <명령>: 고를 수 없는 값: 'nope' ('ndcg', 'dcg',"),
        (["ndcg", "1", "--k"], "rankmetrics ndcg: 오류: 인자 --k: 값이 하나 필요합니다"),
        (["precision", "--ranking", "A", "--relevant"], "rankmetrics precision: 오류: 인자 --relevant: 값이 하나 이상 필요합니다"),
        (["evaluate"], "rankmetrics evaluate: 오류: 다음 인자가 필요합니다: QRELS, RUN"),
        (["compare", "q"], "rankmetrics compare: 오류: 다음 인자가 필요합니다: RUN, --measures"),
        (["ndcg", "1", "--k", "2", "--k", "3"], "rankmetrics ndcg: 오류: 인자 --k: 한 번만 주세요"),
        ([], "rankmetrics: 오류: 지표를 고르세요"),
        (["ndcg", "1", "0", "--decimals", "16"], "rankmetrics ndcg: 오류: decimals에는 0부터 15까지의 정수를 주세요; 받은 값: 16"),
        (["worksheet", "--seed", "1", "--metrics", "ndcg,xyz", "--out", "unused"],
         "rankmetrics worksheet: 오류: metrics는 ndcg, dcg, precision, recall, f1, hit-rate, rr, mr, ap, mrr, map 가운데에서 고르세요; 받은 값: 'xyz'"),
        (["worksheet", "--seed", "-1", "--out", "unused"], "rankmetrics worksheet: 오류: seed는 0 이상의 정수여야 합니다"),
    ],
)  # fmt: skip
def test_every_error_is_one_korean_line_with_status_2(capsys, args, message):
    status, out, err = call(capsys, *args)
    assert status == 2 and out == ""
    assert err.startswith(message)
    assert err.count("\n") == 1
    assert english_runs(err, args) == [], err  # no English sentence outside what was typed


def test_the_api_speaks_english_and_the_cli_korean_whatever_the_api_was_set_to(capsys):
    # The CLI sets Korean for its own run only, and puts the caller's language back.
    with rm.use_language("en"):
        status, _, err = call(capsys, "ndcg", "3", "0", "--k", "0")
        assert status == 2 and err.startswith("rankmetrics ndcg: 오류: k에는 양의 정수나 None을 주세요")
        assert rm.language() == "en"
        with pytest.raises(ValueError, match=r"^k must be a positive integer or None; got 0$"):
            rm.ndcg([3, 0], k=0)
    import argparse

    assert argparse._ is __import__("gettext").gettext  # argparse's own translator is back
