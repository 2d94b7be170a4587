"""Lines to tokens: a block of whole lines split into white-space separated tokens by array work.

:func:`split` finds every token of a block at once (where C's ``isspace()``
mask steps down and up) and the first token of each line, so that ten million
lines never make ten million Python lists. A :class:`Tokens` then gives the
tokens at chosen positions as text (:meth:`Tokens.texts`), as numbers
(:meth:`Tokens.numbers`), or compared with their neighbours
(:meth:`Tokens.same_as_previous`). Which token is which field is the file
format's business (:mod:`rankmetrics.trec.files`), not this module's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ...i18n import _
from .texts import LONG, PAD, Texts, compact, decode
from .texts import words as _words

# The decimal spellings, one home: a whole number; a decimal without an exponent (a grade, as
# trec_eval's atol would read it only in part); a decimal with one (a score).
WHOLE = r"[+-]?[0-9]+"
DECIMAL = r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)"
DECIMAL_E = DECIMAL + r"(?:[eE][+-]?[0-9]+)?"


@dataclass(frozen=True)
class Number:
    """What a numeric field accepts, and how its messages name it."""

    what: str  # the value's name in messages (a message id: shown as _(what))
    pattern: re.Pattern[bytes]  # the spellings accepted
    spelled: str  # examples of a good value, for messages
    chars: bytes = (
        b"+-0123456789.eE"  # the pattern's characters: of those, float() reads just what it matches
    )


@dataclass(frozen=True)
class Tokens:
    """A block's tokens, and the lines that hold any (comment lines left out).

    Token ``i`` is ``blob[begins[i]:ends[i]]``. Record ``r`` is the block's
    line ``rows[r]`` (0-based); its ``counts[r]`` tokens begin at token
    ``starts[r]``. A blank line and a comment line are no record.
    """

    blob: bytes
    raw: np.ndarray  # the block as uint8, followed by PAD zero bytes
    begins: np.ndarray
    ends: np.ndarray
    line_ends: np.ndarray  # where each of the block's lines ends (its "\n", or the block's end)
    rows: np.ndarray
    starts: np.ndarray
    counts: np.ndarray
    skipped: np.ndarray | None = None  # the block's comment lines that were left out (0-based)

    def line_text(self, line: int) -> str:
        """The block's ``line`` (0-based), without its surrounding white space."""
        start = int(self.line_ends[line - 1]) + 1 if line else 0
        return self.blob[start : int(self.line_ends[line])].decode("utf-8").strip()

    def text(self, at: int) -> str:
        return self.blob[self.begins[at] : self.ends[at]].decode("utf-8")

    def texts(self, at: np.ndarray) -> list[str]:
        """The tokens at the given positions as Python strings."""
        return decode(self.raw, self.begins[at], self.ends[at])

    def ids(self, at: np.ndarray) -> Texts:
        """The tokens at the given positions as :class:`~rankmetrics.trec.io.texts.Texts` (no strings made), in a buffer of their own."""
        return compact(self.raw, self.begins[at], self.ends[at])

    def same_as_previous(self, at: np.ndarray) -> np.ndarray:
        """Whether each token at the given positions equals the one before it (False for the first)."""
        return _same_as_previous(self.blob, self.raw, self.begins[at], self.ends[at])

    def numbers(self, at: np.ndarray, rule: Number, label: str, lines: np.ndarray) -> np.ndarray:
        """The tokens at the given positions as floats; a token ``rule`` refuses is an error naming its line."""
        return _numbers(self.blob, self.raw, self.begins[at], self.ends[at], rule, label, lines)


def split(blob: bytes, first: int, label: str, comments: str = "first_token", carry: bool = False) -> Tokens:
    """One block of lines (numbered from ``first``) as tokens and records.

    A NUL byte and text that is not UTF-8 are errors naming the line. Comment
    lines are left out, by one of two rules:

    - ``"first_token"``: every line whose first non-blank character is ``#``
      (trec_eval 10.0's runs, and the package's rule for both files);
    - ``"column0_once"``: trec_eval 10.0's qrels (``get_qrels.c``): a ``#``
      in the line's first column only, and never two lines in a row: of
      consecutive such lines the 1st, 3rd, ... are skipped, the 2nd, 4th, ...
      read as data. ``carry`` says that the line before the block was skipped.

    Every step is one array operation over the block's bytes or over its
    tokens: where the white-space mask changes (a token begins or ends),
    where the lines end, and, by one ``searchsorted`` of the line ends among
    the token beginnings, each line's first token and its number of tokens.
    No array is made per token of a line: the fields are picked by position
    from each record's first token.
    """
    if b"\x00" in blob:
        line = first + blob.count(b"\n", 0, blob.index(b"\x00"))
        raise ValueError(
            _("{label} line {line}: holds a NUL byte; a TREC file is plain text").format(
                label=label, line=line
            )
        )
    if not blob.isascii():
        try:
            blob.decode("utf-8")
        except UnicodeDecodeError as error:
            line = first + blob.count(b"\n", 0, error.start)
            raise ValueError(
                _("{label} line {line}: not UTF-8 text (byte {blob:#04x}); save the file as UTF-8").format(
                    label=label, line=line, blob=blob[error.start]
                )
            ) from None
    size = len(blob)
    raw = np.empty(size + PAD, dtype=np.uint8)  # not np.zeros: fresh zeroed pages cost more than the copy
    raw[:size] = np.frombuffer(blob, dtype=np.uint8)
    raw[size:] = 0
    data = raw[:size]
    # What C's isspace() and bytes.split() split on: tab, newline, vertical tab, form feed, CR
    # (9 to 13) and space. In uint8, data - 9 wraps around below 9, so one comparison finds 9 to 13.
    bounded = np.empty(size + 2, dtype=bool)  # white space, with white space before and after the block
    bounded[0] = bounded[-1] = True
    np.less(data - np.uint8(9), 5, out=bounded[1:-1])
    bounded[1:-1] |= data == 32
    change = np.flatnonzero(bounded[1:] != bounded[:-1])  # a token begins, then ends, alternately
    begins, ends = change[0::2], change[1::2]
    line_ends = np.flatnonzero(data == 10)
    if not size or blob[-1:] != b"\n":
        line_ends = np.append(line_ends, size)
    firsts = np.zeros(line_ends.size + 1, dtype=np.int64)  # each line's first token; then the count
    firsts[1:-1] = _tokens_before(begins, line_ends[:-1])
    firsts[-1] = begins.size
    counts = np.diff(firsts)
    rows = np.flatnonzero(counts)
    starts = firsts[rows]
    if comments == "column0_once":
        skipped = _every_other(_column0_comments(data, line_ends), carry)
    else:
        skipped = rows[data[begins[starts]] == 35]  # "#"
    if skipped.size:
        dropped = np.zeros(line_ends.size, dtype=bool)
        dropped[skipped] = True
        keep = ~dropped[rows]
        rows, starts = rows[keep], starts[keep]
    return Tokens(blob, raw, begins, ends, line_ends, rows, starts, counts[rows], skipped)


def _tokens_before(begins: np.ndarray, line_ends: np.ndarray) -> np.ndarray:
    """How many tokens begin before each line end: the next line's first token.

    One ``searchsorted``; but when every line may hold the same number ``k``
    of tokens (the token count is ``k`` times the line count), two
    comparisons settle it: each line end lies between token ``k*i - 1`` and
    token ``k*i``. A file of uniform lines, the common case, needs no search.
    """
    n_lines = line_ends.size + 1
    per_line = begins.size // n_lines
    if (
        per_line
        and per_line * n_lines == begins.size
        and (begins[per_line - 1 :: per_line][:-1] < line_ends).all()  # line i's last token before its end
        and (begins[per_line::per_line] > line_ends).all()  # line i+1's first token after it
    ):
        return np.arange(per_line, begins.size, per_line)
    return np.searchsorted(begins, line_ends)


def _column0_comments(data: np.ndarray, line_ends: np.ndarray) -> np.ndarray:
    """The lines (0-based) whose first byte is ``#``."""
    line_starts = np.concatenate(([0], line_ends[:-1] + 1)) if line_ends.size else np.zeros(0, np.int64)
    inside = line_starts < data.size
    found = np.zeros(line_starts.size, dtype=bool)
    found[inside] = data[line_starts[inside]] == 35
    return np.flatnonzero(found)


def _every_other(lines: np.ndarray, carry: bool) -> np.ndarray:
    """Of each stretch of consecutive lines, the 1st, 3rd, ...: the ones a skip-one-comment loop skips."""
    if not lines.size:
        return lines
    new_stretch = np.ones(lines.size, dtype=bool)
    new_stretch[1:] = np.diff(lines) != 1
    stretch_start = np.maximum.accumulate(np.where(new_stretch, np.arange(lines.size), 0))
    position = np.arange(lines.size) - stretch_start
    if carry and lines[0] == 0:  # the block's first stretch goes on from a skipped line
        position[stretch_start == 0] += 1
    return lines[position % 2 == 0]


def _same_as_previous(blob: bytes, raw: np.ndarray, begins: np.ndarray, ends: np.ndarray) -> np.ndarray:
    same = np.zeros(begins.size, dtype=bool)
    if begins.size < 2:
        return same
    lengths = ends - begins
    if int(lengths.max()) <= LONG:
        words = _words(raw, begins, lengths, int(lengths.max()))
        same[1:] = words[1:, 0] == words[:-1, 0]
        for j in range(1, words.shape[1]):
            same[1:] &= words[1:, j] == words[:-1, j]
    else:
        tokens = [blob[b:e] for b, e in zip(begins.tolist(), ends.tolist())]
        same[1:] = [a == b for a, b in zip(tokens[1:], tokens[:-1])]
    return same


def _numbers(
    blob: bytes,
    raw: np.ndarray,
    begins: np.ndarray,
    ends: np.ndarray,
    rule: Number,
    label: str,
    lines: np.ndarray,
) -> np.ndarray:
    """Each token as a float, by numpy's own conversion; a token ``rule.pattern`` does not match is an error.

    The tokens are cut out as one fixed-width bytes array and converted by
    ``astype(np.float64)`` (the same double as ``float()``). numpy would also
    read ``nan``, ``inf`` or ``1_000``; a token with a character outside
    ``rule.chars`` is refused first, and of the rest numpy reads exactly those
    the pattern matches (tests/package/test_trec_io.py checks every short one).
    """
    if not begins.size:
        return np.zeros(0)
    lengths = ends - begins
    width = max(int(lengths.max()), 1)
    values = None
    if width <= LONG:  # else one (rows x width) array could be large: token by token below
        inside = np.arange(width) < lengths[:, None]
        chars = raw.take(begins[:, None] + np.arange(width), mode="clip")  # uint8, a row per token
        chars[~inside] = 0  # numpy's bytes dtype ends a token at its first zero byte
        allowed = np.zeros(256, dtype=bool)
        allowed[np.frombuffer(rule.chars, dtype=np.uint8)] = True
        allowed[0] = True  # the padding after a short token
        if allowed[chars].all():
            try:
                values = chars.view(f"S{width}").ravel().astype(np.float64)
            except ValueError:  # e.g. "1-2" or "."
                values = None
    if values is None:  # token by token: the first refused names its line
        values = np.empty(begins.size)
        for i, (b, e) in enumerate(zip(begins.tolist(), ends.tolist())):
            token = blob[b:e]
            if not rule.pattern.fullmatch(token):
                raise ValueError(
                    _(
                        "{label} line {lines}: the {what} must be a decimal number such as {spelled}; got {token!r}"
                    ).format(
                        label=label,
                        lines=int(lines[i]),
                        what=_(rule.what),
                        spelled=_(rule.spelled),
                        token=token.decode("utf-8"),
                    )
                )
            values[i] = float(token)
    infinite = ~np.isfinite(values)
    if infinite.any():
        i = int(np.argmax(infinite))
        token = blob[int(begins[i]) : int(ends[i])]
        raise ValueError(
            _("{label} line {lines}: the {what} {token!r} is too large for a floating-point number").format(
                label=label, lines=int(lines[i]), what=_(rule.what), token=token.decode("utf-8")
            )
        )
    return values
