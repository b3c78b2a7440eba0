"""Segmentation step: ``Document`` -> sentences with explicit boundaries.

Parsers read punctuation, not layout, so every boundary the page shows by layout is
written as punctuation:

* **Block ends**: every block is its own segment; one that does not end with
  sentence-final punctuation (``. ? ! …``, possibly followed by closing quotes or
  brackets) gets a full stop. A block ending with a colon keeps it: it introduces what
  follows (the lists step joins the two).
* **``<br>``**: two or more in a row always end a segment. A single one is joined
  with a space when the line before it has no final punctuation and the next line
  continues it: it starts with a lower-case letter or a digit, or the line before ends
  with a continuation word (``rules/<lang>/continuation.txt``: articles,
  prepositions, conjunctions). Otherwise the lines stand alone (addresses, poems,
  lists written with ``<br>``) and each is a segment. ``[segment] join_br = false``
  makes every ``<br>`` end a segment.
* **Preformatted** blocks keep their lines: each line is a segment.
* White space, including no-break spaces, is collapsed to single spaces.
* Segments without any letter or digit (``|``, ``»``) are left out
  (``[segment] drop_symbol_only``).
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from kitten.config import SegmentConfig
from kitten.document import BR, Block, Document, Sentence
from kitten.log import PageLog
from kitten.resources import rules_dir, word_list
from kitten.stops import takes_no_stop

#: sentence-final punctuation of the scripts Kitten meets: Latin, CJK (。！？ and their
#: half- and full-width forms), Devanagari and Bengali (। ॥), Arabic and Urdu (؟ ۔),
#: Ethiopic (። ፧), Myanmar (။), Khmer (។), Armenian (։), Greek question mark (;)
_FINAL = frozenset(".?!…‽‼⁇⁈⁉。！？｡．।॥؟۔።፧፨။។៕։;")
#: closing quotes and brackets that may follow it
_CLOSERS = frozenset("\"'”’»)]}›」』）】〕〉》〗〙〛］｝")
#: characters of a word (``[\w'’-]``) that are not ``\w`` characters
_WORD_MARKS = "'’-"
_HAS_ALNUM = re.compile(r"\w")
def segment(doc: Document, config: SegmentConfig, log: PageLog, rules: str = "") -> list[Sentence]:
    """The sentences of ``doc``, in document order (``rules``: the rules folder, default
    ``rules/`` of the checkout)."""
    words = word_list(rules, doc.lang, "continuation.txt")
    splitter = Splitter(doc.lang, abbreviations(rules, doc.lang)) if config.split_sentences else None
    out: list[Sentence] = []
    joined = 0
    drop_symbol_only, has_alnum, end_run = config.drop_symbol_only, _HAS_ALNUM.search, _END_RUN.search
    for block in doc.blocks:
        inlines = block.inlines
        if BR not in inlines and block.kind != "preformatted":  # most blocks: one segment
            text = collapsed("".join(inlines))
            # (\w is a letter, a digit or "_": most texts start with one, no search)
            if text and not (drop_symbol_only and not (text[0].isalnum() or has_alnum(text))):
                n = len(text)
                if splitter is None or n < 4 or (run := end_run(text, 1, n - 1)) is None:  # one sentence
                    out.append(Sentence(text if text[-1] in _KEPT_END else punctuate(text, rules), block, 0, n))
                else:
                    _add(out, block, text, 0, splitter.split(text, run), rules)
            continue
        joined += _add_lines(out, block, words, config, splitter, rules)
    if joined:
        log.add("segment", "br-joined", f"{joined} line breaks inside clauses joined")
    return out


def _add_lines(out: list[Sentence], block: Block, words: frozenset[str], config: SegmentConfig,
               splitter: "Splitter | None", rules: str = "") -> int:
    """The sentences of a block with line breaks, or preformatted (its lines kept as
    written, no full stop added, but split where two sentences share one); returns how
    many single ``<br>`` were joined inside clauses."""
    if block.kind == "preformatted":
        lines = [(line, 2) for line in block.text().split("\n")]
    else:
        lines = _lines(block)
    segments = list(_segments(lines, words, config.join_br))  # stripped, white space collapsed
    # the block's text with its white space collapsed: its lines' words, one space apart
    collapsed = " ".join([text for text, _ in segments])
    cursor = 0
    for text, _ in segments:
        if config.drop_symbol_only and not _HAS_ALNUM.search(text):
            continue
        at = collapsed.find(text, cursor)
        if at >= 0:
            cursor = at + len(text)
        spans = splitter.spans(text) if splitter is not None else [(0, len(text))]
        if block.kind != "preformatted":
            _add(out, block, text, at if at >= 0 else None, spans, rules)
            continue
        for a, b in spans:
            out.append(Sentence(text[a:b], block, *((at + a, at + b) if at >= 0 else (None, None))))
    return sum(n for _, n in segments)


def _add(out: list[Sentence], block: Block, text: str, offset: int | None,
         spans: list[tuple[int, int]], rules: str = "") -> None:
    """The sentences ``spans`` (:meth:`Splitter.spans`) of one segment ``text`` (white
    space collapsed) that starts at ``offset`` in its block's collapsed text."""
    for start, end in spans:
        piece = text[start:end]
        if piece[-1] not in _KEPT_END:  # most sentences end with their mark: no call
            piece = punctuate(piece, rules)
        if offset is None:
            out.append(Sentence(piece, block))
        else:
            out.append(Sentence(piece, block, offset + start, offset + end))


def collapsed(text: str) -> str:
    """``text`` with its white space collapsed (``" ".join(text.split())``), without the
    split and join when there is nothing to collapse: a printable text (no white space
    but spaces) with no double, leading or trailing space."""
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    return " ".join(text.split())


#: languages that write ordinal numbers with a full stop ("am 3. Oktober"): a number
#: of up to three digits before a full stop does not end the sentence there
ORDINAL_DOT = frozenset("de da nb nn no fi is cs sk sl hr sr bs pl hu et lv lt tr".split())
#: a run of end marks of any script (a quick scan before the full pattern), written
#: ``[..][..]*`` rather than ``[..]+``: ``re`` scans for the first character of a
#: pattern that starts with a character class in C, not for one that starts with a
#: repeat (twice as fast on text without end marks)
_END_RUN = re.compile("[.?!…‽‼⁇⁈⁉।॥؟۔።፧။។。！？｡．][.?!…‽‼⁇⁈⁉।॥؟۔።፧။។。！？｡．]*")
_CLOSE = re.escape("".join(sorted(_CLOSERS)))  # for character classes
#: a possible sentence end: end punctuation, closing marks and citation markers, then a
#: space, opening marks and a letter or digit (captured) or a currency sign; after CJK
#: marks, anything
_CANDIDATE = re.compile(
    "(?:[.?!…‽‼⁇⁈⁉]+|[।॥؟۔።፧။។]+)[" + _CLOSE + "]*(?:\\[\\d{1,3}\\])*"
    "(?= [\"'“‘«„‚‹(¿¡\\[「『（【]*([^\\W_]|[$€£¥]))"
    "|[。！？｡．]+[" + _CLOSE + "]*(?= ?[^\\s。！？｡．" + _CLOSE + "])")
#: characters that close a word before its full stop: "(6th ed.)." ends there
_WORD_CLOSERS = ")]\"'”’»"
_OPENERS = "\"'“‘«„‚‹(¿¡[「『（【"


def _candidates(text: str, pos: int, run: re.Match | None = None) -> Iterator[re.Match]:
    """The possible sentence ends at or after ``pos``, each searched for after the end of
    the one before: runs of end marks are found by a quick scan, and :data:`_CANDIDATE`
    is tried where each starts (a search with the whole pattern is several times slower).
    ``run``: the first run, ``_END_RUN.search(text, pos, len(text) - 1)``, if known."""
    search, match = _END_RUN.search, _CANDIDATE.match
    last = len(text) - 1  # a run that starts there is none: something must follow it
    if run is None:
        run = search(text, pos, last)
    while run is not None:
        m = match(text, run.start())
        if m is None:
            pos = run.end()
        else:
            yield m
            pos = m.end()
        run = search(text, pos, last)


def _last_word(text: str, end: int) -> str:
    """The word that ends at ``end`` (text has its white space collapsed to spaces)."""
    return text[text.rfind(" ", 0, end) + 1:end]


_INNER = re.compile(r"[.\-]+")
_ENUMERATOR = re.compile(r"\d{1,3}(?:\.\d{1,3})*\.?|[IVXLCivxlc]{1,5}|\w")


@lru_cache(maxsize=64)
def abbreviations(rules: str, lang: str) -> frozenset[str]:
    """``rules/<lang>/abbreviations.txt`` (none for a language without the file: the
    language-independent rules of :class:`Splitter` still apply)."""
    if not lang or not (rules_dir(rules) / lang / "abbreviations.txt").is_file():
        return frozenset()
    return word_list(rules, lang, "abbreviations.txt")  # "no+": before a number only (Splitter)


class Splitter:
    """Sentence boundaries inside a segment, from its punctuation.

    A sentence ends after a run of end punctuation (and the closing quotes or brackets
    after it) when white space and then an upper-case letter, a digit, or a letter of a
    script without case follow (opening quotes and brackets allowed in between), or a
    lower-case letter after a lone full stop that follows an ordinary word of three
    letters or more (a sentence written without its capital); after
    CJK end punctuation (。！？) it ends whatever follows. Not after a full stop that
    closes an abbreviation of ``rules/<lang>/abbreviations.txt``, a single letter
    ("J. Smith"), a word with inner full stops ("U.S.", "e.g."), or, in languages that
    write ordinals with a full stop, a number of up to three digits ("am 3. Oktober").
    """

    def __init__(self, lang: str, abbrevs: frozenset[str]):
        self.abbrevs = abbrevs
        self.ordinals = lang in ORDINAL_DOT

    def spans(self, text: str) -> list[tuple[int, int]]:
        """``[start, end)`` of each sentence of ``text`` (white space collapsed)."""
        # most segments: no end mark before the last character (a quick scan), or none
        # followed by a space and a word
        if len(text) < 4 or (run := _END_RUN.search(text, 1, len(text) - 1)) is None:
            return [(0, len(text))]
        return self.split(text, run)

    def split(self, text: str, run: re.Match | None = None) -> list[tuple[int, int]]:
        """:meth:`spans` of a text with an end mark before its last character (``run``:
        the first run of end marks, ``_END_RUN.search(text, 1, len(text) - 1)``, when the
        caller has it)."""
        out = []
        start = 0
        marks: _Marks | None | bool = False  # not yet known: made when first needed
        for m in _candidates(text, 1, run):
            at, end = m.span()
            mark, following = m.group(0, 1)  # following: the first letter or digit after (None after CJK marks)
            if following is None:
                if mark[-1] in "」』）":
                    continue  # 「行こう。」と言った。: the sentence goes on after the quotation
            else:
                if following.islower() and not self._ends_before_lower(text, m):
                    continue  # "... the positions. the party ...", not "approx. the same"
                if mark[0] == "." and not mark.startswith("..") and self._no_end(text, at):
                    continue
            # (an enumerator longer than five characters starts with a digit: most sentences are no call)
            if (at - start <= 5 or text[start].isdigit()) and _ENUMERATOR.fullmatch(text, start, at):
                continue  # "5. Hemolysis", "IV. Results": a number, not a sentence
            if marks is False:
                marks = _Marks() if _MARKS.search(text) else None
            if marks is not None and marks.inside(text, end):
                continue  # '"I went home. Then I slept." He nodded.': one sentence for a reader
            out.append((start, end))
            start = end + 1 if text[end] == " " else end
        out.append((start, len(text)))
        return out

    def _ends_before_lower(self, text: str, m: re.Match) -> bool:
        """A sentence written without its capital ("... the positions. the party ...")
        ends after a lone full stop that follows an ordinary word of three letters or
        more (not an abbreviation)."""
        if m.group() != ".":  # not after ? or !, nor a closing quote: '"Why?" he asked'
            return False
        word = _last_word(text, m.start())
        low = word.lower()
        return len(word) >= 3 and word.isalpha() and low not in self.abbrevs and low + "+" not in self.abbrevs

    def _no_end(self, text: str, dot: int) -> bool:
        """Is the full stop at ``dot`` part of an abbreviation, an initial, or an ordinal?"""
        word = _last_word(text, dot).lstrip(_OPENERS)
        if not word or word[-1] in _WORD_CLOSERS:
            return False  # "(6th ed.)." ends after the bracket
        if len(word) == 1 and word.isalpha():
            return True  # an initial
        if "." in word and all(len(part) <= 3 and not part.isdigit() for part in _INNER.split(word)):
            return True  # U.S, e.g, Ph.D, c.-à-d (not example.com, not 0.05)
        if self.ordinals and word.isdigit() and len(word) <= 3:
            return True
        low = word.lower()
        if low in self.abbrevs:
            return True
        return low + "+" in self.abbrevs and text[dot + 2:dot + 3].isdigit()  # "No. 5", not "says no. He"


_OPEN_MARKS = {"“": "”", "«": "»", "„": "“”", "(": ")", "[": "]", "「": "」", "『": "』", "（": "）"}
_CLOSE_MARKS = frozenset("”»)]」』）")


_MARKS = re.compile("[\"“”«»„()\\[\\]「」『』（）]")


class _Marks:
    """Quotation marks and brackets open at a point of a text, scanned once from left to
    right as the splitter moves on."""

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.straight = False
        self.pos = 0

    def inside(self, text: str, at: int) -> bool:
        """Is ``at`` inside a quotation or a bracket that closes later in ``text``? (An
        opening mark never closed does not hold the rest of the text together.)"""
        stack = self.stack
        for mark in _MARKS.finditer(text, self.pos, at):
            ch = mark.group()
            if ch == '"':
                self.straight = not self.straight
            elif ch in _OPEN_MARKS and not (ch == "“" and stack and stack[-1] == "„"):
                stack.append(ch)
            elif ch in _CLOSE_MARKS or ch == "“":
                if stack and ch in _OPEN_MARKS.get(stack[-1], ""):
                    stack.pop()
        self.pos = at
        if self.straight and text.find('"', at) >= 0:
            return True
        return bool(stack) and any(text.find(c, at) >= 0 for o in stack for c in _OPEN_MARKS[o])


def _lines(block: Block) -> list[tuple[str, int]]:
    """The block's lines, each with the number of ``<br>`` that end it."""
    lines: list[tuple[str, int]] = []
    current: list[str] = []
    breaks = 0
    for item in block.inlines:
        if item is BR:
            breaks += 1
            continue
        if breaks:
            if item.strip():  # white space between breaks does not end the run
                lines.append(("".join(current), breaks))
                current, breaks = [], 0
            else:
                continue
        current.append(item)
    lines.append(("".join(current), max(breaks, 2)))
    return lines


def _segments(lines: list[tuple[str, int]], words: frozenset[str], join_br: bool):
    """Join lines cut by a single ``<br>`` inside a clause; yield (segment, joins made)."""
    pending = ""
    joins = 0
    previous_breaks = 2
    for text, breaks in lines:
        line = collapsed(text)
        if not line:
            previous_breaks = max(previous_breaks, breaks)
            continue
        if pending and join_br and previous_breaks == 1 and continues(pending, line, words):
            pending = f"{pending} {line}"
            joins += 1
        else:
            if pending:
                yield pending, joins
                joins = 0
            pending = line
        previous_breaks = breaks
    if pending:
        yield pending, joins


def continues(before: str, after: str, words: frozenset[str]) -> bool:
    """Does ``after`` (the line after a single ``<br>``) continue the clause ``before``?"""
    if ends_sentence(before) or before.endswith(":"):
        return False
    first = after[0]
    if first.islower() or first.isdigit():
        return True
    word = _end_word(before)
    return bool(word and word.lower() in words)


def _end_word(text: str) -> str:
    r"""The word that ends ``text`` (symbols after it apart), with the ``' ’ -`` around
    it: the group of ``re.search(r"([\w'’-]+)\W*$", text)`` ("" for none), found from
    the end (that search retries at every position of the line, each time to its end)."""
    end = len(text)
    while end and not (text[end - 1].isalnum() or text[end - 1] == "_"):  # not \w
        end -= 1
    if not end:  # no \w at all: the first run of word marks
        start = 0
        while start < len(text) and text[start] not in _WORD_MARKS:
            start += 1
        end = start
    else:
        start = end - 1
        while start and (text[start - 1].isalnum() or text[start - 1] in _WORD_MARKS or text[start - 1] == "_"):
            start -= 1
    while end < len(text) and text[end] in _WORD_MARKS:
        end += 1
    return text[start:end]


def ends_sentence(text: str) -> bool:
    """Does ``text`` end with sentence-final punctuation (closing quotes/brackets allowed)?"""
    i = len(text) - 1
    while i >= 0 and text[i] in _CLOSERS:
        i -= 1
    return i >= 0 and text[i] in _FINAL


#: last characters of a text that :func:`punctuate` keeps as it is, whatever comes before
_KEPT_END = _FINAL | {":", "："}


def punctuate(text: str, rules: str = "") -> str:
    """``text`` with a full stop added when it does not end a sentence (or with a colon),
    unless it takes none (``kitten/stops.py``: Chinese or Japanese text, a URL or an
    e-mail address alone, a credit line; ``rules``: the rules folder)."""
    if text[-1] in _KEPT_END or ends_sentence(text) or takes_no_stop(text, rules):  # most pass the first test
        return text
    if text[-1] in ",;-–—":
        return text[:-1].rstrip() + "."
    return text + "."
