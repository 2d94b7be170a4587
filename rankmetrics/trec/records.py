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
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

import numpy as np

from ..i18n import _
from .io.texts import Texts, as_texts, join


@dataclass(frozen=True)
class Records:
    """Records of some queries, query after query: ``lengths[i]`` records belong to ``qids[i]``.

    One query's records keep their order in the input. ``lines`` gives each
    record's line in its file, for messages; it is None for a dict. The
    document ids are :class:`~rankmetrics.trec.io.texts.Texts` as the reader
    makes them (bytes and a key each; strings when read), or a list of
    strings.
    """

    qids: list[str]
    lengths: np.ndarray  # int64, records per query
    docnos: Sequence[str]  # every record's document id (Texts, or a list of str)
    values: np.ndarray  # float64, every record's grade (qrels) or score (run)
    lines: np.ndarray | None = None  # int64, every record's line number
    last_tag: str | None = None  # a run block's last line's tag, which trec_eval prints as the runid

    def __len__(self) -> int:
        return len(self.qids)

    @staticmethod
    def empty(qids: Sequence[str] = ()) -> Records:
        """Queries without any record (judged queries that a run lacks)."""
        return Records(list(qids), np.zeros(len(qids), dtype=np.int64), [], np.zeros(0), None)

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
            docnos = self.docnos[int(at[0]) : int(at[-1]) + 1]  # one stretch in order: a slice
        elif isinstance(self.docnos, Texts):
            docnos = self.docnos.take(at)
        else:
            docnos = [self.docnos[i] for i in at.tolist()]
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
    if all(isinstance(p.docnos, Texts) for p in parts):
        docnos: Sequence[str] = join([p.docnos for p in parts])
    else:
        docnos = list(chain.from_iterable(p.docnos for p in parts))
    return Records(
        [q for p in parts for q in p.qids],
        np.concatenate([p.lengths for p in parts]),
        docnos,
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
    """Every document listed again in its query: (query, first position, later position).

    The one check for "a document twice in a query": the file and dict routes
    refuse the first pair (:func:`check_unique`), ``rankmetrics trec_eval``
    reports each query's first as trec_eval does, and a DataFrame's rows are
    checked here too. Each query's docno keys are sorted row by row in one
    array operation; only a query with two equal keys is then looked at
    document by document.
    """
    if not len(records.docnos):
        return []
    hashes = doc_keys(records.docnos).view(np.int64)
    longest = int(records.lengths.max())
    rows = np.sort(padded_rows(hashes, records.lengths, longest, np.iinfo(np.int64).max), axis=1)
    inside = np.arange(1, longest) < records.lengths[:, None]
    suspects = np.flatnonzero(((rows[:, 1:] == rows[:, :-1]) & inside).any(axis=1))
    pairs = []
    for query in suspects.tolist():
        first: dict[str, int] = {}
        for at in records.positions([query]).tolist():
            earlier = first.setdefault(records.docnos[at], at)
            if earlier != at:
                pairs.append((query, earlier, at))
    return pairs  # empty too when equal keys were of different docnos


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
            docnos=records.docnos[later],
            qids=records.qids[query],
            lines_2=int(lines[earlier]),
        )
    )


def doc_keys(docnos: Sequence[str]) -> np.ndarray:
    """A 64-bit key (uint64) of each document id's UTF-8 bytes: the same for the same id, from a file or a dict."""
    return as_texts(docnos).keys
