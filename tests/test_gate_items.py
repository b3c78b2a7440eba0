"""Repeated items (a thread's posts, a listing's cards) and the gate's rule that keeps a run
of them whole on pages whose kind is a list of things; the web2025 gold reader."""
from __future__ import annotations

from kitten.boilerplate.items import repeated_items
from kitten.boilerplate.keep_rules import code_units, with_body_prose, with_code, with_items, with_sibling_prose
from kitten.config import Config
from kitten.evaluation.gold import parse_web2025, reader_for
from kitten.log import PageLog
from kitten.page import Page
from kitten.pipeline import run_page

CARD = ('<li class="card"><h3><a href="/p/{n}">Story number {n} about the harbour works</a></h3>'
        '<p>A short summary of story {n}, which says what happened at the harbour this week.</p></li>')
TAGS = '<ul class="tags">' + "".join(f'<li class="item"><a href="/{w}">{w}</a></li>' for w in
                                     ("Home", "News", "Sport", "Contact")) + "</ul>"
LISTING = (f'<html><body><div class="side">{TAGS}</div><main><h1>Latest stories</h1><ul class="cards">'
           + "".join(CARD.format(n=n) for n in range(1, 7)) + '</ul></main>'
           '<footer><p>Copyright 2025 Example</p></footer></body></html>')


def document(html: str):
    return run_page(Page(html.encode(), "t.html"), Config(), "json").products["structure"]


def test_repeated_items_group_the_cards_and_the_tags_apart() -> None:
    doc = document(LISTING)
    runs = repeated_items(doc.blocks)
    texts = [" ".join(b.text().split()) for b in doc.blocks]
    by_size = sorted(runs, key=lambda r: r.items)
    tags, cards = by_size[0], by_size[-1]
    assert tags.items == 4 and [texts[i] for i in tags.units] == ["Home", "News", "Sport", "Contact"]
    assert cards.items == 6 and len(cards.units) == 12  # a title and a summary per card
    assert cards.item_of[:4] == (0, 0, 1, 1)
    assert all(texts[i] != "Latest stories" for r in runs for i in r.units)


def test_a_run_with_one_kept_card_is_kept_whole_and_logged() -> None:
    doc = document(LISTING)
    units = doc.blocks
    texts = [" ".join(b.text().split()) for b in units]
    words = [len(t.split()) for t in texts]
    first = texts.index("Story number 1 about the harbour works")
    labels = ["header" if i == first else "other" for i in range(len(units))]
    probs = [0.9 if i == first else 0.2 if "tory" in t else 0.0 for i, t in enumerate(texts)]
    log = PageLog()
    out = with_items(units, labels, probs, words, log)
    kept = {texts[i] for i, lab in enumerate(out) if lab != "other"}
    assert {f"Story number {n} about the harbour works" for n in range(1, 7)} <= kept
    assert "Home" not in kept and "Copyright 2025 Example" not in kept
    assert log.of_kind("items")
    # a list of links (items of one word) is never kept by the rule, even with a kept item
    menu_labels = ["paragraph" if t == "Home" else lab for t, lab in zip(texts, labels)]
    again = with_items(units, menu_labels, [0.5 if t in ("Home", "News") else p for t, p in zip(texts, probs)],
                       words, PageLog())
    assert [texts[i] for i, lab in enumerate(again) if lab != "other" and texts[i] in ("News", "Sport")] == []


def test_a_run_the_crf_gives_no_chance_stays_out() -> None:
    doc = document(LISTING)
    texts = [" ".join(b.text().split()) for b in doc.blocks]
    first = texts.index("Story number 1 about the harbour works")
    labels = ["header" if i == first else "other" for i in range(len(texts))]
    probs = [0.9 if i == first else 0.0 for i in range(len(texts))]
    out = with_items(doc.blocks, labels, probs, [len(t.split()) for t in texts], PageLog())
    assert out == labels


def test_web2025_gold_reads_paragraphs_and_leaves_the_title_out() -> None:
    text = ('{"url": "https://x.org/t/1", "page_type": "forum", "title": "A thread",'
            ' "main_content": "First post\\nwrapped here.\\n\\n\\nA reply.", "with": [], "without": []}')
    gold = parse_web2025(text)
    assert [b.text for b in gold.blocks] == ["First post wrapped here.", "A reply."]
    assert gold.url == "https://x.org/t/1" and "A thread" not in gold.text
    assert reader_for("web2025") is parse_web2025
    assert parse_web2025('{"main_content": ""}').blocks == []


ARTICLE = ("<html><body><h1>Big news of the day</h1><figure><img src='a.jpg'/><figcaption>A photo of the harbour "
           "at dawn.</figcaption></figure><p>The harbour was closed on Monday after the storm, and the ships "
           "waited outside for two days.</p><p>It opened again on Wednesday morning, when the wind had dropped "
           "and the pilots could board.</p></body></html>")


def test_presets_switch_the_gate_on_with_or_without_headline_and_captions(tmp_path, capsys) -> None:
    from kitten.cli import main

    page = tmp_path / "a.html"
    page.write_text(ARTICLE, encoding="utf-8")
    texts = {}
    for preset in ("main", "article"):
        assert main(["extract", str(page), "--preset", preset]) == 0
        texts[preset] = capsys.readouterr().out
    assert "Big news of the day." in texts["main"] and "A photo of the harbour" in texts["main"]
    assert "Big news" not in texts["article"] and "A photo" not in texts["article"]
    assert "The harbour was closed on Monday" in texts["article"]
    with __import__("pytest").raises(SystemExit) as exc:
        main(["extract", str(page), "--preset", "nonsense"])
    assert exc.value.code == 2


def test_prose_after_kept_prose_is_kept_across_a_heading_until_a_unit_ruled_out() -> None:
    from kitten.boilerplate.keep_rules import with_following_prose

    # kept lead, a heading, two paragraphs the CRF is unsure of, a teaser it rules out, more prose
    labels = ["paragraph", "other", "other", "other", "other", "other"]
    prose = [30, 0, 25, 22, 0, 40]
    words = [30, 3, 25, 22, 2, 40]
    probs = [0.7, 0.1, 0.25, 0.16, 0.01, 0.3]
    out = with_following_prose(labels, prose, words, probs)
    assert out[:4] == ["paragraph", "other", "paragraph", "paragraph"]
    assert out[5] == "paragraph"  # one short line between is crossed
    assert with_following_prose(labels, prose, words, [0.7, 0.1, 0.05, 0.16, 0.01, 0.3])[2:4] == ["other", "other"]
    # two short lines end the run
    assert with_following_prose(["paragraph", "other", "other", "other"], [30, 0, 0, 25], [30, 2, 2, 25],
                                [0.7, 0.1, 0.1, 0.5]) == ["paragraph", "other", "other", "other"]


def test_a_description_written_twice_is_kept_once() -> None:
    from kitten.boilerplate.drop_rules import without_repeats

    texts = ["Make each cup feel special with a mug.", "Handmade stoneware.", "Size: 9 cm",
             "Make each cup  feel special with a mug.", "Handmade stoneware.", "Add to cart"]
    labels = ["paragraph"] * 5 + ["other"]
    assert without_repeats(labels, texts) == ["paragraph", "paragraph", "paragraph", "other", "paragraph", "other"]


def test_a_run_of_items_is_kept_when_the_gate_keeps_next_to_nothing_and_the_fallback_is_logged() -> None:
    doc = document(LISTING)
    texts = [" ".join(b.text().split()) for b in doc.blocks]
    labels = ["header" if t == "Latest stories" else "other" for t in texts]
    probs = [0.2 if "tory" in t else 0.0 for t in texts]
    log = PageLog()
    out = with_items(doc.blocks, labels, probs, [len(t.split()) for t in texts], log)
    kept = {texts[i] for i, lab in enumerate(out) if lab != "other"}
    assert {f"Story number {n} about the harbour works" for n in range(1, 7)} <= kept
    (event,) = log.of_kind("boilerplate-fallback")
    assert event.message.startswith("items:")


def test_a_code_block_is_kept_whole_and_an_example_between_kept_paragraphs_is_kept() -> None:
    """Code units: a <pre>, or inside <pre>/<code> (the features name them)."""
    own = [["tag.p"], ["tag.div", "container.pre", "container.code"], ["tag.div", "container.pre"],
           ["tag.div", "container.code"], ["tag.p"], ["tag.p"], ["tag.pre"], ["tag.p"], ["tag.pre"]]
    code = [("tag.pre" in f or "container.pre" in f or "container.code" in f) for f in own]
    with_pre = document("<html><body><p>Set the value first.</p><pre>x = 1</pre></body></html>").blocks
    assert code_units(with_pre, [["tag.p"], ["tag.pre"]]) == [False, True]
    # a page without <pre> or <code> has no code unit, whatever the features say (asked of the tree first)
    without = document("<html><body><p>Set the value first.</p><p>x = 1</p></body></html>").blocks
    assert code_units(without, [["tag.p"], ["tag.pre"]]) == [False, False]
    assert code == [False, True, True, True, False, False, True, False, True]
    labels = ["paragraph", "paragraph", "other", "other", "paragraph", "paragraph", "other", "paragraph", "other"]
    probs = [0.9, 0.8, 0.1, 0.0, 0.9, 0.9, 0.2, 0.9, 0.01]
    out = with_code(labels, code, probs)
    assert out[2] == out[3] == "paragraph"  # the closing lines of a block with a kept line
    assert out[6] == "paragraph"  # an example between kept paragraphs, with some chance
    assert out[8] == "other"  # after the last kept unit: no kept text beyond it
    assert with_code(["other"] * 9, code, probs) == ["other"] * 9


RICH = ("<div class='section'><div class='rich-text'>{}</div></div>")
SENTENCE = "<p>Caterers now offer tasting menus that change with the seasons and the guests' wishes.</p>"


def test_an_article_in_several_rich_text_containers_is_kept_in_all_of_them() -> None:
    """A site builder writes each section in a container of its own, all alike: a container
    beside one holding kept sentences, with the same tag and class, holds the article too."""
    html = ("<html><body><main>" + RICH.format(SENTENCE * 3) + RICH.format("<h2>More</h2>" + SENTENCE * 2)
            + "<div class='promo'><p>Book a demo with us today and see how it works for you.</p></div>"
            + "</main></body></html>")
    doc = document(html)
    units = doc.blocks
    texts = [" ".join(b.text().split()) for b in units]
    words = [len(t.split()) for t in texts]
    prose = [w if w >= 8 else 0 for w in words]
    labels = ["paragraph" if i < 3 else "other" for i in range(len(units))]
    out = with_sibling_prose(units, labels, prose, words, [0.05] * len(units))
    kept = [t for t, lab in zip(texts, out) if lab != "other"]
    assert len(kept) == 5 and all(t.startswith("Caterers") for t in kept)
    # a container holding fewer kept sentences does not reach its look-alikes
    few = with_sibling_prose(units, ["paragraph" if i < 2 else "other" for i in range(len(units))],
                             prose, words, [0.05] * len(units))
    assert sum(lab != "other" for lab in few) == 3  # its own third sentence only


WRAPPED = "<div class='w'><p>{}</p></div>"
SAGGING = [f"Paragraph {n} of the post explains the gallery and why it was made this way." for n in range(7)]


def test_sentences_between_sure_paragraphs_of_the_body_are_kept_and_nothing_outside_it() -> None:
    """A post written one wrapper a paragraph: the CRF's probability sags in its middle.
    Between the first and the last paragraph it is fairly sure of, inside the element that
    holds most of the kept prose, a sentence it gives some chance is kept; a sentence it
    rules out, a line without a sentence and the sentences outside the body are not."""
    html = ("<html><body><main><div class='post'>" + "".join(WRAPPED.format(t) for t in SAGGING[:5])
            + "<div class='w'><p>Short line</p></div>" + WRAPPED.format(SAGGING[5]) + "</div>"
            "<aside><p>Another site explains its own gallery and why it was made that way.</p></aside>"
            "<div class='post'>" + WRAPPED.format(SAGGING[6]) + "</div></main></body></html>")
    units = document(html).blocks
    texts = [" ".join(b.text().split()) for b in units]
    words = [len(t.split()) for t in texts]
    prose = [w if w >= 8 and t.endswith(".") else 0 for t, w in zip(texts, words)]
    assert texts[:5] == SAGGING[:5] and texts[5] == "Short line" and texts[7].startswith("Another")
    labels = ["paragraph", "other", "paragraph", "other", "other", "other", "paragraph", "other", "paragraph"]
    probs = [0.9, 0.05, 0.9, 0.001, 0.02, 0.05, 0.7, 0.5, 0.6]
    out = with_body_prose(units, labels, prose, probs)
    # the body is the first post (three of the four kept paragraphs): the aside and the
    # second post lie between the sure paragraphs but outside it
    assert out == ["paragraph", "paragraph", "paragraph", "other", "paragraph", "other", "paragraph", "other",
                   "paragraph"]
    # one sure paragraph is no span; a paragraph kept on a low probability is no anchor
    assert with_body_prose(units, ["paragraph"] + ["other"] * 8, prose, probs) == ["paragraph"] + ["other"] * 8
    low = with_body_prose(units, labels, prose, probs[:2] + [0.2] + probs[3:6] + [0.2, 0.5, 0.2])
    assert low == labels
