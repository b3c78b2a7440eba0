"""Kitten on Dask: the JSON Lines records of a crawl as a ``dask.bag.Bag``.

    import kitten.dask
    from distributed import Client

    client = Client()                                   # a LocalCluster, or Client("tcp://scheduler:8786")
    bag = kitten.dask.records(["crawl/"], fields=("tables",))
    english = bag.filter(lambda r: r["status"] == "done" and r["lang"] == "en")
    english.map(json.dumps).to_textfiles("out/*.jsonl")

Each record is the dict ``kitten extract --format jsonl`` writes for the page (the same
fields, the same values: ``kitten.io.sinks.jsonl_record``), in input order. The input
files are listed once, on the caller's side, with the ids and output names a local
batch gives them (``sources.input_files``); each task then reads its files and converts
their pages in the worker (``sources.file_records``, ``engine.convert``): a WARC file is
one task, other files go in tasks of ``files_per_task``. Models and rules are loaded
once per worker process (they are cached per process), not per task.

``write_shards`` is ``kitten extract --format jsonl -o DIR --engine dask``: each task
writes its records to its own shard, ``DIR/task-00000.jsonl.gz`` (written to a temporary
file, then renamed: a retried task never leaves a record twice), then a small manifest
beside it, ``task-00000.json`` (its records, first and last input file, counts by
status); a re-run skips the tasks whose manifest is there for the same input files.

What this does not do yet (issue 20): a time and memory limit per page inside a task
(a page that hangs holds its task; one that kills its worker makes Dask retry the task,
and after Dask's retries the task is reported failed, its pages with it), fsspec URLs,
the datatrove step.

Needs the ``dask`` extra: ``pip install 'kitten-text[dask]'``.
"""
from __future__ import annotations

import gzip
import json
import os
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import dask.bag

from kitten.config import Config
from kitten.engine import Job, convert
from kitten.io.files import MAX_PAGE_BYTES, atomic_write, is_warc_name
from kitten.io.records import InputError
from kitten.io.records import Record
from kitten.io.sinks import jsonl_record
from kitten.io.sources import InputStats, check_inputs, file_records, input_files
from kitten.pipeline import Target

#: page files converted by one task (a WARC file is a task of its own)
FILES_PER_TASK = 64


def records(paths: Sequence[str | Path], config: Config | None = None, *, target: Target = "text",
            fields: Iterable[str] = (), files_per_task: int = FILES_PER_TASK, follow_symlinks: bool = False,
            max_bytes: int = MAX_PAGE_BYTES) -> dask.bag.Bag:
    """A bag of the JSON Lines records of every page of ``paths`` (files, folders, WARC
    files), in input order; ``fields`` are the extras of ``--jsonl-fields``."""
    names = [str(p) for p in paths]
    check_inputs(names)
    if "-" in names:
        raise ValueError("standard input cannot be read by a distributed run")
    job = Job(target, config or Config(), None, max_bytes, tuple(fields))
    tasks = _tasks(input_files(names, InputStats(), follow_symlinks=follow_symlinks), files_per_task)
    if not tasks:
        return dask.bag.from_sequence([], npartitions=1)
    return dask.bag.from_sequence(tasks, npartitions=len(tasks)).map_partitions(_convert_files, job)


def _tasks(files: list[Record], files_per_task: int) -> list[list[Record]]:
    """The input files in tasks, in order: each WARC file alone, runs of other files in
    chunks of ``files_per_task``."""
    tasks: list[list[Record]] = []
    chunk: list[Record] = []
    for f in files:
        if f.path is not None and not f.skip and is_warc_name(f.path.name):
            if chunk:
                tasks.append(chunk)
                chunk = []
            tasks.append([f])
            continue
        chunk.append(f)
        if len(chunk) >= max(1, files_per_task):
            tasks.append(chunk)
            chunk = []
    if chunk:
        tasks.append(chunk)
    return tasks


def _convert_files(partition: list[list[Record]], job: Job) -> list[dict]:
    """A task: the records of its files, converted (``convert`` never raises)."""
    stats = InputStats()
    return [jsonl_record(convert(record, job)) for files in partition for f in files
            for record in file_records(f, stats, job.max_bytes)]


@dataclass
class ShardRun:
    """What a ``write_shards`` run did."""

    counts: Counter = field(default_factory=Counter)  # status -> records written by this run
    written: int = 0  # shards written
    resumed: int = 0  # shards an earlier run had written (skipped)
    failed: list[str] = field(default_factory=list)  # "task-00003: why" for tasks that did not finish
    seconds: float = 0.0

    def line(self) -> str:
        pages = sum(self.counts.values())
        rate = pages / self.seconds if self.seconds else 0.0
        c = self.counts
        return (f"{pages} pages in {self.seconds:.1f} s ({rate:.1f} docs/s): done {c['done']}, fallback "
                f"{c['fallback']}, excluded {c['excluded']}, failed {c['failed']}; shards written {self.written}, "
                f"done by an earlier run {self.resumed}, tasks failed {len(self.failed)}"
                + (" (run the same command again to retry them)" if self.failed else ""))


def write_shards(paths: Sequence[str | Path], out_dir: Path, job: Job, client, *,
                 files_per_task: int = FILES_PER_TASK, follow_symlinks: bool = False,
                 overwrite: bool = False) -> ShardRun:
    """Convert the pages of ``paths`` on the cluster of ``client`` (a
    ``distributed.Client``), one JSON Lines shard per task in ``out_dir``."""
    from distributed import as_completed

    run = ShardRun()
    start = time.perf_counter()
    names = [str(p) for p in paths]
    check_inputs(names)
    tasks = _tasks(input_files(names, InputStats(), follow_symlinks=follow_symlinks), files_per_task)
    out_dir.mkdir(parents=True, exist_ok=True)
    todo = []
    for n, files in enumerate(tasks):
        name = f"task-{n:05d}"
        entry = None if overwrite else _manifest(out_dir / f"{name}.json")
        if entry is not None:
            if entry.get("files") != [files[0].id, files[-1].id]:
                raise InputError(f"{out_dir / name}.json of an earlier run holds other inputs "
                                 "(use --overwrite to start again)")
            run.resumed += 1
            continue
        todo.append((name, files))
    futures = client.map(_write_shard, todo, job=job, out_dir=str(out_dir), pure=False)
    names_of = {f.key: name for f, (name, _) in zip(futures, todo)}
    for future in as_completed(futures):
        try:
            entry = future.result()
        except Exception as exc:  # noqa: BLE001 - a task that failed (its worker died past Dask's retries)
            run.failed.append(f"{names_of[future.key]}: {type(exc).__name__}: {exc}")
            continue
        run.written += 1
        run.counts.update(entry["counts"])
    run.seconds = time.perf_counter() - start
    return run


def _manifest(path: Path) -> dict | None:
    """A task's manifest, or None when it has none (or one that cannot be read)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _write_shard(task: tuple[str, list[Record]], job: Job, out_dir: str) -> dict:
    """A task of ``write_shards``: its shard, then its manifest, each renamed into place."""
    name, files = task
    folder = Path(out_dir)
    counts: Counter = Counter()
    fd, tmp = tempfile.mkstemp(prefix=".kitten-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as raw, gzip.open(raw, "wt", encoding="utf-8", compresslevel=3) as fh:
            for rec in _convert_files([files], job):
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
                counts[rec["status"]] += 1
        os.chmod(tmp, 0o644)
        os.replace(tmp, folder / f"{name}.jsonl.gz")
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    entry = {"shard": f"{name}.jsonl.gz", "records": sum(counts.values()), "files": [files[0].id, files[-1].id],
             "counts": dict(counts)}
    atomic_write(folder / f"{name}.json", json.dumps(entry) + "\n")
    return entry


__all__ = ["FILES_PER_TASK", "ShardRun", "records", "write_shards"]
