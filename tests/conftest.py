"""Fixtures shared by the book tests (tests/book) and the browser tests (tests/browser)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

_EXTENSIONS = Path(__file__).resolve().parent.parent / "book" / "_ext"


@pytest.fixture(scope="session")
def korean_search() -> ModuleType:
    """``book/_ext/korean_search.py``, the book's Korean search language (also used by the built pages)."""
    spec = importlib.util.spec_from_file_location("korean_search", _EXTENSIONS / "korean_search.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The Spark tier runs in its own environment (make test-spark: tests/spark/pytest.ini), not in make test.
collect_ignore = ["spark"]
