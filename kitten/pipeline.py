"""The pipeline: named steps from bytes to XHTML or text, recording each product.

::

    raw bytes -> triage -> decode -> normalize (HTML) or xml (pre-converted XML)
              -> structure (Document of blocks) -> gate (optional: boilerplate
              blocks dropped by the CRF) -> tables (data rows as clauses)
              -> lists (typology and rules) -> segment (sentences) -> render

Each step is a plain function of the previous product. ``run_page`` wires them,
records every product under its step name (so ``--dump-dir`` can write every
intermediate file), and turns any exception into the plain-text fallback, so a
page never yields nothing and a batch never stops.
"""
from __future__ import annotations

import dataclasses
import json
import traceback
from dataclasses import dataclass, field
from typing import Any, Literal

from kitten.config import Config
from kitten.log import GATE_FALLBACK, Event, PageLog
from kitten.normalizer import to_marked_xhtml, to_xhtml
from kitten.normalizer.origins import MARK, origins_of, strip_marks
from kitten.normalizer.encoding import decode
from kitten.page import Decoded, Page, Triage
from kitten.lists import read_lists
from kitten.render import document_dict, dumps, gate_readings, readings, render
from kitten.structure import BLOCKS, build_document, parse_xhtml
from kitten.styles import STYLES
from kitten.tables import read_tables
from kitten.triage import triage

Target = Literal["xhtml", "text", "json", "cleaneval"]
Status = Literal["done", "excluded", "fallback", "failed"]


@dataclass
class PageResult:
    """What the pipeline made of one page."""

    name: str
    target: Target
    status: Status
    output: str | None  # XHTML or text for status "done"; the text dump for "fallback"
    products: dict[str, Any] = field(default_factory=dict)  # step name -> product
    log: list[Event] = field(default_factory=list)
    error: str | None = None

    @property
    def decoded(self) -> Decoded | None:
        return self.products.get("decode")

    @property
    def xhtml(self) -> str | None:
        return self.products.get("normalize")

    @property
    def output_suffix(self) -> str:
        """File suffix of ``output``: ``.xhtml``, ``.json``, else ``.txt`` (text, CLEANEVAL,
        fallbacks)."""
        if self.status != "done":
            return ".txt"
        return {"xhtml": ".xhtml", "json": ".json"}.get(self.target, ".txt")


# Dump files: step name -> (suffix, how to turn the product into text, given the
# document's locators)
DUMPS: dict[str, tuple[str, Any]] = {
    "raw": (".raw.html", None),
    "triage": (".triage.json", lambda t, _: json.dumps({"kind": t.kind, "reason": t.reason, "root": t.root})),
    "decode": (".decoded.html", lambda d, _: d.text),
    "normalize": (".xhtml", lambda x, _: x),
    "structure": (".blocks.json", lambda d, _: dumps(document_dict(d))),
    "page_type": (".page_type.json", lambda k, _: json.dumps(k.as_dict(), ensure_ascii=False, indent=1)),
    "gate": (".boilerplate.json", lambda ls, locate: json.dumps(gate_readings(ls, locate, features=True),
                                                                ensure_ascii=False, indent=1)),
    "tables": (".tables.json", lambda ts, _: json.dumps(readings(ts), ensure_ascii=False, indent=1)),
    "lists": (".lists.json", lambda ls, _: json.dumps(readings(ls), ensure_ascii=False, indent=1)),
    "segment": (".sentences.txt", lambda ss, locate: "".join(f"{locate(s.block.source) or ''}\t{s.text}\n" for s in ss)),
    "render": (".txt", lambda t, _: t),
    "fallback": (".fallback.txt", lambda t, _: t),
}


def run_page(page: Page, config: Config, target: Target = "text", provenance: bool | None = None) -> PageResult:
    """Run every step on ``page`` up to ``target``; never raises. ``provenance``: find
    each element's path in the original page (``Document.origins``; default: for the
    ``json`` target only, the text steps never need it)."""
    log = PageLog()
    products: dict[str, Any] = {"raw": page.data}
    result = PageResult(page.name, target, "failed", None, products, log.events)
    at = ["triage"]  # the step running (a cell the text steps update)
    try:
        tri: Triage = triage(page.data, config.triage)
        products["triage"] = tri
        if tri.kind in ("sitemap", "binary", "empty"):
            log.add("triage", "excluded", tri.reason)
            result.status = "excluded"
            return result
        at[0] = "decode"
        decoded = decode(page.data, config.decode, log, page.headers)
        products["decode"] = decoded
        at[0] = "normalize"
        marked = paths = None  # provenance (``normalizer/origins.py``)
        if tri.kind == "xml":
            from kitten.xmldoc import xml_to_xhtml

            xhtml = xml_to_xhtml(decoded.text, log)
        elif (target == "json" if provenance is None else provenance) and target != "xhtml" \
                and MARK not in decoded.text:
            marked, paths = to_marked_xhtml(decoded.text, config.normalize, log, BLOCKS)
            xhtml = strip_marks(marked)
        else:
            xhtml = to_xhtml(decoded.text, config.normalize, log)
        products["normalize"] = xhtml
        if target == "xhtml":
            result.status, result.output = "done", xhtml
            return result
        at[0] = "structure"
        tree = parse_xhtml(xhtml)
        origins = origins_of(tree, marked, paths) if marked is not None else None
        del marked
        doc = build_document(tree, config.structure, log, config.rules.dir)
        if origins is not None:
            doc = dataclasses.replace(doc, origins=origins)
        products["structure"] = doc
        ungated = doc
        gated = config.boilerplate.method != "none"
        if gated:  # the gate's modules and models: imported and loaded when configured
            from kitten.boilerplate import gate
            from kitten.page_type import classify as classify_page

            at[0] = "page_type"
            kind = products["page_type"] = classify_page(doc, page.url)
            doc = dataclasses.replace(doc, page_type=kind)
            at[0] = "gate"
            doc, products["gate"] = gate(doc, config.boilerplate, log, config.rules.classifiers,
                                           config.rules.dir, config.tables, kind.label)
            if kind.label in config.boilerplate.link_items_kept_on and config.lists.remove_link_items:
                # the gate kept this kind's link lists as content (a documentation index)
                config = dataclasses.replace(config, lists=dataclasses.replace(config.lists, remove_link_items=False))
        doc, sentences = _text_steps(doc, config, log, products, at)
        if not sentences and gated:
            # what the gate kept, the later steps removed (a kept link list): never an empty page
            if _text_steps(ungated, config, PageLog(), {}, at)[1]:
                log.add("gate", GATE_FALLBACK, "empty-output: the steps after the gate left no text; "
                                               "every block kept")
                doc, sentences = _text_steps(dataclasses.replace(ungated, gate=doc.gate), config, log,
                                             products, at)
        at[0] = "render"
        text = render(target, doc, sentences, page.url or page.name,
                      {"status": "done", "url": page.url, "encoding": decoded.encoding},
                      STYLES[config.output.style].text)
        products["render"] = text
        result.status, result.output = "done", text
        return result
    except Exception as exc:  # noqa: BLE001 - any failure becomes a logged fallback
        return _fallback(result, log, at[0], exc)


def _text_steps(doc, config: Config, log: PageLog, products: dict[str, Any], at: list[str]):
    """The tables, lists and segment steps of the configured style (``kitten/styles.py``):
    ``(document, sentences)`` (``at[0]``: the step running)."""
    style = STYLES[config.output.style]
    at[0] = "tables"
    doc = read_tables(style.prepare(doc), config.tables, log, config.rules.classifiers, style.tables)
    products["tables"] = doc.tables
    at[0] = "lists"
    doc = read_lists(doc, style.lists(config.lists), log, config.rules.dir)
    products["lists"] = doc.lists
    at[0] = "segment"
    sentences = style.segment(doc, config.segment, log, config.rules.dir)
    products["segment"] = sentences
    return doc, sentences


def _fallback(result: PageResult, log: PageLog, step: str, exc: Exception) -> PageResult:
    reason = f"{step} failed: {type(exc).__name__}: {exc}"
    log.add(step, "fallback", reason)
    result.error = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    try:
        from kitten.fallback import plain_text_dump

        decoded = result.products.get("decode")
        text = plain_text_dump(decoded.text if decoded is not None else result.products["raw"])
    except Exception as exc2:  # noqa: BLE001 - reported as a failed page
        log.add("fallback", "failed", f"fallback failed: {type(exc2).__name__}: {exc2}")
        result.status = "failed"
        return result
    result.products["fallback"] = text
    result.status, result.output = "fallback", text
    return result
