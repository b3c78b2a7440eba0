"""One page's report: the template filled with the drawn page and the output text.

``report_data`` gathers the page's JSON from the pipeline's products with the functions
``--format json`` and the dumps use (``kitten/render.py``); ``build_report`` fills
``template.html`` (CSS and JS inline: the report loads nothing); ``write_report`` is
what the engine calls for ``kitten report`` and ``kitten extract --report``.
"""
from __future__ import annotations

import html
import json
from importlib.resources import files
from pathlib import Path
from typing import Any

from kitten.io.files import atomic_write, output_path
from kitten.log import GATE_FALLBACK
from kitten.pipeline import PageResult
from kitten.render import document_dict, gate_readings, readings, sentence_dict
from kitten.report.draw import collapse, draw

#: suffix of a page's report in the report folder
REPORT_SUFFIX = ".report.html"
#: id of the JSON summary in the report's head (read back by the index)
SUMMARY_ID = "kitten-summary"


def template(name: str) -> str:
    return files("kitten.report").joinpath(name).read_text(encoding="utf-8")


def report_data(result: PageResult) -> dict[str, Any]:
    """The page's ``--format json`` data, from the products of ``run_page`` (whatever
    its target): the structure step's blocks (before the gate: the gate's drops are
    drawn too), removals, abbreviations, the gate's labels, tables, lists, sentences."""
    doc = result.products.get("structure")
    if doc is None:
        return {}
    products, locate = result.products, doc.locate
    data = {k: list(v) if not isinstance(v, (str, dict, type(None))) else v for k, v in document_dict(doc).items()}
    data["gate"] = gate_readings(products.get("gate") or [], locate)
    data["tables"] = readings(products.get("tables") or [])
    data["lists"] = readings(products.get("lists") or [])
    data["sentences"] = [sentence_dict(s, doc) for s in products.get("segment") or []]
    return data


def letters(text: str) -> int:
    return sum(map(str.isalnum, text))


def kept_letters(data: dict) -> int:
    """Letters of the blocks that reach the output: blocks with sentences, or inside an
    element with sentences (a table row's cells, a flattened list's items)."""
    out = {s.get("locator", "") for s in data.get("sentences", ())}
    kept = 0
    for b in data.get("blocks", ()):
        loc = b["locator"]
        while loc and loc not in out:
            loc = loc.rpartition("/")[0]
        if loc:
            kept += letters(b["text"])
    return kept


def summary(result: PageResult, data: dict, page_text: str, fallback: str | None) -> dict[str, Any]:
    """What the index shows of a page."""
    events = [e.as_dict() for e in result.log]
    gate_kinds = {e["kind"] for e in events if e["step"] == "gate"}
    reason = next((e["message"] for e in events if e["kind"] in ("excluded", "fallback", "failed")), "")
    page_letters = letters(page_text)
    out_letters = letters(fallback) if fallback is not None else kept_letters(data)
    tables = data.get("tables", [])
    decoded = result.decoded
    return {
        "page": result.name, "status": result.status, "reason": reason,
        "gate": ("fallback" if GATE_FALLBACK in gate_kinds else "labelled") if gate_kinds else None,
        "encoding": decoded.encoding if decoded else None, "lang": data.get("lang"), "title": data.get("title", ""),
        "page_letters": page_letters, "kept_letters": out_letters,
        "removed_share": round(min(1.0, max(0.0, 1 - out_letters / page_letters)), 3) if page_letters else 0.0,
        "sentences": len(data.get("sentences", [])),
        "data_tables": sum(t["class"] == "data" for t in tables), "layout_tables": sum(t["class"] == "layout" for t in tables),
        "lists": len(data.get("lists", [])),
        "link_items_removed": sum(len(x.get("removed") or ()) for x in data.get("lists", [])),
        "containers_removed": len(data.get("removals", [])),
    }


def added_stop(s: dict) -> bool:
    """Whether the segment step added the sentence's final full stop (the sentence is its
    block's span plus one character)."""
    start, end, text = s.get("start"), s.get("end"), s["text"]
    return start is not None and text.endswith(".") and len(text) == end - start + 1


def text_pane(sentences: list[dict], blocks: dict[str, int], fallback: str | None) -> str:
    """The output text, one sentence a line, each linked to its block."""
    if fallback is not None:
        return f'<pre class="k-dump">{html.escape(fallback)}</pre>'
    out = []
    for i, s in enumerate(sentences):
        b = blocks.get(s.get("locator", ""))
        text = s["text"]
        if added_stop(s):
            body = html.escape(text[:-1]) + '<span class="kfs" title="full stop added">.</span>'
        else:
            body = html.escape(text)
        link = f' data-b="{b}"' if b is not None else ""
        out.append(f'<p class="ks" id="s{i}"{link} title="{html.escape(s.get("kind", ""))}">{body}</p>')
    return "\n".join(out)


def header(info: dict) -> str:
    parts = [f"<b>{html.escape(info['page'])}</b>", f"status <b>{info['status']}</b>"]
    if info["reason"]:
        parts.append(f"reason: {html.escape(info['reason'])}")
    parts.append(f"gate: {info['gate'] or 'off'}")
    for key in ("encoding", "lang"):
        if info.get(key):
            parts.append(f"{key}: {html.escape(str(info[key]))}")
    parts.append(f"{info['sentences']} sentences, {info['removed_share']:.0%} of the text removed")
    parts.append(f"tables: {info['data_tables']} data, {info['layout_tables']} layout; lists: {info['lists']} "
                 f"({info['link_items_removed']} link items removed); containers removed: {info['containers_removed']}")
    return " · ".join(parts)


def build_report(result: PageResult) -> tuple[str, dict[str, Any]]:
    """The report of one page (HTML) and its summary."""
    data = report_data(result)
    xhtml = result.xhtml
    page, blocks = draw(xhtml, data) if xhtml else ('<div class="k-page"></div>', {})
    page_text = collapse(" ".join(page_textnodes(xhtml))) if xhtml else ""
    fallback = result.output if result.status == "fallback" else None
    info = summary(result, data, page_text, fallback)
    filled = template("template.html")
    for key, value in (("title", html.escape(f"Kitten report: {result.name}")),
                       ("summary", json.dumps(info, ensure_ascii=False).replace("<", "\\u003c")),
                       ("header", header(info)), ("page", page), ("text", text_pane(data.get("sentences", []), blocks, fallback))):
        filled = filled.replace(f"<!--k:{key}-->", value, 1)
    return filled, info


def page_textnodes(xhtml: str) -> list[str]:
    """The visible text of the XHTML's body (scripts and styles left out)."""
    from kitten.structure import parse_xhtml  # the tree, once more: cheap beside drawing it

    root = parse_xhtml(xhtml)
    body = root.find("{http://www.w3.org/1999/xhtml}body")
    if body is None:
        return []
    skip = {"{http://www.w3.org/1999/xhtml}script", "{http://www.w3.org/1999/xhtml}style"}
    return [t for el in body.iter() if isinstance(el.tag, str) and el.tag not in skip
            for t in (el.text,) if t] + [el.tail for el in body.iter() if el.tail and el is not body]


def write_report(result: PageResult, report_dir: Path, stem: Path) -> Path | None:
    """Write the report of one page (None for pages without XHTML or text: excluded)."""
    if result.status not in ("done", "fallback"):
        return None
    text, _ = build_report(result)
    path = output_path(report_dir, stem, REPORT_SUFFIX)
    atomic_write(path, text)
    return path
