"""The command-line calculator: ``rankmetrics <지표> ...`` or ``python -m rankmetrics <지표> ...``.

Every subcommand calls the package's public function (or :func:`rankmetrics.explain`
with ``--explain`` / ``--decimals``), so the terminal and a notebook can never
disagree. Output is parseable: without ``--explain`` the last line is the value
alone. Bad input exits with status 2 and one line on stderr, taken from the
package's own ``ValueError`` message (or saying which file the system refused);
no traceback. Negative numbers are values (``--pred -1e-3``), a typo is never
read as data (``--relevant B:l``, ``O 2 X``), and a terminal that cannot show
Hangul gets it escaped (``\\uc624``) rather than a crash.
"""

from __future__ import annotations

import argparse
import errno
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, TextIO

from ._argparse_texts import argparse_in_our_language, argument_error
from .i18n import N_, _, use_language
from .registry import METRICS, Metric

PROG = "rankmetrics"


# The subcommands come from the registry when the parser is built: every metric with a
# command, in registry order (a metric registered after import gets its subcommand too).
def _all() -> dict[str, Metric]:
    return {m.command: m for m in METRICS.values() if m.command}


def _of(inputs: str) -> tuple[Metric, ...]:
    return tuple(m for m in _all().values() if m.inputs == inputs)


_OTHER_COMMANDS = ("worksheet", "evaluate", "compare")


class UsageError(Exception):
    """Bad command-line input: printed as one line, exit status 2."""


# ---------------------------------------------------------------------------
# argparse in Korean


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter; its own words ("usage: ", "options") come from our catalogue
    while the command line runs (see :func:`_argparse_in_our_language`)."""


# A number with a minus sign: argparse's own test misses -1e-3, -.5e2 and -inf, and would read
# them as unknown options. _number below reads the same forms.
_NEGATIVE_NUMBER = re.compile(r"-(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|-(inf|infinity|nan)", re.IGNORECASE)


class _Once(argparse.Action):
    """Store an option's values, refusing the option a second time.

    argparse keeps only the last ``--relevant B --relevant D``: D alone would be
    judged relevant, silently.
    """

    def __call__(self, parser, namespace, values, option_string=None):
        given = vars(namespace).setdefault("_given_options", set())
        if self.dest in given:
            if self.nargs:
                message = _("give it once (several values go together: {option} A B C)").format(
                    option=option_string
                )
            else:
                message = _("give it once")
            raise argparse.ArgumentError(self, message)
        given.add(self.dest)
        setattr(namespace, self.dest, values)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self.add_argument("-h", "--help", action="help", help=_("show this help message and exit"))

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if args and str(args[0]).startswith("-") and kwargs.get("action") is None:
            kwargs["action"] = _Once
        return super().add_argument(*args, **kwargs)

    def _parse_optional(self, arg_string: str) -> Any:
        if _NEGATIVE_NUMBER.fullmatch(arg_string):
            return None  # a value (e.g. --pred -1e-3), not an option
        return super()._parse_optional(arg_string)

    def _print_message(self, message: str, file: TextIO | None = None) -> None:
        if message:
            _write(message, file or sys.stderr)

    def error(self, message: str) -> NoReturn:
        raise UsageError(argument_error(message))


def _add_common(parser: argparse.ArgumentParser, *, cutoff: bool = True, discount: bool = False) -> None:
    if cutoff:
        parser.add_argument(
            "--k", metavar="K", help=_("the cutoff: looks at the top K only (default: the whole list)")
        )
    parser.add_argument(
        "--explain",
        action="store_true",
        help=_("shows the step table (the calculation rank by rank, the formula, the conventions card)"),
    )
    parser.add_argument(
        "--decimals",
        metavar="N",
        help=_(
            "rounds every intermediate value to N decimal places, as by hand "
            "(without --explain, prints only that result)"
        ),
    )
    if discount:
        parser.add_argument(
            "--discount-decimals",
            metavar="N",
            help=_(
                "rounds the hand calculation's discount table log2(rank+1) to N decimal places "
                "(default: as --decimals)"
            ),
        )


def _epilog(metric: Metric) -> str:
    return _("Examples:\n{examples}").format(examples="\n".join(f"  {line}" for line in metric.examples))


def build_parser() -> argparse.ArgumentParser:
    """The parser with one subcommand per metric plus ``worksheet``."""
    overview = "\n".join(f"  {m.command:<10} {_(m.title)}" for m in _all().values())
    parser = _Parser(
        prog=PROG,
        description=_(
            "A calculator of ranking and recommendation metrics. To check a hand calculation, "
            "use --explain (the step table) with --decimals (rounding as by hand)."
            "\n\nCommands:\n{overview}"
            "\n  worksheet  makes a worksheet and its answer sheet"
            "\n  evaluate   computes measures from a qrels file and a run file (ir_measures and trec_eval names)"
            "\n  compare    compares two runs or more query by query (confidence intervals, tests, Holm's correction)"
            "\n  trec_eval  the same command and output as NIST trec_eval 10.0 (rankmetrics trec_eval -h)"
        ).format(overview=overview),
        epilog=_(
            "Write the grades in ranked order (3 0 3 2 0, or O X O X O).\n"
            "To write item names: --ranking A B C --relevant B C:2 (name:grade; without a grade, 1).\n\n"
            "Examples:\n{examples}\n\n"
            "Help on each command: rankmetrics <command> --help"
        ).format(
            examples="  rankmetrics ndcg 3 0 3 2 0 --k 5\n"
            "  rankmetrics precision --ranking A B C D E --relevant B D F G --k 5\n"
            "  rankmetrics ndcg 1 0 1 0 1 --explain --decimals 2 --discount-decimals 1\n"
            "  rankmetrics worksheet --seed 7 --count 6 --metrics ndcg,ap,rr --out " + _("worksheets")
        ),
    )
    commands = parser.add_subparsers(
        dest="command", metavar=_("<command>"), help=_("one of the commands above")
    )
    for metric in _of("ranking"):
        sub = commands.add_parser(metric.command, description=_(metric.title), epilog=_epilog(metric))
        sub.add_argument(
            "x",
            nargs="*",
            metavar=_("grade"),
            help=_("the grades in ranked order (e.g. 3 0 3 2 0); O reads as 1, X as 0"),
        )
        sub.add_argument(
            "--ranking", nargs="+", metavar="ID", help=_("the item names in ranked order (with --relevant)")
        )
        sub.add_argument(
            "--relevant",
            nargs="+",
            metavar=_("ID[:grade]"),
            help=_("the relevant items (name:grade; without a grade, 1)"),
        )
        if "n_relevant" in metric.keywords:
            sub.add_argument(
                "--n-relevant",
                metavar="R",
                help=_("the total number of relevant items R (those outside the list too; grades form only)"),
            )
        if "gain" in metric.keywords:
            sub.add_argument(
                "--gain",
                default="linear",
                metavar="{linear,exponential,binary}",
                help=_(
                    "the gain: linear (the grade itself, the default) · exponential (2^grade−1) · binary (1 if relevant)"
                ),
            )
        if "ideal" in metric.keywords:
            sub.add_argument(
                "--ideal",
                nargs="+",
                metavar=_("grade"),
                help=_("the grades of every judged item (to build the ideal ranking)"),
            )
        _add_common(sub, discount=metric.explain == "dcg")
    for metric in _of("queries"):
        sub = commands.add_parser(metric.command, description=_(metric.title), epilog=_epilog(metric))
        sub.add_argument(
            "--query",
            nargs="+",
            action="append",
            metavar=_("grade|ID"),
            help=_("one query's ranking (once per query)"),
        )
        sub.add_argument(
            "--relevant",
            nargs="+",
            action="append",
            metavar=_("ID[:grade]"),
            help=_("with item names, each query's relevant items (once each, in the order of --query)"),
        )
        if "n_relevant" in metric.keywords:
            sub.add_argument(
                "--n-relevant",
                nargs="+",
                metavar="R",
                help=_("each query's total number of relevant items R"),
            )
        _add_common(sub)
    for metric in _of("ratings"):
        sub = commands.add_parser(metric.command, description=_(metric.title), epilog=_epilog(metric))
        sub.add_argument("--true", nargs="+", dest="y_true", metavar=_("rating"), help=_("the true ratings"))
        sub.add_argument(
            "--pred", nargs="+", dest="y_pred", metavar=_("rating"), help=_("the predicted ratings")
        )
        _add_common(sub, cutoff=False)
    sheet = commands.add_parser(
        "worksheet",
        description=_(
            "Writes a worksheet of problems to solve by hand (4–6 items, grades 0–3) and an answer sheet "
            "with step tables, as Markdown and printable HTML. The same --seed gives the same files, byte for byte."
        ),
        epilog=_("Examples:\n{examples}").format(
            examples="  rankmetrics worksheet --seed 7 --count 6 --metrics ndcg,ap,rr --out "
            + _("worksheets")
            + "\n  rankmetrics worksheet --seed 1 --count 4 --metrics precision,recall --decimals 2 --out "
            + _("class-1")
        ),
    )
    sheet.add_argument(
        "--seed", required=True, metavar="N", help=_("the random seed (the same seed → the same worksheet)")
    )
    sheet.add_argument(
        "--count", default="6", metavar="M", help=_("the number of problems (default 6, at most 1000)")
    )
    from .teaching.worksheet.draw import DEFAULT_METRICS, worksheet_commands

    # The choices are the registry's worksheet metrics (worksheet=Exercise(...)); the default is
    # make_worksheet's.
    default = ",".join(DEFAULT_METRICS)
    sheet.add_argument(
        "--metrics",
        default=default,
        metavar=_("list"),
        help=_("metrics separated by commas: {choices} (default {default})").format(
            choices=",".join(worksheet_commands()), default=default
        ),
    )
    sheet.add_argument(
        "--decimals", default="3", metavar="N", help=_("the answers' decimal places (default 3)")
    )
    sheet.add_argument(
        "--out",
        required=True,
        metavar=_("folder"),
        help=_("the folder to write the files in (made when absent)"),
    )
    sheet.add_argument(
        "--force",
        action="store_true",
        help=_("overwrites files of the same name (default: stops without overwriting)"),
    )
    from .trec.commands import add_commands

    add_commands(commands)
    return parser


# ---------------------------------------------------------------------------
# turning words into numbers

_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def _number(token: str) -> float | int | str:
    """A token as a number when it reads as one (ints stay ints), else unchanged.

    nan and inf read as numbers so that the package refuses them by name.
    """
    if re.fullmatch(r"[+-]?\d+", token):
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


def _scalar(token: str | None, option: str) -> Any:
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
    decimals = _scalar(args.decimals, "--decimals")
    discount = _scalar(getattr(args, "discount_decimals", None), "--discount-decimals")
    if args.explain or decimals is not None or discount is not None:
        extra = {"discount_decimals": discount} if discount is not None else {}
        result = explain(metric.name, x, k, decimals=decimals, **extra, **kwargs)
        if args.explain:
            return str(result)
        return _format(result.rounded, result.decimals) if result.rounded is not None else repr(result.value)
    if metric.inputs == "ratings":
        return repr(metric.function(x, **kwargs))
    return repr(metric.function(x, k, **kwargs))


def _run_ranking(metric: Metric, args: argparse.Namespace) -> str:
    k = _scalar(args.k, "--k")
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
        kwargs["n_relevant"] = _scalar(args.n_relevant, "--n-relevant")
    if getattr(args, "gain", None) is not None and "gain" in metric.keywords:
        kwargs["gain"] = args.gain
    if getattr(args, "ideal", None) is not None:
        kwargs["ideal"] = _grades(args.ideal, "ideal", "--ideal")
    return _report(metric, x, k, args, kwargs)


def _run_mean(metric: Metric, args: argparse.Namespace) -> str:
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
        kwargs["n_relevant"] = [_scalar(r, "--n-relevant") for r in args.n_relevant]
    return _report(metric, queries, _scalar(args.k, "--k"), args, kwargs)


def _run_rating(metric: Metric, args: argparse.Namespace) -> str:
    if args.y_true is None or args.y_pred is None:
        raise UsageError(_("give both --true and --pred (e.g. {example})").format(example=metric.examples[0]))
    y_true = _numbers(args.y_true, "--true")
    y_pred = _numbers(args.y_pred, "--pred")
    return _report(metric, y_true, None, args, {"y_pred": y_pred})


def _run_worksheet(args: argparse.Namespace) -> str:
    from .teaching.worksheet import make_worksheet

    metrics = [name.strip() for name in args.metrics.split(",") if name.strip()]
    sheet = make_worksheet(
        _scalar(args.seed, "--seed"),
        _scalar(args.count, "--count"),
        metrics=metrics,
        decimals=_scalar(args.decimals, "--decimals"),
    )
    try:
        paths = sheet.write(args.out, force=args.force)
    except FileExistsError as error:
        raise UsageError(
            _("an existing file is not overwritten: {file} (to overwrite it: --force)").format(
                file=error.filename
            )
        ) from None
    return "\n".join(str(path) for path in paths)


# ---------------------------------------------------------------------------
# the one way out: a value on stdout, or one line on stderr

_OS_WORDS = (  # most specific first; message ids, translated where shown
    (FileNotFoundError, N_("no such file or folder")),
    (PermissionError, N_("permission denied")),
    (IsADirectoryError, N_("a folder stands where a file should")),
    (NotADirectoryError, N_("a file stands where a folder should")),
    (FileExistsError, N_("already exists")),
    (OSError, N_("the file cannot be read or written")),
)


def _error_line(error: Exception, where: str) -> str:
    """The one line on stderr for a refused command."""
    if isinstance(error, OSError):
        words = _(next(text for kind, text in _OS_WORDS if isinstance(error, kind)))
        name = error.filename if error.filename is not None else ""
        # The system's own sentence (strerror) is in the machine's language; its code (ENOENT) is not.
        code = errno.errorcode.get(error.errno, type(error).__name__) if error.errno else type(error).__name__
        message = f"{words}: {str(name)!r} ({code})"
    elif isinstance(error, ArithmeticError):  # e.g. 10**400 where a float is needed
        message = _("a number too large, or a value that cannot be computed ({kind}: {error})").format(
            kind=type(error).__name__, error=error
        )
    else:
        message = str(error)
    hint = _(" (help: {command} --help)").format(command=where) if isinstance(error, UsageError) else ""
    # always one line
    return (
        _("{command}: error: {message}{hint}").format(
            command=where, message=" ".join(message.split()), hint=hint
        )
        + "\n"
    )


def _write(text: str, stream: TextIO) -> None:
    """Write text; what the stream's encoding cannot show (Hangul under LC_ALL=C or
    PYTHONIOENCODING=ascii) is escaped as \\uXXXX instead of raising UnicodeEncodeError."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "ascii"
        stream.write(text.encode(encoding, "backslashreplace").decode(encoding))
    stream.flush()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the calculator; returns the exit status (0 fine, 2 bad input).

    The calculator speaks Korean, argparse's own words included (:mod:`rankmetrics._argparse_texts`),
    whatever the language of the Python API. ``rankmetrics trec_eval ...`` is NIST trec_eval
    10.0's command line instead (:mod:`rankmetrics.trec.dropin`), with trec_eval's English
    messages and exit codes.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "trec_eval":
        from .trec.dropin import main as trec_eval

        return trec_eval(argv[1:])
    with use_language("ko"), argparse_in_our_language():
        return _main(argv)


def _main(argv: list[str]) -> int:
    parser = build_parser()
    command = argv[0] if argv and not argv[0].startswith("-") else None
    where = f"{PROG} {command}" if command in _all() or command in _OTHER_COMMANDS else PROG
    notes: list[str] = []
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            raise UsageError(_("choose a metric (e.g. {example})").format(example=f"{PROG} ndcg 3 0 3 2 0"))
        if args.command == "worksheet":
            output = _run_worksheet(args)
        elif args.command in ("evaluate", "compare"):
            from .trec import commands

            run = commands.run_evaluate if args.command == "evaluate" else commands.run_compare
            output, notes = run(args)
        else:
            metric = _all()[args.command]
            if metric.inputs == "queries":
                output = _run_mean(metric, args)
            elif metric.inputs == "ratings":
                output = _run_rating(metric, args)
            else:
                output = _run_ranking(metric, args)
    except (UsageError, ValueError, OSError, ArithmeticError) as error:
        _write(_error_line(error, where), sys.stderr)
        return 2
    for note in notes:
        _write(note + "\n", sys.stderr)
    _write(output + "\n", sys.stdout)
    return 0
