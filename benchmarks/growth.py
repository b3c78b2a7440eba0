"""Does any step grow faster than the page? Times of whole extraction (and of each step)
on generated pages of growing size, one process.

    python benchmarks/growth.py [--only table,rowheads,words,flat,list,lists,attrs] [--format text|json] [--big]
                                [--process ROUNDS]

Pages (generated, nothing read from disk):
- ``table``: a data table of 50 columns (a header row, then numbers), 500 / 1,000 / 1,900
  rows (issue 19: 1,900 rows under 2 s, time linear in cells);
- ``rowheads``: the same with a header cell naming each row (50 x 500 / 1,000 / 1,900);
- ``words``: issue 39's page, a ``th`` header row and a ``th`` row header per row, the
  other cells short values, numbers and words (50 x 500 / 1,000 / 1,900: 1,900 rows
  under 2 s whole process, one core);
- ``flat``: flat sibling ``div`` paragraphs, 2 / 4 / 8 MB (``--big``: and 30 MB, under 30 s);
- ``list``: one flat list of link items, 5,000 / 10,000 / 20,000 items;
- ``lists``: sibling lists of one link item each (each removal logged with the list's
  locator), 5,000 / 10,000 / 20,000 lists (``--big``: and 80,000);
- ``attrs``: one element with 50,000 / 100,000 / 200,000 attributes (under 5 s).

For each size: seconds of the whole ``run_page`` (best of 2 below 10 s), in this process
with the garbage collector set as in a worker (``kitten.workers.GC_THRESHOLD``, what the
warm-up page loaded frozen, paused during a page), and the
ratio of time per unit of size to the smallest size's (1.0 = linear; 2.0 at twice the
size = quadratic). ``--format json`` also renders the JSON output (per-block locators).

``--process ROUNDS``: also, for each page, the whole process as a user runs it, ``python
-m kitten extract page.html`` of this checkout in a new process (start-up, models, the
worker process, the output written), ROUNDS times: the median of its CPU seconds (user and
system, with its worker's: what one core spends) and of its wall seconds (noisy on a
shared machine).
"""
from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kitten.config import Config
from kitten.page import Page
from kitten.pipeline import run_page
from kitten.workers import GC_THRESHOLD


def table(rows: int) -> bytes:
    head = "<tr>" + "".join(f"<th>Column {c}</th>" for c in range(50)) + "</tr>"
    body = "".join("<tr>" + "".join(f"<td>{r * c}</td>" for c in range(50)) + "</tr>" for r in range(rows))
    return f"<html><body><table>{head}{body}</table></body></html>".encode()


def row_header_table(rows: int) -> bytes:
    """A table whose rows are named by a header cell (each name is searched for in the clauses)."""
    head = "<tr><th>Name</th>" + "".join(f"<th>Column {c}</th>" for c in range(49)) + "</tr>"
    body = "".join(f"<tr><th>Person number {r}</th>" + "".join(f"<td>{r * c}</td>" for c in range(49)) + "</tr>"
                   for r in range(rows))
    return f"<html><body><table>{head}{body}</table></body></html>".encode()


WORDS = ("red", "green", "blue", "yes", "no", "north", "south", "open", "closed", "high")


def words_table(rows: int) -> bytes:
    """Issue 39's page: a ``th`` header row, a ``th`` naming each row, and short values in
    the other cells, a word in every third column and numbers in the others."""
    head = "<tr><th>Name</th>" + "".join(f"<th>Column {c}</th>" for c in range(49)) + "</tr>"
    body = "".join(f"<tr><th>Item {r}</th>" + "".join(
        f"<td>{WORDS[(r + c) % len(WORDS)] if c % 3 == 0 else r * c}</td>" for c in range(49)) + "</tr>"
        for r in range(rows))
    return f"<html><body><table>{head}{body}</table></body></html>".encode()


def flat(mb: float) -> bytes:
    out, size, i = ["<html><body>"], 0, 0
    while size < mb * 2**20:
        line = f"<div>Sibling block {i} with a few words of text.</div>\n"
        out.append(line)
        size += len(line)
        i += 1
    out.append("</body></html>")
    return "".join(out).encode()


def link_list(items: int) -> bytes:
    lis = "".join(f'<li><a href="/p{i}">Page {i}</a></li>' for i in range(items))
    return f"<html><body><p>Pages of the site:</p><ul>{lis}</ul><p>The end of the page.</p></body></html>".encode()


def sibling_lists(n: int) -> bytes:
    uls = "".join(f'<ul><li><a href="/p{i}">Page {i}</a></li></ul>' for i in range(n))
    return f"<html><body><p>Pages of the site.</p>{uls}<p>The end of the page.</p></body></html>".encode()


def attrs(n: int) -> bytes:
    a = " ".join(f'data-a{i}="{i}"' for i in range(n))
    return f"<html><body><div {a}>One paragraph of text.</div></body></html>".encode()


KINDS = {
    "table": (table, (500, 1000, 1900), "rows"),
    "rowheads": (row_header_table, (500, 1000, 1900), "rows"),
    "words": (words_table, (500, 1000, 1900), "rows"),
    "flat": (flat, (2, 4, 8), "MB"),
    "list": (link_list, (5000, 10000, 20000), "items"),
    "lists": (sibling_lists, (5000, 10000, 20000), "lists"),
    "attrs": (attrs, (50000, 100000, 200000), "attributes"),
}


def timed(data: bytes, config: Config, target: str) -> tuple[float, str]:
    best, status = float("inf"), ""
    for _ in range(2):
        gc.disable()  # as a worker runs a page (kitten.workers._page)
        t0 = time.perf_counter()
        result = run_page(Page(data, "page.html"), config, target)
        best = min(best, time.perf_counter() - t0)
        gc.enable()
        status = result.status
        if best > 10:
            break
    return best, status


def whole_process(data: bytes, target: str, rounds: int) -> tuple[float, float]:
    """Median CPU seconds (user and system, the worker's included) and median wall seconds
    of ``python -m kitten extract`` of this checkout on ``data``, in a new process each round."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    cpu, wall = [], []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "page.html"
        path.write_bytes(data)
        for _ in range(rounds):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "kitten", "extract", "-q", "--format", target, str(path)],
                           check=True, env=env, cwd=tmp, stdout=subprocess.DEVNULL)
            wall.append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(cpu), statistics.median(wall)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=",".join(KINDS))
    ap.add_argument("--format", default="text", choices=("text", "json"))
    ap.add_argument("--big", action="store_true", help="also the 30 MB flat page and 80,000 sibling lists")
    ap.add_argument("--process", type=int, default=0, metavar="ROUNDS",
                    help="also time each page in a new `kitten extract` process, ROUNDS times (median)")
    args = ap.parse_args(argv)
    gc.set_threshold(*GC_THRESHOLD)
    config = Config()
    run_page(Page(table(3), "warm.html"), config, args.format)  # models loaded
    gc.collect()
    gc.freeze()  # as a worker does after its first page
    for kind in args.only.split(","):
        make, sizes, unit = KINDS[kind]
        if kind == "flat" and args.big:
            sizes = (*sizes, 30)
        if kind == "lists" and args.big:
            sizes = (*sizes, 80000)
        first = None
        for size in sizes:
            data = make(size)
            seconds, status = timed(data, config, args.format)
            per = seconds / size
            first = first or per
            print(f"{kind:6s} {size:>7,} {unit:10s} {len(data) / 1e6:7.1f} MB  {seconds:7.2f} s  "
                  f"time per {unit[:-1] if unit.endswith('s') else unit} x{per / first:4.2f} of the smallest  {status}",
                  flush=True)
            if args.process:
                cpu, wall = whole_process(data, args.format, args.process)
                print(f"{'':6s} {'':>7s} {'':10s} {'':10s}  whole process: {cpu:5.2f} s CPU, {wall:5.2f} s wall "
                      f"(median of {args.process})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
