"""Small repairs to the HTML pages that the browser tests found.

* Inline scripts written twice. sphinx-thebe adds its configuration as an inline
  script (``const THEBE_JS_URL = ...``) after the builder has started. Sphinx 7.4
  keeps that script once as given (file name ``None``) and adds it again from its
  registry as file name ``""`` when it prepares writing; the two no longer compare
  equal, so every page declared the constants twice and the browser reported
  "Identifier 'THEBE_JS_URL' has already been declared". We drop the second copy.
* Dropdown titles. sphinx-togglebutton opens a dropdown only when the click lands on
  the title box itself or its chevron; a click on the link inside a solution's title
  jumped away and threw "ReferenceError: button is not defined". static/dropdown_titles.js
  makes a click anywhere on the title open or close the dropdown.
* Long words on a phone. A heading like "Precision@K·Recall@K·HitRate@K·F1@K" has no
  place to break and made the whole page scroll sideways at 390 px; static/page_fixes.css
  lets long words in headings and text break where they must.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sphinx.application import Sphinx


def script_key(script: Any) -> tuple:
    attributes = tuple(sorted((k, str(v)) for k, v in script.attributes.items()))
    return (script.filename or "", script.priority, attributes)


def drop_duplicate_scripts(
    app: Sphinx, pagename: str, templatename: str, context: dict, doctree: Any
) -> None:
    scripts = context.get("script_files")
    if not scripts:
        return
    seen: set[tuple] = set()
    unique = []
    for script in scripts:
        key = script_key(script)
        if key not in seen:
            seen.add(key)
            unique.append(script)
    scripts[:] = unique


def add_static_path(app: Sphinx) -> None:
    app.config.html_static_path.append(str(Path(__file__).parent / "static"))


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", add_static_path)
    app.add_js_file("dropdown_titles.js")
    app.add_css_file("page_fixes.css")
    app.connect("html-page-context", drop_duplicate_scripts)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
