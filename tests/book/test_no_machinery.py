"""Guard: the code a reader sees is code they would type, never the book's typesetting machinery.

``glue(...)`` (myst-nb), ``keep(...)`` (a chapter's shorthand for a glued float) and
``bookstyle.with_particle(...)`` exist only to put numbers into the prose. They run in cells
tagged ``remove-cell``; a code cell readers can see (no ``remove-cell``, no ``remove-input``)
must not call them, nor import ``glue``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import nbformat

MACHINERY = {"glue", "keep", "with_particle"}
HIDDEN = {"remove-cell", "remove-input"}


def machinery_calls(source: str) -> list[str]:
    """The names of machinery functions the code calls or imports, in order of appearance."""
    found = []
    for node in sorted(ast.walk(ast.parse(source)), key=lambda n: getattr(n, "lineno", 0)):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in MACHINERY:
                found.append(f"{name}() at line {node.lineno}")
        elif isinstance(node, ast.ImportFrom) and any(a.name == "glue" for a in node.names):
            found.append(f"import glue at line {node.lineno}")
    return found


def visible_machinery(path: Path) -> list[str]:
    nb = nbformat.read(path, as_version=4)
    problems = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or HIDDEN & set(cell.metadata.get("tags", [])):
            continue
        problems += [f"cell {index}: {call}" for call in machinery_calls(cell.source)]
    return problems


def test_the_checker_sees_each_kind_of_call():
    source = (
        "from myst_nb import glue\n"
        "x = 1\n"
        "glue('a', x, display=False)\n"
        "for k in range(2):\n"
        "    keep(f'b{k}', k)\n"
        "text = bookstyle.with_particle('0.5', '로')\n"
    )
    assert machinery_calls(source) == [
        "import glue at line 1",
        "glue() at line 3",
        "keep() at line 5",
        "with_particle() at line 6",
    ]
    # a word that merely contains the names, or a definition, is not a call
    assert machinery_calls("glued = 2\nkeep_one = 3\ndef keep(key, value):\n    pass\n") == []


def test_no_visible_cell_calls_the_machinery(notebook: Path):
    assert visible_machinery(notebook) == []
