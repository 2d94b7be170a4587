"""Evaluate a run held in dask DataFrames, a batch of whole queries per partition.

:func:`evaluate` takes a qrels and a run dask DataFrame with ir_measures'
columns (``query_id, doc_id, relevance`` and ``query_id, doc_id, score``),
puts both in one frame, shuffles it by ``query_id`` so that each query's
judgements and documents land in one partition, and runs the package's own
:func:`rankmetrics.evaluate` on each partition: the same code, the same
conventions, the same numbers as on one machine. :func:`read_qrels` and
:func:`read_run` read TREC files into such frames, a block of whole lines at
a time, through the local reader.

Install with ``pip install "rankmetrics[dask]"``; the workers need the same
rankmetrics wheel as the driver (a different version is refused). This module
is ``rankmetrics.dask``: inside it ``import dask`` is the dask library
(imports are absolute), and dask is imported only when a function is called.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .i18n import _
from .trec import cluster, frames
from .trec.cluster import KIND, STATUS, VALUE, ClusterEvaluation
from .trec.recsys_frames import as_query_frame

__all__ = ["ClusterEvaluation", "evaluate", "read_qrels", "read_run"]


def _dask() -> Any:
    try:
        import dask.dataframe as dd
    except ImportError:
        raise ImportError(
            _(
                'rankmetrics.dask needs dask: pip install "rankmetrics[dask]" (dask[dataframe] and '
                "distributed)"
            )
        ) from None
    return dd


def evaluate(
    qrels: Any,
    run: Any,
    metrics: Any,
    *,
    npartitions: int | None = None,
    shuffle_method: str = "tasks",
    **conventions: Any,
):
    """Score a run on every judged query on a dask cluster, as :func:`rankmetrics.evaluate` does locally.

    Parameters
    ----------
    qrels : dask DataFrame
        Columns ``query_id``, ``doc_id`` (text, or whole numbers read as
        their digits) and ``relevance`` (numbers). Or a recommender's test
        set, ``user_id, item_id`` with ``relevance`` or without it (every
        row relevant with grade 1), as for :func:`rankmetrics.evaluate`.
    run : dask DataFrame
        Columns ``query_id``, ``doc_id`` and ``score``; or ``user_id,
        item_id`` with ``score`` or ``rank`` (1 first).
    metrics : str or list of str
        As for :func:`rankmetrics.evaluate`.
    npartitions : positive int, optional
        How many buckets of whole queries to shuffle into. Default: as many
        as the larger input has partitions.
    shuffle_method : {"tasks", "p2p"}, default "tasks"
        dask's shuffle. The peer-to-peer shuffle ("p2p") uses less memory on
        large inputs, but with distributed 2026.8 evaluating the same inputs a
        second time in one session could hang it, so the task shuffle is the default.
    **conventions
        Every convention of :func:`rankmetrics.evaluate` (``ties``,
        ``missing``, ``judged_only``, ``max_documents``, ``reference``,
        ``like`` ...), except ``chunk_queries``.

    Returns
    -------
    ClusterEvaluation
        ``per_query``: a dask DataFrame (persisted), one row per query, in no
        particular order; ``summary``: trec_eval's ``all`` line, computed on
        the cluster; the missing and unjudged queries; the conventions.

    Raises
    ------
    ValueError
        For a frame that is not a dask DataFrame, lacks a column or has a
        wrong type (naming it), and as :func:`rankmetrics.evaluate` does.
    RuntimeError
        When a worker has another rankmetrics version than the driver.
    """
    dd = _dask()
    plan = cluster.plan(metrics, conventions)
    parts = [_rows(dd, qrels, "qrels"), _rows(dd, run, "run")]
    n = npartitions or max(qrels.npartitions, run.npartitions)
    # One shuffle of both inputs together: a query's judgements and documents meet in one partition.
    both = dd.concat(parts).shuffle(on="query_id", npartitions=n, shuffle_method=shuffle_method)
    meta = cluster.conform(_empty(), plan)
    rows = both.map_partitions(_evaluate_partition, plan, meta=meta).persist()
    totals = _totals(rows, plan)
    evaluated = rows[rows[STATUS] != "unjudged"]
    if plan.conventions.missing == "skip":
        evaluated = rows[rows[STATUS] == "scored"]
    summary, missing, unjudged = cluster.finish(plan, *totals)
    return ClusterEvaluation(evaluated.drop(columns=[STATUS]), summary, missing, unjudged, plan.conventions)


def _empty() -> Any:
    import pandas as pd

    return pd.DataFrame({"query_id": pd.Series([], dtype=object), STATUS: pd.Series([], dtype=object)})


def _rows(dd: Any, frame: Any, kind: str) -> Any:
    """The frame's three columns as ``query_id, doc_id, _value, _kind``, types checked on its meta."""
    if not isinstance(frame, dd.DataFrame):
        raise ValueError(
            _("{kind} must be a dask DataFrame; got {type}").format(kind=kind, type=type(frame).__name__)
        )
    # user_id, item_id frames (no relevance: grade 1; a rank column: its order) as locally.
    frame = as_query_frame(frame, kind)
    cluster.check_frame_types(frame._meta, kind)
    columns = frames.QRELS_COLUMNS if kind == "qrels" else frames.RUN_COLUMNS
    out = frame[list(columns)].rename(columns={columns[2]: VALUE})
    # Ids as text before the shuffle, so that the same id hashes alike in both inputs.
    meta = _as_text(frame._meta[list(columns)].rename(columns={columns[2]: VALUE}), np.int8(0), kind)
    return out.map_partitions(_as_text, np.int8(0 if kind == "qrels" else 1), kind, meta=meta)


def _as_text(part: Any, kind_code: np.int8, kind: str) -> Any:
    import pandas as pd

    records = {
        "query_id": frames.text_column(part, kind, "query_id"),
        "doc_id": frames.text_column(part, kind, "doc_id"),
        VALUE: part[VALUE].to_numpy(dtype=np.float64, na_value=np.nan),
        KIND: np.full(len(part), kind_code, dtype=np.int8),
    }
    return pd.DataFrame(records, index=part.index)


def _evaluate_partition(both: Any, plan: cluster.Plan) -> Any:
    qrels, run = cluster.split_rows(both)
    return cluster.evaluate_batch(qrels, run, plan)


def _totals(rows: Any, plan: cluster.Plan) -> tuple:
    import dask

    scored = rows[rows[STATUS] != "unjudged"]
    if plan.conventions.missing == "skip":
        scored = rows[rows[STATUS] == "scored"]
    lazy = {"count": scored["query_id"].count()}
    for key, name, how in cluster.sums_needed(plan):
        column = scored[name]
        lazy[key] = np.log(column.clip(lower=cluster.FLOOR)).sum() if how == "log" else column.sum()
    lazy["missing"] = rows["query_id"][rows[STATUS] == "missing"]
    lazy["unjudged"] = rows["query_id"][rows[STATUS] == "unjudged"]
    (done,) = dask.compute(lazy)
    totals = {key: float(value) for key, value in done.items() if ":" in key}
    return totals, int(done["count"]), list(done["missing"]), list(done["unjudged"])


def read_qrels(path: Any, *, blocksize: str | int = "64MiB", fractional_grades: str = "error") -> Any:
    """A TREC qrels file (or a glob of them) as a dask DataFrame ``query_id, doc_id, relevance``.

    Each block of whole lines is parsed by the local reader (the same line
    rules and errors, text that is not UTF-8 included). A refused line is
    named by its line number in the file, as the local reader numbers it
    (:func:`rankmetrics.trec.cluster.parse_part`). A ``.gz`` file is one block.
    """
    return _read(path, "qrels", blocksize, fractional_grades)


def read_run(path: Any, *, blocksize: str | int = "64MiB") -> Any:
    """A TREC run file (or a glob of them) as a dask DataFrame ``query_id, doc_id, score``."""
    return _read(path, "run", blocksize, "error")


def _read(path: Any, kind: str, blocksize: Any, fractional_grades: str) -> Any:
    dd = _dask()
    import functools
    import os
    import posixpath

    import pandas as pd
    from dask import delayed
    from dask.utils import parse_bytes
    from fsspec.core import get_fs_token_paths

    fs, _token, paths = get_fs_token_paths(
        os.fspath(path) if isinstance(path, os.PathLike) else path, mode="rb"
    )
    size = parse_bytes(blocksize)
    parts = []
    for name in paths:
        info = fs.info(name) if fs.exists(name) else {}
        if info.get("type") != "file":
            raise ValueError(
                _("{kind} file {name} does not exist (or is not a file)").format(kind=kind, name=repr(name))
            )
        length = info["size"]
        whole = name.endswith(".gz") or length <= size  # a gzip stream cannot be cut
        offsets = [0] if whole else range(0, length, size)
        reopen = functools.partial(fs.open, name, "rb")
        for offset in offsets:
            parts.append(
                delayed(cluster.read_part)(
                    reopen, offset, None if whole else size, posixpath.basename(name), kind, fractional_grades
                )
            )
    value = "relevance" if kind == "qrels" else "score"
    meta = pd.DataFrame(
        {
            "query_id": pd.Series([], dtype=object),
            "doc_id": pd.Series([], dtype=object),
            value: pd.Series([], dtype=np.float64),
        }
    )
    if not parts:
        raise ValueError(
            _("{kind} file {path} does not exist (no file matches it)").format(kind=kind, path=repr(path))
        )
    return dd.from_delayed(parts, meta=meta, verify_meta=False)
