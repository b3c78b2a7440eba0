"""Size and rendering time of the visual report of a large page (issue 21: a 5 MB page's
report renders in Chromium in under 5 s and weighs under 3x the page).

The page is made of the bodies of the shared Wikipedia table pages (text, data tables,
lists, links: every kind of decision the report draws) concatenated up to ``--mb``
megabytes under one head. The script converts it (``run_page``, as ``kitten report``
does), builds and writes the report, then opens it in Debian's headless Chromium through
playwright and prints the time from navigation start to the end of the load event
(``PerformanceNavigationTiming.loadEventEnd``, median of ``--rounds``), the time to the
first screenshot after it, and the sizes.

    python benchmarks/report_size.py            # --mb 5 --rounds 3
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _pages import DEFAULT_CORPORA

from kitten.config import Config
from kitten.page import Page
from kitten.pipeline import run_page
from kitten.report import build_report

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
_BODY = re.compile(rb"<body[^>]*>(.*)</body>", re.S | re.I)


def big_page(corpora: Path, size: int) -> bytes:
    """The bodies of the Wikipedia table pages, in name order (repeated if need be), up to
    ``size`` bytes, in one UTF-8 page."""
    bodies = []
    for path in sorted((corpora / "wikipedia-tables" / "pages").rglob("*.html")):
        raw = path.read_bytes()
        m = _BODY.search(raw)
        bodies.append(m.group(1) if m else raw)  # these pages are body fragments (action=render)
    if not bodies:
        raise SystemExit(f"no pages in {corpora / 'wikipedia-tables'}: unpack the shared corpora")
    head = b'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Big page</title></head><body>'
    parts, total, i = [head], len(head), 0
    while total < size:
        parts.append(bodies[i % len(bodies)])
        total += len(bodies[i % len(bodies)])
        i += 1
    parts.append(b"</body></html>")
    return b"".join(parts)


def load_time(path: Path, rounds: int) -> tuple[list[float], list[float]]:
    """Seconds from navigation start to the end of the load event, and to a screenshot
    taken right after it, in a new page each round."""
    from playwright.sync_api import sync_playwright

    loads, shots = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(rounds):
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            start = time.perf_counter()
            page.goto(path.as_uri(), wait_until="load", timeout=120_000)
            loads.append(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd") / 1000)
            page.screenshot()
            shots.append(time.perf_counter() - start)
            page.close()
        browser.close()
    return loads, shots


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=5.0, help="size of the page in MB (default 5)")
    ap.add_argument("--rounds", type=int, default=3, help="page loads in Chromium (median printed)")
    ap.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA)
    ap.add_argument("--keep", type=Path, help="write the page and its report in this folder")
    args = ap.parse_args()
    data = big_page(args.corpora, int(args.mb * 1_000_000))
    t = time.perf_counter()
    result = run_page(Page(data, "big.html"), Config(), "text")
    convert = time.perf_counter() - t
    t = time.perf_counter()
    report, info = build_report(result)
    build = time.perf_counter() - t
    folder = args.keep or Path(tempfile.mkdtemp(prefix="kitten-report-size-"))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "big.html").write_bytes(data)
    path = folder / "big.report.html"
    path.write_text(report, encoding="utf-8")
    size = path.stat().st_size
    print(f"page: {len(data) / 1e6:.2f} MB, {info['sentences']:,} sentences, {info['data_tables']} data tables, "
          f"{info['lists']} lists; status {result.status}")
    print(f"convert {convert:.2f} s, report built in {build:.2f} s")
    print(f"report: {size / 1e6:.2f} MB = {size / len(data):.2f} x the page (target < 3)")
    if not Path(CHROMIUM).is_file():
        print(f"no Chromium at {CHROMIUM}: no render time", file=sys.stderr)
        return 1
    loads, shots = load_time(path, args.rounds)
    print(f"Chromium: load event end {statistics.median(loads):.2f} s (rounds {', '.join(f'{x:.2f}' for x in loads)}; "
          f"target < 5), first screenshot after {statistics.median(shots):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
