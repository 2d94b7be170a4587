"""No user-facing text outside the catalogue: an AST scan of the package.

A text a person reads is a string literal (or f-string) that reaches one of these places:
the arguments of an exception or warning (``raise ValueError(...)``, ``warnings.warn``),
of ``print`` and of the package's stream writers (``_write``, ``.write``), argparse's
``help=``/``description=``/``epilog=``/``title=``/``usage=``, and the headers, rows,
footers and captions of a table (``text_table``/``html_table``). Each must be the first
argument of ``_()``, ``N_()`` or ``ngettext()`` (then Babel puts it in the catalogue and
tests/package/test_messages.py asks for its Korean). A literal without a word in it (``": "``,
``"{name}={value}"``) is not text. A local variable passed to one of those places is followed
to the literals assigned to it in the same function.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "rankmetrics"

# Exempt on purpose, with the reason. Paths are relative to the repository.
EXEMPT_TREC_EVAL = (
    # `rankmetrics trec_eval` is a byte-for-byte drop-in for NIST trec_eval 10.0: its -h text,
    # its own messages and the refusals a script compares are trec_eval's English, tested
    # byte for byte in tests/package/test_dropin.py.
    "rankmetrics/trec/dropin.py",
    "rankmetrics/trec/dropin_measures.py",
)
EXEMPT_FUNCTIONS = {
    # rankmetrics.i18n._check / language(): the language itself is what is wrong, so the
    # message cannot be in a language.
    ("rankmetrics/i18n.py", "_check"),
    ("rankmetrics/i18n.py", "language"),
    # rankmetrics.__getattr__: Python's own AttributeError, worded as the interpreter words it.
    ("rankmetrics/__init__.py", "__getattr__"),
}

TRANSLATORS = {"_", "N_", "ngettext"}
WRITERS = {"print", "_write", "write", "warn", "_print_message", "exit", "error"}
TABLES = {"text_table", "html_table"}
NOT_TEXT_KEYWORDS = {"file", "stacklevel", "aligns", "css_class", "row_headers"}
TEXT_KEYWORDS = {"help", "description", "epilog", "title", "usage", "caption", "footer", "message", "msg"}
STRING_METHODS = {"format", "join", "replace", "strip", "rstrip", "lstrip", "upper", "lower", "capitalize"}
COMMAND = re.compile(r"\s*(rankmetrics|\{PROG\}) ")
WORD = re.compile(r"[^\W\d_]{2,}")
FIELD = re.compile(r"\{[^{}]*\}")


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _is_exception(name: str) -> bool:
    return name.endswith(("Error", "Exception", "Warning")) or name in {"UsageError", "Refused"}


def _has_words(text: str, strict: bool = False) -> bool:
    """Whether ``text`` reads as words. Outside a table, one word (an argument's name such as
    ``n_relevant``, a key, an encoding, ``qrels[{qid!r}]``) is not a sentence; a table's header
    always is text. A command line to type (``rankmetrics ndcg 3 0 3 2 0``) is not text either."""
    if COMMAND.match(text):
        return False  # a command to type, shown as it is typed
    words = WORD.findall(FIELD.sub("", text))
    return len(words) >= (1 if strict else 2)


class _Scan(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.found: list[tuple[str, int, str]] = []
        self.function: ast.AST | None = None
        self.function_name = ""

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        outer = self.function, self.function_name
        self.function, self.function_name = node, node.name
        self.generic_visit(node)
        self.function, self.function_name = outer

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def _literals(self, node: ast.AST, seen: set[str], strict: bool = False) -> None:
        """Report each wordy literal in ``node`` that no translator call wraps."""
        if isinstance(node, ast.Call) and _name(node.func) in TRANSLATORS:
            return
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if _has_words(node.value, strict):
                self.found.append((self.path, node.lineno, node.value))
            return
        if isinstance(node, ast.JoinedStr):
            text = "".join(
                v.value if isinstance(v, ast.Constant) else "{" + ast.unparse(v.value) + "}"
                for v in node.values
            )
            if _has_words(text, strict):
                self.found.append((self.path, node.lineno, ast.unparse(node)))
            return
        if isinstance(node, ast.Name) and self.function is not None and node.id not in seen:
            for assign in ast.walk(self.function):
                targets = (
                    assign.targets
                    if isinstance(assign, ast.Assign)
                    else [assign.target]
                    if isinstance(assign, (ast.AnnAssign, ast.AugAssign))
                    else []
                )
                if any(isinstance(t, ast.Name) and t.id == node.id for t in targets) and assign.value:
                    self._literals(assign.value, seen | {node.id}, strict)
            return
        if isinstance(node, ast.Subscript):  # e.g. _WORDS[kind]: the index is not text
            self._literals(node.value, seen, strict)
            return
        if isinstance(node, ast.Call):
            # A string method's result ("...".format(...), " ".join(...)) carries its receiver's
            # and its arguments' text; another function's arguments (show(x), check_k(k, "k"))
            # are values and names, and its own literals are checked where they are written.
            if isinstance(node.func, ast.Attribute) and node.func.attr in STRING_METHODS:
                self._literals(node.func.value, seen, strict)
                for arg in [*node.args, *(k.value for k in node.keywords)]:
                    self._literals(arg, seen, strict)
            return
        for child in ast.iter_child_nodes(node):
            self._literals(child, seen, strict)

    def visit_Call(self, node: ast.Call) -> None:
        name = _name(node.func)
        if (self.path, self.function_name) not in EXEMPT_FUNCTIONS:
            if name in TRANSLATORS:
                pass
            elif _is_exception(name) or name in WRITERS or name in TABLES:
                args = node.args[:2] if name in TABLES else node.args  # a table's third is its aligns
                for arg in [*args, *(k.value for k in node.keywords if k.arg not in NOT_TEXT_KEYWORDS)]:
                    self._literals(arg, set(), strict=name in TABLES)
            else:
                for keyword in node.keywords:
                    if keyword.arg in TEXT_KEYWORDS:
                        self._literals(keyword.value, set())
        self.generic_visit(node)


def _exempt(path: str) -> bool:
    return path in EXEMPT_TREC_EVAL


def untranslated() -> list[tuple[str, int, str]]:
    """Every user-facing literal outside the catalogue: (path, line, text)."""
    found = []
    for file in sorted(PACKAGE.rglob("*.py")):
        path = file.relative_to(ROOT).as_posix()
        if _exempt(path):
            continue
        scan = _Scan(path)
        scan.visit(ast.parse(file.read_text(encoding="utf-8"), filename=path))
        found += scan.found
    return found


def test_every_user_facing_text_is_in_the_catalogue():
    found = untranslated()
    assert not found, "\n".join(f"{path}:{line}: {text}" for path, line, text in found)


def _scan_source(source: str) -> list[str]:
    scan = _Scan("example.py")
    scan.visit(ast.parse(source))
    return [text for _, _, text in scan.found]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('raise ValueError(f"{name} must be positive; got {k}")', ["f'{name} must be positive; got {k}'"]),
        ('raise ValueError(_("{name} must be positive; got {k}").format(name=name, k=k))', []),
        ('raise ValueError(f"{name}: {error}")', []),  # no word of its own
        ('warnings.warn("slow path", stacklevel=2)', ["slow path"]),
        ('print("all done", file=sys.stderr)', ["all done"]),
        ('parser.add_argument("--k", help="the cutoff")', ["the cutoff"]),
        ('parser.add_argument("--k", help=_("the cutoff"))', []),
        ('text_table(["query", "all"], rows)', ["query", "all"]),
        ('text_table([_("query")], rows)', []),
        ('def f(x):\n    m = "bad value: " + x\n    raise ValueError(m)', ["bad value: "]),
        ('def f(x):\n    m = _("bad {x}").format(x=x)\n    raise ValueError(m)', []),
        ('raise UsageError("한 번만 주세요")', ["한 번만 주세요"]),
        ('x = {"a": "not shown"}', []),
        ('raise UsageError(_("e.g. {x}").format(x="rankmetrics ndcg 3 0 --k 5"))', []),  # a command
        ('raise ValueError(show(x, "not text"))', []),  # another function's argument
        ('def f(k):\n    name = "n_relevant"\n    raise ValueError(_("{name} bad").format(name=name))', []),
        ('raise ValueError(_("{a}").format(a=", ".join(x) or "none at all"))', ["none at all"]),
    ],
)
def test_the_scan_finds_what_a_person_reads(source, expected):
    assert _scan_source(source) == expected


def test_no_function_hides_the_translator():
    # `top, _ = cutoff(...)` inside a function that also calls _() would make _ a number there.
    hidden = []
    for file in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            nodes = list(ast.walk(function))
            binds = any(
                isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store) for n in nodes
            )
            calls = any(isinstance(n, ast.Call) and _name(n.func) == "_" for n in nodes)
            if binds and calls:
                hidden.append(f"{file.relative_to(ROOT)}:{function.lineno} {function.name}")
    assert hidden == []
