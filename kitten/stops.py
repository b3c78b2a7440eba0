"""Where the parser style adds no full stop to a segment that has none.

The parser style writes every boundary the page shows by layout as punctuation: a
heading, a list item or a table row without final punctuation gets a full stop
(``kitten/segment.py``: ``punctuate``; ``kitten/lists.py``: ``_finish``). Not these:

* **Chinese and Japanese text**: a segment with Han, kana or full-width characters, at
  least as many as its words in other scripts (``注册``, ``第１戦``, ``注册 (2019)``,
  ``iPhone 12 发布会``; not ``Mark Slavin 漢``). Those scripts end a sentence with
  ``。``, never an ASCII full stop; nothing is added, as after ``。``. Korean writes the
  ASCII full stop and gets it.
* **A URL or an e-mail address alone** (``https://nyti.ms/2cJ42vc``, ``www.example.org``,
  ``nyti.ms/2cJ42vc``, ``jane@example.org``): a stop would read as part of it.
* **A credit line**: a photo, image or source credit (``Photo: Jane Doe/Reuters``,
  ``(Foto: dpa)``, ``Photo by Jane Doe``, ``© 2022 Reuters``), up to
  :data:`CREDIT_WORDS` words, opened by a word of ``rules/credits.txt`` followed by a
  colon or a word of ``rules/byline.txt`` ("by", "par", "von" ...) and then names (up to
  two words, or at least half of them capitalized, digits or with a ``/``: not
  "Pictures: Celebrity weddings and engagements"), or opened by ``©``.
"""
from __future__ import annotations

import re
from functools import lru_cache

from kitten.resources import lines, rules_dir

#: a credit line has at most this many words
CREDIT_WORDS = 20

#: code points of Chinese and Japanese text: CJK punctuation, kana, Bopomofo, Han
#: (unified, extension A, compatibility, the supplementary planes), half- and full-width forms
_CJK_RANGES = ((0x3000, 0x30FF), (0x3100, 0x312F), (0x31A0, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF),
               (0xF900, 0xFAFF), (0xFF00, 0xFFEF), (0x20000, 0x3FFFF))
_CJK_CHARS = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in _CJK_RANGES) + "]")
#: a word of another script: a run of letters (digits apart: "第１戦", "注册 2019")
_OTHER_WORD = re.compile(r"[^\W\d_]+")
_URL = re.compile(r"(?:(?:https?|ftp)://|www\.)\S+|[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/\S*", re.I)
_EMAIL = re.compile(r"(?:mailto:)?[\w.+-]+@[\w-]+(?:\.[\w-]+)+", re.I)


def cjk_sentence(text: str) -> bool:
    """Is ``text`` Chinese or Japanese: it holds CJK characters, at least as many as
    words written in other scripts (a CJK character is about a word: ``iPhone 12 发布会``
    is Chinese, ``Mark Slavin 漢`` is not)?"""
    if text.isascii() or _CJK_CHARS.search(text) is None:  # most segments
        return False
    cjk = len(_CJK_CHARS.findall(text))
    return cjk >= len(_OTHER_WORD.findall(_CJK_CHARS.sub(" ", text)))


def address_only(text: str) -> bool:
    """Is ``text`` one URL or one e-mail address and nothing else?"""
    return " " not in text and (_URL.fullmatch(text) is not None or ("@" in text and _EMAIL.fullmatch(text) is not None))


@lru_cache(maxsize=8)
def _credit_pattern(rules: str) -> re.Pattern:
    """The opening of a credit line: ``rules/credits.txt`` (the shipped one when the
    configured folder has none) followed by a colon or a word of ``rules/byline.txt``;
    or ``©``."""
    folder = rules if (rules_dir(rules) / "credits.txt").is_file() else ""
    words = sorted(lines(folder, "", "credits.txt"), key=len, reverse=True)
    by = sorted(lines(folder if (rules_dir(folder) / "byline.txt").is_file() else "", "", "byline.txt"))
    alternatives = "|".join(r"\s+".join(map(re.escape, w.split())) for w in words)
    return re.compile(rf"[(\[]?\s*(?:(?:{alternatives})\s*(?:[:：]|\s(?:{'|'.join(map(re.escape, by))})\s)|©|\(c\)\s)",
                      re.I)


def credit_line(text: str, rules: str = "") -> bool:
    """Is ``text`` a photo, image or source credit (the module docstring)?"""
    # (the words counted up to the limit: a table's clause of 400 words is not split whole)
    if len(text.split(maxsplit=CREDIT_WORDS)) > CREDIT_WORDS or (m := _credit_pattern(rules).match(text)) is None:
        return False
    if "©" in m.group() or "(c)" in m.group().lower():
        return True
    names = text[m.end():].split()  # who is credited: names, agencies, "Jane Doe/Reuters"
    return len(names) <= 2 or sum(w[0].isupper() or w[0].isdigit() or "/" in w for w in names) * 2 >= len(names)


def takes_no_stop(text: str, rules: str = "") -> bool:
    """Is ``text`` (a segment without final punctuation, white space collapsed) one the
    parser style leaves without a full stop: Chinese or Japanese, a URL or an e-mail
    address alone, a credit line? ``rules``: the rules folder (default: the checkout's)."""
    return cjk_sentence(text) or address_only(text) or credit_line(text, rules)
