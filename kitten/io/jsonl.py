"""JSON Lines sinks: one record per input (``sinks.jsonl_record``), in input order.

``JsonlFileSink``: one ``.jsonl`` or ``.jsonl.gz`` file. Records go to ``NAME.part``,
each flushed to the file as it is written (gzip: a sync flush), and the file is renamed
to ``NAME`` when the run is complete; an interrupted run (Ctrl-C, SIGTERM, SIGHUP, a
kill) leaves the ``.part`` with every record written, and a re-run resumes after them.
``JsonlShardSink``: shards ``part-00000.jsonl.gz`` ... of ``shard_size`` records in a
folder, each renamed into place when complete and listed in ``_manifest.jsonl``
(``kitten.io.shards``, which Parquet shares).
``JsonlStreamSink``: standard output, each record flushed.

The file and shard sinks record the run's fingerprint (``kitten.io.fingerprint``) beside
what a re-run trusts, and resume only under the same one.
"""
from __future__ import annotations

import gzip
import json
import os
import sys
import zlib
from pathlib import Path
from typing import IO, BinaryIO, Iterator

from kitten.engine import Outcome
from kitten.io.fingerprint import RUN_NAME, Fingerprint, read_fingerprint, write_fingerprint
from kitten.io.records import InputError, Record
from kitten.io.shards import ResumeMismatch, ShardSink, check_writable
from kitten.io.sinks import jsonl_record

#: bytes read at a time when an earlier run's records are read back
CHUNK = 1 << 20


def record_line(outcome: Outcome) -> str:
    return json_line(jsonl_record(outcome))


def json_line(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False) + "\n"


class LineWriter:
    """Lines to a new file, gzip-compressed with ``gz``: the same lines give the same
    bytes (no time or name in the gzip header). With
    ``flush_each`` every line reaches the file as it is written (gzip: a sync flush, so
    that what is there can be read back after a kill)."""

    def __init__(self, path: Path | str, gz: bool, flush_each: bool):
        self.raw: BinaryIO = open(path, "wb")
        self.gz = gzip.GzipFile(filename="", fileobj=self.raw, mode="wb", compresslevel=3, mtime=0) if gz else None
        self.flush_each = flush_each

    def write(self, line: str) -> None:
        out: IO[bytes] = self.gz if self.gz is not None else self.raw
        out.write(line.encode("utf-8"))
        if self.flush_each:
            out.flush()  # GzipFile.flush: a sync flush, then the file's flush

    def close(self) -> None:
        if self.gz is not None:
            self.gz.close()
        self.raw.close()


def complete_lines(path: Path) -> Iterator[str]:
    """The complete records of a JSON Lines file an interrupted run may have cut short
    (plain or gzip, its gzip stream possibly without its end): every line that ends in a
    newline and holds a record with an id, up to the first that does not."""
    with open(path, "rb") as fh:
        head = fh.read(2)
        fh.seek(0)
        chunks = _gunzipped(fh) if head == b"\x1f\x8b" else iter(lambda: fh.read(CHUNK), b"")
        rest = b""
        for chunk in chunks:
            lines = (rest + chunk).split(b"\n")
            rest = lines.pop()
            for raw in lines:
                try:
                    line = raw.decode("utf-8")
                    ok = isinstance(json.loads(line).get("id"), str)
                except (ValueError, AttributeError):
                    ok = False
                if not ok:
                    return
                yield line + "\n"


def _gunzipped(fh: BinaryIO) -> Iterator[bytes]:
    """The decompressed bytes of the gzip members of ``fh``, as far as they can be read."""
    d = zlib.decompressobj(wbits=31)
    while True:
        data = fh.read(CHUNK)
        if not data:
            return
        while data:
            try:
                out = d.decompress(data)
            except zlib.error:
                return
            if out:
                yield out
            if not d.eof:
                break
            data = d.unused_data  # another member follows
            d = zlib.decompressobj(wbits=31)
            if data[:2] != b"\x1f\x8b"[:len(data)]:
                return


class _Resume:
    """The ids of the records an earlier run wrote, in order, which a re-run's records
    must match one for one (records come in input order)."""

    def __init__(self, ids: list[str], where: Path):
        self.ids, self.where = ids, where
        self.position = 0

    def skip(self, record: Record) -> bool:
        if self.position >= len(self.ids):
            return False
        if record.id != self.ids[self.position]:
            raise ResumeMismatch(f"{self.where} of an earlier run holds other inputs "
                                 f"({self.ids[self.position]} where this run has {record.id}): "
                                 "use --overwrite to start again")
        self.position += 1
        return True


class JsonlFileSink:
    """One JSON Lines file (see the module's docstring)."""

    def __init__(self, target: Path, *, overwrite: bool = False, fingerprint: Fingerprint | None = None):
        if not target.name.endswith((".jsonl", ".jsonl.gz")):
            raise InputError(f"{target}: a JSON Lines output is a .jsonl or .jsonl.gz file "
                             "(or a folder with --shard-size)")
        if target.is_dir():
            raise InputError(f"{target} is a folder")
        check_writable(target.parent)
        self.target = target
        self.part = target.with_name(target.name + ".part")
        run_file = target.with_name(f"{target.name}.{RUN_NAME}")
        self.writer: LineWriter | None = None
        self.finished = not overwrite and target.exists()  # complete: nothing to add
        if overwrite:
            for path in (target, self.part):
                path.unlink(missing_ok=True)
            kept: list[str] = []
        elif self.finished:
            kept = _read_back(target)
        else:
            kept = list(complete_lines(self.part)) if self.part.is_file() else []
        if kept and fingerprint is not None:
            fingerprint.check(read_fingerprint(run_file), str(target))
        self.resume = _Resume([json.loads(x)["id"] for x in kept], target if self.finished else self.part)
        if kept and not self.finished:
            self._rewrite(kept)
        elif not self.finished:
            self.part.unlink(missing_ok=True)  # no complete record in it
        if fingerprint is not None:
            write_fingerprint(run_file, fingerprint)

    def _rewrite(self, lines: list[str]) -> None:
        """Start the ``.part`` again with the records an earlier run completed (what a
        kill left after them is dropped), byte for byte as an uninterrupted run writes them."""
        tmp = self.part.with_name(self.part.name + ".tmp")
        writer = self._writer(tmp)
        for line in lines:
            writer.write(line)
        os.replace(tmp, self.part)
        self.writer = writer

    def _writer(self, path: Path) -> LineWriter:
        return LineWriter(path, self.target.name.endswith(".gz"), flush_each=True)

    def skip(self, record: Record) -> bool:
        if self.resume.skip(record):
            return True
        if self.finished:
            raise ResumeMismatch(f"{self.target} exists and holds fewer inputs than given "
                                 "(use --overwrite to write it again, or --shard-size to resume by shard)")
        return False

    def write(self, outcome: Outcome) -> None:
        if self.writer is None:
            self.writer = self._writer(self.part)
        self.writer.write(record_line(outcome))

    def close(self, complete: bool) -> None:
        """Rename the ``.part`` to the file when the run is complete; keep it when not (a
        re-run resumes from it)."""
        if self.finished:
            return
        if self.writer is None and complete:
            self.writer = self._writer(self.part)  # no input: an empty file
        if self.writer is not None:
            self.writer.close()
            self.writer = None
            if complete:
                os.replace(self.part, self.target)


def _read_back(path: Path) -> list[str]:
    """The records of a complete JSON Lines file."""
    try:
        opener = gzip.open if path.name.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as fh:  # type: ignore[operator]
            lines = list(fh)
        for line in lines:
            json.loads(line)["id"]  # noqa: B018 - checked
    except (OSError, ValueError, KeyError, TypeError, EOFError) as exc:
        raise InputError(f"{path} exists but cannot be read as Kitten's JSON Lines ({exc}): use --overwrite") from exc
    return lines


class JsonlShardSink(ShardSink):
    """Shards ``part-00000.jsonl.gz`` ... of ``shard_size`` records in the folder ``target``
    (``kitten.io.shards``)."""

    def __init__(self, target: Path, shard_size: int, *, overwrite: bool = False,
                 fingerprint: Fingerprint | None = None):
        super().__init__(target, shard_size, _JsonlShard, ".jsonl.gz", overwrite=overwrite, fingerprint=fingerprint)


class _JsonlShard:
    """A shard's records, one JSON line each, gzip-compressed."""

    def __init__(self, path: str):
        self.lines = LineWriter(path, gz=True, flush_each=False)

    def write(self, record: dict) -> None:
        self.lines.write(json_line(record))

    def close(self) -> None:
        self.lines.close()


class JsonlStreamSink:
    """Records on standard output, each flushed (nothing is resumed)."""

    def __init__(self, stream: IO[str] | None = None):
        self.stream = stream or sys.stdout

    def skip(self, record: Record) -> bool:  # noqa: ARG002
        return False

    def write(self, outcome: Outcome) -> None:
        self.stream.write(record_line(outcome))
        self.stream.flush()

    def close(self, complete: bool) -> None:  # noqa: ARG002
        pass


__all__ = ["JsonlFileSink", "JsonlShardSink", "JsonlStreamSink", "LineWriter", "complete_lines"]
