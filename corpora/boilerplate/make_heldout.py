"""Write heldout.txt: the pages the boilerplate CRF never trains on (fixed, seed 2007).

30% of the CLEANEVAL final pages that have a gold file, and half of the Dragnet pages
(the Dragnet test half: the shared corpus carries no split, so a fixed random half).
One page per line, as a path under the corpora root. Run once; the list is committed.
"""
from __future__ import annotations

import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPORA = HERE.parent.parent / ".cache" / "corpora"


def main() -> int:
    rng = random.Random(2007)
    lines = []
    final = sorted(p.stem for p in (CORPORA / "cleaneval-final" / "gold").glob("*.txt"))
    final_html = {p.stem: p.name for p in (CORPORA / "cleaneval-final" / "html").iterdir()}
    picked = sorted(rng.sample([s for s in final if s in final_html], round(0.3 * len(final))), key=_key)
    lines += [f"cleaneval-final/html/{final_html[s]}" for s in picked]
    dragnet = sorted(p.name for p in (CORPORA / "dragnet" / "html").iterdir())
    picked = sorted(rng.sample(dragnet, len(dragnet) // 2), key=_key)
    lines += [f"dragnet/html/{name}" for name in picked]
    (HERE / "heldout.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} held-out pages")
    return 0


def _key(name: str):
    stem = name.split(".")[0]
    return (0, int(stem), name) if stem.isdigit() else (1, 0, name)


if __name__ == "__main__":
    raise SystemExit(main())
