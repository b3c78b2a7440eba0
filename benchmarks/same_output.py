"""Are the outputs byte-identical before and after a change? Kitten of this checkout
against Kitten of another one (e.g. a ``git worktree`` of the commit before), on the
same pages, in text, JSON and JSON with the gate.

    git worktree add /tmp/before HEAD~1 && (cd /tmp/before && python setup.py build_ext --inplace)
    python benchmarks/same_output.py --before /tmp/before [--per-corpus 200] [--wikipedia 150]

Pages: ``benchmark_pages()`` (CLEANEVAL final and Dragnet, or the corpora of ``--sets``)
and the first pages of the shared Wikipedia table pages. Each checkout runs in its own subprocess (its ``kitten``
first on the path) and writes its outputs to a JSON file; the script prints how many
outputs differ and the first lines of the first differences. Exit code 1 when any differs.

``--added records,item_texts,original``: keys a change adds to the JSON output (new
fields, backward compatible) are taken out of this checkout's JSON before comparing, so
that what was there before must be unchanged.
"""
from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _pages import DEFAULT_CORPORA, benchmark_pages  # noqa: E402


def pages(corpora: Path, per_corpus: int, wikipedia: int, sets: str = "") -> list[tuple[str, bytes]]:
    out = benchmark_pages(corpora, per_corpus, *((tuple(s for s in sets.split(",") if s),) if sets else ()))
    wiki = sorted((corpora / "wikipedia-tables").rglob("*.html"))[:wikipedia]
    return out + [(str(p), p.read_bytes()) for p in wiki]


def worker(args: argparse.Namespace) -> int:
    from kitten.config import Config
    from kitten.page import Page
    from kitten.pipeline import run_page

    plain = Config()
    gated = dataclasses.replace(plain, boilerplate=dataclasses.replace(plain.boilerplate, method="crf"))
    outputs = {}
    for i, (name, data) in enumerate(pages(args.corpora, args.per_corpus, args.wikipedia, args.sets)):
        for target, config, tag in (("text", plain, "text"), ("json", plain, "json"), ("json", gated, "json+gate")):
            outputs[f"{name} {tag}"] = run_page(Page(data, name), config, target).output or ""
    Path(args.worker).write_text(json.dumps(outputs), encoding="utf-8")
    return 0


def run(checkout: Path, args: argparse.Namespace, out: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    cmd = [sys.executable, __file__, "--worker", str(out), "--corpora", str(args.corpora),
           "--per-corpus", str(args.per_corpus), "--wikipedia", str(args.wikipedia), "--sets", args.sets]
    subprocess.run(cmd, check=True, env=env, cwd=tempfile.gettempdir())
    return json.loads(out.read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, help="the other checkout")
    ap.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA)
    ap.add_argument("--per-corpus", type=int, default=200)
    ap.add_argument("--wikipedia", type=int, default=150)
    ap.add_argument("--sets", default="", help="corpora of the benchmark pages (comma-separated; default: "
                                               "CLEANEVAL final and Dragnet), e.g. cleaneval-final,dragnet,modern,web2025")
    ap.add_argument("--added", default="", help="JSON keys this checkout adds, left out of the comparison (comma-separated)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    args.corpora = args.corpora.resolve()
    if args.worker:
        return worker(args)
    if args.before is None:
        ap.error("--before CHECKOUT is required")
    with tempfile.TemporaryDirectory() as tmp:
        before = run(args.before.resolve(), args, Path(tmp) / "before.json")
        after = run(HERE.parent, args, Path(tmp) / "after.json")
    added = frozenset(k for k in args.added.split(",") if k)
    if added:
        after = {k: _without(v, added) if k.endswith(("json", "json+gate")) and v.startswith("{") else v
                 for k, v in after.items()}
    differ = [k for k in after if after[k] != before.get(k)]
    print(f"{len(after)} outputs ({len(after) // 3} pages x text, json, json with the gate): {len(differ)} differ")
    for key in differ[:5]:
        lines = difflib.unified_diff(before.get(key, "").splitlines(), after[key].splitlines(), "before", "after",
                                     lineterm="", n=0)
        print(f"--- {key}\n" + "\n".join(list(lines)[:12]))
    return 1 if differ else 0


def _without(text: str, keys: frozenset) -> str:
    """A JSON output without ``keys`` (at any depth), written as Kitten writes JSON
    (``render.dumps``: the bytes of ``json.dumps(indent=1)``)."""

    def drop(x):
        if isinstance(x, dict):
            return {k: drop(v) for k, v in x.items() if k not in keys}
        if isinstance(x, list):
            return [drop(v) for v in x]
        return x

    return json.dumps(drop(json.loads(text)), ensure_ascii=False, indent=1) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
