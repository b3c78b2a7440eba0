"""The visual report (``kitten report``, ``kitten extract --report``): the builder without
a browser, then three shared-corpus pages opened in headless Chromium (Debian's
``chromium``, driven by playwright; skipped when either, or the corpora, are absent)."""
from __future__ import annotations

import json
import re
import struct
import zlib
from pathlib import Path

import pytest
from lxml import html as lxml_html

from kitten.cli import main
from kitten.config import Config
from kitten.page import Page
from kitten.pipeline import run_page
from kitten.report import build_report, write_index
from kitten.report.index import read_summary, sort_key

from _corpora import ABSENT, CORPORA  # noqa: E402  (the shared corpora: tests/_corpora.py)
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TABLES_PAGE = CORPORA / "wikipedia-tables/pages/200/0.html"  # data tables (an infobox, discographies)
LISTS_PAGE = CORPORA / "readability/html/google-sre-book-1.html"  # link lists, flattened lists, a definition list
GATED_PAGE = CORPORA / "modern/html/n4k_wired_001.html"  # an article in a site's template, with --boilerplate crf

PAGE = """<html><head><title>T</title><link rel="stylesheet" href="http://example.com/a.css">
<style>body { background: url(http://example.com/bg.png) }</style>
<script src="http://example.com/a.js"></script><meta http-equiv="refresh" content="0; url=http://example.com/"></head>
<body onload="alert(1)" background="http://example.com/b.png">
<div class="menu"><a href="http://example.com/1">Home</a> <a href="/2">News</a></div>
<h1>A title without a full stop</h1>
<p style="background:url(http://example.com/c.png)">The <abbr title="World Health Organization">WHO</abbr> said
something today. It said more. <img src="http://example.com/x.png" srcset="http://example.com/y.png 2x" alt="A cat"/></p>
<iframe src="http://example.com/frame"></iframe><video poster="http://example.com/p.png" src="v.mp4"></video>
<form action="http://example.com/f"><p>Form text here.</p></form>
<ul><li><a href="/a">Home</a></li><li><a href="/b">About us</a></li><li><a href="/c">Contact</a></li></ul>
<table><tr><th>Name</th><th>Age</th></tr><tr><td>Anna</td><td>31</td></tr><tr><td>Bob</td><td>42</td></tr>
<tr><td>Carl</td><td>53</td></tr></table>
</body></html>"""


def report_of(data: str | bytes, config: Config | None = None, name: str = "t.html") -> tuple[str, dict]:
    result = run_page(Page(data.encode() if isinstance(data, str) else data, name), config or Config(), "text")
    return build_report(result)


# --------------------------------------------------------------------------- the builder, no browser


def test_report_loads_nothing_from_outside() -> None:
    text, _ = report_of(PAGE)
    assert "example.com" not in text
    doc = lxml_html.fromstring(text)
    for el in doc.xpath('//section[@id="k-left"]//*'):
        fetching = [a for a in el.attrib if a in FETCHING or a.startswith("on")]
        assert not fetching, (el.tag, fetching)
    assert not doc.xpath("//link|//base|//iframe[@src]|//meta[@http-equiv]|//img")
    assert "url(" not in text and "@import" not in text
    assert [s.attrib for s in doc.xpath("//script")] == [{"type": "application/json", "id": "kitten-summary"}, {}]
    assert "[A cat]" in text  # an image is its alt text


FETCHING = {"src", "srcset", "href", "poster", "background", "action", "formaction", "data", "style", "srcdoc"}


def test_every_sentence_links_to_a_block_of_the_page() -> None:
    text, info = report_of(PAGE)
    doc = lxml_html.fromstring(text)
    sentences = doc.xpath('//div[@id="k-text"]/p[contains(@class, "ks")]')
    assert len(sentences) == info["sentences"] > 3
    blocks = {el.get("data-b") for el in doc.xpath('//section[@id="k-left"]//*[@data-b]')}
    for s in sentences:
        assert s.get("data-b") in blocks, s.text_content()
    first = doc.xpath('//section[@id="k-left"]//*[@data-b="%s"]' % sentences[0].get("data-b"))[0]
    assert first.tag == "h1"


def test_decisions_drawn() -> None:
    text, info = report_of(PAGE)
    doc = lxml_html.fromstring(text)
    page = doc.xpath('//section[@id="k-left"]')[0]
    removed = page.xpath('.//*[contains(concat(" ", @class, " "), " kx ")]')
    assert [el.get("data-why") for el in removed] == ["menu"]
    assert page.xpath('.//abbr[contains(@class, "ka-yes")]')
    struck = [li.text_content() for li in page.xpath('.//li[contains(@class, "kl-removed")]')]
    assert struck == ["Home", "About us", "Contact"]
    assert page.xpath('.//div[contains(@class, "k-badge") and contains(., "list link")]')
    assert page.xpath('.//table[contains(@class, "kt-")]')
    added = doc.xpath('//div[@id="k-text"]/p[span[@class="kfs"]]')
    marked = [p.text_content() for p in added]
    assert marked[0] == "A title without a full stop." and "It said more." not in marked
    assert "Name: Anna / Age ; Anna: 31." in marked  # a table row's clause: the stop is Kitten's too
    assert info["containers_removed"] == 1 and info["link_items_removed"] == 3
    assert 0 < info["removed_share"] < 1
    summary = json.loads(doc.xpath('//script[@id="kitten-summary"]')[0].text)
    assert summary == info


@pytest.mark.corpus
def test_data_table_cells_typed() -> None:
    if not TABLES_PAGE.is_file():
        pytest.skip(ABSENT)
    text, info = report_of(TABLES_PAGE.read_bytes(), name="0.html")
    doc = lxml_html.fromstring(text)
    tables = doc.xpath('//table[contains(@class, "kt-data")]')
    assert len(tables) == info["data_tables"] > 0
    types = {td.get("data-c") for td in tables[0].xpath(".//td|.//th")}
    assert {"header", "data"} <= types


def test_fallback_page_reported_with_its_reason(monkeypatch) -> None:
    import kitten.pipeline

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(kitten.pipeline, "read_lists", broken)  # a text step that fails
    text, info = report_of(PAGE)
    assert info["status"] == "fallback" and "boom" in info["reason"]
    assert '<pre class="k-dump">' in text and "something today" in text


def test_report_command_and_index(tmp_path: Path, capsys) -> None:
    pages = tmp_path / "in"
    pages.mkdir()
    (pages / "a.html").write_text(PAGE)
    (pages / "b.html").write_text("<html><body><p>Only one short paragraph of text here.</p></body></html>")
    (pages / "sitemap.xml.html").write_text('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/'
                                            'schemas/sitemap/0.9"><url><loc>https://e.com/</loc></url></urlset>')
    out = tmp_path / "out"
    assert main(["report", str(pages), "-o", str(out), "-q"]) == 0
    assert (out / "a.report.html").is_file() and (out / "b.report.html").is_file() and (out / "a.txt").is_file()
    index = (out / "index.html").read_text()
    rows = re.findall(r'<tr class="st-(\w+)">.*?</tr>', index)
    assert rows == ["excluded", "done", "done"]  # excluded first; then most text removed first
    assert index.index("a.report.html") < index.index("b.report.html")
    assert read_summary(out / "a.report.html")["page"] == "a.html"
    # extract --report: next to the output by default; a folder of its own when given
    assert main(["extract", str(pages / "a.html"), "-o", str(tmp_path / "x"), "--report", "-q"]) == 0
    assert (tmp_path / "x" / "a.report.html").is_file() and (tmp_path / "x" / "index.html").is_file()
    assert main(["extract", str(pages / "a.html"), "--report", str(tmp_path / "r")]) == 0
    assert (tmp_path / "r" / "a.report.html").is_file()
    capsys.readouterr()
    assert main(["extract", str(pages / "a.html"), "--report"]) == 2  # nowhere to write it
    assert main(["report", str(pages / "a.html")]) == 2
    assert "-o DIR" in capsys.readouterr().err


def test_index_order() -> None:
    rows = [{"page": "d", "status": "done", "removed_share": 0.1}, {"page": "f", "status": "fallback", "reason": "x"},
            {"page": "e", "status": "done", "removed_share": 0.9}, {"page": "t", "status": "timeout"}]
    assert [r["page"] for r in sorted(rows, key=sort_key)] == ["t", "f", "e", "d"]
    assert write_index  # the writer is exercised by test_report_command_and_index


# --------------------------------------------------------------------------- in Chromium


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and rows (RGB or RGBA bytes) of an 8-bit non-interlaced PNG, as
    Chromium writes screenshots."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and color in (2, 6)
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, bpp, rows


def has_colour(png: bytes, rgb: tuple[int, int, int], at_least: int = 50) -> bool:
    width, bpp, rows = png_pixels(png)
    want = bytes(rgb)
    return sum(row[i:i + 3] == want for row in rows for i in range(0, width * bpp, bpp)) >= at_least


@pytest.fixture(scope="module")
def browser():
    playwright = pytest.importorskip("playwright.sync_api", reason="playwright not installed (the test extra)")
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium)")
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> Path:
    for page in (TABLES_PAGE, LISTS_PAGE, GATED_PAGE):
        if not page.is_file():
            pytest.skip(f"{ABSENT} ({page.name} missing)")
    out = tmp_path_factory.mktemp("reports")
    assert main(["report", str(TABLES_PAGE), str(LISTS_PAGE), "-o", str(out / "plain"), "-q"]) == 0
    pytest.importorskip("pycrfsuite", reason="the gated page needs the crf extra")
    assert main(["report", str(GATED_PAGE), "-o", str(out / "gated"), "--boilerplate", "crf", "-q"]) == 0
    return out


def open_report(browser, path: Path):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    outside: list[str] = []
    page.on("request", lambda r: None if r.url.startswith("file:") else outside.append(r.url))
    page.goto(path.as_uri())
    assert outside == [], f"the report fetched {outside[:3]}"
    return page


def check_sentence_to_block(page, sentence_selector: str) -> str:
    """Click the first sentence matching the selector: its block is highlighted and
    scrolled into view; click the block: its sentences are highlighted. Returns the
    block's number."""
    sentence = page.locator(sentence_selector).first
    b = sentence.get_attribute("data-b")
    sentence.click()
    block = page.locator(f'#k-left [data-b="{b}"]')
    assert "k-hl" in block.get_attribute("class").split()
    assert page.evaluate(f"getComputedStyle(document.querySelector('#k-left [data-b=\"{b}\"]')).outlineColor") \
        == "rgb(255, 111, 0)"
    box, pane = block.bounding_box(), page.locator("#k-left").bounding_box()
    assert box is not None and pane["y"] <= box["y"] + box["height"] / 2 <= pane["y"] + pane["height"], \
        "the block is not scrolled into view"
    page.locator("#k-text").evaluate("e => e.scrollTop = 0")
    page.evaluate("document.querySelectorAll('.k-hl').forEach(e => e.classList.remove('k-hl'))")
    block.click(position={"x": 2, "y": 2})
    lit = page.locator("#k-text .ks.k-hl")
    assert lit.count() >= 1
    assert {lit.nth(i).get_attribute("data-b") for i in range(lit.count())} == {b}
    assert "k-hl" in block.get_attribute("class").split()
    assert lit.first.is_visible()
    return b


@pytest.mark.corpus
@pytest.mark.slow
def test_tables_report_in_chromium(browser, reports: Path, tmp_path: Path) -> None:
    page = open_report(browser, reports / "plain" / "0.report.html")
    legend = page.locator("#k-legend")
    assert legend.is_visible()
    for name in ("header", "data", "neutral", "thema", "finalImportant", "finalNonImportant", "link item removed"):
        assert legend.get_by_text(name, exact=True).count() >= 1, name
    table = page.locator("#k-left table.kt-data").first
    assert table.locator("th.kc-header, td.kc-header").count() >= 1 and table.locator("td.kc-data").count() >= 1
    header_bg = page.evaluate("getComputedStyle(document.querySelector('#k-left .kt-data .kc-header')).backgroundColor")
    assert header_bg == "rgb(255, 224, 130)"
    table.scroll_into_view_if_needed()
    shot = table.screenshot()
    assert has_colour(shot, (255, 224, 130)) and has_colour(shot, (200, 230, 201)), "cells not coloured on screen"
    # a sentence of a data row: its row is the block
    check_sentence_to_block(page, '#k-text .ks[title="table_row"]')
    page.close()


@pytest.mark.corpus
@pytest.mark.slow
def test_lists_report_in_chromium(browser, reports: Path) -> None:
    page = open_report(browser, reports / "plain" / "google-sre-book-1.report.html")
    removed = page.locator("#k-left li.kl-removed").first
    assert removed.count() == 1
    assert "line-through" in removed.evaluate("e => getComputedStyle(e).textDecorationLine")
    assert page.locator("#k-left .k-badge.kl-badge", has_text="flattened").count() >= 1
    check_sentence_to_block(page, '#k-text .ks[title="list_item"]')
    shot = page.screenshot()
    assert has_colour(shot, (38, 50, 56), 1000)  # the header bar is drawn
    page.close()


@pytest.mark.corpus
@pytest.mark.slow
def test_gated_report_in_chromium(browser, reports: Path) -> None:
    page = open_report(browser, reports / "gated" / "n4k_wired_001.report.html")
    assert "gate: labelled" in page.locator("#k-head").inner_text()
    gated = page.locator("#k-left .kg")
    assert gated.count() > 10
    assert page.locator("#k-left .kg-other").count() >= 1 and page.locator("#k-left .kg-paragraph").count() >= 1
    b = check_sentence_to_block(page, '#k-text .ks[title="paragraph"]')
    assert "kg" in page.locator(f'#k-left [data-b="{b}"]').get_attribute("class").split()
    index = open_report(browser, reports / "gated" / "index.html")
    assert index.locator("td", has_text="n4k_wired_001.html").count() == 1
    index.close()
    page.close()
