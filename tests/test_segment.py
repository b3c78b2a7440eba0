"""Structure and segmentation: explicit sentence boundaries on hand-made pages.

The first two tests rebuild the two examples of the original paper: a paragraph cut
by <br> into six lines that a linear extractor writes as six lines (three sentences),
and an <acronym> whose title is added in brackets.
"""
from __future__ import annotations

import json

import pytest

import kitten
from kitten.config import Config, SegmentConfig, StructureConfig


def lines(html: str, config: Config | None = None) -> list[str]:
    return kitten.extract(html, config=config).splitlines()


def test_paper_br_cut_paragraph_gives_three_sentences() -> None:
    html = ("<p>Applications are now open for the summer program<br>"
            "which brings artists and young people together<br>"
            "in workshops held across the state.<br>"
            "Each workshop runs for two weeks<br>"
            "and ends with a public show.<br>"
            "Places are limited.</p>")
    assert lines(html) == [
        "Applications are now open for the summer program which brings artists and young "
        "people together in workshops held across the state.",
        "Each workshop runs for two weeks and ends with a public show.",
        "Places are limited.",
    ]


def test_paper_acronym_expanded_in_brackets() -> None:
    html = ("<p>Youth Arts runs a network of programs in <acronym title=\"New South Wales\">NSW</acronym>"
            " promoting creative expression among young people.</p>")
    r = kitten.normalize(html)
    assert r.status == "done"
    out = lines(html)
    assert out == ["Youth Arts runs a network of programs in NSW (New South Wales) promoting "
                   "creative expression among young people."]


def test_expansions_are_logged() -> None:
    from kitten.page import Page
    from kitten.pipeline import run_page

    html = b'<p><abbr title="Monday">Mon</abbr> <abbr title="Tuesday">Tue</abbr> <abbr title="x">x</abbr></p>'
    r = run_page(Page(html), Config(), "text")
    logged = [e.message for e in r.log if e.kind == "abbr"]
    assert logged == ["Mon (Monday)", "Tue (Tuesday)"]  # a title equal to the text adds nothing
    assert r.output == "Mon (Monday) Tue (Tuesday) x.\n"


def test_title_and_paragraph_get_a_boundary() -> None:
    assert lines("<h2>Opening hours</h2><p>We open at nine</p><p>Closed on Sundays</p>") == [
        "Opening hours.", "We open at nine.", "Closed on Sundays."]


def test_lines_that_stand_alone_stay_apart() -> None:
    assert lines("<p>12 Main Street<br>Springfield<br>United States</p>") == [
        "12 Main Street.", "Springfield.", "United States."]


def test_two_br_always_end_a_segment() -> None:
    assert lines("<p>the first part of it<br><br>goes on here</p>") == [
        "the first part of it.", "goes on here."]
    assert lines("<p>the first part of it<br> <br>goes on here</p>") == [
        "the first part of it.", "goes on here."]


def test_continuation_word_joins_a_capitalised_line() -> None:
    assert lines("<p>Tickets are on sale at the<br>Town Hall box office</p>") == [
        "Tickets are on sale at the Town Hall box office."]


def test_end_word_is_the_word_end_search() -> None:
    """``_end_word`` (from the end of the line) finds what the search it replaces found:
    every short text over letters, digits, ``_``, the marks ``' ’ -``, other symbols,
    white space and characters outside the BMP."""
    import itertools
    import re

    from kitten.segment import _end_word

    word_end = re.compile(r"([\w'’-]+)\W*$")
    for n in range(6):
        for chars in itertools.product("a_9-’ .²\U0001d400", repeat=n):
            text = "".join(chars)
            m = word_end.search(text)
            assert _end_word(text) == (m.group(1) if m else ""), text


def test_segments_of_lines_are_the_collapsed_text() -> None:
    """The segments of a block with line breaks, one space apart, are its text with the
    white space collapsed (the segment step finds each segment's offset in that join)."""
    import random

    from kitten.document import BR, Block
    from kitten.segment import _lines, _segments, word_list

    words = word_list("", "en", "continuation.txt")
    pieces = ["a", "the", "Word", "x.", " ", "  ", "\n", "\t", "\x1c", "\u2028", "\xa0", "|", "b c ", " of"]
    rng = random.Random(7)
    for _ in range(3000):
        inlines = [BR if rng.random() < 0.3 else "".join(rng.choices(pieces, k=rng.randint(0, 3)))
                   for _ in range(rng.randint(0, 8))]
        block = Block("paragraph", "p", None, inlines)
        for join_br in (True, False):
            segments = [text for text, _ in _segments(_lines(block), words, join_br)]
            assert " ".join(segments) == " ".join(block.text().split()), inlines
        pre = [(line, 2) for line in block.text().split("\n")]
        assert " ".join(t for t, _ in _segments(pre, words, True)) == " ".join(block.text().split())


def test_br_joining_can_be_turned_off() -> None:
    config = Config(segment=SegmentConfig(join_br=False))
    assert lines("<p>a sentence cut<br>in two</p>", config) == ["a sentence cut.", "in two."]


def test_french_continuation_words() -> None:
    html = '<html lang="fr"><body><p>Les billets sont en vente à la<br>Mairie du village</p></body></html>'
    assert lines(html) == ["Les billets sont en vente à la Mairie du village."]


def test_existing_final_punctuation_is_kept() -> None:
    assert lines("<p>Really?</p><p>Yes!</p><p>“Done.”</p><p>He said (so).</p><p>Wait…</p>") == [
        "Really?", "Yes!", "“Done.”", "He said (so).", "Wait…"]


def test_trailing_comma_becomes_a_full_stop_and_colon_is_kept() -> None:
    assert lines("<p>first,</p><p>Parents need to:</p>") == ["first.", "Parents need to:"]


def test_removed_content_is_not_extracted_and_is_logged() -> None:
    from kitten.page import Page
    from kitten.pipeline import run_page

    html = (b"<div id='mainmenu'><a href=/>Home</a> <a href=/x>News</a></div>"
            b"<form><select><option>Choose a country</option></select>"
            b"<input value='Search this site'><textarea>type here</textarea></form>"
            b"<script>var secret = 1;</script><style>p {}</style>"
            b"<p hidden>hidden words</p><p style='color:red; display: none'>invisible words</p>"
            b"<template><p>template words</p></template>"
            b"<p>Visible text</p>")
    r = run_page(Page(html), Config(), "text")
    assert r.output == "Visible text.\n"
    reasons = sorted({e.kind for e in r.log if e.kind.startswith("removed-")})
    assert reasons == ["removed-form-control", "removed-hidden", "removed-menu"]


def test_menu_patterns_are_a_setting() -> None:
    html = "<div class='sidebar'>Side text</div><div id='menu'>Menu text</div><p>Body</p>"
    assert lines(html) == ["Side text.", "Body."]
    keep = Config(structure=StructureConfig(remove_containers=()))
    assert lines(html, keep) == ["Side text.", "Menu text.", "Body."]
    custom = Config(structure=StructureConfig(remove_containers=("side(bar)?",)))
    assert lines(html, custom) == ["Menu text.", "Body."]


def test_img_alt_only_when_asked() -> None:
    html = "<p>Look <img src=x alt='a red bicycle'> here</p>"
    assert lines(html) == ["Look here."]
    assert lines(html, Config(structure=StructureConfig(img_alt=True))) == ["Look a red bicycle here."]


def test_q_gets_quotation_marks_by_language() -> None:
    assert lines("<p>She said <q>hello</q> twice</p>") == ["She said “hello” twice."]
    fr = '<html lang="fr"><body><p>Il a dit <q>bonjour</q> deux fois</p></body></html>'
    assert lines(fr) == ["Il a dit « bonjour » deux fois."]


def test_footnote_markers_stay_attached() -> None:
    assert lines("<p>Water boils at 100 degrees<sup>1</sup> at sea level</p>") == [
        "Water boils at 100 degrees1 at sea level."]


def test_pre_keeps_its_lines() -> None:
    assert lines("<pre>first line\n  second line\nthird</pre>") == [
        "first line", "second line", "third"]  # kept as written: no full stop added


def test_display_style_decides_block_or_inline() -> None:
    assert lines("<p>one <span style='display:block'>two</span> three</p>") == ["one.", "two.", "three."]
    assert lines("<div>one <div style='display: inline'>two</div> three</div>") == ["one two three."]


def test_symbol_only_segments_are_dropped() -> None:
    assert lines("<p>|</p><p>»</p><p>Real text</p>") == ["Real text."]


def test_list_items_and_cells_are_segments_until_their_steps_exist() -> None:
    assert lines("<ul><li>apples<li>pears</ul><table><tr><td>red<td>green</table>") == [
        "apples.", "pears.", "red / green."]  # a one-row table of short cells: one sentence


def test_every_line_ends_with_final_punctuation_or_colon() -> None:
    html = ("<h1>Title</h1><div>loose text<p>para</p>more loose</div><ul><li>x<li>y:</ul>"
            "<p>a<br>b<br><br>C</p>")
    for line in lines(html):
        assert line[-1] in ".?!…:”»)", line


def test_json_format_has_blocks_sentences_and_locators() -> None:
    from kitten.page import Page
    from kitten.pipeline import run_page

    r = run_page(Page(b"<h1>T</h1><div id='menu'>m</div><p>Body <abbr title='x y'>XY</abbr></p>"),
                 Config(), "json")
    data = json.loads(r.output)
    assert [b["kind"] for b in data["blocks"]] == ["heading", "paragraph"]
    assert data["blocks"][1]["locator"] == "/html/body/p"  # ElementPath: [n] among same-name siblings
    assert [s["text"] for s in data["sentences"]] == ["T.", "Body XY (x y)."]
    assert all(s["locator"].startswith("/html/body/") for s in data["sentences"])
    assert data["removals"][0]["reason"] == "menu"
    assert data["abbreviations"] == [{"tag": "abbr", "text": "XY", "title": "x y", "expanded": True}]


@pytest.mark.parametrize("chunk", [1, 2, 1000])
def test_streamed_json_is_what_the_standard_encoder_writes(chunk: int, monkeypatch) -> None:
    import kitten.render
    from kitten.render import dumps

    monkeypatch.setattr(kitten.render, "DUMPS_CHUNK", chunk)  # items encoded per call
    data = {"lang": "en", "empty": [], "nested": {"a": [1, {"b": "x\ny"}], "c": {}}, "quote": 'é"',
            "items": [{"text": "One.", "spans": [[0, 4]], "none": None}, {}, [], {"deep": [[], [{}]]}],
            "none": []}
    lazy = {k: iter(v) if isinstance(v, list) else v for k, v in data.items()}
    assert dumps(lazy) == json.dumps(data, ensure_ascii=False, indent=1)
    assert dumps({}) == "{}" and dumps({"x": iter([])}) == '{\n "x": []\n}'


def test_bad_config_pattern_is_a_clear_error() -> None:
    from kitten.config import ConfigError

    with pytest.raises(ConfigError):
        Config.from_dict({"structure": {"remove_containers": ["("]}})


def test_batch_summary_counts_expansions_and_removals(tmp_path) -> None:
    import io

    from kitten.batch import print_summary, run
    from kitten.engine import Job
    from kitten.io.sinks import FolderSink
    from kitten.io.sources import InputStats, records

    (tmp_path / "in").mkdir()
    for i in range(3):
        (tmp_path / "in" / f"p{i}.html").write_text(
            "<div class='menu'>Home</div><p><abbr title='Monday'>Mon</abbr> opening</p>", encoding="utf-8")
    summary = run(records([str(tmp_path / "in")], InputStats()), Job("text", Config()),
                  FolderSink(tmp_path / "out", removed_log=True))
    out = io.StringIO()
    print_summary(summary, out)
    text = out.getvalue()
    assert "removed: menu x3" in text
    assert "expanded: 3 abbr, 0 acronym" in text and "x3 abbr: Mon (Monday)" in text


def test_locators_are_lxml_element_paths() -> None:
    """``Document.locate`` counts each parent's children once; its locators are lxml's
    ``getelementpath`` ones (comments skipped, ``[n]`` only among same-name siblings),
    on a hand-made tree and on the shared pages."""

    from kitten.document import Locators
    from kitten.structure import parse_xhtml

    def element_path(el) -> str:
        return "/html/" + el.getroottree().getelementpath(el).replace("{http://www.w3.org/1999/xhtml}", "")

    def check(root) -> int:
        locate = Locators()
        elements = [el for el in root.iter() if isinstance(el.tag, str)]
        for el in reversed(elements):  # children asked before their parents
            assert locate(el) == element_path(el)
        return len(elements)

    xhtml = ('<html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head><body>'
             '<div><p>a</p><!-- c --><p>b</p><ul><li>x</li></ul></div><div><p>c</p><span/></div>'
             '<table><tr><td>1</td><td>2</td></tr></table></body></html>')
    assert check(parse_xhtml(xhtml)) == 16
    from _corpora import ABSENT
    from _corpora import CORPORA as corpora

    pages = sorted((corpora / "cleaneval-final").rglob("*.html"))[:20] if corpora.is_dir() else []
    if not pages:
        pytest.skip(ABSENT)
    from kitten.log import PageLog
    from kitten.normalizer import to_xhtml
    from kitten.normalizer.encoding import decode

    config = Config()
    n = 0
    for page in pages:
        log = PageLog()
        n += check(parse_xhtml(to_xhtml(decode(page.read_bytes(), config.decode, log).text, config.normalize, log)))
    assert n > 1000
