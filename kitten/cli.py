"""The ``kitten`` command.

::

    kitten normalize PATH... -o OUT     # UTF-8 XHTML 1.0 Transitional, OUT/a/b/page.xhtml
    kitten extract PATH... -o OUT       # text, OUT/a/b/page.txt (--format json: .json)
    kitten extract page.html            # one page: the text on standard output
    kitten report PATH... -o DIR        # DIR/a/b/page.report.html: every decision drawn; DIR/index.html
    kitten extract crawl.warc.gz --format jsonl -o out.jsonl.gz   # one JSON line per page
    kitten extract crawl.warc.gz --format parquet -o out/         # the same records, Parquet shards
    kitten eval OUT... --gold GOLD      # SOW overlap of output folders with a gold folder

PATH is a file (HTML, gzip, or WARC, recognised by content), a folder (walked), or ``-``
(standard input); ``-i/--input-list FILE`` adds one path a line (a missing one is a logged
exclusion). ``-o -`` writes to standard output in every format (pages separated by a
line holding only the ASCII record separator, JSON Lines as they are). Options:
``--dump-dir DIR`` (every intermediate file of every page), ``--config FILE.toml``,
``--jobs N`` (worker processes), ``--page-timeout S``, ``--overwrite`` (else a re-run
resumes, under the same settings only: ``kitten.io.fingerprint``). Exit code: 0 when
every input has an outcome (done, fallback, excluded, failed or timeout, each logged); 1
when one page printed has no output; 2 for usage errors (a re-run with other settings too); 141 when standard output was
closed by its reader (``kitten ... -o - | head``), as a Unix tool killed by SIGPIPE; 130
after Ctrl-C (143 after SIGTERM, 129 after SIGHUP), in every command, with one line on
standard error and no traceback (a batch's says what was done; the same command again
resumes). ``--progress bar|lines|none``: a bar on a terminal,
a status line every 30 s otherwise (``kitten.progress``).
"""
from __future__ import annotations

import argparse
import atexit
import dataclasses
import os
import signal
import sys
import threading
from pathlib import Path
from typing import NoReturn

from kitten import __version__
from kitten.config import PRESETS, STYLES, Config, ConfigError, with_preset
from kitten.engine import JSONL_FIELDS, Job, Outcome
from kitten.io.files import MAX_PAGE_BYTES
from kitten.io.records import InputError
from kitten.io.sources import STDIN, InputStats, check_inputs, read_input_list, records
from kitten.language import normalize_code
from kitten.progress import MODES as PROGRESS_MODES, Progress, choose as progress_mode
from kitten.workers import Interrupted, run_records

#: the formats of one record per input (kitten/schema/record.schema.json)
RECORD_FORMATS = ("jsonl", "parquet")
#: default per-worker address-space limit (MiB; 0: none)
DEFAULT_MAX_MEMORY = 6144
#: exit code when standard output was closed by its reader (128 + SIGPIPE, as the shell
#: reports a Unix tool killed by it)
EXIT_BROKEN_PIPE = 141
#: exit code after Ctrl-C (128 + SIGINT); after another stop signal, 128 + its number
EXIT_INTERRUPTED = 130


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command's parser; with ``argv``, the options of ``kitten eval`` are added only
    when it is asked for (they import the scorers, which a conversion does not need)."""
    parser = argparse.ArgumentParser(prog="kitten", description="Crawled HTML in, parser-ready text out.")
    parser.add_argument("--version", action="version", version=f"kitten {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help_ in (("normalize", "write each page as UTF-8 XHTML 1.0 Transitional (.xhtml)"),
                        ("extract", "write the text of each page (.txt)"),
                        ("report", "write a visual report of each page (OUT/page.report.html, its text "
                                   "OUT/page.txt) and OUT/index.html")):
        p = sub.add_parser(name, help=help_)
        p.add_argument("paths", nargs="*", metavar="PATH",
                       help="files (HTML, gzip or WARC, recognised by content), folders (searched recursively), "
                            "or - for standard input (one page or a WARC stream)")
        p.add_argument("-i", "--input-list", "--input-file", dest="input_list", type=Path, metavar="FILE",
                       help="read more paths from FILE, one a line (- for standard input); a path that is "
                            "missing or cannot be read is a logged exclusion, a path given twice is converted once")
        p.add_argument("--include", action="append", default=[], metavar="GLOB",
                       help="in folders, also take the files whose name matches GLOB (e.g. '*.html?*' for "
                            "wget's page.html?id=3; by default only page and WARC names); repeatable")
        p.add_argument("-o", "--output",
                       help="output folder (mirrors the input tree; a WARC file's records go to a folder named "
                            "after it, one file per record named by its offset); with --format jsonl a "
                            ".jsonl or .jsonl.gz file (written as NAME.part until complete), or a folder with "
                            "--shard-size; - for standard output (pages separated by a line holding only the "
                            "ASCII record separator, U+001E); omit for one page to print it")
        p.add_argument("--dump-dir", type=Path, help="write every intermediate file of every page here")
        p.add_argument("--config", type=Path, help="TOML configuration file")
        p.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (default 1; 0 = all cores)")
        p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary")
        p.add_argument("--progress", choices=PROGRESS_MODES,
                       help="bar: a progress bar (total, percentage, rate, time left); lines: a status "
                            "line every 30 s and at the end; none (default: bar on a terminal, else lines; "
                            "none with -q)")
        p.add_argument("--page-timeout", type=float, default=60.0, metavar="S",
                       help="time limit per page in seconds (default 60; 0: none); a page past it is "
                            "recorded as timeout with a plain-text dump, and its worker replaced")
        p.add_argument("--max-memory", type=int, default=DEFAULT_MAX_MEMORY, metavar="MIB",
                       help="address space a worker process may add to what it starts with "
                            f"(default {DEFAULT_MAX_MEMORY}; 0: none)")
        p.add_argument("--max-page-size", type=float, default=MAX_PAGE_BYTES / 2**20, metavar="MIB",
                       help=f"largest input after decompression (default {MAX_PAGE_BYTES // 2**20}); "
                            "a larger one is a logged exclusion")
        p.add_argument("--follow-symlinks", action="store_true",
                       help="read symlinks that leave the folders given (default: logged and skipped)")
        p.add_argument("--overwrite", action="store_true",
                       help="convert every input again (default: a re-run with the same settings resumes, "
                            "keeping complete outputs; with other settings it stops)")
        p.add_argument("--log-level", choices=("page", "events"), default="page",
                       help="page: one compact line per input in the log (default); events: every event")
        if name == "extract":
            p.add_argument("--report", nargs="?", const="", metavar="DIR",
                           help="also write each page's visual report (page.report.html) and index.html to DIR "
                                "(default: the output folder -o)")
            p.add_argument("--format", choices=("text", "blocks", "json", "cleaneval") + RECORD_FORMATS,
                           default="text",
                           help="text: one sentence per line (.txt); blocks: one block (paragraph, heading, "
                                "item) per line, its sentences not split (.txt); json: blocks and sentences "
                                "with their locators (.json); cleaneval: URL line, then one block "
                                "a line after its <p>, <h> or <l> marker (.txt); jsonl: one JSON record "
                                "per input (kitten/schema/record.schema.json) in the file -o; parquet: "
                                "the same records as typed columns, in shards part-00000.parquet ... in the "
                                "folder -o (needs pyarrow: the parquet extra)")
            p.add_argument("--shard-size", type=int, default=0, metavar="N",
                           help="with --format jsonl: write -o as a folder of shards part-00000.jsonl.gz ... "
                                "of N records, each renamed into place when complete (a re-run resumes by shard); "
                                "with --format parquet: records a shard holds (default 10000)")
            p.add_argument("--engine", choices=("local", "dask"), default="local",
                           help="local: worker processes on this machine (default); dask: one task per WARC "
                                "file (or 64 other files) on a Dask cluster, each writing its own shard "
                                "task-NNNNN.jsonl.gz in the folder -o (with --format jsonl; needs the dask extra); "
                                "inputs and -o may then be fsspec URLs (s3://bucket/crawl/ ...)")
            p.add_argument("--scheduler", metavar="ADDRESS",
                           help="with --engine dask: the scheduler to use (tcp://host:8786); default: a local "
                                "cluster of --jobs worker processes")
            p.add_argument("--fields", "--jsonl-fields", dest="jsonl_fields", default="", metavar="LIST",
                           help="with --format jsonl or parquet: comma-separated extras for each record: "
                                + ", ".join(JSONL_FIELDS))
            p.add_argument("--lang", default="", metavar="LIST",
                           help="keep only pages whose text is identified in one of these languages "
                                "(comma-separated ISO 639-1 codes: en,fr); the others, and pages whose "
                                "language cannot be identified, are logged as excluded (reason: language)")
        if name in ("extract", "report"):
            p.add_argument("--boilerplate", choices=("none", "crf"),
                           help="crf: drop the blocks the boilerplate CRF labels 'other' before tables, "
                                "lists and segmentation (needs python-crfsuite: the crf extra); default "
                                "from [boilerplate] method, else none")
            p.add_argument("--preset", choices=tuple(PRESETS),
                           help="main: the boilerplate gate on (the main content of any kind of page); "
                                "article: the gate on, without the headline and figure captions (running "
                                "text only); applied over --config, under the other options")
            p.add_argument("--style", choices=STYLES,
                           help="parser: one sentence a line, boundaries written as punctuation (default, "
                                "from [output] style); faithful: the page's text as written, paragraphs "
                                "separated by a blank line, list items and table rows (cells joined by ' | ') "
                                "one a line, nothing added")
            p.add_argument("--keep-threshold", type=float, metavar="P",
                           help="with the gate: keep a block whose probability of being content is at "
                                "least P (0-1; lower keeps more text and more noise), on every page (default: "
                                "[boilerplate] keep_threshold, lower for some kinds of page and on pages "
                                "the CRF is unsure of)")
    scorer = sub.add_parser("eval", help="score output folders against a gold folder (SOW token "
                                         "overlap: P, R, F1, boundary cases)")
    if argv is None or "eval" in argv:
        from kitten.evaluation.report import add_arguments as add_eval_arguments

        add_eval_arguments(scorer)
    annotate = sub.add_parser("annotate", help="label corpus items for training (tables)")
    what = annotate.add_subparsers(dest="what", required=True)
    a = what.add_parser("tables", help="label leaf tables data/layout (and their cells with --cells)")
    a.add_argument("paths", nargs="*", metavar="PATH", help="pages or folders (paths as given, inside the corpora root)")
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
    a.add_argument("--relabel", action="store_true",
                   help="--cells --export: the tables already cell-labelled, their recorded types as the suggestion "
                        "(a review of the corpus under new definitions; --import counts the changes)")
    train = sub.add_parser("train", help="rebuild a shipped model from the annotated corpora (needs the train extra)")
    twhat = train.add_subparsers(dest="what", required=True)
    t = twhat.add_parser("tables", help="the data/layout tree and the cell-type tree (classifiers/*.json)")
    t.add_argument("--corpora", default=".cache/corpora", help="root of the unpacked shared corpora")
    t.add_argument("--labels", default="corpora/tables", help="folder of tables.jsonl and cells.jsonl")
    t.add_argument("--out", default="classifiers", help="where the model files go")
    t.add_argument("--model", choices=("auto", "tree", "forest"), default="forest",
                   help="forest (default, shipped): one random forest per model; auto: the forest only if "
                        "clearly better than one tree under cross validation, and for cells the stacked "
                        "forest if its mean F1 is higher")
    b = twhat.add_parser("boilerplate", help="the boilerplate CRF (classifiers/boilerplate.crfsuite) from the "
                                             "gold standards, held-out pages left out (needs the crf extra)")
    b.add_argument("--corpora", default=".cache/corpora", help="root of the unpacked shared corpora")
    b.add_argument("--out", default="classifiers", help="where the model files go")
    b.add_argument("--config", type=Path, help="TOML configuration ([structure], [boilerplate] feature settings and unit rules)")
    b.add_argument("-j", "--jobs", type=int, default=0, help="worker processes reading pages (0 = all cores)")
    b.add_argument("--select-small", action="store_true",
                   help="choose the parameters of Victor's 6-fold protocol again on CLEANEVAL final pages "
                        "(adds ~16 min; the results are SMALL_PARAMS and SMALL_BINARY_PARAMS in kitten/train/boilerplate.py)")
    pt = twhat.add_parser("page-type", help="the page-type forest (classifiers/page_type.json) from web2025's "
                                            "gold page types, held-out pages left out (needs the train extra)")
    pt.add_argument("--corpora", default=".cache/corpora", help="root of the unpacked shared corpora")
    pt.add_argument("--out", default="classifiers", help="where the model file goes")
    pt.add_argument("-j", "--jobs", type=int, default=0, help="worker processes reading pages (0 = all cores)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """The command; Ctrl-C anywhere ends it with one line and exit code 130."""
    try:
        return _command(argv)
    except KeyboardInterrupt:
        print("kitten: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def console() -> NoReturn:
    """The ``kitten`` program (its console script, ``python -m kitten``): :func:`main`,
    then the exit handlers and a flush of the standard streams, as at any exit, and the
    process ends without taking the interpreter apart (every module and object freed one
    by one, a last garbage collection: 80-100 ms after a page, nothing the command needs).
    With other threads still running, or when a standard stream cannot be flushed (its
    reader gone), the interpreter exits as usual."""
    code = main()
    if threading.active_count() > 1:
        raise SystemExit(code)
    atexit._run_exitfuncs()
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        raise SystemExit(code) from None
    os._exit(code)


def _command(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv).parse_args(argv)
    if args.command == "eval":
        from kitten.evaluation.report import run as run_eval

        return run_eval(args)
    if args.command == "annotate":
        from kitten.train.annotate_tables import run

        return run(args)
    if args.command == "train" and args.what == "boilerplate":
        from kitten.boilerplate.crf import CrfUnavailable
        from kitten.train.boilerplate import train as train_boilerplate

        try:
            config = Config.from_toml(args.config) if args.config else Config()
            return train_boilerplate(Path(args.corpora), Path(args.out), config, args.jobs, args.select_small)
        except (ConfigError, CrfUnavailable) as exc:
            print(f"kitten: {exc}", file=sys.stderr)
            return 2
    if args.command == "train" and args.what == "page-type":
        try:
            from kitten.train.page_type import train as train_page_type
        except ImportError as exc:
            print(f"kitten: training needs scikit-learn: pip install 'kitten-text[train]' ({exc})", file=sys.stderr)
            return 2
        return train_page_type(Path(args.corpora), Path(args.out), args.jobs)
    if args.command == "train":
        try:
            from kitten.train.tables import train
        except ImportError as exc:
            print(f"kitten: training needs scikit-learn: pip install 'kitten-text[train]' ({exc})", file=sys.stderr)
            return 2
        return train(Path(args.corpora), Path(args.labels), Path(args.out), args.model)
    return _convert(args)


def _convert(args) -> int:
    """``kitten normalize`` and ``kitten extract``."""
    target = {"normalize": "xhtml", "report": "text"}.get(args.command) or args.format
    try:
        config = Config.from_toml(args.config) if args.config else Config()
        if target == "blocks":  # the text format without sentence splitting
            target = "text"
            config = dataclasses.replace(config, segment=dataclasses.replace(config.segment, split_sentences=False))
        if getattr(args, "preset", None):
            config = with_preset(config, args.preset)
        if getattr(args, "style", None):
            config = dataclasses.replace(config, output=dataclasses.replace(config.output, style=args.style))
        if config.output.style == "faithful" and not config.segment.split_sentences:
            raise InputError("--format blocks is the parser style without sentence splitting: "
                             "the faithful style writes paragraphs already (use --format text)")
        threshold = getattr(args, "keep_threshold", None)
        config = _with_boilerplate(config, getattr(args, "boilerplate", None), threshold)
        if threshold is not None and config.boilerplate.method != "crf":
            raise InputError("--keep-threshold goes with the gate: add --boilerplate crf or --preset main "
                             "(or [boilerplate] method = \"crf\" in --config)")
        _check_models(config, target)
        paths = list(args.paths) + (read_input_list(args.input_list) if args.input_list else [])
        check_inputs(paths)
        remote = getattr(args, "engine", "local") == "dask"  # fsspec URLs are listed by the engine
        for path in args.paths:  # a path of an input list that is missing is a logged exclusion
            if path != STDIN and not os.path.lexists(path) and not (remote and "://" in path):
                raise InputError(f"no such file or folder: {path}")
        fields = tuple(f.strip() for f in getattr(args, "jsonl_fields", "").split(",") if f.strip())
        unknown = [f for f in fields if f not in JSONL_FIELDS]
        if unknown:
            raise InputError(f"unknown --fields {', '.join(unknown)} (known: {', '.join(JSONL_FIELDS)})")
        if getattr(args, "shard_size", 0) and (target not in RECORD_FORMATS or args.output in (None, "-")):
            raise InputError("--shard-size goes with --format jsonl or parquet and a folder -o")
        if fields and target not in RECORD_FORMATS:
            raise InputError("--fields goes with --format jsonl or parquet (--format json has every part)")
        if target == "parquet":
            _check_parquet(args)
        if args.page_timeout < 0 or args.max_memory < 0 or args.max_page_size <= 0:
            raise InputError("--page-timeout and --max-memory take 0 or more, --max-page-size more than 0")
        if getattr(args, "engine", "local") == "dask" and (target != "jsonl" or not args.output
                                                             or args.output == "-" or STDIN in paths
                                                             or args.shard_size
                                                             or args.output.endswith((".jsonl", ".jsonl.gz"))):
            raise InputError("--engine dask writes --format jsonl to a folder -o (one shard "
                             "task-NNNNN.jsonl.gz per task; not a .jsonl file, not standard output), from "
                             "files and folders (not standard input), without --shard-size")
        if getattr(args, "scheduler", None) and getattr(args, "engine", "local") != "dask":
            raise InputError("--scheduler goes with --engine dask")
        report_dir = _report_dir(args, target)
        languages = _languages(getattr(args, "lang", ""))
    except (ConfigError, InputError) as exc:
        print(f"kitten: {exc}", file=sys.stderr)
        return 2
    _warn_unused(args, target)
    max_bytes = int(args.max_page_size * 2**20)
    # the language of each page is identified for what records it (the log beside an output
    # folder, the records, --lang), not for pages printed on standard output as text
    identify = target in RECORD_FORMATS or args.output not in (None, "-")
    job = Job("text" if target in RECORD_FORMATS else target, config, args.dump_dir, max_bytes, fields, report_dir,
              languages, identify)
    include = tuple(args.include)
    stats = InputStats()
    source = records(paths, stats, follow_symlinks=args.follow_symlinks, max_bytes=max_bytes, include=include)
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    limits = dict(jobs=jobs, page_timeout=args.page_timeout, memory_limit=args.max_memory * 2**20)
    if args.output is None and target != "jsonl":
        try:
            code = _print_one(source, job, limits)
        except BrokenPipeError:
            return _broken_pipe()
        if report_dir is not None:
            _write_index(report_dir, None, args.quiet)
        return code
    # the sinks, the batch and the fingerprint: imported for a batch (a page printed needs none)
    from kitten.batch import print_summary, run
    from kitten.io.fingerprint import fingerprint
    from kitten.io.sinks import FolderSink

    # what decides the outputs a re-run would resume (a page printed has none: not made for it)
    settings = fingerprint(getattr(args, "format", target), job.target, config,
                           fields + (("report",) if report_dir is not None else ())
                           + ((f"lang={','.join(languages)}",) if languages else ()))
    progress = Progress(progress_mode(args.progress or ("none" if args.quiet else None), sys.stderr))
    if getattr(args, "engine", "local") == "dask":
        return _convert_on_dask(args, paths, job, jobs, settings, progress)
    try:
        sink = _sink(args, target, settings, fields)
        summary = run(source, job, sink, progress=progress, inputs=stats, **limits)
    except BrokenPipeError:  # the reader of standard output is gone (-o - | head): stop, quietly
        return _broken_pipe()
    except InputError as exc:
        print(f"kitten: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the sink cannot write any more (a full disk): the run stops
        print(f"kitten: cannot write the output: {exc}; run the same command again to resume", file=sys.stderr)
        return 1
    if summary.interrupted:  # one line: what was done, and how to go on
        print(summary.line(), file=sys.stderr)
        return 128 + summary.signal
    if not args.quiet:
        print_summary(summary)
        if isinstance(sink, FolderSink):
            print(f"log: {sink.log_path}", file=sys.stderr)
    if report_dir is not None:
        _write_index(report_dir, sink.log_path if isinstance(sink, FolderSink) else None, args.quiet)
    return 0


def _sink(args, target: str, settings, fields: tuple[str, ...]):
    """Where the outcomes go: standard output (``-o -``, or no ``-o`` for JSON Lines), a
    JSON Lines file or shards, Parquet shards (with the extras ``fields``), an output folder."""
    from kitten.io.jsonl import JsonlFileSink, JsonlShardSink, JsonlStreamSink
    from kitten.io.sinks import FolderSink, StreamSink

    if args.output in (None, "-"):
        return JsonlStreamSink() if target == "jsonl" else StreamSink()
    if target == "jsonl" and args.shard_size:
        return JsonlShardSink(Path(args.output), args.shard_size, overwrite=args.overwrite, fingerprint=settings)
    if target == "parquet":
        from kitten.io.parquet import DEFAULT_SHARD_SIZE, ParquetShardSink

        return ParquetShardSink(Path(args.output), args.shard_size or DEFAULT_SHARD_SIZE, fields,
                                overwrite=args.overwrite, fingerprint=settings)
    if target == "jsonl":
        return JsonlFileSink(Path(args.output), overwrite=args.overwrite, fingerprint=settings)
    return FolderSink(Path(args.output), removed_log=target != "xhtml", detail=args.log_level == "events",
                      overwrite=args.overwrite, fingerprint=settings)


def _broken_pipe() -> int:
    """Standard output was closed by its reader: end as a Unix tool does, without a
    message (standard output pointed at /dev/null, so that Python's last flush does not
    complain)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
    return EXIT_BROKEN_PIPE


def _languages(value: str) -> tuple[str, ...]:
    """The languages of ``--lang`` as ISO 639-1 codes (``en,FR,deu`` -> ``en``, ``fr``, ``de``)."""
    names = [v.strip() for v in value.split(",") if v.strip()]
    codes = tuple(dict.fromkeys(normalize_code(v) for v in names))
    if "" in codes:
        raise InputError(f"--lang takes language codes (en,fr), not {value!r}")
    return codes


def _warn_unused(args, target: str) -> None:
    """One line on standard error for each option given that this run does not use."""
    to_stdout = args.output in (None, "-")
    folder = not to_stdout and target not in RECORD_FORMATS and getattr(args, "engine", "local") == "local"
    unused = []
    if args.log_level != "page" and not folder:
        unused.append("--log-level events: the log is written only beside an output folder -o")
    if args.overwrite and to_stdout:
        unused.append("--overwrite: nothing is resumed when the output goes to standard output")
    if getattr(args, "scheduler", None) and args.jobs != 1:
        unused.append("--jobs: the cluster at --scheduler has its own workers")
    for line in unused:
        print(f"kitten: warning: {line} (ignored)", file=sys.stderr)


def _report_dir(args, target: str) -> Path | None:
    """Where the visual reports go (``kitten report -o DIR``, ``kitten extract --report
    [DIR]``), None without reports."""
    if args.command == "report":
        if not args.output or args.output == "-":
            raise InputError("kitten report needs -o DIR, the folder of the reports")
        return Path(args.output)
    chosen = getattr(args, "report", None)
    if chosen is None:
        return None
    if getattr(args, "engine", "local") == "dask":
        raise InputError("--report goes with the local engine")
    if chosen:
        return Path(chosen)
    if target in RECORD_FORMATS or not args.output or args.output == "-":
        raise InputError("--report without DIR writes next to the output folder -o: give --report DIR")
    return Path(args.output)


def _write_index(report_dir: Path, log_path: Path | None, quiet: bool) -> None:
    from kitten.report import write_index

    path = write_index(report_dir, log_path)
    if not quiet:
        print(f"report: {path}", file=sys.stderr)


def _convert_on_dask(args, paths: list[str], job: Job, jobs: int, settings, progress: Progress) -> int:
    """``--engine dask``: the shards written by tasks on a Dask cluster (``kitten.dask``)."""
    try:
        import dask
        import distributed

        from kitten.dask import Limits, write_shards
    except ImportError as exc:
        print(f"kitten: --engine dask needs the dask extra: pip install 'kitten-text[dask]' ({exc})", file=sys.stderr)
        return 2
    # tasks start page processes: the workers of the local cluster must not be daemons (set
    # for the cluster's whole life: a worker restarted after a crash reads it again)
    with dask.config.set({"distributed.worker.daemon": False}):
        try:
            if args.scheduler:
                cluster, client = None, distributed.Client(args.scheduler)
            else:
                # its processes started with Ctrl-C ignored (inherited): a Ctrl-C to the process
                # group stops this process, which closes the cluster, without a traceback from each
                saved = signal.signal(signal.SIGINT, signal.SIG_IGN)
                try:
                    cluster = distributed.LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                                       dashboard_address=":0")
                finally:
                    signal.signal(signal.SIGINT, saved)
                client = distributed.Client(cluster)
        except (OSError, TimeoutError, ValueError) as exc:
            print(f"kitten: cannot reach the Dask scheduler: {exc}", file=sys.stderr)
            return 2
        try:
            result = write_shards(paths, args.output, job, client, follow_symlinks=args.follow_symlinks,
                                  overwrite=args.overwrite, fingerprint=settings, include=tuple(args.include),
                                  limits=Limits(args.page_timeout, args.max_memory * 2**20), progress=progress)
        except InputError as exc:
            print(f"kitten: {exc}", file=sys.stderr)
            return 2
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    if not args.quiet or result.failed:
        print(result.line(), file=sys.stderr)
        for failure in result.failed[:10]:
            print(f"  {failure}", file=sys.stderr)
    return 1 if result.failed else 0


def _check_parquet(args) -> None:
    """``--format parquet`` writes a folder, with pyarrow."""
    if args.output in (None, "-"):
        raise InputError("--format parquet writes shards to a folder: give -o DIR (standard output takes --format jsonl)")
    try:
        import pyarrow.parquet  # noqa: F401
    except ImportError as exc:
        raise InputError(f"--format parquet needs pyarrow: pip install 'kitten-text[parquet]' ({exc})") from exc


def _check_models(config: Config, target: str) -> None:
    """A configured tables model that is missing or cannot be read stops the run at start.
    The models themselves are loaded when a page first needs them (the cell model only
    for a data table), in the process that converts it."""
    if target == "xhtml" or not config.tables.enabled:
        return
    from kitten.resources import classifiers_dir
    from kitten.tables import CELL_MODEL, TABLE_MODEL

    for name in (TABLE_MODEL, CELL_MODEL):
        path = classifiers_dir(config.rules.classifiers) / name
        if not os.access(path, os.R_OK) or not path.is_file():
            raise ConfigError(f"the tables model cannot be read: {path} (set [rules] classifiers, "
                              "or rebuild it with kitten train tables)")


def _with_boilerplate(config: Config, method: str | None, threshold: float | None = None) -> Config:
    """``config`` with ``--boilerplate`` and ``--keep-threshold`` applied; checks now that
    the CRF can run."""
    changes: dict = {k: v for k, v in (("method", method), ("keep_threshold", threshold)) if v is not None}
    if threshold is not None:  # one threshold for every page
        changes["keep_thresholds"] = ()
        changes["unsure_below"] = 0.0
    if changes:
        config = dataclasses.replace(config, boilerplate=dataclasses.replace(config.boilerplate, **changes))
    if config.boilerplate.method == "crf":
        from kitten.boilerplate.crf import CrfUnavailable, check_available  # the gate, only when it runs

        try:
            check_available(config.boilerplate.model, config.rules.classifiers)
        except CrfUnavailable as exc:
            raise ConfigError(str(exc)) from exc
    return config


def _print_one(source, job: Job, limits: dict) -> int:
    """One page's output on standard output (its notes on standard error)."""
    try:
        first = next(source, None)
        if first is None or next(source, None) is not None:
            print("kitten: -o OUT is required unless exactly one page is given", file=sys.stderr)
            return 2
    except InputError as exc:
        print(f"kitten: {exc}", file=sys.stderr)
        return 2
    got: list[Outcome] = []
    try:
        run_records([first], job, got.append, **{**limits, "jobs": 1})
    except Interrupted as stop:
        print("kitten: interrupted", file=sys.stderr)
        return 128 + stop.signal
    outcome = got[0]
    for e in outcome.events:
        if e["kind"] in ("excluded", "fallback", "failed", "timeout", "encoding-override"):
            print(f"kitten: {first.id}: {e['kind']}: {e['message']}", file=sys.stderr)
    if outcome.output is not None:
        sys.stdout.write(outcome.output)
        sys.stdout.flush()
    return 1 if outcome.status == "failed" and outcome.output is None else 0


if __name__ == "__main__":
    console()
