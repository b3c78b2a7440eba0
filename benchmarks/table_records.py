"""Records of the Wikipedia tables against the CSV given with each page.

For each page of ``wikipedia-tables/pages/<set>/<n>.html`` with its CSV
(``tables/<set>/<n>.csv``: the WikiTableQuestions reading of one of its tables), the
page goes through ``kitten extract`` and the CSV's table is found among the page's leaf
tables by its text alone (the leaf table whose words overlap the CSV's most, token F1;
records play no part in it). That table *matches* when Kitten reads it as data and its
records (``kitten/tables/records.py``) equal the CSV:

* the same column headers in the same order: a CSV header's lines are its levels, a
  record key's levels are split on " / "; levels compared with white space collapsed and
  case ignored, a level repeated right below itself counted once, Kitten's "column N"
  (no header) equal to an empty CSV header, Kitten's " (2)" of a repeated header
  ignored;
* the same rows in the same order, each value equal with white space collapsed (a slot
  no cell covers equals an empty value). The ``@thema`` and ``@section`` keys are not
  compared (the CSV has no such column).

The CSV's own conventions, allowed for: quotes escaped with a backslash; citation marks
("[9]") and default-ignorable characters left out; a header's lines are its levels, and
also line breaks inside a header; the columns without text (images, colour keys) left
out; rows that are no data rows kept (a copy of the header row, a section row: "01:
Ain" alone, or one text across the row), which are not compared. Kitten's own: the
title of an ``<abbr>`` it adds in brackets is taken out before comparing. Other rows the
CSV keeps or leaves out make a table a miss. ``--show N`` prints the first difference of N misses.

    python benchmarks/table_records.py
    python benchmarks/table_records.py --show 20

Prints the share of CSV tables whose records match (issue 21 asks >= 90%).
"""
from __future__ import annotations

import argparse
import csv
import io
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _pages import DEFAULT_CORPORA  # noqa: E402
from table_facts import table_pages  # noqa: E402

from kitten.config import Config  # noqa: E402
from kitten.page import Page  # noqa: E402
from kitten.pipeline import run_page  # noqa: E402
from kitten.tables.records import LEVEL_SEPARATOR, THEMA_KEY, SECTION_KEY  # noqa: E402

_WORD = re.compile(r"\w+")
_NUMBERED = re.compile(r" \(\d+\)$")
_NO_HEADER = re.compile(r"column \d+$")


#: citation marks ("[9]", "[note 2]", "[a]", "[citation needed]"), which the CSVs leave out
_CITATION = re.compile(r"\[\s*(?:\d+|[a-z]|[a-z]*\.? ?\d+|citation needed|nb \d+|note \d+)\s*\]", re.I)


#: default-ignorable characters (BOM, zero-width space, soft hyphen ...), which Kitten removes
_IGNORABLE = re.compile("[\u00ad\u200b\u2060\ufeff\u200e\u200f\u202a-\u202e]")


def norm(text: str | None, expansions: tuple[tuple[str, str], ...] = ()) -> str:
    text = " ".join(_CITATION.sub(" ", _IGNORABLE.sub("", text or "")).split()).lower()
    for long, short in expansions:
        text = text.replace(long, short)
    return text


def header(levels: list[str], expansions=()) -> str:
    """A header compared as its levels (a CSV's lines, a key's parts) joined by a space,
    a level repeated right below itself counted once, without a final colon."""
    out: list[str] = []
    for level in levels:
        level = norm(level, expansions).rstrip(" :")
        if level and (not out or out[-1] != level):
            out.append(level)
    return " ".join(out).replace(" / ", " ")


def read_csv(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8")), escapechar="\\"))


def key_header(key: str, expansions=()) -> str:
    """A record key as :func:`header` compares it ("column N", no header, as "")."""
    if _NO_HEADER.match(key):
        return ""
    return header(_NUMBERED.sub("", key).split(LEVEL_SEPARATOR), expansions)


def own_columns(keys: list[str], records: list[dict], expansions=()) -> list[str]:
    """The keys of the columns with text of their own: not empty in every record, and not
    a copy of the column before under the same header (a colour key under "Party" whose
    only text is the "Total" spanning both)."""
    out = []
    for i, k in enumerate(keys):
        values = [norm(r.get(k), expansions) for r in records]
        if not any(values):
            continue
        if i + 1 < len(keys) and key_header(keys[i + 1]) == key_header(k) \
                and all(not v or v == norm(r.get(keys[i + 1]), expansions) for v, r in zip(values, records)):
            continue
        out.append(k)
    return out


def data_rows(rows: list[list[str]]) -> list[list[str]]:
    """The CSV's rows without those it keeps that are no data rows: a copy of its header
    row (a header repeated inside the table) and a section row (one text, alone or
    repeated across the row: "01: Ain", "Group A"), which records carry as ``@section``."""
    head = [norm(v) for v in rows[0]]
    out = []
    for row in rows[1:]:
        values = [norm(v) for v in row]
        texts = {v for v in values if v}
        if values == head or (len(row) > 1 and values[0] and texts == {values[0]}):
            continue
        out.append(row)
    return out


def compare(rows: list[list[str]], records: list[dict], expansions=()) -> str | None:
    """None when the records equal the CSV rows, else the first difference."""
    gold_keys = [header(h.split("\n")) for h in rows[0]]
    gold = data_rows(rows)
    if not records:
        return "no records"
    keys = [k for k in records[0] if k not in (THEMA_KEY, SECTION_KEY)]
    kept = keys
    if len(keys) > len(gold_keys):  # the CSVs leave out the columns without text (images, colour keys)
        kept = own_columns(keys, records, expansions)
    mine = [key_header(k, expansions) for k in kept]
    if mine != gold_keys:
        return f"headers {mine} != {gold_keys}"
    if len(records) != len(gold):
        return f"{len(records)} records != {len(gold)} CSV rows"
    columns = [keys.index(k) for k in kept]  # by position: records under another header run have other keys
    for i, (record, row) in enumerate(zip(records, gold)):
        own = [v for k, v in record.items() if k not in (THEMA_KEY, SECTION_KEY)]
        values = [norm(own[c] if c < len(own) else "", expansions) for c in columns]
        if values != [norm(v) for v in row]:
            return f"row {i}: {values} != {[norm(v) for v in row]}"
    return None


def find_table(tables, rows: list[list[str]]):
    """The leaf table (a TableReading) whose words overlap the CSV's most (token F1)."""
    gold = Counter(w for row in rows for v in row for w in _WORD.findall(v.lower()))
    best, best_f1 = None, 0.0
    for t in tables:
        mine = Counter(_WORD.findall(t.text.lower()))
        common = sum((mine & gold).values())
        if common:
            p, r = common / sum(mine.values()), common / sum(gold.values())
            f1 = 2 * p * r / (p + r)
            if f1 > best_f1:
                best, best_f1 = t, f1
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA)
    ap.add_argument("--show", type=int, default=0, help="print the first difference of this many misses")
    args = ap.parse_args(argv)
    base = args.corpora / "wikipedia-tables"
    config = Config()
    n = matched = not_data = not_found = 0
    shown = 0
    for page, csv_path in table_pages(args.corpora):
        rows = read_csv(csv_path)
        if not rows:
            continue
        n += 1
        result = run_page(Page(data=page.read_bytes(), url=None, headers=None), config, "text")
        table = find_table(result.products.get("tables") or [], rows)
        if table is None:
            not_found += 1
            why = "table not found"
        elif table.label != "data":
            not_data += 1
            why = f"read as {table.label} (p={table.score:.2f})"
        else:
            doc = result.products["structure"]
            expansions = tuple((norm(f"{a.text} ({a.title})"), norm(a.text)) for a in doc.abbreviations
                               if a.expanded)
            why = compare(rows, table.records(), expansions)
            matched += why is None
        if why and shown < args.show:
            shown += 1
            print(f"  miss {page.relative_to(base)}: {why[:600]}")
    print(f"{n} CSV tables: records match {matched}/{n} = {100 * matched / max(n, 1):.1f}% "
          f"(not read as data: {not_data}, not found: {not_found})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
