"""What several package tests share, each found in one place.

The ranking metrics come from the registry, so a metric registered tomorrow is
tested by every test that runs over them. trec_eval's test files are the book's
copy (``book/data/trec_eval``, with NIST's licence notice beside them).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rankmetrics import registry

TREC_EVAL_DATA = Path(__file__).resolve().parents[2] / "book" / "data" / "trec_eval"

# The scripts tier (make test-scripts): files whose tests run a slow script end to end.
SCRIPT_TESTS = ("test_benchmark_script.py", "test_limits_script.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in SCRIPT_TESTS:
            item.add_marker(pytest.mark.scripts)


def _functions_with_k(inputs: tuple[str, ...]) -> list:
    """The public functions of the registered metrics of these inputs that take a cutoff k.

    For ("ranking",) today: ndcg, dcg, precision, recall, f1, hit_rate, reciprocal_rank,
    mean_rank, average_precision (r_precision takes no k: its cutoff is the number of
    relevant items). ("queries",) adds mean_reciprocal_rank and mean_average_precision.
    """
    return [
        m.function
        for m in registry.where(inputs=lambda given: given in inputs, cutoff=lambda cutoff: cutoff != "none")
    ]


@pytest.fixture(scope="session")
def ranking_metrics() -> list:
    """Every ranking metric that takes k, for a test that loops over them itself."""
    return _functions_with_k(("ranking",))


@pytest.fixture(scope="session")
def trec_eval_data() -> Path:
    """The folder of trec_eval's own test files: qrels.test, qrels.rel_level, results.test, out.test.*."""
    return TREC_EVAL_DATA


@pytest.hookimpl(trylast=True)  # after @pytest.mark.parametrize, so test ids read as before
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # Parameters are needed when tests are collected, before any fixture exists.
    # One test per metric function: of one ranking, or also of several queries, taking k.
    for name, inputs in (("ranking_metric", ("ranking",)), ("metric_with_k", ("ranking", "queries"))):
        if name in metafunc.fixturenames:
            functions = _functions_with_k(inputs)
            metafunc.parametrize(name, functions, ids=[f.__name__ for f in functions])
    if "trec_eval_line" in metafunc.fixturenames:
        # One test per line of trec_eval's output that the test's module checks: the module
        # reads its lines with trec_eval_lines(folder), given the one data folder here.
        metafunc.parametrize("trec_eval_line", metafunc.module.trec_eval_lines(TREC_EVAL_DATA))
