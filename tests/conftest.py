"""Shared fixtures: strict XML parsing, DTD validation and text checks of Kitten's output,
and the shared corpora (``tests/_corpora.py``: where they are, ``KITTEN_CORPORA=off`` to
run without them).

The DTD part is skipped (the checks still parse strictly) when the W3C DTD is absent
(Debian package ``w3c-sgml-lib``). Tests marked ``corpus`` or asking for the ``corpora``
fixture skip, with the reason, when the shared corpora are absent.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from _corpora import AVAILABLE, CORPORA, ENV, REASON

DTD_PATH = Path("/usr/share/xml/w3c-sgml-lib/schema/dtd/REC-xhtml1-20020801/xhtml1-transitional.dtd")
XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>'
DOCTYPE = ('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" '
           '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">')
XHTML = "{http://www.w3.org/1999/xhtml}"
_HIDDEN = frozenset(XHTML + t for t in ("script", "style"))


def pytest_report_header(config) -> str:
    return (f"shared corpora: {CORPORA}" if AVAILABLE
            else f"shared corpora: absent, corpus tests skip ({REASON.removesuffix(': test skipped')}; {ENV})")


def pytest_collection_modifyitems(config, items) -> None:
    """Tests marked ``corpus`` skip without the shared corpora."""
    if AVAILABLE:
        return
    skip = pytest.mark.skip(reason=REASON)
    for item in items:
        if "corpus" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def corpora() -> Path:
    """The shared corpora's folder; the test skips when they are absent."""
    if not AVAILABLE:
        pytest.skip(REASON)
    return CORPORA


@pytest.fixture(scope="session")
def xhtml_dtd() -> etree.DTD | None:
    return etree.DTD(str(DTD_PATH)) if DTD_PATH.exists() else None


@pytest.fixture(scope="session")
def check_xhtml(xhtml_dtd):
    """``check(xhtml) -> root``: starts with the XML declaration and the DOCTYPE, parses
    with ``XMLParser(recover=False)``, and is valid XHTML 1.0 Transitional (if the DTD exists)."""

    def check(xhtml: str, validate: bool = True) -> etree._Element:
        assert isinstance(xhtml, str) and xhtml, "no XHTML output"
        assert xhtml.startswith(XML_DECLARATION), xhtml[:120]
        assert DOCTYPE in xhtml[: len(XML_DECLARATION) + len(DOCTYPE) + 4], xhtml[:250]
        root = etree.fromstring(xhtml.encode("utf-8"), etree.XMLParser(recover=False))
        if validate and xhtml_dtd is not None:
            ok = xhtml_dtd.validate(root)
            assert ok, [e.message for e in xhtml_dtd.error_log][:5]
        return root

    return check


def text_of(root: etree._Element) -> str:
    """All text nodes of an XHTML tree except script/style content, joined without separators."""
    parts: list[str] = []

    def walk(el: etree._Element) -> None:
        if el.tag in _HIDDEN:
            return
        if el.text:
            parts.append(el.text)
        for child in el:
            if isinstance(child.tag, str):
                walk(child)
            if child.tail:
                parts.append(child.tail)

    walk(root)  # outputs are depth-limited (libxml2 refuses > 256): recursion is fine
    return "".join(parts)


@pytest.fixture(scope="session")
def normalized(check_xhtml):
    """``normalized(data, **kw) -> (result, root, text)`` for a page that must come out
    as ``done``, with the checks of ``check_xhtml``."""
    import kitten

    def run(data, **kw):
        r = kitten.normalize(data, **kw)
        assert r.status == "done", (r.status, r.log)
        root = check_xhtml(r.xhtml)
        return r, root, text_of(root)

    return run


@pytest.fixture(scope="session")
def xhtml_text():
    """``xhtml_text(root) -> str``: the text nodes of an XHTML tree but script/style."""
    return text_of


@pytest.fixture(scope="session")
def both_writers():
    """``both_writers(html, max_depth=200) -> (xhtml, log)``, asserting that the output
    and the log are the same with and without the C writer (``[normalize] fast_writer``)."""
    from kitten.config import NormalizeConfig
    from kitten.log import PageLog
    from kitten.normalizer import to_xhtml

    def run(html: str, max_depth: int = 200):
        log, python_log = PageLog(), PageLog()
        xhtml = to_xhtml(html, NormalizeConfig(max_depth=max_depth), log)
        assert xhtml == to_xhtml(html, NormalizeConfig(max_depth=max_depth, fast_writer=False), python_log)
        assert log.events == python_log.events
        return xhtml, log

    return run
