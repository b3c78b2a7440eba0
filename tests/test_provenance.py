"""Provenance (issue 21): each block's and sentence's path in the original page, and the
marks that carry it through the writers leave their output unchanged."""
from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

import kitten
from kitten.config import Config
from kitten.log import PageLog
from kitten.normalizer import to_marked_xhtml, to_xhtml
from kitten.normalizer.encoding import decode
from kitten.normalizer.origins import MARK, origins_of, strip_marks
from kitten.structure import BLOCKS, parse_xhtml
from test_fuzz import SETTINGS, build, document

from _corpora import AVAILABLE, CORPORA, fixture_pages  # noqa: E402  (the shared corpora: tests/_corpora.py)

TRICKY = [
    # renamed HTML5 elements, a block split out of inline elements (re-opened copies)
    "<section><p>Hello <b>big <div>block</div> world</b>.</p></section>",
    # empty and blank classes, a class with line breaks, role/itemprop tokens after the class
    '<div class=""><p class=" ">a</p><p class="x\ny\t" role="main">b</p><span role="note">c</span></div>',
    '<article class="" role="main" itemprop="articleBody"><p>text</p></article>',
    # wrappers the writer adds: stray text in a list and a row, a table without tbody
    "<ul>stray<li>one</li></ul><table><tr>x<td>cell</td></tr></table>",
    # elements without class in XHTML, misplaced ones, frames, unknown elements
    "<html><head><title>t</title><meta charset=latin1><style>p{}</style></head>"
    "<body><foo-bar class=a>custom</foo-bar><title>late</title><script>x</script></body></html>",
    "<frameset><frame src=a></frameset>",
    "<p>" + "<span>" * 300 + "deep" + "</span>" * 300,
]


def _same_as_unmarked(text: str, config: Config | None = None) -> tuple[dict, object]:
    config = config or Config()
    log_plain, log_marked = PageLog(), PageLog()
    plain = to_xhtml(text, config.normalize, log_plain)
    marked, paths = to_marked_xhtml(text, config.normalize, log_marked)
    assert strip_marks(marked) == plain
    assert [e.as_dict() for e in log_marked.events] == [e.as_dict() for e in log_plain.events]
    tree = parse_xhtml(plain)
    origins = origins_of(tree, marked, paths)
    assert origins is not None
    return origins, tree


@pytest.mark.parametrize("html", TRICKY)
@pytest.mark.parametrize("fast", [True, False])
def test_marks_leave_the_xhtml_the_log_and_the_tree_unchanged(html, fast):
    config = Config()
    _same_as_unmarked(html, dataclasses.replace(config, normalize=dataclasses.replace(config.normalize,
                                                                                       fast_writer=fast)))


def test_marks_leave_corpus_pages_unchanged():
    """A sample of the shared pages (all 3,040 checked when this was written: 0 differ;
    without the corpora: the repository's pages)."""
    files = sorted(CORPORA.glob("*/**/*.htm*")) if AVAILABLE else fixture_pages()
    random.Random(21).shuffle(files)
    config = Config()
    for path in files[:60]:
        text = decode(path.read_bytes(), config.decode, PageLog(), None).text
        if MARK not in text:
            _same_as_unmarked(text, config)


def test_sentences_and_blocks_carry_their_original_paths():
    page = kitten.extract("<section><p>Hello <b>big <div>block</div> world</b>.</p></section>"
                          "<ul>stray<li>one</li></ul><table><tr><td>a<td>b</table>", output="json")
    got = [(s["text"], s["locator"], s["original"], s.get("start"), s.get("end")) for s in page["sentences"]]
    assert got == [
        ("Hello big.", "/html/body/div/p[1]", "/html/body/section/p[1]", 0, 9),
        ("block.", "/html/body/div/div", "/html/body/section/div", 0, 5),
        ("world.", "/html/body/div", "/html/body/section", 0, 6),
        ("stray.", "/html/body/ul/li[1]", None, 0, 5),  # a wrapper the writer added: no original
        ("one.", "/html/body/ul/li[2]", "/html/body/ul/li", 0, 3),
        ("a / b.", "/html/body/table", "/html/body/table", 0, 5),  # tbody: as the parser reads it
    ]
    assert [b["original"] for b in page["blocks"]][:2] == ["/html/body/section/p[1]", "/html/body/section/div"]


def test_the_original_path_counts_same_name_siblings_of_the_parse_tree():
    origins, tree = _same_as_unmarked("<div><p>a</p><span>s</span><p>b</p></div><div><p>c</p></div>")
    ps = {"".join(el.itertext()): origins.get(el) for el in tree.iter("{*}p")}
    assert ps == {"a": "/html/body/div[1]/p[1]", "b": "/html/body/div[1]/p[2]", "c": "/html/body/div[2]/p"}


def test_a_page_holding_the_mark_name_is_read_without_provenance():
    page = kitten.extract('<p class="kitten.origin-3">text</p>', output="json")
    assert page["sentences"][0]["original"] is None and page["sentences"][0]["text"] == "text."


@SETTINGS
@given(document, st.booleans())
def test_marks_leave_generated_pages_unchanged(generated, every_element):
    """The fuzz pages of ``test_fuzz.py`` (broken nesting, tables, lists, attributes of
    every kind, ``class`` among them, controls and entities), every element marked or
    only those the structure step can make blocks of."""
    text = build(generated).text()
    note(f"input: {text!r}")
    config = Config()
    log_plain, log_marked = PageLog(), PageLog()
    try:
        plain = to_xhtml(text, config.normalize, log_plain)
    except ValueError:  # the normalizer refuses the page (a fallback in the pipeline)
        with pytest.raises(ValueError):
            to_marked_xhtml(text, config.normalize, PageLog())
        return
    marked, paths = to_marked_xhtml(text, config.normalize, log_marked, None if every_element else BLOCKS)
    assert strip_marks(marked) == plain
    assert [e.as_dict() for e in log_marked.events] == [e.as_dict() for e in log_plain.events]
    assert origins_of(parse_xhtml(plain), marked, paths) is not None
