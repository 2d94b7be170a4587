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
from .calculator import PROG, UsageError, run_mean, run_ranking, run_rating, scalar
from .i18n import N_, _, use_language
from .registry import METRICS, Metric
from .teaching.catalogue import entry
from .trec.io.tokens import DECIMAL_E


# The subcommands come from the registry when the parser is built: every metric with a
# command, in registry order (a metric registered after import gets its subcommand too).
def _all() -> dict[str, Metric]:
    return {m.command: m for m in METRICS.values() if m.command}


def _of(inputs: str) -> tuple[Metric, ...]:
    return tuple(m for m in _all().values() if m.inputs == inputs)


_OTHER_COMMANDS = ("worksheet", "evaluate", "compare")


# ---------------------------------------------------------------------------
# argparse in Korean


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter; its own words ("usage: ", "options") come from our catalogue
    while the command line runs (see :func:`_argparse_in_our_language`)."""


# A number with a minus sign: argparse's own test misses -1e-3, -.5e2 and -inf, and would read
# them as unknown options. The decimal spelling is the package's one (DECIMAL_E); (?=-) asks
# for its sign to be a minus.
_NEGATIVE_NUMBER = re.compile(rf"(?=-)(?:{DECIMAL_E})|-(?:inf|infinity|nan)", re.IGNORECASE)


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


def _epilog(metric: Metric) -> str | None:
    """The command lines of the metric's teaching entry (rankmetrics.teaching.catalogue), if it has any."""
    taught = entry(metric.name)
    if taught is None or not taught.examples:
        return None
    return _("Examples:\n{examples}").format(examples="\n".join(f"  {line}" for line in taught.examples))


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
        taught = entry(metric.name)
        _add_common(sub, discount=taught is not None and taught.explain == "dcg")
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


def _run_worksheet(args: argparse.Namespace) -> str:
    from .teaching.worksheet import make_worksheet

    metrics = [name.strip() for name in args.metrics.split(",") if name.strip()]
    sheet = make_worksheet(
        scalar(args.seed, "--seed"),
        scalar(args.count, "--count"),
        metrics=metrics,
        decimals=scalar(args.decimals, "--decimals"),
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
                output = run_mean(metric, args)
            elif metric.inputs == "ratings":
                output = run_rating(metric, args)
            else:
                output = run_ranking(metric, args)
    except (UsageError, ValueError, OSError, ArithmeticError) as error:
        _write(_error_line(error, where), sys.stderr)
        return 2
    for note in notes:
        _write(note + "\n", sys.stderr)
    _write(output + "\n", sys.stdout)
    return 0
