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
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, TextIO

from .i18n import _, use_language
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
    def add_usage(self, usage, actions, groups, prefix=None):
        # argparse passes prefix="" when it builds a subcommand's name; keep that.
        return super().add_usage(usage, actions, groups, prefix="사용법: " if prefix is None else prefix)


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
            several = f" (값이 여럿이면 한 번에 이어서 적습니다: {option_string} A B C)" if self.nargs else ""
            raise argparse.ArgumentError(self, f"한 번만 주세요{several}")
        given.add(self.dest)
        setattr(namespace, self.dest, values)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self._positionals.title = "위치 인자"
        self._optionals.title = "옵션"
        self.add_argument("-h", "--help", action="help", help="이 도움말을 보이고 끝냅니다")

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
        raise UsageError(message)


def _add_common(parser: argparse.ArgumentParser, *, cutoff: bool = True, discount: bool = False) -> None:
    if cutoff:
        parser.add_argument("--k", metavar="K", help="컷오프: 상위 K개만 봅니다 (기본: 목록 전체)")
    parser.add_argument(
        "--explain", action="store_true", help="단계표(순위별 계산, 공식, 규칙 카드)를 보입니다"
    )
    parser.add_argument(
        "--decimals",
        metavar="N",
        help="손 계산처럼 모든 중간값을 소수 N자리로 반올림합니다 (--explain 없이 쓰면 그 결과만 출력)",
    )
    if discount:
        parser.add_argument(
            "--discount-decimals",
            metavar="N",
            help="손 계산의 할인표 log2(순위+1)를 소수 N자리로 반올림합니다 (기본: --decimals와 같음)",
        )


def _epilog(metric: Metric) -> str:
    return "예:\n" + "\n".join(f"  {line}" for line in metric.examples)


def build_parser() -> argparse.ArgumentParser:
    """The parser with one subcommand per metric plus ``worksheet``."""
    overview = "\n".join(f"  {m.command:<10} {_(m.title)}" for m in _all().values())
    parser = _Parser(
        prog=PROG,
        description=(
            "랭킹·추천 지표 계산기. 손 계산을 확인할 때는 --explain(단계표)과 --decimals(손 계산 반올림)를 "
            "함께 쓰세요.\n\n명령:\n" + overview + "\n  worksheet  학습지와 답안지를 만듭니다"
            "\n  evaluate   판정 파일과 런 파일로 지표를 계산합니다 (ir_measures·trec_eval 이름)"
            "\n  compare    두 런 이상을 질의별로 비교합니다 (신뢰구간, 검정, Holm 보정)"
            "\n  trec_eval  NIST trec_eval 10.0과 같은 명령과 출력 (rankmetrics trec_eval -h)"
        ),
        epilog=(
            "등급은 순위 순서대로 적습니다 (3 0 3 2 0, 또는 O X O X O).\n"
            "항목 이름으로 적으려면 --ranking A B C --relevant B C:2 (이름:등급, 등급을 빼면 1).\n\n"
            "예:\n  rankmetrics ndcg 3 0 3 2 0 --k 5\n"
            "  rankmetrics precision --ranking A B C D E --relevant B D F G --k 5\n"
            "  rankmetrics ndcg 1 0 1 0 1 --explain --decimals 2 --discount-decimals 1\n"
            "  rankmetrics worksheet --seed 7 --count 6 --metrics ndcg,ap,rr --out 학습지\n\n"
            "명령마다 도움말: rankmetrics <명령> --help"
        ),
    )
    commands = parser.add_subparsers(dest="command", metavar="<명령>", help="위의 명령 가운데 하나")
    for metric in _of("ranking"):
        sub = commands.add_parser(metric.command, description=_(metric.title), epilog=_epilog(metric))
        sub.add_argument(
            "x",
            nargs="*",
            metavar="등급",
            help="순위 순서대로 적은 등급 (예: 3 0 3 2 0). O는 1, X는 0으로 읽습니다",
        )
        sub.add_argument(
            "--ranking", nargs="+", metavar="ID", help="항목 이름을 순위 순서대로 (--relevant와 함께)"
        )
        sub.add_argument(
            "--relevant", nargs="+", metavar="ID[:등급]", help="정답 항목 (이름:등급, 등급을 빼면 1)"
        )
        if "n_relevant" in metric.keywords:
            sub.add_argument(
                "--n-relevant", metavar="R", help="전체 정답 수 R (목록 밖 정답까지; 등급 형태에서만)"
            )
        if "gain" in metric.keywords:
            sub.add_argument(
                "--gain",
                default="linear",
                metavar="{linear,exponential,binary}",
                help="이득: linear(등급 그대로, 기본) · exponential(2^등급−1) · binary(관련이면 1)",
            )
        if "ideal" in metric.keywords:
            sub.add_argument(
                "--ideal", nargs="+", metavar="등급", help="판정된 모든 항목의 등급 (이상적 순서를 만들 때)"
            )
        _add_common(sub, discount=metric.explain == "dcg")
    for metric in _of("queries"):
        sub = commands.add_parser(metric.command, description=_(metric.title), epilog=_epilog(metric))
        sub.add_argument(
            "--query",
            nargs="+",
            action="append",
            metavar="등급|ID",
            help="질의 하나의 순위 목록 (질의마다 한 번씩)",
        )
        sub.add_argument(
            "--relevant",
            nargs="+",
            action="append",
            metavar="ID[:등급]",
            help="항목 이름 형태일 때 질의마다의 정답 (--query와 같은 순서로 한 번씩)",
        )
        if "n_relevant" in metric.keywords:
            sub.add_argument("--n-relevant", nargs="+", metavar="R", help="질의마다의 전체 정답 수 R")
        _add_common(sub)
    for metric in _of("ratings"):
        sub = commands.add_parser(metric.command, description=_(metric.title), epilog=_epilog(metric))
        sub.add_argument("--true", nargs="+", dest="y_true", metavar="평점", help="실제 평점")
        sub.add_argument("--pred", nargs="+", dest="y_pred", metavar="평점", help="예측 평점")
        _add_common(sub, cutoff=False)
    sheet = commands.add_parser(
        "worksheet",
        description="손으로 풀 수 있는 문제(항목 4–6개, 등급 0–3)의 학습지와 단계표가 든 답안지를 "
        "Markdown과 인쇄용 HTML로 씁니다. 같은 --seed면 바이트까지 같은 파일이 나옵니다.",
        epilog="예:\n  rankmetrics worksheet --seed 7 --count 6 --metrics ndcg,ap,rr --out 학습지\n"
        "  rankmetrics worksheet --seed 1 --count 4 --metrics precision,recall --decimals 2 --out 1반",
    )
    sheet.add_argument("--seed", required=True, metavar="N", help="난수 씨앗 (같은 씨앗 → 같은 학습지)")
    sheet.add_argument("--count", default="6", metavar="M", help="문제 수 (기본 6, 많아야 1000)")
    from .teaching.worksheet.draw import DEFAULT_METRICS, worksheet_commands

    # The choices are the registry's worksheet metrics (worksheet=Exercise(...)); the default is
    # make_worksheet's.
    default = ",".join(DEFAULT_METRICS)
    sheet.add_argument(
        "--metrics",
        default=default,
        metavar="목록",
        help=f"쉼표로 구분한 지표: {','.join(worksheet_commands())} (기본 {default})",
    )
    sheet.add_argument("--decimals", default="3", metavar="N", help="답의 소수 자리수 (기본 3)")
    sheet.add_argument("--out", required=True, metavar="폴더", help="파일을 쓸 폴더 (없으면 만듭니다)")
    sheet.add_argument(
        "--force", action="store_true", help="같은 이름의 파일이 있으면 덮어씁니다 (기본: 덮어쓰지 않고 멈춤)"
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
            raise UsageError(f"{option}에는 수만 적습니다: {token!r} ({' '.join(tokens)!r})")
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
            raise UsageError("목록은 한 번만: 등급(3 0 3 2 0)이나 --ranking과 --relevant 중 하나로 주세요")
        if args.relevant is None:
            raise UsageError(
                "--ranking에는 --relevant가 필요합니다 (정답 항목, 예: --relevant B D 또는 B:3 D:1)"
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
            f"질의마다 --query를 하나씩 주세요 (예: {PROG} {metric.command} --query 1 0 0 --query 0 1 0)"
        )
    kwargs: dict[str, Any] = {}
    if args.relevant is not None:
        if len(args.relevant) != len(args.query):
            raise UsageError(
                f"--query마다 --relevant를 같은 순서로 하나씩 주세요; --query {len(args.query)}개, "
                f"--relevant {len(args.relevant)}개를 받았습니다"
            )
        queries: list[Any] = [list(q) for q in args.query]
        kwargs["relevant"] = [
            _judgements(r, q, f"{i}번째 --relevant")
            for i, (r, q) in enumerate(zip(args.relevant, queries), 1)
        ]
    else:
        queries = [_grades(q, f"queries[{i}]", f"{i + 1}번째 --query") for i, q in enumerate(args.query)]
    if getattr(args, "n_relevant", None) is not None:
        kwargs["n_relevant"] = [_scalar(r, "--n-relevant") for r in args.n_relevant]
    return _report(metric, queries, _scalar(args.k, "--k"), args, kwargs)


def _run_rating(metric: Metric, args: argparse.Namespace) -> str:
    if args.y_true is None or args.y_pred is None:
        raise UsageError(f"--true와 --pred를 둘 다 주세요 (예: {metric.examples[0]})")
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
            f"이미 있는 파일은 덮어쓰지 않습니다: {error.filename} (덮어쓰려면 --force)"
        ) from None
    return "\n".join(str(path) for path in paths)


# ---------------------------------------------------------------------------
# the one way out: a value on stdout, or one line on stderr

_OS_WORDS = (  # most specific first
    (FileNotFoundError, "없는 파일이나 폴더입니다"),
    (PermissionError, "권한이 없습니다"),
    (IsADirectoryError, "파일 자리에 폴더가 있습니다"),
    (NotADirectoryError, "폴더 자리에 파일이 있습니다"),
    (FileExistsError, "이미 있습니다"),
    (OSError, "파일을 읽거나 쓸 수 없습니다"),
)


def _error_line(error: Exception, where: str) -> str:
    """The one line on stderr for a refused command."""
    if isinstance(error, OSError):
        words = next(text for kind, text in _OS_WORDS if isinstance(error, kind))
        name = error.filename if error.filename is not None else ""
        message = f"{words}: {str(name)!r} ({error.strerror or error})"
    elif isinstance(error, ArithmeticError):  # e.g. 10**400 where a float is needed
        message = f"수가 너무 크거나 계산할 수 없는 값입니다 ({type(error).__name__}: {error})"
    else:
        message = str(error)
    hint = f" (도움말: {where} --help)" if isinstance(error, UsageError) else ""
    return f"{where}: 오류: {' '.join(message.split())}{hint}\n"  # always one line


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

    ``rankmetrics trec_eval ...`` is NIST trec_eval 10.0's command line instead
    (:mod:`rankmetrics.trec.dropin`), with trec_eval's English messages and exit codes.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "trec_eval":
        from .trec.dropin import main as trec_eval

        return trec_eval(argv[1:])
    # The calculator speaks Korean, whatever language the Python API was set to.
    with use_language("ko"):
        return _main(argv)


def _main(argv: list[str]) -> int:
    parser = build_parser()
    command = argv[0] if argv and not argv[0].startswith("-") else None
    where = f"{PROG} {command}" if command in _all() or command in _OTHER_COMMANDS else PROG
    notes: list[str] = []
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            raise UsageError(f"지표를 고르세요 (예: {PROG} ndcg 3 0 3 2 0)")
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
