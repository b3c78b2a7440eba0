"""Tests of kitten.evaluation: gold readers, SOW overlap, segmentation metric.

Hand-made inputs only, except the ``corpus``-marked check of the fast matcher
against difflib on real pages (skipped when the corpora are not unpacked). pysbd
(the ``bench`` extra) is needed only by the tests that say so; the others use a
toy splitter.
"""
from __future__ import annotations

import difflib
import random
import re
from pathlib import Path

import pytest

from kitten.evaluation.gold import (
    Gold,
    GoldBlock,
    corpus_pages,
    decode_gold,
    parse_cleaneval,
    parse_dragnet,
    parse_readability,
    read_gold,
)
from kitten.evaluation.overlap import (
    _longest_match,
    _longest_match_automaton,
    difflib_matching_blocks,
    matching_blocks,
    overlap,
    summarize,
    tokenize,
)
from kitten.evaluation.segmentation import (
    collapse_whitespace,
    floor_text,
    prepare_gold,
    score_output,
    score_segmentation,
    sentence_offsets,
    summarize_segmentation,
)

from _corpora import ABSENT, CORPORA  # noqa: E402  (the shared corpora: tests/_corpora.py)


def kinds_texts(gold: Gold) -> list[tuple[str | None, str]]:
    return [(b.kind, b.text) for b in gold.blocks]


# =========================================================================== decoding


def test_decode_utf8_and_utf8_bom():
    assert decode_gold("URL: x\n<p>café".encode("utf-8")) == "URL: x\n<p>café"
    assert decode_gold(b"\xef\xbb\xbfURL: x") == "URL: x"


def test_decode_utf16_bom_both_orders():
    text = "Main text.\r\n!@#$%^&*()  COMMENTS\r\nA comment."
    for data in (b"\xff\xfe" + text.encode("utf-16-le"), b"\xfe\xff" + text.encode("utf-16-be")):
        assert decode_gold(data) == text.replace("\r\n", "\n")


def test_decode_windows_1252_fallback_and_holes():
    assert decode_gold(b"It\x92s \x93quoted\x94 \x96 caf\xe9") == "It’s “quoted” – café"
    # 0x81 is unassigned in windows-1252: kept as the C1 control, never an error.
    assert decode_gold(b"a\x81b\xe9") == "a\x81bé"


def test_decode_normalizes_line_ends():
    assert decode_gold(b"a\r\nb\rc\n") == "a\nb\nc\n"


# =========================================================================== CLEANEVAL


def test_cleaneval_url_line_and_blocks():
    g = parse_cleaneval("URL: http://example.org/a\n\n<h> Title\n<p> First line\n   wrapped here.\n<l>Item one\n")
    assert g.url == "http://example.org/a"
    assert kinds_texts(g) == [("h", "Title"), ("p", "First line wrapped here."), ("l", "Item one")]
    assert g.text == "Title\nFirst line wrapped here.\nItem one"
    assert g.comments is None


def test_cleaneval_missing_url_line():
    g = parse_cleaneval("<h>Title\n<p>Body text.")
    assert g.url is None
    assert kinds_texts(g) == [("h", "Title"), ("p", "Body text.")]


def test_cleaneval_url_line_after_bom_and_text_before_first_marker():
    g = parse_cleaneval("\ufeffURL: http://x.org/\nPage title\n<p>Body")
    assert g.url == "http://x.org/"
    assert kinds_texts(g) == [(None, "Page title"), ("p", "Body")]


def test_cleaneval_mid_line_markers():
    g = parse_cleaneval("<h>May 2006 <h>June 2006\n<p>Status: open <p>Salary: none")
    assert kinds_texts(g) == [("h", "May 2006"), ("h", "June 2006"),
                              ("p", "Status: open"), ("p", "Salary: none")]


def test_cleaneval_marker_inside_a_word_and_after_a_bullet():
    g = parse_cleaneval("<p>Last sentence.\nT<p>he next one.\n     * <l>A bullet\n   2. <p>Numbered")
    assert kinds_texts(g) == [("p", "Last sentence."), ("p", "The next one."),
                              ("l", "* A bullet"), ("p", "2. Numbered")]


def test_cleaneval_upper_case_and_empty_markers():
    g = parse_cleaneval("<H>NAME\n<h><h>PHONE\n<P>text")
    assert kinds_texts(g) == [("h", "NAME"), ("h", "PHONE"), ("p", "text")]


def test_plain_text_golds_read_escaped_character_references():
    """CleanPortalEval's files (and one of Dragnet's) keep ``&#039;``, ``&rsquo;`` ...
    escaped: read as characters, so "there's" in an output matches; a bare ampersand
    and an unknown name stay."""
    g = parse_cleaneval("<p>If there&#039;s one thing &#8211; AT&T &amp; co &nosuch;")
    assert g.text == "If there's one thing \u2013 AT&T & co &nosuch;"
    assert parse_dragnet("Gold Coin &amp; Economic News\nIt&rsquo;s here.").text == \
        "Gold Coin & Economic News\nIt\u2019s here."
    gold = CORPORA / "cleanportaleval" / "gold" / "tv.msnbc.com_news_29.txt"
    if gold.is_file():
        text = parse_cleaneval(decode_gold(gold.read_bytes())).text
        assert "there's one thing we learned" in text and "&#" not in text


def test_cleaneval_only_url_line():
    g = parse_cleaneval("URL: http://x.org/page.html\n\n   \n")
    assert g.url == "http://x.org/page.html"
    assert g.blocks == [] and g.text == ""


def test_cleaneval_non_utf8_file(tmp_path: Path):
    path = tmp_path / "1.txt"
    path.write_bytes(b"URL: http://x/\n<p>Mich\xe9al said \x93hello\x94")
    g = read_gold(path, "cleaneval-final")
    assert kinds_texts(g) == [("p", "Michéal said “hello”")]


# =========================================================================== Dragnet

DELIMITERS = [
    "!@#$%^&*()  COMMENTS",
    "!@#$%^&*() COMMENTS",
    "!@#$%^&*()   COMMENTS",
    "!@ $%^&*()  COMMENTS",
    "!#@$%^&*()  COMMENTS",
    "!!@#$%^&*()  COMMENTS",
    "@#$%^&*() COMMENTS",
    "!@#$%^&**()  COMMENTS",
    "!@#$%^&*   COMMENTS",
    "!@#$%^&*()  COMMNENTS",
    "!@#$%^&*()  CORRECTED",
    "!@#$%^&*()",
]


@pytest.mark.parametrize("delimiter", DELIMITERS)
def test_dragnet_comment_delimiter_spellings(delimiter: str):
    g = parse_dragnet(f"Headline\n\nFirst paragraph.\n\n\n{delimiter}\n\n\nGreat post!\nAnother comment.\n")
    assert kinds_texts(g) == [(None, "Headline"), (None, "First paragraph.")]
    assert g.text == "Headline\nFirst paragraph."
    assert g.comments == "Great post!\nAnother comment."


def test_dragnet_without_comments_and_lookalike_lines():
    g = parse_dragnet("Title\nYAY!!!!\n***\nwhat is it with @!$%#s and phones?\n")
    assert g.comments is None
    assert [b.text for b in g.blocks] == ["Title", "YAY!!!!", "***", "what is it with @!$%#s and phones?"]


def test_dragnet_utf16_file_with_bom(tmp_path: Path):
    path = tmp_path / "R1.txt"
    text = "Caf\u00e9 news\r\n\r\n!@#$%^&*()  COMMENTS\r\n\r\nNice\r\n"
    path.write_bytes(b"\xff\xfe" + text.encode("utf-16-le"))
    g = read_gold(path, "dragnet")
    assert g.text == "Caf\u00e9 news"
    assert g.comments == "Nice"


def test_dragnet_only_first_delimiter_splits():
    g = parse_dragnet("Body\n!@#$%^&*()  COMMENTS\nc1\n!@#$%^&*()  COMMENTS\nc2")
    assert g.text == "Body"
    assert g.comments == "c1\n!@#$%^&*()  COMMENTS\nc2"


# =========================================================================== Readability


def test_readability_fragment_blocks():
    html = ('<div id="readability-page-1" class="page"><section>'
            "<h2>The <em>title</em></h2><p>First &amp; second\n  words.</p>"
            "<script>var x = 1;</script><ul><li>one</li><li>two <a href='#'>links</a></li></ul>"
            "<p>Line<br>break</p>tail text</section></div>")
    g = parse_readability(html)
    assert kinds_texts(g) == [("h", "The title"), ("p", "First & second words."), ("l", "one"),
                              ("l", "two links"), ("p", "Line"), ("p", "break"), (None, "tail text")]
    assert g.url is None and g.comments is None


def test_readability_empty():
    assert parse_readability("  ").blocks == []


# =========================================================================== overlap


def test_tokenize():
    assert tokenize("Hello, World! It's 10:30\x00pm — “fine”.\u00adok\x0bnext") == [
        "hello", "world", "it", "s", "10", "30pm", "fine", "ok", "next"]
    assert tokenize(" \n\t ") == []


def test_overlap_exact_values():
    s = overlap("a b c d", "A b, x: c d e")
    assert (s.case, s.intersection, s.gold_tokens, s.output_tokens) == ("ok", 4, 4, 6)
    assert s.precision == pytest.approx(4 / 6)
    assert s.recall == pytest.approx(1.0)
    assert s.f1 == pytest.approx(0.8)


def test_overlap_order_matters():
    # Sequence overlap: the swapped half counts once.
    s = overlap("one two three four", "three four one two")
    assert s.intersection == 2
    assert s.precision == s.recall == s.f1 == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("gold", "out", "case", "p", "r", "f"),
    [
        ("", "some text", "gold_empty", 0.0, None, 0.0),
        ("some text", "", "output_empty", None, 0.0, 0.0),
        ("", " ... ", "both_empty", 1.0, 1.0, 1.0),
        ("some text", "other words", "no_overlap", 0.0, 0.0, 0.0),
        ("some text", None, "failed", None, None, None),
    ],
)
def test_overlap_boundary_cases(gold, out, case, p, r, f):
    s = overlap(gold, out)
    assert (s.case, s.precision, s.recall, s.f1) == (case, p, r, f)


def test_overlap_summary_counts_cases_apart():
    scores = [overlap("a b", "a b"), overlap("a b c d", "a b"), overlap("a", "z"),
              overlap("a", ""), overlap("", ""), overlap("a", None)]
    s = summarize(scores)
    assert s.documents == 6
    assert s.cases == {"ok": 2, "no_overlap": 1, "output_empty": 1, "both_empty": 1, "failed": 1}
    assert s.precision == pytest.approx((1 + 1 + 0) / 3)
    assert s.recall == pytest.approx((1 + 0.5 + 0) / 3)
    assert s.f1 == pytest.approx((1 + 2 / 3 + 0) / 3)
    assert s.f1_all == pytest.approx((1 + 2 / 3 + 0 + 0 + 1 + 0) / 6)


def _random_tokens(rng: random.Random, n: int, vocabulary: int) -> list[str]:
    # Zipf-like: a few very frequent tokens, as in text.
    return [f"w{min(int(rng.paretovariate(1.2)), vocabulary)}" for _ in range(n)]


def test_matching_blocks_equals_difflib_on_random_sequences():
    rng = random.Random(7)
    for _ in range(80):
        a = _random_tokens(rng, rng.randint(0, 300), rng.choice((3, 20, 200)))
        b = list(a)
        for _ in range(rng.randint(0, 30)):  # edits: insertions, deletions, moves
            op = rng.random()
            pos = rng.randint(0, len(b))
            if op < 0.4:
                b[pos:pos] = _random_tokens(rng, rng.randint(1, 20), 50)
            elif op < 0.8:
                del b[pos:pos + rng.randint(1, 20)]
            else:
                b = b[pos:] + b[:pos]
        assert matching_blocks(a, b) == difflib_matching_blocks(a, b)
        assert matching_blocks(b, a) == difflib_matching_blocks(b, a)


def test_suffix_automaton_equals_dynamic_programme():
    rng = random.Random(11)
    for _ in range(400):
        a = [rng.randint(0, 4) for _ in range(rng.randint(0, 40))]
        b = [rng.randint(0, 4) for _ in range(rng.randint(0, 40))]
        b2j: list[list[int]] = [[] for _ in range(5)]
        for j, t in enumerate(b):
            b2j[t].append(j)
        alo, ahi = sorted(rng.randint(0, len(a)) for _ in range(2))
        blo, bhi = sorted(rng.randint(0, len(b)) for _ in range(2))
        dp = _longest_match(a, b, b2j, alo, ahi, blo, bhi)
        sam = _longest_match_automaton(a, b, alo, ahi, blo, bhi)
        assert dp[2] == sam[2]
        if dp[2]:
            assert dp == sam
        ref = difflib.SequenceMatcher(None, a, b, autojunk=False).find_longest_match(alo, ahi, blo, bhi)
        assert dp[2] == ref.size and (not ref.size or dp[:2] == (ref.a, ref.b))


@pytest.mark.corpus
@pytest.mark.slow
def test_matching_blocks_equals_difflib_on_real_pages():
    if not (CORPORA / "dragnet" / "html").is_dir():
        pytest.skip(ABSENT)
    import kitten

    checked = 0
    for corpus in ("dragnet", "cleaneval-final"):
        for _, path, gold in list(corpus_pages(CORPORA, corpus))[:60:6]:
            if gold is None or not gold.blocks:
                continue
            a = tokenize(gold.text)
            b = tokenize(kitten.extract(path.read_bytes()))
            if len(a) * len(b) > 4e7:  # keep difflib's side of the test short
                continue
            assert matching_blocks(a, b) == difflib_matching_blocks(a, b), path
            checked += 1
    assert checked >= 10


# =========================================================================== segmentation

_TOY_BOUNDARY = re.compile(r"(?<=[.!?])\s+(?=\S)")


def toy_split(text: str) -> list[int]:
    """A splitter for the tests: a break after . ! ? followed by white space."""
    return [m.end() for m in _TOY_BOUNDARY.finditer(text)]


@pytest.fixture(params=["toy", "pysbd"])
def split(request):
    if request.param == "toy":
        return toy_split
    pytest.importorskip("pysbd")
    from kitten.evaluation.segmentation import pysbd_splitter

    return pysbd_splitter()


TITLE_AND_BODY = [GoldBlock("h", "A Title"), GoldBlock("p", "This is the body of the page. It has two sentences.")]


def test_glued_title_is_one_missed_boundary(split):
    s = score_segmentation(TITLE_AND_BODY, "A Title\nThis is the body of the page. It has two sentences.", split)
    assert (s.boundary_pairs, s.missed, s.false, s.colon_pairs) == (1, 1, 0, 0)
    assert s.missed_rate == 1.0 and s.false_rate == 0.0
    assert s.aligned_tokens == s.gold_tokens == 13 and s.coverage == 1.0


def test_floor_closes_the_title(split):
    text = floor_text(TITLE_AND_BODY)
    assert text == "A Title.\nThis is the body of the page. It has two sentences."
    s = score_segmentation(TITLE_AND_BODY, text, split)
    assert (s.boundary_pairs, s.missed, s.false) == (1, 0, 0)


def test_sentence_broken_in_two_is_one_false_boundary(split):
    gold = [GoldBlock("p", "This sentence is broken in the middle of it.")]
    s = score_segmentation(gold, "This sentence is broken. In the middle of it.", split)
    assert (s.within_pairs, s.false) == (8, 1)
    assert s.false_rate == pytest.approx(1 / 8)
    assert s.boundary_pairs == 0 and s.missed_rate is None


def test_colon_ended_block_and_the_list_it_introduces_are_counted_apart(split):
    gold = [GoldBlock("p", "You need:"), GoldBlock("l", "two eggs"), GoldBlock("l", "some flour"),
            GoldBlock("p", "Mix them"), GoldBlock("l", "then bake")]
    s = score_segmentation(gold, "You need: two eggs some flour Mix them then bake", split)
    assert (s.colon_pairs, s.list_pairs, s.list_missed) == (1, 1, 1)
    assert (s.boundary_pairs, s.missed) == (2, 2)  # flour|Mix and them|then still count
    assert s.strict_missed_rate == 1.0


def test_unaligned_joining_tokens_are_not_counted(split):
    gold = [GoldBlock("h", "Title"), GoldBlock("p", "Body text here.")]
    s = score_segmentation(gold, "Body text here.", split)
    assert s.boundary_pairs == 0 and s.aligned_tokens == 3 and s.coverage == pytest.approx(0.75)


def test_long_sentence_share(split):
    words = " ".join(f"word{i}" for i in range(90))
    gold = [GoldBlock("p", words + "."), GoldBlock("p", "Short one.")]
    s = score_segmentation(gold, words + ". Short one.", split)
    assert s.long_tokens == 90 and s.aligned_tokens == 92
    assert s.long_share == pytest.approx(90 / 92)


def test_failed_and_empty_outputs():
    side = prepare_gold(TITLE_AND_BODY, toy_split)
    failed = score_output(side, None, toy_split)
    empty = score_output(side, "", toy_split)
    assert failed.failed and failed.aligned_tokens == 0
    assert not empty.failed and empty.output_tokens == 0
    good = score_output(side, floor_text(TITLE_AND_BODY), toy_split)
    total = summarize_segmentation([failed, empty, good])
    assert (total.pages, total.failed, total.empty) == (3, 1, 1)
    assert total.boundary_pairs == 1 and total.missed_rate == 0.0
    assert total.coverage == pytest.approx(13 / 39)


def test_gold_sentences_come_from_each_block():
    side = prepare_gold(["Intro:", "One. Two three", "  "], toy_split)
    assert side.tokens == ["intro", "one", "two", "three"]
    assert side.block_of == [0, 1, 1, 1]
    assert side.sentence_of == [0, 1, 2, 2]
    assert side.colon_ended == [True, False]


def test_floor_text_punctuation():
    assert floor_text(["Title", "Done!", "Really?", "He said \"no.\"", "(See it.)", "Wait\u2026",
                       "List:", "   "]) == 'Title.\nDone!\nReally?\nHe said "no."\n(See it.)\nWait\u2026\nList:.'


def test_sentence_offsets_tolerates_lost_text():
    text = "One two. Three four. Five."
    assert sentence_offsets(text, ["One two. ", "Three four. ", "Five."]) == [9, 21]
    # A splitter that altered a sentence: the others still place their breaks.
    assert sentence_offsets(text, ["One two. ", "THREE four. ", "Five."]) == [21]
    assert sentence_offsets("  ", []) == []


def test_collapse_whitespace():
    assert collapse_whitespace("a\n\n b\t\x0bc ") == "a b c"
