"""Korean full-text search for the HTML book.

Sphinx has no search language for Korean. With ``language: ko`` it falls back to
English: words are split at spaces, so the index holds "정밀도는" and "정밀도를" but
never "정밀도", and a reader who searches for "정밀도" finds nothing. Korean attaches
particles (조사) and endings to the word they follow and writes compounds without
spaces ("할인율", "평균정밀도").

This extension registers a :class:`SearchKorean` language for ``ko`` with two
halves that are built from the same rule tables below:

* The **index** side (:meth:`SearchKorean.split`) is generous. For every run of
  Hangul it stores the word as written, every shorter form left after stripping
  particles and endings (up to two layers, plus the plural 들), and every
  two-syllable piece (character 2-gram), so a two-syllable query also matches inside
  a compound. Latin words are stored lower-cased and Porter-stemmed, as Sphinx does
  for English.
* The **query** side (``splitQuery`` and ``Stemmer`` in the generated JavaScript,
  mirrored by :func:`query_words`) is cautious. It splits the query the same way but
  strips only particles that do not also end ordinary nouns: "정밀도" stays "정밀도"
  (도 is also a particle, but stripping it would search for "정밀"), while
  "정밀도는" becomes "정밀도". Whatever the query side produces for a word is always
  one of the index forms of that word, so every term found in the text is found by
  its query. Queries of three or more syllables also match inside longer index
  words through Sphinx's substring ("partial") matching.

Ranking: the page that *defines* a term should come first. Every
``{prf:definition}`` (sphinx-proof) is read for its words; each word is given to the
first definition, in reading order, that contains it, and becomes a search index
entry pointing at that definition. Sphinx ranks index entries (score 100) above
title (15) and text (5) hits. Ties are broken by reading order (earlier chapter
first) through a small ``Scorer`` written for ``html_search_scorer``. The index
entries are added only to the HTML search index, not to the general index page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import snowballstemmer
from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.search import SearchLanguage
from sphinx.search.en import js_porter_stemmer
from sphinx.util import logging

logger = logging.getLogger(__name__)

HANGUL = "\uac00-\ud7a3"  # precomposed syllables 가..힣
WORD_RE = re.compile(rf"[{HANGUL}]+|(?:(?![{HANGUL}])\w)+")
HANGUL_RE = re.compile(rf"^[{HANGUL}]+$")


def _table(text: str) -> list[str]:
    """A whitespace-separated table of endings, as it reads best in Korean."""
    return text.split()


# Particles that are often also the last syllable of a noun (정밀도, 평가, 차이,
# 정의, 결과, 경로, 하나, 제한, 역할, 페이지 ...). The index strips them, so "정밀도가"
# is also stored as "정밀도"; the query side never strips them.
AMBIGUOUS_SUFFIXES = _table("""
이 가 의 도 로 과 나 만 야 랑 께 인 일 한 할 함 해 된 될 돼 며 란 라 고 다 이지
""")

# Particles, particle clusters and common noun + 하다/되다/이다 endings that do not end
# ordinary nouns. Both sides strip them.
SAFE_SUFFIXES = _table("""
을 를 은 는 에 와
에서 에게 한테 께서 으로 부터 까지 마다 보다 처럼 만큼 조차 마저 밖에
이나 이랑 하고 이며 이란 이라 라는 라고 이라는 이라고 이라면
에서는 에서도 에서의 에서만 에게는 에게도 으로는 으로도 으로서 으로써 으로의 으로만
로서 로써 로는 로도 로의 로만 에는 에도 에의 에만 와는 과는 와도 과도 와의 과의
까지는 까지도 부터는 만으로 만을 만이 만은 보다는 처럼은
이다 입니다 이고 이면 인데 이지만 였다 이었다 이죠 이에요 예요
하다 한다 하는 하고 하여 해서 하면 합니다 했다 했습니다 하지 하며 하게 하기
되다 된다 되는 되고 되어 됩니다 되면 됐다 되었다 되지 시킨 시켜
""")

# Endings that are safe only together with the syllable before them:
# "이상적인" -> "이상적", "상대적으로" -> "상대적"; a bare 인 ends 원인, 확인, 요인.
SAFE_REWRITES = {"적인": "적", "적으로": "적", "적이다": "적", "적입니다": "적"}

PLURAL = "들"

QUERY_MIN = 2  # a query word is never cut below two syllables
INDEX_MIN = 1  # the index also keeps one-syllable stems: 값이 -> 값, 수는 -> 수


def _rules(suffixes: list[str], rewrites: dict[str, str]) -> list[tuple[str, str]]:
    """(suffix, replacement) pairs, longest suffix first so 에서는 wins over 는."""
    pairs = {s: "" for s in suffixes}
    pairs.update(rewrites)
    return sorted(pairs.items(), key=lambda p: (-len(p[0]), p[0]))


QUERY_RULES = _rules(SAFE_SUFFIXES, SAFE_REWRITES)
INDEX_RULES = _rules(SAFE_SUFFIXES + AMBIGUOUS_SUFFIXES, SAFE_REWRITES)

# One-syllable particles standing alone (the "를" of "nDCG를"): not worth indexing,
# and dropped from queries by Sphinx's stopword list.
STOPWORDS = set(_table("을 를 은 는 이 가 의 에 와 과 로 도"))


def _strip_once(word: str, rules: list[tuple[str, str]], min_len: int) -> str:
    for suffix, replacement in rules:
        if word.endswith(suffix) and len(word) - len(suffix) + len(replacement) >= min_len:
            return word[: len(word) - len(suffix)] + replacement
    return word


def query_stem(word: str) -> str:
    """The query side's form of one Hangul word (mirrored in JavaScript).

    >>> query_stem("정밀도는"), query_stem("정밀도"), query_stem("이상적인"), query_stem("원인")
    ('정밀도', '정밀도', '이상적', '원인')
    """
    word = _strip_once(word, QUERY_RULES, QUERY_MIN)
    if word.endswith(PLURAL) and len(word) - 1 >= QUERY_MIN:
        word = word[:-1]
    return word


def index_stems(word: str) -> list[str]:
    """Every shorter form of one Hangul word that the index stores.

    Every rule that matches is tried, not only the longest, so a noun that ends like a
    particle keeps its own form too: "경로는" gives "경로" (는) as well as "경" (로는).
    Up to three layers come off: a particle on a particle on a plural (항목들에서는).

    >>> index_stems("정밀도는")
    ['정밀도', '정밀']
    >>> index_stems("항목들을")
    ['항목들', '항목']
    >>> index_stems("경로는")
    ['경', '경로']
    """
    found: list[str] = []
    layer = [word]
    for _ in range(3):
        shorter = []
        for current in layer:
            for suffix, replacement in INDEX_RULES + [(PLURAL, "")]:
                if current.endswith(suffix) and len(current) - len(suffix) + len(replacement) >= INDEX_MIN:
                    shorter.append(current[: len(current) - len(suffix)] + replacement)
        layer = [w for w in dict.fromkeys(shorter) if w not in found and w != word]
        found.extend(layer)
    query_form = query_stem(word)
    if query_form != word and query_form not in found:
        found.append(query_form)  # the guarantee: a query's form is always an index form
    return found


def bigrams(word: str) -> list[str]:
    """Two-syllable pieces of a Hangul run, so "할인" is found inside "할인율".

    >>> bigrams("할인율")
    ['할인', '인율']
    """
    return [word[i : i + 2] for i in range(len(word) - 1)] if len(word) > 2 else []


def words(text: str) -> list[str]:
    """Split text into Hangul runs and other letter/digit runs (mirrored in JavaScript).

    >>> words("nDCG를 구하면 0.91이다")
    ['nDCG', '를', '구하면', '0', '91', '이다']
    """
    return WORD_RE.findall(text)


def index_tokens(text: str) -> list[str]:
    """Everything the index stores for a piece of text (before lower-casing/stemming).

    >>> index_tokens("정밀도는")
    ['정밀도는', '정밀도', '정밀', '밀도', '도는']
    """
    out: list[str] = []
    for w in words(text):
        out.append(w)
        if HANGUL_RE.match(w):
            out.extend(index_stems(w))
            out.extend(bigrams(w))
    return list(dict.fromkeys(out))


_porter = snowballstemmer.stemmer("porter")


def query_words(query: str) -> list[str]:
    """What the search page looks up for a query (the Python twin of the JavaScript).

    >>> query_words("정밀도는 nDCG를")
    ['정밀도', 'ndcg']
    """
    out = []
    for w in words(query):
        w = w.lower()
        if w in STOPWORDS or w.isdigit():
            continue
        out.append(query_stem(w) if HANGUL_RE.match(w) else _porter.stemWord(w))
    return out


JS_SPLITTER = r"""
/* Korean search (book/_ext/korean_search.py): Hangul runs and other letter/digit runs
   are separate words, so "nDCG를" is looked up as "nDCG" (and "를", a stopword). */
function splitQuery(query) {
  return query.match(/[\uAC00-\uD7A3]+|(?:(?![\uAC00-\uD7A3])[\p{L}\p{N}_])+/gu) || [];
}
"""

_PORTER_JS = js_porter_stemmer.replace("var Stemmer = function()", "var PorterStemmer = function()")
assert _PORTER_JS.count("var PorterStemmer = function()") == 1

_KOREAN_STEMMER_JS = """
/* Korean search (book/_ext/korean_search.py): strip one particle or ending that never
   ends an ordinary noun, then the plural 들; never below %(min)d syllables. Latin words
   use the Porter stemmer, as for English. */
var KO_QUERY_RULES = %(rules)s;
var KO_PLURAL = %(plural)s;
var KO_HANGUL = /^[\uac00-\ud7a3]+$/;
var koreanQueryStem = function(word) {
  for (const [suffix, replacement] of KO_QUERY_RULES) {
    if (word.endsWith(suffix) && word.length - suffix.length + replacement.length >= %(min)d) {
      word = word.slice(0, word.length - suffix.length) + replacement;
      break;
    }
  }
  if (word.endsWith(KO_PLURAL) && word.length - 1 >= %(min)d) word = word.slice(0, -1);
  return word;
};
var Stemmer = function() {
  const porter = new PorterStemmer();
  this.stemWord = function(word) {
    return KO_HANGUL.test(word) ? koreanQueryStem(word) : porter.stemWord(word);
  };
};
"""
JS_STEMMER = _PORTER_JS + (
    _KOREAN_STEMMER_JS.replace("%(rules)s", json.dumps(QUERY_RULES, ensure_ascii=False))
    .replace("%(plural)s", json.dumps(PLURAL, ensure_ascii=False))
    .replace("%(min)d", str(QUERY_MIN))
)


class SearchKorean(SearchLanguage):
    lang = "ko"
    language_name = "Korean"
    stopwords = STOPWORDS
    js_splitter_code = JS_SPLITTER
    js_stemmer_code = JS_STEMMER

    def split(self, input: str) -> list[str]:
        return index_tokens(input)

    def stem(self, word: str) -> str:
        return word if HANGUL_RE.match(word) else _porter.stemWord(word.lower())

    def word_filter(self, word: str) -> bool:
        return bool(word) and word not in STOPWORDS


# --- defining pages first -------------------------------------------------------------

ENV_KEY = "korean_search_definitions"


SENTENCE_ENDINGS = ("다", "요", "죠")


def definition_terms(text: str) -> list[str]:
    """Words of a definition that become index entries: words and their stems, no 2-grams.

    >>> definition_terms("정밀도 Precision@K는 상위 K개 중 관련 항목의 비율입니다")
    ['정밀도', '정밀', 'precision', '상위', '관련', '항목의', '항목', '비율']
    >>> definition_terms("정밀도는")  # the written form itself is not an entry
    ['정밀도', '정밀']
    """
    out = []
    for w in words(text):
        if not HANGUL_RE.match(w):
            forms = [w.lower()]
        elif w.endswith(SENTENCE_ENDINGS):
            # the end of a sentence: keep a noun before 입니다 (비율입니다 -> 비율), drop a
            # verb (같습니다), whose cut-down forms would only be noise
            forms = [query_stem(w)] if query_stem(w) != w else []
        else:
            # not the written form: "정밀도는" in a later definition must not outrank the
            # page whose definition says "정밀도"
            forms = [query_stem(w), *index_stems(w)]
        out.extend(f for f in forms if len(f) >= 2 and f not in STOPWORDS and not f.isdigit())
    return list(dict.fromkeys(out))


def _text_without_math(node: nodes.Node) -> str:
    parts = []
    for text in node.findall(nodes.Text):
        if not any(isinstance(p, (nodes.math, nodes.math_block)) for p in _parents(text)):
            parts.append(text.astext())
    return " ".join(parts)


def _parents(node: nodes.Node):
    while node.parent is not None:
        node = node.parent
        yield node


def collect_definitions(app: Sphinx, doctree: nodes.document) -> None:
    """doctree-read: remember each prf:definition's id, title words and body words."""
    env = app.env
    found = []
    for node in doctree.findall(nodes.Element):
        if node.get("realtype") != "definition" or not node.get("ids"):
            continue
        title = next((c for c in node.children if isinstance(c, nodes.title)), None)
        title_terms = [] if title is None else definition_terms(_text_without_math(title))
        body_terms = definition_terms(_text_without_math(node))
        found.append((node["ids"][0], title_terms, body_terms))
    getattr(env, ENV_KEY)[env.docname] = found


def reading_order(env: BuildEnvironment) -> list[str]:
    """Documents in the order a reader meets them: the toctree walked from the root."""
    order: list[str] = []
    stack = [env.config.root_doc]
    while stack:
        doc = stack.pop()
        if doc in order:
            continue
        order.append(doc)
        stack.extend(reversed(env.toctree_includes.get(doc, [])))
    return order + sorted(set(env.found_docs) - set(order))


def term_owners(env: BuildEnvironment) -> dict[str, dict[str, str]]:
    """docname -> {term: definition id}: each term goes to its first definition in reading order.

    Within one page a definition whose title holds the term is preferred.
    """
    definitions = getattr(env, ENV_KEY)
    owners: dict[str, tuple[str, str]] = {}
    for doc in reading_order(env):
        in_title: dict[str, str] = {}
        in_body: dict[str, str] = {}
        for node_id, title_terms, body_terms in definitions.get(doc, []):
            for t in title_terms:
                in_title.setdefault(t, node_id)
            for t in body_terms:
                in_body.setdefault(t, node_id)
        for term, node_id in {**in_body, **in_title}.items():
            owners.setdefault(term, (doc, node_id))
    by_doc: dict[str, dict[str, str]] = {}
    for term, (doc, node_id) in owners.items():
        by_doc.setdefault(doc, {})[term] = node_id
    return by_doc


def add_definition_entries(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """doctree-resolved: index entries for the terms this page defines first (HTML only).

    Added after reading, so they reach the search index but not genindex.html.
    """
    if app.builder.format != "html":
        return
    owners = getattr(app.env, "_korean_search_owners", None)
    if owners is None:
        owners = app.env._korean_search_owners = term_owners(app.env)
    terms = owners.get(docname)
    if terms:
        entries = [("single", term, node_id, "main", None) for term, node_id in sorted(terms.items())]
        doctree.append(addnodes.index(entries=entries))


SCORER_JS = """
/* Korean search (book/_ext/korean_search.py): Sphinx's default weights; equal scores
   are ordered by reading order (earlier chapter first) instead of by title. */
var KO_READING_ORDER = %s;
var Scorer = {
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: {0: 15, 1: 5, 2: -5},
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,
  score: function(result) {
    const rank = KO_READING_ORDER.indexOf(result[0]);
    if (rank < 0) return result[4];
    return result[4] + 0.5 * (1 - rank / KO_READING_ORDER.length);
  },
};
"""


def prepare_search(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """env-updated: forget cached owners; write the reading-order scorer."""
    env._korean_search_owners = None
    if app.config.html_search_scorer and not app.config.html_search_scorer.startswith(
        str(Path(app.doctreedir))
    ):
        logger.info("korean_search: html_search_scorer is set; keeping it")
        return []
    path = Path(app.doctreedir) / "korean_search_scorer.js"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SCORER_JS % json.dumps(reading_order(env)), encoding="utf-8")
    app.config.html_search_scorer = str(path)
    return []


def note_reread(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    if not hasattr(env, ENV_KEY):
        setattr(env, ENV_KEY, {})
    env._korean_search_changed = bool(docnames) or getattr(env, "_korean_search_changed", False)


def purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    if not hasattr(env, ENV_KEY):
        setattr(env, ENV_KEY, {})
    getattr(env, ENV_KEY).pop(docname, None)
    env._korean_search_changed = True


def merge(app: Sphinx, env: BuildEnvironment, docnames: list[str], other: BuildEnvironment) -> None:
    getattr(env, ENV_KEY).update(
        {d: getattr(other, ENV_KEY)[d] for d in docnames if d in getattr(other, ENV_KEY)}
    )


def rewrite_defining_pages(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """env-get-updated: when any page changed, term ownership may move between pages."""
    changed = getattr(env, "_korean_search_changed", False)
    env._korean_search_changed = False
    return sorted(getattr(env, ENV_KEY, {})) if changed else []


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_search_language(SearchKorean)
    app.connect("env-before-read-docs", note_reread)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("doctree-read", collect_definitions)
    app.connect("env-get-updated", rewrite_defining_pages)
    app.connect("env-updated", prepare_search)
    app.connect("doctree-resolved", add_definition_entries)
    return {"version": "1.0", "env_version": 1, "parallel_read_safe": True, "parallel_write_safe": True}
