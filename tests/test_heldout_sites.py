"""The boilerplate held-out split is by site: ``corpora/boilerplate/make_heldout.py``.

Unit tests of its site functions on hand-made inputs; and, marked ``corpus`` (skipped
when ``.cache/corpora`` is absent), a check that ``sites.tsv`` is what the site
functions give today and that no site has pages both in ``heldout.txt`` and among
the training pages, in any corpus.
"""
from __future__ import annotations

import doctest
import importlib.util
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
from _corpora import ABSENT, CORPORA  # noqa: E402  (the shared corpora: tests/_corpora.py)
SPLIT = ROOT / "corpora" / "boilerplate"


def load_make_heldout():
    """Import ``corpora/boilerplate/make_heldout.py`` (not a package) by path."""
    spec = importlib.util.spec_from_file_location("make_heldout", SPLIT / "make_heldout.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_heldout", module)
    spec.loader.exec_module(module)
    return module


mh = load_make_heldout()


# ------------------------------------------------------------ unit tests


def test_doctests() -> None:
    assert doctest.testmod(mh).failed == 0


@pytest.mark.parametrize("host, site", [
    ("www.bbc.co.uk", "bbc.co.uk"),
    ("news.bbc.co.uk", "bbc.co.uk"),
    ("bbc.co.uk", "bbc.co.uk"),
    ("www.abc.net.au", "abc.net.au"),
    ("techlog.iij.ad.jp", "iij.ad.jp"),
    ("weekly.ascii.jp", "ascii.jp"),
    ("blogs.WSJ.com:8080", "wsj.com"),
    ("www.nytimes.com.", "nytimes.com"),
    ("arabic.cnn.com", "cnn.com"),
    ("co.uk", "co.uk"),
    ("216.31.193.173", "216.31.193.173"),
])
def test_registered_domain(host: str, site: str) -> None:
    assert mh.registered_domain(host) == site


def test_page_host_prefers_declared_urls_over_links() -> None:
    links = b'<a href="http://twitter.com/x">t</a>' * 3
    assert mh.page_host(b'<html><head><base href="http://www.b.org/x/"></head>' + links) == "www.b.org"
    assert mh.page_host(b"<META PROPERTY='og:url' CONTENT='https://m.c.com/p'>" + links) == "m.c.com"
    canonical = b'<link rel="canonical" href="http://d.com/p"><meta property="og:url" content="http://e.com/p">'
    assert mh.page_host(canonical) == "d.com"
    assert mh.page_host(b'<text id="http://f.com/" title="x">' + canonical) == "f.com"


def test_page_host_skips_relative_urls_and_counts_links() -> None:
    page = (b'<link rel="canonical" href="/story/1"><base target="_top">'
            b'<a href="http://a.net/1">1</a><a href="/local">l</a><a href=\'//b.net/\'>b</a>'
            b'<a href="http://a.net/2">2</a><a href="mailto:x@y.org">m</a>')
    assert mh.page_host(page) == "a.net"
    assert mh.page_host(page, links=False) is None
    assert mh.page_host(b"<p>caf\xe9</p>") is None  # any bytes: read as Latin-1


def test_readability_site() -> None:
    assert mh.readability_site("ars-1.html") == "ars"
    assert mh.readability_site("lemonde-1.html") == "lemonde"
    assert mh.readability_site("nytimes-12.html") == "nytimes"
    assert mh.readability_site("cnet.html") == "cnet"
    assert mh.readability_site("bug-1255978.html") == "bug"
    assert mh.readability_site("003-metadata-preferred.html") == "003-metadata-preferred"


def test_pick_sites_holds_whole_sites_and_keeps_earlier_decisions() -> None:
    pages = [mh.Page(f"c/html/{i}.html", "c", site) for i, site in enumerate("aaaabbbcddefghij")]
    held = {"a": False, "z": True}
    mh.pick_sites(pages, 0.5, random.Random(2007), held)
    assert held["a"] is False and held["z"] is True
    assert set(held) == set("abcdefghijz")
    assert sum(held[p.site] for p in pages) == 8  # 16 pages, half


# ------------------------------------------------------------ corpus tests


@pytest.mark.corpus
def test_no_site_on_both_sides() -> None:
    if not all((CORPORA / c / "html").is_dir() for c in (*mh.TRAIN_ONLY, *mh.SHARES)):
        pytest.skip(ABSENT)
    rows = [line.split("\t") for line in (SPLIT / "sites.tsv").read_text(encoding="utf-8").splitlines()[1:]]
    heldout = set((SPLIT / "heldout.txt").read_text(encoding="utf-8").split())
    # sites.tsv is what the site functions give on the corpora today
    pages = {c: mh.corpus_pages(CORPORA, c) for c in (*mh.TRAIN_ONLY, *mh.SHARES)}
    assert sorted(rows) == sorted([p.path, p.corpus, p.site] for ps in pages.values() for p in ps)
    paths = {path for path, _, _ in rows}
    assert heldout <= paths, sorted(heldout - paths)[:5]
    assert not heldout & {p.path for c in mh.TRAIN_ONLY for p in pages[c]}
    held_sites = {site for path, _, site in rows if path in heldout}
    training_sites = {site for path, _, site in rows if path not in heldout}
    assert not held_sites & training_sites, sorted(held_sites & training_sites)[:10]
    for corpus in mh.SHARES:  # every corpus holds pages out, and keeps some to train on
        assert 0 < sum(p.path in heldout for p in pages[corpus]) < len(pages[corpus])
