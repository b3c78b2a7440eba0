"""What each text step costs, on the throughput pages: time of the tables and lists steps
against the whole of ``kitten extract`` (one process, best of 3 per page set).

    python benchmarks/step_cost.py

Less noisy than comparing two throughput runs: the same pages and documents are timed
step by step in one process.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _pages import benchmark_pages  # noqa: E402

from kitten.config import Config  # noqa: E402
from kitten.lists import read_lists  # noqa: E402
from kitten.log import PageLog  # noqa: E402
from kitten.page import Page  # noqa: E402
from kitten.pipeline import run_page  # noqa: E402
from kitten.tables import read_tables  # noqa: E402


def main() -> int:
    pages = benchmark_pages()
    config = Config()
    for name, data in pages[:20]:  # warm-up (models loaded, caches filled)
        run_page(Page(data, name), config, "text")
    total = tables = lists = 0.0
    for _ in range(3):
        t_total = t_tables = t_lists = 0.0
        for name, data in pages:
            t0 = time.perf_counter()
            result = run_page(Page(data, name), config, "text")
            t_total += time.perf_counter() - t0
            doc = result.products.get("structure")
            if doc is None:
                continue
            t0 = time.perf_counter()
            doc2 = read_tables(doc, config.tables, PageLog())
            t_tables += time.perf_counter() - t0
            t0 = time.perf_counter()
            read_lists(doc2, config.lists, PageLog())
            t_lists += time.perf_counter() - t0
        if not total or t_total < total:
            total, tables, lists = t_total, t_tables, t_lists
    print(f"{len(pages)} pages: kitten extract {total:.2f} s ({len(pages) / total:.1f} docs/s)")
    print(f"  tables step {tables:.2f} s = {100 * tables / (total - tables):.1f}% added to extract without it")
    print(f"  lists step  {lists:.2f} s = {100 * lists / (total - lists):.1f}% added to extract without it")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
