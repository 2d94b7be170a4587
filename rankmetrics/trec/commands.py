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
import math
import warnings
from typing import Any

from ..i18n import _, ngettext
from . import presets
from .conventions import MISSING, REFERENCES, SCORE_PRECISIONS, TIES, Conventions

FORMATS = ("table", "tsv", "csv", "json")
COMPARE_FORMATS = ("table", "json")

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
_COMPARE_EXAMPLES = "rankmetrics compare qrels.txt base.txt new.txt --measures map ndcg_cut_10"


class CommandError(ValueError):
    """A refused option value, from the catalogue (the caller prints it as one line)."""


def _add_conventions(sub: argparse.ArgumentParser) -> None:
    from ..metrics.conventions import AP_DENOMINATORS, GAINS, IDEAL_SOURCES
    from .files import FRACTIONAL_GRADES

    def choices(values: tuple[str, ...]) -> str:
        return "{" + ",".join(values) + "}"

    sub.add_argument(
        "--like",
        metavar="PRESET",
        help=_("another implementation's conventions at once: trec_eval-10, trec_eval-9 …"),
    )
    sub.add_argument(
        "--reference",
        metavar=choices(REFERENCES),
        help=_(
            "the trec_eval version to follow (default trec_eval-10; trec_eval-9 = pytrec_eval, ir_measures)"
        ),
    )
    sub.add_argument(
        "--relevance-level",
        metavar="L",
        help=_("the lowest grade that counts as relevant (trec_eval -l, default 1)"),
    )
    sub.add_argument(
        "--missing",
        metavar=choices(MISSING),
        help=_("judged queries the run lacks: skip (skipped, the default) · zero (score 0, trec_eval -c)"),
    )
    sub.add_argument(
        "--ties",
        metavar=choices(TIES),
        help=_("the order of equal scores (default docno_descending, trec_eval)"),
    )
    sub.add_argument(
        "--score-precision",
        metavar=choices(SCORE_PRECISIONS),
        help=_("the precision of score comparisons (default: as --reference)"),
    )
    sub.add_argument("--gain", metavar=choices(GAINS), help=_("nDCG's gain (default linear)"))
    sub.add_argument(
        "--ideal", metavar=choices(IDEAL_SOURCES), help=_("nDCG's ideal ranking (default judged)")
    )
    sub.add_argument(
        "--denominator", metavar=choices(AP_DENOMINATORS), help=_("AP's denominator (default all_relevant)")
    )
    sub.add_argument(
        "--fractional-grades",
        metavar=choices(FRACTIONAL_GRADES),
        help=_("fractional grades such as 0.5 (default error: refused)"),
    )
    sub.add_argument(
        "--judged-only", action="store_true", help=_("ranks only the judged documents (trec_eval -J)")
    )
    sub.add_argument(
        "--max-documents",
        metavar="N",
        help=_("looks at the first N documents of each query only (trec_eval -M)"),
    )


def add_commands(commands: Any) -> None:
    """Add ``evaluate`` and ``compare`` to the command line's subparsers."""
    sub = commands.add_parser(
        "evaluate",
        description=_(
            "Computes measures from a qrels file and a run file. Measure names may be written as "
            "ir_measures writes them (nDCG@10, P@5, AP, 'RBP(p=0.8)') or as trec_eval does (ndcg_cut_10, P_5, map)."
        ),
        epilog=_("Examples:\n  {examples}").format(examples=_EVALUATE_EXAMPLES),
    )
    sub.add_argument("qrels", metavar="QRELS", help=_("the qrels file (qid 0 docno grade)"))
    sub.add_argument("run", metavar="RUN", help=_("the run file (qid Q0 docno rank score tag)"))
    sub.add_argument("measures", nargs="*", metavar="MEASURE", help=_("measure names (one or more)"))
    sub.add_argument("--per-query", action="store_true", help=_("shows each query's values too"))
    sub.add_argument(
        "--format",
        default="table",
        metavar="{" + ",".join(FORMATS) + "}",
        help=_("the output format (default table)"),
    )
    sub.add_argument(
        "--explain", metavar="QID", help=_("shows one query's ranking, document statuses and step table")
    )
    sub.add_argument(
        "--measure",
        metavar="M",
        help=_("the measure whose step table --explain shows (default: the first measure)"),
    )
    sub.add_argument(
        "--rows", default="20", metavar="N", help=_("how many ranks --explain shows (default 20)")
    )
    _add_conventions(sub)

    sub = commands.add_parser(
        "compare",
        description=_(
            "Compares two runs or more on the same queries: the difference between the first run (the baseline) "
            "and each other, bootstrap confidence intervals, the paired t-test, the permutation test, Holm's correction."
        ),
        epilog=_("Examples:\n  {examples}").format(examples=_COMPARE_EXAMPLES),
    )
    sub.add_argument("qrels", metavar="QRELS", help=_("the qrels file"))
    sub.add_argument(
        "runs", nargs="+", metavar="RUN", help=_("the run files: the first is the baseline (two or more)")
    )
    sub.add_argument(
        "--measures", nargs="+", required=True, metavar="MEASURE", help=_("measure names (one or more)")
    )
    sub.add_argument(
        "--resamples",
        default="9999",
        metavar="B",
        help=_("the number of resamples of the permutation test and the bootstrap (default 9999)"),
    )
    sub.add_argument(
        "--seed", default="0", metavar="N", help=_("the random seed of the resampling (default 0)")
    )
    sub.add_argument(
        "--format",
        default="table",
        metavar="{" + ",".join(COMPARE_FORMATS) + "}",
        help=_("the output format (default table)"),
    )
    _add_conventions(sub)


def _number(text: str, option: str) -> int | float:
    try:
        value = float(text)
    except ValueError:
        raise CommandError(_("{option} takes a number: {text!r}").format(option=option, text=text)) from None
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
    return Conventions.resolve(presets.find(args.like), **given)


def _footer(n_queries: int, c: Conventions) -> str:
    from .. import __version__

    text = ngettext(
        "{count} query · rankmetrics {version} · reference {reference}",
        "{count} queries · rankmetrics {version} · reference {reference}",
        n_queries,
    ).format(count=n_queries, version=__version__, reference=c["reference"])
    changed = [
        f"{name}={c[name]}"
        for name in c
        if c.source(name) == "argument" or c.source(name).startswith("preset")
    ]
    changed = [text for text in changed if not text.startswith("reference=")]
    return text + (" · " + ", ".join(changed) if changed else "")


def _version_line(c: Conventions) -> str:
    from .. import __version__

    return _("rankmetrics {version} · reference {reference}").format(
        version=__version__, reference=c["reference"]
    )


def _record_warnings(caught: list[warnings.WarningMessage], notes: list[str]) -> None:
    from .evaluation import AbsentQueriesWarning

    for w in caught:
        if isinstance(w.message, AbsentQueriesWarning):
            notes.append(
                _(
                    "warning: skipped the judged queries that the run lacks "
                    "(to score them 0: --missing zero): {queries}"
                ).format(queries=w.message.queries)
            )
        else:
            notes.append(_("warning: {message}").format(message=w.message))


def run_evaluate(args: argparse.Namespace) -> tuple[str, list[str]]:
    """The output of ``rankmetrics evaluate`` and the warnings for stderr."""
    from .evaluate import evaluate_measures
    from .names import parse_metrics

    if args.format not in FORMATS:
        raise CommandError(
            _("--format must be one of {choices}: {value!r}").format(
                choices=", ".join(FORMATS), value=args.format
            )
        )
    c = conventions_from(args)
    notes: list[str] = []
    if args.explain is not None:
        from .query_explanation import explain_query

        measure = args.measure or (args.measures[0] if args.measures else None)
        rows = _number(args.rows, "--rows")
        if not isinstance(rows, int) or rows < 1:
            raise CommandError(
                _("--rows takes a whole number of 1 or more: {value!r}").format(value=args.rows)
            )
        e = explain_query(args.qrels, args.run, args.explain, measure, conventions=c)

        return e.text(limit=rows) + "\n" + _version_line(c), notes
    if not args.measures:
        raise CommandError(
            _("give one measure name or more (e.g. {example})").format(
                example="rankmetrics evaluate qrels.txt run.txt nDCG@10 AP"
            )
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
    from .evaluation import cell_text, plain_value

    names = list(result.per_query)
    if form == "json":
        data: dict[str, Any] = {
            "rankmetrics": __version__,
            "reference": result.conventions["reference"],
            "conventions": dict(result.conventions),
            "queries": len(result.queries),
            "summary": {m: plain_value(m, v) for m, v in result.summary.items()},
            "missing_queries": list(result.missing_queries),
        }
        if per_query:
            data["per_query"] = result.to_dict()["per_query"]
        return _json(data)
    if form in ("tsv", "csv"):
        out = io.StringIO()
        writer = csv.writer(out, delimiter="\t" if form == "tsv" else ",", lineterminator="\n")
        writer.writerow(["query", "measure", "value"])  # column names for scripts, not words
        if per_query:
            for i, qid in enumerate(result.queries):
                for m in names:
                    writer.writerow([qid, m, plain_value(m, result.per_query[m][i])])
        for m in names:
            writer.writerow(["all", m, plain_value(m, result.summary[m])])  # trec_eval's "all"
        return out.getvalue().rstrip("\n")
    footer = _footer(len(result.queries), result.conventions)
    if per_query:
        body = [
            [qid, *(cell_text(m, result.per_query[m][i]) for m in names)]
            for i, qid in enumerate(result.queries)
        ]
        total = [[_("all"), *(cell_text(m, result.summary[m]) for m in names)]]
        return text_table([_("query"), *names], body, footer=total) + "\n" + footer
    rows = [[m, cell_text(m, result.summary[m])] for m in names]
    return text_table([_("measure"), _("value")], rows) + "\n" + footer


def run_compare(args: argparse.Namespace) -> tuple[str, list[str]]:
    """The output of ``rankmetrics compare``: each run against the first."""
    from .. import __version__
    from ..tables import text_table
    from .compare import alternative_label, compare

    if len(args.runs) < 2:
        raise CommandError(_("give two run files or more to compare (the first is the baseline)"))
    if args.format not in COMPARE_FORMATS:
        raise CommandError(
            _("--format must be one of {choices}: {value!r}").format(
                choices=", ".join(COMPARE_FORMATS), value=args.format
            )
        )
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
        _header, rows = result._table()
        settings = result.settings
        level = f"{settings.get('confidence_level', 0.95):.0%}"
        header = [
            _("measure"),
            "a",
            "b",
            "b − a",
            _("{level} confidence interval").format(level=level),
            _("p (t-test)"),
            _("p (permutation)"),
            _("Holm p (permutation)"),
            "+/=/−",
        ]
        undefined = [m for m, r in result.results.items() if r.p_ttest != r.p_ttest]  # nan
        note = (
            "\n"
            + _(
                "the measures whose p (t-test) is n/a ({measures}): every query's difference is the same, "
                "so the t-test is undefined."
            ).format(measures=", ".join(undefined))
            if undefined
            else ""
        )
        parts.append(
            f"a = {args.runs[0]}, b = {other}\n"
            + text_table(header, rows)
            + "\n"
            + _(
                "{queries} queries, difference = b − a; paired t-test and paired permutation test "
                "({alternative}), {ci_method} bootstrap confidence intervals; Holm's correction over "
                "{measures} measures; {resamples} resamples, seed {seed}."
            ).format(
                queries=len(result.a.queries),
                alternative=alternative_label(settings.get("alternative")),
                ci_method=settings.get("ci_method"),
                measures=settings["hypotheses"],
                resamples=resamples,
                seed=seed,
            )
            + note
        )
    if args.format == "json":
        return _json({"rankmetrics": __version__, "reference": c["reference"], "comparisons": data}), notes
    return "\n\n".join(parts) + "\n" + _version_line(c), notes


def _json(data: Any) -> str:
    """Strict JSON: a number that is not finite (a t-test undefined on identical runs: nan) is null.

    Python's json writes bare ``NaN``, which JSON does not have: ``JSON.parse`` and
    strict parsers refuse the whole output.
    """

    def strict(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: strict(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [strict(item) for item in value]
        if isinstance(value, float) and not math.isfinite(value):
            return None
        return value

    return json.dumps(strict(data), ensure_ascii=False, indent=2, allow_nan=False)
