"""Corpus-scale batch: WARC and standard input in, JSON Lines out, every input accounted
for, resumable runs, time limits, hostile inputs. WARC files are written by the tests
(``kitten.io.warc.warc_record``, one gzip member a record as Common Crawl writes them)."""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kitten.cli import main
from kitten.io.warc import warc_record

ROOT = Path(__file__).resolve().parent.parent

PAGE_A = ("<html lang='fr'><head><title>Café</title><meta name='author' content='Ann Smith'>"
          "<meta property='og:site_name' content='Example News'></head><body>"
          "<h1>Le café</h1><p>Le café de la gare ouvre à sept heures.</p></body></html>").encode("latin-1")
PAGE_B = b"<html><body><p>Chunked and compressed page about rivers.</p></body></html>"
PAGE_C = b"<html><body><p>A resource record of a page about mountains.</p></body></html>"


def _chunked(body: bytes) -> bytes:
    parts = [body[:17], body[17:40], body[40:]]
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n"


def build_warc(path: Path) -> dict[str, bytes]:
    """A WARC with every kind of record the reader must handle; returns url -> page bytes
    of the records that must be converted."""
    records = [
        # charset only in the HTTP header (the page declares nothing)
        warc_record("https://example.org/a", PAGE_A, http_headers={"Content-Type": "text/html; charset=ISO-8859-1"},
                    payload_digest="sha1:PAGEADIGEST"),
        warc_record("https://example.org/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(40),
                    http_headers={"Content-Type": "image/png"}),
        warc_record("https://example.org/b", _chunked(gzip.compress(PAGE_B, mtime=0)),
                    http_headers={"Content-Type": "text/html", "Content-Encoding": "gzip",
                                  "Transfer-Encoding": "chunked"}),
        warc_record("https://example.org/a", b"", record_type="revisit"),
        warc_record("https://example.org/c", PAGE_C, record_type="resource"),
        warc_record("https://example.org/gone", b"<p>gone</p>", status="404 Not Found"),
        warc_record("https://example.org/truncated", b"<p>" + b"x" * 500 + b"</p>")[:-40],
    ]
    path.write_bytes(b"".join(records))
    return {"https://example.org/a": PAGE_A, "https://example.org/b": PAGE_B, "https://example.org/c": PAGE_C}


def read_jsonl(path: Path) -> list[dict]:
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_warc_records_become_jsonl_records(tmp_path: Path, capsys) -> None:
    warc = tmp_path / "crawl.warc.gz"
    pages = build_warc(warc)
    out = tmp_path / "out.jsonl.gz"
    code, _, err = run(["extract", str(warc), "--format", "jsonl", "-o", str(out)], capsys)
    assert code == 0, err
    recs = read_jsonl(out)
    converted = [r for r in recs if r["status"] == "done"]
    assert [r["url"] for r in converted] == list(pages)
    for r in recs:
        assert r["record_id"].startswith("<urn:uuid:") and r["source"] == "crawl.warc.gz"
        assert r["id"] == f"crawl.warc.gz@{r['offset']}" and r["date"] == "2024-01-01T00:00:00Z"
    # the truncated record is accounted for, not converted
    (truncated,) = [r for r in recs if r["url"] == "https://example.org/truncated"]
    assert truncated["status"] == "excluded" and "truncated" in truncated["reason"] and truncated["text"] is None
    assert len(recs) == 4
    a = converted[0]
    assert "Le café de la gare ouvre à sept heures." in a["text"]  # charset from the HTTP header
    assert a["encoding"] == "windows-1252" and a["lang"] == "fr" and a["title"] == "Café"
    assert a["author"] == "Ann Smith" and a["site_name"] == "Example News"
    # the fields to filter and deduplicate on
    assert a["declared_lang"] == "fr" and 0.5 <= a["lang_score"] <= 1
    assert a["host"] == "example.org" and a["http_status"] == 200
    assert a["content_type"] == "text/html; charset=ISO-8859-1" and a["warc_payload_digest"] == "sha1:PAGEADIGEST"
    assert a["words"] == 11 and a["chars"] == len(a["text"])
    assert a["text_hash"] == hashlib.sha256(" ".join(a["text"].split()).encode()).hexdigest()
    b, c = converted[1:]
    assert b["warc_payload_digest"] is None and b["declared_lang"] is None and b["lang"] == "en"
    assert c["http_status"] is None  # a resource record has no HTTP message
    assert truncated["words"] is truncated["chars"] is truncated["text_hash"] is None
    # the same pages given as files give the same text
    for url, page in pages.items():
        f = tmp_path / (url.rsplit("/", 1)[1] + ".html")
        f.write_bytes(page)
        code, text, _ = run(["extract", str(f), *(["--config", str(_latin1_config(tmp_path))] if url.endswith("/a") else [])], capsys)
        assert text == next(r["text"] for r in converted if r["url"] == url)
    # the summary names what was not converted
    assert "WARC files: 1; records not converted: 3" in err
    for what in ("not HTML (image/png) x1", "revisit record x1", "HTTP status 4xx x1",
                 "excluded x1: truncated or malformed HTTP message"):
        assert what in err


def _latin1_config(tmp_path: Path) -> Path:
    """A page file has no HTTP header: the default encoding stands in for it."""
    cfg = tmp_path / "latin1.toml"
    cfg.write_text('[decode]\ndefault_encoding = "windows-1252"\n', encoding="utf-8")
    return cfg


def test_warc_recognised_by_content_and_folder_outputs(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in"
    src.mkdir()
    build_warc(src / "crawl.warc.gz")
    (src / "renamed.bin").write_bytes((src / "crawl.warc.gz").read_bytes())
    out = tmp_path / "out"
    code, _, err = run(["extract", str(src / "crawl.warc.gz"), str(src / "renamed.bin"), "-o", str(out), "-q"], capsys)
    assert code == 0, err
    a = sorted(p.name for p in (out / "crawl").iterdir())
    b = sorted(p.name for p in (out / "renamed.bin").iterdir())
    assert a == b and len(a) == 3  # three pages; the truncated record is in the log only
    log = [json.loads(x) for x in (out / "kitten-log.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(log) == 8 and {x["status"] for x in log} == {"done", "excluded"}


def test_corrupt_gzip_member_skipped_and_reading_goes_on(tmp_path: Path, capsys) -> None:
    good = [warc_record(f"https://example.org/{i}", b"<p>Page number %d of the crawl.</p>" % i) for i in range(3)]
    broken = bytearray(good[1])
    broken[30:40] = b"\x00" * 10
    warc = tmp_path / "c.warc.gz"
    warc.write_bytes(good[0] + bytes(broken) + good[2])
    out = tmp_path / "c.jsonl"
    code, _, err = run(["extract", str(warc), "--format", "jsonl", "-o", str(out)], capsys)
    assert code == 0
    recs = read_jsonl(out)
    assert [r["url"] for r in recs] == ["https://example.org/0", None, "https://example.org/2"]
    assert recs[1]["status"] == "excluded" and recs[1]["reason"].startswith("corrupt WARC data after offset 0")
    assert "corrupt WARC data" in err


def test_stdin_page_and_stdin_warc(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    page = subprocess.run([sys.executable, "-m", "kitten", "extract", "-"], input=b"<p>From standard input.</p>",
                          capture_output=True, env=env, timeout=120)
    assert page.returncode == 0 and page.stdout == b"From standard input.\n", page.stderr
    warc = tmp_path / "x.warc.gz"
    build_warc(warc)
    got = subprocess.run([sys.executable, "-m", "kitten", "extract", "-", "--format", "jsonl", "-q"],
                         input=warc.read_bytes(), capture_output=True, env=env, timeout=120)
    assert got.returncode == 0, got.stderr
    recs = [json.loads(x) for x in got.stdout.decode().splitlines()]
    assert [r["url"] for r in recs if r["status"] == "done"] == ["https://example.org/a", "https://example.org/b",
                                                                  "https://example.org/c"]


def test_input_list(tmp_path: Path, capsys) -> None:
    for i in range(3):
        (tmp_path / f"p{i}.html").write_text(f"<p>Page {i} text.</p>", encoding="utf-8")
    listing = tmp_path / "list.txt"
    listing.write_text(f"# pages\n{tmp_path / 'p0.html'}\n\n{tmp_path / 'p2.html'}\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code, _, _ = run(["extract", "--input-list", str(listing), "--format", "jsonl", "-o", str(out), "-q"], capsys)
    assert code == 0
    assert [r["text"] for r in read_jsonl(out)] == ["Page 0 text.\n", "Page 2 text.\n"]


def _pages(folder: Path, n: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (folder / f"p{i:03d}.html").write_text(f"<h1>Title {i}</h1><p>Body of page {i}, with a sentence.</p>",
                                                encoding="utf-8")


def test_jsonl_shards_resume_after_a_lost_shard(tmp_path: Path, capsys) -> None:
    _pages(tmp_path / "in", 7)
    out = tmp_path / "shards"
    args = ["extract", str(tmp_path / "in"), "--format", "jsonl", "--shard-size", "3", "-o", str(out), "-q"]
    assert run(args, capsys)[0] == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == ["_manifest.jsonl", "kitten-run.json", "part-00000.jsonl.gz", "part-00001.jsonl.gz",
                     "part-00002.jsonl.gz"]
    first = {n: (out / n).read_bytes() for n in names}
    manifest = (out / "_manifest.jsonl").read_text().splitlines()
    # as if killed while the second shard was being renamed: its manifest line is missing
    (out / "_manifest.jsonl").write_text(manifest[0] + "\n")
    (out / "part-00002.jsonl.gz").unlink()
    code, _, err = run(args[:-1], capsys)
    assert code == 0
    assert "3 done by an earlier run" in err
    assert {n: (out / n).read_bytes() for n in names} == first


def test_folder_resume_and_overwrite(tmp_path: Path, capsys) -> None:
    _pages(tmp_path / "in", 5)
    out = tmp_path / "out"
    args = ["extract", str(tmp_path / "in"), "-o", str(out)]
    assert run(args + ["-q"], capsys)[0] == 0
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.suffix == ".txt"}
    log = (out / "kitten-log.jsonl").read_text(encoding="utf-8").splitlines(True)
    (out / "kitten-log.jsonl").write_text("".join(log[:2]) + log[2][:10], encoding="utf-8")  # torn by a kill
    (out / "p004.txt").unlink()
    code, _, err = run(args, capsys)
    assert code == 0 and "2 done by an earlier run" in err
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.suffix == ".txt"} == before
    lines = [json.loads(x) for x in (out / "kitten-log.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(x["page"] for x in lines) == [f"p{i:03d}.html" for i in range(5)]
    code, _, err = run(args + ["--overwrite"], capsys)
    assert code == 0 and "5 pages" in err and "earlier run" not in err


def test_jobs_1_and_jobs_3_write_the_same(tmp_path: Path, capsys) -> None:
    _pages(tmp_path / "in", 12)
    outs = {}
    for jobs in ("1", "3"):
        out = tmp_path / f"out{jobs}.jsonl"
        assert run(["extract", str(tmp_path / "in"), "--format", "jsonl", "-o", str(out), "-j", jobs, "-q"], capsys)[0] == 0
        outs[jobs] = out.read_bytes()
    assert outs["1"] == outs["3"]


def big_table_page(rows: int = 200, cols: int = 50) -> str:
    head = "<tr>" + "".join(f"<th>Column {c}</th>" for c in range(cols)) + "</tr>"
    body = "".join("<tr>" + "".join(f"<td>{r * c}</td>" for c in range(cols)) + "</tr>" for r in range(rows))
    return f"<html><body><p>A page with a big table.</p><table>{head}{body}</table></body></html>"


def test_page_past_the_time_limit_does_not_hold_the_others(tmp_path: Path, capsys, monkeypatch) -> None:
    import kitten.workers

    real = kitten.workers.convert

    def slow(record, job):
        if record.id == "big.html":
            time.sleep(60)  # a page that never ends, whatever the machine's speed
        return real(record, job)

    monkeypatch.setattr(kitten.workers, "convert", slow)  # the workers are forked with it
    src = tmp_path / "in"
    _pages(src, 4)
    (src / "big.html").write_text(big_table_page(), encoding="utf-8")
    out = tmp_path / "out"
    start = time.monotonic()
    code, _, err = run(["extract", str(src), "-o", str(out), "--page-timeout", "1", "-j", "2"], capsys)
    assert code == 0 and time.monotonic() - start < 20
    log = {x["page"]: x for x in map(json.loads, (out / "kitten-log.jsonl").read_text(encoding="utf-8").splitlines())}
    assert log["big.html"]["status"] == "timeout" and "time limit" in log["big.html"]["reason"]
    assert (out / "big.txt").read_text(encoding="utf-8").startswith("A page with a big table.")  # the plain dump
    assert all(log[f"p{i:03d}.html"]["status"] == "done" for i in range(4))
    assert "timeout 1" in err


def test_a_worker_that_dies_costs_only_its_page(tmp_path: Path, capsys, monkeypatch) -> None:
    import kitten.workers

    real = kitten.workers.convert

    def deadly(record, job):
        if record.id == "p001.html":
            os.kill(os.getpid(), signal.SIGKILL)
        return real(record, job)

    monkeypatch.setattr(kitten.workers, "convert", deadly)  # the workers are forked with it
    _pages(tmp_path / "in", 4)
    out = tmp_path / "out"
    code, _, _ = run(["extract", str(tmp_path / "in"), "-o", str(out), "-q", "-j", "2"], capsys)
    assert code == 0
    log = {x["page"]: x for x in map(json.loads, (out / "kitten-log.jsonl").read_text(encoding="utf-8").splitlines())}
    assert len(log) == 4
    assert log["p001.html"]["status"] == "failed" and "SIGKILL" in log["p001.html"]["reason"]
    assert (out / "p001.txt").read_text(encoding="utf-8").startswith("Title 1")  # the plain dump
    assert [log[f"p{i:03d}.html"]["status"] for i in (0, 2, 3)] == ["done"] * 3


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_exit_when_the_main_process_is_killed(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    for i in range(6):
        (src / f"big{i}.html").write_text(big_table_page(1500), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "kitten", "extract", str(src), "-o", str(tmp_path / "out"),
                             "-j", "2", "-q"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children: list[int] = []
    for _ in range(100):
        time.sleep(0.1)
        try:
            children = [int(x) for x in Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()]
        except OSError:
            children = []
        if len(children) >= 2:
            break
    assert children, "no workers started"
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(Path(f"/proc/{c}").exists() and _alive(c) for c in children):
        time.sleep(0.1)
    assert not any(Path(f"/proc/{c}").exists() and _alive(c) for c in children)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_hostile_inputs_are_accounted_for(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "ok.html").write_text("<p>An ordinary page.</p>", encoding="utf-8")
    os.mkfifo(src / "fifo.html")  # would block a reader for ever
    outside = tmp_path / "secret.html"
    outside.write_text("<p>Outside the input folder.</p>", encoding="utf-8")
    (src / "link.html").symlink_to(outside)
    (src / "bomb.html.gz").write_bytes(gzip.compress(b"<p>" + b"a" * (3 * 2**20), mtime=0))
    long_name = "n" * 245 + ".html"
    (src / long_name).write_text("<p>A page with a long name.</p>", encoding="utf-8")
    (src / "notes.txt").write_text("not a page", encoding="utf-8")
    out = tmp_path / "out"
    code, _, err = run(["extract", str(src), "-o", str(out), "--max-page-size", "1"], capsys)
    assert code == 0, err
    log = {x["page"]: x for x in map(json.loads, (out / "kitten-log.jsonl").read_text(encoding="utf-8").splitlines())}
    assert log["fifo.html"]["status"] == "excluded" and "FIFO" in log["fifo.html"]["reason"]
    assert log["link.html"]["status"] == "excluded" and "symlink" in log["link.html"]["reason"]
    assert log["bomb.html.gz"]["status"] == "excluded" and "size cap" in log["bomb.html.gz"]["reason"]
    assert log[long_name]["status"] == "done" and Path(log[long_name]["output"]).is_file()
    assert log["ok.html"]["status"] == "done"
    assert "files left out of folders (not page or WARC names): 1 (.txt x1)" in err
    assert not any("Outside" in p.read_text(encoding="utf-8") for p in out.rglob("*.txt"))


def test_unwritable_output_subfolder_fails_that_page_only(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    (src / "sub" / "a.html").write_text("<p>In a subfolder.</p>", encoding="utf-8")
    (src / "b.html").write_text("<p>At the top.</p>", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "sub").write_text("a file where a folder should be", encoding="utf-8")
    code, _, _ = run(["extract", str(src), "-o", str(out), "-q"], capsys)
    assert code == 0
    log = {x["page"]: x for x in map(json.loads, (out / "kitten-log.jsonl").read_text(encoding="utf-8").splitlines())}
    assert log["sub/a.html"]["status"] == "failed" and "output not written" in log["sub/a.html"]["reason"]
    assert log["b.html"]["status"] == "done"


@pytest.mark.parametrize("argv, message", [
    (["--format", "jsonl", "-o", "/proc/kitten.jsonl"], "kitten: "),
    (["-o", "/proc/version/out"], "cannot create the output folder"),
    (["--format", "jsonl", "-o", "out.txt"], ".jsonl or .jsonl.gz"),
    (["--jsonl-fields", "nonsense", "--format", "jsonl"], "unknown --fields"),
])
def test_bad_output_is_a_one_line_error(tmp_path: Path, capsys, argv, message) -> None:
    page = tmp_path / "p.html"
    page.write_text("<p>x</p>", encoding="utf-8")
    code, _, err = run(["extract", str(page), *argv], capsys)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_jsonl_fields_on_request(tmp_path: Path, capsys) -> None:
    page = tmp_path / "p.html"
    page.write_text("<ul><li>one</li><li>two</li></ul><table><tr><th>A</th><th>B</th></tr>"
                    "<tr><td>1</td><td>2</td></tr></table>", encoding="utf-8")
    out = tmp_path / "p.jsonl"
    assert run(["extract", str(page), "--format", "jsonl", "--jsonl-fields", "blocks,sentences,tables,lists",
                "-o", str(out), "-q"], capsys)[0] == 0
    (rec,) = read_jsonl(out)
    assert {"blocks", "sentences", "tables", "lists"} <= rec.keys()
    assert [s["text"] for s in rec["sentences"]] == rec["text"].splitlines()


def test_records_match_the_schema(tmp_path: Path, capsys) -> None:
    schema = json.loads((ROOT / "kitten" / "schema" / "record.schema.json").read_text(encoding="utf-8"))
    assert schema["version"] == 3
    warc = tmp_path / "crawl.warc.gz"
    build_warc(warc)
    out = tmp_path / "out.jsonl"
    assert run(["extract", str(warc), "--format", "jsonl", "-o", str(out), "-q"], capsys)[0] == 0
    props = schema["properties"]
    for rec in read_jsonl(out):
        assert set(schema["required"]) <= rec.keys() <= props.keys()
        for key, value in rec.items():
            types = props[key]["type"]
            types = types if isinstance(types, list) else [types]
            pytype = {"string": str, "integer": int, "number": (int, float), "null": type(None), "array": list,
                      "object": dict}
            assert any(isinstance(value, pytype[t]) for t in types), (key, value)
        assert rec["status"] in props["status"]["enum"]


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE document [
<!ENTITY lol "lol">
<!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
<!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
<!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
<!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
<!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
<!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<document><header><title>Laughs</title></header><textfield><p>Before &lol9; after.</p></textfield></document>"""


def test_xml_inputs_expand_no_entities_and_fetch_nothing(tmp_path: Path) -> None:
    import kitten

    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT", encoding="utf-8")
    xxe = (f'<?xml version="1.0"?><!DOCTYPE document [<!ENTITY x SYSTEM "file://{secret}">]>'
           '<document><textfield><p>Leak: &x; end.</p></textfield></document>')
    html_xxe = (f'<!DOCTYPE html [<!ENTITY x SYSTEM "file://{secret}">]><html><body><p>Leak: &x; end.</p>'
                '</body></html>')
    for page in (xxe, html_xxe):
        assert "TOP-SECRET" not in kitten.extract(page)
    start = time.monotonic()
    text = kitten.extract(BILLION_LAUGHS)
    assert time.monotonic() - start < 5 and len(text) < 10_000
    assert "lol" * 100 not in text


def test_ctrl_c_stops_cleanly_with_the_summary_so_far(tmp_path: Path) -> None:
    src = tmp_path / "in"
    _pages(src, 3)
    for i in range(4):  # after the small pages in input order
        (src / f"zbig{i}.html").write_text(big_table_page(1500), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "kitten", "extract", str(src), "-o", str(tmp_path / "out"), "-j", "2"],
                            env=env, stderr=subprocess.PIPE, text=True, start_new_session=True)
    log = tmp_path / "out" / "kitten-log.jsonl"
    for _ in range(200):  # until the small pages are done
        time.sleep(0.05)
        if log.exists() and len(log.read_text().splitlines()) >= 3:
            break
    start = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
    err = proc.communicate(timeout=30)[1]
    assert time.monotonic() - start < 5
    assert proc.returncode == 130 and "Traceback" not in err  # 128 + SIGINT, as a shell reports it
    assert "INTERRUPTED (run the same command again to resume)" in err and len(err.strip().splitlines()) == 1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS as Linux counts it")
def test_page_past_the_memory_limit_is_recorded(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in"
    _pages(src, 2)
    with open(src / "big.html", "w", encoding="utf-8") as fh:  # 28 MB: about 1 GB to convert
        fh.write("<html><body>")
        fh.writelines(f"<p class='c{i % 50}'>Paragraph {i} with words.</p>" for i in range(600_000))
        fh.write("</body></html>")
    out = tmp_path / "out"
    code, _, _ = run(["extract", str(src), "-o", str(out), "--max-memory", "300", "-q"], capsys)
    assert code == 0
    log = {x["page"]: x for x in map(json.loads, (out / "kitten-log.jsonl").read_text(encoding="utf-8").splitlines())}
    assert log["big.html"]["status"] in ("fallback", "failed") and log["big.html"]["reason"]
    assert log["p000.html"]["status"] == log["p001.html"]["status"] == "done"


def test_a_worker_converts_a_page_with_the_cyclic_collector_paused(monkeypatch) -> None:
    """``kitten.workers._page``: the collector does not run during a page (it walked a
    big table's objects again and again), runs again after it, also when the page ran
    out of memory, and a page past the memory limit is still a ``failed`` outcome."""
    import gc

    from kitten import workers
    from kitten.io.records import Record

    seen = []

    def convert(record, job):
        seen.append(gc.isenabled())
        if record.id == "big":
            raise MemoryError
        return "outcome"

    monkeypatch.setattr(workers, "convert", convert)
    assert gc.isenabled()
    assert workers._page(Record("small", Path("small"), "small"), None) == "outcome" and gc.isenabled()
    failed = workers._page(Record("big", Path("big"), "big"), None)
    assert gc.isenabled() and seen == [False, False]
    assert failed.status == "failed" and failed.reason == "past the memory limit"


def test_warc_1_0_uncompressed(tmp_path: Path, capsys) -> None:
    raw = b"".join(warc_record(f"https://example.org/{i}", b"<p>Page %d of an old crawl.</p>" % i, compress=False)
                   .replace(b"WARC/1.1\r\n", b"WARC/1.0\r\n") for i in range(3))
    (tmp_path / "old.warc").write_bytes(raw)
    out = tmp_path / "old.jsonl"
    assert run(["extract", str(tmp_path / "old.warc"), "--format", "jsonl", "-o", str(out), "-q"], capsys)[0] == 0
    assert [r["text"] for r in read_jsonl(out)] == [f"Page {i} of an old crawl.\n" for i in range(3)]
