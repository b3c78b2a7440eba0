"""WARC in, JSON Lines out: Kitten's docs/s on a WARC.gz of real pages against the same
pages given as files, beside trafilatura and resiliparse reading the same WARC.

    python benchmarks/warc_throughput.py [--pages 1000] [--rounds 3] [--corpora .cache/corpora]

The pages are the first of each shared corpus (sorted names) up to ``--pages``. They are
written once as files (``page-0000.html`` ...) and once as a WARC.gz of ``response``
records, one gzip member a record as Common Crawl writes them (no charset in the HTTP
header, as the files have none either). Each round runs, each in a fresh process on one
core (``-j 1``), whole process timed (start-up included):

- ``kitten files``: ``kitten extract FOLDER -o OUT -j 1``;
- ``kitten warc``: ``kitten extract X.warc.gz --format jsonl -o OUT.jsonl.gz -j 1``;
- ``trafilatura warc`` / ``resiliparse warc``: FastWARC's reader, the tool's extraction,
  one JSON line a record into a .jsonl.gz (the same work around the extraction).

The order of the tools is reversed every other round; printed: each round, then each
tool's median docs/s and the ratio of Kitten's WARC run to its file run. The texts of
the two Kitten runs are compared page by page (they must be identical).
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from kitten.io.warc import warc_record  # noqa: E402

CORPORA = ("modern", "cleaneval-final", "dragnet", "readability", "cleanportaleval", "cleaneval-dev")

PEER = r'''
import gzip, json, sys, logging
from fastwarc.warc import ArchiveIterator, WarcRecordType
tool, warc, out = sys.argv[1:4]
if tool == "trafilatura":
    import trafilatura
    logging.getLogger("trafilatura").setLevel(logging.CRITICAL)
    extract = lambda data: trafilatura.extract(data, include_comments=False) or ""
else:
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.encoding import bytes_to_str, detect_encoding
    from resiliparse.parse.html import HTMLTree
    extract = lambda data: extract_plain_text(HTMLTree.parse(bytes_to_str(data, detect_encoding(data))))
with gzip.open(out, "wt", encoding="utf-8") as fh:
    for rec in ArchiveIterator(open(warc, "rb"), record_types=WarcRecordType.response, auto_decode="all"):
        data = rec.reader.read()
        fh.write(json.dumps({"url": rec.headers.get("WARC-Target-URI"), "text": extract(data)}) + "\n")
'''


def pages(corpora: Path, n: int) -> list[tuple[str, bytes]]:
    out: list[tuple[str, bytes]] = []
    per = max(1, n // len(CORPORA))
    for name in CORPORA:
        folder = corpora / name / "html"
        if not folder.is_dir():
            raise SystemExit(f"missing {folder}: unpack ../shared/corpora/*.tar.xz into {corpora}")
        files = sorted(p for p in folder.iterdir() if p.is_file())
        out += [(f"{name}/{p.name}", p.read_bytes()) for p in files[:per]]
    more = [(f"{name}/{p.name}", p.read_bytes()) for name in CORPORA
            for p in sorted((corpora / name / "html").iterdir())[per:] if p.is_file()]
    return (out + more)[:n]


def timed(cmd: list[str], cpu: int | None) -> float:
    if cpu is not None and hasattr(os, "sched_setaffinity"):
        cmd = ["taskset", "-c", str(cpu), *cmd]
    start = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    took = time.perf_counter() - start
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {r.stderr[-2000:]}")
    return took


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpora", type=Path, default=ROOT / ".cache" / "corpora")
    ap.add_argument("--pages", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cpu", type=int, default=0, help="pin each run to this CPU (default 0; -1: no pinning)")
    args = ap.parse_args(argv)
    cpu = None if args.cpu < 0 or not hasattr(os, "sched_setaffinity") else args.cpu
    chosen = pages(args.corpora, args.pages)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        folder = tmp / "pages"
        folder.mkdir()
        names = {}
        with open(tmp / "x.warc.gz", "wb") as warc:
            for i, (name, data) in enumerate(chosen):
                (folder / f"page-{i:04d}.html").write_bytes(data)
                url = f"https://bench.kitten.invalid/{i:04d}/{name}"
                names[url] = f"page-{i:04d}.txt"
                warc.write(warc_record(url, data))
        size = (tmp / "x.warc.gz").stat().st_size
        print(f"{len(chosen)} pages, {sum(len(d) for _, d in chosen) / 1e6:.1f} MB as files, "
              f"WARC.gz {size / 1e6:.1f} MB")
        kitten = [sys.executable, "-m", "kitten", "extract"]
        runs = {
            "kitten files": lambda: timed([*kitten, str(folder), "-o", str(tmp / "out"), "-j", "1", "-q", "--overwrite"], cpu),
            "kitten warc": lambda: timed([*kitten, str(tmp / "x.warc.gz"), "--format", "jsonl", "-o",
                                          str(tmp / "k.jsonl.gz"), "-j", "1", "-q", "--overwrite"], cpu),
            "trafilatura warc": lambda: timed([sys.executable, "-c", PEER, "trafilatura", str(tmp / "x.warc.gz"),
                                               str(tmp / "t.jsonl.gz")], cpu),
            "resiliparse warc": lambda: timed([sys.executable, "-c", PEER, "resiliparse", str(tmp / "x.warc.gz"),
                                               str(tmp / "r.jsonl.gz")], cpu),
        }
        rates: dict[str, list[float]] = {k: [] for k in runs}
        for r in range(args.rounds):
            order = list(runs) if r % 2 == 0 else list(reversed(runs))
            line = []
            for tool in order:
                rate = len(chosen) / runs[tool]()
                rates[tool].append(rate)
                line.append(f"{tool} {rate:.1f}")
            print(f"round {r + 1}: " + ", ".join(line) + " docs/s")
        print(f"\n{'tool':<18} {'docs/s (median)':>16} {'range':>14}")
        for tool, values in rates.items():
            print(f"{tool:<18} {statistics.median(values):>16.1f} {min(values):>6.1f}-{max(values):<7.1f}")
        ratio = statistics.median(rates["kitten warc"]) / statistics.median(rates["kitten files"])
        print(f"\nkitten: WARC run at {ratio:.1%} of the file run's docs/s")
        with gzip.open(tmp / "k.jsonl.gz", "rt", encoding="utf-8") as fh:
            recs = [json.loads(x) for x in fh]
        differ = [r["url"] for r in recs
                  if (r["text"] or "") != ((tmp / "out" / names[r["url"]]).read_text(encoding="utf-8")
                                           if (tmp / "out" / names[r["url"]]).is_file() else "")]
        print(f"texts: {len(recs)} WARC records, {len(differ)} differ from the same page given as a file"
              + (f" (first: {differ[:3]})" if differ else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
