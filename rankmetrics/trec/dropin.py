"""A drop-in for NIST trec_eval 10.0's command line, computed by :func:`rankmetrics.evaluate`.

``main(argv, stdout, stderr)`` takes trec_eval's arguments (without the program
name) and prints what trec_eval 10.0 prints on the standard output, line for
line: ``-q`` per-query lines, then the ``all`` lines, each measure in the
order of trec_eval's measure table (``measures.c``), as ``%-22s\\t%s\\t%6.4f``
(counts as integers, ``relstring`` and ``runid`` as text). It returns
trec_eval's exit code: 1 for a bad command line or measure, 2 for a file it
cannot read or a malformed line, 4 for a judged query that the run lacks
(without ``-c``).

What is trec_eval 10.0's own, and done here rather than in :func:`evaluate`:

* reading the two files as trec_eval 10.0 does (``get_qrels.c``,
  ``get_trec_results.c``): a qrels line is exactly ``qid iter docno rel`` with
  the grade read by C's ``atol``; a line starting with ``#`` is skipped, but in
  qrels only one such line in a row (the second is read as a judgement); a
  blank qrels line is malformed. A run line has at least six fields; blank lines
  and lines whose first non-blank character is ``#`` are skipped; the score is
  read by C's ``atof`` into a double (``score_precision="float64"``); the run's
  tag is the last line's. A run file name starting with ``-`` is the standard
  input;
* the measures: trec_eval's names and its ``-m name.params`` syntax, the
  nicknames (``official``, ``all_trec``, ``set``), default parameters, and for a
  measure given twice, the first ``-m`` that gives it parameters;
* ``-c``: each judged query missing from the run is scored on a ranking of one
  unjudged document, after which only the lines named exactly ``num_ret``,
  ``utility``, ``relstring``, ``rbp_resid`` and those starting with ``unj`` are
  zeroed (trec_eval.c), and the ``all`` line of ``num_rel`` counts every grade
  above 0 in the qrels, whatever ``-l`` says (``m_num_rel.c``).

Not supported: ``-Z`` (z-scores), ``-R``/``-T`` formats other than ``qrels`` and
``trec_results``, the preference measures, ``dcg`` and ``ideal_dcg``; ``-h``
prints this module's own help, ``-v`` its own version line; ``-D`` and ``-o`` are
accepted and ignored. Where trec_eval 10.0 prints ``-nan`` (``-J`` and a query
with no judged document retrieved: iprec_at_recall_r = 0/0 for each r with
lround(r·R) = 0, and 11pt_avg) the package's value, 0, is printed.
"""

from __future__ import annotations

import getopt
import math
import re
import sys
import warnings
from typing import IO, Any

from .evaluate import evaluate, parse_metric

VERSION = "10.0"
FAKE_DOCNO = "ceci_nest_pas_un_docno"  # trec_eval 10.0's one document for a missing query under -c

_ALL_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALLS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

# trec_eval 10.0's measures for qrels and trec_results, in the order of its measure table,
# with the kind of parameter each takes and its default: "long" cutoffs are printed
# name_5, "double" cutoffs name_0.10, "text" parameters as written (utility_1,-1,0,0),
# pairs (ndcg_1=3,2=9) too.
MEASURES: dict[str, tuple[str, tuple]] = {
    "runid": ("none", ()),
    "num_q": ("none", ()),
    "num_ret": ("none", ()),
    "num_rel": ("none", ()),
    "num_rel_ret": ("none", ()),
    "map": ("none", ()),
    "gm_map": ("none", ()),
    "Rprec": ("none", ()),
    "bpref": ("none", ()),
    "recip_rank": ("none", ()),
    "iprec_at_recall": ("double", _RECALLS),
    "P": ("long", _ALL_CUTOFFS),
    "relstring": ("text", ()),
    "recall": ("long", _ALL_CUTOFFS),
    "infAP": ("none", ()),
    "gm_bpref": ("none", ()),
    "Rprec_mult": ("double", (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    "utility": ("text", ()),
    "11pt_avg": ("text", ()),
    "binG": ("none", ()),
    "G": ("pairs", ()),
    "dcg": ("pairs", ()),
    "ideal_dcg": ("pairs", ()),
    "ndcg": ("pairs", ()),
    "ndcg_rel": ("pairs", ()),
    "Rndcg": ("pairs", ()),
    "ndcg_cut": ("long", _ALL_CUTOFFS),
    "map_cut": ("long", _ALL_CUTOFFS),
    "relative_P": ("long", _ALL_CUTOFFS),
    "success": ("long", (1, 5, 10)),
    "set_P": ("none", ()),
    "set_relative_P": ("none", ()),
    "set_recall": ("none", ()),
    "set_map": ("none", ()),
    "set_F": ("text", ()),
    "num_nonrel_judged_ret": ("none", ()),
    "rbp": ("pairs", ()),
    "rbp_resid": ("pairs", ()),
    "unj": ("long", (5, 10, 20)),
}
_OFFICIAL = [
    "runid",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "map",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    "iprec_at_recall",
    "P",
]
NICKNAMES: dict[str, list[str]] = {
    "official": _OFFICIAL,
    "all_trec": [name for name in MEASURES if name not in ("dcg", "ideal_dcg")],
    "set": [
        "runid",
        "num_q",
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "utility",
        "set_P",
        "set_recall",
        "set_relative_P",
        "set_map",
        "set_F",
    ],
}
_ZEROED_FOR_FAKE = ("num_ret", "utility", "relstring", "rbp_resid")  # and every name starting with "unj"

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
    "Output_old_results_format=",
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
USAGE = """Usage: trec_eval [-h] [-q] [-c] [-n] [-J] [-l N] [-N N] [-M N] {-m measure[.params]}*
                 rel_info_file results_file
(rankmetrics' drop-in for NIST trec_eval 10.0; -h for more)
"""


class _Stop(Exception):
    """trec_eval would exit here with this code, after the message (to stderr)."""

    def __init__(self, code: int, message: str = ""):
        super().__init__(message)
        self.code = code
        self.message = message


def _atol(text: str) -> int:
    match = re.match(r"[ \t\n\v\f\r]*([+-]?[0-9]+)", text)
    return int(match.group(1)) if match else 0


_FLOAT = re.compile(
    r"[ \t\n\v\f\r]*(?:(?P<hex>[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?)"
    r"|(?P<decimal>[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?(?:inf(?:inity)?|nan)))",
    re.IGNORECASE,
)


def _atof(text: str) -> float:
    """C's atof (strtod): the longest number at the start, hexadecimal too; 0.0 if none."""
    match = _FLOAT.match(text)
    if match is None:
        return 0.0
    if match["hex"]:
        number = match["hex"]
        return float.fromhex(number if "p" in number.lower() else number + "p0")
    return float(match["decimal"])


def _finite(scores: dict[str, float]) -> dict[str, float]:
    """Scores with the same order and ties, all finite: a score of ±inf becomes a rank.

    trec_eval orders by score only (then by docno), so each distinct score can be
    replaced by its rank among the query's distinct scores without changing any value.
    """
    if all(math.isfinite(score) for score in scores.values()):
        return scores
    rank = {score: float(i) for i, score in enumerate(sorted(set(scores.values())))}
    return {docno: rank[score] for docno, score in scores.items()}


_SPACE = " \t\n\v\f\r"  # C's isspace; str.split() would also split on Unicode spaces


def _fields(line: str) -> list[str]:
    stripped = line.strip(_SPACE)
    return re.split(f"[{_SPACE}]+", stripped) if stripped else []


def _read(path: str, what: str, stdin: IO[str] | None) -> str:
    try:
        if stdin is not None:
            return stdin.read()
        with open(path, encoding="utf-8", errors="surrogateescape", newline="") as handle:
            text = handle.read()
    except OSError:
        text = ""
    if not text:
        kind = "qrels" if what == "get_qrels" else "results"
        raise _Stop(
            2, f"trec_eval.{what}: Cannot read {kind} file '{path}'\ntrec_eval: Quit in file '{path}'\n"
        )
    return text


def read_qrels(path: str) -> tuple[dict[str, dict[str, int]], int, dict[str, str]]:
    """trec_eval 10.0's reading of a qrels file.

    The judgements, the count of grades > 0 (the 'all' num_rel of -c), and for
    each query a docno judged twice, if any (trec_eval stops on it).
    """
    text = _read(path, "get_qrels", None)
    judgements: dict[str, dict[str, int]] = {}
    duplicates: dict[str, str] = {}
    positive = 0
    parsed = 0
    skipped_before = False
    for line in text.split("\n")[: -1 if text.endswith("\n") else None]:
        if line.startswith("#") and not skipped_before:
            skipped_before = True  # one comment is skipped; a second in a row is read as a judgement
            continue
        skipped_before = False
        parsed += 1
        fields = _fields(line)
        if len(fields) != 4:
            raise _Stop(
                2, f"trec_eval.get_qrels: Malformed line {parsed}\ntrec_eval: Quit in file '{path}'\n"
            )
        qid, _, docno, grade = fields
        grades = judgements.setdefault(qid, {})
        if docno in grades:
            duplicates.setdefault(qid, docno)
        grades[docno] = _atol(grade)
        positive += _atol(grade) > 0
    return judgements, positive, duplicates


def read_run(path: str, stdin: IO[str] | None) -> tuple[dict[str, dict[str, float]], str, dict[str, str]]:
    """trec_eval 10.0's reading of a run: scores, the last line's tag, and each query's first duplicate."""
    text = _read(path, "get_results", stdin if path.startswith("-") else None)
    run: dict[str, dict[str, float]] = {}
    duplicates: dict[str, str] = {}
    tag = ""
    parsed = 0
    for line in text.split("\n"):
        stripped = line.lstrip(" \t\v\f\r")
        if not stripped or stripped.startswith("#"):
            continue
        parsed += 1
        fields = _fields(line)
        if len(fields) < 6:
            raise _Stop(
                2, f"trec_eval.get_results: Malformed line {parsed}\ntrec_eval: Quit in file '{path}'\n"
            )
        qid, _, docno, _, score, tag = fields[:6]
        scores = run.setdefault(qid, {})
        if docno in scores:
            duplicates.setdefault(qid, docno)
        scores[docno] = _atof(score)
        if math.isnan(scores[docno]):  # trec_eval's sort is undefined then
            raise _Stop(2, f"trec_eval (rankmetrics): line {parsed}: a score of nan cannot be ranked\n")
    return run, tag, duplicates


def _cutoff_name(name: str, kind: str, value: float) -> str:
    return f"{name}_{int(value)}" if kind == "long" else f"{name}_{value:3.2f}"


def measure_names(specs: list[str]) -> list[tuple[str, list[str]]]:
    """The requested measures in trec_eval's table order, each with the names it prints.

    ``specs`` are the values of trec_eval's ``-m`` options. Cutoffs are sorted;
    for a measure given twice, the first ``-m`` with parameters decides.

    Examples
    --------
    >>> measure_names(["P.10,5", "map", "P.20"])
    [('map', ['map']), ('P', ['P_5', 'P_10'])]
    >>> measure_names(["iprec_at_recall.0.5", "utility.1,-1,0,0"])
    [('iprec_at_recall', ['iprec_at_recall_0.50']), ('utility', ['utility_1,-1,0,0'])]
    """
    marked: set[str] = set()
    parameters: dict[str, str] = {}
    for spec in specs:
        name, dot, given = spec.partition(".")
        if dot:
            parameters.setdefault(name, given)  # the first -m that gives parameters wins
        names = NICKNAMES.get(name, [name])
        if any(n not in MEASURES for n in names):
            raise _Stop(1, f"trec_eval: illegal measure '{name}'\n")
        marked.update(names)
    chosen = []
    for name, (kind, default) in MEASURES.items():
        if name not in marked:
            continue
        given = parameters.get(name)
        if kind in ("long", "double"):
            values: list[Any] = list(default)
            if given is not None:
                read = _atol if kind == "long" else _atof
                values = sorted(read(part) for part in given.split(","))
                if kind == "long" and values[0] <= 0:
                    raise _Stop(
                        2,
                        f"trec_eval: Negative cutoff detected\ntrec_eval: Cannot initialize measure '{name}'\n",
                    )
                if len(set(values)) != len(values):
                    raise _Stop(
                        2,
                        f"trec_eval: duplicate cutoffs detected\ntrec_eval: Cannot initialize measure '{name}'\n",
                    )
            chosen.append((name, [_cutoff_name(name, kind, value) for value in values]))
        elif kind in ("text", "pairs") and given is not None:
            chosen.append((name, [f"{name}_{given}"]))
        else:
            chosen.append((name, [name]))
    return chosen


def _shown(name: str, value: Any) -> str:
    metric = parse_metric(name).metric
    if metric.text is not None:
        return metric.text.format(value)
    if metric.count:
        return f"{int(value)}"
    value = float(value)
    return f"{value:6.4f}" if not math.isnan(value) else "  -nan"


def _line(name: str, qid: str, value: Any) -> str:
    return f"{name:<22}\t{qid}\t{value}\n"


def run_trec_eval(
    options: dict[str, Any], qrels_path: str, run_path: str, stdin: IO[str] | None, out: IO[str]
) -> None:
    if options["rel_format"] != "qrels":
        raise _Stop(2, f"trec_eval: Illegal rel_format '{options['rel_format']}'\n")
    qrels, positive, judged_twice = read_qrels(qrels_path)
    if options["results_format"] != "trec_results":
        raise _Stop(2, f"trec_eval: Illegal retrieval results format '{options['results_format']}'\n")
    run, tag, duplicates = read_run(run_path, stdin)
    requested = measure_names(options["measures"] or ["official"])
    unsupported = [name for name, _ in requested if name in ("dcg", "ideal_dcg")]
    if unsupported:
        raise _Stop(1, f"trec_eval (rankmetrics): measure '{unsupported[0]}' is not supported\n")
    printed = [n for _, names in requested for n in names]
    computed = [n for n in printed if n != "runid"]

    order = sorted(qrels, key=lambda q: q.encode("utf-8", "surrogateescape"))
    complete = options["complete"]
    stop: _Stop | None = None
    scored: list[str] = []
    for qid in order:
        if qid not in run and not complete:
            stop = _Stop(4, f"trec_eval: result qid '{qid}' not found in qrels\n")
            break
        twice = (
            f"trec_eval.form_res_qrels: duplicate docs {duplicates[qid]}"  # sic: no newline
            if qid in duplicates
            else f"trec_eval.form_res_rels: duplicate docs {judged_twice[qid]}\n"
            if qid in judged_twice
            else ""
        )
        if twice:
            stop = _Stop(4, twice + f"trec_eval: Can't calculate measure '{requested[0][0]}'\n")
            break
        scored.append(qid)
    fakes = {qid for qid in scored if qid not in run}
    rankings = {qid: _finite(run[qid]) for qid in scored if qid in run}
    rankings.update({qid: {FAKE_DOCNO: 1.0} for qid in fakes})
    depth = options["max_documents"]
    if depth is not None and depth <= 0:  # -M 0: nothing retrieved, every query scored on an empty list
        rankings, depth = {}, None

    per_query: dict[str, dict[str, Any]] = {qid: {} for qid in scored}
    summary: dict[str, Any] = {}
    if scored and computed:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = evaluate(
                {qid: qrels[qid] for qid in scored},
                rankings,
                computed,
                relevance_level=options["level"],
                score_precision="float64",
                judged_only=options["judged_only"],
                max_documents=depth,
                missing="zero",  # only with -M 0: every query here has a ranking otherwise
            )
        for name in computed:
            values = result.per_query[name]
            zero = name in _ZEROED_FOR_FAKE or name.startswith("unj")
            for i, qid in enumerate(result.queries):
                value = values[i]
                if qid in fakes and zero:
                    value = "" if name == "relstring" else 0
                per_query[qid][name] = value
            summary[name] = result.summary[name]
            if fakes and zero and name != "relstring":
                column = [float(per_query[qid][name]) for qid in result.queries]
                metric = parse_metric(name).metric
                summary[name] = sum(column) if metric.count else sum(column) / len(column)
        if complete and "num_rel" in summary:
            summary["num_rel"] = positive
    summary["runid"] = tag
    lines_of = {name: parse_metric(name).metric.trec_lines for name in computed}
    lines_of["runid"] = "all"
    if options["queries"]:
        for qid in scored:
            for name in printed:
                if lines_of[name] != "all":
                    out.write(_line(name, qid, _shown(name, per_query[qid][name])))
    if stop is not None:
        raise stop
    if not scored:
        raise _Stop(7, "trec_eval: No queries with both results and relevance info\n")
    if options["summary"]:
        for name in printed:
            if lines_of[name] != "queries":
                value = summary[name] if name != "runid" else tag
                out.write(_line(name, "all", value if name == "runid" else _shown(name, value)))


def _help() -> str:
    names = ", ".join(MEASURES)
    return (
        USAGE
        + "\nPrints what NIST trec_eval 10.0 prints, computed by rankmetrics.evaluate.\n"
        + f"Measures (trec_eval's names, -m name or -m name.params): {names}.\n"
        + "Nicknames: "
        + ", ".join(NICKNAMES)
        + ".\n"
    )


def main(
    argv: list[str] | None = None,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
    stdin: IO[str] | None = None,
) -> int:
    """Run trec_eval 10.0's command line (``argv`` without the program name); return its exit code.

    ``stdin`` is read for a run file named ``-`` (default: ``sys.stdin``).
    """
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
            raise _Stop(1, f"trec_eval: {error}\n{USAGE}") from None
        wants_help = False
        for flag, value in given:
            flag = _LETTER.get(flag, flag)
            if flag == "-h":
                wants_help = True
            elif flag == "-v":
                err.write(f"trec_eval version {VERSION} (rankmetrics drop-in)\n")
                return 0
            elif flag == "-q":
                options["queries"] = True
            elif flag == "-m":
                name, dot, parameters = value.partition(".")
                if dot and not parameters:
                    raise _Stop(
                        1,
                        f"trec_eval: improper measure in parameter '{name}'\ntrec_eval: illegal measure '{name}'\n",
                    )
                if name not in MEASURES and name not in NICKNAMES:
                    raise _Stop(1, f"trec_eval: illegal measure '{name}'\n")
                options["measures"].append(value)
            elif flag == "-c":
                options["complete"] = True
            elif flag == "-l":
                options["level"] = _atol(value)
            elif flag == "-n":
                options["summary"] = False
            elif flag == "-J":
                options["judged_only"] = True
            elif flag == "-M":
                options["max_documents"] = _atol(value)
            elif flag == "-R":
                options["rel_format"] = value
            elif flag == "-T":
                options["results_format"] = value
            elif flag == "-Z":
                raise _Stop(1, "trec_eval (rankmetrics): -Z (z-scores) is not supported\n")
            # -N (documents in the collection), -D (debugging) and -o change no printed value here.
        if wants_help:
            out.write(_help())
            return 0
        if len(files) != 2:
            raise _Stop(1, USAGE)
        run_trec_eval(options, files[0], files[1], sys.stdin if stdin is None else stdin, out)
    except _Stop as stop:
        out.flush()
        err.write(stop.message)
        return stop.code
    return 0


if __name__ == "__main__":
    sys.exit(main())
