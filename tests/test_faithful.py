"""The faithful text style (issue 38, part 9): the page's text as written, paragraphs
separated by a blank line, nothing added; the screen-reader phrases of share and link
plugins left out in both styles; no full stop added by the parser style after Chinese or
Japanese text, a URL or an e-mail address alone, or a credit line. Hand-made fixtures
(``tests/fixtures/faithful``), and a check on the shared corpora (skipped without them)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kitten.config import Config, ConfigError
from kitten.page import Page
from kitten.pipeline import run_page
from kitten.stops import takes_no_stop

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "faithful"
FAITHFUL = Config.from_dict({"output": {"style": "faithful"}})
from _corpora import require  # noqa: E402  (the shared corpora: tests/_corpora.py)


def text(path: Path, config: Config | None = None) -> str:
    return run_page(Page(path.read_bytes(), name=path.name), config or Config(), "text").output or ""


@pytest.fixture(scope="module")
def faithful() -> str:
    return text(FIXTURES / "article.html", FAITHFUL)


@pytest.fixture(scope="module")
def parser() -> str:
    return text(FIXTURES / "article.html")


def paragraphs(output: str) -> list[list[str]]:
    return [p.split("\n") for p in output.rstrip("\n").split("\n\n")]


# ---- the faithful style ----------------------------------------------------------------------

def test_paragraphs_are_separated_by_a_blank_line(faithful: str) -> None:
    found = paragraphs(faithful)
    assert found[0] == ["Handheld consoles compared"]
    assert ["The WHO published no advice on consoles. Parents ask anyway"] in found
    # a <br> is a line of the paragraph, <br><br> starts another
    assert ["First line of an address", "Second line of an address"] in found
    assert ["A paragraph after two breaks"] in found
    assert faithful.endswith("\n") and not faithful.endswith("\n\n") and "\n\n\n" not in faithful


def test_nothing_is_added(faithful: str) -> None:
    import lxml.html

    page = " ".join(lxml.html.fromstring((FIXTURES / "article.html").read_bytes()).text_content().split())
    cut = ("Read the full review", "Facebook Twitter")  # the lines whose screen-reader phrases were cut
    for line in faithful.splitlines():
        for part in line.split(" | "):  # a table row: its cells
            assert part in page or part.startswith(cut), part  # every line is the page's text, as written
    assert faithful == EXPECTED


EXPECTED = """Handheld consoles compared

The WHO published no advice on consoles. Parents ask anyway

First line of an address
Second line of an address

A paragraph after two breaks

Photo: Jane Doe/Reuters

Before selecting a console, parents need to:

decide how much they want to spend
check which games their children already own
compare battery life

Dimensions

Console | Length | Weight
DS Lite | 133.0mm | 218g
Original DS | 148.7mm | 275g
PSP | 170.0mm | 260g

Read the full review at example.org before you buy

https://nyti.ms/2cJ42vc

jane.doe@example.org

Facebook Twitter Partager

注册

任天堂の新型機、第１戦

Sources

Mr. Smith said prices fell, e.g. in July
"""


def test_no_abbreviation_expansion(faithful: str, parser: str) -> None:
    assert "The WHO published" in faithful and "World Health Organization" not in faithful
    assert "The WHO (World Health Organization) published" in parser


def test_list_items_one_a_line_as_written(faithful: str) -> None:
    assert ["decide how much they want to spend", "check which games their children already own",
            "compare battery life"] in paragraphs(faithful)
    assert ["Before selecting a console, parents need to:"] in paragraphs(faithful)  # not joined to the items


def test_table_rows_one_a_line_cells_joined(faithful: str) -> None:
    assert ["Console | Length | Weight", "DS Lite | 133.0mm | 218g", "Original DS | 148.7mm | 275g",
            "PSP | 170.0mm | 260g"] in paragraphs(faithful)
    assert ["Dimensions"] in paragraphs(faithful)


def test_the_same_removals_as_the_parser_style(faithful: str, parser: str) -> None:
    assert "Home" not in faithful and "Home" not in parser  # the menu
    gated = Config.from_dict({"output": {"style": "faithful"}, "boilerplate": {"method": "crf"}})
    pytest.importorskip("pycrfsuite")
    assert text(FIXTURES / "article.html", gated)  # the gate runs before the style's steps


def test_lists_bullets_and_definitions_as_written() -> None:
    html = ("<p>You need:</p><ul><li>• eggs</li><li>• flour</li></ul>"
            "<dl><dt>Term</dt><dd>Its definition</dd></dl><p>Tail</p>")
    out = run_page(Page(html.encode()), FAITHFUL, "text").output
    assert out == "You need:\n\n• eggs\n• flour\n\nTerm\nIts definition\n\nTail\n"


def test_a_pre_keeps_its_lines_and_indentation() -> None:
    out = run_page(Page(b"<pre>def f():\n    return 1\n</pre>"), FAITHFUL, "text").output
    assert out == "def f():\n    return 1\n"


def test_json_sentences_are_the_faithful_lines() -> None:
    html = b"<h1>Title</h1><p>One<br>two</p>"
    data = json.loads(run_page(Page(html), FAITHFUL, "json").output)
    assert [(s["text"], s["kind"], s["start"], s["end"]) for s in data["sentences"]] == [
        ("Title", "heading", 0, 5), ("One", "paragraph", 0, 3), ("two", "paragraph", 4, 7)]


def test_the_style_is_a_setting() -> None:
    assert Config().output.style == "parser"
    with pytest.raises(ConfigError):
        Config.from_dict({"output": {"style": "verbatim"}})


def test_the_command_and_json_lines_carry_the_style(tmp_path: Path) -> None:
    page = FIXTURES / "article.html"
    cmd = [sys.executable, "-m", "kitten", "extract", str(page)]
    out = subprocess.run([*cmd, "--style", "faithful"], capture_output=True, text=True, check=True).stdout
    assert out == text(page, FAITHFUL)
    conf = tmp_path / "k.toml"
    conf.write_text('[output]\nstyle = "faithful"\n', encoding="utf-8")
    jsonl = subprocess.run([*cmd, "--config", str(conf), "--format", "jsonl", "-o", "-"], capture_output=True,
                           text=True, check=True).stdout
    assert json.loads(jsonl.splitlines()[0])["text"] == out
    blocks = subprocess.run([*cmd, "--style", "faithful", "--format", "blocks"], capture_output=True, text=True)
    assert blocks.returncode == 2 and "faithful" in blocks.stderr


# ---- both styles -----------------------------------------------------------------------------

@pytest.mark.parametrize("style", ["parser", "faithful"])
def test_screen_reader_phrases_are_left_out(style: str) -> None:
    out = text(FIXTURES / "article.html", Config.from_dict({"output": {"style": style}}))
    for phrase in ("new window", "new tab", "Opens", "Fenster", "fenêtre"):
        assert phrase.lower() not in out.lower(), phrase
    assert "Read the full review at example.org before you buy" in out
    assert "Facebook Twitter Partager" in out


def test_screen_reader_phrases_are_logged_and_the_setting_keeps_them() -> None:
    html = b"<p>See <a href='x'>here<span> (Opens in a new window)</span></a> for more.</p>"
    result = run_page(Page(html), Config(), "text")
    assert result.output == "See here for more.\n"
    assert any(e.kind == "removed-screen-reader-phrase" for e in result.log)
    kept = Config.from_dict({"structure": {"remove_screen_reader_phrases": False}})
    assert "(Opens in a new window)" in run_page(Page(html), kept, "text").output


def test_a_phrase_inside_a_word_is_no_phrase() -> None:
    html = b"<p>The film reopens in a new window of time, says the studio.</p><p>(new windows) sold out</p>"
    assert run_page(Page(html), Config(), "text").output == (
        "The film reopens in a new window of time, says the studio.\n(new windows) sold out.\n")


# ---- the parser style's stops ----------------------------------------------------------------

def test_no_stop_after_cjk_urls_mails_and_credits(parser: str) -> None:
    lines = parser.splitlines()
    for line in ("注册", "任天堂の新型機、第１戦", "https://nyti.ms/2cJ42vc", "jane.doe@example.org",
                 "Photo: Jane Doe/Reuters"):
        assert line in lines, line
    assert "Handheld consoles compared." in lines and "Sources." in lines  # other headings keep theirs


@pytest.mark.parametrize("segment,none", [
    ("注册", True), ("第１戦", True), ("iPhone 12 发布会", True), ("注册 (2019)", True),
    ("Share this Mark Slavin 漢", False), ("안녕하세요", False),
    ("https://nyti.ms/2cJ42vc", True), ("www.example.org", True), ("nyti.ms/2cJ42vc", True),
    ("jane@example.org", True), ("mailto:jane@example.org", True), ("Write to jane@example.org", False),
    ("See https://example.org", False), ("v1.2/beta", False),
    ("Photo: Jane Doe/Reuters", True), ("(Foto: dpa)", True), ("Photo by Jane Doe", True),
    ("Photo : Radio-Canada", True), ("© 2022 Reuters", True), ("Photos of the day", False),
    ("Sources say the deal is off", False), ("Image", False), ("(Credit: Getty)", True),
    ("Pictures: Celebrity weddings and engagements", False), ("Source: L.Casson Ancient Egypt, excerpt", True),
])
def test_takes_no_stop(segment: str, none: bool) -> None:
    assert takes_no_stop(segment) is none


def test_list_items_take_the_same_rule() -> None:
    html = "<p>Links:</p><ul><li>https://example.org/a</li><li>注册</li></ul>".encode()
    cfg = Config.from_dict({"lists": {"short_item_chars": 0}})  # one sentence per item
    assert run_page(Page(html), cfg, "text").output.splitlines()[1:] == ["https://example.org/a", "注册"]


# ---- the shared corpora ----------------------------------------------------------------------

@pytest.mark.corpus
@pytest.mark.slow
def test_faithful_keeps_what_the_parser_style_keeps_on_web2025() -> None:
    require("web2025")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from faithful import compare, web2025_items

    from _corpora import CORPORA

    row = compare(web2025_items(CORPORA, limit=12), Config())
    parser, faithful = row.styles["parser"], row.styles["faithful"]
    assert faithful.found == parser.found and parser.snippets > 0
    assert faithful.added_stops == 0 and parser.added_stops > 0
    assert faithful.breaks_kept == faithful.breaks > 0  # consecutive gold paragraphs stay apart
