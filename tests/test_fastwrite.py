"""The C writer (``kitten/normalizer/_fastwrite.c``) writes what the Python writer writes.

``tests/test_normalize.py`` compares the two on every snippet it writes; here: pages
made to exercise what the C writer does itself (attribute kinds, ids made unique
across the two writers, IDREFs, renamed elements, the depth limit, lists, comments,
characters XML does not allow), and real pages of the shared corpora.
``benchmarks/writer_check.py`` compares them on every corpus page.
"""
from __future__ import annotations

import os

import pytest

from kitten.config import Config
from kitten.log import PageLog
from kitten.normalizer import xhtml
from kitten.normalizer.encoding import decode
from kitten.normalizer.fastwrite import PROBE_PAGE, fast_writer

from _corpora import AVAILABLE, CORPORA, fixture_pages  # noqa: E402  (the shared corpora: tests/_corpora.py)


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
    # semantic attributes, hidden, elements left out (counted), metas in head
    assert any(r is not None and 'class="kitten.role-main kitten.role-x c kitten.itemprop-articlebody '
               'kitten.itemtype-newsarticle kitten.aria-hidden"' in r[0] and r[4] == {"source": 1}
               for r in written)
    assert any(r is not None and '<p style="display:none;color:red">' in r[0] for r in written)
    metas = [subtree(n.mem_id, writer.index["head"], 190, set(), [])
             for n in tree.head.traverse(include_text=False) if n.tag == "meta"]
    assert [m and m[0] for m in metas] == [None, None, '<meta content="a &amp; b" name="og:title" />',
                                           '<meta name="d" content="e" />']


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
    # semantic attributes as class tokens: in attribute order with the classes, each token
    # once, bad ones left out (dropped when none is left), dropped where there is no class
    '<div role="Main navigation main x_y" class="c" itemprop="articleBody">a</div>'
    '<p itemtype="https://schema.org/NewsArticle http://schema.org/Thing/ / a/b//" '
    'aria-hidden=" TRUE ">b</p><span aria-hidden="false" role="" class="">c</span>'
    '<article role="article" class="x">d</article><img src="i" role="presentation" alt="">'
    '<span role="a b c d e" itemprop="été">e</span><b role="1a -b a-1">f</b>'
    '<span role="' + "r" * 300 + '">g</span><ul role=list><li role=listitem>h</ul>',
    # hidden: a style first (before the element's own), where there is one
    '<p hidden>a</p><p hidden style="color:red">b</p><p style="color:red" hidden>c</p>'
    '<p style="" hidden>d</p><p hidden style="">e</p><span hidden class="k">f</span><br hidden>',
    # meta: a charset declaration rewritten, Open Graph's property as name, the rest as they are
    '<html><head><meta charset="latin1"><meta property="og:title" content="T &amp; &quot;x&quot;">'
    '<meta name="n" property="p" content="c"><meta http-equiv="refresh" content="5">'
    '<meta itemprop="x" content="y"><meta property><link rel="stylesheet" href="s.css">'
    '<script src="a.js"></script><style>p{}</style><title>t</title></head><body><p>x</p></body></html>',
    # elements never written, with their content: counted by name
    '<div><picture><source srcset="a"><img src="b"></picture><video><source src="v"><track src="t">'
    '</video><template><p>t</p></template><object><param name="p"></object><p>a<wbr>b</p></div>',
    # placed by the Python writer (a block in inline content), then written in C
    '<div><span>a<div class="d"><p>p</p></div>b</span><a href="x"><div>d<p>q</p></div></a>'
    '<b><section role="main"><p>s</p></section></b></div>',
    # blocks in a link, renamed where they stand (in C), misplaced and empty elements left
    # out, and what the Python writer must do: splits, text where none may stand, lists
    '<div><a href="x"><div class="d" role="main"><h3>t</h3><p>p<b>b</b></p><div></div><br>'
    '<meta name="m"><section><p>s</p></section><span><div>sd</div></span></div></a>'
    '<a href="y"><div><ul><li>l</li></ul><table><tr><td>c</td></tr></table></div></a>'
    '<a><span><div><p>q</p></div></span></a><p><span><div>split</div></span>tail</p>'
    '<a><div><font><blockquote>b</blockquote></font></div></a><a><div>x<form>f</form></div></a></div>',
    # ids and IDREFs of a subtree the C writer gives up on: as if it had never tried
    '<a href="1"><div id="a"><label for="b">l</label><p id="b">p</p><span><div>s</div></span></div></a>'
    '<p id="a">again</p><label for="a">l</label><a><div id="c"><p id="c">c</p></div></a>'
    '<a><div id="d"><label for="d">l</label><ul><li id="d">x</li></ul></div></a><p id="d">d</p>',
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
    page = "<div>" * 10 + ("<a><div><span>" * 3 + "<p>in</p>" + "</span></div></a>" * 3) * 2 + "</div>" * 10
    out, _ = both_writers(page, max_depth=max_depth)
    assert "in" in out


def test_c_writer_places_blocks_in_links() -> None:
    """A link holding blocks is written in C, the blocks renamed where they stand."""
    from selectolax.lexbor import LexborHTMLParser

    writer = fast_writer()
    tree = LexborHTMLParser('<div><a href="x"><div class="d"><h3>t</h3><meta name="m"><p></p></div></a></div>')
    writer.start(tree.root)
    a = tree.css_first("a")
    done = writer.placer()(a.mem_id, writer.index["a"], False, [writer.index["div"]], 190, set(), [])
    assert done == ('<a href="x"><span class="kitten-div d"><span class="kitten-h3">t</span></span></a>',
                    0, 0, {"meta": 1, "p": 1}, {"div>span": 1, "h3>span": 1})
    # a split needs the Python writer: nothing written, the ids and IDREFs as they were
    tree = LexborHTMLParser('<div id="i"><label for="j">l</label><span><div>x</div></span></div>')
    writer.start(tree.root)
    ids, idrefs = {"k"}, [("for", "k")]
    div = tree.css_first("div")
    assert writer.placer()(div.mem_id, writer.index["div"], False, [writer.index["body"]], 190, ids, idrefs) is None
    assert ids == {"k"} and idrefs == [("for", "k")]


def test_xml_clean_agrees_with_the_python_writer() -> None:
    writer = fast_writer()
    for s in ["", "plain", "a\x00b\x0bc\x0cd\x1fe", "\u00e9\x01", "\u4e2d\ufffe\uffff\ud800x",
              "\U0001f600\x08\t\n\r", "x" * 10_000 + "\x02", "\u00e9\ufffex\x01", "ab\ud800\x0b",
              "\x7f\uffff" * 100]:
        assert writer.xml_clean(s) == xhtml.xml_clean(s)
        assert writer.xml_clean(s).isascii() == xhtml.xml_clean(s).isascii()  # (as narrow as it can be)
    clean = "no illegal characters \u00e9"
    assert writer.xml_clean(clean) is clean


def test_finish_agrees_with_the_python_writer() -> None:
    """IDREF markers replaced and illegal characters removed in one pass, in C, as
    _IDREF_MARK.sub then xml_clean do; None for markers it leaves to Python."""
    writer = fast_writer()
    written = [' for="a"', "", ' headers="h \u0101 \u0200"']
    for s in ["", "plain", "<a\x001\x00>", "x\x000\x00\x002\x00\x0b\x01", "\x00\x002\x00", "\x00x\x00",
              "\U0001f600<td\x002\x00>\x00", "\u00e9\x000\x00\x00", "a\x00", "\x002\x00" * 5 + "x",
              "\ufffe\x000\x00", "\ud800\x002\x00"]:
        assert writer.finish(s, written) == xhtml.xml_clean(
            xhtml._IDREF_MARK.sub(lambda m: written[int(m.group(1))], s))
    for s in ["\x00\u0663\x00", "\x003\x00", "\x00" + "1" * 12 + "\x00"]:
        assert writer.finish(s, written) is None


def test_same_output_on_corpus_pages(both_writers) -> None:
    """Both writers on 60 pages of the shared corpora (without them: the repository's pages)."""
    paths = [] if AVAILABLE else fixture_pages()
    for pattern in ("cleaneval-final/html/*", "dragnet/html/*", "readability/html/*",
                    "cleanportaleval/html/*", "wikipedia-tables/pages/*/*.html", "modern/html/*"):
        paths += sorted(CORPORA.glob(pattern))[::23][:10]
    assert len(paths) >= 48
    for path in paths:
        both_writers(decode(path.read_bytes(), Config().decode, PageLog()).text)
