"""The Arrow schema of the records, derived from their JSON Schema
(``kitten/schema/record.schema.json``) so that the two never drift.

Every property of the JSON Schema is a column, in the schema's order, except the extras
(``engine.JSONL_FIELDS``, ``--fields``) not asked for. A property of one JSON type is a
column of that type: ``string`` -> ``string``, ``integer`` -> ``int64``, ``number`` ->
``float64``, ``boolean`` -> ``bool``; nullable unless the type is that one alone and the
property is required. Anything else (``array``, ``object``, several types: the extras
``blocks``, ``sentences``, ``tables``, ``lists``, ``gate``, ``events``) is a ``string``
column holding the value as JSON text (``json.loads`` gives the JSON Lines value back):
their items have no fixed set of keys (a table's records are keyed by the page's own
column headers), so no Arrow struct could hold every page. Such a column's field metadata
has ``kitten.encoding: json``; every field has the property's ``description``, and the
schema's metadata ``kitten.schema_version``. A record holding a key the schema does not
know is an error (``SchemaDrift``), never a dropped value.

Needs pyarrow (the ``parquet`` extra).
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import pyarrow as pa

from kitten.engine import JSONL_FIELDS

RECORD_SCHEMA = Path(__file__).resolve().parent.parent / "schema" / "record.schema.json"
#: the Arrow type of a property of one JSON type
SCALARS = {"string": pa.string(), "integer": pa.int64(), "number": pa.float64(), "boolean": pa.bool_()}
#: field metadata of a column of JSON text
JSON_ENCODING = {b"kitten.encoding": b"json"}


class SchemaDrift(ValueError):
    """A record with a field the record schema does not describe."""


@lru_cache(maxsize=1)
def record_schema() -> dict:
    """The JSON Schema of the records (``kitten/schema/record.schema.json``)."""
    return json.loads(RECORD_SCHEMA.read_text(encoding="utf-8"))


def arrow_field(name: str, prop: dict, required: bool) -> pa.Field:
    """The column of the JSON Schema property ``name`` (see the module's docstring)."""
    types = prop.get("type", [])
    types = [types] if isinstance(types, str) else list(types)
    kinds = [t for t in types if t != "null"]
    meta = {b"description": prop.get("description", "").encode("utf-8")}
    if len(kinds) == 1 and kinds[0] in SCALARS:
        return pa.field(name, SCALARS[kinds[0]], nullable=not required or "null" in types, metadata=meta)
    return pa.field(name, pa.string(), nullable=True, metadata={**meta, **JSON_ENCODING})


@lru_cache(maxsize=16)
def arrow_schema(fields: tuple[str, ...] = ()) -> pa.Schema:
    """The Arrow schema of the records with the extras ``fields`` (``--fields``)."""
    schema = record_schema()
    required = set(schema.get("required", ()))
    columns = [arrow_field(name, prop, name in required) for name, prop in schema["properties"].items()
               if name not in JSONL_FIELDS or name in fields]
    return pa.schema(columns, metadata={b"kitten.schema_version": str(schema.get("version", "")).encode()})


def json_columns(schema: pa.Schema) -> list[str]:
    """The columns of ``schema`` that hold JSON text."""
    return [f.name for f in schema if (f.metadata or {}).get(b"kitten.encoding") == b"json"]


def check_record(record: dict, names: frozenset[str]) -> None:
    """Raise ``SchemaDrift`` when ``record`` has a field outside the columns ``names``."""
    unknown = record.keys() - names
    if unknown:
        raise SchemaDrift(f"record field {', '.join(sorted(unknown))} is not in {RECORD_SCHEMA.name} "
                          "(describe it there: the Parquet columns are made from it)")


def to_table(records: list[dict], schema: pa.Schema) -> pa.Table:
    """The records (checked by ``check_record``) as a table of ``schema`` (a field a
    record lacks is null)."""
    encoded = set(json_columns(schema))
    columns: dict[str, list[Any]] = {name: [] for name in schema.names}
    for record in records:
        for name, values in columns.items():
            value = record.get(name)
            values.append(json.dumps(value, ensure_ascii=False) if name in encoded and value is not None else value)
    return pa.Table.from_pydict(columns, schema=schema)


def from_rows(rows: Iterable[dict], schema: pa.Schema) -> list[dict]:
    """The records of rows read back (``Table.to_pylist()``): JSON text decoded."""
    encoded = json_columns(schema)
    out = []
    for row in rows:
        for name in encoded:
            if row.get(name) is not None:
                row[name] = json.loads(row[name])
        out.append(row)
    return out


__all__ = ["RECORD_SCHEMA", "SchemaDrift", "arrow_field", "arrow_schema", "check_record", "from_rows", "json_columns",
           "record_schema", "to_table"]
