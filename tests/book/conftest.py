"""Fixtures for the tests of the book itself: its chapter notebooks and its Sphinx extensions.

A test that takes an argument named ``notebook`` runs once per chapter notebook
(``book/**/*.ipynb``), with the file name as its id.
"""

from __future__ import annotations

from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parents[2] / "book"
EXTENSIONS = BOOK / "_ext"  # the book's local Sphinx extensions (_config.yml: local_extensions)
NOTEBOOKS = sorted(p for p in BOOK.glob("**/*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "notebook" in metafunc.fixturenames:
        metafunc.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.name)


@pytest.fixture(scope="session")
def notebooks() -> list[Path]:
    """Every chapter notebook, in file-name order."""
    return NOTEBOOKS


@pytest.fixture(scope="session")
def extensions_dir() -> Path:
    """``book/_ext``: a tiny Sphinx project puts it on its own sys.path to load an extension."""
    return EXTENSIONS
