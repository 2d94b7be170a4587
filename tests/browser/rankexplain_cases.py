"""What the browser port of the step tables (book/_static/rankexplain.js) is compared with.

``random_forms`` draws checker inputs (the fields of the 손 계산 확인기 as text) over
every option the page offers; ``reference`` computes the same form with the package,
through the command line's own reading of the text (``rankmetrics <metric> ... --explain``),
and returns what the port must reproduce: the value, the hand result, every cell and
formula line, the summary and the convention card, or the command line's error message.
``compare`` and ``grade_cases`` are the two comparisons both runners make (V8 in
``tests/package/test_rankexplain_port_v8.py`` on every form, Chromium in
``test_rankexplain_port.py`` on a sample).
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import math
import random
from typing import Any

from rankmetrics import calculator, cli
from rankmetrics.registry import METRICS
from rankmetrics.teaching import catalogue

# The metrics the page computes: those registered with page=True. Every one is drawn by
# random_form below, so a metric marked for the page is compared without editing this file.
PORTED = tuple(t.name for t in catalogue.where(page=True))
CASES = 12_000
SEED = 20260413

# Serialises what RankExplain.fromForm returned, in the shape of reference() below.
JS_RESULTS = r"""
const forms = arguments[0];
return forms.map(form => {
  const r = RankExplain.fromForm(form);
  if (r.error !== undefined) return {error: r.error};
  const e = r.explanation;
  const number = v => (typeof v === "number" && Number.isNaN(v)) ? "nan" : v;
  const numeric = rows => rows.map(row => {
    const out = {};
    for (const [key, v] of Object.entries(row)) if (typeof v === "number") out[key] = number(v);
    return out;
  });
  return {label: e.label, value: number(e.value), rounded: e.rounded, card: e.card, summary: e.summary,
          difference: e.difference, rows: numeric(e.rows),
          idealRows: e.idealRows ? numeric(e.idealRows) : null,
          tables: e.tables().map(t => ({title: t.title, headers: t.headers, cells: t.cells, lines: t.lines}))};
});
"""


def blank_form(metric: str, listed: str, **fields: str) -> dict[str, str]:
    form = {
        "metric": metric,
        "list": listed,
        "relevant": "",
        "k": "",
        "gain": "linear",
        "ideal": "auto",
        "idealGrades": "",
        "decimals": "",
        "discountDecimals": "",
    }
    form.update(fields)
    return form


def argv(form: dict[str, str]) -> tuple[list[str], dict[str, Any]]:
    """The command line for a form, and what the command line cannot say (``ideal`` as a word)."""
    metric = METRICS[form["metric"]]
    words, relevant = form["list"].split(), form["relevant"].split()
    args = [metric.command]
    extra: dict[str, Any] = {}
    if relevant:
        if words:
            args += ["--ranking", *words]
        args += ["--relevant", *relevant]
        if form["metric"] == "ndcg" and form["ideal"] == "listed":
            extra["ideal"] = "listed"
    else:
        args += words
        if form["metric"] == "ndcg" and form["ideal"] == "judged":
            if form["idealGrades"].split():
                args += ["--ideal", *form["idealGrades"].split()]
            else:
                extra["ideal"] = "judged"
    if form["k"].strip():
        args += ["--k", form["k"].strip()]
    if "gain" in metric.keywords:
        args += ["--gain", form["gain"]]
    args.append("--explain")
    if form["decimals"].strip():
        args += ["--decimals", form["decimals"].strip()]
    if catalogue.entry(metric.name).explain == "dcg" and form["discountDecimals"].strip():
        args += ["--discount-decimals", form["discountDecimals"].strip()]
    return args, extra


def _numbers(rows: list[dict] | None) -> list[dict] | None:
    if rows is None:
        return None
    return [
        {
            key: ("nan" if isinstance(v, float) and math.isnan(v) else v)
            for key, v in row.items()
            if isinstance(v, (int, float)) and not isinstance(v, bool)
        }
        for row in rows
    ]


_BUILD_PARSER = cli.build_parser


@functools.lru_cache(maxsize=1)
def _parser():
    return _BUILD_PARSER()


def reference(form: dict[str, str]) -> dict[str, Any]:
    """The package's answer for a form, through ``rankmetrics.cli.main``."""
    args, extra = argv(form)
    captured = []
    real = calculator.explain

    def explain(*a: Any, **kw: Any):
        captured.append(real(*a, **kw, **extra))
        return captured[-1]

    err = io.StringIO()
    calculator.explain = explain
    build_parser = cli.build_parser
    cli.build_parser = _parser  # one parser for every call: building it is most of the time
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            status = cli.main(args)
    finally:
        calculator.explain = real
        cli.build_parser = build_parser
    if status != 0:
        line = err.getvalue().strip()
        prefix = f"rankmetrics {args[0]}: 오류: "
        assert line.startswith(prefix), line
        message = line[len(prefix) :]
        hint = f" (도움말: rankmetrics {args[0]} --help)"
        return {"error": message.removesuffix(hint)}
    e = captured[-1]
    return {
        "label": e.label,
        "value": "nan" if math.isnan(e.value) else e.value,
        "rounded": e.rounded,
        "card": e.card,
        "summary": e.summary,
        "difference": e.difference,
        "rows": _numbers(e.rows),
        "idealRows": _numbers(e.ideal_rows),
        "tables": [
            {"title": s.title, "headers": headers, "cells": cells, "lines": s.lines}
            for s, headers, cells in e._tables()
        ],
    }


def differences(js: dict[str, Any], py: dict[str, Any], tolerance: float = 1e-12) -> tuple[list[str], float]:
    """Where the port's result differs from the package's, and the largest numeric difference."""
    problems: list[str] = []
    largest = 0.0

    def close(a: Any, b: Any, where: str) -> None:
        nonlocal largest
        if a == b:
            return
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            gap = abs(a - b)
            largest = max(largest, gap)
            if gap <= tolerance * max(1.0, abs(b)):
                return
        problems.append(f"{where}: port {a!r}, package {b!r}")

    if set(js) != set(py):
        return [f"keys: port {sorted(js)}, package {sorted(py)}"], largest
    if "error" in py:
        close(js["error"], py["error"], "error")
        return problems, largest
    for key in ("label", "card", "summary", "difference", "tables"):
        close(js[key], py[key], key)
    close(js["value"], py["value"], "value")
    close(js["rounded"], py["rounded"], "rounded")
    for name in ("rows", "idealRows"):
        a, b = js[name], py[name]
        if (a is None) != (b is None) or (a is not None and len(a) != len(b)):
            problems.append(f"{name}: port {a!r}, package {b!r}")
            continue
        for i, (ra, rb) in enumerate(zip(a or [], b or [])):
            if set(ra) != set(rb):
                problems.append(f"{name}[{i}] keys: port {sorted(ra)}, package {sorted(rb)}")
            for key in set(ra) & set(rb):
                close(ra[key], rb[key], f"{name}[{i}].{key}")
    return problems, largest


# --- random inputs over every option the checker offers ------------------------------

GRADE_CHOICES = ["0", "0", "0", "1", "1", "2", "3", "0.5", "1.5", "2.25", "4", "1e0", "+2", "2.0"]
IDS = list("ABCDEFGHIJKL") + ["d1", "d2", "문서", "x:y"]


def _grades_text(rng: random.Random, n: int) -> str:
    if rng.random() < 0.3:
        return " ".join(rng.choice("OXox") for _ in range(n))
    graded = rng.random() < 0.5
    return " ".join(rng.choice(GRADE_CHOICES if graded else ["0", "1"]) for _ in range(n))


def random_form(rng: random.Random) -> dict[str, str]:
    metric = rng.choice(PORTED)
    n = rng.randint(1, rng.choice([5, 8, 14, 30]))
    form = blank_form(metric, "")
    if rng.random() < 0.35:  # item ids with judgements
        pool = rng.sample(IDS, min(len(IDS), n + rng.randint(0, 4)))
        listed = pool[:n]
        judged = rng.sample(pool, rng.randint(0, len(pool)))
        graded = rng.random() < 0.5
        words = []
        for item in judged:
            if graded:
                words.append(f"{item}:{rng.choice(['0', '1', '2', '3', '-1', '1.5'])}")
            else:
                words.append(item + (":1" if ":" in item else ""))
        form["list"] = " ".join(listed)
        form["relevant"] = " ".join(words) or listed[0] + ":0"
    else:
        form["list"] = _grades_text(rng, n)
        if rng.random() < 0.3:
            extra = rng.randint(0, 4)
            listed = [w for w in form["list"].split()]
            # the listed grades plus a few unlisted ones: a valid ideal (most of the time)
            form["idealGrades"] = " ".join(listed + [rng.choice(["1", "2", "3"]) for _ in range(extra)])
    form["k"] = rng.choice(["", "", str(rng.randint(1, 12)), str(rng.randint(1, n)), "1"])
    form["gain"] = rng.choice(["linear", "exponential", "binary"])
    form["ideal"] = rng.choice(["auto", "judged", "listed"])
    if rng.random() < 0.75:
        form["decimals"] = str(rng.choice([0, 1, 2, 2, 3, 3, 4, 6, 10, 15]))
        if rng.random() < 0.4:
            form["discountDecimals"] = str(rng.choice([0, 1, 2, 3, 5]))
    return form


# Bad input, one kind per line, as a reader might type it.
BAD_FORMS = [
    blank_form("ndcg", "O 2 X"),
    blank_form("ndcg", "3 a 1"),
    blank_form("ndcg", "O a"),
    blank_form("ndcg", "3 -1 2"),
    blank_form("ndcg", "3 -0.5"),
    blank_form("dcg", "3 inf"),
    blank_form("dcg", "nan 1"),
    blank_form("precision", ""),
    blank_form("precision", "1 0", k="0"),
    blank_form("precision", "1 0", k="2.5"),
    blank_form("precision", "1 0", k="다섯"),
    blank_form("recall", "1 0", k="-3"),
    blank_form("recall", "1 0", k="1e3"),
    blank_form("ndcg", "1 0 1", decimals="16"),
    blank_form("ndcg", "1 0 1", decimals="-1"),
    blank_form("ndcg", "1 0 1", decimals="2.5"),
    blank_form("ndcg", "1 0 1", decimals="둘"),
    blank_form("ndcg", "1 0 1", discountDecimals="1"),
    blank_form("dcg", "1 0 1", decimals="2", discountDecimals="20"),
    blank_form("average_precision", "A B A", relevant="A"),
    blank_form("average_precision", "A B", relevant="B:l"),
    blank_form("average_precision", "A B", relevant="B B"),
    blank_form("average_precision", "A B", relevant=":3"),
    blank_form("average_precision", "A B:1", relevant="B:1"),
    blank_form("reciprocal_rank", "", relevant="B"),
    blank_form("mean_rank", "A B", relevant="B:inf"),
    blank_form("ndcg", "3 2 0", ideal="judged"),
    blank_form("ndcg", "3 2 0", ideal="judged", idealGrades="2 2"),
    blank_form("ndcg", "3 2 0", ideal="judged", idealGrades="3 X"),
    blank_form("ndcg", "3 2 0", ideal="judged", idealGrades="3 -2 2"),
    blank_form("dcg", "1100 0", gain="exponential"),
    blank_form("ndcg", "2000 1", gain="exponential", decimals="2"),
]


# --- the comparisons both runners make ---------------------------------------------------


def comparison_forms(every: int = 1) -> list[dict[str, str]]:
    """The 12,032 forms of the comparison: 12,000 random ones and every kind of bad input.

    every=8 keeps every 8th random form (1,500, still at least 100 per metric) and every bad
    input: the sample Chromium runs, where V8 runs them all.
    """
    rng = random.Random(SEED)
    return [random_form(rng) for _ in range(CASES)][::every] + BAD_FORMS


def compare(forms: list[dict[str, str]], results: list[dict[str, Any]]) -> dict[str, Any]:
    """The port's results against the package's: failures (described), largest gap, refusals.

    Also asserts what the forms covered: every metric the page computes (at least 100 forms
    each), every gain, ideal mode, input form and rounding option.
    """
    assert len(results) == len(forms)
    failures, largest, refused = [], 0.0, 0
    for form, js in zip(forms, results):
        py = reference(form)
        refused += "error" in py
        problems, gap = differences(js, py)
        largest = max(largest, gap)
        if problems:
            failures.append(f"{json.dumps(form, ensure_ascii=False)}\n    " + "\n    ".join(problems[:3]))
    per_metric = {name: sum(f["metric"] == name for f in forms) for name in PORTED}
    assert {f["metric"] for f in forms} == set(PORTED) and min(per_metric.values()) >= 100, per_metric
    assert {f["gain"] for f in forms if f["metric"] in ("ndcg", "dcg")} == {"linear", "exponential", "binary"}
    assert {(f["ideal"], bool(f["relevant"])) for f in forms if f["metric"] == "ndcg"} >= {
        ("judged", True),
        ("listed", True),
        ("judged", False),
        ("auto", True),
        ("auto", False),
    }
    assert any("O" in f["list"] for f in forms) and any(f["idealGrades"] for f in forms)
    assert {f["decimals"] for f in forms} >= {"", "0", "2", "15"} and any(
        f["discountDecimals"] for f in forms
    )
    return {"failures": failures, "largest": largest, "refused": refused, "per_metric": per_metric}


def assert_agree(report: dict[str, Any], forms: list[dict[str, str]]) -> None:
    failures = report["failures"]
    assert failures == [], f"{len(failures)} of {len(forms)} differ:\n" + "\n".join(failures[:10])
    assert report["largest"] <= 1e-12
    assert report["refused"] >= len(BAD_FORMS)


def grade_cases() -> tuple[list[list[Any]], list[str]]:
    """Answers to mark ([text, exact, key, decimals]) and Worksheet.grade's verdicts for them.

    For each of 0-4 decimals, 40 worksheet problems and 8 answers each: blank, right, the
    exact value in full, one place short, a few units off, nearby, anywhere, the key itself.
    """
    from rankmetrics.teaching.worksheet import make_worksheet

    rng = random.Random(7)
    inputs, expected = [], []
    for decimals in (0, 1, 2, 3, 4):
        sheet = make_worksheet(
            decimals, 40, metrics=["ndcg", "ap", "rr", "precision", "f1"], decimals=decimals
        )
        for problem in sheet.problems:
            candidates = [
                None,
                f"{problem.exact:.{decimals}f}",
                repr(problem.exact),
                f"{problem.exact:.{max(decimals - 1, 0)}f}",
                f"{problem.exact + rng.choice([-3, -2, -1, 1, 2, 3, 4]) * 10**-decimals:.{decimals}f}",
                f"{problem.exact + rng.uniform(-0.2, 0.2):.{decimals + 1}f}",
                f"{rng.uniform(0, 3):.{rng.randint(0, 5)}f}",
                str(problem.answer),
            ]
            for text in candidates:
                value = None if text is None else float(text)
                verdict = sheet.grade({problem.number: value}).rows[problem.number - 1]["verdict"]
                inputs.append([text or "", problem.exact, problem.answer, decimals])
                expected.append(verdict)
    assert len(inputs) > 1000 and set(expected) == {"정답", "반올림 차이", "오답", "빈칸"}
    return inputs, expected


JS_GRADES = "return arguments[0].map(([t, e, h, d]) => RankExplain.grade(t, e, h, d).verdict)"
JS_METRICS = (
    "return Object.fromEntries(Object.entries(RankExplain.METRICS)"
    ".map(([name, m]) => [name, [m.command, m.symbol, m.cutoff, m.family]]))"
)


def assert_registered(ported: dict[str, list[Any]]) -> None:
    """The port's metric table is the registry's and the catalogue's (page=True), field by field."""
    assert set(ported) == set(PORTED)
    for name, (command, symbol, cutoff, family) in ported.items():
        metric, taught = METRICS[name], catalogue.entry(name)
        assert (command, symbol, cutoff, family) == (
            metric.command,
            taught.symbol,
            metric.cutoff,
            taught.explain,
        )
