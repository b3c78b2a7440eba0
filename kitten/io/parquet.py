"""Parquet shards: the records of ``--format jsonl`` as typed columns.

``ParquetShardSink``: ``part-00000.parquet`` ... of ``shard_size`` records (default
``DEFAULT_SHARD_SIZE``) in a folder, resumable by shard as JSON Lines shards are
(``kitten.io.shards``: temporary file, renamed into place when complete, listed in
``_manifest.jsonl``). The columns are ``kitten.io.arrow.arrow_schema(fields)``, the same
in every shard; rows go in row groups of ``ROW_GROUP_ROWS``, zstd-compressed. The run's
fingerprint is ``_kitten-run.json``: Parquet readers (``pyarrow.dataset``,
``pandas.read_parquet``) read every file of the folder as a part of the data set but those
whose name starts with ``_`` or ``.``.

``read_records(folder)`` reads the records back as JSON Lines has them (JSON text columns
decoded; a field a JSON Lines record leaves out, such as an extra of a page that was not
converted, is None).

Needs pyarrow (the ``parquet`` extra).
"""
from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from kitten.io.arrow import arrow_schema, check_record, from_rows, to_table
from kitten.io.fingerprint import Fingerprint
from kitten.io.shards import MANIFEST_NAME, RUN_NAMES, ShardSink

#: records a shard holds unless --shard-size says otherwise
DEFAULT_SHARD_SIZE = 10_000
#: rows in a row group (what a reader reads at a time, what the writer holds in memory)
ROW_GROUP_ROWS = 1_000
#: the fingerprint file in a folder of Parquet shards (``_``: not read as data)
PARQUET_RUN_NAME = RUN_NAMES[1]
COMPRESSION = "zstd"


class ParquetShardSink(ShardSink):
    """Parquet shards of ``shard_size`` records with the extras ``fields`` in the folder
    ``target`` (see the module's docstring)."""

    def __init__(self, target: Path, shard_size: int = DEFAULT_SHARD_SIZE, fields: tuple[str, ...] = (), *,
                 overwrite: bool = False, fingerprint: Fingerprint | None = None):
        schema = arrow_schema(tuple(fields))
        super().__init__(target, shard_size, lambda path: ParquetShard(path, schema), ".parquet",
                         overwrite=overwrite, fingerprint=fingerprint, run_name=PARQUET_RUN_NAME)


class ParquetShard:
    """One shard's file: records gathered into row groups of ``ROW_GROUP_ROWS``."""

    def __init__(self, path: str, schema: pa.Schema):
        self.schema, self.names = schema, frozenset(schema.names)
        self.writer = pq.ParquetWriter(path, schema, compression=COMPRESSION)
        self.rows: list[dict] = []

    def write(self, record: dict) -> None:
        check_record(record, self.names)
        self.rows.append(record)
        if len(self.rows) >= ROW_GROUP_ROWS:
            self._flush()

    def _flush(self) -> None:
        if self.rows:
            self.writer.write_table(to_table(self.rows, self.schema), row_group_size=ROW_GROUP_ROWS)
            self.rows = []

    def close(self) -> None:
        try:
            self._flush()
        finally:
            self.writer.close()


def read_records(folder: Path) -> list[dict]:
    """The records of the shards ``folder``'s manifest lists, in input order, as JSON
    Lines has them (see the module's docstring)."""
    out: list[dict] = []
    for line in (folder / MANIFEST_NAME).read_text(encoding="utf-8").splitlines():
        table = pq.read_table(folder / json.loads(line)["shard"])
        out += from_rows(table.to_pylist(), table.schema)
    return out


__all__ = ["DEFAULT_SHARD_SIZE", "PARQUET_RUN_NAME", "ParquetShard", "ParquetShardSink", "read_records"]
