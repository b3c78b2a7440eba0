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
status, the run's fingerprint: ``kitten.io.fingerprint``); a re-run skips the tasks whose
manifest is there for the same input files, and stops (``SettingsMismatch``) when one
was written with other settings.

Each page runs under the local batch's time and memory limits (``Limits``, see
``_convert_files``) where the Dask worker can start a process. Inputs and the output
folder may be fsspec URLs (``s3://bucket/crawl/``; ``RemoteFile``, ``_Folder``).

Needs the ``dask`` extra: ``pip install 'kitten-text[dask]'``.
"""
from __future__ import annotations

import gzip
import json
import multiprocessing
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
from kitten.io.files import MAX_PAGE_BYTES, is_input_name, is_warc_name, output_stem
from kitten.io.fingerprint import Fingerprint
from kitten.io.records import InputError, Record
from kitten.io.sinks import jsonl_record
from kitten.io.sources import InputStats, check_inputs, file_records, input_files, is_warc_stream
from kitten.io.warc import read_warc
from kitten.pipeline import Target
from kitten.progress import Progress
from kitten.workers import run_records

#: page files converted by one task (a WARC file is a task of its own)
FILES_PER_TASK = 64


def records(paths: Sequence[str | Path], config: Config | None = None, *, target: Target = "text",
            fields: Iterable[str] = (), files_per_task: int = FILES_PER_TASK, follow_symlinks: bool = False,
            max_bytes: int = MAX_PAGE_BYTES, page_timeout: float = 60.0, memory_limit: int = 0,
            include: tuple[str, ...] = ()) -> dask.bag.Bag:
    """A bag of the JSON Lines records of every page of ``paths`` (files, folders, WARC
    files), in input order; ``fields`` are the extras of ``--jsonl-fields``;
    ``page_timeout`` (seconds) and ``memory_limit`` (bytes) as in the local batch
    (:func:`_convert_files`)."""
    names = [str(p) for p in paths]
    check_inputs(names)
    if "-" in names:
        raise ValueError("standard input cannot be read by a distributed run")
    job = Job(target, config or Config(), None, max_bytes, tuple(fields))
    tasks = _tasks(_plan(names, follow_symlinks, include), files_per_task)
    if not tasks:
        return dask.bag.from_sequence([], npartitions=1)
    limits = Limits(page_timeout, memory_limit)
    return dask.bag.from_sequence(tasks, npartitions=len(tasks)).map_partitions(_convert_files, job, limits)


@dataclass(frozen=True)
class RemoteFile:
    """An input file named by an fsspec URL (``s3://bucket/crawl/x.warc.gz``), read in the
    task that converts it."""

    url: str
    id: str  # its path relative to the URL given (as a local file's id)
    stem: Path

    @property
    def path(self) -> Path:  # what _tasks looks at: its name
        return Path(self.url.rsplit("/", 1)[-1])

    skip = ""


def is_url(name: str) -> bool:
    """An fsspec URL (``s3://...``, ``file://...``), not a local path."""
    return "://" in name


def _plan(names: list[str], follow_symlinks: bool = False, include: tuple[str, ...] = ()) -> list[Record | RemoteFile]:
    """The input files of ``names`` in order: local ones as the local batch plans them
    (``sources.input_files``: the same ids), URLs listed with fsspec (a folder URL: the
    page and WARC files under it, and those matching a glob of ``include``, sorted)."""
    if not any(map(is_url, names)):
        return list(input_files(names, InputStats(), follow_symlinks=follow_symlinks, include=include))
    out: list[Record | RemoteFile] = []
    for name in names:
        if not is_url(name):
            out += input_files([name], InputStats(), follow_symlinks=follow_symlinks, include=include)
            continue
        import fsspec

        fs, root = fsspec.core.url_to_fs(name)
        root = root.rstrip("/")
        if fs.isdir(root):
            found = sorted(p for p in fs.find(root) if not any(part.startswith(".") for part in
                                                              p[len(root):].split("/"))
                           and is_input_name(p.rsplit("/", 1)[-1], include))
        elif fs.exists(root):
            found = [root]
        else:
            raise InputError(f"no such file or folder: {name}")
        for p in found:
            rel = p[len(root):].lstrip("/") or p.rsplit("/", 1)[-1]
            out.append(RemoteFile(fs.unstrip_protocol(p), rel, output_stem(Path(rel))))
    return out


def _remote_records(f: RemoteFile, stats: InputStats, max_bytes: int):
    """The records of a file named by an fsspec URL (as ``sources.file_records``)."""
    import fsspec

    try:
        with fsspec.open(f.url, "rb") as fh:
            if is_warc_stream(fh, f.path.name):
                stats.warc_files += 1
                yield from read_warc(fh, f.id, f.stem, stats.warc, max_bytes)
                return
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        yield Record(f.id, f.stem, f.url, skip=f"cannot be read: {exc}")
        return
    if len(data) > max_bytes:
        yield Record(f.id, f.stem, f.url, skip=f"larger than the size cap of {max_bytes} bytes")
        return
    yield Record(f.id, f.stem, f.url, data=data)


def _tasks(files: list[Record | RemoteFile], files_per_task: int) -> list[list[Record | RemoteFile]]:
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


_WARM_UP = b"<title>t</title><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table><ul><li>x</li></ul>"


@dataclass(frozen=True)
class Limits:
    """The time limit of a page (seconds; 0: none) and the memory a page's process may
    add (bytes; 0: none), as ``--page-timeout`` and ``--max-memory``."""

    page_timeout: float = 60.0
    memory_limit: int = 0


def _convert_files(partition: list[list[Record]], job: Job, limits: Limits = Limits()) -> list[dict]:
    """A task: the records of its files, converted. With limits, the task runs the local
    batch's worker pool (one worker process, ``kitten.workers.run_records``): a page past
    its time limit is a ``timeout`` record, a page that kills its process (memory) a
    ``failed`` one, and the task goes on. A Dask worker that is a daemon process cannot
    start one (``distributed.worker.daemon``, true by default; ``--engine dask`` turns it
    off for the clusters it starts): its tasks convert in the Dask worker, without limits."""
    stats = InputStats()
    source = (record for files in partition for f in files
              for record in (_remote_records(f, stats, job.max_bytes) if isinstance(f, RemoteFile)
                             else file_records(f, stats, job.max_bytes)))
    if (limits.page_timeout <= 0 and limits.memory_limit <= 0) or multiprocessing.current_process().daemon:
        return [jsonl_record(convert(record, job)) for record in source]
    # the models and rules loaded here first (cached per process), so that the page
    # processes forked below start with them instead of loading them for each task
    convert(Record("warm-up", Path("warm-up"), "warm-up", data=_WARM_UP), job)
    out: list[dict] = []
    run_records(source, job, lambda outcome: out.append(jsonl_record(outcome)), jobs=1,
                page_timeout=limits.page_timeout, memory_limit=limits.memory_limit)
    return out


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


def write_shards(paths: Sequence[str | Path], out_dir: str | Path, job: Job, client, *,
                 files_per_task: int = FILES_PER_TASK, follow_symlinks: bool = False,
                 overwrite: bool = False, limits: Limits = Limits(), fingerprint: Fingerprint | None = None,
                 include: tuple[str, ...] = (), progress: Progress | None = None) -> ShardRun:
    """Convert the pages of ``paths`` (local paths or fsspec URLs) on the cluster of
    ``client`` (a ``distributed.Client``), one JSON Lines shard per task in ``out_dir``
    (a local folder or an fsspec URL). With ``fingerprint``, each task manifest records
    it, and a task an earlier run wrote with another one stops the run (``SettingsMismatch``).
    ``progress`` is told of each task as it ends (tasks done of the run's tasks)."""
    from distributed import as_completed

    run = ShardRun()
    start = time.perf_counter()
    bar = progress or Progress("none")
    bar.begin()
    names = [str(p) for p in paths]
    check_inputs(names)
    tasks = _tasks(_plan(names, follow_symlinks, include), files_per_task)
    out = _Folder(str(out_dir))
    todo = []
    for n, files in enumerate(tasks):
        name = f"task-{n:05d}"
        entry = None if overwrite else out.manifest(f"{name}.json")
        if entry is not None:
            if entry.get("files") != [files[0].id, files[-1].id]:
                raise InputError(f"{out_dir}/{name}.json of an earlier run holds other inputs "
                                 "(use --overwrite to start again)")
            if fingerprint is not None:
                fingerprint.check(entry.get("fingerprint"), f"{out_dir} ({name}.json)")
            run.resumed += 1
            continue
        todo.append((name, files))
    futures = client.map(_write_shard, todo, job=job, out_dir=str(out_dir), limits=limits, pure=False,
                         fingerprint=fingerprint.as_dict() if fingerprint is not None else None)
    names_of = {f.key: name for f, (name, _) in zip(futures, todo)}
    for ended, future in enumerate(as_completed(futures), 1):
        try:
            entry = future.result()
        except Exception as exc:  # noqa: BLE001 - a task that failed (its worker died past Dask's retries)
            run.failed.append(f"{names_of[future.key]}: {type(exc).__name__}: {exc}")
        else:
            run.written += 1
            run.counts.update(entry["counts"])
        bar.update(ended, len(todo), "tasks", sum(run.counts.values()), run.counts)
    bar.close(complete=True)
    run.seconds = time.perf_counter() - start
    return run


class _Folder:
    """The output folder of ``write_shards``: a local folder, or an fsspec URL. A file
    appears whole or not at all: written under a temporary name, then renamed (moved)."""

    def __init__(self, where: str):
        self.where = where
        if is_url(where):
            import fsspec

            self.fs, self.root = fsspec.core.url_to_fs(where)
            self.root = self.root.rstrip("/")
            self.fs.makedirs(self.root, exist_ok=True)
        else:
            self.fs, self.root = None, where
            Path(where).mkdir(parents=True, exist_ok=True)

    def manifest(self, name: str) -> dict | None:
        """A task's manifest, or None when it has none (or one that cannot be read)."""
        try:
            raw = self.fs.cat_file(f"{self.root}/{name}") if self.fs else Path(self.root, name).read_bytes()
            return json.loads(raw)
        except (OSError, ValueError):
            return None

    def put(self, local: str, name: str) -> None:
        """Move the local file ``local`` to ``name`` in the folder (atomically)."""
        if self.fs is None:
            os.chmod(local, 0o644)
            os.replace(local, Path(self.root, name))
            return
        tmp = f"{self.root}/.kitten-{os.getpid()}-{time.monotonic_ns()}.tmp"
        self.fs.put_file(local, tmp)
        self.fs.mv(tmp, f"{self.root}/{name}")
        os.unlink(local)


def _write_shard(task: tuple[str, list[Record | RemoteFile]], job: Job, out_dir: str,
                 limits: Limits = Limits(), fingerprint: dict | None = None) -> dict:
    """A task of ``write_shards``: its shard, then its manifest, each put in place whole."""
    name, files = task
    out = _Folder(out_dir)
    counts: Counter = Counter()
    # a local folder: the temporary file beside the shard (a rename); a URL: a local one
    fd, tmp = tempfile.mkstemp(prefix=".kitten-", suffix=".tmp", dir=None if out.fs else out_dir)
    try:
        with os.fdopen(fd, "wb") as raw, gzip.open(raw, "wt", encoding="utf-8", compresslevel=3) as fh:
            for rec in _convert_files([files], job, limits):
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
                counts[rec["status"]] += 1
        out.put(tmp, f"{name}.jsonl.gz")
        entry = {"shard": f"{name}.jsonl.gz", "records": sum(counts.values()), "files": [files[0].id, files[-1].id],
                 "counts": dict(counts), "fingerprint": fingerprint}
        fd, tmp = tempfile.mkstemp(prefix=".kitten-", suffix=".tmp", dir=None if out.fs else out_dir)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(entry) + "\n")
        out.put(tmp, f"{name}.json")
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return entry


__all__ = ["FILES_PER_TASK", "Limits", "RemoteFile", "ShardRun", "is_url", "records", "write_shards"]
