"""The benchmark page set: the same pages for every benchmark and every tool."""
from __future__ import annotations

from pathlib import Path

DEFAULT_CORPORA = Path(__file__).resolve().parent.parent / ".cache" / "corpora"


def benchmark_pages(corpora: Path = DEFAULT_CORPORA, per_corpus: int = 200) -> list[tuple[str, bytes]]:
    """The first ``per_corpus`` pages (sorted by name) of CLEANEVAL final and of Dragnet:
    400 real pages, as the speed figures of ../shared/GUIDE.md section 4 use."""
    pages = []
    for name in ("cleaneval-final", "dragnet"):
        folder = corpora / name / "html"
        if not folder.is_dir():
            raise SystemExit(f"missing {folder}: unpack ../shared/corpora/*.tar.xz into {corpora}")
        for path in sorted(folder.iterdir())[:per_corpus]:
            pages.append((f"{name}/{path.name}", path.read_bytes()))
    return pages
