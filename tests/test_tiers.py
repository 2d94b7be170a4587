"""The test tiers are named in three places: pyproject.toml's markers (the home), the Makefile's
targets and the README's table. This binds the other two to the markers, and the README's
make-less ``pytest`` line to what ``make test`` runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def tiers() -> list[str]:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")  # no tomllib: the tests also run on 3.10
    block = re.search(r"^markers = \[\n(.*?)^\]", text, flags=re.MULTILINE | re.DOTALL).group(1)
    return re.findall(r'^\s*"(\w+):', block, flags=re.MULTILINE)


def make_variables() -> dict[str, str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return dict(re.findall(r"^(\w+)\s*:=\s*(.+)$", text, flags=re.MULTILINE))


def test_make_test_leaves_out_exactly_the_tiers():
    assert tiers() == ["browser", "cluster", "scripts"]
    assert make_variables()["TIERS"].split(" or ") == tiers()


def test_every_tier_has_a_target_and_a_readme_row():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for tier in tiers():
        assert re.search(rf"^test-{tier}:", makefile, flags=re.MULTILINE), tier
        assert f"| `make test-{tier}` |" in readme, tier


def test_readme_pytest_line_runs_what_make_test_runs():
    variables = make_variables()
    options = variables["PYTEST"].split("pytest", 1)[1].strip()  # "-n 2 --dist loadfile"
    expected = f'python -m pytest {options} -m "not ({variables["TIERS"]})"'
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert expected in readme
