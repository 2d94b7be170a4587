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
OWN_TEXT = {"help", "version", "usage"}  # the drop-in's own help, version and usage texts

_NAN = (
    "-J: trec_eval prints -nan for iprec_at_recall_r (every r with lround(r*R) = 0) and 11pt_avg "
    "of a query none of whose retrieved documents is judged (0/0); the package gives 0"
)
KNOWN = {
    "adv2_c_q_J_all_trec": _NAN,
    "adv3_c_q_J_all_trec": _NAN,
    "judged_only_nothing_judged": _NAN,
    "complete_judged_only_nan": _NAN + " (10.0's -c fake document is unjudged, so -J removes it)",
    "dcg_measures": "the package has no dcg and ideal_dcg (trec_eval 10.0 measures outside all_trec)",
}


def _cases() -> list:
    return [
        pytest.param(
            name,
            marks=[pytest.mark.xfail(strict=True, reason=KNOWN[name])] if name in KNOWN else [],
        )
        for name, case in INDEX["cases"].items()
        if not case.get("undefined")
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
    if name == "help":
        assert stdout.startswith("Usage: trec_eval") and "all_trec" in stdout
        return
    assert stdout == expected
    if name not in OWN_TEXT:
        assert stderr == (DATA / case["stderr"]).read_text(encoding="utf-8")


def test_version_line_names_10_0():
    code, stdout, stderr = run("version")
    assert (code, stdout) == (0, "")
    assert stderr.startswith("trec_eval version 10.0")


def test_usage_goes_to_stderr_with_exit_1():
    code, stdout, stderr = run("usage")
    assert (code, stdout) == (1, "")
    assert stderr.startswith("Usage: trec_eval")


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
