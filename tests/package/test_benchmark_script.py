"""benchmarks/run.py runs on every test run, at a tiny size (``--smoke``), so that it cannot rot.

The script is the source of chapter 10's and chapter 12's tables (benchmarks/RESULTS.json);
this checks that each of its steps still runs on the package as it is now, that its
agreement checks pass (and stop the script when a peer disagrees), and that its report
holds every field the chapters read. The timings of a smoke run mean nothing and are
not looked at. Peers that are not installed are left out by the script itself, as in CI
(which has no trec_eval binary either).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "run.py"


@pytest.fixture
def bench():
    """benchmarks/run.py as a fresh module (main() sets the module's trec_eval binary)."""
    spec = importlib.util.spec_from_file_location("benchmark_run", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def importable(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def test_smoke_run_agrees_and_writes_what_the_chapters_read(bench, tmp_path, capsys):
    out = tmp_path / "RESULTS.md"
    assert bench.main(["--smoke", "--workdir", str(tmp_path), "--out", str(out), "--trec-eval", ""]) == 0
    printed = capsys.readouterr().out
    assert "no trec_eval binary" in printed
    saved = json.loads(out.with_suffix(".json").read_text())

    # chapter 10's first cell and chapter 12's: the machine and the code measured
    machine = saved["machine"]
    for key in ("cpu", "cores", "numpy", "rankmetrics", "pytrec_eval", "ranx", "scikit-learn", "load_start"):
        assert key in machine, key
    assert len(machine["code"]["commit"]) == 40 and isinstance(machine["code"]["dirty"], list)

    # the agreement table: every size from dicts and from files, each peer within 1e-9
    rows = saved["evaluate"]
    assert [(row["n"], row["input"]) for row in rows] == [
        (n, kind) for n in (100, 300) for kind in ("dicts", "TREC files")
    ]
    peers = {"pytrec_eval"} if importable("pytrec_eval") else set()  # ranx is left out of make test
    for row in rows:
        assert set(row["agreement"]) == peers
        assert all(difference <= 1e-9 for difference in row["agreement"].values())
        assert row["best"]["rankmetrics"] > 0 and row["cpu"]["rankmetrics"] >= 0
        assert len(row["times"]["rankmetrics"]) == 1  # one timed run

    # the batch table (chapters 10 and 12), scikit-learn's columns when it is installed
    batch = saved["batch"]
    assert (batch["rows"], batch["columns"]) == (2_000, 100)
    assert batch["ndcg"] > 0 and batch["copy"] > 0
    if importable("sklearn"):
        assert (
            batch["sk_rows"] == 100 and batch["sk_agree"] <= 1e-9 and batch["sk"] > 0 and batch["sk_rm"] > 0
        )

    # the reading table: the package's readers on the 300-query run
    assert saved["reading"]["n"] == 300
    assert any("read_run" in name for name in saved["reading"])
    assert saved["memory"] is None  # no --big

    # --render rebuilds the same Markdown from the JSON alone
    again = tmp_path / "again.md"
    assert bench.main(["--render", str(out.with_suffix(".json")), "--out", str(again)]) == 0
    assert again.read_text() == out.read_text()


def test_smoke_never_writes_results_md_by_itself(bench, tmp_path, capsys):
    results = SCRIPT.with_name("RESULTS.md")
    before = results.read_bytes()
    assert bench.main(["--smoke", "--workdir", str(tmp_path), "--trec-eval", ""]) == 0
    assert "written to" not in capsys.readouterr().out
    assert results.read_bytes() == before


def test_a_peer_that_disagrees_stops_the_script(bench):
    pytest.importorskip("pytrec_eval")
    qrels, run = bench.as_dicts(bench.make_data(20))
    results = {"rankmetrics": bench.rm_dicts(qrels, run), "pytrec_eval": bench.pytrec_dicts(qrels, run)}
    assert bench.check_agreement(results, 20)["pytrec_eval"] <= 1e-9
    query = sorted(results["pytrec_eval"])[3]
    results["pytrec_eval"][query]["map"] += 1e-6
    with pytest.raises(SystemExit, match="pytrec_eval disagrees on map for query 3"):
        bench.check_agreement(results, 20)


def test_peak_memory_children(bench, tmp_path, capsys):
    # --big's children: each mode a fresh Python that reports its own peak memory (chapter 10's table)
    pytest.importorskip("pytrec_eval")  # one of the four children parses the run with it
    memory = bench.big_memory(tmp_path, 3_000, 7)
    assert (memory["lines"], memory["chunk_queries"]) == (3_000, 7)
    assert memory["file_bytes"] == (tmp_path / "run_30.txt").stat().st_size
    for mode in ("baseline", "chunked", "whole", "pytrec_dicts"):
        assert memory[mode]["peak_kib"] > 0 and memory[mode]["seconds"] >= 0, mode
    assert capsys.readouterr().out.count("peak memory") == 4
