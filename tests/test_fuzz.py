"""Property tests of ``kitten.normalize`` on generated HTML-ish input.

The generator builds a small tree (tags from a list including table/tr/td/ul/li/p/div/
a/font/script/style/select/option/frameset/template, random attributes with names
illegal in XML, entities, control characters, random bytes) and writes it as HTML
with some end tags left out. It knows which words are *visible*: words of text runs
outside script/style/comments/template. The generator avoids the constructs that
make the HTML5 parser itself hide text (raw ``<``, ``<!--`` or ``</script`` inside
script, unclosed comments or titles, a ``<frameset>`` before any text), so a visible
word missing from the output is the normalizer's loss.

Properties: never raises; status ``done`` or ``fallback``; the XHTML parses strictly;
every visible word is in the XHTML's text (as a multiset); words of script, style,
comments and templates are not in ``kitten.extract`` output; and, separately, the
XHTML is valid against the DTD (when installed).

Deterministic (``derandomize=True``, no example database) and bounded.
"""
from __future__ import annotations

import re
from collections import Counter

from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st
from lxml import etree

import kitten

from _budget import cases  # noqa: E402

# No shrinking: shrinking a failure of these documents takes minutes; the failing page
# itself is printed (``note``) instead, and one failure stops the test. 100 documents a
# test by default (KITTEN_TEST_SCALE=3: the 300 of a longer run).
SETTINGS = settings(max_examples=cases(100), deadline=None, derandomize=True, database=None,
                    phases=(Phase.explicit, Phase.reuse, Phase.generate), report_multiple_bugs=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
WORD = re.compile(r"\w+")

VISIBLE = ("apple", "Birne", "cherry", "delta", "echo", "foxtrot", "golf", "hotel", "India",
           "juliet", "kilo", "lima", "nov3mber", "x1", "42", "café", "naïve", "Zürich", "Ωmega",
           "日本語", "Москва", "ﬁne", "straße")
INVISIBLE = ("zqscript", "zqstyle", "zqcomment", "zqtemplate")
ENTITIES = ("&amp;", "&lt;", "&gt;", "&nbsp;", "&eacute;", "&#233;", "&#x41;", "&#150;", "&#128;",
            "&#153;", "&apos;", "&copy", "&bogus;", "&#0;", "&#xD800;", "&#x110000;", "&", "&#",
            "&#x;", "&quot;")
CONTROLS = ("\x00", "\x01", "\x07", "\x08", "\x0b", "\x0c", "\x1b", "\x1f", "\x7f", "\x85",
            "\u200b", "\ufeff", "\ufffe", "\uffff")
# Lone surrogates are left out here; test_bad_input.py covers them
# (test_lone_surrogate_in_str_input_does_not_raise).
PUNCT = (" < ", " > ", ",", ".", "!", "?", "“", "”", "-", "/")

CONTAINERS = ("table", "tr", "td", "th", "tbody", "thead", "tfoot", "caption", "ul", "ol", "li",
              "dl", "dt", "dd", "p", "div", "span", "a", "font", "b", "i", "select", "option",
              "optgroup", "frameset", "h1", "center", "form", "label", "pre", "blockquote",
              "section", "my-widget", "fb:like", "button", "sup", "em")
VOIDS = ("br", "img", "hr", "input", "wbr", "col", "frame")
ATTR_NAMES = ("id", "class", "href", "style", "title", "hidden", "lang", "xml:lang", "align",
              "border", "rowspan", "colspan", "width", "onclick", "data-x", "a:b", "x@y", '"a',
              "'q", "1num", "-dash", "é", "fb:like", "ng-if", "xmlns", "xmlns:fb", "selected",
              "checked", "value", "name", "for", "headers", "type", "src", "alt", "dir")
ATTR_VALUES = ("", "x", "a b", "#top", "top", "1", "0", "65534", "-1", "javascript:alert(1)",
               "&amp;", "&", "<b>", ">", "'", '"', "\x00", "\x01ctl", "é", "none", "display:none",
               "hidden", "true", "left", "CENTER", "10%", "ltr", "x y z", "日本")

SCRIPT_BITS = ("var", "=", ";", "(", ")", "{", "}", "'", '"', "<b>", "&amp;", "if (a < b)",
               "x > 1", '"</scr" + "ipt>"', "<\\/script>", "//", "document.write('<p>')")
STYLE_BITS = ("p { color: red }", "/* c */", "<b>", "&amp;", "a > b", "@media x {}")
COMMENT_BITS = ("<p>", "&amp;", "- x", "a > b", "<script>", "</div>")
TEMPLATE_BITS = ("<b>", "</b>", "<i>", "</i>", "<p>", "<br>", "&amp;")

JUNK = (b"\xff", b"\x80\x81", b"\xc3", b"\xe9\xe8", b"\xa4\xb7\x9f", b"\xd0\xb8", b"\x9d", b"\xfe\xff")
# One draw per token (generation, not Kitten, dominates the run time): words twice as likely.
TOKENS = tuple(("w", w) for w in VISIBLE * 2) + tuple(("e", e) for e in ENTITIES) + tuple(
    ("c", c) for c in CONTROLS) + tuple(("p", p) for p in PUNCT) + tuple(("j", b) for b in JUNK)
token = st.sampled_from(TOKENS)
text_node = st.lists(token, min_size=1, max_size=6).map(lambda ts: ("text", ts))


def _hidden_content(bits):
    return st.lists(st.one_of(st.sampled_from(INVISIBLE), st.sampled_from(bits)), min_size=1, max_size=5)


invisible_node = st.one_of(
    st.tuples(st.just("script"), _hidden_content(SCRIPT_BITS)),
    st.tuples(st.just("style"), _hidden_content(STYLE_BITS)),
    st.tuples(st.just("comment"), _hidden_content(COMMENT_BITS)),
    st.tuples(st.just("template"), _hidden_content(TEMPLATE_BITS)),
).map(lambda t: ("hidden", t[0], t[1]))
title_node = st.lists(st.sampled_from(VISIBLE), min_size=1, max_size=3).map(lambda ws: ("title", ws))
ATTRS = tuple((n, v) for n in ATTR_NAMES for v in (None,) + ATTR_VALUES)
attrs = st.lists(st.sampled_from(ATTRS), max_size=3)
void_node = st.tuples(st.sampled_from(VOIDS), attrs).map(lambda t: ("void", t[0], t[1]))


CLOSE = st.sampled_from((True, True, True, False))  # a quarter of the end tags are left out


def _element(children):
    return st.tuples(st.sampled_from(CONTAINERS), attrs, st.lists(children, max_size=4), CLOSE).map(
        lambda t: ("el",) + t)


def _wrap(tags: tuple[str, ...], kids):
    return st.tuples(st.sampled_from(tags), attrs, kids, CLOSE).map(lambda t: ("el",) + t)


def _structured(children):
    """Well-formed-ish tables, lists, selects and definition lists around random content,
    so that text really lands in cells, items and options."""
    cell = _wrap(("td", "th", "td"), st.lists(children, max_size=3))
    row = _wrap(("tr",), st.lists(st.one_of(cell, cell, children), min_size=1, max_size=3))
    section = _wrap(("tbody", "thead", "tfoot"), st.lists(row, min_size=1, max_size=2))
    caption = _wrap(("caption",), st.lists(children, max_size=2))
    table = _wrap(("table",), st.lists(st.one_of(row, section, caption, children), min_size=1, max_size=4))
    item = _wrap(("li",), st.lists(children, max_size=3))
    lst = _wrap(("ul", "ol"), st.lists(st.one_of(item, item, children), min_size=1, max_size=4))
    option = _wrap(("option",), st.lists(text_node, max_size=2))
    optgroup = _wrap(("optgroup",), st.lists(option, max_size=2))
    select = _wrap(("select",), st.lists(st.one_of(option, option, optgroup, text_node), min_size=1, max_size=4))
    term = _wrap(("dt", "dd"), st.lists(children, max_size=2))
    dl = _wrap(("dl",), st.lists(st.one_of(term, term, children), min_size=1, max_size=4))
    return st.one_of(_element(children), _element(children), table, lst, select, dl)


tree = st.recursive(st.one_of(text_node, text_node, invisible_node, title_node, void_node),
                    _structured, max_leaves=25)
PREFIXES = ("", "<!DOCTYPE html>", '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" '
            '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">',
            "<html><head><title>doc title</title></head><body>")
document = st.tuples(st.sampled_from(PREFIXES), st.lists(tree, min_size=1, max_size=6))


class Doc:
    """A generated page: pieces (str, or bytes for random junk) and what is visible."""

    def __init__(self) -> None:
        self.pieces: list[str | bytes] = []
        self.visible: list[str] = []

    def add(self, s: str) -> None:
        self.pieces.append(s)

    def text(self) -> str:
        return "".join(p for p in self.pieces if isinstance(p, str))

    def encode(self, encoding: str) -> bytes:
        if encoding == "utf-16":
            return b"\xff\xfe" + self.text().encode("utf-16-le")
        codec = "utf-8" if encoding == "utf-8-sig" else encoding
        out = [b"\xef\xbb\xbf"] if encoding == "utf-8-sig" else []
        for p in self.pieces:
            out.append(p.encode(codec, "xmlcharrefreplace") if isinstance(p, str) else b"  " + p + b"  ")
        return b"".join(out)


def _attr_string(pairs) -> str:
    out = []
    for name, value in pairs:
        out.append(f" {name}" if value is None else f' {name}="{value.replace(chr(34), "&quot;")}"')
    return "".join(out)


def _write(node, doc: Doc) -> None:
    kind = node[0]
    if kind == "text":
        doc.add(" ")
        for k, v in node[1]:
            if k == "j":
                doc.pieces.append(v)
                continue
            doc.add(v + " ")
            if k == "w":
                doc.visible.append(v)
    elif kind == "hidden":
        what, content = node[1], " ".join(node[2])
        if what == "comment":
            doc.add(f"<!-- {content} -->")
        else:
            doc.add(f"<{what}> {content} </{what}>")
    elif kind == "title":
        doc.add(f"<title> {' '.join(node[1])} </title>")
        doc.visible.extend(node[1])
    elif kind == "void":
        doc.add(f"<{node[1]}{_attr_string(node[2])}>")
    else:
        _, tag, pairs, children, close = node
        doc.add(f"<{tag}{_attr_string(pairs)}>")
        for child in children:
            _write(child, doc)
        if close:
            doc.add(f"</{tag}>")


def build(generated) -> Doc:
    prefix, nodes = generated
    doc = Doc()
    # Text first: the parser then ignores any <frameset> (frameset-ok is off).
    doc.add(prefix + " kittenstart ")
    doc.visible.append("kittenstart")
    for node in nodes:
        _write(node, doc)
    doc.add(" kittenend ")
    doc.visible.append("kittenend")
    return doc


def _check(data, doc: Doc, xhtml_text, ascii_only: bool = False) -> None:
    note(f"input: {data!r}")
    r = kitten.normalize(data)
    assert r.status in ("done", "fallback"), (r.status, r.log)
    if r.status == "fallback":
        assert r.text and r.text.strip(), r.log
        return
    root = etree.fromstring(r.xhtml.encode("utf-8"), etree.XMLParser(recover=False))
    got = Counter(WORD.findall(xhtml_text(root)))
    expected = Counter(w for w in doc.visible if w.isascii() or not ascii_only)
    missing = expected - got
    assert not missing, (f"visible words lost: {dict(missing)}", r.log)
    out = kitten.extract(data)
    leaked = [w for w in INVISIBLE if w in out]
    assert not leaked, f"script/style/comment/template text in extract output: {leaked}"


@SETTINGS
@given(document)
def test_fuzz_str_input(xhtml_text, generated) -> None:
    doc = build(generated)
    _check(doc.text(), doc, xhtml_text)


@SETTINGS
@given(document, st.sampled_from(("utf-8", "utf-8-sig", "utf-16", "windows-1252", "utf-8+junk")))
def test_fuzz_bytes_input(xhtml_text, generated, encoding: str) -> None:
    doc = build(generated)
    if encoding == "utf-8+junk":
        data = doc.encode("utf-8")
    else:
        data = Doc.encode(_without_junk(doc), encoding)
    # Legacy bytes or random high bytes: the encoding is a guess, so only ASCII words are sure.
    _check(data, doc, xhtml_text, ascii_only=encoding in ("windows-1252", "utf-8+junk"))


def _without_junk(doc: Doc) -> Doc:
    clean = Doc()
    clean.pieces = [p for p in doc.pieces if isinstance(p, str)]
    clean.visible = doc.visible
    return clean


@settings(SETTINGS, max_examples=cases(50))  # DTD validation on top of the checks above: half the budget
@given(document)
def test_fuzz_output_is_dtd_valid(check_xhtml, generated) -> None:
    doc = build(generated)
    note(f"input: {doc.text()!r}")
    r = kitten.normalize(doc.text())
    assert r.status in ("done", "fallback"), (r.status, r.log)
    if r.status == "done":
        check_xhtml(r.xhtml)


@SETTINGS
@given(st.one_of(st.binary(max_size=3000), st.text(max_size=2000).map(lambda s: s.encode("utf-8"))))
def test_fuzz_arbitrary_bytes_never_raise(check_xhtml, data: bytes) -> None:
    note(f"input: {data!r}")
    r = kitten.normalize(data)
    assert r.status in ("done", "fallback", "excluded"), (r.status, r.log)
    if r.status == "excluded":
        assert [e for e in r.log if e.kind == "excluded"], r.log
    elif r.status == "done":
        check_xhtml(r.xhtml)
    else:
        assert r.text is not None
    assert isinstance(kitten.extract(data), str)


@SETTINGS
@given(st.one_of(document.map(lambda g: build(g).text()), st.text(max_size=2000)))
def test_fuzz_c_and_python_writers_agree(both_writers, text: str) -> None:
    """The C writer's subtrees are written as the Python writer writes them (when it is built)."""
    note(f"input: {text!r}")
    both_writers(text)
