"""The gate on web2025's training sites, each page read by a model that never saw its site.

    python benchmarks/gate_folds.py [--folds 3] [--jobs 2] [--train] [--systems kitten-crf,kitten]

Why: the shipped CRF is trained on every page of web2025's training sites, so a rule
tuned on those pages is tuned where the model has memorised the answer (the held-out
pages are for reporting, not tuning). Here web2025's training sites are split into
``--folds`` groups (by a hash of the site name: whole sites, the same split every run);
for each group a model is trained on every training page of the shipped model (the
other corpora and web2025, weights as shipped) except that group's, and the group's
pages are read with it. The outputs of all groups, together, are out-of-fold outputs of
the 513 pages, scored as ``benchmarks/web2025.py`` scores (word F1 per page type,
snippets): what a rule or threshold does to sites its model has not seen.

``--train`` (re)trains the fold models into ``<out>/models/fold<k>/`` (a few minutes
each); without it the models there are used. The outputs go to ``<out>/oof/<system>/``
and the scores are printed per page type; ``--systems`` names configurations of
``benchmarks/web2025.py`` (``kitten`` reads without the gate: the same for every fold)
and ``--config NAME=FILE.toml`` adds one (its ``[boilerplate] model`` is set per fold).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _pages import DEFAULT_CORPORA  # noqa: E402
from web2025 import KITTEN_CONFIGS, TYPES, format_tables, pages, run_system, score, summary  # noqa: E402

DEFAULT_OUT = DEFAULT_CORPORA.parent / "gate-folds"


def site_folds(folds: int) -> dict[str, int]:
    """web2025 page id -> its fold (a hash of its site, so a site's pages share one)."""
    from kitten.train.sites import read_sites

    return {Path(path).stem: int(hashlib.sha1(site.encode()).hexdigest(), 16) % folds
            for path, site in read_sites().items() if path.startswith("web2025/")}


def train_folds(corpora: Path, out: Path, folds: int, fold_of: dict[str, int], jobs: int) -> None:
    from kitten.boilerplate.crf import MODEL_NAME, settings_path
    from kitten.config import Config
    from kitten.resources import classifiers_dir
    from kitten.train.boilerplate import fit, load_pages, settings_from, weighted

    config = Config()
    settings = settings_from(config)
    t0 = time.perf_counter()
    every = load_pages(corpora, config, settings, jobs)
    print(f"{len(every)} training pages read in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    shipped = settings_path(classifiers_dir("") / MODEL_NAME)
    for k in range(folds):
        keep = [p for p in every if not (p.corpus == "web2025" and fold_of.get(Path(p.name).stem) == k)]
        folder = out / "models" / f"fold{k}"
        folder.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        fit(weighted(keep), folder / MODEL_NAME)
        meta = json.loads(shipped.read_text(encoding="utf-8"))  # the shipped weights and labels,
        meta["features"] = settings.as_dict()  # the features the folds were trained with
        settings_path(folder / MODEL_NAME).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
        print(f"fold {k}: trained on {len(keep)} pages ({len(every) - len(keep)} left out) in "
              f"{time.perf_counter() - t0:.0f} s", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--folds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--train", action="store_true", help="train the fold models first")
    ap.add_argument("--systems", default="kitten-crf")
    ap.add_argument("--config", action="append", default=[], metavar="NAME=FILE.toml")
    args = ap.parse_args(argv)

    from kitten.boilerplate.crf import MODEL_NAME

    fold_of = site_folds(args.folds)
    if args.train:
        train_folds(args.corpora, args.out, args.folds, fold_of, args.jobs)
    configs = dict(KITTEN_CONFIGS)
    for item in args.config:
        import tomllib

        name, _, file = item.partition("=")
        configs[name] = tomllib.loads(Path(file).read_text(encoding="utf-8"))
    todo = pages(args.corpora, "train")
    results = {}
    for system in [s for s in args.systems.split(",") if s]:
        config = configs[system]
        for k in range(args.folds):
            group = [p for p in todo if fold_of.get(p.id) == k]
            model = args.out / "models" / f"fold{k}" / MODEL_NAME
            if not model.is_file():
                raise SystemExit(f"no fold model {model}: run with --train")
            cfg = {**config, "boilerplate": {**config.get("boilerplate", {}), "model": str(model)}}
            run_system(f"{system}-fold{k}", cfg, group, args.out / "oof", args.jobs)
            for p in group:  # gather the folds' outputs in one folder
                src = args.out / "oof" / f"{system}-fold{k}" / f"{p.id}.txt"
                dst = args.out / "oof" / system / f"{p.id}.txt"
                dst.parent.mkdir(parents=True, exist_ok=True)
                if src.is_file():
                    shutil.copy(src, dst)
                else:
                    dst.unlink(missing_ok=True)
        results[system] = summary(score(args.out / "oof" / system, todo), TYPES)
    print(f"web2025 training sites, out of fold ({args.folds} folds by site): {len(todo)} pages "
          f"({', '.join(f'{k} {v}' for k, v in Counter(p.page_type for p in todo).most_common())})\n")
    print(format_tables(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
