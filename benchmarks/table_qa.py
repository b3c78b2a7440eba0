"""Table-lookup questions over the Wikipedia table pages: does a simple retriever find the answer?

For each page of ``wikipedia-tables/pages/<set>/<n>.html`` with its CSV
(``tables/<set>/<n>.csv``, the gold reading of one of its tables), questions are made
from the CSV, the way a table-lookup QA set asks them: the row's key is the first
column's value (the entity the row is about: a name, a year, a place), and for every
other column with a value, "what is <column header> of <row key>?", whose answer is the
cell's value. Rows whose key is not unique in the table and values equal to their
header are skipped; at most ``--rows`` rows per table (the first ones).

The retriever is the plain one a QA pipeline starts with: the extractor's output lines
(a line: a sentence for Kitten) are ranked by BM25 against the question's words (the
column header and the row key, lower-cased, punctuation ignored), over the lines of that
page only; a question is answered at rank 1 when the best line contains the answer
(white space collapsed, case ignored), and at rank 5 when one of the first five does.

    python benchmarks/table_qa.py                              # kitten, html-text, inscriptis
    python benchmarks/table_qa.py --tools kitten          # after a change; for before, the same
                                                          # command in a checkout of before (its
                                                          # own PYTHONPATH)

Prints, per tool, the share of questions answered at rank 1 and within rank 5.
"""
from __future__ import annotations

import argparse
import csv
import io
import math
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _pages import DEFAULT_CORPORA  # noqa: E402
from peers import load_peer, run_peer  # noqa: E402
from table_facts import table_pages  # noqa: E402

_WORD = re.compile(r"\w+")
K1, B = 1.2, 0.75


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def questions(csv_path: Path, max_rows: int) -> list[tuple[list[str], str]]:
    """(question words, answer) for the table of a CSV."""
    rows = list(csv.reader(io.StringIO(csv_path.read_text(encoding="utf-8")), escapechar="\\"))
    if len(rows) < 2:
        return []
    headers = [" ".join(h.split()) for h in rows[0]]
    keys = Counter(_norm(r[0]) for r in rows[1:] if r)
    out = []
    for row in rows[1:max_rows + 1]:
        if not row or not _norm(row[0]) or keys[_norm(row[0])] > 1:
            continue
        key = row[0]
        for header, value in zip(headers[1:], row[1:]):
            value = _norm(value)
            if value and header and value != _norm(header) and value != _norm(key):
                out.append((_WORD.findall(f"{header} {key}".lower()), value))
    return out


def rank(lines: list[str], query: list[str]) -> list[int]:
    """Line indexes by BM25 score against ``query``, best first."""
    docs = [_WORD.findall(line) for line in lines]
    n = len(docs) or 1
    avg = sum(map(len, docs)) / n or 1.0
    df = Counter(w for d in docs for w in set(d))
    q = set(query)
    scores = []
    for i, d in enumerate(docs):
        tf = Counter(w for w in d if w in q)
        s = 0.0
        for w, f in tf.items():
            idf = math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5))
            s += idf * f * (K1 + 1) / (f + K1 * (1 - B + B * len(d) / avg))
        scores.append((-s, i))
    return [i for _, i in sorted(scores)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA)
    ap.add_argument("--tools", default="kitten,html-text,inscriptis")
    ap.add_argument("--rows", type=int, default=10, help="rows per table asked about")
    args = ap.parse_args(argv)
    gold = [(page, questions(csv_path, args.rows)) for page, csv_path in table_pages(args.corpora)]
    n = sum(len(q) for _, q in gold)
    print(f"{len(gold)} pages, {n} questions (column header + row key -> value, at most {args.rows} rows a table)")
    for tool in args.tools.split(","):
        extract = load_peer(tool)
        at1 = at5 = 0
        for page, qs in gold:
            text = run_peer(extract, page.read_bytes()) or ""
            lines = [_norm(line) for line in text.splitlines() if line.strip()]
            for query, answer in qs:
                best = rank(lines, query)[:5]
                hits = [answer in lines[i] for i in best]
                at1 += bool(hits[:1] and hits[0])
                at5 += any(hits)
        print(f"{tool:<16} rank 1: {at1}/{n} = {100 * at1 / max(n, 1):.1f}%   rank 5: {100 * at5 / max(n, 1):.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
