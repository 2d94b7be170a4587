"""The metric reference (지표 사전), written at build time from the package's registry and teaching catalogue.

``book/metric_reference.md`` holds the page's title and introduction and a
``{metric-reference}`` block; when Sphinx reads the page, this extension puts in
its place one entry per registered metric (``rankmetrics.registry.METRICS``), in
MyST: the Korean name, the formula, the conventions and defaults, the function's
signature, the names ``evaluate``, trec_eval and ir_measures accept, the papers
(``{cite:t}``), the trec_eval source file and the chapter (``{ref}``). Everything
comes from the metric's registration and its teaching entry (the entry's
:class:`~rankmetrics.teaching.catalogue.Reference` record), so the page cannot disagree with the package; a
paper or chapter label that does not exist is a broken reference, which fails a
``-W -n`` build. ``tests/package/test_metric_reference.py`` checks the records.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from sphinx.application import Sphinx

from rankmetrics.i18n import _, use_language
from rankmetrics.registry import METRICS, Metric
from rankmetrics.teaching.catalogue import Reference
from rankmetrics.teaching.catalogue import entry as teaching_entry

DOCNAME = "book/metric_reference"
BLOCK = re.compile(r"^```\{metric-reference\}[ \t]*\n```[ \t]*$", re.MULTILINE)

# The page's sections, one per kind of input (Metric.inputs), in this order.
SECTIONS = (
    (
        "ranking",
        "한 목록의 순위 지표",
        "순위가 매겨진 목록 하나(등급, O/X, 또는 항목 이름과 판정)를 받는 함수입니다.",
    ),
    ("queries", "여러 질의의 평균", "질의마다의 목록을 여러 개 받아 평균을 냅니다."),
    ("ratings", "평점 예측의 오차", "순위가 아니라 예측 평점과 실제 평점을 받습니다."),
    (
        "trec",
        "trec_eval의 측정",
        "공개 함수가 없고 `rm.evaluate(qrels, run, metrics)`가 판정 파일과 결과 파일로 계산합니다.",
    ),
    (
        "lists",
        "추천 목록의 정확도 너머",
        "사용자마다의 추천 목록을 카탈로그, 상호작용 수, 항목 특성과 함께 받아 모든 사용자에 대해 값 하나를 냅니다.",
    ),
    ("rounds", "오프폴리시 추정", "기록된 회차마다의 보상과 두 정책의 확률을 받습니다."),
    (
        "held_out",
        "샘플링 평가",
        "사용자마다 남겨 둔 항목의 전체 순위를 받아, 음성 표본 사이에서 다시 매길 때의 기댓값을 사용자마다 냅니다.",
    ),
)
CUTOFFS = {
    "optional": "줄 수 있습니다(주지 않으면 목록 전체)",
    "required": "반드시 줍니다",
    "none": "받지 않습니다",
}
SUMMARIES = {
    "mean": "질의 평균",
    "sum": "질의 합",
    "geometric": "기하평균(질의마다의 값을 $10^{-5}$ 아래로 내리지 않음)",
    "none": "요약하지 않음(`all` 줄 없음)",
    "run_id": "결과 파일의 시스템 이름",
}
TREC_LINES = {"both": "", "all": "; `all` 줄에만 나옵니다", "queries": "; 질의마다의 줄에만 나옵니다"}
PARAMETERS = {"level": "<수준>", "numbers": "<수>,<수>,…", "gains": "<등급>=<이득>,…"}


def _code(text: str) -> str:
    return f"`{text}`"


def _signature(metric: Metric) -> str:
    signature = inspect.signature(metric.function)
    bare = signature.replace(
        parameters=[p.replace(annotation=inspect.Parameter.empty) for p in signature.parameters.values()],
        return_annotation=inspect.Signature.empty,
    )
    return _code(f"rm.{metric.name}{bare}")


def _evaluate_names(metric: Metric) -> list[str]:
    names = []
    for name in metric.names:
        if metric.cutoff != "required":
            names.append(name)
        if metric.cutoff != "none":
            names.append(f"{name}@k")
    return names


def _trec_names(metric: Metric) -> list[str]:
    names = []
    if metric.trec_name:
        if metric.parameter != "level":
            names.append(metric.trec_name)
        if metric.parameter:
            names.append(f"{metric.trec_name}_{PARAMETERS[metric.parameter]}")
    if metric.trec_cutoff_name:
        names.append(f"{metric.trec_cutoff_name}_k")
    return names


def _ir_names(metric: Metric) -> str:
    if not metric.ir_name:
        return ""
    names = []
    if metric.cutoff != "required":
        names.append(_code(metric.ir_name))
    if metric.cutoff != "none":
        names.append(_code(f"{metric.ir_name}@k"))
    text = ", ".join(names)
    if metric.ir_parameters:
        keys = ", ".join(
            _code(key) if default is None else f"{_code(key)}(ir_measures의 기본값 {default})"
            for key, default in metric.ir_parameters
        )
        text += f"; 매개변수 {keys}"
    return text


def reference(metric: Metric) -> Reference | None:
    """The metric's Reference record, from its teaching entry (None without one)."""
    taught = teaching_entry(metric.name)
    return taught.reference if taught else None


def _heading(metric: Metric, ref: Reference) -> str:
    korean = ref.korean
    return metric.label if korean == metric.label else f"{metric.label}: {korean}"


def entry(metric: Metric, ref: Reference | None = None) -> str:
    """One metric's entry, in MyST (``ref``: its Reference record, by default its teaching entry's)."""
    ref = ref or reference(metric)
    rows: list[tuple[str, str]] = [("규약과 기본값", ref.conventions)]
    if metric.function is not None:
        rows.append(("함수", _signature(metric)))
    rows.append(("컷오프 $k$", CUTOFFS[metric.cutoff]))
    if metric.evaluate is not None:
        names = _evaluate_names(metric)
        if names:
            rows.append(("`evaluate` 이름", ", ".join(map(_code, names))))
    if trec := _trec_names(metric):
        rows.append(("trec_eval 이름", ", ".join(map(_code, trec))))
    if ir := _ir_names(metric):
        rows.append(("ir_measures 이름", ir))
    if metric.evaluate is not None:
        rows.append(("여러 질의의 요약", SUMMARIES[metric.summary] + TREC_LINES[metric.trec_lines]))
    if metric.per_query:
        per_query = METRICS[metric.per_query]
        rows.append(("질의마다의 지표", f"{{ref}}`{per_query.label} <metric-{per_query.name}>`"))
    if metric.command:
        rows.append(("명령줄", _code(f"rankmetrics {metric.command}")))
    rows.append(("출처", "; ".join(f"{{cite:t}}`{key}`" for key in ref.papers)))
    if ref.trec_files:
        rows.append(("trec_eval 소스", ", ".join(map(_code, ref.trec_files))))
    rows.append(("배우는 장", f"{{ref}}`{ref.chapter}`"))
    table = "\n".join(f"| {name} | {value} |" for name, value in rows)
    return (
        f"(metric-{metric.name})=\n### {_heading(metric, ref)}\n\n{_title(metric)}\n\n"
        f"$$\n{ref.formula}\n$$\n\n| 항목 | 내용 |\n|---|---|\n{table}\n"
    )


def _title(metric: Metric) -> str:
    """The metric's one-line title in the book's language (it is a message id of the catalogue)."""
    with use_language("ko"):
        return _(metric.title)


def page_body(metrics: dict[str, Metric] = METRICS, references: dict[str, Reference] | None = None) -> str:
    """Every registered metric: an overview table, then one section per kind of input.

    ``references``: each metric's Reference record, by default its teaching entry's. The
    book lists every metric of the package, so one without a record stops the page.
    """
    if references is None:
        references = {name: ref for name, m in metrics.items() if (ref := reference(m)) is not None}
    missing = [name for name in metrics if name not in references]
    if missing:
        raise ValueError(
            f"metrics without a Reference record (rankmetrics.teaching.catalogue.Reference): {missing}"
        )
    overview = "\n".join(
        f"| {{ref}}`{m.label} <metric-{m.name}>` | {references[m.name].korean} | {_code(m.name)} | "
        f"{{ref}}`{references[m.name].chapter}` |"
        for m in metrics.values()
    )
    parts = [
        f"등록된 지표는 모두 {len(metrics)}개입니다.\n\n"
        f"| 지표 | 한국어 이름 | 등록 이름 | 배우는 장 |\n|---|---|---|---|\n{overview}\n"
    ]
    for inputs, title, introduction in SECTIONS:
        members = [m for m in metrics.values() if m.inputs == inputs]
        if members:
            parts.append(f"## {title}\n\n{introduction}\n")
            parts.extend(entry(m, references[m.name]) for m in members)
    return "\n".join(parts)


def _fill(app: Sphinx, docname: str, source: list[str]) -> None:
    if docname != DOCNAME:
        return
    text, count = BLOCK.subn(lambda _: page_body(), source[0])
    if count != 1:
        raise ValueError(f"{DOCNAME}: expected one ```{{metric-reference}} block, found {count}")
    source[0] = text


def _always_outdated(app: Sphinx, env: Any, added: set, changed: set, removed: set) -> list[str]:
    # The page's text lives in the package, not in its file: read it again on every build.
    return [DOCNAME] if DOCNAME in env.found_docs else []


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("source-read", _fill)
    app.connect("env-get-outdated", _always_outdated)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
