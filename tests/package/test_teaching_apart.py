"""The metric modules never import the teaching code; ``import rankmetrics`` loads none of it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import rankmetrics

PACKAGE = Path(rankmetrics.__file__).parent


def _imports(path: Path) -> list[str]:
    """Every module a file imports, written absolute (``rankmetrics.teaching...``)."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = parts[: len(parts) - node.level] if node.level else ()
            module = ".".join((*base, *(node.module.split(".") if node.module else ())))
            found += [module] + [f"{module}.{alias.name}" for alias in node.names]
    return found


def test_no_metric_module_imports_teaching():
    files = sorted((PACKAGE / "metrics").rglob("*.py"))
    assert len(files) > 10 and (PACKAGE / "metrics" / "dcg.py") in files
    offending = {
        str(f.relative_to(PACKAGE)): name
        for f in files + [PACKAGE / "registry.py"]
        for name in _imports(f)
        if name.startswith("rankmetrics.teaching")
    }
    assert offending == {}


def test_the_scan_sees_a_relative_teaching_import(tmp_path):
    # the scan's own check: hit_steps.py imports ..hit_formulas, which is rankmetrics.teaching.hit_formulas
    names = _imports(PACKAGE / "teaching" / "explain" / "hit_steps.py")
    assert "rankmetrics.teaching.hit_formulas" in names


def test_import_rankmetrics_loads_no_teaching_code():
    code = (
        "import sys, rankmetrics as rm\n"
        "rm.ndcg([3, 0, 2], 3); rm.precision([1, 0, 1], 2)\n"
        "rm.evaluate({'q': {'a': 1}}, {'q': {'a': 1.0}}, ['map', 'ndcg_cut_10'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('rankmetrics.teaching')))\n"
        "rm.explain('precision', [1, 0], 2)\n"
        "print('rankmetrics.teaching.catalogue' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=PACKAGE.parent
    ).stdout.split("\n")
    assert out[:2] == ["[]", "True"]  # nothing before explain; explain loads the catalogue
