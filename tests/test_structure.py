"""The structure step's walk in C (``kitten/_structure.c``) against its Python walk, and
the quick tests the C walk makes before asking Python."""
from __future__ import annotations


import pytest
from lxml import etree

import kitten
from kitten import structure
from kitten.config import StructureConfig
from kitten.document import Document

from _corpora import AVAILABLE, CORPORA, fixture_pages  # noqa: E402  (the shared corpora: tests/_corpora.py)
_NS = "{http://www.w3.org/1999/xhtml}"


def _bodies(per_corpus: int) -> list:
    """The probe page and ``per_corpus`` pages of four shared corpora; without the corpora,
    every page of the repository's fixtures."""
    pages = [structure.PROBE_PAGE]
    if not AVAILABLE:
        pages += [p.read_bytes() for p in fixture_pages()]
    for name in ("dragnet", "cleaneval-final", "modern", "wikipedia-tables") if AVAILABLE else ():
        pages += [p.read_bytes() for p in sorted((CORPORA / name).rglob("*.htm*"))[:per_corpus]]
    bodies = []
    for page in pages:
        xhtml = page if isinstance(page, str) else kitten.normalize(page).xhtml
        if xhtml is None:
            continue
        body = structure.parse_xhtml(xhtml).find(_NS + "body")
        if body is not None:
            bodies.append(body)
    return bodies


def _walked(body, config: StructureConfig, python: bool) -> list:
    doc = Document(blocks=[], lang="en")
    walker = structure._Walker(doc, config)
    (walker.walk_python if python else walker.walk)(body)
    return structure.block_view(walker)


@pytest.mark.parametrize("config", [StructureConfig(), StructureConfig(
    img_alt=True, remove_containers=("nav|foot.*", "side"), remove_consent=False, expand_abbreviations=False,
    menu_max_share=1.0, hidden_classes=("sortkey", "visually-hidden"))], ids=["default", "other"])
def test_the_c_walk_makes_the_python_walks_blocks(config: StructureConfig) -> None:
    """Every block (kind, name, element, inlines and their types, group), removal,
    abbreviation and kept container the same, on the probe page and real pages."""
    if structure._c_walker() is None:
        pytest.skip("kitten._structure is not built")
    bodies = _bodies(15)
    assert len(bodies) > 40
    blocks = 0
    for body in bodies:
        python = _walked(body, config, True)
        assert _walked(body, config, False) == python
        blocks += len(python[0])
    assert blocks > 2000


#: an element whose text has what the C readers must read as lxml does: nested links,
#: script text in a link, tails of comments and scripts, CDATA, processing instructions
_MADE_UP = (f'<div xmlns="{_NS[1:-1]}"><a href="x"> one <a>two <b>three</b></a><script>s()</script></a>  tail '
            '<!-- c -->  after a comment   <script>var x = "a long script text, longer than the rest"</script> '
            'end <p><![CDATA[ cdata ]]>  text <?pi x?> more </p><a/></div>')


@pytest.mark.parametrize("name", sorted(structure._C_READERS))
def test_the_c_readers_are_the_pythons(name: str) -> None:
    """Each C function reading an element's text answers as its Python function, on every
    element of real pages and a made-up one."""
    c = structure._c_reader(name)
    if c is None:
        pytest.skip("kitten._structure is not built")
    python, _ = structure._C_READERS[name]
    arguments = [*structure._C_READERS[name][1], ((1000,) if name == "text_start" else ())]
    n = 0
    for body in [structure.parse_xhtml(_MADE_UP), *_bodies(3)]:
        for el in body.iter(etree.Element):
            for args in arguments:
                assert c(el, *args) == python(el, *args), el
            n += 1
    assert n > 1000


@pytest.mark.parametrize("pattern, literals", [
    ("menu", ("menu",)),
    ("(?:main|top|sub|side|nav|mega|drop|foot|header)menu", ("menu",)),
    ("nav|Menu", ("nav", "menu")),
    ("nav(igation)?", ("nav",)),
    ("x.*yz", ("yz",)),
    ("a+", None),
    (".*", None),
])
def test_required_literals(pattern: str, literals: tuple[str, ...] | None) -> None:
    """Every match of the pattern contains one of the strings (the C walk asks Python about
    a container's names only when they contain one)."""
    assert structure.required_literals(pattern) == literals


def test_names_without_a_required_literal_are_always_asked() -> None:
    walker = structure._Walker(Document(blocks=[], lang="en"), StructureConfig(remove_containers=("menu", r"\w+nav|\d")))
    assert walker.name_literals is None
    walker = structure._Walker(Document(blocks=[], lang="en"), StructureConfig())
    assert "menu" in walker.name_literals and "cookie" in walker.name_literals
    assert "cookies" not in walker.name_literals  # contains "cookie": never needed


def test_a_removals_text_is_the_start_of_its_collapsed_text() -> None:
    """``_text_start`` reads only the start of a big removed element, with the result of
    collapsing all of its text and cutting it."""
    import random

    rng = random.Random(7)
    pieces = ["a", "bb", "  ", "\n", "ccc dd", "e\u00a0f", "", " x ", "longword" * 5, "é\tü"]
    for _ in range(2000):
        parts = [rng.choice(pieces) for _ in range(rng.randint(0, 40))]
        xml = "<div>" + "".join(f"<b>{p}</b>" if rng.random() < 0.5 else p for p in parts) + "</div>"
        el = etree.fromstring(xml)
        for limit in (1, 5, 80):
            expected = " ".join("".join(el.itertext()).split())[:limit]
            assert structure.text_start_python(el, limit) == expected, xml
            assert structure._text_start(el, limit) == expected, xml


def test_a_removals_locator_and_log_line_are_made_when_read() -> None:
    """The locator of a removed element is computed when its removal or log line is read,
    the same text as computed at once; an event pickles, copies and compares with its
    message made."""
    import copy
    import pickle

    from kitten.log import Event, PageLog

    root = structure.parse_xhtml(structure.PROBE_PAGE)
    log = PageLog()
    doc = structure.build_document(root, StructureConfig(), log)
    menu = next(r for r in doc.removals if r.reason == "menu")
    assert menu.locator == "/html/body/div/ul"
    event = next(e for e in log.events if e.kind == "removed-menu")
    assert event.message == f"/html/body/div/ul: {menu.text!r}"
    for other in (pickle.loads(pickle.dumps(event)), copy.copy(event)):
        assert other == event and hash(other) == hash(event) and other.message == event.message
    deferred = Event("structure", "k", lambda: "made", lambda: "/html/body")
    assert deferred == Event("structure", "k", "made", "/html/body") and repr(deferred).count("made") == 1
    assert deferred.as_dict() == {"step": "structure", "kind": "k", "message": "made", "where": "/html/body"}
    with pytest.raises(AttributeError):
        deferred.kind = "other"


def test_the_share_of_the_bodys_letters_is_read_as_if_counted_in_full() -> None:
    """``_within_share`` counts the body only as far as needed, with the answers of a full
    count, whatever the order of the questions."""
    import random

    rng = random.Random(3)
    for body in _bodies(1)[:6]:
        total = structure.letters_python(body)
        for share in (0.01, 0.3, 0.5, 0.99):
            walker = structure._Walker(Document(blocks=[], lang="en"), StructureConfig(menu_max_share=share))
            walker.body = body
            for letters in [rng.randint(0, total + 10) for _ in range(30)] + [0, total, int(share * total)]:
                assert walker._within_share(letters) == (letters <= share * total), (share, letters, total)


def test_the_walks_find_every_json_ld_script_of_the_body() -> None:
    """The scripts the walks (C and Python) collect in the elements they leave out are
    those a search of the whole body finds, so that the page's metadata is read without
    that search."""
    from kitten.log import PageLog
    from kitten.metadata import json_ld_scripts, page_metadata

    found = 0
    for body in _bodies(60):
        expected = list(json_ld_scripts(body))
        for python in (True, False):
            walker = structure._Walker(Document(blocks=[], lang="en"), StructureConfig())
            (walker.walk_python if python else walker.walk)(body)
            assert walker.json_ld == expected
        root = body.getparent()
        assert structure.build_document(root, StructureConfig(), PageLog()).metadata == page_metadata(root)
        found += len(expected)
    assert found >= 4  # the probe page has two, real pages the others


def test_the_ignorable_ranges_are_the_patterns_characters() -> None:
    """The C walk looks for ``IGNORABLE``'s characters in the ranges ``char_ranges`` reads
    from the pattern: exactly the characters it matches."""
    import re

    ranges = structure.char_ranges(structure.IGNORABLE)
    assert ranges is not None
    for c in range(0x110000):
        assert (structure.IGNORABLE.match(chr(c)) is not None) == any(a <= c <= b for a, b in ranges), hex(c)
    assert structure.char_ranges(re.compile("[a-z]", re.I)) is None and structure.char_ranges(re.compile("ab")) is None


def test_the_c_locator_steps_are_the_pythons() -> None:
    """``Locators`` names each element's children in C as in Python, on every element of
    real pages and the probe children."""
    from kitten import document

    c = document._c_child_steps()
    if c is None:
        pytest.skip("kitten._structure is not built")
    n = 0
    for body in [etree.fromstring(document.PROBE_CHILDREN), *_bodies(3)]:
        for el in body.iter(etree.Element):
            assert c(el) == document.child_steps_python(el), el
            n += 1
    assert n > 1000


def test_a_c_function_is_used_only_when_it_answers_as_python(caplog) -> None:
    """``kitten.native.checked``: a module that is not built gives None quietly; a built
    function that disagrees with its Python reference on the probe gives None and a
    warning; one that agrees is returned."""
    from kitten.native import checked

    assert checked("kitten._not_built", "f", lambda c: True) is None
    assert not caplog.records
    assert checked("math", "floor", lambda c: c(2.5) == 3) is None
    assert "math.floor answers otherwise" in caplog.text
    import math

    assert checked("math", "floor", lambda c: c(2.5) == 2) is math.floor
