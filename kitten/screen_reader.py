"""Screen-reader phrases of share and link plugins, left out of the blocks' text.

The structure step leaves out the elements of screen-reader-only classes (``[structure]
hidden_classes``: ``sr-only``, ``screen-reader-text`` ...). Many plugins write their
phrase for screen readers in an element of a class of their own ("Click to share on
Twitter (Opens in new window)", ``apple.com (Opens in a new window)``, "Wird in neuem
Fenster geöffnet"), or in no element at all: those phrases, listed per language in
``rules/<lang>/screen-reader.txt``, are cut from the text where they stand
(:func:`without_phrases`), in both styles. The phrases of every language apply to every
page (a French page's share buttons often speak English). A phrase is cut with the
brackets around it and a dash before it; the space before it goes too when a space,
a mark or the end of the text follows. A block left without text goes; each cut is
recorded as a ``Removal`` (reason ``screen-reader-phrase``). Pure functions: the blocks
given are not changed.
"""
from __future__ import annotations

import dataclasses
import re
from functools import lru_cache
from typing import NamedTuple

from kitten.document import BR, Block, Document, Removal
from kitten.resources import lines, rules_dir

#: the rules file of each language
FILE = "screen-reader.txt"
#: the reason of the removals recorded
REASON = "screen-reader-phrase"


class Phrases(NamedTuple):
    """The phrases of every language, each under its key (lower case): its longest word of
    five letters or more, else the whole phrase (``new tab``). A text holding none of the
    keys holds no phrase: the keys are looked for first, and a pattern is made of the
    phrases whose keys a page holds (one pattern of every phrase, tried at each position
    of every text, cost 100-250 ms a page)."""

    by_key: dict[str, tuple[str, ...]]  # key -> the phrases' patterns (:func:`_phrase`)


def _phrase(line: str) -> str:
    """One phrase of a rules file as a pattern: any white space between its words, ``'``
    for either apostrophe; in brackets when written in brackets, else with optional ones."""
    bracketed = line[:1] in "([" and line[-1:] in ")]"
    words = line[1:-1].split() if bracketed else line.split()
    body = r"\s+".join(re.escape(w).replace("'", "['’]") for w in words)
    return rf"[(\[]\s*{body}\s*[)\]]" if bracketed else rf"[(\[]?\s*\b{body}\b\s*\.?\s*[)\]]?"


def _key(line: str) -> str:
    body = line.strip("()[]").lower()
    word = max((w for w in body.split() if "'" not in w), key=len)
    return word if len(word) >= 5 else " ".join(body.split())


@lru_cache(maxsize=8)
def phrases(rules: str = "") -> Phrases:
    """The phrases of every ``rules/<lang>/screen-reader.txt`` of the rules folder."""
    found = sorted({line for path in sorted(rules_dir(rules).glob(f"*/{FILE}"))
                    for line in lines(rules, path.parent.name, FILE)}, key=len, reverse=True)
    by_key: dict[str, list[str]] = {}
    for line in found:  # longest first: a phrase is cut whole, not a shorter one inside it
        by_key.setdefault(_key(line), []).append(_phrase(line))
    return Phrases({k: tuple(v) for k, v in by_key.items()})


@lru_cache(maxsize=64)
def _pattern(rules: str, keys: frozenset[str]) -> re.Pattern:
    """One pattern of the phrases under ``keys`` (longest phrases first)."""
    by_key = phrases(rules).by_key
    chosen = sorted((p for k in keys for p in by_key[k]), key=len, reverse=True)
    return re.compile(r"(?:[-–—|,]\s*)?(?:" + "|".join(chosen) + ")", re.I)


def cut(text: str, pattern: re.Pattern) -> str:
    """``text`` without the phrases ``pattern`` finds (the module docstring)."""
    out = []
    pos = 0
    for m in pattern.finditer(text):
        before = text[pos:m.start()]
        after = text[m.end():m.end() + 1]
        if before[-1:].isspace() and not after.isalnum():
            before = before.rstrip()
        out.append(before)
        pos = m.end()
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)


def without_phrases(doc: Document, rules: str = "") -> tuple[list[Block], list[Removal]]:
    """The blocks of ``doc`` with the screen-reader phrases cut, and a removal for each
    block that had one (``rules``: the rules folder)."""
    found = phrases(rules)
    blocks = doc.blocks
    if not found.by_key:
        return blocks, []
    page = "\n".join([x for b in blocks for x in b.inlines if x is not BR]).lower()
    keys = tuple(k for k in found.by_key if k in page)
    if not keys:  # most pages
        return blocks, []
    pattern = _pattern(rules, frozenset(keys))
    out: list[Block] = []
    removals: list[Removal] = []
    for b in blocks:
        inlines = [x if x is BR or not any(k in x.lower() for k in keys) else _cut_inline(x, pattern)
                   for x in b.inlines]
        if inlines == b.inlines:
            out.append(b)
            continue
        cut_text = " ".join(m.group().strip() for x in b.inlines if x is not BR for m in pattern.finditer(x))
        removals.append(Removal(b.source, REASON, cut_text[:80], doc.locate))
        if any(x is not BR and not x.isspace() for x in inlines):
            out.append(dataclasses.replace(b, inlines=inlines))
    return out, removals


def _cut_inline(x: str, pattern: re.Pattern) -> str:
    """An inline string without its phrases, of the same type (an ``AltText`` stays one)."""
    text = cut(x, pattern)
    return x if text == x else type(x)(text)
