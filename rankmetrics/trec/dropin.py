"""``rankmetrics trec_eval [flags] QRELS RUN``: NIST trec_eval 10.0's command line, byte for byte.

``main(argv, stdout, stderr, stdin)`` takes trec_eval's arguments (without the
program name) and prints what trec_eval 10.0 prints: ``-q`` per-query lines,
then the ``all`` lines, each measure in the order of trec_eval's measure table
(``measures.c``), as ``%-22s\\t%s\\t%6.4f`` (counts as integers, ``relstring``
and ``runid`` as text). It returns trec_eval's exit code: 1 for a bad command
line or measure, 2 for a file it cannot read or a malformed line, 4 for a
judged query that the run lacks (without ``-c``) or a document listed twice
in a query, after the lines of the queries before it.

Where the values come from:

* the files are read by the package's one reader (:func:`rankmetrics.trec.dropin_files.read_as`)
  with trec_eval 10.0's line rules declared as data
  (:data:`~rankmetrics.trec.dropin_files.QRELS_TREC_EVAL_10`,
  :data:`~rankmetrics.trec.dropin_files.RUN_TREC_EVAL_10`): which lines are comments
  (in qrels a ``#`` in column 0, never two in a row; in runs any ``#``-first
  line), a blank qrels line is malformed, the line numbers trec_eval counts,
  its messages. The *numbers* follow the package's rules: where trec_eval's
  ``atof``/``atol`` would silently read a score ``abc`` as 0, ``0x10`` as 16,
  ``1e400`` as inf or a grade ``1x`` as 1 or ``0.5`` as 0, this prints one
  line naming the file and the line and exits 2. A run file named ``-`` (any
  name starting with ``-``) is the standard input, as in 10.0;
* the values are computed by :func:`rankmetrics.trec.evaluate.evaluate_measures`
  with :class:`~rankmetrics.trec.names.Measure` objects built here from
  trec_eval's own parameter syntax, so that what trec_eval accepts
  (``set_F.-0.5``: F = -2) is computed even where the package's name parser
  refuses it;
* what is trec_eval 10.0's own and done here: ``-c`` scores a judged query
  missing from the run on one unjudged document, then zeroes only the lines
  named exactly ``num_ret``, ``utility``, ``relstring``, ``rbp_resid`` or
  starting with ``unj`` (``trec_eval.c``), and its ``all`` line of ``num_rel``
  counts every grade above 0 in the qrels whatever ``-l`` says
  (``m_num_rel.c``); ``-nan`` where trec_eval divides 0 by 0 (a query with
  nothing retrieved, e.g. under ``-J``: ``iprec_at_recall_r`` for every r with
  lround(r·R) = 0, and ``11pt_avg``; the Python API gives 0 there).

Refused with one line and a non-zero exit, where trec_eval does something
else: ``-Z`` (z-scores), ``-D`` (debugging output), ``-o``, rel_info and
results formats other than ``qrels`` and ``trec_results``, the preference and
``qrels_jg`` measures, ``-h`` with ``-m`` (trec_eval adds each measure's
description), and the inputs on which trec_eval 10.0 crashes: a comment on the
last line of a qrels file (it reads past the buffer), and ``dcg`` or
``ideal_dcg`` together with ``ndcg``, ``dcg`` or ``ideal_dcg`` when one of
them has a gain map (a double free). ``-h`` prints trec_eval 10.0's own help
text (``data/trec_eval_10_help.txt``, NIST's notice beside it).
"""

from __future__ import annotations

import getopt
import math
import os
import sys
from pathlib import Path
from typing import IO, Any

from ..i18n import use_language
from .dropin_measures import (  # noqa: F401  (measure_names: the drop-in's public helper)
    MEASURES,
    NICKNAMES,
    OURS,
    RECALLS,
    Stop,
    decimal_number,
    measure_names,
    package_measures,
    requested_measures,
    whole_number,
)

VERSION = "10.0"
FAKE_DOCNO = "ceci_nest_pas_un_docno"  # trec_eval 10.0's one document for a missing query under -c
DATA = Path(__file__).resolve().parent / "data"

_ZEROED_FOR_FAKE = ("num_ret", "utility", "relstring", "rbp_resid")  # and every name starting with "unj"
_NO_RANKING = ("runid", "num_q")  # measures that never form a query's ranking (form_res_rels.c)
_SHARED_GAINS = ("ndcg", "dcg", "ideal_dcg")  # one gain table in trec_eval 10.0 (gain_init.c)
_DEFAULT_11PT = RECALLS

_SHORT = "hvqm:cl:nD:JN:M:R:T:oZ:"
_LONG = [
    "help",
    "version",
    "query_eval_wanted",
    "measure=",
    "complete_rel_info_wanted",
    "level_for_rel=",
    "nosummary",
    "Debug_level=",
    "Judged_docs_only",
    "Number_docs_in_coll=",
    "Max_retrieved_per_topic=",
    "Rel_info_format=",
    "Results_format=",
    "Output_old_results_format",
    "Zscore=",
]
_LETTER = {
    "--help": "-h",
    "--version": "-v",
    "--query_eval_wanted": "-q",
    "--measure": "-m",
    "--complete_rel_info_wanted": "-c",
    "--level_for_rel": "-l",
    "--nosummary": "-n",
    "--Debug_level": "-D",
    "--Judged_docs_only": "-J",
    "--Number_docs_in_coll": "-N",
    "--Max_retrieved_per_topic": "-M",
    "--Rel_info_format": "-R",
    "--Results_format": "-T",
    "--Output_old_results_format": "-o",
    "--Zscore": "-Z",
}
_PROGRESS_BYTES = 50_000_000  # a file this large shows a progress bar (on a terminal)


def _text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def _shown(metric: Any, value: Any) -> str:
    if metric.text is not None:
        return metric.text.format(value)
    if metric.count:
        return f"{int(value)}"
    value = float(value)
    return f"{value:6.4f}" if not math.isnan(value) else "  -nan"  # trec_eval's 0.0/0.0 is -nan


def _line(name: str, qid: str, value: str) -> str:
    return f"{name:<22}\t{qid}\t{value}\n"


def _progress(path: str, size: int | None, err: IO[str]) -> Any:
    """A tqdm bar on a terminal's stderr for a large file; None when piped, in CI or without tqdm."""
    isatty = getattr(err, "isatty", None)
    if not size or size < _PROGRESS_BYTES or os.environ.get("CI") or not (isatty and isatty()):
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=size, unit="B", unit_scale=True, desc=os.path.basename(path), file=err, leave=False)


def _read(path: str, fmt: Any, stdin: IO[str] | None, err: IO[str]) -> Any:
    from . import dropin_files

    size = os.path.getsize(path) if stdin is None and os.path.isfile(path) else None
    bar = _progress(path, size, err)
    try:
        return dropin_files.read_as(path if stdin is None else stdin, fmt, path, bar.update if bar else None)
    except dropin_files.LinesStop as stop:
        raise Stop(stop.exit_code, stop.message) from None
    except ValueError as error:
        raise Stop(fmt.lines.read_exit, f"{OURS}{error}\n") from None
    finally:
        if bar is not None:
            bar.close()


def _crashes(requested: list[tuple[str, list[tuple[str, Any]]]]) -> str | None:
    """Why trec_eval 10.0 would crash on these measures (undefined behaviour), or None."""
    shared = [(name, printed) for name, printed in requested if name in _SHARED_GAINS]
    with_gains = [name for name, printed in shared if printed[0][1] is not None]
    if len(shared) > 1 and with_gains and {"dcg", "ideal_dcg"} & {name for name, _ in shared}:
        together = ", ".join(name for name, _ in shared)
        return (
            f"{OURS}{together} together, with a gain map for {with_gains[0]}, make trec_eval 10.0 "
            "crash (they share one gain table); ask for them in separate runs\n"
        )
    return None


def run_trec_eval(
    options: dict[str, Any], qrels_path: str, run_path: str, stdin: IO[str] | None, out: IO[str], err: IO[str]
) -> None:
    from . import dropin_files, files

    if options["rel_format"] != "qrels":
        raise Stop(1, f"{OURS}-R {options['rel_format']}: only the rel_info format 'qrels' is supported\n")
    if options["results_format"] != "trec_results":
        raise Stop(
            1, f"{OURS}-T {options['results_format']}: only the results format 'trec_results' is supported\n"
        )
    requested = requested_measures(options["measures"] or ["official"])
    crash = _crashes(requested)
    if crash:
        raise Stop(1, crash)
    qrels_read = _read(qrels_path, dropin_files.QRELS_TREC_EVAL_10, None, err)
    run_read = _read(
        run_path, dropin_files.RUN_TREC_EVAL_10, stdin if run_path.startswith("-") else None, err
    )
    judged = qrels_read.records
    qrels = files.nest(judged, grades=True)
    run = files.nest(run_read.records, grades=False)
    positive = int((judged.values > 0).sum())  # -c's 'all' num_rel: every grade > 0 (m_num_rel.c)
    tag = run_read.tag or ""
    rules = dropin_files.RUN_TREC_EVAL_10.lines

    # The first measure that ranks the documents is the one that finds a duplicate and names it;
    # runid and num_q never look, and with nothing else a duplicate goes unnoticed (as in 10.0).
    first = next((name for name, _ in requested if name not in _NO_RANKING), None)
    complete = options["complete"]
    stop: Stop | None = None
    scored: list[str] = []
    for qid in sorted(qrels, key=lambda q: q.encode("utf-8")):  # trec_eval's strcmp order
        if qid not in run and not complete:
            stop = Stop(rules.evaluate_exit, rules.missing_query.format(qid=qid))
            break
        for read, fmt in (
            (run_read, dropin_files.RUN_TREC_EVAL_10),
            (qrels_read, dropin_files.QRELS_TREC_EVAL_10),
        ):
            if first is not None and qid in read.duplicates:  # the run's are found first (form_res_rels.c)
                message = fmt.lines.duplicate.format(docno=read.duplicates[qid], measure=first)
                stop = Stop(fmt.lines.evaluate_exit, message)
                break
        rules_of_qrels = dropin_files.QRELS_TREC_EVAL_10.lines
        if stop is None and first is not None and not scored and max(qrels[qid].values()) < 0:
            # The first query evaluated has no grade >= 0: trec_eval 10.0 fails here (a later such
            # query is scored normally).
            stop = Stop(rules_of_qrels.evaluate_exit, rules_of_qrels.no_judgement.format(measure=first))
        if stop is not None:
            break
        scored.append(qid)

    printed = [(text, value) for _, names in requested for text, value in names]
    per_query, summary, metric_of = _values(options, requested, scored, qrels, run, positive)
    summary["runid"] = tag
    if options["queries"]:
        for qid in scored:
            for text, _ in printed:
                if text != "runid" and metric_of[text].trec_lines != "all":
                    out.write(_line(text, qid, _shown(metric_of[text], per_query[text][qid])))
    if stop is not None:
        raise stop
    if not scored:
        raise Stop(7, "trec_eval: No queries with both results and relevance info\n")
    if options["summary"]:
        for text, _ in printed:
            if text == "runid":
                if run_read.tag is None:  # no results line: 10.0 prints uninitialised memory
                    raise Stop(
                        2,
                        f"{OURS}{run_path} has no results line: trec_eval 10.0's runid is then not defined\n",
                    )
                out.write(_line(text, "all", tag))
            elif metric_of[text].trec_lines != "queries":
                out.write(_line(text, "all", _shown(metric_of[text], summary[text])))


def _values(
    options: dict[str, Any],
    requested: list[tuple[str, list[tuple[str, Any]]]],
    scored: list[str],
    qrels: dict[str, dict[str, int]],
    run: dict[str, dict[str, float]],
    positive: int,
) -> tuple[dict[str, dict[str, Any]], dict[str, Any], dict[str, Any]]:
    """Every printed value per query and for 'all', and each printed name's registered metric."""
    from ..registry import METRICS
    from .conventions import Conventions
    from .evaluate import evaluate_measures
    from .names import Measure

    built = package_measures(requested)
    metric_of = {text: m.metric for text, m in built.items()}
    if not scored or not built:
        return {text: {} for text in built}, {}, metric_of
    fakes = {qid for qid in scored if qid not in run}
    rankings = {qid: run[qid] for qid in scored if qid in run}
    rankings.update({qid: {FAKE_DOCNO: 0.0} for qid in fakes})
    depth = options["max_documents"]
    if depth is not None and depth <= 0:  # -M 0: nothing retrieved, every query scored on an empty list
        rankings, depth = {}, None
    # Two counts for trec_eval's 0/0 (-nan): documents retrieved (after -M and -J) and R.
    retrieved = Measure("num_ret (retrieved)", METRICS["num_ret"], None)
    relevant = Measure("num_rel (relevant)", METRICS["num_rel"], None)
    conventions = Conventions(
        relevance_level=options["level"],
        missing="zero",  # every scored query has a ranking, but with -M 0
        score_precision="float64",
        judged_only=options["judged_only"],
        max_documents=depth,
    )
    try:
        result = evaluate_measures(
            {qid: qrels[qid] for qid in scored}, rankings, [*built.values(), retrieved, relevant], conventions
        )
    except ValueError as error:
        raise Stop(1, f"{OURS}{error}\n") from None
    queries = list(result.queries)
    n_retrieved = result.per_query[retrieved.name]
    n_relevant = result.per_query[relevant.name]
    per_query: dict[str, dict[str, Any]] = {}
    summary: dict[str, Any] = {}
    for text, measure in built.items():
        values = list(result.per_query[text])
        changed = False
        if measure.metric.name in ("interpolated_precision", "eleven_point_average"):
            levels = (
                [measure.parameter]
                if measure.metric.name == "interpolated_precision"
                else list(measure.parameter or _DEFAULT_11PT)
            )
            for i in range(len(values)):
                if n_retrieved[i] == 0 and any(_lround(r * n_relevant[i]) == 0 for r in levels):
                    values[i], changed = math.nan, True  # trec_eval divides 0 by 0 here
        if fakes and (text in _ZEROED_FOR_FAKE or text.startswith("unj")):
            for i, qid in enumerate(queries):
                if qid in fakes:
                    values[i], changed = ("" if measure.metric.text is not None else 0), True
        per_query[text] = dict(zip(queries, values))
        summary[text] = result.summary[text]
        if changed and measure.metric.summary in ("mean", "sum"):
            total = 0.0
            for value in values:  # one at a time, in query order, as trec_eval adds
                total += float(value)
            summary[text] = total if measure.metric.summary == "sum" else total / len(values)
        if text == "num_rel" and options["complete"]:
            summary[text] = positive
    return per_query, summary, metric_of


def _lround(x: float) -> int:
    """C's lround: to the nearest integer, halves away from zero."""
    return math.floor(abs(x) + 0.5) * (1 if x >= 0 else -1)


def main(
    argv: list[str] | None = None,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
    stdin: IO[str] | None = None,
) -> int:
    """Run trec_eval 10.0's command line (``argv`` without the program name); return its exit code.

    ``stdin`` is read for a run file named ``-`` (default: ``sys.stdin``'s bytes), a text
    or binary file object.

    The drop-in speaks trec_eval's English, whatever ``RANKMETRICS_LANG`` or
    :func:`rankmetrics.set_language` says: its output, its refusals included, is compared
    byte for byte by the scripts it replaces.
    """
    with use_language("en"):
        return _main(argv, stdout, stderr, stdin)


def _main(
    argv: list[str] | None, stdout: IO[str] | None, stderr: IO[str] | None, stdin: IO[str] | None
) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    out = sys.stdout if stdout is None else stdout
    err = sys.stderr if stderr is None else stderr
    options: dict[str, Any] = {
        "queries": False,
        "complete": False,
        "summary": True,
        "judged_only": False,
        "level": 1,
        "max_documents": None,
        "rel_format": "qrels",
        "results_format": "trec_results",
        "measures": [],
    }
    try:
        try:
            given, files = getopt.gnu_getopt(argv, _SHORT, _LONG)
        except getopt.GetoptError as error:
            shown = f"invalid option -- '{error.opt}'" if error.opt else error.msg
            raise Stop(1, f"trec_eval: {shown}\n" + _text("trec_eval_10_usage.txt")) from None
        wants_help = False
        for flag, value in given:
            flag = _LETTER.get(flag, flag)
            if flag == "-h":
                wants_help = True
            elif flag == "-v":
                err.write(f"trec_eval version {VERSION}-rc3 (rankmetrics drop-in)\n")
                return 0
            elif flag == "-q":
                options["queries"] = True
            elif flag == "-m":
                name, dot, parameters = value.partition(".")
                if dot and not parameters:
                    raise Stop(
                        1,
                        f"trec_eval: improper measure in parameter '{name}'\ntrec_eval: illegal measure '{name}'\n",
                    )
                if name not in MEASURES and name not in NICKNAMES:
                    if name in ("prefs", "all_prefs", "qrels_jg") or name.startswith("prefs_"):
                        raise Stop(
                            1,
                            f"{OURS}measure '{name}' is not supported: preference and qrels_jg "
                            "measures need the prefs and qrels_jg formats\n",
                        )
                    raise Stop(1, f"trec_eval: illegal measure '{name}'\n")
                options["measures"].append(value)
            elif flag == "-c":
                options["complete"] = True
            elif flag == "-l":
                options["level"] = whole_number(value, "-l (the relevance level)")
            elif flag == "-n":
                options["summary"] = False
            elif flag == "-J":
                options["judged_only"] = True
            elif flag == "-M":
                options["max_documents"] = whole_number(value, "-M (documents per query)")
            elif flag == "-N":
                whole_number(value, "-N (documents in the collection)")  # changes no measure printed here
            elif flag == "-R":
                options["rel_format"] = value
            elif flag == "-T":
                options["results_format"] = value
            elif flag == "-Z":
                raise Stop(1, f"{OURS}-Z (z-scores) is not supported\n")
            elif flag == "-D":
                raise Stop(1, f"{OURS}-D (trec_eval's debugging output) is not supported\n")
            elif flag == "-o":
                raise Stop(1, f"{OURS}-o (the old output format) is not supported\n")
        if wants_help:
            if options["measures"]:
                raise Stop(
                    1,
                    f"{OURS}-h with -m would add each measure's description, which the drop-in "
                    "does not have; run -h alone\n",
                )
            out.write(_text("trec_eval_10_help.txt"))
            return 0
        if len(files) != 2:
            raise Stop(1, _text("trec_eval_10_usage.txt"))
        given_stdin = getattr(sys.stdin, "buffer", sys.stdin) if stdin is None else stdin  # bytes: no locale
        run_trec_eval(options, files[0], files[1], given_stdin, out, err)
    except Stop as stop:
        out.flush()
        err.write(stop.message)
        return stop.code
    return 0


if __name__ == "__main__":
    sys.exit(main())
