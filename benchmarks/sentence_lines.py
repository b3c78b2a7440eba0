"""How many output lines hold more than one sentence, for pysbd (issue 18's measure).

    kitten extract .cache/corpora/*/html --format jsonl -o out.jsonl.gz -j 2
    python benchmarks/sentence_lines.py out.jsonl.gz [before.jsonl.gz ...] [--every 4] [--lang en]

For each JSON Lines file (Kitten's records), the pages of language ``--lang`` whose id
falls in the sample (every ``--every``-th page by a hash of its id: the same pages in
every file), and their output lines of four words or more: pysbd (``clean=False``) splits
each line; a line it splits in two or more is a multi-sentence line. Printed per file:
pages, lines, multi-sentence lines and their share (the target: at most 3%), and a few
examples. pysbd's answers are cached in memory across the files (the same line is split
once).
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
from pathlib import Path


def records(path: Path):
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            yield json.loads(line)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--lang", default="en")
    ap.add_argument("--examples", type=int, default=8)
    args = ap.parse_args(argv)
    import pysbd

    seg = pysbd.Segmenter(language="en" if args.lang not in ("fr", "de", "es", "it", "nl") else args.lang, clean=False)
    cache: dict[str, int] = {}
    for path in args.files:
        pages = lines = multi = 0
        examples = []
        for rec in records(path):
            if rec.get("lang") != args.lang or not rec.get("text") or rec.get("status") != "done":
                continue
            if int(hashlib.sha1(rec["id"].encode()).hexdigest(), 16) % args.every:
                continue
            pages += 1
            for line in rec["text"].splitlines():
                if len(line.split()) < 4:
                    continue
                lines += 1
                n = cache.get(line)
                if n is None:
                    n = cache[line] = len([s for s in seg.segment(line) if s.strip()])
                if n > 1:
                    multi += 1
                    examples.append(line)
        share = multi / lines if lines else 0.0
        print(f"{path}: {pages} pages ({args.lang}), {lines} lines of 4+ words, {multi} hold 2+ sentences "
              f"for pysbd: {share:.2%}")
        for line in random.Random(1).sample(examples, min(args.examples, len(examples))):
            print(f"    {line[:160]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
