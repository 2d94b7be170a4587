"""The package's import graph, read from the source with ast: no cycle, no other module's private names.

A cycle hidden by an import inside a function (or at the bottom of a module)
still ties the modules together: neither can be read, tested or moved without
the other. Every import that runs counts, wherever it is written; only
``if TYPE_CHECKING:`` blocks, which never run, are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import rankmetrics

PACKAGE = Path(rankmetrics.__file__).parent

# The imports that may close a cycle, each with the change that would remove it: none. The last
# five went in one change: the presets' registry moved into presets.py (conventions takes a
# Preset, presets.find looks one up by name, a preset writes its own card lines), the
# recommender presets became data that presets.py registers, recsys_frames reads is_frame from
# recommendation_lists, and evaluate hands each Evaluation its explainer (the engine that
# explain_query calls is scoring.py, below both). A new entry needs its fix written beside it.
KNOWN_CYCLE_IMPORTS: dict[tuple[str, str], str] = {}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the nodes inside ``if TYPE_CHECKING:`` blocks."""
    hidden = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            hidden.update(id(inner) for inner in ast.walk(node))
    return hidden


def imports(name: str) -> list[tuple[str, str, int]]:
    """(module imported, name imported or "", line) for every import of the package in one module."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hidden = type_checking_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if id(node) in hidden:
            continue
        if isinstance(node, ast.Import):  # import rankmetrics.trec.files
            for alias in node.names:
                target = alias.name.removeprefix("rankmetrics").lstrip(".")
                if alias.name.split(".")[0] == "rankmetrics" and target in MODULES:
                    found.append((target, "", node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:  # from rankmetrics.trec import files
                if (node.module or "").split(".")[0] != "rankmetrics":
                    continue
                base = node.module.removeprefix("rankmetrics").lstrip(".")
            else:  # from ..registry import METRICS: up level - 1 packages, then down into module
                parts = package.split(".") if package else []
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            for alias in node.names:
                submodule = ".".join(part for part in (base, alias.name) if part)
                # "from . import files" imports a module; "from .files import judged" a name in one.
                found.append(
                    (submodule, "", node.lineno) if submodule in MODULES else (base, alias.name, node.lineno)
                )
    return found


GRAPH = {name: {target for target, _, _ in imports(name) if target != name} for name in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_reader_of_the_graph_sees_every_kind_of_import():
    # One of each form, checked by hand against the source.
    assert "trec.evaluation" in GRAPH["trec.evaluate"]  # from .evaluation import Evaluation
    assert "trec.presets" in GRAPH["trec.evaluate"]  # from . import presets
    assert "_validation" in GRAPH["trec.compare"]  # from .. import _validation as v
    assert "registry" in GRAPH["trec.names"]  # from ..registry import METRICS
    assert "trec.query_explanation" in GRAPH["trec.commands"]  # an import inside a function
    assert "teaching.worksheet.sheet" not in GRAPH["teaching.worksheet.render"]  # TYPE_CHECKING only
    # The cycle finder: a - b - c - a and d - e are cycles, f -> a is not in one.
    found = cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"e"}, "e": {"d"}, "f": {"a"}})
    assert sorted(map(sorted, found)) == [["a", "b", "c"], ["d", "e"]]


def reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = {start}, [start]
    while todo:
        for w in graph.get(todo.pop(), ()):
            if w == goal:
                return True
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return False


def test_no_import_cycle_but_through_the_known_imports():
    for importer, imported in KNOWN_CYCLE_IMPORTS:
        assert imported in GRAPH[importer], f"{importer} no longer imports {imported}: take it off the list"
        assert reaches(GRAPH, imported, importer), f"{importer} -> {imported} closes no cycle now"
    rest = {
        name: targets - {b for a, b in KNOWN_CYCLE_IMPORTS if a == name} for name, targets in GRAPH.items()
    }
    assert cycles(rest) == []


def test_no_module_imports_another_modules_private_names():
    # "_" is gettext's function by convention, imported everywhere from i18n; a private module
    # (_validation, _arrays) is imported as a module, which is how the package shares it.
    private = [
        f"{name}:{line} imports {target}.{imported}"
        for name in MODULES
        for target, imported, line in imports(name)
        if imported.startswith("_") and imported != "_" and not imported.startswith("__")
    ]
    assert private == []


def test_no_module_reaches_into_another_modules_private_names():
    # The same, written as an attribute of an imported module: files._nest, frames._text_column.
    reached = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bound = {}  # the local name of each package module this one imports
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    bound[alias.asname or alias.name] = alias.name
        modules = {target.rsplit(".", 1)[-1] for target, imported, _ in imports(name) if not imported}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and bound.get(node.value.id) in modules
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                reached.append(f"{name}:{node.lineno} {node.value.id}.{node.attr}")
    assert reached == []
