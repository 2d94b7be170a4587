"""A metric is its function and one registration: a throwaway metric reaches every tool.

The fixture below writes a new metric, "top hit" (1 when the first result is relevant),
the way the package's own are written: a function and ONE ``register(Metric(...))``,
plus, optionally, ONE ``teach(Teaching(...))`` in the teaching catalogue with its step
formula. Nothing else is edited. Without the entry the metric reaches
:func:`rankmetrics.evaluate`, the command line and the names, and ``explain`` says it has
no step table; with it, it also reaches :func:`rankmetrics.explain`, worksheets and the
page's data file. Both are removed when the test ends.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import re
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

import rankmetrics as rm
from rankmetrics import _validation as v
from rankmetrics import cli, registry
from rankmetrics.metrics.inputs import prepare
from rankmetrics.registry import Metric, register
from rankmetrics.teaching import catalogue
from rankmetrics.teaching.catalogue import Exercise, Reference, Teaching, teach
from rankmetrics.teaching.explain import explainable
from rankmetrics.teaching.worksheet.draw import worksheet_commands
from rankmetrics.trec import names

ROOT = Path(__file__).resolve().parents[2]
NAME = "top_hit"


def top_hit(x, k=None, *, relevant=None):
    """1.0 when the first result is relevant, else 0.0 (one query: a float)."""
    v.check_k(k)
    queries = prepare(x, relevant=relevant)
    values = (queries.grades[:, :1] > 0).any(axis=1).astype(float)
    return float(values[0]) if queries.single else values


def top_hit_steps(h):
    """The step table's last line: the mark at rank 1."""
    first = bool(h.rows) and h.rows[0]["hit"]
    h.lines.append(f"{h.label} = {int(first)} (rank 1 is {'O' if first else 'X'})")
    h.conventions["denominator"] = "none"
    value = 1.0 if first else 0.0
    return value, (Decimal(int(value)) if h.decimals is not None else None)


def top_hit_metric(**fields):
    return Metric(
        NAME,
        top_hit,
        label="Top hit",
        title="Top hit: 1 when the first result is relevant",
        names=(NAME,),
        evaluate=lambda c, k: c.binary[:, :1].sum(axis=1),
        command="top-hit",
        **fields,
    )


def top_hit_teaching(**fields):
    return (
        Teaching(
            NAME,
            symbol="TH",
            explain="hits",
            steps=top_hit_steps,
            examples=("rankmetrics top-hit 1 0 0",),
            worksheet=Exercise("rank 1 is {blank} → {label} = {blank}", whole=True),
            reference=Reference(
                korean="첫 적중",
                formula=r"TH = \mathbf{1}(\mathrm{rel}_1 > 0)",
                conventions="1위만 봅니다.",
                papers=(),
                chapter="ch-precision_recall",
            ),
        )
        if not fields
        else Teaching(NAME, **fields)
    )


@pytest.fixture
def untaught():
    """The metric registered, with no teaching entry."""
    metric = register(top_hit_metric())
    names._parse_name.cache_clear()
    yield metric
    del registry.METRICS[NAME]
    catalogue.CATALOGUE.pop(NAME, None)
    names._parse_name.cache_clear()


@pytest.fixture
def throwaway(untaught):
    """The metric registered and taught (one entry in the catalogue)."""
    teach(top_hit_teaching())
    return untaught


def _cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(list(args))
    return status, out.getvalue(), err.getvalue()


def test_a_metric_registered_once_reaches_every_tool(throwaway, tmp_path):
    # evaluate: q1 ranks a (grade 2) first -> 1; q2 ranks h (unjudged) first -> 0
    qrels = {"q1": {"a": 2, "b": 0}, "q2": {"d": 1}}
    run = {"q1": {"a": 0.9, "b": 0.5}, "q2": {"h": 0.9, "d": 0.1}}
    result = rm.evaluate(qrels, run, [NAME])
    np.testing.assert_array_equal(result.per_query[NAME], [1.0, 0.0])
    assert result.summary[NAME] == 0.5  # the mean of 1 and 0

    # the command line: its own subcommand (registry order, built when the parser is built),
    # and the worksheet help lists it among the worksheet metrics
    status, out, err = _cli("top-hit", "O", "X", "X")
    assert (status, out.strip().splitlines()[-1], err) == (0, "1.0", "")
    status, out, _ = _cli("top-hit", "0", "1", "--explain")
    assert status == 0 and "TH = 0 (rank 1 is X)" in out
    help_text = cli.build_parser()._subparsers._group_actions[0].choices["worksheet"].format_help()
    assert "ap,mrr,map,top-hit" in help_text.replace("\n", "").replace(" ", "")

    # explain: the O/X table, then the registered step formula; the value is the function's
    e = rm.explain(NAME, ["A", "B", "C"], relevant={"A"})
    assert e.steps == ["TH = 1 (rank 1 is O)"] and e.value == 1.0
    assert [row["mark"] for row in e.rows] == ["O", "X", "X"]

    # worksheets: problems on it, answered 0 or 1 (whole), with the registered line to fill in
    sheet = rm.make_worksheet(seed=5, count=2, metrics="top-hit")
    assert [p.metric for p in sheet.problems] == [NAME, NAME]
    assert all(p.answer == p.recompute() in (0.0, 1.0) for p in sheet.problems)
    assert sheet.problem_markdown.count("rank 1 is ______ → TH = ______") == 2
    assert "TH@K(첫 적중)는 0 또는 1이므로" in sheet.problem_markdown

    # the page's data file: the registry's table carries it (the page does not compute it)
    spec = importlib.util.spec_from_file_location(
        "rankexplain_data", ROOT / "book" / "_ext" / "rankexplain_data.py"
    )
    data_file = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(data_file)
    data = json.loads(data_file.script().split("window.RankExplainData = ", 1)[1].rstrip().rstrip(";"))
    assert data["metrics"][NAME] == {
        "command": "top-hit",
        "label": "Top hit",
        "symbol": "TH",
        "cutoff": "optional",
        "family": "hits",
        "inputs": "ranking",
        "keywords": [],
        "korean": "첫 적중",
        "page": False,
        "precision_at_hits": False,
    }


def test_a_metric_without_a_teaching_entry_works_everywhere_but_explain(untaught):
    # evaluate: q1 ranks a (grade 2) first -> 1; q2 ranks h (unjudged) first -> 0
    result = rm.evaluate(
        {"q1": {"a": 2, "b": 0}, "q2": {"d": 1}},
        {"q1": {"a": 0.9, "b": 0.5}, "q2": {"h": 0.9, "d": 0.1}},
        [NAME],
    )
    np.testing.assert_array_equal(result.per_query[NAME], [1.0, 0.0])
    assert names.parse_metric(NAME).metric is untaught
    # the command line computes it; its help has no examples; --explain is refused by name
    status, out, err = _cli("top-hit", "O", "X", "X")
    assert (status, out.strip().splitlines()[-1], err) == (0, "1.0", "")
    status, out, err = _cli("top-hit", "1", "0", "--explain")
    assert status == 2 and "top_hit" in err and "단계표" in err
    with pytest.raises(ValueError, match="top_hit.*단계표|top_hit has no step table"):
        rm.explain(NAME, [1, 0])
    assert NAME not in explainable() and "top-hit" not in worksheet_commands()
    # the page's table lists it, with no family, not on the page
    row = rm.teaching.page.metric_table()[NAME]
    assert (row["family"], row["page"], row["korean"], row["symbol"]) == (None, False, None, "Top hit")


def test_teach_refuses_an_unknown_metric_and_a_second_entry(untaught):
    with pytest.raises(ValueError, match="no_such_metric"):
        teach(Teaching("no_such_metric"))
    teach(top_hit_teaching())
    with pytest.raises(ValueError, match=NAME):
        teach(top_hit_teaching())


def test_the_throwaway_is_gone_afterwards():
    assert NAME not in registry.METRICS and NAME not in catalogue.CATALOGUE
    assert NAME not in explainable() and "top-hit" not in worksheet_commands()
    with pytest.raises(ValueError):
        rm.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, [NAME])


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"explain": "hits"}, 'explain="hits" needs steps'),
        ({"explain": "dcg", "steps": top_hit_steps}, 'explain="hits" needs steps'),
        (
            {"explain": "hits", "steps": top_hit_steps, "worksheet": True},
            "worksheet must be an Exercise or None",
        ),
        ({"explain": "hits", "steps": top_hit_steps, "worksheet": Exercise("")}, "worksheet.line is empty"),
        (
            {"explain": "hits", "steps": top_hit_steps, "worksheet": Exercise("{blank}", unlisted=True)},
            "worksheet.unlisted needs 'n_relevant' in keywords",
        ),
        (
            {
                "explain": "hits",
                "steps": top_hit_steps,
                "cutoff": "required",
                "worksheet": Exercise("{blank}"),
            },
            "worksheet.cutoff must be True",
        ),
        ({"explain": "err"} | {"page": True}, "page=True needs"),
    ],
)
def test_teach_refuses_teaching_fields_that_cannot_work(fields, why):
    # Each of these would give a neighbour's kind of problem, or none, silently.
    cutoff = fields.pop("cutoff", "optional")
    register(Metric(NAME, top_hit, label="Top hit", title="t", command="top-hit", cutoff=cutoff))
    try:
        with pytest.raises(ValueError, match=f"metric '{NAME}': .*{re.escape(why)}"):
            teach(Teaching(NAME, **fields))
        assert NAME not in catalogue.CATALOGUE
    finally:
        del registry.METRICS[NAME]
