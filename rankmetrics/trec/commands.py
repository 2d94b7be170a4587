"""The command line over TREC files: ``rankmetrics evaluate`` and ``rankmetrics compare``.

Both read the files with the package's one reader and compute with
:func:`rankmetrics.evaluate` / :func:`rankmetrics.compare`; every convention
is an option, checked once by :class:`~rankmetrics.trec.conventions.Conventions`.
Tables are in Korean; ``--format json`` is for scripts. Every output that
states a number names the package version and the reference trec_eval.
(``rankmetrics trec_eval`` is the drop-in for NIST's binary:
:mod:`rankmetrics.trec.dropin`.)
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import warnings
from typing import Any

from .conventions import MISSING, REFERENCES, SCORE_PRECISIONS, TIES, Conventions

FORMATS = ("table", "tsv", "csv", "json")

# option -> (Conventions field, how to read its text)
_SETTINGS = {
    "reference": ("reference", str),
    "relevance_level": ("relevance_level", "number"),
    "missing": ("missing", str),
    "ties": ("ties", str),
    "score_precision": ("score_precision", str),
    "gain": ("gain", str),
    "ideal": ("ideal", str),
    "denominator": ("denominator", str),
    "fractional_grades": ("fractional_grades", str),
    "max_documents": ("max_documents", "number"),
}


_EVALUATE_EXAMPLES = (
    "rankmetrics evaluate qrels.txt run.txt nDCG@10 P@5 AP\n"
    "  rankmetrics evaluate qrels.txt run.txt map P_10 --per-query --format tsv\n"
    "  rankmetrics evaluate qrels.txt run.txt map --like trec_eval-9\n"
    "  rankmetrics evaluate qrels.txt run.txt --explain 301 --measure ndcg_cut_10"
)


class CommandError(ValueError):
    """A refused option value, said in Korean (the caller prints it as one line)."""


def _add_conventions(sub: argparse.ArgumentParser) -> None:
    from ..metrics.conventions import AP_DENOMINATORS, GAINS, IDEAL_SOURCES
    from .files import FRACTIONAL_GRADES

    def choices(values: tuple[str, ...]) -> str:
        return "{" + ",".join(values) + "}"

    sub.add_argument(
        "--like", metavar="PRESET", help="다른 구현의 약속을 한꺼번에: trec_eval-10, trec_eval-9 …"
    )
    sub.add_argument(
        "--reference",
        metavar=choices(REFERENCES),
        help="따를 trec_eval 판 (기본 trec_eval-10; trec_eval-9 = pytrec_eval, ir_measures)",
    )
    sub.add_argument("--relevance-level", metavar="L", help="관련으로 볼 최소 등급 (trec_eval -l, 기본 1)")
    sub.add_argument(
        "--missing",
        metavar=choices(MISSING),
        help="런에 없는 판정 질의: skip(건너뜀, 기본) · zero(0점, trec_eval -c)",
    )
    sub.add_argument(
        "--ties", metavar=choices(TIES), help="같은 점수의 순서 (기본 docno_descending, trec_eval)"
    )
    sub.add_argument(
        "--score-precision",
        metavar=choices(SCORE_PRECISIONS),
        help="점수 비교 정밀도 (기본: --reference를 따름)",
    )
    sub.add_argument("--gain", metavar=choices(GAINS), help="nDCG의 이득 (기본 linear)")
    sub.add_argument("--ideal", metavar=choices(IDEAL_SOURCES), help="nDCG의 이상적 순서 (기본 judged)")
    sub.add_argument("--denominator", metavar=choices(AP_DENOMINATORS), help="AP의 분모 (기본 all_relevant)")
    sub.add_argument(
        "--fractional-grades",
        metavar=choices(FRACTIONAL_GRADES),
        help="0.5 같은 소수 등급 (기본 error: 거부)",
    )
    sub.add_argument("--judged-only", action="store_true", help="판정된 문서만 순위에 둡니다 (trec_eval -J)")
    sub.add_argument("--max-documents", metavar="N", help="질의마다 앞의 N개만 봅니다 (trec_eval -M)")


def add_commands(commands: Any, epilog_prefix: str = "예:\n  ") -> None:
    """Add ``evaluate`` and ``compare`` to the command line's subparsers."""
    sub = commands.add_parser(
        "evaluate",
        description="판정 파일(qrels)과 런 파일로 지표를 계산합니다. 지표 이름은 ir_measures식(nDCG@10, P@5, AP, "
        "'RBP(p=0.8)')과 trec_eval식(ndcg_cut_10, P_5, map) 모두 받습니다.",
        epilog=epilog_prefix + _EVALUATE_EXAMPLES,
    )
    sub.add_argument("qrels", metavar="QRELS", help="판정 파일 (qid 0 docno 등급)")
    sub.add_argument("run", metavar="RUN", help="런 파일 (qid Q0 docno 순위 점수 태그)")
    sub.add_argument("measures", nargs="*", metavar="MEASURE", help="지표 이름 (여럿)")
    sub.add_argument("--per-query", action="store_true", help="질의마다의 값도 보입니다")
    sub.add_argument(
        "--format", default="table", metavar="{" + ",".join(FORMATS) + "}", help="출력 형식 (기본 table)"
    )
    sub.add_argument("--explain", metavar="QID", help="질의 하나의 순위·문서 상태·단계표를 보입니다")
    sub.add_argument("--measure", metavar="M", help="--explain에서 단계표를 보일 지표 (기본: 첫 지표)")
    sub.add_argument("--rows", default="20", metavar="N", help="--explain에서 보일 순위 수 (기본 20)")
    _add_conventions(sub)

    sub = commands.add_parser(
        "compare",
        description="같은 질의에서 두 런 이상을 비교합니다: 첫 런(기준)과 나머지 각각의 차이, 부트스트랩 신뢰구간, "
        "대응 t 검정, 순열 검정, Holm 보정.",
        epilog=epilog_prefix + "rankmetrics compare qrels.txt base.txt new.txt --measures map ndcg_cut_10",
    )
    sub.add_argument("qrels", metavar="QRELS", help="판정 파일")
    sub.add_argument("runs", nargs="+", metavar="RUN", help="런 파일: 첫 파일이 기준입니다 (둘 이상)")
    sub.add_argument("--measures", nargs="+", required=True, metavar="MEASURE", help="지표 이름 (여럿)")
    sub.add_argument(
        "--resamples", default="9999", metavar="B", help="순열 검정과 부트스트랩의 재표집 수 (기본 9999)"
    )
    sub.add_argument("--seed", default="0", metavar="N", help="재표집의 난수 씨앗 (기본 0)")
    sub.add_argument("--format", default="table", metavar="{table,json}", help="출력 형식 (기본 table)")
    _add_conventions(sub)


def _number(text: str, option: str) -> int | float:
    try:
        value = float(text)
    except ValueError:
        raise CommandError(f"{option}에는 수를 주세요: {text!r}") from None
    return int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value


def conventions_from(args: argparse.Namespace) -> Conventions:
    """The options as one checked Conventions (a preset first, then the options given)."""
    given: dict[str, Any] = {}
    for option, (name, kind) in _SETTINGS.items():
        text = getattr(args, option)
        if text is not None:
            given[name] = _number(text, "--" + option.replace("_", "-")) if kind == "number" else text
    if args.judged_only:
        given["judged_only"] = True
    return Conventions.resolve(args.like, **given)


def _footer(n_queries: int, c: Conventions) -> str:
    from .. import __version__

    text = f"질의 {n_queries}개 · rankmetrics {__version__} · 기준 {c['reference']}"
    changed = [
        f"{name}={c[name]}"
        for name in c
        if c.source(name) == "argument" or c.source(name).startswith("preset")
    ]
    changed = [text for text in changed if not text.startswith("reference=")]
    return text + (" · " + ", ".join(changed) if changed else "")


def _record_warnings(caught: list[warnings.WarningMessage], notes: list[str]) -> None:
    for w in caught:
        if issubclass(w.category, UserWarning) and "absent from the run" in str(w.message):
            notes.append(
                "경고: 판정된 질의 가운데 런에 없는 질의를 건너뛰었습니다 (0점으로 셀 때는 --missing zero): "
            )
            notes[-1] += str(w.message).split(": ", 1)[-1].split(". Pass")[0]
        else:
            notes.append(f"경고: {w.message}")


def run_evaluate(args: argparse.Namespace) -> tuple[str, list[str]]:
    """The output of ``rankmetrics evaluate`` and the warnings for stderr."""
    from .evaluate import evaluate_measures
    from .names import parse_metrics

    if args.format not in FORMATS:
        raise CommandError(f"--format은 {', '.join(FORMATS)} 가운데 하나입니다: {args.format!r}")
    c = conventions_from(args)
    notes: list[str] = []
    if args.explain is not None:
        from .query_explanation import explain_query

        measure = args.measure or (args.measures[0] if args.measures else None)
        rows = _number(args.rows, "--rows")
        if not isinstance(rows, int) or rows < 1:
            raise CommandError(f"--rows에는 1 이상의 정수를 주세요: {args.rows!r}")
        e = explain_query(args.qrels, args.run, args.explain, measure, conventions=c)
        from .. import __version__

        return e.text(limit=rows) + f"\nrankmetrics {__version__} · 기준 {c['reference']}", notes
    if not args.measures:
        raise CommandError(
            "지표 이름을 하나 이상 주세요 (예: rankmetrics evaluate qrels.txt run.txt nDCG@10 AP)"
        )
    measures = parse_metrics(args.measures)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = evaluate_measures(args.qrels, args.run, measures, c)
    _record_warnings(caught, notes)
    return _render(result, args.per_query, args.format), notes


def _render(result: Any, per_query: bool, form: str) -> str:
    from .. import __version__
    from ..tables import text_table
    from .evaluation import _cell, _plain

    names = list(result.per_query)
    if form == "json":
        data: dict[str, Any] = {
            "rankmetrics": __version__,
            "reference": result.conventions["reference"],
            "conventions": dict(result.conventions),
            "queries": len(result.queries),
            "summary": {m: _plain(m, v) for m, v in result.summary.items()},
            "missing_queries": list(result.missing_queries),
        }
        if per_query:
            data["per_query"] = result.to_dict()["per_query"]
        return json.dumps(data, ensure_ascii=False, indent=2)
    if form in ("tsv", "csv"):
        out = io.StringIO()
        writer = csv.writer(out, delimiter="\t" if form == "tsv" else ",", lineterminator="\n")
        writer.writerow(["query", "measure", "value"])
        if per_query:
            for i, qid in enumerate(result.queries):
                for m in names:
                    writer.writerow([qid, m, _plain(m, result.per_query[m][i])])
        for m in names:
            writer.writerow(["all", m, _plain(m, result.summary[m])])
        return out.getvalue().rstrip("\n")
    footer = _footer(len(result.queries), result.conventions)
    if per_query:
        body = [
            [qid, *(_cell(m, result.per_query[m][i]) for m in names)] for i, qid in enumerate(result.queries)
        ]
        total = [["전체", *(_cell(m, result.summary[m]) for m in names)]]
        return text_table(["질의", *names], body, footer=total) + "\n" + footer
    rows = [[m, _cell(m, result.summary[m])] for m in names]
    return text_table(["지표", "값"], rows) + "\n" + footer


def run_compare(args: argparse.Namespace) -> tuple[str, list[str]]:
    """The output of ``rankmetrics compare``: each run against the first."""
    from .. import __version__
    from ..tables import text_table
    from .compare import compare

    if len(args.runs) < 2:
        raise CommandError("비교할 런 파일을 둘 이상 주세요 (첫 파일이 기준입니다)")
    if args.format not in ("table", "json"):
        raise CommandError(f"--format은 table, json 가운데 하나입니다: {args.format!r}")
    c = conventions_from(args)
    resamples, seed = _number(args.resamples, "--resamples"), _number(args.seed, "--seed")
    notes: list[str] = []
    parts, data = [], []
    for other in args.runs[1:]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = compare(
                args.runs[0],
                other,
                args.qrels,
                args.measures,
                n_resamples=resamples,
                random_state=seed,
                conventions=c,
            )
        _record_warnings(caught, notes)
        if args.format == "json":
            data.append({"a": args.runs[0], "b": other, **result.to_dict()})
            continue
        _, rows = result._table()
        settings = result.settings
        level = f"{settings.get('confidence_level', 0.95):.0%}"
        header = [
            "지표",
            "a",
            "b",
            "b − a",
            f"{level} 신뢰구간",
            "p (t 검정)",
            "p (순열)",
            "Holm p (순열)",
            "+/=/−",
        ]
        undefined = [m for m, r in result.results.items() if r.p_ttest != r.p_ttest]  # nan
        note = (
            f"\np (t 검정)가 n/a인 지표({', '.join(undefined)}): 모든 질의의 차이가 같아 t 검정을 정의할 수 없습니다."
            if undefined
            else ""
        )
        parts.append(
            f"a = {args.runs[0]}, b = {other}\n"
            + text_table(header, rows)
            + f"\n질의 {len(result.a.queries)}개, 차이 = b − a; 대응 t 검정·대응 순열 검정"
            f"({settings.get('alternative')}), {settings.get('ci_method')} 부트스트랩 신뢰구간; 지표 {len(rows)}개에 "
            f"걸친 Holm 보정; 재표집 {resamples}번, "
            f"씨앗 {seed}." + note
        )
    if args.format == "json":
        return (
            json.dumps(
                {"rankmetrics": __version__, "reference": c["reference"], "comparisons": data},
                ensure_ascii=False,
                indent=2,
            ),
            notes,
        )
    return "\n\n".join(parts) + f"\nrankmetrics {__version__} · 기준 {c['reference']}", notes
