"""The lists step (kitten/lists.py): the paper's two examples, each rule and setting,
the typology in ``Document.lists``, the language detector; and, marked ``corpus``, the
agreement of the rules with the annotated lists of corpora/lists/ (>= 95%)."""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

import kitten
from kitten import lists
from kitten.config import Config, ConfigError, ListsConfig
from kitten.language import detect
from kitten.lists import LINK_ITEM_REMOVED, TYPES, read_lists
from kitten.log import PageLog
from kitten.page import Page
from kitten.pipeline import run_page
from kitten.structure import build_document, parse_xhtml

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "lists"
from _corpora import ABSENT, CORPORA, corpus_pages  # noqa: E402  (the shared corpora: tests/_corpora.py)


def lines(html: str | bytes, **lists) -> list[str]:
    config = Config.from_dict({"lists": lists}) if lists else None
    return kitten.extract(html, config=config).splitlines()


def run(html: str | bytes, **lists):
    config = Config.from_dict({"lists": lists}) if lists else Config()
    r = run_page(Page(html.encode() if isinstance(html, str) else html), config, "text")
    assert r.status == "done", r.error
    return r


def readings(html: str, **lists) -> list[dict]:
    return [x.as_dict() for x in run(html, **lists).products["lists"]]


# --------------------------------------------------------------------------- the paper's examples


def test_paper_wedding_dress_list_becomes_one_sentence() -> None:
    out = lines((FIXTURES / "wedding-dress.html").read_bytes())
    assert out == [
        "Choosing a wedding dress for your body shape.",
        "Every bride wants a dress that flatters her figure.",
        "The following list contains the body shapes you need to consider: Hourglass-shaped brides, "
        "Pear-shaped brides, Petite brides, Plus-size brides, Tall brides.",
        "Each shape suits a different cut of dress.",
    ]


def test_paper_college_list_repeats_its_clause() -> None:
    out = lines((FIXTURES / "college.html").read_bytes())
    assert out == [
        "Paying for college.",
        "Before selecting a college, parents need to determine how much funding they can provide for "
        "tuition, housing and books over four years.",
        "Before selecting a college, parents need to explore the availability of scholarships, grants "
        "and work-study programs at each college.",
        "Before selecting a college, parents need to compare the financial aid offers of the colleges "
        "that have admitted their child.",
        "Planning early makes the choice easier.",
    ]


def test_paper_examples_are_typed_and_logged() -> None:
    r = run((FIXTURES / "wedding-dress.html").read_bytes())
    by_type = {x.type: x.as_dict() for x in r.products["lists"]}
    assert set(by_type) == {"link", "flattened-sentence"}
    assert by_type["link"]["removed"] == ["Home", "Dresses", "Veils and accessories", "Contact us"]
    assert by_type["flattened-sentence"]["clause"] == (
        "The following list contains the body shapes you need to consider:")
    removed = [(e.message, e.where) for e in r.log if e.kind == LINK_ITEM_REMOVED]
    assert removed == [(t, "/html/body/ul[1]") for t in by_type["link"]["removed"]]
    college = run((FIXTURES / "college.html").read_bytes()).products["lists"][0]
    assert (college.type, college.tag, college.locator) == ("repeated-clause", "ol", "/html/body/ol")
    assert "'need to'" in college.rule


def test_french_page_detected_and_its_triggers_used() -> None:
    r = run((FIXTURES / "french.html").read_bytes())
    assert r.products["structure"].lang == "fr"  # no lang attribute: the detector
    assert r.output.splitlines() == [
        "Le choix d'une université est une étape importante pour les étudiants et pour leurs parents, "
        "qui doivent souvent financer une partie des études.",
        "Avant de choisir une université, les parents doivent savoir combien ils peuvent consacrer aux "
        "frais d'inscription et au logement.",
        "Avant de choisir une université, les parents doivent se renseigner sur les bourses et les aides "
        "proposées par la région.",
        "Les pièces à fournir : une photo, une copie du bac, un relevé de notes.",
    ]


# --------------------------------------------------------------------------- 1. link lists


def test_short_link_items_of_link_lists_are_removed_long_ones_kept() -> None:
    html = ("<p>Intro.</p><ul><li><a href='/a'>Home</a></li><li><a href='/b'>Contact us</a> |</li>"
            "<li><a href='/c'>Read the whole story of our small company</a></li>"
            "<li><a href='/d'>Sports</a> (12)</li></ul>")
    assert lines(html) == ["Intro.", "Read the whole story of our small company."]
    (reading,) = readings(html)
    assert reading["type"] == "link"
    assert reading["removed"] == ["Home", "Contact us |", "Sports (12)"]


def test_link_items_of_content_lists_are_kept() -> None:
    html = ("<p>Here are the tools you'll need:</p><ul><li><a href='/book'>Milk Bar cookbook</a></li>"
            "<li>a quarter sheet pan</li><li>a six inch cake ring</li></ul>")
    assert lines(html) == ["Here are the tools you'll need: Milk Bar cookbook, a quarter sheet pan, "
                           "a six inch cake ring."]


def test_script_links_and_named_anchors() -> None:
    # the normalizer drops data-href: a bare <a> is a script link; <a name> is an anchor
    assert lines("<ul><li><a data-href='x'>Se connecter</a></li><li><a>S'inscrire</a></li></ul>") == []
    assert lines("<ul><li><a name='a'>First point</a></li><li><a name='b'>Second</a></li></ul>") == [
        "First point.", "Second."]


@pytest.mark.parametrize("text", ["", "Home (12) |", "Café » Müller 2024", "Съешь же ещё 1234",
                                  "x² ½ ٣ 中文 _a_", "".join(map(chr, range(0, 0x3000, 7)))])
def test_letter_counts_are_those_of_the_character_classes(text: str) -> None:
    # link_letters counts with _count, which must agree with a findall of each class
    assert lists._count(text, lists._NOT_LETTER_RUN, lists._NOT_LETTER_ASCII) == len(lists._LETTER.findall(text))
    assert lists._count(text, lists._NOT_ALNUM_RUN, lists._NOT_ALNUM_ASCII) == len(lists._ALNUM.findall(text))


@pytest.mark.parametrize("text", ["", ",", "a, and", "x; OR ", "bread and;", "tea, et/ou", "X, ou\n", "Land",
                                  "one, and/or", "end ;\u2028", "a, an\u212a", "o, ı", "\xa0,", "x, ｏｒ", "gold"])
def test_trailing_conjunction_is_the_search(text: str) -> None:
    # the quick test on the last characters never misses what the search finds
    assert bool(lists._trailing_conjunction(text)) == bool(lists._TRAILING_CONJUNCTION.search(text))
    for c in map(chr, range(0x3000)):
        for t in (text + c, ", o" + c, c + "nd;"):
            assert bool(lists._trailing_conjunction(t)) == bool(lists._TRAILING_CONJUNCTION.search(t)), t


def test_the_c_link_letters_are_the_walks() -> None:
    """``link_letters`` (C, ``kitten/_links.c``) counts as ``walk_link_letters`` (Python) on
    every element of made-up edge cases and of real pages."""
    if lists._links is None:
        pytest.skip("kitten._links is not built")
    pages = [("<ul><li>a<!--c-->b<?p q?><a href='x'>L<b>M</b>N</a>T<![CDATA[q]]></li>"
              "<li><a name='n'>anchor <a href='y'>link 2</a> é</a> x² ½ ٣ 中文 _u_ 12</li>"
              "<li>x<ul><li><a>in</a></li></ul><script>s</script><a onclick='f()'>on</a>y</li>"
              "<li><a id='i'><b>only an anchor</b></a><noscript><a href='z'>ns</a></noscript></li></ul>")]
    pages += [p.read_text(encoding="utf-8") for p in corpus_pages("dragnet", 20)]
    n = 0
    for html in pages:
        root = parse_xhtml(kitten.normalize(html).xhtml)
        for el in root.iter():
            assert lists.link_letters(el) == lists.walk_link_letters(el), el
            n += 1
    assert n > 10


def test_menu_with_sub_menus_is_a_link_list() -> None:
    html = ("<ul><li>Sections<ul><li><a href='/1'>World</a></li><li><a href='/2'>Sport</a></li></ul></li>"
            "<li>Services<ul><li><a href='/3'>Jobs</a></li><li><a href='/4'>Shop</a></li></ul></li></ul>")
    assert [x["type"] for x in readings(html)] == ["link", "link", "link"]
    assert lines(html) == ["Sections.", "Services."]


def test_link_removal_can_be_switched_off() -> None:
    html = "<ul><li><a href='/a'>Home</a></li><li><a href='/b'>News</a></li></ul>"
    assert lines(html) == []
    assert lines(html, remove_link_items=False) == ["Home.", "News."]
    assert lines(html, link_item_words=1) == ["Home.", "News."]  # fewer than one word: none


# --------------------------------------------------------------------------- 2. bullets


@pytest.mark.parametrize("bullet", ["* ", "- ", "• ", "·", "> ", "1. ", "12) ", "a) ", "(b) ", "iv. ",
                                    "II. ", "» ", "– "])
def test_hand_written_bullets_are_removed(bullet: str) -> None:
    assert lines(f"<ul><li>{bullet}first thing</li><li>{bullet}second thing</li></ul>") == [
        "first thing.", "second thing."]


@pytest.mark.parametrize("text", ["-5 degrees at night", "1.5 million people", "J. Smith wrote it",
                                  "e.g. this one", "A. Lincoln"])
def test_text_that_only_looks_like_a_bullet_is_kept(text: str) -> None:
    assert lines(f"<ul><li>{text}</li></ul>") == [f"{text}."]


def test_bullets_can_be_kept() -> None:
    assert lines("<ul><li>* one</li></ul>", remove_bullets=False) == ["* one."]


# --------------------------------------------------------------------------- 3. flattening


def test_item_marks_kept_in_one_sentence() -> None:
    html = ("<p>You can rest assured that:</p><ul><li>I've heard it before; and</li>"
            "<li>it was fine,</li><li>Really?</li><li>I didn't care (really!)</li></ul>")
    # the flattened sentence keeps the items' marks; the sentence splitter then ends it
    # after "Really?" (a final mark inside brackets ends it too)
    assert lines(html) == ["You can rest assured that: I've heard it before; and it was fine, Really?",
                           "I didn't care (really!)"]


def test_long_items_become_sentences_and_the_clause_stays() -> None:
    long = "a fairly long description of the component that goes on for a while"
    html = (f"<p>The system has three parts:</p><ul><li>The frontend, {long};</li>"
            f"<li>The store, {long} -</li><li>The queue, {long} (see below),</li></ul>")
    assert lines(html) == [
        "The system has three parts:",
        f"The frontend, {long}.",
        f"The store, {long} -.",  # dashes and brackets are kept, the stop added after them
        f"The queue, {long} (see below).",
    ]
    (reading,) = readings(html)
    assert reading["type"] == "flattened-items"


def test_last_item_ending_with_a_colon_keeps_it() -> None:
    html = ("<p>5. Hemolysis:</p><ul><li>Classification is based on:</li></ul>"
            "<ul><li>site of hemolysis</li><li>mechanism</li></ul>")
    assert lines(html)[0] == "5. Hemolysis: Classification is based on:"


def test_only_the_last_sentence_of_the_block_is_the_clause() -> None:
    html = ("<p>Dr. Smith has seen many patients. These symptoms include:</p>"
            "<ul><li>fever</li><li>cough</li></ul>")
    assert lines(html) == ["Dr. Smith has seen many patients.", "These symptoms include: fever, cough."]
    html = "<p>Opening times<br/><br/>Bring with you:</p><ul><li>a pen</li><li>a form</li></ul>"
    assert lines(html) == ["Opening times.", "Bring with you: a pen, a form."]


def test_no_clause_no_colon_plain_and_ordered_lists() -> None:
    html = "<p>Some colours</p><ol><li>1. red</li><li>2. green</li></ol><ul><li>blue</li></ul>"
    assert lines(html) == ["Some colours.", "red.", "green.", "blue."]
    assert [x["type"] for x in readings(html)] == ["plain", "plain"]


def test_flattening_can_be_switched_off() -> None:
    html = "<p>Bring:</p><ul><li>a pen</li><li>a form</li></ul>"
    assert lines(html, flatten=False) == ["Bring:", "a pen.", "a form."]
    assert lines(html, short_item_chars=3) == ["Bring:", "a pen.", "a form."]
    assert lines(html, enabled=False) == ["Bring:", "a pen.", "a form."]


# --------------------------------------------------------------------------- 4. repetition


def test_trigger_phrases_repeat_the_clause() -> None:
    html = "<p>You should not:</p><ul><li>smoke</li><li>run in the corridors</li></ul>"
    assert lines(html) == ["You should not smoke.", "You should not run in the corridors."]
    assert lines(html, repeat_clause=False) == ["You should not: smoke, run in the corridors."]


def test_no_repetition_before_labels_or_sentences() -> None:
    html = ("<p>Sort everything into:</p><ul><li>Need: you use it every day.</li>"
            "<li>Want: you bought it because you wanted it.</li></ul>")
    assert lines(html) == ["Sort everything into: Need: you use it every day.",  # then split in sentences
                           "Want: you bought it because you wanted it."]
    html = ("<p>For many reasons, such as:</p><ul><li>The Church has much to learn.</li>"
            "<li>We may influence other bodies.</li></ul>")
    assert readings(html)[0]["type"] == "flattened-sentence"


def test_language_without_trigger_file_gets_no_repetition() -> None:
    html = "<html lang='de'><body><p>Man muss:</p><ul><li>lesen</li><li>schreiben</li></ul></body></html>"
    assert lines(html) == ["Man muss: lesen, schreiben."]


# --------------------------------------------------------------------------- 5. definitions


def test_definition_pairs() -> None:
    html = ("<dl><dt>Phone</dt><dd>555 1234</dd><dt>Fax:</dt><dd>555 999</dd>"
            "<dt>Mail</dt><dt>E-mail</dt><dd>info@example.org</dd>"
            "<dt>Why?</dt><dd>Because.</dd><dt>Alone</dt></dl>")
    assert lines(html) == ["Phone: 555 1234.", "Fax: 555 999.", "Mail, E-mail: info@example.org.",
                           "Why?", "Because.", "Alone."]
    assert readings(html)[0]["type"] == "definition"
    assert lines(html, definitions=False)[:2] == ["Phone.", "555 1234."]


# --------------------------------------------------------------------------- 6. nested, tables


def test_nested_list_inner_clause_is_the_parent_item() -> None:
    html = "<ul><li>Fruits:<ul><li>apples</li><li>pears</li></ul></li><li>Vegetables</li></ul>"
    assert lines(html) == ["Fruits: apples, pears.", "Vegetables."]
    assert [(x["type"], x["locator"]) for x in readings(html)] == [
        ("nested", "/html/body/ul"), ("flattened-sentence", "/html/body/ul/li[1]/ul")]


def test_lists_inside_layout_table_cells() -> None:
    html = ("<table><tr><td><p>Requirements:</p><ul><li>a diploma</li><li>a licence</li></ul></td>"
            "<td><ul><li><a href='/'>Home</a></li><li><a href='/x'>About</a></li></ul></td></tr></table>")
    out = lines(html)
    assert "Requirements: a diploma, a licence." in out
    assert "Home." not in out


# --------------------------------------------------------------------------- the step itself


def test_read_lists_is_pure() -> None:
    xhtml = kitten.normalize("<p>Bring:</p><ul><li>* a pen</li><li>a form</li><li><a href='/'>ID</a></li></ul>").xhtml
    doc = build_document(parse_xhtml(xhtml), Config().structure, PageLog())
    before = [(b.kind, list(b.inlines)) for b in doc.blocks]
    new = read_lists(doc, ListsConfig(), PageLog())
    assert [(b.kind, list(b.inlines)) for b in doc.blocks] == before and doc.lists == []
    assert new is not doc and [b.kind for b in new.blocks] == ["list"]


def test_json_output_has_the_list_readings() -> None:
    r = run_page(Page(b"<p>Bring:</p><ul><li>a pen</li><li>a form</li></ul>"), Config(), "json")
    data = json.loads(r.output)
    assert data["lists"] == [{"locator": "/html/body/ul", "tag": "ul", "type": "flattened-sentence",
                              "rule": "median item length 5.5 < 60: one sentence", "clause": "Bring:",
                              "items": 2, "removed": [], "bullets": 0,
                              "item_texts": [{"text": "a pen", "decision": "kept"},
                                             {"text": "a form", "decision": "kept"}]}]
    assert data["sentences"] == [{"text": "Bring: a pen, a form.", "locator": "/html/body/ul", "kind": "list",
                                  "original": "/html/body/ul", "start": 0, "end": 21}]
    assert {x["type"] for x in data["lists"]} <= set(TYPES)


def test_config_checks() -> None:
    with pytest.raises(ConfigError):
        Config.from_dict({"lists": {"link_list_share": 0}})
    with pytest.raises(ConfigError):
        Config.from_dict({"lists": {"short_item_chars": -1}})


# --------------------------------------------------------------------------- language


def test_detector_scores_are_each_languages_count() -> None:
    """``detect`` looks each word up once (``_STOP_WORD_LANGUAGES``) and decides as counting
    each language's words one list after another would, ties included."""
    import random

    from kitten import language

    def by_lists(text: str, min_hits: int, margin: float) -> str | None:
        words = text.lower().split()
        scores = {lang: sum(map(stop.__contains__, words)) for lang, stop in language.STOP_WORDS.items()}
        (best, first), (_, second) = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)[:2]
        return None if first < min_hits or first < margin * second else best

    rng = random.Random(1)
    vocabulary = sorted(w for ws in language.STOP_WORDS.values() for w in ws) + ["x", "Le", "THE", "und,"]
    for _ in range(3000):
        text = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(0, 60)))
        for min_hits, margin in ((1, 1.0), (8, 2.0)):
            assert detect(text, min_hits, margin) == by_lists(text, min_hits, margin), text


def test_detector() -> None:
    assert detect("The cat is on the mat and it was there for a while, which is what we had in mind.") == "en"
    assert detect("Le chat est sur le tapis et il y est depuis une heure, ce qui est pour nous très bien.") == "fr"
    assert detect("Home | Contact | Login") is None
    assert detect("") is None


def test_lang_attribute_wins_over_the_detector() -> None:
    xhtml = kitten.normalize("<html lang='fr-CA'><body><p>The cat is on the mat and it was there for a while, "
                             "which is what we had in mind.</p></body></html>").xhtml
    assert build_document(parse_xhtml(xhtml), Config().structure, PageLog()).lang == "fr"
    xhtml = kitten.normalize("<p>Home</p>").xhtml  # nothing to detect: the default
    assert build_document(parse_xhtml(xhtml), Config().structure, PageLog()).lang == "en"


# --------------------------------------------------------------------------- corpus


def _build_module():
    spec = importlib.util.spec_from_file_location("lists_build", ROOT / "corpora" / "lists" / "build.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.corpus
def test_rules_agree_with_the_annotated_lists() -> None:
    if not CORPORA.is_dir():
        pytest.skip(ABSENT)
    build = _build_module()
    result = build.check(CORPORA)
    assert not result.stale, result.stale[:5]
    assert result.total >= 200
    assert result.rate >= build.TARGET, result.misses
