"""The library-differences chapter shows the values that benchmarks/library_values.py measured.

The script runs each evaluation library on the chapter's toy query and writes
book/data/library_values.json; the chapter reads that file. These tests check that the
executed chapter's table and glued numbers are the file's values, so a re-run of the
script that changes a value fails here until the chapter is re-executed.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import nbformat

BOOK = Path(__file__).resolve().parents[2] / "book"
CHAPTER = BOOK / "09_library_differences.ipynb"
VALUES = BOOK / "data" / "library_values.json"


def load():
    return json.loads(VALUES.read_text(encoding="utf-8")), nbformat.read(CHAPTER, as_version=4)


def table_output(nb) -> str:
    cells = [c for c in nb.cells if c.cell_type == "code" and "data/library_values.json" in c.source]
    assert len(cells) == 1, "exactly one cell reads the library values"
    # show_table prints text outside a kernel and displays text/plain + HTML inside one.
    shown = [o.get("text", "") for o in cells[0].outputs if o.get("name") == "stdout"]
    shown += [o["data"]["text/plain"] + "\n" for o in cells[0].outputs if "text/plain" in o.get("data", {})]
    return "".join(shown)


def test_every_value_was_measured_by_a_library():
    record, _ = load()
    for key, entry in record["values"].items():
        assert entry["results"], f"{key}: no library produced this value"
        for result in entry["results"]:
            assert record["libraries"][result["library"]]["installed"]
            assert math.isclose(result["value"], entry["value"], abs_tol=1e-5)


def test_chapter_table_is_the_json():
    record, nb = load()
    lines = [line for line in table_output(nb).splitlines() if line.strip()]
    body = lines[2 : 2 + len(record["values"])]  # header, rule, then one row per value
    assert len(body) == len(record["values"])
    for line, entry in zip(body, record["values"].values()):
        ran = ", ".join(
            f"{r['library']} {record['libraries'][r['library']]['version']}" for r in entry["results"]
        )
        assert f"  {entry['value']:.4f}  " in line
        assert line.rstrip().endswith(ran)
    for name, info in record["libraries"].items():
        if not info["installed"]:
            assert f"실행하지 않은 라이브러리: {name}" in table_output(nb)


def test_chapter_glues_the_json_values():
    record, nb = load()
    glued = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            name = output.get("metadata", {}).get("scrapbook", {}).get("name", "")
            if name.startswith("library_differences_measured_"):
                glued[name.removeprefix("library_differences_measured_")] = float(
                    output["data"]["application/papermill.record/text/plain"]
                )
    assert glued == {key: entry["value"] for key, entry in record["values"].items()}
