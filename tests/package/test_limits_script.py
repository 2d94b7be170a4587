"""benchmarks/limits.py runs on every test run, at a tiny size, so that it cannot rot.

The script measures the floors under two of the benchmark's goals (benchmarks/LIMITS.md).
Its timings at this size mean nothing and are not looked at; what is checked is that each
step still runs on the package as it is now, that the floor it reports is the sum of the
passes it timed, that it counted the inputs the generator makes, and that every candidate
installed here is in the report. The script itself checks that its floor of a dict reader
builds exactly what read_run returns.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def limits(monkeypatch):
    """benchmarks/limits.py as a fresh module; the benchmarks/run.py it imports as "run" is not kept."""
    monkeypatch.syspath_prepend(str(HERE))
    yield _load("benchmark_limits", HERE / "limits.py")
    sys.modules.pop("run", None)


def test_limits_script_adds_up_and_reports_every_installed_candidate(limits, tmp_path, capsys):
    bench = _load("benchmark_run_for_limits", HERE / "run.py")
    out = tmp_path / "LIMITS.md"
    args = [
        "--sizes",
        "40",
        "--read-size",
        "70",
        "--repeats",
        "1",
        "--workdir",
        str(tmp_path),
        "--out",
        str(out),
    ]
    assert limits.main(args) == 0
    capsys.readouterr()
    saved = json.loads(out.with_suffix(".json").read_text())

    # The dict table: the generator's 40 queries of 100 documents, and its judgements counted by hand.
    qrels, run = bench.as_dicts(bench.make_data(40))
    (row,) = saved["dicts"]
    assert (row["n"], row["entries"]) == (40, sum(map(len, run.values()))) == (40, 40 * bench.DEPTH)
    assert row["judgements"] == sum(map(len, qrels.values()))
    t = row["times"]
    assert row["floor"] == pytest.approx(t["ids"] + t["scores"] + t["grades"] + t["judged_grades"])
    assert row["floor_judged_side"] == pytest.approx(row["floor"] - t["grades"] + t["judged_side"])
    assert ("pytrec_eval" in t) == (importlib.util.find_spec("pytrec_eval") is not None)

    # The reader table: the package's readers always; each candidate when its library is installed.
    reading = saved["reading"]
    assert reading["queries"] == 70 and reading["bytes"] == (tmp_path / "run_70.txt").stat().st_size
    expected = {"one_pass", "bytes_split", "run_records", "read_run", "read_run_objects"}
    for library, keys in (
        ("pyarrow", {"pyarrow_csv_one_space", "pyarrow_split_whitespace"}),
        ("pandas", {"pandas_whitespace"}),
        ("numba", {"numba_sketch", "numba_import", "numba_compile"}),
    ):
        if importlib.util.find_spec(library) is not None:
            expected |= keys
    assert set(reading["times"]) == expected
    text = out.read_text()
    for key in expected - {"numba_import", "numba_compile"}:
        assert limits.READERS[key] in text, key
    assert saved["machine"]["code"]["commit"] in text
