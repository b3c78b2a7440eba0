"""Check that the C writer (``kitten/normalizer/_fastwrite.c``) writes what the Python
writer writes, on every page of the shared corpora.

    python benchmarks/writer_check.py [--corpora .cache/corpora] [--jobs 2] [--every K]

For each page (decoded as ``kitten normalize`` decodes it), ``to_xhtml`` runs with
``[normalize] fast_writer`` on and off; prints per corpus the pages compared and the
pages whose XHTML or normalize log differ (the first few named), and the time of each.
"""
from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_check import discover  # noqa: E402

from kitten.config import Config, NormalizeConfig  # noqa: E402
from kitten.log import PageLog  # noqa: E402
from kitten.normalizer import to_xhtml  # noqa: E402
from kitten.normalizer.encoding import decode  # noqa: E402
from kitten.normalizer.fastwrite import fast_writer  # noqa: E402

ON, OFF = NormalizeConfig(), NormalizeConfig(fast_writer=False)


def compare(path: str) -> tuple[bool, float, float]:
    """(same output and log, seconds with the C writer, seconds without)."""
    text = decode(Path(path).read_bytes(), Config().decode, PageLog()).text
    results = []
    times = []
    for config in (ON, OFF):
        log = PageLog()
        t0 = time.perf_counter()
        try:
            out = to_xhtml(text, config, log)
        except Exception as e:  # the same failure both ways is the same behaviour
            out = f"{type(e).__name__}: {e}"
        times.append(time.perf_counter() - t0)
        results.append((out, [(e.kind, e.message) for e in log.events]))
    return results[0] == results[1], times[0], times[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpora", type=Path, default=ROOT / ".cache" / "corpora")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--every", type=int, default=1)
    args = ap.parse_args()
    if fast_writer() is None:
        raise SystemExit("the C writer is not available (see the warning above)")
    pages = discover(args.corpora, every=args.every)
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(compare, [p.path for p in pages], chunksize=8)
    by_corpus: dict[str, list] = {}
    for page, r in zip(pages, results):
        by_corpus.setdefault(page.corpus, []).append((page.name, *r))
    print(f"{'corpus':18s} {'pages':>6s} {'differ':>6s} {'C s':>7s} {'Python s':>9s}")
    for corpus, rows in by_corpus.items():
        differ = [name for name, same, _, _ in rows if not same]
        print(f"{corpus:18s} {len(rows):6d} {len(differ):6d} {sum(r[2] for r in rows):7.1f} "
              f"{sum(r[3] for r in rows):9.1f}  {' '.join(differ[:5])}")
    total = sum(len(r) for r in by_corpus.values())
    differ = sum(1 for rows in by_corpus.values() for r in rows if not r[1])
    print(f"{'all':18s} {total:6d} {differ:6d}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
