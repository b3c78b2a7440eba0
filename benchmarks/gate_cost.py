"""What the boilerplate gate costs per page, timed in-process: the whole gate, its
feature builder (``own_features``) and its scorer (``marginals_own``), on the structure
step's documents of the benchmark pages.

    python benchmarks/gate_cost.py [--before DIR] [--rounds 3] [--runs 2]

The documents are built once, the gate warmed up on 20 of them, then every document
is gated ``--rounds`` times; the best round is printed, in milliseconds per page of
process time (steadier than the wall clock when other processes share the cores).
With ``--before DIR`` (a ``git worktree`` of the commit before a change, its C
extensions built) each checkout runs in its own subprocess, ``--runs`` times, one after
the other: compare the two within one run.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _pages import benchmark_pages  # noqa: E402


def measure(rounds: int) -> dict[str, float]:
    """ms/page (process time, best round) of the gate, its features and its scorer."""
    from kitten.boilerplate import gate
    from kitten.boilerplate.crf import load_model, model_path
    from kitten.boilerplate.features import own_features
    from kitten.boilerplate.units import crf_units
    from kitten.config import Config
    from kitten.log import PageLog
    from kitten.page import Page
    from kitten.pipeline import run_page

    config = Config()
    gated = dataclasses.replace(config.boilerplate, method="crf")
    classifiers, rules = config.rules.classifiers, config.rules.dir
    docs = [d for d in (run_page(Page(data, name), config, "text").products.get("structure")
                        for name, data in benchmark_pages()) if d is not None and d.blocks]
    for doc in docs[:20]:
        gate(doc, gated, PageLog(), classifiers, rules, config.tables)
    model = load_model(str(model_path(gated.model, classifiers)))
    best = {"gate": float("inf"), "features": float("inf"), "scorer": float("inf")}
    for _ in range(rounds):
        spent = dict.fromkeys(best, 0.0)
        for doc in docs:
            t0 = time.process_time()
            gate(doc, gated, PageLog(), classifiers, rules, config.tables)
            spent["gate"] += time.process_time() - t0
            units, _ = crf_units(doc.blocks, model.settings.units)
            t0 = time.process_time()
            own = own_features(units, model.settings, doc.lang, rules)
            t1 = time.process_time()
            model.marginals_own(own)
            spent["features"] += t1 - t0
            spent["scorer"] += time.process_time() - t1
        best = {k: min(v, 1000 * spent[k] / len(docs)) for k, v in best.items()}
    return best


def run(checkout: Path, rounds: int) -> dict[str, float]:
    """:func:`measure` in a subprocess importing ``kitten`` from ``checkout``."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([sys.executable, __file__, "--worker", out.name, "--rounds", str(rounds)], check=True,
                       env={**os.environ, "PYTHONPATH": str(checkout)}, cwd=tempfile.gettempdir())
        return json.loads(Path(out.name).read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, help="another checkout, timed in turn with this one")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        Path(args.worker).write_text(json.dumps(measure(args.rounds)), encoding="utf-8")
        return 0
    checkouts = ([("before", args.before.resolve())] if args.before else []) + [("this", HERE.parent)]
    for _ in range(args.runs):
        for label, checkout in checkouts:
            ms = run(checkout, args.rounds)
            print(f"{label:6s} gate {ms['gate']:.2f} ms/page (features {ms['features']:.2f}, "
                  f"scorer {ms['scorer']:.2f})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
