"""The faithful text style beside the parser style on the shared corpora (issue 38, part 9).

    python benchmarks/faithful.py [--corpora .cache/corpora] [--jobs 2] [--limit N] [--no-gate | --gate-only]
                                  [--only web2025|modern]

The pages: web2025 (every page with ``with`` snippets; gold ``main_content`` with its
paragraphs) and modern (the Postlight pages with ``with`` snippets in ``snippets.jsonl``),
each converted in both styles, without the gate and with it (``[boilerplate] method =
"crf"``; ``--no-gate``: without only). Figures per corpus, setting and style:

- **must-keep recall**: the share of the pages' must-include snippets found in the
  output, scored as each corpus's benchmark scores them (web2025:
  ``benchmarks/web2025.py`` ``snippet_counts``, case-insensitive, white space
  collapsed; modern: ``benchmarks/boilerplate.py`` ``snippet_found``, white space and
  punctuation ignored); beside it (web2025) the share of must-not snippets absent;
- **added full stops**: output lines (a table row: each cell) that end with a full
  stop the page does not write there: the line is not in the page's text, the line
  without its stop is (the page's text: lxml's ``text_content()`` of the decoded page,
  white space collapsed, default-ignorable characters removed); and **lines not
  verbatim**: lines (cells) not in the page's text at all, for whatever reason (a
  ``<q>``'s quotation marks, a clause written by the parser style);
- **paragraphs kept** (web2025, faithful style): among the gold paragraphs of six words
  or more found in the output (letters and digits compared), the share found whole
  inside one output paragraph (blank-line separated), and among consecutive pairs of
  such paragraphs, the share written in two different output paragraphs (the break
  kept).

``compare`` is what the test ``tests/test_faithful.py`` calls on a few pages.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _pages import DEFAULT_CORPORA  # noqa: E402
from boilerplate import snippet_found, snippet_pages  # noqa: E402
from web2025 import GoldPage, pages as web2025_pages, snippet_counts  # noqa: E402

from kitten.config import Config  # noqa: E402
from kitten.page import Page  # noqa: E402
from kitten.pipeline import run_page  # noqa: E402
from kitten.structure import IGNORABLE  # noqa: E402
from kitten.tables.rows import SEPARATOR  # noqa: E402

STYLES = ("parser", "faithful")
#: a gold paragraph counts for "paragraphs kept" when it has this many words
PARAGRAPH_WORDS = 6
_NOT_WORD = re.compile(r"[\W_]+")


@dataclass(frozen=True)
class Item:
    """A page and what its output must hold."""

    path: Path
    url: str
    snippets: tuple[str, ...]  # must-include
    without: tuple[str, ...] = ()  # must-not-include (web2025)
    paragraphs: tuple[str, ...] = ()  # the gold's paragraphs (web2025)


def web2025_items(corpora: Path, limit: int = 0) -> list[Item]:
    """The web2025 pages with must-include snippets (all splits)."""
    def item(p: GoldPage) -> Item:
        paras = tuple(x for x in re.split(r"\n\s*\n", p.main) if len(x.split()) >= PARAGRAPH_WORDS)
        return Item(p.path, p.url, p.with_, p.without, paras)

    found = [item(p) for p in web2025_pages(corpora, "all") if p.with_]
    return found[:limit] if limit else found


def modern_items(corpora: Path, limit: int = 0) -> list[Item]:
    """The modern pages with must-include snippets."""
    return [Item(p.path, "", p.snippets) for p in snippet_pages(corpora, limit=limit)]


@dataclass
class Counts:
    """One style's figures on a set of pages (sums)."""

    pages: int = 0
    snippets: int = 0
    found: int = 0
    without: int = 0
    absent: int = 0
    lines: int = 0
    not_verbatim: int = 0
    added_stops: int = 0
    paragraphs_found: int = 0
    paragraphs_whole: int = 0
    breaks: int = 0
    breaks_kept: int = 0

    def add(self, other: "Counts") -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


@dataclass
class Row:
    """Both styles' figures on a set of pages with one setting."""

    styles: dict[str, Counts] = field(default_factory=lambda: {s: Counts() for s in STYLES})


def _squeezed(text: str) -> str:
    return _NOT_WORD.sub("", text).lower()


def _collapsed(text: str) -> str:
    return " ".join(IGNORABLE.sub("", text).split())


def page_text(decoded: str) -> str:
    """The page's text as lxml reads it (every text node, white space collapsed)."""
    import lxml.html

    try:
        root = lxml.html.fromstring(decoded.encode("utf-8"), parser=lxml.html.HTMLParser(encoding="utf-8"))
    except Exception:  # noqa: BLE001 - an empty or odd page: its characters as they are
        return _collapsed(decoded)
    return _collapsed(root.text_content())


def line_counts(output: str, reference: str) -> tuple[int, int, int]:
    """(lines, lines not verbatim, added full stops) of an output against the page's text
    (a table row counts as its cells)."""
    lines = not_verbatim = added = 0
    for line in output.splitlines():
        for part in line.split(SEPARATOR) if SEPARATOR in line else (line,):
            part = part.strip()
            if not part:
                continue
            lines += 1
            if part in reference:
                continue
            not_verbatim += 1
            stem = part[:-1].rstrip()
            # (not "X ." in the page's text: a hidden element between, "AI Mode<span hidden> </span>.")
            if part.endswith(".") and stem in reference and stem + " ." not in reference:
                added += 1
    return lines, not_verbatim, added


def paragraph_counts(output: str, gold: Sequence[str]) -> tuple[int, int, int, int]:
    """(gold paragraphs found, found whole in one output paragraph, consecutive pairs of
    whole ones, pairs in two output paragraphs)."""
    whole_text = _squeezed(output)
    paragraphs = [_squeezed(p) for p in output.split("\n\n")]
    found = whole = pairs = kept = 0
    previous: int | None = None
    for g in gold:
        s = _squeezed(g)
        if not s or s not in whole_text:
            previous = None
            continue
        found += 1
        at = next((i for i, p in enumerate(paragraphs) if s in p), None)
        if at is None:
            previous = None
            continue
        whole += 1
        if previous is not None:
            pairs += 1
            kept += at != previous
        previous = at
    return found, whole, pairs, kept


def _found(item: Item, text: str) -> tuple[int, int]:
    """(must-include found, must-not absent) as the item's corpus scores them."""
    if item.paragraphs or item.without:  # web2025
        found, _, absent, _ = snippet_counts(text, GoldPage("", item.path, "", "", item.snippets, item.without, ""))
        return found, absent
    return sum(snippet_found(s, text) for s in item.snippets), 0


def page_counts(item: Item, config: Config) -> dict[str, Counts]:
    """Both styles' figures on one page."""
    data = item.path.read_bytes()
    out = {}
    reference = None
    for style in STYLES:
        cfg = _with_style(config, style)
        result = run_page(Page(data, name=item.path.name, url=item.url or None), cfg, "text")
        text = result.output or ""
        if reference is None:
            decoded = result.decoded
            reference = page_text(decoded.text) if decoded is not None else ""
        c = Counts(pages=1, snippets=len(item.snippets), without=len(item.without))
        c.found, c.absent = _found(item, text)
        c.lines, c.not_verbatim, c.added_stops = line_counts(text, reference)
        if style == "faithful" and item.paragraphs:
            c.paragraphs_found, c.paragraphs_whole, c.breaks, c.breaks_kept = paragraph_counts(text, item.paragraphs)
        out[style] = c
    return out


def _with_style(config: Config, style: str) -> Config:
    import dataclasses

    return dataclasses.replace(config, output=dataclasses.replace(config.output, style=style))


def _task(task: tuple[Item, Config]) -> dict[str, Counts]:
    return page_counts(*task)


def compare(items: Sequence[Item], config: Config, jobs: int = 1) -> Row:
    """Both styles on ``items`` with ``config``."""
    row = Row()
    tasks = [(item, config) for item in items]
    if jobs > 1:
        with mp.get_context("fork").Pool(jobs) as pool:
            results = pool.map(_task, tasks, chunksize=4)
    else:
        results = map(_task, tasks)
    for counts in results:
        for style in STYLES:
            row.styles[style].add(counts[style])
    return row


def _share(a: int, b: int) -> str:
    return f"{a / b:.4f} ({a}/{b})" if b else "-"


def format_row(corpus: str, setting: str, row: Row) -> str:
    lines = []
    for style in STYLES:
        c = row.styles[style]
        paragraphs = (f"{_share(c.paragraphs_whole, c.paragraphs_found)}  {_share(c.breaks_kept, c.breaks)}"
                      if style == "faithful" and c.paragraphs_found else "-")
        lines.append(f"{corpus:<8} {setting:<9} {style:<9} {c.pages:>5}  {_share(c.found, c.snippets):<22} "
                     f"{_share(c.absent, c.without) if c.without else '-':<22} {c.added_stops:>6} "
                     f"{_share(c.not_verbatim, c.lines):<24} {paragraphs}")
    return "\n".join(lines)


HEAD = (f"{'corpus':<8} {'setting':<9} {'style':<9} {'pages':>5}  {'must-keep recall':<22} "
        f"{'must-not absent':<22} {'stops+':>6} {'lines not verbatim':<24} paragraphs whole / breaks kept")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--limit", type=int, default=0, help="the first N pages of each corpus only")
    ap.add_argument("--no-gate", action="store_true", help="without the gate only")
    ap.add_argument("--gate-only", action="store_true", help="with the gate only")
    ap.add_argument("--only", choices=("web2025", "modern"), help="this corpus only")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)
    settings = {} if args.gate_only else {"no gate": Config()}
    if not args.no_gate:
        settings["gate"] = Config.from_dict({"boilerplate": {"method": "crf"}})
    corpora: dict[str, Callable[[Path, int], list[Item]]] = {"web2025": web2025_items, "modern": modern_items}
    if args.only:
        corpora = {args.only: corpora[args.only]}
    print(HEAD)
    print("-" * len(HEAD))
    figures = {}
    start = time.time()
    for name, items_of in corpora.items():
        items = items_of(args.corpora, args.limit)
        for setting, config in settings.items():
            row = compare(items, config, args.jobs)
            print(format_row(name, setting, row), flush=True)
            figures[f"{name}/{setting}"] = {s: vars(c) for s, c in row.styles.items()}
    print(f"({time.time() - start:.0f} s) stops+: lines ending with a full stop the page does not write "
          "there; lines not verbatim: lines (table cells) not in the page's text; paragraphs whole: gold "
          "paragraphs found inside one output paragraph among those found; breaks kept: consecutive gold "
          "paragraphs in two output paragraphs.")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
