"""The cluster tier (make test-cluster): every test here is marked ``cluster``.

Without dask and distributed the tests skip, except under CI=true, where they fail.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
MISSING = [name for name in ("dask", "distributed") if importlib.util.find_spec(name) is None]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.cluster)
            if MISSING and os.environ.get("CI") == "true":
                item.add_marker(pytest.mark.usefixtures("cluster_tools_missing"))


@pytest.fixture
def cluster_tools_missing() -> None:
    """Under CI=true a missing tool fails the tier (elsewhere the Dask tests skip themselves)."""
    pytest.fail(f"the cluster tier needs {' and '.join(MISSING)}: pip install -r requirements.txt")
