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
Python lists; document ids stay bytes with a 64-bit key each
(:mod:`rankmetrics.trec.io.texts`), matched and checked by array work, and
become Python strings only when read (:func:`read_run`'s dicts, messages). The
reader is built in layers, each in its own module:

- :mod:`rankmetrics.trec.io.blocks`: bytes to blocks of whole lines (gzip,
  byte-order mark, line ends);
- :mod:`rankmetrics.trec.io.tokens`: lines to tokens, and tokens to numbers;
- :mod:`rankmetrics.trec.io.texts`: document ids as bytes in one buffer, a
  key each, strings when asked for;
- this module: the formats, declared as data (``QRELS``, ``RUN``: which
  field is the query, the document, the value and the tag, and the
  :class:`LineRules`: which lines are skipped, how lines are counted), the
  public readers, and the dict route. trec_eval 10.0's own line rules and
  messages, for ``rankmetrics trec_eval``, are in
  :mod:`rankmetrics.trec.dropin_files`;
- :mod:`rankmetrics.trec.records`: the records of many queries as flat
  arrays, grouped, checked for repeated documents, and cut into chunks.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _validation as v
from ..i18n import N_, _
from .io import tokens
from .io.blocks import text_blocks
from .io.texts import Texts
from .io.tokens import Number
from .mappings import flatten, from_flat, from_mapping
from .ranking import Judgements
from .records import Records, check_unique, chunked, grouped

FRACTIONAL_GRADES = ("error", "truncate", "keep")

BLOCK_BYTES = 1_000_000  # bytes read at a time (about 25,000 run lines; its arrays stay in the caches)


@dataclass(frozen=True)
class LineRules:
    """How a program reads a format's lines, as data: which it skips, how it counts, what it says.

    The package's rules (:data:`PACKAGE_LINES`) skip blank lines and ``#``
    comments, number the lines as an editor does and refuse a document listed
    twice. trec_eval 10.0's, with its messages and exit codes, are in
    :mod:`rankmetrics.trec.dropin_files`; ``{path}`` is the file as named on
    the command line, ``{line}`` the line number as the rules count it.
    """

    comments: str  # "first_token" or "column0_once" (see rankmetrics.trec.io.tokens.split)
    blank_lines: str  # "skip" or "malformed"
    line_numbers: str  # "physical" (every line) or "parsed" (the lines not skipped, as trec_eval counts)
    duplicates: str  # "refuse" (while reading) or "report" (per query, for the evaluation to stop on)
    cannot_read: str = ""  # a file that is missing, unreadable or empty
    malformed: str = ""  # a line with the wrong number of fields (or blank, with "malformed")
    last_line_comment: str = ""  # a comment to skip on the last line: refused (trec_eval reads past the end)
    duplicate: str = ""  # "{docno}", "{measure}": a query's first duplicated docno (strcmp order)
    missing_query: str = ""  # "{qid}": a judged query the run lacks, without -c
    no_judgement: str = ""  # "{measure}": the first query evaluated has no grade >= 0 (none judged)
    read_exit: int = 2  # trec_eval's exit code for cannot_read, malformed (and the package's refusals)
    evaluate_exit: int = 4  # for duplicate and missing_query


PACKAGE_LINES = LineRules(
    comments="first_token", blank_lines="skip", line_numbers="physical", duplicates="refuse"
)


@dataclass(frozen=True)
class Format:
    """A file format as data: its fields, which of them the reader keeps, and how messages name them.

    Field positions count from 0 on each line. A line must have at least
    ``min_fields`` fields and at most ``max_fields`` (None: any more are
    ignored, as trec_eval ignores text after a run's sixth field).
    """

    kind: str  # "qrels" or "run", in messages
    layout: str  # the fields' names, in messages
    min_fields: int
    max_fields: int | None
    qid_field: int
    docno_field: int
    value_field: int  # the grade (qrels) or the score (run)
    tag_field: int | None  # the run's tag, which trec_eval prints as the runid; None: no tag
    value: Number  # what the value field accepts
    dict_value: str  # the value's name in messages about a dict
    lines: LineRules = PACKAGE_LINES

    def __post_init__(self) -> None:
        used = (self.qid_field, self.docno_field, self.value_field, self.tag_field)
        if max(f for f in used if f is not None) >= self.min_fields:
            raise ValueError(
                _("the {kind} format reads a field beyond its {min_fields} fields").format(
                    kind=self.kind, min_fields=self.min_fields
                )
            )
        if self.max_fields is not None and self.max_fields < self.min_fields:
            raise ValueError(_("the {kind} format has max_fields below min_fields").format(kind=self.kind))


# trec_eval's get_qrels.c: exactly four fields; a grade is read by atol(), so this reader
# accepts only a decimal without an exponent (and refuses a fractional one unless asked).
QRELS = Format(
    kind="qrels",
    layout="qid iteration docno relevance",
    min_fields=4,
    max_fields=4,
    qid_field=0,
    docno_field=2,
    value_field=3,
    tag_field=None,
    value=Number(N_("relevance"), re.compile(tokens.DECIMAL.encode()), N_("2, 0 or -1"), b"+-0123456789."),
    dict_value=N_("grade"),
)
# trec_eval's get_trec_results.c: six fields, text after them ignored; the rank field is
# ignored too (only the score orders the documents).
RUN = Format(
    kind="run",
    layout="qid Q0 docno rank score tag",
    min_fields=6,
    max_fields=None,
    qid_field=0,
    docno_field=2,
    value_field=4,
    tag_field=5,
    value=Number(N_("score"), re.compile(tokens.DECIMAL_E.encode()), N_("12.5, -3 or 1.5e-3")),
    dict_value=N_("score"),
)


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
    return nest(qrels_records(source, fractional_grades), grades=True)


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
    return nest(records or Records.empty(), grades=False)


# ---------------------------------------------------------------- what evaluate reads


def qrels_records(source: Any, fractional_grades: str = "error") -> Records:
    """Every judgement, grouped by query, checked: what :func:`read_qrels` nests."""
    return _qrels(source, fractional_grades)[0]


def _qrels(source: Any, fractional_grades: str) -> tuple[Records, Mapping | None]:
    """The judgements' records, and the dict itself when it holds just those (text ids, grades as read)."""
    policy = v.check_choice(fractional_grades, "fractional_grades", FRACTIONAL_GRADES)
    if isinstance(source, Mapping):
        flat = flatten(source)
        records = from_mapping(source, QRELS) if flat is None else from_flat(source, flat)
        checked = whole_grades(records, None, policy)
        return checked, source if flat is not None and checked is records else None
    label, blocks = text_blocks(source, QRELS.kind, BLOCK_BYTES)
    records = grouped([parse(blob, first, label, QRELS) for blob, first in blocks])
    check_unique(records, label)
    return whole_grades(records, label, policy), None


def judged(source: Any, fractional_grades: str = "error") -> Judgements:
    """Judgements for :func:`rankmetrics.trec.ranking.rank` to find each retrieved document's grade in.

    The qrels' records as the reader makes them (a file's document ids as
    bytes with a key each, not strings), and a dict that holds just those
    judgements as it is; queries without any judgement are left out.
    """
    return Judgements(*_qrels(source, fractional_grades))


def judgements(source: Any, fractional_grades: str = "error") -> dict[str, dict[str, int | float]]:
    """Judgements as ``{qid: {docno: grade}}``, for looking grades up by document.

    A dict that already has that shape, with text ids and whole-number grades,
    is used as it is (checked, not copied). Queries without any judgement are
    left out.
    """
    policy = v.check_choice(fractional_grades, "fractional_grades", FRACTIONAL_GRADES)
    flat = flatten(source) if isinstance(source, Mapping) else None
    if flat is not None and (policy == "keep" or (flat[2] == np.trunc(flat[2])).all()):
        return source if all(source.values()) else {q: d for q, d in source.items() if d}
    return nest(qrels_records(source, fractional_grades), grades=True)


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
        yield from from_mapping(source, RUN).chunks(chunk_queries)
        return
    label, blocks = text_blocks(source, RUN.kind, BLOCK_BYTES)
    parts = _noting_tags((parse(blob, first, label, RUN) for blob, first in blocks), noted)
    if chunk_queries is None:
        records = grouped(list(parts))
        check_unique(records, label)
        yield records
        return
    yield from chunked(parts, chunk_queries, label)


def _noting_tags(parts: Iterator[Records], noted: dict | None) -> Iterator[Records]:
    for part in parts:
        if noted is not None and part.last_tag is not None:
            noted["tag"] = part.last_tag
        yield part


def parse(blob: bytes, first: int, label: str, fmt: Format, state: Any = None) -> Records:
    """One block of whole lines (numbered from ``first``) as records, query after query as they come.

    ``state``: the block is read by a program's line rules (``fmt.lines``), which
    stop with that program's message: a
    :class:`rankmetrics.trec.dropin_files.LineState` (see
    :func:`rankmetrics.trec.dropin_files.read_as`).
    """
    carry = state is not None and state.last_skipped
    block = tokens.split(blob, first, label, fmt.lines.comments, carry)
    at = block.starts  # each record's first token
    count = block.counts
    bad = count < fmt.min_fields
    if fmt.max_fields is not None:
        bad |= count > fmt.max_fields
    if state is not None:
        state.follow(block, block.rows[bad], first, fmt.lines)
    elif bad.any():
        wrong = int(np.argmax(bad))
        line = int(block.rows[wrong])
        _fail(block.line_text(line), first + line, label, fmt, found=int(count[wrong]))
    lines = first + block.rows
    values = block.numbers(at + fmt.value_field, fmt.value, label, lines)
    qid_at = at + fmt.qid_field
    change = np.flatnonzero(~block.same_as_previous(qid_at))
    tag = None
    if fmt.tag_field is not None and at.size:
        tag = block.text(int(at[-1]) + fmt.tag_field)
    return Records(
        block.texts(qid_at[change]),
        np.diff(np.append(change, at.size)).astype(np.int64),
        block.ids(at + fmt.docno_field),
        values,
        lines,
        tag,
    )


def _fail(text: str, line: int, label: str, fmt: Format, found: int) -> None:
    if fmt.max_fields == fmt.min_fields:
        message = _("{label} line {line}: expected {expected} fields '{layout}', found {found}: {text}")
    elif fmt.max_fields is None:
        message = _(
            "{label} line {line}: expected {expected} fields '{layout}' (more are ignored), found {found}: {text}"
        )
    else:
        message = _(
            "{label} line {line}: expected {expected} to {most} fields '{layout}', found {found}: {text}"
        )
    raise ValueError(
        message.format(
            label=label,
            line=line,
            expected=fmt.min_fields,
            most=fmt.max_fields,
            layout=fmt.layout,
            found=found,
            text=v.show(text),
        )
    )


def grades_by_policy(values: np.ndarray, policy: str) -> tuple[np.ndarray, int | None]:
    """The ``fractional_grades`` policy, its one home: the grades to use, and the first
    fractional grade's position when the policy (``"error"``) refuses it, else None."""
    fractional = values != np.trunc(values)
    if policy == "keep" or not fractional.any():
        return values, None
    if policy == "truncate":
        return np.trunc(values), None
    return values, int(np.argmax(fractional))


def not_a_whole_grade(where: str, grade: float, hint: bool = True) -> ValueError:
    """The refusal of a fractional grade; ``where`` names it (a file line, dict keys, a DataFrame row)."""
    advice = _(
        ". Pass fractional_grades='truncate' to read grades as trec_eval does, or "
        "fractional_grades='keep' to use fractional grades as they are"
    )
    return ValueError(
        _("{where} is not a whole grade (trec_eval would silently read it as {trunc})").format(
            where=where, trunc=math.trunc(grade)
        )
        + (advice if hint else "")
    )


def whole_grades(records: Records, label: str | None, policy: str, hint: bool = True) -> Records:
    """Apply the ``fractional_grades`` policy to the judgements of a file or a dict."""
    values, i = grades_by_policy(records.values, policy)
    if i is None:
        if values is records.values:
            return records
        return Records(records.qids, records.lengths, records.docnos, values, records.lines)
    grade = float(values[i])
    if records.lines is not None:
        where = _("{label} line {line}: the relevance {grade!r}").format(
            label=label, line=int(records.lines[i]), grade=grade
        )
    else:
        qid = records.qids[int(np.searchsorted(np.cumsum(records.lengths), i, side="right"))]
        where = f"qrels[{qid!r}][{records.docnos[i]!r}] = {grade!r}"  # names and values only
    raise not_a_whole_grade(where, grade, hint)


def nest(records: Records, *, grades: bool) -> dict[str, dict[str, Any]]:
    values = records.values
    whole = grades and bool(((values == np.trunc(values)) & (np.abs(values) < 2**53)).all())
    if whole:  # whole grades as int, in one conversion
        values = values.astype(np.int64).tolist()
    elif grades:
        values = [int(x) if x.is_integer() else x for x in values.tolist()]
    else:
        values = values.tolist()
    docnos = records.docnos.tolist() if isinstance(records.docnos, Texts) else records.docnos
    # Each query's dict from slices of the two lists: dict(zip()) of two lists is the quickest
    # way to build a dict in CPython (faster than taking the pairs off one shared iterator).
    ends = np.cumsum(records.lengths).tolist()
    return {
        qid: dict(zip(docnos[start:end], values[start:end]))
        for qid, start, end in zip(records.qids, [0, *ends[:-1]], ends)
    }
