"""Parquet output (issue 38, part 8): ``--format parquet -o DIR`` writes the JSON Lines
records as typed columns in shards that pyarrow, pandas and datasets read, resumable as
JSON Lines shards are. ``benchmarks/parquet_roundtrip.py`` does the same on 1,000 shared
pages, with throughput."""
from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
import pyarrow.dataset as ds  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from kitten.cli import main  # noqa: E402
from kitten.engine import JSONL_FIELDS, Outcome  # noqa: E402
from kitten.io import arrow  # noqa: E402
from kitten.io.parquet import ParquetShardSink, read_records  # noqa: E402
from kitten.io.records import Record  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
TABLE = "<table><tr><th>Name</th><th>Age</th></tr><tr><td>Ann</td><td>31</td></tr><tr><td>Bo</td><td>4</td></tr></table>"


def run(argv: list[str], capsys) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


def pages(folder: Path, n: int) -> list[str]:
    """``n`` pages with a data table and a list, and a sitemap (an excluded record)."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (folder / f"p{i:03d}.html").write_text(f"<html lang=de><title>T {i}</title><h1>Titel {i}</h1>"
                                                f"<p>Der Text der Seite {i}, mit einem Satz.</p>{TABLE}"
                                                "<ul><li>eins</li><li>zwei</li></ul>", encoding="utf-8")
    (folder / "site.xml.html").write_text('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/'
                                          'sitemap/0.9"><url><loc>https://e.com/</loc></url></urlset>',
                                          encoding="utf-8")
    return [f"p{i:03d}.html" for i in range(n)] + ["site.xml.html"]


def read_jsonl(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") if path.name.endswith(".gz") else open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def same_records(jsonl: list[dict], parquet: list[dict]) -> None:
    """Record for record the same values; a field JSON Lines leaves out is None in Parquet."""
    assert len(jsonl) == len(parquet)
    for a, b in zip(jsonl, parquet):
        assert a.keys() <= b.keys()
        assert a == {k: v for k, v in b.items() if k in a}, a["id"]
        assert all(b[k] is None for k in b.keys() - a.keys())


def test_the_arrow_schema_is_the_record_schema() -> None:
    schema = arrow.record_schema()
    every = arrow.arrow_schema(JSONL_FIELDS)
    assert every.names == list(schema["properties"])
    assert arrow.arrow_schema().names == [n for n in schema["properties"] if n not in JSONL_FIELDS]
    assert every.field("id").type == pa.string() and not every.field("id").nullable
    assert every.field("offset").type == pa.int64() and every.field("offset").nullable
    assert every.field("page_type_probability").type == pa.float64()
    assert set(arrow.json_columns(every)) == set(JSONL_FIELDS)
    assert every.metadata[b"kitten.schema_version"] == str(schema["version"]).encode()


def test_a_field_added_to_the_record_schema_becomes_a_column(monkeypatch) -> None:
    schema = json.loads(arrow.RECORD_SCHEMA.read_text(encoding="utf-8"))
    schema["properties"]["words"] = {"type": ["integer", "null"], "description": "Words of the text."}
    schema["properties"]["flags"] = {"type": "object"}
    monkeypatch.setattr(arrow, "record_schema", lambda: schema)
    arrow.arrow_schema.cache_clear()
    try:
        got = arrow.arrow_schema()
        assert got.field("words").type == pa.int64() and got.field("flags").type == pa.string()
        assert arrow.json_columns(got) == ["flags"]
        table = arrow.to_table([{"id": "a", "source": "s", "status": "done", "words": 3, "flags": {"x": [1]}}], got)
        assert arrow.from_rows(table.to_pylist(), got)[0]["flags"] == {"x": [1]}
    finally:
        arrow.arrow_schema.cache_clear()
    with pytest.raises(arrow.SchemaDrift, match="nonsense"):
        arrow.check_record({"id": "a", "nonsense": 1}, frozenset(arrow.arrow_schema().names))


def test_parquet_round_trip_equals_jsonl(tmp_path: Path, capsys) -> None:
    names = pages(tmp_path / "in", 5)
    base = ["extract", str(tmp_path / "in"), "--fields", "tables,lists,events", "-q"]
    assert run(base + ["--format", "jsonl", "-o", str(tmp_path / "all.jsonl")], capsys)[0] == 0
    out = tmp_path / "pq"
    assert run(base + ["--format", "parquet", "--shard-size", "2", "-o", str(out)], capsys)[0] == 0
    assert sorted(p.name for p in out.iterdir()) == ["_kitten-run.json", "_manifest.jsonl", "part-00000.parquet",
                                                     "part-00001.parquet", "part-00002.parquet"]
    jsonl = read_jsonl(tmp_path / "all.jsonl")
    assert [r["id"] for r in jsonl] == names and jsonl[-1]["status"] == "excluded" and jsonl[0]["tables"]
    same_records(jsonl, read_records(out))
    # the readers of the issue, on the folder as it is
    table = ds.dataset(out, format="parquet").to_table()
    assert table.num_rows == len(names) and table.schema.field("offset").type == pa.int64()
    assert table.column("id").to_pylist() == names
    frame = pytest.importorskip("pandas").read_parquet(out)
    assert list(frame["id"]) == names and json.loads(frame["tables"][0]) == jsonl[0]["tables"]


def test_datasets_reads_the_shards(tmp_path: Path, capsys) -> None:
    datasets = pytest.importorskip("datasets")
    names = pages(tmp_path / "in", 3)
    out = tmp_path / "pq"
    assert run(["extract", str(tmp_path / "in"), "--format", "parquet", "-o", str(out), "-q"], capsys)[0] == 0
    got = datasets.load_dataset("parquet", data_files=str(out / "*.parquet"), split="train",
                                cache_dir=str(tmp_path / "hf"))
    assert got["id"] == names and got.features["offset"].dtype == "int64"


def test_an_interrupted_shard_is_dropped_and_redone(tmp_path: Path) -> None:
    out = tmp_path / "pq"
    outcomes = [Outcome(Record(f"p{i}", Path(f"p{i}"), "in"), "done", output=f"Text {i}.\n") for i in range(5)]
    sink = ParquetShardSink(out, 2)
    for o in outcomes[:3]:
        sink.write(o)
    sink.close(complete=False)  # what a stopped run does: the shard in progress is dropped
    assert sorted(p.name for p in out.iterdir()) == ["_manifest.jsonl", "part-00000.parquet"]
    sink = ParquetShardSink(out, 2)
    assert [sink.skip(o.record) for o in outcomes] == [True, True, False, False, False]
    for o in outcomes[2:]:
        sink.write(o)
    sink.close(complete=True)
    assert [r["id"] for r in read_records(out)] == [o.record.id for o in outcomes]


def test_resume_by_shard_and_settings(tmp_path: Path, capsys) -> None:
    pages(tmp_path / "in", 6)
    out = tmp_path / "pq"
    args = ["extract", str(tmp_path / "in"), "--format", "parquet", "--shard-size", "3", "-o", str(out)]
    assert run(args + ["-q"], capsys)[0] == 0
    first = {p.name: p.read_bytes() for p in out.glob("part-*")}
    manifest = (out / "_manifest.jsonl").read_text().splitlines()
    (out / "_manifest.jsonl").write_text(manifest[0] + "\n")  # killed while the second shard was renamed
    (out / "part-00002.parquet").unlink()
    code, err = run(args, capsys)
    assert code == 0 and "4 pages in" in err and "3 done by an earlier run" in err
    assert {p.name: p.read_bytes() for p in out.glob("part-*")} == first  # the same bytes
    code, err = run(args + ["--fields", "tables"], capsys)
    assert code == 2 and "fields [] -> [tables]" in err and len(err.strip().splitlines()) == 1, err
    code, err = run(args + ["--fields", "tables", "--overwrite", "-q"], capsys)
    assert code == 0 and "tables" in pq.read_schema(out / "part-00000.parquet").names
    jsonl = tmp_path / "shards"
    assert run(["extract", str(tmp_path / "in"), "--format", "jsonl", "--shard-size", "3", "-o", str(jsonl), "-q"],
               capsys)[0] == 0
    code, err = run(args[:-1] + [str(jsonl)], capsys)  # JSON Lines shards there: another format
    assert code == 2 and "format jsonl -> parquet" in err, err
    assert run(args[:-1] + [str(jsonl), "--overwrite", "-q"], capsys)[0] == 0  # the JSON Lines shards replaced
    assert sorted(p.name for p in jsonl.iterdir()) == ["_kitten-run.json", "_manifest.jsonl", "part-00000.parquet",
                                                       "part-00001.parquet", "part-00002.parquet"]


def test_sigterm_keeps_the_complete_shards(tmp_path: Path) -> None:
    names = pages(tmp_path / "in", 40)
    out = tmp_path / "pq"
    args = [sys.executable, "-m", "kitten", "extract", str(tmp_path / "in"), "--format", "parquet",
            "--shard-size", "4", "-o", str(out)]
    proc = subprocess.Popen(args, env=ENV, stderr=subprocess.PIPE, text=True, start_new_session=True)
    for _ in range(1200):
        time.sleep(0.05)
        if proc.poll() is not None or (out / "part-00001.parquet").exists():
            break
    os.killpg(proc.pid, signal.SIGTERM)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 128 + signal.SIGTERM and "INTERRUPTED" in err and "Traceback" not in err, err
    kept = len(read_records(out))
    assert 8 <= kept < len(names) and not list(out.glob(".kitten-*"))
    again = subprocess.run(args, env=ENV, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and f"{kept} done by an earlier run" in again.stderr, again.stderr
    assert [r["id"] for r in read_records(out)] == names


@pytest.mark.parametrize("argv, message", [
    (["--format", "parquet"], "give -o DIR"),
    (["--format", "parquet", "-o", "-"], "give -o DIR"),
    (["--format", "text", "--fields", "tables", "-o", "OUT"], "--fields goes with --format jsonl or parquet"),
    (["--format", "parquet", "--jsonl-fields", "nonsense", "-o", "OUT"], "unknown --fields nonsense"),
    (["--format", "parquet", "--engine", "dask", "-o", "OUT"], "--engine dask writes --format jsonl"),
])
def test_parquet_usage_errors(tmp_path: Path, capsys, argv, message) -> None:
    pages(tmp_path / "in", 1)
    code, err = run(["extract", str(tmp_path / "in")] + [str(tmp_path / "o") if x == "OUT" else x for x in argv],
                    capsys)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_without_pyarrow_one_line(tmp_path: Path, capsys, monkeypatch) -> None:
    pages(tmp_path / "in", 1)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)  # import pyarrow.parquet: ImportError
    code, err = run(["extract", str(tmp_path / "in"), "--format", "parquet", "-o", str(tmp_path / "o")], capsys)
    assert code == 2 and "pip install 'kitten-text[parquet]'" in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "o").exists()
