"""Measuring functions for the normalizer's output quality.

Everything here is pure (no global mutable state) and importable by tests and by
``benchmarks/corpus_check.py``:

* :func:`visible_text_html5lib` / :func:`visible_text_xhtml` — the "text fidelity"
  definition: all text nodes of the document, in document order, joined *without*
  separators (element boundaries are not word boundaries: ``<b>un</b>known`` is
  ``unknown``), excluding the content of ``script``, ``style``, ``template`` and
  comments, then normalized by :func:`normalize_text`. The normalizer may rename or
  unwrap elements but must keep the text, so both strings must be equal.
* :func:`parses_strict` — the output is well-formed XML (no recovery).
* :func:`validate_dtd` / :func:`dtd_errors` — validity against XHTML 1.0 Transitional.
* :func:`tree_agreement` — does Lexbor (selectolax) build the same tree as html5lib?

The reference parse is html5lib with the ``etree`` tree builder and
``namespaceHTMLElements=False`` (stdlib ElementTree accepts control characters that
lxml's tree builder rejects).
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Union

import html5lib
import lxml.etree as etree

DEFAULT_DTD_PATH = Path(
    "/usr/share/xml/w3c-sgml-lib/schema/dtd/REC-xhtml1-20020801/xhtml1-transitional.dtd"
)
XHTML_NS = "http://www.w3.org/1999/xhtml"

#: Elements whose content is not visible text (the element's *tail* still counts).
EXCLUDED_ELEMENTS = frozenset({"script", "style", "template"})

# Characters illegal in XML 1.0 (C0 controls but tab/LF/CR, surrogates, U+FFFE/U+FFFF),
# plus NUL and U+FFFD which parsers treat differently (drop / replace).
# \x0b and \x0c are handled separately: they become spaces.
_ILLEGAL_CHARS = re.compile("[\x00-\x08\x0e-\x1f\ud800-\udfff\ufffd\ufffe\uffff]")
_FORMFEED_VTAB = str.maketrans({"\x0b": " ", "\x0c": " "})
_WHITESPACE_RUN = re.compile("[ \t\n\r]+")
_DIGITS = re.compile(r"\d+")

_NAMESPACE_PREFIXES = {
    "http://www.w3.org/1999/xlink": "xlink",
    "http://www.w3.org/XML/1998/namespace": "xml",
    "http://www.w3.org/2000/xmlns/": "xmlns",
}

Element = Any  # an xml.etree.ElementTree.Element or an lxml.etree._Element


# --------------------------------------------------------------------------- text


def clean_chars(text: str) -> str:
    """Drop characters illegal in XML 1.0 (and NUL / U+FFFD); map VT and FF to a space."""
    return _ILLEGAL_CHARS.sub("", text.translate(_FORMFEED_VTAB))


def normalize_text(text: str) -> str:
    """:func:`clean_chars`, then collapse runs of ASCII whitespace to one space and strip.

    Only space, tab, LF and CR (after VT/FF mapping) count as whitespace: a no-break
    space or an ideographic space is text, and must survive normalization.
    """
    return _WHITESPACE_RUN.sub(" ", clean_chars(text)).strip(" ")


def local_name(tag: str) -> str:
    """``{ns}name`` -> ``name`` (a name without namespace is returned unchanged)."""
    return tag.rsplit("}", 1)[-1] if tag.startswith("{") else tag


def _is_entity(node: Element) -> bool:
    return node.tag is etree.Entity


def iter_text_nodes(root: Element) -> Iterator[str]:
    """Yield the text pieces of ``root``'s subtree in document order.

    Works on stdlib ElementTree and lxml trees. Comments and processing instructions
    contribute nothing (but their tail does); script/style/template contribute nothing
    (but their tail does). An unresolved lxml entity reference yields its source text
    (``&name;``), so that an output relying on an undeclared entity fails the fidelity
    check visibly. Iterative, so deeply nested documents do not hit the recursion limit.
    """
    # Stack items: an element to open, or a plain string (a pending tail) to emit.
    stack: list[Union[Element, str]] = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
            continue
        if item is not root and item.tail:
            stack.append(item.tail)
        tag = item.tag
        if not isinstance(tag, str):
            if _is_entity(item) and item.text:
                yield item.text
            continue  # comment / processing instruction
        if local_name(tag).lower() in EXCLUDED_ELEMENTS:
            continue
        if item.text:
            yield item.text
        stack.extend(reversed(list(item)))


def parse_html5lib(decoded: str) -> Element:
    """Parse with the reference HTML5 parser; return the ``html`` element (ElementTree)."""
    return html5lib.parse(decoded, treebuilder="etree", namespaceHTMLElements=False)


def visible_text_of_tree(root: Element) -> str:
    """Normalized visible text of an already parsed tree (see :func:`iter_text_nodes`)."""
    return normalize_text("".join(iter_text_nodes(root)))


def visible_text_html5lib(decoded: str) -> str:
    """Visible text of an HTML string as html5lib parses it (the fidelity reference)."""
    return visible_text_of_tree(parse_html5lib(decoded))


def _strict_parser() -> etree.XMLParser:
    return etree.XMLParser(
        recover=False, resolve_entities=False, no_network=True, load_dtd=False
    )


def parse_xhtml(xhtml: str) -> Element:
    """Parse XHTML strictly (raises ``lxml.etree.XMLSyntaxError`` when not well-formed)."""
    return etree.fromstring(xhtml.encode("utf-8", "surrogatepass"), _strict_parser())


def visible_text_xhtml(xhtml: str) -> str:
    """Visible text of the normalizer's XHTML output, same definition as html5lib's.

    Raises ``lxml.etree.XMLSyntaxError`` if the document is not well-formed.
    """
    return visible_text_of_tree(parse_xhtml(xhtml))


# ---------------------------------------------------------------- well-formedness


def parses_strict(xhtml: str) -> tuple[bool, str | None]:
    """Is ``xhtml`` well-formed XML? Returns ``(ok, error message or None)``."""
    try:
        parse_xhtml(xhtml)
    except (etree.XMLSyntaxError, UnicodeError, ValueError) as exc:
        return False, str(exc)
    return True, None


# ---------------------------------------------------------------------- validity


@functools.lru_cache(maxsize=4)
def load_dtd(path: str = str(DEFAULT_DTD_PATH)) -> etree.DTD:
    """Load (once per path and process) the DTD to validate against."""
    return etree.DTD(file=path)


def dtd_errors(xhtml: str, dtd_path: str | Path = DEFAULT_DTD_PATH) -> list[str]:
    """All DTD validation error messages for ``xhtml`` (empty list when valid).

    A document that is not well-formed yields a single ``not well-formed: ...`` message.
    """
    try:
        root = parse_xhtml(xhtml)
    except (etree.XMLSyntaxError, UnicodeError, ValueError) as exc:
        return [f"not well-formed: {exc}"]
    dtd = load_dtd(str(dtd_path))
    if dtd.validate(root):
        return []
    return [entry.message for entry in dtd.error_log] or ["invalid (no message)"]


def validate_dtd(
    xhtml: str, dtd_path: str | Path = DEFAULT_DTD_PATH
) -> tuple[bool, str | None]:
    """Is ``xhtml`` valid XHTML 1.0 Transitional? Returns ``(ok, first error or None)``."""
    errors = dtd_errors(xhtml, dtd_path)
    return (not errors, errors[0] if errors else None)


_GOT_LIST = re.compile(r"got \(([^)]*)\)")


def error_signature(message: str) -> str:
    """Group key for a validation message: numbers stripped, element names kept.

    In content-model errors, runs of the same child in the ``got (...)`` list are
    collapsed (``got (li li li div)`` -> ``got (li+ div)``), keeping the order.
    """
    def _collapse(match: re.Match[str]) -> str:
        runs: list[str] = []
        for name in match.group(1).split():
            if runs and runs[-1].rstrip("+") == name:
                runs[-1] = name + "+"
            else:
                runs.append(name)
        return "got (" + " ".join(runs) + ")"

    return _DIGITS.sub("N", _GOT_LIST.sub(_collapse, message)).strip()


# -------------------------------------------------------------- text differences


def first_difference(a: str, b: str) -> int:
    """Index of the first differing character of ``a`` and ``b`` (-1 if equal)."""
    if a == b:
        return -1
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def whitespace_only_difference(expected: str, actual: str) -> bool:
    """True if the strings differ but are equal once spaces are removed.

    Such a fidelity mismatch means whitespace-only text was dropped (or added) between
    elements: ``item1</li> <li>item2`` read as ``item1item2``.
    """
    return expected != actual and expected.replace(" ", "") == actual.replace(" ", "")


def diff_context(expected: str, actual: str, width: int = 60) -> dict[str, Any]:
    """``width`` characters around the first difference of two strings, for reports."""
    i = first_difference(expected, actual)
    if i < 0:
        return {"index": -1, "expected": "", "actual": ""}
    lo = max(0, i - width)
    return {
        "index": i,
        "expected_len": len(expected),
        "actual_len": len(actual),
        "expected": expected[lo : i + width],
        "actual": actual[lo : i + width],
    }


# ---------------------------------------------------------------- tree agreement

#: One item of a canonical tree: ``(depth, "element", name, attributes)`` or
#: ``(depth, "text", normalized text)``.
TreeItem = tuple


def _attr_name(name: str) -> str:
    if name.startswith("{"):
        ns, _, local = name[1:].partition("}")
        prefix = _NAMESPACE_PREFIXES.get(ns)
        if prefix == "xmlns" and local == "xmlns":
            name = "xmlns"  # html5lib: {xmlns-ns}xmlns; Lexbor: xmlns
        else:
            name = f"{prefix}:{local}" if prefix else local
    return name.lower()


def _attrs(pairs: Iterator[tuple[str, str | None]]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((_attr_name(k), clean_chars(v or "")) for k, v in pairs))


def _merge_texts(items: list[TreeItem]) -> list[TreeItem]:
    """Merge adjacent raw text items of equal depth, normalize, drop empty ones."""
    merged: list[TreeItem] = []
    for item in items:
        if (
            item[1] == "text"
            and merged
            and merged[-1][1] == "text"
            and merged[-1][0] == item[0]
        ):
            merged[-1] = (item[0], "text", merged[-1][2] + item[2])
        else:
            merged.append(item)
    out: list[TreeItem] = []
    for item in merged:
        if item[1] == "text":
            text = normalize_text(item[2])
            if text:
                out.append((item[0], "text", text))
        else:
            out.append(item)
    return out


def canonical_etree(root: Element) -> list[TreeItem]:
    """Canonical item sequence of an ElementTree (html5lib) tree.

    Comments are dropped; the content of ``template`` is skipped (Lexbor keeps it in a
    separate document fragment, html5lib as children); script/style text is kept.
    """
    items: list[TreeItem] = []
    stack: list[tuple[int, Union[Element, str]]] = [(0, root)]
    while stack:
        depth, node = stack.pop()
        if isinstance(node, str):
            items.append((depth, "text", node))
            continue
        if node is not root and node.tail:
            stack.append((depth, node.tail))  # a tail is the node's next sibling
        if not isinstance(node.tag, str):
            continue
        name = local_name(node.tag).lower()
        items.append((depth, "element", name, _attrs(iter(node.attrib.items()))))
        if name == "template":
            continue
        if node.text:
            items.append((depth + 1, "text", node.text))
        stack.extend((depth + 1, child) for child in reversed(list(node)))
    return _merge_texts(items)


def canonical_lexbor(root: Any) -> list[TreeItem]:
    """Canonical item sequence of a selectolax ``LexborNode`` tree (see canonical_etree)."""
    items: list[TreeItem] = []
    stack: list[tuple[int, Any]] = [(0, root)]
    while stack:
        depth, node = stack.pop()
        if node.is_text_node:
            items.append((depth, "text", node.text_content or ""))
            continue
        if not node.is_element_node:
            continue  # comment, doctype, processing instruction
        name = node.tag.lower()
        items.append((depth, "element", name, _attrs(iter(node.attributes.items()))))
        if name == "template":
            continue
        children = []
        child = node.child
        while child is not None:
            children.append(child)
            child = child.next
        stack.extend((depth + 1, c) for c in reversed(children))
    return _merge_texts(items)


def lexbor_root(decoded: str) -> Any:
    """Parse with Lexbor (selectolax); return the ``html`` element node."""
    from selectolax.lexbor import LexborHTMLParser

    return LexborHTMLParser(decoded.encode("utf-8", "surrogatepass")).root


def _describe(item: TreeItem | None) -> str:
    if item is None:
        return "<end of document>"
    if item[1] == "text":
        return f"depth {item[0]} text {item[2][:80]!r}"
    attrs = " ".join(f'{k}="{v[:40]}"' for k, v in item[3])
    return f"depth {item[0]} <{item[2]}{' ' + attrs if attrs else ''}>"


def compare_trees(reference: list[TreeItem], other: list[TreeItem]) -> tuple[bool, str]:
    """Compare two canonical sequences; ``(True, "")`` or ``(False, first difference)``."""
    for i in range(max(len(reference), len(other))):
        a = reference[i] if i < len(reference) else None
        b = other[i] if i < len(other) else None
        if a != b:
            return False, f"item {i}: html5lib {_describe(a)} / lexbor {_describe(b)}"
    return True, ""


def tree_agreement(decoded: str, html5lib_root: Element | None = None) -> tuple[bool, str]:
    """Does Lexbor build the same tree as html5lib for ``decoded``?

    Compares (depth, lower-cased element name, sorted attributes) and normalized text
    nodes, comments excluded. ``html5lib_root`` may be passed to reuse a parse.
    """
    reference = canonical_etree(
        html5lib_root if html5lib_root is not None else parse_html5lib(decoded)
    )
    return compare_trees(reference, canonical_lexbor(lexbor_root(decoded)))


@dataclass(frozen=True, slots=True)
class ReferenceReading:
    """What the reference parser makes of a decoded page (parse once, measure twice)."""

    visible_text: str
    tree: list[TreeItem]


def read_reference(decoded: str) -> ReferenceReading:
    """Parse ``decoded`` once with html5lib; return its visible text and canonical tree."""
    root = parse_html5lib(decoded)
    return ReferenceReading(visible_text_of_tree(root), canonical_etree(root))


# ------------------------------------------------------------------ minimizing

_TOKENS = re.compile(r"<[^>]*>?|[^<]+")


def _ddmin(chunks: list[str], still_fails: Callable[[str], bool], budget: list[int]) -> list[str]:
    """Delta debugging: a smaller list of chunks whose concatenation still fails."""
    n = 2
    while len(chunks) >= 2 and budget[0] > 0:
        size = max(1, len(chunks) // n)
        reduced = False
        for start in range(0, len(chunks), size):
            candidate = chunks[:start] + chunks[start + size :]
            budget[0] -= 1
            if candidate and still_fails("".join(candidate)):
                chunks, n, reduced = candidate, max(n - 1, 2), True
                break
            if budget[0] <= 0:
                break
        if not reduced:
            if size == 1:
                break
            n = min(len(chunks), n * 2)
    return chunks


def _shortest_prefix(chunks: list[str], still_fails: Callable[[str], bool], budget: list[int]) -> list[str]:
    """Binary search for a short failing prefix (heuristic: failure is not monotonic)."""
    lo, hi = 1, len(chunks)
    while lo < hi and budget[0] > 0:
        mid = (lo + hi) // 2
        budget[0] -= 1
        if still_fails("".join(chunks[:mid])):
            hi = mid
        else:
            lo = mid + 1
    return chunks[:hi]


def _shortest_suffix(chunks: list[str], still_fails: Callable[[str], bool], budget: list[int]) -> list[str]:
    """Binary search for a short failing suffix (same heuristic as the prefix search)."""
    lo, hi = 0, len(chunks) - 1  # drop chunks[:k] for the largest failing k
    while lo < hi and budget[0] > 0:
        mid = (lo + hi + 1) // 2
        budget[0] -= 1
        if still_fails("".join(chunks[mid:])):
            lo = mid
        else:
            hi = mid - 1
    return chunks[lo:]


def minimize(text: str, still_fails: Callable[[str], bool], max_tests: int = 3000) -> str:
    """Cut ``text`` down to a small input for which ``still_fails`` is still true.

    Cuts the tail and then the head of the document by binary search over lines
    (cheap on large pages), removes lines, then tags and text runs (``ddmin``), within
    ``max_tests`` calls of the predicate. ``still_fails(text)`` must be true to begin with.
    """
    budget = [max_tests]
    lines = text.splitlines(keepends=True)
    lines = _shortest_prefix(lines, still_fails, budget)
    lines = _shortest_suffix(lines, still_fails, budget)
    lines = _ddmin(lines, still_fails, budget)
    tokens = _ddmin(_TOKENS.findall("".join(lines)), still_fails, budget)
    return "".join(tokens)
