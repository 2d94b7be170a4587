"""Guard: nbval silently skips cells that never ran, so check the stored notebooks here.

Every chapter notebook must be committed executed top to bottom in a fresh kernel:
each code cell ran (execution counts 1..n in order), no error output, nothing on
stderr, and no numpy scalar repr such as np.float64(...) shown to readers.

An ``rm.explain`` step table is shown as the object itself (a cell that ends with
it), never printed: the web page then shows its HTML tables, whose rank and running
sum stay in view on a phone (tests/browser/test_tables.py), and the printed book its
text tables. A printed one is one block of monospace text that a phone scrolls whole;
its first line is the explanation's title, "<label> 단계표". (The command line's
``--explain`` output starts with the command, ``$ rankmetrics ...``, and stays text: it
shows a terminal.) The stored text form is the text tables too, not the one-line
``<Explanation ...>`` repr, which is all the PDF would print.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat

STEP_TABLE_TITLE = re.compile(r"\S+ 단계표")  # the first line of str(rm.explain(...))


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
            if out.get("output_type") == "stream" and out.get("name") == "stdout":
                first = "".join(out.get("text", "")).split("\n", 1)[0]
                if STEP_TABLE_TITLE.fullmatch(first):
                    found.append(
                        f"code cell {i} prints the step table {first!r} as text (end the cell with it)"
                    )
            text = out.get("data", {}).get("text/plain", "")
            if "".join(text).startswith("<Explanation "):
                found.append(f"code cell {i} stores the one-line repr {''.join(text)[:60]!r} (re-run it)")
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


def test_guard_catches_a_printed_step_table_and_a_stale_repr(tmp_path):
    import rankmetrics as rm

    with rm.use_language("ko"):  # the book speaks Korean (bookstyle.setup)
        e = rm.explain("precision", [1, 0, 1], k=3)  # P@3 = 2/3
    nb = nbformat.v4.new_notebook()
    printed = nbformat.v4.new_code_cell("print(e)", execution_count=1)
    printed.outputs = [nbformat.v4.new_output("stream", name="stdout", text=str(e) + "\n")]
    shown = nbformat.v4.new_code_cell("e", execution_count=2)
    shown.outputs = [
        nbformat.v4.new_output(
            "execute_result", data={"text/plain": repr(e), "text/html": e._repr_html_()}, execution_count=2
        )
    ]
    command = nbformat.v4.new_code_cell("rankmetrics(...)", execution_count=3)
    command.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="$ rankmetrics p --explain\n" + str(e))
    ]
    nb.cells = [printed, shown, command]
    path = tmp_path / "printed.ipynb"
    nbformat.write(nb, path)
    assert problems(path) == [
        "code cell 1 prints the step table 'P@3 단계표' as text (end the cell with it)",
        "code cell 2 stores the one-line repr '<Explanation P@3 = 0.6667>' (re-run it)",
    ]
