"""Execute the book's notebooks in place, top to bottom, each in a fresh kernel.

Usage: python tools/run_notebooks.py [NOTEBOOK ...]   (default: every book/*.ipynb)
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
# Notebooks that write files other notebooks read run first: worksheets.ipynb writes the
# worksheet sets (book/worksheets/*) that lesson_plans.ipynb reads; lesson_plans.ipynb prints the
# lesson scripts whose syllables appendix_lesson_rehearsal.ipynb counts.
FIRST = ("worksheets.ipynb", "lesson_plans.ipynb")


def run(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    nbformat.write(nb, path)
    print(f"executed {path.relative_to(ROOT)}")


def main(argv: list[str]) -> None:
    paths = [Path(a).resolve() for a in argv] or sorted((ROOT / "book").glob("**/*.ipynb"))
    paths.sort(key=lambda path: FIRST.index(path.name) if path.name in FIRST else len(FIRST))  # stable
    for path in paths:
        if ".ipynb_checkpoints" not in path.parts:
            run(path)


if __name__ == "__main__":
    main(sys.argv[1:])
