"""The book's bibliographies parse (a merge that drops a closing brace breaks make book and
make pdf, which make test does not run) and no key is declared twice."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from pybtex.database import parse_file

BOOK = Path(__file__).resolve().parents[2] / "book"
BIBS = sorted(BOOK.glob("*.bib"))


@pytest.mark.parametrize("bib", BIBS, ids=[b.name for b in BIBS])
def test_bibliography_parses_with_each_key_once(bib):
    text = bib.read_text(encoding="utf-8")
    keys = re.findall(r"^@\w+\{([^,\s]+),", text, flags=re.MULTILINE)
    assert [k for k, n in Counter(keys).items() if n > 1] == []
    assert sorted(parse_file(str(bib)).entries) == sorted(keys)
