"""Remake the README's screenshots of the visual report (docs/report-*.png).

    python docs/screenshots.py      # needs the shared corpora, the crf extra, playwright and /usr/bin/chromium
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from kitten.cli import main

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / ".cache" / "corpora"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: (screenshot, page, extra options, sentence clicked)
SHOTS = [
    ("report-tables.png", "wikipedia-tables/pages/200/0.html", [], '.ks[title="table_row"]'),
    ("report-lists.png", "readability/html/google-sre-book-1.html", [], '.ks[title="list_item"] >> nth=2'),
    ("report-gated.png", "modern/html/n4k_wired_001.html", ["--boilerplate", "crf"], '.ks[title="paragraph"] >> nth=3'),
]


def shoot() -> None:
    out = Path(tempfile.mkdtemp(prefix="kitten-shots-"))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for name, page_path, extra, click in SHOTS:
            folder = out / name
            assert main(["report", str(CORPORA / page_path), "-o", str(folder), "-q", *extra]) == 0
            report = next(folder.glob("*.report.html"))
            page = browser.new_page(viewport={"width": 1200, "height": 720})
            page.goto(report.as_uri())
            page.locator("#k-text " + click).first.click()
            page.screenshot(path=str(ROOT / "docs" / name))
            page.close()
        browser.close()


if __name__ == "__main__":
    shoot()
