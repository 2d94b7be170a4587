"""Read TREC judgement files (qrels) and run files.

The two plain-text formats that trec_eval, pytrec_eval, ir_measures and ranx
all read, one record per line, fields separated by white space:

- qrels: ``qid iteration docno relevance`` (the iteration column is unused, usually 0);
- run: ``qid Q0 docno rank score tag``. trec_eval ignores the rank column and
  orders each query's documents by score (see :func:`rankmetrics.evaluate`), so
  it is read but not kept.

Both readers also accept the nested dicts that pytrec_eval and ranx use,
``{qid: {docno: grade}}`` and ``{qid: {docno: score}}``, and check them the
same way. Ids are kept as text, exactly as trec_eval reads them from a file.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._validation import _show

_QRELS_FIELDS = "qid iteration docno relevance"
_RUN_FIELDS = "qid Q0 docno rank score tag"


@dataclass(frozen=True)
class Table:
    """One row per (query, document) record, as three parallel columns.

    The shape :func:`rankmetrics.evaluate` works on: one pass over the input
    fills plain columns, and everything after that is array work.
    """

    qids: np.ndarray  # str, one per record
    docnos: np.ndarray  # str, one per record
    values: np.ndarray  # float64: the grade (qrels) or the score (run)

    def __len__(self) -> int:
        return int(self.values.size)


def read_qrels(source: Any) -> dict[str, dict[str, int | float]]:
    """Read relevance judgements: a TREC qrels file, an open file, or a dict.

    Each line is ``qid iteration docno relevance``. The relevance is an
    integer grade as a rule (0 non-relevant, 1, 2, ... more relevant; TREC
    also uses -1 for "judged non-relevant"); any finite number is accepted.

    Parameters
    ----------
    source : str, os.PathLike, text or binary file object, or mapping
        A path to a qrels file, an open file, or ``{qid: {docno: grade}}``.

    Returns
    -------
    dict
        ``{qid: {docno: grade}}`` with text ids, in the order first met;
        whole-number grades are ``int``.

    Raises
    ------
    ValueError
        For a malformed line (naming the file and line number), a grade
        that is not a finite number, or a docno judged twice for one query
        (naming both lines).

    See Also
    --------
    read_run, evaluate

    Examples
    --------
    >>> import io
    >>> read_qrels(io.StringIO("q1 0 d1 2\\nq1 0 d2 0\\nq2 0 d1 1\\n"))
    {'q1': {'d1': 2, 'd2': 0}, 'q2': {'d1': 1}}
    """
    return _nest(qrels_table(source), grades=True)


def read_run(source: Any) -> dict[str, dict[str, float]]:
    """Read a system's ranked results: a TREC run file, an open file, or a dict.

    Each line is ``qid Q0 docno rank score tag``. Only the score orders the
    documents (trec_eval's rule; the rank column is read and ignored), so the
    result keeps ``{docno: score}``.

    Parameters
    ----------
    source : str, os.PathLike, text or binary file object, or mapping
        A path to a run file, an open file, or ``{qid: {docno: score}}``.

    Returns
    -------
    dict
        ``{qid: {docno: score}}`` with text ids, in file order.

    Raises
    ------
    ValueError
        For a malformed line (naming the file and line number), a score
        that is not a finite number, or a docno listed twice for one query
        (naming both lines).

    See Also
    --------
    read_qrels, evaluate

    Examples
    --------
    >>> import io
    >>> read_run(io.StringIO("q1 Q0 d3 1 12.5 bm25\\nq1 Q0 d1 2 11.0 bm25\\n"))
    {'q1': {'d3': 12.5, 'd1': 11.0}}
    """
    return _nest(run_table(source), grades=False)


def qrels_table(source: Any) -> Table:
    """Judgements as a :class:`Table` (what :func:`read_qrels` nests into dicts)."""
    if isinstance(source, Table):
        return source
    if isinstance(source, Mapping):
        return _table_from_mapping(source, "qrels", "grade")
    return _table_from_lines(source, "qrels", fields=4, layout=_QRELS_FIELDS, value_field=3)


def run_table(source: Any) -> Table:
    """A run as a :class:`Table` (what :func:`read_run` nests into dicts)."""
    if isinstance(source, Table):
        return source
    if isinstance(source, Mapping):
        return _table_from_mapping(source, "run", "score")
    return _table_from_lines(source, "run", fields=6, layout=_RUN_FIELDS, value_field=4)


def _nest(table: Table, *, grades: bool) -> dict[str, dict[str, Any]]:
    nested: dict[str, dict[str, Any]] = {}
    for qid, docno, value in zip(table.qids.tolist(), table.docnos.tolist(), table.values.tolist()):
        if grades and value == int(value):
            value = int(value)
        nested.setdefault(qid, {})[docno] = value
    return nested


def _lines(source: Any, kind: str) -> tuple[str, Iterator[str]]:
    """The display name of the source and an iterator over its text lines."""
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if not os.path.isfile(path):
            raise ValueError(f"{kind} file {path!r} does not exist (or is not a file)")
        return os.path.basename(path), _read_path(path)
    if hasattr(source, "read"):
        name = getattr(source, "name", None)
        label = os.path.basename(name) if isinstance(name, str) else f"<{kind} file>"
        return label, (line.decode("utf-8") if isinstance(line, bytes) else line for line in source)
    raise ValueError(
        f"{kind} must be a path, an open file or a dict {{qid: {{docno: value}}}}; got {_show(source)}"
    )


def _read_path(path: str) -> Iterator[str]:
    with open(path, encoding="utf-8") as handle:
        yield from handle


def _table_from_lines(source: Any, kind: str, *, fields: int, layout: str, value_field: int) -> Table:
    label, lines = _lines(source, kind)
    return _table_from_numbered(
        label, enumerate(lines, start=1), kind, fields=fields, layout=layout, value_field=value_field
    )


def _table_from_numbered(
    label: str, numbered: Iterator[tuple[int, str]], kind: str, *, fields: int, layout: str, value_field: int
) -> Table:
    """Check and read ``(line number, line)`` pairs, one line at a time (precise error messages)."""
    qids: list[str] = []
    docnos: list[str] = []
    values: list[float] = []
    first_line: dict[tuple[str, str], int] = {}
    what = "relevance" if kind == "qrels" else "score"
    for number, line in numbered:
        parts = line.split()
        if not parts:
            continue  # blank lines carry nothing; trec_eval's readers skip them too
        if len(parts) != fields:
            raise ValueError(
                f"{label} line {number}: expected {fields} fields '{layout}', "
                f"found {len(parts)}: {_show(line.rstrip())}"
            )
        qid, docno, text = parts[0], parts[2], parts[value_field]
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise ValueError(f"{label} line {number}: the {what} must be a finite number; got {text!r}")
        previous = first_line.setdefault((qid, docno), number)
        if previous != number:
            raise ValueError(
                f"{label} line {number}: document {docno!r} of query {qid!r} already appears on "
                f"line {previous}; each document may appear once per query"
            )
        qids.append(qid)
        docnos.append(docno)
        values.append(value)
    return _make_table(qids, docnos, values)


def _table_from_mapping(source: Mapping, kind: str, what: str) -> Table:
    qids: list[str] = []
    docnos: list[str] = []
    counts: list[int] = []
    values: list[np.ndarray] = []
    query_ids: dict[str, Any] = {}
    for qid, documents in source.items():
        name = str(qid)
        if name in query_ids:
            raise ValueError(
                f"{kind} has the queries {query_ids[name]!r} and {qid!r}, which are the same id "
                f"{name!r} as text; merge them"
            )
        query_ids[name] = qid
        if not isinstance(documents, Mapping):
            raise ValueError(f"{kind}[{qid!r}] must be a dict {{docno: {what}}}; got {_show(documents)}")
        keys = list(documents)
        texts = keys if all(type(key) is str for key in keys) else [str(key) for key in keys]
        if texts is not keys and len(set(texts)) != len(texts):
            _duplicate_as_text(kind, qid, keys)
        # One conversion per query; the item-by-item check runs only to name a bad value.
        try:
            row = np.array(list(documents.values()))
        except ValueError:  # nested sequences of different lengths
            row = np.array([None])
        if row.ndim != 1 or row.dtype.kind not in "biuf" or not np.all(np.isfinite(row)):
            _bad_value(kind, qid, documents, what)
        docnos.extend(texts)
        counts.append(len(texts))
        values.append(row.astype(np.float64))
        qids.append(name)
    return Table(
        np.repeat(np.array(qids, dtype=str), counts),
        np.array(docnos, dtype=str),
        np.concatenate(values) if values else np.zeros(0),
    )


def _duplicate_as_text(kind: str, qid: Any, keys: list[Any]) -> None:
    seen: dict[str, Any] = {}
    for docno in keys:
        text = str(docno)
        if text in seen:
            # Two keys that differ as objects but print the same (1 and "1").
            raise ValueError(
                f"{kind}[{qid!r}] lists document {seen[text]!r} and {docno!r}, which are the "
                f"same id {text!r} as text; each document may appear once per query"
            )
        seen[text] = docno


def _bad_value(kind: str, qid: Any, documents: Mapping, what: str) -> None:
    for docno, value in documents.items():
        number = isinstance(value, (numbers.Real, np.bool_)) and not isinstance(value, str)
        if not number or not math.isfinite(float(value)):
            raise ValueError(
                f"{kind}[{qid!r}][{docno!r}] must be a finite number ({what}); got {_show(value)}"
            )
    raise AssertionError("a bad value was detected but not found")  # pragma: no cover


def _make_table(qids: list[str], docnos: list[str], values: list[float]) -> Table:
    return Table(
        np.array(qids, dtype=str),
        np.array(docnos, dtype=str),
        np.array(values, dtype=np.float64),
    )
