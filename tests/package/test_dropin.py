"""rankmetrics.trec.dropin prints what NIST trec_eval 10.0 prints, byte for byte.

Every case recorded by benchmarks/trec_eval_reference.py (tests/data/trec_eval_10/index.json)
is run through ``dropin.main`` with the same arguments (and standard input): its
standard output, standard error and exit code must be trec_eval 10.0's (-h and the
usage text included), except for the version line, which names the drop-in.
Cases where trec_eval's behaviour is undefined (a crash) are left out; the cases
where trec_eval silently misreads a number are refused instead (REFUSED, with the
exact line). Where the drop-in does not follow trec_eval 10.0 yet, a case would be a
strict xfail in KNOWN naming why; there is none.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from rankmetrics.trec import dropin

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "trec_eval_10"
INDEX = json.loads((DATA / "index.json").read_text(encoding="utf-8"))
OWN_TEXT = {"version"}  # the drop-in's own version line; its -h and usage texts are trec_eval's
# Cases where trec_eval silently misreads a number (atof/atol) and the drop-in refuses instead:
# (exit code, the one stderr line). See test_refuses_what_trec_eval_misreads.
REFUSED = {
    "atof_atol": (
        2,
        "trec_eval (rankmetrics): atof.qrels line 4: the relevance must be a decimal number such as "
        "2, 0 or -1; got '1x'\n",
    ),
    # The second of two comment lines in a row is a judgement of query '#' for trec_eval 10.0,
    # with docno 'five' and grade atol('six') = 0: the grade is refused.
    "qrels_two_comments_4_fields": (
        2,
        "trec_eval (rankmetrics): c2b.qrels line 2: the relevance must be a decimal number such as "
        "2, 0 or -1; got 'six'\n",
    ),
    "level_not_a_number": (
        1,
        "trec_eval (rankmetrics): -l (the relevance level) must be a whole number; got 'x'\n",
    ),
}

# Cases the drop-in does not reproduce yet, with the reason (strict xfails): none left.
KNOWN: dict[str, str] = {}


def _cases() -> list:
    return [
        pytest.param(
            name,
            marks=[pytest.mark.xfail(strict=True, reason=KNOWN[name])] if name in KNOWN else [],
        )
        for name, case in INDEX["cases"].items()
        if not case.get("undefined") and name not in REFUSED
    ]


def run(name: str) -> tuple[int, str, str]:
    case = INDEX["cases"][name]
    stdout, stderr = io.StringIO(), io.StringIO()
    stdin = io.StringIO((ROOT / case["stdin"]).read_text(encoding="utf-8") if case["stdin"] else "")
    code = dropin.main(case["args"], stdout, stderr, stdin)
    return code, stdout.getvalue(), stderr.getvalue()


@pytest.fixture(autouse=True)
def _from_the_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # the recorded arguments are paths from the repository's root


@pytest.mark.parametrize("name", _cases())
def test_prints_what_trec_eval_10_prints(name):
    case = INDEX["cases"][name]
    code, stdout, stderr = run(name)
    assert code == case["exit_code"]
    expected = (DATA / case["stdout"]).read_text(encoding="utf-8")
    assert stdout == expected
    if name not in OWN_TEXT:
        assert stderr == (DATA / case["stderr"]).read_text(encoding="utf-8")


def test_version_line_names_10_0():
    code, stdout, stderr = run("version")
    assert (code, stdout) == (0, "")
    assert stderr.startswith("trec_eval version 10.0")


def test_help_is_trec_eval_10s_text_and_exits_0_even_with_files():
    expected = (DATA / INDEX["cases"]["help"]["stdout"]).read_text(encoding="utf-8")
    stdout, stderr = io.StringIO(), io.StringIO()
    files = ["tests/data/trec_eval_10/base.qrels", "tests/data/trec_eval_10/base.run"]
    assert dropin.main(["-q", *files, "-h"], stdout, stderr) == 0
    assert (stdout.getvalue(), stderr.getvalue()) == (expected, "")
    assert dropin.main(["--help"], io.StringIO(), io.StringIO()) == 0


def _printed_names(name: str) -> list[str]:
    """The measure names of a recorded output, in the order trec_eval printed them first."""
    text = (DATA / INDEX["cases"][name]["stdout"]).read_text(encoding="utf-8")
    return list(dict.fromkeys(line.split("\t")[0].strip() for line in text.splitlines()))


def _measure_cases() -> list[str]:
    return [
        name
        for name, case in INDEX["cases"].items()
        if case["exit_code"] == 0
        and "-q" in case["args"]
        and "-n" not in case["args"]
        and not case.get("undefined")
    ]


@pytest.mark.parametrize("name", _measure_cases())
def test_measure_names_in_trec_eval_order(name):
    # The names that the -m options print, in trec_eval's table order (the first -m with
    # parameters wins, cutoffs sorted): the first query's lines, then the summary-only names.
    args = INDEX["cases"][name]["args"]
    specs = [args[i + 1] for i, arg in enumerate(args[:-1]) if arg == "-m"]
    specs += [arg.partition("=")[2] for arg in args if arg.startswith("--measure=")]
    names = [n for _, printed in dropin.measure_names(specs or ["official"]) for n in printed]
    summary_only = {"runid", "num_q", "gm_map", "gm_bpref"}  # printed only in the 'all' lines
    recorded = _printed_names(name)
    assert [n for n in names if n not in summary_only] == [n for n in recorded if n not in summary_only]
    assert set(names) == set(recorded)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refuses_what_trec_eval_misreads(name):
    # trec_eval 10.0 printed values here (its recorded stdout), reading "1x" as 1, "abc" as 0,
    # "six" as 0, "-l x" as 0; the drop-in prints nothing on stdout, one line on stderr.
    assert INDEX["cases"][name]["exit_code"] in (0, 4)
    assert run(name) == (REFUSED[name][0], "", REFUSED[name][1])


# ---------------------------------------------------------------- the command line and standard input


def test_rankmetrics_trec_eval_reads_the_run_from_standard_input():
    # `rankmetrics trec_eval ... -` as a process: the recorded nist_stdin case, byte for byte.
    case = INDEX["cases"]["nist_stdin"]
    assert case["args"][-1] == "-"
    with open(ROOT / case["stdin"], "rb") as given:
        done = subprocess.run(
            [sys.executable, "-m", "rankmetrics", "trec_eval", *case["args"]],
            cwd=ROOT,
            stdin=given,
            capture_output=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            check=False,
        )
    assert done.returncode == case["exit_code"] == 0
    assert done.stdout == (DATA / case["stdout"]).read_bytes()
    assert done.stderr == b""


def test_cli_main_dispatches_trec_eval_before_its_own_arguments(capsys):
    from rankmetrics import cli

    case = INDEX["cases"]["nist_q_P_ndcg_cut"]
    assert cli.main(["trec_eval", *case["args"]]) == 0
    assert capsys.readouterr().out == (DATA / case["stdout"]).read_text(encoding="utf-8")


# ---------------------------------------------------------------- what the drop-in refuses


def _files(tmp_path, qrels: str, run: str) -> list[str]:
    (tmp_path / "x.qrels").write_text(qrels, encoding="utf-8")
    (tmp_path / "x.run").write_text(run, encoding="utf-8")
    return [str(tmp_path / "x.qrels"), str(tmp_path / "x.run")]


def _main(args: list[str]) -> tuple[int, str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    code = dropin.main(args, stdout, stderr, io.StringIO(""))
    return code, stdout.getvalue(), stderr.getvalue()


_SCORE = "the score must be a decimal number such as 12.5, -3 or 1.5e-3"


@pytest.mark.parametrize(
    ("score", "message"),
    [
        ("abc", f"{_SCORE}; got 'abc'"),  # atof: 0
        ("1_000", f"{_SCORE}; got '1_000'"),  # atof: 1
        ("0x10", f"{_SCORE}; got '0x10'"),  # atof: 16
        ("nan", f"{_SCORE}; got 'nan'"),  # atof: nan, which no sort can place
        ("5abc", f"{_SCORE}; got '5abc'"),  # atof: 5
        ("1e400", "the score '1e400' is too large for a floating-point number"),  # atof: inf
    ],
)
def test_a_score_trec_eval_misreads_is_refused_naming_file_and_line(tmp_path, score, message):
    args = _files(tmp_path, "q1 0 d1 1\n", f"# a comment\nq1 Q0 d1 1 {score} r\n")
    assert _main(["-q", *args]) == (2, "", f"trec_eval (rankmetrics): x.run line 2: {message}\n")


def test_a_fractional_or_non_numeric_grade_is_refused(tmp_path):
    run = "q1 Q0 d1 1 1 r\n"
    args = _files(tmp_path, "q1 0 d1 1\nq1 0 d2 0.5\n", run)  # atol: 0
    assert _main(args) == (
        2,
        "",
        "trec_eval (rankmetrics): x.qrels line 2: the relevance 0.5 is not a whole grade "
        "(trec_eval would silently read it as 0)\n",
    )
    args = _files(tmp_path, "q1 0 d1 2x\n", run)  # atol: 2
    assert _main(args) == (
        2,
        "",
        "trec_eval (rankmetrics): x.qrels line 1: the relevance must be a decimal number such as "
        "2, 0 or -1; got '2x'\n",
    )


def test_a_comment_on_the_last_qrels_line_is_refused_where_10_0_crashes(tmp_path):
    # recorded: qrels_comment_last, a segmentation fault in trec_eval 10.0 (undefined behaviour)
    assert INDEX["cases"]["qrels_comment_last"]["undefined"]
    args = _files(tmp_path, "q1 0 d1 1\n# the end\n", "q1 Q0 d1 1 1 r\n")
    assert _main(args) == (
        2,
        "",
        f"trec_eval (rankmetrics): {args[0]} line 2: a comment on the last line of a qrels file makes "
        "trec_eval 10.0 read past the end of the file (it crashes); remove the line\n",
    )
    # Two comments at the end: the first is skipped, the second is a (malformed) line, as in 10.0.
    args = _files(tmp_path, "q1 0 d1 1\n# one\n# two\n", "q1 Q0 d1 1 1 r\n")
    assert _main(args) == (
        2,
        "",
        f"trec_eval.get_qrels: Malformed line 2\ntrec_eval: Quit in file '{args[0]}'\n",
    )


@pytest.mark.parametrize(
    "measures",
    [
        ["-m", "ndcg.1=3,2=9", "-m", "dcg"],  # recorded: dcg_with_gains_crash (a segmentation fault)
        ["-m", "dcg.1=3", "-m", "ideal_dcg"],  # a double free (checked with the 10.0 binary)
        ["-m", "dcg", "-m", "ideal_dcg.2=5"],
    ],
)
def test_dcg_with_a_shared_gain_map_is_refused_where_10_0_crashes(measures):
    files = ["tests/data/trec_eval_10/base.qrels", "tests/data/trec_eval_10/base.run"]
    code, stdout, stderr = _main([*measures, *files])
    assert (code, stdout) == (1, "")
    assert stderr.startswith("trec_eval (rankmetrics): ") and "make trec_eval 10.0 crash" in stderr
    assert stderr.count("\n") == 1


def test_dcg_alone_with_a_gain_map_is_computed():
    # trec_eval 10.0 -q -m dcg.1=3 on base.qrels/base.run: d1 (grade 1, gain 3) at rank 1, d3
    # unjudged, d2 grade 0: 3/log2(2) = 3.
    files = ["tests/data/trec_eval_10/base.qrels", "tests/data/trec_eval_10/base.run"]
    assert _main(["-q", "-m", "dcg.1=3", *files]) == (
        0,
        "dcg_1=3               \tq1\t3.0000\ndcg_1=3               \tall\t3.0000\n",
        "",
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-Z", "z.txt"], "-Z (z-scores) is not supported"),
        (["-D", "1"], "-D (trec_eval's debugging output) is not supported"),
        (["-o"], "-o (the old output format) is not supported"),
        (["-R", "prefs"], "-R prefs: only the rel_info format 'qrels' is supported"),
        (["-T", "trec_other"], "-T trec_other: only the results format 'trec_results' is supported"),
        (
            ["-m", "prefs_num_prefs_poss"],
            "measure 'prefs_num_prefs_poss' is not supported: preference and qrels_jg measures need "
            "the prefs and qrels_jg formats",
        ),
        (["-l", "2x"], "-l (the relevance level) must be a whole number; got '2x'"),
        (["-M", "ten"], "-M (documents per query) must be a whole number; got 'ten'"),
        (["-m", "P.5x"], "a cutoff of P must be a whole number; got '5x'"),
        (["-m", "set_F.half"], "a parameter of set_F must be a decimal number; got 'half'"),
        (
            ["-h", "-m", "map"],
            "-h with -m would add each measure's description, which the drop-in does not have; run -h alone",
        ),
    ],
)
def test_unsupported_flags_exit_1_with_one_line(args, message):
    files = ["tests/data/trec_eval_10/base.qrels", "tests/data/trec_eval_10/base.run"]
    assert _main([*args, *files]) == (1, "", f"trec_eval (rankmetrics): {message}\n")


def test_an_unknown_option_prints_trec_evals_usage():
    code, stdout, stderr = _main(["-Q", "a", "b"])
    usage = (DATA / INDEX["cases"]["usage"]["stderr"]).read_text(encoding="utf-8")
    assert (code, stdout, stderr) == (1, "", "trec_eval: invalid option -- 'Q'\n" + usage)


# ---------------------------------------------------------------- what trec_eval accepts and the API may not


def test_set_f_with_a_negative_beta_is_trec_evals_value(tmp_path):
    # trec_eval 10.0 -q -m set_F.-0.5 (checked with the binary): P = 1, R = 1/4 and
    # F = (beta + 1) P R / (beta P + R) = 0.5 * 0.25 / (-0.5 + 0.25) = -0.5.
    args = _files(tmp_path, "q1 0 a 1\nq1 0 b 1\nq1 0 c 1\nq1 0 d 1\n", "q1 Q0 a 1 1 r\n")
    assert _main(["-q", "-m", "set_F.-0.5", "-m", "set_F.-1.5", *args]) == (
        0,
        "set_F_-0.5            \tq1\t-0.5000\nset_F_-0.5            \tall\t-0.5000\n",
        "",
    )


# ---------------------------------------------------------------- the progress bar


def test_no_progress_bar_when_stderr_is_not_a_terminal(monkeypatch):
    monkeypatch.setattr(dropin, "_PROGRESS_BYTES", 1)  # every file counts as large
    monkeypatch.delenv("CI", raising=False)
    case = INDEX["cases"]["nist_q"]
    assert run("nist_q") == (0, (DATA / case["stdout"]).read_text(encoding="utf-8"), "")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_progress_bar_on_a_terminal_when_tqdm_is_there(monkeypatch):
    made = []

    class FakeBar:
        def __init__(self, total, **options):
            self.total, self.done, self.closed = total, 0, False
            made.append(self)

        def update(self, n):
            self.done += n

        def close(self):
            self.closed = True

    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=FakeBar))
    monkeypatch.setattr(dropin, "_PROGRESS_BYTES", 1)
    monkeypatch.delenv("CI", raising=False)
    case = INDEX["cases"]["nist_q"]
    stdout, stderr = io.StringIO(), _Terminal()
    assert dropin.main(case["args"], stdout, stderr) == 0
    assert stdout.getvalue() == (DATA / case["stdout"]).read_text(encoding="utf-8")
    sizes = [os.path.getsize(ROOT / path) for path in case["args"][-2:]]
    assert [(bar.total, bar.done, bar.closed) for bar in made] == [(size, size, True) for size in sizes]
    monkeypatch.setenv("CI", "true")  # never in CI
    made.clear()
    assert dropin.main(case["args"], io.StringIO(), _Terminal()) == 0
    assert made == []


@pytest.mark.parametrize("block_bytes", [7, 16, 33, 4_000_000])
def test_the_line_rules_hold_across_blocks(monkeypatch, block_bytes):
    # The reader works a block of lines at a time: which '#' lines are skipped, the line count
    # of a malformed line and the last-line comment must not depend on where blocks end.
    from rankmetrics.trec import dropin_files, files

    monkeypatch.setattr(files, "BLOCK_BYTES", block_bytes)
    text = "#a\n#b 0 y 1\n#c\nq1 0 d1 1\n#d\nq1 0 d2 0\n#e\n# f g 0\n#g\nq1 0 d3 2\n"
    read = dropin_files.read_as(io.StringIO(text), dropin_files.QRELS_TREC_EVAL_10, "x")
    # Skipped: #a, #c, #d, #e, #g; '#b 0 y 1' and '# f g 0' follow a skipped line: judgements.
    assert (read.records.qids, read.records.docnos) == (["#b", "q1", "#"], ["y", "d1", "d2", "d3", "g"])
    assert read.records.lines.tolist() == [2, 4, 6, 10, 8]  # lines as an editor counts them
    with pytest.raises(dropin_files.LinesStop, match="Malformed line 6\n"):  # trec_eval counts parsed lines
        dropin_files.read_as(io.StringIO(text + "q1 0 d4\n"), dropin_files.QRELS_TREC_EVAL_10, "x")
    with pytest.raises(dropin_files.LinesStop, match="line 12: a comment on the last line"):
        dropin_files.read_as(io.StringIO(text + "q1 0 d4 1\n# end\n"), dropin_files.QRELS_TREC_EVAL_10, "x")
    run = "# r\n\nq1 Q0 d1 1 3 r\n  # indented\n#\nq1 Q0 d2 2 2 t\n\nq1 Q0 d3 3\n"
    with pytest.raises(dropin_files.LinesStop, match="Malformed line 3\n"):
        dropin_files.read_as(io.StringIO(run), dropin_files.RUN_TREC_EVAL_10, "x")
    read = dropin_files.read_as(io.StringIO(run[: run.rindex("q1")]), dropin_files.RUN_TREC_EVAL_10, "x")
    assert (read.records.docnos, read.tag) == (["d1", "d2"], "t")


def test_a_duplicate_is_named_by_the_first_measure_that_ranks(tmp_path):
    # Checked with the trec_eval 10.0 binary: q1 lists d1 twice. The error names the first
    # measure that forms a ranking (runid and num_q do not); with only those two, trec_eval
    # never notices and counts both queries.
    args = _files(tmp_path, "q0 0 a 1\nq1 0 d1 1\n", "q0 Q0 a 1 1 r\nq1 Q0 d1 1 1 r\nq1 Q0 d1 2 0 r\n")
    assert _main(["-q", "-m", "num_q", "-m", "P.5", "-m", "map", *args]) == (
        4,
        "map                   \tq0\t1.0000\nP_5                   \tq0\t0.2000\n",
        "trec_eval.form_res_qrels: duplicate docs d1trec_eval: Can't calculate measure 'map'\n",
    )
    assert _main(["-q", "-m", "runid", "-m", "num_q", *args]) == (
        0,
        "runid                 \tall\tr\nnum_q                 \tall\t2\n",
        "",
    )
    code, _, stderr = _main(args)  # the official measures: runid, num_q, then num_ret
    assert (code, stderr) == (
        4,
        "trec_eval.form_res_qrels: duplicate docs d1trec_eval: Can't calculate measure 'num_ret'\n",
    )


def test_the_first_query_without_a_judged_document_stops_as_in_10_0(tmp_path):
    # Checked with the trec_eval 10.0 binary: when the first query evaluated (q1) has only
    # negative grades, form_res_rels fails (exit 4, even with -c); a later such query is scored.
    run = "q1 Q0 d1 1 1 r\nq2 Q0 d1 1 1 r\n"
    args = _files(tmp_path, "q1 0 d1 -1\nq2 0 d1 1\n", run)
    assert _main(["-q", "-c", "-m", "num_ret", *args]) == (
        4,
        "",
        "trec_eval: Can't calculate measure 'num_ret'\n",
    )
    args = _files(tmp_path, "q0 0 d1 1\nq1 0 d1 -1\n", "q0 Q0 d1 1 1 r\n" + run)
    assert _main(["-q", "-m", "num_ret", *args]) == (
        0,
        "num_ret               \tq0\t1\nnum_ret               \tq1\t1\nnum_ret               \tall\t2\n",
        "",
    )


def test_a_lone_carriage_return_at_the_end_ends_the_last_line(tmp_path):
    # trec_eval reads '\r' as white space: 'q1 0 d2 0\r' at the very end is one judgement, not a
    # judgement and a blank (malformed) line.
    args = _files(tmp_path, "q1 0 d1 1\r\nq1 0 d2 0\r", "q1 Q0 d1 1 1 r\r")
    assert _main(["-m", "num_rel", "-m", "runid", *args]) == (
        0,
        "runid                 \tall\tr\nnum_rel               \tall\t1\n",
        "",
    )


def test_a_run_without_results_lines_is_refused_where_the_runid_is_undefined(tmp_path):
    # trec_eval 10.0 -c on a run of blank lines prints uninitialised memory as the runid.
    args = _files(tmp_path, "q1 0 d1 1\n", "   \n")
    assert _main(["-c", "-m", "runid", "-m", "num_ret", *args]) == (
        2,
        "",
        f"trec_eval (rankmetrics): {args[1]} has no results line: trec_eval 10.0's runid is then not defined\n",
    )
    assert _main(["-c", "-m", "num_ret", *args]) == (0, "num_ret               \tall\t0\n", "")
