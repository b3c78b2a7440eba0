"""The site of each page of the shared corpora: ``corpora/boilerplate/sites.tsv``
(written by ``corpora/boilerplate/make_heldout.py``), read by every training and
evaluation that keeps a site on one side of a fold."""
from __future__ import annotations

from pathlib import Path

SITES = Path(__file__).resolve().parents[2] / "corpora" / "boilerplate" / "sites.tsv"


def read_sites(path: Path = SITES) -> dict[str, str]:
    """Page (its path under the corpora root, ``web2025/html/w0001.html``) -> its site;
    empty when the file is absent."""
    if not path.is_file():
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        cols = line.split("\t")
        if len(cols) >= 3:
            out[cols[0]] = cols[2]
    return out
