"""The printed book (``make pdf``): parts, unnumbered pages, links and tables on paper.

Sphinx's LaTeX writer makes every second-level heading of the root page a chapter and
drops the toctree captions. Without sphinx-jupyterbook-latex (its class needs
``bbm.sty`` from ``texlive-fonts-extra``, 1.4 GB installed) we arrange the assembled book
ourselves, so the PDF has the same shape as the HTML book:

* 들어가며 (the root page) is one unnumbered chapter; its headings are its sections.
* Each caption of ``_toc.yml`` becomes an unnumbered ``\\part``; the chapters of a part
  with ``numbered: true`` are numbered 1-12 as on the web, the others are not.
* A numbered reference to an exercise on another page (``{numref}`` to ``ex-map-2``)
  points at the label sphinx-exercise writes (``exercise:ex-map-2``) and prints the
  number the HTML shows (연습 4.2). Sphinx would write ``\\ref{book/04_map:ex-map-2}``,
  a label that nobody defines.
* sphinx-proof writes its box titles untranslated on paper (Definition 1.1); the PDF
  says 정의 1.1, as the HTML does.
* A ``{download}`` link cannot be clicked on paper: its words get a footnote with the
  file's path in the repository (book/worksheets/...).
* A table of more than 30 rows is a LaTeX longtable, whose columns Sphinx sets on one
  line each: the glossary ran 17 cm off the page. Such tables get column widths by
  their content, so their cells wrap.
* The contents are titled 차례 (kotex's name), not after the first caption, and the
  writer does not warn that Babel has no Korean: kotex, not Babel, sets Korean here.

Nothing here runs for the HTML builder except the reading step that keeps each
toctree's caption and numbering on its wrapper.
"""

from __future__ import annotations

import logging
import posixpath
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform

from rankmetrics.tables import width

NUMBERED_DEPTH = 2  # chapters and sections numbered (1, 1.1), as in the HTML book
UNNUMBERED = -2  # LaTeX's secnumdepth below \part: nothing numbered, still in the contents


def _latex(code: str) -> nodes.raw:
    return nodes.raw("", code + "\n", format="latex")


class KeepToctreeCaptions(SphinxTransform):
    """On the root page, copy each toctree's caption and numbering onto its wrapper.

    The LaTeX builder replaces the toctree nodes by the pages they list and loses both.
    """

    default_priority = 500

    def apply(self, **kwargs: Any) -> None:
        if self.env.docname != self.config.root_doc:
            return
        for wrapper in self.document.findall(nodes.compound):
            if "toctree-wrapper" in wrapper["classes"] and wrapper.children:
                toctree = wrapper.children[0]
                if isinstance(toctree, addnodes.toctree):
                    wrapper["rm_part"] = toctree.get("caption") or ""
                    wrapper["rm_numbered"] = bool(toctree.get("numbered"))


class ArrangeParts(SphinxPostTransform):
    """The assembled book: 들어가며 as an unnumbered chapter, then one part per caption."""

    default_priority = 800
    builders = ("latex",)

    def run(self, **kwargs: Any) -> None:
        if self.app.project.path2doc(self.document.get("source", "")) != self.config.root_doc:
            return
        root = next(iter(self.document.findall(nodes.section)), None)
        if root is None or not isinstance(root[0], nodes.title):
            return
        wrappers = [c for c in root.children if isinstance(c, nodes.compound) and "rm_part" in c]
        if not wrappers:
            return
        title = root[0]
        intro = nodes.section("", nodes.title("", "", *[c.deepcopy() for c in title.children]))
        intro["ids"] = list(root["ids"])  # links to the root page (ch-intro) land on 들어가며
        intro.extend(c for c in root.children[1:] if c not in wrappers)
        arranged: list[nodes.Node] = [title, _latex(rf"\setcounter{{secnumdepth}}{{{UNNUMBERED}}}"), intro]
        for wrapper in wrappers:
            arranged.append(_latex(rf"\setcounter{{secnumdepth}}{{{UNNUMBERED}}}"))
            if wrapper["rm_part"]:
                arranged.append(_latex(rf"\part{{{wrapper['rm_part']}}}"))
            depth = NUMBERED_DEPTH if wrapper["rm_numbered"] else UNNUMBERED
            arranged.append(_latex(rf"\setcounter{{secnumdepth}}{{{depth}}}"))
            arranged.append(wrapper)
        root.children = []
        root.extend(arranged)


class ExerciseNumberReferences(SphinxPostTransform):
    """A link to an exercise on another page: the label sphinx-exercise defines."""

    default_priority = 900
    builders = ("latex",)

    def run(self, **kwargs: Any) -> None:
        registry = getattr(self.env, "sphinx_exercise_registry", None)
        if not registry:
            return
        from sphinx_exercise.nodes import exercise_latex_number_reference

        for ref in list(self.document.findall(nodes.reference)):
            # {ref} to an exercise elsewhere: \hyperref[exercise:<label>], the label it has.
            uri = ref.get("refuri", "")
            label = uri.rsplit("#", 1)[1] if uri.startswith("%") and "#" in uri else ref.get("refid")
            if label in registry:
                ref["refuri"] = "%exercise#" + label
        for ref in list(self.document.findall(addnodes.number_reference)):
            if isinstance(ref, exercise_latex_number_reference) or "#" not in ref.get("refuri", ""):
                continue
            label = ref["refuri"].rsplit("#", 1)[1]
            entry = registry.get(label)
            if entry is None:
                continue
            number = self.env.toc_fignumbers.get(entry["docname"], {}).get("exercise", {}).get(label)
            title = ref.get("title", "%s")
            text = title.replace("%s", ".".join(map(str, number))) if number else ref.astext()
            new = exercise_latex_number_reference("", text, refid=label)
            ref.replace_self(new)


class DownloadPaths(SphinxPostTransform):
    """On paper a {download} link says where the file is: a footnote with its path."""

    default_priority = 900
    builders = ("latex",)

    def run(self, **kwargs: Any) -> None:
        for link in list(self.document.findall(addnodes.download_reference)):
            target = link.get("reftarget", "")
            if not target or "://" in target:
                continue
            folder = posixpath.dirname(link.get("refdoc", ""))
            path = posixpath.normpath(posixpath.join(folder, target.lstrip("/")))
            escaped = path.replace("\\", "/").replace("{", "").replace("}", "").replace("%", r"\%")
            link.parent.insert(
                link.parent.index(link) + 1, _latex(rf"\footnote{{\sphinxnolinkurl{{{escaped}}}}}")
            )


class LongTableWidths(SphinxPostTransform):
    """Column widths for the tables that LaTeX sets as longtables (more than 30 rows)."""

    default_priority = 900
    builders = ("latex",)
    LONG = 30  # rows; Sphinx's LaTeX writer switches to longtable above this
    NARROWEST, WIDEST = 4, 40  # bounds of a column's weight (its mean width in monospace columns)

    def run(self, **kwargs: Any) -> None:
        for table in self.document.findall(nodes.table):
            group = next(iter(table.findall(nodes.tgroup)), None)
            if group is None or "colwidths-given" in table["classes"]:
                continue
            rows = list(group.findall(nodes.row))
            specs = [c for c in group.children if isinstance(c, nodes.colspec)]
            if len(rows) <= self.LONG or not specs:
                continue
            # A column's share of the page follows its cells' mean width (the definitions of
            # the glossary get more room than the English names beside them), and is never
            # narrower than its longest word (an abbreviation such as Rprec).
            totals, words = [0] * len(specs), [0] * len(specs)
            for row in rows:
                for j, entry in enumerate(c for c in row.children if isinstance(c, nodes.entry)):
                    if j < len(totals):
                        text = entry.astext()
                        totals[j] += width(text)
                        words[j] = max([words[j], *map(width, text.split())])
            for spec, total, word in zip(specs, totals, words):
                spec["colwidth"] = max(self.NARROWEST, min(self.WIDEST, max(word, round(total / len(rows)))))
            table["classes"].append("colwidths-given")


def korean_without_babel(app: Sphinx) -> None:
    builder = app.builder
    if builder.format != "latex":
        return
    # Sphinx names the contents after the root page's first toctree caption (기본 지표).
    builder.get_contentsname = lambda indexfile: ""


class NoBabelForKorean(logging.Filter):
    """Sphinx knows no Babel option for "ko" and says so on every LaTeX build; Korean is
    set by kotex, loaded in latex_elements.fontpkg (_config.yml), so the warning is noise."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("no Babel option known for language")


def korean_proof_titles(app: Sphinx) -> None:
    """sphinx-proof's LaTeX writer puts ``Definition 1.1`` where its HTML writer says 정의 1.1."""
    if app.builder.format != "latex":
        return
    from sphinx.locale import get_translation
    from sphinx_proof import nodes as proof

    translate = get_translation("proof")
    originals = {proof.depart_enumerable_node, proof.depart_unenumerable_node}

    def translated(depart):
        def depart_in_korean(self, node):
            depart(self, node)
            # The title went in just after the box's opening line; say it as the HTML does.
            where = proof.list_rindex(self.body, proof.latex_admonition_start) + 2
            english = node.attributes.get("realtype", "").title()
            if english and self.body[where].startswith(english):
                self.body[where] = str(translate(english)) + self.body[where][len(english) :]

        return depart_in_korean

    handlers = app.registry.translation_handlers.get("latex", {})
    for name, (visit, depart) in list(handlers.items()):
        if depart in originals:
            handlers[name] = (visit, translated(depart))


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", korean_proof_titles)
    for name in ("sphinx.sphinx.builders.latex", "sphinx.sphinx.writers.latex"):
        logging.getLogger(name).addFilter(NoBabelForKorean())
    app.connect("builder-inited", korean_without_babel)
    app.add_transform(KeepToctreeCaptions)
    app.add_post_transform(ArrangeParts)
    app.add_post_transform(ExerciseNumberReferences)
    app.add_post_transform(DownloadPaths)
    app.add_post_transform(LongTableWidths)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
