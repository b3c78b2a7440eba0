"""Render step: sentences as text (one per line), JSON (blocks, sentences, removals)
or the CLEANEVAL format (one block per line with its ``<p>``/``<h>``/``<l>`` marker)."""
from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from itertools import islice

from kitten.document import Block, BlockKind, Document, Locators, Sentence


def render_text(sentences: list[Sentence]) -> str:
    """One segment per line, UTF-8 text, every line ending in sentence-final punctuation
    (or a colon, where a clause introduces what follows)."""
    return "\n".join([s.text for s in sentences]) + "\n" if sentences else ""


def readings(items: list) -> list[dict]:
    """The tables or lists readings of a document as JSON-ready dicts."""
    return [r.as_dict() for r in items]


def gate_readings(labelled: list, locate: Locators, features: bool = False) -> list[dict]:
    """The gate's reading (each unit the CRF labelled) as JSON-ready dicts."""
    return [x.as_dict(locate, features) for x in labelled]


def block_dict(b: Block, doc: Document) -> dict:
    """A block for JSON: kind, tag, locator, container (the innermost list or table),
    text, and ``original``: its element's path in the original page (None when unknown)."""
    locate = doc.locate
    return {"kind": b.kind, "tag": b.tag, "locator": locate(b.source) or "", "container": locate(b.group),
            "text": b.text(), "original": doc.original(b.source)}


def document_dict(doc: Document) -> dict:
    """The document for JSON (its lists of blocks and readings as generators: see ``dumps``)."""
    locate = doc.locate
    return {
        "lang": doc.lang,
        "title": doc.title or None,
        "metadata": {k: v or None for k, v in doc.metadata.as_dict().items()},  # null where absent, as JSON Lines
        "page_type": doc.page_type.as_dict() if doc.page_type is not None else None,
        "blocks": (block_dict(b, doc) for b in doc.blocks),
        "removals": ({"locator": r.locator, "reason": r.reason, "text": r.text} for r in doc.removals),
        "abbreviations": (a.as_dict() for a in doc.abbreviations),
        "gate": (x.as_dict(locate) for x in doc.gate),
        "tables": (r.as_dict() for r in doc.tables),
        "lists": (r.as_dict() for r in doc.lists),
    }


def dumps(data: dict) -> str:
    """``json.dumps(data, ensure_ascii=False, indent=1)``, byte for byte, for a dict whose
    values may be generators of items (written as lists), made and encoded
    :data:`DUMPS_CHUNK` items at a time: the JSON of a page of 600,000 blocks is 177 MB,
    and the standard encoder keeps every dict and every token of it (2.4 GB for a 30 MB
    page; about half of that here)."""
    out = io.StringIO()
    out.write("{")
    first = True
    for key, value in data.items():
        out.write("\n " if first else ",\n ")
        first = False
        out.write(json.dumps(key, ensure_ascii=False) + ": ")
        if isinstance(value, Iterator):
            empty = True
            while chunk := list(islice(value, DUMPS_CHUNK)):
                # a list at the top: "[\n {item},\n {item}\n]"; here its items are one level deeper
                text = json.dumps(chunk, ensure_ascii=False, indent=1)
                out.write("[\n  " if empty else ",\n  ")
                empty = False
                out.write(text[3:-2].replace("\n", "\n "))
            out.write("[]" if empty else "\n ]")
        else:
            out.write(json.dumps(value, ensure_ascii=False, indent=1).replace("\n", "\n "))
    out.write("\n}" if not first else "}")
    return out.getvalue()


#: items of a list encoded by one call of the standard encoder in :func:`dumps`
DUMPS_CHUNK = 1000


def sentence_dict(s: Sentence, doc: Document) -> dict:
    """A sentence for JSON: its text, its block's locator and kind, its block element's
    path in the original page (``original``, None when unknown: see
    ``kitten/normalizer/origins.py``), and its character offsets in the block's text
    (white space collapsed) when it is a span of it."""
    source = s.block.source
    d = {"text": s.text, "locator": doc.locate(source) or "", "kind": s.kind, "original": doc.original(source)}
    if s.start is not None:
        d["start"], d["end"] = s.start, s.end
    return d


def render_json(doc: Document, sentences: list[Sentence], head: dict | None = None,
                text: Callable[[list[Sentence]], str] = render_text) -> str:
    """The document's blocks and sentences, with their locators, as JSON; ``head`` (the
    page's status, URL, encoding) first, and its text (as the text format: ``text``, the
    style's) before the sentences."""
    data = {**(head or {}), **document_dict(doc), "text": text(sentences)}
    data["sentences"] = (sentence_dict(s, doc) for s in sentences)
    return dumps(data) + "\n"


#: CLEANEVAL block marker of each block kind (``p`` for the kinds not listed).
CLEANEVAL_MARKERS: dict[BlockKind, str] = {
    "heading": "h",
    "list_item": "l",
    "term": "l",
    "definition": "l",
    "list": "l",  # a sentence written by the lists step
}
# A marker written in the text itself ("the <p> tag") would open a block for a CLEANEVAL
# reader: a space before ">" defuses it (the overlap metric's tokens stay the same).
_MARKER_IN_TEXT = re.compile(r"<([phlPHL])>")


def render_cleaneval(sentences: list[Sentence], url: str) -> str:
    """The CLEANEVAL format: a first line ``URL: <url>``, then each block on a line of
    its own, opened by its marker (``<h>`` heading; ``<l>`` list item, definition term
    or definition, list sentence; ``<p>`` anything else), holding its sentences.

    >>> from kitten.document import Block
    >>> h, p = Block("heading", "h1", None, ["Title"]), Block("paragraph", "p", None, [])
    >>> print(render_cleaneval([Sentence("Title.", h), Sentence("One.", p), Sentence("Write <p>.", p)], "x.html"), end="")
    URL: x.html
    <h>Title.
    <p>One. Write <p >.
    """
    lines = [f"URL: {' '.join(url.split())}"]
    previous = None
    for s in sentences:
        text = _MARKER_IN_TEXT.sub(r"<\1 >", " ".join(s.text.split()))
        if s.block is previous:
            lines[-1] += " " + text
        else:
            lines.append(f"<{CLEANEVAL_MARKERS.get(s.block.kind, 'p')}>{text}")
            previous = s.block
    return "\n".join(lines) + "\n"


def render(target: str, doc: Document, sentences: list[Sentence], url: str, head: dict | None = None,
           text: Callable[[list[Sentence]], str] = render_text) -> str:
    """The output of the ``text``, ``json`` or ``cleaneval`` target (``url``: the page's
    URL, or its file name, for the CLEANEVAL header; ``head``: what the JSON starts with;
    ``text``: the style's text, default one sentence a line)."""
    if target == "json":
        return render_json(doc, sentences, head, text)
    if target == "cleaneval":
        return render_cleaneval(sentences, url)
    return text(sentences)
