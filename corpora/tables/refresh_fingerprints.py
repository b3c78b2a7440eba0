"""Bring the table labels up to date after a change of the text steps.

    python corpora/tables/refresh_fingerprints.py --why "sortkey and visibility:hidden text left out"

A label is keyed by its page, the table's locator and a fingerprint of the table's text
(``kitten/train/table_corpus.py``), so that a label whose table changed is noticed
instead of applied to something else. When a rule of the structure step changes what
text a table holds (hidden sort keys left out) or whether it is read at all (a table
inside a ``visibility:hidden`` menu), the labels go stale. This script looks at each
stale label: when its table is still there with the same cells (for cell labels: every
labelled cell still starts at its row and column), the fingerprint is refreshed and the
note says why; when the table is no longer read, the label is marked ``retired`` with
the reason (``labelled_tables`` skips retired labels). Anything else is printed and left
alone, for a person to look at.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from kitten.train.table_corpus import fingerprint, labelled_tables, page_tables, read_jsonl, write_jsonl  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpora", type=Path, default=ROOT / ".cache" / "corpora")
    ap.add_argument("--labels", type=Path, default=ROOT / "corpora" / "tables")
    ap.add_argument("--why", required=True, help="what changed (written in the notes)")
    args = ap.parse_args(argv)
    for name in ("tables.jsonl", "cells.jsonl"):
        path = args.labels / name
        records = read_jsonl(path)
        stale: list[dict] = []
        for _ in labelled_tables(args.corpora, records, stale=stale):
            pass
        refreshed = retired = left = 0
        by_page: dict[str, list[dict]] = {}
        for r in stale:
            by_page.setdefault(r["page"], []).append(r)
        for page, recs in by_page.items():
            tables = {t.locator: t for t in page_tables(args.corpora / page, page)}
            for r in recs:
                t = tables.get(r["locator"])
                if t is None:
                    r["retired"] = f"table no longer read: {args.why}"
                    retired += 1
                    continue
                starts = {(c.row, c.col) for c in t.grid.cells}
                if "cells" in r and not all((row, col) in starts for row, col, _ in r["cells"]):
                    print(f"left alone (cells moved): {page} {r['locator']}")
                    left += 1
                    continue
                r["fingerprint"] = fingerprint(t.grid)
                r["note"] = (r.get("note", "") + f" [fingerprint refreshed: {args.why}]").strip()
                refreshed += 1
        write_jsonl(path, records)
        print(f"{name}: {len(stale)} stale: {refreshed} refreshed, {retired} retired, {left} left alone")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
