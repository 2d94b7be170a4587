"""Fixtures shared by the book tests (tests/book) and the browser tests (tests/browser), and the test tiers.

Tiers (markers registered in pyproject.toml, one make target each, named in README):
``browser`` (tests/browser, Chromium), ``cluster`` (tests/dask, a Dask LocalCluster) and
``scripts`` (tests that run a slow script end to end: the benchmark's smoke run, the limits
script). ``make test`` runs everything else; a test file added without a marker lands there.

hypothesis: ``HYPOTHESIS_PROFILE=ci`` (set by .ci/run) runs each property test with the number
of examples its own ``@settings`` asks for; the default profile, ``fast`` (make test), runs a
fifth of them (at least 10).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import settings

_EXTENSIONS = Path(__file__).resolve().parent.parent / "book" / "_ext"

settings.register_profile("ci", print_blob=True)
settings.register_profile("fast", max_examples=20)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "fast")
if PROFILE not in ("ci", "fast"):
    raise pytest.UsageError(f"HYPOTHESIS_PROFILE must be 'ci' or 'fast'; got {PROFILE!r}")
settings.load_profile(PROFILE)


def fewer_examples(count: int) -> int:
    """The fast profile's share of a property test's examples: a fifth, at least 10.

    >>> fewer_examples(300), fewer_examples(100), fewer_examples(20)
    (60, 20, 10)
    """
    return min(count, max(10, count // 5))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if PROFILE != "fast":
        return
    done: set[int] = set()
    for item in items:
        function = getattr(item, "obj", None)
        own = getattr(function, "_hypothesis_internal_use_settings", None)
        if own is None or id(function) in done:
            continue
        done.add(id(function))
        # hypothesis reads these settings when the test runs: a test's own @settings counts are cut here.
        function._hypothesis_internal_use_settings = settings(
            own, max_examples=fewer_examples(own.max_examples)
        )


@pytest.fixture(scope="session")
def korean_search() -> ModuleType:
    """``book/_ext/korean_search.py``, the book's Korean search language (also used by the built pages)."""
    spec = importlib.util.spec_from_file_location("korean_search", _EXTENSIONS / "korean_search.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The Spark tier runs in its own environment (make test-spark: tests/spark/pytest.ini), not in make test.
collect_ignore = ["spark"]
