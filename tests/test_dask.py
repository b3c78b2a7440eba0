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

CORPUS = Path(__file__).resolve().parent.parent / ".cache" / "corpora" / "cleaneval-final" / "html"


def _pages(n: int) -> list[bytes]:
    """Real pages when the shared corpora are there, else made-up ones."""
    if CORPUS.is_dir():
        return [p.read_bytes() for p in sorted(CORPUS.iterdir())[:n]]
    return [(f"<html><head><title>Page {i}</title></head><body><h1>Page {i}</h1><ul><li>One item</li>"
             f"<li>Two items</li></ul><table><tr><th>Year</th><th>Value</th></tr><tr><td>20{i:02d}</td>"
             f"<td>{i * 7}</td></tr><tr><td>19{i:02d}</td><td>{i * 3}</td></tr></table>"
             f"<p>Text of page {i}. It has two sentences.</p></body></html>").encode() for i in range(n)]


def _inputs(tmp_path: Path) -> Path:
    """Three WARC files of 12 pages each (one with a non-page record) and a folder of 8 page files."""
    src = tmp_path / "in"
    (src / "files").mkdir(parents=True)
    pages = _pages(44)
    for w in range(3):
        records = [warc_record(f"https://example.org/{w}/{i}", pages[w * 12 + i]) for i in range(12)]
        records.insert(3, warc_record(f"https://example.org/{w}/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(40),
                                      http_headers={"Content-Type": "image/png"}))
        (src / f"crawl-{w}.warc.gz").write_bytes(b"".join(records))
    for i in range(8):
        (src / "files" / f"p{i}.html").write_bytes(pages[36 + i])
    return src


def _local_batch(src: Path, out: Path, capsys, *extra: str) -> list[str]:
    assert main(["extract", str(src), "--format", "jsonl", "-o", str(out), "-q", *extra]) == 0
    capsys.readouterr()
    return out.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def test_bag_records_are_the_local_batch_records(tmp_path: Path, capsys, client) -> None:
    import kitten.dask

    src = _inputs(tmp_path)
    expected = _local_batch(src, tmp_path / "local.jsonl", capsys, "--jsonl-fields", "tables,lists")
    bag = kitten.dask.records([src], fields=("tables", "lists"), files_per_task=3)
    assert bag.npartitions == 3 + 3  # each WARC file alone, 8 page files in tasks of 3
    got = [json.dumps(r, ensure_ascii=False) for r in bag.compute()]
    assert len(got) == 44 and got == expected
    workers = client.run(lambda: __import__("os").getpid())
    assert len(set(workers.values())) == 2  # two worker processes did the work


def test_bag_is_a_bag_the_user_can_filter(tmp_path: Path, client) -> None:  # noqa: ARG001
    import kitten.dask

    src = _inputs(tmp_path)
    done = kitten.dask.records([src]).filter(lambda r: r["status"] == "done").pluck("url").compute()
    assert len(done) == 44 and done[0] == "https://example.org/0/0" and done[-1] is None  # page files: no URL
    with pytest.raises(ValueError):
        kitten.dask.records(["-"])
