"""Read TREC judgement files (qrels) and run files: the package's one reader.

:func:`read_qrels`, :func:`read_run`, :func:`rankmetrics.evaluate` and
:func:`rankmetrics.compare` all read through this module, files and dicts
alike, so the file route and the dict route cannot disagree.

The file format is trec_eval's (``get_qrels.c``, ``get_trec_results.c``):

- fields are separated by ASCII white space (spaces, tabs), any amount of it;
- qrels: ``qid iteration docno relevance``, exactly four fields (the
  iteration is ignored);
- run: ``qid Q0 docno rank score tag``; only the score orders the documents
  (the rank column is ignored), and text after the sixth field is ignored;
- blank lines and lines whose first non-blank character is ``#`` are skipped;
- lines may end in ``\\n``, ``\\r\\n`` or ``\\r``; the last one need not end;
- the queries may come in any order, and one query's lines need not be
  together (trec_eval sorts every file by query first).

Where trec_eval would silently change a number, this reader refuses instead,
naming the file and the line:

- a score must be a decimal number (``12.5``, ``-3``, ``1.5e-3``); trec_eval's
  ``atof`` reads ``1_000`` as 1 and ``0x10`` as 16, and accepts ``nan``;
- a grade must be a decimal number without an exponent, and a whole one:
  trec_eval's ``atol`` turns ``0.5`` into 0 and ``1e3`` into 1. A
  fractional grade is read only when asked for (``fractional_grades``);
- a document twice in one query, a NUL byte, text that is not UTF-8.

A UTF-8 byte-order mark (Windows Notepad writes one) is skipped, and a gzip
file (``.gz``, as most published TREC runs are) is read as its contents.

Large files are read in blocks of whole lines and split into fields by array
operations on the bytes, so that ten million lines never make ten million
Python lists; only document ids become Python strings.
"""

from __future__ import annotations

import math
import numbers
import os
import re
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

import numpy as np

from .. import _validation as v

FRACTIONAL_GRADES = ("error", "truncate", "keep")

_BLOCK_BYTES = 4_000_000  # bytes read at a time (about 100,000 run lines)
_GZIP_MAGIC = b"\x1f\x8b"
_BOM = b"\xef\xbb\xbf"

# What C's isspace() and bytes.split() split on: tab, newline, vertical tab, form feed, CR, space.
_SPACE = np.zeros(256, dtype=bool)
_SPACE[[9, 10, 11, 12, 13, 32]] = True

_SCORE = re.compile(rb"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_GRADE = re.compile(rb"[+-]?(?:\d+\.?\d*|\.\d+)")
_FAST_DIGITS = 15  # a plain decimal of at most 15 digits is parsed exactly by array work
_POWERS = 10.0 ** np.arange(24)  # exact in float64 up to 1e22


@dataclass(frozen=True)
class _Format:
    kind: str  # "qrels" or "run"
    fields: int  # fields a line has (exactly for qrels, at least for a run)
    exact: bool
    layout: str
    value_field: int
    what: str  # the value's name in messages
    number: re.Pattern[bytes]
    spelled: str  # examples of a good value, for messages


QRELS = _Format("qrels", 4, True, "qid iteration docno relevance", 3, "relevance", _GRADE, "2, 0 or -1")
RUN = _Format("run", 6, False, "qid Q0 docno rank score tag", 4, "score", _SCORE, "12.5, -3 or 1.5e-3")


@dataclass(frozen=True)
class Records:
    """Records of some queries, query after query: ``lengths[i]`` records belong to ``qids[i]``.

    One query's records keep their order in the input. ``lines`` gives each
    record's line in its file, for messages; it is None for a dict.
    """

    qids: list[str]
    lengths: np.ndarray  # int64, records per query
    docnos: list[str]  # every record's document id
    values: np.ndarray  # float64, every record's grade (qrels) or score (run)
    lines: np.ndarray | None = None  # int64, every record's line number
    last_tag: str | None = None  # a run block's last line's tag (sixth field), for trec_eval's runid

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


# ---------------------------------------------------------------- public readers


def read_qrels(source: Any, *, fractional_grades: str = "error") -> dict[str, dict[str, int | float]]:
    """Read relevance judgements: a TREC qrels file, an open file, or a dict.

    Each line is ``qid iteration docno relevance``; the relevance is a whole
    number (0 non-relevant; 1, 2, ... more relevant; a negative grade such as
    TREC's -1 means "in the pool but unjudged", trec_eval's ``RELVALUE_UNJUDGED``). Blank lines and ``#`` comments are skipped, the
    queries may come in any order, and a ``.gz`` file is read as its contents.

    Parameters
    ----------
    source : str, os.PathLike, text or binary file object, or mapping
        A path to a qrels file, an open file, or ``{qid: {docno: grade}}``.
    fractional_grades : {"error", "truncate", "keep"}, default "error"
        What a grade such as ``0.5`` does. ``"error"``: it is refused, naming
        the line (trec_eval would silently read it as 0). ``"truncate"``: cut
        toward zero as trec_eval does (0.5 → 0, -1.5 → -1). ``"keep"``: used
        as it is, a graded relevance between the whole grades.

    Returns
    -------
    dict
        ``{qid: {docno: grade}}`` with text ids, in the order first met;
        whole grades are ``int``.

    Raises
    ------
    ValueError
        For a malformed line, a grade that is not a whole decimal number, or
        a document judged twice for one query (naming the file, the line and,
        for a duplicate, both lines); for a dict, naming the entry.

    See Also
    --------
    read_run, evaluate

    Examples
    --------
    >>> import io
    >>> read_qrels(io.StringIO("# topic 1\\nq1 0 d1 2\\nq2 0 d1 1\\nq1 0 d2 0\\n"))
    {'q1': {'d1': 2, 'd2': 0}, 'q2': {'d1': 1}}
    >>> read_qrels(io.StringIO("q1 0 d1 0.5\\n"), fractional_grades="keep")
    {'q1': {'d1': 0.5}}
    """
    return _nest(qrels_records(source, fractional_grades), grades=True)


def read_run(source: Any) -> dict[str, dict[str, float]]:
    """Read a system's ranked results: a TREC run file, an open file, or a dict.

    Each line is ``qid Q0 docno rank score tag``; text after the tag is
    ignored. Only the score orders the documents (trec_eval's rule; the rank
    column is ignored), so the result keeps ``{docno: score}``. Blank lines
    and ``#`` comments are skipped, the queries may come in any order, and a
    ``.gz`` file is read as its contents.

    Parameters
    ----------
    source : str, os.PathLike, text or binary file object, or mapping
        A path to a run file, an open file, or ``{qid: {docno: score}}``.

    Returns
    -------
    dict
        ``{qid: {docno: score}}`` with text ids; queries in the order first
        met, each query's documents in file order.

    Raises
    ------
    ValueError
        For a malformed line, a score that is not a finite decimal number, or
        a document listed twice for one query (naming the file, the line and,
        for a duplicate, both lines); for a dict, naming the entry.

    See Also
    --------
    read_qrels, evaluate

    Examples
    --------
    >>> import io
    >>> read_run(io.StringIO("q1 Q0 d3 1 12.5 bm25\\nq2 Q0 d1 1 9 bm25\\nq1 Q0 d1 2 11.0 bm25\\n"))
    {'q1': {'d3': 12.5, 'd1': 11.0}, 'q2': {'d1': 9.0}}
    """
    records = next(run_records(source, None), None)
    return _nest(records or Records.empty(), grades=False)


# ---------------------------------------------------------------- what evaluate reads


def qrels_records(source: Any, fractional_grades: str = "error") -> Records:
    """Every judgement, grouped by query, checked: what :func:`read_qrels` nests."""
    policy = v.check_choice(fractional_grades, "fractional_grades", FRACTIONAL_GRADES)
    if isinstance(source, Mapping):
        records, label = _from_mapping(source, QRELS), None
    else:
        label, blocks = _text_blocks(source, QRELS.kind)
        records = _grouped([_parse(blob, first, label, QRELS) for blob, first in blocks])
        _check_unique(records, label)
    return _whole_grades(records, label, policy)


def judgements(source: Any, fractional_grades: str = "error") -> dict[str, dict[str, int | float]]:
    """Judgements as ``{qid: {docno: grade}}``, for looking grades up by document.

    A dict that already has that shape, with text ids and whole-number grades,
    is used as it is (checked, not copied). Queries without any judgement are
    left out.
    """
    policy = v.check_choice(fractional_grades, "fractional_grades", FRACTIONAL_GRADES)
    flat = _flatten(source) if isinstance(source, Mapping) else None
    if flat is not None and (policy == "keep" or (flat[2] == np.trunc(flat[2])).all()):
        return source if all(source.values()) else {q: d for q, d in source.items() if d}
    return _nest(qrels_records(source, fractional_grades), grades=True)


def run_records(source: Any, chunk_queries: int | None, noted: dict | None = None) -> Iterator[Records]:
    """The run's records, checked, ``chunk_queries`` queries at a time (all at once for None).

    ``noted``, when given, receives ``noted["tag"]``: the tag (sixth field) of
    the file's last line, which trec_eval prints as the ``runid``, once the
    records are read. A dict run has no tag.

    All at once, the queries may come in any order: a query's records are put
    together, in the order first met. In chunks, a file must be grouped by
    query (as TREC runs are written), so that only one chunk is held at a
    time; a query that comes back after other queries is an error naming it
    and its line. Queries without any record are left out.
    """
    if isinstance(source, Mapping):
        yield from _from_mapping(source, RUN).chunks(chunk_queries)
        return
    label, blocks = _text_blocks(source, RUN.kind)
    parts = _noting_tags((_parse(blob, first, label, RUN) for blob, first in blocks), noted)
    if chunk_queries is None:
        records = _grouped(list(parts))
        _check_unique(records, label)
        yield records
        return
    yield from _chunked(parts, chunk_queries, label)


def _noting_tags(parts: Iterator[Records], noted: dict | None) -> Iterator[Records]:
    for part in parts:
        if noted is not None and part.last_tag is not None:
            noted["tag"] = part.last_tag
        yield part


def _chunked(parts: Iterator[Records], size: int, label: str) -> Iterator[Records]:
    """Complete queries, ``size`` at a time, from the parsed blocks of a file grouped by query.

    A block's last query may go on in the next block, so it is held back.
    """
    seen: set[str] = set()
    pending = Records.empty()
    checked = 0  # the first `checked` queries of `pending` are complete and were checked
    for part in chain(parts, [None]):
        done = part is None
        if not done:
            pending = _join_adjacent(_concat([pending, part]))
        complete = len(pending) if done else max(len(pending) - 1, 0)
        for i in range(checked, complete):
            qid = pending.qids[i]
            if qid in seen:
                line = int(pending.lines[pending.positions([i])[0]])
                raise ValueError(
                    f"{label} line {line}: query {qid!r} appears again after other queries. "
                    "Reading in chunks (chunk_queries=...) needs a run grouped by query, as TREC "
                    "runs are written: sort the file by query id, or pass chunk_queries=None"
                )
            seen.add(qid)
        full = complete if done else complete - complete % size
        for begin in range(0, full, size):
            chunk = pending.take(np.arange(begin, min(begin + size, full)))
            _check_unique(chunk, label)
            yield chunk
        pending, checked = pending.take(np.arange(full, len(pending))), complete - full
        if done:
            return


# ---------------------------------------------------------------- files: bytes to lines


def _text_blocks(source: Any, kind: str) -> tuple[str, Iterator[tuple[bytes, int]]]:
    """The source's display name, and its text in blocks of whole lines with the first line's number."""
    if isinstance(source, (str, os.PathLike)):
        path = os.fsdecode(source)
        if not os.path.isfile(path):
            raise ValueError(f"{kind} file {path!r} does not exist (or is not a file)")
        label = os.path.basename(path)
        raw = _path_blocks(path, kind)
    elif hasattr(source, "read"):
        name = getattr(source, "name", None)
        label = os.path.basename(name) if isinstance(name, str) else f"<{kind} file>"
        raw = _stream_blocks(source, label)
    else:
        raise ValueError(
            f"{kind} must be a path, an open file or a dict {{qid: {{docno: value}}}}; got {v.show(source)}"
        )
    return label, _lines(_unwrapped(raw, label))


def _path_blocks(path: str, kind: str) -> Iterator[bytes]:
    try:
        with open(path, "rb") as handle:
            while block := handle.read(_BLOCK_BYTES):
                yield block
    except OSError as error:
        raise ValueError(f"{kind} file {path!r} cannot be read: {error.strerror or error}") from None


def _stream_blocks(handle: Any, label: str) -> Iterator[bytes]:
    while True:
        try:
            block = handle.read(_BLOCK_BYTES)
        except UnicodeDecodeError as error:
            raise ValueError(
                f"{label}: the file is not text in its encoding ({error.reason}); "
                "open it in binary mode ('rb') or with encoding='utf-8'"
            ) from None
        if not block:
            return
        if isinstance(block, str):
            try:
                block = block.encode("utf-8")
            except UnicodeEncodeError as error:
                raise ValueError(
                    f"{label}: the text holds {error.object[error.start]!r}, not UTF-8"
                ) from None
        elif not isinstance(block, bytes):
            raise ValueError(f"{label}: read() gave {type(block).__name__}, not text or bytes")
        yield block


def _peek(blocks: Iterator[bytes], n: int) -> tuple[bytes, Iterator[bytes]]:
    """At least the first ``n`` bytes (fewer only at the end), and every block after them."""
    head = b""
    for block in blocks:
        head += block
        if len(head) >= n:
            break
    return head, blocks


def _unwrapped(blocks: Iterator[bytes], label: str) -> Iterator[bytes]:
    """The contents: a gzip stream decompressed, a leading UTF-8 byte-order mark dropped."""
    head, rest = _peek(blocks, 3)
    if head.startswith(_GZIP_MAGIC):
        head, rest = _peek(_gunzip(chain([head], rest), label), 3)
    head = head.removeprefix(_BOM)
    yield head
    yield from rest


def _gunzip(blocks: Iterator[bytes], label: str) -> Iterator[bytes]:
    decoder = zlib.decompressobj(wbits=31)  # 31: gzip header and trailer
    started = False
    try:
        for block in blocks:
            while block:
                started = True
                yield decoder.decompress(block)
                block = b""
                if decoder.eof:  # a file of several gzip members, one after another
                    block, decoder, started = decoder.unused_data, zlib.decompressobj(wbits=31), False
        if started and not decoder.eof:
            raise ValueError(f"{label}: the gzip data ends early (the file is cut short)")
    except zlib.error as error:
        raise ValueError(f"{label}: not a valid gzip file ({error})") from None


def _lines(blocks: Iterator[bytes]) -> Iterator[tuple[bytes, int]]:
    """Blocks of whole lines ending in ``\\n`` (``\\r\\n`` and ``\\r`` become ``\\n``), each with its first line's number."""
    first, rest = 1, b""
    for block in blocks:
        block = rest + block
        rest = b""
        if block.endswith(b"\r"):  # perhaps the first half of \r\n: decide with the next block
            block, rest = block[:-1], b"\r"
        block = _newlines(block)
        cut = block.rfind(b"\n") + 1
        if cut:
            yield block[:cut], first
            first += block.count(b"\n", 0, cut)
        rest = block[cut:] + rest
    if rest:
        yield _newlines(rest) + b"\n", first


def _newlines(blob: bytes) -> bytes:
    return blob.replace(b"\r\n", b"\n").replace(b"\r", b"\n") if b"\r" in blob else blob


# ---------------------------------------------------------------- lines to records


def _parse(blob: bytes, first: int, label: str, fmt: _Format) -> Records:
    """One block of whole lines (numbered from ``first``) as records, query after query as they come."""
    if b"\x00" in blob:
        line = first + blob.count(b"\n", 0, blob.index(b"\x00"))
        raise ValueError(f"{label} line {line}: holds a NUL byte; a TREC file is plain text")
    ascii_only = blob.isascii()
    if not ascii_only:
        try:
            blob.decode("utf-8")
        except UnicodeDecodeError as error:
            line = first + blob.count(b"\n", 0, error.start)
            raise ValueError(
                f"{label} line {line}: not UTF-8 text (byte {blob[error.start]:#04x}); save the file as UTF-8"
            ) from None
    raw = np.frombuffer(blob, dtype=np.uint8)
    # Tokens: where the white-space mask steps down (a token begins) and up (it ends).
    step = np.diff(np.concatenate(([1], _SPACE[raw], [1])).astype(np.int8))
    begins, ends = np.flatnonzero(step == -1), np.flatnonzero(step == 1)
    newlines = np.flatnonzero(raw == 10)
    line = np.searchsorted(newlines, begins)  # each token's line, 0-based in the block
    lead = np.ones(begins.size, dtype=bool)
    lead[1:] = line[1:] != line[:-1]  # the first token of its line
    comment = lead & (raw[begins] == 35)  # "#"
    if comment.any():
        keep = ~np.isin(line, line[comment])
        begins, ends, line, lead = begins[keep], ends[keep], line[keep], lead[keep]
    at = np.flatnonzero(lead)  # each record's first token
    count = np.diff(np.append(at, begins.size))
    bad = count != fmt.fields if fmt.exact else count < fmt.fields
    if bad.any():
        i = int(at[np.argmax(bad)])
        _fail(blob, newlines, line[i], first, label, fmt, found=int(count[np.argmax(bad)]))
    lines = first + line[at]
    value_at = at + fmt.value_field
    values = _numbers(blob, raw, begins[value_at], ends[value_at], fmt, label, lines)
    qid_begins, qid_ends = begins[at], ends[at]
    change = np.flatnonzero(~_same_as_previous(blob, raw, qid_begins, qid_ends))
    names = [
        blob[b:e].decode("utf-8") for b, e in zip(qid_begins[change].tolist(), qid_ends[change].tolist())
    ]
    tag = None
    if fmt.kind == "run" and at.size:
        tag = blob[begins[at[-1] + 5] : ends[at[-1] + 5]].decode("utf-8")
    return Records(
        names,
        np.diff(np.append(change, at.size)).astype(np.int64),
        _texts(blob, raw, begins[at + 2], ends[at + 2], ascii_only),
        values,
        lines,
        tag,
    )


def _fail(
    blob: bytes, newlines: np.ndarray, line: int, first: int, label: str, fmt: _Format, found: int
) -> None:
    start = int(newlines[line - 1]) + 1 if line else 0
    text = blob[start : int(newlines[line])].decode("utf-8").strip()
    extra = "" if fmt.exact else " (more are ignored)"
    raise ValueError(
        f"{label} line {first + line}: expected {fmt.fields} fields '{fmt.layout}'{extra}, "
        f"found {found}: {v.show(text)}"
    )


def _token_rows(raw: np.ndarray, begins: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """One token per row, zero-padded to the longest: a (tokens, longest) uint8 array."""
    lengths = ends - begins
    width = max(1, int(lengths.max())) if lengths.size else 1
    padded = np.concatenate((raw, np.zeros(width, dtype=np.uint8)))
    rows = np.lib.stride_tricks.sliding_window_view(padded, width)[begins]  # copied
    rows[np.arange(width) >= lengths[:, None]] = 0
    return rows


_LONG = 64  # tokens longer than this are handled one by one, to bound the padded arrays


def _same_as_previous(blob: bytes, raw: np.ndarray, begins: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Whether each token equals the one before it (False for the first)."""
    same = np.zeros(begins.size, dtype=bool)
    if begins.size < 2:
        return same
    if int((ends - begins).max()) <= _LONG:
        rows = _token_rows(raw, begins, ends)
        same[1:] = (rows[1:] == rows[:-1]).all(axis=1)
    else:
        tokens = [blob[b:e] for b, e in zip(begins.tolist(), ends.tolist())]
        same[1:] = [a == b for a, b in zip(tokens[1:], tokens[:-1])]
    return same


def _texts(blob: bytes, raw: np.ndarray, begins: np.ndarray, ends: np.ndarray, ascii_only: bool) -> list[str]:
    """The tokens as Python strings."""
    if not begins.size:
        return []
    if ascii_only and int((ends - begins).max()) <= _LONG:
        rows = _token_rows(raw, begins, ends)
        width = rows.shape[1]
        return rows.view(f"S{width}").ravel().astype(f"U{width}").tolist()  # no NUL: trailing-NUL safe
    return [blob[b:e].decode("utf-8") for b, e in zip(begins.tolist(), ends.tolist())]


def _numbers(
    blob: bytes,
    raw: np.ndarray,
    begins: np.ndarray,
    ends: np.ndarray,
    fmt: _Format,
    label: str,
    lines: np.ndarray,
) -> np.ndarray:
    """Each record's value token as a float; a token that is not a number of the format's kind is an error.

    The rule is ``fmt.number``. A token of sign, digits and at most one point
    with at most 15 digits is computed by array work: the digits as one
    integer, divided by a power of ten, is one correctly rounded division,
    the same double as ``float()``. Every other token is matched against the
    rule and converted by ``float()``.
    """
    values = np.zeros(begins.size)
    if not begins.size:
        return values
    lengths = ends - begins
    short = np.flatnonzero(lengths <= _FAST_DIGITS + 2)
    plain = np.zeros(begins.size, dtype=bool)
    if short.size:
        chars = _token_rows(raw, begins[short], ends[short])
        digit = (chars >= 48) & (chars <= 57)
        dot = chars == 46
        signed = (chars[:, 0] == 45) | (chars[:, 0] == 43)
        body = chars != 0
        body[:, 0] &= ~signed
        n_digits = digit.sum(axis=1)
        ok = (~body | digit | dot).all(axis=1) & (dot.sum(axis=1) <= 1) & (n_digits >= 1)
        mantissa = np.zeros(short.size, dtype=np.int64)
        for column in range(chars.shape[1]):
            mantissa = np.where(
                digit[:, column], mantissa * 10 + (chars[:, column].astype(np.int64) - 48), mantissa
            )
        decimals = (digit & (np.cumsum(dot, axis=1) > 0)).sum(axis=1)
        number = mantissa / _POWERS[decimals]
        values[short] = np.where(chars[:, 0] == 45, -number, number)
        plain[short] = ok & (n_digits <= _FAST_DIGITS)
    for i in np.flatnonzero(~plain).tolist():
        token = blob[int(begins[i]) : int(ends[i])]
        if not fmt.number.fullmatch(token):
            raise ValueError(
                f"{label} line {int(lines[i])}: the {fmt.what} must be a decimal number such as "
                f"{fmt.spelled}; got {token.decode('utf-8')!r}"
            )
        values[i] = float(token)
        if not math.isfinite(values[i]):
            raise ValueError(
                f"{label} line {int(lines[i])}: the {fmt.what} {token.decode('utf-8')!r} is too large "
                "for a floating-point number"
            )
    return values


# ---------------------------------------------------------------- dicts


def _flatten(nested: Mapping) -> tuple[list[str], list[str], np.ndarray] | None:
    """Query ids, every docno and every value of ``{qid: {docno: number}}``, in order.

    None when the fast route cannot vouch for the input: an id that is not
    text or holds a NUL, an inner value that is not a dict, a value that is
    not a finite number. The careful route then checks each entry and names
    the bad one.
    """
    try:
        qids = list(nested)
        inner = list(nested.values())
        docnos = list(chain.from_iterable(inner))
        text = "".join(qids) + "".join(docnos)  # every id is text (join refuses anything else)
        values = np.array(list(chain.from_iterable(map(dict.values, inner))))
    except (TypeError, ValueError):
        return None
    if "\x00" in text or values.ndim != 1 or values.dtype.kind not in "biuf" or values.size != len(docnos):
        return None
    values = values.astype(np.float64, copy=False)
    return (qids, docnos, values) if np.isfinite(values).all() else None


def _from_mapping(source: Mapping, fmt: _Format) -> Records:
    """``{qid: {docno: value}}`` as records; queries without any record are left out."""
    flat = _flatten(source)
    if flat is None:
        source = _checked_mapping(source, fmt)
        flat = _flatten(source)
        assert flat is not None, "a checked mapping flattens"
    qids, docnos, values = flat
    lengths = np.fromiter(map(len, source.values()), dtype=np.int64, count=len(qids))
    records = Records(qids, lengths, docnos, values, None)
    return records if lengths.all() else records.take(np.flatnonzero(lengths))


def _checked_mapping(source: Mapping, fmt: _Format) -> dict[str, dict[str, float]]:
    """The careful route: each id as text, each value as a float, the first bad entry named."""
    kind, what = fmt.kind, "grade" if fmt is QRELS else "score"
    checked: dict[str, dict[str, float]] = {}
    original: dict[str, Any] = {}
    for qid, documents in source.items():
        name = _id_text(qid, f"{kind} query id")
        if name in original:
            raise ValueError(
                f"{kind} has the queries {original[name]!r} and {qid!r}, which are the same id "
                f"{name!r} as text; merge them"
            )
        original[name] = qid
        if not isinstance(documents, Mapping):
            raise ValueError(f"{kind}[{qid!r}] must be a dict {{docno: {what}}}; got {v.show(documents)}")
        row: dict[str, float] = {}
        keys: dict[str, Any] = {}
        for docno, value in documents.items():
            text = _id_text(docno, f"{kind}[{qid!r}] document id")
            if text in keys:
                raise ValueError(
                    f"{kind}[{qid!r}] lists document {keys[text]!r} and {docno!r}, which are the "
                    f"same id {text!r} as text; each document may appear once per query"
                )
            keys[text] = docno
            row[text] = _finite(value, f"{kind}[{qid!r}][{docno!r}]", what)
        checked[name] = row
    return checked


def _id_text(value: Any, name: str) -> str:
    text = str(value)
    if "\x00" in text:
        raise ValueError(f"a {name} must not hold a NUL character; got {v.show(value)}")
    return text


def _finite(value: Any, name: str, what: str) -> float:
    number = isinstance(value, (numbers.Real, np.bool_)) and not isinstance(value, str)
    try:
        result = float(value) if number else math.nan
    except OverflowError:  # an int or Fraction beyond the float range
        result = math.inf
    if not math.isfinite(result):
        raise ValueError(f"{name} must be a finite number ({what}); got {v.show(value)}")
    return result


# ---------------------------------------------------------------- grouping and checks


def _concat(parts: Sequence[Records]) -> Records:
    parts = [p for p in parts if len(p)]
    if len(parts) == 1:
        return parts[0]
    if not parts:
        return Records.empty()
    lines = [p.lines for p in parts]
    return Records(
        [q for p in parts for q in p.qids],
        np.concatenate([p.lengths for p in parts]),
        list(chain.from_iterable(p.docnos for p in parts)),
        np.concatenate([p.values for p in parts]),
        None if any(x is None for x in lines) else np.concatenate(lines),
    )


def _join_adjacent(records: Records) -> Records:
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


def _grouped(parts: Sequence[Records]) -> Records:
    """All records, each query's together in the order first met; a query's records keep file order."""
    records = _join_adjacent(_concat(parts))
    names = records.qids
    if len(set(names)) == len(names):
        return records
    first: dict[str, int] = {}
    for i, name in enumerate(names):
        first.setdefault(name, i)
    order = sorted(range(len(names)), key=lambda i: first[names[i]])  # stable: file order kept
    return _join_adjacent(records.take(order))


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


def _check_unique(records: Records, label: str) -> None:
    """Each document at most once per query; else an error naming both lines (the first such pair).

    Each query's docno hashes are sorted row by row in one array operation;
    only a query with two equal hashes is then looked at document by document.
    """
    if not records.docnos:
        return
    hashes = np.fromiter(map(hash, records.docnos), dtype=np.int64, count=len(records.docnos))
    longest = int(records.lengths.max())
    rows = np.sort(padded_rows(hashes, records.lengths, longest, np.iinfo(np.int64).max), axis=1)
    inside = np.arange(1, longest) < records.lengths[:, None]
    suspects = np.flatnonzero(((rows[:, 1:] == rows[:, :-1]) & inside).any(axis=1))
    lines = records.lines if records.lines is not None else np.zeros(len(records.docnos), dtype=np.int64)
    pairs = []  # (earlier, later) positions of the same docno in one query
    for query in suspects.tolist():
        first: dict[str, int] = {}
        for at in records.positions([query]).tolist():
            earlier = first.setdefault(records.docnos[at], at)
            if earlier != at:
                pairs.append((query, earlier, at))
    if not pairs:
        return  # equal hashes of different docnos
    query, earlier, later = min(pairs, key=lambda pair: lines[pair[2]])
    raise ValueError(
        f"{label} line {int(lines[later])}: document {records.docnos[later]!r} of query "
        f"{records.qids[query]!r} already appears on line {int(lines[earlier])}; each document may "
        "appear once per query"
    )


def _whole_grades(records: Records, label: str | None, policy: str) -> Records:
    """Apply the ``fractional_grades`` policy to the judgements."""
    fractional = records.values != np.trunc(records.values)
    if policy == "keep" or not fractional.any():
        return records
    if policy == "truncate":
        return Records(records.qids, records.lengths, records.docnos, np.trunc(records.values), records.lines)
    i = int(np.argmax(fractional))
    grade = float(records.values[i])
    if records.lines is not None:
        where = f"{label} line {int(records.lines[i])}: the relevance {grade!r}"
    else:
        qid = records.qids[int(np.searchsorted(np.cumsum(records.lengths), i, side="right"))]
        where = f"qrels[{qid!r}][{records.docnos[i]!r}] = {grade!r}"
    raise ValueError(
        f"{where} is not a whole grade (trec_eval would silently read it as {math.trunc(grade)}). "
        "Pass fractional_grades='truncate' to read grades as trec_eval does, or "
        "fractional_grades='keep' to use fractional grades as they are"
    )


def _nest(records: Records, *, grades: bool) -> dict[str, dict[str, Any]]:
    values = records.values
    whole = grades and bool(((values == np.trunc(values)) & (np.abs(values) < 2**53)).all())
    if whole:  # whole grades as int, in one conversion
        values = values.astype(np.int64).tolist()
    elif grades:
        values = [int(x) if x.is_integer() else x for x in values.tolist()]
    else:
        values = values.tolist()
    nested: dict[str, dict[str, Any]] = {}
    end = 0
    for qid, length in zip(records.qids, records.lengths.tolist()):
        start, end = end, end + length
        nested[qid] = dict(zip(records.docnos[start:end], values[start:end]))
    return nested
