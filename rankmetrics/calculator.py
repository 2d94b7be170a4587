"""The metric subcommands' calculator: command-line words to numbers, and to a metric's value.

:mod:`rankmetrics.cli` parses the command line; the functions here turn a parsed
subcommand into the call of the package's public function (or of
:func:`rankmetrics.explain` with ``--explain`` / ``--decimals``) and the text
printed. Every word is read strictly: negative numbers are values
(``--pred -1e-3``), a typo is never read as data (``--relevant B:l``,
``O 2 X``), and a refusal is a :class:`UsageError` or the package's own
``ValueError``, which the command line prints as one line.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from typing import Any

from .i18n import _
from .registry import Metric
from .trec.io.tokens import DECIMAL_E, WHOLE

PROG = "rankmetrics"


class UsageError(Exception):
    """Bad command-line input: printed as one line, exit status 2."""


# ---------------------------------------------------------------------------
# turning words into numbers

# The package's decimal spellings (ASCII digits only: \d would also read "٣" as 3).
_WHOLE = re.compile(WHOLE)
_NUMBER = re.compile(DECIMAL_E)


def _number(token: str) -> float | int | str:
    """A token as a number when it reads as one (ints stay ints), else unchanged.

    nan and inf read as numbers so that the package refuses them by name.
    """
    if _WHOLE.fullmatch(token):
        try:
            return int(token)
        except ValueError:  # more digits than int() reads from text: as a float (inf)
            return float(token)
    if _NUMBER.fullmatch(token) or token.lower().lstrip("+-") in ("nan", "inf", "infinity"):
        return float(token)
    return token


def _grades(tokens: Sequence[str], name: str = "x", option: str | None = None) -> list[float | int]:
    """Grades in ranked order; O and X (a hand-written answer sheet) read as 1 and 0.

    One list is all O/X or all numbers: in ``O 0 X`` the 0 is likely a mistyped O.
    """
    out: list[float | int] = []
    for token in tokens:
        if token.upper() in ("O", "X"):
            out.append(1 if token.upper() == "O" else 0)
            continue
        value = _number(token)
        if isinstance(value, str):
            raise ValueError(
                _("{name} must contain only numbers (or O/X); found {token!r} in {tokens!r}").format(
                    name=name, token=token, tokens=" ".join(tokens)
                )
            )
        out.append(value)
    marks = sum(token.upper() in ("O", "X") for token in tokens)
    if 0 < marks < len(tokens):
        raise UsageError(
            _(
                "{option}: O/X and numbers cannot be mixed: {tokens!r} "
                "(write all numbers, as in 3 0 2, or all O/X, as in O X O)"
            ).format(option=option or _("grade"), tokens=" ".join(tokens))
        )
    return out


def _judgements(
    tokens: Sequence[str], ranking: Sequence[str] = (), option: str = "--relevant"
) -> set[str] | dict[str, float]:
    """``B D`` -> {"B", "D"}; ``B:3 D`` -> {"B": 3, "D": 1} (a token id:grade gives a grade).

    Whatever follows the last colon is a grade and must be a number, so a typo
    (``B:l``) is refused rather than read as an item named "B:l". An id with a
    colon of its own takes its grade too: ``doc:7:1``.
    """
    graded: dict[str, float] = {}
    any_grade = False
    for token in tokens:
        item, sep, grade = token.rpartition(":")
        if sep:
            if token in ranking:
                raise UsageError(
                    _(
                        "{option} {token!r}: --ranking has an item of that name, so it is unclear whether "
                        "to read it as name:grade; write the grade too (e.g. {token}:1)"
                    ).format(option=option, token=token)
                )
            value = _number(grade)
            if not item or isinstance(value, str):
                raise UsageError(
                    _(
                        "in {option}'s name:grade the grade must be a number: {token!r} "
                        "(e.g. B:3; without a grade, 1; a name with ':' takes its grade too, as in doc:7:1)"
                    ).format(option=option, token=token)
                )
            key: str = item
            any_grade = True
        else:
            key, value = token, 1.0
        if key in graded:
            raise UsageError(
                _("{option} has the same item twice: {key!r} ({tokens!r})").format(
                    option=option, key=key, tokens=" ".join(tokens)
                )
            )
        graded[key] = float(value)
    return graded if any_grade else set(graded)


def scalar(token: str | None, option: str) -> Any:
    """k, n_relevant, decimals, seed, count: a number, or None when not given; the package checks the range."""
    if token is None:
        return None
    value = _number(token)
    if isinstance(value, str):
        raise UsageError(_("{option} takes a number: {text!r}").format(option=option, text=token))
    return value


def _numbers(tokens: Sequence[str], option: str) -> list[float | int]:
    """Ratings: numbers only (no O/X)."""
    out = []
    for token in tokens:
        value = _number(token)
        if isinstance(value, str):
            raise UsageError(
                _("{option} takes numbers only: {token!r} ({tokens!r})").format(
                    option=option, token=token, tokens=" ".join(tokens)
                )
            )
        out.append(value)
    return out


# ---------------------------------------------------------------------------
# running a command


def _format(value: float, decimals: int | None) -> str:
    if decimals is None:
        return repr(float(value))
    return f"{value:.{decimals}f}"


def explain(*args: Any, **kwargs: Any) -> Any:
    """:func:`rankmetrics.explain`, imported when first used, so that `rankmetrics trec_eval` starts fast."""
    from .teaching.explain import explain as real

    return real(*args, **kwargs)


def _report(metric: Metric, x: Any, k: Any, args: argparse.Namespace, kwargs: dict[str, Any]) -> str:
    decimals = scalar(args.decimals, "--decimals")
    discount = scalar(getattr(args, "discount_decimals", None), "--discount-decimals")
    if args.explain or decimals is not None or discount is not None:
        extra = {"discount_decimals": discount} if discount is not None else {}
        result = explain(metric.name, x, k, decimals=decimals, **extra, **kwargs)
        if args.explain:
            return str(result)
        return _format(result.rounded, result.decimals) if result.rounded is not None else repr(result.value)
    if metric.inputs == "ratings":
        return repr(metric.function(x, **kwargs))
    return repr(metric.function(x, k, **kwargs))


def run_ranking(metric: Metric, args: argparse.Namespace) -> str:
    k = scalar(args.k, "--k")
    kwargs: dict[str, Any] = {}
    if args.ranking is not None:
        if args.x:
            raise UsageError(
                _("give the list once: as grades (3 0 3 2 0) or as --ranking with --relevant, not both")
            )
        if args.relevant is None:
            raise UsageError(
                _("--ranking needs --relevant (the relevant items, e.g. --relevant B D or B:3 D:1)")
            )
        x: Any = list(args.ranking)
        kwargs["relevant"] = _judgements(args.relevant, x)
    else:
        if args.relevant is not None:
            raise UsageError(
                _(
                    "--relevant goes with --ranking (item names); in the grades form the grades say what is relevant"
                )
            )
        if not args.x:
            raise UsageError(
                _("give the grades in ranked order (e.g. {example}) or --ranking and --relevant").format(
                    example=f"{PROG} {metric.command} 3 0 3 2 0"
                )
            )
        x = _grades(args.x)
    if getattr(args, "n_relevant", None) is not None:
        kwargs["n_relevant"] = scalar(args.n_relevant, "--n-relevant")
    if getattr(args, "gain", None) is not None and "gain" in metric.keywords:
        kwargs["gain"] = args.gain
    if getattr(args, "ideal", None) is not None:
        kwargs["ideal"] = _grades(args.ideal, "ideal", "--ideal")
    return _report(metric, x, k, args, kwargs)


def run_mean(metric: Metric, args: argparse.Namespace) -> str:
    if not args.query:
        raise UsageError(
            _("give one --query per query (e.g. {example})").format(
                example=f"{PROG} {metric.command} --query 1 0 0 --query 0 1 0"
            )
        )
    kwargs: dict[str, Any] = {}
    if args.relevant is not None:
        if len(args.relevant) != len(args.query):
            raise UsageError(
                _(
                    "give one --relevant per --query, in the same order; got {queries} --query "
                    "and {relevant} --relevant"
                ).format(queries=len(args.query), relevant=len(args.relevant))
            )
        queries: list[Any] = [list(q) for q in args.query]
        kwargs["relevant"] = [
            _judgements(r, q, _("--relevant number {i}").format(i=i))
            for i, (r, q) in enumerate(zip(args.relevant, queries), 1)
        ]
    else:
        queries = [
            _grades(q, f"queries[{i}]", _("--query number {i}").format(i=i + 1))
            for i, q in enumerate(args.query)
        ]
    if getattr(args, "n_relevant", None) is not None:
        kwargs["n_relevant"] = [scalar(r, "--n-relevant") for r in args.n_relevant]
    return _report(metric, queries, scalar(args.k, "--k"), args, kwargs)


def run_rating(metric: Metric, args: argparse.Namespace) -> str:
    if args.y_true is None or args.y_pred is None:
        example = f"{PROG} {metric.command} --true 5 4 3 --pred 4 5 2"
        raise UsageError(_("give both --true and --pred (e.g. {example})").format(example=example))
    y_true = _numbers(args.y_true, "--true")
    y_pred = _numbers(args.y_pred, "--pred")
    return _report(metric, y_true, None, args, {"y_pred": y_pred})
