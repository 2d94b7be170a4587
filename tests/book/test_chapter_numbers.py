"""Typed chapter numbers ("12장") agree with the numbers the built book shows.

The numbered parts of _toc.yml number their chapters 1, 2, … in order; a file's name
prefix is not its number (12_rag.ipynb is chapter 10, after the reference part took
chapters 10 and 11 out of the numbering). So a chapter is referred to with
{numref}`%s장 <label>` (the number comes from the build) or by its title; a typed "N장"
is allowed only where N is the number the book gives the file that starts with N.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
TYPED = re.compile(r"(?<![0-9%`])([0-9]{1,2})(?:–[0-9]{1,2})?장")


def numbered_chapters() -> dict[str, int]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    chapters = [c["file"] for part in toc["parts"] if part.get("numbered") for c in part["chapters"]]
    return {Path(f).name: n for n, f in enumerate(chapters, start=1)}


def sources() -> dict[str, str]:
    texts = {}
    for path in sorted((ROOT / "book").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        texts[path.name] = "\n".join("".join(c["source"]) for c in cells)
    for path in sorted((ROOT / "book").glob("*.md")):
        texts[path.name] = path.read_text(encoding="utf-8")
    return texts


def test_typed_chapter_numbers_are_the_books_numbers():
    numbers = numbered_chapters()
    # a typed number N is right when the file named N_… is chapter N
    right = {n for name, n in numbers.items() if name[:2].isdigit() and int(name[:2]) == n}
    assert right >= set(range(1, 10))  # chapters 1–9 keep their file numbers
    wrong = [
        (name, m.group(0))
        for name, text in sources().items()
        for m in TYPED.finditer(text)
        if int(m.group(1)) not in right
    ]
    assert wrong == []
