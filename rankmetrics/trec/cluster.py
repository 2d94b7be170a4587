"""What :mod:`rankmetrics.dask` and :mod:`rankmetrics.spark` share: one batch of whole queries at a time.

A query's value depends on all of its judgements and all of its retrieved
documents at once (the ideal DCG, AP's denominator, the order of tied
scores), so a query must never be split between two workers. Both engines
therefore shuffle the judgements and the run by ``query_id`` into buckets
of whole queries, and call :func:`evaluate_batch` once per bucket: the
package's own :func:`rankmetrics.evaluate` on a pandas DataFrame of many
queries, never one Python call per query. What comes back per query is one
row: the query id, whether it was scored, absent from the run or unjudged,
and one column per metric. The summary (trec_eval's ``all``) is then a few
sums over those rows, computed on the cluster (:func:`summary`).

Nothing here imports pandas, dask or pyspark at import time.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..i18n import _
from . import files, frames, presets
from .conventions import UNSET, Conventions
from .evaluation import AbsentQueriesWarning, shown_ids
from .io.blocks import lines, text_blocks
from .names import Measure, parse_metrics
from .records import concat

STATUS = "_status"  # the bookkeeping column: "scored", "missing" (judged, not in the run), "unjudged"
KIND = "_kind"  # in the shuffled rows: 0 a judgement, 1 a retrieved document
VALUE = "_value"  # the grade or the score
FLOOR = 0.00001  # trec_eval's floor before a geometric mean (gm_map, gm_bpref)


@dataclass(frozen=True)
class Plan:
    """The measures and conventions, checked on the driver before any data moves."""

    names: list[str]
    measures: list[Measure]
    conventions: Conventions
    version: str  # the driver's rankmetrics

    @property
    def text_measures(self) -> list[str]:
        return [m.name for m in self.measures if m.metric.text is not None]


def plan(metrics: Any, conventions: Mapping[str, Any]) -> Plan:
    """Check the metric names and the conventions as :func:`rankmetrics.evaluate` would."""
    from .. import __version__

    options = dict(conventions)
    if options.pop("chunk_queries", None) is not None:
        raise ValueError(
            _("chunk_queries is for one machine; on a cluster each worker holds one bucket of queries")
        )
    like = options.pop("like", None)
    base = options.pop("conventions", None)
    measures = parse_metrics(metrics)
    resolved = Conventions.resolve(
        presets.find(like), base=base, **{k: options[k] for k in options if options[k] is not UNSET}
    )
    if resolved.ties == "input_order":
        raise ValueError(
            _(
                "ties='input_order' is not available on a cluster: the shuffle by query does not keep "
                "the order of a query's rows. Use ties='docno_descending' (trec_eval) or "
                "ties='average'"
            )
        )
    if resolved.averaging == "micro":
        raise ValueError(
            _(
                "averaging='micro' is not available on a cluster: the summary would need each "
                "query's denominator, and the workers return its value only"
            )
        )
    names = [m.name for m in measures]
    if len(set(names)) != len(names):
        raise ValueError(_("a metric is asked for twice: {names}").format(names=names))
    return Plan(names, measures, resolved, __version__)


def check_version(expected: str) -> None:
    """Refuse to work when this worker's rankmetrics is not the driver's."""
    from .. import __version__

    if __version__ != expected:
        raise RuntimeError(
            _(
                "rankmetrics {__version__} is installed on this worker but the driver runs "
                "rankmetrics {expected}: the numbers could differ. Install the same wheel on the "
                "workers as on the driver (pip install rankmetrics-<version>-py3-none-any.whl)"
            ).format(__version__=__version__, expected=expected)
        )


def evaluate_batch(qrels: Any, run: Any, plan: Plan) -> Any:
    """One bucket of whole queries: per-query rows, as pandas, from the package's own evaluate.

    ``qrels`` has the columns ``query_id, doc_id, relevance`` and ``run``
    ``query_id, doc_id, score``, every row of each query they hold.
    """
    import pandas as pd

    from .evaluate import evaluate_measures

    check_version(plan.version)
    judged = pd.unique(qrels["query_id"].to_numpy(dtype=object)) if len(qrels) else np.array([], dtype=object)
    listed = pd.unique(run["query_id"].to_numpy(dtype=object)) if len(run) else np.array([], dtype=object)
    unjudged = np.setdiff1d(listed.astype(str), judged.astype(str))
    absent = np.setdiff1d(judged.astype(str), listed.astype(str))
    scored = len(judged) > len(absent) or (len(judged) and plan.conventions.missing == "zero")
    parts = []
    if scored:
        with warnings.catch_warnings():
            # The driver warns once for the whole run; a bucket's own warning would repeat it.
            warnings.filterwarnings("ignore", category=AbsentQueriesWarning)
            result = evaluate_measures(qrels, run, plan.measures, plan.conventions)
        rows = {"query_id": list(result.queries)}
        missing = set(result.missing_queries)
        rows[STATUS] = ["missing" if q in missing else "scored" for q in result.queries]
        for name in plan.names:
            rows[name] = result.per_query[name]
        parts.append(pd.DataFrame(rows))
    skipped = absent if not scored or plan.conventions.missing == "skip" else absent[:0]
    for ids, status in ((skipped, "missing"), (unjudged, "unjudged")):
        if len(ids):
            parts.append(pd.DataFrame({"query_id": ids.astype(object), STATUS: status}))
    return conform(pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(), plan)


def conform(frame: Any, plan: Plan) -> Any:
    """The per-query rows with every column, in order, with its type (also the empty frame's schema)."""
    import pandas as pd

    out = pd.DataFrame(
        {
            "query_id": frame.get("query_id", pd.Series([], dtype=object)).astype(object),
            STATUS: frame.get(STATUS, pd.Series([], dtype=object)).astype(object),
        }
    )
    for name in plan.names:
        if name in plan.text_measures:
            column = frame[name] if name in frame else pd.Series([None] * len(out), dtype=object)
            out[name] = column.astype(object).where(column.notna(), None) if len(out) else column
        else:
            column = frame[name] if name in frame else pd.Series(np.nan, index=out.index)
            out[name] = pd.to_numeric(column).astype(np.float64)
    return out


def split_rows(both: Any) -> tuple[Any, Any]:
    """The shuffled rows of one bucket (``_kind`` 0/1) as a qrels frame and a run frame."""
    is_run = both[KIND].to_numpy() == 1
    qrels = both.loc[~is_run, ["query_id", "doc_id", VALUE]].rename(columns={VALUE: "relevance"})
    run = both.loc[is_run, ["query_id", "doc_id", VALUE]].rename(columns={VALUE: "score"})
    return qrels, run


def check_frame_types(meta: Any, kind: str) -> None:
    """Column names and types of a (possibly empty) pandas frame, by the local DataFrame checks."""
    columns = frames.QRELS_COLUMNS if kind == "qrels" else frames.RUN_COLUMNS
    frames.check_columns(meta, kind, columns)
    frames.frame_records(meta.iloc[:0], kind, "keep")


@dataclass(frozen=True)
class ClusterEvaluation:
    """What :func:`rankmetrics.dask.evaluate` and :func:`rankmetrics.spark.evaluate` return.

    Attributes
    ----------
    per_query : distributed DataFrame
        One row per evaluated query: ``query_id`` and one column per metric
        (a dask or a Spark DataFrame, computed and kept in the cluster's memory).
    summary : dict
        ``{metric: value}``, trec_eval's ``all`` line, computed on the cluster:
        the mean, the geometric mean for ``gm_*``, the sum for counts.
    missing_queries, unjudged_queries : tuple of str
        As in :class:`rankmetrics.trec.evaluation.Evaluation`.
    conventions : Conventions
        The conventions that produced the numbers.
    """

    per_query: Any
    summary: dict[str, Any]
    missing_queries: tuple[str, ...] = ()
    unjudged_queries: tuple[str, ...] = ()
    conventions: Mapping[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        return (
            f"<ClusterEvaluation: {type(self.per_query).__module__.split('.')[0]} per_query, "
            f"metrics {list(self.summary)}>"
        )


def finish(
    plan: Plan, totals: Mapping[str, float], count: int, missing: list[str], unjudged: list[str]
) -> tuple:
    """The summary from the cluster's sums, and the driver's warning or error, as evaluate gives them.

    ``totals`` holds ``sum:<metric>`` and, for geometric means, ``log:<metric>``
    (the sum of ``log(max(value, 0.00001))``) over the evaluated queries.
    """
    if count == 0:
        raise ValueError(_("no query is both judged and in the run"))
    missing, unjudged = sorted(missing), sorted(unjudged)
    if missing and plan.conventions.missing == "skip":
        warnings.warn(
            AbsentQueriesWarning(len(missing), shown_ids(missing)),
            stacklevel=3,
        )
    summary: dict[str, Any] = {}
    for m in plan.measures:
        kind = m.metric.summary
        if kind == "sum":
            summary[m.name] = float(totals[f"sum:{m.name}"])
        elif kind == "geometric":
            summary[m.name] = float(np.exp(totals[f"log:{m.name}"] / count))
        elif kind in ("run_id", "none"):
            summary[m.name] = ""  # a DataFrame run has no tag; relstring has no summary
        else:
            summary[m.name] = float(totals[f"sum:{m.name}"] / count)
    return summary, tuple(missing), tuple(unjudged)


def sums_needed(plan: Plan) -> list[tuple[str, str, str]]:
    """(key, metric, "sum" | "log") for every total the summary needs."""
    needed = []
    for m in plan.measures:
        if m.metric.summary == "geometric":
            needed.append((f"log:{m.name}", m.name, "log"))
        elif m.metric.summary not in ("run_id", "none"):
            needed.append((f"sum:{m.name}", m.name, "sum"))
    return needed


# ---------------------------------------------------------------- TREC files, a part at a time


def read_part(
    reopen: Callable[[], Any],
    offset: int,
    length: int | None,
    label: str,
    kind: str,
    fractional_grades: str = "error",
) -> Any:
    """The lines of a TREC file that begin in ``[offset, offset + length)``, as a pandas frame.

    A line begins at byte 0 or right after a ``\\n``. Parts cut at the same
    offsets therefore hold every line once, whole, however the bytes fall;
    ``length=None`` reads from ``offset`` to the end (one part for a ``.gz``
    file, which cannot be cut). ``reopen()`` opens the file in binary mode
    (for the part's own bytes, and to count lines from the file's start when
    a line is refused; see :func:`parse_part`).
    """
    with reopen() as handle:
        start = _line_start(handle, offset)
        end = _line_start(handle, offset + length) if length is not None else None
        handle.seek(start)
        blob = handle.read() if end is None else handle.read(max(end - start, 0))
    return parse_part(blob, label, kind, fractional_grades, start=start, reopen=reopen)


def _line_start(handle: Any, at: int) -> int:
    """The first byte at or after ``at`` that begins a line (the file's size when none does)."""
    if at <= 0:
        return 0
    handle.seek(at - 1)
    position = at - 1
    while chunk := handle.read(1 << 16):
        found = chunk.find(b"\n")
        if found >= 0:
            return position + found + 1
        position += len(chunk)
    return position


def parse_part(
    blob: bytes,
    label: str,
    kind: str,
    fractional_grades: str = "error",
    *,
    start: int = 0,
    first: int = 1,
    reopen: Callable[[], Any] | None = None,
) -> Any:
    """Whole lines of a TREC file as a pandas frame, by the package's own reader.

    The lines go through the local reader's layers: line ends (and, at the
    file's beginning, the byte-order mark and gzip;
    :mod:`rankmetrics.trec.io.blocks`), tokens, numbers and text that must be
    UTF-8 (:mod:`rankmetrics.trec.io.tokens`), the format's fields
    (:mod:`rankmetrics.trec.files`).

    ``start`` is the byte of the file where the part (a dask block, a Spark
    split) begins, and ``first`` the number of the blob's first line counted
    from there. In the part that begins the file, line numbers are the
    file's own. A part further on does not know how many lines come before
    it, so when one of its lines is refused, the file is read again from its
    start by the local reader (``reopen()`` opens it): its error names the
    file's first refused line, numbered as the local reader numbers it.
    Where the file cannot be opened again, the message names the part
    (``"run.txt (the part from byte 65536) line 3"``).
    """
    where = (
        label if start == 0 else _("{label} (the part from byte {start})").format(label=label, start=start)
    )
    try:
        return _frame(blob, where, kind, fractional_grades, first, start == 0 and first == 1)
    except ValueError:
        if start == 0 or reopen is None:
            raise
        error = _file_error(reopen, label, kind, fractional_grades)
        if error is None:
            raise
    raise error from None


def _frame(blob: bytes, label: str, kind: str, fractional_grades: str, first: int, beginning: bool) -> Any:
    import pandas as pd

    fmt = files.QRELS if kind == "qrels" else files.RUN
    if beginning:  # a byte-order mark or gzip data is looked for at the file's start only
        source = io.BytesIO(blob)
        source.name = label
        _, blocks = text_blocks(source, fmt.kind, files.BLOCK_BYTES)
    else:
        pieces = (blob[i : i + files.BLOCK_BYTES] for i in range(0, len(blob), files.BLOCK_BYTES))
        blocks = ((block, first + n - 1) for block, n in lines(pieces))
    records = concat([files.parse(block, n, label, fmt) for block, n in blocks])
    if kind == "qrels":
        policy = files.v.check_choice(fractional_grades, "fractional_grades", files.FRACTIONAL_GRADES)
        records = files.whole_grades(records, label, policy)
    value = "relevance" if kind == "qrels" else "score"
    return pd.DataFrame(
        {
            "query_id": np.repeat(np.array(records.qids, dtype=object), records.lengths),
            "doc_id": np.array(records.docnos, dtype=object),
            value: records.values,
        }
    )


class _Named:
    """An open binary file under the name its messages should use."""

    def __init__(self, handle: Any, name: str) -> None:
        self.read, self.name = handle.read, name


def _file_error(reopen: Callable[[], Any], label: str, kind: str, fractional_grades: str) -> Any:
    """The local reader's error for the whole file (None when it reads the file without one)."""
    try:
        handle = reopen()
    except (OSError, ValueError):
        return None
    with handle:
        try:
            if kind == "qrels":
                files.read_qrels(_Named(handle, label), fractional_grades=fractional_grades)
            else:
                files.read_run(_Named(handle, label))
        except ValueError as error:
            return error
    return None
