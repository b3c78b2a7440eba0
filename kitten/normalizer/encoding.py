"""Decode step: crawled bytes -> ``str``, choosing the encoding the way a careful browser would,
and correcting pages whose declared charset is wrong.

Decision order (each decision is logged as a ``decode``/``encoding`` event; replacing a declared
charset is logged as ``encoding-override``):

1. A byte order mark (UTF-8, UTF-16LE, UTF-16BE) wins.
2. The HTTP ``Content-Type`` charset, when headers are given.
3. ``<meta charset>`` / ``<meta http-equiv=content-type content="...; charset=...">`` found by the
   HTML standard's *prescan a byte stream to determine its encoding* algorithm over the first
   ``DecodeConfig.prescan_bytes`` bytes, then an ``<?xml ... encoding="..."?>`` declaration at the
   start of the document. As the standard says, a UTF-16 charset found this way means UTF-8
   (the bytes were readable as ASCII) and ``x-user-defined`` means windows-1252.
4. Otherwise: UTF-16 without BOM is sniffed from the NUL pattern; pure ASCII gets the
   default; valid UTF-8 is UTF-8 (and so is UTF-8 with a few invalid sequences); anything else
   is legacy: ``DecodeConfig.default_encoding`` when its decoding reads as text, else the best
   of charset-normalizer's answer and the common web encodings, scored by :func:`measure`.

A declared charset (HTTP or in-document) is *verified* when ``DecodeConfig.verify_declared``:

* bytes that are pure ASCII agree with any ASCII-compatible declaration (nothing to check);
* non-ASCII bytes that are valid UTF-8 are UTF-8, whatever is declared (legacy text with
  non-ASCII bytes is practically never valid UTF-8 by accident);
* a declared UTF-8 is kept while the invalid sequences do not outnumber the valid non-ASCII
  characters (a stray byte or two in a UTF-8 page only costs a U+FFFD each); when they do, or
  when there is no valid multi-byte character at all, the page is really in a legacy encoding
  (an ASCII page with one stray ``0x92`` is windows-1252 in practice);
* a declared legacy encoding is kept when its decoding of the page's non-ASCII words reads as
  text (:func:`measure`: mess <= 0.03 and ideograph rarity <= 0.12 per non-ASCII character);
  otherwise charset-normalizer's answer and the common web encodings are scored, and the
  declaration is replaced only by a candidate that is better by 0.05 per non-ASCII character
  *and* by 2 points in total (one odd character is no evidence).

Only those legacy pages pay for the scoring (a few ms); ASCII, valid UTF-8 and pages whose
declared or default legacy encoding reads cleanly cost one or two C-level passes.

Decoding never raises: WHATWG names map to Python codecs faithfully (see
:mod:`kitten.whatwg_encodings`) and invalid sequences become U+FFFD.
"""
from __future__ import annotations

import codecs
import functools
import re
import unicodedata
from collections import Counter
from types import MappingProxyType
from typing import Iterable, Mapping, NamedTuple

from kitten.config import DecodeConfig
from kitten.log import PageLog
from kitten.whatwg_encodings import ASCII_WS as _ASCII_WS, C1_FALLBACK, MULTI_BYTE, PYTHON_CODECS, resolve_label
from kitten.page import Decoded, EncodingSource

__all__ = ["resolve_label", "resolve_lenient", "decode", "decode_as", "prescan", "measure", "badness"]

_STEP = "decode"

# --------------------------------------------------------------------------------------------
# Labels
# --------------------------------------------------------------------------------------------


#: Python codec names (as ``codecs.lookup(...).name`` gives them) -> WHATWG names, for labels
#: that are not WHATWG labels but that Python knows (``euc_kr``, ``cp936``, ``windows-31j`` ...),
#: and for the answers of charset-normalizer.
_PY_TO_WHATWG: Mapping[str, str] = MappingProxyType({
    "utf-8": "UTF-8", "ascii": "windows-1252", "latin-1": "windows-1252", "iso8859-1": "windows-1252",
    "cp1252": "windows-1252", "cp1250": "windows-1250", "cp1251": "windows-1251", "cp1253": "windows-1253",
    "cp1254": "windows-1254", "cp1255": "windows-1255", "cp1256": "windows-1256", "cp1257": "windows-1257",
    "cp1258": "windows-1258", "cp874": "windows-874", "cp866": "IBM866", "koi8-r": "KOI8-R",
    "koi8-u": "KOI8-U", "mac-roman": "macintosh", "mac-cyrillic": "x-mac-cyrillic",
    "iso8859-2": "ISO-8859-2", "iso8859-3": "ISO-8859-3", "iso8859-4": "ISO-8859-4", "iso8859-5": "ISO-8859-5",
    "iso8859-6": "ISO-8859-6", "iso8859-7": "ISO-8859-7", "iso8859-8": "ISO-8859-8", "iso8859-9": "windows-1254",
    "iso8859-10": "ISO-8859-10", "iso8859-11": "windows-874", "iso8859-13": "ISO-8859-13",
    "iso8859-14": "ISO-8859-14", "iso8859-15": "ISO-8859-15", "iso8859-16": "ISO-8859-16", "tis-620": "windows-874",
    "shift_jis": "Shift_JIS", "cp932": "Shift_JIS", "shift_jisx0213": "Shift_JIS", "shift_jis_2004": "Shift_JIS",
    "euc_jp": "EUC-JP", "euc_jisx0213": "EUC-JP", "euc_jis_2004": "EUC-JP", "iso2022_jp": "ISO-2022-JP",
    "iso2022_jp_ext": "ISO-2022-JP", "iso2022_jp_1": "ISO-2022-JP", "iso2022_jp_2": "ISO-2022-JP",
    "euc_kr": "EUC-KR", "cp949": "EUC-KR",
    "gb2312": "GBK", "gbk": "GBK", "gb18030": "gb18030", "hz": "replacement",
    "big5": "Big5", "big5hkscs": "Big5", "cp950": "Big5",
    "utf-16": "UTF-16LE", "utf-16-le": "UTF-16LE", "utf-16-be": "UTF-16BE",
})


def resolve_lenient(label: str) -> str | None:
    """A WHATWG label, or failing that a label Python knows for an encoding WHATWG supports
    (crawled pages say ``euc_kr``, ``cp936``, ``windows-31j``...). ``None`` when neither."""
    name = resolve_label(label)
    if name is not None:
        return name
    key = label.strip(_ASCII_WS)
    if not key or not key.isascii() or len(key) > 40:
        return None
    try:
        py = codecs.lookup(key).name
    except LookupError:
        return None
    return _PY_TO_WHATWG.get(py)


# --------------------------------------------------------------------------------------------
# Decoding with a WHATWG encoding (never raises)
# --------------------------------------------------------------------------------------------


def _single_byte_table(name: str) -> str:
    """The 256-character decoding table of a single-byte WHATWG encoding (U+FFFE = undefined)."""
    if name == "x-user-defined":
        return "".join(chr(b) if b < 0x80 else chr(0xF780 + b - 0x80) for b in range(256))
    decoded = bytes(range(256)).decode(PYTHON_CODECS[name], "replace")  # one char per byte
    c1 = name in C1_FALLBACK
    return "".join(
        char if char != "\ufffd" else (chr(b) if c1 and 0x80 <= b <= 0x9F else "\ufffe")
        for b, char in enumerate(decoded)
    )


@functools.cache
def _table(name: str) -> str | None:
    """The decoding table of the single-byte WHATWG encoding ``name`` (None for another
    name), made the first time a page needs it: making all 28 at import meant importing
    Python's 28 codec modules (20-25 ms) for pages that are nearly all UTF-8."""
    if name != "x-user-defined" and (name not in PYTHON_CODECS or name in MULTI_BYTE):
        return None
    return _single_byte_table(name)


def decode_as(data: bytes, name: str) -> str:
    """Decode ``data`` with the WHATWG encoding ``name``; invalid sequences become U+FFFD.

    Never raises: an unknown name (or ``replacement``) decodes as windows-1252.
    """
    table = _table(name)
    if table is not None:
        return codecs.charmap_decode(data, "replace", table)[0]
    codec = PYTHON_CODECS.get(name)
    if codec is None:
        return codecs.charmap_decode(data, "replace", _table("windows-1252"))[0]
    try:
        text = data.decode(codec, "replace")
    except Exception:  # pragma: no cover - CJK codecs with "replace" do not raise
        return codecs.charmap_decode(data, "replace", _table("windows-1252"))[0]
    fix = _WHATWG_FIXES.get(name)
    return text.translate(fix) if fix else text


#: Where Python's codec and the Encoding Standard's decoder disagree: Microsoft's cp932 reads
#: 0x8160, 0x8161 and 0x817C of Shift_JIS as ～ ∥ －, the standard (and every browser, and
#: Python's own shift_jis) as the wave dash, double vertical line and minus sign 〜 ‖ −;
#: Python's euc_jp reads 0xA1F1, 0xA1F2 and 0xA2CC as ¢ £ ¬, the standard as their fullwidth
#: forms ￠ ￡ ￢, as cp932 does (each codec gives those code points for no other bytes)
_WHATWG_FIXES: Mapping[str, Mapping[int, int]] = MappingProxyType({
    "Shift_JIS": MappingProxyType({0xFF5E: 0x301C, 0x2225: 0x2016, 0xFF0D: 0x2212}),
    "EUC-JP": MappingProxyType({0xA2: 0xFFE0, 0xA3: 0xFFE1, 0xAC: 0xFFE2}),
})


def _strict_utf8(data: bytes) -> str | None:
    """``data`` decoded as UTF-8, or ``None`` when it is not valid UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


class Utf8Census(NamedTuple):
    """How well non-UTF-8 bytes read as UTF-8."""

    errors: int  # invalid sequences (each decodes to one U+FFFD)
    valid: int  # valid non-ASCII characters


def utf8_census(data: bytes) -> Utf8Census:
    """Count invalid UTF-8 sequences and valid non-ASCII characters in ``data``."""
    text = data.decode("utf-8", "replace")
    genuine = data.count(b"\xef\xbf\xbd")
    errors = text.count("\ufffd") - genuine
    valid = _non_ascii_count(text) - errors - genuine
    return Utf8Census(errors, valid)


def _non_ascii_count(text: str) -> int:
    """Number of non-ASCII characters in ``text`` (C speed, no list)."""
    return len(text) - len(text.encode("ascii", "ignore"))


#: The UTF-8 census of a page that is not valid UTF-8 counts the text around about this many
#: non-ASCII bytes (where the evidence is; the whole page would cost far more).
_CENSUS_BYTES = 4000


def _utf8_is_mostly_valid(census: Utf8Census) -> bool:
    """The UTF-8 reading of bytes with some invalid sequences is the right one when the valid
    non-ASCII characters are at least as many as the errors (and there is at least one):
    each error then costs one U+FFFD, while any legacy reading would garble every valid one."""
    return census.valid > 0 and census.errors <= census.valid


# --------------------------------------------------------------------------------------------
# BOM, UTF-16 sniffing, HTTP header
# --------------------------------------------------------------------------------------------

_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xef\xbb\xbf", "UTF-8"),
    (b"\xfe\xff", "UTF-16BE"),
    (b"\xff\xfe", "UTF-16LE"),
)


def sniff_bom(data: bytes) -> tuple[str, int] | None:
    """``(encoding, BOM length)`` when ``data`` starts with a UTF-8 or UTF-16 byte order mark."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name, len(bom)
    return None


def sniff_utf16(data: bytes, window: int = 1024) -> str | None:
    """``"UTF-16LE"``/``"UTF-16BE"`` when the first ``window`` bytes show UTF-16 without BOM:
    NUL bytes in at least a fifth of the odd (LE) or even (BE) positions and almost none in
    the other ones (markup and Latin text put a NUL in every high byte)."""
    head = data[: window - window % 2]
    if len(head) < 4 or b"\x00" not in head:
        return None
    half = len(head) // 2
    even = head[0::2].count(0)
    odd = head[1::2].count(0)
    if odd >= half * 0.2 and even <= half * 0.02:
        return "UTF-16LE"
    if even >= half * 0.2 and odd <= half * 0.02:
        return "UTF-16BE"
    return None


_HTTP_CHARSET_RE = re.compile(r"""(?:^|;)\s*charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^;,\s"']*))""", re.I)


def http_charset(headers: Mapping[str, str] | None) -> str | None:
    """The raw ``charset`` parameter of the ``Content-Type`` header (case-insensitive name)."""
    if not headers:
        return None
    for key, value in headers.items():
        if isinstance(key, bytes):
            key = key.decode("latin-1")
        if key.strip().lower() != "content-type":
            continue
        if isinstance(value, bytes):
            value = value.decode("latin-1")
        match = _HTTP_CHARSET_RE.search(str(value))
        if match:
            label = next(g for g in match.groups() if g is not None).strip()
            if label:
                return label
    return None


# --------------------------------------------------------------------------------------------
# The HTML standard's prescan (https://html.spec.whatwg.org/#prescan-a-byte-stream-to-determine-its-encoding)
# --------------------------------------------------------------------------------------------

_TAG_START_RE = re.compile(rb"<(?:!--|[mM][eE][tT][aA][\t\n\x0c\r /]|/?[A-Za-z]|[!/?])")
_TAG_NAME_END_RE = re.compile(rb"[\t\n\x0c\r >]")
# "get an attribute": name, then optionally = value; the 'gt' branch is "no attribute".
_ATTR_RE = re.compile(
    rb"""[\t\n\x0c\r /]*
    (?:
        (?P<gt>(?=>))
      | (?P<name>[^\t\n\x0c\r />][^\t\n\x0c\r /=>]*)
        (?:[\t\n\x0c\r ]*=[\t\n\x0c\r ]*
           (?: "(?P<dq>[^"]*)" | '(?P<sq>[^']*)' | (?P<uq>[^\t\n\x0c\r >"'][^\t\n\x0c\r >]*)
             | (?P<empty>)(?=>) | (?P<open>["']) )
        )?
    )""",
    re.X,
)
_CONTENT_CHARSET_RE = re.compile(rb"charset", re.I)


class _Attr(NamedTuple):
    name: bytes
    value: bytes
    end: int


def _get_attribute(buf: bytes, pos: int) -> _Attr | None:
    """The standard's "get an attribute" at ``pos``: ``None`` at ``>`` (no more attributes);
    raises ``EOFError`` when the bytes run out (which aborts the prescan)."""
    match = _ATTR_RE.match(buf, pos)
    if match is None or match.group("open") is not None or match.end() >= len(buf):
        raise EOFError
    if match.group("gt") is not None:
        return None
    value = match.group("dq")
    if value is None:
        value = match.group("sq")
    if value is None:
        value = match.group("uq") or b""
    return _Attr(match.group("name").lower(), value.lower(), match.end())


def charset_from_content(value: bytes) -> bytes | None:
    """The standard's "extract a character encoding from a meta element" on a ``content``
    attribute value: the raw label after ``charset=``, or ``None``."""
    pos = 0
    while True:
        match = _CONTENT_CHARSET_RE.search(value, pos)
        if match is None:
            return None
        pos = match.end()
        while pos < len(value) and value[pos] in b"\t\n\x0c\r ":
            pos += 1
        if pos >= len(value) or value[pos] != 0x3D:  # '='
            continue
        pos += 1
        while pos < len(value) and value[pos] in b"\t\n\x0c\r ":
            pos += 1
        if pos >= len(value):
            return None
        quote = value[pos]
        if quote in b"\"'":
            end = value.find(bytes([quote]), pos + 1)
            return None if end < 0 else value[pos + 1 : end]
        end = pos
        while end < len(value) and value[end] not in b"\t\n\x0c\r ;":
            end += 1
        return value[pos:end]


class Prescan(NamedTuple):
    """Result of the prescan: the encoding found (canonical name) and the raw label it came
    from; or no encoding and the first label that could not be resolved (if any)."""

    encoding: str | None
    label: str | None


def _meta_charset(buf: bytes, pos: int) -> tuple[bytes | None, int]:
    """Process the attributes of a ``<meta`` whose attributes start at ``pos``.

    Returns the raw charset label the element declares (or ``None``) and the position of its
    closing ``>``. Raises ``EOFError`` when the bytes run out."""
    seen: set[bytes] = set()
    got_pragma = False
    need_pragma: bool | None = None
    charset: bytes | None = None
    while True:
        attr = _get_attribute(buf, pos)
        if attr is None:
            break
        pos = attr.end
        if attr.name in seen:
            continue
        seen.add(attr.name)
        if attr.name == b"http-equiv":
            got_pragma = got_pragma or attr.value == b"content-type"
        elif attr.name == b"content":
            label = charset_from_content(attr.value)
            if label is not None and charset is None:
                charset, need_pragma = label, True
        elif attr.name == b"charset":
            charset, need_pragma = attr.value, False
    gt = buf.find(b">", pos)
    if need_pragma is None or (need_pragma and not got_pragma) or charset is None:
        return None, gt
    return charset, gt


def _for_meta(name: str) -> str:
    """A charset found in the document itself: UTF-16 means UTF-8, x-user-defined windows-1252."""
    if name in ("UTF-16LE", "UTF-16BE"):
        return "UTF-8"
    if name == "x-user-defined":
        return "windows-1252"
    return name


_META_RE = re.compile(rb"<meta", re.I)


def prescan(buf: bytes) -> Prescan:
    """The HTML standard's prescan of ``buf`` for a ``<meta>`` charset.

    Comments, other tags (with their attributes, whatever the quoting) and ``<!...>``/``<?...>``
    constructs are skipped exactly as the standard does; labels that the Encoding Standard does
    not know are skipped too (the first one is reported in ``Prescan.label``).
    """
    if _META_RE.search(buf) is None:  # only a <meta declares a charset: the scan would only skip
        return Prescan(None, None)
    pos = 0
    unknown: str | None = None
    try:
        while True:
            match = _TAG_START_RE.search(buf, pos)
            if match is None:
                break
            token = match.group()
            if token == b"<!--":
                end = buf.find(b"-->", match.start() + 2)
                if end < 0:
                    break
                pos = end + 3
            elif len(token) == 6 and token[1:5].lower() == b"meta":
                raw, gt = _meta_charset(buf, match.end())
                if raw is not None:
                    label = raw.decode("latin-1")
                    name = resolve_label(label)
                    if name is not None:
                        return Prescan(_for_meta(name), label.strip(_ASCII_WS))
                    unknown = unknown or label.strip(_ASCII_WS)
                if gt < 0:
                    break
                pos = gt + 1
            elif token[-1:].isalpha():
                end = _TAG_NAME_END_RE.search(buf, match.start())
                if end is None:
                    break
                pos = end.start()
                while (attr := _get_attribute(buf, pos)) is not None:
                    pos = attr.end
                pos += 1
            else:  # <! </ <?
                end = buf.find(b">", match.start() + 1)
                if end < 0:
                    break
                pos = end + 1
    except EOFError:
        pass
    return Prescan(None, unknown)


_XML_DECL_RE = re.compile(
    rb"""\A[\t\n\x0c\r ]*<\?xml[\t\n\r ][^>]*?encoding[\t\n\r ]*=[\t\n\r ]*(?:"([^">]*)"|'([^'>]*)')""")


def xml_declaration_charset(data: bytes) -> str | None:
    """The raw ``encoding`` label of an ``<?xml ...?>`` declaration at the start of ``data``."""
    match = _XML_DECL_RE.match(data, 0, 1024)
    if match is None:
        return None
    raw = match.group(1) if match.group(1) is not None else match.group(2)
    return raw.decode("latin-1").strip(_ASCII_WS) or None


# --------------------------------------------------------------------------------------------
# Is a decoding text or mojibake?  (scored on the text parts of the page that have non-ASCII bytes)
# --------------------------------------------------------------------------------------------

_HIGH_BYTE_RE = re.compile(rb"[\x80-\xff]")
#: text segments looked at, and how often one byte value counts as evidence
_MAX_SEGMENTS = 5000
_ENOUGH_OCCURRENCES = 8
_LOW_BYTES = bytes(range(0x80))
#: ASCII bytes kept on each side of the non-ASCII bytes of a text segment (the words around them)
_CONTEXT_BYTES = 60
_SEGMENT_END_RE = re.compile(rb"[<>\n]")
_SAFE_CUT_RE = re.compile(rb"[\x00-\x2f]")


def text_sample(data: bytes, high_bytes: int = 600) -> bytes:
    """The text segments of ``data`` (between ``<``, ``>`` and line ends) that contain
    non-ASCII bytes, joined by newlines, until about ``high_bytes`` non-ASCII bytes (or eight
    times as many bytes in all) are collected: the evidence that tells encodings apart,
    without the markup. Each segment keeps ``_CONTEXT_BYTES`` of ASCII around its non-ASCII
    bytes; a byte value counts only for its first ``_ENOUGH_OCCURRENCES`` occurrences, and a
    segment with nothing new is skipped (the curly quotes of an English page, the same in
    most encodings, would otherwise fill the sample before the one misread letter).

    Segments start after a delimiter (or in the ASCII run before their first non-ASCII byte)
    and are cut after a byte below 0x30 (whitespace, punctuation) when longer than 2000 bytes,
    so legacy multi-byte characters (whose trail bytes are >= 0x40, or digits in GB18030) are
    never split.
    """
    parts: list[bytes] = []
    found = total = pos = looked = 0
    n = len(data)
    seen = [0] * 256  # occurrences of each byte value taken so far
    while found < high_bytes and total < 8 * high_bytes and looked < _MAX_SEGMENTS:
        looked += 1
        match = _HIGH_BYTE_RE.search(data, pos)
        if match is None:
            break
        i = match.start()
        low = max(pos, i - _CONTEXT_BYTES)
        start = max(data.rfind(b"<", low, i), data.rfind(b">", low, i), data.rfind(b"\n", low, i)) + 1 or low
        end_match = _SEGMENT_END_RE.search(data, i)
        end = end_match.start() if end_match is not None else n
        cut = end
        if end - i > 2000:  # cut after a byte below 0x30 (never inside a CJK character)
            safe = _SAFE_CUT_RE.search(data[i : i + 2000][::-1])
            cut = i + 2000 - safe.start() if safe is not None else i
        # ASCII text far after the last non-ASCII byte is no evidence (the byte after it is
        # kept: it may be the trail byte of a double-byte character)
        last = cut - 1
        while last > i and data[last] < 0x80:
            last -= 1
        cut = min(cut, last + 2 + _CONTEXT_BYTES)
        segment = data[max(start, low):cut]
        pos = end
        # a byte value seen often already adds nothing (the curly quotes of an English page
        # are the same in most encodings): such a segment is skipped, the budget counts the rest
        high = segment.translate(None, _LOW_BYTES)
        fresh = 0
        for byte in set(high):
            count = high.count(byte)
            fresh += max(0, min(count, _ENOUGH_OCCURRENCES - seen[byte]))
            seen[byte] += count
        if not fresh:
            continue
        parts.append(segment)
        found += fresh
        total += len(segment)
    return b"\n".join(parts)


class _Later:
    """A regular expression compiled the first time it is used. The patterns of
    :func:`measure` (and its script table) serve only pages whose encoding is in doubt,
    a few in a hundred; compiled at import, they cost 15 ms on every start."""

    __slots__ = ("_args", "_compiled")

    def __init__(self, *args) -> None:
        self._args = args
        self._compiled: re.Pattern | None = None

    def __getattr__(self, name: str):
        if self._compiled is None:
            self._compiled = re.compile(*self._args)
        return getattr(self._compiled, name)


_LATIN_EXT = "\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff"  # non-ASCII Latin letters
_CYRILLIC = "\u0400-\u052f"
_GREEK = "\u0370-\u03ff\u1f00-\u1fff"
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"


@functools.cache
def _script_table() -> Mapping[int, str]:
    """``str.translate`` table writing every letter of an alphabetic script as one code letter:
    ``a`` ASCII, ``L`` other Latin, ``C`` Cyrillic, ``G`` Greek, ``H`` Hebrew, ``A`` Arabic,
    ``T`` Thai, ``M`` combining mark. Ideographs, kana and hangul are left as they are."""
    table: dict[int, str] = {}
    ranges = (
        ("a", ((0x41, 0x5A), (0x61, 0x7A))),
        ("L", ((0xC0, 0xD6), (0xD8, 0xF6), (0xF8, 0x24F), (0x1E00, 0x1EFF))),
        ("M", ((0x300, 0x36F),)),
        ("G", ((0x370, 0x3FF), (0x1F00, 0x1FFF))),
        ("C", ((0x400, 0x52F),)),
        ("H", ((0x591, 0x5FF), (0xFB1D, 0xFB4F))),
        ("A", ((0x600, 0x6FF), (0x750, 0x77F), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF))),
        ("T", ((0xE00, 0xE7F),)),
    )
    for code, spans in ranges:
        for low, high in spans:
            for point in range(low, high + 1):
                char = chr(point)
                # in the right-to-left and Thai blocks, marks count as letters, and in the
                # right-to-left ones punctuation too ("firm؟s" is "firm¿s" misread)
                if char.isalpha() or code in "MAHT" and unicodedata.category(char)[0] in "LM" \
                        or code in "AH" and unicodedata.category(char)[0] == "P":
                    table[point] = code
    return MappingProxyType(table)


# adjacent letters of two scripts that never share a word (on the script-coded text)
_MIXED_SCRIPT_RE = _Later(
    f"[aL](?=[CGHAT])|[CGHAT](?=[aL])|C(?=[GHAT])|G(?=[CHAT])|H(?=[CGAT])|A(?=[CGHT])|T(?=[CGHA])"
    f"|[LCGHAT](?=[{_CJK}])|[{_CJK}](?=[LCGHAT])"
    f"|[\uac00-\ud7af](?=[\u3040-\u30ff])|[\u3040-\u30ff](?=[\uac00-\ud7af])"
)


def _cased(predicate: str, low: int, high: int) -> str:
    """Regex class body (as ranges) of the letters in U+low..U+high that are lower/upper case."""
    points = [p for p in range(low, high + 1) if getattr(chr(p), predicate)()]
    spans: list[list[int]] = []
    for point in points:
        if spans and spans[-1][1] == point - 1:
            spans[-1][1] = point
        else:
            spans.append([point, point])
    return "".join(f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in spans)


_LOWER_NA = _cased("islower", 0xDF, 0x24F) + _cased("islower", 0x370, 0x45F)
_UPPER_NA = _cased("isupper", 0xC0, 0x24F) + _cased("isupper", 0x370, 0x45F)
# lower->upper inside a word, with at least one non-ASCII letter ("пОКА", "żPor")
_CASE_FLIP_RE = _Later(f"[{_LOWER_NA}][A-Z{_UPPER_NA}]|[a-z][{_UPPER_NA}]")
# a non-ASCII symbol or punctuation mark squeezed between two letters ("pøíli¹", "ĺ»ó");
# not the apostrophes, soft hyphen, middle dot or acute accent that real words contain
_LETTER = f"A-Za-z{_LATIN_EXT}{_CYRILLIC}{_GREEK}"
_SYMBOL_IN_WORD_RE = _Later(
    f"(?<=[{_LETTER}])[\u00a1-\u00ac\u00ae-\u00b3\u00b5\u00b6\u00b8-\u00bf\u00d7\u00f7\u2020-\u2022"
    f"\u2030-\u203a\u2122\u2500-\u25ff\u0080-\u009f\u02c6-\u02dd\u2116\u20ac\u2264\u2265\u221a"
    f"\u2248\u2260\u221e\u0192\u2320-\u23ff](?=[{_LETTER}])"
)
# a mathematical sign touching a letter ("÷sterreich" is Österreich read as macintosh)
_MATH_BY_LETTER_RE = _Later(
    f"[\u00f7\u00d7\u222b\u221a\u221e\u2248\u2260\u2264\u2265\u2202\u2211\u220f\u25ca](?=[{_LETTER}])"
    f"|(?<=[{_LETTER}])[\u00f7\u00d7\u222b\u221a\u221e\u2248\u2260\u2264\u2265\u2202\u2211\u220f\u25ca]"
)
# a small non-ASCII letter standing alone as a word, other than those that are words somewhere
# (French/Portuguese "à", Italian "è", Hungarian "ő", Russian "я"...): French "à" read as
# ISO-8859-2 is "ŕ"
_LONE_LETTER_RE = _Later(r"(?<!\w)[^\x00-\x7f](?!\w)")
_LONE_LETTER_WORDS = frozenset("àâèéêìòóôõùúőãáíýøåæöüäëïçñαβƒ" "ÀÂÈÉÊÒÓÔÕÚÃÁÍÅÖÄÇ") | frozenset("вксуоаияжбЯВКСУОАИЖБ") | frozenset("وب")
# a non-ASCII letter glued to a number: "11ј" and "Ł5" are 11¼ and £5 read in the wrong
# encoding; real text glues small letters that start a suffix ("2ème", "5-й" has a hyphen)
_LETTER_BY_DIGIT_RE = _Later(
    f"(?<=[0-9])[{_LOWER_NA}](?![\\w])|[0-9][{_UPPER_NA}]|[{_UPPER_NA}](?=[0-9])")
# Thai spelling: vowel and tone marks only follow a consonant (or another mark), leading
# vowels precede a consonant, Thai digits and rare signs do not touch letters
_THAI_MISSPELLED_RE = _Later(
    "(?<![\u0e01-\u0e2e\u0e31\u0e34-\u0e3a\u0e47-\u0e4e])[\u0e31\u0e34-\u0e3a\u0e47-\u0e4e]"
    "|[\u0e40-\u0e44](?![\u0e01-\u0e2e])"
    "|(?<=[\u0e01-\u0e4e])[\u0e4f-\u0e5b]|[\u0e4f-\u0e5b](?=[\u0e01-\u0e4e])"
)
# three accented Latin letters in a row ("Ïðèâåò" is windows-1251 read as windows-1252)
_ACCENT_RUN_RE = _Later(f"[{_LATIN_EXT}]{{3,}}")
_CONTROL_RE = _Later("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufffd\ufffe\uffff]")
_PRIVATE_RE = _Later("[\ue000-\uf8ff]")
_HALFWIDTH_KANA_RE = _Later("[\uff61-\uff9f]")
_BOX_RE = _Later("[\u2500-\u259f\u2320-\u23ff]")
# characters running text does not use: the currency sign (0xA4 is € in ISO-8859-15, ₪ in
# windows-1255) and the CJK vertical and small forms (EUC-JP or GBK punctuation read as Big5)
_UNUSED_RE = _Later("[\u00a4\ufe30-\ufe6f]")

#: Letters beyond ASCII used by each language written in a Latin or Cyrillic script: a correct
#: decoding uses one language's letters; a wrong one mixes letters of several languages
#: ("trčs" is French très read as ISO-8859-2).
_ALPHABETS: tuple[frozenset[str], ...] = tuple(frozenset(s) for s in (
    "àâæçéèêëîïôœùûüÿ",  # French
    "äöüß",  # German
    "áéíñóúü",  # Spanish
    "áâãàçéêíóôõú",  # Portuguese
    "àèéìíîòóù",  # Italian
    "àçéèíïòóúü",  # Catalan
    "éèëïóöüáà",  # Dutch
    "åäöéü",  # Swedish / Finnish
    "åæøéü",  # Danish / Norwegian
    "áéíóúýþæöð",  # Icelandic
    "áčďéěíňóřšťúůýž",  # Czech
    "áäčďéíĺľňóôŕšťúýž",  # Slovak
    "ąćęłńóśźż",  # Polish
    "áéíóöőúüű",  # Hungarian
    "čćđšž",  # Croatian / Bosnian / Serbian (Latin) / Slovene
    "ăâîșşțţ",  # Romanian
    "çğıöşüİ",  # Turkish
    "äöõüšž",  # Estonian
    "āčēģīķļņšūž",  # Latvian
    "ąčęėįšųūž",  # Lithuanian
    "ãáâàéêíóôõúýăđĩũơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ",  # Vietnamese
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",  # Russian
    "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя",  # Ukrainian
    "абвгдеёжзійклмнопрстуўфхцчшыьэюя",  # Belarusian
    "абвгдежзийклмнопрстуфхцчшщъьюя",  # Bulgarian
    "абвгдђежзијклљмнњопрстћуфхцчџш",  # Serbian
    "абвгдѓежзѕијклљмнњопрстќуфхцчџш",  # Macedonian
    "αβγδεζηθικλμνξοπρστυφχψωάέήίόύώϊϋΐΰς",  # Greek
))
_ALPHABET_LETTERS = frozenset().union(*_ALPHABETS)


def _level1(codec: str, leads: Iterable[int], trails: Iterable[int]) -> frozenset[str]:
    """The characters of a double-byte code table region (e.g. the frequent-use level 1)."""
    trail_list = list(trails)
    blob = b"".join(bytes([lead, trail]) for lead in leads for trail in trail_list)
    return frozenset(blob.decode(codec, "ignore"))


@functools.cache
def _common_cjk() -> frozenset[str]:
    """Frequently used ideographs and syllables: GB2312 level 1, Big5 frequent characters,
    JIS X 0208 level 1 and the KS X 1001 hangul, taken from Python's own codec tables (built
    on first use)."""
    return (
        _level1("gb2312", range(0xB0, 0xD8), range(0xA1, 0xFF))
        | _level1("big5", range(0xA4, 0xC6), [*range(0x40, 0x7F), *range(0xA1, 0xFF)])
        | _level1("euc_jp", range(0xB0, 0xD0), range(0xA1, 0xFF))
        | _level1("euc_kr", range(0xB0, 0xC9), range(0xA1, 0xFF))
    )


@functools.cache
def _top_cjk() -> frozenset[str]:
    """The most frequent ideographs and syllables (charset-normalizer's lists; loaded on first
    use, so that importing this module does not import charset-normalizer)."""
    try:
        from charset_normalizer import md
        from charset_normalizer.constant import FREQUENCIES
    except Exception:  # pragma: no cover - charset-normalizer is a dependency
        return frozenset()
    top = set(getattr(md, "COMMON_CJK_CHARACTERS", ()))
    for language in ("Chinese", "Japanese", "Japanese—", "Japanese——", "Korean"):
        top.update(FREQUENCIES.get(language, ()))
    return frozenset(top)


def _alphabet_misfit(letters: Counter[str]) -> int:
    """How many of the non-ASCII Latin/Cyrillic/Greek letters fall outside the alphabet of the
    single language that covers most of them."""
    known = {c: n for c, n in letters.items() if c in _ALPHABET_LETTERS}
    total = sum(letters.values())
    if not total:
        return 0
    best = max(sum(n for c, n in known.items() if c in alphabet) for alphabet in _ALPHABETS)
    return total - best


def _cjk_rarity(chars: Counter[str]) -> float:
    """Rarity of the ideographs and syllables: 0 for the most frequent ideographs, kana and the
    KS X 1001 hangul; 0.15 for other frequent-use (level 1) ideographs; 0.5 for the rest."""
    bad = 0.0
    top = _top_cjk()
    common = _common_cjk()
    for char, n in chars.items():
        if char in top or "\u3040" <= char <= "\u30ff":
            continue
        if char in common:
            bad += 0.0 if "\uac00" <= char <= "\ud7af" else 0.15 * n
        else:
            bad += 0.5 * n
    return bad


class Badness(NamedTuple):
    """Mojibake score of a decoding, per non-ASCII character: ``mess`` counts impossible text
    (controls, scripts mixed inside words, case flips, symbols inside words...), ``rarity``
    how unusual the ideographs are (real Chinese text has some rare ones); ``misfit`` is the
    part of ``mess`` that only says the letters belong to no single language's alphabet."""

    mess: float
    rarity: float
    misfit: float = 0.0

    @property
    def total(self) -> float:
        return self.mess + self.rarity


def measure(text: str) -> Badness:
    """How much ``text`` looks like mojibake (see :class:`Badness`; 0 = clean).

    Cheap: a few C-level regex passes, one ``str.translate`` and a ``Counter`` of the non-ASCII
    characters."""
    n = _non_ascii_count(text)
    if not n:
        return Badness(0.0, 0.0)
    chars = Counter(text)
    scripts = text.translate(_script_table())
    bad = 3.0 * len(_CONTROL_RE.findall(text))
    bad += 1.0 * len(_PRIVATE_RE.findall(text))
    bad += 2.0 * len(_MIXED_SCRIPT_RE.findall(scripts))
    bad += 1.0 * scripts.count("M")
    bad += 1.5 * len(_CASE_FLIP_RE.findall(text))
    bad += 1.0 * len(_SYMBOL_IN_WORD_RE.findall(text))
    bad += 1.0 * len(_MATH_BY_LETTER_RE.findall(text))
    bad += 1.0 * sum(1 for c in _LONE_LETTER_RE.findall(text)
                     if c.isalpha() and c not in _LONE_LETTER_WORDS and (c < "\u0530" or "\u05d0" <= c < "\u0700"))
    bad += 1.0 * len(_LETTER_BY_DIGIT_RE.findall(text))
    bad += 1.0 * len(_ACCENT_RUN_RE.findall(text))
    if "\u0e00" <= max(chars) and any("\u0e00" <= c <= "\u0e7f" for c in chars):
        bad += 1.0 * len(_THAI_MISSPELLED_RE.findall(text))
    bad += 0.5 * len(_HALFWIDTH_KANA_RE.findall(text))
    bad += 0.5 * len(_BOX_RE.findall(text))
    bad += 1.0 * len(_UNUSED_RE.findall(text))
    letters: Counter[str] = Counter()
    cjk: Counter[str] = Counter()
    upper = lower = 0  # Cyrillic and Greek capitals and small letters
    for char, count in chars.items():
        if char < "\x80":
            continue
        if "\u0370" <= char <= "\u045f":
            if char.isupper():
                upper += count
            elif char.islower():
                lower += count
        if "\u3040" <= char <= "\u9fff" or "\uac00" <= char <= "\ud7af" or "\uf900" <= char <= "\ufaff":
            cjk[char] = count
        elif char.isalpha() and char not in "\u00aa\u00ba\u0192" and (char < "\u0530" or "\u1e00" <= char <= "\u1fff"):
            letters[char.lower()] += count
    if upper > lower:  # KOI8-R read as windows-1251 (and back) is nearly all capitals
        bad += 0.5 * (upper - lower)
    misfit = 1.0 * _alphabet_misfit(letters)
    bad += misfit
    rarity = 0.0
    if cjk:
        rarity = _cjk_rarity(cjk)
        hangul = sum(n for c, n in cjk.items() if "\uac00" <= c <= "\ud7af")
        han = sum(n for c, n in cjk.items() if c >= "\u3400" and not "\uac00" <= c <= "\ud7af")
        if hangul and han > hangul * 0.1:
            bad += 0.5 * min(han, hangul)
    return Badness(bad / n, rarity / n, misfit / n)


def badness(text: str) -> float:
    """How much ``text`` looks like mojibake, per non-ASCII character (0 = clean)."""
    return measure(text).total


#: How many non-ASCII bytes the mojibake scoring looks at (with their text around them).
_SAMPLE_HIGH_BYTES = 600
#: A declared legacy encoding is accepted without looking further when its decoding of the
#: text parts has at most this much mess and rarity per non-ASCII character.
_ACCEPT_MESS = 0.03
_ACCEPT_RARITY = 0.12
#: A candidate replaces a declared encoding only when its badness (per non-ASCII character) is
#: lower by this margin, and lower in total by this many points (one impossible character,
#: such as a control, weighs 3; a symbol inside a word 1): one odd character is no evidence.
_OVERRIDE_MARGIN = 0.05
_OVERRIDE_EVIDENCE = 2.0
#: ... and when the difference is only letters outside the page's alphabet, that many of them
#: per non-ASCII character
_MISFIT_OVERRIDE = 0.1

#: Encodings worth comparing when a legacy decoding is in doubt (those browsers and crawled
#: pages actually use), grouped so that the ones confused with each other are tried together.
_WESTERN = ("windows-1252", "ISO-8859-15", "macintosh")
_CENTRAL = ("ISO-8859-2", "windows-1250")
_CYRILLIC_ENCODINGS = ("windows-1251", "KOI8-R", "KOI8-U", "IBM866", "ISO-8859-5", "x-mac-cyrillic")
_OTHER_SINGLE = ("windows-1253", "ISO-8859-7", "windows-1254", "windows-1255", "ISO-8859-8", "windows-1256",
                 "ISO-8859-6", "windows-1257", "ISO-8859-13", "ISO-8859-4", "windows-874", "windows-1258")
_CJK_ENCODINGS = ("Shift_JIS", "EUC-JP", "EUC-KR", "GBK", "Big5")
_ALL_CANDIDATES = (*_WESTERN, *_CENTRAL, *_CYRILLIC_ENCODINGS, *_OTHER_SINGLE, *_CJK_ENCODINGS)

#: charset-normalizer is asked only about these Python codecs (the WHATWG encodings above).
_DETECTOR_CODECS: tuple[str, ...] = (
    "utf_8", "cp1252", "iso8859_15", "mac_roman", "iso8859_2", "cp1250", "cp1251", "koi8_r", "koi8_u", "cp866",
    "iso8859_5", "mac_cyrillic", "cp1253", "iso8859_7", "cp1254", "cp1255", "iso8859_8", "cp1256", "iso8859_6",
    "cp1257", "iso8859_13", "iso8859_4", "cp874", "cp1258", "cp932", "euc_jp", "cp949", "gb18030", "big5hkscs",
)


class Choice(NamedTuple):
    """An encoding chosen for legacy bytes, why, and whether it is the default or detected."""

    encoding: str
    reason: str
    source: EncodingSource


def run_detector(sample: bytes) -> str | None:
    """charset-normalizer's best WHATWG encoding for ``sample`` (``None`` if inconclusive)."""
    try:
        from charset_normalizer import from_bytes

        best = from_bytes(sample, cp_isolation=list(_DETECTOR_CODECS), preemptive_behaviour=False).best()
    except Exception:  # pragma: no cover - the detector must never break decoding
        return None
    if best is None:
        return None
    name = _PY_TO_WHATWG.get(codecs.lookup(best.encoding).name)
    return name if name in PYTHON_CODECS else None


def _score_candidates(sample: bytes, names: Iterable[str]) -> dict[str, Badness]:
    """Badness of the decoding of ``sample`` by each encoding in ``names`` (in order).

    A decoding whose replacement characters and controls alone already make it worse than the
    best one so far is not measured further (its score is that lower bound)."""
    scores: dict[str, Badness] = {}
    best = float("inf")
    for name in dict.fromkeys(names):
        text = decode_as(sample, name)
        n = max(1, _non_ascii_count(text))
        floor = 3.0 * len(_CONTROL_RE.findall(text)) / n
        if floor > best + _OVERRIDE_MARGIN:
            scores[name] = Badness(floor, 0.0)
            continue
        scores[name] = measure(text)
        best = min(best, scores[name].total)
    return scores


def _replaces(sample: bytes, first: str, best: str, scores: Mapping[str, Badness], declared: bool,
              default: str) -> bool:
    """Is ``best`` clearly better than ``first`` (the declared or default encoding)?

    Its badness must be lower by :data:`_OVERRIDE_MARGIN` per non-ASCII character and by
    :data:`_OVERRIDE_EVIDENCE` points in all, or (few non-ASCII characters give few points)
    ``best`` is the default encoding, reads as clean text and ``first`` scores a bad point at
    every character where the two single-byte decodings differ ("1Ѕ" for "1½" in an English
    page that says windows-1251). A declaration is not replaced when the difference is only
    a few letters outside the page's alphabet (a windows-1252 page of transliterated Greek,
    "thmoïs", reads as Czech "thmoďs" in windows-1250); a frequent letter out of place
    (Czech š and ž read as ą and ľ) is enough."""
    one, other = scores[first], scores[best]
    if best == first or other.total + _OVERRIDE_MARGIN >= one.total:
        return False
    evidence = (one.total - other.total) * _non_ascii_count(decode_as(sample, best))
    if evidence < _OVERRIDE_EVIDENCE:
        if best != default or other.total != 0 or _table(first) is None or _table(best) is None:
            return False
        differ = sum(1 for a, b in zip(decode_as(sample, first), decode_as(sample, best)) if a != b)
        if not 0 < differ <= evidence:
            return False
    alphabets_only = (one.mess - one.misfit <= other.mess - other.misfit + _OVERRIDE_MARGIN / 5
                      and one.rarity <= other.rarity and one.misfit - other.misfit < _MISFIT_OVERRIDE)
    return not (declared and alphabets_only)


def choose_legacy(data: bytes, declared: str | None, default: str, detect: bool = True) -> Choice:
    """The encoding of bytes that are neither ASCII nor valid UTF-8 nor UTF-16.

    A declared encoding (or, without a declaration, ``default``) whose decoding of the page's
    non-ASCII words reads as text is kept. Otherwise every candidate (declared, ``default``,
    charset-normalizer's answer when ``detect``, the common web encodings) is scored with
    :func:`measure`, and the declared (or default) encoding is replaced only by a clearly better
    candidate (ties go to ``default``, then to charset-normalizer's answer).
    """
    if declared is None and not detect:
        return Choice(default, "detection disabled", "default")
    sample = text_sample(data, _SAMPLE_HIGH_BYTES)
    first = declared or default
    score = measure(decode_as(sample, first))
    if score.mess <= _ACCEPT_MESS and score.rarity <= _ACCEPT_RARITY:
        return Choice(first, f"{'declared' if declared else 'default'} {first} reads as text", "default")
    detected = run_detector(sample) if detect else None
    preferred = list(dict.fromkeys(n for n in (declared, default, detected) if n is not None))
    scores = _score_candidates(sample, (*preferred, *_ALL_CANDIDATES))
    if _utf8_is_mostly_valid(utf8_census(sample)):
        scores["UTF-8"] = measure(sample.decode("utf-8", "replace"))
    rank = {name: i for i, name in enumerate(preferred)}
    best = min(scores, key=lambda n: (round(scores[n].total, 3), rank.get(n, len(rank))))
    said = f"; charset-normalizer said {detected}" if detected else ""
    what = f"declared {declared}" if declared else f"default {default}"
    if _replaces(sample, first, best, scores, declared is not None, default):
        return Choice(best, f"{best} reads as text (badness {scores[best].total:.2f}), {what} as mojibake "
                            f"(badness {scores[first].total:.2f}){said}", "detected")
    return Choice(first, f"{what} kept: no candidate clearly better (badness {scores[first].total:.2f}){said}",
                  "detected" if declared else "default")


# --------------------------------------------------------------------------------------------
# The decision
# --------------------------------------------------------------------------------------------


class Declaration(NamedTuple):
    """What the page (or its HTTP header) declares."""

    encoding: str | None  # canonical WHATWG name, None if nothing usable is declared
    label: str | None  # the raw label (also for an unknown one)
    source: EncodingSource | None  # "http", "meta" or "xml-declaration"


def find_declaration(data: bytes, config: DecodeConfig, headers: Mapping[str, str] | None) -> Declaration:
    """The first usable declaration: HTTP header, then ``<meta>`` prescan, then XML declaration.

    Unknown labels are skipped (as browsers do) but remembered; a label the Encoding Standard
    does not know but Python does (``euc_kr``) is used when nothing better is declared."""
    unknown: Declaration | None = None
    raw = http_charset(headers)
    if raw is not None:
        name = resolve_lenient(raw)
        if name is not None:
            return Declaration(name, raw, "http")
        unknown = Declaration(None, raw, "http")
    scan = prescan(data[: max(0, config.prescan_bytes)])
    if scan.encoding is not None:
        return Declaration(scan.encoding, scan.label, "meta")
    if scan.label is not None:
        name = resolve_lenient(scan.label)
        if name is not None:
            return Declaration(_for_meta(name), scan.label, "meta")
        unknown = unknown or Declaration(None, scan.label, "meta")
    raw = xml_declaration_charset(data)
    if raw is not None:
        name = resolve_lenient(raw)
        if name is not None:
            return Declaration(_for_meta(name), raw, "xml-declaration")
        unknown = unknown or Declaration(None, raw, "xml-declaration")
    return unknown or Declaration(None, None, None)


_ISO2022JP_ESCAPE_RE = re.compile(rb"\x1b(?:\$[@B]|\([BIJ])")


class Facts(NamedTuple):
    """What is known about the bytes before looking at any declaration (all cheap)."""

    data: bytes
    is_ascii: bool
    utf16: str | None  # "UTF-16LE"/"UTF-16BE" when the NUL pattern says so
    utf8: str | None  # the strict UTF-8 decoding, when the bytes are valid (non-ASCII) UTF-8


def examine(data: bytes) -> Facts:
    """ASCII? UTF-16 NUL pattern? valid UTF-8 (decoded once, the text is kept)?"""
    is_ascii = data.isascii()
    utf16 = sniff_utf16(data)
    utf8 = None if is_ascii or utf16 else _strict_utf8(data)
    return Facts(data, is_ascii, utf16, utf8)


class Verdict(NamedTuple):
    """The encoding to decode with, where the choice comes from, and why."""

    encoding: str
    source: EncodingSource
    reason: str
    text: str | None = None  # the decoded text, when reaching the verdict produced it


def _default(config: DecodeConfig) -> str:
    """The configured default encoding (windows-1252 when it is not a WHATWG label)."""
    name = resolve_label(config.default_encoding)
    return name if name is not None and name != "replacement" else "windows-1252"


def undeclared(facts: Facts, config: DecodeConfig) -> Verdict:
    """Step 4: the encoding of bytes that declare nothing usable."""
    default = _default(config)
    if facts.utf16 is not None:
        return Verdict(facts.utf16, "sniffed-utf16", f"NUL byte pattern of {facts.utf16}")
    if facts.is_ascii:
        if b"\x1b" in facts.data and _ISO2022JP_ESCAPE_RE.search(facts.data):
            return Verdict("ISO-2022-JP", "detected", "ISO-2022-JP escape sequences")
        return Verdict(default, "default", "ASCII bytes")
    if facts.utf8 is not None:
        return Verdict("UTF-8", "detected", "valid UTF-8", facts.utf8)
    census = utf8_census(text_sample(facts.data, _CENSUS_BYTES))
    if _utf8_is_mostly_valid(census):
        return Verdict("UTF-8", "detected", f"UTF-8 with {census.errors} invalid sequences "
                                            f"among {census.valid} valid characters")
    choice = choose_legacy(facts.data, None, default, config.detect)
    return Verdict(choice.encoding, choice.source, choice.reason)


def _is_legacy(name: str) -> bool:
    """A declared encoding whose decoding is checked for mojibake (every one but the Unicode
    encodings, ISO-2022-JP, which is ASCII, and the replacement encoding)."""
    return name not in ("UTF-8", "UTF-16LE", "UTF-16BE", "ISO-2022-JP", "replacement")


def verify(facts: Facts, declared: str, config: DecodeConfig) -> Verdict | None:
    """``None`` when the bytes agree with the ``declared`` encoding; otherwise the verdict
    that replaces it (its reason says why the declaration is wrong)."""
    def instead(why: str) -> Verdict:
        verdict = undeclared(facts, config)
        return verdict._replace(reason=f"{why}; {verdict.reason}")

    if declared in ("UTF-16LE", "UTF-16BE"):
        if facts.utf16 == declared:
            return None
        if facts.utf16 is not None:
            return Verdict(facts.utf16, "sniffed-utf16", f"the bytes have the NUL pattern of {facts.utf16}")
        return instead("the bytes have no UTF-16 NUL pattern")
    if facts.utf16 is not None:
        return Verdict(facts.utf16, "sniffed-utf16", f"the bytes have the NUL pattern of {facts.utf16}")
    if declared == "replacement":
        return instead("a replacement-encoding label (ISO-2022-KR, HZ...) cannot be decoded")
    if facts.is_ascii:
        if declared != "ISO-2022-JP" and b"\x1b" in facts.data and _ISO2022JP_ESCAPE_RE.search(facts.data):
            return Verdict("ISO-2022-JP", "detected", "the bytes contain ISO-2022-JP escape sequences")
        return None
    if declared == "UTF-8":
        if facts.utf8 is not None:
            return None
        census = utf8_census(text_sample(facts.data, _CENSUS_BYTES))
        if _utf8_is_mostly_valid(census):
            return None
        return instead(f"{census.errors} invalid UTF-8 sequences against {census.valid} valid characters")
    if facts.utf8 is not None:
        return Verdict("UTF-8", "detected", "the non-ASCII bytes are valid UTF-8", facts.utf8)
    if not _is_legacy(declared):  # ISO-2022-JP with non-ASCII bytes
        return instead(f"{declared} bytes are ASCII, these are not")
    choice = choose_legacy(facts.data, declared, _default(config), config.detect)
    if choice.encoding == declared:
        return None
    return Verdict(choice.encoding, choice.source, choice.reason)


def _decided(facts: Facts, verdict: Verdict, declaration: Declaration, overridden: bool, log: PageLog,
             skip: int = 0) -> Decoded:
    text = verdict.text
    if text is None:
        text = decode_as(facts.data[skip:] if skip else facts.data, verdict.encoding)
    log.add(_STEP, "encoding", f"{verdict.encoding} ({verdict.source}: {verdict.reason})")
    declared = declaration.encoding or declaration.label
    return Decoded(text, verdict.encoding, verdict.source, declared, overridden)


def decode(data: bytes, config: DecodeConfig, log: PageLog, http_headers: Mapping[str, str] | None = None) -> Decoded:
    """Decode crawled bytes to text (see the module docstring for the decision order).

    Never raises; records the decision as a ``decode``/``encoding`` event, and a replaced
    declaration as an ``encoding-override`` event.
    """
    data = bytes(data)
    declaration = find_declaration(data, config, http_headers)
    declared = declaration.encoding
    bom = sniff_bom(data)
    if bom is not None:
        name, skip = bom
        overridden = declared is not None and declared != name
        if overridden:
            log.add(_STEP, "encoding-override",
                    f"declared {declaration.label} ({declaration.source}) replaced by the {name} byte order mark")
        facts = Facts(data, False, None, None)
        return _decided(facts, Verdict(name, "bom", "byte order mark"), declaration, overridden, log, skip)

    facts = examine(data)
    if declared is None:
        if declaration.label is not None:
            log.add(_STEP, "encoding-override",
                    f"declared charset {declaration.label!r} ({declaration.source}) is not a known encoding")
        return _decided(facts, undeclared(facts, config), declaration, declaration.label is not None, log)

    source = declaration.source or "meta"
    kept = Verdict(declared, source, f"declared {declaration.label!r}",
                   facts.utf8 if declared == "UTF-8" else None)
    if not config.verify_declared and declared != "replacement":
        return _decided(facts, kept, declaration, False, log)
    verdict = verify(facts, declared, config)
    if verdict is None or verdict.encoding == declared:
        return _decided(facts, kept, declaration, False, log)
    log.add(_STEP, "encoding-override",
            f"declared {declaration.label} ({source}) replaced by {verdict.encoding}: {verdict.reason}")
    return _decided(facts, verdict, declaration, True, log)
