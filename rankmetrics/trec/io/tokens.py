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

import math
import re
from dataclasses import dataclass

import numpy as np

# What C's isspace() and bytes.split() split on: tab, newline, vertical tab, form feed, CR, space.
_SPACE = np.zeros(256, dtype=bool)
_SPACE[[9, 10, 11, 12, 13, 32]] = True

_FAST_DIGITS = 15  # a plain decimal of at most 15 digits is parsed exactly by array work
_POWERS = 10.0 ** np.arange(24)  # exact in float64 up to 1e22
_LONG = 64  # tokens longer than this are handled one by one, to bound the padded arrays


@dataclass(frozen=True)
class Number:
    """What a numeric field accepts, and how its messages name it."""

    what: str  # the value's name in messages
    pattern: re.Pattern[bytes]  # the spellings accepted
    spelled: str  # examples of a good value, for messages


@dataclass(frozen=True)
class Tokens:
    """A block's tokens, comment lines left out, and where each line's tokens begin.

    Token ``i`` is ``blob[begins[i]:ends[i]]`` on the block's line ``line[i]``
    (0-based). ``starts`` holds each line's first token; a blank line has none.
    """

    blob: bytes
    raw: np.ndarray  # the block as uint8
    ascii_only: bool
    begins: np.ndarray
    ends: np.ndarray
    line: np.ndarray
    newlines: np.ndarray  # where the block's line ends are
    starts: np.ndarray
    skipped: np.ndarray | None = None  # the block's comment lines that were left out (0-based)

    def counts(self) -> np.ndarray:
        """Tokens on each line that has any."""
        return np.diff(np.append(self.starts, self.begins.size))

    def line_text(self, line: int) -> str:
        """The block's ``line`` (0-based), without its surrounding white space."""
        start = int(self.newlines[line - 1]) + 1 if line else 0
        return self.blob[start : int(self.newlines[line])].decode("utf-8").strip()

    def text(self, at: int) -> str:
        return self.blob[self.begins[at] : self.ends[at]].decode("utf-8")

    def texts(self, at: np.ndarray) -> list[str]:
        """The tokens at the given positions as Python strings."""
        return _texts(self.blob, self.raw, self.begins[at], self.ends[at], self.ascii_only)

    def same_as_previous(self, at: np.ndarray) -> np.ndarray:
        """Whether each token at the given positions equals the one before it (False for the first)."""
        return _same_as_previous(self.blob, self.raw, self.begins[at], self.ends[at])

    def numbers(self, at: np.ndarray, rule: Number, label: str, lines: np.ndarray) -> np.ndarray:
        """The tokens at the given positions as floats; a token ``rule`` refuses is an error naming its line."""
        return _numbers(self.blob, self.raw, self.begins[at], self.ends[at], rule, label, lines)


def split(blob: bytes, first: int, label: str, comments: str = "first_token", carry: bool = False) -> Tokens:
    """One block of whole lines (numbered from ``first``) as tokens.

    A NUL byte and text that is not UTF-8 are errors naming the line. Comment
    lines are left out, by one of two rules:

    - ``"first_token"``: every line whose first non-blank character is ``#``
      (trec_eval 10.0's runs, and the package's rule for both files);
    - ``"column0_once"``: trec_eval 10.0's qrels (``get_qrels.c``): a ``#``
      in the line's first column only, and never two lines in a row: of
      consecutive such lines the 1st, 3rd, ... are skipped, the 2nd, 4th, ...
      read as data. ``carry`` says that the line before the block was skipped.
    """
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
    if comments == "column0_once":
        skipped = _every_other(_column0_comments(raw, newlines), carry)
    else:
        skipped = line[lead & (raw[begins] == 35)]  # "#"
    if skipped.size:
        dropped = np.zeros(newlines.size + 1, dtype=bool)
        dropped[skipped] = True
        keep = ~dropped[line]
        begins, ends, line, lead = begins[keep], ends[keep], line[keep], lead[keep]
    return Tokens(blob, raw, ascii_only, begins, ends, line, newlines, np.flatnonzero(lead), skipped)


def _column0_comments(raw: np.ndarray, newlines: np.ndarray) -> np.ndarray:
    """The lines (0-based) whose first byte is ``#``."""
    line_starts = np.concatenate(([0], newlines[:-1] + 1)) if newlines.size else np.zeros(0, np.int64)
    return np.flatnonzero(raw[line_starts] == 35) if raw.size else line_starts


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


def _token_rows(raw: np.ndarray, begins: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """One token per row, zero-padded to the longest: a (tokens, longest) uint8 array."""
    lengths = ends - begins
    width = max(1, int(lengths.max())) if lengths.size else 1
    padded = np.concatenate((raw, np.zeros(width, dtype=np.uint8)))
    rows = np.lib.stride_tricks.sliding_window_view(padded, width)[begins]  # copied
    rows[np.arange(width) >= lengths[:, None]] = 0
    return rows


def _same_as_previous(blob: bytes, raw: np.ndarray, begins: np.ndarray, ends: np.ndarray) -> np.ndarray:
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
    rule: Number,
    label: str,
    lines: np.ndarray,
) -> np.ndarray:
    """Each token as a float; a token that ``rule.pattern`` does not match in full is an error.

    A token of sign, digits and at most one point with at most 15 digits is
    computed by array work: the digits as one integer, divided by a power of
    ten, is one correctly rounded division, the same double as ``float()``.
    Every other token is matched against the rule and converted by ``float()``.
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
        if not rule.pattern.fullmatch(token):
            raise ValueError(
                f"{label} line {int(lines[i])}: the {rule.what} must be a decimal number such as "
                f"{rule.spelled}; got {token.decode('utf-8')!r}"
            )
        values[i] = float(token)
        if not math.isfinite(values[i]):
            raise ValueError(
                f"{label} line {int(lines[i])}: the {rule.what} {token.decode('utf-8')!r} is too large "
                "for a floating-point number"
            )
    return values
