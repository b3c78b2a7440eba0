"""What the gate's rules read of a unit: does it hold a sentence, is it a list item, the
page's headline, a figure's caption (the features that say so: ``features.py``)."""
from __future__ import annotations

import re

#: a block holds a sentence when it has this many words and a sentence end
SENTENCE_WORDS = 8

#: kept units hold an article when they hold this many words of prose (sentences): the
#: rules that drop comments, footers and the like under an article, and the one that keeps
#: its headline, ask for it
ARTICLE_WORDS = 50

#: the characters that end a sentence (one search for any of them: :data:`END_MARK`)
_ENDS = (".", "!", "?", "。", "！", "？", "”", '"', "»", "؟", "।", "။", "።")

END_MARK = re.compile("[" + re.escape("".join(_ENDS)) + "]")

#: scripts that end sentences with a space, not a mark (Thai, Lao, Khmer): a block holds
#: a sentence when it has twice :data:`SENTENCE_WORDS` words
_NO_END_MARK = re.compile(r"[\u0e00-\u0eff\u1780-\u17ff]")

#: a sentence that ends with one of these is no headline (:func:`without_link_lines`)
STOPS = (".", "!", "。", "！")

LIST_KINDS = frozenset({"list_item", "term", "definition"})

#: the feature of the page's headline (``features.py``, the ``page`` family)
TITLE = frozenset({"title.at"})

#: the features of a block inside a figure (``features.py``)
FIGURE = frozenset({"tag.figure", "tag.figcaption", "container.figure", "container.figcaption"})


def sentence_words(text: str, n: int) -> int:
    """``n``, the words of a unit's ``text``, when it holds a sentence
    (:data:`SENTENCE_WORDS` words or more and a sentence end; in Thai, Lao and Khmer twice
    as many words), else 0."""
    if n < SENTENCE_WORDS:
        return 0
    if END_MARK.search(text):
        return n
    return n if n >= 2 * SENTENCE_WORDS and _NO_END_MARK.search(text) else 0
