"""Render step: sentences as text (one per line) or JSON (blocks, sentences, removals)."""
from __future__ import annotations

import json

from kitten.document import Document, Sentence


def render_text(sentences: list[Sentence]) -> str:
    """One segment per line, UTF-8 text, every line ending in sentence-final punctuation
    (or a colon, where a clause introduces what follows)."""
    return "".join(s.text + "\n" for s in sentences)


def readings(items: list) -> list[dict]:
    """The tables or lists readings of a document as JSON-ready dicts."""
    return [r.as_dict() for r in items]


def document_dict(doc: Document) -> dict:
    return {
        "lang": doc.lang,
        "title": doc.title,
        "blocks": [{"kind": b.kind, "tag": b.tag, "locator": b.locator, "container": b.container,
                    "text": b.text()} for b in doc.blocks],
        "removals": [{"locator": r.locator, "reason": r.reason, "text": r.text} for r in doc.removals],
        "abbreviations": [{"tag": t, "text": x, "title": e} for t, x, e in doc.abbreviations],
        "tables": readings(doc.tables),
        "lists": readings(doc.lists),
    }


def render_json(doc: Document, sentences: list[Sentence]) -> str:
    """The document's blocks and sentences, with their locators, as JSON."""
    data = document_dict(doc)
    data["sentences"] = [{"text": s.text, "locator": s.locator, "kind": s.kind} for s in sentences]
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
