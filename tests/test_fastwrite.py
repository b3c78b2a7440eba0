"""The C writer (``kitten/normalizer/_fastwrite.c``) writes what the Python writer writes.

``tests/test_normalize.py`` compares the two on every snippet it writes; here: pages
made to exercise what the C writer does itself (attribute kinds, ids made unique
across the two writers, IDREFs, renamed elements, the depth limit, lists, comments,
characters XML does not allow), and real pages of the shared corpora.
``benchmarks/writer_check.py`` compares them on every corpus page.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from kitten.config import Config
from kitten.log import PageLog
from kitten.normalizer import xhtml
from kitten.normalizer.encoding import decode
from kitten.normalizer.fastwrite import PROBE_PAGE, fast_writer

CORPORA = Path(__file__).resolve().parent.parent / ".cache" / "corpora"


@pytest.fixture(scope="module", autouse=True)
def built() -> None:
    if fast_writer() is None:
        if os.environ.get("CI"):
            pytest.fail("the C writer is not built or failed its check (see the warning)")
        pytest.skip("the C writer is not built here (no C compiler at install?)")


def test_c_writer_writes_most_of_a_page() -> None:
    """Not only equal: the C writer is really used (its subtrees are counted)."""
    from selectolax.lexbor import LexborHTMLParser

    writer = fast_writer()
    tree = LexborHTMLParser(PROBE_PAGE)
    subtree = writer.start(tree.root)
    written = [subtree(n.mem_id, writer.index["div"], 190, set(), [])
               for n in tree.body.traverse(include_text=False)]
    kinds = [writer.names[r[3]] for r in written if r is not None]
    assert "p" in kinds and "ul" in kinds and "div" in kinds  # <article> renamed to div
    assert any(r is not None and 'class="kitten-article"' in r[0] for r in written)


@pytest.mark.parametrize("html", [
    PROBE_PAGE,
    # ids: made valid and unique across the subtrees of both writers, in document order
    '<div id="a"><p id="a">x</p></div><table><tr><td id="a">y</td></tr></table><p id="a-2" title="t">z</p>'
    '<p id=" 1 b&c "><span id="">e</span></p><svg id="a"></svg><p id="a">w</p>',
    # IDREFs: kept when the id exists anywhere in the page, dropped otherwise
    '<p><label for="n">l</label><input id="n"></p><p><label for="missing">m</label></p>'
    '<table><tr><td headers="h k">c</td><th id="h">h</th></tr></table>',
    # enumerations, name tokens, hidden, empty class and style, unknown attributes
    '<p align=" Right " dir="x" lang="en US" style="" class="">a</p><div hidden class="c">h</div>'
    '<a name="x y" shape="RECT" target="_Blank" onclick="x" data-a="b">l</a><p align="l\u00e9ft">n</p>'
    '<p lang="fr\u00e9">f</p><br clear=ALL><hr noshade size=2><td valign=TOP>',
    # renamed elements: their class first, their own classes after (even an empty one)
    '<section class="s"><article class="">a</article><o:p>o</o:p><my-el class="a b">m</my-el>'
    '<time datetime="2020">t</time><listing>l</listing><xmp>x</xmp><nav><p>n</p></nav>'
    '<span><nav>block in inline</nav></span><ul>stray<nav>n</nav></ul><_-->u</_--></section>',
    # lists: empty ones removed, stray content wrapped; required attributes supplied
    '<ul></ul><ul> </ul><ol><li>a</li></ol><dl><dt>t</dt></dl><ul><p>p</p></ul>'
    '<img src="a"><img><map name="m"><area href="x"></map><select><option>o</select>',
    # comments, dropped elements, characters XML does not allow
    '<div><!-- c --><p>a<!-- d -->b<wbr>c</p><template>t</template><p>\x0bv\x0cf\x01x</p></div>'
    '<p>&#128;&#0;&#xFFFE;\ud800</p>',
])
def test_same_output_on_hand_made_pages(both_writers, html: str) -> None:
    both_writers(html)


@pytest.mark.parametrize("max_depth", [16, 20, 40])
def test_same_output_at_the_depth_limit(both_writers, max_depth: int) -> None:
    page = "<div>" * 30 + "<p>deep <b>bold</b></p>" + "</div>" * 30 + "<ul>" + "<li><ul>" * 25 + "<li>x"
    out, _ = both_writers(page, max_depth=max_depth)
    assert "deep" in out and "x" in out


def test_xml_clean_agrees_with_the_python_writer() -> None:
    writer = fast_writer()
    for s in ["", "plain", "a\x00b\x0bc\x0cd\x1fe", "\u00e9\x01", "\u4e2d\ufffe\uffff\ud800x",
              "\U0001f600\x08\t\n\r", "x" * 10_000 + "\x02"]:
        assert writer.xml_clean(s) == xhtml.xml_clean(s)
    clean = "no illegal characters \u00e9"
    assert writer.xml_clean(clean) is clean


@pytest.mark.skipif(not CORPORA.is_dir(), reason="shared corpora not unpacked")
def test_same_output_on_corpus_pages(both_writers) -> None:
    paths = []
    for pattern in ("cleaneval-final/html/*", "dragnet/html/*", "readability/html/*",
                    "cleanportaleval/html/*", "wikipedia-tables/pages/*/*.html"):
        paths += sorted(CORPORA.glob(pattern))[::23][:10]
    assert len(paths) >= 40
    for path in paths:
        both_writers(decode(path.read_bytes(), Config().decode, PageLog()).text)
