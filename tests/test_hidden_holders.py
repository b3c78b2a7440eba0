"""Content a page's scripts move into view (React streaming holders), declarative
shadow roots and app shells whose text is in ``<noscript>``: read as a browser shows
them (kitten/normalizer/holders.py, kitten/structure.py), each decision logged."""
from __future__ import annotations

from kitten.api import extract_result

#: React 18 streaming SSR: a boundary whose fallback is "Loading...", its content sent
#: later in a hidden segment that $RC moves; a nested segment placed by $RS
REACT = """<!DOCTYPE html><html><head><title>t</title></head><body>
<main><h1>Quarterly report</h1><p>The first paragraph is sent at once with the shell.</p>
<!--$?--><template id="B:0"></template><div>Loading comments...</div><!--/$-->
<p>The closing paragraph follows the boundary in the page.</p></main>
<div hidden id="S:0"><p>The streamed paragraph arrives later and the script moves it.</p>
<template id="P:1"></template></div>
<script>$RC=function(b,c){};$RC("B:0","S:0")</script>
<div hidden id="S:1"><p>A nested segment placed by the second call.</p></div>
<script>$RS("S:1","P:1")</script>
</body></html>"""


def _result(html: str):
    return extract_result(html)


def test_react_segment_is_read_at_its_placeholder() -> None:
    result = _result(REACT)
    text = result.output
    assert "The streamed paragraph arrives later" in text
    assert "A nested segment placed by the second call." in text
    # at the place of its boundary: after the first paragraph, before the closing one
    assert text.index("first paragraph") < text.index("streamed paragraph") < text.index(
        "nested segment") < text.index("closing paragraph")
    assert "Loading comments" not in text  # the fallback React removes
    moved = [e for e in result.log if e.kind == "react-holder-moved"]
    assert len(moved) == 1 and "S:0>B:0" in moved[0].message and "S:1>P:1" in moved[0].message


def test_react_segment_without_a_call_pairs_with_its_placeholder_number() -> None:
    html = REACT.replace('$RC("B:0","S:0")', "").replace('<script>$RS("S:1","P:1")</script>', "")
    text = _result(html).output
    assert text.index("first paragraph") < text.index("streamed paragraph") < text.index("closing paragraph")
    assert "nested segment" in text


def test_react_boundary_rendered_on_the_client_keeps_its_fallback() -> None:
    html = REACT.replace('$RC("B:0","S:0")', '$RC("B:0","S:0","digest")')
    result = _result(html)
    assert "Loading comments" in result.output
    assert "streamed paragraph" not in result.output
    assert any(e.kind == "react-holder-client-rendered" for e in result.log)


def test_hidden_div_without_react_placeholder_stays_hidden() -> None:
    html = "<html><body><p>Shown text of the page body.</p><div hidden id='S:0'><p>Hidden text.</p></div></body></html>"
    assert "Hidden text" not in _result(html).output
    html = "<html><body><p>Shown text of the page body.</p><div hidden id='x'><p>Hidden text.</p></div></body></html>"
    assert "Hidden text" not in _result(html).output


def test_declarative_shadow_root_is_read() -> None:
    html = """<html><body><p>Before the component.</p><product-card><template shadowrootmode="open">
<h2>Shadow heading</h2><p>Text in the shadow root of the card.</p></template></product-card>
<p>After the component.</p><template><p>An inert template.</p></template></body></html>"""
    result = _result(html)
    text = result.output
    assert text.index("Before") < text.index("Shadow heading") < text.index("Text in the shadow root") \
        < text.index("After the component")
    assert "inert template" not in text  # an ordinary template stays out
    assert any(e.kind == "shadow-root-read" for e in result.log)


def test_pages_without_holders_are_unchanged_by_the_quick_test() -> None:
    from kitten.normalizer import holders

    assert not holders.may_hold("<html><body><div hidden id='main'>x</div><template id='B:0'></template></body></html>")
    assert holders.may_hold('<div hidden id="S:0"></div>')
    assert holders.may_hold('<template shadowrootmode="open"></template>')


ARTICLE = ("The council approved the new budget after a long debate about schools, roads and the harbour. "
           "Residents will see the first changes in the spring, when the works on the main street begin. ")


def test_noscript_of_an_app_shell_is_read_and_logged() -> None:
    html = (f'<html><body><div id="root"></div><noscript><h1>Budget approved</h1><p>{ARTICLE * 2}</p>'
            f'</noscript><script src="app.js"></script></body></html>')
    result = _result(html)
    assert "Budget approved" in result.output and "main street" in result.output
    read = [e for e in result.log if e.kind == "read-noscript"]
    assert len(read) == 1 and "app shell" in read[0].message


def test_small_noscript_stays_out() -> None:
    html = (f'<html><body><p>{ARTICLE}</p><noscript><p>Please enable JavaScript to use this site.</p>'
            f'<img src="https://pixel.example/p.gif" alt="" /></noscript></body></html>')
    result = _result(html)
    assert "main street" in result.output
    assert "enable JavaScript" not in result.output
    assert any(e.kind == "removed-noscript" for e in result.log)
    assert not any(e.kind == "read-noscript" for e in result.log)


def test_substantial_noscript_of_a_page_with_text_stays_out() -> None:
    html = f'<html><body><article><p>{ARTICLE * 2}</p></article><noscript><p>{ARTICLE.upper() * 2}</p></noscript></body></html>'
    result = _result(html)
    assert "THE COUNCIL" not in result.output
    assert not any(e.kind == "read-noscript" for e in result.log)


def test_app_shell_with_its_content_in_script_data_is_logged() -> None:
    data = '{"props":{"pageProps":{"article":"' + ARTICLE * 30 + '"}}}'
    html = (f'<html><body><div id="__next">Loading...</div><script id="__NEXT_DATA__" type="application/json">'
            f'{data}</script></body></html>')
    result = _result(html)
    shell = [e for e in result.log if e.kind == "app-shell"]
    assert len(shell) == 1 and "not read" in shell[0].message
    assert not any(e.kind == "app-shell" for e in _result(f"<html><body><p>{ARTICLE * 2}</p>"
                                                         f"<script>{data}</script></body></html>").log)


def test_both_walks_agree_on_revealed_holders() -> None:
    """The holders are moved before the walk: the C walk reads what the Python walk reads."""
    from kitten import structure
    from kitten.config import StructureConfig
    from kitten.document import Document
    from kitten.api import normalize

    if structure._c_walker() is None:
        import pytest
        pytest.skip("kitten._structure is not built")
    for html in (REACT, f'<html><body><div id="root"></div><noscript><p>{ARTICLE * 2}</p></noscript></body></html>',
                 f'<html><body><p>{ARTICLE}</p><noscript><p>Enable JavaScript.</p></noscript></body></html>'):
        root = structure.parse_xhtml(normalize(html).xhtml)
        body = root.find("{http://www.w3.org/1999/xhtml}body")
        structure._app_shell_noscripts(body, Document(blocks=[], lang="en"))
        views = []
        for python in (True, False):
            walker = structure._Walker(Document(blocks=[], lang="en"), StructureConfig())
            (walker.walk_python if python else walker.walk)(body)
            views.append(structure.block_view(walker))
        assert views[0] == views[1]
        assert views[0][0]
