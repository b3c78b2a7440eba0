"""Write heldout.txt and sites.tsv: the pages the boilerplate CRF never trains on,
held out a whole site at a time (fixed, seed 2007).

Pages of one site share their templates, so a page held out while its siblings are
trained on measures memory, not extraction. Every page gets a *site*, its registered
domain (:func:`registered_domain`), found

- modern: from the ``site`` (else ``url``) field of ``snippets.jsonl``;
- CLEANEVAL (dev, final): from the gold file's ``URL:`` line, else from the page
  (:func:`page_host`: its CLEANEVAL ``<text id="URL">`` header, present on every
  page, then canonical link, ``og:url``, ``<base href>``, most frequent link host);
- dragnet, cleanportaleval: from the page (:func:`page_host`);
- readability: from the page's name (:func:`readability_site`: ``nytimes-2`` ->
  ``nytimes``), the names whose pages declare a URL (canonical, ``og:url``, base)
  taking its domain, so that ``cnet`` and ``cnet-svg-classes``, or ``liberation-1``
  and ``videos-2``, are one site.

A page whose site is not found is a site of its own. A site is held out in every
corpus or in none, since the CRF trains on all of them together: CLEANEVAL dev
(trained on whole) makes its sites training sites, then each corpus of
:data:`SHARES` in turn holds out, with one ``random.Random(2007)``, whole sites no
corpus before it decided (:func:`pick_sites`) until about half of the modern pages
that have a full gold file and half of the others (all pages of a held-out site
go), 30% of cleanportaleval, half of Readability, 30% of the CLEANEVAL final pages
that have a gold file, half of Dragnet, and 40% of web2025's pages of each page type
(its site from the gold's ``url``; decided last, so the other corpora's sides stay
as they were).

Output, next to this file: ``heldout.txt``, one held-out page a line as a path under
the corpora root (``dragnet/html/100.html``); ``sites.tsv``, every page considered
(training and held out): path, corpus, site, after a header line. Both list the
corpora by name (CLEANEVAL first), the pages in natural order. The figures of each
corpus are printed.

    python corpora/boilerplate/make_heldout.py [--corpora .cache/corpora]
"""
from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

HERE = Path(__file__).resolve().parent
CORPORA = HERE.parent.parent / ".cache" / "corpora"
SEED = 2007
#: Corpora trained on whole: their sites are training sites in every corpus.
TRAIN_ONLY = ("cleaneval-dev",)
#: Share of each corpus's pages held out (modern: of its gold pages and of the
#: others), in the order the corpora decide their sites: the smallest first, the
#: largest last (Dragnet has the most sites to reach its share with).
SHARES: dict[str, float] = {
    "modern": 0.5,
    "cleanportaleval": 0.3,
    "readability": 0.5,
    "cleaneval-final": 0.3,
    "dragnet": 0.5,
    "web2025": 0.4,
}
#: web2025 decides its sites per page type (its strata: each type's share held out)
WEB2025_TYPES = ("article", "service", "product", "forum", "listing", "collection", "documentation")
#: Second-level labels under a two-letter country code that are public suffixes
#: (``bbc.co.uk``, ``abc.net.au``, ``iij.ad.jp``): the site keeps three labels.
PUBLIC_SECOND_LEVEL = frozenset(
    "ac ad co com ed edu go gob gov gr lg ltd mil ne net nic nom or org plc sch".split())


@dataclass(frozen=True)
class Page:
    """One page: ``path`` under the corpora root, its corpus and site; ``gold`` says
    whether it has a full gold file (the modern strata)."""

    path: str
    corpus: str
    site: str
    gold: bool = True
    #: web2025: the page type of its gold (the strata its sites are drawn in)
    kind: str = ""


# --------------------------------------------------------------------------- sites

_IPV4 = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")


def registered_domain(host: str) -> str:
    """The site of a host name: its last two labels, or three when the second-to-last
    is a public second-level label under a two-letter country code. Port, case, a
    trailing dot and user info are ignored; an IP address is kept whole.

    >>> registered_domain("www.bbc.co.uk"), registered_domain("news.bbc.co.uk")
    ('bbc.co.uk', 'bbc.co.uk')
    >>> registered_domain("Blogs.WSJ.com:80"), registered_domain("techlog.iij.ad.jp")
    ('wsj.com', 'iij.ad.jp')
    >>> registered_domain("weekly.ascii.jp"), registered_domain("localhost"), registered_domain("10.0.0.1")
    ('ascii.jp', 'localhost', '10.0.0.1')
    """
    host = host.rsplit("@", 1)[-1].split(":", 1)[0].strip().rstrip(".").lower()
    if _IPV4.fullmatch(host):
        return host
    labels = host.split(".")
    keep = 3 if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in PUBLIC_SECOND_LEVEL else 2
    return ".".join(labels[-keep:])


_URL_HOST = re.compile(r"\s*(?:https?:)?//([^/?#\s\"'<>\\]+)", re.IGNORECASE)


def url_host(url: str) -> str | None:
    """The host of an absolute (or scheme-relative) http(s) URL, else ``None``.

    >>> url_host("http://www.bbc.co.uk/news/1"), url_host("//cdn.x.org/a.js"), url_host("/news/1")
    ('www.bbc.co.uk', 'cdn.x.org', None)
    """
    m = _URL_HOST.match(url)
    return m.group(1).lower() if m and "." in m.group(1) else None


_TAG = re.compile(r"<(text|link|meta|base|a)\b([^>]*)>", re.IGNORECASE)
_ATTR = re.compile(r"""([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")


def _attrs(source: str) -> dict[str, str]:
    return {m.group(1).lower(): next(v for v in m.groups()[1:] if v is not None) for m in _ATTR.finditer(source)}


def page_host(data: bytes, links: bool = True) -> str | None:
    """The host a page says it comes from, by regular expressions over its raw bytes
    (read as Latin-1), the first found of: the CLEANEVAL header ``<text id="URL">``,
    ``<link rel="canonical" href>``, ``<meta property="og:url" content>``,
    ``<base href>``, else (if ``links``) the most frequent host of the absolute
    ``<a href>`` links (the first in the page on a tie). Relative URLs are skipped;
    ``None`` when nothing names a host.

    >>> page_host(b'<link href="/a" rel="canonical"><meta content="http://www.x.com/a" property="og:url">')
    'www.x.com'
    >>> page_host(b'<a href="http://t.co/1">t</a><a href="http://b.org/">b</a><a href=http://b.org/c>c</a>')
    'b.org'
    >>> page_host(b'<text id="http://a.net/p" title="t"><link rel=canonical href="http://b.net/">')
    'a.net'
    >>> page_host(b"<p>no links</p>") is None, page_host(b'<a href="http://b.org/">b</a>', links=False) is None
    (True, True)
    """
    found: dict[str, str] = {}
    votes: Counter[str] = Counter()
    for m in _TAG.finditer(data.decode("latin-1")):
        tag, attrs = m.group(1).lower(), _attrs(m.group(2))
        if tag == "text":
            kind, url = "text", attrs.get("id", "")
        elif tag == "link" and "canonical" in attrs.get("rel", "").lower().split():
            kind, url = "canonical", attrs.get("href", "")
        elif tag == "meta" and "og:url" in (attrs.get("property", "").lower(), attrs.get("name", "").lower()):
            kind, url = "og:url", attrs.get("content", "")
        elif tag == "base" or (tag == "a" and links):
            kind, url = tag, attrs.get("href", "")
        else:
            continue
        host = url_host(url)
        if host is None:
            continue
        if kind == "a":
            votes[host] += 1  # Counter keeps first-seen order: most_common breaks ties by it
        else:
            found.setdefault(kind, host)
    for kind in ("text", "canonical", "og:url", "base"):
        if kind in found:
            return found[kind]
    return votes.most_common(1)[0][0] if votes else None


_PAGE_NUMBER = re.compile(r"-\d+$")


def readability_site(name: str) -> str:
    """The site of a Readability test page, named after it: the name without its
    suffix and a trailing ``-<digits>``.

    >>> readability_site("nytimes-2.html"), readability_site("lemonde-1.html"), readability_site("001.html")
    ('nytimes', 'lemonde', '001')
    """
    return _PAGE_NUMBER.sub("", name.split(".", 1)[0])


# --------------------------------------------------------------------------- corpora

_GOLD_URL = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*URL:[ \t]*(\S+)")


def _html_pages(corpora: Path, corpus: str) -> list[Path]:
    folder = corpora / corpus / "html"
    if not folder.is_dir():
        raise SystemExit(f"missing {folder}: unpack ../shared/corpora/{corpus}.tar.xz into {corpora}")
    return sorted(folder.iterdir(), key=_key)


def _site(host: str | None, corpus: str, name: str) -> str:
    """The registered domain of ``host``; a page without one is a site of its own."""
    return registered_domain(host) if host else f"?{corpus}/{name}"


def corpus_pages(corpora: Path, corpus: str) -> list[Page]:
    """Every page of ``corpus`` that has gold to train or score on (CLEANEVAL: a gold
    file; modern: every page, its snippets are scored too), with its site."""
    folder = corpora / corpus
    if corpus == "modern":
        pages = []
        for line in (folder / "snippets.jsonl").read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            site = _site(record.get("site") or url_host(record.get("url") or ""), corpus, record["file"])
            gold = bool(record.get("gold")) and (folder / "gold" / record["gold"]).is_file()
            pages.append(Page(f"{corpus}/html/{record['file']}", corpus, site, gold))
        return sorted(pages, key=lambda p: _key(Path(p.path)))
    if corpus == "web2025":
        pages = []
        for path in _html_pages(corpora, corpus):
            record = json.loads((folder / "gold" / (path.stem + ".json")).read_text(encoding="utf-8"))
            site = _site(url_host(record.get("url") or ""), corpus, path.name)
            pages.append(Page(f"{corpus}/html/{path.name}", corpus, site, kind=record.get("page_type", "")))
        return pages
    if corpus == "readability":
        # the site of a name: the registered domain its pages declare most, else the name
        paths = _html_pages(corpora, corpus)
        declared: dict[str, Counter[str]] = {}
        for path in paths:
            host = page_host(path.read_bytes(), links=False)
            counts = declared.setdefault(readability_site(path.name), Counter())
            if host:
                counts[registered_domain(host)] += 1
        sites = {name: (c.most_common(1)[0][0] if c else name) for name, c in declared.items()}
        return [Page(f"{corpus}/html/{p.name}", corpus, sites[readability_site(p.name)]) for p in paths]
    pages = []
    for path in _html_pages(corpora, corpus):
        host: str | None = None
        if corpus.startswith("cleaneval-"):
            gold = folder / "gold" / (path.stem + ".txt")
            if not gold.is_file():
                continue
            m = _GOLD_URL.match(gold.read_bytes())
            host = url_host(m.group(1).decode("latin-1")) if m else None
        pages.append(Page(f"{corpus}/html/{path.name}", corpus,
                          _site(host or page_host(path.read_bytes()), corpus, path.name)))
    return pages


def pick_sites(pages: Iterable[Page], share: float, rng: random.Random, held: dict[str, bool]) -> None:
    """Decide the undecided sites of ``pages`` in ``held`` (site -> held out?): drawn in
    random order, each is held out when that brings the count of pages on held-out
    sites nearer ``share`` of ``pages``; sites decided before count as they are.

    >>> pages = [Page(f"c/html/{i}", "c", s) for i, s in enumerate("aabbbcdefg")]
    >>> held = {"a": False}
    >>> pick_sites(pages, 0.5, random.Random(2), held)
    >>> sorted(held) == list("abcdefg"), [s for s in sorted(held) if held[s]]
    (True, ['c', 'd', 'e', 'f', 'g'])
    """
    sizes = Counter(p.site for p in pages)
    target = share * sum(sizes.values())
    count = sum(n for site, n in sizes.items() if held.get(site))
    candidates = sorted(site for site in sizes if site not in held)
    rng.shuffle(candidates)
    for site in candidates:
        held[site] = abs(count + sizes[site] - target) < abs(count - target)
        count += sizes[site] * held[site]


def split(corpora: Path, rng: random.Random) -> tuple[dict[str, list[Page]], dict[str, bool]]:
    """Every page of :data:`TRAIN_ONLY` and :data:`SHARES`, by corpus, and the side
    of every site (held out or not), one for all corpora: the sites of the
    training-only corpora are training sites, then each corpus of :data:`SHARES` in
    turn decides the sites no corpus before it has (modern: its gold pages first)."""
    pages = {corpus: corpus_pages(corpora, corpus) for corpus in (*TRAIN_ONLY, *SHARES)}
    held = {p.site: False for corpus in TRAIN_ONLY for p in pages[corpus]}
    for corpus, share in SHARES.items():
        if corpus == "modern":
            pick_sites([p for p in pages[corpus] if p.gold], share, rng, held)
            pick_sites([p for p in pages[corpus] if not p.gold], share, rng, held)
        elif corpus == "web2025":
            for kind in WEB2025_TYPES:
                pick_sites([p for p in pages[corpus] if p.kind == kind], share, rng, held)
        else:
            pick_sites(pages[corpus], share, rng, held)
    return pages, held


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpora", type=Path, default=CORPORA)
    ap.add_argument("--out", type=Path, default=HERE, help="where heldout.txt and sites.tsv go")
    args = ap.parse_args(argv)

    pages, held = split(args.corpora, random.Random(SEED))
    listed = sorted(pages)  # files list the corpora by name: cleaneval-final first, as before
    heldout = [p.path for corpus in listed for p in pages[corpus] if held[p.site]]
    rows = ["path\tcorpus\tsite"] + [f"{p.path}\t{p.corpus}\t{p.site}" for c in listed for p in pages[c]]
    (args.out / "heldout.txt").write_text("\n".join(heldout) + "\n", encoding="utf-8")
    (args.out / "sites.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")

    def figures(name: str, part: list[Page]) -> str:
        sites = {p.site for p in part}
        out = [p for p in part if held[p.site]]
        both = {p.site for p in out} & {p.site for p in part if not held[p.site]}
        others = {p.site for c, ps in pages.items() if c != part[0].corpus for p in ps}
        return (f"{name:<18} {len(part):>5} {len(sites):>5} {len(out):>5} {len(out) / len(part):>4.0%} "
                f"{len({p.site for p in out}):>5} {len(sites & others):>6} {len(both):>4}")

    print(f"{'corpus':<18} {'pages':>5} {'sites':>5} {'held':>5} {'':>4} {'sites':>5} {'shared':>6} {'both':>4}")
    for corpus, part in pages.items():
        print(figures(corpus, part))
        if corpus == "modern":
            print(figures("  with full gold", [p for p in part if p.gold]))
            print(figures("  without", [p for p in part if not p.gold]))
    sides: dict[str, set[bool]] = {}
    for part in pages.values():
        for p in part:
            sides.setdefault(p.site, set()).add(held[p.site])
    print("held: pages and sites held out; shared: sites also in another corpus (on the same side); "
          "both: sites on both sides (must be 0); "
          f"over all corpora: {sum(len(s) > 1 for s in sides.values())} sites on both sides")
    print(f"{len(heldout)} held-out pages: {args.out / 'heldout.txt'}, sites: {args.out / 'sites.tsv'}")
    return 0


def _key(path: Path) -> tuple[int, int, str]:
    stem = path.name.split(".")[0]
    return (0, int(stem), path.name) if stem.isdigit() else (1, 0, path.name)


if __name__ == "__main__":
    raise SystemExit(main())
