"""The structure step's walk in C (``kitten/_structure.c``) against its Python walk, and
the quick tests the C walk makes before asking Python."""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

import kitten
from kitten import structure
from kitten.config import StructureConfig
from kitten.document import Document

CORPORA = Path(__file__).resolve().parent.parent / ".cache" / "corpora"
_NS = "{http://www.w3.org/1999/xhtml}"


def _bodies(per_corpus: int) -> list:
    pages = [structure.PROBE_PAGE]
    for name in ("dragnet", "cleaneval-final", "modern", "wikipedia-tables"):
        pages += [p.read_bytes() for p in sorted((CORPORA / name).rglob("*.htm*"))[:per_corpus]]
    bodies = []
    for page in pages:
        xhtml = page if isinstance(page, str) else kitten.normalize(page).xhtml
        body = structure.parse_xhtml(xhtml).find(_NS + "body")
        if body is not None:
            bodies.append(body)
    return bodies


def _walked(body, config: StructureConfig, python: bool) -> list:
    doc = Document(blocks=[], lang="en")
    walker = structure._Walker(doc, config)
    (walker.walk_python if python else walker.walk)(body)
    return structure.block_view(doc)


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


def test_the_c_letters_are_the_pythons() -> None:
    if structure._c_letters() is None:
        pytest.skip("kitten._structure is not built")
    n = 0
    for body in _bodies(3):
        for el in body.iter(etree.Element):
            assert structure._letters(el) == structure.letters_python(el), el
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
            assert structure._text_start(el, limit) == " ".join("".join(el.itertext()).split())[:limit], xml
