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

What this does not do yet (issue 20): a time and memory limit per page inside a task
(a page that hangs holds its task; one that kills its worker makes Dask retry the task),
the ``--engine dask`` command with shards written by the tasks, and fsspec URLs.

Needs the ``dask`` extra: ``pip install 'kitten-text[dask]'``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Sequence

import dask.bag

from kitten.config import Config
from kitten.engine import Job, convert
from kitten.io.files import MAX_PAGE_BYTES, is_warc_name
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


__all__ = ["FILES_PER_TASK", "records"]
