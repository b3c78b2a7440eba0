"""The ``kitten`` command.

::

    kitten normalize PATH... -o OUT     # UTF-8 XHTML 1.0 Transitional, OUT/a/b/page.xhtml
    kitten extract PATH... -o OUT       # text, OUT/a/b/page.txt (--format json: .json)
    kitten extract page.html            # one page: the text on standard output
    kitten eval OUT... --gold GOLD      # SOW overlap of output folders with a gold folder

Options: ``--dump-dir DIR`` (every intermediate file of every page),
``--config FILE.toml``, ``--jobs N`` (worker processes). The exit code is 1 only when
some page got no output at all, 2 for usage errors.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from pathlib import Path

from kitten import __version__
from kitten.batch import Job, print_summary, run_batch, write_log_line, write_removed_items
from kitten.boilerplate.crf import CrfUnavailable, check_available
from kitten.config import Config, ConfigError
from kitten.evaluation.report import add_arguments as add_eval_arguments
from kitten.io.files import InputError, discover, plan_outputs

LOG_NAME = "kitten-log.jsonl"
REMOVED_NAME = "kitten-removed-links.tsv"  # page, list locator, item text of removed link items


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kitten", description="Crawled HTML in, parser-ready text out.")
    parser.add_argument("--version", action="version", version=f"kitten {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help_ in (("normalize", "write each page as UTF-8 XHTML 1.0 Transitional (.xhtml)"),
                        ("extract", "write the text of each page (.txt)")):
        p = sub.add_parser(name, help=help_)
        p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders (searched recursively)")
        p.add_argument("-o", "--output", type=Path,
                       help="output folder (mirrors the input tree); omit for one page to print it")
        p.add_argument("--dump-dir", type=Path, help="write every intermediate file of every page here")
        p.add_argument("--config", type=Path, help="TOML configuration file")
        p.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (default 1; 0 = all cores)")
        p.add_argument("-q", "--quiet", action="store_true", help="no progress bar or summary")
        if name == "extract":
            p.add_argument("--format", choices=("text", "json", "cleaneval"), default="text",
                           help="text: one sentence per line (.txt); json: blocks and sentences "
                                "with their locators (.json); cleaneval: URL line, then one block "
                                "a line after its <p>, <h> or <l> marker (.txt)")
            p.add_argument("--boilerplate", choices=("none", "crf"),
                           help="crf: drop the blocks the boilerplate CRF labels 'other' before tables, "
                                "lists and segmentation (needs python-crfsuite: the crf extra); default "
                                "from [boilerplate] method, else none")
            p.add_argument("--keep-threshold", type=float, metavar="P",
                           help="with the gate: keep a block whose probability of being content is at "
                                "least P (0-1; lower keeps more text and more noise; default from "
                                "[boilerplate] keep_threshold)")
    add_eval_arguments(sub.add_parser("eval", help="score output folders against a gold folder (SOW token "
                                                   "overlap: P, R, F1, boundary cases)"))
    annotate = sub.add_parser("annotate", help="label corpus items for training (tables)")
    what = annotate.add_subparsers(dest="what", required=True)
    a = what.add_parser("tables", help="label leaf tables data/layout (and their cells with --cells)")
    a.add_argument("paths", nargs="*", metavar="PATH", help="pages or folders under the corpora root")
    a.add_argument("--corpora", default=".cache/corpora", help="root of the unpacked shared corpora")
    a.add_argument("--labels", default="corpora/tables", help="folder of tables.jsonl and cells.jsonl")
    a.add_argument("--cells", action="store_true",
                   help="label the cells of tables already labelled data")
    a.add_argument("--export", metavar="FILE", help="write a review file instead of asking in the terminal")
    a.add_argument("--import", dest="import_file", metavar="FILE", help="record a reviewed file")
    a.add_argument("--reviewer", default="", help="who reviewed the imported file")
    a.add_argument("--sample", type=int, default=0, help="pick N tables at random (fixed seed)")
    a.add_argument("--seed", type=int, default=13)
    a.add_argument("--only-suggested", choices=("data", "layout"), help="only tables suggested as this")
    a.add_argument("--without-th", action="store_true", help="only tables without <th>")
    a.add_argument("--max-rows", type=int, default=40, help="--cells: skip tables with more rows")
    train = sub.add_parser("train", help="rebuild a shipped model from the annotated corpora (needs the train extra)")
    twhat = train.add_subparsers(dest="what", required=True)
    t = twhat.add_parser("tables", help="the data/layout tree and the cell-type tree (classifiers/*.json)")
    t.add_argument("--corpora", default=".cache/corpora", help="root of the unpacked shared corpora")
    t.add_argument("--labels", default="corpora/tables", help="folder of tables.jsonl and cells.jsonl")
    t.add_argument("--out", default="classifiers", help="where the model files go")
    t.add_argument("--model", choices=("auto", "tree", "forest"), default="auto",
                   help="auto: the forest only if clearly better than one tree under cross validation")
    b = twhat.add_parser("boilerplate", help="the boilerplate CRF (classifiers/boilerplate.crfsuite) from the "
                                             "gold standards, held-out pages left out (needs the crf extra)")
    b.add_argument("--corpora", default=".cache/corpora", help="root of the unpacked shared corpora")
    b.add_argument("--out", default="classifiers", help="where the model files go")
    b.add_argument("--config", type=Path, help="TOML configuration ([structure], [boilerplate] feature settings and unit rules)")
    b.add_argument("-j", "--jobs", type=int, default=0, help="worker processes reading pages (0 = all cores)")
    b.add_argument("--select-small", action="store_true",
                   help="choose the parameters of Victor's 6-fold protocol again on CLEANEVAL final pages "
                        "(adds ~16 min; the results are SMALL_PARAMS and SMALL_BINARY_PARAMS in kitten/train/boilerplate.py)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "eval":
        from kitten.evaluation.report import run as run_eval

        return run_eval(args)
    if args.command == "annotate":
        from kitten.tables.annotate import run

        return run(args)
    if args.command == "train" and args.what == "boilerplate":
        from kitten.train.boilerplate import train as train_boilerplate

        try:
            config = Config.from_toml(args.config) if args.config else Config()
            return train_boilerplate(Path(args.corpora), Path(args.out), config, args.jobs, args.select_small)
        except (ConfigError, CrfUnavailable) as exc:
            print(f"kitten: {exc}", file=sys.stderr)
            return 2
    if args.command == "train":
        try:
            from kitten.train.tables import train
        except ImportError as exc:
            print(f"kitten: training needs scikit-learn: pip install 'kitten[train]' ({exc})", file=sys.stderr)
            return 2
        return train(Path(args.corpora), Path(args.labels), Path(args.out), args.model)
    try:
        config = Config.from_toml(args.config) if args.config else Config()
        config = _with_boilerplate(config, getattr(args, "boilerplate", None), getattr(args, "keep_threshold", None))
        items = plan_outputs(list(discover(args.paths)))
    except (ConfigError, InputError, CrfUnavailable) as exc:
        print(f"kitten: {exc}", file=sys.stderr)
        return 2
    target = "xhtml" if args.command == "normalize" else args.format
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    if args.output is None:
        if len(items) != 1:
            print("kitten: -o OUT is required unless exactly one page is given", file=sys.stderr)
            return 2
        return _print_one(items, Job(None, target, config, args.dump_dir))
    args.output.mkdir(parents=True, exist_ok=True)
    job = Job(args.output, target, config, args.dump_dir)
    # the removal log of link-list items exists only where the lists step runs
    removed_path = args.output / REMOVED_NAME if target != "xhtml" else os.devnull
    with open(args.output / LOG_NAME, "w", encoding="utf-8") as log, \
            open(removed_path, "w", encoding="utf-8") as removed:

        def record(rec) -> None:
            write_log_line(log, rec)
            write_removed_items(removed, rec)

        summary = run_batch(items, job, jobs=jobs, on_record=record,
                            progress=None if args.quiet else sys.stderr, total=len(items))
    if not args.quiet:
        print_summary(summary)
        print(f"log: {args.output / LOG_NAME}", file=sys.stderr)
    return 1 if summary.counts["failed"] else 0


def _with_boilerplate(config: Config, method: str | None, threshold: float | None = None) -> Config:
    """``config`` with ``--boilerplate`` and ``--keep-threshold`` applied; checks now that
    the CRF can run."""
    changes = {k: v for k, v in (("method", method), ("keep_threshold", threshold)) if v is not None}
    if changes:
        config = dataclasses.replace(config, boilerplate=dataclasses.replace(config.boilerplate, **changes))
    if config.boilerplate.method == "crf":
        check_available(config.boilerplate.model, config.rules.classifiers)
    return config


def _print_one(items, job: Job) -> int:
    summary_records = []
    run_batch(items, job, jobs=1, on_record=summary_records.append)
    rec = summary_records[0]
    for e in rec.events:
        if e["kind"] in ("excluded", "fallback", "failed", "encoding-override"):
            print(f"kitten: {rec.rel}: {e['kind']}: {e['message']}", file=sys.stderr)
    if rec.text is not None:
        sys.stdout.write(rec.text)
    return 1 if rec.status == "failed" else 0


if __name__ == "__main__":
    raise SystemExit(main())
