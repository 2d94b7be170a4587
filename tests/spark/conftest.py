"""A local[2] SparkSession for the Spark tier (make test-spark).

Without pyspark (``make test``'s venv) the tests skip. With pyspark but without
Java they skip too, except under CI=true, where the tier must run: they fail.
"""

from __future__ import annotations

import os
import shutil
import sys

import pytest


def _unavailable(reason: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"the Spark tier cannot run under CI: {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


@pytest.fixture(scope="session")
def spark():
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        _unavailable("pyspark is not installed (make test-spark builds .venv-spark with it)")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        _unavailable("Java is not installed (Spark needs Java 17 or newer)")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # the workers run this Python
    session = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
