"""Records of many queries as flat arrays, and what the readers do with them: group, check, chunk.

A :class:`Records` holds the records of some queries one query after
another, as flat lists and arrays with a length per query, so that ten
million records are a few arrays, not ten million dicts. The reader
(:mod:`rankmetrics.trec.files`) makes one per block of a file or per dict;
this module joins them (:func:`concat`, :func:`join_adjacent`), puts each
query's records together (:func:`grouped`), cuts a file grouped by query into
chunks of whole queries (:func:`chunked`), and refuses a document listed twice
in one query (:func:`check_unique`). :func:`padded_rows` turns the flat arrays
into the padded 2-D arrays that ranking and the batch metrics work on.

Document ids have one representation wherever they come from (a file, a
dict, a DataFrame): a 1-D numpy array of ``str`` (:func:`id_array`), grouped,
matched and checked by numpy's own sorting and comparison of it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

import numpy as np

from ..i18n import _
from .io.tokens import LONG

# Queries whose padded rows are sorted at a time (duplicates, grades): a few MB, whatever the
# run's size, so that ten million records never make one table of them all.
QUERIES_AT_ONCE = 2_000


def id_array(ids: Sequence[str]) -> np.ndarray:
    """Ids as the readers keep them: a numpy array of ``str``, as wide as the longest (dtype ``U``).

    When one is longer than ``LONG`` characters the array holds Python
    strings (dtype ``object``), so that one long id does not widen every
    row; numpy sorts and compares both alike.
    """
    width = max(map(len, ids), default=1)
    if width > LONG:
        return np.array(ids, dtype=object)
    return np.array(ids, dtype=f"U{max(width, 1)}")


@dataclass(frozen=True)
class Records:
    """Records of some queries, query after query: ``lengths[i]`` records belong to ``qids[i]``.

    One query's records keep their order in the input. ``lines`` gives each
    record's line in its file, for messages; it is None for a dict. Document
    ids given as a list become an array (:func:`id_array`).
    """

    qids: list[str]
    lengths: np.ndarray  # int64, records per query
    docnos: np.ndarray  # every record's document id, a numpy array of str (see id_array)
    values: np.ndarray  # float64, every record's grade (qrels) or score (run)
    lines: np.ndarray | None = None  # int64, every record's line number
    last_tag: str | None = None  # a run block's last line's tag, which trec_eval prints as the runid

    def __post_init__(self) -> None:
        if not isinstance(self.docnos, np.ndarray):
            object.__setattr__(self, "docnos", id_array(self.docnos))

    def __len__(self) -> int:
        return len(self.qids)

    @staticmethod
    def empty(qids: Sequence[str] = ()) -> Records:
        """Queries without any record (judged queries that a run lacks)."""
        return Records(list(qids), np.zeros(len(qids), dtype=np.int64), id_array([]), np.zeros(0), None)

    def positions(self, queries: Any) -> np.ndarray:
        """Positions of the records of the given queries, query after query, in the order given."""
        index = np.asarray(queries, dtype=np.int64)
        lengths = self.lengths[index]
        starts = (np.cumsum(self.lengths) - self.lengths)[index]
        return np.arange(int(lengths.sum())) + np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)

    def take(self, queries: Any) -> Records:
        """The queries at the given positions, in that order."""
        index = np.asarray(queries, dtype=np.int64)
        if index.size == len(self) and (index == np.arange(index.size)).all():
            return self
        at = self.positions(index)
        if at.size and at[-1] - at[0] + 1 == at.size and (np.diff(at) == 1).all():
            docnos = self.docnos[int(at[0]) : int(at[-1]) + 1]  # one stretch in order: a view
        else:
            docnos = self.docnos[at]
        return Records(
            [self.qids[i] for i in index.tolist()],
            self.lengths[index],
            docnos,
            self.values[at],
            None if self.lines is None else self.lines[at],
        )

    def chunks(self, size: int | None) -> Iterator[Records]:
        """The queries ``size`` at a time (all at once for None)."""
        step = size or max(len(self), 1)
        for begin in range(0, len(self), step):
            yield self.take(np.arange(begin, min(begin + step, len(self))))


def concat(parts: Sequence[Records]) -> Records:
    """The parts one after another (a query split between two parts stays split: see :func:`join_adjacent`)."""
    parts = [p for p in parts if len(p)]
    if len(parts) == 1:
        return parts[0]
    if not parts:
        return Records.empty()
    lines = [p.lines for p in parts]
    return Records(
        [q for p in parts for q in p.qids],
        np.concatenate([p.lengths for p in parts]),
        np.concatenate([p.docnos for p in parts]),
        np.concatenate([p.values for p in parts]),
        None if any(x is None for x in lines) else np.concatenate(lines),
    )


def join_adjacent(records: Records) -> Records:
    """Neighbouring runs of the same query (a query going on in the next block) as one."""
    names = records.qids
    starts = [i for i in range(len(names)) if i == 0 or names[i] != names[i - 1]]
    if len(starts) == len(names):
        return records
    return Records(
        [names[i] for i in starts],
        np.add.reduceat(records.lengths, starts),
        records.docnos,
        records.values,
        records.lines,
    )


def grouped(parts: Sequence[Records]) -> Records:
    """All records, each query's together in the order first met; a query's records keep file order."""
    records = join_adjacent(concat(parts))
    names = records.qids
    if len(set(names)) == len(names):
        return records
    first: dict[str, int] = {}
    for i, name in enumerate(names):
        first.setdefault(name, i)
    order = sorted(range(len(names)), key=lambda i: first[names[i]])  # stable: file order kept
    return join_adjacent(records.take(order))


def chunked(parts: Iterator[Records], size: int, label: str) -> Iterator[Records]:
    """Complete queries, ``size`` at a time, from the parsed blocks of a file grouped by query.

    A block's last query may go on in the next block, so it is held back.
    """
    seen: set[str] = set()
    pending = Records.empty()
    checked = 0  # the first `checked` queries of `pending` are complete and were checked
    for part in chain(parts, [None]):
        done = part is None
        if not done:
            pending = join_adjacent(concat([pending, part]))
        complete = len(pending) if done else max(len(pending) - 1, 0)
        for i in range(checked, complete):
            qid = pending.qids[i]
            if qid in seen:
                line = int(pending.lines[pending.positions([i])[0]])
                raise ValueError(
                    _(
                        "{label} line {line}: query {qid!r} appears again after other queries. Reading in "
                        "chunks (chunk_queries=...) needs a run grouped by query, as TREC runs are written: "
                        "sort the file by query id, or pass chunk_queries=None"
                    ).format(label=label, line=line, qid=qid)
                )
            seen.add(qid)
        full = complete if done else complete - complete % size
        for begin in range(0, full, size):
            chunk = pending.take(np.arange(begin, min(begin + size, full)))
            check_unique(chunk, label)
            yield chunk
        pending, checked = pending.take(np.arange(full, len(pending))), complete - full
        if done:
            return


def padded_rows(values: np.ndarray, lengths: np.ndarray, width: int, fill: Any) -> np.ndarray:
    """Rows of the given lengths, one after another in ``values``, as an (n, width) array."""
    n = lengths.size
    if n and width and (lengths == width).all():
        return values.reshape(n, width)  # every query the same length: no copy
    out = np.full((n, width), fill, dtype=values.dtype)
    if values.size:
        rows = np.repeat(np.arange(n), lengths)
        out[rows, np.arange(values.size) - np.repeat(np.cumsum(lengths) - lengths, lengths)] = values
    return out


def duplicate_pairs(records: Records) -> list[tuple[int, int, int]]:
    """Every document listed again in its query: (query, position before, later position).

    The one check for "a document twice in a query": the file and dict routes
    refuse the first pair (:func:`check_unique`), ``rankmetrics trec_eval``
    reports each query's first as trec_eval does, and a DataFrame's rows are
    checked here too. Each query's docnos, a padded row, are sorted row by row
    in one stable ``argsort``: equal ids become neighbours, in their order in
    the query, and the padding after them.
    """
    if not len(records.docnos):
        return []
    if len(records) > QUERIES_AT_ONCE:
        pairs, first = [], 0  # first: the part's first record, in the whole
        for begin, part in zip(range(0, len(records), QUERIES_AT_ONCE), records.chunks(QUERIES_AT_ONCE)):
            pairs += [(begin + q, first + a, first + b) for q, a, b in duplicate_pairs(part)]
            first += len(part.docnos)
        return pairs
    lengths = records.lengths
    rows = padded_rows(records.docnos, lengths, int(lengths.max()), "")
    order = np.argsort(rows, axis=1, kind="stable")
    ordered = np.take_along_axis(rows, order, axis=1)
    real = order < lengths[:, None]  # a document, not padding (padding sorts after an equal id)
    query, at = np.nonzero((ordered[:, 1:] == ordered[:, :-1]) & real[:, 1:])
    starts = np.cumsum(lengths) - lengths
    earlier = starts[query] + order[query, at]
    later = starts[query] + order[query, at + 1]
    return list(zip(query.tolist(), earlier.tolist(), later.tolist()))


def check_unique(records: Records, label: str) -> None:
    """Each document at most once per query; else an error naming both lines (the first such pair)."""
    pairs = duplicate_pairs(records)
    if not pairs:
        return
    lines = records.lines if records.lines is not None else np.zeros(len(records.docnos), dtype=np.int64)
    query, earlier, later = min(pairs, key=lambda pair: lines[pair[2]])
    raise ValueError(
        _(
            "{label} line {lines}: document {docnos!r} of query {qids!r} already appears on line "
            "{lines_2}; each document may appear once per query"
        ).format(
            label=label,
            lines=int(lines[later]),
            docnos=str(records.docnos[later]),
            qids=records.qids[query],
            lines_2=int(lines[earlier]),
        )
    )
