"""Kitten and its peers behind one interface: ``name -> callable(html_bytes) -> text``.

    from peers import PEERS, load_peer, run_peer
    extract = load_peer("html-text")          # imports html_text only now
    text = run_peer(extract, page_bytes)       # None when the extractor raised

Every extractor gets the page as crawled (bytes) and decodes it the way its own
documentation says:

- ``kitten``: ``kitten.extract(bytes)`` (its own decode step); ``kitten-crf``: the
  same with the boilerplate step on (``--boilerplate crf``); ``kitten-pysbd``,
  ``kitten-sentencex``, ``kitten-syntok``, ``kitten-blingfire``: Kitten with its sentence
  splitter replaced by that library (English rules);
- ``html-text``, ``inscriptis``: they take ``str``; both get :func:`decode_declared`
  (BOM, the charset declared in ``<meta>`` or the XML declaration, else UTF-8, else
  windows-1252: what Scrapy/w3lib, the usual source of their input, do);
- ``resiliparse``: ``bytes_to_str(data, detect_encoding(data))``, then
  ``extract_plain_text(HTMLTree.parse(...), main_content=False)``;
  ``resiliparse-main``: the same with ``main_content=True`` (its boilerplate removal);
- ``trafilatura``: ``extract(bytes, include_comments=False)`` (its own detection);
- ``readability``: ``Document(bytes).summary()`` (its own detection), then the text
  of the summary fragment, one block per line;
- ``justext``: ``justext(bytes, English stoplist)`` (its own detection), the
  non-boilerplate paragraphs one per line.

The peers are the optional ``bench`` extra (``pip install -e '.[bench]'``); a peer
that is not installed is reported by :func:`missing_reason`, never imported by
Kitten's runtime code.
"""
from __future__ import annotations

import codecs
import contextlib
import logging
import re
from typing import Callable, Iterator

Extractor = Callable[[bytes], str]

# --------------------------------------------------------------------------- decoding

_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_DECLARED = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([-\w.:]+)|<\?xml[^>]+encoding\s*=\s*["']([-\w.:]+)""",
    re.IGNORECASE,
)


def decode_declared(data: bytes) -> str:
    """Bytes to str for extractors that want str: BOM, else the declared charset (in
    the first 4 KB) when Python knows it, else UTF-8, else windows-1252 (never fails).

    >>> decode_declared(b'<meta charset="iso-8859-1"><p>caf\\xe9')
    '<meta charset="iso-8859-1"><p>café'
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(encoding, errors="replace")
    m = _DECLARED.search(data[:4096])
    if m:
        label = (m.group(1) or m.group(2)).decode("ascii", "replace").lower()
        if label in ("iso-8859-1", "latin-1", "latin1", "us-ascii", "ascii"):
            label = "windows-1252"  # as browsers do
        try:
            codecs.lookup(label)
        except LookupError:
            pass
        else:
            if not label.startswith("utf-16"):  # an ASCII-compatible page that says UTF-16 lies
                return data.decode(label, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("windows-1252", errors="replace")


# --------------------------------------------------------------------------- peers


def _kitten() -> Extractor:
    import kitten

    return kitten.extract


def _kitten_without(section: str) -> Callable[[], Extractor]:
    """Kitten with one step switched off (``[tables] enabled = false``...), to measure
    what that step costs."""

    def factory() -> Extractor:
        import kitten
        from kitten.config import Config

        config = Config.from_dict({section: {"enabled": False}})
        return lambda data: kitten.extract(data, config=config)

    return factory


def _html_text() -> Extractor:
    import html_text

    def extract(data: bytes) -> str:
        return html_text.extract_text(decode_declared(data), guess_layout=True)

    return extract


def _inscriptis() -> Extractor:
    from inscriptis import get_text

    def extract(data: bytes) -> str:
        return get_text(decode_declared(data))

    return extract


def _resiliparse(main_content: bool) -> Callable[[], Extractor]:
    """resiliparse's plain text, all of it or its main content only."""

    def factory() -> Extractor:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding
        from resiliparse.parse.html import HTMLTree

        def extract(data: bytes) -> str:
            tree = HTMLTree.parse(bytes_to_str(data, detect_encoding(data)))
            return extract_plain_text(tree, main_content=main_content)

        return extract

    return factory


def _trafilatura() -> Extractor:
    import trafilatura

    logging.getLogger("trafilatura").setLevel(logging.CRITICAL)

    def extract(data: bytes) -> str:
        return trafilatura.extract(data, include_comments=False) or ""

    return extract


def _readability() -> Extractor:
    from readability import Document

    from kitten.evaluation.gold import parse_readability

    logging.getLogger("readability").setLevel(logging.CRITICAL)
    logging.getLogger("readability.readability").setLevel(logging.CRITICAL)

    def extract(data: bytes) -> str:
        return parse_readability(Document(data).summary()).text

    return extract


def _justext() -> Extractor:
    import justext

    stoplist = justext.get_stoplist("English")

    def extract(data: bytes) -> str:
        paragraphs = justext.justext(data, stoplist)
        return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)

    return extract


def _kitten_crf() -> Extractor:
    """Kitten with the boilerplate step on (``[boilerplate] method = "crf"``)."""
    import kitten
    from kitten.config import Config

    config = Config.from_dict({"boilerplate": {"method": "crf"}})
    return lambda data: kitten.extract(data, config=config)


def _spans_of(text: str, sentences) -> list[tuple[int, int]]:
    """``[start, end)`` in ``text`` of each of ``sentences`` (strings found in order; a
    sentence the splitter rewrote is skipped and its text joins the next one)."""
    spans: list[tuple[int, int]] = []
    start = pos = 0
    for sentence in sentences:
        piece = sentence.strip()
        at = text.find(piece, pos) if piece else -1
        if at < 0:
            continue
        pos = at + len(piece)
        spans.append((start, pos))
        start = pos + 1 if text[pos:pos + 1] == " " else pos
    if start < len(text):
        spans.append((start, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip()] or [(0, len(text))]


def _split_pysbd() -> Callable[[str], list[tuple[int, int]]]:
    import pysbd

    segmenter = pysbd.Segmenter(language="en", clean=False)
    return lambda text: _spans_of(text, segmenter.segment(text))


def _split_sentencex() -> Callable[[str], list[tuple[int, int]]]:
    import sentencex

    return lambda text: _spans_of(text, sentencex.segment("en", text))


def _split_syntok() -> Callable[[str], list[tuple[int, int]]]:
    from syntok import segmenter

    def split(text: str) -> list[tuple[int, int]]:
        sentences = ["".join(token.spacing + token.value for token in sentence).strip()
                     for paragraph in segmenter.analyze(text) for sentence in paragraph]
        return _spans_of(text, sentences)

    return split


def _split_blingfire() -> Callable[[str], list[tuple[int, int]]]:
    import blingfire

    return lambda text: _spans_of(text, blingfire.text_to_sentences(text).split("\n"))


@contextlib.contextmanager
def splitter_replaced(spans: Callable) -> Iterator[None]:
    """Kitten's sentence splitter method (``kitten.segment.Splitter.spans``) replaced by
    ``spans`` inside the block (benchmarks only)."""
    from kitten import segment

    original = segment.Splitter.spans
    segment.Splitter.spans = spans
    try:
        yield
    finally:
        segment.Splitter.spans = original


def _kitten_splitting_with(factory: Callable[[], Callable[[str], list[tuple[int, int]]]]) -> Callable[[], Extractor]:
    """Kitten with its sentence splitter (``kitten.segment.Splitter.spans``) replaced by a
    maintained one, for the comparison issue 18 asks for: the same blocks, another splitter.
    (Patched during each call, in the benchmark process only.)"""
    def load() -> Extractor:
        import kitten

        split = factory()

        def extract(data: bytes) -> str:
            with splitter_replaced(lambda self, text: split(text)):
                return kitten.extract(data)

        return extract

    return load


#: name -> factory (the factory imports the peer and returns its extractor).
PEERS: dict[str, Callable[[], Extractor]] = {
    "kitten": _kitten,
    "kitten-no-tables": _kitten_without("tables"),
    "kitten-no-lists": _kitten_without("lists"),
    "kitten-crf": _kitten_crf,
    "kitten-pysbd": _kitten_splitting_with(_split_pysbd),
    "kitten-sentencex": _kitten_splitting_with(_split_sentencex),
    "kitten-syntok": _kitten_splitting_with(_split_syntok),
    "kitten-blingfire": _kitten_splitting_with(_split_blingfire),
    "html-text": _html_text,
    "inscriptis": _inscriptis,
    "resiliparse": _resiliparse(main_content=False),
    "resiliparse-main": _resiliparse(main_content=True),
    "trafilatura": _trafilatura,
    "readability": _readability,
    "justext": _justext,
}


def load_peer(name: str) -> Extractor:
    """Import peer ``name`` and return its ``bytes -> text`` extractor."""
    try:
        return PEERS[name]()
    except KeyError:
        raise ValueError(f"unknown peer {name!r}; known: {', '.join(PEERS)}") from None


def missing_reason(name: str) -> str | None:
    """``None`` if peer ``name`` can be loaded, else why not (e.g. not installed)."""
    try:
        load_peer(name)
    except ImportError as e:
        return f"not installed ({e.name or e}); pip install -e '.[bench]'"
    return None


def run_peer(extract: Extractor, data: bytes) -> str | None:
    """``extract(data)``, or ``None`` when it raises (the page counts as
    "extractor failed"; the run goes on)."""
    try:
        text = extract(data)
    except Exception:  # noqa: BLE001 - any failure of a peer is a data point, not a crash
        return None
    return text if isinstance(text, str) else None
