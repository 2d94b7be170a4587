"""pandas DataFrames as judgements and runs, with ir_measures' column names.

:func:`rankmetrics.evaluate` takes a qrels DataFrame with the columns
``query_id, doc_id, relevance`` and a run DataFrame with ``query_id, doc_id,
score`` (the names ir_measures and pyterrier use). They become the reader's
:class:`~rankmetrics.trec.records.Records` by array operations, never a Python
loop over rows, and go through the same checks as a file or a dict, each
message naming the column and the row: an id that is not text or holds a
NUL, a grade or score that is missing or not finite, a fractional grade
(``fractional_grades``), a document twice in one query.

pandas is imported only when a DataFrame is given, so ``import rankmetrics``
does not need it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import numpy as np

from .. import _validation as v
from ..i18n import _, ngettext
from . import files
from .records import Records, duplicate_pairs, padded_rows

QRELS_COLUMNS = ("query_id", "doc_id", "relevance")
RUN_COLUMNS = ("query_id", "doc_id", "score")


def is_frame(source: Any) -> bool:
    """Whether ``source`` is a pandas DataFrame (checked without importing pandas)."""
    pandas = sys.modules.get("pandas")
    return pandas is not None and isinstance(source, pandas.DataFrame)


def judgements(source: Any, fractional_grades: str = "error") -> Any:
    """A qrels DataFrame as ``{qid: {docno: grade}}``; anything else as it is, for the reader."""
    if not is_frame(source):
        return source
    records = frame_records(source, "qrels", fractional_grades)
    return files.nest(records, grades=True)


def run_records(source: Any, chunk_queries: int | None, noted: dict | None = None) -> Iterator[Records]:
    """A run DataFrame's records, ``chunk_queries`` queries at a time; files and dicts by the reader."""
    if not is_frame(source):
        yield from files.run_records(source, chunk_queries, noted)
        return
    yield from frame_records(source, "run").chunks(chunk_queries)


def frame_records(frame: Any, kind: str, fractional_grades: str = "error") -> Records:
    """A qrels (``kind="qrels"``) or run (``kind="run"``) DataFrame as checked records.

    Each query's rows keep their order in the frame; the queries come in
    the order first met, as the reader groups a file.
    """
    from .recsys_frames import as_query_frame

    frame = as_query_frame(frame, kind)  # user_id, item_id (and rank, no relevance) in ir_measures' words
    qid_column, doc_column, value_column = columns(frame, kind)
    query_codes, names = id_codes(frame, kind, qid_column)  # queries in the order first met
    doc_codes, doc_names = id_codes(frame, kind, doc_column)
    values = _number_column(frame, kind, value_column)
    if kind == "qrels":
        policy = v.check_choice(fractional_grades, "fractional_grades", files.FRACTIONAL_GRADES)
        values, at = files.grades_by_policy(values, policy)  # the first in the frame
        if at is not None:
            where = _("the qrels DataFrame's column {column!r}, row {frame}: {grade!r}").format(
                column=value_column, frame=_row(frame, at), grade=float(values[at])
            )
            raise files.not_a_whole_grade(where, float(values[at]))
    if (np.diff(query_codes) >= 0).all():  # already grouped by query, as a recommender's frame often is
        order = np.arange(len(query_codes))
    else:
        order = np.argsort(query_codes, kind="stable")  # each query's rows keep their order
    lengths = np.bincount(query_codes, minlength=len(names)).astype(np.int64)
    grouped_docs = doc_codes[order]
    records = Records(names.tolist(), lengths, doc_names[grouped_docs].tolist(), values[order], None)
    # Equal codes are equal ids: only a frame with a pair goes through the records' check, which names it.
    pairs = duplicate_pairs(records) if _twice(lengths, grouped_docs.astype(np.int64)) else []
    if pairs:
        query, earlier, later = min(pairs, key=lambda pair: order[pair[2]])  # the first in the frame
        raise ValueError(
            _(
                "{kind} DataFrame: document {docnos!r} of query {qids!r} appears in rows {frame} and "
                "{frame_2} ({qid_column!r}, {doc_column!r}); each document may appear once per query"
            ).format(
                kind=kind,
                docnos=records.docnos[later],
                qids=records.qids[query],
                frame=_row(frame, int(order[earlier])),
                frame_2=_row(frame, int(order[later])),
                qid_column=qid_column,
                doc_column=doc_column,
            )
        )
    return records


def columns(frame: Any, kind: str) -> tuple[str, str, str]:
    """The names of a qrels or run DataFrame's query, document and value columns, checked present."""
    names = QRELS_COLUMNS if kind == "qrels" else RUN_COLUMNS
    check_columns(frame, kind, names)
    return names


def check_columns(frame: Any, kind: str, columns: tuple[str, ...]) -> None:
    """Every expected column is there; else a ValueError naming the missing ones."""
    present = [str(c) for c in frame.columns]
    absent = [c for c in columns if c not in present]
    if absent:
        raise ValueError(
            ngettext(
                "the {kind} DataFrame lacks the column {absent}; a {kind} DataFrame has the "
                "columns {columns} (ir_measures' names); it has {present}",
                "the {kind} DataFrame lacks the columns {absent}; a {kind} DataFrame has the "
                "columns {columns} (ir_measures' names); it has {present}",
                len(absent),
            ).format(
                kind=kind,
                absent=", ".join(map(repr, absent)),
                columns=", ".join(map(repr, columns)),
                present=present,
            )
        )


def _row(frame: Any, position: int) -> str:
    label = frame.index[position]
    return repr(label.item() if hasattr(label, "item") else label)  # 3, not np.int64(3)


def id_codes(frame: Any, kind: str, column: str) -> tuple[np.ndarray, np.ndarray]:
    """An id column as a code per row and its distinct ids as str, in the order first met.

    Whole numbers are factorised as numbers and only the distinct ones written as text: a
    recommender's 100 million rows hold a million users and some thousand items, not 100
    million ids, and one str object serves all the rows of an id.
    """
    import pandas as pd

    series = frame[column]
    if series.dtype.kind in "iu":  # ids such as 301 (TREC topics) read as numbers: the same text
        codes, numbers = pd.factorize(series.to_numpy(), sort=False)
        return codes, np.array([str(n) for n in numbers.tolist()], dtype=object)
    codes, names = pd.factorize(text_column(frame, kind, column), sort=False)
    return codes, np.asarray(names, dtype=object)


def _twice(lengths: np.ndarray, doc_codes: np.ndarray) -> bool:
    """Whether a query lists a document twice: its rows' document codes, sorted row by row."""
    longest = int(lengths.max(initial=0))
    rows = np.sort(padded_rows(doc_codes, lengths, longest, np.iinfo(np.int64).max), axis=1)
    inside = np.arange(1, longest) < lengths[:, None]
    return bool(((rows[:, 1:] == rows[:, :-1]) & inside).any())


def text_column(frame: Any, kind: str, column: str) -> np.ndarray:
    """An id column as an object array of str: text as it is, whole numbers as their digits."""
    series = frame[column]
    dtype = series.dtype
    if dtype.kind in "iu":
        codes, names = id_codes(frame, kind, column)
        return names[codes]
    if dtype.kind not in "OSUT" and str(dtype) not in ("string", "str"):
        raise ValueError(
            _(
                "the {kind} DataFrame's column {column!r} must hold text ids (str); it has dtype {dtype}"
            ).format(kind=kind, column=column, dtype=dtype)
        )
    values = series.to_numpy(dtype=object)
    is_text = np.fromiter((type(x) is str for x in values), dtype=bool, count=values.size)
    if not is_text.all():
        at = int(np.argmin(is_text))
        raise ValueError(
            _(
                "the {kind} DataFrame's column {column!r} must hold text ids (str); row {frame} holds {v}"
            ).format(kind=kind, column=column, frame=_row(frame, at), v=v.show(values[at]))
        )
    nul = series.str.contains("\x00", regex=False).to_numpy(dtype=bool)
    if nul.any():
        at = int(np.argmax(nul))
        raise ValueError(
            _(
                "the {kind} DataFrame's column {column!r}, row {frame}: an id must not hold a NUL "
                "character; got {v}"
            ).format(kind=kind, column=column, frame=_row(frame, at), v=v.show(values[at]))
        )
    return values


def _number_column(frame: Any, kind: str, column: str) -> np.ndarray:
    """A grade or score column as float64: numbers only, none missing, all finite."""
    series = frame[column]
    if series.dtype.kind not in "iuf":
        raise ValueError(
            _("the {kind} DataFrame's column {column!r} must hold numbers; it has dtype {dtype}").format(
                kind=kind, column=column, dtype=series.dtype
            )
        )
    values = series.to_numpy(dtype=np.float64, na_value=np.nan)
    bad = ~np.isfinite(values)
    if bad.any():
        at = int(np.argmax(bad))
        raise ValueError(
            _(
                "the {kind} DataFrame's column {column!r}, row {frame}: must be a finite number; got {iloc}"
            ).format(kind=kind, column=column, frame=_row(frame, at), iloc=series.iloc[at])
        )
    return values


def per_query_frame(evaluation: Any) -> Any:
    """An Evaluation's per-query values as a DataFrame: one row per query, one column per metric."""
    import pandas as pd

    data: dict[str, Any] = {"query_id": list(evaluation.queries)}
    for name, values in evaluation.per_query.items():
        data[name] = values
    return pd.DataFrame(data)
