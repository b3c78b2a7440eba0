"""Shards: records in a folder, ``shard_size`` to a file, resumable by shard.

``ShardSink`` writes the records (``sinks.jsonl_record``) of a run in input order to
``part-00000<suffix>``, ``part-00001<suffix>`` ... in the folder ``target``: each shard is
written under a temporary name (``.kitten-*.tmp``), renamed into place when it holds
``shard_size`` records (or the run is complete) and then listed in ``_manifest.jsonl``
(shard, records, first and last id). A re-run skips the records of the shards the
manifest lists (a shard whose first or last id is not this run's stops it) and redoes the
rest; a shard being written when the run was stopped is dropped. The run's fingerprint
(``kitten.io.fingerprint``) is recorded in the folder, and a re-run resumes only under the
same one (whichever of ``RUN_NAMES`` the folder has: a folder of another format's shards
stops the run, naming the format). ``--overwrite`` removes the shards the manifest lists
and starts again.

How a shard's bytes are written is the format's (``ShardWriter``): JSON Lines
(``kitten.io.jsonl``), Parquet (``kitten.io.parquet``).
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Callable, Protocol

from kitten.engine import Outcome
from kitten.io.files import atomic_write
from kitten.io.fingerprint import RUN_NAME, Fingerprint, read_fingerprint, write_fingerprint
from kitten.io.records import InputError, Record
from kitten.io.sinks import jsonl_record

MANIFEST_NAME = "_manifest.jsonl"
#: the fingerprint file of a shard folder: ``kitten-run.json``, or ``_kitten-run.json``
#: where a reader takes every other file for data (Parquet); a re-run reads either
RUN_NAMES = (RUN_NAME, "_" + RUN_NAME)


class ResumeMismatch(InputError):
    """The inputs of a resumed run are not those of the run it resumes."""


class ShardWriter(Protocol):
    """One shard's file, open for writing."""

    def write(self, record: dict) -> None: ...
    def close(self) -> None: ...


class ShardSink:
    """Shards of ``shard_size`` records in the folder ``target`` (see the module's
    docstring): ``open_shard(path)`` opens a new shard's file, ``suffix`` ends its name,
    the fingerprint goes to ``run_name`` (one of ``RUN_NAMES``) in the folder."""

    def __init__(self, target: Path, shard_size: int, open_shard: Callable[[str], ShardWriter], suffix: str, *,
                 overwrite: bool = False, fingerprint: Fingerprint | None = None, run_name: str = RUN_NAME):
        if shard_size < 1:
            raise InputError("--shard-size takes 1 or more")
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create the output folder {target}: {exc.strerror or exc}") from exc
        check_writable(target)
        self.target, self.shard_size, self.open_shard, self.suffix = target, shard_size, open_shard, suffix
        self.manifest = target / MANIFEST_NAME
        listed = self._complete_shards()
        if overwrite:
            for entry in listed:
                (target / entry["shard"]).unlink(missing_ok=True)
        self.expected = [] if overwrite else listed
        if self.expected and fingerprint is not None:
            recorded = (read_fingerprint(target / name) for name in sorted(RUN_NAMES, key=lambda n: n != run_name))
            fingerprint.check(next((fp for fp in recorded if fp is not None), None), str(target))
        self._write_manifest(self.expected)
        if fingerprint is not None:
            write_fingerprint(target / run_name, fingerprint)
            for name in RUN_NAMES:
                if name != run_name:
                    (target / name).unlink(missing_ok=True)
        self.shard = len(self.expected)
        self.position = 0  # records seen by skip()
        self.writer: ShardWriter | None = None
        self.tmp = ""
        self.count = 0  # records in the open shard
        self.first_id = self.last_id = ""

    def _complete_shards(self) -> list[dict]:
        """The manifest's entries up to the first that is torn, out of order or without
        its file. A shard of another format counts (its fingerprint then stops the run)."""
        shards: list[dict] = []
        if self.manifest.is_file():
            for raw in self.manifest.read_text(encoding="utf-8", errors="replace").splitlines(True):
                try:
                    entry = json.loads(raw)
                except ValueError:
                    break
                name = entry.get("shard") if isinstance(entry, dict) else None
                if not raw.endswith("\n") or not isinstance(name, str) \
                        or not re.fullmatch(re.escape(shard_name(len(shards), "")) + r"\.[a-z.]+", name) \
                        or not (self.target / name).is_file():
                    break
                shards.append(entry)
        return shards

    def _write_manifest(self, entries: list[dict]) -> None:
        atomic_write(self.manifest, "".join(json.dumps(e) + "\n" for e in entries))

    def skip(self, record: Record) -> bool:
        """Whether ``record`` is in a complete shard of an earlier run (a shard whose first
        or last id differs from this run's inputs stops the run)."""
        if self.position >= sum(e["records"] for e in self.expected):
            return False
        start = 0
        for e in self.expected:
            if start == self.position and record.id != e["first"] or \
                    start + e["records"] - 1 == self.position and record.id != e["last"]:
                raise ResumeMismatch(f"{self.target}: {e['shard']} of an earlier run holds other inputs "
                                     "(use --overwrite to start again)")
            start += e["records"]
        self.position += 1
        return True

    def write(self, outcome: Outcome) -> None:
        if self.writer is None:
            fd, self.tmp = tempfile.mkstemp(prefix=".kitten-", suffix=".tmp", dir=self.target)
            os.close(fd)
            self.writer = self.open_shard(self.tmp)
            self.first_id, self.count = outcome.record.id, 0
        self.writer.write(jsonl_record(outcome))
        self.count += 1
        self.last_id = outcome.record.id
        if self.count >= self.shard_size:
            self._finish()

    def _finish(self) -> None:
        """Close the open shard, rename it into place and list it in the manifest."""
        assert self.writer is not None
        self.writer.close()
        self.writer = None
        os.chmod(self.tmp, 0o644)
        final = shard_name(self.shard, self.suffix)
        os.replace(self.tmp, self.target / final)
        with open(self.manifest, "a", encoding="utf-8") as m:
            m.write(json.dumps({"shard": final, "records": self.count, "first": self.first_id,
                                "last": self.last_id}) + "\n")
        self.shard += 1

    def close(self, complete: bool) -> None:
        """Finish the last shard when the run is complete; drop it when it is not (a
        resumed run redoes it)."""
        if self.writer is None:
            return
        if complete:
            self._finish()
        else:
            try:
                self.writer.close()
            finally:
                self.writer = None
                os.unlink(self.tmp)


def check_writable(folder: Path) -> None:
    """Stop the run at start, with a one-line error, when ``folder`` cannot take files."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".kitten-", suffix=".tmp", dir=folder)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        raise InputError(f"cannot write in {folder}: {exc.strerror or exc}") from exc


def shard_name(n: int, suffix: str) -> str:
    return f"part-{n:05d}{suffix}"


__all__ = ["MANIFEST_NAME", "RUN_NAMES", "ResumeMismatch", "ShardSink", "ShardWriter", "check_writable", "shard_name"]
