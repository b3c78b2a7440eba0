"""Kitten on Dask (``kitten.dask``): the records of a bag computed on a local cluster of
worker processes are the records of the local batch, byte for byte, in the same order.

Marked ``cluster`` (``pytest -m "not cluster"`` skips them); skipped without the ``dask``
extra."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kitten.cli import main
from kitten.io.warc import warc_record

pytest.importorskip("dask.bag")
distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.cluster

from _corpora import CORPORA  # noqa: E402  (the shared corpora: tests/_corpora.py)

CORPUS = CORPORA / "cleaneval-final" / "html"


def _pages(n: int) -> list[bytes]:
    """Real pages when the shared corpora are there, else made-up ones."""
    if CORPUS.is_dir():
        return [p.read_bytes() for p in sorted(CORPUS.iterdir())[:n]]
    return [(f"<html><head><title>Page {i}</title></head><body><h1>Page {i}</h1><ul><li>One item</li>"
             f"<li>Two items</li></ul><table><tr><th>Year</th><th>Value</th></tr><tr><td>20{i:02d}</td>"
             f"<td>{i * 7}</td></tr><tr><td>19{i:02d}</td><td>{i * 3}</td></tr></table>"
             f"<p>Text of page {i}. It has two sentences.</p></body></html>").encode() for i in range(n)]


def _inputs(tmp_path: Path, per_warc: int = 12) -> Path:
    """Three WARC files of ``per_warc`` pages each (and a non-page record) and a folder of
    8 page files."""
    src = tmp_path / "in"
    (src / "files").mkdir(parents=True)
    pages = _pages(3 * per_warc + 8)
    for w in range(3):
        records = [warc_record(f"https://example.org/{w}/{i}", pages[w * per_warc + i]) for i in range(per_warc)]
        records.insert(3, warc_record(f"https://example.org/{w}/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(40),
                                      http_headers={"Content-Type": "image/png"}))
        (src / f"crawl-{w}.warc.gz").write_bytes(b"".join(records))
    for i in range(8):
        (src / "files" / f"p{i}.html").write_bytes(pages[3 * per_warc + i])
    return src


def _local_batch(src: Path, out: Path, capsys, *extra: str) -> list[str]:
    assert main(["extract", str(src), "--format", "jsonl", "-o", str(out), "-q", *extra]) == 0
    capsys.readouterr()
    return out.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def client():
    import dask

    # tasks may start page processes; set while the cluster lives (a worker restarted
    # after a crash reads it again)
    with dask.config.set({"distributed.worker.daemon": False}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as c:
        yield c


def test_bag_records_are_the_local_batch_records(tmp_path: Path, capsys, client) -> None:
    import kitten.dask

    src = _inputs(tmp_path, per_warc=96)  # 300 pages
    expected = _local_batch(src, tmp_path / "local.jsonl", capsys, "--jsonl-fields", "tables,lists")
    bag = kitten.dask.records([src], fields=("tables", "lists"), files_per_task=3)
    assert bag.npartitions == 3 + 3  # each WARC file alone, 8 page files in tasks of 3
    got = [json.dumps(r, ensure_ascii=False) for r in bag.compute()]
    assert got == expected and len(got) >= 290  # (a few records of the 300 are not pages: counted, not written)
    workers = client.run(lambda: __import__("os").getpid())
    assert len(set(workers.values())) == 2  # two worker processes did the work


def test_bag_is_a_bag_the_user_can_filter(tmp_path: Path, client) -> None:  # noqa: ARG001
    import kitten.dask

    src = _inputs(tmp_path)
    done = kitten.dask.records([src]).filter(lambda r: r["status"] == "done").pluck("url").compute()
    assert len(done) == 44 and done[0] == "https://example.org/0/0" and done[-1] is None  # page files: no URL
    with pytest.raises(ValueError):
        kitten.dask.records(["-"])


def _shard_lines(folder: Path) -> list[str]:
    import gzip

    return [line for shard in sorted(folder.glob("task-*.jsonl.gz"))
            for line in gzip.decompress(shard.read_bytes()).decode("utf-8").splitlines()]


def test_engine_dask_writes_shards_a_rerun_skips(tmp_path: Path, capsys) -> None:
    src = _inputs(tmp_path)
    expected = _local_batch(src, tmp_path / "local.jsonl", capsys)
    out = tmp_path / "shards"
    argv = ["extract", str(src), "--format", "jsonl", "-o", str(out), "--engine", "dask", "-j", "2"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "44 pages" in err and "shards written 4" in err  # 3 WARC files, 8 page files in one task
    assert _shard_lines(out) == expected
    manifest = json.loads((out / "task-00000.json").read_text(encoding="utf-8"))
    assert manifest["records"] == 12 and manifest["counts"] == {"done": 12}
    (out / "task-00002.json").unlink()  # as if that task had not finished
    assert main(argv) == 0
    assert "shards written 1, done by an earlier run 3" in capsys.readouterr().err
    assert _shard_lines(out) == expected
    assert main(["extract", str(src), "-o", str(out), "--engine", "dask"]) == 2  # text to a folder: local only
    assert "--engine dask writes --format jsonl" in capsys.readouterr().err


def test_a_worker_killed_mid_run_costs_no_record(tmp_path: Path, client) -> None:
    import os
    import signal
    import threading
    import time

    import kitten.dask
    from kitten.config import Config
    from kitten.engine import Job

    src = _inputs(tmp_path)
    for w in range(3, 8):  # more WARC files: tasks still to run when a worker dies
        (src / f"crawl-{w}.warc.gz").write_bytes((src / f"crawl-{w % 3}.warc.gz").read_bytes())
    expected_local = tmp_path / "shards-ref"
    ref = kitten.dask.write_shards([src], expected_local, Job("text", Config()), client)
    assert not ref.failed
    out = tmp_path / "shards"
    result = {}
    thread = threading.Thread(target=lambda: result.update(
        run=kitten.dask.write_shards([src], out, Job("text", Config()), client)))
    thread.start()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not list(out.glob("task-*.json")):
        time.sleep(0.02)
    victim = next(iter(client.run(os.getpid).values()))
    os.kill(victim, signal.SIGKILL)  # a worker process dies mid-run; its nanny starts another
    thread.join(120)
    assert not result["run"].failed
    assert _shard_lines(out) == _shard_lines(expected_local)  # every record, once, in order
    assert len(_shard_lines(out)) == 8 * 12 + 8


def test_a_page_past_its_time_limit_is_a_record_and_the_task_goes_on(tmp_path: Path, client) -> None:  # noqa: ARG001
    import kitten.dask

    from test_batch_io import big_table_page

    src = tmp_path / "in"
    src.mkdir()
    (src / "a.html").write_text("<p>A page before.</p>", encoding="utf-8")
    (src / "b.html").write_text(big_table_page(1900), encoding="utf-8")  # about 2 s of tables work
    (src / "c.html").write_text("<p>A page after.</p>", encoding="utf-8")
    got = kitten.dask.records([src], page_timeout=0.3).compute()
    assert [r["status"] for r in got] == ["done", "timeout", "done"]
    assert "time limit" in got[1]["reason"] and got[1]["text"].startswith("A page with a big table.")  # the dump
    assert got[2]["text"] == "A page after.\n"


def test_inputs_and_shards_by_fsspec_url(tmp_path: Path, capsys) -> None:
    src = _inputs(tmp_path)
    expected = _local_batch(src, tmp_path / "local.jsonl", capsys)
    out = tmp_path / "by-url"
    argv = ["extract", f"file://{src}", "--format", "jsonl", "-o", f"file://{out}", "--engine", "dask", "-j", "2"]
    assert main(argv) == 0
    assert "44 pages" in capsys.readouterr().err
    assert _shard_lines(out) == [line.replace(f'"source": "{src}/', f'"source": "file://{src}/')
                                 for line in expected]  # the same records, read through fsspec
    assert not list(out.glob(".kitten-*"))  # no temporary file left
    assert main(argv) == 0 and "done by an earlier run 4" in capsys.readouterr().err
    assert main([*argv[:1], f"file://{tmp_path}/nothing", *argv[2:]]) == 2
    assert "no such file or folder" in capsys.readouterr().err
