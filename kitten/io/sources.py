"""Sources: what the command line names, turned into a stream of ``Record``s in a fixed
order (the same on every run, so that a resumed run skips what is done).

Files and folders (``files.walk``), ``-`` for standard input (one page, or a WARC stream)
and ``--input-list FILE`` (one path a line). A file is read as a WARC file when its
content says so (``warc.is_warc``), whatever its name; its page records are expanded in
file order. A file that is not converted (a FIFO, a symlink leaving the folder) is still
a record, with its ``skip`` reason.
"""
from __future__ import annotations

import io
import os
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Iterator

from kitten.io.files import Found, MAX_PAGE_BYTES, TooLarge, gunzip, is_warc_name, plan_stems, read_file, walk
from kitten.io.records import InputError, Record
from kitten.io.warc import WarcCounts, is_warc, read_warc

STDIN = "-"


@dataclass
class Extent:
    """How much input a run has, known once its files are listed (for its progress): the
    number of input files, and when some are WARC files (many pages each, read as a
    stream) their bytes, with where each file starts among them."""

    files: int
    bytes: int | None = None
    starts: dict[str, tuple[int, int]] = field(default_factory=dict)  # file id -> (first byte, size)

    @classmethod
    def of(cls, files: list[Record]) -> "Extent":
        if not any(f.path is not None and not f.skip and is_warc_name(f.path.name) for f in files):
            return cls(len(files))
        starts, total = {}, 0
        for f in files:
            try:
                size = f.path.stat().st_size if f.path is not None and not f.skip else 0
            except OSError:
                size = 0
            starts[f.id] = (total, size)
            total += size
        return cls(len(files), total, starts)

    def measure(self, record: Record, count: int, last: int = 0) -> tuple[int, int, str]:
        """How much is read once ``record`` is done, ``count`` records being done: (done,
        total, unit), in files (pages), or in bytes when there are WARC files (``last``:
        the previous figure, kept for a record that does not tell its place)."""
        if self.bytes is None:
            return count, self.files, "pages"
        if record.offset is not None:  # a WARC record: its offset in its file
            start = self.starts.get(record.source)
            return (start[0] + record.offset if start else last), self.bytes, "bytes"
        start = self.starts.get(record.id)
        return (sum(start) if start else last), self.bytes, "bytes"


@dataclass
class InputStats:
    """What the sources met besides the records they yield (for the summary)."""

    names_skipped: Counter = field(default_factory=Counter)  # suffix -> files left out of folder walks
    duplicates: int = 0  # inputs named again (by another path, a second line of a list...): converted once
    warc: WarcCounts = field(default_factory=WarcCounts)
    warc_files: int = 0
    extent: Extent | None = None  # set when the files are listed (None for standard input)


def read_input_list(path: Path) -> list[str]:
    """The paths of an input list: one a line; blank lines and ``#`` comments ignored. A
    path that is not valid UTF-8 is kept as the file system has it (the walk excludes it)."""
    try:
        raw = sys.stdin.buffer.read() if str(path) == STDIN else Path(path).read_bytes()
        text = raw.decode("utf-8", "surrogateescape")
    except OSError as exc:
        raise InputError(f"cannot read the input list {path}: {exc}") from exc
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def check_inputs(paths: list[str]) -> None:
    """Usage errors the run should stop on before it starts (a one-line ``InputError``)."""
    if STDIN in paths and len(paths) > 1:
        raise InputError("- (standard input) must be the only input")
    if not paths:
        raise InputError("no input given")


def records(paths: list[str], stats: InputStats, *, follow_symlinks: bool = False,
            max_bytes: int = MAX_PAGE_BYTES, stdin: BinaryIO | None = None,
            include: tuple[str, ...] = ()) -> Iterator[Record]:
    """The records of ``paths`` in order. Files are listed up front (their output names
    are planned together); WARC records are read as the stream is consumed."""
    check_inputs(paths)
    if paths == [STDIN]:
        yield from _stdin_records(stdin or sys.stdin.buffer, stats, max_bytes)
        return
    files = input_files(paths, stats, follow_symlinks=follow_symlinks, include=include)
    stats.extent = Extent.of(files)
    for file in files:
        yield from file_records(file, stats, max_bytes)


def input_files(paths: list[str], stats: InputStats, *, follow_symlinks: bool = False,
                include: tuple[str, ...] = ()) -> list[Record]:
    """One record per input file of ``paths`` (folders walked; a file found twice taken
    once, counted in ``stats.duplicates``), with its id and output name planned among all
    of them: the first half of :func:`records`, which a distributed run does once before
    handing the files to its tasks."""
    found: list[Found] = []
    seen: set[tuple[int, int]] = set()
    for f in walk(paths, follow_symlinks, stats.names_skipped, include):
        if f.key is not None and f.key in seen:
            stats.duplicates += 1
            continue
        if f.key is not None:
            seen.add(f.key)
        found.append(f)
    return [Record(printable(rid), stem, printable(str(f.path)), path=f.path, skip=f.skip)
            for f, stem, rid in zip(found, plan_stems(found), _ids(found))]


def printable(name: str) -> str:
    """A file name as text: bytes that are not UTF-8 (kept by Python as lone surrogates,
    which no UTF-8 log can hold) written as ``\\xe9``."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def file_records(file: Record, stats: InputStats, max_bytes: int = MAX_PAGE_BYTES) -> Iterator[Record]:
    """The records of one input file of :func:`input_files`: the page records of a WARC
    file (read as the stream is consumed), or the file itself."""
    if file.skip or file.path is None:
        yield file
        return
    try:
        with open(file.path, "rb") as fh:
            if is_warc_stream(fh, file.path.name):
                stats.warc_files += 1
                yield from read_warc(fh, file.id, file.stem, stats.warc, max_bytes)
                return
    except OSError as exc:
        yield Record(file.id, file.stem, file.source, path=file.path, skip=f"cannot be read: {exc.strerror or exc}")
        return
    yield file


def is_warc_stream(fh: BinaryIO, name: str) -> bool:
    """Whether the file ``fh`` (named ``name``) is a WARC file, by its content or its name;
    ``fh`` is left at its start."""
    head = fh.read(512)
    fh.seek(0)
    return is_warc(head) or is_warc_name(name)


def _ids(found: list[Found]) -> list[str]:
    """Each file's record id: its path relative to the input argument that found it (a
    file given by name: its name), the same whatever form the argument took (``ce``,
    ``./ce``, ``/data/set/ce``). Files whose relative paths clash (two folders holding
    ``1.html``) get as many of their parent folders before it as tell them apart
    (``ce/1.html``, ``other/1.html``: the folders' own names first), read off the
    absolute path (``os.path.abspath``: ``.`` and ``..`` undone, symlinks kept)."""
    ids = [str(f.rel) for f in found]
    clashes = Counter(ids)
    group = [i for i, rid in enumerate(ids) if clashes[rid] > 1]
    parts = {i: Path(os.path.abspath(found[i].path)).parts for i in group}
    depth = {i: len(found[i].rel.parts) for i in group}
    while group:
        for i in group:
            depth[i] = min(depth[i] + 1, len(parts[i]))
            ids[i] = str(Path(*parts[i][-depth[i]:]))
        clashes = Counter(ids)
        group = [i for i in group if clashes[ids[i]] > 1 and depth[i] < len(parts[i])]
    return ids


def _stdin_records(stream: BinaryIO, stats: InputStats, max_bytes: int) -> Iterator[Record]:
    head = stream.read(512)
    if is_warc(head):
        stats.warc_files += 1
        yield from read_warc(_Prefixed(head, stream), STDIN, Path("stdin"), stats.warc, max_bytes)
        return
    data = head + stream.read(max_bytes + 1 - len(head))
    if len(data) > max_bytes:
        yield Record(STDIN, Path("stdin"), STDIN, skip=f"larger than the size cap of {max_bytes} bytes")
        return
    yield Record(STDIN, Path("stdin"), STDIN, data=data)


class _Prefixed(io.RawIOBase):
    """A forward-only stream whose first bytes were already read: ``head``, then the rest
    of ``inner``. It can tell its position and seek forward (by reading), which FastWARC
    asks of the streams it reads."""

    def __init__(self, head: bytes, inner: BinaryIO):
        self.head, self.inner = head, inner
        self.pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        target = offset if whence == io.SEEK_SET else self.pos + offset if whence == io.SEEK_CUR else -1
        if target < self.pos:
            raise OSError("standard input cannot seek backwards")
        while self.pos < target:
            if not self.read(min(target - self.pos, 1 << 20)):
                break
        return self.pos

    def readinto(self, buf) -> int:
        if self.head:
            n = min(len(buf), len(self.head))
            buf[:n] = self.head[:n]
            self.head = self.head[n:]
        else:
            chunk = self.inner.read(len(buf))
            n = len(chunk)
            buf[:n] = chunk
        self.pos += n
        return n


def load(record: Record, max_bytes: int = MAX_PAGE_BYTES) -> bytes:
    """The bytes of ``record`` (read from its file, or as carried), gzip undone, at most
    ``max_bytes`` (``TooLarge`` past it; ``InputError`` when unreadable)."""
    if record.data is None:
        if record.path is None:
            raise InputError("a record without bytes or a file")
        return read_file(record.path, max_bytes)
    if record.data[:2] == b"\x1f\x8b":
        return gunzip(record.data, max_bytes, must_be_gzip=False)
    return record.data


__all__ = ["InputStats", "STDIN", "TooLarge", "check_inputs", "file_records", "input_files", "is_warc_stream", "load",
           "printable", "read_input_list", "records"]
