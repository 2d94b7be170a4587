"""A dask LocalCluster of two worker processes, shared by the module's tests."""

from __future__ import annotations

import logging

import pytest

distributed = pytest.importorskip(
    "distributed", reason='rankmetrics.dask needs dask: pip install "rankmetrics[dask]"'
)


@pytest.fixture(scope="session")
def dask_client():
    # Two single-threaded worker processes: each partition runs in another Python than the driver.
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()
