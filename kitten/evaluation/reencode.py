"""Real pages re-encoded into legacy charsets: the test set of the encoding step.

Each shared-corpus page is decoded once (the way Kitten reads it), its own charset declarations
are taken out, and it is written again in the legacy encodings of its language or script
(Western pages in windows-1252 and ISO-8859-15, Japanese in Shift_JIS and EUC-JP, and so on).
Characters the target encoding lacks become numeric character references, as a CMS writing
that encoding would do, so the expected decoding is the page's text with those references.
Each re-encoded page comes in three variants: the correct ``<meta>`` declaration, a realistic
wrong one (a template that says UTF-8, a neighbouring legacy charset), and none.

The encoders are Python's codecs under their usual names (``shift_jis``, ``euc_jp``, ``big5``,
``gbk``...), which is how test sets like this one are usually made; Kitten decodes with the
WHATWG decoders, which agree with them on text (the few code points where the two tables
differ are listed in :data:`WHATWG_DIFFERENCES` and not counted as errors).

Used by ``benchmarks/encoding.py`` (detectors side by side) and by ``tests/test_encoding.py``.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

#: WHATWG name -> the Python codec a test-set author encodes with
ENCODERS: dict[str, str] = {
    "windows-1252": "cp1252", "ISO-8859-15": "iso8859_15", "ISO-8859-2": "iso8859_2",
    "windows-1250": "cp1250", "windows-1251": "cp1251", "KOI8-R": "koi8_r", "ISO-8859-5": "iso8859_5",
    "windows-1253": "cp1253", "ISO-8859-7": "iso8859_7", "windows-1254": "cp1254", "windows-1255": "cp1255",
    "windows-1256": "cp1256", "windows-1257": "cp1257", "windows-874": "cp874", "Shift_JIS": "shift_jis",
    "EUC-JP": "euc_jp", "GBK": "gbk", "gb18030": "gb18030", "Big5": "big5", "EUC-KR": "euc_kr",
}

#: the labels a page in that encoding declares (used in turn)
CORRECT_LABELS: dict[str, tuple[str, ...]] = {
    "windows-1252": ("iso-8859-1", "windows-1252"), "ISO-8859-15": ("iso-8859-15",),
    "ISO-8859-2": ("iso-8859-2",), "windows-1250": ("windows-1250",), "windows-1251": ("windows-1251",),
    "KOI8-R": ("koi8-r",), "ISO-8859-5": ("iso-8859-5",), "windows-1253": ("windows-1253",),
    "ISO-8859-7": ("iso-8859-7",), "windows-1254": ("windows-1254", "iso-8859-9"),
    "windows-1255": ("windows-1255",), "windows-1256": ("windows-1256",), "windows-1257": ("windows-1257",),
    "windows-874": ("windows-874", "tis-620"), "Shift_JIS": ("shift_jis", "Shift_JIS", "x-sjis"),
    "EUC-JP": ("euc-jp", "EUC-JP"), "GBK": ("gb2312", "GBK"), "gb18030": ("gb18030",), "Big5": ("big5",),
    "EUC-KR": ("euc-kr", "ks_c_5601-1987"),
}

#: realistic wrong declarations per script (used in turn): a UTF-8 template, Latin-1, a neighbour
_WRONG_BY_GROUP: dict[str, tuple[str, ...]] = {
    "western": ("utf-8", "windows-1251", "iso-8859-2"),
    "central": ("iso-8859-1", "utf-8", "windows-1251"),
    "cyrillic": ("iso-8859-1", "utf-8", "koi8-r"),
    "greek": ("iso-8859-1", "utf-8", "windows-1251"),
    "turkish": ("iso-8859-1", "utf-8", "iso-8859-2"),
    "baltic": ("iso-8859-1", "utf-8", "windows-1250"),
    "hebrew": ("iso-8859-1", "utf-8", "windows-1256"),
    "arabic": ("iso-8859-1", "utf-8", "windows-1255"),
    "thai": ("iso-8859-1", "utf-8"),
    "japanese": ("utf-8", "iso-8859-1", "big5"),
    "chinese-simplified": ("utf-8", "iso-8859-1", "big5"),
    "chinese-traditional": ("utf-8", "iso-8859-1", "gb2312"),
    "korean": ("utf-8", "iso-8859-1", "euc-jp"),
}

#: the legacy encodings of each script group
GROUP_CHARSETS: dict[str, tuple[str, ...]] = {
    "western": ("windows-1252", "ISO-8859-15"),
    "central": ("ISO-8859-2", "windows-1250"),
    "cyrillic": ("windows-1251", "KOI8-R", "ISO-8859-5"),
    "greek": ("windows-1253", "ISO-8859-7"),
    "turkish": ("windows-1254",),
    "baltic": ("windows-1257",),
    "hebrew": ("windows-1255",),
    "arabic": ("windows-1256",),
    "thai": ("windows-874",),
    "japanese": ("Shift_JIS", "EUC-JP"),
    "chinese-simplified": ("GBK", "gb18030"),
    "chinese-traditional": ("Big5",),
    "korean": ("EUC-KR",),
}

def _big5_region() -> dict[int, int]:
    """Python's ``big5`` codec puts kana and other symbols at 0xC6A1-0xC7FE, where the Encoding
    Standard's Big5 (Big5-HKSCS, as browsers read it) has other characters: what the browser
    shows for each."""
    table: dict[int, int] = {}
    for lead in (0xC6, 0xC7):
        for trail in (*range(0x40, 0x7F), *range(0xA1, 0xFF)):
            pair = bytes((lead, trail))
            try:
                python, browser = pair.decode("big5"), pair.decode("big5hkscs")
            except UnicodeDecodeError:
                continue
            if python != browser and len(python) == len(browser) == 1:
                table[ord(python)] = ord(browser)
    return table


#: Python codec -> {code point it encodes: code point a browser decodes from those bytes}: the
#: JIS tables of the Encoding Standard read the bytes of ¢ £ ¬ as their fullwidth forms and
#: the cp932 bytes of ～ ∥ － as 〜 ‖ −, and Python's Big5 has its own layout of the
#: 0xC6-0xC7 rows
WHATWG_DIFFERENCES: dict[str, dict[int, int]] = {
    "euc_jp": {0xA2: 0xFFE0, 0xA3: 0xFFE1, 0xAC: 0xFFE2},
    "shift_jis": {0xA2: 0xFFE0, 0xA3: 0xFFE1, 0xAC: 0xFFE2},
    "cp932": {0xA2: 0xFFE0, 0xA3: 0xFFE1, 0xAC: 0xFFE2, 0xFF5E: 0x301C, 0x2225: 0x2016, 0xFF0D: 0x2212},
    "big5": _big5_region(),
}
_C1_CONTROLS_RE = re.compile("[\x80-\x9f]")
_NON_ASCII_RE = re.compile("[^\x00-\x7f]")

VARIANTS = ("correct", "wrong", "missing")

_META_CHARSET_RE = re.compile(
    r"<meta\b[^>]*?(?:\bcharset\s*=|http-equiv\s*=\s*[\"']?content-type)[^>]*>", re.I)
_XML_DECL_RE = re.compile(r"\A\s*<\?xml[^>]*\?>", re.I)
_HEAD_RE = re.compile(r"<head\b[^>]*>", re.I)
_CENTRAL = set("ąćęłńśźżčďěňřšťůžőűĺľŕăşţ")
_TURKISH = set("ğışİĞŞ")
_BALTIC = set("ėįųūčšžāēīķļņ")


@dataclass(frozen=True)
class ReencodedPage:
    """One page written again in a legacy encoding, and what decoding it must give."""

    source: str  # the corpus page it was made from
    group: str  # script group (western, japanese...)
    charset: str  # WHATWG name of the encoding of ``data``
    variant: str  # "correct", "wrong" or "missing" declaration
    declared: str | None  # the label in the page's <meta>, if any
    text: str  # the expected decoding
    data: bytes


def script_group(chars: Counter[str]) -> str | None:
    """The script group of a page's non-ASCII characters (counted in ``chars``; ``None``:
    ASCII or mixed)."""
    counts: Counter[str] = Counter()
    latin: Counter[str] = Counter()
    for ch, k in chars.items():
        o = ord(ch)
        if o < 0x80 or not ch.isalpha():
            continue
        if o < 0x250:
            counts["latin"] += k
            latin[ch.lower()] += k
        elif 0x370 <= o < 0x400:
            counts["greek"] += k
        elif 0x400 <= o < 0x530:
            counts["cyrillic"] += k
        elif 0x590 <= o < 0x600:
            counts["hebrew"] += k
        elif 0x600 <= o < 0x700:
            counts["arabic"] += k
        elif 0xE00 <= o < 0xE80:
            counts["thai"] += k
        elif 0x3040 <= o < 0x3100 or 0x31F0 <= o < 0x3200:
            counts["kana"] += k
        elif 0xAC00 <= o < 0xD7B0:
            counts["hangul"] += k
        elif 0x3400 <= o < 0xA000:
            counts["han"] += k
    total = sum(counts.values())
    if total < 20:
        # an English page whose only non-ASCII characters are typographic (curly quotes,
        # dashes, a few accented names): the commonest windows-1252 page of all
        other = {ch: k for ch, k in chars.items() if ord(ch) >= 0x80}
        if sum(other.values()) >= 5 and all(ord(ch) < 0x250 or 0x2000 <= ord(ch) < 0x2190 for ch in other):
            return "western"
        return None
    top, n = counts.most_common(1)[0]
    if top in ("kana", "han"):
        if counts["kana"] > (counts["kana"] + counts["han"]) * 0.05:
            return "japanese"
        return None  # simplified or traditional is settled by the encodings (see targets)
    if n < total * 0.6:
        return None
    if top != "latin":
        return "korean" if top == "hangul" else top
    letters = sum(latin.values())
    for group, marks in (("turkish", _TURKISH), ("baltic", _BALTIC), ("central", _CENTRAL)):
        if sum(latin[c] for c in marks) >= max(3, letters * 0.1):
            return group
    return "western"


def _unencodable_share(chars: Counter[str], codec: str) -> float:
    """The share of the non-ASCII characters (counted in ``chars``) that ``codec`` lacks."""
    total = bad = 0
    for ch, k in chars.items():
        if ord(ch) < 0x80:
            continue
        total += k
        try:
            ch.encode(codec)
        except UnicodeEncodeError:
            bad += k
    return bad / total if total else 0.0


def targets(text: str, max_unencodable: float = 0.02) -> list[tuple[str, str]]:
    """(group, WHATWG encoding) pairs a page's text can be written in: the legacy encodings
    of its script in which at most ``max_unencodable`` of its non-ASCII characters are
    missing (CJK pages without kana go to the Chinese encoding that holds them)."""
    chars = Counter(_NON_ASCII_RE.findall(text))
    group = script_group(chars)
    if group is None:
        han = sum(k for ch, k in chars.items() if 0x4E00 <= ord(ch) < 0xA000)
        if han < 20:
            return []
        simplified = _unencodable_share(chars, "gb2312")
        traditional = _unencodable_share(chars, "big5")
        group = "chinese-simplified" if simplified <= traditional else "chinese-traditional"
    return [(group, charset) for charset in GROUP_CHARSETS[group]
            if _unencodable_share(chars, ENCODERS[charset]) <= max_unencodable]


def strip_declarations(page: str) -> str:
    """The page without its ``<meta>`` charset declarations and XML declaration."""
    return _META_CHARSET_RE.sub("", _XML_DECL_RE.sub("", page))


def declare(page: str, label: str | None, index: int) -> str:
    """``page`` (already stripped) with a ``<meta>`` declaring ``label`` at the top of its head
    (``<meta charset>`` and the ``http-equiv`` form in turn)."""
    if label is None:
        return page
    if index % 2:
        meta = f'<meta http-equiv="Content-Type" content="text/html; charset={label}">'
    else:
        meta = f'<meta charset="{label}">'
    head = _HEAD_RE.search(page)
    if head is None:
        return meta + page
    return page[: head.end()] + meta + page[head.end():]


def reencode(source: str, text: str, index: int = 0) -> Iterator[ReencodedPage]:
    """Every re-encoded variant of one page's decoded ``text``."""
    # C1 controls left in a page's text (undefined bytes of its own legacy encoding) are no
    # text: every Western encoding writes them differently
    stripped = _C1_CONTROLS_RE.sub("", strip_declarations(text))
    for group, charset in targets(stripped):
        codec = ENCODERS[charset]
        for variant in VARIANTS:
            if variant == "correct":
                labels = CORRECT_LABELS[charset]
            elif variant == "wrong":
                labels = tuple(label for label in _WRONG_BY_GROUP[group]
                               if label.lower() not in {c.lower() for c in CORRECT_LABELS[charset]})
            else:
                labels = (None,)
            label = labels[index % len(labels)]
            page = declare(stripped, label, index)
            data = page.encode(codec, "xmlcharrefreplace")
            expected = data.decode(codec)
            table = WHATWG_DIFFERENCES.get(codec)
            if table and any(chr(point) in expected for point in table):
                expected = expected.translate(table)
            yield ReencodedPage(source, group, charset, variant, label, expected, data)


def corpus_sources(corpora: Path) -> Iterator[tuple[str, str]]:
    """``(page, text)`` of the shared-corpus pages stored in UTF-8 (the pages whose text is
    certain: a legacy page's text would be Kitten's own reading of it)."""
    for path in sorted(corpora.glob("*/html/*")):
        if not path.is_file():
            continue
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            continue
        yield str(path.relative_to(corpora)), text.removeprefix("\ufeff")


def build(pages: Iterable[tuple[str, str]]) -> list[ReencodedPage]:
    """Every re-encoded variant of each ``(source, decoded text)`` page."""
    return [made for index, (source, text) in enumerate(pages) for made in reencode(source, text, index)]


Decoder = Callable[[bytes], str | None]


def exact(pages: Iterable[ReencodedPage], decoder: Decoder) -> dict[tuple[str, str], tuple[int, int]]:
    """(charset, variant) -> (pages decoded exactly, pages) for one decoder."""
    cells: dict[tuple[str, str], list[int]] = {}
    for page in pages:
        cell = cells.setdefault((page.charset, page.variant), [0, 0])
        cell[0] += decoder(page.data) == page.text
        cell[1] += 1
    return {key: (ok, n) for key, (ok, n) in cells.items()}


def table(results: dict[str, dict[tuple[str, str], tuple[int, int]]]) -> str:
    """Exact decodes per encoding and declaration case, one column group per decoder."""
    names = list(results)
    charsets = sorted({charset for cells in results.values() for charset, _ in cells},
                      key=lambda c: list(ENCODERS).index(c) if c in ENCODERS else 99)
    width = max(14, *(len(n) for n in names))
    lines = [f"{'encoding':<14} {'case':<8} {'pages':>5}  " + "  ".join(f"{n:>{width}}" for n in names)]

    def row(label: str, case: str, keep: Callable[[tuple[str, str]], bool]) -> str:
        cells = [[sum(v[i] for k, v in results[n].items() if keep(k)) for i in (0, 1)] for n in names]
        total = cells[0][1]
        return f"{label:<14} {case:<8} {total:>5}  " + "  ".join(
            f"{f'{ok}/{n} {100 * ok / n:5.1f}%' if n else '-':>{width}}" for ok, n in cells)

    for charset in charsets:
        for variant in VARIANTS:
            lines.append(row(charset, variant, lambda k, c=charset, v=variant: k == (c, v)))
    for variant in VARIANTS:
        lines.append(row("all", variant, lambda k, v=variant: k[1] == v))
    lines.append(row("all", "all", lambda k: True))
    return "\n".join(lines)
