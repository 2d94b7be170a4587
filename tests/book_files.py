"""The book's chapter notebooks, found in one place for the tests that read them."""

from __future__ import annotations

from pathlib import Path

BOOK = Path(__file__).resolve().parent.parent / "book"
NOTEBOOKS = sorted(p for p in BOOK.glob("**/*.ipynb") if ".ipynb_checkpoints" not in p.parts)
