"""Try it in the page, offline: the hand-calculation checker, answer boxes and the ranking playground.

Three directives put a small widget into a page; each page loads only the scripts
its widgets need (book/_static: rankexplain.js, the port of the step tables, plus
one file per widget). Every widget is built on static HTML that reads correctly
with scripts off: the checker shows an example step table computed here, an
answer box stays hidden, the playground shows its list and values as text.
On paper (the PDF, ``make pdf``) the checker and the playground print the same
static content as ordinary text and a table, with a line that says where the
interactive version lives; answer boxes are left out (the solutions are printed).

``{hand-checker}``
    The 손 계산 확인기: the page's script reads a list, a metric and the rounding
    options and draws the same step table as ``rankmetrics ... --explain``.

``{answer-check} <exercise label>``
    Answer boxes for an exercise: one line per box, ``<what to type> = <call>``,
    where the call is a registered metric with literal arguments
    (``AP = average_precision([0, 1, 1, 0, 1])``) or ``glue:<key>``, a value a
    solution cell glued. The value is computed here, with rankmetrics, at build
    time, and must appear in the exercise's executed solution (its printed output
    or the glue values its text shows); otherwise the build warns. The box is moved
    into the exercise, wherever the directive stands. The page's script only
    compares the reader's answer with it, by the rules of ``Worksheet.grade``.

``{ranking-playground}``
    A ranked list of cards to toggle and move, with P@k, R@k, RR@k, AP@k and nDCG@k
    (``:grades: 1 0 1 0 1``, ``:k: 5``, ``:graded:`` to cycle grades 0-3, ``:relevant: 4`` for a
    query with relevant items outside the list: R, the total, which a field on the page changes); the
    directive's content (a list of "try this" moves) is shown above it. Without
    scripts the list and its values, computed here, are shown as text.
"""

from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

import rankmetrics as rm
from rankmetrics.registry import METRICS
from rankmetrics.teaching.explain import explainable
from rankmetrics.teaching.explain.steps import exact_text

logger = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parents[1] / "_static"
PORT = "rankexplain.js"
DATA = "rankexplain_data.js"
SCRIPTS = {"checker": "hand_checker.js", "answers": "answer_box.js", "playground": "ranking_playground.js"}
STYLE = "try_in_page.css"


class try_widget(nodes.General, nodes.Element):
    """A widget's static HTML; ``widget`` names the script that enhances it."""


def visit_widget_html(self, node: try_widget) -> None:
    self.body.append(node["html"])
    raise nodes.SkipNode


def skip_widget(self, node: try_widget) -> None:
    raise nodes.SkipNode


def on_paper(*children: nodes.Node) -> addnodes.only:
    """What a widget becomes in the PDF: ordinary nodes that only the LaTeX builder keeps."""
    node = addnodes.only(expr="latex")
    node.extend(children)
    return node


def _value_table(rows: list[tuple[str, str]], heads: tuple[str, str]) -> nodes.table:
    """A plain two-column table of docutils nodes (the PDF's copy of a widget's values)."""
    table = nodes.table()
    group = nodes.tgroup(cols=2)
    table += group
    group.extend(nodes.colspec(colwidth=1) for _ in range(2))
    head, body = nodes.thead(), nodes.tbody()
    for cells, part in [(heads, head), *[(row, body) for row in rows]]:
        line = nodes.row()
        line.extend(nodes.entry("", nodes.paragraph(text=text)) for text in cells)
        part += line
    group += head
    group += body
    return table


# --------------------------------------------------------------------------- the checker


def _example() -> Any:
    """The checker's static example, in the book's language (a step table renders in its own)."""
    with rm.use_language("ko"):
        return rm.explain("ndcg", [3, 0, 3, 2, 0], decimals=3)


def _example_html() -> str:
    return _example()._repr_html_()


class HandChecker(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        example = {"metric": "ndcg", "list": "3 0 3 2 0", "decimals": "3"}
        html_text = (
            f'<div class="rm-checker" data-example="{html.escape(json.dumps(example))}">'
            '<p class="rm-noscript">이 확인기는 브라우저의 자바스크립트로 계산합니다. 자바스크립트가 꺼져 있으면 '
            "같은 단계표를 터미널에서 볼 수 있습니다: "
            "<code>rankmetrics ndcg 3 0 3 2 0 --explain --decimals 3</code>. 그 단계표는 다음과 같습니다.</p>"
            f'<div class="rm-checker-static">{_example_html()}</div></div>'
        )
        command = "rankmetrics ndcg 3 0 3 2 0 --explain --decimals 3"
        paper = on_paper(
            nodes.paragraph(
                "",
                "확인기는 웹 책의 이 쪽에서 브라우저가 계산합니다. 종이 위에서는 같은 단계표를 터미널에서 만들 수 "
                "있습니다: ",
                nodes.literal(text=command),
                nodes.Text(". 그 단계표는 다음과 같습니다."),
            ),
            nodes.literal_block(text=str(_example())),
        )
        return [try_widget("", widget="checker", html=html_text), paper]


# --------------------------------------------------------------------------- answer boxes

_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.(\d+))?(?![\w])")
_FRACTION = re.compile(r"(?<![\w.])(\d+)\s*/\s*(\d+)(?![\w.])")


def _call(source: str) -> tuple[str, list[Any], dict[str, Any]]:
    """``average_precision([0, 1], k=2)`` -> ("average_precision", [[0, 1]], {"k": 2}); literals only."""
    tree = ast.parse(source.strip(), mode="eval").body
    if not isinstance(tree, ast.Call):
        raise ValueError("expected a call such as average_precision([0, 1, 1])")
    func = tree.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name not in METRICS or METRICS[name].function is None:
        raise ValueError(f"{name!r} is not a registered metric")
    args = [ast.literal_eval(a) for a in tree.args]
    kwargs = {kw.arg: ast.literal_eval(kw.value) for kw in tree.keywords}
    return name, args, kwargs


def _plain(output: dict) -> str:
    """An output's text/plain; a glued value keeps it under papermill's prefix."""
    prefix = output.get("metadata", {}).get("scrapbook", {}).get("mime_prefix", "")
    return "".join(output.get("data", {}).get(prefix + "text/plain", ""))


def _notebook_solution(path: Path, label: str) -> tuple[str, dict[str, str]] | None:
    """The printed output of the exercise's solution and the glue values its text shows."""
    if path.suffix != ".ipynb" or not path.exists():
        return None
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    glue: dict[str, str] = {}
    for cell in cells:
        for output in cell.get("outputs", []):
            name = output.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                glue[name] = _plain(output)
    start = re.compile(r"\{solution-start\}\s+" + re.escape(label) + r"\s")
    texts: list[str] = []
    inside = False
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            if not inside:
                found = start.search(source + "\n")
                if not found:
                    continue
                inside, source = True, source[found.end() :]
            end = source.find("{solution-end}")
            part = source if end < 0 else source[:end]
            texts += [glue.get(key, "") for key in re.findall(r"\{glue:text\}`([^`:]+)", part)]
            if end >= 0:
                break
        elif inside:
            for output in cell.get("outputs", []):
                if output.get("output_type") == "stream":
                    texts.append("".join(output["text"]))
                else:
                    texts.append(_plain(output))
    if not inside:
        return None
    return "\n".join(texts), glue


def _shown_in(value: float, text: str) -> bool:
    """Whether the solution's text shows value: a printed number equal to it, or one with at
    least two decimals that rounds to it, or a fraction such as 2/5."""
    for match in _FRACTION.finditer(text):
        if int(match.group(2)) and abs(int(match.group(1)) / int(match.group(2)) - value) <= 1e-12:
            return True
    for match in _NUMBER.finditer(text):
        printed = float(match.group(0))
        places = len(match.group(1) or "")
        if abs(printed - value) <= 1e-12 * max(1.0, abs(value)):
            return True
        if places >= 2 and abs(printed - value) <= 0.5 * 10.0**-places + 1e-12:
            return True
    return False


class AnswerCheck(SphinxDirective):
    required_arguments = 1
    has_content = True
    option_spec: ClassVar[dict] = {"decimals": directives.nonnegative_int}

    def run(self) -> list[nodes.Node]:
        label = self.arguments[0]
        decimals = self.options.get("decimals", 3)
        solution = _notebook_solution(Path(self.env.doc2path(self.env.docname)), label)
        if solution is None:
            logger.warning(
                f"answer-check: no solution for {label!r} in this notebook", location=self.get_location()
            )
            return []
        text, glue = solution
        boxes = []
        for line in (ln.strip() for ln in self.content if ln.strip()):
            if " = " not in line:
                logger.warning(f"answer-check {label}: cannot read {line!r}", location=self.get_location())
                continue
            what, source = (part.strip() for part in line.rsplit(" = ", 1))  # labels may hold "="
            try:
                exact, hand = self._value(source, glue, decimals)
            except (ValueError, SyntaxError, KeyError) as error:
                logger.warning(f"answer-check {label}: {line!r}: {error}", location=self.get_location())
                continue
            if not _shown_in(exact, text):
                logger.warning(
                    f"answer-check {label}: {what} = {exact!r} does not appear in the solution's output",
                    location=self.get_location(),
                )
                continue
            boxes.append((what, exact, hand))
        if not boxes:
            return []
        # Field ids unique on the page, even when an exercise has two directives.
        numbered = [(self.env.new_serialno(f"rm-answer-{label}") + 1, *box) for box in boxes]
        return [
            try_widget("", widget="answers", exercise=label, html=_answer_html(label, numbered, decimals))
        ]

    @staticmethod
    def _value(source: str, glue: dict[str, str], decimals: int) -> tuple[float, float | None]:
        if source.startswith("glue:"):
            key = source[len("glue:") :].strip()
            return float(glue[key]), None
        name, args, kwargs = _call(source)
        exact = float(METRICS[name].function(*args, **kwargs))
        hand = None
        metric = METRICS[name]
        if metric.inputs == "ratings":
            y_pred = args[1] if len(args) > 1 else kwargs.pop("y_pred")
            hand = rm.explain(name, args[0], decimals=decimals, y_pred=y_pred).rounded
        elif name in explainable():
            k = args[1] if len(args) > 1 else kwargs.pop("k", None)
            hand = rm.explain(name, args[0], k, decimals=decimals, **kwargs).rounded
        return exact, hand


def _answer_html(label: str, boxes: list[tuple[int, str, float, float | None]], decimals: int) -> str:
    places = f"소수 {decimals}자리" if decimals else "정수"
    rows = []
    for number, what, exact, hand in boxes:
        field = f"rm-answer-{label}-{number}"
        hand_attr = "" if hand is None else f' data-hand="{hand!r}"'
        rows.append(
            f'<div class="rm-answer-row" data-exact="{exact!r}"{hand_attr} data-decimals="{decimals}">'
            f'<label for="{field}">{html.escape(what)}</label>'
            f'<input id="{field}" name="{field}" type="text" inputmode="decimal" autocomplete="off" '
            f'spellcheck="false" aria-describedby="{field}-verdict">'
            f'<output id="{field}-verdict" for="{field}" class="rm-verdict" aria-live="polite"></output>'
            "</div>"
        )
    return (
        f'<div class="rm-answer" data-exercise="{html.escape(label)}" hidden>'
        f'<form class="rm-answer-form" aria-labelledby="rm-answer-{label}-{boxes[0][0]}-title" novalidate>'
        f'<p class="rm-answer-title" id="rm-answer-{label}-{boxes[0][0]}-title">답 확인 <span class="rm-answer-note">({places}까지, 5 이상은 올림)</span></p>'
        + "".join(rows)
        + '<p class="rm-answer-buttons"><button type="submit">확인</button> '
        '<button type="button" class="rm-answer-reset">다시 풀기</button></p>'
        "</form></div>"
    )


def move_answers_into_exercises(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Each answer box goes to the end of its exercise, wherever its directive stands."""
    exercises = {}
    for node in doctree.findall(nodes.Element):
        if type(node).__name__.startswith("exercise") and node.get("label"):
            exercises[node["label"]] = node
    for box in list(doctree.findall(try_widget)):
        if box["widget"] != "answers":
            continue
        target = exercises.get(box["exercise"])
        if target is None:
            logger.warning(
                f"answer-check: no exercise labelled {box['exercise']!r} on this page", location=box
            )
            box.parent.remove(box)
            continue
        box.parent.remove(box)
        target.append(box)


# --------------------------------------------------------------------------- the playground


class RankingPlayground(SphinxDirective):
    has_content = True
    option_spec: ClassVar[dict] = {
        "grades": directives.unchanged_required,
        "k": directives.positive_int,
        "graded": directives.flag,
        "relevant": directives.nonnegative_int,
    }

    def run(self) -> list[nodes.Node]:
        grades = [float(g) for g in self.options.get("grades", "1 0 1 0 1").split()]
        k = min(self.options.get("k", len(grades)), len(grades))
        graded = "graded" in self.options
        total = max(self.options.get("relevant", 0), sum(g > 0 for g in grades))
        moves = nodes.container(classes=["rm-playground-moves"])
        self.state.nested_parse(self.content, self.content_offset, moves)
        config = {"grades": grades, "k": k, "graded": graded, "relevant": total}
        listed = " ".join(str(int(g)) if g.is_integer() else str(g) for g in grades)
        rows = "".join(
            f"<tr><th scope='row'>{name}</th><td>{exact_text(value)}</td></tr>"
            for name, value in _playground_values(grades, k, total)
        )
        static = (
            f'<div class="rm-playground" data-config="{html.escape(json.dumps(config))}">'
            f'<p class="rm-playground-static">목록(1위부터 등급): <code>{listed}</code>, 전체 관련 항목 수 R = {total}</p>'
            f'<table class="rm-playground-static"><caption>이 목록의 지표</caption><tbody>{rows}</tbody></table>'
            "</div>"
        )
        paper = on_paper(
            nodes.paragraph(
                "",
                "웹 책의 이 쪽에서는 카드를 눌러 정답을 바꾸고 옮길 수 있습니다. 종이 위에서는 목록을 적어 손으로 "
                "바꿔 보세요. 시작 목록(1위부터 등급): ",
                nodes.literal(text=listed),
                nodes.Text(f", 전체 관련 항목 수 R = {total}"),
            ),
            _value_table(
                [(name, exact_text(value)) for name, value in _playground_values(grades, k, total)],
                ("지표", "값"),
            ),
        )
        return [moves, try_widget("", widget="playground", html=static), paper]


def _playground_values(grades: list[float], k: int, total: int) -> list[tuple[str, float]]:
    """The values the playground starts from, computed here for the page without scripts.

    ``total`` is R, the query's relevant items; those outside the list enter the ideal at grade 1,
    as the page's script puts them (ranking_playground.js).
    """
    unlisted = total - sum(g > 0 for g in grades)
    n_relevant = total or None  # a list without relevant items: the package's own convention
    return [
        (f"P@{k}", rm.precision(grades, k)),
        (f"R@{k}", rm.recall(grades, k, n_relevant=n_relevant)),
        (f"RR@{k}", rm.reciprocal_rank(grades, k)),
        (f"AP@{k}", rm.average_precision(grades, k, n_relevant=n_relevant)),
        (f"nDCG@{k}", rm.ndcg(grades, k, ideal=grades + [1] * unlisted)),
    ]


# --------------------------------------------------------------------------- scripts where they are used


def add_static_path(app: Sphinx) -> None:
    app.config.html_static_path.append(str(STATIC))


def add_scripts(app: Sphinx, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    if doctree is None:
        return
    used = {node["widget"] for node in doctree.findall(try_widget)}
    if not used:
        return
    app.add_css_file(STYLE)
    app.add_js_file(DATA)  # the port's words and metrics (book/_ext/rankexplain_data.py), before the port
    app.add_js_file(PORT)
    for widget in sorted(used):
        app.add_js_file(SCRIPTS[widget])


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_node(
        try_widget,
        html=(visit_widget_html, None),
        latex=(skip_widget, None),
        text=(skip_widget, None),
        man=(skip_widget, None),
        texinfo=(skip_widget, None),
    )
    app.add_directive("hand-checker", HandChecker)
    app.add_directive("answer-check", AnswerCheck)
    app.add_directive("ranking-playground", RankingPlayground)
    app.connect("builder-inited", add_static_path)
    app.connect("doctree-resolved", move_answers_into_exercises)
    app.connect("html-page-context", add_scripts)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
