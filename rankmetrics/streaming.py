"""Read judgements and runs query by query, and put each group of queries in ranked order.

The engine under :func:`rankmetrics.evaluate`. Its design follows where the time
goes at real sizes (100,000 queries × 100 documents is ten million records):

- **No per-record Python loop.** A file is read in blocks of whole lines; in
  ASCII text the tokens are found, the field count of every line checked and
  the score column parsed by array operations on the bytes (other text is
  split line by line). Only docnos become Python strings. A nested dict is
  flattened with ``itertools.chain``.
- **Group by query once.** Run records arrive query after query (TREC runs are
  written that way, and a dict is already grouped). Each query's documents look
  up their grades in that query's judgement dict with one ``map(dict.get, ...)``.
- **One sort for all queries.** The scores of a group of queries form a padded
  2-D array, sorted row by row in one ``argsort``. trec_eval breaks ties by
  docno, descending; only the rows that really contain tied scores are
  re-sorted with the docno as a second key.
- **Bounded memory.** With ``chunk_queries`` the run is read, ranked and scored
  a group of queries at a time, so only the judgements, one group's records and
  the per-query results are held, never the whole run.

The careful, line-by-line reader of :mod:`rankmetrics.trec` is the fallback:
any chunk that does not parse cleanly is read again by it, so malformed input
gets the same messages, with file name and line number, as :func:`read_run`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from itertools import chain, islice, repeat
from typing import Any

import numpy as np

from . import trec

_NAN = float("nan")
_CHUNK_LINES = 100_000  # lines of an open file split and parsed at once
_CHUNK_BYTES = 4_000_000  # the same for a path, in bytes (about 100,000 run lines)


@dataclass(frozen=True)
class _Format:
    kind: str
    fields: int
    layout: str
    value_field: int


_QRELS = _Format("qrels", 4, trec._QRELS_FIELDS, 3)
_RUN = _Format("run", 6, trec._RUN_FIELDS, 4)


@dataclass(frozen=True)
class Groups:
    """Records of some queries, query after query: ``lengths[i]`` records belong to ``qids[i]``."""

    qids: list[str]
    docnos: list[str]  # every record's docno, query after query, in input order
    scores: np.ndarray  # float64, every record's score, aligned with the docnos
    lengths: np.ndarray  # int64, records per query

    def __len__(self) -> int:
        return len(self.qids)

    def records(self, queries: np.ndarray) -> np.ndarray:
        """Positions of the records of the given queries, query after query."""
        lengths = self.lengths[queries]
        starts = np.cumsum(self.lengths) - self.lengths
        return np.arange(int(lengths.sum())) + np.repeat(
            starts[queries] - (np.cumsum(lengths) - lengths), lengths
        )

    def take(self, keep: list[int]) -> Groups:
        """The queries at the positions ``keep``, in that order."""
        index = np.array(keep, dtype=np.int64)
        if index.size == len(self.qids) and (index == np.arange(index.size)).all():
            return self
        records = self.records(index)
        if records.size and records[-1] - records[0] + 1 == records.size:  # one stretch: slice
            docnos = self.docnos[int(records[0]) : int(records[-1]) + 1]
        else:
            docnos = [self.docnos[i] for i in records.tolist()]
        return Groups([self.qids[i] for i in keep], docnos, self.scores[records], self.lengths[index])


def empty_groups(qids: list[str]) -> Groups:
    """Queries with no retrieved document (judged queries that a run lacks)."""
    return Groups(list(qids), [], np.zeros(0), np.zeros(len(qids), dtype=np.int64))


@dataclass(frozen=True)
class Ranked:
    """A group of queries in ranked order, as padded arrays for the batch metrics."""

    queries: list[str]
    grades: np.ndarray  # (n, width) raw grades in ranked order; 0 where unjudged or padding
    judged: np.ndarray  # (n, width) True where the retrieved document has a judgement
    n_retrieved: np.ndarray  # (n,) documents retrieved per query (before any width cut)
    judged_grades: np.ndarray  # (n, m) every judgement of the query, padded with -inf


# ---------------------------------------------------------------- judgements


def judgements(source: Any) -> dict[str, dict[str, Any]]:
    """Judgements as ``{qid: {docno: grade}}`` with text ids and finite numeric grades.

    A dict that already has that shape is used as it is (checked, not copied);
    queries without any judgement are left out.
    """
    if isinstance(source, Mapping):
        if _flatten(source) is None:
            source = trec._nest(trec._table_from_mapping(source, "qrels", "grade"), grades=True)
        if all(source.values()):
            return source  # type: ignore[return-value]
        return {q: d for q, d in source.items() if d}
    label, reopen = _reader(source, "qrels", keep_lines=True)
    qrels: dict[str, dict[str, Any]] = {}
    for blob, first in reopen():
        names, starts, _, docnos, values = _parse(blob, first, label, _QRELS)
        grades = values.tolist()
        for name, start, end in zip(names, starts, [*starts[1:], len(docnos)]):
            judged = qrels.setdefault(name, {})
            before = len(judged)
            judged.update(zip(docnos[start:end], grades[start:end]))
            if len(judged) != before + end - start:  # a docno judged twice for this query
                _careful(_numbered(reopen()), label, _QRELS)
    return qrels


# ---------------------------------------------------------------- runs


def run_groups(source: Any, chunk_queries: int | None) -> Iterator[Groups]:
    """The run's records, ``chunk_queries`` queries at a time (all at once for None).

    With ``chunk_queries`` a file must be grouped by query: a query id that
    comes back after other queries is an error naming the query and the line.
    Queries without any record are left out.
    """
    if isinstance(source, Mapping):
        yield from _dict_groups(source, chunk_queries)
        return
    label, reopen = _reader(source, "run", keep_lines=chunk_queries is None)
    groups = _file_groups(reopen(), label, strict=chunk_queries is not None)
    if chunk_queries is None:
        yield _merge(list(groups), label, reopen)
        return
    pending: list[Groups] = []
    size = 0
    for group in groups:
        pending.append(group)
        size += len(group)
        if size < chunk_queries:
            continue
        joined = _concat(pending)
        full = size - size % chunk_queries
        for begin in range(0, full, chunk_queries):
            yield joined.take(list(range(begin, begin + chunk_queries)))
        pending = [joined.take(list(range(full, size)))] if full < size else []
        size -= full
    if size:
        yield _concat(pending)


def _dict_groups(run: Mapping, chunk_queries: int | None) -> Iterator[Groups]:
    flat = _flatten(run)
    if flat is None:  # ids that are not text, or values that need checking one by one
        run = trec._nest(trec._table_from_mapping(run, "run", "score"), grades=False)
        flat = _flatten(run)
        assert flat is not None
    docnos, scores = flat
    qids = list(run)
    lengths = np.fromiter(map(len, run.values()), dtype=np.int64, count=len(qids))
    groups = Groups(qids, docnos, scores, lengths)
    if not lengths.all():
        groups = groups.take(np.flatnonzero(lengths).tolist())
    step = chunk_queries or max(len(groups), 1)
    for begin in range(0, len(groups), step):
        yield groups.take(list(range(begin, min(begin + step, len(groups)))))


def _flatten(nested: Mapping) -> tuple[list[str], np.ndarray] | None:
    """Every key and value of ``{qid: {docno: number}}``, in order: docnos and a float array.

    None when the fast route cannot vouch for the input: an id that is not
    text, an inner value that is not a dict, a value that is not a finite
    number. The careful route then checks each entry and names the bad one.
    """
    try:
        "".join(nested)  # every query id is text (join refuses anything else)
        inner = list(nested.values())
        docnos = list(chain.from_iterable(inner))
        "".join(docnos)  # every docno is text
        values = np.array(list(chain.from_iterable(map(dict.values, inner))))
    except (TypeError, ValueError):
        return None
    if values.ndim != 1 or values.dtype.kind not in "biuf" or values.size != len(docnos):
        return None
    values = values.astype(np.float64, copy=False)
    return (docnos, values) if np.isfinite(values).all() else None


def _file_groups(chunks: Chunks, label: str, *, strict: bool) -> Iterator[Groups]:
    """A run file's records, one :class:`Groups` per chunk of lines, each query complete.

    The last query of a chunk may go on in the next one, so its lines are held
    back and parsed with the next chunk. ``strict``: a query id that comes back
    after other queries is an error.
    """
    seen: set[str] = set()
    held, held_first = b"", 1
    for blob, first in chain(chunks, [(b"", 0)]):
        at_end = not blob
        if held:
            blob, first = held + blob, held_first
        if not blob:
            return
        names, starts, lines, docnos, scores = _parse(blob, first, label, _RUN)
        if not docnos:
            held = b""
            continue
        if not at_end:  # hold back the last query
            last, line = starts.pop(), lines.pop()
            names.pop()
            cut = _line_offset(blob, line)
            held, held_first = blob[cut:], first + line
            if not starts:
                continue
            docnos, scores = docnos[:last], scores[:last]
        else:
            held = b""
        lengths = np.diff(np.array([*starts, len(docnos)], dtype=np.int64))
        if strict:
            _check_grouped(names, lines, seen, first, label)
        group = Groups(names, docnos, scores, lengths)
        if _has_duplicates(group):
            _careful(_numbered([(blob, first)]), label, _RUN)
        yield group


def _check_grouped(names: list[str], lines: list[int], seen: set[str], first: int, label: str) -> None:
    """Raise when a query of this chunk already had its records earlier in the file."""
    if seen.isdisjoint(names) and len(set(names)) == len(names):
        seen.update(names)
        return
    for name, line in zip(names, lines):
        if name in seen:
            raise ValueError(
                f"{label} line {first + line}: query {name!r} appears again after other queries. "
                "Reading in chunks (chunk_queries=...) needs a run grouped by query, as TREC "
                "runs are written: sort the file by query id, or pass chunk_queries=None"
            )
        seen.add(name)


def _has_duplicates(groups: Groups) -> bool:
    """Whether some query lists a docno twice: equal hashes side by side after a row sort, then confirmed."""
    if not groups.docnos:
        return False
    hashes = np.fromiter(map(hash, groups.docnos), dtype=np.int64, count=len(groups.docnos))
    longest = int(groups.lengths.max())
    rows = _padded(hashes, groups.lengths, longest, np.iinfo(np.int64).max)
    rows = np.sort(rows, axis=1)
    inside = np.arange(1, longest) < groups.lengths[:, None]
    suspects = np.flatnonzero(((rows[:, 1:] == rows[:, :-1]) & inside).any(axis=1))
    for i in suspects.tolist():  # equal hashes are almost always equal docnos; make sure
        docnos = [groups.docnos[j] for j in groups.records(np.array([i])).tolist()]
        if len(set(docnos)) != len(docnos):
            return True
    return False


def _merge(parts: list[Groups], label: str, reopen: Callable[[], Chunks]) -> Groups:
    """One :class:`Groups` of every query; a query split over the file is put back together."""
    groups = _concat(parts)
    if len(set(groups.qids)) == len(groups.qids):
        return groups
    order = sorted(range(len(groups)), key=groups.qids.__getitem__)  # stable: file order kept
    moved = groups.take(order)
    first = [0, *(i for i in range(1, len(moved)) if moved.qids[i] != moved.qids[i - 1])]
    merged = Groups(
        [moved.qids[i] for i in first],
        moved.docnos,
        moved.scores,
        np.add.reduceat(moved.lengths, first),
    )
    if _has_duplicates(merged):
        _careful(_numbered(reopen()), label, _RUN)
    return merged


def _concat(parts: list[Groups]) -> Groups:
    if len(parts) == 1:
        return parts[0]
    return Groups(
        [q for p in parts for q in p.qids],
        list(chain.from_iterable(p.docnos for p in parts)),
        np.concatenate([p.scores for p in parts]) if parts else np.zeros(0),
        np.concatenate([p.lengths for p in parts]) if parts else np.zeros(0, dtype=np.int64),
    )


# ---------------------------------------------------------------- reading lines


Chunks = Iterator[tuple[bytes, int]]  # UTF-8 text of whole lines, and the number of its first line


def _reader(source: Any, kind: str, *, keep_lines: bool) -> tuple[str, Callable[[], Chunks]]:
    """The source's display name and a function that (re)starts reading it in chunks of lines.

    A path can be read again (the careful reader's second pass on an error); an
    open file is read once, so its lines are kept when a second pass may be needed.
    """
    if isinstance(source, (str, os.PathLike)):
        label, _ = trec._lines(source, kind)  # checks that the file exists
        path = os.fspath(source)
        return label, lambda: _path_chunks(path)
    label, lines = trec._lines(source, kind)
    if keep_lines:
        kept = list(lines)
        return label, lambda: _chunks(iter(kept))
    return label, lambda: _chunks(lines)


def _path_chunks(path: str) -> Chunks:
    """A file's bytes in blocks of whole lines; line ends as text mode reads them (\\r\\n, \\r -> \\n)."""
    first, rest = 1, b""
    with open(path, "rb") as handle:
        while True:
            block = handle.read(_CHUNK_BYTES)
            if not block:
                if rest:
                    yield _newlines(rest), first
                return
            block = rest + block
            cut = block.rfind(b"\n") + 1
            if cut == 0:  # no line end yet
                rest = block
                continue
            blob, rest = _newlines(block[:cut]), block[cut:]
            yield blob, first
            first += blob.count(b"\n")


def _newlines(blob: bytes) -> bytes:
    return blob.replace(b"\r\n", b"\n").replace(b"\r", b"\n") if b"\r" in blob else blob


def _chunks(lines: Iterator[str]) -> Chunks:
    """An open file's lines, ``_CHUNK_LINES`` at a time, as UTF-8 text."""
    first = 1
    while chunk := list(islice(lines, _CHUNK_LINES)):
        yield "".join(chunk).encode("utf-8"), first
        first += len(chunk)


def _numbered(chunks: Iterator[tuple[bytes, int]] | list[tuple[bytes, int]]) -> Iterator[tuple[int, str]]:
    """(line number, line) pairs for the careful reader."""
    for blob, first in chunks:
        yield from enumerate(blob.decode("utf-8").split("\n"), start=first)


def _line_offset(blob: bytes, line: int) -> int:
    """Where the given line (0-based) of the chunk begins."""
    if line == 0:
        return 0
    return int(np.flatnonzero(np.frombuffer(blob, dtype=np.uint8) == 10)[line - 1]) + 1


def _parse(blob: bytes, first: int, label: str, fmt: _Format) -> tuple[list, list, list, list, np.ndarray]:
    """A chunk's queries, and every record's docno and value.

    Returns each query's id, its first record and that record's line (0-based,
    in the chunk), then every record's docno and value. Plain ASCII goes
    through :func:`_parse_ascii` (array work on the bytes); anything else is
    split line by line. When a line does not parse, the careful reader reads
    the chunk again and raises its precise error, naming the line.
    """
    if blob.isascii():
        parsed = _parse_ascii(blob, fmt)
        if parsed is not None:
            return parsed
    n = fmt.fields
    lines = blob.decode("utf-8").split("\n")
    parts = [line.split() for line in lines]
    rows = [i for i, fields in enumerate(parts) if fields]
    if any(len(parts[i]) != n for i in rows):
        _careful(_numbered([(blob, first)]), label, fmt)
    try:
        values = np.array([float(parts[i][fmt.value_field]) for i in rows], dtype=np.float64)
    except ValueError:
        values = np.array([np.nan])
    if not np.isfinite(values).all():
        _careful(_numbered([(blob, first)]), label, fmt)
    qids = [parts[i][0] for i in rows]
    starts = [i for i in range(len(rows)) if i == 0 or qids[i] != qids[i - 1]]
    return [qids[i] for i in starts], starts, [rows[i] for i in starts], [parts[i][2] for i in rows], values


# Byte classes: 0 inside a token, 1 what str.split() splits ASCII text on, 2 NUL and the
# separators 28-31 (str.split() splits on them too; the text route handles them).
_CLASS = np.zeros(256, dtype=np.uint8)
_CLASS[[9, 10, 11, 12, 13, 32]] = 1
_CLASS[[0, 28, 29, 30, 31]] = 2
_POWERS = 10.0 ** np.arange(23)  # exact in float64


def _parse_ascii(data: bytes, fmt: _Format) -> tuple[list, list, list, list, np.ndarray] | None:
    """:func:`_parse` for ASCII text, as array work on its bytes; None to let the text route decide.

    Tokens are found from the whitespace mask; every non-blank line must hold
    exactly ``fmt.fields`` tokens. Values written as plain decimals with at
    most 15 digits are parsed exactly (an integer of at most 15 digits divided
    by a power of ten is one correctly rounded division, the same double as
    ``float()``); any other spelling goes through ``float()``. Only docnos and
    each query's id become Python strings.
    """
    raw = np.frombuffer(data, dtype=np.uint8)
    if raw.size == 0:
        return None
    space = _CLASS[raw]
    if space.max() > 1:
        return None
    # Token boundaries: where the class steps from space to token (-1) and back (+1).
    step = np.diff(space.view(np.int8))
    begins = np.flatnonzero(step == -1) + 1
    ends = np.flatnonzero(step == 1) + 1
    if not space[0]:
        begins = np.concatenate(([0], begins))
    if not space[-1]:
        ends = np.concatenate((ends, [raw.size]))
    n = fmt.fields
    if begins.size % n:
        return None  # a line with the wrong number of fields: the text route names it
    newlines = np.flatnonzero(raw == 10)
    records = begins.size // n
    if newlines.size - (raw[-1] == 10) == records - 1:
        # No blank line: then the k-th newline must fall between the k-th record's last
        # token and the next record's first one.
        fits = (ends[n - 1 : -1 : n] <= newlines[: records - 1]) & (newlines[: records - 1] < begins[n::n])
        if not fits.all():
            return None
    else:
        per_line = np.bincount(np.searchsorted(newlines, begins))  # tokens per line
        if not ((per_line == 0) | (per_line == n)).all():
            return None
    begins, ends = begins.reshape(-1, n), ends.reshape(-1, n)
    values = _decimals(raw, begins[:, fmt.value_field], ends[:, fmt.value_field], data)
    if values is None:
        return None
    # Queries: where the query-id token differs from the previous record's.
    qid = _tokens(raw, begins[:, 0], ends[:, 0])
    change = (
        np.flatnonzero((qid[1:] != qid[:-1]).any(axis=1)) + 1 if records > 1 else np.zeros(0, dtype=np.int64)
    )
    starts = [0, *change.tolist()]
    names = [data[b:e].decode("ascii") for b, e in zip(begins[starts, 0].tolist(), ends[starts, 0].tolist())]
    lines = np.searchsorted(newlines, begins[starts, 0]).tolist()  # newlines before each query's first record
    docno = _tokens(raw, begins[:, 2], ends[:, 2])
    docnos = docno.view(f"S{docno.shape[1]}").ravel().astype(f"U{docno.shape[1]}").tolist()
    return names, starts, lines, docnos, values


def _tokens(raw: np.ndarray, begins: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The bytes of one token per record, as rows of a zero-padded (records, longest) uint8 array."""
    lengths = ends - begins
    width = int(lengths.max())
    padded = np.concatenate((raw, np.zeros(width, dtype=np.uint8)))
    rows = np.lib.stride_tricks.sliding_window_view(padded, width)[begins]  # one row per token, copied
    rows[np.arange(width) >= lengths[:, None]] = 0
    return rows


def _decimals(raw: np.ndarray, begins: np.ndarray, ends: np.ndarray, data: bytes) -> np.ndarray | None:
    """Parse one numeric token per record; None when one is not a finite number."""
    chars = _tokens(raw, begins, ends)
    inside = chars != 0
    digit = (chars >= 48) & (chars <= 57)
    dot = chars == 46
    sign = (chars[:, 0] == 45) | (chars[:, 0] == 43)
    body = inside.copy()
    body[:, 0] &= ~sign
    n_digits = digit.sum(axis=1)
    plain = (~body | digit | dot).all(axis=1) & (dot.sum(axis=1) <= 1) & (n_digits >= 1) & (n_digits <= 15)
    mantissa = np.zeros(chars.shape[0], dtype=np.int64)
    for column in range(chars.shape[1]):
        d = digit[:, column]
        mantissa = np.where(d, mantissa * 10 + (chars[:, column].astype(np.int64) - 48), mantissa)
    decimals = (digit & (np.cumsum(dot, axis=1) > 0)).sum(axis=1)
    values = mantissa / _POWERS[np.minimum(decimals, 22)]
    values = np.where(chars[:, 0] == 45, -values, values)
    odd = np.flatnonzero(~plain)
    if odd.size:  # exponents, more digits, or not a number at all: float() decides
        try:
            values[odd] = [float(data[b:e]) for b, e in zip(begins[odd].tolist(), ends[odd].tolist())]
        except ValueError:
            return None
        if not np.isfinite(values[odd]).all():
            return None
    return values


def _careful(numbered: Iterator[tuple[int, str]], label: str, fmt: _Format) -> None:
    """Read again line by line; raises the precise error that the fast reader only detected."""
    trec._table_from_numbered(
        label, numbered, fmt.kind, fields=fmt.fields, layout=fmt.layout, value_field=fmt.value_field
    )
    raise AssertionError(f"{label}: the fast reader found a problem that the careful one did not")


# ---------------------------------------------------------------- ranking


def rank(groups: Groups, qrels: dict[str, dict[str, Any]], depth: int | None, ties: str) -> Ranked:
    """Order each query's documents by score, highest first, and look up their grades.

    ``ties="docno_descending"``: equal scores are ordered by docno, descending,
    as text (trec_eval); ``"input_order"``: as they come. Only the first
    ``depth`` ranks are kept (all for None). Every query must be in ``qrels``.
    """
    n = len(groups)
    lengths = groups.lengths
    total = int(lengths.sum())
    judgement = [qrels[q] for q in groups.qids]
    # The grade of every retrieved document, NaN where it has no judgement: each
    # record looks itself up in its own query's judgements.
    per_record = chain.from_iterable(map(repeat, judgement, lengths.tolist()))
    found = np.fromiter(map(dict.get, per_record, groups.docnos, repeat(_NAN)), dtype=np.float64, count=total)
    longest = int(lengths.max()) if n else 0
    scores = _padded(groups.scores, lengths, longest, -np.inf)
    found = _padded(found, lengths, longest, _NAN)
    order = np.argsort(-scores, axis=1, kind="stable" if ties == "input_order" else None)
    if ties == "docno_descending" and longest > 1:
        _break_ties(order, scores, groups)
    width = max(1, longest if depth is None else min(longest, depth))
    if longest:
        ranked = np.take_along_axis(found, order[:, :width], axis=1)
    else:
        ranked = np.full((n, 1), _NAN)
    judged = ~np.isnan(ranked)
    counts = np.fromiter(map(len, judgement), dtype=np.int64, count=n)
    every = np.fromiter(
        chain.from_iterable(map(dict.values, judgement)), dtype=np.float64, count=int(counts.sum())
    )
    return Ranked(
        queries=list(groups.qids),
        grades=np.where(judged, ranked, 0.0),
        judged=judged,
        n_retrieved=lengths,
        judged_grades=_padded(every, counts, max(1, int(counts.max()) if n else 1), -np.inf),
    )


def _padded(values: np.ndarray, lengths: np.ndarray, width: int, fill: Any) -> np.ndarray:
    """Rows of the given lengths, one after another in ``values``, as an (n, width) array."""
    n = lengths.size
    if n and width and (lengths == width).all():
        return values.reshape(n, width)  # every query the same length: no copy
    out = np.full((n, width), fill, dtype=values.dtype)
    if values.size:
        rows = np.repeat(np.arange(n), lengths)
        out[rows, np.arange(values.size) - np.repeat(np.cumsum(lengths) - lengths, lengths)] = values
    return out


def _break_ties(order: np.ndarray, scores: np.ndarray, groups: Groups) -> None:
    """Re-sort, in place, the rows of ``order`` with equal scores: by score, then docno descending."""
    ordered = np.take_along_axis(scores, order, axis=1)
    tied = ((ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] > -np.inf)).any(axis=1)
    rows = np.flatnonzero(tied)
    if rows.size == 0:
        return
    lengths = groups.lengths[rows]
    row = np.repeat(np.arange(rows.size), lengths)
    position = np.arange(row.size) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    score = scores[rows[row], position]
    docnos = np.array([groups.docnos[i] for i in groups.records(rows).tolist()], dtype=str)
    _, text_order = np.unique(docnos, return_inverse=True)  # code point order = trec_eval's strcmp
    by = np.lexsort((-text_order.ravel(), -score, row))
    order[rows[row], position] = position[by]
