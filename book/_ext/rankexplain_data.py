"""The page scripts' data file (``rankexplain_data.js``), written at build time from the registry and the catalogue.

The book's scripts (``book/_static``: ``rankexplain.js``, ``hand_checker.js``,
``answer_box.js``, ``ranking_playground.js``) hold logic only: every word they show
is a message id in a ``_()`` call (or ``N_()`` for a constant), every fact about a
metric comes from the registry. When the builder starts, this extension reads the
ids from the scripts, and writes ``window.RankExplainData = {...}`` (their Korean
from the package's catalogue and the registry's metric table,
:func:`rankmetrics.teaching.page.page_data`) into a folder of generated static
files; ``try_in_page`` loads it before ``rankexplain.js`` on every page with a widget.
``tests/package/test_rankexplain_port_v8.py`` writes it the same way (:func:`script`)
before it runs the port.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from rankmetrics.teaching.page import page_data

STATIC = Path(__file__).resolve().parents[1] / "_static"
#: The scripts whose texts the data file carries, in the order a page loads them.
SCRIPTS = ("rankexplain.js", "hand_checker.js", "answer_box.js", "ranking_playground.js")
DATA = "rankexplain_data.js"

# A message id in a script: _("...") or N_("..."), one or more double-quoted literals joined
# by "+" (a long id over several lines). A call on anything else (_(LEGEND)) translates an
# id marked with N_ where it is written.
_CALL = re.compile(r'(?<![\w$.])N?_\(\s*((?:"(?:[^"\\\n]|\\.)*"\s*(?:\+\s*)?)+)\)')
_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def script_ids(text: str) -> list[str]:
    """The message ids a script's ``_()`` and ``N_()`` calls write, in order."""
    return [
        "".join(json.loads(f'"{literal}"') for literal in _LITERAL.findall(call.group(1)))
        for call in _CALL.finditer(text)
    ]


def ids(static: Path = STATIC) -> dict[str, list[str]]:
    """Every script's message ids: script name -> ids."""
    return {name: script_ids((static / name).read_text(encoding="utf-8")) for name in SCRIPTS}


def script(static: Path = STATIC) -> str:
    """The data file's text: one assignment of the scripts' data to ``window.RankExplainData``."""
    data = page_data(message for found in ids(static).values() for message in found)
    body = json.dumps(data, ensure_ascii=False, indent=1)  # metrics in registry order, ids sorted
    return (
        "/* Written by book/_ext/rankexplain_data.py when the book is built: the words of the page's\n"
        " * scripts (from rankmetrics' catalogue) and the registry's metrics. Do not edit. */\n"
        f"window.RankExplainData = {body};\n"
    )


def write(folder: Path, static: Path = STATIC) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / DATA
    path.write_text(script(static), encoding="utf-8")
    return path


def _write_at_start(app: Sphinx) -> None:
    if app.builder.format != "html":
        return
    folder = Path(app.doctreedir) / "rankexplain_static"
    write(folder)
    app.config.html_static_path.append(str(folder))


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", _write_at_start)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
