"""What counts as an English sentence in a Korean output line (the CLI's tests use it).

A run of two or more English words (ASCII letters only, separated by spaces) is a sentence
fragment, once the names and values a person typed are taken out: the command line's own
arguments, quoted values ('B:l', "nope"), the program and a command (``rankmetrics ndcg``,
in an example or a help hint), and tokens with code in them (n_relevant=1,
--relevant, trec_eval -c, nDCG@10, log2(rank+1)), which are names, not words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_COMMAND = re.compile(r"\brankmetrics(?: (?:[a-z][a-z_-]*|<[^>]+>))?")  # the program and a command: names
_WORD = re.compile(r"[A-Za-z]*[a-z][A-Za-z]*[,.;:]?")  # ALL-CAPS (QRELS, RUN) is a placeholder


def english_runs(text: str, typed: Iterable[str] = ()) -> list[str]:
    """The runs of 2+ English words in ``text`` outside what the user typed.

    >>> english_runs("rankmetrics ndcg: 오류: k에는 양의 정수나 None을 주세요; 받은 값: 0", ["ndcg"])
    []
    >>> english_runs("rankmetrics ndcg: 오류: k must be a positive integer or None; got 0", ["ndcg"])
    ['k must be a positive integer or None; got']
    """
    for token in sorted((t for t in typed if t.strip()), key=len, reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(token)}(?![\w-])", " ", text)
    text = _QUOTED.sub(" ", text)
    text = _COMMAND.sub(" ", text)
    runs: list[str] = []
    for line in text.splitlines():  # a run never crosses a line
        current: list[str] = []
        for token in [*line.split(), ""]:
            word = _WORD.fullmatch(token) is not None
            if word:
                current.append(token)
            if not word or token.endswith(","):  # a comma ends a run: "table, tsv, csv" lists names
                if len(current) >= 2:
                    runs.append(" ".join(current))
                current = []
    return runs
