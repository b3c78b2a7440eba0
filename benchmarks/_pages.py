"""The benchmark page set: the same pages for every benchmark and every tool."""
from __future__ import annotations

from pathlib import Path

DEFAULT_CORPORA = Path(__file__).resolve().parent.parent / ".cache" / "corpora"


#: the corpora of the speed figures of ../shared/GUIDE.md section 4
DEFAULT_SETS = ("cleaneval-final", "dragnet")


def benchmark_pages(corpora: Path = DEFAULT_CORPORA, per_corpus: int = 200,
                    sets: tuple[str, ...] = DEFAULT_SETS) -> list[tuple[str, bytes]]:
    """The first ``per_corpus`` pages (sorted by name) of each corpus of ``sets``: by
    default CLEANEVAL final and Dragnet, 400 real pages, as the speed figures of
    ../shared/GUIDE.md section 4 use (``("modern",)``: 192 recent news pages, 220 KB on
    average, the kind of page issue 19 is measured on when it lands; ``("wikipedia-tables",)``:
    its Wikipedia pages, ``pages/<n>/<k>.html``, about 110 KB and many tables each)."""
    pages = []
    for name in sets:
        folder = corpora / name / "html"
        if folder.is_dir():
            paths = sorted(folder.iterdir())
        elif (corpora / name / "pages").is_dir():  # wikipedia-tables: a folder of pages per batch
            paths = sorted((corpora / name / "pages").glob("*/*.html"))
        else:
            raise SystemExit(f"missing {folder}: unpack ../shared/corpora/*.tar.xz into {corpora}")
        for path in paths[:per_corpus]:
            pages.append((f"{name}/{path.parent.name + '/' if path.parent != folder else ''}{path.name}",
                          path.read_bytes()))
    return pages
