"""Guard: nbval silently skips cells that never ran, so check the stored notebooks here.

Every chapter notebook must be committed executed top to bottom in a fresh kernel:
each code cell ran (execution counts 1..n in order), no error output, nothing on
stderr, and no numpy scalar repr such as np.float64(...) shown to readers.
"""

from __future__ import annotations

from pathlib import Path

import nbformat


def problems(path: Path) -> list[str]:
    nb = nbformat.read(path, as_version=4)
    found = []
    code = [c for c in nb.cells if c.cell_type == "code"]
    counts = [c.get("execution_count") for c in code]
    if counts != list(range(1, len(code) + 1)):
        found.append(f"execution counts {counts} are not 1..{len(code)} (re-run: make notebooks)")
    for i, cell in enumerate(code, start=1):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                found.append(f"code cell {i} stores an error: {out.get('ename')}")
            if out.get("output_type") == "stream" and out.get("name") == "stderr":
                found.append(f"code cell {i} writes to stderr: {''.join(out.get('text', ''))[:80]!r}")
            text = out.get("data", {}).get("text/plain", "")
            if "np.float64(" in "".join(text) or "np.int64(" in "".join(text):
                found.append(f"code cell {i} shows a numpy scalar repr: {''.join(text)[:80]!r}")
    return found


def test_book_has_notebooks(notebooks):
    assert notebooks, "no chapter notebooks found under book/"


def test_notebook_fully_executed(notebook):
    assert problems(notebook) == []


def test_guard_catches_an_unrun_cell(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("1 + 1", execution_count=1), nbformat.v4.new_code_cell("2 + 2")]
    path = tmp_path / "unrun.ipynb"
    nbformat.write(nb, path)
    assert problems(path) == ["execution counts [1, None] are not 1..2 (re-run: make notebooks)"]


def test_guard_catches_stderr_and_errors(tmp_path):
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("x", execution_count=1)
    cell.outputs = [
        nbformat.v4.new_output("stream", name="stderr", text="Matplotlib is building the font cache"),
        nbformat.v4.new_output("error", ename="NameError", evalue="x", traceback=[]),
        nbformat.v4.new_output("execute_result", data={"text/plain": "np.float64(0.5)"}, execution_count=1),
    ]
    nb.cells = [cell]
    path = tmp_path / "bad.ipynb"
    nbformat.write(nb, path)
    assert len(problems(path)) == 3
