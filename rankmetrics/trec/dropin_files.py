"""trec_eval 10.0's line rules, for ``rankmetrics trec_eval`` (:mod:`rankmetrics.trec.dropin`).

The drop-in reads qrels and run files through the package's reader
(:func:`rankmetrics.trec.files.parse`: the same fields and the same number
rules), but which lines it skips, how it counts them, where it stops and what
it prints there are trec_eval 10.0's, quirks included, with its exact stderr
texts and exit codes. They are kept here, apart from the public readers
(:func:`rankmetrics.read_qrels`, :func:`rankmetrics.read_run`), which follow
the package's own rules (:data:`rankmetrics.trec.files.PACKAGE_LINES`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from . import files
from .files import QRELS, RUN, Format, LineRules, parse, whole_grades
from .io import tokens
from .io.blocks import text_blocks
from .records import Records, check_unique, duplicate_pairs, grouped


class LinesStop(ValueError):
    """A file that a program's :class:`LineRules` stop on: the message as that program prints it."""

    def __init__(self, message: str, exit_code: int):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


# trec_eval 10.0's reading of the same two formats (get_qrels.c, get_trec_results.c,
# form_res_rels.c, trec_eval.c), for `rankmetrics trec_eval`: the same fields and numbers (the
# package's number rules: trec_eval's atol/atof would read "1x" as 1 and "abc" as 0, and these
# are refused), with its line rules and messages. In a qrels file only a '#' in column 0 starts
# a comment, and of two such lines in a row the second is a judgement (query '#'); a blank line
# is malformed; lines are counted as trec_eval counts them, skipped ones left out.
QRELS_TREC_EVAL_10 = replace(
    QRELS,
    lines=LineRules(
        comments="column0_once",
        blank_lines="malformed",
        line_numbers="parsed",
        duplicates="report",
        cannot_read="trec_eval.get_qrels: Cannot read qrels file '{path}'\ntrec_eval: Quit in file '{path}'\n",
        malformed="trec_eval.get_qrels: Malformed line {line}\ntrec_eval: Quit in file '{path}'\n",
        last_line_comment=(
            "trec_eval (rankmetrics): {path} line {line}: a comment on the last line of a qrels file "
            "makes trec_eval 10.0 read past the end of the file (it crashes); remove the line\n"
        ),
        duplicate="trec_eval.form_res_rels: duplicate docs {docno}\ntrec_eval: Can't calculate measure '{measure}'\n",
        # form_res_rels.c fails when the first query it forms has no grade >= 0, -c or not
        no_judgement="trec_eval: Can't calculate measure '{measure}'\n",
    ),
)
RUN_TREC_EVAL_10 = replace(
    RUN,
    lines=LineRules(
        comments="first_token",
        blank_lines="skip",
        line_numbers="parsed",
        duplicates="report",
        cannot_read="trec_eval.get_results: Cannot read results file '{path}'\ntrec_eval: Quit in file '{path}'\n",
        malformed="trec_eval.get_results: Malformed line {line}\ntrec_eval: Quit in file '{path}'\n",
        # sic: no line end after the docno
        duplicate="trec_eval.form_res_qrels: duplicate docs {docno}trec_eval: Can't calculate measure '{measure}'\n",
        missing_query="trec_eval: result qid '{qid}' not found in qrels\n",  # sic
    ),
)


@dataclass
class LineState:
    """What reading a block by a program's line rules needs from the blocks before it."""

    path: str  # the file as the command line named it, for the program's messages
    skipped: int = 0  # lines not counted so far (comments; blank lines where they are skipped)
    last_skipped: bool = False  # the last line so far was a skipped comment
    last_line: int = 0

    def follow(self, block: tokens.Tokens, bad_lines: np.ndarray, first: int, rules: LineRules) -> None:
        """Stop where the rules stop: the first malformed line, by the rules' count; keep the count going."""
        n_lines = block.line_ends.size
        # Masks over the block's lines (np.union1d and np.setdiff1d would import numpy.ma: slow to start).
        comment = np.zeros(n_lines, dtype=bool)
        if block.skipped is not None:
            comment[block.skipped] = True
        blank = np.ones(n_lines, dtype=bool)
        blank[block.rows] = False
        blank &= ~comment
        bad = np.zeros(n_lines, dtype=bool)
        bad[bad_lines] = True
        if rules.blank_lines == "malformed":
            bad |= blank
            uncounted = comment
        else:
            uncounted = comment | blank
        if bad.any():
            line = int(np.argmax(bad))
            counted = first + line - (self.skipped + int(np.count_nonzero(uncounted[:line])))
            shown = counted if rules.line_numbers == "parsed" else first + line
            raise LinesStop(rules.malformed.format(line=shown, path=self.path), rules.read_exit)
        self.skipped += int(np.count_nonzero(uncounted))
        self.last_skipped = bool(n_lines and comment[-1])
        self.last_line = first + n_lines - 1


@dataclass(frozen=True)
class ProgramRead:
    """A file read by a program's line rules (:func:`read_as`)."""

    records: Records  # grouped by query, in the order first met; a duplicated docno kept twice
    duplicates: dict[str, str] = field(default_factory=dict)  # qid: its first duplicated docno
    tag: str | None = None  # the last line's tag (a run's runid)


def read_as(source: Any, fmt: Format, path: str, progress: Any = None) -> ProgramRead:
    r"""Read a qrels or run file by ``fmt``'s line rules, e.g. :data:`QRELS_TREC_EVAL_10`.

    The numbers follow the package's rules (a score such as ``abc`` or
    ``0x10``, a grade such as ``1x`` or ``0.5``: a ValueError naming the file
    and line); which lines are skipped, how they are counted and where the
    program stops follow ``fmt.lines``: a :class:`LinesStop` with the
    program's own message and exit code. ``path`` is the file's name as the
    command line gave it (``source`` may be an open file, e.g. standard input).
    ``progress``, when given, is called with the byte count of each block read.

    Examples
    --------
    >>> import io
    >>> read = read_as(io.StringIO("# one comment\nq1 0 d1 1\nq1 0 d1 0\n"), QRELS_TREC_EVAL_10, "x")
    >>> read.records.qids, read.records.docnos, read.duplicates
    (['q1'], ['d1', 'd1'], {'q1': 'd1'})
    >>> try:
    ...     read_as(io.StringIO("q1 0 d1 1\n\nq1 0 d2 0\n"), QRELS_TREC_EVAL_10, "x")
    ... except LinesStop as stop:
    ...     print(stop.exit_code, stop.message, end="")
    2 trec_eval.get_qrels: Malformed line 2
    trec_eval: Quit in file 'x'
    """
    rules = fmt.lines
    cannot = LinesStop(rules.cannot_read.format(path=path), rules.read_exit)
    if isinstance(source, (str, os.PathLike)):
        name = os.fsdecode(source)
        if not os.path.isfile(name) or not os.access(name, os.R_OK) or not os.path.getsize(name):
            raise cannot
    label, blocks = text_blocks(source, fmt.kind, files.BLOCK_BYTES)
    state = LineState(path)
    parts = []
    read = 0
    for blob, first in blocks:
        read += len(blob)
        parts.append(parse(blob, first, label, fmt, state))
        if progress is not None:
            progress(len(blob))
    if not read:
        raise cannot
    if state.last_skipped and rules.last_line_comment:
        raise LinesStop(rules.last_line_comment.format(path=path, line=state.last_line), rules.read_exit)
    tag = next((p.last_tag for p in reversed(parts) if p.last_tag is not None), None)
    records = grouped(parts)
    if fmt.kind == "qrels":
        whole_grades(records, label, "error", hint=False)
    if rules.duplicates == "refuse":
        check_unique(records, label)
        return ProgramRead(records, {}, tag)
    return ProgramRead(records, first_duplicates(records), tag)


def first_duplicates(records: Records) -> dict[str, str]:
    """Each query's first docno (in strcmp order, as trec_eval sorts) listed more than once."""
    twice: dict[int, set[str]] = {}
    for query, _earlier, later in duplicate_pairs(records):
        twice.setdefault(query, set()).add(records.docnos[later])
    return {
        records.qids[q]: min(docnos, key=lambda d: d.encode("utf-8")) for q, docnos in sorted(twice.items())
    }
