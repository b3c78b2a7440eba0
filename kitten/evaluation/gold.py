"""Readers for the gold standards of the shared corpora.

Every reader returns a :class:`Gold`: the main-content text (one block per line),
its blocks (with their CLEANEVAL kind where the format has one), the reader
comments kept apart (Dragnet) and the page URL (CLEANEVAL header).

Formats and their quirks (see ``../shared/corpora/README.md``):

- **CLEANEVAL** (``cleaneval-dev``, ``cleaneval-final``, ``cleanportaleval``): an
  optional first line ``URL: ...`` (missing in 230 final files, after a UTF-8 BOM
  in others); each block starts with a ``<p>``, ``<h>`` or ``<l>`` marker, usually
  at the start of a line but also mid-line (``<h>May 2006 <h>June 2006``), after a
  bullet (``* <l>item``) or even inside a word (``T<p>he``); a few markers are
  upper case; text is hard-wrapped; some files are windows-1252, and some hold
  only the URL line (no block at all).
- **CLEANEVAL** and **Dragnet** golds are plain text, but 64 of the 71 CleanPortalEval
  files and one Dragnet file keep character references escaped (``&#039;``, ``&rsquo;``):
  read as the characters they stand for.
- **Dragnet**: plain text, one paragraph a line; about 420 files append the reader
  comments after a delimiter line spelled ``!@#$%^&*()  COMMENTS`` and a dozen
  variants (``!@ $%^&*()``, ``!#@$%^&*()``, ``COMMNENTS``, ``CORRECTED``, bare, ...);
  five files are UTF-16 with a BOM, a few windows-1252.
- **Readability**: an HTML fragment of the main content.
- **modern** (newspaper4k's expected article texts): plain text, one paragraph a
  line, read with the Dragnet reader (no file has a comment delimiter).

>>> g = parse_cleaneval("URL: http://x.org/\\n<h>Title\\n<p>First line\\nwrapped. <l>item")
>>> g.url, [(b.kind, b.text) for b in g.blocks]
('http://x.org/', [('h', 'Title'), ('p', 'First line wrapped.'), ('l', 'item')])
>>> g = parse_dragnet("Body text.\\n\\n!@#$%^&*()  COMMENTS\\n\\nNice post!\\n")
>>> g.text, g.comments
('Body text.', 'Nice post!')
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Literal

BlockKind = Literal["p", "h", "l"]

__all__ = [
    "BlockKind",
    "GoldBlock",
    "Gold",
    "decode_gold",
    "parse_cleaneval",
    "parse_dragnet",
    "parse_readability",
    "parse_web2025",
    "read_gold",
    "reader_for",
    "corpus_pages",
    "natural_key",
    "looks_cleaneval",
    "guess_format",
    "GOLD_FORMATS",
    "CORPUS_GOLD_FORMAT",
    "CORPUS_FORMATS",
]


@dataclass(frozen=True)
class GoldBlock:
    """One block of the gold: ``kind`` is ``'p'`` (paragraph), ``'h'`` (heading),
    ``'l'`` (list item) or ``None`` (the format does not say); ``text`` has its white
    space collapsed to single spaces."""

    kind: BlockKind | None
    text: str


@dataclass(frozen=True)
class Gold:
    """A gold standard: ``text`` is the main content, one block per line; ``comments``
    the reader comments the format keeps apart (``None`` when there are none);
    ``url`` the page URL when the gold names it."""

    text: str
    blocks: list[GoldBlock] = field(default_factory=list)
    comments: str | None = None
    url: str | None = None


# --------------------------------------------------------------------------- decoding

_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def decode_gold(data: bytes) -> str:
    """Decode a gold file: BOM (UTF-8, UTF-16) first, then strict UTF-8, then
    windows-1252 (its five unassigned bytes fall back to their Latin-1 C1 controls,
    so decoding never fails). Line ends become ``\\n``.

    >>> decode_gold(b"caf\\xe9 \\x93ok\\x94\\r\\n")
    'café “ok”\\n'
    >>> decode_gold("\\ufeffhi".encode("utf-16-le"))
    'hi'
    """
    text: str | None = None
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            text = data[len(bom):].decode(encoding, errors="replace")
            break
    if text is None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = "".join(
                _cp1252_char(b) for b in data
            ) if _has_cp1252_holes(data) else data.decode("windows-1252")
    return text.replace("\r\n", "\n").replace("\r", "\n")


_CP1252_HOLES = frozenset(b"\x81\x8d\x8f\x90\x9d")


def _has_cp1252_holes(data: bytes) -> bool:
    return any(b in _CP1252_HOLES for b in data)


def _cp1252_char(b: int) -> str:
    return chr(b) if b in _CP1252_HOLES else bytes((b,)).decode("windows-1252")


_WS = re.compile(r"\s+")


def _collapse(text: str) -> str:
    return _WS.sub(" ", text).strip()


# A character reference left escaped in a plain-text gold (``&#039;``, ``&#8217;``,
# ``&rsquo;``, ``&amp;``: 64 of the 71 CleanPortalEval files, one Dragnet file),
# with its semicolon: "AT&T" and "&c" stay as they are.
_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _plain(text: str) -> str:
    """A block of a plain-text gold (CLEANEVAL, Dragnet): its escaped character
    references read as the characters they stand for, white space collapsed.

    >>> _plain("If there&#039;s one  thing &amp; AT&T &nosuch; x")
    "If there's one thing & AT&T &nosuch; x"
    """
    if "&" in text:
        text = _REFERENCE.sub(lambda m: html.unescape(m.group()), text)
    return _collapse(text)


def _gold_from_blocks(blocks: list[GoldBlock], comments: str | None = None,
                      url: str | None = None) -> Gold:
    return Gold(text="\n".join(b.text for b in blocks), blocks=blocks, comments=comments, url=url)


# --------------------------------------------------------------------------- CLEANEVAL

_URL_LINE = re.compile(r"\A\s*URL:[ \t]*(\S*)[^\n]*(?:\n|\Z)")
# A marker inside a word ("T<p>he"): the block starts at the word.
_IN_WORD_MARKER = re.compile(r"(\w+)<([phlPHL])>(?=\w)")
# A bullet or a list number before a marker on its line ("* <l>item", "2. <p>Text"):
# the bullet belongs to the block the marker opens.
_BULLET_MARKER = re.compile(r"(?m)^([ \t]*)([*\-\u2022\u00b7o]|\d{1,3}[.)])[ \t]*<([phlPHL])>")
_MARKER = re.compile(r"<([phlPHL])>")


def parse_cleaneval(text: str) -> Gold:
    """Parse a decoded CLEANEVAL gold file (see the module docstring for its quirks).

    Text before the first marker (files without the header sometimes start so) is a
    block of kind ``None``; empty blocks (``<h><h>Title``) are dropped.

    >>> [(b.kind, b.text) for b in parse_cleaneval("Intro\\n <h>A <h>B\\n * <l>C").blocks]
    [(None, 'Intro'), ('h', 'A'), ('h', 'B'), ('l', '* C')]
    >>> parse_cleaneval("URL: http://x.org/\\n\\n").blocks
    []
    """
    text = text.lstrip("\ufeff")
    url: str | None = None
    m = _URL_LINE.match(text)
    if m:
        url = m.group(1) or None
        text = text[m.end():]
    text = _IN_WORD_MARKER.sub(r"<\2>\1", text)
    text = _BULLET_MARKER.sub(r"\1<\3>\2 ", text)
    parts = _MARKER.split(text)
    blocks: list[GoldBlock] = []
    head = _plain(parts[0])
    if head:
        blocks.append(GoldBlock(None, head))
    for i in range(1, len(parts) - 1, 2):
        body = _plain(parts[i + 1])
        if body:
            blocks.append(GoldBlock(parts[i].lower(), body))  # type: ignore[arg-type]
    return _gold_from_blocks(blocks, url=url)


# --------------------------------------------------------------------------- Dragnet

# The comment delimiter: a line of the keyboard's shifted digit row, with the typos
# found in the Dragnet gold files ("!@ $%^&*()", "!#@$%^&*()", "!@#$%^&**()",
# "@#$%^&*()", "!!@#...", "!@#$%^&*"), then nothing or one upper-case word
# ("COMMENTS", "COMMNENTS", "CORRECTED").
_DRAGNET_DELIMITER = re.compile(r"(?m)^[ \t]*[!@#$ ]*%\^&\**[()]*[ \t]*(?:[A-Z]+)?[ \t]*$")


def parse_dragnet(text: str) -> Gold:
    """Parse a decoded Dragnet gold file: the main content before the first comment
    delimiter line (one block per non-empty line), the comments after it.

    >>> g = parse_dragnet("A.\\nB.\\n!@ $%^&*()  COMMNENTS\\nC.")
    >>> [b.text for b in g.blocks], g.comments
    (['A.', 'B.'], 'C.')
    >>> parse_dragnet("Only text.").comments is None
    True
    """
    text = text.lstrip("\ufeff")
    comments: str | None = None
    m = _DRAGNET_DELIMITER.search(text)
    if m:
        comments = text[m.end():].strip()
        text = text[: m.start()]
    blocks = [GoldBlock(None, line) for line in map(_plain, text.split("\n")) if line]
    return _gold_from_blocks(blocks, comments=comments)


# --------------------------------------------------------------------------- Readability

_HTML_BLOCKS: dict[str, BlockKind | None] = {
    **{f"h{i}": "h" for i in range(1, 7)},
    "p": "p",
    **{t: "l" for t in ("li", "dt", "dd")},
    **{t: None for t in (
        "address article aside blockquote body br caption center details dialog dir div dl "
        "fieldset figcaption figure footer form header hgroup hr html main menu nav ol pre "
        "section summary table tbody td tfoot th thead tr ul"
    ).split()},
}
_HTML_SKIP = frozenset(("script", "style", "noscript", "template", "head"))


def parse_readability(text: str) -> Gold:
    """Parse a Readability gold (an HTML fragment of the main content) with lxml:
    each block element (``p``, ``h1``-``h6``, ``li``, ``div``, ``td``, ``br``, ...)
    starts a new block; the text of scripts and styles is ignored.

    >>> g = parse_readability("<div><h2>T</h2><p>A <b>bold</b> move.</p><ul><li>x</li></ul></div>")
    >>> [(b.kind, b.text) for b in g.blocks]
    [('h', 'T'), ('p', 'A bold move.'), ('l', 'x')]
    """
    import lxml.html
    from lxml import etree

    blocks: list[GoldBlock] = []
    if not text.strip():
        return _gold_from_blocks(blocks)
    root = lxml.html.fragment_fromstring(text, create_parent="div")
    kinds: list[BlockKind | None] = [None]
    buffer: list[str] = []
    skipping = 0

    def flush() -> None:
        body = _collapse("".join(buffer))
        buffer.clear()
        if body:
            blocks.append(GoldBlock(kinds[-1], body))

    for event, el in etree.iterwalk(root, events=("start", "end")):
        tag = el.tag if isinstance(el.tag, str) else None
        name = tag.lower() if tag else None
        if event == "start":
            if name in _HTML_SKIP:
                skipping += 1
                continue
            if skipping or name is None:
                continue
            if name in _HTML_BLOCKS:
                flush()
                kinds.append(_HTML_BLOCKS[name] if _HTML_BLOCKS[name] else kinds[-1])
            if el.text:
                buffer.append(el.text)
        else:
            if name in _HTML_SKIP:
                skipping -= 1
            elif not skipping and name in _HTML_BLOCKS:
                flush()
                kinds.pop()
            if not skipping and el.tail and el is not root:
                buffer.append(el.tail)
    flush()
    return _gold_from_blocks(blocks)


# --------------------------------------------------------------------------- web2025


def parse_web2025(text: str) -> Gold:
    """Parse a web2025 gold file (JSON: ``url``, ``page_type``, ``title``,
    ``main_content`` with paragraphs separated by a blank line, ``with`` and ``without``
    snippets): the main content, one block per paragraph (a paragraph's lines joined),
    and its URL. The title is not part of the main content.

    >>> g = parse_web2025('{"url": "https://x.org/", "main_content": "First para\\nwrapped.\\n\\nSecond."}')
    >>> g.url, [b.text for b in g.blocks]
    ('https://x.org/', ['First para wrapped.', 'Second.'])
    """
    import json

    record = json.loads(text.lstrip("\ufeff"))
    paragraphs = re.split(r"\n[ \t]*\n", record.get("main_content") or "")
    blocks = [GoldBlock(None, body) for body in map(_collapse, paragraphs) if body]
    return _gold_from_blocks(blocks, url=record.get("url"))


# --------------------------------------------------------------------------- corpora

#: The gold formats, by name (``kitten eval --corpus``).
GOLD_FORMATS: dict[str, Callable[[str], Gold]] = {
    "cleaneval": parse_cleaneval,
    "dragnet": parse_dragnet,
    "readability": parse_readability,
    "web2025": parse_web2025,
}

#: The gold format of each shared corpus, by folder name.
CORPUS_GOLD_FORMAT: dict[str, str] = {
    "cleaneval-dev": "cleaneval",
    "cleaneval-final": "cleaneval",
    "cleanportaleval": "cleaneval",
    "dragnet": "dragnet",
    "readability": "readability",
    "modern": "dragnet",
    "web2025": "web2025",
}

CORPUS_FORMATS: dict[str, Callable[[str], Gold]] = {
    corpus: GOLD_FORMATS[fmt] for corpus, fmt in CORPUS_GOLD_FORMAT.items()
}


def reader_for(corpus: str) -> Callable[[str], Gold]:
    """The gold parser of a shared corpus, by folder name (``cleaneval-final``, ...),
    or of a format, by name (``cleaneval``, ``dragnet``, ``readability``)."""
    try:
        return CORPUS_FORMATS.get(corpus) or GOLD_FORMATS[corpus]
    except KeyError:
        raise ValueError(f"no gold format known for corpus {corpus!r}; "
                         f"known: {', '.join(sorted({**CORPUS_FORMATS, **GOLD_FORMATS}))}") from None


# A CLEANEVAL file: an optional URL line, then a block marker first; or the URL line alone.
_CLEANEVAL_START = re.compile(r"\A\s*(?:URL:[^\n]*(?:\n\s*(?=<[phlPHL]>)|\s*\Z)|<[phlPHL]>)")


def looks_cleaneval(text: str) -> bool:
    """Is a decoded text in the CLEANEVAL format (a ``URL:`` line followed by a block
    marker or by nothing, or a block marker first)? How ``kitten eval`` recognizes
    outputs written with ``--format cleaneval``, whose markers and URL are not text.

    >>> looks_cleaneval("URL: a.html\\n<h>Title\\n<p>Text."), looks_cleaneval("URL: a.html\\n")
    (True, True)
    >>> looks_cleaneval("Title.\\nText <p> here."), looks_cleaneval("URL: see below.\\nText.")
    (False, False)
    """
    return bool(_CLEANEVAL_START.match(text.lstrip("\ufeff")))


_HTML_START = re.compile(r"\A\s*<(?:!DOCTYPE|html|body|div|article|section|p|h[1-6]|ul|table)\b", re.IGNORECASE)


def guess_format(folder_name: str, samples: Iterable[str] = ()) -> str:
    """The gold format of a gold folder: by its shared corpus name (``folder_name``:
    ``cleaneval-final``, ``dragnet`` ...), else by some of its decoded files
    (``samples``): CLEANEVAL markers, an HTML fragment (Readability), else plain text
    (the Dragnet reader, which also keeps a comment section apart).

    >>> guess_format("cleaneval-final"), guess_format("x", ["<div><p>Main</p></div>"])
    ('cleaneval', 'readability')
    >>> guess_format("x", ["Just text.", "<h>Title"])
    'cleaneval'
    """
    if folder_name in CORPUS_GOLD_FORMAT:
        return CORPUS_GOLD_FORMAT[folder_name]
    samples = list(samples)
    if any(looks_cleaneval(t) for t in samples):
        return "cleaneval"
    if samples and sum(bool(_HTML_START.match(t)) for t in samples) * 2 > len(samples):
        return "readability"
    return "dragnet"


def read_gold(path: Path, corpus: str) -> Gold:
    """Read and parse one gold file of ``corpus``."""
    return reader_for(corpus)(decode_gold(Path(path).read_bytes()))


def corpus_pages(corpora: Path, corpus: str, extra: Path | None = None) -> Iterator[tuple[str, Path, Gold | None]]:
    """``(page name, html path, gold or None)`` for every page of a corpus folder
    ``corpora/<corpus>/{html,gold}``, sorted by name (pages without a gold file get
    ``None``); ``extra``: a folder of gold files (same names, same format) for the pages
    the corpus has none for (``corpora/boilerplate/gold/<corpus>``: hand annotation)."""
    folder = Path(corpora) / corpus
    html = folder / "html"
    if not html.is_dir():
        raise FileNotFoundError(f"missing {html}: unpack ../shared/corpora/{corpus}.tar.xz into {corpora}")
    parse = reader_for(corpus)
    for path in sorted(html.iterdir(), key=natural_key):
        gold_path = folder / "gold" / (path.stem + (".json" if parse is parse_web2025 else ".txt"))
        if not gold_path.is_file() and extra is not None:
            gold_path = extra / (path.stem + ".txt")
        gold = parse(decode_gold(gold_path.read_bytes())) if gold_path.is_file() else None
        yield path.name, path, gold


_DIGITS = re.compile(r"(\d+)")


def natural_key(path: Path) -> tuple[object, ...]:
    return tuple(int(p) if p.isdigit() else p for p in _DIGITS.split(path.name))
