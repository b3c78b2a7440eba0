"""Unit tests of the repair rules of ``kitten/normalizer/xhtml.py`` on small snippets.

Each test writes a snippet with ``kitten.normalizer.to_xhtml`` and checks the rule, that
the output starts with the XML declaration and the DOCTYPE, parses strictly and is
valid XHTML 1.0 Transitional (DTD part skipped when the DTD is absent), that no
text is lost against html5lib's reading of the same snippet, and that the output is the
same with and without the C writer (done by the ``write`` fixture for every snippet).
"""
from __future__ import annotations

import re

import pytest

from kitten.config import NormalizeConfig
from kitten.log import PageLog
from kitten.normalizer import to_xhtml
from kitten.quality import visible_text_html5lib, visible_text_xhtml

X = "{http://www.w3.org/1999/xhtml}"
@pytest.fixture
def write(check_xhtml, both_writers):
    """``write(html) -> (root, xhtml, log)`` with the common checks done, including
    that no text is lost (white space aside) against html5lib's reading of ``html``."""

    def run(html: str, max_depth: int = 200):
        xhtml, log = both_writers(html, max_depth)
        root = check_xhtml(xhtml)
        want, got = _squash(visible_text_html5lib(html)), _squash(visible_text_xhtml(xhtml))
        assert want == got, f"text changed:\n html5lib: {want!r}\n output:   {got!r}"
        return root, xhtml, log

    return run


def body(root):
    return root.find(X + "body")


def local(el) -> str:
    return el.tag.replace(X, "")


def ancestors(el):
    p = el.getparent()
    while p is not None:
        yield local(p)
        p = p.getparent()


# ------------------------------------------------------------------ document frame


def test_output_starts_with_declaration_and_doctype(write) -> None:
    _, xhtml, _ = write("<p>hi</p>")
    assert xhtml.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html PUBLIC '
                            '"-//W3C//DTD XHTML 1.0 Transitional//EN" '
                            '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">\n'
                            '<html xmlns="http://www.w3.org/1999/xhtml"')


def test_title_added_when_missing(write) -> None:
    root, _, _ = write("<p>no title here</p>")
    titles = root.find(X + "head").findall(X + "title")
    assert len(titles) == 1


def test_title_kept(write) -> None:
    root, _, _ = write("<html><head><title>The title</title></head><body>x</body></html>")
    assert root.find(X + "head").find(X + "title").text == "The title"


def test_title_in_body_kept_as_span(write) -> None:
    root, _, _ = write("<html><head><title>Head title</title></head><body><p>text "
                               "<title>Body title</title> more</p></body></html>")
    spans = [s for s in body(root).iter(X + "span") if "kitten-title" in (s.get("class") or "")]
    assert len(spans) == 1 and spans[0].text == "Body title"
    assert root.find(X + "head").find(X + "title").text == "Head title"


def test_second_title_in_head_keeps_its_text(write) -> None:
    root, xhtml, _ = write("<head><title>first</title><title>second</title></head><body>x</body>")
    assert len(root.find(X + "head").findall(X + "title")) == 1
    assert "second" in "".join(root.itertext())


# ------------------------------------------------------------------ split


def test_font_table_is_split(write) -> None:
    root, _, log = write('<font id="f1" color="red">before<table><tr><td>cell</td></tr></table>'
                                 "after</font>")
    table = root.find(f".//{X}table")
    assert "font" not in list(ancestors(table))
    fonts = list(body(root).iter(X + "font"))
    assert [f.text for f in fonts] == ["before", "after"]
    assert all(f.get("color") == "red" for f in fonts)
    assert [f.get("id") for f in fonts] == ["f1", None]  # the re-opened copy has no id
    assert any(e.kind == "split-inline" for e in log.events)


def test_span_div_is_split(write) -> None:
    root, _, _ = write("<p><span class='c'>one<div>block</div>two</span></p>")
    div = root.find(f".//{X}div")
    assert div is not None and div.text == "block"
    assert "span" not in list(ancestors(div)) and "p" not in list(ancestors(div))


def test_p_table_in_quirks_mode_is_split(write) -> None:
    root, _, _ = write("<p>para<table><tr><td>in quirks</td></tr></table>after</p>")
    table = root.find(f".//{X}table")
    assert "p" not in list(ancestors(table))


# ------------------------------------------------------------------ rename


def test_div_inside_a_is_renamed_span(write) -> None:
    root, _, log = write('<a href="/x"><div>block in link</div></a>')
    a = root.find(f".//{X}a")
    assert a.get("href") == "/x"
    assert a.find(f".//{X}div") is None
    span = a.find(X + "span")
    assert span is not None and span.get("class") == "kitten-div" and span.text == "block in link"
    assert any(e.kind == "renamed-elements" for e in log.events)


def test_li_outside_list_is_renamed(write) -> None:
    root, _, _ = write("<li>orphan</li>")
    assert [el.get("class") for el in body(root)] == ["kitten-li"]


@pytest.mark.parametrize("name", ["section", "article", "nav", "header", "footer", "aside", "main"])
def test_html5_block_becomes_div_with_class(write, name: str) -> None:
    root, _, _ = write(f"<{name}><p>inside {name}</p></{name}>")
    div = body(root).find(X + "div")
    assert div is not None and div.get("class") == f"kitten-{name}"
    assert div.find(X + "p").text == f"inside {name}"


def test_unknown_elements_become_span_with_class(write) -> None:
    root, _, _ = write("<p><my-widget>w</my-widget> <fb:like>l</fb:like></p>")
    assert [s.get("class") for s in root.iter(X + "span")] == ["kitten-my-widget", "kitten-fb-like"]


# ------------------------------------------------------------------ wrap / remove


def test_stray_text_in_ul_is_wrapped_in_li(write) -> None:
    root, _, _ = write("<ul>stray<li>a</li>tail<b>bold</b></ul>")
    ul = root.find(f".//{X}ul")
    assert [local(c) for c in ul] == ["li", "li", "li"]
    assert [("".join(li.itertext())) for li in ul] == ["stray", "a", "tailbold"]
    assert not (ul.text or "").strip()


def test_stray_text_in_select_is_wrapped_in_option(write) -> None:
    root, _, _ = write("<select>sel<option>o</option></select>")
    assert [o.text for o in root.iter(X + "option")] == ["sel", "o"]


@pytest.mark.parametrize("src", ["<ul></ul>", "<ul> \n </ul>", "<ol></ol>", "<dl></dl>", "<select></select>"])
def test_empty_list_is_removed(write, src: str) -> None:
    root, _, log = write(src + "<p>kept</p>")
    tag = re.match(r"<(\w+)", src).group(1)
    assert root.find(f".//{X}{tag}") is None
    assert any(e.kind == "dropped-elements" and tag in e.message for e in log.events), log.events


def test_unicode_space_in_element_only_content(check_xhtml) -> None:
    # Python's str.isspace() is not XML white space: NBSP & co. are text where no text may stand.
    children = {"ul": "<li>a</li>", "ol": "<li>a</li>", "dl": "<dt>a</dt>", "select": "<option>a</option>",
                "table": "<tr><td>a</td></tr>", "tr": "<td>a</td>"}
    invalid = []
    for parent, child in children.items():
        for space in ("\u00a0", "\u2003", "\u3000", "\u0085"):
            src = f"<table>{space}<tr>{space}{child}</tr></table>" if parent == "tr" else \
                f"<{parent}>{space}{child}{space}</{parent}>"
            try:
                check_xhtml(to_xhtml(src, NormalizeConfig(), PageLog()))
            except AssertionError as exc:
                invalid.append((src, str(exc)[:120]))
    assert not invalid, invalid


def test_misplaced_script_is_dropped_and_logged(write) -> None:
    root, _, log = write("<ul><script>var x;</script><li>a</li></ul>")
    assert any(e.kind == "dropped-elements" and "script" in e.message for e in log.events)


# ------------------------------------------------------------------ tables


def test_late_thead_becomes_tbody(write) -> None:
    root, _, _ = write("<table><tbody><tr><td>b</td></tr></tbody><thead><tr><th>h</th></tr></thead></table>")
    table = root.find(f".//{X}table")
    assert [local(c) for c in table] == ["tbody", "tbody"]
    assert table[1].get("class") == "kitten-thead"


def test_thead_after_tfoot_becomes_tbody(write) -> None:
    root, _, _ = write("<table><tfoot><tr><td>f</td></tr></tfoot><thead><tr><td>h</td></tr></thead>"
                               "<tbody><tr><td>b</td></tr></tbody></table>")
    table = root.find(f".//{X}table")
    assert [local(c) for c in table] == ["tfoot", "tbody", "tbody"]
    assert "".join(table.itertext()) == "fhb"


def test_table_sections_in_dtd_order(write) -> None:
    root, _, _ = write("<table><caption>c</caption><colgroup><col></colgroup><thead><tr><th>h</th></tr>"
                               "</thead><tfoot><tr><td>f</td></tr></tfoot><tbody><tr><td>b</td></tr></tbody></table>")
    assert [local(c) for c in root.find(f".//{X}table")] == ["caption", "colgroup", "thead", "tfoot", "tbody"]


def test_table_with_caption_only_gets_a_row(write) -> None:
    root, _, _ = write("<table><caption>only caption</caption></table>")
    assert "only caption" in "".join(root.itertext())


# ------------------------------------------------------------------ attributes


def test_img_gets_empty_alt(write) -> None:
    root, _, _ = write('<p><img src="a.png"><img src="b.png" alt="B"></p>')
    assert [i.get("alt") for i in root.iter(X + "img")] == ["", "B"]


def test_script_and_style_get_type(write) -> None:
    root, _, _ = write("<html><head><style>p{}</style><script>var a;</script></head>"
                               "<body><script>var b;</script></body></html>")
    assert [s.get("type") for s in root.iter(X + "script")] == ["text/javascript", "text/javascript"]
    assert root.find(f".//{X}style").get("type") == "text/css"


def test_ids_are_unique_and_valid(write) -> None:
    root, _, _ = write('<p id="x">1</p><p id="x">2</p><p id="1 2">3</p><p id="a:b">4</p>'
                               '<p id="">5</p><p id="-x">6</p><p id="x-2">7</p>')
    ids = [el.get("id") for el in root.iter() if el.get("id") is not None]
    assert len(ids) == len(set(ids)), ids
    assert all(re.fullmatch(r"[A-Za-z_\u00c0-\u024f][\w.\-\u00c0-\u024f]*", i) for i in ids), ids
    assert ids[0] == "x"


def test_idref_to_missing_id_is_dropped(write) -> None:
    root, _, _ = write('<label for="missing">l</label><input id="there"><label for="there">m</label>'
                               '<table><tr><td headers="h1 nope">c</td><th id="h1">h</th></tr></table>')
    labels = list(root.iter(X + "label"))
    assert labels[0].get("for") is None and labels[1].get("for") == "there"
    assert root.find(f".//{X}td").get("headers") == "h1"


def test_idref_follows_renamed_duplicate(write) -> None:
    root, _, _ = write('<input id="dup"><input id="dup"><label for="dup">l</label>')
    assert root.find(f".//{X}label").get("for") == "dup"


def test_hidden_becomes_display_none(write) -> None:
    root, _, _ = write("<p hidden>secret</p>")
    assert root.find(f".//{X}p").get("style") == "display:none"
    assert root.find(f".//{X}p").get("hidden") is None


def test_hidden_with_existing_style(write) -> None:
    # one style attribute holding both (a duplicate attribute is not well-formed XML)
    root, _, _ = write('<p style="color:red" hidden>a</p><p hidden style="color:blue">b</p>')
    styles = [p.get("style").replace(" ", "") for p in root.iter(X + "p")]
    assert all("display:none" in s for s in styles), styles
    assert "color:red" in styles[0] and "color:blue" in styles[1]


def test_semantic_attributes_become_classes(write) -> None:
    """ARIA roles, microdata and aria-hidden are not XHTML 1.0 attributes, but the
    boilerplate gate reads them: they are kept as ``kitten.`` class tokens (the same with
    the C writer, which leaves such elements to the Python writer), after the original
    name's class and the element's own classes."""
    root, _, _ = write('<main role="main"><article class="post" itemprop="articleBody" '
                       'itemscope itemtype="https://schema.org/NewsArticle"><p>Text</p></article>'
                       '<nav role="Navigation menubar" aria-hidden="true"><a href="/">Home</a></nav>'
                       '<div aria-hidden="false" role="!!">x</div></main>')
    divs = [d.get("class") for d in root.iter(X + "div")]
    assert divs == ["kitten-main kitten.role-main",
                    "kitten-article post kitten.itemprop-articlebody kitten.itemtype-newsarticle",
                    "kitten-nav kitten.role-navigation kitten.role-menubar kitten.aria-hidden", None]
    assert root.find(f".//{X}div").get("role") is None


def test_unknown_and_illegal_attributes_dropped(write) -> None:
    root, _, log = write('<p "a=1 a:b=2 x@y=3 data-x="4" onclick="f()" align="LEFT">t</p>')
    p = root.find(f".//{X}p")
    assert dict(p.attrib) == {"onclick": "f()", "align": "left"}
    assert any(e.kind == "dropped-attributes" for e in log.events)


# ------------------------------------------------------------------ depth


def test_depth_is_flattened(write) -> None:
    root, _, log = write("<div>" * 300 + "deep text" + "</div>" * 300, max_depth=50)
    depth = max(len(list(ancestors(el))) for el in root.iter())
    assert depth <= 50
    assert "deep text" in "".join(root.itertext())
    assert any(e.kind == "depth-flattened" for e in log.events)


# ------------------------------------------------------------------ no text lost
# The definitions of kitten/quality.py (the corpus-wide fidelity check) are used here too.


def _squash(s: str) -> str:
    return re.sub(r"\s+", "", s)


# ------------------------------------------------------------------ regressions found on the corpora
# Each snippet was cut from a corpus page by kitten.quality.minimize. The check is the
# corpus-wide fidelity definition (visible text, white space collapsed but not removed),
# so glued words ("ab" for "a b") fail as well as lost ones.



@pytest.mark.parametrize("snippet", [
    "<table><tr><td>a</td> <td>b</td></tr> </table>",
    "<ul><li>a</li> <li>b</li></ul>",
    "<select><option>a</option> <option>b</select>",
    "<dl><dt>a</dt> <dd>b</dl>",
    "<table>Web sites</font>\r\n <td>Resources:",
    "<ul><li>bloated</li>\n <a href=x>kicker</a>",
    "<title></title><title>Creative Food Sculptures</title>",
    "<ul>\n&nbsp;<a href=x>Advisers</a>",
    "<table><tr><td><font size=2><p>a<table><tr><td>x</td></tr></table>y<p>z</font>",
    "<span><p><table></table>y",
    "<text><h5><hr>y",
    "<table><tr><td>1</td></tr><tr>\n</tr><tr><td>2</td></tr></table>",
])
def test_corpus_regressions_keep_text_and_spaces(write, snippet: str) -> None:
    _, xhtml, _ = write(snippet)
    assert visible_text_xhtml(xhtml) == visible_text_html5lib(snippet)


def test_maps_with_same_attributes_get_distinct_generated_ids(write) -> None:
    root, _, _ = write('<map name="a"><area href="x"></map><map name="a"><area href="y"></map>')
    ids = [m.get("id") for m in root.iter(X + "map")]
    assert len(ids) == 2 and len(set(ids)) == 2, ids


def test_the_quick_test_for_long_start_tags_never_misses_one() -> None:
    """``_may_hold_long_tag`` (aligned blocks) says "maybe" whenever a run between two
    ``<`` is over 20,000 characters long, on texts with runs of every length around its
    bounds."""
    import random

    from kitten.normalizer.parse import _may_hold_long_tag

    rng = random.Random(3)
    for _ in range(2000):
        n = rng.choice([100, 19999, 20000, 20001, 30000, 45000, 70000])
        parts, total = [], 0
        while total < n:
            run = rng.choice([0, 1, 50, 5000, 9999, 10000, 15000, 19999, 20000, 20001, 25000])
            parts.append("x" * run + "<")
            total += run + 1
        text = "".join(parts)[:n]
        if len(text) >= 20000 and max(map(len, text.split("<"))) > 20000:
            assert _may_hold_long_tag(text)


def test_long_runs_are_the_patterns_matches() -> None:
    """``_long_runs`` (from the aligned blocks without ``<``) finds what ``<[^<]{20000,}``
    finds, on texts with runs of every length around its bounds."""
    import random
    import re

    from kitten.normalizer.parse import _long_runs

    pattern = re.compile(r"<[^<]{20000,}")
    rng = random.Random(4)
    for _ in range(1000):
        n = rng.choice([100, 19999, 20001, 30000, 45000, 70000])
        parts, total = [], 0
        while total < n:
            run = rng.choice([0, 1, 50, 5000, 9999, 10000, 15000, 19999, 20000, 20001, 25000, 40000])
            parts.append("x" * run + "<")
            total += run + 1
        text = "".join(parts)[rng.randint(0, 3):n]
        assert list(_long_runs(text)) == [(m.start(), m.end()) for m in pattern.finditer(text)]


def test_long_start_tags_are_the_patterns_matches() -> None:
    """``_long_start_tags`` finds what the pattern it stands for finds (start, end, name,
    attributes), without the pattern's backtracking: tags of every length around 20,000,
    names long and short, with and without ``>``, white space and ``/`` in names."""
    import random
    import re

    from kitten.normalizer.parse import _long_start_tags

    long_tag = re.compile(r"<([a-zA-Z][^\s/<>]*)([^<>]{20000,})>")

    from _budget import cases

    rng = random.Random(5)
    for _ in range(cases(12)):  # each case is a second of backtracking for the pattern: 200 ran for minutes
        parts = []
        for _ in range(rng.randint(1, 4)):
            name = rng.choice(["div", "a", "x" * rng.randint(1, 2000), "img/", "9p", "é", "DIV"])
            body = rng.choice(["y" * rng.choice([19990, 19999, 20000, 20001, 25000]),
                               " a=1" * rng.choice([4990, 5000, 5001]), "z\u00a0" * 10001])
            parts.append(f"<{name}{body}" + rng.choice([">", "/>", "", "<", " >"]) + "text " * rng.randint(0, 9))
        text = "".join(parts)
        found = [(m.start(), m.end(), m.group(1), m.group(2)) for m in long_tag.finditer(text)]
        assert list(_long_start_tags(text)) == found
