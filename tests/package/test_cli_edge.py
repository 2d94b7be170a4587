"""The command line refuses bad input clearly: no typo read as data, no traceback, no crash on a terminal.

Every expected value here is worked out by hand in a comment; every refusal is
checked for its exit status (2), its single line on stderr, and its Hangul.
"""

from __future__ import annotations

import errno
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from korean_output import english_runs

from rankmetrics import cli

HANGUL = re.compile("[\uac00-\ud7a3]")
HUGE = "1" + "0" * 400  # 10**400: beyond every float
WORKSHEET_FILES = ["answers-seed1.html", "answers-seed1.md", "worksheet-seed1.html", "worksheet-seed1.md"]


def call(capsys, *args: str) -> tuple[int, str, str]:
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def assert_refused(status: int, out: str, err: str, typed: list[str] | tuple[str, ...] = ()) -> None:
    assert status == 2, (status, out, err)
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err  # exactly one line
    assert err.strip(), err
    assert HANGUL.search(err), err
    assert "Traceback" not in err
    assert english_runs(err, typed) == [], err  # no English sentence outside what was typed


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """The real entry point; bytes, so that an odd encoding is checked as it is written."""
    command = [sys.executable, "-m", "rankmetrics", *args]
    return subprocess.run(command, check=False, capture_output=True, env=env, timeout=60)


# --- 1. a typo is refused, not read as data --------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        # 'B:l' (l for 1) was an item named "B:l": nothing relevant in the list, precision 0.0
        (["precision", "--ranking", "A", "B", "--relevant", "B:l"], ["--relevant", "'B:l'", "등급은 수여야"]),
        (["ndcg", "--ranking", "A", "B", "--relevant", "A:3", "B:"], ["--relevant", "'B:'"]),
        (["ndcg", "--ranking", "A", "B", "--relevant", ":3"], ["--relevant", "':3'"]),
        (["mrr", "--query", "A", "B", "--relevant", "B:x"], ["1번째 --relevant", "'B:x'"]),
        # an id with a colon that is also in the ranking: "doc:1" or "doc" with grade 1?
        (["precision", "--ranking", "doc:1", "doc:2", "--relevant", "doc:1"], ["--relevant", "'doc:1'", "doc:1:1"]),
        # the same item twice: which grade did the user mean?
        (["ndcg", "--ranking", "A", "B", "--relevant", "B", "B:3"], ["--relevant", "'B'", "두 번"]),
        # O/X and numbers in one list: in "O 2 X" or "O 0 X" a letter or a digit is mistyped
        (["ndcg", "O", "2", "X"], ["O/X와 숫자", "'O 2 X'"]),
        (["ap", "O", "0", "X"], ["O/X와 숫자", "'O 0 X'"]),
        (["ndcg", "1", "0", "--ideal", "O", "1"], ["--ideal", "'O 1'"]),
        (["map", "--query", "O", "X", "--query", "O", "1", "X"], ["2번째 --query", "'O 1 X'"]),
        (["mse", "--true", "5", "4", "--pred", "4", "x"], ["--pred", "'x'"]),
        (["mae", "--true", "5", "O", "--pred", "4", "1"], ["--true", "'O'"]),
        (["ap", "O", "X", "O", "--n-relevant", "4x"], ["--n-relevant", "'4x'"]),
        (["mrr", "--query", "1", "0", "--k", "two"], ["--k", "'two'"]),
        (["worksheet", "--seed", "seven", "--out", "unused"], ["--seed", "'seven'"]),
        # digits of another script: int("٣") is 3, but a grade is written in ASCII digits
        (["ndcg", "٣", "٠", "٢"], ["'٣ ٠ ٢'", "'٣'"]),
        (["ndcg", "--ranking", "A", "B", "--relevant", "A:٣"], ["--relevant", "'A:٣'"]),
        (["ndcg", "3", "0", "2", "--k", "٢"], ["--k", "'٢'"]),
        # argparse would keep only the last one: D alone judged relevant
        (["precision", "--ranking", "B", "D", "--relevant", "B", "--relevant", "D"], ["--relevant", "한 번만"]),
        (["ndcg", "1", "0", "1", "--k", "2", "--k", "3"], ["--k", "한 번만"]),
    ],
)  # fmt: skip
def test_a_typo_is_refused_naming_the_option_and_the_value(capsys, args, words):
    status, out, err = call(capsys, *args)
    assert_refused(status, out, err, args)
    for word in words:
        assert word in err


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        # the fixed typo: B is relevant, 1 of the 2 listed -> 0.5
        (["precision", "--ranking", "A", "B", "--relevant", "B:1"], "0.5"),
        # an id with a colon takes its grade: {"a:b": 2}; DCG = 2/log2(2) = 2 = IDCG -> 1.0
        (["ndcg", "--ranking", "a:b", "c", "--relevant", "a:b:2"], "1.0"),
        (["precision", "--ranking", "doc:1", "doc:2", "--relevant", "doc:1:1"], "0.5"),  # 1 of 2
        # lower-case o/x are still O/X: 2 hits in the top 3 -> 2/3
        (["precision", "o", "x", "o", "--k", "3"], repr(2 / 3)),
        # a grade may be negative in the id form (TREC's -1, in the pool but unjudged): 1 hit of 2
        (["precision", "--ranking", "A", "B", "--relevant", "A:-1", "B:2"], "0.5"),
    ],
)  # fmt: skip
def test_what_looks_like_a_typo_but_is_not(capsys, args, expected):
    assert call(capsys, *args) == (0, expected + "\n", "")


# --- 2. every bad input: status 2, one Korean line, no traceback -----------------


BAD = [
    ["ndcg", "1", "0", "--k", "0"],
    ["ndcg", "1", "0", "--k", "-1"],
    ["ndcg", "1", "0", "--k", "2.5"],
    ["precision", "1", "0", "--k", HUGE],  # P@k divides by k: 10**400 is no float
    ["ndcg", "1", "0", "--k", "1" * 5000],  # more digits than int() reads
    ["ndcg", "1", "0", "--decimals", "-1"],
    ["ndcg", "1", "0", "--decimals", "28"],
    ["ndcg", "1", "0", "--decimals", "two"],
    ["ndcg", "1", "0", "--discount-decimals", "1"],  # only with --decimals
    ["ndcg", "nan", "1"],
    ["ndcg", "1", "inf"],
    ["ndcg", "1", "1e400"],
    ["mse", "--true", "1", "--pred", "-inf"],
    ["mse", "--true", "1", "2", "--pred", "1"],
    ["mse", "--true", "0"],
    ["ap", "O", "X", "--n-relevant", "-2"],
    ["ndcg", "\udcff"],  # a byte that is not UTF-8 in the command line
    ["ndcg", "1", "--bogus"],
    ["nope"],
    [],
    ["worksheet", "--seed", "1", "--count", "0", "--out", "unused"],
    ["worksheet", "--seed", "1", "--count", "1001", "--out", "unused"],
    ["worksheet", "--seed", "1", "--count", HUGE, "--out", "unused"],
    ["worksheet", "--seed", "1", "--decimals", "16", "--out", "unused"],
    ["worksheet", "--seed", "1", "--decimals", "28", "--out", "unused"],
    ["worksheet", "--seed", "-1", "--out", "unused"],
    ["worksheet", "--seed", "1", "--out", ""],
    ["worksheet", "--seed", "1"],
]


def _shown(args) -> str:
    args = args.values[0] if hasattr(args, "values") else args
    return " ".join(args)[:60] or "(nothing)"


@pytest.mark.parametrize("args", BAD, ids=_shown)
def test_every_bad_input_is_one_korean_line_with_status_2(capsys, args):
    assert_refused(*call(capsys, *args), args)


def test_the_real_entry_point_refuses_the_same_way():
    # One smoke test of `python -m rankmetrics`: the refusals themselves are checked in-process
    # above (BAD and the typo cases), where they cost no interpreter start.
    result = run("precision", "1", "0", "--k", HUGE)
    err = result.stderr.decode("utf-8")
    assert_refused(result.returncode, result.stdout.decode("utf-8"), err)


# --- the system's refusals: one line naming the file ------------------------------


def test_out_is_a_file(capsys, tmp_path):
    (tmp_path / "notes.txt").write_text("keep")
    status, out, err = call(capsys, "worksheet", "--seed", "1", "--out", str(tmp_path / "notes.txt"))
    assert_refused(status, out, err)
    assert "폴더 자리에 파일이 있습니다" in err and "notes.txt" in err
    status, out, err = call(capsys, "worksheet", "--seed", "1", "--out", str(tmp_path / "notes.txt" / "sub"))
    assert_refused(status, out, err)
    assert (tmp_path / "notes.txt").read_text() == "keep"


def test_a_folder_where_a_worksheet_file_goes(capsys, tmp_path):
    (tmp_path / "worksheet-seed1.md").mkdir()
    status, out, err = call(capsys, "worksheet", "--seed", "1", "--out", str(tmp_path), "--force")
    assert_refused(status, out, err)
    assert "파일 자리에 폴더가 있습니다" in err and "worksheet-seed1.md" in err


def test_permission_denied(capsys, tmp_path, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):  # root writes anyway: the system's own refusal, simulated

            def refuse(self, *args, **kwargs):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))

            monkeypatch.setattr(Path, "mkdir", refuse)
        status, out, err = call(capsys, "worksheet", "--seed", "1", "--out", str(locked / "sheets"))
    finally:
        locked.chmod(0o700)
    assert_refused(status, out, err)
    assert "권한이 없습니다" in err and "sheets" in err


# --- 3. negative numbers are values --------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        # argparse read -1e-3 as an unknown option ("expected at least one argument")
        (["mse", "--true", "0", "--pred", "-1e-3"], 1e-6),  # (0 - -0.001)^2
        (["mae", "--true", "0", "0", "--pred", "-.5", "-1E1"], 5.25),  # (0.5 + 10) / 2
        (["mae", "--pred", "-1", "--true", "-3"], 2.0),  # |-3 - -1|, options in either order
        (["mae", "--true", "0", "0", "--pred", "-5.e-1", "-2"], 1.25),  # (0.5 + 2) / 2
        (["rmse", "--true", "-1", "-2", "--pred", "-1", "-4"], 2**0.5),  # errors 0, 2: sqrt(4 / 2)
        (["precision", "--ranking", "-5", "-3", "--relevant", "-3"], 0.5),  # ids that look negative: 1 of 2
    ],
)  # fmt: skip
def test_negative_numbers_are_values(capsys, args, expected):
    status, out, err = call(capsys, *args)
    assert status == 0 and err == ""
    assert float(out) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # a negative value reaches the package, which names it
        (["ndcg", "1", "0", "--k", "-1e3"], "k에는 양의 정수나 None을 주세요; 받은 값: -1000.0"),
        (["ndcg", "1", "-2.5", "1"], "등급 형태의 x에는 음수 등급이 들어갈 수 없습니다; [1, -2.5, 1] 안에 -2.5이(가)"),
        (["mse", "--true", "-nan", "--pred", "1"], "y_true에는 유한한 수만 들어갈 수 있습니다"),
        (["worksheet", "--seed", "1", "--count", "-3", "--out", "unused"], "count는 1000 이하의 양의 정수여야 합니다"),
    ],
)  # fmt: skip
def test_negative_values_reach_the_package_check(capsys, args, message):
    status, out, err = call(capsys, *args)
    assert_refused(status, out, err, args)
    assert message in err


# --- 4. a terminal that cannot show Hangul ------------------------------------------


def _env(**extra: str) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "PYTHONUTF8", "LC_ALL", "LANG")
    }
    return {**env, **extra}


ODD_TERMINALS = {
    "PYTHONIOENCODING=ascii": _env(PYTHONIOENCODING="ascii"),
    "LC_ALL=C": _env(LC_ALL="C"),
    # no locale coercion, no UTF-8 mode: a true ASCII terminal
    "LC_ALL=C, no coercion": _env(LC_ALL="C", PYTHONCOERCECLOCALE="0", PYTHONUTF8="0"),
}


@pytest.mark.parametrize("env", ODD_TERMINALS.values(), ids=ODD_TERMINALS.keys())
def test_an_odd_terminal_encoding_never_crashes(env):
    good = run("ndcg", "1", "0", "1", "--explain", env=env)  # the step table is in Korean
    assert good.returncode == 0, good.stderr
    assert good.stderr == b""
    text = good.stdout.decode("utf-8")  # ASCII or UTF-8, both read as UTF-8
    assert text.splitlines()[0] in ("nDCG 단계표", "nDCG \\ub2e8\\uacc4\\ud45c")  # 단계표, as is or escaped
    bad = run("ndcg", "O", "2", "X", env=env)
    assert bad.returncode == 2 and bad.stdout == b""
    assert bad.stderr.count(b"\n") == 1 and b"Traceback" not in bad.stderr
    assert bad.stderr.startswith(b"rankmetrics ndcg: ")
    helped = run("worksheet", "--help", env=env)
    assert helped.returncode == 0 and b"Traceback" not in helped.stderr


def test_write_escapes_what_the_stream_cannot_encode():
    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="strict")
    cli._write("오류: x\n", stream)
    assert stream.buffer.getvalue() == b"\\uc624\\ub958: x\n"


# --- 5. a worksheet never destroys a file --------------------------------------------


def test_worksheet_refuses_to_overwrite_unless_forced(capsys, tmp_path):
    args = ["worksheet", "--seed", "1", "--count", "2", "--out", str(tmp_path)]
    assert call(capsys, *args)[0] == 0
    (tmp_path / "answers-seed1.md").write_text("my notes")
    status, out, err = call(capsys, *args)
    assert_refused(status, out, err)
    assert "--force" in err and "worksheet-seed1.md" in err  # the first of the four that exists
    assert (tmp_path / "answers-seed1.md").read_text() == "my notes"
    status, out, err = call(capsys, *args, "--force")
    assert status == 0 and err == ""
    assert (tmp_path / "answers-seed1.md").read_text(encoding="utf-8").startswith("# 랭킹 지표 학습지 답안지")


def test_worksheet_never_writes_through_a_link(capsys, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("keep")
    out = tmp_path / "sheets"
    out.mkdir()
    (out / "worksheet-seed1.html").symlink_to(outside)
    for extra in ([], ["--force"]):
        status, o, err = call(capsys, "worksheet", "--seed", "1", "--out", str(out), *extra)
        assert_refused(status, o, err)
        assert "심볼릭 링크입니다" in err
    assert outside.read_text() == "keep"
    assert sorted(p.name for p in out.iterdir()) == ["worksheet-seed1.html"]  # nothing half-written


def test_the_refused_link_is_said_in_korean(capsys, tmp_path):
    out = tmp_path / "sheets"
    out.mkdir()
    (out / "worksheet-seed1.html").symlink_to(tmp_path / "outside.txt")
    assert_refused(*call(capsys, "worksheet", "--seed", "1", "--out", str(out)), [str(out)])
