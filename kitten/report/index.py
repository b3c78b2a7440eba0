"""The index of a batch's reports: ``DIR/index.html``, one row a page, sorted by status,
reason and share of the page's text removed.

Each row comes from the JSON summary in the head of a page's report (``page.py``);
pages without a report (excluded, failed, timed out) come from the batch log
(``kitten-log.jsonl``) when it is given.
"""
from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path

from kitten.io.files import atomic_write
from kitten.report.page import REPORT_SUFFIX, SUMMARY_ID, template

INDEX_NAME = "index.html"
#: order of the statuses in the index: what needs looking at first
STATUS_ORDER = {"failed": 0, "timeout": 1, "fallback": 2, "excluded": 3, "done": 4}
_SUMMARY = re.compile(r'<script type="application/json" id="' + SUMMARY_ID + r'">(.*?)</script>', re.S)
#: how much of a report's beginning holds its summary
_HEAD_BYTES = 65536


def read_summary(path: Path) -> dict | None:
    with open(path, encoding="utf-8", errors="replace") as f:
        m = _SUMMARY.search(f.read(_HEAD_BYTES))
    return json.loads(m.group(1)) if m else None


def summaries(report_dir: Path, log_path: Path | None = None) -> list[dict]:
    """The summary of every report below ``report_dir`` (with its ``href``), plus the
    log lines of the pages without a report."""
    rows = []
    seen = set()
    for path in sorted(report_dir.rglob("*" + REPORT_SUFFIX)):
        info = read_summary(path)
        if info is not None:
            info["href"] = os.path.relpath(path, report_dir)
            rows.append(info)
            seen.add(info["page"])
    if log_path is not None and log_path.is_file():
        for line in log_path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict) and entry.get("page") and entry["page"] not in seen \
                    and entry.get("status") not in ("done", "fallback"):
                rows.append({"page": entry["page"], "status": entry.get("status", ""),
                             "reason": entry.get("reason") or ""})
    return rows


def sort_key(row: dict) -> tuple:
    return STATUS_ORDER.get(row.get("status", ""), 5), row.get("reason") or "", -row.get("removed_share", 0.0), row["page"]


def row_html(row: dict) -> str:
    page = html.escape(row["page"])
    link = f'<a href="{html.escape(row["href"])}">{page}</a>' if "href" in row else page
    share = row.get("removed_share")
    removed = f'<span class="bar" style="width:{share * 80:.0f}px"></span>{share:.0%}' if share is not None else ""
    cells = [link, html.escape(row.get("status", "")), html.escape(row.get("reason") or ""),
             html.escape(row.get("gate") or ""), removed]
    numbers = [str(row[k]) if k in row else "" for k in ("sentences", "data_tables", "layout_tables", "lists",
                                                         "link_items_removed", "containers_removed")]
    return (f'<tr class="st-{html.escape(row.get("status", ""))}">' + "".join(f"<td>{c}</td>" for c in cells)
            + "".join(f'<td class="n">{n}</td>' for n in numbers) + "</tr>")


def write_index(report_dir: Path, log_path: Path | None = None) -> Path:
    """Write ``report_dir/index.html`` for the reports below it."""
    rows = sorted(summaries(report_dir, log_path), key=sort_key)
    text = template(INDEX_NAME).replace("<!--k:count-->", str(len(rows))) \
                               .replace("<!--k:rows-->", "\n".join(map(row_html, rows)), 1)
    path = report_dir / INDEX_NAME
    atomic_write(path, text)
    return path
