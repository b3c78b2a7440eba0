"""Sentence segmentation of Kitten and the linear extractors, beside the floor.

    python benchmarks/segmentation.py [--corpora .cache/corpora] [--set cleaneval-final]
                                      [--jobs 2] [--limit N] [--systems floor,kitten,...]

Scores, in one run, on the pages of a CLEANEVAL-style set whose gold has at least
one block: the floor (the gold itself, one block per line, a full stop added where a
block lacks one), Kitten, html-text and inscriptis, with the metric of
``kitten.evaluation.segmentation`` (GUIDE section 3; pysbd, English, ``clean=False``).
Prints pages scored, missed-boundary %, false-boundary %, % of aligned tokens in
sentences over 80 tokens and aligned-token coverage (micro averages over the set),
and the issue's targets next to Kitten's row.

pysbd runs at ~20 KB/s, so its answers are cached by the SHA-1 of the text in
``.cache/segmentation/pysbd-<version>.sqlite``: the gold side (floor, gold sentences)
and the peers' outputs are split once; later runs only split what changed (Kitten's
output). A cold cache (or ``--no-cache``) means splitting ~35 M characters: 23
minutes on this 2-core machine while it was shared; with a warm cache a run takes
~40 s, ~4-5 minutes when Kitten's output changed. ``--limit`` scores the first N
pages only.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing as mp
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _pages import DEFAULT_CORPORA  # noqa: E402
from peers import load_peer, missing_reason, run_peer  # noqa: E402

from kitten.evaluation.gold import Gold, corpus_pages  # noqa: E402
from kitten.evaluation.segmentation import (  # noqa: E402
    SegmentationScore,
    SegmentationSummary,
    floor_text,
    prepare_gold,
    pysbd_splitter,
    score_output,
    summarize_segmentation,
)

DEFAULT_SYSTEMS = ("floor", "kitten", "html-text", "inscriptis")
DEFAULT_CACHE = DEFAULT_CORPORA.parent / "segmentation"
CACHE_FORMAT = "v1"  # bump when what the splitter returns changes meaning
# The targets for Kitten, relative to the floor (points of %).
TARGET_MISSED_ABOVE_FLOOR = 3.0
TARGET_FALSE_MAX = 0.5
TARGET_LONG_ABOVE_FLOOR = 2.0


# --------------------------------------------------------------------------- cached pysbd

class CachedSplitter:
    """pysbd behind a read-only look-up in the cache database; what it had to split
    is kept in :attr:`new` for the parent process to store."""

    def __init__(self, db: Path | None) -> None:
        self._split = pysbd_splitter("en")
        self._db = sqlite3.connect(f"file:{db}?mode=ro", uri=True) if db and db.exists() else None
        self.new: dict[str, list[int]] = {}

    def __call__(self, text: str) -> list[int]:
        key = _key(text)
        if key in self.new:
            return self.new[key]
        if self._db is not None:
            row = self._db.execute("SELECT offsets FROM split WHERE key = ?", (key,)).fetchone()
            if row is not None:
                return json.loads(row[0])
        offsets = list(self._split(text))
        self.new[key] = offsets
        return offsets


def _key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


def _open_cache(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")  # workers read while the parent writes
    db.execute("CREATE TABLE IF NOT EXISTS split (key TEXT PRIMARY KEY, offsets TEXT NOT NULL)")
    db.commit()
    return db


# --------------------------------------------------------------------------- workers

@dataclass
class PageResult:
    name: str
    scores: dict[str, SegmentationScore]
    seconds: dict[str, float]
    new_splits: dict[str, list[int]] = field(default_factory=dict)


_WORKER: dict[str, object] = {}


def _init_worker(systems: Sequence[str], db: str | None) -> None:
    import warnings

    warnings.filterwarnings("ignore")
    _WORKER["systems"] = list(systems)
    _WORKER["extractors"] = {s: load_peer(s) for s in systems if s != "floor"}
    _WORKER["db"] = Path(db) if db else None


def _score_page(task: tuple[str, str, Gold]) -> PageResult:
    name, html_path, gold = task
    split = CachedSplitter(_WORKER["db"])  # type: ignore[arg-type]
    extractors = _WORKER["extractors"]
    side = prepare_gold(gold.blocks, split)
    data = Path(html_path).read_bytes()
    scores: dict[str, SegmentationScore] = {}
    seconds: dict[str, float] = {}
    for system in _WORKER["systems"]:  # type: ignore[attr-defined]
        t0 = time.perf_counter()
        if system == "floor":
            text: str | None = floor_text(gold.blocks)
        else:
            text = run_peer(extractors[system], data)  # type: ignore[index]
        seconds[system] = time.perf_counter() - t0
        scores[system] = score_output(side, text, split)
    return PageResult(name, scores, seconds, split.new)


# --------------------------------------------------------------------------- report

def _pct(x: float) -> str:
    return f"{100 * x:6.1f}"


def _print_table(set_name: str, summaries: dict[str, SegmentationSummary], pages: int,
                 elapsed: float) -> None:
    import pysbd

    print(f"Segmentation on {set_name}: {pages} pages with gold blocks; "
          f"pysbd {pysbd.__version__} (en, clean=False); long = more than 80 tokens; "
          f"micro averages; {elapsed:.0f} s")
    print(f"{'system':<12}{'pages':>6}{'failed':>7}{'empty':>6}{'missed %':>10}{'strict %':>9}{'false %':>9}"
          f"{'long %':>8}{'coverage %':>12}{'pairs':>8}")
    floor = summaries.get("floor")
    for system, s in summaries.items():
        row = (f"{system:<12}{s.pages:>6}{s.failed:>7}{s.empty:>6}{_pct(s.missed_rate):>10}"
               f"{_pct(s.strict_missed_rate):>9}"
               f"{100 * s.false_rate:>9.2f}{_pct(s.long_share):>8}{_pct(s.coverage):>12}{s.boundary_pairs:>8}")
        if system == "kitten" and floor is not None:
            row += "   " + _targets(s, floor)
        print(row)
    print("missed %: pairs inside a list introduced by a colon-ended block counted apart "
          "(joined on purpose); strict %: counted")
    if floor is None:
        print("(no floor row: add 'floor' to --systems to see the targets)")


def _targets(k: SegmentationSummary, floor: SegmentationSummary) -> str:
    checks = [
        ("missed", 100 * k.missed_rate, 100 * floor.missed_rate + TARGET_MISSED_ABOVE_FLOOR),
        ("false", 100 * k.false_rate, TARGET_FALSE_MAX),
        ("long", 100 * k.long_share, 100 * floor.long_share + TARGET_LONG_ABOVE_FLOOR),
    ]
    parts = [f"{name} <= {limit:.1f}: {'ok' if value <= limit else 'NOT MET'}"
             for name, value, limit in checks]
    return "targets: " + "; ".join(parts)


# --------------------------------------------------------------------------- main

def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA)
    ap.add_argument("--set", default="cleaneval-final", help="a CLEANEVAL-style corpus (default cleaneval-final)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--limit", type=int, default=0, help="score the first N pages only (0: all)")
    ap.add_argument("--systems", default=",".join(DEFAULT_SYSTEMS),
                    help=f"comma-separated, from floor and the peers (default {','.join(DEFAULT_SYSTEMS)})")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="folder of the pysbd cache")
    ap.add_argument("--no-cache", action="store_true", help="neither read nor write the pysbd cache")
    args = ap.parse_args(argv)

    import pysbd

    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    for s in systems:
        if s != "floor" and (reason := missing_reason(s)):
            raise SystemExit(f"{s}: {reason}")
    try:
        tasks = [(name, str(path), gold) for name, path, gold in corpus_pages(args.corpora, args.set)
                 if gold is not None and gold.blocks]
    except FileNotFoundError as e:
        raise SystemExit(str(e)) from None
    if args.limit:
        tasks = tasks[: args.limit]
    # Longest pages first: the pool ends together.
    order = sorted(range(len(tasks)), key=lambda i: -len(tasks[i][2].text))

    db_path = None if args.no_cache else args.cache / f"pysbd-{pysbd.__version__}-{CACHE_FORMAT}.sqlite"
    db = _open_cache(db_path) if db_path else None
    t0 = time.perf_counter()
    results: dict[str, PageResult] = {}
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    with ctx.Pool(max(1, args.jobs), initializer=_init_worker,
                  initargs=(systems, str(db_path) if db_path else None)) as pool:
        for n, r in enumerate(pool.imap_unordered(_score_page, [tasks[i] for i in order]), 1):
            results[r.name] = r
            if db is not None and r.new_splits:
                db.executemany("INSERT OR IGNORE INTO split VALUES (?, ?)",
                               [(k, json.dumps(v)) for k, v in r.new_splits.items()])
                db.commit()
            if sys.stderr.isatty():
                print(f"\r{n}/{len(tasks)} pages", end="", file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    elapsed = time.perf_counter() - t0

    summaries = {s: summarize_segmentation(results[t[0]].scores[s] for t in tasks) for s in systems}
    _print_table(args.set, summaries, len(tasks), elapsed)


if __name__ == "__main__":
    main()
