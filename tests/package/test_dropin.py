"""rankmetrics.trec.dropin prints what NIST trec_eval 10.0 prints, byte for byte.

Every case recorded by benchmarks/trec_eval_reference.py (tests/data/trec_eval_10/index.json)
is run through ``dropin.main`` with the same arguments (and standard input): its
standard output and exit code must be trec_eval 10.0's, and so must its standard
error, except for the texts that are the drop-in's own (-h, -v, the usage).
Cases where trec_eval's behaviour is undefined (a crash) are left out. Where the
package does not follow trec_eval 10.0 yet, the case is a strict xfail naming why.
"""

from __future__ import annotations

import io
import json
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
